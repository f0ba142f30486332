//! A context's provenance record, built from its engine state and notes
//! (`vmafx::provenance::Record`), for the provenance and report faces.

use std::time::Instant;

use vmafx::context::Writer;
use vmafx::provenance::{backend_name, scores_digest, FeatureRecord, FeatureSource, Record};

use crate::abi::ABI_VERSION;
use crate::session::Inner;

/// The record of the context behind `inner`, sealed (build facts and digest filled).
pub(crate) fn record_of(inner: &Inner) -> Record {
    let ctx = &inner.ctx;
    let backend = ctx.device().backend() as u32;
    let config = ctx.config();
    let written = ctx.written_scores();
    let runtime = std::env::consts::ARCH.to_string();
    let features = written
        .iter()
        .map(|s| {
            let (extractor, options, source) = match &s.writer {
                Writer::Extractor { name, options } => {
                    (name.to_string(), options.clone(), FeatureSource::Extractor)
                }
                Writer::Model(name) => (name.clone(), String::new(), FeatureSource::Model),
                Writer::Imported => (String::new(), String::new(), FeatureSource::Imported),
                Writer::Unknown => (String::new(), String::new(), FeatureSource::Unknown),
            };
            let by_extractor = source == FeatureSource::Extractor;
            FeatureRecord {
                feature: s.name.clone(),
                extractor,
                implementation: if by_extractor {
                    "c".into()
                } else {
                    String::new()
                },
                backend,
                device: backend_name(backend).to_string(),
                runtime: runtime.clone(),
                options,
                exactness: if by_extractor {
                    "cpu-reference".into()
                } else {
                    String::new()
                },
                source,
            }
        })
        .collect();
    let mut models: Vec<_> = inner.models.iter().map(|(m, _)| m.origin.clone()).collect();
    models.extend(inner.model_sets.iter().map(|(s, _)| s.record()));
    let geometry = ctx.geometry();
    let notes = &inner.notes;
    let elapsed = notes.first_frame.map_or(0, |t| {
        let end = notes.flushed.unwrap_or_else(Instant::now);
        u64::try_from(end.saturating_duration_since(t).as_nanos()).unwrap_or(u64::MAX)
    });
    let mut r = Record {
        abi: Some([ABI_VERSION.0, ABI_VERSION.1, ABI_VERSION.2]),
        active_backend: backend_name(backend).to_string(),
        n_extractors: ctx.features().len() as u32,
        simd: vmafx::cpu::level().name().to_string(),
        device_index: 0,
        device_name: backend_name(backend).to_string(),
        device_runtime: runtime,
        n_threads: config.threads as u32,
        n_subsample: config.subsample.max(1),
        cpumask: notes.masks.0,
        gpumask: notes.masks.1,
        frame_width: geometry.map_or(0, |g| g.width),
        frame_height: geometry.map_or(0, |g| g.height),
        pix_fmt: geometry.map_or((String::new(), 0), |g| {
            (g.format.name().to_string(), g.format as u32)
        }),
        bpc: geometry.map_or(0, |g| g.bpc),
        n_frames: ctx.frames_submitted(),
        models,
        features,
        annotations: notes.annotations.clone(),
        encode_record: notes.encode_record.clone(),
        scores_digest: scores_digest(
            written
                .iter()
                .flat_map(|s| s.values.iter().map(|&(i, v)| (s.name.clone(), i, v))),
        ),
        elapsed_ns: elapsed,
        ..Record::default()
    };
    r.seal();
    r
}
