//! context.h: contexts, the device order rule, features, models, admission, the import rule.

use super::items::{Header, Item};
use crate::abi::VmafxContextConfig;
use crate::introspect::{VmafxExtractorInfo, VmafxFeatureResolution};
use crate::{context, field, func, import_rule};

/// context.h.
pub fn context_h() -> Header {
    type C = VmafxContextConfig;
    type X = VmafxExtractorInfo;
    type R = VmafxFeatureResolution;
    let size = "Size of the struct as the caller compiled it; set by the _INIT macro.";
    Header {
        path: "include/vmafx/context.h",
        guard: "VMAFX_CONTEXT_H",
        brief: "Contexts: configuration, device, features, admission, the import rule, submit, flush, scores.",
        includes: vec!["<stddef.h>", "<stdint.h>", "<vmafx/types.h>", "<vmafx/error.h>", "<vmafx/device.h>", "<vmafx/frame.h>", "<vmafx/model.h>"],
        items: vec![
            Item::Opaque { name: "VmafxContext", doc: "One scoring session." },
            Item::Raw("typedef struct VmafxContextConfig VmafxContextConfig;".into()),
            Item::Struct {
                name: "VmafxContextConfig",
                doc: "How a context runs. Initialise with VMAFX_CONTEXT_CONFIG_INIT.",
                fields: vec![
                    field!(C, struct_size, "uint32_t", size),
                    field!(C, log_level, "uint32_t", "A VmafxLogLevel."),
                    field!(C, n_threads, "uint32_t", "Worker threads; 0 extracts on the calling thread."),
                    field!(C, n_subsample, "uint32_t", "Score every n-th frame; 0 and 1 score every frame."),
                    field!(C, cpumask, "uint64_t", "CPU instruction-set bits to disable (accepted, unused)."),
                    field!(C, gpumask, "uint64_t", "GPU dispatch bits to disable (accepted, unused)."),
                    field!(C, log_callback, "VmafxLogCallback", "Receives the context's log lines; NULL: stderr (ABI 0.1.1)."),
                    field!(C, log_user, "void *", "Passed to `log_callback` (ABI 0.1.1)."),
                    field!(C, import_retry_wait_ns, "uint64_t", "Longest host wait on the acquire fence before the import rule's one retry: 1 ns to 10 minutes; 0 is 10 s. Above is VMAFX_E_RANGE naming `config.import_retry_wait_ns`, never clamped (ABI 0.1.3)."),
                ],
                rust_size: std::mem::size_of::<C>(),
                init: "VMAFX_CONTEXT_CONFIG_INIT",
                init_extra: "",
            },
            Item::Raw("typedef struct VmafxExtractorInfo VmafxExtractorInfo;\ntypedef struct VmafxFeatureResolution VmafxFeatureResolution;".into()),
            Item::Struct {
                name: "VmafxExtractorInfo",
                doc: "One registered feature extractor.",
                fields: vec![
                    field!(X, struct_size, "uint32_t", size),
                    field!(X, backend, "uint32_t", "The VmafxBackend the extractor runs on."),
                    field!(X, name, "const char *", "Extractor name (`psnr`, `adm`); lives for the process lifetime."),
                ],
                rust_size: std::mem::size_of::<X>(),
                init: "VMAFX_EXTRACTOR_INFO_INIT",
                init_extra: "",
            },
            Item::Struct {
                name: "VmafxFeatureResolution",
                doc: "Which extractor computes a feature on a context. Strings live for the process lifetime.",
                fields: vec![
                    field!(R, struct_size, "uint32_t", size),
                    field!(R, backend, "uint32_t", "The VmafxBackend of `extractor`."),
                    field!(R, extractor, "const char *", "The extractor that computes the feature: on the CPU the extractor itself, under its own name."),
                    field!(R, unsupported_option, "const char *", "The option a device twin cannot honour when the call returns VMAFX_E_NOTSUP, else NULL (always NULL on the CPU)."),
                ],
                rust_size: std::mem::size_of::<R>(),
                init: "VMAFX_FEATURE_RESOLUTION_INIT",
                init_extra: "",
            },
            func!(context::vmafx_context_create, "VmafxStatus", "const VmafxContextConfig *config, VmafxContext **out,\n                                              VmafxError **error", "Creates a context (`config` NULL: defaults); `*out` is NULL on failure."),
            func!(context::vmafx_context_destroy, "VmafxStatus", "VmafxContext *context, VmafxError **error", "Destroys a context with its device reference and frames."),
            func!(context::vmafx_context_use_device, "VmafxStatus", "VmafxContext *context, VmafxDevice *device,\n                                                  VmafxError **error", "Scores on `device`, holding a reference until destroyed. Once (again: VMAFX_E_BUSY naming the device), before any feature, model or frame (after: VMAFX_E_INVALID naming the context)."),
            func!(context::vmafx_context_use_feature, "VmafxStatus", "VmafxContext *context, const char *extractor,\n                                                   const VmafxOptions *options, VmafxError **error", "Registers extractor `extractor` with `options` (copied; may be NULL)."),
            func!(context::vmafx_context_admit, "VmafxStatus", "const VmafxContext *context, const VmafxFrame *frame,\n                                             VmafxError **error", "Whether every registered extractor reads `frame` where it lives, without a host copy; VMAFX_E_NOTSUP names each refusing extractor."),
            func!(import_rule::vmafx_context_import_frame, "VmafxStatus", "VmafxContext *context, VmafxDevice *device,\n                                                    const VmafxFrameImport *desc, const char *input,\n                                                    VmafxFrame **out, VmafxError **error", "Imports and admits a frame under the import rule: a VMAFX_E_BUSY or VMAFX_E_TIMEOUT is retried once after a host wait on `desc.acquire` of at most `import_retry_wait_ns`; a second or any other failure names the input, backend, device, memory kind, format, depth, size, modifiers, cause and attempts. Never a host copy."),
            func!(context::vmafx_submit, "VmafxStatus", "VmafxContext *context, VmafxFrame *reference,\n                                      VmafxFrame *distorted, uint64_t index, VmafxError **error", "Scores frame `index`; consumes one reference of each frame on every path, failures included."),
            func!(context::vmafx_flush, "VmafxStatus", "VmafxContext *context, VmafxError **error", "Finishes every submitted frame; scores become final."),
            func!(context::vmafx_context_backend, "uint32_t", "const VmafxContext *context", "The VmafxBackend the context scores on; CPU for NULL."),
            func!(crate::producer::vmafx_context_frame_retention, "uint32_t", "const VmafxContext *context", "How many earlier reference frames the context keeps after vmafx_submit() returns: as many as its registered extractors read (0 when none reads an earlier frame, as psnr; 1 for a reader of frame n-1, as motion; 2 for a reader of frame n-2, as motion with motion_five_frame_window). 0 for NULL. ABI 0.1.11."),
            func!(crate::producer::vmafx_context_max_in_flight, "uint32_t", "const VmafxContext *context", "The most frames of each input the context holds when a submit of frames in index order returns: R + J * (R + 1), R the retention and J the jobs its worker threads may hold (each worker's, plus the temporal lane's with a temporal feature; 0 without threads). A frame submitted ahead of the next index waits in the reorder window and adds one frame of each input until then. Size a producer's pool by it. 0 for NULL. ABI 0.1.11."),
            func!(crate::producer::vmafx_context_preallocate, "VmafxStatus", "VmafxContext *context, const VmafxFrameDesc *desc,\n                                                   uint32_t count, VmafxError **error", "Allocates `count` (1 to 1024) host frames of geometry `desc` for the producer to fill (vmafx_frame_planes()) and submit, once per context (again: VMAFX_E_BUSY naming the context). ABI 0.1.11."),
            func!(crate::producer::vmafx_context_acquire_frame, "VmafxStatus", "VmafxContext *context, VmafxFrame **out,\n                                                     VmafxError **error", "A free preallocated frame with one reference the caller holds; it returns where its last reference goes, counted like a pool frame. VMAFX_E_BUSY while every frame is in use, VMAFX_E_INVALID naming the context before vmafx_context_preallocate(). ABI 0.1.11."),
            func!(crate::producer::vmafx_context_import_score, "VmafxStatus", "VmafxContext *context, const char *feature,\n                                                    uint64_t index, double value, VmafxError **error", "Records `value` as the score of `feature` at frame `index`, computed outside the library; read like extracted scores after the flush. Another value for a score the context holds is VMAFX_E_INVALID. ABI 0.1.11."),
            func!(crate::score::vmafx_context_use_model, "VmafxStatus", "VmafxContext *context, VmafxModel *model,\n                                                 VmafxError **error", "Scores with `model`: registers the features it reads and holds a reference until the context is destroyed. Before the first frame, like features; using the same model twice is harmless."),
            func!(crate::score_set::vmafx_context_use_model_set, "VmafxStatus", "VmafxContext *context, VmafxModelSet *set,\n                                                     VmafxError **error", "Scores with every model of `set`: registers their features and holds a reference to the set until the context is destroyed. Its lead then scores through vmafx_score_frame() too."),
            func!(crate::introspect::vmafx_context_extractor_count, "uint32_t", "const VmafxContext *context", "Number of registered feature extractors; 0 for NULL."),
            func!(crate::introspect::vmafx_context_extractor_info, "VmafxStatus", "const VmafxContext *context, uint32_t index,\n                                                      VmafxExtractorInfo *out, VmafxError **error", "Describes registered extractor `index` (registration order); VMAFX_E_NOTFOUND naming `index` past the last one."),
            func!(crate::introspect::vmafx_feature_resolve, "VmafxStatus", "const VmafxContext *context, const char *extractor,\n                                               const VmafxOptions *options,\n                                               const VmafxFrameDesc *frame,\n                                               VmafxFeatureResolution *out, VmafxError **error", "Which extractor would compute the CPU extractor `extractor` with `options` (may be NULL) on this context, for frames of `frame` (may be NULL: no geometry check). On the CPU it is the extractor itself. VMAFX_E_NOTFOUND names an unknown extractor; an option it does not take or a geometry no frame may have is refused as vmafx_context_use_feature() and vmafx_frame_create_host() refuse them."),
            func!(crate::options::vmafx_options_set, "VmafxStatus", "VmafxOptions **options, const char *key,\n                                           const char *value, VmafxError **error", "Sets `key` to `value` in `*options`, creating the set when `*options` is NULL."),
            func!(crate::options::vmafx_options_free, "void", "VmafxOptions *options", "Releases an option set; NULL is a no-op."),
        ],
    }
}
