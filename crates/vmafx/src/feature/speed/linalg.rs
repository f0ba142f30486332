//! The small dense linear algebra SpEED needs, in single precision with libvmaf's exact
//! operation order: eigenvalues of a symmetric matrix (Householder tridiagonalisation, then
//! implicit QR steps with Wilkinson shifts) and `A X = B` solved through a Householder QR
//! factorisation and back substitution.

/// Threshold below which eigenvalues, pivots and off-diagonal terms count as zero.
pub(super) const EPS: f64 = 1e-6;
/// Most QR sweeps the eigenvalue iteration runs.
const MAX_ITERS: usize = 500;

fn sign(x: f32) -> f32 {
    if x >= 0.0 {
        1.0
    } else {
        -1.0
    }
}

/// `sqrt(x^2 + y^2)`, the sum in single precision.
fn hypot(x: f32, y: f32) -> f32 {
    ((x * x + y * y) as f64).sqrt() as f32
}

/// Householder vector annihilating column `col` of `a` below row `start + 1`; returns tau.
fn householder(a: &mut [f32], n: usize, col: usize, start: usize) -> f32 {
    if n - start == 1 {
        return 0.0;
    }
    let mut sq = 0f32;
    for i in start + 1..n {
        sq += a[i * n + col] * a[i * n + col];
    }
    let xnorm = (sq as f64).sqrt() as f32;
    if xnorm == 0.0 {
        return 0.0;
    }
    let alpha = a[start * n + col];
    let beta = -sign(alpha) * hypot(alpha, xnorm);
    let tau = (beta - alpha) / beta;
    let s = alpha - beta;
    if s != 0.0 {
        for i in start..n {
            a[i * n + col] /= s;
        }
        a[start * n + col] = beta;
    }
    tau
}

/// Reduces symmetric `a` (n x n, overwritten) to tridiagonal form: diagonal `d`, subdiagonal `sd`.
fn tridiagonalise(a: &mut [f32], n: usize, d: &mut [f32], sd: &mut [f32]) {
    let mut v = vec![0f32; n];
    let mut x = vec![0f32; n];
    for i in 0..n.saturating_sub(2) {
        let tau = householder(a, n, i, i + 1);
        for j in i + 1..n {
            v[j] = a[j * n + i];
        }
        if tau != 0.0 {
            let s = i + 1;
            a[s * n + i] = v[s];
            v[s] = 1.0;
            for r in s..n {
                x[r] = 0.0;
                for c in s..n {
                    x[r] += tau * a[r * n + c] * v[c];
                }
            }
            let mut xv = 0f32;
            for r in s..n {
                xv += x[r] * v[r];
            }
            let alpha = (-0.5 * tau as f64 * xv as f64) as f32;
            for r in s..n {
                x[r] += alpha * v[r];
            }
            for r in s..n {
                for c in s..n {
                    a[r * n + c] -= x[r] * v[c] + v[r] * x[c];
                }
            }
        }
    }
    for i in 0..n {
        d[i] = a[i * n + i];
    }
    for i in 0..n - 1 {
        sd[i] = a[(i + 1) * n + i];
    }
}

fn chop_small(d: &[f32], sd: &mut [f32]) {
    for i in 0..d.len() - 1 {
        if (sd[i].abs() as f64) < EPS * ((d[i].abs() + d[i + 1].abs()) as f64) {
            sd[i] = 0.0;
        }
    }
}

/// The eigenvalue of the trailing 2x2 block closer to its last diagonal entry.
fn wilkinson_shift(d: &[f32], sd: &[f32]) -> f32 {
    let n = d.len();
    let (ta, tb, tab) = (d[n - 2], d[n - 1], sd[n - 2]);
    let dt = ((ta - tb) as f64 / 2.0) as f32;
    if dt > 0.0 {
        tb - tab * (tab / (dt + hypot(dt, tab)))
    } else if dt == 0.0 {
        tb - tab.abs()
    } else {
        tb + tab * (tab / (-dt + hypot(dt, tab)))
    }
}

