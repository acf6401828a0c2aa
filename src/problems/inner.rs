//! Exact and certified inner solves: `y*_beta(x)`, `f_beta(x)`, `min_x L(x, y)` and `f*`.
//!
//! Certificates: for a concave `phi` on a compact convex set U and any `y in U`,
//! `phi(y) <= max_U phi <= phi(y) + max_{u in U} grad phi(y)^T (u - y)` (the Frank-Wolfe gap,
//! one LMO). Every certified value is returned as an [`Interval`] built from these two bounds.
//!
//! ```
//! use saddlefw::problems::inner::{fw_gap, y_star_closed_form};
//! use saddlefw::problems::YModel;
//! use saddlefw::sets::Simplex;
//! // L(x, .) = c'y on the simplex (m = 0) and beta = 0: y* is the vertex of the largest c_i
//! let model = YModel { h: 0.0, c: vec![0.2, 0.9, 0.4], m: 0.0 };
//! let simplex = Simplex::new(3, 1.0).unwrap();
//! let centre = [1.0 / 3.0; 3];
//! let r = y_star_closed_form(&simplex, &model, 0.0, &centre);
//! assert_eq!(r.y, [0.0, 1.0, 0.0]);
//! assert_eq!((r.value.lower, r.value.upper), (0.9, 0.9));
//! // with beta > 0 the smoothed maximiser moves towards the centre y0 and stays in Y
//! let s = y_star_closed_form(&simplex, &model, 10.0, &centre);
//! assert!(s.y[1] < 1.0 && s.y[1] > s.y[2] && s.y[2] > s.y[0] && (s.y.iter().sum::<f64>() - 1.0).abs() < 1e-12);
//! // the Frank-Wolfe gap g'(u - y) certifies the value: max = c'y + gap at y = centre
//! assert!((model.value(&centre) + fw_gap(&model.c, &r.y, &centre) - 0.9).abs() < 1e-12);
//! ```

use super::values::{Constants, InnerMax, Interval, YModel};
use crate::linalg::dot;
use crate::sets::ConvexSet;

/// What the certified inner solves read of a problem: the payoff, its gradients, the sets, the
/// constants and the closed forms. Every [`SaddleProblem`](super::SaddleProblem) is one (a
/// blanket implementation forwards to it); the trait lives here so that this module does not
/// import the problem trait whose default methods call it.
pub trait InnerProblem {
    /// The primal set X.
    fn x_set(&self) -> &dyn ConvexSet;
    /// The dual set Y.
    fn y_set(&self) -> &dyn ConvexSet;
    /// `L(x, y)`.
    fn value(&self, x: &[f64], y: &[f64]) -> f64;
    /// `grad_x L(x, y)` into `out`.
    fn grad_x(&self, x: &[f64], y: &[f64], out: &mut [f64]);
    /// `grad_y L(x, y)` into `out`.
    fn grad_y(&self, x: &[f64], y: &[f64], out: &mut [f64]);
    /// Both gradients at once.
    fn grads(&self, x: &[f64], y: &[f64], gx: &mut [f64], gy: &mut [f64]);
    /// Certified constants.
    fn constants(&self) -> Constants;
    /// Whether L(., y) is convex for every y in Y.
    fn convex_in_x(&self) -> bool;
    /// The y-structure at x, if the family has one.
    fn y_model(&self, x: &[f64]) -> Option<YModel>;
    /// `y*_beta(x)` and `f_beta(x)` (`eq:fL:mu`).
    fn y_star(&self, x: &[f64], beta: f64, y0: &[f64]) -> InnerMax;
    /// The rounding allowance of a first-order expression (see the problem trait).
    fn first_order_rounding(&self, x: &[f64], y: &[f64], dx: &[f64], dy: &[f64]) -> f64;
}

