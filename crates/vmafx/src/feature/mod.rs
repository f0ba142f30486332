//! Feature extractors: the [`Extractor`] trait, their registry, and one module per feature.
//!
//! An extractor is described by a static [`ExtractorInfo`] (libvmaf's name, the features it
//! provides, its option table, how it orders frames) and made by its `create` function from
//! parsed options. The context makes one instance per worker thread for extractors that
//! read each frame pair on its own, and exactly one, fed in index order, for
//! [`Ordering::Temporal`] ones. Kernels keep a scalar reference version beside any SIMD one.

pub(crate) mod check;
pub mod name;
pub mod options;
pub mod reach;
pub mod registry;
pub(crate) mod scratch;

pub(crate) mod adm;
pub(crate) mod cambi;
pub(crate) mod ciede;
pub(crate) mod csf;
pub(crate) mod float_adm;
pub(crate) mod float_ansnr;
pub(crate) mod float_conv;
pub(crate) mod float_moment;
pub(crate) mod float_motion;
pub(crate) mod float_ms_ssim;
pub(crate) mod float_psnr;
pub(crate) mod float_ssim;
pub(crate) mod float_vif;
pub(crate) mod iqa;
pub(crate) mod motion;
pub(crate) mod null;
pub(crate) mod psnr;
pub(crate) mod psnr_hvs;
pub(crate) mod speed;
pub(crate) mod vif;

#[cfg(test)]
pub(crate) mod extract_all;
#[cfg(test)]
mod test_extractors;

use crate::cpu::CpuLevel;
use crate::error::Result;
use crate::frame::{Frame, MemoryKind};

// Extractors name the geometry they are initialised with often; it lives with the frame.
pub(crate) use crate::frame::Geometry;

pub use options::{OptKind, OptSpec, OptValue, OptValues};
pub use reach::Reach;

/// How an extractor's instances may be fed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ordering {
    /// Any instance, any order: each pair is scored on its own.
    Independent,
    /// Any instance, any order, but the context hands it the reference frames of the one and
    /// two previous indices (libvmaf's PREV_REF extractors, such as motion).
    PrevRef,
    /// One instance, called in strictly increasing index order (state carried across frames).
    Temporal,
}

/// What an extractor reads for one index.
#[derive(Debug, Clone, Copy)]
pub struct ExtractInput<'a> {
    /// The reference frame.
    pub reference: &'a Frame,
    /// The distorted frame.
    pub distorted: &'a Frame,
    /// The reference frame of index - 1 (only for [`Ordering::PrevRef`]; `None` at index 0).
    pub prev_reference: Option<&'a Frame>,
    /// The reference frame of index - 2 (only for [`Ordering::PrevRef`]).
    pub prev_prev_reference: Option<&'a Frame>,
    /// The frame index.
    pub index: u64,
}

/// Scores one extraction writes, in the order written. Keys are collector names (see
/// [`name::feature_name`]).
#[derive(Debug, Default, Clone)]
pub struct FrameScores {
    /// (feature name, index, value), in the order written.
    pub entries: Vec<(String, u64, f64)>,
}

impl FrameScores {
    /// Records `value` for `name` at `index`.
    pub fn put(&mut self, name: &str, index: u64, value: f64) {
        self.entries.push((name.to_string(), index, value));
    }
}

/// Read and write access to collected scores during [`Extractor::flush`].
pub trait ScoreStore {
    /// The score of `name` at `index`, if collected.
    fn get(&self, name: &str, index: u64) -> Option<f64>;
    /// Records `value` for `name` at `index`.
    fn put(&mut self, name: &str, index: u64, value: f64);
    /// Records a whole-run value (libvmaf's `aggregate_metrics`, such as psnr's `apsnr_y`);
    /// a second value for `name` replaces the first.
    fn put_aggregate(&mut self, name: &str, value: f64);
}

/// A feature extractor instance.
pub trait Extractor: Send {
    /// Prepares for frames of `geometry`; refuses sizes or formats it cannot score.
    fn init(&mut self, geometry: Geometry) -> Result<()>;

    /// Scores one pair, writing into `out`.
    fn extract(&mut self, input: &ExtractInput<'_>, out: &mut FrameScores) -> Result<()>;

    /// Called once, after `init`, when the run begins at frame `first` > 0: a chunk of a
    /// longer video, fed from its pre-roll. Frames before `first` exist but are not fed, so
    /// an extractor with history writes nothing that would need them (instead of failing
    /// for want of a previous frame). Extractors without history ignore it.
    fn start_at(&mut self, _first: u64) {}

    /// The level of the kernel table `init` picked, for extractors with SIMD kernels (`None`
    /// for the others, and before `init`): what the tests read to see that `VMAFX_CPU`,
    /// `--cpumask` and `crate::cpu::with_level` reach every table.
    fn kernel_level(&self) -> Option<CpuLevel> {
        None
    }

    /// The kernel families whose tables `init` picks from, by the names the kernel
    /// checker gives them (`vif`, `float_conv`, ...); empty for extractors without SIMD
    /// kernels. The tests derive from them that every family is checked, and which level
    /// [`Extractor::kernel_level`] must report under each cap.
    fn kernel_families(&self) -> &'static [&'static str] {
        &[]
    }

    /// Called once after the last frame; temporal features write their late scores here.
    fn flush(&mut self, _store: &mut dyn ScoreStore) -> Result<()> {
        Ok(())
    }

    /// Admission (ADR-1929 item 9): `Ok` if this extractor reads frames in `memory`, or the
    /// reason it does not. CPU extractors read host memory only: a device frame would need a
    /// host copy, which the import rule forbids.
    fn reads_memory(&self, memory: MemoryKind) -> std::result::Result<(), String> {
        match memory {
            MemoryKind::Host => Ok(()),
            other => Err(format!(
                "reads host memory only; {} would need a host copy of device memory",
                other.name()
            )),
        }
    }
}

/// The static description of an extractor.
pub struct ExtractorInfo {
    /// libvmaf's extractor name (`vif`, `adm`, `motion`, `psnr`, `float_ssim`, ...).
    pub name: &'static str,
    /// Other names that select it (VMAFx's `motion_v2`, ...).
    pub aliases: &'static [&'static str],
    /// Long names of the features it can write (for model lookup).
    pub provided: &'static [&'static str],
    /// Its option table.
    pub options: &'static [OptSpec],
    /// How instances are fed.
    pub ordering: Ordering,
    /// Makes an instance from parsed options.
    pub create: fn(&OptValues) -> Result<Box<dyn Extractor>>,
}

impl std::fmt::Debug for ExtractorInfo {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ExtractorInfo")
            .field("name", &self.name)
            .field("ordering", &self.ordering)
            .finish()
    }
}

impl ExtractorInfo {
    /// Parses an option string (`name=value:name=value`) against this extractor's table.
    pub fn parse_options(&self, pairs: &[(String, String)]) -> Result<OptValues> {
        OptValues::parse(self.name, self.options, pairs)
    }

    /// Whether `name` selects this extractor.
    pub fn answers_to(&self, name: &str) -> bool {
        self.name == name || self.aliases.contains(&name)
    }
}
