//! Evaluation contexts of the invariants: a point context (random points, or an iterate of a
//! run) and a recorded run (every iterate with its measures, every transition with its
//! StepInfo), plus the certified value bound used for `Fmax` and the schedule fit used by the
//! hypotheses `eq:fw-fw-stepsize` / `eq:fw-proj-stepsize`.
//!
//! ```
//! use saddlefw::invariants::context::fit_power;
//! // tau_t = (t+1)^(-1/2), beta_t = 2 (t+1)^(-1/3): recognised, exponents snapped to rationals
//! let taus: Vec<f64> = (0..8).map(|t| ((t + 1) as f64).powf(-0.5)).collect();
//! let betas: Vec<f64> = (0..9).map(|t| 2.0 * ((t + 1) as f64).powf(-1.0 / 3.0)).collect();
//! let s = fit_power(&taus, &betas).unwrap();
//! assert_eq!((s.a, s.b, s.c), (0.5, 1.0 / 3.0, 2.0));
//! // one value off the power law: not fitted, so the hypothesis is not claimed
//! let mut bent = taus.clone();
//! bent[5] *= 1.01;
//! assert!(fit_power(&bent, &betas).is_none());
//! ```

use crate::linalg::{dist, dot};
use crate::measures;
use crate::paper::Oracle;
use crate::problems::{Assumptions, Constants, Interval, SaddleProblem};
use crate::solvers::{Solver, StepInfo};
use serde::Serialize;

/// The measures the invariants read, as replaceable functions: the negative control "a measure
/// with the wrong sign" swaps one of them ([`super::controls::WRONG_SIGN_GY`]).
#[derive(Clone, Copy)]
pub struct MeasureSet {
    pub name: &'static str,
    /// `G_Y(x,y)` (`gap:y`).
    pub gy: fn(&dyn SaddleProblem, &[f64], &[f64]) -> Interval,
    /// `G_Y^LMO(x,y)` (L510).
    pub gy_lmo: fn(&dyn SaddleProblem, &[f64], &[f64]) -> f64,
    /// `G_X^LMO(x,y)` (`gap:fw`).
    pub gx_lmo: fn(&dyn SaddleProblem, &[f64], &[f64]) -> f64,
    /// `G_X^PO(x,y)` with step sigma (`gap:proj`).
    pub gx_po: fn(&dyn SaddleProblem, &[f64], &[f64], f64) -> f64,
    /// `H = L_beta(x, y*_beta(x)) - L_beta(x, y)` with reference y0 (`eq:H_t`).
    pub h: HFn,
}

/// `(problem, x, y, beta, y0) -> H`.
pub(crate) type HFn = fn(&dyn SaddleProblem, &[f64], &[f64], f64, &[f64]) -> Interval;

fn m_gy(p: &dyn SaddleProblem, x: &[f64], y: &[f64]) -> Interval {
    measures::gy(p, x, y)
}
fn m_gy_lmo(p: &dyn SaddleProblem, x: &[f64], y: &[f64]) -> f64 {
    measures::gy_lmo(p, x, y)
}
fn m_gx_lmo(p: &dyn SaddleProblem, x: &[f64], y: &[f64]) -> f64 {
    measures::gx_lmo(p, x, y)
}
fn m_gx_po(p: &dyn SaddleProblem, x: &[f64], y: &[f64], s: f64) -> f64 {
    measures::gx_po(p, x, y, s)
}
fn m_h(p: &dyn SaddleProblem, x: &[f64], y: &[f64], b: f64, y0: &[f64]) -> Interval {
    measures::h(p, x, y, b, y0)
}

/// The crate's measures (`crate::measures`).
pub const EXACT_MEASURES: MeasureSet = MeasureSet {
    name: "exact",
    gy: m_gy,
    gy_lmo: m_gy_lmo,
    gx_lmo: m_gx_lmo,
    gx_po: m_gx_po,
    h: m_h,
};