/// Relative width at which certified inner solves stop (issue contract: <= 1e-10).
pub const INNER_REL_TOL: f64 = 1e-12;
/// Iteration cap of certified inner solves; the returned interval is valid regardless.
pub const INNER_MAX_ITER: usize = 200_000;

/// The result of a certified maximisation.
#[derive(Debug, Clone)]
pub struct Certified {
    pub point: Vec<f64>,
    pub value: Interval,
    pub iterations: usize,
}

/// Maximises a concave, `smooth`-smooth, `strong`-strongly concave `phi` over `set`, starting
/// at `start` (projected first), by accelerated projected gradient with restarts. Returns the
/// best point and a certified interval for `max phi` of relative width <= `rel_tol` unless the
/// iteration cap is hit (the interval is valid in every case).
pub fn maximize(
    set: &dyn ConvexSet,
    start: &[f64],
    smooth: f64,
    strong: f64,
    value: &dyn Fn(&[f64]) -> f64,
    grad: &dyn Fn(&[f64], &mut [f64]),
    rel_tol: f64,
    max_iter: usize,
) -> Certified {
    maximize_with_allowance(
        set,
        start,
        (smooth, strong),
        (value, grad),
        &|_, _| 0.0,
        rel_tol,
        max_iter,
    )
}

/// [`maximize`] whose certificates `[phi(p), phi(p) + g^T (u - p)]` at a point `p` with LMO
/// vertex `u` are widened at both ends by `allowance(p, u)` (the rounding bound of that
/// expression).
pub fn maximize_with_allowance(
    set: &dyn ConvexSet,
    start: &[f64],
    (smooth, strong): (f64, f64),
    (value, grad): (&dyn Fn(&[f64]) -> f64, &dyn Fn(&[f64], &mut [f64])),
    allowance: &dyn Fn(&[f64], &[f64]) -> f64,
    rel_tol: f64,
    max_iter: usize,
) -> Certified {
    let n = set.dim();
    let mut y = vec![0.0; n];
    set.project(start, &mut y);
    let mut g = vec![0.0; n];
    let mut u = vec![0.0; n];
    let mut neg = vec![0.0; n];
    // certificate at a point: (phi(p), phi(p) + FW gap)
    let certify = |p: &[f64], g: &mut [f64], u: &mut [f64], neg: &mut [f64]| -> (f64, f64) {
        grad(p, g);
        for i in 0..n {
            neg[i] = -g[i];
        }
        set.lmo(neg, u);
        let gap: f64 = (0..n).map(|i| g[i] * (u[i] - p[i])).sum::<f64>().max(0.0);
        let v = value(p);
        let a = allowance(p, u);
        (v - a, v + gap + a)
    };
    let (mut lo, mut hi) = certify(&y, &mut g, &mut u, &mut neg);
    let mut best = y.clone();
    let done = |lo: f64, hi: f64| hi - lo <= rel_tol * lo.abs().max(hi.abs()).max(1.0);
    if done(lo, hi) || smooth <= 0.0 {
        // linear (smooth = 0): the LMO vertex is an exact maximiser
        if smooth <= 0.0 && !done(lo, hi) {
            let (l2, h2) = certify(&u.clone(), &mut g, &mut vec![0.0; n], &mut neg);
            if l2 > lo {
                best = u.clone();
                lo = l2;
            }
            hi = hi.min(h2);
        }
        return Certified {
            point: best,
            value: Interval {
                lower: lo,
                upper: hi.max(lo),
            },
            iterations: 0,
        };
    }
    let step = 1.0 / smooth;
    let mut z = y.clone();
    let mut y_prev = y.clone();
    let mut t = 1.0f64;
    let momentum_sc = if strong > 0.0 {
        let k = (smooth / strong).sqrt();
        Some((k - 1.0) / (k + 1.0))
    } else {
        None
    };
    let mut f_prev = lo;
    let mut trial = vec![0.0; n];
    let mut iters = 0;
    for it in 1..=max_iter {
        iters = it;
        grad(&z, &mut g);
        for i in 0..n {
            trial[i] = z[i] + step * g[i];
        }
        y_prev.copy_from_slice(&y);
        set.project(&trial, &mut y);
        let fy = value(&y);
        let beta_m = if fy < f_prev {
            // adaptive restart: objective went down
            t = 1.0;
            0.0
        } else {
            match momentum_sc {
                Some(m) => m,
                None => {
                    let t_next = 0.5 * (1.0 + (1.0 + 4.0 * t * t).sqrt());
                    let m = (t - 1.0) / t_next;
                    t = t_next;
                    m
                }
            }
        };
        f_prev = fy;
        for i in 0..n {
            z[i] = y[i] + beta_m * (y[i] - y_prev[i]);
        }
        if it % 10 == 0 || it == max_iter {
            let (l, h) = certify(&y, &mut g, &mut u, &mut neg);
            if l > lo {
                lo = l;
                best.copy_from_slice(&y);
            }
            hi = hi.min(h);
            if done(lo, hi) {
                break;
            }
        }
    }
    Certified {
        point: best,
        value: Interval {
            lower: lo,
            upper: hi.max(lo),
        },
        iterations: iters,
    }
}

