//! The tallies of `saddlefw check`: per invariant, evaluations, violations, the minimum slack
//! and the worst case ([`Tally`], [`Worst`]), and the results of one case ([`CaseResult`]).

use super::{registry, Eval, Invariant};
use crate::ledger::shard::Shard;
use crate::{Error, Result};
use serde::{Deserialize, Serialize};

/// The worst evaluation of an invariant (smallest relative slack). Non-finite numbers are
/// written as the strings "inf", "-inf", "NaN" in JSON.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Worst {
    pub instance: String,
    pub solver: Option<String>,
    pub t: Option<usize>,
    #[serde(serialize_with = "ser_f64", deserialize_with = "de_f64")]
    pub lhs: f64,
    #[serde(serialize_with = "ser_f64", deserialize_with = "de_f64")]
    pub rhs: f64,
    #[serde(serialize_with = "ser_f64", deserialize_with = "de_f64")]
    pub slack: f64,
    #[serde(serialize_with = "ser_f64", deserialize_with = "de_f64")]
    pub rel_slack: f64,
    /// Why a side is not finite (set only then; e.g. a printed formula dividing by zero).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
}

fn ser_f64<S: serde::Serializer>(v: &f64, s: S) -> std::result::Result<S::Ok, S::Error> {
    if v.is_finite() {
        s.serialize_f64(*v)
    } else {
        s.serialize_str(&format!("{v}"))
    }
}

/// Reads what [`ser_f64`] writes: a number, or "inf", "-inf", "NaN".
fn de_f64<'de, D: serde::Deserializer<'de>>(d: D) -> std::result::Result<f64, D::Error> {
    #[derive(Deserialize)]
    #[serde(untagged)]
    enum NumOrText {
        Num(f64),
        Text(String),
    }
    match NumOrText::deserialize(d)? {
        NumOrText::Num(v) => Ok(v),
        NumOrText::Text(t) => match t.as_str() {
            "inf" => Ok(f64::INFINITY),
            "-inf" => Ok(f64::NEG_INFINITY),
            "NaN" => Ok(f64::NAN),
            _ => Err(serde::de::Error::custom(format!(
                "{t:?} is not a number (expected a number, \"inf\", \"-inf\" or \"NaN\")"
            ))),
        },
    }
}

pub(crate) fn ser_opt_f64<S: serde::Serializer>(
    v: &Option<f64>,
    s: S,
) -> std::result::Result<S::Ok, S::Error> {
    match v {
        Some(x) => ser_f64(x, s),
        None => s.serialize_none(),
    }
}

/// Accumulated results of one invariant.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Tally {
    /// Contexts where the hypotheses held (points, runs, grids).
    pub cases: usize,
    /// Contexts where the hypotheses failed (runs or points where it was not applied).
    pub skipped: usize,
    pub evaluations: usize,
    pub violations: usize,
    /// Violations where a side is not finite (the formula is undefined there).
    pub nonfinite: usize,
    pub worst: Option<Worst>,
    /// The worst evaluation with finite sides.
    pub worst_finite: Option<Worst>,
    /// First violation (in case order), for reproduction.
    pub first_violation: Option<Worst>,
}

impl Tally {
    /// Counts one case's evaluations. The worst case is the evaluation of least relative
    /// slack; on a tie the earlier one (in case order) is kept, so a report names the first.
    pub fn add(&mut self, evals: &[Eval], instance: &str, solver: Option<&str>) {
        if evals.is_empty() {
            self.skipped += 1;
            return;
        }
        self.cases += 1;
        self.evaluations += evals.len();
        for e in evals {
            let rel = e.rel_slack();
            let make = || Worst {
                instance: instance.to_string(),
                solver: solver.map(str::to_string),
                t: e.t,
                lhs: e.lhs,
                rhs: e.rhs,
                slack: e.slack(),
                rel_slack: rel,
                reason: e.undefined_reason().map(str::to_string),
            };
            if e.violated() {
                self.violations += 1;
                if !e.finite() {
                    self.nonfinite += 1;
                }
                if self.first_violation.is_none() {
                    self.first_violation = Some(make());
                }
            }
            if self.worst.as_ref().map_or(true, |w| rel < w.rel_slack) {
                self.worst = Some(make());
            }
            if e.finite()
                && self
                    .worst_finite
                    .as_ref()
                    .map_or(true, |w| rel < w.rel_slack)
            {
                self.worst_finite = Some(make());
            }
        }
    }

