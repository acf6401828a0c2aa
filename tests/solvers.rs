//! Solvers, schedules, the counting wrapper and the run loop.
//!
//! * First steps of every algorithm, computed by hand from the update formulas on 2-d
//!   quadratics `L = y'x + a'x - c'y` (B = I, A = C = 0, so Lxx = Lyy = mu = 0, Lyx = 1),
//!   including the gamma_t branches (interior, clipped to 1, u_t = y_t).
//! * 10^4-iteration runs on random instances of every setting: feasibility of every iterate,
//!   gamma_t in [0,1] for LMO dual steps, tau_t in [0,1] for LMO primal steps, beta_t
//!   non-increasing, oracle counts equal to the registry's per-iteration profile.
//! * Negative controls: deliberately broken solvers that each of those checks must reject.
//! * Schedules: parse/print round trips, domains, G_1 / G_2, the theorem-case table.
//! * Run loop: checkpoints, time limit, divergence, determinism.
//!
//! Tolerances: hand-computed values are O(1) results of a few flops, compared at 1e-12
//! absolute; feasibility uses the sets' own `contains` with 1e-9 (the starts' tolerance of
//! the file format).

use proptest::prelude::*;
use saddlefw::counting::Counting;
use saddlefw::generators::{Family, GeneratorSpec, Setting};
use saddlefw::harness::{run, run_observed, run_problem, CheckpointRule, RunConfig, StepView};
use saddlefw::paper::Algorithm;
use saddlefw::problems::{Constants, Instance, Quadratic, SaddleProblem, YModel};
use saddlefw::sets::{ConvexSet, L2Ball, Simplex};
use saddlefw::solvers::agp::{Agp, AgpParams};
use saddlefw::solvers::boroun::candidate_a;
use saddlefw::solvers::cg_rpga::{cg_rpga, CgRpgaParams};
use saddlefw::solvers::defaults::{theorem_case, theorem_cases};
use saddlefw::solvers::r_pdcg::{r_pdcg, RPdcgParams};
use saddlefw::solvers::registry::{self, Options};
use saddlefw::solvers::schedule::{g_constant, GKind, PoLmoTau, Schedule};
use saddlefw::solvers::sp_fw::SpFw;
use saddlefw::solvers::steps::short_step;
use saddlefw::solvers::{DualSmoothing, Fault, Solver, StepInfo};
use saddlefw::trace::Status;

const TOL: f64 = 1e-12;

fn close(got: &[f64], want: &[f64], what: &str) {
    assert_eq!(got.len(), want.len(), "{what}: length");
    for (i, (g, w)) in got.iter().zip(want).enumerate() {
        assert!((g - w).abs() <= TOL, "{what}[{i}]: got {g}, want {w}");
    }
}

fn close1(got: f64, want: f64, what: &str) {
    assert!((got - want).abs() <= TOL, "{what}: got {got}, want {want}");
}

/// `L = y'x + a'x - c'y` with c = (0.5, -0.5): grad_x = y + a, grad_y = x - c.
fn tiny(x_set: Box<dyn ConvexSet>, y_set: Box<dyn ConvexSet>, lin_a: [f64; 2]) -> Quadratic {
    Quadratic::new(
        vec![0.0; 4],
        vec![1.0, 0.0, 0.0, 1.0],
        vec![0.0; 4],
        lin_a.to_vec(),
        vec![0.5, -0.5],
        x_set,
        y_set,
    )
    .unwrap()
}

fn simplex() -> Box<dyn ConvexSet> {
    Box::new(Simplex::new(2, 1.0).unwrap())
}

fn ball() -> Box<dyn ConvexSet> {
    Box::new(L2Ball::centered(2, 1.0).unwrap())
}

/// tau_t = beta_t = 1/(t+1).
fn harmonic() -> Schedule {
    Schedule::Anytime { c: 1.0, a: 1.0 }
}

// ------------------------------------------------------------------------------------------
// hand-computed first steps

#[test]
fn lmo_lmo_first_steps_by_hand_cover_every_gamma_branch() {
    // X = Y = simplex, x0 = (1/2, 1/2), y0 = e1, a = 0, tau_t = beta_t = 1/(t+1), Lyy = 0.
    let q = tiny(simplex(), simplex(), [0.0, 0.0]);
    let k = q.constants();
    assert_eq!((k.lyy, k.mu, k.lxx, k.lyx), (0.0, 0.0, 0.0, 1.0));
    let mut s = DualSmoothing::lmo_lmo(harmonic(), harmonic(), &k).unwrap();
    s.init(&q, &[0.5, 0.5], &[1.0, 0.0]);
    // t = 0: grad_x = y0 = (1,0) -> v = e2, tau = 1 -> x1 = (0,1).
    // g = x0 - c - beta (y0 - y0) = (0,1) -> u = e2; u - y = (-1,1), ||.||^2 = 2,
    // g'(u-y) = 1, curvature = 0 + 1 -> gamma = min(1/2, 1) = 1/2 (interior) -> y1 = (1/2,1/2).
    let i0 = s.step(&q, 0);
    assert_eq!(
        i0,
        StepInfo {
            tau: 1.0,
            beta: 1.0,
            gamma: 0.5
        }
    );
    close(s.x(), &[0.0, 1.0], "x1");
    close(s.y(), &[0.5, 0.5], "y1");
    // t = 1: grad_x = y1 = (1/2,1/2) -> tie -> v = e1 (lowest index), tau = 1/2 -> x2 = (1/2,1/2).
    // g = x1 - c - (1/2)(y1 - y0) = (-1/2, 3/2) - (1/2)(-1/2, 1/2) = (-1/4, 5/4) -> u = e2;
    // u - y1 = (-1/2, 1/2), ||.||^2 = 1/2, g'(u-y) = 3/4, curvature 1/2 -> 3 -> gamma = 1 (clipped).
    let i1 = s.step(&q, 1);
    assert_eq!(
        i1,
        StepInfo {
            tau: 0.5,
            beta: 0.5,
            gamma: 1.0
        }
    );
    close(s.x(), &[0.5, 0.5], "x2");
    close(s.y(), &[0.0, 1.0], "y2");
    // t = 2: g = x2 - c - (1/3)(y2 - y0) = (0,1) - (1/3)(-1,1) = (1/3, 2/3) -> u = e2 = y2:
    // gamma = 0 (the u_t = y_t branch). grad_x = y2 = (0,1) -> v = e1, tau = 1/3 -> x3 = (2/3,1/3).
    let i2 = s.step(&q, 2);
    close1(i2.tau, 1.0 / 3.0, "tau2");
    assert_eq!(i2.gamma, 0.0);
    close(s.x(), &[2.0 / 3.0, 1.0 / 3.0], "x3");
    close(s.y(), &[0.0, 1.0], "y3");
    assert_eq!(s.y_ref(), &[1.0, 0.0]);
}

