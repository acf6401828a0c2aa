//! `src/invariants/po_lmo.rs` by hand: claims.md Sec. 4.10 (names of claims 1.5: `q_t`, `r_t`
//! in the non-SC section; swapped in the SC section).

use super::*;

/// Runs `f` on an Alg-3 run with the small constants for every schedule.
fn for_each_po_case(mut f: impl FnMut(&str, &RunCtx)) {
    for &sched in SCHEDULES {
        let mut fake = Fake::new(k_po(), sched);
        fake.structure = Structure::PO_LMO;
        let r = fake.run();
        f(&format!("{sched:?}, small constants"), &r);
    }
}

/// Claims 1.5: `q_t = max{H/2, H - H^2/(2(Lyy+b)Dy^2)} + (1/4) min{H^2/((Lyy+b)Dy^2), H}`.
fn q_t(c: &T, t: usize) -> f64 {
    let k = c.r.k;
    let (h, w) = (c.h(t), (k.lyy + c.b(t)) * k.dy.powi(2));
    (h / 2.0).max(h - h * h / (2.0 * w)) + 0.25 * (h * h / w).min(h)
}

/// `r_t = Phi_t + q_t`.
fn r_t(c: &T, t: usize) -> f64 {
    c.phi(t) + q_t(c, t)
}

/// The two sides of a PO-LMO primal sum lemma and of its general bound (1) for every T = n:
/// `sum_{t<=n} (||dx_t||/tau_t)^2 <= bound(n)` under `names.0`, and the mean of `G_X^PO` over
/// t <= n against `sqrt(bound(n)/(n+1))` under `names.1`.
fn assert_sum_and_mean(names: (&str, &str), case: &str, c: &T, bound: impl Fn(usize) -> f64) {
    let r = c.r;
    let sum: Vec<_> = (0..r.horizon())
        .map(|n| {
            let lhs: f64 = (0..=n).map(|t| (c.dx(t) / c.tau(t)).powi(2)).sum();
            (lhs, bound(n))
        })
        .collect();
    assert_sides(names.0, case, r, &sum);
    let mean: Vec<_> = (0..r.horizon())
        .map(|n| {
            let m = (n + 1) as f64;
            let lhs = (0..=n).map(|t| r.snaps[t].gx_po).sum::<f64>() / m;
            (lhs, (bound(n) / m).sqrt())
        })
        .collect();
    assert_sides(names.1, case, r, &mean);
}

/// `Dy^2 db_t^2/(d Lyx^2 tau_t) + 4 Dy^2 db_t^2/(beta_{t+1}+mu)`, d = 1 (non-SC) or 8 (SC).
fn db_terms(c: &T, t: usize, d: f64) -> f64 {
    let k = c.r.k;
    let db2 = c.db(t).powi(2);
    k.dy.powi(2) * db2 / (d * k.lyx.powi(2) * c.tau(t))
        + 4.0 * k.dy.powi(2) * db2 / (c.b(t + 1) + k.mu)
}

/// `w Lyx^4 (Lyy+beta_{t+1}) Dy^2 tau_t^2/(beta_{t+1}+mu)^2` (w = 4 or 8).
fn lyx4(c: &T, t: usize, w: f64) -> f64 {
    let k = c.r.k;
    w * k.lyx.powi(4) * (k.lyy + c.b(t + 1)) * k.dy.powi(2) * c.tau(t).powi(2)
        / (c.b(t + 1) + k.mu).powi(2)
}

/// `sup_{s <= t+1} |v(s)|`.
fn sup_to(t: usize, v: impl Fn(usize) -> f64) -> f64 {
    (0..=t + 1).map(|s| v(s).abs()).fold(0.0, f64::max)
}

