//! Negative controls of the rate gates: deliberately broken variants of Algorithms 1-3.
//!
//! A gate that cannot fail is worthless, so every gate of [`crate::verify`] is run, in the
//! tests, on variants the paper does not analyse and must fail at least one gate. Each variant
//! is the real solver (the one implementation of Algorithms 1-3) built through the one
//! construction path with a [`Control`] ([`crate::solvers::control`] applies it: an altered
//! schedule, a wrapper, or the solver's one step hook): the step code is never copied.
//!
//! | control | what changes | expected to break |
//! |---|---|---|
//! | `constant-tau` | `tau_t = tau_0` for every t | LMO primal steps jump between vertices: G_X^LMO does not decay |
//! | `beta-ignored` | `beta_t` left out of the dual gradient (the schedule still reports it) | mu = 0 cases: the dual LMO step loses its smoothing |
//! | `dual-at-next-x` | dual gradient at `(x_{t+1}, y_t)` instead of `(x_t, y_t)` | a Gauss-Seidel variant the analysis does not cover |
//! | `primal-sign-flip` | primal step in the ascent direction | every primal quantity |
//! | `gamma-unclipped` | the short step without `min{., 1}` | dual LMO steps leave Y |
//! | `tau-exponent+0.15` | `a -> a + 0.15` in `tau_t` (issue 10's "mildly slowed" variant) | only hard instances (a pass on random ones is expected) |
//! | `beta-exponent-0.1` | `b -> b - 0.1` in `beta_t` (the smoothing decays too slowly; issue 10) | the smoothing-bias regime of the hard instances ([`crate::tightness`]) |
//!
//! ```
//! use saddlefw::verify::controls::Control;
//! // every control's name parses back to it, the exponent shifts included
//! let shifts = [Control::TauExponent(0.15), Control::BetaExponent(-0.1)];
//! for c in Control::FAULTS.into_iter().chain(shifts) {
//!     assert_eq!(c.to_string().parse::<Control>().unwrap(), c);
//! }
//! assert_eq!(shifts[0].to_string(), "tau-exponent+0.15");
//! let e = "constant-beta".parse::<Control>().unwrap_err();
//! assert!(e.to_string().contains("\"constant-beta\""), "{e}");
//! assert!("tau-exponent+x".parse::<Control>().is_err());
//! ```

use crate::problems::{Constants, SaddleProblem};
use crate::solvers::defaults::RunSchedules;
use crate::solvers::{Options, Solver, SolverSpec};
use crate::theorems::TheoremEntry;
use crate::{Error, Result};

pub use crate::solvers::control::{Control, Fault};

/// The entry's schedule (resolved into the solvers' schedule types) as `control` alters
/// it ([`Control::schedules`]): the exponent shifts change it, every other control leaves it as
/// the theorem states.
pub(crate) fn controlled_schedules(
    entry: &TheoremEntry,
    k: &Constants,
    control: Option<Control>,
) -> Result<RunSchedules> {
    let s = entry.schedule.resolve(k)?;
    Ok(control.map_or(s, |c| c.schedules(s)))
}

/// The solver an entry is verified with on `problem`: the entry's algorithm with the entry's
/// schedule (both given in full, with the constants `k`), optionally broken by `control`, built
/// through the one construction path ([`SolverSpec`]). The real solver is `control = None`;
/// [`crate::verify::EntrySolver`] is the factory around it.
pub fn build_solver(
    entry: &TheoremEntry,
    problem: &dyn SaddleProblem,
    k: &Constants,
    control: Option<Control>,
) -> Result<Box<dyn Solver>> {
    let s = entry.schedule.resolve(k)?;
    let algorithm = entry.algorithm.solver().ok_or_else(|| {
        Error::invalid(
            format!("entry {}", entry.id),
            format!(
                "algorithm {} has no built-in solver: give the entry a \"solver\" \
                 (lmo-lmo, lmo-po, po-lmo), or verify your own solver (saddlefw::gate, \
                 or verify-iterates)",
                entry.algorithm
            ),
        )
    })?;
    let options = Options {
        tau: Some(s.tau),
        beta: Some(s.beta),
        constants: Some(*k),
        ..Options::default()
    };
    let spec = SolverSpec::paper(algorithm)
        .options(options)
        .control(control);
    Ok(spec.build(problem)?.solver)
}
