//! Empirical tightness (issue 10): hard instance families, a search for the instance on which
//! each theorem entry's observed exponent is smallest, the stored hardest instances
//! (`fixtures/hard/<entry-id>.json`), and their gates and tightness records in `verify`.
//!
//! * [`families`]: the hard families and their reproducible JSON specs.
//! * [`search`]: the documented search (`saddlefw tighten`).
//! * `fixture`: the stored format ([`HardFixture`], `fixtures/hard/<entry-id>.json`).
//! * `gate`: the `verify` hook ([`attach`]): hard gates and tightness records.
//! * `cli`: `saddlefw tighten` ([`cmd_tighten`]); [`resume`]: its `--resume` and journal.
//! * this module: evaluation of one entry on one hard instance ([`evaluate`]), the natural
//!   scale of an instance's gaps and the tightness note.
//!
//! ```
//! use saddlefw::generators::GeneratorSpec;
//! use saddlefw::tightness::{natural_scale, note};
//! // the scale rounding noise is judged against: it grows with the problem's constants
//! let inst = "quadratic/c-sc:dx=4,dy=3,seed=2".parse::<GeneratorSpec>().unwrap().generate().unwrap();
//! let k = inst.problem.constants();
//! assert!(natural_scale(&inst) >= k.lxx * k.dx * k.dx + k.lyx * k.dx * k.dy);
//! // observed exponent against the theorem's p = 0.5 with tolerance 0.1
//! assert_eq!(note(0.5, 0.52, None, 0.1), "rate looks tight");
//! assert_eq!(note(0.5, 0.2, Some((0.15, 0.25)), 0.1), "the paper's rate is violated");
//! assert!(note(0.5, 0.9, None, 0.1).starts_with("rate looks loose"));
//! assert!(note(0.5, 0.42, None, 0.1).contains("log factor"));
//! ```

mod cli;
pub mod families;
mod fixture;
mod gate;
pub mod resume;
pub mod search;

pub use crate::verify::hard::{report_tightness, HardResult, TightnessRecord};
pub use cli::{cmd_tighten, TightenArgs};
pub use families::{Family, HardSpec};
pub use fixture::HARD_PROBLEM_PREFIX;
pub use fixture::{
    builtin, default_dir, fixture_file, load_dir, problem_fixture, BelowRate, HardFixture,
    HardSource, SearchRecord, FIXTURE_FORMAT,
};
pub use gate::{attach, table};

use crate::theorems::TheoremEntry;
use crate::verify::controls::Control;
use crate::verify::{self, InstanceRun, RunOrigin};
use crate::Result;

/// Runs `entry` on the hard instance `spec` up to `t_max` (the verify runner's
/// [`verify::run_instance`], so the quantity, fit, envelope and M_hat check are exactly
/// those of `verify`).
pub fn evaluate(
    entry: &TheoremEntry,
    spec: &HardSpec,
    t_max: u64,
    control: Option<Control>,
) -> Result<InstanceRun> {
    evaluate_scaled(entry, spec, t_max, control).map(|(run, _)| run)
}

/// [`evaluate`] and the instance's [`natural_scale`].
pub(crate) fn evaluate_scaled(
    entry: &TheoremEntry,
    spec: &HardSpec,
    t_max: u64,
    control: Option<Control>,
) -> Result<(InstanceRun, f64)> {
    evaluate_with(entry, spec, t_max, &verify::EntrySolver::new(control))
}

/// [`evaluate_scaled`] with the solver `factory` builds (a user's solver on the hard instance).
pub(crate) fn evaluate_with(
    entry: &TheoremEntry,
    spec: &HardSpec,
    t_max: u64,
    factory: &dyn verify::SolverFactory,
) -> Result<(InstanceRun, f64)> {
    let mut built = spec.build()?;
    factory.place_start(&mut built.instance);
    let origin = RunOrigin {
        family: spec.family_name(),
        spec: spec.params_text(),
        seed_index: 0,
        seed: spec.seed,
        // the caller knows the fixture, if any (`HardResult::reproduce`)
        problem: None,
    };
    let mut out = verify::run_instance(&[entry], &built.instance, &origin, t_max, factory)?;
    Ok((out.remove(0).1, natural_scale(&built.instance)))
}

pub use crate::measures::natural_scale;

/// The tightness note of an observed exponent: [`crate::report::tightness_note`] ("rate looks
/// tight", "rate looks loose by about X", "the paper's rate is violated"), saying so when a
/// "tight" exponent is below `p - 0.05` and passes only through the log-factor allowance of
/// the tolerance or through the width of its interval.
pub fn note(p: f64, p_hat: f64, ci: Option<(f64, f64)>, tol: f64) -> String {
    let base = crate::report::tightness_note(p, p_hat, ci, tol);
    if base == "rate looks tight" && p_hat < p - crate::fit::BASE_TOL {
        let why = if p_hat >= p - tol {
            "within the allowance for the log factor"
        } else {
            "within the confidence interval"
        };
        format!(
            "rate looks tight (slower than T^-p by {:.2}, {why})",
            p - p_hat
        )
    } else {
        base
    }
}
