//! `saddlefw check`: random instances x applicable solvers x applicable invariants, a report
//! (per invariant: contexts, evaluations, violations, minimum slack and the worst case) and the
//! errata list (printed forms of recorded slips: confirmed or not).
//!
//! Cases are derived from `(seed, index)` by a stable hash ([`case_spec`]), so a report depends
//! only on `(cases, seed)`; cases run on `std::thread::scope` workers and are merged in case
//! order, so it does not depend on the number of threads either.
//!
//! Per case: 4 random points (Point invariants), then runs of Algorithms 1-3 with the default
//! theorem-case schedules of the solvers' registry (plus, alternately, a variant with `C > 0`
//! when mu > 0, or a small `C` when mu = 0) and of SP-FW, each for the case's horizon; Point
//! invariants are also evaluated at every iterate. Real invariants and the witness instances
//! ([`super::witness::witness_cases`]) are evaluated once per check.
//!
//! ```
//! use saddlefw::invariants::check::case_spec;
//! // a case depends only on (seed, index)
//! assert_eq!(case_spec(0, 5), case_spec(0, 5));
//! assert_ne!(case_spec(0, 5), case_spec(0, 6));
//! assert_ne!(case_spec(0, 5), case_spec(1, 5));
//! // dimensions in 1..=6, and the instance is built with them
//! let c = case_spec(3, 11);
//! let (dx, dy) = c.dims();
//! assert!((1..=6).contains(&dx) && (1..=6).contains(&dy));
//! let inst = c.instance.generate().unwrap();
//! assert_eq!((inst.x0.len(), inst.y0.len()), (dx, dy));
//! ```

pub(crate) use super::case::mix;
use super::case::{build_run, describe, paper_variant};
pub use super::case::{
    case_spec, combos, default_solvers, make_spec, CaseOptions, CaseSpec, Combo, InstanceSpec,
    SolverSpec, DEFAULT_HORIZON, POINTS_PER_CASE,
};
use super::check_report::assemble;
pub use super::check_report::{CheckReport, Erratum, ErratumStatus, InvariantReport};
use super::check_shard::job_count;
pub use super::check_shard::merge_shards;
use super::context::{MeasureSet, PointCtx, RunCtx, RunSpec};
pub use super::tally::{CaseResult, CheckShard, JobTallies, Tally, Violation, Worst};
use super::{registry, Check, Eval, Invariant};
use crate::ledger::shard::Shard;
use crate::paper::Algorithm;
use crate::problems::{Instance, Interval};
use crate::sets::ConvexSet;
use crate::solvers::Fault;
use crate::{Error, Result};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rand_distr::StandardNormal;

/// The largest `--cases` of one check (about a day of work on one core).
pub(crate) const MAX_CASES: usize = 1_000_000;

/// A random point context for an instance: projections of Gaussian vectors, `beta` and
/// `beta' <= beta` (0 allowed when mu > 0), `sigma > sigma'`.
pub fn random_point<'a>(
    inst: &'a Instance,
    rng: &mut ChaCha8Rng,
    measures: MeasureSet,
) -> PointCtx<'a> {
    let p = inst.problem.as_ref();
    let k = p.constants();
    let proj = |set: &dyn ConvexSet, rng: &mut ChaCha8Rng| {
        let z: Vec<f64> = (0..set.dim())
            .map(|_| 1.5 * rng.sample::<f64, _>(StandardNormal))
            .collect();
        let mut out = vec![0.0; set.dim()];
        set.project(&z, &mut out);
        out
    };
    let x = proj(p.x_set(), rng);
    let y = proj(p.y_set(), rng);
    let x2 = proj(p.x_set(), rng);
    let beta = if k.mu > 0.0 && rng.gen_bool(0.3) {
        0.0
    } else {
        rng.gen_range(0.01..2.0)
    };
    let beta2 = if rng.gen_bool(0.3) && k.mu > 0.0 {
        0.0
    } else {
        beta * rng.gen_range(0.0..1.0)
    };
    let sigma = rng.gen_range(0.05..3.0);
    let sigma2 = sigma * rng.gen_range(0.05..0.95);
    let xc = p.x_set().default_point();
    let yc = p.y_set().default_point();
    PointCtx {
        problem: p,
        k,
        asm: p.assumptions(),
        x,
        y,
        x2,
        y0: inst.y0.clone(),
        beta,
        beta2,
        sigma,
        sigma2,
        vs: super::context::value_bound(p, &xc, &yc),
        f_star: p
            .known_saddle()
            .and_then(|_| p.f_star())
            .map(|i| Interval::exact(i.mid())),
        measures,
        t: None,
    }
}

