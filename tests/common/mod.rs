//! Shared strategies and helpers for the core property tests (issue 2): random sets of every
//! kind with random parameters, feasible points built *by construction* (map, don't filter),
//! closed-form support functions computed independently of the oracles under test, random
//! instances from every generator family and setting, and small numerical helpers.
//!
//! Tolerance conventions (ARCHITECTURE.md "Numerical conventions"): relative, scaled with the
//! dimension. `EPS` is the f64 unit roundoff; an inner product of n terms carries a rounding
//! error of at most about `n * EPS * sum|a_i b_i|`, so the helpers below use `1e-12 * (1 + n)`
//! (a margin of about 45x over `n * EPS`) wherever a comparison involves such sums.

#![allow(dead_code)]

pub mod fuzz;

use proptest::prelude::*;
use proptest::test_runner::{FileFailurePersistence, RngSeed};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rand_distr::StandardNormal;
use saddlefw::generators::{Family, GeneratorSpec, Setting, XKind};
use saddlefw::linalg::{dot, norm, svd};
use saddlefw::problems::{Instance, SaddleProblem};
use saddlefw::sets::{
    Bound, BoxSet, ConvexSet, L1Ball, L2Ball, NuclearBall, Product, SetSpec, Simplex, UnitColumns,
};

/// f64 unit roundoff.
pub const EPS: f64 = f64::EPSILON;

/// Proptest configuration: `cases` cases, regressions persisted in
/// `fixtures/proptest-regressions/<file>` (committed).
///
/// Reproducible by default: the case generator is seeded from the file name (a stable FNV-1a
/// hash), unless `PROPTEST_RNG_SEED` is set. `SADDLEFW_PROPTEST_MULT=k` multiplies the case
/// counts for a deeper (slower) exploration, e.g. `SADDLEFW_PROPTEST_MULT=20 PROPTEST_RNG_SEED=7`.
pub fn config(cases: u32, file: &str) -> ProptestConfig {
    let path = format!(
        "{}/fixtures/proptest-regressions/{file}",
        env!("CARGO_MANIFEST_DIR")
    );
    let mult: u32 = std::env::var("SADDLEFW_PROPTEST_MULT")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(1);
    let default = ProptestConfig::default();
    let rng_seed = if std::env::var("PROPTEST_RNG_SEED").is_ok() {
        default.rng_seed
    } else {
        let h = file.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
            (h ^ b as u64).wrapping_mul(0x100_0000_01b3)
        });
        RngSeed::Fixed(h)
    };
    ProptestConfig {
        cases: cases.saturating_mul(mult),
        rng_seed,
        failure_persistence: Some(Box::new(FileFailurePersistence::Direct(Box::leak(
            path.into_boxed_str(),
        )))),
        // keep shrinking bounded so a failure is reported in seconds
        max_shrink_iters: 2_000,
        ..default
    }
}

/// A seeded ChaCha8 stream.
pub fn rng(seed: u64) -> ChaCha8Rng {
    ChaCha8Rng::seed_from_u64(seed)
}

/// A standard Gaussian vector.
pub fn gauss(rng: &mut ChaCha8Rng, n: usize) -> Vec<f64> {
    (0..n)
        .map(|_| rng.sample::<f64, _>(StandardNormal))
        .collect()
}

/// A uniformly random unit vector.
pub fn unit(rng: &mut ChaCha8Rng, n: usize) -> Vec<f64> {
    loop {
        let g = gauss(rng, n);
        let ng = norm(&g);
        if ng > 1e-8 {
            return g.iter().map(|v| v / ng).collect();
        }
    }
}

/// `a - b`.
pub fn sub(a: &[f64], b: &[f64]) -> Vec<f64> {
    a.iter().zip(b).map(|(x, y)| x - y).collect()
}

/// `a + s b`.
pub fn add_scaled(a: &[f64], s: f64, b: &[f64]) -> Vec<f64> {
    a.iter().zip(b).map(|(x, y)| x + s * y).collect()
}

/// `(1 - t) a + t b`.
pub fn lerp(a: &[f64], b: &[f64], t: f64) -> Vec<f64> {
    a.iter()
        .zip(b)
        .map(|(x, y)| (1.0 - t) * x + t * y)
        .collect()
}

