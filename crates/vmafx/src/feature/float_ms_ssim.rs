//! Float MS-SSIM (`float_ms_ssim`), as libvmaf computes it: Wang's five-scale SSIM on luma,
//! scales made with the 9/7 biorthogonal low-pass filter, per-scale exponents applied to the
//! luminance, contrast and structure means.

use super::iqa::{db_ceiling, decimate, luma_to_float, ssim, ssim_db};
use super::iqa::{Image, IqaKernels, GAUSSIAN_11, IQA_KERNELS};
use super::{
    ExtractInput, Extractor, ExtractorInfo, FrameScores, Geometry, OptSpec, OptValues, Ordering,
};
use crate::error::{Error, Result};

const SCALES: usize = 5;

/// The 9/7 biorthogonal wavelet low-pass filter as the 2-D table libvmaf applies.
const LPF_2D: [[f32; 9]; 9] = [
    [
        0.000714, -0.000450, -0.002090, 0.007132, 0.016114, 0.007132, -0.002090, -0.000450,
        0.000714,
    ],
    [
        -0.000450, 0.000283, 0.001316, -0.004490, -0.010146, -0.004490, 0.001316, 0.000283,
        -0.000450,
    ],
    [
        -0.002090, 0.001316, 0.006115, -0.020867, -0.047149, -0.020867, 0.006115, 0.001316,
        -0.002090,
    ],
    [
        0.007132, -0.004490, -0.020867, 0.071207, 0.160885, 0.071207, -0.020867, -0.004490,
        0.007132,
    ],
    [
        0.016114, -0.010146, -0.047149, 0.160885, 0.363505, 0.160885, -0.047149, -0.010146,
        0.016114,
    ],
    [
        0.007132, -0.004490, -0.020867, 0.071207, 0.160885, 0.071207, -0.020867, -0.004490,
        0.007132,
    ],
    [
        -0.002090, 0.001316, 0.006115, -0.020867, -0.047149, -0.020867, 0.006115, 0.001316,
        -0.002090,
    ],
    [
        -0.000450, 0.000283, 0.001316, -0.004490, -0.010146, -0.004490, 0.001316, 0.000283,
        -0.000450,
    ],
    [
        0.000714, -0.000450, -0.002090, 0.007132, 0.016114, 0.007132, -0.002090, -0.000450,
        0.000714,
    ],
];

const ALPHAS: [f32; SCALES] = [0.0, 0.0, 0.0, 0.0, 0.1333];
const BETAS: [f32; SCALES] = [0.0448, 0.2856, 0.3001, 0.2363, 0.1333];
const GAMMAS: [f32; SCALES] = [0.0448, 0.2856, 0.3001, 0.2363, 0.1333];

static OPTIONS: &[OptSpec] = &[
    OptSpec::flag(
        "enable_lcs",
        false,
        "also write the per-scale luminance, contrast and structure",
    ),
    OptSpec::flag(
        "enable_db",
        false,
        "write MS-SSIM as dB: -10 log10(1 - ms_ssim)",
    ),
    OptSpec::flag(
        "clip_db",
        false,
        "cap dB scores at the value of half a code step of error",
    ),
];

/// The extractors this module defines.
pub(crate) static EXTRACTORS: &[ExtractorInfo] = &[ExtractorInfo {
    name: "float_ms_ssim",
    aliases: &[],
    provided: &["float_ms_ssim"],
    options: OPTIONS,
    ordering: Ordering::Independent,
    create: |o: &OptValues| {
        Ok(Box::new(MsSsim {
            enable_lcs: o.bool("enable_lcs"),
            enable_db: o.bool("enable_db"),
            clip_db: o.bool("clip_db"),
            max_db: f64::INFINITY,
            kernels: IqaKernels::SCALAR,
            ready: false,
            r: Image::default(),
            d: Image::default(),
        }))
    },
}];

struct MsSsim {
    enable_lcs: bool,
    enable_db: bool,
    clip_db: bool,
    max_db: f64,
    /// The IQA row kernels, picked in `init`.
    kernels: IqaKernels,
    /// Whether `init` ran.
    ready: bool,
    r: Image,
    d: Image,
}

/// The five-scale score and the per-scale means of one pair.
fn ms_ssim(ik: &IqaKernels, r: &Image, d: &Image) -> (f64, [[f32; 3]; SCALES]) {
    let k: Vec<f32> = LPF_2D.iter().flatten().copied().collect();
    let mut terms = [[0f32; 3]; SCALES];
    let mut score = 1.0f64;
    // The decimated pictures of the scale above 0 (scale 0 reads `r` and `d`, uncopied).
    let mut scaled: Option<(Image, Image)> = None;
    for (s, term) in terms.iter_mut().enumerate() {
        if s > 0 {
            let (pr, pd) = scaled.as_ref().map_or((r, d), |(a, b)| (a, b));
            scaled = Some((decimate(ik, pr, 2, &k, 9), decimate(ik, pd, 2, &k, 9)));
        }
        let (rs, ds) = scaled.as_ref().map_or((r, d), |(a, b)| (a, b));
        let m = ssim(ik, rs, ds, &GAUSSIAN_11);
        score *= (m.l as f64).powf(ALPHAS[s] as f64)
            * (m.c as f64).powf(BETAS[s] as f64)
            * (m.s as f64).powf(GAMMAS[s] as f64);
        *term = [m.l, m.c, m.s];
    }
    (score, terms)
}

