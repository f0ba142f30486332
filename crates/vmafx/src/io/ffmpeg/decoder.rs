//! The ffmpeg child process: its standard output read as a stream, its standard error
//! drained by a thread into a bounded buffer, and the process ended and reaped on drop.
//!
//! The program runs in a process group of its own, so that a program that runs ffmpeg as
//! its child (a wrapper script, `nice`, a container launcher) is ended with everything it
//! started: killing the direct child alone would leave ffmpeg blocked on the output pipe
//! and the standard error thread waiting for an end of file that never comes. Every wait
//! is bounded: a thread still reading after [`DRAIN_LIMIT`] is left to end on its own.
//!
//! A decoder in a group of its own no longer gets the terminal's Ctrl-C; a program that
//! handles Ctrl-C itself passes it on with [`interrupt_decoders`].

use std::ffi::OsString;
use std::io::{ErrorKind, Read};
use std::path::Path;
use std::process::{Child, ChildStdout, Command, ExitStatus, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use crate::error::{Error, Result};

/// How to install ffmpeg, for the error where it is missing.
pub(super) const INSTALL_HINT: &str =
    "install FFmpeg (Debian/Ubuntu: apt-get install ffmpeg; Fedora: dnf \
                            install ffmpeg; macOS: brew install ffmpeg) or give its path with \
                            --ffmpeg PATH";

/// Most bytes of a child's standard error kept for its error message.
const STDERR_KEEP: usize = 16 << 10;

/// How long the standard error thread may take to see the end of the pipe once the
/// decoder's group has ended (or its leader has exited); past it, the thread is left behind.
const DRAIN_LIMIT: Duration = Duration::from_secs(2);

/// How long a decoder that closed its output may take to exit before its group is ended.
const EXIT_LIMIT: Duration = Duration::from_secs(10);

/// The thread draining the child's standard error, and the end of a channel whose sender
/// it holds (dropped, so the channel disconnects, when the thread ends).
struct Drain {
    thread: JoinHandle<()>,
    done: Receiver<()>,
}

impl Drain {
    /// Joins the thread where it ends within `limit`; otherwise leaves it to end alone.
    fn join_within(self, limit: Duration) {
        match self.done.recv_timeout(limit) {
            Err(RecvTimeoutError::Timeout) => {}
            _ => {
                let _ = self.thread.join();
            }
        }
    }
}

/// A running decoder: its y4m output as a byte stream.
pub(crate) struct Decoder {
    child: Child,
    /// The output pipe; `None` once closed.
    stdout: Option<ChildStdout>,
    stderr: Arc<Mutex<Vec<u8>>>,
    drain: Option<Drain>,
    /// The exit was checked (clean end of output).
    finished: bool,
}

/// The process groups of the decoders running, by id: a group is listed from its start
/// until just before its leader is reaped, so a signal sent to a listed id reaches it.
static LIVE: Mutex<Vec<u32>> = Mutex::new(Vec::new());

fn live() -> std::sync::MutexGuard<'static, Vec<u32>> {
    LIVE.lock().unwrap_or_else(|p| p.into_inner())
}

/// Sends SIGINT to every running decoder's process group, as a terminal's Ctrl-C would
/// have done had they shared its group: ffmpeg then ends its output. Off Unix, nothing.
pub fn interrupt_decoders() {
    #[cfg(unix)]
    for &group in live().iter() {
        if let Ok(g) = libc::pid_t::try_from(group) {
            // SAFETY: killpg takes two integers and touches no memory of ours; a listed
            // group's leader is not reaped yet (it is unlisted first, under this lock), so
            // the id is still that group's.
            unsafe { libc::killpg(g, libc::SIGINT) };
        }
    }
}

/// Unlists `child`'s group: call it before reaping the child.
fn unlist(child: &Child) {
    live().retain(|&g| g != child.id());
}

/// `cmd` to start in a new process group whose id is the child's own.
#[cfg(unix)]
fn own_group(cmd: &mut Command) {
    use std::os::unix::process::CommandExt;
    cmd.process_group(0);
}

#[cfg(not(unix))]
fn own_group(_cmd: &mut Command) {}

/// Sends SIGKILL to the child's whole process group (the child alone off Unix). Call it
/// only before the child is reaped: until then its id, which is the group's, is not reused.
#[cfg(unix)]
fn end_group(child: &mut Child) {
    let Ok(group) = libc::pid_t::try_from(child.id()) else {
        let _ = child.kill();
        return;
    };
    // SAFETY: killpg takes two integers and touches no memory of ours. The group is the one
    // `own_group` made for this child (its id is the child's pid), and the child is not
    // reaped yet, so no other group can have that id.
    let sent = unsafe { libc::killpg(group, libc::SIGKILL) };
    if sent != 0 {
        let _ = child.kill();
    }
}

#[cfg(not(unix))]
fn end_group(child: &mut Child) {
    let _ = child.kill();
}

