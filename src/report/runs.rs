//! RUN.json files (`saddlefw run`) as [`RunSummary`] records for the runs page
//! (`saddlefw report RUN.json... --out FILE.html`).
//!
//! ```
//! use saddlefw::paper::theorems::Measure;
//! use saddlefw::report::runs::RunMeasure;
//! let m: RunMeasure = "stationarity".parse().unwrap();
//! assert_eq!(m.label("po-lmo"), "G_X^PO + G_Y");
//! assert_eq!(m.label("lmo-po"), "G_X^LMO + G_Y");
//! assert_eq!("gy_lmo".parse::<RunMeasure>().unwrap(), RunMeasure::Of(Measure::GyLmo));
//! assert!("gap".parse::<RunMeasure>().is_err());
//! ```

use super::{RunSummary, Series};
use crate::paper::theorems::Measure;
use crate::paper::Oracle;
use crate::trace::{Checkpoint, Status, Trace};
use crate::{Error, Result};
use std::str::FromStr;

/// Which checkpoint measure a runs page plots: the paper's Figure 1 combination, or one
/// measure of the theorem vocabulary ([`Measure`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RunMeasure {
    /// The paper's Figure 1 measure: `G_X^LMO + G_Y` for LMO-primal methods, `G_X^PO + G_Y`
    /// for PO-primal ones (PO-LMO, AGP).
    Stationarity,
    /// One measure.
    Of(Measure),
}

impl FromStr for RunMeasure {
    type Err = Error;
    fn from_str(s: &str) -> Result<Self> {
        Ok(match s {
            "stationarity" => RunMeasure::Stationarity,
            _ if Measure::parse(s).is_some() => RunMeasure::Of(Measure::parse(s).unwrap()),
            _ => {
                return Err(Error::invalid(
                    "--measure",
                    format!(
                    "unknown measure {s:?} (stationarity, gx_lmo, gx_po, gy, gy_lmo, h, gap_opt)"
                ),
                ))
            }
        })
    }
}

impl RunMeasure {
    fn po_primal(algorithm: &str) -> bool {
        crate::solvers::registry::primal_oracle(algorithm) == Some(Oracle::Po)
    }
    /// The measure's name for `algorithm`.
    pub fn label(&self, algorithm: &str) -> &'static str {
        match self {
            RunMeasure::Stationarity if Self::po_primal(algorithm) => "G_X^PO + G_Y",
            RunMeasure::Stationarity => "G_X^LMO + G_Y",
            RunMeasure::Of(m) => m.symbol(),
        }
    }
    /// The value at a checkpoint (`None` when the run did not record it).
    pub fn value(&self, algorithm: &str, c: &Checkpoint) -> Option<f64> {
        match self {
            RunMeasure::Stationarity if Self::po_primal(algorithm) => {
                Some(c.measures.gx_po + c.measures.gy)
            }
            RunMeasure::Stationarity => Some(c.measures.gx_lmo + c.measures.gy),
            RunMeasure::Of(m) => c.measures.get(*m),
        }
    }
}

/// The runs-page record of one trace: the measure against iteration (t + 1, so that t = 0 has
/// a place on a log axis) and against solver time.
pub fn summary(trace: &Trace, measure: RunMeasure) -> RunSummary {
    let alg = trace.algorithm.as_str();
    let mut by_iteration = Vec::new();
    let mut by_time = Vec::new();
    for c in &trace.checkpoints {
        if let Some(v) = measure.value(alg, c) {
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
        measure: Some(measure.label(alg).to_string()),
        status,
        iterations: trace.iterations as u64,
        wall_time_s: Some(trace.wall_time_s),
        cpu_share: None,
        by_iteration: Some(Series::new(alg.to_uppercase(), by_iteration)),
        by_time: Some(Series::new(alg.to_uppercase(), by_time)),
    }
}
