//! The defaults of Algorithms 1-3 (claims.md 3.1): the theorem cases, read from the theorem
//! table ([`crate::paper::theorems`]), the case an algorithm uses on a problem setting
//! ([`theorem_case`]), the schedules of a table entry ([`RunSchedules`]) and the user's
//! overrides applied to them ([`resolve_paper`]).
//!
//! ```
//! use saddlefw::solvers::defaults::{theorem_case, theorem_cases};
//! assert_eq!(theorem_cases().len(), 19);
//! // LMO-PO projects on Y: a strongly convex Y uses the case without it, with a note
//! let (case, note) = theorem_case("lmo-po", "c-c+sc").unwrap();
//! assert_eq!((case.setting, note.is_some()), ("c-c", true));
//! ```

use super::options::{name_of, Options};
use super::schedule::{non_negative, GSpec, PoLmoTau, Schedule};
use crate::paper::theorems::ScheduleSpec;
use crate::problems::{Assumptions, Constants};
use crate::{Error, Result};
use std::sync::OnceLock;

/// One row of claims.md Sec. 3.1 as the solvers read it from the theorem table
/// ([`crate::paper::theorems`]): the schedule a theorem case prescribes.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TheoremCase {
    /// Registry name of the algorithm.
    pub algorithm: &'static str,
    /// Setting label as in [`Assumptions::setting`], e.g. `nc-c+sc`.
    pub setting: &'static str,
    /// The paper's theorem label and item, e.g. `theorem:fw-fw-unified-nc-c-convergence (i) fw-fw:nc-c`.
    pub label: &'static str,
    /// Exponent a of `tau_t`.
    pub a: f64,
    /// Exponent b of `beta_t = C (t+1)^-b`; `None` for the "beta_t = 0" cases (C = 0, mu > 0).
    pub b: Option<f64>,
    /// The table's schedule (for PO-LMO the appendix schedule's factor and A).
    pub schedule: &'static ScheduleSpec,
}

/// The 19 theorem cases of claims.md Sec. 3.1 (rows 1-19) in table order: one per case of
/// the built-in theorem table, the single source of the default schedules. When a theorem
/// allows any `C > 0` the table uses `C = 1`; the PO-LMO rows use the appendix schedule with
/// `A = 1` (factor 3/4 for the `+sc` rows, 1/5 otherwise).
pub fn theorem_cases() -> &'static [TheoremCase] {
    static CASES: OnceLock<Vec<TheoremCase>> = OnceLock::new();
    CASES.get_or_init(|| {
        let mut cases: Vec<TheoremCase> = Vec::new();
        for e in crate::paper::theorems::table() {
            if cases
                .iter()
                .any(|c| c.algorithm == e.algorithm.name() && c.setting == e.setting)
            {
                continue;
            }
            let (a, b, c) = e.schedule.abc();
            cases.push(TheoremCase {
                algorithm: e.algorithm.name(),
                setting: &e.setting,
                label: &e.label,
                a,
                b: (c != 0.0).then_some(b),
                schedule: &e.schedule,
            });
        }
        cases
    })
}

/// The schedules a run of a theorem entry uses.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RunSchedules {
    /// `tau_t`.
    pub tau: Schedule,
    /// `beta_t`.
    pub beta: Schedule,
}

/// The solvers' reading of a theorem table schedule.
impl ScheduleSpec {
    /// The solvers' schedules: `tau_t = (t+1)^-a` (`anytime(c=1,a=a)`) or the PO-LMO
    /// appendix step size ([`PoLmoTau`], which needs the problem's
    /// constants), and `beta_t = C (t+1)^-b` (`anytime(c=C,a=b)`, or `zero` when C = 0).
    /// Errors when the appendix schedule is undefined (C = 0 with mu = 0).
    pub fn resolve(&self, k: &Constants) -> Result<RunSchedules> {
        let (a, b, c) = self.abc();
        let beta = if c == 0.0 {
            Schedule::Zero
        } else {
            Schedule::Anytime { c, a: b }
        };
        let tau = match self {
            ScheduleSpec::Poly(_) => Schedule::Anytime { c: 1.0, a },
            ScheduleSpec::PoLmoAppendix(p) => {
                Schedule::PoLmo(PoLmoTau::new(p.factor, p.big_a, a, b, c, k)?)
            }
        };
        Ok(RunSchedules { tau, beta })
    }
}

