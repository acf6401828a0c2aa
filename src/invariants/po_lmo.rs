//! Invariants of Algorithm 3 (PO-LMO, `alg:proj-fw`; claims.md Sec. 4.10): the recursions
//! `lemma:proj-fw-recursive`, `eq:ugly` (`lemma:proj-fw-primal`), their strongly-convex-Y
//! versions (`lemma:proj-fw-sc-recursive`, `eq:ugly2`), the summed forms and the general bounds
//! `lemma:proj-fw-general-bound`, `lemma:proj-fw-sc-general-bound` (with the factor-4 and
//! Lyy/Lyx corrections of claims 7.22-7.23).
//!
//! Names: in the non-SC section `q_t := max{H/2, H - H^2/(2(Lyy+b)Dy^2)} + (1/4) min{H^2/((Lyy+b)Dy^2), H}`
//! and `r_t := Phi_t + q_t`; in the SC section the names swap (claims 7.24):
//! `r_t := max{H/2, H - alpha sqrt((b+mu)H^3)/(8 sqrt2 (Lyy+b))} + (1/4) min{H, alpha sqrt((b+mu)H^3)/(4 sqrt2 (Lyy+b))}`,
//! `q_t := Phi_t + r_t`. The code uses `q` / `q_sc` for the H-parts and `r` / `r_sc` for the
//! potentials, whatever the paper calls them.
//!
//! `lemma:proj-fw-sc-recursive` has an incomplete proof in the paper; its first steps (AM-GM on
//! `sqrt(H_{t+1})` against `H_{t+1} - r_{t+1}`) produce `4 Lyx^2/(beta_{t+1}+mu)`, while the
//! statement prints `beta_t` (claims 4.10). The `beta_{t+1}` form gates (it is the weaker
//! claim); the printed `beta_t` form is reported. The summed forms and the SC general bounds
//! are evaluated with the gating (`beta_{t+1}`) constants.

// Accumulations index several per-t sequences with the same t.
#![allow(clippy::needless_range_loop)]

use super::context::{Hyp, RunCtx, Seq, NO_HYP};
use super::invariant::Invariant;
use super::model::{Eval, Kind};
use super::primal::Tr;

const ALG3: Hyp = Hyp {
    text: "A1; Alg 3 (PO-LMO), tau_t > 0, beta_t non-increasing, max{beta_t, mu} > 0",
    seq: Seq::Alg3,
    smoothing: true,
    beta_nonincreasing: true,
    extra: Some(tau_pos),
    ..NO_HYP
};
const ALG3_MONO: Hyp = Hyp {
    text: "A1; Alg 3, beta_t and tau_t non-increasing, tau_t > 0, max{beta_t, mu} > 0",
    tau_nonincreasing: true,
    ..ALG3
};
const ALG3_G1: Hyp = Hyp {
    text: "A1; Alg 3, beta_t and tau_t non-increasing, tau_t > 0, max{beta_t, mu} > 0; G_1 = inf_{t<=T} {1/4 - 5 Lxx tau_t/2 - 13 Lyx^2 tau_t/(2(beta_{t+1}+mu))} > 0 (computed on the run)",
    extra: Some(g1_pos),
    ..ALG3_MONO
};
const ALG3_SC: Hyp = Hyp {
    text: "A1, A2; Alg 3, tau_t in (0,1), beta_t non-increasing, max{beta_t, mu} > 0",
    a2: true,
    extra: Some(tau_unit_open),
    ..ALG3
};
const ALG3_SC_MONO: Hyp = Hyp {
    text:
        "A1, A2; Alg 3, tau_t in (0,1) non-increasing, beta_t non-increasing, max{beta_t, mu} > 0",
    a2: true,
    tau_nonincreasing: true,
    extra: Some(tau_unit_open),
    ..ALG3
};
const ALG3_SC_G2: Hyp = Hyp {
    text: "A1, A2; Alg 3, tau_t in (0,1) non-increasing, beta_t non-increasing; G_2 = inf_{t<=T} {13/16 - 5 Lxx tau_t/2 - 13 Lyx^2 tau_t/(2(beta_{t+1}+mu))} > 0",
    extra: Some(g2_pos),
    ..ALG3_SC_MONO
};

