//! Polytopes: the scaled probability simplex and the l1 ball. Neither is strongly convex.

use super::{argmin, positive, ConvexSet, SetSpec};
use crate::linalg::{project_l1_ball, project_simplex};

/// The scaled probability simplex `{x in R^n : x >= 0, sum x = scale}`.
#[derive(Debug, Clone)]
pub struct Simplex {
    n: usize,
    scale: f64,
}

impl Simplex {
    /// A simplex of dimension `n >= 1` and `scale > 0`.
    pub fn new(n: usize, scale: f64) -> crate::Result<Self> {
        if n == 0 {
            return Err(crate::Error::invalid(
                "simplex dimension",
                "must be at least 1",
            ));
        }
        Ok(Simplex {
            n,
            scale: positive("simplex scale", scale)?,
        })
    }
    /// The scale `s`.
    pub fn scale(&self) -> f64 {
        self.scale
    }
}

impl ConvexSet for Simplex {
    fn dim(&self) -> usize {
        self.n
    }
    fn name(&self) -> String {
        format!("simplex(n={}, s={})", self.n, self.scale)
    }
    fn lmo(&self, g: &[f64], out: &mut [f64]) {
        out.iter_mut().for_each(|o| *o = 0.0);
        out[argmin(g)] = self.scale;
    }
    fn project(&self, z: &[f64], out: &mut [f64]) {
        project_simplex(z, self.scale, out);
    }
    fn contains(&self, z: &[f64], tol: f64) -> bool {
        z.len() == self.n
            && z.iter().all(|&v| v >= -tol)
            && (z.iter().sum::<f64>() - self.scale).abs() <= tol * (1.0 + self.scale)
    }
    fn diameter(&self) -> f64 {
        if self.n == 1 {
            0.0
        } else {
            self.scale * std::f64::consts::SQRT_2
        }
    }
    fn strong_convexity(&self) -> Option<f64> {
        None
    }
    fn spec(&self) -> Option<SetSpec> {
        Some(SetSpec::Simplex {
            scale: Some(self.scale),
            dim: Some(self.n),
        })
    }
}

/// The l1 ball `{x in R^n : ||x||_1 <= radius}`.
#[derive(Debug, Clone)]
pub struct L1Ball {
    n: usize,
    radius: f64,
}

impl L1Ball {
    /// An l1 ball of dimension `n >= 1` and `radius > 0`.
    pub fn new(n: usize, radius: f64) -> crate::Result<Self> {
        if n == 0 {
            return Err(crate::Error::invalid(
                "l1_ball dimension",
                "must be at least 1",
            ));
        }
        Ok(L1Ball {
            n,
            radius: positive("l1_ball radius", radius)?,
        })
    }
}

impl ConvexSet for L1Ball {
    fn dim(&self) -> usize {
        self.n
    }
    fn name(&self) -> String {
        format!("l1_ball(n={}, r={})", self.n, self.radius)
    }
    fn lmo(&self, g: &[f64], out: &mut [f64]) {
        // vertex -r sign(g_i) e_i at the largest |g_i| (lowest index on ties; sign(0) = +1)
        let mut best = 0;
        for (i, v) in g.iter().enumerate() {
            if v.abs() > g[best].abs() {
                best = i;
            }
        }
        out.iter_mut().for_each(|o| *o = 0.0);
        out[best] = if g[best] > 0.0 {
            -self.radius
        } else {
            self.radius
        };
        if g[best] == 0.0 {
            out[best] = -self.radius;
        }
    }
    fn project(&self, z: &[f64], out: &mut [f64]) {
        project_l1_ball(z, self.radius, out);
    }
    fn contains(&self, z: &[f64], tol: f64) -> bool {
        z.len() == self.n
            && z.iter().map(|v| v.abs()).sum::<f64>() <= self.radius * (1.0 + tol) + tol
    }
    fn diameter(&self) -> f64 {
        2.0 * self.radius
    }
    fn strong_convexity(&self) -> Option<f64> {
        if self.n == 1 {
            Some(1.0 / self.radius) // an interval of length 2r: alpha = 2/(2r)
        } else {
            None
        }
    }
    fn spec(&self) -> Option<SetSpec> {
        Some(SetSpec::L1Ball {
            radius: self.radius,
            dim: Some(self.n),
        })
    }
}
