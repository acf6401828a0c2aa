//! `src/envelopes.rs` by hand: every built-in entry's envelope (claims.md Sec. 5) at
//! T = 1, 2, 3, 5, 8 with the distinct constants of [`super::k_lmo`] (`mu = 0.7 <= Lyy`), an
//! `Fmax` and a recorded `H_t` ([`super::h_of`]). tests/envelopes.rs evaluates the LMO-PO dual
//! chain and the C-SC primal at T = 1; here every kind, with the entry's own schedule.

use super::*;
use saddlefw::envelopes::{envelope_series, EnvelopeInputs, EnvelopeKind};
use saddlefw::theorems::builtin;

const TS: [u64; 5] = [1, 2, 3, 5, 8];

type Seq<'a> = &'a dyn Fn(usize) -> f64;

/// `Q_t = 2 (Lyy+mu+beta_t+beta_{t+1})^2 (Lyx Dx tau_t + 2 Dy db_t)^2/(beta_{t+1}+mu)^3` (claims 4.9).
fn q(k: &Constants, tau: Seq, beta: Seq, s: usize) -> f64 {
    let m = k.lyx * k.dx * tau(s) + 2.0 * k.dy * (beta(s) - beta(s + 1));
    2.0 * (k.lyy + k.mu + beta(s) + beta(s + 1)).powi(2) * m * m / (beta(s + 1) + k.mu).powi(3)
}

/// `B_e(T) = (sum_{t=1}^T 1/(beta_{t-1}+mu)) ((Lyy-mu) Dy^2 + 4 Lxx Dx^2 sum_{t<T} tau_t^2 + sum_{t<T} Q_t)`
/// (`lemma:telescoping` (2), claims 5.5).
fn b_e(k: &Constants, tau: Seq, beta: Seq, t: usize) -> f64 {
    let inv: f64 = (1..=t).map(|s| 1.0 / (beta(s - 1) + k.mu)).sum();
    let taus: f64 = (0..t).map(|s| tau(s).powi(2)).sum();
    let qs: f64 = (0..t).map(|s| q(k, tau, beta, s)).sum();
    inv * ((k.lyy - k.mu) * k.dy.powi(2) + 4.0 * k.lxx * k.dx.powi(2) * taus + qs)
}

/// `{1/((1-a)^j T^(2a-1)) (a < 1); (log T + 1)^j/T (a = 1)}` (claims 5.6, 5.7).
fn branch(a: f64, t: f64, j: i32) -> f64 {
    if a < 1.0 {
        1.0 / ((1.0 - a).powi(j) * t.powf(2.0 * a - 1.0))
    } else {
        (t.ln() + 1.0).powi(j) / t
    }
}

/// The envelope of claims 5.1-5.7 for `kind` at horizon `n` (the chain versions the module
/// table of src/envelopes.rs names; LMO-LMO with the empirical `M_t = max_{s<=t} H_s (s+1)^c`).
fn by_hand(kind: EnvelopeKind, (a, b, cc): (f64, f64, f64), c: f64, n: u64) -> f64 {
    let k = k_lmo(0.7);
    let (dx2, dy2, cm) = (k.dx * k.dx, k.dy * k.dy, cc + k.mu);
    let tau = |s: usize| ((s + 1) as f64).powf(-a);
    let beta = |s: usize| cc * ((s + 1) as f64).powf(-b);
    let t = n as f64;
    let m = |s: usize| {
        (0..=s)
            .map(|i| h_of(i) * ((i + 1) as f64).powf(c))
            .fold(0.0, f64::max)
    };
    let smooth = |s: usize| (k.lxx * dx2 + k.lyx.powi(2) * dx2 / (beta(s) + k.mu)) * tau(s) / 2.0;
    // [w Lyx Dx sqrt(2 p M) + p Lxx Dx^2 + p Lyx^2 Dx^2/(C+mu)] (claims 4.6)
    let numer = |w: f64, p: f64, m: f64| {
        w * k.lyx * k.dx * (2.0 * p * m).sqrt() + p * k.lxx * dx2 + p * k.lyx.powi(2) * dx2 / cm
    };
    match kind {
        EnvelopeKind::Alg1Dual => {
            m(n as usize) / (t + 1.0).powf(c) + cc * dy2 / (2.0 * (t + 1.0).powf(b))
        }
        EnvelopeKind::Alg1NcPrimal => {
            let terms: f64 = (0..=n as usize)
                .map(|s| {
                    let s1 = (s + 1) as f64;
                    numer(2.0, cc, m(s)) / (2.0 * cm * s1.powf((c - b) / 2.0))
                        + numer(2.0, k.mu, m(s)) / (2.0 * cm * s1.powf(c / 2.0))
                })
                .sum();
            ((2.0 * FMAX + cc * dy2) * (t + 1.0).powf(a) + terms) / (t + 1.0)
        }
        EnvelopeKind::Alg1ConvexPrimal => {
            let mt = m(n as usize);
            cc * dy2 / (2.0 * (1.0 - b) * t.powf(a + b - 1.0))
                + numer(4.0, cc, mt) / ((2.0 - c + b) * cm * t.powf((2.0 * a - b + c - 2.0) / 2.0))
                + numer(4.0, k.mu, mt) / ((2.0 - c) * cm * t.powf((2.0 * a + c - 2.0) / 2.0))
        }
        EnvelopeKind::Alg2Dual => {
            // lemma:telescoping (1) (claims 5.5, rigorous chain)
            let s: f64 = (0..n as usize)
                .map(|s| {
                    4.0 * k.lxx * dx2 * tau(s).powi(2)
                        + dy2 * beta(s + 1) / 2.0
                        + q(&k, &tau, &beta, s)
                })
                .sum();
            ((k.lyy - k.mu) * dy2 + s) / t
        }
        EnvelopeKind::Alg2NcPrimal => {
            let sm: f64 = (0..=n as usize).map(smooth).sum();
            ((2.0 * FMAX + cc * dy2) * (t + 1.0).powf(a)
                + k.lyx * k.dx * (k.dy + b_e(&k, &tau, &beta, n as usize).sqrt())
                + sm)
                / t
        }
        EnvelopeKind::Alg2ConvexPrimal => {
            2.0 * k.lyx * k.dx / t.powf(a) * (k.dy + b_e(&k, &tau, &beta, n as usize - 1).sqrt())
                + cc * dy2 / (2.0 * (1.0 - b) * t.powf(a + b - 1.0))
                + (k.lxx * dx2 + k.mu * k.lyx.powi(2) * dx2 / (cm * cm)) / 2.0 * branch(a, t, 1)
                + cc * k.lyx.powi(2) * dx2
                    / (2.0 * (1.0 - a + b) * cm * cm * t.powf(2.0 * a - b - 1.0))
        }
        EnvelopeKind::Alg2ConvexScPrimal => {
            let rho = ((k.lyy - k.mu) / k.lyy).sqrt();
            2.0 * k.lyx * k.dx * k.dy / ((1.0 - rho) * t.powf(a))
                + 2.0 * k.lyx.powi(2) * dx2 / (k.mu * (1.0 - rho)) * branch(a, t, 2)
                + (k.lxx * dx2 + k.lyx.powi(2) * dx2 / k.mu) / 2.0 * branch(a, t, 1)
        }
    }
}

