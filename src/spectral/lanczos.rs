//! The top eigenpair of a larger symmetric matrix without the `O(n^3)` tridiagonalisation:
//! Lanczos with full reorthogonalisation from [`start_vector`], and a certificate that
//! `lambda_max(A) <= sigma` for a shift `sigma = theta + SHIFT_REL ||A||_F` just above the top
//! Ritz value `theta`. Two certificates, the cheaper first:
//!
//! 1. **Krylov bound** (no factorisation). In the basis of the Lanczos vectors `Q` and their
//!    complement, `A = [[T_k, B^T], [B, C]]` with `||B|| = beta_k` (the last Lanczos residual)
//!    and `lambda_max(C) <= ||C||_F = sqrt(||A||_F^2 - ||T_k||_F^2 - 2 beta_k^2)`. For a unit
//!    `x = Q x_1 + x_2`, `x^T A x <= z^T T' z` with `z = (x_1, s ||x_2||)` (`s` the sign of the
//!    last entry of `x_1`; every `beta_j >= 0`) and `T'` the tridiagonal
//!    `T_k` extended by the row `(beta_k, ||C||_F)`, so `lambda_max(A) <= lambda_max(T')`
//!    (bisection), plus margins for rounding ([`KRYLOV_MARGIN`]). When the top eigenvalue
//!    stands clear of the rest of the spectrum outside the Krylov space, `lambda_max(T')`
//!    exceeds `theta` by about `(Ritz residual)^2 / (theta - ||C||_F)`, far below the margin,
//!    which then sets the bound: `theta + 8 (n + k) sqrt(k) eps ||A||_F`, below sigma while
//!    `(n + k) sqrt(k) < 2^-40 / (8 eps)`, about 512 (order up to about 200 at five steps; above,
//!    only the factorisation certifies). The Ritz vector, taken once its residual is below
//!    [`DIRECT_TOL`], is then returned as it is (along DL's LMO: every call, at step 5). The
//!    route refuses a matrix with `||A||_F` outside [`LANCZOS_SCALES`] (the bound works with
//!    squares of the entries, of `||A||_F` and of the Lanczos coefficients); `SymEigen::top`
//!    then takes the tridiagonal route, which rescales.
//! 2. **Factorisation**, when the bound is too loose or the Ritz vector not accurate enough:
//!    inverse iteration with the Cholesky factor of `sigma I - A`. The factor exists only when
//!    `sigma > lambda_max(A)` up to its rounding (Demmel's bound for a floating-point Cholesky:
//!    `(n + 1) n eps max_i (sigma - a_ii)`, at most `(n + 1) n eps sigma` for the Gram matrices
//!    of the LMO, whose diagonal is non-negative).
//!
//! Either way the returned pair has residual at most [`RESIDUAL_TOL`] `||A||_F` and its
//! eigenvalue is checked to lie within `2 SHIFT_REL ||A||_F` below sigma:
//! `lambda_max - lambda <= 2^-39 ||A||_F` plus the certificate's rounding. Any failure (Lanczos
//! not converged, both certificates refused, the residual or the distance to sigma too large)
//! returns None and the caller takes the tridiagonal route ([`super::SymEigen::top`]), so the
//! result is never less certain than before.

use crate::linalg::{dot, dot_unrolled};
use faer::dyn_stack::MemStack;
use faer::linalg::cholesky::llt::factor::{cholesky_in_place, cholesky_in_place_scratch};
use faer::Par;
use std::mem::MaybeUninit;

