//! Algorithms 1-3 of the paper: one dual-dynamic-smoothing solver whose primal and dual
//! oracles are chosen per algorithm (claims.md Sec. 2). All three are simultaneous (Jacobi)
//! updates from `(x_t, y_t)` with the smoothed dual gradient
//! `g_t = grad_y L_{beta_t}(x_t, y_t) = grad_y L(x_t, y_t) - beta_t (y_t - y0)`, `y0` the initial
//! dual iterate (`eq:fL:mu`).
//!
//! | algorithm | label | primal step | dual step |
//! |---|---|---|---|
//! | LMO-LMO | `alg:fw-fw` (L495-507) | `v_t = LMO_X(grad_x L)`, `x_{t+1} = x_t + tau_t (v_t - x_t)` | `u_t = LMO_Y(-g_t)`, `y_{t+1} = y_t + gamma_t (u_t - y_t)` |
//! | LMO-PO | `alg:fw-proj` (L584-596) | as LMO-LMO | `y_{t+1} = PO_Y(y_t + g_t/(Lyy + beta_t))` |
//! | PO-LMO | `alg:proj-fw` (L597-609) | `x_{t+1} = PO_X(x_t - tau_t grad_x L)` | as LMO-LMO |
//!
//! with `gamma_t = min{g_t^T(u_t - y_t)/((Lyy+beta_t)||u_t - y_t||^2), 1}` ([`steps::short_step`]).
//! LMO primal steps use `tau_t` clipped to `[0,1]`. Construction requires `max{beta_t, mu} > 0`
//! (L1474): a zero smoothing schedule with `mu = 0` is an error.
//!
//! ```
//! use saddlefw::generators::GeneratorSpec;
//! use saddlefw::solvers::{DualSmoothing, Schedule, Solver};
//! let inst: saddlefw::Instance = "quadratic/nc-c:dx=4,dy=3,seed=1".parse::<GeneratorSpec>()
//!     .unwrap().generate().unwrap();
//! let k = inst.problem.constants();
//! let tau = Schedule::Anytime { c: 1.0, a: 5.0 / 6.0 };
//! let beta = Schedule::Anytime { c: 1.0, a: 1.0 / 6.0 };
//! let mut s = DualSmoothing::lmo_lmo(tau, beta, &k).unwrap();
//! s.init(inst.problem.as_ref(), &inst.x0, &inst.y0);
//! let info = s.step(inst.problem.as_ref(), 0);
//! assert_eq!(info.tau, 1.0); // tau_0 = 1: x_1 is a vertex of X
//! assert!((0.0..=1.0).contains(&info.gamma));
//! ```

use super::schedule::Schedule;
use super::steps;
use super::{Solver, StepInfo};
use crate::problems::{Constants, SaddleProblem};
use crate::sets::RankOne;
use crate::{Error, Result};

use super::fault::Fault;
use crate::paper::Algorithm;
pub use crate::paper::Oracle;

/// Algorithms 1-3 (see the module documentation).
pub struct DualSmoothing {
    algorithm: Algorithm,
    tau: Schedule,
    beta: Schedule,
    /// The one hook for negative controls inside the step ([`super::control`] applies every
    /// control): a fault inside one iteration (`constant-tau` and `extra-projection` are applied
    /// outside and ignored here), or the
    /// legitimate `float-order` variant. `Fault::None` and `false`: the algorithm as printed.
    fault: Fault,
    float_order: bool,
    lyy: f64,
    x: Vec<f64>,
    y: Vec<f64>,
    y0: Vec<f64>,
    gx: Vec<f64>,
    gy: Vec<f64>,
    g: Vec<f64>,
    bx: Vec<f64>,
    /// Factors of the last rank-one primal vertex (scratch of [`steps::primal_fw_step`]).
    vertex: RankOne,
    by: Vec<f64>,
    by2: Vec<f64>,
    /// `x_{t-1}` (the `stale-gradient` defect only).
    x_prev: Vec<f64>,
}

