use super::*;
use crate::score::ScoreTable;

fn part(frames: Range<u64>, names: &[&str], rows: &[(u64, &[f64])]) -> PartialScores {
    PartialScores {
        frames,
        width: 8,
        height: 8,
        subsample: 1,
        table: ScoreTable {
            names: names.iter().map(|n| n.to_string()).collect(),
            frames: rows
                .iter()
                .map(|(i, v)| (*i, v.iter().map(|x| Some(*x)).collect()))
                .collect(),
        },
    }
}

#[test]
fn plan_widens_each_chunk_by_the_reach_within_the_video() {
    let p = plan(
        10,
        4,
        Reach::Frames {
            before: 2,
            after: 1,
        },
    )
    .unwrap();
    let got: Vec<_> = p
        .chunks
        .iter()
        .map(|c| (c.frames.clone(), c.fed.clone()))
        .collect();
    assert_eq!(got, [(0..4, 0..5), (4..8, 2..9), (8..10, 6..10)]);
    assert!(plan(0, 3, Reach::NONE).unwrap().chunks.is_empty());
    assert_eq!(
        plan(5, 0, Reach::NONE).unwrap_err().subject(),
        "chunk_frames"
    );
}

#[test]
fn an_unbounded_reach_is_refused_unless_one_chunk_covers_the_video() {
    let e = plan(10, 4, Reach::Unbounded("recursive")).unwrap_err();
    assert_eq!(e.subject(), "feature 'recursive'");
    assert!(e.to_string().contains("one chunk"), "{e}");
    let one = plan(10, 10, Reach::Unbounded("recursive")).unwrap();
    assert_eq!(one.chunks.len(), 1);
    assert_eq!(one.chunks[0].fed, 0..10);
}

#[test]
fn merge_keeps_rows_and_takes_the_names_of_the_part_at_frame_zero() {
    let a = part(0..2, &["x", "y"], &[(0, &[1.0, 2.0]), (1, &[3.0, 4.0])]);
    let b = part(2..3, &["y", "x", "z"], &[(2, &[6.0, 5.0, 7.0])]);
    let m = merge([b, a]).unwrap();
    assert_eq!(m.frames, 0..3);
    assert_eq!(m.table.names, ["x", "y", "z"]);
    assert_eq!(
        m.table.frames[2],
        (2, vec![Some(5.0), Some(6.0), Some(7.0)])
    );
    assert_eq!(m.table.frames[0], (0, vec![Some(1.0), Some(2.0), None]));
    assert!(m.is_whole());
    assert_eq!(m.report_info(0.0).pic_count, 3);
}

#[test]
fn merge_refuses_gaps_overlaps_and_other_pictures() {
    let a = || part(0..2, &["x"], &[(0, &[1.0]), (1, &[1.0])]);
    let gap = merge([a(), part(3..4, &["x"], &[(3, &[1.0])])]).unwrap_err();
    assert_eq!(gap.subject(), "part 3..4");
    assert!(gap.to_string().contains("gap"), "{gap}");
    let overlap = merge([a(), part(1..4, &["x"], &[(1, &[1.0])])]).unwrap_err();
    assert!(overlap.to_string().contains("overlap"), "{overlap}");
    let mut other = part(2..3, &["x"], &[(2, &[1.0])]);
    other.width = 16;
    assert!(merge([a(), other]).is_err());
    let stray = merge([a(), part(2..3, &["x"], &[(5, &[1.0])])]).unwrap_err();
    assert!(stray.to_string().contains("outside"), "{stray}");
    assert!(merge(Vec::new()).is_err());
    // A chunk planned past the end is empty and merges.
    let m = merge([a(), part(2..2, &[], &[])]).unwrap();
    assert_eq!(m.frames, 0..2);
}

#[test]
fn a_window_refuses_frames_before_its_feed_and_after_the_first_frame() {
    use crate::context::{Context, ContextConfig, FrameWindow};
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
