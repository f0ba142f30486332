//! A borrowed file descriptor read with a timeout (so a stopped transport notices) and
//! written in full: the stdio transport's ends.

use std::io::{self, ErrorKind, Read, Write};
use std::os::fd::RawFd;

/// How long one read waits before checking whether the transport was stopped.
const POLL_MS: i32 = 50;

/// A descriptor the caller owns and keeps open while the transport runs.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Fd(pub RawFd);

impl Read for Fd {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let mut p = libc::pollfd {
            fd: self.0,
            events: libc::POLLIN,
            revents: 0,
        };
        // SAFETY: `p` is one valid pollfd on the stack, and the count passed is 1.
        let ready = unsafe { libc::poll(&mut p, 1, POLL_MS) };
        if ready < 0 {
            return Err(io::Error::last_os_error());
        }
        if ready == 0 {
            return Err(ErrorKind::WouldBlock.into());
        }
        // SAFETY: `buf` is a valid writable slice of `buf.len()` bytes.
        let n = unsafe { libc::read(self.0, buf.as_mut_ptr().cast(), buf.len()) };
        if n < 0 {
            return Err(io::Error::last_os_error());
        }
        Ok(n as usize)
    }
}

impl Write for Fd {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        // SAFETY: `buf` is a valid readable slice of `buf.len()` bytes.
        let n = unsafe { libc::write(self.0, buf.as_ptr().cast(), buf.len()) };
        if n < 0 {
            return Err(io::Error::last_os_error());
        }
        Ok(n as usize)
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}
