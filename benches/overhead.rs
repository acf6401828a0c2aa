//! Measurement overhead (issue 8, item 2): the run loop (`harness::run`) with log2 checkpoints
//! on DL and NEWS20 for each paper algorithm, for a solver-time budget, reporting solver time
//! (`wall_time_s`, inside the timed region) and measure time (`measure_time_s`: the checkpoint
//! measures, divergence checks) separately, their ratio, the cost of one checkpoint, and the
//! projected ratio for the paper's 300 s budget (log2 checkpoints grow like log2 of the
//! iteration count).
//!
//! Not a criterion bench (it reports a split, not a time): `cargo bench --bench overhead`.
//! `SADDLEFW_OVERHEAD_SECONDS` sets the budget per run (default 10).

mod common;

use common::{dl, dro, load_average, news20_data};
use saddlefw::experiments::params::Experiment;
use saddlefw::harness::{run, CheckpointRule, RunConfig};
use saddlefw::paper::Algorithm;
use saddlefw::problems::Instance;

fn report(label: &str, inst: &Instance, e: Experiment, budget: f64) {
    for alg in Algorithm::ALL {
        let mut solver = common::paper_solver(e, alg, inst.problem.as_ref());
        let config = RunConfig {
            iterations: usize::MAX,
            time_limit: Some(budget),
            checkpoints: CheckpointRule::Log2,
            sigma: 1.0,
        };
        let trace = run(inst, solver.as_mut(), &config);
        let (solver_s, measure_s) = (trace.wall_time_s, trace.measure_time_s);
        let checkpoints = trace.checkpoints.len();
        let per_checkpoint = measure_s / checkpoints as f64;
        let rate = trace.iterations as f64 / solver_s;
        let projected_checkpoints = (rate * 300.0).log2().ceil() + 2.0;
        let projected = projected_checkpoints * per_checkpoint / 300.0;
        println!(
            "| {label} | {} | {} | {:.2} | {:.3} | {:.1}% | {} | {:.2} ms | {:.2}% |",
            alg.name(),
            trace.iterations,
            solver_s,
            measure_s,
            100.0 * measure_s / (solver_s + measure_s),
            checkpoints,
            per_checkpoint * 1e3,
            100.0 * projected / (1.0 + projected),
        );
    }
}

fn main() {
    if std::env::args().any(|a| a == "--list") {
        return; // `cargo bench -- --list` support: nothing to list
    }
    let budget: f64 = std::env::var("SADDLEFW_OVERHEAD_SECONDS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(10.0);
    println!(
        "Measurement overhead, {budget} s solver time per run, log2 checkpoints (load average {}):",
        load_average()
    );
    println!("| problem | algorithm | iterations | solver s | measure s | measure share | checkpoints | per checkpoint | projected share at 300 s |");
    println!("|---|---|---|---|---|---|---|---|---|");
    report("dl", &dl(1), Experiment::Dl, budget);
    let (data, label) = news20_data();
    let inst = dro(&data, None);
    drop(data);
    report(&label, &inst, Experiment::Robust, budget);
}
