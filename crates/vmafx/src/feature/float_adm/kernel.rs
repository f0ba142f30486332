//! The float ADM computation (libvmaf's `compute_adm` with the `_s` tools): per scale,
//! a DWT of both pictures, decoupling of the distorted detail into restored detail and
//! additive impairment, CSF weighting, contrast masking, and p-norm pooling inside a
//! border-trimmed window; detail loss (`adm2`) and additive impairment (`aim`) totals.

use super::csf::{factors, CsfParams};
use super::dwt::{dwt2, Bands, DwtSource};
use crate::feature::float_conv::{ConvKernels, FloatPlane};

/// libvmaf's float constant 1/30 (a double literal in the C).
const ONE_BY_30: f64 = 0.0333333351;
/// libvmaf's float constant 1/15 (a double literal in the C).
const ONE_BY_15: f64 = 0.0666666701;
/// Share of the picture trimmed on each side.
const BORDER_FACTOR: f64 = 0.1;

/// Parameters of the computation.
#[derive(Debug, Clone, Copy)]
pub(crate) struct AdmParams {
    /// CSF weighting.
    pub csf: CsfParams,
    /// `adm_enhn_gain_limit`.
    pub enhn_gain_limit: f64,
    /// `adm_noise_weight`.
    pub noise_weight: f64,
    /// `adm_bypass_cm`.
    pub bypass_cm: bool,
    /// `adm_p_norm`.
    pub p_norm: f64,
    /// `adm_skip_aim_scale` (-1: none).
    pub skip_aim_scale: i64,
    /// `adm_skip_scale0`.
    pub skip_scale0: bool,
}

/// The results of one pair.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct AdmScores {
    /// `adm2`: detail loss numerator over denominator.
    pub score: f64,
    /// Total numerator.
    pub num: f64,
    /// Total denominator.
    pub den: f64,
    /// `aim`: additive impairment, normalised and clipped at 1.
    pub aim: f64,
    /// Per scale numerator and denominator.
    pub scales: [f64; 8],
}

/// The divisions of decoupling, `out[j] = t[j] / (o[j] + eps)`, as libvmaf's x86 build
/// makes them (`ADM_OPT_RECIP_DIVISION`): `t` times the SSE reciprocal estimate of the
/// divisor refined by one Newton step, each step a separate single-precision rounding (no
/// fused multiply-add, as libvmaf's C has none). The estimate is the processor's own, four
/// lanes at a time (`rcpps` gives each lane what libvmaf's `rcpss` gives it alone), so on
/// the same machine the bits are libvmaf's.
#[cfg(target_arch = "x86_64")]
fn quotients(t: &[f32], o: &[f32], eps: f32, out: &mut [f32]) {
    use std::arch::x86_64::*;
    let n = out.len().min(t.len()).min(o.len());
    // SAFETY: SSE is part of the x86-64 baseline every x86_64 target enables, so these
    // intrinsics run on any processor this code runs on; the loads and stores (unaligned)
    // stay below `n`, within all three slices.
    unsafe {
        let (one, e) = (_mm_set1_ps(1.0), _mm_set1_ps(eps));
        let refined = |t: __m128, o: __m128| {
            let d = _mm_add_ps(o, e);
            let xi = _mm_rcp_ps(d);
            _mm_mul_ps(
                t,
                _mm_add_ps(xi, _mm_mul_ps(xi, _mm_sub_ps(one, _mm_mul_ps(d, xi)))),
            )
        };
        let mut j = 0;
        while j + 4 <= n {
            let q = refined(
                _mm_loadu_ps(t.as_ptr().add(j)),
                _mm_loadu_ps(o.as_ptr().add(j)),
            );
            _mm_storeu_ps(out.as_mut_ptr().add(j), q);
            j += 4;
        }
        for k in j..n {
            out[k] = _mm_cvtss_f32(refined(_mm_set_ss(t[k]), _mm_set_ss(o[k])));
        }
    }
}