#[test]
fn lmo_po_first_steps_by_hand() {
    let q = tiny(simplex(), simplex(), [0.0, 0.0]);
    let k = q.constants();
    let mut s = DualSmoothing::lmo_po(harmonic(), harmonic(), &k).unwrap();
    s.init(&q, &[0.5, 0.5], &[1.0, 0.0]);
    // t = 0: primal as LMO-LMO (x1 = (0,1)); gamma = 1/(Lyy + beta_0) = 1;
    // y1 = PO(y0 + g) = PO((1, 1)) = (1/2, 1/2).
    let i0 = s.step(&q, 0);
    assert_eq!(
        i0,
        StepInfo {
            tau: 1.0,
            beta: 1.0,
            gamma: 1.0
        }
    );
    close(s.x(), &[0.0, 1.0], "x1");
    close(s.y(), &[0.5, 0.5], "y1");
    // t = 1: g = (-1/4, 5/4) (as LMO-LMO), gamma = 1/(0 + 1/2) = 2:
    // y2 = PO((1/2 - 1/2, 1/2 + 5/2)) = PO((0, 3)) = (0, 1); x2 = (1/2, 1/2).
    let i1 = s.step(&q, 1);
    assert_eq!(
        i1,
        StepInfo {
            tau: 0.5,
            beta: 0.5,
            gamma: 2.0
        }
    );
    close(s.x(), &[0.5, 0.5], "x2");
    close(s.y(), &[0.0, 1.0], "y2");
}

#[test]
fn po_lmo_first_steps_by_hand() {
    // X = unit l2 ball, a = (1, 0), x0 = (1/2, 1/2), Y = simplex, y0 = e1.
    let q = tiny(ball(), simplex(), [1.0, 0.0]);
    let k = q.constants();
    let mut s = DualSmoothing::po_lmo(harmonic(), harmonic(), &k).unwrap();
    s.init(&q, &[0.5, 0.5], &[1.0, 0.0]);
    // t = 0: grad_x = y0 + a = (2, 0); z = x0 - 1 (2,0) = (-3/2, 1/2), ||z|| = sqrt(10)/2 > 1
    // -> x1 = (-3, 1)/sqrt(10) (projection active). Dual as LMO-LMO: gamma = 1/2, y1 = (1/2,1/2).
    let i0 = s.step(&q, 0);
    assert_eq!(
        i0,
        StepInfo {
            tau: 1.0,
            beta: 1.0,
            gamma: 0.5
        }
    );
    let r10 = 10f64.sqrt();
    let x1 = [-3.0 / r10, 1.0 / r10];
    close(s.x(), &x1, "x1");
    close(s.y(), &[0.5, 0.5], "y1");
    // t = 1: grad_x = y1 + a = (3/2, 1/2), tau = 1/2: z = x1 - (3/4, 1/4), ||z|| > 1 -> z/||z||.
    // g = x1 - c - (1/2)(y1 - y0) = (x1[0] - 1/4, x1[1] + 1/4) -> u = e2 (g2 > g1);
    // u - y1 = (-1/2, 1/2): g'(u - y1) = (x1[1] - x1[0] + 1/2)/2, curvature 1/2, ||.||^2 = 1/2
    // -> ratio = 4 g'(u-y1) = 2 (x1[1] - x1[0]) + 1 > 1 -> gamma = 1, y2 = e2.
    let i1 = s.step(&q, 1);
    assert!(2.0 * (x1[1] - x1[0]) + 1.0 > 1.0);
    assert_eq!(
        i1,
        StepInfo {
            tau: 0.5,
            beta: 0.5,
            gamma: 1.0
        }
    );
    let z = [x1[0] - 0.75, x1[1] - 0.25];
    let nz = (z[0] * z[0] + z[1] * z[1]).sqrt();
    assert!(nz > 1.0);
    close(s.x(), &[z[0] / nz, z[1] / nz], "x2");
    close(s.y(), &[0.0, 1.0], "y2");
}

#[test]
fn sp_fw_first_steps_by_hand() {
    let q = tiny(simplex(), simplex(), [0.0, 0.0]);
    let mut s = SpFw::new();
    s.init(&q, &[0.5, 0.5], &[1.0, 0.0]);
    // t = 0: gamma = 1; s_x = LMO(y0 = (1,0)) = e2; s_y = LMO(-(x0 - c)) = LMO(-(0,1)) = e2.
    let i0 = s.step(&q, 0);
    assert_eq!(i0.gamma, 1.0);
    close(s.x(), &[0.0, 1.0], "x1");
    close(s.y(), &[0.0, 1.0], "y1");
    // t = 1: gamma = 2/3; s_x = LMO(y1 = (0,1)) = e1 -> x2 = (2/3, 1/3);
    // s_y = LMO(-(x1 - c)) = LMO(-(-1/2, 3/2)) = e2 -> y2 = e2.
    let i1 = s.step(&q, 1);
    close1(i1.gamma, 2.0 / 3.0, "gamma1");
    close(s.x(), &[2.0 / 3.0, 1.0 / 3.0], "x2");
    close(s.y(), &[0.0, 1.0], "y2");
}

#[test]
fn r_pdcg_first_steps_by_hand_dual_first() {
    // X = simplex, Y = unit l2 ball (alpha = 1), a = (0.1, 0), x0 = (1/2,1/2), y0 = 0,
    // tau = 1/2, mu = 1/2.
    let q = tiny(simplex(), ball(), [0.1, 0.0]);
    let k = q.constants();
    assert_eq!(k.alpha, Some(1.0));
    let mut s = r_pdcg(RPdcgParams { tau: 0.5, mu: 0.5 }, &k).unwrap();
    s.init(&q, &[0.5, 0.5], &[0.0, 0.0]);
    // k = 0: g = x0 - c - mu (y0 - y0) = (0, 1); s = LMO_Y(-g) = g/||g|| = (0,1);
    // sigma = min{1, 1 * 1/(4 (0 + 1/2))} = 1/2 -> y1 = (0, 1/2).
    // primal at (x0, y1): grad_x = y1 + a = (0.1, 0.5) -> v = e1 -> x1 = (3/4, 1/4)
    // (a simultaneous step would use y0: grad_x = (0.1, 0) -> v = e2).
    let i0 = s.step(&q, 0);
    assert_eq!(
        i0,
        StepInfo {
            tau: 0.5,
            beta: 0.5,
            gamma: 0.5
        }
    );
    close(s.y(), &[0.0, 0.5], "y1");
    close(s.x(), &[0.75, 0.25], "x1");
    // k = 1: g = x1 - c - (1/2)(y1 - 0) = (1/4, 3/4) - (0, 1/4) = (1/4, 1/2);
    // sigma = ||g||/2, s = g/||g|| -> y2 = (1 - sigma) y1 + g/2 = (1/8, (1 - sigma)/2 + 1/4).
    let i1 = s.step(&q, 1);
    let sigma = (0.0625f64 + 0.25).sqrt() / 2.0;
    close1(i1.gamma, sigma, "sigma1");
    close(s.y(), &[0.125, (1.0 - sigma) * 0.5 + 0.25], "y2");
}

