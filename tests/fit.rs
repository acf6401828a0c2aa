//! Rate fitting: OLS against known values, exponent recovery with honest intervals, the floor,
//! the window rule, and negative controls for the verdict and the regression gate.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rand_distr::StandardNormal;
use saddlefw::fit::{
    baseline_gate, builtin_baselines, estimate, fit_series, judge, load_baselines, local_slopes,
    log_checkpoints, ols, parse_baselines, t_quantile, tolerance, write_baselines, BaselineGate,
    Baselines, CiMethod, FitConfig, RateClaim, SeriesFit, Verdict, WindowRule, BASELINE_MARGIN,
};

fn series(ts: &[u64], mut f: impl FnMut(f64) -> f64) -> Vec<(u64, f64)> {
    ts.iter().map(|&t| (t, f(t as f64))).collect()
}

/// `c T^-p exp(sd z_T)` at log-spaced T up to 10^4, z standard normal from `seed`.
fn noisy(p: f64, sd: f64, seed: u64) -> Vec<(u64, f64)> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let ts = log_checkpoints(1, 10_000, 10);
    series(&ts, |t| {
        let z: f64 = rng.sample(StandardNormal);
        3.0 * t.powf(-p) * (sd * z).exp()
    })
}

fn claim(p: f64) -> RateClaim {
    RateClaim {
        p,
        log_factor: false,
        log_power: 0.0,
        disputed: false,
    }
}

fn fitted(s: &[(u64, f64)]) -> saddlefw::fit::Fitted {
    match fit_series(s, &FitConfig::default()).unwrap() {
        SeriesFit::Fitted(f) => f,
        other => panic!("expected a fit, got {other:?}"),
    }
}

#[test]
fn ols_matches_anscombe_quartet_one() {
    // Anscombe (1973) data set I; textbook values: intercept 3.0001 (SE 1.1247),
    // slope 0.5001 (SE 0.1179), residual standard error 1.237.
    let x = [10.0, 8.0, 13.0, 9.0, 11.0, 14.0, 6.0, 4.0, 12.0, 7.0, 5.0];
    let y = [
        8.04, 6.95, 7.58, 8.81, 8.33, 9.96, 7.24, 4.26, 10.84, 4.82, 5.68,
    ];
    let o = ols(&x, &y).unwrap();
    let close = |a: f64, b: f64| (a - b).abs() < 5e-5;
    assert!(close(o.intercept, 3.0001), "{o:?}");
    assert!(close(o.slope, 0.5001), "{o:?}");
    assert!(close(o.intercept_se, 1.1247), "{o:?}");
    assert!(close(o.slope_se, 0.1179), "{o:?}");
    assert!((o.residual_sd - 1.237).abs() < 5e-4, "{o:?}");
    assert_eq!(o.n, 11);
}

#[test]
fn ols_exact_line_and_bad_input() {
    let x = [1.0, 2.0, 3.0, 4.0];
    let y = x.map(|v| 2.0 - 3.0 * v);
    let o = ols(&x, &y).unwrap();
    assert!((o.slope + 3.0).abs() < 1e-14 && (o.intercept - 2.0).abs() < 1e-14);
    assert!(o.slope_se < 1e-14);
    assert!(ols(&x[..2], &y[..2]).is_err(), "two points");
    assert!(ols(&[1.0; 4], &y).is_err(), "constant x");
    assert!(ols(&x, &[1.0, f64::NAN, 2.0, 3.0]).is_err(), "NaN");
    assert!(ols(&x, &y[..3]).is_err(), "length mismatch");
}

#[test]
fn t_quantiles_match_tables() {
    assert!((t_quantile(0.95, 10.0) - 2.228139).abs() < 1e-5);
    assert!((t_quantile(0.95, 4.0) - 2.776445).abs() < 1e-5);
    assert!((t_quantile(0.95, 30.0) - 2.042272).abs() < 1e-5);
    assert!((t_quantile(0.99, 2.0) - 9.924843).abs() < 1e-4);
}

