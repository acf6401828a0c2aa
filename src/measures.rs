//! The paper's gap and stationarity measures (claims.md Sec. 1.3), computed exactly: closed
//! forms or one oracle call, or a certified [`Interval`] where an inner solve is needed.
//!
//! | measure | definition | computed by |
//! |---|---|---|
//! | `G_Y` (`gap:y`) | `max_u L(x,u) - L(x,y)` | `f(x)` (closed form or certified) |
//! | `G_Y^LMO` (L510) | `max_u grad_y L^T (u - y)` | one LMO on Y |
//! | `G_X^LMO` (`gap:fw`) | `max_v grad_x L^T (x - v)` | one LMO on X |
//! | `G_X^PO` (`gap:proj`) | `\|\|(PO_X(x - sigma grad_x L) - x)/sigma\|\|` | one projection |
//! | `G^Dual` (L437) | `max_u L(xbar,u) - min_v L(v,ybar)` | two certified inner solves (A3) |
//! | `G^Opt` (`gap:opt`) | `f(x) - min_X f` | `f(x)` and the problem's certified `f*` |
//! | `H_t` (`eq:H_t`) | `L_t(x, y*_t(x)) - L_t(x, y)` | `f_beta(x)` with reference `y0` |
//!
//! # Example
//! ```
//! use saddlefw::generators::GeneratorSpec;
//! use saddlefw::measures::evaluate;
//! let inst = "saddle/c-c:dx=5,dy=4,seed=2".parse::<GeneratorSpec>().unwrap().generate().unwrap();
//! let (x, y) = inst.problem.known_saddle().unwrap();
//! // at the saddle point every gap vanishes (up to rounding)
//! let m = evaluate(inst.problem.as_ref(), &x, &y, 0.0, &inst.y0, 1.0);
//! assert!(m.gx_lmo.abs() < 1e-9 && m.gy.abs() < 1e-9 && m.gap_opt.unwrap().abs() < 1e-9);
//! ```

use crate::linalg::norm;
use crate::problems::{Interval, SaddleProblem};
use serde::{Deserialize, Serialize};

/// `G_Y(x,y) = max_{u in Y} L(x,u) - L(x,y)` (`gap:y`), certified.
pub fn gy<P: SaddleProblem + ?Sized>(p: &P, x: &[f64], y: &[f64]) -> Interval {
    p.f(x).shift(-p.value(x, y))
}

/// `G_Y^LMO(x,y) = max_{u in Y} grad_y L(x,y)^T (u - y)` (paper L510), exact.
pub fn gy_lmo<P: SaddleProblem + ?Sized>(p: &P, x: &[f64], y: &[f64]) -> f64 {
    let mut g = vec![0.0; y.len()];
    p.grad_y(x, y, &mut g);
    gy_lmo_from_grad(p, y, &g)
}

/// `G_Y^LMO` from a precomputed `grad_y L(x, y)`.
pub fn gy_lmo_from_grad<P: SaddleProblem + ?Sized>(p: &P, y: &[f64], gy: &[f64]) -> f64 {
    let neg: Vec<f64> = gy.iter().map(|v| -v).collect();
    let mut u = vec![0.0; y.len()];
    p.y_set().lmo(&neg, &mut u);
    gy.iter()
        .zip(&u)
        .zip(y)
        .map(|((g, u), y)| g * (u - y))
        .sum()
}

/// `G_X^LMO(x,y) = max_{v in X} grad_x L(x,y)^T (x - v)` (`gap:fw`), exact.
pub fn gx_lmo<P: SaddleProblem + ?Sized>(p: &P, x: &[f64], y: &[f64]) -> f64 {
    let mut g = vec![0.0; x.len()];
    p.grad_x(x, y, &mut g);
    gx_lmo_from_grad(p, x, &g)
}

