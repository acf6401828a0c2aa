//! `src/invariants/dual.rs` by hand: claims.md Sec. 4.5, 4.8, 4.9.

use super::*;

/// The dual LMO step lemmas (claims 4.5): `lemma:almost-recursion` (with its intermediate facts
/// L1649-1655), `lemma:almost-strongly-convex-recursion` (8 sqrt2, the sharp 4 sqrt2 and the
/// gradient form), the one-step inequality and the recursions of `lemma:compact-ht` (L2020-2023,
/// L2040) and `lemma:compact-sc-ht` (L2156) on their gamma grids.
#[test]
fn dual_lmo_step_lemmas_by_hand() {
    for_each_lmo_case(|case, r| {
        let (c, k) = (T { r }, r.k);
        let alpha = 1.3;
        let w = |t: usize| (k.lyy + c.b(t)) * k.dy * k.dy;
        let rec = |t: usize| both(c.dec(t), (0.5f64).max(1.0 - c.h(t) / (2.0 * w(t))) * c.h(t));
        assert_sides("almost-recursion", case, r, &c.steps(rec));
        // w_t = g_t^T (u_t - y_t) > 0 and ||u_t - y_t|| (one dimension)
        let gap = |t: usize| {
            let s = &r.snaps[t];
            (s.g[0] * (s.u[0] - s.y[0]), (s.u[0] - s.y[0]).abs())
        };
        let ascent = |t: usize| {
            let (wt, nd) = gap(t);
            let gain = 0.5 * (1.0f64).min(wt / ((k.lyy + c.b(t)) * nd * nd)) * wt;
            both(r.snaps[t].l_t + gain, r.steps[t].l_t_next)
        };
        assert_sides("almost-recursion-ascent", case, r, &c.steps(ascent));
        let fw_gap = |t: usize| both(c.h(t), gap(t).0);
        assert_sides("almost-recursion-fw-gap", case, r, &c.steps(fw_gap));
        for (name, d) in [
            ("almost-sc-recursion", 8.0 * SQRT2),
            ("almost-sc-recursion-sharp", 4.0 * SQRT2),
        ] {
            let sc = |t: usize| {
                let f = 1.0 - alpha * ((c.b(t) + k.mu) * c.h(t)).sqrt() / (d * (k.lyy + c.b(t)));
                both(c.dec(t), f.max(0.5) * c.h(t))
            };
            assert_sides(name, case, r, &c.steps(sc));
        }
        let grad = |t: usize| {
            let g = r.snaps[t].g[0].abs();
            let f = 1.0 - alpha * g / (8.0 * (k.lyy + c.b(t)));
            both(c.dec(t), f.max(0.5) * c.h(t))
        };
        assert_sides("almost-sc-recursion-grad", case, r, &c.steps(grad));
        let one = |t: usize| {
            (0..=20)
                .map(|i| {
                    let g = i as f64 / 20.0;
                    (c.dec(t), (1.0 - g) * c.h(t) + w(t) * g * g / 2.0)
                })
                .collect()
        };
        assert_sides("compact-ht-one-step", case, r, &c.steps(one));
        // (Lyx Dx tau_t + Dy db_t)^2
        let m2 = |t: usize| (k.lyx * k.dx * c.tau(t) + k.dy * c.db(t)).powi(2);
        let lxx_term = |t: usize| 4.0 * k.lxx * k.dx * k.dx * c.tau(t) * c.tau(t);
        let ht = |t: usize| {
            (1..=20)
                .map(|i| {
                    let g = i as f64 / 20.0;
                    let rhs = (1.0 - g / 2.0) * c.h(t)
                        + w(t) * g * g
                        + lxx_term(t)
                        + 4.0 * m2(t) / (g * (c.b(t + 1) + k.mu));
                    (c.h(t + 1), rhs)
                })
                .collect()
        };
        assert_sides("compact-ht-recursion", case, r, &c.steps(ht));
        let sc_ht = |t: usize| {
            (1..=10)
                .map(|i| {
                    let g = i as f64 / 20.0;
                    let rhs = (1.0 - g / 2.0) * c.h(t)
                        + 1024.0 * (k.lyy + c.b(t)).powi(2) * g.powi(3)
                            / (27.0 * alpha * alpha * (c.b(t) + k.mu))
                        + 4.0 * m2(t) / (g * (c.b(t + 1) + k.mu))
                        + lxx_term(t);
                    (c.h(t + 1), rhs)
                })
                .collect()
        };
        assert_sides("compact-sc-ht-recursion", case, r, &c.steps(sc_ht));
    });
}

