//! Imported frames score bit for bit as the same pictures submitted as host frames
//! (ADR-1929's exit evidence on the CPU device; the assertions of VMAFx's
//! `test_vmafx_import_bitexact.c`, which reads libvmaf internals, restated here).
//!
//! One context scores host frames, another the same pictures imported from a producer's
//! buffer: planar (bound in place), NV12 (8-bit), P010 (10-bit) or P016 (16-bit). Every
//! score the collector holds at every frame (the VMAF model's features and psnr, whose
//! chroma planes show a de-interleave) and the model's score of every frame must be the
//! same bits. Each semi-planar import is one counted conversion, and no import copies
//! pixels through the host. The comparison itself is shown to catch a producer layout
//! that is off by one shift or has Cb and Cr swapped.

use crate::context::{Context, ContextConfig, ModelHandle};
use crate::device::cpu::import_host;
use crate::device::Device;
use crate::frame::import::FrameImport;
use crate::frame::layout;
use crate::frame::{Frame, FrameBuilder, MemoryKind, PixelFormat, SamplesMut};
use crate::hooks;
use crate::model::{LoadedModel, ModelSpec};
use crate::testutil;

const MODEL: &str = "vmaf_v0.6.1";

/// How the producer lays out a picture.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Form {
    /// The frame's own planar format, tightly packed: bound in place.
    Planar,
    /// Luma, then interleaved Cb / Cr, every sample shifted up by `shift`.
    Semi { format: PixelFormat, shift: u32 },
    /// A planted producer defect: semi-planar with Cr before Cb.
    SwappedChroma { format: PixelFormat },
}

const NV12: Form = Form::Semi {
    format: PixelFormat::Nv12,
    shift: 0,
};
const P010: Form = Form::Semi {
    format: PixelFormat::P010,
    shift: 6,
};
const P016: Form = Form::Semi {
    format: PixelFormat::P016,
    shift: 0,
};

/// A producer's buffer, in words of its sample size (so 16-bit samples are aligned).
enum Buffer {
    U8(Vec<u8>),
    U16(Vec<u16>),
}

impl Buffer {
    fn address(&self) -> usize {
        match self {
            Buffer::U8(v) => v.as_ptr() as usize,
            Buffer::U16(v) => v.as_ptr() as usize,
        }
    }
}

/// The samples of plane `p` of `f`, row by row.
pub(super) fn plane_samples(f: &Frame, p: usize) -> Vec<u16> {
    let pl = f.plane(p);
    let mut v = Vec::with_capacity((pl.width * pl.height) as usize);
    for y in 0..pl.height {
        for x in 0..pl.width {
            v.push(pl.get(x, y));
        }
    }
    v
}

/// `f` laid out by the producer as `form`, and the import descriptor over it.
fn produce(f: &Frame, form: Form) -> (Buffer, FrameImport) {
    let wide = f.bpc() > 8;
    let bytes = if wide { 2u64 } else { 1 };
    let planes: Vec<Vec<u16>> = (0..f.planes().len()).map(|p| plane_samples(f, p)).collect();
    let mut words: Vec<u16> = Vec::new();
    let mut layout = Vec::new(); // (offset in samples, pitch in samples)
    let format = match form {
        Form::Planar => {
            for (p, s) in planes.iter().enumerate() {
                layout.push((words.len() as u64, f.plane(p).width as u64));
                words.extend_from_slice(s);
            }
            f.format()
        }
        Form::Semi { format, .. } | Form::SwappedChroma { format } => {
            let shift = if let Form::Semi { shift, .. } = form {
                shift
            } else {
                layout::sample_shift(format, f.bpc())
            };
            let (first, second) = match form {
                Form::SwappedChroma { .. } => (2, 1),
                _ => (1, 2),
            };
            layout.push((0, f.width() as u64));
            words.extend(planes[0].iter().map(|v| v << shift));
            layout.push((words.len() as u64, 2 * f.plane(1).width as u64));
            for (a, b) in planes[first].iter().zip(&planes[second]) {
                words.push(a << shift);
                words.push(b << shift);
            }
            format
        }
    };
    let buffer = if wide {
        Buffer::U16(words)
    } else {
        Buffer::U8(words.iter().map(|&v| v as u8).collect())
    };
    let mut d = FrameImport {
        memory: Some(MemoryKind::Host),
        format: Some(format),
        bpc: f.bpc(),
        width: f.width(),
        height: f.height(),
        n_planes: layout.len() as u32,
        ..FrameImport::default()
    };
    for (p, (offset, pitch)) in layout.into_iter().enumerate() {
        d.planes[p].handle = buffer.address();
        d.planes[p].offset = offset * bytes;
        d.planes[p].pitch = pitch * bytes;
    }
    (buffer, d)
}

