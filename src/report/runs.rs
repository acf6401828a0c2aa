//! RUN.json files (`saddlefw run`) as [`RunSummary`] records for the runs page
//! (`saddlefw report RUN.json... --out FILE.html`), plotted with one
//! [`RunMeasure`].
//!
//! ```
//! use saddlefw::generators::GeneratorSpec;
//! use saddlefw::harness::{run, RunConfig};
//! use saddlefw::paper::measure::RunMeasure;
//! use saddlefw::report::runs::summary;
//! use saddlefw::solvers::registry;
//! let inst = "quadratic/c-sc:dx=4,dy=3,seed=2".parse::<GeneratorSpec>().unwrap().generate().unwrap();
//! let mut built = registry::build("lmo-lmo", inst.problem.as_ref(), &Default::default()).unwrap();
//! let trace = run(&inst, built.solver.as_mut(), &RunConfig::new(16));
//! let s = summary(&trace, RunMeasure::Stationarity);
//! // G_X^LMO + G_Y at t + 1 = 1, 2, 3, 5, 9, 17 (the checkpoints)
//! let points = &s.by_iteration.unwrap().points;
//! assert_eq!(points.iter().map(|p| p.0).collect::<Vec<_>>(), [1.0, 2.0, 3.0, 5.0, 9.0, 17.0]);
//! assert!(points.iter().all(|p| p.1.is_finite()));
//! ```

use super::{RunSummary, Series};
use crate::paper::measure::RunMeasure;
use crate::paper::Oracle;
use crate::trace::{Status, Trace};

/// The primal oracle of the registry's `algorithm` (LMO for a name the registry does not know).
fn primal(algorithm: &str) -> Oracle {
    crate::solvers::registry::primal_oracle(algorithm).unwrap_or(Oracle::Lmo)
}

/// The runs-page record of one trace: the measure against iteration (t + 1, so that t = 0 has
/// a place on a log axis) and against solver time.
pub fn summary(trace: &Trace, measure: RunMeasure) -> RunSummary {
    let alg = trace.algorithm.as_str();
    let mut by_iteration = Vec::new();
    let mut by_time = Vec::new();
    for c in &trace.checkpoints {
        if let Some(v) = c.measures.select(measure, primal(alg)) {
            by_iteration.push(((c.t + 1) as f64, v));
            by_time.push((c.time_s, v));
        }
    }
    let status = match &trace.status {
        Status::TimeLimit => "time-limit".to_string(),
        s => s.describe(),
    };
    RunSummary {
        algorithm: alg.to_uppercase(),
        provenance: Some(trace.provenance.clone()),
        problem: Some(trace.problem.clone()),
        measure: Some(measure.label(primal(alg)).to_string()),
        status,
        iterations: trace.iterations as u64,
        wall_time_s: Some(trace.wall_time_s),
        cpu_share: None,
        by_iteration: Some(Series::new(alg.to_uppercase(), by_iteration)),
        by_time: Some(Series::new(alg.to_uppercase(), by_time)),
    }
}