/// Givens rotation (c, s) zeroing `b` against `a`.
fn givens(a: f32, b: f32) -> (f32, f32) {
    let inv = |t: f32| (1.0 / ((1.0 + t * t) as f64).sqrt()) as f32;
    if b == 0.0 {
        (1.0, 0.0)
    } else if b.abs() > a.abs() {
        let t = -a / b;
        let s = inv(t);
        (s * t, s)
    } else {
        let t = -b / a;
        let c = inv(t);
        (c, c * t)
    }
}

/// One implicit symmetric QR step on the unreduced block `d` (n), `sd` (n - 1).
fn qr_step(d: &mut [f32], sd: &mut [f32]) {
    let n = d.len();
    let mut mu = wilkinson_shift(d, sd);
    if EPS * (mu.abs() as f64) > (d[0].abs() + sd[0].abs()) as f64 {
        mu = 0.0;
    }
    let mut x = d[0] - mu;
    let mut z = sd[0];
    let (mut bk, mut zk) = (0f32, 0f32);
    let mut ap = d[0];
    let mut bp = sd[0];
    let mut aq = d[1];
    if n == 2 {
        let (c, s) = givens(x, z);
        let ap1 = c * (c * ap - s * bp) + s * (s * aq - c * bp);
        let bp1 = c * (s * ap + c * bp) - s * (s * bp + c * aq);
        let aq1 = s * (s * ap + c * bp) + c * (s * bp + c * aq);
        d[0] = ap1;
        sd[0] = bp1;
        d[1] = aq1;
        return;
    }
    let mut bq = sd[1];
    for k in 0..n - 1 {
        let (c, s) = givens(x, z);
        let bk1 = c * bk - s * zk;
        let ap1 = c * (c * ap - s * bp) + s * (s * aq - c * bp);
        let bp1 = c * (s * ap + c * bp) - s * (s * bp + c * aq);
        let zp1 = -s * bq;
        let aq1 = s * (s * ap + c * bp) + c * (s * bp + c * aq);
        let bq1 = c * bq;
        let ak = ap1;
        bk = bp1;
        zk = zp1;
        ap = aq1;
        bp = bq1;
        if k < n - 2 {
            aq = d[k + 2];
        }
        if k + 3 < n {
            bq = sd[k + 2];
        }
        d[k] = ak;
        if k > 0 {
            sd[k - 1] = bk1;
        }
        if k < n - 2 {
            sd[k + 1] = bp;
        }
        x = bk;
        z = zk;
    }
    d[n - 1] = ap;
    sd[n - 2] = bk;
}

/// Eigenvalues of the symmetric n x n matrix `a` (row-major), in libvmaf's (unsorted) order.
pub(super) fn eigenvalues(a: &[f32], n: usize) -> Vec<f32> {
    if n == 1 {
        return vec![a[0]];
    }
    let mut m = a[..n * n].to_vec();
    let mut d = vec![0f32; n];
    let mut sd = vec![0f32; n];
    tridiagonalise(&mut m, n, &mut d, &mut sd[..n - 1]);
    let sd = &mut sd[..n - 1];
    chop_small(&d, sd);
    let mut b = n - 1;
    let mut iter = 0;
    while b > 0 && iter < MAX_ITERS {
        if sd[b - 1] == 0.0 {
            b -= 1;
            continue;
        }
        let mut a0 = b - 1;
        while a0 > 0 && sd[a0 - 1] != 0.0 {
            a0 -= 1;
        }
        qr_step(&mut d[a0..=b], &mut sd[a0..b]);
        chop_small(&d[a0..=b], &mut sd[a0..b]);
        iter += 1;
    }
    d
}

