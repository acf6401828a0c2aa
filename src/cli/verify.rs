//! `saddlefw verify`: flags, the run of the theorem table and the report files.

use super::{EXIT_FAILED, EXIT_OK};
use crate::console::write_stderr;
use crate::error::{Error, Result};
use crate::jobs::positive_jobs;
use clap::Args;
use std::path::PathBuf;

/// `saddlefw verify` flags.
#[derive(Debug, Args)]
pub struct VerifyArgs {
    /// quick (CI, under 3 minutes on 2 cores) or full (longer horizons, more seeds).
    #[arg(long, value_name = "TIER", default_value = "quick")]
    pub tier: String,
    /// Only the entries whose id contains FILTER (ids: ALGORITHM/SETTING/primal|dual, e.g.
    /// lmo-lmo/nc-c/primal; FILTER lmo-po/ selects all LMO-PO entries).
    #[arg(long, value_name = "FILTER")]
    pub cases: Option<String>,
    /// Output directory (verify.json and index.html, written atomically).
    #[arg(long, value_name = "DIR", default_value = "reports/verify")]
    pub out: PathBuf,
    /// Worker threads (default: one per core; at most one per job and 4 per core, a larger N
    /// is capped). Results do not depend on it.
    #[arg(long, value_name = "N", allow_negative_numbers = true)]
    pub jobs: Option<i64>,
    /// Stored exponents for the regression gate, instead of the copy built into the binary
    /// (fixtures/rate_baselines.json when it was built). It must exist, except with
    /// --write-baselines.
    #[arg(long, value_name = "FILE")]
    pub baselines: Option<PathBuf>,
    /// Write the observed exponents into the baselines file (--baselines, default
    /// fixtures/rate_baselines.json; quick tier only).
    #[arg(long)]
    pub write_baselines: bool,
    /// Run a deliberately broken variant instead of the real solvers (a negative control:
    /// the gates must fail), e.g. constant-tau, primal-sign-flip, tau-exponent+0.15.
    #[arg(long, value_name = "CONTROL")]
    pub control: Option<String>,
    /// Master seed of the random instance families (0, the default, gives the instances verify
    /// has always run; any other value draws new ones: the verdicts must not depend on it).
    /// The stored hardest instances do not depend on it.
    #[arg(long, value_name = "S", default_value_t = 0)]
    pub seed: u64,
    /// Let the agreement with saddlefw's stored reference exponents (the `baseline` and
    /// `hard-baseline` gates) fail the run also with --control or --seed; by default it gates
    /// only the default run of saddlefw's own solver and is reported otherwise.
    #[arg(long)]
    pub reference_regression: bool,
    /// Print only the summary line (set from the global --quiet).
    #[arg(skip)]
    pub quiet: bool,
    /// Directory of stored hardest instances (`saddlefw tighten`) to gate on instead of the
    /// ones built into the binary (fixtures/hard when it was built). It must exist.
    #[arg(long, value_name = "DIR", conflicts_with = "no_hard")]
    pub hard: Option<PathBuf>,
    /// Skip the hardest instances (random instances only).
    #[arg(long)]
    pub no_hard: bool,
    /// Run only shard I of N of the job list (deterministic partition) for a cluster's batch
    /// scheduler; combine the outputs with `saddlefw merge`. A shard exits 0: its verdicts
    /// are partial.
    #[arg(long, value_name = "I/N")]
    pub shard: Option<String>,
    /// Verify the entries of a user theorem file (format saddlefw-theorems v1, README
    /// "User theorem entries") instead of the paper's table; each case runs the crate's
    /// implementation named by the entry's "solver".
    #[arg(long, value_name = "FILE")]
    pub theorems: Option<PathBuf>,
    /// Finish the run recorded in DIR/verify.json (interrupted by a signal) or its journal
    /// (killed): its completed jobs are reused, the others run. The record must come from this
    /// build, the same --tier, --cases, --control and --shard and inputs of the same content
    /// (--theorems, --hard, --baselines, --no-hard), else exit 2 naming the difference.
    #[arg(long, value_name = "DIR", conflicts_with = "write_baselines")]
    pub resume: Option<PathBuf>,
    /// Every finished job is appended to DIR/verify.json.journal at once (a kill loses only
    /// the jobs in flight; --resume DIR reuses the others), and the journal is flushed to
    /// disk at most every S seconds (a power cut loses at most that interval).
    #[arg(long, value_name = "S", default_value_t = crate::resume::CHECKPOINT_EVERY_S, allow_negative_numbers = true)]
    pub checkpoint_every: f64,
}

