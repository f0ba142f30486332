//! Several distorted inputs of one reference (`-d` repeated): a bitrate ladder or a CRF
//! search scored in one pass by [`Scorer::score_readers_many`], the reference read once.
//!
//! `-o` names an existing folder; each log is written there as the distorted file's stem
//! plus the format's extension, and two distorted inputs of one stem are refused before any
//! frame is read. The pooled scores print one line per distorted input, prefixed by its
//! path.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use vmafx::Scorer;

use crate::args::ScoreArgs;
use crate::error::CliError;
use crate::progress::Progress;
use crate::{inputs, interrupt, logdest, run};

/// Where each distorted input's log goes: `dir/<stem>.<ext>`; refuses a stem given twice.
fn log_paths(dir: &Path, distorted: &[PathBuf], ext: &str) -> Result<Vec<PathBuf>, CliError> {
    let mut seen: HashMap<String, &Path> = HashMap::new();
    let mut out = Vec::with_capacity(distorted.len());
    for d in distorted {
        let stem = d
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .filter(|s| !s.is_empty() && d.as_os_str() != "-")
            .ok_or_else(|| {
                CliError::Usage(format!(
                    "-d {}: several distorted inputs need file names (their logs are named \
                     after them)",
                    d.display()
                ))
            })?;
        if let Some(first) = seen.insert(stem.clone(), d) {
            return Err(CliError::Usage(format!(
                "-d {} and -d {} have one stem ({stem}): their logs would both be {}",
                first.display(),
                d.display(),
                dir.join(format!("{stem}.{ext}")).display()
            )));
        }
        out.push(dir.join(format!("{stem}.{ext}")));
    }
    Ok(out)
}

/// Refuses what one pass over several distorted inputs cannot do, before any frame is read.
fn check_options(a: &ScoreArgs) -> Result<(), CliError> {
    let refuse = |what: &str| {
        Err(CliError::Usage(format!(
            "{what} goes with one -d; score several distorted inputs without it, or one at a time"
        )))
    };
    if a.frames.is_some() {
        return refuse("--frames");
    }
    if a.html.is_some() {
        return refuse("--html");
    }
    if a.window.is_some() {
        return refuse("--window");
    }
    Ok(())
}

/// Scores every `-d` against the one `-r` in one pass.
pub fn score(a: &ScoreArgs) -> Result<(), CliError> {
    let Some(rp) = &a.reference else {
        return Err(CliError::Usage(
            "--reference and --distorted are required".into(),
        ));
    };
    let fmt = run::output_format(a)?;
    check_options(a)?;
    let logs = match &a.output {
        None => None,
        Some(dir) if dir.is_dir() => Some(log_paths(dir, &a.distorted, fmt.name())?),
        Some(dir) => {
            return Err(CliError::Usage(format!(
                "-o {}: with several -d, -o names an existing folder for their logs",
                dir.display()
            )))
        }
    };
    inputs::check_cpu_env()?;
    let mut config = run::config(a)?
        .stop_when(interrupt::stop_flag())
        .keep_partial(true);
    let raw = run::raw_format(a)?;
    let (mut reference, base) = inputs::open_reference(a, rp, raw)?;
    let mut readers = Vec::with_capacity(a.distorted.len());
    let mut total: Option<u64> = None;
    for dp in &a.distorted {
        // Each input is opened, scaled and checked as in a pair run (inputs.rs).
        let opened = inputs::open_distorted(a, reference, base.clone(), rp, dp)?;
        reference = opened.reference;
        total = match (total, opened.total) {
            (Some(x), Some(y)) => Some(x.max(y)),
            (x, y) => x.or(y),
        };
        readers.push(opened.distorted);
    }
    let progress = Progress::new(a.quiet, total);
    if let Some(cb) = progress.callback() {
        config = config.on_progress(cb);
    }
    let scorer = Scorer::new(config)?;
    let mut watches = vec![(rp.clone(), reference.decode_watch())];
    watches.extend(
        a.distorted
            .iter()
            .zip(&readers)
            .map(|(p, r)| (p.clone(), r.decode_watch())),
    );
    let reports = scorer.score_readers_many(reference, readers);
    progress.finish();
    run::warn_decode_losses(&watches);
    let reports = reports?;
    let mut partial = None;
    for (k, (dp, report)) in a.distorted.iter().zip(&reports).enumerate() {
        run::warn_ended_first(report, rp, dp);
        if report.frame_count() == 0 {
            return Err(run::no_frame_scored(report, a, rp, dp));
        }

        // A stopped or failed run prints no pooled score (as a pair run).
        if report.partial().is_none() && (!a.quiet || a.output.is_none()) {
            for m in report.models()? {
                println!("{}: {m}", dp.display());
            }
        }
        if let Some(paths) = &logs {
            logdest::write_log(&paths[k], &crate::run::log_text(report, fmt, a.provenance))?;
        }
        if let (None, Some(p)) = (&partial, report.partial()) {
            partial = Some((p.clone(), logs.as_ref().map(|l| l[k].clone())));
        }
    }
    match partial {
        Some((p, log)) => Err(interrupt::partial_outcome(&p, log.as_deref())),
        None => Ok(()),
    }
}
