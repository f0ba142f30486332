//! The `--model` option string, as libvmaf's command line takes it:
//! `version=vmaf_v0.6.1:name=vmaf:enable_transform:disable_clip`, or `path=model.json`,
//! plus feature overloads `extractor.option=value` (`adm.adm_enhn_gain_limit=1.0`) that set
//! an option on every model feature that extractor computes.

use std::path::PathBuf;

use super::numtext::normalize_numeric;
use crate::error::{Error, Result};

/// Where a model comes from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ModelSource {
    /// A built-in model by version (`version=`).
    Version(String),
    /// A JSON file (`path=`).
    Path(PathBuf),
}

/// A feature option set through the model spec (`extractor.option=value`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FeatureOverload {
    /// The extractor's libvmaf name (`adm`, `vif`, `motion`, ...).
    pub extractor: String,
    /// The option's name.
    pub option: String,
    /// The value as text (numbers in libvmaf's `%g` form).
    pub value: String,
}

/// A parsed `--model` specification.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ModelSpec {
    /// Built-in version or file.
    pub source: ModelSource,
    /// The output name (`vmaf` by default).
    pub name: String,
    /// `disable_clip`: do not clip scores to the model's range.
    pub disable_clip: bool,
    /// `enable_transform`: apply the model's score transform even if it is not enabled.
    pub enable_transform: bool,
    /// Feature options overriding the model's `feature_opts_dicts`, in the order given.
    pub overloads: Vec<FeatureOverload>,
}

impl ModelSpec {
    /// libvmaf's default model: `version=vmaf_v0.6.1`, named `vmaf`.
    pub fn default_model() -> ModelSpec {
        ModelSpec::version("vmaf_v0.6.1")
    }

    /// The built-in model `version`, named `vmaf`, flags off.
    pub fn version(version: &str) -> ModelSpec {
        ModelSpec {
            source: ModelSource::Version(version.to_string()),
            name: "vmaf".to_string(),
            disable_clip: false,
            enable_transform: false,
            overloads: Vec::new(),
        }
    }

    /// Parses a colon-separated option string. Unknown keys, missing values, a spec with
    /// neither or both of `version=` and `path=` are refused, naming the offending part.
    pub fn parse<'a>(s: &'a str) -> Result<ModelSpec> {
        let subject = "model";
        let mut version = None;
        let mut path = None;
        let mut name = None;
        let mut disable_clip = false;
        let mut enable_transform = false;
        let mut overloads = Vec::new();
        for part in s.split(':') {
            let (key, value) = match part.split_once('=') {
                Some((k, v)) => (k, Some(v)),
                None => (part, None),
            };
            let need = |v: Option<&'a str>| -> Result<&'a str> {
                v.ok_or_else(|| {
                    Error::invalid(
                        subject,
                        format!("option '{key}' needs a value ({key}=...) in '{s}'"),
                    )
                })
            };
            match key {
                "" => {
                    return Err(Error::invalid(subject, format!("empty option in '{s}'")));
                }
                "version" => version = Some(nonempty(key, need(value)?)?),
                "path" => path = Some(nonempty(key, need(value)?)?),
                "name" => name = Some(nonempty(key, need(value)?)?),
                "disable_clip" => disable_clip = flag(key, value)?,
                "enable_transform" => enable_transform = flag(key, value)?,
                _ => match key.split_once('.') {
                    Some((extractor, option)) if !extractor.is_empty() && !option.is_empty() => {
                        let value = need(value)?;
                        let text = normalize_numeric(value).unwrap_or_else(|| value.to_string());
                        overloads.push(FeatureOverload {
                            extractor: extractor.to_string(),
                            option: option.to_string(),
                            value: text,
                        });
                    }
                    _ => {
                        return Err(Error::invalid(
                            key,
                            format!(
                                "unknown model option '{key}' (known: version, path, name, \
                                 enable_transform, disable_clip, or extractor.option=value)"
                            ),
                        ))
                    }
                },
            }
        }
        let source = match (version, path) {
            (Some(v), None) => ModelSource::Version(v),
            (None, Some(p)) => ModelSource::Path(PathBuf::from(p)),
            (Some(_), Some(_)) => {
                return Err(Error::invalid(
                    subject,
                    format!("both version= and path= in '{s}'; give one"),
                ))
            }
            (None, None) => {
                return Err(Error::invalid(
                    subject,
                    format!("neither version= nor path= in '{s}'"),
                ))
            }
        };
        Ok(ModelSpec {
            source,
            name: name.unwrap_or_else(|| "vmaf".to_string()),
            disable_clip,
            enable_transform,
            overloads,
        })
    }

    /// How errors name the model: its version, or its path.
    pub fn subject(&self) -> String {
        match &self.source {
            ModelSource::Version(v) => v.clone(),
            ModelSource::Path(p) => p.display().to_string(),
        }
    }
}

