//! Step and run invariants about the primal sequence and the potential
//! `Phi_t = f_t(x_t) + Dy^2 beta_t/2`: feasibility and step sizes, `lemma:general-connect`,
//! `lemma:adaptive-connect`, `lemma:common-upper-bounds`, `lemma:common-convex-concave`
//! (with `eq:envelope-smooth`, `eq:non-neg`), `lemma:general-convergence`,
//! `lemma:general-convex-convergence`, `lemma:proj-primal`, `lemma:proj-fw-convex-bound`,
//! `lemma:repeat-saddle` (claims.md Sec. 4.1, 4.3, 4.4, 4.6, 4.7).

// Accumulations index several per-t sequences with the same t.
#![allow(clippy::needless_range_loop)]

use super::context::{Hyp, RunCtx, Seq, Snap, StepData, Structure, XStar, NO_HYP};
use super::invariant::Invariant;
use super::model::{Eval, Kind};
use crate::linalg::{dist, dot, norm};

/// The quantities of transition t that almost every step check reads.
pub(super) struct Tr<'r> {
    pub s: &'r Snap,
    pub n: &'r Snap,
    pub d: &'r StepData,
    pub lxx: f64,
    pub lyx: f64,
    pub lyy: f64,
    pub mu: f64,
    pub dxd: f64,
    pub dyd: f64,
    /// beta_t, beta_{t+1}.
    pub b: f64,
    pub b1: f64,
    pub tau: f64,
    /// Value scale (certified bound on |L|).
    pub vs: f64,
}

