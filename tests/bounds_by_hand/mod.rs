//! Both sides of the invariants' inequalities evaluated by hand (issue 18, campaign 3).
//!
//! The invariant checks assert `lhs <= rhs` on real runs, where the bounds have slack: a
//! constant or an operator changed in a right-hand side stays invisible there (the misses of
//! campaign 2, docs/mutation.md). Here every check of `src/invariants/{dual,primal,po_lmo}.rs`
//! is called on a synthetic recorded run ([`Fake`]: chosen `H_t`, `e_t`, `dx_t`, ... with
//! distinct, non-unit constants `Lxx = 3`, `Lyx = 5`, `Lyy = 4`, `mu = 0.7`, `alpha = 1.3`,
//! `Dx = 2`, `Dy = 1.5` and schedules with `a, b, C` not 1/2), and both sides are compared with
//! the formula as claims.md Sec. 4 states it (the label is named at each formula), written out
//! again here, to a relative 1e-10. Where the paper prints a slip (claims.md Sec. 7), the
//! corrected form is the gating invariant and the printed form its `-printed` twin: both are
//! evaluated, each in its own form. The inputs need not come from a real run: only the formulas
//! are under test (the inequalities themselves are tested on runs in `invariants::`).

use saddlefw::invariants::context::{PowerSchedule, Snap, StepData, Structure, XStarPt};
use saddlefw::invariants::{find, Check, Eval, RunCtx};
use saddlefw::problems::{Assumptions, Constants, Quadratic};
use saddlefw::sets::BoxSet;
use saddlefw::solvers::StepInfo;

const E: f64 = std::f64::consts::E;
const SQRT2: f64 = std::f64::consts::SQRT_2;
/// Transitions of the synthetic run (the explicit bounds of `lemma:compact-sc-ht` start at 14).
const HORIZON: usize = 16;
/// `Fmax` and the reference point's `f(x*)`.
const FMAX: f64 = 40.0;
const F_STAR: f64 = 0.05;

/// The constants of the LMO lemmas: distinct and non-unit.
fn k_lmo(mu: f64) -> Constants {
    Constants {
        lxx: 3.0,
        lyx: 5.0,
        lyy: 4.0,
        mu,
        alpha: Some(1.3),
        dx: 2.0,
        dy: 1.5,
    }
}

/// Small constants for the PO-primal lemmas, whose bounds need `tau_t L_{f_t} < 1`, `G_1 > 0`,
/// `G_2 > 0` and a positive printed `U_1` denominator at `tau_0 = 1`, also with `beta_t = 0`
/// (`G_1 = 1/4 - 5/2 0.01 - 13/2 0.0004/0.015 > 0.05`).
fn k_po() -> Constants {
    Constants {
        lxx: 0.01,
        lyx: 0.02,
        lyy: 0.02,
        mu: 0.015,
        alpha: Some(1.3),
        dx: 2.0,
        dy: 1.5,
    }
}

/// The schedules: `(a, b, C)` (b = 0 with C = 0, as `fit_power` reports it). `2a - b` on both
/// sides of 1 (the two branches of `E(a,b)`), `a = 1` (the log branches) and `2a - 3b = 1`.
const SCHEDULES: &[(f64, f64, f64)] = &[
    (0.75, 0.25, 2.5),
    (0.4, 0.1, 2.5),
    (1.0, 1.0 / 3.0, 2.5),
    (0.75, 0.0, 0.0),
    (0.4, 0.0, 0.0),
    (1.0, 0.0, 0.0),
];

/// `E(a,b)` of `lemma:ugly-sum` (claims 1.5).
fn e_ab(a: f64, b: f64) -> f64 {
    if 2.0 * a - b < 1.0 {
        1.0 / (1.0 - 2.0 * a + b)
    } else {
        1.0 / (2.0 - 2.0 * a + b)
    }
}

/// A synthetic recorded run: `tau_t = (t+1)^-a`, `beta_t = C (t+1)^-b`, and chosen values for
/// every recorded quantity (varied in t so that both branches of each `min`/`max` occur).
struct Fake {
    k: Constants,
    sched: PowerSchedule,
    structure: Structure,
}

