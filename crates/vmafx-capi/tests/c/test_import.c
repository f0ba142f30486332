/* Frame import (ADR-1929 items 1, 5, 6, 7, 13) and wrapped host frames. */
#include <stdlib.h>
#include <time.h>

#include "check.h"
#include <vmafx/frame_import_hooks.h>

enum { W = 64, H = 48, LUMA = W * H, CHROMA = LUMA / 4 };

static uint8_t pixels[2 * (LUMA + 2 * CHROMA)] __attribute__((aligned(16)));

static VmafxFrameImport planar8(void)
{
    VmafxFrameImport imp = VMAFX_FRAME_IMPORT_INIT;
    imp.memory = VMAFX_MEMORY_HOST;
    imp.pix_fmt = VMAFX_PIXEL_FORMAT_YUV420P;
    imp.bpc = 8;
    imp.w = W;
    imp.h = H;
    imp.n_planes = 3;
    const uint64_t off[3] = {0, LUMA, LUMA + CHROMA};
    const uint64_t pitch[3] = {W, W / 2, W / 2};
    for (int p = 0; p < 3; p++) {
        imp.plane[p].handle = (uintptr_t)pixels;
        imp.plane[p].offset = off[p];
        imp.plane[p].pitch = pitch[p];
    }
    return imp;
}

/* The import is refused with `status` naming `subject` of `kind`, and *out is cleared. */
static bool refused(const VmafxFrameImport *imp, VmafxStatus status, const char *subject,
                    uint32_t kind)
{
    VmafxFrame *frame = (VmafxFrame *)(uintptr_t)1; /* must be overwritten with NULL */
    VmafxError *err = NULL;
    VmafxStatus got = vmafx_frame_import(NULL, imp, &frame, &err);
    return frame == NULL && got == status && named(&err, status, subject, kind);
}

static unsigned released;
static VmafxFence watched = VMAFX_FENCE_INIT;
static bool fence_was_signalled_at_release;

static void on_release(void *user)
{
    released += *(unsigned *)user;
    fence_was_signalled_at_release = vmafx_fence_wait(&watched, 0u, NULL) == VMAFX_OK;
}

static uint16_t sample(const VmafxFramePlanes *pl, int p, unsigned x, unsigned y)
{
    const uint8_t *row = (const uint8_t *)pl->data[p] + y * pl->stride[p];
    if (pl->bpc > 8) {
        uint16_t v;
        memcpy(&v, row + 2 * x, 2);
        return v;
    }
    return row[x];
}

/* Import the semi-planar form of a planar frame and compare every sample with it. */
static bool semiplanar_matches(uint32_t pix_fmt, uint32_t bpc, unsigned shift)
{
    const size_t bytes = bpc > 8 ? 2 : 1;
    uint16_t planar[LUMA + 2 * CHROMA];
    for (size_t i = 0; i < LUMA + 2 * CHROMA; i++)
        planar[i] = (uint16_t)((i * 37u + 11u) & ((1u << bpc) - 1u));
    uint8_t *buf = malloc((LUMA + 2 * CHROMA) * bytes);
    for (size_t i = 0; i < LUMA + 2 * CHROMA; i++) {
        size_t at = i < LUMA ? i : LUMA + 2 * ((i - LUMA) % CHROMA) + (i - LUMA) / CHROMA;
        uint16_t v = (uint16_t)(planar[i] << shift);
        if (bytes == 2)
            memcpy(buf + 2 * at, &v, 2);
        else
            buf[at] = (uint8_t)v;
    }
    VmafxFrameImport imp = VMAFX_FRAME_IMPORT_INIT;
    imp.memory = VMAFX_MEMORY_HOST;
    imp.pix_fmt = pix_fmt;
    imp.bpc = bpc;
    imp.w = W;
    imp.h = H;
    imp.n_planes = 2;
    imp.plane[0].handle = (uintptr_t)buf;
    imp.plane[0].pitch = W * bytes;
    imp.plane[1].handle = (uintptr_t)(buf + LUMA * bytes);
    imp.plane[1].pitch = W * bytes;
    vmafx_test_reset_counters();
    VmafxFrame *frame = NULL;
    bool ok = vmafx_frame_import(NULL, &imp, &frame, NULL) == VMAFX_OK;
    VmafxFramePlanes pl = VMAFX_FRAME_PLANES_INIT;
    ok = ok && vmafx_frame_planes(frame, &pl, NULL) == VMAFX_OK;
    ok = ok && pl.pix_fmt == VMAFX_PIXEL_FORMAT_YUV420P && pl.bpc == bpc && pl.n_planes == 3;
    ok = ok && vmafx_test_host_copies() == 0u && vmafx_test_conversions() >= 1u;
    ok = ok && (pl.data[0] == (void *)buf) == (shift == 0);
    for (int p = 0; ok && p < 3; p++) {
        const size_t base = p == 0 ? 0 : LUMA + (size_t)(p - 1) * CHROMA;
        for (unsigned y = 0; ok && y < pl.h[p]; y++)
            for (unsigned x = 0; ok && x < pl.w[p]; x++)
                ok = sample(&pl, p, x, y) == planar[base + y * pl.w[p] + x];
    }
    vmafx_frame_unref(frame);
    free(buf);
    return ok;
}

