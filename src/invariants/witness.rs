//! Erratum and coverage witnesses: instances built to reach what random generated instances
//! cannot, run once per `saddlefw check` with Algorithms 1-3.
//!
//! * `witness/strongly-concave-iterate`: `L(x,y) = y^T b x - (mu/2)||y||^2` on
//!   `X = [-0.05, 0.05]`, Y the unit disc, `b = (5, 3)`, `mu = Lyy = 1/2`: `y*(x) = b x/mu` stays
//!   inside Y and moves `Lyx/mu ~ 11.7` per unit of x, while the printed bound of
//!   `lemma:strongly-concave-iterate` allows `Lyy/mu = 1` (claims 7.20).
//! * `witness/anisotropic-*`: every generated instance has `C = mu I`, hence `Lyy = mu` (rho = 0
//!   in `lemma:strongly-concave-iterate`, every `(Lyy - mu)` term vanishes). [`DiagQuadratic`]
//!   has a diagonal `C = diag(d)` with `mu = min d < Lyy = max d` and still an exact inner
//!   maximisation: coordinate-wise clipping on a box Y, a one-dimensional monotone root
//!   (bisection to machine precision) on a centred ball Y.
//! * [`DiagSpec`]: random [`DiagQuadratic`] instances for every setting, part of the cases of
//!   `saddlefw check` and of the property tests.
//!
//! ```
//! use saddlefw::generators::XKind;
//! use saddlefw::invariants::witness::{witness_cases, DiagSpec};
//! let spec = DiagSpec { setting: "nc-sc".parse().unwrap(), dx: 3, dy: 2, seed: 1, x: XKind::L2 };
//! assert_eq!(spec.to_string(), "diag/nc-sc:dx=3,dy=2,seed=1,x=l2");
//! // C = diag(d): mu = min d > 0, and mu <= Lyy = max d
//! let k = spec.generate().unwrap().problem.constants();
//! assert!(k.mu > 0.0 && k.mu <= k.lyy, "{k:?}");
//! let names: Vec<String> = witness_cases().unwrap().into_iter().map(|(n, _)| n).collect();
//! assert!(names.iter().any(|n| n == "witness/strongly-concave-iterate"), "{names:?}");
//! ```

use crate::generators::{Setting, XKind};
use crate::linalg::{dot, matvec, matvec_t, norm, spectral_norm, sym_extreme_eigs};
use crate::problems::{Constants, InnerMax, Instance, Interval, Quadratic, SaddleProblem};
use crate::sets::{BoxSet, ConvexSet, L1Ball, L2Ball};
use crate::Result;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rand_distr::StandardNormal;

/// `L(x,y) = 1/2 x'Ax + y'Bx - 1/2 sum_i d_i y_i^2 + a'x - c'y` with `d_i >= 0` and Y a box or
/// a ball centred at 0; `y*_beta(x)` is exact (see the module docs).
#[derive(Debug)]
pub struct DiagQuadratic {
    dx: usize,
    dy: usize,
    a: Vec<f64>,
    b: Vec<f64>,
    d: Vec<f64>,
    lin_a: Vec<f64>,
    lin_c: Vec<f64>,
    x_set: Box<dyn ConvexSet>,
    y_set: YSet,
    constants: Constants,
    convex: bool,
}

#[derive(Debug)]
enum YSet {
    Box(BoxSet),
    Ball(L2Ball),
}

impl YSet {
    fn set(&self) -> &dyn ConvexSet {
        match self {
            YSet::Box(s) => s,
            YSet::Ball(s) => s,
        }
    }
}

