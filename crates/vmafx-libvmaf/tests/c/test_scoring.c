/* The drop-in used as FFmpeg and libvmaf's CLI use it: models, extra features, pictures
 * read and flushed, scores per picture and pooled, the log written. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libvmaf/libvmaf.h>

#include "check.h"
#include "pictures.h"

#define W 64
#define H 48
#define N 4

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    static char buf[1 << 16];
    const size_t n = fread(buf, 1, sizeof(buf) - 1, f);
    buf[n] = 0;
    fclose(f);
    return buf;
}

static void score_run(unsigned bpc, unsigned threads)
{
    VmafConfiguration cfg = {.log_level = VMAF_LOG_LEVEL_NONE, .n_threads = threads};
    VmafContext *vmaf = NULL;
    EXPECT(vmaf_init(&vmaf, cfg), 0);
    VmafModelConfig mcfg = {.name = "vmaf", .flags = VMAF_MODEL_FLAGS_DEFAULT};
    VmafModel *model = NULL;
    EXPECT(vmaf_model_load(&model, &mcfg, "vmaf_v0.6.1"), 0);
    EXPECT(vmaf_use_features_from_model(vmaf, model), 0);
    VmafFeatureDictionary *d = NULL;
    EXPECT(vmaf_feature_dictionary_set(&d, "enable_chroma", "false"), 0);
    EXPECT(vmaf_feature_dictionary_set(&d, "enable_apsnr", "true"), 0);
    EXPECT(vmaf_use_feature(vmaf, "psnr", d), 0); /* the context took d */

    for (unsigned i = 0; i < N; i++) {
        VmafPicture ref, dist;
        EXPECT(pattern_picture(&ref, bpc, W, H, i, 0), 0);
        EXPECT(pattern_picture(&dist, bpc, W, H, i, 1 + i), 0);
        EXPECT(vmaf_read_pictures(vmaf, &ref, &dist, i), 0);
        CHECK(ref.ref == NULL && dist.ref == NULL); /* taken: the caller's structs are cleared */
    }
    EXPECT(vmaf_read_pictures(vmaf, NULL, NULL, 0), 0);

    double s = -1, pooled = -1, lo = -1, hi = -1, psnr = -1, psnr_mean = -1;
    EXPECT(vmaf_score_at_index(vmaf, model, &s, 1), 0);
    CHECK(s >= 0 && s <= 100);
    EXPECT(vmaf_score_pooled(vmaf, model, VMAF_POOL_METHOD_MEAN, &pooled, 0, N - 1), 0);
    EXPECT(vmaf_score_pooled(vmaf, model, VMAF_POOL_METHOD_MIN, &lo, 0, N - 1), 0);
    EXPECT(vmaf_score_pooled(vmaf, model, VMAF_POOL_METHOD_MAX, &hi, 0, N - 1), 0);
    CHECK(lo <= pooled && pooled <= hi && lo <= s && s <= hi);
    EXPECT(vmaf_feature_score_at_index(vmaf, "psnr_y", &psnr, 2), 0);
    CHECK(psnr > 10 && psnr < 100);
    EXPECT(vmaf_feature_score_pooled(vmaf, "psnr_y", VMAF_POOL_METHOD_MEAN, &psnr_mean, 0,
                                     N - 1),
           0);
    CHECK(psnr_mean > 10 && psnr_mean < 100);
    EXPECT(vmaf_import_feature_score(vmaf, "my_metric", 0.5, 0), 0);

    char path[256];
    snprintf(path, sizeof(path), "%s/drop_in_scoring_%u_%u.json",
             getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp", bpc, threads);
    EXPECT(vmaf_write_output(vmaf, path, VMAF_OUTPUT_FORMAT_JSON), 0);
    const char *log = slurp(path);
    CHECK(log && strstr(log, "\"version\": \"3.2.0\""));
    CHECK(log && strstr(log, "\"vmaf\": "));
    CHECK(log && strstr(log, "\"psnr_y\": "));
    CHECK(log && strstr(log, "\"my_metric\": 0.500000"));
    /* The whole run's PSNR (enable_apsnr), of the luma only without chroma. */
    const char *apsnr_key = "\"aggregate_metrics\": {\n    \"apsnr_y\": ";
    const char *apsnr_at = log ? strstr(log, apsnr_key) : NULL;
    const double apsnr = apsnr_at ? atof(apsnr_at + strlen(apsnr_key)) : -1;
    CHECK(apsnr > 10 && apsnr < 100);
    CHECK(log && !strstr(log, "apsnr_cb"));
    /* libvmaf's order: its collector lists features as it first received them. Without a
     * thread pool the extractors run in registration order (the model's, then psnr); with
     * one, psnr (flagged temporal) runs on the reading thread before the pool gets the
     * frame, so it lists first. */
    const char *psnr_at = log ? strstr(log, "\"psnr_y\": ") : NULL;
    const char *adm_at = log ? strstr(log, "\"integer_adm2\": ") : NULL;
    const char *vif_at = log ? strstr(log, "\"integer_vif_scale3\": ") : NULL;
    CHECK(psnr_at && adm_at && vif_at);
    if (psnr_at && adm_at && vif_at)
        CHECK(threads ? psnr_at < adm_at : vif_at < psnr_at);
    /* fps is pictures over CPU seconds, a number (null only for a zero interval). */
    const char *fps_at = log ? strstr(log, "\"fps\": ") : NULL;
    CHECK(fps_at && strncmp(fps_at + 7, "null", 4) != 0 && atof(fps_at + 7) > 0);
    remove(path);
    EXPECT(vmaf_write_output(vmaf, path, VMAF_OUTPUT_FORMAT_CSV), 0);
    log = slurp(path);
    const char *header = threads ? "Frame,psnr_y,integer_adm2," : "Frame,integer_adm2,";
    CHECK(log && strncmp(log, header, strlen(header)) == 0);
    remove(path);
    EXPECT(vmaf_write_output_with_format(vmaf, path, VMAF_OUTPUT_FORMAT_XML, NULL), 0);
    log = slurp(path);
    CHECK(log && strstr(log, "<VMAF version=\"3.2.0\">"));
    remove(path);

    vmaf_model_destroy(model);
    EXPECT(vmaf_close(vmaf), 0);
}

