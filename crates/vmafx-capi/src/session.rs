//! The engine state of one context: the engine [`Context`] and the models and model sets
//! it uses, each with the reference the context holds. Below every C face that reads it
//! (contexts, scores, windows) and below the window threads.

use std::sync::Arc;

use vmafx::context::{Context, ModelHandle};
use vmafx::Status;

use crate::abi::SubjectKind;
use crate::error::Failure;
use crate::model::VmafxModel;
use crate::model_set::VmafxModelSet;

/// The engine state behind a context's lock.
pub(crate) struct Inner {
    pub(crate) ctx: Context,
    /// Models the context uses, each with a reference held, and the engine's handle.
    pub(crate) models: Vec<(Arc<VmafxModel>, ModelHandle)>,
    /// Model sets the context uses, likewise.
    pub(crate) model_sets: Vec<(Arc<VmafxModelSet>, ModelHandle)>,
}

impl Inner {
    /// The device the context scores on (the CPU without one).
    pub(crate) fn device(&self) -> vmafx::device::Device {
        self.ctx.device()
    }

    /// An admission or import-rule failure, its subject kind told from the context: a
    /// registered extractor's name is an extractor, `frame` refused for its residency is
    /// the device.
    pub(crate) fn admission_failure(&self, e: vmafx::Error) -> Failure {
        let kind = if self.ctx.features().contains(&e.subject()) {
            Some(SubjectKind::Extractor)
        } else if e.subject() == "frame" && e.status() == Status::NotSup {
            Some(SubjectKind::Device)
        } else {
            None
        };
        let mut f = Failure::from(e);
        if let Some(k) = kind {
            f.kind = k;
        }
        f
    }
}
