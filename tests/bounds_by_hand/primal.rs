//! `src/invariants/primal.rs` by hand: claims.md Sec. 4.3, 4.4, 4.6, 4.7.

use super::*;

/// The step-size and feasibility facts (def:cg-seq, def:pg-seq, the schedules).
#[test]
fn step_facts_by_hand() {
    for_each_lmo_case(|case, r| {
        let (c, k) = (T { r }, r.k);
        assert_sides(
            "primal-step-unit",
            case,
            r,
            &c.steps(|t| vec![(0.0, c.tau(t)), (c.tau(t), 1.0)]),
        );
        let pos = |t: usize| both(f64::MIN_POSITIVE, c.tau(t));
        assert_sides("primal-step-positive", case, r, &c.steps(pos));
        let mono = |t: usize| both(c.b(t + 1), c.b(t));
        assert_sides("beta-nonincreasing", case, r, &c.steps(mono));
        let smooth = |t: usize| both(f64::MIN_POSITIVE, c.b(t).max(k.mu));
        assert_sides("smoothing-positive", case, r, &c.steps(smooth));
    });
}

/// `lemma:general-connect` (1), (2) (claims 4.3) and the smoothness of `f_t` in its proof;
/// `lemma:adaptive-connect` (1), (2) (claims 4.4), each second form with
/// `e_t -> sqrt(2 H_t/(beta_t+mu))`.
#[test]
fn connect_lemmas_by_hand() {
    for_each_lmo_case(|case, r| {
        let (c, k) = (T { r }, r.k);
        let bb1 = |t: usize| c.b(t + 1) + k.mu;
        let e_h = |t: usize| (2.0 * c.h(t) / (c.b(t) + k.mu)).sqrt();
        let conn1 = |t: usize| {
            let lhs = c.h(t + 1)
                - SQRT2 * (k.lyx * c.dx(t) + k.dy * c.db(t)) / bb1(t).sqrt() * c.h(t + 1).sqrt()
                - 2.0 * k.lxx * c.dx(t).powi(2);
            both(lhs, c.dec(t))
        };
        assert_sides("general-connect-1", case, r, &c.steps(conn1));
        let quad = |t: usize| c.lin(t) + c.lf(t) / 2.0 * c.dx(t).powi(2);
        for (name, e) in [
            ("general-connect-2a", &(|t| c.e(t)) as &dyn Fn(usize) -> f64),
            ("general-connect-2b", &e_h),
        ] {
            let conn2 = |t: usize| both(c.phi(t + 1), c.phi(t) + k.lyx * e(t) * c.dx(t) + quad(t));
            assert_sides(name, case, r, &c.steps(conn2));
        }
        let env = |t: usize| {
            let rhs = r.snaps[t].f_t + k.lyx * c.e(t) * c.dx(t) + quad(t);
            both(r.steps[t].f_t_next_x, rhs)
        };
        assert_sides("general-connect-envelope", case, r, &c.steps(env));
        let adapt1 = |t: usize| {
            let lhs = c.h(t + 1)
                - SQRT2 * (k.lyx * k.dx * c.tau(t) + k.dy * c.db(t)) / bb1(t).sqrt()
                    * c.h(t + 1).sqrt()
                - 2.0 * k.lxx * k.dx.powi(2) * c.tau(t).powi(2);
            both(lhs, c.dec(t))
        };
        assert_sides("adaptive-connect-1", case, r, &c.steps(adapt1));
        let q = |t: usize| k.lxx * k.dx.powi(2) + k.lyx.powi(2) * k.dx.powi(2) / (c.b(t) + k.mu);
        for (name, e) in [
            (
                "adaptive-connect-2a",
                &(|t| c.e(t)) as &dyn Fn(usize) -> f64,
            ),
            ("adaptive-connect-2b", &e_h),
        ] {
            let adapt2 = |t: usize| {
                let tau = c.tau(t);
                let rhs = c.phi(t) + k.lyx * k.dx * tau * e(t) - tau * r.snaps[t].gx_lmo
                    + q(t) * tau * tau / 2.0;
                both(c.phi(t + 1), rhs)
            };
            assert_sides(name, case, r, &c.steps(adapt2));
        }
    });
}

