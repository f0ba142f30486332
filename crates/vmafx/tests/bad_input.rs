//! The bad-input table: one row per malformed input, each asserting the exact status and that
//! the error names the input (its subject or message contains the row's `names` text).
//! A row that panics fails the table naming the row; it never aborts the others.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::PathBuf;

use serde_json::Value;
use vmafx::context::{Context, ContextConfig};
use vmafx::feature::options::split_option_string;
use vmafx::feature::registry;
use vmafx::io::{RawParams, VideoReader};
use vmafx::model::{LoadedModel, ModelSpec, ReadFlags};
use vmafx::{FrameBuilder, PixelFormat, Result, Status};

/// One malformed input: what it is, how it is fed, what must come back.
struct Case {
    /// Row name, printed on failure.
    name: &'static str,
    /// Feeds the input; must return an error.
    run: fn() -> Result<()>,
    /// The exact status expected.
    status: Status,
    /// Texts the error (subject and message) must each contain: they name the input.
    names: &'static [&'static str],
}

const fn case(
    name: &'static str,
    run: fn() -> Result<()>,
    status: Status,
    names: &'static [&'static str],
) -> Case {
    Case {
        name,
        run,
        status,
        names,
    }
}

// ---- model JSON ----

const MODEL: &str = include_str!("../models/vmaf_v0.6.1.json");

/// vmaf_v0.6.1 with `edit` applied to its JSON value.
fn edited(edit: fn(&mut Value)) -> String {
    let mut v: Value = serde_json::from_str(MODEL).expect("built-in model is valid JSON");
    edit(&mut v);
    v.to_string()
}

fn read(text: &str) -> Result<()> {
    LoadedModel::from_json_str("bad.json", "vmaf", text, ReadFlags::default()).map(|_| ())
}

fn model_missing_field() -> Result<()> {
    read(&edited(|v| {
        v["model_dict"]
            .as_object_mut()
            .unwrap()
            .remove("model_type");
    }))
}

fn model_wrong_type() -> Result<()> {
    read(&edited(|v| {
        v["model_dict"]["feature_names"] = Value::from(3)
    }))
}

fn model_nan_coefficient() -> Result<()> {
    read(&edited(|v| {
        let svm = v["model_dict"]["model"].as_str().unwrap();
        v["model_dict"]["model"] = Value::from(svm.replacen("\n-4 ", "\nnan ", 1));
    }))
}

fn model_infinite_rho() -> Result<()> {
    read(&edited(|v| {
        let svm = v["model_dict"]["model"].as_str().unwrap();
        v["model_dict"]["model"] = Value::from(svm.replace("rho -1.33133", "rho inf"));
    }))
}

fn model_overflowing_number() -> Result<()> {
    read(&MODEL.replacen("0.012020766332648465", "1e999", 1))
}

fn model_duplicate_key() -> Result<()> {
    read(&MODEL.replacen(
        "\"model_dict\": {",
        "\"model_dict\": {\"model_type\": \"RANDOMFOREST\", ",
        1,
    ))
}

fn model_unknown_feature() -> Result<()> {
    let text =
        edited(|v| v["model_dict"]["feature_names"][0] = Value::from("VMAF_no_such_feature"));
    let model = LoadedModel::from_json_str("bad.json", "vmaf", &text, ReadFlags::default())?;
    let features: Vec<_> = model
        .features()
        .iter()
        .map(|f| (f.name.clone(), f.options.clone()))
        .collect();
    Context::new(ContextConfig::default())?
        .use_features_for(&features)
        .map(|_| ())
}

fn model_not_json() -> Result<()> {
    read("{\"model_dict\": ")
}

fn model_neither() -> Result<()> {
    read("[1, 2]")
}

fn model_spec_unknown_key() -> Result<()> {
    ModelSpec::parse("version=vmaf_v0.6.1:colour=red").map(|_| ())
}

fn model_spec_unknown_version() -> Result<()> {
    LoadedModel::load(&ModelSpec::parse("version=vmaf_v9.9")?).map(|_| ())
}

fn model_spec_missing_file() -> Result<()> {
    LoadedModel::load(&ModelSpec::parse("path=/nonexistent/vmafx_model.json")?).map(|_| ())
}

// ---- feature options ----

fn options(extractor: &str, text: &str) -> Result<()> {
    let info = registry::by_name(extractor)?;
    info.parse_options(&split_option_string(text)?).map(|_| ())
}