#[test]
fn checkpoints_are_log_spaced() {
    let c = log_checkpoints(1, 10_000, 10);
    assert_eq!((c[0], *c.last().unwrap()), (1, 10_000));
    assert!(c.windows(2).all(|w| w[0] < w[1]));
    assert!((32..=41).contains(&c.len()), "{}", c.len());
    assert!(c.contains(&100) && c.contains(&1000));
    assert_eq!(log_checkpoints(5, 5, 10), vec![5]);
    assert_eq!(log_checkpoints(3, 4, 10), vec![3, 4]);
}

#[test]
fn local_slopes_of_a_power_law() {
    let s = series(&log_checkpoints(1, 1000, 10), |t| 2.0 * t.powf(-0.75));
    let ls = local_slopes(&s);
    assert_eq!(ls.len(), s.len() - 1);
    assert!(ls.iter().all(|l| (l.slope + 0.75).abs() < 1e-12));
}

#[test]
fn clean_power_laws_are_recovered_exactly() {
    for p in [1.0 / 6.0, 0.25, 1.0 / 3.0, 0.5, 2.0 / 3.0, 1.0] {
        let f = fitted(&series(&log_checkpoints(1, 10_000, 10), |t| {
            7.0 * t.powf(-p)
        }));
        assert!((f.exponent - p).abs() < 1e-10, "p = {p}: {}", f.exponent);
        assert_eq!(f.rule, WindowRule::StableSuffix);
        assert_eq!(
            f.window,
            [1, 10_000],
            "a clean power law is stable everywhere"
        );
        assert!(f.floor_hit.is_none());
    }
}

#[test]
fn noisy_exponents_are_covered_by_their_intervals() {
    // 5% multiplicative noise: across 40 independent 5-seed experiments the 95% interval must
    // contain p in most of them and the point estimate must be close on average.
    let p = 1.0 / 3.0;
    let (mut covered, mut covered_single, mut bias) = (0, 0, 0.0);
    let trials = 40;
    for trial in 0..trials {
        let fits: Vec<SeriesFit> = (0..5)
            .map(|s| fit_series(&noisy(p, 0.05, 1000 * trial + s), &FitConfig::default()).unwrap())
            .collect();
        let e = estimate(&fits, 0.95).unwrap();
        assert_eq!(e.method, CiMethod::AcrossSeeds);
        assert_eq!(e.exponents.len(), 5);
        covered += (e.ci[0] <= p && p <= e.ci[1]) as u32;
        bias += (e.p_hat - p) / trials as f64;
        let one = estimate(&fits[..1], 0.95).unwrap();
        assert_eq!(one.method, CiMethod::RegressionSe);
        covered_single += (one.ci[0] <= p && p <= one.ci[1]) as u32;
    }
    assert!(covered >= 34, "coverage {covered}/{trials}");
    assert!(
        covered_single >= 34,
        "single-seed coverage {covered_single}/{trials}"
    );
    assert!(bias.abs() < 0.01, "bias {bias}");
}

#[test]
fn floor_points_are_excluded_and_reported() {
    let ts = log_checkpoints(1, 100_000, 10);
    // T^-1 until T = 3000, exactly 0 afterwards (e.g. a gap that hit its optimum): no log of 0
    let s = series(&ts, |t| if t < 3000.0 { 1.0 / t } else { 0.0 });
    let f = fitted(&s);
    let hit = f.floor_hit.expect("floor reported");
    assert!((3000..3500).contains(&hit), "{hit}");
    assert!(
        f.window[1] < hit,
        "masked points must not be fitted: {:?}",
        f.window
    );
    assert!((f.exponent - 1.0).abs() < 1e-10);
    // values at rounding level relative to the scale count as floor, as do negative values
    let s = series(&ts, |t| {
        if t < 3000.0 {
            1.0 / t
        } else {
            1e-17 * (t % 3.0 - 1.0)
        }
    });
    assert!(fitted(&s).floor_hit.is_some());
    // a quantity that reaches the floor within three checkpoints: "floor"
    let s = series(&ts, |t| (-40.0 * t).exp());
    match fit_series(&s, &FitConfig::default()).unwrap() {
        SeriesFit::Floor {
            floor_hit,
            points_before_floor,
            ..
        } => {
            assert!(points_before_floor < 4 && floor_hit >= 1)
        }
        other => panic!("{other:?}"),
    }
    let fits = vec![fit_series(&s, &FitConfig::default()).unwrap(); 3];
    assert!(estimate(&fits, 0.95).is_none());
    assert_eq!(judge(&claim(0.5), None).verdict, Verdict::Floor);
    // the floor scales with the quantity's natural scale when given
    let cfg = FitConfig {
        scale: Some(1e6),
        ..FitConfig::default()
    };
    let s = series(&ts, |t| 1e-5 / t);
    let f = fit_series(&s, &cfg).unwrap();
    assert!(
        f.fitted().unwrap().floor_hit.is_some(),
        "1e-5/T falls below 64 eps 1e6 ~ 1.4e-8"
    );
}

