//! Hard instance families (issue 10): instances built around a prescribed stationary point
//! `(x*, y*)` whose position, normal-cone multipliers, curvature, coupling and start reproduce
//! the regimes in which Frank-Wolfe-type methods are known to be slow.
//!
//! # The construction ([`FaceParams::build`])
//! `L(x, y) = psi(x) + y'Bx + a'x - (mu/2)||y||^2 - c'y` with the x-landscape `psi` either
//! * `quadratic`: `psi(x) = 1/2 x'Ax`, `A = Q diag(lambda) Q'` with log-spaced magnitudes from
//!   `curv` down to `curv/cond`, a fraction `neg_frac` of them negated and scaled by `neg_scale`
//!   (nonconvex settings; `neg_frac = 0` gives a PSD `A`, Assumption 3), built on
//!   [`Quadratic`]; or
//! * `cosine`: `psi(x) = (kappa/omega^2) sum_j (1 - cos(omega x_j))`, `omega = 2 pi periods / r_X`
//!   (nonconvex settings), built on [`CosineFamily`]. A small
//!   `kappa` with few periods gives wide flat regions.
//!
//! `B = U diag(s) V'` (random orthogonal factors) with singular values log-spaced from `lyx`
//! down to `lyx/cond_b`. The linear terms are solved for so that `(x*, y*)` is stationary:
//! `grad_x L(x*, y*) = -n_x` with `n_x` in the normal cone `N_X(x*)`, and
//! `grad_y L(x*, y*) = n_y` in `N_Y(y*)`. Under Assumption 3 these are exactly the saddle-point
//! conditions (`eq:minimax`), so `f* = L(x*, y*)` is exact; in nonconvex settings `x*` is a
//! stationary point of the min player. [`HardInstance::certificate`] re-checks both conditions
//! numerically (the Frank-Wolfe gaps at `(x*, y*)` vanish to rounding).
//!
//! | regime | parameters |
//! |---|---|
//! | Frank-Wolfe zig-zag on X | `x*` in the relative interior of a face with `face_x` free coordinates (simplex, l1 ball or box), normal multiplier `push_x > 0`; `face_x = dx` on the simplex puts `x*` in the relative interior of X |
//! | zig-zag of the dual LMO step | simplex Y: `y*` on a face with `face_y` free coordinates, multiplier `push_y` |
//! | saddle on the boundary of a strongly convex Y | l2-ball Y (`+sc` settings): `y_depth = 0` puts `y*` on the sphere with `grad_y L(x*, y*) = push_y y*/r_Y`, `push_y >= 0` (`push_y = 0`: a degenerate boundary saddle) |
//! | near-degenerate strong convexity | large `y_radius` (alpha = 1/r_Y small against the problem scale) |
//! | ill-conditioned coupling | `lyx` large against `mu` and `curv`, spread spectrum `cond_b` |
//! | far start | `start_x`/`start_y = far`: the vertex (or boundary point) minimising `<z*, v>`, far from the solution; `y0` is also the smoothing centre of `L_beta` (`eq:fL:mu`) |
//! | flat nonconvex landscape | `cosine` with small `kappa` and few `periods` |
//!
//! A [`HardSpec`] (setting, seed and one of the families [`Family`]) has a stable JSON form;
//! the instance is a deterministic function of it (ChaCha8 seeded with `seed`). The family
//! `generator` wraps a core generator spec ([`crate::generators`]), so the random instances
//! are candidates of the search too.
//!
//! ```
//! use rand::SeedableRng;
//! use saddlefw::tightness::families::{Family, HardSpec};
//! use saddlefw::tightness::search::sample;
//! let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(0);
//! let spec = std::iter::repeat_with(|| sample("nc-sc".parse().unwrap(), &mut rng))
//!     .find(|s| matches!(s.params, Family::Face(_)))
//!     .unwrap();
//! // the stored JSON form round-trips exactly
//! let back: HardSpec = serde_json::from_str(&serde_json::to_string(&spec).unwrap()).unwrap();
//! assert_eq!(back, spec);
//! // the instance is built around (x*, y*), where both Frank-Wolfe gaps vanish
//! assert!(spec.build().unwrap().certificate().unwrap().holds());
//! // a generator spec of another setting is refused
//! let wrong = HardSpec {
//!     setting: "c-c".into(),
//!     seed: 0,
//!     params: Family::Generator { spec: "quadratic/nc-c:dx=3,dy=2".into() },
//! };
//! assert!(wrong.build().unwrap_err().to_string().contains("not for setting"));
//! ```

