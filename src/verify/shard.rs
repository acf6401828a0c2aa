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

/// Checks the labels of a set of shard outputs (of verify or check): all of one split into N
/// (the first label's), each index in `1..=N` exactly once. Returns N. The labels come from
/// files, so N is never used to allocate.
pub fn check_labels(labels: &[Shard]) -> Result<usize> {
    let count = labels
        .first()
        .ok_or_else(|| Error::invalid("merge", "no shard outputs given"))?
        .count;
    let mut seen = std::collections::BTreeSet::new();
    for s in labels {
        if s.count != count || s.index == 0 || s.index > s.count {
            return Err(Error::invalid(
                "merge",
                format!("shard {s} does not belong to a split into {count}"),
            ));
        }
        if !seen.insert(s.index) {
            return Err(Error::invalid("merge", format!("shard {s} given twice")));
        }
    }
    if seen.len() != count {
        // the first index not given (at most labels.len() + 1 candidates)
        let missing = (1..=count).find(|i| !seen.contains(i)).unwrap_or(count);
        return Err(Error::invalid(
            "merge",
            format!("shard {missing}/{count} is missing"),
        ));
    }
    Ok(count)
}

/// Merges the outputs of shards `1..=N` of one verify run into the unsharded report.
/// `opts` supplies the baselines and the gate flags (tier and control come from the shards
/// and must agree with each other).
pub fn merge(shards: Vec<VerifyReport>, opts: &VerifyOptions) -> Result<VerifyReport> {
    merge_table(shards, &crate::theorems::builtin(), opts)
}

/// [`merge`] of shards of a run of `table` (a user's theorem file, `verify --theorems`).
pub(crate) fn merge_table(
    shards: Vec<VerifyReport>,
    table: &[crate::theorems::TheoremEntry],
    opts: &VerifyOptions,
) -> Result<VerifyReport> {
    let first = shards
        .first()
        .ok_or_else(|| Error::invalid("merge", "no shard outputs given"))?;
    let labels = shards
        .iter()
        .map(|r| {
            r.shard.ok_or_else(|| {
                Error::invalid(
                    "merge",
                    "an input is not a shard output (no \"shard\" field)",
                )
            })
        })
        .collect::<Result<Vec<Shard>>>()?;
    check_labels(&labels)?;
    for (r, s) in shards.iter().zip(&labels) {
        if let Some(i) = &r.interrupted {
            return Err(Error::invalid(
                "merge",
                format!(
                    "shard {s} was interrupted ({} after {} of {} jobs): finish it with `saddlefw verify --shard {s} --resume DIR` first",
                    i.signal, i.done, i.total
                ),
            ));
        }
        r.inputs
            .check(&format!("shard {s}"), "merge", &first.inputs)?;
        if r.build != first.build {
            return Err(Error::invalid(
                "merge",
                format!(
                    "shard {s} was written by another build ({}) than the first ({})",
                    r.build, first.build
                ),
            ));
        }
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
    check_runs(&shards, &selected, first)?;
    let mut entries = Vec::new();
    for e in &selected {
        let mut r = runs.remove(&e.id).unwrap_or_default();
        r.sort_by(|a, b| (&a.family, a.seed_index).cmp(&(&b.family, b.seed_index)));
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
    merged.inputs = first.inputs.clone();
    Ok(merged)
}

/// Every run of every shard belongs to a job of the shared job list that the shard owns, no
/// (entry, family, seed) comes twice, and none is missing: a shard file that was edited,
/// truncated or mislabelled is refused instead of merged into a report with other data.
fn check_runs(
    shards: &[VerifyReport],
    selected: &[&crate::theorems::TheoremEntry],
    first: &VerifyReport,
) -> Result<()> {
    let cfg = super::TierConfig {
        seeds: first.seeds.len() as u32,
        t_max: first.t_max,
        dim_x: first.dim_x,
        dim_y: first.dim_y,
    };
    let position: BTreeMap<(String, String, u32), usize> = super::job_keys(selected, &cfg)
        .into_iter()
        .enumerate()
        .map(|(p, k)| (k, p))
        .collect();
    let bad = |s: Shard, what: String| Error::invalid("merge", format!("shard {s}: {what}"));
    let mut seen = std::collections::BTreeSet::new();
    for r in shards {
        let s = r.shard.expect("checked above");
        for e in &r.entries {
            let entry = selected
                .iter()
                .find(|t| t.id == e.id)
                .ok_or_else(|| bad(s, format!("entry {} is not in this run's selection", e.id)))?;
            for run in &e.instances {
                let key = (entry.case.clone(), run.family.clone(), run.seed_index);
                let p = *position.get(&key).ok_or_else(|| {
                    bad(
                        s,
                        format!(
                            "{}: family {} seed {} is not a job of this run",
                            e.id, run.family, run.seed_index
                        ),
                    )
                })?;
                if !s.takes(p) {
                    return Err(bad(
                        s,
                        format!(
                            "{}: family {} seed {} is job {p}, which belongs to another shard",
                            e.id, run.family, run.seed_index
                        ),
                    ));
                }
                if !seen.insert((e.id.clone(), run.family.clone(), run.seed_index)) {
                    return Err(bad(
                        s,
                        format!(
                            "{}: family {} seed {} given twice",
                            e.id, run.family, run.seed_index
                        ),
                    ));
                }
            }
        }
    }
    for e in selected {
        for fam in super::families_for(e, &cfg) {
            for i in 0..cfg.seeds {
                if !seen.contains(&(e.id.clone(), fam.label(), i)) {
                    return Err(Error::invalid(
                        "merge",
                        format!(
                            "{}: the run of family {} seed {i} is in no shard output (a truncated or edited file?)",
                            e.id,
                            fam.label()
                        ),
                    ));
                }
            }
        }
    }
    Ok(())
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
