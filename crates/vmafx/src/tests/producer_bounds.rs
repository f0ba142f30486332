//! What a producer learns from a context about its frames (ABI 0.1.11's frame path):
//! the retention and in-flight bounds, checked against a producer that counts its live
//! frames; fences it asks a frame to signal on release; frames the context preallocates;
//! scores it imports.

use std::sync::atomic::{AtomicI64, AtomicUsize, Ordering};
use std::sync::Arc;

use crate::context::{Context, ContextConfig};
use crate::device::cpu::import_host;
use crate::device::Device;
use crate::fence::Fence;
use crate::frame::import::FrameImport;
use crate::frame::pool::FramePool;
use crate::frame::{Frame, FrameBuilder, MemoryKind, PixelFormat, SamplesMut};
use crate::hooks;
use crate::Status;

const W: u32 = 64;
const H: u32 = 48;

/// A producer's frame of textured content `seed`, counted live in `live` until its last
/// count drops.
fn produced(seed: u32, live: &Arc<AtomicI64>) -> Frame {
    let mut b = FrameBuilder::new(PixelFormat::Yuv420p, 8, W, H).unwrap();
    for p in 0..3 {
        let pl = b.plane_mut(p);
        let stride = pl.stride;
        let Some(SamplesMut::U8(s)) = pl.samples_mut() else {
            panic!("an 8-bit frame")
        };
        for (i, v) in s.iter_mut().enumerate() {
            let (x, y) = (i % stride, i / stride);
            *v = ((x * 3 + y * 5 + seed as usize * 7 + p * 11) % 251) as u8;
        }
    }
    live.fetch_add(1, Ordering::SeqCst);
    let counter = live.clone();
    b.on_release(Box::new(move |planes| {
        drop(planes);
        counter.fetch_sub(1, Ordering::SeqCst);
    }))
    .build()
}

/// Feature sets and the earlier references each keeps: none for psnr alone or beside a
/// temporal feature (float_motion keeps its own blurred frame), n-1 for motion, n-1 and
/// n-2 for motion over five frames.
const CASES: &[(&[(&str, &str)], u32)] = &[
    (&[("psnr", "")], 0),
    (&[("psnr", ""), ("float_motion", "")], 0),
    (&[("psnr", ""), ("motion", "")], 1),
    (&[("psnr", ""), ("motion_v2", "")], 1),
    (
        &[
            ("psnr", ""),
            ("motion", "motion_five_frame_window=true"),
            ("float_motion", ""),
        ],
        2,
    ),
];

/// A context with `threads` workers scoring `features` (name, then `key=value` or "").
fn context_of(threads: usize, features: &[(&str, &str)]) -> Context {
    let mut c = Context::new(ContextConfig {
        threads,
        ..ContextConfig::default()
    })
    .unwrap();
    for (name, opt) in features {
        let opts: Vec<(String, String)> = opt
            .split_once('=')
            .map(|(k, v)| vec![(k.to_string(), v.to_string())])
            .unwrap_or_default();
        c.use_feature(name, &opts).unwrap();
    }
    c
}

/// psnr and float_motion: no earlier reference kept.
fn context(threads: usize) -> Context {
    context_of(threads, CASES[1].0)
}

/// psnr and motion: frame n-1 kept.
fn context_keeping_one(threads: usize) -> Context {
    context_of(threads, CASES[2].0)
}

#[test]
fn inline_contexts_keep_exactly_the_references_their_extractors_read() {
    for &(features, retained) in CASES {
        let mut c = context_of(0, features);
        assert_eq!(c.frame_retention(), retained, "{features:?}");
        assert_eq!(
            c.max_in_flight(),
            retained,
            "{features:?}: no worker holds a job"
        );
        let (refs, dis) = (Arc::new(AtomicI64::new(0)), Arc::new(AtomicI64::new(0)));
        for i in 0..8u32 {
            c.submit(produced(i, &refs), produced(i + 50, &dis), i as u64)
                .unwrap();
            let want = (i as i64 + 1).min(retained as i64);
            assert_eq!(
                refs.load(Ordering::SeqCst),
                want,
                "{features:?}: references held after {i}"
            );
            assert_eq!(
                dis.load(Ordering::SeqCst),
                0,
                "{features:?}: distorted held after {i}"
            );
        }
        c.flush().unwrap();
        assert_eq!(
            refs.load(Ordering::SeqCst),
            0,
            "{features:?}: the flush hands every frame back"
        );
    }
}

#[test]
fn threaded_contexts_stay_within_the_in_flight_bound() {
    for &(features, r) in CASES {
        let temporal = features.iter().any(|(n, _)| *n == "float_motion");
        for threads in [1usize, 2, 4] {
            let mut c = context_of(threads, features);
            // Each worker's job, and the temporal lane's with float_motion: each job holds
            // its frame and the earlier references, besides those the scheduler keeps.
            let jobs = threads as u32 + u32::from(temporal);
            assert_eq!(
                c.max_in_flight(),
                r + jobs * (r + 1),
                "{features:?}, {threads} threads"
            );
            let (refs, dis) = (Arc::new(AtomicI64::new(0)), Arc::new(AtomicI64::new(0)));
            let (mut most_refs, mut most_dis) = (0, 0);
            for i in 0..40u32 {
                c.submit(produced(i, &refs), produced(i + 50, &dis), i as u64)
                    .unwrap();
                let held = refs.load(Ordering::SeqCst);
                let kept = (i as i64 + 1).min(r as i64);
                assert!(
                    held >= kept,
                    "{features:?}, {threads} threads: {held} references held after {i}, \
                     below the {kept} the scheduler keeps"
                );
                most_refs = most_refs.max(held);
                most_dis = most_dis.max(dis.load(Ordering::SeqCst));
            }
            c.flush().unwrap();
            let bound = c.max_in_flight() as i64;
            assert!(
                most_refs <= bound,
                "{features:?}, {threads} threads: {most_refs} references held > {bound}"
            );
            assert!(
                most_dis <= bound,
                "{features:?}, {threads} threads: {most_dis} distorted held > {bound}"
            );
            assert_eq!(
                (refs.load(Ordering::SeqCst), dis.load(Ordering::SeqCst)),
                (0, 0)
            );
        }
    }
}