/// The theorem case whose schedule an algorithm uses by default on a problem `setting`, and a
/// note when the setting has no theorem of its own for that algorithm:
/// * LMO-PO projects on Y, so Assumption 2 plays no role: `X+sc` uses the `X` case;
/// * PO-LMO has no C-C + SC Y theorem (L668: no rate faster than O(T^-1/3)): `c-c+sc` uses `c-c`.
pub fn theorem_case(
    algorithm: &str,
    setting: &str,
) -> Option<(&'static TheoremCase, Option<&'static str>)> {
    let find = |s: &str| {
        theorem_cases()
            .iter()
            .find(|c| c.algorithm == algorithm && c.setting == s)
    };
    if let Some(c) = find(setting) {
        return Some((c, None));
    }
    match (algorithm, setting.strip_suffix("+sc")) {
        ("lmo-po", Some(base)) => find(base).map(|c| {
            (
                c,
                Some("LMO-PO projects on Y, Assumption 2 plays no role (claims.md 3.1): using the case without SC Y"),
            )
        }),
        ("po-lmo", Some("c-c")) => find("c-c").map(|c| {
            (
                c,
                Some("PO-LMO has no C-C + SC Y theorem (paper L668): using fw-pr:c-c"),
            )
        }),
        _ => None,
    }
}

/// The schedules an algorithm of the paper runs with, and why.
#[derive(Debug, Clone, PartialEq)]
pub struct Resolved {
    pub tau: Schedule,
    pub beta: Schedule,
    /// The theorem case the defaults come from (label and item, with the setting).
    pub theorem_case: Option<String>,
    /// Fallbacks, overrides and free choices (C = 1, A = 1) made.
    pub notes: Vec<String>,
    /// Set when tau is the PO-LMO appendix schedule.
    pub g: Option<GSpec>,
}

/// The defaults of Algorithms 1-3 for a problem, with the user's overrides applied.
///
/// * `tau_t = tau0 (t+1)^-a` with `tau0 = 1` (`eq:fw-fw-stepsize`, `eq:fw-proj-stepsize`) for
///   LMO-LMO and LMO-PO (the solver clips it to `[0,1]`);
/// * PO-LMO: the appendix schedule [`PoLmoTau`] with `A = 1`, or `tau0 (t+1)^-a` (the main
///   text's `Theta(t^-a)`) when `tau0` is given;
/// * `beta_t = C (t+1)^-b` with `C = 1` when the theorem allows any `C > 0`, `beta_t = 0`
///   for the "beta_t = 0" cases.
///
/// Both schedules given in full need no theorem case (a theorem entry's own schedule, as
/// `verify` builds it). Errors when `max{beta_t, mu} > 0` fails (C = 0 with mu = 0), and on
/// values out of domain.
pub fn resolve_paper(
    algorithm: &str,
    assumptions: &Assumptions,
    constants: &Constants,
    o: &Options,
) -> Result<Resolved> {
    let setting = assumptions.setting();
    let found = theorem_case(algorithm, &setting.to_string());
    let no_case = || {
        Error::invalid(
            name_of("--algo"),
            format!("no theorem case for {algorithm} on setting {setting}"),
        )
    };
    let explicit = o.tau.is_some() && o.beta.is_some();
    if found.is_none() && !explicit {
        return Err(no_case());
    }
    let case = found.map(|(c, _)| c);
    let mut notes: Vec<String> = found
        .and_then(|(_, n)| n)
        .map(String::from)
        .into_iter()
        .collect();
    check_values(o)?;
    let a = o.a.or(case.map(|c| c.a)).unwrap_or(0.0);
    if let (Some(a), Some(case)) = (o.a, case) {
        notes.push(format!("--a {a} overrides the theorem's a = {}", case.a));
    }
    // beta_t = C (t+1)^-b
    let cb = match o.beta {
        Some(_) => None,
        None => Some(beta_parts(case.ok_or_else(no_case)?, o, &mut notes)?),
    };
    let beta = match (o.beta, cb) {
        (Some(s), _) => {
            s.validate()?;
            notes.push("beta schedule given explicitly".into());
            s
        }
        (None, Some((c, b))) if c > 0.0 => Schedule::Anytime { c, a: b },
        _ => Schedule::Zero,
    };
    if !beta.is_positive() && constants.mu <= 0.0 {
        return Err(Error::invalid(
            "--beta0",
            format!(
                "beta_t = 0 (C = 0) needs a strongly concave problem (mu > 0), but this problem has mu = {}: max{{beta_t, mu}} > 0 is required (alg:fw-fw L1474)",
                constants.mu
            ),
        ));
    }
    let tau = match o.tau {
        Some(s) => {
            s.validate()?;
            notes.push("tau schedule given explicitly".into());
            s
        }
        None => {
            let case = case.ok_or_else(no_case)?;
            default_tau(algorithm, case, a, cb, constants, o.tau0, &mut notes)?
        }
    };
    let g = match tau {
        Schedule::PoLmo(p) => Some(GSpec {
            kind: p.g_kind(),
            tau,
            beta,
            lxx: p.lxx,
            lyx: p.lyx,
            mu: p.mu,
        }),
        _ => None,
    };
    Ok(Resolved {
        tau,
        beta,
        // no theorem case is "used" when both schedules are given in full
        theorem_case: case.filter(|_| !explicit).map(|c| c.label.to_string()),
        notes,
        g,
    })
}

