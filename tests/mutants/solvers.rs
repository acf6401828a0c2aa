//! Mutation campaign (issue 18): tests aimed at a class of surviving mutants in `src/solvers`.

use super::{bilinear_1d, close, quadratic_1d};
use saddlefw::problems::{Constants, SaddleProblem};
use saddlefw::solvers::defaults::RunSchedules;
use saddlefw::solvers::schedule::{PoLmoTau, Schedule};
use saddlefw::solvers::{registry, Control, Fault, Options, Solver, SolverSpec, StepInfo};

/// What a solver reports and does, asked through the generic `S: Solver` path: called with a
/// `Box<dyn Solver>` this goes through `<impl Solver for Box<S>>` (a call on the box itself
/// dispatches through the vtable and never reaches the forwarding impl).
fn through<S: Solver + ?Sized>(
    s: &mut S,
    p: &dyn SaddleProblem,
    x0: &[f64],
    y0: &[f64],
    steps: usize,
) -> (
    String,
    String,
    String,
    Vec<StepInfo>,
    Vec<f64>,
    Vec<f64>,
    f64,
) {
    s.init(p, x0, y0);
    let infos = (0..steps).map(|t| s.step(p, t)).collect();
    (
        s.name().to_string(),
        s.schedule(),
        s.provenance().to_string(),
        infos,
        s.x().to_vec(),
        s.y().to_vec(),
        s.beta_at(1),
    )
}

/// The same, asked of the `dyn Solver` directly (no forwarding impl).
fn direct(
    s: &mut dyn Solver,
    p: &dyn SaddleProblem,
    x0: &[f64],
    y0: &[f64],
    steps: usize,
) -> (
    String,
    String,
    String,
    Vec<StepInfo>,
    Vec<f64>,
    Vec<f64>,
    f64,
) {
    s.init(p, x0, y0);
    let infos = (0..steps).map(|t| s.step(p, t)).collect();
    (
        s.name().to_string(),
        s.schedule(),
        s.provenance().to_string(),
        infos,
        s.x().to_vec(),
        s.y().to_vec(),
        s.beta_at(1),
    )
}

/// `L = x^2/2 + x y - y^2/2` on `[-1, 1]^2` with the constants every registry entry accepts
/// (`alpha` given for R-PDCG's dual step).
fn every_entry_options() -> (saddlefw::problems::Quadratic, Options) {
    let p = bilinear_1d(1.0);
    let k = Constants {
        alpha: Some(1.0),
        ..p.constants()
    };
    let o = Options {
        constants: Some(k),
        ..Options::default()
    };
    (p, o)
}

/// Every registry solver reports its own name and provenance (by value: the registry entry's),
/// a schedule of its own form, its iterates and its beta, both directly and through the
/// `Box<S>` forwarding impl; three steps from `(1/2, -1/2)` move both iterates. Kills the
/// `name -> ""/"xyzzy"`, `provenance -> ""/"xyzzy"`, `schedule -> String::new()/"xyzzy"`,
/// `x`/`y -> Vec::leak(..)`, `init -> ()`, `step -> Default::default()` and `beta_at -> 0/1/-1`
/// mutants of `DualSmoothing`, `SpFw`, `Agp`, `Boroun` and of `<impl Solver for Box<S>>`.
#[test]
fn every_registry_solver_reports_its_identity_directly_and_through_a_box() {
    let (p, o) = every_entry_options();
    let (x0, y0) = ([0.5], [-0.5]);
    // beta_1: C 2^-b = 2 / sqrt 2 with the overrides C = 2, b = 1/2 (Algorithms 1-3), mu = 1/4
    // (R-PDCG, CG-RPGA), 0 otherwise (SP-FW: the trait's default; AGP: c_k = 0 for mu > 0)
    let paper = Options {
        beta0: Some(2.0),
        b: Some(0.5),
        ..o.clone()
    };
    let horizon = Options {
        beta0: Some(0.25),
        ..o.clone()
    };
    let sqrt2 = 2f64.sqrt();
    let forms = [
        ("lmo-lmo", "tau=anytime(c=1,", &paper, sqrt2),
        ("lmo-po", "tau=anytime(c=1,", &paper, sqrt2),
        ("po-lmo", "tau=po-lmo(", &paper, sqrt2),
        ("sp-fw", "gamma=shifted(c=2,s=2,a=1)", &o, 0.0),
        ("agp", "xu-thm-3.1: primal=const(", &o, 0.0),
        ("r-pdcg", "tau=const(", &horizon, 0.25),
        ("cg-rpga", "tau=const(", &horizon, 0.25),
    ];
    for (info, (name, form, o, beta_1)) in registry::ALGORITHMS.iter().zip(forms) {
        assert_eq!(info.name, name);
        let mut a = info.build(&p, o).unwrap().solver;
        let mut b = info.build(&p, o).unwrap().solver;
        let via_box = through(&mut a, &p, &x0, &y0, 3);
        let via_dyn = direct(b.as_mut(), &p, &x0, &y0, 3);
        assert_eq!(via_box, via_dyn, "{name}");
        let (n, schedule, provenance, infos, x, y, beta) = via_dyn;
        close(beta, beta_1, name);
        assert_eq!(n, name);
        assert_eq!(provenance, info.provenance, "{name}");
        assert!(provenance.len() > 20, "{name}: {provenance}");
        assert!(schedule.starts_with(form), "{name}: {schedule}");
        assert!(infos.iter().all(|i| i.tau > 0.0), "{name}: {infos:?}");
        assert!(x != x0 && y != y0, "{name}: {x:?} {y:?}");
        assert_eq!(x.len(), 1, "{name}");
        assert_eq!(y.len(), 1, "{name}");
    }
}

