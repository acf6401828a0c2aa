//! Shards of `saddlefw check`: what a shard's CHECK.json keeps of its jobs ([`CheckShard`]) and
//! their merge into the report of the unsharded run ([`merge_shards`]).

use super::case::DEFAULT_HORIZON;
use super::check_report::{assemble, CheckReport};
use super::registry;
use super::resume::ShardFile;
use super::tally::CaseResult;
use crate::ledger::shard::{gather, Part};
use crate::resume::Identity;
use crate::{Error, Result};

/// Merges the CHECK.json outputs of shards `1..=N` of one `saddlefw check --shard I/N` run
/// (`(name, text)` pairs, the name used in errors) into the report of the unsharded run:
/// byte-identical JSON, because the jobs' tallies are folded in job order as a single
/// machine folds them. Missing, duplicate or mismatched shards are refused
/// ([`crate::ledger::shard::gather`]).
pub fn merge_shards(inputs: &[(String, String)]) -> Result<CheckReport> {
    let reg = registry();
    let witnesses = super::witness::witness_cases()?.len();
    let mut parts = Vec::new();
    let mut first = None;
    for (name, text) in inputs {
        let f: ShardFile = crate::files::parse_json(name, text, crate::files::JsonTop::Object)?;
        let part = f.shard.ok_or_else(|| {
            Error::input(
                name,
                "shard",
                "not a shard output (no \"shard\" field): run `saddlefw check --shard I/N`",
            )
        })?;
        // the job list of this check: its length follows from --cases (never from a file)
        if part.jobs != job_count(f.cases, witnesses) || f.horizon != DEFAULT_HORIZON {
            return Err(Error::input(
                name,
                "settings",
                format!("shard {} was run with other settings ({} jobs, horizon {}) than this build's check of {} cases", part.shard, part.jobs, f.horizon, f.cases),
            ));
        }
        first.get_or_insert((f.cases, f.seed));
        let arguments = super::resume::arguments(f.cases, f.seed, f.control.as_deref(), None);
        let mut results = Vec::new();
        for jt in part.results {
            results.push((jt.job, jt.into_result(&reg, name)?));
        }
        parts.push(Part {
            name: name.clone(),
            shard: part.shard,
            identity: Identity::recorded(&f.build, arguments, Default::default()),
            interrupted: f.interrupted,
            results,
        });
    }
    let (cases, seed) = first.ok_or_else(|| Error::invalid("merge", "no shard outputs given"))?;
    let total = job_count(cases, witnesses);
    let results = gather(
        "check",
        parts,
        |(job, _)| *job,
        |&job| (job < total).then_some(job),
        0..total,
        |job| format!("job {job}"),
    )?;
    let done: Vec<(usize, CaseResult)> = results.into_values().collect();
    Ok(assemble(cases, seed, &reg, &done))
}

/// The job list of a check: the random cases `0..cases`, then the witness instances. A job's
/// position in this list is its index; `check --shard I/N` takes the positions `p` with
/// `p mod N = I - 1` ([`crate::ledger::shard::Shard::takes`]).
pub(crate) fn job_count(cases: usize, witnesses: usize) -> usize {
    cases.saturating_add(witnesses)
}
