//! Negative controls: deliberately broken variants the invariant suite must reject (a check
//! that cannot fail is a defect). The broken solvers are the solvers' own Algorithm 1 with an
//! injected [`Fault`] (`crate::solvers::smoothing`), so no algorithm is re-implemented here;
//! the broken measure is a [`MeasureSet`] with `G_Y` of the wrong sign.
//!
//! | control | what is broken | invariants expected to fail |
//! |---|---|---|
//! | [`Control::GammaUnclipped`] | `gamma_t` without `min{., 1}` | `dual-step-unit`, `iterates-feasible`, ... |
//! | [`Control::BetaIgnored`] | `beta_t` left out of the dual gradient | `almost-recursion-ascent`, `almost-recursion`, ... |
//! | [`Control::PrimalSignFlip`] | primal step in the ascent direction | `adaptive-connect-2a`, ... |
//! | [`Control::WrongSignMeasure`] | `G_Y` computed as `L(x,y) - max_u L(x,u)` | `gy-nonneg`, `gy-le-gy-lmo`, ... |

use super::check::{CaseOptions, SolverSpec};
use super::context::{MeasureSet, EXACT_MEASURES};
use crate::problems::{Interval, SaddleProblem};
use crate::solvers::smoothing::{Fault, PaperAlgorithm};

/// The four negative controls required by the issue.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Control {
    GammaUnclipped,
    BetaIgnored,
    PrimalSignFlip,
    WrongSignMeasure,
}

impl Control {
    /// All controls.
    pub const ALL: [Control; 4] = [
        Control::GammaUnclipped,
        Control::BetaIgnored,
        Control::PrimalSignFlip,
        Control::WrongSignMeasure,
    ];

    /// The case options that inject the defect (solvers: Algorithm 1 only, with the fault).
    pub fn options(&self) -> CaseOptions {
        let faulty = |fault| {
            Some(vec![SolverSpec::Paper {
                alg: PaperAlgorithm::LmoLmo,
                beta0: None,
                b: None,
                fault,
            }])
        };
        match self {
            Control::GammaUnclipped => CaseOptions {
                solvers: faulty(Fault::GammaUnclipped),
                ..CaseOptions::default()
            },
            Control::BetaIgnored => CaseOptions {
                solvers: faulty(Fault::BetaIgnored),
                ..CaseOptions::default()
            },
            Control::PrimalSignFlip => CaseOptions {
                solvers: faulty(Fault::PrimalSignFlip),
                ..CaseOptions::default()
            },
            Control::WrongSignMeasure => CaseOptions {
                measures: WRONG_SIGN_GY,
                solvers: Some(vec![SolverSpec::paper(PaperAlgorithm::LmoLmo)]),
                ..CaseOptions::default()
            },
        }
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