/// Euclidean distance.
pub fn dist(a: &[f64], b: &[f64]) -> f64 {
    norm(&sub(a, b))
}

/// A log-uniform number in `[lo, hi]`.
pub fn log_uniform(rng: &mut ChaCha8Rng, lo: f64, hi: f64) -> f64 {
    (rng.gen_range(lo.ln()..hi.ln())).exp()
}

// ---------------------------------------------------------------------------------------------
// Sets
// ---------------------------------------------------------------------------------------------

/// Every kind of set the crate provides (the interval `[0,B]` and 1-row / 1-column matrix
/// sets are listed separately because they are the strongly convex special cases).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Simplex,
    L1,
    L2,
    Box,
    Interval,
    Nuclear,
    NuclearRow,
    UnitColumns,
    UnitColumn,
    Product,
    Dictionary,
}

impl Kind {
    pub const ALL: [Kind; 11] = [
        Kind::Simplex,
        Kind::L1,
        Kind::L2,
        Kind::Box,
        Kind::Interval,
        Kind::Nuclear,
        Kind::NuclearRow,
        Kind::UnitColumns,
        Kind::UnitColumn,
        Kind::Product,
        Kind::Dictionary,
    ];
}

/// A random set: its kind, two size parameters and a seed for the parameters. Shrinks towards
/// small sizes and the first kinds.
#[derive(Debug, Clone, Copy)]
pub struct SetCase {
    pub kind: Kind,
    pub n: usize,
    pub m: usize,
    pub seed: u64,
}

/// Strategy over every kind of set with random sizes and parameters.
pub fn set_case() -> impl Strategy<Value = SetCase> {
    (0..Kind::ALL.len(), 1usize..9, 1usize..7, any::<u64>()).prop_map(|(k, n, m, seed)| SetCase {
        kind: Kind::ALL[k],
        n,
        m,
        seed,
    })
}

impl SetCase {
    /// Builds the set (random scale, radius, centre, bounds from `seed`).
    pub fn build(&self) -> Box<dyn ConvexSet> {
        let mut r = rng(self.seed);
        build_kind(self.kind, self.n, self.m, &mut r)
    }
}

/// Builds a set of the given kind with random parameters.
pub fn build_kind(kind: Kind, n: usize, m: usize, r: &mut ChaCha8Rng) -> Box<dyn ConvexSet> {
    let size = log_uniform(r, 0.1, 10.0);
    match kind {
        Kind::Simplex => Box::new(Simplex::new(n, size).unwrap()),
        Kind::L1 => Box::new(L1Ball::new(n, size).unwrap()),
        Kind::L2 => {
            let c: Vec<f64> = if r.gen_bool(0.3) {
                vec![0.0; n]
            } else {
                gauss(r, n).iter().map(|v| v * size).collect()
            };
            Box::new(L2Ball::new(c, size).unwrap())
        }
        Kind::Box => {
            let lower: Vec<f64> = gauss(r, n).iter().map(|v| v * size).collect();
            let upper: Vec<f64> = lower
                .iter()
                .map(|l| {
                    // occasionally a degenerate coordinate (lower = upper), still a valid box
                    if r.gen_bool(0.1) {
                        *l
                    } else {
                        l + size * r.gen_range(0.05..2.0)
                    }
                })
                .collect();
            Box::new(BoxSet::new(lower, upper).unwrap())
        }
        Kind::Interval => {
            // [0, B] (the paper's dual set in the dictionary experiment) or a shifted interval
            if r.gen_bool(0.5) {
                Box::new(BoxSet::interval(size).unwrap())
            } else {
                let l = size * r.gen_range(-2.0..2.0);
                Box::new(BoxSet::new(vec![l], vec![l + size]).unwrap())
            }
        }
        Kind::Nuclear => Box::new(NuclearBall::new(n.min(6), m, size).unwrap()),
        Kind::NuclearRow => {
            if r.gen_bool(0.5) {
                Box::new(NuclearBall::new(1, n, size).unwrap())
            } else {
                Box::new(NuclearBall::new(n, 1, size).unwrap())
            }
        }
        Kind::UnitColumns => Box::new(UnitColumns::new(n.min(6), m, size).unwrap()),
        Kind::UnitColumn => Box::new(UnitColumns::new(n, 1, size).unwrap()),
        Kind::Product => {
            let a = [Kind::Simplex, Kind::L1, Kind::L2, Kind::Box][r.gen_range(0..4)];
            let b = [Kind::L2, Kind::Interval, Kind::Nuclear][r.gen_range(0..3)];
            let pa = build_kind(a, n, m, r);
            let pb = build_kind(b, m, 2, r);
            Box::new(Product::new(vec![pa, pb]).unwrap())
        }
        Kind::Dictionary => {
            // {D : ||d_j|| <= 1} x {C : ||C||_* <= r} (the paper's dictionary-learning X)
            let d = UnitColumns::new(n.min(5), m, 1.0).unwrap();
            let c = NuclearBall::new(m, n.min(5) + 1, size).unwrap();
            Box::new(Product::new(vec![Box::new(d), Box::new(c)]).unwrap())
        }
    }
}

