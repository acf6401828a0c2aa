//! # saddlefw
//!
//! Executable checks of the claims of *Projection-Free Algorithms for Minimax Problems*
//! (the paper; labels such as `lemma:calculus` refer to its `\label`s), with fast solvers.
//!
//! ## Verify your own solver
//!
//! Implement [`solvers::Solver`] (or wrap a closure with [`gate::step_fn`]), pick theorem
//! entries, and the harness judges your iterates with the machinery of `saddlefw verify`:
//! random instance families, stored hard instances, fits, envelopes and gates, every measure
//! computed by the harness itself. Here Algorithm 1 with `beta_t = 0` (`alg:fw-fw`) as a
//! closure, against the built-in entry of the strongly-concave case:
//!
//! ```
//! use saddlefw::prelude::*;
//!
//! let check = RateCheck::builtin("lmo-lmo/c-sc+sc/primal")
//!     .sizes(TierConfig { seeds: 2, t_max: 256, dim_x: 6, dim_y: 4 })
//!     .solver_fn("my-fw", |req: &SolverRequest| {
//!         let (a, lyy) = (req.entry.schedule.abc().0, req.constants.lyy);
//!         Ok(Box::new(step_fn("my-fw", move |p: &dyn SaddleProblem, x: &mut [f64], y: &mut [f64], t| {
//!             let (mut gx, mut gy) = (vec![0.0; x.len()], vec![0.0; y.len()]);
//!             p.grads(x, y, &mut gx, &mut gy);
//!             let (mut v, mut u) = (vec![0.0; x.len()], vec![0.0; y.len()]);
//!             p.x_set().lmo(&gx, &mut v);
//!             p.y_set().lmo(&gy.iter().map(|g| -g).collect::<Vec<_>>(), &mut u);
//!             let d: Vec<f64> = u.iter().zip(y.iter()).map(|(u, y)| u - y).collect();
//!             let dd: f64 = d.iter().map(|d| d * d).sum();
//!             let slope: f64 = gy.iter().zip(&d).map(|(g, d)| g * d).sum();
//!             let gamma = if dd > 0.0 { (slope / (lyy * dd)).clamp(0.0, 1.0) } else { 0.0 };
//!             let tau = (t as f64 + 1.0).powf(-a);
//!             x.iter_mut().zip(&v).for_each(|(x, v)| *x += tau * (v - *x));
//!             y.iter_mut().zip(&d).for_each(|(y, d)| *y += gamma * d);
//!             StepInfo { tau, beta: 0.0, gamma }
//!         })))
//!     });
//! let outcome = check.run().unwrap();
//! outcome.assert_passed(); // panics naming each failed gate, entry, instance and a command
//! assert_eq!(outcome.report.solver.as_deref(), Some("my-fw"));
//! ```
//!
//! Your own claims go in a theorem file ([`paper::user`]; `RateCheck::theorems_file`), and
//! solvers in any language use the file route (`saddlefw export`, `verify-iterates`).
//!
//! ## Data flow
//!
//! ```text
//! generator spec / problem file ─► Instance ─┐
//!                solver registry ─► Solver  ─┴─► run loop ─► Trace (RUN.json)
//!                                                     │
//!   saddlefw run ─────────────────────────────────────┤ one run
//!   saddlefw check:  invariant suite ────────────────┤ many runs + points ─► CHECK.json
//!   saddlefw verify: theorem table ─► verify driver ─► fit + envelopes ─► VerifyReport (verify.json)
//!                                                                        └─► report (HTML pages)
//! ```
//!
//! From the library: [`GeneratorSpec`](generators::GeneratorSpec) builds the [`Instance`],
//! [`solvers::registry`] the solver, [`prelude::run`] is the run loop and returns a
//! [`Trace`](gate::record::Trace) (example in [`prelude`]); [`theorems`] is the theorem table
//! and [`gate::RateCheck`] the verify driver, returning a
//! [`VerifyReport`](gate::record::VerifyReport) in its [`Outcome`](gate::Outcome). The run
//! loop, the invariant suite and the driver themselves live in the internal modules `harness`,
//! `invariants` and `verify`.
//!
//! ## The documented surface
//!
//! * [`prelude`]: what gating a solver needs (`use saddlefw::prelude::*;`); [`gate`] is
//!   [`gate::RateCheck`], the harness of `saddlefw verify` as a library call.
//! * [`paper`] is the paper's vocabulary in one low layer: settings and assumptions, the
//!   identity of Algorithms 1-3 (name, label, oracles, default sigma) and the theorem table
//!   loaded from `fixtures/theorems.json`; [`paper::user`] reads a user's own theorem file.
//!   [`theorems`] is the same table as the verifier reads it.
//! * [`problems`] holds the [`SaddleProblem`] trait and the families;
//!   [`problems::quadratic::QuadraticFile`] reads problem files. [`sets`] holds the
//!   [`ConvexSet`] trait (a set of your own implements its LMO; projection, membership,
//!   diameter and modulus are optional) and the built-in sets with their exact oracles.
//! * [`generators`] builds seeded [`Instance`]s with certified constants from a spec string
//!   ([`generators::GeneratorSpec`]).
//! * [`solvers`] holds Algorithms 1-3 and the baselines; a solver only steps.
//!   [`solvers::registry`] names them (`--algo`) and builds them with the theorem's schedule
//!   ([`solvers::defaults`], read from the theorem table; values in [`solvers::schedule`]).
//! * [`measures`] computes the paper's gaps exactly (closed forms or certified intervals).
//! * [`iterates`] is the file route's format (`saddlefw export`, `verify-iterates`): the
//!   manifest, the problem and iterate files a solver in any language writes.
//!
//! ## Internals
//!
//! The other modules (`harness`, `counting`, `trace`, `invariants`, `fit`, `envelopes`,
//! `verify`, `report`, `cli`, `experiments`, `data`, `linalg`, ...) are `#[doc(hidden)]`: they
//! are public only for the binary and the crate's own integration tests and benches, with no
//! stability promise. In brief: `harness` is THE run loop (time limit, checkpoints, divergence
//! status, oracle counts from `counting`) and records a `trace::Trace`; `invariants`
//! evaluates every inequality of the paper's lemmas on points and runs; `fit` estimates the
//! observed exponents, `envelopes` the explicit bounds, and `verify` combines them into gated
//! verdicts; `report` renders the HTML/SVG pages; `files` reads, parses and atomically writes
//! the user's files; `cli` is the command line (exit codes 0/1/2); `data` reads LIBSVM data
//! for the experiment problems ([`problems::dictionary`], [`problems::dro`]) and
//! `experiments` holds the paper's experimental parameters. Layout and data flow:
//! `docs/architecture.md`.
//!
//! ## Glossary of the paper's symbols
//!
//! | symbol | meaning | where |
//! |---|---|---|
//! | `x`, `y` | primal (minimised) and dual (maximised) variables | `eq:minimax` |
//! | `X`, `Y`, `D_X`, `D_Y` | compact convex sets and their diameters | Assumption 1 (i) |
//! | `L_xx`, `L_yx`, `L_yy` | block Lipschitz constants of the gradients | Assumption 1 (iv) |
//! | `mu` | strong concavity of `L(x, .)` (0: merely concave) | Assumption 1 (ii) |
//! | `alpha` | strong convexity of the set Y | Assumption 2 |
//! | `v_t = LMO_X(grad_x L(x_t, y_t))` | primal Frank-Wolfe vertex | `alg:fw-fw`, `alg:fw-proj` |
//! | `u_t = LMO_Y(-g_t)` | dual Frank-Wolfe vertex | `alg:fw-fw`, `alg:proj-fw` |
//! | `tau_t` | primal step (`(t+1)^-a` in the theorems) | `eq:fw-fw-stepsize` |
//! | `beta_t` | dual smoothing (`C (t+1)^-b`, or 0 when `mu > 0`) | `eq:fL:mu` |
//! | `gamma_t` | dual step (short step clipped to `[0,1]`, or `1/(L_yy + beta_t)`) | `def:cg-seq`, `def:pg-seq` |
//! | `L_beta = L - beta/2 \|\|y - y0\|\|^2` | smoothed payoff, reference `y0` = initial dual iterate | `eq:fL:mu` |
//! | `f(x) = max_y L(x, y)`, `f_beta` | primal function and its smoothing | `eq:primal` |
//! | `y*_beta(x)` | maximiser of `L_beta(x, .)` | `eq:fL:mu` |
//! | `H_t = f_t(x_t) - L_t(x_t, y_t)` | dual suboptimality of the smoothed problem | `eq:H_t` |
//! | `G_X^LMO`, `G_X^PO`, `G_Y`, `G_Y^LMO`, `G^Dual`, `G^Opt` | gap and stationarity measures | `gap:fw`, `gap:proj`, `gap:y`, `gap:opt` |
//!
//! ## Extending
//!
//! * **A set**, in your own crate: implement [`ConvexSet`] for your type (its LMO is required;
//!   projection, membership, diameter and modulus are optional; example in [`sets`]) and use
//!   it in your own [`SaddleProblem`]. As a contribution to saddlefw, so that specs and
//!   `saddlefw list` name it: one file in `src/sets/` implementing [`ConvexSet`] (exact LMO
//!   with deterministic ties, projection, membership, diameter, `strong_convexity`), plus one
//!   variant of [`sets::SetSpec`] (the compiler then asks for its arms in `build`, `kind` and
//!   `fixed_dim`) and one entry of [`sets::SetSpec::KINDS`] (a test compares that list with
//!   the enum, and `saddlefw list` prints it).
//! * **A problem family**: one file in `src/problems/` implementing [`SaddleProblem`] with
//!   certified constants; expose a [`problems::YModel`] when `L` is linear or isotropic-quadratic
//!   in `y` to get closed-form inner solutions; override [`SaddleProblem::step_grads`] and
//!   [`SaddleProblem::note_fw_move`] to update products along rank-one Frank-Wolfe moves
//!   instead of recomputing them (as `problems::dro` does), and
//!   [`SaddleProblem::step_grads_checked`] when your gradient is long and you can check it for
//!   non-finite entries while writing it. For random instances add a variant to
//!   [`generators::Family`] (and to `Family::ALL`, which parsing and `saddlefw list` read) and
//!   its arm in `GeneratorSpec::generate`.
//! * **A theorem entry** for one of Algorithms 1-3: one JSON entry in `fixtures/theorems.json`
//!   (validated by [`paper::theorems`]; an LMO-LMO or LMO-PO entry names the claims.md Sec. 5
//!   bound its envelope evaluates, field `bound`); the default schedules, `verify` and `list`
//!   read it.
//!   A claim of your own (any algorithm name, schedule, quantity, exponent, envelope) is one
//!   entry of a user theorem file ([`paper::user`]; `verify --theorems FILE`), no code.
//! * **A solver**: one file in `src/solvers/` implementing [`solvers::Solver`] (it only steps;
//!   required: `name`, `init`, `step`, `x`, `y`),
//!   plus one entry of [`solvers::registry::ALGORITHMS`] (name, provenance, oracle profile,
//!   accepted options, build function); `run`, `list` and the tests pick it up from there.
//! * **An invariant**: one `invariants::Invariant` entry in the module of its lemma family
//!   (statement, label, hypotheses, check function) and a negative control in
//!   `invariants::controls`.
//! * **A subcommand**: see the `cli` module's documentation (`src/cli/mod.rs`).

