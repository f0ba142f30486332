//! The window clock: cuts a live stream of frames into windows of a fixed length in time
//! (`n_stats` seconds) or in frames (`n_stats_frames`), one span per window.
//!
//! Pure bookkeeping: frames come in with their index and presentation time, and a window
//! is closed by the first frame past it (or by [`WindowClock::finish`] at the end of the
//! stream). Pooling a closed window's frames is the caller's business.
//!
//! - By time, window `k` holds the frames whose time lies in `[t0 + k*len, t0 + (k+1)*len)`,
//!   `t0` the first frame's time; the length is whole nanoseconds, so membership is exact.
//! - By frames, window `k` holds the frames whose index lies in `[i0 + k*n, i0 + (k+1)*n)`,
//!   `i0` the first frame's index.
//!
//! Windows no frame falls in (a gap in the stream) are skipped, so window numbers can jump.
//! Indices must increase strictly and times must not decrease; a refused frame leaves the
//! clock as it was.

use crate::error::{Error, Result};

/// How long a window is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WindowLength {
    /// A window per this many nanoseconds of presentation time (at least 1).
    Nanos(u64),
    /// A window per this many frame indices (at least 1).
    Frames(u64),
}

impl WindowLength {
    /// A length of `seconds` (finite, above 0), rounded to whole nanoseconds (at least 1).
    /// Anything else is refused naming `n_stats`.
    pub fn seconds(seconds: f64) -> Result<WindowLength> {
        if !seconds.is_finite() || seconds <= 0.0 {
            return Err(Error::invalid(
                "n_stats",
                format!("{seconds} s is not a window length (finite and above 0)"),
            ));
        }
        let ns = (seconds * 1e9).round();
        if ns < 1.0 {
            return Err(Error::invalid(
                "n_stats",
                format!("{seconds} s rounds to no nanosecond"),
            ));
        }
        // An f64 above u64::MAX saturates; such a window never closes, which is right.
        Ok(WindowLength::Nanos(ns as u64))
    }

    /// A length of `frames` indices (at least 1); 0 is refused naming `n_stats_frames`.
    pub fn frames(frames: u64) -> Result<WindowLength> {
        if frames == 0 {
            return Err(Error::invalid(
                "n_stats_frames",
                "a window holds at least 1 frame",
            ));
        }
        Ok(WindowLength::Frames(frames))
    }
}

/// One window of the stream as the clock cut it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WindowSpan {
    /// Window number `k` (counted from the first frame's window, which is 0).
    pub window: u64,
    /// Index of the window's first frame.
    pub first: u64,
    /// Index of the window's last frame.
    pub last: u64,
    /// Frames the clock saw in the window.
    pub n_frames: u64,
    /// By time: `t0 + k*len`; by frames: the first frame's time (nanoseconds).
    pub start_ns: i64,
    /// By time: `t0 + (k+1)*len` (exclusive); by frames: the last frame's time.
    pub end_ns: i64,
    /// Whether the stream ended inside the window (only [`WindowClock::finish`] says so).
    pub partial: bool,
}

/// The window being filled.
#[derive(Debug, Clone, Copy)]
struct Open {
    k: u64,
    first: u64,
    last: u64,
    n_frames: u64,
    first_pts: i64,
    last_pts: i64,
}

/// Cuts a stream into windows; see the module documentation.
#[derive(Debug, Clone)]
pub struct WindowClock {
    length: WindowLength,
    /// The first frame's index and time.
    origin: Option<(u64, i64)>,
    open: Option<Open>,
    finished: bool,
}

impl WindowClock {
    /// A clock cutting windows of `length`.
    pub fn new(length: WindowLength) -> WindowClock {
        WindowClock {
            length,
            origin: None,
            open: None,
            finished: false,
        }
    }

    /// The window length.
    pub fn length(&self) -> WindowLength {
        self.length
    }

    /// Tells the clock of frame `index` at time `pts_ns`. When the frame lies past the open
    /// window, that window is over and its span is returned (the frame opens the next one);
    /// otherwise `None`. An index not above the last one is refused naming `index`, a time
    /// below the last one naming `pts_ns`, any frame after [`WindowClock::finish`] naming
    /// `clock`; the clock is then unchanged.
    pub fn frame(&mut self, index: u64, pts_ns: i64) -> Result<Option<WindowSpan>> {
        if self.finished {
            return Err(Error::invalid(
                "clock",
                "the stream was finished; the clock takes no more frames",
            ));
        }
        if let Some(open) = &self.open {
            if index <= open.last {
                return Err(Error::invalid(
                    "index",
                    format!(
                        "frame {index} does not follow frame {} (indices increase strictly)",
                        open.last
                    ),
                ));
            }
            if pts_ns < open.last_pts {
                return Err(Error::invalid(
                    "pts_ns",
                    format!(
                        "time {pts_ns} ns of frame {index} is before {} ns of frame {}",
                        open.last_pts, open.last
                    ),
                ));
            }
        }
        let (i0, t0) = *self.origin.get_or_insert((index, pts_ns));
        let k = match self.length {
            WindowLength::Frames(n) => (index - i0) / n,
            // pts_ns >= t0: times never decrease.
            WindowLength::Nanos(len) => pts_ns.abs_diff(t0) / len,
        };
        let fresh = Open {
            k,
            first: index,
            last: index,
            n_frames: 1,
            first_pts: pts_ns,
            last_pts: pts_ns,
        };
        match &mut self.open {
            Some(open) if open.k == k => {
                open.last = index;
                open.n_frames += 1;
                open.last_pts = pts_ns;
                Ok(None)
            }
            Some(open) => {
                let closed = *open;
                self.open = Some(fresh);
                let span = self.span_of(closed, false);
                Ok(Some(span))
            }
            None => {
                self.open = Some(fresh);
                Ok(None)
            }
        }
    }

    /// Ends the stream: the span of the open window, marked partial unless it is a whole
    /// window by frame count; `None` when no window is open. The clock takes no frame
    /// afterwards.
    pub fn finish(&mut self) -> Option<WindowSpan> {
        self.finished = true;
        let open = self.open.take()?;
        let whole = matches!(self.length, WindowLength::Frames(n) if open.n_frames == n);
        Some(self.span_of(open, !whole))
    }

    fn span_of(&self, open: Open, partial: bool) -> WindowSpan {
        let (start_ns, end_ns) = match self.length {
            WindowLength::Frames(_) => (open.first_pts, open.last_pts),
            WindowLength::Nanos(len) => {
                let t0 = self.origin.map_or(0, |o| o.1);
                let start = add_ns(t0, open.k.saturating_mul(len));
                (start, add_ns(start, len))
            }
        };
        WindowSpan {
            window: open.k,
            first: open.first,
            last: open.last,
            n_frames: open.n_frames,
            start_ns,
            end_ns,
            partial,
        }
    }
}

/// `a + b`, held at `i64::MAX`.
fn add_ns(a: i64, b: u64) -> i64 {
    a.saturating_add_unsigned(b)
}

/// The presentation time in nanoseconds of frame `index` of a stream at `num/den` frames
/// per second, rounded to the nearest nanosecond; held at `i64::MAX`.
pub fn frame_pts_ns(index: u64, fps: (u32, u32)) -> i64 {
    let (num, den) = (u128::from(fps.0.max(1)), u128::from(fps.1));
    let ns = (u128::from(index) * den * 1_000_000_000 + num / 2) / num;
    i64::try_from(ns).unwrap_or(i64::MAX)
}

#[cfg(test)]
#[path = "window_clock_tests.rs"]
mod tests;
