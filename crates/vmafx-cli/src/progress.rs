//! Progress on a terminal: frames and fps, silent when stderr is not a TTY or with `-q`.

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::IsTerminal;

/// A spinner with the frame count and rate, or nothing.
pub struct Progress {
    bar: Option<ProgressBar>,
}

impl Progress {
    /// Shown only on a terminal and when not quiet.
    pub fn new(quiet: bool) -> Self {
        if quiet || !std::io::stderr().is_terminal() {
            return Progress { bar: None };
        }
        let bar = ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr());
        bar.set_style(
            ProgressStyle::with_template("{spinner} {pos} frames {per_sec} {elapsed}")
                .unwrap_or_else(|_| ProgressStyle::default_spinner()),
        );
        Progress { bar: Some(bar) }
    }

    /// One more frame scored.
    pub fn tick(&self) {
        if let Some(b) = &self.bar {
            b.inc(1);
        }
    }

    /// Removes the bar.
    pub fn finish(&self) {
        if let Some(b) = &self.bar {
            b.finish_and_clear();
        }
    }
}