// Deliberate patterns of numerical code: `!(a < b)` is true for NaN (a failed check must not
// pass silently), kernels index several arrays with one loop variable, and the certified solves
// take their tolerances and bounds as separate arguments.
#![allow(
    clippy::neg_cmp_op_on_partial_ord,
    clippy::needless_range_loop,
    clippy::too_many_arguments
)]

/// `print!` for the commands' stdout: goes through [`console::write_stdout`], so a closed pipe
/// (`saddlefw list | head -1`) is not a panic.
macro_rules! out {
    ($($t:tt)*) => {
        $crate::console::write_stdout(format_args!($($t)*))
    };
}

/// `println!` for the commands' stdout (see `out!`).
macro_rules! outln {
    () => {
        $crate::console::write_stdout(format_args!("\n"))
    };
    ($($t:tt)*) => {
        $crate::console::write_stdout(format_args!("{}\n", format_args!($($t)*)))
    };
}

// The documented surface (see the crate docs).
pub mod gate;
pub mod generators;
pub mod iterates;
pub mod measures;
pub mod paper;
pub mod problems;
pub mod sets;
pub mod solvers;
pub mod theorems;

// Internals: public for the binary, the integration tests and the benches only.
#[doc(hidden)]
pub mod build_info;
#[doc(hidden)]
pub mod calibration;
#[doc(hidden)]
pub mod cli;
#[doc(hidden)]
pub mod counting;
#[doc(hidden)]
pub mod data;
#[doc(hidden)]
pub mod envelopes;
#[doc(hidden)]
pub mod error;
#[doc(hidden)]
pub mod experiments;
#[doc(hidden)]
pub mod files;
#[doc(hidden)]
pub mod fingerprint;
#[doc(hidden)]
pub mod fit;
#[doc(hidden)]
pub mod harness;
#[doc(hidden)]
pub mod invariants;
#[doc(hidden)]
pub mod jobs;
#[doc(hidden)]
pub mod journal;
#[doc(hidden)]
pub mod ledger;
#[doc(hidden)]
pub mod linalg;
#[doc(hidden)]
pub mod progress;
#[doc(hidden)]
pub mod report;
#[doc(hidden)]
pub mod resume;
#[doc(hidden)]
pub mod spectral;
#[doc(hidden)]
pub mod tightness;
#[doc(hidden)]
pub mod trace;
#[doc(hidden)]
pub mod verify;

