//! The part of a provenance record a context knows: its backend and device, extractors,
//! threads, subsampling, frame geometry, frames submitted, who wrote each feature and the
//! digest of every score written. A face adds what it holds beside the context (models with
//! their digests, annotations, the encode record, masks, timing) and seals the record.

use super::digest::scores_digest;
use super::record::{backend_name, FeatureRecord, FeatureSource, Record};
use crate::context::{Context, Writer};

/// The record of `ctx` as it stands, not sealed; `models`, `annotations`, `encode_record`,
/// `cpumask`, `gpumask`, `elapsed_ns` and `abi` are left for the caller.
pub fn context_record(ctx: &Context) -> Record {
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
                // `c`: the reference extractor of its name (the ABI's name for the role).
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
    let geometry = ctx.geometry();
    Record {
        active_backend: backend_name(backend).to_string(),
        n_extractors: ctx.features().len() as u32,
        simd: crate::cpu::level().name().to_string(),
        device_index: 0,
        device_name: backend_name(backend).to_string(),
        device_runtime: runtime,
        n_threads: config.threads as u32,
        n_subsample: config.subsample.max(1),
        frame_width: geometry.map_or(0, |g| g.width),
        frame_height: geometry.map_or(0, |g| g.height),
        pix_fmt: geometry.map_or((String::new(), 0), |g| {
            (g.format.name().to_string(), g.format as u32)
        }),
        bpc: geometry.map_or(0, |g| g.bpc),
        n_frames: ctx.frames_submitted(),
        features,
        scores_digest: scores_digest(
            written
                .iter()
                .flat_map(|s| s.values.iter().map(|&(i, v)| (s.name.clone(), i, v))),
        ),
        ..Record::default()
    }
}
