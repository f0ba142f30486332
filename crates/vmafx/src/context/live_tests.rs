//! Live reads equal the reads after the flush, and come as soon as the frames are final.

use super::*;
use crate::context::ContextConfig;
use crate::frame::{Frame, FrameBuilder, PixelFormat, SamplesMut};
use crate::model::{LoadedModel, ModelSpec};

/// A moving checker (and a blurred copy for the distorted side).
fn scene(t: u32, blur: bool) -> Frame {
    let (w, h) = (64u32, 64u32);
    let mut b = FrameBuilder::new(PixelFormat::Yuv420p, 8, w, h).unwrap();
    if let Some(SamplesMut::U8(y)) = b.plane_mut(0).samples_mut() {
        for (k, v) in y.iter_mut().enumerate() {
            let (i, j) = (k as u32 % w, k as u32 / w);
            *v = if ((i + 2 * t) / 5 + j / 4).is_multiple_of(2) {
                190
            } else {
                40 + (t % 7) as u8
            };
        }
        if blur {
            let copy = y.to_vec();
            for k in 1..y.len() - 1 {
                y[k] = ((copy[k - 1] as u32 + 2 * copy[k] as u32 + copy[k + 1] as u32) / 4) as u8;
            }
        }
    }
    b.build()
}

/// The window `[first, last]` read live after each submit: the frames submitted when it
/// first became final, and its rows; then the rows after the flush.
fn live_window(threads: usize, frames: u64, first: u64, last: u64) -> (Option<u64>, Vec<Vec<f64>>) {
    let mut c = Context::new(ContextConfig {
        threads,
        ..Default::default()
    })
    .unwrap();
    let h = c
        .use_model(LoadedModel::load(&ModelSpec::default_model()).unwrap())
        .unwrap();
    c.use_feature("psnr", &[]).unwrap();
    let mut seen: Option<(u64, Vec<Vec<f64>>)> = None;
    for t in 0..frames {
        c.submit(scene(t as u32, false), scene(t as u32, true), t)
            .unwrap();
        if seen.is_none() {
            // Workers may still hold the window's frames: wait for them to finish a while.
            for _ in 0..if threads > 0 { 200 } else { 1 } {
                if let Some(rows) = c.final_score_rows(&h, first, last).unwrap() {
                    seen = Some((t + 1, rows));
                    break;
                }
                if threads > 0 && t > last + 1 {
                    std::thread::sleep(std::time::Duration::from_millis(5));
                } else {
                    break;
                }
            }
        }
    }
    c.flush().unwrap();
    let after = c.final_score_rows(&h, first, last).unwrap().unwrap();
    assert_eq!(after, c.score_rows(&h, first, last).unwrap());
    if let Some((_, rows)) = &seen {
        assert_eq!(rows.len(), after.len());
        for (a, b) in rows.iter().zip(&after) {
            assert_eq!(
                a.iter().map(|v| v.to_bits()).collect::<Vec<_>>(),
                b.iter().map(|v| v.to_bits()).collect::<Vec<_>>()
            );
        }
    }
    let psnr = c
        .final_feature_values("psnr_y", first, last)
        .unwrap()
        .unwrap();
    assert_eq!(psnr, c.feature_values("psnr_y", first, last).unwrap());
    (seen.map(|s| s.0), after)
}

#[test]
fn a_vmaf_window_is_final_one_frame_after_its_last_without_threads() {
    let (seen, rows) = live_window(0, 12, 0, 4);
    assert_eq!(rows.len(), 5);
    // motion2 of frame 4 needs frame 5's motion: final after 6 frames were submitted.
    assert_eq!(seen, Some(6));
    let (seen, _) = live_window(0, 12, 5, 9);
    assert_eq!(seen, Some(11));
}

#[test]
fn a_window_ending_at_the_last_frame_is_final_at_the_flush() {
    let (seen, rows) = live_window(0, 8, 4, 7);
    assert_eq!((seen, rows.len()), (None, 4));
}

#[test]
fn live_reads_with_worker_threads_equal_the_flushed_ones() {
    let (seen, rows) = live_window(2, 12, 2, 6);
    assert_eq!(rows.len(), 5);
    assert!(seen.is_some(), "the window became final before the flush");
}

#[test]
fn ranges_are_checked() {
    let mut c = Context::new(ContextConfig::default()).unwrap();
    c.use_feature("psnr", &[]).unwrap();
    assert_eq!(c.final_feature_values("psnr_y", 0, 3).unwrap(), None);
    assert_eq!(
        c.final_feature_values("psnr_y", 4, 3)
            .unwrap_err()
            .subject(),
        "first"
    );
    c.submit(scene(0, false), scene(0, true), 0).unwrap();
    assert!(c.final_feature_values("psnr_y", 0, 0).unwrap().is_some());
    assert_eq!(c.final_feature_values("psnr_y", 0, 1).unwrap(), None);
    c.flush().unwrap();
    let e = c.final_feature_values("psnr_y", 0, 1).unwrap_err();
    assert_eq!(e.subject(), "last");
}
