//! SpEED's per-block statistics (libvmaf's est_params): the 25 x 25 covariance of 5x5
//! neighbourhoods, its eigenvalues, the solution of `K X = Y` for the block samples, and
//! from them each block's variance and entropy; then the score of a ref/dis pair.

use super::linalg;

/// Side of a SpEED block.
pub(super) const BLOCK: usize = 5;
/// Samples in a block.
pub(super) const ELEMS: usize = BLOCK * BLOCK;

/// log2(2 pi e), the Gaussian entropy constant.
fn log2_2pie() -> f64 {
    (2.0 * std::f64::consts::PI * std::f64::consts::E).log2()
}

/// How the covariance sums are accumulated.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum CovOrder {
    /// libvmaf's scalar loop: one double sum in raster order (kept as the reference the
    /// tests check the lane order against).
    #[allow(dead_code)]
    Scalar,
    /// libvmaf's AVX-512 kernel (what the conformance corpus was made with): two chains of
    /// eight fused multiply-add lanes over 16 columns, then 8, a plain scalar tail per row,
    /// and the lanes reduced pairwise.
    Avx512,
}

/// The operating area: `tw` x `th` samples (multiples of 5) of a plane with row `stride`.
#[derive(Debug, Clone, Copy)]
pub(super) struct Area {
    /// Truncated width.
    pub tw: usize,
    /// Truncated height.
    pub th: usize,
    /// Row stride in samples.
    pub stride: usize,
}

impl Area {
    fn blocks_h(&self) -> usize {
        self.tw / BLOCK
    }
    fn blocks(&self) -> usize {
        (self.tw / BLOCK) * (self.th / BLOCK)
    }
}

/// Per-block entropies and variances of one plane.
#[derive(Debug, Clone, Default)]
pub(super) struct BlockStats {
    /// Entropy of each block, raster order.
    pub entropy: Vec<f32>,
    /// Variance of each block.
    pub variance: Vec<f32>,
}

/// One covariance sum: the `w` x `h` window of `data` (row `stride`) at offset `ox`,
/// centred on `mx`, times the window at `oy`, centred on `my`.
#[derive(Debug, Clone, Copy)]
pub(super) struct CovInput<'a> {
    /// The plane.
    pub data: &'a [f32],
    /// Row stride in samples.
    pub stride: usize,
    /// Offset of the first window.
    pub ox: usize,
    /// Offset of the second window.
    pub oy: usize,
    /// Window width.
    pub w: usize,
    /// Window height.
    pub h: usize,
    /// Mean removed from the first window's samples.
    pub mx: f64,
    /// Mean removed from the second window's samples.
    pub my: f64,
}

/// A covariance sum kernel.
pub(super) type CovSumFn = fn(&CovInput<'_>) -> f64;

/// Panics unless every row of both windows lies inside `data`.
pub(super) fn check_cov_bounds(c: &CovInput<'_>) {
    if c.w == 0 || c.h == 0 {
        return;
    }
    let last = (c.h - 1) * c.stride + c.w;
    assert!(c.w <= c.stride && c.ox.max(c.oy) + last <= c.data.len());
}

impl CovInput<'_> {
    fn term(&self, i: usize, j: usize) -> (f64, f64) {
        let vx = self.data[self.ox + i * self.stride + j] as f64 - self.mx;
        let vy = self.data[self.oy + i * self.stride + j] as f64 - self.my;
        (vx, vy)
    }
}

/// libvmaf's scalar loop: one double sum in raster order.
#[cfg_attr(not(test), allow(dead_code))]
fn cov_sum_raster(c: &CovInput<'_>) -> f64 {
    let mut s = 0f64;
    for i in 0..c.h {
        for j in 0..c.w {
            let (a, b) = c.term(i, j);
            s += a * b;
        }
    }
    s
}

/// The scalar kernel of libvmaf's AVX-512 order (see `super::dispatch`).
pub(super) fn cov_sum_avx512_order(c: &CovInput<'_>) -> f64 {
    check_cov_bounds(c);
    let (mut acc0, mut acc1, mut tail) = ([0f64; 8], [0f64; 8], 0f64);
    for i in 0..c.h {
        let mut j = 0;
        while j + 15 < c.w {
            for l in 0..8 {
                let (a, b) = c.term(i, j + l);
                acc0[l] = a.mul_add(b, acc0[l]);
                let (a, b) = c.term(i, j + 8 + l);
                acc1[l] = a.mul_add(b, acc1[l]);
            }
            j += 16;
        }
        while j + 7 < c.w {
            for (l, acc) in acc0.iter_mut().enumerate() {
                let (a, b) = c.term(i, j + l);
                *acc = a.mul_add(b, *acc);
            }
            j += 8;
        }
        while j < c.w {
            let (a, b) = c.term(i, j);
            tail += a * b;
            j += 1;
        }
    }
    let a: [f64; 8] = std::array::from_fn(|l| acc0[l] + acc1[l]);
    let q: [f64; 4] = std::array::from_fn(|l| a[l + 4] + a[l]);
    let (p0, p1) = (q[2] + q[0], q[3] + q[1]);
    p0 + p1 + tail
}