/// A certified upper bound on `max_{X x Y} |L|`, hence on `Fmax = max_X |f|`.
///
/// For any centre `(xc, yc)` in `X x Y` and `z = (x, y)`, integrating the gradient along the
/// segment and using Assumption 1 (iv) blockwise,
/// `|L(z) - L(zc) - grad L(zc)^T (z - zc)| <= (Lxx ||x-xc||^2 + 2 Lyx ||x-xc|| ||y-yc|| + Lyy ||y-yc||^2)/2`,
/// and `max_X |gx^T (x - xc)|` is exact with two LMO calls. Hence
/// `|L| <= |L(zc)| + max_X |gx^T(x - xc)| + max_Y |gy^T(y - yc)| + (Lxx Dx^2 + 2 Lyx Dx Dy + Lyy Dy^2)/2`.
pub fn value_bound(p: &dyn SaddleProblem, xc: &[f64], yc: &[f64]) -> f64 {
    let k = p.constants();
    let mut gx = vec![0.0; xc.len()];
    let mut gy = vec![0.0; yc.len()];
    p.grads(xc, yc, &mut gx, &mut gy);
    let lin = |set: &dyn crate::sets::ConvexSet, g: &[f64], c: &[f64]| -> f64 {
        let mut lo = vec![0.0; c.len()];
        set.lmo(g, &mut lo);
        let neg: Vec<f64> = g.iter().map(|v| -v).collect();
        let mut hi = vec![0.0; c.len()];
        set.lmo(&neg, &mut hi);
        let gc = dot(g, c);
        (gc - dot(g, &lo)).max(dot(g, &hi) - gc).max(0.0)
    };
    p.value(xc, yc).abs()
        + lin(p.x_set(), &gx, xc)
        + lin(p.y_set(), &gy, yc)
        + 0.5 * (k.lxx * k.dx * k.dx + 2.0 * k.lyx * k.dx * k.dy + k.lyy * k.dy * k.dy)
}

/// `L_beta(x, y) = L(x,y) - beta/2 ||y - y0||^2` (`eq:L:mu`).
pub fn l_beta(p: &dyn SaddleProblem, x: &[f64], y: &[f64], beta: f64, y0: &[f64]) -> f64 {
    let d = dist(y, y0);
    p.value(x, y) - 0.5 * beta * d * d
}

/// `grad_x L(x, y)`.
pub fn grad_x(p: &dyn SaddleProblem, x: &[f64], y: &[f64]) -> Vec<f64> {
    let mut g = vec![0.0; x.len()];
    p.grad_x(x, y, &mut g);
    g
}

/// `grad_y L_beta(x, y) = grad_y L(x,y) - beta (y - y0)`.
pub(crate) fn grad_y_beta(
    p: &dyn SaddleProblem,
    x: &[f64],
    y: &[f64],
    beta: f64,
    y0: &[f64],
) -> Vec<f64> {
    let mut g = vec![0.0; y.len()];
    p.grad_y(x, y, &mut g);
    for i in 0..g.len() {
        g[i] -= beta * (y[i] - y0[i]);
    }
    g
}

/// A point context: `(x, y)`, a second primal point `x2`, smoothing parameters
/// `beta >= beta2 >= 0` with `max{beta, mu} > 0`, PO steps `sigma > sigma2 > 0`.
pub struct PointCtx<'a> {
    pub problem: &'a dyn SaddleProblem,
    pub k: Constants,
    pub asm: Assumptions,
    pub x: Vec<f64>,
    pub y: Vec<f64>,
    pub x2: Vec<f64>,
    pub y0: Vec<f64>,
    pub beta: f64,
    pub beta2: f64,
    pub sigma: f64,
    pub sigma2: f64,
    /// Certified bound on |L| (value scale of the tolerance, and `Fmax`).
    pub vs: f64,
    /// `f* = min_X f` when known exactly (known saddle point).
    pub f_star: Option<Interval>,
    pub measures: MeasureSet,
    /// Iteration when the point is an iterate of a run.
    pub t: Option<usize>,
}

impl PointCtx<'_> {
    /// `y*_beta(x)` and `f_beta(x)` for this context's reference point.
    pub fn ystar(&self, x: &[f64], beta: f64) -> crate::problems::InnerMax {
        self.problem.y_star(x, beta, &self.y0)
    }
}

