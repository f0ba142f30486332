//! Scale 0 in strips of band rows.
//!
//! Why: at 1080p a scale-0 band is about 1 MiB, and decoupling, CSF weighting and the
//! two masking sums (detail loss and AIM) used to write and re-read twelve such bands
//! (restored, additive, weighted, activity) per frame: far more than a core's L2, so
//! every stage streamed through memory, and two workers contended for the bus. Here those
//! twelve bands exist only as small strip buffers of `rows + 2` band rows that are reused
//! down the picture and so stay in cache; only the DWT's reference and distorted bands are
//! read from memory, once per strip.
//!
//! A strip covers `rows` scored rows; its buffers also hold the rows the 3x3 masking reads
//! above and below them (the edge rules of [`cm::around`]: row -1 reads row 1, past the
//! bottom the last row repeats). The two rows neighbouring strips share are decoupled
//! once and moved up to the top of the buffers for the next strip; weighting, which is
//! cheap and redone per masking sum anyway, is recomputed there by the same kernels on
//! the same values. Columns outside the decoupling region stay zero, as in whole bands.
//!
//! The scores are bit-identical to whole-band passes: every row's sums are the same
//! integers from the same kernels, and the denominator and masking sums add them in
//! picture order ([`den::Sum0`], [`cm::Sum0`]) before the same float steps.

use std::ops::Range;

use super::border::{scored, with_taps, Region};
use super::cm::{self, around, Masking};
use super::decouple::Decouple;
use super::den;
use super::kernels::Kernels;
use super::settings::Settings;
use super::weight::Weighted;

/// Scored rows per strip: with the halo, the twelve `i16` strip bands of a 1080p band
/// (960 wide) take about 410 KiB, and the six input bands' rows another 200 KiB, so a
/// strip stays within a 1 MiB L2 (32 rows measured no faster, and no longer fit).
pub(super) const STRIP_ROWS: usize = 16;

/// The strip buffers of scale 0: `rows + 2` band rows of `stride` values per band.
#[derive(Debug, Default)]
pub(super) struct Strip0 {
    /// Scored rows per strip.
    rows: usize,
    /// Restored bands (h, v, d).
    restored: [Vec<i16>; 3],
    /// Additive impairment bands.
    additive: [Vec<i16>; 3],
    /// CSF-weighted masker bands (the additive ones for detail loss, restored for AIM).
    csf: [Vec<i16>; 3],
    /// Masking activity of the weighted bands.
    activity: [Vec<i16>; 3],
}

impl Strip0 {
    /// Zeroed buffers for strips of `rows` scored rows (at least 1) of row stride `stride`.
    pub(super) fn new(rows: usize, stride: usize) -> Self {
        let rows = rows.max(1);
        let zeroed = || std::array::from_fn(|_| vec![0i16; (rows + 2) * stride]);
        Strip0 {
            rows,
            restored: zeroed(),
            additive: zeroed(),
            csf: zeroed(),
            activity: zeroed(),
        }
    }
}

/// The band rows the masking of picture rows `rows` reads (of `h`), halo included.
fn reach(rows: Range<usize>, h: usize) -> Range<usize> {
    let (mut lo, mut hi) = (rows.start, rows.end);
    for i in rows {
        let (up, down) = around(i, h);
        lo = lo.min(up);
        hi = hi.max(down + 1);
    }
    lo..hi
}

/// The whole-band inputs of scale 0: the DWT's detail bands of both pictures.
pub(super) struct Inputs<'a> {
    /// Reference detail bands (h, v, d).
    pub reference: &'a [Vec<i16>; 3],
    /// Distorted detail bands.
    pub distorted: &'a [Vec<i16>; 3],
    /// Row stride of the bands.
    pub stride: usize,
    /// Band width and height.
    pub size: (usize, usize),
}

