//! Command-line options: libvmaf's `vmaf` options, plus vmafx's subcommands.

use clap::{Args, Parser, Subcommand};
use std::path::PathBuf;

/// Score a distorted video against its reference, as libvmaf's `vmaf` tool does.
#[derive(Debug, Parser)]
#[command(
    name = "vmafx",
    disable_help_flag = true,
    disable_version_flag = true,
    args_conflicts_with_subcommands = true,
    about = "Video quality scoring, bit-exact with libvmaf's vmaf tool",
    after_help = "Example: vmafx -r ref.y4m -d dis.y4m --json -o log.json\n\
                  Compressed input (any file ffmpeg decodes): vmafx -r master.mp4 -d encode.mkv --html report.html\n\
                  Raw .yuv input needs --width, --height, --pixel_format and --bitdepth.\n\
                  Several models: -m version=vmaf_v0.6.1 -m version=vmaf_4k_v0.6.1 (without name=, \n\
                  each is named after its version where two would be named vmaf)."
)]
pub struct Cli {
    /// Scoring options (the default when no subcommand is given).
    #[command(flatten)]
    pub score: ScoreArgs,
    /// A subcommand other than scoring.
    #[command(subcommand)]
    pub command: Option<Command>,
    /// Print help.
    #[arg(long = "help", action = clap::ArgAction::Help, global = true)]
    pub help: Option<bool>,
}

/// Subcommands beside scoring.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Write a small deterministic sample pair (a moving synthetic scene and a distorted copy).
    Sample(SampleArgs),
    /// Time scoring on frames held in memory: fps, per-feature time, peak memory.
    Bench(crate::bench::BenchArgs),
    /// Join partial logs (`--frames A..B -o part.json`) into the one-pass log.
    Merge(MergeArgs),
    /// Print a shell completion script (bash, zsh, fish, elvish, powershell).
    Completions(CompletionsArgs),
    /// Print the man page (roff): `vmafx man > vmafx.1`.
    Man,
    /// Check a log written with `--provenance`: `vmafx report verify LOG [--rerun LOG2]`.
    Report(ReportArgs),
    /// Serve the Model Context Protocol (JSON-RPC 2.0, one message a line) on standard input
    /// and output, or on a Unix socket or loopback SSE: an assistant scores pairs through it.
    Mcp(McpArgs),
}

/// `vmafx report`: reports written with their provenance.
#[derive(Debug, Args)]
pub struct ReportArgs {
    /// What to do with the report.
    #[command(subcommand)]
    pub action: ReportAction,
}

/// The actions of `vmafx report`.
#[derive(Debug, Subcommand)]
pub enum ReportAction {
    /// Check a JSON log written with `--provenance`: its record's digest, every metric a
    /// feature the record names, the frame count; with `--rerun`, every configuration field
    /// of the record and every score against a second run's log. Exit 0 when it holds, 1
    /// naming the file and the first field that does not match.
    Verify(VerifyArgs),
}

/// Options of `vmafx report verify`.
#[derive(Debug, Args)]
pub struct VerifyArgs {
    /// The JSON log to check.
    #[arg(value_name = "LOG")]
    pub log: PathBuf,
    /// The JSON log (`--provenance`) of a run with the same settings and inputs, to compare
    /// the configuration and every score with.
    #[arg(long, value_name = "LOG")]
    pub rerun: Option<PathBuf>,
}

/// Options of `vmafx mcp`.
#[derive(Debug, Args)]
pub struct McpArgs {
    /// Listen on this Unix socket instead of standard input and output.
    #[arg(long, value_name = "PATH", conflicts_with = "sse_port")]
    pub socket: Option<PathBuf>,
    /// Listen for MCP's HTTP+SSE binding on 127.0.0.1:PORT (0: any free port, printed on
    /// standard error) instead of standard input and output.
    #[arg(long, value_name = "PORT")]
    pub sse_port: Option<u16>,
    /// The server name reported to clients.
    #[arg(long, value_name = "NAME")]
    pub name: Option<String>,
}

/// Options of `vmafx completions`.
#[derive(Debug, Args)]
pub struct CompletionsArgs {
    /// The shell to write completions for.
    #[arg(value_enum, value_name = "SHELL")]
    pub shell: clap_complete::Shell,
}