/// `lemma:proj-fw-recursive`, `eq:ugly`, the bounds on q_t and the a priori bound on r_t.
#[test]
fn proj_fw_recursions_by_hand() {
    for_each_po_case(|case, r| {
        let (c, k) = (T { r }, r.k);
        let bb = |t: usize| c.b(t + 1) + k.mu;
        let qb = |t: usize| vec![(c.h(t) / 2.0, q_t(&c, t)), (q_t(&c, t), 5.0 * c.h(t) / 4.0)];
        assert_sides("proj-fw-q-bounds", case, r, &c.steps(qb));
        let apriori = |t: usize| {
            both(
                r_t(&c, t).abs(),
                FMAX + k.dy.powi(2) * c.b(0) / 2.0 + 5.0 * c.h(t) / 4.0,
            )
        };
        assert_sides("proj-fw-r-apriori", case, r, &c.steps(apriori));
        let rec = |t: usize| {
            let h = c.h(t);
            let lhs = 0.25 * (h * h / ((k.lyy + c.b(t)) * k.dy.powi(2))).min(h);
            let coef = 2.0 * k.lxx + 4.0 * k.lyx.powi(2) / bb(t) + 1.0 / (2.0 * c.tau(t));
            let rhs = q_t(&c, t) - q_t(&c, t + 1)
                + coef * c.dx(t).powi(2)
                + db_terms(&c, t, 1.0)
                + lyx4(&c, t, 4.0);
            both(lhs, rhs)
        };
        assert_sides("proj-fw-recursive", case, r, &c.steps(rec));
        let ugly = |t: usize| {
            let coef =
                1.0 / (4.0 * c.tau(t)) - 5.0 * k.lxx / 2.0 - 13.0 * k.lyx.powi(2) / (2.0 * bb(t));
            let rhs = r_t(&c, t) - r_t(&c, t + 1) + db_terms(&c, t, 1.0) + lyx4(&c, t, 8.0);
            both(coef * c.dx(t).powi(2), rhs)
        };
        assert_sides("proj-fw-ugly", case, r, &c.steps(ugly));
    });
}

/// `lemma:proj-fw-primal` (sum) and `lemma:proj-fw-general-bound` (1) for every T, with
/// `G_1 = inf_t {1/4 - 5 Lxx tau_t/2 - 13 Lyx^2 tau_t/(2(beta_{t+1}+mu))}` over the run.
#[test]
fn proj_fw_primal_sums_by_hand() {
    for_each_po_case(|case, r| {
        let (c, k) = (T { r }, r.k);
        let g1 = (0..r.horizon())
            .map(|t| {
                0.25 - 5.0 * k.lxx * c.tau(t) / 2.0
                    - 13.0 * k.lyx.powi(2) * c.tau(t) / (2.0 * (c.b(t + 1) + k.mu))
            })
            .fold(f64::INFINITY, f64::min);
        assert!(g1 > 0.0, "{case}: G_1 = {g1}");
        let bound = |n: usize| {
            let terms: f64 = (0..=n)
                .map(|t| (db_terms(&c, t, 1.0) + lyx4(&c, t, 8.0)) / (g1 * c.tau(t)))
                .sum();
            2.0 * sup_to(n, |s| r_t(&c, s)) / (g1 * c.tau(n)) + terms
        };
        assert_sum_and_mean(
            ("proj-fw-primal-sum", "proj-fw-general-bound-1"),
            case,
            &c,
            bound,
        );
    });
}

/// `lemma:proj-fw-general-bound` (2) for every T: corrected (`4 F_1`, `U_1` with Lyx, claims
/// 7.22) and as printed (`F_1`, `U_1` with `4 Lyy^2` and `12 Lyy^2 + Lyx^2`).
#[test]
fn proj_fw_general_bound_2_by_hand() {
    for_each_po_case(|case, r| {
        let (c, k) = (T { r }, r.k);
        let bb = |t: usize| c.b(t + 1) + k.mu;
        for (name, printed) in [
            ("proj-fw-general-bound-2", false),
            ("proj-fw-general-bound-2-printed", true),
        ] {
            let u1 = (0..r.horizon())
                .map(|t| {
                    let tau = c.tau(t);
                    let (num, den) = if printed {
                        (
                            2.0 * k.lxx + 4.0 * k.lyy.powi(2) / bb(t) + 1.0 / (2.0 * tau),
                            1.0 / (4.0 * tau)
                                - 5.0 * k.lxx / 2.0
                                - (12.0 * k.lyy.powi(2) + k.lyx.powi(2)) / (2.0 * bb(t)),
                        )
                    } else {
                        (
                            2.0 * k.lxx + 4.0 * k.lyx.powi(2) / bb(t) + 1.0 / (2.0 * tau),
                            1.0 / (4.0 * tau)
                                - 5.0 * k.lxx / 2.0
                                - 13.0 * k.lyx.powi(2) / (2.0 * bb(t)),
                        )
                    };
                    assert!(den > 0.0, "{case}: U_1 denominator at t = {t}");
                    num / den
                })
                .fold(0.0, f64::max);
            let f_mult = if printed { 1.0 } else { 4.0 };
            let want: Vec<_> = (0..r.horizon())
                .map(|n| {
                    let m = (n + 1) as f64;
                    let lhs = (0..=n).map(|t| r.snaps[t].gy).sum::<f64>() / m;
                    let f1 = (0..=n)
                        .map(|t| c.h(t).max((k.lyy + c.b(t)) * k.dy.powi(2)))
                        .fold(0.0, f64::max);
                    let sup_s = sup_to(n, |s| q_t(&c, s) + u1 * r_t(&c, s));
                    let terms: f64 = (0..=n)
                        .map(|t| {
                            let db2 = c.db(t).powi(2);
                            (db2 / (k.lyx.powi(2) * c.tau(t)) + 4.0 * db2 / bb(t))
                                * (u1 + 1.0)
                                * k.dy.powi(2)
                                + (2.0 * u1 + 1.0) * lyx4(&c, t, 4.0)
                        })
                        .sum();
                    let sb: f64 = (0..=n).map(|t| c.b(t)).sum();
                    let rhs = (f_mult * f1 / m * (2.0 * sup_s + terms)).sqrt()
                        + k.dy.powi(2) / (2.0 * m) * sb;
                    (lhs, rhs)
                })
                .collect();
            assert_sides(name, case, r, &want);
        }
    });
}