/// The sequence structure a solver claims (checked by the invariants, never trusted): the
/// oracle of each block's update (`def:cg-seq`, `def:pg-seq`: LMO, primal `x + tau (v - x)`,
/// dual the closed-loop gamma of `eq:dual:LMO`; PO, primal `PO(x - tau grad)`, dual
/// `PO(y + grad/(Lyy + beta))`), `None` for an update that is none of the paper's sequences
/// (baselines).
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub struct Structure {
    pub primal: Option<Oracle>,
    pub dual: Option<Oracle>,
}

impl Structure {
    pub const LMO_LMO: Structure = Structure {
        primal: Some(Oracle::Lmo),
        dual: Some(Oracle::Lmo),
    };
    pub const LMO_PO: Structure = Structure {
        primal: Some(Oracle::Lmo),
        dual: Some(Oracle::Po),
    };
    pub const PO_LMO: Structure = Structure {
        primal: Some(Oracle::Po),
        dual: Some(Oracle::Lmo),
    };
    /// The paper's algorithm with this structure (Algorithms 1-3), if any.
    pub(crate) fn paper_algorithm(&self) -> Option<crate::paper::Algorithm> {
        use crate::paper::Algorithm;
        Algorithm::ALL.into_iter().find(|a| {
            let (p, d) = a.oracles();
            (Some(p), Some(d)) == (self.primal, self.dual)
        })
    }
    /// Whether the structure is the one a hypothesis asks for.
    pub fn satisfies(&self, seq: Seq) -> bool {
        match seq {
            Seq::Any => true,
            Seq::PrimalLmo => self.primal == Some(Oracle::Lmo),
            Seq::PrimalPo => self.primal == Some(Oracle::Po),
            Seq::DualLmo => self.dual == Some(Oracle::Lmo),
            Seq::DualPo => self.dual == Some(Oracle::Po),
            Seq::Alg1 => *self == Self::LMO_LMO,
            Seq::Alg2 => *self == Self::LMO_PO,
            Seq::Alg3 => *self == Self::PO_LMO,
        }
    }
}

/// A reference point `x*` of the convex-concave lemmas.
#[derive(Debug, Clone)]
pub struct XStarPt {
    pub x: Vec<f64>,
    /// Whether it is a minimiser of f (known saddle point).
    pub argmin: bool,
    /// `f(x*)`.
    pub f: f64,
}

/// Everything about iterate t of a run that the invariants read.
#[derive(Debug, Clone)]
pub struct Snap {
    pub t: usize,
    pub x: Vec<f64>,
    pub y: Vec<f64>,
    /// `beta_t` (the solver's `beta_at(t)`).
    pub beta: f64,
    /// `grad_x L(x_t, y_t)`.
    pub gx: Vec<f64>,
    /// `g_t = grad_y L_t(x_t, y_t)`.
    pub g: Vec<f64>,
    /// `u_t = LMO_Y(-g_t)`.
    pub u: Vec<f64>,
    /// `y*_t(x_t)`.
    pub ystar: Vec<f64>,
    /// `f_t(x_t)`.
    pub f_t: f64,
    /// `L_t(x_t, y_t)`.
    pub l_t: f64,
    /// `H_t` (from the measure set).
    pub h: f64,
    /// `e_t = ||y_t - y*_t(x_t)||`.
    pub e: f64,
    /// `f(x_t)`.
    pub f: f64,
    /// `G_Y(x_t, y_t)`.
    pub gy: f64,
    /// `G_X^LMO(x_t, y_t)`.
    pub gx_lmo: f64,
    /// `G_X^PO(x_t, y_t)` with `sigma` = the run's sigma (tau_0 for PO primal steps).
    pub gx_po: f64,
    /// `f_t(x*_j)` for every reference point of the run.
    pub f_t_xstar: Vec<f64>,
    /// Largest certified-interval width used.
    pub width: f64,
}

