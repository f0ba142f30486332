/* What a producer asks of a context and its frames (ABI 0.1.11): the retention and
 * in-flight bounds against a producer that counts its live frames, fences a frame signals
 * on release (before the release callback), preallocated frames counted like pool frames,
 * imported scores, backend names. */
#include <stdlib.h>

#include "check.h"

enum { W = 32, H = 16, FRAMES = 12 };

static int live; /* the producer's frames the library still holds */
static VmafxFence fences[3];
static int fences_seen_at_release = -1;

static void on_release(void *user)
{
    free(user);
    live--;
}

static void on_watched_release(void *user)
{
    free(user);
    int n = 0;
    for (int i = 0; i < 3; i++)
        n += vmafx_fence_wait(&fences[i], 0u, NULL) == VMAFX_OK;
    fences_seen_at_release = n;
}

/* A wrapped host frame of content `seed`, counted in `live` until released. */
static VmafxFrame *produce(unsigned seed, void (*release)(void *))
{
    uint8_t *data = malloc(W * H * 3 / 2);
    for (unsigned i = 0; i < W * H * 3 / 2; i++)
        data[i] = (uint8_t)((i * 7 + seed * 13) % 251);
    VmafxFrameDesc d = VMAFX_FRAME_DESC_INIT;
    d.pix_fmt = VMAFX_PIXEL_FORMAT_YUV420P;
    d.bpc = 8;
    d.w = W;
    d.h = H;
    VmafxHostPlanes p = VMAFX_HOST_PLANES_INIT;
    p.data[0] = data;
    p.data[1] = data + W * H;
    p.data[2] = data + W * H + W * H / 4;
    p.stride[0] = W;
    p.stride[1] = p.stride[2] = W / 2;
    p.release = release;
    p.user = data; /* freed by the release callback */
    VmafxFrame *f = NULL;
    if (vmafx_frame_wrap_host(NULL, &d, &p, &f, NULL) != VMAFX_OK)
        abort();
    if (release == on_release)
        live++;
    return f;
}

static VmafxContext *context(uint32_t threads)
{
    VmafxContextConfig cfg = VMAFX_CONTEXT_CONFIG_INIT;
    cfg.n_threads = threads;
    VmafxContext *ctx = NULL;
    if (vmafx_context_create(&cfg, &ctx, NULL) != VMAFX_OK ||
        vmafx_context_use_feature(ctx, "psnr", NULL, NULL) != VMAFX_OK)
        abort();
    return ctx;
}

static void bounds_hold_against_counted_frames(void)
{
    VmafxContext *ctx = context(0);
    CHECK(vmafx_context_frame_retention(ctx) == 2u && vmafx_context_max_in_flight(ctx) == 2u);
    bool exact = true;
    for (unsigned i = 0; i < FRAMES; i++) {
        CHECK(vmafx_submit(ctx, produce(i, on_release), produce(i + 40, on_release), i, NULL) ==
              VMAFX_OK);
        exact = exact && live == (int)(i < 1 ? 1 : 2); /* the retained references only */
    }
    CHECK(exact);
    CHECK(vmafx_flush(ctx, NULL) == VMAFX_OK && live == 0);
    CHECK(vmafx_context_destroy(ctx, NULL) == VMAFX_OK);

    ctx = context(3); /* psnr only: 3 workers' jobs, each with its frame and 2 references */
    const uint32_t bound = vmafx_context_max_in_flight(ctx);
    CHECK(bound == 2u + 3u * 3u);
    int most = 0;
    for (unsigned i = 0; i < FRAMES; i++) {
        CHECK(vmafx_submit(ctx, produce(i, on_release), produce(i + 40, on_release), i, NULL) ==
              VMAFX_OK);
        most = live > most ? live : most;
    }
    CHECK(most >= 2 && most <= 2 * (int)bound); /* both inputs together */
    CHECK(vmafx_flush(ctx, NULL) == VMAFX_OK && live == 0);
    CHECK(vmafx_context_destroy(ctx, NULL) == VMAFX_OK);
}

