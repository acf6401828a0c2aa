//! Negative controls: deliberately broken variants the invariant suite must reject (a check
//! that cannot fail is a defect). The broken solvers are the solvers' own Algorithm 1 with an
//! injected [`Fault`] (`crate::solvers::control`), so no algorithm is re-implemented here;
//! the broken measure is a [`MeasureSet`] with `G_Y` of the wrong sign.
//!
//! | control | what is broken | invariants expected to fail |
//! |---|---|---|
//! | [`Fault::GammaUnclipped`] | `gamma_t` without `min{., 1}` | `dual-step-unit`, `iterates-feasible`, ... |
//! | [`Fault::BetaIgnored`] | `beta_t` left out of the dual gradient | `almost-recursion-ascent`, `almost-recursion`, ... |
//! | [`Fault::PrimalSignFlip`] | primal step in the ascent direction | `adaptive-connect-2a`, ... |
//! | [`CheckControl::WrongSignMeasure`] | `G_Y` computed as `L(x,y) - max_u L(x,u)` | `gy-nonneg` |
//! | [`CheckControl::WrongSignGxLmo`] | `G_X^LMO` of the wrong sign ([`WRONG_SIGN_GX_LMO`]) | `gx-lmo-nonneg` |
//! | [`CheckControl::NoSmoothingH`] | `H_t` computed with beta = 0 ([`NO_SMOOTHING_H`]) | `h-lower-bound` |
//! | [`CheckControl::UnderstatedConstants`] | `Lxx`, `Lyx` reported 10x too small ([`Understated`]) | `calculus-iii-lipschitz`, ... |
//!
//! Each runs with `saddlefw check --control NAME` ([`CheckControl::name`]), which must exit 1.
//!
//! ```
//! use saddlefw::generators::GeneratorSpec;
//! use saddlefw::invariants::controls::{CheckControl, WRONG_SIGN_GY};
//! use saddlefw::invariants::EXACT_MEASURES;
//! let inst = "quadratic/c-sc:dx=3,dy=2,seed=4".parse::<GeneratorSpec>().unwrap().generate().unwrap();
//! let p = inst.problem.as_ref();
//! // the broken G_Y is the exact one negated: negative where the exact one is positive
//! let exact = (EXACT_MEASURES.gy)(p, &inst.x0, &inst.y0);
//! let broken = (WRONG_SIGN_GY.gy)(p, &inst.x0, &inst.y0);
//! assert!(exact.lower > 0.0, "{exact:?}");
//! assert_eq!((broken.lower, broken.upper), (-exact.upper, -exact.lower));
//! // every control changes the solvers, the measures or the reported constants of a check
//! for c in CheckControl::ALL {
//!     let o = c.options();
//!     let changed = o.solvers.is_some()
//!         || o.measures.name != EXACT_MEASURES.name
//!         || o.understate.is_some_and(|f| f < 1.0);
//!     assert!(changed, "{c:?}");
//! }
//! ```

use super::case::{paper_variant, CaseOptions, SolverSpec};
use super::context::{MeasureSet, EXACT_MEASURES};
use crate::paper::Algorithm;
use crate::problems::{Interval, SaddleProblem};
use crate::solvers::Fault;

/// The negative controls of `saddlefw check --control NAME` (the four of the issue, the two
/// further broken measures and the understated constants).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CheckControl {
    /// Algorithm 1 with a [`Fault`] of the solvers' controls (`gamma-unclipped`,
    /// `beta-ignored`, `primal-sign-flip` in [`CheckControl::ALL`]).
    Fault(Fault),
    WrongSignMeasure,
    WrongSignGxLmo,
    NoSmoothingH,
    UnderstatedConstants,
}

/// The factor of [`CheckControl::UnderstatedConstants`]: `Lxx` and `Lyx` reported 10 times too small.
pub(crate) const UNDERSTATE_FACTOR: f64 = 0.1;

