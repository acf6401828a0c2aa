//! Where the solver under verification comes from: the seam between the harness's judging
//! machinery and the solver it judges.
//!
//! `verify` builds one solver per job (a case on one instance) through a [`SolverFactory`]. The
//! crate's own implementation of the entry's algorithm is `EntrySolver` (optionally broken by
//! a negative [`Control`]); a user's implementation is any other factory, given to
//! [`crate::verify::VerifyOptions::solver`]. Whatever the factory, the harness measures every
//! iterate itself, exactly: `H_t` (`eq:H_t`) with the entry's `beta_t` and `G_X^PO` with the
//! entry's sigma, never with values the solver reports ([`SolverFactory::measurement_beta`]).
//!
//! ```
//! use saddlefw::verify::{EntrySolver, SolverFactory};
//! assert_eq!(EntrySolver::new(None).name(), "saddlefw");
//! let broken = EntrySolver::new(Some("constant-tau".parse().unwrap()));
//! assert_eq!(broken.name(), "saddlefw (control constant-tau)");
//! ```

use super::controls::{self, Control};
use crate::problems::Constants;
use crate::solvers::defaults::RunSchedules;
use crate::solvers::{Schedule, Solver, StepInfo};
use crate::theorems::TheoremEntry;
use crate::{Instance, Result};
use std::fmt;
use std::sync::Arc;

/// Everything a factory may use to build the solver of one job: the entry (its algorithm,
/// setting, schedule as written), the instance, the entry's schedule resolved for the
/// instance's constants, where the instance comes from, and the horizon.
pub struct SolverRequest<'a> {
    /// The first entry of the case (the entries of a case share their schedule).
    pub entry: &'a TheoremEntry,
    /// The instance: problem, start points `(x0, y0)`.
    pub instance: &'a Instance,
    /// The certified constants of the instance (`L_xx`, `L_yx`, `mu`, `D_X`, `D_Y`, ...).
    pub constants: &'a Constants,
    /// `tau_t` and `beta_t` of the entry's theorem for these constants.
    pub schedule: &'a RunSchedules,
    /// The instance's family, spec and seed.
    pub origin: &'a RunOrigin,
    /// The last iterate the harness will measure is `t_max` (or `t_max + 1` for entries whose
    /// quantity needs the next iterate).
    pub t_max: u64,
}

/// A job as a factory sees it before anything runs ([`SolverFactory::covers`]).
#[derive(Debug, Clone, Copy)]
pub struct JobRef<'a> {
    /// Theorem case, e.g. `lmo-lmo/c-sc+sc`.
    pub case: &'a str,
    /// The first entry the job serves (for a stored hardest instance: its entry).
    pub entry: &'a str,
    /// Family label (`crate::verify::InstanceFamily::label` or a hard family's name).
    pub family: &'a str,
    pub seed_index: u32,
    /// Whether the job is a stored hardest instance (`crate::tightness`).
    pub hard: bool,
}