static void release_fences_come_before_the_callback(void)
{
    VmafxFrame *f = produce(1, on_watched_release);
    for (int i = 0; i < 3; i++) {
        fences[i] = (VmafxFence)VMAFX_FENCE_INIT;
        CHECK(vmafx_fence_create(NULL, VMAFX_FENCE_HOST, &fences[i], NULL) == VMAFX_OK);
        CHECK(vmafx_frame_signal_on_release(f, &fences[i], NULL) == VMAFX_OK);
    }
    VmafxFence extra = VMAFX_FENCE_INIT;
    CHECK(vmafx_fence_create(NULL, VMAFX_FENCE_HOST, &extra, NULL) == VMAFX_OK);
    VmafxError *err = NULL;
    CHECK(vmafx_frame_signal_on_release(f, &extra, &err) == VMAFX_E_RANGE &&
          named(&err, VMAFX_E_RANGE, "fence", VMAFX_SUBJECT_FENCE));
    VmafxFence cuda = VMAFX_FENCE_INIT;
    cuda.kind = VMAFX_FENCE_CUDA_EVENT;
    CHECK(vmafx_frame_signal_on_release(f, &cuda, &err) == VMAFX_E_NOTSUP &&
          named(&err, VMAFX_E_NOTSUP, "fence.kind", VMAFX_SUBJECT_FENCE));
    cuda.kind = VMAFX_FENCE_VULKAN_SEMAPHORE;
    CHECK(vmafx_frame_signal_on_release(f, &cuda, &err) == VMAFX_E_NOTSUP &&
          named(&err, VMAFX_E_NOTSUP, "fence.kind", VMAFX_SUBJECT_FENCE));
    VmafxContext *ctx = context(2);
    CHECK(vmafx_submit(ctx, f, produce(2, on_release), 0u, NULL) == VMAFX_OK);
    CHECK(vmafx_fence_wait(&fences[0], 0u, NULL) == VMAFX_PENDING); /* still retained */
    CHECK(vmafx_flush(ctx, NULL) == VMAFX_OK);
    CHECK(fences_seen_at_release == 3);
    for (int i = 0; i < 3; i++)
        CHECK(vmafx_fence_destroy(&fences[i], NULL) == VMAFX_OK);
    CHECK(vmafx_fence_destroy(&extra, NULL) == VMAFX_OK);
    CHECK(vmafx_context_destroy(ctx, NULL) == VMAFX_OK);
}

static void preallocated_frames_and_imported_scores(void)
{
    VmafxContext *ctx = context(0);
    VmafxFrame *a = NULL, *b = NULL, *c = NULL;
    VmafxError *err = NULL;
    CHECK(vmafx_context_acquire_frame(ctx, &a, &err) == VMAFX_E_INVALID &&
          named(&err, VMAFX_E_INVALID, "context", VMAFX_SUBJECT_CONTEXT));
    VmafxFrameDesc d = VMAFX_FRAME_DESC_INIT;
    d.pix_fmt = VMAFX_PIXEL_FORMAT_YUV420P;
    d.bpc = 8;
    d.w = W;
    d.h = H;
    CHECK(vmafx_context_preallocate(ctx, &d, 2u, NULL) == VMAFX_OK);
    CHECK(vmafx_context_preallocate(ctx, &d, 2u, &err) == VMAFX_E_BUSY &&
          named(&err, VMAFX_E_BUSY, "context", VMAFX_SUBJECT_CONTEXT));
    CHECK(vmafx_context_acquire_frame(ctx, &a, NULL) == VMAFX_OK &&
          vmafx_context_acquire_frame(ctx, &b, NULL) == VMAFX_OK);
    CHECK(vmafx_context_acquire_frame(ctx, &c, NULL) == VMAFX_E_BUSY && c == NULL);
    VmafxFramePlanes pl = VMAFX_FRAME_PLANES_INIT;
    CHECK(vmafx_frame_planes(a, &pl, NULL) == VMAFX_OK && pl.data[0] != NULL);
    memset(pl.data[0], 100, pl.stride[0] * pl.h[0]);
    CHECK(vmafx_context_import_score(ctx, "external", 0u, 12.5, NULL) == VMAFX_OK);
    CHECK(vmafx_context_import_score(ctx, "external", 0u, 13.0, &err) == VMAFX_E_INVALID);
    vmafx_error_free(err);
    CHECK(vmafx_submit(ctx, a, b, 0u, NULL) == VMAFX_OK);
    /* The distorted frame is scored and back; the reference is retained. */
    CHECK(vmafx_context_acquire_frame(ctx, &c, NULL) == VMAFX_OK && c != NULL);
    vmafx_frame_unref(c);
    CHECK(vmafx_flush(ctx, NULL) == VMAFX_OK);
    VmafxScore s = VMAFX_SCORE_INIT;
    CHECK(vmafx_feature_score(ctx, "external", 0u, &s, NULL) == VMAFX_OK && s.value == 12.5);
    CHECK(vmafx_context_destroy(ctx, NULL) == VMAFX_OK);
    CHECK(strcmp(vmafx_backend_name(VMAFX_BACKEND_CPU), "cpu") == 0 &&
          strcmp(vmafx_backend_name(VMAFX_BACKEND_HIP), "hip") == 0 &&
          strcmp(vmafx_backend_name(5u), "unknown") == 0);
}

int main(void)
{
    bounds_hold_against_counted_frames();
    release_fences_come_before_the_callback();
    preallocated_frames_and_imported_scores();
    return check_finish("test_producer");
}
