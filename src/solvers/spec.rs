//! The one construction path: what to build ([`SolverSpec`]: a registry algorithm, the
//! overrides of its defaults, an optional negative control) -> [`super::registry::build_spec`]
//! (also `SolverSpec::build`) -> [`super::Built`] (the solver, its theorem case, notes and default sigma, each worked out
//! once). `run`, `check`, `verify`, `tighten` and `experiment` all build their solvers here.
//!
//! ```
//! use saddlefw::generators::GeneratorSpec;
//! use saddlefw::solvers::{Control, Fault, Options, SolverSpec};
//! let inst = "quadratic/c-c:dx=3,dy=2,seed=1".parse::<GeneratorSpec>().unwrap().generate().unwrap();
//! let p = inst.problem.as_ref();
//! let built = SolverSpec::new("lmo-lmo").build(p).unwrap();
//! assert_eq!(built.solver.name(), "lmo-lmo");
//! // a control applies to Algorithms 1-3 only
//! let spec = SolverSpec::new("sp-fw").control(Some(Control::Fault(Fault::GammaUnclipped)));
//! assert!(spec.build(p).is_err());
//! // overrides are the typed `run` options
//! let o = Options { b: Some(0.3), ..Options::default() };
//! assert!(SolverSpec::new("lmo-po").options(o).build(p).unwrap().solver.schedule().contains("0.3"));
//! ```

use super::control::Control;
use super::options::Options;
use crate::paper::Algorithm;

/// What to build: one of the registry's algorithms, the overrides of its defaults (the typed
/// `run` options; `None` fields keep the theorem-case defaults) and an optional negative
/// control (Algorithms 1-3 only).
#[derive(Debug, Clone, PartialEq)]
pub struct SolverSpec {
    /// Registry name, e.g. `lmo-lmo`.
    pub algorithm: String,
    /// Overrides of the algorithm's defaults.
    pub options: Options,
    /// A deliberately broken variant ([`Control`]), for negative controls.
    pub control: Option<Control>,
}

impl SolverSpec {
    /// The algorithm called `algorithm` with its defaults.
    pub fn new(algorithm: impl Into<String>) -> Self {
        SolverSpec {
            algorithm: algorithm.into(),
            options: Options::default(),
            control: None,
        }
    }
    /// One of Algorithms 1-3 with its defaults.
    pub fn paper(algorithm: Algorithm) -> Self {
        Self::new(algorithm.name())
    }
    /// With these overrides.
    pub fn options(mut self, options: Options) -> Self {
        self.options = options;
        self
    }
    /// With this negative control (or none).
    pub fn control(mut self, control: Option<Control>) -> Self {
        self.control = control;
        self
    }
}