#[test]
fn cg_rpga_first_step_by_hand_dual_first() {
    // X = Y = simplex, a = (0.1, 0), tau = 1/2, mu = 1/2: sigma = 2/(Lyy + mu + 0) = 4.
    let q = tiny(simplex(), simplex(), [0.1, 0.0]);
    let k = q.constants();
    let mut s = cg_rpga(
        CgRpgaParams {
            tau: 0.5,
            mu: 0.5,
            sigma: None,
        },
        &k,
    )
    .unwrap();
    s.init(&q, &[0.5, 0.5], &[1.0, 0.0]);
    // y1 = PO(y0 + 4 (0, 1)) = PO((1, 4)) = (0, 1); grad_x(x0, y1) = (0.1, 1) -> v = e1 ->
    // x1 = (3/4, 1/4) (simultaneous would give grad_x = (1.1, 0) -> e2 -> (1/4, 3/4)).
    let i0 = s.step(&q, 0);
    assert_eq!(
        i0,
        StepInfo {
            tau: 0.5,
            beta: 0.5,
            gamma: 4.0
        }
    );
    close(s.y(), &[0.0, 1.0], "y1");
    close(s.x(), &[0.75, 0.25], "x1");
}

#[test]
fn agp_first_step_by_hand_alternating() {
    // X = unit l2 ball, Y = simplex, a = (0.1, 0), x0 = 0, y0 = e1; mu = 0 -> Xu Thm 3.2:
    // Lxx = 0, L_y = 1: tau_agp = 2 max{19^2 (0 + 0.1 - 0.05)/(400 16 0.05), 2} = 4,
    // c_1 = 19/(20 0.05) = 19, beta_1 = 0.05 + 16 4/(0.05 19^2) - 0.05 = 64/18.05.
    let q = tiny(ball(), simplex(), [0.1, 0.0]);
    let params = AgpParams::paper(&q.constants()).unwrap();
    let beta1 = 64.0 / 18.05;
    close1(params.beta_k(1), beta1, "beta_1");
    close1(params.c_k(1), 19.0, "c_1");
    close1(params.c_k(16), 19.0 / 2.0, "c_16");
    let mut s = Agp::new(params);
    s.init(&q, &[0.0, 0.0], &[1.0, 0.0]);
    // x1 = P_X(x0 - (1/beta_1)(y0 + a)) = (-1.1/beta_1, 0) (inside the ball).
    // y1 = P_Y(y0 + 0.05 (x1 - c - 19 (y0 - y0))) = P_simplex((1 + 0.05 (x1[0] - 0.5), 0.025)):
    // both entries stay positive, so the projection shifts each by (1 - sum)/2.
    let i0 = s.step(&q, 0);
    close1(i0.tau, 1.0 / beta1, "primal step");
    close1(i0.beta, 19.0, "c_1");
    assert_eq!(i0.gamma, 0.05);
    let x1 = [-1.1 / beta1, 0.0];
    close(s.x(), &x1, "x1");
    let z = [1.0 + 0.05 * (x1[0] - 0.5), 0.025];
    let shift = (1.0 - z[0] - z[1]) / 2.0;
    close(s.y(), &[z[0] + shift, z[1] + shift], "y1");
}

#[test]
fn agp_strongly_concave_parameters_follow_xu_theorem_3_1() {
    let k = Constants {
        lxx: 2.0,
        lyx: 1.0,
        lyy: 2.0,
        mu: 0.5,
        alpha: None,
        dx: 1.0,
        dy: 1.0,
    };
    match AgpParams::paper(&k).unwrap() {
        AgpParams::StronglyConcave { rho, eta } => {
            close1(rho, 0.5 / 16.0, "rho = mu/(4 Lyy^2)");
            // eta = 2 max{2, rho + 4/(rho mu^2)} = 2 (1/32 + 4 32 4) = 2 (1/32 + 512)
            close1(eta, 2.0 * (1.0 / 32.0 + 512.0), "eta");
        }
        other => panic!("expected Thm 3.1 parameters, got {other:?}"),
    }
}

#[test]
fn short_step_guards() {
    let y = [1.0, 0.0];
    let u = [0.0, 1.0];
    // u = y: 0 whatever the gradient
    assert_eq!(short_step(&[5.0, 7.0], &y, &y, 1.0, true), 0.0);
    // zero curvature: the model is linear; 1 when g'(u - y) > 0, 0 otherwise
    assert_eq!(short_step(&[0.0, 1.0], &y, &u, 0.0, true), 1.0);
    assert_eq!(short_step(&[1.0, 0.0], &y, &u, 0.0, true), 0.0);
    // interior and clipped
    assert_eq!(short_step(&[0.0, 1.0], &y, &u, 1.0, true), 0.5);
    assert_eq!(short_step(&[0.0, 1.0], &y, &u, 0.25, true), 1.0);
    assert_eq!(short_step(&[0.0, 1.0], &y, &u, 0.25, false), 2.0);
    // NaN propagates (f64::min would hide it)
    assert!(short_step(&[f64::NAN, 1.0], &y, &u, 1.0, true).is_nan());
    // R-PDCG candidate A: clipped, zero curvature
    assert_eq!(candidate_a(1.0, 8.0, 1.0), 1.0);
    assert_eq!(candidate_a(1.0, 2.0, 1.0), 0.5);
    assert_eq!(candidate_a(1.0, 2.0, 0.0), 1.0);
    assert_eq!(candidate_a(1.0, 0.0, 0.0), 0.0);
}

// ------------------------------------------------------------------------------------------
// construction errors

#[test]
fn zero_smoothing_needs_strong_concavity() {
    let q = tiny(simplex(), simplex(), [0.0, 0.0]); // mu = 0
    let k = q.constants();
    for alg in [Algorithm::LmoLmo, Algorithm::LmoPo, Algorithm::PoLmo] {
        let e = DualSmoothing::new(alg, harmonic(), Schedule::Zero, &k)
            .err()
            .expect("C = 0 with mu = 0 must be rejected");
        assert!(e.to_string().contains("mu"), "{e}");
        assert!(DualSmoothing::new(alg, harmonic(), Schedule::Constant(0.0), &k).is_err());
    }
    let o = Options {
        beta0: Some(0.0),
        ..Default::default()
    };
    for name in ["lmo-lmo", "lmo-po", "po-lmo"] {
        let e = registry::build(name, &q, &o).err().expect("rejected");
        assert!(e.to_string().contains("mu > 0"), "{e}");
    }
    // with mu > 0 the same request is fine
    let inst = spec("quadratic/nc-sc:dx=3,dy=2,seed=1");
    for name in ["lmo-lmo", "lmo-po", "po-lmo"] {
        registry::build(name, inst.problem.as_ref(), &o).unwrap();
    }
}

