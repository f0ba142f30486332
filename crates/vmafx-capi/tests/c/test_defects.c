/* The planted defects of frame_import_hooks.h (ADR-1929 item 13), each against the check
 * that must catch it. Every check runs twice: clean, where it must hold, and with its
 * defect planted, where it must fail. A check that still held with its defect planted
 * could not see that defect. */
#include <math.h>
#include <stdlib.h>

#include "check.h"
#include <vmafx/frame_import_hooks.h>

enum { W = 64, H = 48, LUMA = W * H, CHROMA = LUMA / 4 };

/* The producer's content of a distorted picture (planar) and of the reference. */
static uint8_t reference[LUMA + 2 * CHROMA];
static uint8_t distorted[LUMA + 2 * CHROMA];

static void fill(uint8_t *p, unsigned seed)
{
    for (unsigned i = 0; i < LUMA + 2 * CHROMA; i++)
        p[i] = (uint8_t)((i * 7u + (i / W) * 3u + seed * 41u) & 0xffu);
}

static VmafxFrameDesc desc420(void)
{
    VmafxFrameDesc d = VMAFX_FRAME_DESC_INIT;
    d.pix_fmt = VMAFX_PIXEL_FORMAT_YUV420P;
    d.bpc = 8;
    d.w = W;
    d.h = H;
    return d;
}

/* A host frame holding a copy of the planar picture `src`. */
static VmafxFrame *host_frame(const uint8_t *src)
{
    const VmafxFrameDesc d = desc420();
    return host_frame_copy(&d, src);
}

/* An import descriptor over the planar picture `buf`. */
static VmafxFrameImport planar_desc(const uint8_t *buf)
{
    VmafxFrameImport imp = VMAFX_FRAME_IMPORT_INIT;
    imp.memory = VMAFX_MEMORY_HOST;
    imp.pix_fmt = VMAFX_PIXEL_FORMAT_YUV420P;
    imp.bpc = 8;
    imp.w = W;
    imp.h = H;
    imp.n_planes = 3;
    imp.plane[0].handle = (uintptr_t)buf;
    imp.plane[0].pitch = W;
    imp.plane[1].handle = (uintptr_t)(buf + LUMA);
    imp.plane[1].pitch = W / 2;
    imp.plane[2].handle = (uintptr_t)(buf + LUMA + CHROMA);
    imp.plane[2].pitch = W / 2;
    return imp;
}

/* The NV12 form of the planar picture `src` in `dst`. */
static void to_nv12(const uint8_t *src, uint8_t *dst)
{
    memcpy(dst, src, LUMA);
    for (unsigned i = 0; i < CHROMA; i++) {
        dst[LUMA + 2 * i] = src[LUMA + i];
        dst[LUMA + 2 * i + 1] = src[LUMA + CHROMA + i];
    }
}

static VmafxFrameImport nv12_desc(const uint8_t *buf)
{
    VmafxFrameImport imp = VMAFX_FRAME_IMPORT_INIT;
    imp.memory = VMAFX_MEMORY_HOST;
    imp.pix_fmt = VMAFX_PIXEL_FORMAT_NV12;
    imp.bpc = 8;
    imp.w = W;
    imp.h = H;
    imp.n_planes = 2;
    imp.plane[0].handle = (uintptr_t)buf;
    imp.plane[0].pitch = W;
    imp.plane[1].handle = (uintptr_t)(buf + LUMA);
    imp.plane[1].pitch = W;
    return imp;
}

static VmafxContext *psnr_context(void)
{
    VmafxContext *c = NULL;
    if (vmafx_context_create(NULL, &c, NULL) != VMAFX_OK)
        return NULL;
    if (vmafx_context_use_feature(c, "psnr", NULL, NULL) != VMAFX_OK) {
        vmafx_context_destroy(c, NULL);
        return NULL;
    }
    return c;
}

