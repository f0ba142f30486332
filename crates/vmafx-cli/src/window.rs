//! `--window`: each window's pooled model scores printed, one line, as soon as the window
//! is final, while the inputs are still being read.

use std::io::Write;

use vmafx::score::WindowLength;
use vmafx::{PoolMethod, WindowScores};

use crate::error::CliError;

/// The window length of `--window`: `1s`, `0.5s` (seconds of video) or `30f` (frames).
pub fn length_of(text: &str) -> Result<WindowLength, CliError> {
    let bad = |why: String| CliError::Usage(format!("--window {text}: {why}"));
    if let Some(n) = text.strip_suffix('f') {
        let frames: u64 = n
            .parse()
            .map_err(|_| bad("a frame count is a whole number (30f)".into()))?;
        return WindowLength::frames(frames).map_err(|e| bad(e.message().to_string()));
    }
    if let Some(s) = text.strip_suffix('s') {
        let seconds: f64 = s
            .parse()
            .map_err(|_| bad("a length in seconds is a number (1s, 0.5s)".into()))?;
        return WindowLength::seconds(seconds).map_err(|e| bad(e.message().to_string()));
    }
    Err(bad("give seconds (1s) or frames (30f)".into()))
}

/// The line of one window: its number, frames, times and each model's pooled mean, min and
/// harmonic mean.
pub fn line(w: &WindowScores) -> String {
    let s = &w.span;
    let secs = |ns: i64| ns as f64 / 1e9;
    let mut out = format!(
        "window {}: frames {}-{} ({:.3}-{:.3} s)",
        s.window,
        s.first,
        s.last,
        secs(s.start_ns),
        secs(s.end_ns)
    );
    for (label, _) in &w.models {
        let p = |m| w.pooled(label, m).unwrap_or(f64::NAN);
        out.push_str(&format!(
            " {label}: mean {:.6} min {:.6} harmonic_mean {:.6}",
            p(PoolMethod::Mean),
            p(PoolMethod::Min),
            p(PoolMethod::HarmonicMean)
        ));
    }
    if s.partial {
        out.push_str(" (partial)");
    }
    out
}

/// Prints each window's line and flushes at once: on stdout, or on stderr where the log
/// takes stdout.
pub fn printer(log_on_stdout: bool) -> vmafx::scorer::WindowCallback {
    Box::new(move |w| {
        let text = format!("{}\n", line(&w));
        // A closed pipe ends the watcher, not the scoring: the log is still written.
        let _ = if log_on_stdout {
            let mut e = std::io::stderr().lock();
            e.write_all(text.as_bytes()).and_then(|()| e.flush())
        } else {
            let mut o = std::io::stdout().lock();
            o.write_all(text.as_bytes()).and_then(|()| o.flush())
        };
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lengths() {
        assert_eq!(length_of("1s").unwrap(), WindowLength::Nanos(1_000_000_000));
        assert_eq!(length_of("0.5s").unwrap(), WindowLength::Nanos(500_000_000));
        assert_eq!(length_of("30f").unwrap(), WindowLength::Frames(30));
        for bad in ["", "1", "0f", "-1s", "xs", "1.5f", "2m"] {
            assert!(matches!(length_of(bad), Err(CliError::Usage(_))), "{bad}");
        }
    }
}
