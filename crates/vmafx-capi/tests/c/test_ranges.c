/* Reads by frame index or range past the frames scored (score.h): VMAFX_E_RANGE naming the
 * argument, on a context that scored frames and on one that scored none, answered in
 * constant memory. The process runs under an address-space limit, so a range walked (or
 * allocated) frame by frame up to UINT64_MAX fails the test instead of the machine. */
#include <stdint.h>
#include <sys/resource.h>

#include "check.h"

enum { W = 64, H = 48, N = 3 };

/* A flat 8-bit 4:2:0 frame of `level`, with a ramp so the features have detail. */
static VmafxFrame *frame_of(unsigned level)
{
    static uint8_t pixels[W * H * 3 / 2];
    for (unsigned i = 0; i < sizeof pixels; i++)
        pixels[i] = (uint8_t)((i * 7u + level) & 0xffu);
    VmafxFrameDesc d = VMAFX_FRAME_DESC_INIT;
    d.pix_fmt = VMAFX_PIXEL_FORMAT_YUV420P;
    d.bpc = 8;
    d.w = W;
    d.h = H;
    return host_frame_copy(&d, pixels);
}

/* Every range read that can reach past the end, on a flushed context of `frames` frames. */
static void refuse_out_of_range(VmafxContext *c, VmafxModel *m, uint64_t frames)
{
    VmafxError *err = NULL;
    VmafxPooledScore p = VMAFX_POOLED_SCORE_INIT;
    VmafxScore s = VMAFX_SCORE_INIT;
    const uint32_t param = VMAFX_SUBJECT_PARAMETER;
    FAILS(vmafx_score_pooled(c, m, VMAFX_POOL_MEAN, 0, UINT64_MAX, &p, &err), VMAFX_E_RANGE,
          &err, "last", param);
    FAILS(vmafx_score_pooled(c, m, VMAFX_POOL_MIN, UINT64_MAX - 1, UINT64_MAX, &p, &err),
          VMAFX_E_RANGE, &err, "last", param);
    FAILS(vmafx_score_pooled(c, m, VMAFX_POOL_MEAN, 0, frames, &p, &err), VMAFX_E_RANGE, &err,
          "last", param);
    FAILS(vmafx_score_pooled(c, m, VMAFX_POOL_MEAN, UINT64_MAX, 0, &p, &err), VMAFX_E_RANGE,
          &err, "first", param);
    FAILS(vmafx_feature_score_pooled(c, "psnr_y", VMAFX_POOL_MEAN, 0, UINT64_MAX, &p, &err),
          VMAFX_E_RANGE, &err, "last", param);
    FAILS(vmafx_feature_score_pooled(c, "psnr_y", VMAFX_POOL_MEDIAN, 1, 0, &p, &err),
          VMAFX_E_RANGE, &err, "first", param);
    FAILS(vmafx_score_frame(c, m, UINT64_MAX, &s, &err), VMAFX_E_RANGE, &err, "index", param);
    FAILS(vmafx_score_frame(c, m, frames, &s, &err), VMAFX_E_RANGE, &err, "index", param);
    FAILS(vmafx_feature_score(c, "psnr_y", UINT64_MAX, &s, &err), VMAFX_E_RANGE, &err, "index",
          param);
}

static void scored_context(void)
{
    VmafxModel *m = NULL;
    VmafxContext *c = NULL;
    CHECK(vmafx_model_load(NULL, "vmaf_v0.6.1", &m, NULL) == VMAFX_OK);
    CHECK(vmafx_context_create(NULL, &c, NULL) == VMAFX_OK);
    CHECK(vmafx_context_use_model(c, m, NULL) == VMAFX_OK);
    CHECK(vmafx_context_use_feature(c, "psnr", NULL, NULL) == VMAFX_OK);
    for (unsigned i = 0; i < N; i++)
        CHECK(vmafx_submit(c, frame_of(i), frame_of(i + 9u), i, NULL) == VMAFX_OK);
    /* Before the flush the answer is still VMAFX_PENDING, whatever the range. */
    VmafxPooledScore p = VMAFX_POOLED_SCORE_INIT;
    VmafxError *err = NULL;
    CHECK(vmafx_score_pooled(c, m, VMAFX_POOL_MEAN, 0, UINT64_MAX, &p, &err) == VMAFX_PENDING &&
          err == NULL);
    CHECK(vmafx_flush(c, NULL) == VMAFX_OK);
    refuse_out_of_range(c, m, N);
    /* The whole run and its last frame are still in range. */
    CHECK(vmafx_score_pooled(c, m, VMAFX_POOL_MEAN, 0, N - 1, &p, NULL) == VMAFX_OK &&
          p.last == N - 1 && p.value >= 0.0);
    CHECK(vmafx_score_pooled(c, m, VMAFX_POOL_MEAN, N - 1, N - 1, &p, NULL) == VMAFX_OK);
    CHECK(vmafx_feature_score_pooled(c, "psnr_y", VMAFX_POOL_MAX, 0, N - 1, &p, NULL) ==
          VMAFX_OK);
    CHECK(vmafx_context_destroy(c, NULL) == VMAFX_OK);
    vmafx_model_unref(m);
}

static void empty_context(void)
{
    VmafxModel *m = NULL;
    VmafxContext *c = NULL;
    CHECK(vmafx_model_load(NULL, "vmaf_v0.6.1", &m, NULL) == VMAFX_OK);
    CHECK(vmafx_context_create(NULL, &c, NULL) == VMAFX_OK);
    CHECK(vmafx_context_use_model(c, m, NULL) == VMAFX_OK);
    CHECK(vmafx_flush(c, NULL) == VMAFX_OK);
    refuse_out_of_range(c, m, 0);
    /* With no frame scored even frame 0 is out of range. */
    VmafxError *err = NULL;
    VmafxPooledScore p = VMAFX_POOLED_SCORE_INIT;
    FAILS(vmafx_score_pooled(c, m, VMAFX_POOL_MEAN, 0, 0, &p, &err), VMAFX_E_RANGE, &err, "last",
          VMAFX_SUBJECT_PARAMETER);
    CHECK(vmafx_context_destroy(c, NULL) == VMAFX_OK);
    vmafx_model_unref(m);
}

int main(void)
{
#if !defined(__SANITIZE_ADDRESS__) && !defined(__SANITIZE_THREAD__)
    /* 1 GiB of address space: ample for three small frames, far below one allocation per
     * index of a UINT64_MAX range. (Sanitizers reserve terabytes of shadow: no limit then.) */
    const struct rlimit limit = {1ul << 30, 1ul << 30};
    CHECK(setrlimit(RLIMIT_AS, &limit) == 0);
#endif
    scored_context();
    empty_context();
    return check_finish("test_ranges");
}
