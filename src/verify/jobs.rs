//! The parallel run of the job list ([`super::plan`]) and the report's assembly.

use super::instance::run_instance;
use super::judge::{annotate, judge_entry};
use super::options::VerifyOptions;
use super::plan::{mine, plan, Job, Planned};
use super::results::{EntryResult, InstanceRun, VerifyReport};
use super::source::{RunOrigin, SolverFactory};
use super::tier::{derived_seed, Tier, TierConfig};
use super::{hard, resume, shard};
use crate::fit::{FitConfig, Verdict};
use crate::theorems::TheoremEntry;
use crate::{Error, Result};
use rayon::prelude::*;
use std::collections::BTreeMap;
use std::time::Instant;

/// Runs `work` (which uses rayon's parallel iterators over `count` jobs) on `jobs` worker
/// threads, capped by [`crate::jobs::worker_threads`], or on rayon's global pool
/// (one thread per core) for `None`: the `--jobs N` of verify and tighten.
pub(crate) fn with_jobs<R: Send>(
    jobs: Option<usize>,
    count: usize,
    work: impl FnOnce() -> R + Send,
) -> Result<R> {
    match jobs {
        Some(n) => Ok(rayon::ThreadPoolBuilder::new()
            .num_threads(crate::jobs::worker_threads(n, count))
            .build()
            .map_err(|e| Error::invalid("--jobs", e.to_string()))?
            .install(work)),
        None => Ok(work()),
    }
}

/// Runs the selected entries of `table`.
pub fn run(table: &[TheoremEntry], opts: &VerifyOptions) -> Result<VerifyReport> {
    run_logged(table, opts, &resume::fresh(opts))
}

/// [`run`], reusing the jobs that `record` (an earlier report of the same build and
/// arguments: [`resume::check_record`](super::resume::check_record)) holds.
pub fn run_resumed(
    table: &[TheoremEntry],
    opts: &VerifyOptions,
    record: Option<&VerifyReport>,
) -> Result<VerifyReport> {
    let log = match record {
        Some(r) => resume::from_record(r, table, opts)?,
        None => resume::fresh(opts),
    };
    run_logged(table, opts, &log)
}

/// [`run`], reusing the jobs `log` holds and recording the finished ones in it. A stop
/// requested by a signal (`crate::interrupt`) lets running jobs finish and starts no other:
/// the report then holds the completed jobs and says so (`interrupted`; no gate).
pub(crate) fn run_logged(
    table: &[TheoremEntry],
    opts: &VerifyOptions,
    log: &resume::JobLog,
) -> Result<VerifyReport> {
    let clock = Instant::now();
    let Planned { cfg, selected, all } = plan(table, opts)?;
    let factory = opts.factory();
    let jobs = mine(all, opts);
    let progress = crate::progress::Jobs::new("verify", jobs.len() as u64);
    let work = || -> Vec<Option<Result<shard::JobRuns>>> {
        jobs.par_iter()
            .map(|(key, j)| {
                if let Some(done) = resume::job(log, key) {
                    progress.done();
                    return Some(Ok(done.clone()));
                }
                if stop_requested(factory.as_ref()) {
                    return None;
                }
                progress.start(&format!(
                    "{} {} seed {}",
                    j.case,
                    j.family.label(),
                    j.seed_index
                ));
                let r = run_job(j, &cfg, opts.seed, factory.as_ref());
                if factory.stop_reason().is_some() {
                    // the factory's caller stopped the check: this run may have been cut
                    progress.done();
                    return None;
                }
                if let Ok(runs) = &r {
                    resume::job_done(log, key, runs);
                }
                progress.done();
                Some(r)
            })
            .collect()
    };
    let outputs = with_jobs(opts.jobs, jobs.len(), work)?;
    progress.finish();
    let done = outputs.iter().filter(|o| o.is_some()).count();
    let mut per_entry: BTreeMap<String, Vec<InstanceRun>> = BTreeMap::new();
    for out in outputs.into_iter().flatten() {
        for (id, r) in out? {
            per_entry.entry(id).or_default().push(r);
        }
    }
    let mut entries = Vec::with_capacity(selected.len());
    for e in &selected {
        let mut runs = per_entry.remove(&e.id).unwrap_or_default();
        runs.sort_by(|a, b| (&a.family, a.seed_index).cmp(&(&b.family, b.seed_index)));
        entries.push(judge_entry(e, runs, opts)?);
    }
    // hard instances run once: in an unsharded run, or in the merge of shards
    let gates = opts.hard.as_ref().filter(|_| opts.shard.is_none());
    let hard_total = |gates: Option<&hard::HardGates>| -> Result<usize> {
        gates.map_or(Ok(0), |g| g.0.jobs(&selected, opts))
    };
    let reason = || crate::interrupt::describe().or_else(|| factory.stop_reason());
    let (interrupted, hard_runs) = if done < jobs.len() {
        let total = jobs.len() + hard_total(gates)?;
        (
            crate::resume::Interruption::by(reason(), done, total),
            resume::hard_runs(log),
        )
    } else {
        match gates {
            Some(g) => match g.0.attach(&selected, &mut entries, opts, log)? {
                hard::Attached::Done => (None, Vec::new()),
                hard::Attached::Interrupted { runs, total } => (
                    crate::resume::Interruption::by(reason(), done + runs.len(), done + total),
                    runs,
                ),
            },
            None => (None, Vec::new()),
        }
    };
    annotate(&selected, &mut entries, opts.gate_baselines);
    let mut report = assemble(
        opts.tier,
        (0..cfg.seeds).collect(),
        cfg.t_max,
        cfg.dim_x,
        cfg.dim_y,
        opts,
        entries,
        clock.elapsed().as_secs_f64(),
    );
    if opts.shard.is_some() || interrupted.is_some() {
        // partial results: verdicts are not gates until merged or resumed
        report.shard = opts.shard;
        report.failed = false;
        report.interrupted = interrupted;
        report.hard_runs = hard_runs;
    }
    Ok(report)
}

