//! Anytime bound checks (claims.md Sec. 5): explicit envelopes `quantity_T <= bound(T)` where
//! the constants are explicit, and the empirical constant `M_hat(T)` where they are only
//! existential.
//!
//! # Envelopes ([`envelope`])
//! | entries | bound | constants |
//! |---|---|---|
//! | LMO-LMO NC primal (rows 1-4) | `lemma:general-convergence` (claims.md 5.1, 5.2; valid for any mu, C) | **empirical** `M_t = max_{s<=t} H_s (s+1)^c`, c from the table's `mhat`; needs `Fmax` |
//! | LMO-LMO C primal (rows 5-8) | `lemma:general-convex-convergence` (5.3, 5.4) with `M_T` | **empirical** `M_T` |
//! | LMO-LMO dual (rows 1-8) | `G_Y(x_T,y_T) <= M_T/(T+1)^c + C Dy^2/(2(T+1)^b)` (5.1-5.4) | **empirical** `M_T` |
//! | LMO-PO dual (rows 9-12) | rigorous chain `lemma:telescoping` (1) (5.5): `(1/T)[(Lyy-mu)Dy^2 + sum_{t<T} (4 Lxx Dx^2 tau_t^2 + Dy^2 beta_{t+1}/2 + Q_t)]` | explicit |
//! | LMO-PO NC primal (rows 9, 10) | rigorous chain (5.5): `lemma:common-upper-bounds` (2) + `lemma:telescoping` (2) | explicit given `Fmax` |
//! | LMO-PO C-C primal (row 11) | `lemma:fw-proj-convex-concave` with `sum_{t<=T} e_{t-1} <= Dy + sqrt(B_e(T-1))` (5.6 chain) | explicit |
//! | LMO-PO C-SC primal (row 12) | 5.7 corrected (D22, Lyy -> Lyx) | explicit |
//! | PO-LMO (rows 13-19) | none (only O(.), D12): use `m_hat` of the quantity | — |
//!
//! With an empirical M the envelope is not a proof of the theorem: it checks the *rest* of the
//! chain (everything except the existence of a finite M), and `mhat_bounded` checks that the
//! empirical M stops growing. `Fmax = max_X |f|` must be a certified upper bound.
//!
//! # Empirical constants (`m_hat`, `mhat_bounded`)
//! `M_hat(T) = max_{t<=T} v_t (t+1)^c / log(t+2)^k` with `v = H` (LMO-LMO: `lemma:compact-ht`
//! c = (2a-b)/3 or 2a/3, `lemma:compact-sc-ht` c = a-b or a; k = 1 in the a = 1, C = 0 branches)
//! or `v` = the bounded quantity with c = p (PO-LMO). "Stays bounded": the log-log slope of
//! `M_hat` between the first checkpoint with `T >= sqrt(T_last)` and `T_last`,
//! `ln(M(T_last)/M(T_s)) / ln((T_last+1)/(T_s+1))`, is at most [`MHAT_SLOPE_TOL`] = 0.05 (a
//! constant that still grows like `T^0.05` over the last half of the horizon is as good as
//! bounded on any horizon we can run; a missed rate shows up as slope `p - p_observed`).
//!
//! # Example
//! ```
//! use saddlefw::envelopes::{m_hat, mhat_bounded};
//! // H_t = 5 (t+1)^-1/2 scaled by (t+1)^c with c = 1/2: M_hat is constant, hence bounded
//! let h: Vec<(u64, f64)> = (0..1000u64).map(|t| (t, 5.0 / ((t + 1) as f64).sqrt())).collect();
//! let m = m_hat(&h, 0.5, 0.0);
//! assert!(mhat_bounded(&m).unwrap().bounded);
//! // a quantity decaying slower than claimed: M_hat keeps growing (the check can fail)
//! let slow: Vec<(u64, f64)> = (0..1000u64).map(|t| (t, 5.0 / ((t + 1) as f64).powf(0.25))).collect();
//! assert!(!mhat_bounded(&m_hat(&slow, 0.5, 0.0)).unwrap().bounded);
//! ```

use crate::problems::Constants;
use crate::theorems::{Algorithm, ScheduleSpec, Side, TheoremEntry};
use serde::{Deserialize, Serialize};

/// Data an envelope may need besides constants and schedule.
#[derive(Debug, Clone, Copy, Default)]
pub struct EnvelopeInputs<'a> {
    /// Certified upper bound on `max_{x in X} |f(x)|`.
    pub fmax: Option<f64>,
    /// `H_t` for t = 0, 1, ... (at least up to the horizon).
    pub h: Option<&'a [f64]>,
}

pub use crate::paper::theorems::EnvelopeKind;

