//! Certified means certified at every scale (issue 19): valid problem files whose fields are
//! scaled by factors from 1e-300 to 1e300 give either a correct f* interval and consistent
//! measures, or an explicit failed status with exit code 2; never a wrong interval, a negative
//! gap or a `null` under `completed`.
//!
//! References are computed here, independently of the crate: the test problems have dx = 2
//! and Y a simplex of dimension 2 with `C = c I`, so `f(x) = max_{t in [0,1]} L(x, s (t, 1-t))`
//! is a one-dimensional concave quadratic maximised in closed form, and a compass search over
//! X gives a feasible point whose `f` is an upper bound on `f*`.

use crate::common::{self, saddlefw};
use proptest::prelude::*;
use saddlefw::harness::{self, RunConfig};
use saddlefw::measures::{self, PointMeasures};
use saddlefw::problems::inner;
use saddlefw::problems::quadratic::QuadraticFile;
use saddlefw::problems::{Constants, Instance, Interval, SaddleProblem};
use saddlefw::sets::ConvexSet;
use saddlefw::solvers::registry::{self, Options, ALGORITHMS};
use saddlefw::trace::{CheckpointRule, Status, Trace};
use serde_json::{json, Value};

/// A 2 x 2 quadratic with `Y = simplex(scale s)` and `C = c I`.
#[derive(Debug, Clone)]
struct Quad2 {
    a: [[f64; 2]; 2],
    b: [[f64; 2]; 2],
    c: f64,
    lin_a: [f64; 2],
    lin_c: [f64; 2],
    /// `("l1_ball" | "box" | "l2_ball", radius)`.
    x_kind: (&'static str, f64),
    y_scale: f64,
}

impl Quad2 {
    /// The probe: A = alpha I, B = I, C = c I, x in the l1 ball of radius r, y in the
    /// simplex, a = [0.1, 0.2], c = [0.3, 0.1].
    fn probe(alpha: f64, c: f64, radius: f64) -> Self {
        Quad2 {
            a: [[alpha, 0.0], [0.0, alpha]],
            b: [[1.0, 0.0], [0.0, 1.0]],
            c,
            lin_a: [0.1, 0.2],
            lin_c: [0.3, 0.1],
            x_kind: ("l1_ball", radius),
            y_scale: 1.0,
        }
    }

    fn x_set_json(&self) -> Value {
        let (kind, r) = self.x_kind;
        match kind {
            "box" => json!({"kind": "box", "lower": -r, "upper": r}),
            "l2_ball" => json!({"kind": "l2_ball", "radius": r}),
            _ => json!({"kind": "l1_ball", "radius": r}),
        }
    }

    fn json(&self) -> String {
        let s = self.y_scale;
        json!({
            "format": "saddlefw-quadratic-v1",
            "A": self.a, "B": self.b, "C": [[self.c, 0.0], [0.0, self.c]],
            "a": self.lin_a, "c": self.lin_c,
            "x_set": self.x_set_json(),
            "y_set": {"kind": "simplex", "scale": s},
            "x0": [0.0, 0.0], "y0": [s / 2.0, s / 2.0],
        })
        .to_string()
    }

    fn instance(&self) -> saddlefw::Result<Instance> {
        QuadraticFile::parse(&self.json(), "scales.json")?.into_instance("scales.json")
    }

    /// `f(x)` in closed form: with `y = s (t, 1-t)` and `d = B x - c_lin`,
    /// `L = h + s (d2 + t (d1 - d2)) - c s^2 (2t^2 - 2t + 1)/2`, maximised over `t in [0,1]`.
    fn f(&self, x: [f64; 2]) -> f64 {
        let (a, b, s) = (&self.a, &self.b, self.y_scale);
        let ax = [
            a[0][0] * x[0] + a[0][1] * x[1],
            a[1][0] * x[0] + a[1][1] * x[1],
        ];
        let h = 0.5 * (x[0] * ax[0] + x[1] * ax[1]) + self.lin_a[0] * x[0] + self.lin_a[1] * x[1];
        let d1 = b[0][0] * x[0] + b[0][1] * x[1] - self.lin_c[0];
        let d2 = b[1][0] * x[0] + b[1][1] * x[1] - self.lin_c[1];
        let g = |t: f64| {
            h + s * (d2 + t * (d1 - d2)) - 0.5 * self.c * s * s * (2.0 * t * t - 2.0 * t + 1.0)
        };
        let stationary = if self.c > 0.0 {
            (((d1 - d2) / (self.c * s) + 1.0) / 2.0).clamp(0.0, 1.0)
        } else {
            0.0
        };
        let stationary = if stationary.is_nan() { 0.5 } else { stationary };
        g(0.0).max(g(1.0)).max(g(stationary))
    }

