//! Decoders that misbehave: a `--ffmpeg` wrapper that runs ffmpeg as its child (vmafx must
//! end the whole process group and exit, never hang), and compressed files ffmpeg decodes
//! only in part (an error by default, naming the frames lost and passing the decoder's
//! messages on). Every run is bounded: a hang fails the test instead of stalling it.

mod common;
use common::*;

use std::path::{Path, PathBuf};
use std::time::Duration;

/// Longer than any of these runs takes on a slow machine; a run past it is a hang.
const LIMIT: Duration = Duration::from_secs(90);

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// A `--ffmpeg` program that runs the real ffmpeg as its child, without `exec` (as a
/// `nice` or container wrapper does): the shell waits for ffmpeg and outlives a kill of
/// itself alone.
#[cfg(unix)]
fn wrapper(dir: &Path) -> PathBuf {
    use std::os::unix::fs::PermissionsExt;
    let p = dir.join("ffmpeg-wrapper");
    std::fs::write(&p, "#!/bin/sh\nffmpeg \"$@\"\nstatus=$?\nexit $status\n").unwrap();
    std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o755)).unwrap();
    p
}

#[cfg(unix)]
#[test]
#[cfg_attr(
    vmafx_no_corpus,
    ignore = "no conformance corpus at ../shared/conformance or VMAFX_CONFORMANCE"
)]
fn a_wrapper_that_does_not_exec_is_ended_with_its_child_when_reading_stops_early() {
    let Some(dir) = corpus() else { return };
    if !have_ffmpeg() {
        return;
    }
    let tmp = temp_dir("wrapper-hang");
    let wrap = wrapper(&tmp);
    let reference = dir.join("bbb_576x324_420p8_crf35_ref.y4m");
    let encode = dir.join("bitstreams/bbb_576x324_420p8_crf35.mkv");
    let log = tmp.join("log.json");
    // Frames of 280 KB: ffmpeg blocks on the full pipe long before the end of the file.
    let run = vmafx_within(
        &[
            "-r",
            s(&reference),
            "-d",
            s(&encode),
            "--ffmpeg",
            s(&wrap),
            "--frame_cnt",
            "2",
            "--feature",
            "psnr",
            "-n",
            "--json",
            "-q",
            "-o",
            s(&log),
        ],
        &tmp,
        LIMIT,
    );
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    assert_eq!(read_json(&log)["frames"].as_array().unwrap().len(), 2);
    // The reference ending first stops the reading early too (the distorted decoder still
    // has frames to write).
    let short = tmp.join("short.y4m");
    let text = std::fs::read(&reference).unwrap();
    let header = text.iter().position(|&b| b == b'\n').unwrap() + 1;
    let frame = 6 + 576 * 324 * 3 / 2;
    std::fs::write(&short, &text[..header + 3 * frame]).unwrap();
    let run = vmafx_within(
        &[
            "-r",
            s(&short),
            "-d",
            s(&encode),
            "--ffmpeg",
            s(&wrap),
            "--feature",
            "psnr",
            "-n",
            "--json",
            "-q",
            "-o",
            s(&log),
        ],
        &tmp,
        LIMIT,
    );
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    assert_eq!(read_json(&log)["frames"].as_array().unwrap().len(), 3);
}

/// A `--ffmpeg` program (and an `ffprobe` beside it) that describe a 64x48 stream of 3
/// frames and then write only the y4m header: a decoder that gives no frame.
#[cfg(unix)]
fn frameless_decoder(dir: &Path) -> PathBuf {
    use std::os::unix::fs::PermissionsExt;
    let write = |name: &str, text: &str| {
        let p = dir.join(name);
        std::fs::write(&p, text).unwrap();
        std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o755)).unwrap();
        p
    };
    write(
        "ffprobe",
        "#!/bin/sh\nprintf 'codec_name=h264\\nwidth=64\\nheight=48\\npix_fmt=yuv420p\\n\
         r_frame_rate=25/1\\nnb_frames=3\\n'\n",
    );
    write(
        "ffmpeg",
        "#!/bin/sh\nprintf 'YUV4MPEG2 W64 H48 F25:1 Ip A1:1 C420jpeg\\n'\n",
    )
}

