//! `--html`: the page parses, holds a plot point per frame for each plotted metric, the
//! log's pooled values, and the worst frames as embedded PNG thumbnails; nothing in it
//! reaches the network.

mod common;
use common::*;

#[test]
#[cfg_attr(
    vmafx_no_corpus,
    ignore = "no conformance corpus at ../shared/conformance or VMAFX_CONFORMANCE"
)]
fn the_page_holds_a_point_per_frame_the_pooled_values_and_the_worst_frames() {
    let Some(dir) = corpus() else { return };
    let tmp = temp_dir("html");
    let (log, page) = (tmp.join("log.json"), tmp.join("report.html"));
    let clip = "bbb_384x216_420p8_scenecut";
    let r = dir.join(format!("{clip}_ref.y4m"));
    let d = dir.join(format!("{clip}_dis.y4m"));
    let run = vmafx(&[
        "-r",
        r.to_str().unwrap(),
        "-d",
        d.to_str().unwrap(),
        "--feature",
        "psnr",
        "--json",
        "-o",
        log.to_str().unwrap(),
        "--html",
        page.to_str().unwrap(),
        "--html-plot",
        "psnr_y",
        "--html-worst",
        "3",
        "-q",
    ]);
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    let log = read_json(&log);
    let page = std::fs::read_to_string(&page).unwrap();
    let frames = log["frames"].as_array().unwrap();
    assert_eq!(frames.len(), 24);

    // A point per frame, per plotted metric, whose hover text is the log's value.
    let points = tags(&page, "circle");
    for metric in ["vmaf", "psnr_y"] {
        let mine: Vec<_> = points
            .iter()
            .filter(|(a, _)| a.get("data-series").map(String::as_str) == Some(metric))
            .collect();
        assert_eq!(mine.len(), frames.len(), "{metric}: one point per frame");
        for (f, (_, title)) in frames.iter().zip(&mine) {
            let n = f["frameNum"].as_u64().unwrap();
            let v = f["metrics"][metric].as_f64().unwrap();
            assert_eq!(title.trim(), format!("frame {n}: {metric} {v:.6}"));
        }
    }

    // The pooled table: every metric of the log, its four pooled values as the log has them.
    let pooled = log["pooled_metrics"].as_object().unwrap();
    let cells = tags(&page, "td");
    let mut checked = 0;
    for (metric, values) in pooled {
        for pool in ["mean", "harmonic_mean", "min", "max"] {
            let want = format!("{:.6}", values[pool].as_f64().unwrap());
            let row_start = page
                .find(&format!("<tr data-metric=\"{metric}\">"))
                .unwrap_or_else(|| panic!("{metric}: no row in the pooled table"));
            let row = &page[row_start..row_start + page[row_start..].find("</tr>").unwrap()];
            let cell = format!("<td data-pool=\"{pool}\">{want}</td>");
            assert!(row.contains(&cell), "{metric} {pool}: want {want} in {row}");
            checked += 1;
        }
    }
    assert!(checked >= 4 * 15, "{checked} pooled values checked");
    assert!(cells
        .iter()
        .any(|(_, t)| t == &format!("{:.6}", pooled["vmaf"]["mean"].as_f64().unwrap())));

    // The 3 lowest-VMAF frames, lowest first, each with three embedded PNGs.
    let mut by_score: Vec<(u64, f64)> = frames
        .iter()
        .map(|f| {
            (
                f["frameNum"].as_u64().unwrap(),
                f["metrics"]["vmaf"].as_f64().unwrap(),
            )
        })
        .collect();
    by_score.sort_by(|a, b| a.1.total_cmp(&b.1).then(a.0.cmp(&b.0)));
    let shown: Vec<u64> = tags(&page, "div")
        .iter()
        .filter_map(|(a, _)| a.get("data-frame")?.parse().ok())
        .collect();
    let want: Vec<u64> = by_score.iter().take(3).map(|p| p.0).collect();
    assert_eq!(shown, want, "the worst frames, lowest first");
    let imgs = tags(&page, "img");
    assert_eq!(imgs.len(), 9, "reference, distorted, difference per frame");
    for (a, _) in &imgs {
        assert!(a["src"].starts_with("data:image/png;base64,iVBORw0KGgo"));
    }

    // Self-contained: no script, no link, nothing fetched.
    assert!(tags(&page, "script").is_empty() && tags(&page, "link").is_empty());
    // Only XML namespace names (never fetched) may name a web address.
    let stripped = page
        .replace("http://www.w3.org/2000/svg", "")
        .replace("http://www.w3.org/1999/xlink", "");
    assert!(!stripped.contains("http:") && !stripped.contains("https:"));
}