const NAMES: [[&str; SCALES]; 3] = [
    [
        "float_ms_ssim_l_scale0",
        "float_ms_ssim_l_scale1",
        "float_ms_ssim_l_scale2",
        "float_ms_ssim_l_scale3",
        "float_ms_ssim_l_scale4",
    ],
    [
        "float_ms_ssim_c_scale0",
        "float_ms_ssim_c_scale1",
        "float_ms_ssim_c_scale2",
        "float_ms_ssim_c_scale3",
        "float_ms_ssim_c_scale4",
    ],
    [
        "float_ms_ssim_s_scale0",
        "float_ms_ssim_s_scale1",
        "float_ms_ssim_s_scale2",
        "float_ms_ssim_s_scale3",
        "float_ms_ssim_s_scale4",
    ],
];

impl Extractor for MsSsim {
    fn init(&mut self, g: Geometry) -> Result<()> {
        super::iqa::float_scaler(g.bpc)?;
        // Every scale must hold the 11x11 window (libvmaf halves, rounding down, to check).
        let (mut w, mut h) = (g.width, g.height);
        for s in 0..SCALES {
            if w < 11 || h < 11 {
                return Err(Error::invalid(
                    "float_ms_ssim",
                    format!(
                        "{}x{} is too small: scale {s} would be {w}x{h}, below the 11x11 window (each side must be at least 176)",
                        g.width, g.height
                    ),
                ));
            }
            w /= 2;
            h /= 2;
        }
        if self.clip_db {
            self.max_db = db_ceiling(g.bpc, g.width, g.height);
        }
        self.kernels = IQA_KERNELS.current();
        self.ready = true;
        Ok(())
    }

    fn kernel_level(&self) -> Option<crate::cpu::CpuLevel> {
        self.ready.then_some(self.kernels.level)
    }

    fn kernel_families(&self) -> &'static [&'static str] {
        &["iqa"]
    }

    fn extract(&mut self, input: &ExtractInput<'_>, out: &mut FrameScores) -> Result<()> {
        luma_to_float(input.reference, &mut self.r)?;
        luma_to_float(input.distorted, &mut self.d)?;
        let (mut score, terms) = ms_ssim(&self.kernels, &self.r, &self.d);
        if self.enable_db {
            score = ssim_db(score, self.max_db);
        }
        out.put("float_ms_ssim", input.index, score);
        if self.enable_lcs {
            for (c, names) in NAMES.iter().enumerate() {
                for (s, name) in names.iter().enumerate() {
                    out.put(name, input.index, terms[s][c] as f64);
                }
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::feature::extract_all::extract_all;
    use crate::testutil::*;

    #[test]
    #[cfg_attr(
        vmafx_no_corpus,
        ignore = "no conformance corpus at ../shared/conformance or VMAFX_CONFORMANCE"
    )]
    fn matches_libvmaf_where_libvmaf_runs_and_refuses_where_it_fails() {
        let Some(dir) = conformance_dir() else { return };
        let (mut same, mut total, mut worst) = (0, 0, 0f64);
        for clip in clip_ids() {
            let (rf, df) = load_clip(&dir, clip);
            let f = &rf[0];
            let g = Geometry {
                format: f.format(),
                bpc: f.bpc(),
                width: f.width(),
                height: f.height(),
            };
            let info = &EXTRACTORS[0];
            let mut x = (info.create)(&info.parse_options(&[]).unwrap()).unwrap();
            let log = expected(&dir, clip, "extra_features").unwrap();
            let Some(want) = expected_metric(&log, "float_ms_ssim") else {
                // libvmaf failed on this clip ("scale below 1x1"): vmafx must refuse it too.
                let e = x
                    .init(g)
                    .err()
                    .unwrap_or_else(|| panic!("{clip}: expected a size error"));
                assert!(e.message().contains("too small"), "{e}");
                continue;
            };
            for (i, out) in extract_all(x.as_mut(), &rf, &df).into_iter().enumerate() {
                let (got, w) = (out.entries[0].2, want[i].unwrap());
                worst = worst.max((got - w).abs());
                assert!(
                    (got - w).abs() <= 1e-5,
                    "{clip} frame {i} float_ms_ssim: vmafx {got:.6} libvmaf {w:.6}"
                );
                same += same_at_6(got, w) as usize;
                total += 1;
            }
        }
        eprintln!("float_ms_ssim: {same}/{total} identical at 6 decimals, max |diff| {worst:e}");
        assert_eq!(same, total);
    }

    #[test]
    fn small_input_is_refused_naming_the_size() {
        let info = &EXTRACTORS[0];
        let mut x = (info.create)(&info.parse_options(&[]).unwrap()).unwrap();
        let g = Geometry {
            format: crate::frame::PixelFormat::Yuv420p,
            bpc: 8,
            width: 176,
            height: 144,
        };
        let e = x.init(g).err().unwrap();
        assert!(e.message().contains("176x144"), "{e}");
        assert!(info
            .parse_options(&[("enable_db".into(), "yes".into())])
            .is_err());
    }
}