pub(super) static INVARIANTS: &[Invariant] = &[
    inv!(Step, "proj-fw-q-bounds", "lemma:proj-fw-recursive (definition of q_t; claims 1.5)",
        "H_t/2 <= q_t <= 5 H_t/4",
        ALG3, q_bounds),
    inv!(Step, "proj-fw-r-apriori", "claims 4.10 (a priori bound on r_t)",
        "|r_t| <= Fmax + Dy^2 beta_0/2 + 5 H_t/4, r_t = Phi_t + q_t (Fmax: certified bound)",
        ALG3, r_apriori),
    inv!(Step, "proj-fw-recursive", "lemma:proj-fw-recursive",
        "(1/4) min{H_t^2/((Lyy+beta_t) Dy^2), H_t} <= q_t - q_{t+1} + (2 Lxx + 4 Lyx^2/(beta_{t+1}+mu) + 1/(2 tau_t)) dx_t^2 + Dy^2 db_t^2/(Lyx^2 tau_t) + 4 Dy^2 db_t^2/(beta_{t+1}+mu) + 4 Lyx^4 (Lyy+beta_{t+1}) Dy^2 tau_t^2/(beta_{t+1}+mu)^2",
        ALG3, proj_fw_recursive),
    inv!(Step, "proj-fw-ugly", "lemma:proj-fw-primal (eq:ugly)",
        "(1/(4 tau_t) - 5 Lxx/2 - 13 Lyx^2/(2(beta_{t+1}+mu))) dx_t^2 <= r_t - r_{t+1} + Dy^2 db_t^2/(Lyx^2 tau_t) + 4 Dy^2 db_t^2/(beta_{t+1}+mu) + 8 Lyx^4 (Lyy+beta_{t+1}) Dy^2 tau_t^2/(beta_{t+1}+mu)^2",
        ALG3, proj_fw_ugly),
    inv!(Run, "proj-fw-primal-sum", "lemma:proj-fw-primal (sum)",
        "sum_{t=0}^T ||(x_{t+1}-x_t)/tau_t||^2 <= 2 sup_{t<=T+1} |r_t|/(G_1 tau_T) + sum_{t=0}^T (Dy^2 db_t^2/(G_1 Lyx^2 tau_t^2) + 4 Dy^2 db_t^2/(G_1 (beta_{t+1}+mu) tau_t) + 8 Lyx^4 (Lyy+beta_{t+1}) Dy^2 tau_t/(G_1 (beta_{t+1}+mu)^2))",
        ALG3_G1, proj_fw_primal_sum),
    inv!(Run, "proj-fw-general-bound-1", "lemma:proj-fw-general-bound (1)",
        "(1/(T+1)) sum_{t=0}^T G_X^PO(x_t,y_t; tau_0) <= [2 sup|r_t|/(G_1 (T+1) tau_T) + (1/(T+1)) sum_{t=0}^T (Dy^2 db_t^2/(G_1 Lyx^2 tau_t^2) + 4 Dy^2 db_t^2/(G_1 (beta_{t+1}+mu) tau_t) + 8 Lyx^4 (Lyy+beta_{t+1}) Dy^2 tau_t/(G_1 (beta_{t+1}+mu)^2))]^(1/2)",
        ALG3_G1, proj_fw_general_bound_1),
    inv!(Run, "proj-fw-general-bound-2", "lemma:proj-fw-general-bound (2), corrected: 4 F_1 and U_1 with Lyx (claims 7.22)",
        "(1/(T+1)) sum_{t=0}^T G_Y <= ((4 F_1/(T+1)) (2 sup|s_t| + sum_{t=0}^T [(db_t^2/(Lyx^2 tau_t) + 4 db_t^2/(beta_{t+1}+mu)) (U_1+1) Dy^2 + 4 (2U_1+1) Lyx^4 (Lyy+beta_{t+1}) Dy^2 tau_t^2/(beta_{t+1}+mu)^2]))^(1/2) + (Dy^2/(2(T+1))) sum_{t=0}^T beta_t; F_1 = sup max{H_t, (Lyy+beta_t) Dy^2}, s_t = q_t + U_1 r_t, U_1 = sup (2 Lxx + 4 Lyx^2/(beta_{t+1}+mu) + 1/(2 tau_t))/(1/(4 tau_t) - 5 Lxx/2 - 13 Lyx^2/(2(beta_{t+1}+mu)))",
        ALG3_G1, proj_fw_general_bound_2, Kind::Corrected { printed: "proj-fw-general-bound-2-printed" }),
    inv!(Run, "proj-fw-general-bound-2-printed", "lemma:proj-fw-general-bound (2) as printed",
        "same with F_1 in place of 4 F_1 and U_1 = sup (2 Lxx + 4 Lyy^2/(beta_{t+1}+mu) + 1/(2 tau_t))/(1/(4 tau_t) - 5 Lxx/2 - (12 Lyy^2 + Lyx^2)/(2(beta_{t+1}+mu)))",
        ALG3_G1, proj_fw_general_bound_2_printed, Kind::Printed { corrected: "proj-fw-general-bound-2" }),
    inv!(Step, "proj-fw-sc-recursive", "lemma:proj-fw-sc-recursive with beta_{t+1} in 4 Lyx^2/(.+mu) (claims 4.10)",
        "(1/4) min{H_t, alpha sqrt((beta_t+mu) H_t^3)/(4 sqrt2 (Lyy+beta_t))} <= r_t - r_{t+1} + (1/(8 tau_t) + 2 Lxx + 4 Lyx^2/(beta_{t+1}+mu)) dx_t^2 + Dy^2 db_t^2/(8 Lyx^2 tau_t) + 4 Dy^2 db_t^2/(beta_{t+1}+mu) + 2^18 Lyx^6 (Lyy+beta_{t+1})^2 tau_t^3/(3 alpha^2 (beta_{t+1}+mu)^4) (SC names: r_t is the H-part)",
        ALG3_SC, proj_fw_sc_recursive, Kind::Corrected { printed: "proj-fw-sc-recursive-printed" }),
    inv!(Step, "proj-fw-sc-recursive-printed", "lemma:proj-fw-sc-recursive as printed (beta_t)",
        "same with 4 Lyx^2/(beta_t+mu)",
        ALG3_SC, proj_fw_sc_recursive_printed, Kind::Printed { corrected: "proj-fw-sc-recursive" }),
    inv!(Step, "proj-fw-sc-ugly2", "lemma:proj-fw-sc-primal (eq:ugly2) with beta_{t+1} (consistent with proj-fw-sc-recursive)",
        "(13/(16 tau_t) - 5 Lxx/2 - 13 Lyx^2/(2(beta_{t+1}+mu))) dx_t^2 <= q_t - q_{t+1} + Dy^2 db_t^2/(8 Lyx^2 tau_t) + 4 Dy^2 db_t^2/(beta_{t+1}+mu) + 2^19 Lyx^6 (Lyy+beta_{t+1})^2 tau_t^3/(3 alpha^2 (beta_{t+1}+mu)^4) (SC names: q_t = Phi_t + r_t)",
        ALG3_SC_MONO, proj_fw_sc_ugly2, Kind::Corrected { printed: "proj-fw-sc-ugly2-printed" }),
    inv!(Step, "proj-fw-sc-ugly2-printed", "lemma:proj-fw-sc-primal (eq:ugly2) as printed (beta_t)",
        "same with 13 Lyx^2/(2(beta_t+mu))",
        ALG3_SC_MONO, proj_fw_sc_ugly2_printed, Kind::Printed { corrected: "proj-fw-sc-ugly2" }),
    inv!(Run, "proj-fw-sc-primal-sum", "lemma:proj-fw-sc-primal (sum)",
        "sum_{t=0}^T ||(x_{t+1}-x_t)/tau_t||^2 <= 2 sup|q_t|/(G_2 tau_T) + sum_t (Dy^2 db_t^2/(8 G_2 Lyx^2 tau_t^2) + 4 Dy^2 db_t^2/(G_2 (beta_{t+1}+mu) tau_t) + 2^19 Lyx^6 (Lyy+beta_{t+1})^2 tau_t^2/(3 alpha^2 G_2 (beta_{t+1}+mu)^4))",
        ALG3_SC_G2, proj_fw_sc_primal_sum),
    inv!(Run, "proj-fw-sc-general-bound-1", "lemma:proj-fw-sc-general-bound (1) (cites lemma:proj-fw-sc-primal, claims 7.23)",
        "(1/(T+1)) sum_{t=0}^T G_X^PO(x_t,y_t; tau_0) <= [2 sup|q_t|/(G_2 (T+1) tau_T) + (1/(T+1)) sum_t (the three terms of proj-fw-sc-primal-sum)]^(1/2)",
        ALG3_SC_G2, proj_fw_sc_general_bound_1),
    inv!(Run, "proj-fw-sc-general-bound-2", "lemma:proj-fw-sc-general-bound (2), corrected: 4 F_2 (claims 7.23)",
        "(1/(T+1)) sum_{t=0}^T G_Y <= (Dy^2/(2(T+1))) sum beta_t + (2 (4F_2) sup|s_t|/((T+1)(beta_T+mu)^(1/2)))^(2/3) + ((4F_2/(T+1)) sum_t [(1+U_2) Dy^2 (db_t^2/(8 Lyx^2 tau_t (beta_t+mu)^(1/2)) + 4 db_t^2/(beta_{t+1}+mu)^(3/2)) + 2^18 (1+2U_2) Lyx^6 (Lyy+beta_{t+1})^2 tau_t^3/(3 alpha^2 (beta_{t+1}+mu)^(9/2))])^(2/3); U_2 = sup (1/(8tau_t) + 2Lxx + 4Lyx^2/(beta_{t+1}+mu))/(13/(16tau_t) - 5Lxx/2 - 13Lyx^2/(2(beta_{t+1}+mu))), F_2 = sup max{4 sqrt2 (Lyy+beta_t)/alpha, sqrt((beta_t+mu) H_t)}, s_t = r_t + U_2 q_t (SC names)",
        ALG3_SC_G2, proj_fw_sc_general_bound_2, Kind::Corrected { printed: "proj-fw-sc-general-bound-2-printed" }),
    inv!(Run, "proj-fw-sc-general-bound-2-printed", "lemma:proj-fw-sc-general-bound (2) as printed (F_2, beta_t in U_2)",
        "same with F_2 in place of 4 F_2 and beta_t in place of beta_{t+1} in U_2",
        ALG3_SC_G2, proj_fw_sc_general_bound_2_printed, Kind::Printed { corrected: "proj-fw-sc-general-bound-2" }),
];

