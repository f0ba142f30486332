/* Scores through the C ABI (model.h, score.h): built-in models, a context using a model,
 * VMAFX_PENDING before the flush, model and feature scores with their producers, and
 * pooled scores equal to pooling the per-frame scores by hand. */
#include <math.h>
#include <stdlib.h>

#include "check.h"
#include <vmafx/libvmaf_bridge.h>

enum { W = 160, H = 96, LUMA = W * H, CHROMA = LUMA / 4, N = 4 };

static VmafxFrame *frame_of(unsigned seed)
{
    return seeded_frame(W, H, mixed_pattern, seed);
}

/* What a model load's log callback received. */
typedef struct Heard {
    unsigned lines;
    uint32_t level;
    char last[256];
} Heard;

static void hear(uint32_t level, const char *message, void *user)
{
    Heard *h = user;
    h->lines++;
    h->level = level;
    snprintf(h->last, sizeof h->last, "%s", message);
}

/* The `q`-th percentile of the ascending `s[0..n)`, interpolated between the nearest ranks. */
static double perc(const double *s, unsigned n, double q)
{
    const double p = q * (double)(n - 1) / 100.0;
    const double l = floor(p), r = ceil(p);
    return l == r ? s[(unsigned)l] : s[(unsigned)l] * (r - p) + s[(unsigned)r] * (p - l);
}

