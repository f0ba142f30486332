//! Reads by frame index or range past the frames scored are refused with `Status::Range`,
//! naming the argument, in constant memory: on a context that scored frames and on one
//! that scored none. A counting allocator measures the reads and refuses any single
//! allocation above 64 MiB, so a range walked or allocated index by index up to `u64::MAX`
//! aborts this test instead of exhausting the machine.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

use vmafx::context::{Context, ContextConfig, ModelHandle};
use vmafx::frame::{Frame, FrameBuilder, PixelFormat, SamplesMut};
use vmafx::model::{LoadedModel, ModelSpec};
use vmafx::score::PoolMethod;
use vmafx::Status;

/// The system allocator, counting live bytes and their peak.
struct Counting;

static LIVE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);
const MAX_ONE_ALLOCATION: usize = 64 << 20;

// SAFETY: every call is forwarded unchanged to the system allocator; the counters only
// observe sizes.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        if layout.size() > MAX_ONE_ALLOCATION {
            return std::ptr::null_mut();
        }
        let now = LIVE.fetch_add(layout.size(), Ordering::SeqCst) + layout.size();
        PEAK.fetch_max(now, Ordering::SeqCst);
        // SAFETY: forwarded with the caller's layout.
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        LIVE.fetch_sub(layout.size(), Ordering::SeqCst);
        // SAFETY: `ptr` came from `alloc` with this layout.
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static ALLOC: Counting = Counting;

/// The tests measure one process-wide peak: one at a time.
static ONE_AT_A_TIME: Mutex<()> = Mutex::new(());

/// Runs `f` and returns its result with the bytes it allocated above the live count.
fn measured<T>(f: impl FnOnce() -> T) -> (T, usize) {
    let base = LIVE.load(Ordering::SeqCst);
    PEAK.store(base, Ordering::SeqCst);
    let out = f();
    (out, PEAK.load(Ordering::SeqCst) - base)
}

fn frame(seed: u64) -> Frame {
    let mut b = FrameBuilder::new(PixelFormat::Yuv420p, 8, 64, 48).unwrap();
    for p in 0..3 {
        if let Some(SamplesMut::U8(s)) = b.plane_mut(p).samples_mut() {
            for (k, v) in s.iter_mut().enumerate() {
                *v = (k as u64 * 7 + seed * 13) as u8;
            }
        }
    }
    b.build()
}

/// A flushed context with the default model and PSNR, after `frames` pairs.
fn context(frames: u64) -> (Context, ModelHandle) {
    let mut c = Context::new(ContextConfig::default()).unwrap();
    let spec = ModelSpec::default_model();
    let h = c.use_model(LoadedModel::load(&spec).unwrap()).unwrap();
    c.use_feature("psnr", &[]).unwrap();
    for i in 0..frames {
        c.submit(frame(i), frame(i + 9), i).unwrap();
    }
    c.flush().unwrap();
    (c, h)
}

/// Every read past the end of a context of `frames` frames: `Range` naming the argument,
/// with under 64 KiB allocated for all of them together.
fn refuses_past_the_end(c: &mut Context, h: &ModelHandle, frames: u64) {
    let (answers, bytes) = measured(|| {
        let mean = PoolMethod::Mean;
        vec![
            ("last", c.score_pooled(h, mean, 0, u64::MAX).err()),
            (
                "last",
                c.score_pooled(h, mean, u64::MAX - 1, u64::MAX).err(),
            ),
            ("last", c.score_pooled(h, mean, 0, frames).err()),
            ("first", c.score_pooled(h, mean, u64::MAX, 0).err()),
            ("last", c.score_rows(h, 0, u64::MAX).err()),
            ("last", c.feature_values("psnr_y", 0, u64::MAX).err()),
            ("first", c.feature_score_pooled("psnr_y", mean, 2, 1).err()),
            ("index", c.score_at_index(h, u64::MAX).err()),
            ("index", c.score_at_index(h, frames).err()),
            ("index", c.feature_score_at_index("psnr_y", u64::MAX).err()),
        ]
    });
    for (i, (subject, e)) in answers.into_iter().enumerate() {
        let e = e.unwrap_or_else(|| panic!("read {i} of {frames} frames succeeded"));
        assert_eq!(e.status(), Status::Range, "read {i}: {e}");
        assert_eq!(e.subject(), subject, "read {i}: {e}");
    }
    assert!(
        bytes < 64 << 10,
        "the refused reads allocated {bytes} bytes"
    );
}

#[test]
fn a_scored_context_refuses_ranges_past_its_frames() {
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|p| p.into_inner());
    let (mut c, h) = context(3);
    refuses_past_the_end(&mut c, &h, 3);
    // The whole run is in range, and pools the same as frame by frame.
    let all = c.score_pooled(&h, PoolMethod::Mean, 0, 2).unwrap();
    let each: f64 = (0..3)
        .map(|i| c.score_at_index(&h, i).unwrap()[0].1)
        .sum::<f64>()
        / 3.0;
    assert_eq!(all.to_bits(), each.to_bits());
}

#[test]
fn an_empty_context_refuses_every_range() {
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|p| p.into_inner());
    let (mut c, h) = context(0);
    refuses_past_the_end(&mut c, &h, 0);
    let e = c.score_pooled(&h, PoolMethod::Mean, 0, 0).unwrap_err();
    assert_eq!((e.status(), e.subject()), (Status::Range, "last"));
    assert!(e.message().contains("no frame"), "{e}");
}
