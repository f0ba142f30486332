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

/// The division of decoupling, as libvmaf's x86 build does it (`ADM_OPT_RECIP_DIVISION`):
/// `n` times the SSE reciprocal estimate of `d` refined by one Newton step, each step a
/// separate single-precision rounding (no fused multiply-add, as libvmaf's C has none).
/// The estimate is the processor's own `rcpss`, so on the same machine the bits are
/// libvmaf's; off x86 libvmaf divides exactly, and so does this.
#[inline]
#[cfg(target_arch = "x86_64")]
fn divs(n: f32, d: f32) -> f32 {
    use std::arch::x86_64::{_mm_cvtss_f32, _mm_rcp_ss, _mm_set_ss};
    // SAFETY: SSE is part of the x86-64 baseline every x86_64 target enables, so these
    // SSE intrinsics run on any processor this code runs on; they touch no memory.
    let xi = unsafe { _mm_cvtss_f32(_mm_rcp_ss(_mm_set_ss(d))) };
    n * (xi + xi * (1.0 - d * xi))
}

/// The division of decoupling: exact, as libvmaf builds without SSE do.
#[inline]
#[cfg(not(target_arch = "x86_64"))]
fn divs(n: f32, d: f32) -> f32 {
    n / d
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
    for i in win.top..win.bottom {
        for j in win.left..win.right {
            let k = i * w + j;
            let (oh, ov, od) = (rf.h.data[k], rf.v.data[k], rf.d.data[k]);
            let (th, tv, td) = (ds.h.data[k], ds.v.data[k], ds.d.data[k]);
            // Same as C's nested ternaries, NaN included.
            let clamp = |x: f32| x.clamp(0.0, 1.0);
            let kh = clamp(divs(th, oh + eps));
            let kv = clamp(divs(tv, ov + eps));
            let kd = clamp(divs(td, od + eps));
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
            for j in win.left..win.right {
                let k = i * w + j;
                let v = rfactor[b] * src[b].data[k];
                dst.data[k] = v;
                flt.data[k] = (ONE_BY_30 * v.abs() as f64) as f32;
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
        let mut inner = [0.0f32; 3];
        for j in left..right {
            let k = i as usize * w + j as usize;
            for b in 0..3 {
                let v = (rfactor[b] * bands[b].data[k]).abs();
                inner[b] += pow_p(v, p.p_norm);
            }
        }
        for b in 0..3 {
            accum[b] += inner[b];
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
    for &i in &rows {
        let (ra, rb) = (up(i), down(i, h));
        let mut inner = [0.0f32; 3];
        for &j in &cols {
            let (ca, cb) = (up(j), down(j, w));
            let mut thr = 0.0f32;
            if !p.bypass_cm {
                for b in 0..3 {
                    let fl = &flt[b].data;
                    let mut sum = 0.0f32;
                    sum += fl[ra * w + ca];
                    sum += fl[ra * w + j];
                    sum += fl[ra * w + cb];
                    sum += fl[i * w + ca];
                    sum = (sum as f64 + ONE_BY_15 * angles[b].data[i * w + j].abs() as f64) as f32;
                    sum += fl[i * w + cb];
                    sum += fl[rb * w + ca];
                    sum += fl[rb * w + j];
                    sum += fl[rb * w + cb];
                    thr += sum;
                }
            }
            for b in 0..3 {
                let x = src[b].data[i * w + j] * rfactor[b];
                let x = x.abs() - thr;
                let x = if x < 0.0 { 0.0 } else { x };
                inner[b] += pow_p(x, p.p_norm);
            }
        }
        for b in 0..3 {
            accum[b] += inner[b];
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
