//! model.h (models) and score.h (feature and model scores, pooled scores).

use super::items::{Header, Item};
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
            func!(model::vmafx_model_load, "VmafxStatus", "const VmafxModelConfig *config, const char *version,\n                                          VmafxModel **out, VmafxError **error", "Loads the built-in model `version` (see vmafx_model_builtin_next()); `config` may be NULL. VMAFX_E_NOTFOUND names an unknown version, VMAFX_E_INVALID a model set, VMAFX_E_INVALID `config.log_level` a level that is not a VmafxLogLevel."),
            func!(model::vmafx_model_load_file, "VmafxStatus", "const VmafxModelConfig *config, const char *path,\n                                               VmafxModel **out, VmafxError **error", "Loads a JSON model file (UTF-8 path). VMAFX_E_IO names a file that cannot be read, VMAFX_E_INVALID one that is not a single model."),
            func!(model::vmafx_model_ref, "VmafxModel *", "VmafxModel *model", "Takes one more reference; returns `model` (NULL for NULL)."),
            func!(model::vmafx_model_unref, "void", "VmafxModel *model", "Drops one reference; the last one releases the model. NULL is a no-op."),
            func!(model::vmafx_model_name, "const char *", "const VmafxModel *model", "Name the model's scores are recorded under; NULL for NULL."),
            func!(model::vmafx_model_feature_count, "uint32_t", "const VmafxModel *model", "Number of features the model reads; 0 for NULL."),
            func!(model::vmafx_model_feature_name, "const char *", "const VmafxModel *model, uint32_t index", "Name of feature `index`, or NULL past the last one."),
            func!(crate::model_ops::vmafx_model_hash, "const char *", "const VmafxModel *model", "SHA-256 of the model bytes as loaded, 64 lowercase hex digits (equal to `sha256sum` of the file); lives as long as the model. NULL for NULL."),
            func!(crate::model_ops::vmafx_model_override_feature, "VmafxStatus", "VmafxModel *model, const char *extractor,\n                                                      const VmafxOptions *options, VmafxError **error", "Merges `options` (copied) into the options the model passes to `extractor`. Only while the caller holds the only reference: a model a context uses is immutable (VMAFX_E_BUSY naming `model`); VMAFX_E_NOTFOUND names an extractor the model has no feature of."),
            func!(model::vmafx_model_builtin_next, "const char *", "const char *previous", "The built-in version after `previous`, the first for NULL, NULL after the last or for an unknown `previous`. Built-in model sets are listed too."),
            func!(model::vmafx_model_default_version, "const char *", "void", "Version of the default model (`vmaf_v1.0.16_3d0h`)."),
            Item::Opaque { name: "VmafxModelSet", doc: "A bootstrap model set: a lead model and its member models. Reference-counted." },
            func!(crate::model_set::vmafx_model_set_load, "VmafxStatus", "const VmafxModelConfig *config, const char *version,\n                                              VmafxModelSet **out, VmafxError **error", "Loads the built-in model set `version` (`vmaf_b_v0.6.3`); `config` may be NULL. VMAFX_E_NOTFOUND names an unknown version, VMAFX_E_INVALID one that is not a set."),
            func!(crate::model_set::vmafx_model_set_load_file, "VmafxStatus", "const VmafxModelConfig *config, const char *path,\n                                                   VmafxModelSet **out, VmafxError **error", "Loads a JSON model set file (UTF-8 path); failures as vmafx_model_load_file()."),
            func!(crate::model_set::vmafx_model_set_override_feature, "VmafxStatus", "VmafxModelSet *set, const char *extractor,\n                                                          const VmafxOptions *options,\n                                                          VmafxError **error", "vmafx_model_override_feature() for the lead and every member; VMAFX_E_BUSY naming `set` once the set or its lead is shared."),
            func!(crate::model_set::vmafx_model_set_ref, "VmafxModelSet *", "VmafxModelSet *set", "Takes one more reference; returns `set` (NULL for NULL)."),
            func!(crate::model_set::vmafx_model_set_unref, "void", "VmafxModelSet *set", "Drops one reference; the last releases the set and its models. NULL is a no-op."),
            func!(crate::model_set::vmafx_model_set_lead, "VmafxModel *", "const VmafxModelSet *set", "The set's lead model (its model \"0\"), borrowed: valid as long as the set; take a reference with vmafx_model_ref() to keep it longer. NULL for NULL."),
            func!(crate::model_set::vmafx_model_set_size, "uint32_t", "const VmafxModelSet *set", "Number of member models, without the lead; 0 for NULL."),
            func!(crate::model_set::vmafx_model_set_hash, "const char *", "const VmafxModelSet *set", "SHA-256 of the set's bytes as loaded, as vmafx_model_hash(); NULL for NULL."),
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
            func!(score::vmafx_feature_score, "VmafxStatus", "VmafxContext *context, const char *feature,\n                                             uint64_t index, VmafxScore *out, VmafxError **error", "Score of `feature` (collector key or printed alias) at frame `index` with its producer; VMAFX_PENDING while the frame is not final (before vmafx_flush()). VMAFX_E_RANGE naming `index` at or past the frames scored."),
            func!(score::vmafx_score_frame, "VmafxStatus", "VmafxContext *context, const VmafxModel *model,\n                                           uint64_t index, VmafxScore *out, VmafxError **error", "Score of `model` (used by the context) at frame `index`; VMAFX_PENDING before vmafx_flush(). VMAFX_E_RANGE naming `index` at or past the frames scored."),
            func!(score::vmafx_score_pooled, "VmafxStatus", "VmafxContext *context, const VmafxModel *model,\n                                            uint32_t pool, uint64_t first, uint64_t last,\n                                            VmafxPooledScore *out, VmafxError **error", "`model`'s score pooled with `pool` over frames `first` to `last` (subsampled frames skipped), as libvmaf's vmaf_score_pooled(). VMAFX_E_RANGE naming `first` above `last`, or `last` at or past the frames scored (any `last` when none was), checked before any work."),
            func!(score::vmafx_feature_score_pooled, "VmafxStatus", "VmafxContext *context, const char *feature,\n                                                    uint32_t pool, uint64_t first, uint64_t last,\n                                                    VmafxPooledScore *out, VmafxError **error", "`feature` pooled with `pool` over frames `first` to `last`; out-of-range `first` and `last` as vmafx_score_pooled()."),
            func!(crate::score_set::vmafx_score_frame_model_set, "VmafxStatus", "VmafxContext *context, const VmafxModelSet *set,\n                                                     uint64_t index, VmafxModelSetScore *out,\n                                                     VmafxError **error", "Bootstrap score of `set` (used by the context) at frame `index`; VMAFX_PENDING before vmafx_flush(). VMAFX_E_RANGE naming `index` at or past the frames scored."),
            func!(crate::score_set::vmafx_score_pooled_model_set, "VmafxStatus", "VmafxContext *context, const VmafxModelSet *set,\n                                                      uint32_t pool, uint64_t first, uint64_t last,\n                                                      VmafxModelSetScore *out, VmafxError **error", "Bootstrap score of `set` with each of its four values pooled with `pool` over frames `first` to `last` (subsampled frames skipped); out-of-range `first` and `last` as vmafx_score_pooled()."),
        ]
        .into_iter()
        .chain(super::window_h::window_items())
        .collect(),
    }
}