/// The divisions of decoupling: exact, as libvmaf builds without SSE do.
#[cfg(not(target_arch = "x86_64"))]
fn quotients(t: &[f32], o: &[f32], eps: f32, out: &mut [f32]) {
    for ((q, &t), &o) in out.iter_mut().zip(t).zip(o) {
        *q = t / (o + eps);
    }
}

/// A window `[left, right) x [top, bottom)` of a `w x h` band.
#[derive(Debug, Clone, Copy)]
struct Window {
    left: usize,
    right: usize,
    top: usize,
    bottom: usize,
}

/// The pooling window: `w * 0.1 - 0.5` trimmed on each side (truncated as C does).
fn pool_window(w: usize, h: usize) -> (i64, i64, i64, i64) {
    let left = (w as f64 * BORDER_FACTOR - 0.5) as i64;
    let top = (h as f64 * BORDER_FACTOR - 0.5) as i64;
    (left, w as i64 - left, top, h as i64 - top)
}

/// The pooling window widened by one sample for the masking filter, clipped.
fn work_window(w: usize, h: usize) -> Window {
    let left = (w as f64 * BORDER_FACTOR - 0.5 - 1.0) as i64;
    let top = (h as f64 * BORDER_FACTOR - 0.5 - 1.0) as i64;
    let right = w as i64 - left + 2;
    let bottom = h as i64 - top + 2;
    Window {
        left: left.max(0) as usize,
        right: right.min(w as i64) as usize,
        top: top.max(0) as usize,
        bottom: bottom.min(h as i64) as usize,
    }
}

/// Restored detail (`r`) and additive impairment (`a`) bands, h, v, d.
#[derive(Debug, Default)]
struct Decoupled {
    r: [FloatPlane; 3],
    a: [FloatPlane; 3],
}

/// Makes each plane `w x h` (zeroed when resized; kept otherwise).
fn ensure3(planes: &mut [FloatPlane; 3], w: usize, h: usize) {
    planes.iter_mut().for_each(|p| p.ensure(w, h));
}

/// The buffers of one scale, kept from pair to pair. Every stage writes the same window
/// of its planes at every pair, so what lies outside stays zero, as in fresh planes.
#[derive(Debug, Default)]
struct ScaleWork {
    rb: Bands,
    db: Bands,
    dec: Decoupled,
}

/// The working planes of [`compute_adm`], reused across pairs.
#[derive(Debug, Default)]
pub(crate) struct AdmWork {
    scales: Vec<ScaleWork>,
}

fn decouple(rf: &Bands, ds: &Bands, egl: f64, out: &mut Decoupled) {
    let (w, h) = (rf.h.width, rf.h.height);
    let cos_1deg_sq = ((1.0 * std::f64::consts::PI / 180.0).cos()
        * (1.0 * std::f64::consts::PI / 180.0).cos()) as f32;
    let eps = 1e-30f32;
    ensure3(&mut out.r, w, h);
    ensure3(&mut out.a, w, h);
    let win = work_window(w, h);
    let limit = |rst: f32, t: f32, flag: bool| -> f32 {
        let mut rst = rst;
        if flag && rst > 0.0 {
            let x = rst as f64 * egl;
            rst = (if x < t as f64 { x } else { t as f64 }) as f32;
        }
        if flag && rst < 0.0 {
            let x = rst as f64 * egl;
            rst = (if x > t as f64 { x } else { t as f64 }) as f32;
        }
        rst
    };
    let n = win.right.saturating_sub(win.left);
    let mut q = [vec![0.0f32; n], vec![0.0f32; n], vec![0.0f32; n]];
    for i in win.top..win.bottom {
        let span = i * w + win.left..i * w + win.right;
        let o = [&rf.h, &rf.v, &rf.d].map(|p| &p.data[span.clone()]);
        let t = [&ds.h, &ds.v, &ds.d].map(|p| &p.data[span.clone()]);
        for b in 0..3 {
            quotients(t[b], o[b], eps, &mut q[b]);
        }
        for j in 0..n {
            let k = span.start + j;
            let (oh, ov, od) = (o[0][j], o[1][j], o[2][j]);
            let (th, tv, td) = (t[0][j], t[1][j], t[2][j]);
            // Same as C's nested ternaries, NaN included.
            let clamp = |x: f32| x.clamp(0.0, 1.0);
            let (kh, kv, kd) = (clamp(q[0][j]), clamp(q[1][j]), clamp(q[2][j]));
            let ot_dp = oh * th + ov * tv;
            let o_mag_sq = oh * oh + ov * ov;
            let t_mag_sq = th * th + tv * tv;
            let flag = ot_dp >= 0.0 && ot_dp * ot_dp >= cos_1deg_sq * o_mag_sq * t_mag_sq;
            let rst = [
                limit(kh * oh, th, flag),
                limit(kv * ov, tv, flag),
                limit(kd * od, td, flag),
            ];
            for (b, (r, t)) in rst.iter().zip([th, tv, td]).enumerate() {
                out.r[b].data[k] = *r;
                out.a[b].data[k] = t - r;
            }
        }
    }
}

