//! Pure real-number inequalities (claims.md Sec. 4.11 and the schedule facts used by
//! `lemma:compact-ht`, `lemma:compact-sc-ht`, `lemma:massive-sum`), checked on fixed grids.
//! Each evaluation carries a description of its grid point.

use super::context::{Hyp, NO_HYP};
use super::invariant::Invariant;
use super::model::{Eval, Kind};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// `E(a,b)` of `lemma:ugly-sum`: `1/(1-2a+b)` if `2a-b < 1`, `1/(2-2a+b)` otherwise.
pub fn e_ab(a: f64, b: f64) -> f64 {
    if 2.0 * a - b < 1.0 {
        1.0 / (1.0 - 2.0 * a + b)
    } else {
        1.0 / (2.0 - 2.0 * a + b)
    }
}

const REAL: Hyp = Hyp {
    text: "pure real-number inequality (grid)",
    ..NO_HYP
};

pub(super) static INVARIANTS: &[Invariant] = &[
    inv!(Real, "chebyshev", "lemma:Chebyshev (sum over [t], claims 7.25)",
        "a_1 <= ... <= a_t, b_1 >= ... >= b_t  =>  t sum_{i=1}^t a_i b_i <= (sum a_i)(sum b_i) (300 random seeded sequences, t <= 30)",
        REAL, chebyshev),
    inv!(Real, "mean-value", "lemma:mean-value",
        "(t+k)^(-alpha) - (t+1+k)^(-alpha) <= alpha t^(-(alpha+1)), alpha > 0, k >= 0, t > 0 (k = 0 as used by the paper)",
        REAL, mean_value),
    inv!(Real, "mean-value-sharp", "lemma:mean-value (proof)",
        "(t+k)^(-alpha) - (t+1+k)^(-alpha) <= alpha (t+k)^(-(alpha+1))",
        REAL, mean_value_sharp),
    inv!(Real, "zeta-lower", "lemma:zeta-function (first inequality)",
        "((T+1)^(1-s) - 1)/(1-s) <= sum_{t=1}^T t^(-s), s >= 0, s != 1, 1 <= T <= 300",
        REAL, zeta_lower),
    inv!(Real, "zeta-upper", "lemma:zeta-function (second inequality)",
        "sum_{t=1}^T t^(-s) <= 1 + (T^(1-s) - 1)/(1-s)",
        REAL, zeta_upper),
    inv!(Real, "zeta-last", "lemma:zeta-function (third inequality, 0 <= s < 1; claims 7.25)",
        "1 + (T^(1-s) - 1)/(1-s) <= T^(1-s)/(1-s) for 0 <= s < 1",
        REAL, zeta_last, Kind::Corrected { printed: "zeta-last-printed" }),
    inv!(Real, "zeta-last-printed", "lemma:zeta-function (third inequality as printed: every s >= 0, s != 1)",
        "1 + (T^(1-s) - 1)/(1-s) <= T^(1-s)/(1-s) for s >= 0, s != 1",
        REAL, zeta_last_printed, Kind::Printed { corrected: "zeta-last" }),
    inv!(Real, "zeta-harmonic", "lemma:zeta-function (s = 1)",
        "log(T+1) <= sum_{t=1}^T 1/t <= log T + 1",
        REAL, zeta_harmonic),
    inv!(Real, "ugly-sum-1", "lemma:ugly-sum (first)",
        "sum_{i=1}^t (1-g/2)^(-i) i^(-(2a-b)) <= (2/g)(1-g/2)^(-floor(2/g)+1) + (1-g/2)^(-t) 8 E(a,b)/(g t^(2a-b)), g in (0,1], 2a > b, a, b in (0,1], t >= floor(2/g)",
        REAL, ugly_sum_1),
    inv!(Real, "ugly-sum-2", "lemma:ugly-sum (second)",
        "sum_{i=1}^t (1-g/2)^(-i) i^(-2a) <= (2/g)(1-g/2)^(-floor(2/g)) + (1-g/2)^(-t) (8/g) {E(a,0)/t^(2a) (a<1); log(t)/t^2 (a=1)}",
        REAL, ugly_sum_2),
    inv!(Real, "massive-sum-1", "lemma:massive-sum (1) with 8^b (claims 4.9, 7.17)",
        "sum_{t=0}^{T-1} Q_t <= 2 (Lyy+mu+2C)^2 (Lyx Dx + 2bC Dy)^2/(C^2+mu^2)^2 sum_{t=0}^{T-1} (C 8^b/(t+1)^(2a-3b) + mu/(t+1)^(2a)), Q_t = 2 (Lyy+mu+beta_t+beta_{t+1})^2 (Lyx Dx tau_t + 2 Dy (beta_t - beta_{t+1}))^2/(beta_{t+1}+mu)^3, tau_t = (t+1)^-a, beta_t = C (t+1)^-b, 0 < b < 1",
        Hyp { text: "Condition eq:fw-proj-stepsize with 0 < b < 1, max{C, mu} > 0 (grid of constants and schedules, T <= 200)", ..NO_HYP },
        massive_sum_1, Kind::Corrected { printed: "massive-sum-1-printed" }),
    inv!(Real, "massive-sum-1-printed", "lemma:massive-sum (1) as printed (4^b)",
        "same with C 4^b in place of C 8^b",
        Hyp { text: "as massive-sum-1", ..NO_HYP },
        massive_sum_1_printed, Kind::Printed { corrected: "massive-sum-1" }),
    inv!(Real, "massive-sum-inv-beta", "lemma:massive-sum (proof of (2))",
        "sum_{t=1}^T 1/(beta_{t-1}+mu) <= (C T^(1+b) + mu T)/(C+mu)^2",
        Hyp { text: "Condition eq:fw-proj-stepsize, max{C, mu} > 0", ..NO_HYP },
        massive_sum_inv_beta),
    inv!(Real, "compact-ht-start-index", "lemma:compact-ht (proof: t - floor(2 t^(2/3)) >= 0 for t >= 5)",
        "floor(2 t^(2/3)) <= t for 5 <= t <= 10000",
        REAL, compact_ht_start_index),
    inv!(Real, "compact-sc-ht-start-index", "lemma:compact-sc-ht (proof: t - floor(4 sqrt t) >= 0 for t >= 14)",
        "floor(4 sqrt(t)) <= t for 14 <= t <= 10000",
        REAL, compact_sc_ht_start_index),
];