/// `G_X^LMO` from a precomputed `grad_x L(x, y)`.
pub(crate) fn gx_lmo_from_grad<P: SaddleProblem + ?Sized>(p: &P, x: &[f64], gx: &[f64]) -> f64 {
    let mut v = vec![0.0; x.len()];
    p.x_set().lmo(gx, &mut v);
    gx.iter()
        .zip(x)
        .zip(&v)
        .map(|((g, x), v)| g * (x - v))
        .sum()
}

/// `G_X^PO(x,y) = ||(PO_X(x - sigma grad_x L(x,y)) - x)/sigma||` (`gap:proj`), exact.
pub fn gx_po<P: SaddleProblem + ?Sized>(p: &P, x: &[f64], y: &[f64], sigma: f64) -> f64 {
    let mut g = vec![0.0; x.len()];
    p.grad_x(x, y, &mut g);
    gx_po_from_grad(p, x, &g, sigma)
}

/// `G_X^PO` from a precomputed `grad_x L(x, y)`.
pub(crate) fn gx_po_from_grad<P: SaddleProblem + ?Sized>(
    p: &P,
    x: &[f64],
    gx: &[f64],
    sigma: f64,
) -> f64 {
    assert!(sigma > 0.0, "G_X^PO needs sigma > 0");
    let z: Vec<f64> = x.iter().zip(gx).map(|(x, g)| x - sigma * g).collect();
    let mut pz = vec![0.0; x.len()];
    p.x_set().project(&z, &mut pz);
    let d: Vec<f64> = pz.iter().zip(x).map(|(a, b)| (a - b) / sigma).collect();
    norm(&d)
}

/// `G^Dual(xbar, ybar) = max_u L(xbar,u) - min_v L(v,ybar)` (L437-439), certified.
/// Meaningful under Assumption 3 (the inner min is certified only for convex `L(., ybar)`);
/// returns `None` otherwise.
pub fn g_dual<P: SaddleProblem + ?Sized>(p: &P, xbar: &[f64], ybar: &[f64]) -> Option<Interval> {
    if !p.convex_in_x() {
        return None;
    }
    Some(p.f(xbar).minus(&p.min_x(ybar)))
}

/// `G^Opt(x) = f(x) - min_X f` (`gap:opt`), certified; `None` when f* is unknown.
pub fn g_opt<P: SaddleProblem + ?Sized>(p: &P, x: &[f64]) -> Option<Interval> {
    let fs = p.f_star()?;
    Some(p.f(x).minus(&fs))
}

/// `H_t = L_t(x, y*_t(x)) - L_t(x, y)` with `L_t = L - beta/2 ||. - y0||^2` (`eq:H_t`).
pub fn h<P: SaddleProblem + ?Sized>(
    p: &P,
    x: &[f64],
    y: &[f64],
    beta: f64,
    y0: &[f64],
) -> Interval {
    let d2: f64 = y.iter().zip(y0).map(|(a, b)| (a - b) * (a - b)).sum();
    let l_beta = p.value(x, y) - 0.5 * beta * d2;
    p.y_star(x, beta, y0).value.shift(-l_beta)
}

