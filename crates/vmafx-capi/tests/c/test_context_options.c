/* Context options of context.h (ABI 0.1.6): vmafx_context_set_option (its three keys, their
 * refusals, and perceptual weighting changing no score without side data), the sample range
 * check at submit, vmafx_context_attach_sidedata (refused: no side-data format is read) and
 * vmafx_context_set_default_color. */
#include <stdlib.h>

#include "check.h"

enum { W = 32, H = 16, N = 3 };

/* A 10-bit 4:2:0 host frame whose samples follow `seed`; NULL on failure. */
static VmafxFrame *frame10(unsigned seed)
{
    VmafxFrameDesc d = VMAFX_FRAME_DESC_INIT;
    d.pix_fmt = VMAFX_PIXEL_FORMAT_YUV420P;
    d.bpc = 10;
    d.w = W;
    d.h = H;
    VmafxFrame *f = NULL;
    if (vmafx_frame_create_host(NULL, &d, &f, NULL) != VMAFX_OK)
        return NULL;
    VmafxFramePlanes pl = VMAFX_FRAME_PLANES_INIT;
    if (vmafx_frame_planes(f, &pl, NULL) != VMAFX_OK)
        return NULL;
    for (unsigned p = 0; p < pl.n_planes; p++)
        for (unsigned y = 0; y < pl.h[p]; y++) {
            uint16_t *row = (uint16_t *)((uint8_t *)pl.data[p] + y * pl.stride[p]);
            for (unsigned x = 0; x < pl.w[p]; x++)
                row[x] = (uint16_t)((x * 29 + y * 13 + p * 7 + seed * 31) % 1024);
        }
    return f;
}

/* Sets sample (x, y) of plane `p` of `f`. */
static void poke(VmafxFrame *f, unsigned p, unsigned x, unsigned y, uint16_t v)
{
    VmafxFramePlanes pl = VMAFX_FRAME_PLANES_INIT;
    CHECK(vmafx_frame_planes(f, &pl, NULL) == VMAFX_OK);
    ((uint16_t *)((uint8_t *)pl.data[p] + y * pl.stride[p]))[x] = v;
}

/* A psnr context with `n` options set (key, value pairs); NULL on failure. */
static VmafxContext *psnr_context(const char *const *kv, unsigned n)
{
    VmafxContext *c = NULL;
    if (vmafx_context_create(NULL, &c, NULL) != VMAFX_OK)
        return NULL;
    for (unsigned i = 0; i < n; i++)
        if (vmafx_context_set_option(c, kv[2 * i], kv[2 * i + 1], NULL) != VMAFX_OK)
            return NULL;
    if (vmafx_context_use_feature(c, "psnr", NULL, NULL) != VMAFX_OK)
        return NULL;
    return c;
}

/* Scores N frame pairs on `c` and returns the pooled mean and harmonic mean of psnr_y. */
static void score(VmafxContext *c, double out[2])
{
    for (unsigned i = 0; i < N; i++)
        CHECK(vmafx_submit(c, frame10(i), frame10(i + 5), i, NULL) == VMAFX_OK);
    CHECK(vmafx_flush(c, NULL) == VMAFX_OK);
    const uint32_t pools[2] = {VMAFX_POOL_MEAN, VMAFX_POOL_HARMONIC_MEAN};
    for (unsigned k = 0; k < 2; k++) {
        VmafxPooledScore s = VMAFX_POOLED_SCORE_INIT;
        CHECK(vmafx_feature_score_pooled(c, "psnr_y", pools[k], 0, N - 1, &s, NULL) == VMAFX_OK);
        out[k] = s.value;
    }
}

static void options(void)
{
    VmafxContext *c = NULL;
    CHECK(vmafx_context_create(NULL, &c, NULL) == VMAFX_OK);
    VmafxError *err = NULL;
    const char *ok[][2] = {{"perceptual_weight", "1"},          {"perceptual_weight", "0"},
                           {"perceptual_weight_strength", "0"}, {"perceptual_weight_strength", "2.5"},
                           {"check_sample_range", "1"},         {"check_sample_range", "0"}};
    for (unsigned i = 0; i < sizeof ok / sizeof ok[0]; i++)
        CHECK(vmafx_context_set_option(c, ok[i][0], ok[i][1], &err) == VMAFX_OK && !err);
    const char *bad[][2] = {{"perceptual_weight", "2"},           {"perceptual_weight", "yes"},
                            {"check_sample_range", ""},           {"perceptual_weight_strength", "-1"},
                            {"perceptual_weight_strength", "nan"}, {"perceptual_weight_strength", "inf"},
                            {"perceptual_weight_strength", "x"}};
    for (unsigned i = 0; i < sizeof bad / sizeof bad[0]; i++)
        FAILS(vmafx_context_set_option(c, bad[i][0], bad[i][1], &err), VMAFX_E_INVALID, &err,
              bad[i][0], VMAFX_SUBJECT_OPTION);
    FAILS(vmafx_context_set_option(c, "perceptual_weights", "1", &err), VMAFX_E_NOTFOUND, &err,
          "perceptual_weights", VMAFX_SUBJECT_OPTION);
    CHECK(vmafx_context_destroy(c, NULL) == VMAFX_OK);
}

