//! Reading libvmaf's JSON model format (`{"model_dict": {...}}`) into a [`SvmModel`].
//!
//! Fields read, as libvmaf reads them: `model_type`, `norm_type`, `slopes` and `intercepts`
//! (entry 0 for the prediction, then one per feature), `feature_names`,
//! `feature_opts_dicts`, `score_transform`, `score_clip`, `chroma_correction_parameter` and
//! `model` (the libsvm text). Other keys (`feature_dict`, `param_dict`, ...) are ignored.
//! Every error names the model (its version or path) and the field.

use serde_json::{Map, Value};

use super::input::ModelFeature;
use super::numtext::normalize_numeric;
use super::single::{ModelType, SvmModel};
use super::svm::Svm;
use super::transform::{Norm, ScoreTransform};
use crate::error::{Error, Result};

/// libvmaf's limit on features per model.
pub const MAX_FEATURES: usize = 64;
/// libvmaf's limit on score-transform knots.
pub const MAX_KNOTS: usize = 10;

/// How the model spec changes reading (libvmaf applies these flags while parsing).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ReadFlags {
    /// `enable_transform`: turn on a `score_transform` the model has but leaves disabled.
    pub enable_transform: bool,
    /// `disable_clip`: ignore `score_clip`.
    pub disable_clip: bool,
}

/// Field access that names the model and the field path in its errors.
pub(crate) struct Reader<'a> {
    pub subject: &'a str,
}

impl Reader<'_> {
    pub(super) fn err(&self, field: &str, msg: impl std::fmt::Display) -> Error {
        Error::invalid(self.subject, format!("{field}: {msg}"))
    }

    pub(super) fn object<'v>(&self, v: &'v Value, field: &str) -> Result<&'v Map<String, Value>> {
        v.as_object()
            .ok_or_else(|| self.err(field, format!("expected an object, found {}", kind(v))))
    }

    fn required<'v>(
        &self,
        obj: &'v Map<String, Value>,
        path: &str,
        key: &str,
    ) -> Result<&'v Value> {
        obj.get(key)
            .ok_or_else(|| self.err(&format!("{path}.{key}"), "missing field"))
    }

    fn string<'v>(&self, v: &'v Value, field: &str) -> Result<&'v str> {
        v.as_str()
            .ok_or_else(|| self.err(field, format!("expected a string, found {}", kind(v))))
    }

    fn number(&self, v: &Value, field: &str) -> Result<f64> {
        let n = v
            .as_f64()
            .ok_or_else(|| self.err(field, format!("expected a number, found {}", kind(v))))?;
        if !n.is_finite() {
            return Err(self.err(field, format!("{n} is not finite")));
        }
        Ok(n)
    }

    fn array<'v>(&self, v: &'v Value, field: &str) -> Result<&'v Vec<Value>> {
        v.as_array()
            .ok_or_else(|| self.err(field, format!("expected an array, found {}", kind(v))))
    }

    fn numbers(&self, v: &Value, field: &str) -> Result<Vec<f64>> {
        self.array(v, field)?
            .iter()
            .enumerate()
            .map(|(i, x)| self.number(x, &format!("{field}[{i}]")))
            .collect()
    }
}

