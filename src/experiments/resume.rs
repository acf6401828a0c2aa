//! `experiment --resume DIR` and interrupted experiments ([`crate::ledger`]): the runs of an `experiment.json`
//! written by this build with the same arguments are reused, except those whose status is
//! `interrupted` (stopped by a signal, or not started because of it), which run again.
//! Each algorithm's run is independent of the others (its own solver on the same data), so
//! the final record equals an uninterrupted one apart from timings, and the claims are judged
//! on the final runs.
//!
//! ```
//! use saddlefw::experiments::params::Method;
//! use saddlefw::paper::Algorithm;
//! use saddlefw::experiments::record::RunStatus;
//! use saddlefw::experiments::resume::not_started;
//! let r = not_started(Method::Paper(Algorithm::LmoPo));
//! assert_eq!(r.status, RunStatus::Interrupted);
//! assert_eq!(r.iterations, 0);
//! ```

use super::params::Method;
use super::record::{ExperimentRecord, RunRecord, RunStatus};
use super::source::DataDescription;
use crate::ledger::Ledger;
use crate::resume::Identity;
use crate::Result;
use std::path::Path;

/// The arguments of an experiment that decide its runs (what a resumed record must share).
#[derive(Debug, Clone)]
pub struct Work<'a> {
    /// `dl`, `news20` or `rcv1`.
    pub experiment: &'a str,
    pub time_limit_s: f64,
    pub max_iterations: usize,
    pub algorithms: &'a [Method],
    pub sigma: f64,
    pub data: &'a DataDescription,
}

/// The job-defining arguments of `work`, `(name, value)`.
pub fn arguments(work: &Work) -> Vec<(&'static str, String)> {
    let algorithms: Vec<String> = work
        .algorithms
        .iter()
        .map(|a| a.registry_name().to_string())
        .collect();
    identity(
        work.experiment,
        work.time_limit_s,
        work.max_iterations,
        &algorithms,
        work.sigma,
        work.data,
    )
}

fn identity(
    experiment: &str,
    time_limit_s: f64,
    max_iterations: usize,
    algorithms: &[String],
    sigma: f64,
    data: &DataDescription,
) -> Vec<(&'static str, String)> {
    vec![
        ("experiment", experiment.to_string()),
        ("--time-limit", time_limit_s.to_string()),
        ("--iters", max_iterations.to_string()),
        ("--algos", algorithms.join(",")),
        ("sigma", sigma.to_string()),
        (
            "data (--data, --rows, --seed, --scaling, --dl-dims)",
            serde_json::to_string(data).unwrap_or_default(),
        ),
    ]
}

/// The work `record` says it did, and its runs that finished.
fn recorded(record: &ExperimentRecord) -> (Identity, Vec<RunRecord>) {
    let algorithms: Vec<String> = record
        .runs
        .iter()
        .map(|r| r.registry_name.clone())
        .collect();
    let was = identity(
        &record.experiment,
        record.time_limit_s,
        record.max_iterations,
        &algorithms,
        record.measure.sigma,
        &record.data,
    );
    let build = crate::build_info::Build {
        version: record.meta.version.clone(),
        git_commit: record.meta.git_commit.clone(),
    };
    let finished = record
        .runs
        .iter()
        .filter(|r| r.status != RunStatus::Interrupted)
        .cloned()
        .collect();
    // the data file's content is an argument: its sha256 is in the DataDescription
    (
        Identity::recorded(&build, was, Default::default()),
        finished,
    )
}

/// `experiment`'s jobs for the [`crate::ledger`]: an algorithm's run, by registry name.
#[derive(Debug)]
pub struct Experiment;

impl crate::ledger::Journaled for Experiment {
    const COMMAND: &'static str = "experiment";
    type Key = String;
    type Result = RunRecord;
    fn key(r: &RunRecord) -> String {
        r.registry_name.clone()
    }
}

/// Where the runs an experiment reuses come from.
#[derive(Debug)]
pub enum Reuse<'a> {
    /// An `experiment.json` (`(name, record)`): its runs that finished.
    Record(&'a str, &'a ExperimentRecord),
    /// `experiment --resume DIR`: `DIR`'s journal, else `DIR/experiment.json`.
    Dir(&'a Path),
}

/// The finished runs of `work` that `reuse` holds, in a ledger.
pub fn ledger(reuse: Option<Reuse>, work: &Work) -> Result<Ledger<Experiment>> {
    let now = Identity::current(arguments(work), Default::default());
    match reuse {
        None => Ok(Ledger::new(now)),
        Some(Reuse::Record(name, record)) => {
            let (was, runs) = recorded(record);
            Ledger::new(now).reuse(name, &was, runs)
        }
        Some(Reuse::Dir(dir)) => Ledger::resume(now, &dir.join("experiment.json"), |name, text| {
            Ok(recorded(&ExperimentRecord::parse(name, text)?))
        }),
    }
}

/// The record of an algorithm that a stop request kept from starting.
pub fn not_started(alg: Method) -> RunRecord {
    RunRecord::not_run(
        alg,
        RunStatus::Interrupted,
        format!(
            "not started: {} arrived before this run",
            crate::interrupt::describe().unwrap_or_else(|| "a stop request".into())
        ),
    )
}
