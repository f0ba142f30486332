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
