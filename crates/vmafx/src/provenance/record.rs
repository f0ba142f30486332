//! The record itself: what a run's scores were made with, as plain data, and its canonical
//! JSON.

use serde_json::{Map, Value};

use super::build_facts::BuildFacts;
use super::canonical::canonical_json;
use super::digest::sha256_tag;

/// Where the scores of a feature come from (VMAFx's `VmafxFeatureSource`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FeatureSource {
    /// Not recorded.
    Unknown = 0,
    /// Computed by a registered feature extractor.
    Extractor = 1,
    /// Computed outside the library and imported.
    Imported = 2,
    /// Predicted by a model from other features.
    Model = 3,
}

impl FeatureSource {
    /// The lower-case value name the JSON carries.
    pub fn name(self) -> &'static str {
        match self {
            FeatureSource::Unknown => "unknown",
            FeatureSource::Extractor => "extractor",
            FeatureSource::Imported => "imported",
            FeatureSource::Model => "model",
        }
    }
}

/// One model a run scored with.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ModelRecord {
    /// Name of the model's scores (`vmaf`).
    pub name: String,
    /// Built-in version, or the path of the file it was loaded from.
    pub version: String,
    /// SHA-256 of the model bytes as loaded, 64 lower-case hex digits.
    pub sha256: String,
    /// Load flags (`VMAFX_MODEL_*` bits).
    pub flags: u64,
    /// Feature option overrides, `<extractor>.<key>=<value>` joined by `:`, in the order
    /// applied; empty when none.
    pub overrides: String,
}

/// How the scores of one feature were made.
#[derive(Debug, Clone, PartialEq)]
pub struct FeatureRecord {
    /// The feature's name as the scores carry it in reports.
    pub feature: String,
    /// The extractor that wrote it; the model's name for a model score; empty when imported.
    pub extractor: String,
    /// `c` for the reference extractor of its name (the ABI's name for that role); empty when
    /// no extractor wrote it.
    pub implementation: String,
    /// Backend the extractor ran on (`VmafxBackend`; 0 the CPU).
    pub backend: u32,
    /// Device that ran it (`cpu`).
    pub device: String,
    /// Runtime of that device (the host architecture for the CPU).
    pub runtime: String,
    /// Options of the extractor instance, `key=value` joined by `:` in key order.
    pub options: String,
    /// How the scores relate to the CPU extractor's: `cpu-reference` for the CPU extractor
    /// itself; empty when no extractor wrote them.
    pub exactness: String,
    /// Where the scores come from.
    pub source: FeatureSource,
}

/// Everything a record holds. Strings are empty and numbers 0 until filled.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Record {
    /// ABI version of the library that ran (major, minor, patch); `None` outside the C ABI.
    pub abi: Option<[u32; 3]>,
    /// Backend name (`cpu`) of the context's device.
    pub active_backend: String,
    /// Registered feature extractors.
    pub n_extractors: u32,
    /// The build (filled by [`Record::seal`]).
    pub build: BuildFacts,
    /// Instruction-set level the CPU extractors dispatch to.
    pub simd: String,
    /// Index of the device within its backend (0 for the CPU).
    pub device_index: i32,
    /// Device name (`cpu`).
    pub device_name: String,
    /// Runtime of the device (the host architecture for the CPU).
    pub device_runtime: String,
    /// Worker threads.
    pub n_threads: u32,
    /// Frame subsampling (1: every frame).
    pub n_subsample: u32,
    /// CPU instruction-set bits the caller disabled.
    pub cpumask: u64,
    /// GPU dispatch bits the caller disabled.
    pub gpumask: u64,
    /// Luma width of the frames; 0 before the first.
    pub frame_width: u32,
    /// Luma height of the frames.
    pub frame_height: u32,
    /// Pixel layout name (`yuv420p`) and its `VmafxPixelFormat` value.
    pub pix_fmt: (String, u32),
    /// Bits per component.
    pub bpc: u32,
    /// Frames submitted.
    pub n_frames: u64,
    /// Models, in the order used.
    pub models: Vec<ModelRecord>,
    /// Features with scores, in byte order of their names.
    pub features: Vec<FeatureRecord>,
    /// The caller's annotations, in the order added.
    pub annotations: Vec<(String, String)>,
    /// `sha256:<hex>` of the encode record of the distorted input, or empty.
    pub encode_record: String,
    /// `sha256:<hex>` over every per-frame score (see [`super::scores_digest`]).
    pub scores_digest: String,
    /// Nanoseconds from the first frame to the flush (to now before it): timing, outside the
    /// digest.
    pub elapsed_ns: u64,
    /// `sha256:<hex>` of the canonical JSON without `digest` and `elapsed_ns` (set by
    /// [`Record::seal`]).
    pub digest: String,
}