/// `alpha sqrt((beta_t+mu) H_t^3)/(d sqrt2 (Lyy+beta_t))`, d = 8 or 4 (claims 1.5, 4.10).
fn kappa(c: &T, t: usize, d: f64) -> f64 {
    let k = c.r.k;
    1.3 * ((c.b(t) + k.mu) * c.h(t).powi(3)).sqrt() / (d * SQRT2 * (k.lyy + c.b(t)))
}

/// SC names (claims 1.5): `r_t = max{H/2, H - kappa_8} + (1/4) min{H, kappa_4}`.
fn r_sc(c: &T, t: usize) -> f64 {
    let h = c.h(t);
    (h / 2.0).max(h - kappa(c, t, 8.0)) + 0.25 * h.min(kappa(c, t, 4.0))
}

/// SC names: `q_t = Phi_t + r_t`.
fn q_sc(c: &T, t: usize) -> f64 {
    c.phi(t) + r_sc(c, t)
}

/// `Dy^2 db^2/(8 Lyx^2 tau) + 4 Dy^2 db^2/(beta_{t+1}+mu) + w Lyx^6 (Lyy+beta_{t+1})^2 tau^3/(3 alpha^2 (beta_{t+1}+mu)^4)`.
fn sc_extras(c: &T, t: usize, w: f64) -> f64 {
    let k = c.r.k;
    db_terms(c, t, 8.0)
        + w * k.lyx.powi(6) * (k.lyy + c.b(t + 1)).powi(2) * c.tau(t).powi(3)
            / (3.0 * 1.3 * 1.3 * (c.b(t + 1) + k.mu).powi(4))
}

/// `lemma:proj-fw-sc-recursive` and `eq:ugly2` (claims 4.10): `beta_{t+1}` in the
/// `Lyx^2/(.+mu)` terms (gating) and the printed `beta_t`.
#[test]
fn proj_fw_sc_recursions_by_hand() {
    for_each_po_case(|case, r| {
        let (c, k) = (T { r }, r.k);
        for (suffix, next) in [("", 1), ("-printed", 0)] {
            let rec = |t: usize| {
                let lhs = 0.25 * c.h(t).min(kappa(&c, t, 4.0));
                let coef = 1.0 / (8.0 * c.tau(t))
                    + 2.0 * k.lxx
                    + 4.0 * k.lyx.powi(2) / (c.b(t + next) + k.mu);
                let rhs = r_sc(&c, t) - r_sc(&c, t + 1)
                    + coef * c.dx(t).powi(2)
                    + sc_extras(&c, t, 2f64.powi(18));
                both(lhs, rhs)
            };
            let name = format!("proj-fw-sc-recursive{suffix}");
            assert_sides(&name, case, r, &c.steps(rec));
            let ugly2 = |t: usize| {
                let coef = 13.0 / (16.0 * c.tau(t))
                    - 5.0 * k.lxx / 2.0
                    - 13.0 * k.lyx.powi(2) / (2.0 * (c.b(t + next) + k.mu));
                let rhs = q_sc(&c, t) - q_sc(&c, t + 1) + sc_extras(&c, t, 2f64.powi(19));
                both(coef * c.dx(t).powi(2), rhs)
            };
            assert_sides(
                &format!("proj-fw-sc-ugly2{suffix}"),
                case,
                r,
                &c.steps(ugly2),
            );
        }
    });
}

