//! `verify --resume DIR` ([`crate::ledger`]): the jobs finished by an earlier run of the same
//! build, arguments and inputs are reused, only the others run. They come from its journal (`DIR/verify.json.journal`,
//! [`crate::journal`]: a run killed by SIGKILL) when there is one, else from its record
//! (`DIR/verify.json`: a run stopped by a first signal, or a complete one). Jobs are
//! independent (the argument of [`super::shard`]), so the report equals an uninterrupted
//! run's apart from timings.
//!
//! A job is reused only when the source holds its run for every entry it serves. The stored
//! hardest instances ([`super::hard`]) run after every random job: a run stopped among them
//! keeps the hard runs it finished (`hard_runs` in an interrupted verify.json, or journal
//! lines), and the resumed run judges them with the others.
//!
//! ```
//! use saddlefw::verify::{resume::check_record, run, run_resumed, without_timings, Tier, VerifyOptions};
//! let table = saddlefw::theorems::builtin();
//! let opts = VerifyOptions::new(Tier::Test).filter("lmo-lmo/c-sc/");
//! let record = run(&table, &opts).unwrap();
//! assert!(check_record("verify.json", &record, &opts).is_ok());
//! // every job is recorded: nothing runs again, and the report is the same
//! let again = run_resumed(&table, &opts, Some(&record)).unwrap();
//! let json = |r: &saddlefw::verify::VerifyReport| {
//!     without_timings(&serde_json::from_str(&r.to_json()).unwrap())
//! };
//! assert_eq!(json(&again), json(&record));
//! // another selection of entries is other work
//! let other = VerifyOptions::new(Tier::Test).filter("lmo-po/");
//! let e = check_record("verify.json", &record, &other).unwrap_err();
//! assert!(e.to_string().contains("recorded with --cases"), "{e}");
//! ```

use super::hard::{HardLog, HardRun};
use super::shard::{JobKey, JobRuns};
use super::{VerifyOptions, VerifyReport};
use crate::fingerprint::Inputs;
use crate::ledger::Ledger;
use crate::theorems::TheoremEntry;
use crate::Result;
use serde::{Deserialize, Serialize};
use std::path::Path;

use super::work::recorded_identity;
pub use super::work::{arguments, check_record, identity};

/// One line of a verify journal: a finished job of random instances, or a finished run on a
/// stored hardest instance.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Finished {
    /// The job `(case, family, seed index)` and the run of each entry it serves.
    Job {
        key: (String, String, u32),
        runs: Vec<(String, super::InstanceRun)>,
    },
    /// A run on an entry's stored hardest instance.
    Hard(HardRun),
}

/// What names a verify job: a job of random instances, or an entry's stored hardest instance.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub enum JobId {
    /// `(case, family, seed index)`.
    Job(JobKey),
    /// The entry's id.
    Hard(String),
}

/// `verify`'s jobs for the [`crate::ledger`].
#[derive(Debug)]
pub struct Verify;

impl crate::ledger::Journaled for Verify {
    const COMMAND: &'static str = "verify";
    type Key = JobId;
    type Result = Finished;
    fn key(f: &Finished) -> JobId {
        match f {
            Finished::Job { key, .. } => JobId::Job(key.clone()),
            Finished::Hard(h) => JobId::Hard(h.entry.clone()),
        }
    }
}

/// The jobs a verify run does not run again, and the journal where it records the ones it
/// finishes (shared by the worker threads and the hard-instance hook).
pub type JobLog = Ledger<Verify>;

/// Nothing finished, no journal: a plain run of `opts`.
pub fn fresh(opts: &VerifyOptions) -> JobLog {
    Ledger::new(identity(opts, Inputs::default()))
}

/// The finished jobs of `opts` that `record` holds, and its finished hard runs.
fn results_of(
    record: &VerifyReport,
    table: &[TheoremEntry],
    opts: &VerifyOptions,
) -> Result<Vec<Finished>> {
    let planned = super::plan::plan(table, opts)?;
    let jobs = super::shard::recorded_jobs(record, &planned.all);
    let jobs = jobs
        .into_iter()
        .map(|(key, runs)| Finished::Job { key, runs });
    let hard = record.hard_runs.iter().cloned().map(Finished::Hard);
    Ok(jobs.chain(hard).collect())
}

/// The jobs of `opts` that `record` (an earlier report of the same work, [`check_record`])
/// holds, and its finished hard runs.
pub fn from_record(
    record: &VerifyReport,
    table: &[TheoremEntry],
    opts: &VerifyOptions,
) -> Result<JobLog> {
    let results = results_of(record, table, opts)?;
    Ledger::new(identity(opts, record.inputs.clone())).reuse(
        "the report to resume",
        &recorded_identity(record),
        results,
    )
}

/// What `verify --resume DIR` reuses: the journal `DIR/verify.json.journal` if there is
/// one, else the record `DIR/verify.json` ([`Ledger::resume`]); each must belong to this
/// build, `opts` and inputs of the same content as `inputs`.
pub fn read(
    dir: &Path,
    table: &[TheoremEntry],
    opts: &VerifyOptions,
    inputs: Inputs,
) -> Result<JobLog> {
    Ledger::resume(
        identity(opts, inputs),
        &dir.join("verify.json"),
        |name, text| {
            let report = VerifyReport::parse(name, text)?;
            Ok((
                recorded_identity(&report),
                results_of(&report, table, opts)?,
            ))
        },
    )
}

/// The recorded runs of job `key`.
pub(crate) fn job<'a>(log: &'a JobLog, key: &JobKey) -> Option<&'a JobRuns> {
    match log.get(&JobId::Job(key.clone())) {
        Some(Finished::Job { runs, .. }) => Some(runs),
        _ => None,
    }
}

/// Job `key` finished with `runs`.
pub(crate) fn job_done(log: &JobLog, key: &JobKey, runs: &JobRuns) {
    log.done(&Finished::Job {
        key: key.clone(),
        runs: runs.clone(),
    });
}

/// The recorded hard runs (carried into a report stopped before the hard instances).
pub fn hard_runs(log: &JobLog) -> Vec<HardRun> {
    log.reused()
        .values()
        .filter_map(|f| match f {
            Finished::Hard(h) => Some(h.clone()),
            Finished::Job { .. } => None,
        })
        .collect()
}

impl HardLog for JobLog {
    fn hard(&self, entry: &str) -> Option<&HardRun> {
        match self.get(&JobId::Hard(entry.to_string())) {
            Some(Finished::Hard(h)) => Some(h),
            _ => None,
        }
    }
    fn hard_done(&self, run: &HardRun) {
        self.done(&Finished::Hard(run.clone()));
    }
}