/// CSF-weighted bands and their masking contributions (`|x| / 30`), into `dst` and `flt`
/// (planes of the bands' size, reused: what lies outside the working window is zeroed,
/// as in fresh planes).
fn csf(
    src: &[FloatPlane; 3],
    rfactor: [f32; 3],
    dst: [&mut FloatPlane; 3],
    flt: [&mut FloatPlane; 3],
) {
    let (w, h) = (src[0].width, src[0].height);
    let win = work_window(w, h);
    for (b, (dst, flt)) in dst.into_iter().zip(flt).enumerate() {
        for plane in [&mut *dst, &mut *flt] {
            plane.ensure(w, h);
            zero_outside(plane, win);
        }
        for i in win.top..win.bottom {
            let span = i * w + win.left..i * w + win.right;
            let (s, d, f) = (
                &src[b].data[span.clone()],
                &mut dst.data[span.clone()],
                &mut flt.data[span],
            );
            for ((&s, d), f) in s.iter().zip(d).zip(f) {
                let v = rfactor[b] * s;
                *d = v;
                *f = (ONE_BY_30 * v.abs() as f64) as f32;
            }
        }
    }
}

/// Zeroes the samples of `p` outside `win`.
fn zero_outside(p: &mut FloatPlane, win: Window) {
    let w = p.width;
    for (i, row) in p.data.chunks_exact_mut(w.max(1)).enumerate() {
        if i < win.top || i >= win.bottom {
            row.fill(0.0);
        } else {
            row[..win.left].fill(0.0);
            row[win.right..].fill(0.0);
        }
    }
}

/// `x^p` as libvmaf writes it: a plain cube for p = 3, `powf` otherwise.
#[inline]
fn pow_p(x: f32, p: f64) -> f32 {
    if p == 3.0 {
        x * x * x
    } else {
        x.powf(p as f32)
    }
}

/// The sum of the cubes of `values` (non-negative) in order in `f32`, libvmaf's `accum
/// += v * v * v`, without the slow subnormal arithmetic of cubes below 2^-126 where it
/// cannot change the sum: from a sum of 2^-100 on, half its ulp is at least 2^-124, more
/// than any cube of `v < 2^-42` (at most 2^-126 after both roundings), so adding that
/// cube leaves the sum as it is and 0 is added instead. Below that sum every cube is
/// taken (the sum never falls, so the test is made once per value until it holds).
#[inline]
fn cube_sum(mut values: impl Iterator<Item = f32>) -> f32 {
    const TINY: f32 = 2.273_736_8e-13; // 2^-42
    const BIG_ENOUGH: f32 = 7.888_609e-31; // 2^-100
    let mut acc = 0.0f32;
    while acc < BIG_ENOUGH {
        match values.next() {
            Some(v) => acc += v * v * v,
            None => return acc,
        }
    }
    values.fold(acc, |acc, v| {
        let v = if v < TINY { 0.0 } else { v };
        acc + v * v * v
    })
}

/// libvmaf's `get_noise_constant`.
fn noise_constant(w: i64, h: i64, weight: f64, p: f64) -> f32 {
    (((w * h) as f64 * weight) as f32).powf((1.0f32 as f64 / p) as f32)
}

