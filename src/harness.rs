//! THE run loop: iteration, time limit, checkpoints, measures, oracle counts and run status,
//! for every solver.
//!
//! * The solver only ever sees a `Counting` view of the problem: oracle calls are counted,
//!   not self-reported. Measures use the unwrapped problem, so they are not counted.
//! * Checkpoints ([`CheckpointRule`]): `log2` measures t = 0, 1, 2, 4, 8, ... and the last
//!   iterate; `all` measures every t. Checkpoint t holds
//!   [`measures::evaluate`] at `(x_t, y_t)` with `beta_t = solver.beta_at(t)`,
//!   the `y0` the solver was started from and the configured sigma.
//! * Timing: only `solver.step` is inside the timed region ("wall_time_s", checkpoint
//!   "time_s"); measures, f*, divergence checks and observers are timed separately
//!   ("measure_time_s"). The time limit applies to solver time.
//! * Status: `completed`; `time_limit` (the iterate reached when the limit passed is measured);
//!   `diverged` when a step hands out a non-finite gradient, step parameter or iterate: the
//!   iteration and the reason are recorded, checkpoints before it are kept; `inconsistent` when
//!   a measured iterate has a non-finite measure or a gap below minus the rounding tolerance
//!   ([`measures::inconsistency`]): the iterate and the measure are recorded, the run stops;
//!   `interrupted` when a first signal asked the command to stop (`crate::interrupt`): the
//!   iterate reached is measured and the run stops there. [`run_watched`] also hands
//!   out periodic snapshots (status `in_progress`) of a long run.
//!
//! ```
//! use saddlefw::generators::GeneratorSpec;
//! use saddlefw::harness::{run, RunConfig};
//! use saddlefw::solvers::registry;
//! let inst = "quadratic/c-sc:dx=4,dy=3,seed=2".parse::<GeneratorSpec>().unwrap().generate().unwrap();
//! let mut built = registry::build("lmo-lmo", inst.problem.as_ref(), &Default::default()).unwrap();
//! let trace = run(&inst, built.solver.as_mut(), &RunConfig::new(16));
//! let ts: Vec<usize> = trace.checkpoints.iter().map(|c| c.t).collect();
//! assert_eq!(ts, [0, 1, 2, 4, 8, 16]);
//! assert_eq!(trace.oracle_calls.proj_x + trace.oracle_calls.proj_y, 0);
//! ```

use crate::counting::Counting;
use crate::measures;
use crate::problems::{Instance, SaddleProblem};
use crate::solvers::{Solver, StepInfo};
pub use crate::trace::CheckpointRule;
use crate::trace::{Checkpoint, RunConstants, Status, Trace};
use std::time::Instant;

/// How to run.
#[derive(Debug, Clone, PartialEq)]
pub struct RunConfig {
    /// Iterations T (the loop performs t = 0, ..., T-1).
    pub iterations: usize,
    /// Limit on solver time in seconds.
    pub time_limit: Option<f64>,
    /// Which iterates are measured.
    pub checkpoints: CheckpointRule,
    /// sigma of G_X^PO.
    pub sigma: f64,
}

impl RunConfig {
    /// T iterations, log2 checkpoints, no time limit, sigma = [`crate::paper::BASELINE_SIGMA`].
    pub fn new(iterations: usize) -> Self {
        RunConfig {
            iterations,
            time_limit: None,
            checkpoints: CheckpointRule::Log2,
            sigma: crate::paper::BASELINE_SIGMA,
        }
    }
}

/// What an observer sees after iteration t: the step parameters and `(x_{t+1}, y_{t+1})`.
#[derive(Debug, Clone, Copy)]
pub struct StepView<'a> {
    pub t: usize,
    pub info: StepInfo,
    pub x: &'a [f64],
    pub y: &'a [f64],
}

/// Runs `solver` on an instance from its start `(x0, y0)`; the trace records the instance seed.
pub fn run(instance: &Instance, solver: &mut dyn Solver, config: &RunConfig) -> Trace {
    let mut trace = run_problem(
        instance.problem.as_ref(),
        &instance.x0,
        &instance.y0,
        solver,
        config,
    );
    trace.seed = instance.seed;
    trace
}

/// Runs `solver` on `problem` from `(x0, y0)`.
pub fn run_problem(
    problem: &dyn SaddleProblem,
    x0: &[f64],
    y0: &[f64],
    solver: &mut dyn Solver,
    config: &RunConfig,
) -> Trace {
    run_observed(problem, x0, y0, solver, config, &mut |_| {})
}

