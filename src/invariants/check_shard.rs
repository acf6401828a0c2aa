//! Shards of `saddlefw check`: what a shard's CHECK.json keeps of its jobs ([`CheckShard`]) and
//! their merge into the report of the unsharded run ([`merge_shards`]).

use super::case::DEFAULT_HORIZON;
use super::check_report::{assemble, CheckReport};
use super::registry;
use super::tally::{CaseResult, CheckShard};
use crate::verify::shard::Shard;
use crate::{Error, Result};
use serde::Deserialize;

/// What [`merge_shards`] reads from a shard's CHECK.json (other fields are ignored).
#[derive(Debug, Deserialize)]
struct ShardFile {
    #[serde(default)]
    build: crate::build_info::Build,
    cases: usize,
    seed: u64,
    horizon: usize,
    shard: Option<CheckShard>,
    #[serde(default)]
    interrupted: Option<crate::resume::Interruption>,
}

/// Merges the CHECK.json outputs of shards `1..=N` of one `saddlefw check --shard I/N` run
/// (`(name, text)` pairs, the name used in errors) into the report of the unsharded run:
/// byte-identical JSON, because the jobs' tallies are folded in job order as a single
/// machine folds them. Missing, duplicate or mismatched shards are refused.
pub fn merge_shards(inputs: &[(String, String)]) -> Result<CheckReport> {
    let reg = registry();
    let mut parsed = Vec::new();
    for (name, text) in inputs {
        let f: ShardFile = crate::files::parse_json(name, text, crate::files::JsonTop::Object)?;
        let part = f.shard.clone().ok_or_else(|| {
            Error::input(
                name,
                "shard",
                "not a shard output (no \"shard\" field): run `saddlefw check --shard I/N`",
            )
        })?;
        if let Some(i) = &f.interrupted {
            return Err(Error::input(
                name,
                "interrupted",
                format!("shard {} stopped by {} after {} of {} jobs: finish it with `saddlefw check --resume` first", part.shard, i.signal, i.done, i.total),
            ));
        }
        parsed.push((name.as_str(), f, part));
    }
    let (_, first, _) = parsed
        .first()
        .ok_or_else(|| Error::invalid("merge", "no shard outputs given"))?;
    let labels: Vec<Shard> = parsed.iter().map(|(_, _, part)| part.shard).collect();
    crate::verify::shard::check_labels(&labels)?;
    let (cases, seed) = (first.cases, first.seed);
    // the job list of this check: its length follows from --cases (never trusted from a file)
    let total = job_count(cases, super::witness::witness_cases()?.len());
    let mut results: std::collections::BTreeMap<usize, CaseResult> = Default::default();
    for &(name, ref f, ref part) in &parsed {
        let s = part.shard;
        if f.build != first.build {
            return Err(Error::input(
                name,
                "build",
                format!(
                    "shard {s} was written by another build ({}) than the first ({})",
                    f.build, first.build
                ),
            ));
        }
        if f.cases != cases || f.seed != seed || f.horizon != DEFAULT_HORIZON || part.jobs != total
        {
            return Err(Error::input(
                name,
                "cases/seed",
                format!("shard {s} was run with other settings ({} cases, seed {}) than the first ({cases} cases, seed {seed})", f.cases, f.seed),
            ));
        }
        for jt in &part.results {
            let job = jt.job;
            if job >= total || !s.takes(job) || results.contains_key(&job) {
                return Err(Error::input(
                    name,
                    format!("job {job}"),
                    format!("not a job of shard {s}"),
                ));
            }
            results.insert(job, jt.clone().into_result(&reg, name)?);
        }
    }
    if results.len() != total {
        let p = (0..total).find(|p| !results.contains_key(p)).unwrap_or(0);
        return Err(Error::invalid(
            "merge",
            format!("job {p} is in no shard output (a truncated file?)"),
        ));
    }
    let done: Vec<(usize, CaseResult)> = results.into_iter().collect();
    Ok(assemble(cases, seed, &reg, &done))
}

/// The job list of a check: the random cases `0..cases`, then the witness instances. A job's
/// position in this list is its index; `check --shard I/N` takes the positions `p` with
/// `p mod N = I - 1` ([`crate::verify::shard::Shard::takes`]).
pub(crate) fn job_count(cases: usize, witnesses: usize) -> usize {
    cases.saturating_add(witnesses)
}
