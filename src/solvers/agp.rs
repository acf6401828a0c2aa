//! AGP, the unified single-loop alternating gradient projection method of Xu, Zhang, Xu and
//! Lan (Math. Prog. 2023, Algorithm 1), RECONSTRUCTED in `../shared/spec/baselines.md` Sec. 4:
//!
//! ```text
//! k = 1, 2, ...   (iteration t of the run is k = t + 1)
//! x_{k+1} = P_X( x_k - (1/beta_k) grad_x L(x_k, y_k) )                       # b_k = 0
//! y_{k+1} = P_Y( y_k + rho_k (grad_y L(x_{k+1}, y_k) - c_k (y_k - y0)) )     # at the NEW x
//! ```
//! Alternating (Gauss-Seidel): x first, then y at `x_{k+1}` (alternation VERIFIED from the
//! abstract, order RECONSTRUCTED). The regulariser is centred at y0 (baselines.md writes
//! `c_k/2 ||y||^2`; the two agree when y0 = 0, as in the paper's DL experiment; GUESSED).
//!
//! Parameters (values VERIFIED-2ND from the citing paper, L3256-3261):
//! * mu = 0, Xu Thm 3.2 (nonconvex-concave): `eta_bar = rho_bar = 0.05`, `rho_k = rho_bar`,
//!   `c_k = 19/(20 rho_bar k^(1/4))`,
//!   `tau = 2 max{19^2 (L_xx + 2 eta_bar - rho_bar L_y^2)/(20^2 16 rho_bar L_y^2), 2}`,
//!   `beta_k = rho_bar L_y^2 + 16 tau L_y^2/(rho_bar c_k^2) - eta_bar` with `L_y = L_yx`.
//!   beta_k grows like `k^(1/2)`; a problem with `beta_1 <= 0` (tiny L_yx) is rejected.
//! * mu > 0, Xu Thm 3.1 (nonconvex-strongly-concave): `c_k = 0`, `rho = mu/(4 L_yy^2)`,
//!   `beta_k = eta = 2 max{L_xx, L_yx^2 rho + 4 L_yx^2/(rho mu^2)}`.
//!
//! ```
//! use saddlefw::solvers::agp::{AgpParams, RHO_BAR};
//! use saddlefw::Constants;
//! let k = Constants { lxx: 1.0, lyx: 2.0, lyy: 1.0, mu: 0.0, alpha: None, dx: 1.0, dy: 1.0 };
//! // mu = 0 (Xu et al. Thm 3.2): c_k = 19/(20 rho_bar k^(1/4)) decreases, beta_k grows
//! let p = AgpParams::paper(&k).unwrap();
//! assert!((p.c_k(1) - 19.0 / (20.0 * RHO_BAR)).abs() < 1e-12);
//! assert!((p.c_k(16) - p.c_k(1) / 2.0).abs() < 1e-12);
//! assert!(p.beta_k(16) > p.beta_k(1));
//! // mu > 0 (Thm 3.1): no dual regulariser, a constant beta_k
//! let sc = AgpParams::paper(&Constants { mu: 0.5, ..k }).unwrap();
//! assert_eq!(sc.c_k(7), 0.0);
//! assert_eq!(sc.beta_k(1), sc.beta_k(100));
//! ```

use super::schedule::{fmt_num, Schedule};
use super::steps;
use super::{Solver, StepInfo};
use crate::problems::{Constants, SaddleProblem};
use crate::{Error, Result};

/// Provenance string (RUN.json "provenance").
pub(crate) const PROVENANCE: &str = "RECONSTRUCTED: Xu et al. 2023 Algorithm 1 (box unread); alternating updates VERIFIED (abstract), x first then y at x_{k+1} RECONSTRUCTED; Thm 3.1 (mu > 0) / Thm 3.2 (mu = 0) parameter values VERIFIED-2ND (paper.tex L3256-3261); regulariser centred at y0 GUESSED; k starts at 1; baselines.md Sec. 4";

/// `eta_bar = rho_bar = 0.05` (the citing paper's DL values).
pub const ETA_BAR: f64 = 0.05;
/// See [`ETA_BAR`].
pub const RHO_BAR: f64 = 0.05;

/// AGP's parameter regime.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum AgpParams {
    /// Xu Thm 3.2 (nonconvex-concave).
    Concave {
        eta_bar: f64,
        rho_bar: f64,
        /// AGP's analysis constant tau (not a step size).
        tau: f64,
        ly: f64,
    },
    /// Xu Thm 3.1 (nonconvex-strongly-concave).
    StronglyConcave { rho: f64, eta: f64 },
}

impl AgpParams {
    /// Thm 3.2 when `mu = 0`, Thm 3.1 when `mu > 0`; errors when a step would not be a finite
    /// positive number.
    pub fn paper(k: &Constants) -> Result<Self> {
        if k.mu > 0.0 {
            if k.lyy <= 0.0 {
                return Err(Error::invalid(
                    "agp",
                    "Xu Thm 3.1 needs L_yy > 0 (rho = mu/(4 L_yy^2))",
                ));
            }
            let rho = k.mu / (4.0 * k.lyy * k.lyy);
            let eta = 2.0
                * k.lxx
                    .max(k.lyx * k.lyx * rho + 4.0 * k.lyx * k.lyx / (rho * k.mu * k.mu));
            if !(eta.is_finite() && eta > 0.0) {
                return Err(Error::invalid(
                    "agp",
                    format!(
                        "Xu Thm 3.1 gives a primal parameter eta = {eta}: not a positive number"
                    ),
                ));
            }
            return Ok(AgpParams::StronglyConcave { rho, eta });
        }
        let ly = k.lyx;
        if ly.is_nan() || ly <= 0.0 {
            return Err(Error::invalid(
                "agp",
                "Xu Thm 3.2 needs L_yx > 0 (Assumption 1 (iv))",
            ));
        }
        let (eta_bar, rho_bar) = (ETA_BAR, RHO_BAR);
        let tau = 2.0
            * (19.0 * 19.0 * (k.lxx + 2.0 * eta_bar - rho_bar * ly * ly)
                / (400.0 * 16.0 * rho_bar * ly * ly))
                .max(2.0);
        let p = AgpParams::Concave {
            eta_bar,
            rho_bar,
            tau,
            ly,
        };
        let b1 = p.beta_k(1);
        if !(b1.is_finite() && b1 > 0.0) {
            return Err(Error::invalid(
                "agp",
                format!("Xu Thm 3.2 gives beta_1 = {b1} <= 0 for L_yx = {ly} (the primal step 1/beta_k must be positive)"),
            ));
        }
        Ok(p)
    }

