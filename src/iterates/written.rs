//! `export --write-iterates` on the one ledger of finished work ([`crate::ledger`], issue 35):
//! a job is one iterates file, journaled in `DIR/manifest.json.journal` with its content's hash
//! as soon as it is written. A first signal stops the export after the file in flight (exit
//! 128 + the signal; the journal is the record of the stopped export); SIGKILL keeps the
//! journal too. `export --resume DIR` of the same work writes only the files the journal does
//! not hold as they are, so it ends with the files of an uninterrupted export.
//!
//! ```
//! use saddlefw::iterates::written::{WriteIterates, Written};
//! use saddlefw::ledger::Journaled;
//! let w = Written { id: "job".into(), sha256: "sha256:00".into() };
//! assert_eq!((WriteIterates::COMMAND, WriteIterates::key(&w)), ("export", "job".to_string()));
//! ```

use super::manifest::Manifest;
use crate::ledger::{Journaled, Ledger};
use crate::resume::Identity;
use crate::Result;
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// One written iterates file: a line of the export's journal.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Written {
    /// The job's id in the manifest.
    pub id: String,
    /// `sha256:HEX` of the file as written ([`crate::fingerprint::sha256`]).
    pub sha256: String,
}

/// `export --write-iterates` as a [`Journaled`] command: a job is an iterates file.
#[derive(Debug)]
pub struct WriteIterates;

impl Journaled for WriteIterates {
    const COMMAND: &'static str = "export";
    type Key = String;
    type Result = Written;
    fn key(r: &Written) -> String {
        r.id.clone()
    }
}

/// The record of an export (its journal is `manifest.json.journal`).
pub fn record(dir: &Path) -> PathBuf {
    dir.join("manifest.json")
}

/// The job-defining arguments of an export as the manifest records them (`--control` is
/// this run's: the manifest does not record it).
fn arguments(
    tier: &str,
    cases: &Option<String>,
    hard: bool,
    confirmation: bool,
    control: &Option<String>,
) -> Vec<(&'static str, String)> {
    vec![
        ("--tier", tier.to_string()),
        ("--cases", format!("{cases:?}")),
        ("--no-hard", (!hard).to_string()),
        ("--confirmation-jobs", confirmation.to_string()),
        ("--control", format!("{control:?}")),
    ]
}

/// The work of `export --write-iterates` with these arguments.
pub fn identity(
    tier: &str,
    cases: &Option<String>,
    no_hard: bool,
    confirmation: bool,
    control: &Option<String>,
) -> Identity {
    // the manifest records confirmation jobs only with hard jobs
    let pairs = arguments(tier, cases, !no_hard, confirmation && !no_hard, control);
    Identity::current(pairs, Default::default())
}

/// What `export --resume DIR` reuses: the files `DIR/manifest.json.journal` holds, once its
/// work is `now`'s. Without a journal (an export complete, or stopped before its first file)
/// nothing is reused, and the manifest, if any, must be of the same tier, cases and hard jobs.
pub fn resume(now: Identity, dir: &Path) -> Result<Ledger<WriteIterates>> {
    let record = record(dir);
    if !record.exists() && !crate::journal::journal_path(&record).exists() {
        return Ok(Ledger::new(now));
    }
    let control = now
        .arguments
        .iter()
        .find(|(n, _)| n == "--control")
        .map(|(_, v)| v.clone())
        .unwrap_or_default();
    Ledger::resume(now, &record, |input, text| {
        let m = Manifest::parse(input, text)?;
        let mut pairs = arguments(&m.tier, &m.cases, m.hard, m.confirmation, &None);
        pairs.last_mut().expect("five arguments").1 = control;
        Ok((Identity::current(pairs, Default::default()), Vec::new()))
    })
}

/// Whether the file at `path` is the one `written` recorded (a file edited or removed since
/// is written again).
pub fn holds(path: &Path, written: &Written) -> bool {
    std::fs::read(path).is_ok_and(|b| crate::fingerprint::sha256(&b) == written.sha256)
}
