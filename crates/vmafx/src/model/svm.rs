//! The libsvm model text embedded in a VMAF model (`model_dict.model`) and its ν-SVR /
//! ε-SVR prediction.
//!
//! The text is libsvm's save format: a header of `key value` tokens (`svm_type nu_svr`,
//! `kernel_type rbf`, `gamma`, `nr_class`, `total_sv`, `rho`, ...) ended by the token `SV`,
//! then one line per support vector: its coefficient followed by sparse `index:value` pairs.
//! Prediction is `Σ coef_i · K(x, sv_i) − ρ` with libsvm's kernels (`linear`,
//! `polynomial`, `rbf`, `sigmoid`), each accumulated in libsvm's order so the result is
//! bit-identical to libvmaf's.

use crate::error::{Error, Result};

/// One sparse component of a support vector (libsvm's 1-based feature index).
#[derive(Debug, Clone, Copy, PartialEq)]
struct Node {
    index: i64,
    value: f64,
}

/// libsvm's kernel functions, with the header values each reads.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Kernel {
    /// `x · sv`.
    Linear,
    /// `(γ x · sv + coef0)^degree`, the power by libsvm's repeated squaring.
    Polynomial { gamma: f64, coef0: f64, degree: i32 },
    /// `exp(-γ‖x − sv‖²)`: every VMAF model libvmaf ships.
    Rbf { gamma: f64 },
    /// `tanh(γ x · sv + coef0)`.
    Sigmoid { gamma: f64, coef0: f64 },
}

/// A regression SVM, as libvmaf's models carry it.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Svm {
    kernel: Kernel,
    rho: f64,
    coefs: Vec<f64>,
    vectors: Vec<Vec<Node>>,
}

/// Header keys libsvm writes; any other token before `SV` is an error (as in libsvm).
const KNOWN_KEYS: &[&str] = &[
    "svm_type",
    "kernel_type",
    "degree",
    "gamma",
    "coef0",
    "nr_class",
    "total_sv",
    "rho",
    "label",
    "probA",
    "probB",
    "nr_sv",
];

