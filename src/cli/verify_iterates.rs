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
    /// Print only the summary line (set from the global --quiet).
    #[arg(skip)]
    pub quiet: bool,
}

/// `saddlefw verify-iterates`.
pub fn cmd_verify_iterates(args: VerifyIteratesArgs) -> Result<i32> {
    use crate::iterates::{verify_iterates, JudgeOptions};
    let jobs = crate::jobs::positive_jobs(args.jobs)?;
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
    let (json_path, html_path) =
        report.write_outputs(&args.out, &crate::invariants::verify_page_tables()?)?;
    if args.quiet {
        outln!("{}", report.summary_line());
    } else {
        out!("{}", report.table());
        out!("{}", crate::tightness::table(&report));
        outln!("wrote {} and {}", json_path.display(), html_path.display());
    }
    Ok(if report.failed {
        crate::error::EXIT_FAILED
    } else {
        crate::error::EXIT_OK
    })
}
