//! Small dense linear-algebra kernels on flat `f64` slices: vector ops, row-major matrix
//! products, a one-sided Jacobi SVD (the exact reference), and a warm-startable top singular
//! pair by power iteration with an exact fallback.
//!
//! Matrices are row-major flat slices with an explicit shape `(rows, cols)`.

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
    for (l, &i) in order.iter().enumerate() {
        s[l] = norms[i];
        for k in 0..p {
            uu[k * p + l] = u[k * p + i];
        }
        if norms[i] > 0.0 {
            for k in 0..q {
                v[k * p + l] = w[i * q + k] / norms[i];
            }
        }
    }
    Svd {
        rows,
        cols,
        u: uu,
        s,
        v,
    }
}

/// Top singular triple `(sigma_1, u_1, v_1)` of a row-major `rows x cols` matrix.
#[derive(Debug, Clone)]
pub struct TopPair {
    pub sigma: f64,
    pub u: Vec<f64>,
    pub v: Vec<f64>,
    /// Power iterations used (0 when the exact fallback produced the pair).
    pub iterations: usize,
    /// Whether the exact Jacobi SVD was used because power iteration did not converge.
    pub exact_fallback: bool,
}

/// Top singular pair by power iteration on `A^T A`, warm-started from `warm` (a right
/// singular vector guess of length `cols`) when given. Stops when the relative residual
/// `||A^T u - sigma v|| / sigma <= tol`; if that has not happened after `max_iter` steps the
/// exact Jacobi SVD is used instead, so the result is always accurate to `tol` (or exact).
pub fn top_singular_pair(
    a: &[f64],
    rows: usize,
    cols: usize,
    warm: Option<&[f64]>,
    tol: f64,
    max_iter: usize,
) -> TopPair {
    let fro = norm(a);
    if fro == 0.0 {
        let mut u = vec![0.0; rows];
        let mut v = vec![0.0; cols];
        u[0] = 1.0;
        v[0] = 1.0;
        return TopPair {
            sigma: 0.0,
            u,
            v,
            iterations: 0,
            exact_fallback: false,
        };
    }
    let mut v = match warm {
        Some(w) if w.len() == cols && norm(w) > 0.0 => w.to_vec(),
        _ => {
            // deterministic cold start: the row of largest norm
            let best = (0..rows)
                .max_by(|&i, &j| {
                    norm(&a[i * cols..(i + 1) * cols])
                        .total_cmp(&norm(&a[j * cols..(j + 1) * cols]))
                        .then(j.cmp(&i))
                })
                .unwrap_or(0);
            a[best * cols..(best + 1) * cols].to_vec()
        }
    };
    let nv = norm(&v);
    v.iter_mut().for_each(|x| *x /= nv);
    let mut u = vec![0.0; rows];
    let mut r = vec![0.0; cols];
    for it in 1..=max_iter {
        matvec(a, rows, cols, &v, &mut u);
        let sigma = norm(&u);
        if sigma == 0.0 {
            break;
        }
        u.iter_mut().for_each(|x| *x /= sigma);
        matvec_t(a, rows, cols, &u, &mut r);
        // residual of the pair (sigma, u, v): ||A^T u - sigma v||
        let res: f64 = r
            .iter()
            .zip(&v)
            .map(|(ri, vi)| (ri - sigma * vi) * (ri - sigma * vi))
            .sum::<f64>()
            .sqrt();
        let sigma_new = norm(&r);
        v.iter_mut()
            .zip(&r)
            .for_each(|(vi, ri)| *vi = ri / sigma_new);
        if res <= tol * sigma {
            // recompute u for the final v so that u^T A v = sigma exactly in floating point
            matvec(a, rows, cols, &v, &mut u);
            let s = norm(&u);
            u.iter_mut().for_each(|x| *x /= s);
            return TopPair {
                sigma: s,
                u,
                v,
                iterations: it,
                exact_fallback: false,
            };
        }
    }
    let full = svd(a, rows, cols);
    let k = full.s.len();
    TopPair {
        sigma: full.s[0],
        u: (0..rows).map(|i| full.u[i * k]).collect(),
        v: (0..cols).map(|j| full.v[j * k]).collect(),
        iterations: 0,
        exact_fallback: true,
    }
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
    for _ in 0..100 {
        let off: f64 = (0..n)
            .flat_map(|i| (0..n).filter(move |&j| j != i).map(move |j| (i, j)))
            .map(|(i, j)| m[i * n + j] * m[i * n + j])
            .sum();
        let total: f64 = m.iter().map(|x| x * x).sum();
        if off <= f64::EPSILON * f64::EPSILON * total || off == 0.0 {
            break;
        }
        for p in 0..n {
            for q in (p + 1)..n {
                let apq = m[p * n + q];
                if apq == 0.0 {
                    continue;
                }
                let app = m[p * n + p];
                let aqq = m[q * n + q];
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
            }
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