fn option_unknown_name() -> Result<()> {
    options("adm", "adm_no_such_option=1")
}

fn option_out_of_range() -> Result<()> {
    options("adm", "adm_enhn_gain_limit=0.5")
}

fn option_not_a_number() -> Result<()> {
    options("adm", "adm_enhn_gain_limit=lots")
}

fn option_infinite() -> Result<()> {
    options("adm", "adm_enhn_gain_limit=inf")
}

fn option_no_value() -> Result<()> {
    options("adm", "adm_enhn_gain_limit")
}

fn option_unknown_extractor() -> Result<()> {
    options("no_such_extractor", "")
}

// ---- context ----

fn submit_pair(
    (rf, rb, rw, rh): (PixelFormat, u32, u32, u32),
    (df, db, dw, dh): (PixelFormat, u32, u32, u32),
) -> Result<()> {
    let mut ctx = Context::new(ContextConfig::default())?;
    ctx.use_feature("psnr", &[])?;
    let reference = FrameBuilder::new(rf, rb, rw, rh)?.build();
    let distorted = FrameBuilder::new(df, db, dw, dh)?.build();
    ctx.submit(reference, distorted, 0)
}

const Y420: PixelFormat = PixelFormat::Yuv420p;

fn context_size_mismatch() -> Result<()> {
    submit_pair((Y420, 8, 64, 48), (Y420, 8, 64, 32))
}

fn context_format_mismatch() -> Result<()> {
    submit_pair((Y420, 8, 64, 48), (PixelFormat::Yuv444p, 8, 64, 48))
}

fn context_depth_mismatch() -> Result<()> {
    submit_pair((Y420, 8, 64, 48), (Y420, 10, 64, 48))
}

fn context_geometry_change() -> Result<()> {
    let mut ctx = Context::new(ContextConfig::default())?;
    ctx.use_feature("psnr", &[])?;
    let frame = |w| FrameBuilder::new(Y420, 8, w, 16).map(|b| b.build());
    ctx.submit(frame(32)?, frame(32)?, 0)?;
    ctx.submit(frame(48)?, frame(48)?, 1)
}

fn context_no_features() -> Result<()> {
    let mut ctx = Context::new(ContextConfig::default())?;
    let frame = || FrameBuilder::new(Y420, 8, 16, 16).map(|b| b.build());
    ctx.submit(frame()?, frame()?, 0)
}

fn frame_width_zero() -> Result<()> {
    FrameBuilder::new(Y420, 8, 0, 16).map(|_| ())
}

fn frame_height_too_big() -> Result<()> {
    FrameBuilder::new(Y420, 8, 16, (1 << 16) + 1).map(|_| ())
}

fn frame_depth_out_of_range() -> Result<()> {
    FrameBuilder::new(Y420, 17, 16, 16).map(|_| ())
}

fn frame_import_only_format() -> Result<()> {
    FrameBuilder::new(PixelFormat::Nv12, 8, 16, 16).map(|_| ())
}

// ---- y4m and raw yuv readers ----

/// Writes `bytes` to a scratch file named `name` (unique to this test process).
fn scratch(name: &str, bytes: &[u8]) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("vmafx-bad-input-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("scratch folder");
    let path = dir.join(name);
    std::fs::write(&path, bytes).expect("scratch file");
    path
}

/// A y4m file: `YUV4MPEG2 {header}` then each frame after a `FRAME` line.
fn y4m(header: &str, frames: &[&[u8]]) -> Vec<u8> {
    let mut v = format!("YUV4MPEG2 {header}\n").into_bytes();
    for f in frames {
        v.extend_from_slice(b"FRAME\n");
        v.extend_from_slice(f);
    }
    v
}

/// 2x2 4:2:0 8-bit: 6 bytes a frame.
const TINY: &str = "W2 H2 F25:1 C420jpeg";
const FRAME: &[u8] = &[16, 32, 64, 128, 1, 2];

/// Opens `name` holding `bytes` and reads every frame.
fn read_y4m(name: &str, bytes: &[u8]) -> Result<()> {
    read_all(VideoReader::open(scratch(name, bytes), None)?)
}

fn read_raw(name: &str, bytes: &[u8], w: u32, h: u32, format: &str, bpc: u32) -> Result<()> {
    let raw = RawParams::from_names(w, h, format, bpc)?;
    read_all(VideoReader::open(scratch(name, bytes), Some(raw))?)
}

fn read_all(mut reader: VideoReader) -> Result<()> {
    while reader.next_frame()?.is_some() {}
    Ok(())
}

