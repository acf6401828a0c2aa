//! `experiment --resume DIR` and interrupted experiments: the runs of an `experiment.json`
//! written by this build with the same arguments are reused, except those whose status is
//! `interrupted` (stopped by a signal, or not started because of it), which run again.
//! Each algorithm's run is independent of the others (its own solver on the same data), so
//! the final record equals an uninterrupted one apart from timings, and the claims are judged
//! on the final runs.
//!
//! ```
//! use saddlefw::experiments::params::Algorithm;
//! use saddlefw::experiments::record::RunStatus;
//! use saddlefw::experiments::resume::not_started;
//! let r = not_started(Algorithm::LmoPo);
//! assert_eq!(r.status, RunStatus::Interrupted);
//! assert_eq!(r.iterations, 0);
//! ```

use super::params::Algorithm;
use super::record::{ExperimentRecord, RunRecord, RunStatus};
use super::source::DataDescription;
use crate::Result;

/// The arguments of an experiment that decide its runs (what a resumed record must share).
#[derive(Debug, Clone)]
pub struct Work<'a> {
    /// `dl`, `news20` or `rcv1`.
    pub experiment: &'a str,
    pub time_limit_s: f64,
    pub max_iterations: usize,
    pub algorithms: &'a [Algorithm],
    pub sigma: f64,
    pub data: &'a DataDescription,
}

/// Refuses `record` (read from `input`) unless this build wrote it for the same experiment,
/// time limit, iteration cap, algorithms, sigma and data as `work`.
pub fn check_record(input: &str, record: &ExperimentRecord, work: &Work) -> Result<()> {
    let (data, sigma) = (work.data, work.sigma);
    let json = |d: &DataDescription| serde_json::to_string(d).unwrap_or_default();
    let names = |it: &mut dyn Iterator<Item = String>| it.collect::<Vec<_>>().join(",");
    let arguments = [
        (
            "experiment",
            record.experiment.clone(),
            work.experiment.to_string(),
        ),
        (
            "--time-limit",
            record.time_limit_s.to_string(),
            work.time_limit_s.to_string(),
        ),
        (
            "--iters",
            record.max_iterations.to_string(),
            work.max_iterations.to_string(),
        ),
        (
            "--algos",
            names(&mut record.runs.iter().map(|r| r.registry_name.clone())),
            names(
                &mut work
                    .algorithms
                    .iter()
                    .map(|a| a.registry_name().to_string()),
            ),
        ),
        ("sigma", record.measure.sigma.to_string(), sigma.to_string()),
        (
            "data (--data, --rows, --seed, --scaling, --dl-dims)",
            json(&record.data),
            json(data),
        ),
    ];
    let build = |version: &str, commit: &Option<String>| crate::report::Build {
        version: version.to_string(),
        git_commit: commit.clone(),
    };
    crate::resume::check_identity(
        input,
        &build(&record.meta.version, &record.meta.git_commit).to_string(),
        &crate::report::Build::current().to_string(),
        &arguments,
    )
}

/// The recorded run of `alg` when it finished (any status but `interrupted`).
pub fn reusable(record: &ExperimentRecord, alg: Algorithm) -> Option<RunRecord> {
    record
        .run(alg)
        .filter(|r| r.status != RunStatus::Interrupted)
        .cloned()
}

/// The record of an algorithm that a stop request kept from starting.
pub fn not_started(alg: Algorithm) -> RunRecord {
    RunRecord::not_run(
        alg,
        RunStatus::Interrupted,
        format!(
            "not started: {} arrived before this run",
            crate::interrupt::describe().unwrap_or_else(|| "a stop request".into())
        ),
    )
}
