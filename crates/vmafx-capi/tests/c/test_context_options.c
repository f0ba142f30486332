/* Context options of context.h (ABI 0.1.6): vmafx_context_set_option (its three keys and
 * their refusals), perceptual weighting by the Pelorus blobs of vmafx_context_attach_sidedata
 * (pooled means and a window's as VMAFx's ADR-1118 formula gives them, computed here from
 * the per-frame scores; no score changed without side data, with the option off or at strength 0;
 * malformed blobs refused naming the field), the sample range check at submit and
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

/* Blobs attached to frames 0 and 2 of a psnr context: frame 0 with a 2x2 banding map,
 * frame 2 with the frame-level banding scalars and a complexity. */
static void attach_two(VmafxContext *c)
{
    uint8_t blob[256];
    const uint8_t cells[4] = {255, 255, 0, 51};
    size_t n = pelorus_blob(blob, 2, 2, 0.9f, 0.9f, cells, -1);
    VmafxError *err = NULL;
    CHECK(vmafx_context_attach_sidedata(c, 0, blob, n, &err) == VMAFX_OK && !err);
    n = pelorus_blob(blob, 0, 0, 0.8f, 0.5f, NULL, 0.5f);
    CHECK(vmafx_context_attach_sidedata(c, 2, blob, n, &err) == VMAFX_OK && !err);
}

/* The pooled mean and harmonic mean weight each frame by 1 + strength * salience, the
 * salience derived from its blob (VMAFx keeps it as a float); frames without one weigh 1. */
static void weighting_follows_the_salience(void)
{
    const char *kv[] = {"perceptual_weight", "1", "perceptual_weight_strength", "3"};
    VmafxContext *c = psnr_context(kv, 2);
    CHECK(c != NULL);
    if (!c)
        return;
    attach_two(c);
    /* A window over the same frames pools as the synchronous calls do. */
    VmafxWindowRequest req = VMAFX_WINDOW_REQUEST_INIT;
    req.target = VMAFX_WINDOW_TARGET_FEATURE;
    req.feature = "psnr_y";
    req.pool_mask = VMAFX_POOL_MASK_MEAN | VMAFX_POOL_MASK_HARMONIC_MEAN;
    req.last = N - 1;
    VmafxWindow *window = NULL;
    CHECK(vmafx_window_submit(c, &req, &window, NULL) == VMAFX_OK);
    double got[2];
    score(c, got);
    VmafxWindowResult r = VMAFX_WINDOW_RESULT_INIT;
    CHECK(window && vmafx_window_wait(window, UINT64_MAX, &r, NULL) == VMAFX_OK);
    CHECK(r.status == VMAFX_OK && r.value[VMAFX_POOL_MEAN] == got[0] &&
          r.value[VMAFX_POOL_HARMONIC_MEAN] == got[1]);
    vmafx_window_release(window);
    const float s0 = (float)(561.0 / (4.0 * 255.0)); /* mean risk of the four cells */
    const double risk = 0.8f, flat = 0.5f;
    const float s2 = (float)((0.75 * risk + 0.25 * (risk * flat)) * (1.0 - 0.5 * 0.5));
    const double w[N] = {1.0 + 3.0 * s0, 1.0, 1.0 + 3.0 * s2};
    double w_sum = 0, w_score = 0, w_inv = 0, plain = 0;
    for (unsigned i = 0; i < N; i++) {
        VmafxScore s = VMAFX_SCORE_INIT;
        CHECK(vmafx_feature_score(c, "psnr_y", i, &s, NULL) == VMAFX_OK);
        w_sum += w[i];
        w_score += w[i] * s.value;
        w_inv += w[i] / (s.value + 1.0);
        plain += s.value;
    }
    CHECK(got[0] == w_score / w_sum && got[0] != plain / N);
    CHECK(got[1] == w_sum / w_inv - 1.0);
    if (got[0] != w_score / w_sum || got[1] != w_sum / w_inv - 1.0)
        fprintf(stderr, "weighted mean %.17g / %.17g, harmonic %.17g / %.17g\n", got[0],
                w_score / w_sum, got[1], w_sum / w_inv - 1.0);
    CHECK(vmafx_context_destroy(c, NULL) == VMAFX_OK);
}

/* Without side data, with the option off, or at strength 0, every frame weighs 1: pooled
 * scores are the same bits as a context without the options. */
