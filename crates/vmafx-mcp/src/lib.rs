//! vmafx's Model Context Protocol server: JSON-RPC 2.0 so an assistant (or any MCP client)
//! can score a video pair with vmafx and read the scores and what made them.
//!
//! A [`Server`] answers messages; transports carry them: file descriptors ([`start_stdio`],
//! or [`transport::stdio::serve_fds`] on the calling thread as `vmafx mcp` does), a Unix
//! domain socket ([`start_uds`]) and server-sent events on loopback HTTP ([`start_sse`]).
//! Stdio and socket messages are one JSON object per line.
//!
//! Tools (`tools/list` describes their arguments): `compute_vmaf` scores a pair (y4m, raw
//! yuv with its geometry, or anything ffmpeg decodes) with a built-in model and keeps the run;
//! `get_scores` reads a kept run's pooled and per-frame scores; `get_provenance` reads what
//! made them (the engine's provenance record, and the inputs); `list_models`,
//! `list_features`. `compute_vmaf` takes VMAFx's argument names.
//!
//! ```no_run
//! let server = vmafx_mcp::Server::new(None);
//! let answer = server.handle(r#"{"jsonrpc":"2.0","id":1,"method":"tools/list"}"#);
//! println!("{}", answer.unwrap());
//! ```

mod provenance;
pub mod rpc;
mod runs;
pub mod server;
mod tools;
pub mod transport;

use std::io;
use std::os::fd::RawFd;
use std::path::Path;
use std::sync::Arc;

pub use runs::KEPT_RUNS;
pub use server::{Server, PROTOCOL_VERSION};
pub use tools::DEFAULT_MODEL;
pub use transport::sse::DEFAULT_PATH as DEFAULT_SSE_PATH;
pub use transport::uds::MAX_PATH as MAX_UDS_PATH;
pub use transport::Running;

/// Serves descriptor `fd_in` to `fd_out` on a thread of its own until stopped or `fd_in`
/// ends; the descriptors stay the caller's.
pub fn start_stdio(server: Arc<Server>, fd_in: RawFd, fd_out: RawFd) -> io::Result<Running> {
    transport::stdio::start(server, fd_in, fd_out)
}

/// Listens on Unix socket `path` (shorter than [`MAX_UDS_PATH`] bytes; a stale socket there
/// is replaced) until stopped, one thread per connection.
pub fn start_uds(server: Arc<Server>, path: &Path) -> io::Result<Running> {
    transport::uds::start(server, path)
}

/// Listens on 127.0.0.1:`port` (0: an ephemeral port) for MCP's HTTP+SSE binding at `path`
/// ([`DEFAULT_SSE_PATH`] when `None`); returns the transport and the bound port. Loopback
/// only: the server is never reachable from another machine.
pub fn start_sse(server: Arc<Server>, port: u16, path: Option<&str>) -> io::Result<(Running, u16)> {
    transport::sse::start(server, port, path.unwrap_or(DEFAULT_SSE_PATH))
}
