//! Seeded random instances for every setting the paper covers (NC-C, NC-SC, C-C, C-SC, each
//! with and without a strongly convex Y), with certified constants and assumption flags, and
//! instances built around a known saddle point.
//!
//! A generator spec is a string `FAMILY/SETTING[:key=value,...]`, for example
//! `quadratic/c-sc+sc:dx=20,dy=10,seed=7` or `cosine/nc-c:dx=8,dy=4`. Families:
//! * `quadratic`: `L = 1/2 x'Ax + y'Bx - 1/2 y'Cy + a'x - c'y`; A PSD for convex settings,
//!   indefinite otherwise; `C = mu I` (mu > 0) for strongly concave settings, `C = 0` otherwise.
//! * `saddle`: a convex-concave quadratic with a known interior saddle point (f* exact).
//! * `cosine`: the nonconvex cosine-landscape family (NC settings only).
//!
//! Y is the Euclidean ball (alpha = 1/r) when the setting ends in `+sc`, the simplex otherwise.
//! X defaults to the l1 ball (key `x=l1|l2|simplex|box`).
//!
//! # Example
//! ```
//! use saddlefw::generators::GeneratorSpec;
//! let spec: GeneratorSpec = "quadratic/c-sc+sc:dx=20,dy=10,seed=7".parse().unwrap();
//! assert_eq!(spec.to_string(), "quadratic/c-sc+sc:dx=20,dy=10,seed=7,x=l1");
//! let inst = spec.generate().unwrap();
//! assert_eq!((inst.x0.len(), inst.y0.len()), (20, 10));
//! assert!(inst.problem.y_set().strong_convexity().is_some()); // "+sc": Y is a ball
//! // bad specs name the spec, the key and the reason
//! let e = "quadratic/c-c:dx=two".parse::<GeneratorSpec>().unwrap_err();
//! assert_eq!(e.to_string(), r#"generator spec "quadratic/c-c:dx=two": key "dx": "two" is not a non-negative integer"#);
//! ```

use crate::problems::{CosineFamily, Instance, Quadratic, SaddleProblem};
use crate::sets::{BoxSet, ConvexSet, L1Ball, L2Ball, Simplex};
use crate::{Error, Result};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rand_distr::StandardNormal;
use std::fmt;
use std::str::FromStr;

pub use crate::paper::Setting;

/// Generator families.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Family {
    Quadratic,
    Saddle,
    Cosine,
}

impl Family {
    /// Every family, for listings.
    pub const ALL: [Family; 3] = [Family::Quadratic, Family::Saddle, Family::Cosine];
    /// The spec name.
    pub fn name(&self) -> &'static str {
        match self {
            Family::Quadratic => "quadratic",
            Family::Saddle => "saddle",
            Family::Cosine => "cosine",
        }
    }
    /// One-line description.
    pub fn description(&self) -> &'static str {
        match self {
            Family::Quadratic => "1/2 x'Ax + y'Bx - 1/2 y'Cy + a'x - c'y; every setting",
            Family::Saddle => {
                "convex-concave quadratic with a known interior saddle point (f* exact)"
            }
            Family::Cosine => {
                "separable cosine x-landscape + bilinear coupling; nonconvex settings"
            }
        }
    }
}

/// Which set to use for X.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum XKind {
    L1,
    L2,
    Simplex,
    Box,
}

impl XKind {
    /// Every kind, for listings and parsing.
    pub const ALL: [XKind; 4] = [XKind::L1, XKind::L2, XKind::Simplex, XKind::Box];
    /// The spec name (`x=...`).
    pub fn name(&self) -> &'static str {
        match self {
            XKind::L1 => "l1",
            XKind::L2 => "l2",
            XKind::Simplex => "simplex",
            XKind::Box => "box",
        }
    }
}

/// A parsed generator spec; `Display` and `FromStr` round-trip.
#[derive(Debug, Clone, PartialEq)]
pub struct GeneratorSpec {
    pub family: Family,
    pub setting: Setting,
    pub dx: usize,
    pub dy: usize,
    pub seed: u64,
    pub x: XKind,
}

