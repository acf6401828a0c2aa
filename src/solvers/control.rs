//! Negative controls of Algorithms 1-3: deliberately broken variants that a check must reject
//! (a check that cannot fail is worthless). They are applied from here, the controls' side, to
//! the one implementation of the algorithms ([`DualSmoothing`]); the step code is never copied.
//!
//! | control | applied as |
//! |---|---|
//! | `constant-tau` | a schedule: `tau_t = tau_0` for every t |
//! | `tau-exponent+D`, `beta-exponent+D` | a schedule: the exponent shifted ([`Control::schedules`]) |
//! | `extra-projection` | a wrapper around the solver: one projection onto X per iteration, result unused |
//! | `gamma-unclipped`, `beta-ignored`, `primal-sign-flip`, `dual-at-next-x` | the solver's one hook, [`StepDefect`] |
//!
//! The last four change quantities that exist only inside one iteration (the gradient buffers,
//! the point where the dual gradient is taken, the short step's clipping): no wrapper can reach
//! them without copying the step, so they sit behind [`DualSmoothing::with_step_defect`].
//!
//! ```
//! use saddlefw::solvers::{Control, Fault};
//! // every control's name parses back to it, the exponent shifts included
//! let shifts = [Control::TauExponent(0.15), Control::BetaExponent(-0.1)];
//! for c in Control::FAULTS.into_iter().chain(shifts) {
//!     assert_eq!(c.to_string().parse::<Control>().unwrap(), c);
//! }
//! assert_eq!(shifts[0].to_string(), "tau-exponent+0.15");
//! assert_eq!(Control::Fault(Fault::ExtraProjection).to_string(), "extra-projection");
//! assert!("constant-beta".parse::<Control>().is_err());
//! ```

use super::defaults::RunSchedules;
use super::schedule::{PoLmoTau, Schedule};
use super::smoothing::DualSmoothing;
pub use super::smoothing::StepDefect;
use super::{Solver, StepInfo};
use crate::problems::SaddleProblem;
use crate::{Error, Result};
use std::fmt;
use std::str::FromStr;

/// Deliberately broken variants of one step, for negative controls. `Fault::None` is the
/// algorithm as printed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Fault {
    #[default]
    None,
    /// `gamma_t` without the `min{., 1}`.
    GammaUnclipped,
    /// `beta_t` left out of the dual gradient (the step still reports it).
    BetaIgnored,
    /// Primal step in the ascent direction (sign error).
    PrimalSignFlip,
    /// Dual gradient taken at `(x_{t+1}, y_t)` instead of `(x_t, y_t)`.
    DualAtNextX,
    /// One extra projection onto X per iteration (result unused): an oracle-count violation.
    ExtraProjection,
    /// A constant primal step `tau_0` instead of `tau_t`.
    ConstantTau,
}

/// A broken variant of one of Algorithms 1-3 (the `control` of a
/// [`super::spec::SolverSpec`]).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Control {
    /// A [`Fault`] of the real solver.
    Fault(Fault),
    /// The exponent a of `tau_t` raised by the given amount (the PO-LMO appendix schedule
    /// raises its `A (t+1)^a` term).
    TauExponent(f64),
    /// The exponent b of `beta_t = C (t+1)^-b` shifted by the given amount (negative: the
    /// smoothing decays too slowly; no effect when C = 0).
    BetaExponent(f64),
}

impl Control {
    /// The fault-based controls, in a fixed order (for listings and tests).
    pub const FAULTS: [Control; 5] = [
        Control::Fault(Fault::ConstantTau),
        Control::Fault(Fault::BetaIgnored),
        Control::Fault(Fault::DualAtNextX),
        Control::Fault(Fault::PrimalSignFlip),
        Control::Fault(Fault::GammaUnclipped),
    ];

    /// The schedules as the control alters them: the exponent shifts change them, every other
    /// control leaves them as given.
    pub fn schedules(self, mut s: RunSchedules) -> RunSchedules {
        match self {
            Control::TauExponent(d) => {
                s.tau = match s.tau {
                    Schedule::Anytime { c, a } => Schedule::Anytime { c, a: a + d },
                    Schedule::PoLmo(p) => Schedule::PoLmo(PoLmoTau { a: p.a + d, ..p }),
                    other => other,
                };
            }
            Control::BetaExponent(d) => {
                // beta_t = C (t+1)^-(b+d); the PO-LMO step size uses the same b.
                if let Schedule::Anytime { c, a } = s.beta {
                    s.beta = Schedule::Anytime { c, a: a + d };
                }
                if let Schedule::PoLmo(p) = s.tau {
                    if p.c > 0.0 {
                        s.tau = Schedule::PoLmo(PoLmoTau { b: p.b + d, ..p });
                    }
                }
            }
            Control::Fault(_) => {}
        }
        s
    }