/// `H_t <= bound(t)` for `t0 <= t <= T`.
fn h_bounds(r: &RunCtx, t0: usize, bound: impl Fn(f64) -> f64) -> Vec<(f64, f64)> {
    (t0..=r.horizon())
        .map(|t| (r.snaps[t].h, bound(t as f64)))
        .collect()
}

/// `lemma:compact-ht` explicit bounds for t >= 5 (claims 4.5): the mu = 0 branch, and the
/// mu > 0, C = 0 branch with 64 (corrected, claims 7.11) and with the printed 16.
#[test]
fn compact_ht_explicit_bounds_by_hand() {
    for_each_lmo_case(|case, r| {
        let k = r.k;
        let s = r.sched.unwrap();
        let (a, b, cc) = (s.a, s.b, s.c);
        let h0 = r.snaps[0].h;
        if k.mu == 0.0 && cc > 0.0 {
            let c = (2.0 * a - b) / 3.0;
            let kk = k.lxx * cc * k.dx.powi(2) + (k.lyx * k.dx).powi(2) + (b * cc * k.dy).powi(2);
            let want = h_bounds(r, 5, |t| {
                (h0 + 16.0 * E * kk * t.powf((4.0 * a - 2.0 * b) / 3.0) / cc)
                    * (-t.powf((3.0 - 2.0 * a + b) / 3.0) / 2.0).exp()
                    + (2.0 * cc * (k.lyy + cc) * k.dy.powi(2) + 64.0 * e_ab(a, b) * kk)
                        / (cc * t.powf(c))
            });
            assert_sides("compact-ht-explicit", case, r, &want);
            assert_sides("compact-ht-explicit-printed", case, r, &[]);
        } else if cc == 0.0 {
            let kk = k.lxx * k.mu * k.dx.powi(2) + (k.lyx * k.dx).powi(2);
            let bound = |coef: f64| {
                h_bounds(r, 5, |t| {
                    let tail = if a < 1.0 {
                        e_ab(a, 0.0) / t.powf(2.0 * a / 3.0)
                    } else {
                        t.ln() / t.powf(2.0 / 3.0)
                    };
                    (h0 + 16.0 * E * kk * t.powf(4.0 * a / 3.0) / k.mu)
                        * (-t.powf((3.0 - 2.0 * a) / 3.0) / 2.0).exp()
                        + 4.0 * k.lyy * k.dy.powi(2) / t.powf(2.0 * a / 3.0)
                        + coef * kk / k.mu * tail
                })
            };
            assert_sides("compact-ht-explicit", case, r, &bound(64.0));
            assert_sides("compact-ht-explicit-printed", case, r, &bound(16.0));
        }
    });
}