#[test]
fn bad_series_are_errors_not_panics() {
    let cfg = FitConfig::default();
    assert!(fit_series(&[(1, 1.0), (2, f64::NAN), (3, 0.3), (4, 0.2)], &cfg).is_err());
    assert!(
        fit_series(&[(0, 1.0), (2, 0.5), (3, 0.3), (4, 0.2)], &cfg).is_err(),
        "T = 0"
    );
    assert!(fit_series(&[(1, 1.0), (1, 0.5), (3, 0.3), (4, 0.2)], &cfg).is_err());
    assert!(
        fit_series(&[(1, 1.0), (2, 0.5)], &cfg).is_err(),
        "too few, no floor"
    );
    let bad = FitConfig {
        scale: Some(-1.0),
        ..cfg
    };
    assert!(fit_series(&[(1, 1.0), (2, 0.5), (3, 0.3), (4, 0.2)], &bad).is_err());
}

#[test]
fn window_rule_finds_the_asymptotic_regime() {
    let ts = log_checkpoints(1, 10_000, 10);
    // mild transient: gone well before sqrt(T_max)
    let f = fitted(&series(&ts, |t| t.powf(-0.5) + 10.0 * t.powf(-2.0)));
    assert!((f.exponent - 0.5).abs() < 0.02, "{f:?}");
    assert!(f.window[0] >= 10, "{:?}", f.window);
    // strong transient lasting past sqrt(T_max) = 100: the late half alone would be biased
    let s = series(&ts, |t| t.powf(-0.5) + 1000.0 * t.powf(-2.0));
    let f = fitted(&s);
    assert_eq!(f.rule, WindowRule::StableSuffix);
    assert!((f.exponent - 0.5).abs() < 0.05, "{f:?}");
    assert!(f.window[0] >= 300, "{:?}", f.window);
    let late: Vec<(u64, f64)> = s.iter().copied().filter(|p| p.0 >= 100).collect();
    let x: Vec<f64> = late.iter().map(|p| (p.0 as f64).ln()).collect();
    let y: Vec<f64> = late.iter().map(|p| p.1.ln()).collect();
    assert!(
        -ols(&x, &y).unwrap().slope > 0.6,
        "the control: T >= sqrt(T_max) is biased here"
    );
    // oscillating series: no stable suffix, late-half fallback flagged unstable
    let f = fitted(&series(&ts, |t| {
        t.powf(-0.5) * (1.0 + 0.5 * (3.0 * t.ln()).sin().signum())
    }));
    assert_eq!(f.rule, WindowRule::LateHalf);
    assert!(!f.stable);
    assert!(f.window[0] >= 100);
}

#[test]
fn verdict_negative_controls() {
    let p = 0.5;
    let seeds = |q: f64| -> Vec<SeriesFit> {
        (0..4)
            .map(|s| fit_series(&noisy(q, 0.02, 77 + s), &FitConfig::default()).unwrap())
            .collect()
    };
    let verdict = |q: f64, c: &RateClaim| judge(c, estimate(&seeds(q), 0.95).as_ref()).verdict;
    // decays like T^-(p - 0.3): slower than the theorem allows -> FAIL
    assert_eq!(verdict(p - 0.3, &claim(p)), Verdict::Fail);
    // at the rate, and much faster (one-sided): PASS
    assert_eq!(verdict(p, &claim(p)), Verdict::Pass);
    assert_eq!(verdict(p + 0.5, &claim(p)), Verdict::Pass);
    // barely within tolerance passes, clearly outside fails
    assert_eq!(verdict(p - 0.02, &claim(p)), Verdict::Pass);
    assert_eq!(verdict(p - 0.12, &claim(p)), Verdict::Fail);
    // disputed entries are reported as such, never silently passed
    let d = RateClaim {
        disputed: true,
        ..claim(p)
    };
    assert_eq!(verdict(p, &d), Verdict::Disputed);
}