impl DiagQuadratic {
    /// `a`: `dx x dx` symmetric, `b`: `dy x dx`, `d`: `dy` non-negative entries; `ball`:
    /// radius of the centred ball Y, or `None` for the box `[0, 1]^dy`.
    pub fn new(
        a: Vec<f64>,
        b: Vec<f64>,
        d: Vec<f64>,
        lin_a: Vec<f64>,
        lin_c: Vec<f64>,
        x_set: Box<dyn ConvexSet>,
        ball: Option<f64>,
    ) -> Result<Self> {
        let (dx, dy) = (x_set.dim(), d.len());
        assert!(a.len() == dx * dx && b.len() == dy * dx && lin_a.len() == dx && lin_c.len() == dy);
        assert!(d.iter().all(|v| *v >= 0.0));
        let y_set = match ball {
            Some(r) => YSet::Ball(L2Ball::centered(dy, r)?),
            None => YSet::Box(BoxSet::new(vec![0.0; dy], vec![1.0; dy])?),
        };
        let (lxx, lmin_a) = sym_extreme_eigs(&a, dx);
        let constants = Constants {
            lxx,
            lyx: spectral_norm(&b, dy, dx),
            lyy: d.iter().cloned().fold(0.0, f64::max),
            mu: d.iter().cloned().fold(f64::INFINITY, f64::min),
            alpha: y_set.set().strong_convexity(),
            dx: x_set.diameter(),
            dy: y_set.set().diameter(),
        };
        Ok(DiagQuadratic {
            dx,
            dy,
            a,
            b,
            d,
            lin_a,
            lin_c,
            x_set,
            y_set,
            constants,
            convex: lmin_a >= -1e-12 * lxx.max(1.0),
        })
    }

    /// `B x - c`.
    fn coupling(&self, x: &[f64]) -> Vec<f64> {
        let mut q = vec![0.0; self.dy];
        matvec(&self.b, self.dy, self.dx, x, &mut q);
        for (qi, ci) in q.iter_mut().zip(&self.lin_c) {
            *qi -= ci;
        }
        q
    }
}

impl SaddleProblem for DiagQuadratic {
    fn name(&self) -> String {
        format!("diag-quadratic(dx={}, dy={})", self.dx, self.dy)
    }
    fn x_set(&self) -> &dyn ConvexSet {
        self.x_set.as_ref()
    }
    fn y_set(&self) -> &dyn ConvexSet {
        self.y_set.set()
    }
    fn value(&self, x: &[f64], y: &[f64]) -> f64 {
        let mut ax = vec![0.0; self.dx];
        matvec(&self.a, self.dx, self.dx, x, &mut ax);
        let q = self.coupling(x);
        let quad: f64 = y.iter().zip(&self.d).map(|(yi, di)| di * yi * yi).sum();
        0.5 * dot(x, &ax) + dot(&self.lin_a, x) + dot(&q, y) - 0.5 * quad
    }
    fn grad_x(&self, x: &[f64], y: &[f64], out: &mut [f64]) {
        matvec(&self.a, self.dx, self.dx, x, out);
        let mut bty = vec![0.0; self.dx];
        matvec_t(&self.b, self.dy, self.dx, y, &mut bty);
        for i in 0..self.dx {
            out[i] += bty[i] + self.lin_a[i];
        }
    }
    fn grad_y(&self, x: &[f64], y: &[f64], out: &mut [f64]) {
        let q = self.coupling(x);
        for i in 0..self.dy {
            out[i] = q[i] - self.d[i] * y[i];
        }
    }
    fn constants(&self) -> Constants {
        self.constants
    }
    fn convex_in_x(&self) -> bool {
        self.convex
    }
    /// Exact: maximise `sum_i q_i y_i - h_i/2 y_i^2` with `q = Bx - c + beta y0`,
    /// `h = d + beta`, over the box (clip; a linear coordinate goes to its better end) or the
    /// ball (`y_i(lambda) = q_i/(h_i + lambda)` with `lambda >= 0` the root of
    /// `||y(lambda)|| = r`, found by bisection to machine precision).
    fn y_star(&self, x: &[f64], beta: f64, y0: &[f64]) -> InnerMax {
        let mut q = self.coupling(x);
        for (qi, y0i) in q.iter_mut().zip(y0) {
            *qi += beta * y0i;
        }
        let h: Vec<f64> = self.d.iter().map(|di| di + beta).collect();
        let y: Vec<f64> = match &self.y_set {
            YSet::Box(s) => (0..self.dy)
                .map(|i| {
                    let (l, u) = (s.lower()[i], s.upper()[i]);
                    if h[i] > 0.0 {
                        (q[i] / h[i]).clamp(l, u)
                    } else if q[i] > 0.0 {
                        u
                    } else {
                        l
                    }
                })
                .collect(),
            YSet::Ball(s) => {
                let r = s.radius();
                let at = |lam: f64| -> Vec<f64> {
                    (0..self.dy)
                        .map(|i| {
                            if h[i] + lam > 0.0 {
                                q[i] / (h[i] + lam)
                            } else {
                                0.0
                            }
                        })
                        .collect()
                };
                let free_ok = h.iter().zip(&q).all(|(hi, qi)| *hi > 0.0 || *qi == 0.0);
                let z = at(0.0);
                if free_ok && norm(&z) <= r {
                    z
                } else {
                    let (mut lo, mut hi) = (0.0f64, norm(&q) / r + 1e-300);
                    for _ in 0..2000 {
                        let mid = 0.5 * (lo + hi);
                        if mid <= lo || mid >= hi {
                            break;
                        }
                        if norm(&at(mid)) > r {
                            lo = mid;
                        } else {
                            hi = mid;
                        }
                    }
                    at(hi)
                }
            }
        };
        let d2: f64 = y.iter().zip(y0).map(|(a, b)| (a - b) * (a - b)).sum();
        let v = self.value(x, &y) - 0.5 * beta * d2;
        InnerMax {
            y,
            value: Interval::exact(v),
        }
    }
}

