pub mod error;
pub mod linalg;
pub mod measures;
pub mod problems;
pub mod sets;

pub use error::{Error, Result};
pub use problems::{Constants, Instance, Interval, SaddleProblem};
pub use sets::ConvexSet;
pub mod generators;
pub mod solvers;
pub mod cli;
pub mod counting;
pub mod harness;
pub mod trace;
pub mod invariants;
