//! The any-language route (issue 15): judge a solver written in any language by the
//! iterates it writes to files.
//!
//! ```text
//! saddlefw export --cases FILTER --out DIR   ─► DIR/manifest.json, jobs/ID/{problem,schedule}.json
//! the user's solver (any language)           ─► DIR/jobs/ID/iterates.jsonl   (t, x_t, y_t)
//! saddlefw verify-iterates DIR               ─► verify.json + index.html, exit 0/1/2
//! ```
//!
//! * [`mod@format`]: the iterate file format (JSON Lines) and its streaming reader and writer.
//! * [`manifest`]: the export manifest and schedule files.
//! * `plan`: the job list (verify's, restricted to the instances a file can hold:
//!   [`plan()`], [`PlannedJob`]).
//! * `export`: `saddlefw export` ([`export()`]).
//! * `judge`: `saddlefw verify-iterates` ([`verify_iterates`], [`ReplayFactory`]).
//! * `replay`: the replay solver ([`Replay`]: a file's iterates as a [`crate::solvers::Solver`],
//!   every iterate checked: format, start point, feasibility within [`FEASIBILITY_TOL`]).
//! * [`differential`]: `verify-iterates --against ALGO` and `RateCheck::against`, the
//!   iterate-by-iterate comparison with saddlefw's own solver ([`compare_iterates`],
//!   [`compare_factory`]; the rule in `crate::verify::differential`).
//! * `reference`: the crate's own iterates in the same files ([`write_reference_iterates`],
//!   `export --write-iterates`).
//!
//! ```
//! use saddlefw::iterates::{export, verify_iterates, write_reference_iterates, ExportOptions, JudgeOptions};
//! use saddlefw::verify::{Tier, TierConfig};
//! let dir = std::env::temp_dir().join(format!("saddlefw-doc-iterates-{}", std::process::id()));
//! let table = saddlefw::theorems::builtin();
//! let opts = ExportOptions {
//!     tier: Tier::Quick,
//!     filter: Some("lmo-lmo/nc-c/".into()),
//!     config: Some(TierConfig { seeds: 2, t_max: 64, dim_x: 5, dim_y: 3 }),
//!     hard: None,
//!     confirmation: false,
//! };
//! let m = export(&table, &opts, &dir).unwrap();
//! // the quadratic family is exported, the cosine family is not (and is not judged)
//! assert_eq!((m.jobs.len(), m.not_exported.len()), (2, 2));
//! // saddlefw's own LMO-LMO iterates pass, as they pass `verify`
//! write_reference_iterates(&table, &dir, None, None).unwrap();
//! let judge = JudgeOptions { export_dir: dir.clone(), iterates_root: None, jobs: Some(1) };
//! assert!(!verify_iterates(&table, &judge).unwrap().failed);
//! // a truncated file is an input error naming the file and the line
//! let file = dir.join(&m.jobs[0].iterates);
//! let text = std::fs::read_to_string(&file).unwrap();
//! std::fs::write(&file, &text[..text.len() / 2]).unwrap();
//! let e = verify_iterates(&table, &judge).unwrap_err().to_string();
//! assert!(e.contains("iterates.jsonl: line ") && e.contains("truncated"), "{e}");
//! std::fs::remove_dir_all(&dir).unwrap();
//! ```

pub mod differential;
mod export;
pub mod format;
mod judge;
pub mod manifest;
mod plan;
mod reference;
mod replay;
/// `export --write-iterates` on the ledger: internal (the binary's and the tests').
#[doc(hidden)]
pub mod written;

pub use differential::{compare_factory, compare_iterates, FactoryJobs};
// The stored hard instances a plan draws from, documented here.
pub use crate::tightness::families::{
    Certificate, FaceParams, Family as HardFamily, HardInstance, HardSpec, Landscape, PolySet,
    Start,
};
pub use crate::tightness::{BelowRate, HardFixture, HardSource, SearchRecord};
pub use export::{export, ExportOptions};
pub use judge::{load, verify_iterates, JudgeOptions, ReplayFactory};
pub use plan::{plan, select, JobSource, PlannedJob};
pub(crate) use reference::write_logged as reference_logged;
pub use reference::write_reference_iterates;
pub use replay::{feasibility, same_point, Faults, Replay, FEASIBILITY_TOL, START_TOL};
