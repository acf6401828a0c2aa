//! The three questions a verdict answers, reported apart (issue 34, scope 4):
//!
//! | question | gates | what a failure means |
//! |---|---|---|
//! | *theorem conformance* | `run`, `envelope`, `schedule` (and their `hard-` twins) | proof: a run diverged, the quantity exceeded the explicit bound of claims.md Sec. 5 at some T, or the solver's schedule is outside the theorem's hypotheses |
//! | *rate evidence* | `rate`, `mhat` (and `hard-rate`; `hard-mhat` is reported only) | evidence: the observed exponent (or the growth of the empirical constant) is too slow for the claimed `p` at this horizon |
//! | *agreement with saddlefw's reference* | `baseline`, `hard-baseline` | regression: the exponent dropped more than 0.1 below the one stored for saddlefw's own solver |
//!
//! The first two gate every solver. The third gates only saddlefw's own solver in a default
//! `verify` run (its regression test), or when asked (`verify --reference-regression`,
//! `RateCheck::reference_regression`); otherwise it is reported, never gating.
//! A gate whose threshold is at or below 0 cannot fail: it is reported `vacuous`.
//!
//! ```
//! use saddlefw::verify::questions::{Answers, Question};
//! use saddlefw::verify::GateStatus;
//! let gates = [("rate".to_string(), GateStatus::Pass), ("hard-baseline".to_string(), GateStatus::Fail)];
//! let a = Answers::of(&gates, false);
//! assert_eq!(a.rate_evidence.status, GateStatus::Pass);
//! assert_eq!(a.reference.status, GateStatus::Fail);
//! assert!(!a.reference.gating); // reported, not gating
//! assert_eq!(Question::of("hard-envelope"), Question::Conformance);
//! ```

use serde::{Deserialize, Serialize};

/// Status of one gate.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum GateStatus {
    Pass,
    Fail,
    /// The gate does not apply (no envelope, no baseline, tier without baselines, ...).
    NotApplicable,
    /// The gate ran but cannot fail: its threshold is at or below 0 (e.g. the rate gate where
    /// the log factor's allowance reaches p). Never reported as passing.
    Vacuous,
}

/// Which of the three questions a gate answers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Question {
    Conformance,
    RateEvidence,
    Reference,
}

impl Question {
    /// The question of the gate named `gate` (`rate`, `hard-envelope`, ...).
    pub fn of(gate: &str) -> Question {
        match gate.strip_prefix("hard-").unwrap_or(gate) {
            "rate" | "mhat" => Question::RateEvidence,
            "baseline" => Question::Reference,
            _ => Question::Conformance,
        }
    }
    /// The question as printed.
    pub fn title(self) -> &'static str {
        match self {
            Question::Conformance => "theorem conformance",
            Question::RateEvidence => "rate evidence",
            Question::Reference => "agreement with saddlefw's reference",
        }
    }
}

/// The answer to one question for one entry.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Answer {
    /// `pass`, `fail`, `not_applicable` (no gate of this question ran) or `vacuous` (only gates
    /// that cannot fail ran).
    pub status: GateStatus,
    /// Whether a failure of this question fails the entry.
    pub gating: bool,
    /// The failed gates of this question.
    pub failed: Vec<String>,
    /// The gates of this question that passed.
    pub passed: Vec<String>,
    /// The gates of this question that cannot fail (threshold at or below 0).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub vacuous: Vec<String>,
}

/// The three answers of an entry.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Answers {
    pub conformance: Answer,
    pub rate_evidence: Answer,
    pub reference: Answer,
}