/// The dimensions of the factors of a product spec.
fn part_dims(parts: &[SetSpec]) -> Vec<usize> {
    parts
        .iter()
        .map(|p| {
            p.fixed_dim()
                .expect("test products declare every factor's dimension")
        })
        .collect()
}

fn expand(b: &Bound, n: usize) -> Vec<f64> {
    match b {
        Bound::Scalar(v) => vec![*v; n],
        Bound::Vector(v) => v.clone(),
    }
}

/// How a random feasible point is drawn.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Draw {
    /// Anywhere (mixture of interior, boundary and extreme points).
    Any,
    /// On the relative boundary (for the strong-convexity checks).
    Boundary,
}

/// A random point of the set, feasible by construction from its spec (no oracle involved).
pub fn random_point(set: &dyn ConvexSet, r: &mut ChaCha8Rng, draw: Draw) -> Vec<f64> {
    point_from_spec(&set.spec().expect("a built-in set"), set.dim(), r, draw)
}

fn point_from_spec(spec: &SetSpec, n: usize, r: &mut ChaCha8Rng, draw: Draw) -> Vec<f64> {
    let boundary = draw == Draw::Boundary || r.gen_bool(0.3);
    match spec {
        SetSpec::Simplex { scale, .. } => {
            let s = scale.unwrap_or(1.0);
            // sparse or dense non-negative weights, normalised to sum s
            let sparse = r.gen_bool(0.3);
            let mut w: Vec<f64> = (0..n)
                .map(|_| {
                    if sparse && r.gen_bool(0.5) {
                        0.0
                    } else {
                        -r.gen_range(1e-12f64..1.0).ln()
                    }
                })
                .collect();
            if w.iter().sum::<f64>() == 0.0 {
                w[r.gen_range(0..n)] = 1.0;
            }
            let t: f64 = w.iter().sum();
            w.iter().map(|v| s * v / t).collect()
        }
        SetSpec::L1Ball { radius, .. } => {
            let p = point_from_spec(
                &SetSpec::Simplex {
                    scale: Some(1.0),
                    dim: Some(n),
                },
                n,
                r,
                draw,
            );
            let rho = if boundary { 1.0 } else { r.gen_range(0.0..1.0) };
            p.iter()
                .map(|v| if r.gen_bool(0.5) { -v } else { *v } * radius * rho)
                .collect()
        }
        SetSpec::L2Ball { radius, center, .. } => {
            let c = center.clone().unwrap_or_else(|| vec![0.0; n]);
            let u = unit(r, n);
            let rho = if boundary {
                1.0
            } else {
                r.gen_range(0.0f64..1.0).powf(1.0 / n as f64)
            };
            // a point at distance exactly r*rho (rounding may push a boundary point out by an ulp)
            add_scaled(&c, radius * rho, &u)
        }
        SetSpec::Box { lower, upper, .. } => {
            let (l, u) = (expand(lower, n), expand(upper, n));
            (0..n)
                .map(|i| {
                    let t = if boundary && r.gen_bool(0.7) {
                        if r.gen_bool(0.5) {
                            0.0
                        } else {
                            1.0
                        }
                    } else {
                        r.gen_range(0.0..1.0)
                    };
                    if t == 0.0 {
                        l[i]
                    } else if t == 1.0 {
                        u[i]
                    } else {
                        (l[i] + t * (u[i] - l[i])).clamp(l[i], u[i])
                    }
                })
                .collect()
        }
        SetSpec::NuclearBall { rows, cols, radius } => {
            // sum_k w_k a_k b_k^T with unit a_k, b_k and sum w_k <= r: nuclear norm <= sum w_k
            let k = r.gen_range(1..=(*rows).min(*cols).max(1) + 1);
            let total = if boundary { 1.0 } else { r.gen_range(0.0..1.0) } * radius;
            let w = point_from_spec(
                &SetSpec::Simplex {
                    scale: Some(total),
                    dim: Some(k),
                },
                k,
                r,
                Draw::Any,
            );
            let mut out = vec![0.0; rows * cols];
            for wk in w {
                let a = unit(r, *rows);
                let b = unit(r, *cols);
                for i in 0..*rows {
                    for j in 0..*cols {
                        out[i * cols + j] += wk * a[i] * b[j];
                    }
                }
            }
            // the triangle inequality is exact in the bound but not in rounding: shrink by 1e-14
            out.iter().map(|v| v * (1.0 - 1e-14)).collect()
        }
        SetSpec::UnitColumns { rows, cols, radius } => {
            let rad = radius.unwrap_or(1.0);
            let mut out = vec![0.0; rows * cols];
            for j in 0..*cols {
                let a = unit(r, *rows);
                let rho = if boundary || r.gen_bool(0.3) {
                    1.0
                } else {
                    r.gen_range(0.0..1.0)
                };
                for i in 0..*rows {
                    out[i * cols + j] = rad * rho * a[i];
                }
            }
            out
        }
        SetSpec::Product { parts } => {
            let dims = part_dims(parts);
            let mut out = Vec::with_capacity(n);
            for (p, d) in parts.iter().zip(dims) {
                out.extend(point_from_spec(p, d, r, draw));
            }
            out
        }
    }
}