/// The JSON type of `v`, for messages.
pub(crate) fn kind(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// Reads the model in `top` (an object with `model_dict`), naming it `name` in outputs and
/// `subject` in errors.
pub(super) fn read_model(
    subject: &str,
    name: &str,
    top: &Value,
    flags: ReadFlags,
) -> Result<SvmModel> {
    let r = Reader { subject };
    let top = r.object(top, "model")?;
    let dict = r.object(r.required(top, "model", "model_dict")?, "model_dict")?;
    let path = "model_dict";
    let field = |k: &str| format!("{path}.{k}");

    let type_text = r.string(r.required(dict, path, "model_type")?, &field("model_type"))?;
    let model_type = ModelType::from_json(type_text).ok_or_else(|| {
        r.err(
            &field("model_type"),
            format!("unknown model type '{type_text}' (known: LIBSVMNUSVR, BOOTSTRAP_LIBSVMNUSVR, RESIDUEBOOTSTRAP_LIBSVMNUSVR)"),
        )
    })?;

    let norm_text = r.string(r.required(dict, path, "norm_type")?, &field("norm_type"))?;
    let norm = match norm_text {
        "linear_rescale" => Norm::LinearRescale,
        "none" => Norm::None,
        other => {
            return Err(r.err(
                &field("norm_type"),
                format!("unknown norm type '{other}' (known: linear_rescale, none)"),
            ))
        }
    };

    let names = r.array(
        r.required(dict, path, "feature_names")?,
        &field("feature_names"),
    )?;
    if names.len() > MAX_FEATURES {
        return Err(r.err(
            &field("feature_names"),
            format!("{} features, at most {MAX_FEATURES} allowed", names.len()),
        ));
    }
    let mut features = Vec::with_capacity(names.len());
    for (i, n) in names.iter().enumerate() {
        let name = r.string(n, &format!("{}[{i}]", field("feature_names")))?;
        features.push(ModelFeature {
            name: name.to_string(),
            options: Vec::new(),
        });
    }
    if let Some(dicts) = dict.get("feature_opts_dicts") {
        read_feature_options(&r, dicts, &mut features)?;
    }

    let scales = |key: &str| -> Result<Option<Vec<f64>>> {
        let Some(v) = dict.get(key) else {
            return Ok(None);
        };
        let values = r.numbers(v, &field(key))?;
        if values.len() != features.len() + 1 {
            return Err(r.err(
                &field(key),
                format!(
                    "mismatched lengths: {} entries for {} features (one for the score, then one per feature)",
                    values.len(),
                    features.len()
                ),
            ));
        }
        Ok(Some(values))
    };
    let (slopes, intercepts) = (scales("slopes")?, scales("intercepts")?);
    let (slopes, intercepts) = match (norm, slopes, intercepts) {
        (_, Some(s), Some(i)) => (s, i),
        (Norm::None, s, i) => {
            let ones = vec![1.0; features.len() + 1];
            let zeros = vec![0.0; features.len() + 1];
            (s.unwrap_or(ones), i.unwrap_or(zeros))
        }
        (Norm::LinearRescale, None, _) => {
            return Err(r.err(
                &field("slopes"),
                "missing field (norm_type is linear_rescale)",
            ))
        }
        (Norm::LinearRescale, _, None) => {
            return Err(r.err(
                &field("intercepts"),
                "missing field (norm_type is linear_rescale)",
            ))
        }
    };
    if norm == Norm::LinearRescale && slopes[0] == 0.0 {
        return Err(r.err(&field("slopes"), "slope 0 of the score cannot be inverted"));
    }

    let mut transform = ScoreTransform::default();
    if let Some(t) = dict.get("score_transform") {
        transform = read_transform(&r, t, &field("score_transform"))?;
        if flags.enable_transform {
            transform.enabled = true;
        }
    }

    let clip = match dict.get("score_clip") {
        None => None,
        Some(v) => {
            let c = r.numbers(v, &field("score_clip"))?;
            if c.len() != 2 {
                return Err(r.err(
                    &field("score_clip"),
                    format!("expected [min, max], found {} numbers", c.len()),
                ));
            }
            (!flags.disable_clip).then_some((c[0], c[1]))
        }
    };

    let chroma_correction = match dict.get("chroma_correction_parameter") {
        None => None,
        Some(v) => {
            let f = field("chroma_correction_parameter");
            let c = r.number(v, &f)?;
            if c == 0.0 {
                return Err(r.err(&f, "0 is not supported (libvmaf predicts no score with it)"));
            }
            for sub in ["adm3", "speed_chroma"] {
                let n = features.iter().filter(|x| x.name.contains(sub)).count();
                if n > 1 {
                    return Err(r.err(&f, format!("'{sub}' names {n} features; it must name one")));
                }
            }
            Some(c)
        }
    };

    let svm_text = r.string(r.required(dict, path, "model")?, &field("model"))?;
    let svm = Svm::parse(subject, svm_text)?;

    Ok(SvmModel {
        source: subject.to_string(),
        name: name.to_string(),
        model_type,
        norm,
        out_scale: (slopes[0], intercepts[0]),
        feature_scale: slopes[1..]
            .iter()
            .copied()
            .zip(intercepts[1..].iter().copied())
            .collect(),
        features,
        clip,
        transform,
        chroma_correction,
        svm,
    })
}

/// `feature_opts_dicts`: one object per feature; numbers become libvmaf's `%g` text of
/// their `float` value, booleans `true`/`false`, strings stay.
fn read_feature_options(r: &Reader, v: &Value, features: &mut [ModelFeature]) -> Result<()> {
    let field = "model_dict.feature_opts_dicts";
    let dicts = r.array(v, field)?;
    if dicts.len() != features.len() {
        return Err(r.err(
            field,
            format!(
                "mismatched lengths: {} option dicts for {} feature_names",
                dicts.len(),
                features.len()
            ),
        ));
    }
    for (i, (d, feature)) in dicts.iter().zip(features.iter_mut()).enumerate() {
        let here = format!("{field}[{i}]");
        for (key, value) in r.object(d, &here)? {
            let text = match value {
                Value::Number(n) => {
                    let raw = n.to_string();
                    normalize_numeric(&raw).unwrap_or(raw)
                }
                Value::Bool(b) => b.to_string(),
                Value::String(s) => s.clone(),
                other => {
                    return Err(r.err(
                        &format!("{here}.{key}"),
                        format!(
                            "expected a number, boolean or string, found {}",
                            kind(other)
                        ),
                    ))
                }
            };
            feature.options.push((key.clone(), text));
        }
    }
    Ok(())
}

/// `score_transform`: `enabled` (default false), `p0`/`p1`/`p2` (number or null), `knots`
/// (array of `[x, y]` or null), `out_lte_in`/`out_gte_in` (the string `"true"` sets them).
fn read_transform(r: &Reader, v: &Value, field: &str) -> Result<ScoreTransform> {
    let obj = r.object(v, field)?;
    let mut t = ScoreTransform::default();
    for (key, value) in obj {
        let here = format!("{field}.{key}");
        match key.as_str() {
            "enabled" => {
                t.enabled = value.as_bool().ok_or_else(|| {
                    r.err(&here, format!("expected a boolean, found {}", kind(value)))
                })?;
            }
            "p0" | "p1" | "p2" => {
                let p = if value.is_null() {
                    None
                } else {
                    Some(r.number(value, &here)?)
                };
                match key.as_str() {
                    "p0" => t.p0 = p,
                    "p1" => t.p1 = p,
                    _ => t.p2 = p,
                }
            }
            "knots" => {
                if value.is_null() {
                    t.knots = None;
                    continue;
                }
                let list = r.array(value, &here)?;
                if list.len() > MAX_KNOTS {
                    return Err(r.err(&here, format!("{} knots, at most {MAX_KNOTS}", list.len())));
                }
                let mut knots = Vec::with_capacity(list.len());
                for (i, k) in list.iter().enumerate() {
                    let p = r.numbers(k, &format!("{here}[{i}]"))?;
                    if p.len() != 2 {
                        return Err(r.err(
                            &format!("{here}[{i}]"),
                            format!("expected [x, y], found {} numbers", p.len()),
                        ));
                    }
                    knots.push((p[0], p[1]));
                }
                t.knots = Some(knots);
            }
            "out_lte_in" | "out_gte_in" => {
                let on = r.string(value, &here)? == "true";
                if key == "out_lte_in" {
                    t.out_lte_in = on;
                } else {
                    t.out_gte_in = on;
                }
            }
            _ => {}
        }
    }
    Ok(t)
}
