//! `verify --resume DIR`: the jobs finished by an earlier run of the same build and arguments
//! are reused, only the others run. They come from its journal (`DIR/verify.json.journal`,
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
use crate::journal::{Header, Journal};
use crate::theorems::TheoremEntry;
use crate::Result;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::Path;

/// The job-defining arguments of a verify run: tier, seeds, horizon, dimensions, `--cases`,
/// `--control`, `--shard` and the solver under verification.
pub fn arguments(opts: &VerifyOptions) -> Vec<(&'static str, String)> {
    let cfg = opts.config.unwrap_or_else(|| opts.tier.config());
    let seeds: Vec<u32> = (0..cfg.seeds).collect();
    identity(
        opts.tier.to_string(),
        opts.seed,
        &seeds,
        cfg.t_max,
        (cfg.dim_x, cfg.dim_y),
        &opts.filter,
        &opts.control.map(|c| c.to_string()),
        &opts.shard.map(|s| s.to_string()),
        &opts.solver.as_ref().map(|f| f.0.name()),
    )
}

/// The same arguments as a record holds them.
fn recorded(r: &VerifyReport) -> Vec<(&'static str, String)> {
    identity(
        r.tier.to_string(),
        r.master_seed,
        &r.seeds,
        r.t_max,
        (r.dim_x, r.dim_y),
        &r.filter,
        &r.control,
        &r.shard.map(|s| s.to_string()),
        &r.solver,
    )
}

#[allow(clippy::too_many_arguments)]
fn identity(
    tier: String,
    master_seed: u64,
    seeds: &[u32],
    t_max: u64,
    dims: (usize, usize),
    filter: &Option<String>,
    control: &Option<String>,
    shard: &Option<String>,
    solver: &Option<String>,
) -> Vec<(&'static str, String)> {
    let show = |v: &dyn std::fmt::Debug| format!("{v:?}");
    vec![
        ("--tier", tier),
        ("--seed", master_seed.to_string()),
        ("seeds", show(&seeds)),
        ("T_max", t_max.to_string()),
        ("dimensions", format!("{}x{}", dims.0, dims.1)),
        ("--cases", show(filter)),
        ("--control", show(control)),
        ("--shard", show(shard)),
        ("solver", show(solver)),
    ]
}

/// Refuses `record` (read from `input`) unless this build wrote it with the same tier, sizes,
/// seeds, `--cases`, `--control` and `--shard` as `opts` asks for (and, for the CLI, see
/// [`JobLog::read`], the same inputs).
pub fn check_record(input: &str, record: &VerifyReport, opts: &VerifyOptions) -> Result<()> {
    let build = record.build.to_string();
    crate::resume::check_arguments(input, &build, recorded(record), arguments(opts))
}

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

/// The jobs a verify run does not run again, and the journal where it records the ones it
/// finishes (shared by the worker threads and the hard-instance hook).
#[derive(Debug, Default)]
pub struct JobLog {
    jobs: BTreeMap<JobKey, JobRuns>,
    hard: BTreeMap<String, HardRun>,
    journal: Option<Journal>,
    /// The run's inputs ([`crate::fingerprint`]), written into its journal.
    inputs: Inputs,
}

impl JobLog {
    /// Nothing finished, no journal (a plain run, a merge).
    pub fn new() -> JobLog {
        JobLog::default()
    }

    /// The jobs of `opts` that `record` holds, and its finished hard runs.
    pub fn from_record(
        record: &VerifyReport,
        table: &[TheoremEntry],
        opts: &VerifyOptions,
    ) -> Result<JobLog> {
        let planned = super::plan::plan(table, opts)?;
        Ok(JobLog {
            jobs: super::shard::recorded_jobs(record, &planned.all),
            hard: record
                .hard_runs
                .iter()
                .map(|h| (h.entry.clone(), h.clone()))
                .collect(),
            journal: None,
            inputs: record.inputs.clone(),
        })
    }

