//! A smooth nonconvex, non-quadratic family:
//! `L(x,y) = (kappa/omega^2) sum_j (1 - cos(omega x_j)) + a'x + y'Bx - (mu/2)||y||^2 - c'y`.
//!
//! The x-landscape is a separable cosine (Hessian `kappa diag(cos(omega x_j))`), so the family
//! is nonconvex as soon as X reaches `|omega x_j| > pi/2`. Certified constants:
//! `L_xx = kappa` (attained where `cos(omega x_j) = +-1`, e.g. at 0), `L_yx = ||B||_2`,
//! `L_yy = mu`, strong concavity `mu`. The y-part is isotropic, so `y*_beta(x)` is a projection.
//!
//! ```
//! use saddlefw::problems::CosineFamily;
//! use saddlefw::sets::{BoxSet, L2Ball};
//! use saddlefw::SaddleProblem;
//! use std::f64::consts::PI;
//! // dx = 2, dy = 1: kappa = 2, omega = 1, mu = 1/2, B = [3 4], no linear terms
//! let family = |b: Vec<f64>| {
//!     CosineFamily::new(2.0, 1.0, 0.5, b, vec![0.0; 2], vec![0.0],
//!         Box::new(BoxSet::new(vec![-4.0; 2], vec![4.0; 2]).unwrap()),
//!         Box::new(L2Ball::new(vec![0.0], 1.0).unwrap()))
//! };
//! let p = family(vec![3.0, 4.0]).unwrap();
//! // certified constants: L_xx = kappa, L_yx = ||B||_2 = 5, L_yy = mu
//! let k = p.constants();
//! assert!((k.lxx - 2.0).abs() < 1e-9 && (k.lyx - 5.0).abs() < 1e-9 && (k.mu - 0.5).abs() < 1e-12, "{k:?}");
//! assert!(!p.convex_in_x());
//! // L(x, y) = (kappa/omega^2) sum_j (1 - cos(omega x_j)) + y'Bx - (mu/2) y^2 at x = (pi, 0), y = 1
//! assert!((p.value(&[PI, 0.0], &[1.0]) - (4.0 + 3.0 * PI - 0.25)).abs() < 1e-12);
//! // a B of the wrong shape is refused
//! assert!(family(vec![3.0]).is_err());
//! ```

use super::{Constants, SaddleProblem, YModel};
use crate::linalg::{dot, matvec, matvec_t, spectral_norm};
use crate::sets::ConvexSet;
use crate::{Error, Result};

/// The cosine-landscape family (NC-C with mu = 0, NC-SC with mu > 0).
#[derive(Debug)]
pub struct CosineFamily {
    kappa: f64,
    omega: f64,
    mu: f64,
    b: Vec<f64>,
    lin_a: Vec<f64>,
    lin_c: Vec<f64>,
    x_set: Box<dyn ConvexSet>,
    y_set: Box<dyn ConvexSet>,
    lyx: f64,
}

impl CosineFamily {
    /// Builds the family; `b` is `dy x dx` row-major.
    pub fn new(
        kappa: f64,
        omega: f64,
        mu: f64,
        b: Vec<f64>,
        lin_a: Vec<f64>,
        lin_c: Vec<f64>,
        x_set: Box<dyn ConvexSet>,
        y_set: Box<dyn ConvexSet>,
    ) -> Result<Self> {
        let (dx, dy) = (x_set.dim(), y_set.dim());
        for (name, v) in [("kappa", kappa), ("omega", omega)] {
            if !(v.is_finite() && v > 0.0) {
                return Err(Error::invalid(name, format!("must be positive, got {v}")));
            }
        }
        if !(mu.is_finite() && mu >= 0.0) {
            return Err(Error::invalid("mu", format!("must be >= 0, got {mu}")));
        }
        if b.len() != dx * dy || lin_a.len() != dx || lin_c.len() != dy {
            return Err(Error::invalid(
                "cosine family",
                "shape mismatch in B, a or c",
            ));
        }
        crate::error::ensure_finite("B", &b)?;
        let lyx = spectral_norm(&b, dy, dx);
        Ok(CosineFamily {
            kappa,
            omega,
            mu,
            b,
            lin_a,
            lin_c,
            x_set,
            y_set,
            lyx,
        })
    }

    fn psi(&self, x: &[f64]) -> f64 {
        let w2 = self.omega * self.omega;
        x.iter()
            .map(|&v| self.kappa / w2 * (1.0 - (self.omega * v).cos()))
            .sum::<f64>()
            + dot(&self.lin_a, x)
    }
}

impl SaddleProblem for CosineFamily {
    fn name(&self) -> String {
        format!(
            "cosine(dx={}, dy={}, kappa={}, omega={}, mu={})",
            self.x_set.dim(),
            self.y_set.dim(),
            self.kappa,
            self.omega,
            self.mu
        )
    }
    fn x_set(&self) -> &dyn ConvexSet {
        self.x_set.as_ref()
    }
    fn y_set(&self) -> &dyn ConvexSet {
        self.y_set.as_ref()
    }
    fn value(&self, x: &[f64], y: &[f64]) -> f64 {
        let mut bx = vec![0.0; self.y_set.dim()];
        matvec(&self.b, self.y_set.dim(), self.x_set.dim(), x, &mut bx);
        self.psi(x) + dot(y, &bx) - 0.5 * self.mu * dot(y, y) - dot(&self.lin_c, y)
    }
    fn grad_x(&self, x: &[f64], y: &[f64], out: &mut [f64]) {
        let (dx, dy) = (self.x_set.dim(), self.y_set.dim());
        matvec_t(&self.b, dy, dx, y, out);
        for j in 0..dx {
            out[j] += self.kappa / self.omega * (self.omega * x[j]).sin() + self.lin_a[j];
        }
    }
    fn grad_y(&self, x: &[f64], y: &[f64], out: &mut [f64]) {
        let (dx, dy) = (self.x_set.dim(), self.y_set.dim());
        matvec(&self.b, dy, dx, x, out);
        for i in 0..dy {
            out[i] -= self.mu * y[i] + self.lin_c[i];
        }
    }
    fn constants(&self) -> Constants {
        Constants {
            lxx: self.kappa,
            lyx: self.lyx,
            lyy: self.mu,
            mu: self.mu,
            alpha: self.y_set.strong_convexity(),
            dx: self.x_set.diameter(),
            dy: self.y_set.diameter(),
        }
    }
    fn convex_in_x(&self) -> bool {
        false
    }
    fn y_model(&self, x: &[f64]) -> Option<YModel> {
        let (dx, dy) = (self.x_set.dim(), self.y_set.dim());
        let mut c = vec![0.0; dy];
        matvec(&self.b, dy, dx, x, &mut c);
        for i in 0..dy {
            c[i] -= self.lin_c[i];
        }
        Some(YModel {
            h: self.psi(x),
            c,
            m: self.mu,
        })
    }
}