impl<'r> Tr<'r> {
    pub fn new(r: &'r RunCtx, t: usize) -> Tr<'r> {
        let (s, n, d) = (&r.snaps[t], &r.snaps[t + 1], &r.steps[t]);
        Tr {
            s,
            n,
            d,
            lxx: r.k.lxx,
            lyx: r.k.lyx,
            lyy: r.k.lyy,
            mu: r.k.mu,
            dxd: r.k.dx,
            dyd: r.k.dy,
            b: s.beta,
            b1: n.beta,
            tau: d.info.tau,
            vs: r.fmax + s.width + n.width,
        }
    }
    /// `Phi_t`, `Phi_{t+1}`.
    pub fn phi(&self) -> (f64, f64) {
        let c = self.dyd * self.dyd / 2.0;
        (self.s.f_t + c * self.b, self.n.f_t + c * self.b1)
    }
    /// `L_t(x_t, y*_t(x_t)) - L_t(x_t, y_{t+1})`.
    pub fn dec(&self) -> f64 {
        self.s.f_t - self.d.l_t_next
    }
    /// `L_{f_t} = Lxx + Lyx^2/(beta_t + mu)`.
    pub fn lf(&self) -> f64 {
        self.lxx + self.lyx * self.lyx / (self.b + self.mu)
    }
    /// `grad_x L(x_t, y_t)^T (x_{t+1} - x_t)`.
    pub fn lin(&self) -> f64 {
        let d: Vec<f64> = self.n.x.iter().zip(&self.s.x).map(|(a, b)| a - b).collect();
        dot(&self.s.gx, &d)
    }
    /// `sqrt(2 H_t/(beta_t + mu))` (the bound on e_t from `lemma:calculus` (i)).
    pub(crate) fn e_bound(&self) -> f64 {
        (2.0 * self.s.h.max(0.0) / (self.b + self.mu)).sqrt()
    }
}

fn steps(r: &RunCtx, t: usize, f: impl Fn(&Tr) -> Vec<Eval>) -> Vec<Eval> {
    f(&Tr::new(r, t)).into_iter().map(|e| e.at(t)).collect()
}

fn paper_alg(r: &RunCtx) -> bool {
    [Structure::LMO_LMO, Structure::LMO_PO, Structure::PO_LMO].contains(&r.structure)
}

const CONNECT: Hyp = Hyp {
    text: "A1; any sequence in X x Y; beta_t non-increasing, max{beta_t, mu} > 0",
    smoothing: true,
    beta_nonincreasing: true,
    ..NO_HYP
};
const PRIMAL_LMO: Hyp = Hyp {
    text: "A1; primal LMO sequence (Alg 1, Alg 2), any {y_t}; beta_t non-increasing, max{beta_t, mu} > 0",
    seq: Seq::PrimalLmo,
    ..CONNECT
};
const PRIMAL_LMO_A3: Hyp = Hyp {
    text: "A1, A3; primal LMO sequence, any {y_t}; beta_t non-increasing, max{beta_t, mu} > 0; any x* in X",
    a3: true,
    xstar: XStar::Any,
    ..PRIMAL_LMO
};
const PRIMAL_PO: Hyp = Hyp {
    text: "A1; primal PO sequence (Alg 3), any {y_t}; beta_t non-increasing, max{beta_t, mu} > 0",
    seq: Seq::PrimalPo,
    ..CONNECT
};

pub(super) static INVARIANTS: &[Invariant] = &[
    inv!(Step, "iterates-feasible", "eq:minimax (x_t in X, y_t in Y)",
        "dist(x_{t+1}, X) <= 0 and dist(y_{t+1}, Y) <= 0 (and for t = 0 the start), relative to the diameters",
        Hyp { text: "any solver run", ..NO_HYP }, iterates_feasible),
    inv!(Step, "primal-step-unit", "def:cg-seq (eq:primal:LMO)",
        "0 <= tau_t <= 1",
        Hyp { text: "primal LMO sequence", seq: Seq::PrimalLmo, ..NO_HYP }, primal_step_unit),
    inv!(Step, "primal-step-positive", "def:pg-seq (eq:primal:PO)",
        "0 < tau_t",
        Hyp { text: "primal PO sequence", seq: Seq::PrimalPo, ..NO_HYP }, primal_step_positive),
    inv!(Step, "beta-nonincreasing", "Condition eq:fw-fw-stepsize / eq:fw-proj-stepsize; Alg 3 schedules",
        "beta_{t+1} <= beta_t",
        Hyp { text: "Alg 1, 2, 3 (their schedules are non-increasing)", extra: Some(paper_alg), ..NO_HYP }, beta_nonincreasing),
    inv!(Step, "smoothing-positive", "def:cg-seq / def:pg-seq (dual sequences)",
        "0 < max{beta_t, mu}",
        Hyp { text: "Alg 1, 2, 3", extra: Some(paper_alg), ..NO_HYP }, smoothing_positive),
    inv!(Step, "general-connect-1", "lemma:general-connect (1)",
        "H_{t+1} - sqrt2 (Lyx dx_t + Dy db_t)/sqrt(beta_{t+1}+mu) sqrt(H_{t+1}) - 2 Lxx dx_t^2 <= L_t(x_t, y*_t(x_t)) - L_t(x_t, y_{t+1})",
        CONNECT, general_connect_1),
    inv!(Step, "general-connect-2a", "lemma:general-connect (2), first inequality",
        "Phi_{t+1} <= Phi_t + Lyx e_t dx_t + grad_x L(x_t,y_t)^T (x_{t+1}-x_t) + L_{f_t}/2 dx_t^2",
        CONNECT, general_connect_2a),
    inv!(Step, "general-connect-2b", "lemma:general-connect (2), second inequality",
        "Phi_{t+1} <= Phi_t + Lyx dx_t sqrt(2 H_t/(beta_t+mu)) + grad_x L(x_t,y_t)^T (x_{t+1}-x_t) + L_{f_t}/2 dx_t^2",
        CONNECT, general_connect_2b),
    inv!(Step, "general-connect-envelope", "lemma:general-connect (proof of (2), smoothness of f_t)",
        "f_t(x_{t+1}) <= f_t(x_t) + Lyx e_t dx_t + grad_x L(x_t,y_t)^T (x_{t+1}-x_t) + L_{f_t}/2 dx_t^2",
        CONNECT, general_connect_envelope),
    inv!(Step, "adaptive-connect-1", "lemma:adaptive-connect (1)",
        "H_{t+1} - sqrt2 (Lyx Dx tau_t + Dy db_t)/sqrt(beta_{t+1}+mu) sqrt(H_{t+1}) - 2 Lxx Dx^2 tau_t^2 <= L_t(x_t, y*_t(x_t)) - L_t(x_t, y_{t+1})",
        PRIMAL_LMO, adaptive_connect_1),
    inv!(Step, "adaptive-connect-2a", "lemma:adaptive-connect (2), first inequality",
        "Phi_{t+1} <= Phi_t + Lyx Dx tau_t e_t - tau_t G_X^LMO(x_t,y_t) + (Lxx Dx^2 + Lyx^2 Dx^2/(beta_t+mu)) tau_t^2/2",
        PRIMAL_LMO, adaptive_connect_2a),
    inv!(Step, "adaptive-connect-2b", "lemma:adaptive-connect (2), second inequality",
        "Phi_{t+1} <= Phi_t + Lyx Dx tau_t sqrt(2H_t/(beta_t+mu)) - tau_t G_X^LMO(x_t,y_t) + (Lxx Dx^2 + Lyx^2 Dx^2/(beta_t+mu)) tau_t^2/2",
        PRIMAL_LMO, adaptive_connect_2b),
    inv!(Step, "phi-sandwich", "lemma:common-upper-bounds (proof, L1571)",
        "f(x_t) <= Phi_t <= f(x_t) + Dy^2 beta_0/2",
        Hyp { text: "A1; any sequence; beta_t non-increasing", beta_nonincreasing: true, ..NO_HYP }, phi_sandwich),
    inv!(Run, "common-upper-bounds-2a", "lemma:common-upper-bounds (2), first inequality",
        "sum_{t=0}^T G_X^LMO(x_t,y_t) <= (2 Fmax + beta_0 Dy^2)/tau_T + Lyx Dx sum_{t=0}^T e_t + sum_{t=0}^T (Lxx Dx^2 + Lyx^2 Dx^2/(beta_t+mu)) tau_t/2, every T (Fmax: certified bound on max |L|)",
        Hyp { text: "A1; primal LMO sequence, any {y_t}; beta non-increasing, max{beta_t, mu} > 0; tau_t non-increasing", tau_nonincreasing: true, ..PRIMAL_LMO },
        common_upper_bounds_2a),
    inv!(Run, "common-upper-bounds-2b", "lemma:common-upper-bounds (2), second inequality",
        "sum_{t=0}^T G_X^LMO(x_t,y_t) <= (2 Fmax + beta_0 Dy^2)/tau_T + Lyx Dx sum_{t=0}^T sqrt(2H_t/(beta_t+mu)) + sum_{t=0}^T (Lxx Dx^2 + Lyx^2 Dx^2/(beta_t+mu)) tau_t/2, every T",
        Hyp { text: "A1; primal LMO sequence, any {y_t}; beta non-increasing, max{beta_t, mu} > 0; tau_t non-increasing", tau_nonincreasing: true, ..PRIMAL_LMO },
        common_upper_bounds_2b),
    inv!(Step, "common-convex-concave-a", "lemma:common-convex-concave, first inequality",
        "f_{t+1}(x_{t+1}) - f_{t+1}(x*) + Dy^2 beta_{t+1}/2 <= (1-tau_t)(f_t(x_t) - f_t(x*) + Dy^2 beta_t/2) + Dy^2 tau_t beta_t/2 + 2 Lyx Dx tau_t e_t + (Lxx Dx^2 + Lyx^2 Dx^2/(beta_t+mu)) tau_t^2/2",
        PRIMAL_LMO_A3, common_convex_concave_a),
    inv!(Step, "common-convex-concave-b", "lemma:common-convex-concave, second inequality",
        "same with e_t -> sqrt(2 H_t/(beta_t+mu))",
        PRIMAL_LMO_A3, common_convex_concave_b),
    inv!(Step, "envelope-smooth", "eq:envelope-smooth (corrected, claims 7.9)",
        "f_t(x_{t+1}) - f_t(x*) <= (1-tau_t)(f_t(x_t) - f_t(x*)) + 2 Lyx Dx tau_t e_t + (Lxx Dx^2/2 + Lyx^2 Dx^2/(2(beta_t+mu))) tau_t^2",
        PRIMAL_LMO_A3, envelope_smooth, Kind::Corrected { printed: "envelope-smooth-printed" }),
    inv!(Step, "envelope-smooth-printed", "eq:envelope-smooth (as printed, L1607)",
        "f_t(x_{t+1}) - f_t(x*) <= (1-tau_t)(f_t(x_t) - f_t(x*)) + 2 Lyx Dx tau_t e_t + (Lxx Dx^2/2 + Lyx^2 Dx^2/(2 beta_t)) tau_t^2",
        PRIMAL_LMO_A3, envelope_smooth_printed, Kind::Printed { corrected: "envelope-smooth" }),
    inv!(Step, "non-neg", "eq:non-neg (L2316-2318)",
        "f(x_t) - f(x*) <= f_t(x_t) - f_t(x*) + Dy^2 beta_t/2 and 0 <= f(x_t) - f(x*), x* = argmin_X f",
        Hyp { text: "A1; any sequence; x* a minimiser of f (known saddle point)", xstar: XStar::Argmin, ..NO_HYP }, non_neg),
    inv!(Run, "general-convergence", "lemma:general-convergence",
        "sum_{t=0}^T G_X^LMO <= (2Fmax + C Dy^2)(T+1)^a + sum_{t=0}^T [2 Lyx Dx sqrt(2 C M_t) + C Lxx Dx^2 + C Lyx^2 Dx^2/(C+mu)]/(2(C+mu)(t+1)^((c-b)/2)) + sum_{t=0}^T [2 Lyx Dx sqrt(2 mu M_t) + mu Lxx Dx^2 + mu Lyx^2 Dx^2/(C+mu)]/(2(C+mu)(t+1)^(c/2)), T >= 1, M_t = max_{s<=t} H_s (s+1)^c, c in {c_max, c_max/3}, c_max = 2a-b (C>0) or 2a (C=0)",
        Hyp { text: "A1; primal LMO sequence with tau_t = (t+1)^-a, beta_t = C(t+1)^-b, any {y_t}; 2a > b, a, b in (0,1], max{C, mu} > 0", seq: Seq::PrimalLmo, power_schedule: true, smoothing: true, ..NO_HYP },
        general_convergence),
    inv!(Run, "general-convex-convergence", "lemma:general-convex-convergence (M_t -> M_T, claims 7.14)",
        "G^Opt(x_T) <= C Dy^2/(2(1-b) T^(a+b-1)) + [4 Lyx Dx sqrt(2 C M_T) + C Lxx Dx^2 + C Lyx^2 Dx^2/(C+mu)]/((2-c+b)(C+mu) T^((2a-b+c-2)/2)) + [4 Lyx Dx sqrt(2 mu M_T) + mu Lxx Dx^2 + mu Lyx^2 Dx^2/(C+mu)]/((2-c)(C+mu) T^((2a+c-2)/2)), T >= 1, empirical M_t; c in {2a-b, a} (C>0) or {2a/3, a} (C=0)",
        Hyp { text: "A1, A3; primal LMO sequence with tau_t = (t+1)^-a, beta_t = C(t+1)^-b; 1 >= a > b > 0 (C > 0) or mu > 0 (C = 0); x* = argmin f", seq: Seq::PrimalLmo, a3: true, power_schedule: true, smoothing: true, xstar: XStar::Argmin, extra: Some(convex_conv_params), ..NO_HYP },
        general_convex_convergence),
    inv!(Step, "general-convex-convergence-recursion", "lemma:general-convex-convergence (proof, L2325-2329)",
        "Psi_{t+1} <= (t^a/(t+1)^a) Psi_t + C Dy^2/(2(t+1)^(a+b)) + [4 Lyx Dx sqrt(2 C M_t) + C Lxx Dx^2 + C Lyx^2 Dx^2/(C+mu)]/(2(C+mu)(t+1)^((2a-b+c)/2)) + [4 Lyx Dx sqrt(2 mu M_t) + mu Lxx Dx^2 + mu Lyx^2 Dx^2/(C+mu)]/(2(C+mu)(t+1)^((2a+c)/2)), Psi_t = f_t(x_t) - f_t(x*) + C Dy^2/(2(t+1)^b)",
        Hyp { text: "A1, A3; primal LMO sequence with the power schedule; 1 >= a > b > 0 (C > 0) or mu > 0 (C = 0); x* = argmin f (Psi_t >= 0 is used)", seq: Seq::PrimalLmo, a3: true, power_schedule: true, smoothing: true, xstar: XStar::Argmin, extra: Some(convex_conv_params), ..NO_HYP },
        general_convex_convergence_recursion),
    inv!(Step, "proj-primal", "lemma:proj-primal",
        "(3/(4 tau_t) - Lxx/2 - 5 Lyx^2/(2(beta_t+mu))) dx_t^2 <= Phi_t - Phi_{t+1} + (1/4) min{H_t, H_t^2/((Lyy+beta_t) Dy^2)} + 4 Lyx^4 (Lyy+beta_t) Dy^2 tau_t^2/(beta_t+mu)^2",
        PRIMAL_PO, proj_primal),
    inv!(Step, "proj-envelope", "eq:proj-envelope (L1729-1733)",
        "Phi_{t+1} <= Phi_t + Lyx dx_t sqrt(2 H_t/(beta_t+mu)) - (1/tau_t - L_{f_t}/2) dx_t^2",
        PRIMAL_PO, proj_envelope),
    inv!(Step, "projection-inequality", "lemma:proj-primal (proof)",
        "grad_x L(x_t,y_t)^T (x_{t+1} - x_t) <= -dx_t^2/tau_t",
        Hyp { text: "primal PO sequence", seq: Seq::PrimalPo, ..NO_HYP }, projection_inequality),
    inv!(Step, "gx-po-le-step-ratio", "L1705-1708 (Beck Thm 10.9), sigma = tau_0",
        "G_X^PO(x_t, y_t; tau_0) <= ||x_{t+1} - x_t|| / tau_t (steps with tau_t <= tau_0)",
        Hyp { text: "primal PO sequence; sigma = tau_0", seq: Seq::PrimalPo, ..NO_HYP }, gx_po_le_step_ratio),
    inv!(Step, "proj-fw-convex-bound-step", "lemma:proj-fw-convex-bound (per-iteration form, L1806-1808)",
        "f(x_{t+1}) - f(x*) - Dy^2 beta_t/2 <= H_t + Lyx^2 tau_t H_t/((1 - L_{f_t} tau_t)(beta_t+mu)) + (||x_t-x*||^2 - ||x_{t+1}-x*||^2)/(2 tau_t) (steps with tau_t < 1/L_{f_t})",
        Hyp { text: "A1, A3; primal PO sequence, any {y_t}; beta non-increasing, max{beta_t, mu} > 0; any x* in X", a3: true, xstar: XStar::Any, ..PRIMAL_PO },
        proj_fw_convex_bound_step),
    inv!(Run, "proj-fw-convex-bound", "lemma:proj-fw-convex-bound",
        "(1/(T+1)) sum_{t=0}^T [f(x_{t+1}) - f(x*)] <= (1 + sup_{t<=T} Lyx^2 tau_t/((1 - L_{f_t} tau_t)(beta_t+mu))) (1/(T+1)) sum_{t=0}^T H_t + Dx^2/(2(T+1) tau_T) + (Dy^2/(2(T+1))) sum_{t=0}^T beta_t",
        Hyp { text: "A1, A3; primal PO sequence; beta non-increasing, max{beta_t, mu} > 0; 0 < tau_t < 1/L_{f_t}; tau_t non-increasing (needed by the telescoping, not stated); any x* in X", a3: true, xstar: XStar::Any, tau_nonincreasing: true, extra: Some(tau_below_lf), ..PRIMAL_PO },
        proj_fw_convex_bound),
    inv!(Run, "repeat-saddle", "lemma:saddle / lemma:repeat-saddle",
        "G^Dual(xbar_T, ybar_T) <= (1/T) sum_{t=1}^T [G_X^LMO(x_t,y_t) + G_Y(x_t,y_t)], xbar_T, ybar_T averages of t = 1..T (T = horizon and horizon/2)",
        Hyp { text: "A1, A3; any sequence", a3: true, ..NO_HYP }, repeat_saddle),
    inv!(Run, "repeat-saddle-po", "lemma:saddle with lemma:proj->fw (a) (corollary in the text, L450)",
        "G^Dual(xbar_T, ybar_T) <= (1/T) sum_{t=1}^T [(sigma ||grad_x L(x_t,y_t)|| + Dx) G_X^PO(x_t,y_t; sigma) + G_Y(x_t,y_t)], sigma = the run's sigma (T = horizon and horizon/2)",
        Hyp { text: "A1, A3; any sequence, any sigma > 0 (tau_0 on PO-primal runs, 1 otherwise)", a3: true, ..NO_HYP }, repeat_saddle_po),
];

/// `dist(x_t, X) = 0`, `dist(y_t, Y) = 0`.
fn iterates_feasible(r: &RunCtx, t: usize) -> Vec<Eval> {
    let mut out = Vec::new();
    let idx: &[usize] = if t == 0 { &[0, 1] } else { &[1] };
    for &i in idx {
        let s = &r.snaps[t + i];
        for (set, z, diam) in [
            (r.problem.x_set(), &s.x, r.k.dx),
            (r.problem.y_set(), &s.y, r.k.dy),
        ] {
            let mut p = vec![0.0; z.len()];
            set.project(z, &mut p);
            out.push(Eval::le(dist(&p, z), 0.0, diam + norm(z)).at(t + i));
        }
    }
    out
}

/// `0 <= tau_t <= 1`.
fn primal_step_unit(r: &RunCtx, t: usize) -> Vec<Eval> {
    let tau = r.steps[t].info.tau;
    vec![Eval::le(0.0, tau, 1.0).at(t), Eval::le(tau, 1.0, 1.0).at(t)]
}

/// `0 < tau_t`.
fn primal_step_positive(r: &RunCtx, t: usize) -> Vec<Eval> {
    let tau = r.steps[t].info.tau;
    vec![Eval::le(f64::MIN_POSITIVE, if tau > 0.0 { tau } else { -1.0 }, 0.0).at(t)]
}

/// `beta_{t+1} <= beta_t`.
fn beta_nonincreasing(r: &RunCtx, t: usize) -> Vec<Eval> {
    vec![Eval::le(r.snaps[t + 1].beta, r.snaps[t].beta, 0.0).at(t)]
}

/// `max{beta_t, mu} > 0`.
fn smoothing_positive(r: &RunCtx, t: usize) -> Vec<Eval> {
    let m = r.snaps[t].beta.max(r.k.mu);
    vec![Eval::le(f64::MIN_POSITIVE, if m > 0.0 { m } else { -1.0 }, 0.0).at(t)]
}

/// `lemma:general-connect` (1):
/// `H_{t+1} - sqrt2 (Lyx dx_t + Dy db_t)/sqrt(beta_{t+1}+mu) sqrt(H_{t+1}) - 2 Lxx dx_t^2 <= L_t(x_t, y*_t(x_t)) - L_t(x_t, y_{t+1})`.
fn general_connect_1(r: &RunCtx, t: usize) -> Vec<Eval> {
    steps(r, t, |c| {
        let h1 = c.n.h.max(0.0);
        let lhs = c.n.h
            - 2f64.sqrt() * (c.lyx * c.d.dx + c.dyd * c.d.db) / (c.b1 + c.mu).sqrt() * h1.sqrt()
            - 2.0 * c.lxx * c.d.dx * c.d.dx;
        vec![Eval::le(lhs, c.dec(), c.vs)]
    })
}

fn connect_2(c: &Tr, e: f64) -> Eval {
    let (p0, p1) = c.phi();
    let rhs = p0 + c.lyx * e * c.d.dx + c.lin() + c.lf() / 2.0 * c.d.dx * c.d.dx;
    Eval::le(p1, rhs, c.vs)
}

/// `lemma:general-connect` (2):
/// `Phi_{t+1} <= Phi_t + Lyx e_t dx_t + grad_x L(x_t,y_t)^T (x_{t+1}-x_t) + L_{f_t}/2 dx_t^2`.
fn general_connect_2a(r: &RunCtx, t: usize) -> Vec<Eval> {
    steps(r, t, |c| vec![connect_2(c, c.s.e)])
}

/// `lemma:general-connect` (2), second form:
/// `Phi_{t+1} <= Phi_t + Lyx dx_t sqrt(2H_t/(beta_t+mu)) + grad_x L(x_t,y_t)^T (x_{t+1}-x_t) + L_{f_t}/2 dx_t^2`.
fn general_connect_2b(r: &RunCtx, t: usize) -> Vec<Eval> {
    steps(r, t, |c| vec![connect_2(c, c.e_bound())])
}

/// `f_t(x_{t+1}) <= f_t(x_t) + Lyx e_t dx_t + grad^T (x_{t+1}-x_t) + L_{f_t}/2 dx_t^2`.
fn general_connect_envelope(r: &RunCtx, t: usize) -> Vec<Eval> {
    steps(r, t, |c| {
        let rhs = c.s.f_t + c.lyx * c.s.e * c.d.dx + c.lin() + c.lf() / 2.0 * c.d.dx * c.d.dx;
        vec![Eval::le(c.d.f_t_next_x, rhs, c.vs)]
    })
}

/// `lemma:adaptive-connect` (1):
/// `H_{t+1} - sqrt2 (Lyx Dx tau_t + Dy db_t)/sqrt(beta_{t+1}+mu) sqrt(H_{t+1}) - 2 Lxx Dx^2 tau_t^2 <= L_t(x_t, y*_t(x_t)) - L_t(x_t, y_{t+1})`.
fn adaptive_connect_1(r: &RunCtx, t: usize) -> Vec<Eval> {
    steps(r, t, |c| {
        let h1 = c.n.h.max(0.0);
        let lhs = c.n.h
            - 2f64.sqrt() * (c.lyx * c.dxd * c.tau + c.dyd * c.d.db) / (c.b1 + c.mu).sqrt()
                * h1.sqrt()
            - 2.0 * c.lxx * c.dxd * c.dxd * c.tau * c.tau;
        vec![Eval::le(lhs, c.dec(), c.vs)]
    })
}

fn adaptive_2(c: &Tr, e: f64) -> Eval {
    let (p0, p1) = c.phi();
    let q = c.lxx * c.dxd * c.dxd + c.lyx * c.lyx * c.dxd * c.dxd / (c.b + c.mu);
    let rhs = p0 + c.lyx * c.dxd * c.tau * e - c.tau * c.s.gx_lmo + q * c.tau * c.tau / 2.0;
    Eval::le(p1, rhs, c.vs)
}

/// `lemma:adaptive-connect` (2):
/// `Phi_{t+1} <= Phi_t + Lyx Dx tau_t e_t - tau_t G_X^LMO(x_t,y_t) + (Lxx Dx^2 + Lyx^2 Dx^2/(beta_t+mu)) tau_t^2/2`.
fn adaptive_connect_2a(r: &RunCtx, t: usize) -> Vec<Eval> {
    steps(r, t, |c| vec![adaptive_2(c, c.s.e)])
}

/// `lemma:adaptive-connect` (2), second form (`e_t -> sqrt(2H_t/(beta_t+mu))`).
fn adaptive_connect_2b(r: &RunCtx, t: usize) -> Vec<Eval> {
    steps(r, t, |c| vec![adaptive_2(c, c.e_bound())])
}

/// `f(x_t) <= Phi_t <= f(x_t) + Dy^2 beta_0/2` (for t and, at the last step, t+1).
fn phi_sandwich(r: &RunCtx, t: usize) -> Vec<Eval> {
    let b0 = r.snaps[0].beta;
    let idx: &[usize] = if t + 2 == r.snaps.len() {
        &[t, t + 1]
    } else {
        &[t]
    };
    idx.iter()
        .flat_map(|&i| {
            let s = &r.snaps[i];
            let phi = r.phi(i);
            let vs = r.fmax + s.width;
            [
                Eval::le(s.f, phi, vs).at(i),
                Eval::le(phi, s.f + r.k.dy * r.k.dy * b0 / 2.0, vs).at(i),
            ]
        })
        .collect()
}

fn common_upper_bounds_2(r: &RunCtx, e: impl Fn(&Snap) -> f64) -> Vec<Eval> {
    let k = r.k;
    let (mut lhs, mut se, mut sq) = (0.0, 0.0, 0.0);
    let mut out = Vec::new();
    for t in 0..r.horizon() {
        let s = &r.snaps[t];
        let tau = r.steps[t].info.tau;
        lhs += s.gx_lmo;
        se += e(s);
        sq += (k.lxx * k.dx * k.dx + k.lyx * k.lyx * k.dx * k.dx / (s.beta + k.mu)) * tau / 2.0;
        let rhs = (2.0 * r.fmax + r.snaps[0].beta * k.dy * k.dy) / tau + k.lyx * k.dx * se + sq;
        out.push(Eval::le(lhs, rhs, r.fmax * (t + 1) as f64).at(t));
    }
    out
}

/// `lemma:common-upper-bounds` (2), every T:
/// `sum_{t<=T} G_X^LMO <= (2 Fmax + beta_0 Dy^2)/tau_T + Lyx Dx sum_{t<=T} e_t + sum_{t<=T} (Lxx Dx^2 + Lyx^2 Dx^2/(beta_t+mu)) tau_t/2`.
fn common_upper_bounds_2a(r: &RunCtx) -> Vec<Eval> {
    common_upper_bounds_2(r, |s| s.e)
}

/// `lemma:common-upper-bounds` (2), second form (`e_t -> sqrt(2H_t/(beta_t+mu))`).
fn common_upper_bounds_2b(r: &RunCtx) -> Vec<Eval> {
    let mu = r.k.mu;
    common_upper_bounds_2(r, move |s| (2.0 * s.h.max(0.0) / (s.beta + mu)).sqrt())
}

fn common_cc(r: &RunCtx, t: usize, use_h: bool) -> Vec<Eval> {
    steps(r, t, |c| {
        let e = if use_h { c.e_bound() } else { c.s.e };
        let h2 = c.dyd * c.dyd / 2.0;
        let q = c.lxx * c.dxd * c.dxd + c.lyx * c.lyx * c.dxd * c.dxd / (c.b + c.mu);
        r.xstars
            .iter()
            .enumerate()
            .map(|(j, _)| {
                let lhs = c.n.f_t - c.n.f_t_xstar[j] + h2 * c.b1;
                let rhs = (1.0 - c.tau) * (c.s.f_t - c.s.f_t_xstar[j] + h2 * c.b)
                    + h2 * c.tau * c.b
                    + 2.0 * c.lyx * c.dxd * c.tau * e
                    + q * c.tau * c.tau / 2.0;
                Eval::le(lhs, rhs, 2.0 * c.vs)
            })
            .collect()
    })
}

/// `lemma:common-convex-concave`, for every reference point x*:
/// `f_{t+1}(x_{t+1}) - f_{t+1}(x*) + Dy^2 beta_{t+1}/2 <= (1-tau_t)(f_t(x_t) - f_t(x*) + Dy^2 beta_t/2) + Dy^2 tau_t beta_t/2 + 2 Lyx Dx tau_t e_t + (Lxx Dx^2 + Lyx^2 Dx^2/(beta_t+mu)) tau_t^2/2`.
fn common_convex_concave_a(r: &RunCtx, t: usize) -> Vec<Eval> {
    common_cc(r, t, false)
}

/// `lemma:common-convex-concave`, second form (`e_t -> sqrt(2H_t/(beta_t+mu))`).
fn common_convex_concave_b(r: &RunCtx, t: usize) -> Vec<Eval> {
    common_cc(r, t, true)
}

fn envelope(
    r: &RunCtx,
    t: usize,
    denom: impl Fn(&Tr) -> f64,
    undefined: &'static str,
) -> Vec<Eval> {
    steps(r, t, |c| {
        r.xstars
            .iter()
            .enumerate()
            .map(|(j, _)| {
                let fs = c.s.f_t_xstar[j];
                let lhs = c.d.f_t_next_x - fs;
                let rhs = (1.0 - c.tau) * (c.s.f_t - fs)
                    + 2.0 * c.lyx * c.dxd * c.tau * c.s.e
                    + (c.lxx * c.dxd * c.dxd / 2.0
                        + c.lyx * c.lyx * c.dxd * c.dxd / (2.0 * denom(c)))
                        * c.tau
                        * c.tau;
                Eval::le(lhs, rhs, 2.0 * c.vs).undefined_if(undefined)
            })
            .collect()
    })
}

/// `eq:envelope-smooth` (corrected): `f_t(x_{t+1}) - f_t(x*) <= (1-tau_t)(f_t(x_t) - f_t(x*)) + 2 Lyx Dx tau_t e_t + (Lxx Dx^2/2 + Lyx^2 Dx^2/(2(beta_t+mu))) tau_t^2`.
fn envelope_smooth(r: &RunCtx, t: usize) -> Vec<Eval> {
    envelope(r, t, |c| c.b + c.mu, "beta_t + mu = 0")
}

/// `eq:envelope-smooth` as printed: `... + (Lxx Dx^2/2 + Lyx^2 Dx^2/(2 beta_t)) tau_t^2` (divides by 0 when beta_t = 0).
fn envelope_smooth_printed(r: &RunCtx, t: usize) -> Vec<Eval> {
    envelope(
        r,
        t,
        |c| c.b,
        "the printed Lyx^2 Dx^2/(2 beta_t) divides by beta_t = 0",
    )
}

/// `eq:non-neg`: `f(x_t) - f(x*) <= f_t(x_t) - f_t(x*) + Dy^2 beta_t/2` and `0 <= f(x_t) - f(x*)`, x* = argmin f.
fn non_neg(r: &RunCtx, t: usize) -> Vec<Eval> {
    let Some(j) = r.xstars.iter().position(|x| x.argmin) else {
        return vec![];
    };
    let idx: &[usize] = if t + 2 == r.snaps.len() {
        &[t, t + 1]
    } else {
        &[t]
    };
    idx.iter()
        .flat_map(|&i| {
            let s = &r.snaps[i];
            let gap = s.f - r.xstars[j].f;
            let vs = 2.0 * r.fmax + s.width;
            [
                Eval::le(
                    gap,
                    s.f_t - s.f_t_xstar[j] + r.k.dy * r.k.dy * s.beta / 2.0,
                    vs,
                )
                .at(i),
                Eval::le(0.0, gap, vs).at(i),
            ]
        })
        .collect()
}

/// The empirical `M_t = max_{s<=t} H_s (s+1)^c` (non-decreasing, floored at a tiny positive).
pub(super) fn empirical_m(r: &RunCtx, c: f64) -> Vec<f64> {
    let mut m = f64::MIN_POSITIVE;
    r.snaps
        .iter()
        .map(|s| {
            m = m.max(s.h.max(0.0) * ((s.t + 1) as f64).powf(c));
            m
        })
        .collect()
}

/// `lemma:general-convergence` for every `T >= 1` and `c in {c_max, c_max/3}`:
/// `sum_{t<=T} G_X^LMO <= (2Fmax + C Dy^2)(T+1)^a + sum_{t<=T} [2 Lyx Dx sqrt(2 C M_t) + C Lxx Dx^2 + C Lyx^2 Dx^2/(C+mu)]/(2(C+mu)(t+1)^((c-b)/2)) + sum_{t<=T} [2 Lyx Dx sqrt(2 mu M_t) + mu Lxx Dx^2 + mu Lyx^2 Dx^2/(C+mu)]/(2(C+mu)(t+1)^(c/2))`.
fn general_convergence(r: &RunCtx) -> Vec<Eval> {
    let Some(sc) = r.sched else { return vec![] };
    let (a, b, cc) = (sc.a, sc.b, sc.c);
    if 2.0 * a <= b {
        return vec![];
    }
    let k = r.k;
    let cmax = if cc > 0.0 { 2.0 * a - b } else { 2.0 * a };
    let mut out = Vec::new();
    for c in [cmax, cmax / 3.0] {
        let m = empirical_m(r, c);
        let (mut lhs, mut s1, mut s2) = (0.0, 0.0, 0.0);
        for t in 0..r.horizon() {
            let tp = (t + 1) as f64;
            lhs += r.snaps[t].gx_lmo;
            s1 += (2.0 * k.lyx * k.dx * (2.0 * cc * m[t]).sqrt()
                + cc * k.lxx * k.dx * k.dx
                + cc * k.lyx * k.lyx * k.dx * k.dx / (cc + k.mu))
                / (2.0 * (cc + k.mu) * tp.powf((c - b) / 2.0));
            s2 += (2.0 * k.lyx * k.dx * (2.0 * k.mu * m[t]).sqrt()
                + k.mu * k.lxx * k.dx * k.dx
                + k.mu * k.lyx * k.lyx * k.dx * k.dx / (cc + k.mu))
                / (2.0 * (cc + k.mu) * tp.powf(c / 2.0));
            if t >= 1 {
                let rhs = (2.0 * r.fmax + cc * k.dy * k.dy) * tp.powf(a) + s1 + s2;
                out.push(Eval::le(lhs, rhs, r.fmax * tp).at(t));
            }
        }
    }
    out
}

/// `1 >= a > b > 0` when C > 0 (C = 0: b is irrelevant).
fn convex_conv_params(r: &RunCtx) -> bool {
    match r.sched {
        Some(s) if s.c > 0.0 => s.a <= 1.0 && s.a > s.b && s.b > 0.0,
        Some(_) => r.k.mu > 0.0,
        None => false,
    }
}

/// The `c` values used for the convex lemmas: `{2a-b, a}` (C > 0), `{2a/3, a}` (C = 0).
fn convex_cs(a: f64, b: f64, cc: f64) -> [f64; 2] {
    if cc > 0.0 {
        [2.0 * a - b, a]
    } else {
        [2.0 * a / 3.0, a]
    }
}

/// `lemma:general-convex-convergence` for every `T >= 1`:
/// `G^Opt(x_T) <= C Dy^2/(2(1-b) T^(a+b-1)) + [4 Lyx Dx sqrt(2 C M_T) + C Lxx Dx^2 + C Lyx^2 Dx^2/(C+mu)]/((2-c+b)(C+mu) T^((2a-b+c-2)/2)) + [4 Lyx Dx sqrt(2 mu M_T) + mu Lxx Dx^2 + mu Lyx^2 Dx^2/(C+mu)]/((2-c)(C+mu) T^((2a+c-2)/2))`.
fn general_convex_convergence(r: &RunCtx) -> Vec<Eval> {
    let (Some(sc), Some(fs)) = (r.sched, r.f_star) else {
        return vec![];
    };
    let (a, b, cc) = (sc.a, if sc.c > 0.0 { sc.b } else { 0.0 }, sc.c);
    let k = r.k;
    let mut out = Vec::new();
    for c in convex_cs(a, b, cc) {
        let m = empirical_m(r, c);
        for tt in 1..r.snaps.len() {
            let t = tt as f64;
            let lhs = r.snaps[tt].f - fs;
            let first = if cc > 0.0 {
                cc * k.dy * k.dy / (2.0 * (1.0 - b) * t.powf(a + b - 1.0))
            } else {
                0.0
            };
            let p1 = (4.0 * k.lyx * k.dx * (2.0 * cc * m[tt]).sqrt()
                + cc * k.lxx * k.dx * k.dx
                + cc * k.lyx * k.lyx * k.dx * k.dx / (cc + k.mu))
                / ((2.0 - c + b) * (cc + k.mu) * t.powf((2.0 * a - b + c - 2.0) / 2.0));
            let p2 = (4.0 * k.lyx * k.dx * (2.0 * k.mu * m[tt]).sqrt()
                + k.mu * k.lxx * k.dx * k.dx
                + k.mu * k.lyx * k.lyx * k.dx * k.dx / (cc + k.mu))
                / ((2.0 - c) * (cc + k.mu) * t.powf((2.0 * a + c - 2.0) / 2.0));
            out.push(Eval::le(lhs, first + p1 + p2, 2.0 * r.fmax).at(tt));
        }
    }
    out
}

/// The per-step recursion of `lemma:general-convex-convergence` (L2325-2329):
/// `Psi_{t+1} <= (t/(t+1))^a Psi_t + C Dy^2/(2(t+1)^(a+b)) + [4 Lyx Dx sqrt(2CM_t) + ...]/(2(C+mu)(t+1)^((2a-b+c)/2)) + [4 Lyx Dx sqrt(2 mu M_t) + ...]/(2(C+mu)(t+1)^((2a+c)/2))`.
fn general_convex_convergence_recursion(r: &RunCtx, t: usize) -> Vec<Eval> {
    let Some(sc) = r.sched else { return vec![] };
    let Some(j) = r.xstars.iter().position(|x| x.argmin) else {
        return vec![];
    };
    let (a, b, cc) = (sc.a, if sc.c > 0.0 { sc.b } else { 0.0 }, sc.c);
    let k = r.k;
    let tp = (t + 1) as f64;
    let psi = |i: usize| {
        let s = &r.snaps[i];
        s.f_t - s.f_t_xstar[j] + cc * k.dy * k.dy / (2.0 * ((i + 1) as f64).powf(b))
    };
    let mut out = Vec::new();
    for c in convex_cs(a, b, cc) {
        let m = empirical_m(r, c)[t];
        let rhs = ((t as f64) / tp).powf(a) * psi(t)
            + cc * k.dy * k.dy / (2.0 * tp.powf(a + b))
            + (4.0 * k.lyx * k.dx * (2.0 * cc * m).sqrt()
                + cc * k.lxx * k.dx * k.dx
                + cc * k.lyx * k.lyx * k.dx * k.dx / (cc + k.mu))
                / (2.0 * (cc + k.mu) * tp.powf((2.0 * a - b + c) / 2.0))
            + (4.0 * k.lyx * k.dx * (2.0 * k.mu * m).sqrt()
                + k.mu * k.lxx * k.dx * k.dx
                + k.mu * k.lyx * k.lyx * k.dx * k.dx / (cc + k.mu))
                / (2.0 * (cc + k.mu) * tp.powf((2.0 * a + c) / 2.0));
        out.push(Eval::le(psi(t + 1), rhs, 2.0 * r.fmax).at(t));
    }
    out
}

/// `lemma:proj-primal`: `(3/(4 tau_t) - Lxx/2 - 5 Lyx^2/(2(beta_t+mu))) dx_t^2 <= Phi_t - Phi_{t+1} + (1/4) min{H_t, H_t^2/((Lyy+beta_t) Dy^2)} + 4 Lyx^4 (Lyy+beta_t) Dy^2 tau_t^2/(beta_t+mu)^2`.
fn proj_primal(r: &RunCtx, t: usize) -> Vec<Eval> {
    steps(r, t, |c| {
        let (p0, p1) = c.phi();
        let h = c.s.h.max(0.0);
        let coef = 3.0 / (4.0 * c.tau) - c.lxx / 2.0 - 5.0 * c.lyx * c.lyx / (2.0 * (c.b + c.mu));
        let rhs = p0 - p1
            + 0.25 * h.min(h * h / ((c.lyy + c.b) * c.dyd * c.dyd))
            + 4.0 * c.lyx.powi(4) * (c.lyy + c.b) * c.dyd * c.dyd * c.tau * c.tau
                / (c.b + c.mu).powi(2);
        vec![Eval::le(coef * c.d.dx * c.d.dx, rhs, c.vs)]
    })
}

/// `eq:proj-envelope`: `Phi_{t+1} <= Phi_t + Lyx dx_t sqrt(2 H_t/(beta_t+mu)) - (1/tau_t - L_{f_t}/2) dx_t^2`.
fn proj_envelope(r: &RunCtx, t: usize) -> Vec<Eval> {
    steps(r, t, |c| {
        let (p0, p1) = c.phi();
        let rhs =
            p0 + c.lyx * c.d.dx * c.e_bound() - (1.0 / c.tau - c.lf() / 2.0) * c.d.dx * c.d.dx;
        vec![Eval::le(p1, rhs, c.vs)]
    })
}

/// `grad^T (x_{t+1} - x_t) <= -dx_t^2/tau_t`.
fn projection_inequality(r: &RunCtx, t: usize) -> Vec<Eval> {
    steps(r, t, |c| {
        let g = norm(&c.s.gx);
        vec![Eval::le(
            c.lin(),
            -c.d.dx * c.d.dx / c.tau,
            g * c.dxd + c.dxd * c.dxd / c.tau,
        )]
    })
}

/// `G_X^PO(x_t,y_t; tau_0) <= ||x_{t+1}-x_t||/tau_t` when `tau_t <= tau_0`.
fn gx_po_le_step_ratio(r: &RunCtx, t: usize) -> Vec<Eval> {
    let tau = r.steps[t].info.tau;
    if !(tau > 0.0 && tau <= r.sigma) {
        return vec![];
    }
    let s = &r.snaps[t];
    let scale = norm(&s.gx) + r.k.dx / tau;
    vec![Eval::le(s.gx_po, r.steps[t].dx / tau, scale).at(t)]
}

/// The per-iteration form of `lemma:proj-fw-convex-bound` (steps with `tau_t L_{f_t} < 1`):
/// `f(x_{t+1}) - f(x*) - Dy^2 beta_t/2 <= H_t + Lyx^2 tau_t H_t/((1 - L_{f_t} tau_t)(beta_t+mu)) + (||x_t-x*||^2 - ||x_{t+1}-x*||^2)/(2 tau_t)`.
fn proj_fw_convex_bound_step(r: &RunCtx, t: usize) -> Vec<Eval> {
    steps(r, t, |c| {
        if !(c.tau > 0.0 && c.tau * c.lf() < 1.0) {
            return vec![];
        }
        let h = c.s.h.max(0.0);
        r.xstars
            .iter()
            .map(|xs| {
                let lhs = c.n.f - xs.f - c.dyd * c.dyd * c.b / 2.0;
                let d0 = dist(&c.s.x, &xs.x);
                let d1 = dist(&c.n.x, &xs.x);
                let rhs = c.s.h
                    + c.lyx * c.lyx * c.tau * h / ((1.0 - c.lf() * c.tau) * (c.b + c.mu))
                    + (d0 * d0 - d1 * d1) / (2.0 * c.tau);
                Eval::le(lhs, rhs, 2.0 * c.vs + c.dxd * c.dxd / c.tau)
            })
            .collect()
    })
}

/// `0 < tau_t < 1/L_{f_t}` for every recorded t.
fn tau_below_lf(r: &RunCtx) -> bool {
    r.steps.iter().enumerate().all(|(t, d)| {
        let lf = r.k.lxx + r.k.lyx * r.k.lyx / (r.snaps[t].beta + r.k.mu);
        d.info.tau > 0.0 && d.info.tau * lf < 1.0
    })
}

/// `lemma:proj-fw-convex-bound` for every T:
/// `avg_{t<=T} [f(x_{t+1}) - f(x*)] <= (1 + sup_{t<=T} Lyx^2 tau_t/((1 - L_{f_t} tau_t)(beta_t+mu))) avg_{t<=T} H_t + Dx^2/(2(T+1) tau_T) + Dy^2/(2(T+1)) sum_{t<=T} beta_t`.
fn proj_fw_convex_bound(r: &RunCtx) -> Vec<Eval> {
    let k = r.k;
    let mut out = Vec::new();
    for xs in &r.xstars {
        let (mut sf, mut sh, mut sb, mut sup) = (0.0, 0.0, 0.0, 0.0f64);
        for t in 0..r.horizon() {
            let s = &r.snaps[t];
            let tau = r.steps[t].info.tau;
            let lf = k.lxx + k.lyx * k.lyx / (s.beta + k.mu);
            sup = sup.max(k.lyx * k.lyx * tau / ((1.0 - lf * tau) * (s.beta + k.mu)));
            sf += r.snaps[t + 1].f - xs.f;
            sh += s.h;
            sb += s.beta;
            let n = (t + 1) as f64;
            let rhs =
                (1.0 + sup) * sh / n + k.dx * k.dx / (2.0 * n * tau) + k.dy * k.dy * sb / (2.0 * n);
            out.push(Eval::le(sf / n, rhs, 2.0 * r.fmax).at(t));
        }
    }
    out
}

/// `lemma:repeat-saddle` at T = horizon and T = horizon/2:
/// `G^Dual(xbar_T, ybar_T) <= (1/T) sum_{t=1}^T [G_X^LMO(x_t,y_t) + G_Y(x_t,y_t)]` (lhs: certified lower end).
fn repeat_saddle(r: &RunCtx) -> Vec<Eval> {
    saddle_bound(r, |s| s.gx_lmo)
}

/// The corollary of `lemma:saddle` stated after it (L450), through `lemma:proj->fw` (a):
/// `G^Dual(xbar_T, ybar_T) <= (1/T) sum_{t=1}^T [(sigma ||grad_x L(x_t,y_t)|| + Dx) G_X^PO(x_t,y_t; sigma) + G_Y(x_t,y_t)]`.
fn repeat_saddle_po(r: &RunCtx) -> Vec<Eval> {
    let (sigma, dx) = (r.sigma, r.k.dx);
    saddle_bound(r, |s| (sigma * norm(&s.gx) + dx) * s.gx_po)
}

/// `G^Dual(xbar_T, ybar_T) <= (1/T) sum_{t=1}^T [primal(x_t,y_t) + G_Y(x_t,y_t)]` at T = horizon
/// and T = horizon/2, for a primal measure that bounds G_X^LMO from above.
fn saddle_bound(r: &RunCtx, primal: impl Fn(&Snap) -> f64) -> Vec<Eval> {
    let big_t = r.horizon();
    let mut out = Vec::new();
    let mut ts = vec![big_t];
    if big_t >= 4 {
        ts.push(big_t / 2);
    }
    for tt in ts {
        let n = tt as f64;
        let avg = |f: &dyn Fn(&Snap) -> &Vec<f64>| -> Vec<f64> {
            let d = f(&r.snaps[1]).len();
            let mut v = vec![0.0; d];
            for s in &r.snaps[1..=tt] {
                for (vi, zi) in v.iter_mut().zip(f(s)) {
                    *vi += zi / n;
                }
            }
            v
        };
        let xbar = avg(&|s| &s.x);
        let ybar = avg(&|s| &s.y);
        let Some(g) = crate::measures::g_dual(r.problem, &xbar, &ybar) else {
            continue;
        };
        let rhs: f64 = r.snaps[1..=tt]
            .iter()
            .map(|s| primal(s) + s.gy)
            .sum::<f64>()
            / n;
        out.push(Eval::le(g.lower, rhs, 2.0 * r.fmax).at(tt));
    }
    out
}