/// A random diagonal-`C` instance for a setting: `d_i ~ U(0.2, 2)` (with `d_0 = 0` when the
/// setting is not strongly concave, so mu = 0 < Lyy when dy >= 2), `A` PSD (convex settings)
/// or symmetric indefinite, `B ~ N(0,1)/sqrt(max(dx,dy))`, X as in the generators (`x=...`),
/// Y the unit ball (`+sc`) or the box `[0,1]^dy`. Name: `diag/SETTING:dx=..,dy=..,seed=..,x=..`.
#[derive(Debug, Clone, PartialEq)]
pub struct DiagSpec {
    pub setting: Setting,
    pub dx: usize,
    pub dy: usize,
    pub seed: u64,
    pub x: XKind,
}

impl std::fmt::Display for DiagSpec {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let x = match self.x {
            XKind::L1 => "l1",
            XKind::L2 => "l2",
            XKind::Simplex => "simplex",
            XKind::Box => "box",
        };
        write!(
            f,
            "diag/{}:dx={},dy={},seed={},x={x}",
            self.setting, self.dx, self.dy, self.seed
        )
    }
}

impl DiagSpec {
    /// Builds the instance (deterministic in the spec).
    pub fn generate(&self) -> Result<Instance> {
        let (dx, dy) = (self.dx, self.dy);
        let mut rng = ChaCha8Rng::seed_from_u64(self.seed ^ 0xD1A6);
        let mut d: Vec<f64> = (0..dy).map(|_| rng.gen_range(0.2..2.0)).collect();
        if !self.setting.strongly_concave {
            d[0] = 0.0;
        }
        let m = gauss(&mut rng, dx * dx);
        let mut a = vec![0.0; dx * dx];
        for i in 0..dx {
            for j in 0..dx {
                a[i * dx + j] = if self.setting.convex {
                    (0..dx).map(|k| m[i * dx + k] * m[j * dx + k]).sum::<f64>() / (dx * dx) as f64
                } else {
                    (m[i * dx + j] + m[j * dx + i]) / (2.0 * (dx as f64).sqrt())
                };
            }
        }
        if !self.setting.convex && dx == 1 {
            a[0] = -a[0].abs() - 0.5;
        }
        let s = 1.0 / (dx.max(dy) as f64).sqrt();
        let b: Vec<f64> = gauss(&mut rng, dy * dx).iter().map(|v| v * s).collect();
        let lin_a: Vec<f64> = gauss(&mut rng, dx).iter().map(|v| 0.3 * v).collect();
        let lin_c: Vec<f64> = gauss(&mut rng, dy).iter().map(|v| 0.3 * v).collect();
        let x_set: Box<dyn ConvexSet> = match self.x {
            XKind::L1 => Box::new(L1Ball::new(dx, 1.0)?),
            XKind::L2 => Box::new(L2Ball::centered(dx, 1.0)?),
            XKind::Simplex => Box::new(crate::sets::Simplex::new(dx, 1.0)?),
            XKind::Box => Box::new(BoxSet::new(vec![-1.0; dx], vec![1.0; dx])?),
        };
        let x0 = project(x_set.as_ref(), &gauss(&mut rng, dx));
        let q = DiagQuadratic::new(
            a,
            b,
            d,
            lin_a,
            lin_c,
            x_set,
            self.setting.sc_y.then_some(1.0),
        )?;
        let y0 = project(q.y_set(), &gauss(&mut rng, dy));
        Ok(Instance {
            problem: Box::new(q),
            x0,
            y0,
            family: "diag".into(),
            seed: Some(self.seed),
        })
    }
}

