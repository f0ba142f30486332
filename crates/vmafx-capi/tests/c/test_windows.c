/* Window scores and the window clock through the C ABI (score.h, ABI 0.1.8): a 48-frame
 * stream at 24 fps cut into 1-second windows by the clock gives two windows equal, bit for
 * bit, to vmafx_score_pooled() / vmafx_feature_score_pooled() over frames 0-23 and 24-47;
 * the first completes before the flush; partial and out-of-stream windows at the flush;
 * releasing an open window cancels its callback; the 1025th open window is refused; the
 * clock's cases. */
#include <stdlib.h>

#include "check.h"
#include <vmafx/libvmaf_bridge.h>

enum { W = 160, H = 96, N = 48 };

#define ALL_MASK                                                                              \
    (VMAFX_POOL_MASK_MIN | VMAFX_POOL_MASK_MAX | VMAFX_POOL_MASK_MEAN |                       \
     VMAFX_POOL_MASK_HARMONIC_MEAN | VMAFX_POOL_MASK_MEDIAN | VMAFX_POOL_MASK_PERC5 |         \
     VMAFX_POOL_MASK_PERC10 | VMAFX_POOL_MASK_PERC20)

/* A pattern that moves with `t` (the seed). */
static uint8_t moving(unsigned p, unsigned x, unsigned y, unsigned t)
{
    (void)p;
    return (uint8_t)((((x + 3u * t) / 6u + y / 5u) & 1u) ? 200u : 40u + (t % 9u));
}

/* The moving pattern at `t`; `blur` smooths it along rows (the distorted side). */
static VmafxFrame *frame_of(unsigned t, int blur)
{
    VmafxFrame *f = seeded_frame(W, H, moving, t);
    if (!f || !blur)
        return f;
    VmafxFramePlanes pl = VMAFX_FRAME_PLANES_INIT;
    vmafx_frame_planes(f, &pl, NULL);
    for (unsigned p = 0; p < 3; p++) {
        for (unsigned y = 0; y < pl.h[p]; y++) {
            uint8_t *row = (uint8_t *)pl.data[p] + y * pl.stride[p];
            for (unsigned x = 1; x + 1 < pl.w[p]; x++)
                row[x] = (uint8_t)((row[x - 1] + 2u * row[x] + row[x + 1]) / 4u);
        }
    }
    return f;
}

/* Frame i of a 24 fps stream, in nanoseconds. */
static int64_t pts_24(uint64_t i)
{
    return (int64_t)((i * 1000000000u + 12u) / 24u);
}

static VmafxWindow *submit(VmafxContext *ctx, uint32_t target, const VmafxModel *m,
                           const char *feature, uint64_t first, uint64_t last,
                           VmafxWindowCallback cb, void *user)
{
    VmafxWindowRequest req = VMAFX_WINDOW_REQUEST_INIT;
    req.target = target;
    req.model = m;
    req.feature = feature;
    req.pool_mask = ALL_MASK;
    req.first = first;
    req.last = last;
    req.on_complete = cb;
    req.user = user;
    VmafxWindow *w = NULL;
    VmafxError *err = NULL;
    VmafxStatus s = vmafx_window_submit(ctx, &req, &w, &err);
    if (s != VMAFX_OK) {
        fprintf(stderr, "submit: %s\n", err ? vmafx_error_message(err) : "?");
        vmafx_error_free(err);
    }
    return w;
}

static void count_call(VmafxWindow *w, const VmafxWindowResult *r, void *user)
{
    (void)w;
    (void)r;
    (*(unsigned *)user)++;
}

/* Each pooled value of `r` equals the synchronous call's over `first..=last`. */
static void same_as_pooled(VmafxContext *ctx, const VmafxModel *m, const char *feature,
                           const VmafxWindowResult *r, uint64_t first, uint64_t last)
{
    for (uint32_t p = VMAFX_POOL_MIN; p <= VMAFX_POOL_PERC20; p++) {
        VmafxPooledScore ps = VMAFX_POOLED_SCORE_INIT;
        VmafxStatus s = m ? vmafx_score_pooled(ctx, m, p, first, last, &ps, NULL)
                          : vmafx_feature_score_pooled(ctx, feature, p, first, last, &ps, NULL);
        CHECK(s == VMAFX_OK);
        CHECK(memcmp(&ps.value, &r->value[p], sizeof(double)) == 0);
    }
    CHECK(r->value[VMAFX_POOL_NONE] == 0.0 && r->stddev[VMAFX_POOL_MEAN] == 0.0);
}

