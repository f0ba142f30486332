//! VMAFx's report.h (ABI 0.1.5): reports that carry the provenance record (JSON and XML;
//! CSV and SUB unchanged, the record in a sidecar when asked), read back and checked
//! against their record or a re-run. The writers and the check are the engine's
//! (`vmafx::provenance`).

use std::collections::HashMap;
use std::ffi::{c_char, CString};
use std::path::Path;
use std::sync::Mutex;

use serde_json::Value;
use vmafx::output::{render_report, write_file_atomically, OutputFormat};
use vmafx::provenance::printf::{ScoreFormat, DEFAULT_FORMAT};
use vmafx::provenance::report::{json_report, xml_report};
use vmafx::provenance::{scores_digest, verify};
use vmafx::score::ReportInfo;
use vmafx::Status;

use crate::abi::SubjectKind;
use crate::c_export;
use crate::context_handle::VmafxContext;
use crate::error::{fail, null, CResult, WithKind};
use crate::ffi::c_str;
use crate::record::record_of;

/// `VmafxReportFormat` values (libvmaf's `VmafOutputFormat`).
pub const REPORT_FORMATS: [(&str, u32, &str); 4] = [
    (
        "VMAFX_REPORT_FORMAT_XML",
        1,
        "XML with a `<provenance>` element.",
    ),
    (
        "VMAFX_REPORT_FORMAT_JSON",
        2,
        "JSON with a `provenance` object.",
    ),
    (
        "VMAFX_REPORT_FORMAT_CSV",
        3,
        "CSV, columns unchanged; the record only in the sidecar.",
    ),
    (
        "VMAFX_REPORT_FORMAT_SUB",
        4,
        "Subtitles, lines unchanged; the record only in the sidecar.",
    ),
];

/// `VMAFX_REPORT_PROVENANCE_SIDECAR`: also write the record to `<path>.provenance.json`.
pub const REPORT_PROVENANCE_SIDECAR: u32 = 1;

/// `VmafxReportFile`: a JSON report read back.
pub struct VmafxReportFile {
    report: Value,
    /// The answers of vmafx_report_field(), living as long as the report.
    fields: Mutex<HashMap<String, CString>>,
}

crate::c_named!(VmafxReportFile);

fn param<T>(r: CResult<T>) -> CResult<T> {
    r.kind(SubjectKind::Parameter)
}

fn write(path: &str, bytes: &[u8]) -> CResult<()> {
    write_file_atomically(Path::new(path), bytes)
        .map_err(|e| fail(Status::Io, path, e.message()))
        .kind(SubjectKind::Path)
}

