//! The paper's Table 3 (`table:iters`, claims.md 6.4): its iteration counts looked up by
//! experiment and algorithm name (data in [`super::params::TABLE3`]), and the judgement of its
//! claim (L753) on a list of iteration counts ([`judge_iteration_counts`]). The report renders
//! the column ([`column()`]) and the verdict ([`iteration_claim`]); it does not judge.
//!
//! ```
//! use saddlefw::experiments::table3::{judge_iteration_counts, paper_iterations};
//! // the paper's N/A is None
//! assert_eq!(paper_iterations("news20", "R-PDCG"), None);
//! assert!(paper_iterations("dl", "lmo_po").is_some());
//! assert_eq!(judge_iteration_counts(&[("LMO-PO", 10), ("PO-LMO", 3)]).0, Some(true));
//! assert_eq!(judge_iteration_counts(&[("LMO-PO", 10)]).0, None);
//! ```

use super::params::{Method, TABLE3};
use crate::paper::Oracle;
use crate::report::{ClaimVerdict, RunSummary, Table3Column};
use crate::solvers::registry::primal_oracle;

/// The claim of Table 3 in the paper's words.
pub(crate) const ITERATION_CLAIM: &str =
    "LMO on the primal allows more iterations than PO within the same time";

/// A run whose thread got less than this share of a CPU ran on a contended machine: its Table 3
/// count is low by about that factor, and the claim is judged per CPU-second
/// (`experiments::claims`).
pub const CONTENDED_SHARE: f64 = 0.9;

/// The experiment algorithm called `name` (case-insensitive, `_` for `-`).
pub(crate) fn experiment_algorithm(name: &str) -> Option<Method> {
    let norm = name.trim().to_ascii_uppercase().replace('_', "-");
    Method::ALL.into_iter().find(|a| a.name() == norm)
}

/// The paper's Table 3 count for `algorithm` on `experiment` (`dl`, `rcv1`, `news20`); `None`
/// for the paper's N/A and for unknown names.
pub fn paper_iterations(experiment: &str, algorithm: &str) -> Option<u64> {
    let alg = experiment_algorithm(algorithm)?;
    let row = TABLE3.iter().find(|r| r.algorithm == alg)?;
    match experiment.to_ascii_lowercase().as_str() {
        "dl" => Some(row.dl),
        "rcv1" => row.rcv1,
        "news20" => row.news20,
        _ => None,
    }
}

/// Whether Table 3 has a column for `experiment`.
pub(crate) fn has_table3_column(experiment: &str) -> bool {
    matches!(
        experiment.to_ascii_lowercase().as_str(),
        "dl" | "rcv1" | "news20"
    )
}

/// The Table 3 column of `experiment` as the experiment page shows it (`None` when Table 3
/// has no column for it).
pub fn column(experiment: &str) -> Option<Table3Column> {
    has_table3_column(experiment).then(|| Table3Column {
        paper: TABLE3
            .iter()
            .map(|r| {
                let name = r.algorithm.name();
                (name.to_string(), paper_iterations(experiment, name))
            })
            .collect(),
        contended_share: CONTENDED_SHARE,
    })
}

/// The paper's Table 3 claim (L753) judged on a report's runs ([`judge_iteration_counts`]):
/// the verdict for a report that does not carry one.
pub fn iteration_claim(runs: &[RunSummary]) -> ClaimVerdict {
    let counts: Vec<(&str, u64)> = runs
        .iter()
        .map(|r| (r.algorithm.as_str(), r.iterations))
        .collect();
    let (holds, evidence) = judge_iteration_counts(&counts);
    ClaimVerdict {
        claim: ITERATION_CLAIM.to_string(),
        label: Some("table:iters".to_string()),
        holds,
        evidence,
    }
}

/// The paper's Table 3 claim (L753) on `(algorithm, iterations)` counts: LMO on the primal
/// "consistently allows more iterations" than PO, i.e. the fewest iterations of an
/// LMO-primal method exceed the most of a PO-primal method. The verdict (`None`: not
/// decidable) and its evidence.
pub fn judge_iteration_counts(runs: &[(&str, u64)]) -> (Option<bool>, String) {
    let counts = |oracle: Oracle| {
        runs.iter()
            .filter(|(name, _)| primal_oracle(name) == Some(oracle))
            .copied()
            .collect::<Vec<_>>()
    };
    let (l, p) = (counts(Oracle::Lmo), counts(Oracle::Po));
    let (Some(lmin), Some(pmax)) = (
        l.iter().min_by_key(|(_, n)| *n),
        p.iter().max_by_key(|(_, n)| *n),
    ) else {
        return (
            None,
            "needs at least one LMO-primal and one PO-primal run".to_string(),
        );
    };
    (
        Some(lmin.1 > pmax.1),
        format!(
            "fewest LMO-primal iterations {} ({}) vs most PO-primal iterations {} ({}); ratio {:.2}",
            lmin.1,
            lmin.0,
            pmax.1,
            pmax.0,
            lmin.1 as f64 / pmax.1.max(1) as f64
        ),
    )
}