/// Runs `solver` and calls `observer` after every successful step (outside the timed region).
pub fn run_observed(
    problem: &dyn SaddleProblem,
    x0: &[f64],
    y0: &[f64],
    solver: &mut dyn Solver,
    config: &RunConfig,
    observer: &mut dyn FnMut(&StepView),
) -> Trace {
    let watch = Watch {
        observer,
        on_checkpoint: &mut |_| {},
        snapshots: None,
    };
    run_watched(problem, x0, y0, solver, config, watch)
}

/// Periodic snapshots of a run in progress: whenever `every_s` seconds of wall time have
/// passed since the start or the last snapshot, `save` gets the trace so far (status
/// `in_progress`, the checkpoints measured until then). `saddlefw run` writes them to a
/// checkpoint file, so a run killed by SIGKILL loses at most that interval.
pub struct Snapshots<'a> {
    /// Seconds of wall time between snapshots.
    pub every_s: f64,
    /// Receives each snapshot.
    pub save: &'a mut dyn FnMut(&Trace),
}

/// What a caller watches during a run, all outside the timed region: every successful step,
/// every checkpoint as soon as it is measured (progress displays use it), and optional
/// periodic [`Snapshots`].
pub struct Watch<'a> {
    /// Called after every successful step.
    pub observer: &'a mut dyn FnMut(&StepView),
    /// Called with every checkpoint as soon as it is measured.
    pub on_checkpoint: &'a mut dyn FnMut(&Checkpoint),
    /// Periodic snapshots of the trace so far (None: none).
    pub snapshots: Option<Snapshots<'a>>,
}

/// [`run_observed`] with everything a caller can watch ([`Watch`]). A stop requested by a
/// signal (`crate::interrupt::stops_runs`) ends the loop at the next iteration boundary with
/// status `interrupted` (the iterate reached is measured).
pub fn run_watched(
    problem: &dyn SaddleProblem,
    x0: &[f64],
    y0: &[f64],
    solver: &mut dyn Solver,
    config: &RunConfig,
    watch: Watch,
) -> Trace {
    let Watch {
        observer,
        on_checkpoint,
        mut snapshots,
    } = watch;
    crate::solvers::check_start(problem, x0, y0);
    assert!(config.sigma > 0.0, "sigma of G_X^PO must be positive");
    let total = Instant::now();
    let counting = Counting::new(problem);
    let measured = config.checkpoints != CheckpointRule::None;
    let clock = Instant::now();
    let f_star = if measured { problem.f_star() } else { None };
    let mut run = Loop {
        problem,
        x0,
        y0,
        config,
        counting: &counting,
        f_star,
        on_checkpoint,
        checkpoints: Vec::new(),
        measure_time: clock.elapsed().as_secs_f64(),
        solver_time: 0.0,
        done: 0,
        started: total,
    };
    solver.init(&counting, x0, y0);

    let mut status = Status::Completed;
    let mut last_snapshot = 0.0;
    if measured {
        if let Some(s) = run.measure(&*solver) {
            status = s;
        }
    }
    for t in 0..config.iterations {
        if status != Status::Completed {
            break;
        }
        if crate::interrupt::stops_runs() {
            let measured_here = run.checkpoints.last().is_some_and(|c| c.t == run.done);
            status = match run.measure_if(measured && !measured_here, &*solver) {
                Some(s) => s,
                None => Status::Interrupted {
                    iteration: run.done,
                },
            };
            break;
        }
        let clock = Instant::now();
        let info = solver.step(&counting, t);
        run.solver_time += clock.elapsed().as_secs_f64();

        let clock = Instant::now();
        if let Some(reason) = divergence(&counting, &info, &*solver, t) {
            status = Status::Diverged {
                iteration: t,
                reason,
            };
            run.measure_time += clock.elapsed().as_secs_f64();
            break;
        }
        run.done = t + 1;
        observer(&StepView {
            t,
            info,
            x: solver.x(),
            y: solver.y(),
        });
        run.measure_time += clock.elapsed().as_secs_f64();

        let last = run.done == config.iterations;
        let over_time = config.time_limit.is_some_and(|l| run.solver_time >= l);
        let due = last || over_time || config.checkpoints.includes(run.done);
        if let Some(s) = run.measure_if(measured && due, &*solver) {
            status = s;
            break;
        }
        if over_time && !last {
            status = Status::TimeLimit;
            break;
        }
        if let Some(snap) = snapshots.as_mut() {
            let now = total.elapsed().as_secs_f64();
            if now - last_snapshot >= snap.every_s && !last {
                last_snapshot = now;
                let partial = Status::InProgress {
                    iteration: run.done,
                };
                (snap.save)(&run.trace(&*solver, partial, run.checkpoints.clone()));
            }
        }
    }
    let checkpoints = std::mem::take(&mut run.checkpoints);
    run.trace(&*solver, status, checkpoints)
}

