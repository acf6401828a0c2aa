//! Solvers: the paper's Algorithms 1-3 (`alg:fw-fw`, `alg:fw-proj`, `alg:proj-fw`) and the
//! baselines SP-FW, AGP, R-PDCG, CG-RPGA (provenance in `../shared/spec/baselines.md`).
//!
//! A solver only steps: it never times, measures, prints or decides when to stop. The one run
//! loop ([`prelude::run`](crate::prelude::run), `saddlefw run`) drives it.
//!
//! | module | content |
//! |---|---|
//! | [`schedule`] | step-size / smoothing schedules as values, G_1 / G_2 |
//! | [`defaults`] | the theorem-case default schedules, read from the theorem table |
//! | [`options`] | the user's choices ([`Options`]: the `run` flags as typed values) |
//! | [`steps`] | the oracle steps every method is composed of (LMO move, projected step, short step gamma_t) |
//! | [`smoothing`] | Algorithms 1-3 (one generic dual-dynamic-smoothing solver, three compositions) |
//! | [`sp_fw`], [`r_pdcg`], [`cg_rpga`], [`agp`] | the baselines |
//! | [`registry`] | name -> constructor, per-iteration oracle profiles, `saddlefw list` data |
//! | [`spec`] | what to build ([`SolverSpec`]): the one construction path into the registry |
//! | [`control`] | negative controls of Algorithms 1-3 ([`Control`], [`Fault`], the one vocabulary of broken steps, declared in `fault`), applied from outside the step where possible |
//!
//! ```
//! use saddlefw::generators::GeneratorSpec;
//! use saddlefw::solvers::{registry, Options};
//! let inst = "saddle/c-c:dx=4,dy=3,seed=1".parse::<GeneratorSpec>().unwrap().generate().unwrap();
//! let p = inst.problem.as_ref();
//! let mut s = registry::find("lmo-lmo").unwrap().build(p, &Options::default()).unwrap().solver;
//! s.init(p, &inst.x0, &inst.y0);
//! for t in 0..50 {
//!     let info = s.step(p, t);
//!     assert!((0.0..=1.0).contains(&info.tau) && (0.0..=1.0).contains(&info.gamma), "{info:?}");
//! }
//! // a solver only steps: the iterates stay feasible
//! assert!(p.x_set().contains(s.x(), 1e-9) && p.y_set().contains(s.y(), 1e-9));
//! ```

pub mod agp;
pub mod boroun;
pub mod cg_rpga;
pub mod control;
pub mod defaults;
mod fault;
pub mod options;
pub mod r_pdcg;
pub mod registry;
pub mod schedule;
pub mod smoothing;
pub mod sp_fw;
pub mod spec;
pub mod steps;

pub use control::{Control, Fault};
pub use options::Options;
pub use registry::build_spec;
pub use registry::{AlgorithmInfo, Built, OracleProfile};
pub use schedule::Schedule;
pub use smoothing::{DualSmoothing, Oracle};
pub use spec::SolverSpec;

use crate::problems::SaddleProblem;

/// What a step used: the parameters of iteration t (needed by invariants and traces).
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct StepInfo {
    /// Primal step tau_t (for PO steps: the projection step size).
    pub tau: f64,
    /// Smoothing beta_t used in the dual gradient (0 when none).
    pub beta: f64,
    /// Dual step gamma_t actually taken (in `[0,1]` for LMO steps; 1/(Lyy+beta_t) for PO steps).
    pub gamma: f64,
}

/// One iterative method for `min_x max_y L(x,y)`: the trait a new solver implements.
///
/// Required: a name, `init`, `step` (returning the step's parameters) and read access to the
/// iterates. Everything else has a default: a solver that does not smooth the dual needs to
/// know nothing about smoothing ([`Solver::beta_at`] is 0), and the harness measures `H_t`
/// around the `y0` it passed to `init`.
pub trait Solver: Send {
    /// Name, e.g. `lmo-lmo` (the registry's); a solver parameterised by a variant may build
    /// it at run time and return a borrow of its own field.
    fn name(&self) -> &str;
    /// Sets the iterates to `(x0, y0)`; `y0` is also the smoothing reference point.
    fn init(&mut self, problem: &dyn SaddleProblem, x0: &[f64], y0: &[f64]);
    /// Performs iteration t: `(x_t, y_t) -> (x_{t+1}, y_{t+1})`.
    fn step(&mut self, problem: &dyn SaddleProblem, t: usize) -> StepInfo;
    /// Current primal iterate x_t.
    fn x(&self) -> &[f64];
    /// Current dual iterate y_t.
    fn y(&self) -> &[f64];
    /// beta_t of the dual smoothing (`eq:fL:mu`) at iteration t, centred at the initial dual
    /// iterate y0. `saddlefw run`, `verify` and [`crate::gate::RateCheck`] measure `H_t` at
    /// checkpoint t with it (the theorems leave the constant of `beta_t` free), and the
    /// `schedule` gate checks it against the entry's hypotheses (`verify::schedule_check`); a
    /// solver that returns 0 where the entry's `beta_t` is positive is measured with the
    /// entry's. Default: 0 (no smoothing).
    fn beta_at(&self, _t: usize) -> f64 {
        0.0
    }
    /// The parameters in their round-trip notation, e.g.
    /// `tau=anytime(c=1,a=0.75); beta=zero` (written into RUN.json as "schedule").
    fn schedule(&self) -> String {
        String::new()
    }
    /// Where the update rule comes from (the paper's label, or the baseline's
    /// VERIFIED/RECONSTRUCTED/GUESSED status from baselines.md).
    fn provenance(&self) -> &'static str {
        ""
    }
}

/// A boxed solver is a solver (what [`Built::solver`] and the controls hand out).
impl<S: Solver + ?Sized> Solver for Box<S> {
    fn name(&self) -> &str {
        (**self).name()
    }
    fn init(&mut self, problem: &dyn SaddleProblem, x0: &[f64], y0: &[f64]) {
        (**self).init(problem, x0, y0)
    }
    fn step(&mut self, problem: &dyn SaddleProblem, t: usize) -> StepInfo {
        (**self).step(problem, t)
    }
    fn x(&self) -> &[f64] {
        (**self).x()
    }
    fn y(&self) -> &[f64] {
        (**self).y()
    }
    fn beta_at(&self, t: usize) -> f64 {
        (**self).beta_at(t)
    }
    fn schedule(&self) -> String {
        (**self).schedule()
    }
    fn provenance(&self) -> &'static str {
        (**self).provenance()
    }
}

/// Panics unless `(x0, y0)` has the sets' dimensions: the precondition of a run and of
/// [`Solver::init`] (which cannot return an error), said with both lengths.
pub(crate) fn check_start(problem: &dyn SaddleProblem, x0: &[f64], y0: &[f64]) {
    for (name, v, set) in [("x0", x0, problem.x_set()), ("y0", y0, problem.y_set())] {
        assert!(
            v.len() == set.dim(),
            "{name} has length {}, but the problem's {} set has dimension {} (a start point of the instance's dimensions is the precondition of a run and of Solver::init)",
            v.len(),
            if name == "x0" { "X" } else { "Y" },
            set.dim()
        );
    }
}
