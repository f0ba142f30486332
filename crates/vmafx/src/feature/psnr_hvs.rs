//! PSNR-HVS (`psnr_hvs`), as libvmaf computes it with Xiph's implementation: 8x8 blocks
//! every 7 samples, an integer 8x8 DCT, contrast-sensitivity weights, and masking by the
//! block's AC energy. Single precision where the original uses it.

mod dct;
mod dispatch;
mod kernels;
#[cfg(target_arch = "x86_64")]
mod x86;

/// psnr_hvs's tables for the kernel checker.
#[cfg(test)]
pub(crate) use dispatch::checkasm::CHECKASM;

use dispatch::KERNELS;
use kernels::Kernels;

use super::{
    ExtractInput, Extractor, ExtractorInfo, FrameScores, Geometry, OptSpec, OptValues, Ordering,
};
use crate::error::{Error, Result};
use crate::frame::{PixelFormat, Plane, Samples};

type Csf = [[f32; 8]; 8];

/// Contrast sensitivity of luma at the point of transparency (Xiph's table).
#[allow(clippy::excessive_precision)] // Xiph's table, digit for digit.
const CSF_Y: Csf = [
    [
        1.6193873005,
        2.2901594831,
        2.08509755623,
        1.48366094411,
        1.00227514334,
        0.678296995242,
        0.466224900598,
        0.3265091542,
    ],
    [
        2.2901594831,
        1.94321815382,
        2.04793073064,
        1.68731108984,
        1.2305666963,
        0.868920337363,
        0.61280991668,
        0.436405793551,
    ],
    [
        2.08509755623,
        2.04793073064,
        1.34329019223,
        1.09205635862,
        0.875748795257,
        0.670882927016,
        0.501731932449,
        0.372504254596,
    ],
    [
        1.48366094411,
        1.68731108984,
        1.09205635862,
        0.772819797575,
        0.605636379554,
        0.48309405692,
        0.380429446972,
        0.295774038565,
    ],
    [
        1.00227514334,
        1.2305666963,
        0.875748795257,
        0.605636379554,
        0.448996256676,
        0.352889268808,
        0.283006984131,
        0.226951348204,
    ],
    [
        0.678296995242,
        0.868920337363,
        0.670882927016,
        0.48309405692,
        0.352889268808,
        0.27032073436,
        0.215017739696,
        0.17408067321,
    ],
    [
        0.466224900598,
        0.61280991668,
        0.501731932449,
        0.380429446972,
        0.283006984131,
        0.215017739696,
        0.168869545842,
        0.136153931001,
    ],
    [
        0.3265091542,
        0.436405793551,
        0.372504254596,
        0.295774038565,
        0.226951348204,
        0.17408067321,
        0.136153931001,
        0.109083846276,
    ],
];

/// Contrast sensitivity of Cb (libvmaf uses the 4:2:0 table for every format).
#[allow(clippy::excessive_precision)] // Xiph's table, digit for digit.
const CSF_CB: Csf = [
    [
        1.91113096927,
        2.46074210438,
        1.18284184739,
        1.14982565193,
        1.05017074788,
        0.898018824055,
        0.74725392039,
        0.615105596242,
    ],
    [
        2.46074210438,
        1.58529308355,
        1.21363250036,
        1.38190029285,
        1.33100189972,
        1.17428548929,
        0.996404342439,
        0.830890433625,
    ],
    [
        1.18284184739,
        1.21363250036,
        0.978712413627,
        1.02624506078,
        1.03145147362,
        0.960060382087,
        0.849823426169,
        0.731221236837,
    ],
    [
        1.14982565193,
        1.38190029285,
        1.02624506078,
        0.861317501629,
        0.801821139099,
        0.751437590932,
        0.685398513368,
        0.608694761374,
    ],
    [
        1.05017074788,
        1.33100189972,
        1.03145147362,
        0.801821139099,
        0.676555426187,
        0.605503172737,
        0.55002013668,
        0.495804539034,
    ],
    [
        0.898018824055,
        1.17428548929,
        0.960060382087,
        0.751437590932,
        0.605503172737,
        0.514674450957,
        0.454353482512,
        0.407050308965,
    ],
    [
        0.74725392039,
        0.996404342439,
        0.849823426169,
        0.685398513368,
        0.55002013668,
        0.454353482512,
        0.389234902883,
        0.342353999733,
    ],
    [
        0.615105596242,
        0.830890433625,
        0.731221236837,
        0.608694761374,
        0.495804539034,
        0.407050308965,
        0.342353999733,
        0.295530605237,
    ],
];