/// The overrides' values are in their domains (`a`, `b`, `C >= 0`; `tau0 > 0`).
fn check_values(o: &Options) -> Result<()> {
    for (flag, v) in [("--a", o.a), ("--b", o.b), ("--beta0", o.beta0)] {
        if let Some(v) = v {
            non_negative(flag, "the value", v).map_err(|_| {
                Error::invalid(
                    name_of(flag),
                    format!("must be a finite number >= 0, got {v}"),
                )
            })?;
        }
    }
    if let Some(v) = o.tau0 {
        if !(v.is_finite() && v > 0.0) {
            return Err(Error::invalid(
                name_of("--tau0"),
                format!("must be a finite number > 0, got {v}"),
            ));
        }
    }
    Ok(())
}

/// `(C, b)` of `beta_t = C (t+1)^-b`: the case's, with the overrides applied.
fn beta_parts(case: &TheoremCase, o: &Options, notes: &mut Vec<String>) -> Result<(f64, f64)> {
    let c = match (o.beta0, case.b, o.b) {
        (Some(c), _, _) => c,
        (None, Some(_), _) => {
            notes.push("C = 1 (the theorem allows any C > 0)".into());
            1.0
        }
        (None, None, Some(_)) => {
            notes.push("--b given for a beta_t = 0 case: C = 1".into());
            1.0
        }
        (None, None, None) => 0.0,
    };
    let b = match (o.b, case.b) {
        (Some(b), _) => {
            notes.push(format!("--b {b} overrides the theorem's b"));
            b
        }
        (None, Some(b)) => b,
        (None, None) if c > 0.0 => {
            return Err(Error::invalid(
                name_of("--beta0"),
                format!(
                "C > 0 needs an exponent: the theorem case {} uses beta_t = 0, give Options::b too",
                case.label
            ),
            ))
        }
        (None, None) => 0.0,
    };
    Ok((c, b))
}

/// The default `tau_t` of a case: the PO-LMO appendix schedule, or `tau0 (t+1)^-a`.
fn default_tau(
    algorithm: &str,
    case: &TheoremCase,
    a: f64,
    cb: Option<(f64, f64)>,
    constants: &Constants,
    tau0: Option<f64>,
    notes: &mut Vec<String>,
) -> Result<Schedule> {
    if algorithm == "po-lmo" && tau0.is_none() {
        let Some((c, b)) = cb else {
            return Err(Error::invalid(
                name_of("--beta-schedule"),
                "the PO-LMO appendix schedule is defined with beta_t = C (t+1)^-b: with an explicit beta schedule give Options::tau0 or Options::tau too",
            ));
        };
        let sc_y_case = case.setting.ends_with("+sc");
        let (factor, big_a) = match case.schedule {
            ScheduleSpec::PoLmoAppendix(p) => (p.factor, p.big_a),
            ScheduleSpec::Poly(_) => {
                unreachable!("validated table: PO-LMO rows use the appendix schedule")
            }
        };
        notes.push(format!(
            "PO-LMO appendix schedule with A = 1 and factor {} (claims.md 2.3){}",
            if sc_y_case { "3/4" } else { "1/5" },
            if c == 0.0 {
                "; C = 0 repaired with 13 Lyx^2/(2 mu)"
            } else {
                ""
            }
        ));
        return Ok(Schedule::PoLmo(PoLmoTau::new(
            factor, big_a, a, b, c, constants,
        )?));
    }
    if algorithm == "po-lmo" {
        notes.push(
            "--tau0 given: main-text form tau_t = tau0 (t+1)^-a instead of the appendix schedule"
                .into(),
        );
    }
    Ok(Schedule::Anytime {
        c: tau0.unwrap_or(1.0),
        a,
    })
}
