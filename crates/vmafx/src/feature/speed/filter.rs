//! SpEED's Gaussian filters (libvmaf's vif_tools kernels at scale 1 and 4), the separable
//! mirrored convolution, decimation by 16 and mean subtraction, on float planes with a
//! row stride.

/// libvmaf checks SpEED's kernel scale against the same list as VIF's.
pub use crate::feature::float_vif::kernel::valid_kernelscale;

fn round_up_to_odd(f: f32) -> usize {
    let c = (f as f64).ceil() as i64;
    (if c % 2 == 0 { c + 1 } else { c }).max(0) as usize
}

/// Taps of the Gaussian for `scale` (0..=4) at kernel scale `ks`.
pub fn filter_size(scale: u32, ks: f32) -> usize {
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
pub fn scale4_filter(ks: f32) -> Vec<f32> {
    let size = filter_size(4, ks);
    gaussian(size, size as f32 / 5.0)
}

/// The anti-alias filter applied before decimating by 16: the size of the scale-1
/// filter with the standard deviation widened by sqrt(4).
pub fn antialias_filter(ks: f32) -> Vec<f32> {
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
pub fn convolve(f: &[f32], src: &[f32], dst: &mut [f32], w: usize, h: usize, stride: usize) {
    let r = (f.len() / 2) as isize;
    let mut tmp = vec![0f32; w];
    for i in 0..h {
        for (j, t) in tmp.iter_mut().enumerate() {
            let mut acc = 0f32;
            for (k, &fk) in f.iter().enumerate() {
                let ii = mirror(i as isize - r + k as isize, h);
                acc += fk * src[ii * stride + j];
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
}

/// Keeps every 16th sample of every 16th row of the `w` x `h` region of `src`.
pub fn decimate16(src: &[f32], dst: &mut [f32], w: usize, h: usize, stride: usize) {
    for i in 0..h / 16 {
        for j in 0..w / 16 {
            dst[i * stride + j] = src[i * 16 * stride + j * 16];
        }
    }
}

/// `a -= b` over the `w` x `h` region.
pub fn subtract(a: &mut [f32], b: &[f32], w: usize, h: usize, stride: usize) {
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
