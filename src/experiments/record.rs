//! `experiment.json`: what `saddlefw experiment` records, and its conversion into the report
//! model ([`crate::report::ExperimentReport`]) that renders `index.html`.
//!
//! ```json
//! {
//!   "experiment": "dl" | "news20" | "rcv1",
//!   "time_limit_s": 300.0, "max_iterations": 1000000000, "jobs": 1,
//!   "measure": {"lmo_primal": "G_X^LMO + G_Y", "po_primal": "G_X^PO + G_Y", "sigma": 25.1, "sigma_choice": ".."},
//!   "checkpoint_rule": "decades",
//!   "data": {"kind": "generated" | "libsvm", "file", "sha256", "sha256_decompressed",
//!            "expected_sha256", "matches_reference", "scaling", "rows", "seed", "n", "d", "k", "nnz", "dl", "description"},
//!   "constants": {"certified": {..}, "paper": {..}, "passed_to_parameter_formulas": {..}, "sampled": {..} | null},
//!   "runs": [{"algorithm": "LMO-PO", "registry_name": "lmo-po", "primal_oracle": "lmo", "measure": "G_X^LMO + G_Y",
//!             "iterations", "wall_time_s", "measure_time_s", "time_per_iteration_s", "cpu_time_s",
//!             "threads" (only when above 1),
//!             "status": "time_limit" | "completed" | "diverged" | "skipped" | "not_applicable" | "failed" | "interrupted",
//!             "status_detail", "provenance", "provenance_detail", "schedule", "parameters": [..],
//!             "paper_iterations", "oracle_calls",
//!             "checkpoints": [{"t", "time_s", "beta", "gx_lmo", "gx_po", "gy", "gy_lmo", "h", "gap_opt", "width", "measure"}]}],
//!   "claims": [{"claim", "label", "holds": true | false | null, "evidence"}],
//!   "notes": [..], "meta": {..}
//! }
//! ```
//! Non-finite numbers are written as null. `wall_time_s` and checkpoint `time_s` are solver
//! time only (measurements excluded), as in RUN.json.
//!
//! ```
//! use saddlefw::experiments::params::Method;
//! use saddlefw::paper::Algorithm;
//! use saddlefw::experiments::record::{CheckpointRecord, RunRecord, RunStatus};
//! let mut r = RunRecord::not_run(Method::Paper(Algorithm::PoLmo), RunStatus::TimeLimit, String::new());
//! assert_eq!(r.measure, "G_X^PO + G_Y");
//! let cp = |t, time_s, m: Option<f64>| CheckpointRecord::of_measure(t, time_s, m);
//! r.checkpoints = vec![cp(0, 0.0, Some(4.0)), cp(1, 0.5, Some(1.0)), cp(2, 1.0, None), cp(4, 2.0, Some(2.0))];
//! // the best-so-far curve skips non-finite (null) measures
//! assert_eq!((r.best_until(0.2), r.best_until(1.0), r.best()), (Some(4.0), Some(1.0), Some(1.0)));
//! assert_eq!((r.initial(), r.last()), (Some(4.0), Some(2.0)));
//! // a status is written under its as_str name
//! for s in [RunStatus::TimeLimit, RunStatus::NotApplicable, RunStatus::Diverged] {
//!     assert_eq!(serde_json::to_value(s).unwrap(), s.as_str());
//! }
//! assert!(RunStatus::Diverged.ran() && !RunStatus::Skipped.ran());
//! ```

use super::params::Method;
use super::source::DataDescription;
use crate::counting::OracleCounts;
use crate::measures::PointMeasures;
use crate::paper::measure::RunMeasure;
use crate::paper::Oracle;
use crate::problems::lipschitz::SampledConstants;
use crate::problems::Constants;
use crate::report::{ClaimVerdict, ExperimentReport, Meta, RunSummary, Series};
use crate::trace::{Checkpoint, Status, Trace};
use crate::Result;
use serde::{Deserialize, Serialize};
use std::path::Path;

/// The plotted measures and the sigma of `G_X^PO`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MeasureSpec {
    pub lmo_primal: String,
    pub po_primal: String,
    /// sigma of `G_X^PO` (all runs record `gx_po` with it).
    pub sigma: f64,
    pub sigma_choice: String,
}

/// The constants of the problem: certified (what the solvers' own step rules read), the
/// paper's appendix values, the ones handed to the parameter formulas, and sampled
/// gradient-difference ratios (lower bounds on the true constants).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ConstantsReport {
    pub certified: Constants,
    pub paper: Constants,
    pub passed_to_parameter_formulas: Constants,
    pub sampled: Option<SampledConstants>,
}