fn tau_pos(r: &RunCtx) -> bool {
    r.steps.iter().all(|d| d.info.tau > 0.0)
}

fn tau_unit_open(r: &RunCtx) -> bool {
    r.steps.iter().all(|d| d.info.tau > 0.0 && d.info.tau < 1.0)
}

/// `G_1` over the run (`lemma:proj-fw-primal`).
pub(super) fn g1(r: &RunCtx) -> f64 {
    (0..r.horizon())
        .map(|t| {
            let c = Tr::new(r, t);
            0.25 - 2.5 * c.lxx * c.tau - 6.5 * c.lyx * c.lyx * c.tau / (c.b1 + c.mu)
        })
        .fold(f64::INFINITY, f64::min)
}

fn g1_pos(r: &RunCtx) -> bool {
    tau_pos(r) && g1(r) > 0.0
}

/// `G_2` over the run with `beta_{t+1}` (or `beta_t` when `printed`).
fn g2_with(r: &RunCtx, printed: bool) -> f64 {
    (0..r.horizon())
        .map(|t| {
            let c = Tr::new(r, t);
            let b = if printed { c.b } else { c.b1 };
            13.0 / 16.0 - 2.5 * c.lxx * c.tau - 6.5 * c.lyx * c.lyx * c.tau / (b + c.mu)
        })
        .fold(f64::INFINITY, f64::min)
}