/// `H_t`: values on both sides of `(Lyy + beta_t) Dy^2` (the branches of the min/max).
fn h_of(t: usize) -> f64 {
    [30.0, 0.8, 2.5, 0.3, 12.0, 0.6, 5.0][t % 7] * (1.0 + 0.01 * t as f64)
}

impl Fake {
    fn new(k: Constants, (a, b, c): (f64, f64, f64)) -> Fake {
        Fake {
            k,
            sched: PowerSchedule { a, b, c },
            structure: Structure::LMO_LMO,
        }
    }

    fn snap(&self, t: usize) -> Snap {
        let s = self.sched;
        let tf = t as f64;
        let f_t = 1.7 - 0.09 * tf + 0.013 * tf * tf;
        let l_t = f_t - 0.4 - 0.01 * tf;
        Snap {
            t,
            x: vec![0.2 * (t % 3) as f64 - 0.1],
            y: vec![0.3 - 0.02 * tf],
            beta: s.c * ((t + 1) as f64).powf(-s.b),
            gx: vec![1.1 - 0.1 * tf],
            g: vec![0.7 + 0.05 * tf],
            u: vec![1.0],
            ystar: vec![0.25 + 0.01 * tf * tf],
            f_t,
            l_t,
            h: h_of(t),
            e: 0.3 + 0.11 * ((3 * t) % 5) as f64,
            f: f_t - 0.2 + 0.03 * (t % 2) as f64,
            gy: 0.5 + 0.3 * ((2 * t) % 3) as f64,
            gx_lmo: 0.9 + 0.17 * (t % 4) as f64,
            gx_po: 0.4 + 0.05 * (t % 5) as f64,
            f_t_xstar: vec![0.35 + 0.02 * tf],
            width: 0.001 * (t + 1) as f64,
        }
    }

    fn run(&self) -> RunCtx<'static> {
        let unit = || Box::new(BoxSet::new(vec![-1.0], vec![1.0]).unwrap());
        let p = Quadratic::new(
            vec![1.0],
            vec![1.0],
            vec![1.0],
            vec![0.0],
            vec![0.0],
            unit(),
            unit(),
        )
        .unwrap();
        let problem: &'static Quadratic = Box::leak(Box::new(p));
        let snaps: Vec<Snap> = (0..=HORIZON).map(|t| self.snap(t)).collect();
        let steps = (0..HORIZON)
            .map(|t| {
                let tau = ((t + 1) as f64).powf(-self.sched.a);
                StepData {
                    info: StepInfo {
                        tau,
                        beta: snaps[t].beta,
                        gamma: 0.4,
                    },
                    dx: 0.8 * self.k.dx * tau,
                    db: snaps[t].beta - snaps[t + 1].beta,
                    l_t_next: snaps[t].l_t + 0.25,
                    f_t_next_x: snaps[t].f_t - 0.15,
                    next_y_to_ystar: 0.2 + 0.01 * t as f64,
                }
            })
            .collect();
        RunCtx {
            problem,
            k: self.k,
            asm: Assumptions {
                a1: true,
                strongly_concave: self.k.mu > 0.0,
                a2: true,
                a3: true,
            },
            instance: "synthetic".into(),
            solver: "synthetic".into(),
            structure: self.structure,
            y0: vec![0.0],
            snaps,
            steps,
            sched: Some(self.sched),
            xstars: vec![XStarPt {
                x: vec![0.05],
                argmin: true,
                f: F_STAR,
            }],
            fmax: FMAX,
            sigma: 0.6,
            f_star: Some(F_STAR),
        }
    }
}

/// Every evaluation of the named invariant on the run (Step: every transition, in order).
fn evals(name: &str, r: &RunCtx) -> Vec<Eval> {
    match find(name)
        .unwrap_or_else(|| panic!("{name}: not in the registry"))
        .check
    {
        Check::Step(f) => (0..r.horizon()).flat_map(|t| f(r, t)).collect(),
        Check::Run(f) => f(r),
        Check::Point(_) | Check::Real(_) => panic!("{name}: not a run invariant"),
    }
}