/// One transition `t -> t+1`.
#[derive(Debug, Clone)]
pub struct StepData {
    pub info: StepInfo,
    /// `||x_{t+1} - x_t||`.
    pub dx: f64,
    /// `beta_t - beta_{t+1}`.
    pub db: f64,
    /// `L_t(x_t, y_{t+1})`.
    pub l_t_next: f64,
    /// `f_t(x_{t+1})`.
    pub f_t_next_x: f64,
    /// `||y_{t+1} - y*_t(x_t)||`.
    pub next_y_to_ystar: f64,
}

/// Schedule `tau_t = (t+1)^-a`, `beta_t = C (t+1)^-b` inferred from a run (a, b snapped to
/// rationals with denominator <= 12 when within 1e-9, so branch conditions such as
/// `2a - 3b = 1` are decided exactly). With `C = 0`, `b` is irrelevant and reported as 0.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize)]
pub struct PowerSchedule {
    pub a: f64,
    pub b: f64,
    pub c: f64,
}

fn snap_rational(v: f64) -> f64 {
    for q in 1..=12u32 {
        let p = (v * q as f64).round();
        if (p / q as f64 - v).abs() < 1e-9 {
            return p / q as f64;
        }
    }
    v
}

/// Fits the power schedule to recorded `tau_t` (t < T) and `beta_t` (t <= T); `None` when the
/// run does not follow it (relative tolerance 1e-10).
pub fn fit_power(taus: &[f64], betas: &[f64]) -> Option<PowerSchedule> {
    if taus.len() < 2 || betas.len() < 2 {
        return None;
    }
    let close = |u: f64, v: f64| (u - v).abs() <= 1e-10 * u.abs().max(v.abs()).max(1e-300);
    if !close(taus[0], 1.0) {
        return None;
    }
    let a = snap_rational(-taus[1].log2());
    if !(a > 0.0 && a <= 1.0) {
        return None;
    }
    if !taus
        .iter()
        .enumerate()
        .all(|(t, &v)| close(v, ((t + 1) as f64).powf(-a)))
    {
        return None;
    }
    let c = betas[0];
    if !(c >= 0.0 && c.is_finite()) {
        return None;
    }
    if c == 0.0 {
        return if betas.iter().all(|&b| b == 0.0) {
            Some(PowerSchedule { a, b: 0.0, c })
        } else {
            None
        };
    }
    let b = snap_rational(-(betas[1] / c).log2());
    if !(b > 0.0 && b <= 1.0) {
        return None;
    }
    if !betas
        .iter()
        .enumerate()
        .all(|(t, &v)| close(v, c * ((t + 1) as f64).powf(-b)))
    {
        return None;
    }
    Some(PowerSchedule { a, b, c })
}

/// A recorded run: iterates `t = 0..=T`, transitions `t = 0..T`, and the instance data the
/// invariants need.
pub struct RunCtx<'a> {
    pub problem: &'a dyn SaddleProblem,
    pub k: Constants,
    pub asm: Assumptions,
    /// Instance description (generator spec or witness name).
    pub instance: String,
    /// Solver description (name and schedule).
    pub solver: String,
    pub structure: Structure,
    pub y0: Vec<f64>,
    pub snaps: Vec<Snap>,
    pub steps: Vec<StepData>,
    pub sched: Option<PowerSchedule>,
    pub xstars: Vec<XStarPt>,
    /// Certified bound on |L| over X x Y (used as Fmax and as the value scale).
    pub fmax: f64,
    /// sigma of G_X^PO (tau_0 for primal PO runs, 1 otherwise).
    pub sigma: f64,
    /// `f* = min f` when known.
    pub f_star: Option<f64>,
}

/// What to record.
pub struct RunSpec<'a> {
    pub instance: String,
    pub solver_desc: String,
    pub structure: Structure,
    pub x0: &'a [f64],
    pub y0: &'a [f64],
    pub horizon: usize,
    pub measures: MeasureSet,
    /// Extra reference points `x*` (random points of X); the known saddle point is added.
    pub extra_xstars: Vec<Vec<f64>>,
}