    /// `x` pulled into X by scaling (feasible, not a projection).
    fn into_x(&self, x: [f64; 2]) -> [f64; 2] {
        let (kind, r) = self.x_kind;
        let size = match kind {
            "box" => x[0].abs().max(x[1].abs()),
            "l2_ball" => x[0].hypot(x[1]),
            _ => x[0].abs() + x[1].abs(),
        };
        if size <= r {
            x
        } else {
            let k = r / size * (1.0 - 1e-15);
            [x[0] * k, x[1] * k]
        }
    }

    /// A compass search over X: a feasible point and its `f`, an upper bound on `f*`.
    fn f_upper(&self) -> ([f64; 2], f64) {
        let r = self.x_kind.1;
        let (mut x, mut fx) = ([0.0, 0.0], self.f([0.0, 0.0]));
        let mut step = 0.5 * r;
        let dirs = [
            (1.0, 0.0),
            (-1.0, 0.0),
            (0.0, 1.0),
            (0.0, -1.0),
            (1.0, 1.0),
            (-1.0, -1.0),
            (1.0, -1.0),
            (-1.0, 1.0),
        ];
        while step > 1e-15 * r {
            let mut moved = false;
            for (u, v) in dirs {
                let c = self.into_x([x[0] + step * u, x[1] + step * v]);
                let fc = self.f(c);
                if fc < fx {
                    (x, fx) = (c, fc);
                    moved = true;
                }
            }
            if !moved {
                step *= 0.5;
            }
        }
        (x, fx)
    }
}

/// The absolute rounding scale of `f` at `x` (the magnitudes of its terms), for tolerances.
fn term_scale(q: &Quad2, x: [f64; 2]) -> f64 {
    let abs = |m: &[[f64; 2]; 2], v: [f64; 2]| {
        m.iter()
            .map(|r| r[0].abs() * v[0].abs() + r[1].abs() * v[1].abs())
            .sum::<f64>()
    };
    let s = q.y_scale;
    abs(&q.a, x) * (x[0].abs() + x[1].abs())
        + abs(&q.b, x) * s
        + q.c.abs() * s * s
        + q.lin_a[0].abs() * x[0].abs()
        + q.lin_a[1].abs() * x[1].abs()
        + (q.lin_c[0].abs() + q.lin_c[1].abs()) * s
}

/// An uncertified f*: the best value `f(x)` of the accelerated solve on f (closed-form `y*`)
/// reported as exact, as a tool without certificates would. For tiny `mu` the solve's step
/// `1/(L_xx + L_yx^2/mu)` vanishes and this value is far above f*.
fn naive_f_star(p: &dyn SaddleProblem) -> Interval {
    let k: Constants = p.constants();
    let y0 = p.y_set().default_point();
    let value = |x: &[f64]| -p.y_star(x, 0.0, &y0).value.mid();
    let grad = |x: &[f64], out: &mut [f64]| {
        let s = p.y_star(x, 0.0, &y0);
        p.grad_x(x, &s.y, out);
        out.iter_mut().for_each(|v| *v = -*v);
    };
    let start = p.x_set().default_point();
    let c = inner::maximize(
        p.x_set(),
        &start,
        k.lxx + k.lyx * k.lyx / k.mu,
        0.0,
        &value,
        &grad,
        inner::INNER_REL_TOL,
        inner::INNER_MAX_ITER,
    );
    Interval::exact(-c.value.lower)
}

/// Whether `i` is consistent with the reference point `(x, U)`: `f* <= U`, and `f* >= U - slack`
/// where `slack` is the compass search's accuracy (used only on the probe family, where the
/// search reaches `1e-14`).
fn contains_reference(i: &Interval, upper_ref: f64, tol: f64, slack: f64) -> bool {
    i.lower <= upper_ref + tol && i.upper >= upper_ref - slack - tol
}

const PROBE_SCALES: [f64; 6] = [1e-6, 1e-9, 1e-13, 1e-16, 1e-20, 1e-300];

/// The reproductions (`C = c I`, c from 1e-6 down to 1e-300): a narrow interval that
/// contains the independent reference. Before the fix, c = 1e-20 gave
/// `[-0.19999999999, -2.5e-12]` for f* = -0.6.
#[test]
fn probe_f_star_intervals_contain_the_reference() {
    for c in PROBE_SCALES {
        let q = Quad2::probe(1.0, c, 1.0);
        let inst = q.instance().unwrap();
        let i = inst
            .problem
            .f_star()
            .expect("a convex quadratic is certified");
        let (x, u) = q.f_upper();
        let tol = 1e-12 * term_scale(&q, x);
        assert!(
            contains_reference(&i, u, tol, 1e-11),
            "C = {c:e} I: {i:?} vs reference {u}"
        );
        assert!(
            i.relative_width() <= 1e-10,
            "C = {c:e} I: {i:?} is not narrow"
        );
        assert!((u + 0.6).abs() < 1e-6, "the reference itself: {u}");
    }
}

/// Negative controls: the uncertified value misses the reference on the probe at some scale
/// and the check rejects it; so does an interval below f* (the upper-end side of the check).
#[test]
fn naive_f_star_route_is_rejected_by_the_reference() {
    let rejected: Vec<f64> = PROBE_SCALES
        .into_iter()
        .filter(|&c| {
            let q = Quad2::probe(1.0, c, 1.0);
            let inst = q.instance().unwrap();
            let naive = naive_f_star(inst.problem.as_ref());
            let (x, u) = q.f_upper();
            !contains_reference(&naive, u, 1e-12 * term_scale(&q, x), 1e-11)
        })
        .collect();
    assert!(
        rejected.contains(&1e-20),
        "the naive value passed: the check has no teeth ({rejected:?})"
    );
    let q = Quad2::probe(1.0, 1e-6, 1.0);
    let (x, u) = q.f_upper();
    let below = Interval {
        lower: u - 1e-9,
        upper: u - 1e-10,
    };
    assert!(!contains_reference(
        &below,
        u,
        1e-12 * term_scale(&q, x),
        1e-11
    ));
}

/// A problem whose `f(x)` is understated by 1 (a broken inner maximisation): `G_Y = f - L`
/// goes negative, which the harness must report as an inconsistent status, not a result.
struct UnderstatedF(Instance);

impl SaddleProblem for UnderstatedF {
    fn name(&self) -> String {
        "understated-f".into()
    }
    fn x_set(&self) -> &dyn ConvexSet {
        self.0.problem.x_set()
    }
    fn y_set(&self) -> &dyn ConvexSet {
        self.0.problem.y_set()
    }
    fn value(&self, x: &[f64], y: &[f64]) -> f64 {
        self.0.problem.value(x, y)
    }
    fn grad_x(&self, x: &[f64], y: &[f64], out: &mut [f64]) {
        self.0.problem.grad_x(x, y, out)
    }
    fn grad_y(&self, x: &[f64], y: &[f64], out: &mut [f64]) {
        self.0.problem.grad_y(x, y, out)
    }
    fn constants(&self) -> Constants {
        self.0.problem.constants()
    }
    fn convex_in_x(&self) -> bool {
        self.0.problem.convex_in_x()
    }
    fn y_star(&self, x: &[f64], beta: f64, y0: &[f64]) -> saddlefw::problems::InnerMax {
        let mut s = self.0.problem.y_star(x, beta, y0);
        s.value = s.value.shift(-1.0);
        s
    }
}

/// The consistency rule itself: rounding-level negatives pass, a gap of -0.3 and a NaN do not
/// (the G_Y^LMO = -0.3 of the probe with C = 1e-300 I before the fix).
#[test]
fn inconsistency_rule_separates_rounding_from_wrong_values() {
    let q = Quad2::probe(1.0, 1.0, 1.0);
    let inst = q.instance().unwrap();
    let p = inst.problem.as_ref();
    let (x, y) = ([0.3, -0.2], [0.4, 0.6]);
    let ok = measures::evaluate(p, &x, &y, 0.0, &inst.y0, 1.0);
    assert_eq!(measures::inconsistency(&ok), None);
    let rounding = PointMeasures {
        gy_lmo: -1e-15,
        ..ok
    };
    assert_eq!(measures::inconsistency(&rounding), None);
    let wrong = PointMeasures { gy_lmo: -0.3, ..ok };
    let (name, v, tol) = measures::inconsistency(&wrong).expect("rejected");
    assert_eq!((name, v), ("gy_lmo", Some(-0.3)));
    assert!(tol > 0.0 && tol < 1e-6, "{tol}");
    let missing = PointMeasures { h: f64::NAN, ..ok };
    assert_eq!(
        measures::inconsistency(&missing).map(|m| (m.0, m.1)),
        Some(("h", None))
    );
}

/// Negative control through the run loop: a broken f makes the run stop as inconsistent at
/// t = 0, naming the measure, instead of reporting `completed`.
#[test]
fn harness_reports_inconsistent_measures() {
    let inst = Quad2::probe(1.0, 1.0, 1.0).instance().unwrap();
    let (x0, y0) = (inst.x0.clone(), inst.y0.clone());
    let broken = UnderstatedF(inst);
    let mut built = registry::build("lmo-lmo", &broken, &Options::default()).unwrap();
    let trace = harness::run_problem(
        &broken,
        &x0,
        &y0,
        built.solver.as_mut(),
        &RunConfig::new(16),
    );
    match &trace.status {
        Status::Inconsistent {
            iteration,
            measure,
            value,
            ..
        } => {
            assert_eq!((*iteration, measure.as_str()), (0, "gy"));
            assert!(value.is_some_and(|v| v < -0.5), "{value:?}");
        }
        s => panic!("expected an inconsistent status, got {s:?}"),
    }
    assert!(trace.checkpoints.is_empty() && trace.iterations == 0);
}

/// Runs `saddlefw run` on `q` and returns (exit code, RUN.json, stderr).
fn run_binary(q: &Quad2, algo: &str, iters: &str) -> (i32, Trace, String) {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("p.json");
    std::fs::write(&file, q.json()).unwrap();
    let out = dir.path().join("RUN.json");
    let o = saddlefw(&[
        "run",
        "--problem",
        file.to_str().unwrap(),
        "--algo",
        algo,
        "--iters",
        iters,
        "--out",
        out.to_str().unwrap(),
        "--quiet",
    ]);
    let trace =
        Trace::read(&out).unwrap_or_else(|e| panic!("{algo}: no RUN.json: {e}; {}", o.stderr));
    (o.code, trace, o.stderr)
}

/// The measures of every checkpoint of a completed run are present and not negative beyond
/// rounding (`1e-9` of the largest measure of the run, or 1e-12 absolute).
fn assert_consistent(trace: &Trace, what: &str) {
    for c in &trace.checkpoints {
        let vals = [
            c.measures.gx_lmo,
            c.measures.gx_po,
            c.measures.gy,
            c.measures.gy_lmo,
            c.measures.h,
        ];
        let scale = vals.iter().fold(0.0f64, |m, v| m.max(v.abs()));
        for (name, v) in ["gx_lmo", "gx_po", "gy", "gy_lmo", "h"].iter().zip(vals) {
            assert!(v.is_finite(), "{what}: {name} null at t = {}", c.t);
            assert!(
                v >= -1e-9 * scale - 1e-12,
                "{what}: {name} = {v} at t = {}",
                c.t
            );
        }
        if trace.f_star.is_some() {
            let g = c
                .measures
                .gap_opt
                .unwrap_or_else(|| panic!("{what}: gap_opt null at t = {}", c.t));
            assert!(
                g >= -1e-9 * scale.max(1.0),
                "{what}: gap_opt = {g} at t = {}",
                c.t
            );
        }
    }
}

/// The three reproductions through the binary: C = 1e-20 I (right interval, exit 0),
/// C = 1e-300 I with LMO-PO and CG-RPGA (no negative G_Y^LMO, exit 0), and an l1 ball of
/// radius 1e300 (an inconsistent status naming the measure, exit 2, one error line).
#[test]
fn probe_reproductions_through_the_binary() {
    let q = Quad2::probe(1.0, 1e-20, 1.0);
    let (code, trace, err) = run_binary(&q, "lmo-lmo", "64");
    assert_eq!((code, &trace.status), (0, &Status::Completed), "{err}");
    let (x, u) = q.f_upper();
    let i = trace.f_star.expect("f* certified");
    assert!(
        contains_reference(&i, u, 1e-12 * term_scale(&q, x), 1e-11),
        "{i:?} vs {u}"
    );
    assert_consistent(&trace, "C = 1e-20 I, lmo-lmo");

    for algo in ["lmo-po", "cg-rpga"] {
        let (code, trace, err) = run_binary(&Quad2::probe(1.0, 1e-300, 1.0), algo, "64");
        assert_eq!(
            (code, &trace.status),
            (0, &Status::Completed),
            "{algo}: {err}"
        );
        assert_consistent(&trace, &format!("C = 1e-300 I, {algo}"));
    }

    let (code, trace, err) = run_binary(&Quad2::probe(1.0, 1.0, 1e300), "lmo-lmo", "64");
    assert_eq!(code, 2, "{err}");
    match &trace.status {
        Status::Inconsistent {
            iteration,
            measure,
            value: None,
            ..
        } => {
            assert_eq!((*iteration, measure.as_str()), (1, "gx_lmo"));
        }
        s => panic!("expected an inconsistent status, got {s:?}"),
    }
    assert_eq!(
        trace.checkpoints.len(),
        1,
        "the checkpoint before it is kept"
    );
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.starts_with("error: ") && err.contains("iteration 1: measure gx_lmo is not finite"),
        "{err}"
    );
}