/// `y*_beta(x)` in closed form from a [`YModel`]: `P_Y((c + beta y0)/(m + beta))` when
/// `m + beta > 0`, `LMO_Y(-c)` when `m + beta = 0` (`eq:fL:mu`); the value is exact.
///
/// When `m + beta > 0` is so small against `c + beta y0` that the target overflows, the
/// maximiser cannot be formed: the result is then `y = LMO_Y(-(c + beta y0))` with the
/// certified interval `[L_beta(y), L_beta(y) + (m + beta) ||y||^2 / 2]` (dropping the
/// non-positive `-(m + beta) ||y'||^2 / 2` bounds the maximum from above by `L_beta(y)` plus
/// that term), no longer a point.
pub fn y_star_closed_form(set: &dyn ConvexSet, model: &YModel, beta: f64, y0: &[f64]) -> InnerMax {
    let n = set.dim();
    let mut y = vec![0.0; n];
    let s = model.m + beta;
    let shifted: Vec<f64> = (0..n).map(|i| model.c[i] + beta * y0[i]).collect();
    // the maximiser P_Y(shifted / s), unless s = 0 or the target overflows
    let target = (s > 0.0)
        .then(|| shifted.iter().map(|v| v / s).collect::<Vec<f64>>())
        .filter(|t| !t.iter().any(|v| v.is_infinite()));
    let overflow = s > 0.0 && target.is_none();
    match &target {
        Some(t) => set.project(t, &mut y),
        None => {
            let direction = if overflow { &shifted } else { &model.c };
            let neg: Vec<f64> = direction.iter().map(|v| -v).collect();
            set.lmo(&neg, &mut y);
        }
    }
    let d2: f64 = y.iter().zip(y0).map(|(a, b)| (a - b) * (a - b)).sum();
    let v = model.value(&y) - 0.5 * beta * d2;
    let value = if overflow {
        let y2: f64 = y.iter().map(|t| t * t).sum();
        Interval {
            lower: v,
            upper: v + 0.5 * s * y2,
        }
    } else {
        Interval::exact(v)
    };
    InnerMax { y, value }
}

