//! Negative controls of Algorithms 1-3: deliberately broken variants that a check must reject
//! (a check that cannot fail is worthless). They are applied from here, the controls' side, to
//! the one implementation of the algorithms ([`DualSmoothing`]); the step code is never copied.
//!
//! | control | applied as |
//! |---|---|
//! | `constant-tau` | a schedule: `tau_t = tau_0` for every t |
//! | `tau-exponent+D`, `beta-exponent+D` | a schedule: the exponent shifted ([`Control::schedules`]) |
//! | `extra-projection` | a wrapper around the solver: one projection onto X per iteration, result unused |
//! | `gamma-unclipped`, `beta-ignored`, `primal-sign-flip`, `dual-at-next-x` | the solver's one step hook |
//! | `dual-step-doubled`, `stale-gradient`, `clip-not-project`, `dual-skip-odd` | the same hook |
//! | `tau-scale*K`, `tau-offset+S`, `offset+S`, `beta-scale*K`, `big-a*K` | a schedule: another constant or index offset ([`Control::schedules`]) |
//! | `start-other` | the job's start point ([`other_start`]) |
//! | `float-order` | the same hook: the same update with its operations in another order |
//!
//! Not every variant is broken: the schedule constants and offsets, another start point and
//! another operation order stay inside the theorems' hypotheses for the entries where
//! `crate::calibration` puts them in its legitimate panel (the gates must pass them); the
//! faults and exponent shifts form its faulty panel (the gates must reject them).
//!
//! The last four change quantities that exist only inside one iteration (the gradient buffers,
//! the point where the dual gradient is taken, the short step's clipping): no wrapper can reach
//! them without copying the step, so they sit behind the solver's one step hook (`DualSmoothing::with_step_fault`).
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
pub use super::fault::Fault;
use super::schedule::{PoLmoTau, Schedule};
use super::smoothing::DualSmoothing;
use super::{Solver, StepInfo};
use crate::problems::SaddleProblem;
use crate::{Error, Result};
use std::fmt;
use std::str::FromStr;

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
    /// `tau_t` scaled by K (the anytime and shifted forms; the PO-LMO step has [`Control::BigAScale`]).
    TauScale(f64),
    /// `tau_t = (t+1+S)^-a` (PO-LMO: `t+1+S` in both power terms of its step), `beta_t` kept.
    TauOffset(f64),
    /// Both schedules at index `t+S`: `tau_{t+S}` and `beta_{t+S}`.
    Offset(f64),
    /// The constant C of `beta_t = C (t+1)^-b` scaled by K (PO-LMO: in its step too); no
    /// effect when C = 0.
    BetaScale(f64),
    /// PO-LMO's free constant A of `A (t+1)^a` scaled by K (no effect on the other algorithms).
    BigAScale(f64),
    /// Another start point in `X x Y` ([`other_start`]).
    StartOther,
    /// The same update with its floating-point operations in another order.
    FloatOrder,
}

impl Control {
    /// The fault-based controls, in a fixed order (for listings and tests).
    pub const FAULTS: [Control; 9] = [
        Control::Fault(Fault::ConstantTau),
        Control::Fault(Fault::BetaIgnored),
        Control::Fault(Fault::DualAtNextX),
        Control::Fault(Fault::PrimalSignFlip),
        Control::Fault(Fault::GammaUnclipped),
        Control::Fault(Fault::DualStepDoubled),
        Control::Fault(Fault::StaleGradient),
        Control::Fault(Fault::ClipNotProject),
        Control::Fault(Fault::DualSkipOdd),
    ];

    /// The variants without a parameter that are not faults.
    pub(crate) const PLAIN: [Control; 2] = [Control::StartOther, Control::FloatOrder];

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
            Control::TauScale(k) => {
                s.tau = match s.tau {
                    Schedule::Anytime { c, a } => Schedule::Anytime { c: c * k, a },
                    Schedule::Shifted { c, s, a } => Schedule::Shifted { c: c * k, s, a },
                    other => other,
                };
            }
            Control::TauOffset(d) => s.tau = offset(s.tau, d),
            Control::Offset(d) => {
                s.tau = offset(s.tau, d);
                s.beta = offset(s.beta, d);
            }
            Control::BetaScale(k) => {
                s.beta = match s.beta {
                    Schedule::Anytime { c, a } => Schedule::Anytime { c: c * k, a },
                    Schedule::Shifted { c, s, a } => Schedule::Shifted { c: c * k, s, a },
                    other => other,
                };
                if let Schedule::PoLmo(p) = s.tau {
                    s.tau = Schedule::PoLmo(PoLmoTau { c: p.c * k, ..p });
                }
            }
            Control::BigAScale(k) => {
                if let Schedule::PoLmo(p) = s.tau {
                    s.tau = Schedule::PoLmo(PoLmoTau {
                        big_a: p.big_a * k,
                        ..p
                    });
                }
            }
            Control::Fault(_) | Control::StartOther | Control::FloatOrder => {}
        }
        s
    }

    /// The solver with the control applied (its schedules already altered by
    /// [`Control::schedules`]).
    pub fn apply(self, solver: DualSmoothing) -> Box<dyn Solver> {
        match self {
            Control::Fault(f) => with_fault(solver, f),
            Control::FloatOrder => Box::new(solver.with_float_order()),
            _ => Box::new(solver),
        }
    }
}