#[test]
fn registry_rejects_what_an_algorithm_does_not_take() {
    let q = tiny(simplex(), simplex(), [0.0, 0.0]);
    let e = registry::build("nope", &q, &Options::default())
        .err()
        .unwrap();
    assert!(e.to_string().contains("unknown algorithm"), "{e}");
    let a = Options {
        a: Some(0.5),
        ..Default::default()
    };
    assert!(registry::build("sp-fw", &q, &a).is_err());
    assert!(registry::build("r-pdcg", &q, &a).is_err());
    let h = Options {
        horizon: Some(10),
        ..Default::default()
    };
    assert!(registry::build("lmo-lmo", &q, &h).is_err());
    // R-PDCG needs a strongly convex Y
    let e = registry::build("r-pdcg", &q, &Options::default())
        .err()
        .unwrap();
    assert!(e.to_string().contains("strongly convex"), "{e}");
    // beta_t = 0 case with C > 0 but no exponent
    let inst = spec("quadratic/nc-sc:dx=3,dy=2,seed=1");
    let c = Options {
        beta0: Some(1.0),
        ..Default::default()
    };
    assert!(registry::build("lmo-lmo", inst.problem.as_ref(), &c).is_err());
    let both = Options {
        a: Some(0.5),
        tau: Some(harmonic()),
        ..Default::default()
    };
    assert!(registry::build("lmo-lmo", &q, &both).is_err());
    let bad = Options {
        a: Some(f64::NAN),
        ..Default::default()
    };
    assert!(registry::build("lmo-lmo", &q, &bad).is_err());
}

// ------------------------------------------------------------------------------------------
// long runs on random instances: invariants and oracle counts, with negative controls

fn spec(s: &str) -> Instance {
    s.parse::<GeneratorSpec>().unwrap().generate().unwrap()
}

/// Which steps of an algorithm are LMO steps (tau, gamma in [0,1] there).
fn lmo_blocks(name: &str) -> (bool, bool) {
    match name {
        "lmo-lmo" | "sp-fw" | "r-pdcg" => (true, true),
        "lmo-po" | "cg-rpga" => (true, false),
        "po-lmo" => (false, true),
        _ => (false, false),
    }
}

/// Runs `iters` iterations and returns the first violated property: a non-completed run, an
/// infeasible iterate, tau or gamma outside [0,1] on an LMO step, an increasing beta, or
/// oracle counts other than `profile_of`'s definition.
fn check_run(
    problem: &dyn SaddleProblem,
    x0: &[f64],
    y0: &[f64],
    solver: &mut dyn Solver,
    profile_of: &str,
    iters: usize,
) -> Result<(), String> {
    let (lmo_x, lmo_y) = lmo_blocks(profile_of);
    let mut violation: Option<String> = None;
    let mut last_beta = f64::INFINITY;
    let config = RunConfig::new(iters);
    let mut observe = |v: &StepView| {
        if violation.is_some() {
            return;
        }
        let t = v.t;
        if !problem.x_set().contains(v.x, 1e-9) {
            violation = Some(format!("x_{} infeasible", t + 1));
        } else if !problem.y_set().contains(v.y, 1e-9) {
            violation = Some(format!("y_{} infeasible", t + 1));
        } else if lmo_y && !(0.0..=1.0).contains(&v.info.gamma) {
            violation = Some(format!("gamma_{t} = {} outside [0,1]", v.info.gamma));
        } else if lmo_x && !(0.0..=1.0).contains(&v.info.tau) {
            violation = Some(format!("tau_{t} = {} outside [0,1]", v.info.tau));
        } else if v.info.beta > last_beta {
            violation = Some(format!(
                "beta_{t} = {} > beta_{} = {last_beta}",
                v.info.beta,
                t - 1
            ));
        }
        last_beta = v.info.beta;
    };
    let trace = run_observed(problem, x0, y0, solver, &config, &mut observe);
    if let Some(v) = violation {
        return Err(v);
    }
    if trace.status != Status::Completed {
        return Err(format!("status {:?}", trace.status));
    }
    registry::find(profile_of)
        .unwrap()
        .profile
        .check(trace.iterations as u64, &trace.oracle_calls)
}

#[test]
fn long_runs_on_every_setting_keep_invariants_and_oracle_counts() {
    let iters = 10_000;
    let mut ran = 0;
    for setting in Setting::all() {
        let mut families = vec![Family::Quadratic];
        if !setting.convex {
            families.push(Family::Cosine);
        } else {
            families.push(Family::Saddle);
        }
        for family in families {
            let g = GeneratorSpec::new(family, setting, 5, 4, 11);
            let inst = g.generate().unwrap();
            let p = inst.problem.as_ref();
            for info in registry::ALGORITHMS.iter() {
                let mut built = match info.build(p, &Options::default()) {
                    Ok(b) => b,
                    Err(e) => {
                        // the only refusals: R-PDCG without a strongly convex Y
                        assert!(
                            info.name == "r-pdcg" && !setting.sc_y,
                            "{} on {g}: {e}",
                            info.name
                        );
                        continue;
                    }
                };
                check_run(
                    p,
                    &inst.x0,
                    &inst.y0,
                    built.solver.as_mut(),
                    info.name,
                    iters,
                )
                .unwrap_or_else(|e| panic!("{} on {g}: {e}", info.name));
                ran += 1;
            }
        }
    }
    assert!(ran >= 16 * 6, "only {ran} runs");
}

fn broken(fault: Fault, inst: &Instance) -> Box<dyn Solver> {
    let k = inst.problem.constants();
    let s = DualSmoothing::lmo_lmo(
        Schedule::Anytime { c: 1.0, a: 0.8 },
        Schedule::Anytime { c: 1.0, a: 0.2 },
        &k,
    )
    .unwrap();
    saddlefw::solvers::control::with_fault(s, fault)
}

#[test]
fn negative_control_an_extra_projection_breaks_the_count_check() {
    let inst = spec("quadratic/nc-c+sc:dx=5,dy=4,seed=3");
    let p = inst.problem.as_ref();
    let mut good = broken(Fault::None, &inst);
    check_run(p, &inst.x0, &inst.y0, &mut good, "lmo-lmo", 200).unwrap();
    let mut bad = broken(Fault::ExtraProjection, &inst);
    let e = check_run(p, &inst.x0, &inst.y0, &mut bad, "lmo-lmo", 200).unwrap_err();
    assert!(e.contains("proj_x: expected 0, got 200"), "{e}");
    // an LMO-PO run does not pass for LMO-LMO either (one projection on Y per iteration)
    let mut lmo_po = registry::build("lmo-po", p, &Options::default())
        .unwrap()
        .solver;
    assert!(check_run(p, &inst.x0, &inst.y0, lmo_po.as_mut(), "lmo-lmo", 50).is_err());
}

#[test]
fn negative_control_unclipped_gamma_breaks_the_step_and_feasibility_checks() {
    // the tiny instance has ratio 3 at t = 1 (see the hand-computed steps)
    let q = tiny(simplex(), simplex(), [0.0, 0.0]);
    let k = q.constants();
    let s = DualSmoothing::lmo_lmo(harmonic(), harmonic(), &k).unwrap();
    let mut bad = saddlefw::solvers::control::with_fault(s, Fault::GammaUnclipped);
    let e = check_run(&q, &[0.5, 0.5], &[1.0, 0.0], &mut bad, "lmo-lmo", 10).unwrap_err();
    assert!(e.contains("infeasible") || e.contains("gamma"), "{e}");
    // and on a random instance
    let inst = spec("quadratic/nc-c+sc:dx=5,dy=4,seed=3");
    let mut bad = broken(Fault::GammaUnclipped, &inst);
    let e = check_run(
        inst.problem.as_ref(),
        &inst.x0,
        &inst.y0,
        &mut bad,
        "lmo-lmo",
        10_000,
    )
    .unwrap_err();
    assert!(e.contains("infeasible") || e.contains("gamma"), "{e}");
}

