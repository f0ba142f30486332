//! The `vmafx` command line: the CLI's own argument definitions (its `args`, `bench`, `error`,
//! `logdest`, `merge`, `partial` and `sample` modules, compiled in from `crates/vmafx-cli/src`) parsed with
//! clap's `try_parse_from` from NUL-separated arguments (any bytes, not only UTF-8).
//! Parsing returns Ok or a usage error, never panics; an error renders. A parsed command
//! line then goes through what scoring checks before it opens a file: the raw yuv
//! geometry, each `--model` string and each `--feature` option string. Nothing is opened
//! or written.
#![no_main]
#![allow(dead_code)]

use std::ffi::OsString;
use std::os::unix::ffi::OsStringExt;

use clap::Parser;
use libfuzzer_sys::fuzz_target;
use vmafx::feature::options::split_option_string;
use vmafx::io::RawParams;
use vmafx::model::ModelSpec;

#[path = "../../crates/vmafx-cli/src/args.rs"]
mod args;
#[path = "../../crates/vmafx-cli/src/bench.rs"]
mod bench;
#[path = "../../crates/vmafx-cli/src/error.rs"]
mod error;
#[path = "../../crates/vmafx-cli/src/logdest.rs"]
mod logdest;
#[path = "../../crates/vmafx-cli/src/merge.rs"]
mod merge;
#[path = "../../crates/vmafx-cli/src/origin.rs"]
mod origin;
#[path = "../../crates/vmafx-cli/src/partial.rs"]
mod partial;
#[path = "../../crates/vmafx-cli/src/sample.rs"]
mod sample;

fuzz_target!(|data: &[u8]| {
    let argv = std::iter::once(OsString::from("vmafx")).chain(
        data.split(|&b| b == 0)
            .map(|a| OsString::from_vec(a.to_vec())),
    );
    let cli = match args::Cli::try_parse_from(argv) {
        Ok(cli) => cli,
        Err(e) => {
            std::hint::black_box(e.render().to_string());
            return;
        }
    };
    let s = &cli.score;
    if let (Some(w), Some(h), Some(p), Some(b)) =
        (s.width, s.height, s.pixel_format.as_deref(), s.bitdepth)
    {
        let _ = RawParams::from_names(w, h, p, b);
    }
    let models = match &cli.command {
        Some(args::Command::Bench(b)) => &b.model,
        _ => &s.model,
    };
    for m in models {
        let _ = ModelSpec::parse(m);
    }
    for f in &s.feature {
        let _ = split_option_string(f);
    }
});
