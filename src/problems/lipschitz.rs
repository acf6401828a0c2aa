//! Empirical Lipschitz constants: the largest gradient-difference ratios of Assumption 1 (iv)
//! over sampled pairs of points of X x Y. They are lower bounds on the smallest valid constants,
//! so a declared constant below a sampled ratio is certainly wrong, and they are what the
//! experiment reports show next to the paper's constants.
//!
//! Ratios measured (each with the other variable held fixed, which is equivalent to the additive
//! form of Assumption 1 (iv) by the triangle inequality):
//! `lxx = ||grad_x L(x,y) - grad_x L(x',y)|| / ||x - x'||`,
//! `lyx = max(||grad_x L(x,y) - grad_x L(x,y')|| / ||y - y'||, ||grad_y L(x,y) - grad_y L(x',y)|| / ||x - x'||)`,
//! `lyy = ||grad_y L(x,y) - grad_y L(x,y')|| / ||y - y'||`.
//!
//! ```
//! use saddlefw::generators::GeneratorSpec;
//! use saddlefw::problems::lipschitz::sample_constants;
//! use saddlefw::Constants;
//! let inst = "quadratic/nc-sc:dx=4,dy=3,seed=2".parse::<GeneratorSpec>().unwrap().generate().unwrap();
//! let p = inst.problem.as_ref();
//! let s = sample_constants(p, 32, 0);
//! assert!(s.lxx > 0.0 && s.lyx > 0.0 && s.lyy > 0.0);
//! // sampled ratios are lower bounds: the certified constants are never exceeded
//! let k = p.constants();
//! assert!(s.worst_ratio(&k) <= 1.0 + 1e-9, "{s:?} vs {k:?}");
//! // a declared constant below a sampled ratio is caught
//! let understated = Constants { lyx: 0.5 * s.lyx, ..k };
//! assert!(s.worst_ratio(&understated) >= 2.0 - 1e-12);
//! ```

use super::{Constants, SaddleProblem};
use crate::linalg::dist;
use crate::sets::ConvexSet;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rand_distr::StandardNormal;
use serde::{Deserialize, Serialize};

/// Largest sampled ratios (see the module documentation).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct SampledConstants {
    pub lxx: f64,
    pub lyx: f64,
    pub lyy: f64,
    /// Number of sampled pairs.
    pub pairs: usize,
}

impl SampledConstants {
    /// The largest of `sampled / declared` over the three constants (a declared constant of 0
    /// counts as infinitely exceeded when the sampled ratio is positive); `<= 1` means the
    /// declared constants are consistent with every sample.
    pub fn worst_ratio(&self, declared: &Constants) -> f64 {
        [
            (self.lxx, declared.lxx),
            (self.lyx, declared.lyx),
            (self.lyy, declared.lyy),
        ]
        .iter()
        .map(|&(s, d)| {
            if s == 0.0 {
                0.0
            } else if d <= 0.0 {
                f64::INFINITY
            } else {
                s / d
            }
        })
        .fold(0.0, f64::max)
    }
}

/// A random point of `set`: a random convex combination of two LMO vertices for random
/// Gaussian directions, or (every other call) the projection of a Gaussian vector scaled to the
/// set's diameter.
pub fn random_point(set: &dyn ConvexSet, rng: &mut ChaCha8Rng) -> Vec<f64> {
    let n = set.dim();
    let gauss = |rng: &mut ChaCha8Rng| -> Vec<f64> {
        (0..n)
            .map(|_| rng.sample::<f64, _>(StandardNormal))
            .collect()
    };
    let mut out = vec![0.0; n];
    if rng.gen::<bool>() {
        let mut v1 = vec![0.0; n];
        let mut v2 = vec![0.0; n];
        set.lmo(&gauss(rng), &mut v1);
        set.lmo(&gauss(rng), &mut v2);
        let t: f64 = rng.gen();
        for i in 0..n {
            out[i] = t * v1[i] + (1.0 - t) * v2[i];
        }
    } else {
        let s = set.diameter() / (n as f64).sqrt().max(1.0);
        let z: Vec<f64> = gauss(rng).into_iter().map(|v| v * s).collect();
        set.project(&z, &mut out);
    }
    out
}

/// Samples `pairs` pairs of points and returns the largest gradient-difference ratios. Even
/// pairs are independent random points; odd pairs are close: `y' = y + 1e-3 (y2 - y)` and
/// `x' = P_X(x + 1e-3 D_X v)`, where `v` approximates the top eigenvector of the Hessian
/// `grad_xx L(x, y)` by 8 steps of power iteration on finite-difference Hessian-vector
/// products (the iterates may leave X; only the measured pair is projected back into it). The
/// pair is measured on the side of `x` that the last power step probed (`+v`, not `-v`).
pub fn sample_constants<P: SaddleProblem + ?Sized>(
    p: &P,
    pairs: usize,
    seed: u64,
) -> SampledConstants {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let (nx, ny) = (p.x_set().dim(), p.y_set().dim());
    let mut best = SampledConstants {
        lxx: 0.0,
        lyx: 0.0,
        lyy: 0.0,
        pairs,
    };
    let (mut gx, mut gy) = (vec![0.0; nx], vec![0.0; ny]);
    let (mut gx2, mut gy2) = (vec![0.0; nx], vec![0.0; ny]);
    let ratio = |a: &[f64], b: &[f64], d: f64| if d > 0.0 { dist(a, b) / d } else { 0.0 };
    for k in 0..pairs {
        let x = random_point(p.x_set(), &mut rng);
        let y = random_point(p.y_set(), &mut rng);
        let mut x2 = random_point(p.x_set(), &mut rng);
        let mut y2 = random_point(p.y_set(), &mut rng);
        if k % 2 == 1 {
            let step = 1e-3 * p.x_set().diameter().max(f64::MIN_POSITIVE);
            let mut v: Vec<f64> = (0..nx).map(|_| rng.sample(StandardNormal)).collect();
            p.grads(&x, &y, &mut gx, &mut gy);
            let mut probe = vec![0.0; nx];
            for _ in 0..8 {
                let nv = crate::linalg::norm(&v);
                if nv == 0.0 || !nv.is_finite() {
                    break;
                }
                for i in 0..nx {
                    probe[i] = x[i] + step * v[i] / nv;
                }
                p.grads(&probe, &y, &mut gx2, &mut gy2);
                for i in 0..nx {
                    v[i] = gx2[i] - gx[i];
                }
            }
            let nv = crate::linalg::norm(&v);
            if nv > 0.0 && nv.is_finite() {
                for i in 0..nx {
                    probe[i] = x[i] + step * v[i] / nv;
                }
                p.x_set().project(&probe, &mut x2);
            } else {
                for i in 0..nx {
                    x2[i] = x[i] + 1e-3 * (x2[i] - x[i]);
                }
            }
            for i in 0..ny {
                y2[i] = y[i] + 1e-3 * (y2[i] - y[i]);
            }
        }
        let (dx, dy) = (dist(&x, &x2), dist(&y, &y2));
        p.grads(&x, &y, &mut gx, &mut gy);
        p.grads(&x2, &y, &mut gx2, &mut gy2);
        best.lxx = best.lxx.max(ratio(&gx, &gx2, dx));
        best.lyx = best.lyx.max(ratio(&gy, &gy2, dx));
        p.grads(&x, &y2, &mut gx2, &mut gy2);
        best.lyx = best.lyx.max(ratio(&gx, &gx2, dy));
        best.lyy = best.lyy.max(ratio(&gy, &gy2, dy));
    }
    best
}
