//! The run-level side conditions of the invariants (`Hyp::extra`, the schedule and parameter
//! ranges each lemma states) at their boundaries, on the synthetic run.

use super::*;
use saddlefw::paper::Oracle;

/// The `extra` condition of the named invariant on `r`.
fn extra_holds(name: &str, r: &RunCtx) -> bool {
    let f = find(name).unwrap().hyp.extra;
    f.unwrap_or_else(|| panic!("{name}: no extra condition"))(r)
}

/// `(a, b, C, mu) -> extra(run)` on an LMO-PO run.
fn with_sched(name: &str, a: f64, b: f64, c: f64, mu: f64) -> bool {
    let mut fake = Fake::new(k_lmo(mu), (0.75, 0.25, 2.5));
    fake.structure = Structure::LMO_PO;
    let mut r = fake.run();
    r.sched = Some(PowerSchedule { a, b, c });
    extra_holds(name, &r)
}

/// `lemma:compact-ht`, `lemma:compact-sc-ht` explicit bounds: `2a > b` and exactly one of
/// `(mu = 0, C > 0)`, `(mu > 0, C = 0)` (claims 4.5).
#[test]
fn compact_bound_branches() {
    for name in ["compact-ht-explicit", "compact-sc-ht-explicit"] {
        let h = |a, b, c, mu| with_sched(name, a, b, c, mu);
        assert!(h(0.75, 0.25, 2.5, 0.0) && h(0.75, 0.0, 0.0, 0.7), "{name}");
        assert!(!h(0.75, 0.25, 2.5, 0.7), "{name}: mu > 0 and C > 0");
        assert!(!h(0.75, 0.0, 0.0, 0.0), "{name}: mu = C = 0");
        assert!(
            !h(0.25, 0.5, 2.5, 0.0) && h(0.3, 0.5, 2.5, 0.0),
            "{name}: 2a > b"
        );
    }
}

/// `lemma:massive-sum` (2): `0 < b < 1`, `(2a-1)/3 <= b < 2a/3` when C > 0, mu > 0 when C = 0,
/// and Alg 2's `mu <= Lyy`, `tau_t in (0, 1]` (claims 4.9).
#[test]
fn massive_sum_ranges() {
    let h = |a, b, c, mu| with_sched("massive-sum-2", a, b, c, mu);
    assert!(h(0.75, 0.25, 2.5, 0.0));
    assert!(h(0.875, 0.25, 2.5, 0.0), "b = (2a-1)/3 is inside");
    assert!(!h(0.875, 0.2, 2.5, 0.0), "b < (2a-1)/3");
    assert!(!h(0.375, 0.25, 2.5, 0.0), "b = 2a/3 is outside");
    assert!(!h(0.75, 0.0, 2.5, 0.0), "b = 0 with C > 0");
    assert!(!h(1.6, 1.0, 2.5, 0.0), "b = 1");
    assert!(
        h(0.75, 0.0, 0.0, 0.7) && !h(0.75, 0.0, 0.0, 0.0),
        "C = 0 needs mu > 0"
    );
    assert!(h(0.75, 0.25, 2.5, 4.0), "mu = Lyy is inside");
    assert!(!h(0.75, 0.25, 2.5, 4.5), "mu > Lyy");
    let mut fake = Fake::new(k_lmo(0.0), (0.75, 0.25, 2.5));
    fake.structure = Structure::LMO_PO;
    let mut r = fake.run();
    for (tau, inside) in [(1.0, true), (1.5, false), (0.0, false)] {
        r.steps[3].info.tau = tau;
        assert_eq!(extra_holds("massive-sum-2", &r), inside, "tau_3 = {tau}");
    }
}