impl CheckControl {
    /// All controls (the order of `--help` and `saddlefw list`).
    pub const ALL: [CheckControl; 7] = [
        CheckControl::Fault(Fault::GammaUnclipped),
        CheckControl::Fault(Fault::BetaIgnored),
        CheckControl::Fault(Fault::PrimalSignFlip),
        CheckControl::WrongSignMeasure,
        CheckControl::WrongSignGxLmo,
        CheckControl::NoSmoothingH,
        CheckControl::UnderstatedConstants,
    ];

    /// The command-line name (`--control NAME`).
    pub fn name(&self) -> &'static str {
        match self {
            // the check's name of `gamma-unclipped` since issue 4
            CheckControl::Fault(Fault::GammaUnclipped) => "gamma-without-min",
            CheckControl::Fault(f) => f.name(),
            CheckControl::WrongSignMeasure => "wrong-sign-measure",
            CheckControl::WrongSignGxLmo => "wrong-sign-gx-lmo",
            CheckControl::NoSmoothingH => "no-smoothing-h",
            CheckControl::UnderstatedConstants => "understated-constants",
        }
    }

    /// What is broken, and the invariants expected to fail.
    pub fn description(&self) -> &'static str {
        match self {
            CheckControl::Fault(Fault::GammaUnclipped) => "Algorithm 1 with gamma_t without min{., 1} (dual-step-unit, iterates-feasible)",
            CheckControl::Fault(Fault::BetaIgnored) => "Algorithm 1 with beta_t left out of the dual gradient (almost-recursion)",
            CheckControl::Fault(Fault::PrimalSignFlip) => "Algorithm 1 with the primal step in the ascent direction (adaptive-connect-2a, adaptive-connect-2b)",
            CheckControl::Fault(_) => "Algorithm 1 with a fault of `saddlefw verify --control`",
            CheckControl::WrongSignMeasure => "G_Y computed as L(x,y) - max_u L(x,u) (gy-nonneg)",
            CheckControl::WrongSignGxLmo => "G_X^LMO of the wrong sign (gx-lmo-nonneg)",
            CheckControl::NoSmoothingH => "H_t computed with beta = 0 (h-lower-bound)",
            CheckControl::UnderstatedConstants => "Lxx and Lyx reported 10 times too small (calculus-iii-lipschitz, calculus-v-smooth, general-connect-1)",
        }
    }

    /// The case options that inject the defect (solvers: Algorithm 1 only, with the fault).
    pub fn options(&self) -> CaseOptions {
        let faulty = |fault| Some(vec![paper_variant(Algorithm::LmoLmo, None, None, fault)]);
        let measures = |measures| CaseOptions {
            measures,
            solvers: Some(vec![SolverSpec::paper(Algorithm::LmoLmo)]),
            ..CaseOptions::default()
        };
        match self {
            CheckControl::Fault(f) => CaseOptions {
                solvers: faulty(*f),
                ..CaseOptions::default()
            },
            CheckControl::WrongSignMeasure => measures(WRONG_SIGN_GY),
            CheckControl::WrongSignGxLmo => measures(WRONG_SIGN_GX_LMO),
            CheckControl::NoSmoothingH => measures(NO_SMOOTHING_H),
            CheckControl::UnderstatedConstants => CaseOptions {
                understate: Some(UNDERSTATE_FACTOR),
                ..CaseOptions::default()
            },
        }
    }
}

impl std::str::FromStr for CheckControl {
    type Err = crate::Error;
    fn from_str(s: &str) -> crate::Result<CheckControl> {
        CheckControl::ALL
            .into_iter()
            .find(|c| c.name() == s)
            .ok_or_else(|| {
                let names: Vec<&str> = CheckControl::ALL.iter().map(|c| c.name()).collect();
                crate::Error::invalid(
                    "--control",
                    format!("unknown control {s:?} (one of: {})", names.join(", ")),
                )
            })
    }
}

fn gy_wrong_sign(p: &dyn SaddleProblem, x: &[f64], y: &[f64]) -> Interval {
    let g = crate::measures::gy(p, x, y);
    Interval {
        lower: -g.upper,
        upper: -g.lower,
    }
}

