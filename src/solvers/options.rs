//! What a user may choose when building a solver ([`Options`], the `run` flags as typed
//! values): read by the registry ([`super::registry`]) and by the paper algorithms' schedule
//! defaults ([`super::defaults::resolve_paper`]).
//!
//! ```
//! use saddlefw::solvers::Options;
//! let o = Options { a: Some(0.8), ..Options::default() };
//! assert_eq!((o.a, o.b, o.horizon), (Some(0.8), None, None));
//! ```

use super::schedule::Schedule;
use crate::problems::SaddleProblem;

/// User choices for building a solver (the `run` flags). `None` means "the default".
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Options {
    /// Exponent a of `tau_t` (paper algorithms).
    pub a: Option<f64>,
    /// Exponent b of `beta_t` (paper algorithms).
    pub b: Option<f64>,
    /// C of `beta_t = C (t+1)^-b` (paper algorithms); the regularisation mu (R-PDCG, CG-RPGA).
    pub beta0: Option<f64>,
    /// tau0 of `tau_t = tau0 (t+1)^-a` (paper algorithms); the constant tau (R-PDCG, CG-RPGA).
    pub tau0: Option<f64>,
    /// An explicit tau schedule (paper algorithms).
    pub tau: Option<Schedule>,
    /// An explicit beta schedule (paper algorithms).
    pub beta: Option<Schedule>,
    /// Horizon K of the horizon-dependent baselines (R-PDCG, CG-RPGA).
    pub horizon: Option<usize>,
    /// The constants the parameter formulas use instead of the problem's certified ones
    /// (AGP's Xu Thm 3.1/3.2 values, R-PDCG's alpha, CG-RPGA's sigma, the schedules' checks).
    /// The experiments pass the paper's appendix constants, as the paper did (claims.md 2.4).
    /// Not a command-line flag; every algorithm accepts it.
    pub constants: Option<crate::problems::Constants>,
}

impl Options {
    /// `constants` when given, else the problem's certified constants.
    pub(crate) fn constants_for(&self, p: &dyn SaddleProblem) -> crate::problems::Constants {
        self.constants.unwrap_or_else(|| p.constants())
    }
}

/// How the library's errors name the [`Options`] fields and the algorithm (`Options::a`, ...),
/// with the `run` flag the command line shows instead (`--a`, ...: the CLI maps them back,
/// [`with_flags`]).
const NAMES: &[(&str, &str)] = &[
    ("Options::a", "--a"),
    ("Options::b", "--b"),
    ("Options::beta0", "--beta0"),
    ("Options::tau0", "--tau0"),
    ("Options::tau", "--tau-schedule"),
    ("Options::beta", "--beta-schedule"),
    ("Options::horizon", "--horizon"),
    ("AlgorithmInfo::name", "--algo"),
];

/// The library's name of the `run` flag `flag` (`--a` -> `Options::a`; other flags as given).
pub(crate) fn name_of(flag: &str) -> &str {
    NAMES
        .iter()
        .find(|(_, f)| *f == flag)
        .map_or(flag, |(n, _)| n)
}

/// `text` with every library name of [`NAMES`] replaced by its flag (a whole name only:
/// `Options::tau` is not the start of `Options::tau0`): the CLI's view of a library error.
pub(crate) fn with_flags(text: &str) -> String {
    let mut out = text.to_string();
    for (name, flag) in NAMES {
        let mut done = String::with_capacity(out.len());
        let mut rest = out.as_str();
        while let Some(i) = rest.find(name) {
            let after = &rest[i + name.len()..];
            let whole = !after.starts_with(|c: char| c.is_ascii_alphanumeric() || c == '_');
            done.push_str(&rest[..i]);
            done.push_str(if whole { flag } else { name });
            rest = after;
        }
        done.push_str(rest);
        out = done;
    }
    out
}
