//! One level of the Daubechies-2 wavelet transform float ADM uses (libvmaf's
//! `adm_dwt2_s`), with its symmetric border indices.

use crate::feature::float_common::FloatPlane;

const LO: [f64; 4] = [
    0.482962913144690,
    0.836516303737469,
    0.224143868041857,
    -0.129409522550921,
];
const HI: [f64; 4] = [
    -0.129409522550921,
    -0.224143868041857,
    0.836516303737469,
    -0.482962913144690,
];

/// The four sub-bands of one level, each `ceil(w/2) x ceil(h/2)`.
#[derive(Debug, Clone, Default)]
pub struct Bands {
    /// Low-pass both ways (the next level's input).
    pub a: FloatPlane,
    /// Low-pass vertically, high-pass horizontally.
    pub v: FloatPlane,
    /// High-pass vertically, low-pass horizontally.
    pub h: FloatPlane,
    /// High-pass both ways.
    pub d: FloatPlane,
}

/// The four source indices of each output position along a side of length `n`.
fn indices(n: usize) -> Vec<[usize; 4]> {
    let n = n as isize;
    (0..(n + 1) / 2)
        .map(|i| {
            let fold = |k: isize| {
                let k = if k < 0 {
                    -k
                } else if k >= n {
                    2 * n - k - 1
                } else {
                    k
                };
                k.clamp(0, n - 1) as usize
            };
            [
                fold(2 * i - 1),
                fold(2 * i),
                fold(2 * i + 1),
                fold(2 * i + 2),
            ]
        })
        .collect()
}

fn taps(f: &[f32; 4], s: [f32; 4]) -> f32 {
    let mut acc = 0.0f32;
    acc += f[0] * s[0];
    acc += f[1] * s[1];
    acc += f[2] * s[2];
    acc += f[3] * s[3];
    acc
}

/// Transforms `src` one level; with `lo_only` only band `a` is computed.
pub fn dwt2(src: &FloatPlane, lo_only: bool) -> Bands {
    let lo = LO.map(|v| v as f32);
    let hi = HI.map(|v| v as f32);
    let (w, h) = (src.width, src.height);
    let (iy, ix) = (indices(h), indices(w));
    let (ow, oh) = (ix.len(), iy.len());
    let mut b = Bands {
        a: FloatPlane::new(ow, oh),
        ..Default::default()
    };
    if !lo_only {
        b.v = FloatPlane::new(ow, oh);
        b.h = FloatPlane::new(ow, oh);
        b.d = FloatPlane::new(ow, oh);
    }
    let mut tmplo = vec![0.0f32; w];
    let mut tmphi = vec![0.0f32; w];
    for (i, ry) in iy.iter().enumerate() {
        let rows = ry.map(|r| src.row(r));
        for j in 0..w {
            let s = [rows[0][j], rows[1][j], rows[2][j], rows[3][j]];
            tmplo[j] = taps(&lo, s);
            if !lo_only {
                tmphi[j] = taps(&hi, s);
            }
        }
        for (j, cx) in ix.iter().enumerate() {
            let o = i * ow + j;
            let s = cx.map(|c| tmplo[c]);
            b.a.data[o] = taps(&lo, s);
            if lo_only {
                continue;
            }
            b.v.data[o] = taps(&hi, s);
            let s = cx.map(|c| tmphi[c]);
            b.h.data[o] = taps(&lo, s);
            b.d.data[o] = taps(&hi, s);
        }
    }
    b
}