fn nonempty(key: &str, v: &str) -> Result<String> {
    if v.is_empty() {
        return Err(Error::invalid(
            key,
            format!("option '{key}' has an empty value"),
        ));
    }
    Ok(v.to_string())
}

/// A flag option: bare, `=true` or `=false`.
fn flag(key: &str, value: Option<&str>) -> Result<bool> {
    match value {
        None | Some("true") => Ok(true),
        Some("false") => Ok(false),
        Some(other) => Err(Error::invalid(
            key,
            format!("option '{key}' takes true or false, not '{other}'"),
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_libvmaf_spellings() {
        let s = ModelSpec::parse("version=vmaf_v0.6.1:enable_transform").unwrap();
        assert_eq!(s.source, ModelSource::Version("vmaf_v0.6.1".into()));
        assert!(s.enable_transform && !s.disable_clip);
        assert_eq!(s.name, "vmaf");
        let s =
            ModelSpec::parse("path=/m/x.json:name=neg:disable_clip=true:enable_transform=false")
                .unwrap();
        assert_eq!(s.source, ModelSource::Path("/m/x.json".into()));
        assert_eq!(s.name, "neg");
        assert!(s.disable_clip && !s.enable_transform);
        let s = ModelSpec::parse("version=vmaf_v0.6.1:adm.adm_enhn_gain_limit=1.0").unwrap();
        assert_eq!(
            s.overloads,
            vec![FeatureOverload {
                extractor: "adm".into(),
                option: "adm_enhn_gain_limit".into(),
                value: "1".into()
            }]
        );
        assert_eq!(
            ModelSpec::default_model(),
            ModelSpec::parse("version=vmaf_v0.6.1").unwrap()
        );
    }

    #[test]
    fn refuses_bad_specs() {
        let e = ModelSpec::parse("version=vmaf_v0.6.1:colour=blue").unwrap_err();
        assert_eq!(e.subject(), "colour");
        assert!(
            e.to_string().contains("unknown model option 'colour'"),
            "{e}"
        );
        let e = ModelSpec::parse("version=vmaf_v0.6.1:frobnicate").unwrap_err();
        assert!(
            e.to_string().contains("unknown model option 'frobnicate'"),
            "{e}"
        );
        let e = ModelSpec::parse("name=x").unwrap_err();
        assert!(e.to_string().contains("neither version= nor path="), "{e}");
        let e = ModelSpec::parse("version=a:path=b").unwrap_err();
        assert!(e.to_string().contains("both version= and path="), "{e}");
        let e = ModelSpec::parse("version").unwrap_err();
        assert!(
            e.to_string().contains("option 'version' needs a value"),
            "{e}"
        );
        let e = ModelSpec::parse("version=a:disable_clip=yes").unwrap_err();
        assert!(
            e.to_string().contains("takes true or false, not 'yes'"),
            "{e}"
        );
        let e = ModelSpec::parse("version=a::name=b").unwrap_err();
        assert!(e.to_string().contains("empty option"), "{e}");
        let e = ModelSpec::parse("version=a:adm.egl").unwrap_err();
        assert!(e.to_string().contains("needs a value"), "{e}");
    }
}