/// Delegates to a real solver but reports an increasing beta_t.
struct IncreasingBeta(Box<dyn Solver>);

impl Solver for IncreasingBeta {
    fn name(&self) -> &'static str {
        "increasing-beta"
    }
    fn init(&mut self, p: &dyn SaddleProblem, x0: &[f64], y0: &[f64]) {
        self.0.init(p, x0, y0)
    }
    fn step(&mut self, p: &dyn SaddleProblem, t: usize) -> StepInfo {
        let mut i = self.0.step(p, t);
        i.beta = t as f64;
        i
    }
    fn x(&self) -> &[f64] {
        self.0.x()
    }
    fn y(&self) -> &[f64] {
        self.0.y()
    }
    fn beta_at(&self, t: usize) -> f64 {
        t as f64
    }
}

#[test]
fn negative_control_increasing_beta_is_caught() {
    let inst = spec("quadratic/nc-c:dx=5,dy=4,seed=3");
    let mut bad = IncreasingBeta(broken(Fault::None, &inst));
    let e = check_run(
        inst.problem.as_ref(),
        &inst.x0,
        &inst.y0,
        &mut bad,
        "lmo-lmo",
        10,
    )
    .unwrap_err();
    assert!(e.contains("beta_1"), "{e}");
}

#[test]
fn counting_wrapper_counts_each_oracle_separately() {
    let inst = spec("quadratic/c-c:dx=4,dy=3,seed=5");
    let c = Counting::new(inst.problem.as_ref());
    let (mut gx, mut gy) = (vec![0.0; 4], vec![0.0; 3]);
    c.grads(&inst.x0, &inst.y0, &mut gx, &mut gy);
    c.grad_y(&inst.x0, &inst.y0, &mut gy);
    c.x_set().project(&inst.x0, &mut gx);
    c.y_set().lmo(&inst.y0, &mut gy);
    c.y_set().lmo(&inst.y0, &mut gy);
    let _ = c.value(&inst.x0, &inst.y0);
    let _ = c.f(&inst.x0);
    let n = c.counts();
    assert_eq!(
        (n.grad_x, n.grad_y, n.proj_x, n.proj_y, n.lmo_x, n.lmo_y, n.value, n.inner),
        (1, 2, 1, 0, 0, 2, 1, 1)
    );
    assert_eq!(c.nonfinite_gradient(), None);
}

// ------------------------------------------------------------------------------------------
// the run loop

#[test]
fn checkpoints_follow_the_rule_and_include_the_last_iterate() {
    let inst = spec("quadratic/c-sc:dx=4,dy=3,seed=2");
    let ts = |rule: CheckpointRule, n: usize| -> Vec<usize> {
        let mut s = registry::build("lmo-po", inst.problem.as_ref(), &Options::default())
            .unwrap()
            .solver;
        let mut c = RunConfig::new(n);
        c.checkpoints = rule;
        run(&inst, s.as_mut(), &c)
            .checkpoints
            .iter()
            .map(|c| c.t)
            .collect()
    };
    assert_eq!(ts(CheckpointRule::Log2, 10), [0, 1, 2, 4, 8, 10]);
    assert_eq!(ts(CheckpointRule::Log2, 8), [0, 1, 2, 4, 8]);
    assert_eq!(ts(CheckpointRule::All, 5), [0, 1, 2, 3, 4, 5]);
}

#[test]
fn checkpoint_measures_are_those_of_the_iterate_with_beta_t() {
    let inst = spec("quadratic/nc-c:dx=4,dy=3,seed=2");
    let p = inst.problem.as_ref();
    let mut built = registry::build("lmo-lmo", p, &Options::default()).unwrap();
    let mut c = RunConfig::new(4);
    c.checkpoints = CheckpointRule::All;
    c.sigma = 0.5;
    let trace = run(&inst, built.solver.as_mut(), &c);
    // the solver now sits at t = 4: its measures must equal the last checkpoint's
    let s = built.solver.as_ref();
    let m = saddlefw::measures::evaluate(p, s.x(), s.y(), s.beta_at(4), &inst.y0, 0.5);
    let last = trace.last().unwrap();
    assert_eq!((last.t, last.beta), (4, 5f64.powf(-1.0 / 6.0)));
    assert_eq!(
        (
            last.measures.gx_lmo,
            last.measures.gx_po,
            last.measures.gy,
            last.measures.h
        ),
        (m.gx_lmo, m.gx_po, m.gy, m.h)
    );
    // the first checkpoint is the start: G_Y^LMO at (x0, y0)
    let g0 = saddlefw::measures::gy_lmo(p, &inst.x0, &inst.y0);
    assert_eq!(trace.checkpoints[0].measures.gy_lmo, g0);
    // measures were not counted as oracle calls
    assert_eq!(trace.oracle_calls.value + trace.oracle_calls.inner, 0);
    assert_eq!(trace.oracle_calls.lmo_x, 4);
}

#[test]
fn a_time_limit_stops_the_run_and_measures_where_it_stopped() {
    let inst = spec("quadratic/nc-c:dx=4,dy=3,seed=2");
    let mut s = registry::build("lmo-lmo", inst.problem.as_ref(), &Options::default())
        .unwrap()
        .solver;
    let mut c = RunConfig::new(1_000_000);
    c.time_limit = Some(1e-12);
    let trace = run(&inst, s.as_mut(), &c);
    assert_eq!(trace.status, Status::TimeLimit);
    assert_eq!(trace.iterations, 1);
    assert_eq!(trace.last().unwrap().t, 1);
}

/// A quadratic altered for the divergence tests: `grad_x` turns NaN from gradient call
/// `nan_after` on (`usize::MAX`: never), and its step gradients come with `report` (`None`: no
/// report, the caller checks them).
struct Altered {
    q: Box<dyn SaddleProblem>,
    nan_after: usize,
    report: Option<bool>,
    calls: std::sync::atomic::AtomicUsize,
}

impl Altered {
    fn new(q: Box<dyn SaddleProblem>, nan_after: usize, report: Option<bool>) -> Self {
        let calls = Default::default();
        Altered {
            q,
            nan_after,
            report,
            calls,
        }
    }
}

