//! The vocabulary of an invariant: where it is evaluated ([`Scope`]), whether the paper
//! proves or only prints it ([`Kind`]), one evaluation ([`Eval`]) and the tolerances (the
//! hypotheses, which read a run, are [`super::context::Hyp`]). Used by every registry file.
//!
//! ```
//! use saddlefw::invariants::model::Eval;
//! let e = Eval::le(1.0, 2.0, 0.0);
//! assert!(e.slack() > 0.0);
//! ```

use serde::Serialize;

/// Relative tolerance of every evaluation (see the module docs).
pub const REL_TOL: f64 = 1e-9;
/// Absolute tolerance floor.
pub const ABS_TOL: f64 = 1e-12;

/// Where an invariant is evaluated.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum Scope {
    /// Any point of `X x Y` (random points and every iterate of a run).
    Point,
    /// One transition `(x_t, y_t) -> (x_{t+1}, y_{t+1})` of a run, with its StepInfo.
    Step,
    /// Accumulations over a run, for every horizon `T`.
    Run,
    /// A pure real-number inequality checked on a grid.
    Real,
}

/// Whether the inequality is the paper's (proven) statement, a corrected form of a printed
/// slip, or the printed form itself.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum Kind {
    /// As printed (or an intermediate step of a proof), with a valid derivation.
    Proven,
    /// The corrected form of a printed slip; `printed` names the printed twin.
    Corrected { printed: &'static str },
    /// The printed form of a slip recorded in claims.md; `corrected` names the gating twin.
    Printed { corrected: &'static str },
}

/// One evaluation of an inequality `lhs <= rhs`.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Eval {
    pub lhs: f64,
    pub rhs: f64,
    /// Magnitude the tolerance is relative to (see the module docs).
    pub scale: f64,
    /// Iteration (Step: t of the transition; Run: the horizon T; Real: grid index).
    pub t: Option<usize>,
    /// Why a side can be non-finite (e.g. a printed formula dividing by zero): reported with
    /// the evaluation when it is not finite ([`Eval::undefined_if`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub undefined: Option<&'static str>,
}

impl Eval {
    /// `lhs <= rhs` with scale `|lhs| + |rhs| + extra`.
    pub fn le(lhs: f64, rhs: f64, extra: f64) -> Eval {
        Eval {
            lhs,
            rhs,
            scale: lhs.abs() + rhs.abs() + extra.abs(),
            t: None,
            undefined: None,
        }
    }
    /// `lhs >= rhs`, i.e. `rhs <= lhs`.
    pub fn ge(lhs: f64, rhs: f64, extra: f64) -> Eval {
        Eval::le(rhs, lhs, extra)
    }
    /// Tags the evaluation with an iteration / horizon / grid index.
    pub fn at(mut self, t: usize) -> Eval {
        self.t = Some(t);
        self
    }
    /// Records why the formula can be undefined here (the reason is reported only when a side
    /// is not finite).
    pub fn undefined_if(mut self, reason: &'static str) -> Eval {
        self.undefined = Some(reason);
        self
    }
    /// The reason a side is not finite (`None` when both are finite).
    pub fn undefined_reason(&self) -> Option<&'static str> {
        if self.finite() {
            None
        } else {
            Some(
                self.undefined
                    .unwrap_or("a side is not finite (overflow or an undefined operation)"),
            )
        }
    }
    /// `rhs - lhs`.
    pub fn slack(&self) -> f64 {
        self.rhs - self.lhs
    }
    /// The slack relative to the scale (the quantity used to pick the worst case).
    pub fn rel_slack(&self) -> f64 {
        if !self.finite() {
            return f64::NEG_INFINITY;
        }
        self.slack() / self.scale.max(ABS_TOL)
    }
    /// Both sides finite.
    pub fn finite(&self) -> bool {
        self.lhs.is_finite() && self.rhs.is_finite()
    }
    /// Violated: a side is not finite, or the slack is below the tolerance.
    pub fn violated(&self) -> bool {
        !self.finite() || self.slack() < -(REL_TOL * self.scale + ABS_TOL)
    }
}
