/* Tiny models through the C ABI (dnn.h) in a build with the runtime: the models are written
 * into the working directory by tests/c_suite.rs (vmafx_dnn::sample):
 *   invert.onnx   out = 1 - in on [1, 1, 3, 4]  (a plane filter)
 *   mad.onnx      100 * mean |reference - distorted| of two [1, 1, H, W] luma planes
 *   mad8.onnx     the same on fixed [1, 1, 8, 16] planes
 *   floor.onnx    an operator off the allowlist
 * A session runs planes and named tensors; a context with mad.onnx attached scores every
 * pair as the feature `mad`, checked against the same sum computed here. */
#include <math.h>
#include <stdlib.h>

#include "check.h"

enum { W = 32, H = 16, N = 3 };

static uint8_t luma(unsigned x, unsigned y, unsigned seed)
{
    return (uint8_t)((x * 7u + y * 3u + seed * 11u + (x % 3u) * seed) & 0xffu);
}

/* Luma from `luma`, chroma flat grey. */
static uint8_t dnn_pattern(unsigned p, unsigned x, unsigned y, unsigned seed)
{
    return p ? 128 : luma(x, y, seed);
}

static VmafxFrame *frame_of(unsigned seed)
{
    return seeded_frame(W, H, dnn_pattern, seed);
}

static void sessions(void)
{
    VmafxError *err = NULL;
    VmafxDnnSession *s = NULL;
    VmafxDnnConfig c = VMAFX_DNN_CONFIG_INIT;
    c.device = VMAFX_DNN_DEVICE_CPU;
    CHECK(vmafx_dnn_session_open("invert.onnx", &c, &s, &err) == VMAFX_OK && s && !err);
    CHECK(strcmp(vmafx_dnn_session_runtime_device(s), "CPU") == 0);
    /* Rows padded: strides 6 and 5 for 4 samples. */
    uint8_t in[3 * 6], out[3 * 5];
    memset(out, 0xAA, sizeof out);
    for (unsigned i = 0; i < sizeof in; i++)
        in[i] = (uint8_t)(i * 13u);
    CHECK(vmafx_dnn_session_run_luma8(s, in, 6, 4, 3, out, 5, &err) == VMAFX_OK);
    for (unsigned y = 0; y < 3; y++) {
        for (unsigned x = 0; x < 4; x++)
            CHECK(out[y * 5 + x] == 255 - in[y * 6 + x]);
        CHECK(out[y * 5 + 4] == 0xAA); /* padding untouched */
    }
    /* 10-bit: 1023 - v. */
    uint16_t in16[12], out16[12];
    for (unsigned i = 0; i < 12; i++)
        in16[i] = (uint16_t)(i * 80u);
    CHECK(vmafx_dnn_session_run_plane16(s, in16, 8, 4, 3, 10, out16, 8, &err) == VMAFX_OK);
    for (unsigned i = 0; i < 12; i++)
        CHECK(out16[i] == 1023 - in16[i]);
    /* Another size than the model fixes: the model is named. */
    FAILS(vmafx_dnn_session_run_luma8(s, in, 4, 4, 2, out, 4, &err), VMAFX_E_RANGE, &err,
          "invert.onnx", VMAFX_SUBJECT_MODEL);
    /* Named tensors: by order and by name; a short output capacity says what it needs. */
    float x[12], y[12] = {0};
    for (unsigned i = 0; i < 12; i++)
        x[i] = (float)i / 12.0f;
    const int64_t shape[4] = {1, 1, 3, 4};
    VmafxDnnInput ti = {NULL, x, shape, 4};
    VmafxDnnOutput to = {"out", y, 12, 0};
    CHECK(vmafx_dnn_session_run(s, &ti, 1, &to, 1, &err) == VMAFX_OK && to.written == 12);
    for (unsigned i = 0; i < 12; i++)
        CHECK(fabsf(y[i] - (1.0f - x[i])) < 1e-6f);
    to.capacity = 5;
    FAILS(vmafx_dnn_session_run(s, &ti, 1, &to, 1, &err), VMAFX_E_RANGE, &err,
          "outputs[0].capacity", VMAFX_SUBJECT_PARAMETER);
    CHECK(to.written == 12);
    vmafx_dnn_session_close(s);

    s = (VmafxDnnSession *)&c;
    FAILS(vmafx_dnn_session_open("floor.onnx", NULL, &s, &err), VMAFX_E_INVALID, &err,
          "floor.onnx", VMAFX_SUBJECT_MODEL);
    CHECK(s == NULL);
    FAILS(vmafx_dnn_session_open("absent.onnx", NULL, &s, &err), VMAFX_E_NOTFOUND, &err,
          "absent.onnx", VMAFX_SUBJECT_MODEL);
    /* The two-input model has no plane run. */
    CHECK(vmafx_dnn_session_open("mad.onnx", NULL, &s, NULL) == VMAFX_OK);
    FAILS(vmafx_dnn_session_run_luma8(s, in, 6, 4, 3, out, 5, &err), VMAFX_E_NOTSUP, &err,
          "mad.onnx", VMAFX_SUBJECT_MODEL);
    vmafx_dnn_session_close(s);
}

