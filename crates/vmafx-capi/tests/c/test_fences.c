/* Host fences (ADR-1929 items 2, 3) and release fences (item 4). */
#include <time.h>

#include "check.h"
#include <vmafx/frame_import_hooks.h>

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

int main(void)
{
    VmafxError *err = NULL;
    VmafxFence f = VMAFX_FENCE_INIT;
    CHECK(vmafx_fence_create(NULL, VMAFX_FENCE_HOST, &f, NULL) == VMAFX_OK);
    CHECK(f.kind == VMAFX_FENCE_HOST && f.handle != 0u && f.struct_size == sizeof(VmafxFence));
    /* Item 3: a poll is an answer, with no error object. */
    CHECK(vmafx_fence_wait(&f, 0u, &err) == VMAFX_PENDING && err == NULL);
    CHECK(vmafx_fence_wait(&f, 0u, NULL) == VMAFX_PENDING);
    FAILS(vmafx_fence_wait(&f, 2000000u, &err), VMAFX_E_TIMEOUT, &err, "fence",
          VMAFX_SUBJECT_FENCE);
    /* The virtual clock: a 10 s bound holds without waiting 10 s. */
    vmafx_test_set_virtual_clock(true);
    double t0 = now_s();
    FAILS(vmafx_fence_wait(&f, 10000000000ull, &err), VMAFX_E_TIMEOUT, &err, "fence",
          VMAFX_SUBJECT_FENCE);
    CHECK(now_s() - t0 < 5.0 && vmafx_test_clock_now_ns() >= 10000000000ull);
    vmafx_test_set_virtual_clock(false);
    CHECK(!vmafx_test_clock_is_virtual());
    /* Item 2: a shared, set-once flag; a copy of the struct is the same fence. */
    VmafxFence copy = f;
    CHECK(vmafx_fence_signal(&copy, NULL) == VMAFX_OK && vmafx_fence_signal(&f, NULL) == VMAFX_OK);
    CHECK(vmafx_fence_wait(&f, 0u, NULL) == VMAFX_OK);
    CHECK(vmafx_fence_wait(&f, UINT64_MAX, NULL) == VMAFX_OK);
    CHECK(vmafx_fence_destroy(&f, NULL) == VMAFX_OK);
    FAILS(vmafx_fence_destroy(&f, &err), VMAFX_E_INVALID, &err, "fence.handle",
          VMAFX_SUBJECT_FENCE);
    FAILS(vmafx_fence_wait(&f, 0u, &err), VMAFX_E_INVALID, &err, "fence.handle",
          VMAFX_SUBJECT_FENCE);

    /* NONE, device kinds, foreign handles, short structs. */
    VmafxFence none = VMAFX_FENCE_INIT;
    CHECK(vmafx_fence_wait(&none, 0u, NULL) == VMAFX_OK && vmafx_fence_destroy(&none, NULL) == VMAFX_OK);
    FAILS(vmafx_fence_signal(&none, &err), VMAFX_E_INVALID, &err, "fence.kind", VMAFX_SUBJECT_FENCE);
    FAILS(vmafx_fence_create(NULL, VMAFX_FENCE_NONE, &none, &err), VMAFX_E_INVALID, &err, "kind",
          VMAFX_SUBJECT_FENCE);
    FAILS(vmafx_fence_create(NULL, VMAFX_FENCE_SYNC_FILE, &none, &err), VMAFX_E_NOTSUP, &err,
          "fence.kind", VMAFX_SUBJECT_FENCE);
    VmafxFence cuda = VMAFX_FENCE_INIT;
    cuda.kind = VMAFX_FENCE_CUDA_EVENT;
    cuda.handle = 1u;
    FAILS(vmafx_fence_wait(&cuda, 0u, &err), VMAFX_E_NOTSUP, &err, "fence.kind", VMAFX_SUBJECT_FENCE);
    FAILS(vmafx_fence_destroy(&cuda, &err), VMAFX_E_NOTSUP, &err, "fence.kind", VMAFX_SUBJECT_FENCE);
    cuda.kind = 99u;
    FAILS(vmafx_fence_signal(&cuda, &err), VMAFX_E_INVALID, &err, "fence.kind", VMAFX_SUBJECT_FENCE);
    uint64_t not_a_fence[4] = {0, 0, 0, 0};
    VmafxFence foreign = VMAFX_FENCE_INIT;
    foreign.kind = VMAFX_FENCE_HOST;
    foreign.handle = (uintptr_t)not_a_fence;
    FAILS(vmafx_fence_wait(&foreign, 0u, &err), VMAFX_E_INVALID, &err, "fence.handle",
          VMAFX_SUBJECT_FENCE);
    foreign.struct_size = 2u;
    FAILS(vmafx_fence_wait(&foreign, 0u, &err), VMAFX_E_ABI, &err, "fence", VMAFX_SUBJECT_PARAMETER);
    foreign.struct_size = 0u;
    CHECK(vmafx_fence_signal(&foreign, NULL) == VMAFX_E_ABI);
    CHECK(vmafx_fence_wait(NULL, 0u, NULL) == VMAFX_E_INVALID);
    CHECK(vmafx_fence_create(NULL, VMAFX_FENCE_HOST, NULL, NULL) == VMAFX_E_INVALID);

    /* Item 4: a host frame's release fence is signalled at its last reference. */
    VmafxFrameDesc d = VMAFX_FRAME_DESC_INIT;
    d.pix_fmt = VMAFX_PIXEL_FORMAT_YUV420P;
    d.bpc = 8;
    d.w = 32;
    d.h = 16;
    VmafxFrame *frame = NULL;
    CHECK(vmafx_frame_create_host(NULL, &d, &frame, NULL) == VMAFX_OK);
    VmafxFence a = VMAFX_FENCE_INIT, b = VMAFX_FENCE_INIT;
    CHECK(vmafx_frame_release_fence(frame, VMAFX_FENCE_HOST, &a, NULL) == VMAFX_OK);
    CHECK(vmafx_frame_release_fence(frame, VMAFX_FENCE_HOST, &b, NULL) == VMAFX_OK);
    CHECK(a.handle == b.handle);
    FAILS(vmafx_frame_release_fence(frame, VMAFX_FENCE_NONE, &b, &err), VMAFX_E_INVALID, &err,
          "kind", VMAFX_SUBJECT_FENCE);
    FAILS(vmafx_frame_release_fence(frame, VMAFX_FENCE_SYNC_FILE, &b, &err), VMAFX_E_NOTSUP, &err,
          "kind", VMAFX_SUBJECT_FENCE);
    VmafxFrame *second = vmafx_frame_ref(frame);
    CHECK(second == frame);
    vmafx_frame_unref(frame);
    CHECK(vmafx_fence_wait(&a, 0u, NULL) == VMAFX_PENDING);
    vmafx_frame_unref(second);
    CHECK(vmafx_fence_wait(&a, 0u, NULL) == VMAFX_OK && vmafx_fence_wait(&b, 0u, NULL) == VMAFX_OK);
    CHECK(vmafx_fence_destroy(&a, NULL) == VMAFX_OK && vmafx_fence_destroy(&b, NULL) == VMAFX_OK);
    CHECK(vmafx_frame_release_fence(NULL, VMAFX_FENCE_HOST, &a, NULL) == VMAFX_E_INVALID);
    return check_finish("test_fences");
}
