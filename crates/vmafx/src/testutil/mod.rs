//! Test support: the conformance corpus and a minimal y4m loader for kernel tests.
//!
//! The loader reads only what the corpus holds (C420*, C422, C444, mono; 8 or 16-bit words)
//! so kernel tests do not depend on the full reader in [`crate::io`].

pub(crate) mod checkasm;
pub(crate) mod twin_rng;

use std::path::PathBuf;

use crate::frame::{Frame, FrameBuilder, PixelFormat, SamplesMut};

/// `../shared/conformance` beside the repository, or `VMAFX_CONFORMANCE`. Its absence fails
/// the test: without it, the build script's `vmafx_no_corpus` cfg marks the corpus tests
/// ignored, so only `CI=true` or `--ignored` get here. Always `Some`; the `Option` keeps
/// callers' `let Some(dir) = .. else` form.
pub(crate) fn conformance_dir() -> Option<PathBuf> {
    let dir = std::env::var_os("VMAFX_CONFORMANCE")
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/conformance")
        });
    if dir.join("manifest.json").is_file() {
        return Some(dir);
    }
    panic!("conformance corpus missing at {}", dir.display());
}

/// The clip ids of the corpus that have y4m pairs.
pub(crate) fn clip_ids() -> Vec<&'static str> {
    vec![
        "carphone_176x144_420p8",
        "bbb_576x324_420p8_crf35",
        "bbb_384x216_420p10_crf35",
        "bbb_352x288_422p8_crf38",
        "bbb_320x180_444p8_crf38",
        "bbb_351x287_420p8_odd",
        "bbb_320x180_420p8_identical",
        "bbb_384x216_420p8_scenecut",
    ]
}

/// Reads every frame of a corpus y4m file.
pub(crate) fn load_y4m(path: &std::path::Path) -> Vec<Frame> {
    let data = std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let nl = data.iter().position(|&b| b == b'\n').unwrap();
    let header = std::str::from_utf8(&data[..nl]).unwrap();
    let (mut w, mut h, mut cs) = (0u32, 0u32, "420");
    for tok in header.split(' ').skip(1) {
        match tok.as_bytes()[0] {
            b'W' => w = tok[1..].parse().unwrap(),
            b'H' => h = tok[1..].parse().unwrap(),
            b'C' => cs = &tok[1..],
            _ => {}
        }
    }
    let (format, bpc) = match cs {
        c if c.starts_with("420p") => (PixelFormat::Yuv420p, c[4..].parse().unwrap()),
        c if c.starts_with("422p") => (PixelFormat::Yuv422p, c[4..].parse().unwrap()),
        c if c.starts_with("444p") => (PixelFormat::Yuv444p, c[4..].parse().unwrap()),
        c if c.starts_with("420") => (PixelFormat::Yuv420p, 8),
        "422" => (PixelFormat::Yuv422p, 8),
        "444" => (PixelFormat::Yuv444p, 8),
        c if c.starts_with("mono") => (PixelFormat::Yuv400p, 8),
        c => panic!("unsupported colour space {c}"),
    };
    let bytes = if bpc > 8 { 2 } else { 1 };
    let (sx, sy) = format.chroma_shift();
    // The file holds chroma of the rounded-up size; frames keep libvmaf's rounded-down size.
    let mut file_planes = vec![(w, h)];
    if format.plane_count() == 3 {
        let c = (w.div_ceil(1 << sx), h.div_ceil(1 << sy));
        file_planes.push(c);
        file_planes.push(c);
    }
    let mut pos = nl + 1;
    let mut frames = Vec::new();
    while pos < data.len() {
        let nl = pos + data[pos..].iter().position(|&b| b == b'\n').unwrap();
        assert!(data[pos..].starts_with(b"FRAME"));
        pos = nl + 1;
        let mut fb = FrameBuilder::new(format, bpc, w, h).unwrap();
        for (i, (fw, fh)) in file_planes.iter().enumerate() {
            let plane = fb.plane_mut(i);
            let (pw, ph, stride) = (plane.width as usize, plane.height as usize, plane.stride);
            for y in 0..*fh as usize {
                let row = &data[pos + y * *fw as usize * bytes..][..*fw as usize * bytes];
                if y < ph {
                    match plane.samples_mut().unwrap() {
                        SamplesMut::U8(s) => {
                            s[y * stride..y * stride + pw].copy_from_slice(&row[..pw])
                        }
                        SamplesMut::U16(s) => {
                            for x in 0..pw {
                                s[y * stride + x] =
                                    u16::from_le_bytes([row[2 * x], row[2 * x + 1]]);
                            }
                        }
                    }
                }
            }
            pos += (*fw * *fh) as usize * bytes;
        }
        frames.push(fb.build());
    }
    frames
}