#[cfg(unix)]
#[test]
fn a_decoder_that_gives_no_frame_names_the_distorted_input() {
    let tmp = temp_dir("frameless-decoder");
    let tools = tmp.join("tools");
    std::fs::create_dir_all(&tools).unwrap();
    let decoder = frameless_decoder(&tools);
    let reference = tmp.join("ref.y4m");
    let mut y4m = b"YUV4MPEG2 W64 H48 F25:1 Ip A1:1 C420jpeg\n".to_vec();
    for _ in 0..3 {
        y4m.extend(b"FRAME\n");
        y4m.extend(std::iter::repeat_n(100u8, 64 * 48 * 3 / 2));
    }
    std::fs::write(&reference, y4m).unwrap();
    let encode = tmp.join("encode.mkv");
    std::fs::write(&encode, [0x1a, 0x45, 0xdf, 0xa3, 0, 0, 0, 0]).unwrap();
    let run = vmafx_within(
        &[
            "-r",
            s(&reference),
            "-d",
            s(&encode),
            "--ffmpeg",
            s(&decoder),
            "-n",
            "--feature",
            "psnr",
        ],
        &tmp,
        LIMIT,
    );
    let e = String::from_utf8_lossy(&run.stderr);
    assert_eq!(run.status.code(), Some(1), "{e}");
    assert!(
        e.contains(s(&encode)) && e.contains("no frame") && !e.contains(s(&reference)),
        "{e}"
    );
}

/// An mp4 of the corpus clip's 10 frames cut to two thirds of its bytes: its index still
/// announces 10 frames, ffmpeg decodes fewer and reports errors, yet exits 0.
fn truncated_mp4(dir: &Path, encode: &Path) -> PathBuf {
    let whole = dir.join("whole.mp4");
    let out = std::process::Command::new("ffmpeg")
        .args(["-nostdin", "-v", "error", "-y", "-i", s(encode)])
        .args([
            "-c:v",
            "libx264",
            "-g",
            "5",
            "-movflags",
            "+faststart",
            s(&whole),
        ])
        .output()
        .expect("run ffmpeg");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let bytes = std::fs::read(&whole).unwrap();
    let cut = dir.join("cut.mp4");
    std::fs::write(&cut, &bytes[..bytes.len() * 2 / 3]).unwrap();
    cut
}

#[test]
#[cfg_attr(
    vmafx_no_corpus,
    ignore = "no conformance corpus at ../shared/conformance or VMAFX_CONFORMANCE"
)]
fn a_partly_decodable_file_is_an_error_unless_accepted_naming_the_frames_lost() {
    let Some(dir) = corpus() else { return };
    if !have_ffmpeg() {
        return;
    }
    let tmp = temp_dir("partly-decodable");
    let reference = dir.join("bbb_576x324_420p8_crf35_ref.y4m");
    let cut = truncated_mp4(&tmp, &dir.join("bitstreams/bbb_576x324_420p8_crf35.mkv"));
    let log = tmp.join("log.json");
    let args = |extra: &[&'static str]| -> Vec<String> {
        let mut a: Vec<String> = [
            "-r",
            s(&reference),
            "-d",
            s(&cut),
            "-n",
            "--feature",
            "psnr",
            "--json",
            "-q",
            "-o",
            s(&log),
        ]
        .iter()
        .map(|x| x.to_string())
        .collect();
        a.extend(extra.iter().map(|x| x.to_string()));
        a
    };
    let run_with = |a: &[String]| {
        let a: Vec<&str> = a.iter().map(String::as_str).collect();
        vmafx_within(&a, &tmp, LIMIT)
    };
    let run = run_with(&args(&[]));
    let e = String::from_utf8_lossy(&run.stderr);
    assert_eq!(run.status.code(), Some(1), "{e}");
    assert!(
        e.contains(s(&cut))
            && e.contains("decoding errors")
            && e.contains("of the 10 frames")
            && e.contains("lost")
            && e.contains("it said:"),
        "{e}"
    );
    let run = run_with(&args(&["--accept-decode-errors"]));
    let e = String::from_utf8_lossy(&run.stderr);
    assert!(run.status.success(), "{e}");
    assert!(
        e.contains("warning") && e.contains("lost") && e.contains("--accept-decode-errors"),
        "{e}"
    );
    let frames = read_json(&log)["frames"].as_array().unwrap().len();
    assert!(frames > 0 && frames < 10, "{frames} frames scored");
}
