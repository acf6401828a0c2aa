//! `check --resume DIR|FILE` and interrupted checks ([`crate::ledger`]). An interrupted `check --out` writes its
//! completed jobs' tallies in the `shard` field (shard 1/1 for an unsharded run, the same form
//! `saddlefw merge` reads), and `interrupted` says how far it got. Resuming folds the recorded
//! tallies with the new jobs' in job order, exactly as an uninterrupted run folds them, so the
//! final CHECK.json equals the uninterrupted one.
//!
//! ```
//! use saddlefw::invariants::check::{run_check_resumed, CaseOptions};
//! use saddlefw::invariants::resume::{identity, read};
//! let shard = "1/40".parse().unwrap();
//! let r = run_check_resumed(2, 0, &CaseOptions::default(), 1, Some(shard), None).unwrap();
//! assert!(r.shard.is_some());
//! let dir = std::env::temp_dir().join(format!("saddlefw-doc-resume-{}", std::process::id()));
//! std::fs::create_dir_all(&dir).unwrap();
//! std::fs::write(dir.join("CHECK.json"), serde_json::to_string(&r).unwrap()).unwrap();
//! // the same arguments: its job is reused
//! let same = read(&dir, identity(2, 0, None, Some(shard))).unwrap();
//! assert_eq!(same.reused().len(), 1);
//! // another seed is other work
//! let e = read(&dir, identity(2, 1, None, Some(shard))).unwrap_err();
//! assert!(e.to_string().contains("recorded with --seed 0, this run has 1"), "{e}");
//! std::fs::remove_dir_all(&dir).unwrap();
//! ```

use super::tally::{CheckShard, JobTallies};
use crate::ledger::shard::Shard;
use crate::ledger::Ledger;
use crate::resume::Identity;
use crate::{Error, Result};
use serde::Deserialize;
use std::path::Path;

/// `check`'s jobs for the [`crate::ledger`]: a job's tallies, by job index. A check given a
/// ledger (`run_check_resumed`), even an empty one, also stops at the next job boundary on a
/// first signal.
#[derive(Debug)]
pub struct Check;

impl crate::ledger::Journaled for Check {
    const COMMAND: &'static str = "check";
    type Key = usize;
    type Result = JobTallies;
    fn key(t: &JobTallies) -> usize {
        t.job
    }
}

/// What `saddlefw merge` (`merge_shards`) and `check --resume` ([`read`]) read from a
/// CHECK.json (other fields are ignored).
#[derive(Debug, Deserialize)]
pub(crate) struct ShardFile {
    #[serde(default)]
    pub build: crate::build_info::Build,
    pub cases: usize,
    pub seed: u64,
    #[serde(default)]
    pub control: Option<String>,
    #[serde(default)]
    pub horizon: usize,
    pub shard: Option<CheckShard>,
    #[serde(default)]
    pub interrupted: Option<crate::resume::Interruption>,
}

/// The job-defining arguments of a check: `--cases`, `--seed`, `--control` (its name) and
/// `--shard` (1/1 when unsharded).
pub(crate) fn arguments(
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

/// The work of `check` with `--cases`, `--seed`, `--control` and `--shard` (`None` for an
/// unsharded run, recorded as 1/1).
pub fn identity(cases: usize, seed: u64, control: Option<&str>, shard: Option<Shard>) -> Identity {
    Identity::current(arguments(cases, seed, control, shard), Default::default())
}

/// What `check --resume PATH` reuses for the work `now` ([`identity`]): the journal of the
/// record (`CHECK.json.journal`, a killed run) when there is one, else the tallies of the
/// CHECK.json at `path` (a directory means `DIR/CHECK.json`), of the same build and arguments.
pub fn read(path: &Path, now: Identity) -> Result<Ledger<Check>> {
    let path = if path.is_dir() {
        path.join("CHECK.json")
    } else {
        path.to_path_buf()
    };
    Ledger::resume(now, &path, |input, text| {
        let r: ShardFile = crate::files::parse_json(input, text, crate::files::JsonTop::Object)?;
        let part = r.shard.ok_or_else(|| {
            Error::input(
                input,
                "--resume",
                "holds no per-job results (a complete, unsharded report): nothing to resume",
            )
        })?;
        let was = arguments(r.cases, r.seed, r.control.as_deref(), Some(part.shard));
        let was = Identity::recorded(&r.build, was, Default::default());
        Ok((was, part.results))
    })
}
