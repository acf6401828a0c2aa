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
//! ```
//! use saddlefw::verify::shard::Shard;
//! let s: Shard = "2/3".parse().unwrap();
//! assert_eq!((s.index, s.count), (2, 3));
//! assert!(s.takes(1) && !s.takes(0) && s.takes(4));
//! assert!("0/3".parse::<Shard>().is_err() && "4/3".parse::<Shard>().is_err());
//! ```

use super::{judge_entry, VerifyOptions, VerifyReport};
use crate::{Error, Result};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fmt;
use std::str::FromStr;

/// Shard `index` (1-based) of `count`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Shard {
    pub index: usize,
    pub count: usize,
}

impl Shard {
    /// Whether the job at `position` of the sorted job list belongs to this shard.
    pub fn takes(&self, position: usize) -> bool {
        position % self.count == self.index - 1
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

impl FromStr for Shard {
    type Err = Error;
    fn from_str(s: &str) -> Result<Self> {
        let bad = |why: &str| {
            Error::invalid(
                "--shard",
                format!("{s:?}: {why} (expected I/N with 1 <= I <= N)"),
            )
        };
        let (i, n) = s.split_once('/').ok_or_else(|| bad("no '/'"))?;
        let index: usize = i
            .trim()
            .parse()
            .map_err(|_| bad("I is not a whole number"))?;
        let count: usize = n
            .trim()
            .parse()
            .map_err(|_| bad("N is not a whole number"))?;
        if count == 0 || index == 0 || index > count {
            return Err(bad("out of range"));
        }
        Ok(Shard { index, count })
    }
}

/// Keeps the items of a sorted job list that belong to `shard` (all of them for `None`).
pub fn select<T>(jobs: Vec<T>, shard: Option<Shard>) -> Vec<T> {
    match shard {
        None => jobs,
        Some(s) => jobs
            .into_iter()
            .enumerate()
            .filter(|(p, _)| s.takes(*p))
            .map(|(_, j)| j)
            .collect(),
    }
}

/// Merges the outputs of shards `1..=N` of one verify run into the unsharded report.
/// `opts` supplies the baselines and the gate flags (tier and control come from the shards
/// and must agree with each other).
pub fn merge(shards: Vec<VerifyReport>, opts: &VerifyOptions) -> Result<VerifyReport> {
    let first = shards
        .first()
        .ok_or_else(|| Error::invalid("merge", "no shard outputs given"))?;
    let count = first
        .shard
        .ok_or_else(|| {
            Error::invalid(
                "merge",
                "the first input is not a shard output (no \"shard\" field)",
            )
        })?
        .count;
    let mut seen = vec![false; count];
    for r in &shards {
        let s = r.shard.ok_or_else(|| {
            Error::invalid(
                "merge",
                "an input is not a shard output (no \"shard\" field)",
            )
        })?;
        if s.count != count {
            return Err(Error::invalid(
                "merge",
                format!("shard {s} does not belong to a split into {count}"),
            ));
        }
        if seen[s.index - 1] {
            return Err(Error::invalid("merge", format!("shard {s} given twice")));
        }
        seen[s.index - 1] = true;
        let same = r.tier == first.tier
            && r.t_max == first.t_max
            && r.dim_x == first.dim_x
            && r.dim_y == first.dim_y
            && r.seeds == first.seeds
            && r.control == first.control
            && r.filter == first.filter;
        if !same {
            return Err(Error::invalid(
                "merge",
                format!("shard {s} was run with other settings (tier, sizes, seeds, control or --cases differ)"),
            ));
        }
    }
    if let Some(missing) = seen.iter().position(|s| !s) {
        return Err(Error::invalid(
            "merge",
            format!("shard {}/{count} is missing", missing + 1),
        ));
    }
    let table = crate::theorems::builtin();
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
    let mut runs: BTreeMap<String, Vec<super::InstanceRun>> = BTreeMap::new();
    let mut wall = 0.0f64;
    for r in &shards {
        wall = wall.max(r.wall_time_s);
        for e in &r.entries {
            runs.entry(e.id.clone())
                .or_default()
                .extend(e.instances.iter().cloned());
        }
    }
    let selected: Vec<&crate::theorems::TheoremEntry> = table
        .iter()
        .filter(|e| opts.filter.as_deref().map_or(true, |f| e.id.contains(f)))
        .collect();
    let mut entries = Vec::new();
    for e in &selected {
        let mut r = runs.remove(&e.id).unwrap_or_default();
        r.sort_by(|a, b| (&a.family, a.seed_index).cmp(&(&b.family, b.seed_index)));
        entries.push(judge_entry(e, r, &opts)?);
    }
    // the stored hardest instances run once, here (shards skip them)
    if let Some(dir) = &opts.hard {
        crate::tightness::attach(&selected, &mut entries, dir, &opts)?;
    }
    let mut merged = super::assemble(
        first.tier,
        first.seeds.clone(),
        first.t_max,
        first.dim_x,
        first.dim_y,
        &opts,
        entries,
        wall,
    );
    merged.shard = None;
    Ok(merged)
}