/// `y*_beta(x)` by a certified inner solve (no closed form available).
pub fn y_star_certified<P: InnerProblem + ?Sized>(
    p: &P,
    x: &[f64],
    beta: f64,
    y0: &[f64],
) -> InnerMax {
    let k = p.constants();
    let value = |y: &[f64]| {
        let d2: f64 = y.iter().zip(y0).map(|(a, b)| (a - b) * (a - b)).sum();
        p.value(x, y) - 0.5 * beta * d2
    };
    let grad = |y: &[f64], out: &mut [f64]| {
        p.grad_y(x, y, out);
        for i in 0..out.len() {
            out[i] -= beta * (y[i] - y0[i]);
        }
    };
    // the certificate L_beta(x,y) + g'(u - y) carries the rounding of L's first-order form
    let allowance = |y: &[f64], u: &[f64]| y_step_rounding(p, x, y, u);
    let c = maximize_with_allowance(
        p.y_set(),
        y0,
        (k.lyy + beta, k.mu + beta),
        (&value, &grad),
        &allowance,
        INNER_REL_TOL,
        INNER_MAX_ITER,
    );
    InnerMax {
        y: c.point,
        value: c.value,
    }
}

/// `min_{v in X} L(v, y)` as a certified interval. Valid only when `L(., y)` is convex
/// (Assumption 3); with `L_xx = 0` (linear in x) it is exact via the LMO.
pub fn min_x_certified<P: InnerProblem + ?Sized>(p: &P, y: &[f64]) -> Interval {
    let start = p.x_set().default_point();
    min_x_certified_from(p, y, &start, INNER_MAX_ITER)
}

/// [`min_x_certified`] warm-started at `start`, with an iteration cap (the interval is valid
/// whatever the cap).
pub fn min_x_certified_from<P: InnerProblem + ?Sized>(
    p: &P,
    y: &[f64],
    start: &[f64],
    max_iter: usize,
) -> Interval {
    let k = p.constants();
    let value = |x: &[f64]| -p.value(x, y);
    let grad = |x: &[f64], out: &mut [f64]| {
        p.grad_x(x, y, out);
        out.iter_mut().for_each(|v| *v = -*v);
    };
    let allowance = |x: &[f64], v: &[f64]| x_step_rounding(p, x, y, v);
    let c = maximize_with_allowance(
        p.x_set(),
        start,
        (k.lxx, 0.0),
        (&value, &grad),
        &allowance,
        INNER_REL_TOL,
        max_iter,
    );
    Interval {
        lower: -c.value.upper,
        upper: -c.value.lower,
    }
}

/// `f* = min_x max_y L(x,y)` for a convex-concave problem whose f is smooth (`mu > 0`):
/// accelerated projected gradient on f with `grad f(x) = grad_x L(x, y*(x))`
/// (`lemma:calculus` (iv)), then the weak-duality certificate ([`duality_certificate`]) at
/// `(xbar, y*(xbar))`.
///
/// With a closed-form y*, the certificate's lower end `L(xbar, ybar) - FW_x` is the
/// Frank-Wolfe bound `f(xbar) - max_v grad f(xbar)^T (xbar - v)` of the convex f, but it is
/// rigorous for any feasible `ybar`, so an inaccurate `y*` (a target `(Bx - c)/mu` of
/// magnitude `1/mu`) widens it instead of making it wrong. Without a closed form the lower end
/// is refined by a certified minimisation of `L(., ybar)`. The solve's step is `1/(L_xx +
/// L_yx^2/mu)`: for tiny `mu` it stalls and the interval stays wide ([`f_star_certified`] then
/// falls back to the saddle route).
pub fn f_star_smooth<P: InnerProblem + ?Sized>(p: &P) -> Option<Interval> {
    let k = p.constants();
    if !p.convex_in_x() || k.mu <= 0.0 {
        return None;
    }
    let y0 = p.y_set().default_point();
    // whether every f(x) of the solve was exact (a closed form that did not overflow)
    let exact = std::cell::Cell::new(true);
    let value = |x: &[f64]| {
        let f = p.y_star(x, 0.0, &y0);
        exact.set(exact.get() && f.value.lower == f.value.upper);
        -f.value.mid()
    };
    let grad = |x: &[f64], out: &mut [f64]| {
        let s = p.y_star(x, 0.0, &y0);
        p.grad_x(x, &s.y, out);
        out.iter_mut().for_each(|v| *v = -*v);
    };
    // the certificate -(f(x) - grad f(x)^T (x - v)) of the solve is minus the duality lower
    // bound at (x, y*(x)), so it carries that bound's rounding allowance
    let allowance = |x: &[f64], v: &[f64]| {
        let y = p.y_star(x, 0.0, &y0).y;
        x_step_rounding(p, x, &y, v)
    };
    let lf = k.lxx + k.lyx * k.lyx / k.mu;
    let start = p.x_set().default_point();
    let c = maximize_with_allowance(
        p.x_set(),
        &start,
        (lf, 0.0),
        (&value, &grad),
        &allowance,
        INNER_REL_TOL,
        INNER_MAX_ITER,
    );
    let ybar = p.y_star(&c.point, 0.0, &y0).y;
    let closed_form = p.y_model(&start).is_some() && exact.get();
    let d = duality_certificate(p, &c.point, &ybar, !closed_form)?;
    // with an exact closed-form y* (feasible, so the solve's lower ends are duality bounds)
    // the solve's best lower end counts too; without one its f and gradient are inexact
    // a solve bound above the duality upper end contradicts it: the closed form lost
    // something to rounding, so only the duality bounds are kept
    let solve_bound = -c.value.upper;
    let lower = if closed_form && solve_bound <= d.upper {
        d.lower.max(solve_bound)
    } else {
        d.lower
    };
    Some(Interval {
        lower: lower.min(d.upper),
        upper: d.upper,
    })
}