fn g2_pos(r: &RunCtx) -> bool {
    tau_unit_open(r) && g2_with(r, false) > 0.0
}

/// The H-part `q(H, beta)` of the non-SC section.
fn q_of(h: f64, b: f64, lyy: f64, dy: f64) -> f64 {
    let h = h.max(0.0);
    let w = (lyy + b) * dy * dy;
    (h / 2.0).max(h - h * h / (2.0 * w)) + 0.25 * (h * h / w).min(h)
}

/// `q_t` and `r_t = Phi_t + q_t` at iterate t.
fn qr(r: &RunCtx, t: usize) -> (f64, f64) {
    let s = &r.snaps[t];
    let q = q_of(s.h, s.beta, r.k.lyy, r.k.dy);
    (q, r.phi(t) + q)
}

/// `2 alpha sqrt((b+mu)H^3)/(8 sqrt2 (Lyy+b))` pieces of the SC section: returns
/// `kappa H^(3/2)` with `kappa = alpha sqrt(b+mu)/(8 sqrt2 (Lyy+b))`.
fn kh(r: &RunCtx, h: f64, b: f64) -> f64 {
    let alpha = r.k.alpha.unwrap_or(0.0);
    let h = h.max(0.0);
    alpha * ((b + r.k.mu) * h * h * h).sqrt() / (8.0 * 2f64.sqrt() * (r.k.lyy + b))
}

/// The SC H-part (paper: r_t) and potential (paper: q_t = Phi_t + r_t) at iterate t.
fn qr_sc(r: &RunCtx, t: usize) -> (f64, f64) {
    let s = &r.snaps[t];
    let h = s.h.max(0.0);
    let k = kh(r, h, s.beta);
    let part = (h / 2.0).max(h - k) + 0.25 * h.min(2.0 * k);
    (part, r.phi(t) + part)
}

fn steps(r: &RunCtx, t: usize, f: impl Fn(&Tr) -> Vec<Eval>) -> Vec<Eval> {
    f(&Tr::new(r, t)).into_iter().map(|e| e.at(t)).collect()
}

/// `H_t/2 <= q_t <= 5 H_t/4`.
fn q_bounds(r: &RunCtx, t: usize) -> Vec<Eval> {
    let h = r.snaps[t].h.max(0.0);
    let (q, _) = qr(r, t);
    let vs = r.fmax + r.snaps[t].width;
    vec![
        Eval::le(h / 2.0, q, vs).at(t),
        Eval::le(q, 1.25 * h, vs).at(t),
    ]
}

/// `|r_t| <= Fmax + Dy^2 beta_0/2 + 5 H_t/4`.
fn r_apriori(r: &RunCtx, t: usize) -> Vec<Eval> {
    let (_, rt) = qr(r, t);
    let rhs = r.fmax + r.k.dy * r.k.dy * r.snaps[0].beta / 2.0 + 1.25 * r.snaps[t].h.max(0.0);
    vec![Eval::le(rt.abs(), rhs, r.fmax).at(t)]
}