/// A field scale: 10^k with k anywhere in [-300, 300] half of the time, in [-12, 12] otherwise.
fn scale() -> impl Strategy<Value = f64> {
    prop_oneof![(-300i32..=300), (-12i32..=12)].prop_map(|k| 10f64.powi(k))
}

fn unit() -> impl Strategy<Value = f64> {
    -1.0f64..1.0
}

/// Random probe-shaped problems, each field scaled independently.
fn scaled_problem() -> impl Strategy<Value = Quad2> {
    (
        (proptest::array::uniform4(unit()), any::<bool>(), scale()),
        (proptest::array::uniform4(unit()), scale()),
        (0.0f64..1.0, scale()),
        (proptest::array::uniform4(unit()), scale(), scale()),
        (0usize..3, scale(), scale()),
    )
        .prop_map(
            |((ma, convex, sa), (mb, sb), (c, sc), (lin, sla, slc), (xk, rx, sy))| {
                // A = M'M (PSD) or the symmetric part of M (indefinite in general)
                let m = [[ma[0], ma[1]], [ma[2], ma[3]]];
                let a = if convex {
                    let e = |i: usize, j: usize| m[0][i] * m[0][j] + m[1][i] * m[1][j];
                    [[e(0, 0) * sa, e(0, 1) * sa], [e(1, 0) * sa, e(1, 1) * sa]]
                } else {
                    let o = 0.5 * (m[0][1] + m[1][0]) * sa;
                    [[m[0][0] * sa, o], [o, m[1][1] * sa]]
                };
                Quad2 {
                    a,
                    b: [[mb[0] * sb, mb[1] * sb], [mb[2] * sb, mb[3] * sb]],
                    c: c * sc,
                    lin_a: [lin[0] * sla, lin[1] * sla],
                    lin_c: [lin[2] * slc, lin[3] * slc],
                    x_kind: (["l1_ball", "box", "l2_ball"][xk], rx),
                    y_scale: sy,
                }
            },
        )
}

