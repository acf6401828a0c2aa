//! The Euclidean ball, the prototypical strongly convex set.

use super::{positive, ConvexSet, SetSpec};
use crate::linalg::{dist, norm_robust};

/// The Euclidean ball `{x : ||x - center|| <= radius}`.
///
/// Strongly convex with alpha = 1/radius (Assumption 2): for two points at distance d on the
/// sphere the midpoint lies at depth `r - sqrt(r^2 - d^2/4) ~ d^2/(8r)`, exactly the shift
/// `(1/4)(alpha/2) d^2` allowed with alpha = 1/r; so 1/r is tight and 2/r fails.
#[derive(Debug, Clone)]
pub struct L2Ball {
    center: Vec<f64>,
    radius: f64,
}

impl L2Ball {
    /// A ball with the given centre and `radius > 0`.
    pub fn new(center: Vec<f64>, radius: f64) -> crate::Result<Self> {
        if center.is_empty() {
            return Err(crate::Error::invalid(
                "l2_ball dimension",
                "must be at least 1",
            ));
        }
        crate::error::ensure_finite("l2_ball center", &center)?;
        Ok(L2Ball {
            center,
            radius: positive("l2_ball radius", radius)?,
        })
    }
    /// A ball centred at the origin.
    pub fn centered(n: usize, radius: f64) -> crate::Result<Self> {
        Self::new(vec![0.0; n], radius)
    }
    /// The radius.
    pub fn radius(&self) -> f64 {
        self.radius
    }
    /// The centre.
    pub fn center(&self) -> &[f64] {
        &self.center
    }
}

impl ConvexSet for L2Ball {
    fn dim(&self) -> usize {
        self.center.len()
    }
    fn name(&self) -> String {
        format!("l2_ball(n={}, r={})", self.center.len(), self.radius)
    }
    fn lmo(&self, g: &[f64], out: &mut [f64]) {
        // robust: ||g||^2 overflows for entries of 1e155 (the LMO would return the centre)
        let ng = norm_robust(g);
        out.copy_from_slice(&self.center);
        if ng > 0.0 {
            for (o, gi) in out.iter_mut().zip(g) {
                *o -= self.radius * gi / ng;
            }
        } else {
            out[0] -= self.radius; // any point is a minimiser; pick a fixed one
        }
    }
    fn project(&self, z: &[f64], out: &mut [f64]) {
        let mut d = dist(z, &self.center);
        if !d.is_finite() {
            let diff: Vec<f64> = z.iter().zip(&self.center).map(|(a, b)| a - b).collect();
            d = norm_robust(&diff);
        }
        if d <= self.radius {
            out.copy_from_slice(z);
        } else {
            let s = self.radius / d;
            for ((o, zi), ci) in out.iter_mut().zip(z).zip(&self.center) {
                *o = ci + s * (zi - ci);
            }
        }
    }
    fn contains(&self, z: &[f64], tol: f64) -> bool {
        z.len() == self.dim() && dist(z, &self.center) <= self.radius * (1.0 + tol) + tol
    }
    fn diameter(&self) -> f64 {
        2.0 * self.radius
    }
    fn strong_convexity(&self) -> Option<f64> {
        Some(1.0 / self.radius)
    }
    fn spec(&self) -> Option<SetSpec> {
        Some(SetSpec::L2Ball {
            radius: self.radius,
            center: if self.center.iter().all(|&c| c == 0.0) {
                None
            } else {
                Some(self.center.clone())
            },
            dim: Some(self.center.len()),
        })
    }
}
