//! What `saddlefw check` runs on a case: the solvers ([`SolverSpec`]: Algorithms 1-3 with
//! their theorem-case schedules, optionally with an injected fault for the negative controls,
//! and SP-FW) and the options of a case ([`CaseOptions`]). Shared by [`super::check`] and
//! [`super::controls`].
//!
//! ```
//! use saddlefw::invariants::case::{CaseOptions, SolverSpec, POINTS_PER_CASE};
//! use saddlefw::solvers::smoothing::PaperAlgorithm;
//! let o = CaseOptions::default();
//! assert_eq!((o.points, o.solvers.is_none()), (POINTS_PER_CASE, true));
//! let inst = "quadratic/c-c:dx=3,dy=2,seed=1".parse::<saddlefw::generators::GeneratorSpec>()
//!     .unwrap().generate().unwrap();
//! let (_, _, desc) = SolverSpec::paper(PaperAlgorithm::LmoLmo).build(inst.problem.as_ref()).unwrap();
//! assert!(desc.starts_with("lmo-lmo ["), "{desc}");
//! ```

use super::context::{MeasureSet, Structure, EXACT_MEASURES};
use crate::problems::SaddleProblem;
use crate::solvers::registry::Options;
use crate::solvers::smoothing::{DualSmoothing, Fault, PaperAlgorithm};
use crate::solvers::sp_fw::SpFw;
use crate::solvers::Solver;
use crate::Result;

/// Random points per case.
pub const POINTS_PER_CASE: usize = 4;

/// A solver to run on a case.
#[derive(Debug, Clone, PartialEq)]
pub enum SolverSpec {
    /// One of Algorithms 1-3 with the default theorem-case schedule, optionally overriding
    /// `C` and `b` of `beta_t = C (t+1)^-b`, and an optional injected [`Fault`] (negative
    /// controls: the solver still claims the algorithm's structure).
    Paper {
        alg: PaperAlgorithm,
        beta0: Option<f64>,
        b: Option<f64>,
        fault: Fault,
    },
    /// SP-FW (a primal LMO sequence with step 2/(t+2); its dual step is not one of the paper's).
    SpFw,
}

impl SolverSpec {
    /// A paper algorithm with its defaults.
    pub fn paper(alg: PaperAlgorithm) -> Self {
        SolverSpec::Paper {
            alg,
            beta0: None,
            b: None,
            fault: Fault::None,
        }
    }

    /// Builds the solver for a problem; the structure it claims; a description.
    pub fn build(&self, p: &dyn SaddleProblem) -> Result<(Box<dyn Solver>, Structure, String)> {
        match *self {
            SolverSpec::Paper {
                alg,
                beta0,
                b,
                fault,
            } => {
                let k = p.constants();
                let o = Options {
                    beta0,
                    b,
                    ..Options::default()
                };
                let r =
                    crate::solvers::defaults::resolve_paper(alg.name(), &p.assumptions(), &k, &o)?;
                let s = DualSmoothing::new(alg, r.tau, r.beta, &k)?.with_fault(fault);
                let structure = match alg {
                    PaperAlgorithm::LmoLmo => Structure::LMO_LMO,
                    PaperAlgorithm::LmoPo => Structure::LMO_PO,
                    PaperAlgorithm::PoLmo => Structure::PO_LMO,
                };
                let mut desc = format!("{} [{}]", alg.name(), s.schedule());
                if fault != Fault::None {
                    desc.push_str(&format!(" fault={fault:?}"));
                }
                Ok((Box::new(s), structure, desc))
            }
            SolverSpec::SpFw => Ok((
                Box::new(SpFw::new()),
                Structure {
                    primal: super::context::Oracle::Lmo,
                    dual: super::context::Oracle::Other,
                },
                "sp-fw [gamma_t = 2/(t+2)]".into(),
            )),
        }
    }
}

/// What to run on a case.
#[derive(Clone)]
pub struct CaseOptions {
    pub measures: MeasureSet,
    /// `None`: [`super::check::default_solvers`].
    pub solvers: Option<Vec<SolverSpec>>,
    pub points: usize,
    /// Evaluate Point invariants at every iterate of every run.
    pub points_at_iterates: bool,
    /// Negative control: report `Lxx` and `Lyx` of the random cases multiplied by this factor
    /// (< 1: understated; [`super::controls::Understated`]). The witnesses are left as they are.
    pub understate: Option<f64>,
}

impl Default for CaseOptions {
    fn default() -> Self {
        CaseOptions {
            measures: EXACT_MEASURES,
            solvers: None,
            points: POINTS_PER_CASE,
            points_at_iterates: true,
            understate: None,
        }
    }
}