fn io_empty_file() -> Result<()> {
    read_y4m("empty.y4m", b"")
}

fn io_unterminated_header() -> Result<()> {
    read_y4m("unterminated.y4m", b"YUV4MPEG2 W2 H2 C420")
}

fn io_garbage_header() -> Result<()> {
    read_y4m("garbage.y4m", b"\x89PNG\r\n\x1a\n not a video at all\n")
}

fn io_unknown_colour_space() -> Result<()> {
    read_y4m("colour.y4m", &y4m("W2 H2 C420banana", &[FRAME]))
}

fn io_interlaced() -> Result<()> {
    read_y4m("interlaced.y4m", &y4m("W2 H2 It C420", &[FRAME]))
}

fn io_frame_header_missing() -> Result<()> {
    let mut bytes = y4m(TINY, &[FRAME]);
    bytes.extend_from_slice(FRAME);
    read_y4m("no_frame_header.y4m", &bytes)
}

fn io_frame_header_garbled() -> Result<()> {
    let mut bytes = y4m(TINY, &[FRAME]);
    bytes.extend_from_slice(b"FRAMX\n");
    bytes.extend_from_slice(FRAME);
    read_y4m("garbled_frame_header.y4m", &bytes)
}

fn io_truncated_last_frame() -> Result<()> {
    read_y4m("truncated.y4m", &y4m(TINY, &[FRAME, &FRAME[..4]]))
}

fn io_width_zero() -> Result<()> {
    read_y4m("width0.y4m", &y4m("W0 H2 C420", &[FRAME]))
}

fn io_height_above_2_16() -> Result<()> {
    read_y4m("height_big.y4m", &y4m("W2 H65537 C420", &[FRAME]))
}

fn io_raw_partial_frame() -> Result<()> {
    read_raw("partial.yuv", &[7; 6 * 3 + 4], 2, 2, "420", 8)
}

fn io_raw_width_zero() -> Result<()> {
    read_raw("raw_width0.yuv", &[7; 6], 0, 2, "420", 8)
}

fn io_raw_width_above_2_16() -> Result<()> {
    read_raw("raw_width_big.yuv", &[7; 6], 70000, 2, "420", 8)
}

fn io_raw_unknown_format() -> Result<()> {
    read_raw("raw_format.yuv", &[7; 6], 2, 2, "411", 8)
}

fn io_raw_empty() -> Result<()> {
    read_raw("raw_empty.yuv", b"", 2, 2, "420", 8)
}

fn io_missing_file() -> Result<()> {
    let path = std::env::temp_dir().join("vmafx-bad-input-no-such-file.y4m");
    read_all(VideoReader::open(path, None)?)
}

