//! Point invariants: the measures (claims.md Sec. 4.1) and the smoothing calculus
//! (`lemma:calculus`, `lemma:difference`, Sec. 4.2). Each holds at every point of `X x Y` for
//! every admissible `beta >= beta' >= 0` and `sigma > sigma' > 0`, so it is evaluated at random
//! points and at every iterate of every run.

use super::context::{grad_x, grad_y_beta, l_beta, Hyp, PointCtx, XStar, NO_HYP};
use super::invariant::{Check, Invariant};
use super::model::{Eval, Kind, Scope};
use crate::linalg::{dist, norm};

const SMOOTH: Hyp = Hyp {
    text: "A1; beta >= beta' >= 0 with max{beta, mu} > 0; any x, x' in X, y in Y",
    smoothing: true,
    ..NO_HYP
};
const ANY: Hyp = Hyp {
    text: "A1; any (x, y) in X x Y",
    ..NO_HYP
};

pub(super) static INVARIANTS: &[Invariant] = &[
    inv!(Point, "gy-nonneg", "L456 (gap:y)", "0 <= G_Y(x,y)", ANY, gy_nonneg),
    inv!(Point, "gy-lmo-nonneg", "L456 (L510)", "0 <= G_Y^LMO(x,y)", ANY, gy_lmo_nonneg),
    inv!(Point, "gx-lmo-nonneg", "L456 (gap:fw)", "0 <= G_X^LMO(x,y)", ANY, gx_lmo_nonneg),
    inv!(Point, "gx-po-nonneg", "L456 (gap:proj)", "0 <= G_X^PO(x,y) (any sigma > 0)", ANY, gx_po_nonneg),
    inv!(Point, "h-nonneg", "eq:H_t", "0 <= H = L_beta(x, y*_beta(x)) - L_beta(x, y)", SMOOTH, h_nonneg),
    inv!(Point,
        "g-opt-nonneg",
        "L456 (gap:opt)",
        "0 <= G^Opt(x) = f(x) - min_X f",
        Hyp { text: "A1; f* known (saddle family)", xstar: XStar::Argmin, ..NO_HYP },
        g_opt_nonneg
    ),
    inv!(Point,
        "g-dual-nonneg",
        "L456 (L437-439)",
        "0 <= G^Dual(x,y) = max_u L(x,u) - min_v L(v,y) (random points only: certified inner min)",
        Hyp { text: "A1, A3; any (x, y)", a3: true, ..NO_HYP },
        g_dual_nonneg
    ),
    inv!(Point, "gy-le-gy-lmo", "L510", "G_Y(x,y) <= G_Y^LMO(x,y)", ANY, gy_le_gy_lmo),
    inv!(Point,
        "repeat-proj-fw-lmo-by-po",
        "lemma:proj->fw / lemma:repeat-proj->fw (first)",
        "G_X^LMO(x,y) <= (sigma ||grad_x L(x,y)|| + Dx) G_X^PO(x,y; sigma)",
        ANY,
        proj_fw_lmo_by_po
    ),
    inv!(Point,
        "repeat-proj-fw-po-by-lmo",
        "lemma:repeat-proj->fw (second)",
        "G_X^PO(x,y; sigma) <= sqrt(G_X^LMO(x,y) / sigma)",
        ANY,
        proj_fw_po_by_lmo
    ),
    inv!(Point,
        "gradient-mapping-monotone",
        "L1705-1708 (Beck Thm 10.9)",
        "sigma' < sigma  =>  G_X^PO(x,y; sigma) <= G_X^PO(x,y; sigma')",
        ANY,
        gradient_mapping_monotone
    ),
    inv!(Point,
        "calculus-i-strong-concavity",
        "lemma:calculus (i)",
        "(beta+mu)/2 ||y*_beta(x) - y||^2 <= L_beta(x, y*_beta(x)) - L_beta(x, y)",
        SMOOTH,
        calculus_i
    ),
    Invariant {
        name: "calculus-ii-gradient-bound",
        label: "lemma:calculus (ii) as printed (true but loose by 4; implied by calculus-ii-sharp)",
        statement: "L_beta(x, y*_beta(x)) - L_beta(x, y) <= 2/(beta+mu) ||grad_y L_beta(x,y)||^2",
        hyp: SMOOTH,
        scope: Scope::Point,
        gating: false,
        kind: Kind::Printed { corrected: "calculus-ii-sharp" },
        check: Check::Point(calculus_ii),
    },
    Invariant {
        name: "calculus-ii-sharp",
        label: "lemma:calculus (ii), sharp form (claims 7.8; the constant the proof of lemma:almost-strongly-convex-recursion uses, L1701)",
        statement: "L_beta(x, y*_beta(x)) - L_beta(x, y) <= ||grad_y L_beta(x,y)||^2 / (2(beta+mu))",
        hyp: SMOOTH,
        scope: Scope::Point,
        gating: true,
        kind: Kind::Corrected { printed: "calculus-ii-gradient-bound" },
        check: Check::Point(calculus_ii_sharp),
    },
    inv!(Point,
        "calculus-iii-lipschitz",
        "lemma:calculus (iii)",
        "||y*_beta(x) - y*_beta(x')|| <= Lyx/(beta+mu) ||x - x'||",
        SMOOTH,
        calculus_iii
    ),
    inv!(Point,
        "calculus-iv-danskin",
        "lemma:calculus (iv) (with (v))",
        "|f_beta(x') - f_beta(x) - grad_x L(x, y*_beta(x))^T (x'-x)| <= L_{f_beta}/2 ||x'-x||^2, L_{f_beta} = Lxx + Lyx^2/(beta+mu)",
        SMOOTH,
        calculus_iv
    ),
    inv!(Point,
        "calculus-v-smooth",
        "lemma:calculus (v)",
        "||grad f_beta(x) - grad f_beta(x')|| <= (Lxx + Lyx^2/(beta+mu)) ||x - x'||, grad f_beta(x) = grad_x L(x, y*_beta(x))",
        SMOOTH,
        calculus_v
    ),
    inv!(Point,
        "calculus-vi-changing-beta",
        "lemma:calculus (vi)",
        "0 <= f_{beta'}(x) - f_beta(x) <= Dy^2 (beta - beta')/2",
        SMOOTH,
        calculus_vi
    ),
    inv!(Point,
        "difference",
        "lemma:difference",
        "||y*_beta(x) - y*_{beta'}(x)|| <= 2 Dy (beta - beta')/(beta' + mu) (where max{beta', mu} > 0)",
        SMOOTH,
        difference
    ),
    inv!(Point,
        "h-lower-bound",
        "eq:H_t consequence (L1383-1385)",
        "(beta+mu)/2 ||y*_beta(x) - y||^2 <= H (H from the measure set)",
        SMOOTH,
        h_lower_bound
    ),
    inv!(Point,
        "common-upper-bounds-1",
        "lemma:common-upper-bounds (1)",
        "G_Y(x,y) <= H_beta(x,y) + Dy^2 beta/2 (any y)",
        SMOOTH,
        common_upper_bounds_1
    ),
];

