//! Saddle problems `min_{x in X} max_{y in Y} L(x,y)` (`eq:minimax`) with certified constants
//! (Assumption 1, `assum`) and the exact inner solutions the measures need.
//!
//! The inner maximisation `f_beta(x) = max_y L_beta(x,y)`, `L_beta = L - beta/2 ||y - y0||^2`
//! (`eq:fL:mu`), is solved
//! * in closed form when the family exposes a [`YModel`] (`L(x,y) = h(x) + c(x)^T y - m/2 ||y||^2`):
//!   by a projection when `m + beta > 0`, by the LMO when `m + beta = 0`;
//! * otherwise by a certified inner solve ([`inner::maximize`]): accelerated projected gradient
//!   with a Frank-Wolfe-gap certificate, returning an [`Interval`] that contains the true value.
//!
//! # Example
//! ```
//! use saddlefw::generators::GeneratorSpec;
//! use saddlefw::SaddleProblem;
//! let inst = "saddle/c-sc:dx=4,dy=3,seed=1".parse::<GeneratorSpec>().unwrap().generate().unwrap();
//! let p = inst.problem.as_ref();
//! let k = p.constants();
//! assert!(k.mu > 0.0 && k.lyx > 0.0);
//! // f(x) = max_y L(x, y) is certified: an interval containing the exact value
//! let fx = p.f(&inst.x0);
//! assert!(fx.lower <= fx.upper && fx.upper >= p.value(&inst.x0, &inst.y0) - 1e-12);
//! ```

pub mod cosine;
pub mod dictionary;
pub mod dro;
pub mod inner;
pub mod lipschitz;
pub mod memo;
pub mod quadratic;
pub mod values;

use crate::paper::Setting;
use crate::sets::{ConvexSet, RankOne};
use serde::{Deserialize, Serialize};

pub use cosine::CosineFamily;
pub use dictionary::{DictionaryLearning, DlConfig};
pub use dro::{DroConfig, RobustClassification};
pub use quadratic::Quadratic;
pub use values::{Constants, InnerMax, Interval, YModel};

/// Which of the paper's assumptions an instance satisfies (all certified, never assumed).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Assumptions {
    /// Assumption 1: compact convex sets, L C^1, L(x,.) concave, Lipschitz gradients.
    pub a1: bool,
    /// Assumption 1 (ii) with mu > 0.
    pub strongly_concave: bool,
    /// Assumption 2: Y strongly convex.
    pub a2: bool,
    /// Assumption 3: L convex-concave.
    pub a3: bool,
}

impl Assumptions {
    /// The setting these assumptions make (`nc-c`, `c-sc+sc`, ...; compares equal to its label).
    pub fn setting(&self) -> Setting {
        Setting {
            convex: self.a3,
            strongly_concave: self.strongly_concave,
            sc_y: self.a2,
        }
    }
}