impl Record {
    /// Fills the build facts and the digest (call after every other field is set).
    pub fn seal(&mut self) {
        self.build = BuildFacts::current();
        self.digest = sha256_tag(canonical_json(&self.to_value(false)).as_bytes());
    }

    /// The record as a JSON value: integers as numbers, 64-bit integers as strings, enums by
    /// their lower-case value names; without `digest` and `elapsed_ns` when `full` is false.
    pub fn to_value(&self, full: bool) -> Value {
        let mut m = Map::new();
        let s = |v: &str| Value::String(v.to_string());
        let n = |v: u32| Value::from(v);
        let big = |v: u64| Value::String(v.to_string());
        if let Some([a, b, c]) = self.abi {
            m.insert("abi_major".into(), n(a));
            m.insert("abi_minor".into(), n(b));
            m.insert("abi_patch".into(), n(c));
        }
        m.insert("active_backend".into(), s(&self.active_backend));
        m.insert("n_extractors".into(), n(self.n_extractors));
        m.insert("version".into(), s(&self.build.version));
        m.insert("commit".into(), s(&self.build.commit));
        m.insert("build_id".into(), s(&self.build.build_id));
        m.insert("compiler".into(), s(&self.build.compiler));
        m.insert("build_flags".into(), s(&self.build.build_flags));
        m.insert("fp_policy".into(), s(&self.build.fp_policy));
        m.insert("backends".into(), s(&self.build.backends));
        m.insert("rust_twins".into(), n(self.build.rust_twins));
        m.insert("simd".into(), s(&self.simd));
        m.insert("device_index".into(), Value::from(self.device_index));
        m.insert("device_name".into(), s(&self.device_name));
        m.insert("device_runtime".into(), s(&self.device_runtime));
        m.insert("n_threads".into(), n(self.n_threads));
        m.insert("n_subsample".into(), n(self.n_subsample));
        m.insert("cpumask".into(), big(self.cpumask));
        m.insert("gpumask".into(), big(self.gpumask));
        m.insert("frame_width".into(), n(self.frame_width));
        m.insert("frame_height".into(), n(self.frame_height));
        m.insert("pix_fmt".into(), s(&self.pix_fmt.0));
        m.insert("bpc".into(), n(self.bpc));
        m.insert("n_frames".into(), big(self.n_frames));
        m.insert("n_models".into(), n(self.models.len() as u32));
        m.insert("n_features".into(), n(self.features.len() as u32));
        m.insert("n_annotations".into(), n(self.annotations.len() as u32));
        m.insert("encode_record".into(), s(&self.encode_record));
        m.insert("scores_digest".into(), s(&self.scores_digest));
        let models = self.models.iter().map(|r| {
            let mut o = Map::new();
            o.insert("name".into(), s(&r.name));
            o.insert("version".into(), s(&r.version));
            o.insert("sha256".into(), s(&r.sha256));
            o.insert("flags".into(), big(r.flags));
            o.insert("overrides".into(), s(&r.overrides));
            Value::Object(o)
        });
        m.insert("models".into(), Value::Array(models.collect()));
        let features = self.features.iter().map(|r| {
            let mut o = Map::new();
            o.insert("feature".into(), s(&r.feature));
            o.insert("extractor".into(), s(&r.extractor));
            o.insert("implementation".into(), s(&r.implementation));
            o.insert("backend".into(), s(backend_name(r.backend)));
            o.insert("device".into(), s(&r.device));
            o.insert("runtime".into(), s(&r.runtime));
            o.insert("options".into(), s(&r.options));
            o.insert("exactness".into(), s(&r.exactness));
            o.insert("source".into(), s(r.source.name()));
            Value::Object(o)
        });
        m.insert("features".into(), Value::Array(features.collect()));
        let notes = self.annotations.iter().map(|(k, v)| {
            let mut o = Map::new();
            o.insert("key".into(), s(k));
            o.insert("value".into(), s(v));
            Value::Object(o)
        });
        m.insert("annotations".into(), Value::Array(notes.collect()));
        if full {
            m.insert("elapsed_ns".into(), big(self.elapsed_ns));
            m.insert("digest".into(), s(&self.digest));
        }
        Value::Object(m)
    }

    /// The record's RFC 8785 JSON: everything when `full`, else the bytes the digest covers.
    pub fn json(&self, full: bool) -> String {
        canonical_json(&self.to_value(full))
    }
}

/// The lower-case name of a `VmafxBackend` value.
pub fn backend_name(backend: u32) -> &'static str {
    match backend {
        0 => "cpu",
        1 => "cuda",
        2 => "sycl",
        3 => "vulkan",
        4 => "hip",
        5 => "metal",
        _ => "unknown",
    }
}