/// The campaign: every algorithm on each scaled problem. A file the parser refuses is fine
/// (an input error); otherwise a run either completes with every measure present and
/// consistent, or stops with a failed status (diverged / inconsistent) at a recorded
/// iteration; a certified f* has finite, ordered ends and never exceeds the `f` of the
/// reference's feasible point.
#[test]
fn scale_campaign_never_certifies_wrongly() {
    proptest!(common::config(40, "scales.txt"), |(q in scaled_problem())| {
        let Ok(inst) = q.instance() else { return Ok(()) };
        let p = inst.problem.as_ref();
        if let Some(i) = p.f_star() {
            prop_assert!(i.lower.is_finite() && i.upper.is_finite() && i.lower <= i.upper, "{i:?}");
            let (x, u) = q.f_upper();
            let tol = 1e-9 * term_scale(&q, x);
            if u.is_finite() && tol.is_finite() {
                prop_assert!(i.lower <= u + tol, "f* {i:?} above f({x:?}) = {u}");
            }
        }
        for info in &ALGORITHMS {
            let Ok(mut built) = registry::build(info.name, p, &Options::default()) else { continue };
            let config = RunConfig {
                checkpoints: CheckpointRule::Log2,
                sigma: built.default_sigma,
                ..RunConfig::new(64)
            };
            let trace = harness::run(&inst, built.solver.as_mut(), &config);
            match &trace.status {
                Status::Completed | Status::TimeLimit => {
                    prop_assert_eq!(trace.iterations, 64);
                    for c in &trace.checkpoints {
                        let vals = [c.measures.gx_lmo, c.measures.gx_po, c.measures.gy, c.measures.gy_lmo, c.measures.h];
                        prop_assert!(vals.iter().all(|v| v.is_finite()), "{}: null at t = {}", info.name, c.t);
                        prop_assert_eq!(c.measures.gap_opt.is_some(), trace.f_star.is_some());
                    }
                }
                Status::Diverged { iteration, .. } | Status::Inconsistent { iteration, .. } => {
                    prop_assert!(*iteration <= 64);
                    prop_assert!(trace.checkpoints.iter().all(|c| c.t <= *iteration));
                }
                s @ (Status::Interrupted { .. } | Status::InProgress { .. }) => {
                    prop_assert!(false, "no stop was requested, yet {:?}", s);
                }
            }
        }
    });
}