/// `saddlefw verify`.
pub(crate) fn cmd_verify(args: VerifyArgs) -> Result<i32> {
    use crate::verify::{self, Tier, VerifyOptions};
    let tier: Tier = args.tier.parse()?;
    if tier == Tier::Test {
        return Err(Error::invalid(
            "--tier",
            "the test tier is for cargo test: use quick or full",
        ));
    }
    let jobs = positive_jobs(args.jobs)?;
    let control = args
        .control
        .as_deref()
        .map(|c| {
            c.parse::<verify::controls::Control>()
                .map_err(|e| Error::invalid("--control", e.to_string()))
        })
        .transpose()?;
    if args.write_baselines && (tier != Tier::Quick || control.is_some()) {
        return Err(Error::invalid(
            "--write-baselines",
            "baselines are the quick tier's exponents of the real solvers: use --tier quick without --control",
        ));
    }
    let baselines_path = args
        .baselines
        .clone()
        .unwrap_or_else(|| PathBuf::from("fixtures/rate_baselines.json"));
    // the baselines file is an input, except that --write-baselines rewrites it on purpose
    let mut inputs: Vec<PathBuf> = args
        .baselines
        .clone()
        .filter(|_| !args.write_baselines)
        .into_iter()
        .collect();
    if let (Some(dir), false) = (&args.hard, args.no_hard) {
        inputs.extend(crate::files::files_in(dir));
    }
    inputs.extend(args.theorems.clone());
    let table = match &args.theorems {
        Some(f) => {
            let table = crate::paper::user::load(f)?;
            t_min_below_horizon(f, &table, tier)?;
            table
        }
        None => crate::theorems::builtin(),
    };
    crate::files::check_outputs(
        &inputs,
        "--out",
        &args.out,
        &[args.out.join("verify.json"), args.out.join("index.html")],
    )?;
    let baselines = match &args.baselines {
        // a file that does not exist yet is where --write-baselines starts a new set
        Some(p) if args.write_baselines && !p.exists() => crate::fit::builtin_baselines(),
        Some(p) => crate::fit::load_baselines(p)?,
        None => crate::fit::builtin_baselines(),
    };
    let opts = VerifyOptions {
        tier,
        filter: args.cases.clone(),
        jobs,
        baselines: baselines.clone(),
        // the reference regression is saddlefw's own regression test (verify::questions)
        gate_baselines: tier.baseline_gated()
            && (args.reference_regression || (control.is_none() && args.seed == 0)),
        control,
        config: None,
        shard: args.shard.as_deref().map(str::parse).transpose()?,
        hard: (!args.no_hard).then(|| {
            match &args.hard {
                Some(dir) => crate::tightness::HardSource::Dir(dir.clone()),
                None => crate::tightness::HardSource::Builtin,
            }
            .into()
        }),
        solver: None,
        confirm_all: false,
        seed: args.seed,
    };
    let every = crate::resume::interval("--checkpoint-every", args.checkpoint_every)?;
    let fingerprint = inputs_of(&args)?;
    let mut log = match &args.resume {
        Some(dir) => verify::resume::read(dir, &table, &opts, fingerprint.clone())?,
        None => crate::ledger::Ledger::new(verify::resume::identity(&opts, fingerprint.clone())),
    };
    let total = verify::job_count(&table, &opts)?;
    log.start_journal(&args.out.join("verify.json"), total, every)?;
    crate::interrupt::stop_at(crate::interrupt::Boundary::Job);
    let mut report = verify::run_logged(&table, &opts, &log)?;
    report.inputs = fingerprint;
    let (json_path, html_path) =
        report.write_outputs(&args.out, &crate::invariants::verify_page_tables()?)?;
    log.finish();
    if let Some(i) = &report.interrupted {
        write_stderr(format_args!("{}\n", i.finish_line("jobs", &args.out)));
    }
    if args.write_baselines {
        let mut b = baselines;
        b.extend(report.baselines());
        crate::fit::write_baselines(&baselines_path, &b)?;
    }
    if args.quiet {
        outln!("{}", report.summary_line());
    } else {
        out!("{}", report.table());
        out!("{}", crate::tightness::table(&report));
        outln!("wrote {} and {}", json_path.display(), html_path.display());
        if args.write_baselines {
            outln!("wrote {}", baselines_path.display());
        }
    }
    Ok(if report.failed { EXIT_FAILED } else { EXIT_OK })
}

/// The inputs a verify run's results depend on ([`crate::fingerprint`]): the theorem file,
/// the hard-instance directory (or `--no-hard`) and the baselines file (unless
/// `--write-baselines` rewrites it).
fn inputs_of(args: &VerifyArgs) -> Result<crate::fingerprint::Inputs> {
    let mut inputs = crate::fingerprint::Inputs::default();
    if let Some(f) = &args.theorems {
        inputs = inputs.file("--theorems", f)?;
    }
    match (&args.hard, args.no_hard) {
        (Some(dir), false) => inputs = inputs.dir("--hard", dir)?,
        (_, no_hard) => inputs = inputs.switch("--no-hard", no_hard),
    }
    if let (Some(f), false) = (&args.baselines, args.write_baselines) {
        inputs = inputs.file("--baselines", f)?;
    }
    Ok(inputs)
}

/// Refuses a claim of the theorem file `file` that starts at or after the tier's horizon
/// (`T_min >= T_max`): nothing this run measures speaks about it (an input error, not a fail).
fn t_min_below_horizon(
    file: &std::path::Path,
    table: &[crate::theorems::TheoremEntry],
    tier: crate::verify::Tier,
) -> Result<()> {
    let t_max = tier.config().t_max;
    match table.iter().find(|e| e.t_min >= t_max) {
        None => Ok(()),
        Some(e) => Err(Error::input(
            file.display().to_string(),
            format!("entry {}: T_min", e.id),
            format!(
                "{} is not below the horizon T_max = {t_max} of --tier {tier}: the run measures nothing the claim speaks about (lower T_min, or use a tier with a longer horizon)",
                e.t_min
            ),
        )),
    }
}
