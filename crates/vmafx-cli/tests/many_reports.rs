//! Several distorted inputs (`-d` repeated) with `--html` and `--frames`: the one page
//! names every rendition, draws a line per rendition in each plot and holds each
//! rendition's pooled values as its own pair run's log has them; `--frames` writes each
//! rendition's partial log as its pair run writes it (fps aside), and the parts merge per
//! rendition into its pair run's log; the combinations that cannot work are refused
//! before any frame is read.

mod common;
use common::*;

use std::path::{Path, PathBuf};

fn run_ok(args: &[&str]) {
    let out = vmafx(args);
    assert!(
        out.status.success(),
        "vmafx {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// A ladder of three renditions of the 576x324 corpus reference, in `tmp`: its distorted
/// input's first 5 frames, its first 3 frames (ending before the others) and the
/// reference's own first 5 frames (lossless). Returns (reference, renditions).
fn ladder(dir: &Path, tmp: &Path) -> (PathBuf, Vec<PathBuf>) {
    let reference = dir.join("bbb_576x324_420p8_crf35_ref.y4m");
    let distorted = dir.join("bbb_576x324_420p8_crf35_dis.y4m");
    let set = [
        (tmp.join("crf35.y4m"), &distorted, 5),
        (tmp.join("crf35_short.y4m"), &distorted, 3),
        (tmp.join("lossless.y4m"), &reference, 5),
    ];
    for (dst, src, n) in &set {
        truncate_y4m(src, dst, 576, 324, *n);
    }
    let renditions = set.into_iter().map(|(d, _, _)| d).collect();
    (reference, renditions)
}

/// The text of the cell of `metric` and `pool` in the row of `rendition` of the table of
/// class `table`.
fn cell(page: &str, table: &str, rendition: &str, metric: &str, pool: &str) -> String {
    let t = page
        .find(&format!("<table class=\"{table}\">"))
        .unwrap_or_else(|| panic!("no table {table}"));
    let row_at = t + page[t..]
        .find(&format!("<tr data-rendition=\"{rendition}\">"))
        .unwrap_or_else(|| panic!("{table}: no row for {rendition}"));
    let row = &page[row_at..row_at + page[row_at..].find("</tr>").unwrap()];
    let key = format!("data-metric=\"{metric}\" data-pool=\"{pool}\"");
    let at = row
        .find(&key)
        .unwrap_or_else(|| panic!("{table} {rendition}: no cell {metric} {pool} in {row}"));
    let open = at + row[at..].find('>').unwrap() + 1;
    row[open..open + row[open..].find("</td>").unwrap()].to_string()
}

#[test]
#[cfg_attr(
    vmafx_no_corpus,
    ignore = "no conformance corpus at ../shared/conformance or VMAFX_CONFORMANCE"
)]
fn one_page_compares_the_renditions_with_their_pair_runs_numbers() {
    let Some(dir) = corpus() else { return };
    let tmp = temp_dir("many-html");
    let (reference, renditions) = ladder(&dir, &tmp);
    let (logs, page) = (tmp.join("logs"), tmp.join("ladder.html"));
    std::fs::create_dir_all(&logs).unwrap();
    let mut args = vec!["-r", s(&reference), "--feature", "psnr", "--json", "-q"];
    for d in &renditions {
        args.extend(["-d", s(d)]);
    }
    // A name the logs cannot hold is refused before any frame is read, naming it.
    let mut bad = args.clone();
    bad.extend(["--html", s(&page), "--html-plot", "psnr_q"]);
    let out = vmafx(&bad);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("--html-plot psnr_q: no such metric"), "{err}");
    assert!(!page.exists());

    args.extend(["-o", s(&logs), "--html", s(&page), "--html-plot", "psnr_y"]);
    run_ok(&args);
    let page = std::fs::read_to_string(&page).unwrap();
    let charts = tags(&page, "div");
    let plots: Vec<&str> = charts
        .iter()
        .filter_map(|(a, _)| a.get("data-metric").map(String::as_str))
        .collect();
    assert_eq!(
        plots,
        ["vmaf", "psnr_y"],
        "a plot per model and --html-plot name"
    );
    let points = tags(&page, "circle");
    let mut pooled_checked = 0;
    for (k, d) in renditions.iter().enumerate() {
        let stem = d.file_stem().unwrap().to_str().unwrap();
        assert!(page.contains(s(d)), "the page names {}", d.display());
        let pair_log = tmp.join(format!("pair_{stem}.json"));
        run_ok(&[
            "-r",
            s(&reference),
            "-d",
            s(d),
            "--feature",
            "psnr",
            "--json",
            "-q",
            "-o",
            s(&pair_log),
        ]);
        // The set's log equals the pair run's, as without --html.
        assert_eq!(
            without_fps(&logs.join(format!("{stem}.json"))),
            without_fps(&pair_log)
        );
        let log = read_json(&pair_log);
        let frames = log["frames"].as_array().unwrap();
        assert_eq!(frames.len(), if k == 1 { 3 } else { 5 });
        // Each plot has this rendition's line: a point per frame, its hover text the log's.
        for metric in ["vmaf", "psnr_y"] {
            let mine: Vec<_> = points
                .iter()
                .filter(|(a, t)| {
                    a.get("data-series").map(String::as_str) == Some(stem)
                        && t.contains(&format!(": {stem} "))
                })
                .collect();
            assert_eq!(
                mine.len(),
                2 * frames.len(),
                "{stem}: a point per frame per plot"
            );
            for f in frames {
                let n = f["frameNum"].as_u64().unwrap();
                let v = f["metrics"][metric].as_f64().unwrap();
                let want = format!("frame {n}: {stem} {v:.6}");
                assert!(
                    mine.iter().any(|(_, t)| t.trim() == want),
                    "{metric}: no point {want}"
                );
            }
        }
        // Every pooled value of the pair run's log, in the rendition's row.
        let pooled = log["pooled_metrics"].as_object().unwrap();
        for (metric, values) in pooled {
            let want = format!("{:.6}", values["mean"].as_f64().unwrap());
            assert_eq!(
                cell(&page, "pooled", stem, metric, "mean"),
                want,
                "{stem} {metric}"
            );
            pooled_checked += 1;
        }
        for pool in ["mean", "harmonic_mean", "min"] {
            let want = format!("{:.6}", pooled["vmaf"][pool].as_f64().unwrap());
            assert_eq!(
                cell(&page, "models", stem, "vmaf", pool),
                want,
                "{stem} vmaf {pool}"
            );
        }
    }
    assert!(
        pooled_checked >= 3 * 15,
        "{pooled_checked} pooled values checked"
    );
    // The legend of each plot names every rendition, once per plot.
    for d in &renditions {
        let stem = d.file_stem().unwrap().to_str().unwrap();
        let legend = format!("</i>{stem}</span>");
        assert_eq!(page.matches(&legend).count(), 2, "{stem} in each legend");
    }
    // One line per rendition in each plot (the data lines are plotters' 2-pixel polylines;
    // axes and ticks are 1 pixel), each in its own colour.
    let lines: Vec<String> = tags(&page, "polyline")
        .into_iter()
        .filter(|(a, _)| a.get("stroke-width").map(String::as_str) == Some("2"))
        .map(|(a, _)| a["stroke"].to_lowercase())
        .collect();
    assert_eq!(lines.len(), 2 * renditions.len());
    let mut colours = lines.clone();
    colours.sort();
    colours.dedup();
    assert_eq!(colours.len(), renditions.len(), "{lines:?}");
    // Self-contained, as a pair run's page.
    assert!(tags(&page, "script").is_empty() && tags(&page, "link").is_empty());
}

