//! Spectral kernels for the nuclear-norm ball on very unbalanced matrices (NEWS20's
//! `62061 x 20`, DL's `60 x 103`), through the Gram matrix of the short side.
//!
//! For `Z` of shape `rows x cols` let `k = min(rows, cols)`, `N = max(rows, cols)` and `Zs` the
//! `k x N` orientation of `Z` (`Z` or `Z^T`). Then `G = Zs Zs^T` is `k x k`, its eigenpairs
//! `(lambda_i, u_i)` give the singular values `s_i = sqrt(lambda_i)` and the short-side singular
//! vectors, and both oracles of [`crate::sets::NuclearBall`] need only `k x k` work after one
//! `k^2 N` product:
//!
//! * **LMO** ([`gram_top_pair`]): the top eigenvector `u_1` of G, then `v_1 = Zs^T u_1 / s_1`.
//!   The relative residual `||Zs^T u - s v|| / s = ||G u - s^2 u|| / s^2` is the eigensolver's
//!   backward error relative to `lambda_max` (a few ulps): no gap dependence, no warm start.
//! * **Projection** ([`project_nuclear`]): `PO(Z) = sum_i max(s_i - theta, 0) u_i v_i^T` with
//!   theta from the l1 projection of the singular values, computed as `PO(Z)_s = M Zs` with the
//!   `k x k` matrix `M = sum_i (w_i / s_i) u_i u_i^T`, `w_i = max(s_i - theta, 0)`.
//!
//! # Accuracy and the guarded fast path
//! Forming G squares the condition number: eigenvalues carry an absolute error
//! `dl ~ eps (k + sqrt N) lambda_max`. The projection is `Zs h(G)`-like with
//! `h(lambda) = max(1 - theta / sqrt(lambda), 0)`, whose divided differences times `s` are at most
//! `1/(2 theta)`; together with the shift of theta and the `w_i` this bounds the error of the
//! fast path by about `3 sqrt(k) dl / theta` ([`FAST_GUARD`]). When that estimate is above
//! [`FAST_REL_TOL`] relative to `||PO(Z)||_F` (Z barely outside the ball, or theta below the
//! resolution of G), the projection switches to the accurate path: `Y = U^T Zs`, whose rows are
//! orthogonal up to `dl`, is finished by one-sided Jacobi rotations ([`jacobi_rows`], the
//! preconditioned Jacobi SVD of Drmac and Veselic; one or two sweeps), and `s_i = ||y_i||`, which
//! is backward stable like the reference [`crate::linalg::svd`]. The reference SVD (faer) of the
//! whole matrix stays the test oracle of both paths.
//!
//! # Eigensolver
//! [`SymEigen::full`] is faer's symmetric eigensolver. The top eigenpair alone
//! ([`SymEigen::top`], the LMO) is hand-written: Householder reduction to tridiagonal form, the
//! top eigenvalue by Sturm bisection, its eigenvector by inverse iteration on the tridiagonal
//! matrix and the reflectors, `O(k^2)` after the reduction. It is about 4x faster than faer's full
//! eigendecomposition at the experiment sizes (`benches/linalg.rs`; faer has no partial symmetric
//! eigensolver) and is tested against it.
//!
//! Workspaces ([`GramWorkspace`]) are grown on first use and reused, so repeated calls with the
//! same shape do not allocate.
//!
//! ```
//! use saddlefw::spectral::{gram_top_pair, project_nuclear, GramWorkspace, ProjectionMode, ProjectionPath};
//! // Z (2 x 4) with singular values 3 and 1
//! let z = [3.0, 0.0, 0.0, 0.0,
//!          0.0, 1.0, 0.0, 0.0];
//! let mut ws = GramWorkspace::default();
//! let (mut u, mut v) = ([0.0; 2], [0.0; 4]);
//! let s = gram_top_pair(&z, 2, 4, &mut ws, &mut u, &mut v).unwrap();
//! assert!((s - 3.0).abs() < 1e-12 && (u[0].abs() - 1.0).abs() < 1e-12 && (v[0].abs() - 1.0).abs() < 1e-12);
//! // onto {||Z||_* <= 2}: the singular values (3, 1) become (2, 0) (theta = 1)
//! let mut out = [0.0; 8];
//! let path = project_nuclear(&z, 2, 4, 2.0, &mut out, &mut ws, ProjectionMode::Auto);
//! assert_ne!(path, ProjectionPath::Inside);
//! let want = [2.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0];
//! assert!(out.iter().zip(&want).all(|(a, b)| (a - b).abs() < 1e-12), "{out:?}");
//! // a matrix inside the ball is returned unchanged
//! let path = project_nuclear(&z, 2, 4, 5.0, &mut out, &mut ws, ProjectionMode::Auto);
//! assert_eq!((path, out), (ProjectionPath::Inside, z));
//! ```

