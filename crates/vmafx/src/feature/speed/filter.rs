//! SpEED's Gaussian filters (libvmaf's vif_tools kernels at scale 1 and 4), the separable
//! mirrored convolution, decimation by 16 and mean subtraction, on float planes with a
//! row stride.

/// libvmaf checks SpEED's kernel scale against the same list as VIF's.
pub(super) use crate::feature::float_vif::kernel::valid_kernelscale;

fn round_up_to_odd(f: f32) -> usize {
    let c = (f as f64).ceil() as i64;
    (if c % 2 == 0 { c + 1 } else { c }).max(0) as usize
}

/// Taps of the Gaussian for `scale` (0..=4) at kernel scale `ks`.
pub(super) fn filter_size(scale: u32, ks: f32) -> usize {
    let n = (1u32 << (4 - scale)) + 1;
    round_up_to_odd(n as f32 * ks).max(3)
}

fn gaussian(size: usize, stdev: f32) -> Vec<f32> {
    let k = (size as i64 - 1) / 2;
    let sqrt_2pi = (2.0 * std::f64::consts::PI).sqrt();
    let mut out: Vec<f32> = (0..size as i64)
        .map(|i| {
            let x = ((i - k) as f32 - 0.0) as f64;
            let num = (-0.5 * x / stdev as f64 * x / stdev as f64).exp() as f32;
            let den = (1.0 / (stdev as f64 * sqrt_2pi)) as f32;
            num / den
        })
        .collect();
    let mut sum = 0f32;
    for v in &out {
        sum += v;
    }
    for v in out.iter_mut() {
        *v /= sum;
    }
    out
}

/// The Gaussian of scale 4 (after decimation by 16): size/5 standard deviation.
pub(super) fn scale4_filter(ks: f32) -> Vec<f32> {
    let size = filter_size(4, ks);
    gaussian(size, size as f32 / 5.0)
}

/// The anti-alias filter applied before decimating by 16: the size of the scale-1
/// filter with the standard deviation widened by sqrt(4).
pub(super) fn antialias_filter(ks: f32) -> Vec<f32> {
    let size = filter_size(1, ks);
    gaussian(size, (4f64.sqrt() * size as f64 / 5.0f32 as f64) as f32)
}

/// Mirrors `i` into `0..n` as libvmaf does (-i below, 2n - i - 2 above), clamped for
/// planes smaller than the filter.
fn mirror(i: isize, n: usize) -> usize {
    let n = n as isize;
    let m = if i < 0 {
        -i
    } else if i >= n {
        2 * n - i - 2
    } else {
        i
    };
    m.clamp(0, n - 1) as usize
}

/// Separable convolution of the `w` x `h` region of `src` into `dst`, vertical pass
/// first, each sum taken tap by tap in single precision.
///
/// Every output is `((0 + f0·x0) + f1·x1) + ...` in tap order, each product and sum
/// rounded on its own, as libvmaf's loops compute it; the loops run taps outermost and
/// columns innermost so that the compiler vectorises across columns without changing that
/// order (no fused multiply-add is formed: Rust never contracts `a * b + c`).
pub(super) fn convolve(f: &[f32], src: &[f32], dst: &mut [f32], w: usize, h: usize, stride: usize) {
    let r = f.len() / 2;
    let mut tmp = vec![0f32; w];
    for i in 0..h {
        tmp.fill(0.0);
        for (k, &fk) in f.iter().enumerate() {
            let ii = mirror(i as isize - r as isize + k as isize, h);
            let row = &src[ii * stride..ii * stride + w];
            for (t, &x) in tmp.iter_mut().zip(row) {
                *t += fk * x;
            }
        }
        let out = &mut dst[i * stride..i * stride + w];
        horizontal(f, &tmp, out);
    }
}

/// The horizontal pass of [`convolve`] over one row: columns whose taps stay inside the
/// row tap by tap across the row, the mirrored edges one column at a time.
fn horizontal(f: &[f32], row: &[f32], out: &mut [f32]) {
    let (w, r) = (row.len(), f.len() / 2);
    let edge = |j: usize| {
        let mut acc = 0f32;
        for (k, &fk) in f.iter().enumerate() {
            acc += fk * row[mirror(j as isize - r as isize + k as isize, w)];
        }
        acc
    };
    if w < f.len() {
        for (j, o) in out.iter_mut().enumerate() {
            *o = edge(j);
        }
        return;
    }
    // Columns r..w-r read row[j - r ..= j + r], all inside the row.
    let inner = r..w - r;
    out[inner.clone()].fill(0.0);
    for (k, &fk) in f.iter().enumerate() {
        let src = &row[k..k + inner.len()];
        for (o, &x) in out[inner.clone()].iter_mut().zip(src) {
            *o += fk * x;
        }
    }
    for j in (0..r).chain(w - r..w) {
        out[j] = edge(j);
    }
}

