//! Scale-out: `verify --shard I/N` runs a deterministic part of the job list, and
//! [`merge`] combines the shard outputs into the report a single machine would have written.
//!
//! The job list is `(case, family, seed index)` sorted by that key, so it is the same on every
//! machine; shard `I` of `N` takes the jobs at positions `p` with `p mod N = I - 1`. A shard's
//! `verify.json` is an ordinary report whose `shard` field is set: its per-entry verdicts use
//! only that shard's runs and are not gates (a shard exits 0). [`merge`] collects every run of
//! every entry from all `N` shards (each index exactly once), re-judges each entry on the
//! complete set of runs and returns a report equal to the unsharded one apart from timings.
//!
//! With a cluster's batch scheduler (Slurm array jobs, or any batch system):
//! ```text
//! saddlefw verify --tier full --shard $((SLURM_ARRAY_TASK_ID+1))/3 --out shards/$SLURM_ARRAY_TASK_ID
//! saddlefw merge shards/0 shards/1 shards/2 --out reports/verify
//! ```
//!
//! The rules of the merge are those of every command ([`crate::ledger::shard`]); this module
//! says what a verify shard's results are: the run of an entry on a family and seed.
//!
//! ```
//! use saddlefw::verify::shard::{select, Shard};
//! let s: Shard = "2/3".parse().unwrap();
//! assert_eq!(select((0..7).collect(), Some(s)), vec![1, 4]);
//! ```

use super::{judge_entry, InstanceRun, VerifyOptions, VerifyReport};
pub use crate::ledger::shard::{check_labels, select, Shard};
use crate::ledger::shard::{gather, Part};
use crate::theorems::TheoremEntry;
use crate::{Error, Result};
use std::collections::BTreeMap;

/// Merges the outputs of shards `1..=N` of one verify run into the unsharded report.
/// `opts` supplies the baselines and the gate flags (tier and control come from the shards
/// and must agree with each other).
pub fn merge(shards: Vec<VerifyReport>, opts: &VerifyOptions) -> Result<VerifyReport> {
    merge_table(shards, &crate::theorems::builtin(), opts)
}

/// [`merge`] of shards of a run of `table` (a user's theorem file, `verify --theorems`).
pub(crate) fn merge_table(
    shards: Vec<VerifyReport>,
    table: &[TheoremEntry],
    opts: &VerifyOptions,
) -> Result<VerifyReport> {
    let Some(first) = shards.first() else {
        return Err(Error::invalid("merge", "no shard outputs given"));
    };
    let cfg = super::TierConfig {
        seeds: first.seeds.len() as u32,
        t_max: first.t_max,
        dim_x: first.dim_x,
        dim_y: first.dim_y,
    };
    let mut opts = opts.clone();
    opts.tier = first.tier;
    opts.filter = first.filter.clone();
    opts.control = match &first.control {
        Some(c) => Some(
            c.parse()
                .map_err(|e: Error| Error::invalid("merge", e.to_string()))?,
        ),
        None => None,
    };
    let (seeds, inputs) = (first.seeds.clone(), first.inputs.clone());
    let wall = shards.iter().map(|r| r.wall_time_s).fold(0.0, f64::max);
    let selected: Vec<&TheoremEntry> = table
        .iter()
        .filter(|e| opts.filter.as_deref().map_or(true, |f| e.id.contains(f)))
        .collect();
    let runs = gather_runs(shards, &selected, &cfg)?;
    let mut entries = Vec::new();
    for e in &selected {
        let r = runs.get(&e.id).cloned().unwrap_or_default();
        entries.push(judge_entry(e, r, &opts)?);
    }
    // the stored hardest instances run once, here (shards skip them)
    if let Some(gates) = &opts.hard {
        let log = super::hard::NoLog;
        if gates.0.attach(&selected, &mut entries, &opts, &log)? != super::hard::Attached::Done {
            return Err(Error::invalid(
                "merge",
                "stopped by a signal while running the hard instances",
            ));
        }
    }
    super::annotate(&selected, &mut entries, opts.gate_baselines);
    let mut merged = super::assemble(
        opts.tier, seeds, cfg.t_max, cfg.dim_x, cfg.dim_y, &opts, entries, wall,
    );
    merged.shard = None;
    merged.inputs = inputs;
    Ok(merged)
}

