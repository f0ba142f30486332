//! Every conformance clip, y4m and raw yuv, against the expected logs and the test loader.

use std::path::Path;

use super::first_difference;
use crate::frame::{Frame, PixelFormat};
use crate::io::{InputKind, Limits, RawParams, VideoReader};
use crate::testutil::{clip_ids, conformance_dir, expected, load_y4m};

/// Frames in the expected log of `log_clip` (the default model's run).
fn expected_frames(dir: &Path, log_clip: &str) -> usize {
    let log = expected(dir, log_clip, "vmaf_v0.6.1")
        .unwrap_or_else(|| panic!("no expected log for {log_clip}"));
    log["frames"].as_array().unwrap().len()
}

fn read_all(path: &Path, raw: Option<RawParams>) -> Vec<Frame> {
    let mut reader = VideoReader::open(path, raw).unwrap_or_else(|e| panic!("{e}"));
    reader
        .frames()
        .collect::<crate::Result<Vec<_>>>()
        .unwrap_or_else(|e| panic!("{e}"))
}

fn assert_same(what: &str, a: &[Frame], b: &[Frame]) {
    assert_eq!(a.len(), b.len(), "{what}: frame counts");
    for (n, (fa, fb)) in a.iter().zip(b).enumerate() {
        if let Some(d) = first_difference(fa, fb) {
            panic!("{what}: frame {n}: {d}");
        }
    }
}

#[test]
#[cfg_attr(
    vmafx_no_corpus,
    ignore = "no conformance corpus at ../shared/conformance or VMAFX_CONFORMANCE"
)]
fn every_y4m_clip_matches_the_loader_and_the_logs() {
    let Some(dir) = conformance_dir() else { return };
    for clip in clip_ids() {
        let n = expected_frames(&dir, clip);
        for side in ["ref", "dis"] {
            let path = dir.join(format!("{clip}_{side}.y4m"));
            let mut reader = VideoReader::open(&path, None).unwrap();
            assert!(matches!(reader.kind(), InputKind::Y4m(_)), "{clip} {side}");
            let mut frames = Vec::new();
            while let Some(f) = reader.next_frame().unwrap_or_else(|e| panic!("{e}")) {
                frames.push(f);
            }
            assert_eq!(frames.len(), n, "{clip} {side}: frames vs expected log");
            assert_eq!(reader.frames_read(), n as u64, "{clip} {side}");
            assert!(
                reader.next_frame().unwrap().is_none(),
                "{clip} {side}: after end"
            );
            assert_same(&format!("{clip} {side}"), &frames, &load_y4m(&path));
        }
    }
}

#[test]
#[cfg_attr(
    vmafx_no_corpus,
    ignore = "no conformance corpus at ../shared/conformance or VMAFX_CONFORMANCE"
)]
fn raw_yuv_clips_match_their_y4m_twins() {
    let Some(dir) = conformance_dir() else { return };
    let cases = [
        (
            "bbb_576x324_420p8_crf35",
            "420",
            576,
            324,
            "bbb_576x324_420p8_crf35__yuv_420p8",
        ),
        (
            "bbb_352x288_422p8_crf38",
            "422",
            352,
            288,
            "bbb_352x288_422p8_crf38",
        ),
    ];
    for (clip, fmt, w, h, log_clip) in cases {
        let raw = RawParams::from_names(w, h, fmt, 8).unwrap();
        for side in ["ref", "dis"] {
            let yuv = read_all(&dir.join(format!("{clip}_{side}.yuv")), Some(raw));
            assert_eq!(
                yuv.len(),
                expected_frames(&dir, log_clip),
                "{clip} {side}.yuv"
            );
            let y4m = read_all(&dir.join(format!("{clip}_{side}.y4m")), None);
            assert_same(&format!("{clip} {side}: yuv vs y4m"), &yuv, &y4m);
        }
    }
}