static void context_scores(void)
{
    VmafxError *err = NULL;
    VmafxContext *ctx = NULL;
    CHECK(vmafx_context_create(NULL, &ctx, NULL) == VMAFX_OK);
    FAILS(vmafx_context_set_tiny_resize(ctx, VMAFX_DNN_RESIZE_BILINEAR, &err), VMAFX_E_NOTFOUND,
          &err, "tiny model", VMAFX_SUBJECT_PARAMETER);
    FAILS(vmafx_context_use_tiny_model(ctx, "floor.onnx", NULL, &err), VMAFX_E_INVALID, &err,
          "floor.onnx", VMAFX_SUBJECT_MODEL);
    CHECK(vmafx_context_use_tiny_model(ctx, "mad.onnx", NULL, &err) == VMAFX_OK && !err);
    FAILS(vmafx_context_use_tiny_model(ctx, "mad.onnx", NULL, &err), VMAFX_E_INVALID, &err,
          "mad.onnx", VMAFX_SUBJECT_MODEL);
    CHECK(vmafx_context_is_codec_aware(ctx) == 0);
    CHECK(vmafx_context_set_tiny_resize(ctx, VMAFX_DNN_RESIZE_NEAREST, NULL) == VMAFX_OK);
    CHECK(vmafx_context_use_feature(ctx, "psnr", NULL, NULL) == VMAFX_OK);
    for (unsigned i = 0; i < N; i++)
        CHECK(vmafx_submit(ctx, frame_of(0), frame_of(i + 1u), i, NULL) == VMAFX_OK);
    CHECK(vmafx_flush(ctx, NULL) == VMAFX_OK);
    for (unsigned i = 0; i < N; i++) {
        double want = 0;
        for (unsigned y = 0; y < H; y++)
            for (unsigned x = 0; x < W; x++)
                want += fabs((double)luma(x, y, 0) - (double)luma(x, y, i + 1u)) / 255.0;
        want = 100.0 * want / (W * H);
        VmafxScore f = VMAFX_SCORE_INIT;
        CHECK(vmafx_feature_score(ctx, "mad", i, &f, NULL) == VMAFX_OK);
        CHECK(fabs(f.value - want) < 1e-3 && want > 1.0);
        if (fabs(f.value - want) >= 1e-3)
            fprintf(stderr, "frame %u: mad %f, want %f\n", i, f.value, want);
    }
    VmafxScore p = VMAFX_SCORE_INIT;
    CHECK(vmafx_feature_score(ctx, "psnr_y", 0, &p, NULL) == VMAFX_OK);
    CHECK(vmafx_context_destroy(ctx, NULL) == VMAFX_OK);

    /* A fixed-size model on frames of another size: refused without a resize mode (the
     * frame's submit fails naming the model), scored with one. */
    CHECK(vmafx_context_create(NULL, &ctx, NULL) == VMAFX_OK);
    CHECK(vmafx_context_use_tiny_model(ctx, "mad8.onnx", NULL, NULL) == VMAFX_OK);
    FAILS(vmafx_submit(ctx, frame_of(0), frame_of(1), 0, &err), VMAFX_E_INVALID, &err,
          "mad8.onnx", VMAFX_SUBJECT_PARAMETER);
    CHECK(vmafx_context_destroy(ctx, NULL) == VMAFX_OK);
    CHECK(vmafx_context_create(NULL, &ctx, NULL) == VMAFX_OK);
    CHECK(vmafx_context_use_tiny_model(ctx, "mad8.onnx", NULL, NULL) == VMAFX_OK);
    CHECK(vmafx_context_set_tiny_resize(ctx, VMAFX_DNN_RESIZE_BILINEAR, NULL) == VMAFX_OK);
    CHECK(vmafx_submit(ctx, frame_of(0), frame_of(1), 0, NULL) == VMAFX_OK);
    CHECK(vmafx_flush(ctx, NULL) == VMAFX_OK);
    VmafxScore f = VMAFX_SCORE_INIT;
    CHECK(vmafx_feature_score(ctx, "mad8", 0, &f, NULL) == VMAFX_OK && f.value > 1.0);
    CHECK(vmafx_context_destroy(ctx, NULL) == VMAFX_OK);
}