/// The CSF-weighted p-norm of the reference bands (the denominator of one scale).
fn den_scale(rf: &Bands, rfactor: [f32; 3], p: &AdmParams) -> f32 {
    let (w, h) = (rf.h.width, rf.h.height);
    let (left, right, top, bottom) = pool_window(w, h);
    let bands = [&rf.h, &rf.v, &rf.d];
    let mut accum = [0.0f32; 3];
    for i in top..bottom {
        let row = i as usize * w;
        let (l, r) = (row + left as usize, row + right as usize);
        for b in 0..3 {
            let f = rfactor[b];
            let inner = if p.p_norm == 3.0 {
                cube_sum(bands[b].data[l..r].iter().map(|&x| (f * x).abs()))
            } else {
                bands[b].data[l..r]
                    .iter()
                    .fold(0.0f32, |s, &x| s + pow_p((f * x).abs(), p.p_norm))
            };
            accum[b] += inner;
        }
    }
    let e = (1.0f32 as f64 / p.p_norm) as f32;
    let noise = noise_constant(right - left, bottom - top, p.noise_weight, p.p_norm);
    let mut total = [0.0f32; 3];
    for b in 0..3 {
        total[b] = accum[b].powf(e) + noise;
    }
    total[0] + total[1] + total[2]
}

/// Contrast masking and pooling: `src` weighted by `rfactor`, less the masking threshold
/// from the masker's CSF values `angles` and their contributions `flt`, p-norm pooled.
fn cm(
    src: &[FloatPlane; 3],
    flt: [&FloatPlane; 3],
    angles: [&FloatPlane; 3],
    rfactor: [f32; 3],
    noise_weight: f64,
    p: &AdmParams,
) -> f32 {
    let (w, h) = (src[0].width, src[0].height);
    let (left, right, top, bottom) = pool_window(w, h);
    let start_col = left.max(1) as usize;
    let end_col = right.min(w as i64 - 1) as usize;
    let start_row = top.max(1) as usize;
    let end_row = bottom.min(h as i64 - 1) as usize;
    let mut rows: Vec<usize> = Vec::new();
    if top <= 0 {
        rows.push(0);
    }
    rows.extend(start_row..end_row);
    if bottom > h as i64 - 1 {
        rows.push(h - 1);
    }
    let mut cols: Vec<usize> = Vec::new();
    if left <= 0 {
        cols.push(0);
    }
    cols.extend(start_col..end_col);
    if right > w as i64 - 1 {
        cols.push(w - 1);
    }
    let up = |i: usize| if i == 0 { 1 } else { i - 1 };
    let down = |i: usize, n: usize| if i == n - 1 { n - 1 } else { i + 1 };
    let mut accum = [0.0f32; 3];
    let mut thr = vec![0.0f32; cols.len()];
    for &i in &rows {
        let (ra, rb) = (up(i), down(i, h));
        if !p.bypass_cm {
            let at = |j: usize| {
                let (ca, cb) = (up(j), down(j, w));
                let mut total = 0.0f32;
                for b in 0..3 {
                    let at = |y: usize, x: usize| flt[b].data[y * w + x];
                    total += band_threshold(
                        [at(ra, ca), at(ra, j), at(ra, cb)],
                        [at(i, ca), at(i, cb)],
                        [at(rb, ca), at(rb, j), at(rb, cb)],
                        angles[b].data[i * w + j],
                    );
                }
                total
            };
            // The columns with both neighbours inside the row (all but the edge ones that
            // the window takes), by the slices of the rows around them.
            let inner = cols.partition_point(|&j| j == 0)..cols.partition_point(|&j| j < w - 1);
            for k in (0..inner.start).chain(inner.end..cols.len()) {
                thr[k] = at(cols[k]);
            }
            if !inner.is_empty() {
                let rows_of = |y: usize| std::array::from_fn(|b| &flt[b].data[y * w..(y + 1) * w]);
                let centre = std::array::from_fn(|b| &angles[b].data[i * w..(i + 1) * w]);
                let first = cols[inner.start];
                thresholds(
                    [rows_of(ra), rows_of(i), rows_of(rb)],
                    centre,
                    first,
                    &mut thr[inner],
                );
            }
        }
        for b in 0..3 {
            let row = &src[b].data[i * w..(i + 1) * w];
            let masked = cols.iter().zip(&thr).map(|(&j, &t)| {
                let x = (row[j] * rfactor[b]).abs() - t;
                if x < 0.0 {
                    0.0
                } else {
                    x
                }
            });
            accum[b] += if p.p_norm == 3.0 {
                cube_sum(masked)
            } else {
                masked.fold(0.0f32, |s, x| s + pow_p(x, p.p_norm))
            };
        }
    }
    let e = (1.0f32 as f64 / p.p_norm) as f32;
    let noise = noise_constant(right - left, bottom - top, noise_weight, p.p_norm);
    let mut total = [0.0f32; 3];
    for b in 0..3 {
        total[b] = accum[b].powf(e) + noise;
    }
    total[0] + total[1] + total[2]
}