impl Svm {
    /// Parses libsvm's model text. `subject` names the model in errors.
    pub(crate) fn parse(subject: &str, text: &str) -> Result<Svm> {
        let bad = |msg: String| Error::invalid(subject, format!("model_dict.model: {msg}"));
        let mut lines = text.lines();
        let mut header: Vec<&str> = Vec::new();
        let mut found_sv = false;
        for line in lines.by_ref() {
            let mut toks = line.split_whitespace().peekable();
            while let Some(t) = toks.next() {
                if t == "SV" {
                    found_sv = true;
                    if toks.peek().is_some() {
                        return Err(bad("text after 'SV' on its line".into()));
                    }
                    break;
                }
                header.push(t);
            }
            if found_sv {
                break;
            }
        }
        if !found_sv {
            return Err(bad("no 'SV' line (not a libsvm model)".into()));
        }

        let mut svm_type = None;
        let mut kernel = None;
        let mut gamma = None;
        let mut coef0 = None;
        let mut degree: Option<i32> = None;
        let mut nr_class: Option<i64> = None;
        let mut total_sv: Option<usize> = None;
        let mut rho: Option<f64> = None;
        let mut i = 0;
        let next = |i: &mut usize, key: &str| -> Result<&str> {
            *i += 1;
            header
                .get(*i - 1)
                .copied()
                .ok_or_else(|| bad(format!("header key '{key}' has no value")))
        };
        while i < header.len() {
            let key = header[i];
            i += 1;
            if !KNOWN_KEYS.contains(&key) {
                return Err(bad(format!("unknown header token '{key}'")));
            }
            match key {
                "svm_type" => svm_type = Some(next(&mut i, key)?),
                "kernel_type" => kernel = Some(next(&mut i, key)?),
                "gamma" => gamma = Some(parse_finite(&bad, "gamma", next(&mut i, key)?)?),
                "nr_class" => {
                    let v = next(&mut i, key)?;
                    nr_class = Some(
                        v.parse()
                            .map_err(|_| bad(format!("nr_class '{v}' is not an integer")))?,
                    );
                }
                "total_sv" => {
                    let v = next(&mut i, key)?;
                    total_sv = Some(v.parse().map_err(|_| {
                        bad(format!("total_sv '{v}' is not a non-negative integer"))
                    })?);
                }
                "rho" => rho = Some(parse_finite(&bad, "rho", next(&mut i, key)?)?),
                "coef0" => coef0 = Some(parse_finite(&bad, "coef0", next(&mut i, key)?)?),
                "degree" => {
                    let v = next(&mut i, key)?;
                    degree = Some(
                        v.parse()
                            .map_err(|_| bad(format!("degree '{v}' is not an integer")))?,
                    );
                }
                // Single-valued for regression; unused by prediction.
                "probA" | "probB" => {
                    next(&mut i, key)?;
                }
                // One value per class.
                "label" | "nr_sv" => {
                    let n =
                        nr_class.ok_or_else(|| bad(format!("'{key}' comes before 'nr_class'")))?;
                    for _ in 0..n.max(0) {
                        next(&mut i, key)?;
                    }
                }
                _ => unreachable!("key checked against KNOWN_KEYS"),
            }
        }

        match svm_type {
            Some("nu_svr") | Some("epsilon_svr") => {}
            Some(t) => {
                return Err(Error::not_supported(
                    subject,
                    format!(
                        "model_dict.model: svm_type '{t}' (the regressions nu_svr and \
                         epsilon_svr are supported)"
                    ),
                ))
            }
            None => return Err(bad("missing header key 'svm_type'".into())),
        }
        // The values libsvm writes for each kernel (it writes no others): required here.
        let missing = |key: &str, k: &str| bad(format!("kernel_type {k} needs header key '{key}'"));
        let need = |v: Option<f64>, key: &str, k: &str| v.ok_or_else(|| missing(key, k));
        let kernel = match kernel {
            Some("linear") => Kernel::Linear,
            Some(k @ "polynomial") => Kernel::Polynomial {
                gamma: need(gamma, "gamma", k)?,
                coef0: need(coef0, "coef0", k)?,
                degree: degree.ok_or_else(|| missing("degree", k))?,
            },
            Some(k @ "rbf") => {
                let gamma = need(gamma, "gamma", k)?;
                if gamma < 0.0 {
                    return Err(bad(format!("gamma {gamma} is negative")));
                }
                Kernel::Rbf { gamma }
            }
            Some(k @ "sigmoid") => Kernel::Sigmoid {
                gamma: need(gamma, "gamma", k)?,
                coef0: need(coef0, "coef0", k)?,
            },
            Some(k) => {
                return Err(Error::not_supported(
                    subject,
                    format!(
                        "model_dict.model: kernel_type '{k}' (linear, polynomial, rbf and \
                         sigmoid are supported)"
                    ),
                ))
            }
            None => return Err(bad("missing header key 'kernel_type'".into())),
        };
        if nr_class != Some(2) {
            return Err(bad(format!(
                "nr_class must be 2 for regression, found {nr_class:?}"
            )));
        }
        let rho = rho.ok_or_else(|| bad("missing header key 'rho'".into()))?;
        let total = total_sv.ok_or_else(|| bad("missing header key 'total_sv'".into()))?;

        // `total_sv` is the file's claim: reserve no more than the lines that follow, so a
        // huge count is the error below, not an allocation that aborts the process.
        let reserve = total.min(lines.clone().count());
        let mut coefs = Vec::with_capacity(reserve);
        let mut vectors = Vec::with_capacity(reserve);
        for n in 0..total {
            let line = lines.next().ok_or_else(|| {
                bad(format!(
                    "total_sv is {total} but only {n} support vectors follow"
                ))
            })?;
            let mut toks = line.split_whitespace();
            let what = || format!("support vector {}", n + 1);
            let c = toks
                .next()
                .ok_or_else(|| bad(format!("{}: empty line", what())))?;
            coefs.push(parse_finite(&bad, &format!("{}: coefficient", what()), c)?);
            let mut sv = Vec::new();
            for t in toks {
                let (idx, val) = t
                    .split_once(':')
                    .ok_or_else(|| bad(format!("{}: '{t}' is not index:value", what())))?;
                let index = idx
                    .parse()
                    .map_err(|_| bad(format!("{}: index '{idx}' is not an integer", what())))?;
                let value = parse_finite(&bad, &format!("{}: value of {idx}", what()), val)?;
                sv.push(Node { index, value });
            }
            vectors.push(sv);
        }
        Ok(Svm {
            kernel,
            rho,
            coefs,
            vectors,
        })
    }

