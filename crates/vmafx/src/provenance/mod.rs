//! Provenance records: how a run's scores were made (which build, CPU level, device,
//! models with their SHA-256 digests and overrides, extractors with their options, the
//! caller's annotations and encode record), in RFC 8785 canonical JSON, with a digest that
//! covers the record and the scores but not the timing, and the check of a report against
//! its record or a re-run (VMAFx's `provenance.h` and `report.h`, ABI 0.1.5).
//!
//! The record is plain data: a face (the C ABI, the command line) fills the fields it
//! knows from its context, [`Record::seal`] adds the build facts and the digest.

mod build_facts;
mod canonical;
mod context_record;
mod digest;
pub mod printf;
mod record;
pub mod report;
mod verify;

pub use build_facts::BuildFacts;
pub use canonical::canonical_json;
pub use context_record::context_record;
pub use digest::{digest_of_value, scores_digest, sha256_tag};
pub use record::{backend_name, FeatureRecord, FeatureSource, ModelRecord, Record};
pub use verify::{verify, verify_log, Mismatch};

#[cfg(test)]
mod tests;