/// A point in the relative interior of the set (its centre), from the spec.
pub fn centre(set: &dyn ConvexSet) -> Vec<f64> {
    centre_spec(&set.spec().expect("a built-in set"), set.dim())
}

fn centre_spec(spec: &SetSpec, n: usize) -> Vec<f64> {
    match spec {
        SetSpec::Simplex { scale, .. } => vec![scale.unwrap_or(1.0) / n as f64; n],
        SetSpec::L2Ball { center, .. } => center.clone().unwrap_or_else(|| vec![0.0; n]),
        SetSpec::Box { lower, upper, .. } => {
            let (l, u) = (expand(lower, n), expand(upper, n));
            l.iter().zip(&u).map(|(a, b)| 0.5 * (a + b)).collect()
        }
        SetSpec::Product { parts } => {
            let dims = part_dims(parts);
            parts
                .iter()
                .zip(dims)
                .flat_map(|(p, d)| centre_spec(p, d))
                .collect()
        }
        _ => vec![0.0; n],
    }
}

/// Projects a direction onto the subspace parallel to the set's affine hull (sum-zero blocks
/// for simplices, fixed coordinates of degenerate boxes removed), so that
/// `centre + t v` stays feasible for small t.
pub fn tangent(set: &dyn ConvexSet, v: &[f64]) -> Vec<f64> {
    tangent_spec(&set.spec().expect("a built-in set"), v)
}

fn tangent_spec(spec: &SetSpec, v: &[f64]) -> Vec<f64> {
    let n = v.len();
    match spec {
        SetSpec::Simplex { .. } => {
            let m = v.iter().sum::<f64>() / n as f64;
            v.iter().map(|x| x - m).collect()
        }
        SetSpec::Box { lower, upper, .. } => {
            let (l, u) = (expand(lower, n), expand(upper, n));
            (0..n)
                .map(|i| if u[i] > l[i] { v[i] } else { 0.0 })
                .collect()
        }
        SetSpec::Product { parts } => {
            let dims = part_dims(parts);
            let mut out = Vec::with_capacity(n);
            let mut off = 0;
            for (p, d) in parts.iter().zip(dims) {
                out.extend(tangent_spec(p, &v[off..off + d]));
                off += d;
            }
            out
        }
        _ => v.to_vec(),
    }
}

