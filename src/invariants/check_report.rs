//! The report of `saddlefw check` (CHECK.json): per-invariant rows, the errata list, and the
//! fold of the tallies into it.

use super::case::DEFAULT_HORIZON;
use super::tally::{ser_opt_f64, CaseResult, CheckShard, Tally, Worst};
use super::{Check, Invariant, Kind, Scope};
use serde::Serialize;

/// Per-invariant results of a check.
#[derive(Debug, Clone, Serialize)]
pub struct InvariantReport {
    pub name: &'static str,
    pub label: &'static str,
    pub scope: Scope,
    pub gating: bool,
    pub kind: Kind,
    pub hypotheses: &'static str,
    pub cases: usize,
    pub skipped: usize,
    pub evaluations: usize,
    pub violations: usize,
    /// Violations where a side is not finite.
    pub nonfinite_violations: usize,
    #[serde(serialize_with = "ser_opt_f64")]
    pub min_slack: Option<f64>,
    #[serde(serialize_with = "ser_opt_f64")]
    pub min_rel_slack: Option<f64>,
    pub worst: Option<Worst>,
}

/// The outcome categories of a printed form.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ErratumStatus {
    /// A violation with finite sides: the printed inequality is false at the witness.
    Confirmed,
    /// No finite violation, but the printed formula is not finite somewhere (a division by
    /// zero, a negative denominator): undefined there, which is not a confirmation.
    Undefined,
    /// Every evaluation finite and satisfied.
    Holds,
    /// The hypotheses never held on the tested instances.
    NotApplicable,
}

impl ErratumStatus {
    /// The `status` string of CHECK.json.
    pub fn text(self) -> &'static str {
        match self {
            ErratumStatus::Confirmed => "erratum confirmed numerically",
            ErratumStatus::Undefined => "printed form undefined",
            ErratumStatus::Holds => "printed form holds on all tested instances",
            ErratumStatus::NotApplicable => "not applicable on the tested instances",
        }
    }
}

/// The outcome of a printed form.
#[derive(Debug, Clone, Serialize)]
pub struct Erratum {
    pub printed: &'static str,
    pub corrected: &'static str,
    pub label: &'static str,
    /// One of the [`ErratumStatus`] texts: "erratum confirmed numerically" (a finite
    /// violation), "printed form undefined" (only non-finite values), "printed form holds on
    /// all tested instances" or "not applicable on the tested instances".
    pub status: String,
    pub cases: usize,
    pub evaluations: usize,
    /// All violations (`finite_violations + undefined`).
    pub violations: usize,
    /// Violations with finite sides (lhs > rhs beyond the tolerance): the confirmations.
    pub finite_violations: usize,
    /// Evaluations where the printed formula is not finite (division by zero, a non-positive
    /// denominator).
    pub undefined: usize,
    /// For "printed form undefined": why the formula is not finite.
    pub reason: Option<String>,
    /// The witness: for a finite violation the worst one (instance, t, lhs, rhs); for an
    /// undefined form the first undefined evaluation; otherwise the tightest evaluation.
    pub witness: Option<Worst>,
}

impl Erratum {
    /// The outcome in one line, e.g. "erratum confirmed numerically (instance, t, lhs, rhs)",
    /// "printed form undefined (reason; instance, t)" or "printed form holds on all tested
    /// instances", with the counts.
    pub fn outcome(&self) -> String {
        let counts = format!(
            "{} cases, {} evaluations: {} finite violations, {} undefined",
            self.cases, self.evaluations, self.finite_violations, self.undefined
        );
        match (&self.witness, self.finite_violations, self.undefined) {
            (Some(w), f, _) if f > 0 => format!("{} ({}) [{counts}]", self.status, w.describe()),
            (Some(w), 0, u) if u > 0 => format!(
                "{} ({}; {}{}, t = {}); {} [{counts}]",
                self.status,
                self.reason.as_deref().unwrap_or("a side is not finite"),
                w.instance,
                w.solver
                    .as_deref()
                    .map(|s| format!(" ({s})"))
                    .unwrap_or_default(),
                w.t.map_or("-".into(), |t| t.to_string()),
                if self.evaluations > u {
                    "where finite, the printed form holds"
                } else {
                    "never finite on the tested instances"
                }
            ),
            _ => format!("{} [{counts}]", self.status),
        }
    }
}

