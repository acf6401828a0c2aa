//! The measures a theorem bounds (claims.md 1.3): the one selector of a measure, its name in
//! files and on the command line, and the paper's symbol. The values are computed by
//! `measures` and read with `measures::PointMeasures::get`.
//!
//! ```
//! use saddlefw::paper::theorems::Measure;
//! for m in Measure::ALL {
//!     assert_eq!(Measure::parse(m.name()), Some(m));
//! }
//! assert_eq!(Measure::GxPo.symbol(), "G_X^PO");
//! assert_eq!(serde_json::to_string(&Measure::GapOpt).unwrap(), "\"gap_opt\"");
//! // what a run is plotted with: Figure 1's measure (by the primal oracle) or one measure
//! use saddlefw::paper::measure::RunMeasure;
//! use saddlefw::paper::Oracle;
//! let m: RunMeasure = "stationarity".parse().unwrap();
//! assert_eq!(m.label(Oracle::Po), "G_X^PO + G_Y");
//! assert_eq!(m.label(Oracle::Lmo), "G_X^LMO + G_Y");
//! assert_eq!("gy_lmo".parse::<RunMeasure>().unwrap(), RunMeasure::Of(Measure::GyLmo));
//! assert!("gap".parse::<RunMeasure>().is_err());
//! ```

use super::Oracle;
use crate::{Error, Result};
use serde::{Deserialize, Serialize};
use std::str::FromStr;

/// A measure of claims.md 1.3, evaluated at every iterate of a run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Measure {
    /// `G_X^LMO(x_t, y_t)` (`gap:fw`).
    GxLmo,
    /// `G_X^PO(x_t, y_t)` (`gap:proj`) with the entry's sigma.
    GxPo,
    /// `G_Y(x_t, y_t)` (`gap:y`).
    Gy,
    /// `G^Opt(x_t)` (`gap:opt`).
    GapOpt,
    /// `G_Y^LMO(x_t, y_t)`, the Frank-Wolfe gap over Y (user entries).
    GyLmo,
    /// `H_t` (`eq:H_t`) with the entry's `beta_t` (user entries).
    H,
}

impl Measure {
    /// Every measure, in the order of claims.md 1.3.
    pub const ALL: [Measure; 6] = [
        Measure::GxLmo,
        Measure::GxPo,
        Measure::Gy,
        Measure::GyLmo,
        Measure::H,
        Measure::GapOpt,
    ];
    /// The name in files and on the command line (`gx_lmo`, ..., as serialised).
    pub const fn name(&self) -> &'static str {
        match self {
            Measure::GxLmo => "gx_lmo",
            Measure::GxPo => "gx_po",
            Measure::Gy => "gy",
            Measure::GapOpt => "gap_opt",
            Measure::GyLmo => "gy_lmo",
            Measure::H => "h",
        }
    }
    /// The paper's symbol (`G_X^LMO`, ...).
    pub const fn symbol(&self) -> &'static str {
        match self {
            Measure::GxLmo => "G_X^LMO",
            Measure::GxPo => "G_X^PO",
            Measure::Gy => "G_Y",
            Measure::GyLmo => "G_Y^LMO",
            Measure::GapOpt => "G^Opt",
            Measure::H => "H_t",
        }
    }
    /// The measure called `name` ([`Measure::name`]).
    pub fn parse(name: &str) -> Option<Measure> {
        Measure::ALL.into_iter().find(|m| m.name() == name)
    }
}

/// Which measure a run is plotted with (`saddlefw report --measure`, the experiments' Figure 1):
/// the paper's Figure 1 combination, or one [`Measure`]. The values are read with
/// `measures::PointMeasures::select`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RunMeasure {
    /// The paper's Figure 1 measure (`fig:Experiment`, L749): `G_X^LMO + G_Y` for LMO-primal
    /// methods, `G_X^PO + G_Y` for PO-primal ones (PO-LMO, AGP).
    Stationarity,
    /// One measure.
    Of(Measure),
}

impl RunMeasure {
    /// The terms of the measure for a method whose primal block uses `primal`.
    pub const fn terms(&self, primal: Oracle) -> (Measure, Option<Measure>) {
        match (self, primal) {
            (RunMeasure::Stationarity, Oracle::Lmo) => (Measure::GxLmo, Some(Measure::Gy)),
            (RunMeasure::Stationarity, Oracle::Po) => (Measure::GxPo, Some(Measure::Gy)),
            (RunMeasure::Of(m), _) => (*m, None),
        }
    }
    /// The measure's name for a method whose primal block uses `primal`.
    pub const fn label(&self, primal: Oracle) -> &'static str {
        match (self, primal) {
            (RunMeasure::Stationarity, Oracle::Lmo) => "G_X^LMO + G_Y",
            (RunMeasure::Stationarity, Oracle::Po) => "G_X^PO + G_Y",
            (RunMeasure::Of(m), _) => m.symbol(),
        }
    }
}

impl FromStr for RunMeasure {
    type Err = Error;
    fn from_str(s: &str) -> Result<Self> {
        match s {
            "stationarity" => Ok(RunMeasure::Stationarity),
            _ => Measure::parse(s).map(RunMeasure::Of).ok_or_else(|| {
                Error::invalid(
                    "--measure",
                    format!(
                        "unknown measure {s:?} (stationarity, gx_lmo, gx_po, gy, gy_lmo, h, gap_opt)"
                    ),
                )
            }),
        }
    }
}
