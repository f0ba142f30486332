//! The file-descriptor transport: requests read from one descriptor, answers written to
//! another (standard input and output for `vmafx mcp`).

use std::io;
use std::os::fd::RawFd;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use super::fd::Fd;
use super::{lines, Running};
use crate::server::Server;

/// Serves `fd_in` to `fd_out` on this thread until `fd_in` ends or `stop` is set. The
/// descriptors stay the caller's (not closed).
pub fn serve_fds(
    server: &Server,
    fd_in: RawFd,
    fd_out: RawFd,
    stop: &AtomicBool,
) -> io::Result<()> {
    check(fd_in, "fd_in")?;
    check(fd_out, "fd_out")?;
    lines::serve(server, &mut Fd(fd_in), &mut Fd(fd_out), stop)
}

/// Serves `fd_in` to `fd_out` on a thread of its own until stopped or `fd_in` ends.
pub(crate) fn start(server: Arc<Server>, fd_in: RawFd, fd_out: RawFd) -> io::Result<Running> {
    check(fd_in, "fd_in")?;
    check(fd_out, "fd_out")?;
    let stop = Arc::new(AtomicBool::new(false));
    let flag = stop.clone();
    let thread = std::thread::Builder::new()
        .name("vmafx-mcp-stdio".into())
        .spawn(move || {
            let _ = lines::serve(&server, &mut Fd(fd_in), &mut Fd(fd_out), &flag);
        })?;
    Ok(Running::new(stop, thread))
}

fn check(fd: RawFd, what: &str) -> io::Result<()> {
    // SAFETY: F_GETFD only reads the descriptor table entry; any integer is a valid argument.
    if fd < 0 || unsafe { libc::fcntl(fd, libc::F_GETFD) } < 0 {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            format!("{what} = {fd} is not an open file descriptor"),
        ));
    }
    Ok(())
}