/* psnr_cb of `reference` against `dist`, frame 0 of a fresh context (NAN on failure). */
static double psnr_cb_against(VmafxFrame *dist)
{
    VmafxContext *c = psnr_context();
    VmafxScore s = VMAFX_SCORE_INIT;
    double v = NAN;
    if (c && vmafx_submit(c, host_frame(reference), dist, 0, NULL) == VMAFX_OK &&
        vmafx_flush(c, NULL) == VMAFX_OK &&
        vmafx_feature_score(c, "psnr_cb", 0, &s, NULL) == VMAFX_OK)
        v = s.value;
    if (c)
        vmafx_context_destroy(c, NULL);
    return v;
}

/* Acquire fence (VMAFX_TEST_SKIP_ACQUIRE_WAIT). The producer writes its NV12 picture and
 * then signals; the check: the imported frame scores as the written picture. The import
 * refuses the unsignalled fence (BUSY) and succeeds once it is signalled; with the wait
 * skipped it converts the chroma before the producer has written it. */
static bool acquire_check(bool planted)
{
    static uint8_t buf[LUMA + 2 * CHROMA];
    memset(buf, 0, sizeof buf);
    const double want = psnr_cb_against(host_frame(distorted));
    VmafxFence ready = VMAFX_FENCE_INIT;
    if (vmafx_fence_create(NULL, VMAFX_FENCE_HOST, &ready, NULL) != VMAFX_OK)
        return false;
    VmafxFrameImport imp = nv12_desc(buf);
    imp.acquire = ready;
    VmafxFrame *f = NULL;
    vmafx_test_set_switches(planted ? VMAFX_TEST_SKIP_ACQUIRE_WAIT : 0u);
    const VmafxStatus early = vmafx_frame_import(NULL, &imp, &f, NULL);
    vmafx_test_set_switches(0u);
    to_nv12(distorted, buf); /* the producer writes, then signals */
    vmafx_fence_signal(&ready, NULL);
    bool ok = early == VMAFX_OK || (early == VMAFX_E_BUSY && f == NULL &&
                                    vmafx_frame_import(NULL, &imp, &f, NULL) == VMAFX_OK);
    ok = ok && psnr_cb_against(f) == want;
    vmafx_fence_destroy(&ready, NULL);
    return ok;
}

/* Release fence (VMAFX_TEST_EARLY_RELEASE). The check: while the caller still holds a
 * reference, the frame's release fence stays unsignalled through a submit; a release
 * signalled when the submit returns tells the producer to reuse memory still referenced. */
static bool release_check(bool planted)
{
    VmafxContext *c = psnr_context();
    const VmafxFrameImport imp = planar_desc(distorted);
    VmafxFrame *f = NULL;
    VmafxFence released = VMAFX_FENCE_INIT;
    bool ok = c && vmafx_frame_import(NULL, &imp, &f, NULL) == VMAFX_OK &&
              vmafx_frame_release_fence(f, VMAFX_FENCE_HOST, &released, NULL) == VMAFX_OK;
    VmafxFrame *held = ok ? vmafx_frame_ref(f) : NULL;
    vmafx_test_set_switches(planted ? VMAFX_TEST_EARLY_RELEASE : 0u);
    ok = ok && vmafx_submit(c, host_frame(reference), f, 0, NULL) == VMAFX_OK;
    vmafx_test_set_switches(0u);
    ok = ok && vmafx_fence_wait(&released, 0u, NULL) == VMAFX_PENDING;
    vmafx_frame_unref(held);
    if (c) {
        ok = vmafx_flush(c, NULL) == VMAFX_OK && ok;
        vmafx_context_destroy(c, NULL);
    }
    /* Clean or planted, the fence is signalled once every reference is gone. */
    ok = vmafx_fence_wait(&released, 0u, NULL) == VMAFX_OK && ok;
    vmafx_fence_destroy(&released, NULL);
    return ok;
}