/// `0 <= G_Y(x,y)`.
fn gy_nonneg(c: &PointCtx) -> Vec<Eval> {
    let g = (c.measures.gy)(c.problem, &c.x, &c.y);
    vec![Eval::le(0.0, g.mid(), c.vs + g.width())]
}

/// `0 <= G_Y^LMO(x,y)`.
fn gy_lmo_nonneg(c: &PointCtx) -> Vec<Eval> {
    let g = (c.measures.gy_lmo)(c.problem, &c.x, &c.y);
    vec![Eval::le(0.0, g, c.vs)]
}

/// `0 <= G_X^LMO(x,y)`.
fn gx_lmo_nonneg(c: &PointCtx) -> Vec<Eval> {
    let g = (c.measures.gx_lmo)(c.problem, &c.x, &c.y);
    vec![Eval::le(0.0, g, c.vs)]
}

/// `0 <= G_X^PO(x,y; sigma)`.
fn gx_po_nonneg(c: &PointCtx) -> Vec<Eval> {
    let g = (c.measures.gx_po)(c.problem, &c.x, &c.y, c.sigma);
    vec![Eval::le(0.0, g, 0.0)]
}

/// `0 <= H`.
fn h_nonneg(c: &PointCtx) -> Vec<Eval> {
    let h = (c.measures.h)(c.problem, &c.x, &c.y, c.beta, &c.y0);
    vec![Eval::le(0.0, h.mid(), c.vs + h.width())]
}

/// `0 <= f(x) - f*`.
fn g_opt_nonneg(c: &PointCtx) -> Vec<Eval> {
    let Some(fs) = c.f_star else { return vec![] };
    let f = c.problem.f(&c.x);
    vec![Eval::le(fs.mid(), f.mid(), c.vs + f.width() + fs.width())]
}