use crate::linalg::{dot, gemm, mat, mat_mut};

/// Safety factor of the eigenvalue error bound `dl = FAST_GUARD eps (k + sqrt N) lambda_max`.
pub const FAST_GUARD: f64 = 8.0;
/// Largest estimated relative error of the fast projection path before the accurate
/// (Jacobi-finished) path is used; the acceptance tests compare with the reference at 1e-9.
pub const FAST_REL_TOL: f64 = 1e-11;
/// One-sided Jacobi sweeps of the accurate path before giving up (then the reference is used).
const JACOBI_MAX_SWEEPS: usize = 60;

/// Which path a projection took.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ProjectionPath {
    /// `sum s_i <= r` with margin: the input is returned.
    Inside,
    /// Eigenvalues of G only (the guard accepted the error estimate).
    Fast,
    /// Eigenvectors of G finished by one-sided Jacobi on `U^T Zs`.
    Jacobi,
    /// The eigensolver or the Jacobi sweeps failed (non-finite input): the reference SVD.
    Reference,
}

/// How to choose the projection path (tests and benches force one).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ProjectionMode {
    /// The fast path when its error estimate allows, the accurate path otherwise.
    #[default]
    Auto,
    /// Always the fast path (no guard): only for negative controls and benches.
    ForceFast,
    /// Always the accurate (Jacobi-finished) path.
    ForceJacobi,
}

/// Symmetric eigendecomposition workspace for `n x n` matrices (see the module documentation).
#[derive(Debug, Default, Clone)]
pub struct SymEigen {
    n: usize,
    /// The matrix, overwritten by the Householder vectors (row j holds the j-th reflector).
    a: Vec<f64>,
    tau: Vec<f64>,
    d: Vec<f64>,
    e: Vec<f64>,
    /// Eigenvectors as rows (row i belongs to `values[i]`), after [`SymEigen::full`].
    pub vectors: Vec<f64>,
    /// Eigenvalues, descending, after [`SymEigen::full`] / [`SymEigen::top`].
    pub values: Vec<f64>,
    tmp: Vec<f64>,
    /// LU factors of the shifted tridiagonal matrix (inverse iteration).
    lu: Vec<f64>,
    piv: Vec<bool>,
}

impl SymEigen {
    fn reset(&mut self, a: &[f64], n: usize) {
        assert_eq!(a.len(), n * n, "SymEigen: shape mismatch");
        self.n = n;
        self.a.clear();
        self.a.extend_from_slice(a);
        for v in [&mut self.tau, &mut self.d, &mut self.e, &mut self.values] {
            v.clear();
            v.resize(n, 0.0);
        }
        self.vectors.clear();
        self.vectors.resize(n * n, 0.0);
        self.tmp.clear();
        self.tmp.resize(n, 0.0);
    }

    /// Householder reduction `A = Q T Q^T` (T tridiagonal: diagonal `d`, sub-diagonal `e[0..n-1]`).
    /// Reflector j is `I - tau_j v_j v_j^T` with `v_j` stored in `a[j, j+1..n]` (first entry 1).
    /// Compiled for the baseline target and with AVX2 (chosen at run time; same operations in
    /// the same order, identical results).
    fn tridiagonalize(&mut self) {
        #[cfg(target_arch = "x86_64")]
        {
            if std::arch::is_x86_feature_detected!("avx2") {
                // SAFETY: the CPU supports AVX2 (checked above).
                unsafe { self.tridiagonalize_avx2() };
                return;
            }
        }
        self.tridiagonalize_kernel()
    }

    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    unsafe fn tridiagonalize_avx2(&mut self) {
        self.tridiagonalize_kernel()
    }

