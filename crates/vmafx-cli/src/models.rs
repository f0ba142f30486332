//! The `-m` options as model specs, each with a name of its own.
//!
//! libvmaf names every model `vmaf` unless `name=` says otherwise, so two models given
//! without names collide on one score name (libvmaf then refuses the command). vmafx keeps
//! `vmaf` for the one model without a name, as libvmaf does, and names unnamed models after
//! their version (or their file's stem) where `vmaf` would be taken twice: two or more
//! without names, or one beside a model named `vmaf`. It refuses, before any frame is read,
//! two models that still share a name, showing the `name=` fix.

use std::path::Path;

use vmafx::model::{ModelSource, ModelSpec};

use crate::error::CliError;

/// Whether a `-m` string sets `name=`.
fn names_itself(option: &str) -> bool {
    option
        .split(':')
        .any(|part| part.split_once('=').is_some_and(|(k, _)| k == "name"))
}

/// A name for an unnamed model: its version, or its file's stem.
fn default_name(spec: &ModelSpec) -> String {
    match &spec.source {
        ModelSource::Version(v) => v.clone(),
        ModelSource::Path(p) => Path::new(p)
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_else(|| p.display().to_string()),
    }
}

/// The specs of `options` (the default model where none is given), named apart.
pub fn model_specs(options: &[String]) -> Result<Vec<ModelSpec>, CliError> {
    if options.is_empty() {
        return Ok(vec![ModelSpec::default_model()]);
    }
    let mut specs = options
        .iter()
        .map(|o| ModelSpec::parse(o))
        .collect::<Result<Vec<_>, _>>()?;
    let unnamed: Vec<bool> = options.iter().map(|o| !names_itself(o)).collect();
    let default_taken = unnamed.iter().filter(|&&u| u).count() > 1
        || specs
            .iter()
            .zip(&unnamed)
            .any(|(s, &u)| !u && s.name == ModelSpec::default_model().name);
    if default_taken {
        for (spec, _) in specs.iter_mut().zip(&unnamed).filter(|(_, &u)| u) {
            spec.name = default_name(spec);
        }
    }
    for (i, s) in specs.iter().enumerate() {
        if let Some(j) = specs[..i].iter().position(|t| t.name == s.name) {
            return Err(CliError::Usage(format!(
                "models {} ({}) and {} ({}) are both named '{}'; give each a name of its own, \
                 e.g. -m '{}:name={}_{}'",
                j + 1,
                options[j],
                i + 1,
                options[i],
                s.name,
                options[i],
                s.name,
                i + 1
            )));
        }
    }
    Ok(specs)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(opts: &[&str]) -> Result<Vec<String>, CliError> {
        let opts: Vec<String> = opts.iter().map(|s| s.to_string()).collect();
        Ok(model_specs(&opts)?.into_iter().map(|s| s.name).collect())
    }

    #[test]
    fn one_model_keeps_libvmafs_name() {
        assert_eq!(names(&["version=vmaf_4k_v0.6.1"]).unwrap(), ["vmaf"]);
        assert_eq!(names(&[]).unwrap(), ["vmaf"]);
    }

    #[test]
    fn several_unnamed_models_are_named_by_version_or_file() {
        assert_eq!(
            names(&[
                "version=vmaf_4k_v0.6.1",
                "path=models/x.json",
                "version=a:name=b"
            ])
            .unwrap(),
            ["vmaf_4k_v0.6.1", "x", "b"]
        );
    }

    #[test]
    fn one_unnamed_model_beside_named_ones_keeps_libvmafs_name() {
        // libvmaf's logs then call it `vmaf`, and so do vmafx's.
        assert_eq!(
            names(&["version=vmaf_v0.6.1neg", "version=vmaf_4k_v0.6.1:name=k"]).unwrap(),
            ["vmaf", "k"]
        );
        // Unless a named one is `vmaf` already.
        assert_eq!(
            names(&["version=vmaf_v0.6.1neg", "version=vmaf_4k_v0.6.1:name=vmaf"]).unwrap(),
            ["vmaf_v0.6.1neg", "vmaf"]
        );
    }

    #[test]
    fn a_shared_name_is_refused_with_the_fix() {
        let Err(CliError::Usage(m)) = names(&["version=a:name=v", "version=b:name=v"]) else {
            panic!("two models named v were accepted");
        };
        assert!(m.contains("name="), "{m}");
    }
}
