use super::*;

/// Feeds frames `from..to` at `fps` and returns the spans they close.
fn feed(clock: &mut WindowClock, from: u64, to: u64, fps: (u32, u32)) -> Vec<WindowSpan> {
    (from..to)
        .filter_map(|i| clock.frame(i, frame_pts_ns(i, fps)).unwrap())
        .collect()
}

#[test]
fn one_second_windows_at_24_fps() {
    let mut clock = WindowClock::new(WindowLength::seconds(1.0).unwrap());
    let spans = feed(&mut clock, 0, 48, (24, 1));
    assert_eq!(
        spans.len(),
        1,
        "frame 24 closes window 0, nothing closes window 1"
    );
    assert_eq!(
        spans[0],
        WindowSpan {
            window: 0,
            first: 0,
            last: 23,
            n_frames: 24,
            start_ns: 0,
            end_ns: 1_000_000_000,
            partial: false,
        }
    );
    let last = clock.finish().unwrap();
    assert_eq!((last.window, last.first, last.last), (1, 24, 47));
    assert_eq!((last.start_ns, last.end_ns), (1_000_000_000, 2_000_000_000));
    assert!(
        last.partial,
        "a window by time ends partial at the end of the stream"
    );
    assert_eq!(clock.finish(), None);
    assert_eq!(
        clock.frame(48, 2_000_000_000).unwrap_err().subject(),
        "clock"
    );
}

#[test]
fn windows_by_frames_and_a_whole_last_one() {
    let mut clock = WindowClock::new(WindowLength::frames(30).unwrap());
    let spans = feed(&mut clock, 5, 65, (30, 1));
    assert_eq!(spans.len(), 1);
    assert_eq!(
        (spans[0].first, spans[0].last, spans[0].n_frames),
        (5, 34, 30)
    );
    assert_eq!(spans[0].start_ns, frame_pts_ns(5, (30, 1)));
    assert_eq!(spans[0].end_ns, frame_pts_ns(34, (30, 1)));
    let last = clock.finish().unwrap();
    assert_eq!((last.window, last.first, last.last), (1, 35, 64));
    assert!(!last.partial, "30 of 30 frames: a whole window");

    let mut short = WindowClock::new(WindowLength::frames(30).unwrap());
    feed(&mut short, 0, 40, (30, 1));
    let last = short.finish().unwrap();
    assert_eq!(
        (last.first, last.last, last.n_frames, last.partial),
        (30, 39, 10, true)
    );
}

#[test]
fn time_origin_is_the_first_frame_and_gaps_skip_windows() {
    let mut clock = WindowClock::new(WindowLength::seconds(0.5).unwrap());
    let t0 = 7_000;
    assert_eq!(clock.frame(0, t0).unwrap(), None);
    assert_eq!(clock.frame(1, t0 + 499_999_999).unwrap(), None);
    // The next frame lands in window 3: windows 1 and 2 had none.
    let span = clock.frame(2, t0 + 1_600_000_000).unwrap().unwrap();
    assert_eq!((span.window, span.first, span.last), (0, 0, 1));
    assert_eq!((span.start_ns, span.end_ns), (t0, t0 + 500_000_000));
    let span = clock.finish().unwrap();
    assert_eq!((span.window, span.first, span.last), (3, 2, 2));
    assert_eq!(span.start_ns, t0 + 1_500_000_000);
}

#[test]
fn a_frame_at_the_window_end_opens_the_next_window() {
    let mut clock = WindowClock::new(WindowLength::Nanos(10));
    assert_eq!(clock.frame(0, 0).unwrap(), None);
    assert_eq!(clock.frame(1, 9).unwrap(), None);
    assert_eq!(clock.frame(2, 10).unwrap().map(|s| s.last), Some(1));
}

#[test]
fn equal_times_are_one_window_but_indices_must_increase() {
    let mut clock = WindowClock::new(WindowLength::seconds(1.0).unwrap());
    clock.frame(3, 100).unwrap();
    assert_eq!(
        clock.frame(4, 100).unwrap(),
        None,
        "an equal time is allowed"
    );
    let e = clock.frame(4, 200).unwrap_err();
    assert_eq!(e.subject(), "index");
    let e = clock.frame(2, 200).unwrap_err();
    assert_eq!(e.subject(), "index");
    let e = clock.frame(5, 99).unwrap_err();
    assert_eq!(e.subject(), "pts_ns");
    // Refused frames left the clock as it was.
    let span = clock.finish().unwrap();
    assert_eq!((span.first, span.last, span.n_frames), (3, 4, 2));
}

#[test]
fn lengths_are_checked() {
    for bad in [0.0, -1.0, f64::NAN, f64::INFINITY, 1e-10] {
        let e = WindowLength::seconds(bad).unwrap_err();
        assert_eq!(e.subject(), "n_stats", "{bad}");
    }
    assert_eq!(WindowLength::seconds(1e-9).unwrap(), WindowLength::Nanos(1));
    assert_eq!(
        WindowLength::seconds(1.0 / 3.0).unwrap(),
        WindowLength::Nanos(333_333_333)
    );
    assert_eq!(
        WindowLength::frames(0).unwrap_err().subject(),
        "n_stats_frames"
    );
    assert_eq!(clock_empty_finish(), None);
}

fn clock_empty_finish() -> Option<WindowSpan> {
    WindowClock::new(WindowLength::Frames(2)).finish()
}

#[test]
fn pts_of_frame_rates() {
    assert_eq!(frame_pts_ns(24, (24, 1)), 1_000_000_000);
    assert_eq!(frame_pts_ns(1, (30000, 1001)), 33_366_667);
    assert_eq!(frame_pts_ns(0, (25, 1)), 0);
}