/// One checkpoint of a run: the harness' [`Checkpoint`] (`t`, solver time, `beta_t` and the one
/// per-iterate measures record, written side by side as in RUN.json; non-finite values null)
/// and the measure Figure 1 plots from it (null when not finite).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CheckpointRecord {
    #[serde(flatten)]
    pub checkpoint: Checkpoint,
    pub measure: Option<f64>,
}

fn finite(v: f64) -> Option<f64> {
    v.is_finite().then_some(v)
}

fn one() -> usize {
    1
}

fn is_one(n: &usize) -> bool {
    *n == 1
}

impl CheckpointRecord {
    /// From a harness checkpoint; `oracle` selects `G_X^LMO` or `G_X^PO`.
    pub fn new(c: &Checkpoint, oracle: Oracle) -> Self {
        CheckpointRecord {
            checkpoint: c.clone(),
            measure: finite(plotted_measure(c, oracle)),
        }
    }
    /// A checkpoint that carries only its plotted measure (the measures unknown): synthetic
    /// runs in examples and tests.
    pub fn of_measure(t: usize, time_s: f64, measure: Option<f64>) -> Self {
        CheckpointRecord {
            checkpoint: Checkpoint {
                t,
                time_s,
                beta: f64::NAN,
                measures: PointMeasures::unknown(),
            },
            measure,
        }
    }
    /// Iterate index.
    pub fn t(&self) -> usize {
        self.checkpoint.t
    }
    /// Solver time up to the iterate (seconds).
    pub fn time_s(&self) -> f64 {
        self.checkpoint.time_s
    }
}

/// The measure Figure 1 plots ([`RunMeasure::Stationarity`], `fig:Experiment`, L749) at a
/// checkpoint of a method whose primal block uses `oracle`.
pub fn plotted_measure(c: &Checkpoint, oracle: Oracle) -> f64 {
    c.measures
        .select(RunMeasure::Stationarity, oracle)
        .unwrap_or(f64::NAN)
}

/// How a run of the experiment ended (the harness' statuses plus the runs that did not start).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RunStatus {
    Completed,
    TimeLimit,
    Diverged,
    /// A measure was non-finite or a gap negative beyond rounding (`Status::Inconsistent`).
    Inconsistent,
    /// Not run by default (R-PDCG on the robust problem, as in the paper).
    Skipped,
    /// The registry refused it for this problem (R-PDCG without a strongly convex Y).
    NotApplicable,
    /// Any other error while building the solver.
    Failed,
    /// Stopped by a first SIGINT/SIGTERM/SIGHUP (`status_detail`: the iteration reached), or
    /// not started because of it; `experiment --resume` runs it again.
    Interrupted,
}

impl RunStatus {
    /// The snake-case name written to JSON.
    pub fn as_str(&self) -> &'static str {
        match self {
            RunStatus::Completed => "completed",
            RunStatus::TimeLimit => "time_limit",
            RunStatus::Diverged => "diverged",
            RunStatus::Inconsistent => "inconsistent",
            RunStatus::Skipped => "skipped",
            RunStatus::NotApplicable => "not_applicable",
            RunStatus::Failed => "failed",
            RunStatus::Interrupted => "interrupted",
        }
    }
    /// Whether the algorithm iterated.
    pub fn ran(&self) -> bool {
        matches!(
            self,
            RunStatus::Completed
                | RunStatus::TimeLimit
                | RunStatus::Diverged
                | RunStatus::Inconsistent
                | RunStatus::Interrupted
        )
    }
}

/// One algorithm's run.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RunRecord {
    /// The paper's name, e.g. `LMO-PO`.
    pub algorithm: String,
    pub registry_name: String,
    pub primal_oracle: Oracle,
    pub measure: String,
    pub iterations: usize,
    pub wall_time_s: f64,
    pub measure_time_s: f64,
    /// Solver seconds per iteration (`seconds_per_iteration` in records written before issue
    /// 35: a varying field's name contains `time`).
    #[serde(alias = "seconds_per_iteration")]
    pub time_per_iteration_s: Option<f64>,
    /// CPU time the run's threads got while it ran (solver and measures; the run's thread and
    /// the helper threads of its kernels, [`crate::jobs::run_cpu_time_s`]: the
    /// thread CPU clock on Unix, None elsewhere). Far below `threads (wall_time_s +
    /// measure_time_s)` means the machine was busy with other work (or, with several threads,
    /// that the kernels split over them are a small part of an iteration).
    #[serde(default)]
    pub cpu_time_s: Option<f64>,
    /// Threads the run's kernels were split over (`--threads`; omitted when 1).
    #[serde(default = "one", skip_serializing_if = "is_one")]
    pub threads: usize,
    pub status: RunStatus,
    pub status_detail: Option<String>,
    /// VERIFIED / RECONSTRUCTED / GUESSED status of the update rule (baselines.md), or the
    /// paper's label for Algorithms 1-3.
    pub provenance: String,
    pub provenance_detail: String,
    pub schedule: String,
    /// How the parameters were set (the registry's notes and the experiment's choices).
    pub parameters: Vec<String>,
    /// The paper's Table 3 count for this experiment (None: N/A or not in the table).
    pub paper_iterations: Option<u64>,
    pub oracle_calls: Option<OracleCounts>,
    pub checkpoints: Vec<CheckpointRecord>,
}

