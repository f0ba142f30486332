//! Luma ranges and transfer functions (libvmaf's luminance tools), and the two luma
//! thresholds CAMBI derives from them: the largest sample at which a step of `diff` code
//! values stays below the visibility threshold, and the darkest visible sample.

use crate::error::{Error, Result};

/// BT.1886 display gamma.
const BT1886_GAMMA: f64 = 2.4;
/// BT.1886 white luminance (cd/m²).
const BT1886_LW: f64 = 300.0;
/// BT.1886 black luminance (cd/m²).
const BT1886_LB: f64 = 0.01;

/// The code values of black (`foot`) and nominal peak (`head`) of a luma range.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct LumaRange {
    /// Code value of black.
    pub foot: i32,
    /// Code value of nominal peak.
    pub head: i32,
}

impl LumaRange {
    /// Limited ("video") range at `bitdepth` bits: 16..235 scaled.
    pub(super) fn limited(bitdepth: u32) -> Self {
        let scale = 1 << (bitdepth - 8);
        LumaRange {
            foot: 16 * scale,
            head: 235 * scale,
        }
    }

    /// `sample` clipped to the range and mapped onto 0..=1.
    fn normalize(self, sample: i32) -> f64 {
        let s = sample.clamp(self.foot, self.head);
        (s - self.foot) as f64 / (self.head - self.foot) as f64
    }
}

/// An electro-optical transfer function.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Eotf {
    /// ITU-R BT.1886 with a 300 cd/m² white and 0.01 cd/m² black.
    Bt1886,
    /// SMPTE ST 2084 (PQ).
    Pq,
}

impl Eotf {
    /// The EOTF named `name` (`bt1886` or `pq`).
    pub(super) fn from_name(name: &str) -> Result<Self> {
        match name {
            "bt1886" => Ok(Eotf::Bt1886),
            "pq" => Ok(Eotf::Pq),
            other => Err(Error::invalid(
                "cambi:eotf",
                format!("unknown EOTF '{other}' (known: bt1886, pq)"),
            )),
        }
    }

    /// Luminance in cd/m² of the normalised signal `v`.
    pub(super) fn apply(self, v: f64) -> f64 {
        match self {
            Eotf::Bt1886 => {
                let lw = BT1886_LW.powf(1.0 / BT1886_GAMMA);
                let lb = BT1886_LB.powf(1.0 / BT1886_GAMMA);
                let a = (lw - lb).powf(BT1886_GAMMA);
                let b = lb / (lw - lb);
                a * (v + b).max(0.0).powf(BT1886_GAMMA)
            }
            Eotf::Pq => {
                const M1: f64 = 0.1593017578125;
                const M2: f64 = 78.84375;
                const C1: f64 = 0.8359375;
                const C2: f64 = 18.8515625;
                const C3: f64 = 18.6875;
                let p = v.powf(1.0 / M2);
                let num = (p - C1).max(0.0);
                let den = C2 - C3 * p;
                10000.0 * (num / den).powf(1.0 / M1)
            }
        }
    }

    /// Luminance of code value `sample` in `range`.
    pub(super) fn luminance(self, sample: i32, range: LumaRange) -> f64 {
        self.apply(range.normalize(sample))
    }
}

/// Where a sample stands against the visibility threshold for a step of `diff`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Bisect {
    /// The step is visible here and one code value higher too: look higher.
    TooSmall,
    /// The last sample at which the step is visible.
    Correct,
    /// The step is not visible here: look lower.
    TooBig,
}

fn step_visible(sample: i32, diff: i32, threshold: f64, range: LumaRange, eotf: Eotf) -> bool {
    let mean = eotf.luminance(sample, range);
    let stepped = eotf.luminance(sample + diff, range);
    stepped - mean > threshold * mean
}

fn classify(sample: i32, diff: i32, threshold: f64, range: LumaRange, eotf: Eotf) -> Bisect {
    if !step_visible(sample, diff, threshold, range, eotf) {
        Bisect::TooBig
    } else if step_visible(sample + 1, diff, threshold, range, eotf) {
        Bisect::TooSmall
    } else {
        Bisect::Correct
    }
}