/// A solver of yours that implements only what the trait requires.
struct Minimal(Vec<f64>);

impl Solver for Minimal {
    fn name(&self) -> &'static str {
        "minimal"
    }
    fn init(&mut self, _: &dyn SaddleProblem, x0: &[f64], _: &[f64]) {
        self.0 = x0.to_vec();
    }
    fn step(&mut self, _: &dyn SaddleProblem, _: usize) -> StepInfo {
        StepInfo::default()
    }
    fn x(&self) -> &[f64] {
        &self.0
    }
    fn y(&self) -> &[f64] {
        &self.0
    }
}

/// The trait's defaults: no smoothing (`beta_t = 0`), an empty schedule and provenance, also
/// through a box (kills `Solver::beta_at -> 1/-1`, `Solver::schedule -> "xyzzy"` and
/// `Solver::provenance -> "xyzzy"`).
#[test]
fn trait_defaults_are_no_smoothing_and_empty_texts() {
    let m = Minimal(vec![]);
    assert_eq!((m.beta_at(0), m.beta_at(7)), (0.0, 0.0));
    assert_eq!((m.schedule(), m.provenance()), (String::new(), ""));
    let mut b: Box<dyn Solver> = Box::new(Minimal(vec![]));
    let (name, schedule, provenance, _, x, _, beta) =
        through(&mut b, &bilinear_1d(1.0), &[0.5], &[0.5], 1);
    assert_eq!(
        (name.as_str(), schedule.as_str(), provenance.as_str(), beta),
        ("minimal", "", "", 0.0)
    );
    assert_eq!(x, [0.5]);
}

/// The primitive steps on `[-1, 1]` by hand (kills operator swaps in `move_towards`,
/// `smoothed_gradient`, `po_step`, `short_step` and `dual_lmo_step`, and their replacement by
/// `()` or a constant):
/// * `move_towards((2, -1), (0, 3), 1/4) = (3/2, 0)`;
/// * `smoothed_gradient`: `1 - 3 (1/2 - (-3/2)) = -5`;
/// * `po_step`: `P(1/2 + 1/4 (-2)) = 0`;
/// * `short_step` with `d = u - y = (1/2, 1)`, `g = (1, 2)`: `g.d = 5/2`, `|d|^2 = 5/4`, so
///   `5/2 / (4 * 5/4) = 1/2` at curvature 4, 2 unclipped at curvature 1 (1 clipped), 1 (inf
///   unclipped) at curvature 0, 0 when `g.d = 0` or `u = y`, NaN for a NaN in g or curvature;
/// * `dual_lmo_step` from `y = 0` with `g = 2`, curvature 4: `u = LMO(-g) = 1`, gamma = 1/2.
#[test]
fn primitive_steps_by_hand() {
    use saddlefw::sets::BoxSet;
    use saddlefw::solvers::steps::*;
    let unit = BoxSet::new(vec![-1.0], vec![1.0]).unwrap();
    let mut x = [2.0, -1.0];
    move_towards(&mut x, &[0.0, 3.0], 0.25);
    assert_eq!(x, [1.5, 0.0]);
    let mut out = [0.0];
    smoothed_gradient(&[1.0], &[0.5], &[-1.5], 3.0, &mut out);
    assert_eq!(out, [-5.0]);
    let (mut x, mut z) = ([0.5], [0.0]);
    po_step(&unit, &mut x, &[-2.0], 0.25, &mut z);
    assert_eq!(x, [0.0]);
    let (g, y, u) = ([1.0, 2.0], [0.5, 0.0], [1.0, 1.0]);
    assert_eq!(short_step(&g, &y, &u, 4.0, true), 0.5);
    assert_eq!(short_step(&g, &y, &u, 1.0, false), 2.0);
    assert_eq!(short_step(&g, &y, &u, 1.0, true), 1.0);
    assert_eq!(short_step(&g, &y, &u, 0.0, true), 1.0);
    assert_eq!(short_step(&g, &y, &u, 0.0, false), f64::INFINITY);
    assert_eq!(short_step(&[0.0, 0.0], &y, &u, 0.0, true), 0.0);
    assert_eq!(short_step(&[-1.0, 0.0], &y, &u, 1.0, true), 0.0);
    assert_eq!(short_step(&g, &u, &u, 4.0, true), 0.0);
    assert!(short_step(&[f64::NAN, 2.0], &y, &u, 4.0, true).is_nan());
    assert!(short_step(&g, &y, &u, f64::NAN, true).is_nan());
    let (mut y, mut neg, mut u) = ([0.0], [0.0], [0.0]);
    assert_eq!(
        dual_lmo_step(&unit, &mut y, &[2.0], 4.0, true, &mut neg, &mut u),
        0.5
    );
    assert_eq!((y, u), ([0.5], [1.0]));
}
