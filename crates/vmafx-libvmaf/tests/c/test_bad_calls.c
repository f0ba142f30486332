/* The drop-in's bad-call table: NULLs, calls out of order and pictures it cannot take, each
 * answered with libvmaf's negative errno and no crash (the suite also runs under ASan/UBSan). */
#include <errno.h>
#include <string.h>

#include <libvmaf/libvmaf.h>

#include "check.h"
#include "pictures.h"

#define W 64
#define H 48

static VmafContext *open_with_model(VmafModel **model, unsigned threads)
{
    VmafConfiguration cfg = {.log_level = VMAF_LOG_LEVEL_NONE, .n_threads = threads};
    VmafContext *vmaf = NULL;
    EXPECT(vmaf_init(&vmaf, cfg), 0);
    VmafModelConfig mcfg = {.name = "vmaf"};
    EXPECT(vmaf_model_load(model, &mcfg, "vmaf_v0.6.1"), 0);
    EXPECT(vmaf_use_features_from_model(vmaf, *model), 0);
    return vmaf;
}

static void nulls(void)
{
    VmafConfiguration cfg = {0};
    VmafContext *vmaf = NULL;
    VmafModel *model = NULL;
    VmafModelCollection *coll = NULL;
    VmafModelConfig mcfg = {.name = "vmaf"};
    VmafFeatureDictionary *d = NULL;
    VmafPicture pic;
    double s;
    VmafModelCollectionScore cs;

    EXPECT(vmaf_init(NULL, cfg), -EINVAL);
    EXPECT(vmaf_close(NULL), -EINVAL);
    EXPECT(vmaf_model_load(NULL, &mcfg, "vmaf_v0.6.1"), -EINVAL);
    EXPECT(vmaf_model_load(&model, &mcfg, NULL), -EINVAL);
    EXPECT(vmaf_model_load_from_path(&model, &mcfg, NULL), -EINVAL);
    EXPECT(vmaf_model_collection_load(NULL, &coll, &mcfg, "vmaf_b_v0.6.3"), -EINVAL);
    EXPECT(vmaf_model_collection_load(&model, NULL, &mcfg, "vmaf_b_v0.6.3"), -EINVAL);
    EXPECT(vmaf_model_collection_load_from_path(&model, &coll, &mcfg, NULL), -EINVAL);
    EXPECT(vmaf_model_feature_overload(NULL, "adm", d), -EINVAL);
    EXPECT(vmaf_model_collection_feature_overload(NULL, &coll, "adm", d), -EINVAL);
    vmaf_model_destroy(NULL);
    vmaf_model_collection_destroy(NULL);
    EXPECT(vmaf_feature_dictionary_set(NULL, "k", "v"), -EINVAL);
    EXPECT(vmaf_feature_dictionary_set(&d, NULL, "v"), -EINVAL);
    EXPECT(vmaf_feature_dictionary_set(&d, "k", NULL), -EINVAL);
    CHECK(d == NULL);
    EXPECT(vmaf_feature_dictionary_free(NULL), -EINVAL);
    EXPECT(vmaf_feature_dictionary_free(&d), 0);
    EXPECT(vmaf_picture_alloc(NULL, VMAF_PIX_FMT_YUV420P, 8, W, H), -EINVAL);
    EXPECT(vmaf_picture_unref(NULL), -EINVAL);
    EXPECT(vmaf_use_feature(NULL, "psnr", NULL), -EINVAL);
    EXPECT(vmaf_use_features_from_model(NULL, NULL), -EINVAL);
    EXPECT(vmaf_use_features_from_model_collection(NULL, NULL), -EINVAL);
    EXPECT(vmaf_import_feature_score(NULL, "x", 1.0, 0), -EINVAL);
    EXPECT(vmaf_read_pictures(NULL, NULL, NULL, 0), -EINVAL);
    EXPECT(vmaf_score_at_index(NULL, NULL, &s, 0), -EINVAL);
    EXPECT(vmaf_score_at_index_model_collection(NULL, NULL, &cs, 0), -EINVAL);
    EXPECT(vmaf_feature_score_at_index(NULL, "psnr_y", &s, 0), -EINVAL);
    EXPECT(vmaf_score_pooled(NULL, NULL, VMAF_POOL_METHOD_MEAN, &s, 0, 0), -EINVAL);
    EXPECT(vmaf_score_pooled_model_collection(NULL, NULL, VMAF_POOL_METHOD_MEAN, &cs, 0, 0),
           -EINVAL);
    EXPECT(vmaf_feature_score_pooled(NULL, "psnr_y", VMAF_POOL_METHOD_MEAN, &s, 0, 0), -EINVAL);
    EXPECT(vmaf_preallocate_pictures(NULL, (VmafPictureConfiguration){0}), -EINVAL);
    EXPECT(vmaf_fetch_preallocated_picture(NULL, &pic), -EINVAL);
    EXPECT(vmaf_write_output(NULL, "/tmp/x.json", VMAF_OUTPUT_FORMAT_JSON), -EINVAL);

    /* NULL arguments beside a live context. */
    vmaf = open_with_model(&model, 0);
    EXPECT(vmaf_use_feature(vmaf, NULL, NULL), -EINVAL);
    EXPECT(vmaf_use_features_from_model(vmaf, NULL), -EINVAL);
    EXPECT(vmaf_import_feature_score(vmaf, NULL, 1.0, 0), -EINVAL);
    EXPECT(vmaf_fetch_preallocated_picture(vmaf, NULL), -EINVAL);
    EXPECT(vmaf_score_at_index(vmaf, model, NULL, 0), -EINVAL);
    EXPECT(vmaf_score_pooled(vmaf, model, VMAF_POOL_METHOD_MEAN, NULL, 0, 0), -EINVAL);
    EXPECT(vmaf_feature_score_at_index(vmaf, NULL, &s, 0), -EINVAL);
    EXPECT(vmaf_write_output(vmaf, NULL, VMAF_OUTPUT_FORMAT_JSON), -EINVAL);
    vmaf_model_destroy(model);
    EXPECT(vmaf_close(vmaf), 0);
}