/// `lemma:common-upper-bounds` (2) for every T (claims 4.4) and the sandwich
/// `f(x_t) <= Phi_t <= f(x_t) + Dy^2 beta_0/2` (L1571).
#[test]
fn common_upper_bounds_by_hand() {
    for_each_lmo_case(|case, r| {
        let (c, k) = (T { r }, r.k);
        let e_h = |t: usize| (2.0 * c.h(t) / (c.b(t) + k.mu)).sqrt();
        for (name, e) in [
            (
                "common-upper-bounds-2a",
                &(|t| c.e(t)) as &dyn Fn(usize) -> f64,
            ),
            ("common-upper-bounds-2b", &e_h),
        ] {
            let want: Vec<_> = (0..r.horizon())
                .map(|n| {
                    let lhs: f64 = (0..=n).map(|t| r.snaps[t].gx_lmo).sum();
                    let se: f64 = (0..=n).map(e).sum();
                    let sq: f64 = (0..=n)
                        .map(|t| {
                            (k.lxx * k.dx.powi(2) + k.lyx.powi(2) * k.dx.powi(2) / (c.b(t) + k.mu))
                                * c.tau(t)
                                / 2.0
                        })
                        .sum();
                    let rhs =
                        (2.0 * FMAX + c.b(0) * k.dy.powi(2)) / c.tau(n) + k.lyx * k.dx * se + sq;
                    (lhs, rhs)
                })
                .collect();
            assert_sides(name, case, r, &want);
        }
        let sandwich = |t: usize| {
            let last = t + 1 == r.horizon();
            let idx: Vec<usize> = if last { vec![t, t + 1] } else { vec![t] };
            idx.into_iter()
                .flat_map(|i| {
                    let f = r.snaps[i].f;
                    [(f, c.phi(i)), (c.phi(i), f + k.dy.powi(2) * c.b(0) / 2.0)]
                })
                .collect()
        };
        assert_sides("phi-sandwich", case, r, &c.steps(sandwich));
    });
}

/// `lemma:common-convex-concave` (both forms), `eq:envelope-smooth` corrected (`beta_t + mu`,
/// claims 7.9) and printed (`beta_t`), `eq:non-neg` (claims 4.4), at the run's one x*.
#[test]
fn convex_concave_envelopes_by_hand() {
    for_each_lmo_case(|case, r| {
        let (c, k) = (T { r }, r.k);
        let fx = |t: usize| r.snaps[t].f_t_xstar[0];
        let half = k.dy.powi(2) / 2.0;
        let e_h = |t: usize| (2.0 * c.h(t) / (c.b(t) + k.mu)).sqrt();
        for (name, e) in [
            (
                "common-convex-concave-a",
                &(|t| c.e(t)) as &dyn Fn(usize) -> f64,
            ),
            ("common-convex-concave-b", &e_h),
        ] {
            let cc = |t: usize| {
                let tau = c.tau(t);
                let lhs = r.snaps[t + 1].f_t - fx(t + 1) + half * c.b(t + 1);
                let rhs = (1.0 - tau) * (r.snaps[t].f_t - fx(t) + half * c.b(t))
                    + half * tau * c.b(t)
                    + 2.0 * k.lyx * k.dx * tau * e(t)
                    + (k.lxx * k.dx.powi(2) + k.lyx.powi(2) * k.dx.powi(2) / (c.b(t) + k.mu))
                        * tau
                        * tau
                        / 2.0;
                both(lhs, rhs)
            };
            assert_sides(name, case, r, &c.steps(cc));
        }
        for (name, mu) in [("envelope-smooth", k.mu), ("envelope-smooth-printed", 0.0)] {
            let env = |t: usize| {
                let tau = c.tau(t);
                let rhs = (1.0 - tau) * (r.snaps[t].f_t - fx(t))
                    + 2.0 * k.lyx * k.dx * tau * c.e(t)
                    + (k.lxx * k.dx.powi(2) / 2.0
                        + k.lyx.powi(2) * k.dx.powi(2) / (2.0 * (c.b(t) + mu)))
                        * tau
                        * tau;
                both(r.steps[t].f_t_next_x - fx(t), rhs)
            };
            assert_sides(name, case, r, &c.steps(env));
        }
        let non_neg = |t: usize| {
            let idx: Vec<usize> = if t + 1 == r.horizon() {
                vec![t, t + 1]
            } else {
                vec![t]
            };
            idx.into_iter()
                .flat_map(|i| {
                    let gap = r.snaps[i].f - F_STAR;
                    [(gap, r.snaps[i].f_t - fx(i) + half * c.b(i)), (0.0, gap)]
                })
                .collect()
        };
        assert_sides("non-neg", case, r, &c.steps(non_neg));
    });
}

/// `M_t = max_{s<=t} H_s (s+1)^c` (claims 4.6: the empirical, non-decreasing M_t).
fn m_t(r: &RunCtx, c: f64, t: usize) -> f64 {
    (0..=t)
        .map(|s| r.snaps[s].h * ((s + 1) as f64).powf(c))
        .fold(f64::MIN_POSITIVE, f64::max)
}

/// `[w Lyx Dx sqrt(2 p M) + p Lxx Dx^2 + p Lyx^2 Dx^2/(C+mu)]`, the numerators of claims 4.6
/// (w = 2 in `lemma:general-convergence`, 4 in `lemma:general-convex-convergence`; p = C or mu).
fn numer(k: &Constants, w: f64, p: f64, m: f64, cc: f64) -> f64 {
    w * k.lyx * k.dx * (2.0 * p * m).sqrt()
        + p * k.lxx * k.dx.powi(2)
        + p * k.lyx.powi(2) * k.dx.powi(2) / (cc + k.mu)
}

