//! The symmetric tridiagonal kernels shared by both routes of the top eigenpair (the reduced
//! matrix of [`super::SymEigen::top_tridiagonal`], Lanczos's `T_k`): the top eigenvalue by
//! bisection and its eigenvector by inverse iteration.

/// The largest eigenvalue of the symmetric tridiagonal matrix with diagonal `d` and
/// sub-diagonal `e` (`e.len() = d.len() - 1`), by bisection on Sturm counts (the number of
/// negative pivots of `T - x I`) between `max d_i` and the Gershgorin bound, to the last bit.
/// NaN for non-finite input.
pub(super) fn top_eigenvalue(d: &[f64], e: &[f64]) -> f64 {
    let n = d.len();
    let mut lo = d.iter().cloned().fold(f64::NEG_INFINITY, f64::max);
    let mut hi = (0..n)
        .map(|i| {
            d[i] + if i > 0 { e[i - 1].abs() } else { 0.0 }
                + if i + 1 < n { e[i].abs() } else { 0.0 }
        })
        .fold(f64::NEG_INFINITY, f64::max);
    if !(lo.is_finite() && hi.is_finite()) || e.iter().any(|v| !v.is_finite()) {
        return f64::NAN;
    }
    let scale = lo.abs().max(hi.abs()).max(f64::MIN_POSITIVE);
    let pivmin = f64::MIN_POSITIVE.max(f64::EPSILON * f64::EPSILON * scale);
    // all eigenvalues below x?
    let all_below = |x: f64| {
        let mut q = d[0] - x;
        if q.abs() < pivmin {
            q = -pivmin;
        }
        if q >= 0.0 {
            return false;
        }
        for i in 1..n {
            q = d[i] - x - e[i - 1] * e[i - 1] / q;
            if q.abs() < pivmin {
                q = -pivmin;
            }
            if q >= 0.0 {
                return false;
            }
        }
        true
    };
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if mid <= lo || mid >= hi {
            break;
        }
        if all_below(mid) {
            hi = mid;
        } else {
            lo = mid;
        }
    }
    hi
}

/// Eigenvector of the symmetric tridiagonal `T` (diagonal `d`, sub-diagonal `e[0..n-1]`) for the
/// eigenvalue `lambda`: three steps of inverse iteration on `T - lambda I` (shifted by a few
/// ulps of `||T||` so the factorisation exists), Gaussian elimination with partial pivoting.
pub(super) fn inverse_iteration(
    d: &[f64],
    e: &[f64],
    lambda: f64,
    x: &mut [f64],
    lu: &mut Vec<f64>,
    piv: &mut Vec<bool>,
) {
    let n = d.len();
    let scale = crate::linalg::max_abs(d)
        .max(crate::linalg::max_abs(&e[..n - 1]))
        .max(f64::MIN_POSITIVE);
    let shift = lambda + 4.0 * f64::EPSILON * scale;
    let tiny = (f64::EPSILON * scale).max(f64::MIN_POSITIVE);
    fixed_start(x);
    // LU with partial pivoting of a tridiagonal matrix: U has two super-diagonals
    lu.clear();
    lu.resize(4 * n, 0.0);
    let (u0, rest) = lu.split_at_mut(n);
    let (u1, rest) = rest.split_at_mut(n);
    let (u2, l) = rest.split_at_mut(n);
    piv.clear();
    piv.resize(n, false);
    // rows: diag a_i = d_i - shift, sub b_i = e_i (row i+1, col i), super c_i = e_i
    let mut diag = d[0] - shift;
    let mut sup = if n > 1 { e[0] } else { 0.0 };
    let mut sup2 = 0.0;
    for i in 0..n {
        if i + 1 < n {
            let sub = e[i];
            let next_diag = d[i + 1] - shift;
            let next_sup = if i + 2 < n { e[i + 1] } else { 0.0 };
            if sub.abs() > diag.abs() {
                // swap rows i and i+1
                piv[i] = true;
                u0[i] = sub;
                u1[i] = next_diag;
                u2[i] = next_sup;
                let m = diag / sub;
                l[i] = m;
                diag = sup - m * next_diag;
                sup = sup2 - m * next_sup;
                sup2 = 0.0;
            } else {
                piv[i] = false;
                if diag == 0.0 {
                    diag = tiny;
                }
                u0[i] = diag;
                u1[i] = sup;
                u2[i] = sup2;
                let m = sub / diag;
                l[i] = m;
                diag = next_diag - m * sup;
                sup = next_sup - m * sup2;
                sup2 = 0.0;
            }
        } else {
            u0[i] = if diag == 0.0 { tiny } else { diag };
        }
    }
    for _ in 0..3 {
        // forward: apply the row swaps and L
        for i in 0..n - 1 {
            if piv[i] {
                x.swap(i, i + 1);
            }
            x[i + 1] -= l[i] * x[i];
        }
        // back substitution with U
        for i in (0..n).rev() {
            let mut s = x[i];
            if i + 1 < n {
                s -= u1[i] * x[i + 1];
            }
            if i + 2 < n {
                s -= u2[i] * x[i + 2];
            }
            x[i] = s / u0[i];
        }
        let nrm = x.iter().map(|v| v * v).sum::<f64>().sqrt();
        if !(nrm > 0.0 && nrm.is_finite()) {
            break;
        }
        x.iter_mut().for_each(|v| *v /= nrm);
    }
}

/// A deterministic start vector with no special structure (entries in [1, 2), unnormalised),
/// shared by the inverse iteration here and the Lanczos route.
pub(super) fn fixed_start(x: &mut [f64]) {
    for (i, xi) in x.iter_mut().enumerate() {
        *xi = 1.0 + ((i * 7 + 3) % 11) as f64 / 11.0;
    }
}