/// Every score of a finished session: per collector name, the bits at each frame; and the
/// model's score bits per frame.
#[derive(Debug, PartialEq)]
pub(super) struct Scores {
    pub(super) features: Vec<(String, Vec<Option<u64>>)>,
    pub(super) model: Vec<u64>,
}

/// A context scoring the built-in model `version` and psnr.
fn scoring_context(version: &str) -> (Context, ModelHandle) {
    let mut c = Context::new(ContextConfig::default()).unwrap();
    let model = LoadedModel::load(&ModelSpec::version(version)).unwrap();
    let handle = c.use_model(model).unwrap();
    c.use_feature("psnr", &[]).unwrap();
    (c, handle)
}

/// Flushes `c` and reads every score of its `n` frames.
fn finish(c: &mut Context, handle: &ModelHandle, n: u64) -> Scores {
    c.flush().unwrap();
    let model = (0..n)
        .map(|i| c.score_at_index(handle, i).unwrap()[0].1.to_bits())
        .collect();
    let col = c.collector().unwrap();
    let features = col
        .names()
        .into_iter()
        .map(|k| {
            let bits = (0..n).map(|i| col.get(&k, i).map(f64::to_bits)).collect();
            (k, bits)
        })
        .collect();
    Scores { features, model }
}

/// Scores the pairs with the VMAF model `version` and psnr.
fn session_of(version: &str, pairs: Vec<(Frame, Frame)>) -> Scores {
    let (mut c, handle) = scoring_context(version);
    let n = pairs.len() as u64;
    for (i, (r, d)) in pairs.into_iter().enumerate() {
        c.submit(r, d, i as u64).unwrap();
    }
    finish(&mut c, &handle, n)
}

/// Scores the pairs with the default VMAF model and psnr.
pub(super) fn session(pairs: Vec<(Frame, Frame)>) -> Scores {
    session_of(MODEL, pairs)
}

/// Host and imported sessions of `refs` / `dis`, with the conversions the imports made.
fn host_and_imported(refs: &[Frame], dis: &[Frame], form: Form) -> (Scores, Scores, u64) {
    let host = session(refs.iter().cloned().zip(dis.iter().cloned()).collect());
    let cpu = Device::cpu().info();
    let before = hooks::conversions();
    // The producer's buffers outlive every frame imported over them (dropped after the
    // session, which drops its frames).
    let mut buffers = Vec::new();
    let mut import = |f: &Frame| {
        let (buf, d) = produce(f, form);
        // SAFETY: `buf` is kept in `buffers`, alive and unchanged until the session ends.
        let frame = unsafe { import_host(&d, &cpu) }.unwrap();
        buffers.push(buf);
        frame
    };
    let pairs: Vec<(Frame, Frame)> = refs
        .iter()
        .zip(dis)
        .map(|(r, d)| (import(r), import(d)))
        .collect();
    let imported = session(pairs);
    drop(buffers);
    (host, imported, hooks::conversions() - before)
}

/// Asserts the imported session of `form` scores as the host session, that every
/// semi-planar import was one conversion and that nothing was copied through the host.
fn assert_bitexact(what: &str, refs: &[Frame], dis: &[Frame], form: Form) {
    let copies = hooks::host_copies();
    let (host, imported, conversions) = host_and_imported(refs, dis, form);
    assert!(
        host.features.iter().any(|(k, _)| k.contains("adm2"))
            && host.features.iter().any(|(k, _)| k == "psnr_cb"),
        "{what}: the VMAF features and psnr were scored"
    );
    assert_eq!(
        host, imported,
        "{what} {form:?}: imported scores differ from host scores"
    );
    let want = if form == Form::Planar {
        0
    } else {
        2 * refs.len() as u64
    };
    assert_eq!(conversions, want, "{what} {form:?}: conversions");
    assert_eq!(hooks::host_copies(), copies, "{what} {form:?}: host copies");
    assert_eq!(
        hooks::host_copies(),
        0,
        "{what}: no host copy of imported pixels"
    );
}