/// The smallest order that takes this route: below it the tridiagonal route is as fast
/// (`benches/linalg.rs`, `top eigenpair`).
pub const LANCZOS_MIN_ORDER: usize = 40;
/// The shift above the Ritz value, relative to `||A||_F`: the certified distance of the
/// returned eigenvalue from `lambda_max`, apart from the factorisation's rounding.
pub(crate) const SHIFT_REL: f64 = 1.0 / (1u64 << 40) as f64;
/// Largest accepted residual `||A u - lambda u||`, relative to `||A||_F`.
pub(crate) const RESIDUAL_TOL: f64 = 1e-13;
/// Lanczos residual `|beta_j s_j|` (relative to `||A||_F`) at which the Ritz value may be
/// taken for the factorisation's certificate: its error is then about the square over the gap,
/// far below [`SHIFT_REL`].
const RITZ_TOL: f64 = 1e-8;
/// Lanczos residual at which the Ritz vector is returned as it is, for the Krylov certificate
/// and the check against [`RESIDUAL_TOL`] (along DL's LMO: one step after [`RITZ_TOL`]).
const DIRECT_TOL: f64 = 3e-14;
/// The norms `||A||_F` the route takes (the band in which the Krylov bound was tried before
/// session 15). Wider than [`crate::linalg::SAFE_SCALES`]: the Gram matrix of a `k x N` input
/// inside that band has `||G||_F` within `2^-200 .. k 2^200`, so it keeps the route, and the
/// bits, it had.
const LANCZOS_SCALES: std::ops::RangeInclusive<f64> = 1e-140..=1e140;
/// Steps taken past [`RITZ_TOL`] towards [`DIRECT_TOL`] before the Ritz pair is returned as it
/// is (then the Krylov bound may still certify it, else the factorisation's route refines it).
const REFINE_STEPS: usize = 3;
/// The factor of `(n + k) sqrt(k) eps ||A||_F` added to the Krylov bound for the rounding of
/// the Lanczos relation `A Q = Q T + beta_k q e_k^T` and of the orthogonality of `Q` (both of
/// order `(n + k) eps ||A||` per vector), with a factor of safety.
const KRYLOV_MARGIN: f64 = 8.0;
/// Lanczos steps before giving up (then the tridiagonal route).
const MAX_STEPS: usize = 48;
/// The first step whose Ritz pair is tested for convergence; from there every step is (along
/// DL's LMO the Ritz residual falls below [`RITZ_TOL`] at step 4 and below [`DIRECT_TOL`] at
/// step 5 from [`start_vector`]).
const FIRST_CHECK: usize = 5;
/// Inverse-iteration steps before giving up.
const MAX_INVERSE_STEPS: usize = 4;

/// Which certificate established `lambda_max <= sigma` for the last pair of the Lanczos route
/// (module documentation).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Certificate {
    /// The Krylov bound, without a factorisation.
    Krylov,
    /// The Cholesky factorisation of `sigma I - A`, then inverse iteration.
    Factorisation,
}

/// Workspace of [`Lanczos::top`], reused across calls.
#[derive(Debug, Default, Clone)]
pub(crate) struct Lanczos {
    /// Orthonormal Lanczos vectors as rows.
    basis: Vec<f64>,
    alpha: Vec<f64>,
    beta: Vec<f64>,
    w: Vec<f64>,
    ritz: Vec<f64>,
    /// The diagonal of `T_k` extended by `||C||_F` ([`Lanczos::krylov_bound`]).
    extended: Vec<f64>,
    /// The Cholesky factor of `sigma I - A` ([`cholesky_shifted`]).
    factor: Vec<f64>,
    /// faer's workspace of the factorisation.
    stack: Vec<MaybeUninit<u8>>,
    tri_lu: Vec<f64>,
    tri_piv: Vec<bool>,
    /// The certificate of the last pair returned (None after a refusal).
    pub(crate) certificate: Option<Certificate>,
}

/// `y = A x` for the symmetric row-major `n x n` matrix `a`, as the sum of its rows (= its
/// columns) scaled by the entries of `x`: element-wise updates vectorise without a reduction,
/// 2.5x faster than one inner product per row at order 60 (each `y_i` is summed in index order).
#[inline(always)]
fn symv(a: &[f64], x: &[f64], y: &mut [f64]) {
    let n = x.len();
    y.iter_mut().for_each(|v| *v = 0.0);
    for (row, &xj) in a.chunks_exact(n).zip(x) {
        y.iter_mut().zip(row).for_each(|(yi, &aij)| *yi += xj * aij);
    }
}

/// `w <- w - (p^T w) p` for every row `p` of `basis`, twice (classical Gram-Schmidt).
#[inline(always)]
fn reorthogonalise(basis: &[f64], w: &mut [f64]) {
    for _ in 0..2 {
        for prev in basis.chunks_exact(w.len()) {
            let c = dot_unrolled(prev, w);
            w.iter_mut().zip(prev).for_each(|(w, p)| *w -= c * p);
        }
    }
}