/// The three "extra" terms shared by `lemma:proj-fw-recursive` and `eq:ugly`
/// (`last` is the coefficient of the `Lyx^4` term: 4 or 8).
fn extras(c: &Tr, last: f64) -> f64 {
    let db2 = c.d.db * c.d.db;
    c.dyd * c.dyd * db2 / (c.lyx * c.lyx * c.tau)
        + 4.0 * c.dyd * c.dyd * db2 / (c.b1 + c.mu)
        + last * c.lyx.powi(4) * (c.lyy + c.b1) * c.dyd * c.dyd * c.tau * c.tau
            / (c.b1 + c.mu).powi(2)
}

/// `lemma:proj-fw-recursive`: `(1/4) min{H_t^2/((Lyy+beta_t) Dy^2), H_t} <= q_t - q_{t+1} + (2 Lxx + 4 Lyx^2/(beta_{t+1}+mu) + 1/(2 tau_t)) dx_t^2 + Dy^2 db_t^2/(Lyx^2 tau_t) + 4 Dy^2 db_t^2/(beta_{t+1}+mu) + 4 Lyx^4 (Lyy+beta_{t+1}) Dy^2 tau_t^2/(beta_{t+1}+mu)^2`.
fn proj_fw_recursive(r: &RunCtx, t: usize) -> Vec<Eval> {
    let (q0, _) = qr(r, t);
    let (q1, _) = qr(r, t + 1);
    steps(r, t, |c| {
        let h = c.s.h.max(0.0);
        let lhs = 0.25 * (h * h / ((c.lyy + c.b) * c.dyd * c.dyd)).min(h);
        let coef = 2.0 * c.lxx + 4.0 * c.lyx * c.lyx / (c.b1 + c.mu) + 1.0 / (2.0 * c.tau);
        let rhs = q0 - q1 + coef * c.d.dx * c.d.dx + extras(c, 4.0);
        vec![Eval::le(lhs, rhs, c.vs)]
    })
}

/// `eq:ugly`: `(1/(4 tau_t) - 5 Lxx/2 - 13 Lyx^2/(2(beta_{t+1}+mu))) dx_t^2 <= r_t - r_{t+1} + Dy^2 db_t^2/(Lyx^2 tau_t) + 4 Dy^2 db_t^2/(beta_{t+1}+mu) + 8 Lyx^4 (Lyy+beta_{t+1}) Dy^2 tau_t^2/(beta_{t+1}+mu)^2`.
fn proj_fw_ugly(r: &RunCtx, t: usize) -> Vec<Eval> {
    let (_, r0) = qr(r, t);
    let (_, r1) = qr(r, t + 1);
    steps(r, t, |c| {
        let coef = 1.0 / (4.0 * c.tau) - 2.5 * c.lxx - 6.5 * c.lyx * c.lyx / (c.b1 + c.mu);
        vec![Eval::le(
            coef * c.d.dx * c.d.dx,
            r0 - r1 + extras(c, 8.0),
            c.vs,
        )]
    })
}

/// Per-t terms of the summed primal bound divided by G (`lemma:proj-fw-primal`), i.e.
/// `(extras with 8)/tau_t`.
fn primal_terms(r: &RunCtx) -> Vec<f64> {
    (0..r.horizon())
        .map(|t| {
            let c = Tr::new(r, t);
            extras(&c, 8.0) / c.tau
        })
        .collect()
}

/// Running `sup_{t <= T+1} |value(t)|` for every T.
fn running_sup_next(r: &RunCtx, f: impl Fn(usize) -> f64) -> Vec<f64> {
    let mut m = f(0).abs();
    (0..r.horizon())
        .map(|t| {
            m = m.max(f(t).abs()).max(f(t + 1).abs());
            m
        })
        .collect()
}

/// Evaluates `sum_{t<=T} lhs_t / scale <= (2 sup|pot|/tau_T + sum terms_t)/G` for every T, or
/// its averaged square-root form.
fn primal_sum_evals(
    r: &RunCtx,
    lhs_t: impl Fn(usize) -> f64,
    pot: impl Fn(usize) -> f64,
    terms: &[f64],
    g: f64,
    averaged: bool,
) -> Vec<Eval> {
    let sup = running_sup_next(r, pot);
    let (mut sl, mut st) = (0.0, 0.0);
    let mut out = Vec::new();
    for t in 0..r.horizon() {
        sl += lhs_t(t);
        st += terms[t];
        let tau_t = r.steps[t].info.tau;
        let bound = (2.0 * sup[t] / tau_t + st) / g;
        let n = (t + 1) as f64;
        let e = if averaged {
            Eval::le(sl / n, (bound / n).sqrt(), (r.fmax / tau_t).sqrt())
        } else {
            Eval::le(sl, bound, r.fmax / tau_t)
        };
        out.push(e.at(t));
    }
    out
}