use crate::generators::{GeneratorSpec, Setting};
use crate::linalg::{self, matvec, matvec_t, Svd};
use crate::problems::{CosineFamily, Instance, Quadratic, SaddleProblem};
use crate::sets::{BoxSet, ConvexSet, L1Ball, L2Ball, Simplex};
use crate::{Error, Result};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rand_distr::StandardNormal;
use serde::{Deserialize, Serialize};
use std::fmt;

/// The polytope X of the face families (unit size: simplex of scale 1, l1 ball of radius 1,
/// box `[-1, 1]^dx`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum PolySet {
    Simplex,
    L1,
    Box,
}

impl PolySet {
    /// All three.
    pub const ALL: [PolySet; 3] = [PolySet::Simplex, PolySet::L1, PolySet::Box];
    /// The JSON name.
    pub fn name(&self) -> &'static str {
        match self {
            PolySet::Simplex => "simplex",
            PolySet::L1 => "l1",
            PolySet::Box => "box",
        }
    }
    fn build(&self, n: usize) -> Result<Box<dyn ConvexSet>> {
        Ok(match self {
            PolySet::Simplex => Box::new(Simplex::new(n, 1.0)?),
            PolySet::L1 => Box::new(L1Ball::new(n, 1.0)?),
            PolySet::Box => Box::new(BoxSet::new(vec![-1.0; n], vec![1.0; n])?),
        })
    }
}

/// Where a run starts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Start {
    /// `LMO(z*)`: the point of the set minimising `<z*, v>` (a vertex far from `z*`).
    Far,
    /// The projection of a Gaussian vector.
    Random,
    /// The set's default point (the projection of 0).
    Centre,
}

impl Start {
    /// All three.
    pub const ALL: [Start; 3] = [Start::Far, Start::Random, Start::Centre];
}

/// The x-landscape `psi`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "lowercase", deny_unknown_fields)]
pub enum Landscape {
    /// `1/2 x'Ax` (module doc).
    Quadratic {
        curv: f64,
        cond: f64,
        neg_frac: f64,
        neg_scale: f64,
    },
    /// `(kappa/omega^2) sum (1 - cos(omega x_j))`, `omega = 2 pi periods / r_X`.
    Cosine { kappa: f64, periods: f64 },
}

/// Parameters of the face families (module doc).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FaceParams {
    pub dx: usize,
    pub dy: usize,
    pub x_set: PolySet,
    /// Free coordinates of `x*` (support size on the simplex and l1 ball, interior
    /// coordinates on the box), `1..=dx`.
    pub face_x: usize,
    /// Normal-cone multiplier at `x*` (`>= 0`; on the l1 ball `0` puts `x*` inside the ball).
    pub push_x: f64,
    /// Free coordinates of `y*` on a simplex Y (`1..=dy`; ignored on the ball).
    pub face_y: usize,
    /// Normal-cone multiplier at `y*` (`>= 0`).
    pub push_y: f64,
    /// Radius of the l2-ball Y (`+sc` settings; must be 1 on the simplex).
    pub y_radius: f64,
    /// l2-ball Y: `||y*|| = (1 - y_depth) r_Y`, `0 <= y_depth < 1`; `push_y` must be 0 when
    /// `y_depth > 0` (an interior `y*` has `grad_y L = 0`). Must be 0 on the simplex.
    pub y_depth: f64,
    pub landscape: Landscape,
    /// Largest singular value of B (`L_yx`), `> 0`.
    pub lyx: f64,
    /// Ratio of the largest to the smallest singular value of B, `>= 1`.
    pub cond_b: f64,
    /// Strong concavity (`> 0` exactly in the `-sc` settings).
    pub mu: f64,
    pub start_x: Start,
    pub start_y: Start,
}

