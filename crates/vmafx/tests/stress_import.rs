//! Stress: 4 contexts on 2 threads score the same 200 imported 64x64 frames (and frames
//! of one pool); the caller's and the contexts' references are released in shuffled
//! orders. Every release fence ends signalled, every release callback runs once, every
//! pool frame is back in its pool, and each context's scores equal the first one's.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

use vmafx::context::{Context, ContextConfig};
use vmafx::device::Device;
use vmafx::frame::import::FrameImport;
use vmafx::frame::pool::FramePool;
use vmafx::frame::{Frame, MemoryKind, PixelFormat};

const W: u32 = 64;
const H: u32 = 64;
const FRAMES: usize = 200;
const POOLED: usize = 16;
const BYTES: usize = (W * H * 3 / 2) as usize;

/// A small xorshift generator: shuffles reproducibly without a dependency.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn shuffle<T>(&mut self, v: &mut [T]) {
        for i in (1..v.len()).rev() {
            let j = (self.next() % (i as u64 + 1)) as usize;
            v.swap(i, j);
        }
    }
}

fn desc(buf: &[u8], released: &Arc<AtomicUsize>) -> FrameImport {
    let luma = (W * H) as u64;
    let mut d = FrameImport {
        memory: Some(MemoryKind::Host),
        format: Some(PixelFormat::Yuv420p),
        bpc: 8,
        width: W,
        height: H,
        n_planes: 3,
        ..FrameImport::default()
    };
    let offsets = [0, luma, luma + luma / 4];
    let pitches = [W, W / 2, W / 2];
    for p in 0..3 {
        d.planes[p].handle = buf.as_ptr() as usize;
        d.planes[p].offset = offsets[p];
        d.planes[p].pitch = pitches[p] as u64;
    }
    let r = released.clone();
    d.release = Some(Arc::new(move || {
        r.fetch_add(1, Ordering::SeqCst);
    }));
    d
}

/// Scores every pair (frame i, frame i+1) and the pooled pairs; returns psnr_y per index.
fn score(frames: &[Frame], pooled: &[Frame], threads: usize) -> Vec<f64> {
    let mut c = Context::new(ContextConfig {
        threads,
        ..ContextConfig::default()
    })
    .unwrap();
    c.use_feature("psnr", &[]).unwrap();
    c.use_feature("motion", &[]).unwrap();
    let pairs = frames.len() - 1;
    for i in 0..pairs {
        c.submit(frames[i].clone(), frames[i + 1].clone(), i as u64)
            .unwrap();
    }
    for (k, f) in pooled.iter().enumerate() {
        c.submit(f.clone(), f.clone(), (pairs + k) as u64).unwrap();
    }
    c.flush().unwrap();
    (0..pairs + pooled.len())
        .map(|i| c.feature_score_at_index("psnr_y", i as u64).unwrap())
        .collect()
}

#[test]
fn four_contexts_two_threads_shuffled_releases() {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let buffers: Vec<Vec<u8>> = (0..FRAMES)
        .map(|i| {
            (0..BYTES)
                .map(|_| (rng.next() >> 56) as u8 ^ i as u8)
                .collect()
        })
        .collect();
    let released = Arc::new(AtomicUsize::new(0));
    let device = Device::cpu();
    let mut frames: Vec<Frame> = buffers
        .iter()
        // SAFETY: each buffer outlives every frame over it (they are dropped below, first).
        .map(|b| unsafe { device.import(&desc(b, &released)) }.unwrap())
        .collect();
    let fences: Vec<_> = frames.iter().map(|f| f.release_fence()).collect();
    let pool = FramePool::new(PixelFormat::Yuv420p, 8, W, H, POOLED as u32).unwrap();
    let pooled: Vec<Frame> = (0..POOLED).map(|_| pool.acquire().unwrap()).collect();
    let pool_fences: Vec<_> = pooled.iter().map(|f| f.release_fence()).collect();
    assert_eq!(pool.available(), 0);

    let shared = Arc::new((frames.clone(), pooled.clone()));
    let workers: Vec<_> = (0..2)
        .map(|t| {
            let shared = shared.clone();
            std::thread::spawn(move || {
                // Two contexts per thread, one of them with worker threads of its own.
                let a = score(&shared.0, &shared.1, 0);
                let b = score(&shared.0, &shared.1, 1 + t);
                (a, b)
            })
        })
        .collect();
    drop(shared);
    // The caller lets go of its references in a shuffled order while the contexts run.
    rng.shuffle(&mut frames);
    for f in frames.drain(..) {
        drop(f);
    }
    let mut pooled = pooled;
    rng.shuffle(&mut pooled);
    drop(pooled);
    let results: Vec<(Vec<f64>, Vec<f64>)> =
        workers.into_iter().map(|w| w.join().unwrap()).collect();
    let first = &results[0].0;
    for (t, (a, b)) in results.iter().enumerate() {
        for (i, (x, y)) in a.iter().zip(b).enumerate() {
            assert_eq!(
                x.to_bits(),
                first[i].to_bits(),
                "thread {t} context 0 frame {i}"
            );
            assert_eq!(
                y.to_bits(),
                first[i].to_bits(),
                "thread {t} context 1 frame {i}"
            );
        }
    }
    for (i, f) in fences.iter().chain(&pool_fences).enumerate() {
        assert!(
            f.wait(Duration::from_secs(5), "release").is_ok() && f.is_signalled(),
            "release fence {i} not signalled"
        );
    }
    assert_eq!(released.load(Ordering::SeqCst), FRAMES, "release callbacks");
    assert_eq!(
        pool.available(),
        POOLED,
        "every pool frame back in its pool"
    );
    drop(buffers);
}
