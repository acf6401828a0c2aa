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
//! ([`SymEigen::top`], the LMO) is hand-written (faer has no partial symmetric eigensolver), by
//! one of two routes, both tested against faer's full decomposition:
//! * below order [`LANCZOS_MIN_ORDER`] ([`SymEigen::top_tridiagonal`]): Householder reduction to
//!   tridiagonal form, the top eigenvalue by Sturm bisection, its eigenvector by inverse
//!   iteration on the tridiagonal matrix and the reflectors, `O(k^2)` after the reduction; about
//!   4x faster than faer's full eigendecomposition at the experiment sizes (`benches/linalg.rs`);
//! * from that order ([`SymEigen::top_lanczos`]): Lanczos from the row of the largest diagonal
//!   entry (a fixed vector if that row is zero), and a certificate that `lambda_max <= sigma`
//!   for a shift `sigma` just above the Ritz value, so that the pair is the top one (to
//!   `2^-39 ||G||_F` plus rounding): first the Krylov bound (the Lanczos matrix extended by the
//!   last residual and the Frobenius norm of the unexplored rest, no factorisation; DL's LMO
//!   takes it in every call), else inverse iteration with the Cholesky factor of `sigma I - G`,
//!   which exists only if `sigma > lambda_max`. The residual is held to `1e-13 ||G||_F`. When
//!   both certificates fail the tridiagonal route runs instead ([`Certificate`]).
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

mod eigen;
mod jacobi;
mod lanczos;
mod projection;
mod tridiagonal;

pub use eigen::SymEigen;
pub use jacobi::jacobi_rows;
pub use lanczos::{cholesky_shifted, krylov_bound_after, Certificate, LANCZOS_MIN_ORDER};
pub use projection::project_nuclear;

use crate::linalg::{dot, gemm, mat, mat_mut};

/// Safety factor of the eigenvalue error bound `dl = FAST_GUARD eps (k + sqrt N) lambda_max`.
pub const FAST_GUARD: f64 = 8.0;
/// Largest estimated relative error of the fast projection path before the accurate
/// (Jacobi-finished) path is used; the acceptance tests compare with the reference at 1e-9.
pub const FAST_REL_TOL: f64 = 1e-11;
/// One-sided Jacobi sweeps of the accurate path before giving up (then the reference is used).
pub(crate) const JACOBI_MAX_SWEEPS: usize = 60;

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

/// Long-side length above which the Gram product is cut into blocks of this many columns of
/// `Zs`: the per-block products run on up to [`GramWorkspace::set_threads`] threads and are
/// summed in block order, so `G` is bitwise the same for any thread count (the blocks never
/// depend on it). Shorter products (every DL shape) are one product, as before.
pub const GRAM_BLOCK: usize = 8192;

/// Reusable buffers of the Gram-route oracles.
#[derive(Debug, Default, Clone)]
pub struct GramWorkspace {
    pub(crate) gram: Vec<f64>,
    /// The per-block products of a blocked Gram product ([`GRAM_BLOCK`]).
    partials: Vec<f64>,
    /// Threads for the blocked Gram product (0 and 1: the calling thread).
    threads: usize,
    pub(crate) eig: SymEigen,
    top: Vec<f64>,
    pub(crate) m: Vec<f64>,
    pub(crate) y: Vec<f64>,
    pub(crate) s: Vec<f64>,
    pub(crate) w: Vec<f64>,
    pub(crate) order: Vec<usize>,
    pub(crate) sorted: Vec<f64>,
}

/// The short-side orientation `Zs` (`k x N`) of a row-major `rows x cols` slice (a faer view).
pub(crate) fn short_view(z: &[f64], rows: usize, cols: usize) -> faer::MatRef<'_, f64> {
    let v = mat(z, rows, cols);
    if rows <= cols {
        v
    } else {
        v.transpose()
    }
}

pub(crate) fn short_view_mut(z: &mut [f64], rows: usize, cols: usize) -> faer::MatMut<'_, f64> {
    let v = mat_mut(z, rows, cols);
    if rows <= cols {
        v
    } else {
        v.transpose_mut()
    }
}

