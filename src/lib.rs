//! # saddlefw
//!
//! Executable checks of the claims of *Projection-Free Algorithms for Minimax Problems*
//! (the paper; labels such as `lemma:calculus` refer to its `\label`s), with fast solvers.
//!
//! ## Data flow
//!
//! ```text
//! generator(seed) ─► Instance ─► harness::run(&instance, &mut solver, &config) ─► Trace ─► fit / invariants / report
//! ```
//!
//! * [`generators`] builds seeded [`Instance`]s with certified constants; [`problems`] holds the
//!   [`SaddleProblem`] trait and the families; [`sets`] the constraint sets and their oracles.
//! * [`solvers`] holds Algorithms 1-3 and the baselines; a solver only steps.
//! * [`measures`] computes the paper's gaps exactly (closed forms or certified intervals).
//! * [`data`] reads LIBSVM data (plain or `.bz2`) into CSR matrices; the experiment problems are
//!   [`problems::dictionary`] and [`problems::dro`]; [`experiments::params`] holds the paper's
//!   experimental parameters.
//!
//! ## Glossary of the paper's symbols
//!
//! | symbol | meaning | where |
//! |---|---|---|
//! | `x`, `y` | primal (minimised) and dual (maximised) variables | `eq:minimax` |
//! | `X`, `Y`, `D_X`, `D_Y` | compact convex sets and their diameters | Assumption 1 (i) |
//! | `L_xx`, `L_yx`, `L_yy` | block Lipschitz constants of the gradients | Assumption 1 (iv) |
//! | `mu` | strong concavity of `L(x, .)` (0: merely concave) | Assumption 1 (ii) |
//! | `alpha` | strong convexity of the set Y | Assumption 2 |
//! | `v_t = LMO_X(grad_x L(x_t, y_t))` | primal Frank-Wolfe vertex | `alg:fw-fw`, `alg:fw-proj` |
//! | `u_t = LMO_Y(-g_t)` | dual Frank-Wolfe vertex | `alg:fw-fw`, `alg:proj-fw` |
//! | `tau_t` | primal step (`(t+1)^-a` in the theorems) | `eq:fw-fw-stepsize` |
//! | `beta_t` | dual smoothing (`C (t+1)^-b`, or 0 when `mu > 0`) | `eq:fL:mu` |
//! | `gamma_t` | dual step (short step clipped to `[0,1]`, or `1/(L_yy + beta_t)`) | `def:cg-seq`, `def:pg-seq` |
//! | `L_beta = L - beta/2 ||y - y0||^2` | smoothed payoff, reference `y0` = initial dual iterate | `eq:fL:mu` |
//! | `f(x) = max_y L(x, y)`, `f_beta` | primal function and its smoothing | `eq:primal` |
//! | `y*_beta(x)` | maximiser of `L_beta(x, .)` | `eq:fL:mu` |
//! | `H_t = f_t(x_t) - L_t(x_t, y_t)` | dual suboptimality of the smoothed problem | `eq:H_t` |
//! | `G_X^LMO`, `G_X^PO`, `G_Y`, `G_Y^LMO`, `G^Dual`, `G^Opt` | gap and stationarity measures | `gap:fw`, `gap:proj`, `gap:y`, `gap:opt` |
//!
//! ## Extending
//!
//! * **A set**: one file in `src/sets/` implementing [`ConvexSet`] (exact LMO with deterministic
//!   ties, projection, membership, diameter, `strong_convexity`), plus one variant in
//!   [`sets::SetSpec`] so files can name it.
//! * **A problem family**: one file in `src/problems/` implementing [`SaddleProblem`] with
//!   certified constants; expose a [`problems::YModel`] when `L` is linear or isotropic-quadratic
//!   in `y` to get closed-form inner solutions; add it to [`generators`] for random instances.
//! * **A solver**: one file in `src/solvers/` implementing [`solvers::Solver`] (it only steps),
//!   plus one line in the solver registry.

pub mod cli;
pub mod counting;
pub mod data;
pub mod envelopes;
pub mod error;
pub mod experiments;
pub mod fit;
pub mod generators;
pub mod harness;
pub mod invariants;
pub mod linalg;
pub mod measures;
pub mod problems;
pub mod report;
pub mod sets;
pub mod solvers;
pub mod theorems;
pub mod tightness;
pub mod trace;
pub mod verify;

pub use error::{Error, Result};
pub use problems::{Constants, Instance, Interval, SaddleProblem};
pub use sets::ConvexSet;