/// `sched` at index `t + d` (a zero schedule stays zero).
fn offset(sched: Schedule, d: f64) -> Schedule {
    match sched {
        Schedule::Anytime { c, a } if c > 0.0 => Schedule::Shifted { c, s: 1.0 + d, a },
        Schedule::Shifted { c, s, a } => Schedule::Shifted { c, s: s + d, a },
        Schedule::PoLmo(p) => Schedule::PoLmo(PoLmoTau {
            shift: p.shift + d,
            ..p
        }),
        other => other,
    }
}

/// The `start-other` variant's start point: halfway between the instance's start and a vertex
/// of each set (the LMO of a Gaussian direction seeded by the instance's seed), so a point of
/// `X x Y` the generator did not choose (feasible by convexity).
pub fn other_start(inst: &crate::Instance) -> (Vec<f64>, Vec<f64>) {
    use rand::SeedableRng;
    use rand_distr::{Distribution, StandardNormal};
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(inst.seed.unwrap_or(0) ^ 0x5EED_0F_57A27);
    let mut towards = |set: &dyn crate::sets::ConvexSet, z0: &[f64]| {
        let d: Vec<f64> = (0..z0.len())
            .map(|_| StandardNormal.sample(&mut rng))
            .collect();
        let mut v = vec![0.0; z0.len()];
        set.lmo(&d, &mut v);
        z0.iter()
            .zip(&v)
            .map(|(a, b)| 0.5 * (a + b))
            .collect::<Vec<f64>>()
    };
    let x0 = towards(inst.problem.x_set(), &inst.x0);
    let y0 = towards(inst.problem.y_set(), &inst.y0);
    (x0, y0)
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
        Fault::GammaUnclipped
        | Fault::BetaIgnored
        | Fault::PrimalSignFlip
        | Fault::DualAtNextX
        | Fault::DualStepDoubled
        | Fault::StaleGradient
        | Fault::ClipNotProject
        | Fault::DualSkipOdd => Box::new(solver.with_step_fault(fault)),
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
            Control::Fault(fault) => f.write_str(fault.name()),
            Control::TauExponent(d) => write!(f, "tau-exponent{d:+}"),
            Control::BetaExponent(d) => write!(f, "beta-exponent{d:+}"),
            Control::TauScale(k) => write!(f, "tau-scale*{k}"),
            Control::TauOffset(d) => write!(f, "tau-offset{d:+}"),
            Control::Offset(d) => write!(f, "offset{d:+}"),
            Control::BetaScale(k) => write!(f, "beta-scale*{k}"),
            Control::BigAScale(k) => write!(f, "big-a*{k}"),
            Control::StartOther => write!(f, "start-other"),
            Control::FloatOrder => write!(f, "float-order"),
        }
    }
}

impl FromStr for Control {
    type Err = Error;
    fn from_str(s: &str) -> Result<Self> {
        type Shift = fn(f64) -> Control;
        // (prefix, what the number is, its domain)
        let shifts: [(&str, Shift, fn(f64) -> bool); 7] = [
            ("tau-exponent", Control::TauExponent, f64::is_finite),
            ("beta-exponent", Control::BetaExponent, f64::is_finite),
            ("tau-scale*", Control::TauScale, |k| {
                k.is_finite() && k > 0.0
            }),
            ("tau-offset", Control::TauOffset, |d| {
                d.is_finite() && d >= 0.0
            }),
            ("offset", Control::Offset, |d| d.is_finite() && d >= 0.0),
            ("beta-scale*", Control::BetaScale, |k| {
                k.is_finite() && k > 0.0
            }),
            ("big-a*", Control::BigAScale, |k| k.is_finite() && k > 0.0),
        ];
        for (prefix, make, valid) in shifts {
            if let Some(d) = s.strip_prefix(prefix) {
                return d
                    .parse::<f64>()
                    .ok()
                    .filter(|d| valid(*d))
                    .map(make)
                    .ok_or_else(|| {
                        Error::invalid(
                            "control",
                            format!("bad number in {s:?} (exponent shifts: any finite number; scales: > 0; offsets: >= 0)"),
                        )
                    });
            }
        }
        [
            Control::Fault(Fault::None),
            Control::Fault(Fault::ExtraProjection),
        ]
        .into_iter()
        .chain(Control::FAULTS)
        .chain(Control::PLAIN)
        .find(|c| c.to_string() == s)
        .ok_or_else(|| {
            Error::invalid(
                "control",
                format!(
                    "unknown control {s:?} (constant-tau, beta-ignored, dual-at-next-x, primal-sign-flip, gamma-unclipped, extra-projection, dual-step-doubled, stale-gradient, clip-not-project, dual-skip-odd, tau-exponent+D, beta-exponent-D, tau-scale*K, tau-offset+S, offset+S, beta-scale*K, big-a*K, start-other, float-order)"
                ),
            )
        })
    }
}