int main(void)
{
    for (size_t i = 0; i < sizeof(pixels); i++)
        pixels[i] = (uint8_t)(i * 7u);
    VmafxFrameImport imp;

#define REFUSE(mutation, status, subject, kind)                                           \
    do {                                                                                  \
        imp = planar8();                                                                  \
        mutation;                                                                         \
        CHECK(refused(&imp, status, subject, kind));                                      \
    } while (0)
    REFUSE(imp.memory = VMAFX_MEMORY_NONE, VMAFX_E_INVALID, "desc.memory", VMAFX_SUBJECT_PARAMETER);
    REFUSE(imp.memory = VMAFX_MEMORY_DMABUF, VMAFX_E_NOTSUP, "desc.memory", VMAFX_SUBJECT_PARAMETER);
    REFUSE(imp.memory = VMAFX_MEMORY_GL_TEXTURE, VMAFX_E_NOTSUP, "desc.memory", VMAFX_SUBJECT_PARAMETER);
    REFUSE(imp.memory = 42u, VMAFX_E_INVALID, "desc.memory", VMAFX_SUBJECT_PARAMETER);
    REFUSE(imp.pix_fmt = 99u, VMAFX_E_INVALID, "desc.pix_fmt", VMAFX_SUBJECT_PARAMETER);
    REFUSE((imp.pix_fmt = VMAFX_PIXEL_FORMAT_NV12, imp.n_planes = 2, imp.bpc = 10), VMAFX_E_INVALID,
           "desc.bpc", VMAFX_SUBJECT_PARAMETER);
    REFUSE(imp.pix_fmt = VMAFX_PIXEL_FORMAT_NV12, VMAFX_E_INVALID, "desc.n_planes",
           VMAFX_SUBJECT_PARAMETER);
    REFUSE(imp.w = 0u, VMAFX_E_RANGE, "desc.w", VMAFX_SUBJECT_PARAMETER);
    REFUSE(imp.h = 40000u, VMAFX_E_RANGE, "desc.h", VMAFX_SUBJECT_PARAMETER);
    REFUSE(imp.flags = 1u << 9, VMAFX_E_INVALID, "desc.flags", VMAFX_SUBJECT_PARAMETER);
    REFUSE(imp.struct_size = 16u, VMAFX_E_ABI, "desc", VMAFX_SUBJECT_PARAMETER);
    REFUSE(imp.plane[1].handle = 0u, VMAFX_E_INVALID, "desc.plane[1].handle", VMAFX_SUBJECT_PLANE);
    REFUSE(imp.plane[0].pitch = W - 1u, VMAFX_E_INVALID, "desc.plane[0].pitch", VMAFX_SUBJECT_PLANE);
    REFUSE(imp.plane[2].modifier = 0x0100000000000001ull, VMAFX_E_NOTSUP, "desc.plane[2].modifier",
           VMAFX_SUBJECT_PLANE);
    REFUSE(imp.plane[0].size = LUMA - 1u, VMAFX_E_RANGE, "desc.plane[0].size", VMAFX_SUBJECT_PLANE);
    REFUSE((imp.plane[0].size = LUMA, imp.plane[0].offset = 1u), VMAFX_E_RANGE,
           "desc.plane[0].size", VMAFX_SUBJECT_PLANE);
    REFUSE(imp.plane[0].offset = UINT64_MAX - 8u, VMAFX_E_RANGE, "desc.plane[0].size",
           VMAFX_SUBJECT_PLANE);
    REFUSE(imp.acquire.kind = VMAFX_FENCE_CUDA_EVENT, VMAFX_E_NOTSUP, "desc.acquire.kind",
           VMAFX_SUBJECT_FENCE);
    REFUSE(imp.acquire.kind = 77u, VMAFX_E_INVALID, "desc.acquire.kind", VMAFX_SUBJECT_FENCE);
    CHECK(refused(NULL, VMAFX_E_INVALID, "desc", VMAFX_SUBJECT_PARAMETER));
    imp = planar8();
    CHECK(vmafx_frame_import(NULL, &imp, NULL, NULL) == VMAFX_E_INVALID);

    /* Item 7: an unsignalled acquire fence is BUSY at once, never a wait. */
    VmafxFence fence = VMAFX_FENCE_INIT;
    CHECK(vmafx_fence_create(NULL, VMAFX_FENCE_HOST, &fence, NULL) == VMAFX_OK);
    imp = planar8();
    imp.acquire = fence;
    clock_t c0 = clock();
    CHECK(refused(&imp, VMAFX_E_BUSY, "desc.acquire", VMAFX_SUBJECT_FENCE));
    CHECK((double)(clock() - c0) / CLOCKS_PER_SEC < 1.0);
    /* Item 13: the planted skipped wait lets it through; a test must see that defect. */
    vmafx_test_set_switches(VMAFX_TEST_SKIP_ACQUIRE_WAIT);
    VmafxFrame *frame = NULL;
    CHECK(vmafx_frame_import(NULL, &imp, &frame, NULL) == VMAFX_OK);
    vmafx_frame_unref(frame);
    vmafx_test_set_switches(0u);
    CHECK(vmafx_fence_signal(&fence, NULL) == VMAFX_OK);
    CHECK(vmafx_frame_import(NULL, &imp, &frame, NULL) == VMAFX_OK);
    CHECK(vmafx_fence_destroy(&fence, NULL) == VMAFX_OK); /* borrowed for the call */
    vmafx_frame_unref(frame);

    /* Item 5: a zeroed descriptor binds host memory in place; no copy is counted. */
    vmafx_test_reset_counters();
    imp = planar8();
    imp.plane[0].size = LUMA;
    unsigned one = 1;
    imp.release = on_release;
    imp.user = &one;
    released = 0;
    CHECK(vmafx_frame_import(NULL, &imp, &frame, NULL) == VMAFX_OK);
    VmafxFramePlanes pl = VMAFX_FRAME_PLANES_INIT;
    CHECK(vmafx_frame_planes(frame, &pl, NULL) == VMAFX_OK);
    CHECK(pl.data[0] == (void *)pixels && pl.data[1] == (void *)(pixels + LUMA) &&
          pl.data[2] == (void *)(pixels + LUMA + CHROMA));
    CHECK(pl.stride[0] == W && pl.stride[1] == W / 2 && pl.w[1] == W / 2 && pl.h[1] == H / 2);
    CHECK(vmafx_test_host_copies() == 0u && vmafx_test_import_attempts() == 1u);
    /* Item 4: the release fence goes at the last reference, then the callback, once. */
    CHECK(vmafx_frame_release_fence(frame, VMAFX_FENCE_HOST, &watched, NULL) == VMAFX_OK);
    VmafxFrame *again = vmafx_frame_ref(frame);
    vmafx_frame_unref(frame);
    CHECK(released == 0u && vmafx_fence_wait(&watched, 0u, NULL) == VMAFX_PENDING);
    vmafx_frame_unref(again);
    CHECK(released == 1u && fence_was_signalled_at_release);
    CHECK(vmafx_fence_destroy(&watched, NULL) == VMAFX_OK);

    /* A 0.1.3 caller's descriptor (no release fields) is read up to its size. */
    imp = planar8();
    imp.struct_size = (uint32_t)offsetof(VmafxFrameImport, release);
    imp.release = on_release; /* past its size: never called */
    imp.user = &one;
    CHECK(vmafx_frame_import(NULL, &imp, &frame, NULL) == VMAFX_OK);
    vmafx_frame_unref(frame);
    CHECK(released == 1u);

    /* Item 13: a forced host copy is counted, and a planted failure is taken first. */
    vmafx_test_reset_counters();
    vmafx_test_set_switches(VMAFX_TEST_FORCE_HOST_COPY);
    imp = planar8();
    CHECK(vmafx_frame_import(NULL, &imp, &frame, NULL) == VMAFX_OK);
    CHECK(vmafx_frame_planes(frame, &pl, NULL) == VMAFX_OK && pl.data[0] != (void *)pixels);
    vmafx_frame_unref(frame);
    vmafx_test_set_switches(0u);
    CHECK(vmafx_test_host_copies() == 1u && vmafx_test_host_copy_bytes() == LUMA + 2u * CHROMA);
    vmafx_test_fail_imports(VMAFX_E_BUSY, 1u);
    CHECK(refused(&imp, VMAFX_E_BUSY, "desc", VMAFX_SUBJECT_PARAMETER));
    CHECK(vmafx_frame_import(NULL, &imp, &frame, NULL) == VMAFX_OK);
    vmafx_frame_unref(frame);
    CHECK(vmafx_test_import_attempts() == 3u && vmafx_test_take_import_failure() == VMAFX_OK);
    vmafx_test_set_import_residency(VMAFX_BACKEND_CUDA);
    CHECK(vmafx_test_import_residency() == VMAFX_BACKEND_CUDA);
    vmafx_test_set_import_residency(VMAFX_TEST_RESIDENCY_OFF);

    /* Item 6: NV12, P010 and P016 become the planar frame, sample for sample. */
    CHECK(semiplanar_matches(VMAFX_PIXEL_FORMAT_NV12, 8, 0));
    CHECK(semiplanar_matches(VMAFX_PIXEL_FORMAT_P010, 10, 6));
    CHECK(semiplanar_matches(VMAFX_PIXEL_FORMAT_P016, 16, 0));

    /* Wrapped host planes: bound in place, released once; not on failure. */
    VmafxFrameDesc d = VMAFX_FRAME_DESC_INIT;
    d.pix_fmt = VMAFX_PIXEL_FORMAT_YUV420P;
    d.bpc = 8;
    d.w = W;
    d.h = H;
    VmafxHostPlanes hp = VMAFX_HOST_PLANES_INIT;
    hp.data[0] = pixels;
    hp.data[1] = pixels + LUMA;
    hp.data[2] = pixels + LUMA + CHROMA;
    hp.stride[0] = W;
    hp.stride[1] = hp.stride[2] = W / 2;
    hp.release = on_release;
    hp.user = &one;
    released = 0;
    CHECK(vmafx_frame_wrap_host(NULL, &d, &hp, &frame, NULL) == VMAFX_OK);
    CHECK(vmafx_frame_planes(frame, &pl, NULL) == VMAFX_OK && pl.data[2] == hp.data[2]);
    CHECK(vmafx_frame_release_fence(frame, VMAFX_FENCE_HOST, &watched, NULL) == VMAFX_OK);
    vmafx_frame_unref(frame);
    CHECK(released == 1u && fence_was_signalled_at_release);
    CHECK(vmafx_fence_destroy(&watched, NULL) == VMAFX_OK);
    hp.stride[1] = 3;
    VmafxError *err = NULL;
    FAILS(vmafx_frame_wrap_host(NULL, &d, &hp, &frame, &err), VMAFX_E_INVALID, &err,
          "planes.stride[1]", VMAFX_SUBJECT_PLANE);
    CHECK(released == 1u && frame == NULL);
    d.pix_fmt = VMAFX_PIXEL_FORMAT_P010;
    FAILS(vmafx_frame_create_host(NULL, &d, &frame, &err), VMAFX_E_INVALID, &err, "desc.pix_fmt",
          VMAFX_SUBJECT_PARAMETER);
    d.pix_fmt = VMAFX_PIXEL_FORMAT_YUV444P;
    d.bpc = 17;
    FAILS(vmafx_frame_create_host(NULL, &d, &frame, &err), VMAFX_E_RANGE, &err, "desc.bpc",
          VMAFX_SUBJECT_PARAMETER);
    return check_finish("test_import");
}
