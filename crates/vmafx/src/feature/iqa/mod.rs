//! The IQA-library steps that libvmaf's float SSIM and MS-SSIM are built on: luma to
//! float, separable convolution over the fully covered region, box decimation with mirrored
//! borders, and the SSIM map. Single-precision products are summed in double, as there.

use crate::error::{Error, Result};
use crate::frame::Frame;

pub(crate) mod dispatch;
pub(crate) mod kernels;
pub(crate) mod rows;
#[cfg(target_arch = "x86_64")]
mod x86;

pub(crate) use dispatch::IQA_KERNELS;
pub(crate) use kernels::IqaKernels;
pub(crate) use rows::GAUSSIAN_11;

/// A dense single-precision image, stride equal to width.
#[derive(Debug, Clone, Default)]
pub(crate) struct Image {
    /// Width.
    pub w: usize,
    /// Height.
    pub h: usize,
    /// Samples, row-major.
    pub px: Vec<f32>,
}

/// The highest dB an SSIM score is written as with `clip_db` (libvmaf's ceiling): the
/// dB of a mean squared error of half a sample over one `width` x `height` picture of
/// `bpc`-bit peak, rounded up.
pub(crate) fn db_ceiling(bpc: u32, width: u32, height: u32) -> f64 {
    let peak = ((1u64 << bpc) - 1) as f64;
    let mse = 0.5 / (f64::from(width) * f64::from(height));
    (10.0 * (peak * peak / mse).log10()).ceil()
}

/// An SSIM score as dB, `-10 log10(1 - score)`, no higher than `max_db`.
pub(crate) fn ssim_db(score: f64, max_db: f64) -> f64 {
    (-10.0 * (1.0 - score).log10()).min(max_db)
}

/// The divisor libvmaf's `picture_copy` applies for a bit depth (8-bit samples as they are).
pub(crate) fn float_scaler(bpc: u32) -> Result<f32> {
    match bpc {
        8 => Ok(1.0),
        10 => Ok(4.0),
        12 => Ok(16.0),
        16 => Ok(256.0),
        b => Err(Error::invalid(
            "bit depth",
            format!("{b}-bit input: libvmaf's float features take 8, 10, 12 or 16 bits"),
        )),
    }
}

/// The luma plane of `frame` as floats scaled to the 8-bit range, as libvmaf copies it.
pub(crate) fn luma_to_float(frame: &Frame, out: &mut Image) -> Result<()> {
    let scaler = float_scaler(frame.bpc())?;
    let p = frame.plane(0);
    out.w = p.width as usize;
    out.h = p.height as usize;
    out.px.clear();
    out.px.reserve(out.w * out.h);
    for y in 0..p.height {
        if frame.bpc() == 8 {
            out.px.extend(p.row_u8(y).iter().map(|&v| v as f32));
        } else {
            out.px
                .extend(p.row_u16(y).iter().map(|&v| v as f32 / scaler));
        }
    }
    Ok(())
}

/// Longest kernel [`RowConv`] takes (SSIM's window has 11 taps).
const MAX_TAPS: usize = 16;

/// A separable convolution over the fully covered region fed one input row at a time:
/// the horizontal pass of the last `n` rows is kept in a ring, and each output row's
/// vertical pass runs once its window is in. Each output is computed exactly as over a
/// whole horizontally filtered image (the same rows in the same tap order), with `n` rows
/// of memory instead of the picture's height.
struct RowConv {
    /// Taps.
    n: usize,
    /// Output width.
    dw: usize,
    /// The horizontal pass of input row `i` at slot `i % n`.
    ring: Vec<f32>,
    /// Input rows pushed.
    pushed: usize,
}

impl RowConv {
    fn new(dw: usize, n: usize) -> Self {
        assert!(
            (1..=MAX_TAPS).contains(&n),
            "a kernel of 1 to {MAX_TAPS} taps"
        );
        RowConv {
            n,
            dw,
            ring: vec![0.0; dw * n],
            pushed: 0,
        }
    }

