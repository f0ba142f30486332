/* Model hashes, feature overrides and model sets through the C ABI (model.h, score.h):
 * the SHA-256 of the bytes loaded, an override that changes what a model scores and is
 * refused once the model is shared, and a bootstrap set's per-frame and pooled scores
 * equal to the collector's outputs. */
#include <math.h>
#include <stdlib.h>

#include "check.h"

enum { W = 160, H = 96, N = 4 };

/* `sha256sum` of the model files (facts about the files, computed outside this library). */
#define SHA_V061 "5950d61fa1f861bd45d8149d80539ed9f3376cfc2495b8f0fa8e9f57cb131ee3"
#define SHA_B063 "299cffedac6128192300047a428563a72aec8b0770fa1d56b6e05aa8fc189b10"

static VmafxFrame *frame_of(unsigned seed)
{
    return seeded_frame(W, H, mixed_pattern, seed);
}

/* Submits N pairs to `c` and flushes it. */
static bool score_pairs(VmafxContext *c)
{
    for (unsigned i = 0; i < N; i++)
        if (vmafx_submit(c, frame_of(i * 3u), frame_of(i * 3u + 7u), i, NULL) != VMAFX_OK)
            return false;
    return vmafx_flush(c, NULL) == VMAFX_OK;
}

/* `model`'s score at frame `index` on a fresh context. */
static double vmaf_of(VmafxModel *model, uint64_t index)
{
    VmafxContext *c = NULL;
    VmafxScore s = VMAFX_SCORE_INIT;
    double v = NAN;
    if (vmafx_context_create(NULL, &c, NULL) == VMAFX_OK &&
        vmafx_context_use_model(c, model, NULL) == VMAFX_OK && score_pairs(c) &&
        vmafx_score_frame(c, model, index, &s, NULL) == VMAFX_OK)
        v = s.value;
    vmafx_context_destroy(c, NULL);
    return v;
}

static void hashes(void)
{
    VmafxModel *builtin = NULL, *file = NULL;
    CHECK(vmafx_model_load(NULL, "vmaf_v0.6.1", &builtin, NULL) == VMAFX_OK);
    CHECK(vmafx_model_load_file(NULL, VMAFX_MODEL_DIR "/vmaf_v0.6.1.json", &file, NULL) ==
          VMAFX_OK);
    CHECK(builtin && strcmp(vmafx_model_hash(builtin), SHA_V061) == 0);
    CHECK(file && strcmp(vmafx_model_hash(file), SHA_V061) == 0);
    CHECK(vmafx_model_hash(NULL) == NULL);
    vmafx_model_unref(builtin);
    vmafx_model_unref(file);
}

static void overrides(void)
{
    VmafxError *err = NULL;
    VmafxModel *m = NULL;
    VmafxOptions *zero = NULL;
    CHECK(vmafx_options_set(&zero, "motion_force_zero", "true", NULL) == VMAFX_OK);
    CHECK(vmafx_model_load(NULL, "vmaf_v0.6.1", &m, NULL) == VMAFX_OK);
    const double before = vmaf_of(m, 2);
    /* vmaf_of's context has gone: the caller holds the only reference again. */
    CHECK(vmafx_model_override_feature(m, "motion", zero, NULL) == VMAFX_OK);
    const double after = vmaf_of(m, 2);
    CHECK(isfinite(before) && isfinite(after) && before != after);
    CHECK(strcmp(vmafx_model_hash(m), SHA_V061) == 0); /* the bytes loaded */
    FAILS(vmafx_model_override_feature(m, "cambi", zero, &err), VMAFX_E_NOTFOUND, &err, "cambi",
          VMAFX_SUBJECT_EXTRACTOR);
    FAILS(vmafx_model_override_feature(m, "motion", NULL, &err), VMAFX_E_INVALID, &err,
          "options", VMAFX_SUBJECT_PARAMETER);
    VmafxModel *again = vmafx_model_ref(m);
    FAILS(vmafx_model_override_feature(m, "motion", zero, &err), VMAFX_E_BUSY, &err, "model",
          VMAFX_SUBJECT_MODEL);
    vmafx_model_unref(again);
    VmafxContext *c = NULL;
    CHECK(vmafx_context_create(NULL, &c, NULL) == VMAFX_OK &&
          vmafx_context_use_model(c, m, NULL) == VMAFX_OK);
    FAILS(vmafx_model_override_feature(m, "motion", zero, &err), VMAFX_E_BUSY, &err, "model",
          VMAFX_SUBJECT_MODEL);
    vmafx_context_destroy(c, NULL);
    FAILS(vmafx_model_override_feature(NULL, "motion", zero, &err), VMAFX_E_INVALID, &err, "model",
          VMAFX_SUBJECT_MODEL);
    vmafx_model_unref(m);
    vmafx_options_free(zero);
}