impl EnvelopeKind {
    /// The bound for an entry, if claims.md Sec. 5 gives one: the table's `bound` field.
    pub fn of(e: &TheoremEntry) -> Option<Self> {
        e.bound
    }
    /// `Some(reason)` when the envelope of `e` cannot fail by construction, so that it is a
    /// consistency check of the measures and not a gate: the LMO-LMO dual envelope with the
    /// empirical constant. `M_T/(T+1)^c >= H_T` because `M_T` is the running maximum of
    /// `H_t (t+1)^c`, and `G_Y(x,y) <= H + Dy^2 beta/2` at every point
    /// (`lemma:common-upper-bounds` (1)); with `beta_t = 0` it is the identity `G_Y = H_T`.
    pub fn consistency_only(&self, e: &TheoremEntry) -> Option<&'static str> {
        if *self != EnvelopeKind::Alg1Dual {
            return None;
        }
        let (_, _, c) = e.schedule.abc();
        Some(if c == 0.0 {
            "consistency check, cannot fail: with beta_t = 0 the empirical envelope M_T/(T+1)^c >= H_T = G_Y(x_T,y_T) by construction of M_T (ratio 1 where the running maximum is attained); it tests only that the measures agree, the mhat gate carries the rate content"
        } else {
            "consistency check, cannot fail: M_T/(T+1)^c + C Dy^2/(2(T+1)^b) >= H_T + Dy^2 beta_T/2 >= G_Y(x_T,y_T) at every point (empirical M_T, lemma:common-upper-bounds (1)); it tests only that the measures agree, the mhat gate carries the rate content"
        })
    }
    /// The lemma chain, for reports.
    pub fn label(&self) -> &'static str {
        match self {
            EnvelopeKind::Alg1NcPrimal => "lemma:general-convergence with empirical M_t",
            EnvelopeKind::Alg1ConvexPrimal => "lemma:general-convex-convergence with empirical M_T",
            EnvelopeKind::Alg1Dual => "lemma:common-upper-bounds (1) with empirical M_T",
            EnvelopeKind::Alg2Dual => "lemma:telescoping (1) (rigorous chain)",
            EnvelopeKind::Alg2NcPrimal => "lemma:common-upper-bounds (2) + lemma:telescoping (2)",
            EnvelopeKind::Alg2ConvexPrimal => {
                "lemma:fw-proj-convex-concave + lemma:telescoping (2)"
            }
            EnvelopeKind::Alg2ConvexScPrimal => {
                "theorem:fw-proj-convex-strongly-concave-convergence, corrected (D22)"
            }
        }
    }
}

/// Running maximum `M_t = max_{s<=t} max(H_s, 0) (s+1)^c` for t = 0..=t_max.
fn empirical_m(h: &[f64], c: f64, t_max: u64) -> Option<Vec<f64>> {
    let n = t_max as usize + 1;
    if h.len() < n || h[..n].iter().any(|v| !v.is_finite()) {
        return None;
    }
    let mut m = 0.0f64;
    Some(
        h[..n]
            .iter()
            .enumerate()
            .map(|(s, &v)| {
                m = m.max(v.max(0.0) * ((s + 1) as f64).powf(c));
                m
            })
            .collect(),
    )
}

/// `out[t] = sum_{s<t} f(s)` for t = 0..=n (prefix sums).
fn prefix(n: usize, f: impl Fn(usize) -> f64) -> Vec<f64> {
    let mut out = Vec::with_capacity(n + 1);
    let mut acc = 0.0;
    out.push(0.0);
    for s in 0..n {
        acc += f(s);
        out.push(acc);
    }
    out
}

/// The envelope of claims.md Sec. 5 for the entry's quantity at horizon `t` (see the module
/// table), or `None` when there is none, an input it needs is missing, or `t` is below its range.
pub fn envelope(
    entry: &TheoremEntry,
    k: &Constants,
    t: u64,
    extra: &EnvelopeInputs,
) -> Option<f64> {
    envelope_series(entry, k, &[t], extra).pop().flatten()
}

/// A user entry's envelope formula ([`crate::paper::user`]) at each horizon; a non-finite or
/// negative value is no bound there.
fn user_envelope(
    f: &crate::paper::formula::Formula,
    entry: &TheoremEntry,
    k: &Constants,
    horizons: &[u64],
) -> Vec<Option<f64>> {
    let (a, b, c) = entry.schedule.abc();
    horizons
        .iter()
        .map(|&t| {
            let v = f.eval(&|name| match name {
                "T" => t as f64,
                "Lxx" => k.lxx,
                "Lyx" => k.lyx,
                "Lyy" => k.lyy,
                "mu" => k.mu,
                "Dx" => k.dx,
                "Dy" => k.dy,
                "a" => a,
                "b" => b,
                _ => c,
            });
            // every T is compared: a bound that is not a positive number is broken there
            // (worst_ratio counts it as exceeded), never "no bound"
            Some(v)
        })
        .collect()
}

