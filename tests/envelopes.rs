//! Explicit envelopes (claims.md Sec. 5) and the empirical-constant check: formulas against
//! hand evaluations, validity on real LMO-LMO / LMO-PO runs (a small reference loop in this
//! file, independent of src/solvers), and negative controls.

use saddlefw::envelopes::{
    envelope, envelope_series, m_hat, mhat_bounded, worst_ratio, EnvelopeInputs, EnvelopeKind,
};
use saddlefw::generators::{Family, GeneratorSpec, Setting};
use saddlefw::linalg::norm;
use saddlefw::measures::evaluate;
use saddlefw::problems::{Constants, Instance, SaddleProblem};
use saddlefw::theorems::{builtin, quantity_series, Algorithm, IterMeasures, TheoremEntry};
use std::str::FromStr;

fn entry(id: &str) -> TheoremEntry {
    builtin().into_iter().find(|e| e.id == id).unwrap()
}

const K: Constants = Constants {
    lxx: 1.5,
    lyx: 2.0,
    lyy: 3.0,
    mu: 0.5,
    alpha: None,
    dx: 2.0,
    dy: 1.5,
};

#[test]
fn lmo_po_chain_matches_a_hand_evaluation_at_t_1_and_2() {
    let e = entry("lmo-po/nc-c/dual"); // a = 3/4, b = 1/4, C = 1
    let s = e.schedule.clone();
    let (dx2, dy2) = (K.dx * K.dx, K.dy * K.dy);
    let beta = |t: f64| (t + 1.0).powf(-0.25);
    let tau = |t: f64| (t + 1.0).powf(-0.75);
    let q = |t: f64| {
        let (b0, b1) = (beta(t), beta(t + 1.0));
        2.0 * (K.lyy + K.mu + b0 + b1).powi(2)
            * (K.lyx * K.dx * tau(t) + 2.0 * K.dy * (b0 - b1)).powi(2)
            / (b1 + K.mu).powi(3)
    };
    let term = |t: f64| 4.0 * K.lxx * dx2 * tau(t).powi(2) + dy2 * beta(t + 1.0) / 2.0 + q(t);
    let want1 = (K.lyy - K.mu) * dy2 + term(0.0);
    let want2 = (want1 + term(1.0)) / 2.0;
    let none = EnvelopeInputs::default();
    let got1 = envelope(&e, &K, &s, 1, &none).unwrap();
    let got2 = envelope(&e, &K, &s, 2, &none).unwrap();
    assert!((got1 - want1).abs() < 1e-12 * want1, "{got1} vs {want1}");
    assert!((got2 - want2).abs() < 1e-12 * want2, "{got2} vs {want2}");
    assert!(envelope(&e, &K, &s, 0, &none).is_none(), "T >= 1");
    // 5.7 corrected, a = 1, at T = e - 1... check T = 1: (ln 1 + 1) = 1
    let e = entry("lmo-po/c-sc/primal");
    let k = Constants {
        lyy: 2.0,
        mu: 0.5,
        ..K
    };
    let rho = (1.5f64 / 2.0).sqrt();
    let want = 2.0 * k.lyx * k.dx * k.dy / (1.0 - rho)
        + 2.0 * k.lyx * k.lyx * k.dx * k.dx / (k.mu * (1.0 - rho))
        + (k.lxx * k.dx * k.dx + k.lyx * k.lyx * k.dx * k.dx / k.mu) / 2.0;
    let got = envelope(&e, &k, &e.schedule, 1, &none).unwrap();
    assert!((got - want).abs() < 1e-12 * want, "{got} vs {want}");
}

#[test]
fn lmo_lmo_envelopes_use_the_empirical_constant() {
    // H_t = 2/(t+1)^c exactly: M_t = 2, and the dual envelope is 2/(T+1)^c + C Dy^2/(2(T+1)^b).
    let e = entry("lmo-lmo/nc-c/dual");
    let c = e.mhat.as_ref().unwrap().c.value;
    let h: Vec<f64> = (0..100).map(|t| 2.0 * ((t + 1) as f64).powf(-c)).collect();
    let inputs = EnvelopeInputs {
        fmax: None,
        h: Some(&h),
    };
    let got = envelope(&e, &K, &e.schedule, 63, &inputs).unwrap();
    let want = 2.0 * 64f64.powf(-c) + K.dy * K.dy / (2.0 * 64f64.powf(1.0 / 6.0));
    assert!((got - want).abs() < 1e-12, "{got} vs {want}");
    assert!(
        envelope(&e, &K, &e.schedule, 100, &inputs).is_none(),
        "H not recorded that far"
    );
    let p = entry("lmo-lmo/nc-c/primal");
    assert!(
        envelope(&p, &K, &p.schedule, 10, &inputs).is_none(),
        "needs Fmax"
    );
    let with_f = EnvelopeInputs {
        fmax: Some(1.0),
        h: Some(&h),
    };
    assert!(envelope(&p, &K, &p.schedule, 10, &with_f).unwrap() > 0.0);
    // PO-LMO has no explicit envelope (D12)
    let po = entry("po-lmo/nc-c/dual");
    assert_eq!(EnvelopeKind::of(&po), None);
    assert!(envelope(&po, &K, &po.schedule, 10, &with_f).is_none());
}

