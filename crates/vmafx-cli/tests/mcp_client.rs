//! `vmafx mcp` driven as an MCP client drives it: handshake, `compute_vmaf` on the 576x324
//! pair, then its scores and provenance, over standard input/output and over a Unix socket.
//! The score must print as libvmaf's pooled mean in the corpus's golden log.

mod common;

use std::io::{BufRead, BufReader, Write};
use std::os::unix::net::UnixStream;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use common::{corpus, temp_dir};
use serde_json::{json, Value};

/// Sends one request and reads lines until the answer with its id.
fn call(w: &mut dyn Write, r: &mut dyn BufRead, id: u64, method: &str, params: Value) -> Value {
    let msg = json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params});
    writeln!(w, "{msg}").unwrap();
    w.flush().unwrap();
    loop {
        let mut line = String::new();
        assert!(
            r.read_line(&mut line).unwrap() > 0,
            "server closed before answering {id}"
        );
        let v: Value = serde_json::from_str(&line).unwrap();
        if v["id"] == id {
            assert!(v.get("error").is_none(), "{method}: {v}");
            return v["result"].clone();
        }
    }
}

fn tool(w: &mut dyn Write, r: &mut dyn BufRead, id: u64, name: &str, args: Value) -> Value {
    let res = call(
        w,
        r,
        id,
        "tools/call",
        json!({"name": name, "arguments": args}),
    );
    assert_eq!(res["isError"], false, "{name}: {res}");
    // The text block carries the same JSON as structuredContent.
    let text: Value = serde_json::from_str(res["content"][0]["text"].as_str().unwrap()).unwrap();
    assert_eq!(text, res["structuredContent"]);
    text
}

/// A client's session: handshake, score, read scores and provenance; checks each answer.
fn session(w: &mut dyn Write, r: &mut dyn BufRead, dir: &Path) {
    let golden: Value = serde_json::from_str(
        &std::fs::read_to_string(dir.join("expected/bbb_576x324_420p8_crf35.vmaf_v0.6.1.json"))
            .unwrap(),
    )
    .unwrap();
    let want = &golden["pooled_metrics"]["vmaf"]["mean"];
    let frames = golden["frames"].as_array().unwrap().len() as u64;
    let init = call(
        w,
        r,
        1,
        "initialize",
        json!({"protocolVersion": "2024-11-05"}),
    );
    assert_eq!(init["serverInfo"]["name"], "vmafx");
    writeln!(
        w,
        "{}",
        json!({"jsonrpc": "2.0", "method": "notifications/initialized"})
    )
    .unwrap();
    let refp = dir.join("bbb_576x324_420p8_crf35_ref.y4m");
    let disp = dir.join("bbb_576x324_420p8_crf35_dis.y4m");
    let scored = tool(
        w,
        r,
        2,
        "compute_vmaf",
        json!({"reference_path": refp, "distorted_path": disp}),
    );
    let score = scored["score"].as_f64().unwrap();
    assert_eq!(
        format!("{score:.6}"),
        format!("{:.6}", want.as_f64().unwrap())
    );
    assert_eq!(scored["frames_scored"], frames);
    assert_eq!(scored["model_version"], "vmaf_v0.6.1");
    let run = scored["run_id"].clone();
    let scores = tool(
        w,
        r,
        3,
        "get_scores",
        json!({"run_id": run, "frames": true}),
    );
    assert_eq!(
        scores["pooled_metrics"]["vmaf"]["mean"].as_f64(),
        Some(score)
    );
    assert_eq!(scores["frames"].as_array().unwrap().len() as u64, frames);
    for (i, f) in golden["frames"].as_array().unwrap().iter().enumerate() {
        let got = scores["frames"][i]["metrics"]["vmaf"].as_f64().unwrap();
        assert_eq!(
            format!("{got:.6}"),
            format!("{:.6}", f["metrics"]["vmaf"].as_f64().unwrap())
        );
    }
    let answer = tool(w, r, 4, "get_provenance", json!({"run_id": run}));
    let prov = answer["provenance"].clone();
    assert_eq!(prov, scored["provenance"]);
    // The engine's record (VMAFx's provenance.h fields), as `vmafx --provenance` writes it.
    assert_eq!(prov["models"][0]["name"], "vmaf");
    assert_eq!(prov["models"][0]["version"], "vmaf_v0.6.1");
    let model_json = Path::new(env!("CARGO_MANIFEST_DIR")).join("../vmafx/models/vmaf_v0.6.1.json");
    assert_eq!(
        format!("sha256:{}", prov["models"][0]["sha256"].as_str().unwrap()),
        vmafx::provenance::sha256_tag(&std::fs::read(model_json).unwrap())
    );
    assert_eq!(prov["n_frames"], frames.to_string());
    assert_eq!(prov["frame_width"], 576);
    assert_eq!(prov["frame_height"], 324);
    assert!(prov["features"]
        .as_array()
        .unwrap()
        .iter()
        .any(|f| f["feature"] == "integer_vif_scale0" && f["extractor"] == "vif"));
    assert!(prov["digest"].as_str().unwrap().starts_with("sha256:"));
    // The record checks as a log's would: its digest covers it.
    let log = json!({"provenance": prov, "frames": []});
    vmafx::provenance::verify(&log, None).unwrap();
    let cpu = prov["simd"].as_str().unwrap();
    if let Ok(forced) = std::env::var("VMAFX_CPU") {
        assert_eq!(cpu, forced.to_ascii_lowercase());
    }
    assert_eq!(
        answer["inputs"]["reference"]["bytes"],
        std::fs::metadata(&refp).unwrap().len()
    );
}

#[test]
#[cfg_attr(
    vmafx_no_corpus,
    ignore = "no conformance corpus at ../shared/conformance or VMAFX_CONFORMANCE"
)]
fn an_mcp_client_scores_the_pair_over_stdio() {
    let Some(dir) = corpus() else { return };
    let mut child = Command::new(env!("CARGO_BIN_EXE_vmafx"))
        .arg("mcp")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut w = child.stdin.take().unwrap();
    let mut r = BufReader::new(child.stdout.take().unwrap());
    session(&mut w, &mut r, &dir);
    drop(w); // End of input ends the server.
    assert!(child.wait().unwrap().success());
}

#[test]
#[cfg_attr(
    vmafx_no_corpus,
    ignore = "no conformance corpus at ../shared/conformance or VMAFX_CONFORMANCE"
)]
fn an_mcp_client_scores_the_pair_over_a_unix_socket() {
    let Some(dir) = corpus() else { return };
    let sock = temp_dir("mcp-uds").join("mcp.sock");
    let mut child = Command::new(env!("CARGO_BIN_EXE_vmafx"))
        .args(["mcp", "--socket"])
        .arg(&sock)
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let start = Instant::now();
    let stream = loop {
        match UnixStream::connect(&sock) {
            Ok(s) => break s,
            Err(_) if start.elapsed() < Duration::from_secs(20) => {
                std::thread::sleep(Duration::from_millis(20))
            }
            Err(e) => panic!("no socket at {}: {e}", sock.display()),
        }
    };
    let mut w = stream.try_clone().unwrap();
    let mut r = BufReader::new(stream);
    session(&mut w, &mut r, &dir);
    child.kill().unwrap();
    let _ = child.wait();
}
