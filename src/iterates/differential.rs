//! Differential mode (issue 34, scope 5): the runs behind `crate::verify::differential` (the
//! rule, the tolerance, the verdicts and the records are there).
//!
//! Every job is run three times in lockstep from the same start `(x0, y0)` with the entry's
//! schedule: yours (an iterate file's [`Replay`], or the solver of a `RateCheck` factory),
//! saddlefw's `against` (`build_solver`: the one implementation of Algorithms 1-3), and
//! saddlefw's `against` with its floating-point operations in another order
//! ([`Control::FloatOrder`]). Iterates `t = 0, 1, ...` are compared until yours departs from
//! saddlefw's, or saddlefw's two runs part (the chaos horizon:
//! `crate::verify::differential::HORIZON_FRACTION` of the tolerance), or `t_last`.
//!
//! * [`compare_iterates`]: `saddlefw verify-iterates DIR --against ALGO` (the export's jobs,
//!   their iterate files);
//! * [`compare_factory`]: `RateCheck::against` (verify's jobs, the factory's solvers).
//!
//! The jobs must be of `against`: when none of them is, the comparison is an input error (the
//! message says what to do); jobs of another algorithm in a mixed selection are listed as
//! `not-compared`.
//!
//! ```
//! use saddlefw::generators::GeneratorSpec;
//! use saddlefw::iterates::differential::lockstep;
//! use saddlefw::verify::controls::{build_solver, Control};
//! let table = saddlefw::theorems::builtin();
//! let entry = table.iter().find(|e| e.id == "lmo-po/c-sc/primal").unwrap();
//! let spec: GeneratorSpec = "quadratic/c-sc:dx=4,dy=3,seed=1".parse().unwrap();
//! let inst = spec.generate().unwrap();
//! let (p, k) = (inst.problem.as_ref(), inst.problem.constants());
//! let run = |c: Option<Control>| build_solver(entry, p, &k, c).unwrap();
//! let twin = || run(Some(Control::FloatOrder));
//! let start = (&inst.x0[..], &inst.y0[..]);
//! // saddlefw's LMO-PO against itself: no departure through t_last
//! let l = lockstep(p, start, 50, run(None).as_mut(), run(None).as_mut(), twin().as_mut());
//! assert_eq!((l.compared_through, l.departure), (50, None));
//! // a primal step in the ascent direction departs at once, in x
//! let flip = Some("primal-sign-flip".parse().unwrap());
//! let l = lockstep(p, start, 50, run(flip).as_mut(), run(None).as_mut(), twin().as_mut());
//! let d = l.departure.unwrap();
//! assert_eq!((d.t, &d.coordinate[..2]), (1, "x["));
//! ```

use super::judge::{load, JudgeOptions};
use super::plan::{self, PlannedJob};
use super::replay::{Faults, Replay};
use crate::paper::Algorithm;
use crate::problems::SaddleProblem;
use crate::solvers::Solver;
use crate::theorems::TheoremEntry;
use crate::tightness::HardSource;
use crate::verify::controls::{build_solver, Control};
use crate::verify::differential::{
    first_departure, first_departure_scaled, Departure, Differential, JobDifferential,
    HORIZON_FRACTION,
};
use crate::verify::{JobRef, RunOrigin, SolverFactory, SolverRequest, TierConfig};
use crate::{Error, Instance, Result};
use rayon::prelude::*;
use std::path::PathBuf;
use std::sync::Arc;

/// Where a lockstep comparison stopped and why.
#[derive(Debug, Clone, PartialEq)]
pub struct Lockstep {
    /// The last iterate compared.
    pub compared_through: u64,
    /// The first departure of yours from saddlefw's run.
    pub departure: Option<Departure>,
    /// The first departure of saddlefw's second run (another operation order) from its first
    /// beyond `HORIZON_FRACTION` of the tolerance: the chaos horizon.
    pub horizon: Option<Departure>,
}

/// Starts the three solvers at `start` and steps them together, comparing every iterate
/// `t = 0, 1, ..., t_last` until yours departs from `reference` or `twin` parts from it
/// (module doc).
pub fn lockstep(
    p: &dyn SaddleProblem,
    start: (&[f64], &[f64]),
    t_last: u64,
    yours: &mut dyn Solver,
    reference: &mut dyn Solver,
    twin: &mut dyn Solver,
) -> Lockstep {
    yours.init(p, start.0, start.1);
    reference.init(p, start.0, start.1);
    twin.init(p, start.0, start.1);
    let mut t = 0;
    loop {
        let r = (reference.x(), reference.y());
        let departure = first_departure(t, (yours.x(), yours.y()), r);
        let horizon = first_departure_scaled(t, (twin.x(), twin.y()), r, HORIZON_FRACTION);
        if departure.is_some() || horizon.is_some() || t >= t_last {
            return Lockstep {
                compared_through: t,
                departure,
                horizon,
            };
        }
        yours.step(p, t as usize);
        reference.step(p, t as usize);
        twin.step(p, t as usize);
        t += 1;
    }
}

