//! The `check-kernels` mode: with `VMAFX_CHECK_KERNELS=1`, every extractor that picked a
//! SIMD kernel table runs beside a twin instance at the scalar level, on the same real
//! frames, and the run stops with an error at the first score that differs in any bit
//! (naming the extractor, frame, score and both values). It is slow (every SIMD feature
//! is computed twice) and meant for CI and for chasing a suspected kernel defect.

use std::sync::OnceLock;

use super::{ExtractInput, Extractor, ExtractorInfo, FrameScores, Geometry, OptValues, ScoreStore};
use crate::cpu::{with_level, CpuLevel};
use crate::error::{Error, Result, Status};
use crate::frame::MemoryKind;

/// The environment variable that turns the mode on (`1` or `true`).
pub(crate) const ENV_VAR: &str = "VMAFX_CHECK_KERNELS";

/// Whether `VMAFX_CHECK_KERNELS` asks for the mode (read once).
pub(crate) fn enabled() -> bool {
    static ON: OnceLock<bool> = OnceLock::new();
    *ON.get_or_init(|| {
        std::env::var(ENV_VAR)
            .map(|v| matches!(v.trim().to_ascii_lowercase().as_str(), "1" | "true"))
            .unwrap_or(false)
    })
}

/// An extractor and its scalar twin, compared score by score.
pub(crate) struct Checked {
    name: &'static str,
    fast: Box<dyn Extractor>,
    /// The scalar twin; dropped in `init` when `fast` picked no SIMD table.
    twin: Option<Box<dyn Extractor>>,
}

impl Checked {
    /// `fast` watched by `twin`, both made from the same options of extractor `name`.
    pub(crate) fn new(
        name: &'static str,
        fast: Box<dyn Extractor>,
        twin: Box<dyn Extractor>,
    ) -> Self {
        Checked {
            name,
            fast,
            twin: Some(twin),
        }
    }

    /// The first entry where the twin's scores differ from the fast one's.
    fn compare(
        &self,
        index: u64,
        got: &[(String, u64, f64)],
        want: &[(String, u64, f64)],
    ) -> Result<()> {
        let level = self.fast.kernel_level().map_or("?", CpuLevel::name);
        let differs = |what: String| {
            Err(Error::new(
                Status::Internal,
                format!("{ENV_VAR}: {}", self.name),
                format!("frame {index}: {what} (a SIMD kernel differs from its scalar twin)"),
            ))
        };
        if got.len() != want.len() {
            return differs(format!(
                "{level} wrote {} scores, scalar {}",
                got.len(),
                want.len()
            ));
        }
        for ((gn, gi, gv), (wn, wi, wv)) in got.iter().zip(want) {
            if gn != wn || gi != wi || gv.to_bits() != wv.to_bits() {
                return differs(format!(
                    "{gn}[{gi}] is {gv:e} at {level}, scalar {wn}[{wi}] is {wv:e}"
                ));
            }
        }
        Ok(())
    }
}

impl Extractor for Checked {
    fn init(&mut self, geometry: Geometry) -> Result<()> {
        self.fast.init(geometry)?;
        match self.fast.kernel_level() {
            Some(l) if l > CpuLevel::Scalar => {
                if let Some(twin) = self.twin.as_mut() {
                    with_level(CpuLevel::Scalar, || twin.init(geometry))?;
                }
            }
            _ => self.twin = None,
        }
        Ok(())
    }

    fn extract(&mut self, input: &ExtractInput<'_>, out: &mut FrameScores) -> Result<()> {
        let start = out.entries.len();
        self.fast.extract(input, out)?;
        if let Some(twin) = self.twin.as_mut() {
            let mut want = FrameScores::default();
            twin.extract(input, &mut want)?;
            self.compare(input.index, &out.entries[start..], &want.entries)?;
        }
        Ok(())
    }

    fn kernel_level(&self) -> Option<CpuLevel> {
        self.fast.kernel_level()
    }