/// A saddle problem. Implementors provide the payoff, its gradients, the sets and certified
/// constants; the inner solutions have defaults that use [`YModel`] or a certified solve.
pub trait SaddleProblem: Send + Sync {
    /// Short description, e.g. `quadratic(dx=5, dy=3)`.
    fn name(&self) -> String;
    /// The primal set X.
    fn x_set(&self) -> &dyn ConvexSet;
    /// The dual set Y.
    fn y_set(&self) -> &dyn ConvexSet;
    /// `L(x, y)`.
    fn value(&self, x: &[f64], y: &[f64]) -> f64;
    /// `grad_x L(x, y)` into `out`.
    fn grad_x(&self, x: &[f64], y: &[f64], out: &mut [f64]);
    /// `grad_y L(x, y)` into `out`.
    fn grad_y(&self, x: &[f64], y: &[f64], out: &mut [f64]);
    /// Both gradients at once (families override this to share products).
    fn grads(&self, x: &[f64], y: &[f64], gx: &mut [f64], gy: &mut [f64]) {
        self.grad_x(x, y, gx);
        self.grad_y(x, y, gy);
    }
    /// The gradients a solver steps with at its iterate x: [`SaddleProblem::grads`] unless
    /// the problem was told by [`SaddleProblem::note_fw_move`] how it reached x, in which
    /// case it may use products updated along that move (equal to a recomputation up to
    /// rounding, and recomputed exactly on a schedule of its own). Measures never call this.
    fn step_grads(&self, x: &[f64], y: &[f64], gx: &mut [f64], gy: &mut [f64]) {
        self.grads(x, y, gx, gy)
    }
    /// [`SaddleProblem::step_grads`], and whether `gx` came out finite when the problem checked
    /// it while writing it (DRO's `A^T R`, run by run of rows in cache); `None` (the default)
    /// when it did not, and the caller checks `gx` itself. The harness's oracle counter
    /// (the run loop's internal counting wrapper) calls this and takes the report as given, so that a
    /// problem with long gradients saves it a pass over them. An override must report `gx`
    /// exactly as it returns it, and `step_grads` should then call it (as DRO's does), so that
    /// both give the same gradients; a `step_grads` that calls this default would recurse.
    fn step_grads_checked(
        &self,
        x: &[f64],
        y: &[f64],
        gx: &mut [f64],
        gy: &mut [f64],
    ) -> Option<bool> {
        self.step_grads(x, y, gx, gy);
        None
    }
    /// Tells the problem that the point of the last [`SaddleProblem::step_grads`] call moved
    /// to `x_next = (1 - s) x + s v`, the Frank-Wolfe move towards the rank-one LMO vertex
    /// `v = (scale u_i) v_j` of X. The default ignores it.
    fn note_fw_move(&self, s: f64, vertex: &RankOne, x_next: &[f64]) {
        let _ = (s, vertex, x_next);
    }
    /// Certified constants (Assumption 1 (iv), mu, alpha, diameters).
    fn constants(&self) -> Constants;
    /// Whether L(., y) is convex for every y in Y (Assumption 3), certified by construction.
    fn convex_in_x(&self) -> bool;
    /// The y-structure at x, if the family has one (enables closed forms).
    fn y_model(&self, _x: &[f64]) -> Option<YModel> {
        None
    }
    /// `f* = min_x f(x)` as a certified interval, when known (convex-concave families).
    fn f_star(&self) -> Option<Interval> {
        None
    }
    /// A known saddle point `(x*, y*)`, when the instance was built around one.
    fn known_saddle(&self) -> Option<(Vec<f64>, Vec<f64>)> {
        None
    }
    /// The problem as the quadratic of the JSON quadratic format v1, when it is one (what
    /// `saddlefw export` writes as a problem file; other families return `None`).
    fn as_quadratic(&self) -> Option<&Quadratic> {
        None
    }
    /// The assumptions this instance satisfies.
    fn assumptions(&self) -> Assumptions {
        let k = self.constants();
        Assumptions {
            a1: true,
            strongly_concave: k.mu > 0.0,
            a2: k.alpha.is_some(),
            a3: self.convex_in_x(),
        }
    }

    /// `y*_beta(x) = argmax_y L_beta(x,y)` and `f_beta(x)` (`eq:fL:mu`), with reference point
    /// `y0`. Exact via [`YModel`] when available, otherwise a certified inner solve.
    fn y_star(&self, x: &[f64], beta: f64, y0: &[f64]) -> InnerMax {
        match self.y_model(x) {
            Some(model) => inner::y_star_closed_form(self.y_set(), &model, beta, y0),
            None => inner::y_star_certified(self, x, beta, y0),
        }
    }

    /// `f(x) = max_y L(x, y)` (`eq:primal`) as a certified interval.
    fn f(&self, x: &[f64]) -> Interval {
        let y0 = self.y_set().default_point();
        self.y_star(x, 0.0, &y0).value
    }

    /// `min_{v in X} L(v, y)` as a certified interval (requires convexity in x; used by G^Dual).
    fn min_x(&self, y: &[f64]) -> Interval {
        inner::min_x_certified(self, y)
    }

    /// A bound on the absolute rounding error of the first-order expression
    /// `L(x,y) + grad_x L(x,y)^T dx + grad_y L(x,y)^T dy` as computed in f64: the allowance by
    /// which the Frank-Wolfe certificates of [`inner`] (and so `f*`) are widened. The default
    /// is an estimate from the computed magnitudes, `16 eps (|L| + |g_x|^T |dx| + |g_y|^T |dy|)`,
    /// blind to cancellation inside `L` and its gradients; a family whose terms can cancel
    /// (the quadratic) overrides it with a rigorous bound.
    fn first_order_rounding(&self, x: &[f64], y: &[f64], dx: &[f64], dy: &[f64]) -> f64 {
        let (mut gx, mut gy) = (vec![0.0; x.len()], vec![0.0; y.len()]);
        self.grads(x, y, &mut gx, &mut gy);
        let abs_dot =
            |g: &[f64], d: &[f64]| g.iter().zip(d).map(|(a, b)| (a * b).abs()).sum::<f64>();
        16.0 * f64::EPSILON * (self.value(x, y).abs() + abs_dot(&gx, dx) + abs_dot(&gy, dy))
    }
}