#[test]
fn release_signals_fire_behind_the_last_reader_before_the_release_callback() {
    let _g = hooks::test_lock();
    let buf: Vec<u8> = (0..(W * H * 3 / 2)).map(|i| (i % 253) as u8).collect();
    let fences = [Fence::new(), Fence::new(), Fence::new()];
    let seen = Arc::new(AtomicUsize::new(usize::MAX));
    let watched = fences.clone();
    let seen2 = seen.clone();
    let mut d = FrameImport {
        memory: Some(MemoryKind::Host),
        format: Some(PixelFormat::Yuv420p),
        bpc: 8,
        width: W,
        height: H,
        n_planes: 3,
        release: Some(Arc::new(move || {
            let n = watched.iter().filter(|f| f.is_signalled()).count();
            seen2.store(n, Ordering::SeqCst);
        })),
        ..FrameImport::default()
    };
    let offsets = [0, W * H, W * H + W * H / 4];
    let pitches = [W, W / 2, W / 2];
    for p in 0..3 {
        d.planes[p].handle = buf.as_ptr() as usize;
        d.planes[p].offset = offsets[p] as u64;
        d.planes[p].pitch = pitches[p] as u64;
    }
    // SAFETY: `buf` outlives every frame over it (they are all dropped below).
    let frame = unsafe { import_host(&d, &Device::cpu().info()) }.unwrap();
    for f in &fences {
        frame.signal_on_release(f.clone()).unwrap();
    }
    let e = frame.signal_on_release(Fence::new()).unwrap_err();
    assert_eq!((e.status(), e.subject()), (Status::Range, "fence"));
    // Two contexts keep the frame as their frame n-1; the fences wait for the later one.
    let (mut a, mut b) = (context_keeping_one(0), context_keeping_one(2));
    let live = Arc::new(AtomicI64::new(0));
    a.submit(frame.clone(), produced(1, &live), 0).unwrap();
    b.submit(frame.clone(), produced(2, &live), 0).unwrap();
    drop(frame);
    a.flush().unwrap();
    assert!(
        fences.iter().all(|f| !f.is_signalled()),
        "context b still holds it"
    );
    assert_eq!(seen.load(Ordering::SeqCst), usize::MAX, "no release yet");
    b.flush().unwrap();
    assert!(fences.iter().all(|f| f.is_signalled()));
    assert_eq!(
        seen.load(Ordering::SeqCst),
        3,
        "every fence was signalled when the release callback ran"
    );
}

#[test]
fn preallocated_frames_return_to_the_context() {
    let pool = || FramePool::new(PixelFormat::Yuv420p, 8, W, H, 3).unwrap();
    // Frame 0's reference is kept only where an extractor reads frame n-1; its distorted
    // is scored and back in the pool either way.
    for (mut c, kept) in [(context(0), 0usize), (context_keeping_one(0), 1)] {
        let e = c.acquire_frame().unwrap_err();
        assert_eq!((e.status(), e.subject()), (Status::Invalid, "context"));
        c.preallocate(pool()).unwrap();
        let frames: Vec<Frame> = (0..3).map(|_| c.acquire_frame().unwrap()).collect();
        assert_eq!(c.acquire_frame().unwrap_err().status(), Status::Busy);
        let mut frames = frames.into_iter();
        let (r, d) = (frames.next().unwrap(), frames.next().unwrap());
        c.submit(r, d, 0).unwrap();
        let back: Vec<Frame> = (0..2 - kept).map(|_| c.acquire_frame().unwrap()).collect();
        assert_eq!(
            c.acquire_frame().unwrap_err().status(),
            Status::Busy,
            "{kept} reference kept"
        );
        drop(back);
        drop(frames);
        assert!(c.acquire_frame().is_ok());
        let e = c.preallocate(pool()).unwrap_err();
        assert_eq!(e.status(), Status::Busy, "once per context");
    }
}

#[test]
fn imported_scores_are_read_with_the_extracted_ones() {
    let mut c = context(0);
    c.import_score("external_metric", 0, 41.5).unwrap();
    c.import_score("external_metric", 0, 41.5).unwrap();
    let e = c.import_score("external_metric", 0, 7.0).unwrap_err();
    assert_eq!(e.status(), Status::Invalid);
    let live = Arc::new(AtomicI64::new(0));
    for i in 0..2u32 {
        c.submit(produced(i, &live), produced(i + 9, &live), i as u64)
            .unwrap();
    }
    c.flush().unwrap();
    c.import_score("external_metric", 1, 40.25).unwrap();
    assert_eq!(
        c.feature_score_at_index("external_metric", 0).unwrap(),
        41.5
    );
    assert_eq!(
        c.feature_score_at_index("external_metric", 1).unwrap(),
        40.25
    );
    let e = c.import_score("psnr_y", 0, 1.0).unwrap_err();
    assert_eq!(
        e.status(),
        Status::Invalid,
        "an extracted score is never overwritten"
    );
}