impl GramWorkspace {
    /// Runs the blocked Gram product ([`GRAM_BLOCK`]) on up to `threads` threads.
    pub fn set_threads(&mut self, threads: usize) {
        self.threads = threads;
    }

    /// The thread count of [`Self::set_threads`] (at least 1).
    pub fn threads(&self) -> usize {
        self.threads.max(1)
    }

    /// The largest diagonal entry of the `k x k` Gram matrix in `self.gram` (NaN if any is).
    pub(crate) fn diag_max(&self, k: usize) -> f64 {
        (0..k).fold(0.0, |m: f64, i| {
            let d = self.gram[i * k + i];
            if m.is_nan() || d <= m {
                m
            } else {
                d
            }
        })
    }

    /// `G = Zs Zs^T` into `self.gram` (k x k).
    pub(crate) fn gram(&mut self, z: &[f64], rows: usize, cols: usize) -> usize {
        let (k, long) = (rows.min(cols), rows.max(cols));
        let zs = short_view(z, rows, cols);
        self.gram.clear();
        self.gram.resize(k * k, 0.0);
        if long <= GRAM_BLOCK {
            crate::linalg::gram(&mut self.gram, zs);
            return k;
        }
        let blocks = long.div_ceil(GRAM_BLOCK);
        self.partials.clear();
        self.partials.resize(blocks * k * k, 0.0);
        let threads = self.threads();
        let parts: Vec<_> = self.partials.chunks_exact_mut(k * k).enumerate().collect();
        crate::jobs::run_parts(parts, threads, |(b, out)| {
            let start = b * GRAM_BLOCK;
            let zb = zs.subcols(start, GRAM_BLOCK.min(long - start));
            gemm(mat_mut(out, k, k), false, zb, zb.transpose(), 1.0);
        });
        for part in self.partials.chunks_exact(k * k) {
            for (g, p) in self.gram.iter_mut().zip(part) {
                *g += p;
            }
        }
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
/// `(0, e_1, e_1)`. When the Gram matrix's largest diagonal entry is outside
/// [`crate::linalg::SAFE_SCALES`] (its entries may have underflowed or overflowed: before, a
/// matrix with entries near `2^-540` gave `(0, e_1, e_1)` and one near `2^520` failed), the pair
/// is that of a copy of `z` scaled by a power of two (exact), and sigma_1 is
/// scaled back.
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
    if let Some((e, scaled)) = rescaled(z, ws.diag_max(k)) {
        // the copy's Gram matrix is inside the band: one level of recursion
        let sigma = gram_top_pair(&scaled, rows, cols, ws, u, v)?;
        return Some(crate::linalg::times_pow2(sigma, e));
    }
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
    // long = Zs^T short, in the Gram product's fixed blocks (any thread count, same bits)
    let zs = short_view(z, rows, cols);
    let top = &ws.top;
    let parts: Vec<_> = long.chunks_mut(GRAM_BLOCK).enumerate().collect();
    crate::jobs::run_parts(parts, ws.threads(), |(b, out)| {
        let zb = zs.subcols(b * GRAM_BLOCK, out.len());
        let len = out.len();
        gemm(
            mat_mut(out, len, 1),
            false,
            zb.transpose(),
            mat(top, k, 1),
            1.0,
        );
    });
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

/// `(e, z 2^-e)` with the largest entry of the copy in `[1, 2)` when the Gram matrix of `z`,
/// whose largest diagonal entry is `diag_max`, is outside [`crate::linalg::SAFE_SCALES`] and
/// `z` is finite and not zero; None otherwise (`z` is then taken as it is).
pub(crate) fn rescaled(z: &[f64], diag_max: f64) -> Option<(i32, Vec<f64>)> {
    if crate::linalg::SAFE_SCALES.contains(&diag_max) {
        return None;
    }
    let big = z
        .iter()
        .try_fold(0.0f64, |m, x| x.is_finite().then(|| m.max(x.abs())))?;
    let e = crate::linalg::pow2_exponent(big)?;
    Some((
        e,
        z.iter()
            .map(|&x| crate::linalg::times_pow2(x, -e))
            .collect(),
    ))
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