/// The report of `saddlefw check`.
#[derive(Debug, Clone, Serialize)]
pub struct CheckReport {
    /// The saddlefw build that wrote the report (version and git commit).
    #[serde(default)]
    pub build: crate::build_info::Build,
    pub cases: usize,
    pub seed: u64,
    pub horizon: usize,
    pub tolerance: String,
    pub invariants: Vec<InvariantReport>,
    pub errata: Vec<Erratum>,
    pub gating_violations: usize,
    pub build_errors: Vec<String>,
    /// Set on the output of `check --shard I/N`: the per-job tallies [`merge_shards`](super::check::merge_shards) needs.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub shard: Option<CheckShard>,
    /// Set by `check --control NAME`: the negative control that ran (name: what is broken).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub control: Option<String>,
    /// Set when a signal stopped the check before every job was done: the counts cover the
    /// jobs completed (their tallies are in `shard`); not a result; `check --resume` finishes it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub interrupted: Option<crate::resume::Interruption>,
}

impl CheckReport {
    /// Whether every gating invariant held.
    pub fn passed(&self) -> bool {
        self.gating_violations == 0
    }

    /// The printable table and errata list.
    pub fn table(&self) -> String {
        let mut s = match &self.control {
            Some(c) => format!(
                "NEGATIVE CONTROL {c}\n(a deliberately broken variant: this check must FAIL)\n\n"
            ),
            None => String::new(),
        };
        s += &format!(
            "saddlefw check: {} cases, seed {}, horizon {} ({})\n\n{:<40} {:<6} {:>6} {:>8} {:>5} {:>12}  label\n",
            self.cases, self.seed, self.horizon, self.tolerance, "invariant", "gate", "cases", "evals", "viol", "min rel slk"
        );
        for r in &self.invariants {
            s.push_str(&format!(
                "{:<40} {:<6} {:>6} {:>8} {:>5} {:>12}  {}\n",
                r.name,
                if r.gating { "yes" } else { "no" },
                r.cases,
                r.evaluations,
                r.violations,
                r.min_rel_slack
                    .map_or("-".to_string(), |v| format!("{v:.3e}")),
                r.label
            ));
        }
        s.push_str("\nErrata (printed forms of recorded slips):\n");
        for e in &self.errata {
            s.push_str(&format!(
                "  {} ({}):\n      {}\n",
                e.printed,
                e.label,
                e.outcome()
            ));
        }
        if !self.build_errors.is_empty() {
            s.push_str(&format!(
                "\n{} solver configurations not applicable (see CHECK.json)\n",
                self.build_errors.len()
            ));
        }
        let verdict = match &self.interrupted {
            Some(i) => format!("PARTIAL ({})", i.describe("jobs")),
            None if self.passed() => "PASS".into(),
            None => "FAIL".into(),
        };
        s.push_str(&format!(
            "\n{verdict}: {} gating violation(s)\n",
            self.gating_violations
        ));
        s
    }
}

