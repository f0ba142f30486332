//! Ctrl-C: the first press asks the run to stop reading (the pairs already read are
//! scored and the log of them is written, marked partial; exit status 130) and is passed on
//! to the decoders' process groups; a second press ends the process at once, for a run
//! stuck on an input that sends nothing.

use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, OnceLock};

use vmafx::score::{Partial, PartialReason};

use crate::error::CliError;

/// Exit status of a run stopped by Ctrl-C (128 + SIGINT), as shells report it.
pub const EXIT_INTERRUPTED: u8 = 130;

/// The flag the handler sets, installing the handler on the first call. Every later call
/// (the renditions of a `--frames` ladder are run one after another) gets the same flag:
/// a second handler cannot be installed, and a flag of its own would never be set. Where
/// no handler can be installed (one is already there), Ctrl-C keeps its default: the run
/// simply ends.
pub fn stop_flag() -> Arc<AtomicBool> {
    static FLAG: OnceLock<Arc<AtomicBool>> = OnceLock::new();
    Arc::clone(FLAG.get_or_init(install))
}

/// Installs the handler; returns the flag it sets.
fn install() -> Arc<AtomicBool> {
    let flag = Arc::new(AtomicBool::new(false));
    let seen = Arc::clone(&flag);
    let installed = ctrlc::set_handler(move || {
        if seen.swap(true, Ordering::SeqCst) {
            std::process::exit(i32::from(EXIT_INTERRUPTED));
        }
        // Decoders run in process groups of their own (so that a wrapper is ended with its
        // children): pass the terminal's Ctrl-C on, so ffmpeg ends its output.
        vmafx::io::ffmpeg::interrupt_decoders();
        eprintln!(
            "\ninterrupted: finishing the frames read and writing the log of them \
             (Ctrl-C again to quit at once)"
        );
    });
    if let Err(e) = installed {
        eprintln!("warning: Ctrl-C will end the run without a log: {e}");
    }
    flag
}

/// How a partial run ends, once its log is written: exit 130 for Ctrl-C, 1 for an input
/// that failed, with what was kept.
pub fn partial_outcome(p: &Partial, log: Option<&Path>) -> CliError {
    let kept = match log {
        Some(out) if out.as_os_str() == "-" => {
            format!(
                "the log on standard output holds the {} frames scored, marked partial",
                p.frames
            )
        }
        Some(out) => format!(
            "{} holds the {} frames scored, marked partial",
            out.display(),
            p.frames
        ),
        None => format!("{} frames were scored (no log was asked for)", p.frames),
    };
    match p.reason {
        PartialReason::Interrupted => CliError::Interrupted(kept),
        PartialReason::InputFailed => CliError::Input(format!("{}; {kept}", p.detail)),
    }
}
