//! Every extractor on small random frames: random size (1..=64), format, depth, options and
//! samples. `create`, `init`, `extract` and `flush` must each return Ok or Err, never panic.
//!
//! Input layout: extractor, format, depth, width, height, frame count, option-string length,
//! that many option bytes, then sample bytes (cycled to fill every plane of every frame).
#![no_main]

use std::collections::HashMap;

use libfuzzer_sys::fuzz_target;
use vmafx::feature::options::split_option_string;
use vmafx::feature::{registry, ExtractInput, FrameScores, Ordering, ScoreStore};
use vmafx::frame::Geometry;
use vmafx::frame::SamplesMut;
use vmafx::{Frame, FrameBuilder, PixelFormat};

const FORMATS: [PixelFormat; 4] = [
    PixelFormat::Yuv420p,
    PixelFormat::Yuv422p,
    PixelFormat::Yuv444p,
    PixelFormat::Yuv400p,
];

/// Options that would make the extractor write files.
const SKIPPED_OPTIONS: [&str; 1] = ["heatmaps_path"];

#[derive(Default)]
struct Store(HashMap<(String, u64), f64>);

impl ScoreStore for Store {
    fn get(&self, name: &str, index: u64) -> Option<f64> {
        self.0.get(&(name.to_string(), index)).copied()
    }
    fn put(&mut self, name: &str, index: u64, value: f64) {
        self.0.insert((name.to_string(), index), value);
    }
}

/// Cycles through the fuzzer's sample bytes.
struct Bytes<'a> {
    data: &'a [u8],
    at: usize,
}

impl Bytes<'_> {
    fn next(&mut self) -> u16 {
        if self.data.is_empty() {
            return 0;
        }
        let lo = self.data[self.at % self.data.len()];
        let hi = self.data[(self.at + 1) % self.data.len()];
        self.at += 2;
        u16::from_le_bytes([lo, hi])
    }
}

fn frame(g: Geometry, bytes: &mut Bytes<'_>) -> Option<Frame> {
    let mut b = FrameBuilder::new(g.format, g.bpc, g.width, g.height).ok()?;
    let mask = ((1u32 << g.bpc) - 1) as u16;
    for plane in b.planes_mut() {
        match plane.samples_mut()? {
            SamplesMut::U8(s) => s.iter_mut().for_each(|v| *v = bytes.next() as u8),
            SamplesMut::U16(s) => s.iter_mut().for_each(|v| *v = bytes.next() & mask),
        }
    }
    Some(b.build())
}

fuzz_target!(|data: &[u8]| {
    if data.len() < 7 {
        return;
    }
    let infos = registry::all();
    let info = infos[data[0] as usize % infos.len()];
    let geometry = Geometry {
        format: FORMATS[data[1] as usize % FORMATS.len()],
        bpc: 8 + u32::from(data[2]) % 9,
        width: 1 + u32::from(data[3]) % 64,
        height: 1 + u32::from(data[4]) % 64,
    };
    let frames = 1 + data[5] as usize % 3;
    let opt_len = (data[6] as usize % 48).min(data.len() - 7);
    let opt_text = std::str::from_utf8(&data[7..7 + opt_len]).unwrap_or("");
    let mut samples = Bytes {
        data: &data[7 + opt_len..],
        at: 0,
    };

    let pairs: Vec<(String, String)> = split_option_string(opt_text)
        .unwrap_or_default()
        .into_iter()
        .filter(|(k, _)| !SKIPPED_OPTIONS.contains(&k.as_str()))
        .collect();
    let Ok(opts) = info.parse_options(&pairs) else {
        return;
    };
    let Ok(mut extractor) = (info.create)(&opts) else {
        return;
    };
    if extractor.init(geometry).is_err() {
        return;
    }
    let mut store = Store::default();
    let mut refs: Vec<Frame> = Vec::new();
    for index in 0..frames {
        let (Some(reference), Some(distorted)) =
            (frame(geometry, &mut samples), frame(geometry, &mut samples))
        else {
            return;
        };
        let prev = |back: usize| {
            (info.ordering == Ordering::PrevRef && index >= back).then(|| &refs[index - back])
        };
        let input = ExtractInput {
            reference: &reference,
            distorted: &distorted,
            prev_reference: prev(1),
            prev_prev_reference: prev(2),
            index: index as u64,
        };
        let mut out = FrameScores::default();
        if extractor.extract(&input, &mut out).is_err() {
            return;
        }
        for (name, i, v) in out.entries {
            store.put(&name, i, v);
        }
        refs.push(reference);
    }
    let _ = extractor.flush(&mut store);
});