    fn kernel_families(&self) -> &'static [&'static str] {
        self.fast.kernel_families()
    }

    fn start_at(&mut self, first: u64) {
        self.fast.start_at(first);
        if let Some(twin) = self.twin.as_mut() {
            twin.start_at(first);
        }
    }

    /// Only the fast instance writes its late scores: they are made from per-frame values
    /// already compared.
    fn flush(&mut self, store: &mut dyn ScoreStore) -> Result<()> {
        self.fast.flush(store)
    }

    fn reads_memory(&self, memory: MemoryKind) -> std::result::Result<(), String> {
        self.fast.reads_memory(memory)
    }
}

impl ExtractorInfo {
    /// Makes an instance from parsed options: `create`, or under `VMAFX_CHECK_KERNELS=1` an
    /// instance watched by a scalar twin that stops the run at the first differing score
    /// (see `crate::feature::check`).
    pub fn instantiate(&self, options: &OptValues) -> Result<Box<dyn Extractor>> {
        instantiate(self.name, self.create, options, enabled())
    }
}

/// Makes an instance of `create` with `opts`, watched by a scalar twin when the mode is on.
pub(crate) fn instantiate(
    name: &'static str,
    create: fn(&OptValues) -> Result<Box<dyn Extractor>>,
    opts: &OptValues,
    check: bool,
) -> Result<Box<dyn Extractor>> {
    let fast = create(opts)?;
    if !check {
        return Ok(fast);
    }
    Ok(Box::new(Checked::new(name, fast, create(opts)?)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cpu::dispatch::with_planted_defect;
    use crate::frame::{FrameBuilder, PixelFormat, SamplesMut};
    use crate::testutil::twin_rng::TwinRng;

    /// Five random 8-bit frames of 96x64.
    fn frames() -> Vec<crate::frame::Frame> {
        let mut rng = TwinRng::new(7);
        (0..5)
            .map(|_| {
                let mut fb = FrameBuilder::new(PixelFormat::Yuv420p, 8, 96, 64).unwrap();
                for p in 0..3 {
                    if let SamplesMut::U8(s) = fb.plane_mut(p).samples_mut().unwrap() {
                        s.iter_mut().for_each(|v| *v = rng.range(0, 255) as u8);
                    }
                }
                fb.build()
            })
            .collect()
    }

    /// Runs `motion` checked over the frames; the first difference, if any.
    fn run_motion(fr: &[crate::frame::Frame]) -> Result<usize> {
        let info = crate::feature::registry::by_name("motion").unwrap();
        let opts = info.parse_options(&[]).unwrap();
        let mut ex = instantiate(info.name, info.create, &opts, true)?;
        let f = &fr[0];
        let g = Geometry {
            format: f.format(),
            bpc: 8,
            width: f.width(),
            height: f.height(),
        };
        ex.init(g)?;
        let mut out = FrameScores::default();
        for (i, f) in fr.iter().enumerate() {
            let input = ExtractInput {
                reference: f,
                distorted: &fr[(i + 1) % fr.len()],
                prev_reference: i.checked_sub(1).map(|j| &fr[j]),
                prev_prev_reference: i.checked_sub(2).map(|j| &fr[j]),
                index: i as u64,
            };
            ex.extract(&input, &mut out)?;
        }
        Ok(out.entries.len())
    }

    #[test]
    fn the_mode_passes_real_kernels_and_stops_at_a_planted_lane_error() {
        let fr = frames();
        let written = run_motion(&fr).unwrap();
        assert!(written >= fr.len(), "motion wrote {written} scores");
        // The planted defect sits in the AVX2 table: cap the level there (unless the
        // processor or `VMAFX_CPU` keeps the run below it).
        if with_level(CpuLevel::Avx2, crate::cpu::level) < CpuLevel::Avx2 {
            eprintln!("check-kernels: no AVX2 table at this level; the planted defect cannot run");
            return;
        }
        let err =
            with_level(CpuLevel::Avx2, || with_planted_defect(|| run_motion(&fr))).unwrap_err();
        assert_eq!(err.status(), Status::Internal);
        assert!(err.subject().contains("motion"), "{err}");
        assert!(err.message().contains("at avx2, scalar"), "{err}");
    }
}
