/*
 * vmafx: VMAFx's C ABI, implemented in Rust.
 *
 * GENERATED from the Rust definitions of crates/vmafx-capi by src/headers.rs;
 * do not edit. Regenerate with `VMAFX_BLESS=1 cargo test -p vmafx-capi headers`.
 */

/** Contexts: configuration, device, features, admission, the import rule, submit, flush, scores. */

#ifndef VMAFX_CONTEXT_H
#define VMAFX_CONTEXT_H

#include <stddef.h>
#include <stdint.h>
#include <vmafx/types.h>
#include <vmafx/error.h>
#include <vmafx/device.h>
#include <vmafx/frame.h>
#include <vmafx/model.h>

#ifdef __cplusplus
extern "C" {
#endif

/** One scoring session. */
typedef struct VmafxContext VmafxContext;

typedef struct VmafxContextConfig VmafxContextConfig;

/** How a context runs. Initialise with VMAFX_CONTEXT_CONFIG_INIT. */
struct VmafxContextConfig {
    /** Size of the struct as the caller compiled it; set by the _INIT macro. */
    uint32_t struct_size;
    /** A VmafxLogLevel. */
    uint32_t log_level;
    /** Worker threads; 0 extracts on the calling thread. */
    uint32_t n_threads;
    /** Score every n-th frame; 0 and 1 score every frame. */
    uint32_t n_subsample;
    /** CPU instruction-set bits to disable (accepted, unused). */
    uint64_t cpumask;
    /** GPU dispatch bits to disable (accepted, unused). */
    uint64_t gpumask;
    /** Receives the context's log lines; NULL: stderr (ABI 0.1.1). */
    VmafxLogCallback log_callback;
    /** Passed to `log_callback` (ABI 0.1.1). */
    void *log_user;
    /**
     * Longest host wait on the acquire fence before the import rule's one retry: 1 ns to 10
     * minutes; 0 is 10 s. Above is VMAFX_E_RANGE naming `config.import_retry_wait_ns`, never
     * clamped (ABI 0.1.3).
     */
    uint64_t import_retry_wait_ns;
};

/** Initialiser: sets `struct_size`, zeroes every other field. */
#define VMAFX_CONTEXT_CONFIG_INIT {.struct_size = sizeof(VmafxContextConfig)}

typedef struct VmafxExtractorInfo VmafxExtractorInfo;
typedef struct VmafxFeatureResolution VmafxFeatureResolution;

/** One registered feature extractor. */
struct VmafxExtractorInfo {
    /** Size of the struct as the caller compiled it; set by the _INIT macro. */
    uint32_t struct_size;
    /** The VmafxBackend the extractor runs on. */
    uint32_t backend;
    /** Extractor name (`psnr`, `adm`); lives for the process lifetime. */
    const char *name;
};

/** Initialiser: sets `struct_size`, zeroes every other field. */
#define VMAFX_EXTRACTOR_INFO_INIT {.struct_size = sizeof(VmafxExtractorInfo)}

/** Which extractor computes a feature on a context. Strings live for the process lifetime. */
struct VmafxFeatureResolution {
    /** Size of the struct as the caller compiled it; set by the _INIT macro. */
    uint32_t struct_size;
    /** The VmafxBackend of `extractor`. */
    uint32_t backend;
    /**
     * The extractor that computes the feature: on the CPU the extractor itself, under its own name.
     */
    const char *extractor;
    /**
     * The option a device twin cannot honour when the call returns VMAFX_E_NOTSUP, else NULL
     * (always NULL on the CPU).
     */
    const char *unsupported_option;
};

/** Initialiser: sets `struct_size`, zeroes every other field. */
#define VMAFX_FEATURE_RESOLUTION_INIT {.struct_size = sizeof(VmafxFeatureResolution)}

/** Creates a context (`config` NULL: defaults); `*out` is NULL on failure. */
VMAFX_EXPORT VmafxStatus vmafx_context_create(const VmafxContextConfig *config, VmafxContext **out,
                                              VmafxError **error);

/** Destroys a context with its device reference and frames. */
VMAFX_EXPORT VmafxStatus vmafx_context_destroy(VmafxContext *context, VmafxError **error);

/**
 * Scores on `device`, holding a reference until destroyed. Once (again: VMAFX_E_BUSY naming the
 * device), before any feature, model or frame (after: VMAFX_E_INVALID naming the context).
 */
VMAFX_EXPORT VmafxStatus vmafx_context_use_device(VmafxContext *context, VmafxDevice *device,
                                                  VmafxError **error);

/** Registers extractor `extractor` with `options` (copied; may be NULL). */
VMAFX_EXPORT VmafxStatus vmafx_context_use_feature(VmafxContext *context, const char *extractor,
                                                   const VmafxOptions *options, VmafxError **error);

/**
 * Whether every registered extractor reads `frame` where it lives, without a host copy;
 * VMAFX_E_NOTSUP names each refusing extractor.
 */
VMAFX_EXPORT VmafxStatus vmafx_context_admit(const VmafxContext *context, const VmafxFrame *frame,
                                             VmafxError **error);

/**
 * Imports and admits a frame under the import rule: a VMAFX_E_BUSY or VMAFX_E_TIMEOUT is retried
 * once after a host wait on `desc.acquire` of at most `import_retry_wait_ns`; a second or any other
 * failure names the input, backend, device, memory kind, format, depth, size, modifiers, cause and
 * attempts. Never a host copy.
 */
VMAFX_EXPORT VmafxStatus vmafx_context_import_frame(VmafxContext *context, VmafxDevice *device,
                                                    const VmafxFrameImport *desc, const char *input,
                                                    VmafxFrame **out, VmafxError **error);

/**
 * Sets a context option: `perceptual_weight` (`0` / `1`), `perceptual_weight_strength` (a finite
 * number >= 0; default 1) or `check_sample_range` (`0` / `1`, off by default: vmafx_submit()
 * refuses a pair with a sample of a 9- to 15-bit frame above 2^bpc - 1 with VMAFX_E_INVALID naming
 * the input, its plane, row, column and value). VMAFX_E_NOTFOUND names an unknown key,
 * VMAFX_E_INVALID a value the key refuses (both VMAFX_SUBJECT_OPTION). With `perceptual_weight` on,
 * frames given side data by vmafx_context_attach_sidedata() weigh 1 + strength * salience in pooled
 * means.
 */
VMAFX_EXPORT VmafxStatus vmafx_context_set_option(VmafxContext *context, const char *key,
                                                  const char *value, VmafxError **error);

/**
 * Attaches the perceptual side data of frame `index`: a Pelorus interop blob (the UUID-prefixed
 * payload of an unregistered-user-data SEI). The blob is parsed and its salience (VMAFx's ADR-1118
 * formula: banding risk, modulated by variance and complexity) kept for the frame; the blob itself
 * is not retained. While `perceptual_weight` is on, the pooled mean and harmonic mean (score,
 * feature, model set and window) weight the frame by 1 + strength * salience; frames without side
 * data weigh 1. Attaching again replaces the frame's salience. NULL `context` or `data`, `size` 0:
 * VMAFX_E_INVALID; `index` above 2^32 - 1: VMAFX_E_RANGE; a buffer without the Pelorus UUID:
 * VMAFX_E_NOTFOUND naming `data`; another layout major: VMAFX_E_ABI naming `data.abi_major`; a
 * malformed blob: VMAFX_E_INVALID naming the field (`data.total_size`, `data.dir[0].offset`, ...).
 * A refused blob leaves the frame as it was.
 */
VMAFX_EXPORT VmafxStatus vmafx_context_attach_sidedata(VmafxContext *context, uint64_t index,
                                                       const void *data, size_t size,
                                                       VmafxError **error);

/**
 * The colour of the submitted frames that carry none, per input; NULL leaves that input's default
 * as it is. Each member must be a value of its enumeration (else VMAFX_E_INVALID naming it, e.g.
 * `reference.matrix`). Only a model with a `conversion_target` reads frame colour; no model of this
 * build has one, so the defaults are kept and change no score.
 */
VMAFX_EXPORT VmafxStatus vmafx_context_set_default_color(VmafxContext *context,
                                                         const VmafxColor *reference,
                                                         const VmafxColor *distorted,
                                                         VmafxError **error);

/** Scores frame `index`; consumes one reference of each frame on every path, failures included. */
VMAFX_EXPORT VmafxStatus vmafx_submit(VmafxContext *context, VmafxFrame *reference,
                                      VmafxFrame *distorted, uint64_t index, VmafxError **error);

/** Finishes every submitted frame; scores become final. */
VMAFX_EXPORT VmafxStatus vmafx_flush(VmafxContext *context, VmafxError **error);

/** The VmafxBackend the context scores on; CPU for NULL. */
VMAFX_EXPORT uint32_t vmafx_context_backend(const VmafxContext *context);

/**
 * How many earlier reference frames the context keeps after vmafx_submit() returns: as many as its
 * registered extractors read (0 when none reads an earlier frame, as psnr; 1 for a reader of frame
 * n-1, as motion; 2 for a reader of frame n-2, as motion with motion_five_frame_window). 0 for
 * NULL. ABI 0.1.11.
 */
VMAFX_EXPORT uint32_t vmafx_context_frame_retention(const VmafxContext *context);

/**
 * The most frames of each input the context holds when a submit of frames in index order returns: R
 * + J * (R + 1), R the retention and J the jobs its worker threads may hold (each worker's, plus
 * the temporal lane's with a temporal feature; 0 without threads). A frame submitted ahead of the
 * next index waits in the reorder window and adds one frame of each input until then. Size a
 * producer's pool by it. 0 for NULL. ABI 0.1.11.
 */
VMAFX_EXPORT uint32_t vmafx_context_max_in_flight(const VmafxContext *context);

/**
 * Allocates `count` (1 to 1024) host frames of geometry `desc` for the producer to fill
 * (vmafx_frame_planes()) and submit, once per context (again: VMAFX_E_BUSY naming the context). ABI
 * 0.1.11.
 */
VMAFX_EXPORT VmafxStatus vmafx_context_preallocate(VmafxContext *context,
                                                   const VmafxFrameDesc *desc, uint32_t count,
                                                   VmafxError **error);

/**
 * A free preallocated frame with one reference the caller holds; it returns where its last
 * reference goes, counted like a pool frame. VMAFX_E_BUSY while every frame is in use,
 * VMAFX_E_INVALID naming the context before vmafx_context_preallocate(). ABI 0.1.11.
 */
VMAFX_EXPORT VmafxStatus vmafx_context_acquire_frame(VmafxContext *context, VmafxFrame **out,
                                                     VmafxError **error);

/**
 * Records `value` as the score of `feature` at frame `index`, computed outside the library; read
 * like extracted scores after the flush. Another value for a score the context holds is
 * VMAFX_E_INVALID. ABI 0.1.11.
 */
VMAFX_EXPORT VmafxStatus vmafx_context_import_score(VmafxContext *context, const char *feature,
                                                    uint64_t index, double value,
                                                    VmafxError **error);

/**
 * Scores with `model`: registers the features it reads and holds a reference until the context is
 * destroyed. Before the first frame, like features; using the same model twice is harmless.
 */
VMAFX_EXPORT VmafxStatus vmafx_context_use_model(VmafxContext *context, VmafxModel *model,
                                                 VmafxError **error);

/**
 * Scores with every model of `set`: registers their features and holds a reference to the set until
 * the context is destroyed. Its lead then scores through vmafx_score_frame() too.
 */
VMAFX_EXPORT VmafxStatus vmafx_context_use_model_set(VmafxContext *context, VmafxModelSet *set,
                                                     VmafxError **error);

/** Number of registered feature extractors; 0 for NULL. */
VMAFX_EXPORT uint32_t vmafx_context_extractor_count(const VmafxContext *context);

/**
 * Describes registered extractor `index` (registration order); VMAFX_E_NOTFOUND naming `index` past
 * the last one.
 */
VMAFX_EXPORT VmafxStatus vmafx_context_extractor_info(const VmafxContext *context, uint32_t index,
                                                      VmafxExtractorInfo *out, VmafxError **error);

/**
 * Which extractor would compute the CPU extractor `extractor` with `options` (may be NULL) on this
 * context, for frames of `frame` (may be NULL: no geometry check). On the CPU it is the extractor
 * itself. VMAFX_E_NOTFOUND names an unknown extractor; an option it does not take or a geometry no
 * frame may have is refused as vmafx_context_use_feature() and vmafx_frame_create_host() refuse
 * them.
 */
VMAFX_EXPORT VmafxStatus vmafx_feature_resolve(const VmafxContext *context, const char *extractor,
                                               const VmafxOptions *options,
                                               const VmafxFrameDesc *frame,
                                               VmafxFeatureResolution *out, VmafxError **error);

/** Sets `key` to `value` in `*options`, creating the set when `*options` is NULL. */
VMAFX_EXPORT VmafxStatus vmafx_options_set(VmafxOptions **options, const char *key,
                                           const char *value, VmafxError **error);

/** Releases an option set; NULL is a no-op. */
VMAFX_EXPORT void vmafx_options_free(VmafxOptions *options);

#ifdef __cplusplus
}
#endif

#endif /* VMAFX_CONTEXT_H */