type Out = Vec<(Eval, String)>;

/// `t sum a_i b_i <= (sum a)(sum b)` on seeded random monotone sequences.
fn chebyshev() -> Out {
    let mut rng = ChaCha8Rng::seed_from_u64(0xC4EB);
    (0..300)
        .map(|i| {
            let t = rng.gen_range(1..=30);
            let mut a: Vec<f64> = (0..t).map(|_| rng.gen_range(-3.0..3.0)).collect();
            let mut b: Vec<f64> = (0..t).map(|_| rng.gen_range(-3.0..3.0)).collect();
            a.sort_by(|p, q| p.partial_cmp(q).unwrap());
            b.sort_by(|p, q| q.partial_cmp(p).unwrap());
            let lhs = t as f64 * a.iter().zip(&b).map(|(p, q)| p * q).sum::<f64>();
            let rhs = a.iter().sum::<f64>() * b.iter().sum::<f64>();
            let scale: f64 = t as f64 * a.iter().zip(&b).map(|(p, q)| (p * q).abs()).sum::<f64>();
            (
                Eval::le(lhs, rhs, scale).at(i),
                format!("random case {i}, t = {t}"),
            )
        })
        .collect()
}

fn mv_grid(sharp: bool) -> Out {
    let mut out = Vec::new();
    for &alpha in &[0.1f64, 0.25, 0.5, 1.0, 1.5, 2.0, 3.0] {
        for &k in &[0.0f64, 0.1, 0.5, 1.0, 2.0] {
            for &t in &[0.05f64, 0.1, 0.5, 1.0, 2.0, 3.0, 10.0, 100.0, 1000.0] {
                let lhs = (t + k).powf(-alpha) - (t + 1.0 + k).powf(-alpha);
                let rhs = if sharp {
                    alpha * (t + k).powf(-(alpha + 1.0))
                } else {
                    alpha * t.powf(-(alpha + 1.0))
                };
                let i = out.len();
                out.push((
                    Eval::le(lhs, rhs, (t + k).powf(-alpha)).at(i),
                    format!("alpha = {alpha}, k = {k}, t = {t}"),
                ));
            }
        }
    }
    out
}

/// `lemma:mean-value`.
fn mean_value() -> Out {
    mv_grid(false)
}

/// `lemma:mean-value`, sharp form of the proof.
fn mean_value_sharp() -> Out {
    mv_grid(true)
}

const S_GRID: [f64; 12] = [
    0.0,
    0.1,
    0.25,
    1.0 / 3.0,
    0.5,
    2.0 / 3.0,
    0.75,
    0.9,
    1.1,
    1.5,
    2.0,
    3.0,
];

