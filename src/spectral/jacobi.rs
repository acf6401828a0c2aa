//! One-sided (Hestenes) Jacobi rotations on rows: the finish of the accurate projection path.

use super::JACOBI_MAX_SWEEPS;
use crate::linalg::dot_unrolled;

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
    struct Op<'a> {
        y: &'a mut [f64],
        w: &'a mut [f64],
        norms2: &'a mut [f64],
        skip_level: &'a mut dyn FnMut(&[f64]) -> f64,
        shape: (usize, usize, usize),
    }
    impl pulp::WithSimd for Op<'_> {
        type Output = Option<usize>;
        #[inline(always)]
        fn with_simd<S: pulp::Simd>(self, _simd: S) -> Option<usize> {
            let (k, n, kw) = self.shape;
            jacobi_rows_kernel(self.y, k, n, self.w, kw, self.norms2, self.skip_level)
        }
    }
    crate::linalg::dispatch(Op {
        y,
        w,
        norms2,
        skip_level,
        shape: (k, n, kw),
    })
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