/// [`convolve`] followed by [`decimate16`] without computing the samples decimation
/// drops: for each kept row (every 16th) the vertical pass runs across the row, then the
/// horizontal pass only at every 16th column. Each kept output is summed tap by tap in the
/// same order as [`convolve`] computes it, so the result is bit-identical; the work falls
/// by about 16 x 2 at libvmaf's default kernel. `dst` receives the `w / 16` x `h / 16`
/// samples with row `stride`; `tmp` is scratch of at least `w` samples.
pub(super) fn convolve_decimate16(
    f: &[f32],
    src: &[f32],
    dst: &mut [f32],
    tmp: &mut [f32],
    w: usize,
    h: usize,
    stride: usize,
) {
    let r = f.len() / 2;
    let tmp = &mut tmp[..w];
    for i in 0..h / 16 {
        let y = i * 16;
        tmp.fill(0.0);
        for (k, &fk) in f.iter().enumerate() {
            let ii = mirror(y as isize - r as isize + k as isize, h);
            let row = &src[ii * stride..ii * stride + w];
            for (t, &x) in tmp.iter_mut().zip(row) {
                *t += fk * x;
            }
        }
        let out = &mut dst[i * stride..i * stride + w / 16];
        for (j, o) in out.iter_mut().enumerate() {
            let x = j * 16;
            let mut acc = 0f32;
            if x >= r && x + r < w {
                for (&fk, &v) in f.iter().zip(&tmp[x - r..=x + r]) {
                    acc += fk * v;
                }
            } else {
                for (k, &fk) in f.iter().enumerate() {
                    acc += fk * tmp[mirror(x as isize - r as isize + k as isize, w)];
                }
            }
            *o = acc;
        }
    }
}

/// Which of `h` rows [`convolve_decimate16`] reads with a filter of `taps` taps: the
/// mirrored neighbourhood of every 16th row.
pub(super) fn rows_read(taps: usize, h: usize) -> Vec<bool> {
    let r = taps / 2;
    let mut read = vec![false; h];
    for i in 0..h / 16 {
        for k in 0..taps {
            read[mirror((i * 16) as isize - r as isize + k as isize, h)] = true;
        }
    }
    read
}

/// Keeps every 16th sample of every 16th row of the `w` x `h` region of `src`.
#[cfg(test)]
pub(super) fn decimate16(src: &[f32], dst: &mut [f32], w: usize, h: usize, stride: usize) {
    for i in 0..h / 16 {
        for j in 0..w / 16 {
            dst[i * stride + j] = src[i * 16 * stride + j * 16];
        }
    }
}