/// Contrast sensitivity of Cr.
#[allow(clippy::excessive_precision)] // Xiph's table, digit for digit.
const CSF_CR: Csf = [
    [
        2.03871978502,
        2.62502345193,
        1.26180942886,
        1.11019789803,
        1.01397751469,
        0.867069376285,
        0.721500455585,
        0.593906509971,
    ],
    [
        2.62502345193,
        1.69112867013,
        1.17180569821,
        1.3342742857,
        1.28513006198,
        1.13381474809,
        0.962064122248,
        0.802254508198,
    ],
    [
        1.26180942886,
        1.17180569821,
        0.944981930573,
        0.990876405848,
        0.995903384143,
        0.926972725286,
        0.820534991409,
        0.706020324706,
    ],
    [
        1.11019789803,
        1.3342742857,
        0.990876405848,
        0.831632933426,
        0.77418706195,
        0.725539939514,
        0.661776842059,
        0.587716619023,
    ],
    [
        1.01397751469,
        1.28513006198,
        0.995903384143,
        0.77418706195,
        0.653238524286,
        0.584635025748,
        0.531064164893,
        0.478717061273,
    ],
    [
        0.867069376285,
        1.13381474809,
        0.926972725286,
        0.725539939514,
        0.584635025748,
        0.496936637883,
        0.438694579826,
        0.393021669543,
    ],
    [
        0.721500455585,
        0.962064122248,
        0.820534991409,
        0.661776842059,
        0.531064164893,
        0.438694579826,
        0.375820256136,
        0.330555063063,
    ],
    [
        0.593906509971,
        0.802254508198,
        0.706020324706,
        0.587716619023,
        0.478717061273,
        0.393021669543,
        0.330555063063,
        0.285345396658,
    ],
];

static OPTIONS: &[OptSpec] = &[];

/// The extractors this module defines.
pub(crate) static EXTRACTORS: &[ExtractorInfo] = &[ExtractorInfo {
    name: "psnr_hvs",
    aliases: &[],
    provided: &["psnr_hvs_y", "psnr_hvs_cb", "psnr_hvs_cr", "psnr_hvs"],
    options: OPTIONS,
    ordering: Ordering::Independent,
    create: |_o: &OptValues| {
        Ok(Box::new(PsnrHvs {
            bpc: 8,
            kernels: None,
        }))
    },
}];

struct PsnrHvs {
    bpc: u32,
    /// The kernel table, picked in `init`.
    kernels: Option<Kernels>,
}

/// The 8x8 block of `p` whose top-left sample is (x, y), row-major.
fn load_block(p: &Plane, x: usize, y: usize, out: &mut [i32; 64]) {
    let at = |i: usize| (y + i) * p.stride + x;
    match p.samples() {
        Samples::U8(s) => {
            for (i, o) in out.chunks_exact_mut(8).enumerate() {
                for (o, &v) in o.iter_mut().zip(&s[at(i)..][..8]) {
                    *o = v as i32;
                }
            }
        }
        Samples::U16(s) => {
            for (i, o) in out.chunks_exact_mut(8).enumerate() {
                for (o, &v) in o.iter_mut().zip(&s[at(i)..][..8]) {
                    *o = v as i32;
                }
            }
        }
    }
}