impl<'a> RunCtx<'a> {
    /// Runs `solver` for `horizon` steps from `(x0, y0)` and records every iterate, through
    /// the crate's run loop ([`crate::harness::run_observed`] with no checkpoint measures; it
    /// stops before a divergent iterate).
    pub fn record(
        problem: &'a dyn SaddleProblem,
        solver: &mut dyn Solver,
        spec: RunSpec<'_>,
    ) -> RunCtx<'a> {
        let k = problem.constants();
        // the start as the solver sees it (init is deterministic; the run loop inits again)
        solver.init(problem, spec.x0, spec.y0);
        let y0 = spec.y0.to_vec();
        let mut xs = vec![solver.x().to_vec()];
        let mut ys = vec![solver.y().to_vec()];
        let mut infos = Vec::with_capacity(spec.horizon);
        // the crate's one run loop, without its measures: it stops before a divergent iterate
        let config = crate::harness::RunConfig {
            checkpoints: crate::harness::CheckpointRule::None,
            ..crate::harness::RunConfig::new(spec.horizon)
        };
        crate::harness::run_observed(problem, spec.x0, spec.y0, solver, &config, &mut |v| {
            infos.push(v.info);
            xs.push(v.x.to_vec());
            ys.push(v.y.to_vec());
        });
        let betas: Vec<f64> = (0..xs.len()).map(|t| solver.beta_at(t)).collect();
        // the run's tau_0 (a non-positive one falls back to sigma = 1)
        let tau0 = infos
            .first()
            .map(|i| i.tau)
            .filter(|s| *s > 0.0)
            .unwrap_or(crate::paper::BASELINE_SIGMA);
        let sigma = spec
            .structure
            .paper_algorithm()
            .map_or(crate::paper::BASELINE_SIGMA, |a| a.default_sigma(tau0));
        let mut xstars = Vec::new();
        if let Some((xs_, _)) = problem.known_saddle() {
            let f = problem.f(&xs_).mid();
            xstars.push(XStarPt {
                x: xs_,
                argmin: true,
                f,
            });
        }
        if problem.convex_in_x() {
            for x in spec.extra_xstars {
                let f = problem.f(&x).mid();
                xstars.push(XStarPt {
                    x,
                    argmin: false,
                    f,
                });
            }
        }
        let f_star = problem
            .known_saddle()
            .and_then(|_| problem.f_star())
            .map(|i| i.mid());
        let snaps: Vec<Snap> = (0..xs.len())
            .map(|t| {
                snapshot(
                    problem,
                    t,
                    &xs[t],
                    &ys[t],
                    betas[t],
                    &y0,
                    sigma,
                    &spec.measures,
                    &xstars,
                )
            })
            .collect();
        let steps: Vec<StepData> = (0..xs.len() - 1)
            .map(|t| {
                let (s, n) = (&snaps[t], &snaps[t + 1]);
                let l_t_next = l_beta(problem, &s.x, &n.y, s.beta, &y0);
                let f_t_next_x = problem.y_star(&n.x, s.beta, &y0).value.mid();
                StepData {
                    info: infos[t],
                    dx: dist(&n.x, &s.x),
                    db: s.beta - n.beta,
                    l_t_next,
                    f_t_next_x,
                    next_y_to_ystar: dist(&n.y, &s.ystar),
                }
            })
            .collect();
        let taus: Vec<f64> = infos.iter().map(|i| i.tau).collect();
        let sched = fit_power(&taus, &betas);
        let xc = problem.x_set().default_point();
        let yc = problem.y_set().default_point();
        let fmax = value_bound(problem, &xc, &yc);
        RunCtx {
            problem,
            k,
            asm: problem.assumptions(),
            instance: spec.instance,
            solver: spec.solver_desc,
            structure: spec.structure,
            y0,
            snaps,
            steps,
            sched,
            xstars,
            fmax,
            sigma,
            f_star,
        }
    }

    /// Number of recorded transitions T (iterates 0..=T).
    pub fn horizon(&self) -> usize {
        self.steps.len()
    }

    /// The PointCtx of iterate t (x2 = x_{t+1} or x_0, beta = beta_t, beta2 = beta_{t+1}
    /// clamped to `[0, beta_t]`, sigma = the run's sigma).
    pub fn point(&self, t: usize, measures: MeasureSet) -> PointCtx<'a> {
        let s = &self.snaps[t];
        let nxt = self.snaps.get(t + 1).unwrap_or(&self.snaps[0]);
        PointCtx {
            problem: self.problem,
            k: self.k,
            asm: self.asm,
            x: s.x.clone(),
            y: s.y.clone(),
            x2: nxt.x.clone(),
            y0: self.y0.clone(),
            beta: s.beta,
            beta2: nxt.beta.clamp(0.0, s.beta.max(0.0)),
            sigma: self.sigma,
            sigma2: 0.5 * self.sigma,
            vs: self.fmax,
            f_star: self.f_star.map(Interval::exact),
            measures,
            t: Some(t),
        }
    }

    /// `Phi_t = f_t(x_t) + Dy^2 beta_t / 2`.
    pub fn phi(&self, t: usize) -> f64 {
        let s = &self.snaps[t];
        s.f_t + self.k.dy * self.k.dy * s.beta / 2.0
    }

    /// `max{beta_t, mu} > 0` for every recorded t.
    pub fn smoothing(&self) -> bool {
        self.snaps.iter().all(|s| s.beta.max(self.k.mu) > 0.0)
    }
    /// `beta_{t+1} <= beta_t` for every recorded t.
    pub fn beta_nonincreasing(&self) -> bool {
        self.snaps.windows(2).all(|w| w[1].beta <= w[0].beta)
    }
    /// `tau_{t+1} <= tau_t` for every recorded t.
    pub(crate) fn tau_nonincreasing(&self) -> bool {
        self.steps
            .windows(2)
            .all(|w| w[1].info.tau <= w[0].info.tau)
    }
}

