//! Context tests with small synthetic extractors of each ordering.

use super::*;
use crate::frame::{FrameBuilder, PixelFormat, SamplesMut};

fn frame(seed: u8) -> Frame {
    let mut b = FrameBuilder::new(PixelFormat::Yuv420p, 8, 16, 8).unwrap();
    let p = b.plane_mut(0);
    let stride = p.stride;
    if let Some(SamplesMut::U8(s)) = p.samples_mut() {
        for (i, v) in s.iter_mut().enumerate() {
            *v = seed.wrapping_mul(7).wrapping_add((i % stride) as u8);
        }
    }
    b.build()
}

fn run(threads: usize, order: &[u64]) -> Vec<(String, Vec<f64>)> {
    let mut c = Context::new(ContextConfig {
        threads,
        ..Default::default()
    })
    .unwrap();
    for f in ["test_sum", "test_prev", "test_count"] {
        c.use_feature(f, &[]).unwrap();
    }
    for &i in order {
        c.submit(frame(i as u8), frame(i as u8 + 1), i).unwrap();
    }
    c.flush().unwrap();
    let col = c.collector().unwrap();
    col.names()
        .into_iter()
        .map(|n| {
            let v = (0..order.len() as u64)
                .map(|i| col.get(&n, i).unwrap())
                .collect();
            (n, v)
        })
        .collect()
}

#[test]
fn results_do_not_depend_on_threads_or_submission_order() {
    let in_order: Vec<u64> = (0..20).collect();
    let mut shuffled = in_order.clone();
    // A fixed permutation within the window: swap neighbours pairwise and reverse blocks.
    for c in shuffled.chunks_mut(5) {
        c.reverse();
    }
    let base = run(0, &in_order);
    assert_eq!(
        base.iter().map(|(n, _)| n.as_str()).collect::<Vec<_>>(),
        ["test_sum", "test_prev", "test_count", "test_prev_late"]
    );
    assert_eq!(base[1].1[0], -1.0);
    assert_eq!(base[1].1[3], frame(2).plane(0).get(0, 0) as f64);
    for threads in [0, 1, 2, 4] {
        assert_eq!(run(threads, &in_order), base, "threads {threads}");
        assert_eq!(run(threads, &shuffled), base, "threads {threads} shuffled");
    }
}

#[test]
fn late_registration_and_bad_submissions_are_refused() {
    let mut c = Context::new(ContextConfig::default()).unwrap();
    let e = c.submit(frame(0), frame(0), 0).unwrap_err();
    assert_eq!(e.subject(), "features");
    c.use_feature("test_sum", &[]).unwrap();
    assert_eq!(c.use_feature("test_sum", &[]).unwrap(), 0, "deduplicated");
    let e = c.use_feature("no_such", &[]).unwrap_err();
    assert_eq!(e.status(), crate::Status::NotFound);
    c.submit(frame(0), frame(0), 0).unwrap();
    let e = c.use_feature("test_prev", &[]).unwrap_err();
    assert!(e.message().contains("before the first frame"));
    let e = c.submit(frame(0), frame(0), 0).unwrap_err();
    assert!(e.message().contains("already submitted"), "{e}");
    let e = c.submit(frame(0), frame(0), 1000).unwrap_err();
    assert_eq!(e.status(), crate::Status::Range);
    let big = FrameBuilder::new(PixelFormat::Yuv420p, 8, 32, 8)
        .unwrap()
        .build();
    let e = c.submit(big.clone(), big, 1).unwrap_err();
    assert!(e.message().contains("this context scores"), "{e}");
    c.flush().unwrap();
    let f = frame(0);
    let sum: u64 = (0..8)
        .flat_map(|y| f.plane(0).row_u8(y).to_vec())
        .map(u64::from)
        .sum();
    assert_eq!(c.feature_score_at_index("test_sum", 0).unwrap(), sum as f64);
    let e = c.feature_score_at_index("test_sum", 5).unwrap_err();
    assert_eq!((e.status(), e.subject()), (crate::Status::Range, "index"));
}

#[test]
fn out_of_range_config_is_refused_by_name() {
    let e = Context::new(ContextConfig {
        import_retry_wait_ns: 601_000_000_000,
        ..Default::default()
    })
    .unwrap_err();
    assert_eq!(e.subject(), "import_retry_wait_ns");
    assert_eq!(e.status(), crate::Status::Range);
}

#[test]
fn frames_are_released_after_flush() {
    let mut c = Context::new(ContextConfig {
        threads: 2,
        ..Default::default()
    })
    .unwrap();
    c.use_feature("test_prev", &[]).unwrap();
    let r = frame(1);
    let fence = r.release_fence();
    c.submit(r, frame(2), 0).unwrap();
    c.submit(frame(3), frame(4), 1).unwrap();
    c.flush().unwrap();
    assert!(
        fence.is_signalled(),
        "the reference's last count dropped in the context"
    );
}

#[test]
fn a_window_refuses_frames_before_its_feed_and_after_the_first_frame() {
    use crate::frame::{FrameBuilder, PixelFormat};
    let mut ctx = Context::new(ContextConfig::default()).unwrap();
    ctx.use_feature("psnr", &[]).unwrap();
    let bad = FrameWindow {
        first_fed: 5,
        kept: 3..6,
    };
    assert_eq!(ctx.set_window(bad).unwrap_err().subject(), "window");
    ctx.set_window(FrameWindow {
        first_fed: 4,
        kept: 5..6,
    })
    .unwrap();
    let f = || {
        FrameBuilder::new(PixelFormat::Yuv420p, 8, 16, 16)
            .unwrap()
            .build()
    };
    let e = ctx.submit(f(), f(), 3).unwrap_err();
    assert!(e.to_string().contains("fed from frame 4"), "{e}");
    ctx.submit(f(), f(), 4).unwrap();
    ctx.submit(f(), f(), 5).unwrap();
    let late = FrameWindow::all();
    assert_eq!(ctx.set_window(late).unwrap_err().subject(), "window");
    ctx.flush().unwrap();
    // Only the kept frame is listed; psnr skipped the pre-roll frame.
    let t = ctx.score_table().unwrap();
    assert_eq!(t.frames.iter().map(|(i, _)| *i).collect::<Vec<_>>(), [5]);
    assert!(ctx.feature_score_at_index("psnr_y", 4).is_err());
}
