//! What a model reads: one named input feature and the options it is extracted with.

/// One input feature of a model.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ModelFeature {
    /// The long name as in the JSON (`VMAF_integer_feature_adm2_score`).
    pub name: String,
    /// Options from `feature_opts_dicts` (and spec overloads), values as text in libvmaf's
    /// form (numbers via `%g`: `1.0` → `1`), in the order given.
    pub options: Vec<(String, String)>,
}