/// `lemma:general-convergence` for every T >= 1 and c in {c_max, c_max/3} (claims 4.6).
#[test]
fn general_convergence_by_hand() {
    for_each_lmo_case(|case, r| {
        let k = r.k;
        let s = r.sched.unwrap();
        let (a, b, cc) = (s.a, s.b, s.c);
        let cmax = if cc > 0.0 { 2.0 * a - b } else { 2.0 * a };
        let mut want = Vec::new();
        for c in [cmax, cmax / 3.0] {
            for n in 1..r.horizon() {
                let lhs: f64 = (0..=n).map(|t| r.snaps[t].gx_lmo).sum();
                let terms: f64 = (0..=n)
                    .map(|t| {
                        let (tp, m) = ((t + 1) as f64, m_t(r, c, t));
                        numer(&k, 2.0, cc, m, cc) / (2.0 * (cc + k.mu) * tp.powf((c - b) / 2.0))
                            + numer(&k, 2.0, k.mu, m, cc) / (2.0 * (cc + k.mu) * tp.powf(c / 2.0))
                    })
                    .sum();
                let rhs = (2.0 * FMAX + cc * k.dy.powi(2)) * ((n + 1) as f64).powf(a) + terms;
                want.push((lhs, rhs));
            }
        }
        assert_sides("general-convergence", case, r, &want);
    });
}

/// `lemma:general-convex-convergence` for every T >= 1 (M_T, claims 4.6, 7.14) and its per-step
/// recursion (L2325-2329), c in {2a-b, a} (C > 0) or {2a/3, a} (C = 0).
#[test]
fn general_convex_convergence_by_hand() {
    for_each_lmo_case(|case, r| {
        let k = r.k;
        let s = r.sched.unwrap();
        let (a, b, cc) = (s.a, s.b, s.c);
        let cs = if cc > 0.0 {
            [2.0 * a - b, a]
        } else {
            [2.0 * a / 3.0, a]
        };
        let mut want = Vec::new();
        for c in cs {
            for n in 1..=r.horizon() {
                let (t, m) = (n as f64, m_t(r, c, n));
                let first = if cc > 0.0 {
                    cc * k.dy.powi(2) / (2.0 * (1.0 - b) * t.powf(a + b - 1.0))
                } else {
                    0.0
                };
                let p1 = numer(&k, 4.0, cc, m, cc)
                    / ((2.0 - c + b) * (cc + k.mu) * t.powf((2.0 * a - b + c - 2.0) / 2.0));
                let p2 = numer(&k, 4.0, k.mu, m, cc)
                    / ((2.0 - c) * (cc + k.mu) * t.powf((2.0 * a + c - 2.0) / 2.0));
                want.push((r.snaps[n].f - F_STAR, first + p1 + p2));
            }
        }
        assert_sides("general-convex-convergence", case, r, &want);
        let psi = |i: usize| {
            let sn = &r.snaps[i];
            sn.f_t - sn.f_t_xstar[0] + cc * k.dy.powi(2) / (2.0 * ((i + 1) as f64).powf(b))
        };
        let rec: Vec<_> = (0..r.horizon())
            .flat_map(|t| {
                let tp = (t + 1) as f64;
                cs.map(|c| {
                    let m = m_t(r, c, t);
                    let rhs = (t as f64 / tp).powf(a) * psi(t)
                        + cc * k.dy.powi(2) / (2.0 * tp.powf(a + b))
                        + numer(&k, 4.0, cc, m, cc)
                            / (2.0 * (cc + k.mu) * tp.powf((2.0 * a - b + c) / 2.0))
                        + numer(&k, 4.0, k.mu, m, cc)
                            / (2.0 * (cc + k.mu) * tp.powf((2.0 * a + c) / 2.0));
                    (psi(t + 1), rhs)
                })
            })
            .collect();
        assert_sides("general-convex-convergence-recursion", case, r, &rec);
    });
}

