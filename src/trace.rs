//! What a run records ([`Trace`]) and its JSON form, `RUN.json`.
//!
//! ```json
//! {
//!   "algorithm": "lmo-lmo",
//!   "problem": "quadratic/nc-c:dx=10,dy=5,seed=0,x=l1",   // generator spec or file path
//!   "problem_name": "quadratic(dx=10, dy=5)",
//!   "setting": "nc-c",
//!   "schedule": "tau=anytime(c=1,a=0.8333333333333334); beta=anytime(c=1,a=0.16666666666666666)",
//!   "theorem_case": "theorem:fw-fw-unified-nc-c-convergence (i) fw-fw:nc-c",
//!   "schedule_notes": ["C = 1 (the theorem allows any C > 0)"],
//!   "provenance": "paper: alg:fw-fw (L495-507), Algorithm 1",
//!   "seed": 0,
//!   "constants": {"lxx", "lyx", "lyy", "mu", "alpha", "dx", "dy", "diam_x", "diam_y"},
//!   "f_star": {"lower": .., "upper": ..} | null,
//!   "sigma": 1.0, "checkpoint_rule": "log2", "iterations_requested": 1000, "time_limit_s": null,
//!   "status": "completed" | "time_limit" | {"diverged": {"iteration": 17, "reason": ".."}}
//!             | {"inconsistent": {"iteration": 1, "measure": "gy_lmo", "value": -0.3 | null, "tolerance": ..}}
//!             | {"interrupted": {"iteration": 5000}} | {"in_progress": {"iteration": 5000}},
//!   "iterations": 1000, "wall_time_s": .., "measure_time_s": .., "total_time_s": ..,
//!   "oracle_calls": {"lmo_x", "lmo_y", "proj_x", "proj_y", "grad_x", "grad_y", "value", "inner"},
//!   "po_lmo_g": {"name": "G_1", "value": .., "horizon": 1000} | null,
//!   "checkpoints": [{"t", "time_s", "beta", "gx_lmo", "gx_po", "gy", "gy_lmo", "h", "gap_opt", "width"}]
//! }
//! ```
//!
//! Conventions:
//! * In `"constants"`, `"dx"` and `"dy"` are the **dimensions** of x and y; the diameters
//!   `D_X`, `D_Y` are `"diam_x"` and `"diam_y"` (unlike [`crate::Constants`], whose `dx`, `dy`
//!   are diameters). `"alpha"` is null when Y is not strongly convex.
//! * Checkpoint t holds the measures at `(x_t, y_t)` (t = 0 is the start): `"h"` is `H_t` with
//!   `beta_t` (`"beta"`) and reference y0; `"gx_po"` uses `"sigma"`; interval-valued measures
//!   are reported by their upper end, `"width"` is the largest interval width; `"gap_opt"` is
//!   `f(x_t) - f*` (upper end) or null when f* is unknown.
//! * Timing fields (`wall_time_s`, `measure_time_s`, `total_time_s`, checkpoint `time_s`) are
//!   the only non-deterministic ones ([`Trace::without_timings`]). `"wall_time_s"` is the
//!   wall-clock time spent inside solver steps (measurement excluded); checkpoint `time_s` is
//!   that time accumulated up to iterate t.
//! * Non-finite numbers are written as null and read back as NaN.
//!
//! # Example
//! ```
//! use saddlefw::trace::{CheckpointRule, Trace};
//! let rule: CheckpointRule = "log2".parse().unwrap();
//! let ts: Vec<usize> = (0..=20).filter(|&t| rule.includes(t)).collect();
//! assert_eq!(ts, [0, 1, 2, 4, 8, 16]);
//! let e = Trace::from_json("{\"algorithm\": 1}", "RUN.json").unwrap_err();
//! assert!(e.to_string().starts_with("RUN.json: line 1 column"), "{e}");
//! ```

use crate::counting::OracleCounts;
use crate::measures::{nan_null, PointMeasures};
use crate::problems::{Constants, Interval};
use crate::solvers::schedule::GReport;
use crate::{Error, Result};
use serde::{Deserialize, Serialize};
use std::path::Path;