/// A pair of points of the set at distance exactly the diameter (constructed from the spec).
pub fn diameter_pair(set: &dyn ConvexSet) -> (Vec<f64>, Vec<f64>) {
    pair_spec(&set.spec().expect("a built-in set"), set.dim())
}

fn pair_spec(spec: &SetSpec, n: usize) -> (Vec<f64>, Vec<f64>) {
    match spec {
        SetSpec::Simplex { scale, .. } => {
            let s = scale.unwrap_or(1.0);
            let mut a = vec![0.0; n];
            let mut b = vec![0.0; n];
            a[0] = s;
            b[n - 1] = s;
            (a, b)
        }
        SetSpec::L1Ball { radius, .. } => {
            let mut a = vec![0.0; n];
            a[0] = *radius;
            (a.clone(), a.iter().map(|v| -v).collect())
        }
        SetSpec::L2Ball { radius, center, .. } => {
            let c = center.clone().unwrap_or_else(|| vec![0.0; n]);
            let mut a = c.clone();
            let mut b = c;
            a[0] += radius;
            b[0] -= radius;
            (a, b)
        }
        SetSpec::Box { lower, upper, .. } => (expand(lower, n), expand(upper, n)),
        SetSpec::NuclearBall { cols, radius, .. } => {
            let mut a = vec![0.0; n];
            a[0] = *radius;
            let _ = cols;
            (a.clone(), a.iter().map(|v| -v).collect())
        }
        SetSpec::UnitColumns { cols, radius, .. } => {
            let mut a = vec![0.0; n];
            for j in 0..*cols {
                a[j] = radius.unwrap_or(1.0); // row 0 of every column
            }
            (a.clone(), a.iter().map(|v| -v).collect())
        }
        SetSpec::Product { parts } => {
            let dims = part_dims(parts);
            let (mut a, mut b) = (Vec::new(), Vec::new());
            for (p, d) in parts.iter().zip(dims) {
                let (pa, pb) = pair_spec(p, d);
                a.extend(pa);
                b.extend(pb);
            }
            (a, b)
        }
    }
}

/// The support value `min_{v in U} g^T v`, computed in closed form from the spec (independent
/// of the LMO code: sorting, norms, and the Jacobi SVD for the nuclear ball).
pub fn support(set: &dyn ConvexSet, g: &[f64]) -> f64 {
    support_spec(&set.spec().expect("a built-in set"), g)
}

fn support_spec(spec: &SetSpec, g: &[f64]) -> f64 {
    let n = g.len();
    match spec {
        SetSpec::Simplex { scale, .. } => {
            scale.unwrap_or(1.0) * g.iter().cloned().fold(f64::INFINITY, f64::min)
        }
        SetSpec::L1Ball { radius, .. } => -radius * g.iter().fold(0.0f64, |m, v| m.max(v.abs())),
        SetSpec::L2Ball { radius, center, .. } => {
            let c = center.clone().unwrap_or_else(|| vec![0.0; n]);
            dot(g, &c) - radius * norm(g)
        }
        SetSpec::Box { lower, upper, .. } => {
            let (l, u) = (expand(lower, n), expand(upper, n));
            (0..n).map(|i| (g[i] * l[i]).min(g[i] * u[i])).sum()
        }
        SetSpec::NuclearBall { rows, cols, radius } => -radius * svd(g, *rows, *cols).s[0],
        SetSpec::UnitColumns { rows, cols, radius } => {
            let mut s = 0.0;
            for j in 0..*cols {
                let c: f64 = (0..*rows)
                    .map(|i| g[i * cols + j].powi(2))
                    .sum::<f64>()
                    .sqrt();
                s += c;
            }
            -radius.unwrap_or(1.0) * s
        }
        SetSpec::Product { parts } => {
            let dims = part_dims(parts);
            let mut off = 0;
            let mut s = 0.0;
            for (p, d) in parts.iter().zip(dims) {
                s += support_spec(p, &g[off..off + d]);
                off += d;
            }
            s
        }
    }
}

