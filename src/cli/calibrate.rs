//! `saddlefw calibrate`: the gates' false alarms and power over the two panels of
//! [`crate::calibration`].

use crate::calibration::{self, CalibrationOptions, Variant};
use crate::error::{Error, Result};
use crate::error::{EXIT_FAILED, EXIT_OK};
use crate::jobs::positive_jobs;
use clap::Args;
use std::path::PathBuf;

/// `saddlefw calibrate` flags.
#[derive(Debug, Args)]
pub struct CalibrateArgs {
    /// Only the entries whose id contains FILTER.
    #[arg(long, value_name = "FILTER")]
    pub cases: Option<String>,
    /// Only these variants (comma-separated: seed=S or a control, e.g. beta-scale*2,float-order).
    #[arg(long, value_name = "LIST")]
    pub variants: Option<String>,
    /// Output directory: calibration.json, calibration.md and calibration-summary.json (the verify
    /// page's section; copy it to fixtures/ with docs/calibration.md), written atomically.
    #[arg(long, value_name = "DIR", default_value = "reports/calibration")]
    pub out: PathBuf,
    /// Worker threads of each verify run (default: one per core).
    #[arg(long, value_name = "N", allow_negative_numbers = true)]
    pub jobs: Option<i64>,
}

/// `saddlefw calibrate`: exit 1 when a legitimate variant fails a gate or a faulty one that
/// changes a rate is caught by no entry of its algorithm.
pub(crate) fn cmd_calibrate(args: CalibrateArgs) -> Result<i32> {
    let variants =
        args.variants
            .as_deref()
            .map(|list| {
                list.split(',')
                    .map(|v| match v.trim().strip_prefix("seed=") {
                        Some(s) => s.parse::<u64>().map(Variant::Seed).map_err(|_| {
                            Error::invalid("--variants", format!("bad seed in {v:?}"))
                        }),
                        None => v
                            .trim()
                            .parse()
                            .map(Variant::Control)
                            .map_err(|e: Error| Error::invalid("--variants", e.to_string())),
                    })
                    .collect::<Result<Vec<_>>>()
            })
            .transpose()?;
    crate::files::check_outputs(
        &[],
        "--out",
        &args.out,
        &[
            args.out.join("calibration.json"),
            args.out.join("calibration.md"),
            args.out.join("calibration-summary.json"),
        ],
    )?;
    let opts = CalibrationOptions {
        filter: args.cases.clone(),
        variants,
        jobs: positive_jobs(args.jobs)?,
        ..CalibrationOptions::default()
    };
    crate::interrupt::stop_at(crate::interrupt::Boundary::Job);
    let cal = calibration::run(&opts)?;
    std::fs::create_dir_all(&args.out)
        .map_err(|e| Error::input(args.out.display().to_string(), "create", e.to_string()))?;
    let json = serde_json::to_string_pretty(&cal)
        .map_err(|e| Error::invalid("calibration.json", e.to_string()))?;
    crate::files::write_atomic(&args.out.join("calibration.json"), json.as_bytes())?;
    let summary = serde_json::to_string_pretty(&cal.summary())
        .map_err(|e| Error::invalid("calibration-summary.json", e.to_string()))?;
    crate::files::write_atomic(
        &args.out.join("calibration-summary.json"),
        (summary + "\n").as_bytes(),
    )?;
    let md = calibration::markdown(&cal);
    crate::files::write_atomic(&args.out.join("calibration.md"), md.as_bytes())?;
    outln!(
        "legitimate panel: {} cells, {} false alarm(s); faulty panel: {} power gap(s); {:.0} s",
        cal.legitimate_cells,
        cal.false_alarms.len(),
        cal.power_gaps().len(),
        cal.time_s
    );
    for f in &cal.false_alarms {
        outln!("  false alarm: {f}");
    }
    for p in cal.power_gaps() {
        outln!("  not caught: {} {}", p.algorithm, p.variant);
    }
    outln!("wrote {}", args.out.join("calibration.md").display());
    Ok(
        if cal.false_alarms.is_empty() && cal.power_gaps().is_empty() {
            EXIT_OK
        } else {
            EXIT_FAILED
        },
    )
}
