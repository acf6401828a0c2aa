//! Algorithm 1 of the paper (`alg:fw-fw`, LMO-LMO), written from the paper against saddlefw's
//! public API only: it uses the problem's gradients and the sets' linear minimisation oracles,
//! never the crate's solvers or schedules.
//!
//! ```text
//! v_t = LMO_X(grad_x L(x_t, y_t));                 x_{t+1} = x_t + tau_t (v_t - x_t)
//! g_t = grad_y L(x_t, y_t) - beta_t (y_t - y_0)    (gradient of L_beta, eq:fL:mu)
//! u_t = LMO_Y(-g_t);  gamma_t = min{g_t'(u_t - y_t) / ((L_yy + beta_t) ||u_t - y_t||^2), 1}
//! y_{t+1} = y_t + gamma_t (u_t - y_t)
//! ```
//! with `tau_t = (t+1)^-a`, `beta_t = C (t+1)^-b` (`eq:fw-fw-stepsize`). `slow` adds to the
//! exponent `a` (the "mildly slowed" variant a gate must catch on the hard instances).

use saddlefw::prelude::*;

/// Algorithm 1 with the schedule `(a + slow, b, C)`.
pub struct LmoLmo {
    a: f64,
    b: f64,
    c: f64,
    lyy: f64,
    x: Vec<f64>,
    y: Vec<f64>,
    y0: Vec<f64>,
    gx: Vec<f64>,
    gy: Vec<f64>,
    v: Vec<f64>,
    u: Vec<f64>,
}

impl LmoLmo {
    /// The solver for one verify job: the entry's `(a, b, C)` with `slow` added to `a`.
    pub fn for_job(req: &SolverRequest<'_>, slow: f64) -> LmoLmo {
        let (a, b, c) = req.entry.schedule.abc();
        LmoLmo {
            a: a + slow,
            b,
            c,
            lyy: req.constants.lyy,
            x: Vec::new(),
            y: Vec::new(),
            y0: Vec::new(),
            gx: Vec::new(),
            gy: Vec::new(),
            v: Vec::new(),
            u: Vec::new(),
        }
    }
}

impl Solver for LmoLmo {
    fn name(&self) -> &'static str {
        "example-lmo-lmo"
    }
    fn init(&mut self, _: &dyn SaddleProblem, x0: &[f64], y0: &[f64]) {
        self.x = x0.to_vec();
        self.y = y0.to_vec();
        self.y0 = y0.to_vec();
        self.gx = vec![0.0; x0.len()];
        self.gy = vec![0.0; y0.len()];
        self.v = vec![0.0; x0.len()];
        self.u = vec![0.0; y0.len()];
    }
    fn step(&mut self, p: &dyn SaddleProblem, t: usize) -> StepInfo {
        let k = t as f64 + 1.0;
        let tau = k.powf(-self.a);
        let beta = if self.c == 0.0 {
            0.0
        } else {
            self.c * k.powf(-self.b)
        };
        p.grads(&self.x, &self.y, &mut self.gx, &mut self.gy);
        // dual: gradient of the smoothed payoff at (x_t, y_t), LMO of its negative
        for j in 0..self.y.len() {
            self.gy[j] -= beta * (self.y[j] - self.y0[j]);
        }
        let neg: Vec<f64> = self.gy.iter().map(|g| -g).collect();
        p.y_set().lmo(&neg, &mut self.u);
        let (mut slope, mut dist2) = (0.0, 0.0);
        for j in 0..self.y.len() {
            let d = self.u[j] - self.y[j];
            slope += self.gy[j] * d;
            dist2 += d * d;
        }
        let gamma = if dist2 > 0.0 {
            (slope / ((self.lyy + beta) * dist2)).clamp(0.0, 1.0)
        } else {
            0.0
        };
        // primal: Frank-Wolfe step at (x_t, y_t)
        p.x_set().lmo(&self.gx, &mut self.v);
        for i in 0..self.x.len() {
            self.x[i] += tau * (self.v[i] - self.x[i]);
        }
        for j in 0..self.y.len() {
            self.y[j] += gamma * (self.u[j] - self.y[j]);
        }
        StepInfo { tau, beta, gamma }
    }
    fn x(&self) -> &[f64] {
        &self.x
    }
    fn y(&self) -> &[f64] {
        &self.y
    }
}