fn step_ratio2(r: &RunCtx, t: usize) -> f64 {
    let d = r.steps[t].dx / r.steps[t].info.tau;
    d * d
}

/// `lemma:proj-fw-primal` (sum): `sum_{t<=T} ||(x_{t+1}-x_t)/tau_t||^2 <= (2 sup_{t<=T+1} |r_t|/tau_T + sum_{t<=T} (eq:ugly extras)/tau_t)/G_1`.
fn proj_fw_primal_sum(r: &RunCtx) -> Vec<Eval> {
    let terms = primal_terms(r);
    primal_sum_evals(
        r,
        |t| step_ratio2(r, t),
        |t| qr(r, t).1,
        &terms,
        g1(r),
        false,
    )
}

/// `lemma:proj-fw-general-bound` (1): `avg_{t<=T} G_X^PO(x_t,y_t; tau_0) <= [(2 sup|r_t|/tau_T + sum_{t<=T} (eq:ugly extras)/tau_t)/(G_1 (T+1))]^(1/2)`.
fn proj_fw_general_bound_1(r: &RunCtx) -> Vec<Eval> {
    let terms = primal_terms(r);
    primal_sum_evals(r, |t| r.snaps[t].gx_po, |t| qr(r, t).1, &terms, g1(r), true)
}

/// `lemma:proj-fw-general-bound` (2); `printed` selects F_1 and the printed U_1.
fn general_bound_2(r: &RunCtx, printed: bool) -> Vec<Eval> {
    let k = r.k;
    let u1 = (0..r.horizon())
        .map(|t| {
            let c = Tr::new(r, t);
            let bb = c.b1 + c.mu;
            let (num, den) = if printed {
                (
                    2.0 * c.lxx + 4.0 * c.lyy * c.lyy / bb + 1.0 / (2.0 * c.tau),
                    1.0 / (4.0 * c.tau)
                        - 2.5 * c.lxx
                        - (12.0 * c.lyy * c.lyy + c.lyx * c.lyx) / (2.0 * bb),
                )
            } else {
                (
                    2.0 * c.lxx + 4.0 * c.lyx * c.lyx / bb + 1.0 / (2.0 * c.tau),
                    1.0 / (4.0 * c.tau) - 2.5 * c.lxx - 6.5 * c.lyx * c.lyx / bb,
                )
            };
            if den > 0.0 {
                num / den
            } else {
                f64::NAN
            }
        })
        .fold(0.0f64, |m, v| {
            if v.is_nan() || m.is_nan() {
                f64::NAN
            } else {
                m.max(v)
            }
        });
    let f_mult = if printed { 1.0 } else { 4.0 };
    let sup_s = running_sup_next(r, |t| {
        let (q, rt) = qr(r, t);
        q + u1 * rt
    });
    let (mut sg, mut sb, mut st, mut f1) = (0.0, 0.0, 0.0, 0.0f64);
    let mut out = Vec::new();
    for t in 0..r.horizon() {
        let c = Tr::new(r, t);
        let s = &r.snaps[t];
        sg += s.gy;
        sb += s.beta;
        f1 = f1.max(s.h).max((k.lyy + s.beta) * k.dy * k.dy);
        let db2 = c.d.db * c.d.db;
        let bb = c.b1 + c.mu;
        st += (db2 / (c.lyx * c.lyx * c.tau) + 4.0 * db2 / bb) * (u1 + 1.0) * k.dy * k.dy
            + 4.0 * (2.0 * u1 + 1.0) * c.lyx.powi(4) * (c.lyy + c.b1) * k.dy * k.dy * c.tau * c.tau
                / (bb * bb);
        let n = (t + 1) as f64;
        let rhs = (f_mult * f1 / n * (2.0 * sup_s[t] + st)).sqrt() + k.dy * k.dy * sb / (2.0 * n);
        out.push(Eval::le(sg / n, rhs, r.fmax).at(t).undefined_if(if printed {
            "U_1 undefined: the printed denominator 1/(4 tau_t) - 5 Lxx/2 - (12 Lyy^2 + Lyx^2)/(2(beta_{t+1}+mu)) is <= 0 at some t of the run"
        } else {
            "U_1 undefined: the denominator 1/(4 tau_t) - 5 Lxx/2 - 13 Lyx^2/(2(beta_{t+1}+mu)) is <= 0 at some t of the run"
        }));
    }
    out
}

/// `lemma:proj-fw-general-bound` (2), corrected (4 F_1, U_1 with Lyx): see the registry statement.
fn proj_fw_general_bound_2(r: &RunCtx) -> Vec<Eval> {
    general_bound_2(r, false)
}

