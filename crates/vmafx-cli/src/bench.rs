//! `vmafx bench`: scoring speed on frames held in memory, so the figure is the engine's and
//! not the disk's. Frames come from a pair of files, optionally resized (bilinear) and
//! widened to another bit depth, or from the synthetic sample scene. Prints fps, the CPU time
//! of each feature and the process's peak resident memory. `--feature` scores features with
//! or without models; `--each` times every built-in model and every feature alone, one row
//! each, on the same frames.

use std::path::PathBuf;
use std::time::Instant;

use clap::Args;
use vmafx::context::{Context, ContextConfig};
use vmafx::feature::options::split_option_string;
use vmafx::feature::registry;
use vmafx::frame::{FrameBuilder, SamplesMut};
use vmafx::io::VideoReader;
use vmafx::model::{LoadedModel, ModelSpec};
use vmafx::Frame;

use crate::error::CliError;

/// Options of `vmafx bench`.
#[derive(Debug, Args)]
pub struct BenchArgs {
    /// Reference video (y4m); without it the synthetic sample scene is used.
    #[arg(short = 'r', long)]
    pub reference: Option<PathBuf>,
    /// Distorted video (y4m).
    #[arg(short = 'd', long)]
    pub distorted: Option<PathBuf>,
    /// Resize every frame to this size, `WxH` (e.g. 1920x1080).
    #[arg(long)]
    pub size: Option<String>,
    /// Widen samples to this bit depth (shifted left, as a 10-bit conversion of 8-bit video).
    #[arg(long)]
    pub bitdepth: Option<u32>,
    /// Frames to score (the input is looped if shorter).
    #[arg(long, default_value_t = 48)]
    pub frames: usize,
    /// Model (as `--model`); repeatable; default vmaf_v0.6.1.
    #[arg(short = 'm', long)]
    pub model: Vec<String>,
    /// Feature extractor, `name` or `name=option=value:option=value`; repeatable. With
    /// `--feature` and no `--model`, only the features are scored.
    #[arg(long)]
    pub feature: Vec<String>,
    /// Every built-in model and every feature extractor alone, one row each.
    #[arg(long)]
    pub each: bool,
    /// Worker threads.
    #[arg(long, default_value_t = 0)]
    pub threads: usize,
}

/// What one timed pass scores: models and features.
struct Workload {
    models: Vec<ModelSpec>,
    features: Vec<(String, Vec<(String, String)>)>,
}