    #[inline(always)]
    fn tridiagonalize_kernel(&mut self) {
        let n = self.n;
        let a = &mut self.a;
        let p = &mut self.tmp;
        for j in 0..n.saturating_sub(2) {
            let m = n - j - 1; // length of the reflected part
            let off = j * n + j + 1;
            let xnorm_tail = dot(&a[off + 1..off + m], &a[off + 1..off + m]);
            let x0 = a[off];
            self.d[j] = a[j * n + j];
            if xnorm_tail == 0.0 {
                // already tridiagonal in this column
                self.tau[j] = 0.0;
                self.e[j] = x0;
                a[off] = 1.0;
                continue;
            }
            let norm = (x0 * x0 + xnorm_tail).sqrt();
            let alpha = if x0 > 0.0 { -norm } else { norm };
            // v = x - alpha e1, scaled so v[0] = 1; tau = (alpha - x0)/(-alpha)... in LAPACK form
            let v0 = x0 - alpha;
            let tau = -v0 / alpha; // = 2 / (v^T v) after scaling v by 1/v0
            let inv = 1.0 / v0;
            a[off] = 1.0;
            for t in &mut a[off + 1..off + m] {
                *t *= inv;
            }
            self.tau[j] = tau;
            self.e[j] = alpha;
            // trailing block B = A[j+1.., j+1..]: B <- H B H with H = I - tau v v^T
            // p = tau B v; w = p - (tau/2)(p^T v) v; B -= v w^T + w v^T
            let (head, tail) = a.split_at_mut((j + 1) * n);
            let v = &head[off..off + m];
            for (r, pr) in p.iter_mut().enumerate().take(m) {
                let row = &tail[r * n + j + 1..r * n + j + 1 + m];
                *pr = tau * dot_unrolled(row, v);
            }
            let kk = 0.5 * tau * dot_unrolled(&p[..m], v);
            for (pr, &vr) in p.iter_mut().zip(v) {
                *pr -= kk * vr;
            }
            let p = &p[..m];
            for r in 0..m {
                let row = &mut tail[r * n + j + 1..r * n + j + 1 + m];
                let (vr, wr) = (v[r], p[r]);
                for ((x, &pc), &vc) in row.iter_mut().zip(p).zip(v) {
                    *x -= vr * pc + wr * vc;
                }
            }
        }
        if n >= 2 {
            self.d[n - 2] = a[(n - 2) * n + n - 2];
            self.e[n - 2] = a[(n - 2) * n + n - 1];
        }
        if n >= 1 {
            self.d[n - 1] = a[(n - 1) * n + n - 1];
            self.e[n - 1] = 0.0;
        }
    }

    /// `x <- Q x` (maps an eigenvector of T to one of A).
    fn apply_q(&self, x: &mut [f64]) {
        let n = self.n;
        for j in (0..n.saturating_sub(2)).rev() {
            let tau = self.tau[j];
            if tau == 0.0 {
                continue;
            }
            let v = &self.a[j * n + j + 1..(j + 1) * n];
            let xs = &mut x[j + 1..];
            let c = tau * dot(v, xs);
            for (xi, vi) in xs.iter_mut().zip(v) {
                *xi -= c * vi;
            }
        }
    }

    /// Full decomposition of the symmetric `n x n` row-major `a` by faer's symmetric
    /// eigensolver (the hand-written QL iteration it replaces was no faster at 60 x 60; see
    /// `benches/linalg.rs`): `values` descending, row i of `vectors` a unit eigenvector of
    /// `values[i]`. Returns false when the solver fails (non-finite input).
    pub fn full(&mut self, a: &[f64], n: usize) -> bool {
        self.reset(a, n);
        if n == 0 {
            return true;
        }
        let Ok(e) = mat(a, n, n).self_adjoint_eigen(faer::Side::Lower) else {
            return false;
        };
        let (s, u) = (e.S(), e.U());
        // faer: ascending, eigenvectors as columns
        for i in 0..n {
            let c = n - 1 - i;
            self.values[i] = s[c];
            for r in 0..n {
                self.vectors[i * n + r] = u[(r, c)];
            }
        }
        self.values.iter().all(|v| v.is_finite())
    }