    /// The number of support vectors.
    pub(crate) fn support_vectors(&self) -> usize {
        self.vectors.len()
    }

    /// The regression value for the dense input `x` (feature `i` has libsvm index `i + 1`).
    pub(crate) fn predict(&self, x: &[f64]) -> f64 {
        let mut sum = 0.0;
        for (coef, sv) in self.coefs.iter().zip(&self.vectors) {
            sum += coef * self.kernel.at(x, sv);
        }
        sum - self.rho
    }
}

impl Kernel {
    /// `K(x, sv)`, as libsvm's `k_function` computes it.
    fn at(self, x: &[f64], sv: &[Node]) -> f64 {
        match self {
            Kernel::Linear => dot(x, sv),
            Kernel::Polynomial {
                gamma,
                coef0,
                degree,
            } => powi(gamma * dot(x, sv) + coef0, degree),
            Kernel::Rbf { gamma } => (-gamma * squared_distance(x, sv)).exp(),
            Kernel::Sigmoid { gamma, coef0 } => (gamma * dot(x, sv) + coef0).tanh(),
        }
    }
}

/// One step of libsvm's walk over a dense input and a sparse support vector.
enum Merged {
    /// An index both hold: (the input's value, the vector's).
    Both(f64, f64),
    /// An index one of them holds, with its value.
    One(f64),
}

/// The walk libsvm's kernels take over `x` (index `i + 1` holds `x[i]`) and `sv` (ascending
/// indices): the indices in increasing order while both have some left, then the rest of
/// `x`, then the rest of `sv`. Summing its terms in this order gives libsvm's bits.
fn merged<'a>(x: &'a [f64], sv: &'a [Node]) -> impl Iterator<Item = Merged> + 'a {
    use std::cmp::Ordering::{Equal, Greater, Less};
    let (mut a, mut b) = (0usize, 0usize);
    std::iter::from_fn(move || {
        let (v, n) = (x.get(a).copied(), sv.get(b));
        // Which side the next index is on: the lower one, or whichever has some left.
        let next = match (v, n) {
            (Some(_), Some(n)) => (a as i64 + 1).cmp(&n.index),
            (Some(_), None) => Less,
            (None, Some(_)) => Greater,
            (None, None) => return None,
        };
        Some(match next {
            Equal => {
                (a, b) = (a + 1, b + 1);
                Merged::Both(v?, n?.value)
            }
            Less => {
                a += 1;
                Merged::One(v?)
            }
            Greater => {
                b += 1;
                Merged::One(n?.value)
            }
        })
    })
}

/// `x · sv` over the indices both hold, in index order (libsvm's `dot`, which stops where
/// either runs out: the terms after that are the ones it leaves out).
fn dot(x: &[f64], sv: &[Node]) -> f64 {
    merged(x, sv)
        .filter_map(|m| match m {
            Merged::Both(a, b) => Some(a * b),
            Merged::One(_) => None,
        })
        .fold(0.0, |sum, t| sum + t)
}

/// `‖x − sv‖²`, summed in libsvm's order.
fn squared_distance(x: &[f64], sv: &[Node]) -> f64 {
    merged(x, sv)
        .map(|m| match m {
            Merged::Both(a, b) => (a - b) * (a - b),
            Merged::One(v) => v * v,
        })
        .fold(0.0, |sum, t| sum + t)
}

/// `base^times` by repeated squaring, low bit first, as libsvm takes it (1 for
/// `times <= 0`): the products in its order give its bits.
fn powi(base: f64, times: i32) -> f64 {
    let (mut square, mut result) = (base, 1.0);
    let mut t = times;
    while t > 0 {
        if t % 2 == 1 {
            result *= square;
        }
        square *= square;
        t /= 2;
    }
    result
}

fn parse_finite(bad: &dyn Fn(String) -> Error, what: &str, text: &str) -> Result<f64> {
    let v: f64 = text
        .parse()
        .map_err(|_| bad(format!("{what} '{text}' is not a number")))?;
    if !v.is_finite() {
        return Err(bad(format!("{what} is not finite ({text})")));
    }
    Ok(v)
}

#[cfg(test)]
mod tests {
    use super::*;

