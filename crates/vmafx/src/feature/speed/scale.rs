//! SpEED's prescaling (libvmaf's vif_scale_frame_s): nearest, bilinear, bicubic and
//! Lanczos-4 resampling of a float plane, with libvmaf's single-precision arithmetic and
//! mirrored borders.

use crate::error::{Error, Result};

/// A prescale method.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Method {
    /// Nearest neighbour (truncated source position).
    Nearest,
    /// Bilinear.
    Bilinear,
    /// Bicubic, a = -0.75.
    Bicubic,
    /// Lanczos with a = 4, normalised by the weight sum.
    Lanczos4,
}

impl Method {
    /// Parses libvmaf's method name.
    pub(super) fn parse(extractor: &str, name: &str) -> Result<Self> {
        Ok(match name {
            "nearest" => Method::Nearest,
            "bilinear" => Method::Bilinear,
            "bicubic" => Method::Bicubic,
            "lanczos4" => Method::Lanczos4,
            _ => {
                return Err(Error::invalid(
                    format!("{extractor}:speed_prescale_method"),
                    format!(
                        "invalid scale method '{name}' (supported: nearest, bilinear, bicubic, lanczos4)"
                    ),
                ))
            }
        })
    }
}

/// The size of a source or destination region, in samples.
#[derive(Debug, Clone, Copy)]
pub(super) struct Size {
    /// Width.
    pub w: usize,
    /// Height.
    pub h: usize,
}

/// libvmaf's float mirror: -i below `left`, 2 right - i above `right`, clamped for safety.
fn mirror(i: f32, right: f32) -> usize {
    let m = if i < 0.0 {
        -i
    } else if i > right {
        2.0 * right - i
    } else {
        i
    };
    (m as i64).clamp(0, right as i64) as usize
}

fn centre(x: usize, ratio: f32) -> f32 {
    ((x as f64 + 0.5) * ratio as f64 - 0.5) as f32
}

/// Resamples the `from` region of `src` to the `to` region of `dst` (both with `stride`).
pub(super) fn rescale(
    m: Method,
    src: &[f32],
    dst: &mut [f32],
    from: Size,
    to: Size,
    stride: usize,
) {
    if from.w == to.w && from.h == to.h {
        dst[..stride * to.h].copy_from_slice(&src[..stride * to.h]);
        return;
    }
    let rx = from.w as f32 / to.w as f32;
    let ry = from.h as f32 / to.h as f32;
    match m {
        Method::Nearest => {
            for y in 0..to.h {
                for x in 0..to.w {
                    let sy = ((y as f32 * ry) as usize).min(from.h - 1);
                    let sx = ((x as f32 * rx) as usize).min(from.w - 1);
                    dst[y * stride + x] = src[sy * stride + sx];
                }
            }
        }
        Method::Bilinear => bilinear(src, dst, from, to, stride, rx, ry),
        Method::Bicubic => resample(src, dst, from, to, stride, rx, ry, bicubic_at),
        Method::Lanczos4 => resample(src, dst, from, to, stride, rx, ry, lanczos4_at),
    }
}

fn bilinear(src: &[f32], dst: &mut [f32], from: Size, to: Size, stride: usize, rx: f32, ry: f32) {
    let right = (from.w - 1) as f32;
    let cols: Vec<(usize, usize, f32)> = (0..to.w)
        .map(|x| {
            let xx = centre(x, rx);
            let x1 = mirror((xx as f64).floor() as f32, right);
            let x2 = mirror((xx as f64).ceil() as f32, right);
            (x1, x2, xx - x1 as f32)
        })
        .collect();
    let bottom = (from.h - 1) as f32;
    for y in 0..to.h {
        let yy = centre(y, ry);
        let y1 = mirror((yy as f64).floor() as f32, bottom);
        let y2 = mirror((yy as f64).ceil() as f32, bottom);
        let dy = yy - y1 as f32;
        let (r1, r2) = (&src[y1 * stride..], &src[y2 * stride..]);
        for (x, &(x1, x2, dx)) in cols.iter().enumerate() {
            dst[y * stride + x] = (1.0 - dy) * (1.0 - dx) * r1[x1]
                + (1.0 - dy) * dx * r1[x2]
                + dy * (1.0 - dx) * r2[x1]
                + dy * dx * r2[x2];
        }
    }
}