/// `f*` of a convex-concave problem (Assumption 3), certified at every scale: the smooth route
/// ([`f_star_smooth`]) when `mu > 0`; when it is unavailable or its interval is wider than
/// [`SADDLE_REL_TOL`] (tiny `mu` relative to `L_yx^2 / L_xx`, where its step vanishes), the
/// `mu = 0` route ([`f_star_saddle`]) too, and the intersection of the two (each end of each is
/// certified, so the intersection is). `None` (not certified) for a problem that is not convex
/// in x, or when no finite certificate exists (overflowing data). Each end carries the
/// rounding allowance of [`InnerProblem::first_order_rounding`].
pub fn f_star_certified<P: InnerProblem + ?Sized>(p: &P) -> Option<Interval> {
    if !p.convex_in_x() {
        return None;
    }
    let smooth = f_star_smooth(p);
    if let Some(i) = smooth {
        if i.relative_width() <= SADDLE_REL_TOL {
            return Some(i);
        }
    }
    let saddle = f_star_saddle(p);
    let both = [smooth, saddle];
    let mut ends = both.iter().flatten();
    let first = *ends.next()?;
    let i = ends.fold(first, |acc, i| intersect(&acc, i));
    (i.lower.is_finite() && i.upper.is_finite()).then_some(i)
}

/// The intersection of two certified intervals for the same value; when rounding beyond the
/// allowance makes them cross, the hull of the crossing ends (never a narrower claim).
fn intersect(a: &Interval, b: &Interval) -> Interval {
    let (lower, upper) = (a.lower.max(b.lower), a.upper.min(b.upper));
    if lower <= upper {
        Interval { lower, upper }
    } else {
        Interval {
            lower: upper,
            upper: lower,
        }
    }
}

