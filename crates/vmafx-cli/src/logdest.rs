//! Where the log and the pooled scores go: `-o -` writes the log to standard output, and
//! the pooled scores then go to standard error so the two never mix.

use std::io::Write;
use std::path::Path;

use crate::error::CliError;

/// Whether the log goes to standard output.
pub fn log_to_stdout(output: Option<&Path>) -> bool {
    output.is_some_and(|p| p.as_os_str() == "-")
}

/// Prints a pooled-score line: on stdout, or on stderr where the log takes stdout.
pub fn say(log_on_stdout: bool, line: &str) {
    if log_on_stdout {
        eprintln!("{line}");
    } else {
        println!("{line}");
    }
}

/// Writes the log `text` to `out`: standard output for `-`; a regular file through a
/// temporary file renamed in place, so a full disk or a failed write leaves no cut log
/// under the final name; a device or pipe (`/dev/full`) directly, its failure reported.
pub fn write_log(out: &Path, text: &str) -> Result<(), CliError> {
    if log_to_stdout(Some(out)) {
        let mut w = std::io::stdout().lock();
        return w
            .write_all(text.as_bytes())
            .and_then(|()| w.flush())
            .map_err(|e| CliError::Input(format!("writing the log to standard output: {e}")));
    }
    vmafx::output::write_file_atomically(out, text.as_bytes()).map_err(CliError::from)
}