impl SaddleProblem for Altered {
    fn name(&self) -> String {
        "altered".into()
    }
    fn x_set(&self) -> &dyn ConvexSet {
        self.q.x_set()
    }
    fn y_set(&self) -> &dyn ConvexSet {
        self.q.y_set()
    }
    fn value(&self, x: &[f64], y: &[f64]) -> f64 {
        self.q.value(x, y)
    }
    fn grad_x(&self, x: &[f64], y: &[f64], out: &mut [f64]) {
        self.q.grad_x(x, y, out);
        let call = self
            .calls
            .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        if call >= self.nan_after {
            out[0] = f64::NAN;
        }
    }
    fn grad_y(&self, x: &[f64], y: &[f64], out: &mut [f64]) {
        self.q.grad_y(x, y, out)
    }
    fn step_grads_checked(
        &self,
        x: &[f64],
        y: &[f64],
        gx: &mut [f64],
        gy: &mut [f64],
    ) -> Option<bool> {
        self.step_grads(x, y, gx, gy);
        self.report
    }
    fn constants(&self) -> Constants {
        self.q.constants()
    }
    fn convex_in_x(&self) -> bool {
        self.q.convex_in_x()
    }
    fn y_model(&self, x: &[f64]) -> Option<YModel> {
        self.q.y_model(x)
    }
}

/// The oracle counter takes a problem's report on its step gradients
/// (`SaddleProblem::step_grads_checked`) instead of a pass of its own: a report of a non-finite
/// `gx` is flagged although `gx` is finite, and plain `grads` are still checked by the pass.
#[test]
fn the_counter_takes_the_problems_report_on_step_gradients() {
    let inst = spec("quadratic/nc-c:dx=4,dy=3,seed=2");
    let p = Altered::new(inst.problem, usize::MAX, Some(false));
    let (mut gx, mut gy) = (vec![0.0; 4], vec![0.0; 3]);
    let c = Counting::new(&p);
    c.grads(&inst.x0, &inst.y0, &mut gx, &mut gy);
    assert_eq!(c.nonfinite_gradient(), None);
    c.step_grads(&inst.x0, &inst.y0, &mut gx, &mut gy);
    assert!(gx.iter().chain(&gy).all(|v| v.is_finite()));
    assert_eq!(c.nonfinite_gradient(), Some("grad_x"));
    assert_eq!((c.counts().grad_x, c.counts().grad_y), (2, 2));
}

#[test]
fn a_non_finite_gradient_is_a_divergence_with_its_iteration() {
    let inst = spec("quadratic/nc-c:dx=4,dy=3,seed=2");
    let k = inst.problem.constants();
    // gradient calls: the measure at t = 0 (#0), step 0 (#1), measure t = 1 (#2), step 1 (#3),
    // measure t = 2 (#4), step 2 (#5, poisoned): iteration 2 diverges.
    let p = Altered::new(inst.problem, 5, None);
    // LMO on X hides a NaN gradient (the argmin still returns a vertex): the wrapper catches it
    let mut s = DualSmoothing::lmo_lmo(harmonic(), harmonic(), &k).unwrap();
    let trace = run_problem(&p, &inst.x0, &inst.y0, &mut s, &RunConfig::new(100));
    match &trace.status {
        Status::Diverged { iteration, reason } => {
            assert_eq!(*iteration, 2);
            assert!(reason.contains("grad_x"), "{reason}");
        }
        other => panic!("expected a divergence, got {other:?}"),
    }
    assert_eq!(trace.iterations, 2);
    let ts: Vec<usize> = trace.checkpoints.iter().map(|c| c.t).collect();
    assert_eq!(ts, [0, 1, 2]);
    assert!(trace
        .checkpoints
        .iter()
        .all(|c| c.measures.gx_lmo.is_finite()));
    // the JSON is still written and read back
    let back = saddlefw::trace::Trace::from_json(&trace.to_json(), "test").unwrap();
    assert_eq!(back.status, trace.status);
}

#[test]
fn same_inputs_give_the_same_trace_apart_from_timings() {
    for name in ["lmo-lmo", "po-lmo", "agp", "cg-rpga"] {
        let json = || {
            let inst = spec("quadratic/c-c+sc:dx=5,dy=4,seed=9");
            let mut built =
                registry::build(name, inst.problem.as_ref(), &Options::default()).unwrap();
            run(&inst, built.solver.as_mut(), &RunConfig::new(300))
                .without_timings()
                .to_json()
        };
        let (a, b) = (json(), json());
        assert_eq!(a, b, "{name}");
        assert!(a.contains("\"wall_time_s\": 0.0"));
    }
}

// ------------------------------------------------------------------------------------------
// schedules

fn schedule_strategy() -> impl Strategy<Value = Schedule> {
    let num = prop_oneof![
        0.0..10.0f64,
        (1e-300..1e-4f64),
        (1e15..1e300f64),
        Just(0.1),
        Just(1.0 / 3.0)
    ];
    let pos = prop_oneof![1e-6..100.0f64, Just(10.0), Just(1e-200)];
    prop_oneof![
        Just(Schedule::Zero),
        num.clone().prop_map(Schedule::Constant),
        (num.clone(), num.clone()).prop_map(|(c, a)| Schedule::Anytime { c, a }),
        (num.clone(), pos.clone(), num.clone()).prop_map(|(c, s, a)| Schedule::Shifted { c, s, a }),
        (
            prop_oneof![Just(0.2), Just(0.75), pos.clone()],
            pos.clone(),
            0.0..1.0f64,
            0.0..1.0f64,
            num.clone(),
            (num.clone(), num.clone(), pos)
        )
            .prop_map(
                |(f, big_a, a, b, c, (lxx, lyx, mu))| Schedule::PoLmo(PoLmoTau {
                    factor: f,
                    big_a,
                    a,
                    b,
                    c,
                    lxx,
                    lyx,
                    mu,
                    shift: 0.0
                })
            )
            // the parser refuses a first step that is not a positive number (underflow)
            .prop_filter("tau_0 > 0", |s| s.at(0) > 0.0),
    ]
}

proptest! {
    #![proptest_config(crate::common::config(256, "schedules.txt"))]
    #[test]
    fn schedules_round_trip_exactly(s in schedule_strategy()) {
        let text = s.to_string();
        let back: Schedule = text.parse().unwrap();
        prop_assert_eq!(back, s);
        prop_assert_eq!(back.to_string(), text);
    }

    #[test]
    fn schedules_are_non_increasing(s in schedule_strategy(), t in 0usize..10_000) {
        prop_assert!(s.at(t + 1) <= s.at(t));
    }

    /// With the 3/4 factor, G_2 >= 1/16 whatever the constants (claims.md 2.3).
    #[test]
    fn g2_of_the_three_quarter_schedule_is_at_least_one_sixteenth(
        lxx in 0.0..100.0f64, lyx in 1e-3..100.0f64, mu in 0.0..10.0f64,
        big_a in 1e-3..10.0f64, a in 0.0..1.0f64, b in 0.0..1.0f64, c in 1e-3..10.0f64,
    ) {
        let k = Constants { lxx, lyx, lyy: mu, mu, alpha: None, dx: 1.0, dy: 1.0 };
        let p = PoLmoTau::new(0.75, big_a, a, b, c, &k).unwrap();
        let g = g_constant(GKind::G2, &Schedule::PoLmo(p), &p.beta(), lxx, lyx, mu, 200);
        prop_assert!(g >= 1.0 / 16.0 - 1e-12, "G_2 = {}", g);
    }
}