/// A hard family with its parameters.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "family", rename_all = "kebab-case")]
pub enum Family {
    /// The face construction (module doc).
    Face(FaceParams),
    /// A core generator spec, e.g. `saddle/c-c:dx=20,dy=10,seed=3,x=l1` (its seed is part of
    /// the spec; the [`HardSpec`] seed is unused).
    Generator { spec: String },
}

/// A reproducible hard instance: setting, family parameters and seed (the JSON form stored
/// in `fixtures/hard/`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HardSpec {
    /// `nc-c`, `c-sc+sc`, ...: the instance satisfies exactly this setting's assumptions.
    pub setting: String,
    pub seed: u64,
    pub params: Family,
}

/// The hard families by name (what [`HardSpec::family_name`] returns) with what they build.
pub const FAMILIES: &[(&str, &str)] = &[
    (
        "face-quadratic",
        "known stationary point on a face of a polytope X (simplex, l1, box) or of Y, quadratic x-landscape (PSD, or with a negated part: nonconvex); ill-conditioned coupling, far starts",
    ),
    (
        "face-cosine",
        "the face construction with the flat nonconvex landscape sum_j (1 - cos(omega x_j)) (nonconvex settings)",
    ),
    (
        "generator:FAMILY",
        "a core generator spec (quadratic, saddle, cosine): the random instances compete in the search too",
    ),
];

impl HardSpec {
    /// `face-quadratic`, `face-cosine` or `generator:FAMILY` (see `FAMILIES`).
    pub fn family_name(&self) -> String {
        match &self.params {
            Family::Face(f) => match f.landscape {
                Landscape::Quadratic { .. } => "face-quadratic".into(),
                Landscape::Cosine { .. } => "face-cosine".into(),
            },
            Family::Generator { spec } => {
                format!("generator:{}", spec.split('/').next().unwrap_or(""))
            }
        }
    }
    /// Compact one-line parameter text (for tables).
    pub(crate) fn params_text(&self) -> String {
        match &self.params {
            Family::Generator { spec } => spec.clone(),
            Family::Face(f) => {
                let land = match &f.landscape {
                    Landscape::Quadratic {
                        curv,
                        cond,
                        neg_frac,
                        neg_scale,
                    } => format!(
                        "curv={},cond={},neg_frac={},neg_scale={}",
                        g(*curv),
                        g(*cond),
                        g(*neg_frac),
                        g(*neg_scale)
                    ),
                    Landscape::Cosine { kappa, periods } => {
                        format!("kappa={},periods={}", g(*kappa), g(*periods))
                    }
                };
                format!(
                    "{}:dx={},dy={},x={},face_x={},push_x={},face_y={},push_y={},y_radius={},y_depth={},{land},lyx={},cond_b={},mu={},start={}/{},seed={}",
                    self.setting,
                    f.dx,
                    f.dy,
                    f.x_set.name(),
                    f.face_x,
                    g(f.push_x),
                    f.face_y,
                    g(f.push_y),
                    g(f.y_radius),
                    g(f.y_depth),
                    g(f.lyx),
                    g(f.cond_b),
                    g(f.mu),
                    start_name(f.start_x),
                    start_name(f.start_y),
                    self.seed
                )
            }
        }
    }
    /// Builds the instance (deterministic in the spec); checks the setting.
    pub fn build(&self) -> Result<HardInstance> {
        let setting: Setting = self.setting.parse()?;
        let built = match &self.params {
            Family::Generator { spec } => {
                let g: GeneratorSpec = spec.parse()?;
                if g.setting != setting {
                    return Err(Error::invalid(
                        "hard spec",
                        format!("generator spec {spec:?} is not for setting {setting}"),
                    ));
                }
                HardInstance {
                    instance: g.generate()?,
                    saddle: None,
                }
            }
            Family::Face(f) => f.build(setting, self.seed)?,
        };
        let have = built.instance.problem.assumptions().setting();
        if have != setting.to_string() {
            return Err(Error::invalid(
                format!("hard instance {}", self.params_text()),
                format!("satisfies {have}, but the spec says {setting}"),
            ));
        }
        Ok(built)
    }
}

