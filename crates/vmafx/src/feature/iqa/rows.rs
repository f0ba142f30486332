//! The scalar row kernels of the IQA steps (the reference every SIMD table matches bit
//! for bit): each output sums its `f32` products in `f64`, tap by tap in the library's
//! order, and is rounded to `f32` once.

/// 11-tap Gaussian (sigma 1.5) used by SSIM, both directions.
pub(crate) const GAUSSIAN_11: [f32; 11] = [
    0.001028, 0.007599, 0.036001, 0.109361, 0.213006, 0.266012, 0.213006, 0.109361, 0.036001,
    0.007599, 0.001028,
];

/// Horizontal pass over the fully covered columns: `out[x] = Σ_t row[x + t] · k[t]`
/// (`out` is `row.len() + 1 - k.len()` long).
pub(crate) fn conv_h(row: &[f32], k: &[f32], out: &mut [f32]) {
    for (x, o) in out.iter_mut().enumerate() {
        let mut sum = 0f64;
        for (t, &kt) in k.iter().enumerate() {
            sum += (row[x + t] * kt) as f64;
        }
        *o = sum as f32;
    }
}

/// Vertical pass over one row per tap: `out[x] = Σ_t rows[t][x] · k[t]`.
pub(crate) fn conv_v(rows: &[&[f32]], k: &[f32], out: &mut [f32]) {
    for (x, o) in out.iter_mut().enumerate() {
        let mut sum = 0f64;
        for (r, &kt) in rows.iter().zip(k) {
            sum += (r[x] * kt) as f64;
        }
        *o = sum as f32;
    }
}

/// Decimation by 2 of the windows inside the picture: with `n = rows.len()` and the
/// `n x n` kernel `k` (row-major), `out[o] = Σ_v Σ_u rows[v][2o + u] · k[v·n + u]`.
pub(crate) fn decimate2(rows: &[&[f32]], k: &[f32], out: &mut [f32]) {
    let n = rows.len();
    for (o, slot) in out.iter_mut().enumerate() {
        let mut sum = 0f64;
        for (v, r) in rows.iter().enumerate() {
            for u in 0..n {
                sum += (r[2 * o + u] * k[v * n + u]) as f64;
            }
        }
        *slot = sum as f32;
    }
}
