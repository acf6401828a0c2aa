//! The values a saddle problem reports: certified [`Interval`]s, its [`Constants`], the
//! y-structure [`YModel`] that gives closed forms and the inner maximum [`InnerMax`]. A leaf
//! module: the trait (`problems`) and the certified inner solves (`problems::inner`) both read
//! it, and neither is imported here.
//!
//! ```
//! use saddlefw::problems::{Interval, YModel};
//! // interval arithmetic keeps the exact value inside: [1, 2] - [0.5, 1] = [0, 1.5]
//! let d = Interval { lower: 1.0, upper: 2.0 }.minus(&Interval { lower: 0.5, upper: 1.0 });
//! assert_eq!((d.lower, d.upper, d.width()), (0.0, 1.5, 1.5));
//! assert_eq!(Interval::exact(3.0).width(), 0.0);
//! // L(x, y) = h + c^T y - (m/2) ||y||^2 at a fixed x
//! let model = YModel { h: 1.0, c: vec![2.0, 0.0], m: 4.0 };
//! assert_eq!(model.value(&[0.5, 1.0]), 1.0 + 1.0 - 2.0 * 1.25);
//! ```

use serde::{Deserialize, Serialize};

/// A closed interval `[lower, upper]` certified to contain an exact value.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Interval {
    pub lower: f64,
    pub upper: f64,
}

impl Interval {
    /// The degenerate interval of an exactly computed value.
    pub fn exact(v: f64) -> Self {
        Interval { lower: v, upper: v }
    }
    /// `upper - lower`.
    pub fn width(&self) -> f64 {
        self.upper - self.lower
    }
    /// Width relative to the magnitude of the value (absolute when the value is below 1).
    pub fn relative_width(&self) -> f64 {
        self.width() / self.lower.abs().max(self.upper.abs()).max(1.0)
    }
    /// Midpoint.
    pub fn mid(&self) -> f64 {
        0.5 * (self.lower + self.upper)
    }
    /// `self - other` with interval arithmetic.
    pub fn minus(&self, other: &Interval) -> Interval {
        Interval {
            lower: self.lower - other.upper,
            upper: self.upper - other.lower,
        }
    }
    /// Shifts both ends by `c`.
    pub fn shift(&self, c: f64) -> Interval {
        Interval {
            lower: self.lower + c,
            upper: self.upper + c,
        }
    }
}

/// The certified constants of Assumption 1 (iv), the strong concavity mu (1 (ii)), the
/// strong-convexity modulus alpha of Y (Assumption 2) and the diameters (1 (i)).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Constants {
    /// `L_xx`: Lipschitz constant of `grad_x L` in `x` (Assumption 1 (iv)).
    pub lxx: f64,
    /// `L_yx`: Lipschitz constant of `grad_y L` in `x` (and of `grad_x L` in `y`).
    pub lyx: f64,
    /// `L_yy`: Lipschitz constant of `grad_y L` in `y`.
    pub lyy: f64,
    /// `mu`: strong concavity of `L(x, .)` (Assumption 1 (ii)); 0 when merely concave.
    pub mu: f64,
    /// `alpha`: strong-convexity modulus of the set Y (Assumption 2); `None` when Y is not
    /// strongly convex.
    pub alpha: Option<f64>,
    /// `D_X`: the diameter of X (Assumption 1 (i)), not its dimension (`RUN.json` writes it
    /// as `diam_x`; its `dx` is the dimension).
    pub dx: f64,
    /// `D_Y`: the diameter of Y (`diam_y` in `RUN.json`, whose `dy` is the dimension).
    pub dy: f64,
}

/// `L(x, y) = h + c^T y - (m/2) ||y||^2` for a fixed x: the y-structure that gives closed
/// forms for `y*_beta(x)` (via a projection, or the LMO when `m + beta = 0`).
#[derive(Debug, Clone)]
pub struct YModel {
    pub h: f64,
    pub c: Vec<f64>,
    pub m: f64,
}

impl YModel {
    /// `L(x, y)` from the model. When `y'y` underflows (a tiny Y with a large `m`), the
    /// curvature term is summed as `sum (m y_i) y_i` instead of being lost.
    pub fn value(&self, y: &[f64]) -> f64 {
        let yy = crate::linalg::dot(y, y);
        let curvature = if yy < f64::MIN_POSITIVE && y.iter().any(|v| *v != 0.0) {
            0.5 * y.iter().map(|v| (self.m * v) * v).sum::<f64>()
        } else {
            0.5 * self.m * yy
        };
        self.h + crate::linalg::dot(&self.c, y) - curvature
    }
}

/// `y*_beta(x)` and `f_beta(x)` (the value certified as an interval).
#[derive(Debug, Clone)]
pub struct InnerMax {
    pub y: Vec<f64>,
    pub value: Interval,
}
