//! The schedules a run used, checked against the entry's hypotheses (issue 34, scope 2).
//!
//! The theorems assume `beta_t = C (t+1)^-b` with any `C > 0` (`eq:fw-fw-stepsize`,
//! `eq:fw-proj-stepsize`; PO-LMO: `theorem:proj-fw-convergence`), or `beta_t = 0` where they
//! set `C = 0` (then `mu > 0`), and for LMO-LMO and LMO-PO `tau_t = Theta((t+1)^-a)`. `H_t` is
//! measured with the `beta_t` the solver reports (`verify::source::MeasuredWith`); the
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

/// Checks the `tau_t` the steps reported against the entry's `tau_t` (None: not checked, for
/// a solver that reports no `tau_t`): the anytime and shifted forms by their exponent, the
/// PO-LMO step by its form ([`check_po_lmo_form`]).
pub fn check_tau(entry: &Schedule, used: &[(usize, f64)]) -> Option<ScheduleCheck> {
    if used.iter().all(|(_, v)| *v == 0.0) {
        return None;
    }
    match entry {
        Schedule::PoLmo(p) => Some(check_po_lmo_form(p, used)),
        Schedule::Anytime { c, .. } | Schedule::Shifted { c, .. } if *c > 0.0 => {
            Some(check_named("tau_t", entry, used, true))
        }
        _ => None,
    }
}

/// Largest relative residual of the PO-LMO step's form (below: inside the hypotheses).
/// Index offsets and any `A, C > 0` leave at most about 2e-4 over `[T/16, T]` at the quick
/// horizon; an exponent shifted by 0.1 leaves at least about 8e-3 for the table's schedules.
pub(crate) const PO_LMO_FORM_TOL: f64 = 1e-3;

/// `theorem:proj-fw-convergence` (claims.md 2.3): `tau_t = f [A (t+1)^a + 5 Lxx/2 + K (t+1)^b]^-1`
/// with the theorem's `f`, `a`, `b` and free `A > 0`, `K = 13 Lyx^2/(2C) >= 0` (with `C = 0`:
/// `13 Lyx^2/(2 mu)`, a constant). Fits `f/tau_t - 5 Lxx/2 = A (t+1)^a + K (t+1)^b` by least
/// squares over `[T/16, T]` and checks `A > 0`, `K >= 0` and the relative residual.
pub fn check_po_lmo_form(
    p: &crate::solvers::schedule::PoLmoTau,
    used: &[(usize, f64)],
) -> ScheduleCheck {
    let name = "tau_t";
    let mk = |holds: bool, c_hat: Option<f64>, note: String| ScheduleCheck {
        name: name.into(),
        declared: true,
        b: Some(p.a),
        b_hat: None,
        c_hat,
        holds,
        note,
    };
    if let Some((t, v)) = used.iter().find(|(_, v)| !(v.is_finite() && *v > 0.0)) {
        return mk(
            false,
            None,
            format!("tau_t = {v:e} at t = {t} is not a positive number"),
        );
    }
    let Some(&(t_last, _)) = used.last() else {
        return mk(true, None, "no step".into());
    };
    // the C = 0 repair makes the coupling term a constant: exponent 0
    let b = if p.c > 0.0 { p.b } else { 0.0 };
    let rows: Vec<(f64, f64, f64)> = used
        .iter()
        .filter(|(t, _)| *t >= (t_last / 16).max(1))
        .map(|&(t, v)| {
            let k = t as f64 + 1.0;
            (k.powf(p.a), k.powf(b), p.factor / v - 2.5 * p.lxx)
        })
        .collect();
    if rows.len() < 3 {
        return mk(true, None, "horizon too short to check the form".into());
    }
    let (mut s11, mut s12, mut s22, mut r1, mut r2) = (0.0, 0.0, 0.0, 0.0, 0.0);
    for &(x1, x2, u) in &rows {
        s11 += x1 * x1;
        s12 += x1 * x2;
        s22 += x2 * x2;
        r1 += x1 * u;
        r2 += x2 * u;
    }
    let det = s11 * s22 - s12 * s12;
    let (big_a, k) = if det.abs() > 0.0 {
        ((r1 * s22 - r2 * s12) / det, (s11 * r2 - s12 * r1) / det)
    } else {
        (f64::NAN, f64::NAN)
    };
    let resid = rows
        .iter()
        .map(|&(x1, x2, u)| ((big_a * x1 + k * x2 - u) / u).abs())
        .fold(0.0, f64::max);
    let holds = big_a > 0.0 && k >= -1e-9 * k.abs().max(1.0) && resid <= PO_LMO_FORM_TOL;
    let note = if holds {
        format!("tau_t = {} [A (t+1)^{:.4} + 5Lxx/2 + K (t+1)^{b:.4}]^-1 with A = {big_a:.4}, K = {k:.4} (relative residual {resid:.1e})", p.factor, p.a)
    } else {
        format!("tau_t is not of the theorem's form {} [A (t+1)^{:.4} + 5Lxx/2 + K (t+1)^{b:.4}]^-1 with A > 0, K >= 0 over [{}, {t_last}]: best A = {big_a:.4}, K = {k:.4}, relative residual {resid:.1e} > {PO_LMO_FORM_TOL:e}", p.factor, p.a, (t_last / 16).max(1))
    };
    mk(holds, Some(big_a), note)
}

fn check_named(
    name: &str,
    entry: &Schedule,
    used: &[(usize, f64)],
    declared: bool,
) -> ScheduleCheck {
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
            // 0 where the theorem sets 0 is what a solver that reports nothing says too:
            // nothing to check, so not a declaration (issue 34, item 6: a check that cannot
            // fail is not reported as passing)
            None => ScheduleCheck {
                declared: false,
                ..mk(
                    None,
                    None,
                    true,
                    format!("{name} = 0 as the theorem sets (nothing to check)"),
                )
            },
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
        return mk(
            None,
            Some(c_hat),
            true,
            "horizon too short to fit the exponent".into(),
        );
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
        format!(
            "{name} ~ {c_hat:.4} {}: the theorem's exponent {b:.4}, constant > 0 free",
            power(b_hat)
        )
    } else {
        format!("{name} decays like {} over [{}, {t_last}], but the theorem's schedule has exponent {b:.4} (C (t+1)^-e, any C > 0)", power(b_hat), (t_last / 16).max(1))
    };
    mk(Some(b_hat), Some(c_hat), holds, note)
}

/// `(t+1)^-b` with the fitted decay exponent `b`: `(t+1)^-0.5000`, and `(t+1)^0.2000` for a
/// schedule that grows (`b = -0.2`), never a double minus.
fn power(b: f64) -> String {
    let s = format!("{b:.4}");
    match s.strip_prefix('-') {
        Some(growth) => format!("(t+1)^{growth}"),
        None => format!("(t+1)^-{s}"),
    }
}