c_export! {
    /// Writes the context's scores to `path` with the provenance record.
    ///
    /// # Safety
    /// `context` NULL or live; `path`, `score_format` NULL or NUL-terminated; `error` NULL or
    /// writable.
    #[c = "Writes the scores of the flushed context to `path` in `format` (a VmafxReportFormat): JSON with the provenance record as a `provenance` object, `score_format` and `backend_used`, its scores written with `score_format` (a printf conversion of one double; NULL: %.6f; %.17g is lossless and lets vmafx_report_verify() check the scores' digest); XML as the libvmaf log with a `<provenance>` element; CSV and SUB unchanged. `flags` VMAFX_REPORT_PROVENANCE_SIDECAR also writes the record to `<path>.provenance.json`. VMAFX_E_INVALID names `format`, `flags` or `score_format`; VMAFX_E_IO names the path. ABI 0.1.5."]
    pub unsafe fn vmafx_report_write(
        context: *mut VmafxContext,
        path: *const c_char,
        format: u32,
        flags: u32,
        score_format: *const c_char;
        error
    ) -> VmafxStatus {
        // SAFETY: `context` is NULL or live (this function's contract).
        let c = param(unsafe { context.as_ref() }.ok_or_else(|| null("context")))?;
        // SAFETY: `path` is NULL or NUL-terminated (this function's contract).
        let path = param(unsafe { c_str(path, "path") })?;
        let fmt = match format {
            1 => OutputFormat::Xml,
            2 => OutputFormat::Json,
            3 => OutputFormat::Csv,
            4 => OutputFormat::Sub,
            _ => {
                return param(Err(fail(
                    Status::Invalid,
                    "format",
                    format!("{format} is not a VmafxReportFormat (1 to 4)"),
                )))
            }
        };
        if flags & !REPORT_PROVENANCE_SIDECAR != 0 {
            return param(Err(fail(
                Status::Invalid,
                "flags",
                format!("{flags:#x} has bits beyond VMAFX_REPORT_PROVENANCE_SIDECAR"),
            )));
        }
        let sf_text = if score_format.is_null() {
            DEFAULT_FORMAT.to_string()
        } else {
            // SAFETY: non-NULL and NUL-terminated (this function's contract).
            param(unsafe { c_str(score_format, "score_format") })?.to_string()
        };
        let sf = param(ScoreFormat::parse(&sf_text).map_err(Into::into))?;
        let mut inner = c.lock();
        if inner.ctx.scores_final() {
            inner.ctx.predict_all()?;
        }
        let table = inner.ctx.score_table().kind(SubjectKind::Context)?;
        let mut record = record_of(&inner);
        record.scores_digest = scores_digest(table.frames.iter().flat_map(|(i, row)| {
            table
                .names
                .iter()
                .zip(row)
                .filter_map(move |(n, v)| v.map(|v| (n.clone(), *i, v)))
        }));
        record.seal();
        let geometry = inner.ctx.geometry();
        let mut info = ReportInfo::new(
            geometry.map_or(0, |g| g.width),
            geometry.map_or(0, |g| g.height),
            inner.ctx.frames_scored().unwrap_or(0),
        );
        info.subsample = inner.ctx.config().subsample.max(1);
        drop(inner);
        let text = match fmt {
            OutputFormat::Json => json_report(&table, &record, &sf_text, &sf),
            OutputFormat::Xml => xml_report(&table, &info, &record),
            other => render_report(other, &table, &info),
        };
        write(path, text.as_bytes())?;
        if flags & REPORT_PROVENANCE_SIDECAR != 0 {
            let sidecar = format!("{path}.provenance.json");
            write(&sidecar, record.json(true).as_bytes())?;
        }
        Ok(Status::Ok)
    }
}

c_export! {
    /// Reads a JSON report for verification.
    ///
    /// # Safety
    /// `path` NULL or NUL-terminated; `out`, `error` NULL or writable.
    #[c = "Reads the JSON report at `path` for verification; `*out` is NULL on failure. VMAFX_E_IO names an unreadable path, VMAFX_E_INVALID names a path whose text is not JSON or has no `provenance` object. ABI 0.1.5."]
    pub unsafe fn vmafx_report_open(
        path: *const c_char,
        out: *mut *mut VmafxReportFile;
        error
    ) -> VmafxStatus {
        if out.is_null() {
            return param(Err(null("out")));
        }
        // SAFETY: non-NULL (checked above) and writable (this function's contract).
        unsafe { out.write(std::ptr::null_mut()) };
        // SAFETY: `path` is NULL or NUL-terminated (this function's contract).
        let path = param(unsafe { c_str(path, "path") })?;
        let bad = |status: Status, why: String| Err(fail(status, path, why)).kind(SubjectKind::Path);
        let text = match std::fs::read_to_string(path) {
            Ok(t) => t,
            Err(e) => return bad(Status::Io, format!("cannot read: {e}")),
        };
        let report: Value = match serde_json::from_str(&text) {
            Ok(v) => v,
            Err(e) => return bad(Status::Invalid, format!("not JSON: {e}")),
        };
        if !report.get("provenance").is_some_and(Value::is_object) {
            return bad(Status::Invalid, "no provenance object".into());
        }
        let file = VmafxReportFile {
            report,
            fields: Mutex::new(HashMap::new()),
        };
        // SAFETY: as above.
        unsafe { out.write(Box::into_raw(Box::new(file))) };
        Ok(Status::Ok)
    }
}

