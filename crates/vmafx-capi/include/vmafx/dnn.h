/*
 * vmafx: VMAFx's C ABI, implemented in Rust.
 *
 * GENERATED from the Rust definitions of crates/vmafx-capi by src/headers.rs;
 * do not edit. Regenerate with `VMAFX_BLESS=1 cargo test -p vmafx-capi headers`.
 */

/**
 * Tiny-AI models (VMAFx's dnn.h), run by a pure-Rust ONNX runtime in a vmafx built with its `dnn`
 * feature. Without it vmafx_dnn_available() is 0 and the calls that load or run a model fail
 * VMAFX_E_NOTSUP naming `dnn` after checking their arguments.
 */

#ifndef VMAFX_DNN_H
#define VMAFX_DNN_H

#include <stddef.h>
#include <stdint.h>
#include <vmafx/types.h>
#include <vmafx/error.h>
#include <vmafx/context.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Inference device of a tiny-AI session (ABI 0.1.6). */
typedef enum VmafxDnnDevice {
    /** The best execution provider the runtime offers. */
    VMAFX_DNN_DEVICE_AUTO = 0,
    /** The CPU. */
    VMAFX_DNN_DEVICE_CPU = 1,
    /** A CUDA GPU. */
    VMAFX_DNN_DEVICE_CUDA = 2,
    /** The OpenVINO provider, its default device. */
    VMAFX_DNN_DEVICE_OPENVINO = 3,
    /** A ROCm GPU. */
    VMAFX_DNN_DEVICE_ROCM = 4,
    /** The Core ML provider, its default unit. */
    VMAFX_DNN_DEVICE_COREML = 5,
    /** Core ML on the neural engine. */
    VMAFX_DNN_DEVICE_COREML_ANE = 6,
    /** Core ML on the GPU. */
    VMAFX_DNN_DEVICE_COREML_GPU = 7,
    /** Core ML on the CPU. */
    VMAFX_DNN_DEVICE_COREML_CPU = 8,
    /** OpenVINO on the NPU. */
    VMAFX_DNN_DEVICE_OPENVINO_NPU = 9,
    /** OpenVINO on the CPU. */
    VMAFX_DNN_DEVICE_OPENVINO_CPU = 10,
    /** OpenVINO on the GPU. */
    VMAFX_DNN_DEVICE_OPENVINO_GPU = 11,
} VmafxDnnDevice;

/** How a tiny model's input is resized to the model's fixed shape (ABI 0.1.6). */
typedef enum VmafxDnnResize {
    /** No resize: a frame of another size is refused. */
    VMAFX_DNN_RESIZE_DISABLED = 0,
    /** Bilinear. */
    VMAFX_DNN_RESIZE_BILINEAR = 1,
    /** Nearest neighbour. */
    VMAFX_DNN_RESIZE_NEAREST = 2,
    /** Bicubic. */
    VMAFX_DNN_RESIZE_BICUBIC = 3,
} VmafxDnnResize;

/** VmafxDnnFlags: exchange tensors with the runtime in half precision. */
#define VMAFX_DNN_FP16_IO (UINT32_C(1) << 0U)

/** An ONNX session of a tiny model run directly (ABI 0.1.6). */
typedef struct VmafxDnnSession VmafxDnnSession;

typedef struct VmafxDnnConfig VmafxDnnConfig;
typedef struct VmafxDnnInput VmafxDnnInput;
typedef struct VmafxDnnOutput VmafxDnnOutput;

/** How to open a tiny-AI session. Initialise with VMAFX_DNN_CONFIG_INIT (ABI 0.1.6). */
struct VmafxDnnConfig {
    /** Size of this struct as the caller compiled it; set by the _INIT macro. */
    uint32_t struct_size;
    /** Inference device: a VmafxDnnDevice. */
    uint32_t device;
    /** Device index within the provider; 0 is the first. */
    int32_t device_index;
    /** Intra-op threads; 0 lets the runtime choose. */
    int32_t threads;
    /** Session flags: VMAFX_DNN_* bits. */
    uint32_t flags;
};

/** Initialiser: sets `struct_size`, zeroes every other field. */
#define VMAFX_DNN_CONFIG_INIT {.struct_size = sizeof(VmafxDnnConfig)}

/**
 * One named float32 input tensor of vmafx_dnn_session_run(), row-major; never grows (ABI 0.1.6).
 */
struct VmafxDnnInput {
    /** Input name; NULL takes the session's inputs in order. */
    const char *name;
    /** The tensor's float32 values. */
    const void *data;
    /** `rank` int64 extents. */
    const void *shape;
    /** Number of dimensions. */
    size_t rank;
};

/** One named float32 output tensor of vmafx_dnn_session_run(); never grows (ABI 0.1.6). */
struct VmafxDnnOutput {
    /** Output name; NULL takes the session's outputs in order. */
    const char *name;
    /** Float32 storage the call fills. */
    void *data;
    /** Floats `data` holds. */
    size_t capacity;
    /** Floats written (set by the call). */
    size_t written;
};

/**
 * 1 when this build runs tiny-AI models (vmafx built with its `dnn` feature: a pure-Rust ONNX
 * runtime), else 0; then the calls below that load or run a model check their arguments and fail
 * VMAFX_E_NOTSUP naming `dnn`.
 */
VMAFX_EXPORT uint32_t vmafx_dnn_available(void);