impl fmt::Display for HardSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", self.family_name(), self.params_text())
    }
}

fn start_name(s: Start) -> &'static str {
    match s {
        Start::Far => "far",
        Start::Random => "random",
        Start::Centre => "centre",
    }
}

/// Short float text (4 significant digits).
fn g(v: f64) -> String {
    let s = format!("{v:.4}");
    let s = s.trim_end_matches('0').trim_end_matches('.');
    if s.is_empty() || s == "-" {
        "0".into()
    } else {
        s.to_string()
    }
}

/// A built hard instance and the stationary point it was built around.
#[derive(Debug)]
pub struct HardInstance {
    pub instance: Instance,
    /// `(x*, y*)` for the face families.
    pub saddle: Option<(Vec<f64>, Vec<f64>)>,
}

/// Residuals of the stationarity conditions at the prescribed point.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Certificate {
    /// `G_X^LMO(x*, y*) = max_v <grad_x L, x* - v>` (0 iff `-grad_x L in N_X(x*)`).
    pub gx_lmo: f64,
    /// `G_Y^LMO(x*, y*) = max_u <grad_y L, u - y*>` (0 iff `grad_y L in N_Y(y*)`).
    pub gy_lmo: f64,
    /// The scale the residuals are compared with: `1 + ||grad_x L|| D_X + ||grad_y L|| D_Y`.
    pub scale: f64,
}

impl Certificate {
    /// Both residuals within `1e-9 scale`.
    pub fn holds(&self) -> bool {
        self.gx_lmo.abs() <= 1e-9 * self.scale && self.gy_lmo.abs() <= 1e-9 * self.scale
    }
}

impl HardInstance {
    /// Re-checks the stationarity (saddle, under A3) conditions at `(x*, y*)`.
    pub fn certificate(&self) -> Option<Certificate> {
        let (xs, ys) = self.saddle.as_ref()?;
        let p = self.instance.problem.as_ref();
        let mut gx = vec![0.0; xs.len()];
        let mut gy = vec![0.0; ys.len()];
        p.grads(xs, ys, &mut gx, &mut gy);
        let k = p.constants();
        Some(Certificate {
            gx_lmo: crate::measures::gx_lmo_from_grad(p, xs, &gx),
            gy_lmo: crate::measures::gy_lmo_from_grad(p, ys, &gy),
            scale: 1.0 + linalg::norm(&gx) * k.dx + linalg::norm(&gy) * k.dy,
        })
    }
}

fn bad(what: &str, reason: String) -> Error {
    Error::invalid(format!("hard parameters: {what}"), reason)
}

fn check(what: &str, v: f64, ok: bool, want: &str) -> Result<()> {
    if v.is_finite() && ok {
        Ok(())
    } else {
        Err(bad(what, format!("{v} (must be {want})")))
    }
}

