//! `Scorer::score_range` and `Report::merge` on small synthetic files: ranges merge to one
//! pass, a partial report pools over its own frames only, ranges outside the video are
//! refused naming the range and the frame count, and merges of wrong parts are refused
//! naming the part.

use std::path::{Path, PathBuf};

use vmafx::{Feature, Model, OutputFormat, PoolMethod, Report, Scorer, ScorerConfig, Status};

/// A 4:2:0 8-bit y4m file of `frames` frames of a moving ramp; `noise` perturbs it.
fn write_y4m(path: &Path, frames: u32, noise: u32) {
    let (w, h) = (64u32, 48u32);
    let mut bytes = format!("YUV4MPEG2 W{w} H{h} F25:1 Ip A1:1 C420jpeg\n").into_bytes();
    for t in 0..frames {
        bytes.extend_from_slice(b"FRAME\n");
        for j in 0..h {
            for i in 0..w {
                let v = (i * 3 + j * 2 + t * 7) + ((i * 7 + j * 13 + t) % (noise + 1));
                bytes.push((v % 200 + 20) as u8);
            }
        }
        bytes.extend(std::iter::repeat_n(128u8, (w * h / 2) as usize));
    }
    std::fs::write(path, bytes).unwrap();
}

/// A reference and a noisy copy of 9 frames each, written once (tests run in parallel).
fn pair() -> (PathBuf, PathBuf) {
    static PAIR: std::sync::OnceLock<(PathBuf, PathBuf)> = std::sync::OnceLock::new();
    PAIR.get_or_init(|| {
        let d = Path::new(env!("CARGO_TARGET_TMPDIR"))
            .join(format!("score_range-{}", std::process::id()));
        std::fs::create_dir_all(&d).unwrap();
        let (r, x) = (d.join("ref.y4m"), d.join("dis.y4m"));
        write_y4m(&r, 9, 0);
        write_y4m(&x, 9, 11);
        (r, x)
    })
    .clone()
}

fn config() -> ScorerConfig {
    ScorerConfig::new()
        .model(Model::builtin("vmaf_v0.6.1"))
        .feature(Feature::new("psnr"))
}

fn range(r: std::ops::Range<u64>) -> Report {
    let (a, b) = pair();
    Scorer::new(config()).unwrap().score_range(a, b, r).unwrap()
}

/// The JSON log with fps printed as 0.
fn log(r: &Report) -> String {
    let (table, info) = r.table();
    let info = vmafx::score::ReportInfo {
        fps: 0.0,
        ..info.clone()
    };
    vmafx::output::render_report(OutputFormat::Json, table, &info)
}

#[test]
fn ranges_merge_to_one_pass_and_pool_over_their_own_frames() {
    let (a, b) = pair();
    let one = Scorer::new(config()).unwrap().score_files(&a, &b).unwrap();
    assert_eq!(one.frame_range(), 0..9);
    let reach = Scorer::new(config()).unwrap().reach();
    assert!(
        matches!(reach, vmafx::feature::Reach::Frames { before, after } if before >= 1 && after >= 1),
        "vmaf's motion reaches both ways: {reach:?}"
    );
    let mid = range(3..6);
    assert_eq!((mid.frame_range(), mid.frame_count()), (3..6, 3));
    assert_eq!(
        mid.frames().map(|f| f.index()).collect::<Vec<_>>(),
        [3, 4, 5]
    );
    // The chunk's rows are one pass's rows, bit for bit; its pooled values its own.
    for i in 3..6 {
        assert_eq!(
            mid.frame(i).unwrap().get("vmaf").map(f64::to_bits),
            one.frame(i).unwrap().get("vmaf").map(f64::to_bits)
        );
    }
    assert_eq!(
        mid.pooled("vmaf", PoolMethod::Mean, ..).unwrap(),
        one.pooled("vmaf", PoolMethod::Mean, 3..6).unwrap()
    );
    assert_eq!(mid.frame(2).unwrap_err().status(), Status::Range);
    let before = mid.pooled("vmaf", PoolMethod::Mean, 2..5).unwrap_err();
    assert!(
        before.to_string().contains("before the first frame"),
        "{before}"
    );
    assert_eq!(
        mid.pooled("vmaf", PoolMethod::Mean, 3..7)
            .unwrap_err()
            .status(),
        Status::Range
    );
    let merged = Report::merge([range(6..9), mid, range(0..3)]).unwrap();
    assert_eq!(merged.frame_range(), 0..9);
    assert_eq!(log(&merged), log(&one));
    assert_eq!(merged.models().unwrap(), one.models().unwrap());
}

