//! Constraint sets with exact oracles: LMO, Euclidean projection, membership, diameter and the
//! strong-convexity modulus of Assumption 2 (`assum:strongly-convex`).
//!
//! | set | LMO | projection | alpha (Assumption 2) |
//! |---|---|---|---|
//! | [`Simplex`] `{x >= 0, sum x = s}` | vertex `s e_i` | sort + threshold | none (polytope, flat faces) |
//! | [`L1Ball`] | vertex `-r sign(g_i) e_i` | l1 projection | none (polytope) |
//! | [`L2Ball`] | `c - r g/\|\|g\|\|` | radial | `1/r` (tight: `2/r` fails) |
//! | [`BoxSet`] | coordinate-wise bound | clip | none for dim >= 2; `2/(u-l)` for an interval |
//! | [`NuclearBall`] | `-r u_1 v_1^T` | SVD + l1 projection of singular values | none unless a dimension is 1 (then an l2 ball) |
//! | [`UnitColumns`] | column-wise `-g_j/\|\|g_j\|\|` | column-wise radial | none unless one column (then an l2 ball) |
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
///
/// A set of your own needs its dimension and its LMO; the other oracles have defaults built
/// on the LMO (override them when you know better): the projection and membership by
/// Frank-Wolfe on `||v - z||^2 / 2` (approximate, with a certified error), the diameter by
/// the bounding box's diagonal (an upper bound), no strong-convexity modulus, no
/// [`SetSpec`] (a problem file cannot name it). Here the probability simplex through its LMO
/// alone, the x set of a bilinear problem run by Algorithm 1 (`lmo-lmo`):
///
/// ```
/// use saddlefw::prelude::*;
/// use saddlefw::problems::Quadratic;
/// use saddlefw::sets::L2Ball;
/// use saddlefw::solvers::{registry, Options};
///
/// #[derive(Debug)]
/// struct MySimplex(usize);
///
/// impl ConvexSet for MySimplex {
///     fn dim(&self) -> usize {
///         self.0
///     }
///     fn lmo(&self, g: &[f64], out: &mut [f64]) {
///         let i = (0..g.len()).fold(0, |b, i| if g[i] < g[b] { i } else { b });
///         out.iter_mut().enumerate().for_each(|(k, o)| *o = (k == i) as u8 as f64);
///     }
/// }
///
/// let (dx, dy) = (3, 2);
/// let b = vec![1.0, -1.0, 0.5, 0.0, 2.0, -1.0]; // L = y'Bx - y'y/2: strongly concave in y
/// let p = Quadratic::new(vec![0.0; 9], b, vec![1.0, 0.0, 0.0, 1.0], vec![0.0; 3], vec![0.0; 2],
///     Box::new(MySimplex(dx)), Box::new(L2Ball::new(vec![0.0; dy], 1.0).unwrap())).unwrap();
/// assert_eq!(p.constants().dx, 3f64.sqrt()); // the box diagonal: an upper bound of D = sqrt(2)
/// assert!(p.to_file(&[1.0, 0.0, 0.0], &[0.0, 0.0]).is_err()); // no SetSpec to write
/// let mut s = registry::find("lmo-lmo").unwrap().build(&p, &Options::default()).unwrap().solver;
/// let (x0, y0) = (p.x_set().default_point(), vec![0.0; dy]);
/// s.init(&p, &x0, &y0);
/// for t in 0..200 {
///     s.step(&p, t);
/// }
/// assert!(p.x_set().contains(s.x(), 1e-9)); // membership through the LMO
/// assert!((s.x().iter().sum::<f64>() - 1.0).abs() < 1e-9);
/// ```
pub trait ConvexSet: Send + Sync + std::fmt::Debug {
    /// Dimension of the ambient space (length of the flat vectors).
    fn dim(&self) -> usize;
    /// Short human-readable description, e.g. `l2_ball(r=1)` (default: the `Debug` form).
    fn name(&self) -> String {
        format!("{self:?}")
    }
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
    /// Euclidean projection of `z` onto the set, written into `out`. Default: Frank-Wolfe
    /// through the LMO ([`fw_projection`]), within its certified error of the exact one.
    fn project(&self, z: &[f64], out: &mut [f64]) {
        fw_projection(self, z, out);
    }
    /// Membership up to an absolute tolerance `tol` (scaled by the set's size where natural).
    /// Default: the distance of `z` to the default projection is at most `tol` plus the
    /// projection's certified error.
    fn contains(&self, z: &[f64], tol: f64) -> bool {
        let mut p = vec![0.0; z.len()];
        let gap = fw_projection(self, z, &mut p);
        let dist = p.iter().zip(z).map(|(p, z)| (p - z) * (p - z)).sum::<f64>();
        dist.sqrt() <= tol + (2.0 * gap).sqrt()
    }
    /// Euclidean diameter `D = max ||u - v||` over the set (exact for the built-in sets).
    /// Default: the diagonal of the bounding box, from `2 dim` LMO calls (an upper bound, at
    /// most `sqrt(dim)` times `D`; the bounds using it stay valid).
    fn diameter(&self) -> f64 {
        let n = self.dim();
        let (mut e, mut lo, mut hi) = (vec![0.0; n], vec![0.0; n], vec![0.0; n]);
        let mut sum = 0.0;
        for i in 0..n {
            e[i] = 1.0;
            self.lmo(&e, &mut lo); // minimises x_i
            e[i] = -1.0;
            self.lmo(&e, &mut hi); // maximises x_i
            e[i] = 0.0;
            sum += (hi[i] - lo[i]) * (hi[i] - lo[i]);
        }
        sum.sqrt()
    }
    /// The modulus alpha of Assumption 2 (`assum:strongly-convex`) when the set is strongly
    /// convex, `None` otherwise (the default: no such claim).
    fn strong_convexity(&self) -> Option<f64> {
        None
    }
    /// The spec this set was built from (for JSON round trips and reports); `None` (the
    /// default) for a set that is not one of the built-in ones.
    fn spec(&self) -> Option<SetSpec> {
        None
    }
    /// A deterministic point of the set (used as a default start).
    fn default_point(&self) -> Vec<f64> {
        let mut out = vec![0.0; self.dim()];
        let z = vec![0.0; self.dim()];
        self.project(&z, &mut out);
        out
    }
}