static void stream_of_two_windows(uint32_t threads)
{
    VmafxContextConfig cfg = VMAFX_CONTEXT_CONFIG_INIT;
    cfg.n_threads = threads;
    VmafxContext *ctx = NULL;
    VmafxModel *m = NULL;
    CHECK(vmafx_context_create(&cfg, &ctx, NULL) == VMAFX_OK);
    CHECK(vmafx_model_load(NULL, "vmaf_v0.6.1", &m, NULL) == VMAFX_OK);
    CHECK(vmafx_context_use_model(ctx, m, NULL) == VMAFX_OK);
    CHECK(vmafx_context_use_feature(ctx, "psnr", NULL, NULL) == VMAFX_OK);

    VmafxWindowClockConfig cc = VMAFX_WINDOW_CLOCK_CONFIG_INIT;
    cc.n_stats = 1.0;
    VmafxWindowClock *clock = NULL;
    CHECK(vmafx_window_clock_create(&cc, &clock, NULL) == VMAFX_OK);

    VmafxWindow *vmaf[2] = {NULL, NULL}, *psnr[2] = {NULL, NULL};
    VmafxWindowSpan spans[2];
    unsigned n_spans = 0, calls = 0, cancelled_calls = 0;
    /* Never reached before the flush: released while open, its callback never runs. */
    VmafxWindow *cancelled =
        submit(ctx, VMAFX_WINDOW_TARGET_MODEL, m, NULL, 30, 40, count_call, &cancelled_calls);
    CHECK(cancelled != NULL);
    for (uint64_t i = 0; i < N; i++) {
        VmafxWindowSpan span = VMAFX_WINDOW_SPAN_INIT;
        VmafxStatus s = vmafx_window_clock_frame(clock, i, pts_24(i), &span, NULL);
        CHECK(s == (i == 24 ? VMAFX_OK : VMAFX_PENDING));
        if (s == VMAFX_OK && n_spans < 2) {
            spans[n_spans] = span;
            vmaf[n_spans] = submit(ctx, VMAFX_WINDOW_TARGET_MODEL, m, NULL, span.first,
                                   span.last, count_call, &calls);
            psnr[n_spans] = submit(ctx, VMAFX_WINDOW_TARGET_FEATURE, NULL, "psnr_y", span.first,
                                   span.last, NULL, NULL);
            n_spans++;
        }
        CHECK(vmafx_submit(ctx, frame_of((unsigned)i, 0), frame_of((unsigned)i, 1), i, NULL) ==
              VMAFX_OK);
        if (i == 10)
            vmafx_window_release(cancelled);
    }
    /* Window 0 completes before the flush: its frames' motion2 is final once frame 24 is. */
    VmafxWindowResult r0 = VMAFX_WINDOW_RESULT_INIT;
    CHECK(n_spans == 1 && spans[0].first == 0 && spans[0].last == 23 && spans[0].flags == 0u);
    CHECK(spans[0].start_ns == 0 && spans[0].end_ns == 1000000000);
    CHECK(vmafx_window_wait(vmaf[0], 10000000000u, &r0, NULL) == VMAFX_OK);
    CHECK(r0.status == VMAFX_OK && r0.flags == 0u && r0.n_frames == 24 && r0.n_scored == 24);
    CHECK(r0.first == 0 && r0.last == 23 && r0.target == VMAFX_WINDOW_TARGET_MODEL);
    CHECK(r0.pool_mask == ALL_MASK && strcmp(r0.name, vmafx_model_name(m)) == 0);
    /* The clock's last window, partial by time: submitted at the end of the stream. */
    VmafxWindowSpan last = VMAFX_WINDOW_SPAN_INIT;
    CHECK(vmafx_window_clock_finish(clock, &last, NULL) == VMAFX_OK);
    CHECK(last.first == 24 && last.last == 47 && last.window == 1 && last.n_frames == 24);
    CHECK(last.flags == VMAFX_WINDOW_PARTIAL);
    spans[1] = last;
    vmaf[1] = submit(ctx, VMAFX_WINDOW_TARGET_MODEL, m, NULL, last.first, last.last, count_call,
                     &calls);
    psnr[1] = submit(ctx, VMAFX_WINDOW_TARGET_FEATURE, NULL, "psnr_y", last.first, last.last,
                     NULL, NULL);
    VmafxWindowResult r1 = VMAFX_WINDOW_RESULT_INIT;
    /* Frame 47's motion2 becomes final at the flush only. */
    CHECK(vmafx_window_poll(vmaf[1], &r1, NULL) == VMAFX_PENDING && r1.n_frames == 0);
    VmafxWindow *partial = submit(ctx, VMAFX_WINDOW_TARGET_MODEL, m, NULL, 40, 60, NULL, NULL);
    VmafxWindow *outside = submit(ctx, VMAFX_WINDOW_TARGET_MODEL, m, NULL, 48, 50, NULL, NULL);
    CHECK(vmafx_flush(ctx, NULL) == VMAFX_OK);

    CHECK(vmafx_window_wait(vmaf[1], UINT64_MAX, &r1, NULL) == VMAFX_OK);
    CHECK(r1.status == VMAFX_OK && r1.flags == 0u && r1.n_frames == 24);
    same_as_pooled(ctx, m, NULL, &r0, 0, 23);
    same_as_pooled(ctx, m, NULL, &r1, 24, 47);
    for (unsigned k = 0; k < 2; k++) {
        VmafxWindowResult rp = VMAFX_WINDOW_RESULT_INIT;
        CHECK(vmafx_window_wait(psnr[k], UINT64_MAX, &rp, NULL) == VMAFX_OK);
        CHECK(rp.status == VMAFX_OK && rp.target == VMAFX_WINDOW_TARGET_FEATURE);
        same_as_pooled(ctx, NULL, "psnr_y", &rp, spans[k].first, spans[k].last);
    }
    VmafxWindowResult rp = VMAFX_WINDOW_RESULT_INIT;
    CHECK(vmafx_window_wait(partial, UINT64_MAX, &rp, NULL) == VMAFX_OK);
    CHECK(rp.status == VMAFX_OK && rp.flags == VMAFX_WINDOW_PARTIAL && rp.n_frames == 8);
    CHECK(rp.last == 60);
    same_as_pooled(ctx, m, NULL, &rp, 40, 47);
    CHECK(vmafx_window_wait(outside, UINT64_MAX, &rp, NULL) == VMAFX_OK);
    CHECK(rp.status == VMAFX_E_RANGE);
    /* A window submitted after the flush completes at once. */
    VmafxWindow *late = submit(ctx, VMAFX_WINDOW_TARGET_MODEL, m, NULL, 0, 47, NULL, NULL);
    CHECK(vmafx_window_wait(late, UINT64_MAX, &rp, NULL) == VMAFX_OK && rp.status == VMAFX_OK);
    same_as_pooled(ctx, m, NULL, &rp, 0, 47);

    CHECK(vmafx_context_destroy(ctx, NULL) == VMAFX_OK);
    /* Every callback ran before the destroy returned; the released window's never. */
    CHECK(calls == 2 && cancelled_calls == 0);
    VmafxWindow *all[] = {vmaf[0], vmaf[1], psnr[0], psnr[1], partial, outside, late};
    for (unsigned k = 0; k < sizeof all / sizeof all[0]; k++)
        vmafx_window_release(all[k]);
    vmafx_window_clock_destroy(clock);
    vmafx_model_unref(m);
}

