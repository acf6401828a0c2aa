//! The prelude as a user's crate sees it (issue 36): this file is compiled as an external crate,
//! so it fails to build when the prelude shadows std's `Result` or lacks what a factory needs to
//! read `req.schedule`. (The `compile_fail` doctest of `saddlefw::prelude` is the negative
//! control: a one-parameter `Result` alias in scope breaks the same code.)

use saddlefw::prelude::*;

/// A user's own function with std's two-parameter `Result`, after the glob import.
fn parse_pair(s: &str) -> Result<(u32, u32), std::num::ParseIntError> {
    let (a, b) = s.split_once(',').unwrap_or((s, "0"));
    Ok((a.trim().parse()?, b.trim().parse()?))
}

/// A solver parameterised by a variant that names itself after it (`Solver::name` borrows).
struct Scaled {
    name: String,
    factor: f64,
    x: Vec<f64>,
    y: Vec<f64>,
}

impl Solver for Scaled {
    fn name(&self) -> &str {
        &self.name
    }
    fn init(&mut self, _: &dyn SaddleProblem, x0: &[f64], y0: &[f64]) {
        self.x = x0.to_vec();
        self.y = y0.to_vec();
    }
    fn step(&mut self, _: &dyn SaddleProblem, _t: usize) -> StepInfo {
        self.x.iter_mut().for_each(|v| *v *= self.factor);
        StepInfo {
            tau: self.factor,
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

#[test]
fn the_prelude_keeps_std_result_and_solvers_name_their_variant() {
    assert_eq!(parse_pair("3, 4"), Ok((3, 4)));
    assert!(parse_pair("x").is_err());
    let own: Result<u8> = Err(Error::invalid("field", "reason"));
    assert!(own.is_err());
    let s = Scaled {
        name: format!("scaled-{}", 0.5),
        factor: 0.5,
        x: vec![],
        y: vec![],
    };
    let boxed: Box<dyn Solver> = Box::new(s);
    assert_eq!(boxed.name(), "scaled-0.5");
}

#[test]
fn a_factory_reads_the_entry_schedule_and_the_resolved_one() {
    // the built-in LMO-LMO entry of the strongly concave case, on a small tier
    let seen = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
    let log = seen.clone();
    let check = RateCheck::builtin("lmo-lmo/c-sc+sc/primal")
        .sizes(TierConfig {
            seeds: 1,
            t_max: 32,
            dim_x: 4,
            dim_y: 3,
        })
        .hard_instances(false)
        .solver_fn("reader", move |req: &SolverRequest| {
            let spec: &ScheduleSpec = &req.entry.schedule;
            let RunSchedules { tau, beta } = *req.schedule;
            let (a, _, _) = spec.abc();
            // the resolved steps decrease from a positive tau_0
            assert!(a > 0.0 && tau.at(0) > 0.0 && tau.at(3) <= tau.at(0));
            assert!(beta.at(3).is_finite());
            log.lock().unwrap().push(a);
            let still = |_p: &dyn SaddleProblem, _x: &mut [f64], _y: &mut [f64], _t| StepInfo {
                tau: 0.0,
                beta: 0.0,
                gamma: 0.0,
            };
            Ok(Box::new(step_fn(format!("reader-{a}"), still)))
        });
    let outcome = check.run().unwrap();
    assert!(
        !seen.lock().unwrap().is_empty(),
        "the factory was never asked"
    );
    assert!(outcome.report.solver.is_some());
}