/// `lemma:compact-sc-ht` explicit bounds for t >= 14 (claims 4.5, 7.12): corrected, and as
/// printed (L2186-2204: the Lxx tail inside the exponential factor, exp(-./2) and `512 Lyy` in
/// the mu > 0 branch).
#[test]
fn compact_sc_ht_explicit_bounds_by_hand() {
    for_each_lmo_case(|case, r| {
        let k = r.k;
        let alpha = 1.3;
        let s = r.sched.unwrap();
        let (a, b, cc) = (s.a, s.b, s.c);
        let h0 = r.snaps[0].h;
        let lxx_tail = |t: f64| {
            let f = if a < 1.0 {
                e_ab(a, 0.0) / t.powf(3.0 * a / 2.0)
            } else {
                t.ln() / t.powf(1.5)
            };
            64.0 * k.lxx * k.dx.powi(2) * f
        };
        let ex4 = |t: f64| (-t.powf(1.0 - a / 2.0) / 4.0).exp();
        let (want, printed) = if k.mu == 0.0 && cc > 0.0 {
            let ks = (k.lyx * k.dx).powi(2) + (b * cc * k.dy).powi(2);
            let pre = |t: f64| {
                h0 + 64.0 * E * ks * t.powf(a) / cc
                    + 16.0 * E * k.lxx * k.dx.powi(2) * t.powf(a / 2.0)
            };
            let rest = |t: f64| {
                512.0 * (k.lyy + cc).powi(2) / (27.0 * alpha * alpha * cc * t.powf(a - b))
                    + 256.0 * e_ab(a, b) * ks / (cc * t.powf(a - b))
            };
            (
                h_bounds(r, 14, |t| pre(t) * ex4(t) + lxx_tail(t) + rest(t)),
                h_bounds(r, 14, |t| (pre(t) + lxx_tail(t)) * ex4(t) + rest(t)),
            )
        } else if cc == 0.0 {
            let ly = (k.lyx * k.dx).powi(2);
            let pre = |t: f64| {
                h0 + 64.0 * E * ly * t.powf(a) / k.mu
                    + 16.0 * E * k.lxx * k.dx.powi(2) * t.powf(a / 2.0)
            };
            let last = |t: f64| {
                let f = if a < 1.0 {
                    e_ab(a, 0.0) / t.powf(a)
                } else {
                    t.ln() / t
                };
                256.0 * ly / k.mu * f
            };
            let third = |t: f64, lyy: f64| 512.0 * lyy / (27.0 * alpha * alpha * k.mu * t.powf(a));
            (
                h_bounds(r, 14, |t| {
                    pre(t) * ex4(t) + lxx_tail(t) + third(t, k.lyy * k.lyy) + last(t)
                }),
                h_bounds(r, 14, |t| {
                    (pre(t) + lxx_tail(t)) * (-t.powf(1.0 - a / 2.0) / 2.0).exp()
                        + third(t, k.lyy)
                        + last(t)
                }),
            )
        } else {
            return;
        };
        assert_sides("compact-sc-ht-explicit", case, r, &want);
        assert_sides("compact-sc-ht-explicit-printed", case, r, &printed);
    });
}

/// `Q_t` of `lemma:base` / `lemma:telescoping` (claims 4.9).
fn q_t(c: &T, t: usize) -> f64 {
    let k = c.r.k;
    let m = k.lyx * k.dx * c.tau(t) + 2.0 * k.dy * c.db(t);
    2.0 * (k.lyy + k.mu + c.b(t) + c.b(t + 1)).powi(2) * m * m / (c.b(t + 1) + k.mu).powi(3)
}