/// The report around judged entries (shared by [`run`] and [`shard::merge`]).
#[allow(clippy::too_many_arguments)]
pub(crate) fn assemble(
    tier: Tier,
    seeds: Vec<u32>,
    t_max: u64,
    dim_x: usize,
    dim_y: usize,
    opts: &VerifyOptions,
    entries: Vec<EntryResult>,
    wall_time_s: f64,
) -> VerifyReport {
    let mut summary = BTreeMap::new();
    for v in ["pass", "fail", "floor", "disputed"] {
        summary.insert(v.to_string(), 0);
    }
    for e in &entries {
        *summary.entry(e.verdict.name().to_string()).or_default() += 1;
    }
    VerifyReport {
        build: crate::build_info::Build::current(),
        tier,
        seeds,
        seed_rule: if opts.seed == 0 {
            "generator seed = FNV-1a-64(\"CASE|FAMILY|INDEX\")".into()
        } else {
            format!(
                "generator seed = FNV-1a-64(\"CASE|FAMILY|INDEX|seed={}\")",
                opts.seed
            )
        },
        master_seed: opts.seed,
        t_max,
        dim_x,
        dim_y,
        control: opts.control.map(|c| c.to_string()),
        fit_config: FitConfig::default(),
        failed: entries.iter().any(|e| e.verdict == Verdict::Fail),
        summary,
        entries,
        filter: opts.filter.clone(),
        shard: None,
        solver: opts.solver.as_ref().map(|f| f.0.name()),
        differential: None,
        interrupted: None,
        hard_runs: Vec::new(),
        inputs: Default::default(),
        wall_time_s,
    }
}

/// Whether no other job may start: a signal asked to stop (`crate::interrupt`), or the
/// factory's caller did ([`SolverFactory::stop_reason`]).
pub(crate) fn stop_requested(factory: &dyn SolverFactory) -> bool {
    crate::interrupt::requested() || factory.stop_reason().is_some()
}

/// Runs one job and evaluates every entry it serves.
pub(crate) fn run_job(
    job: &Job,
    cfg: &TierConfig,
    master_seed: u64,
    factory: &dyn SolverFactory,
) -> Result<Vec<(String, InstanceRun)>> {
    let clock = Instant::now();
    let setting = job.entries[0].setting();
    let seed = derived_seed(job.case, &job.family.label(), job.seed_index, master_seed);
    let spec = job.family.spec(setting, seed);
    let mut inst = spec.generate()?;
    factory.place_start(&mut inst);
    let origin = RunOrigin {
        family: job.family.label(),
        spec: spec.to_string(),
        seed_index: job.seed_index,
        seed,
        problem: Some(spec.to_string()),
    };
    let generate_time = clock.elapsed().as_secs_f64();
    let mut out = run_instance(&job.entries, &inst, &origin, cfg.t_max, factory)?;
    out.iter_mut().for_each(|(_, r)| r.time_s += generate_time);
    Ok(out)
}