/**
 * Attach the tiny model at `onnx_path` (checked against the operator allowlist and the 50 MiB size
 * limit; its sidecar JSON read when present) to the context, before the first frame; it scores
 * every frame as one more feature, named by the sidecar's `name` or else the file's stem. `config`
 * may be NULL. A refused model is named, subject kind VMAFX_SUBJECT_MODEL.
 */
VMAFX_EXPORT VmafxStatus vmafx_context_use_tiny_model(VmafxContext *context, const char *onnx_path,
                                                      const VmafxDnnConfig *config,
                                                      VmafxError **error);

/**
 * The encoder `codec` (may be NULL), its `preset` (may be NULL) and `crf` that a codec-aware tiny
 * model attached to the context reads. VMAFX_E_NOTFOUND without an attached model, or for a codec
 * its vocabulary lacks.
 */
VMAFX_EXPORT VmafxStatus vmafx_context_set_codec_context(VmafxContext *context, const char *codec,
                                                         const char *preset, int32_t crf,
                                                         VmafxError **error);

/**
 * 1 when the tiny model attached to the context reads the codec context, else 0 (also for NULL, and
 * always in a build without a runtime).
 */
VMAFX_EXPORT uint32_t vmafx_context_is_codec_aware(const VmafxContext *context);

/**
 * How frames are resized to the fixed input shape of the attached tiny model (VmafxDnnResize;
 * another value is VMAFX_E_INVALID naming `mode`). VMAFX_E_NOTFOUND without an attached model.
 */
VMAFX_EXPORT VmafxStatus vmafx_context_set_tiny_resize(VmafxContext *context, uint32_t mode,
                                                       VmafxError **error);

/**
 * Open the ONNX model at `onnx_path` for direct runs (allowlist, size limit and sidecar as
 * vmafx_context_use_tiny_model()). `config` may be NULL. `*out` is NULL on failure.
 */
VMAFX_EXPORT VmafxStatus vmafx_dnn_session_open(const char *onnx_path, const VmafxDnnConfig *config,
                                                VmafxDnnSession **out, VmafxError **error);

/**
 * Run a single-input, single-output session on an 8-bit plane of `w` x `h` (`in`, rows `in_stride`
 * bytes apart) into `out` (rows `out_stride` bytes apart): samples / 255 in, outputs * 255 rounded
 * and clamped out. VMAFX_E_NOTSUP naming the model unless its input is [1, 1, H, W]; VMAFX_E_RANGE
 * for another size than it fixes.
 */
VMAFX_EXPORT VmafxStatus vmafx_dnn_session_run_luma8(VmafxDnnSession *session, const void *input,
                                                     size_t in_stride, uint32_t w, uint32_t h,
                                                     void *output, size_t out_stride,
                                                     VmafxError **error);

/**
 * vmafx_dnn_session_run_luma8() on a plane of `bpc` bits (9 to 16) in 16-bit samples; strides in
 * bytes; samples / (2^bpc - 1) in, outputs scaled back, rounded and clamped.
 */
VMAFX_EXPORT VmafxStatus vmafx_dnn_session_run_plane16(VmafxDnnSession *session, const void *input,
                                                       size_t in_stride, uint32_t w, uint32_t h,
                                                       uint32_t bpc, void *output,
                                                       size_t out_stride, VmafxError **error);

/**
 * Run the session on `n_inputs` named float32 tensors into `n_outputs` caller-sized outputs (each
 * output's `written` is set). An output whose `capacity` is too small is VMAFX_E_RANGE naming it
 * (its `written` says how many floats it needs).
 */
VMAFX_EXPORT VmafxStatus vmafx_dnn_session_run(VmafxDnnSession *session,
                                               const VmafxDnnInput *inputs, size_t n_inputs,
                                               VmafxDnnOutput *outputs, size_t n_outputs,
                                               VmafxError **error);

/** Close a session; NULL is a no-op. */
VMAFX_EXPORT void vmafx_dnn_session_close(VmafxDnnSession *session);

/**
 * Execution provider the runtime attached to the session (`CPU`: the pure-Rust runtime runs on the
 * CPU); lives as long as the session; NULL for NULL.
 */
VMAFX_EXPORT const char *vmafx_dnn_session_runtime_device(VmafxDnnSession *session);

/**
 * Check the ONNX file at `onnx_path` against the model registry at `registry_path` (VMAFx's
 * format), then its Sigstore signature, as VMAFx does, by running `cosign verify-blob
 * --bundle=BUNDLE --certificate-identity-regexp https://github.com/VMAFx/vmafx/.github/workflows/.+
 * --certificate-oidc-issuer https://token.actions.githubusercontent.com ONNX` found on PATH (no
 * shell). VMAFX_OK only when cosign exits 0. Refusals name the model: no registry entry or bundle
 * VMAFX_E_NOTFOUND and a SHA-256 other than the entry's VMAFX_E_MISMATCH, both before cosign runs;
 * cosign missing from PATH or exiting non-zero VMAFX_E_INTERNAL (VMAFx's status for its -EACCES and
 * -EPROTO), the message giving the exit status and cosign's last stderr line; VMAFX_E_NOTSUP on
 * systems other than Unix.
 */
VMAFX_EXPORT VmafxStatus vmafx_dnn_verify_signature(const char *onnx_path,
                                                    const char *registry_path, VmafxError **error);

#ifdef __cplusplus
}
#endif

#endif /* VMAFX_DNN_H */
