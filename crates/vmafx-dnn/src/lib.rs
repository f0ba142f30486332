//! Tiny ONNX models for vmafx: VMAFx's `vmafx/dnn.h` run on a pure-Rust ONNX engine (tract)
//! instead of ONNX Runtime.
//!
//! A model goes through the checks VMAFx's loader makes before anything runs it: a size
//! limit ([`limits`]), the operator allowlist ([`allowlist`]), the optional sidecar JSON
//! next to it ([`sidecar`], whose `sha256` is checked when present ([`digest`])). Then it
//! is opened as a [`Session`] for direct runs (planes or named tensors), or wrapped in a
//! [`TinyModelScorer`] that the engine's context runs on every frame pair
//! ([`vmafx::context::FrameScorer`]). [`verify_signature`] checks a model against the model
//! registry (its digest) and has `cosign verify-blob` verify its Sigstore bundle, as VMAFx
//! does ([`cosign`]). Every error names the model's path.
//!
//! [`sample`] writes small ONNX models in code, for tests and examples.

pub mod allowlist;
pub mod codec;
pub mod cosign;
pub mod digest;
pub mod limits;
pub mod resize;
pub mod sample;
pub mod scorer;
pub mod session;
pub mod sidecar;
pub mod signature;

pub use resize::Resize;
pub use scorer::TinyModelScorer;
pub use session::{Session, SessionOptions, Tensor};
pub use sidecar::Sidecar;
pub use signature::{verify_signature, verify_signature_using};