#[test]
fn schedule_values_and_parse_errors() {
    let s: Schedule = "shifted(c=0.01,s=10,a=0.2)".parse().unwrap();
    close1(s.at(0), 0.01 * 10f64.powf(-0.2), "shifted");
    let s: Schedule = "anytime(a=0.5,c=2)".parse().unwrap();
    assert_eq!(s.to_string(), "anytime(c=2,a=0.5)");
    close1(s.at(3), 1.0, "anytime");
    assert_eq!("const(0.001)".parse::<Schedule>().unwrap().at(7), 0.001);
    for bad in [
        "",
        "anytime",
        "anytime(c=1)",
        "anytime(c=1,a=1,a=2)",
        "anytime(c=1,a=x)",
        "anytime(c=-1,a=1)",
        "anytime(c=1,a=NaN)",
        "shifted(c=1,s=0,a=1)",
        "const(inf)",
        "power(c=1,a=1)",
        "po-lmo(f=0.2,A=1,a=0.5,b=0.5,C=0,lxx=1,lyx=1,mu=0)",
    ] {
        let e = bad.parse::<Schedule>().err();
        assert!(e.is_some(), "{bad:?} parsed");
        assert!(!e.unwrap().to_string().contains('\n'));
    }
}

#[test]
fn po_lmo_schedule_formula_and_c_zero_repair() {
    let k = Constants {
        lxx: 2.0,
        lyx: 3.0,
        lyy: 1.0,
        mu: 0.5,
        alpha: None,
        dx: 1.0,
        dy: 1.0,
    };
    let p = PoLmoTau::new(0.2, 1.5, 0.5, 0.25, 2.0, &k).unwrap();
    // tau_3 = 0.2 / (1.5 * 4^0.5 + 5 + 13 * 9 * 4^0.25 / 4)
    close1(
        p.at(3),
        0.2 / (3.0 + 5.0 + 117.0 * 2f64.sqrt() / 4.0),
        "tau_3",
    );
    let r = PoLmoTau::new(0.75, 1.0, 0.5, 0.25, 0.0, &k).unwrap();
    // C = 0: 13 Lyx^2/(2 mu) = 117
    close1(r.at(0), 0.75 / (1.0 + 5.0 + 117.0), "tau_0 repaired");
    assert_eq!(r.beta(), Schedule::Zero);
    let k0 = Constants { mu: 0.0, ..k };
    assert!(PoLmoTau::new(0.75, 1.0, 0.5, 0.25, 0.0, &k0).is_err());
}

#[test]
fn g1_is_not_guaranteed_positive_for_b_one_third() {
    // claims.md 2.3 / D20: Lxx = 0, A -> 0, b = 1/3 gives G_1 -> 1/4 - 2^(1/3)/5 < 0
    let k = Constants {
        lxx: 0.0,
        lyx: 1.0,
        lyy: 0.0,
        mu: 0.0,
        alpha: None,
        dx: 1.0,
        dy: 1.0,
    };
    let p = PoLmoTau::new(0.2, 1e-9, 2.0 / 3.0, 1.0 / 3.0, 1.0, &k).unwrap();
    let g1 = g_constant(
        GKind::G1,
        &Schedule::PoLmo(p),
        &p.beta(),
        0.0,
        1.0,
        0.0,
        100,
    );
    assert!(g1 < 0.0 && g1 > -0.003, "G_1 = {g1}");
    // the t = 0 term with A = 1e-9 differs from the A -> 0 limit by O(A)
    assert!(
        (g1 - (0.25 - 2f64.powf(1.0 / 3.0) / 5.0)).abs() < 1e-8,
        "G_1 = {g1}"
    );
    // with b = 0.3 < log2(5/4) it is positive
    let p = PoLmoTau::new(0.2, 1e-9, 2.0 / 3.0, 0.3, 1.0, &k).unwrap();
    assert!(
        g_constant(
            GKind::G1,
            &Schedule::PoLmo(p),
            &p.beta(),
            0.0,
            1.0,
            0.0,
            100
        ) > 0.0
    );
}

#[test]
fn theorem_table_covers_every_algorithm_and_setting() {
    assert_eq!(theorem_cases().len(), 19);
    let algos = ["lmo-lmo", "lmo-po", "po-lmo"];
    for a in algos {
        for s in Setting::all() {
            let (case, note) =
                theorem_case(a, &s.to_string()).unwrap_or_else(|| panic!("no case for {a} {s}"));
            assert_eq!(case.algorithm, a);
            let fallback =
                (a == "lmo-po" && s.sc_y) || (a == "po-lmo" && s.to_string() == "c-c+sc");
            assert_eq!(note.is_some(), fallback, "{a} {s}");
            // beta_t = 0 exactly in the strongly concave settings
            assert_eq!(case.b.is_none(), s.strongly_concave, "{a} {s}");
            assert!(case.label.contains(":"), "{}", case.label);
        }
    }
    assert_eq!(
        theorem_case("lmo-lmo", "nc-c").unwrap().0.label,
        "theorem:fw-fw-unified-nc-c-convergence (i) fw-fw:nc-c"
    );
}

#[test]
fn defaults_follow_the_theorem_case_of_the_setting() {
    let inst = spec("quadratic/nc-c+sc:dx=4,dy=3,seed=1");
    let b = registry::build("lmo-lmo", inst.problem.as_ref(), &Options::default()).unwrap();
    assert_eq!(
        b.theorem_case.as_deref(),
        Some("theorem:fw-fw-unified-nc-c-convergence (iii) fw-fw:nc-c+sc")
    );
    assert_eq!(
        b.solver.schedule(),
        "tau=anytime(c=1,a=0.8); beta=anytime(c=1,a=0.2)"
    );
    assert_eq!(b.default_sigma, 1.0);
    // PO-LMO: appendix schedule, 3/4 factor on SC Y, sigma = tau_0, G_2 reported
    let b = registry::build("po-lmo", inst.problem.as_ref(), &Options::default()).unwrap();
    let g = b.g.expect("G reported");
    assert_eq!(g.kind, GKind::G2);
    assert!(b
        .solver
        .schedule()
        .starts_with("tau=po-lmo(f=0.75,A=1,a=0.6,b=0.2,C=1,"));
    close1(b.default_sigma, g.tau.at(0), "sigma = tau_0");
    // overrides
    let o = Options {
        a: Some(0.5),
        tau0: Some(2.0),
        ..Default::default()
    };
    let b = registry::build("po-lmo", inst.problem.as_ref(), &o).unwrap();
    assert!(b.g.is_none());
    assert!(b.solver.schedule().starts_with("tau=anytime(c=2,a=0.5)"));
    assert_eq!(b.default_sigma, 2.0);
}

