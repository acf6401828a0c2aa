//! The oracle steps every method here is composed of, each written once:
//!
//! | step | formula | used by |
//! |---|---|---|
//! | [`fw_step`] | `x <- x + s (LMO_U(d) - x)` | SP-FW; R-PDCG and CG-RPGA primal; [`primal_fw_step`]: primal step of `alg:fw-fw`, `alg:fw-proj` |
//! | [`po_step`] | `x <- PO_U(x + s d)` | primal step of `alg:proj-fw` (`s = -tau_t`, `d = grad_x L`); dual step of `alg:fw-proj`; AGP; CG-RPGA dual |
//! | [`smoothed_gradient`] | `g = grad_y L(x,y) - beta (y - y0)` | `grad_y L_beta` (`eq:fL:mu`) |
//! | [`short_step`] | `gamma_t = min{g^T(u-y)/((Lyy+beta_t)\|\|u-y\|\|^2), 1}` | `alg:fw-fw`, `alg:proj-fw` |
//! | [`dual_lmo_step`] | `u = LMO_Y(-g)`, `y <- y + gamma_t (u - y)` | dual step of `alg:fw-fw`, `alg:proj-fw` |
//!
//! Moves are written as convex combinations `(1-s) x + s v`, which equal `x + s (v - x)` and
//! return `x` or `v` exactly at `s = 0` or `s = 1`.
//!
//! ```
//! use saddlefw::sets::Simplex;
//! use saddlefw::solvers::steps::{fw_step, po_step, short_step};
//! let simplex = Simplex::new(3, 1.0).unwrap();
//! // the LMO step moves towards the vertex minimising <d, v>
//! let mut x = [1.0 / 3.0; 3];
//! let mut v = [0.0; 3];
//! fw_step(&simplex, &mut x, &[0.5, -1.0, 0.2], 0.5, &mut v);
//! assert_eq!(v, [0.0, 1.0, 0.0]);
//! assert!((x[1] - (0.5 / 3.0 + 0.5)).abs() < 1e-15);
//! // the projected step lands in the set
//! let mut z = [0.0; 3];
//! po_step(&simplex, &mut x, &[10.0, 0.0, 0.0], 1.0, &mut z);
//! assert!((x[0] - 1.0).abs() < 1e-12 && x[1] == 0.0 && x[2] == 0.0, "{x:?}");
//! // gamma_t = min{g'(u - y) / (curvature ||u - y||^2), 1}; unclipped for the negative control
//! let (g, y, u) = ([1.0, 0.0], [0.0, 0.0], [1.0, 0.0]);
//! assert_eq!(short_step(&g, &y, &u, 4.0, true), 0.25);
//! assert_eq!(short_step(&g, &y, &u, 0.5, true), 1.0);
//! assert_eq!(short_step(&g, &y, &u, 0.5, false), 2.0);
//! ```

use crate::problems::SaddleProblem;
use crate::sets::{ConvexSet, RankOne};

/// `x <- (1 - s) x + s v`, i.e. `x + s (v - x)`.
pub fn move_towards(x: &mut [f64], v: &[f64], s: f64) {
    // dispatched: compiled for the baseline, the loop ran two lanes wide (same bits either way)
    crate::linalg::simd(move || {
        for (xi, vi) in x.iter_mut().zip(v) {
            *xi = (1.0 - s) * *xi + s * vi;
        }
    })
}

/// The Frank-Wolfe move `x <- x + s (LMO_U(d) - x)`; `v` receives `LMO_U(d)`.
pub fn fw_step(set: &dyn ConvexSet, x: &mut [f64], d: &[f64], s: f64, v: &mut [f64]) {
    set.lmo(d, v);
    move_towards(x, v, s);
}