#[test]
fn worst_ratio_negative_control() {
    let qs = vec![(1, 1.0), (2, 0.5), (4, 0.3)];
    let bounds = vec![Some(2.0), Some(1.0), Some(0.6)];
    let w = worst_ratio(&qs, &bounds).unwrap();
    assert!(w.ratio <= 0.5 + 1e-15);
    let broken: Vec<(u64, f64)> = qs.iter().map(|&(t, q)| (t, 4.0 * q)).collect();
    let w = worst_ratio(&broken, &bounds).unwrap();
    assert!(w.ratio > 1.0, "a quantity above its bound must be reported");
    assert_eq!(worst_ratio(&qs, &[None, None, None]), None);
}

#[test]
fn mhat_boundedness_and_its_negative_controls() {
    let ts: Vec<u64> = (0..=20_000).collect();
    let c = 0.5;
    let pts = |f: &dyn Fn(f64) -> f64| -> Vec<(u64, f64)> {
        ts.iter().map(|&t| (t, f(t as f64))).collect()
    };
    // H_t ~ (t+1)^-c: bounded
    let m = m_hat(
        &pts(&|t| 3.0 * (t + 1.0).powf(-c) * (1.0 + 0.3 * (t * 0.7).sin())),
        c,
        0.0,
    );
    let chk = mhat_bounded(&m).unwrap();
    assert!(chk.bounded, "{chk:?}");
    // H_t ~ (t+1)^(0.3-c): M_hat grows like T^0.3 -> not bounded
    let chk = mhat_bounded(&m_hat(&pts(&|t| (t + 1.0).powf(0.3 - c)), c, 0.0)).unwrap();
    assert!(!chk.bounded && (chk.slope - 0.3).abs() < 0.02, "{chk:?}");
    // log factor: bounded only when the log is allowed
    let logged = pts(&|t| (t + 2.0).ln() * (t + 1.0).powf(-c));
    assert!(mhat_bounded(&m_hat(&logged, c, 1.0)).unwrap().bounded);
    assert!(!mhat_bounded(&m_hat(&logged, c, 0.0)).unwrap().bounded);
    // identically zero H: bounded; fewer than two points: no verdict
    assert!(
        mhat_bounded(&m_hat(&pts(&|_| 0.0), c, 0.0))
            .unwrap()
            .bounded
    );
    assert!(mhat_bounded(&[(5, 1.0)]).is_none());
}

// ---- real runs -------------------------------------------------------------------------

/// Deliberate breakages of the reference loop.
#[derive(Clone, Copy, PartialEq)]
enum Broken {
    None,
    /// The dual iterate never moves.
    FrozenDual,
}

/// A direct transcription of Algorithms 1 and 2 (claims.md 2.1, 2.2), recording every iterate's
/// measures. Only for checking envelopes here; the solvers live in src/solvers.
fn reference_run(inst: &Instance, e: &TheoremEntry, n: usize, broken: Broken) -> Vec<IterMeasures> {
    let p = &inst.problem;
    let k = p.constants();
    let s = &e.schedule;
    let (mut x, mut y) = (inst.x0.clone(), inst.y0.clone());
    let (dx, dy) = (x.len(), y.len());
    let (mut gx, mut gy, mut v, mut u, mut z) = (
        vec![0.0; dx],
        vec![0.0; dy],
        vec![0.0; dx],
        vec![0.0; dy],
        vec![0.0; dy],
    );
    let mut out = Vec::with_capacity(n + 1);
    for t in 0..=n as u64 {
        let (tau, beta) = (s.tau(t, &k), s.beta(t));
        let m = evaluate(p, &x, &y, beta, &inst.y0, s.tau(0, &k));
        out.push(IterMeasures {
            t,
            gx_lmo: m.gx_lmo,
            gx_po: m.gx_po,
            gy: m.gy,
            gy_lmo: m.gy_lmo,
            h: m.h,
            gap_opt: m.gap_opt,
        });
        if t == n as u64 {
            break;
        }
        p.grads(&x, &y, &mut gx, &mut gy);
        for i in 0..dy {
            gy[i] -= beta * (y[i] - inst.y0[i]); // grad_y L_beta
        }
        p.x_set().lmo(&gx, &mut v);
        match e.algorithm {
            Algorithm::LmoLmo => {
                let neg: Vec<f64> = gy.iter().map(|g| -g).collect();
                p.y_set().lmo(&neg, &mut u);
                let d: Vec<f64> = u.iter().zip(&y).map(|(a, b)| a - b).collect();
                let dd: f64 = d.iter().map(|v| v * v).sum();
                let num: f64 = gy.iter().zip(&d).map(|(a, b)| a * b).sum();
                let gamma = if dd > 0.0 {
                    (num / ((k.lyy + beta) * dd)).min(1.0)
                } else {
                    0.0
                };
                if broken != Broken::FrozenDual {
                    for i in 0..dy {
                        y[i] += gamma * d[i];
                    }
                }
            }
            _ => {
                let gamma = 1.0 / (k.lyy + beta);
                for i in 0..dy {
                    z[i] = y[i] + gamma * gy[i];
                }
                if broken != Broken::FrozenDual {
                    p.y_set().project(&z, &mut y);
                }
            }
        }
        for i in 0..dx {
            x[i] += tau * (v[i] - x[i]);
        }
    }
    out
}