/// One band's share of a masking threshold at a column: the masker contributions of the
/// row above (left, centre, right), of its own row (left, right) and of the row below,
/// and the centre's `|angle| / 15` added in `f64` after the fourth, in the C's order.
#[inline(always)]
fn band_threshold(up: [f32; 3], mid: [f32; 2], down: [f32; 3], angle: f32) -> f32 {
    let mut sum = 0.0f32;
    sum += up[0];
    sum += up[1];
    sum += up[2];
    sum += mid[0];
    sum = (sum as f64 + ONE_BY_15 * angle.abs() as f64) as f32;
    sum += mid[1];
    sum += down[0];
    sum += down[1];
    sum += down[2];
    sum
}

/// The masking thresholds of columns `first..first + out.len()` (each with both
/// neighbours in the row) of one row: per band the nine values around the column of
/// `flt` (rows above, at and below), the centre's `|angle| / 15` added in `f64` after the
/// fourth, the bands' sums added in band order, each step the scalar C's.
fn thresholds(flt: [[&[f32]; 3]; 3], angle: [&[f32]; 3], first: usize, out: &mut [f32]) {
    let n = out.len();
    out.fill(0.0);
    for b in 0..3 {
        fn near(row: &[f32], first: usize, d: usize, n: usize) -> &[f32] {
            &row[first - 1 + d..first - 1 + d + n]
        }
        let [u, m, d] = flt.map(|rows| rows[b]);
        let (u0, u1, u2) = (
            near(u, first, 0, n),
            near(u, first, 1, n),
            near(u, first, 2, n),
        );
        let (m0, m2) = (near(m, first, 0, n), near(m, first, 2, n));
        let (d0, d1, d2) = (
            near(d, first, 0, n),
            near(d, first, 1, n),
            near(d, first, 2, n),
        );
        let a = &angle[b][first..first + n];
        for k in 0..n {
            out[k] += band_threshold(
                [u0[k], u1[k], u2[k]],
                [m0[k], m2[k]],
                [d0[k], d1[k], d2[k]],
                a[k],
            );
        }
    }
}

