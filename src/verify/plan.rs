//! The job list of a verify run (one case on one instance, for every selected entry that
//! shares it) and the part of it this run does: what [`super::jobs`] runs and what
//! [`super::resume`] matches a record against.

use super::options::VerifyOptions;
use super::shard;
use super::source::JobRef;
use super::tier::{families_for, InstanceFamily, TierConfig};
use crate::theorems::TheoremEntry;
use crate::{Error, Result};
use std::collections::BTreeMap;

/// One job: a case on one instance (serves every selected entry of the case on that family).
pub(crate) struct Job<'a> {
    pub(crate) case: &'a str,
    pub(crate) family: InstanceFamily,
    pub(crate) seed_index: u32,
    pub(crate) entries: Vec<&'a TheoremEntry>,
}

/// The job list of a verify run, keyed and sorted by (case, family label, seed index): the
/// same list on every machine, which `--shard I/N` partitions by position.
pub(crate) fn job_list<'a>(
    selected: &[&'a TheoremEntry],
    cfg: &TierConfig,
) -> BTreeMap<(String, String, u32), Job<'a>> {
    let mut jobs: BTreeMap<(String, String, u32), Job> = BTreeMap::new();
    for e in selected {
        for fam in families_for(e, cfg) {
            for i in 0..cfg.seeds {
                jobs.entry((e.case.clone(), fam.label(), i))
                    .or_insert_with(|| Job {
                        case: &e.case,
                        family: fam,
                        seed_index: i,
                        entries: Vec::new(),
                    })
                    .entries
                    .push(e);
            }
        }
    }
    jobs
}

/// The keys of [`job_list`] in order (what a merge checks the shards' runs against).
pub(crate) fn job_keys(selected: &[&TheoremEntry], cfg: &TierConfig) -> Vec<(String, String, u32)> {
    job_list(selected, cfg).into_keys().collect()
}

/// The tier's sizes, the selected entries and the whole job list of a verify run.
pub(crate) struct Planned<'a> {
    pub(crate) cfg: TierConfig,
    pub(crate) selected: Vec<&'a TheoremEntry>,
    pub(crate) all: BTreeMap<shard::JobKey, Job<'a>>,
}

/// Checks the tier and the selection and lists the jobs.
pub(crate) fn plan<'a>(table: &'a [TheoremEntry], opts: &VerifyOptions) -> Result<Planned<'a>> {
    let cfg = opts.config.unwrap_or_else(|| opts.tier.config());
    if cfg.seeds == 0 || cfg.t_max < 16 {
        return Err(Error::invalid(
            "verify tier",
            "need at least 1 seed and T_max >= 16",
        ));
    }
    let selected: Vec<&TheoremEntry> = table
        .iter()
        .filter(|e| opts.filter.as_deref().map_or(true, |f| e.id.contains(f)))
        .collect();
    if selected.is_empty() {
        return Err(Error::invalid(
            "entry filter (--cases, RateCheck's filter)",
            format!(
                "no theorem entry id contains {:?} (ids look like lmo-lmo/nc-c/primal)",
                opts.filter.as_deref().unwrap_or("")
            ),
        ));
    }
    let all = job_list(&selected, &cfg);
    Ok(Planned { cfg, selected, all })
}

/// The jobs of the list this run does: its shard's, those the solver covers.
pub(super) fn mine<'a>(
    all: BTreeMap<shard::JobKey, Job<'a>>,
    opts: &VerifyOptions,
) -> Vec<(shard::JobKey, Job<'a>)> {
    let factory = opts.factory();
    shard::select(all.into_iter().collect(), opts.shard)
        .into_iter()
        .filter(|(_, j)| {
            factory.covers(&JobRef {
                case: j.case,
                entry: &j.entries[0].id,
                family: &j.family.label(),
                seed_index: j.seed_index,
                hard: false,
            })
        })
        .collect()
}

/// How many jobs [`run`](super::run) does for `opts` (random instances; the hard instances come on top).
pub fn job_count(table: &[TheoremEntry], opts: &VerifyOptions) -> Result<usize> {
    Ok(mine(plan(table, opts)?.all, opts).len())
}