    /// Runs the horizontal pass of the next input row.
    fn push(&mut self, k: &IqaKernels, row: &[f32], kern: &[f32]) {
        let slot = self.pushed % self.n * self.dw;
        (k.conv_h)(row, kern, &mut self.ring[slot..slot + self.dw]);
        self.pushed += 1;
    }

    /// The output row whose window ends with the last input row pushed, into `out`;
    /// `false` (nothing written) while fewer than `n` rows are in.
    fn output(&self, k: &IqaKernels, kern: &[f32], out: &mut [f32]) -> bool {
        if self.pushed < self.n {
            return false;
        }
        let first = self.pushed - self.n;
        let mut rows: [&[f32]; MAX_TAPS] = [&[]; MAX_TAPS];
        for (t, r) in rows.iter_mut().take(self.n).enumerate() {
            let slot = (first + t) % self.n * self.dw;
            *r = &self.ring[slot..slot + self.dw];
        }
        (k.conv_v)(&rows[..self.n], kern, out);
        true
    }
}

fn mirror(i: isize, n: usize) -> usize {
    let n = n as isize;
    let j = if i < 0 {
        -1 - i
    } else if i >= n {
        n - (i - n) - 1
    } else {
        i
    };
    j as usize
}

/// Filters with the square kernel `kern` (`n x n`, row-major) and keeps every `factor`-th
/// sample, mirroring at the borders, libvmaf's way: the output is `w / factor + (w & 1)`
/// wide (and likewise high), and a window touching a border is mirrored as a whole.
/// Windows inside the picture go through `k` when `factor` is 2.
pub(crate) fn decimate(
    k: &IqaKernels,
    img: &Image,
    factor: usize,
    kern: &[f32],
    n: usize,
) -> Image {
    let sw = img.w / factor + (img.w & 1);
    let sh = img.h / factor + (img.h & 1);
    let half = (n / 2) as isize;
    let last = half - if n.is_multiple_of(2) { 1 } else { 0 };
    let (hi_x, hi_y) = (img.w as isize - half, img.h as isize - half);
    let pixel = |ox: usize, oy: usize| {
        let (x, y) = ((ox * factor) as isize, (oy * factor) as isize);
        let edge = x < half || y < half || x >= hi_x || y >= hi_y;
        let mut sum = 0f64;
        let mut t = 0;
        for v in -half..=last {
            for u in -half..=last {
                let (sx, sy) = if edge {
                    (mirror(x + u, img.w), mirror(y + v, img.h))
                } else {
                    ((x + u) as usize, (y + v) as usize)
                };
                sum += (img.px[sy * img.w + sx] * kern[t]) as f64;
                t += 1;
            }
        }
        sum as f32
    };
    // Outputs `lo..hi` of a row have their whole window inside the picture's columns.
    let lo = (half as usize).div_ceil(factor);
    let hi = if hi_x > 0 {
        ((hi_x as usize - 1) / factor + 1).min(sw)
    } else {
        0
    };
    let mut px = vec![0f32; sw * sh];
    let mut rows = Vec::with_capacity(n);
    for (oy, out) in px.chunks_exact_mut(sw.max(1)).take(sh).enumerate() {
        let y = (oy * factor) as isize;
        let inner = factor == 2 && lo < hi && y >= half && y < hi_y;
        for (ox, slot) in out.iter_mut().enumerate() {
            if !(inner && (lo..hi).contains(&ox)) {
                *slot = pixel(ox, oy);
            }
        }
        if inner {
            let x0 = lo * factor - half as usize;
            rows.clear();
            rows.extend((0..n).map(|v| {
                let sy = (y - half) as usize + v;
                &img.px[sy * img.w + x0..(sy + 1) * img.w]
            }));
            (k.decimate2)(&rows, kern, &mut out[lo..hi]);
        }
    }
    Image { w: sw, h: sh, px }
}