static void open_limit(void)
{
    VmafxContext *ctx = NULL;
    CHECK(vmafx_context_create(NULL, &ctx, NULL) == VMAFX_OK);
    CHECK(vmafx_context_use_feature(ctx, "psnr", NULL, NULL) == VMAFX_OK);
    enum { LIMIT = 1024 };
    VmafxWindow **open = calloc(LIMIT, sizeof *open);
    for (unsigned k = 0; k < LIMIT; k++)
        open[k] = submit(ctx, VMAFX_WINDOW_TARGET_FEATURE, NULL, "psnr_y", 5, 6, NULL, NULL);
    CHECK(open[LIMIT - 1] != NULL);
    VmafxWindowRequest req = VMAFX_WINDOW_REQUEST_INIT;
    req.target = VMAFX_WINDOW_TARGET_FEATURE;
    req.feature = "psnr_y";
    req.pool_mask = VMAFX_POOL_MASK_MEAN;
    req.first = 5;
    req.last = 6;
    VmafxWindow *w = (VmafxWindow *)&req;
    VmafxError *err = NULL;
    FAILS(vmafx_window_submit(ctx, &req, &w, &err), VMAFX_E_BUSY, &err, "context",
          VMAFX_SUBJECT_CONTEXT);
    CHECK(w == NULL);
    /* Releasing one makes room. */
    vmafx_window_release(open[0]);
    CHECK(vmafx_window_submit(ctx, &req, &open[0], NULL) == VMAFX_OK);
    /* Bad requests. */
    req.pool_mask = 1u;
    FAILS(vmafx_window_submit(ctx, &req, &w, &err), VMAFX_E_INVALID, &err, "request.pool_mask",
          VMAFX_SUBJECT_PARAMETER);
    req.pool_mask = VMAFX_POOL_MASK_MEAN;
    req.target = VMAFX_WINDOW_TARGET_NONE;
    FAILS(vmafx_window_submit(ctx, &req, &w, &err), VMAFX_E_INVALID, &err, "request.target",
          VMAFX_SUBJECT_PARAMETER);
    CHECK(vmafx_context_destroy(ctx, NULL) == VMAFX_OK);
    /* Destroyed before any frame: every open window completed with VMAFX_E_INVALID. */
    VmafxWindowResult r = VMAFX_WINDOW_RESULT_INIT;
    CHECK(vmafx_window_poll(open[1], &r, NULL) == VMAFX_OK && r.status == VMAFX_E_INVALID);
    for (unsigned k = 0; k < LIMIT; k++)
        vmafx_window_release(open[k]);
    free(open);
}