/// The dual PO step (claims 4.8, 4.9): `lemma:descent-lemma`, `lemma:almost-telescope` (and the
/// drift of `y*_t(x_t)`), `lemma:base`, and the contraction of `lemma:strongly-concave-iterate`.
#[test]
fn dual_po_step_lemmas_by_hand() {
    for_each_lmo_case(|case, r| {
        let (c, k) = (T { r }, r.k);
        let e2 = |t: usize| c.e(t) * c.e(t);
        let descent = |t: usize| {
            let d1 = r.steps[t].next_y_to_ystar;
            let rhs = (k.lyy - k.mu) / 2.0 * e2(t) - (k.lyy + c.b(t)) / 2.0 * d1 * d1;
            both(c.dec(t), rhs)
        };
        assert_sides("descent-lemma", case, r, &c.steps(descent));
        let bb = |t: usize| c.b(t + 1) + k.mu;
        let tele = |t: usize| {
            let rhs = (k.lyy - k.mu) / 2.0 * e2(t) - (k.lyy + c.b(t)) / 2.0 * e2(t + 1)
                + (k.lyy + c.b(t)) * (k.lyx * c.dx(t) + 2.0 * k.dy * c.db(t)) / bb(t)
                    * (2.0 * c.h(t + 1) / bb(t)).sqrt();
            both(c.dec(t), rhs)
        };
        assert_sides("almost-telescope", case, r, &c.steps(tele));
        let drift = |t: usize| {
            let d = (r.snaps[t + 1].ystar[0] - r.snaps[t].ystar[0]).abs();
            both(d, (2.0 * k.dy * c.db(t) + k.lyx * c.dx(t)) / bb(t))
        };
        assert_sides("almost-telescope-drift", case, r, &c.steps(drift));
        let base = |t: usize| {
            let rhs = (k.lyy - k.mu) * e2(t) - (k.lyy + c.b(t)) * e2(t + 1)
                + 4.0 * k.lxx * k.dx.powi(2) * c.tau(t).powi(2)
                + q_t(&c, t);
            both(c.h(t + 1), rhs)
        };
        assert_sides("base", case, r, &c.steps(base));
        if k.mu > 0.0 {
            let rho = ((k.lyy - k.mu) / k.lyy).sqrt();
            let contraction = |t: usize| both(r.steps[t].next_y_to_ystar, rho * c.e(t));
            assert_sides(
                "strongly-concave-contraction",
                case,
                r,
                &c.steps(contraction),
            );
        }
        let unit = |t: usize| {
            let g = r.steps[t].info.gamma;
            vec![(0.0, g), (g, 1.0)]
        };
        assert_sides("dual-step-unit", case, r, &c.steps(unit));
        let po = |t: usize| {
            let (g, want) = (r.steps[t].info.gamma, 1.0 / (k.lyy + c.b(t)));
            vec![(g, want), (want, g)]
        };
        assert_sides("dual-step-po", case, r, &c.steps(po));
    });
}

/// The summed Alg-2 lemmas (claims 4.9) for every T >= 1: `eq:immediate-result`,
/// `lemma:telescoping` (1), (2).
#[test]
fn telescoping_sums_by_hand() {
    for_each_lmo_case(|case, r| {
        let (c, k) = (T { r }, r.k);
        let big = r.horizon();
        let sum = |n: usize, f: &dyn Fn(usize) -> f64| (0..n).map(f).sum::<f64>();
        // 4 Lxx Dx^2 sum_{t<T} tau_t^2 + sum_{t<T} Q_t
        let drive = |n: usize| {
            4.0 * k.lxx * k.dx.powi(2) * sum(n, &|t| c.tau(t).powi(2)) + sum(n, &|t| q_t(&c, t))
        };
        let immediate: Vec<_> = (1..=big)
            .map(|n| {
                let lhs = sum(n, &|t| c.h(t + 1));
                let mid: f64 = (1..n).map(|t| (k.mu + c.b(t - 1)) * c.e(t).powi(2)).sum();
                let rhs =
                    (k.lyy - k.mu) * c.e(0).powi(2) - mid - (k.lyy + c.b(n - 1)) * c.e(n).powi(2)
                        + drive(n);
                (lhs, rhs)
            })
            .collect();
        assert_sides("immediate-result", case, r, &immediate);
        let v0 = (k.lyy - k.mu) * k.dy * k.dy;
        let tele1: Vec<_> = (1..=big)
            .map(|n| {
                let lhs = sum(n, &|t| r.snaps[t + 1].gy);
                let betas = sum(n, &|t| k.dy * k.dy * c.b(t + 1) / 2.0);
                (lhs, v0 + drive(n) + betas)
            })
            .collect();
        assert_sides("telescoping-1", case, r, &tele1);
        let tele2: Vec<_> = (1..=big)
            .map(|n| {
                let se = sum(n, &|t| c.e(t + 1));
                let inv = sum(n, &|t| 1.0 / (c.b(t) + k.mu));
                (se * se, inv * (v0 + drive(n)))
            })
            .collect();
        assert_sides("telescoping-2", case, r, &tele2);
    });
}