type Interp = fn(&[f32], Size, usize, f32, f32) -> f32;

#[allow(clippy::too_many_arguments)]
fn resample(
    src: &[f32],
    dst: &mut [f32],
    from: Size,
    to: Size,
    stride: usize,
    rx: f32,
    ry: f32,
    at: Interp,
) {
    for y in 0..to.h {
        let yy = centre(y, ry);
        for x in 0..to.w {
            dst[y * stride + x] = at(src, from, stride, centre(x, rx), yy);
        }
    }
}

fn bicubic_kernel(t: f32) -> f32 {
    let a = -0.75f32;
    let t = t.abs();
    if t < 1.0 {
        ((a + 2.0) * t - (a + 3.0)) * t * t + 1.0
    } else if t < 2.0 {
        (((t - 5.0) * t + 8.0) * t - 4.0) * a
    } else {
        0.0
    }
}

fn bicubic_at(src: &[f32], s: Size, stride: usize, x: f32, y: f32) -> f32 {
    let (x0, y0) = ((x as f64).floor() as i64, (y as f64).floor() as i64);
    let (dx, dy) = (x - x0 as f32, y - y0 as f32);
    let wx: Vec<f32> = (-1..=2).map(|i| bicubic_kernel(i as f32 - dx)).collect();
    let wy: Vec<f32> = (-1..=2).map(|i| bicubic_kernel(i as f32 - dy)).collect();
    let mut v = 0f32;
    for (j, &wyj) in wy.iter().enumerate() {
        for (i, &wxi) in wx.iter().enumerate() {
            let xi = mirror((x0 + i as i64 - 1) as f32, (s.w - 1) as f32);
            let yi = mirror((y0 + j as i64 - 1) as f32, (s.h - 1) as f32);
            v += src[yi * stride + xi] * (wxi * wyj);
        }
    }
    v
}

fn lanczos4_kernel(x: f32, a: f32) -> f32 {
    use std::f64::consts::PI;
    if x == 0.0 {
        return 1.0;
    }
    if x > -a && x < a {
        let xd = x as f64;
        return (a as f64 * (PI * xd).sin() * (PI * xd / a as f64).sin() / (PI * PI * xd * xd))
            as f32;
    }
    0.0
}

fn lanczos4_at(src: &[f32], s: Size, stride: usize, x: f32, y: f32) -> f32 {
    let (x0, y0) = ((x as f64).floor() as i64, (y as f64).floor() as i64);
    let (dx, dy) = (x - x0 as f32, y - y0 as f32);
    let wx: Vec<f32> = (-4..=4)
        .map(|i| lanczos4_kernel(i as f32 - dx, 4.0))
        .collect();
    let wy: Vec<f32> = (-4..=4)
        .map(|i| lanczos4_kernel(i as f32 - dy, 4.0))
        .collect();
    let (mut v, mut sum) = (0f32, 0f32);
    for (j, &wyj) in wy.iter().enumerate() {
        for (i, &wxi) in wx.iter().enumerate() {
            let w = wxi * wyj;
            sum += w;
            let xi = mirror((x0 + i as i64 - 4) as f32, (s.w - 1) as f32);
            let yi = mirror((y0 + j as i64 - 4) as f32, (s.h - 1) as f32);
            v += src[yi * stride + xi] * w;
        }
    }
    v / sum
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn constant_planes_stay_constant() {
        let src = vec![3.0f32; 16 * 16];
        for m in [
            Method::Nearest,
            Method::Bilinear,
            Method::Bicubic,
            Method::Lanczos4,
        ] {
            let mut dst = vec![0f32; 16 * 16];
            rescale(
                m,
                &src,
                &mut dst,
                Size { w: 16, h: 16 },
                Size { w: 8, h: 10 },
                16,
            );
            for y in 0..10 {
                for x in 0..8 {
                    assert!((dst[y * 16 + x] - 3.0).abs() < 1e-5, "{m:?}");
                }
            }
        }
        assert!(Method::parse("speed_chroma", "area").is_err());
    }
}
