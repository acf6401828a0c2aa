//! Small dense linear-algebra kernels on flat `f64` slices: vector ops, row-major matrix
//! products, a one-sided Jacobi SVD (the exact reference), and a warm-startable top singular
//! pair by warm-started Lanczos iteration with an exact fallback.
//!
//! Matrices are row-major flat slices with an explicit shape `(rows, cols)`.
//!
//! # Example
//! ```
//! use saddlefw::linalg::{dot, norm, svd};
//! assert_eq!(dot(&[1.0, 2.0], &[3.0, 4.0]), 11.0);
//! assert_eq!(norm(&[3.0, 4.0]), 5.0);
//! // diag(3, 1) as a 2 x 2 row-major matrix: singular values 3 and 1
//! let s = svd(&[3.0, 0.0, 0.0, -1.0], 2, 2).s;
//! assert!((s[0] - 3.0).abs() < 1e-14 && (s[1] - 1.0).abs() < 1e-14);
//! ```

/// A faer view of the row-major `rows x cols` flat slice `a` (zero-copy). With [`mat_mut`] and
/// [`gemm`] this is the one conversion point between the crate's flat row-major matrices and
/// faer, which does the dense products and factorisations (`benches/linalg.rs` compares it
/// with the hand-written kernels that remain).
#[inline]
pub fn mat(a: &[f64], rows: usize, cols: usize) -> faer::MatRef<'_, f64> {
    faer::MatRef::from_row_major_slice(a, rows, cols)
}

/// A mutable faer view of the row-major `rows x cols` flat slice `a` (zero-copy).
#[inline]
pub fn mat_mut(a: &mut [f64], rows: usize, cols: usize) -> faer::MatMut<'_, f64> {
    faer::MatMut::from_row_major_slice_mut(a, rows, cols)
}

/// `dst = alpha lhs rhs`, or `dst += alpha lhs rhs` when `accumulate`, single-threaded (the
/// products of one iteration are small; parallelism pays across runs).
#[inline]
pub fn gemm(
    dst: faer::MatMut<'_, f64>,
    accumulate: bool,
    lhs: faer::MatRef<'_, f64>,
    rhs: faer::MatRef<'_, f64>,
    alpha: f64,
) {
    let acc = if accumulate {
        faer::Accum::Add
    } else {
        faer::Accum::Replace
    };
    faer::linalg::matmul::matmul(dst, acc, lhs, rhs, alpha, faer::Par::Seq);
}