/// The error of scoring `r` (with `max_frames` where given).
fn refused(r: std::ops::Range<u64>, max_frames: Option<u64>) -> vmafx::Error {
    let (a, b) = pair();
    let config = match max_frames {
        Some(n) => config().max_frames(n),
        None => config(),
    };
    Scorer::new(config)
        .unwrap()
        .score_range(a, b, r)
        .unwrap_err()
}

#[test]
fn ranges_outside_the_inputs_are_refused_naming_the_range_and_the_count() {
    for (r, subject) in [
        (6..20, "frames 6..20"),
        (12..20, "frames 12..20"),
        (9..u64::MAX, "frames 9.."),
    ] {
        let e = refused(r, None);
        assert_eq!((e.status(), e.subject()), (Status::Range, subject));
        assert!(e.message().contains("the video has 9 frames"), "{e}");
    }
    // Up to the last frame, or open at the end, is inside.
    let open = range(4..u64::MAX);
    assert_eq!(open.frame_range(), 4..9);
    assert_eq!(range(6..9).frame_range(), 6..9);
    let merged = Report::merge([range(0..4), open]).unwrap();
    assert_eq!(merged.frame_range(), 0..9);
    // A frame limit ends the video where it stops.
    let e = refused(3..9, Some(5));
    assert_eq!(e.subject(), "frames 3..9");
    assert!(e.message().contains("frame limit scores 5 frames"), "{e}");
    let (a, b) = pair();
    let capped = Scorer::new(config().max_frames(5))
        .unwrap()
        .score_range(&a, &b, 3..5)
        .unwrap();
    assert_eq!(capped.frame_range(), 3..5);
    let reversed = std::ops::Range { start: 5, end: 3 };
    for r in [reversed, 4..4] {
        let e = refused(r.clone(), None);
        assert_eq!(e.status(), Status::Range, "{r:?}");
        assert!(e.message().contains("holds no frame"), "{e}");
    }
}

#[test]
fn a_pair_with_an_input_without_frames_names_that_input() {
    let (a, _) = pair();
    let d = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("score_range-empty-{}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    let header_only = d.join("header_only.y4m");
    std::fs::write(&header_only, "YUV4MPEG2 W64 H48 F25:1 Ip A1:1 C420jpeg\n").unwrap();
    let e = Scorer::new(config())
        .unwrap()
        .score_files(&a, &header_only)
        .unwrap_err();
    assert_eq!(e.subject(), header_only.display().to_string());
    assert!(e.message().contains("distorted input"), "{e}");
    let e = Scorer::new(config())
        .unwrap()
        .score_files(&header_only, &a)
        .unwrap_err();
    assert_eq!(e.subject(), header_only.display().to_string());
    assert!(e.message().contains("reference input"), "{e}");
    // A range of such a pair names the input too, not only the range.
    for r in [0..u64::MAX, 0..3] {
        let e = Scorer::new(config())
            .unwrap()
            .score_range(&a, &header_only, r.clone())
            .unwrap_err();
        assert_eq!(e.subject(), header_only.display().to_string(), "{r:?}");
        assert!(e.message().contains("distorted input"), "{e}");
    }
}

#[test]
fn merges_of_wrong_parts_are_refused_naming_the_part() {
    let gap = Report::merge([range(0..3), range(4..9)]).unwrap_err();
    assert_eq!(gap.subject(), "part 4..9");
    assert!(gap.to_string().contains("gap"), "{gap}");
    let overlap = Report::merge([range(0..4), range(3..9)]).unwrap_err();
    assert!(overlap.to_string().contains("overlap"), "{overlap}");
    let (a, b) = pair();
    let psnr_only = Scorer::new(ScorerConfig::new().feature(Feature::new("psnr")))
        .unwrap()
        .score_range(a, b, 3..9)
        .unwrap();
    let other = Report::merge([range(0..3), psnr_only]).unwrap_err();
    assert_eq!(other.subject(), "part 3..9");
    assert!(other.to_string().contains("other models"), "{other}");
    assert!(Report::merge(Vec::new()).is_err());
}

#[test]
fn a_report_survives_its_parts_and_bad_parts_are_refused() {
    let r = range(2..7);
    let parts = r.to_parts();
    let back = Report::from_parts(parts.clone()).unwrap();
    assert_eq!(back.to_parts(), parts);
    assert_eq!(log(&back), log(&r));
    let mut few_keys = parts.clone();
    few_keys.keys.pop();
    assert_eq!(
        Report::from_parts(few_keys).unwrap_err().subject(),
        "report"
    );
    let mut stray = parts.clone();
    stray.table.frames[0].0 = 9;
    assert!(Report::from_parts(stray).is_err());
    let mut lost = parts;
    lost.models[0].outputs.push("no_such_column".into());
    let e = Report::from_parts(lost).unwrap_err();
    assert!(e.to_string().contains("no_such_column"), "{e}");
}
