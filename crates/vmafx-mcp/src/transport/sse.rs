//! The SSE transport on loopback HTTP (MCP's HTTP+SSE binding): `GET <path>` opens an event
//! stream whose first event names the endpoint to POST messages to; each answer comes back on
//! that stream as a `message` event.

use std::collections::HashMap;
use std::io::{self, BufRead, BufReader, Read, Write};
use std::net::{Ipv4Addr, TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc::{self, RecvTimeoutError, Sender};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use super::{lines::MAX_MESSAGE, Running};
use crate::server::Server;

/// The event stream's path when none is given.
pub const DEFAULT_PATH: &str = "/sse";

/// The longest request head read.
const MAX_HEAD: usize = 64 * 1024;

struct Shared {
    server: Arc<Server>,
    path: String,
    sessions: Mutex<HashMap<u64, Sender<String>>>,
    next: AtomicU64,
    stop: Arc<AtomicBool>,
}

/// Binds 127.0.0.1:`port` (0: an ephemeral port) and serves until stopped; returns the
/// transport and the bound port.
pub(crate) fn start(server: Arc<Server>, port: u16, path: &str) -> io::Result<(Running, u16)> {
    if !path.starts_with('/') || path.contains(['?', ' ', '\r', '\n']) {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            format!("SSE path '{path}' must start with '/' and hold no '?', space or newline"),
        ));
    }
    let listener = TcpListener::bind((Ipv4Addr::LOCALHOST, port))?;
    let bound = listener.local_addr()?.port();
    listener.set_nonblocking(true)?;
    let stop = Arc::new(AtomicBool::new(false));
    let shared = Arc::new(Shared {
        server,
        path: path.to_string(),
        sessions: Mutex::new(HashMap::new()),
        next: AtomicU64::new(1),
        stop: stop.clone(),
    });
    let thread = std::thread::Builder::new()
        .name("vmafx-mcp-sse".into())
        .spawn(move || {
            let mut conns: Vec<std::thread::JoinHandle<()>> = Vec::new();
            while !shared.stop.load(Ordering::Relaxed) {
                match listener.accept() {
                    Ok((stream, _)) => {
                        let shared = shared.clone();
                        conns.push(std::thread::spawn(move || {
                            let _ = connection(&shared, stream);
                        }));
                    }
                    Err(_) => std::thread::sleep(Duration::from_millis(20)),
                }
                conns.retain(|c| !c.is_finished());
            }
            for c in conns {
                let _ = c.join();
            }
        })?;
    Ok((Running::new(stop, thread), bound))
}

fn reply(stream: &mut TcpStream, status: &str, body: &str) -> io::Result<()> {
    write!(
        stream,
        "HTTP/1.1 {status}\r\nContent-Type: text/plain\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    )
}

fn connection(shared: &Shared, stream: TcpStream) -> io::Result<()> {
    stream.set_nonblocking(false)?;
    stream.set_read_timeout(Some(Duration::from_secs(5)))?;
    let mut out = stream.try_clone()?;
    let mut input = BufReader::new(stream);
    let mut request_line = String::new();
    input
        .by_ref()
        .take(MAX_HEAD as u64)
        .read_line(&mut request_line)?;
    let mut length = 0usize;
    let mut head = request_line.len();
    loop {
        let mut h = String::new();
        let n = input.by_ref().take(MAX_HEAD as u64).read_line(&mut h)?;
        head += n;
        if n == 0 || h == "\r\n" || h == "\n" || head > MAX_HEAD {
            break;
        }
        if let Some((k, v)) = h.split_once(':') {
            if k.trim().eq_ignore_ascii_case("content-length") {
                length = v.trim().parse().unwrap_or(usize::MAX);
            }
        }
    }
    let mut parts = request_line.split_whitespace();
    let (method, target) = (parts.next().unwrap_or(""), parts.next().unwrap_or(""));
    let (route, query) = target.split_once('?').unwrap_or((target, ""));
    let message_path = format!("{}/message", shared.path.trim_end_matches('/'));
    if method == "GET" && route == shared.path {
        return events(shared, out);
    }
    if method != "POST" || route != message_path {
        return reply(&mut out, "404 Not Found", "no such route\n");
    }
    if length > MAX_MESSAGE {
        return reply(&mut out, "413 Payload Too Large", "message too long\n");
    }
    let session = query
        .split('&')
        .find_map(|kv| kv.strip_prefix("session_id="))
        .and_then(|v| v.parse::<u64>().ok());
    let sender = session.and_then(|s| {
        let g = shared.sessions.lock().unwrap_or_else(|p| p.into_inner());
        g.get(&s).cloned()
    });
    let Some(sender) = sender else {
        return reply(&mut out, "404 Not Found", "no such session\n");
    };
    let mut body = vec![0u8; length];
    input.read_exact(&mut body)?;
    reply(&mut out, "202 Accepted", "")?;
    drop(out);
    if let Some(answer) = shared.server.handle(&String::from_utf8_lossy(&body)) {
        let _ = sender.send(answer);
    }
    Ok(())
}

fn events(shared: &Shared, mut out: TcpStream) -> io::Result<()> {
    let id = shared.next.fetch_add(1, Ordering::Relaxed);
    let (tx, rx) = mpsc::channel::<String>();
    shared
        .sessions
        .lock()
        .unwrap_or_else(|p| p.into_inner())
        .insert(id, tx);
    let result = (|| -> io::Result<()> {
        write!(
            out,
            "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nCache-Control: no-cache\r\n\r\n\
             event: endpoint\ndata: {}/message?session_id={id}\n\n",
            shared.path.trim_end_matches('/')
        )?;
        out.flush()?;
        while !shared.stop.load(Ordering::Relaxed) {
            match rx.recv_timeout(Duration::from_millis(50)) {
                Ok(msg) => {
                    write!(out, "event: message\ndata: {msg}\n\n")?;
                    out.flush()?;
                }
                Err(RecvTimeoutError::Timeout) => {}
                Err(RecvTimeoutError::Disconnected) => break,
            }
        }
        Ok(())
    })();
    shared
        .sessions
        .lock()
        .unwrap_or_else(|p| p.into_inner())
        .remove(&id);
    result
}