/// [`envelope`] at each horizon, in one pass: the sums over `s < T` of the chains are prefix
/// sums. The schedule values `tau_t`, `beta_t` are the solvers' ([`TheoremEntry::schedule`]
/// resolved by [`crate::theorems::ScheduleSpec::resolve`]).
pub fn envelope_series(
    entry: &TheoremEntry,
    k: &Constants,
    horizons: &[u64],
    extra: &EnvelopeInputs,
) -> Vec<Option<f64>> {
    let none = || vec![None; horizons.len()];
    if let Some(f) = &entry.envelope {
        return user_envelope(f, entry, k, horizons);
    }
    let Some(kind) = EnvelopeKind::of(entry) else {
        return none();
    };
    // The chains use mu <= Lyy and tau_t = (t+1)^-a.
    if k.lyy < k.mu || !matches!(entry.schedule, ScheduleSpec::Poly(_)) {
        return none();
    }
    let Ok(sched) = entry.schedule.resolve(k) else {
        return none();
    };
    let t_max = horizons.iter().copied().max().unwrap_or(0) as usize;
    let tau = |s: usize| sched.tau.at(s);
    let beta = |s: usize| sched.beta.at(s);
    let (a, b, c_beta) = entry.schedule.abc();
    let (dx2, dy2) = (k.dx * k.dx, k.dy * k.dy);
    let cm = c_beta + k.mu;
    // Q_t of lemma:telescoping: 2 (Lyy+mu+beta_t+beta_{t+1})^2 (Lyx Dx tau_t + 2 Dy (beta_t - beta_{t+1}))^2/(beta_{t+1}+mu)^3.
    let q_t = |s: usize| {
        let (b0, b1) = (beta(s), beta(s + 1));
        let num = k.lyx * k.dx * tau(s) + 2.0 * k.dy * (b0 - b1);
        2.0 * (k.lyy + k.mu + b0 + b1).powi(2) * num * num / (b1 + k.mu).powi(3)
    };
    // B_e(T) = (sum_{t=1}^T 1/(beta_{t-1}+mu)) ((Lyy-mu)Dy^2 + 4 Lxx Dx^2 sum_{t<T} tau_t^2 + sum_{t<T} Q_t)
    // (lemma:telescoping (2)): a bound on (sum_{t=1}^T e_t)^2.
    let b_e_sums = || {
        (
            prefix(t_max + 1, |s| 1.0 / (beta(s) + k.mu)),
            prefix(t_max + 1, |s| tau(s).powi(2)),
            prefix(t_max + 1, q_t),
        )
    };
    let b_e = |sums: &(Vec<f64>, Vec<f64>, Vec<f64>), t_end: usize| {
        sums.0[t_end] * ((k.lyy - k.mu) * dy2 + 4.0 * k.lxx * dx2 * sums.1[t_end] + sums.2[t_end])
    };
    let at = |f: &dyn Fn(u64) -> Option<f64>| horizons.iter().map(|&t| f(t)).collect();
    match kind {
        EnvelopeKind::Alg1NcPrimal | EnvelopeKind::Alg1ConvexPrimal | EnvelopeKind::Alg1Dual => {
            alg1_series(kind, entry, k, horizons, extra, t_max)
        }
        EnvelopeKind::Alg2Dual => {
            let sums = prefix(t_max, |s| {
                4.0 * k.lxx * dx2 * tau(s).powi(2) + dy2 * beta(s + 1) / 2.0 + q_t(s)
            });
            at(&|t| (t >= 1).then(|| ((k.lyy - k.mu) * dy2 + sums[t as usize]) / t as f64))
        }
        EnvelopeKind::Alg2NcPrimal => {
            let Some(fmax) = extra.fmax else {
                return none();
            };
            let be = b_e_sums();
            let smooth = prefix(t_max + 1, |s| {
                (k.lxx * dx2 + k.lyx * k.lyx * dx2 / (beta(s) + k.mu)) * tau(s) / 2.0
            });
            at(&|t| {
                let tf = t as f64;
                (t >= 1).then(|| {
                    ((2.0 * fmax + c_beta * dy2) * (tf + 1.0).powf(a)
                        + k.lyx * k.dx * (k.dy + b_e(&be, t as usize).sqrt())
                        + smooth[t as usize + 1])
                        / tf
                })
            })
        }
        EnvelopeKind::Alg2ConvexPrimal => {
            let be = b_e_sums();
            let smooth = (k.lxx * dx2 + k.mu * k.lyx * k.lyx * dx2 / (cm * cm)) / 2.0;
            at(&|t| {
                let tf = t as f64;
                (t >= 1).then(|| {
                    2.0 * k.lyx * k.dx / tf.powf(a) * (k.dy + b_e(&be, t as usize - 1).sqrt())
                        + c_beta * dy2 / (2.0 * (1.0 - b) * tf.powf(a + b - 1.0))
                        + smooth * harmonic_branch(a, tf, 1)
                        + c_beta * k.lyx * k.lyx * dx2
                            / (2.0 * (1.0 - a + b) * cm * cm * tf.powf(2.0 * a - b - 1.0))
                })
            })
        }
        EnvelopeKind::Alg2ConvexScPrimal => {
            if !(k.mu > 0.0 && k.lyy > 0.0) {
                return none();
            }
            let rho = ((k.lyy - k.mu) / k.lyy).sqrt();
            at(&|t| {
                let tf = t as f64;
                (t >= 1).then(|| {
                    2.0 * k.lyx * k.dx * k.dy / ((1.0 - rho) * tf.powf(a))
                        + 2.0 * k.lyx * k.lyx * dx2 / (k.mu * (1.0 - rho))
                            * harmonic_branch(a, tf, 2)
                        + (k.lxx * dx2 + k.lyx * k.lyx * dx2 / k.mu) / 2.0
                            * harmonic_branch(a, tf, 1)
                })
            })
        }
    }
}

