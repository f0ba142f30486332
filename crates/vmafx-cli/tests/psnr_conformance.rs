//! `vmafx --feature psnr` on every conformance clip, y4m and raw yuv, against libvmaf's log.

mod common;
use common::*;

fn check_psnr(
    clip: &str,
    extra: &[&str],
    refp: &str,
    disp: &str,
    want: &serde_json::Value,
    out: &std::path::Path,
) {
    let mut args = vec![
        "-r",
        refp,
        "-d",
        disp,
        "--feature",
        "psnr",
        "--no_prediction",
        "--json",
        "-o",
    ];
    let o = out.to_str().unwrap();
    args.push(o);
    args.extend_from_slice(extra);
    let r = vmafx(&args);
    assert!(
        r.status.success(),
        "{clip}: {}",
        String::from_utf8_lossy(&r.stderr)
    );
    let got = read_json(out);
    let (gf, wf) = (
        got["frames"].as_array().unwrap(),
        want["frames"].as_array().unwrap(),
    );
    assert_eq!(gf.len(), wf.len(), "{clip}: frames");
    for (i, (g, w)) in gf.iter().zip(wf).enumerate() {
        for m in ["psnr_y", "psnr_cb", "psnr_cr"] {
            let (a, b) = (
                g["metrics"][m].as_f64().unwrap(),
                w["metrics"][m].as_f64().unwrap(),
            );
            assert_eq!(format!("{a:.6}"), format!("{b:.6}"), "{clip} frame {i} {m}");
        }
    }
}

#[test]
#[cfg_attr(
    vmafx_no_corpus,
    ignore = "no conformance corpus at ../shared/conformance or VMAFX_CONFORMANCE"
)]
fn psnr_matches_libvmaf_on_every_clip_y4m_and_yuv() {
    let Some(dir) = corpus() else { return };
    let tmp = temp_dir("psnr");
    for (clip, r, d, _) in clips(&dir) {
        let want = read_json(&dir.join(format!("expected/{clip}.extra_features.json")));
        check_psnr(
            &clip,
            &[],
            r.to_str().unwrap(),
            d.to_str().unwrap(),
            &want,
            &tmp.join(format!("{clip}.json")),
        );
    }
    // Raw planar input: 8-bit 4:2:0, 10-bit 4:2:0 (the 8-bit clip << 2) and 8-bit 4:2:2.
    let raw = [
        (
            "bbb_576x324_420p8_crf35",
            "420p8",
            ["-w", "576", "-h", "324", "-p", "420", "-b", "8"],
        ),
        (
            "bbb_576x324_420p10le_crf35",
            "420p10le",
            ["-w", "576", "-h", "324", "-p", "420", "-b", "10"],
        ),
        (
            "bbb_352x288_422p8_crf38",
            "422p8",
            ["-w", "352", "-h", "288", "-p", "422", "-b", "8"],
        ),
    ];
    for (file, fmt_name, fmt) in raw {
        let clip = file.replace("420p10le", "420p8");
        let r = dir.join(format!("{file}_ref.yuv"));
        let d = dir.join(format!("{file}_dis.yuv"));
        // Raw goldens have their own file where libvmaf wrote one; otherwise MANIFEST.md
        // records them as identical to the clip's main goldens.
        let own = dir.join(format!(
            "expected/{clip}__yuv_{fmt_name}.extra_features.json"
        ));
        let main = dir.join(format!("expected/{clip}.extra_features.json"));
        let want = read_json(if own.is_file() { &own } else { &main });
        check_psnr(
            file,
            &fmt,
            r.to_str().unwrap(),
            d.to_str().unwrap(),
            &want,
            &tmp.join(format!("{file}.json")),
        );
    }
}