/// `a -= b` over the `w` x `h` region.
pub(super) fn subtract(a: &mut [f32], b: &[f32], w: usize, h: usize, stride: usize) {
    for i in 0..h {
        let row = i * stride..i * stride + w;
        for (x, y) in a[row.clone()].iter_mut().zip(&b[row]) {
            *x -= y;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testutil::twin_rng::TwinRng;

    /// The convolution output by output, taps innermost: the order `convolve` must keep.
    fn convolve_by_output(f: &[f32], src: &[f32], w: usize, h: usize, stride: usize) -> Vec<f32> {
        let r = (f.len() / 2) as isize;
        let mut dst = vec![0f32; src.len()];
        let mut tmp = vec![0f32; w];
        for i in 0..h {
            for (j, t) in tmp.iter_mut().enumerate() {
                let mut acc = 0f32;
                for (k, &fk) in f.iter().enumerate() {
                    acc += fk * src[mirror(i as isize - r + k as isize, h) * stride + j];
                }
                *t = acc;
            }
            for j in 0..w {
                let mut acc = 0f32;
                for (k, &fk) in f.iter().enumerate() {
                    acc += fk * tmp[mirror(j as isize - r + k as isize, w)];
                }
                dst[i * stride + j] = acc;
            }
        }
        dst
    }

    #[test]
    fn convolve_keeps_the_per_output_order_bit_for_bit() {
        let mut rng = TwinRng::new(0x5eed_c0de);
        for case in 0..120 {
            let f = if case % 2 == 0 {
                antialias_filter(1.0)
            } else {
                scale4_filter([1.0, 2.0 / 3.0, 0.5][case % 3])
            };
            // Widths and heights below, at and above the filter's length.
            let (w, h) = (rng.size(1, 3 * f.len()), rng.size(1, 2 * f.len()));
            let stride = w + rng.range(0, 4) as usize;
            let src: Vec<f32> = (0..stride * h)
                .map(|_| rng.range(-100_000, 100_000) as f32 / 997.0)
                .collect();
            let mut dst = vec![0f32; src.len()];
            convolve(&f, &src, &mut dst, w, h, stride);
            let want = convolve_by_output(&f, &src, w, h, stride);
            for i in 0..h {
                let row = i * stride..i * stride + w;
                let (got, want) = (&dst[row.clone()], &want[row]);
                assert!(
                    got.iter()
                        .zip(want)
                        .all(|(a, b)| a.to_bits() == b.to_bits()),
                    "case {case}: {w}x{h}, {} taps, row {i}",
                    f.len()
                );
            }
        }
    }

    #[test]
    fn decimated_convolution_matches_convolve_then_decimate_bit_for_bit() {
        let mut rng = TwinRng::new(0xdec1_3a7e);
        for case in 0..80 {
            let f = antialias_filter([1.0, 2.0 / 3.0, 0.5, 2.0, 4.0][case % 5]);
            // Sizes from one kept sample up to several, below and above the filter's length.
            let (w, h) = (rng.size(16, 200), rng.size(16, 120));
            let stride = w + rng.range(0, 9) as usize;
            let src: Vec<f32> = (0..stride * h)
                .map(|_| rng.range(-100_000, 100_000) as f32 / 997.0)
                .collect();
            let mut full = vec![0f32; src.len()];
            convolve(&f, &src, &mut full, w, h, stride);
            let mut want = vec![0f32; src.len()];
            decimate16(&full, &mut want, w, h, stride);
            let mut got = vec![0f32; src.len()];
            let mut tmp = vec![0f32; w];
            convolve_decimate16(&f, &src, &mut got, &mut tmp, w, h, stride);
            for i in 0..h / 16 {
                let row = i * stride..i * stride + w / 16;
                assert!(
                    got[row.clone()]
                        .iter()
                        .zip(&want[row])
                        .all(|(a, b)| a.to_bits() == b.to_bits()),
                    "case {case}: {w}x{h}, {} taps, row {i}",
                    f.len()
                );
            }
        }
    }

    #[test]
    fn decimated_convolution_reads_only_the_rows_listed() {
        let mut rng = TwinRng::new(0x0005_eed5);
        for case in 0..40 {
            let f = antialias_filter([1.0, 0.5, 4.0][case % 3]);
            let (w, h) = (rng.size(16, 90), rng.size(16, 150));
            let stride = w + rng.range(0, 5) as usize;
            let mut src: Vec<f32> = (0..stride * h)
                .map(|_| rng.range(-100_000, 100_000) as f32 / 997.0)
                .collect();
            let mut tmp = vec![0f32; w];
            let mut want = vec![0f32; src.len()];
            convolve_decimate16(&f, &src, &mut want, &mut tmp, w, h, stride);
            let read = rows_read(f.len(), h);
            assert!(
                read.iter().any(|&r| !r) || h < 32,
                "case {case}: every row read"
            );
            for (y, _) in read.iter().enumerate().filter(|(_, &r)| !r) {
                src[y * stride..(y + 1) * stride].fill(f32::NAN);
            }
            let mut got = vec![0f32; src.len()];
            convolve_decimate16(&f, &src, &mut got, &mut tmp, w, h, stride);
            for i in 0..h / 16 {
                let row = i * stride..i * stride + w / 16;
                assert!(
                    got[row.clone()]
                        .iter()
                        .zip(&want[row])
                        .all(|(a, b)| a.to_bits() == b.to_bits()),
                    "case {case}: {w}x{h}, {} taps, row {i}",
                    f.len()
                );
            }
        }
    }

    #[test]
    fn filters_have_libvmaf_sizes_and_sum_to_one() {
        assert_eq!(antialias_filter(1.0).len(), 9);
        assert_eq!(scale4_filter(1.0).len(), 3);
        assert_eq!(filter_size(1, 4.0), 37);
        assert!(valid_kernelscale(1.0) && valid_kernelscale(2.0 / 3.0));
        assert!(!valid_kernelscale(1.2));
        let s: f32 = antialias_filter(1.0).iter().sum();
        assert!((s - 1.0).abs() < 1e-6);
    }
}