fn project(set: &dyn ConvexSet, z: &[f64]) -> Vec<f64> {
    let mut p = vec![0.0; z.len()];
    set.project(z, &mut p);
    p
}

fn gauss(rng: &mut ChaCha8Rng, n: usize) -> Vec<f64> {
    (0..n)
        .map(|_| rng.sample::<f64, _>(StandardNormal))
        .collect()
}

/// The witness instances (see the module docs), with their names.
pub fn witness_cases() -> Result<Vec<(String, Instance)>> {
    let mut out = vec![strongly_concave_iterate()?];
    for (name, convex, d, ball) in [
        (
            "witness/anisotropic-nc-sc",
            false,
            vec![0.3, 1.5, 0.8],
            None,
        ),
        (
            "witness/anisotropic-c-sc+sc",
            true,
            vec![0.3, 1.5, 0.8],
            Some(1.0),
        ),
        ("witness/anisotropic-c-c", true, vec![0.0, 1.2, 0.6], None),
        (
            "witness/anisotropic-nc-c+sc",
            false,
            vec![0.0, 1.2, 0.6],
            Some(1.0),
        ),
    ] {
        out.push(anisotropic(name, convex, d, ball)?);
    }
    Ok(out)
}

fn anisotropic(
    name: &str,
    convex: bool,
    d: Vec<f64>,
    ball: Option<f64>,
) -> Result<(String, Instance)> {
    let (dx, dy) = (3, d.len());
    let mut rng = ChaCha8Rng::seed_from_u64(
        name.bytes()
            .fold(7u64, |h, c| h.wrapping_mul(31).wrapping_add(c as u64)),
    );
    let m = gauss(&mut rng, dx * dx);
    let mut a = vec![0.0; dx * dx];
    for i in 0..dx {
        for j in 0..dx {
            a[i * dx + j] = if convex {
                (0..dx).map(|k| m[i * dx + k] * m[j * dx + k]).sum::<f64>() / dx as f64
            } else {
                0.5 * (m[i * dx + j] + m[j * dx + i])
            };
        }
    }
    let b: Vec<f64> = gauss(&mut rng, dy * dx).iter().map(|v| v / 2.0).collect();
    let lin_a: Vec<f64> = gauss(&mut rng, dx).iter().map(|v| 0.3 * v).collect();
    let lin_c: Vec<f64> = gauss(&mut rng, dy).iter().map(|v| 0.3 * v).collect();
    let x_set: Box<dyn ConvexSet> = if convex {
        Box::new(L2Ball::centered(dx, 1.0)?)
    } else {
        Box::new(L1Ball::new(dx, 1.0)?)
    };
    let x0 = {
        let z = gauss(&mut rng, dx);
        let mut p = vec![0.0; dx];
        x_set.project(&z, &mut p);
        p
    };
    let q = DiagQuadratic::new(a, b, d, lin_a, lin_c, x_set, ball)?;
    let y0 = {
        let z = gauss(&mut rng, dy);
        let mut p = vec![0.0; dy];
        q.y_set().project(&z, &mut p);
        p
    };
    Ok((
        name.to_string(),
        Instance {
            problem: Box::new(q),
            x0,
            y0,
            family: "witness".into(),
            seed: None,
        },
    ))
}

fn strongly_concave_iterate() -> Result<(String, Instance)> {
    let x_set: Box<dyn ConvexSet> = Box::new(BoxSet::new(vec![-0.05], vec![0.05])?);
    let y_set: Box<dyn ConvexSet> = Box::new(L2Ball::centered(2, 1.0)?);
    let mu = 0.5;
    let q = Quadratic::new(
        vec![0.0],
        vec![5.0, 3.0],
        vec![mu, 0.0, 0.0, mu],
        vec![0.0],
        vec![0.0, 0.0],
        x_set,
        y_set,
    )?;
    Ok((
        "witness/strongly-concave-iterate".to_string(),
        Instance {
            problem: Box::new(q),
            x0: vec![0.01],
            y0: vec![0.0, 0.0],
            family: "witness".into(),
            seed: None,
        },
    ))
}
