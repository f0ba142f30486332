//! Per-frame time of the dispatched extractors (adm, motion) at 1080p at each CPU level.
//!
//! `cargo test -p vmafx bench_levels -- --ignored --nocapture` prints the
//! timings and the speed-up of each level over scalar (no assertion: a measurement). It
//! reads the 1080p pair at `/work/bench/1080_{ref,dis}.y4m`, or `VMAFX_BENCH_DIR`.

use std::time::Instant;

use crate::cpu::{supported, with_level};
use crate::feature::{ExtractInput, ExtractorInfo, FrameScores};
use crate::frame::Geometry;
use crate::frame::{Frame, FrameBuilder, SamplesMut};
use crate::testutil::load_y4m;

/// Frames timed per run (after one warm-up frame).
const FRAMES: usize = 6;

/// The same pictures at `bpc` bits (samples shifted up), to time the 16-bit paths.
fn deepen(frames: &[Frame], bpc: u32) -> Vec<Frame> {
    frames
        .iter()
        .map(|f| {
            let mut b = FrameBuilder::new(f.format(), bpc, f.width(), f.height()).unwrap();
            for i in 0..3 {
                let src = f.plane(i);
                let dst = b.plane_mut(i);
                let stride = dst.stride;
                if let Some(SamplesMut::U16(d)) = dst.samples_mut() {
                    for y in 0..src.height as usize {
                        for (x, &v) in src.row_u8(y as u32).iter().enumerate() {
                            d[y * stride + x] = (v as u16) << (bpc - 8);
                        }
                    }
                }
            }
            b.build()
        })
        .collect()
}

/// Milliseconds per frame of `info` (default options) over the pairs.
fn per_frame_ms(info: &ExtractorInfo, refs: &[Frame], dis: &[Frame]) -> f64 {
    let opts = info.parse_options(&[]).unwrap();
    let mut ex = (info.create)(&opts).unwrap();
    let f = &refs[0];
    ex.init(Geometry {
        format: f.format(),
        bpc: f.bpc(),
        width: f.width(),
        height: f.height(),
    })
    .unwrap();
    let mut out = FrameScores::default();
    let mut run = |i: usize| {
        let input = ExtractInput {
            reference: &refs[i],
            distorted: &dis[i],
            prev_reference: i.checked_sub(1).map(|j| &refs[j]),
            prev_prev_reference: i.checked_sub(2).map(|j| &refs[j]),
            index: i as u64,
        };
        ex.extract(&input, &mut out).unwrap();
    };
    run(0);
    let start = Instant::now();
    for i in 1..=FRAMES {
        run(i);
    }
    start.elapsed().as_secs_f64() * 1e3 / FRAMES as f64
}

#[test]
#[ignore = "a measurement: run with --ignored --nocapture"]
fn bench_levels() {
    let dir = std::env::var("VMAFX_BENCH_DIR").unwrap_or_else(|_| "/work/bench".into());
    let dir = std::path::Path::new(&dir);
    let refs8 = load_y4m(&dir.join("1080_ref.y4m"));
    let dis8 = load_y4m(&dir.join("1080_dis.y4m"));
    let (refs8, dis8) = (&refs8[..=FRAMES], &dis8[..=FRAMES]);
    let (refs10, dis10) = (deepen(refs8, 10), deepen(dis8, 10));
    let extractors = [
        &crate::feature::adm::EXTRACTORS[0],
        &crate::feature::motion::EXTRACTORS[0],
    ];
    for info in extractors {
        for (bits, refs, dis) in [(8, refs8, dis8), (10, &refs10[..], &dis10[..])] {
            let mut scalar = None;
            for level in supported() {
                let ms = with_level(level, || per_frame_ms(info, refs, dis));
                let base = *scalar.get_or_insert(ms);
                eprintln!(
                    "{} {}x{} {bits}-bit {:>6}: {ms:8.2} ms/frame, {:.2}x scalar",
                    info.name,
                    refs[0].width(),
                    refs[0].height(),
                    level.name(),
                    base / ms
                );
            }
        }
    }
}
