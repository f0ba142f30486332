//! Newline-delimited JSON-RPC over a byte stream (stdio, a socket connection): read a line,
//! answer it, until the stream ends or the transport is stopped.

use std::io::{self, ErrorKind, Read, Write};
use std::sync::atomic::{AtomicBool, Ordering};

use crate::server::Server;

/// The longest message read (a longer one closes the stream with a parse error answer).
pub const MAX_MESSAGE: usize = 16 << 20;

/// Serves `input` to `output` until end of stream, an I/O error, or `stop`. Reads that time
/// out (`WouldBlock`/`TimedOut`) only check `stop` and read again.
pub(crate) fn serve(
    server: &Server,
    input: &mut dyn Read,
    output: &mut dyn Write,
    stop: &AtomicBool,
) -> io::Result<()> {
    let mut pending: Vec<u8> = Vec::new();
    let mut chunk = [0u8; 64 * 1024];
    loop {
        while let Some(end) = pending.iter().position(|&b| b == b'\n') {
            let line: Vec<u8> = pending.drain(..=end).collect();
            answer(server, &line[..end], output)?;
        }
        if pending.len() > MAX_MESSAGE {
            let e = crate::rpc::RpcError::new(
                crate::rpc::PARSE_ERROR,
                format!("message longer than {MAX_MESSAGE} bytes"),
            );
            writeln!(output, "{}", crate::rpc::error(serde_json::Value::Null, &e))?;
            output.flush()?;
            return Ok(());
        }
        if stop.load(Ordering::Relaxed) {
            return Ok(());
        }
        match input.read(&mut chunk) {
            Ok(0) => {
                // A last message without its newline still counts.
                return answer(server, &pending, output);
            }
            Ok(n) => pending.extend_from_slice(&chunk[..n]),
            Err(e)
                if matches!(
                    e.kind(),
                    ErrorKind::WouldBlock | ErrorKind::TimedOut | ErrorKind::Interrupted
                ) => {}
            Err(e) => return Err(e),
        }
    }
}

fn answer(server: &Server, line: &[u8], output: &mut dyn Write) -> io::Result<()> {
    let text = String::from_utf8_lossy(line);
    if let Some(reply) = server.handle(&text) {
        output.write_all(reply.as_bytes())?;
        output.write_all(b"\n")?;
        output.flush()?;
    }
    Ok(())
}
