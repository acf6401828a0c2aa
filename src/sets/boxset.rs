//! Boxes with per-coordinate bounds; the interval `[0, B]` is the 1-D case.

use super::{ConvexSet, SetSpec};
use crate::linalg::dist;

/// The box `{x : lower_i <= x_i <= upper_i}`.
///
/// Not strongly convex in dimension >= 2 (its faces are flat). A 1-D interval of length `w`
/// satisfies Assumption 2 for every alpha <= 2/w (the worst case is the two end points with
/// xi -> 0), so `strong_convexity` reports `2/w`; the paper uses the valid but conservative
/// `1/B` for `[0, B]` (claims.md Sec. 6.1).
#[derive(Debug, Clone)]
pub struct BoxSet {
    lower: Vec<f64>,
    upper: Vec<f64>,
}

impl BoxSet {
    /// A box with `lower <= upper` coordinate-wise, finite bounds, equal lengths.
    pub fn new(lower: Vec<f64>, upper: Vec<f64>) -> crate::Result<Self> {
        if lower.is_empty() || lower.len() != upper.len() {
            return Err(crate::Error::invalid(
                "box bounds",
                format!(
                    "lower and upper must be non-empty and of equal length (got {} and {})",
                    lower.len(),
                    upper.len()
                ),
            ));
        }
        crate::error::ensure_finite("box lower", &lower)?;
        crate::error::ensure_finite("box upper", &upper)?;
        if let Some(i) = (0..lower.len()).find(|&i| lower[i] > upper[i]) {
            return Err(crate::Error::invalid(
                "box bounds",
                format!(
                    "empty box: lower[{i}] = {} > upper[{i}] = {}",
                    lower[i], upper[i]
                ),
            ));
        }
        Ok(BoxSet { lower, upper })
    }
    /// The interval `[0, b]`.
    pub fn interval(b: f64) -> crate::Result<Self> {
        Self::new(vec![0.0], vec![b])
    }
    /// Lower bounds.
    pub fn lower(&self) -> &[f64] {
        &self.lower
    }
    /// Upper bounds.
    pub fn upper(&self) -> &[f64] {
        &self.upper
    }
}

impl ConvexSet for BoxSet {
    fn dim(&self) -> usize {
        self.lower.len()
    }
    fn name(&self) -> String {
        if self.lower.len() == 1 {
            format!("interval[{}, {}]", self.lower[0], self.upper[0])
        } else {
            format!("box(n={})", self.lower.len())
        }
    }
    fn lmo(&self, g: &[f64], out: &mut [f64]) {
        for i in 0..out.len() {
            out[i] = if g[i] < 0.0 {
                self.upper[i]
            } else {
                self.lower[i]
            };
        }
    }
    fn project(&self, z: &[f64], out: &mut [f64]) {
        for i in 0..out.len() {
            out[i] = z[i].clamp(self.lower[i], self.upper[i]);
        }
    }
    fn contains(&self, z: &[f64], tol: f64) -> bool {
        z.len() == self.dim()
            && z.iter().enumerate().all(|(i, &v)| {
                let s = tol * (1.0 + self.lower[i].abs().max(self.upper[i].abs()));
                v >= self.lower[i] - s && v <= self.upper[i] + s
            })
    }
    fn diameter(&self) -> f64 {
        dist(&self.lower, &self.upper)
    }
    fn strong_convexity(&self) -> Option<f64> {
        if self.lower.len() == 1 && self.upper[0] > self.lower[0] {
            Some(2.0 / (self.upper[0] - self.lower[0]))
        } else {
            None
        }
    }
    fn spec(&self) -> Option<SetSpec> {
        Some(SetSpec::Box {
            lower: spec::Bound::Vector(self.lower.clone()),
            upper: spec::Bound::Vector(self.upper.clone()),
            dim: Some(self.lower.len()),
        })
    }
}

use super::spec;