#[test]
#[cfg_attr(
    vmafx_no_corpus,
    ignore = "no conformance corpus at ../shared/conformance or VMAFX_CONFORMANCE"
)]
fn frames_write_each_renditions_pair_part_and_the_parts_merge() {
    let Some(dir) = corpus() else { return };
    let tmp = temp_dir("many-frames");
    let (reference, mut renditions) = ladder(&dir, &tmp);
    renditions.truncate(2);
    let mut whole_checked = 0;
    for (k, range) in ["0..2", "2.."].iter().enumerate() {
        let parts = tmp.join(format!("part{k}"));
        std::fs::create_dir_all(&parts).unwrap();
        let mut args = vec!["-r", s(&reference), "--frames", range, "-o", s(&parts)];
        for d in &renditions {
            args.extend(["-d", s(d)]);
        }
        run_ok(&args);
        for d in &renditions {
            let stem = d.file_stem().unwrap().to_str().unwrap();
            let pair = tmp.join(format!("pair{k}_{stem}.json"));
            run_ok(&[
                "-r",
                s(&reference),
                "-d",
                s(d),
                "--frames",
                range,
                "-o",
                s(&pair),
            ]);
            let got = without_fps(&parts.join(format!("{stem}.json")));
            assert!(got.contains("vmafx_partial"), "{stem}: a partial log");
            assert_eq!(got, without_fps(&pair), "{stem} frames {range}");
        }
    }
    // Each rendition's parts merge into its pair run's log of the whole video.
    for d in &renditions {
        let stem = d.file_stem().unwrap().to_str().unwrap();
        let (merged, whole) = (
            tmp.join(format!("merged_{stem}.json")),
            tmp.join("whole.json"),
        );
        let parts: Vec<PathBuf> = (0..2)
            .map(|k| tmp.join(format!("part{k}/{stem}.json")))
            .collect();
        run_ok(&[
            "merge",
            s(&parts[1]),
            s(&parts[0]),
            "--json",
            "-q",
            "-o",
            s(&merged),
        ]);
        run_ok(&[
            "-r",
            s(&reference),
            "-d",
            s(d),
            "--json",
            "-q",
            "-o",
            s(&whole),
        ]);
        assert_eq!(without_fps(&merged), without_fps(&whole), "{stem}");
        whole_checked += 1;
    }
    assert_eq!(whole_checked, 2);
}