impl DualSmoothing {
    /// The smoothing reference point y0 (= the initial dual iterate, `eq:fL:mu`).
    pub fn y_ref(&self) -> &[f64] {
        &self.y0
    }
    /// Builds an algorithm with schedules `tau_t`, `beta_t` for a problem with `constants`.
    /// Errors when `max{beta_t, mu} > 0` fails (a zero `beta` with `mu = 0`), when a schedule is
    /// out of its domain, or when an LMO-PO dual step `1/(Lyy + beta_t)` would be infinite.
    pub fn new(
        algorithm: Algorithm,
        tau: Schedule,
        beta: Schedule,
        constants: &Constants,
    ) -> Result<Self> {
        tau.validate()?;
        beta.validate()?;
        let name = algorithm.name();
        if !beta.is_positive() && constants.mu <= 0.0 {
            return Err(Error::invalid(
                format!("{name} smoothing"),
                format!(
                    "beta_t = {beta} is not positive and mu = {}: max{{beta_t, mu}} > 0 is required (L1474)",
                    constants.mu
                ),
            ));
        }
        if algorithm.oracles().1 == Oracle::Po && !beta.is_positive() && constants.lyy <= 0.0 {
            return Err(Error::invalid(
                format!("{name} dual step"),
                "1/(Lyy + beta_t) is infinite: Lyy = 0 and beta_t = 0",
            ));
        }
        Ok(DualSmoothing {
            algorithm,
            tau,
            beta,
            fault: Fault::None,
            float_order: false,
            lyy: constants.lyy,
            x: Vec::new(),
            y: Vec::new(),
            y0: Vec::new(),
            gx: Vec::new(),
            gy: Vec::new(),
            g: Vec::new(),
            bx: Vec::new(),
            vertex: RankOne::default(),
            by: Vec::new(),
            by2: Vec::new(),
            x_prev: Vec::new(),
        })
    }
    /// Algorithm 1 (`alg:fw-fw`).
    pub fn lmo_lmo(tau: Schedule, beta: Schedule, constants: &Constants) -> Result<Self> {
        Self::new(Algorithm::LmoLmo, tau, beta, constants)
    }
    /// Algorithm 2 (`alg:fw-proj`).
    pub fn lmo_po(tau: Schedule, beta: Schedule, constants: &Constants) -> Result<Self> {
        Self::new(Algorithm::LmoPo, tau, beta, constants)
    }
    /// Algorithm 3 (`alg:proj-fw`).
    pub fn po_lmo(tau: Schedule, beta: Schedule, constants: &Constants) -> Result<Self> {
        Self::new(Algorithm::PoLmo, tau, beta, constants)
    }
    /// Injects a fault inside the step (negative controls only, applied by
    /// [`super::control`]).
    pub(super) fn with_step_fault(mut self, fault: Fault) -> Self {
        self.fault = fault;
        self
    }
    /// The same update with its floating-point operations in another order (the `float-order`
    /// control, a legitimate variant).
    pub(super) fn with_float_order(mut self) -> Self {
        self.float_order = true;
        self
    }
    /// The same algorithm with another primal schedule (the `constant-tau` control).
    pub(super) fn with_tau(mut self, tau: Schedule) -> Self {
        self.tau = tau;
        self
    }
    /// Which algorithm this is.
    pub fn algorithm(&self) -> Algorithm {
        self.algorithm
    }
    /// The primal step schedule.
    pub fn tau(&self) -> &Schedule {
        &self.tau
    }
    /// The smoothing schedule.
    pub fn beta(&self) -> &Schedule {
        &self.beta
    }
}