/// A certified bound on max_{X x Y} |L| >= Fmax: mean value theorem from (x0, y0).
fn fmax_bound(inst: &Instance) -> f64 {
    let p = &inst.problem;
    let k = p.constants();
    let mut gx = vec![0.0; inst.x0.len()];
    let mut gy = vec![0.0; inst.y0.len()];
    p.grads(&inst.x0, &inst.y0, &mut gx, &mut gy);
    p.value(&inst.x0, &inst.y0).abs()
        + (norm(&gx) + k.lxx * k.dx + k.lyx * k.dy) * k.dx
        + (norm(&gy) + k.lyx * k.dx + k.lyy * k.dy) * k.dy
}

fn instance(e: &TheoremEntry, seed: u64) -> Instance {
    let setting = Setting::from_str(&e.setting).unwrap();
    let family = if setting.convex {
        Family::Saddle
    } else {
        Family::Quadratic
    };
    GeneratorSpec::new(family, setting, 6, 4, seed)
        .generate()
        .unwrap()
}

/// Worst quantity/envelope ratio of an entry on a reference run.
fn ratio_on_run(e: &TheoremEntry, inst: &Instance, n: usize, broken: Broken) -> f64 {
    let rec = reference_run(inst, e, n, broken);
    let q = quantity_series(e, &rec).unwrap();
    let h: Vec<f64> = rec.iter().map(|m| m.h).collect();
    let inputs = EnvelopeInputs {
        fmax: Some(fmax_bound(inst)),
        h: Some(&h),
    };
    let ts: Vec<u64> = q.iter().map(|p| p.0).collect();
    let k = inst.problem.constants();
    let bounds = envelope_series(e, &k, &e.schedule, &ts, &inputs);
    assert!(
        bounds.iter().all(|b| b.is_some()),
        "{}: envelope missing",
        e.id
    );
    worst_ratio(&q, &bounds).unwrap().ratio
}

#[test]
fn envelopes_hold_on_reference_runs() {
    for e in builtin().iter().filter(|e| e.algorithm != Algorithm::PoLmo) {
        for seed in [1, 2] {
            let inst = instance(e, seed);
            let r = ratio_on_run(e, &inst, 1500, Broken::None);
            assert!(
                r <= 1.0 + 1e-9,
                "{} seed {seed}: quantity/envelope = {r}",
                e.id
            );
        }
    }
}

#[test]
fn envelope_catches_a_frozen_dual_lmo_po() {
    // LMO-PO C-SC: avg G_Y <= W_T/(mu^3 T); a dual iterate that never moves keeps G_Y of order
    // one and crosses the O(1/T) envelope.
    let e = entry("lmo-po/c-sc/dual");
    let inst = instance(&e, 1);
    assert!(ratio_on_run(&e, &inst, 1500, Broken::None) <= 1.0);
    let r = ratio_on_run(&e, &inst, 6000, Broken::FrozenDual);
    assert!(
        r > 1.0,
        "the broken run must violate the envelope (ratio {r})"
    );
}

#[test]
fn mhat_of_h_on_lmo_lmo_runs_and_a_frozen_dual() {
    let e = entry("lmo-lmo/nc-sc/dual"); // c = 2a/3 = 1/2
    let m = e.mhat.clone().unwrap();
    let inst = instance(&e, 3);
    let hs = |broken| -> Vec<(u64, f64)> {
        reference_run(&inst, &e, 4000, broken)
            .iter()
            .map(|r| (r.t, r.h))
            .collect()
    };
    let ok = mhat_bounded(&m_hat(&hs(Broken::None), m.c.value, m.log_power)).unwrap();
    assert!(ok.bounded, "{ok:?}");
    let bad = mhat_bounded(&m_hat(&hs(Broken::FrozenDual), m.c.value, m.log_power)).unwrap();
    assert!(
        !bad.bounded,
        "a frozen dual keeps H_t of order one: {bad:?}"
    );
}
