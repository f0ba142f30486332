//! The engine state of one context: the engine [`Context`] and the models and model sets
//! it uses, each with the reference the context holds. Below every C face that reads it
//! (contexts, scores, windows) and below the window threads.

use std::collections::{BTreeMap, HashMap};
use std::ffi::{c_char, CString};
use std::sync::Arc;
use std::time::Instant;

use vmafx::context::{Context, ModelHandle};
use vmafx::Status;

use crate::abi::SubjectKind;
use crate::error::Failure;
use crate::model::VmafxModel;
use crate::model_set::VmafxModelSet;

/// The tiny model attached to a context (dnn.h), shared with the engine that runs it on
/// every frame; nothing in a build without the `dnn` feature.
#[cfg(feature = "dnn")]
pub(crate) type TinySlot = Option<Arc<std::sync::Mutex<vmafx_dnn::TinyModelScorer>>>;
/// The tiny model attached to a context: none can be in a build without the `dnn` feature.
#[cfg(not(feature = "dnn"))]
pub(crate) type TinySlot = ();

/// The engine state behind a context's lock.
pub(crate) struct Inner {
    pub(crate) ctx: Context,
    /// Models the context uses, each with a reference held, and the engine's handle.
    pub(crate) models: Vec<(Arc<VmafxModel>, ModelHandle)>,
    /// Model sets the context uses, likewise.
    pub(crate) model_sets: Vec<(Arc<VmafxModelSet>, ModelHandle)>,
    /// What the provenance record keeps beside the engine.
    pub(crate) notes: Notes,
    /// The tiny model attached to the context (dnn.h), when the build has the runtime.
    #[cfg_attr(not(feature = "dnn"), allow(dead_code))]
    pub(crate) tiny: TinySlot,
    /// The context options and colour defaults (`crate::context_options`).
    pub(crate) options: ContextOptions,
}

/// The options of `vmafx_context_set_option()` and the defaults of
/// `vmafx_context_set_default_color()`.
#[derive(Debug, Clone)]
pub(crate) struct ContextOptions {
    /// `perceptual_weight`: weight frames by the salience of their side data.
    pub(crate) perceptual_weight: bool,
    /// `perceptual_weight_strength`, finite and >= 0; 1 by default.
    pub(crate) perceptual_weight_strength: f64,
    /// `check_sample_range`: refuse a 9- to 15-bit sample above 2^bpc - 1 at submit.
    pub(crate) check_sample_range: bool,
    /// The colour of reference and distorted frames that carry none.
    pub(crate) default_color: [Option<crate::abi::VmafxColor>; 2],
    /// The salience (VMAFx's, stored as its `float`) of each frame given side data by
    /// `vmafx_context_attach_sidedata()`, by frame index; one entry per attached frame.
    pub(crate) salience: BTreeMap<u64, f32>,
}

impl Default for ContextOptions {
    fn default() -> Self {
        ContextOptions {
            perceptual_weight: false,
            perceptual_weight_strength: 1.0,
            check_sample_range: false,
            default_color: [None, None],
            salience: BTreeMap::new(),
        }
    }
}

/// The caller's part of a provenance record, the timing, and the strings handed to C.
#[derive(Default)]
pub(crate) struct Notes {
    /// Annotations, in the order added.
    pub(crate) annotations: Vec<(String, String)>,
    /// The encode record's digest, or empty.
    pub(crate) encode_record: String,
    /// The CPU and GPU masks of the context's configuration.
    pub(crate) masks: (u64, u64),
    /// When the first frame was submitted, and when the context was flushed.
    pub(crate) first_frame: Option<Instant>,
    /// When the context was flushed.
    pub(crate) flushed: Option<Instant>,
    /// Strings handed to C, living as long as the context (one per distinct text).
    strings: HashMap<String, CString>,
    /// The last text of vmafx_context_provenance_json().
    pub(crate) json: CString,
}

impl Notes {
    /// Notes of a context created with these CPU and GPU masks.
    pub(crate) fn with_masks(masks: (u64, u64)) -> Notes {
        Notes {
            masks,
            ..Notes::default()
        }
    }

    /// `text` as a C string that lives as long as the context.
    pub(crate) fn c(&mut self, text: &str) -> *const c_char {
        self.strings
            .entry(text.to_string())
            .or_insert_with(|| CString::new(text.replace('\0', " ")).unwrap_or_default())
            .as_ptr()
    }
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
