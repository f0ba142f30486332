//! Windows of a live stream on a corpus clip: 48 frames of carphone at 24 frames per second
//! cut into 1-second windows by the window clock; each window's model scores, read live as
//! soon as they are final, pool to exactly the context's pooled scores over the same frames
//! after the flush, with and without worker threads.

use std::time::Duration;

use crate::context::{Context, ContextConfig};
use crate::model::{LoadedModel, ModelSpec};
use crate::score::{frame_pts_ns, pool, PoolMethod, WindowClock, WindowLength, WindowSpan};
use crate::testutil;

fn windows_of_carphone(threads: usize) {
    let Some(dir) = testutil::conformance_dir() else {
        return;
    };
    let (r, d) = testutil::load_clip(&dir, "carphone_176x144_420p8");
    assert!(r.len() >= 48);
    let mut ctx = Context::new(ContextConfig {
        threads,
        ..Default::default()
    })
    .unwrap();
    let h = ctx
        .use_model(LoadedModel::load(&ModelSpec::default_model()).unwrap())
        .unwrap();
    let mut clock = WindowClock::new(WindowLength::seconds(1.0).unwrap());
    let mut spans: Vec<WindowSpan> = Vec::new();
    let mut live: Vec<Vec<f64>> = Vec::new();
    for i in 0..48u64 {
        if let Some(span) = clock.frame(i, frame_pts_ns(i, (24, 1))).unwrap() {
            spans.push(span);
        }
        ctx.submit(r[i as usize].clone(), d[i as usize].clone(), i)
            .unwrap();
        if i == 24 {
            // Window 0 is final once frame 24 is scored (a worker may still hold it).
            let span = spans[0];
            let mut rows = None;
            for _ in 0..2000 {
                rows = ctx.final_score_rows(&h, span.first, span.last).unwrap();
                if rows.is_some() || threads == 0 {
                    break;
                }
                std::thread::sleep(Duration::from_millis(5));
            }
            let rows = rows.expect("window 0 final before the flush");
            live.push(rows.iter().map(|r| r[0]).collect());
        }
    }
    spans.push(clock.finish().unwrap());
    assert_eq!(
        spans
            .iter()
            .map(|s| (s.window, s.first, s.last, s.partial))
            .collect::<Vec<_>>(),
        [(0, 0, 23, false), (1, 24, 47, true)]
    );
    // Frame 47's motion2 reads the frame after it: final at the flush only.
    assert_eq!(ctx.final_score_rows(&h, 24, 47).unwrap(), None);
    ctx.flush().unwrap();
    let rows = ctx.final_score_rows(&h, 24, 47).unwrap().unwrap();
    live.push(rows.iter().map(|r| r[0]).collect());
    for (span, values) in spans.iter().zip(&live) {
        assert_eq!(values.len(), 24);
        for m in PoolMethod::ALL {
            let want = ctx.score_pooled(&h, m, span.first, span.last).unwrap();
            assert_eq!(pool(values, m).to_bits(), want.to_bits(), "{m} {span:?}");
        }
    }
}

#[test]
#[cfg_attr(
    vmafx_no_corpus,
    ignore = "no conformance corpus at ../shared/conformance or VMAFX_CONFORMANCE"
)]
fn carphone_windows_without_threads() {
    windows_of_carphone(0);
}

#[test]
#[cfg_attr(
    vmafx_no_corpus,
    ignore = "no conformance corpus at ../shared/conformance or VMAFX_CONFORMANCE"
)]
fn carphone_windows_with_two_threads() {
    windows_of_carphone(2);
}
