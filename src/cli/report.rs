//! `saddlefw report`: RUN.json files as one HTML page.

use super::EXIT_OK;
use crate::error::Result;
use clap::Args;
use std::path::PathBuf;

/// `saddlefw report` flags.
#[derive(Debug, Args)]
pub struct ReportArgs {
    /// RUN.json files written by `saddlefw run`.
    #[arg(required = true, value_name = "RUN.json")]
    pub runs: Vec<PathBuf>,
    /// The HTML file to write.
    #[arg(long, value_name = "FILE.html")]
    pub out: PathBuf,
    /// What to plot: stationarity (G_X^LMO + G_Y, or G_X^PO + G_Y for PO-primal methods, as
    /// in the paper's Figure 1), gx_lmo, gx_po, gy, gy_lmo, h or gap_opt.
    #[arg(long, value_name = "MEASURE", default_value = "stationarity")]
    pub measure: String,
}

/// `saddlefw report`.
pub(crate) fn cmd_report(args: ReportArgs) -> Result<i32> {
    let measure: crate::paper::measure::RunMeasure = args.measure.parse()?;
    crate::files::check_outputs(&args.runs, "--out", &args.out, &[args.out.clone()])?;
    let mut runs = Vec::new();
    for path in &args.runs {
        let trace = crate::trace::Trace::read(path)?;
        runs.push(crate::report::runs::summary(&trace, measure));
    }
    let meta = crate::report::Meta::current(None, &[]);
    let page = crate::report::runs_page(&meta, &runs);
    crate::files::write_atomic(&args.out, page.as_bytes())?;
    outln!("wrote {} ({} runs)", args.out.display(), runs.len());
    Ok(EXIT_OK)
}
