//! The Unix domain socket transport: each connection is a newline-delimited JSON-RPC stream.

use std::io;
use std::os::unix::net::UnixListener;
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use super::{lines, Running};
use crate::server::Server;

/// VMAFx's limit on a socket path (sun_path holds 108 bytes on Linux).
pub const MAX_PATH: usize = 100;

/// Binds `path` (a stale socket file there is replaced) and serves each connection on its
/// own thread until stopped; the socket file is removed on stop.
pub(crate) fn start(server: Arc<Server>, path: &Path) -> io::Result<Running> {
    if path.as_os_str().len() >= MAX_PATH {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            format!(
                "socket path {} is {} bytes; it must be shorter than {MAX_PATH}",
                path.display(),
                path.as_os_str().len()
            ),
        ));
    }
    if let Ok(meta) = std::fs::symlink_metadata(path) {
        use std::os::unix::fs::FileTypeExt;
        if meta.file_type().is_socket() {
            std::fs::remove_file(path)?;
        }
    }
    let listener = UnixListener::bind(path)?;
    listener.set_nonblocking(true)?;
    let stop = Arc::new(AtomicBool::new(false));
    let flag = stop.clone();
    let owned = path.to_path_buf();
    let thread = std::thread::Builder::new()
        .name("vmafx-mcp-uds".into())
        .spawn(move || {
            let mut conns = Vec::new();
            while !flag.load(Ordering::Relaxed) {
                match listener.accept() {
                    Ok((stream, _)) => {
                        let (server, flag) = (server.clone(), flag.clone());
                        conns.push(std::thread::spawn(move || {
                            let _ = stream.set_nonblocking(false);
                            let _ = stream.set_read_timeout(Some(Duration::from_millis(50)));
                            let mut out = match stream.try_clone() {
                                Ok(s) => s,
                                Err(_) => return,
                            };
                            let mut input = stream;
                            let _ = lines::serve(&server, &mut input, &mut out, &flag);
                        }));
                    }
                    Err(e) if e.kind() == io::ErrorKind::WouldBlock => {
                        std::thread::sleep(Duration::from_millis(20));
                    }
                    Err(_) => std::thread::sleep(Duration::from_millis(20)),
                }
                conns.retain(|c: &std::thread::JoinHandle<()>| !c.is_finished());
            }
            for c in conns {
                let _ = c.join();
            }
            let _ = std::fs::remove_file(&owned);
        })?;
    Ok(Running::new(stop, thread))
}
