/* Frame pools (ADR-1929 item 11) and writable host frames. */
#include "check.h"

enum { W = 64, H = 48 };

int main(void)
{
    VmafxError *err = NULL;
    VmafxFramePool *pool = NULL;
    VmafxFrameDesc d = VMAFX_FRAME_DESC_INIT;
    d.pix_fmt = VMAFX_PIXEL_FORMAT_YUV420P;
    d.bpc = 10;
    d.w = W;
    d.h = H;
    FAILS(vmafx_frame_pool_create(NULL, &d, 0u, &pool, &err), VMAFX_E_RANGE, &err, "count",
          VMAFX_SUBJECT_PARAMETER);
    FAILS(vmafx_frame_pool_create(NULL, &d, 5000u, &pool, &err), VMAFX_E_RANGE, &err, "count",
          VMAFX_SUBJECT_PARAMETER);
    VmafxFrameDesc nv12 = d;
    nv12.pix_fmt = VMAFX_PIXEL_FORMAT_NV12;
    FAILS(vmafx_frame_pool_create(NULL, &nv12, 2u, &pool, &err), VMAFX_E_INVALID, &err,
          "desc.pix_fmt", VMAFX_SUBJECT_PARAMETER);
    CHECK(vmafx_frame_pool_create(NULL, &d, 2u, NULL, NULL) == VMAFX_E_INVALID);
    CHECK(vmafx_frame_pool_acquire(NULL, NULL, NULL) == VMAFX_E_INVALID);
    vmafx_frame_pool_destroy(NULL);

    CHECK(vmafx_frame_pool_create(NULL, &d, 2u, &pool, NULL) == VMAFX_OK);
    VmafxFrame *a = NULL, *b = NULL, *c = (VmafxFrame *)(uintptr_t)1;
    CHECK(vmafx_frame_pool_acquire(pool, &a, NULL) == VMAFX_OK);
    CHECK(vmafx_frame_pool_acquire(pool, &b, NULL) == VMAFX_OK && a != b);
    FAILS(vmafx_frame_pool_acquire(pool, &c, &err), VMAFX_E_BUSY, &err, "pool", VMAFX_SUBJECT_FRAME);
    CHECK(c == NULL);

    /* The caller writes the planes; they come back with their content. */
    VmafxFramePlanes pl = VMAFX_FRAME_PLANES_INIT;
    CHECK(vmafx_frame_planes(a, &pl, NULL) == VMAFX_OK && pl.bpc == 10u && pl.n_planes == 3u);
    CHECK(pl.stride[0] >= 2u * W && pl.w[1] == W / 2 && pl.h[2] == H / 2);
    void *first = pl.data[0];
    ((uint16_t *)first)[5] = 1023;
    VmafxFence rel = VMAFX_FENCE_INIT;
    CHECK(vmafx_frame_release_fence(a, VMAFX_FENCE_HOST, &rel, NULL) == VMAFX_OK);
    VmafxFrame *reader = vmafx_frame_ref(a);
    vmafx_frame_unref(a);
    CHECK(vmafx_fence_wait(&rel, 0u, NULL) == VMAFX_PENDING);
    FAILS(vmafx_frame_pool_acquire(pool, &c, &err), VMAFX_E_BUSY, &err, "pool", VMAFX_SUBJECT_FRAME);
    vmafx_frame_unref(reader);
    CHECK(vmafx_fence_wait(&rel, 0u, NULL) == VMAFX_OK);
    CHECK(vmafx_fence_destroy(&rel, NULL) == VMAFX_OK);
    CHECK(vmafx_frame_pool_acquire(pool, &c, NULL) == VMAFX_OK);
    CHECK(vmafx_frame_planes(c, &pl, NULL) == VMAFX_OK && pl.data[0] == first &&
          ((uint16_t *)pl.data[0])[5] == 1023);

    /* Destroying the pool frees nothing frames in use need. */
    vmafx_frame_pool_destroy(pool);
    memset(pl.data[0], 0x5a, 2u * W);
    CHECK(vmafx_frame_release_fence(c, VMAFX_FENCE_HOST, &rel, NULL) == VMAFX_OK);
    vmafx_frame_unref(c);
    vmafx_frame_unref(b);
    CHECK(vmafx_fence_wait(&rel, 0u, NULL) == VMAFX_OK);
    CHECK(vmafx_fence_destroy(&rel, NULL) == VMAFX_OK);

    /* Host frames are zeroed and writable through their planes. */
    VmafxFrame *h = NULL;
    d.bpc = 8;
    CHECK(vmafx_frame_create_host(NULL, &d, &h, NULL) == VMAFX_OK);
    CHECK(vmafx_frame_planes(h, &pl, NULL) == VMAFX_OK && ((uint8_t *)pl.data[1])[3] == 0u);
    ((uint8_t *)pl.data[1])[3] = 200;
    CHECK(vmafx_frame_planes(h, &pl, NULL) == VMAFX_OK && ((uint8_t *)pl.data[1])[3] == 200u);
    pl.struct_size = 4u;
    FAILS(vmafx_frame_planes(h, &pl, &err), VMAFX_E_ABI, &err, "out", VMAFX_SUBJECT_PARAMETER);
    vmafx_frame_unref(h);
    vmafx_frame_unref(NULL);
    CHECK(vmafx_frame_ref(NULL) == NULL);
    return check_finish("test_pools");
}