c_export! {
    /// Releases a report; NULL is a no-op.
    ///
    /// # Safety
    /// `file` NULL or a live report, released once.
    #[c = "Releases a report; NULL is a no-op. ABI 0.1.5."]
    pub unsafe fn vmafx_report_close(file: *mut VmafxReportFile) {
        if !file.is_null() {
            // SAFETY: a live report made by `Box::into_raw` in vmafx_report_open, released
            // once (this function's contract).
            drop(unsafe { Box::from_raw(file) });
        }
    }
}

/// The member of `v` at `path` (`a.b[2].c`).
fn member<'a>(v: &'a Value, path: &str) -> Option<&'a Value> {
    let mut cur = v;
    for part in path.split('.') {
        let (name, rest) = match part.find('[') {
            Some(at) => (&part[..at], &part[at..]),
            None => (part, ""),
        };
        if !name.is_empty() {
            cur = cur.get(name)?;
        }
        let mut rest = rest;
        while let Some(r) = rest.strip_prefix('[') {
            let (index, tail) = r.split_once(']')?;
            cur = cur.get(index.parse::<usize>().ok()?)?;
            rest = tail;
        }
        if !rest.is_empty() {
            return None;
        }
    }
    Some(cur)
}

c_export! {
    /// The value of the report member at `path`, or NULL.
    ///
    /// # Safety
    /// `file` NULL or live; `path` NULL or NUL-terminated.
    #[c = "The value of the report member at `path` (`provenance.models[0].sha256`, `frames[3].metrics.vmaf`): a string's characters, a number, `true`, `false` or `null` as text; NULL when absent, when it is an object or an array, or for NULL arguments. Lives as long as the report. ABI 0.1.5."]
    pub unsafe fn vmafx_report_field(
        file: *const VmafxReportFile,
        path: *const c_char
    ) -> *const c_char {
        // SAFETY: `file` is NULL or live (this function's contract).
        let Some(f) = (unsafe { file.as_ref() }) else {
            return std::ptr::null();
        };
        // SAFETY: `path` is NULL or NUL-terminated (this function's contract).
        let Ok(p) = (unsafe { c_str(path, "path") }) else {
            return std::ptr::null();
        };
        let text = match member(&f.report, p) {
            Some(Value::String(s)) => s.clone(),
            Some(v @ (Value::Number(_) | Value::Bool(_) | Value::Null)) => v.to_string(),
            _ => return std::ptr::null(),
        };
        let mut fields = f.fields.lock().unwrap_or_else(|e| e.into_inner());
        fields
            .entry(p.to_string())
            .or_insert_with(|| CString::new(text.replace('\0', " ")).unwrap_or_default())
            .as_ptr()
    }
}

c_export! {
    /// Checks a report against its record, and against a re-run when `rerun` is not NULL.
    ///
    /// # Safety
    /// `recorded`, `rerun` NULL or live; `error` NULL or writable.
    #[c = "Checks `recorded`: with `rerun` (a report of the same configuration made again), every configuration field of the record and every score equal bit for bit; then its record's digest, and for a lossless `score_format` (%.17g) its scores' digest. VMAFX_E_MISMATCH names the first field that differs (`provenance.models[0].sha256`, `frames[3].metrics.vmaf`, `provenance.digest`) with both values; the build, the device and the timing may differ. VMAFX_E_INVALID names a NULL `recorded`. ABI 0.1.5."]
    pub unsafe fn vmafx_report_verify(
        recorded: *const VmafxReportFile,
        rerun: *const VmafxReportFile;
        error
    ) -> VmafxStatus {
        // SAFETY: `recorded` is NULL or live (this function's contract).
        let a = param(unsafe { recorded.as_ref() }.ok_or_else(|| null("recorded")))?;
        // SAFETY: `rerun` is NULL or live (this function's contract).
        let b = unsafe { rerun.as_ref() };
        match verify(&a.report, b.map(|b| &b.report)) {
            Ok(()) => Ok(Status::Ok),
            Err(m) => param(Err(fail(
                Status::Mismatch,
                &m.field,
                format!("recorded {}, expected {}", m.recorded, m.expected),
            ))),
        }
    }
}
