//! RUN.json files (`saddlefw run`) as [`RunSummary`] records for the runs page
//! (`saddlefw report RUN.json... --out FILE.html`), plotted with one
//! [`RunMeasure`].

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
