//! The any-language route (issue 15): judge a solver written in any language by the
//! iterates it writes to files.
//!
//! ```text
//! saddlefw export --cases FILTER --out DIR   ─► DIR/manifest.json, jobs/ID/{problem,schedule}.json
//! the user's solver (any language)           ─► DIR/jobs/ID/iterates.jsonl   (t, x_t, y_t)
//! saddlefw verify-iterates DIR               ─► verify.json + index.html, exit 0/1/2
//! ```
//!
//! * [`format`]: the iterate file format (JSON Lines) and its streaming reader and writer.
//! * [`manifest`]: the export manifest and schedule files.
//! * [`plan`]: the job list (verify's, restricted to the instances a file can hold).
//! * [`export`]: `saddlefw export`.
//! * [`judge`]: `saddlefw verify-iterates` (verify with the replays).
//! * [`reference`]: the crate's own iterates in the same files (`export --write-iterates`).
//! * [`replay`]: the replay solver (a file's iterates as a [`crate::solvers::Solver`]).

pub mod cli;
pub mod export;
pub mod format;
pub mod judge;
pub mod manifest;
pub mod plan;
pub mod reference;
pub mod replay;