/// Weak duality at `(xbar, ybar)` (Assumption 3) with Frank-Wolfe certificates:
/// `L(xbar,ybar) - FW_x(xbar,ybar) <= min_v L(v, ybar) <= f* <= f(xbar) <= L(xbar,ybar) +
/// FW_y(xbar,ybar)`, each end widened by the rounding allowance; with `refine_lower`, the
/// lower end also from a certified minimisation of `L(., ybar)` warm-started at `xbar`
/// ([`DUALITY_MIN_ITER`] iterations, re-certified at its point). The chain needs `xbar in X`
/// and `ybar in Y` (checked to `1e-9`): `None` otherwise, and when an end is not finite.
pub fn duality_certificate<P: InnerProblem + ?Sized>(
    p: &P,
    xbar: &[f64],
    ybar: &[f64],
    refine_lower: bool,
) -> Option<Interval> {
    if !p.x_set().contains(xbar, 1e-9) || !p.y_set().contains(ybar, 1e-9) {
        return None;
    }
    let mut lower = min_x_bounds_at(p, ybar, xbar).lower;
    if refine_lower {
        let v = min_x_point(p, ybar, xbar, DUALITY_MIN_ITER);
        lower = lower.max(min_x_bounds_at(p, ybar, &v).lower);
    }
    let upper = max_y_bounds_at(p, xbar, ybar).upper;
    (lower.is_finite() && upper.is_finite()).then(|| Interval {
        lower: lower.min(upper),
        upper,
    })
}

/// Relative width (in the sense of [`Interval::relative_width`]) at which the approximate
/// saddle solve of [`f_star_saddle`] stops.
pub const SADDLE_REL_TOL: f64 = 1e-11;
/// Iteration cap of that saddle solve; the certified interval is valid regardless.
pub const SADDLE_MAX_ITER: usize = 100_000;

/// Certified bounds on `min_{v in X} L(v, y)` from one candidate `v` (Assumption 3:
/// `L(., y)` convex on the whole space, so `v` need not lie in X):
/// `[L(v,y) - max_w grad_x L(v,y)^T (v - w), L(v,y)]`. The lower end is the Frank-Wolfe-gap
/// correction (one LMO, exact gradient), widened by the rounding allowance
/// ([`InnerProblem::first_order_rounding`]); the upper end alone is NOT a lower bound.
pub fn min_x_bounds_at<P: InnerProblem + ?Sized>(p: &P, y: &[f64], v: &[f64]) -> Interval {
    let mut g = vec![0.0; v.len()];
    p.grad_x(v, y, &mut g);
    // w = argmin_X g'w, gap = g'(v - w) >= 0
    let mut w = vec![0.0; v.len()];
    p.x_set().lmo(&g, &mut w);
    let val = p.value(v, y);
    let allowance = x_step_rounding(p, v, y, &w);
    Interval {
        lower: val - fw_gap(&g, v, &w).max(0.0) - allowance,
        upper: val,
    }
}

/// Certified bounds on `max_{u in Y} L(x, u)` from one candidate `u` (`L(x, .)` concave on the
/// whole space, so `u` need not lie in Y): `[L(x,u), L(x,u) + max_w grad_y L(x,u)^T (w - u)]`,
/// the upper end widened by the rounding allowance.
pub fn max_y_bounds_at<P: InnerProblem + ?Sized>(p: &P, x: &[f64], u: &[f64]) -> Interval {
    let mut g = vec![0.0; u.len()];
    p.grad_y(x, u, &mut g);
    // w = argmax_Y g'w, gap = g'(w - u) >= 0
    let neg: Vec<f64> = g.iter().map(|t| -t).collect();
    let mut w = vec![0.0; u.len()];
    p.y_set().lmo(&neg, &mut w);
    let val = p.value(x, u);
    let allowance = y_step_rounding(p, x, u, &w);
    Interval {
        lower: val,
        upper: val + fw_gap(&g, &w, u).max(0.0) + allowance,
    }
}

/// Iteration cap of the inner minimisation in [`duality_certificate`] (warm-started at
/// `xbar`).
pub const DUALITY_MIN_ITER: usize = 20_000;

/// The best point of a certified minimisation of `L(., y)` over X from `start` (at most
/// `max_iter` iterations).
fn min_x_point<P: InnerProblem + ?Sized>(
    p: &P,
    y: &[f64],
    start: &[f64],
    max_iter: usize,
) -> Vec<f64> {
    let value = |x: &[f64]| -p.value(x, y);
    let grad = |x: &[f64], out: &mut [f64]| {
        p.grad_x(x, y, out);
        out.iter_mut().for_each(|v| *v = -*v);
    };
    let k = p.constants();
    maximize(
        p.x_set(),
        start,
        k.lxx,
        0.0,
        &value,
        &grad,
        INNER_REL_TOL,
        max_iter,
    )
    .point
}

