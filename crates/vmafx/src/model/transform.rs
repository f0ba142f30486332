//! The arithmetic around the SVM: feature normalisation, denormalisation of the prediction,
//! the optional score transform (polynomial, piecewise-linear knots, rectification) and the
//! score clip, each in libvmaf's order of operations.

/// How features and the prediction are scaled (`norm_type`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Norm {
    /// `none`: values pass unchanged.
    None,
    /// `linear_rescale`: features become `slope·x + intercept`; the prediction is mapped
    /// back with `(y − intercept) / slope`.
    LinearRescale,
}

impl Norm {
    /// `slope·x + intercept` under linear rescaling.
    pub fn apply(self, slope: f64, intercept: f64, x: f64) -> f64 {
        match self {
            Norm::None => x,
            Norm::LinearRescale => slope * x + intercept,
        }
    }

    /// `(y − intercept) / slope` under linear rescaling.
    pub fn invert(self, slope: f64, intercept: f64, y: f64) -> f64 {
        match self {
            Norm::None => y,
            Norm::LinearRescale => (y - intercept) / slope,
        }
    }
}

/// `score_transform`: applied when `enabled` (or when the model is loaded with
/// `enable_transform` and the model has a `score_transform` object).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ScoreTransform {
    /// Whether the transform runs.
    pub enabled: bool,
    /// Constant term of the polynomial, if given.
    pub p0: Option<f64>,
    /// Linear term, if given.
    pub p1: Option<f64>,
    /// Quadratic term, if given.
    pub p2: Option<f64>,
    /// Piecewise-linear knots `(x, y)`, if given (`None` when absent or null).
    pub knots: Option<Vec<(f64, f64)>>,
    /// Output never above the input.
    pub out_lte_in: bool,
    /// Output never below the input.
    pub out_gte_in: bool,
}

impl ScoreTransform {
    /// The transformed score (the input itself when disabled).
    pub fn apply(&self, y_in: f64) -> f64 {
        if !self.enabled {
            return y_in;
        }
        let mut y = if self.p0.is_some() || self.p1.is_some() || self.p2.is_some() {
            let mut out = 0.0;
            if let Some(p0) = self.p0 {
                out += p0;
            }
            if let Some(p1) = self.p1 {
                out += p1 * y_in;
            }
            if let Some(p2) = self.p2 {
                out += p2 * y_in * y_in;
            }
            out
        } else {
            y_in
        };
        if let Some(knots) = &self.knots {
            if let Some(mapped) = piecewise_linear(y, knots) {
                y = mapped;
            }
        }
        if self.out_lte_in && y > y_in {
            y = y_in;
        }
        if self.out_gte_in && y < y_in {
            y = y_in;
        }
        y
    }
}

/// libvmaf's piecewise-linear mapping through `knots`, extrapolating the first and last
/// segments. `None` where libvmaf leaves the value unchanged (fewer than two knots). Knots
/// out of order give 0 from the first bad segment on, as in libvmaf.
fn piecewise_linear(x: f64, knots: &[(f64, f64)]) -> Option<f64> {
    if knots.len() < 2 {
        return None;
    }
    let n_seg = knots.len() - 1;
    let mut y = 0.0;
    for idx in 0..n_seg {
        let (p, q) = (knots[idx], knots[idx + 1]);
        if !(p.0 < q.0 && p.1 <= q.1) {
            return Some(y);
        }
        let inside = p.0 <= x && x <= q.0;
        let below = idx == 0 && x < p.0;
        let above = idx == n_seg - 1 && x > q.0;
        if p.1 == q.1 {
            if inside || below || above {
                y = p.1;
            }
        } else {
            let (slope, offset) = line_through(p, q);
            if inside || below || above {
                y = slope * x + offset;
            }
        }
    }
    Some(y)
}

/// Slope and offset of the line through `p` and `q` (`p.x < q.x`, `p.y < q.y`).
fn line_through(p: (f64, f64), q: (f64, f64)) -> (f64, f64) {
    if p.0 == 0.0 {
        let beta = p.1;
        ((q.1 - beta) / q.0, beta)
    } else {
        let alpha = (q.1 - p.1) / (q.0 - p.0);
        (alpha, p.1 - p.0 * alpha)
    }
}

/// Clamps `y` into `[lo, hi]` the way libvmaf does (low bound first).
pub(super) fn clip(y: f64, (lo, hi): (f64, f64)) -> f64 {
    let y = if y < lo { lo } else { y };
    if y > hi {
        hi
    } else {
        y
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn polynomial_then_rectified() {
        let t = ScoreTransform {
            enabled: true,
            p0: Some(1.0),
            p1: Some(2.0),
            p2: Some(-0.5),
            out_gte_in: true,
            ..Default::default()
        };
        assert_eq!(t.apply(2.0), 3.0);
        // 1 + 20 - 50 < 10: rectified to the input.
        assert_eq!(t.apply(10.0), 10.0);
        let off = ScoreTransform {
            enabled: false,
            ..t
        };
        assert_eq!(off.apply(10.0), 10.0);
    }

    #[test]
    fn knots_interpolate_and_extrapolate() {
        let t = ScoreTransform {
            enabled: true,
            knots: Some(vec![(0.0, 10.0), (10.0, 20.0), (20.0, 20.0)]),
            ..Default::default()
        };
        assert_eq!(t.apply(5.0), 15.0);
        assert_eq!(t.apply(-10.0), 0.0);
        assert_eq!(t.apply(15.0), 20.0);
        assert_eq!(t.apply(30.0), 20.0);
    }

    #[test]
    fn clip_and_norm() {
        assert_eq!(clip(-1.0, (0.0, 100.0)), 0.0);
        assert_eq!(clip(101.0, (0.0, 100.0)), 100.0);
        assert_eq!(Norm::LinearRescale.apply(2.0, 1.0, 3.0), 7.0);
        assert_eq!(Norm::LinearRescale.invert(2.0, 1.0, 7.0), 3.0);
        assert_eq!(Norm::None.invert(2.0, 1.0, 7.0), 7.0);
    }
}
