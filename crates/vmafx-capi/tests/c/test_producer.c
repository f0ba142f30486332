/* What a producer asks of a context and its frames (ABI 0.1.11): the retention and
 * in-flight bounds against a producer that counts its live frames, fences a frame signals
 * on release (before the release callback), preallocated frames counted like pool frames,
 * imported scores, backend names. */
#include <stdatomic.h>
#include <stdlib.h>

#include "check.h"

enum { W = 32, H = 16, FRAMES = 12 };

/* The producer's frames the library still holds. Atomic: with workers, frames are released
 * on their threads, and a plain int would lose concurrent decrements. */
static atomic_int live;
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

/* A context with `threads` workers scoring psnr, and motion when `motion` is 1 (it reads
 * frame n-1) or 2 (with motion_five_frame_window: frame n-2). */
static VmafxContext *context_with(uint32_t threads, unsigned motion)
{
    VmafxContextConfig cfg = VMAFX_CONTEXT_CONFIG_INIT;
    cfg.n_threads = threads;
    VmafxContext *ctx = NULL;
    if (vmafx_context_create(&cfg, &ctx, NULL) != VMAFX_OK ||
        vmafx_context_use_feature(ctx, "psnr", NULL, NULL) != VMAFX_OK)
        abort();
    if (motion > 0) {
        VmafxOptions *o = NULL;
        if (motion > 1 && vmafx_options_set(&o, "motion_five_frame_window", "true", NULL) != 0)
            abort();
        if (vmafx_context_use_feature(ctx, "motion", o, NULL) != VMAFX_OK)
            abort();
        vmafx_options_free(o);
    }
    return ctx;
}

static VmafxContext *context(uint32_t threads)
{
    return context_with(threads, 0u);
}

/* The retention is the earlier references the extractors read: 0 for psnr, 1 with motion,
 * 2 with motion over five frames. Inline, exactly that many references stay after each
 * submit; with 3 workers, at least that many and at most the bound. */
static void bounds_hold_against_counted_frames(void)
{
    for (unsigned r = 0; r <= 2u; r++) {
        VmafxContext *ctx = context_with(0, r);
        CHECK(vmafx_context_frame_retention(ctx) == r && vmafx_context_max_in_flight(ctx) == r);
        bool exact = true;
        for (unsigned i = 0; i < FRAMES; i++) {
            CHECK(vmafx_submit(ctx, produce(i, on_release), produce(i + 40, on_release), i,
                               NULL) == VMAFX_OK);
            exact = exact && live == (int)(i + 1 < r ? i + 1 : r); /* the kept references */
        }
        CHECK(exact);
        CHECK(vmafx_flush(ctx, NULL) == VMAFX_OK && live == 0);
        CHECK(vmafx_context_destroy(ctx, NULL) == VMAFX_OK);

        ctx = context_with(3, r); /* 3 workers' jobs, each with its frame and r references */
        const uint32_t bound = vmafx_context_max_in_flight(ctx);
        CHECK(vmafx_context_frame_retention(ctx) == r && bound == r + 3u * (r + 1u));
        int most = 0;
        bool kept = true;
        for (unsigned i = 0; i < FRAMES; i++) {
            CHECK(vmafx_submit(ctx, produce(i, on_release), produce(i + 40, on_release), i,
                               NULL) == VMAFX_OK);
            kept = kept && live >= (int)(i + 1 < r ? i + 1 : r);
            most = live > most ? live : most;
        }
        CHECK(kept && most <= 2 * (int)bound); /* both inputs together */
        CHECK(vmafx_flush(ctx, NULL) == VMAFX_OK && live == 0);
        CHECK(vmafx_context_destroy(ctx, NULL) == VMAFX_OK);
    }
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
    VmafxContext *ctx = context_with(2, 1u); /* motion: frame n-1 is kept */
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
    /* psnr alone keeps no earlier reference: both frames are scored and back. */
    CHECK(vmafx_context_acquire_frame(ctx, &a, NULL) == VMAFX_OK &&
          vmafx_context_acquire_frame(ctx, &c, NULL) == VMAFX_OK && a != NULL && c != NULL);
    vmafx_frame_unref(a);
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