/// Scores one pair of luma pictures (the DWT by `k`'s row kernels, the planes in `work`).
pub(crate) fn compute_adm(
    k: &ConvKernels,
    reference: DwtSource<'_>,
    distorted: DwtSource<'_>,
    p: &AdmParams,
    work: &mut AdmWork,
) -> AdmScores {
    let (w, h) = reference.size();
    let numden_limit = 1e-10 * (w * h) as f64 / (1920.0 * 1080.0);
    let mut pictures = Some((reference, distorted));
    let (mut num, mut den, mut aim_num, mut aim_den) = (0.0f64, 0.0f64, 0.0f64, 0.0f64);
    let mut scales = [0.0f64; 8];
    work.scales.resize_with(4, ScaleWork::default);
    for scale in 0..4usize {
        let (done, rest) = work.scales.split_at_mut(scale);
        let (mut cur_ref, mut cur_dis) = match done.last() {
            Some(prev) => (DwtSource::Plane(&prev.rb.a), DwtSource::Plane(&prev.db.a)),
            None => pictures.take().expect("the first scale reads the pictures"),
        };
        let sw = &mut rest[0];
        let (num_scale, den_scale_v, aim_num_scale);
        if scale == 0 && p.skip_scale0 {
            dwt2(k, &mut cur_ref, true, &mut sw.rb);
            dwt2(k, &mut cur_dis, true, &mut sw.db);
            num_scale = 0.0f32;
            den_scale_v = 1e-10f32;
            aim_num_scale = 0.0f32;
        } else {
            dwt2(k, &mut cur_ref, false, &mut sw.rb);
            dwt2(k, &mut cur_dis, false, &mut sw.db);
            decouple(&sw.rb, &sw.db, p.enhn_gain_limit, &mut sw.dec);
            let (f1, f2) = factors(scale, &p.csf);
            let rfactor = [f1, f1, f2];
            den_scale_v = den_scale(&sw.rb, rfactor, p);
            // The detail bands are spent (decoupled and pooled): they hold the CSF planes,
            // the reference's the weighted values, the distorted's their contributions.
            let (rb, db) = (&mut sw.rb, &mut sw.db);
            csf(
                &sw.dec.a,
                rfactor,
                [&mut rb.h, &mut rb.v, &mut rb.d],
                [&mut db.h, &mut db.v, &mut db.d],
            );
            num_scale = cm(
                &sw.dec.r,
                [&db.h, &db.v, &db.d],
                [&rb.h, &rb.v, &rb.d],
                rfactor,
                p.noise_weight,
                p,
            );
            csf(
                &sw.dec.r,
                rfactor,
                [&mut rb.h, &mut rb.v, &mut rb.d],
                [&mut db.h, &mut db.v, &mut db.d],
            );
            aim_num_scale = cm(
                &sw.dec.a,
                [&db.h, &db.v, &db.d],
                [&rb.h, &rb.v, &rb.d],
                rfactor,
                0.0,
                p,
            );
        }
        num += num_scale as f64;
        den += den_scale_v as f64;
        if p.skip_aim_scale != scale as i64 {
            aim_den += den_scale_v as f64;
            aim_num += aim_num_scale as f64;
        }
        scales[2 * scale] = num_scale as f64;
        scales[2 * scale + 1] = den_scale_v as f64;
    }
    let num = if num < numden_limit { 0.0 } else { num };
    let den = if den < numden_limit { 0.0 } else { den };
    let (score, aim) = if den == 0.0 {
        (1.0, 0.0)
    } else {
        let q = aim_num / aim_den;
        (num / den, if q < 1.0 { q } else { 1.0 })
    };
    AdmScores {
        score,
        num,
        den,
        aim,
        scales,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testutil::twin_rng::TwinRng;

    /// A value of any size the bands hold: 0, subnormal, just below or above 2^-42
    /// (where cubes turn subnormal), small, ordinary; `rng` chooses.
    fn any_size(rng: &mut TwinRng) -> f32 {
        let m = 1.0 + rng.range(0, 1 << 20) as f32 / (1 << 20) as f32;
        match rng.range(0, 7) {
            0 => 0.0,
            1 => f32::from_bits(rng.range(1, (1 << 23) - 1) as u32),
            2 => m * 2f32.powi(rng.range(-50, -43) as i32),
            3 => m * 2f32.powi(-43),
            4 => m * 2f32.powi(-42),
            5 => m * 2f32.powi(rng.range(-41, -25) as i32),
            _ => m * 2f32.powi(rng.range(-10, 8) as i32),
        }
    }

    #[test]
    fn cube_sums_are_the_plain_sums_to_the_bit() {
        let mut rng = TwinRng::new(0xc0be);
        for trial in 0..2000 {
            let n = rng.size(0, 200);
            // Some sequences stay tiny throughout, so the sum crosses 2^-100 late or never.
            let tiny_only = trial % 4 == 0;
            let v: Vec<f32> = (0..n)
                .map(|_| {
                    let x = any_size(&mut rng);
                    if tiny_only {
                        x.min(2f32.powi(-33))
                    } else {
                        x
                    }
                })
                .collect();
            let want = v.iter().fold(0.0f32, |s, &x| s + x * x * x);
            let got = cube_sum(v.iter().copied());
            assert_eq!(got.to_bits(), want.to_bits(), "trial {trial}: {v:?}");
        }
    }

    /// libvmaf's x86 division of one value: its own `rcpss` estimate, one Newton step.
    #[cfg(target_arch = "x86_64")]
    fn divs(n: f32, d: f32) -> f32 {
        use std::arch::x86_64::{_mm_cvtss_f32, _mm_rcp_ss, _mm_set_ss};
        // SAFETY: SSE is part of the x86-64 baseline; no memory is touched.
        let xi = unsafe { _mm_cvtss_f32(_mm_rcp_ss(_mm_set_ss(d))) };
        n * (xi + xi * (1.0 - d * xi))
    }

    #[cfg(not(target_arch = "x86_64"))]
    fn divs(n: f32, d: f32) -> f32 {
        n / d
    }

    #[test]
    fn row_quotients_are_one_division_at_a_time_to_the_bit() {
        let mut rng = TwinRng::new(0x7263);
        for trial in 0..400 {
            let n = rng.size(0, 70);
            let mut any = || {
                let v = any_size(&mut rng);
                match rng.range(0, 9) {
                    0 => -v,
                    1 => [f32::INFINITY, f32::NAN, -0.0, f32::MAX][rng.range(0, 3) as usize],
                    _ => v,
                }
            };
            let t: Vec<f32> = (0..n).map(|_| any()).collect();
            let o: Vec<f32> = (0..n).map(|_| any()).collect();
            let mut got = vec![0.0f32; n];
            quotients(&t, &o, 1e-30, &mut got);
            for j in 0..n {
                let want = divs(t[j], o[j] + 1e-30);
                // Which operand's NaN a multiply passes on is the compiler's choice (it
                // may swap them), in libvmaf's build as in this one: NaN matches NaN.
                let same = got[j].to_bits() == want.to_bits() || (got[j].is_nan() && want.is_nan());
                assert!(
                    same,
                    "trial {trial}: {} / {}: {} against {want}",
                    t[j], o[j], got[j]
                );
            }
        }
    }

    #[test]
    fn thresholds_are_the_scalar_sums_to_the_bit() {
        let mut rng = TwinRng::new(0x7468);
        for trial in 0..300 {
            let w = rng.size(3, 80);
            let first = rng.range(1, w as i64 - 2) as usize;
            let n = rng.range(0, (w - 1 - first) as i64) as usize;
            let mut row = || (0..w).map(|_| any_size(&mut rng)).collect::<Vec<f32>>();
            let flt: [[Vec<f32>; 3]; 3] = std::array::from_fn(|_| std::array::from_fn(|_| row()));
            let angle: [Vec<f32>; 3] = std::array::from_fn(|_| row());
            let mut got = vec![f32::NAN; n];
            thresholds(
                std::array::from_fn(|r| std::array::from_fn(|b| flt[r][b].as_slice())),
                std::array::from_fn(|b| angle[b].as_slice()),
                first,
                &mut got,
            );
            for (k, g) in got.iter().enumerate() {
                let j = first + k;
                let mut thr = 0.0f32;
                for b in 0..3 {
                    let [u, m, d] = [&flt[0][b], &flt[1][b], &flt[2][b]];
                    let mut sum = 0.0f32;
                    sum += u[j - 1];
                    sum += u[j];
                    sum += u[j + 1];
                    sum += m[j - 1];
                    sum = (sum as f64 + ONE_BY_15 * angle[b][j].abs() as f64) as f32;
                    sum += m[j + 1];
                    sum += d[j - 1];
                    sum += d[j];
                    sum += d[j + 1];
                    thr += sum;
                }
                assert_eq!(g.to_bits(), thr.to_bits(), "trial {trial}, column {j}");
            }
        }
    }
}