/// The largest code value (at `bitdepth` bits) at which a step of `diff` is still above the
/// threshold `tvi` of the mean luminance, found by bisection as libvmaf does: 0 if it is
/// never visible, the maximum code value if it always is.
pub(super) fn tvi_for_diff(
    diff: i32,
    tvi: f64,
    bitdepth: u32,
    range: LumaRange,
    eotf: Eotf,
) -> Result<i32> {
    let max_val = (1 << bitdepth) - 1;
    let mut foot = range.foot;
    let mut head = range.head - diff - 1;
    match classify(foot, diff, tvi, range, eotf) {
        Bisect::TooBig => return Ok(0),
        Bisect::Correct => return Ok(foot),
        Bisect::TooSmall => {}
    }
    match classify(head, diff, tvi, range, eotf) {
        Bisect::TooSmall => return Ok(max_val),
        Bisect::Correct => return Ok(head),
        Bisect::TooBig => {}
    }
    // A monotone threshold ends within log2(range) steps; libvmaf would spin forever on a
    // non-monotone one, which is refused here instead.
    for _ in 0..64 {
        let mid = foot + (head - foot) / 2;
        match classify(mid, diff, tvi, range, eotf) {
            Bisect::TooBig => head = mid,
            Bisect::TooSmall => foot = mid,
            Bisect::Correct => return Ok(mid),
        }
    }
    Err(Error::invalid(
        "cambi:tvi_threshold",
        format!("no visibility threshold found for a step of {diff} at tvi_threshold {tvi}"),
    ))
}

/// The smallest code value whose luminance reaches `threshold` cd/m² (0 when black already
/// does), as libvmaf's `get_vlt_luma`.
pub(super) fn vis_lum_luma(threshold: f64, range: LumaRange, eotf: Eotf) -> Result<u16> {
    let mut sample = range.foot;
    while eotf.luminance(sample, range) < threshold {
        if sample > range.head {
            // libvmaf would loop forever: no code value is that bright.
            return Err(Error::range(
                "cambi:cambi_vis_lum_threshold",
                format!(
                    "{threshold} cd/m² is brighter than the peak of the display ({:.3} cd/m²)",
                    eotf.luminance(range.head, range)
                ),
            ));
        }
        sample += 1;
    }
    Ok(if sample == range.foot {
        0
    } else {
        sample as u16
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges_and_eotfs() {
        let r = LumaRange::limited(10);
        assert_eq!((r.foot, r.head), (64, 940));
        assert!((Eotf::Bt1886.luminance(940, r) - 300.0).abs() < 1e-9);
        assert!((Eotf::Bt1886.luminance(64, r) - 0.01).abs() < 1e-12);
        assert!((Eotf::Pq.luminance(940, r) - 10000.0).abs() < 1e-6);
        assert_eq!(Eotf::Pq.luminance(64, r), 0.0);
        assert!(Eotf::from_name("hlg").is_err());
    }

    #[test]
    fn thresholds_are_where_the_step_stops_being_visible() {
        let r = LumaRange::limited(10);
        for diff in 1..=4 {
            let t = tvi_for_diff(diff, 0.019, 10, r, Eotf::Bt1886).unwrap();
            assert!(step_visible(t, diff, 0.019, r, Eotf::Bt1886), "diff {diff}");
            assert!(
                !step_visible(t + 1, diff, 0.019, r, Eotf::Bt1886),
                "diff {diff}"
            );
        }
        assert_eq!(vis_lum_luma(0.0, r, Eotf::Bt1886).unwrap(), 0);
        let v = vis_lum_luma(0.06, r, Eotf::Bt1886).unwrap() as i32;
        assert!(Eotf::Bt1886.luminance(v, r) >= 0.06);
        assert!(Eotf::Bt1886.luminance(v - 1, r) < 0.06);
        assert!(vis_lum_luma(301.0, r, Eotf::Bt1886).is_err());
    }
}