/// An indefinite `A = [[0, a], [a, 0]]` whose entries square past `f64::MAX`: the eigenvalues
/// are still `-|a|, |a|`, so the problem is not convex in x and no f* is certified. Before the
/// fix the Jacobi threshold's Frobenius norm overflowed to inf, every rotation was skipped, the
/// eigenvalues came out as the diagonal (0, 0), and f* was certified near -0.19 while
/// `f(0.5, 0.5) = a/4` (found by the campaign above with `SADDLEFW_PROPTEST_MULT=8
/// PROPTEST_RNG_SEED=303`; the case is also in its regression file). Control: at `a / 1e10`
/// (no overflow) the same answer.
#[test]
fn overflowing_entries_do_not_hide_indefiniteness() {
    for a in [-2.702125767420768e154, -2.702125767420768e144] {
        let e = saddlefw::linalg::sym_eigenvalues(&[0.0, a, a, 0.0], 2);
        assert!(
            (e[0] / a - 1.0).abs() < 1e-15 && (e[1] / a + 1.0).abs() < 1e-15,
            "{e:?}"
        );
        let q = Quad2 {
            a: [[0.0, a], [a, 0.0]],
            b: [[0.0; 2]; 2],
            c: 0.7693413375882777,
            lin_a: [0.0; 2],
            lin_c: [0.0; 2],
            x_kind: ("l1_ball", 1.0),
            y_scale: 1.0,
        };
        let inst = q.instance().expect("a valid problem");
        assert!(!inst.problem.convex_in_x(), "a = {a:e}");
        assert!(inst.problem.f_star().is_none(), "a = {a:e}");
    }
}

