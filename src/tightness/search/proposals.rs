//! Where candidates come from: the prior ([`sample`]) and the neighbours of a candidate
//! ([`mutate`]), both deterministic functions of the ChaCha8 stream.

use crate::generators::{Setting, XKind};
use crate::tightness::families::{FaceParams, Family, HardSpec, Landscape, PolySet, Start};
use rand::Rng;
use rand_chacha::ChaCha8Rng;

fn log_uniform(rng: &mut ChaCha8Rng, lo: f64, hi: f64) -> f64 {
    (rng.gen_range(lo.ln()..hi.ln())).exp()
}

fn pick<T: Copy>(rng: &mut ChaCha8Rng, v: &[T]) -> T {
    v[rng.gen_range(0..v.len())]
}

/// Parameter ranges of the prior and of the mutations: (lo, hi) for log-uniform parameters.
mod range {
    pub(crate) const PUSH: (f64, f64) = (1e-3, 2.0);
    pub(crate) const Y_RADIUS: (f64, f64) = (0.3, 30.0);
    pub(crate) const CURV: (f64, f64) = (1e-3, 3.0);
    pub(crate) const COND: (f64, f64) = (1.0, 100.0);
    pub(crate) const NEG_SCALE: (f64, f64) = (0.01, 1.0);
    pub(crate) const KAPPA: (f64, f64) = (0.01, 2.0);
    pub(crate) const PERIODS: (f64, f64) = (0.1, 3.0);
    pub(crate) const LYX: (f64, f64) = (0.1, 10.0);
    pub(crate) const MU: (f64, f64) = (1e-3, 1.0);
    pub(crate) const DX: (usize, usize) = (3, 40);
    pub(crate) const DY: (usize, usize) = (2, 20);
}

/// A random candidate for `setting` (module doc, "Procedure").
pub fn sample(setting: Setting, rng: &mut ChaCha8Rng) -> HardSpec {
    let seed = rng.gen::<u32>() as u64;
    let u: f64 = rng.gen();
    if u < 0.15 {
        // A core generator instance.
        let fams: &[&str] = if setting.convex {
            &["quadratic", "saddle"]
        } else {
            &["quadratic", "cosine"]
        };
        let x = pick(rng, &[XKind::L1, XKind::L2, XKind::Simplex, XKind::Box]);
        let spec = format!(
            "{}/{}:dx={},dy={},seed={},x={}",
            pick(rng, fams),
            setting,
            rng.gen_range(range::DX.0..=range::DX.1),
            rng.gen_range(range::DY.0.max(2)..=range::DY.1),
            seed,
            x.name()
        );
        return HardSpec {
            setting: setting.to_string(),
            seed,
            params: Family::Generator { spec },
        };
    }
    let dx = rng.gen_range(range::DX.0..=range::DX.1);
    let dy = rng.gen_range(range::DY.0..=range::DY.1);
    let push = |rng: &mut ChaCha8Rng| {
        if rng.gen::<f64>() < 0.2 {
            0.0
        } else {
            log_uniform(rng, range::PUSH.0, range::PUSH.1)
        }
    };
    let landscape = if !setting.convex && u > 0.7 {
        Landscape::Cosine {
            kappa: log_uniform(rng, range::KAPPA.0, range::KAPPA.1),
            periods: log_uniform(rng, range::PERIODS.0, range::PERIODS.1),
        }
    } else {
        let curv = if setting.convex && rng.gen::<f64>() < 0.2 {
            0.0
        } else {
            log_uniform(rng, range::CURV.0, range::CURV.1)
        };
        Landscape::Quadratic {
            curv,
            cond: log_uniform(rng, range::COND.0, range::COND.1),
            neg_frac: if setting.convex {
                0.0
            } else {
                rng.gen_range(0.05..1.0)
            },
            neg_scale: log_uniform(rng, range::NEG_SCALE.0, range::NEG_SCALE.1),
        }
    };
    let (y_radius, y_depth) = if setting.sc_y {
        let depth = if rng.gen::<bool>() {
            0.0
        } else {
            rng.gen_range(0.0..0.9)
        };
        (
            log_uniform(rng, range::Y_RADIUS.0, range::Y_RADIUS.1),
            depth,
        )
    } else {
        (1.0, 0.0)
    };
    let push_x = push(rng);
    let push_y = if y_depth > 0.0 { 0.0 } else { push(rng) };
    let p = FaceParams {
        dx,
        dy,
        x_set: pick(rng, &PolySet::ALL),
        face_x: rng.gen_range(1..=dx),
        push_x,
        face_y: rng.gen_range(1..=dy),
        push_y,
        y_radius,
        y_depth,
        landscape,
        lyx: log_uniform(rng, range::LYX.0, range::LYX.1),
        cond_b: log_uniform(rng, range::COND.0, range::COND.1),
        mu: if setting.strongly_concave {
            log_uniform(rng, range::MU.0, range::MU.1)
        } else {
            0.0
        },
        start_x: pick(rng, &Start::ALL),
        start_y: pick(rng, &Start::ALL),
    };
    HardSpec {
        setting: setting.to_string(),
        seed,
        params: Family::Face(p),
    }
}

