// As in the library: NaN-aware `!(a < b)` checks, index loops over several arrays, and tables
// of test cases written as tuples.
#![allow(
    clippy::neg_cmp_op_on_partial_ord,
    clippy::needless_range_loop,
    clippy::type_complexity
)]

mod bounds_by_hand;
mod calibration;
mod chain;
mod cli;
mod cli_errors;
mod cli_files;
mod common;
mod data;
mod determinism;
mod differential;
mod docs;
mod envelopes;
mod experiment_problems;
mod experiments;
mod fit;
mod forwarding;
mod fuzz;
mod interrupt;
mod invariants;
mod iterates;
mod kernels;
mod lanczos;
mod measures;
mod modules;
mod mutants;
mod own_solver;
mod prelude;
mod problems;
mod public_api;
mod public_signatures;
mod rates;
mod records;
mod report;
mod report_cli;
mod reproduce;
mod resume;
mod scales;
mod sets;
mod shard;
mod solvers;
mod spectral;
mod theorems;
mod threads;
mod tightness;
mod user_checks;
