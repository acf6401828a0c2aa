//! `saddlefw export`: the jobs of verify for a solver in any language ([`crate::iterates`]).

use crate::iterates::{export, ExportOptions};
use crate::tightness::HardSource;
use crate::verify::Tier;
use crate::{Error, Result};
use std::path::PathBuf;

/// `saddlefw export` flags.
#[derive(Debug, clap::Args)]
pub struct ExportArgs {
    /// Only the entries whose id contains FILTER (as `verify --cases`), e.g. lmo-lmo/ or
    /// lmo-lmo/c-sc+sc.
    #[arg(long, value_name = "FILTER")]
    pub cases: Option<String>,
    /// The job list of this verify tier: quick or full.
    #[arg(long, value_name = "TIER", default_value = "quick")]
    pub tier: String,
    /// Output directory (manifest.json and jobs/ID/...).
    #[arg(long, value_name = "DIR")]
    pub out: PathBuf,
    /// Leave the stored hardest instances (the fixtures built into the binary) out: random
    /// instances only.
    #[arg(long)]
    pub no_hard: bool,
    /// Also a confirmation job per hard job (`ID__confirm`, kind hard-confirm: the same
    /// instance at 16 times the horizon, 262144 iterates at the quick tier). verify-iterates
    /// then judges hard-rate as verify does: a rate that fails at T fails only if it fails on
    /// the confirmation run too. Without them a hard-rate failure at T stands unconfirmed.
    #[arg(long)]
    pub confirmation_jobs: bool,
    /// Also write saddlefw's own solver's iterates into DIR/jobs/ID/iterates.jsonl (a
    /// reference: `verify-iterates DIR` then gives `verify`'s verdicts on these jobs).
    #[arg(long)]
    pub write_iterates: bool,
    /// With --write-iterates: a deliberately broken variant's iterates instead (as `verify
    /// --control`, e.g. tau-exponent+0.15).
    #[arg(long, value_name = "CONTROL", requires = "write_iterates")]
    pub control: Option<String>,
    /// Print nothing on success (set from the global --quiet).
    #[arg(skip)]
    pub quiet: bool,
}

/// `saddlefw export`.
pub(crate) fn cmd_export(args: ExportArgs) -> Result<i32> {
    let tier: Tier = args.tier.parse()?;
    if tier == Tier::Test {
        return Err(Error::invalid(
            "--tier",
            "the test tier is for cargo test: use quick or full",
        ));
    }
    crate::files::check_outputs(&[], "--out", &args.out, &[args.out.join("manifest.json")])?;
    refuse_earlier_export(&args.out)?;
    let opts = ExportOptions {
        tier,
        filter: args.cases.clone(),
        config: None,
        // the built-in fixtures: verify-iterates rebuilds the same job list from them
        hard: (!args.no_hard).then_some(HardSource::Builtin),
        confirmation: args.confirmation_jobs,
    };
    let control = args
        .control
        .as_deref()
        .map(|c| {
            c.parse::<crate::verify::controls::Control>()
                .map_err(|e| Error::invalid("--control", e.to_string()))
        })
        .transpose()?;
    let table = crate::theorems::builtin();
    let m = export(&table, &opts, &args.out)?;
    if args.write_iterates {
        crate::iterates::write_reference_iterates(&table, &args.out, None, control)?;
    }
    if !args.quiet {
        outln!(
            "exported {} jobs ({} not exportable) to {}; write each job's iterates (t = 0..=t_last) to DIR/jobs/ID/iterates.jsonl",
            m.jobs.len(),
            m.not_exported.len(),
            args.out.join("manifest.json").display()
        );
        for s in &m.not_exported {
            outln!("  not exported: {} ({})", s.id, s.reason);
        }
    }
    Ok(crate::error::EXIT_OK)
}

/// One directory holds one export: iterates files written for an earlier export's jobs would
/// otherwise sit beside the new problem files, and be read as answers to them.
fn refuse_earlier_export(out: &std::path::Path) -> Result<()> {
    for name in ["manifest.json", "jobs"] {
        let earlier = out.join(name);
        if earlier.exists() {
            return Err(Error::input(
                out.display().to_string(),
                "--out",
                format!(
                    "holds an earlier export ({}): export into a new or empty directory (or remove it first), so that no iterates file of the earlier jobs is read as an answer to the new ones",
                    earlier.display()
                ),
            ));
        }
    }
    Ok(())
}