impl FaceParams {
    /// Validates the parameters against the setting (errors name the parameter).
    pub fn validate(&self, s: Setting) -> Result<()> {
        if !(1..=500).contains(&self.dx) || !(1..=500).contains(&self.dy) {
            return Err(bad("dx/dy", "dimensions must be in 1..=500".into()));
        }
        if !(1..=self.dx).contains(&self.face_x) {
            return Err(bad(
                "face_x",
                format!("{} not in 1..={}", self.face_x, self.dx),
            ));
        }
        check("push_x", self.push_x, self.push_x >= 0.0, ">= 0")?;
        check("push_y", self.push_y, self.push_y >= 0.0, ">= 0")?;
        check("lyx", self.lyx, self.lyx > 0.0, "> 0")?;
        check("cond_b", self.cond_b, self.cond_b >= 1.0, ">= 1")?;
        if s.strongly_concave {
            check("mu", self.mu, self.mu > 0.0, "> 0 in a -sc setting")?;
        } else {
            check("mu", self.mu, self.mu == 0.0, "0 in a -c setting")?;
        }
        if s.sc_y {
            check("y_radius", self.y_radius, self.y_radius > 0.0, "> 0")?;
            check(
                "y_depth",
                self.y_depth,
                (0.0..1.0).contains(&self.y_depth),
                "in [0, 1)",
            )?;
            if self.y_depth > 0.0 && self.push_y != 0.0 {
                return Err(bad(
                    "push_y",
                    "an interior y* (y_depth > 0) has grad_y L = 0: push_y must be 0".into(),
                ));
            }
        } else {
            if self.dy < 2 {
                return Err(bad("dy", "a simplex Y needs dy >= 2".into()));
            }
            if !(1..=self.dy).contains(&self.face_y) {
                return Err(bad(
                    "face_y",
                    format!("{} not in 1..={}", self.face_y, self.dy),
                ));
            }
            check(
                "y_radius",
                self.y_radius,
                self.y_radius == 1.0,
                "1 on the simplex",
            )?;
            check(
                "y_depth",
                self.y_depth,
                self.y_depth == 0.0,
                "0 on the simplex",
            )?;
        }
        match &self.landscape {
            Landscape::Quadratic {
                curv,
                cond,
                neg_frac,
                neg_scale,
            } => {
                check("curv", *curv, *curv >= 0.0, ">= 0")?;
                check("cond", *cond, *cond >= 1.0, ">= 1")?;
                check("neg_scale", *neg_scale, *neg_scale >= 0.0, ">= 0")?;
                if s.convex {
                    check("neg_frac", *neg_frac, *neg_frac == 0.0, "0 under A3")?;
                } else {
                    check(
                        "neg_frac",
                        *neg_frac,
                        *neg_frac > 0.0 && *neg_frac <= 1.0,
                        "in (0, 1] in a nonconvex setting",
                    )?;
                    check("curv", *curv, *curv > 0.0, "> 0 in a nonconvex setting")?;
                    check(
                        "neg_scale",
                        *neg_scale,
                        *neg_scale >= 1e-6,
                        ">= 1e-6 in a nonconvex setting",
                    )?;
                }
            }
            Landscape::Cosine { kappa, periods } => {
                if s.convex {
                    return Err(bad(
                        "landscape",
                        "the cosine landscape is for nonconvex settings".into(),
                    ));
                }
                check("kappa", *kappa, *kappa > 0.0, "> 0")?;
                check("periods", *periods, *periods > 0.0, "> 0")?;
            }
        }
        Ok(())
    }