    /// The regularisation `c_k` as a schedule in t = k - 1: `19/(20 rho_bar) (t+1)^(-1/4)`.
    pub(crate) fn c_schedule(&self) -> Schedule {
        match *self {
            AgpParams::Concave { rho_bar, .. } => Schedule::Anytime {
                c: 19.0 / (20.0 * rho_bar),
                a: 0.25,
            },
            AgpParams::StronglyConcave { .. } => Schedule::Zero,
        }
    }

    /// `c_k`, k >= 1.
    pub fn c_k(&self, k: usize) -> f64 {
        self.c_schedule().at(k - 1)
    }

    /// `beta_k` (the primal step is `1/beta_k`), k >= 1.
    pub fn beta_k(&self, k: usize) -> f64 {
        match *self {
            AgpParams::Concave {
                eta_bar,
                rho_bar,
                tau,
                ly,
            } => {
                let c = self.c_k(k);
                rho_bar * ly * ly + 16.0 * tau * ly * ly / (rho_bar * c * c) - eta_bar
            }
            AgpParams::StronglyConcave { eta, .. } => eta,
        }
    }

    /// The dual step `rho_bar` or `rho`.
    pub fn dual_step(&self) -> f64 {
        match *self {
            AgpParams::Concave { rho_bar, .. } => rho_bar,
            AgpParams::StronglyConcave { rho, .. } => rho,
        }
    }
}

/// AGP (see the module documentation).
pub struct Agp {
    params: AgpParams,
    x: Vec<f64>,
    y: Vec<f64>,
    y0: Vec<f64>,
    gx: Vec<f64>,
    gy: Vec<f64>,
    g: Vec<f64>,
    bx: Vec<f64>,
    by: Vec<f64>,
}

impl Agp {
    /// AGP with the given parameters.
    pub fn new(params: AgpParams) -> Self {
        Agp {
            params,
            x: Vec::new(),
            y: Vec::new(),
            y0: Vec::new(),
            gx: Vec::new(),
            gy: Vec::new(),
            g: Vec::new(),
            bx: Vec::new(),
            by: Vec::new(),
        }
    }
    /// The parameters.
    pub fn params(&self) -> &AgpParams {
        &self.params
    }
}

impl Solver for Agp {
    fn name(&self) -> &'static str {
        "agp"
    }
    fn init(&mut self, _problem: &dyn SaddleProblem, x0: &[f64], y0: &[f64]) {
        self.x = x0.to_vec();
        self.y = y0.to_vec();
        self.y0 = y0.to_vec();
        self.gx = vec![0.0; x0.len()];
        self.bx = vec![0.0; x0.len()];
        self.gy = vec![0.0; y0.len()];
        self.g = vec![0.0; y0.len()];
        self.by = vec![0.0; y0.len()];
    }
    fn step(&mut self, p: &dyn SaddleProblem, t: usize) -> StepInfo {
        let k = t + 1;
        let primal = 1.0 / self.params.beta_k(k);
        let c = self.params.c_k(k);
        let rho = self.params.dual_step();
        p.grad_x(&self.x, &self.y, &mut self.gx);
        steps::po_step(p.x_set(), &mut self.x, &self.gx, -primal, &mut self.bx);
        p.grad_y(&self.x, &self.y, &mut self.gy);
        steps::smoothed_gradient(&self.gy, &self.y, &self.y0, c, &mut self.g);
        steps::po_step(p.y_set(), &mut self.y, &self.g, rho, &mut self.by);
        StepInfo {
            tau: primal,
            beta: c,
            gamma: rho,
        }
    }
    fn x(&self) -> &[f64] {
        &self.x
    }
    fn y(&self) -> &[f64] {
        &self.y
    }
    fn beta_at(&self, t: usize) -> f64 {
        self.params.c_k(t + 1)
    }
    fn schedule(&self) -> String {
        match self.params {
            AgpParams::Concave {
                eta_bar,
                rho_bar,
                tau,
                ly,
            } => format!(
                "xu-thm-3.2: primal=1/beta_k, beta_k=rho_bar L_y^2 + 16 tau L_y^2/(rho_bar c_k^2) - eta_bar; c_k={}; rho_bar={}; eta_bar={}; tau={}; L_y={}",
                self.params.c_schedule(),
                fmt_num(rho_bar),
                fmt_num(eta_bar),
                fmt_num(tau),
                fmt_num(ly)
            ),
            AgpParams::StronglyConcave { rho, eta } => format!(
                "xu-thm-3.1: primal=const({}); dual=const({}); c_k=zero",
                fmt_num(1.0 / eta),
                fmt_num(rho)
            ),
        }
    }
    fn provenance(&self) -> &'static str {
        PROVENANCE
    }
}