// Internals nothing outside the library names.
pub(crate) mod console;
pub(crate) mod interrupt;

pub use error::{Error, Result};
pub use problems::{Constants, Instance, Interval, SaddleProblem};
pub use sets::ConvexSet;

/// What a user of the library needs to run one of the paper's solvers and to gate a solver of
/// their own ([`gate`]): `use saddlefw::prelude::*;`.
///
/// Running Algorithm 1 (`lmo-lmo`, `alg:fw-fw`) with its theorem's schedule on a generated
/// instance and printing the exact measures: [`run`](prelude::run) is the loop of
/// `saddlefw run` (it measures iterate `t` with `beta_t = solver.beta_at(t)`, the `y0` the
/// solver started from and `sigma` = [`BASELINE_SIGMA`](prelude::BASELINE_SIGMA) unless
/// [`RunConfig`](prelude::RunConfig) says otherwise); [`evaluate`](prelude::evaluate) measures
/// any point the same way.
///
/// ```
/// use saddlefw::prelude::*;
///
/// # fn main() -> Result<()> {
/// let inst = "quadratic/c-sc+sc:dx=20,dy=10,seed=7".parse::<GeneratorSpec>()?.generate()?;
/// let mut built = registry::build("lmo-lmo", inst.problem.as_ref(), &Options::default())?;
/// let trace = run(&inst, built.solver.as_mut(), &RunConfig::new(1000));
/// for c in &trace.checkpoints {
///     let m = &c.measures; // measured t = 0, 1, 2, 4, ..., 512 and the last, 1000
///     println!("t={} beta_t={:.2e} G_X^LMO={:.3e} G_Y={:.3e} H_t={:.3e}", c.t, c.beta, m.gx_lmo, m.gy, m.h);
/// }
/// // the last iterate measured by hand, as the loop does
/// let last = trace.checkpoints.last().unwrap();
/// let s = built.solver.as_ref();
/// let beta = s.beta_at(last.t);
/// let m = evaluate(inst.problem.as_ref(), s.x(), s.y(), beta, &inst.y0, BASELINE_SIGMA);
/// assert_eq!((last.t, trace.sigma), (1000, BASELINE_SIGMA));
/// assert!((m.gx_lmo - last.measures.gx_lmo).abs() <= 1e-9 * m.scale);
/// assert!((m.h - last.measures.h).abs() <= 1e-9 * m.scale);
/// # Ok(())
/// # }
/// ```
///
/// Gating a solver of your own: see the crate's front page and [`gate`].
///
/// Nothing here shadows std: [`Result`] has a defaulted error type, so a user's own
/// `Result<T, E>` still compiles, and a solver factory reads the entry's schedule
/// ([`ScheduleSpec`](prelude::ScheduleSpec), the paper's `a`, `b`, `C`) and the resolved `tau_t`, `beta_t`
/// ([`RunSchedules`](prelude::RunSchedules)) from its [`SolverRequest`](prelude::SolverRequest):
///
/// ```
/// use saddlefw::prelude::*;
///
/// fn parse_seed(s: &str) -> Result<u64, std::num::ParseIntError> {
///     s.parse() // std's two-parameter Result, after the glob import
/// }
/// fn steps(req: &SolverRequest) -> Result<(f64, f64)> {
///     let (a, _b, _c) = req.entry.schedule.abc(); // ScheduleSpec
///     let RunSchedules { tau, beta } = *req.schedule;
///     Ok((tau.at(0).powf(a), beta.at(0)))
/// }
/// assert_eq!(parse_seed("7"), Ok(7));
/// let _ = steps; // used as a factory body: RateCheck::builtin(..).solver_fn(name, ..)
/// ```
///
/// The control of the example above: with a one-parameter alias in scope (what this prelude
/// exported before issue 36) the same user code does not compile.
///
/// ```compile_fail
/// mod shadowing {
///     pub type Result<T> = std::result::Result<T, String>;
/// }
/// use shadowing::*;
/// fn parse_seed(s: &str) -> Result<u64, std::num::ParseIntError> {
///     s.parse()
/// }
/// ```
pub mod prelude {
    pub use crate::gate::record::Trace;
    pub use crate::gate::{step_fn, GateFailure, Outcome, RateCheck};
    pub use crate::generators::GeneratorSpec;
    pub use crate::harness::{run, RunConfig};
    pub use crate::measures::{evaluate, PointMeasures};
    pub use crate::paper::theorems::{ScheduleSpec, TheoremEntry};
    pub use crate::paper::Algorithm;
    pub use crate::paper::BASELINE_SIGMA;
    pub use crate::problems::{Constants, Instance, SaddleProblem};
    pub use crate::sets::ConvexSet;
    pub use crate::solvers::defaults::RunSchedules;
    pub use crate::solvers::{registry, Options};
    pub use crate::solvers::{Schedule, Solver, StepInfo};
    pub use crate::verify::{SolverFactory, SolverRequest, Tier, TierConfig};
    pub use crate::{Error, Result};
}