/// All per-point measures at `(x, y)`: the one per-iterate measures record, recorded at a
/// checkpoint ([`crate::trace::Checkpoint`] adds the iterate's `t`, time and `beta_t`) and
/// read by RUN.json, the rate fits of `verify` and the reports. Interval-valued measures are
/// reported by their upper end (conservative for upper-bound checks) with the widths kept.
/// Non-finite values are written as null and read back as NaN.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct PointMeasures {
    /// `G_X^LMO` (`gap:fw`).
    #[serde(with = "nan_null")]
    pub gx_lmo: f64,
    /// `G_X^PO` (`gap:proj`) with the run's sigma.
    #[serde(with = "nan_null")]
    pub gx_po: f64,
    /// `G_Y` (`gap:y`, upper end).
    #[serde(with = "nan_null")]
    pub gy: f64,
    /// `G_Y^LMO` (L510).
    #[serde(with = "nan_null")]
    pub gy_lmo: f64,
    /// `H_t` (`eq:H_t`, upper end) with the `beta_t` of the iterate.
    #[serde(with = "nan_null")]
    pub h: f64,
    /// `f(x) - f*` (upper end), `None` when f* is unknown.
    pub gap_opt: Option<f64>,
    /// Largest width of the certified intervals used (0 when all closed forms; NaN, written
    /// null, in experiment records written before it was kept).
    #[serde(with = "nan_null", default = "nan_null::nan")]
    pub width: f64,
    /// The magnitude of the terms the gaps are made of,
    /// `|L(x,y)| + ||grad_x L|| D_X + ||grad_y L|| D_Y` (plus the width of f* when `gap_opt` is
    /// known): the scale of [`inconsistency`]'s rounding tolerance.
    #[serde(default, skip_serializing)]
    pub scale: f64,
}

impl PointMeasures {
    /// The value of a run's plotted measure for a method whose primal block uses `primal`
    /// (a sum of two terms for Figure 1's; `None` when a term was not recorded).
    pub fn select(
        &self,
        m: crate::paper::measure::RunMeasure,
        primal: crate::paper::Oracle,
    ) -> Option<f64> {
        match m.terms(primal) {
            (a, Some(b)) => Some(self.get(a)? + self.get(b)?),
            (a, None) => self.get(a),
        }
    }
    /// The value of measure `m` (`None`: `G^Opt` with f* unknown).
    pub fn get(&self, m: crate::paper::theorems::Measure) -> Option<f64> {
        use crate::paper::theorems::Measure;
        match m {
            Measure::GxLmo => Some(self.gx_lmo),
            Measure::GxPo => Some(self.gx_po),
            Measure::Gy => Some(self.gy),
            Measure::GapOpt => self.gap_opt,
            Measure::GyLmo => Some(self.gy_lmo),
            Measure::H => Some(self.h),
        }
    }
    /// No measure known (every value NaN, written null): a record that carries only what was
    /// plotted from it.
    pub fn unknown() -> Self {
        PointMeasures {
            gx_lmo: f64::NAN,
            gx_po: f64::NAN,
            gy: f64::NAN,
            gy_lmo: f64::NAN,
            h: f64::NAN,
            gap_opt: None,
            width: f64::NAN,
            scale: 0.0,
        }
    }
}

/// Relative rounding tolerance of the consistency check ([`inconsistency`]), the same as the
/// invariant checks' relative slack.
pub const CONSISTENCY_RTOL: f64 = 1e-9;

/// The first inconsistent measure of `m`, as `(name, value, tolerance)`: a non-finite
/// measure (value `None`), or a gap below `-tolerance`. Every measure is non-negative in exact
/// arithmetic (`L456`, `L510`, `eq:H_t`), and each is made of terms bounded by
/// [`PointMeasures::scale`], so `tolerance = CONSISTENCY_RTOL * scale`: negative values above
/// it are rounding, values below it mean the measures (or the iterates: a point outside its
/// set) are wrong. A non-finite measure is inconsistent whatever the reason (its exact value
/// overflows f64, or an undefined `inf - inf`): no run reports `completed` with a missing
/// measure.
pub fn inconsistency(m: &PointMeasures) -> Option<(&'static str, Option<f64>, f64)> {
    // an overflowing scale (terms beyond the f64 range) gives an infinite tolerance: a finite
    // measure is then within rounding of its terms whatever its sign
    let tolerance = CONSISTENCY_RTOL * m.scale;
    let checks = [
        ("gx_lmo", Some(m.gx_lmo)),
        ("gx_po", Some(m.gx_po)),
        ("gy", Some(m.gy)),
        ("gy_lmo", Some(m.gy_lmo)),
        ("h", Some(m.h)),
        ("gap_opt", m.gap_opt),
    ];
    for (name, value) in checks {
        let Some(v) = value else { continue };
        if !v.is_finite() {
            return Some((name, None, tolerance));
        }
        if v < -tolerance {
            return Some((name, Some(v), tolerance));
        }
    }
    None
}