static void weighting_changes_no_score(void)
{
    const char *on[] = {"perceptual_weight", "1", "perceptual_weight_strength", "3"};
    const char *off[] = {"perceptual_weight", "0"};
    const char *zero[] = {"perceptual_weight", "1", "perceptual_weight_strength", "0"};
    VmafxContext *plain = psnr_context(NULL, 0);
    VmafxContext *same[3] = {psnr_context(on, 2), psnr_context(off, 1), psnr_context(zero, 2)};
    CHECK(plain && same[0] && same[1] && same[2]);
    if (!plain || !same[0] || !same[1] || !same[2])
        return;
    attach_two(same[1]);
    attach_two(same[2]);
    double a[2];
    score(plain, a);
    CHECK(a[0] > 0);
    for (unsigned k = 0; k < 3; k++) {
        double b[2];
        score(same[k], b);
        CHECK(memcmp(a, b, sizeof a) == 0);
        CHECK(vmafx_context_destroy(same[k], NULL) == VMAFX_OK);
    }
    CHECK(vmafx_context_destroy(plain, NULL) == VMAFX_OK);
}

/* Malformed or foreign blobs are refused naming what is wrong, and leave the frame
 * unweighted. */
static void malformed_blobs(void)
{
    VmafxContext *c = psnr_context(NULL, 0);
    CHECK(c != NULL);
    if (!c)
        return;
    VmafxError *err = NULL;
    uint8_t blob[256];
    const uint8_t cells[4] = {1, 2, 3, 4};
    const size_t n = pelorus_blob(blob, 2, 2, 0.5f, 0.5f, cells, 0.25f);
    CHECK(vmafx_context_attach_sidedata(c, 1, blob, n, &err) == VMAFX_OK && !err);
    FAILS(vmafx_context_attach_sidedata(c, 0, blob, 0, &err), VMAFX_E_INVALID, &err, "size",
          VMAFX_SUBJECT_PARAMETER);
    FAILS(vmafx_context_attach_sidedata(c, 0, NULL, n, &err), VMAFX_E_INVALID, &err, "data",
          VMAFX_SUBJECT_PARAMETER);
    FAILS(vmafx_context_attach_sidedata(c, 1ull << 32, blob, n, &err), VMAFX_E_RANGE, &err,
          "index", VMAFX_SUBJECT_FRAME);
    /* Not a Pelorus blob: another UUID, or fewer bytes than one. */
    blob[5] ^= 0xff;
    FAILS(vmafx_context_attach_sidedata(c, 0, blob, n, &err), VMAFX_E_NOTFOUND, &err, "data",
          VMAFX_SUBJECT_PARAMETER);
    blob[5] ^= 0xff;
    FAILS(vmafx_context_attach_sidedata(c, 0, blob, 12, &err), VMAFX_E_NOTFOUND, &err, "data",
          VMAFX_SUBJECT_PARAMETER);
    /* Another layout major. */
    blob[16 + 8] = 2;
    FAILS(vmafx_context_attach_sidedata(c, 0, blob, n, &err), VMAFX_E_ABI, &err,
          "data.abi_major", VMAFX_SUBJECT_PARAMETER);
    blob[16 + 8] = 1;
    /* Truncated: in the header, in the sections, in the per-cell map. */
    const struct {
        size_t size;
        const char *field;
    } cut[] = {{40, "data.header"}, {100, "data.total_size"}, {n - 1, "data.banding.cell_data_size"}};
    for (unsigned i = 0; i < sizeof cut / sizeof cut[0]; i++)
        FAILS(vmafx_context_attach_sidedata(c, 0, blob, cut[i].size, &err), VMAFX_E_INVALID, &err,
              cut[i].field, VMAFX_SUBJECT_PARAMETER);
    /* A section offset that is not 8-aligned, a mask that disagrees with the directory. */
    blob[16 + 52] += 4;
    FAILS(vmafx_context_attach_sidedata(c, 0, blob, n, &err), VMAFX_E_INVALID, &err,
          "data.dir[0].offset", VMAFX_SUBJECT_PARAMETER);
    blob[16 + 52] -= 4;
    blob[16 + 16] = 0x03;
    FAILS(vmafx_context_attach_sidedata(c, 0, blob, n, &err), VMAFX_E_INVALID, &err,
          "data.section_mask", VMAFX_SUBJECT_PARAMETER);
    CHECK(vmafx_context_destroy(c, NULL) == VMAFX_OK);
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
    weighting_follows_the_salience();
    weighting_changes_no_score();
    malformed_blobs();
    sample_range();
    default_color();
    return check_finish("test_context_options");
}
