//! `vmaf_write_output`: the log of a flushed context, written by the engine's writers
//! (byte for byte libvmaf's JSON, XML, CSV and subtitle formats).

use std::ffi::{c_char, c_int, c_uint};

use vmafx::context::LogLevel;
use vmafx::output::{write_report, OutputFormat};
use vmafx::score::{ReportInfo, ScoreTable};

use crate::context::{context, VmafContext};
use crate::errno::EINVAL;
use crate::{errno_of, guard, text};

fn output_format(v: c_uint) -> Option<OutputFormat> {
    match v {
        1 => Some(OutputFormat::Xml),
        2 => Some(OutputFormat::Json),
        3 => Some(OutputFormat::Csv),
        4 => Some(OutputFormat::Sub),
        _ => None,
    }
}

/// The engine's table plus the imported scores, each import a column of its own.
fn table(v: &VmafContext) -> vmafx::Result<ScoreTable> {
    let mut t = v.ctx.score_table()?;
    for (name, series) in &v.imported {
        if t.names.contains(name) {
            continue;
        }
        let col = t.names.len();
        t.names.push(name.clone());
        for (index, row) in t.frames.iter_mut() {
            row.resize(col, None);
            row.push(series.get(index).copied());
        }
    }
    Ok(t)
}

fn write(v: &VmafContext, path: &str, fmt: OutputFormat) -> c_int {
    if !v.flushed() {
        return -EINVAL;
    }
    let t = match table(v) {
        Ok(t) => t,
        Err(e) => return errno_of(&e),
    };
    let Some(g) = v.ctx.geometry() else {
        return -EINVAL;
    };
    let info = ReportInfo {
        fps: v.fps(),
        subsample: v.subsample.max(1),
        aggregate: v
            .ctx
            .collector()
            .map(|c| c.aggregates().to_vec())
            .unwrap_or_default(),
        ..ReportInfo::new(g.width, g.height, v.pic_count)
    };
    let file = match std::fs::File::create(path) {
        Ok(f) => f,
        Err(e) => {
            v.ctx.config().log(
                LogLevel::Error,
                &format!("could not open file: {path}: {e}"),
            );
            return -EINVAL;
        }
    };
    let mut w = std::io::BufWriter::new(file);
    match write_report(&mut w, fmt, &t, &info) {
        Ok(()) => 0,
        Err(e) => {
            v.ctx
                .config()
                .log(LogLevel::Error, &format!("writing {path}: {e}"));
            -EINVAL
        }
    }
}

/// Writes every collected score of the flushed context to `output_path` in `fmt`.
///
/// # Safety
/// `vmaf` NULL or live; `output_path` NULL or NUL-terminated.
#[no_mangle]
pub unsafe extern "C" fn vmaf_write_output(
    vmaf: *mut VmafContext,
    output_path: *const c_char,
    fmt: c_uint,
) -> c_int {
    guard(|| {
        // SAFETY: forwarded contract.
        let (Some(v), Some(path)) = (unsafe { context(vmaf) }, unsafe { text(output_path) }) else {
            return -EINVAL;
        };
        let Some(fmt) = output_format(fmt) else {
            return -EINVAL;
        };
        write(v, path, fmt)
    })
}

/// [`vmaf_write_output`] with a number format: NULL or `"%.6f"` (the writers' format, the
/// libvmaf default); any other format is refused with `-EINVAL`.
///
/// # Safety
/// As [`vmaf_write_output`]; `score_format` NULL or NUL-terminated.
#[no_mangle]
pub unsafe extern "C" fn vmaf_write_output_with_format(
    vmaf: *mut VmafContext,
    output_path: *const c_char,
    fmt: c_uint,
    score_format: *const c_char,
) -> c_int {
    guard(|| {
        if !score_format.is_null() {
            // SAFETY: non-NULL and NUL-terminated by the contract above.
            if unsafe { text(score_format) } != Some("%.6f") {
                return -EINVAL;
            }
        }
        // SAFETY: forwarded contract.
        unsafe { vmaf_write_output(vmaf, output_path, fmt) }
    })
}
