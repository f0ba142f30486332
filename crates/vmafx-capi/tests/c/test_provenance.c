/* Provenance records (provenance.h, ABI 0.1.5): what the record of a scored context says,
 * that its digest follows the record and the scores but not the timing, and that its JSON
 * is canonical. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

enum { W = 64, H = 48, FRAMES = 3 };

static VmafxFrame *frame(unsigned seed)
{
    VmafxFrameDesc d = VMAFX_FRAME_DESC_INIT;
    d.pix_fmt = VMAFX_PIXEL_FORMAT_YUV420P;
    d.bpc = 8;
    d.w = W;
    d.h = H;
    VmafxFrame *f = NULL;
    if (vmafx_frame_create_host(NULL, &d, &f, NULL) != VMAFX_OK)
        abort();
    VmafxFramePlanes pl = VMAFX_FRAME_PLANES_INIT;
    if (vmafx_frame_planes(f, &pl, NULL) != VMAFX_OK)
        abort();
    for (uint32_t p = 0; p < pl.n_planes; p++) {
        uint8_t *row = pl.data[p];
        for (uint32_t y = 0; y < pl.h[p]; y++, row += pl.stride[p])
            for (uint32_t x = 0; x < pl.w[p]; x++)
                row[x] = (uint8_t)(x * 3 + y * 5 + seed * 11);
    }
    return f;
}

static VmafxContext *scored(bool flush, const char *adm_gain)
{
    VmafxContext *ctx = NULL;
    VmafxModel *model = NULL;
    VmafxOptions *o = NULL, *psnr = NULL;
    CHECK(vmafx_context_create(NULL, &ctx, NULL) == VMAFX_OK);
    CHECK(vmafx_model_load(NULL, "vmaf_v0.6.1", &model, NULL) == VMAFX_OK);
    if (adm_gain) {
        CHECK(vmafx_options_set(&o, "adm_enhn_gain_limit", adm_gain, NULL) == VMAFX_OK);
        CHECK(vmafx_model_override_feature(model, "adm", o, NULL) == VMAFX_OK);
    }
    CHECK(vmafx_context_use_model(ctx, model, NULL) == VMAFX_OK);
    CHECK(vmafx_options_set(&psnr, "enable_mse", "true", NULL) == VMAFX_OK);
    CHECK(vmafx_context_use_feature(ctx, "psnr", psnr, NULL) == VMAFX_OK);
    for (unsigned i = 0; i < FRAMES; i++)
        CHECK(vmafx_submit(ctx, frame(i), frame(i + 7), i, NULL) == VMAFX_OK);
    CHECK(vmafx_context_import_score(ctx, "outside", 0, 0.5, NULL) == VMAFX_OK);
    if (flush)
        CHECK(vmafx_flush(ctx, NULL) == VMAFX_OK);
    vmafx_options_free(o);
    vmafx_options_free(psnr);
    vmafx_model_unref(model);
    return ctx;
}

static void record_of_a_scored_context(void)
{
    VmafxContext *ctx = scored(true, "1.5");
    VmafxProvenance r = VMAFX_PROVENANCE_INIT;
    CHECK(vmafx_context_provenance(ctx, &r, NULL) == VMAFX_OK);
    uint32_t major = 0, minor = 0, patch = 0;
    vmafx_abi_version(&major, &minor, &patch);
    CHECK(r.abi_major == major && r.abi_minor == minor && r.abi_patch == patch);
    CHECK(r.frame_width == W && r.frame_height == H && r.bpc == 8);
    CHECK(r.pix_fmt == VMAFX_PIXEL_FORMAT_YUV420P && r.n_frames == FRAMES);
    CHECK(r.n_models == 1 && r.n_extractors >= 4 && r.n_subsample == 1);
    CHECK(strcmp(r.device_name, "cpu") == 0 && r.device_index == 0);
    CHECK(strncmp(r.digest, "sha256:", 7) == 0 && strlen(r.digest) == 71);
    CHECK(strncmp(r.build_id, "sha256:", 7) == 0 && strlen(r.simd) > 0);
    CHECK(strcmp(r.encode_record, "") == 0);
    VmafxModelProvenance m = VMAFX_MODEL_PROVENANCE_INIT;
    CHECK(vmafx_context_model_provenance(ctx, 0, &m, NULL) == VMAFX_OK);
    CHECK(strcmp(m.version, "vmaf_v0.6.1") == 0 && strlen(m.sha256) == 64);
    CHECK(strcmp(m.overrides, "adm.adm_enhn_gain_limit=1.5") == 0);
    VmafxFeatureProvenance f = VMAFX_FEATURE_PROVENANCE_INIT;
    CHECK(vmafx_feature_provenance(ctx, "mse_y", &f, NULL) == VMAFX_OK);
    CHECK(strcmp(f.extractor, "psnr") == 0 && strcmp(f.options, "enable_mse=true") == 0);
    CHECK(f.source == VMAFX_FEATURE_SOURCE_EXTRACTOR);
    /* A model's scores exist once read; then the model is their producer. */
    CHECK(vmafx_feature_provenance(ctx, "vmaf", &f, NULL) == VMAFX_E_NOTFOUND);
    VmafxScore s = VMAFX_SCORE_INIT;
    VmafxModel *used = NULL;
    CHECK(vmafx_model_load(NULL, "vmaf_v0.6.1", &used, NULL) == VMAFX_OK);
    vmafx_model_unref(used);
    CHECK(vmafx_feature_score(ctx, "mse_y", 0, &s, NULL) == VMAFX_OK);
    CHECK(s.extractor && strcmp(s.extractor, "psnr") == 0);
    CHECK(vmafx_feature_provenance(ctx, "outside", &f, NULL) == VMAFX_OK);
    CHECK(f.source == VMAFX_FEATURE_SOURCE_IMPORTED && f.extractor[0] == '\0');
    /* Features in byte order of their names. */
    char prev[256] = "";
    for (uint32_t i = 0; i < r.n_features; i++) {
        CHECK(vmafx_context_feature_provenance(ctx, i, &f, NULL) == VMAFX_OK);
        CHECK(strcmp(prev, f.feature) < 0);
        snprintf(prev, sizeof prev, "%s", f.feature);
    }
    CHECK(vmafx_context_destroy(ctx, NULL) == VMAFX_OK);
}

