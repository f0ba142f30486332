//! context.h: contexts, the device order rule, features, models, admission, the import rule.

use crate::abi::VmafxContextConfig;
use crate::header_items::{Header, Item};
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
            func!(context::vmafx_context_create),
            func!(context::vmafx_context_destroy),
            func!(context::vmafx_context_use_device),
            func!(context::vmafx_context_use_feature),
            func!(context::vmafx_context_admit),
            func!(import_rule::vmafx_context_import_frame),
            func!(crate::context_options::vmafx_context_set_option),
            func!(crate::context_options::vmafx_context_attach_sidedata),
            func!(crate::context_options::vmafx_context_set_default_color),
            func!(context::vmafx_submit),
            func!(context::vmafx_flush),
            func!(context::vmafx_context_backend),
            func!(crate::producer::vmafx_context_frame_retention),
            func!(crate::producer::vmafx_context_max_in_flight),
            func!(crate::producer::vmafx_context_preallocate),
            func!(crate::producer::vmafx_context_acquire_frame),
            func!(crate::producer::vmafx_context_import_score),
            func!(crate::score::vmafx_context_use_model),
            func!(crate::score_set::vmafx_context_use_model_set),
            func!(crate::introspect::vmafx_context_extractor_count),
            func!(crate::introspect::vmafx_context_extractor_info),
            func!(crate::introspect::vmafx_feature_resolve),
            func!(crate::options::vmafx_options_set),
            func!(crate::options::vmafx_options_free),
        ],
    }
}