/// An approximate saddle point with the certified interval for f* it gives.
#[derive(Debug, Clone)]
pub struct SaddleApprox {
    /// The x with the best certified upper bound on f* seen.
    pub x: Vec<f64>,
    /// The y with the best certified lower bound on f* seen.
    pub y: Vec<f64>,
    /// `[best lower, best upper]` of the Frank-Wolfe certificates along the run.
    pub bound: Interval,
    pub iterations: usize,
}

/// Extragradient (Korpelevich) on the monotone operator `F(x,y) = (grad_x L, -grad_y L)` of a
/// convex-concave problem, with Euclidean projections and the step `1/(max(L_xx, L_yy) +
/// L_yx)` (`F` is Lipschitz with that constant, Assumption 1 (iv)). Every 10 iterations the
/// extrapolated pair `(x, y)` gives the certificate
/// `L(x,y) - FW_x(x,y) <= min_v L(v,y) <= f* <= f(x) <= L(x,y) + FW_y(x,y)`
/// ([`min_x_bounds_at`], [`max_y_bounds_at`]); it stops when the best of these has relative
/// width <= `rel_tol` or after `max_iter` iterations.
pub fn approximate_saddle<P: InnerProblem + ?Sized>(
    p: &P,
    rel_tol: f64,
    max_iter: usize,
) -> SaddleApprox {
    let k = p.constants();
    let (nx, ny) = (p.x_set().dim(), p.y_set().dim());
    let mut x = p.x_set().default_point();
    let mut y = p.y_set().default_point();
    let (mut gx, mut gy) = (vec![0.0; nx], vec![0.0; ny]);
    let (mut xh, mut yh) = (vec![0.0; nx], vec![0.0; ny]);
    let (mut tx, mut ty) = (vec![0.0; nx], vec![0.0; ny]);
    let mut best = SaddleApprox {
        x: x.clone(),
        y: y.clone(),
        bound: Interval {
            lower: f64::NEG_INFINITY,
            upper: f64::INFINITY,
        },
        iterations: 0,
    };
    let record = |best: &mut SaddleApprox, x: &[f64], y: &[f64]| {
        let lo = min_x_bounds_at(p, y, x).lower;
        let hi = max_y_bounds_at(p, x, y).upper;
        if lo > best.bound.lower {
            best.bound.lower = lo;
            best.y.copy_from_slice(y);
        }
        if hi < best.bound.upper {
            best.bound.upper = hi;
            best.x.copy_from_slice(x);
        }
        best.bound.relative_width() <= rel_tol
    };
    let lip = k.lxx.max(k.lyy) + k.lyx;
    if !(lip > 0.0) || record(&mut best, &x, &y) {
        // L(x,y) = a'x - c'y (no curvature, no coupling): the FW certificate at any pair is
        // exact after one LMO per block
        if !(lip > 0.0) {
            p.grads(&x, &y, &mut gx, &mut gy);
            let neg: Vec<f64> = gy.iter().map(|t| -t).collect();
            p.x_set().lmo(&gx, &mut xh);
            p.y_set().lmo(&neg, &mut yh);
            record(&mut best, &xh, &yh);
        }
        return best;
    }
    let eta = 1.0 / lip;
    for it in 1..=max_iter {
        best.iterations = it;
        // extrapolation: (xh, yh) = P(z - eta F(z))
        operator_step(
            p,
            eta,
            (&x, &y),
            (&x, &y),
            (&mut gx, &mut gy),
            (&mut tx, &mut ty),
        );
        p.x_set().project(&tx, &mut xh);
        p.y_set().project(&ty, &mut yh);
        // update: z = P(z - eta F(zh))
        operator_step(
            p,
            eta,
            (&x, &y),
            (&xh, &yh),
            (&mut gx, &mut gy),
            (&mut tx, &mut ty),
        );
        p.x_set().project(&tx, &mut x);
        p.y_set().project(&ty, &mut y);
        if it % 10 == 0 && record(&mut best, &xh, &yh) {
            break;
        }
        if !(x.iter().chain(&y).all(|v| v.is_finite())) {
            // overflowing data: the certificate stays as wide as it is, valid
            break;
        }
    }
    best
}