/// [`fw_step`] on the primal set of `p`, telling `p` the move when the vertex is rank one
/// ([`SaddleProblem::note_fw_move`]: the problem may then update its products instead of
/// recomputing them at the next [`SaddleProblem::step_grads`]); same iterate as [`fw_step`].
/// When the set gives the vertex's factors alone ([`ConvexSet::lmo_factors`]) the vertex is
/// never formed (one pass over x instead of three) and `v` is left as it was; otherwise `v`
/// receives the vertex.
pub fn primal_fw_step(
    p: &dyn SaddleProblem,
    x: &mut [f64],
    d: &[f64],
    s: f64,
    v: &mut [f64],
    vertex: &mut RankOne,
) {
    let rank_one = match p.x_set().lmo_factors(d, vertex) {
        Some(true) => {
            move_towards_rank_one(x, vertex, s);
            p.note_fw_move(s, vertex, x);
            return;
        }
        Some(false) => {
            v.iter_mut().for_each(|o| *o = f64::NAN);
            false
        }
        None => p.x_set().lmo_rank_one(d, v, vertex),
    };
    if rank_one && vertex.threads > 1 {
        // entry by entry: the same bits as `move_towards`, split like the set's oracles
        let parts: Vec<_> = x.chunks_mut(1 << 16).zip(v.chunks(1 << 16)).collect();
        crate::jobs::run_parts(parts, vertex.threads, |(x, v)| move_towards(x, v, s));
    } else {
        move_towards(x, v, s);
    }
    if rank_one {
        p.note_fw_move(s, vertex, x);
    }
}

/// [`move_towards`] the rank-one vertex `(scale u_i) v_j` without forming it: the same
/// operations entry by entry, so the same bits; rows split over `vertex.threads`.
fn move_towards_rank_one(x: &mut [f64], vertex: &RankOne, s: f64) {
    let cols = vertex.v.len();
    let rows_per_part = (1 << 16) / cols.max(1) + 1;
    let parts: Vec<_> = x
        .chunks_mut(rows_per_part * cols)
        .zip(vertex.u.chunks(rows_per_part))
        .collect();
    crate::jobs::run_parts(parts, vertex.threads.max(1), |(x, u)| {
        crate::linalg::simd(|| {
            for (row, &ui) in x.chunks_exact_mut(cols).zip(u) {
                let c = vertex.scale * ui;
                for (xi, &vj) in row.iter_mut().zip(&vertex.v) {
                    *xi = (1.0 - s) * *xi + s * (c * vj);
                }
            }
        })
    });
}

/// The projected step `x <- PO_U(x + s d)`; `z` is scratch.
pub fn po_step(set: &dyn ConvexSet, x: &mut [f64], d: &[f64], s: f64, z: &mut [f64]) {
    for ((zi, xi), di) in z.iter_mut().zip(x.iter()).zip(d) {
        *zi = xi + s * di;
    }
    set.project(z, x);
}

/// `out = grad_y L_beta(x, y) = grad_y L(x, y) - beta (y - y0)` (`eq:fL:mu`).
pub fn smoothed_gradient(gy: &[f64], y: &[f64], y0: &[f64], beta: f64, out: &mut [f64]) {
    for (((o, g), yi), y0i) in out.iter_mut().zip(gy).zip(y).zip(y0) {
        *o = g - beta * (yi - y0i);
    }
}

/// The dual step size of `alg:fw-fw` / `alg:proj-fw`:
/// `gamma_t = min{ g^T (u - y) / (curvature ||u - y||^2), 1 }` with `curvature = Lyy + beta_t`,
/// the maximiser over `[0,1]` of the quadratic lower model of `L_t(x_t, .)` along `u - y`.
///
/// Cases the paper leaves open (claims.md 2.1, 7.1):
/// * `u = y` (0/0): `gamma_t = 0` (any value gives the same `y_{t+1}`);
/// * `curvature = 0` (the model is linear): `gamma_t = 1` if the numerator is positive, else 0;
/// * the numerator is `>= 0` exactly (u maximises `g^T u` over Y, which contains y); a
///   negative value from rounding is treated as 0.
///
/// `clip = false` drops the `min{., 1}` (a deliberately broken variant for negative controls).
/// A NaN anywhere gives NaN (so that the run loop detects it).
pub fn short_step(g: &[f64], y: &[f64], u: &[f64], curvature: f64, clip: bool) -> f64 {
    let mut num = 0.0;
    let mut dd = 0.0;
    for ((gi, yi), ui) in g.iter().zip(y).zip(u) {
        let d = ui - yi;
        num += gi * d;
        dd += d * d;
    }
    if num.is_nan() || dd.is_nan() || curvature.is_nan() {
        return f64::NAN;
    }
    if dd == 0.0 {
        return 0.0;
    }
    let num = num.max(0.0);
    let den = curvature * dd;
    let ratio = if den > 0.0 {
        num / den
    } else if num > 0.0 {
        f64::INFINITY
    } else {
        0.0
    };
    if clip {
        ratio.min(1.0)
    } else {
        ratio
    }
}