/// The LMO-LMO bounds of [`envelope_series`] (`Alg1*`): they use the empirical constant `M_t`
/// of the entry's mhat check instead of the chains of the schedule.
fn alg1_series(
    kind: EnvelopeKind,
    entry: &TheoremEntry,
    k: &Constants,
    horizons: &[u64],
    extra: &EnvelopeInputs,
    t_max: usize,
) -> Vec<Option<f64>> {
    let none = || vec![None; horizons.len()];
    let at = |f: &dyn Fn(u64) -> Option<f64>| horizons.iter().map(|&t| f(t)).collect();
    let (a, b, c_beta) = entry.schedule.abc();
    let (dx2, dy2) = (k.dx * k.dx, k.dy * k.dy);
    let cm = c_beta + k.mu;
    let (Some(mh), Some(h)) = (entry.mhat.as_ref(), extra.h) else {
        return none();
    };
    let c = mh.c.value;
    let Some(m) = empirical_m(h, c, t_max as u64) else {
        return none();
    };
    match kind {
        EnvelopeKind::Alg1Dual => at(&|t| {
            let tf = t as f64;
            Some(m[t as usize] / (tf + 1.0).powf(c) + c_beta * dy2 / (2.0 * (tf + 1.0).powf(b)))
        }),
        EnvelopeKind::Alg1NcPrimal => {
            let Some(fmax) = extra.fmax else {
                return none();
            };
            let terms = prefix(t_max + 1, |s| {
                let (ms, s1) = (m[s], (s + 1) as f64);
                let t1 = 2.0 * k.lyx * k.dx * (2.0 * c_beta * ms).sqrt()
                    + c_beta * k.lxx * dx2
                    + c_beta * k.lyx * k.lyx * dx2 / cm;
                let t2 = 2.0 * k.lyx * k.dx * (2.0 * k.mu * ms).sqrt()
                    + k.mu * k.lxx * dx2
                    + k.mu * k.lyx * k.lyx * dx2 / cm;
                t1 / (2.0 * cm * s1.powf((c - b) / 2.0)) + t2 / (2.0 * cm * s1.powf(c / 2.0))
            });
            at(&|t| {
                let tf = t as f64;
                (t >= 1).then(|| {
                    ((2.0 * fmax + c_beta * dy2) * (tf + 1.0).powf(a) + terms[t as usize + 1])
                        / (tf + 1.0)
                })
            })
        }
        _ => at(&|t| {
            if t < 1 {
                return None;
            }
            let (tf, m_t) = (t as f64, m[t as usize]);
            let t1 = 4.0 * k.lyx * k.dx * (2.0 * c_beta * m_t).sqrt()
                + c_beta * k.lxx * dx2
                + c_beta * k.lyx * k.lyx * dx2 / cm;
            let t2 = 4.0 * k.lyx * k.dx * (2.0 * k.mu * m_t).sqrt()
                + k.mu * k.lxx * dx2
                + k.mu * k.lyx * k.lyx * dx2 / cm;
            Some(
                c_beta * dy2 / (2.0 * (1.0 - b) * tf.powf(a + b - 1.0))
                    + t1 / ((2.0 - c + b) * cm * tf.powf((2.0 * a - b + c - 2.0) / 2.0))
                    + t2 / ((2.0 - c) * cm * tf.powf((2.0 * a + c - 2.0) / 2.0)),
            )
        }),
    }
}

/// `1/((1-a)^j T^(2a-1))` for a < 1 and `(ln T + 1)^j / T` for a = 1 (the two branches of
/// `lemma:fw-proj-convex-concave` (j = 1) and of 5.7's second term (j = 2)).
fn harmonic_branch(a: f64, t: f64, j: i32) -> f64 {
    if a < 1.0 {
        1.0 / ((1.0 - a).powi(j) * t.powf(2.0 * a - 1.0))
    } else {
        (t.ln() + 1.0).powi(j) / t
    }
}

/// A certified upper bound on `Fmax = max_{x in X} |f(x)|` (needed by the NC primal
/// envelopes): `|L(x,y)| <= |L(x0,y0)| + sup ||grad L|| dist`, with the gradient bounded on
/// X x Y through the Lipschitz constants, `||grad_x L|| <= ||grad_x L(x0,y0)|| + Lxx Dx + Lyx Dy`
/// and `||grad_y L|| <= ||grad_y L(x0,y0)|| + Lyx Dx + Lyy Dy`.
pub fn fmax_bound(p: &dyn crate::problems::SaddleProblem, x0: &[f64], y0: &[f64]) -> f64 {
    let k = p.constants();
    let mut gx = vec![0.0; x0.len()];
    let mut gy = vec![0.0; y0.len()];
    p.grads(x0, y0, &mut gx, &mut gy);
    let norm = crate::linalg::norm;
    p.value(x0, y0).abs()
        + (norm(&gx) + k.lxx * k.dx + k.lyx * k.dy) * k.dx
        + (norm(&gy) + k.lyx * k.dx + k.lyy * k.dy) * k.dy
}

/// The largest `quantity/bound` over the checkpoints that have a bound.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct WorstRatio {
    pub ratio: f64,
    pub t: u64,
}

/// Worst ratio of `quantity` to its bound (pairs matched by index; a checkpoint whose bound is
/// missing or not positive has none); `None` if no bound. The earliest of equal ratios is kept.
/// For the printed forms of the errata; the envelope gate uses [`worst_ratio_gate`].
pub fn worst_ratio(quantity: &[(u64, f64)], bounds: &[Option<f64>]) -> Option<WorstRatio> {
    let positive: Vec<Option<f64>> = bounds.iter().map(|b| b.filter(|b| *b > 0.0)).collect();
    worst_ratio_gate(quantity, &positive)
}

