//! The paper's vocabulary, in one low layer that depends on nothing else of the crate but
//! the error type: the settings and assumptions ([`Setting`], [`Assumption`]; claims.md 1.2),
//! the identity of Algorithms 1-3 ([`Algorithm`]: name, label, provenance, oracle profile,
//! default sigma) and the theorem table ([`theorems`], loaded from `fixtures/theorems.json`).
//! Every other module reads these; none declares them again.
//!
//! ```
//! use saddlefw::paper::{theorems, Algorithm, Setting};
//! let s: Setting = "c-sc+sc".parse().unwrap();
//! assert_eq!(s.assumption_names(), ["A1", "mu>0", "A2", "A3"]);
//! let e = theorems::case_entry(Algorithm::LmoLmo, "nc-c".parse().unwrap()).unwrap();
//! assert_eq!(e.label, "theorem:fw-fw-unified-nc-c-convergence (i) fw-fw:nc-c");
//! assert_eq!(Algorithm::PoLmo.default_sigma(0.25), 0.25);
//! ```

pub mod algorithm;
pub mod formula;
pub mod measure;
pub mod setting;
pub mod theorems;
pub mod user;

pub use algorithm::{Algorithm, EntryAlgorithm, Oracle, BASELINE_SIGMA};
pub use setting::{Assumption, Setting};