#[test]
fn every_envelope_by_hand() {
    let h: Vec<f64> = (0..=8).map(h_of).collect();
    let inputs = EnvelopeInputs {
        fmax: Some(FMAX),
        h: Some(&h),
    };
    let mut kinds = Vec::new();
    for e in builtin() {
        let Some(kind) = EnvelopeKind::of(&e) else {
            continue;
        };
        kinds.push(kind);
        let c = e.mhat.as_ref().map_or(0.0, |m| m.c.value);
        let got = envelope_series(&e, &k_lmo(0.7), &TS, &inputs);
        for (n, g) in TS.iter().zip(got) {
            let want = by_hand(kind, e.schedule.abc(), c, *n);
            let g = g.unwrap_or_else(|| panic!("{}: no envelope at T = {n}", e.id));
            assert!(
                same(g, want),
                "{} ({kind:?}) at T = {n}: {g}, by hand {want}",
                e.id
            );
        }
    }
    for kind in [
        EnvelopeKind::Alg1Dual,
        EnvelopeKind::Alg1NcPrimal,
        EnvelopeKind::Alg1ConvexPrimal,
        EnvelopeKind::Alg2Dual,
        EnvelopeKind::Alg2NcPrimal,
        EnvelopeKind::Alg2ConvexPrimal,
        EnvelopeKind::Alg2ConvexScPrimal,
    ] {
        assert!(kinds.contains(&kind), "no built-in entry with {kind:?}");
    }
}

/// The LMO-PO convex-strongly-concave primal envelope (claims 5.7) needs `mu > 0` and
/// `Lyy > 0` (`rho = sqrt((Lyy - mu)/Lyy)`, terms divided by `mu` and `1 - rho`): without
/// either it is absent, never a non-finite value (campaign 3 miss `&&` -> `||`).
#[test]
fn convex_sc_envelope_is_absent_without_strong_concavity() {
    let h: Vec<f64> = (0..=8).map(h_of).collect();
    let inputs = EnvelopeInputs {
        fmax: Some(FMAX),
        h: Some(&h),
    };
    let entry = builtin()
        .into_iter()
        .find(|e| EnvelopeKind::of(e) == Some(EnvelopeKind::Alg2ConvexScPrimal))
        .expect("a built-in C-SC entry");
    let present = envelope_series(&entry, &k_lmo(0.7), &TS, &inputs);
    assert!(present.iter().all(|v| v.is_some_and(f64::is_finite)));
    let flat = Constants {
        lyy: 0.0,
        ..k_lmo(0.7)
    };
    for (what, k) in [("mu = 0", k_lmo(0.0)), ("Lyy = 0", flat)] {
        let got = envelope_series(&entry, &k, &TS, &inputs);
        assert!(got.iter().all(Option::is_none), "{what}: {got:?}");
    }
}

/// `M_hat(T) = max_{t<=T} max(v_t, 0) (t+1)^c / ln(t+2)^k` (src/envelopes.rs, claims 5
/// "empirical constant") by hand with c = 0.4, k = 1.5 at three points, one negative.
#[test]
fn m_hat_by_hand() {
    use saddlefw::envelopes::m_hat;
    let pts = [(0u64, 2.0), (3, -1.0), (7, 6.0)];
    let term = |t: f64, v: f64| v * (t + 1.0).powf(0.4) / (t + 2.0).ln().powf(1.5);
    let m0 = term(0.0, 2.0);
    let want = [(0, m0), (3, m0), (7, m0.max(term(7.0, 6.0)))];
    let got = m_hat(&pts, 0.4, 1.5);
    for ((t, g), (u, w)) in got.iter().zip(want) {
        assert!(*t == u && same(*g, w), "M_hat at {t}: {g}, by hand {w}");
    }
    assert!(term(7.0, 6.0) > m0, "the last point raises the maximum");
}
