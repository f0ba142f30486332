//! One level of the Daubechies-2 wavelet transform float ADM uses (libvmaf's
//! `adm_dwt2_s`), with its symmetric border indices: the shared float row kernels do the
//! vertical taps and the inner horizontal ones (both sum `f[k]·x` from zero in tap
//! order, as [`taps`] does).

use crate::feature::float_conv::{ConvKernels, FloatPlane};
use crate::frame::{Frame, Samples};

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
pub(crate) struct Bands {
    /// Low-pass both ways (the next level's input).
    pub a: FloatPlane,
    /// Low-pass vertically, high-pass horizontally.
    pub v: FloatPlane,
    /// High-pass vertically, low-pass horizontally.
    pub h: FloatPlane,
    /// High-pass both ways.
    pub d: FloatPlane,
}

/// Slots of [`LumaRows`]: the rows one output row reads lie within four consecutive
/// indices, so they never share a slot.
const LUMA_SLOTS: usize = 8;

/// A frame's luma as the float picture libvmaf's `picture_copy` makes (`v / scaler - 128`,
/// as `float_conv::picture_to_float` writes it), converted row by row where the DWT
/// reads it: the first level needs no float copy of the whole picture.
pub(crate) struct LumaRows<'a> {
    frame: &'a Frame,
    width: usize,
    height: usize,
    /// Converted rows, row `y` at slot `y % LUMA_SLOTS`.
    rows: Vec<f32>,
    /// The row each slot holds (`usize::MAX`: none).
    held: [usize; LUMA_SLOTS],
}

impl<'a> LumaRows<'a> {
    /// The luma of `frame`, no row converted yet.
    pub(crate) fn new(frame: &'a Frame) -> Self {
        let p = frame.plane(0);
        let (width, height) = (p.width as usize, p.height as usize);
        LumaRows {
            frame,
            width,
            height,
            rows: vec![0.0; width * LUMA_SLOTS],
            held: [usize::MAX; LUMA_SLOTS],
        }
    }

    /// Converts the rows of `want` that are not held yet.
    fn fill(&mut self, want: [usize; 4]) {
        let plane = self.frame.plane(0);
        let scaler: f32 = match self.frame.bpc() {
            10 => 4.0,
            12 => 16.0,
            16 => 256.0,
            _ => 1.0,
        };
        for y in want {
            let slot = y % LUMA_SLOTS;
            if self.held[slot] == y {
                continue;
            }
            let dst = &mut self.rows[slot * self.width..(slot + 1) * self.width];
            let at = y * plane.stride;
            match plane.samples() {
                Samples::U8(s) => {
                    for (d, &v) in dst.iter_mut().zip(&s[at..at + self.width]) {
                        *d = v as f32 + -128.0;
                    }
                }
                Samples::U16(s) => {
                    for (d, &v) in dst.iter_mut().zip(&s[at..at + self.width]) {
                        *d = v as f32 / scaler + -128.0;
                    }
                }
            }
            self.held[slot] = y;
        }
    }

    /// Row `y`, which [`Self::fill`] converted.
    fn row(&self, y: usize) -> &[f32] {
        debug_assert_eq!(self.held[y % LUMA_SLOTS], y);
        let slot = y % LUMA_SLOTS;
        &self.rows[slot * self.width..(slot + 1) * self.width]
    }
}

/// Where a DWT level reads its rows: a float picture (the levels above the first), or a
/// frame's luma converted as it is read (the first).
pub(crate) enum DwtSource<'a> {
    /// A float picture.
    Plane(&'a FloatPlane),
    /// A frame's luma.
    Luma(LumaRows<'a>),
}

impl DwtSource<'_> {
    /// Width and height of the picture.
    pub(crate) fn size(&self) -> (usize, usize) {
        match self {
            DwtSource::Plane(p) => (p.width, p.height),
            DwtSource::Luma(l) => (l.width, l.height),
        }
    }

    /// Rows `want`, converted where needed.
    pub(super) fn rows(&mut self, want: [usize; 4]) -> [&[f32]; 4] {
        match self {
            DwtSource::Plane(p) => want.map(|r| p.row(r)),
            DwtSource::Luma(l) => {
                l.fill(want);
                let l = &*l;
                want.map(|r| l.row(r))
            }
        }
    }
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

/// Transforms `src` one level by `k`'s row kernels into `b` (its planes resized when
/// needed); with `lo_only` only band `a` is computed.
pub(crate) fn dwt2(k: &ConvKernels, src: &mut DwtSource<'_>, lo_only: bool, b: &mut Bands) {
    let lo = LO.map(|v| v as f32);
    let hi = HI.map(|v| v as f32);
    let (w, h) = src.size();
    let (iy, ix) = (indices(h), indices(w));
    let (ow, oh) = (ix.len(), iy.len());
    b.a.ensure(ow, oh);
    if !lo_only {
        b.v.ensure(ow, oh);
        b.h.ensure(ow, oh);
        b.d.ensure(ow, oh);
    }
    let mut tmplo = vec![0.0f32; w];
    let mut tmphi = vec![0.0f32; w];
    // Outputs `1..inner` read source columns `2j - 1 ..= 2j + 2`, all inside the row.
    let inner = if w >= 3 { (w - 3) / 2 + 1 } else { 1 }.max(1);
    let edges: Vec<usize> = (0..ow).filter(|&j| j == 0 || j >= inner).collect();
    for (i, ry) in iy.iter().enumerate() {
        let rows = src.rows(*ry);
        (k.vertical)(&lo, &rows, &mut tmplo);
        if !lo_only {
            (k.vertical)(&hi, &rows, &mut tmphi);
        }
        let row = i * ow..(i + 1) * ow;
        let bands: [(&[f32; 4], &[f32], Option<&mut FloatPlane>); 4] = if lo_only {
            [
                (&lo, &tmplo, Some(&mut b.a)),
                (&hi, &tmplo, None),
                (&lo, &tmphi, None),
                (&hi, &tmphi, None),
            ]
        } else {
            [
                (&lo, &tmplo, Some(&mut b.a)),
                (&hi, &tmplo, Some(&mut b.v)),
                (&lo, &tmphi, Some(&mut b.h)),
                (&hi, &tmphi, Some(&mut b.d)),
            ]
        };
        for (f, tmp, band) in bands {
            let Some(band) = band else { continue };
            let out = &mut band.data[row.clone()];
            if inner > 1 {
                (k.stride2)(f, &tmp[1..], &mut out[1..inner]);
            }
            for &j in &edges {
                out[j] = taps(f, ix[j].map(|c| tmp[c]));
            }
        }
    }
}