/* No side data can be attached, so every frame weighs 1: pooled scores are the same bits as
 * a context without the options. */
static void weighting_changes_no_score(void)
{
    const char *kv[] = {"perceptual_weight", "1", "perceptual_weight_strength", "3"};
    VmafxContext *plain = psnr_context(NULL, 0), *weighted = psnr_context(kv, 2);
    CHECK(plain && weighted);
    if (!plain || !weighted)
        return;
    VmafxError *err = NULL;
    const uint8_t blob[64] = {0};
    FAILS(vmafx_context_attach_sidedata(weighted, 0, blob, sizeof blob, &err), VMAFX_E_NOTSUP,
          &err, "data", VMAFX_SUBJECT_PARAMETER);
    FAILS(vmafx_context_attach_sidedata(weighted, 0, blob, 0, &err), VMAFX_E_INVALID, &err, "size",
          VMAFX_SUBJECT_PARAMETER);
    double a[2], b[2];
    score(plain, a);
    score(weighted, b);
    CHECK(a[0] > 0 && memcmp(a, b, sizeof a) == 0);
    CHECK(vmafx_context_destroy(plain, NULL) == VMAFX_OK);
    CHECK(vmafx_context_destroy(weighted, NULL) == VMAFX_OK);
}

static void sample_range(void)
{
    /* Off (the default): a 10-bit sample of 1024 is scored as given. */
    VmafxContext *off = psnr_context(NULL, 0);
    VmafxFrame *d = frame10(1);
    poke(d, 1, 3, 2, 1024);
    CHECK(off && vmafx_submit(off, frame10(0), d, 0, NULL) == VMAFX_OK);
    CHECK(vmafx_context_destroy(off, NULL) == VMAFX_OK);

    const char *kv[] = {"check_sample_range", "1"};
    VmafxContext *on = psnr_context(kv, 1);
    CHECK(on != NULL);
    if (!on)
        return;
    VmafxError *err = NULL;
    CHECK(vmafx_submit(on, frame10(0), frame10(1), 0, &err) == VMAFX_OK && !err);
    d = frame10(2);
    poke(d, 1, 3, 2, 1024);
    CHECK(vmafx_submit(on, frame10(1), d, 1, &err) == VMAFX_E_INVALID);
    CHECK(err && strstr(vmafx_error_message(err), "plane 1, row 2, column 3: sample 1024"));
    FAILS(VMAFX_E_INVALID, VMAFX_E_INVALID, &err, "distorted", VMAFX_SUBJECT_FRAME);
    VmafxFrame *r = frame10(2);
    poke(r, 0, 31, 15, 65535);
    CHECK(vmafx_submit(on, r, frame10(2), 1, &err) == VMAFX_E_INVALID);
    CHECK(err && strstr(vmafx_error_message(err), "plane 0, row 15, column 31: sample 65535"));
    FAILS(VMAFX_E_INVALID, VMAFX_E_INVALID, &err, "reference", VMAFX_SUBJECT_FRAME);
    /* The refused pair scored nothing: frame 1 is still free. */
    CHECK(vmafx_submit(on, frame10(1), frame10(2), 1, NULL) == VMAFX_OK);
    CHECK(vmafx_context_destroy(on, NULL) == VMAFX_OK);
}

static void default_color(void)
{
    VmafxContext *c = NULL;
    CHECK(vmafx_context_create(NULL, &c, NULL) == VMAFX_OK);
    VmafxError *err = NULL;
    VmafxColor bt709 = {VMAFX_COLOR_RANGE_LIMITED, VMAFX_COLOR_PRIMARIES_BT709,
                        VMAFX_COLOR_TRC_BT709, VMAFX_COLOR_MATRIX_BT709};
    CHECK(vmafx_context_set_default_color(c, &bt709, &bt709, &err) == VMAFX_OK && !err);
    CHECK(vmafx_context_set_default_color(c, NULL, NULL, &err) == VMAFX_OK && !err);
    VmafxColor bad = bt709;
    bad.matrix = 6;
    FAILS(vmafx_context_set_default_color(c, &bad, NULL, &err), VMAFX_E_INVALID, &err,
          "reference.matrix", VMAFX_SUBJECT_PARAMETER);
    bad = bt709;
    bad.range = 3;
    FAILS(vmafx_context_set_default_color(c, NULL, &bad, &err), VMAFX_E_INVALID, &err,
          "distorted.range", VMAFX_SUBJECT_PARAMETER);
    CHECK(vmafx_context_destroy(c, NULL) == VMAFX_OK);
}

int main(void)
{
    options();
    weighting_changes_no_score();
    sample_range();
    default_color();
    return check_finish("test_context_options");
}
