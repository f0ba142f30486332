//! The tiny-model runtime end to end on models written by `vmafx_dnn::sample`: the checks a
//! model passes before it runs, plane and tensor runs, the registry check, and a model
//! scoring frames in the engine's context.

use std::path::{Path, PathBuf};

use vmafx::context::{Context, ContextConfig};
use vmafx::frame::SamplesMut;
use vmafx::{Frame, FrameBuilder, PixelFormat, Status};
use vmafx_dnn::TinyModelScorer;
use vmafx_dnn::{digest, limits, sample, Resize, Session, SessionOptions};

fn temp_dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("vmafx-dnn-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn write(dir: &Path, name: &str, bytes: &[u8]) -> PathBuf {
    let p = dir.join(name);
    std::fs::write(&p, bytes).unwrap();
    p
}

fn open(p: &Path) -> vmafx::Result<Session> {
    Session::open(p, &SessionOptions::default())
}

#[test]
fn a_plane_filter_runs_and_its_output_is_the_graph_s() {
    let d = temp_dir("filter");
    let p = write(&d, "invert.onnx", &sample::invert_filter(Some(3), Some(4)));
    let mut s = open(&p).unwrap();
    assert_eq!(s.plane_shape().unwrap(), (Some(4), Some(3)));
    assert_eq!(s.device(), "CPU");
    let plane: Vec<f32> = (0..12).map(|i| i as f32 / 16.0).collect();
    let out = s.run_plane(&plane, 4, 3).unwrap();
    for (o, i) in out.iter().zip(&plane) {
        assert!((o - (1.0 - i)).abs() < 1e-6, "{o} for {i}");
    }
    // Another size than the model fixes is refused, naming the model.
    let e = s.run_plane(&[0.0; 6], 3, 2).unwrap_err();
    assert_eq!(e.status(), Status::Range);
    assert!(e.subject().contains("invert.onnx"), "{e}");
}

#[test]
fn named_tensors_run_and_bad_ones_are_refused() {
    let d = temp_dir("tensors");
    let p = write(&d, "mad.onnx", &sample::mean_abs_diff(None, None, 2.0));
    let mut s = open(&p).unwrap();
    assert!(s.plane_shape().is_err(), "two inputs: no plane runs");
    let a = [0.0f32, 0.5, 1.0, 0.25];
    let b = [0.5f32, 0.5, 0.0, 0.0];
    // Names in the other order than the model's: matched by name.
    let out = s
        .run(&[
            (Some("distorted"), &[1, 1, 2, 2], &b),
            (Some("reference"), &[1, 1, 2, 2], &a),
        ])
        .unwrap();
    let want = 2.0 * (0.5 + 0.0 + 1.0 + 0.25) / 4.0;
    assert_eq!(out.len(), 1);
    assert!((out[0].data[0] - want).abs() < 1e-6, "{:?}", out[0]);
    // Another shape builds another plan.
    let out = s
        .run(&[(None, &[1, 1, 1, 1], &[1.0]), (None, &[1, 1, 1, 1], &[0.0])])
        .unwrap();
    assert!((out[0].data[0] - 2.0).abs() < 1e-6);
    let e = s
        .run(&[(Some("nope"), &[1], &[0.0]), (None, &[1], &[0.0])])
        .unwrap_err();
    assert!(e.message().contains("no input `nope`"), "{e}");
    let e = s
        .run(&[(None, &[1, 1, 2, 2], &a[..3]), (None, &[1, 1, 2, 2], &b)])
        .unwrap_err();
    assert_eq!(e.status(), Status::Invalid);
    assert!(e.subject().contains("mad.onnx"));
}

#[test]
fn models_failing_the_checks_are_refused_naming_their_path() {
    let d = temp_dir("checks");
    let p = write(&d, "floor.onnx", &sample::off_allowlist());
    let e = open(&p).unwrap_err();
    assert_eq!(e.status(), Status::Invalid);
    assert!(
        e.subject().ends_with("floor.onnx") && e.message().contains("Floor"),
        "{e}"
    );

    let p = write(&d, "junk.onnx", b"\xff\xff\xff\xff not protobuf");
    let e = open(&p).unwrap_err();
    assert!(
        e.subject().ends_with("junk.onnx") && e.message().contains("not an ONNX model"),
        "{e}"
    );

    let e = open(&d.join("absent.onnx")).unwrap_err();
    assert_eq!(e.status(), Status::NotFound);

    // One byte over the limit (a sparse file: nothing is read).
    let big = d.join("big.onnx");
    std::fs::File::create(&big)
        .unwrap()
        .set_len(limits::MAX_MODEL_BYTES + 1)
        .unwrap();
    let e = open(&big).unwrap_err();
    assert_eq!(e.status(), Status::Range);
    assert!(
        e.subject().ends_with("big.onnx") && e.message().contains("52428800"),
        "{e}"
    );
}

