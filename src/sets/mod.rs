//! Constraint sets with exact oracles: LMO, Euclidean projection, membership, diameter and the
//! strong-convexity modulus of Assumption 2 (`assum:strongly-convex`).
//!
//! | set | LMO | projection | alpha (Assumption 2) |
//! |---|---|---|---|
//! | [`Simplex`] `{x >= 0, sum x = s}` | vertex `s e_i` | sort + threshold | none (polytope, flat faces) |
//! | [`L1Ball`] | vertex `-r sign(g_i) e_i` | l1 projection | none (polytope) |
//! | [`L2Ball`] | `c - r g/||g||` | radial | `1/r` (tight: `2/r` fails) |
//! | [`BoxSet`] | coordinate-wise bound | clip | none for dim >= 2; `2/(u-l)` for an interval |
//! | [`NuclearBall`] | `-r u_1 v_1^T` | SVD + l1 projection of singular values | none unless a dimension is 1 (then an l2 ball) |
//! | [`UnitColumns`] | column-wise `-g_j/||g_j||` | column-wise radial | none unless one column (then an l2 ball) |
//! | [`Product`] | blockwise | blockwise | none for two or more factors (flat across blocks) |
//!
//! Oracles write into caller buffers so the hot loop does not allocate. Matrix-valued sets use
//! flat row-major vectors whose shape the set knows.

mod ball;
mod boxset;
mod matrix;
mod polytope;
mod product;
mod spec;

pub use ball::L2Ball;
pub use boxset::BoxSet;
pub use matrix::{NuclearBall, UnitColumns};
pub use polytope::{L1Ball, Simplex};
pub use product::Product;
pub use spec::{Bound, SetKind, SetSpec};

/// The factors of a rank-one LMO vertex of a matrix set (flat row-major `rows x cols`): the
/// vertex is `(scale u_i) v_j` entry by entry, as [`ConvexSet::lmo_rank_one`] writes it.
/// A problem whose products are linear in x can update them along a Frank-Wolfe move towards
/// such a vertex instead of recomputing them ([`crate::SaddleProblem::note_fw_move`]).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct RankOne {
    /// The factor applied to `u` (`-r` for the nuclear-norm ball).
    pub scale: f64,
    /// Left factor (length rows).
    pub u: Vec<f64>,
    /// Right factor (length cols).
    pub v: Vec<f64>,
    /// Threads the set splits its oracles over (`NuclearBall::set_threads`); the move along
    /// the vertex may use as many (0 and 1: the calling thread).
    pub threads: usize,
    /// Where the rank-one block starts in x: 0 for a matrix set alone (the set writes it); in
    /// a [`Product`] with a rank-one factor, that factor's offset (summed through nested
    /// products) (the other blocks' vertices are written out
    /// in full by [`ConvexSet::lmo_rank_one`]).
    pub offset: usize,
}

/// A compact convex set with exact oracles.
///
/// `LMO_U(d) in argmin_{v in U} d^T v` (paper L465-467) and `PO_U(u) = argmin_{v in U} ||u - v||^2`
/// (L544-546). Ties in the LMO are broken deterministically (lowest index, lower bound).
pub trait ConvexSet: Send + Sync + std::fmt::Debug {
    /// Dimension of the ambient space (length of the flat vectors).
    fn dim(&self) -> usize;
    /// Short human-readable description, e.g. `l2_ball(r=1)`.
    fn name(&self) -> String;
    /// Linear minimisation oracle: writes a minimiser of `g^T v` over the set into `out`.
    fn lmo(&self, g: &[f64], out: &mut [f64]);
    /// The LMO, and when its vertex is rank one (the nuclear-norm ball) its factors in
    /// `vertex`, with `out` holding exactly `(scale u_i) v_j`: returns whether it is. The
    /// default writes the same vertex as [`ConvexSet::lmo`] and returns `false`.
    fn lmo_rank_one(&self, g: &[f64], out: &mut [f64], vertex: &mut RankOne) -> bool {
        let _ = vertex;
        self.lmo(g, out);
        false
    }
    /// The factors of the LMO vertex alone, when it is rank one, with nothing else written
    /// (the caller moves along `(scale u_i) v_j` without forming the vertex): `Some(true)` with
    /// the factors in `vertex`, `Some(false)` when the oracle failed (non-finite input),
    /// `None` when the set has no such oracle (then call [`ConvexSet::lmo_rank_one`]; the
    /// default).
    fn lmo_factors(&self, g: &[f64], vertex: &mut RankOne) -> Option<bool> {
        let _ = (g, vertex);
        None
    }
    /// Euclidean projection of `z` onto the set, written into `out`.
    fn project(&self, z: &[f64], out: &mut [f64]);
    /// Membership up to an absolute tolerance `tol` (scaled by the set's size where natural).
    fn contains(&self, z: &[f64], tol: f64) -> bool;
    /// Euclidean diameter `D = max ||u - v||` over the set (exact).
    fn diameter(&self) -> f64;
    /// The modulus alpha of Assumption 2 (`assum:strongly-convex`) when the set is strongly
    /// convex, `None` otherwise.
    fn strong_convexity(&self) -> Option<f64>;
    /// The spec this set was built from (for JSON round trips and reports).
    fn spec(&self) -> SetSpec;
    /// A deterministic point of the set (used as a default start).
    fn default_point(&self) -> Vec<f64> {
        let mut out = vec![0.0; self.dim()];
        let z = vec![0.0; self.dim()];
        self.project(&z, &mut out);
        out
    }
}

/// Index of the minimum entry, lowest index on ties (deterministic tie-breaking).
pub(crate) fn argmin(g: &[f64]) -> usize {
    let mut best = 0;
    for (i, &v) in g.iter().enumerate() {
        if v < g[best] {
            best = i;
        }
    }
    best
}

/// Checks a scalar parameter is finite and positive.
pub(crate) fn positive(what: &str, v: f64) -> crate::Result<f64> {
    if v.is_finite() && v > 0.0 {
        Ok(v)
    } else {
        Err(crate::Error::invalid(
            what,
            format!("must be a finite positive number, got {v}"),
        ))
    }
}