impl fmt::Display for GeneratorSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}/{}:dx={},dy={},seed={},x={}",
            self.family.name(),
            self.setting,
            self.dx,
            self.dy,
            self.seed,
            self.x.name()
        )
    }
}

impl FromStr for GeneratorSpec {
    type Err = Error;
    fn from_str(s: &str) -> Result<Self> {
        let err =
            |loc: &str, reason: String| Error::input(format!("generator spec {s:?}"), loc, reason);
        let (head, opts) = match s.split_once(':') {
            Some((h, o)) => (h, o),
            None => (s, ""),
        };
        let (fam, setting) = head.split_once('/').ok_or_else(|| {
            err(
                "family/setting",
                "expected FAMILY/SETTING, e.g. quadratic/nc-c".into(),
            )
        })?;
        let names =
            |all: &mut dyn Iterator<Item = &'static str>| all.collect::<Vec<_>>().join(", ");
        let family = Family::ALL
            .into_iter()
            .find(|f| f.name() == fam)
            .ok_or_else(|| {
                err(
                    "family",
                    format!(
                        "unknown family {fam:?} (expected one of {})",
                        names(&mut Family::ALL.iter().map(|f| f.name()))
                    ),
                )
            })?;
        let setting: Setting = setting
            .parse()
            .map_err(|e: Error| err("setting", e.to_string()))?;
        let mut spec = GeneratorSpec {
            family,
            setting,
            dx: 10,
            dy: 5,
            seed: 0,
            x: XKind::L1,
        };
        let mut seen: Vec<&str> = Vec::new();
        for kv in opts.split(',').filter(|p| !p.is_empty()) {
            let (k, v) = kv
                .split_once('=')
                .ok_or_else(|| err(&format!("option {kv:?}"), "expected key=value".into()))?;
            let key = format!("key {k:?}");
            if seen.contains(&k) {
                return Err(err(&key, "given twice".into()));
            }
            seen.push(k);
            let num = |v: &str| -> Result<u64> {
                v.parse::<u64>()
                    .map_err(|_| err(&key, format!("{v:?} is not a non-negative integer")))
            };
            match k {
                "dx" => spec.dx = num(v)? as usize,
                "dy" => spec.dy = num(v)? as usize,
                "seed" => spec.seed = num(v)?,
                "x" => {
                    spec.x = XKind::ALL
                        .into_iter()
                        .find(|x| x.name() == v)
                        .ok_or_else(|| {
                            err(
                                &key,
                                format!(
                                    "unknown set {v:?} (one of {})",
                                    names(&mut XKind::ALL.iter().map(|x| x.name()))
                                ),
                            )
                        })?
                }
                _ => return Err(err(&key, "unknown key (dx, dy, seed, x)".into())),
            }
        }
        spec.validate()
            .map_err(|e| err("parameters", e.to_string()))?;
        Ok(spec)
    }
}

impl GeneratorSpec {
    /// A spec with defaults for a family and setting.
    pub fn new(family: Family, setting: Setting, dx: usize, dy: usize, seed: u64) -> Self {
        GeneratorSpec {
            family,
            setting,
            dx,
            dy,
            seed,
            x: XKind::L1,
        }
    }

    fn validate(&self) -> Result<()> {
        if self.dx == 0 || self.dy == 0 {
            return Err(Error::invalid("dimensions", "dx and dy must be at least 1"));
        }
        if self.dx > 5000 || self.dy > 5000 {
            return Err(Error::invalid(
                "dimensions",
                "dx and dy are limited to 5000 for dense generators",
            ));
        }
        if !self.setting.sc_y && self.dy < 2 {
            return Err(Error::invalid("dy", "a simplex Y needs dy >= 2"));
        }
        match self.family {
            Family::Cosine if self.setting.convex => Err(Error::invalid(
                "family",
                "the cosine family is nonconvex: use an nc-* setting",
            )),
            Family::Saddle if !self.setting.convex => Err(Error::invalid(
                "family",
                "the saddle family is convex-concave: use a c-* setting",
            )),
            _ => Ok(()),
        }
    }