/// `y*` in closed form when `m` is so small that `c / m` overflows (the second case the deeper
/// campaign found, seed 401: `C = 6e-165 I`, linear term `8.5e144`): the maximiser is the LMO
/// vertex of `c` and the value a certified interval containing the true maximum, where the
/// projection of an infinite target gave a wrong "exact" value and f* was certified at
/// [0, 3e-12] against f(0) = -850.8. Control: with `m = 1` the value is exact as before.
#[test]
fn closed_form_inner_maximum_survives_an_overflowing_target() {
    use saddlefw::problems::YModel;
    use saddlefw::sets::Simplex;
    let simplex = Simplex::new(2, 1.0).unwrap();
    let c = vec![-8.507825890297562e144, -9.035215951586308e144];
    let model = |m: f64| YModel {
        h: 0.5,
        c: c.clone(),
        m,
    };
    let m = 6.074315502171514e-165;
    let r = inner::y_star_closed_form(&simplex, &model(m), 0.0, &[0.5, 0.5]);
    assert_eq!(r.y, [1.0, 0.0]);
    // the true maximum over the simplex is at e_1: h + c_1 - m/2
    let truth = 0.5 + c[0] - 0.5 * m;
    assert!(
        r.value.lower <= truth && truth <= r.value.upper,
        "{:?}",
        r.value
    );
    assert!(r.value.lower.is_finite() && r.value.upper.is_finite());
    let exact = inner::y_star_closed_form(&simplex, &model(1.0e-100), 0.0, &[0.5, 0.5]);
    assert_eq!(exact.value.lower, exact.value.upper);
}

