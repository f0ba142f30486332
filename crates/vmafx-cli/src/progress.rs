//! Progress on a terminal, silent when stderr is not a TTY or with `-q`: frames done of the
//! total (where the inputs say how many) with a bar, the rate to one decimal and the time
//! left; a spinner with the count and rate otherwise.

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressState, ProgressStyle};
use std::io::IsTerminal;

/// `frame` or `frames`, as `n` asks.
pub fn frames_word(n: u64) -> &'static str {
    if n == 1 {
        "frame"
    } else {
        "frames"
    }
}

/// A rate as the bar shows it: one decimal.
pub fn fps_text(per_sec: f64) -> String {
    if per_sec.is_finite() {
        format!("{per_sec:.1} fps")
    } else {
        "- fps".into()
    }
}

/// The bar's style: with a total, `[bar] 12/120 frames 31.4 fps 3s left`.
fn style(total: Option<u64>) -> ProgressStyle {
    let template = match total {
        Some(_) => "{bar:30} {pos}/{len} {frames} {fps} {eta} left",
        None => "{spinner} {pos} {frames} {fps} {elapsed}",
    };
    ProgressStyle::with_template(template)
        .unwrap_or_else(|_| ProgressStyle::default_spinner())
        .with_key(
            "frames",
            |s: &ProgressState, w: &mut dyn std::fmt::Write| {
                let _ = w.write_str(frames_word(s.len().unwrap_or(s.pos())));
            },
        )
        .with_key("fps", |s: &ProgressState, w: &mut dyn std::fmt::Write| {
            let _ = write!(w, "{}", fps_text(s.per_sec()));
        })
}

/// A bar or spinner with the frame count and rate, or nothing.
pub struct Progress {
    bar: Option<ProgressBar>,
}

impl Progress {
    /// Shown only on a terminal and when not quiet; `total` frames where known.
    pub fn new(quiet: bool, total: Option<u64>) -> Self {
        if quiet || !std::io::stderr().is_terminal() {
            return Progress { bar: None };
        }
        let bar = ProgressBar::with_draw_target(total, ProgressDrawTarget::stderr());
        bar.set_style(style(total));
        Progress { bar: Some(bar) }
    }

    /// The callback that draws the scorer's progress on the bar (none when not shown); a
    /// total the scorer learns later turns the spinner into a bar.
    pub fn callback(&self) -> Option<vmafx::scorer::ProgressCallback> {
        let bar = self.bar.clone()?;
        Some(Box::new(move |p: vmafx::Progress| {
            if let (Some(total), None) = (p.total, bar.length()) {
                bar.set_length(total);
                bar.set_style(style(Some(total)));
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_frame_is_singular_and_rates_have_one_decimal() {
        assert_eq!(frames_word(1), "frame");
        assert_eq!(frames_word(0), "frames");
        assert_eq!(frames_word(2), "frames");
        assert_eq!(fps_text(31.4159), "31.4 fps");
        assert_eq!(fps_text(f64::INFINITY), "- fps");
    }
}