/// The unit start vector of the Lanczos process: the row (= column) of `a` with the largest
/// diagonal entry, `a e_i`, the first power step from the coordinate vector most likely to lean
/// on the top eigenvector (along DL's LMO: 4.1 steps on average against 5.1 from
/// [`super::tridiagonal::fixed_start`]); that fixed vector when the row is zero or not finite.
/// A start orthogonal to the top eigenvector makes Lanczos miss it; both certificates then refuse
/// (`tests/lanczos.rs`).
fn start_vector(a: &[f64], n: usize, q0: &mut [f64]) {
    let mut best = 0;
    for i in 1..n {
        if a[i * n + i] > a[best * n + best] {
            best = i;
        }
    }
    q0.copy_from_slice(&a[best * n..(best + 1) * n]);
    let mut nrm = dot(q0, q0).sqrt();
    if !(nrm.is_finite() && nrm > 0.0) {
        super::tridiagonal::fixed_start(q0);
        nrm = dot(q0, q0).sqrt();
    }
    q0.iter_mut().for_each(|q| *q /= nrm);
}

impl Lanczos {
    /// The top eigenpair of the symmetric row-major `n x n` matrix `a` (see the module
    /// documentation): the eigenvalue, with a unit eigenvector in `out`; None when any step
    /// cannot certify its result.
    pub(crate) fn top(&mut self, a: &[f64], n: usize, out: &mut [f64]) -> Option<f64> {
        struct Op<'a>(&'a mut Lanczos, &'a [f64], usize, &'a mut [f64]);
        impl pulp::WithSimd for Op<'_> {
            type Output = Option<f64>;
            #[inline(always)]
            fn with_simd<S: pulp::Simd>(self, _simd: S) -> Option<f64> {
                let Op(lanczos, a, n, out) = self;
                lanczos.top_kernel(a, n, out)
            }
        }
        crate::linalg::dispatch(Op(self, a, n, out))
    }

    #[inline(always)]
    fn top_kernel(&mut self, a: &[f64], n: usize, out: &mut [f64]) -> Option<f64> {
        self.certificate = None;
        let scale = dot(a, a).sqrt();
        if !LANCZOS_SCALES.contains(&scale) || n < 2 {
            return None;
        }
        let theta = self.ritz_pair(a, n, scale, out)?;
        let sigma = theta + SHIFT_REL * scale;
        if self.krylov_bound(n, scale) <= sigma {
            let nrm = dot(out, out).sqrt();
            out.iter_mut().for_each(|v| *v /= nrm);
            if let Some(lambda) = self.accept(a, scale, sigma, out) {
                self.certificate = Some(Certificate::Krylov);
                return Some(lambda);
            }
        }
        self.factorise(a, n, sigma)?;
        let lambda = self.inverse_iteration(a, n, scale, sigma, out)?;
        self.certificate = Some(Certificate::Factorisation);
        Some(lambda)
    }

    /// An upper bound on `lambda_max(A)` from the Lanczos process just run, without a
    /// factorisation (the module documentation): the top eigenvalue of `T_k` extended by the
    /// row `(beta_k, ||C||_F)`, plus [`KRYLOV_MARGIN`] for the rounding of the Lanczos relation
    /// and `4 n^2 eps ||A||_F^2` under the root for that of the norms.
    fn krylov_bound(&mut self, n: usize, scale: f64) -> f64 {
        let k = self.alpha.len();
        let eps = f64::EPSILON;
        let t_sq: f64 = self.alpha.iter().map(|a| a * a).sum::<f64>()
            + 2.0 * self.beta[..k].iter().map(|b| b * b).sum::<f64>();
        let rest_sq = (scale * scale - t_sq).max(0.0) + 4.0 * (n * n) as f64 * eps * scale * scale;
        self.extended.clear();
        self.extended.extend_from_slice(&self.alpha);
        self.extended.push(rest_sq.sqrt());
        let top = super::tridiagonal::top_eigenvalue(&self.extended, &self.beta[..k]);
        top + KRYLOV_MARGIN * (n + k) as f64 * (k as f64).sqrt() * eps * scale
    }

    /// The Rayleigh quotient `x^T A x` of the unit `x` when `x` is an eigenvector to
    /// [`RESIDUAL_TOL`] `||A||_F` and the quotient lies within `2 SHIFT_REL ||A||_F` below
    /// `sigma` (which the caller has shown to be above `lambda_max`).
    #[inline(always)]
    fn accept(&mut self, a: &[f64], scale: f64, sigma: f64, x: &[f64]) -> Option<f64> {
        symv(a, x, &mut self.w);
        let lambda = dot(x, &self.w);
        let res = self
            .w
            .iter()
            .zip(x)
            .map(|(w, v)| (w - lambda * v).powi(2))
            .sum::<f64>()
            .sqrt();
        (res <= RESIDUAL_TOL * scale && sigma - lambda <= 2.0 * SHIFT_REL * scale).then_some(lambda)
    }

    /// The top Ritz pair of the Lanczos process from [`start_vector`] (the vector in `out`), once
    /// its residual is below [`DIRECT_TOL`], [`REFINE_STEPS`] steps after it fell below
    /// [`RITZ_TOL`], or at an invariant subspace; None when none happens within [`MAX_STEPS`].
    #[inline(always)]
    fn ritz_pair(&mut self, a: &[f64], n: usize, scale: f64, out: &mut [f64]) -> Option<f64> {
        let steps = n.min(MAX_STEPS);
        self.start(a, n, steps);
        let mut loose_at = None;
        for j in 0..steps {
            let b = self.step(a, n, j);
            let k = j + 1;
            let invariant = b <= f64::EPSILON * scale;
            if invariant || k == steps || k >= FIRST_CHECK {
                let theta = super::tridiagonal::top_eigenvalue(&self.alpha, &self.beta[..k - 1]);
                self.ritz.clear();
                self.ritz.resize(k, 0.0);
                super::tridiagonal::inverse_iteration(
                    &self.alpha,
                    &self.beta,
                    theta,
                    &mut self.ritz,
                    &mut self.tri_lu,
                    &mut self.tri_piv,
                );
                if !theta.is_finite() {
                    return None;
                }
                let res = (b * self.ritz[k - 1]).abs();
                if res <= RITZ_TOL * scale && loose_at.is_none() {
                    loose_at = Some(k);
                }
                let refined = loose_at.is_some_and(|at| k >= at + REFINE_STEPS || k == steps);
                if invariant || res <= DIRECT_TOL * scale || refined {
                    // Ritz vector = basis^T ritz
                    out.iter_mut().for_each(|o| *o = 0.0);
                    for (row, &s) in self.basis.chunks_exact(n).zip(&self.ritz) {
                        out.iter_mut().zip(row).for_each(|(o, r)| *o += s * r);
                    }
                    return Some(theta);
                }
            }
            self.push_next(n, j, b);
        }
        None
    }

    /// Room for `steps` Lanczos vectors, the first from [`start_vector`].
    #[inline(always)]
    fn start(&mut self, a: &[f64], n: usize, steps: usize) {
        self.basis.clear();
        self.basis.resize((steps + 1) * n, 0.0);
        self.alpha.clear();
        self.beta.clear();
        self.w.clear();
        self.w.resize(n, 0.0);
        start_vector(a, n, &mut self.basis[..n]);
    }

    /// Lanczos step `j` (from 0) on the vectors `0..=j`: appends `alpha_j` and `beta_j` (returned)
    /// and leaves the next vector, not yet normalised, in `w`.
    #[inline(always)]
    fn step(&mut self, a: &[f64], n: usize, j: usize) -> f64 {
        let done = &self.basis[..(j + 1) * n];
        let q = &done[j * n..];
        symv(a, q, &mut self.w);
        self.alpha.push(dot(q, &self.w));
        reorthogonalise(done, &mut self.w);
        let b = dot(&self.w, &self.w).sqrt();
        self.beta.push(b);
        b
    }

    /// Stores `w / b` as Lanczos vector `j + 1`.
    #[inline(always)]
    fn push_next(&mut self, n: usize, j: usize, b: f64) {
        let next = &mut self.basis[(j + 1) * n..(j + 2) * n];
        next.iter_mut().zip(&self.w).for_each(|(q, w)| *q = w / b);
    }

    /// The Cholesky factor of `sigma I - a` ([`cholesky_shifted`]), or None when it does not
    /// exist (a pivot not positive).
    #[inline(always)]
    fn factorise(&mut self, a: &[f64], n: usize, sigma: f64) -> Option<()> {
        // every entry is written by the factorisation
        self.factor.resize(n * n, 0.0);
        cholesky_shifted(a, n, sigma, &mut self.factor, &mut self.stack).then_some(())
    }

    /// Inverse iteration from the Ritz vector in `x` with the factor of `sigma I - a`, until
    /// the residual is below [`RESIDUAL_TOL`]; the Rayleigh quotient.
    #[inline(always)]
    fn inverse_iteration(
        &mut self,
        a: &[f64],
        n: usize,
        scale: f64,
        sigma: f64,
        x: &mut [f64],
    ) -> Option<f64> {
        for _ in 0..MAX_INVERSE_STEPS {
            solve_factored(&self.factor, n, x);
            let nrm = dot(x, x).sqrt();
            if !(nrm.is_finite() && nrm > 0.0) {
                return None;
            }
            x.iter_mut().for_each(|v| *v /= nrm);
            if let Some(lambda) = self.accept(a, scale, sigma, x) {
                return Some(lambda);
            }
        }
        None
    }
}