    /// The largest eigenvalue and a unit eigenvector (written to `out`, length n) of the
    /// symmetric `a` (also in `values[0]`): bisection with Sturm counts on the tridiagonal
    /// matrix, inverse iteration, the reflectors. Returns None for non-finite input.
    pub fn top(&mut self, a: &[f64], n: usize, out: &mut [f64]) -> Option<f64> {
        self.reset(a, n);
        if n == 0 {
            return Some(0.0);
        }
        if n == 1 {
            out[0] = 1.0;
            self.values[0] = a[0];
            return Some(a[0]);
        }
        self.tridiagonalize();
        let lambda = top_eigenvalue(&self.d, &self.e[..n - 1]);
        self.values[0] = lambda;
        inverse_iteration(&self.d, &self.e, lambda, out, &mut self.lu, &mut self.piv);
        self.apply_q(out);
        let nrm = dot(out, out).sqrt();
        out.iter_mut().for_each(|x| *x /= nrm);
        Some(lambda)
    }
}

/// The largest eigenvalue of the symmetric tridiagonal matrix with diagonal `d` and
/// sub-diagonal `e` (`e.len() = d.len() - 1`), by bisection on Sturm counts (the number of
/// negative pivots of `T - x I`) between `max d_i` and the Gershgorin bound, to the last bit.
/// NaN for non-finite input.
fn top_eigenvalue(d: &[f64], e: &[f64]) -> f64 {
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
fn inverse_iteration(
    d: &[f64],
    e: &[f64],
    lambda: f64,
    x: &mut [f64],
    lu: &mut Vec<f64>,
    piv: &mut Vec<bool>,
) {
    let n = d.len();
    let scale = d
        .iter()
        .chain(&e[..n - 1])
        .fold(0.0f64, |m, v| m.max(v.abs()))
        .max(f64::MIN_POSITIVE);
    let shift = lambda + 4.0 * f64::EPSILON * scale;
    let tiny = (f64::EPSILON * scale).max(f64::MIN_POSITIVE);
    // deterministic start with no special structure
    for (i, xi) in x.iter_mut().enumerate() {
        *xi = 1.0 + ((i * 7 + 3) % 11) as f64 / 11.0;
    }
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

/// Inner product with eight independent accumulators (vectorisable; the summation order differs
/// from [`crate::linalg::dot`], so results agree to rounding only).
#[inline(always)]
pub fn dot_unrolled(a: &[f64], b: &[f64]) -> f64 {
    debug_assert_eq!(a.len(), b.len());
    let mut acc = [0.0f64; 8];
    let (ca, cb) = (a.chunks_exact(8), b.chunks_exact(8));
    let (ra, rb) = (ca.remainder(), cb.remainder());
    for (x, y) in ca.zip(cb) {
        for l in 0..8 {
            acc[l] += x[l] * y[l];
        }
    }
    let mut tail = 0.0;
    for (x, y) in ra.iter().zip(rb) {
        tail += x * y;
    }
    ((acc[0] + acc[4]) + (acc[1] + acc[5])) + ((acc[2] + acc[6]) + (acc[3] + acc[7])) + tail
}

/// One-sided (Hestenes) Jacobi on the rows of the row-major `k x n` matrix `y`, applying the same
/// rotations to the rows of `w` (`k x kw`), until every pair of rows is orthogonal to
/// `|y_i . y_j| <= sqrt(n) eps |y_i| |y_j|` (the rounding level of a length-n inner product, the
/// tolerance of LAPACK's `dgesvj`; a tighter test only repeats rotations by rounding noise).
/// Pairs of rows that are both at the rounding level of the largest row
/// (`|y_i| <= k sqrt(n) eps max_l |y_l|`) are left alone: they carry no information, and
/// orthogonalising noise against noise takes many sweeps. So are pairs with
/// `|y_i|^2 + |y_j|^2 <= skip_level(norms2)` (evaluated before every sweep on the current squared
/// norms): a caller for whom rows below a level are interchangeable (the projection: rows that
/// stay inactive whatever the rotation) saves their rotations. At return, every pair above the
/// last level is orthogonal to the tolerance. `norms2` receives the squared row norms. Returns the
/// number of rotations, or None after `JACOBI_MAX_SWEEPS` sweeps.
pub fn jacobi_rows(
    y: &mut [f64],
    k: usize,
    n: usize,
    w: &mut [f64],
    kw: usize,
    norms2: &mut [f64],
    skip_level: &mut dyn FnMut(&[f64]) -> f64,
) -> Option<usize> {
    #[cfg(target_arch = "x86_64")]
    {
        if std::arch::is_x86_feature_detected!("avx2") {
            // SAFETY: the CPU supports AVX2 (checked above).
            return unsafe { jacobi_rows_avx2(y, k, n, w, kw, norms2, skip_level) };
        }
    }
    jacobi_rows_kernel(y, k, n, w, kw, norms2, skip_level)
}

/// [`jacobi_rows`] compiled with AVX2 (same operations, identical results).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn jacobi_rows_avx2(
    y: &mut [f64],
    k: usize,
    n: usize,
    w: &mut [f64],
    kw: usize,
    norms2: &mut [f64],
    skip_level: &mut dyn FnMut(&[f64]) -> f64,
) -> Option<usize> {
    jacobi_rows_kernel(y, k, n, w, kw, norms2, skip_level)
}

#[inline(always)]
fn jacobi_rows_kernel(
    y: &mut [f64],
    k: usize,
    n: usize,
    w: &mut [f64],
    kw: usize,
    norms2: &mut [f64],
    skip_level: &mut dyn FnMut(&[f64]) -> f64,
) -> Option<usize> {
    for (i, nr) in norms2.iter_mut().enumerate().take(k) {
        let r = &y[i * n..(i + 1) * n];
        *nr = dot_unrolled(r, r);
    }
    let eps = f64::EPSILON * (n as f64).sqrt().max(1.0);
    let max2 = norms2.iter().take(k).cloned().fold(0.0, f64::max);
    let noise2 = (k as f64 * eps).powi(2) * max2;
    let mut rotations = 0;
    for _ in 0..JACOBI_MAX_SWEEPS {
        let mut rotated = false;
        let level = skip_level(&norms2[..k]);
        for i in 0..k {
            for j in (i + 1)..k {
                let (alpha, beta) = (norms2[i], norms2[j]);
                if alpha == 0.0
                    || beta == 0.0
                    || (alpha <= noise2 && beta <= noise2)
                    || alpha + beta <= level
                {
                    continue;
                }
                let (lo, hi) = y.split_at_mut(j * n);
                let yi = &mut lo[i * n..(i + 1) * n];
                let yj = &mut hi[..n];
                let gamma = dot_unrolled(yi, yj);
                if gamma.abs() <= eps * (alpha * beta).sqrt() {
                    continue;
                }
                if !gamma.is_finite() {
                    return None;
                }
                rotated = true;
                rotations += 1;
                let zeta = (beta - alpha) / (2.0 * gamma);
                let sign = if zeta >= 0.0 { 1.0 } else { -1.0 };
                let t = sign / (zeta.abs() + (1.0 + zeta * zeta).sqrt());
                let c = 1.0 / (1.0 + t * t).sqrt();
                let s = c * t;
                rotate(yi, yj, c, s);
                norms2[i] = dot_unrolled(yi, yi);
                norms2[j] = dot_unrolled(yj, yj);
                let (lo, hi) = w.split_at_mut(j * kw);
                rotate(&mut lo[i * kw..(i + 1) * kw], &mut hi[..kw], c, s);
            }
        }
        if !rotated {
            return Some(rotations);
        }
    }
    None
}

/// `(a, b) <- (c a - s b, s a + c b)`.
#[inline(always)]
fn rotate(a: &mut [f64], b: &mut [f64], c: f64, s: f64) {
    for (x, y) in a.iter_mut().zip(b.iter_mut()) {
        let (xa, yb) = (*x, *y);
        *x = c * xa - s * yb;
        *y = s * xa + c * yb;
    }
}

/// Reusable buffers of the Gram-route oracles.
#[derive(Debug, Default, Clone)]
pub struct GramWorkspace {
    gram: Vec<f64>,
    eig: SymEigen,
    top: Vec<f64>,
    m: Vec<f64>,
    y: Vec<f64>,
    s: Vec<f64>,
    w: Vec<f64>,
    order: Vec<usize>,
    sorted: Vec<f64>,
}

/// The short-side orientation `Zs` (`k x N`) of a row-major `rows x cols` slice (a faer view).
fn short_view(z: &[f64], rows: usize, cols: usize) -> faer::MatRef<'_, f64> {
    let v = mat(z, rows, cols);
    if rows <= cols {
        v
    } else {
        v.transpose()
    }
}