/// Worst ratio of `quantity` to its envelope (pairs matched by index; a checkpoint whose bound
/// is missing has none; `None` if no bound). Every checkpoint with a bound is compared: a
/// bound that is not a positive finite number bounds nothing there, so its ratio is
/// [`f64::MAX`] (exceeded). The earliest of equal ratios is kept. The anytime claim holds on
/// the run iff the ratio is at most 1.
pub fn worst_ratio_gate(quantity: &[(u64, f64)], bounds: &[Option<f64>]) -> Option<WorstRatio> {
    quantity
        .iter()
        .zip(bounds)
        .filter_map(|(&(t, q), b)| {
            b.map(|b| WorstRatio {
                ratio: if b.is_finite() && b > 0.0 {
                    q / b
                } else {
                    f64::MAX
                },
                t,
            })
        })
        .fold(None, |w: Option<WorstRatio>, r| match w {
            Some(w) if w.ratio >= r.ratio => Some(w),
            _ => Some(r),
        })
}

/// `M_hat(T) = max_{t<=T} max(v_t, 0) (t+1)^c / ln(t+2)^k` at each point `(t, v_t)`.
pub fn m_hat(points: &[(u64, f64)], c: f64, log_power: f64) -> Vec<(u64, f64)> {
    let mut m = 0.0f64;
    points
        .iter()
        .map(|&(t, v)| {
            let tt = t as f64;
            m = m.max(v.max(0.0) * (tt + 1.0).powf(c) / (tt + 2.0).ln().powf(log_power));
            (t, m)
        })
        .collect()
}

/// Largest log-log slope of `M_hat` over the last half of the horizon that counts as bounded.
pub const MHAT_SLOPE_TOL: f64 = 0.05;

/// Result of the boundedness check.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct MhatCheck {
    /// Log-log slope of M_hat over `window` (`+inf` if M_hat rises from 0).
    pub slope: f64,
    pub window: [u64; 2],
    pub m_end: f64,
    pub bounded: bool,
}

/// The "stays bounded" rule of the module doc; `None` for fewer than 2 points.
pub fn mhat_bounded(m: &[(u64, f64)]) -> Option<MhatCheck> {
    let &(t_end, m_end) = m.last()?;
    let half = 0.5 * ((t_end + 1) as f64).ln();
    let i = m.iter().position(|p| ((p.0 + 1) as f64).ln() >= half)?;
    let (t_s, m_s) = m[i.min(m.len().checked_sub(2)?)];
    let slope = if m_end <= 0.0 {
        0.0
    } else if m_s <= 0.0 {
        f64::INFINITY
    } else {
        (m_end / m_s).ln() / (((t_end + 1) as f64) / ((t_s + 1) as f64)).ln()
    };
    Some(MhatCheck {
        slope,
        window: [t_s, t_end],
        m_end,
        bounded: slope <= MHAT_SLOPE_TOL,
    })
}

/// `mhat_bounded` over the last decade of the horizon, the points with
/// `t >= t_last / 10` (the `mhat` gate of `verify` and its printed twins): a transient that
/// ended before `t_last / 10` is not held against the constant. `None` for fewer than 2 points.
pub fn mhat_bounded_last_decade(m: &[(u64, f64)]) -> Option<MhatCheck> {
    let from = m.last().map_or(0, |p| p.0 / 10);
    let i = m.iter().position(|p| p.0 >= from).unwrap_or(0);
    mhat_bounded(&m[i..])
}

/// The printed closed forms of claims.md Sec. 5 that the corrected envelopes above replace:
/// evaluated on the same runs as non-gating twins, so the report says per entry whether an
/// erratum shows numerically (printed bound crossed), the printed bound holds on every tested
/// instance, or the printed bound is undefined for the entry's schedule. Never a gate.
///
/// | form | entries | printed bound |
/// |---|---|---|
/// | [`FwProjPrimalC`](PrintedForm::FwProjPrimalC) | `lmo-po/nc-c/primal` | 5.5 printed, C > 0 (D8, D17, 7.18) |
/// | [`FwProjPrimalMu`](PrintedForm::FwProjPrimalMu) | `lmo-po/nc-sc/primal` | 5.5 printed, mu > 0, C = 0 (D5, D8) |
/// | [`FwProjDualC`](PrintedForm::FwProjDualC) | `lmo-po/nc-c/dual`, `lmo-po/c-c/dual` | 5.5 printed G_Y, C > 0; divides by `1-2a+3b` = 0 at (1, 1/3) (D7, 7.19) |
/// | [`FwProjDualMu`](PrintedForm::FwProjDualMu) | `lmo-po/nc-sc/dual`, `lmo-po/c-sc/dual` | `W_T/(mu^3 T)` (5.5, 5.7) |
/// | [`FwProjConvexGOpt`](PrintedForm::FwProjConvexGOpt) | `lmo-po/c-c/primal` | 5.6 printed `G^Opt` (D9, 7.19) |
/// | [`FwProjConvexScGOpt`](PrintedForm::FwProjConvexScGOpt) | `lmo-po/c-sc/primal` | 5.7 printed (`rho` in the first term, `Lyx Lyy`: D22, 7.20) |
/// | [`AdaptiveDualNoLog`](PrintedForm::AdaptiveDualNoLog) | `lmo-lmo/c-sc/dual`, `lmo-lmo/c-sc+sc/dual` | `G_Y(x_T,y_T) <= M/(T+1)^c` without `log(T+2)` (D1, D2, 7.15): existential M, checked as "`M_hat` of the quantity with log power 0 stays bounded" (`mhat_bounded`) |
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PrintedForm {
    FwProjPrimalC,
    FwProjPrimalMu,
    FwProjDualC,
    FwProjDualMu,
    FwProjConvexGOpt,
    FwProjConvexScGOpt,
    AdaptiveDualNoLog,
}

