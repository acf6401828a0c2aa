//! SP-FW, the saddle-point Frank-Wolfe method of Gidel, Jebara and Lacoste-Julien (AISTATS
//! 2017), their "Algorithm 2" with the open-loop step, as the paper runs it (L3257, L3261).
//!
//! ```text
//! for t = 0, 1, ...
//!     s_x = LMO_X( grad_x L(x_t, y_t) ),  s_y = LMO_Y( -grad_y L(x_t, y_t) )
//!     gamma_t = 2/(t+2)
//!     (x_{t+1}, y_{t+1}) = (1 - gamma_t)(x_t, y_t) + gamma_t (s_x, s_y)
//! ```
//! One gradient evaluation at `(x_t, y_t)` for both blocks (simultaneous), one LMO per block,
//! the same step for x and y, last iterate returned. No constants needed.
//!
//! Provenance (`../shared/spec/baselines.md` Sec. 1): Algorithm 2 = plain SP-FW and the update
//! VERIFIED in the authors' code (`lesteve/SPFW`, `toy examples/SP_FW.m`); the step `2/(t+2)`
//! from t = 0 VERIFIED-2ND (the citing paper; the authors' toy code uses `2/(t+3)`).
//!
//! ```
//! use saddlefw::generators::GeneratorSpec;
//! use saddlefw::solvers::sp_fw::{SpFw, STEP};
//! use saddlefw::solvers::Solver;
//! // gamma_t = 2/(t+2)
//! assert_eq!((STEP.at(0), STEP.at(2), STEP.at(6)), (1.0, 0.5, 0.25));
//! let inst = "saddle/c-c:dx=3,dy=2,seed=5,x=simplex".parse::<GeneratorSpec>().unwrap().generate().unwrap();
//! let p = inst.problem.as_ref();
//! let mut s = SpFw::new();
//! s.init(p, &inst.x0, &inst.y0);
//! // gamma_0 = 1: the first step jumps to an LMO vertex of the simplex
//! assert_eq!(s.step(p, 0).gamma, 1.0);
//! assert_eq!(s.x().iter().filter(|&&v| v != 0.0).count(), 1, "{:?}", s.x());
//! ```

use super::schedule::Schedule;
use super::steps;
use super::{Solver, StepInfo};
use crate::problems::SaddleProblem;

/// Provenance string (RUN.json "provenance").
pub(crate) const PROVENANCE: &str = "VERIFIED: Gidel et al. 2017 Algorithm 2 = plain SP-FW, simultaneous joint FW step (authors' code lesteve/SPFW); step 2/(t+2) from t = 0 VERIFIED-2ND (paper.tex L3257); baselines.md Sec. 1";

/// SP-FW with `gamma_t = 2/(t+2)`.
#[derive(Debug, Default)]
pub struct SpFw {
    x: Vec<f64>,
    y: Vec<f64>,
    gx: Vec<f64>,
    gy: Vec<f64>,
    bx: Vec<f64>,
    by: Vec<f64>,
}

/// The open-loop step `2/(t+2)` as a schedule value.
pub const STEP: Schedule = Schedule::Shifted {
    c: 2.0,
    s: 2.0,
    a: 1.0,
};

impl SpFw {
    /// SP-FW (no parameters).
    pub fn new() -> Self {
        SpFw::default()
    }
}

impl Solver for SpFw {
    fn name(&self) -> &'static str {
        "sp-fw"
    }
    fn init(&mut self, _problem: &dyn SaddleProblem, x0: &[f64], y0: &[f64]) {
        self.x = x0.to_vec();
        self.y = y0.to_vec();
        self.gx = vec![0.0; x0.len()];
        self.bx = vec![0.0; x0.len()];
        self.gy = vec![0.0; y0.len()];
        self.by = vec![0.0; y0.len()];
    }
    fn step(&mut self, p: &dyn SaddleProblem, t: usize) -> StepInfo {
        let gamma = STEP.at(t);
        p.grads(&self.x, &self.y, &mut self.gx, &mut self.gy);
        steps::fw_step(p.x_set(), &mut self.x, &self.gx, gamma, &mut self.bx);
        self.gy.iter_mut().for_each(|v| *v = -*v);
        steps::fw_step(p.y_set(), &mut self.y, &self.gy, gamma, &mut self.by);
        StepInfo {
            tau: gamma,
            beta: 0.0,
            gamma,
        }
    }
    fn x(&self) -> &[f64] {
        &self.x
    }
    fn y(&self) -> &[f64] {
        &self.y
    }
    fn schedule(&self) -> String {
        format!("gamma={STEP}")
    }
    fn provenance(&self) -> &'static str {
        PROVENANCE
    }
}
