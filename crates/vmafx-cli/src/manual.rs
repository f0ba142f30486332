//! `vmafx completions SHELL` and `vmafx man`: shell completions and the man page, both
//! generated from the clap definition so they never drift from `--help`.

use crate::args::{Cli, CompletionsArgs};
use crate::error::CliError;
use clap::CommandFactory;
use std::io::Write;

/// Writes the completion script for `a.shell` to standard output.
pub fn completions(a: &CompletionsArgs) -> Result<(), CliError> {
    let mut cmd = Cli::command();
    let mut out = std::io::stdout().lock();
    clap_complete::generate(a.shell, &mut cmd, "vmafx", &mut out);
    out.flush()
        .map_err(|e| CliError::Input(format!("writing the completions: {e}")))
}

/// Writes the man page (roff, section 1) to standard output.
pub fn man() -> Result<(), CliError> {
    let cmd = Cli::command()
        .version(vmafx::VERSION)
        .about("score video quality exactly as libvmaf does");
    let mut out = std::io::stdout().lock();
    clap_mangen::Man::new(cmd)
        .render(&mut out)
        .and_then(|()| out.flush())
        .map_err(|e| CliError::Input(format!("writing the man page: {e}")))
}

/// `vmafx --version`: the version, the libvmaf release it matches, and the CPU level its
/// kernels run at here (after `VMAFX_CPU`), beside the level the CPU has.
pub fn version_text() -> String {
    let level = vmafx::cpu::level();
    let detected = vmafx::cpu::detected();
    format!(
        "vmafx {} (libvmaf {} compatible)\ncpu: {} (detected: {})",
        vmafx::VERSION,
        vmafx::LIBVMAF_VERSION,
        level.name(),
        detected.name()
    )
}