/// `dst = x (r x k) * y (k x c)`, accumulated over k in increasing order.
fn matmul(dst: &mut [f32], x: &[f32], y: &[f32], r: usize, k: usize, c: usize) {
    dst[..r * c].fill(0.0);
    for i in 0..r {
        for l in 0..k {
            let xv = x[i * k + l];
            for j in 0..c {
                dst[i * c + j] += xv * y[l * c + j];
            }
        }
    }
}

fn norm(v: &[f32]) -> f32 {
    let mut s = 0f32;
    for &x in v {
        s += x * x;
    }
    (s as f64).sqrt() as f32
}

/// Householder QR of square `a`: returns (Qt, R) with R = Qt A, Qt the product of reflections.
fn qr(a: &[f32], n: usize) -> (Vec<f32>, Vec<f32>) {
    let mut z = a.to_vec();
    let mut qt = vec![0f32; n * n];
    for i in 0..n {
        qt[i * n + i] = 1.0;
    }
    let mut h = vec![0f32; n * n];
    let mut tmp = vec![0f32; n * n];
    let mut v = vec![0f32; n];
    for k in 0..n - 1 {
        for i in 0..n {
            for j in 0..n {
                if i < k || j < k {
                    z[i * n + j] = if i == j { 1.0 } else { 0.0 };
                }
            }
        }
        for i in 0..n {
            v[i] = z[i * n + k];
        }
        let nv = norm(&v);
        v[k] += sign(a[k * n + k]) * nv;
        let nv = norm(&v);
        for x in v.iter_mut() {
            *x /= nv;
        }
        for i in 0..n {
            for j in 0..n {
                h[i * n + j] = -2.0 * v[i] * v[j];
            }
            h[i * n + i] += 1.0;
        }
        matmul(&mut tmp, &h, &z, n, n, n);
        z.copy_from_slice(&tmp);
        matmul(&mut tmp, &h, &qt, n, n, n);
        qt.copy_from_slice(&tmp);
    }
    let mut r = vec![0f32; n * n];
    matmul(&mut r, &qt, a, n, n, n);
    (qt, r)
}

/// Solves `a x = b` for square `a` (n x n) and `b` (n x cols) into `x`; `false` (x partly
/// written) where a pivot of R falls below [`EPS`].
pub(super) fn solve(a: &[f32], n: usize, b: &[f32], cols: usize, x: &mut [f32]) -> bool {
    let (qt, r) = qr(&a[..n * n], n);
    let mut rhs = vec![0f32; n * cols];
    matmul(&mut rhs, &qt, b, n, n, cols);
    for i in (0..n).rev() {
        let den = r[i * n + i];
        if (den.abs() as f64) < EPS {
            return false;
        }
        for j in 0..cols {
            let mut t = rhs[i * cols + j];
            for k in i + 1..n {
                t -= x[k * cols + j] * r[i * n + k];
            }
            x[i * cols + j] = t / den;
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn eigenvalues_and_solution_of_a_small_system() {
        let a = [4.0f32, 1.0, 0.0, 1.0, 3.0, 1.0, 0.0, 1.0, 2.0];
        let mut e = eigenvalues(&a, 3);
        e.sort_by(|x, y| x.partial_cmp(y).unwrap());
        let want = [3.0 - 3f32.sqrt(), 3.0, 3.0 + 3f32.sqrt()];
        for (g, w) in e.iter().zip(want) {
            assert!((g - w).abs() < 1e-5, "{e:?}");
        }
        let b = [5.0f32, 5.0, 3.0];
        let mut x = [0f32; 3];
        assert!(solve(&a, 3, &b, 1, &mut x));
        for (g, w) in x.iter().zip([1.0, 1.0, 1.0]) {
            assert!((g - w).abs() < 1e-5, "{x:?}");
        }
        assert!(!solve(
            &[1.0, 2.0, 2.0, 4.0],
            2,
            &[1.0, 1.0],
            1,
            &mut [0.0; 2]
        ));
    }
}