/// How a run ended.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    /// All requested iterations were done.
    Completed,
    /// The solver-time limit was reached first.
    TimeLimit,
    /// Iteration `iteration` produced a non-finite value; checkpoints before it are kept.
    Diverged { iteration: usize, reason: String },
    /// A measure at iterate `iteration` is non-finite (`value` null) or a gap is below
    /// `-tolerance` ([`crate::measures::inconsistency`]): an internal inconsistency, not a
    /// result. The checkpoints before it are kept; the run stops there.
    Inconsistent {
        iteration: usize,
        measure: String,
        value: Option<f64>,
        /// null when the measures' scale overflows.
        #[serde(with = "nan_null")]
        tolerance: f64,
    },
    /// A first SIGINT/SIGTERM/SIGHUP stopped the run after `iteration` iterations (iterate
    /// `iteration` is measured; `crate::interrupt`).
    Interrupted { iteration: usize },
    /// A periodic checkpoint file of a run still going at `iteration` (a file left with this
    /// status belongs to a run that was killed; `saddlefw run --checkpoint-every`).
    InProgress { iteration: usize },
}

impl Status {
    /// The one-line description used by every report, e.g. `completed`,
    /// `diverged at t = 17: non-finite grad_x at iteration 17`.
    pub fn describe(&self) -> String {
        match self {
            Status::Completed => "completed".to_string(),
            Status::TimeLimit => "time limit".to_string(),
            Status::Diverged { iteration, reason } => {
                format!("diverged at t = {iteration}: {reason}")
            }
            Status::Inconsistent { iteration, .. } => {
                format!(
                    "inconsistent at t = {iteration}: {}",
                    self.failure().unwrap_or_default()
                )
            }
            Status::Interrupted { iteration } => format!("interrupted at t = {iteration}"),
            Status::InProgress { iteration } => {
                format!("in progress at t = {iteration} (a periodic checkpoint)")
            }
        }
    }
    /// Why the run failed (diverged or inconsistent), `None` for a run that ended normally.
    pub fn failure(&self) -> Option<String> {
        match self {
            Status::Completed
            | Status::TimeLimit
            | Status::Interrupted { .. }
            | Status::InProgress { .. } => None,
            Status::Diverged { reason, .. } => Some(format!("the run diverged: {reason}")),
            Status::Inconsistent {
                measure,
                value,
                tolerance,
                ..
            } => Some(match value {
                Some(v) => format!(
                    "measure {measure} = {v:e} is below -{tolerance:e} (the rounding tolerance): the measures are inconsistent at this scale"
                ),
                None => format!(
                    "measure {measure} is not finite (overflow or an undefined value at this scale)"
                ),
            }),
        }
    }
}

/// Which iterates are measured.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum CheckpointRule {
    /// t = 0, 1, 2, 4, 8, ... and the last iterate.
    #[default]
    Log2,
    /// Every t = 0, 1, ..., T.
    All,
    /// t = 0 and about ten points per decade: every t >= 1 with
    /// `floor(10 log10 t) > floor(10 log10 (t - 1))`, and the last iterate (the experiments'
    /// Figure 1 curves over long time-limited runs).
    Decades,
    /// No iterate is measured, not even the first and the last: for callers that evaluate
    /// their own quantities through an observer (`saddlefw check` records every iterate).
    None,
}

impl CheckpointRule {
    /// Whether iterate t is measured (the last iterate always is, except under `None`; the
    /// loop handles that).
    pub fn includes(&self, t: usize) -> bool {
        match self {
            CheckpointRule::None => false,
            CheckpointRule::All => true,
            CheckpointRule::Log2 => t == 0 || t.is_power_of_two(),
            CheckpointRule::Decades => {
                t <= 1 || {
                    let grid = |v: usize| (10.0 * (v as f64).log10()).floor();
                    grid(t) > grid(t - 1)
                }
            }
        }
    }
}

impl std::fmt::Display for CheckpointRule {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            CheckpointRule::Log2 => "log2",
            CheckpointRule::All => "all",
            CheckpointRule::Decades => "decades",
            CheckpointRule::None => "none",
        })
    }
}

impl std::str::FromStr for CheckpointRule {
    type Err = Error;
    fn from_str(s: &str) -> Result<Self> {
        match s {
            "log2" => Ok(CheckpointRule::Log2),
            "all" => Ok(CheckpointRule::All),
            "decades" => Ok(CheckpointRule::Decades),
            "none" => Ok(CheckpointRule::None),
            _ => Err(Error::invalid(
                "--checkpoints",
                format!("unknown rule {s:?} (log2, decades, all or none)"),
            )),
        }
    }
}