/// `frames` with every sample shifted up by `shift` bits, at depth `bpc`.
pub(super) fn scaled(frames: &[Frame], bpc: u32, shift: u32) -> Vec<Frame> {
    frames
        .iter()
        .map(|f| {
            let mut b = FrameBuilder::new(f.format(), bpc, f.width(), f.height()).unwrap();
            for p in 0..f.planes().len() {
                let src = plane_samples(f, p);
                let pl = b.plane_mut(p);
                let (w, stride) = (pl.width as usize, pl.stride);
                let SamplesMut::U16(s) = pl.samples_mut().unwrap() else {
                    panic!("a deeper frame has 16-bit samples")
                };
                for (y, row) in src.chunks(w).enumerate() {
                    for (x, v) in row.iter().enumerate() {
                        s[y * stride + x] = v << shift;
                    }
                }
            }
            b.build()
        })
        .collect()
}

/// Two frames of deterministic, textured content.
fn synthetic(w: u32, h: u32, bpc: u32, seed: u32) -> Vec<Frame> {
    let max = (1u32 << bpc) - 1;
    (0..2u32)
        .map(|i| {
            let mut b = FrameBuilder::new(PixelFormat::Yuv420p, bpc, w, h).unwrap();
            for p in 0..3 {
                let pl = b.plane_mut(p);
                let (pw, ph, stride) = (pl.width as usize, pl.height as usize, pl.stride);
                let value = |x: usize, y: usize| {
                    let mut v = (x as u32).wrapping_mul(7) ^ (y as u32).wrapping_mul(13);
                    v = v.wrapping_add((seed + i) * 29 + p as u32 * 101);
                    v = v.wrapping_mul(0x9e37_79b1) >> 16;
                    // A smooth ramp with noise: motion and detail for the features.
                    ((x + y + (i as usize) * 3) as u32 * 2 + (v & 31)) & max
                };
                match pl.samples_mut().unwrap() {
                    SamplesMut::U8(s) => {
                        for y in 0..ph {
                            for x in 0..pw {
                                s[y * stride + x] = value(x, y) as u8;
                            }
                        }
                    }
                    SamplesMut::U16(s) => {
                        for y in 0..ph {
                            for x in 0..pw {
                                s[y * stride + x] = value(x, y) as u16;
                            }
                        }
                    }
                }
            }
            b.build()
        })
        .collect()
}

#[test]
#[cfg_attr(
    vmafx_no_corpus,
    ignore = "no conformance corpus at ../shared/conformance or VMAFX_CONFORMANCE"
)]
fn conformance_clips_score_the_same_imported() {
    let Some(dir) = testutil::conformance_dir() else {
        return;
    };
    let _g = hooks::test_lock();
    hooks::reset_counters();
    let (r8, d8) = testutil::load_clip(&dir, "carphone_176x144_420p8");
    assert_bitexact("carphone", &r8, &d8, Form::Planar);
    assert_bitexact("carphone", &r8, &d8, NV12);
    let (r10, d10) = testutil::load_clip(&dir, "bbb_384x216_420p10_crf35");
    assert_bitexact("bbb 10-bit", &r10, &d10, Form::Planar);
    assert_bitexact("bbb 10-bit", &r10, &d10, P010);
    // P016: the 10-bit clip scaled to 16 bits, against the same 16-bit planes on the host.
    let (r16, d16) = (scaled(&r10, 16, 6), scaled(&d10, 16, 6));
    assert_bitexact("bbb 16-bit", &r16, &d16, P016);
    // Odd size: the chroma planes are the frame's (rounded down, as libvmaf).
    let (r_odd, d_odd) = testutil::load_clip(&dir, "bbb_351x287_420p8_odd");
    assert_bitexact("bbb odd", &r_odd, &d_odd, NV12);
}