impl<P: SaddleProblem + ?Sized> SaddleProblem for Box<P> {
    fn name(&self) -> String {
        (**self).name()
    }
    fn step_grads(&self, x: &[f64], y: &[f64], gx: &mut [f64], gy: &mut [f64]) {
        (**self).step_grads(x, y, gx, gy)
    }
    fn step_grads_checked(
        &self,
        x: &[f64],
        y: &[f64],
        gx: &mut [f64],
        gy: &mut [f64],
    ) -> Option<bool> {
        (**self).step_grads_checked(x, y, gx, gy)
    }
    fn note_fw_move(&self, s: f64, vertex: &RankOne, x_next: &[f64]) {
        (**self).note_fw_move(s, vertex, x_next)
    }
    fn as_quadratic(&self) -> Option<&Quadratic> {
        (**self).as_quadratic()
    }
    fn x_set(&self) -> &dyn ConvexSet {
        (**self).x_set()
    }
    fn y_set(&self) -> &dyn ConvexSet {
        (**self).y_set()
    }
    fn value(&self, x: &[f64], y: &[f64]) -> f64 {
        (**self).value(x, y)
    }
    fn grad_x(&self, x: &[f64], y: &[f64], out: &mut [f64]) {
        (**self).grad_x(x, y, out)
    }
    fn grad_y(&self, x: &[f64], y: &[f64], out: &mut [f64]) {
        (**self).grad_y(x, y, out)
    }
    fn grads(&self, x: &[f64], y: &[f64], gx: &mut [f64], gy: &mut [f64]) {
        (**self).grads(x, y, gx, gy)
    }
    fn constants(&self) -> Constants {
        (**self).constants()
    }
    fn convex_in_x(&self) -> bool {
        (**self).convex_in_x()
    }
    fn y_model(&self, x: &[f64]) -> Option<YModel> {
        (**self).y_model(x)
    }
    fn f_star(&self) -> Option<Interval> {
        (**self).f_star()
    }
    fn known_saddle(&self) -> Option<(Vec<f64>, Vec<f64>)> {
        (**self).known_saddle()
    }
    fn assumptions(&self) -> Assumptions {
        (**self).assumptions()
    }
    fn y_star(&self, x: &[f64], beta: f64, y0: &[f64]) -> InnerMax {
        (**self).y_star(x, beta, y0)
    }
    fn first_order_rounding(&self, x: &[f64], y: &[f64], dx: &[f64], dy: &[f64]) -> f64 {
        (**self).first_order_rounding(x, y, dx, dy)
    }
    fn f(&self, x: &[f64]) -> Interval {
        (**self).f(x)
    }
    fn min_x(&self, y: &[f64]) -> Interval {
        (**self).min_x(y)
    }
}

/// Every saddle problem is what the certified inner solves read (`problems::inner` declares
/// that view, [`inner::InnerProblem`], so that it does not import this trait).
impl<P: SaddleProblem + ?Sized> inner::InnerProblem for P {
    fn x_set(&self) -> &dyn ConvexSet {
        SaddleProblem::x_set(self)
    }
    fn y_set(&self) -> &dyn ConvexSet {
        SaddleProblem::y_set(self)
    }
    fn value(&self, x: &[f64], y: &[f64]) -> f64 {
        SaddleProblem::value(self, x, y)
    }
    fn grad_x(&self, x: &[f64], y: &[f64], out: &mut [f64]) {
        SaddleProblem::grad_x(self, x, y, out)
    }
    fn grad_y(&self, x: &[f64], y: &[f64], out: &mut [f64]) {
        SaddleProblem::grad_y(self, x, y, out)
    }
    fn grads(&self, x: &[f64], y: &[f64], gx: &mut [f64], gy: &mut [f64]) {
        SaddleProblem::grads(self, x, y, gx, gy)
    }
    fn constants(&self) -> Constants {
        SaddleProblem::constants(self)
    }
    fn convex_in_x(&self) -> bool {
        SaddleProblem::convex_in_x(self)
    }
    fn y_model(&self, x: &[f64]) -> Option<YModel> {
        SaddleProblem::y_model(self, x)
    }
    fn y_star(&self, x: &[f64], beta: f64, y0: &[f64]) -> InnerMax {
        SaddleProblem::y_star(self, x, beta, y0)
    }
    fn first_order_rounding(&self, x: &[f64], y: &[f64], dx: &[f64], dy: &[f64]) -> f64 {
        SaddleProblem::first_order_rounding(self, x, y, dx, dy)
    }
}

/// A problem together with its starting point and provenance: what a generator returns and a
/// JSON file describes.
pub struct Instance {
    pub problem: Box<dyn SaddleProblem>,
    pub x0: Vec<f64>,
    pub y0: Vec<f64>,
    /// Family name, e.g. `quadratic`, `cosine`, `file:PATH`.
    pub family: String,
    /// Generator seed (None for files).
    pub seed: Option<u64>,
}

impl std::fmt::Debug for Instance {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Instance")
            .field("problem", &self.problem.name())
            .field("family", &self.family)
            .field("seed", &self.seed)
            .field("dx", &self.x0.len())
            .field("dy", &self.y0.len())
            .finish()
    }
}