/// Inner product.
#[inline]
pub fn dot(a: &[f64], b: &[f64]) -> f64 {
    debug_assert_eq!(a.len(), b.len());
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

/// Euclidean norm.
#[inline]
pub fn norm(a: &[f64]) -> f64 {
    dot(a, a).sqrt()
}

/// Euclidean distance.
#[inline]
pub fn dist(a: &[f64], b: &[f64]) -> f64 {
    a.iter()
        .zip(b)
        .map(|(x, y)| (x - y) * (x - y))
        .sum::<f64>()
        .sqrt()
}

/// `y += alpha * x`.
#[inline]
pub fn axpy(alpha: f64, x: &[f64], y: &mut [f64]) {
    for (yi, xi) in y.iter_mut().zip(x) {
        *yi += alpha * xi;
    }
}

/// `out = A x` for a row-major `rows x cols` matrix `a`.
pub fn matvec(a: &[f64], rows: usize, cols: usize, x: &[f64], out: &mut [f64]) {
    debug_assert_eq!(a.len(), rows * cols);
    for (i, o) in out.iter_mut().enumerate().take(rows) {
        *o = dot(&a[i * cols..(i + 1) * cols], x);
    }
}

/// `out = A^T x` for a row-major `rows x cols` matrix `a`.
pub fn matvec_t(a: &[f64], rows: usize, cols: usize, x: &[f64], out: &mut [f64]) {
    out[..cols].iter_mut().for_each(|o| *o = 0.0);
    for (i, &xi) in x.iter().enumerate().take(rows) {
        if xi != 0.0 {
            axpy(xi, &a[i * cols..(i + 1) * cols], &mut out[..cols]);
        }
    }
}

/// Transpose of a row-major `rows x cols` matrix.
pub fn transpose(a: &[f64], rows: usize, cols: usize) -> Vec<f64> {
    let mut t = vec![0.0; rows * cols];
    for i in 0..rows {
        for j in 0..cols {
            t[j * rows + i] = a[i * cols + j];
        }
    }
    t
}

/// A thin singular value decomposition `A = U diag(s) V^T`, singular values descending.
/// `u` is `rows x k` and `v` is `cols x k` (both row-major), `k = min(rows, cols)`.
#[derive(Debug, Clone)]
pub struct Svd {
    pub rows: usize,
    pub cols: usize,
    pub u: Vec<f64>,
    pub s: Vec<f64>,
    pub v: Vec<f64>,
}

impl Svd {
    /// Rebuilds `U diag(w) V^T` for replacement singular values `w` (length `k`).
    pub fn recompose(&self, w: &[f64], out: &mut [f64]) {
        let k = self.s.len();
        out.iter_mut().for_each(|o| *o = 0.0);
        for l in 0..k {
            if w[l] == 0.0 {
                continue;
            }
            for i in 0..self.rows {
                let c = w[l] * self.u[i * k + l];
                if c == 0.0 {
                    continue;
                }
                let row = &mut out[i * self.cols..(i + 1) * self.cols];
                for (j, o) in row.iter_mut().enumerate() {
                    *o += c * self.v[j * k + l];
                }
            }
        }
    }
}

/// Full thin SVD by one-sided (Hestenes) Jacobi rotations: accurate to a few ulps relative to
/// the largest singular value. This is the exact reference the iterative top-pair routine is
/// tested against, and the SVD the nuclear-norm projection uses.
pub fn svd(a: &[f64], rows: usize, cols: usize) -> Svd {
    assert_eq!(a.len(), rows * cols, "svd: shape mismatch");
    if rows > cols {
        let t = svd(&transpose(a, rows, cols), cols, rows);
        return Svd {
            rows,
            cols,
            u: t.v,
            s: t.s,
            v: t.u,
        };
    }
    // rows <= cols: orthogonalise the rows of W, keeping A = U W with U orthogonal.
    let p = rows;
    let q = cols;
    let mut w = a.to_vec();
    let mut u = vec![0.0; p * p];
    for i in 0..p {
        u[i * p + i] = 1.0;
    }
    let eps = f64::EPSILON;
    for _sweep in 0..80 {
        let mut rotated = false;
        for i in 0..p {
            for j in (i + 1)..p {
                let (wi, wj) = (&w[i * q..(i + 1) * q], &w[j * q..(j + 1) * q]);
                let alpha = dot(wi, wi);
                let beta = dot(wj, wj);
                let gamma = dot(wi, wj);
                if gamma == 0.0 || gamma.abs() <= eps * (alpha * beta).sqrt() {
                    continue;
                }
                rotated = true;
                let zeta = (beta - alpha) / (2.0 * gamma);
                let sign = if zeta >= 0.0 { 1.0 } else { -1.0 };
                let t = sign / (zeta.abs() + (1.0 + zeta * zeta).sqrt());
                let c = 1.0 / (1.0 + t * t).sqrt();
                let s = c * t;
                for k in 0..q {
                    let a_ik = w[i * q + k];
                    let a_jk = w[j * q + k];
                    w[i * q + k] = c * a_ik - s * a_jk;
                    w[j * q + k] = s * a_ik + c * a_jk;
                }
                for k in 0..p {
                    let u_ki = u[k * p + i];
                    let u_kj = u[k * p + j];
                    u[k * p + i] = c * u_ki - s * u_kj;
                    u[k * p + j] = s * u_ki + c * u_kj;
                }
            }
        }
        if !rotated {
            break;
        }
    }
    let norms: Vec<f64> = (0..p).map(|i| norm(&w[i * q..(i + 1) * q])).collect();
    let mut order: Vec<usize> = (0..p).collect();
    order.sort_by(|&x, &y| norms[y].total_cmp(&norms[x]).then(x.cmp(&y)));
    let mut s = vec![0.0; p];
    let mut uu = vec![0.0; p * p];
    let mut v = vec![0.0; q * p];
    let mut missing = Vec::new();
    for (l, &i) in order.iter().enumerate() {
        s[l] = norms[i];
        for k in 0..p {
            uu[k * p + l] = u[k * p + i];
        }
        if norms[i] > f64::MIN_POSITIVE {
            for k in 0..q {
                v[k * p + l] = w[i * q + k] / norms[i];
            }
        } else {
            s[l] = 0.0;
            missing.push(l);
        }
    }
    // zero singular values leave no direction in W: complete V to an orthonormal set
    complete_orthonormal(&mut v, q, p, &missing);
    Svd {
        rows,
        cols,
        u: uu,
        s,
        v,
    }
}

/// Fills the columns `missing` of the row-major `n x k` matrix `m` (whose other columns are
/// orthonormal) with unit vectors orthogonal to all others: the standard basis vector with the
/// largest residual after two Gram-Schmidt passes (deterministic).
fn complete_orthonormal(m: &mut [f64], n: usize, k: usize, missing: &[usize]) {
    let mut filled: Vec<usize> = (0..k).filter(|l| !missing.contains(l)).collect();
    for &l in missing {
        let mut best: Option<(f64, Vec<f64>)> = None;
        for e in 0..n {
            let mut c = vec![0.0; n];
            c[e] = 1.0;
            for _ in 0..2 {
                for &f in &filled {
                    let d: f64 = (0..n).map(|i| c[i] * m[i * k + f]).sum();
                    for i in 0..n {
                        c[i] -= d * m[i * k + f];
                    }
                }
            }
            let nc = norm(&c);
            if best.as_ref().map_or(true, |(b, _)| nc > *b) {
                best = Some((nc, c));
            }
        }
        let (nc, c) = best.expect("n >= 1");
        for i in 0..n {
            m[i * k + l] = c[i] / nc;
        }
        filled.push(l);
    }
}

/// Top singular triple `(sigma_1, u_1, v_1)` of a row-major `rows x cols` matrix.
#[derive(Debug, Clone)]
pub struct TopPair {
    pub sigma: f64,
    pub u: Vec<f64>,
    pub v: Vec<f64>,
    /// Lanczos steps used (0 when the exact fallback produced the pair).
    pub iterations: usize,
    /// Whether the exact Jacobi SVD was used because the iteration did not converge.
    pub exact_fallback: bool,
}

/// Weight of the generic (pseudo-random) direction mixed into a warm start, see
/// [`top_singular_pair`].
pub const WARM_START_MIX: f64 = 0.05;

/// Largest Krylov basis of the restarted Lanczos iteration in [`top_singular_pair`].
pub const LANCZOS_BASIS: usize = 64;

/// Top singular pair by Lanczos iteration (full reorthogonalisation, explicit restarts every
/// [`LANCZOS_BASIS`] steps) on the smaller Gram operator (`A A^T` if `rows <= cols`, else
/// `A^T A`), applied implicitly: one step costs one product with `A` and one with `A^T`.
///
/// Start vector: the warm start `warm` (a right singular vector guess of length `cols`; the
/// row of largest norm when cold) plus a fixed pseudo-random vector, with weight
/// [`WARM_START_MIX`] relative to a warm start and 1 relative to the cold start. The generic
/// part matters: started inside an invariant subspace (a warm start that is now the *second*
/// singular vector, which happens when the top two singular values cross between calls, or a
/// cold start whose largest row is `sigma_2 v_2`) a Krylov method converges to the wrong
/// singular value with zero residual. Lanczos converges like `exp(-2 m sqrt(gap))` in `m`
/// steps (gap `1 - sigma_2^2/sigma_1^2`), so `sigma_1 ~ sigma_2` is not a difficulty.
///
/// Accuracy: when `min(rows, cols) <= LANCZOS_BASIS` the Krylov basis is grown to the whole
/// space, which makes the answer exact up to rounding (and `tol` irrelevant); the cost is
/// `min(rows, cols)` products with `A` and `A^T`, and the warm start does not shorten it.
/// Larger matrices stop when the Ritz residual `||M y - theta y|| <= tol theta` (`M` the
/// Gram operator), i.e. the relative residual `||A^T u - sigma v|| / sigma` is about `tol`;
/// the returned `sigma = ||A v|| <= sigma_1` can then miss `sigma_1` by up to `tol / c`
/// relative, `c` the cosine between the start vector and the top singular vector (about
/// `WARM_START_MIX / sqrt(min(rows, cols))` in the worst case of a warm start orthogonal to
/// it), and the warm start saves iterations. After `max_iter` steps without convergence the
/// exact Jacobi SVD is used.
/// Deterministic for given inputs.
pub fn top_singular_pair(
    a: &[f64],
    rows: usize,
    cols: usize,
    warm: Option<&[f64]>,
    tol: f64,
    max_iter: usize,
) -> TopPair {
    assert_eq!(a.len(), rows * cols, "top_singular_pair: shape mismatch");
    let fro = norm(a);
    if fro == 0.0 || !fro.is_finite() {
        // zero matrix: every unit pair is a top pair; non-finite input propagates
        let fill = |n: usize| {
            let mut e = vec![if fro == 0.0 { 0.0 } else { f64::NAN }; n];
            if fro == 0.0 {
                e[0] = 1.0;
            }
            e
        };
        return TopPair {
            sigma: fro,
            u: fill(rows),
            v: fill(cols),
            iterations: 0,
            exact_fallback: false,
        };
    }
    let finish = |mut v: Vec<f64>, iterations: usize, exact_fallback: bool| {
        let nv = norm(&v);
        v.iter_mut().for_each(|x| *x /= nv);
        let mut u = vec![0.0; rows];
        matvec(a, rows, cols, &v, &mut u);
        let s = norm(&u);
        u.iter_mut().for_each(|x| *x /= s);
        TopPair {
            sigma: s,
            u,
            v,
            iterations,
            exact_fallback,
        }
    };
    if rows == 1 {
        // the single row is sigma_1 v_1^T
        return finish(a.to_vec(), 0, false);
    }
    if cols == 1 {
        return finish(vec![1.0], 0, false);
    }
    let normalized = |mut v: Vec<f64>| {
        let n = norm(&v);
        if n > 0.0 && n.is_finite() {
            v.iter_mut().for_each(|x| *x /= n);
        }
        v
    };
    // the right-singular start, then mapped into the small space
    let (start, mix) = match warm {
        Some(w) if w.len() == cols && w.iter().all(|x| x.is_finite()) && norm(w) > 0.0 => {
            (w.to_vec(), WARM_START_MIX)
        }
        _ => {
            let best = (0..rows)
                .max_by(|&i, &j| {
                    norm(&a[i * cols..(i + 1) * cols])
                        .total_cmp(&norm(&a[j * cols..(j + 1) * cols]))
                        .then(j.cmp(&i))
                })
                .unwrap_or(0);
            (a[best * cols..(best + 1) * cols].to_vec(), 1.0)
        }
    };
    let small = rows <= cols;
    let k = rows.min(cols);
    let mut start = normalized(if small {
        let mut u = vec![0.0; rows];
        matvec(a, rows, cols, &start, &mut u);
        u
    } else {
        start
    });
    axpy(mix, &normalized(pseudo_random(k, 0)), &mut start);
    let mut tmp = vec![0.0; if small { cols } else { rows }];
    let op = |x: &[f64], out: &mut [f64]| {
        if small {
            matvec_t(a, rows, cols, x, &mut tmp);
            matvec(a, rows, cols, &tmp, out);
        } else {
            matvec(a, rows, cols, x, &mut tmp);
            matvec_t(a, rows, cols, &tmp, out);
        }
    };
    match lanczos_top(op, k, start, tol, max_iter) {
        Some((y, it)) => {
            let v = if small {
                let mut v = vec![0.0; cols];
                matvec_t(a, rows, cols, &y, &mut v);
                v
            } else {
                y
            };
            finish(v, it, false)
        }
        None => {
            let full = svd(a, rows, cols);
            let kk = full.s.len();
            finish((0..cols).map(|j| full.v[j * kk]).collect(), 0, true)
        }
    }
}

/// Restarted Lanczos for the top eigenpair of the PSD operator `op` on `R^n`, from `start`.
/// Returns the top Ritz vector and the number of operator applications, or `None` when it
/// did not finish within `max_iter` applications.
///
/// When `n <= LANCZOS_BASIS` the iteration runs until the Krylov basis spans `R^n` (an
/// invariant subspace found early is continued with a fresh pseudo-random direction), so the
/// answer is exact up to rounding whatever the start: stopping on a small Ritz residual alone
/// can accept `sigma_2` when the start has a tiny `v_1` component and `sigma_1 ~ sigma_2`
/// (observed: 2.4e-9 relative with a warm start equal to `v_2`). Larger operators stop when
/// the Ritz residual `||M y - theta y|| <= tol theta`.
fn lanczos_top(
    mut op: impl FnMut(&[f64], &mut [f64]),
    n: usize,
    start: Vec<f64>,
    tol: f64,
    max_iter: usize,
) -> Option<(Vec<f64>, usize)> {
    let exhaust = n <= LANCZOS_BASIS;
    let mut q0 = start;
    let mut iters = 0;
    let mut w = vec![0.0; n];
    loop {
        let nq = norm(&q0);
        if !(nq > 0.0) || !nq.is_finite() {
            return None;
        }
        q0.iter_mut().for_each(|x| *x /= nq);
        let m = LANCZOS_BASIS.min(n);
        let mut qs: Vec<Vec<f64>> = vec![q0.clone()];
        let mut alpha: Vec<f64> = Vec::with_capacity(m);
        let mut beta: Vec<f64> = Vec::with_capacity(m);
        for j in 0..m {
            if iters >= max_iter {
                return None;
            }
            iters += 1;
            op(&qs[j], &mut w);
            alpha.push(dot(&qs[j], &w));
            // full reorthogonalisation, twice ("twice is enough")
            for _ in 0..2 {
                for q in &qs {
                    let d = dot(&w, q);
                    axpy(-d, q, &mut w);
                }
            }
            let b = norm(&w);
            let ritz = |s: &[f64]| {
                let mut y = vec![0.0; n];
                for (q, si) in qs.iter().zip(s) {
                    axpy(*si, q, &mut y);
                }
                y
            };
            // the tridiagonal eigenproblem is only needed where the answer is read
            let last = j + 1 == n || j + 1 == m;
            let top = if exhaust && !last {
                None
            } else {
                Some(tridiagonal_top(&alpha, &beta))
            };
            if let Some((theta, s)) = &top {
                // Ritz residual ||M y - theta y|| = b |s_j|; a basis of all of R^n is exact
                if j + 1 == n || (!exhaust && b * s[j].abs() <= tol * theta) {
                    return Some((ritz(s), iters));
                }
                if j + 1 == m {
                    q0 = ritz(s); // explicit restart from the current Ritz vector
                    break;
                }
            }
            let scale = alpha.iter().fold(0.0f64, |m, a| m.max(a.abs()));
            if b <= f64::EPSILON * scale {
                // invariant subspace: continue with a fresh direction (T decouples, beta = 0)
                let mut fresh = pseudo_random(n, j as u64 + 1);
                for _ in 0..2 {
                    for q in &qs {
                        let d = dot(&fresh, q);
                        axpy(-d, q, &mut fresh);
                    }
                }
                let nf = norm(&fresh);
                if !(nf > 0.0) {
                    let (_, s) = tridiagonal_top(&alpha, &beta);
                    return Some((ritz(&s), iters));
                }
                beta.push(0.0);
                qs.push(fresh.iter().map(|x| x / nf).collect());
            } else {
                beta.push(b);
                qs.push(w.iter().map(|x| x / b).collect());
            }
        }
    }
}

/// Largest eigenvalue and unit eigenvector of the symmetric tridiagonal matrix with diagonal
/// `alpha` and off-diagonal `beta` (`beta.len() = alpha.len() - 1`): bisection with Sturm
/// counts, then inverse iteration with a pivoted tridiagonal LU.
fn tridiagonal_top(alpha: &[f64], beta: &[f64]) -> (f64, Vec<f64>) {
    let n = alpha.len();
    if n == 1 {
        return (alpha[0], vec![1.0]);
    }
    let scale = alpha
        .iter()
        .chain(beta)
        .fold(0.0f64, |m, v| m.max(v.abs()))
        .max(f64::MIN_POSITIVE);
    // number of eigenvalues below x (negative pivots of LDL^T of T - x I)
    let below = |x: f64| {
        let mut count = 0;
        let mut d = 1.0;
        for i in 0..n {
            d = alpha[i]
                - x
                - if i > 0 {
                    beta[i - 1] * beta[i - 1] / d
                } else {
                    0.0
                };
            if d == 0.0 {
                d = -f64::EPSILON * scale;
            }
            if d < 0.0 {
                count += 1;
            }
        }
        count
    };
    // lambda_max lies in [max alpha_i, Gershgorin upper bound]
    let mut lo = alpha.iter().cloned().fold(f64::NEG_INFINITY, f64::max);
    let mut hi = (0..n)
        .map(|i| {
            alpha[i]
                + if i > 0 { beta[i - 1].abs() } else { 0.0 }
                + if i + 1 < n { beta[i].abs() } else { 0.0 }
        })
        .fold(f64::NEG_INFINITY, f64::max);
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if mid <= lo || mid >= hi {
            break;
        }
        if below(mid) == n {
            hi = mid;
        } else {
            lo = mid;
        }
    }
    let theta = hi;
    // inverse iteration on T - theta I (nearly singular by design)
    let mut x = vec![1.0; n];
    for _ in 0..3 {
        solve_tridiagonal(alpha, beta, theta, &mut x, scale);
        let nx = norm(&x);
        if !(nx > 0.0) || !nx.is_finite() {
            x = vec![1.0; n];
            break;
        }
        x.iter_mut().for_each(|v| *v /= nx);
    }
    (theta, x)
}

