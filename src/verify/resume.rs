//! `verify --resume DIR`: an interrupted `verify.json` (or a complete one) of the same build
//! and arguments supplies the runs of the jobs it recorded; only the others run. Jobs are
//! independent (the argument of [`super::shard`]), so the report equals an uninterrupted
//! run's apart from timings.
//!
//! A job is reused only when the record holds its run for every entry it serves (a record
//! cut short mid-job is not possible: jobs are recorded whole, but a hand-edited file could
//! be). Hard-instance results are never taken from a record: they run once, at the end.
//!
//! ```
//! use saddlefw::verify::{resume::check_record, run, run_resumed, without_timings, Tier, VerifyOptions};
//! let table = saddlefw::theorems::builtin();
//! let opts = VerifyOptions::new(Tier::Test).filter("lmo-lmo/c-sc/");
//! let record = run(&table, &opts).unwrap();
//! assert!(check_record("verify.json", &record, &opts).is_ok());
//! // every job is recorded: nothing runs again, and the report is the same
//! let again = run_resumed(&table, &opts, Some(&record)).unwrap();
//! let json = |r: &saddlefw::verify::VerifyReport| {
//!     without_timings(&serde_json::from_str(&r.to_json()).unwrap())
//! };
//! assert_eq!(json(&again), json(&record));
//! // another selection of entries is other work
//! let other = VerifyOptions::new(Tier::Test).filter("lmo-po/");
//! let e = check_record("verify.json", &record, &other).unwrap_err();
//! assert!(e.to_string().contains("recorded with --cases"), "{e}");
//! ```

use super::{VerifyOptions, VerifyReport};
use crate::Result;

/// Refuses `record` (read from `input`) unless this build wrote it with the same tier, sizes,
/// seeds, `--cases`, `--control` and `--shard` as `opts` asks for.
pub fn check_record(input: &str, record: &VerifyReport, opts: &VerifyOptions) -> Result<()> {
    let cfg = opts.config.unwrap_or_else(|| opts.tier.config());
    let show = |v: &dyn std::fmt::Debug| format!("{v:?}");
    let arguments = [
        ("--tier", record.tier.to_string(), opts.tier.to_string()),
        (
            "seeds",
            show(&record.seeds),
            show(&(0..cfg.seeds).collect::<Vec<u32>>()),
        ),
        ("T_max", record.t_max.to_string(), cfg.t_max.to_string()),
        (
            "dimensions",
            format!("{}x{}", record.dim_x, record.dim_y),
            format!("{}x{}", cfg.dim_x, cfg.dim_y),
        ),
        ("--cases", show(&record.filter), show(&opts.filter)),
        (
            "--control",
            show(&record.control),
            show(&opts.control.map(|c| c.to_string())),
        ),
        (
            "--shard",
            show(&record.shard.map(|s| s.to_string())),
            show(&opts.shard.map(|s| s.to_string())),
        ),
        (
            "solver",
            show(&record.solver),
            show(&opts.solver.as_ref().map(|f| f.0.name())),
        ),
    ];
    crate::resume::check_identity(
        input,
        &record.build.to_string(),
        &crate::report::Build::current().to_string(),
        &arguments,
    )
}
