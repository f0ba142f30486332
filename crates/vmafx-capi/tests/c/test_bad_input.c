/*
 * The bad-input table of the C entry points: NULL for every pointer argument, and a
 * struct_size of 0 and of 4 for every size-prefixed struct, at every exported function.
 *
 * ROW(fn, (args), status, subject, kind): the call fails with `status`, its error names
 * `subject` (a VmafxSubjectKind `kind`), has a message and names `fn`; called again with a
 * NULL error out-parameter (`errp`) it returns the same status.
 * SIZED(fn, s, (args), subject): ROW with `s.struct_size` 0 and then 4, both VMAFX_E_ABI
 * naming `subject`.
 * VALUE(fn, expr): a function that reports no error does what its header says for NULL.
 *
 * c_suite.rs fails when an exported function of src/ has no row here.
 */
#include <stdlib.h>

#include "check.h"
#include <vmafx/libvmaf_bridge.h>

static uint8_t pixels[16 * 8 * 3 / 2];

static void ignore_release(void *user)
{
    (void)user;
}

static int row_failures;

static void check_row(const char *fn, int line, VmafxStatus got, VmafxStatus want,
                      VmafxError **err, const char *subject, uint32_t kind)
{
    bool ok = got == want && *err && strcmp(vmafx_error_function(*err), fn) == 0 &&
              named(err, want, subject, kind);
    if (!ok) {
        row_failures++;
        fprintf(stderr, "line %d: %s: got %s, want %s naming '%s'\n", line, fn,
                vmafx_status_name(got), vmafx_status_name(want), subject);
    }
    vmafx_error_free(*err);
    *err = NULL;
    CHECK(ok);
}