fn zeta_grid(f: impl Fn(f64, f64, f64) -> Option<(f64, f64)>) -> Out {
    let mut out = Vec::new();
    for &s in &S_GRID {
        let mut sum = 0.0;
        for t in 1..=300usize {
            let tf = t as f64;
            sum += tf.powf(-s);
            if let Some((lhs, rhs)) = f(s, tf, sum) {
                let i = out.len();
                out.push((Eval::le(lhs, rhs, sum).at(i), format!("s = {s}, T = {t}")));
            }
        }
    }
    out
}

/// `((T+1)^(1-s) - 1)/(1-s) <= sum t^-s`.
fn zeta_lower() -> Out {
    zeta_grid(|s, t, sum| Some((((t + 1.0).powf(1.0 - s) - 1.0) / (1.0 - s), sum)))
}

/// `sum t^-s <= 1 + (T^(1-s) - 1)/(1-s)`.
fn zeta_upper() -> Out {
    zeta_grid(|s, t, sum| Some((sum, 1.0 + (t.powf(1.0 - s) - 1.0) / (1.0 - s))))
}

/// `1 + (T^(1-s) - 1)/(1-s) <= T^(1-s)/(1-s)`, s < 1.
fn zeta_last() -> Out {
    zeta_grid(|s, t, _| {
        (s < 1.0).then(|| {
            (
                1.0 + (t.powf(1.0 - s) - 1.0) / (1.0 - s),
                t.powf(1.0 - s) / (1.0 - s),
            )
        })
    })
}

/// The printed third inequality, every s (fails for s > 1).
fn zeta_last_printed() -> Out {
    zeta_grid(|s, t, _| {
        Some((
            1.0 + (t.powf(1.0 - s) - 1.0) / (1.0 - s),
            t.powf(1.0 - s) / (1.0 - s),
        ))
    })
}

/// `log(T+1) <= H_T <= log T + 1`.
fn zeta_harmonic() -> Out {
    let mut out = Vec::new();
    let mut h = 0.0;
    for t in 1..=1000usize {
        let tf = t as f64;
        h += 1.0 / tf;
        out.push((Eval::le((tf + 1.0).ln(), h, h).at(t), format!("T = {t}")));
        out.push((Eval::le(h, tf.ln() + 1.0, h).at(t), format!("T = {t}")));
    }
    out
}

const G_GRID: [f64; 6] = [1.0, 0.7, 0.5, 0.3, 0.1, 0.05];
const A_GRID: [f64; 8] = [0.2, 1.0 / 3.0, 0.5, 0.6, 2.0 / 3.0, 0.75, 5.0 / 6.0, 1.0];
const B_GRID: [f64; 7] = [0.05, 1.0 / 6.0, 0.2, 0.25, 1.0 / 3.0, 0.5, 1.0];

fn ugly_grid(
    f: impl Fn(f64, f64, f64, usize, f64) -> Option<f64>,
    exponent: impl Fn(f64, f64) -> f64,
) -> Out {
    let mut out = Vec::new();
    for &g in &G_GRID {
        let fl = (2.0 / g).floor() as usize;
        for &a in &A_GRID {
            for &b in &B_GRID {
                if 2.0 * a <= b {
                    continue;
                }
                let p = exponent(a, b);
                let mut sum = 0.0;
                let q = 1.0 - g / 2.0;
                for i in 1..=(fl + 300) {
                    sum += q.powi(-(i as i32)) * (i as f64).powf(-p);
                    if i >= fl.max(1) {
                        if let Some(rhs) = f(g, a, b, i, q) {
                            let k = out.len();
                            out.push((
                                Eval::le(sum, rhs, sum).at(k),
                                format!("gamma = {g}, a = {a:.4}, b = {b:.4}, t = {i}"),
                            ));
                        }
                    }
                }
            }
        }
    }
    out
}

/// `lemma:ugly-sum` (first).
fn ugly_sum_1() -> Out {
    ugly_grid(
        |g, a, b, t, q| {
            let fl = (2.0 / g).floor() as i32;
            let tf = t as f64;
            Some(
                2.0 / g * q.powi(-fl + 1)
                    + q.powi(-(t as i32)) * 8.0 * e_ab(a, b) / (g * tf.powf(2.0 * a - b)),
            )
        },
        |a, b| 2.0 * a - b,
    )
}

/// `lemma:ugly-sum` (second); one b per (g, a) is enough (b does not enter), so b = B_GRID[0].
fn ugly_sum_2() -> Out {
    ugly_grid(
        |g, a, b, t, q| {
            if b != B_GRID[0] {
                return None;
            }
            let fl = (2.0 / g).floor() as i32;
            let tf = t as f64;
            let tail = if a < 1.0 {
                e_ab(a, 0.0) / tf.powf(2.0 * a)
            } else {
                tf.ln() / (tf * tf)
            };
            Some(2.0 / g * q.powi(-fl) + q.powi(-(t as i32)) * 8.0 / g * tail)
        },
        |a, _| 2.0 * a,
    )
}