/// Runs `vmafx args`, expecting exit `code` and a message holding `said`.
fn refused(args: &[&str], code: i32, said: &str) {
    let out = vmafx(args);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(code), "vmafx {args:?}: {err}");
    assert!(err.contains(said), "vmafx {args:?}: {err} lacks {said}");
}

#[test]
fn what_several_inputs_cannot_do_is_refused_before_reading() {
    let tmp = temp_dir("many-refused");
    let folder = s(&tmp);
    let page = tmp.join("p.html");
    // The inputs need not exist: every refusal comes before one is opened.
    let two = ["-r", "ref.y4m", "-d", "a/enc1.y4m", "-d", "b/enc2.y4m"];
    let with = |more: &[&'static str]| -> Vec<String> {
        two.iter().chain(more).map(|x| x.to_string()).collect()
    };
    let check = |args: Vec<String>, code: i32, said: &str| {
        let argv: Vec<&str> = args.iter().map(String::as_str).collect();
        refused(&argv, code, said);
    };
    check(with(&["--frames", "0..2"]), 2, "give -o FOLDER");
    let mut a = with(&["--frames", "0..2", "-o"]);
    a.push(folder.into());
    a.extend(["--html".into(), s(&page).into()]);
    check(a, 2, "the HTML report needs the whole video");
    let mut a = with(&["--frames", "0..2", "--csv", "-o"]);
    a.push(folder.into());
    check(a, 2, "a partial log is JSON");
    let mut a = vec![
        "-r",
        "-",
        "-d",
        "a/enc1.y4m",
        "-d",
        "b/enc2.y4m",
        "--frames",
        "0..",
    ]
    .into_iter()
    .map(String::from)
    .collect::<Vec<_>>();
    a.extend(["-o".into(), folder.into()]);
    check(a, 2, "cannot be standard input (-r -)");
    // The page: in a folder, not a folder itself; --html-plot needs it.
    let mut a = with(&["--html"]);
    a.push(folder.into());
    check(a, 1, &format!("--html {folder}: is a directory"));
    let mut a = with(&["--html"]);
    a.push(s(&tmp.join("missing/p.html")).into());
    check(a, 1, "does not exist");
    check(
        with(&["--html-plot", "psnr_y"]),
        2,
        "--html-plot needs --html",
    );
    // Two renditions the page would name alike.
    let mut a: Vec<String> = [
        "-r",
        "ref.y4m",
        "-d",
        "a/enc.y4m",
        "-d",
        "b/enc.mkv",
        "--html",
    ]
    .iter()
    .map(|x| x.to_string())
    .collect();
    a.push(s(&page).into());
    check(a, 2, "-d a/enc.y4m and -d b/enc.mkv have one stem (enc)");
    check(with(&["--window", "1s"]), 2, "--window goes with one -d");
    assert!(!page.exists());
}