/// Options of `vmafx merge`.
#[derive(Debug, Args)]
pub struct MergeArgs {
    /// Partial logs written by `vmafx --frames A..B -o part.json`, in any order.
    #[arg(required = true, value_name = "PART")]
    pub parts: Vec<PathBuf>,
    /// The merged log (`-`: standard output).
    #[arg(short = 'o', long = "output")]
    pub output: PathBuf,
    /// Write the log as XML (the default format).
    #[arg(long)]
    pub xml: bool,
    /// Write the log as JSON.
    #[arg(long)]
    pub json: bool,
    /// Write the log as CSV.
    #[arg(long)]
    pub csv: bool,
    /// Write the log as subtitles (MicroDVD .sub).
    #[arg(long)]
    pub sub: bool,
    /// Print no pooled score.
    #[arg(short = 'q', long = "quiet")]
    pub quiet: bool,
}

/// Options of `vmafx sample`.
#[derive(Debug, Args)]
pub struct SampleArgs {
    /// Folder to write `sample_ref.y4m` and `sample_dis.y4m` into.
    #[arg(long, default_value = ".")]
    pub dir: PathBuf,
    /// Width in pixels.
    #[arg(long, default_value_t = 320)]
    pub width: u32,
    /// Height in pixels.
    #[arg(long, default_value_t = 180)]
    pub height: u32,
    /// Number of frames.
    #[arg(long, default_value_t = 24)]
    pub frames: u32,
}