/// `lemma:massive-sum` (2) for every T >= 1 (claims 4.9, 7.17): with 8^b (corrected) and 4^b
/// (printed); the log branch at `2a - 3b = 1`.
#[test]
fn massive_sum_2_by_hand() {
    for_each_lmo_case(|case, r| {
        let k = r.k;
        let s = r.sched.unwrap();
        let (a, b, cc) = (s.a, s.b, s.c);
        let bound = |kb: f64| -> Vec<(f64, f64)> {
            (1..=r.horizon())
                .map(|n| {
                    let t = n as f64;
                    let se: f64 = (1..=n).map(|i| r.snaps[i].e).sum();
                    let s2a: f64 = (0..n).map(|i| ((i + 1) as f64).powf(-2.0 * a)).sum();
                    let inv = (cc * t.powf(1.0 + b) + k.mu * t) / (cc + k.mu).powi(2);
                    let first =
                        inv * ((k.lyy - k.mu) * k.dy.powi(2) + 4.0 * k.lxx * k.dx.powi(2) * s2a);
                    let pre = 2.0
                        * (k.lyy + k.mu + 2.0 * cc).powi(2)
                        * (k.lyx * k.dx + 2.0 * b * cc * k.dy).powi(2)
                        * inv
                        / (cc * cc + k.mu * k.mu).powi(2);
                    let ex = 1.0 - 2.0 * a + 3.0 * b;
                    let branch = if 2.0 * a - 3.0 * b == 1.0 {
                        t.ln() + 1.0
                    } else {
                        t.powf(ex) / ex
                    };
                    let sc = if cc > 0.0 {
                        kb.powf(b) * cc * branch
                    } else {
                        0.0
                    };
                    (se * se, first + pre * (sc + k.mu * s2a))
                })
                .collect()
        };
        assert_sides("massive-sum-2", case, r, &bound(8.0));
        assert_sides("massive-sum-2-printed", case, r, &bound(4.0));
    });
}

/// `lemma:fw-proj-convex-concave` for every T >= 1 (claims 4.9); the C-terms vanish at C = 0.
#[test]
fn fw_proj_convex_concave_by_hand() {
    for_each_lmo_case(|case, r| {
        let k = r.k;
        let s = r.sched.unwrap();
        let (a, b, cc) = (s.a, s.b, s.c);
        let want: Vec<_> = (1..=r.horizon())
            .map(|n| {
                let t = n as f64;
                let se: f64 = (1..=n).map(|i| r.snaps[i - 1].e).sum();
                let lxx_part = (k.lxx * k.dx.powi(2)
                    + k.mu * k.lyx.powi(2) * k.dx.powi(2) / (cc + k.mu).powi(2))
                    / 2.0
                    * if a < 1.0 {
                        1.0 / ((1.0 - a) * t.powf(2.0 * a - 1.0))
                    } else {
                        (t.ln() + 1.0) / t
                    };
                let c_part = if cc > 0.0 {
                    cc * k.dy.powi(2) / (2.0 * (1.0 - b) * t.powf(a + b - 1.0))
                        + cc * k.lyx.powi(2) * k.dx.powi(2)
                            / (2.0
                                * (1.0 - a + b)
                                * (cc + k.mu).powi(2)
                                * t.powf(2.0 * a - b - 1.0))
                } else {
                    0.0
                };
                let rhs = 2.0 * k.lyx * k.dx / t.powf(a) * se + lxx_part + c_part;
                (r.snaps[n].f - F_STAR, rhs)
            })
            .collect();
        assert_sides("fw-proj-convex-concave", case, r, &want);
    });
}