/// Reference and distorted frames of a corpus clip.
pub(crate) fn load_clip(dir: &std::path::Path, clip: &str) -> (Vec<Frame>, Vec<Frame>) {
    (
        load_y4m(&dir.join(format!("{clip}_ref.y4m"))),
        load_y4m(&dir.join(format!("{clip}_dis.y4m"))),
    )
}

/// An expected JSON log of the corpus, if libvmaf wrote one for this configuration.
pub(crate) fn expected(
    dir: &std::path::Path,
    clip: &str,
    config: &str,
) -> Option<serde_json::Value> {
    let p = dir.join("expected").join(format!("{clip}.{config}.json"));
    let text = std::fs::read_to_string(p).ok()?;
    Some(serde_json::from_str(&text).unwrap())
}

/// Per-frame values of `metric` in an expected log (`None` where libvmaf wrote null).
pub(crate) fn expected_metric(log: &serde_json::Value, metric: &str) -> Option<Vec<Option<f64>>> {
    let frames = log["frames"].as_array()?;
    let mut v = Vec::new();
    for f in frames {
        let m = f["metrics"].get(metric)?;
        v.push(m.as_f64());
    }
    Some(v)
}

/// Whether `a` and `b` print identically with 6 decimals, as libvmaf prints them.
pub(crate) fn same_at_6(a: f64, b: f64) -> bool {
    format!("{a:.6}") == format!("{b:.6}")
}

/// The first `frames` frames of the 1080p bench pair, `/work/bench/1080_{ref,dis}.y4m` or
/// the same names in `VMAFX_BENCH_DIR`; `None` when either file cannot be opened (the
/// timing tests that use it are `#[ignore]`d and skip then).
pub(crate) fn bench_pair(frames: usize) -> Option<(Vec<Frame>, Vec<Frame>)> {
    let dir = std::env::var("VMAFX_BENCH_DIR").unwrap_or_else(|_| "/work/bench".into());
    let read = |n: &str| -> Option<Vec<Frame>> {
        let mut r = crate::io::VideoReader::open(format!("{dir}/1080_{n}.y4m"), None).ok()?;
        Some((0..frames).map_while(|_| r.next_frame().unwrap()).collect())
    };
    Some((read("ref")?, read("dis")?))
}

/// Whether this processor's single-precision reciprocal estimate (`rcpss`) gives the bits of
/// the processor libvmaf's goldens were made on. libvmaf's x86 float ADM divides with it, and
/// the estimate is not specified bit for bit (it differs between vendors), so float ADM, and
/// the float models built on it, can print libvmaf's goldens exactly only where it matches.
/// The check is a hash of the estimate over 4096 mantissas, recorded on an Intel Xeon whose
/// scores equal every golden.
pub(crate) fn rcp_as_goldens() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::{_mm_cvtss_f32, _mm_rcp_ss, _mm_set_ss};
        let mut h: u64 = 0xcbf2_9ce4_8422_2325;
        for i in 0..4096u32 {
            let x = f32::from_bits(0x3f80_0000 | (i << 11));
            // SAFETY: SSE is part of the x86-64 baseline; the intrinsics touch no memory.
            let r = unsafe { _mm_cvtss_f32(_mm_rcp_ss(_mm_set_ss(x))) };
            h = (h ^ r.to_bits() as u64).wrapping_mul(0x100_0000_01b3);
        }
        h == 0x9c86_4eea_04c6_2325
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    #[cfg_attr(
        vmafx_no_corpus,
        ignore = "no conformance corpus at ../shared/conformance or VMAFX_CONFORMANCE"
    )]
    fn loader_reads_every_corpus_clip() {
        let Some(dir) = conformance_dir() else { return };
        for clip in clip_ids() {
            let (r, d) = load_clip(&dir, clip);
            let log = expected(&dir, clip, "vmaf_v0.6.1").unwrap();
            let n = log["frames"].as_array().unwrap().len();
            assert_eq!((r.len(), d.len()), (n, n), "{clip}");
        }
    }
}
