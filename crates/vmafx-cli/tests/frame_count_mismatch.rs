//! Reference and distorted with different frame counts: like libvmaf's tool, `vmafx` scores
//! the frames both have, warns naming the file that ended first and the other, and exits 0.

use std::path::Path;
use std::process::Command;

/// A 16x8 4:2:0 8-bit y4m file of `frames` frames, each a different flat grey.
fn write_y4m(path: &Path, frames: usize) {
    let mut bytes = b"YUV4MPEG2 W16 H8 F25:1 Ip A1:1 C420jpeg\n".to_vec();
    for i in 0..frames {
        bytes.extend_from_slice(b"FRAME\n");
        bytes.extend(std::iter::repeat_n(40 + 20 * i as u8, 16 * 8 * 3 / 2));
    }
    std::fs::write(path, bytes).expect("scratch y4m");
}

fn run(reference: &Path, distorted: &Path, json: &Path) -> (bool, String, serde_json::Value) {
    let out = Command::new(env!("CARGO_BIN_EXE_vmafx"))
        .args(["--feature", "psnr", "--no_prediction", "-q", "--json", "-o"])
        .arg(json)
        .arg("-r")
        .arg(reference)
        .arg("-d")
        .arg(distorted)
        .output()
        .expect("vmafx runs");
    let log = std::fs::read_to_string(json).unwrap_or_default();
    let value = serde_json::from_str(&log).unwrap_or(serde_json::Value::Null);
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
        value,
    )
}

#[test]
fn the_shorter_input_ends_the_run_with_a_warning_naming_both() {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("frame_count_mismatch");
    std::fs::create_dir_all(&dir).unwrap();
    let (three, two) = (dir.join("three.y4m"), dir.join("two.y4m"));
    write_y4m(&three, 3);
    write_y4m(&two, 2);
    for (r, d, first, other) in [(&three, &two, &two, &three), (&two, &three, &two, &three)] {
        let (ok, stderr, log) = run(r, d, &dir.join("log.json"));
        assert!(
            ok,
            "{} vs {}: exit status, stderr: {stderr}",
            r.display(),
            d.display()
        );
        let want = format!(
            "\"{}\" ended before \"{}\"",
            first.display(),
            other.display()
        );
        assert!(stderr.contains(&want), "stderr {stderr:?} lacks {want:?}");
        let frames = log["frames"].as_array().map_or(0, Vec::len);
        assert_eq!(
            frames,
            2,
            "{} vs {}: frames scored",
            r.display(),
            d.display()
        );
    }
}
