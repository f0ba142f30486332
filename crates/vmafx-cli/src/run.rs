//! Scoring a pair of files: open, register, submit, flush, predict, print, write the log.

use std::time::Instant;

use vmafx::context::{Context, ContextConfig};
use vmafx::feature::options::split_option_string;
use vmafx::io::RawParams;
use vmafx::model::LoadedModel;
use vmafx::output::pooling::PoolMethod;
use vmafx::output::ReportInfo as Info;
use vmafx::output::{write_report, OutputFormat};

use crate::args::ScoreArgs;
use crate::progress::Progress;
use crate::{html, inputs, logdest, models};

/// A failure and how the process should exit.
#[derive(Debug)]
pub enum CliError {
    /// The command line is wrong (exit 2).
    Usage(String),
    /// Input, model or scoring failed (exit 1).
    Input(String),
}

impl From<vmafx::Error> for CliError {
    fn from(e: vmafx::Error) -> Self {
        CliError::Input(e.to_string())
    }
}

fn raw_format(a: &ScoreArgs) -> Result<Option<RawParams>, CliError> {
    let given = [
        a.width.is_some(),
        a.height.is_some(),
        a.pixel_format.is_some(),
        a.bitdepth.is_some(),
    ];
    if given.iter().all(|g| !g) {
        return Ok(None);
    }
    let (Some(w), Some(h), Some(p), Some(b)) =
        (a.width, a.height, a.pixel_format.as_deref(), a.bitdepth)
    else {
        return Err(CliError::Usage(
            "raw .yuv input needs all of --width, --height, --pixel_format and --bitdepth".into(),
        ));
    };
    Ok(Some(RawParams::from_names(w, h, p, b)?))
}

fn output_format(a: &ScoreArgs) -> Result<OutputFormat, CliError> {
    let chosen: Vec<OutputFormat> = [
        (a.xml, OutputFormat::Xml),
        (a.json, OutputFormat::Json),
        (a.csv, OutputFormat::Csv),
        (a.sub, OutputFormat::Sub),
    ]
    .into_iter()
    .filter_map(|(on, f)| on.then_some(f))
    .collect();
    match chosen.as_slice() {
        [] => Ok(OutputFormat::Xml),
        [f] => Ok(*f),
        _ => Err(CliError::Usage(
            "choose one of --xml, --json, --csv, --sub".into(),
        )),
    }
}