fn short_view_mut(z: &mut [f64], rows: usize, cols: usize) -> faer::MatMut<'_, f64> {
    let v = mat_mut(z, rows, cols);
    if rows <= cols {
        v
    } else {
        v.transpose_mut()
    }
}

impl GramWorkspace {
    /// `G = Zs Zs^T` into `self.gram` (k x k).
    fn gram(&mut self, z: &[f64], rows: usize, cols: usize) -> usize {
        let k = rows.min(cols);
        let zs = short_view(z, rows, cols);
        self.gram.clear();
        self.gram.resize(k * k, 0.0);
        gemm(
            mat_mut(&mut self.gram, k, k),
            false,
            zs,
            zs.transpose(),
            1.0,
        );
        // symmetrise exactly (the product is symmetric up to rounding)
        for i in 0..k {
            for j in (i + 1)..k {
                let v = 0.5 * (self.gram[i * k + j] + self.gram[j * k + i]);
                self.gram[i * k + j] = v;
                self.gram[j * k + i] = v;
            }
        }
        k
    }
}

/// Top singular triple of the row-major `rows x cols` matrix `z` by the Gram route (module
/// documentation): writes unit `u` (length rows) and `v` (length cols) and returns sigma_1.
/// Returns None when the eigensolver fails (non-finite input). A zero matrix gives
/// `(0, e_1, e_1)`.
pub fn gram_top_pair(
    z: &[f64],
    rows: usize,
    cols: usize,
    ws: &mut GramWorkspace,
    u: &mut [f64],
    v: &mut [f64],
) -> Option<f64> {
    assert_eq!(z.len(), rows * cols, "gram_top_pair: shape mismatch");
    let k = ws.gram(z, rows, cols);
    if (0..k).all(|i| ws.gram[i * k + i] == 0.0) {
        // the zero matrix: every unit pair is a top pair
        u.iter_mut().for_each(|x| *x = 0.0);
        v.iter_mut().for_each(|x| *x = 0.0);
        u[0] = 1.0;
        v[0] = 1.0;
        return Some(0.0);
    }
    ws.top.clear();
    ws.top.resize(k, 0.0);
    let gram = std::mem::take(&mut ws.gram);
    let lambda = ws.eig.top(&gram, k, &mut ws.top);
    ws.gram = gram;
    lambda?;
    let (short, long) = if rows <= cols {
        (&mut *u, &mut *v)
    } else {
        (&mut *v, &mut *u)
    };
    short.copy_from_slice(&ws.top);
    // long = Zs^T short
    let zs = short_view(z, rows, cols);
    let n = long.len();
    gemm(
        mat_mut(long, n, 1),
        false,
        zs.transpose(),
        mat(&ws.top, k, 1),
        1.0,
    );
    let sigma = dot(long, long).sqrt();
    if sigma > 0.0 && sigma.is_finite() {
        long.iter_mut().for_each(|x| *x /= sigma);
        Some(sigma)
    } else if sigma == 0.0 {
        u.iter_mut().for_each(|x| *x = 0.0);
        v.iter_mut().for_each(|x| *x = 0.0);
        u[0] = 1.0;
        v[0] = 1.0;
        Some(0.0)
    } else {
        None
    }
}