static void collection_run(void)
{
    VmafConfiguration cfg = {.log_level = VMAF_LOG_LEVEL_NONE};
    VmafContext *vmaf = NULL;
    EXPECT(vmaf_init(&vmaf, cfg), 0);
    VmafModelConfig mcfg = {.name = "vmaf"};
    VmafModel *model = NULL;
    VmafModelCollection *coll = NULL;
    /* A collection is no model: libvmaf's callers fall back to the collection call. */
    EXPECT(vmaf_model_load(&model, &mcfg, "vmaf_b_v0.6.3"), -EINVAL);
    EXPECT(vmaf_model_collection_load(&model, &coll, &mcfg, "vmaf_b_v0.6.3"), 0);
    EXPECT(vmaf_use_features_from_model(vmaf, model), 0);
    EXPECT(vmaf_use_features_from_model_collection(vmaf, coll), 0);
    VmafPictureConfiguration pcfg = {
        .pic_params = {.w = W, .h = H, .bpc = 8, .pix_fmt = VMAF_PIX_FMT_YUV420P},
        .pic_cnt = 4};
    EXPECT(vmaf_preallocate_pictures(vmaf, pcfg), 0);
    for (unsigned i = 0; i < N; i++) {
        VmafPicture ref, dist;
        EXPECT(vmaf_fetch_preallocated_picture(vmaf, &ref), 0);
        CHECK(ref.w[0] == W && ref.h[0] == H && ref.bpc == 8);
        EXPECT(vmaf_picture_unref(&ref), 0);
        EXPECT(pattern_picture(&ref, 8, W, H, i, 0), 0);
        EXPECT(pattern_picture(&dist, 8, W, H, i, 3), 0);
        EXPECT(vmaf_read_pictures(vmaf, &ref, &dist, i), 0);
    }
    EXPECT(vmaf_read_pictures(vmaf, NULL, NULL, 0), 0);
    VmafModelCollectionScore cs = {0};
    EXPECT(vmaf_score_pooled_model_collection(vmaf, coll, VMAF_POOL_METHOD_MEAN, &cs, 0, N - 1),
           0);
    CHECK(cs.type == VMAF_MODEL_COLLECTION_SCORE_BOOTSTRAP);
    CHECK(cs.bootstrap.ci.p95.lo <= cs.bootstrap.bagging_score);
    CHECK(cs.bootstrap.bagging_score <= cs.bootstrap.ci.p95.hi);
    CHECK(cs.bootstrap.stddev >= 0);
    VmafModelCollectionScore one = {0};
    EXPECT(vmaf_score_at_index_model_collection(vmaf, coll, &one, 0), 0);
    CHECK(one.type == VMAF_MODEL_COLLECTION_SCORE_BOOTSTRAP && isfinite(one.bootstrap.stddev));
    double base = -1;
    EXPECT(vmaf_score_pooled(vmaf, model, VMAF_POOL_METHOD_MEAN, &base, 0, N - 1), 0);
    CHECK(base >= 0 && base <= 100);
    vmaf_model_destroy(model);
    vmaf_model_collection_destroy(coll);
    EXPECT(vmaf_close(vmaf), 0);
}