/// `lemma:proj-fw-general-bound` (2), printed.
fn proj_fw_general_bound_2_printed(r: &RunCtx) -> Vec<Eval> {
    general_bound_2(r, true)
}

/// The SC extra terms; `last` is the coefficient of the tau^3 term (2^18 or 2^19).
fn sc_extras(c: &Tr, alpha: f64, last: f64) -> f64 {
    let db2 = c.d.db * c.d.db;
    c.dyd * c.dyd * db2 / (8.0 * c.lyx * c.lyx * c.tau)
        + 4.0 * c.dyd * c.dyd * db2 / (c.b1 + c.mu)
        + last * c.lyx.powi(6) * (c.lyy + c.b1).powi(2) * c.tau.powi(3)
            / (3.0 * alpha * alpha * (c.b1 + c.mu).powi(4))
}

fn sc_recursive(r: &RunCtx, t: usize, printed: bool) -> Vec<Eval> {
    let alpha = r.k.alpha.unwrap_or(0.0);
    let (p0, _) = qr_sc(r, t);
    let (p1, _) = qr_sc(r, t + 1);
    steps(r, t, |c| {
        let h = c.s.h.max(0.0);
        let lhs = 0.25 * h.min(2.0 * kh(r, h, c.b));
        let bsel = if printed { c.b } else { c.b1 };
        let coef = 1.0 / (8.0 * c.tau) + 2.0 * c.lxx + 4.0 * c.lyx * c.lyx / (bsel + c.mu);
        let rhs = p0 - p1 + coef * c.d.dx * c.d.dx + sc_extras(c, alpha, 2f64.powi(18));
        vec![Eval::le(lhs, rhs, c.vs)]
    })
}

/// `lemma:proj-fw-sc-recursive` with `beta_{t+1}`: `(1/4) min{H_t, alpha sqrt((beta_t+mu) H_t^3)/(4 sqrt2 (Lyy+beta_t))} <= r_t - r_{t+1} + (1/(8 tau_t) + 2 Lxx + 4 Lyx^2/(beta_{t+1}+mu)) dx_t^2 + Dy^2 db_t^2/(8 Lyx^2 tau_t) + 4 Dy^2 db_t^2/(beta_{t+1}+mu) + 2^18 Lyx^6 (Lyy+beta_{t+1})^2 tau_t^3/(3 alpha^2 (beta_{t+1}+mu)^4)` (SC names).
fn proj_fw_sc_recursive(r: &RunCtx, t: usize) -> Vec<Eval> {
    sc_recursive(r, t, false)
}

/// `lemma:proj-fw-sc-recursive` as printed (`beta_t`).
fn proj_fw_sc_recursive_printed(r: &RunCtx, t: usize) -> Vec<Eval> {
    sc_recursive(r, t, true)
}

fn sc_ugly2(r: &RunCtx, t: usize, printed: bool) -> Vec<Eval> {
    let alpha = r.k.alpha.unwrap_or(0.0);
    let (_, q0) = qr_sc(r, t);
    let (_, q1) = qr_sc(r, t + 1);
    steps(r, t, |c| {
        let bsel = if printed { c.b } else { c.b1 };
        let coef = 13.0 / (16.0 * c.tau) - 2.5 * c.lxx - 6.5 * c.lyx * c.lyx / (bsel + c.mu);
        let rhs = q0 - q1 + sc_extras(c, alpha, 2f64.powi(19));
        vec![Eval::le(coef * c.d.dx * c.d.dx, rhs, c.vs)]
    })
}

/// `eq:ugly2` with `beta_{t+1}`: `(13/(16 tau_t) - 5 Lxx/2 - 13 Lyx^2/(2(beta_{t+1}+mu))) dx_t^2 <= q_t - q_{t+1} + Dy^2 db_t^2/(8 Lyx^2 tau_t) + 4 Dy^2 db_t^2/(beta_{t+1}+mu) + 2^19 Lyx^6 (Lyy+beta_{t+1})^2 tau_t^3/(3 alpha^2 (beta_{t+1}+mu)^4)` (SC names).
fn proj_fw_sc_ugly2(r: &RunCtx, t: usize) -> Vec<Eval> {
    sc_ugly2(r, t, false)
}

/// `eq:ugly2` as printed.
fn proj_fw_sc_ugly2_printed(r: &RunCtx, t: usize) -> Vec<Eval> {
    sc_ugly2(r, t, true)
}

fn sc_primal_terms(r: &RunCtx) -> Vec<f64> {
    let alpha = r.k.alpha.unwrap_or(0.0);
    (0..r.horizon())
        .map(|t| {
            let c = Tr::new(r, t);
            sc_extras(&c, alpha, 2f64.powi(19)) / c.tau
        })
        .collect()
}

