//! The identity of the paper's three algorithms (Algorithms 1-3): name, label, provenance,
//! oracle profile and the default sigma of `G_X^PO`. ONE declaration, used by the theorem
//! table, the solvers, the registry and the reports.
//!
//! ```
//! use saddlefw::paper::{Algorithm, Oracle, BASELINE_SIGMA};
//! assert_eq!(Algorithm::parse("po-lmo"), Some(Algorithm::PoLmo));
//! assert_eq!(Algorithm::PoLmo.oracles(), (Oracle::Po, Oracle::Lmo));
//! assert_eq!(Algorithm::LmoLmo.label(), "alg:fw-fw");
//! assert_eq!((Algorithm::LmoPo.title(), Algorithm::LmoPo.number()), ("LMO-PO", 2));
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
    /// The paper's name (`LMO-LMO`: the caption of the algorithm, L496; Figure 1, Table 3).
    pub const fn title(&self) -> &'static str {
        match self {
            Algorithm::LmoLmo => "LMO-LMO",
            Algorithm::LmoPo => "LMO-PO",
            Algorithm::PoLmo => "PO-LMO",
        }
    }
    /// The paper's number (Algorithm 1, 2, 3).
    pub const fn number(&self) -> u8 {
        match self {
            Algorithm::LmoLmo => 1,
            Algorithm::LmoPo => 2,
            Algorithm::PoLmo => 3,
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

/// The algorithm a theorem entry is about: one of the paper's three, or a user's, by name
/// ([`crate::paper::user`]). Serialized as its name.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum EntryAlgorithm {
    /// Algorithms 1-3 (the built-in table).
    Paper(Algorithm),
    /// A user entry's algorithm; `solver` is the crate's implementation `verify` runs with the
    /// entry's schedule when no solver of the user's is given.
    User {
        name: String,
        solver: Option<Algorithm>,
    },
}

impl EntryAlgorithm {
    /// The name (`lmo-lmo`, or the user's).
    pub fn name(&self) -> &str {
        match self {
            EntryAlgorithm::Paper(a) => a.name(),
            EntryAlgorithm::User { name, .. } => name,
        }
    }
    /// The paper's algorithm, for built-in entries.
    pub fn paper(&self) -> Option<Algorithm> {
        match self {
            EntryAlgorithm::Paper(a) => Some(*a),
            EntryAlgorithm::User { .. } => None,
        }
    }
    /// The crate's implementation that runs the entry (the paper's algorithm itself, or the
    /// user entry's `solver`).
    pub fn solver(&self) -> Option<Algorithm> {
        match self {
            EntryAlgorithm::Paper(a) => Some(*a),
            EntryAlgorithm::User { solver, .. } => *solver,
        }
    }
    /// sigma of `G_X^PO` ([`Algorithm::default_sigma`]; a user entry follows its solver's
    /// convention, [`BASELINE_SIGMA`] without one).
    pub fn default_sigma(&self, tau0: f64) -> f64 {
        self.solver()
            .map_or(BASELINE_SIGMA, |a| a.default_sigma(tau0))
    }
}

impl PartialEq<Algorithm> for EntryAlgorithm {
    fn eq(&self, other: &Algorithm) -> bool {
        self.paper() == Some(*other)
    }
}

impl std::fmt::Display for EntryAlgorithm {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl Serialize for EntryAlgorithm {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.name())
    }
}