impl RunRecord {
    /// A run that did not iterate (skipped, not applicable, failed).
    pub fn not_run(alg: Method, status: RunStatus, detail: String) -> Self {
        RunRecord {
            algorithm: alg.name().into(),
            registry_name: alg.registry_name().into(),
            primal_oracle: alg.primal_oracle(),
            measure: RunMeasure::Stationarity.label(alg.primal_oracle()).into(),
            iterations: 0,
            wall_time_s: 0.0,
            measure_time_s: 0.0,
            time_per_iteration_s: None,
            cpu_time_s: None,
            threads: 1,
            status,
            status_detail: Some(detail),
            provenance: alg.provenance().into(),
            provenance_detail: String::new(),
            schedule: String::new(),
            parameters: Vec::new(),
            paper_iterations: None,
            oracle_calls: None,
            checkpoints: Vec::new(),
        }
    }

    /// From a finished harness trace.
    pub(crate) fn from_trace(alg: Method, trace: &Trace, parameters: Vec<String>) -> Self {
        let oracle = alg.primal_oracle();
        let (status, detail) = match &trace.status {
            Status::Completed => (RunStatus::Completed, None),
            Status::TimeLimit => (RunStatus::TimeLimit, None),
            Status::Diverged { iteration, reason } => (
                RunStatus::Diverged,
                Some(format!("at iteration {iteration}: {reason}")),
            ),
            s @ Status::Inconsistent { iteration, .. } => (
                RunStatus::Inconsistent,
                Some(format!(
                    "at iteration {iteration}: {}",
                    s.failure().unwrap_or_default()
                )),
            ),
            Status::Interrupted { iteration } | Status::InProgress { iteration } => (
                RunStatus::Interrupted,
                Some(format!("at iteration {iteration}")),
            ),
        };
        RunRecord {
            algorithm: alg.name().into(),
            registry_name: alg.registry_name().into(),
            primal_oracle: oracle,
            measure: RunMeasure::Stationarity.label(oracle).into(),
            iterations: trace.iterations,
            wall_time_s: trace.wall_time_s,
            measure_time_s: trace.measure_time_s,
            time_per_iteration_s: (trace.iterations > 0)
                .then(|| trace.wall_time_s / trace.iterations as f64),
            cpu_time_s: None,
            threads: 1,
            status,
            status_detail: detail,
            provenance: alg.provenance().into(),
            provenance_detail: trace.provenance.clone(),
            schedule: trace.schedule.clone(),
            parameters,
            paper_iterations: None,
            oracle_calls: Some(trace.oracle_calls),
            checkpoints: trace
                .checkpoints
                .iter()
                .map(|c| CheckpointRecord::new(c, oracle))
                .collect(),
        }
    }

    /// `(time_s, measure)` of the checkpoints with a finite measure.
    pub fn measures(&self) -> impl Iterator<Item = (f64, f64)> + '_ {
        self.checkpoints
            .iter()
            .filter_map(|c| c.measure.map(|m| (c.time_s(), m)))
    }

    /// The measure at the start (t = 0).
    pub fn initial(&self) -> Option<f64> {
        self.checkpoints.first().and_then(|c| c.measure)
    }

    /// The measure at the last checkpoint.
    pub fn last(&self) -> Option<f64> {
        self.checkpoints.last().and_then(|c| c.measure)
    }

    /// The smallest measure among the checkpoints with solver time `<= time_s` (the
    /// best-so-far curve at that time).
    pub fn best_until(&self, time_s: f64) -> Option<f64> {
        self.measures()
            .filter(|&(t, _)| t <= time_s)
            .map(|(_, m)| m)
            .reduce(f64::min)
    }

    /// The best measure of the whole run.
    pub fn best(&self) -> Option<f64> {
        self.best_until(f64::INFINITY)
    }

    /// The share of its threads' CPUs the run got while it ran: `cpu_time_s / (threads
    /// (wall_time_s + measure_time_s))`, capped at 1 (None when the CPU time was not recorded,
    /// e.g. records written before `cpu_time_s` existed, or the run did not iterate). With one
    /// thread, below about 0.9 the machine was busy with other work and counts per second of
    /// solver time are low by that factor.
    pub fn cpu_share(&self) -> Option<f64> {
        let elapsed = self.wall_time_s + self.measure_time_s;
        let cpu = self.cpu_time_s?;
        let threads = self.threads.max(1) as f64;
        (elapsed > 0.0 && cpu.is_finite() && cpu >= 0.0)
            .then(|| (cpu / (threads * elapsed)).min(1.0))
    }

    /// Iterations per second of solver time (wall clock, measurements excluded); None without
    /// solver time.
    pub(crate) fn iterations_per_second(&self) -> Option<f64> {
        (self.wall_time_s > 0.0).then(|| self.iterations as f64 / self.wall_time_s)
    }

    /// Iterations per CPU-second of the solver: the solver time scaled by the run's
    /// [`cpu_share`](Self::cpu_share) and its threads (the measurements got the same share),
    /// so a run split over threads is charged the CPU time of all of them; None without a
    /// recorded CPU time.
    pub fn iterations_per_cpu_second(&self) -> Option<f64> {
        let share = self.cpu_share().filter(|s| *s > 0.0)?;
        let threads = self.threads.max(1) as f64;
        self.iterations_per_second().map(|r| r / (share * threads))
    }

    /// The status as shown on the page.
    pub fn status_text(&self) -> String {
        match &self.status_detail {
            Some(d) => format!("{}: {d}", self.status.as_str()),
            None => self.status.as_str().to_string(),
        }
    }
}

