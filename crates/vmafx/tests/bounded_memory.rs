//! A producer faster than the scorer is slowed down, never buffered without bound: 2,000
//! frame pairs submitted with no delay, and the number of frames alive at once stays under
//! a ceiling fixed by the thread count (the queue of `max_frames_in_flight` pairs, one pair
//! in each worker's hands, the pair blocked in submit, and the previous two references).
//! And a context dropped unflushed joins its workers, releasing every frame they held.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use vmafx::context::{Context, ContextConfig};
use vmafx::frame::{FrameBuilder, PixelFormat, SamplesMut};

#[test]
fn a_fast_producer_is_held_to_a_fixed_number_of_frames() {
    let live = Arc::new(AtomicUsize::new(0));
    let peak = Arc::new(AtomicUsize::new(0));
    let threads = 2;
    let producer = {
        let (live, peak) = (live.clone(), peak.clone());
        std::thread::spawn(move || {
            let mut c = Context::new(ContextConfig {
                threads,
                ..Default::default()
            })
            .unwrap();
            c.use_feature("psnr", &[]).unwrap();
            c.use_feature("motion", &[]).unwrap();
            for i in 0..2000u64 {
                let make = |seed: u64| {
                    let mut b = FrameBuilder::new(PixelFormat::Yuv420p, 8, 64, 64).unwrap();
                    if let Some(SamplesMut::U8(s)) = b.plane_mut(0).samples_mut() {
                        for (k, v) in s.iter_mut().enumerate() {
                            *v = (k as u64 * 7 + seed) as u8;
                        }
                    }
                    let n = live.fetch_add(1, Ordering::SeqCst) + 1;
                    peak.fetch_max(n, Ordering::SeqCst);
                    let l = live.clone();
                    b.on_release(Box::new(move |_| {
                        l.fetch_sub(1, Ordering::SeqCst);
                    }))
                    .build()
                };
                c.submit(make(i), make(i + 1), i).unwrap();
            }
            c.flush().unwrap();
            c.feature_score_at_index("psnr_y", 1999).unwrap()
        })
    };
    let last = producer.join().unwrap();
    assert!(last.is_finite());
    assert_eq!(live.load(Ordering::SeqCst), 0, "every frame released");
    // The queue (threads pairs), one pair in each worker's hands, the pair blocked in
    // submit, the next pair being made, and the two previous references kept for motion.
    let ceiling = 2 * (threads + threads + 2) + 2;
    let p = peak.load(Ordering::SeqCst);
    assert!(
        p <= ceiling,
        "{p} frames alive at once; the ceiling is {ceiling}"
    );
}

#[test]
fn dropping_an_unflushed_context_waits_for_its_workers() {
    let live = Arc::new(AtomicUsize::new(0));
    let mut c = Context::new(ContextConfig {
        threads: 2,
        ..Default::default()
    })
    .unwrap();
    c.use_feature("vif", &[]).unwrap();
    let make = |seed: u64| {
        let mut b = FrameBuilder::new(PixelFormat::Yuv420p, 8, 320, 240).unwrap();
        if let Some(SamplesMut::U8(s)) = b.plane_mut(0).samples_mut() {
            for (k, v) in s.iter_mut().enumerate() {
                *v = (k as u64 * 13 + seed * 7) as u8;
            }
        }
        live.fetch_add(1, Ordering::SeqCst);
        let l = live.clone();
        b.on_release(Box::new(move |_| {
            l.fetch_sub(1, Ordering::SeqCst);
        }))
        .build()
    };
    for i in 0..6u64 {
        c.submit(make(i), make(i + 1), i).unwrap();
    }
    drop(c);
    // Every pair a worker held is back once drop returns: no thread still reads them.
    assert_eq!(live.load(Ordering::SeqCst), 0);
}