fn same(got: f64, want: f64) -> bool {
    if !want.is_finite() {
        return !got.is_finite();
    }
    (got - want).abs() <= 1e-10 * want.abs().max(1.0)
}

/// The tolerance scale of an evaluation beyond `|lhs| + |rhs|` (src/invariants/mod.rs
/// "Tolerance": the value scale `Fmax` plus the certified-interval widths for inequalities
/// between function values, a natural magnitude otherwise), by invariant, at the evaluation's
/// index `t` (Step: the transition; Run: the horizon; per-iterate facts: the iterate).
fn extra(name: &str, r: &RunCtx, t: usize) -> f64 {
    let (k, w) = (r.k, |i: usize| r.snaps[i].width);
    let vs = || FMAX + w(t) + w(t + 1);
    let tau = || r.steps[t].info.tau;
    let tf = t as f64;
    match name {
        "dual-step-unit" | "primal-step-unit" => 1.0,
        "primal-step-positive" | "beta-nonincreasing" | "smoothing-positive" => 0.0,
        "dual-step-po" => 1.0 / (k.lyy + r.snaps[t].beta),
        "almost-telescope-drift" | "strongly-concave-contraction" => k.dy,
        "repeat-saddle" | "repeat-saddle-po" => 2.0 * FMAX,
        // two evaluations per iterate (X and Y, each relative to its own diameter): not by index
        "iterates-feasible" => f64::NAN,
        "strongly-concave-iterate-1" | "strongly-concave-iterate-1-printed" => k.dy,
        "strongly-concave-iterate-2" | "strongly-concave-iterate-2-printed" => FMAX + w(t + 1),
        "almost-recursion-fw-gap" | "phi-sandwich" | "proj-fw-q-bounds" => FMAX + w(t),
        "non-neg" => 2.0 * FMAX + w(t),
        "immediate-result" | "telescoping-1" => FMAX * tf,
        "common-upper-bounds-2a" | "common-upper-bounds-2b" | "general-convergence" => {
            FMAX * (tf + 1.0)
        }
        "telescoping-2" | "massive-sum-2" | "massive-sum-2-printed" => k.dy * k.dy * tf * tf,
        "fw-proj-convex-concave"
        | "general-convex-convergence"
        | "general-convex-convergence-recursion"
        | "proj-fw-convex-bound" => 2.0 * FMAX,
        "fw-proj-dual-bound" | "fw-proj-dual-bound-printed" | "proj-fw-r-apriori" => FMAX,
        n if n.starts_with("proj-fw-general-bound-2")
            || n.starts_with("proj-fw-sc-general-bound-2") =>
        {
            FMAX
        }
        "proj-fw-primal-sum" | "proj-fw-sc-primal-sum" => FMAX / tau(),
        "proj-fw-general-bound-1" | "proj-fw-sc-general-bound-1" => (FMAX / tau()).sqrt(),
        n if n.starts_with("compact-ht-explicit") || n.starts_with("compact-sc-ht-explicit") => {
            FMAX + w(t)
        }
        "common-convex-concave-a" | "common-convex-concave-b" => 2.0 * vs(),
        "envelope-smooth" | "envelope-smooth-printed" => 2.0 * vs(),
        "projection-inequality" => r.snaps[t].gx[0].abs() * k.dx + k.dx * k.dx / tau(),
        "gx-po-le-step-ratio" => r.snaps[t].gx[0].abs() + k.dx / tau(),
        "proj-fw-convex-bound-step" => 2.0 * vs() + k.dx * k.dx / tau(),
        // the per-step inequalities between function values: Fmax and both iterates' widths
        _ => vs(),
    }
}