/// The grid of constants and schedules of `lemma:massive-sum`:
/// `(Lyy, Lyx, Dx, Dy, mu, C, a, b)`. Includes the claims.md witness
/// (Lyy = Lyx = Dx = Dy = 1, mu = 0, C = 0.01, (a,b) = (3/4,1/4) and (1,1/3)).
fn massive_grid() -> Vec<[f64; 8]> {
    let mut v = Vec::new();
    for &(lyy, lyx, dx, dy) in &[
        (1.0f64, 1.0f64, 1.0f64, 1.0f64),
        (0.5, 2.0, 2.0, 1.414),
        (2.0, 0.3, 1.0, 2.0),
    ] {
        for &mu in &[0.0, 0.2] {
            for &c in &[0.01, 0.1, 1.0, 10.0] {
                for &(a, b) in &[
                    (0.75, 0.25),
                    (1.0, 1.0 / 3.0),
                    (0.9, 0.3),
                    (0.5, 0.1),
                    (1.0, 0.2),
                ] {
                    v.push([lyy.max(mu), lyx, dx, dy, mu, c, a, b]);
                }
            }
        }
    }
    v
}

fn massive_1(kb: f64) -> Out {
    let mut out = Vec::new();
    for p in massive_grid() {
        let [lyy, lyx, dx, dy, mu, c, a, b] = p;
        let beta = |t: usize| c * ((t + 1) as f64).powf(-b);
        let pre = 2.0 * (lyy + mu + 2.0 * c).powi(2) * (lyx * dx + 2.0 * b * c * dy).powi(2)
            / (c * c + mu * mu).powi(2);
        let (mut lhs, mut sum) = (0.0, 0.0);
        for t in 0..200usize {
            let tp = (t + 1) as f64;
            let (b0, b1) = (beta(t), beta(t + 1));
            let m = lyx * dx * tp.powf(-a) + 2.0 * dy * (b0 - b1);
            lhs += 2.0 * (lyy + mu + b0 + b1).powi(2) * m * m / (b1 + mu).powi(3);
            sum += c * kb.powf(b) / tp.powf(2.0 * a - 3.0 * b) + mu / tp.powf(2.0 * a);
            let i = out.len();
            out.push((
                Eval::le(lhs, pre * sum, lhs).at(i),
                format!(
                    "Lyy = {lyy}, Lyx = {lyx}, Dx = {dx}, Dy = {dy}, mu = {mu}, C = {c}, a = {a:.4}, b = {b:.4}, T = {}",
                    t + 1
                ),
            ));
        }
    }
    out
}

/// `lemma:massive-sum` (1) with 8^b.
fn massive_sum_1() -> Out {
    massive_1(8.0)
}

/// `lemma:massive-sum` (1) as printed (4^b).
fn massive_sum_1_printed() -> Out {
    massive_1(4.0)
}

/// `sum_{t=1}^T 1/(beta_{t-1}+mu) <= (C T^(1+b) + mu T)/(C+mu)^2`.
fn massive_sum_inv_beta() -> Out {
    let mut out = Vec::new();
    for p in massive_grid() {
        let [_, _, _, _, mu, c, _, b] = p;
        let mut s = 0.0;
        for t in 1..=200usize {
            let tf = t as f64;
            s += 1.0 / (c * tf.powf(-b) + mu);
            let rhs = (c * tf.powf(1.0 + b) + mu * tf) / (c + mu).powi(2);
            let i = out.len();
            out.push((
                Eval::le(s, rhs, s).at(i),
                format!("mu = {mu}, C = {c}, b = {b:.4}, T = {t}"),
            ));
        }
    }
    out
}

fn start_index(t0: usize, f: impl Fn(f64) -> f64) -> Out {
    (t0..=10000)
        .map(|t| {
            let lhs = f(t as f64).floor();
            (Eval::le(lhs, t as f64, 0.0).at(t), format!("t = {t}"))
        })
        .collect()
}

/// `floor(2 t^(2/3)) <= t`, t >= 5.
fn compact_ht_start_index() -> Out {
    start_index(5, |t| 2.0 * t.powf(2.0 / 3.0))
}

/// `floor(4 sqrt t) <= t`, t >= 14.
fn compact_sc_ht_start_index() -> Out {
    start_index(14, |t| 4.0 * t.sqrt())
}