/// The largest Euclidean norm of a point of the set (`||c|| + D` is a bound; exact enough for
/// scaling tolerances).
pub fn radius_bound(set: &dyn ConvexSet) -> f64 {
    norm(&centre(set)) + set.diameter()
}

/// A random gradient, sometimes with ties (repeated entries) or exactly zero.
pub fn random_gradient(r: &mut ChaCha8Rng, n: usize) -> Vec<f64> {
    match r.gen_range(0..10) {
        0 => vec![0.0; n],
        1 => {
            // ties: entries from a tiny alphabet
            (0..n)
                .map(|_| [-1.0, 0.0, 1.0, 2.0][r.gen_range(0..4)])
                .collect()
        }
        _ => {
            let s = log_uniform(r, 1e-3, 1e3);
            gauss(r, n).iter().map(|v| v * s).collect()
        }
    }
}

/// LMO output.
pub fn lmo(set: &dyn ConvexSet, g: &[f64]) -> Vec<f64> {
    let mut out = vec![f64::NAN; set.dim()];
    set.lmo(g, &mut out);
    out
}

/// Projection output.
pub fn project(set: &dyn ConvexSet, z: &[f64]) -> Vec<f64> {
    let mut out = vec![f64::NAN; set.dim()];
    set.project(z, &mut out);
    out
}

// ---------------------------------------------------------------------------------------------
// Random matrices
// ---------------------------------------------------------------------------------------------

/// `U diag(s) V^T` for random orthonormal U (rows x k), V (cols x k), k = s.len().
pub fn matrix_with_spectrum(r: &mut ChaCha8Rng, rows: usize, cols: usize, s: &[f64]) -> Vec<f64> {
    let u = orthonormal_columns(r, rows, s.len());
    let v = orthonormal_columns(r, cols, s.len());
    let k = s.len();
    let mut a = vec![0.0; rows * cols];
    for i in 0..rows {
        for j in 0..cols {
            a[i * cols + j] = (0..k).map(|l| u[i * k + l] * s[l] * v[j * k + l]).sum();
        }
    }
    a
}

/// Random `n x k` (k <= n) matrix with orthonormal columns (modified Gram-Schmidt, twice).
pub fn orthonormal_columns(r: &mut ChaCha8Rng, n: usize, k: usize) -> Vec<f64> {
    assert!(k <= n);
    let mut cols: Vec<Vec<f64>> = Vec::new();
    while cols.len() < k {
        let mut v = gauss(r, n);
        for _ in 0..2 {
            for c in &cols {
                let d = dot(&v, c);
                v = add_scaled(&v, -d, c);
            }
        }
        let nv = norm(&v);
        if nv > 1e-6 {
            cols.push(v.iter().map(|x| x / nv).collect());
        }
    }
    let mut out = vec![0.0; n * k];
    for (l, c) in cols.iter().enumerate() {
        for i in 0..n {
            out[i * k + l] = c[i];
        }
    }
    out
}

// ---------------------------------------------------------------------------------------------
// Instances
// ---------------------------------------------------------------------------------------------

/// Every valid (family, setting) pair of the generators: quadratic in all eight settings,
/// saddle in the four convex ones, cosine in the four nonconvex ones.
pub fn family_settings() -> Vec<(Family, Setting)> {
    let mut v = Vec::new();
    for s in Setting::all() {
        v.push((Family::Quadratic, s));
        if s.convex {
            v.push((Family::Saddle, s));
        } else {
            v.push((Family::Cosine, s));
        }
    }
    v
}

/// A random generator spec (shrinks towards small dimensions).
#[derive(Debug, Clone)]
pub struct InstanceCase {
    pub spec: GeneratorSpec,
}

impl InstanceCase {
    pub fn generate(&self) -> Instance {
        self.spec.generate().expect("valid generator spec")
    }
}

pub const XKINDS: [XKind; 4] = [XKind::L1, XKind::L2, XKind::Simplex, XKind::Box];

/// Strategy over every family, setting and X kind.
pub fn instance_case() -> impl Strategy<Value = InstanceCase> {
    let fs = family_settings();
    (
        0..fs.len(),
        1usize..7,
        2usize..6,
        any::<u64>(),
        0..XKINDS.len(),
    )
        .prop_map(move |(i, dx, dy, seed, xk)| {
            let (family, setting) = fs[i];
            let mut spec = GeneratorSpec::new(family, setting, dx, dy, seed);
            spec.x = XKINDS[xk];
            InstanceCase { spec }
        })
}