static void bad_values(void)
{
    VmafModel *model = NULL;
    VmafModelConfig mcfg = {.name = "vmaf"};
    VmafPicture pic;
    EXPECT(vmaf_model_load(&model, &mcfg, "no_such_model"), -EINVAL);
    EXPECT(vmaf_model_load_from_path(&model, &mcfg, "/nonexistent/model.json"), -EINVAL);
    CHECK(model == NULL);
    EXPECT(vmaf_picture_alloc(&pic, VMAF_PIX_FMT_UNKNOWN, 8, W, H), -EINVAL);
    EXPECT(vmaf_picture_alloc(&pic, 9, 8, W, H), -EINVAL);
    EXPECT(vmaf_picture_alloc(&pic, VMAF_PIX_FMT_YUV420P, 7, W, H), -EINVAL);
    EXPECT(vmaf_picture_alloc(&pic, VMAF_PIX_FMT_YUV420P, 17, W, H), -EINVAL);
    EXPECT(vmaf_picture_alloc(&pic, VMAF_PIX_FMT_YUV420P, 8, 0, H), -EINVAL);
    EXPECT(vmaf_picture_alloc(&pic, VMAF_PIX_FMT_YUV420P, 8, W, 1u << 20), -EINVAL);

    VmafModel *m = NULL;
    VmafContext *vmaf = open_with_model(&m, 0);
    VmafFeatureDictionary *d = NULL;
    EXPECT(vmaf_use_feature(vmaf, "no_such_feature", NULL), -EINVAL);
    EXPECT(vmaf_feature_dictionary_set(&d, "no_such_option", "1"), 0);
    EXPECT(vmaf_use_feature(vmaf, "psnr", d), -EINVAL); /* refused: the caller still owns d */
    EXPECT(vmaf_feature_dictionary_free(&d), 0);
    CHECK(d == NULL);
    EXPECT(vmaf_preallocate_pictures(vmaf, (VmafPictureConfiguration){
                                               .pic_params = {.w = W, .h = H, .bpc = 8,
                                                              .pix_fmt = VMAF_PIX_FMT_YUV420P},
                                               .pic_cnt = 0}),
           -EINVAL);
    EXPECT(vmaf_fetch_preallocated_picture(vmaf, &pic), -EINVAL); /* nothing preallocated */
    EXPECT(vmaf_import_feature_score(vmaf, "imported", 1.0, 3), 0);
    EXPECT(vmaf_import_feature_score(vmaf, "imported", 1.0, 3), 0);  /* same value again */
    EXPECT(vmaf_import_feature_score(vmaf, "imported", 2.0, 3), -EINVAL);
    vmaf_model_destroy(m);
    EXPECT(vmaf_close(vmaf), 0);
}