impl Solver for DualSmoothing {
    fn name(&self) -> &'static str {
        self.algorithm.name()
    }
    fn init(&mut self, problem: &dyn SaddleProblem, x0: &[f64], y0: &[f64]) {
        // a precondition of Solver::init (the harness passes the instance's start point)
        super::check_start(problem, x0, y0);
        self.lyy = problem.constants().lyy;
        let (dx, dy) = (x0.len(), y0.len());
        self.x = x0.to_vec();
        self.y = y0.to_vec();
        self.y0 = y0.to_vec();
        self.gx = vec![0.0; dx];
        self.bx = vec![0.0; dx];
        self.gy = vec![0.0; dy];
        self.g = vec![0.0; dy];
        self.by = vec![0.0; dy];
        self.by2 = vec![0.0; dy];
        self.x_prev = if self.fault == Fault::StaleGradient {
            x0.to_vec()
        } else {
            Vec::new()
        };
    }
    fn step(&mut self, p: &dyn SaddleProblem, t: usize) -> StepInfo {
        let (primal, dual) = self.algorithm.oracles();
        let fault = self.fault;
        let beta = self.beta.at(t);
        let tau_raw = self.tau.at(t);
        if fault == Fault::StaleGradient {
            // the primal gradient at (x_{t-1}, y_t), the dual one at (x_t, y_t)
            p.grad_x(&self.x_prev, &self.y, &mut self.gx);
            p.grad_y(&self.x, &self.y, &mut self.gy);
            self.x_prev.copy_from_slice(&self.x);
        } else {
            match primal {
                Oracle::Lmo => p.step_grads(&self.x, &self.y, &mut self.gx, &mut self.gy),
                Oracle::Po => p.grads(&self.x, &self.y, &mut self.gx, &mut self.gy),
            }
        }
        if fault == Fault::PrimalSignFlip {
            self.gx.iter_mut().for_each(|v| *v = -*v);
        }
        let tau = match primal {
            Oracle::Lmo => {
                let tau = tau_raw.clamp(0.0, 1.0);
                if self.float_order {
                    steps::fw_step_reordered(p.x_set(), &mut self.x, &self.gx, tau, &mut self.bx);
                } else {
                    steps::primal_fw_step(
                        p,
                        &mut self.x,
                        &self.gx,
                        tau,
                        &mut self.bx,
                        &mut self.vertex,
                    );
                }
                tau
            }
            Oracle::Po => {
                po_step(
                    self.fault,
                    self.float_order,
                    p.x_set(),
                    &mut self.x,
                    &self.gx,
                    -tau_raw,
                    &mut self.bx,
                );
                tau_raw
            }
        };
        if fault == Fault::DualAtNextX {
            p.grad_y(&self.x, &self.y, &mut self.gy);
        }
        let beta_in_gradient = if fault == Fault::BetaIgnored {
            0.0
        } else {
            beta
        };
        if self.float_order {
            steps::smoothed_gradient_reordered(
                &self.gy,
                &self.y,
                &self.y0,
                beta_in_gradient,
                &mut self.g,
            );
        } else {
            steps::smoothed_gradient(&self.gy, &self.y, &self.y0, beta_in_gradient, &mut self.g);
        }
        let mut curvature = self.lyy + beta;
        if fault == Fault::DualStepDoubled {
            curvature *= 0.5;
        }
        if fault == Fault::DualSkipOdd && t % 2 == 1 {
            return StepInfo {
                tau,
                beta,
                gamma: 0.0,
            };
        }
        let gamma = match dual {
            Oracle::Lmo => steps::dual_lmo_step(
                p.y_set(),
                &mut self.y,
                &self.g,
                curvature,
                fault != Fault::GammaUnclipped,
                &mut self.by,
                &mut self.by2,
            ),
            Oracle::Po => {
                let gamma = 1.0 / curvature;
                po_step(
                    self.fault,
                    self.float_order,
                    p.y_set(),
                    &mut self.y,
                    &self.g,
                    gamma,
                    &mut self.by,
                );
                gamma
            }
        };
        StepInfo { tau, beta, gamma }
    }
    fn x(&self) -> &[f64] {
        &self.x
    }
    fn y(&self) -> &[f64] {
        &self.y
    }
    fn beta_at(&self, t: usize) -> f64 {
        self.beta.at(t)
    }
    fn schedule(&self) -> String {
        format!("tau={}; beta={}", self.tau, self.beta)
    }
    fn provenance(&self) -> &'static str {
        self.algorithm.provenance()
    }
}

/// The projected step `x <- PO(x + s d)`, or its `clip-not-project` / `float-order` variant.
fn po_step(
    fault: Fault,
    float_order: bool,
    set: &dyn crate::sets::ConvexSet,
    x: &mut [f64],
    d: &[f64],
    s: f64,
    z: &mut [f64],
) {
    if fault == Fault::ClipNotProject {
        steps::clipped_step(set, x, d, s, z)
    } else if float_order {
        steps::po_step_fused(set, x, d, s, z)
    } else {
        steps::po_step(set, x, d, s, z)
    }
}