/// Every (family, setting) with the default X, for deterministic sweeps.
pub fn every_instance(dx: usize, dy: usize, seed: u64) -> Vec<Instance> {
    family_settings()
        .into_iter()
        .map(|(f, s)| GeneratorSpec::new(f, s, dx, dy, seed).generate().unwrap())
        .collect()
}

/// `grad_x L(x, y)`.
pub fn gx<P: SaddleProblem + ?Sized>(p: &P, x: &[f64], y: &[f64]) -> Vec<f64> {
    let mut g = vec![0.0; x.len()];
    p.grad_x(x, y, &mut g);
    g
}

/// `grad_y L(x, y)`.
pub fn gy<P: SaddleProblem + ?Sized>(p: &P, x: &[f64], y: &[f64]) -> Vec<f64> {
    let mut g = vec![0.0; y.len()];
    p.grad_y(x, y, &mut g);
    g
}

/// `L_beta(x, y) = L(x, y) - beta/2 ||y - y0||^2` (`eq:fL:mu`).
pub fn l_beta<P: SaddleProblem + ?Sized>(
    p: &P,
    x: &[f64],
    y: &[f64],
    beta: f64,
    y0: &[f64],
) -> f64 {
    p.value(x, y) - 0.5 * beta * dist(y, y0).powi(2)
}

/// `grad_y L_beta(x, y)`.
pub fn gy_beta<P: SaddleProblem + ?Sized>(
    p: &P,
    x: &[f64],
    y: &[f64],
    beta: f64,
    y0: &[f64],
) -> Vec<f64> {
    let g = gy(p, x, y);
    g.iter()
        .zip(y.iter().zip(y0))
        .map(|(gi, (yi, y0i))| gi - beta * (yi - y0i))
        .collect()
}

/// A scale for absolute tolerances on values of L at (x, y): the magnitude of the terms.
pub fn value_scale<P: SaddleProblem + ?Sized>(p: &P, x: &[f64], y: &[f64]) -> f64 {
    let k = p.constants();
    let (nx, ny) = (norm(x), norm(y));
    1.0 + p.value(x, y).abs()
        + k.lxx * nx * nx
        + k.lyx * nx * ny
        + k.lyy * ny * ny
        + norm(&gx(p, x, y)) * nx
        + norm(&gy(p, x, y)) * ny
}

/// Independent membership test from the spec, with relative tolerance `tol` (relative to the
/// set's size: radius, scale or bound width plus magnitude). Used instead of
/// `ConvexSet::contains` where the test must not trust the code under test.
pub fn member(set: &dyn ConvexSet, z: &[f64], tol: f64) -> bool {
    z.len() == set.dim()
        && z.iter().all(|v| v.is_finite())
        && member_spec(&set.spec().expect("a built-in set"), z, tol)
}

fn member_spec(spec: &SetSpec, z: &[f64], tol: f64) -> bool {
    let n = z.len();
    match spec {
        SetSpec::Simplex { scale, .. } => {
            let s = scale.unwrap_or(1.0);
            z.iter().all(|&v| v >= -tol * s) && (z.iter().sum::<f64>() - s).abs() <= tol * s
        }
        SetSpec::L1Ball { radius, .. } => {
            z.iter().map(|v| v.abs()).sum::<f64>() <= radius * (1.0 + tol)
        }
        SetSpec::L2Ball { radius, center, .. } => {
            let c = center.clone().unwrap_or_else(|| vec![0.0; n]);
            // the rounding of z - c is relative to ||c||, hence the ||c|| term
            dist(z, &c) <= radius * (1.0 + tol) + tol * norm(&c)
        }
        SetSpec::Box { lower, upper, .. } => {
            let (l, u) = (expand(lower, n), expand(upper, n));
            (0..n).all(|i| {
                let s = tol * (1.0 + (u[i] - l[i]) + l[i].abs().max(u[i].abs()));
                z[i] >= l[i] - s && z[i] <= u[i] + s
            })
        }
        SetSpec::NuclearBall { rows, cols, radius } => {
            svd(z, *rows, *cols).s.iter().sum::<f64>() <= radius * (1.0 + tol)
        }
        SetSpec::UnitColumns { rows, cols, radius } => (0..*cols).all(|j| {
            let c: f64 = (0..*rows)
                .map(|i| z[i * cols + j].powi(2))
                .sum::<f64>()
                .sqrt();
            c <= radius.unwrap_or(1.0) * (1.0 + tol)
        }),
        SetSpec::Product { parts } => {
            let dims = part_dims(parts);
            let mut off = 0;
            parts.iter().zip(dims).all(|(p, d)| {
                let ok = member_spec(p, &z[off..off + d], tol);
                off += d;
                ok
            })
        }
    }
}