/// How a printed form is checked.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum PrintedCheck {
    /// Explicit constants: `quantity_T <= bound(T)` at every checkpoint (`printed_series`).
    Explicit,
    /// Existential constant: `M_hat` of the quantity with exponent `c` and no log factor stays
    /// bounded (`m_hat`, `mhat_bounded`).
    Bounded { c: f64 },
}

impl PrintedForm {
    /// The printed forms evaluated for an entry (module table above).
    pub fn of(e: &TheoremEntry) -> Vec<PrintedForm> {
        let s = e.setting();
        let (_, _, c) = e.schedule.abc();
        if !matches!(e.schedule, ScheduleSpec::Poly(_)) {
            return Vec::new();
        }
        let Some(alg) = e.algorithm.paper() else {
            return Vec::new();
        };
        let v = match (alg, e.side(), s.convex, c > 0.0) {
            (Algorithm::LmoPo, Side::Primal, false, true) => PrintedForm::FwProjPrimalC,
            (Algorithm::LmoPo, Side::Primal, false, false) => PrintedForm::FwProjPrimalMu,
            (Algorithm::LmoPo, Side::Dual, _, true) => PrintedForm::FwProjDualC,
            (Algorithm::LmoPo, Side::Dual, _, false) => PrintedForm::FwProjDualMu,
            (Algorithm::LmoPo, Side::Primal, true, true) => PrintedForm::FwProjConvexGOpt,
            (Algorithm::LmoPo, Side::Primal, true, false) => PrintedForm::FwProjConvexScGOpt,
            (Algorithm::LmoLmo, Side::Dual, true, false) => PrintedForm::AdaptiveDualNoLog,
            _ => return Vec::new(),
        };
        vec![v]
    }
    /// Short name (verify.json's `errata[].name`).
    pub fn name(&self) -> &'static str {
        match self {
            PrintedForm::FwProjPrimalC => "printed primal bound, C > 0 (D8)",
            PrintedForm::FwProjPrimalMu => "printed primal bound, mu > 0, C = 0 (D8)",
            PrintedForm::FwProjDualC => "printed dual bound, C > 0 (D7)",
            PrintedForm::FwProjDualMu => "printed dual bound W_T/(mu^3 T)",
            PrintedForm::FwProjConvexGOpt => "printed G^Opt bound (5.6)",
            PrintedForm::FwProjConvexScGOpt => "printed G^Opt bound (D22)",
            PrintedForm::AdaptiveDualNoLog => "printed G_Y bound without log(T+2) (D1, D2)",
        }
    }
    /// The paper label and the claims.md items.
    pub fn label(&self) -> &'static str {
        match self {
            PrintedForm::FwProjPrimalC => {
                "theorem:fw-proj-convergence, first claim (claims.md 5.5 printed; D8, D17, 7.18)"
            }
            PrintedForm::FwProjPrimalMu => {
                "theorem:fw-proj-convergence, mu > 0, C = 0 (claims.md 5.5 printed; D5, D8)"
            }
            PrintedForm::FwProjDualC => {
                "theorem:fw-proj-convergence / theorem:fw-proj-convex-concave-convergence, G_Y (claims.md 5.5, 5.6; D7, 7.19)"
            }
            PrintedForm::FwProjDualMu => {
                "theorem:fw-proj-convergence / theorem:fw-proj-convex-strongly-concave-convergence, G_Y (claims.md 5.5, 5.7)"
            }
            PrintedForm::FwProjConvexGOpt => {
                "theorem:fw-proj-convex-concave-convergence (claims.md 5.6 printed; D9, 7.19)"
            }
            PrintedForm::FwProjConvexScGOpt => {
                "theorem:fw-proj-convex-strongly-concave-convergence (claims.md 5.7 printed; D22, 7.20)"
            }
            PrintedForm::AdaptiveDualNoLog => {
                "theorem:adaptive-convex-concave / theorem:strongly-convex-convex-concave-convergence, G_Y (claims.md 5.3, 5.4; D1, D2, 7.15)"
            }
        }
    }
    /// The printed formula, as text.
    pub fn printed_form(&self) -> &'static str {
        match self {
            PrintedForm::FwProjPrimalC => {
                "(2Fmax + C Dy^2)/T^(1-a) + Lxx Dx^2/(2(1-a) T^a) + Lyx^2 Dx^2/(2(1-a+b) C T^(a-b)) + (Lyx Dx/T^((1-b)/2)) sqrt(V_T/((1+b) C)) + 2^(b+1/2) Lyx Dx (Lyy+2C)(Lyx Dx + 2bC Dy)/(T^(a-2b) C^2 sqrt(1-2a+3b))"
            }
            PrintedForm::FwProjPrimalMu => {
                "2Fmax/T^(1-a) + (Lxx Dx^2 + Lyx^2 Dx^2/mu)/(2(1-a) T^a) + Lyx Dx sqrt(W_T)/(mu^2 T^(1/2))"
            }
            PrintedForm::FwProjDualC => {
                "V_T/T + C Dy^2/(2(1-b) T^b) + 2^(2b+1) (Lyy+2C)^2 (Lyx Dx + 2bC Dy)^2/(T^(2a-3b) (1-2a+3b) C^3)"
            }
            PrintedForm::FwProjDualMu => "W_T/(mu^3 T)",
            PrintedForm::FwProjConvexGOpt => {
                "(2 Lyx Dx/T^((2a-b-1)/2)) sqrt(V_T/((1+b)C)) + C Dy^2/(2(1-b) T^(a+b-1)) + (2^(b+3/2) Lyx Dx (Lyy+2C)(Lyx Dx + 2bC Dy)/C^2) {1/(sqrt(1-2a+3b) T^(2a-2b-1)) | sqrt(log T + 1)/T^((1-b)/2) if 2a-3b = 1} + ((Lxx Dx^2 + mu Lyx^2 Dx^2/(C+mu)^2)/2) {1/((1-a) T^(2a-1)) | (log T + 1)/T if a = 1} + C Lyx^2 Dx^2/(2(1-a+b)(C+mu)^2 T^(2a-b-1))"
            }
            PrintedForm::FwProjConvexScGOpt => {
                "2 rho Lyx Dx Dy/((1-rho) T^a) + (2 Lyx Lyy Dx^2/(mu(1-rho))) {1/((1-a)^2 T^(2a-1)) | (log T + 1)^2/T if a = 1} + ((Lxx Dx^2 + Lyx^2 Dx^2/mu)/2) {1/((1-a) T^(2a-1)) | (log T + 1)/T if a = 1}"
            }
            PrintedForm::AdaptiveDualNoLog => "G_Y(x_T, y_T) <= M/(T+1)^c (c = 2a/3 or a, a = 1), no log(T+2) factor",
        }
    }
    /// How the form is checked for `e`.
    pub fn check(&self, e: &TheoremEntry) -> PrintedCheck {
        match self {
            PrintedForm::AdaptiveDualNoLog => PrintedCheck::Bounded {
                c: e.mhat.as_ref().map_or(e.p(), |m| m.c.value),
            },
            _ => PrintedCheck::Explicit,
        }
    }
}