    pub(crate) fn merge(&mut self, o: &Tally) {
        self.cases += o.cases;
        self.skipped += o.skipped;
        self.evaluations += o.evaluations;
        self.violations += o.violations;
        self.nonfinite += o.nonfinite;
        if let Some(w) = &o.worst {
            if self
                .worst
                .as_ref()
                .map_or(true, |s| w.rel_slack < s.rel_slack)
            {
                self.worst = Some(w.clone());
            }
        }
        if let Some(w) = &o.worst_finite {
            if self
                .worst_finite
                .as_ref()
                .map_or(true, |s| w.rel_slack < s.rel_slack)
            {
                self.worst_finite = Some(w.clone());
            }
        }
        if self.first_violation.is_none() {
            self.first_violation = o.first_violation.clone();
        }
    }
}

/// A gating violation found in a case (for tests and reproduction).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Violation {
    pub invariant: &'static str,
    pub instance: String,
    pub solver: Option<String>,
    pub t: Option<usize>,
    pub lhs: f64,
    pub rhs: f64,
}

/// The results of one case: one tally per registry entry (registry order).
#[derive(Debug, Clone)]
pub struct CaseResult {
    pub tallies: Vec<Tally>,
    /// Solvers that could not be built (e.g. a schedule needing mu > 0), with the reason.
    pub build_errors: Vec<String>,
}

impl CaseResult {
    /// Gating violations (the first one per invariant).
    pub fn gating_violations(&self) -> Vec<Violation> {
        registry()
            .iter()
            .zip(&self.tallies)
            .filter(|(inv, t)| inv.gating && t.violations > 0)
            .map(|(inv, t)| {
                let w = t.first_violation.clone().expect("violation recorded");
                Violation {
                    invariant: inv.name,
                    instance: w.instance,
                    solver: w.solver,
                    t: w.t,
                    lhs: w.lhs,
                    rhs: w.rhs,
                }
            })
            .collect()
    }
}

impl Worst {
    /// `instance, solver, t, lhs, rhs` in one line.
    pub fn describe(&self) -> String {
        format!(
            "{}{}, t = {}, lhs = {:.6e}, rhs = {:.6e}",
            self.instance,
            self.solver
                .as_deref()
                .map(|s| format!(" ({s})"))
                .unwrap_or_default(),
            self.t.map(|t| t.to_string()).unwrap_or_else(|| "-".into()),
            self.lhs,
            self.rhs
        )
    }
}

/// The part of a shard's CHECK.json that [`merge_shards`](super::check::merge_shards) needs: which shard, the size of the
/// job list, and the tallies of every job it ran.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CheckShard {
    pub shard: Shard,
    /// Length of the whole job list (random cases and witnesses).
    pub jobs: usize,
    pub results: Vec<JobTallies>,
}

/// The tallies of one job, keyed by invariant name (only the invariants the job touched).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct JobTallies {
    pub job: usize,
    pub tallies: std::collections::BTreeMap<String, Tally>,
    pub build_errors: Vec<String>,
}

impl JobTallies {
    pub(crate) fn of(job: usize, reg: &[&'static Invariant], r: CaseResult) -> Self {
        JobTallies {
            job,
            tallies: reg
                .iter()
                .zip(r.tallies)
                .filter(|(_, t)| *t != Tally::default())
                .map(|(inv, t)| (inv.name.to_string(), t))
                .collect(),
            build_errors: r.build_errors,
        }
    }

    pub(crate) fn into_result(self, reg: &[&'static Invariant], input: &str) -> Result<CaseResult> {
        let mut tallies = vec![Tally::default(); reg.len()];
        for (name, t) in self.tallies {
            let i = reg.iter().position(|inv| inv.name == name).ok_or_else(|| {
                Error::input(
                    input,
                    format!("job {}", self.job),
                    format!("unknown invariant {name:?} (a shard of another saddlefw version?)"),
                )
            })?;
            tallies[i] = t;
        }
        Ok(CaseResult {
            tallies,
            build_errors: self.build_errors,
        })
    }
}