/// `||B||_2` of a matrix whose entries (about 7e170) square past `f64::MAX`: the third case of
/// the deeper campaign (seed 521), where the Jacobi SVD returned 0, so `L_yx = 0`, and f* was
/// certified as `[-5.6e169, 0]` against `f(x) = -4.5e170`. The SVD now scales by a power of
/// two first. Control: the same matrix times `2^-600` (entries in range, the direct path) gives
/// the same norm times `2^-600`.
#[test]
fn spectral_norm_of_huge_entries_is_right() {
    let b = [
        -3.526183734928826e170,
        2.9654375014646447e170,
        -6.942629624706456e170,
        -7.145406851927416e170,
    ];
    let n = saddlefw::linalg::spectral_norm(&b, 2, 2);
    let scaled: Vec<f64> = b.iter().map(|x| x * 2f64.powi(-600)).collect();
    let m = saddlefw::linalg::spectral_norm(&scaled, 2, 2);
    assert!(n.is_finite() && m > 0.0, "{n} {m}");
    assert!((n * 2f64.powi(-600) / m - 1.0).abs() < 1e-15, "{n} {m}");
}

/// A tiny Y (simplex of scale 1e-255) with a huge `C = 9.96e279 I`: `y'y` underflows, and the
/// closed-form value lost the curvature term (`f(0)` came out as 0 instead of -2.49e-231). Then
/// the solve's bound crossed the duality upper end and f* was certified as the single point
/// -2.4904505863e-231 against `f(x) = -2.4904506332e-231` (the fourth case of the deeper
/// campaign, seed 533). Control: the same model at y of scale 1 is computed as before.
#[test]
fn curvature_of_a_tiny_y_is_not_lost() {
    use saddlefw::problems::YModel;
    let m = 9.9618023452357e279;
    let model = YModel {
        h: 0.0,
        c: vec![0.0, 0.0],
        m,
    };
    let y = [0.5e-255, 0.5e-255];
    let want = -0.5 * ((m * y[0]) * y[0] + (m * y[1]) * y[1]);
    assert!(want < 0.0 && want.is_normal());
    assert_eq!(model.value(&y), want);
    assert_eq!(model.value(&[0.5, 0.5]), -0.5 * m * 0.5);
    let q = Quad2 {
        a: [[0.0; 2]; 2],
        b: [[0.0; 2]; 2],
        c: m,
        lin_a: [0.0, 0.4686084742640449],
        lin_c: [0.0; 2],
        x_kind: ("l1_ball", 9.999999999999995e-239),
        y_scale: 9.999999999999997e-256,
    };
    let inst = q.instance().expect("a valid problem");
    let i = inst.problem.f_star().expect("f* certified");
    let (x, u) = q.f_upper();
    assert!(i.lower <= u, "{i:?} above f({x:?}) = {u:e}");
}
