//! The scalar row kernels of the float convolution (the reference every SIMD table
//! matches bit for bit): one output row of the vertical pass from the rows under the
//! filter's taps, and one row of the horizontal pass with mirrored ends. Each output is
//! summed tap by tap from zero as `sum += f[k] * x` in `f32`, libvmaf's order.

/// Mirrors tap index `i` into `0..n` the way libvmaf's float convolutions do
/// (`-i` below, `2n - i - 2` above), clamped for taps wider than the picture.
#[inline]
pub(crate) fn mirror(i: isize, n: usize) -> usize {
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

/// `out[j] = Σ_k filter[k] · rows[k][j]`.
pub(crate) fn vertical(filter: &[f32], rows: &[&[f32]], out: &mut [f32]) {
    for (j, o) in out.iter_mut().enumerate() {
        let mut acc = 0.0f32;
        for (f, r) in filter.iter().zip(rows) {
            acc += f * r[j];
        }
        *o = acc;
    }
}

/// `out[j] = Σ_k filter[k] · rows[k][j]²`.
pub(crate) fn vertical_square(filter: &[f32], rows: &[&[f32]], out: &mut [f32]) {
    for (j, o) in out.iter_mut().enumerate() {
        let mut acc = 0.0f32;
        for (f, r) in filter.iter().zip(rows) {
            let v = r[j];
            acc += f * (v * v);
        }
        *o = acc;
    }
}

/// `out[j] = Σ_k filter[k] · (a[k][j] · b[k][j])`.
pub(crate) fn vertical_product(filter: &[f32], a: &[&[f32]], b: &[&[f32]], out: &mut [f32]) {
    for (j, o) in out.iter_mut().enumerate() {
        let mut acc = 0.0f32;
        for ((f, ra), rb) in filter.iter().zip(a).zip(b) {
            acc += f * (ra[j] * rb[j]);
        }
        *o = acc;
    }
}

/// The horizontal pass of one row: `out[j] = Σ_k filter[k] · src[mirror(j - r + k)]`
/// with `r` the filter's radius (`out` as long as `src`).
pub(crate) fn horizontal(filter: &[f32], src: &[f32], out: &mut [f32]) {
    for (j, o) in out[..src.len()].iter_mut().enumerate() {
        *o = horizontal_at(filter, src, j);
    }
}

/// One output of [`horizontal`] (what the SIMD kernels use at the row ends).
#[inline]
pub(crate) fn horizontal_at(filter: &[f32], src: &[f32], j: usize) -> f32 {
    let w = src.len();
    let r = filter.len() / 2;
    let mut acc = 0.0f32;
    if j >= r && j + r < w {
        for (k, f) in filter.iter().enumerate() {
            acc += f * src[j - r + k];
        }
    } else {
        for (k, f) in filter.iter().enumerate() {
            acc += f * src[mirror(j as isize - r as isize + k as isize, w)];
        }
    }
    acc
}

/// A horizontal pass keeping every other output: `out[o] = Σ_k filter[k] · src[2o + k]`
/// (`src` at least `2·(out.len() - 1) + filter.len()` long).
pub(crate) fn stride2(filter: &[f32], src: &[f32], out: &mut [f32]) {
    for (o, slot) in out.iter_mut().enumerate() {
        let mut acc = 0.0f32;
        for (k, f) in filter.iter().enumerate() {
            acc += f * src[2 * o + k];
        }
        *slot = acc;
    }
}

/// `sums[r] = Σ_j |a[r·width + j] - b[r·width + j]|` for each row `r`, summed from zero
/// in column order. libvmaf adds `fabs` of the float difference, a double, to the float
/// row sum and rounds back to float; for two floats that is the float sum itself (a
/// double's 53 bits are at least twice a float's 24 plus 2, so rounding twice cannot
/// differ from rounding once), which is what lets a vector kernel add in `f32` lanes.
pub(crate) fn abs_diff_sums(a: &[f32], b: &[f32], width: usize, sums: &mut [f32]) {
    for (r, sum) in sums.iter_mut().enumerate() {
        let row = r * width..(r + 1) * width;
        let mut line = 0.0f32;
        for (&p, &q) in a[row.clone()].iter().zip(&b[row]) {
            line = (line as f64 + (p - q).abs() as f64) as f32;
        }
        *sum = line;
    }
}
