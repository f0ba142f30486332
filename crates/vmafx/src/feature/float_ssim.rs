//! Float SSIM (`float_ssim`), as libvmaf computes it: luma only, downscaled by
//! `round(min(w, h) / 256)` first, an 11x11 Gaussian window, single precision.

use super::iqa::{box_kernel, db_ceiling, decimate, luma_to_float, ssim, ssim_db};
use super::iqa::{Image, IqaKernels, GAUSSIAN_11, IQA_KERNELS};
use super::{
    ExtractInput, Extractor, ExtractorInfo, FrameScores, Geometry, OptKind, OptSpec, OptValues,
    Ordering,
};
use crate::error::{Error, Result};

static OPTIONS: &[OptSpec] = &[
    OptSpec::flag(
        "enable_lcs",
        false,
        "also write the luminance, contrast and structure means",
    ),
    OptSpec::flag("enable_db", false, "write SSIM as dB: -10 log10(1 - ssim)"),
    OptSpec::flag(
        "clip_db",
        false,
        "cap dB scores at the value of half a code step of error",
    ),
    OptSpec {
        name: "scale",
        alias: None,
        kind: OptKind::Int(0),
        min: 0.0,
        max: 10.0,
        feature_param: false,
        help: "decimation factor (0 picks round(min(w, h) / 256), 1 none)",
    },
];

/// The extractors this module defines.
pub(crate) static EXTRACTORS: &[ExtractorInfo] = &[ExtractorInfo {
    name: "float_ssim",
    aliases: &[],
    provided: &["float_ssim"],
    options: OPTIONS,
    ordering: Ordering::Independent,
    create: |o: &OptValues| {
        Ok(Box::new(FloatSsim {
            enable_lcs: o.bool("enable_lcs"),
            enable_db: o.bool("enable_db"),
            clip_db: o.bool("clip_db"),
            scale_option: o.int("scale") as usize,
            scale: 1,
            max_db: f64::INFINITY,
            kernels: IqaKernels::SCALAR,
            ready: false,
            r: Image::default(),
            d: Image::default(),
        }))
    },
}];

struct FloatSsim {
    enable_lcs: bool,
    enable_db: bool,
    clip_db: bool,
    scale_option: usize,
    scale: usize,
    max_db: f64,
    /// The IQA row kernels, picked in `init`.
    kernels: IqaKernels,
    /// Whether `init` ran.
    ready: bool,
    r: Image,
    d: Image,
}

/// libvmaf's iqa `_round`: halves away from zero.
fn iqa_round(a: f32) -> i32 {
    let t = a as i32;
    if a - t as f32 >= 0.5 {
        t + if a > 0.0 { 1 } else { -1 }
    } else {
        t
    }
}

impl Extractor for FloatSsim {
    fn init(&mut self, g: Geometry) -> Result<()> {
        super::iqa::float_scaler(g.bpc)?;
        self.scale = if self.scale_option > 0 {
            self.scale_option
        } else {
            iqa_round(g.width.min(g.height) as f32 / 256.0).max(1) as usize
        };
        let scaled = |n: u32| n as usize / self.scale + (n as usize & 1);
        if self.scale > 1 && (scaled(g.width) < 11 || scaled(g.height) < 11)
            || g.width < 11
            || g.height < 11
        {
            return Err(Error::invalid(
                "float_ssim",
                format!(
                    "{}x{} is below the 11x11 SSIM window after downscaling by {}",
                    g.width, g.height, self.scale
                ),
            ));
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
        let m = if self.scale > 1 {
            let (n, k) = (self.scale, box_kernel(self.scale));
            let ik = &self.kernels;
            ssim(
                ik,
                &decimate(ik, &self.r, n, &k, n),
                &decimate(ik, &self.d, n, &k, n),
                &GAUSSIAN_11,
            )
        } else {
            ssim(&self.kernels, &self.r, &self.d, &GAUSSIAN_11)
        };
        let mut score = m.ssim as f64;
        if self.enable_db {
            score = ssim_db(score, self.max_db);
        }
        out.put("float_ssim", input.index, score);
        if self.enable_lcs {
            out.put("float_ssim_l", input.index, m.l as f64);
            out.put("float_ssim_c", input.index, m.c as f64);
            out.put("float_ssim_s", input.index, m.s as f64);
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
    fn matches_libvmaf_on_every_clip() {
        let Some(dir) = conformance_dir() else { return };
        let (mut same, mut total, mut worst) = (0, 0, 0f64);
        for clip in clip_ids() {
            let log = expected(&dir, clip, "extra_features").unwrap();
            let want = expected_metric(&log, "float_ssim").unwrap();
            let (rf, df) = load_clip(&dir, clip);
            let info = &EXTRACTORS[0];
            let mut x = (info.create)(&info.parse_options(&[]).unwrap()).unwrap();
            for (i, out) in extract_all(x.as_mut(), &rf, &df).into_iter().enumerate() {
                let (got, w) = (out.entries[0].2, want[i].unwrap());
                worst = worst.max((got - w).abs());
                assert!(
                    (got - w).abs() <= 1e-5,
                    "{clip} frame {i} float_ssim: vmafx {got:.6} libvmaf {w:.6}"
                );
                same += same_at_6(got, w) as usize;
                total += 1;
            }
        }
        eprintln!("float_ssim: {same}/{total} identical at 6 decimals, max |diff| {worst:e}");
        assert_eq!(same, total, "float_ssim should print identically");
    }

    #[test]
    fn identical_input_is_one_and_options_are_checked() {
        let f = crate::frame::FrameBuilder::new(crate::frame::PixelFormat::Yuv420p, 8, 32, 32)
            .unwrap()
            .build();
        let info = &EXTRACTORS[0];
        let mut x = (info.create)(
            &info
                .parse_options(&[("enable_lcs".into(), "true".into())])
                .unwrap(),
        )
        .unwrap();
        x.init(Geometry {
            format: f.format(),
            bpc: 8,
            width: 32,
            height: 32,
        })
        .unwrap();
        let mut out = FrameScores::default();
        x.extract(
            &ExtractInput {
                reference: &f,
                distorted: &f,
                prev_reference: None,
                prev_prev_reference: None,
                index: 0,
            },
            &mut out,
        )
        .unwrap();
        assert_eq!(out.entries.len(), 4);
        assert!(out.entries.iter().all(|e| e.2 == 1.0), "{:?}", out.entries);
        let e = info
            .parse_options(&[("scale".into(), "11".into())])
            .unwrap_err();
        assert_eq!(e.status(), crate::error::Status::Range);
        let e = info
            .parse_options(&[("bogus".into(), "1".into())])
            .unwrap_err();
        assert!(e.message().contains("unknown option"));
        let mut small = (info.create)(&info.parse_options(&[]).unwrap()).unwrap();
        let e = small
            .init(Geometry {
                format: f.format(),
                bpc: 8,
                width: 8,
                height: 8,
            })
            .err()
            .unwrap();
        assert!(e.message().contains("11x11"));
    }
}