static void digest_follows_record_and_scores(void)
{
    VmafxContext *a = scored(true, NULL), *b = scored(true, NULL), *c = scored(true, "1.5");
    VmafxProvenance ra = VMAFX_PROVENANCE_INIT, rb = VMAFX_PROVENANCE_INIT,
                    rc = VMAFX_PROVENANCE_INIT;
    CHECK(vmafx_context_provenance(a, &ra, NULL) == VMAFX_OK);
    CHECK(vmafx_context_provenance(b, &rb, NULL) == VMAFX_OK);
    CHECK(vmafx_context_provenance(c, &rc, NULL) == VMAFX_OK);
    /* Two runs of one configuration: the same digests, whatever their timing. */
    CHECK(strcmp(ra.digest, rb.digest) == 0 && strcmp(ra.scores_digest, rb.scores_digest) == 0);
    /* An override changes the record (and here the scores). */
    CHECK(strcmp(ra.digest, rc.digest) != 0);
    char before[80];
    snprintf(before, sizeof before, "%s", ra.digest);
    CHECK(vmafx_context_annotate(a, "input_ref", "a.yuv", NULL) == VMAFX_OK);
    CHECK(vmafx_context_provenance(a, &ra, NULL) == VMAFX_OK);
    CHECK(strcmp(before, ra.digest) != 0 && ra.n_annotations == 1);
    VmafxAnnotation an = VMAFX_ANNOTATION_INIT;
    CHECK(vmafx_context_annotation(a, 0, &an, NULL) == VMAFX_OK);
    CHECK(strcmp(an.key, "input_ref") == 0 && strcmp(an.value, "a.yuv") == 0);
    const char *rec = "sha256:00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff";
    CHECK(vmafx_context_set_encode_record(a, rec, NULL) == VMAFX_OK);
    CHECK(vmafx_context_provenance(a, &ra, NULL) == VMAFX_OK);
    CHECK(strcmp(ra.encode_record, rec) == 0);
    CHECK(vmafx_context_set_encode_record(a, "", NULL) == VMAFX_OK);
    CHECK(vmafx_context_provenance(a, &ra, NULL) == VMAFX_OK);
    CHECK(strcmp(ra.encode_record, "") == 0);
    vmafx_context_destroy(a, NULL);
    vmafx_context_destroy(b, NULL);
    vmafx_context_destroy(c, NULL);
}

static void canonical_json(void)
{
    VmafxContext *ctx = scored(false, NULL);
    const char *json = NULL;
    CHECK(vmafx_context_provenance_json(ctx, 0, &json, NULL) == VMAFX_OK);
    CHECK(strncmp(json, "{\"abi_major\":", 13) == 0 && strstr(json, "\": ") == NULL);
    CHECK(strstr(json, "\"elapsed_ns\":\"") && strstr(json, "\"digest\":\"sha256:"));
    CHECK(strstr(json, "\"source\":\"imported\"") && strstr(json, "\"pix_fmt\":\"yuv420p\""));
    CHECK(vmafx_context_provenance_json(ctx, VMAFX_PROVENANCE_JSON_CANONICAL, &json, NULL) ==
          VMAFX_OK);
    CHECK(!strstr(json, "\"elapsed_ns\"") && !strstr(json, "\"digest\""));
    /* Keys of the top object in byte order. */
    const char *keys[] = {"\"abi_major\"", "\"active_backend\"", "\"annotations\"",
                          "\"backends\"", "\"bpc\"", "\"build_flags\"", "\"build_id\""};
    const char *at = json;
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) {
        const char *next = strstr(json, keys[i]);
        CHECK(next && next >= at);
        at = next ? next : at;
    }
    vmafx_context_destroy(ctx, NULL);
}

int main(void)
{
    record_of_a_scored_context();
    digest_follows_record_and_scores();
    canonical_json();
    return check_finish("test_provenance");
}