/// A user-written solver needs only the narrow trait: a name, `init`, `step` and the iterates
/// (no smoothing, no schedule, no provenance), and runs through the one harness loop with
/// every measure. Here: simultaneous Frank-Wolfe on both blocks with step 2/(t+2).
#[test]
fn a_user_solver_implements_only_the_narrow_trait() {
    struct JointFw {
        x: Vec<f64>,
        y: Vec<f64>,
    }
    impl Solver for JointFw {
        fn name(&self) -> &'static str {
            "joint-fw"
        }
        fn init(&mut self, _p: &dyn SaddleProblem, x0: &[f64], y0: &[f64]) {
            self.x = x0.to_vec();
            self.y = y0.to_vec();
        }
        fn step(&mut self, p: &dyn SaddleProblem, t: usize) -> StepInfo {
            let (mut gx, mut gy) = (vec![0.0; self.x.len()], vec![0.0; self.y.len()]);
            p.grads(&self.x, &self.y, &mut gx, &mut gy);
            let neg: Vec<f64> = gy.iter().map(|g| -g).collect();
            let (mut v, mut u) = (vec![0.0; self.x.len()], vec![0.0; self.y.len()]);
            p.x_set().lmo(&gx, &mut v);
            p.y_set().lmo(&neg, &mut u);
            let step = 2.0 / (t as f64 + 2.0);
            for (xi, vi) in self.x.iter_mut().zip(&v) {
                *xi += step * (vi - *xi);
            }
            for (yi, ui) in self.y.iter_mut().zip(&u) {
                *yi += step * (ui - *yi);
            }
            StepInfo {
                tau: step,
                beta: 0.0,
                gamma: step,
            }
        }
        fn x(&self) -> &[f64] {
            &self.x
        }
        fn y(&self) -> &[f64] {
            &self.y
        }
    }
    let inst = "saddle/c-c:dx=5,dy=4,seed=2"
        .parse::<GeneratorSpec>()
        .unwrap()
        .generate()
        .unwrap();
    let mut s = JointFw {
        x: vec![],
        y: vec![],
    };
    assert_eq!(s.beta_at(3), 0.0, "no smoothing by default");
    let trace = saddlefw::harness::run(&inst, &mut s, &saddlefw::harness::RunConfig::new(256));
    assert_eq!(trace.status, Status::Completed);
    assert_eq!(trace.algorithm, "joint-fw");
    let (first, last) = (&trace.checkpoints[0], trace.checkpoints.last().unwrap());
    assert!(last.t >= 128, "{}", last.t);
    // the harness measured every gap; the duality gap of a convex-concave problem shrinks
    let gap = |c: &saddlefw::trace::Checkpoint| c.measures.gx_lmo + c.measures.gy;
    assert!(
        gap(last).is_finite() && gap(last) < gap(first),
        "{} vs {}",
        gap(last),
        gap(first)
    );
    assert!(
        inst.problem.x_set().contains(s.x(), 1e-9) && inst.problem.y_set().contains(s.y(), 1e-9)
    );
}

/// A test-only solver (issue 14: adding a solver is one file plus one registry entry). This
/// module is the "file": Frank-Wolfe on X with step 2/(t+2), y kept at y0.
mod primal_only_fw {
    use saddlefw::problems::SaddleProblem;
    use saddlefw::solvers::{steps, Solver, StepInfo};

    #[derive(Default)]
    pub struct PrimalOnlyFw {
        x: Vec<f64>,
        y: Vec<f64>,
        gx: Vec<f64>,
        gy: Vec<f64>,
        v: Vec<f64>,
    }

    impl Solver for PrimalOnlyFw {
        fn name(&self) -> &'static str {
            "test-primal-fw"
        }
        fn init(&mut self, _p: &dyn SaddleProblem, x0: &[f64], y0: &[f64]) {
            self.x = x0.to_vec();
            self.y = y0.to_vec();
            self.gx = vec![0.0; x0.len()];
            self.gy = vec![0.0; y0.len()];
            self.v = vec![0.0; x0.len()];
        }
        fn step(&mut self, p: &dyn SaddleProblem, t: usize) -> StepInfo {
            let gamma = 2.0 / (t as f64 + 2.0);
            p.grads(&self.x, &self.y, &mut self.gx, &mut self.gy);
            steps::fw_step(p.x_set(), &mut self.x, &self.gx, gamma, &mut self.v);
            StepInfo {
                tau: gamma,
                beta: 0.0,
                gamma: 0.0,
            }
        }
        fn x(&self) -> &[f64] {
            &self.x
        }
        fn y(&self) -> &[f64] {
            &self.y
        }
    }
}

#[test]
fn a_solver_registered_through_the_public_registry_runs_through_the_harness() {
    use saddlefw::solvers::{AlgorithmInfo, Built, OracleProfile};
    // the "one registry entry"
    let entry = AlgorithmInfo::new(
        "test-primal-fw",
        "test only: Frank-Wolfe on X, y fixed",
        "tests/solvers.rs",
        "test",
        OracleProfile {
            lmo_x: 1,
            lmo_y: 0,
            proj_x: 0,
            proj_y: 0,
            grad_x: 1,
            grad_y: 1,
        },
        &[],
        |_, _| {
            Ok(Built::plain(Box::new(
                primal_only_fw::PrimalOnlyFw::default(),
            )))
        },
    );
    let info = registry::register(entry).unwrap();
    assert!(registry::algorithms()
        .iter()
        .any(|a| a.name == "test-primal-fw"));
    assert_eq!(
        registry::ALGORITHMS.len(),
        7,
        "the built-in list is unchanged"
    );
    let inst = "quadratic/c-c:dx=6,dy=4,seed=2"
        .parse::<GeneratorSpec>()
        .unwrap()
        .generate()
        .unwrap();
    let p = inst.problem.as_ref();
    let mut built = registry::build("test-primal-fw", p, &Options::default()).unwrap();
    let config = RunConfig {
        iterations: 200,
        time_limit: None,
        checkpoints: CheckpointRule::Log2,
        sigma: built.default_sigma,
    };
    let trace = run(&inst, built.solver.as_mut(), &config);
    assert_eq!(trace.status, Status::Completed);
    assert_eq!(trace.algorithm, "test-primal-fw");
    // the harness measured it like any solver, and its oracle use is its entry's profile
    info.profile
        .check(trace.iterations as u64, &trace.oracle_calls)
        .unwrap();
    let first = trace.checkpoints.first().unwrap().measures.gx_lmo;
    let last = trace.last().unwrap().measures.gx_lmo;
    assert!(last < first, "G_X^LMO {first} -> {last}");
    // an option it does not take, a taken name and a malformed name are refused
    let o = Options {
        a: Some(0.5),
        ..Default::default()
    };
    assert!(registry::build("test-primal-fw", p, &o).is_err());
    let again = AlgorithmInfo::new(
        "lmo-lmo",
        "",
        "",
        "",
        info.profile,
        &[],
        |_, _| unreachable!(),
    );
    assert!(registry::register(again).is_err());
    let bad = AlgorithmInfo::new(
        "Bad Name",
        "",
        "",
        "",
        info.profile,
        &[],
        |_, _| unreachable!(),
    );
    assert!(registry::register(bad).is_err());
}