static void sets(void)
{
    VmafxError *err = NULL;
    VmafxModelSet *set = NULL;
    FAILS(vmafx_model_set_load(NULL, "vmaf_v0.6.1", &set, &err), VMAFX_E_INVALID, &err,
          "vmaf_v0.6.1", VMAFX_SUBJECT_MODEL);
    FAILS(vmafx_model_set_load(NULL, "vmaf_b_v9", &set, &err), VMAFX_E_NOTFOUND, &err,
          "vmaf_b_v9", VMAFX_SUBJECT_MODEL);
    CHECK(set == NULL);
    CHECK(vmafx_model_set_load(NULL, "vmaf_b_v0.6.3", &set, NULL) == VMAFX_OK && set);
    VmafxModel *lead = vmafx_model_set_lead(set);
    CHECK(lead && strcmp(vmafx_model_name(lead), "vmaf") == 0 && vmafx_model_feature_count(lead) > 0);
    CHECK(vmafx_model_set_size(set) > 1u && vmafx_model_set_size(NULL) == 0u);
    CHECK(strcmp(vmafx_model_set_hash(set), SHA_B063) == 0 && vmafx_model_set_hash(NULL) == NULL);
    CHECK(vmafx_model_set_lead(NULL) == NULL && vmafx_model_set_ref(set) == set);
    vmafx_model_set_unref(set);

    VmafxContext *c = NULL;
    CHECK(vmafx_context_create(NULL, &c, NULL) == VMAFX_OK);
    CHECK(vmafx_context_use_model_set(c, set, NULL) == VMAFX_OK);
    CHECK(vmafx_context_use_model_set(c, set, NULL) == VMAFX_OK);
    VmafxOptions *opts = NULL;
    CHECK(vmafx_options_set(&opts, "motion_force_zero", "true", NULL) == VMAFX_OK);
    FAILS(vmafx_model_set_override_feature(set, "motion", opts, &err), VMAFX_E_BUSY, &err, "set",
          VMAFX_SUBJECT_MODEL);
    vmafx_options_free(opts);
    opts = NULL;
    VmafxModelSetScore s = VMAFX_MODEL_SET_SCORE_INIT;
    CHECK(score_pairs(c));
    double bag[N], sum = 0;
    for (unsigned i = 0; i < N; i++) {
        CHECK(vmafx_score_frame_model_set(c, set, i, &s, NULL) == VMAFX_OK);
        VmafxScore b = VMAFX_SCORE_INIT, lo = VMAFX_SCORE_INIT, hi = VMAFX_SCORE_INIT;
        CHECK(vmafx_feature_score(c, "vmaf_bagging", i, &b, NULL) == VMAFX_OK &&
              vmafx_feature_score(c, "vmaf_ci_p95_lo", i, &lo, NULL) == VMAFX_OK &&
              vmafx_feature_score(c, "vmaf_ci_p95_hi", i, &hi, NULL) == VMAFX_OK);
        CHECK(s.pool == VMAFX_POOL_NONE && s.first == i && s.last == i &&
              strcmp(s.name, "vmaf") == 0);
        CHECK(s.bagging == b.value && s.ci95_lo == lo.value && s.ci95_hi == hi.value);
        CHECK(s.stddev >= 0.0 && s.ci95_lo <= s.ci95_hi);
        bag[i] = s.bagging;
        sum += bag[i];
        /* The lead scores through vmafx_score_frame() as the set's model "0". */
        VmafxScore l = VMAFX_SCORE_INIT, v = VMAFX_SCORE_INIT;
        CHECK(vmafx_score_frame(c, lead, i, &l, NULL) == VMAFX_OK &&
              vmafx_feature_score(c, "vmaf", i, &v, NULL) == VMAFX_OK && l.value == v.value);
    }
    CHECK(vmafx_score_pooled_model_set(c, set, VMAFX_POOL_MEAN, 0, N - 1, &s, NULL) == VMAFX_OK &&
          s.bagging == sum / N && s.pool == VMAFX_POOL_MEAN && s.first == 0 && s.last == N - 1);
    double lo = bag[0], hi = bag[0];
    for (unsigned i = 1; i < N; i++) {
        lo = bag[i] < lo ? bag[i] : lo;
        hi = bag[i] > hi ? bag[i] : hi;
    }
    CHECK(vmafx_score_pooled_model_set(c, set, VMAFX_POOL_MIN, 0, N - 1, &s, NULL) == VMAFX_OK &&
          s.bagging == lo);
    CHECK(vmafx_score_pooled_model_set(c, set, VMAFX_POOL_MAX, 0, N - 1, &s, NULL) == VMAFX_OK &&
          s.bagging == hi);
    FAILS(vmafx_score_pooled_model_set(c, set, 0u, 0, N - 1, &s, &err), VMAFX_E_INVALID, &err,
          "pool", VMAFX_SUBJECT_PARAMETER);
    /* Perceptual weighting: frame 1's side data weighs it 1 + 2 * salience in the pooled
     * means of the set's four values and of the lead (the frame-level banding scalars:
     * 0.75 r + 0.25 r f, kept as a float). */
    uint8_t blob[256];
    const size_t blob_size = pelorus_blob(blob, 0, 0, 0.8f, 0.5f, NULL, -1);
    CHECK(vmafx_context_attach_sidedata(c, 1, blob, blob_size, NULL) == VMAFX_OK);
    CHECK(vmafx_context_set_option(c, "perceptual_weight", "1", NULL) == VMAFX_OK &&
          vmafx_context_set_option(c, "perceptual_weight_strength", "2", NULL) == VMAFX_OK);
    const double risk = 0.8f, flat = 0.5f;
    const float salience = (float)(0.75 * risk + 0.25 * (risk * flat));
    double w_sum = 0, w_bag = 0, w_lead = 0;
    for (unsigned i = 0; i < N; i++) {
        const double w = i == 1 ? 1.0 + 2.0 * salience : 1.0;
        VmafxScore v = VMAFX_SCORE_INIT;
        CHECK(vmafx_feature_score(c, "vmaf", i, &v, NULL) == VMAFX_OK);
        w_sum += w;
        w_bag += w * bag[i];
        w_lead += w * v.value;
    }
    CHECK(vmafx_score_pooled_model_set(c, set, VMAFX_POOL_MEAN, 0, N - 1, &s, NULL) == VMAFX_OK &&
          s.bagging == w_bag / w_sum && s.bagging != sum / N);
    VmafxPooledScore p = VMAFX_POOLED_SCORE_INIT;
    CHECK(vmafx_score_pooled(c, lead, VMAFX_POOL_MEAN, 0, N - 1, &p, NULL) == VMAFX_OK &&
          p.value == w_lead / w_sum);
    CHECK(vmafx_score_pooled_model_set(c, set, VMAFX_POOL_MIN, 0, N - 1, &s, NULL) == VMAFX_OK &&
          s.bagging == lo);
    VmafxModelSet *other = NULL;
    CHECK(vmafx_model_set_load(NULL, "vmaf_b_v0.6.3", &other, NULL) == VMAFX_OK);
    FAILS(vmafx_score_frame_model_set(c, other, 0, &s, &err), VMAFX_E_INVALID, &err, "set",
          VMAFX_SUBJECT_MODEL);
    /* The set is shared with the context; released, the caller's override works again. */
    vmafx_model_set_unref(set); /* the context holds its own reference */
    CHECK(vmafx_context_destroy(c, NULL) == VMAFX_OK);
    CHECK(vmafx_options_set(&opts, "motion_force_zero", "true", NULL) == VMAFX_OK);
    CHECK(vmafx_model_set_override_feature(other, "motion", opts, NULL) == VMAFX_OK);
    vmafx_options_free(opts);
    vmafx_model_set_unref(other);
    vmafx_model_set_unref(NULL);
}

int main(void)
{
    hashes();
    overrides();
    sets();
    return check_finish("test_model_sets");
}