/// A `factor x factor` box kernel of weight `1 / factor^2`.
pub(crate) fn box_kernel(factor: usize) -> Vec<f32> {
    vec![1.0f32 / (factor * factor) as f32; factor * factor]
}

/// Mean SSIM and its luminance, contrast and structure means over the Gaussian-windowed map.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct SsimMeans {
    /// SSIM.
    pub ssim: f32,
    /// Luminance term.
    pub l: f32,
    /// Contrast term.
    pub c: f32,
    /// Structure term.
    pub s: f32,
}

/// libvmaf's `_iqa_ssim` with its default parameters (K1 0.01, K2 0.03, L 255).
pub(crate) fn ssim(k: &IqaKernels, r: &Image, d: &Image, window: &[f32]) -> SsimMeans {
    let c1 = (0.01f32 * 255.0) * (0.01f32 * 255.0);
    let c2 = (0.03f32 * 255.0) * (0.03f32 * 255.0);
    let c3 = c2 / 2.0;
    // The five filtered pictures (means of r and d, of r², d² and r·d) row by row in
    // lockstep, each from a ring of `n` rows; the map is summed in row-major order as
    // over whole pictures, so every sum is the same.
    let n = window.len();
    let dw = r.w + 1 - n;
    let dh = r.h + 1 - n;
    let mut convs: [RowConv; 5] = std::array::from_fn(|_| RowConv::new(dw, n));
    let mut product = vec![0f32; r.w];
    let mut out = vec![0f32; 5 * dw];
    let (mut sum, mut ls, mut cs, mut ss) = (0f64, 0f64, 0f64, 0f64);
    for (rr, dr) in r.px.chunks_exact(r.w).zip(d.px.chunks_exact(d.w)).take(r.h) {
        convs[0].push(k, rr, window);
        convs[1].push(k, dr, window);
        for (i, (a, b)) in [(rr, rr), (dr, dr), (rr, dr)].into_iter().enumerate() {
            for (p, (x, y)) in product.iter_mut().zip(a.iter().zip(b)) {
                *p = x * y;
            }
            convs[2 + i].push(k, &product, window);
        }
        let mut ready = true;
        for (conv, o) in convs.iter().zip(out.chunks_exact_mut(dw)) {
            ready &= conv.output(k, window, o);
        }
        if !ready {
            continue;
        }
        let (mu_r, rest) = out.split_at(dw);
        let (mu_d, rest) = rest.split_at(dw);
        let (s_rr, rest) = rest.split_at(dw);
        let (s_dd, s_rd) = rest.split_at(dw);
        for i in 0..dw {
            let (m1, m2) = (mu_r[i], mu_d[i]);
            let v1 = (s_rr[i] - m1 * m1).max(0.0);
            let v2 = (s_dd[i] - m2 * m2).max(0.0);
            let cov = s_rd[i] - m1 * m2;
            let sd = ((v1 * v2) as f64).sqrt() as f32;
            let l = (2.0 * m1 as f64 * m2 as f64 + c1 as f64) / (m1 * m1 + m2 * m2 + c1) as f64;
            let c = (2.0 * sd as f64 + c2 as f64) / (v1 + v2 + c2) as f64;
            // A flat window of identical inputs can leave a tiny negative covariance;
            // libvmaf clamps it so such windows score a structure of exactly 1.
            let cov = if cov < 0.0 && sd <= 0.0 { 0.0 } else { cov };
            let s = ((cov + c3) / (sd + c3)) as f64;
            sum += l * c * s;
            ls += l;
            cs += c;
            ss += s;
        }
    }
    let n = (dw * dh) as f64;
    SsimMeans {
        ssim: (sum / n) as f32,
        l: (ls / n) as f32,
        c: (cs / n) as f32,
        s: (ss / n) as f32,
    }
}

#[cfg(test)]
mod tests;
