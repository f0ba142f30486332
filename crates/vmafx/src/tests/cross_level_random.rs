//! The dispatched extractors (vif, adm, motion) give bit-identical scores at every CPU
//! level on random clips: odd and small sizes (below one vector), 8..16 bits per sample.

use super::cross_level::scores;
use crate::cpu::{supported, with_level, CpuLevel};
use crate::feature::ExtractorInfo;
use crate::frame::{Frame, FrameBuilder, PixelFormat, SamplesMut};
use crate::testutil::twin_rng::TwinRng;

/// A 4:2:0 frame of `w` x `h` whose luma is `luma` (row-major, `w` a row).
fn frame(bpc: u32, w: usize, h: usize, luma: &[u32]) -> Frame {
    let mut fb = FrameBuilder::new(PixelFormat::Yuv420p, bpc, w as u32, h as u32).unwrap();
    let plane = fb.plane_mut(0);
    let stride = plane.stride;
    match plane.samples_mut().unwrap() {
        SamplesMut::U8(s) => {
            for (y, row) in luma.chunks(w).enumerate() {
                for (x, &v) in row.iter().enumerate() {
                    s[y * stride + x] = v as u8;
                }
            }
        }
        SamplesMut::U16(s) => {
            for (y, row) in luma.chunks(w).enumerate() {
                for (x, &v) in row.iter().enumerate() {
                    s[y * stride + x] = v as u16;
                }
            }
        }
    }
    fb.build()
}

/// A short random clip pair: smooth moving content plus noise; the distorted one
/// perturbed from the reference by a random amount.
fn clip(rng: &mut TwinRng, bpc: u32, w: usize, h: usize, n: usize) -> (Vec<Frame>, Vec<Frame>) {
    let max = (1i64 << bpc) - 1;
    let unit = 1i64 << (bpc - 8);
    let noise = rng.range(0, 40) * unit;
    let (mut refs, mut dis) = (Vec::new(), Vec::new());
    for f in 0..n as i64 {
        let mut r = Vec::with_capacity(w * h);
        let mut d = Vec::with_capacity(w * h);
        for y in 0..h as i64 {
            for x in 0..w as i64 {
                let base = ((x * 5 + y * 3 + f * 7) % 256) * unit + rng.range(-8, 8) * unit;
                let v = base.clamp(0, max);
                let e = if noise == 0 {
                    0
                } else {
                    rng.range(-noise, noise)
                };
                r.push(v as u32);
                d.push((v + e).clamp(0, max) as u32);
            }
        }
        refs.push(frame(bpc, w, h, &r));
        dis.push(frame(bpc, w, h, &d));
    }
    (refs, dis)
}

#[test]
fn extractors_match_scalar_at_every_level_on_random_clips() {
    let runs: [(&ExtractorInfo, &str); 4] = [
        (&crate::feature::vif::EXTRACTORS[0], "debug=true"),
        (&crate::feature::adm::EXTRACTORS[0], "debug=true"),
        (
            &crate::feature::adm::EXTRACTORS[0],
            "adm_enhn_gain_limit=1.0",
        ),
        (&crate::feature::motion::EXTRACTORS[0], "debug=true"),
    ];
    let mut rng = TwinRng::new(0x5eed_c10c);
    let mut compared = 0;
    for case in 0..24 {
        let bpc = [8, 10, 12, 16][case % 4];
        // ADM needs a few rows and columns per scale; start above its minimum.
        let (w, h) = (rng.size(33, 120), rng.size(33, 60));
        let (refs, dis) = clip(&mut rng, bpc, w, h, 3);
        for (info, options) in runs {
            let want = with_level(CpuLevel::Scalar, || scores(info, options, &refs, &dis));
            for level in supported().into_iter().filter(|&l| l != CpuLevel::Scalar) {
                let got = with_level(level, || scores(info, options, &refs, &dis));
                assert_eq!(got.len(), want.len(), "{} {options}", info.name);
                for ((name, index, g), (_, _, w_)) in got.iter().zip(&want) {
                    assert!(
                        g.to_bits() == w_.to_bits(),
                        "{} {options}, {bpc}-bit {w}x{h}: frame {index} {name}: \
                         {level:?} {g:e}, scalar {w_:e}",
                        info.name
                    );
                    compared += 1;
                }
            }
        }
    }
    eprintln!("{compared} values identical to scalar on random clips");
}