/// Each extractor's CPU seconds in a pass.
type ExtractSeconds = Vec<(&'static str, f64)>;

/// `name` or `name=option=value:...` as a name and its options.
fn parse_feature(spec: &str) -> Result<(String, Vec<(String, String)>), CliError> {
    let (name, rest) = spec.split_once('=').unwrap_or((spec, ""));
    Ok((name.to_string(), split_option_string(rest)?))
}

/// One timed pass over `frames` pairs (looping the held frames): seconds of wall time and
/// each extractor's CPU time.
fn run_pass(
    a: &BenchArgs,
    refs: &[Frame],
    dis: &[Frame],
    work: &Workload,
) -> Result<(f64, ExtractSeconds), CliError> {
    let n = refs.len().min(dis.len());
    let mut ctx = Context::new(ContextConfig {
        threads: a.threads,
        ..Default::default()
    })?;
    for s in &work.models {
        ctx.use_model(LoadedModel::load(s)?)?;
    }
    for (name, opts) in &work.features {
        ctx.use_feature(name, opts)?;
    }
    let start = Instant::now();
    for i in 0..a.frames {
        ctx.submit(refs[i % n].clone(), dis[i % n].clone(), i as u64)?;
    }
    ctx.flush()?;
    if !work.models.is_empty() {
        ctx.predict_all()?;
    }
    let secs = start.elapsed().as_secs_f64();
    let times = ctx
        .extract_times()
        .into_iter()
        .map(|(name, t)| (name, t.as_secs_f64()))
        .collect();
    Ok((secs, times))
}

/// `--each`: every built-in model, then every registered feature, alone; one row each
/// (a feature that cannot score this input prints why instead).
fn bench_each(a: &BenchArgs, refs: &[Frame], dis: &[Frame]) -> Result<(), CliError> {
    let mut rows: Vec<(String, Workload)> = Vec::new();
    for v in vmafx::model::builtin_versions() {
        let spec = ModelSpec::parse(&format!("version={v}"))?;
        let work = Workload {
            models: vec![spec],
            features: Vec::new(),
        };
        rows.push((format!("model {v}"), work));
    }
    for info in registry::all() {
        let work = Workload {
            models: Vec::new(),
            features: vec![(info.name.to_string(), Vec::new())],
        };
        rows.push((format!("feature {}", info.name), work));
    }
    for (label, work) in &rows {
        match run_pass(a, refs, dis, work) {
            Ok((secs, _)) => println!(
                "{label:<40} {:>9.2} fps {:>9.3} ms/frame",
                a.frames as f64 / secs,
                secs * 1e3 / a.frames as f64
            ),
            Err(CliError::Usage(e) | CliError::Input(e) | CliError::Interrupted(e)) => {
                println!("{label:<40} not scored: {e}")
            }
        }
    }
    Ok(())
}

fn parse_size(s: &str) -> Result<(u32, u32), CliError> {
    let bad = || CliError::Usage(format!("--size {s}: expected WIDTHxHEIGHT, e.g. 1920x1080"));
    let (w, h) = s.split_once('x').ok_or_else(bad)?;
    let (w, h): (u32, u32) = (w.parse().map_err(|_| bad())?, h.parse().map_err(|_| bad())?);
    if !(16..=8192).contains(&w) || !(16..=8192).contains(&h) {
        return Err(bad());
    }
    Ok((w, h))
}

fn sample(p: &vmafx::frame::Plane, x: u32, y: u32) -> u32 {
    p.get(x.min(p.width - 1), y.min(p.height - 1)) as u32
}

/// Bilinear resize of every plane, and a left shift to `bpc`.
fn convert(f: &Frame, w: u32, h: u32, bpc: u32) -> Result<Frame, CliError> {
    let mut b = FrameBuilder::new(f.format(), bpc, w, h)?;
    let shift = bpc - f.bpc();
    for i in 0..f.planes().len() {
        let src = f.plane(i);
        let dst = b.plane_mut(i);
        let (dw, dh, stride) = (dst.width, dst.height, dst.stride);
        let sx = src.width as f64 / dw as f64;
        let sy = src.height as f64 / dh as f64;
        let mut out = Vec::with_capacity((dw * dh) as usize);
        for y in 0..dh {
            let fy = ((y as f64 + 0.5) * sy - 0.5).max(0.0);
            let (y0, ty) = (fy as u32, fy.fract());
            for x in 0..dw {
                let fx = ((x as f64 + 0.5) * sx - 0.5).max(0.0);
                let (x0, tx) = (fx as u32, fx.fract());
                let top =
                    sample(src, x0, y0) as f64 * (1.0 - tx) + sample(src, x0 + 1, y0) as f64 * tx;
                let bot = sample(src, x0, y0 + 1) as f64 * (1.0 - tx)
                    + sample(src, x0 + 1, y0 + 1) as f64 * tx;
                out.push(((top * (1.0 - ty) + bot * ty).round() as u32) << shift);
            }
        }
        match dst.samples_mut() {
            Some(SamplesMut::U8(s)) => {
                for (r, row) in out.chunks(dw as usize).enumerate() {
                    for (c, v) in row.iter().enumerate() {
                        s[r * stride + c] = *v as u8;
                    }
                }
            }
            Some(SamplesMut::U16(s)) => {
                for (r, row) in out.chunks(dw as usize).enumerate() {
                    for (c, v) in row.iter().enumerate() {
                        s[r * stride + c] = *v as u16;
                    }
                }
            }
            None => unreachable!("a new host frame is writable"),
        }
    }
    Ok(b.build())
}

fn load(path: &PathBuf, limit: usize) -> Result<Vec<Frame>, CliError> {
    let mut r = VideoReader::open(path, None)?;
    let mut v = Vec::new();
    while v.len() < limit {
        match r.next_frame()? {
            Some(f) => v.push(f),
            None => break,
        }
    }
    if v.is_empty() {
        return Err(CliError::Input(format!("{}: no frames", path.display())));
    }
    Ok(v)
}

fn peak_rss_mib() -> Option<f64> {
    let s = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = s.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kb: f64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb / 1024.0)
}