/// The top eigenvalue of `T_k` and the Krylov bound on `lambda_max(a)` (module documentation)
/// after exactly `steps` Lanczos steps on the symmetric row-major `n x n` matrix `a`, whether
/// or not the process has converged; None when it stops earlier (an invariant subspace) or
/// `steps` is not in `1..=n`. For the property tests of the bound.
#[doc(hidden)]
pub fn krylov_bound_after(a: &[f64], n: usize, steps: usize) -> Option<(f64, f64)> {
    assert_eq!(a.len(), n * n, "krylov_bound_after: shape mismatch");
    let scale = dot(a, a).sqrt();
    if !(1..=n).contains(&steps) || !(scale.is_finite() && scale > 0.0) {
        return None;
    }
    let mut lanczos = Lanczos::default();
    lanczos.start(a, n, steps);
    for j in 0..steps {
        let b = lanczos.step(a, n, j);
        if j + 1 < steps {
            if b <= f64::EPSILON * scale {
                return None;
            }
            lanczos.push_next(n, j, b);
        }
    }
    let theta = super::tridiagonal::top_eigenvalue(&lanczos.alpha, &lanczos.beta[..steps - 1]);
    Some((theta, lanczos.krylov_bound(n, scale)))
}

/// The Cholesky factor `U` (upper triangular, row-major, into `u`; below the diagonal
/// unspecified) of `sigma I - a = U^T U` for the symmetric row-major `a`, with the reciprocals
/// `1 / U_ii` on its diagonal; `scratch` is faer's workspace, grown as needed. faer's in-place
/// factorisation on one thread (5.7 us at 60 x 60 against 8.8 us for a hand-written
/// right-looking one, `benches/linalg.rs`). False when a pivot is not positive (then
/// `sigma I - a` is not positive definite up to rounding).
pub fn cholesky_shifted(
    a: &[f64],
    n: usize,
    sigma: f64,
    u: &mut [f64],
    scratch: &mut Vec<MaybeUninit<u8>>,
) -> bool {
    u.iter_mut().zip(a).for_each(|(u, a)| *u = -a);
    for i in 0..n {
        u[i * n + i] += sigma;
    }
    let req = cholesky_in_place_scratch::<f64>(n, Par::Seq, Default::default());
    if scratch.len() < req.unaligned_bytes_required() {
        scratch.resize(req.unaligned_bytes_required(), MaybeUninit::new(0));
    }
    // the symmetric matrix read column-major: faer's lower factor L lands as rows of L^T = U
    let view = faer::MatMut::from_column_major_slice_mut(u, n, n);
    let stack = MemStack::new(scratch);
    if cholesky_in_place(
        view,
        Default::default(),
        Par::Seq,
        stack,
        Default::default(),
    )
    .is_err()
    {
        return false;
    }
    for i in 0..n {
        u[i * n + i] = 1.0 / u[i * n + i];
    }
    true
}

/// `x <- (U^T U)^{-1} x` for the factor of [`cholesky_shifted`] (reciprocal diagonal): forward
/// substitution with `U^T` by row updates, then back substitution with `U` by inner products.
#[inline(always)]
fn solve_factored(u: &[f64], n: usize, x: &mut [f64]) {
    for i in 0..n {
        let row = &u[i * n..(i + 1) * n];
        x[i] *= row[i];
        let xi = x[i];
        x[i + 1..]
            .iter_mut()
            .zip(&row[i + 1..])
            .for_each(|(x, r)| *x -= r * xi);
    }
    for i in (0..n).rev() {
        let row = &u[i * n..(i + 1) * n];
        x[i] = (x[i] - dot_unrolled(&row[i + 1..], &x[i + 1..])) * row[i];
    }
}
