//! The common skeleton of R-PDCG and CG-RPGA (Boroun, Yazdandoost Hamedani, Jalilzadeh,
//! NeurIPS 2023, Algorithms 1 and 2), as reconstructed in `../shared/spec/baselines.md`
//! Secs. 2-3: a regularised dual step first, then a primal Frank-Wolfe step at the new dual
//! iterate (the "nested approximation" reading; the order is GUESSED, the alternative being
//! simultaneous updates). Horizon-K constants: a constant primal step tau and a constant
//! regularisation mu of `L_mu(x,y) = L(x,y) - mu/2 ||y - y0||^2` (centre y0, our smoothing
//! reference; baselines.md 2.4 notes the centre is immaterial in both experiments).
//!
//! ```text
//! for k = 0, 1, ...
//!     g_k     = grad_y L(x_k, y_k) - mu (y_k - y0)
//!     y_{k+1} = dual step (R-PDCG: FW step with sigma_k; CG-RPGA: P_Y(y_k + sigma g_k))
//!     x_{k+1} = x_k + tau (LMO_X(grad_x L(x_k, y_{k+1})) - x_k)
//! ```
//! `tau` is clipped to `[0,1]` like every LMO step here.
//!
//! ```
//! use saddlefw::solvers::boroun::candidate_a;
//! // sigma_k = min{1, alpha ||g|| / (4 curvature)}
//! assert_eq!(candidate_a(1.0, 2.0, 1.0), 0.5);
//! assert_eq!(candidate_a(1.0, 100.0, 1.0), 1.0);
//! // zero curvature: a full step unless g = 0
//! assert_eq!((candidate_a(1.0, 3.0, 0.0), candidate_a(1.0, 0.0, 0.0)), (1.0, 0.0));
//! assert!(candidate_a(1.0, f64::NAN, 0.0).is_nan());
//! ```

use super::steps;
use super::{Solver, StepInfo};
use crate::problems::SaddleProblem;

/// The dual step rule.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum DualRule {
    /// R-PDCG: `u = LMO_Y(-g_k)`, `y_{k+1} = y_k + sigma_k (u - y_k)` with candidate A,
    /// `sigma_k = min{1, alpha_Y ||g_k|| / (4 (L_yy + mu))}` (GUESSED, baselines.md 2.3).
    CgStronglyConvex { alpha: f64 },
    /// CG-RPGA: `y_{k+1} = P_Y(y_k + sigma g_k)` with a constant sigma (baselines.md 3.2).
    ProjectedAscent { sigma: f64 },
}

/// R-PDCG / CG-RPGA (see the module documentation).
pub struct Boroun {
    name: &'static str,
    provenance: &'static str,
    tau: f64,
    mu: f64,
    rule: DualRule,
    lyy: f64,
    x: Vec<f64>,
    y: Vec<f64>,
    y0: Vec<f64>,
    gx: Vec<f64>,
    gy: Vec<f64>,
    g: Vec<f64>,
    bx: Vec<f64>,
    by: Vec<f64>,
    by2: Vec<f64>,
}

/// `sigma_k = min{1, alpha ||g|| / (4 curvature)}` (R-PDCG candidate A); a zero curvature
/// gives 1 (0 when `g = 0`).
pub fn candidate_a(alpha: f64, g_norm: f64, curvature: f64) -> f64 {
    if curvature > 0.0 {
        (alpha * g_norm / (4.0 * curvature)).min(1.0)
    } else if g_norm > 0.0 {
        1.0
    } else if g_norm.is_nan() {
        f64::NAN
    } else {
        0.0
    }
}

impl Boroun {
    pub(crate) fn new(
        name: &'static str,
        provenance: &'static str,
        tau: f64,
        mu: f64,
        rule: DualRule,
        lyy: f64,
    ) -> Self {
        Boroun {
            name,
            provenance,
            tau,
            mu,
            rule,
            lyy,
            x: Vec::new(),
            y: Vec::new(),
            y0: Vec::new(),
            gx: Vec::new(),
            gy: Vec::new(),
            g: Vec::new(),
            bx: Vec::new(),
            by: Vec::new(),
            by2: Vec::new(),
        }
    }
    /// The constant primal step (after clipping).
    pub fn tau(&self) -> f64 {
        self.tau.clamp(0.0, 1.0)
    }
    /// The regularisation mu.
    pub fn mu(&self) -> f64 {
        self.mu
    }
}

impl Solver for Boroun {
    fn name(&self) -> &'static str {
        self.name
    }
    fn init(&mut self, problem: &dyn SaddleProblem, x0: &[f64], y0: &[f64]) {
        self.lyy = problem.constants().lyy;
        self.x = x0.to_vec();
        self.y = y0.to_vec();
        self.y0 = y0.to_vec();
        self.gx = vec![0.0; x0.len()];
        self.bx = vec![0.0; x0.len()];
        self.gy = vec![0.0; y0.len()];
        self.g = vec![0.0; y0.len()];
        self.by = vec![0.0; y0.len()];
        self.by2 = vec![0.0; y0.len()];
    }
    fn step(&mut self, p: &dyn SaddleProblem, _t: usize) -> StepInfo {
        p.grad_y(&self.x, &self.y, &mut self.gy);
        steps::smoothed_gradient(&self.gy, &self.y, &self.y0, self.mu, &mut self.g);
        let gamma = match self.rule {
            DualRule::CgStronglyConvex { alpha } => {
                for (n, gi) in self.by.iter_mut().zip(&self.g) {
                    *n = -gi;
                }
                p.y_set().lmo(&self.by, &mut self.by2);
                let sigma = candidate_a(alpha, crate::linalg::norm(&self.g), self.lyy + self.mu);
                steps::move_towards(&mut self.y, &self.by2, sigma);
                sigma
            }
            DualRule::ProjectedAscent { sigma } => {
                steps::po_step(p.y_set(), &mut self.y, &self.g, sigma, &mut self.by);
                sigma
            }
        };
        p.grad_x(&self.x, &self.y, &mut self.gx);
        let tau = self.tau();
        steps::fw_step(p.x_set(), &mut self.x, &self.gx, tau, &mut self.bx);
        StepInfo {
            tau,
            beta: self.mu,
            gamma,
        }
    }
    fn x(&self) -> &[f64] {
        &self.x
    }
    fn y(&self) -> &[f64] {
        &self.y
    }
    fn beta_at(&self, _t: usize) -> f64 {
        self.mu
    }
    fn schedule(&self) -> String {
        use super::schedule::fmt_num as n;
        let dual = match self.rule {
            DualRule::CgStronglyConvex { alpha } => {
                format!("sigma=min{{1, {} ||g||/(4 (Lyy + mu))}}", n(alpha))
            }
            DualRule::ProjectedAscent { sigma } => format!("sigma=const({})", n(sigma)),
        };
        format!(
            "tau=const({}); mu=const({}); {dual}",
            n(self.tau()),
            n(self.mu)
        )
    }
    fn provenance(&self) -> &'static str {
        self.provenance
    }
}
