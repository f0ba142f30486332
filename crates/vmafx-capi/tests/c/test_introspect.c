/* What a context registered and which extractor computes a feature (context.h):
 * extractor count and info in registration order, and vmafx_feature_resolve on the CPU. */
#include "check.h"

int main(void)
{
    VmafxError *err = NULL;
    VmafxContext *c = NULL;
    CHECK(vmafx_context_create(NULL, &c, NULL) == VMAFX_OK);
    CHECK(vmafx_context_extractor_count(c) == 0u && vmafx_context_extractor_count(NULL) == 0u);
    CHECK(vmafx_context_use_feature(c, "psnr", NULL, NULL) == VMAFX_OK);
    CHECK(vmafx_context_use_feature(c, "motion_v2", NULL, NULL) == VMAFX_OK);
    CHECK(vmafx_context_extractor_count(c) == 2u);
    VmafxExtractorInfo info = VMAFX_EXTRACTOR_INFO_INIT;
    CHECK(vmafx_context_extractor_info(c, 0, &info, NULL) == VMAFX_OK &&
          info.backend == VMAFX_BACKEND_CPU && strcmp(info.name, "psnr") == 0);
    CHECK(vmafx_context_extractor_info(c, 1, &info, NULL) == VMAFX_OK &&
          strcmp(info.name, "motion_v2") == 0);
    FAILS(vmafx_context_extractor_info(c, 2, &info, &err), VMAFX_E_NOTFOUND, &err, "index",
          VMAFX_SUBJECT_PARAMETER);
    FAILS(vmafx_context_extractor_info(c, 0, NULL, &err), VMAFX_E_INVALID, &err, "out",
          VMAFX_SUBJECT_PARAMETER);

    VmafxFeatureResolution r = VMAFX_FEATURE_RESOLUTION_INIT;
    CHECK(vmafx_feature_resolve(c, "motion_v2", NULL, NULL, &r, NULL) == VMAFX_OK &&
          r.backend == VMAFX_BACKEND_CPU && strcmp(r.extractor, "motion_v2") == 0 &&
          r.unsupported_option == NULL);
    VmafxOptions *opts = NULL;
    CHECK(vmafx_options_set(&opts, "motion_force_zero", "true", NULL) == VMAFX_OK);
    VmafxFrameDesc d = VMAFX_FRAME_DESC_INIT;
    d.pix_fmt = VMAFX_PIXEL_FORMAT_YUV420P;
    d.bpc = 10;
    d.w = 64;
    d.h = 48;
    CHECK(vmafx_feature_resolve(c, "motion", opts, &d, &r, NULL) == VMAFX_OK &&
          strcmp(r.extractor, "motion") == 0);
    FAILS(vmafx_feature_resolve(c, "no_such", NULL, NULL, &r, &err), VMAFX_E_NOTFOUND, &err,
          "no_such", VMAFX_SUBJECT_EXTRACTOR);
    VmafxOptions *bad = NULL;
    CHECK(vmafx_options_set(&bad, "no_such_option", "1", NULL) == VMAFX_OK);
    CHECK(vmafx_feature_resolve(c, "psnr", bad, NULL, &r, &err) != VMAFX_OK && err);
    vmafx_error_free(err);
    err = NULL;
    d.w = 0;
    FAILS(vmafx_feature_resolve(c, "psnr", NULL, &d, &r, &err), VMAFX_E_RANGE, &err, "desc.w",
          VMAFX_SUBJECT_PARAMETER);
    FAILS(vmafx_feature_resolve(NULL, "psnr", NULL, NULL, &r, &err), VMAFX_E_INVALID, &err,
          "context", VMAFX_SUBJECT_CONTEXT);
    vmafx_options_free(opts);
    vmafx_options_free(bad);
    CHECK(vmafx_context_destroy(c, NULL) == VMAFX_OK);
    return check_finish("test_introspect");
}