/// The primal PO lemmas (claims 4.7): `lemma:proj-primal`, `eq:proj-envelope`, the projection
/// inequality, the step ratio bound (sigma = 0.6), `lemma:proj-fw-convex-bound` per step and
/// averaged, on the small constants (`tau_t L_{f_t} < 1`).
#[test]
fn primal_po_lemmas_by_hand() {
    for &sched in SCHEDULES {
        let mut fake = Fake::new(k_po(), sched);
        fake.structure = Structure::PO_LMO;
        let r = &fake.run();
        let case = &format!("{sched:?}, small constants");
        let (c, k) = (T { r }, r.k);
        let bm = |t: usize| c.b(t) + k.mu;
        let w = |t: usize| (k.lyy + c.b(t)) * k.dy.powi(2);
        let proj = |t: usize| {
            let (tau, h) = (c.tau(t), c.h(t));
            let coef = 3.0 / (4.0 * tau) - k.lxx / 2.0 - 5.0 * k.lyx.powi(2) / (2.0 * bm(t));
            let rhs = c.phi(t) - c.phi(t + 1)
                + 0.25 * h.min(h * h / w(t))
                + 4.0 * k.lyx.powi(4) * w(t) * tau * tau / bm(t).powi(2);
            both(coef * c.dx(t).powi(2), rhs)
        };
        assert_sides("proj-primal", case, r, &c.steps(proj));
        let env = |t: usize| {
            let rhs = c.phi(t) + k.lyx * c.dx(t) * (2.0 * c.h(t) / bm(t)).sqrt()
                - (1.0 / c.tau(t) - c.lf(t) / 2.0) * c.dx(t).powi(2);
            both(c.phi(t + 1), rhs)
        };
        assert_sides("proj-envelope", case, r, &c.steps(env));
        let ineq = |t: usize| both(c.lin(t), -c.dx(t).powi(2) / c.tau(t));
        assert_sides("projection-inequality", case, r, &c.steps(ineq));
        let ratio = |t: usize| match c.tau(t) <= 0.6 {
            true => both(r.snaps[t].gx_po, c.dx(t) / c.tau(t)),
            false => vec![],
        };
        assert_sides("gx-po-le-step-ratio", case, r, &c.steps(ratio));
        let xs = 0.05;
        let sup_term = |t: usize| k.lyx.powi(2) * c.tau(t) / ((1.0 - c.lf(t) * c.tau(t)) * bm(t));
        let step = |t: usize| {
            let (d0, d1) = (r.snaps[t].x[0] - xs, r.snaps[t + 1].x[0] - xs);
            let lhs = r.snaps[t + 1].f - F_STAR - k.dy.powi(2) * c.b(t) / 2.0;
            let rhs = c.h(t) + sup_term(t) * c.h(t) + (d0 * d0 - d1 * d1) / (2.0 * c.tau(t));
            both(lhs, rhs)
        };
        assert_sides("proj-fw-convex-bound-step", case, r, &c.steps(step));
        let avg: Vec<_> = (0..r.horizon())
            .map(|n| {
                let m = (n + 1) as f64;
                let sup = (0..=n).map(sup_term).fold(0.0, f64::max);
                let lhs = (0..=n).map(|t| r.snaps[t + 1].f - F_STAR).sum::<f64>() / m;
                let sh: f64 = (0..=n).map(|t| c.h(t)).sum();
                let sb: f64 = (0..=n).map(|t| c.b(t)).sum();
                let rhs = (1.0 + sup) * sh / m
                    + k.dx.powi(2) / (2.0 * m * c.tau(n))
                    + k.dy.powi(2) / (2.0 * m) * sb;
                (lhs, rhs)
            })
            .collect();
        assert_sides("proj-fw-convex-bound", case, r, &avg);
    }
}

/// `lemma:repeat-saddle` and its `G_X^PO` corollary (L450) at T = 16 and T = 8 (claims 4.1) on
/// `L = x^2/2 + x y - y^2/2` over `[-1,1]^2`, where `G^Dual(xbar, ybar) = xbar^2 + ybar^2`; and
/// the feasibility of the iterates (all inside the box: distance 0).
#[test]
fn saddle_bounds_and_feasibility_by_hand() {
    for_each_lmo_case(|case, r| {
        let k = r.k;
        let at = |n: usize, primal: &dyn Fn(&Snap) -> f64| {
            let m = n as f64;
            let xbar = (1..=n).map(|t| r.snaps[t].x[0]).sum::<f64>() / m;
            let ybar = (1..=n).map(|t| r.snaps[t].y[0]).sum::<f64>() / m;
            let rhs = (1..=n)
                .map(|t| primal(&r.snaps[t]) + r.snaps[t].gy)
                .sum::<f64>()
                / m;
            (xbar * xbar + ybar * ybar, rhs)
        };
        let big = r.horizon();
        let lmo = |s: &Snap| s.gx_lmo;
        assert_sides(
            "repeat-saddle",
            case,
            r,
            &[at(big, &lmo), at(big / 2, &lmo)],
        );
        let po = |s: &Snap| (0.6 * s.gx[0].abs() + k.dx) * s.gx_po;
        assert_sides(
            "repeat-saddle-po",
            case,
            r,
            &[at(big, &po), at(big / 2, &po)],
        );
        let feasible = |t: usize| vec![(0.0, 0.0); if t == 0 { 4 } else { 2 }];
        assert_sides("iterates-feasible", case, r, &T { r }.steps(feasible));
    });
}