pub(crate) fn report(
    cases: usize,
    seed: u64,
    reg: &[&'static Invariant],
    tallies: &[Tally],
    build_errors: Vec<String>,
) -> CheckReport {
    let invariants: Vec<InvariantReport> = reg
        .iter()
        .zip(tallies)
        .map(|(inv, t)| InvariantReport {
            name: inv.name,
            label: inv.label,
            scope: inv.scope,
            gating: inv.gating,
            kind: inv.kind,
            hypotheses: inv.hyp.text,
            cases: t.cases,
            skipped: t.skipped,
            evaluations: t.evaluations,
            violations: t.violations,
            nonfinite_violations: t.nonfinite,
            min_slack: t.worst.as_ref().map(|w| w.slack),
            min_rel_slack: t.worst.as_ref().map(|w| w.rel_slack),
            worst: if t.violations > 0 {
                t.first_violation.clone().or(t.worst.clone())
            } else {
                t.worst.clone()
            },
        })
        .collect();
    let errata = reg
        .iter()
        .zip(tallies)
        .filter_map(|(inv, t)| match inv.kind {
            Kind::Printed { corrected } => {
                let finite_violations = t.violations - t.nonfinite;
                let (status, witness) = if t.cases == 0 {
                    (ErratumStatus::NotApplicable, None)
                } else if finite_violations > 0 {
                    (ErratumStatus::Confirmed, t.worst_finite.clone())
                } else if t.nonfinite > 0 {
                    (ErratumStatus::Undefined, t.first_violation.clone())
                } else {
                    (ErratumStatus::Holds, t.worst.clone())
                };
                Some(Erratum {
                    printed: inv.name,
                    corrected,
                    label: inv.label,
                    status: status.text().to_string(),
                    cases: t.cases,
                    evaluations: t.evaluations,
                    violations: t.violations,
                    finite_violations,
                    undefined: t.nonfinite,
                    reason: if status == ErratumStatus::Undefined {
                        witness.as_ref().and_then(|w| w.reason.clone())
                    } else {
                        None
                    },
                    witness,
                })
            }
            _ => None,
        })
        .collect();
    let gating_violations = invariants
        .iter()
        .filter(|r| r.gating)
        .map(|r| r.violations)
        .sum();
    CheckReport {
        build: crate::build_info::Build::current(),
        cases,
        seed,
        horizon: DEFAULT_HORIZON,
        tolerance: format!(
            "violation: rhs - lhs < -({:e} scale + {:e})",
            super::REL_TOL,
            super::ABS_TOL
        ),
        invariants,
        errata,
        gating_violations,
        build_errors,
        shard: None,
        control: None,
        interrupted: None,
    }
}

/// Cases of the `check` run whose invariant table and errata the verify page shows.
pub const VERIFY_PAGE_CHECK_CASES: usize = 40;

/// The invariant table and errata the verify page shows beside the rates: a small `check` run
/// ([`VERIFY_PAGE_CHECK_CASES`] cases, seed 0).
pub fn verify_page_tables() -> crate::Result<crate::report::CheckTables> {
    Ok(super::run_check(VERIFY_PAGE_CHECK_CASES, 0)?.tables())
}

impl CheckReport {
    /// The invariant table and the errata section of the HTML reports.
    pub fn tables(&self) -> crate::report::CheckTables {
        crate::report::CheckTables {
            invariants: self.invariant_rows(),
            errata: self.errata_rows(),
        }
    }

    /// The invariant table of the HTML reports (one row per registry entry).
    pub fn invariant_rows(&self) -> Vec<crate::report::InvariantRow> {
        self.invariants
            .iter()
            .map(|r| crate::report::InvariantRow {
                name: r.name.to_string(),
                label: r.label.to_string(),
                gating: r.gating,
                cases: r.cases as u64,
                violations: r.violations as u64,
                min_slack: r.min_slack,
                worst: r.worst.as_ref().map(Worst::describe),
            })
            .collect()
    }

    /// The errata section of the HTML reports.
    pub fn errata_rows(&self) -> Vec<crate::report::Erratum> {
        self.errata
            .iter()
            .map(|e| crate::report::Erratum {
                label: e.label.to_string(),
                printed: e.printed.to_string(),
                corrected: e.corrected.to_string(),
                outcome: e.outcome(),
                confirmed: Some(e.finite_violations > 0),
            })
            .collect()
    }
}

fn eval_real(reg: &[&'static Invariant], tallies: &mut [Tally]) {
    for (i, inv) in reg.iter().enumerate() {
        if let Check::Real(f) = inv.check {
            let out = f();
            let mut t = Tally {
                cases: 1,
                ..Tally::default()
            };
            for (mut e, desc) in out {
                e.t = None;
                let mut one = Tally::default();
                one.add(&[e], &format!("grid: {desc}"), None);
                one.cases = 0;
                t.merge(&one);
            }
            tallies[i].merge(&t);
        }
    }
}

/// Folds the results of jobs (sorted by job index) into a report, adding the real-number
/// grids: the same fold whether the jobs ran here or came from shards.
pub(crate) fn assemble(
    cases: usize,
    seed: u64,
    reg: &[&'static Invariant],
    results: &[(usize, CaseResult)],
) -> CheckReport {
    let mut tallies = vec![Tally::default(); reg.len()];
    let mut build_errors = Vec::new();
    for (_, r) in results {
        for (t, o) in tallies.iter_mut().zip(&r.tallies) {
            t.merge(o);
        }
        build_errors.extend(r.build_errors.iter().cloned());
    }
    eval_real(reg, &mut tallies);
    report(cases, seed, reg, &tallies, build_errors)
}