/// `Err(reason)` when a denominator of a printed form vanishes (or a square root of a negative
/// number is taken) for the schedule and constants: the printed bound is then undefined.
fn positive(what: &str, v: f64) -> std::result::Result<f64, String> {
    if v > 1e-12 && v.is_finite() {
        Ok(v)
    } else if v.abs() <= 1e-12 {
        Err(format!("division by zero: {what} = 0"))
    } else {
        Err(format!(
            "{what} = {v:.4} < 0 (outside the printed hypotheses)"
        ))
    }
}

/// The printed form `form` of entry `e` at each horizon (`None` below T = 1), or
/// `Err(reason)` when the printed bound is undefined for the entry's schedule and constants
/// (e.g. `1/(1-2a+3b)` at a = 1, b = 1/3: D7). For [`PrintedCheck::Bounded`] forms there is
/// no explicit bound: `Err` is never returned and every value is `None`.
pub fn printed_series(
    form: PrintedForm,
    e: &TheoremEntry,
    k: &Constants,
    horizons: &[u64],
    extra: &EnvelopeInputs,
) -> std::result::Result<Vec<Option<f64>>, String> {
    let none = vec![None; horizons.len()];
    if form.check(e) != PrintedCheck::Explicit {
        return Ok(none);
    }
    let (a, b, c) = e.schedule.abc();
    let ab = format!("a = {a:.4}, b = {b:.4}");
    let t_max = horizons.iter().copied().max().unwrap_or(0) as usize;
    let (dx2, dy2) = (k.dx * k.dx, k.dy * k.dy);
    // sum_{t=0}^{T-1} (t+1)^(-2a), T = 0..=t_max
    let s2a = prefix(t_max, |s| ((s + 1) as f64).powf(-2.0 * a));
    let v_t = |t: usize| (k.lyy - k.mu) * dy2 + 4.0 * k.lxx * dx2 * s2a[t];
    let w_t = |t: usize| {
        let m3 = k.mu.powi(3);
        m3 * (k.lyy - k.mu) * dy2
            + 2.0 * (2.0 * m3 * k.lxx * dx2 + (k.lyx * k.dx * (k.lyy + k.mu)).powi(2)) * s2a[t]
    };
    let at = |f: &dyn Fn(u64, f64) -> f64| -> Vec<Option<f64>> {
        horizons
            .iter()
            .map(|&t| (t >= 1).then(|| f(t, t as f64)))
            .collect()
    };
    let fmax = || extra.fmax.ok_or_else(|| "needs Fmax".to_string());
    // the massive-sum term 2^(b+1/2) Lyx Dx (Lyy+2C)(Lyx Dx + 2bC Dy)/C^2
    let massive = k.lyx * k.dx * (k.lyy + 2.0 * c) * (k.lyx * k.dx + 2.0 * b * c * k.dy);
    let out = match form {
        PrintedForm::FwProjPrimalC => {
            let (fmax, one_a) = (fmax()?, positive(&format!("1 - a ({ab})"), 1.0 - a)?);
            let cc = positive("C", c)?;
            let q = positive(&format!("1 - 2a + 3b ({ab})"), 1.0 - 2.0 * a + 3.0 * b)?;
            at(&|t, tf| {
                (2.0 * fmax + cc * dy2) / tf.powf(1.0 - a)
                    + k.lxx * dx2 / (2.0 * one_a * tf.powf(a))
                    + k.lyx * k.lyx * dx2 / (2.0 * (1.0 - a + b) * cc * tf.powf(a - b))
                    + k.lyx * k.dx / tf.powf((1.0 - b) / 2.0)
                        * (v_t(t as usize) / ((1.0 + b) * cc)).sqrt()
                    + 2f64.powf(b + 0.5) * massive / (tf.powf(a - 2.0 * b) * cc * cc * q.sqrt())
            })
        }
        PrintedForm::FwProjPrimalMu => {
            let (fmax, one_a) = (fmax()?, positive(&format!("1 - a ({ab})"), 1.0 - a)?);
            let mu = positive("mu", k.mu)?;
            at(&|t, tf| {
                2.0 * fmax / tf.powf(1.0 - a)
                    + (k.lxx * dx2 + k.lyx * k.lyx * dx2 / mu) / (2.0 * one_a * tf.powf(a))
                    + k.lyx * k.dx * w_t(t as usize).sqrt() / (mu * mu * tf.sqrt())
            })
        }
        PrintedForm::FwProjDualC => {
            let cc = positive("C", c)?;
            let one_b = positive(&format!("1 - b ({ab})"), 1.0 - b)?;
            let q = positive(&format!("1 - 2a + 3b ({ab})"), 1.0 - 2.0 * a + 3.0 * b)?;
            let last = 2f64.powf(2.0 * b + 1.0)
                * (k.lyy + 2.0 * c).powi(2)
                * (k.lyx * k.dx + 2.0 * b * c * k.dy).powi(2);
            at(&|t, tf| {
                v_t(t as usize) / tf
                    + cc * dy2 / (2.0 * one_b * tf.powf(b))
                    + last / (tf.powf(2.0 * a - 3.0 * b) * q * cc.powi(3))
            })
        }
        PrintedForm::FwProjDualMu => {
            let mu = positive("mu", k.mu)?;
            at(&|t, tf| w_t(t as usize) / (mu.powi(3) * tf))
        }
        PrintedForm::FwProjConvexGOpt => {
            let cc = positive("C", c)?;
            let one_b = positive(&format!("1 - b ({ab})"), 1.0 - b)?;
            let one_ab = positive(&format!("1 - a + b ({ab})"), 1.0 - a + b)?;
            let q = 1.0 - 2.0 * a + 3.0 * b;
            let log_branch = q.abs() <= 1e-12;
            if !log_branch {
                positive(&format!("1 - 2a + 3b ({ab})"), q)?;
            }
            let cm2 = (cc + k.mu).powi(2);
            let smooth = (k.lxx * dx2 + k.mu * k.lyx * k.lyx * dx2 / cm2) / 2.0;
            at(&|t, tf| {
                let third = if log_branch {
                    (tf.ln() + 1.0).sqrt() / tf.powf((1.0 - b) / 2.0)
                } else {
                    1.0 / (q.sqrt() * tf.powf(2.0 * a - 2.0 * b - 1.0))
                };
                2.0 * k.lyx * k.dx / tf.powf((2.0 * a - b - 1.0) / 2.0)
                    * (v_t(t as usize) / ((1.0 + b) * cc)).sqrt()
                    + cc * dy2 / (2.0 * one_b * tf.powf(a + b - 1.0))
                    + 2f64.powf(b + 1.5) * massive / (cc * cc) * third
                    + smooth * harmonic_branch(a, tf, 1)
                    + cc * k.lyx * k.lyx * dx2 / (2.0 * one_ab * cm2 * tf.powf(2.0 * a - b - 1.0))
            })
        }
        PrintedForm::FwProjConvexScGOpt => {
            let mu = positive("mu", k.mu)?;
            let lyy = positive("Lyy", k.lyy)?;
            let rho = ((lyy - mu).max(0.0) / lyy).sqrt();
            let one_rho = positive("1 - rho", 1.0 - rho)?;
            at(&|_, tf| {
                2.0 * rho * k.lyx * k.dx * k.dy / (one_rho * tf.powf(a))
                    + 2.0 * k.lyx * k.lyy * dx2 / (mu * one_rho) * harmonic_branch(a, tf, 2)
                    + (k.lxx * dx2 + k.lyx * k.lyx * dx2 / mu) / 2.0 * harmonic_branch(a, tf, 1)
            })
        }
        PrintedForm::AdaptiveDualNoLog => none,
    };
    Ok(out)
}
