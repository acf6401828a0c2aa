//! Euclidean projection onto the nuclear-norm ball by the Gram route, with the guarded fast path
//! and the Jacobi-finished accurate path (see the module documentation of [`crate::spectral`]).

use super::{
    jacobi_rows, short_view, short_view_mut, GramWorkspace, ProjectionMode, ProjectionPath,
    FAST_GUARD, FAST_REL_TOL,
};
use crate::linalg::{gemm, mat, mat_mut};

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
    if let Some((e, scaled)) = super::rescaled(z, ws.diag_max(k)) {
        // P_r(z) = 2^e P_{r 2^-e}(z 2^-e), exact in powers of two
        let r = crate::linalg::times_pow2(radius, -e);
        let path = project_nuclear(&scaled, rows, cols, r, out, ws, mode);
        if path == ProjectionPath::Inside {
            // z itself: its smallest entries may not have survived the scaling
            out.copy_from_slice(z);
        } else {
            out.iter_mut()
                .for_each(|o| *o = crate::linalg::times_pow2(*o, e));
        }
        return path;
    }
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
    if let Some(path) = try_fast_path(z, rows, cols, radius, out, ws, mode) {
        return path;
    }
    accurate_path(z, rows, cols, radius, out, ws)
}

/// The fast path and the quick "inside" decision from the eigenvalues of G alone, when the
/// eigenvalue error bound `dl` (module documentation) allows them; None: take the accurate path.
fn try_fast_path(
    z: &[f64],
    rows: usize,
    cols: usize,
    radius: f64,
    out: &mut [f64],
    ws: &mut GramWorkspace,
    mode: ProjectionMode,
) -> Option<ProjectionPath> {
    if mode == ProjectionMode::ForceJacobi {
        return None;
    }
    let k = rows.min(cols);
    let n_long = rows.max(cols);
    let lmax = ws.eig.values[0].max(0.0);
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
    let force = mode == ProjectionMode::ForceFast;
    if sum_s + slack <= radius || (force && sum_s <= radius) {
        out.copy_from_slice(z);
        return Some(ProjectionPath::Inside);
    }
    if !(sum_s - slack > radius || force) {
        return None;
    }
    let theta = l1_threshold(&ws.s, radius);
    ws.w.clear();
    ws.w.extend(ws.s.iter().map(|&s| (s - theta).max(0.0)));
    let p_norm = ws.w.iter().map(|w| w * w).sum::<f64>().sqrt();
    let est = 3.0 * (k as f64).sqrt() * dl / (theta * p_norm);
    if !(force || (theta * theta > 4.0 * dl && est <= FAST_REL_TOL)) {
        return None;
    }
    let vectors = &ws.eig.vectors;
    apply_spectral_map(z, rows, cols, k, vectors, &ws.s, &ws.w, &mut ws.m, out);
    Some(ProjectionPath::Fast)
}

/// The accurate path: `Y = U^T Zs` (k x N) finished by one-sided Jacobi, singular values
/// `s_i = ||y_i||` (the reference SVD when the sweeps fail).
fn accurate_path(
    z: &[f64],
    rows: usize,
    cols: usize,
    radius: f64,
    out: &mut [f64],
    ws: &mut GramWorkspace,
) -> ProjectionPath {
    let k = rows.min(cols);
    let n_long = rows.max(cols);
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