/// The child's exit status once it exits within `limit`; `None` if it still runs.
fn wait_within(child: &mut Child, limit: Duration) -> std::io::Result<Option<ExitStatus>> {
    let started = Instant::now();
    let mut pause = Duration::from_millis(1);
    loop {
        if let Some(status) = child.try_wait()? {
            return Ok(Some(status));
        }
        if started.elapsed() >= limit {
            return Ok(None);
        }
        std::thread::sleep(pause);
        pause = (pause * 2).min(Duration::from_millis(50));
    }
}

impl Decoder {
    /// Starts `program` with `args` for the input `name`.
    pub(crate) fn spawn(program: &Path, args: &[OsString], name: &str) -> Result<Self> {
        let mut cmd = Command::new(program);
        cmd.args(args)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        own_group(&mut cmd);
        // Listed under the lock from before the start, so an interruption never misses it.
        let mut listed = live();
        let mut child = cmd.spawn().map_err(|e| {
            let why = match e.kind() {
                ErrorKind::NotFound => format!("no such program; {INSTALL_HINT}"),
                _ => e.to_string(),
            };
            Error::io(
                name,
                format!("cannot start {} to decode it: {why}", program.display()),
            )
        })?;
        listed.push(child.id());
        drop(listed);
        let (Some(stdout), Some(mut err)) = (child.stdout.take(), child.stderr.take()) else {
            unlist(&child);
            end_group(&mut child);
            let _ = child.wait();
            return Err(Error::io(name, "ffmpeg started without its pipes"));
        };
        let stderr = Arc::new(Mutex::new(Vec::new()));
        let sink = Arc::clone(&stderr);
        let (alive, done) = std::sync::mpsc::channel::<()>();
        let thread = std::thread::Builder::new()
            .name("vmafx-ffmpeg-stderr".into())
            .spawn(move || {
                let _alive = alive;
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
            });
        let thread = match thread {
            Ok(t) => t,
            Err(e) => {
                end_group(&mut child);
                unlist(&child);
                let _ = child.wait();
                return Err(Error::io(name, format!("cannot start a thread: {e}")));
            }
        };
        Ok(Decoder {
            child,
            stdout: Some(stdout),
            stderr,
            drain: Some(Drain { thread, done }),
            finished: false,
        })
    }

    /// What the decoder writes on its standard error (bounded), complete once its output
    /// has ended.
    pub(crate) fn messages(&self) -> Arc<Mutex<Vec<u8>>> {
        Arc::clone(&self.stderr)
    }

    /// At the end of the output: waits (bounded) for the child and turns a failed exit
    /// into an error carrying its message.
    fn finish(&mut self) -> std::io::Result<()> {
        if self.finished {
            return Ok(());
        }
        self.finished = true;
        self.stdout = None;
        // The output ended: no interruption is needed any more, and waiting reaps the child.
        unlist(&self.child);
        let status = match wait_within(&mut self.child, EXIT_LIMIT)? {
            Some(s) => s,
            None => {
                end_group(&mut self.child);
                self.child.wait()?
            }
        };
        if let Some(d) = self.drain.take() {
            d.join_within(DRAIN_LIMIT);
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
        let Some(out) = self.stdout.as_mut() else {
            return Ok(0);
        };
        let n = out.read(buf)?;
        if n == 0 && !buf.is_empty() {
            self.finish()?;
        }
        Ok(n)
    }
}

impl Drop for Decoder {
    fn drop(&mut self) {
        if !self.finished {
            // Stopped early (enough frames, or the other input ended): the whole group is
            // ended, the pipe closed, and the child reaped, so no process or zombie is left.
            end_group(&mut self.child);
            unlist(&self.child);
            self.stdout = None;
            // Where not even SIGKILL ends it in time (a process stuck in the kernel), it is
            // left rather than waited for.
            let _ = wait_within(&mut self.child, DRAIN_LIMIT);
        }
        if let Some(d) = self.drain.take() {
            d.join_within(DRAIN_LIMIT);
        }
    }
}

/// The non-empty lines of a child's standard error, trimmed.
pub(super) fn message_lines(stderr: &[u8]) -> Vec<String> {
    String::from_utf8_lossy(stderr)
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .map(String::from)
        .collect()
}

/// A child's standard error as one message, or its exit status where it said nothing.
pub(super) fn message_of(stderr: &[u8], code: Option<i32>) -> String {
    let lines = message_lines(stderr);
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

    #[cfg(unix)]
    #[test]
    fn a_wrapper_whose_child_still_writes_is_ended_with_it_without_a_hang() {
        // `yes` runs as the shell's child (`; true` keeps the shell from exec-ing it) and
        // blocks on the full pipe; it holds standard error open too.
        let mut d = sh("yes frame; true");
        let mut buf = [0u8; 64];
        d.read_exact(&mut buf).unwrap();
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            drop(d);
            let _ = tx.send(());
        });
        assert!(
            rx.recv_timeout(std::time::Duration::from_secs(30)).is_ok(),
            "dropping the decoder hangs on its grandchild"
        );
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