/// Euclidean projection of the row-major `rows x cols` matrix `z` onto the nuclear-norm ball of
/// radius `radius`, into `out`, by the Gram route (module documentation). Returns the path taken;
/// [`ProjectionPath::Reference`] means the exact [`crate::linalg::svd_faer`] was used.
pub fn project_nuclear(
    z: &[f64],
    rows: usize,
    cols: usize,
    radius: f64,
    out: &mut [f64],
    ws: &mut GramWorkspace,
    mode: ProjectionMode,
) -> ProjectionPath {
    assert_eq!(z.len(), rows * cols, "project_nuclear: shape mismatch");
    assert_eq!(
        out.len(),
        rows * cols,
        "project_nuclear: output shape mismatch"
    );
    if z.iter().any(|v| !v.is_finite()) {
        out.iter_mut().for_each(|o| *o = f64::NAN);
        return ProjectionPath::Reference;
    }
    let k = ws.gram(z, rows, cols);
    let n_long = rows.max(cols);
    let gram = std::mem::take(&mut ws.gram);
    let ok = ws.eig.full(&gram, k);
    ws.gram = gram;
    if !ok {
        return reference_projection(z, rows, cols, radius, out);
    }
    let lmax = ws.eig.values[0].max(0.0);
    if lmax == 0.0 {
        out.copy_from_slice(z);
        return ProjectionPath::Inside;
    }
    // eigenvalue error bound and the resulting singular value bounds (module documentation)
    let dl = FAST_GUARD * f64::EPSILON * (k as f64 + (n_long as f64).sqrt()) * lmax;
    ws.s.clear();
    ws.s.extend(ws.eig.values.iter().map(|&l| l.max(0.0).sqrt()));
    let sum_s: f64 = ws.s.iter().sum();
    let slack: f64 = ws
        .eig
        .values
        .iter()
        .zip(&ws.s)
        .map(|(&l, &s)| {
            if l > 4.0 * dl {
                dl / s
            } else {
                2.0 * dl.sqrt()
            }
        })
        .sum();
    let fast_allowed = mode != ProjectionMode::ForceJacobi;
    if fast_allowed
        && (sum_s + slack <= radius || (mode == ProjectionMode::ForceFast && sum_s <= radius))
    {
        out.copy_from_slice(z);
        return ProjectionPath::Inside;
    }
    if fast_allowed && (sum_s - slack > radius || mode == ProjectionMode::ForceFast) {
        let theta = l1_threshold(&ws.s, radius);
        ws.w.clear();
        ws.w.extend(ws.s.iter().map(|&s| (s - theta).max(0.0)));
        let p_norm = ws.w.iter().map(|w| w * w).sum::<f64>().sqrt();
        let est = 3.0 * (k as f64).sqrt() * dl / (theta * p_norm);
        if mode == ProjectionMode::ForceFast || (theta * theta > 4.0 * dl && est <= FAST_REL_TOL) {
            apply_spectral_map(
                z,
                rows,
                cols,
                k,
                &ws.eig.vectors,
                &ws.s,
                &ws.w,
                &mut ws.m,
                out,
            );
            return ProjectionPath::Fast;
        }
    }
    // accurate path: Y = U^T Zs (k x N), finished by one-sided Jacobi
    let zs = short_view(z, rows, cols);
    ws.y.clear();
    ws.y.resize(k * n_long, 0.0);
    gemm(
        mat_mut(&mut ws.y, k, n_long),
        false,
        mat(&ws.eig.vectors, k, k),
        zs,
        1.0,
    );
    ws.s.clear();
    ws.s.resize(k, 0.0);
    // rows whose squared norms sum to at most theta^2/4 stay inactive whatever their rotation
    let sorted = &mut ws.sorted;
    let mut skip = |n2: &[f64]| {
        sorted.clear();
        sorted.extend(n2.iter().map(|v| v.sqrt()));
        sorted.sort_by(|a, b| b.total_cmp(a));
        if sorted.iter().sum::<f64>() <= radius {
            return 0.0;
        }
        let theta = l1_threshold(sorted, radius);
        0.25 * theta * theta
    };
    if jacobi_rows(
        &mut ws.y,
        k,
        n_long,
        &mut ws.eig.vectors,
        k,
        &mut ws.s,
        &mut skip,
    )
    .is_none()
    {
        return reference_projection(z, rows, cols, radius, out);
    }
    ws.s.iter_mut().for_each(|v| *v = v.sqrt());
    // sort rows by singular value (descending) for the threshold
    ws.order.clear();
    ws.order.extend(0..k);
    let s = &ws.s;
    ws.order
        .sort_by(|&a, &b| s[b].total_cmp(&s[a]).then(a.cmp(&b)));
    ws.sorted.clear();
    ws.sorted.extend(ws.order.iter().map(|&i| ws.s[i]));
    if ws.sorted.iter().sum::<f64>() <= radius {
        out.copy_from_slice(z);
        return ProjectionPath::Inside;
    }
    let theta = l1_threshold(&ws.sorted, radius);
    ws.w.clear();
    ws.w.extend(ws.s.iter().map(|&s| (s - theta).max(0.0)));
    apply_spectral_map(
        z,
        rows,
        cols,
        k,
        &ws.eig.vectors,
        &ws.s,
        &ws.w,
        &mut ws.m,
        out,
    );
    ProjectionPath::Jacobi
}