/// Multiplies a log-range parameter by `exp(N(0, 0.5))` with probability `prob`, clamped.
fn jitter(rng: &mut ChaCha8Rng, v: &mut f64, r: (f64, f64), prob: f64) {
    if *v > 0.0 && rng.gen::<f64>() < prob {
        let z: f64 = rng.sample(rand_distr::StandardNormal);
        *v = (*v * (0.5 * z).exp()).clamp(r.0, r.1);
    }
}

fn step_int(rng: &mut ChaCha8Rng, v: &mut usize, lo: usize, hi: usize, prob: f64) {
    if rng.gen::<f64>() < prob {
        let d = if rng.gen::<bool>() { 1 } else { -1 };
        *v = ((*v as i64 + d).clamp(lo as i64, hi as i64)) as usize;
    }
}

/// A neighbour of a candidate (module doc, "Procedure"); always valid for its setting.
pub fn mutate(spec: &HardSpec, rng: &mut ChaCha8Rng) -> HardSpec {
    let mut s = spec.clone();
    if rng.gen::<f64>() < 0.3 {
        s.seed = rng.gen::<u32>() as u64;
    }
    match &mut s.params {
        Family::Generator { spec } => {
            // New seed of the same generator family and sizes.
            if let Ok(mut g) = spec.parse::<crate::generators::GeneratorSpec>() {
                g.seed = rng.gen::<u32>() as u64;
                *spec = g.to_string();
            }
        }
        Family::Face(p) => {
            let pr = 0.3;
            step_int(rng, &mut p.dx, range::DX.0, range::DX.1, 0.15);
            step_int(rng, &mut p.dy, range::DY.0, range::DY.1, 0.15);
            p.face_x = p.face_x.min(p.dx);
            p.face_y = p.face_y.min(p.dy);
            step_int(rng, &mut p.face_x, 1, p.dx, 0.25);
            step_int(rng, &mut p.face_y, 1, p.dy, 0.25);
            jitter(rng, &mut p.push_x, range::PUSH, pr);
            jitter(rng, &mut p.push_y, range::PUSH, pr);
            jitter(rng, &mut p.lyx, range::LYX, pr);
            jitter(rng, &mut p.cond_b, range::COND, pr);
            jitter(rng, &mut p.mu, range::MU, pr);
            if p.y_radius != 1.0 || p.y_depth != 0.0 || rng.gen::<f64>() < 0.5 {
                // Only meaningful on the ball; the simplex keeps radius 1 (fixed below).
                jitter(rng, &mut p.y_radius, range::Y_RADIUS, pr);
            }
            match &mut p.landscape {
                Landscape::Quadratic {
                    curv,
                    cond,
                    neg_frac,
                    neg_scale,
                } => {
                    jitter(rng, curv, range::CURV, pr);
                    jitter(rng, cond, range::COND, pr);
                    jitter(rng, neg_scale, range::NEG_SCALE, pr);
                    if *neg_frac > 0.0 && rng.gen::<f64>() < pr {
                        *neg_frac = (*neg_frac + rng.gen_range(-0.2..0.2)).clamp(0.05, 1.0);
                    }
                }
                Landscape::Cosine { kappa, periods } => {
                    jitter(rng, kappa, range::KAPPA, pr);
                    jitter(rng, periods, range::PERIODS, pr);
                }
            }
            if rng.gen::<f64>() < 0.1 {
                p.x_set = pick(rng, &PolySet::ALL);
            }
            if rng.gen::<f64>() < 0.1 {
                p.start_x = pick(rng, &Start::ALL);
            }
            if rng.gen::<f64>() < 0.1 {
                p.start_y = pick(rng, &Start::ALL);
            }
            if rng.gen::<f64>() < 0.05 {
                p.push_x = if p.push_x == 0.0 { 0.1 } else { 0.0 };
            }
            let setting: Setting = s.setting.parse().expect("a valid setting");
            if !setting.sc_y {
                p.y_radius = 1.0;
                p.y_depth = 0.0;
            } else {
                if rng.gen::<f64>() < 0.1 {
                    p.y_depth = if p.y_depth > 0.0 {
                        0.0
                    } else {
                        rng.gen_range(0.0..0.9)
                    };
                }
                if p.y_depth > 0.0 {
                    p.push_y = 0.0;
                } else if rng.gen::<f64>() < 0.05 {
                    p.push_y = if p.push_y == 0.0 { 0.1 } else { 0.0 };
                }
            }
        }
    }
    s
}
