//! `Scorer::score_many`: one reference and several distorted inputs in one pass; each
//! report equals the report of its own pair run, including an input that ends first.

use std::path::{Path, PathBuf};

use vmafx::{Feature, Model, OutputFormat, Report, Scorer, ScorerConfig, Side};

/// A 4:2:0 8-bit y4m file of `frames` frames of a moving ramp; `noise` perturbs it.
fn write_y4m(path: &Path, frames: u32, noise: u32) {
    let (w, h) = (64u32, 48u32);
    let mut bytes = format!("YUV4MPEG2 W{w} H{h} F25:1 Ip A1:1 C420jpeg\n").into_bytes();
    for t in 0..frames {
        bytes.extend_from_slice(b"FRAME\n");
        for j in 0..h {
            for i in 0..w {
                let v = (i * 3 + j * 2 + t * 5) + ((i * 7 + j * 13 + t) % (noise + 1));
                bytes.push((v % 200 + 20) as u8);
            }
        }
        bytes.extend(std::iter::repeat_n(128u8, (w * h / 2) as usize));
    }
    std::fs::write(path, bytes).unwrap();
}

fn config(threads: usize) -> ScorerConfig {
    ScorerConfig::new()
        .model(Model::builtin("vmaf_v0.6.1"))
        .feature(Feature::parse("psnr").unwrap())
        .threads(threads)
}

/// The report as the JSON log, without its fps line.
fn log(r: &Report) -> String {
    r.render(OutputFormat::Json)
        .lines()
        .filter(|l| !l.trim_start().starts_with("\"fps\""))
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn each_report_equals_its_pair_run() {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("score_many");
    std::fs::create_dir_all(&dir).unwrap();
    let reference = dir.join("ref.y4m");
    write_y4m(&reference, 6, 0);
    let distorted: Vec<PathBuf> = [(6, 3), (6, 9), (4, 5)]
        .iter()
        .enumerate()
        .map(|(k, &(frames, noise))| {
            let p = dir.join(format!("dis{k}.y4m"));
            write_y4m(&p, frames, noise);
            p
        })
        .collect();
    for threads in [0, 2] {
        let many = Scorer::new(config(threads))
            .unwrap()
            .score_many(&reference, &distorted)
            .unwrap();
        assert_eq!(many.len(), distorted.len());
        for (d, got) in distorted.iter().zip(&many) {
            let want = Scorer::new(config(threads))
                .unwrap()
                .score_files(&reference, d)
                .unwrap();
            assert_eq!(got.frame_count(), want.frame_count());
            assert_eq!(got.ended_first(), want.ended_first());
            assert_eq!(log(got), log(&want), "{}", d.display());
        }
        // The inputs differ, so do their scores; the short one ended first.
        assert_ne!(log(&many[0]), log(&many[1]));
        assert_eq!(many[2].frame_count(), 4);
        assert_eq!(many[2].ended_first(), Some(Side::Distorted));
    }
}

#[test]
fn no_distorted_input_is_refused() {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("score_many_none");
    std::fs::create_dir_all(&dir).unwrap();
    let reference = dir.join("ref.y4m");
    write_y4m(&reference, 2, 0);
    let none: [&Path; 0] = [];
    let err = Scorer::new(config(0))
        .unwrap()
        .score_many(&reference, &none)
        .unwrap_err();
    assert!(err.to_string().contains("no distorted input"), "{err}");
}
