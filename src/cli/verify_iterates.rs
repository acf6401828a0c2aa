//! `saddlefw verify-iterates`: verify on the iterate files of an export ([`crate::iterates`]).

use crate::Result;
use std::path::PathBuf;

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
    /// Differential mode: also run saddlefw's own ALGO (lmo-lmo, lmo-po, po-lmo) on each job's
    /// instance, schedule and start and report the first iterate and coordinate where your
    /// iterates depart from it (tolerance 1e-9 + 1e-6 |saddlefw's|), before the run's chaos
    /// horizon; a departure fails the run (exit 1).
    #[arg(long, value_name = "ALGO")]
    pub against: Option<String>,
    /// Print only the summary line (set from the global --quiet).
    #[arg(skip)]
    pub quiet: bool,
}

/// `saddlefw verify-iterates`.
pub(crate) fn cmd_verify_iterates(args: VerifyIteratesArgs) -> Result<i32> {
    use crate::iterates::{verify_iterates, JudgeOptions};
    let jobs = crate::jobs::positive_jobs(args.jobs)?;
    crate::files::check_outputs(
        &[args.dir.join("manifest.json")],
        "--out",
        &args.out,
        &[args.out.join("verify.json"), args.out.join("index.html")],
    )?;
    let against = args
        .against
        .as_deref()
        .map(|name| {
            crate::paper::Algorithm::parse(name).ok_or_else(|| {
                crate::Error::invalid(
                    "--against",
                    format!("unknown algorithm {name:?} (lmo-lmo, lmo-po or po-lmo)"),
                )
            })
        })
        .transpose()?;
    let table = crate::theorems::builtin();
    let opts = JudgeOptions {
        export_dir: args.dir.clone(),
        iterates_root: args.iterates.clone(),
        jobs,
    };
    // the comparison first: a wrong ALGO is an input error before the long verify run
    let differential = against
        .map(|a| crate::iterates::compare_iterates(&table, &opts, a))
        .transpose()?;
    let mut report = verify_iterates(&table, &opts)?;
    if let Some(d) = differential {
        report.attach_differential(d);
    }
    let (json_path, html_path) =
        report.write_outputs(&args.out, &crate::invariants::verify_page_tables()?)?;
    if args.quiet {
        outln!("{}", report.summary_line());
        if let Some(d) = &report.differential {
            outln!("{}", d.summary_line());
        }
    } else {
        out!("{}", report.table());
        out!("{}", crate::tightness::table(&report));
        if let Some(d) = &report.differential {
            out!("{}", d.table());
        }
        outln!("wrote {} and {}", json_path.display(), html_path.display());
    }
    Ok(if report.failed {
        crate::error::EXIT_FAILED
    } else {
        crate::error::EXIT_OK
    })
}