/// Evaluates every per-point measure, sharing the gradient computation. A point of the wrong
/// dimensions (`x`, or `y` or `y0`, of another length than X's, Y's) is refused: every measure
/// is unknown ([`PointMeasures::unknown`], NaN), which [`inconsistency`] reports.
pub fn evaluate<P: SaddleProblem + ?Sized>(
    p: &P,
    x: &[f64],
    y: &[f64],
    beta: f64,
    y0: &[f64],
    sigma: f64,
) -> PointMeasures {
    let (dx, dy) = (p.x_set().dim(), p.y_set().dim());
    if x.len() != dx || y.len() != dy || y0.len() != dy {
        return PointMeasures::unknown();
    }
    let mut gx = vec![0.0; x.len()];
    let mut gyv = vec![0.0; y.len()];
    p.grads(x, y, &mut gx, &mut gyv);
    let gy_i = gy(p, x, y);
    let h_i = h(p, x, y, beta, y0);
    let opt = g_opt(p, x);
    let mut width = gy_i.width().max(h_i.width());
    let k = p.constants();
    let mut scale = p.value(x, y).abs() + norm(&gx) * k.dx + norm(&gyv) * k.dy;
    if let Some(o) = opt {
        width = width.max(o.width());
        scale += o.width().abs();
    }
    PointMeasures {
        gx_lmo: gx_lmo_from_grad(p, x, &gx),
        gx_po: gx_po_from_grad(p, x, &gx, sigma),
        gy: gy_i.upper,
        gy_lmo: gy_lmo_from_grad(p, y, &gyv),
        h: h_i.upper,
        gap_opt: opt.map(|o| o.upper),
        width,
        scale,
    }
}

/// serde for f64 fields of the JSON records: non-finite values are written as null and read
/// back as NaN.
pub(crate) mod nan_null {
    use serde::{Deserialize, Deserializer, Serializer};
    /// Writes a finite `v` as a number, anything else as null.
    pub fn serialize<S: Serializer>(v: &f64, s: S) -> std::result::Result<S::Ok, S::Error> {
        if v.is_finite() {
            s.serialize_f64(*v)
        } else {
            s.serialize_none()
        }
    }
    /// The value of a field that is absent (records written before the field existed).
    pub fn nan() -> f64 {
        f64::NAN
    }
    /// Reads a number, or null as NaN.
    pub(crate) fn deserialize<'de, D: Deserializer<'de>>(
        d: D,
    ) -> std::result::Result<f64, D::Error> {
        Ok(Option::<f64>::deserialize(d)?.unwrap_or(f64::NAN))
    }
}

/// The natural scale of the gaps of an instance:
/// `L_xx D_X^2 + L_yx D_X D_Y + L_yy D_Y^2 + ||grad_x L(x0,y0)|| D_X + ||grad_y L(x0,y0)|| D_Y`
/// (every gap of claims.md 1.3 at any point is at most a small multiple of it). A quantity
/// below `64 eps` times this scale is rounding noise, whatever its own maximum: `verify` and
/// `tighten` put the fit floor there ([`crate::fit::FitConfig::scale`]).
pub fn natural_scale(inst: &crate::Instance) -> f64 {
    let p = inst.problem.as_ref();
    let k = p.constants();
    let mut gx = vec![0.0; inst.x0.len()];
    let mut gy = vec![0.0; inst.y0.len()];
    p.grads(&inst.x0, &inst.y0, &mut gx, &mut gy);
    k.lxx * k.dx * k.dx
        + k.lyx * k.dx * k.dy
        + k.lyy * k.dy * k.dy
        + crate::linalg::norm(&gx) * k.dx
        + crate::linalg::norm(&gy) * k.dy
}
