//! The bad-input table: one row per malformed input, each asserting the exact status and that
//! the error names the input (its subject or message contains the row's `names` text).
//! A row that panics fails the table naming the row; it never aborts the others.

use std::panic::{catch_unwind, AssertUnwindSafe};

use serde_json::Value;
use vmafx::context::{Context, ContextConfig};
use vmafx::feature::options::split_option_string;
use vmafx::feature::registry;
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
    /// Text the error (subject or message) must contain: it names the input.
    names: &'static str,
}

const fn case(
    name: &'static str,
    run: fn() -> Result<()>,
    status: Status,
    names: &'static str,
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

const CASES: &[Case] = &[
    case(
        "model: missing field",
        model_missing_field,
        Status::Invalid,
        "model_dict.model_type: missing field",
    ),
    case(
        "model: wrong type",
        model_wrong_type,
        Status::Invalid,
        "model_dict.feature_names: expected an array",
    ),
    case(
        "model: NaN coefficient",
        model_nan_coefficient,
        Status::Invalid,
        "coefficient is not finite (nan)",
    ),
    case(
        "model: infinite rho",
        model_infinite_rho,
        Status::Invalid,
        "rho is not finite (inf)",
    ),
    case(
        "model: overflowing number",
        model_overflowing_number,
        Status::Invalid,
        "bad.json",
    ),
    case(
        "model: duplicate key",
        model_duplicate_key,
        Status::Invalid,
        "model_type",
    ),
    case(
        "model: unknown feature",
        model_unknown_feature,
        Status::NotSup,
        "VMAF_no_such_feature",
    ),
    case(
        "model: not JSON",
        model_not_json,
        Status::Invalid,
        "not valid JSON",
    ),
    case(
        "model: neither model nor collection",
        model_neither,
        Status::Invalid,
        "model_dict",
    ),
    case(
        "model spec: unknown key",
        model_spec_unknown_key,
        Status::Invalid,
        "colour",
    ),
    case(
        "model spec: unknown version",
        model_spec_unknown_version,
        Status::NotFound,
        "vmaf_v9.9",
    ),
    case(
        "model spec: missing file",
        model_spec_missing_file,
        Status::Io,
        "/nonexistent/vmafx_model.json",
    ),
    case(
        "options: unknown name",
        option_unknown_name,
        Status::NotFound,
        "adm_no_such_option",
    ),
    case(
        "options: out of range",
        option_out_of_range,
        Status::Range,
        "adm:adm_enhn_gain_limit",
    ),
    case(
        "options: not a number",
        option_not_a_number,
        Status::Invalid,
        "'lots'",
    ),
    case(
        "options: infinite",
        option_infinite,
        Status::Invalid,
        "'inf'",
    ),
    case(
        "options: no value",
        option_no_value,
        Status::Invalid,
        "adm_enhn_gain_limit",
    ),
    case(
        "options: unknown extractor",
        option_unknown_extractor,
        Status::NotFound,
        "no_such_extractor",
    ),
    case(
        "context: ref/dis size differ",
        context_size_mismatch,
        Status::Invalid,
        "64x32",
    ),
    case(
        "context: ref/dis format differ",
        context_format_mismatch,
        Status::Invalid,
        "frame 0",
    ),
    case(
        "context: ref/dis depth differ",
        context_depth_mismatch,
        Status::Invalid,
        "10-bit",
    ),
    case(
        "context: geometry changes",
        context_geometry_change,
        Status::Invalid,
        "frame 1",
    ),
    case(
        "context: no features",
        context_no_features,
        Status::Invalid,
        "features",
    ),
    case("frame: width 0", frame_width_zero, Status::Range, "width"),
    case(
        "frame: height above 2^16",
        frame_height_too_big,
        Status::Range,
        "height",
    ),
    case(
        "frame: depth 17",
        frame_depth_out_of_range,
        Status::Range,
        "bit depth",
    ),
    case(
        "frame: import-only format",
        frame_import_only_format,
        Status::Invalid,
        "pixel format",
    ),
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
            Ok(Err(e)) if !e.to_string().contains(c.names) => {
                Some(format!("error does not name '{}': {e}", c.names))
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