    /// The solver with the control applied (its schedules already altered by
    /// [`Control::schedules`]).
    pub fn apply(self, solver: DualSmoothing) -> Box<dyn Solver> {
        match self {
            Control::Fault(f) => with_fault(solver, f),
            Control::TauExponent(_) | Control::BetaExponent(_) => Box::new(solver),
        }
    }
}

/// `solver` broken by `fault` (see the module documentation for how each is applied).
pub fn with_fault(solver: DualSmoothing, fault: Fault) -> Box<dyn Solver> {
    match fault {
        Fault::None => Box::new(solver),
        Fault::ConstantTau => {
            let tau0 = solver.tau().at(0);
            Box::new(solver.with_tau(Schedule::Constant(tau0)))
        }
        Fault::ExtraProjection => Box::new(ExtraProjection {
            inner: solver,
            scratch: Vec::new(),
        }),
        Fault::GammaUnclipped => Box::new(solver.with_step_defect(StepDefect::GammaUnclipped)),
        Fault::BetaIgnored => Box::new(solver.with_step_defect(StepDefect::BetaIgnored)),
        Fault::PrimalSignFlip => Box::new(solver.with_step_defect(StepDefect::PrimalSignFlip)),
        Fault::DualAtNextX => Box::new(solver.with_step_defect(StepDefect::DualAtNextX)),
    }
}

/// The `extra-projection` control: the real step, then one projection of `x_{t+1}` onto X whose
/// result is dropped (the oracle count, not the iterates, is wrong).
struct ExtraProjection {
    inner: DualSmoothing,
    scratch: Vec<f64>,
}

impl Solver for ExtraProjection {
    fn name(&self) -> &str {
        self.inner.name()
    }
    fn init(&mut self, p: &dyn SaddleProblem, x0: &[f64], y0: &[f64]) {
        self.scratch = vec![0.0; x0.len()];
        self.inner.init(p, x0, y0)
    }
    fn step(&mut self, p: &dyn SaddleProblem, t: usize) -> StepInfo {
        let info = self.inner.step(p, t);
        p.x_set().project(self.inner.x(), &mut self.scratch);
        info
    }
    fn x(&self) -> &[f64] {
        self.inner.x()
    }
    fn y(&self) -> &[f64] {
        self.inner.y()
    }
    fn beta_at(&self, t: usize) -> f64 {
        self.inner.beta_at(t)
    }
    fn schedule(&self) -> String {
        self.inner.schedule()
    }
    fn provenance(&self) -> &'static str {
        self.inner.provenance()
    }
}

impl fmt::Display for Control {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Control::Fault(Fault::None) => write!(f, "none"),
            Control::Fault(Fault::ConstantTau) => write!(f, "constant-tau"),
            Control::Fault(Fault::BetaIgnored) => write!(f, "beta-ignored"),
            Control::Fault(Fault::DualAtNextX) => write!(f, "dual-at-next-x"),
            Control::Fault(Fault::PrimalSignFlip) => write!(f, "primal-sign-flip"),
            Control::Fault(Fault::GammaUnclipped) => write!(f, "gamma-unclipped"),
            Control::Fault(Fault::ExtraProjection) => write!(f, "extra-projection"),
            Control::TauExponent(d) => write!(f, "tau-exponent{d:+}"),
            Control::BetaExponent(d) => write!(f, "beta-exponent{d:+}"),
        }
    }
}

impl FromStr for Control {
    type Err = Error;
    fn from_str(s: &str) -> Result<Self> {
        type Shift = fn(f64) -> Control;
        let shifts: [(&str, Shift); 2] = [
            ("tau-exponent", Control::TauExponent),
            ("beta-exponent", Control::BetaExponent),
        ];
        for (prefix, make) in shifts {
            if let Some(d) = s.strip_prefix(prefix) {
                return d
                    .parse::<f64>()
                    .ok()
                    .filter(|d| d.is_finite())
                    .map(make)
                    .ok_or_else(|| {
                        Error::invalid("control", format!("bad exponent shift in {s:?}"))
                    });
            }
        }
        [
            Control::Fault(Fault::None),
            Control::Fault(Fault::ExtraProjection),
        ]
        .into_iter()
        .chain(Control::FAULTS)
        .find(|c| c.to_string() == s)
        .ok_or_else(|| {
            Error::invalid(
                "control",
                format!(
                    "unknown control {s:?} (constant-tau, beta-ignored, dual-at-next-x, primal-sign-flip, gamma-unclipped, extra-projection, tau-exponent+D, beta-exponent-D)"
                ),
            )
        })
    }
}