/// The threshold theta of the projection of the non-negative, descending `s` (with
/// `sum s > radius`) onto `{w >= 0, sum w = radius}`: `w_i = max(s_i - theta, 0)`.
fn l1_threshold(s: &[f64], radius: f64) -> f64 {
    let mut css = 0.0;
    let mut theta = 0.0;
    for (i, &si) in s.iter().enumerate() {
        css += si;
        let t = (css - radius) / (i as f64 + 1.0);
        if si - t > 0.0 {
            theta = t;
        } else {
            break;
        }
    }
    theta
}

/// `out_s = M Zs` with `M = sum_i (w_i / s_i) u_i u_i^T` (`u_i` the rows of `vectors`).
#[allow(clippy::too_many_arguments)]
fn apply_spectral_map(
    z: &[f64],
    rows: usize,
    cols: usize,
    k: usize,
    vectors: &[f64],
    s: &[f64],
    w: &[f64],
    m: &mut Vec<f64>,
    out: &mut [f64],
) {
    m.clear();
    m.resize(k * k, 0.0);
    for l in 0..k {
        let c = if s[l] > 0.0 { w[l] / s[l] } else { 0.0 };
        if c == 0.0 {
            continue;
        }
        let ul = &vectors[l * k..(l + 1) * k];
        for a in 0..k {
            let ca = c * ul[a];
            for b in 0..k {
                m[a * k + b] += ca * ul[b];
            }
        }
    }
    let zs = short_view(z, rows, cols);
    gemm(
        short_view_mut(out, rows, cols),
        false,
        mat(m, k, k),
        zs,
        1.0,
    );
}