    /// Builds the instance of the module doc.
    pub fn build(&self, s: Setting, seed: u64) -> Result<HardInstance> {
        self.validate(s)?;
        let (dx, dy) = (self.dx, self.dy);
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let x_set = self.x_set.build(dx)?;
        let y_set: Box<dyn ConvexSet> = if s.sc_y {
            Box::new(L2Ball::centered(dy, self.y_radius)?)
        } else {
            Box::new(Simplex::new(dy, 1.0)?)
        };
        // Stationary point and normal vectors.
        let (xs, nx) = face_point_x(&mut rng, self.x_set, dx, self.face_x, self.push_x);
        let (ys, ny) = if s.sc_y {
            let u = unit(&mut rng, dy);
            let r = self.y_radius * (1.0 - self.y_depth);
            let ys: Vec<f64> = u.iter().map(|v| r * v).collect();
            let ny: Vec<f64> = u.iter().map(|v| self.push_y * v).collect();
            (ys, ny)
        } else {
            // Max player: grad_y L = n_y in N_Y(y*): zero on the support, negative off it.
            simplex_face(&mut rng, dy, self.face_y, self.push_y)
        };
        // Coupling B = U diag(s) V'.
        let k = dx.min(dy);
        let mut base = svd_of_gaussian(&mut rng, dy, dx);
        base.s = log_spaced(self.lyx, self.cond_b, k);
        let mut b = vec![0.0; dy * dx];
        base.recompose(&base.s.clone(), &mut b);
        // x-landscape gradient at x*.
        let mut psi_grad = vec![0.0; dx];
        let quad_a = match &self.landscape {
            Landscape::Quadratic {
                curv,
                cond,
                neg_frac,
                neg_scale,
            } => {
                let mut q = svd_of_gaussian(&mut rng, dx, dx);
                let mut lam = if *curv > 0.0 {
                    log_spaced(*curv, *cond, dx)
                } else {
                    vec![0.0; dx]
                };
                let n_neg = if *neg_frac > 0.0 {
                    ((neg_frac * dx as f64).round() as usize).clamp(1, dx)
                } else {
                    0
                };
                // The n_neg smallest magnitudes become negative.
                for l in lam.iter_mut().rev().take(n_neg) {
                    *l *= -*neg_scale;
                }
                q.v = q.u.clone();
                let mut a = vec![0.0; dx * dx];
                q.recompose(&lam, &mut a);
                // Exact symmetry (the recomposition is symmetric up to rounding).
                for i in 0..dx {
                    for j in 0..i {
                        let m = 0.5 * (a[i * dx + j] + a[j * dx + i]);
                        a[i * dx + j] = m;
                        a[j * dx + i] = m;
                    }
                }
                matvec(&a, dx, dx, &xs, &mut psi_grad);
                Some(a)
            }
            Landscape::Cosine { kappa, periods } => {
                let omega = self.omega(x_set.as_ref(), *periods);
                for j in 0..dx {
                    psi_grad[j] = kappa / omega * (omega * xs[j]).sin();
                }
                None
            }
        };
        // grad_x L(x*,y*) = psi'(x*) + B'y* + a = -n_x ; grad_y L(x*,y*) = Bx* - mu y* - c = n_y.
        let mut bty = vec![0.0; dx];
        matvec_t(&b, dy, dx, &ys, &mut bty);
        let lin_a: Vec<f64> = (0..dx).map(|i| -(psi_grad[i] + bty[i]) - nx[i]).collect();
        let mut bx = vec![0.0; dy];
        matvec(&b, dy, dx, &xs, &mut bx);
        let lin_c: Vec<f64> = (0..dy).map(|i| bx[i] - self.mu * ys[i] - ny[i]).collect();
        let x0 = start_point(&mut rng, x_set.as_ref(), self.start_x, &xs);
        let y0 = start_point(&mut rng, y_set.as_ref(), self.start_y, &ys);
        let problem: Box<dyn SaddleProblem> = match (quad_a, &self.landscape) {
            (Some(a), _) => {
                let mut c = vec![0.0; dy * dy];
                for i in 0..dy {
                    c[i * dy + i] = self.mu;
                }
                let q = Quadratic::new(a, b, c, lin_a, lin_c, x_set, y_set)?;
                if q.convex_in_x() {
                    Box::new(q.with_known_saddle(xs.clone(), ys.clone()))
                } else {
                    Box::new(q)
                }
            }
            (None, Landscape::Cosine { kappa, periods }) => {
                let omega = self.omega(x_set.as_ref(), *periods);
                Box::new(CosineFamily::new(
                    *kappa, omega, self.mu, b, lin_a, lin_c, x_set, y_set,
                )?)
            }
            (None, Landscape::Quadratic { .. }) => unreachable!("a quadratic landscape has A"),
        };
        Ok(HardInstance {
            instance: Instance {
                problem,
                x0,
                y0,
                family: match self.landscape {
                    Landscape::Quadratic { .. } => "face-quadratic".into(),
                    Landscape::Cosine { .. } => "face-cosine".into(),
                },
                seed: Some(seed),
            },
            saddle: Some((xs, ys)),
        })
    }

    fn omega(&self, x_set: &dyn ConvexSet, periods: f64) -> f64 {
        2.0 * std::f64::consts::PI * periods / (x_set.diameter() / 2.0).max(1e-12)
    }
}

fn gauss(rng: &mut ChaCha8Rng, n: usize) -> Vec<f64> {
    (0..n)
        .map(|_| rng.sample::<f64, _>(StandardNormal))
        .collect()
}

fn unit(rng: &mut ChaCha8Rng, n: usize) -> Vec<f64> {
    loop {
        let v = gauss(rng, n);
        let r = linalg::norm(&v);
        if r > 1e-8 {
            return v.iter().map(|x| x / r).collect();
        }
    }
}

/// `k` values log-spaced from `top` down to `top/cond`.
fn log_spaced(top: f64, cond: f64, k: usize) -> Vec<f64> {
    (0..k)
        .map(|i| {
            let f = if k > 1 {
                i as f64 / (k - 1) as f64
            } else {
                0.0
            };
            top * cond.powf(-f)
        })
        .collect()
}