/// Statistics of one filtered plane; `false` where its covariance could not be inverted
/// (libvmaf then uses an all-zero solution, as here).
pub(super) fn estimate(
    order: CovOrder,
    cov_sum: CovSumFn,
    data: &[f32],
    area: Area,
    sigma_nn: f32,
    out: &mut BlockStats,
) -> bool {
    let stride = area.stride;
    let (sw, sh) = (area.tw - BLOCK + 1, area.th - BLOCK + 1);
    let n = sw * sh;
    let mut means = [0f32; ELEMS];
    for (e, m) in means.iter_mut().enumerate() {
        let (r, c) = (e / BLOCK, e % BLOCK);
        let mut s = 0f32;
        for i in 0..sh {
            for j in 0..sw {
                s += data[(r + i) * stride + c + j];
            }
        }
        *m = s / n as f32;
    }
    let mut cov = vec![0f32; ELEMS * ELEMS];
    for x in 0..ELEMS {
        for y in 0..=x {
            let ox = (x / BLOCK) * stride + x % BLOCK;
            let oy = (y / BLOCK) * stride + y % BLOCK;
            let input = CovInput {
                data,
                stride,
                ox,
                oy,
                w: sw,
                h: sh,
                mx: means[x] as f64,
                my: means[y] as f64,
            };
            let s = match order {
                CovOrder::Scalar => cov_sum_raster(&input),
                CovOrder::Avx512 => cov_sum(&input),
            };
            let c = (s / n as f64) as f32;
            cov[x * ELEMS + y] = c;
            cov[y * ELEMS + x] = c;
        }
    }
    let eig = linalg::eigenvalues(&cov, ELEMS);

    let nb = area.blocks();
    let nbh = area.blocks_h();
    let mut y = vec![0f32; ELEMS * nb];
    for si in 0..BLOCK {
        for sj in 0..BLOCK {
            let row = si * BLOCK + sj;
            for i in (si..area.th).step_by(BLOCK) {
                for j in (sj..area.tw).step_by(BLOCK) {
                    let col = ((i - si) / BLOCK) * nbh + (j - sj) / BLOCK;
                    y[row * nb + col] = data[i * stride + j];
                }
            }
        }
    }
    let regular = eig.iter().all(|&e| (e as f64) >= linalg::EPS || e.is_nan());
    let mut x = vec![0f32; ELEMS * nb];
    let solved = regular && linalg::solve(&cov, ELEMS, &y, nb, &mut x);
    if !solved {
        x.fill(0.0);
    }
    for (xv, yv) in x.iter_mut().zip(&y) {
        *xv = (*xv * *yv) / ELEMS as f32;
    }
    let (first, rest) = x.split_at_mut(nb);
    for r in 0..ELEMS - 1 {
        for (s, v) in first.iter_mut().zip(&rest[r * nb..(r + 1) * nb]) {
            *s += v;
        }
    }
    let c = log2_2pie();
    out.entropy.clear();
    out.entropy.resize(nb, 0.0);
    for &e in &eig {
        let l = if e < 0.0 { 0.0 } else { e };
        for (h, &s) in out.entropy.iter_mut().zip(first.iter()) {
            *h = (*h as f64 + (((l * s + sigma_nn) as f64).log2() + c)) as f32;
        }
    }
    out.variance.clear();
    out.variance.extend_from_slice(first);
    solved
}

/// The SpEED score of a ref/dis pair of statistics; `None` for an unknown weighting mode.
pub(super) fn score(
    r: &BlockStats,
    d: &BlockStats,
    sigma_nn: f32,
    nn_floor: f32,
    mode: i64,
) -> Option<f32> {
    let base =
        (ELEMS as f64 * ((((1.0 + nn_floor) * sigma_nn) as f64).log2() + log2_2pie())) as f32;
    let lg = |v: f64| v.log2();
    let mut total = 0f32;
    for i in 0..r.entropy.len() {
        let (re, de) = (r.entropy[i], d.entropy[i]);
        if re < base && de < base {
            continue;
        }
        let (rv, dv) = (r.variance[i], d.variance[i]);
        let one = |v: f32| lg((1.0 + v) as f64);
        let (wr, wd) = match mode {
            0 => (one(rv), one(dv)),
            1 => (one(rv), one(rv)),
            2 => (one(dv), one(dv)),
            3 => {
                let m = lg(1.0 + (rv + dv) as f64 / 2.0);
                (m, m)
            }
            4 => (one(rv), lg(1.0 + (rv + dv) as f64 / 2.0)),
            5 => (one(rv), lg(1.0 + (0.75 * rv as f64 + 0.25 * dv as f64))),
            6 => (one(rv), lg(1.0 + (0.25 * rv as f64 + 0.75 * dv as f64))),
            _ => return None,
        };
        let sr = (re as f64 * wr) as f32;
        let sd = (de as f64 * wd) as f32;
        total += (sr - sd).abs();
    }
    Some(total / r.entropy.len() as f32)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn avx512_order_sums_like_the_scalar_loop() {
        // 23 columns: one 16-wide step, no 8-wide step, a 7-sample tail per row.
        let (w, h, stride) = (23, 7, 32);
        let data: Vec<f32> = (0..stride * (h + 1))
            .map(|i| ((i * 7919) % 251) as f32 / 7.0 - 18.0)
            .collect();
        let (mx, my) = (-0.3, 0.7);
        let c = CovInput {
            data: &data,
            stride,
            ox: 0,
            oy: 1,
            w,
            h,
            mx,
            my,
        };
        let s = cov_sum_raster(&c);
        let v = cov_sum_avx512_order(&c);
        let mut exact = 0f64;
        for i in 0..h {
            for j in 0..w {
                exact +=
                    (data[i * stride + j] as f64 - mx) * (data[i * stride + 1 + j] as f64 - my);
            }
        }
        assert_eq!(s, exact);
        assert!((s - v).abs() <= 1e-9 * s.abs().max(1.0), "{s} {v}");
    }
}
