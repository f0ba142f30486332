//! Decoupling: splits the distorted detail bands into what is left of the reference
//! (restored, `r`) and what was added (`a = dis - r`).
//!
//! Per position, k = clamp(dis / ref, 0, 1) by a reciprocal table in Q15, and r = k · ref.
//! Where the (h, v) orientation of the two pictures differs by less than one degree, the
//! gain may exceed 1 up to `adm_enhn_gain_limit` (but never past the distorted value).
//! Only the scored region widened by the filter taps is computed.

use std::sync::OnceLock;

use super::border::Region;

/// `2^30 / i` for `i` in -32768..=32768, at index `i + 32768` (0 at the middle).
pub(super) fn reciprocals() -> &'static [i32] {
    static TABLE: OnceLock<Vec<i32>> = OnceLock::new();
    TABLE.get_or_init(|| {
        let mut t = vec![0i32; 65537];
        for i in 1..=32768i32 {
            let r = (1i32 << 30) / i;
            t[(32768 + i) as usize] = r;
            t[(32768 - i) as usize] = -r;
        }
        t
    })
}

/// Whether the angle between (oh, ov) and (th, tv) is below one degree, decided in float
/// and double the way libvmaf does.
fn within_one_degree(cos_sq: f32, oh: i64, ov: i64, th: i64, tv: i64) -> bool {
    let dot = oh * th + ov * tv;
    let o_sq = oh * oh + ov * ov;
    let t_sq = th * th + tv * tv;
    let dp = (dot as f32) as f64 / 4096.0;
    dp >= 0.0
        && dp * dp
            >= cos_sq as f64 * ((o_sq as f32) as f64 / 4096.0) * ((t_sq as f32) as f64 / 4096.0)
}

/// cos²(1°) as libvmaf holds it (computed in double, kept as float).
pub(super) fn cos_sq_one_degree() -> f32 {
    let c = (1.0f64 * std::f64::consts::PI / 180.0).cos();
    (c * c) as f32
}

/// Applies the enhancement gain limit to `rst` (C's MIN/MAX in double, then truncation).
fn limit_gain(rst: f64, k: i64, o: i64, t: f64, egl: f64) -> f64 {
    let x = rst * egl;
    if k > 0 && o > 0 {
        if x < t {
            x
        } else {
            t
        }
    } else if k > 0 && o < 0 {
        if x > t {
            x
        } else {
            t
        }
    } else {
        rst
    }
}

/// The bands one decoupling reads and writes: slices that all start at the same band row
/// (the first row of the picture, or of a strip) and share one row stride.
pub(super) struct Decouple<'a, T> {
    /// Reference detail bands (h, v, d).
    pub reference: [&'a [T]; 3],
    /// Distorted detail bands.
    pub distorted: [&'a [T]; 3],
    /// Restored bands (written).
    pub restored: [&'a mut [T]; 3],
    /// Additive impairment bands (written).
    pub additive: [&'a mut [T]; 3],
}

impl<'a, T> Decouple<'a, T> {
    /// Views of whole bands.
    pub(super) fn of(
        reference: &'a [Vec<T>; 3],
        distorted: &'a [Vec<T>; 3],
        restored: &'a mut [Vec<T>; 3],
        additive: &'a mut [Vec<T>; 3],
    ) -> Self {
        Decouple {
            reference: reference.each_ref().map(|v| v.as_slice()),
            distorted: distorted.each_ref().map(|v| v.as_slice()),
            restored: restored.each_mut().map(|v| v.as_mut_slice()),
            additive: additive.each_mut().map(|v| v.as_mut_slice()),
        }
    }
}

/// Scale 0: `i16` bands.
pub(super) fn scale0(mut b: Decouple<'_, i16>, stride: usize, region: Region, egl: f64) {
    let div = reciprocals();
    let cos_sq = cos_sq_one_degree();
    for i in region.top..region.bottom {
        for j in region.left..region.right {
            scale0_at(&mut b, i * stride + j, egl, div, cos_sq);
        }
    }
}

/// Scale-0 decoupling of band position `p` (`div` from [`reciprocals`], `cos_sq` from
/// [`cos_sq_one_degree`]).
#[inline]
pub(super) fn scale0_at(b: &mut Decouple<'_, i16>, p: usize, egl: f64, div: &[i32], cos_sq: f32) {
    let o = [0, 1, 2].map(|t| b.reference[t][p] as i64);
    let d = [0, 1, 2].map(|t| b.distorted[t][p] as i64);
    let angle = within_one_degree(cos_sq, o[0], o[1], d[0], d[1]);
    for t in 0..3 {
        let k = if o[t] == 0 {
            32768
        } else {
            ((div[(o[t] + 32768) as usize] as i64 * d[t] + 16384) >> 15).clamp(0, 32768)
        };
        let mut rst = ((k * o[t] + 16384) >> 15) as i32 as i16;
        if angle {
            rst = limit_gain(rst as f64, k, o[t], d[t] as f64, egl) as i16;
        }
        b.restored[t][p] = rst;
        b.additive[t][p] = (d[t] as i32 - rst as i32) as i16;
    }
}

/// The 15 leading bits of `x` (>= 2^15), rounded, and the shift that drops the rest.
fn best15(x: u32) -> (u16, u32) {
    let k = 17 - x.leading_zeros();
    (((x.wrapping_add(1 << (k - 1))) >> k) as u16, k)
}

/// Scales 1..3: `i32` bands; the reciprocal is looked up from the divisor's leading bits.
pub(super) fn scale123(mut b: Decouple<'_, i32>, stride: usize, region: Region, egl: f64) {
    let div = reciprocals();
    let cos_sq = cos_sq_one_degree();
    for i in region.top..region.bottom {
        for j in region.left..region.right {
            scale123_at(&mut b, i * stride + j, egl, div, cos_sq);
        }
    }
}

/// Scale-1..3 decoupling of band position `p` (`div` from [`reciprocals`], `cos_sq` from
/// [`cos_sq_one_degree`]).
#[inline]
pub(super) fn scale123_at(b: &mut Decouple<'_, i32>, p: usize, egl: f64, div: &[i32], cos_sq: f32) {
    let o = [0, 1, 2].map(|t| b.reference[t][p] as i64);
    let d = [0, 1, 2].map(|t| b.distorted[t][p] as i64);
    let angle = within_one_degree(cos_sq, o[0], o[1], d[0], d[1]);
    for t in 0..3 {
        let k = if o[t] == 0 {
            32768
        } else {
            let abs = (o[t] as i32).unsigned_abs();
            let (msb, shift) = if abs < 32768 {
                (abs as u16, 0)
            } else {
                best15(abs)
            };
            let sign = if o[t] < 0 { -1 } else { 1 };
            let q = div[msb as usize + 32768] as i64 * d[t] * sign;
            ((q + (1i64 << (14 + shift))) >> (15 + shift)).clamp(0, 32768)
        };
        let mut rst = ((k * o[t] + 16384) >> 15) as i32;
        if angle {
            rst = limit_gain(rst as f64, k, o[t], d[t] as f64, egl) as i32;
        }
        b.restored[t][p] = rst;
        b.additive[t][p] = (d[t] as i32).wrapping_sub(rst);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reciprocal_table_and_leading_bits() {
        let t = reciprocals();
        assert_eq!(t[32768 + 1], 1 << 30);
        assert_eq!(t[32768 - 3], -((1 << 30) / 3));
        assert_eq!(t[32768], 0);
        assert_eq!(best15(65535), (32768, 1));
        assert_eq!(best15(1 << 20), (1 << 14, 6));
    }
}
