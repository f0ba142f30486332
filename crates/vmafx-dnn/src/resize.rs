//! Resizing a plane to a model's fixed input shape (VMAFx's `VmafxDnnResize`).

/// How a frame is resized to a model's fixed input (values as `VmafxDnnResize`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[repr(u32)]
pub enum Resize {
    /// No resize: a frame of another size is refused.
    #[default]
    Disabled = 0,
    /// Bilinear (pixel centres aligned).
    Bilinear = 1,
    /// Nearest neighbour.
    Nearest = 2,
    /// Bicubic (Catmull-Rom, edges clamped).
    Bicubic = 3,
}

impl Resize {
    /// The mode of C value `v`, `None` for another value.
    pub fn from_u32(v: u32) -> Option<Resize> {
        match v {
            0 => Some(Resize::Disabled),
            1 => Some(Resize::Bilinear),
            2 => Some(Resize::Nearest),
            3 => Some(Resize::Bicubic),
            _ => None,
        }
    }

    /// The mode named `s` (`disabled`/`none`, `bilinear`, `nearest`, `bicubic`).
    pub fn from_name(s: &str) -> Option<Resize> {
        match s {
            "disabled" | "none" => Some(Resize::Disabled),
            "bilinear" => Some(Resize::Bilinear),
            "nearest" => Some(Resize::Nearest),
            "bicubic" => Some(Resize::Bicubic),
            _ => None,
        }
    }
}

/// `src` (`sw` x `sh`, row-major) resized to `dw` x `dh` with `mode` (`Disabled` copies,
/// and is only called with equal sizes).
pub fn resize(src: &[f32], sw: usize, sh: usize, dw: usize, dh: usize, mode: Resize) -> Vec<f32> {
    if (sw, sh) == (dw, dh) || mode == Resize::Disabled {
        return src.to_vec();
    }
    let mut out = vec![0.0f32; dw * dh];
    let at = |x: isize, y: isize| -> f32 {
        let x = x.clamp(0, sw as isize - 1) as usize;
        let y = y.clamp(0, sh as isize - 1) as usize;
        src[y * sw + x]
    };
    let sx = sw as f64 / dw as f64;
    let sy = sh as f64 / dh as f64;
    for y in 0..dh {
        let fy = (y as f64 + 0.5) * sy - 0.5;
        for x in 0..dw {
            let fx = (x as f64 + 0.5) * sx - 0.5;
            out[y * dw + x] = match mode {
                Resize::Nearest => {
                    let nx = ((x as f64 + 0.5) * sx).floor() as isize;
                    let ny = ((y as f64 + 0.5) * sy).floor() as isize;
                    at(nx, ny)
                }
                Resize::Bilinear => {
                    let (x0, y0) = (fx.floor(), fy.floor());
                    let (ax, ay) = ((fx - x0) as f32, (fy - y0) as f32);
                    let (x0, y0) = (x0 as isize, y0 as isize);
                    let top = at(x0, y0) * (1.0 - ax) + at(x0 + 1, y0) * ax;
                    let bottom = at(x0, y0 + 1) * (1.0 - ax) + at(x0 + 1, y0 + 1) * ax;
                    top * (1.0 - ay) + bottom * ay
                }
                Resize::Bicubic => {
                    let (x0, y0) = (fx.floor(), fy.floor());
                    let wx = cubic_weights((fx - x0) as f32);
                    let wy = cubic_weights((fy - y0) as f32);
                    let (x0, y0) = (x0 as isize, y0 as isize);
                    let mut acc = 0.0f32;
                    for (j, wyj) in wy.iter().enumerate() {
                        let row: f32 = wx
                            .iter()
                            .enumerate()
                            .map(|(i, w)| w * at(x0 - 1 + i as isize, y0 - 1 + j as isize))
                            .sum();
                        acc += wyj * row;
                    }
                    acc
                }
                Resize::Disabled => unreachable!("copied above"),
            };
        }
    }
    out
}

/// Catmull-Rom weights of the four taps around a point `t` (0..1) past the second.
fn cubic_weights(t: f32) -> [f32; 4] {
    let t2 = t * t;
    let t3 = t2 * t;
    [
        0.5 * (-t3 + 2.0 * t2 - t),
        0.5 * (3.0 * t3 - 5.0 * t2 + 2.0),
        0.5 * (-3.0 * t3 + 4.0 * t2 + t),
        0.5 * (t3 - t2),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_flat_plane_stays_flat_and_halving_averages() {
        let flat = vec![0.25f32; 6 * 4];
        for m in [Resize::Nearest, Resize::Bilinear, Resize::Bicubic] {
            let r = resize(&flat, 6, 4, 3, 2, m);
            assert_eq!(r.len(), 6);
            assert!(r.iter().all(|v| (v - 0.25).abs() < 1e-6), "{m:?}: {r:?}");
        }
        // Bilinear halving of a 2x1 pair lands between its two samples.
        let r = resize(&[0.0, 1.0], 2, 1, 1, 1, Resize::Bilinear);
        assert!((r[0] - 0.5).abs() < 1e-6);
        let r = resize(&[0.0, 1.0], 2, 1, 1, 1, Resize::Nearest);
        assert_eq!(r, vec![1.0]);
    }
}