#[test]
#[cfg_attr(
    vmafx_no_corpus,
    ignore = "no conformance corpus at ../shared/conformance or VMAFX_CONFORMANCE"
)]
fn ten_bit_yuv_is_the_eight_bit_clip_shifted_by_two() {
    let Some(dir) = conformance_dir() else { return };
    let raw = RawParams::from_names(576, 324, "420", 10).unwrap();
    for side in ["ref", "dis"] {
        let deep = read_all(
            &dir.join(format!("bbb_576x324_420p10le_crf35_{side}.yuv")),
            Some(raw),
        );
        let n = expected_frames(&dir, "bbb_576x324_420p8_crf35__yuv_420p10le");
        assert_eq!(deep.len(), n, "420p10le {side}");
        let eight = read_all(
            &dir.join(format!("bbb_576x324_420p8_crf35_{side}.y4m")),
            None,
        );
        assert_eq!(eight.len(), n);
        for (k, (d, e)) in deep.iter().zip(&eight).enumerate() {
            assert_eq!((d.format(), d.bpc()), (PixelFormat::Yuv420p, 10));
            for i in 0..3 {
                let (pd, pe) = (d.plane(i), e.plane(i));
                assert_eq!((pd.width, pd.height), (pe.width, pe.height));
                for y in 0..pd.height {
                    let (rd, re) = (pd.row_u16(y), pe.row_u8(y));
                    for x in 0..pd.width as usize {
                        assert_eq!(
                            rd[x],
                            (re[x] as u16) << 2,
                            "420p10le {side} frame {k} plane {i} ({x}, {y})"
                        );
                    }
                }
            }
        }
    }
}

#[test]
#[cfg_attr(
    vmafx_no_corpus,
    ignore = "no conformance corpus at ../shared/conformance or VMAFX_CONFORMANCE"
)]
fn odd_clip_keeps_the_top_left_of_rounded_up_chroma() {
    let Some(dir) = conformance_dir() else { return };
    let path = dir.join("bbb_351x287_420p8_odd_ref.y4m");
    let bytes = std::fs::read(&path).unwrap();
    let mut reader = VideoReader::open(&path, None).unwrap();
    let InputKind::Y4m(header) = reader.kind().clone() else {
        panic!("not y4m")
    };
    assert_eq!(reader.frame_bytes(), 351 * 287 + 2 * 176 * 144);
    assert!(reader.skip(1).unwrap() == 1);
    let f = reader.next_frame().unwrap().unwrap();
    assert_eq!((f.plane(1).width, f.plane(1).height), (175, 143));
    // Frame 1's samples start after the header, frame 0 and its own FRAME line.
    let frame1 = header.len as usize + (6 + reader.frame_bytes() as usize) + 6;
    for (i, base) in [(1, 351 * 287), (2, 351 * 287 + 176 * 144)] {
        for (x, y) in [(0u32, 0u32), (174, 0), (0, 142), (174, 142), (100, 77)] {
            let want = bytes[frame1 + base + y as usize * 176 + x as usize];
            assert_eq!(f.plane(i).get(x, y), want as u16, "plane {i} ({x}, {y})");
        }
    }
}

#[test]
#[cfg_attr(
    vmafx_no_corpus,
    ignore = "no conformance corpus at ../shared/conformance or VMAFX_CONFORMANCE"
)]
fn skipping_seeks_to_the_same_frames() {
    let Some(dir) = conformance_dir() else { return };
    let path = dir.join("bbb_384x216_420p10_crf35_dis.y4m");
    let all = load_y4m(&path);
    let mut reader = VideoReader::open_with_limits(&path, None, Limits::default()).unwrap();
    assert_eq!(reader.skip(5).unwrap(), 5);
    assert_eq!(reader.position(), 5);
    let f5 = reader.next_frame().unwrap().unwrap();
    assert_eq!(first_difference(&f5, &all[5]), None);
    assert_eq!(reader.skip(100).unwrap(), all.len() as u64 - 6);
    assert!(reader.next_frame().unwrap().is_none());
    assert_eq!(reader.frames_read(), 1);

    let raw = RawParams::from_names(352, 288, "422", 8).unwrap();
    let yuv = dir.join("bbb_352x288_422p8_crf38_ref.yuv");
    let y4m = read_all(&dir.join("bbb_352x288_422p8_crf38_ref.y4m"), None);
    let mut reader = VideoReader::open(&yuv, Some(raw)).unwrap();
    assert_eq!(reader.skip(7).unwrap(), 7);
    let f7 = reader.next_frame().unwrap().unwrap();
    assert_eq!(first_difference(&f7, &y4m[7]), None);
}