#define ROW(fn, args, want, subject, kind)                                                   \
    do {                                                                                     \
        VmafxError *err = NULL;                                                              \
        VmafxError **errp = &err;                                                            \
        VmafxStatus got = fn args;                                                           \
        check_row(#fn, __LINE__, got, want, &err, subject, kind);                            \
        errp = NULL;                                                                         \
        VmafxStatus again = fn args;                                                         \
        CHECK(again == (want));                                                              \
        (void)errp;                                                                          \
    } while (0)

#define SIZED(fn, s, args, subject)                                                          \
    do {                                                                                     \
        uint32_t full = (s).struct_size;                                                     \
        (s).struct_size = 0;                                                                 \
        ROW(fn, args, VMAFX_E_ABI, subject, VMAFX_SUBJECT_PARAMETER);                        \
        (s).struct_size = 4;                                                                 \
        ROW(fn, args, VMAFX_E_ABI, subject, VMAFX_SUBJECT_PARAMETER);                        \
        (s).struct_size = full;                                                              \
    } while (0)

#define VALUE(fn, expr) CHECK(expr)

enum {
    INVALID = VMAFX_E_INVALID,
    PARAM = VMAFX_SUBJECT_PARAMETER,
};

static VmafxFrameDesc desc420(void)
{
    VmafxFrameDesc d = VMAFX_FRAME_DESC_INIT;
    d.pix_fmt = VMAFX_PIXEL_FORMAT_YUV420P;
    d.bpc = 8;
    d.w = 16;
    d.h = 8;
    return d;
}

/* A new host frame: submit consumes a reference on every path. */
static VmafxFrame *fresh(void)
{
    VmafxFrameDesc d = desc420();
    VmafxFrame *f = NULL;
    if (vmafx_frame_create_host(NULL, &d, &f, NULL) != VMAFX_OK)
        abort();
    return f;
}

static VmafxFrameImport import420(void)
{
    VmafxFrameImport imp = VMAFX_FRAME_IMPORT_INIT;
    imp.memory = VMAFX_MEMORY_HOST;
    imp.pix_fmt = VMAFX_PIXEL_FORMAT_YUV420P;
    imp.bpc = 8;
    imp.w = 16;
    imp.h = 8;
    imp.n_planes = 3;
    const uint64_t off[3] = {0, 128, 160}, pitch[3] = {16, 8, 8};
    for (int p = 0; p < 3; p++) {
        imp.plane[p].handle = (uintptr_t)pixels;
        imp.plane[p].offset = off[p];
        imp.plane[p].pitch = pitch[p];
    }
    return imp;
}

static void errors_and_versions(void)
{
    VALUE(vmafx_status_name, strcmp(vmafx_status_name(12345), "VMAFX_UNKNOWN_STATUS") == 0);
    VALUE(vmafx_error_status, vmafx_error_status(NULL) == VMAFX_E_INVALID);
    VALUE(vmafx_error_message, strcmp(vmafx_error_message(NULL), "") == 0);
    VALUE(vmafx_error_subject, strcmp(vmafx_error_subject(NULL), "") == 0);
    VALUE(vmafx_error_subject_kind, vmafx_error_subject_kind(NULL) == VMAFX_SUBJECT_NONE);
    VALUE(vmafx_error_function, strcmp(vmafx_error_function(NULL), "") == 0);
    VALUE(vmafx_error_errno, vmafx_error_errno(NULL) == 0);
    vmafx_error_free(NULL);
    VALUE(vmafx_error_free, true);
    VALUE(vmafx_version_string, vmafx_version_string() && vmafx_version_string()[0]);
    uint32_t minor = 99;
    vmafx_abi_version(NULL, &minor, NULL);
    VALUE(vmafx_abi_version, minor == 1);
    vmafx_abi_version(NULL, NULL, NULL);
}

static void devices(void)
{
    VmafxDevice *dev = NULL;
    VmafxDeviceDesc dd = VMAFX_DEVICE_DESC_INIT;
    ROW(vmafx_device_create, (&dd, NULL, errp), INVALID, "out", PARAM);
    SIZED(vmafx_device_create, dd, (&dd, &dev, errp), "desc");
    CHECK(dev == NULL);
    CHECK(vmafx_device_create(NULL, &dev, NULL) == VMAFX_OK); /* NULL desc: the CPU */

    VALUE(vmafx_device_ref, vmafx_device_ref(NULL) == NULL);
    vmafx_device_unref(NULL);
    VALUE(vmafx_device_unref, true);
    VALUE(vmafx_device_backend, vmafx_device_backend(NULL) == VMAFX_BACKEND_CPU);

    ROW(vmafx_device_count, (VMAFX_BACKEND_CPU, NULL, errp), INVALID, "count", PARAM);

    VmafxDeviceInfo info = VMAFX_DEVICE_INFO_INIT;
    ROW(vmafx_device_info, (VMAFX_BACKEND_CPU, 0, NULL, errp), INVALID, "out", PARAM);
    SIZED(vmafx_device_info, info, (VMAFX_BACKEND_CPU, 0, &info, errp), "out");
    ROW(vmafx_device_describe, (NULL, &info, errp), INVALID, "device", VMAFX_SUBJECT_DEVICE);
    ROW(vmafx_device_describe, (dev, NULL, errp), INVALID, "out", PARAM);
    SIZED(vmafx_device_describe, info, (dev, &info, errp), "out");

    const char *profile = "x";
    ROW(vmafx_device_profile, (dev, NULL, errp), INVALID, "out", PARAM);
    ROW(vmafx_device_profile, (NULL, &profile, errp), INVALID, "device", VMAFX_SUBJECT_DEVICE);
    CHECK(profile == NULL);
    vmafx_device_unref(dev);
}

static void fences(void)
{
    VmafxFence f = VMAFX_FENCE_INIT;
    ROW(vmafx_fence_create, (NULL, VMAFX_FENCE_HOST, NULL, errp), INVALID, "out", PARAM);
    SIZED(vmafx_fence_create, f, (NULL, VMAFX_FENCE_HOST, &f, errp), "out");
    CHECK(vmafx_fence_create(NULL, VMAFX_FENCE_HOST, &f, NULL) == VMAFX_OK);

    ROW(vmafx_fence_signal, (NULL, errp), INVALID, "fence", VMAFX_SUBJECT_FENCE);
    SIZED(vmafx_fence_signal, f, (&f, errp), "fence");
    ROW(vmafx_fence_wait, (NULL, 0u, errp), INVALID, "fence", VMAFX_SUBJECT_FENCE);
    SIZED(vmafx_fence_wait, f, (&f, 0u, errp), "fence");
    ROW(vmafx_fence_destroy, (NULL, errp), INVALID, "fence", VMAFX_SUBJECT_FENCE);
    SIZED(vmafx_fence_destroy, f, (&f, errp), "fence");
    CHECK(vmafx_fence_wait(&f, 0u, NULL) == VMAFX_PENDING); /* untouched by the rows */
    CHECK(vmafx_fence_destroy(&f, NULL) == VMAFX_OK);
}

static void frames(void)
{
    VmafxFrame *out = NULL;
    VmafxFrameDesc d = desc420();
    ROW(vmafx_frame_create_host, (NULL, NULL, &out, errp), INVALID, "desc", PARAM);
    ROW(vmafx_frame_create_host, (NULL, &d, NULL, errp), INVALID, "out", PARAM);
    SIZED(vmafx_frame_create_host, d, (NULL, &d, &out, errp), "desc");

    VmafxHostPlanes hp = VMAFX_HOST_PLANES_INIT;
    const uint64_t off[3] = {0, 128, 160}, stride[3] = {16, 8, 8};
    for (int p = 0; p < 3; p++) {
        hp.data[p] = pixels + off[p];
        hp.stride[p] = stride[p];
    }
    hp.release = ignore_release;
    ROW(vmafx_frame_wrap_host, (NULL, NULL, &hp, &out, errp), INVALID, "desc", PARAM);
    ROW(vmafx_frame_wrap_host, (NULL, &d, NULL, &out, errp), INVALID, "planes", PARAM);
    ROW(vmafx_frame_wrap_host, (NULL, &d, &hp, NULL, errp), INVALID, "out", PARAM);
    SIZED(vmafx_frame_wrap_host, d, (NULL, &d, &hp, &out, errp), "desc");
    SIZED(vmafx_frame_wrap_host, hp, (NULL, &d, &hp, &out, errp), "planes");
    CHECK(out == NULL);

    VmafxFrame *f = fresh();
    VmafxFramePlanes pl = VMAFX_FRAME_PLANES_INIT;
    ROW(vmafx_frame_planes, (NULL, &pl, errp), INVALID, "frame", VMAFX_SUBJECT_FRAME);
    ROW(vmafx_frame_planes, (f, NULL, errp), INVALID, "out", PARAM);
    SIZED(vmafx_frame_planes, pl, (f, &pl, errp), "out");

    VALUE(vmafx_frame_ref, vmafx_frame_ref(NULL) == NULL);
    vmafx_frame_unref(NULL);
    VALUE(vmafx_frame_unref, true);

    VmafxFence rel = VMAFX_FENCE_INIT;
    ROW(vmafx_frame_release_fence, (NULL, VMAFX_FENCE_HOST, &rel, errp), INVALID, "frame",
        VMAFX_SUBJECT_FRAME);
    ROW(vmafx_frame_release_fence, (f, VMAFX_FENCE_HOST, NULL, errp), INVALID, "out", PARAM);
    SIZED(vmafx_frame_release_fence, rel, (f, VMAFX_FENCE_HOST, &rel, errp), "out");
    vmafx_frame_unref(f);
}

static void imports(void)
{
    VmafxFrame *out = NULL;
    VmafxFrameImport imp = import420();
    ROW(vmafx_frame_import, (NULL, NULL, &out, errp), INVALID, "desc", PARAM);
    ROW(vmafx_frame_import, (NULL, &imp, NULL, errp), INVALID, "out", PARAM);
    SIZED(vmafx_frame_import, imp, (NULL, &imp, &out, errp), "desc");
    /* The embedded acquire fence is size-prefixed too (read when its kind is not NONE). */
    imp.acquire.kind = VMAFX_FENCE_HOST;
    SIZED(vmafx_frame_import, imp.acquire, (NULL, &imp, &out, errp), "desc.acquire");
    CHECK(out == NULL);
    /* Descriptors whose planes do not fit: past the object's size, a pitch below a row, an
     * offset that overflows 64 bits. */
    imp = import420();
    imp.plane[1].size = 150; /* its 4 rows of 8 bytes from byte 128 end at 160 */
    ROW(vmafx_frame_import, (NULL, &imp, &out, errp), VMAFX_E_RANGE, "desc.plane[1].size",
        VMAFX_SUBJECT_PLANE);
    imp = import420();
    imp.plane[0].pitch = 15;
    ROW(vmafx_frame_import, (NULL, &imp, &out, errp), INVALID, "desc.plane[0].pitch",
        VMAFX_SUBJECT_PLANE);
    imp = import420();
    imp.plane[2].offset = UINT64_MAX - 4;
    ROW(vmafx_frame_import, (NULL, &imp, &out, errp), VMAFX_E_RANGE, "desc.plane[2].size",
        VMAFX_SUBJECT_PLANE);
    CHECK(out == NULL);

    VmafxContext *ctx = NULL;
    CHECK(vmafx_context_create(NULL, &ctx, NULL) == VMAFX_OK);
    imp = import420();
    ROW(vmafx_context_import_frame, (NULL, NULL, &imp, "main", &out, errp), INVALID, "context",
        VMAFX_SUBJECT_CONTEXT);
    ROW(vmafx_context_import_frame, (ctx, NULL, NULL, "main", &out, errp), INVALID, "desc",
        PARAM);
    ROW(vmafx_context_import_frame, (ctx, NULL, &imp, "main", NULL, errp), INVALID, "out",
        PARAM);
    SIZED(vmafx_context_import_frame, imp, (ctx, NULL, &imp, "main", &out, errp), "desc");
    imp.acquire.kind = VMAFX_FENCE_HOST;
    SIZED(vmafx_context_import_frame, imp.acquire, (ctx, NULL, &imp, NULL, &out, errp),
          "desc.acquire");
    CHECK(out == NULL);
    /* NULL device (the context's) and NULL input ("main") are allowed. */
    imp = import420();
    CHECK(vmafx_context_import_frame(ctx, NULL, &imp, NULL, &out, NULL) == VMAFX_OK && out);
    vmafx_frame_unref(out);
    CHECK(vmafx_context_destroy(ctx, NULL) == VMAFX_OK);
}

static void pools(void)
{
    VmafxFramePool *pool = NULL;
    VmafxFrameDesc d = desc420();
    ROW(vmafx_frame_pool_create, (NULL, NULL, 2u, &pool, errp), INVALID, "desc", PARAM);
    ROW(vmafx_frame_pool_create, (NULL, &d, 2u, NULL, errp), INVALID, "out", PARAM);
    SIZED(vmafx_frame_pool_create, d, (NULL, &d, 2u, &pool, errp), "desc");
    CHECK(pool == NULL);
    CHECK(vmafx_frame_pool_create(NULL, &d, 2u, &pool, NULL) == VMAFX_OK);
    VmafxFrame *f = NULL;
    ROW(vmafx_frame_pool_acquire, (NULL, &f, errp), INVALID, "pool", VMAFX_SUBJECT_FRAME);
    ROW(vmafx_frame_pool_acquire, (pool, NULL, errp), INVALID, "out", PARAM);
    vmafx_frame_pool_destroy(NULL);
    VALUE(vmafx_frame_pool_destroy, true);
    vmafx_frame_pool_destroy(pool);
}

static void converters(void)
{
    VmafxFrameConverter *conv = NULL;
    VmafxConvertDesc d = VMAFX_CONVERT_DESC_INIT;
    d.src_pix_fmt = d.dst_pix_fmt = VMAFX_PIXEL_FORMAT_YUV420P;
    d.src_bpc = 8;
    d.dst_bpc = 10;
    d.src_w = 16;
    d.src_h = 8;
    ROW(vmafx_frame_converter_create, (NULL, &conv, errp), INVALID, "desc", PARAM);
    ROW(vmafx_frame_converter_create, (&d, NULL, errp), INVALID, "out", PARAM);
    SIZED(vmafx_frame_converter_create, d, (&d, &conv, errp), "desc");
    CHECK(conv == NULL);
    CHECK(vmafx_frame_converter_create(&d, &conv, NULL) == VMAFX_OK && conv);
    VmafxFrame *src = fresh();
    VmafxFrame *out = NULL;
    ROW(vmafx_frame_convert, (NULL, src, &out, errp), INVALID, "converter", PARAM);
    ROW(vmafx_frame_convert, (conv, NULL, &out, errp), INVALID, "src", PARAM);
    ROW(vmafx_frame_convert, (conv, src, NULL, errp), INVALID, "out", PARAM);
    CHECK(out == NULL);
    vmafx_frame_unref(src);
    ROW(vmafx_frame_converter_destroy, (NULL, errp), INVALID, "converter", PARAM);
    CHECK(vmafx_frame_converter_destroy(conv, NULL) == VMAFX_OK);
}

static void contexts_and_models(void)
{
    VmafxContext *ctx = NULL;
    VmafxContextConfig cfg = VMAFX_CONTEXT_CONFIG_INIT;
    ROW(vmafx_context_create, (&cfg, NULL, errp), INVALID, "out", PARAM);
    SIZED(vmafx_context_create, cfg, (&cfg, &ctx, errp), "config");
    CHECK(ctx == NULL);
    CHECK(vmafx_context_create(NULL, &ctx, NULL) == VMAFX_OK); /* NULL config: defaults */
    ROW(vmafx_context_destroy, (NULL, errp), INVALID, "context", VMAFX_SUBJECT_CONTEXT);

    VmafxDevice *dev = NULL;
    CHECK(vmafx_device_create(NULL, &dev, NULL) == VMAFX_OK);
    ROW(vmafx_context_use_device, (NULL, dev, errp), INVALID, "context", VMAFX_SUBJECT_CONTEXT);
    ROW(vmafx_context_use_device, (ctx, NULL, errp), INVALID, "device", PARAM);
    vmafx_device_unref(dev);

    ROW(vmafx_context_use_feature, (NULL, "psnr", NULL, errp), INVALID, "context",
        VMAFX_SUBJECT_CONTEXT);
    ROW(vmafx_context_use_feature, (ctx, NULL, NULL, errp), INVALID, "extractor", PARAM);
    CHECK(vmafx_context_use_feature(ctx, "psnr", NULL, NULL) == VMAFX_OK); /* NULL options */

    VmafxModel *m = NULL;
    VmafxModelConfig mc = VMAFX_MODEL_CONFIG_INIT;
    ROW(vmafx_model_load, (&mc, NULL, &m, errp), INVALID, "version", PARAM);
    ROW(vmafx_model_load, (&mc, "vmaf_v0.6.1", NULL, errp), INVALID, "out", PARAM);
    SIZED(vmafx_model_load, mc, (&mc, "vmaf_v0.6.1", &m, errp), "config");
    ROW(vmafx_model_load_file, (&mc, NULL, &m, errp), INVALID, "path", VMAFX_SUBJECT_PATH);
    ROW(vmafx_model_load_file, (&mc, "model.json", NULL, errp), INVALID, "out", PARAM);
    SIZED(vmafx_model_load_file, mc, (&mc, "model.json", &m, errp), "config");
    CHECK(m == NULL);
    CHECK(vmafx_model_load(NULL, "vmaf_v0.6.1", &m, NULL) == VMAFX_OK); /* NULL config */

    VALUE(vmafx_model_ref, vmafx_model_ref(NULL) == NULL);
    vmafx_model_unref(NULL);
    VALUE(vmafx_model_unref, true);
    VALUE(vmafx_model_name, vmafx_model_name(NULL) == NULL);
    VALUE(vmafx_model_feature_count, vmafx_model_feature_count(NULL) == 0u);
    VALUE(vmafx_model_feature_name, vmafx_model_feature_name(NULL, 0u) == NULL);
    VALUE(vmafx_model_builtin_next, vmafx_model_builtin_next(NULL) != NULL);
    VALUE(vmafx_model_default_version, vmafx_model_default_version() != NULL);

    ROW(vmafx_context_use_model, (NULL, m, errp), INVALID, "context", VMAFX_SUBJECT_CONTEXT);
    ROW(vmafx_context_use_model, (ctx, NULL, errp), INVALID, "model", VMAFX_SUBJECT_MODEL);

    VmafxOptions *opts = NULL;
    ROW(vmafx_options_set, (NULL, "k", "v", errp), INVALID, "options", PARAM);
    ROW(vmafx_options_set, (&opts, NULL, "v", errp), INVALID, "key", PARAM);
    ROW(vmafx_options_set, (&opts, "k", NULL, errp), INVALID, "value", PARAM);
    CHECK(opts == NULL);
    vmafx_options_free(NULL);
    VALUE(vmafx_options_free, true);

    VmafxFrame *f = fresh();
    ROW(vmafx_context_admit, (NULL, f, errp), INVALID, "context", VMAFX_SUBJECT_CONTEXT);
    ROW(vmafx_context_admit, (ctx, NULL, errp), INVALID, "frame", VMAFX_SUBJECT_FRAME);
    vmafx_frame_unref(f);
    ROW(vmafx_submit, (NULL, fresh(), fresh(), 0u, errp), INVALID, "context",
        VMAFX_SUBJECT_CONTEXT);
    ROW(vmafx_submit, (ctx, NULL, fresh(), 0u, errp), INVALID, "reference", VMAFX_SUBJECT_FRAME);
    ROW(vmafx_submit, (ctx, fresh(), NULL, 0u, errp), INVALID, "distorted", VMAFX_SUBJECT_FRAME);
    ROW(vmafx_flush, (NULL, errp), INVALID, "context", VMAFX_SUBJECT_CONTEXT);
    VALUE(vmafx_context_backend, vmafx_context_backend(NULL) == VMAFX_BACKEND_CPU);

    CHECK(vmafx_context_use_model(ctx, m, NULL) == VMAFX_OK);
    VmafxScore s = VMAFX_SCORE_INIT;
    VmafxPooledScore ps = VMAFX_POOLED_SCORE_INIT;
    ROW(vmafx_feature_score, (NULL, "vif_scale0", 0u, &s, errp), INVALID, "context",
        VMAFX_SUBJECT_CONTEXT);
    ROW(vmafx_feature_score, (ctx, NULL, 0u, &s, errp), INVALID, "feature", PARAM);
    ROW(vmafx_feature_score, (ctx, "vif_scale0", 0u, NULL, errp), INVALID, "out", PARAM);
    SIZED(vmafx_feature_score, s, (ctx, "vif_scale0", 0u, &s, errp), "out");
    ROW(vmafx_score_frame, (NULL, m, 0u, &s, errp), INVALID, "context", VMAFX_SUBJECT_CONTEXT);
    ROW(vmafx_score_frame, (ctx, NULL, 0u, &s, errp), INVALID, "model", VMAFX_SUBJECT_MODEL);
    ROW(vmafx_score_frame, (ctx, m, 0u, NULL, errp), INVALID, "out", PARAM);
    SIZED(vmafx_score_frame, s, (ctx, m, 0u, &s, errp), "out");
    ROW(vmafx_score_pooled, (NULL, m, VMAFX_POOL_MEAN, 0u, 0u, &ps, errp), INVALID, "context",
        VMAFX_SUBJECT_CONTEXT);
    ROW(vmafx_score_pooled, (ctx, NULL, VMAFX_POOL_MEAN, 0u, 0u, &ps, errp), INVALID, "model",
        VMAFX_SUBJECT_MODEL);
    ROW(vmafx_score_pooled, (ctx, m, VMAFX_POOL_MEAN, 0u, 0u, NULL, errp), INVALID, "out", PARAM);
    SIZED(vmafx_score_pooled, ps, (ctx, m, VMAFX_POOL_MEAN, 0u, 0u, &ps, errp), "out");
    ROW(vmafx_feature_score_pooled, (NULL, "vif_scale0", VMAFX_POOL_MEAN, 0u, 0u, &ps, errp),
        INVALID, "context", VMAFX_SUBJECT_CONTEXT);
    ROW(vmafx_feature_score_pooled, (ctx, NULL, VMAFX_POOL_MEAN, 0u, 0u, &ps, errp), INVALID,
        "feature", PARAM);
    ROW(vmafx_feature_score_pooled, (ctx, "vif_scale0", VMAFX_POOL_MEAN, 0u, 0u, NULL, errp),
        INVALID, "out", PARAM);
    SIZED(vmafx_feature_score_pooled, ps, (ctx, "vif_scale0", VMAFX_POOL_MEAN, 0u, 0u, &ps, errp),
          "out");
    vmafx_model_unref(m);
    CHECK(vmafx_context_destroy(ctx, NULL) == VMAFX_OK);
}

static void sets_bridge_and_introspection(void)
{
    VALUE(vmafx_context_from_libvmaf, vmafx_context_from_libvmaf(NULL) == NULL);
    VALUE(vmafx_context_libvmaf_handle, vmafx_context_libvmaf_handle(NULL) == NULL);
    VALUE(vmafx_context_extractor_count, vmafx_context_extractor_count(NULL) == 0u);

    VmafxContext *ctx = NULL;
    CHECK(vmafx_context_create(NULL, &ctx, NULL) == VMAFX_OK);
    CHECK(vmafx_context_use_feature(ctx, "psnr", NULL, NULL) == VMAFX_OK);
    VmafxExtractorInfo info = VMAFX_EXTRACTOR_INFO_INIT;
    ROW(vmafx_context_extractor_info, (NULL, 0u, &info, errp), INVALID, "context",
        VMAFX_SUBJECT_CONTEXT);
    ROW(vmafx_context_extractor_info, (ctx, 0u, NULL, errp), INVALID, "out", PARAM);
    SIZED(vmafx_context_extractor_info, info, (ctx, 0u, &info, errp), "out");

    VmafxFeatureResolution res = VMAFX_FEATURE_RESOLUTION_INIT;
    VmafxFrameDesc d = desc420();
    ROW(vmafx_feature_resolve, (NULL, "psnr", NULL, &d, &res, errp), INVALID, "context",
        VMAFX_SUBJECT_CONTEXT);
    ROW(vmafx_feature_resolve, (ctx, NULL, NULL, &d, &res, errp), INVALID, "extractor", PARAM);
    ROW(vmafx_feature_resolve, (ctx, "psnr", NULL, &d, NULL, errp), INVALID, "out", PARAM);
    SIZED(vmafx_feature_resolve, res, (ctx, "psnr", NULL, &d, &res, errp), "out");
    SIZED(vmafx_feature_resolve, d, (ctx, "psnr", NULL, &d, &res, errp), "frame");

    VmafxModel *m = NULL;
    CHECK(vmafx_model_load(NULL, "vmaf_v0.6.1", &m, NULL) == VMAFX_OK);
    VALUE(vmafx_model_hash, vmafx_model_hash(NULL) == NULL);
    VmafxOptions *opts = NULL;
    CHECK(vmafx_options_set(&opts, "motion_force_zero", "true", NULL) == VMAFX_OK);
    ROW(vmafx_model_override_feature, (NULL, "motion", opts, errp), INVALID, "model",
        VMAFX_SUBJECT_MODEL);
    ROW(vmafx_model_override_feature, (m, NULL, opts, errp), INVALID, "extractor", PARAM);
    ROW(vmafx_model_override_feature, (m, "motion", NULL, errp), INVALID, "options", PARAM);

    VmafxModelSet *set = NULL;
    VmafxModelConfig mc = VMAFX_MODEL_CONFIG_INIT;
    ROW(vmafx_model_set_load, (&mc, NULL, &set, errp), INVALID, "version", PARAM);
    ROW(vmafx_model_set_load, (&mc, "vmaf_b_v0.6.3", NULL, errp), INVALID, "out", PARAM);
    SIZED(vmafx_model_set_load, mc, (&mc, "vmaf_b_v0.6.3", &set, errp), "config");
    ROW(vmafx_model_set_load_file, (&mc, NULL, &set, errp), INVALID, "path",
        VMAFX_SUBJECT_PATH);
    ROW(vmafx_model_set_load_file, (&mc, "set.json", NULL, errp), INVALID, "out", PARAM);
    SIZED(vmafx_model_set_load_file, mc, (&mc, "set.json", &set, errp), "config");
    CHECK(set == NULL);
    VALUE(vmafx_model_set_ref, vmafx_model_set_ref(NULL) == NULL);
    vmafx_model_set_unref(NULL);
    VALUE(vmafx_model_set_unref, true);
    VALUE(vmafx_model_set_lead, vmafx_model_set_lead(NULL) == NULL);
    VALUE(vmafx_model_set_size, vmafx_model_set_size(NULL) == 0u);
    VALUE(vmafx_model_set_hash, vmafx_model_set_hash(NULL) == NULL);
    CHECK(vmafx_model_set_load(NULL, "vmaf_b_v0.6.3", &set, NULL) == VMAFX_OK && set);
    ROW(vmafx_model_set_override_feature, (NULL, "motion", opts, errp), INVALID, "set",
        VMAFX_SUBJECT_MODEL);
    ROW(vmafx_model_set_override_feature, (set, NULL, opts, errp), INVALID, "extractor",
        PARAM);
    ROW(vmafx_model_set_override_feature, (set, "motion", NULL, errp), INVALID, "options",
        PARAM);

    ROW(vmafx_context_use_model_set, (NULL, set, errp), INVALID, "context",
        VMAFX_SUBJECT_CONTEXT);
    ROW(vmafx_context_use_model_set, (ctx, NULL, errp), INVALID, "set", VMAFX_SUBJECT_MODEL);
    CHECK(vmafx_context_use_model_set(ctx, set, NULL) == VMAFX_OK);
    VmafxModelSetScore ss = VMAFX_MODEL_SET_SCORE_INIT;
    ROW(vmafx_score_frame_model_set, (NULL, set, 0u, &ss, errp), INVALID, "context",
        VMAFX_SUBJECT_CONTEXT);
    ROW(vmafx_score_frame_model_set, (ctx, NULL, 0u, &ss, errp), INVALID, "set",
        VMAFX_SUBJECT_MODEL);
    ROW(vmafx_score_frame_model_set, (ctx, set, 0u, NULL, errp), INVALID, "out", PARAM);
    SIZED(vmafx_score_frame_model_set, ss, (ctx, set, 0u, &ss, errp), "out");
    ROW(vmafx_score_pooled_model_set, (NULL, set, VMAFX_POOL_MEAN, 0u, 0u, &ss, errp), INVALID,
        "context", VMAFX_SUBJECT_CONTEXT);
    ROW(vmafx_score_pooled_model_set, (ctx, NULL, VMAFX_POOL_MEAN, 0u, 0u, &ss, errp), INVALID,
        "set", VMAFX_SUBJECT_MODEL);
    ROW(vmafx_score_pooled_model_set, (ctx, set, VMAFX_POOL_MEAN, 0u, 0u, NULL, errp), INVALID,
        "out", PARAM);
    SIZED(vmafx_score_pooled_model_set, ss, (ctx, set, VMAFX_POOL_MEAN, 0u, 0u, &ss, errp),
          "out");

    vmafx_model_set_unref(set);
    vmafx_options_free(opts);
    vmafx_model_unref(m);
    CHECK(vmafx_context_destroy(ctx, NULL) == VMAFX_OK);
}

static void producers(void)
{
    VALUE(vmafx_context_frame_retention, vmafx_context_frame_retention(NULL) == 0u);
    VALUE(vmafx_context_max_in_flight, vmafx_context_max_in_flight(NULL) == 0u);
    VALUE(vmafx_backend_name, strcmp(vmafx_backend_name(99u), "unknown") == 0);
    VmafxContext *ctx = NULL;
    CHECK(vmafx_context_create(NULL, &ctx, NULL) == VMAFX_OK);
    VmafxFrameDesc d = desc420();
    ROW(vmafx_context_preallocate, (NULL, &d, 2u, errp), INVALID, "context",
        VMAFX_SUBJECT_CONTEXT);
    ROW(vmafx_context_preallocate, (ctx, NULL, 2u, errp), INVALID, "desc", PARAM);
    SIZED(vmafx_context_preallocate, d, (ctx, &d, 2u, errp), "desc");
    VmafxFrame *out = NULL;
    ROW(vmafx_context_acquire_frame, (NULL, &out, errp), INVALID, "context",
        VMAFX_SUBJECT_CONTEXT);
    ROW(vmafx_context_acquire_frame, (ctx, NULL, errp), INVALID, "out", PARAM);
    ROW(vmafx_context_import_score, (NULL, "x", 0u, 1.0, errp), INVALID, "context",
        VMAFX_SUBJECT_CONTEXT);
    ROW(vmafx_context_import_score, (ctx, NULL, 0u, 1.0, errp), INVALID, "feature", PARAM);
    ROW(vmafx_context_set_option, (NULL, "perceptual_weight", "1", errp), INVALID, "context",
        VMAFX_SUBJECT_CONTEXT);
    ROW(vmafx_context_set_option, (ctx, NULL, "1", errp), INVALID, "key", PARAM);
    ROW(vmafx_context_set_option, (ctx, "perceptual_weight", NULL, errp), INVALID, "value", PARAM);
    ROW(vmafx_context_attach_sidedata, (NULL, 0u, pixels, 4u, errp), INVALID, "context",
        VMAFX_SUBJECT_CONTEXT);
    ROW(vmafx_context_attach_sidedata, (ctx, 0u, NULL, 4u, errp), INVALID, "data", PARAM);
    ROW(vmafx_context_set_default_color, (NULL, NULL, NULL, errp), INVALID, "context",
        VMAFX_SUBJECT_CONTEXT);
    VmafxFence fence = VMAFX_FENCE_INIT;
    CHECK(vmafx_fence_create(NULL, VMAFX_FENCE_HOST, &fence, NULL) == VMAFX_OK);
    VmafxFrame *f = fresh();
    ROW(vmafx_frame_signal_on_release, (NULL, &fence, errp), INVALID, "frame",
        VMAFX_SUBJECT_FRAME);
    ROW(vmafx_frame_signal_on_release, (f, NULL, errp), INVALID, "fence", VMAFX_SUBJECT_FENCE);
    SIZED(vmafx_frame_signal_on_release, fence, (f, &fence, errp), "fence");
    vmafx_frame_unref(f);
    CHECK(vmafx_fence_wait(&fence, 0u, NULL) == VMAFX_PENDING); /* no row registered it */
    CHECK(vmafx_fence_destroy(&fence, NULL) == VMAFX_OK);
    CHECK(vmafx_context_destroy(ctx, NULL) == VMAFX_OK);
}

static void windows(void)
{
    VmafxContext *ctx = NULL;
    CHECK(vmafx_context_create(NULL, &ctx, NULL) == VMAFX_OK);
    VmafxWindowRequest req = VMAFX_WINDOW_REQUEST_INIT;
    req.target = VMAFX_WINDOW_TARGET_FEATURE;
    req.feature = "psnr_y";
    req.pool_mask = VMAFX_POOL_MASK_MEAN;
    VmafxWindow *w = NULL;
    ROW(vmafx_window_submit, (NULL, &req, &w, errp), INVALID, "context", VMAFX_SUBJECT_CONTEXT);
    ROW(vmafx_window_submit, (ctx, NULL, &w, errp), INVALID, "request", PARAM);
    ROW(vmafx_window_submit, (ctx, &req, NULL, errp), INVALID, "out", PARAM);
    SIZED(vmafx_window_submit, req, (ctx, &req, &w, errp), "request");
    req.feature = NULL;
    ROW(vmafx_window_submit, (ctx, &req, &w, errp), INVALID, "request.feature", PARAM);
    req.feature = "psnr_y";
    req.target = VMAFX_WINDOW_TARGET_MODEL;
    ROW(vmafx_window_submit, (ctx, &req, &w, errp), INVALID, "model", VMAFX_SUBJECT_MODEL);
    req.target = VMAFX_WINDOW_TARGET_FEATURE;
    CHECK(vmafx_window_submit(ctx, &req, &w, NULL) == VMAFX_OK);
    VmafxWindowResult r = VMAFX_WINDOW_RESULT_INIT;
    ROW(vmafx_window_poll, (NULL, &r, errp), INVALID, "window", PARAM);
    ROW(vmafx_window_poll, (w, NULL, errp), INVALID, "out", PARAM);
    SIZED(vmafx_window_poll, r, (w, &r, errp), "out");
    ROW(vmafx_window_wait, (NULL, 0u, &r, errp), INVALID, "window", PARAM);
    ROW(vmafx_window_wait, (w, 0u, NULL, errp), INVALID, "out", PARAM);
    SIZED(vmafx_window_wait, r, (w, 0u, &r, errp), "out");
    VALUE(vmafx_window_release, (vmafx_window_release(NULL), true));
    vmafx_window_release(w);
    CHECK(vmafx_context_destroy(ctx, NULL) == VMAFX_OK);

    VmafxWindowClockConfig cc = VMAFX_WINDOW_CLOCK_CONFIG_INIT;
    cc.n_stats_frames = 2;
    VmafxWindowClock *clock = NULL;
    ROW(vmafx_window_clock_create, (NULL, &clock, errp), INVALID, "config", PARAM);
    ROW(vmafx_window_clock_create, (&cc, NULL, errp), INVALID, "out", PARAM);
    SIZED(vmafx_window_clock_create, cc, (&cc, &clock, errp), "config");
    CHECK(vmafx_window_clock_create(&cc, &clock, NULL) == VMAFX_OK);
    VmafxWindowSpan s = VMAFX_WINDOW_SPAN_INIT;
    ROW(vmafx_window_clock_frame, (NULL, 0u, 0, &s, errp), INVALID, "clock", PARAM);
    ROW(vmafx_window_clock_frame, (clock, 0u, 0, NULL, errp), INVALID, "out", PARAM);
    SIZED(vmafx_window_clock_frame, s, (clock, 0u, 0, &s, errp), "out");
    ROW(vmafx_window_clock_finish, (NULL, &s, errp), INVALID, "clock", PARAM);
    ROW(vmafx_window_clock_finish, (clock, NULL, errp), INVALID, "out", PARAM);
    SIZED(vmafx_window_clock_finish, s, (clock, &s, errp), "out");
    VALUE(vmafx_window_clock_destroy, (vmafx_window_clock_destroy(NULL), true));
    vmafx_window_clock_destroy(clock);
}

static void mcp(void)
{
    VALUE(vmafx_mcp_available, vmafx_mcp_available() == 1);
    VALUE(vmafx_mcp_transport_available, vmafx_mcp_transport_available(99) == 0);
    VmafxMcpConfig c = VMAFX_MCP_CONFIG_INIT;
    VmafxMcpServer *srv = NULL;
    ROW(vmafx_mcp_server_create, (NULL, &c, NULL, errp), INVALID, "out", PARAM);
    SIZED(vmafx_mcp_server_create, c, (NULL, &c, &srv, errp), "config");
    CHECK(vmafx_mcp_server_create(NULL, NULL, &srv, NULL) == VMAFX_OK && srv);
    VmafxMcpSseConfig sse = VMAFX_MCP_SSE_CONFIG_INIT;
    ROW(vmafx_mcp_start_sse, (NULL, &sse, NULL, errp), INVALID, "server", PARAM);
    SIZED(vmafx_mcp_start_sse, sse, (srv, &sse, NULL, errp), "config");
    VmafxMcpUdsConfig uds = VMAFX_MCP_UDS_CONFIG_INIT;
    ROW(vmafx_mcp_start_uds, (NULL, &uds, errp), INVALID, "server", PARAM);
    ROW(vmafx_mcp_start_uds, (srv, NULL, errp), INVALID, "config", PARAM);
    ROW(vmafx_mcp_start_uds, (srv, &uds, errp), INVALID, "config.path", PARAM);
    SIZED(vmafx_mcp_start_uds, uds, (srv, &uds, errp), "config");
    VmafxMcpStdioConfig io = VMAFX_MCP_STDIO_CONFIG_INIT;
    ROW(vmafx_mcp_start_stdio, (NULL, &io, errp), INVALID, "server", PARAM);
    SIZED(vmafx_mcp_start_stdio, io, (srv, &io, errp), "config");
    io.fd_in = -1;
    ROW(vmafx_mcp_start_stdio, (srv, &io, errp), INVALID, "config", PARAM);
    ROW(vmafx_mcp_stop, (NULL, errp), INVALID, "server", PARAM);
    VALUE(vmafx_mcp_server_destroy, (vmafx_mcp_server_destroy(NULL), true));
    vmafx_mcp_server_destroy(srv);
}

static void provenance(void)
{
    VmafxContext *ctx = NULL;
    CHECK(vmafx_context_create(NULL, &ctx, NULL) == VMAFX_OK);
    VmafxProvenance pr = VMAFX_PROVENANCE_INIT;
    ROW(vmafx_context_provenance, (NULL, &pr, errp), INVALID, "context", PARAM);
    ROW(vmafx_context_provenance, (ctx, NULL, errp), INVALID, "out", PARAM);
    SIZED(vmafx_context_provenance, pr, (ctx, &pr, errp), "out");
    VmafxModelProvenance mp = VMAFX_MODEL_PROVENANCE_INIT;
    ROW(vmafx_context_model_provenance, (NULL, 0, &mp, errp), INVALID, "context", PARAM);
    ROW(vmafx_context_model_provenance, (ctx, 0, &mp, errp), VMAFX_E_NOTFOUND, "index", PARAM);
    SIZED(vmafx_context_model_provenance, mp, (ctx, 0, &mp, errp), "out");
    VmafxFeatureProvenance fp = VMAFX_FEATURE_PROVENANCE_INIT;
    ROW(vmafx_context_feature_provenance, (NULL, 0, &fp, errp), INVALID, "context", PARAM);
    ROW(vmafx_context_feature_provenance, (ctx, 0, &fp, errp), VMAFX_E_NOTFOUND, "index", PARAM);
    ROW(vmafx_feature_provenance, (ctx, NULL, &fp, errp), INVALID, "feature", PARAM);
    ROW(vmafx_feature_provenance, (ctx, "psnr_y", &fp, errp), VMAFX_E_NOTFOUND, "psnr_y",
        VMAFX_SUBJECT_FEATURE);
    ROW(vmafx_context_annotate, (NULL, "k", "v", errp), INVALID, "context", PARAM);
    ROW(vmafx_context_annotate, (ctx, NULL, "v", errp), INVALID, "key", PARAM);
    ROW(vmafx_context_annotate, (ctx, "k", NULL, errp), INVALID, "value", PARAM);
    ROW(vmafx_context_annotate, (ctx, "", "v", errp), INVALID, "key", PARAM);
    VmafxAnnotation an = VMAFX_ANNOTATION_INIT;
    ROW(vmafx_context_annotation, (ctx, 0, &an, errp), VMAFX_E_NOTFOUND, "index", PARAM);
    ROW(vmafx_context_annotation, (NULL, 0, &an, errp), INVALID, "context", PARAM);
    ROW(vmafx_context_set_encode_record, (NULL, NULL, errp), INVALID, "context", PARAM);
    ROW(vmafx_context_set_encode_record, (ctx, "sha256:", errp), INVALID, "record", PARAM);
    const char *json = NULL;
    ROW(vmafx_context_provenance_json, (NULL, 0, &json, errp), INVALID, "context", PARAM);
    ROW(vmafx_context_provenance_json, (ctx, 0, NULL, errp), INVALID, "json", PARAM);
    ROW(vmafx_context_provenance_json, (ctx, 4, &json, errp), INVALID, "flags", PARAM);
    VmafxReportFile *rf = NULL;
    ROW(vmafx_report_write, (NULL, "x.json", 2, 0, NULL, errp), INVALID, "context", PARAM);
    ROW(vmafx_report_write, (ctx, NULL, 2, 0, NULL, errp), INVALID, "path", PARAM);
    ROW(vmafx_report_write, (ctx, "x.json", 0, 0, NULL, errp), INVALID, "format", PARAM);
    ROW(vmafx_report_write, (ctx, "x.json", 2, 2, NULL, errp), INVALID, "flags", PARAM);
    ROW(vmafx_report_write, (ctx, "x.json", 2, 0, "%d", errp), INVALID, "score_format", PARAM);
    ROW(vmafx_report_open, (NULL, &rf, errp), INVALID, "path", PARAM);
    ROW(vmafx_report_open, ("x.json", NULL, errp), INVALID, "out", PARAM);
    ROW(vmafx_report_open, ("no/such/report.json", &rf, errp), VMAFX_E_IO,
        "no/such/report.json", VMAFX_SUBJECT_PATH);
    CHECK(rf == NULL);
    ROW(vmafx_report_verify, (NULL, NULL, errp), INVALID, "recorded", PARAM);
    VALUE(vmafx_report_field, vmafx_report_field(NULL, "provenance") == NULL);
    VALUE(vmafx_report_close, (vmafx_report_close(NULL), true));
    CHECK(vmafx_context_destroy(ctx, NULL) == VMAFX_OK);
}

/* dnn.h: the same rows in both builds up to the runtime; then, without it (vmafx_dnn_available()
 * 0), VMAFX_E_NOTSUP naming `dnn`, and with it the model's or the registry's path, not found. */
static void dnn(void)
{
    enum { NOTSUP = VMAFX_E_NOTSUP, BACKEND = VMAFX_SUBJECT_BACKEND };
    const bool rt = vmafx_dnn_available() != 0;
    VALUE(vmafx_dnn_available, vmafx_dnn_available() <= 1);
    VmafxContext *ctx = NULL;
    CHECK(vmafx_context_create(NULL, &ctx, NULL) == VMAFX_OK);
    VmafxDnnConfig c = VMAFX_DNN_CONFIG_INIT;
    ROW(vmafx_context_use_tiny_model, (NULL, "m.onnx", &c, errp), INVALID, "context", VMAFX_SUBJECT_CONTEXT);
    ROW(vmafx_context_use_tiny_model, (ctx, NULL, &c, errp), INVALID, "onnx_path", PARAM);
    SIZED(vmafx_context_use_tiny_model, c, (ctx, "m.onnx", &c, errp), "config");
    c.device = 12;
    ROW(vmafx_context_use_tiny_model, (ctx, "m.onnx", &c, errp), INVALID, "config.device", PARAM);
    c.device = VMAFX_DNN_DEVICE_CPU;
    if (rt)
        ROW(vmafx_context_use_tiny_model, (ctx, "m.onnx", &c, errp), VMAFX_E_NOTFOUND, "m.onnx",
            VMAFX_SUBJECT_MODEL);
    else
        ROW(vmafx_context_use_tiny_model, (ctx, "m.onnx", &c, errp), NOTSUP, "dnn", BACKEND);
    ROW(vmafx_context_set_codec_context, (NULL, "x264", NULL, 23, errp), INVALID, "context", VMAFX_SUBJECT_CONTEXT);
    if (rt)
        ROW(vmafx_context_set_codec_context, (ctx, "x264", NULL, 23, errp), VMAFX_E_NOTFOUND,
            "tiny model", PARAM);
    else
        ROW(vmafx_context_set_codec_context, (ctx, "x264", NULL, 23, errp), NOTSUP, "dnn", BACKEND);
    VALUE(vmafx_context_is_codec_aware, vmafx_context_is_codec_aware(NULL) == 0 &&
                                            vmafx_context_is_codec_aware(ctx) == 0);
    ROW(vmafx_context_set_tiny_resize, (NULL, 0u, errp), INVALID, "context", VMAFX_SUBJECT_CONTEXT);
    ROW(vmafx_context_set_tiny_resize, (ctx, 4u, errp), INVALID, "mode", PARAM);
    if (rt)
        ROW(vmafx_context_set_tiny_resize, (ctx, VMAFX_DNN_RESIZE_BILINEAR, errp),
            VMAFX_E_NOTFOUND, "tiny model", PARAM);
    else
        ROW(vmafx_context_set_tiny_resize, (ctx, VMAFX_DNN_RESIZE_BILINEAR, errp), NOTSUP, "dnn",
            BACKEND);
    VmafxDnnSession *s = (VmafxDnnSession *)&c; /* never read: written NULL first */
    ROW(vmafx_dnn_session_open, ("m.onnx", &c, NULL, errp), INVALID, "out", PARAM);
    ROW(vmafx_dnn_session_open, (NULL, &c, &s, errp), INVALID, "onnx_path", PARAM);
    CHECK(s == NULL);
    SIZED(vmafx_dnn_session_open, c, ("m.onnx", &c, &s, errp), "config");
    if (rt)
        ROW(vmafx_dnn_session_open, ("m.onnx", NULL, &s, errp), VMAFX_E_NOTFOUND, "m.onnx",
            VMAFX_SUBJECT_MODEL);
    else
        ROW(vmafx_dnn_session_open, ("m.onnx", NULL, &s, errp), NOTSUP, "dnn", BACKEND);
    CHECK(s == NULL);
    uint8_t plane[16] = {0};
    ROW(vmafx_dnn_session_run_luma8, (NULL, plane, 4, 4, 4, plane, 4, errp), INVALID, "session",
        PARAM);
    ROW(vmafx_dnn_session_run_plane16, (NULL, plane, 8, 2, 2, 10, plane, 8, errp), INVALID,
        "session", PARAM);
    ROW(vmafx_dnn_session_run, (NULL, NULL, 0, NULL, 0, errp), INVALID, "session", PARAM);
    VALUE(vmafx_dnn_session_close, (vmafx_dnn_session_close(NULL), true));
    VALUE(vmafx_dnn_session_runtime_device, vmafx_dnn_session_runtime_device(NULL) == NULL);
    ROW(vmafx_dnn_verify_signature, (NULL, "r.json", errp), INVALID, "onnx_path", PARAM);
    ROW(vmafx_dnn_verify_signature, ("m.onnx", NULL, errp), INVALID, "registry_path", PARAM);
    if (rt)
        ROW(vmafx_dnn_verify_signature, ("m.onnx", "r.json", errp), VMAFX_E_NOTFOUND, "r.json",
            VMAFX_SUBJECT_MODEL);
    else
        ROW(vmafx_dnn_verify_signature, ("m.onnx", "r.json", errp), NOTSUP, "dnn", BACKEND);
    CHECK(vmafx_context_destroy(ctx, NULL) == VMAFX_OK);
}

int main(void)
{
    errors_and_versions();
    devices();
    fences();
    frames();
    imports();
    pools();
    converters();
    contexts_and_models();
    sets_bridge_and_introspection();
    producers();
    windows();
    mcp();
    dnn();
    provenance();
    if (row_failures)
        fprintf(stderr, "%d rows failed\n", row_failures);
    return check_finish("test_bad_input");
}