    /// Generates the instance (deterministic in the spec).
    pub fn generate(&self) -> Result<Instance> {
        self.validate()?;
        let mut rng = ChaCha8Rng::seed_from_u64(
            self.seed ^ 0x5add_1e0f_u64.wrapping_mul(self.dx as u64 * 131 + self.dy as u64),
        );
        let (dx, dy) = (self.dx, self.dy);
        let x_set: Box<dyn ConvexSet> = match self.x {
            XKind::L1 => Box::new(L1Ball::new(dx, 1.0)?),
            XKind::L2 => Box::new(L2Ball::centered(dx, 1.0)?),
            XKind::Simplex => Box::new(Simplex::new(dx, 1.0)?),
            XKind::Box => Box::new(BoxSet::new(vec![-1.0; dx], vec![1.0; dx])?),
        };
        let y_set: Box<dyn ConvexSet> = if self.setting.sc_y {
            Box::new(L2Ball::centered(dy, 1.0)?)
        } else {
            Box::new(Simplex::new(dy, 1.0)?)
        };
        let gauss = |rng: &mut ChaCha8Rng, n: usize| -> Vec<f64> {
            (0..n)
                .map(|_| rng.sample::<f64, _>(StandardNormal))
                .collect()
        };
        let b = scaled(gauss(&mut rng, dy * dx), 1.0 / ((dx.max(dy)) as f64).sqrt());
        let mu = if self.setting.strongly_concave {
            rng.gen_range(0.2..1.0)
        } else {
            0.0
        };
        let x0 = random_point(x_set.as_ref(), &gauss(&mut rng, dx));
        let y0 = random_point(y_set.as_ref(), &gauss(&mut rng, dy));
        let problem: Box<dyn SaddleProblem> = match self.family {
            Family::Cosine => {
                let kappa = rng.gen_range(0.5..2.0);
                // one full period over the smaller of the radius and the range of a coordinate,
                // so that X reaches |omega x_j| > pi/2 (negative curvature) in every dimension
                // (the diameter alone grows like sqrt(dx) for a box)
                let radius = (x_set.diameter() / 2.0).min(coordinate_range(x_set.as_ref()));
                let omega = 2.0 * std::f64::consts::PI / radius.max(1e-12);
                let lin_a = scaled(gauss(&mut rng, dx), 0.3);
                let lin_c = scaled(gauss(&mut rng, dy), 0.3);
                Box::new(CosineFamily::new(
                    kappa, omega, mu, b, lin_a, lin_c, x_set, y_set,
                )?)
            }
            Family::Quadratic | Family::Saddle => {
                let g = gauss(&mut rng, dx * dx);
                let a = if self.setting.convex {
                    // A = G G' / dx, PSD
                    let mut a = vec![0.0; dx * dx];
                    for i in 0..dx {
                        for j in 0..dx {
                            a[i * dx + j] =
                                (0..dx).map(|k| g[i * dx + k] * g[j * dx + k]).sum::<f64>()
                                    / (dx as f64 * dx as f64);
                        }
                    }
                    a
                } else {
                    // symmetric indefinite with unit-order spectrum
                    let mut a = vec![0.0; dx * dx];
                    for i in 0..dx {
                        for j in 0..dx {
                            a[i * dx + j] =
                                (g[i * dx + j] + g[j * dx + i]) / (2.0 * (dx as f64).sqrt());
                        }
                    }
                    if dx == 1 {
                        a[0] = -a[0].abs() - 0.5;
                    }
                    ensure_negative_curvature(&mut a, dx, self.x == XKind::Simplex);
                    a
                };
                let mut c = vec![0.0; dy * dy];
                for i in 0..dy {
                    c[i * dy + i] = mu;
                }
                if self.family == Family::Saddle {
                    let xs = interior_point(x_set.as_ref(), &gauss(&mut rng, dx));
                    let ys = interior_point(y_set.as_ref(), &gauss(&mut rng, dy));
                    // grad_x L(x*,y*) = 0 and grad_y L(x*,y*) = 0
                    let mut lin_a = vec![0.0; dx];
                    crate::linalg::matvec(&a, dx, dx, &xs, &mut lin_a);
                    let mut bty = vec![0.0; dx];
                    crate::linalg::matvec_t(&b, dy, dx, &ys, &mut bty);
                    for i in 0..dx {
                        lin_a[i] = -(lin_a[i] + bty[i]);
                    }
                    let mut lin_c = vec![0.0; dy];
                    crate::linalg::matvec(&b, dy, dx, &xs, &mut lin_c);
                    for i in 0..dy {
                        lin_c[i] -= mu * ys[i];
                    }
                    Box::new(
                        Quadratic::new(a, b, c, lin_a, lin_c, x_set, y_set)?
                            .with_known_saddle(xs, ys),
                    )
                } else {
                    let lin_a = scaled(gauss(&mut rng, dx), 0.5);
                    let lin_c = scaled(gauss(&mut rng, dy), 0.5);
                    Box::new(Quadratic::new(a, b, c, lin_a, lin_c, x_set, y_set)?)
                }
            }
        };
        Ok(Instance {
            problem,
            x0,
            y0,
            family: self.family.name().to_string(),
            seed: Some(self.seed),
        })
    }
}

