//! `saddlefw export` and `saddlefw verify-iterates` (the any-language route, [`super`]).

use super::export::{export, ExportOptions};
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
    /// Directory of stored hardest instances instead of the ones built into the binary.
    #[arg(long, value_name = "DIR", conflicts_with = "no_hard")]
    pub hard: Option<PathBuf>,
    /// Leave the stored hardest instances out (random instances only).
    #[arg(long)]
    pub no_hard: bool,
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
pub fn cmd_export(args: ExportArgs) -> Result<i32> {
    let tier: Tier = args.tier.parse()?;
    if tier == Tier::Test {
        return Err(Error::invalid(
            "--tier",
            "the test tier is for cargo test: use quick or full",
        ));
    }
    let inputs = args
        .hard
        .as_ref()
        .filter(|_| !args.no_hard)
        .map(|d| crate::files::json_files_in(d))
        .unwrap_or_default();
    crate::files::check_outputs(
        &inputs,
        "--out",
        &args.out,
        &[args.out.join("manifest.json")],
    )?;
    let opts = ExportOptions {
        tier,
        filter: args.cases.clone(),
        config: None,
        hard: (!args.no_hard).then(|| match &args.hard {
            Some(dir) => HardSource::Dir(dir.clone()),
            None => HardSource::Builtin,
        }),
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
        super::reference::write_reference_iterates(&table, &args.out, None, control)?;
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

/// `saddlefw verify-iterates` flags.
#[derive(Debug, clap::Args)]
pub struct VerifyIteratesArgs {
    /// The export directory (written by `saddlefw export`; its manifest.json).
    #[arg(value_name = "DIR")]
    pub dir: PathBuf,
    /// Where the iterate files are: the manifest's paths (jobs/ID/iterates.jsonl) are taken
    /// relative to ROOT instead of DIR.
    #[arg(long, value_name = "ROOT")]
    pub iterates: Option<PathBuf>,
    /// Output directory (verify.json and index.html, written atomically).
    #[arg(long, value_name = "OUT", default_value = "reports/verify-iterates")]
    pub out: PathBuf,
    /// Worker threads (default: one per core). Results do not depend on it.
    #[arg(long, value_name = "N", allow_negative_numbers = true)]
    pub jobs: Option<i64>,
    /// Print only the summary line (set from the global --quiet).
    #[arg(skip)]
    pub quiet: bool,
}

/// `saddlefw verify-iterates`.
pub fn cmd_verify_iterates(args: VerifyIteratesArgs) -> Result<i32> {
    use super::judge::{verify_iterates, JudgeOptions};
    let jobs = crate::cli::positive_jobs(args.jobs)?;
    crate::files::check_outputs(
        &[args.dir.join("manifest.json")],
        "--out",
        &args.out,
        &[args.out.join("verify.json"), args.out.join("index.html")],
    )?;
    let table = crate::theorems::builtin();
    let opts = JudgeOptions {
        export_dir: args.dir.clone(),
        iterates_root: args.iterates.clone(),
        jobs,
    };
    let report = verify_iterates(&table, &opts)?;
    let (json_path, html_path) = crate::cli::write_verify_outputs(&report, &args.out)?;
    let table = report.table();
    if args.quiet {
        if let Some(l) = table.lines().last() {
            outln!("{l}");
        }
    } else {
        out!("{table}");
        out!("{}", crate::tightness::table(&report));
        outln!("wrote {} and {}", json_path.display(), html_path.display());
    }
    Ok(if report.failed {
        crate::error::EXIT_FAILED
    } else {
        crate::error::EXIT_OK
    })
}