/// libvmaf's `vmaf` options.
#[derive(Debug, Clone, Args)]
pub struct ScoreArgs {
    /// The reference: .y4m, .yuv, `-` (y4m on standard input), or any video ffmpeg decodes.
    #[arg(short = 'r', long = "reference")]
    pub reference: Option<PathBuf>,
    /// The distorted video, as the reference; another size is scaled to the reference's.
    /// Repeat it to score several encodes of one reference in one pass (the reference is
    /// read once); `-o` then names an existing folder, and each log is written there as
    /// the distorted file's stem plus the format's extension.
    #[arg(short = 'd', long = "distorted")]
    pub distorted: Vec<PathBuf>,
    /// Width (raw .yuv only).
    #[arg(short = 'w', long = "width")]
    pub width: Option<u32>,
    /// Height (raw .yuv only).
    #[arg(short = 'h', long = "height")]
    pub height: Option<u32>,
    /// Pixel format of raw .yuv: 420, 422, 444 or 400.
    #[arg(short = 'p', long = "pixel_format")]
    pub pixel_format: Option<String>,
    /// Bit depth of raw .yuv: 8 to 16.
    #[arg(short = 'b', long = "bitdepth")]
    pub bitdepth: Option<u32>,
    /// Model parameters, colon delimited (`version=vmaf_v0.6.1`, `path=m.json:name=x`, ...).
    #[arg(short = 'm', long = "model")]
    pub model: Vec<String>,
    /// Output log path (`-`: standard output, the pooled scores then go to standard error).
    #[arg(short = 'o', long = "output")]
    pub output: Option<PathBuf>,
    /// Write the log as XML (the default format).
    #[arg(long)]
    pub xml: bool,
    /// Write the log as JSON.
    #[arg(long)]
    pub json: bool,
    /// Write the log as CSV.
    #[arg(long)]
    pub csv: bool,
    /// Write the log as subtitles (MicroDVD .sub).
    #[arg(long)]
    pub sub: bool,
    /// Worker threads (0: score on the reading thread).
    #[arg(long, default_value_t = 0)]
    pub threads: usize,
    /// Feature extractor with options (`psnr`, `vif=debug=true`, ...).
    #[arg(long = "feature")]
    pub feature: Vec<String>,
    /// libvmaf's AOM common test conditions: the vmaf and vmaf_neg models, psnr, ciede,
    /// SSIM and MS-SSIM in dB and psnr_hvs (v3.0 on: cambi; v7.0: single-scale SSIM),
    /// added where the option stands among --model and --feature.
    #[arg(long = "aom_ctc", value_parser = crate::ctc::AOM_VERSIONS)]
    pub aom_ctc: Vec<String>,
    /// libvmaf's Netflix common test conditions: the 4K vmaf and vmaf_neg models, psnr with
    /// apsnr, SSIM in dB and cambi, added where the option stands among --model and --feature.
    #[arg(long = "nflx_ctc", value_parser = crate::ctc::NFLX_VERSIONS)]
    pub nflx_ctc: Vec<String>,
    /// Score every n-th frame.
    #[arg(long, default_value_t = 0)]
    pub subsample: u32,
    /// Turn SIMD levels off as libvmaf's --cpumask does (x86: bit 3 AVX2, bit 4 AVX-512;
    /// aarch64: bit 0 NEON; 255: scalar).
    #[arg(long)]
    pub cpumask: Option<u64>,
    /// Accepted for libvmaf's command lines, which may carry it: vmafx scores on the CPU,
    /// so no GPU operation is there to restrict (libvmaf built without CUDA ignores it too).
    #[arg(long)]
    pub gpumask: Option<u64>,
    /// Score at most this many frames (0: no limit, as libvmaf reads it).
    #[arg(long = "frame_cnt")]
    pub frame_cnt: Option<u64>,
    /// Skip this many reference frames first.
    #[arg(long = "frame_skip_ref", default_value_t = 0)]
    pub frame_skip_ref: u64,
    /// Skip this many distorted frames first.
    #[arg(long = "frame_skip_dist", default_value_t = 0)]
    pub frame_skip_dist: u64,
    /// Extract features only; predict no model score.
    #[arg(short = 'n', long = "no_prediction")]
    pub no_prediction: bool,
    /// Quiet: no progress bar, and no pooled score printed where a log file (-o) is written.
    #[arg(short = 'q', long = "quiet")]
    pub quiet: bool,
    /// Score frames START..END only (END excluded; `START..`: to the end), exactly as one
    /// pass scores them, and write a partial log (-o, JSON with exact values) for
    /// `vmafx merge`. With several -d, -o names a folder and each rendition's partial log is
    /// written there as <stem>.json.
    #[arg(long = "frames", value_name = "START..END")]
    pub frames: Option<String>,
    /// Print the version.
    #[arg(short = 'v', long = "version")]
    pub version: bool,
    /// The ffmpeg program that decodes compressed inputs (default: `ffmpeg` on PATH).
    #[arg(long = "ffmpeg", value_name = "PATH")]
    pub ffmpeg: Option<PathBuf>,
    /// Score what ffmpeg decodes of a compressed file it reports errors on (truncated or
    /// corrupt) instead of failing; a warning names the frames lost and passes the
    /// decoder's messages on.
    #[arg(long = "accept-decode-errors")]
    pub accept_decode_errors: bool,
    /// Refuse a distorted video of another size instead of scaling it (bicubic) to the
    /// reference's.
    #[arg(long = "no-scale")]
    pub no_scale: bool,
    /// Write the provenance record into the log: JSON gets a last member `provenance`
    /// (build, CPU level, models with their SHA-256, extractors with options, a digest of
    /// every score and of the record), XML a `<provenance>` element; without it the log is
    /// libvmaf's byte for byte. CSV and subtitles have no place for it: refused.
    /// `vmafx report verify LOG` checks a JSON log written so.
    #[arg(long = "provenance")]
    pub provenance: bool,
    /// Write a self-contained HTML report: pooled table, per-frame plot, worst frames. With
    /// several -d, one page compares the renditions: pooled scores per rendition and
    /// per-frame plots with a line per rendition (no worst frames).
    #[arg(long = "html", value_name = "PATH")]
    pub html: Option<PathBuf>,
    /// Worst frames (lowest score) shown as thumbnails in the HTML report.
    #[arg(long = "html-worst", value_name = "N", default_value_t = 4)]
    pub html_worst: usize,
    /// A metric of the log to plot in the HTML report beside the model scores (repeatable:
    /// `--html-plot psnr_y`).
    #[arg(long = "html-plot", value_name = "NAME")]
    pub html_plot: Vec<String>,
    /// Print each window's pooled model scores as soon as the window is final, while
    /// scoring (a live stream piped to `-d -` can be watched): `1s` (seconds of video, from
    /// the y4m frame rate) or `30f` (frames). The last window is printed at the end.
    #[arg(long = "window", value_name = "1s|30f")]
    pub window: Option<String>,
    /// A tiny ONNX model that scores every frame pair as one more metric of the log (pooled
    /// like the others), named by its sidecar JSON's `name` or the file's stem. The model is
    /// checked first: operator allowlist, 50 MiB limit, sidecar digest. Needs a vmafx built
    /// with the `dnn` feature.
    #[arg(long = "tiny-model", value_name = "PATH")]
    pub tiny_model: Option<PathBuf>,
    /// How frames are resized to a tiny model's fixed input size: disabled (a frame of
    /// another size is refused), bilinear, nearest or bicubic.
    #[arg(long = "tiny-resize", value_name = "MODE", requires = "tiny_model")]
    pub tiny_resize: Option<String>,
    /// Before opening the `--tiny-model`, verify it as VMAFx does: its entry and SHA-256 in
    /// the `registry.json` next to it, then its Sigstore bundle by `cosign verify-blob`
    /// (cosign must be on PATH). A model that fails is refused, naming what failed.
    #[arg(long = "tiny-model-verify", requires = "tiny_model")]
    pub tiny_model_verify: bool,
}

impl ScoreArgs {
    /// The frame limit `--frame_cnt` sets: none for 0, which libvmaf's tool reads as no
    /// limit (its default).
    pub fn frame_limit(&self) -> Option<u64> {
        self.frame_cnt.filter(|&n| n > 0)
    }
}