/// Runs the benchmark and prints its table.
pub fn bench(a: &BenchArgs) -> Result<(), CliError> {
    let (refs, dis) = match (&a.reference, &a.distorted) {
        (Some(r), Some(d)) => (load(r, a.frames)?, load(d, a.frames)?),
        (None, None) => {
            let dir = std::env::temp_dir().join(format!("vmafx-bench-{}", std::process::id()));
            let (w, h) = a
                .size
                .as_deref()
                .map(parse_size)
                .transpose()?
                .unwrap_or((576, 324));
            let (r, d) = crate::sample::write_sample(&dir, w & !1, h & !1, a.frames.min(48) as u32)
                .map_err(|e| CliError::Input(format!("writing the sample scene: {e}")))?;
            let pair = (load(&r, a.frames)?, load(&d, a.frames)?);
            let _ = std::fs::remove_dir_all(&dir);
            pair
        }
        _ => {
            return Err(CliError::Usage(
                "give both --reference and --distorted, or neither".into(),
            ))
        }
    };
    let n = refs.len().min(dis.len());
    let first = &refs[0];
    let (w, h) = a
        .size
        .as_deref()
        .map(parse_size)
        .transpose()?
        .unwrap_or((first.width(), first.height()));
    let bpc = a.bitdepth.unwrap_or(first.bpc());
    if bpc < first.bpc() || bpc > 16 {
        return Err(CliError::Usage(format!(
            "--bitdepth {bpc}: must be between the input's {} and 16",
            first.bpc()
        )));
    }
    let same = (w, h, bpc) == (first.width(), first.height(), first.bpc());
    let conv = |f: &Frame| {
        if same {
            Ok(f.clone())
        } else {
            convert(f, w, h, bpc)
        }
    };
    let refs: Vec<Frame> = refs[..n].iter().map(conv).collect::<Result<_, _>>()?;
    let dis: Vec<Frame> = dis[..n].iter().map(conv).collect::<Result<_, _>>()?;

    if a.each {
        println!(
            "{} {}x{} {}-bit, {} frames, {} thread(s), each model and feature alone",
            first.format(),
            w,
            h,
            bpc,
            a.frames,
            a.threads.max(1)
        );
        return bench_each(a, &refs, &dis);
    }
    let models: Vec<ModelSpec> = if a.model.is_empty() && a.feature.is_empty() {
        vec![ModelSpec::default_model()]
    } else {
        a.model
            .iter()
            .map(|m| ModelSpec::parse(m))
            .collect::<Result<_, _>>()?
    };
    let features = a
        .feature
        .iter()
        .map(|f| parse_feature(f))
        .collect::<Result<_, _>>()?;
    let mut labels: Vec<String> = models.iter().map(|s| s.subject()).collect();
    labels.extend(a.feature.iter().cloned());
    let work = Workload { models, features };
    let (secs, times) = run_pass(a, &refs, &dis, &work)?;
    println!(
        "{} {}x{} {}-bit, {} frames, {} thread(s), scoring {}",
        first.format(),
        w,
        h,
        bpc,
        a.frames,
        a.threads.max(1),
        labels.join(", ")
    );
    println!("fps {:.2} ({secs:.3} s)", a.frames as f64 / secs);
    let total: f64 = times.iter().map(|(_, t)| t).sum();
    for (name, s) in times {
        println!(
            "  {name:<14} {:>9.2} ms/frame {:>5.1}%",
            s * 1e3 / a.frames as f64,
            100.0 * s / total.max(1e-12)
        );
    }
    if let Some(m) = peak_rss_mib() {
        println!("peak RSS {m:.1} MiB");
    }
    Ok(())
}
