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
//! ```

use serde::{Deserialize, Serialize};

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