/// `lemma:proj-fw-sc-primal` (sum): `sum_{t<=T} ||(x_{t+1}-x_t)/tau_t||^2 <= (2 sup_{t<=T+1} |q_t|/tau_T + sum_{t<=T} (eq:ugly2 extras)/tau_t)/G_2`.
fn proj_fw_sc_primal_sum(r: &RunCtx) -> Vec<Eval> {
    let terms = sc_primal_terms(r);
    primal_sum_evals(
        r,
        |t| step_ratio2(r, t),
        |t| qr_sc(r, t).1,
        &terms,
        g2_with(r, false),
        false,
    )
}

/// `lemma:proj-fw-sc-general-bound` (1): `avg_{t<=T} G_X^PO(x_t,y_t; tau_0) <= [(2 sup|q_t|/tau_T + sum_{t<=T} (eq:ugly2 extras)/tau_t)/(G_2 (T+1))]^(1/2)`.
fn proj_fw_sc_general_bound_1(r: &RunCtx) -> Vec<Eval> {
    let terms = sc_primal_terms(r);
    primal_sum_evals(
        r,
        |t| r.snaps[t].gx_po,
        |t| qr_sc(r, t).1,
        &terms,
        g2_with(r, false),
        true,
    )
}

fn sc_general_bound_2(r: &RunCtx, printed: bool) -> Vec<Eval> {
    let k = r.k;
    let Some(alpha) = k.alpha else { return vec![] };
    let u2 = (0..r.horizon())
        .map(|t| {
            let c = Tr::new(r, t);
            let bsel = if printed { c.b } else { c.b1 };
            let num = 1.0 / (8.0 * c.tau) + 2.0 * c.lxx + 4.0 * c.lyx * c.lyx / (bsel + c.mu);
            let den = 13.0 / (16.0 * c.tau) - 2.5 * c.lxx - 6.5 * c.lyx * c.lyx / (bsel + c.mu);
            if den > 0.0 {
                num / den
            } else {
                f64::NAN
            }
        })
        .fold(0.0f64, |m, v| {
            if v.is_nan() || m.is_nan() {
                f64::NAN
            } else {
                m.max(v)
            }
        });
    let f_mult = if printed { 1.0 } else { 4.0 };
    let sup_s = running_sup_next(r, |t| {
        let (part, pot) = qr_sc(r, t);
        part + u2 * pot
    });
    let (mut sg, mut sb, mut st, mut f2) = (0.0, 0.0, 0.0, 0.0f64);
    let mut out = Vec::new();
    for t in 0..r.horizon() {
        let c = Tr::new(r, t);
        let s = &r.snaps[t];
        sg += s.gy;
        sb += s.beta;
        f2 = f2
            .max(4.0 * 2f64.sqrt() * (k.lyy + s.beta) / alpha)
            .max(((s.beta + k.mu) * s.h.max(0.0)).sqrt());
        let db2 = c.d.db * c.d.db;
        st += (1.0 + u2)
            * k.dy
            * k.dy
            * (db2 / (8.0 * c.lyx * c.lyx * c.tau * (c.b + c.mu).sqrt())
                + 4.0 * db2 / (c.b1 + c.mu).powf(1.5))
            + 2f64.powi(18)
                * (1.0 + 2.0 * u2)
                * c.lyx.powi(6)
                * (c.lyy + c.b1).powi(2)
                * c.tau.powi(3)
                / (3.0 * alpha * alpha * (c.b1 + c.mu).powf(4.5));
        let n = (t + 1) as f64;
        let ff = f_mult * f2;
        let rhs = k.dy * k.dy * sb / (2.0 * n)
            + (2.0 * ff * sup_s[t] / (n * (r.snaps[t].beta + k.mu).sqrt())).powf(2.0 / 3.0)
            + (ff / n * st).powf(2.0 / 3.0);
        out.push(Eval::le(sg / n, rhs, r.fmax).at(t).undefined_if(if printed {
            "U_2 undefined: the denominator 13/(16 tau_t) - 5 Lxx/2 - 13 Lyx^2/(2(beta_t+mu)) (printed beta_t) is <= 0 at some t of the run"
        } else {
            "U_2 undefined: the denominator 13/(16 tau_t) - 5 Lxx/2 - 13 Lyx^2/(2(beta_{t+1}+mu)) is <= 0 at some t of the run"
        }));
    }
    out
}

/// `lemma:proj-fw-sc-general-bound` (2), corrected (4 F_2): see the registry statement.
fn proj_fw_sc_general_bound_2(r: &RunCtx) -> Vec<Eval> {
    sc_general_bound_2(r, false)
}

/// `lemma:proj-fw-sc-general-bound` (2), printed (F_2).
fn proj_fw_sc_general_bound_2_printed(r: &RunCtx) -> Vec<Eval> {
    sc_general_bound_2(r, true)
}
