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

use super::check::{CheckShard, JobTallies};
use crate::verify::shard::Shard;
use crate::{Error, Result};
use serde::Deserialize;
use std::collections::BTreeMap;
use std::path::Path;

/// What `check --resume` reuses: the recorded tallies by job index (passed to
/// `run_check_resumed`; a check given one, even empty, also stops at the next job boundary on
/// a first signal).
#[derive(Debug, Clone, Default)]
pub struct Resume {
    /// The record's name (for errors).
    pub input: String,
    /// Tallies of the jobs already done.
    pub recorded: BTreeMap<usize, JobTallies>,
}

/// The fields of a CHECK.json that a resume checks and reuses.
#[derive(Debug, Deserialize)]
struct Record {
    #[serde(default)]
    build: crate::report::Build,
    cases: usize,
    seed: u64,
    #[serde(default)]
    control: Option<String>,
    shard: Option<CheckShard>,
}

impl Resume {
    /// Reads the CHECK.json at `path` (a directory means `DIR/CHECK.json`) and checks that
    /// this build wrote it for the same `--cases`, `--seed`, `--control` and `--shard`
    /// (`shard`: `None` for an unsharded run, recorded as 1/1).
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
        let whole = Shard { index: 1, count: 1 };
        let control_name = |c: Option<&str>| {
            c.map(|c| c.split(':').next().unwrap_or(c).to_string())
                .unwrap_or_else(|| "none".into())
        };
        crate::resume::check_identity(
            &input,
            &r.build.to_string(),
            &crate::report::Build::current().to_string(),
            &[
                ("--cases", r.cases.to_string(), cases.to_string()),
                ("--seed", r.seed.to_string(), seed.to_string()),
                (
                    "--control",
                    control_name(r.control.as_deref()),
                    control_name(control),
                ),
                (
                    "--shard",
                    part.shard.to_string(),
                    shard.unwrap_or(whole).to_string(),
                ),
            ],
        )?;
        let recorded = part.results.into_iter().map(|j| (j.job, j)).collect();
        Ok(Resume { input, recorded })
    }
}
