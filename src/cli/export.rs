//! `saddlefw export`: the jobs of verify for a solver in any language ([`crate::iterates`]).

use crate::console::write_stderr;
use crate::iterates::written;
use crate::iterates::{export, reference_logged as write_logged, ExportOptions};
use crate::ledger::Ledger;
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
    /// With --write-iterates: finish the export in DIR (the same as --out) stopped by a signal
    /// or killed; the iterates files its journal (DIR/manifest.json.journal) holds as they are
    /// are kept, the others written.
    #[arg(long, value_name = "DIR", requires = "write_iterates")]
    pub resume: Option<PathBuf>,
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
    let work = written::identity(
        &tier.to_string(),
        &args.cases,
        args.no_hard,
        args.confirmation_jobs,
        &args.control,
    );
    let mut ledger = match &args.resume {
        Some(dir) => {
            same_directory(dir, &args.out)?;
            written::resume(work, dir)?
        }
        None => {
            refuse_earlier_export(&args.out)?;
            Ledger::new(work)
        }
    };
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
        let record = written::record(&args.out);
        ledger.start_journal(&record, m.jobs.len(), crate::resume::CHECKPOINT_EVERY_S)?;
        crate::interrupt::stop_at(crate::interrupt::Boundary::Job);
        let stopped = write_logged(&table, &args.out, None, control, &ledger)?;
        if let Some(i) = stopped {
            // the journal is the record of the stopped export
            let journal = crate::journal::journal_path(&record);
            let line = i.finish_line_journaled("iterates files", &journal, &args.out);
            write_stderr(format_args!("{line}\n"));
            return Ok(crate::error::EXIT_OK);
        }
        ledger.finish();
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

/// `export --resume DIR` finishes the export in DIR: `--out` must name it too.
fn same_directory(dir: &std::path::Path, out: &std::path::Path) -> Result<()> {
    let same = match (dir.canonicalize(), out.canonicalize()) {
        (Ok(a), Ok(b)) => a == b,
        _ => dir == out,
    };
    if same {
        return Ok(());
    }
    Err(Error::input(
        dir.display().to_string(),
        "--resume",
        format!(
            "is not --out {}: an export is finished in its own directory (give the same DIR to both)",
            out.display()
        ),
    ))
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