/// `0 <= G^Dual(x,y)` (evaluated at random points only; the inner min is a certified solve).
fn g_dual_nonneg(c: &PointCtx) -> Vec<Eval> {
    if c.t.is_some() {
        return vec![];
    }
    match crate::measures::g_dual(c.problem, &c.x, &c.y) {
        Some(g) => vec![Eval::le(0.0, g.upper, c.vs + g.width())],
        None => vec![],
    }
}

/// `G_Y(x,y) <= G_Y^LMO(x,y)`.
fn gy_le_gy_lmo(c: &PointCtx) -> Vec<Eval> {
    let g = (c.measures.gy)(c.problem, &c.x, &c.y);
    let gl = (c.measures.gy_lmo)(c.problem, &c.x, &c.y);
    vec![Eval::le(g.mid(), gl, c.vs + g.width())]
}

/// `G_X^LMO <= (sigma ||grad_x L|| + Dx) G_X^PO(sigma)`, at sigma and sigma'.
fn proj_fw_lmo_by_po(c: &PointCtx) -> Vec<Eval> {
    let gl = (c.measures.gx_lmo)(c.problem, &c.x, &c.y);
    let gn = norm(&grad_x(c.problem, &c.x, &c.y));
    [c.sigma, c.sigma2]
        .iter()
        .map(|&s| {
            let gp = (c.measures.gx_po)(c.problem, &c.x, &c.y, s);
            Eval::le(gl, (s * gn + c.k.dx) * gp, c.vs)
        })
        .collect()
}

/// `G_X^PO(sigma) <= sqrt(G_X^LMO / sigma)`, at sigma and sigma'.
fn proj_fw_po_by_lmo(c: &PointCtx) -> Vec<Eval> {
    let gl = (c.measures.gx_lmo)(c.problem, &c.x, &c.y);
    [c.sigma, c.sigma2]
        .iter()
        .map(|&s| {
            let gp = (c.measures.gx_po)(c.problem, &c.x, &c.y, s);
            // squared form avoids sqrt of a rounding-negative gap
            Eval::le(s * gp * gp, gl, c.vs)
        })
        .collect()
}

/// `G_X^PO(sigma) <= G_X^PO(sigma')` for `sigma' < sigma`.
fn gradient_mapping_monotone(c: &PointCtx) -> Vec<Eval> {
    let g1 = (c.measures.gx_po)(c.problem, &c.x, &c.y, c.sigma);
    let g2 = (c.measures.gx_po)(c.problem, &c.x, &c.y, c.sigma2);
    let gn = norm(&grad_x(c.problem, &c.x, &c.y));
    vec![Eval::le(g1, g2, gn + c.k.dx / c.sigma2)]
}

/// Shared pieces: `y*_beta(x)`, the gap `L_beta(x,y*) - L_beta(x,y)` (direct, not via the
/// measure set) and its value scale.
fn inner_gap(c: &PointCtx) -> (Vec<f64>, f64, f64) {
    let inner = c.ystar(&c.x, c.beta);
    let gap = inner.value.mid() - l_beta(c.problem, &c.x, &c.y, c.beta, &c.y0);
    (inner.y, gap, c.vs + inner.value.width())
}

/// `(beta+mu)/2 ||y*_beta(x) - y||^2 <= L_beta(x, y*_beta(x)) - L_beta(x, y)`.
fn calculus_i(c: &PointCtx) -> Vec<Eval> {
    let (ys, gap, vs) = inner_gap(c);
    let d = dist(&ys, &c.y);
    vec![Eval::le((c.beta + c.k.mu) / 2.0 * d * d, gap, vs)]
}

/// `L_beta(x,y*) - L_beta(x,y) <= 2/(beta+mu) ||grad_y L_beta||^2`.
fn calculus_ii(c: &PointCtx) -> Vec<Eval> {
    let (_, gap, vs) = inner_gap(c);
    let g = norm(&grad_y_beta(c.problem, &c.x, &c.y, c.beta, &c.y0));
    vec![Eval::le(gap, 2.0 / (c.beta + c.k.mu) * g * g, vs)]
}

/// `L_beta(x,y*) - L_beta(x,y) <= ||grad_y L_beta||^2 / (2(beta+mu))`.
fn calculus_ii_sharp(c: &PointCtx) -> Vec<Eval> {
    let (_, gap, vs) = inner_gap(c);
    let g = norm(&grad_y_beta(c.problem, &c.x, &c.y, c.beta, &c.y0));
    vec![Eval::le(gap, g * g / (2.0 * (c.beta + c.k.mu)), vs)]
}

