//! The records a run and a rate check return, documented here (the types live in the crate's
//! internal modules) so that every field has a page.
//!
//! A run ([`crate::prelude::run`], `saddlefw run`) returns a [`Trace`] (`RUN.json`): its
//! [`RunConstants`], [`Status`], oracle counts and one [`Checkpoint`] per measured iterate.
//!
//! ```
//! use saddlefw::gate::record::{Status, Trace};
//! use saddlefw::prelude::*;
//!
//! let inst = "quadratic/c-sc:dx=4,dy=3,seed=2".parse::<GeneratorSpec>().unwrap().generate().unwrap();
//! let mut built = registry::build("lmo-lmo", inst.problem.as_ref(), &Options::default()).unwrap();
//! let trace: Trace = run(&inst, built.solver.as_mut(), &RunConfig::new(16));
//! assert_eq!(trace.status, Status::Completed);
//! // RUN.json's constants: `dx`, `dy` are the dimensions, `diam_x`, `diam_y` the diameters
//! // (the problem's `Constants.dx`, `Constants.dy`)
//! assert_eq!((trace.constants.dx, trace.constants.dy), (4, 3));
//! assert_eq!(trace.constants.diam_x, inst.problem.constants().dx);
//! ```
//!
//! A rate check returns the verify record (`verify.json`, [`VerifyReport`], read from
//! [`Outcome::report`](super::Outcome::report)), one [`EntryResult`] per theorem entry with its
//! families, runs, gates and verdicts, and the differential comparison of
//! [`RateCheck::against`](super::RateCheck::against) ([`Differential`], one [`JobDifferential`]
//! per job).

pub use crate::build_info::Build;
pub use crate::envelopes::{MhatCheck, PrintedCheck, PrintedForm, WorstRatio};
pub use crate::fingerprint::{Input, Inputs};
pub use crate::fit::{
    CiMethod, Estimate, FitConfig, Fitted, LocalSlope, Ols, ProofRate, SeriesFit, Verdict,
    WindowRule,
};
pub use crate::resume::Interruption;
pub use crate::trace::{Checkpoint, CheckpointRule, RunConstants, Status, Trace};
pub use crate::verify::differential::{Departure, DiffVerdict, Differential, JobDifferential};
pub use crate::verify::hard::{Confirmation, HardResult, HardRun, TightnessRecord};
pub use crate::verify::questions::{Answer, Answers, GateStatus, Question};
pub use crate::verify::schedule_check::ScheduleCheck;
pub use crate::verify::{
    EntryResult, ErratumResult, FamilyResult, Gates, InstanceRun, MhatFamily, MhatSummary,
    PrintedRun, ProofRateFamily, ProofRateResult, VerifyReport,
};