/// Solves `(T - shift I) x = b` in place for symmetric tridiagonal `T` (diagonal `alpha`,
/// off-diagonal `beta`) by LU with partial pivoting (LAPACK dgttrf/dgtts2); zero pivots are
/// replaced by `EPS * scale` (inverse iteration).
fn solve_tridiagonal(alpha: &[f64], beta: &[f64], shift: f64, b: &mut [f64], scale: f64) {
    let n = alpha.len();
    let tiny = f64::EPSILON * scale;
    let mut d: Vec<f64> = alpha.iter().map(|a| a - shift).collect();
    let mut dl = beta.to_vec();
    let mut du = beta.to_vec();
    let mut du2 = vec![0.0; n.saturating_sub(2)];
    let mut swap = vec![false; n.saturating_sub(1)];
    for i in 0..n - 1 {
        if d[i].abs() >= dl[i].abs() {
            if d[i] == 0.0 {
                d[i] = tiny;
            }
            let f = dl[i] / d[i];
            dl[i] = f;
            d[i + 1] -= f * du[i];
        } else {
            let f = d[i] / dl[i];
            d[i] = dl[i];
            dl[i] = f;
            let t = du[i];
            du[i] = d[i + 1];
            d[i + 1] = t - f * d[i + 1];
            if i + 2 < n {
                du2[i] = du[i + 1];
                du[i + 1] *= -f;
            }
            swap[i] = true;
        }
    }
    if d[n - 1] == 0.0 {
        d[n - 1] = tiny;
    }
    for i in 0..n - 1 {
        if swap[i] {
            let t = b[i];
            b[i] = b[i + 1];
            b[i + 1] = t - dl[i] * b[i];
        } else {
            b[i + 1] -= dl[i] * b[i];
        }
    }
    b[n - 1] /= d[n - 1];
    if n > 1 {
        b[n - 2] = (b[n - 2] - du[n - 2] * b[n - 1]) / d[n - 2];
    }
    for i in (0..n.saturating_sub(2)).rev() {
        b[i] = (b[i] - du[i] * b[i + 1] - du2[i] * b[i + 2]) / d[i];
    }
}