/// The measures at one iterate: its `t`, solver time and `beta_t` around the one per-iterate
/// measures record [`PointMeasures`] (flattened: RUN.json lists the fields side by side).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Checkpoint {
    pub t: usize,
    /// Solver time up to iterate t (seconds).
    #[serde(with = "nan_null")]
    pub time_s: f64,
    /// `beta_t` used by `h` (NaN, written null, in experiment records written before it was
    /// kept).
    #[serde(with = "nan_null", default = "nan_null::nan")]
    pub beta: f64,
    /// The measures at `(x_t, y_t)`.
    #[serde(flatten)]
    pub measures: PointMeasures,
}

/// The certified constants and the dimensions of the problem a run used.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct RunConstants {
    pub lxx: f64,
    pub lyx: f64,
    pub lyy: f64,
    pub mu: f64,
    pub alpha: Option<f64>,
    /// Dimension of x.
    pub dx: usize,
    /// Dimension of y.
    pub dy: usize,
    /// Diameter D_X.
    pub diam_x: f64,
    /// Diameter D_Y.
    pub diam_y: f64,
}

impl RunConstants {
    /// From the problem's constants and the dimensions.
    pub fn new(k: &Constants, dim_x: usize, dim_y: usize) -> Self {
        RunConstants {
            lxx: k.lxx,
            lyx: k.lyx,
            lyy: k.lyy,
            mu: k.mu,
            alpha: k.alpha,
            dx: dim_x,
            dy: dim_y,
            diam_x: k.dx,
            diam_y: k.dy,
        }
    }
}

/// Everything a run records (see the module documentation for the JSON form).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Trace {
    pub algorithm: String,
    /// The problem input: a generator spec, a file path, or the problem's name.
    pub problem: String,
    pub problem_name: String,
    /// The problem's setting (`nc-c`, ..., `c-sc+sc`).
    pub setting: String,
    pub schedule: String,
    pub theorem_case: Option<String>,
    pub schedule_notes: Vec<String>,
    pub provenance: String,
    pub seed: Option<u64>,
    pub constants: RunConstants,
    pub f_star: Option<Interval>,
    /// sigma of G_X^PO.
    pub sigma: f64,
    pub checkpoint_rule: CheckpointRule,
    pub iterations_requested: usize,
    pub time_limit_s: Option<f64>,
    pub status: Status,
    /// Iterations done (x_T is the last iterate, T = iterations).
    pub iterations: usize,
    #[serde(with = "nan_null")]
    pub wall_time_s: f64,
    #[serde(with = "nan_null")]
    pub measure_time_s: f64,
    #[serde(with = "nan_null")]
    pub total_time_s: f64,
    pub oracle_calls: OracleCounts,
    pub po_lmo_g: Option<GReport>,
    pub checkpoints: Vec<Checkpoint>,
}

impl Trace {
    /// A copy with every timing field set to 0 (for determinism comparisons).
    pub fn without_timings(&self) -> Trace {
        let mut t = self.clone();
        t.wall_time_s = 0.0;
        t.measure_time_s = 0.0;
        t.total_time_s = 0.0;
        t.checkpoints.iter_mut().for_each(|c| c.time_s = 0.0);
        t
    }
    /// Pretty JSON.
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).expect("a Trace always serialises")
    }
    /// Parses RUN.json text; `input` names the source in errors.
    pub fn from_json(text: &str, input: &str) -> Result<Trace> {
        crate::files::parse_json(input, text, crate::files::JsonTop::Object)
    }
    /// Reads a RUN.json file.
    pub fn read(path: &Path) -> Result<Trace> {
        let name = path.display().to_string();
        let text = crate::files::read_text(path)?;
        Trace::from_json(&text, &name)
    }
    /// Writes RUN.json atomically (`crate::files::write_atomic`).
    pub fn write(&self, path: &Path) -> Result<()> {
        let mut s = self.to_json();
        s.push('\n');
        crate::files::write_atomic(path, s.as_bytes())
    }
    /// The last checkpoint, if any.
    pub fn last(&self) -> Option<&Checkpoint> {
        self.checkpoints.last()
    }
}