/// Where the compared run of a job comes from.
trait Yours: Sync {
    fn name(&self) -> String;
    /// Moves the start point as the solver under verification wants it.
    fn place_start(&self, _instance: &mut Instance) {}
    /// The run of job `index` (`None`: this source does not run the job).
    fn build(
        &self,
        index: usize,
        job: &PlannedJob,
        r: &SolverRequest<'_>,
    ) -> Result<Option<Box<dyn Solver>>>;
}

/// The iterate files of an export.
struct Files {
    root: PathBuf,
    paths: Vec<String>,
    faults: Faults,
}

impl Yours for Files {
    fn name(&self) -> String {
        format!("iterate files under {}", self.root.display())
    }
    fn build(
        &self,
        index: usize,
        job: &PlannedJob,
        r: &SolverRequest<'_>,
    ) -> Result<Option<Box<dyn Solver>>> {
        Ok(Some(Box::new(Replay::open(
            &self.root.join(&self.paths[index]),
            (r.instance.x0.len(), r.instance.y0.len()),
            job.t_last,
            (r.schedule.tau, r.schedule.beta),
            index,
            self.faults.clone(),
        ))))
    }
}

/// A solver factory (`RateCheck`).
struct Factory(Arc<dyn SolverFactory>);

impl Yours for Factory {
    fn name(&self) -> String {
        self.0.name()
    }
    fn place_start(&self, instance: &mut Instance) {
        self.0.place_start(instance)
    }
    fn build(
        &self,
        _index: usize,
        job: &PlannedJob,
        r: &SolverRequest<'_>,
    ) -> Result<Option<Box<dyn Solver>>> {
        let covered = self.0.covers(&JobRef {
            case: &job.case,
            entry: &r.entry.id,
            family: &job.family,
            seed_index: job.seed_index,
            hard: job.is_hard(),
        });
        covered.then(|| self.0.build(r)).transpose()
    }
}

/// The entry a job is run for (its first).
fn entry_of<'a>(table: &'a [TheoremEntry], job: &PlannedJob) -> Result<&'a TheoremEntry> {
    table
        .iter()
        .find(|e| e.id == job.entries[0])
        .ok_or_else(|| Error::invalid("differential", format!("unknown entry {}", job.entries[0])))
}

/// An input error unless some job is of `against`; `what` names the option, `suggest` turns
/// an algorithm's name into the option's call, `hint` says how to select `against`'s cases.
fn check_algorithm(
    table: &[TheoremEntry],
    jobs: &[PlannedJob],
    against: Algorithm,
    (what, suggest): (&str, fn(&str) -> String),
    hint: &str,
) -> Result<()> {
    let mut others = std::collections::BTreeSet::new();
    for j in jobs {
        let a = &entry_of(table, j)?.algorithm;
        if a.solver() == Some(against) {
            return Ok(());
        }
        others.insert(a.name().to_string());
    }
    let calls: Vec<String> = others.iter().map(|o| suggest(o)).collect();
    Err(Error::invalid(
        what,
        format!(
            "{}: the jobs are of {} (entries such as {}), none of {}: compare with {}, or {hint}",
            against.name(),
            others.into_iter().collect::<Vec<_>>().join(", "),
            jobs.first().map_or("-", |j| j.entries[0].as_str()),
            against.name(),
            calls.join(" or "),
        ),
    ))
}