/// The exact measures with `G_Y(x,y) = L(x,y) - max_u L(x,u)` (wrong sign).
pub const WRONG_SIGN_GY: MeasureSet = MeasureSet {
    name: "wrong-sign-gy",
    gy: gy_wrong_sign,
    ..EXACT_MEASURES
};

fn gx_lmo_wrong_sign(p: &dyn SaddleProblem, x: &[f64], y: &[f64]) -> f64 {
    -crate::measures::gx_lmo(p, x, y)
}

/// The exact measures with `G_X^LMO` of the wrong sign (`max_v grad^T (v - x)`).
pub const WRONG_SIGN_GX_LMO: MeasureSet = MeasureSet {
    name: "wrong-sign-gx-lmo",
    gx_lmo: gx_lmo_wrong_sign,
    ..EXACT_MEASURES
};

fn h_no_smoothing(p: &dyn SaddleProblem, x: &[f64], y: &[f64], _beta: f64, y0: &[f64]) -> Interval {
    crate::measures::h(p, x, y, 0.0, y0)
}

/// The exact measures with `H_t` computed without the smoothing (beta ignored).
pub const NO_SMOOTHING_H: MeasureSet = MeasureSet {
    name: "no-smoothing-h",
    h: h_no_smoothing,
    ..EXACT_MEASURES
};

/// A problem whose reported `Lxx` and `Lyx` are deliberately too small (multiplied by
/// `factor < 1`): a negative control for the invariants that hold for any point or any
/// sequence (`lemma:calculus`, `lemma:general-connect`, ...), which no solver fault can break.
pub struct Understated {
    pub inner: Box<dyn SaddleProblem>,
    pub factor: f64,
}

impl SaddleProblem for Understated {
    fn name(&self) -> String {
        format!("understated({}, factor {})", self.inner.name(), self.factor)
    }
    fn x_set(&self) -> &dyn crate::sets::ConvexSet {
        self.inner.x_set()
    }
    fn y_set(&self) -> &dyn crate::sets::ConvexSet {
        self.inner.y_set()
    }
    fn value(&self, x: &[f64], y: &[f64]) -> f64 {
        self.inner.value(x, y)
    }
    fn grad_x(&self, x: &[f64], y: &[f64], out: &mut [f64]) {
        self.inner.grad_x(x, y, out)
    }
    fn grad_y(&self, x: &[f64], y: &[f64], out: &mut [f64]) {
        self.inner.grad_y(x, y, out)
    }
    fn grads(&self, x: &[f64], y: &[f64], gx: &mut [f64], gy: &mut [f64]) {
        self.inner.grads(x, y, gx, gy)
    }
    fn constants(&self) -> crate::problems::Constants {
        let mut k = self.inner.constants();
        k.lxx *= self.factor;
        k.lyx *= self.factor;
        k
    }
    fn convex_in_x(&self) -> bool {
        self.inner.convex_in_x()
    }
    fn y_model(&self, x: &[f64]) -> Option<crate::problems::YModel> {
        self.inner.y_model(x)
    }
    fn f_star(&self) -> Option<Interval> {
        self.inner.f_star()
    }
    fn known_saddle(&self) -> Option<(Vec<f64>, Vec<f64>)> {
        self.inner.known_saddle()
    }
    fn y_star(&self, x: &[f64], beta: f64, y0: &[f64]) -> crate::problems::InnerMax {
        self.inner.y_star(x, beta, y0)
    }
    fn f(&self, x: &[f64]) -> Interval {
        self.inner.f(x)
    }
    fn min_x(&self, y: &[f64]) -> Interval {
        self.inner.min_x(y)
    }
    fn first_order_rounding(&self, x: &[f64], y: &[f64], dx: &[f64], dy: &[f64]) -> f64 {
        self.inner.first_order_rounding(x, y, dx, dy)
    }
}
