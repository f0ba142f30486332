//! The CLI's failures and the exit code each one means.

/// A failure and how the process should exit.
#[derive(Debug)]
pub enum CliError {
    /// The command line is wrong (exit 2).
    Usage(String),
    /// Input, model or scoring failed (exit 1).
    Input(String),
    /// Ctrl-C stopped the run (exit 130); the message says what was kept.
    Interrupted(String),
}

impl From<vmafx::Error> for CliError {
    fn from(e: vmafx::Error) -> Self {
        CliError::Input(e.to_string())
    }
}