/// A fixed pseudo-random vector with entries in [-1, 1) (splitmix64 stream `seed`), for
/// deterministic generic start vectors.
fn pseudo_random(n: usize, seed: u64) -> Vec<f64> {
    let mut state: u64 = 0x9E37_79B9_7F4A_7C15 ^ seed.wrapping_mul(0xD1B5_4A32_D192_ED03);
    (0..n)
        .map(|_| {
            state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
            let mut z = state;
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            z ^= z >> 31;
            (z >> 11) as f64 / (1u64 << 52) as f64 - 1.0
        })
        .collect()
}

/// Largest eigenvalue magnitude (spectral norm) of a symmetric matrix, and its smallest
/// eigenvalue, via the Jacobi SVD and Rayleigh signs. Accurate to a few ulps of `||A||_2`.
pub fn sym_extreme_eigs(a: &[f64], n: usize) -> (f64, f64) {
    let e = sym_eigenvalues(a, n);
    let lmin = e.iter().cloned().fold(f64::INFINITY, f64::min);
    let norm2 = e.iter().map(|x| x.abs()).fold(0.0, f64::max);
    (norm2, lmin)
}

/// All eigenvalues of a symmetric `n x n` matrix (cyclic Jacobi), ascending.
pub fn sym_eigenvalues(a: &[f64], n: usize) -> Vec<f64> {
    assert_eq!(a.len(), n * n);
    let mut m = a.to_vec();
    // off-diagonal entries below EPS * max(sqrt|a_pp a_qq|, 1e-6 ||A||_F) are left alone (Weyl:
    // each moves an eigenvalue by at most itself); rotated entries are set to exactly zero, so
    // the cyclic sweeps converge quadratically and stop when a sweep rotates nothing
    let floor = 1e-6 * m.iter().map(|x| x * x).sum::<f64>().sqrt();
    for _ in 0..100 {
        let mut rotated = false;
        for p in 0..n {
            for q in (p + 1)..n {
                let apq = m[p * n + q];
                let app = m[p * n + p];
                let aqq = m[q * n + q];
                if apq.abs() <= f64::EPSILON * (app.abs() * aqq.abs()).sqrt().max(floor) {
                    continue;
                }
                rotated = true;
                let theta = (aqq - app) / (2.0 * apq);
                let sign = if theta >= 0.0 { 1.0 } else { -1.0 };
                let t = sign / (theta.abs() + (theta * theta + 1.0).sqrt());
                let c = 1.0 / (t * t + 1.0).sqrt();
                let s = t * c;
                for k in 0..n {
                    let mkp = m[k * n + p];
                    let mkq = m[k * n + q];
                    m[k * n + p] = c * mkp - s * mkq;
                    m[k * n + q] = s * mkp + c * mkq;
                }
                for k in 0..n {
                    let mpk = m[p * n + k];
                    let mqk = m[q * n + k];
                    m[p * n + k] = c * mpk - s * mqk;
                    m[q * n + k] = s * mpk + c * mqk;
                }
                m[p * n + q] = 0.0;
                m[q * n + p] = 0.0;
            }
        }
        if !rotated {
            break;
        }
    }
    let mut e: Vec<f64> = (0..n).map(|i| m[i * n + i]).collect();
    e.sort_by(|a, b| a.total_cmp(b));
    e
}

