//! Picture rescaling for `vif_prescale` (and float_motion's `motion_add_scale1`):
//! libvmaf's nearest, bilinear, bicubic and Lanczos-4 resamplers, in its float arithmetic.

use std::f64::consts::PI;

use crate::feature::float_conv::FloatPlane;

/// A resampling method (`vif_prescale_method`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum ScaleMethod {
    /// Nearest neighbour (the default).
    Nearest,
    /// Bilinear.
    Bilinear,
    /// Bicubic (a = -0.75).
    Bicubic,
    /// Lanczos with a = 4.
    Lanczos4,
}

impl ScaleMethod {
    /// The method libvmaf names `name`, if any.
    pub(crate) fn from_name(name: &str) -> Option<Self> {
        Some(match name {
            "nearest" => Self::Nearest,
            "bilinear" => Self::Bilinear,
            "bicubic" => Self::Bicubic,
            "lanczos4" => Self::Lanczos4,
            _ => return None,
        })
    }
}

/// Resamples `src` into `dst` (whose size is the target size); a copy when sizes match.
pub(crate) fn scale_frame(method: ScaleMethod, src: &FloatPlane, dst: &mut FloatPlane) {
    if src.width == dst.width && src.height == dst.height {
        dst.data.copy_from_slice(&src.data);
        return;
    }
    let ratio_x = src.width as f32 / dst.width as f32;
    let ratio_y = src.height as f32 / dst.height as f32;
    match method {
        ScaleMethod::Nearest => {
            for y in 0..dst.height {
                let sy = ((y as f32 * ratio_y) as usize).min(src.height - 1);
                for x in 0..dst.width {
                    let sx = ((x as f32 * ratio_x) as usize).min(src.width - 1);
                    dst.data[y * dst.width + x] = src.at(sx, sy);
                }
            }
        }
        ScaleMethod::Bilinear => bilinear(src, dst, ratio_x, ratio_y),
        ScaleMethod::Bicubic | ScaleMethod::Lanczos4 => {
            for y in 0..dst.height {
                let yy = ((y as f64 + 0.5) * ratio_y as f64 - 0.5) as f32;
                for x in 0..dst.width {
                    let xx = ((x as f64 + 0.5) * ratio_x as f64 - 0.5) as f32;
                    dst.data[y * dst.width + x] = if method == ScaleMethod::Bicubic {
                        bicubic_at(src, xx, yy)
                    } else {
                        lanczos4_at(src, xx, yy)
                    };
                }
            }
        }
    }
}

/// libvmaf's float mirror of a sample position into `left..=right`.
fn mirror_f(i: f32, left: f32, right: f32) -> f32 {
    if i < left {
        -i
    } else if i > right {
        2.0 * right - i
    } else {
        i
    }
}

/// A mirrored position as an index, clamped into the picture.
fn index(i: f32, n: usize) -> usize {
    let m = mirror_f(i, 0.0, (n - 1) as f32) as i64;
    m.clamp(0, n as i64 - 1) as usize
}

fn bilinear(src: &FloatPlane, dst: &mut FloatPlane, ratio_x: f32, ratio_y: f32) {
    let cols: Vec<(usize, usize, f32)> = (0..dst.width)
        .map(|x| {
            let xx = ((x as f64 + 0.5) * ratio_x as f64 - 0.5) as f32;
            let x1 = index((xx as f64).floor() as f32, src.width);
            let x2 = index((xx as f64).ceil() as f32, src.width);
            (x1, x2, xx - x1 as f32)
        })
        .collect();
    for y in 0..dst.height {
        let yy = ((y as f64 + 0.5) * ratio_y as f64 - 0.5) as f32;
        let y1 = index((yy as f64).floor() as f32, src.height);
        let y2 = index((yy as f64).ceil() as f32, src.height);
        let dy = yy - y1 as f32;
        let (r1, r2) = (src.row(y1), src.row(y2));
        for (x, &(x1, x2, dx)) in cols.iter().enumerate() {
            dst.data[y * dst.width + x] = (1.0 - dy) * (1.0 - dx) * r1[x1]
                + (1.0 - dy) * dx * r1[x2]
                + dy * (1.0 - dx) * r2[x1]
                + dy * dx * r2[x2];
        }
    }
}