/// The masked, weighted DCT error of one plane, normalised by the peak squared.
fn plane_error(r: &Plane, d: &Plane, bpc: u32, csf: &Csf, k: &Kernels) -> f64 {
    const STEP: usize = 7;
    let mut mask = [[0f32; 8]; 8];
    for i in 0..8 {
        for j in 0..8 {
            let m = csf[i][j] as f64 * 0.3885746225901003;
            mask[i][j] = (m * m) as f32;
        }
    }
    let (w, h) = (r.width as usize, r.height as usize);
    let mut total = 0f32;
    let mut pixels = 0i32;
    let mut s = [0i32; 64];
    let mut t = [0i32; 64];
    let mut y = 0;
    while y + 7 < h {
        let mut x = 0;
        while x + 7 < w {
            load_block(r, x, y, &mut s);
            load_block(d, x, y, &mut t);
            let [(s_gvar, s_energy), (d_gvar, d_energy)] =
                block_masking_terms([&mut s, &mut t], &mask, k);
            let s_mask = (((s_energy * s_gvar) as f64).sqrt() / 32.0) as f32;
            let d_mask = (((d_energy * d_gvar) as f64).sqrt() / 32.0) as f32;
            let m = s_mask.max(d_mask);
            for i in 0..8 {
                for j in 0..8 {
                    let mut err = (s[i * 8 + j] - t[i * 8 + j]).abs() as f32;
                    if i != 0 || j != 0 {
                        let thr = m / mask[i][j];
                        err = if err < thr { 0.0 } else { err - thr };
                    }
                    let e = err * csf[i][j];
                    total += e * e;
                    pixels += 1;
                }
            }
            x += STEP;
        }
        y += STEP;
    }
    total /= pixels as f32;
    let peak = (1i32 << bpc) - 1;
    total /= (peak * peak) as f32;
    total as f64
}

/// Which 4x4 quadrant of an 8x8 block row `i`, column `j` lies in (libvmaf's order).
fn quadrant(i: usize, j: usize) -> usize {
    ((i & 12) >> 2) + ((j & 12) >> 1)
}

/// The mean of an 8x8 block of samples, and of its four 4x4 quadrants ([`quadrant`]).
/// The C sums the samples in `f32`; samples below 2^16 keep every partial sum below
/// 2^22, whole numbers `f32` holds exactly, so the sums are the integer sums, taken here
/// without a chain of float additions.
fn block_means(b: &[i32; 64]) -> (f32, [f32; 4]) {
    let mut quads = [0i32; 4];
    for (i, row) in b.chunks_exact(8).enumerate() {
        for (h, half) in row.chunks_exact(4).enumerate() {
            quads[quadrant(i, 4 * h)] += half.iter().sum::<i32>();
        }
    }
    (
        quads.iter().sum::<i32>() as f32 / 64.0,
        quads.map(|q| q as f32 / 16.0),
    )
}

/// Variance ratio of each block's quadrants to the whole, then the block's masked AC
/// energy after transforming it in place. The two blocks (reference and distorted) are
/// computed in lockstep, each in the scalar order of its own sums (which decides the
/// rounding), so the two chains of additions overlap.
fn block_masking_terms(
    b: [&mut [i32; 64]; 2],
    mask: &[[f32; 8]; 8],
    k: &Kernels,
) -> [(f32, f32); 2] {
    let mut gmean = [0f32; 2];
    let mut means = [[0f32; 4]; 2];
    for n in 0..2 {
        (gmean[n], means[n]) = block_means(b[n]);
    }
    let mut gvar = [0f32; 2];
    let mut vars = [[0f32; 4]; 2];
    for i in 0..8 {
        for j in 0..8 {
            let q = quadrant(i, j);
            for n in 0..2 {
                let v = b[n][i * 8 + j] as f32;
                gvar[n] += (v - gmean[n]) * (v - gmean[n]);
                vars[n][q] += (v - means[n][q]) * (v - means[n][q]);
            }
        }
    }
    for n in 0..2 {
        gvar[n] *= 1.0 / 63.0f32 * 64.0;
        for v in &mut vars[n] {
            *v *= 1.0 / 15.0f32 * 16.0;
        }
        if gvar[n] > 0.0 {
            let v = &vars[n];
            gvar[n] = (v[0] + v[1] + v[2] + v[3]) / gvar[n];
        }
    }
    let [b0, b1] = b;
    (k.fdct8x8)(b0);
    (k.fdct8x8)(b1);
    let blocks = [&*b0, &*b1];
    let mut energy = [0f32; 2];
    for i in 0..8 {
        for j in usize::from(i == 0)..8 {
            for n in 0..2 {
                let c = blocks[n][i * 8 + j];
                energy[n] += c.wrapping_mul(c) as f32 * mask[i][j];
            }
        }
    }
    [(gvar[0], energy[0]), (gvar[1], energy[1])]
}

fn to_db(score: f64) -> f64 {
    10.0 * -score.log10()
}

