//! `speed_chroma`: SpEED of the U and V planes, and their mean.

use super::compute::{copy_plane, Speed};
use super::params::params;
use crate::error::{Error, Result};
use crate::feature::name::feature_name;
use crate::feature::{ExtractInput, Extractor, FrameScores, Geometry, OptValues};
use crate::frame::{Frame, PixelFormat};

/// The features `speed_chroma` writes.
pub(super) const PROVIDED: [&str; 3] = [
    "Speed_chroma_feature_speed_chroma_u_score",
    "Speed_chroma_feature_speed_chroma_v_score",
    "Speed_chroma_feature_speed_chroma_uv_score",
];

const NAME: &str = "speed_chroma";

/// Makes a `speed_chroma` instance from parsed options.
pub(super) fn create(o: &OptValues) -> Result<Box<dyn Extractor>> {
    let p = params(NAME, o, o.int("speed_weight_var_mode"))?;
    let params_sfx = o.non_default_params();
    Ok(Box::new(SpeedChroma {
        p,
        names: PROVIDED.map(|f| feature_name(f, &params_sfx)),
        max_val: o.double("speed_max_val"),
        state: None,
    }))
}

struct State {
    speed: Speed,
    size: (u32, u32),
    r: Vec<f32>,
    d: Vec<f32>,
}

struct SpeedChroma {
    p: super::compute::Params,
    names: [String; 3],
    max_val: f64,
    state: Option<State>,
}

impl SpeedChroma {
    fn channel(st: &mut State, r: &Frame, d: &Frame, c: usize) -> Result<(f32, bool)> {
        for (f, what) in [(r, "reference"), (d, "distorted")] {
            if f.planes().len() <= c {
                return Err(Error::invalid(
                    NAME,
                    format!("{what} frame has no plane {c}"),
                ));
            }
            let pl = f.plane(c);
            if (pl.width, pl.height) != st.size {
                return Err(Error::invalid(
                    NAME,
                    format!(
                        "{what} chroma plane {c} is {}x{}, expected {}x{}",
                        pl.width, pl.height, st.size.0, st.size.1
                    ),
                ));
            }
        }
        let s = st.speed.stride;
        copy_plane(r, c, &mut st.r, s, &st.speed.rows_read);
        copy_plane(d, c, &mut st.d, s, &st.speed.rows_read);
        Ok(st.speed.score(&mut st.r, &mut st.d))
    }
}

impl Extractor for SpeedChroma {
    fn kernel_level(&self) -> Option<crate::cpu::CpuLevel> {
        self.state.as_ref().map(|s| s.speed.kernels.level)
    }

    fn kernel_families(&self) -> &'static [&'static str] {
        &["speed"]
    }

    fn init(&mut self, g: Geometry) -> Result<()> {
        let (w, h) = match g.format {
            PixelFormat::Yuv420p => (g.width / 2, g.height / 2),
            PixelFormat::Yuv422p => (g.width / 2, g.height),
            PixelFormat::Yuv444p => (g.width, g.height),
            f => {
                return Err(Error::invalid(
                    NAME,
                    format!(
                        "speed_chroma needs planar 4:2:0, 4:2:2 or 4:4:4 input, not {}",
                        f.name()
                    ),
                ))
            }
        };
        let speed = Speed::new(self.p.clone(), w as usize, h as usize, NAME, "chroma plane")?;
        self.state = Some(State {
            r: speed.plane(),
            d: speed.plane(),
            speed,
            size: (w, h),
        });
        Ok(())
    }

    fn extract(&mut self, input: &ExtractInput<'_>, out: &mut FrameScores) -> Result<()> {
        let Some(st) = self.state.as_mut() else {
            return Err(Error::invalid(NAME, "extract called before init"));
        };
        let (u, err_u) = Self::channel(st, input.reference, input.distorted, 1)?;
        let (v, err_v) = Self::channel(st, input.reference, input.distorted, 2)?;
        let uv = match (err_u, err_v) {
            (true, false) => v,
            (false, true) => u,
            _ => ((u + v) as f64 / 2.0) as f32,
        };
        let clip = |x: f32| {
            if (x as f64) < self.max_val {
                x as f64
            } else {
                self.max_val
            }
        };
        for (name, x) in self.names.iter().zip([u, v, uv]) {
            out.put(name, input.index, clip(x));
        }
        Ok(())
    }
}
