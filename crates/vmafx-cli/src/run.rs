//! Scoring a pair of files: the command line read into a [`ScorerConfig`], the inputs opened
//! (y4m, raw, standard input or decoded by ffmpeg, scaled where needed), scored by the
//! engine's [`Scorer`] with a progress bar, the pooled scores printed, the log and the HTML
//! report written.

use std::path::Path;

use vmafx::context::FeatureOrder;
use vmafx::io::DecodeWatch;
use vmafx::io::RawParams;
use vmafx::{Feature, Model, OutputFormat, Report, Scorer, ScorerConfig, Side};

use crate::args::ScoreArgs;
use crate::error::CliError;
use crate::progress::Progress;
use crate::{html, inputs, interrupt, logdest, models, origin, partial, tiny, window};

pub(crate) fn raw_format(a: &ScoreArgs) -> Result<Option<RawParams>, CliError> {
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

pub(crate) fn output_format(a: &ScoreArgs) -> Result<OutputFormat, CliError> {
    let chosen: Vec<OutputFormat> = [
        (a.xml, OutputFormat::Xml),
        (a.json, OutputFormat::Json),
        (a.csv, OutputFormat::Csv),
        (a.sub, OutputFormat::Sub),
    ]
    .into_iter()
    .filter_map(|(on, f)| on.then_some(f))
    .collect();
    let fmt = match chosen.as_slice() {
        [] => OutputFormat::Xml,
        [f] => *f,
        _ => {
            return Err(CliError::Usage(
                "choose one of --xml, --json, --csv, --sub".into(),
            ))
        }
    };
    if a.provenance && matches!(fmt, OutputFormat::Csv | OutputFormat::Sub) {
        return Err(CliError::Usage(
            "--provenance writes the record into a JSON or XML log; CSV and subtitles have no \
             place for it"
                .into(),
        ));
    }
    Ok(fmt)
}

/// The scorer's configuration the options describe: models, features, and how the inputs
/// are read (no callbacks).
pub(crate) fn scoring_config(a: &ScoreArgs) -> Result<ScorerConfig, CliError> {
    let mut c = ScorerConfig::new()
        .threads(a.threads)
        // libvmaf's tool lists features in another order once it has a thread pool.
        .feature_order(FeatureOrder::for_libvmaf_threads(a.threads))
        .subsample(a.subsample)
        .skip_frames(a.frame_skip_ref, a.frame_skip_dist);
    if !a.no_prediction {
        if a.model.is_empty() {
            c = c.model(Model::builtin("vmaf_v0.6.1"));
        }
        // Several models are named apart before any frame is read (models.rs).
        let specs = models::model_specs(&a.model)?;
        for (m, spec) in a.model.iter().zip(specs) {
            c = c.model(Model::parse(m)?.name(spec.name));
        }
    } else if a.feature.is_empty() && a.model.is_empty() {
        return Err(CliError::Usage(
            "nothing to score: -n given without --feature or --model".into(),
        ));
    } else {
        // libvmaf's tool with -n still extracts the features of the models given (it
        // writes them, and predicts no model).
        for m in &a.model {
            c = c.model_inputs(Model::parse(m)?);
        }
    }
    for f in &a.feature {
        c = c.feature(Feature::parse(f)?);
    }
    if let Some(mask) = a.cpumask {
        let mask = u32::try_from(mask)
            .map_err(|_| CliError::Usage(format!("--cpumask {mask}: at most 32 bits")))?;
        // libvmaf's mask forbids flags; the scorer takes the level they leave.
        c = c.cpu_level(vmafx::cpu::level_of_flags(vmafx::cpu::cpu_flags() & !mask));
    }
    if let Some(raw) = raw_format(a)? {
        c = c.raw_input(raw);
    }
    if let Some(n) = a.frame_limit() {
        c = c.max_frames(n);
    }
    if let Some(path) = &a.tiny_model {
        c = c.frame_scorer(tiny::scorer(path, a.tiny_resize.as_deref())?);
    }
    Ok(c)
}

/// The scorer's configuration the options describe, with the `--window` printer.
pub(crate) fn config(a: &ScoreArgs) -> Result<ScorerConfig, CliError> {
    // The tiny model's signature, once per run and before the model is opened (the
    // configuration is built again to check `--html-plot` names, never verified again).
    if let (Some(path), true) = (&a.tiny_model, a.tiny_model_verify) {
        tiny::verify(path)?;
    }
    let mut c = scoring_config(a)?;
    if let Some(w) = &a.window {
        if a.no_prediction {
            return Err(CliError::Usage(
                "--window pools model scores; it cannot go with -n".into(),
            ));
        }
        if a.frames.is_some() {
            return Err(CliError::Usage(
                "--window watches a whole stream; it cannot go with --frames".into(),
            ));
        }
        let log_on_stdout = logdest::log_to_stdout(a.output.as_deref());
        c = c.on_windows(window::length_of(w)?, window::printer(log_on_stdout));
    }
    Ok(c)
}

/// Refuses, before any frame is read, output options the run could not honour at its end:
/// `--html-plot` without `--html`, and a log or page in a folder that does not exist.
fn check_destinations(a: &ScoreArgs) -> Result<(), CliError> {
    plot_needs_page(a)?;
    let log = a
        .output
        .as_deref()
        .filter(|p| !logdest::log_to_stdout(Some(p)));
    check_files(&[("--output", log), ("--html", a.html.as_deref())])
}

/// Refuses `--html-plot` without `--html`.
fn plot_needs_page(a: &ScoreArgs) -> Result<(), CliError> {
    if !a.html_plot.is_empty() && a.html.is_none() {
        return Err(CliError::Usage("--html-plot needs --html PATH".into()));
    }
    Ok(())
}

/// Refuses `--html-plot` without `--html`, and a page that could not be written (a folder,
/// or in a folder that does not exist), before any frame is read.
pub(crate) fn check_page(a: &ScoreArgs) -> Result<(), CliError> {
    plot_needs_page(a)?;
    check_files(&[("--html", a.html.as_deref())])
}

/// Refuses each (option, file) given that names a folder or lies in a missing folder.
fn check_files(files: &[(&str, Option<&Path>)]) -> Result<(), CliError> {
    for &(option, path) in files {
        let Some(path) = path else { continue };
        if path.is_dir() {
            return Err(CliError::Input(format!(
                "{option} {}: is a directory",
                path.display()
            )));
        }
        let dir = match path.parent() {
            Some(d) if !d.as_os_str().is_empty() => d,
            _ => std::path::Path::new("."),
        };
        if !dir.is_dir() {
            return Err(CliError::Input(format!(
                "{option} {}: the folder {} does not exist",
                path.display(),
                dir.display()
            )));
        }
    }
    Ok(())
}

/// The log of `report` in `fmt`, with the provenance record when `provenance` is set.
pub(crate) fn log_text(report: &Report, fmt: OutputFormat, provenance: bool) -> String {
    if provenance {
        report.render_with_provenance(fmt)
    } else {
        report.render(fmt)
    }
}

/// Runs one scoring job as `vmaf` would.
pub fn score(a: &ScoreArgs) -> Result<(), CliError> {
    let (Some(rp), Some(dp)) = (&a.reference, a.distorted.first()) else {
        return Err(CliError::Usage(
            "--reference and --distorted are required".into(),
        ));
    };
    let fmt = output_format(a)?;
    check_destinations(a)?;
    // --frames: a range scored for `vmafx merge` (partial.rs).
    let frames = partial::frames_of(a)?;
    if frames.is_some() && a.provenance {
        return Err(CliError::Usage(
            "--provenance and --frames: a partial log carries its own record of the run \
             (vmafx_partial); give --provenance to the merged log's run instead"
                .into(),
        ));
    }
    inputs::check_cpu_env()?;
    // Ctrl-C and a failing input end the run with the log of the frames scored (interrupt.rs).
    let mut config = config(a)?
        .stop_when(interrupt::stop_flag())
        .keep_partial(true);
    // Inputs: y4m, raw, stdin or ffmpeg-decoded; scaled, with warnings (inputs.rs).
    let inputs::Inputs {
        reference,
        distorted,
        reference_options,
        distorted_options,
        total,
    } = inputs::open_pair(a, raw_format(a)?)?;
    if a.html.is_some() && !a.html_plot.is_empty() {
        // A `--html-plot` name the log cannot hold is refused before any frame is read.
        html::check_plot_names(&a.html_plot, scoring_config(a)?, reference.geometry())
            .map_err(CliError::Usage)?;
    }
    let facts = [
        html::InputFacts::of(&reference),
        html::InputFacts::of(&distorted),
    ];
    let progress = Progress::new(a.quiet, total);
    if let Some(cb) = progress.callback() {
        config = config.on_progress(cb);
    }
    let scorer = Scorer::new(config)?;
    if let (Some(_), Some(name)) = (&frames, scorer.aggregate_writer()) {
        return Err(CliError::Usage(format!(
            "--frames and feature '{name}': its whole-run values (aggregate_metrics) cannot \
             come from a partial log, nor be joined by `vmafx merge`: score the whole video \
             without --frames"
        )));
    }
    // What a partial log belongs to (origin.rs), taken before the readers are used up.
    let part_origin = match &frames {
        Some(range) => Some(origin::of(
            &reference,
            &distorted,
            partial::config_of(a).to_string(),
            total,
            range.end == u64::MAX,
        )?),
        None => None,
    };
    // Decoding errors accepted by --accept-decode-errors, read once the inputs ended.
    let watches = [
        (rp, reference.decode_watch()),
        (dp, distorted.decode_watch()),
    ];
    let report = match frames.clone() {
        Some(range) => scorer.score_readers_range(reference, distorted, range),
        None => scorer.score_readers(reference, distorted),
    };
    progress.finish();
    warn_decode_losses(&watches);
    let report = report?;
    warn_ended_first(&report, rp, dp);
    if let Some(o) = &part_origin {
        return partial::write(a, &report, o);
    }
    if report.frame_count() == 0 {
        return Err(no_frame_scored(&report, a, rp, dp));
    }

    let log_on_stdout = logdest::log_to_stdout(a.output.as_deref());
    // A run that failed or was stopped prints no pooled score: a script reading standard
    // output must not take the score of misread or missing frames (the log, marked partial,
    // and the error say what was scored).
    if report.partial().is_none() && (!a.quiet || a.output.is_none()) {
        for m in report.models()? {
            logdest::say(log_on_stdout, &m.to_string());
        }
    }
    if let Some(out) = &a.output {
        logdest::write_log(out, &log_text(&report, fmt, a.provenance))?;
    }
    if let Some(p) = report.partial() {
        // No HTML report: it reads the inputs again, and they are what failed or was stopped.
        return Err(interrupt::partial_outcome(p, a.output.as_deref()));
    }
    if let Some(path) = &a.html {
        // The HTML report (html/): reads the worst frames again from the inputs.
        let (table, info) = report.table();
        let job = html::Job {
            table,
            info,
            models: html::models_of(&report),
            plot: &a.html_plot,
            worst: a.html_worst,
            inputs: facts,
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

/// Warns, after the inputs ended, of decoding errors `--accept-decode-errors` let through.
pub(crate) fn warn_decode_losses<P: AsRef<Path>>(watches: &[(P, Option<DecodeWatch>)]) {
    for (path, watch) in watches {
        if let Some(loss) = watch.as_ref().and_then(|w| w.loss()) {
            eprintln!(
                "warning: {}: {}; the frames decoded were scored (--accept-decode-errors)",
                path.as_ref().display(),
                loss.describe()
            );
        }
    }
}

/// Warns when one input of the pair `rp`, `dp` ended before the other.
pub(crate) fn warn_ended_first(report: &Report, rp: &Path, dp: &Path) {
    if let Some(side) = report.ended_first() {
        let (first, other) = match side {
            Side::Reference => (rp, dp),
            Side::Distorted => (dp, rp),
        };
        eprintln!(
            "warning: \"{}\" ended before \"{}\"",
            first.display(),
            other.display()
        );
    }
}

/// The error for a run of the pair `rp`, `dp` that scored no frame: interrupted, or inputs
/// that held no frame to score (after the skips).
pub(crate) fn no_frame_scored(report: &Report, a: &ScoreArgs, rp: &Path, dp: &Path) -> CliError {
    if report.partial().is_some() {
        return CliError::Interrupted("no frame was scored; no log written".into());
    }
    let limit = a
        .frame_limit()
        .map(|n| format!(" (--frame_cnt {n})"))
        .unwrap_or_default();
    CliError::Input(format!(
        "no frame was scored from {} and {}{limit}",
        rp.display(),
        dp.display(),
    ))
}