/// The whole experiment (see the module documentation for the JSON form).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ExperimentRecord {
    pub experiment: String,
    pub time_limit_s: f64,
    pub max_iterations: usize,
    pub jobs: usize,
    pub measure: MeasureSpec,
    pub checkpoint_rule: String,
    pub data: DataDescription,
    pub constants: ConstantsReport,
    pub runs: Vec<RunRecord>,
    pub claims: Vec<ClaimVerdict>,
    pub notes: Vec<String>,
    /// Set when a signal stopped the experiment before every algorithm finished: the runs
    /// marked `interrupted` are partial or missing and the claims are judged on partial data
    /// (not a result); `experiment --resume DIR` finishes it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub interrupted: Option<crate::resume::Interruption>,
    pub meta: Meta,
}

impl ExperimentRecord {
    /// Pretty JSON.
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).expect("an experiment record always serialises")
    }
    /// Reads `experiment.json`.
    pub fn read(path: &Path) -> Result<Self> {
        let name = path.display().to_string();
        let text = crate::files::read_text(path)?;
        Self::parse(&name, &text)
    }
    /// Parses `experiment.json` text; `input` names it in errors.
    pub fn parse(input: &str, text: &str) -> Result<Self> {
        crate::files::parse_json(input, text, crate::files::JsonTop::Object)
    }
    /// The run of `alg`, if recorded.
    pub fn run(&self, alg: Method) -> Option<&RunRecord> {
        self.runs.iter().find(|r| r.algorithm == alg.name())
    }

    /// The report model of `index.html`: the Figure 1 series (measure against solver time and
    /// against iterations, positive finite values only, for the log axis), the runs with
    /// their provenance and status, the claims and the notes.
    pub fn to_report(&self) -> ExperimentReport {
        let runs: Vec<RunSummary> = self
            .runs
            .iter()
            .map(|r| {
                let pts = |by_time: bool| -> Vec<(f64, f64)> {
                    r.checkpoints
                        .iter()
                        .filter_map(|c| {
                            let m = c.measure.filter(|m| *m > 0.0)?;
                            Some((if by_time { c.time_s() } else { c.t() as f64 }, m))
                        })
                        .collect()
                };
                let series = |p: Vec<(f64, f64)>| {
                    (!p.is_empty()).then(|| Series::new(r.algorithm.clone(), p))
                };
                RunSummary {
                    algorithm: r.algorithm.clone(),
                    provenance: Some(r.provenance.clone()),
                    problem: Some(self.experiment.clone()),
                    measure: Some(r.measure.clone()),
                    status: r.status_text(),
                    iterations: r.iterations as u64,
                    wall_time_s: r.status.ran().then_some(r.wall_time_s),
                    cpu_share: r.status.ran().then(|| r.cpu_share()).flatten(),
                    by_iteration: series(pts(false)),
                    by_time: series(pts(true)),
                }
            })
            .collect();
        let mut claims = self.claims.clone();
        if !claims
            .iter()
            .any(|c| c.label.as_deref() == Some("table:iters"))
        {
            claims.push(super::table3::iteration_claim(&runs));
        }
        ExperimentReport {
            experiment: self.experiment.clone(),
            time_limit_s: self.time_limit_s,
            runs,
            claims,
            notes: self.notes.clone(),
            table3: super::table3::column(&self.experiment),
        }
    }
}
