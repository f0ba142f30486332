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

/// The writer for the log at `out` (`-`: standard output).
pub fn create(out: &Path) -> Result<Box<dyn Write>, CliError> {
    if log_to_stdout(Some(out)) {
        return Ok(Box::new(std::io::BufWriter::new(std::io::stdout().lock())));
    }
    let file = std::fs::File::create(out)
        .map_err(|e| CliError::Input(format!("cannot create {}: {e}", out.display())))?;
    Ok(Box::new(std::io::BufWriter::new(file)))
}