#[test]
fn the_sidecar_names_the_model_and_its_digest_must_match() {
    let d = temp_dir("sidecar");
    let bytes = sample::mean_abs_diff(None, None, 1.0);
    let p = write(&d, "m.onnx", &bytes);
    let good = format!(
        r#"{{"kind":"fr","name":"tiny_mad","sha256":"{}"}}"#,
        digest::sha256_hex(&bytes)
    );
    write(&d, "m.json", good.as_bytes());
    let s = TinyModelScorer::open(&p, &SessionOptions::default()).unwrap();
    assert_eq!(vmafx::context::FrameScorer::name(&s), "tiny_mad");
    assert_eq!(s.session().sidecar().unwrap().kind.as_deref(), Some("fr"));

    write(&d, "m.json", br#"{"sha256":"00"}"#);
    let e = open(&p).unwrap_err();
    assert_eq!(e.status(), Status::Mismatch);
    assert!(e.subject().ends_with("m.onnx"), "{e}");

    write(&d, "m.json", b"[1, 2");
    let e = open(&p).unwrap_err();
    assert_eq!(e.status(), Status::Invalid);
    assert!(
        e.subject().ends_with("m.json") && e.message().contains("m.onnx"),
        "{e}"
    );
}

/// A stand-in `cosign` in `dir`: records its arguments, one a line, in `argv.txt` next to
/// it, says `message` on stderr and exits `code`. The real cosign needs the network.
#[cfg(unix)]
fn stand_in_cosign(dir: &Path, code: i32, message: &str) -> PathBuf {
    use std::os::unix::fs::PermissionsExt;
    let record = dir.join("argv.txt");
    let _ = std::fs::remove_file(&record);
    let script = format!(
        "#!/bin/sh\nprintf '%s\\n' \"$@\" > '{}'\necho 'cosign: checking' >&2\necho '{message}' >&2\nexit {code}\n",
        record.display()
    );
    let p = write(dir, &format!("cosign{code}"), script.as_bytes());
    std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o755)).unwrap();
    p
}

