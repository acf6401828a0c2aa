//! The symmetric eigensolvers of the Gram route: faer's full decomposition, and the hand-written
//! top eigenpair (Householder tridiagonalisation, Sturm bisection, inverse iteration; or, from
//! [`super::LANCZOS_MIN_ORDER`], Lanczos with a certificate, [`super::lanczos`]).

use super::tridiagonal::{inverse_iteration, top_eigenvalue};
use crate::linalg::{dot, dot_unrolled, mat, times_pow2};

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
    /// The route of larger orders ([`super::lanczos`]).
    lanczos: super::lanczos::Lanczos,
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
    /// Inside [`crate::linalg::simd`] (vectorised where the CPU allows; same bits).
    fn tridiagonalize(&mut self) {
        struct Op<'a>(&'a mut SymEigen);
        impl pulp::WithSimd for Op<'_> {
            type Output = ();
            #[inline(always)]
            fn with_simd<S: pulp::Simd>(self, _simd: S) {
                self.0.tridiagonalize_kernel()
            }
        }
        crate::linalg::dispatch(Op(self))
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
    /// symmetric `a` (also in `values[0]`): [`SymEigen::top_lanczos`] from order
    /// [`super::LANCZOS_MIN_ORDER`] when it certifies its pair, else
    /// [`SymEigen::top_tridiagonal`]. Returns None for non-finite input.
    pub fn top(&mut self, a: &[f64], n: usize, out: &mut [f64]) -> Option<f64> {
        self.lanczos.certificate = None;
        if n >= super::LANCZOS_MIN_ORDER {
            if let Some(lambda) = self.top_lanczos(a, n, out) {
                return Some(lambda);
            }
        }
        self.top_tridiagonal(a, n, out)
    }

    /// The top eigenpair by Lanczos and a Cholesky-certified inverse iteration (the module
    /// documentation of [`crate::spectral`]): None when it cannot certify the pair (the caller then takes
    /// [`SymEigen::top_tridiagonal`]).
    pub fn top_lanczos(&mut self, a: &[f64], n: usize, out: &mut [f64]) -> Option<f64> {
        assert_eq!(a.len(), n * n, "SymEigen: shape mismatch");
        let lambda = self.lanczos.top(a, n, out)?;
        self.values.clear();
        self.values.resize(n, 0.0);
        self.values[0] = lambda;
        Some(lambda)
    }

    /// The certificate of the pair the last call of [`SymEigen::top`] or
    /// [`SymEigen::top_lanczos`] returned by the Lanczos route (None when that call refused or
    /// took the tridiagonal route).
    pub fn lanczos_certificate(&self) -> Option<super::Certificate> {
        self.lanczos.certificate
    }

    /// The top eigenpair by Householder tridiagonalisation, bisection with Sturm counts on the
    /// tridiagonal matrix, inverse iteration and the reflectors (`O(n^3)`, any order).
    /// A matrix whose largest entry is outside [`crate::linalg::SAFE_SCALES`] is solved as a copy
    /// scaled by a power of two (exact), and its eigenvalue scaled back.
    pub fn top_tridiagonal(&mut self, a: &[f64], n: usize, out: &mut [f64]) -> Option<f64> {
        self.reset(a, n);
        if n == 0 {
            return Some(0.0);
        }
        if n == 1 {
            out[0] = 1.0;
            self.values[0] = a[0];
            return Some(a[0]);
        }
        let e = crate::linalg::rescale_exponent(crate::linalg::max_abs(&self.a));
        if let Some(e) = e {
            self.a.iter_mut().for_each(|x| *x = times_pow2(*x, -e));
        }
        self.tridiagonalize();
        let scaled = top_eigenvalue(&self.d, &self.e[..n - 1]);
        let lambda = e.map_or(scaled, |e| times_pow2(scaled, e));
        self.values[0] = lambda;
        inverse_iteration(&self.d, &self.e, scaled, out, &mut self.lu, &mut self.piv);
        self.apply_q(out);
        let nrm = dot(out, out).sqrt();
        out.iter_mut().for_each(|x| *x /= nrm);
        Some(lambda)
    }
}