/// `||y*_beta(x) - y*_beta(x')|| <= Lyx/(beta+mu) ||x - x'||`.
fn calculus_iii(c: &PointCtx) -> Vec<Eval> {
    let a = c.ystar(&c.x, c.beta).y;
    let b = c.ystar(&c.x2, c.beta).y;
    let rhs = c.k.lyx / (c.beta + c.k.mu) * dist(&c.x, &c.x2);
    vec![Eval::le(dist(&a, &b), rhs, c.k.dy)]
}

fn l_f(c: &PointCtx) -> f64 {
    c.k.lxx + c.k.lyx * c.k.lyx / (c.beta + c.k.mu)
}

/// `|f_beta(x') - f_beta(x) - grad f_beta(x)^T (x'-x)| <= L_{f_beta}/2 ||x'-x||^2` with
/// `grad f_beta(x) = grad_x L(x, y*_beta(x))` (Danskin).
fn calculus_iv(c: &PointCtx) -> Vec<Eval> {
    let a = c.ystar(&c.x, c.beta);
    let b = c.ystar(&c.x2, c.beta);
    let g = grad_x(c.problem, &c.x, &a.y);
    let d: Vec<f64> = c.x2.iter().zip(&c.x).map(|(p, q)| p - q).collect();
    let lin = b.value.mid() - a.value.mid() - crate::linalg::dot(&g, &d);
    let r = l_f(c) / 2.0 * crate::linalg::dot(&d, &d);
    let vs = c.vs + a.value.width() + b.value.width();
    vec![Eval::le(lin, r, vs), Eval::le(-lin, r, vs)]
}

/// `||grad f_beta(x) - grad f_beta(x')|| <= L_{f_beta} ||x - x'||`.
fn calculus_v(c: &PointCtx) -> Vec<Eval> {
    let a = c.ystar(&c.x, c.beta).y;
    let b = c.ystar(&c.x2, c.beta).y;
    let ga = grad_x(c.problem, &c.x, &a);
    let gb = grad_x(c.problem, &c.x2, &b);
    vec![Eval::le(
        dist(&ga, &gb),
        l_f(c) * dist(&c.x, &c.x2),
        norm(&ga) + norm(&gb),
    )]
}

/// `0 <= f_{beta'}(x) - f_beta(x) <= Dy^2 (beta - beta')/2`.
fn calculus_vi(c: &PointCtx) -> Vec<Eval> {
    let fb = c.ystar(&c.x, c.beta).value;
    let fb2 = c.ystar(&c.x, c.beta2).value;
    let d = fb2.mid() - fb.mid();
    let vs = c.vs + fb.width() + fb2.width();
    vec![
        Eval::le(0.0, d, vs),
        Eval::le(d, c.k.dy * c.k.dy * (c.beta - c.beta2) / 2.0, vs),
    ]
}

/// `||y*_beta(x) - y*_{beta'}(x)|| <= 2 Dy (beta - beta')/(beta' + mu)`.
fn difference(c: &PointCtx) -> Vec<Eval> {
    if c.beta2.max(c.k.mu) <= 0.0 {
        return vec![];
    }
    let a = c.ystar(&c.x, c.beta).y;
    let b = c.ystar(&c.x, c.beta2).y;
    let rhs = 2.0 * c.k.dy * (c.beta - c.beta2) / (c.beta2 + c.k.mu);
    vec![Eval::le(dist(&a, &b), rhs, c.k.dy)]
}

/// `(beta+mu)/2 ||y*_beta(x) - y||^2 <= H` with H from the measure set.
fn h_lower_bound(c: &PointCtx) -> Vec<Eval> {
    let ys = c.ystar(&c.x, c.beta).y;
    let h = (c.measures.h)(c.problem, &c.x, &c.y, c.beta, &c.y0);
    let d = dist(&ys, &c.y);
    vec![Eval::le(
        (c.beta + c.k.mu) / 2.0 * d * d,
        h.mid(),
        c.vs + h.width(),
    )]
}

/// `G_Y(x,y) <= H_beta(x,y) + Dy^2 beta/2`.
fn common_upper_bounds_1(c: &PointCtx) -> Vec<Eval> {
    let g = (c.measures.gy)(c.problem, &c.x, &c.y);
    let h = (c.measures.h)(c.problem, &c.x, &c.y, c.beta, &c.y0);
    vec![Eval::le(
        g.mid(),
        h.mid() + c.k.dy * c.k.dy * c.beta / 2.0,
        c.vs + g.width() + h.width(),
    )]
}
