//! `check --resume DIR|FILE` and interrupted checks. An interrupted `check --out` writes its
//! completed jobs' tallies in the `shard` field (shard 1/1 for an unsharded run, the same form
//! `saddlefw merge` reads), and `interrupted` says how far it got. Resuming folds the recorded
//! tallies with the new jobs' in job order, exactly as an uninterrupted run folds them, so the
//! final CHECK.json equals the uninterrupted one.
//!
//! ```
//! use saddlefw::invariants::check::{run_check_resumed, CaseOptions};
//! use saddlefw::invariants::resume::Resume;
//! let shard = "1/40".parse().unwrap();
//! let r = run_check_resumed(2, 0, &CaseOptions::default(), 1, Some(shard), None).unwrap();
//! assert!(r.shard.is_some());
//! let dir = std::env::temp_dir().join(format!("saddlefw-doc-resume-{}", std::process::id()));
//! std::fs::create_dir_all(&dir).unwrap();
//! std::fs::write(dir.join("CHECK.json"), serde_json::to_string(&r).unwrap()).unwrap();
//! // the same arguments: its job is reused
//! let same = Resume::read(&dir, 2, 0, None, Some(shard)).unwrap();
//! assert_eq!(same.recorded.len(), 1);
//! // another seed is other work
//! let e = Resume::read(&dir, 2, 1, None, Some(shard)).unwrap_err();
//! assert!(e.to_string().contains("recorded with --seed 0, this run has 1"), "{e}");
//! std::fs::remove_dir_all(&dir).unwrap();
//! ```

use super::check::{CheckShard, JobTallies, Recorded};
use crate::journal::Journal;
use crate::verify::shard::Shard;
use crate::{Error, Result};
use serde::Deserialize;
use std::collections::BTreeMap;
use std::path::Path;

/// What `check --resume` reuses: the recorded tallies by job index (passed to
/// `run_check_resumed`; a check given one, even empty, also stops at the next job boundary on
/// a first signal), and the journal where finished jobs are appended
/// ([`crate::journal`], `CHECK.json.journal`).
#[derive(Debug, Default)]
pub struct Resume {
    /// The record's name (for errors).
    pub input: String,
    /// Tallies of the jobs already done.
    pub recorded: BTreeMap<usize, JobTallies>,
    journal: Option<Journal>,
}

/// The fields of a CHECK.json that a resume checks and reuses.
#[derive(Debug, Deserialize)]
struct Record {
    #[serde(default)]
    build: crate::build_info::Build,
    cases: usize,
    seed: u64,
    #[serde(default)]
    control: Option<String>,
    shard: Option<CheckShard>,
}

/// The job-defining arguments of a check: `--cases`, `--seed`, `--control` (its name) and
/// `--shard` (1/1 when unsharded).
fn arguments(
    cases: usize,
    seed: u64,
    control: Option<&str>,
    shard: Option<Shard>,
) -> Vec<(&'static str, String)> {
    let control = control
        .map(|c| c.split(':').next().unwrap_or(c).to_string())
        .unwrap_or_else(|| "none".into());
    vec![
        ("--cases", cases.to_string()),
        ("--seed", seed.to_string()),
        ("--control", control),
        (
            "--shard",
            shard.unwrap_or(Shard { index: 1, count: 1 }).to_string(),
        ),
    ]
}

impl Resume {
    /// Reads what `check --resume PATH` reuses: the journal of the record (`CHECK.json.journal`,
    /// a killed run) when there is one, else the CHECK.json at `path` (a directory means
    /// `DIR/CHECK.json`); either must come from this build and the same `--cases`, `--seed`,
    /// `--control` and `--shard` (`shard`: `None` for an unsharded run, recorded as 1/1).
    pub fn read(
        path: &Path,
        cases: usize,
        seed: u64,
        control: Option<&str>,
        shard: Option<Shard>,
    ) -> Result<Resume> {
        let path = if path.is_dir() {
            path.join("CHECK.json")
        } else {
            path.to_path_buf()
        };
        let now = arguments(cases, seed, control, shard);
        let journal = crate::journal::journal_path(&path);
        if let Some((header, jobs)) = crate::journal::read::<JobTallies>(&journal)? {
            let input = journal.display().to_string();
            header.check(&input, "check", &now, &Default::default())?;
            let recorded = jobs.into_iter().map(|j| (j.job, j)).collect();
            return Ok(Resume {
                input,
                recorded,
                journal: None,
            });
        }
        let input = path.display().to_string();
        let text = crate::files::read_text(&path)?;
        let r: Record = crate::files::parse_json(&input, &text, crate::files::JsonTop::Object)?;
        let part = r.shard.ok_or_else(|| {
            Error::input(
                &input,
                "--resume",
                "holds no per-job results (a complete, unsharded report): nothing to resume",
            )
        })?;
        let was = arguments(r.cases, r.seed, r.control.as_deref(), Some(part.shard));
        crate::resume::check_arguments(&input, &r.build.to_string(), was, now)?;
        let recorded = part.results.into_iter().map(|j| (j.job, j)).collect();
        Ok(Resume {
            input,
            recorded,
            journal: None,
        })
    }

    /// Starts the journal at `path` (every finished job is appended; synced every `every_s`
    /// seconds) with the recorded jobs; `total` jobs in all.
    pub(crate) fn start_journal(
        &mut self,
        path: &Path,
        (cases, seed, control, shard): (usize, u64, Option<&str>, Option<Shard>),
        total: usize,
        every_s: f64,
    ) -> Result<()> {
        let arguments = arguments(cases, seed, control, shard)
            .into_iter()
            .map(|(n, v)| (n.to_string(), v))
            .collect();
        let header = crate::journal::Header::new("check", arguments, Default::default(), total);
        let carried: Vec<&JobTallies> = self.recorded.values().collect();
        self.journal = Some(Journal::create(path, &header, &carried, every_s)?);
        Ok(())
    }

    /// Removes the journal (the record has been written).
    pub fn finish(&self) {
        if let Some(j) = &self.journal {
            j.remove();
        }
    }
}

impl Recorded for Resume {
    fn input(&self) -> &str {
        &self.input
    }
    fn recorded(&self, job: usize) -> Option<&JobTallies> {
        self.recorded.get(&job)
    }
    fn journaling(&self) -> bool {
        self.journal.is_some()
    }
    fn finished(&self, tallies: JobTallies) {
        if let Some(j) = &self.journal {
            j.append(&tallies);
        }
    }
}
