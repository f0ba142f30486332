//! `vmafx mcp`: the Model Context Protocol server on standard input and output (until input
//! ends), or on a Unix socket or loopback SSE (until interrupted).

use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use crate::args::McpArgs;
use crate::error::CliError;

/// Serves until standard input ends, or for a socket until the process is interrupted.
pub fn serve(a: &McpArgs) -> Result<(), CliError> {
    let server = Arc::new(vmafx_mcp::Server::new(a.name.as_deref()));
    let listening = if let Some(path) = &a.socket {
        Some(
            vmafx_mcp::start_uds(server, path).map_err(|e| {
                CliError::Input(format!("listening on socket {}: {e}", path.display()))
            })?,
        )
    } else if let Some(port) = a.sse_port {
        let (running, bound) = vmafx_mcp::start_sse(server, port, None)
            .map_err(|e| CliError::Input(format!("listening on 127.0.0.1:{port}: {e}")))?;
        eprintln!(
            "vmafx mcp: SSE on http://127.0.0.1:{bound}{}",
            vmafx_mcp::DEFAULT_SSE_PATH
        );
        Some(running)
    } else {
        let stop = AtomicBool::new(false);
        return vmafx_mcp::transport::stdio::serve_fds(&server, 0, 1, &stop)
            .map_err(|e| CliError::Input(format!("serving MCP on standard input/output: {e}")));
    };
    if let Some(p) = &a.socket {
        eprintln!("vmafx mcp: listening on {}", p.display());
    }
    // The transport runs on its own threads; this one waits for Ctrl-C or a kill, which ends
    // the process (the socket file is left for the next start to replace).
    let _keep = listening;
    loop {
        std::thread::park();
    }
}
