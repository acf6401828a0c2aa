//! The one mechanism for the finished work of a long command (issue 35): `verify` (with
//! `--theorems FILE` and `--hard DIR` too), `check`, `experiment`, `tighten` and `export
//! --write-iterates` ([`crate::iterates::written`]) each declare
//! only what a job is ([`Journaled`]: its key and its result) and what defines their work
//! ([`crate::resume::Identity`]: the build, the job-defining arguments, the inputs' content).
//! A [`Ledger`] does the rest, the same way for every command:
//!
//! * `--resume DIR` ([`Ledger::resume`]): the results of the record's journal
//!   ([`crate::journal`], a run killed by SIGKILL) when there is one, else those of the record
//!   (a run stopped by a first signal, or a complete one), once the work they were made for is
//!   this run's ([`crate::resume::Identity::accept`]: otherwise exit 2 naming the difference);
//! * the journal ([`Ledger::start_journal`]): every job that finishes is appended
//!   ([`Ledger::done`]), the reused ones first; it is removed once the record is written
//!   ([`Ledger::finish`]);
//! * a job whose result the ledger holds ([`Ledger::get`]) is not run again, so the final
//!   record equals an uninterrupted run's apart from timings;
//! * `merge` takes the results of a run's shards by the same rules for every command
//!   ([`shard::gather`]).
//!
//! ```
//! use saddlefw::ledger::{Journaled, Ledger};
//! use saddlefw::resume::Identity;
//! #[derive(Debug)]
//! struct Squares;
//! impl Journaled for Squares {
//!     const COMMAND: &'static str = "squares";
//!     type Key = u32;
//!     type Result = (u32, u64);
//!     fn key(r: &(u32, u64)) -> u32 { r.0 }
//! }
//! let dir = std::env::temp_dir().join(format!("saddlefw-doc-ledger-{}", std::process::id()));
//! let record = dir.join("squares.json");
//! let work = || Identity::current(vec![("--n", "3".into())], Default::default());
//! let mut first = Ledger::<Squares>::new(work());
//! first.start_journal(&record, 3, 60.0).unwrap();
//! first.done(&(1, 1)); // then SIGKILL: no record, the journal holds job 1
//! // a run of the same work reuses job 1 (the record is not read: the journal is there)
//! let read = |_: &str, _: &str| -> saddlefw::Result<_> { unreachable!() };
//! let again = Ledger::<Squares>::resume(work(), &record, read).unwrap();
//! assert_eq!(again.get(&1), Some(&(1, 1)));
//! assert!(again.get(&2).is_none());
//! // other work is refused, naming the journal and the difference
//! let other = Identity::current(vec![("--n", "4".into())], Default::default());
//! let e = Ledger::<Squares>::resume(other, &record, read).unwrap_err().to_string();
//! assert!(e.contains("squares.json.journal") && e.contains("recorded with --n 3, this run has 4"), "{e}");
//! again.finish();
//! std::fs::remove_dir_all(&dir).unwrap();
//! ```

pub mod shard;

use crate::journal::{journal_path, Header, Journal};
use crate::resume::Identity;
use crate::Result;
use serde::de::DeserializeOwned;
use serde::Serialize;
use std::collections::BTreeMap;
use std::path::Path;

/// What a long command declares about its jobs; the rest is [`Ledger`]'s.
pub trait Journaled {
    /// The command's name in a journal's header (`verify`, `check`, ...).
    const COMMAND: &'static str;
    /// What names a job in the command's job list.
    type Key: Ord + Clone + Send + Sync;
    /// What a finished job gives: one line of the journal.
    type Result: Clone + Serialize + DeserializeOwned + Send + Sync;
    /// The job `result` is the result of.
    fn key(result: &Self::Result) -> Self::Key;
}

/// The finished jobs of one run of a [`Journaled`] command: reused ones, and the journal where
/// the others are recorded as they finish (shared by worker threads).
#[derive(Debug)]
pub struct Ledger<J: Journaled> {
    /// The work of this run.
    identity: Identity,
    /// Where the reused results come from (a journal or a record; empty without).
    input: String,
    done: BTreeMap<J::Key, J::Result>,
    journal: Option<Journal>,
}

impl<J: Journaled> Ledger<J> {
    /// The work `identity` with nothing finished and no journal.
    pub fn new(identity: Identity) -> Self {
        Ledger {
            identity,
            input: String::new(),
            done: BTreeMap::new(),
            journal: None,
        }
    }

    /// Reuses `results`, read from `input` (a record or journal of the work `was`), unless
    /// `was` is other work than this run's.
    pub fn reuse(
        mut self,
        input: &str,
        was: &Identity,
        results: impl IntoIterator<Item = J::Result>,
    ) -> Result<Self> {
        self.identity.accept(input, was)?;
        self.input = input.to_string();
        self.done
            .extend(results.into_iter().map(|r| (J::key(&r), r)));
        Ok(self)
    }

    /// What `--resume` reuses for the record at `record`: the results of its journal when
    /// there is one, else those `read_record(name, text)` finds in the record (with the work
    /// the record says it did); either must be this run's work.
    pub fn resume(
        identity: Identity,
        record: &Path,
        read_record: impl FnOnce(&str, &str) -> Result<(Identity, Vec<J::Result>)>,
    ) -> Result<Self> {
        let ledger = Ledger::new(identity);
        let journal = journal_path(record);
        if let Some((header, results)) = crate::journal::read::<J::Result>(&journal)? {
            let input = journal.display().to_string();
            header.check_command(&input, J::COMMAND)?;
            return ledger.reuse(&input, &header.identity(), results);
        }
        let input = record.display().to_string();
        let (was, results) = read_record(&input, &crate::files::read_text(record)?)?;
        ledger.reuse(&input, &was, results)
    }

    /// Starts the journal of the record `record` (`RECORD.journal`; `total` jobs in all,
    /// synced every `every_s` seconds) with the results reused so far.
    pub fn start_journal(&mut self, record: &Path, total: usize, every_s: f64) -> Result<()> {
        let header = Header::new(
            J::COMMAND,
            self.identity.arguments.clone(),
            self.identity.inputs.clone(),
            total,
        );
        let carried: Vec<&J::Result> = self.done.values().collect();
        self.journal = Some(Journal::create(
            &journal_path(record),
            &header,
            &carried,
            every_s,
        )?);
        Ok(())
    }

    /// The reused result of job `key`.
    pub fn get(&self, key: &J::Key) -> Option<&J::Result> {
        self.done.get(key)
    }

    /// The reused results by key.
    pub fn reused(&self) -> &BTreeMap<J::Key, J::Result> {
        &self.done
    }

    /// A job finished with `result`: appended to the journal, if one was started.
    pub fn done(&self, result: &J::Result) {
        if let Some(j) = &self.journal {
            j.append(result);
        }
    }

    /// Whether finished jobs are journaled.
    pub fn journaling(&self) -> bool {
        self.journal.is_some()
    }

    /// Removes the journal (the record has been written).
    pub fn finish(&self) {
        if let Some(j) = &self.journal {
            j.remove();
        }
    }

    /// Where the reused results come from (for errors).
    pub fn input(&self) -> &str {
        &self.input
    }

    /// The work of this run.
    pub fn identity(&self) -> &Identity {
        &self.identity
    }
}