#[rustfmt::skip]
const CASES: &[Case] = &[
    case("model: missing field", model_missing_field, Status::Invalid, &["model_dict.model_type: missing field"]),
    case("model: wrong type", model_wrong_type, Status::Invalid, &["model_dict.feature_names: expected an array"]),
    case("model: NaN coefficient", model_nan_coefficient, Status::Invalid, &["coefficient is not finite (nan)"]),
    case("model: infinite rho", model_infinite_rho, Status::Invalid, &["rho is not finite (inf)"]),
    case("model: overflowing number", model_overflowing_number, Status::Invalid, &["bad.json"]),
    case("model: duplicate key", model_duplicate_key, Status::Invalid, &["model_type"]),
    case("model: unknown feature", model_unknown_feature, Status::NotSup, &["VMAF_no_such_feature"]),
    case("model: not JSON", model_not_json, Status::Invalid, &["not valid JSON"]),
    case("model: neither model nor collection", model_neither, Status::Invalid, &["model_dict"]),
    case("model spec: unknown key", model_spec_unknown_key, Status::Invalid, &["colour"]),
    case("model spec: unknown version", model_spec_unknown_version, Status::NotFound, &["vmaf_v9.9"]),
    case("model spec: missing file", model_spec_missing_file, Status::Io, &["/nonexistent/vmafx_model.json"]),
    case("options: unknown name", option_unknown_name, Status::NotFound, &["adm_no_such_option"]),
    case("options: out of range", option_out_of_range, Status::Range, &["adm:adm_enhn_gain_limit"]),
    case("options: not a number", option_not_a_number, Status::Invalid, &["'lots'"]),
    case("options: infinite", option_infinite, Status::Invalid, &["'inf'"]),
    case("options: no value", option_no_value, Status::Invalid, &["adm_enhn_gain_limit"]),
    case("options: unknown extractor", option_unknown_extractor, Status::NotFound, &["no_such_extractor"]),
    case("context: ref/dis size differ", context_size_mismatch, Status::Invalid, &["64x32"]),
    case("context: ref/dis format differ", context_format_mismatch, Status::Invalid, &["frame 0"]),
    case("context: ref/dis depth differ", context_depth_mismatch, Status::Invalid, &["10-bit"]),
    case("context: geometry changes", context_geometry_change, Status::Invalid, &["frame 1"]),
    case("context: no features", context_no_features, Status::Invalid, &["features"]),
    case("frame: width 0", frame_width_zero, Status::Range, &["width"]),
    case("frame: height above 2^16", frame_height_too_big, Status::Range, &["height"]),
    case("frame: depth 17", frame_depth_out_of_range, Status::Range, &["bit depth"]),
    case("frame: import-only format", frame_import_only_format, Status::Invalid, &["pixel format"]),
    case("y4m: empty file", io_empty_file, Status::Invalid, &["empty.y4m", "empty"]),
    case("y4m: header not terminated", io_unterminated_header, Status::Invalid, &["unterminated.y4m"]),
    case("y4m: garbage header", io_garbage_header, Status::Invalid, &["garbage.y4m", "byte 0"]),
    case("y4m: unknown colour space", io_unknown_colour_space, Status::Invalid, &["colour.y4m", "C420banana", "unknown colour space"]),
    case("y4m: interlaced", io_interlaced, Status::Invalid, &["interlaced.y4m", "It", "interlaced"]),
    case("y4m: frame header missing", io_frame_header_missing, Status::Invalid, &["no_frame_header.y4m", "frame 1"]),
    case("y4m: frame header garbled", io_frame_header_garbled, Status::Invalid, &["garbled_frame_header.y4m", "frame 1"]),
    case("y4m: truncated last frame", io_truncated_last_frame, Status::Invalid, &["truncated.y4m", "frame 1"]),
    case("y4m: width 0", io_width_zero, Status::Invalid, &["width0.y4m", "width 0"]),
    case("y4m: height above 2^16", io_height_above_2_16, Status::Invalid, &["height_big.y4m", "height 65537"]),
    case("yuv: not a whole number of frames", io_raw_partial_frame, Status::Invalid, &["partial.yuv", "frame 3"]),
    case("yuv: width 0", io_raw_width_zero, Status::Range, &["raw_width0.yuv", "width 0"]),
    case("yuv: width above 2^16", io_raw_width_above_2_16, Status::Range, &["raw_width_big.yuv", "width 70000"]),
    case("yuv: unknown pixel format", io_raw_unknown_format, Status::Invalid, &["pixel format", "'411'"]),
    case("yuv: empty file", io_raw_empty, Status::Invalid, &["raw_empty.yuv", "empty"]),
    case("file: missing", io_missing_file, Status::Io, &["vmafx-bad-input-no-such-file.y4m"]),
];

#[test]
fn every_bad_input_is_refused_by_name() {
    let mut failures = Vec::new();
    for c in CASES {
        let outcome = catch_unwind(AssertUnwindSafe(c.run));
        let problem = match outcome {
            Err(_) => Some("panicked".to_string()),
            Ok(Ok(())) => Some("was accepted".to_string()),
            Ok(Err(e)) if e.status() != c.status => Some(format!(
                "status {} instead of {}: {e}",
                e.status(),
                c.status
            )),
            Ok(Err(e)) if !c.names.iter().all(|n| e.to_string().contains(n)) => {
                Some(format!("error does not name all of {:?}: {e}", c.names))
            }
            Ok(Err(_)) => None,
        };
        if let Some(p) = problem {
            failures.push(format!("{}: {p}", c.name));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} rows failed:\n{}",
        failures.len(),
        CASES.len(),
        failures.join("\n")
    );
}

/// A y4m header with no frames is no error to the reader (whether zero frames is an error
/// is the caller's call, as the reader documents): it opens and reads no frame.
#[test]
fn header_only_reads_zero_frames() {
    let path = scratch("header_only.y4m", format!("YUV4MPEG2 {TINY}\n").as_bytes());
    let mut reader = VideoReader::open(&path, None).expect("header-only y4m opens");
    assert!(reader.next_frame().expect("no error").is_none());
    assert_eq!(reader.frames_read(), 0);
}
