//! `experiment --resume DIR` and interrupted experiments: the runs of an `experiment.json`
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
use crate::Result;
use std::collections::BTreeMap;

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

/// Refuses `record` (read from `input`) unless this build wrote it for the same experiment,
/// time limit, iteration cap, algorithms, sigma and data as `work`.
pub fn check_record(input: &str, record: &ExperimentRecord, work: &Work) -> Result<()> {
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
    crate::resume::check_arguments(input, &build.to_string(), was, arguments(work))
}

/// Where the runs an experiment reuses come from (`experiment --resume DIR`).
#[derive(Debug)]
pub enum Reuse<'a> {
    /// An `experiment.json` (`(name, record)`): its runs that finished.
    Record(&'a str, &'a ExperimentRecord),
    /// A journal (`(name, header, finished runs)`, [`crate::journal`]).
    Journal(String, crate::journal::Header, Vec<RunRecord>),
}

impl Reuse<'_> {
    /// The finished runs by registry name, once the source is checked against `work`.
    pub fn finished(self, work: &Work) -> Result<BTreeMap<String, RunRecord>> {
        let runs = match self {
            Reuse::Record(name, record) => {
                check_record(name, record, work)?;
                record.runs.clone()
            }
            Reuse::Journal(name, header, runs) => {
                header.check(&name, "experiment", &arguments(work), &Default::default())?;
                runs
            }
        };
        Ok(runs
            .into_iter()
            .filter(|r| r.status != RunStatus::Interrupted)
            .map(|r| (r.registry_name.clone(), r))
            .collect())
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

/// Starts the journal at `path` of the experiment `work` (one line per finished run, the
/// `finished` ones first), synced every `every_s` seconds ([`crate::journal`]).
pub fn start_journal(
    path: &std::path::Path,
    work: &Work,
    finished: &BTreeMap<String, RunRecord>,
    every_s: f64,
) -> Result<crate::journal::Journal> {
    let arguments = arguments(work)
        .into_iter()
        .map(|(n, v)| (n.to_string(), v))
        .collect();
    // the data file's content is an argument: its sha256 is in the DataDescription
    let header = crate::journal::Header::new(
        "experiment",
        arguments,
        Default::default(),
        work.algorithms.len(),
    );
    let carried: Vec<&RunRecord> = finished.values().collect();
    crate::journal::Journal::create(path, &header, &carried, every_s)
}
