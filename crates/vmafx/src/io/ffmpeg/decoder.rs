//! The ffmpeg child process: its standard output read as a stream, its standard error
//! drained by a thread into a bounded buffer, and the process killed and reaped on drop.

use std::ffi::OsString;
use std::io::{ErrorKind, Read};
use std::path::Path;
use std::process::{Child, ChildStdout, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;

use crate::error::{Error, Result};

/// How to install ffmpeg, for the error where it is missing.
pub(super) const INSTALL_HINT: &str =
    "install FFmpeg (Debian/Ubuntu: apt-get install ffmpeg; Fedora: dnf \
                            install ffmpeg; macOS: brew install ffmpeg) or give its path with \
                            --ffmpeg PATH";

/// Most bytes of a child's standard error kept for its error message.
const STDERR_KEEP: usize = 16 << 10;

/// A running decoder: its y4m output as a byte stream.
pub(crate) struct Decoder {
    child: Child,
    stdout: ChildStdout,
    stderr: Arc<Mutex<Vec<u8>>>,
    drain: Option<JoinHandle<()>>,
    /// The exit was checked (clean end of output).
    finished: bool,
}

impl Decoder {
    /// Starts `program` with `args` for the input `name`.
    pub(crate) fn spawn(program: &Path, args: &[OsString], name: &str) -> Result<Self> {
        let mut child = Command::new(program)
            .args(args)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|e| {
                let why = match e.kind() {
                    ErrorKind::NotFound => format!("no such program; {INSTALL_HINT}"),
                    _ => e.to_string(),
                };
                Error::io(
                    name,
                    format!("cannot start {} to decode it: {why}", program.display()),
                )
            })?;
        let (Some(stdout), Some(mut err)) = (child.stdout.take(), child.stderr.take()) else {
            let _ = child.kill();
            let _ = child.wait();
            return Err(Error::io(name, "ffmpeg started without its pipes"));
        };
        let stderr = Arc::new(Mutex::new(Vec::new()));
        let sink = Arc::clone(&stderr);
        let drain = std::thread::Builder::new()
            .name("vmafx-ffmpeg-stderr".into())
            .spawn(move || {
                let mut chunk = [0u8; 4096];
                loop {
                    match err.read(&mut chunk) {
                        Ok(0) => break,
                        Ok(n) => {
                            let mut kept = sink.lock().unwrap_or_else(|p| p.into_inner());
                            let room = STDERR_KEEP.saturating_sub(kept.len());
                            kept.extend_from_slice(&chunk[..n.min(room)]);
                        }
                        Err(e) if e.kind() == ErrorKind::Interrupted => {}
                        Err(_) => break,
                    }
                }
            })
            .map_err(|e| Error::io(name, format!("cannot start a thread: {e}")))?;
        Ok(Decoder {
            child,
            stdout,
            stderr,
            drain: Some(drain),
            finished: false,
        })
    }

    /// At the end of the output: waits for the child and turns a failed exit into an error
    /// carrying its message.
    fn finish(&mut self) -> std::io::Result<()> {
        if self.finished {
            return Ok(());
        }
        self.finished = true;
        let status = self.child.wait()?;
        if let Some(t) = self.drain.take() {
            let _ = t.join();
        }
        if status.success() {
            return Ok(());
        }
        let text = self.stderr.lock().unwrap_or_else(|p| p.into_inner());
        Err(std::io::Error::other(format!(
            "ffmpeg cannot decode it: {}",
            message_of(&text, status.code())
        )))
    }
}

impl Read for Decoder {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.stdout.read(buf)?;
        if n == 0 && !buf.is_empty() {
            self.finish()?;
        }
        Ok(n)
    }
}

impl Drop for Decoder {
    fn drop(&mut self) {
        if !self.finished {
            // Stopped early (enough frames, or the other input ended): no zombie left.
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
        if let Some(t) = self.drain.take() {
            let _ = t.join();
        }
    }
}

/// A child's standard error as one message, or its exit status where it said nothing.
pub(super) fn message_of(stderr: &[u8], code: Option<i32>) -> String {
    let text = String::from_utf8_lossy(stderr);
    let lines: Vec<&str> = text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect();
    let status = match code {
        Some(c) => format!("exit status {c}"),
        None => "killed by a signal".to_string(),
    };
    if lines.is_empty() {
        status
    } else {
        format!("{} ({status})", lines.join(" | "))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::PathBuf;

    #[test]
    fn a_failed_child_gives_its_message_and_status() {
        assert_eq!(
            message_of(b"x.mkv: Invalid data found\n\n", Some(1)),
            "x.mkv: Invalid data found (exit status 1)"
        );
        assert_eq!(message_of(b"", Some(69)), "exit status 69");
    }

    fn sh(script: &str) -> Decoder {
        let args = [OsString::from("-c"), OsString::from(script)];
        Decoder::spawn(Path::new("/bin/sh"), &args, "test input").unwrap()
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn a_decoder_dropped_early_is_killed_and_reaped() {
        let mut d = sh("while :; do echo frame; done");
        let pid = d.child.id();
        let mut buf = [0u8; 64];
        d.read_exact(&mut buf).unwrap();
        drop(d);
        // Reaped: no process, not even a zombie, is left under that id.
        let proc_dir = PathBuf::from(format!("/proc/{pid}"));
        assert!(!proc_dir.exists(), "child {pid} is still there");
    }

    #[test]
    fn a_failing_decoder_fails_the_read_with_its_own_message() {
        let mut d = sh("printf 'YUV'; echo 'enc.mkv: Invalid data found' >&2; exit 3");
        let mut out = Vec::new();
        let e = d.read_to_end(&mut out).unwrap_err().to_string();
        assert_eq!(out, b"YUV");
        assert!(
            e.contains("Invalid data found") && e.contains("exit status 3"),
            "{e}"
        );
    }

    #[test]
    fn a_chatty_decoder_never_blocks_and_its_message_stays_bounded() {
        let mut d = sh("head -c 1000000 /dev/zero | tr '\\0' x >&2; echo done");
        let mut out = String::new();
        d.read_to_string(&mut out).unwrap();
        assert_eq!(out, "done\n");
        assert!(d.stderr.lock().unwrap().len() <= STDERR_KEEP);
    }
}