/// Builds the solver that `verify` judges on one job.
pub trait SolverFactory: Send + Sync {
    /// A short name for reports and failure messages (e.g. `my-fw`).
    fn name(&self) -> String;
    /// The solver for this job, not yet initialised (the harness calls `init` with the
    /// instance's start points).
    fn build(&self, request: &SolverRequest<'_>) -> Result<Box<dyn Solver>>;
    /// Whether this factory runs the job (default: every job). Jobs it does not cover are
    /// neither run nor judged (`verify-iterates`: the instances an export cannot hold).
    fn covers(&self, _job: &JobRef<'_>) -> bool {
        true
    }
    /// The `beta_t` with which the harness measures `H_t` (`eq:H_t`). Default: the entry's
    /// schedule, whatever the solver does.
    fn measurement_beta(&self, request: &SolverRequest<'_>) -> Schedule {
        request.schedule.beta
    }
    /// The schedules the solver steps with, when the factory knows them (the PO-LMO
    /// appendix constant G_1 / G_2 is computed from them); default: unknown, the entry's.
    fn schedules(&self, _request: &SolverRequest<'_>) -> Option<RunSchedules> {
        None
    }
    /// Moves the instance's start point before the run (default: the generator's start). The
    /// harness then starts the solver there and measures from there, the envelopes included.
    fn place_start(&self, _instance: &mut Instance) {}
    /// Whether a job can be run past the horizon it was planned with (default: yes). The
    /// confirmation of a failed `hard-rate` runs the hard instance again at
    /// `super::hard::CONFIRM_FACTOR` times its horizon; iterate files end at the horizon
    /// they were exported for, so there the rate at T stands, with a note.
    fn extends_horizon(&self) -> bool {
        true
    }
    /// Why the factory's caller asked the check to stop (e.g. `KeyboardInterrupt` in the
    /// Python package), or `None` (the default) to go on. Once it says why, as after a signal
    /// (`crate::interrupt`), no other job starts, and a job that ends afterwards is not kept
    /// (its run may have been cut short): the report holds the jobs finished before, marked
    /// `interrupted` with this reason, and a later run can resume from it
    /// ([`crate::gate::RateCheck::resume`]).
    fn stop_reason(&self) -> Option<String> {
        None
    }
    /// Whether the harness checks every iterate of this factory's solvers as `verify-iterates`
    /// checks a file's (dimensions, distance to `X x Y`, the start point: `super::feasible`)
    /// and names the job in the factory's errors. A failed check is an input error that
    /// the verification harness returns (no verdict). Default: no (the crate's own solvers);
    /// [`crate::gate::RateCheck`] turns it on for a solver of yours.
    fn checks_iterates(&self) -> bool {
        false
    }
}

/// A user's factory as [`crate::gate::RateCheck`] runs it: the same factory with
/// [`SolverFactory::checks_iterates`] on.
pub(crate) struct Untrusted(pub Arc<dyn SolverFactory>);

impl SolverFactory for Untrusted {
    fn name(&self) -> String {
        self.0.name()
    }
    fn build(&self, request: &SolverRequest<'_>) -> Result<Box<dyn Solver>> {
        self.0.build(request)
    }
    fn covers(&self, job: &JobRef<'_>) -> bool {
        self.0.covers(job)
    }
    fn measurement_beta(&self, request: &SolverRequest<'_>) -> Schedule {
        self.0.measurement_beta(request)
    }
    fn schedules(&self, request: &SolverRequest<'_>) -> Option<RunSchedules> {
        self.0.schedules(request)
    }
    fn place_start(&self, instance: &mut Instance) {
        self.0.place_start(instance)
    }
    fn extends_horizon(&self) -> bool {
        self.0.extends_horizon()
    }
    fn stop_reason(&self) -> Option<String> {
        self.0.stop_reason()
    }
    fn checks_iterates(&self) -> bool {
        true
    }
}

/// The crate's own implementation of the entry's algorithm with the entry's schedule,
/// optionally broken by a negative control ([`controls`]).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct EntrySolver {
    control: Option<Control>,
}

impl EntrySolver {
    /// The real solver (`None`) or a broken variant.
    pub fn new(control: Option<Control>) -> Self {
        EntrySolver { control }
    }
}

