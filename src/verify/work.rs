//! What a verify run's work is (issue 35): the job-defining arguments and inputs that a
//! journal, a record and a shard carry ([`crate::resume::Identity`]); `--resume`
//! ([`super::resume`]) and `merge` ([`super::shard`]) accept only results of the same work.

use super::{VerifyOptions, VerifyReport};
use crate::fingerprint::Inputs;
use crate::resume::Identity;
use crate::Result;

/// The job-defining arguments of a verify run: tier, seeds, horizon, dimensions, `--cases`,
/// `--control`, `--shard` and the solver under verification.
pub fn arguments(opts: &VerifyOptions) -> Vec<(&'static str, String)> {
    let cfg = opts.config.unwrap_or_else(|| opts.tier.config());
    let seeds: Vec<u32> = (0..cfg.seeds).collect();
    pairs(
        opts.tier.to_string(),
        opts.seed,
        &seeds,
        cfg.t_max,
        (cfg.dim_x, cfg.dim_y),
        &opts.filter,
        &opts.control.map(|c| c.to_string()),
        &opts.shard.map(|s| s.to_string()),
        &opts.solver.as_ref().map(|f| f.0.name()),
    )
}

/// The same arguments as a record holds them.
fn recorded(r: &VerifyReport) -> Vec<(&'static str, String)> {
    pairs(
        r.tier.to_string(),
        r.master_seed,
        &r.seeds,
        r.t_max,
        (r.dim_x, r.dim_y),
        &r.filter,
        &r.control,
        &r.shard.map(|s| s.to_string()),
        &r.solver,
    )
}

#[allow(clippy::too_many_arguments)]
fn pairs(
    tier: String,
    master_seed: u64,
    seeds: &[u32],
    t_max: u64,
    dims: (usize, usize),
    filter: &Option<String>,
    control: &Option<String>,
    shard: &Option<String>,
    solver: &Option<String>,
) -> Vec<(&'static str, String)> {
    let show = |v: &dyn std::fmt::Debug| format!("{v:?}");
    vec![
        ("--tier", tier),
        ("--seed", master_seed.to_string()),
        ("seeds", show(&seeds)),
        ("T_max", t_max.to_string()),
        ("dimensions", format!("{}x{}", dims.0, dims.1)),
        ("--cases", show(filter)),
        ("--control", show(control)),
        ("--shard", show(shard)),
        ("solver", show(solver)),
    ]
}

/// The work of a verify run with `opts` and `inputs` ([`crate::fingerprint`]).
pub fn identity(opts: &VerifyOptions, inputs: Inputs) -> Identity {
    Identity::current(arguments(opts), inputs)
}

/// The work `record` says it did.
pub(crate) fn recorded_identity(record: &VerifyReport) -> Identity {
    Identity::recorded(&record.build, recorded(record), record.inputs.clone())
}

/// Refuses `record` (read from `input`) unless this build wrote it with the same tier, sizes,
/// seeds, `--cases`, `--control`, `--shard` and inputs as `opts` asks for.
pub fn check_record(input: &str, record: &VerifyReport, opts: &VerifyOptions) -> Result<()> {
    identity(opts, record.inputs.clone()).accept(input, &recorded_identity(record))
}