    const TINY: &str = "svm_type nu_svr\nkernel_type rbf\ngamma 0.5\nnr_class 2\ntotal_sv 2\nrho 0.25\nSV\n1 1:0.5 2:1 \n-2 2:0.5 \n";

    #[test]
    fn predicts_by_hand() {
        let svm = Svm::parse("tiny", TINY).unwrap();
        assert_eq!(svm.support_vectors(), 2);
        let x = [1.0, 0.0];
        // ‖x − sv1‖² = 0.25 + 1; ‖x − sv2‖² = 1 + 0.25 (index 1 only in x).
        let want = (-0.5f64 * 1.25).exp() - 2.0 * (-0.5f64 * 1.25).exp() - 0.25;
        assert_eq!(svm.predict(&x), want);
    }

    #[test]
    fn every_kernel_predicts_by_hand() {
        // x · sv1 = 0.5, x · sv2 = 0 (index 2 only in sv2, where x is 0), as libsvm sums.
        let x = [1.0, 0.0];
        let with = |kernel: &str, extra: &str| {
            let text = TINY.replace(
                "kernel_type rbf\ngamma 0.5\n",
                &format!("kernel_type {kernel}\n{extra}"),
            );
            Svm::parse("tiny", &text).unwrap().predict(&x)
        };
        assert_eq!(with("linear", ""), 0.5 - 2.0 * 0.0 - 0.25);
        let poly = |d: f64| (0.5f64 * d + 1.5).powi(3);
        assert_eq!(
            with("polynomial", "degree 3\ngamma 0.5\ncoef0 1.5\n"),
            poly(0.5) - 2.0 * poly(0.0) - 0.25
        );
        assert_eq!(
            with("polynomial", "degree 0\ngamma 0.5\ncoef0 1.5\n"),
            1.0 - 2.0 - 0.25
        );
        let sig = |d: f64| (2.0f64 * d - 0.5).tanh();
        assert_eq!(
            with("sigmoid", "gamma 2\ncoef0 -0.5\n"),
            sig(0.5) - 2.0 * sig(0.0) - 0.25
        );
    }

    #[test]
    fn powers_multiply_in_libsvms_order() {
        // Low bit first: b^5 = b · (b²)², and b^6 = b² · (b²)².
        let b = 1.1f64;
        assert_eq!(powi(b, 5), 1.0 * b * ((b * b) * (b * b)));
        assert_eq!(powi(b, 6), 1.0 * (b * b) * ((b * b) * (b * b)));
        assert_eq!(powi(b, 1), b);
        assert_eq!(powi(b, 0), 1.0);
        assert_eq!(powi(b, -2), 1.0);
    }

    #[test]
    fn refuses_bad_text() {
        let e = Svm::parse("m", &TINY.replace("1 1:0.5", "nan 1:0.5")).unwrap_err();
        assert!(
            e.to_string()
                .contains("support vector 1: coefficient is not finite"),
            "{e}"
        );
        let e = Svm::parse("m", &TINY.replace("rbf", "precomputed")).unwrap_err();
        assert!(e.to_string().contains("kernel_type 'precomputed'"), "{e}");
        let e = Svm::parse("m", &TINY.replace("rbf", "polynomial")).unwrap_err();
        assert!(e.to_string().contains("needs header key 'coef0'"), "{e}");
        let e = Svm::parse("m", &TINY.replace("nu_svr", "c_svc")).unwrap_err();
        assert!(e.to_string().contains("svm_type 'c_svc'"), "{e}");
        let e = Svm::parse("m", &TINY.replace("total_sv 2", "total_sv 3")).unwrap_err();
        assert!(e.to_string().contains("only 2 support vectors"), "{e}");
        // Found by the model_json fuzz target: the count was reserved before it was read.
        let e =
            Svm::parse("m", &TINY.replace("total_sv 2", "total_sv 869999999997792")).unwrap_err();
        assert!(e.to_string().contains("only 2 support vectors"), "{e}");
        let e = Svm::parse("m", &TINY.replace("gamma", "gamna")).unwrap_err();
        assert!(
            e.to_string().contains("unknown header token 'gamna'"),
            "{e}"
        );
        let e = Svm::parse("m", "svm_type nu_svr\n").unwrap_err();
        assert!(e.to_string().contains("no 'SV' line"), "{e}");
    }
}