/// Compares one job (module doc).
fn compare_job(
    table: &[TheoremEntry],
    index: usize,
    job: &PlannedJob,
    against: Algorithm,
    yours: &dyn Yours,
) -> Result<JobDifferential> {
    let entry = entry_of(table, job)?;
    let mut record = JobDifferential::not_compared(
        job.id.clone(),
        job.entries.clone(),
        job.spec.clone(),
        job.t_last,
        String::new(),
    );
    if entry.algorithm.solver() != Some(against) {
        record.reason = Some(format!(
            "its entries are {}'s, not {}'s",
            entry.algorithm.name(),
            against.name()
        ));
        return Ok(record);
    }
    let mut inst = job.instance()?;
    yours.place_start(&mut inst);
    let k = inst.problem.constants();
    let schedule = entry.schedule.resolve(&k)?;
    let origin = RunOrigin {
        family: job.family.clone(),
        spec: job.spec.clone(),
        seed_index: job.seed_index,
        seed: job.seed,
        problem: None,
    };
    let request = SolverRequest {
        entry,
        instance: &inst,
        constants: &k,
        schedule: &schedule,
        origin: &origin,
        t_max: job.t_max,
    };
    let Some(mut mine) = yours.build(index, job, &request)? else {
        record.reason = Some("the solver does not run this job".into());
        return Ok(record);
    };
    let p = inst.problem.as_ref();
    let mut reference = build_solver(entry, p, &k, None)?;
    let mut twin = build_solver(entry, p, &k, Some(Control::FloatOrder))?;
    let l = lockstep(
        p,
        (&inst.x0, &inst.y0),
        job.t_last,
        mine.as_mut(),
        reference.as_mut(),
        twin.as_mut(),
    );
    record.compared_through = Some(l.compared_through);
    record.decide(l.departure, l.horizon);
    Ok(record)
}

/// Compares every job of `jobs` on `threads` worker threads (results in job order).
fn compare_all(
    table: &[TheoremEntry],
    jobs: &[PlannedJob],
    against: Algorithm,
    yours: &dyn Yours,
    threads: Option<usize>,
) -> Result<Differential> {
    let work = || -> Vec<Result<JobDifferential>> {
        jobs.par_iter()
            .enumerate()
            .map(|(i, j)| compare_job(table, i, j, against, yours))
            .collect()
    };
    let records = crate::verify::with_jobs(threads, jobs.len(), work)?
        .into_iter()
        .collect::<Result<Vec<_>>>()?;
    Ok(Differential::new(against, yours.name(), records))
}

/// `saddlefw verify-iterates DIR --against ALGO`: the export's jobs, yours read from the
/// iterate files (checked as `verify-iterates` checks them: the first bad file, in manifest
/// order, is the error).
pub fn compare_iterates(
    table: &[TheoremEntry],
    o: &JudgeOptions,
    against: Algorithm,
) -> Result<Differential> {
    let (m, _, planned) = load(table, &o.export_dir)?;
    let hint = format!(
        "export {A}'s cases (saddlefw export --cases {A}/) and write their iterates",
        A = against.name()
    );
    let suggest: fn(&str) -> String = |o| format!("--against {o}");
    check_algorithm(table, &planned, against, ("--against", suggest), &hint)?;
    let files = Files {
        root: o
            .iterates_root
            .clone()
            .unwrap_or_else(|| o.export_dir.clone()),
        paths: m.jobs.iter().map(|j| j.iterates.clone()).collect(),
        faults: Faults::default(),
    };
    let d = compare_all(table, &planned, against, &files, o.jobs)?;
    match files.faults.first() {
        Some(e) => Err(e),
        None => Ok(d),
    }
}

/// What [`compare_factory`] runs: verify's jobs of the selection.
pub struct FactoryJobs<'a> {
    pub filter: Option<&'a str>,
    pub config: TierConfig,
    /// The stored hardest instances (`None`: random instances only).
    pub hard: Option<&'a HardSource>,
    /// The master seed of the random families.
    pub seed: u64,
    pub threads: Option<usize>,
}

/// `RateCheck::against`: verify's jobs of the selection (random and stored hard instances),
/// yours from `factory`.
pub fn compare_factory(
    table: &[TheoremEntry],
    jobs: &FactoryJobs<'_>,
    factory: Arc<dyn SolverFactory>,
    against: Algorithm,
) -> Result<Differential> {
    let selected = plan::select(table, jobs.filter)?;
    let planned = plan::plan_seeded(&selected, &jobs.config, jobs.hard, jobs.seed)?;
    let hint = format!(
        "select {A}'s entries (RateCheck::builtin(\"{A}/\"))",
        A = against.name()
    );
    let suggest: fn(&str) -> String = |o| {
        Algorithm::parse(o).map_or(format!("the solver of {o}"), |a| {
            format!(".against(Algorithm::{a:?})")
        })
    };
    check_algorithm(
        table,
        &planned,
        against,
        ("RateCheck::against", suggest),
        &hint,
    )?;
    compare_all(table, &planned, against, &Factory(factory), jobs.threads)
}