impl Extractor for PsnrHvs {
    fn init(&mut self, g: Geometry) -> Result<()> {
        if g.bpc > 12 {
            return Err(Error::invalid(
                "psnr_hvs",
                format!("{}-bit input: psnr_hvs takes at most 12 bits", g.bpc),
            ));
        }
        if g.format == PixelFormat::Yuv400p {
            return Err(Error::invalid(
                "psnr_hvs",
                "4:0:0 input has no chroma planes to score",
            ));
        }
        self.bpc = g.bpc;
        self.kernels = Some(KERNELS.current());
        Ok(())
    }

    fn kernel_level(&self) -> Option<crate::cpu::CpuLevel> {
        self.kernels.map(|k| k.level)
    }

    fn kernel_families(&self) -> &'static [&'static str] {
        &["psnr_hvs"]
    }

    fn extract(&mut self, input: &ExtractInput<'_>, out: &mut FrameScores) -> Result<()> {
        let Some(k) = self.kernels else {
            return Err(Error::invalid("psnr_hvs", "extract called before init"));
        };
        let mut score = [0f64; 3];
        let names = ["psnr_hvs_y", "psnr_hvs_cb", "psnr_hvs_cr"];
        for (p, csf) in [&CSF_Y, &CSF_CB, &CSF_CR].into_iter().enumerate() {
            score[p] = plane_error(
                input.reference.plane(p),
                input.distorted.plane(p),
                self.bpc,
                csf,
                &k,
            );
            out.put(names[p], input.index, to_db(score[p]));
        }
        let combined = score[0] * 0.8 + 0.1 * (score[1] + score[2]);
        out.put("psnr_hvs", input.index, to_db(combined));
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
        let mut n = 0;
        for clip in clip_ids() {
            let log = expected(&dir, clip, "extra_features").unwrap();
            let (rf, df) = load_clip(&dir, clip);
            let wants: Vec<_> = ["psnr_hvs_y", "psnr_hvs_cb", "psnr_hvs_cr", "psnr_hvs"]
                .iter()
                .map(|m| (m, expected_metric(&log, m).unwrap()))
                .collect();
            let mut x = PsnrHvs {
                bpc: 8,
                kernels: None,
            };
            for (i, out) in extract_all(&mut x, &rf, &df).into_iter().enumerate() {
                for (k, (name, want)) in wants.iter().enumerate() {
                    let got = out.entries[k].2;
                    match want[i] {
                        Some(w) => assert!(
                            same_at_6(got, w),
                            "{clip} frame {i} {name}: vmafx {got:.6} libvmaf {w:.6}"
                        ),
                        None => assert!(
                            !got.is_finite(),
                            "{clip} frame {i} {name}: libvmaf null, vmafx {got}"
                        ),
                    }
                    n += 1;
                }
            }
        }
        assert!(n > 400);
    }

    #[test]
    fn block_means_are_the_float_sums_to_the_bit() {
        let mut rng = crate::testutil::twin_rng::TwinRng::new(0x6876);
        let quadrant = |i: usize, j: usize| ((i & 12) >> 2) + ((j & 12) >> 1);
        for trial in 0..500 {
            let top = [255, 1023, 4095, 65535][trial % 4];
            let b: [i32; 64] = std::array::from_fn(|_| match rng.range(0, 3) {
                0 => top,
                _ => rng.range(0, top as i64) as i32,
            });
            let (mut g, mut q) = (0f32, [0f32; 4]);
            for i in 0..8 {
                for j in 0..8 {
                    g += b[i * 8 + j] as f32;
                    q[quadrant(i, j)] += b[i * 8 + j] as f32;
                }
            }
            let (gm, qm) = block_means(&b);
            assert_eq!(gm.to_bits(), (g / 64.0).to_bits(), "trial {trial}");
            assert_eq!(
                qm.map(f32::to_bits),
                q.map(|v| (v / 16.0).to_bits()),
                "trial {trial}"
            );
        }
    }

    #[test]
    fn deep_and_mono_input_refused() {
        let mut x = PsnrHvs {
            bpc: 8,
            kernels: None,
        };
        let g = Geometry {
            format: PixelFormat::Yuv420p,
            bpc: 16,
            width: 64,
            height: 64,
        };
        assert!(x.init(g).unwrap_err().message().contains("at most 12"));
        let g = Geometry {
            format: PixelFormat::Yuv400p,
            bpc: 8,
            width: 64,
            height: 64,
        };
        assert!(x.init(g).is_err());
    }
}