/// The D7 G_Y bound of Alg 2 (claims 3.4 D7, 7.17, 7.19) for every T >= 1: corrected (8^b, the
/// log branch at `2a - 3b = 1`) and printed (`2^(2b+1)`, dividing by `1 - 2a + 3b`). C > 0 only
/// (the bound divides by C^3).
#[test]
fn fw_proj_dual_bound_by_hand() {
    for_each_lmo_case(|case, r| {
        let k = r.k;
        let s = r.sched.unwrap();
        let (a, b, cc) = (s.a, s.b, s.c);
        if cc == 0.0 {
            return;
        }
        let pre =
            (k.lyy + 2.0 * cc).powi(2) * (k.lyx * k.dx + 2.0 * b * cc * k.dy).powi(2) / cc.powi(3);
        let ex = 1.0 - 2.0 * a + 3.0 * b;
        let bound = |printed: bool| -> Vec<(f64, f64)> {
            (1..=r.horizon())
                .map(|n| {
                    let t = n as f64;
                    let avg = (1..=n).map(|i| r.snaps[i].gy).sum::<f64>() / t;
                    let s2a: f64 = (0..n).map(|i| ((i + 1) as f64).powf(-2.0 * a)).sum();
                    let vt = (k.lyy - k.mu) * k.dy.powi(2) + 4.0 * k.lxx * k.dx.powi(2) * s2a;
                    let common = vt / t + cc * k.dy.powi(2) / (2.0 * (1.0 - b) * t.powf(b));
                    let last = if printed {
                        2f64.powf(2.0 * b + 1.0) * pre / (t.powf(2.0 * a - 3.0 * b) * ex)
                    } else if 2.0 * a - 3.0 * b == 1.0 {
                        2.0 * 8f64.powf(b) * pre * (t.ln() + 1.0) / t
                    } else {
                        2.0 * 8f64.powf(b) * pre / (ex * t.powf(2.0 * a - 3.0 * b))
                    };
                    (avg, common + last)
                })
                .collect()
        };
        assert_sides("fw-proj-dual-bound", case, r, &bound(false));
        assert_sides("fw-proj-dual-bound-printed", case, r, &bound(true));
    });
}

/// `lemma:strongly-concave-iterate` (1), (2) (claims 4.9, 7.20): `Lyx Dx/(mu(1-rho))`
/// (corrected) and the printed `Lyy`; `rho = sqrt((Lyy-mu)/Lyy)`. mu > 0 only.
#[test]
fn strongly_concave_iterate_by_hand() {
    for_each_lmo_case(|case, r| {
        let (c, k) = (T { r }, r.k);
        if k.mu == 0.0 {
            return;
        }
        let rho = ((k.lyy - k.mu) / k.lyy).sqrt();
        let bound = |l: f64, t: usize| {
            let avg = (1..=t).map(|i| c.tau(i - 1)).sum::<f64>() / t as f64;
            rho.powi(t as i32) * k.dy + l * k.dx / (k.mu * (1.0 - rho)) * avg
        };
        for (suffix, l) in [("", k.lyx), ("-printed", k.lyy)] {
            let one: Vec<_> = (1..=r.horizon()).map(|t| (c.e(t), bound(l, t))).collect();
            assert_sides(
                &format!("strongly-concave-iterate-1{suffix}"),
                case,
                r,
                &one,
            );
            let two: Vec<_> = (1..r.horizon())
                .map(|t| {
                    let rhs = (k.lyy - k.mu) * bound(l, t).powi(2)
                        + 2.0
                            * (2.0 * k.lxx * k.dx.powi(2) + k.lyx.powi(2) * k.dx.powi(2) / k.mu)
                            * c.tau(t).powi(2);
                    (r.snaps[t + 1].gy, rhs)
                })
                .collect();
            assert_sides(
                &format!("strongly-concave-iterate-2{suffix}"),
                case,
                r,
                &two,
            );
        }
    });
}
