//! A context's provenance record: the engine's part of it
//! ([`vmafx::provenance::context_record`]) with what the C context holds beside the engine
//! (its models' and model sets' records, annotations, encode record, masks, timing).

use std::time::Instant;

use vmafx::provenance::{context_record, Record};

use crate::abi::ABI_VERSION;
use crate::session::Inner;

/// The record of the context behind `inner`, sealed (build facts and digest filled).
pub(crate) fn record_of(inner: &Inner) -> Record {
    let mut models: Vec<_> = inner.models.iter().map(|(m, _)| m.origin.clone()).collect();
    models.extend(inner.model_sets.iter().map(|(s, _)| s.record()));
    let notes = &inner.notes;
    let elapsed = notes.first_frame.map_or(0, |t| {
        let end = notes.flushed.unwrap_or_else(Instant::now);
        u64::try_from(end.saturating_duration_since(t).as_nanos()).unwrap_or(u64::MAX)
    });
    let mut r = Record {
        abi: Some([ABI_VERSION.0, ABI_VERSION.1, ABI_VERSION.2]),
        cpumask: notes.masks.0,
        gpumask: notes.masks.1,
        models,
        annotations: notes.annotations.clone(),
        encode_record: notes.encode_record.clone(),
        elapsed_ns: elapsed,
        ..context_record(&inner.ctx)
    };
    r.seal();
    r
}
