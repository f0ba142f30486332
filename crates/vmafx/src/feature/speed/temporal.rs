//! `speed_temporal`: SpEED of the luma difference between each frame and the one before
//! (0 at the first frame).
//!
//! libvmaf keeps the last two frames in buffers picked by index parity, so it is only
//! defined when indices run 0, 1, 2, ...; where they do not (a first index above 0, or
//! gaps) this differences against the previous frame it was given and writes 0 for the
//! first one, instead of reading a buffer never written.

use super::compute::{copy_plane, Speed};
use super::filter::subtract;
use super::params::params;
use crate::error::{Error, Result};
use crate::feature::name::feature_name;
use crate::feature::{ExtractInput, Extractor, FrameScores, Geometry, OptValues};

/// The feature `speed_temporal` writes.
pub(super) const PROVIDED: &str = "Speed_temporal_feature_speed_temporal_score";

const NAME: &str = "speed_temporal";

/// Makes a `speed_temporal` instance from parsed options (libvmaf leaves its weighting
/// mode at 0 and does not apply speed_max_val).
pub(super) fn create(o: &OptValues) -> Result<Box<dyn Extractor>> {
    Ok(Box::new(SpeedTemporal {
        p: params(NAME, o, 0)?,
        name: feature_name(PROVIDED, &o.non_default_params()),
        use_ref_diff: o.bool("speed_use_ref_diff"),
        state: None,
        first: 0,
    }))
}

struct State {
    speed: Speed,
    size: (u32, u32),
    /// Previous and current reference / distorted planes.
    prev_r: Vec<f32>,
    prev_d: Vec<f32>,
    cur_r: Vec<f32>,
    cur_d: Vec<f32>,
    /// Index of the previous frame, if any.
    last: Option<u64>,
}

struct SpeedTemporal {
    p: super::compute::Params,
    name: String,
    use_ref_diff: bool,
    state: Option<State>,
    /// The first index fed (above 0 for a chunk fed from its pre-roll).
    first: u64,
}

impl Extractor for SpeedTemporal {
    fn kernel_level(&self) -> Option<crate::cpu::CpuLevel> {
        self.state.as_ref().map(|s| s.speed.kernels.level)
    }

    fn kernel_families(&self) -> &'static [&'static str] {
        &["speed"]
    }

    fn init(&mut self, g: Geometry) -> Result<()> {
        let speed = Speed::new(
            self.p.clone(),
            g.width as usize,
            g.height as usize,
            NAME,
            "luma plane",
        )?;
        self.state = Some(State {
            prev_r: speed.plane(),
            prev_d: speed.plane(),
            cur_r: speed.plane(),
            cur_d: speed.plane(),
            speed,
            size: (g.width, g.height),
            last: None,
        });
        Ok(())
    }

    fn extract(&mut self, input: &ExtractInput<'_>, out: &mut FrameScores) -> Result<()> {
        let Some(st) = self.state.as_mut() else {
            return Err(Error::invalid(NAME, "extract called before init"));
        };
        if let Some(last) = st.last.filter(|&l| input.index <= l) {
            return Err(Error::invalid(
                NAME,
                format!(
                    "frames must come in increasing index order: got index {} after {last}",
                    input.index
                ),
            ));
        }
        for (f, what) in [
            (input.reference, "reference"),
            (input.distorted, "distorted"),
        ] {
            let pl = f.plane(0);
            if (pl.width, pl.height) != st.size {
                return Err(Error::invalid(
                    NAME,
                    format!(
                        "{what} luma is {}x{}, expected {}x{}",
                        pl.width, pl.height, st.size.0, st.size.1
                    ),
                ));
            }
        }
        let first = st.last.is_none();
        st.last = Some(input.index);
        std::mem::swap(&mut st.prev_r, &mut st.cur_r);
        std::mem::swap(&mut st.prev_d, &mut st.cur_d);
        let s = st.speed.stride;
        let rows = &st.speed.rows_read;
        copy_plane(input.reference, 0, &mut st.cur_r, s, rows);
        copy_plane(input.distorted, 0, &mut st.cur_d, s, rows);
        if first {
            // A chunk's pre-roll starts past frame 0: its first frame has no score here.
            if input.index != self.first || self.first == 0 {
                out.put(&self.name, input.index, 0.0);
            }
            return Ok(());
        }
        let w = st.size.0 as usize;
        let base = if self.use_ref_diff {
            &st.cur_r
        } else {
            &st.cur_d
        };
        // Only the rows SpEED reads (every row when prescaling).
        for y in (0..st.speed.rows_read.len()).filter(|&y| st.speed.rows_read[y]) {
            let row = y * s..y * s + w;
            subtract(&mut st.prev_r[row.clone()], &st.cur_r[row.clone()], w, 1, s);
            subtract(&mut st.prev_d[row.clone()], &base[row], w, 1, s);
        }
        let (score, _) = st.speed.score(&mut st.prev_r, &mut st.prev_d);
        out.put(&self.name, input.index, score as f64);
        Ok(())
    }

    fn start_at(&mut self, first: u64) {
        self.first = first;
    }
}