/// `(tx, ty) = z - eta F(at)` with `z = (x, y)` and `F = (grad_x L, -grad_y L)` evaluated at
/// `at` (the gradients land in `g`): one extragradient half-step before its projection.
fn operator_step<P: InnerProblem + ?Sized>(
    p: &P,
    eta: f64,
    (x, y): (&[f64], &[f64]),
    (ax, ay): (&[f64], &[f64]),
    (gx, gy): (&mut [f64], &mut [f64]),
    (tx, ty): (&mut [f64], &mut [f64]),
) {
    p.grads(ax, ay, gx, gy);
    for ((t, &xi), &g) in tx.iter_mut().zip(x).zip(gx.iter()) {
        *t = xi - eta * g;
    }
    for ((t, &yi), &g) in ty.iter_mut().zip(y).zip(gy.iter()) {
        *t = yi + eta * g;
    }
}

/// `f* = min_x max_y L(x,y)` for a convex-concave problem (Assumption 3) without strong
/// concavity, where f may be nonsmooth: an approximate saddle point `(xbar, ybar)` from
/// [`approximate_saddle`], then weak duality ([`duality_certificate`], lower end refined by
/// an inner minimisation) intersected with the Frank-Wolfe certificates of the run. Both ends
/// are certified: the upper end bounds `f(xbar)` from above, the lower end bounds
/// `min_v L(v, ybar)` from below, each with the rounding allowance.
pub fn f_star_saddle<P: InnerProblem + ?Sized>(p: &P) -> Option<Interval> {
    if !p.convex_in_x() {
        return None;
    }
    let s = approximate_saddle(p, SADDLE_REL_TOL, SADDLE_MAX_ITER);
    let run = (s.bound.lower.is_finite() && s.bound.upper.is_finite()).then_some(s.bound);
    match (run, duality_certificate(p, &s.x, &s.y, true)) {
        (Some(a), Some(b)) => Some(intersect(&a, &b)),
        (a, b) => a.or(b),
    }
}

/// The rounding allowance of `L(x,y) + grad_x L(x,y)^T (v - x)` (a certificate over X).
fn x_step_rounding<P: InnerProblem + ?Sized>(p: &P, x: &[f64], y: &[f64], v: &[f64]) -> f64 {
    let dir: Vec<f64> = v.iter().zip(x).map(|(a, b)| a - b).collect();
    p.first_order_rounding(x, y, &dir, &vec![0.0; y.len()])
}

/// The rounding allowance of `L(x,y) + grad_y L(x,y)^T (u - y)` (a certificate over Y).
fn y_step_rounding<P: InnerProblem + ?Sized>(p: &P, x: &[f64], y: &[f64], u: &[f64]) -> f64 {
    let dir: Vec<f64> = u.iter().zip(y).map(|(a, b)| a - b).collect();
    p.first_order_rounding(x, y, &vec![0.0; x.len()], &dir)
}

/// Convenience: `g^T (u - y)` for the FW gap.
pub fn fw_gap(g: &[f64], u: &[f64], y: &[f64]) -> f64 {
    g.iter()
        .zip(u)
        .zip(y)
        .map(|((gi, ui), yi)| gi * (ui - yi))
        .sum()
}

#[allow(dead_code)]
fn _dot_used(a: &[f64]) -> f64 {
    dot(a, a)
}