/* The text of the file `path` (at most 4 KiB), "" when it cannot be read. */
static const char *slurp(const char *path)
{
    static char buf[4096];
    buf[0] = '\0';
    FILE *f = fopen(path, "rb");
    if (f) {
        size_t n = fread(buf, 1, sizeof(buf) - 1, f);
        buf[n] = '\0';
        fclose(f);
    }
    return buf;
}

/* Signatures are cosign's, found on PATH. tests/c_suite.rs writes two stand-in `cosign`
 * programs, cosign_ok/cosign (exits 0) and cosign_no/cosign (says why on stderr, exits 1),
 * each recording its arguments one a line in argv.txt; this process is alone, so it may set
 * PATH. */
static void signatures(void)
{
    VmafxError *err = NULL;
    const char *want = "verify-blob\n"
                       "--bundle=invert.onnx.sigstore.json\n"
                       "--certificate-identity-regexp\n"
                       "https://github.com/VMAFx/vmafx/.github/workflows/.+\n"
                       "--certificate-oidc-issuer\n"
                       "https://token.actions.githubusercontent.com\n"
                       "invert.onnx\n";
    CHECK(setenv("PATH", "cosign_ok", 1) == 0);
    CHECK(vmafx_dnn_verify_signature("invert.onnx", "registry.json", NULL) == VMAFX_OK);
    CHECK(strcmp(slurp("argv.txt"), want) == 0);
    /* Another digest: refused before cosign runs. */
    remove("argv.txt");
    FAILS(vmafx_dnn_verify_signature("mad.onnx", "registry.json", &err), VMAFX_E_MISMATCH, &err,
          "mad.onnx", VMAFX_SUBJECT_MODEL);
    CHECK(slurp("argv.txt")[0] == '\0');
    /* Cosign refuses: the model is named, with cosign's exit status and its last word. */
    CHECK(setenv("PATH", "cosign_no", 1) == 0);
    CHECK(vmafx_dnn_verify_signature("invert.onnx", "registry.json", &err) == VMAFX_E_INTERNAL);
    CHECK(err && strcmp(vmafx_error_subject(err), "invert.onnx") == 0 &&
          strstr(vmafx_error_message(err), "status 1") &&
          strstr(vmafx_error_message(err), "no matching signatures"));
    vmafx_error_free(err);
    err = NULL;
    CHECK(strcmp(slurp("argv.txt"), want) == 0);
    /* No cosign on PATH. */
    CHECK(setenv("PATH", "no_such_dir", 1) == 0);
    FAILS(vmafx_dnn_verify_signature("invert.onnx", "registry.json", &err), VMAFX_E_INTERNAL, &err,
          "invert.onnx", VMAFX_SUBJECT_MODEL);
}

int main(void)
{
    CHECK(vmafx_dnn_available() == 1);
    sessions();
    context_scores();
    signatures();
    return check_finish("test_dnn");
}