/* Host copies (VMAFX_TEST_FORCE_HOST_COPY). The check: a planar import binds the
 * producer's planes in place, and the host-copy counter stays 0. */
static bool copy_check(bool planted)
{
    vmafx_test_reset_counters();
    const VmafxFrameImport imp = planar_desc(distorted);
    VmafxFrame *f = NULL;
    vmafx_test_set_switches(planted ? VMAFX_TEST_FORCE_HOST_COPY : 0u);
    const VmafxStatus st = vmafx_frame_import(NULL, &imp, &f, NULL);
    vmafx_test_set_switches(0u);
    VmafxFramePlanes pl = VMAFX_FRAME_PLANES_INIT;
    const bool ok = st == VMAFX_OK && vmafx_frame_planes(f, &pl, NULL) == VMAFX_OK &&
                    pl.data[0] == (void *)distorted && vmafx_test_host_copies() == 0u;
    vmafx_frame_unref(f);
    return ok;
}

/* Transient import failures (vmafx_test_fail_imports). The check: the import rule imports
 * a valid frame in one attempt. One planted failure is retried (the check sees two
 * attempts); two make the rule fail, naming both attempts. */
static bool import_check(uint32_t planted_failures)
{
    VmafxContext *c = psnr_context();
    const VmafxFrameImport imp = planar_desc(distorted);
    VmafxFrame *f = NULL;
    VmafxError *err = NULL;
    const uint64_t before = vmafx_test_import_attempts();
    vmafx_test_fail_imports(VMAFX_E_BUSY, planted_failures);
    const VmafxStatus st = vmafx_context_import_frame(c, NULL, &imp, "main", &f, &err);
    vmafx_test_fail_imports(VMAFX_OK, 0u);
    const uint64_t attempts = vmafx_test_import_attempts() - before;
    if (planted_failures >= 2)
        CHECK(st == VMAFX_E_BUSY && strstr(vmafx_error_message(err), "2 attempts"));
    vmafx_error_free(err);
    vmafx_frame_unref(f);
    vmafx_context_destroy(c, NULL);
    return st == VMAFX_OK && attempts == 1u;
}

/* Device residency (vmafx_test_set_import_residency). The check: a CPU context with psnr
 * admits the imported frame; a frame claiming CUDA memory is refused naming psnr. */
static bool residency_check(bool planted)
{
    VmafxContext *c = psnr_context();
    const VmafxFrameImport imp = planar_desc(distorted);
    VmafxFrame *f = NULL;
    VmafxError *err = NULL;
    vmafx_test_set_import_residency(planted ? VMAFX_BACKEND_CUDA : VMAFX_TEST_RESIDENCY_OFF);
    const bool imported = vmafx_frame_import(NULL, &imp, &f, NULL) == VMAFX_OK;
    vmafx_test_set_import_residency(VMAFX_TEST_RESIDENCY_OFF);
    const VmafxStatus st = imported ? vmafx_context_admit(c, f, &err) : VMAFX_E_INVALID;
    if (planted)
        CHECK(named(&err, VMAFX_E_NOTSUP, "psnr", VMAFX_SUBJECT_EXTRACTOR));
    vmafx_error_free(err);
    vmafx_frame_unref(f);
    vmafx_context_destroy(c, NULL);
    return imported && st == VMAFX_OK;
}

int main(void)
{
    fill(reference, 1);
    fill(distorted, 5);
    CHECK(acquire_check(false));
    CHECK(!acquire_check(true));
    CHECK(release_check(false));
    CHECK(!release_check(true));
    CHECK(copy_check(false));
    CHECK(!copy_check(true));
    CHECK(import_check(0));
    CHECK(!import_check(1));
    CHECK(!import_check(2));
    CHECK(residency_check(false));
    CHECK(!residency_check(true));
    /* Every defect is off again: the clean checks still hold. */
    CHECK(acquire_check(false) && release_check(false) && copy_check(false) && import_check(0) &&
          residency_check(false));
    return check_finish("test_defects");
}