/// The runs of every selected entry by entry id, in (family, seed) order, from the shards
/// ([`gather`]: a shard file that was edited, truncated or mislabelled is refused instead of
/// merged into a report with other data).
fn gather_runs(
    shards: Vec<VerifyReport>,
    selected: &[&TheoremEntry],
    cfg: &super::TierConfig,
) -> Result<BTreeMap<String, Vec<InstanceRun>>> {
    let mut parts = Vec::new();
    for r in shards {
        let shard = r.shard.ok_or_else(|| {
            Error::invalid(
                "merge",
                "an input is not a shard output (no \"shard\" field)",
            )
        })?;
        let identity = super::work::recorded_identity(&r);
        let results: Vec<(String, InstanceRun)> = r
            .entries
            .into_iter()
            .flat_map(|e| e.instances.into_iter().map(move |run| (e.id.clone(), run)))
            .collect();
        parts.push(Part {
            name: format!("shard {shard}"),
            shard,
            identity,
            interrupted: r.interrupted,
            results,
        });
    }
    let position: BTreeMap<JobKey, usize> = super::job_keys(selected, cfg)
        .into_iter()
        .enumerate()
        .map(|(p, k)| (k, p))
        .collect();
    let case: BTreeMap<&str, &str> = selected
        .iter()
        .map(|e| (e.id.as_str(), e.case.as_str()))
        .collect();
    let expected = selected.iter().flat_map(|e| {
        super::families_for(e, cfg)
            .into_iter()
            .flat_map(move |f| (0..cfg.seeds).map(move |i| (e.id.clone(), f.label(), i)))
    });
    let runs = gather(
        "verify",
        parts,
        |(id, run)| (id.clone(), run.family.clone(), run.seed_index),
        |(id, family, seed)| {
            let case = case.get(id.as_str())?.to_string();
            position.get(&(case, family.clone(), *seed)).copied()
        },
        expected,
        |(id, family, seed)| format!("{id}: family {family} seed {seed}"),
    )?;
    let mut by_entry: BTreeMap<String, Vec<InstanceRun>> = BTreeMap::new();
    for ((id, _, _), (_, run)) in runs {
        by_entry.entry(id).or_default().push(run);
    }
    Ok(by_entry)
}

// Jobs recorded in a report (`verify --resume`): jobs are independent, so a job's recorded
// runs stand for running it again.

/// A job's key in the sorted job list: (case, family label, seed index).
pub(crate) type JobKey = (String, String, u32);

/// What a job produces: the run of each entry it serves.
pub(crate) type JobRuns = Vec<(String, super::InstanceRun)>;

/// The jobs of `jobs` whose runs `record` holds for every entry they serve.
pub(super) fn recorded_jobs(
    record: &VerifyReport,
    jobs: &BTreeMap<JobKey, super::Job>,
) -> BTreeMap<JobKey, JobRuns> {
    let mut runs: BTreeMap<(&str, &str, u32), &super::InstanceRun> = BTreeMap::new();
    for e in &record.entries {
        for r in &e.instances {
            runs.insert((e.id.as_str(), r.family.as_str(), r.seed_index), r);
        }
    }
    let mut out = BTreeMap::new();
    for (key, job) in jobs {
        let found: Option<JobRuns> = job
            .entries
            .iter()
            .map(|e| {
                runs.get(&(e.id.as_str(), key.1.as_str(), key.2))
                    .map(|r| (e.id.clone(), (*r).clone()))
            })
            .collect();
        if let Some(found) = found {
            out.insert(key.clone(), found);
        }
    }
    out
}