impl SolverFactory for EntrySolver {
    fn name(&self) -> String {
        match self.control {
            None => "saddlefw".into(),
            Some(c) => format!("saddlefw (control {c})"),
        }
    }
    fn build(&self, r: &SolverRequest<'_>) -> Result<Box<dyn Solver>> {
        controls::build_solver(
            r.entry,
            r.instance.problem.as_ref(),
            r.constants,
            self.control,
        )
    }
    /// A control that shifts the exponent of `beta_t` is measured with its own `beta_t`
    /// (the variant is "the algorithm with another schedule").
    fn measurement_beta(&self, r: &SolverRequest<'_>) -> Schedule {
        controls::controlled_schedules(r.entry, r.constants, self.control)
            .map_or(r.schedule.beta, |s| s.beta)
    }
    fn schedules(&self, r: &SolverRequest<'_>) -> Option<RunSchedules> {
        controls::controlled_schedules(r.entry, r.constants, self.control).ok()
    }
    /// The `start-other` variant starts from [`crate::solvers::control::other_start`].
    fn place_start(&self, instance: &mut Instance) {
        if self.control == Some(Control::StartOther) {
            let (x0, y0) = crate::solvers::control::other_start(instance);
            instance.x0 = x0;
            instance.y0 = y0;
        }
    }
}

/// Where an instance of `crate::verify::run_instance` comes from (copied into its [`crate::verify::InstanceRun`]s).
#[derive(Debug, Clone)]
pub struct RunOrigin {
    /// Family label, e.g. `crate::verify::InstanceFamily::label` or a hard family's name.
    pub family: String,
    /// A spec that reproduces the instance.
    pub spec: String,
    pub seed_index: u32,
    pub seed: u64,
    /// The `saddlefw run --problem` value that rebuilds the instance, when one does (a
    /// generator spec; `None` for a search candidate), for the runs' reproduce commands.
    pub problem: Option<String>,
}

/// A shared factory in [`crate::verify::VerifyOptions`] (cloneable, printable by name).
#[derive(Clone)]
pub struct SharedFactory(pub Arc<dyn SolverFactory>);

impl fmt::Debug for SharedFactory {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "SolverFactory({})", self.0.name())
    }
}

/// A solver whose `beta_at` is the `beta_t` that `H_t` is measured with (`eq:H_t`), stepping as
/// the wrapped solver does. The theorems leave the constant of `beta_t = Theta(t^-b)` free, so
/// `H_t` follows the solver's own smoothing: the `beta_t` it reports ([`Solver::beta_at`]),
/// checked against the entry's hypotheses afterwards (`super::schedule_check`). A solver that
/// reports no smoothing (`beta_at(0) = 0`) where the entry's `beta_t` is positive has not said
/// which it used: it is measured with `fallback` (the entry's, or a control's own).
pub(crate) struct MeasuredWith {
    pub inner: Box<dyn Solver>,
    pub fallback: Schedule,
    /// Whether the solver reports its `beta_t` (decided at the first `beta_at` after `init`).
    pub declared: std::sync::OnceLock<bool>,
}

impl MeasuredWith {
    pub fn new(inner: Box<dyn Solver>, fallback: Schedule) -> Self {
        MeasuredWith {
            inner,
            fallback,
            declared: std::sync::OnceLock::new(),
        }
    }
    /// Whether `H_t` followed the solver's own `beta_t` (None before the first measurement).
    pub fn declared(&self) -> Option<bool> {
        self.declared.get().copied()
    }
}

impl Solver for MeasuredWith {
    fn name(&self) -> &str {
        self.inner.name()
    }
    fn init(&mut self, p: &dyn crate::problems::SaddleProblem, x0: &[f64], y0: &[f64]) {
        self.inner.init(p, x0, y0)
    }
    fn step(&mut self, p: &dyn crate::problems::SaddleProblem, t: usize) -> StepInfo {
        self.inner.step(p, t)
    }
    fn x(&self) -> &[f64] {
        self.inner.x()
    }
    fn y(&self) -> &[f64] {
        self.inner.y()
    }
    fn beta_at(&self, t: usize) -> f64 {
        let declared = *self
            .declared
            .get_or_init(|| !(self.fallback.is_positive() && self.inner.beta_at(0) == 0.0));
        if declared {
            self.inner.beta_at(t)
        } else {
            self.fallback.at(t)
        }
    }
    fn schedule(&self) -> String {
        self.inner.schedule()
    }
    fn provenance(&self) -> &'static str {
        self.inner.provenance()
    }
}