static void clock_cases(void)
{
    VmafxError *err = NULL;
    VmafxWindowClock *clock = NULL;
    VmafxWindowClockConfig cc = VMAFX_WINDOW_CLOCK_CONFIG_INIT;
    FAILS(vmafx_window_clock_create(&cc, &clock, &err), VMAFX_E_INVALID, &err, "config.n_stats",
          VMAFX_SUBJECT_PARAMETER);
    cc.n_stats = 1.0;
    cc.n_stats_frames = 30;
    FAILS(vmafx_window_clock_create(&cc, &clock, &err), VMAFX_E_INVALID, &err, "config.n_stats",
          VMAFX_SUBJECT_PARAMETER);
    cc.n_stats = -2.0;
    cc.n_stats_frames = 0;
    FAILS(vmafx_window_clock_create(&cc, &clock, &err), VMAFX_E_INVALID, &err, "config.n_stats",
          VMAFX_SUBJECT_PARAMETER);
    CHECK(clock == NULL);

    /* By frame count: 30-frame windows from frame 5; the last is whole. */
    cc.n_stats = 0.0;
    cc.n_stats_frames = 30;
    CHECK(vmafx_window_clock_create(&cc, &clock, NULL) == VMAFX_OK);
    VmafxWindowSpan s = VMAFX_WINDOW_SPAN_INIT;
    unsigned closed = 0;
    for (uint64_t i = 5; i < 65; i++)
        if (vmafx_window_clock_frame(clock, i, pts_24(i), &s, NULL) == VMAFX_OK) {
            closed++;
            CHECK(i == 35 && s.first == 5 && s.last == 34 && s.n_frames == 30 && s.flags == 0u);
            CHECK(s.start_ns == pts_24(5) && s.end_ns == pts_24(34));
        }
    CHECK(closed == 1);
    /* Indices increase strictly, times never decrease; a refused frame changes nothing. */
    FAILS(vmafx_window_clock_frame(clock, 64, pts_24(70), &s, &err), VMAFX_E_INVALID, &err,
          "index", VMAFX_SUBJECT_PARAMETER);
    FAILS(vmafx_window_clock_frame(clock, 65, pts_24(63), &s, &err), VMAFX_E_INVALID, &err,
          "pts_ns", VMAFX_SUBJECT_PARAMETER);
    CHECK(vmafx_window_clock_finish(clock, &s, NULL) == VMAFX_OK);
    CHECK(s.first == 35 && s.last == 64 && s.window == 1 && s.flags == 0u);
    CHECK(vmafx_window_clock_finish(clock, &s, NULL) == VMAFX_PENDING);
    vmafx_window_clock_destroy(clock);

    /* By time with a gap: the window numbers jump. */
    cc.n_stats = 0.5;
    cc.n_stats_frames = 0;
    CHECK(vmafx_window_clock_create(&cc, &clock, NULL) == VMAFX_OK);
    CHECK(vmafx_window_clock_frame(clock, 0, 1000, &s, NULL) == VMAFX_PENDING);
    CHECK(vmafx_window_clock_frame(clock, 1, 1000 + 1600000000, &s, NULL) == VMAFX_OK);
    CHECK(s.window == 0 && s.first == 0 && s.last == 0 && s.end_ns == 1000 + 500000000);
    CHECK(vmafx_window_clock_finish(clock, &s, NULL) == VMAFX_OK);
    CHECK(s.window == 3 && s.flags == VMAFX_WINDOW_PARTIAL && s.start_ns == 1000 + 1500000000);
    vmafx_window_clock_destroy(clock);
    vmafx_window_clock_destroy(NULL);
    vmafx_window_release(NULL);
}

int main(void)
{
    stream_of_two_windows(0);
    stream_of_two_windows(2);
    open_limit();
    clock_cases();
    return check_finish("test_windows");
}