/// Evaluates every applicable invariant on one run.
fn eval_run(reg: &[&'static Invariant], run: &RunCtx, opts: &CaseOptions, tallies: &mut [Tally]) {
    for (i, inv) in reg.iter().enumerate() {
        match inv.check {
            Check::Point(f) if opts.points_at_iterates => {
                let mut evals = Vec::new();
                let mut any = false;
                for t in 0..run.snaps.len() {
                    let pc = run.point(t, opts.measures);
                    if inv.hyp.holds_point(&pc) {
                        any = true;
                        evals.extend(f(&pc).into_iter().map(|e| e.at(t)));
                    }
                }
                if any {
                    tallies[i].add(&evals, &run.instance, Some(&run.solver));
                }
            }
            Check::Step(f) => {
                if inv.hyp.holds_run(run) {
                    let evals: Vec<Eval> = (0..run.horizon()).flat_map(|t| f(run, t)).collect();
                    tallies[i].add(&evals, &run.instance, Some(&run.solver));
                } else {
                    tallies[i].skipped += 1;
                }
            }
            Check::Run(f) => {
                if inv.hyp.holds_run(run) {
                    tallies[i].add(&f(run), &run.instance, Some(&run.solver));
                } else {
                    tallies[i].skipped += 1;
                }
            }
            _ => {}
        }
    }
}

/// Runs one case: random points and runs of the solvers on the generated instance.
pub fn check_case(case: &CaseSpec, opts: &CaseOptions) -> Result<CaseResult> {
    let mut inst = case.instance.generate()?;
    let mut name = case.instance.to_string();
    if let Some(factor) = opts.understate {
        inst = Instance {
            problem: Box::new(super::controls::Understated {
                inner: inst.problem,
                factor,
            }),
            ..inst
        };
        name = format!("{name} (constants x{factor})");
    }
    let solvers = opts
        .solvers
        .clone()
        .unwrap_or_else(|| default_solvers(case));
    check_instance(
        &inst,
        &name,
        case.horizon,
        &solvers,
        opts,
        mix(case.instance.seed() ^ 0x9013),
    )
}

/// Runs the checks on an instance (generated or a witness).
pub fn check_instance(
    inst: &Instance,
    name: &str,
    horizon: usize,
    solvers: &[SolverSpec],
    opts: &CaseOptions,
    point_seed: u64,
) -> Result<CaseResult> {
    let reg = registry();
    let mut tallies = vec![Tally::default(); reg.len()];
    let mut rng = ChaCha8Rng::seed_from_u64(point_seed);
    for _ in 0..opts.points {
        let pc = random_point(inst, &mut rng, opts.measures);
        for (i, inv) in reg.iter().enumerate() {
            if let Check::Point(f) = inv.check {
                if inv.hyp.holds_point(&pc) {
                    tallies[i].add(&f(&pc), name, None);
                } else {
                    tallies[i].skipped += 1;
                }
            }
        }
    }
    let p = inst.problem.as_ref();
    let mut build_errors = Vec::new();
    for sv in solvers {
        let (mut solver, structure, desc) = match build_run(sv, p) {
            Ok(b) => b,
            Err(e) => {
                build_errors.push(format!("{}: {e}", describe(sv)));
                continue;
            }
        };
        let extra: Vec<Vec<f64>> = (0..1)
            .map(|_| {
                let z: Vec<f64> = (0..p.x_set().dim())
                    .map(|_| rng.sample::<f64, _>(StandardNormal))
                    .collect();
                let mut out = vec![0.0; z.len()];
                p.x_set().project(&z, &mut out);
                out
            })
            .collect();
        let run = RunCtx::record(
            p,
            solver.as_mut(),
            RunSpec {
                instance: name.to_string(),
                solver_desc: desc,
                structure,
                x0: &inst.x0,
                y0: &inst.y0,
                horizon,
                measures: opts.measures,
                extra_xstars: extra,
            },
        );
        eval_run(&reg, &run, opts, &mut tallies);
    }
    Ok(CaseResult {
        tallies,
        build_errors,
    })
}

/// Runs `cases` random cases with base seed `seed`, the witnesses and the grids.
pub fn run_check(cases: usize, seed: u64) -> Result<CheckReport> {
    run_check_with(cases, seed, &CaseOptions::default(), available_threads())
}

pub use crate::jobs::{available_threads, worker_threads, MAX_JOBS_PER_CORE};

/// [`run_check`] with explicit options and thread count (results do not depend on it).
pub fn run_check_with(
    cases: usize,
    seed: u64,
    opts: &CaseOptions,
    threads: usize,
) -> Result<CheckReport> {
    run_check_shard(cases, seed, opts, threads, None)
}

/// The solvers run on every witness instance: Algorithms 1-3 with their theorem schedules, and
/// LMO-LMO and LMO-PO with `C > 0`.
fn witness_solvers() -> Vec<SolverSpec> {
    let mut solvers = vec![
        SolverSpec::paper(Algorithm::LmoLmo),
        SolverSpec::paper(Algorithm::LmoPo),
        SolverSpec::paper(Algorithm::PoLmo),
    ];
    for alg in [Algorithm::LmoLmo, Algorithm::LmoPo] {
        solvers.push(paper_variant(alg, Some(0.5), Some(0.2), Fault::None));
    }
    solvers
}

/// [`run_check_with`] restricted to one shard of the job list (`None`: every job). A shard's
/// report counts only its jobs (plus the real-number grids) and carries their per-job tallies
/// in [`CheckReport::shard`], from which [`merge_shards`] rebuilds the unsharded report exactly.
pub fn run_check_shard(
    cases: usize,
    seed: u64,
    opts: &CaseOptions,
    threads: usize,
    shard: Option<Shard>,
) -> Result<CheckReport> {
    run_check_resumed(cases, seed, opts, threads, shard, None)
}

/// [`run_check_shard`] that reuses the jobs recorded in `resume` (the check's
/// [`crate::ledger::Ledger`]: `check --resume`, [`super::resume::read`]), appends the others
/// to its journal when it has one and, when `resume` is given,
/// stops at the next job boundary on a first signal (`crate::interrupt`): the report then
/// counts the completed jobs, carries their tallies (as shard 1/1 when unsharded) and sets
/// [`CheckReport::interrupted`].
pub fn run_check_resumed(
    cases: usize,
    seed: u64,
    opts: &CaseOptions,
    threads: usize,
    shard: Option<Shard>,
    resume: Option<&crate::ledger::Ledger<super::resume::Check>>,
) -> Result<CheckReport> {
    if cases == 0 || cases > MAX_CASES {
        return Err(Error::invalid(
            "--cases",
            format!("{cases}: must be in 1..={MAX_CASES} (spread more over runs with other --seed values)"),
        ));
    }
    let reg = registry();
    let witnesses = super::witness::witness_cases()?;
    let total = job_count(cases, witnesses.len());
    let mine: Vec<usize> = crate::ledger::shard::select((0..total).collect(), shard);
    let threads = worker_threads(threads, mine.len());
    let jobs = crate::progress::Jobs::new("check", mine.len() as u64);
    let run_job = |p: usize| -> Option<Result<CaseResult>> {
        if let Some(resume) = resume {
            if let Some(jt) = resume.get(&p) {
                jobs.done();
                return Some(jt.clone().into_result(&reg, resume.input()));
            }
            if crate::interrupt::requested() {
                return None;
            }
        }
        let r = if p < cases {
            let spec = case_spec(seed, p);
            jobs.start(&format!("case {p}: {}", spec.instance));
            let r = check_case(&spec, opts);
            jobs.done();
            r
        } else {
            let w = p - cases;
            let (name, inst) = &witnesses[w];
            jobs.start(name);
            let r = check_instance(
                inst,
                name,
                2 * DEFAULT_HORIZON,
                &witness_solvers(),
                opts,
                mix(seed ^ w as u64),
            );
            jobs.done();
            r
        };
        if let (Some(resume), Ok(r)) = (resume, &r) {
            if resume.journaling() {
                resume.done(&JobTallies::of(p, &reg, r.clone()));
            }
        }
        Some(r)
    };
    let results: Vec<(usize, Option<Result<CaseResult>>)> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..threads)
            .map(|w| {
                let mine = &mine;
                let run_job = &run_job;
                s.spawn(move || {
                    mine.iter()
                        .enumerate()
                        .filter(|(k, _)| k % threads == w)
                        .map(|(_, &p)| (p, run_job(p)))
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        let mut all: Vec<(usize, Option<Result<CaseResult>>)> = handles
            .into_iter()
            .flat_map(|h| h.join().expect("worker panicked"))
            .collect();
        all.sort_by_key(|(p, _)| *p);
        all
    });
    jobs.finish();
    let mut done = Vec::with_capacity(results.len());
    for (p, r) in results {
        if let Some(r) = r {
            done.push((p, r?));
        }
    }
    let interrupted = resume.and_then(|_| crate::resume::Interruption::now(done.len(), mine.len()));
    let whole = interrupted
        .is_some()
        .then_some(Shard { index: 1, count: 1 });
    let mut report = assemble(cases, seed, &reg, &done);
    report.interrupted = interrupted;
    if let Some(shard) = shard.or(whole) {
        report.shard = Some(CheckShard {
            shard,
            jobs: total,
            results: done
                .into_iter()
                .map(|(job, r)| JobTallies::of(job, &reg, r))
                .collect(),
        });
    }
    Ok(report)
}
