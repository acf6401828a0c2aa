//! The identity of the paper's three algorithms (Algorithms 1-3): name, label, provenance,
//! oracle profile and the default sigma of `G_X^PO`. ONE declaration, used by the theorem
//! table, the solvers, the registry and the reports.
//!
//! ```
//! use saddlefw::paper::{Algorithm, Oracle, BASELINE_SIGMA};
//! assert_eq!(Algorithm::parse("po-lmo"), Some(Algorithm::PoLmo));
//! assert_eq!(Algorithm::PoLmo.oracles(), (Oracle::Po, Oracle::Lmo));
//! assert_eq!(Algorithm::LmoLmo.label(), "alg:fw-fw");
//! // sigma of G_X^PO: tau_0 for PO-LMO, 1 for the LMO-primal algorithms
//! assert_eq!(Algorithm::PoLmo.default_sigma(0.1), 0.1);
//! assert_eq!(Algorithm::LmoPo.default_sigma(0.1), BASELINE_SIGMA);
//! ```

use serde::{Deserialize, Serialize};

/// Which oracle a block uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Oracle {
    /// Linear minimisation oracle (a Frank-Wolfe step).
    Lmo,
    /// Projection oracle (a projected gradient step).
    Po,
}

/// sigma of `G_X^PO` for every algorithm whose default is not [`Algorithm::default_sigma`]'s
/// `tau_0` (the LMO-primal algorithms and the baselines).
pub const BASELINE_SIGMA: f64 = 1.0;

/// The three algorithms of the paper.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Algorithm {
    /// Algorithm 1 (`alg:fw-fw`).
    #[serde(rename = "lmo-lmo")]
    LmoLmo,
    /// Algorithm 2 (`alg:fw-proj`).
    #[serde(rename = "lmo-po")]
    LmoPo,
    /// Algorithm 3 (`alg:proj-fw`).
    #[serde(rename = "po-lmo")]
    PoLmo,
}

impl Algorithm {
    /// The three, in the paper's order.
    pub const ALL: [Algorithm; 3] = [Algorithm::LmoLmo, Algorithm::LmoPo, Algorithm::PoLmo];

    /// The registry and table name (`lmo-lmo`, `lmo-po`, `po-lmo`).
    pub const fn name(&self) -> &'static str {
        match self {
            Algorithm::LmoLmo => "lmo-lmo",
            Algorithm::LmoPo => "lmo-po",
            Algorithm::PoLmo => "po-lmo",
        }
    }
    /// The paper's label of the algorithm.
    pub const fn label(&self) -> &'static str {
        match self {
            Algorithm::LmoLmo => "alg:fw-fw",
            Algorithm::LmoPo => "alg:fw-proj",
            Algorithm::PoLmo => "alg:proj-fw",
        }
    }
    /// The paper's label and lines.
    pub const fn provenance(&self) -> &'static str {
        match self {
            Algorithm::LmoLmo => "paper: alg:fw-fw (L495-507), Algorithm 1",
            Algorithm::LmoPo => "paper: alg:fw-proj (L584-596), Algorithm 2",
            Algorithm::PoLmo => "paper: alg:proj-fw (L597-609), Algorithm 3",
        }
    }
    /// (primal oracle, dual oracle).
    pub const fn oracles(&self) -> (Oracle, Oracle) {
        match self {
            Algorithm::LmoLmo => (Oracle::Lmo, Oracle::Lmo),
            Algorithm::LmoPo => (Oracle::Lmo, Oracle::Po),
            Algorithm::PoLmo => (Oracle::Po, Oracle::Lmo),
        }
    }
    /// The algorithm called `name` (`lmo-lmo`, `lmo-po`, `po-lmo`).
    pub fn parse(name: &str) -> Option<Algorithm> {
        Algorithm::ALL.into_iter().find(|a| a.name() == name)
    }
    /// The default sigma of `G_X^PO(x, y; sigma)` (`gap:proj`) given the run's `tau_0`:
    /// `tau_0` when the primal block projects (PO-LMO; `theorem:proj-fw-unified-nc-c-convergence`
    /// measures with sigma = tau_0), [`BASELINE_SIGMA`] otherwise. The one place this choice is
    /// made.
    pub fn default_sigma(&self, tau0: f64) -> f64 {
        match self.oracles().0 {
            Oracle::Po => tau0,
            Oracle::Lmo => BASELINE_SIGMA,
        }
    }
    /// Rows of claims.md Sec. 3.1 that belong to this algorithm.
    pub fn rows(&self) -> std::ops::RangeInclusive<u32> {
        match self {
            Algorithm::LmoLmo => 1..=8,
            Algorithm::LmoPo => 9..=12,
            Algorithm::PoLmo => 13..=19,
        }
    }
}