/// Decoupling, weighting and masking of scale 0 in strips: (numerator, denominator, AIM
/// numerator), bit-identical to whole-band passes.
pub(super) fn scale0(
    input: &Inputs<'_>,
    strip: &mut Strip0,
    k: &Kernels,
    s: &Settings,
) -> (f32, f32, f32) {
    let (w, h) = input.size;
    let stride = input.stride;
    let region = with_taps(w, h);
    let scored_rows = scored(w, h);
    let rf = s.fixed0;
    let mut den = den::Sum0::new(w, h);
    let mut num = cm::Sum0::new((w, h), rf);
    let mut aim = cm::Sum0::new((w, h), rf);
    let mut top = scored_rows.top;
    // The rows the previous strip's buffers hold.
    let mut held = 0..0;
    while top < scored_rows.bottom {
        let rows = top..(top + strip.rows).min(scored_rows.bottom);
        top = rows.end;
        let span = reach(rows.clone(), h);
        let first = span.start;
        // The decoupling region holds every row the masking reads (for bands of 15 rows
        // or more it starts one row above the scored rows and ends past the row below
        // them; smaller bands are decoupled whole), so the span lies within it.
        assert!(region.top <= first && span.end <= region.bottom);
        let local = Region {
            top: 0,
            bottom: span.len(),
            left: region.left,
            right: region.right,
        };
        // The halo rows the previous strip decoupled move to the top of the buffers.
        let kept = carry_over(strip, stride, held.clone(), span.clone());
        held = span.clone();
        (k.decouple0)(
            Decouple {
                reference: input.reference.each_ref().map(|b| &b[first * stride..]),
                distorted: input.distorted.each_ref().map(|b| &b[first * stride..]),
                restored: strip.restored.each_mut().map(|b| b.as_mut_slice()),
                additive: strip.additive.each_mut().map(|b| b.as_mut_slice()),
            },
            stride,
            Region { top: kept, ..local },
            s.gain_limit,
        );
        den.add_rows(input.reference, stride, rows.clone(), k.den0_row);
        mask(
            strip,
            Pass::Detail,
            stride,
            local,
            rf,
            &mut num,
            (rows.clone(), first),
            k,
        );
        if !s.skip_aim {
            mask(
                strip,
                Pass::Aim,
                stride,
                local,
                rf,
                &mut aim,
                (rows, first),
                k,
            );
        }
    }
    let aim = if s.skip_aim { 0.0 } else { aim.total(0.0) };
    (
        num.total(s.noise_weight),
        den.total(s.factors[0], s.noise_weight),
        aim,
    )
}

/// Which masking sum a pass takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Pass {
    /// Restored bands masked by the additive ones (the detail-loss numerator).
    Detail,
    /// Additive bands masked by the restored ones (AIM).
    Aim,
}

/// Weights the strip's masker bands and adds the masking sums of picture rows `rows`
/// (the strip starting at picture row `first`) to `sum`.
#[allow(clippy::too_many_arguments)]
fn mask(
    strip: &mut Strip0,
    pass: Pass,
    stride: usize,
    local: Region,
    rf: [u16; 3],
    sum: &mut cm::Sum0,
    (rows, first): (Range<usize>, usize),
    k: &Kernels,
) {
    let (source, masker) = match pass {
        Pass::Detail => (&strip.restored, &strip.additive),
        Pass::Aim => (&strip.additive, &strip.restored),
    };
    let out = Weighted {
        csf: &mut strip.csf,
        activity: &mut strip.activity,
    };
    (k.weight0)(masker, out, stride, local, rf);
    let m = Masking {
        source,
        masker: &strip.csf,
        activity: &strip.activity,
    };
    sum.add_rows(&m, stride, rows, first, k.cm0_row);
}

/// Moves the decoupled rows that the strip holding picture rows `held` shares with the next
/// one, `span` (a prefix of it: strips move down), to the first rows of the restored and
/// additive buffers; returns how many rows that is.
fn carry_over(strip: &mut Strip0, stride: usize, held: Range<usize>, span: Range<usize>) -> usize {
    if held.is_empty() || span.start < held.start || span.start >= held.end {
        return 0;
    }
    let shared = span.start..held.end.min(span.end);
    let from = (shared.start - held.start) * stride..(shared.end - held.start) * stride;
    for band in strip.restored.iter_mut().chain(&mut strip.additive) {
        band.copy_within(from.clone(), 0);
    }
    shared.len()
}