/* libvmaf's private leading fields (src/model.h, src/dict.h, src/libvmaf.c), which clients
 * read through the opaque handles (pyvmaf reads a model's name): the drop-in's handles
 * start with them. */
typedef struct { char *path; char *name; int type; } PrivateModel;
typedef struct { VmafModel **model; unsigned cnt, size; int type; const char *name; } PrivateCollection;
typedef struct { const char *key, *val; } PrivateEntry;
typedef struct { PrivateEntry *entry; unsigned size, cnt; } PrivateDictionary;
typedef struct { VmafConfiguration cfg; } PrivateContext;

static void private_layouts(void)
{
    VmafModelConfig named = {.name = "vmaf_neg"}, unnamed = {0};
    VmafModel *a = NULL, *b = NULL;
    EXPECT(vmaf_model_load(&a, &named, "vmaf_v0.6.1neg"), 0);
    EXPECT(vmaf_model_load(&b, &unnamed, "vmaf_v0.6.1"), 0);
    const PrivateModel *pa = (const PrivateModel *)a, *pb = (const PrivateModel *)b;
    CHECK(pa && pa->path == NULL && pa->name && strcmp(pa->name, "vmaf_neg") == 0);
    CHECK(pa && pa->type == 1); /* VMAF_MODEL_TYPE_SVM_NUSVR */
    CHECK(pb && pb->name && strcmp(pb->name, "vmaf") == 0);
    vmaf_model_destroy(a);
    vmaf_model_destroy(b);

    VmafModelConfig bcfg = {.name = "boot"};
    VmafModel *base = NULL;
    VmafModelCollection *coll = NULL;
    EXPECT(vmaf_model_collection_load(&base, &coll, &bcfg, "vmaf_b_v0.6.3"), 0);
    const PrivateCollection *pc = (const PrivateCollection *)coll;
    CHECK(base && strcmp(((const PrivateModel *)base)->name, "boot") == 0);
    CHECK(pc && pc->cnt > 1 && pc->size >= pc->cnt && pc->name && strcmp(pc->name, "boot") == 0);
    CHECK(pc && (pc->type == 2 || pc->type == 3)); /* the members' bootstrap type */
    if (pc && pc->cnt > 1) {
        const PrivateModel *m1 = (const PrivateModel *)pc->model[0];
        const PrivateModel *last = (const PrivateModel *)pc->model[pc->cnt - 1];
        char want[32];
        snprintf(want, sizeof(want), "boot_%04u", pc->cnt);
        CHECK(strcmp(m1->name, "boot_0001") == 0 && strcmp(last->name, want) == 0);
        CHECK(m1->type == pc->type);
    }
    vmaf_model_destroy(base);
    vmaf_model_collection_destroy(coll);

    VmafFeatureDictionary *d = NULL;
    EXPECT(vmaf_feature_dictionary_set(&d, "enable_chroma", "false"), 0);
    EXPECT(vmaf_feature_dictionary_set(&d, "min_sse", "0.5"), 0);
    EXPECT(vmaf_feature_dictionary_set(&d, "enable_chroma", "true"), 0);
    const PrivateDictionary *pd = (const PrivateDictionary *)d;
    CHECK(pd && pd->cnt == 2 && pd->size >= 2);
    CHECK(pd && strcmp(pd->entry[0].key, "enable_chroma") == 0 &&
          strcmp(pd->entry[0].val, "true") == 0);
    CHECK(pd && strcmp(pd->entry[1].key, "min_sse") == 0 && strcmp(pd->entry[1].val, "0.5") == 0);
    EXPECT(vmaf_feature_dictionary_free(&d), 0);

    VmafConfiguration cfg = {.log_level = VMAF_LOG_LEVEL_NONE, .n_threads = 3, .n_subsample = 2,
                             .cpumask = 0};
    VmafContext *vmaf = NULL;
    EXPECT(vmaf_init(&vmaf, cfg), 0);
    const PrivateContext *px = (const PrivateContext *)vmaf;
    CHECK(px && px->cfg.n_threads == 3 && px->cfg.n_subsample == 2 &&
          px->cfg.log_level == VMAF_LOG_LEVEL_NONE);
    EXPECT(vmaf_close(vmaf), 0);
}

int main(void)
{
    private_layouts();
    score_run(8, 0);
    score_run(8, 2);
    score_run(10, 1);
    collection_run();
    return check_report("test_scoring");
}