#[test]
fn log_factor_allowance() {
    // T^-1/2 log T has apparent exponent ~0.5 - 1/ln T: fails without an allowed log factor,
    // passes with one.
    let s = series(&log_checkpoints(1, 10_000, 10), |t| {
        t.powf(-0.5) * (t + 1.0).ln()
    });
    let est = estimate(&[fit_series(&s, &FitConfig::default()).unwrap()], 0.95).unwrap();
    assert!(est.p_hat < 0.45, "{est:?}");
    let plain = claim(0.5);
    let logged = RateClaim {
        log_factor: true,
        log_power: 1.0,
        ..plain
    };
    assert_eq!(judge(&plain, Some(&est)).verdict, Verdict::Fail);
    assert_eq!(judge(&logged, Some(&est)).verdict, Verdict::Pass);
    // tolerance: 0.05 + k/ln(T_mid)
    assert!((tolerance(&plain, [100, 10_000]) - 0.05).abs() < 1e-15);
    let tol = tolerance(&logged, [100, 10_000]);
    assert!((tol - (0.05 + 1.0 / 1000f64.ln())).abs() < 1e-12, "{tol}");
    let sq = RateClaim {
        log_power: 2.0,
        ..logged
    };
    assert!(tolerance(&sq, [100, 10_000]) > tol);
}

#[test]
fn baseline_gate_catches_slowdowns() {
    assert!(
        matches!(baseline_gate(0.7, Some(0.9)), BaselineGate::Fail { .. }),
        "drop 0.2"
    );
    assert!(matches!(
        baseline_gate(0.9 - BASELINE_MARGIN + 0.01, Some(0.9)),
        BaselineGate::Pass { .. }
    ));
    assert!(
        matches!(baseline_gate(1.5, Some(0.9)), BaselineGate::Pass { .. }),
        "faster is fine"
    );
    assert_eq!(baseline_gate(0.1, None), BaselineGate::NoBaseline);
    // end to end: a series that slowed from T^-0.9 to T^-0.6 still beats p = 1/4 but fails
    // the regression gate
    let slow = estimate(
        &[fit_series(&noisy(0.6, 0.02, 5), &FitConfig::default()).unwrap()],
        0.95,
    )
    .unwrap();
    assert_eq!(judge(&claim(0.25), Some(&slow)).verdict, Verdict::Pass);
    assert!(matches!(
        baseline_gate(slow.p_hat, Some(0.9)),
        BaselineGate::Fail { .. }
    ));
}

#[test]
fn baselines_files_round_trip_and_reject_bad_input() {
    let _ = builtin_baselines();
    let mut b = Baselines::new();
    b.insert("lmo-lmo/nc-c/primal".into(), 0.93);
    b.insert("po-lmo/c-c/dual".into(), 0.41);
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("b.json");
    write_baselines(&path, &b).unwrap();
    assert_eq!(load_baselines(&path).unwrap(), b);
    assert!(parse_baselines("x", "{\"a\": \"fast\"}")
        .unwrap_err()
        .to_string()
        .contains("x"));
    assert!(parse_baselines("x", "[1, 2]").is_err());
    assert!(load_baselines(&dir.path().join("none.json")).is_err());
}

#[test]
fn rate_check_glues_fit_estimate_and_verdict() {
    use saddlefw::fit::rate_check;
    let slow: Vec<_> = (0..3).map(|s| noisy(0.1, 0.02, 900 + s)).collect();
    let r = rate_check(&claim(0.5), &slow, &FitConfig::default()).unwrap();
    assert_eq!(r.fits.len(), 3);
    assert_eq!(r.judgement.verdict, Verdict::Fail);
    assert!(r.judgement.tol.is_some());
    assert!(rate_check(&claim(0.5), &[], &FitConfig::default()).is_err());
}