/// `lemma:fw-proj-convex-concave` (`0 < b < a <= 1` or mu > 0 at C = 0) and the D7 dual bound
/// (mu = 0, C > 0, `b < a <= 1`, `(2a-1)/3 <= b < 2a/3`) (claims 4.9, 3.4).
#[test]
fn alg2_bound_ranges() {
    let cc = |a, b, c, mu| with_sched("fw-proj-convex-concave", a, b, c, mu);
    assert!(cc(0.75, 0.25, 2.5, 0.0) && cc(1.0, 0.25, 2.5, 0.0));
    assert!(!cc(0.5, 0.5, 2.5, 0.0) && !cc(1.25, 0.25, 2.5, 0.0) && !cc(0.75, 0.0, 2.5, 0.0));
    assert!(cc(0.75, 0.0, 0.0, 0.7) && !cc(0.75, 0.0, 0.0, 0.0));
    let d = |a, b, c, mu| with_sched("fw-proj-dual-bound", a, b, c, mu);
    assert!(d(0.75, 0.25, 2.5, 0.0) && d(1.0, 1.0 / 3.0, 2.5, 0.0));
    assert!(!d(0.75, 0.25, 2.5, 0.7), "mu = 0 only");
    assert!(!d(0.75, 0.0, 0.0, 0.0), "C > 0 only");
    assert!(!d(1.125, 0.5, 2.5, 0.0), "a <= 1");
    assert!(
        !d(0.875, 0.2, 2.5, 0.0) && !d(0.375, 0.25, 2.5, 0.0),
        "(2a-1)/3 <= b < 2a/3"
    );
}

/// `lemma:strongly-concave-iterate`: `Lyy > 0`, `mu <= Lyy`, `tau_t <= 1` (claims 4.9).
#[test]
fn strongly_concave_iterate_ranges() {
    let name = "strongly-concave-iterate-1";
    let mut r = Fake::new(k_lmo(0.7), (0.75, 0.0, 0.0)).run();
    assert!(extra_holds(name, &r));
    r.k.mu = 4.0;
    assert!(extra_holds(name, &r), "mu = Lyy");
    r.k.mu = 4.5;
    assert!(!extra_holds(name, &r), "mu > Lyy");
    r.k.mu = 0.0;
    r.k.lyy = 0.0;
    assert!(!extra_holds(name, &r), "Lyy = 0");
    let mut r = Fake::new(k_lmo(0.7), (0.75, 0.0, 0.0)).run();
    r.steps[2].info.tau = 1.5;
    assert!(!extra_holds(name, &r), "tau_2 > 1");
}

/// Alg 3's conditions (claims 4.7, 4.10): `tau_t > 0`; `tau_t in (0, 1)` (SC section); `G_1 > 0`,
/// `G_2 > 0`; `tau_t L_{f_t} < 1` (`lemma:proj-fw-convex-bound`); and the paper's structures.
#[test]
fn alg3_conditions() {
    let po = |k: Constants| {
        let mut fake = Fake::new(k, (0.75, 0.25, 2.5));
        fake.structure = Structure::PO_LMO;
        fake.run()
    };
    let mut r = po(k_po());
    assert!(extra_holds("proj-fw-recursive", &r) && extra_holds("proj-fw-primal-sum", &r));
    assert!(extra_holds("proj-fw-convex-bound", &r));
    assert!(
        !extra_holds("proj-fw-sc-recursive", &r),
        "tau_0 = 1 is outside (0, 1)"
    );
    r.steps[0].info.tau = 0.9;
    assert!(extra_holds("proj-fw-sc-recursive", &r) && extra_holds("proj-fw-sc-primal-sum", &r));
    r.steps[4].info.tau = 0.0;
    for name in [
        "proj-fw-recursive",
        "proj-fw-sc-recursive",
        "proj-fw-convex-bound",
    ] {
        assert!(!extra_holds(name, &r), "{name}: tau_4 = 0");
    }
    let r = po(k_lmo(0.7));
    for name in [
        "proj-fw-primal-sum",
        "proj-fw-sc-primal-sum",
        "proj-fw-convex-bound",
    ] {
        assert!(
            !extra_holds(name, &r),
            "{name}: large constants (G <= 0, tau L_f >= 1)"
        );
    }
    let mut r = po(k_po());
    assert!(extra_holds("beta-nonincreasing", &r));
    r.structure = Structure {
        primal: None,
        dual: Some(Oracle::Lmo),
    };
    assert!(
        !extra_holds("beta-nonincreasing", &r),
        "not one of Algorithms 1-3"
    );
}
