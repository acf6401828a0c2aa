//! `saddlefw check`: flags, the invariant run and CHECK.json / its page.

use super::{EXIT_FAILED, EXIT_OK};
use crate::console::write_stderr;
use crate::error::{Error, Result};
use crate::jobs::positive_jobs;
use clap::Args;
use std::path::{Path, PathBuf};

/// `saddlefw check` flags.
#[derive(Debug, Args)]
pub struct CheckArgs {
    /// Number of random cases (instances), at least 1.
    #[arg(
        long,
        value_name = "N",
        default_value_t = 200,
        allow_negative_numbers = true
    )]
    pub cases: i64,
    /// Base seed of the cases.
    #[arg(long, value_name = "K", default_value_t = 0)]
    pub seed: u64,
    /// Where to write the report: `FILE.json` (the HTML page goes beside it, `FILE.html`) or
    /// a directory `DIR` (`DIR/CHECK.json` and `DIR/index.html`). Files are written atomically.
    #[arg(long, value_name = "CHECK.json|DIR")]
    pub out: Option<PathBuf>,
    /// List the registry (names, labels, hypotheses, statements) and exit.
    #[arg(long)]
    pub list: bool,
    /// With --list: print the Markdown mapping (docs/invariants.md).
    #[arg(long, requires = "list")]
    pub markdown: bool,
    /// Worker threads (default: one per core; at most one per job and 4 per core, a larger N
    /// is capped). Results do not depend on it.
    #[arg(long, value_name = "N", allow_negative_numbers = true)]
    pub jobs: Option<i64>,
    /// Run only shard I of N of the job list (random cases, then witness instances;
    /// deterministic partition) and store its per-job tallies in the --out file (required);
    /// combine the shards with `saddlefw merge`.
    #[arg(long, value_name = "I/N", requires = "out")]
    pub shard: Option<String>,
    /// Run a negative control instead of the real check: a deliberately broken variant that
    /// must make a named invariant fail (exit 1). NAME is one of: gamma-without-min (Alg 1,
    /// gamma_t without min{., 1}), beta-ignored (Alg 1, beta_t left out of the dual gradient),
    /// primal-sign-flip (Alg 1, primal ascent step), wrong-sign-measure (G_Y negated),
    /// wrong-sign-gx-lmo (G_X^LMO negated), no-smoothing-h (H_t with beta = 0),
    /// understated-constants (Lxx, Lyx reported 10x too small). See `saddlefw list`.
    #[arg(long, value_name = "NAME", conflicts_with = "shard")]
    pub control: Option<String>,
    /// Finish the check recorded in DIR/CHECK.json or FILE (interrupted by a signal, or a
    /// shard): its jobs are reused, the others run. The record must come from this build and
    /// the same --cases, --seed, --control and --shard (else exit 2 with the reason).
    #[arg(long, value_name = "DIR|FILE")]
    pub resume: Option<PathBuf>,
    /// With --out: every finished job is appended to CHECK.json.journal beside the report at
    /// once (a kill loses only the jobs in flight; --resume reuses the others), flushed to
    /// disk at most every S seconds.
    #[arg(long, value_name = "S", default_value_t = crate::resume::CHECKPOINT_EVERY_S, allow_negative_numbers = true)]
    pub checkpoint_every: f64,
}

/// Runs `saddlefw check`.
pub(crate) fn cmd_check(args: CheckArgs) -> Result<i32> {
    use crate::invariants;
    if args.list {
        if args.markdown {
            out!("{}", invariants::markdown());
        } else {
            out!("{}", invariants::list());
        }
        return Ok(EXIT_OK);
    }
    if args.cases < 1 || args.cases as u64 > invariants::check::MAX_CASES as u64 {
        return Err(Error::invalid(
            "--cases",
            format!(
                "must be in 1..={}, got {}",
                invariants::check::MAX_CASES,
                args.cases
            ),
        ));
    }
    if let Some(out) = &args.out {
        let (json, html) = check_output_paths(out);
        crate::files::check_outputs(&[], "--out", out, &[json, html])?;
    }
    let jobs = positive_jobs(args.jobs)?.unwrap_or_else(invariants::check::available_threads);
    let shard = args.shard.as_deref().map(str::parse).transpose()?;
    let control: Option<invariants::controls::CheckControl> =
        args.control.as_deref().map(str::parse).transpose()?;
    let opts = control.map_or_else(invariants::check::CaseOptions::default, |c| c.options());
    let cases = args.cases as usize;
    let every = crate::resume::interval("--checkpoint-every", args.checkpoint_every)?;
    let control_name = control.map(|c| c.name());
    let work = invariants::resume::identity(cases, args.seed, control_name, shard);
    let mut resume = match &args.resume {
        Some(p) => invariants::resume::read(p, work)?,
        None => crate::ledger::Ledger::new(work),
    };
    if let Some(out) = &args.out {
        let (json, _) = check_output_paths(out);
        let total = cases + invariants::witness::witness_cases()?.len();
        resume.start_journal(&json, total, every)?;
    }
    crate::interrupt::stop_at(crate::interrupt::Boundary::Job);
    let mut report =
        invariants::check::run_check_resumed(cases, args.seed, &opts, jobs, shard, Some(&resume))?;
    report.control = control.map(|c| format!("{}: {}", c.name(), c.description()));
    out!("{}", report.table());
    if let Some(out) = &args.out {
        let (json, html) = write_check_outputs(&report, out)?;
        resume.finish();
        outln!("wrote {} and {}", json.display(), html.display());
    }
    if let Some(i) = &report.interrupted {
        let dir = args
            .out
            .as_deref()
            .unwrap_or(std::path::Path::new("CHECK.json"));
        write_stderr(format_args!("{}\n", i.finish_line("jobs", dir)));
    }
    Ok(if report.passed() {
        EXIT_OK
    } else {
        EXIT_FAILED
    })
}

/// Where `check --out OUT` writes: a path ending in `.json` is the JSON file itself, with the
/// page beside it (`CHECK.json` and `CHECK.html`); any other path is a directory receiving
/// `CHECK.json` and `index.html`, like `verify --out DIR`.
pub(crate) fn check_output_paths(out: &Path) -> (PathBuf, PathBuf) {
    let is_json = out
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("json"));
    if is_json {
        (out.to_path_buf(), out.with_extension("html"))
    } else {
        (out.join("CHECK.json"), out.join("index.html"))
    }
}

/// Writes the check report's JSON and HTML page (atomically) where [`check_output_paths`]
/// says, creating missing directories; returns the two paths.
pub(super) fn write_check_outputs(
    report: &crate::invariants::CheckReport,
    out: &Path,
) -> Result<(PathBuf, PathBuf)> {
    let (json_path, html_path) = check_output_paths(out);
    let json = serde_json::to_string_pretty(report)
        .map_err(|e| Error::invalid("CHECK.json", e.to_string()))?;
    if let Some(dir) = json_path.parent().filter(|d| !d.as_os_str().is_empty()) {
        crate::files::create_dir_all(dir)?;
    }
    crate::files::write_atomic(&json_path, (json + "\n").as_bytes())?;
    let mut meta = crate::report::Meta::current(None, &[report.seed]);
    meta.interrupted = report.interrupted.as_ref().map(|i| {
        format!(
            "{}: finish it with saddlefw check --resume {}",
            i.describe("jobs"),
            out.display()
        )
    });
    let page = crate::report::check_page(&meta, &report.invariant_rows(), &report.errata_rows());
    crate::files::write_atomic(&html_path, page.as_bytes())?;
    Ok((json_path, html_path))
}
