//! Several distorted inputs of one reference (`-d` repeated): a bitrate ladder or a CRF
//! search scored in one pass by [`Scorer::score_readers_many`], the reference read once.
//!
//! `-o` names an existing folder; each log is written there as the distorted file's stem
//! plus the format's extension, and two distorted inputs of one stem are refused before any
//! frame is read. The pooled scores print one line per distorted input, prefixed by its
//! path. `--html PAGE` writes one page comparing the renditions (html/ladder.rs).
//! `--frames A..B` writes each rendition's partial log, `<stem>.json` in the `-o` folder,
//! as its pair run writes it: each range is scored as its pair run scores it, one
//! rendition after another (the reference is read again for each; a range reads only its
//! frames and their pre-roll from y4m and raw inputs).

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use vmafx::Scorer;

use crate::args::ScoreArgs;
use crate::error::CliError;
use crate::progress::Progress;
use crate::{html, inputs, interrupt, logdest, partial, run};

/// The name a distorted input's log and its row of the page take: its file's stem.
fn stem_of(d: &Path) -> String {
    d.file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| d.display().to_string())
}

/// Refuses two distorted inputs of one stem (`stems[i]` is `distorted[i]`'s), saying what
/// the clash would do: `clash(stem)`.
fn refuse_repeated_stems(
    distorted: &[PathBuf],
    stems: &[String],
    clash: impl Fn(&str) -> String,
) -> Result<(), CliError> {
    let mut seen: HashMap<&str, &Path> = HashMap::new();
    for (d, stem) in distorted.iter().zip(stems) {
        if let Some(first) = seen.insert(stem, d) {
            return Err(CliError::Usage(format!(
                "-d {} and -d {} have one stem ({stem}): {}",
                first.display(),
                d.display(),
                clash(stem)
            )));
        }
    }
    Ok(())
}

/// Refuses two distorted inputs of one stem: the page names each rendition by its stem.
fn check_page_rows(distorted: &[PathBuf]) -> Result<(), CliError> {
    let stems: Vec<String> = distorted.iter().map(|d| stem_of(d)).collect();
    refuse_repeated_stems(distorted, &stems, |stem| {
        format!("the page would name both {stem}")
    })
}

/// Where each distorted input's log goes: `dir/<stem>.<ext>`; refuses a stem given twice.
fn log_paths(dir: &Path, distorted: &[PathBuf], ext: &str) -> Result<Vec<PathBuf>, CliError> {
    let stems = distorted
        .iter()
        .map(|d| {
            d.file_stem()
                .map(|s| s.to_string_lossy().into_owned())
                .filter(|s| !s.is_empty() && d.as_os_str() != "-")
                .ok_or_else(|| {
                    CliError::Usage(format!(
                        "-d {}: several distorted inputs need file names (their logs are \
                         named after them)",
                        d.display()
                    ))
                })
        })
        .collect::<Result<Vec<_>, _>>()?;
    let log = |stem: &str| dir.join(format!("{stem}.{ext}"));
    refuse_repeated_stems(distorted, &stems, |stem| {
        format!("their logs would both be {}", log(stem).display())
    })?;
    Ok(stems.iter().map(|s| log(s)).collect())
}

/// Refuses what one pass over several distorted inputs cannot do, before any frame is read.
fn check_options(a: &ScoreArgs) -> Result<(), CliError> {
    if a.window.is_some() {
        return Err(CliError::Usage(
            "--window goes with one -d; score several distorted inputs without it, or one at \
             a time"
                .into(),
        ));
    }
    run::check_page(a)
}

/// The refusal of `--frames` with several `-d` and no `-o`.
const FRAMES_NEED_FOLDER: &str =
    "--frames with several -d: give -o FOLDER for their partial logs (each written there as \
     <stem>.json)";

/// `--frames` with several `-d`: each rendition's partial log, written to `logs` (one per
/// distorted input, in their order), exactly as its own pair run writes it.
fn score_ranges(a: &ScoreArgs, logs: Option<Vec<PathBuf>>) -> Result<(), CliError> {
    let Some(logs) = logs else {
        return Err(CliError::Usage(FRAMES_NEED_FOLDER.into()));
    };
    for (dp, log) in a.distorted.iter().zip(logs) {
        let pair = ScoreArgs {
            distorted: vec![dp.clone()],
            output: Some(log),
            ..a.clone()
        };
        run::score(&pair)?;
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
    // --frames: checked as for a pair (partial.rs); its partial logs are JSON.
    if a.frames.is_some() && a.output.is_none() {
        return Err(CliError::Usage(FRAMES_NEED_FOLDER.into()));
    }
    let ranged = partial::frames_of(a)?.is_some();
    let ext = if ranged { "json" } else { fmt.name() };
    let logs = match &a.output {
        None => None,
        Some(dir) if dir.is_dir() => Some(log_paths(dir, &a.distorted, ext)?),
        Some(dir) => {
            return Err(CliError::Usage(format!(
                "-o {}: with several -d, -o names an existing folder for their logs",
                dir.display()
            )))
        }
    };
    if ranged {
        if rp.as_os_str() == "-" {
            return Err(CliError::Usage(
                "--frames with several -d scores each rendition's range in turn, reading the \
                 reference once for each: it cannot be standard input (-r -)"
                    .into(),
            ));
        }
        return score_ranges(a, logs);
    }
    if a.html.is_some() {
        check_page_rows(&a.distorted)?;
    }
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
    if a.html.is_some() && !a.html_plot.is_empty() {
        // A `--html-plot` name the logs cannot hold is refused before any frame is read.
        html::check_plot_names(&a.html_plot, run::scoring_config(a)?, reference.geometry())
            .map_err(CliError::Usage)?;
    }
    let facts = (
        html::InputFacts::of(&reference),
        readers.iter().map(html::InputFacts::of).collect::<Vec<_>>(),
    );
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
    if let Some((p, log)) = partial {
        // No page: a stopped or failed run's scores are not the renditions'.
        return Err(interrupt::partial_outcome(&p, log.as_deref()));
    }
    if let Some(page) = &a.html {
        write_page(a, page, facts, &reports)?;
    }
    Ok(())
}

/// Writes the page comparing the renditions' `reports` to `page`.
fn write_page(
    a: &ScoreArgs,
    page: &Path,
    (reference, inputs): (html::InputFacts, Vec<html::InputFacts>),
    reports: &[vmafx::Report],
) -> Result<(), CliError> {
    let tables: Vec<_> = reports.iter().map(vmafx::Report::table).collect();
    let renditions = a
        .distorted
        .iter()
        .zip(inputs)
        .zip(&tables)
        .map(|((dp, input), (table, info))| html::Rendition {
            stem: stem_of(dp),
            input,
            table,
            info,
        })
        .collect();
    let job = html::LadderJob {
        reference,
        renditions,
        models: reports.first().map(html::models_of).unwrap_or_default(),
        plot: &a.html_plot,
        command: std::env::args().collect::<Vec<_>>().join(" "),
    };
    html::write_ladder(&job, page).map_err(CliError::Input)
}