#[cfg(unix)]
#[test]
fn the_signature_is_cosigns_after_the_registry_and_digest_checks() {
    use vmafx_dnn::verify_signature_using;
    let d = temp_dir("registry");
    let record = d.join("argv.txt");
    let ok = stand_in_cosign(&d, 0, "Verified OK");
    let bytes = sample::invert_filter(Some(2), Some(2));
    let p = write(&d, "inv.onnx", &bytes);
    let entry = |sha: &str| {
        format!(
            r#"{{"models":[{{"id":"inv","kind":"filter","onnx":"inv.onnx","sha256":"{sha}","sigstore_bundle":"inv.onnx.sigstore.json"}}]}}"#
        )
    };
    write(
        &d,
        "registry.json",
        entry(&digest::sha256_hex(&bytes)).as_bytes(),
    );
    // No bundle yet: refused before cosign runs.
    let e = verify_signature_using(&ok, &p, None).unwrap_err();
    assert_eq!(e.status(), Status::NotFound, "{e}");
    assert!(!record.exists(), "cosign ran without a bundle");
    write(
        &d,
        "inv.onnx.sigstore.json",
        br#"{"mediaType":"application/vnd.dev.sigstore.bundle+json;version=0.1"}"#,
    );
    // Cosign says yes: verified, with VMAFx's arguments in VMAFx's order.
    verify_signature_using(&ok, &p, None).unwrap();
    let argv = std::fs::read_to_string(&record).unwrap();
    let want = [
        "verify-blob".to_string(),
        format!("--bundle={}", d.join("inv.onnx.sigstore.json").display()),
        "--certificate-identity-regexp".to_string(),
        "https://github.com/VMAFx/vmafx/.github/workflows/.+".to_string(),
        "--certificate-oidc-issuer".to_string(),
        "https://token.actions.githubusercontent.com".to_string(),
        p.display().to_string(),
    ];
    assert_eq!(argv.lines().collect::<Vec<_>>(), want);

    // Cosign says no: refused naming the model, with the exit status and stderr's last line.
    let no = stand_in_cosign(&d, 1, "Error: none of the expected identities matched");
    let e = verify_signature_using(&no, &p, None).unwrap_err();
    assert_eq!(e.status(), Status::Internal, "{e}");
    assert!(e.subject().ends_with("inv.onnx"), "{e}");
    assert!(
        e.message().contains("status 1") && e.message().contains("identities matched"),
        "{e}"
    );
    assert!(record.exists(), "the refusing cosign ran");

    // No cosign at all.
    let e = verify_signature_using(&d.join("no-such-cosign"), &p, None).unwrap_err();
    assert_eq!(e.status(), Status::Internal, "{e}");
    assert!(
        e.subject().ends_with("inv.onnx") && e.message().contains("no-such-cosign"),
        "{e}"
    );

    // Another digest, or no entry: refused before cosign runs.
    std::fs::remove_file(&record).unwrap();
    let reg = write(&d, "other.json", entry(&"0".repeat(64)).as_bytes());
    let e = verify_signature_using(&ok, &p, Some(&reg)).unwrap_err();
    assert_eq!(e.status(), Status::Mismatch, "{e}");
    let reg = write(&d, "empty.json", br#"{"models":[]}"#);
    let e = verify_signature_using(&ok, &p, Some(&reg)).unwrap_err();
    assert_eq!(e.status(), Status::NotFound, "{e}");
    assert!(!record.exists(), "cosign ran for a refused model");
}

/// A 4:2:0 8-bit frame whose luma at (x, y) is `f(x, y)`.
fn frame(w: u32, h: u32, f: impl Fn(u32, u32) -> u8) -> Frame {
    let mut fb = FrameBuilder::new(PixelFormat::Yuv420p, 8, w, h).unwrap();
    let plane = fb.plane_mut(0);
    let stride = plane.stride;
    if let Some(SamplesMut::U8(s)) = plane.samples_mut() {
        for y in 0..h {
            for x in 0..w {
                s[y as usize * stride + x as usize] = f(x, y);
            }
        }
    }
    fb.build()
}

#[test]
fn a_tiny_model_scores_every_frame_in_the_context() {
    let d = temp_dir("scorer");
    let p = write(&d, "mad.onnx", &sample::mean_abs_diff(None, None, 100.0));
    let mut ctx = Context::new(ContextConfig::default()).unwrap();
    ctx.use_frame_scorer(Box::new(
        TinyModelScorer::open(&p, &SessionOptions::default()).unwrap(),
    ))
    .unwrap();
    let (w, h) = (16, 8);
    let mut want = Vec::new();
    for i in 0..3u32 {
        let r = frame(w, h, |x, y| ((x * 7 + y * 3) % 256) as u8);
        let dist = frame(w, h, |x, y| ((x * 7 + y * 3 + i * 5 + x % 3) % 256) as u8);
        let mut sum = 0.0f64;
        for y in 0..h {
            for x in 0..w {
                let a = ((x * 7 + y * 3) % 256) as f64;
                let b = ((x * 7 + y * 3 + i * 5 + x % 3) % 256) as f64;
                sum += (a - b).abs() / 255.0;
            }
        }
        want.push(100.0 * sum / (w * h) as f64);
        ctx.submit(r, dist, i as u64).unwrap();
    }
    ctx.flush().unwrap();
    for (i, want) in want.iter().enumerate() {
        let got = ctx.feature_score_at_index("mad", i as u64).unwrap();
        assert!((got - want).abs() < 1e-4, "frame {i}: {got} vs {want}");
    }
}

#[test]
fn a_fixed_size_model_needs_a_resize_mode_for_other_frames() {
    let d = temp_dir("resize");
    let p = write(
        &d,
        "mad8.onnx",
        &sample::mean_abs_diff(Some(4), Some(8), 1.0),
    );
    let flat = |v| frame(16, 8, move |_, _| v);
    let mut s = TinyModelScorer::open(&p, &SessionOptions::default()).unwrap();
    use vmafx::context::FrameScorer;
    let e = s.score(&flat(10), &flat(61), 0).unwrap_err();
    assert!(e.message().contains("resize"), "{e}");
    for m in [Resize::Nearest, Resize::Bilinear, Resize::Bicubic] {
        s.set_resize(m);
        let got = s.score(&flat(10), &flat(61), 0).unwrap();
        assert!((got - 51.0 / 255.0).abs() < 1e-5, "{m:?}: {got}");
    }
}