/// The dual LMO step of `alg:fw-fw` / `alg:proj-fw`: `u = LMO_Y(-g)`, `gamma_t` by
/// [`short_step`], `y <- y + gamma_t (u - y)`. Returns `gamma_t`; `neg` and `u` are scratch.
pub fn dual_lmo_step(
    set: &dyn ConvexSet,
    y: &mut [f64],
    g: &[f64],
    curvature: f64,
    clip: bool,
    neg: &mut [f64],
    u: &mut [f64],
) -> f64 {
    for (n, gi) in neg.iter_mut().zip(g) {
        *n = -gi;
    }
    set.lmo(neg, u);
    let gamma = short_step(g, y, u, curvature, clip);
    move_towards(y, u, gamma);
    gamma
}

// ------------------------------------------------------------------------------------------
// Variants of the steps for the calibration panels (crate::calibration): the same update in
// another floating-point order (legitimate), and a projection replaced by clipping (faulty).

/// [`fw_step`] with its operations in another order: `x <- x + s (v - x)` instead of
/// `(1 - s) x + s v` (the same point in exact arithmetic).
pub(crate) fn fw_step_reordered(
    set: &dyn ConvexSet,
    x: &mut [f64],
    d: &[f64],
    s: f64,
    v: &mut [f64],
) {
    set.lmo(d, v);
    for (xi, vi) in x.iter_mut().zip(v.iter()) {
        *xi += s * (vi - *xi);
    }
}

/// [`smoothed_gradient`] with its operations in another order: `(g - beta y) + beta y0`.
pub(crate) fn smoothed_gradient_reordered(
    gy: &[f64],
    y: &[f64],
    y0: &[f64],
    beta: f64,
    out: &mut [f64],
) {
    for (((o, g), yi), y0i) in out.iter_mut().zip(gy).zip(y).zip(y0) {
        *o = (g - beta * yi) + beta * y0i;
    }
}

/// [`po_step`] with the step `x + s d` formed by a fused multiply-add (one rounding instead of
/// two).
pub(crate) fn po_step_fused(set: &dyn ConvexSet, x: &mut [f64], d: &[f64], s: f64, z: &mut [f64]) {
    for ((zi, xi), di) in z.iter_mut().zip(x.iter()).zip(d) {
        *zi = s.mul_add(*di, *xi);
    }
    set.project(z, x);
}

/// A projected step done wrong: `x + s d` clipped at the boundary of the set along the segment
/// from `x` (the largest `r` in `[0, 1]` with `x + r s d` in the set, by bisection) instead of
/// projected. The point stays feasible, but the step loses its component along the boundary,
/// so it is not the projection the analysis uses (a negative control).
pub fn clipped_step(set: &dyn ConvexSet, x: &mut [f64], d: &[f64], s: f64, z: &mut [f64]) {
    let tol = 1e-12 * (1.0 + set.diameter());
    let at = |r: f64, z: &mut [f64], x: &[f64]| {
        for ((zi, xi), di) in z.iter_mut().zip(x).zip(d) {
            *zi = xi + r * s * di;
        }
    };
    at(1.0, z, x);
    if !set.contains(z, tol) {
        let (mut lo, mut hi) = (0.0, 1.0);
        for _ in 0..50 {
            let mid = 0.5 * (lo + hi);
            at(mid, z, x);
            if set.contains(z, tol) {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        at(lo, z, x);
    }
    x.copy_from_slice(z);
}
