//! A run that stopped before its inputs ended: why, and how many frames it scored.
//!
//! Logs of such a run carry the mark (see [`crate::output`]) so a reader never takes a
//! short log for a whole one.

use std::fmt;

/// Why a run stopped early.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum PartialReason {
    /// The caller asked it to stop (Ctrl-C in the command line).
    Interrupted,
    /// An input failed while being read (a decoder that died, a stream cut mid-frame).
    InputFailed,
}

impl PartialReason {
    /// The name logs print: `interrupted` or `input_failed`.
    pub fn name(self) -> &'static str {
        match self {
            PartialReason::Interrupted => "interrupted",
            PartialReason::InputFailed => "input_failed",
        }
    }
}

impl fmt::Display for PartialReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The mark of a partial run: why it stopped, the frames scored, and the failure's text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Partial {
    /// Why it stopped.
    pub reason: PartialReason,
    /// Frames scored (and written) before it stopped.
    pub frames: u64,
    /// What happened, for people (the input error's text; empty for an interruption).
    pub detail: String,
}
