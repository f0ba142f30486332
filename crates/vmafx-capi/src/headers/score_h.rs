//! model.h (models) and score.h (feature and model scores, pooled scores).

use crate::header_items::{Header, Item};
use crate::model::{
    self, VmafxModelConfig, MODEL_DISABLE_CLIP, MODEL_DISABLE_TRANSFORM, MODEL_ENABLE_TRANSFORM,
};
use crate::score::{self, VmafxPooledScore, VmafxScore};
use crate::{field, func};

const SIZE: &str = "Size of this struct as the caller compiled it; set by the _INIT macro.";

fn flag(name: &'static str, bit: u64, doc: &'static str) -> Item {
    Item::Define {
        name,
        value: format!("(UINT64_C(1) << {}U)", bit.trailing_zeros()),
        doc,
    }
}

/// model.h.
pub fn model_h() -> Header {
    type M = VmafxModelConfig;
    Header {
        path: "include/vmafx/model.h",
        guard: "VMAFX_MODEL_H",
        brief: "Models and model sets: built-in versions and JSON files, hashes, feature overrides.",
        includes: vec!["<stddef.h>", "<stdint.h>", "<vmafx/types.h>", "<vmafx/error.h>"],
        items: vec![
            flag("VMAFX_MODEL_DISABLE_CLIP", MODEL_DISABLE_CLIP, "Model load flag: do not clip the score to the model's range."),
            flag("VMAFX_MODEL_ENABLE_TRANSFORM", MODEL_ENABLE_TRANSFORM, "Model load flag: apply the model's score transform."),
            flag("VMAFX_MODEL_DISABLE_TRANSFORM", MODEL_DISABLE_TRANSFORM, "Model load flag: do not apply the score transform (VMAFX_E_NOTSUP in this build)."),
            Item::Opaque { name: "VmafxModel", doc: "A loaded model. Reference-counted; a context that uses it holds a reference." },
            Item::Raw("typedef struct VmafxModelConfig VmafxModelConfig;".into()),
            Item::Struct {
                name: "VmafxModelConfig",
                doc: "How to load a model. Initialise with VMAFX_MODEL_CONFIG_INIT.",
                fields: vec![
                    field!(M, struct_size, "uint32_t", SIZE),
                    field!(M, name, "const char *", "Name of the model's scores (copied); NULL: `vmaf`."),
                    field!(M, flags, "uint64_t", "VMAFX_MODEL_* bits; 0 keeps the model file's defaults."),
                    field!(M, log_level, "uint32_t", "A VmafxLogLevel: the messages `log_callback` receives."),
                    field!(M, log_callback, "VmafxLogCallback", "Receives, at VMAFX_LOG_LEVEL_ERROR, a load failure reported without an error out-parameter (a model belongs to no context); NULL: stderr."),
                    field!(M, log_user, "void *", "Passed to `log_callback`."),
                ],
                rust_size: std::mem::size_of::<M>(),
                init: "VMAFX_MODEL_CONFIG_INIT",
                init_extra: "",
            },
            func!(model::vmafx_model_load),
            func!(model::vmafx_model_load_file),
            func!(model::vmafx_model_ref),
            func!(model::vmafx_model_unref),
            func!(model::vmafx_model_name),
            func!(model::vmafx_model_feature_count),
            func!(model::vmafx_model_feature_name),
            func!(crate::model_ops::vmafx_model_hash),
            func!(crate::model_ops::vmafx_model_override_feature),
            func!(model::vmafx_model_builtin_next),
            func!(model::vmafx_model_default_version),
            Item::Opaque { name: "VmafxModelSet", doc: "A bootstrap model set: a lead model and its member models. Reference-counted." },
            func!(crate::model_set::vmafx_model_set_load),
            func!(crate::model_set::vmafx_model_set_load_file),
            func!(crate::model_set::vmafx_model_set_override_feature),
            func!(crate::model_set::vmafx_model_set_ref),
            func!(crate::model_set::vmafx_model_set_unref),
            func!(crate::model_set::vmafx_model_set_lead),
            func!(crate::model_set::vmafx_model_set_size),
            func!(crate::model_set::vmafx_model_set_hash),
        ],
    }
}