static void unowned_pictures(void)
{
    VmafPicture pic, copy, zero;
    memset(&zero, 0, sizeof(zero));
    EXPECT(vmaf_picture_unref(&zero), -EINVAL); /* never allocated */
    EXPECT(pattern_picture(&pic, 8, W, H, 0, 0), 0);
    copy = pic;
    EXPECT(vmaf_picture_unref(&pic), 0);
    CHECK(pic.ref == NULL && pic.data[0] == NULL);
    EXPECT(vmaf_picture_unref(&pic), -EINVAL);  /* unref'd twice */
    EXPECT(vmaf_picture_unref(&copy), -EINVAL); /* a copy of a picture already gone */
    int local = 0;
    VmafPicture fake = {.pix_fmt = VMAF_PIX_FMT_YUV420P, .bpc = 8, .ref = (VmafRef *)&local};
    EXPECT(vmaf_picture_unref(&fake), -EINVAL); /* a reference this library never made */
}

static void out_of_order(void)
{
    VmafModel *model = NULL, *other = NULL;
    VmafContext *vmaf = open_with_model(&model, 1);
    VmafModelConfig mcfg = {.name = "other"};
    EXPECT(vmaf_model_load(&other, &mcfg, "vmaf_v0.6.1"), 0);
    VmafPicture ref, dist, ref2, dist2;
    double s = 0;

    /* One picture of a pair is not a flush. */
    EXPECT(pattern_picture(&ref, 8, W, H, 0, 0), 0);
    EXPECT(vmaf_read_pictures(vmaf, &ref, NULL, 0), -EINVAL);
    EXPECT(vmaf_read_pictures(vmaf, &ref, &ref, 0), -EINVAL); /* one picture as both */
    EXPECT(pattern_picture(&dist, 8, W / 2, H, 0, 1), 0);
    EXPECT(vmaf_read_pictures(vmaf, &ref, &dist, 0), -EINVAL); /* sizes differ */
    EXPECT(vmaf_picture_unref(&dist), 0);                      /* still the caller's */
    EXPECT(pattern_picture(&dist, 8, W, H, 0, 1), 0);
    EXPECT(vmaf_read_pictures(vmaf, &ref, &dist, 0), 0);
    ref2 = ref; /* cleared by the read */
    EXPECT(vmaf_read_pictures(vmaf, &ref, &dist, 1), -EINVAL); /* read twice */
    CHECK(ref2.ref == NULL);

    /* Pictures unlike the first are refused and stay the caller's. */
    EXPECT(pattern_picture(&ref, 8, W * 2, H, 1, 0), 0);
    EXPECT(pattern_picture(&dist, 8, W * 2, H, 1, 1), 0);
    EXPECT(vmaf_read_pictures(vmaf, &ref, &dist, 1), -EINVAL);
    EXPECT(vmaf_picture_unref(&ref), 0);
    EXPECT(vmaf_picture_unref(&dist), 0);
    EXPECT(pattern_picture(&ref2, 10, W, H, 1, 0), 0);
    EXPECT(pattern_picture(&dist2, 10, W, H, 1, 1), 0);
    EXPECT(vmaf_read_pictures(vmaf, &ref2, &dist2, 1), -EINVAL); /* wrong depth */
    EXPECT(vmaf_picture_unref(&ref2), 0);
    EXPECT(vmaf_picture_unref(&dist2), 0);

    /* A picture whose plane pointer was moved outside its buffer. */
    EXPECT(pattern_picture(&ref, 8, W, H, 1, 0), 0);
    EXPECT(pattern_picture(&dist, 8, W, H, 1, 1), 0);
    void *saved = dist.data[2];
    dist.data[2] = (char *)dist.data[2] + 4096;
    EXPECT(vmaf_read_pictures(vmaf, &ref, &dist, 1), -EINVAL);
    dist.data[2] = saved;
    EXPECT(vmaf_read_pictures(vmaf, &ref, &dist, 1), 0);

    /* Scores, logs and registration out of order. */
    EXPECT(vmaf_score_at_index(vmaf, model, &s, 0), -EINVAL); /* before the flush */
    EXPECT(vmaf_score_pooled(vmaf, model, VMAF_POOL_METHOD_MEAN, &s, 0, 1), -EINVAL);
    EXPECT(vmaf_write_output(vmaf, "/tmp/never.json", VMAF_OUTPUT_FORMAT_JSON), -EINVAL);
    EXPECT(vmaf_use_feature(vmaf, "psnr", NULL), -EINVAL); /* after the first picture */
    EXPECT(vmaf_read_pictures(vmaf, NULL, NULL, 0), 0);
    EXPECT(vmaf_read_pictures(vmaf, NULL, NULL, 0), -EINVAL); /* flushed twice */
    EXPECT(pattern_picture(&ref, 8, W, H, 2, 0), 0);
    EXPECT(pattern_picture(&dist, 8, W, H, 2, 1), 0);
    EXPECT(vmaf_read_pictures(vmaf, &ref, &dist, 2), -EINVAL); /* after the flush */
    EXPECT(vmaf_picture_unref(&ref), 0);
    EXPECT(vmaf_picture_unref(&dist), 0);

    EXPECT(vmaf_score_pooled(vmaf, model, VMAF_POOL_METHOD_MEAN, &s, 0, 1), 0);
    EXPECT(vmaf_score_pooled(vmaf, model, VMAF_POOL_METHOD_MEAN, &s, 1, 0), -EINVAL);
    EXPECT(vmaf_score_pooled(vmaf, model, VMAF_POOL_METHOD_MEAN, &s, 0, 2), -EINVAL);
    EXPECT(vmaf_score_pooled(vmaf, model, VMAF_POOL_METHOD_MEAN, &s, 0, 4000000000u), -EINVAL);
    EXPECT(vmaf_score_pooled(vmaf, model, VMAF_POOL_METHOD_UNKNOWN, &s, 0, 1), -EINVAL);
    EXPECT(vmaf_score_pooled(vmaf, model, VMAF_POOL_METHOD_NB, &s, 0, 1), -EINVAL);
    EXPECT(vmaf_score_pooled(vmaf, other, VMAF_POOL_METHOD_MEAN, &s, 0, 1), -EINVAL);
    EXPECT(vmaf_score_at_index(vmaf, model, &s, 7), -EINVAL);
    EXPECT(vmaf_feature_score_at_index(vmaf, "no_such_feature", &s, 0), -EINVAL);
    EXPECT(vmaf_feature_score_pooled(vmaf, "integer_adm2", VMAF_POOL_METHOD_MEAN, &s, 0, 1), 0);
    EXPECT(vmaf_feature_score_pooled(vmaf, "integer_adm2", VMAF_POOL_METHOD_MEAN, &s, 0,
                                     4000000000u),
           -EINVAL);
    EXPECT(vmaf_write_output(vmaf, "/tmp/x.json", VMAF_OUTPUT_FORMAT_NONE), -EINVAL);
    EXPECT(vmaf_write_output(vmaf, "/tmp/x.json", 9), -EINVAL);
    EXPECT(vmaf_write_output(vmaf, "/nonexistent-dir/x.json", VMAF_OUTPUT_FORMAT_JSON), -EINVAL);
    EXPECT(vmaf_write_output_with_format(vmaf, "/tmp/x.json", VMAF_OUTPUT_FORMAT_JSON, "%.3f"),
           -EINVAL);
    vmaf_model_destroy(model);
    vmaf_model_destroy(other);
    EXPECT(vmaf_close(vmaf), 0);
}

static void close_with_pictures_in_flight(void)
{
    VmafModel *model = NULL;
    VmafContext *vmaf = open_with_model(&model, 2);
    for (unsigned i = 0; i < 6; i++) {
        VmafPicture ref, dist;
        EXPECT(pattern_picture(&ref, 8, W, H, i, 0), 0);
        EXPECT(pattern_picture(&dist, 8, W, H, i, 1), 0);
        EXPECT(vmaf_read_pictures(vmaf, &ref, &dist, i), 0);
    }
    /* Closed without a flush: the workers finish and every picture is freed (ASan). */
    vmaf_model_destroy(model);
    EXPECT(vmaf_close(vmaf), 0);
}

int main(void)
{
    nulls();
    bad_values();
    unowned_pictures();
    out_of_order();
    close_with_pictures_in_flight();
    return check_report("test_bad_calls");
}
