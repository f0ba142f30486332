/* Contexts (ADR-1929 items 4, 8, 9, 10) through the C ABI: the device order rule, the
 * import rule's one retry, admission, and imported frames scoring bit for bit as host
 * frames while one import feeds two contexts. */
#include <stdlib.h>

#include "check.h"
#include <vmafx/frame_import_hooks.h>

enum { W = 64, H = 48, LUMA = W * H, CHROMA = LUMA / 4, N = 3 };

static uint8_t planar[N][2][LUMA + 2 * CHROMA];
static uint8_t nv12[N][2][LUMA + 2 * CHROMA];

static VmafxContext *psnr_context(void)
{
    VmafxContext *c = NULL;
    if (vmafx_context_create(NULL, &c, NULL) != VMAFX_OK)
        return NULL;
    if (vmafx_context_use_feature(c, "psnr", NULL, NULL) != VMAFX_OK)
        return NULL;
    return c;
}

static VmafxFrame *host_frame(const uint8_t *src)
{
    VmafxFrameDesc d = VMAFX_FRAME_DESC_INIT;
    d.pix_fmt = VMAFX_PIXEL_FORMAT_YUV420P;
    d.bpc = 8;
    d.w = W;
    d.h = H;
    return host_frame_copy(&d, src);
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

/* vmafx_feature_score()'s value of `feature` at `index` into *v. */
static VmafxStatus score_at(VmafxContext *c, const char *feature, uint64_t index, double *v)
{
    VmafxScore s = VMAFX_SCORE_INIT;
    const VmafxStatus st = vmafx_feature_score(c, feature, index, &s, NULL);
    *v = s.value;
    return st;
}

static bool same_bits(double a, double b)
{
    return memcmp(&a, &b, sizeof a) == 0;
}

int main(void)
{
    VmafxError *err = NULL;
    for (int i = 0; i < N; i++)
        for (int k = 0; k < 2; k++) {
            uint8_t *p = planar[i][k];
            for (size_t s = 0; s < sizeof planar[i][k]; s++)
                p[s] = (uint8_t)((s * 7u + (s / 64u) * 13u + (unsigned)i * 29u + (k ? (s % 5u) * 3u : 0u)) & 0xffu);
            memcpy(nv12[i][k], p, LUMA);
            for (size_t c = 0; c < CHROMA; c++) {
                nv12[i][k][LUMA + 2 * c] = p[LUMA + c];
                nv12[i][k][LUMA + 2 * c + 1] = p[LUMA + CHROMA + c];
            }
        }

    /* Configuration: the import wait is refused above 10 minutes, never clamped. */
    VmafxContext *ctx = NULL;
    VmafxContextConfig cfg = VMAFX_CONTEXT_CONFIG_INIT;
    cfg.import_retry_wait_ns = 600000000001ull;
    FAILS(vmafx_context_create(&cfg, &ctx, &err), VMAFX_E_RANGE, &err,
          "config.import_retry_wait_ns", VMAFX_SUBJECT_PARAMETER);
    CHECK(ctx == NULL);
    cfg.struct_size = 4u;
    FAILS(vmafx_context_create(&cfg, &ctx, &err), VMAFX_E_ABI, &err, "config", VMAFX_SUBJECT_PARAMETER);

    /* Item 10: one device, attached first; the context holds its reference. */
    VmafxDevice *dev = NULL;
    CHECK(vmafx_device_create(NULL, &dev, NULL) == VMAFX_OK);
    CHECK(vmafx_context_create(NULL, &ctx, NULL) == VMAFX_OK);
    CHECK(vmafx_context_use_device(ctx, dev, NULL) == VMAFX_OK);
    FAILS(vmafx_context_use_device(ctx, dev, &err), VMAFX_E_BUSY, &err, "device", VMAFX_SUBJECT_DEVICE);
    vmafx_device_unref(dev);
    CHECK(vmafx_context_backend(ctx) == VMAFX_BACKEND_CPU);
    CHECK(vmafx_context_use_feature(ctx, "psnr", NULL, NULL) == VMAFX_OK);
    FAILS(vmafx_context_use_feature(ctx, "no_such_feature", NULL, &err), VMAFX_E_NOTFOUND, &err,
          "no_such_feature", VMAFX_SUBJECT_FEATURE);
    CHECK(vmafx_context_destroy(ctx, NULL) == VMAFX_OK);
    CHECK(vmafx_context_create(NULL, &ctx, NULL) == VMAFX_OK);
    CHECK(vmafx_context_use_feature(ctx, "psnr", NULL, NULL) == VMAFX_OK);
    FAILS(vmafx_context_use_device(ctx, NULL, &err), VMAFX_E_INVALID, &err, "device",
          VMAFX_SUBJECT_PARAMETER);
    CHECK(vmafx_device_create(NULL, &dev, NULL) == VMAFX_OK);
    FAILS(vmafx_context_use_device(ctx, dev, &err), VMAFX_E_INVALID, &err, "context",
          VMAFX_SUBJECT_CONTEXT);
    vmafx_device_unref(dev);

    /* Item 8: one retry after a transient failure; the retry wait is the configured one. */
    vmafx_test_reset_counters();
    vmafx_test_fail_imports(VMAFX_E_BUSY, 1u);
    VmafxFrameImport imp = nv12_desc(nv12[0][0]);
    VmafxFrame *f = NULL;
    CHECK(vmafx_context_import_frame(ctx, NULL, &imp, "reference", &f, NULL) == VMAFX_OK && f);
    CHECK(vmafx_test_import_attempts() == 2u && vmafx_test_last_retry_wait_ns() == 10000000000ull);
    CHECK(vmafx_test_host_copies() == 0u);
    vmafx_frame_unref(f);
    /* Two transient failures: named, two attempts, no third. */
    vmafx_test_reset_counters();
    vmafx_test_fail_imports(VMAFX_E_TIMEOUT, 2u);
    CHECK(vmafx_context_import_frame(ctx, NULL, &imp, "reference", &f, &err) == VMAFX_E_TIMEOUT);
    CHECK(err && strstr(vmafx_error_message(err), "reference: backend cpu device 0") &&
          strstr(vmafx_error_message(err), "2 attempts") &&
          strstr(vmafx_error_message(err), "memory HOST, nv12 8-bit") &&
          strstr(vmafx_error_message(err), "modifiers 0x0 0x0"));
    vmafx_error_free(err);
    err = NULL;
    CHECK(vmafx_test_import_attempts() == 2u && f == NULL);
    /* Any other failure is not retried. */
    vmafx_test_reset_counters();
    imp.plane[0].pitch = 1;
    CHECK(vmafx_context_import_frame(ctx, NULL, &imp, "main", &f, NULL) == VMAFX_E_INVALID);
    CHECK(vmafx_test_import_attempts() == 1u);
    imp.plane[0].pitch = W;
    CHECK(vmafx_context_destroy(ctx, NULL) == VMAFX_OK);

    /* An unsignalled acquire fence: a bounded host wait on the virtual clock, then named. */
    cfg = (VmafxContextConfig)VMAFX_CONTEXT_CONFIG_INIT;
    cfg.import_retry_wait_ns = 5000000000ull;
    CHECK(vmafx_context_create(&cfg, &ctx, NULL) == VMAFX_OK);
    CHECK(vmafx_context_use_feature(ctx, "psnr", NULL, NULL) == VMAFX_OK);
    VmafxFence acq = VMAFX_FENCE_INIT;
    CHECK(vmafx_fence_create(NULL, VMAFX_FENCE_HOST, &acq, NULL) == VMAFX_OK);
    imp.acquire = acq;
    vmafx_test_set_virtual_clock(true);
    FAILS(vmafx_context_import_frame(ctx, NULL, &imp, "distorted", &f, &err), VMAFX_E_BUSY, &err,
          "desc.acquire", VMAFX_SUBJECT_FENCE);
    CHECK(vmafx_test_clock_now_ns() >= 5000000000ull && vmafx_test_last_retry_wait_ns() == 5000000000ull);
    vmafx_test_set_virtual_clock(false);
    CHECK(vmafx_fence_destroy(&acq, NULL) == VMAFX_OK);
    CHECK(vmafx_context_destroy(ctx, NULL) == VMAFX_OK);

    /* Items 4, 6, 9: NV12 imports, each submitted to two contexts, score bit for bit as
     * host frames; the release fences go only after both contexts are done. */
    VmafxContext *host = psnr_context(), *a = psnr_context(), *b = psnr_context();
    CHECK(host && a && b);
    VmafxFence rel[N][2];
    VmafxFrame *for_b[N][2];
    for (int i = 0; i < N; i++) {
        VmafxFrame *r = host_frame(planar[i][0]), *d = host_frame(planar[i][1]);
        CHECK(vmafx_context_admit(host, r, NULL) == VMAFX_OK);
        CHECK(vmafx_submit(host, r, d, (uint64_t)i, NULL) == VMAFX_OK);
        VmafxFrame *in[2];
        for (int k = 0; k < 2; k++) {
            VmafxFrameImport x = nv12_desc(nv12[i][k]);
            in[k] = NULL;
            CHECK(vmafx_context_import_frame(a, NULL, &x, k ? "distorted" : "reference", &in[k], NULL) == VMAFX_OK);
            rel[i][k] = (VmafxFence)VMAFX_FENCE_INIT;
            CHECK(vmafx_frame_release_fence(in[k], VMAFX_FENCE_HOST, &rel[i][k], NULL) == VMAFX_OK);
            for_b[i][k] = vmafx_frame_ref(in[k]);
        }
        CHECK(vmafx_submit(a, in[0], in[1], (uint64_t)i, NULL) == VMAFX_OK);
    }
    CHECK(vmafx_flush(host, NULL) == VMAFX_OK && vmafx_flush(a, NULL) == VMAFX_OK);
    /* Context a is done with every frame; the counts held for b keep them. */
    for (int i = 0; i < N; i++)
        CHECK(vmafx_fence_wait(&rel[i][0], 0u, NULL) == VMAFX_PENDING &&
              vmafx_fence_wait(&rel[i][1], 0u, NULL) == VMAFX_PENDING);
    for (int i = 0; i < N; i++)
        CHECK(vmafx_submit(b, for_b[i][0], for_b[i][1], (uint64_t)i, NULL) == VMAFX_OK);
    CHECK(vmafx_flush(b, NULL) == VMAFX_OK);
    for (int i = 0; i < N; i++) {
        double h = -1, x = -2, y = -3;
        CHECK(score_at(host, "psnr_y", (uint64_t)i, &h) == VMAFX_OK);
        CHECK(score_at(a, "psnr_y", (uint64_t)i, &x) == VMAFX_OK);
        CHECK(score_at(b, "psnr_cb", (uint64_t)i, &y) == VMAFX_OK);
        CHECK(same_bits(h, x));
        double hc = -4;
        CHECK(score_at(host, "psnr_cb", (uint64_t)i, &hc) == VMAFX_OK);
        CHECK(same_bits(hc, y));
    }
    CHECK(vmafx_context_destroy(a, NULL) == VMAFX_OK);
    CHECK(vmafx_context_destroy(b, NULL) == VMAFX_OK);
    for (int i = 0; i < N; i++)
        for (int k = 0; k < 2; k++) {
            CHECK(vmafx_fence_wait(&rel[i][k], 0u, NULL) == VMAFX_OK);
            CHECK(vmafx_fence_destroy(&rel[i][k], NULL) == VMAFX_OK);
        }
    CHECK(vmafx_context_destroy(host, NULL) == VMAFX_OK);

    /* Item 9: a frame claiming device memory is refused by the CPU extractor, named. */
    VmafxContext *c9 = psnr_context();
    vmafx_test_set_import_residency(VMAFX_BACKEND_CUDA);
    imp = nv12_desc(nv12[0][0]);
    CHECK(vmafx_frame_import(NULL, &imp, &f, NULL) == VMAFX_OK);
    vmafx_test_set_import_residency(VMAFX_TEST_RESIDENCY_OFF);
    CHECK(vmafx_context_admit(c9, f, &err) == VMAFX_E_NOTSUP && err &&
          strstr(vmafx_error_message(err), "psnr") && strstr(vmafx_error_message(err), "host copy"));
    vmafx_error_free(err);
    err = NULL;
    vmafx_frame_unref(f);
    vmafx_test_reset_counters();
    vmafx_test_set_import_residency(VMAFX_BACKEND_CUDA);
    FAILS(vmafx_context_import_frame(c9, NULL, &imp, "main", &f, &err), VMAFX_E_NOTSUP, &err,
          "psnr", VMAFX_SUBJECT_EXTRACTOR);
    vmafx_test_set_import_residency(VMAFX_TEST_RESIDENCY_OFF);
    CHECK(f == NULL && vmafx_test_import_attempts() == 1u && vmafx_test_host_copies() == 0u);
    CHECK(vmafx_context_destroy(c9, NULL) == VMAFX_OK);

    /* Item 13: the planted early release is visible to a release-fence check. */
    VmafxContext *c13 = NULL;
    cfg = (VmafxContextConfig)VMAFX_CONTEXT_CONFIG_INIT;
    cfg.n_threads = 2;
    CHECK(vmafx_context_create(&cfg, &c13, NULL) == VMAFX_OK);
    CHECK(vmafx_context_use_feature(c13, "psnr", NULL, NULL) == VMAFX_OK);
    VmafxFrame *r13 = host_frame(planar[0][0]), *d13 = host_frame(planar[0][1]);
    VmafxFence f13 = VMAFX_FENCE_INIT;
    CHECK(vmafx_frame_release_fence(r13, VMAFX_FENCE_HOST, &f13, NULL) == VMAFX_OK);
    VmafxFrame *keep = vmafx_frame_ref(r13);
    vmafx_test_set_switches(VMAFX_TEST_EARLY_RELEASE);
    CHECK(vmafx_submit(c13, r13, d13, 0u, NULL) == VMAFX_OK);
    vmafx_test_set_switches(0u);
    CHECK(vmafx_fence_wait(&f13, 0u, NULL) == VMAFX_OK); /* signalled while `keep` holds it */
    vmafx_frame_unref(keep);
    CHECK(vmafx_flush(c13, NULL) == VMAFX_OK && vmafx_context_destroy(c13, NULL) == VMAFX_OK);
    CHECK(vmafx_fence_destroy(&f13, NULL) == VMAFX_OK);
    CHECK(vmafx_context_admit(NULL, NULL, NULL) == VMAFX_E_INVALID);
    CHECK(vmafx_submit(NULL, NULL, NULL, 0u, NULL) == VMAFX_E_INVALID);
    return check_finish("test_context");
}