fn svd_of_gaussian(rng: &mut ChaCha8Rng, rows: usize, cols: usize) -> Svd {
    linalg::svd(&gauss(rng, rows * cols), rows, cols)
}

/// A random subset of size `k` of `0..n` (partial Fisher-Yates), sorted.
fn subset(rng: &mut ChaCha8Rng, n: usize, k: usize) -> Vec<usize> {
    let mut idx: Vec<usize> = (0..n).collect();
    for i in 0..k {
        let j = rng.gen_range(i..n);
        idx.swap(i, j);
    }
    let mut s = idx[..k].to_vec();
    s.sort_unstable();
    s
}

/// A point of the unit simplex with support of size `k` (weights in [0.5, 1.5], normalised)
/// and the normal vector `n = -push s` off the support (`s` in [0.5, 1.5]), 0 on it:
/// `n in N(z)`, so `grad = -n` is the min player's condition and `grad = n` the max player's.
fn simplex_face(rng: &mut ChaCha8Rng, n: usize, k: usize, push: f64) -> (Vec<f64>, Vec<f64>) {
    let support = subset(rng, n, k);
    let mut z = vec![0.0; n];
    for &i in &support {
        z[i] = 0.5 + rng.gen::<f64>();
    }
    let total: f64 = z.iter().sum();
    z.iter_mut().for_each(|v| *v /= total);
    let mut nv = vec![0.0; n];
    for (i, v) in nv.iter_mut().enumerate() {
        if !support.contains(&i) {
            *v = -push * (0.5 + rng.gen::<f64>());
        }
    }
    (z, nv)
}

/// `x*` on a face of X with `k` free coordinates and `n_x in N_X(x*)` of size `push`
/// (module doc); `grad_x L(x*, y*) = -n_x`.
fn face_point_x(
    rng: &mut ChaCha8Rng,
    set: PolySet,
    n: usize,
    k: usize,
    push: f64,
) -> (Vec<f64>, Vec<f64>) {
    match set {
        PolySet::Simplex => simplex_face(rng, n, k, push),
        PolySet::L1 => {
            let support = subset(rng, n, k);
            let mut z = vec![0.0; n];
            let mut sign = vec![0.0; n];
            for &i in &support {
                sign[i] = if rng.gen::<bool>() { 1.0 } else { -1.0 };
                z[i] = 0.5 + rng.gen::<f64>();
            }
            let total: f64 = z.iter().sum();
            // On the boundary ||x*||_1 = 1 when push > 0; halfway inside when push = 0.
            let radius = if push > 0.0 { 1.0 } else { 0.5 };
            for i in 0..n {
                z[i] *= radius * sign[i] / total;
            }
            // N(x*) = {m sign_i on the support, |n_i| <= m off it}.
            let mut nv = vec![0.0; n];
            for i in 0..n {
                nv[i] = if support.contains(&i) {
                    push * sign[i]
                } else {
                    push * (rng.gen::<f64>() - 0.5)
                };
            }
            (z, nv)
        }
        PolySet::Box => {
            let free = subset(rng, n, k);
            let mut z = vec![0.0; n];
            let mut nv = vec![0.0; n];
            for i in 0..n {
                if free.contains(&i) {
                    z[i] = rng.gen::<f64>() - 0.5;
                } else {
                    let s = if rng.gen::<bool>() { 1.0 } else { -1.0 };
                    z[i] = s;
                    nv[i] = push * s * (0.5 + rng.gen::<f64>());
                }
            }
            (z, nv)
        }
    }
}

/// The start of a block (see [`Start`]).
fn start_point(rng: &mut ChaCha8Rng, set: &dyn ConvexSet, start: Start, star: &[f64]) -> Vec<f64> {
    let n = set.dim();
    let mut out = vec![0.0; n];
    match start {
        Start::Far => set.lmo(star, &mut out),
        Start::Random => set.project(&gauss(rng, n), &mut out),
        Start::Centre => out = set.default_point(),
    }
    out
}
