//! The mutation guard's own small test binary (scripts/mutation-guard.sh, docs/mutation.md):
//! the test modules its recorded mutants are checked with, compiled from the same files as
//! tests/main.rs. Rebuilding this binary after a mutant takes a quarter of the time of the whole
//! suite's binary (about 6,700 of its 29,000 lines). Not run by `cargo test` (`test = false`):
//! tests/main.rs runs the same tests.
#![allow(
    dead_code,
    unused_imports,
    clippy::neg_cmp_op_on_partial_ord,
    clippy::needless_range_loop,
    clippy::type_complexity
)]

#[path = "common/mod.rs"]
mod common;
#[path = "envelopes.rs"]
mod envelopes;
#[path = "mutants/mod.rs"]
mod mutants;
#[path = "solvers.rs"]
mod solvers;