/// The invariant's `(lhs, rhs)` pairs equal `want`, in order, and each tolerance scale is
/// `|lhs| + |rhs| + extra` ([`extra`]).
fn assert_sides(name: &str, case: &str, r: &RunCtx, want: &[(f64, f64)]) {
    let got = evals(name, r);
    assert_eq!(
        got.len(),
        want.len(),
        "{name} ({case}): number of evaluations"
    );
    for (i, (g, w)) in got.iter().zip(want).enumerate() {
        assert!(
            same(g.lhs, w.0) && same(g.rhs, w.1),
            "{name} ({case}), evaluation {i}: got lhs {} rhs {}, by hand lhs {} rhs {}",
            g.lhs,
            g.rhs,
            w.0,
            w.1
        );
        let t =
            g.t.unwrap_or_else(|| panic!("{name}: evaluation {i} has no index"));
        let scale = w.0.abs() + w.1.abs() + extra(name, r, t);
        assert!(
            !scale.is_finite() || same(g.scale, scale),
            "{name} ({case}), evaluation {i} (t = {t}): scale {}, by hand {scale}",
            g.scale
        );
    }
}

/// The per-transition quantities of the lemmas, read from the run (the inputs).
struct T<'r> {
    r: &'r RunCtx<'r>,
}

impl T<'_> {
    fn b(&self, t: usize) -> f64 {
        self.r.snaps[t].beta
    }
    fn h(&self, t: usize) -> f64 {
        self.r.snaps[t].h
    }
    fn e(&self, t: usize) -> f64 {
        self.r.snaps[t].e
    }
    fn tau(&self, t: usize) -> f64 {
        self.r.steps[t].info.tau
    }
    fn dx(&self, t: usize) -> f64 {
        self.r.steps[t].dx
    }
    fn db(&self, t: usize) -> f64 {
        self.r.steps[t].db
    }
    /// `L_t(x_t, y*_t(x_t)) - L_t(x_t, y_{t+1})`.
    fn dec(&self, t: usize) -> f64 {
        self.r.snaps[t].f_t - self.r.steps[t].l_t_next
    }
    /// `Phi_t = f_t(x_t) + Dy^2 beta_t/2`.
    fn phi(&self, t: usize) -> f64 {
        self.r.snaps[t].f_t + self.r.k.dy.powi(2) * self.b(t) / 2.0
    }
    /// `grad_x L(x_t, y_t)^T (x_{t+1} - x_t)` (one dimension).
    fn lin(&self, t: usize) -> f64 {
        self.r.snaps[t].gx[0] * (self.r.snaps[t + 1].x[0] - self.r.snaps[t].x[0])
    }
    /// `L_{f_t} = Lxx + Lyx^2/(beta_t + mu)`.
    fn lf(&self, t: usize) -> f64 {
        let k = self.r.k;
        k.lxx + k.lyx * k.lyx / (self.b(t) + k.mu)
    }
    /// Per-transition pairs.
    fn steps(&self, f: impl Fn(usize) -> Vec<(f64, f64)>) -> Vec<(f64, f64)> {
        (0..self.r.horizon()).flat_map(f).collect()
    }
}

/// Runs `check(name, r, want)` for every schedule and the constants `k(mu)` with mu = 0 when
/// C > 0 and mu = 0.7 when C = 0 (the branches of the explicit bounds), plus mu = 0.7 with C > 0
/// (both positive, so that `beta + mu` and `beta - mu` differ).
fn for_each_lmo_case(mut f: impl FnMut(&str, &RunCtx)) {
    for &s in SCHEDULES {
        let mus: &[f64] = if s.2 > 0.0 { &[0.0, 0.7] } else { &[0.7] };
        for &mu in mus {
            let fake = Fake::new(k_lmo(mu), s);
            let r = fake.run();
            f(&format!("a {}, b {}, C {}, mu {mu}", s.0, s.1, s.2), &r);
        }
    }
}

fn both(v: f64, w: f64) -> Vec<(f64, f64)> {
    vec![(v, w)]
}

mod dual;
mod envelopes;
mod hyps;
mod po_lmo;
mod primal;