#[allow(clippy::too_many_arguments)]
fn snapshot(
    p: &dyn SaddleProblem,
    t: usize,
    x: &[f64],
    y: &[f64],
    beta: f64,
    y0: &[f64],
    sigma: f64,
    m: &MeasureSet,
    xstars: &[XStarPt],
) -> Snap {
    let gx = grad_x(p, x, y);
    let g = grad_y_beta(p, x, y, beta, y0);
    let neg: Vec<f64> = g.iter().map(|v| -v).collect();
    let mut u = vec![0.0; y.len()];
    p.y_set().lmo(&neg, &mut u);
    let inner = p.y_star(x, beta, y0);
    let h = (m.h)(p, x, y, beta, y0);
    let gy = (m.gy)(p, x, y);
    let f = p.f(x);
    let f_t_xstar = xstars
        .iter()
        .map(|xs| p.y_star(&xs.x, beta, y0).value.mid())
        .collect();
    let width = inner
        .value
        .width()
        .max(h.width())
        .max(gy.width())
        .max(f.width());
    Snap {
        t,
        x: x.to_vec(),
        y: y.to_vec(),
        beta,
        e: dist(y, &inner.y),
        l_t: l_beta(p, x, y, beta, y0),
        f_t: inner.value.mid(),
        ystar: inner.y,
        h: h.mid(),
        f: f.mid(),
        gy: gy.mid(),
        gx_lmo: (m.gx_lmo)(p, x, y),
        gx_po: (m.gx_po)(p, x, y, sigma),
        gx,
        g,
        u,
        f_t_xstar,
        width,
    }
}

impl Hyp {
    /// Whether the hypotheses hold at a point context (assumptions and x*; sequence
    /// hypotheses other than `Any` never hold at a point).
    pub fn holds_point(&self, c: &PointCtx) -> bool {
        self.seq == Seq::Any
            && (!self.a2 || c.asm.a2)
            && (!self.a3 || c.asm.a3)
            && (!self.mu_pos || c.k.mu > 0.0)
            && (!self.smoothing || c.beta.max(c.k.mu) > 0.0)
            && !self.power_schedule
            && !self.beta_zero
            && !self.beta_nonincreasing
            && !self.tau_nonincreasing
            && match self.xstar {
                XStar::None | XStar::Any => true,
                XStar::Argmin => c.f_star.is_some(),
            }
            && self.extra.is_none()
    }

