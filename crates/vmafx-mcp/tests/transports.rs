//! Each transport carries a client's messages to the server and its answers back, and stops
//! when asked: descriptors, a Unix socket, and SSE on loopback.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::os::fd::AsRawFd;
use std::os::unix::net::UnixStream;
use std::sync::Arc;

use serde_json::{json, Value};
use vmafx_mcp::Server;

fn request(id: u64, method: &str) -> String {
    json!({"jsonrpc": "2.0", "id": id, "method": method}).to_string()
}

fn answer_over_lines(stream: UnixStream, id: u64, method: &str) -> Value {
    let mut w = stream.try_clone().unwrap();
    writeln!(w, "{}", request(id, method)).unwrap();
    let mut line = String::new();
    BufReader::new(stream).read_line(&mut line).unwrap();
    serde_json::from_str(&line).unwrap()
}

#[test]
fn descriptors_carry_requests_until_stopped() {
    let server = Arc::new(Server::new(Some("fd-test")));
    let (client, end) = UnixStream::pair().unwrap();
    let fd = end.as_raw_fd();
    let mut running = vmafx_mcp::start_stdio(server.clone(), fd, fd).unwrap();
    let v = answer_over_lines(client, 5, "initialize");
    assert_eq!(v["id"], 5);
    assert_eq!(v["result"]["serverInfo"]["name"], "fd-test");
    running.stop();
    let err = vmafx_mcp::start_stdio(server, -1, 1).unwrap_err();
    assert!(err.to_string().contains("fd_in = -1"), "{err}");
}

#[test]
fn a_unix_socket_serves_each_connection_and_goes_away_on_stop() {
    let dir = std::env::temp_dir().join(format!("vmafx-mcp-uds-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("s.sock");
    let server = Arc::new(Server::default());
    let mut running = vmafx_mcp::start_uds(server.clone(), &path).unwrap();
    for id in 1..=2 {
        let v = answer_over_lines(UnixStream::connect(&path).unwrap(), id, "tools/list");
        assert!(v["result"]["tools"].as_array().unwrap().len() >= 5);
    }
    running.stop();
    assert!(!path.exists(), "socket file left behind");
    let long = dir.join("x".repeat(vmafx_mcp::MAX_UDS_PATH));
    let err = vmafx_mcp::start_uds(server, &long).unwrap_err();
    assert!(err.to_string().contains("shorter than"), "{err}");
}

/// Reads one SSE event (its `event:` and `data:` lines) from `r`.
fn event(r: &mut dyn BufRead) -> (String, String) {
    let (mut name, mut data) = (String::new(), String::new());
    loop {
        let mut line = String::new();
        assert!(r.read_line(&mut line).unwrap() > 0, "stream ended");
        let line = line.trim_end();
        if line.is_empty() && !data.is_empty() {
            return (name, data);
        }
        if let Some(v) = line.strip_prefix("event: ") {
            name = v.into();
        } else if let Some(v) = line.strip_prefix("data: ") {
            data = v.into();
        }
    }
}

#[test]
fn sse_on_loopback_names_its_endpoint_and_answers_on_the_stream() {
    let server = Arc::new(Server::default());
    let (mut running, port) = vmafx_mcp::start_sse(server, 0, None).unwrap();
    assert_ne!(port, 0);
    let mut stream = TcpStream::connect(("127.0.0.1", port)).unwrap();
    write!(stream, "GET /sse HTTP/1.1\r\nHost: localhost\r\n\r\n").unwrap();
    let mut r = BufReader::new(stream.try_clone().unwrap());
    let mut status = String::new();
    r.read_line(&mut status).unwrap();
    assert!(status.starts_with("HTTP/1.1 200"), "{status}");
    let (name, endpoint) = event(&mut r);
    assert_eq!(name, "endpoint");
    let body = request(9, "ping");
    let mut post = TcpStream::connect(("127.0.0.1", port)).unwrap();
    write!(
        post,
        "POST {endpoint} HTTP/1.1\r\nHost: localhost\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    )
    .unwrap();
    let mut accepted = String::new();
    post.read_to_string(&mut accepted).unwrap();
    assert!(accepted.starts_with("HTTP/1.1 202"), "{accepted}");
    let (name, data) = event(&mut r);
    assert_eq!(name, "message");
    let v: Value = serde_json::from_str(&data).unwrap();
    assert_eq!(
        (v["id"].clone(), v["result"].clone()),
        (json!(9), json!({}))
    );
    let mut stray = TcpStream::connect(("127.0.0.1", port)).unwrap();
    write!(
        stray,
        "POST /sse/message?session_id=999 HTTP/1.1\r\nContent-Length: 2\r\n\r\n{{}}"
    )
    .unwrap();
    let mut refused = String::new();
    stray.read_to_string(&mut refused).unwrap();
    assert!(refused.starts_with("HTTP/1.1 404"), "{refused}");
    running.stop();
    let err = vmafx_mcp::start_sse(Arc::new(Server::default()), 0, Some("no-slash")).unwrap_err();
    assert!(err.to_string().contains("no-slash"), "{err}");
}