fn bicubic_kernel(t: f32) -> f32 {
    let a = -0.75f32;
    let t = if t < 0.0 { -t } else { t };
    if t < 1.0 {
        ((a + 2.0) * t - (a + 3.0)) * t * t + 1.0
    } else if t < 2.0 {
        (((t - 5.0) * t + 8.0) * t - 4.0) * a
    } else {
        0.0
    }
}

fn bicubic_at(src: &FloatPlane, x: f32, y: f32) -> f32 {
    let x0 = (x as f64).floor() as i32;
    let y0 = (y as f64).floor() as i32;
    let dx = x - x0 as f32;
    let dy = y - y0 as f32;
    let mut wx = [0.0f32; 4];
    let mut wy = [0.0f32; 4];
    for i in -1..=2i32 {
        wx[(i + 1) as usize] = bicubic_kernel(i as f32 - dx);
        wy[(i + 1) as usize] = bicubic_kernel(i as f32 - dy);
    }
    let mut v = 0.0f32;
    for j in -1..=2i32 {
        for i in -1..=2i32 {
            let xi = index((x0 + i) as f32, src.width);
            let yi = index((y0 + j) as f32, src.height);
            let w = wx[(i + 1) as usize] * wy[(j + 1) as usize];
            v += src.at(xi, yi) * w;
        }
    }
    v
}

fn lanczos4_kernel(x: f32, a: f32) -> f32 {
    if x == 0.0 {
        return 1.0;
    }
    if x > -a && x < a {
        let (xd, ad) = (x as f64, a as f64);
        return (ad * (PI * xd).sin() * (PI * xd / ad).sin() / (PI * PI * xd * xd)) as f32;
    }
    0.0
}

fn lanczos4_at(src: &FloatPlane, x: f32, y: f32) -> f32 {
    const A: i32 = 4;
    let x0 = (x as f64).floor() as i32;
    let y0 = (y as f64).floor() as i32;
    let dx = x - x0 as f32;
    let dy = y - y0 as f32;
    let mut wx = [0.0f32; 9];
    let mut wy = [0.0f32; 9];
    for i in -A..=A {
        wx[(i + A) as usize] = lanczos4_kernel(i as f32 - dx, A as f32);
        wy[(i + A) as usize] = lanczos4_kernel(i as f32 - dy, A as f32);
    }
    let (mut value, mut weight_sum) = (0.0f32, 0.0f32);
    for iy in -A..=A {
        for ix in -A..=A {
            let w = wx[(ix + A) as usize] * wy[(iy + A) as usize];
            weight_sum += w;
            let xi = index((x0 + ix) as f32, src.width);
            let yi = index((y0 + iy) as f32, src.height);
            value += src.at(xi, yi) * w;
        }
    }
    value / weight_sum
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_size_copies_and_half_size_averages() {
        let mut src = FloatPlane::new(4, 4);
        for (i, v) in src.data.iter_mut().enumerate() {
            *v = i as f32;
        }
        let mut dst = FloatPlane::new(4, 4);
        scale_frame(ScaleMethod::Bicubic, &src, &mut dst);
        assert_eq!(dst.data, src.data);
        let mut half = FloatPlane::new(2, 2);
        scale_frame(ScaleMethod::Bilinear, &src, &mut half);
        // (0.5,0.5) between 0,1,4,5 -> 2.5
        assert_eq!(half.at(0, 0), 2.5);
        scale_frame(ScaleMethod::Nearest, &src, &mut half);
        assert_eq!(half.data, vec![0.0, 2.0, 8.0, 10.0]);
    }
}