    /// Whether the hypotheses hold on a recorded run.
    pub fn holds_run(&self, r: &RunCtx) -> bool {
        r.structure.satisfies(self.seq)
            && r.horizon() >= 1
            && (!self.a2 || r.asm.a2)
            && (!self.a3 || r.asm.a3)
            && (!self.mu_pos || r.k.mu > 0.0)
            && (!self.smoothing || r.smoothing())
            && (!self.beta_nonincreasing || r.beta_nonincreasing())
            && (!self.tau_nonincreasing || r.tau_nonincreasing())
            && (!self.power_schedule || r.sched.is_some())
            && (!self.beta_zero || r.snaps.iter().all(|s| s.beta == 0.0))
            && match self.xstar {
                XStar::None => true,
                XStar::Any => !r.xstars.is_empty(),
                XStar::Argmin => r.xstars.iter().any(|x| x.argmin),
            }
            && self.extra.map_or(true, |f| f(r))
    }
}

/// Which iterate sequences an invariant is about (`def:cg-seq`, `def:pg-seq`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum Seq {
    /// Any point / any sequence in `X x Y`.
    Any,
    /// `{x_t}` is a primal LMO sequence (Alg 1, Alg 2), any `{y_t}`.
    PrimalLmo,
    /// `{x_t}` is a primal PO sequence (Alg 3), any `{y_t}`.
    PrimalPo,
    /// `{y_t}` is a dual LMO sequence (Alg 1, Alg 3), any `{x_t}`.
    DualLmo,
    /// `{y_t}` is a dual PO sequence (Alg 2), any `{x_t}`.
    DualPo,
    /// Algorithm 1, LMO-LMO (`alg:fw-fw`).
    Alg1,
    /// Algorithm 2, LMO-PO (`alg:fw-proj`).
    Alg2,
    /// Algorithm 3, PO-LMO (`alg:proj-fw`).
    Alg3,
}

/// Which reference point `x*` an invariant needs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum XStar {
    /// No `x*`.
    None,
    /// Any `x*` in X (the proofs work for every point; checked at the known minimiser when
    /// there is one and at random points of X).
    Any,
    /// A minimiser of f over X (only instances with a known saddle point: `saddle` family).
    Argmin,
}

/// Hypotheses of an invariant, checked on the instance and the run before it is evaluated.
#[derive(Debug, Clone, Copy, Serialize)]
pub struct Hyp {
    /// Human-readable summary (shown by `--list`).
    pub text: &'static str,
    pub seq: Seq,
    /// Assumption 2 (Y strongly convex, modulus alpha).
    pub a2: bool,
    /// Assumption 3 (convex-concave).
    pub a3: bool,
    /// mu > 0.
    pub mu_pos: bool,
    /// `max{beta_t, mu} > 0` for every t of the run (Point: for the sampled beta).
    pub smoothing: bool,
    /// `beta_{t+1} <= beta_t` along the run.
    pub beta_nonincreasing: bool,
    /// `tau_{t+1} <= tau_t` along the run.
    pub tau_nonincreasing: bool,
    /// The schedule is exactly `tau_t = (t+1)^-a`, `beta_t = C (t+1)^-b`
    /// (`eq:fw-fw-stepsize` / `eq:fw-proj-stepsize`), with a, b, C inferred from the run.
    pub power_schedule: bool,
    /// `beta_t = 0` for every t (C = 0).
    pub beta_zero: bool,
    pub xstar: XStar,
    /// Further run-level conditions (e.g. `2a > b`, `G_1 > 0`), with their text in `text`.
    #[serde(skip)]
    pub extra: Option<fn(&RunCtx) -> bool>,
}

/// The empty hypothesis set (used with struct update syntax in the registry).
pub(crate) const NO_HYP: Hyp = Hyp {
    text: "A1",
    seq: Seq::Any,
    a2: false,
    a3: false,
    mu_pos: false,
    smoothing: false,
    beta_nonincreasing: false,
    tau_nonincreasing: false,
    power_schedule: false,
    beta_zero: false,
    xstar: XStar::None,
    extra: None,
};