/// Whether the set contains a nuclear-norm factor (its oracles are iterative / SVD-based and
/// get the looser 1e-9 relative tolerance of the issue instead of the rounding tolerance).
pub fn has_nuclear(set: &dyn ConvexSet) -> bool {
    fn rec(s: &SetSpec) -> bool {
        match s {
            SetSpec::NuclearBall { .. } => true,
            SetSpec::Product { parts } => parts.iter().any(rec),
            _ => false,
        }
    }
    rec(&set.spec().expect("a built-in set"))
}

/// Strategy over larger sets (dimension up to a few hundred; matrix sets up to 30 x 30).
pub fn set_case_large() -> impl Strategy<Value = SetCase> {
    (0..Kind::ALL.len(), 10usize..300, 2usize..30, any::<u64>()).prop_map(|(k, n, m, seed)| {
        let kind = Kind::ALL[k];
        let n = match kind {
            // matrix kinds use min(n, 6) rows internally; keep them moderate
            Kind::Nuclear
            | Kind::UnitColumns
            | Kind::Dictionary
            | Kind::NuclearRow
            | Kind::UnitColumn => n.min(30),
            _ => n,
        };
        SetCase { kind, n, m, seed }
    })
}

/// What the binary did: exit code (-1 when killed by a signal), stdout and stderr.
pub struct Out {
    pub code: i32,
    pub stdout: String,
    pub stderr: String,
}

/// Runs the `saddlefw` binary with `args` and collects its output.
pub fn saddlefw(args: &[&str]) -> Out {
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_saddlefw"))
        .args(args)
        .output()
        .expect("the binary runs");
    Out {
        code: o.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&o.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&o.stderr).into_owned(),
    }
}

/// Records `horizon` steps of the paper algorithm `alg` (default schedule) on the generated
/// instance of an invariants case, with the exact measures, as `saddlefw check` does.
pub fn record_paper_run<'a>(
    case: &saddlefw::invariants::check::CaseSpec,
    inst: &'a Instance,
    alg: saddlefw::paper::Algorithm,
    horizon: usize,
) -> saddlefw::invariants::context::RunCtx<'a> {
    use saddlefw::invariants::case::build_run;
    use saddlefw::invariants::check::SolverSpec;
    use saddlefw::invariants::context::{RunCtx, RunSpec};
    let p = inst.problem.as_ref();
    let (mut s, structure, desc) = build_run(&SolverSpec::paper(alg), p).unwrap();
    RunCtx::record(
        p,
        s.as_mut(),
        RunSpec {
            instance: case.instance.to_string(),
            solver_desc: desc,
            structure,
            x0: &inst.x0,
            y0: &inst.y0,
            horizon,
            measures: saddlefw::invariants::EXACT_MEASURES,
            extra_xstars: vec![],
        },
    )
}

/// Runs a command printed by saddlefw (`saddlefw run ...`, `saddlefw verify ...`) as printed,
/// through `sh -c` in `dir`, with the program name replaced by this build's binary.
pub fn run_printed(cmd: &str, dir: &std::path::Path) -> std::process::Output {
    let rest = cmd
        .strip_prefix("saddlefw ")
        .unwrap_or_else(|| panic!("not a saddlefw command: {cmd}"));
    let bin = env!("CARGO_BIN_EXE_saddlefw");
    std::process::Command::new("sh")
        .arg("-c")
        .arg(format!("'{bin}' {rest}"))
        .current_dir(dir)
        .output()
        .unwrap()
}