static int ascending(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static void model_log(void)
{
    VmafxError *err = NULL;
    VmafxModel *m = NULL;
    Heard heard = {0};
    VmafxModelConfig cfg = VMAFX_MODEL_CONFIG_INIT;
    cfg.log_level = VMAFX_LOG_LEVEL_ERROR;
    cfg.log_callback = hear;
    cfg.log_user = &heard;
    /* A failure without an error out-parameter goes to the config's callback. */
    CHECK(vmafx_model_load(&cfg, "vmaf_v9", &m, NULL) == VMAFX_E_NOTFOUND && m == NULL);
    CHECK(heard.lines == 1 && heard.level == VMAFX_LOG_LEVEL_ERROR &&
          strstr(heard.last, "vmafx_model_load") && strstr(heard.last, "vmaf_v9"));
    /* With an error out-parameter the failure is the caller's, not logged. */
    FAILS(vmafx_model_load(&cfg, "vmaf_v9", &m, &err), VMAFX_E_NOTFOUND, &err, "vmaf_v9",
          VMAFX_SUBJECT_MODEL);
    CHECK(heard.lines == 1);
    CHECK(vmafx_model_load(&cfg, "vmaf_v0.6.1", &m, NULL) == VMAFX_OK && heard.lines == 1);
    vmafx_model_unref(m);
    cfg.log_level = 7u;
    FAILS(vmafx_model_load(&cfg, "vmaf_v0.6.1", &m, &err), VMAFX_E_INVALID, &err,
          "config.log_level", VMAFX_SUBJECT_PARAMETER);
    /* vmafx's earlier, shorter VmafxModelConfig is still read. */
    VmafxModelConfig old = VMAFX_MODEL_CONFIG_INIT;
    old.struct_size = (uint32_t)offsetof(VmafxModelConfig, log_level);
    old.name = "old";
    CHECK(vmafx_model_load(&old, "vmaf_v0.6.1", &m, NULL) == VMAFX_OK &&
          strcmp(vmafx_model_name(m), "old") == 0);
    vmafx_model_unref(m);
}

static void models(void)
{
    VmafxError *err = NULL;
    VmafxModel *m = NULL;
    FAILS(vmafx_model_load(NULL, "vmaf_v9", &m, &err), VMAFX_E_NOTFOUND, &err, "vmaf_v9",
          VMAFX_SUBJECT_MODEL);
    CHECK(m == NULL);
    FAILS(vmafx_model_load(NULL, "vmaf_b_v0.6.3", &m, &err), VMAFX_E_INVALID, &err,
          "vmaf_b_v0.6.3", VMAFX_SUBJECT_MODEL);
    FAILS(vmafx_model_load_file(NULL, "/nonexistent/model.json", &m, &err), VMAFX_E_IO, &err,
          "/nonexistent/model.json", VMAFX_SUBJECT_MODEL);
    VmafxModelConfig bad = VMAFX_MODEL_CONFIG_INIT;
    bad.flags = UINT64_C(1) << 9;
    FAILS(vmafx_model_load(&bad, "vmaf_v0.6.1", &m, &err), VMAFX_E_INVALID, &err, "config.flags",
          VMAFX_SUBJECT_PARAMETER);
    VmafxModelConfig named_cfg = VMAFX_MODEL_CONFIG_INIT;
    named_cfg.name = "mine";
    CHECK(vmafx_model_load(&named_cfg, vmafx_model_default_version(), &m, NULL) == VMAFX_OK);
    CHECK(m && strcmp(vmafx_model_name(m), "mine") == 0);
    const uint32_t n = vmafx_model_feature_count(m);
    CHECK(n > 0 && vmafx_model_feature_name(m, 0) && vmafx_model_feature_name(m, n) == NULL);
    CHECK(vmafx_model_ref(m) == m);
    vmafx_model_unref(m);
    vmafx_model_unref(m);
    vmafx_model_unref(NULL);
    CHECK(vmafx_model_name(NULL) == NULL && vmafx_model_feature_count(NULL) == 0u);
    bool found = false;
    unsigned listed = 0;
    for (const char *v = vmafx_model_builtin_next(NULL); v; v = vmafx_model_builtin_next(v)) {
        found = found || strcmp(v, "vmaf_v0.6.1") == 0;
        listed++;
    }
    CHECK(found && listed > 1 && vmafx_model_builtin_next("nope") == NULL);
}

static void scores(void)
{
    VmafxError *err = NULL;
    VmafxModel *m = NULL;
    VmafxModel *unused = NULL;
    VmafxContext *c = NULL;
    CHECK(vmafx_model_load(NULL, "vmaf_v0.6.1", &m, NULL) == VMAFX_OK);
    CHECK(vmafx_model_load(NULL, "vmaf_v0.6.1", &unused, NULL) == VMAFX_OK);
    CHECK(vmafx_context_create(NULL, &c, NULL) == VMAFX_OK);
    CHECK(vmafx_context_use_model(c, m, NULL) == VMAFX_OK);
    CHECK(vmafx_context_use_model(c, m, NULL) == VMAFX_OK);
    CHECK(vmafx_context_use_feature(c, "psnr", NULL, NULL) == VMAFX_OK);
    vmafx_model_unref(m); /* the context holds its own reference */
    for (unsigned i = 0; i < N; i++)
        CHECK(vmafx_submit(c, frame_of(i), frame_of(i + 5u), i, NULL) == VMAFX_OK);
    VmafxScore s = VMAFX_SCORE_INIT;
    CHECK(vmafx_score_frame(c, m, 0, &s, &err) == VMAFX_PENDING && err == NULL);
    CHECK(vmafx_feature_score(c, "psnr_y", 0, &s, &err) == VMAFX_PENDING && err == NULL);
    CHECK(vmafx_flush(c, NULL) == VMAFX_OK);

    double v[N];
    double sum = 0, lo = INFINITY, hi = -INFINITY;
    for (unsigned i = 0; i < N; i++) {
        VmafxScore f = VMAFX_SCORE_INIT;
        CHECK(vmafx_score_frame(c, m, i, &f, NULL) == VMAFX_OK);
        CHECK(f.index == i && strcmp(f.feature, "vmaf") == 0 && f.extractor == NULL &&
              f.backend == VMAFX_BACKEND_CPU && f.value >= 0.0 && f.value <= 100.0);
        v[i] = f.value;
        sum += v[i];
        lo = v[i] < lo ? v[i] : lo;
        hi = v[i] > hi ? v[i] : hi;
    }
    VmafxPooledScore p = VMAFX_POOLED_SCORE_INIT;
    CHECK(vmafx_score_pooled(c, m, VMAFX_POOL_MEAN, 0, N - 1, &p, NULL) == VMAFX_OK &&
          p.value == sum / N && p.first == 0 && p.last == N - 1 &&
          p.pool == VMAFX_POOL_MEAN && strcmp(p.feature, "vmaf") == 0);
    CHECK(vmafx_score_pooled(c, m, VMAFX_POOL_MIN, 0, N - 1, &p, NULL) == VMAFX_OK &&
          p.value == lo);
    CHECK(vmafx_score_pooled(c, m, VMAFX_POOL_MAX, 0, N - 1, &p, NULL) == VMAFX_OK &&
          p.value == hi);
    /* VMAFx's median and percentiles: linear interpolation between the nearest ranks. */
    double sorted[N];
    memcpy(sorted, v, sizeof sorted);
    qsort(sorted, N, sizeof sorted[0], ascending);
    const struct {
        uint32_t pool;
        double q;
    } percs[] = {{VMAFX_POOL_MEDIAN, 50.0},
                 {VMAFX_POOL_PERC5, 5.0},
                 {VMAFX_POOL_PERC10, 10.0},
                 {VMAFX_POOL_PERC20, 20.0}};
    for (unsigned k = 0; k < sizeof percs / sizeof percs[0]; k++)
        CHECK(vmafx_score_pooled(c, m, percs[k].pool, 0, N - 1, &p, NULL) == VMAFX_OK &&
              p.pool == percs[k].pool && p.value == perc(sorted, N, percs[k].q));
    CHECK(perc(sorted, N, 5.0) != perc(sorted, N, 50.0));
    FAILS(vmafx_score_pooled(c, m, 9u, 0, N - 1, &p, &err), VMAFX_E_INVALID, &err, "pool",
          VMAFX_SUBJECT_PARAMETER);
    FAILS(vmafx_score_pooled(c, m, VMAFX_POOL_NONE, 0, N - 1, &p, &err), VMAFX_E_INVALID, &err,
          "pool", VMAFX_SUBJECT_PARAMETER);
    CHECK(vmafx_context_libvmaf_handle(c) == NULL);
    FAILS(vmafx_score_frame(c, unused, 0, &s, &err), VMAFX_E_INVALID, &err, "model",
          VMAFX_SUBJECT_MODEL);

    const char *adm = "VMAF_integer_feature_adm2_score";
    VmafxScore a = VMAFX_SCORE_INIT;
    CHECK(vmafx_feature_score(c, adm, 1, &a, NULL) == VMAFX_OK && a.feature == adm &&
          a.extractor && strcmp(a.extractor, "adm") == 0 && a.index == 1u);
    VmafxScore y = VMAFX_SCORE_INIT;
    CHECK(vmafx_feature_score(c, "psnr_y", 2, &y, NULL) == VMAFX_OK && y.extractor &&
          strcmp(y.extractor, "psnr") == 0 && y.value > 0.0);
    double fsum = 0;
    for (unsigned i = 0; i < N; i++) {
        VmafxScore f = VMAFX_SCORE_INIT;
        CHECK(vmafx_feature_score(c, "psnr_y", i, &f, NULL) == VMAFX_OK);
        fsum += f.value;
    }
    CHECK(vmafx_feature_score_pooled(c, "psnr_y", VMAFX_POOL_MEAN, 0, N - 1, &p, NULL) ==
              VMAFX_OK &&
          p.value == fsum / N);
    FAILS(vmafx_feature_score(c, "no_such_feature", 0, &s, &err), VMAFX_E_NOTFOUND, &err,
          "no_such_feature at frame 0", VMAFX_SUBJECT_FEATURE);
    FAILS(vmafx_feature_score(c, "psnr_y", 0, NULL, &err), VMAFX_E_INVALID, &err, "out",
          VMAFX_SUBJECT_PARAMETER);
    /* A caller compiled against a larger struct keeps its tail; a smaller one is refused. */
    VmafxScore small = VMAFX_SCORE_INIT;
    small.struct_size = 8;
    FAILS(vmafx_feature_score(c, "psnr_y", 0, &small, &err), VMAFX_E_ABI, &err, "out",
          VMAFX_SUBJECT_PARAMETER);
    CHECK(vmafx_context_destroy(c, NULL) == VMAFX_OK);
    vmafx_model_unref(unused);
}

int main(void)
{
    models();
    model_log();
    scores();
    return check_finish("test_scores");
}
