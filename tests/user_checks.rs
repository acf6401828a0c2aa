//! Issue 36g: what the Rust route (`RateCheck` with a user's solver) refuses and says, as the
//! file route (`verify-iterates`) and the Python package do: an iterate outside `X x Y` or of
//! the wrong dimensions is an error of `run()` naming the solver, the job, the iteration and
//! the distance with its tolerance (the one check, `iterates::feasibility`); a factory's error
//! names the job; a diverged run's `run` gate says where and why; the rerun line reproduces
//! the sizes; the library's errors name what the library calls things. Every check with a
//! control that passes it. Sizes are tiny and one entry runs (CI time).

#[path = "../examples/own_solver/lmo_lmo.rs"]
mod lmo_lmo;

use saddlefw::generators::GeneratorSpec;
use saddlefw::prelude::*;
use saddlefw::problems::Quadratic;
use saddlefw::sets::{BoxSet, L2Ball};
use saddlefw::solvers::{registry, Options};

const ENTRY: &str = "lmo-lmo/c-sc+sc/primal";
const SMALL: TierConfig = TierConfig {
    seeds: 1,
    t_max: 32,
    dim_x: 4,
    dim_y: 3,
};

fn small(entry: &str) -> RateCheck {
    RateCheck::builtin(entry)
        .sizes(SMALL)
        .hard_instances(false)
        .jobs(1)
}