    /// The finished jobs of a journal (checked against `opts`'s arguments and `inputs`).
    pub(crate) fn from_journal(
        input: &str,
        header: &Header,
        lines: Vec<Finished>,
        opts: &VerifyOptions,
        inputs: &Inputs,
    ) -> Result<JobLog> {
        header.check(input, "verify", &arguments(opts), inputs)?;
        let mut log = JobLog {
            inputs: inputs.clone(),
            ..JobLog::default()
        };
        for f in lines {
            match f {
                Finished::Job { key, runs } => {
                    log.jobs.insert(key, runs);
                }
                Finished::Hard(h) => {
                    log.hard.insert(h.entry.clone(), h);
                }
            }
        }
        Ok(log)
    }

    /// What `verify --resume DIR` reuses: the journal `DIR/verify.json.journal` if there is
    /// one, else the record `DIR/verify.json`; each must belong to this build, `opts` and
    /// inputs of the same content as `inputs`.
    pub fn read(
        dir: &Path,
        table: &[TheoremEntry],
        opts: &VerifyOptions,
        inputs: &Inputs,
    ) -> Result<JobLog> {
        let record = dir.join("verify.json");
        let journal = crate::journal::journal_path(&record);
        if let Some((header, lines)) = crate::journal::read::<Finished>(&journal)? {
            let name = journal.display().to_string();
            return JobLog::from_journal(&name, &header, lines, opts, inputs);
        }
        let name = record.display().to_string();
        let report = VerifyReport::parse(&name, &crate::files::read_text(&record)?)?;
        check_record(&name, &report, opts)?;
        report.inputs.check(&name, "--resume", inputs)?;
        JobLog::from_record(&report, table, opts)
    }

    /// The inputs of this run (those of the journal it writes).
    pub(crate) fn with_inputs(mut self, inputs: Inputs) -> JobLog {
        self.inputs = inputs;
        self
    }

    /// Starts the journal at `path` (every finished job is appended; synced every `every_s`
    /// seconds) with the jobs reused so far; `total` jobs in all.
    pub(crate) fn start_journal(
        &mut self,
        path: &Path,
        opts: &VerifyOptions,
        total: usize,
        every_s: f64,
    ) -> Result<()> {
        let arguments = arguments(opts)
            .into_iter()
            .map(|(n, v)| (n.to_string(), v))
            .collect();
        let carried: Vec<Finished> = self
            .jobs
            .iter()
            .map(|(key, runs)| Finished::Job {
                key: key.clone(),
                runs: runs.clone(),
            })
            .chain(self.hard.values().cloned().map(Finished::Hard))
            .collect();
        let header = Header::new("verify", arguments, self.inputs.clone(), total);
        self.journal = Some(Journal::create(path, &header, &carried, every_s)?);
        Ok(())
    }

    /// Removes the journal (the record has been written).
    pub fn finish(&self) {
        if let Some(j) = &self.journal {
            j.remove();
        }
    }

    /// The recorded runs of job `key`.
    pub(crate) fn job(&self, key: &JobKey) -> Option<&JobRuns> {
        self.jobs.get(key)
    }

    /// Job `key` finished with `runs`.
    pub(crate) fn job_done(&self, key: &JobKey, runs: &JobRuns) {
        if let Some(j) = &self.journal {
            j.append(&Finished::Job {
                key: key.clone(),
                runs: runs.clone(),
            });
        }
    }

    /// The recorded hard runs (carried into a report stopped before the hard instances).
    pub fn hard_runs(&self) -> Vec<HardRun> {
        self.hard.values().cloned().collect()
    }
}

impl HardLog for JobLog {
    fn hard(&self, entry: &str) -> Option<&HardRun> {
        self.hard.get(entry)
    }
    fn hard_done(&self, run: &HardRun) {
        if let Some(j) = &self.journal {
            j.append(&Finished::Hard(run.clone()));
        }
    }
}