/// Runs one scoring job as `vmaf` would.
pub fn score(a: &ScoreArgs) -> Result<(), CliError> {
    let (Some(rp), Some(dp)) = (&a.reference, &a.distorted) else {
        return Err(CliError::Usage(
            "--reference and --distorted are required".into(),
        ));
    };
    let fmt = output_format(a)?;
    inputs::check_cpu_env()?;
    if let Some(mask) = a.cpumask {
        let mask = u32::try_from(mask)
            .map_err(|_| CliError::Usage(format!("--cpumask {mask}: at most 32 bits")))?;
        vmafx::cpu::set_cpumask(mask);
    }
    let raw = raw_format(a)?;
    // Inputs: y4m, raw, stdin or ffmpeg-decoded; scaled, with warnings (inputs.rs).
    let inputs::Inputs {
        mut reference,
        mut distorted,
        reference_options,
        distorted_options,
        total,
    } = inputs::open_pair(a, raw)?;
    let rg = reference.geometry();

    let mut ctx = Context::new(ContextConfig {
        threads: a.threads,
        subsample: a.subsample,
        ..Default::default()
    })?;

    let mut models = Vec::new();
    if !a.no_prediction {
        for spec in models::model_specs(&a.model)? {
            let model = LoadedModel::load(&spec)?;
            let label = spec.subject();
            models.push((label, ctx.use_model(model)?));
        }
    }
    for f in &a.feature {
        let (name, opts) = f.split_once('=').unwrap_or((f.as_str(), ""));
        let pairs = split_option_string(opts)?;
        ctx.use_feature(name, &pairs)?;
    }
    if models.is_empty() && a.feature.is_empty() {
        return Err(CliError::Usage(
            "nothing to score: -n given without --feature".into(),
        ));
    }

    reference.skip(a.frame_skip_ref)?;
    distorted.skip(a.frame_skip_dist)?;
    let progress = Progress::new(a.quiet, total);
    let start = Instant::now();
    let mut index = 0u64;
    loop {
        if a.frame_cnt.is_some_and(|n| index >= n) {
            break;
        }
        let (r, d) = (reference.next_frame()?, distorted.next_frame()?);
        let (r, d) = match (r, d) {
            (Some(r), Some(d)) => (r, d),
            (None, None) => break,
            (None, Some(_)) => {
                eprintln!(
                    "warning: \"{}\" ended before \"{}\"",
                    rp.display(),
                    dp.display()
                );
                break;
            }
            (Some(_), None) => {
                eprintln!(
                    "warning: \"{}\" ended before \"{}\"",
                    dp.display(),
                    rp.display()
                );
                break;
            }
        };
        ctx.submit(r, d, index)?;
        progress.tick();
        index += 1;
    }
    ctx.flush()?;
    progress.finish();
    if index == 0 {
        return Err(CliError::Input(format!(
            "no frames were read from {}",
            rp.display()
        )));
    }
    let fps = index as f64 / start.elapsed().as_secs_f64().max(1e-9);

    ctx.predict_all()?;
    let show = !a.quiet || a.output.is_none();
    let log_on_stdout = logdest::log_to_stdout(a.output.as_deref());
    for (label, h) in &models {
        let names = h.model().output_names();
        let pooled = |suffix: &str| -> Result<f64, CliError> {
            let name = names.iter().find(|n| n.ends_with(suffix)).ok_or_else(|| {
                CliError::Input(format!("model {label} has no output ending in {suffix}"))
            })?;
            Ok(ctx.feature_score_pooled(name, PoolMethod::Mean, 0, index - 1)?)
        };
        if names.len() > 1 {
            // A bootstrap collection: libvmaf prints the bagged score with its interval.
            let (bag, lo, hi, sd) = (
                pooled("_bagging")?,
                pooled("_ci_p95_lo")?,
                pooled("_ci_p95_hi")?,
                pooled("_stddev")?,
            );
            if show {
                logdest::say(
                    log_on_stdout,
                    &format!("{label}: {bag:.6}, ci.p95: [{lo:.6}, {hi:.6}], stddev: {sd:.6}"),
                );
            }
        } else {
            let v = ctx.score_pooled(h, PoolMethod::Mean, 0, index - 1)?;
            if show {
                logdest::say(log_on_stdout, &format!("{label}: {v:.6}"));
            }
        }
    }

    let info = Info {
        fps,
        subsample: a.subsample.max(1),
        ..Info::new(rg.width, rg.height, index)
    };
    if let Some(out) = &a.output {
        let table = ctx.score_table()?;
        let mut w = logdest::create(out)?;
        write_report(&mut w, fmt, &table, &info)
            .and_then(|_| std::io::Write::flush(&mut w))
            .map_err(|e| CliError::Input(format!("writing {}: {e}", out.display())))?;
    }
    if let Some(path) = &a.html {
        // The HTML report (html/): reads the worst frames again from the inputs.
        let table = ctx.score_table()?;
        let job = html::Job {
            table: &table,
            info: &info,
            models: models
                .iter()
                .map(|(label, h)| html::ModelOutputs {
                    label: label.clone(),
                    names: h.model().output_names(),
                })
                .collect(),
            plot: &a.html_plot,
            worst: a.html_worst,
            inputs: [
                html::InputFacts::of(&reference),
                html::InputFacts::of(&distorted),
            ],
            reopen: [
                html::reopen(rp, &reference_options, a.frame_skip_ref),
                html::reopen(dp, &distorted_options, a.frame_skip_dist),
            ],
            command: std::env::args().collect::<Vec<_>>().join(" "),
        };
        html::write(&job, path).map_err(CliError::Input)?;
    }
    Ok(())
}