/// score.h.
pub fn score_h() -> Header {
    type S = VmafxScore;
    type P = VmafxPooledScore;
    type Q = crate::score_set::VmafxModelSetScore;
    Header {
        path: "include/vmafx/score.h",
        guard: "VMAFX_SCORE_H",
        brief: "Frame scores, pooled scores and windows.",
        includes: vec!["<stddef.h>", "<stdint.h>", "<vmafx/types.h>", "<vmafx/error.h>", "<vmafx/context.h>", "<vmafx/model.h>"],
        items: vec![
            Item::Raw("typedef struct VmafxScore VmafxScore;\ntypedef struct VmafxPooledScore VmafxPooledScore;".into()),
            Item::Struct {
                name: "VmafxScore",
                doc: "One score and the extractor that produced it.",
                fields: vec![
                    field!(S, struct_size, "uint32_t", SIZE),
                    field!(S, backend, "uint32_t", "VmafxBackend of the producing extractor (the context's)."),
                    field!(S, index, "uint64_t", "Frame index."),
                    field!(S, value, "double", "Score."),
                    field!(S, feature, "const char *", "Feature name as requested; the model's name for a model score."),
                    field!(S, extractor, "const char *", "Registered extractor that declares the feature, or NULL (model scores, option-decorated names)."),
                ],
                rust_size: std::mem::size_of::<S>(),
                init: "VMAFX_SCORE_INIT",
                init_extra: "",
            },
            Item::Struct {
                name: "VmafxPooledScore",
                doc: "A score pooled over frames `first` to `last`.",
                fields: vec![
                    field!(P, struct_size, "uint32_t", SIZE),
                    field!(P, pool, "uint32_t", "Pooling method (a VmafxPool)."),
                    field!(P, first, "uint64_t", "First frame pooled."),
                    field!(P, last, "uint64_t", "Last frame pooled."),
                    field!(P, value, "double", "Pooled score."),
                    field!(P, feature, "const char *", "Feature or model name."),
                ],
                rust_size: std::mem::size_of::<P>(),
                init: "VMAFX_POOLED_SCORE_INIT",
                init_extra: "",
            },
            Item::Raw("typedef struct VmafxModelSetScore VmafxModelSetScore;".into()),
            Item::Struct {
                name: "VmafxModelSetScore",
                doc: "The bootstrap score of a model set at one frame or pooled over frames.",
                fields: vec![
                    field!(Q, struct_size, "uint32_t", SIZE),
                    field!(Q, pool, "uint32_t", "Pooling method (a VmafxPool); VMAFX_POOL_NONE for a per-frame score."),
                    field!(Q, first, "uint64_t", "First frame (the frame of a per-frame score)."),
                    field!(Q, last, "uint64_t", "Last frame (inclusive)."),
                    field!(Q, bagging, "double", "Mean of the member models' scores."),
                    field!(Q, stddev, "double", "Standard deviation of the members' scores."),
                    field!(Q, ci95_lo, "double", "Lower bound of the 95% confidence interval."),
                    field!(Q, ci95_hi, "double", "Upper bound of the 95% confidence interval."),
                    field!(Q, name, "const char *", "Name of the model set; lives as long as the set."),
                ],
                rust_size: std::mem::size_of::<Q>(),
                init: "VMAFX_MODEL_SET_SCORE_INIT",
                init_extra: "",
            },
            func!(score::vmafx_feature_score),
            func!(score::vmafx_score_frame),
            func!(score::vmafx_score_pooled),
            func!(score::vmafx_feature_score_pooled),
            func!(crate::score_set::vmafx_score_frame_model_set),
            func!(crate::score_set::vmafx_score_pooled_model_set),
        ]
        .into_iter()
        .chain(super::window_h::window_items())
        .collect(),
    }
}
