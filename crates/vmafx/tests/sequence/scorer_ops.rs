//! The Rust `Scorer` driven by a byte string read as a sequence of calls: a configuration
//! (models, features, threads, subsampling), pairs of random geometry and depth pushed,
//! the run finished (or dropped unfinished), and the report read at random indices, names,
//! pooling methods and ranges (bounds up to `u64::MAX`), rendered and written.
//!
//! Shared by the cargo-fuzz target `scorer_sequence` and the seeded test
//! `tests/scorer_sequences.rs`. Every call must return a value or an error with a subject;
//! a panic is the failure. Frames are at most 48x48 and at most 24 are pushed, so a run's
//! memory is bounded by its input.

use std::ops::Bound;

use vmafx::{
    Feature, FrameBuilder, Model, OutputFormat, PixelFormat, PoolMethod, Scorer, ScorerConfig,
};

/// Reads the input a byte at a time; zeros once it runs out.
pub struct Bytes<'a>(pub &'a [u8]);

impl Bytes<'_> {
    pub fn u8(&mut self) -> u8 {
        match self.0.split_first() {
            Some((&b, rest)) => {
                self.0 = rest;
                b
            }
            None => 0,
        }
    }

    pub fn u64(&mut self) -> u64 {
        // Mostly small numbers, sometimes the edges.
        match self.u8() % 8 {
            0 => u64::MAX,
            1 => u64::MAX - u64::from(self.u8()),
            2 => u64::from(self.u8()) << 32,
            _ => u64::from(self.u8() % 40),
        }
    }

    pub fn done(&self) -> bool {
        self.0.is_empty()
    }
}

const FORMATS: [PixelFormat; 4] = [
    PixelFormat::Yuv420p,
    PixelFormat::Yuv422p,
    PixelFormat::Yuv444p,
    PixelFormat::Yuv400p,
];
const DEPTHS: [u32; 6] = [8, 10, 12, 16, 9, 7];
const FEATURES: [&str; 6] = ["psnr", "float_ssim", "cambi", "motion", "ciede", "nosuch"];
const NAMES: [&str; 6] = [
    "vmaf",
    "psnr_y",
    "float_ssim",
    "cambi",
    "vmaf_v0.6.1",
    "nope",
];

fn bound(b: &mut Bytes<'_>) -> Bound<u64> {
    match b.u8() % 3 {
        0 => Bound::Unbounded,
        1 => Bound::Included(b.u64()),
        _ => Bound::Excluded(b.u64()),
    }
}

fn frame(b: &mut Bytes<'_>, geometry: (PixelFormat, u32, u32, u32)) -> Option<vmafx::Frame> {
    let (format, bpc, w, h) = geometry;
    let mut f = FrameBuilder::new(format, bpc, w, h).ok()?;
    let fill = b.u8();
    for i in 0..format.plane_count() {
        match f.plane_mut(i).samples_mut() {
            Some(vmafx::frame::SamplesMut::U8(s)) => {
                for (k, v) in s.iter_mut().enumerate() {
                    *v = fill.wrapping_add((k as u8).wrapping_mul(31));
                }
            }
            Some(vmafx::frame::SamplesMut::U16(s)) => {
                let max = (1u32 << bpc) - 1;
                for (k, v) in s.iter_mut().enumerate() {
                    *v = ((u32::from(fill) * 257 + k as u32 * 97) % (max + 1)) as u16;
                }
            }
            None => {}
        }
    }
    Some(f.build())
}

/// Runs the sequence the bytes describe.
pub fn run(data: &[u8]) {
    let mut b = Bytes(data);
    let mut config = ScorerConfig::new()
        .threads(usize::from(b.u8() % 3))
        .subsample(u32::from(b.u8() % 4));
    let setup = b.u8();
    if setup & 1 != 0 {
        config = config.model(Model::builtin(if setup & 2 != 0 {
            "vmaf_v0.6.1"
        } else {
            "vmaf_v0.6.1neg"
        }));
    }
    for _ in 0..(setup >> 2) % 3 {
        config = config.feature(Feature::new(FEATURES[usize::from(b.u8()) % FEATURES.len()]));
    }
    let Ok(mut scorer) = Scorer::new(config) else {
        return;
    };
    let pick = |b: &mut Bytes<'_>| {
        (
            FORMATS[usize::from(b.u8()) % FORMATS.len()],
            DEPTHS[usize::from(b.u8()) % DEPTHS.len()],
            u32::from(b.u8() % 48),
            u32::from(b.u8() % 48),
        )
    };
    let mut geometry = pick(&mut b);
    let mut accepted = 0u64;
    for _ in 0..24 {
        if b.done() {
            break;
        }
        match b.u8() % 6 {
            0 => break,
            1 => geometry = pick(&mut b),
            2 => {
                // Pictures of two geometries: refused.
                let other = pick(&mut b);
                if let (Some(r), Some(d)) = (frame(&mut b, geometry), frame(&mut b, other)) {
                    let same = (r.width(), r.height(), r.format(), r.bpc())
                        == (d.width(), d.height(), d.format(), d.bpc());
                    let ok = scorer.push(r, d).is_ok();
                    assert!(same || !ok, "a pair of two geometries was accepted");
                    accepted += u64::from(ok);
                }
            }
            _ => {
                if let (Some(r), Some(d)) = (frame(&mut b, geometry), frame(&mut b, geometry)) {
                    accepted += u64::from(scorer.push(r, d).is_ok());
                }
            }
        }
        assert_eq!(scorer.frames_pushed(), accepted);
    }
    if b.u8() % 8 == 0 {
        return; // dropped unfinished
    }
    let report = match scorer.finish() {
        Ok(r) => r,
        Err(e) => {
            assert!(!e.subject().is_empty() || !e.message().is_empty());
            return;
        }
    };
    assert_eq!(report.frame_count(), accepted);
    while !b.done() {
        let name = NAMES[usize::from(b.u8()) % NAMES.len()];
        let method = PoolMethod::ALL[usize::from(b.u8()) % PoolMethod::ALL.len()];
        match b.u8() % 6 {
            0 => {
                let _ = report.frame(b.u64());
            }
            1 => {
                let range = (bound(&mut b), bound(&mut b));
                if let Ok(v) = report.pooled(name, method, range) {
                    assert!(
                        !v.is_infinite() || method == PoolMethod::HarmonicMean,
                        "{v}"
                    );
                }
            }
            2 => {
                let _ = report.model_pooled(name, method, (bound(&mut b), bound(&mut b)));
            }
            3 => {
                let _ = report.models();
                let _ = report.model(name);
            }
            4 => {
                let fmt = OutputFormat::ALL[usize::from(b.u8()) % 4];
                let mut out = Vec::new();
                report.write(&mut out, fmt).unwrap();
                assert_eq!(out, report.render(fmt).into_bytes());
            }
            _ => {
                assert!(report.frames().count() as u64 <= accepted);
            }
        }
    }
}