fn with_step<F>(name: &'static str, step: F) -> Result<Outcome>
where
    F: Fn(&mut [f64], usize) + Send + Sync + Copy + 'static,
{
    small(ENTRY)
        .solver_fn(name, move |_: &SolverRequest| {
            Ok(Box::new(step_fn(
                name,
                move |_: &dyn SaddleProblem, x: &mut [f64], _: &mut [f64], t| {
                    step(x, t);
                    StepInfo {
                        tau: 1.0 / (t as f64 + 1.0),
                        ..Default::default()
                    }
                },
            )) as Box<dyn Solver>)
        })
        .run()
}

/// A solver whose x() drops the first coordinate.
struct Short(Vec<f64>, Vec<f64>);

impl Solver for Short {
    fn name(&self) -> &str {
        "short"
    }
    fn init(&mut self, _: &dyn SaddleProblem, x0: &[f64], y0: &[f64]) {
        self.0 = x0[1..].to_vec();
        self.1 = y0.to_vec();
    }
    fn step(&mut self, _: &dyn SaddleProblem, _: usize) -> StepInfo {
        StepInfo::default()
    }
    fn x(&self) -> &[f64] {
        &self.0
    }
    fn y(&self) -> &[f64] {
        &self.1
    }
}

/// An iterate outside X and an x of the wrong length are errors of `run()` (as the file
/// route's exit 2), with the solver, job, entry, instance, iteration, distance and tolerance;
/// the reason is the file route's own check (`iterates::feasibility`). Control: a solver that
/// stays at the start point runs to a verdict.
#[test]
fn iterates_outside_x_or_of_the_wrong_length_are_errors() {
    let e = with_step("outside", |x, _| x.iter_mut().for_each(|v| *v += 10.0))
        .unwrap_err()
        .to_string();
    for part in [
        "solver \"outside\": job lmo-lmo/c-sc+sc on quadratic",
        "(entry lmo-lmo/c-sc+sc/primal, instance quadratic/c-sc+sc:dx=4,dy=3,",
        "): iterate t = 1: x is outside X by ",
        " (Euclidean distance; tolerance ",
    ] {
        assert!(e.contains(part), "{part:?} missing from {e}");
    }
    // the same text as the shared check gives for the same point
    let spec = e
        .split("instance ")
        .nth(1)
        .unwrap()
        .split(')')
        .next()
        .unwrap();
    let inst = spec.parse::<GeneratorSpec>().unwrap().generate().unwrap();
    let x1: Vec<f64> = inst.x0.iter().map(|v| v + 10.0).collect();
    let why = saddlefw::iterates::feasibility(inst.problem.as_ref(), &x1, &inst.y0).unwrap();
    assert!(e.ends_with(&format!("iterate t = 1: {why}")), "{e}\n{why}");

    let e = small(ENTRY)
        .solver_fn("short", |_: &SolverRequest| {
            Ok(Box::new(Short(vec![], vec![])) as Box<dyn Solver>)
        })
        .run()
        .unwrap_err()
        .to_string();
    assert!(
        e.starts_with("solver \"short\": job lmo-lmo/c-sc+sc on ")
            && e.ends_with("iterate t = 0: x has length 3, but X has dimension 4"),
        "{e}"
    );
    // control: a feasible solver (it never moves) is judged, not refused
    let still = with_step("still", |_, _| {}).unwrap();
    assert_eq!(still.report.entries.len(), 1);
}

/// A factory's error names the solver, the job and the instance (control: the example
/// solver's factory builds and the check runs).
#[test]
fn a_factory_error_names_the_job() {
    let e = small(ENTRY)
        .solver_fn("err", |_: &SolverRequest| {
            Err(Error::invalid("my solver", "cannot handle this set"))
        })
        .run()
        .unwrap_err()
        .to_string();
    assert!(
        e.starts_with("solver \"err\": job lmo-lmo/c-sc+sc on ")
            && e.contains("instance quadratic/c-sc+sc:dx=4,dy=3,")
            && e.ends_with(
                "the solver factory returned an error: invalid my solver: cannot handle this set"
            ),
        "{e}"
    );
    let ok = small(ENTRY)
        .solver_fn("example", |req: &SolverRequest| {
            Ok(Box::new(lmo_lmo::LmoLmo::for_job(req, 0.0)) as Box<dyn Solver>)
        })
        .run();
    assert!(ok.is_ok(), "{:?}", ok.err());
}

/// A NaN iterate fails the `run` gate with the iteration and the cause; the rerun line
/// carries the sizes the check used. Control: the faithful solver fails no `run` gate.
#[test]
fn a_diverged_run_says_where_and_the_rerun_line_has_the_sizes() {
    let o = with_step("nan", |x, t| {
        if t == 5 {
            x[0] = f64::NAN;
        }
    })
    .unwrap();
    let failures = o.failures();
    let run = failures
        .iter()
        .find(|f| f.gate == "run")
        .unwrap_or_else(|| panic!("{failures:#?}"));
    assert!(
        run.detail
            .contains("diverged at t = 5: non-finite iterate x_6 (entry 0 = NaN)"),
        "{run:#?}"
    );
    assert!(
        run.rerun.starts_with(
            "RateCheck ... .filter(\"lmo-lmo/c-sc+sc/primal\").tier(Tier::Test).sizes(TierConfig { seeds: 1, t_max: 32, dim_x: 4, dim_y: 3 }) with solver \"nan\""
        ),
        "{run:#?}"
    );
    let faithful = small(ENTRY)
        .solver_fn("example", |req: &SolverRequest| {
            Ok(Box::new(lmo_lmo::LmoLmo::for_job(req, 0.0)) as Box<dyn Solver>)
        })
        .run()
        .unwrap();
    assert!(faithful.failures().iter().all(|f| f.gate != "run"));
}

/// `measures::evaluate` refuses a point of the wrong dimensions: every measure unknown (NaN),
/// which the consistency check reports. Control: the right dimensions give finite measures.
#[test]
fn evaluate_refuses_a_point_of_the_wrong_dimensions() {
    let inst = "quadratic/c-sc:dx=3,dy=2"
        .parse::<GeneratorSpec>()
        .unwrap()
        .generate()
        .unwrap();
    let p = inst.problem.as_ref();
    for x in [vec![0.0; 5], vec![0.0; 2]] {
        let m = saddlefw::measures::evaluate(p, &x, &inst.y0, 0.0, &inst.y0, 1.0);
        assert!(
            m.gx_lmo.is_nan() && m.gy.is_nan() && m.gap_opt.is_none(),
            "{m:?}"
        );
        assert!(saddlefw::measures::inconsistency(&m).is_some());
    }
    let m = saddlefw::measures::evaluate(p, &inst.x0, &inst.y0, 0.0, &inst.y0, 1.0);
    assert!(m.gx_lmo.is_finite() && saddlefw::measures::inconsistency(&m).is_none());
}

/// The library's errors name the library's things (the set's dimension, the Options field,
/// the algorithm's name), and the CLI still shows its flags. Controls: valid values build.
#[test]
fn library_errors_name_the_library_and_the_cli_its_flags() {
    let sets = |n: usize| -> (
        Box<dyn saddlefw::sets::ConvexSet>,
        Box<dyn saddlefw::sets::ConvexSet>,
    ) {
        (
            Box::new(BoxSet::new(vec![-1.0; n], vec![1.0; n]).unwrap()),
            Box::new(L2Ball::new(vec![0.0; 2], 1.0).unwrap()),
        )
    };
    let quad = |n: usize, dx: usize| {
        let (x, y) = sets(dx);
        let mut a = vec![0.0; n * n];
        (0..n).for_each(|i| a[i * n + i] = 1.0);
        Quadratic::new(
            a,
            vec![0.0; 2 * n],
            vec![1.0, 0.0, 0.0, 1.0],
            vec![0.0; n],
            vec![0.0; 2],
            x,
            y,
        )
    };
    let e = quad(2, 3).err().unwrap().to_string();
    assert_eq!(
        e,
        "invalid A: expected 9 entries (3 x 3; dx = x_set.dim() = 3), got 4"
    );
    assert!(quad(3, 3).is_ok());

    let e = registry::find("lmo_lmo").err().unwrap().to_string();
    assert!(
        e.starts_with("invalid AlgorithmInfo::name: unknown algorithm \"lmo_lmo\""),
        "{e}"
    );
    let inst = "quadratic/c-sc:dx=3,dy=2"
        .parse::<GeneratorSpec>()
        .unwrap()
        .generate()
        .unwrap();
    let build = |o: Options| registry::build("lmo-lmo", inst.problem.as_ref(), &o).map(|_| ());
    let e = build(Options {
        a: Some(f64::NAN),
        ..Default::default()
    })
    .unwrap_err();
    assert_eq!(
        e.to_string(),
        "invalid Options::a: must be a finite number >= 0, got NaN"
    );
    let e = build(Options {
        horizon: Some(10),
        ..Default::default()
    })
    .unwrap_err();
    assert_eq!(
        e.to_string(),
        "invalid Options::horizon: is not a parameter of lmo-lmo (it takes: Options::a, Options::b, Options::beta0, Options::tau0, Options::tau, Options::beta)"
    );
    assert!(build(Options {
        a: Some(0.8),
        ..Default::default()
    })
    .is_ok());
    // the command line: the same errors with its flags
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("RUN.json");
    let out = out.to_str().unwrap();
    let run = |algo: &str, extra: &[&str]| {
        let mut args = vec![
            "run",
            "--problem",
            "quadratic/c-sc:dx=3,dy=2",
            "--algo",
            algo,
        ];
        args.extend(extra);
        args.extend(["--iters", "4", "--out", out]);
        let o = crate::common::saddlefw(&args);
        (o.code, o.stderr.lines().last().unwrap_or("").to_string())
    };
    assert_eq!(
        run("lmo-lmo", &["--horizon", "10"]),
        (2, "error: invalid --horizon: is not a parameter of lmo-lmo (it takes: --a, --b, --beta0, --tau0, --tau-schedule, --beta-schedule)".into())
    );
    let (code, e) = run("fw-fw", &[]);
    assert!(
        code == 2 && e.starts_with("error: invalid --algo: unknown algorithm \"fw-fw\""),
        "{e}"
    );
    assert_eq!(run("lmo-lmo", &[]).0, 0);
}

/// The example solver reporting a growing `beta_t` (declared, outside the theorem's
/// hypotheses): on the hard instance too, `hard-schedule`'s detail carries the fitted
/// exponent, written without a double minus. Control: the faithful example passes the gate.
#[test]
fn hard_schedule_details_carry_the_numbers() {
    struct Growing(lmo_lmo::LmoLmo);
    impl Solver for Growing {
        fn name(&self) -> &str {
            "growing"
        }
        fn init(&mut self, p: &dyn SaddleProblem, x0: &[f64], y0: &[f64]) {
            self.0.init(p, x0, y0)
        }
        fn step(&mut self, p: &dyn SaddleProblem, t: usize) -> StepInfo {
            self.0.step(p, t)
        }
        fn x(&self) -> &[f64] {
            self.0.x()
        }
        fn y(&self) -> &[f64] {
            self.0.y()
        }
        fn beta_at(&self, t: usize) -> f64 {
            (t as f64 + 1.0).powf(0.2)
        }
    }
    let check = |grow: bool| {
        small("lmo-lmo/c-c/primal")
            .hard_instances(true)
            .solver_fn("growing", move |req: &SolverRequest| {
                let s = lmo_lmo::LmoLmo::for_job(req, 0.0);
                Ok(match grow {
                    true => Box::new(Growing(s)) as Box<dyn Solver>,
                    false => Box::new(s),
                })
            })
            .run()
            .unwrap()
    };
    let o = check(true);
    let failures = o.failures();
    for gate in ["schedule", "hard-schedule"] {
        let f = failures
            .iter()
            .find(|f| f.gate == gate)
            .unwrap_or_else(|| panic!("{gate}: {failures:#?}"));
        assert!(
            f.detail.contains("beta_t decays like (t+1)^0.2000 over ["),
            "{f:#?}"
        );
        assert!(!f.detail.contains("^--"), "{f:#?}");
    }
    let faithful = check(false);
    assert!(faithful
        .failures()
        .iter()
        .all(|f| !f.gate.ends_with("schedule")));
}
