//! Negative controls of the rate gates: deliberately broken variants of Algorithms 1-3.
//!
//! A gate that cannot fail is worthless, so every gate of [`crate::verify`] is run, in the
//! tests, on variants the paper does not analyse and must fail at least one gate. Each variant
//! is the real solver ([`DualSmoothing`], the one implementation of Algorithms 1-3) with one
//! option switched ([`Fault`], or an altered schedule): the step code is never copied.
//!
//! | control | what changes | expected to break |
//! |---|---|---|
//! | `constant-tau` | `tau_t = tau_0` for every t | LMO primal steps jump between vertices: G_X^LMO does not decay |
//! | `beta-ignored` | `beta_t` left out of the dual gradient (the schedule still reports it) | mu = 0 cases: the dual LMO step loses its smoothing |
//! | `dual-at-next-x` | dual gradient at `(x_{t+1}, y_t)` instead of `(x_t, y_t)` | a Gauss-Seidel variant the analysis does not cover |
//! | `primal-sign-flip` | primal step in the ascent direction | every primal quantity |
//! | `gamma-unclipped` | the short step without `min{., 1}` | dual LMO steps leave Y |
//! | `tau-exponent+0.15` | `a -> a + 0.15` in `tau_t` (issue 10's "mildly slowed" variant) | only hard instances (a pass on random ones is expected) |
//! | `beta-exponent-0.1` | `b -> b - 0.1` in `beta_t` (the smoothing decays too slowly; issue 10) | the smoothing-bias regime of the hard instances ([`crate::tightness`]) |
//!
//! ```
//! use saddlefw::verify::controls::Control;
//! // every control's name parses back to it, the exponent shifts included
//! let shifts = [Control::TauExponent(0.15), Control::BetaExponent(-0.1)];
//! for c in Control::FAULTS.into_iter().chain(shifts) {
//!     assert_eq!(c.to_string().parse::<Control>().unwrap(), c);
//! }
//! assert_eq!(shifts[0].to_string(), "tau-exponent+0.15");
//! let e = "constant-beta".parse::<Control>().unwrap_err();
//! assert!(e.to_string().contains("\"constant-beta\""), "{e}");
//! assert!("tau-exponent+x".parse::<Control>().is_err());
//! ```

use crate::problems::Constants;
use crate::solvers::defaults::RunSchedules;
use crate::solvers::schedule::{PoLmoTau, Schedule};
use crate::solvers::smoothing::PaperAlgorithm;
use crate::solvers::{DualSmoothing, Fault, Solver};
use crate::theorems::{Algorithm, TheoremEntry};
use crate::{Error, Result};
use std::fmt;
use std::str::FromStr;

/// A broken variant of the entry's algorithm.
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

/// The paper's algorithm of a table entry.
pub fn paper_algorithm(a: Algorithm) -> PaperAlgorithm {
    match a {
        Algorithm::LmoLmo => PaperAlgorithm::LmoLmo,
        Algorithm::LmoPo => PaperAlgorithm::LmoPo,
        Algorithm::PoLmo => PaperAlgorithm::PoLmo,
    }
}

/// The entry's schedule (resolved into the solvers' [`Schedule`] types) as `control` alters
/// it: the exponent shifts change it, every other control leaves it as the theorem states.
pub fn controlled_schedules(
    entry: &TheoremEntry,
    k: &Constants,
    control: Option<Control>,
) -> Result<RunSchedules> {
    let mut s = entry.schedule.resolve(k)?;
    match control {
        Some(Control::TauExponent(d)) => {
            s.tau = match s.tau {
                Schedule::Anytime { c, a } => Schedule::Anytime { c, a: a + d },
                Schedule::PoLmo(p) => Schedule::PoLmo(PoLmoTau { a: p.a + d, ..p }),
                other => other,
            };
        }
        Some(Control::BetaExponent(d)) => {
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
        _ => {}
    }
    Ok(s)
}

/// The solver an entry is verified with: the entry's algorithm with the entry's schedule,
/// optionally broken by `control` ([`controlled_schedules`], [`Fault`]). The real solver is
/// `control = None`; [`crate::verify::EntrySolver`] is the factory around it.
pub fn build_solver(
    entry: &TheoremEntry,
    k: &Constants,
    control: Option<Control>,
) -> Result<Box<dyn Solver>> {
    let s = controlled_schedules(entry, k, control)?;
    let algorithm = entry.algorithm.solver().ok_or_else(|| {
        Error::invalid(
            format!("entry {}", entry.id),
            format!(
                "algorithm {} has no built-in solver: give the entry a \"solver\" \
                 (lmo-lmo, lmo-po, po-lmo), or verify your own solver (saddlefw::gate, \
                 or verify-iterates)",
                entry.algorithm
            ),
        )
    })?;
    let solver = DualSmoothing::new(paper_algorithm(algorithm), s.tau, s.beta, k)?;
    Ok(Box::new(match control {
        Some(Control::Fault(f)) => solver.with_fault(f),
        _ => solver,
    }))
}