mod props {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(crate::common::config(64, "fit.txt"))]

        /// Clean power laws c T^-p are recovered exactly on any scale.
        #[test]
        fn power_laws_recovered(p in 0.05f64..2.0, lc in -6.0f64..6.0) {
            let c = 10f64.powf(lc);
            let s = series(&log_checkpoints(1, 5000, 10), |t| c * t.powf(-p));
            let f = fitted(&s);
            prop_assert!((f.exponent - p).abs() < 1e-9);
        }

        /// The exponent does not depend on the units of the quantity (no hidden absolute
        /// epsilon), including on noisy series.
        #[test]
        fn exponent_is_scale_invariant(seed in 0u64..1000, lc in -8.0f64..8.0) {
            let s = noisy(0.4, 0.1, seed);
            let scaled: Vec<(u64, f64)> = s.iter().map(|&(t, q)| (t, q * 10f64.powf(lc))).collect();
            let (a, b) = (fitted(&s), fitted(&scaled));
            prop_assert!((a.exponent - b.exponent).abs() < 1e-9);
            prop_assert_eq!(a.window, b.window);
        }
    }
}

// ---- proof-rate check (report only) --------------------------------------------------------

fn est(p_hat: f64, ci: [f64; 2], window: [u64; 2]) -> saddlefw::fit::Estimate {
    saddlefw::fit::Estimate {
        p_hat,
        ci,
        method: CiMethod::AcrossSeeds,
        exponents: vec![p_hat; 4],
        seeds_floor: 0,
        window,
    }
}

#[test]
fn proof_rate_check_uses_the_proven_log_power_where_the_gate_uses_at_least_one() {
    use saddlefw::fit::{judge_proven, tolerance_k};
    // lmo-po/c-c/primal on its hard instance: p = 1/3, proven log^0.5 T, p_hat 0.167
    let c = RateClaim {
        p: 1.0 / 3.0,
        log_factor: true,
        log_power: 0.5,
        disputed: false,
    };
    let w = [64, 16384];
    let e = est(0.167, [0.163, 0.170], w);
    assert_eq!(c.gate_log_power(), 1.0);
    assert_eq!(c.proven_log_power(), 0.5);
    assert_eq!(
        judge(&c, Some(&e)).verdict,
        Verdict::Pass,
        "the printed ~O claim passes"
    );
    let pr = judge_proven(&c, Some(&e)).unwrap();
    assert!(!pr.holds, "slower than O(T^-1/3 sqrt(log T)): {pr:?}");
    assert_eq!(pr.tol, tolerance_k(0.5, w));
    assert!(pr.tol < tolerance(&c, w));
    // po-lmo/nc-c (D21: proven log power 0): p = 1/6, p_hat 0.072
    let c0 = RateClaim {
        p: 1.0 / 6.0,
        log_factor: true,
        log_power: 0.0,
        ..c
    };
    let e0 = est(0.072, [0.065, 0.079], w);
    assert_eq!(judge(&c0, Some(&e0)).verdict, Verdict::Pass);
    let pr0 = judge_proven(&c0, Some(&e0)).unwrap();
    assert!(!pr0.holds && pr0.k == 0.0 && pr0.tol == saddlefw::fit::BASE_TOL);
    // a run at the proven rate holds; disputed claims and missing estimates are not checked
    assert!(
        judge_proven(&c, Some(&est(0.30, [0.29, 0.31], w)))
            .unwrap()
            .holds
    );
    let d = RateClaim {
        disputed: true,
        ..c
    };
    assert!(judge_proven(&d, Some(&e)).is_none() && judge_proven(&c, None).is_none());
    // without a log factor the proof-rate check is the gate
    let plain = claim(0.25);
    let e1 = est(0.18, [0.17, 0.19], w);
    assert_eq!(
        judge_proven(&plain, Some(&e1)).unwrap().tol,
        tolerance(&plain, w)
    );
}