impl Answers {
    /// The answers from every gate's `(name, status)`; `reference_gates`: whether the reference
    /// question gates.
    pub fn of(gates: &[(String, GateStatus)], reference_gates: bool) -> Answers {
        let answer = |q: Question| {
            let named = |s: GateStatus| -> Vec<String> {
                gates
                    .iter()
                    .filter(|(n, g)| Question::of(n) == q && *g == s)
                    .map(|(n, _)| n.clone())
                    .collect()
            };
            let (failed, passed, vacuous) = (
                named(GateStatus::Fail),
                named(GateStatus::Pass),
                named(GateStatus::Vacuous),
            );
            let status = if !failed.is_empty() {
                GateStatus::Fail
            } else if !passed.is_empty() {
                GateStatus::Pass
            } else if !vacuous.is_empty() {
                GateStatus::Vacuous
            } else {
                GateStatus::NotApplicable
            };
            Answer {
                status,
                gating: q != Question::Reference || reference_gates,
                failed,
                passed,
                vacuous,
            }
        };
        Answers {
            conformance: answer(Question::Conformance),
            rate_evidence: answer(Question::RateEvidence),
            reference: answer(Question::Reference),
        }
    }
    /// The answers in the order of the module table, with their question.
    pub fn all(&self) -> [(Question, &Answer); 3] {
        [
            (Question::Conformance, &self.conformance),
            (Question::RateEvidence, &self.rate_evidence),
            (Question::Reference, &self.reference),
        ]
    }
    /// One line per question, e.g. `theorem conformance: pass; rate evidence: fail (hard-rate);
    /// agreement with saddlefw's reference: fail (baseline; reported, not gating)`.
    pub fn describe(&self) -> String {
        self.all()
            .iter()
            .map(|(q, a)| {
                let status = serde_json::to_value(a.status)
                    .ok()
                    .and_then(|v| v.as_str().map(String::from))
                    .unwrap_or_default();
                let mut s = format!("{}: {status}", q.title());
                if !a.failed.is_empty() {
                    s += &format!(" ({})", a.failed.join(", "));
                }
                if a.status == GateStatus::Fail && !a.gating {
                    s += " [reported, not gating]";
                }
                s
            })
            .collect::<Vec<_>>()
            .join("; ")
    }
}

/// The console's block of the three questions: per question, entries per answer and whether
/// it gates; then each failed entry's answers and the command that reproduces its run.
pub(crate) fn console_block(entries: &[super::EntryResult]) -> String {
    let answered: Vec<(&super::EntryResult, &Answers)> = entries
        .iter()
        .filter_map(|e| e.answers.as_ref().map(|a| (e, a)))
        .collect();
    if answered.is_empty() {
        return String::new();
    }
    let mut s =
        String::from("\nthree questions, entries per answer (verify.json entries[].answers):\n");
    for (i, q) in [
        Question::Conformance,
        Question::RateEvidence,
        Question::Reference,
    ]
    .into_iter()
    .enumerate()
    {
        let column: Vec<&Answer> = answered.iter().map(|(_, a)| a.all()[i].1).collect();
        let count = |st: GateStatus| column.iter().filter(|a| a.status == st).count();
        let gating = column.iter().any(|a| a.gating);
        let mut counts = format!(
            "{} pass, {} fail",
            count(GateStatus::Pass),
            count(GateStatus::Fail)
        );
        for (st, name) in [
            (GateStatus::Vacuous, "vacuous"),
            (GateStatus::NotApplicable, "not applicable"),
        ] {
            if count(st) > 0 {
                counts += &format!(", {} {name}", count(st));
            }
        }
        let role = match (q, gating) {
            (_, true) => "gates",
            (Question::Reference, false) => "reported only (--reference-regression makes it gate)",
            (_, false) => "reported only",
        };
        s += &format!("  {:<38} {counts:<40} {role}\n", q.title());
    }
    let confirmed: Vec<String> = entries
        .iter()
        .filter_map(|e| {
            let h = e.hard.as_ref()?;
            let c = h.confirmation.as_ref()?;
            let f = |v: Option<f64>| v.map_or("-".into(), |v| format!("{v:.3}"));
            Some(format!(
                "  {}: p_hat {} at T = {} (below p - tol), {} at {} T = {}: {}\n",
                e.id,
                f(h.p_hat),
                h.horizon,
                f(c.p_hat),
                super::hard::CONFIRM_FACTOR,
                c.horizon,
                if c.rate_verdict == crate::fit::Verdict::Fail {
                    "confirmed, hard-rate fails"
                } else {
                    "recovered, pre-asymptotic at T (hard-rate passes)"
                }
            ))
        })
        .collect();
    if !confirmed.is_empty() {
        s += "hard-instance rates that failed at T, judged on the confirmation run:\n";
        s += &confirmed.concat();
    }
    let failed: Vec<_> = answered
        .iter()
        .filter(|(_, a)| a.all().iter().any(|(_, x)| x.status == GateStatus::Fail))
        .collect();
    if !failed.is_empty() {
        s += "answers of the entries with a failed gate, and a command that reruns saddlefw's own solver on the deciding instance:\n";
        for (e, a) in failed {
            s += &format!("  {}: {}\n", e.id, a.describe());
            for n in e.notes.iter().filter(|n| n.starts_with("hard-")) {
                s += &format!("    note: {n}\n");
            }
            if let Some(c) = e.reproduce_command() {
                s += &format!("    reproduce: {c}\n");
            }
        }
    }
    s
}
