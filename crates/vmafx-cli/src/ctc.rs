//! libvmaf's `--aom_ctc` and `--nflx_ctc`: presets of models and features for the AOM and
//! Netflix common test conditions, each expanded where it stands among `--model` and
//! `--feature`, as libvmaf's tool appends them in command-line order (the order of the
//! log's metrics follows).

use clap::ArgMatches;

/// The `--aom_ctc` versions libvmaf 3.2 knows.
pub const AOM_VERSIONS: [&str; 7] = ["v1.0", "v2.0", "v3.0", "v4.0", "v5.0", "v6.0", "v7.0"];
/// The `--nflx_ctc` versions libvmaf 3.2 knows.
pub const NFLX_VERSIONS: [&str; 1] = ["v1.0"];

/// One value a preset adds, or one `--model` / `--feature` value of the command line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Step<'a> {
    /// A model, as `--model` gives it.
    Model(&'a str),
    /// A feature, as `--feature` gives it.
    Feature(&'a str),
    /// A feature that takes the place of the first one of its extractor given so far (or
    /// is added, where there is none).
    Replace(&'a str),
}

/// The steps of `--aom_ctc VERSION` (a version in [`AOM_VERSIONS`]): v1.0 and v2.0 the
/// vmaf and vmaf_neg models, psnr, ciede, SSIM and MS-SSIM in dB and psnr_hvs; v3.0 to
/// v6.0 add cambi (v6.0's mixed bit depths are refused here as elsewhere, see the
/// README); v7.0 makes the SSIM single-scale (`scale=1`).
fn aom(version: &str) -> Vec<Step<'static>> {
    let n = AOM_VERSIONS.iter().position(|&v| v == version).unwrap_or(0) + 1;
    let mut steps = vec![
        Step::Model("version=vmaf_v0.6.1:name=vmaf"),
        Step::Model("version=vmaf_v0.6.1neg:name=vmaf_neg"),
        Step::Feature("psnr=reduced_hbd_peak=true:enable_apsnr=true:min_sse=0.5"),
        Step::Feature("ciede"),
        Step::Feature("float_ssim=enable_db=true:clip_db=true"),
        Step::Feature("float_ms_ssim=enable_db=true:clip_db=true"),
        Step::Feature("psnr_hvs"),
    ];
    if n >= 3 {
        steps.push(Step::Feature("cambi"));
    }
    if n >= 7 {
        steps.push(Step::Replace(
            "float_ssim=scale=1:enable_db=true:clip_db=true",
        ));
    }
    steps
}

/// The steps of `--nflx_ctc v1.0`: the 4K vmaf and vmaf_neg models, psnr with chroma and
/// the whole run's PSNR, SSIM in dB and cambi.
fn nflx() -> Vec<Step<'static>> {
    vec![
        Step::Model("version=vmaf_4k_v0.6.1:name=vmaf"),
        Step::Model("version=vmaf_4k_v0.6.1neg:name=vmaf_neg"),
        Step::Feature("psnr=enable_chroma=true:enable_apsnr=true"),
        Step::Feature("float_ssim=enable_db=true:clip_db=true"),
        Step::Feature("cambi"),
    ]
}

/// The extractor a `--feature` value names (the text before its first `=`).
fn extractor(spec: &str) -> &str {
    spec.split('=').next().unwrap_or(spec)
}

/// The presets asked for (`aom_ctc`, `nflx_ctc`: the values of `--aom_ctc` and `--nflx_ctc`)
/// expanded into `model` and `feature` (the values of `--model` and `--feature`), each
/// preset at its place on the command line (`matches` gives the places).
pub fn expand(
    matches: &ArgMatches,
    (aom_ctc, nflx_ctc): (&[String], &[String]),
    model: &mut Vec<String>,
    feature: &mut Vec<String>,
) {
    if aom_ctc.is_empty() && nflx_ctc.is_empty() {
        return;
    }
    let places = |id: &str| -> Vec<usize> {
        matches
            .indices_of(id)
            .map(|i| i.collect())
            .unwrap_or_default()
    };
    // Every value in command-line order: the user's models and features as they are, each
    // preset as its steps.
    let mut items: Vec<(usize, Vec<Step>)> = Vec::new();
    let models = std::mem::take(model);
    let features = std::mem::take(feature);
    for (at, m) in places("model").into_iter().zip(&models) {
        items.push((at, vec![Step::Model(m)]));
    }
    for (at, f) in places("feature").into_iter().zip(&features) {
        items.push((at, vec![Step::Feature(f)]));
    }
    for (at, v) in places("aom_ctc").into_iter().zip(aom_ctc) {
        items.push((at, aom(v)));
    }
    for (at, _) in places("nflx_ctc").into_iter().zip(nflx_ctc) {
        items.push((at, nflx()));
    }
    items.sort_by_key(|(at, _)| *at);
    for step in items.into_iter().flat_map(|(_, steps)| steps) {
        match step {
            Step::Model(m) => model.push(m.to_string()),
            Step::Feature(f) => feature.push(f.to_string()),
            Step::Replace(f) => {
                let name = extractor(f);
                match feature.iter_mut().find(|g| extractor(g) == name) {
                    Some(g) => *g = f.to_string(),
                    None => feature.push(f.to_string()),
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn versions_add_what_libvmafs_presets_add() {
        let features = |v: &str| -> Vec<&str> {
            aom(v)
                .into_iter()
                .filter_map(|s| match s {
                    Step::Feature(f) | Step::Replace(f) => Some(extractor(f)),
                    _ => None,
                })
                .collect()
        };
        assert!(!features("v2.0").contains(&"cambi"));
        assert!(features("v3.0").contains(&"cambi"));
        assert_eq!(features("v6.0"), features("v3.0"));
        assert_eq!(
            aom("v7.0").last(),
            Some(&Step::Replace(
                "float_ssim=scale=1:enable_db=true:clip_db=true"
            ))
        );
        assert_eq!(nflx().len(), 5);
    }
}
