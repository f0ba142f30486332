//! The `vmafx` command line: a drop-in for libvmaf's `vmaf` tool.
//!
//! Exit codes: 0 success, 1 a scoring or input failure (the message names the input),
//! 2 bad command-line usage.

mod args;
mod bench;
mod ctc;
mod error;
mod html;
mod inputs;
mod interrupt;
mod logdest;
mod manual;
mod many;
mod mcp;
mod merge;
mod models;
mod origin;
mod partial;
mod progress;
mod report;
mod run;
mod sample;
mod tiny;
mod window;

use clap::{CommandFactory, FromArgMatches};
use error::CliError;
use std::process::ExitCode;

/// The command line, libvmaf's presets (`--aom_ctc`, `--nflx_ctc`) expanded in place.
fn parse() -> Result<args::Cli, clap::Error> {
    let matches = args::Cli::command().try_get_matches()?;
    let mut cli = args::Cli::from_arg_matches(&matches)?;
    let s = &mut cli.score;
    ctc::expand(
        &matches,
        (&s.aom_ctc, &s.nflx_ctc),
        &mut s.model,
        &mut s.feature,
    );
    Ok(cli)
}

fn main() -> ExitCode {
    let cli = match parse() {
        Ok(c) => c,
        Err(e) => {
            let _ = e.print();
            return match e.kind() {
                clap::error::ErrorKind::DisplayHelp | clap::error::ErrorKind::DisplayVersion => {
                    ExitCode::SUCCESS
                }
                _ => ExitCode::from(2),
            };
        }
    };
    if cli.score.version {
        // `--cpumask` lowers the level shown, as it lowers the level scored at.
        if let Some(mask) = cli.score.cpumask.and_then(|m| u32::try_from(m).ok()) {
            vmafx::cpu::set_cpumask(mask);
        }
        println!("{}", manual::version_text());
        return ExitCode::SUCCESS;
    }
    let result = match &cli.command {
        Some(args::Command::Sample(s)) => sample::write_sample(&s.dir, s.width, s.height, s.frames)
            .map(|(r, d)| {
                println!("{}\n{}", r.display(), d.display());
            })
            .map_err(|e| {
                CliError::Input(format!("writing the sample into {}: {e}", s.dir.display()))
            }),
        Some(args::Command::Bench(b)) => bench::bench(b),
        Some(args::Command::Merge(m)) => merge::merge(m),
        Some(args::Command::Completions(c)) => manual::completions(c),
        Some(args::Command::Man) => manual::man(),
        Some(args::Command::Mcp(m)) => mcp::serve(m),
        Some(args::Command::Report(r)) => report::run(r),
        None if cli.score.distorted.len() > 1 => many::score(&cli.score),
        None => run::score(&cli.score),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(CliError::Usage(m)) => {
            eprintln!("error: {m}\n\nRun `vmafx --help` for the options.");
            ExitCode::from(2)
        }
        Err(CliError::Input(m)) => {
            eprintln!("error: {m}");
            ExitCode::from(1)
        }
        Err(CliError::Interrupted(m)) => {
            eprintln!("interrupted: {m}");
            ExitCode::from(interrupt::EXIT_INTERRUPTED)
        }
    }
}
