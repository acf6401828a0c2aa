//! The search's settings and records: the configuration, one evaluated candidate, a
//! confirmed winner and the result of one entry.

use crate::fit::Verdict;
use crate::tightness::families::HardSpec;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// Largest change of the exponent between the search horizon and the confirmation horizon.
pub const CONFIRM_TOL: f64 = 0.1;

/// Search settings.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct SearchConfig {
    /// Wall-clock budget per entry (random search + refinement), seconds.
    pub budget_s: f64,
    /// Search horizon T (also the horizon `verify` runs the stored instance at).
    pub horizon: u64,
    /// The confirmation horizon is `confirm_factor * horizon`.
    pub confirm_factor: u64,
    /// Candidates refined and confirmed.
    pub top: usize,
    /// Fraction of the budget spent refining.
    pub refine_frac: f64,
    /// Seed of the candidate sequence.
    pub seed: u64,
    /// Worker threads (None: one per core).
    pub jobs: Option<usize>,
    /// Hard cap on evaluations per entry (None: the budget decides).
    pub max_evals: Option<usize>,
}

impl Default for SearchConfig {
    fn default() -> Self {
        SearchConfig {
            budget_s: 20.0,
            horizon: 1 << 14,
            confirm_factor: 4,
            top: 3,
            refine_frac: 0.5,
            seed: 0,
            jobs: None,
            max_evals: None,
        }
    }
}

/// One evaluated candidate.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub(crate) struct Candidate {
    pub spec: HardSpec,
    /// Observed exponent (usable fits only).
    pub p_hat: Option<f64>,
    /// The real solver's rate verdict on the candidate (usable fits only).
    pub verdict: Option<Verdict>,
    /// Why the candidate was rejected.
    pub rejected: Option<String>,
    /// `p_hat >= p - tol` (the gate passes without the interval's help).
    #[serde(default)]
    pub clear: bool,
    /// The exponent under the loose guards ([`score_with`](super::score_with)) when the strict
    /// ones reject the candidate, if the gate passes clearly with it (fallback candidates).
    #[serde(default)]
    pub p_hat_loose: Option<f64>,
}

impl Candidate {
    /// Usable and the gate passes with the point estimate itself (`p_hat >= p - tol`, not
    /// only the interval): eligible as the entry's hardest instance.
    pub(super) fn eligible(&self) -> bool {
        self.p_hat.is_some() && self.verdict == Some(Verdict::Pass) && self.clear
    }
    /// Usable and slower than the theorem's rate on the search horizon.
    pub(super) fn below_rate(&self) -> bool {
        self.p_hat.is_some() && self.verdict == Some(Verdict::Fail)
    }
    /// A fallback candidate (see `p_hat_loose`), ranked by that exponent.
    pub(super) fn fallback(&self) -> bool {
        self.p_hat_loose.is_some()
    }
}

/// A confirmed (or best unconfirmed) candidate with everything the fixture stores.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Winner {
    pub spec: HardSpec,
    pub family: String,
    pub params: String,
    pub horizon: u64,
    pub p_hat: f64,
    pub ci: [f64; 2],
    pub window: [u64; 2],
    /// `(T_lo, T_hi, slope)` over the whole retained series.
    pub local_slopes: Vec<(u64, u64, f64)>,
    /// Exponent at the confirmation horizon (None: not usable there).
    pub confirm_p_hat: Option<f64>,
    pub confirm_horizon: u64,
    pub confirmed: bool,
    /// Tolerance of the gate at this window.
    pub tol: f64,
    /// Rate verdict of the real solver on this instance.
    pub verdict: Verdict,
    /// Worst quantity/envelope ratio over both runs (entries with an explicit envelope).
    pub envelope_ratio: Option<f64>,
    /// Gates of `verify` the real solver fails on this instance at `horizon`.
    pub failed_gates: Vec<String>,
    /// The quantity at the checkpoints.
    pub series: Vec<(u64, f64)>,
}

impl Winner {
    /// A violation of the paper's bound that the run proves: slower than the rate at both
    /// horizons AND above the explicit envelope of the detailed theorem (claims.md Sec. 5).
    /// Without an envelope exceedance a slow stretch is pre-asymptotic: the O(.) constant
    /// can absorb it.
    pub fn proves_violation(&self) -> bool {
        self.verdict == Verdict::Fail
            && self.confirmed
            && self
                .envelope_ratio
                .is_some_and(|r| r > 1.0 + crate::verify::ENVELOPE_RTOL)
    }
}

/// The search result of one entry.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct EntrySearch {
    pub id: String,
    pub p: f64,
    /// The hardest confirmed candidate on which the real solver passes the gate.
    pub winner: Option<Winner>,
    /// The slowest candidate that is slower than the theorem's rate on the search horizon
    /// (confirmed at the longer horizon), if any: a violation when
    /// [`Winner::proves_violation`], otherwise a pre-asymptotic stretch below the envelope.
    pub below_rate: Option<Winner>,
    pub evaluations: usize,
    /// Candidates slower than the rate on the search horizon.
    pub below_rate_count: usize,
    /// Rejections by reason.
    pub rejected: BTreeMap<String, usize>,
    /// The best few eligible candidates at the search horizon (spec text, p_hat).
    pub best: Vec<(String, f64)>,
    /// Wall-clock seconds of the search (`elapsed_s` in records written before issue 35).
    #[serde(alias = "elapsed_s")]
    pub elapsed_time_s: f64,
    pub budget_s: f64,
}
