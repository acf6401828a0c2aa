//! The schedules a run used, checked against the entry's hypotheses (issue 34, scope 2).
//!
//! The theorems assume `beta_t = C (t+1)^-b` with any `C > 0` (`eq:fw-fw-stepsize`,
//! `eq:fw-proj-stepsize`; PO-LMO: `theorem:proj-fw-convergence`), or `beta_t = 0` where they
//! set `C = 0` (then `mu > 0`), and for LMO-LMO and LMO-PO `tau_t = Theta((t+1)^-a)`. `H_t` is
//! measured with the `beta_t` the solver reports ([`super::source::MeasuredWith`]); the
//! `tau_t` a step reports is in its `StepInfo`. This check says whether each is one the
//! theorem allows: positive and finite at every t with the theorem's exponent (fitted over
//! `[T/16, T]`, within [`EXPONENT_TOL`]; a constant factor or an index offset leaves it), or
//! zero at every t where the theorem has `C = 0`. A solver that reports no `tau_t` (0 at
//! every step) is not checked on it; the PO-LMO step (a sum of powers with free constants)
//! is not checked.
//!
//! ```
//! use saddlefw::solvers::Schedule;
//! use saddlefw::verify::schedule_check::check;
//! let entry = Schedule::Anytime { c: 1.0, a: 0.2 };
//! let used = |s: Schedule| (0..=4096).map(|t| (t, s.at(t))).collect::<Vec<_>>();
//! // another constant and an index offset stay inside the hypotheses
//! assert!(check(&entry, &used(Schedule::Shifted { c: 2.0, s: 2.0, a: 0.2 }), true).holds);
//! // another exponent does not
//! let slow = check(&entry, &used(Schedule::Anytime { c: 1.0, a: 0.1 }), true);
//! assert!(!slow.holds, "{}", slow.note);
//! ```

use crate::solvers::Schedule;
use serde::{Deserialize, Serialize};

/// Largest distance between the fitted exponent of the used `beta_t` and the entry's `b`.
pub const EXPONENT_TOL: f64 = 0.02;

/// What a run's `beta_t` (or `tau_t`) was and whether the entry's hypotheses allow it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ScheduleCheck {
    /// `beta_t` or `tau_t`.
    #[serde(default = "beta_name")]
    pub name: String,
    /// True when the run's own values were used (false: the solver reported none and the
    /// entry's `beta_t` was used for `H_t`).
    pub declared: bool,
    /// The entry's exponent (None where the entry has `beta_t = 0`).
    pub b: Option<f64>,
    /// The fitted exponent of the used values over `[T/16, T]` (None when not formed).
    pub b_hat: Option<f64>,
    /// `value_T (T+1)^b`: the constant the run used.
    pub c_hat: Option<f64>,
    pub holds: bool,
    pub note: String,
}

fn beta_name() -> String {
    "beta_t".into()
}

/// Checks the used `beta_t` (pairs `(t, beta_t)` in increasing t) against the entry's
/// schedule `entry`.
pub fn check(entry: &Schedule, used: &[(usize, f64)], declared: bool) -> ScheduleCheck {
    check_named("beta_t", entry, used, declared)
}

/// Checks the `tau_t` the steps reported against the entry's anytime or shifted `tau_t`
/// (None: not checked, for the PO-LMO step or a solver that reports no `tau_t`).
pub fn check_tau(entry: &Schedule, used: &[(usize, f64)]) -> Option<ScheduleCheck> {
    let checked = matches!(entry, Schedule::Anytime { c, .. } | Schedule::Shifted { c, .. } if *c > 0.0);
    if !checked || used.iter().all(|(_, v)| *v == 0.0) {
        return None;
    }
    Some(check_named("tau_t", entry, used, true))
}

fn check_named(name: &str, entry: &Schedule, used: &[(usize, f64)], declared: bool) -> ScheduleCheck {
    let b = match *entry {
        Schedule::Zero => None,
        Schedule::Anytime { c, .. } | Schedule::Shifted { c, .. } if c == 0.0 => None,
        Schedule::Anytime { a, .. } | Schedule::Shifted { a, .. } => Some(a),
        Schedule::Constant(v) if v == 0.0 => None,
        Schedule::Constant(_) => Some(0.0),
        Schedule::PoLmo(_) => None,
    };
    let mk = |b_hat, c_hat, holds, note: String| ScheduleCheck {
        name: name.to_string(),
        declared,
        b,
        b_hat,
        c_hat,
        holds,
        note,
    };
    let Some(b) = b else {
        return match used.iter().find(|(_, v)| *v != 0.0) {
            None => mk(None, None, true, format!("{name} = 0 as the theorem sets")),
            Some((t, v)) => mk(
                None,
                None,
                false,
                format!("{name} = {v:e} at t = {t}, but the theorem sets {name} = 0 (C = 0)"),
            ),
        };
    };
    if let Some((t, v)) = used.iter().find(|(_, v)| !(v.is_finite() && *v > 0.0)) {
        return mk(
            None,
            None,
            false,
            format!("{name} = {v:e} at t = {t} is not a positive number (the theorem has {name} = C (t+1)^-{b:.4} with C > 0)"),
        );
    }
    let Some(&(t_last, beta_last)) = used.last() else {
        return mk(None, None, true, "no iterate measured".into());
    };
    let late: Vec<(f64, f64)> = used
        .iter()
        .filter(|(t, _)| *t >= (t_last / 16).max(1))
        .map(|&(t, v)| (((t + 1) as f64).ln(), v.ln()))
        .collect();
    let c_hat = beta_last * ((t_last + 1) as f64).powf(b);
    if late.len() < 2 {
        return mk(None, Some(c_hat), true, "horizon too short to fit the exponent".into());
    }
    let n = late.len() as f64;
    let (mx, my) = late
        .iter()
        .fold((0.0, 0.0), |(a, c), (x, y)| (a + x / n, c + y / n));
    let (sxy, sxx) = late.iter().fold((0.0, 0.0), |(a, c), (x, y)| {
        (a + (x - mx) * (y - my), c + (x - mx) * (x - mx))
    });
    let b_hat = -sxy / sxx;
    let holds = (b_hat - b).abs() <= EXPONENT_TOL;
    let note = if holds {
        format!("{name} ~ {c_hat:.4} (t+1)^-{b_hat:.4}: the theorem's exponent {b:.4}, constant > 0 free")
    } else {
        format!("{name} decays like (t+1)^-{b_hat:.4} over [{}, {t_last}], but the theorem's schedule has exponent {b:.4} (C (t+1)^-e, any C > 0)", (t_last / 16).max(1))
    };
    mk(Some(b_hat), Some(c_hat), holds, note)
}