/// Spectral norm `||A||_2` of a general row-major matrix (exact, via the Jacobi SVD).
pub fn spectral_norm(a: &[f64], rows: usize, cols: usize) -> f64 {
    if rows == 0 || cols == 0 {
        return 0.0;
    }
    svd(a, rows, cols).s[0]
}

/// Euclidean projection of `z` onto `{s : s >= 0, sum s = scale}` (sorting method),
/// written into `out` (which also serves as the sort buffer: no allocation).
pub fn project_simplex(z: &[f64], scale: f64, out: &mut [f64]) {
    let u = &mut *out;
    u.copy_from_slice(z);
    u.sort_unstable_by(|a, b| b.total_cmp(a));
    let mut css = 0.0;
    let mut theta = 0.0;
    for (i, &ui) in u.iter().enumerate() {
        css += ui;
        let t = (css - scale) / (i as f64 + 1.0);
        if ui - t > 0.0 {
            theta = t;
        }
    }
    for (o, &zi) in out.iter_mut().zip(z) {
        *o = (zi - theta).max(0.0);
    }
}

/// Euclidean projection of `z` onto the l1 ball `{||s||_1 <= radius}` into `out`.
pub fn project_l1_ball(z: &[f64], radius: f64, out: &mut [f64]) {
    let l1: f64 = z.iter().map(|x| x.abs()).sum();
    if l1 <= radius {
        out.copy_from_slice(z);
        return;
    }
    let abs: Vec<f64> = z.iter().map(|x| x.abs()).collect();
    let mut p = vec![0.0; z.len()];
    project_simplex(&abs, radius, &mut p);
    for ((o, &zi), pi) in out.iter_mut().zip(z).zip(p) {
        *o = if zi < 0.0 { -pi } else { pi };
    }
}