/// Curvature that certifies nonconvexity on X: the smallest eigenvalue of the symmetric `a`
/// restricted to the directions of X's affine hull (sum-zero directions for a simplex). A
/// random symmetric matrix is PSD there with positive probability (often for dx = 2), so the
/// matrix is shifted by a multiple of I until that curvature is at most -1/4.
fn ensure_negative_curvature(a: &mut [f64], n: usize, simplex: bool) {
    if n == 1 && simplex {
        return; // X is a point: no direction to be nonconvex along
    }
    let lmin = if simplex {
        // P A P + c 11^T/n with P = I - 11^T/n: the 1-direction moves to c, the rest is A on
        // the tangent space
        let fro = a.iter().map(|v| v * v).sum::<f64>().sqrt();
        let c = fro + 1.0;
        let mut pa = a.to_vec();
        let row: Vec<f64> = (0..n)
            .map(|i| (0..n).map(|j| a[i * n + j]).sum::<f64>() / n as f64)
            .collect();
        let tot: f64 = row.iter().sum::<f64>() / n as f64;
        for i in 0..n {
            for j in 0..n {
                pa[i * n + j] = a[i * n + j] - row[i] - row[j] + tot + c / n as f64;
            }
        }
        crate::linalg::sym_extreme_eigs(&pa, n).1
    } else {
        crate::linalg::sym_extreme_eigs(a, n).1
    };
    if lmin > -0.25 {
        let shift = lmin + 0.25;
        for i in 0..n {
            a[i * n + i] -= shift;
        }
    }
}

/// The largest range `max_v |v_0|` of the first coordinate over the set (by two LMO calls).
fn coordinate_range(set: &dyn ConvexSet) -> f64 {
    let n = set.dim();
    let mut e = vec![0.0; n];
    let mut out = vec![0.0; n];
    let mut r: f64 = 0.0;
    for s in [1.0, -1.0] {
        e[0] = s;
        set.lmo(&e, &mut out);
        r = r.max(out[0].abs());
    }
    r
}

fn scaled(mut v: Vec<f64>, s: f64) -> Vec<f64> {
    v.iter_mut().for_each(|x| *x *= s);
    v
}

/// The projection of a random direction onto the set (a random feasible start).
fn random_point(set: &dyn ConvexSet, z: &[f64]) -> Vec<f64> {
    let mut out = vec![0.0; set.dim()];
    set.project(z, &mut out);
    out
}

/// A point strictly inside the set: the midpoint between a central point and a random
/// feasible point.
fn interior_point(set: &dyn ConvexSet, z: &[f64]) -> Vec<f64> {
    let p = random_point(set, z);
    let mut centre = vec![0.0; set.dim()];
    let uniform = vec![0.0; set.dim()];
    set.project(&uniform, &mut centre);
    let mut q: Vec<f64> = p.iter().zip(&centre).map(|(a, b)| 0.5 * (a + b)).collect();
    // for the simplex the centre of mass is better than the projection of 0 (which it equals)
    if q.iter().any(|v| !v.is_finite()) {
        q = centre;
    }
    q
}