/// Iterations and relative gap at which [`fw_projection`] stops.
const FW_PROJECTION_ITERS: usize = 10_000;
const FW_PROJECTION_GAP: f64 = 1e-14;

/// The projection of `z` through the LMO alone: Frank-Wolfe with exact line search on
/// `min_v ||v - z||^2 / 2`, from the vertex `LMO(-z)`, until its gap is below
/// `1e-14 (1 + ||z||^2)` or after 10 000 steps. Writes the iterate into `out` and returns its
/// Frank-Wolfe gap, which certifies `||out - PO(z)|| <= sqrt(2 gap)` (the objective is
/// 1-strongly convex).
pub fn fw_projection<S: ConvexSet + ?Sized>(set: &S, z: &[f64], out: &mut [f64]) -> f64 {
    let n = z.len();
    let neg: Vec<f64> = z.iter().map(|v| -v).collect();
    set.lmo(&neg, out);
    let (mut g, mut s) = (vec![0.0; n], vec![0.0; n]);
    let tol = FW_PROJECTION_GAP * (1.0 + z.iter().map(|v| v * v).sum::<f64>());
    let mut gap = f64::INFINITY;
    for _ in 0..FW_PROJECTION_ITERS {
        g.iter_mut()
            .zip(out.iter().zip(z))
            .for_each(|(g, (v, z))| *g = v - z);
        set.lmo(&g, &mut s);
        let (mut slope, mut dd) = (0.0, 0.0);
        for i in 0..n {
            let d = s[i] - out[i];
            slope -= g[i] * d;
            dd += d * d;
        }
        gap = slope;
        if !(gap > tol) || dd == 0.0 {
            break;
        }
        let step = (gap / dd).min(1.0);
        for i in 0..n {
            out[i] += step * (s[i] - out[i]);
        }
    }
    gap.max(0.0)
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
