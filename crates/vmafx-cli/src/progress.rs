//! Progress on a terminal: frames and fps, silent when stderr is not a TTY or with `-q`.

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::IsTerminal;

/// A bar (or a spinner while the frame count is unknown) fed by the scorer's progress
/// callback, or nothing.
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
        bar.set_style(spinner());
        Progress { bar: Some(bar) }
    }

    /// The callback that draws the scorer's progress on the bar (none when not shown).
    pub fn callback(&self) -> Option<vmafx::scorer::ProgressCallback> {
        let bar = self.bar.clone()?;
        Some(Box::new(move |p: vmafx::Progress| {
            if let (Some(total), None) = (p.total, bar.length()) {
                bar.set_length(total);
                bar.set_style(
                    ProgressStyle::with_template("{bar:40} {pos}/{len} frames {per_sec} {eta}")
                        .unwrap_or_else(|_| spinner()),
                );
            }
            bar.set_position(p.done);
        }))
    }

    /// Removes the bar.
    pub fn finish(&self) {
        if let Some(b) = &self.bar {
            b.finish_and_clear();
        }
    }
}

fn spinner() -> ProgressStyle {
    ProgressStyle::with_template("{spinner} {pos} frames {per_sec} {elapsed}")
        .unwrap_or_else(|_| ProgressStyle::default_spinner())
}