/// The state of one run of [`run_watched`]: what is measured and counted so far.
struct Loop<'a, 'c> {
    problem: &'a dyn SaddleProblem,
    x0: &'a [f64],
    y0: &'a [f64],
    config: &'a RunConfig,
    counting: &'a Counting<'a>,
    f_star: Option<crate::problems::Interval>,
    on_checkpoint: &'c mut dyn FnMut(&Checkpoint),
    checkpoints: Vec<Checkpoint>,
    measure_time: f64,
    solver_time: f64,
    /// Iterations done (the solver holds iterate `done`).
    done: usize,
    started: Instant,
}

impl Loop<'_, '_> {
    /// [`Loop::measure`] when `due`.
    fn measure_if(&mut self, due: bool, solver: &dyn Solver) -> Option<Status> {
        if due {
            self.measure(solver)
        } else {
            None
        }
    }

    /// Measures iterate `done`; `Some(status)` when its measures are inconsistent (the
    /// checkpoint is then not recorded and the run stops).
    fn measure(&mut self, solver: &dyn Solver) -> Option<Status> {
        let clock = Instant::now();
        let t = self.done;
        let beta = solver.beta_at(t);
        let c = self.config;
        let m = measures::evaluate(self.problem, solver.x(), solver.y(), beta, self.y0, c.sigma);
        if let Some((measure, value, tolerance)) = measures::inconsistency(&m) {
            self.measure_time += clock.elapsed().as_secs_f64();
            return Some(Status::Inconsistent {
                iteration: t,
                measure: measure.to_string(),
                value,
                tolerance,
            });
        }
        self.checkpoints.push(Checkpoint {
            t,
            time_s: self.solver_time,
            beta,
            measures: m,
        });
        (self.on_checkpoint)(self.checkpoints.last().expect("just pushed"));
        self.measure_time += clock.elapsed().as_secs_f64();
        None
    }

    /// The trace so far with `status` and `checkpoints`.
    fn trace(&self, solver: &dyn Solver, status: Status, checkpoints: Vec<Checkpoint>) -> Trace {
        let (problem, config) = (self.problem, self.config);
        Trace {
            algorithm: solver.name().to_string(),
            problem: problem.name(),
            problem_name: problem.name(),
            setting: problem.assumptions().setting().to_string(),
            schedule: solver.schedule(),
            theorem_case: None,
            schedule_notes: Vec::new(),
            provenance: solver.provenance().to_string(),
            seed: None,
            constants: RunConstants::new(&problem.constants(), self.x0.len(), self.y0.len()),
            f_star: self.f_star,
            sigma: config.sigma,
            checkpoint_rule: config.checkpoints,
            iterations_requested: config.iterations,
            time_limit_s: config.time_limit,
            status,
            iterations: self.done,
            wall_time_s: self.solver_time,
            measure_time_s: self.measure_time,
            total_time_s: self.started.elapsed().as_secs_f64(),
            oracle_calls: self.counting.counts(),
            po_lmo_g: None,
            checkpoints,
        }
    }
}

/// The reason iteration t diverged, if it did: a non-finite gradient handed to the solver, a
/// non-finite step parameter, or a non-finite iterate.
fn divergence(
    counting: &Counting,
    info: &StepInfo,
    solver: &dyn Solver,
    t: usize,
) -> Option<String> {
    if let Some(which) = counting.nonfinite_gradient() {
        return Some(format!("non-finite {which} at iteration {t}"));
    }
    for (name, v) in [
        ("tau", info.tau),
        ("beta", info.beta),
        ("gamma", info.gamma),
    ] {
        if !v.is_finite() {
            return Some(format!(
                "non-finite step parameter {name} = {v} at iteration {t}"
            ));
        }
    }
    for (name, v) in [("x", solver.x()), ("y", solver.y())] {
        if crate::linalg::all_finite(v) {
            continue;
        }
        if let Some(i) = v.iter().position(|e| !e.is_finite()) {
            return Some(format!(
                "non-finite iterate {name}_{} (entry {i} = {}) at iteration {t}",
                t + 1,
                v[i]
            ));
        }
    }
    None
}