/// `G_2` with `beta_{t+1}` (`next` = 1) or the printed `beta_t` (0).
fn g2(c: &T, next: usize) -> f64 {
    let k = c.r.k;
    (0..c.r.horizon())
        .map(|t| {
            13.0 / 16.0
                - 5.0 * k.lxx * c.tau(t) / 2.0
                - 13.0 * k.lyx.powi(2) * c.tau(t) / (2.0 * (c.b(t + next) + k.mu))
        })
        .fold(f64::INFINITY, f64::min)
}

/// `lemma:proj-fw-sc-primal` (sum) and `lemma:proj-fw-sc-general-bound` (1) for every T.
#[test]
fn proj_fw_sc_primal_sums_by_hand() {
    for_each_po_case(|case, r| {
        let c = T { r };
        let g = g2(&c, 1);
        let bound = |n: usize| {
            let terms: f64 = (0..=n)
                .map(|t| sc_extras(&c, t, 2f64.powi(19)) / (g * c.tau(t)))
                .sum();
            2.0 * sup_to(n, |s| q_sc(&c, s)) / (g * c.tau(n)) + terms
        };
        assert_sum_and_mean(
            ("proj-fw-sc-primal-sum", "proj-fw-sc-general-bound-1"),
            case,
            &c,
            bound,
        );
    });
}

/// `lemma:proj-fw-sc-general-bound` (2) for every T (claims 4.10, 7.23): `4 F_2` and
/// `beta_{t+1}` in U_2 (corrected), `F_2` and `beta_t` (printed).
#[test]
fn proj_fw_sc_general_bound_2_by_hand() {
    for_each_po_case(|case, r| {
        let (c, k) = (T { r }, r.k);
        let alpha = 1.3;
        for (name, next, f_mult) in [
            ("proj-fw-sc-general-bound-2", 1, 4.0),
            ("proj-fw-sc-general-bound-2-printed", 0, 1.0),
        ] {
            let u2 = (0..r.horizon())
                .map(|t| {
                    let (tau, bm) = (c.tau(t), c.b(t + next) + k.mu);
                    let num = 1.0 / (8.0 * tau) + 2.0 * k.lxx + 4.0 * k.lyx.powi(2) / bm;
                    let den =
                        13.0 / (16.0 * tau) - 5.0 * k.lxx / 2.0 - 13.0 * k.lyx.powi(2) / (2.0 * bm);
                    num / den
                })
                .fold(0.0, f64::max);
            let want: Vec<_> = (0..r.horizon())
                .map(|n| {
                    let m = (n + 1) as f64;
                    let lhs = (0..=n).map(|t| r.snaps[t].gy).sum::<f64>() / m;
                    let f2 = (0..=n)
                        .map(|t| {
                            (4.0 * SQRT2 * (k.lyy + c.b(t)) / alpha)
                                .max(((c.b(t) + k.mu) * c.h(t)).sqrt())
                        })
                        .fold(0.0, f64::max);
                    let ff = f_mult * f2;
                    let sup_s = sup_to(n, |s| r_sc(&c, s) + u2 * q_sc(&c, s));
                    let terms: f64 = (0..=n)
                        .map(|t| {
                            let (db2, b1) = (c.db(t).powi(2), c.b(t + 1) + k.mu);
                            (1.0 + u2)
                                * k.dy.powi(2)
                                * (db2 / (8.0 * k.lyx.powi(2) * c.tau(t) * (c.b(t) + k.mu).sqrt())
                                    + 4.0 * db2 / b1.powf(1.5))
                                + 2f64.powi(18)
                                    * (1.0 + 2.0 * u2)
                                    * k.lyx.powi(6)
                                    * (k.lyy + c.b(t + 1)).powi(2)
                                    * c.tau(t).powi(3)
                                    / (3.0 * alpha * alpha * b1.powf(4.5))
                        })
                        .sum();
                    let sb: f64 = (0..=n).map(|t| c.b(t)).sum();
                    let rhs = k.dy.powi(2) / (2.0 * m) * sb
                        + (2.0 * ff * sup_s / (m * (c.b(n) + k.mu).sqrt())).powf(2.0 / 3.0)
                        + (ff / m * terms).powf(2.0 / 3.0);
                    (lhs, rhs)
                })
                .collect();
            assert_sides(name, case, r, &want);
        }
    });
}