/// The projection by the reference SVD ([`crate::linalg::svd_faer`]) of the whole matrix.
fn reference_projection(
    z: &[f64],
    rows: usize,
    cols: usize,
    radius: f64,
    out: &mut [f64],
) -> ProjectionPath {
    let d = crate::linalg::svd_faer(z, rows, cols);
    if d.s.iter().sum::<f64>() <= radius {
        out.copy_from_slice(z);
    } else {
        let mut w = vec![0.0; d.s.len()];
        crate::linalg::project_l1_ball(&d.s, radius, &mut w);
        d.recompose(&w, out);
    }
    ProjectionPath::Reference
}

/// Top singular triple `(sigma_1, u_1, v_1)` of a row-major `rows x cols` matrix.
#[derive(Debug, Clone)]
pub struct TopPair {
    pub sigma: f64,
    pub u: Vec<f64>,
    pub v: Vec<f64>,
}

/// Top singular pair by the Gram route ([`gram_top_pair`]: the top eigenpair of
/// the Gram matrix of the short side, relative residual a few ulps, no dependence on the gap
/// `sigma_1 - sigma_2` and no warm start). A zero matrix gives `(0, e_1, e_1)`; non-finite input
/// gives NaN vectors.
pub fn top_singular_pair(a: &[f64], rows: usize, cols: usize) -> TopPair {
    assert_eq!(a.len(), rows * cols, "top_singular_pair: shape mismatch");
    let mut ws = GramWorkspace::default();
    let (mut u, mut v) = (vec![0.0; rows], vec![0.0; cols]);
    match gram_top_pair(a, rows, cols, &mut ws, &mut u, &mut v) {
        Some(sigma) => TopPair { sigma, u, v },
        None => TopPair {
            sigma: f64::NAN,
            u: vec![f64::NAN; rows],
            v: vec![f64::NAN; cols],
        },
    }
}
