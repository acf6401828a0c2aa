//! Gate your own solver: an independent implementation of Algorithm 1 (`lmo_lmo.rs`) checked
//! against every built-in LMO-LMO theorem entry, random families and stored hard instances,
//! exactly as `saddlefw verify --tier quick --cases lmo-lmo/` checks the crate's own.
//!
//! ```text
//! cargo run --release --example own_solver            # the faithful solver: exit 0
//! cargo run --release --example own_solver -- slow    # primal exponent +0.15: exit 1
//! ```

mod lmo_lmo;

use saddlefw::prelude::*;

fn main() {
    let slow = if std::env::args().nth(1).as_deref() == Some("slow") {
        0.15
    } else {
        0.0
    };
    let outcome = RateCheck::builtin("lmo-lmo/")
        .tier(Tier::Quick)
        .solver_fn("example-lmo-lmo", move |req: &SolverRequest| {
            Ok(Box::new(lmo_lmo::LmoLmo::for_job(req, slow)))
        })
        .run()
        .unwrap_or_else(|e| {
            eprintln!("error: {e}");
            std::process::exit(2)
        });
    print!("{}", outcome.report.table());
    for f in outcome.failures() {
        println!("{f}");
    }
    std::process::exit(if outcome.passed() { 0 } else { 1 });
}