#[test]
fn synthetic_4k_scores_the_same_imported() {
    let _g = hooks::test_lock();
    hooks::reset_counters();
    let (r, d) = (synthetic(3840, 2160, 8, 0), synthetic(3840, 2160, 8, 7));
    assert_bitexact("4k", &r, &d, NV12);
    assert_bitexact("4k", &r, &d, Form::Planar);
    let (r, d) = (synthetic(3841, 2161, 10, 0), synthetic(3841, 2161, 10, 7));
    assert_bitexact("4k odd 10-bit", &r, &d, P010);
}

#[test]
fn the_comparison_sees_a_wrong_layout() {
    let _g = hooks::test_lock();
    let (r, d) = (synthetic(96, 64, 10, 0), synthetic(96, 64, 10, 7));
    let (host, imported, _) = host_and_imported(&r, &d, P010);
    assert_eq!(host, imported);
    // A P010 producer off by one bit of shift: every sample is read at half its value.
    let off = Form::Semi {
        format: PixelFormat::P010,
        shift: 5,
    };
    let (host, imported, _) = host_and_imported(&r, &d, off);
    assert_ne!(host, imported, "a shift of 5 must change the scores");
    // Cb and Cr swapped: luma features agree, chroma psnr does not.
    let swapped = Form::SwappedChroma {
        format: PixelFormat::P010,
    };
    let (host, imported, _) = host_and_imported(&r, &d, swapped);
    let get = |s: &Scores, k: &str| s.features.iter().find(|(n, _)| n == k).cloned();
    assert_eq!(get(&host, "psnr_y"), get(&imported, "psnr_y"));
    assert_ne!(
        get(&host, "psnr_cb"),
        get(&imported, "psnr_cb"),
        "swapped chroma"
    );
}

/// One import, two contexts with different models (ADR-1929 item 4, PR #2185): each
/// context scores as a run of its own on host frames, each frame is imported once, and the
/// last reference frame is released only after the last reader of either context.
#[test]
fn one_import_feeds_two_contexts_with_different_models() {
    let _g = hooks::test_lock();
    let (r, d) = (synthetic(352, 288, 8, 0), synthetic(352, 288, 8, 7));
    let versions = [MODEL, "vmaf_v1.0.16_3d0h"];
    let mut contexts: Vec<(Context, ModelHandle)> =
        versions.iter().map(|v| scoring_context(v)).collect();
    let cpu = Device::cpu().info();
    let attempts = hooks::import_attempts();
    let mut buffers = Vec::new();
    let mut last_release = None;
    for (i, (rf, df)) in r.iter().zip(&d).enumerate() {
        let mut import = |f: &Frame| {
            let (buf, desc) = produce(f, NV12);
            // SAFETY: `buf` is kept in `buffers` until every context is gone.
            let frame = unsafe { import_host(&desc, &cpu) }.unwrap();
            buffers.push(buf);
            frame
        };
        let (ri, di) = (import(rf), import(df));
        last_release = Some(ri.release_fence());
        for (c, _) in contexts.iter_mut() {
            c.submit(ri.clone(), di.clone(), i as u64).unwrap();
        }
    }
    assert_eq!(
        hooks::import_attempts() - attempts,
        2 * r.len() as u64,
        "one import per frame"
    );
    let n = r.len() as u64;
    let fence = last_release.unwrap();
    let alone =
        |version: &str| session_of(version, r.iter().cloned().zip(d.iter().cloned()).collect());
    let (mut second, second_handle) = contexts.pop().unwrap();
    let (mut first, first_handle) = contexts.pop().unwrap();
    assert_eq!(
        finish(&mut first, &first_handle, n),
        alone(versions[0]),
        "shared imports score as alone"
    );
    drop(first);
    assert!(
        !fence.is_signalled(),
        "the second context, not flushed, still holds the last frame"
    );
    assert_eq!(
        finish(&mut second, &second_handle, n),
        alone(versions[1]),
        "shared imports score as alone"
    );
    drop(second);
    assert!(fence.is_signalled(), "released after the last reader");
    drop(buffers);
}
