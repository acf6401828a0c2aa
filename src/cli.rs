//! The command line: clap definitions (raw strings and numbers) and their validation into
//! typed values, one function per subcommand. `main.rs` only calls [`main`].
//!
//! Exit codes: 0 success; 1 a check or gate failed; 2 a usage or input error, reported as one
//! line `error: ...` naming the input. A run that diverges is data, not an error: RUN.json is
//! written with status "diverged" and the exit code is 0.
//!
//! Adding a subcommand: a variant of [`Command`] with its `Args` struct (help with
//! `after_help` examples and exit codes), and a `cmd_*` function returning the exit code.
//!
//! ```
//! use saddlefw::cli::{main_with_args, EXIT_OK, EXIT_USAGE};
//! assert_eq!(main_with_args(["saddlefw", "--version"]), EXIT_OK);
//! // prints `error: invalid --cases: must be at least 1, got 0` on stderr
//! assert_eq!(main_with_args(["saddlefw", "check", "--cases", "0"]), EXIT_USAGE);
//! ```

use crate::generators::{Family, GeneratorSpec, Setting, XKind};
use crate::harness::{self, CheckpointRule, RunConfig};
use crate::problems::quadratic::QuadraticFile;
use crate::problems::Instance;
use crate::solvers::registry::{self, Options};
use crate::solvers::schedule::{self, Schedule};
use crate::trace::Status;
use crate::{Error, Result};
use clap::{Args, Parser, Subcommand};
use std::ffi::OsString;
use std::path::{Path, PathBuf};

pub use crate::error::{EXIT_FAILED, EXIT_OK, EXIT_USAGE};

/// The top-level help after the subcommand list.
const MAIN_AFTER_HELP: &str = "\
Exit codes:
  0  success
  1  a check or gate failed (check: a gating invariant was violated; verify, merge: a gate failed)
  2  a usage or input error: one line `error: ...` naming the input, the location and the reason
     (also a run that diverged: RUN.json is written with every checkpoint before it)
A closed stdout (`saddlefw list | head -1`) changes neither the files written nor the exit code.

Examples:
  saddlefw list
  saddlefw run --problem quadratic/nc-c:dx=20,dy=10 --algo lmo-lmo --iters 1000 --out RUN.json
  saddlefw run --problem my-problem.json --algo po-lmo --iters 500 --out RUN.json
  saddlefw check --cases 200 --seed 0 --out CHECK.json
  saddlefw verify --tier quick --out reports/verify
  saddlefw experiment dl --time-limit 60 --out reports/dl
  saddlefw COMMAND --help                          # every command's options, examples, exit codes

Progress is drawn on stderr when it is a terminal (never in pipes or CI logs); --quiet turns it off.";

/// saddlefw: executable checks of "Projection-Free Algorithms for Minimax Problems".
///
/// Runs the paper's algorithms (LMO-LMO, LMO-PO, PO-LMO) and baselines on generated or
/// user-supplied saddle-point problems, measures the paper's gaps exactly, and checks the
/// paper's inequalities and rates.
#[derive(Debug, Parser)]
#[command(name = "saddlefw", version, about, after_help = MAIN_AFTER_HELP)]
pub struct Cli {
    /// No progress display on stderr; `run` prints nothing on success, `verify` only its
    /// summary line.
    #[arg(long, short = 'q', global = true)]
    pub quiet: bool,
    #[command(subcommand)]
    pub command: Command,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Run one algorithm on one problem and write RUN.json.
    ///
    /// The problem is a generator spec (seeded random instance with certified constants) or a
    /// problem file (JSON format saddlefw-quadratic-v1, see the README). Measures (G_X^LMO,
    /// G_X^PO, G_Y, G_Y^LMO, H_t, G^Opt) are evaluated at log2-spaced iterates by default. A
    /// run whose iterates or gradients become non-finite stops, records the iteration and the
    /// cause, keeps what was measured before in RUN.json, and exits 2 with one error line.
    #[command(after_help = "\
Examples:
  saddlefw run --problem quadratic/nc-c:dx=20,dy=10 --algo lmo-lmo --iters 1000 --out RUN.json
  saddlefw run --problem saddle/c-sc+sc:dx=50,dy=20,seed=3 --algo lmo-po --iters 4096 \\
               --checkpoints all --out RUN.json
  saddlefw run --problem problem.json --algo po-lmo --iters 500 --time-limit 10 --out RUN.json
  saddlefw run --problem cosine/nc-c:dx=8,dy=4 --algo lmo-lmo --iters 1000 \\
               --tau-schedule 'shifted(c=1,s=10,a=0.8)' --beta-schedule 'anytime(c=0.1,a=0.2)' --out RUN.json

Exit codes: 0 written, 2 usage or input error, or the run diverged (non-finite values: RUN.json
is still written, with the iteration, the cause and every checkpoint before it).")]
    Run(Box<RunArgs>),
    /// List algorithms, schedules, theorem cases, invariants, sets and generator families.
    ///
    /// Everything is printed from the registries the commands use: algorithms (with
    /// provenance and oracle calls per iteration), schedule notations, the paper's default
    /// schedules, the theorem table, the invariants, set kinds and generator families.
    #[command(after_help = "\
Examples:
  saddlefw list
  saddlefw list | grep -A2 '^  po-lmo'

Exit codes: 0 printed, 2 usage error (an unknown option).")]
    List,
    /// Run the paper's experiments (Figure 1, Table 3): all seven algorithms on DL, NEWS20 or
    /// RCV1; writes DIR/experiment.json and DIR/index.html.
    ///
    /// Every algorithm gets the paper's schedules and parameters and a budget of solver time;
    /// a progress line per algorithm is drawn on stderr when it is a terminal.
    #[command(after_help = "\
Examples:
  saddlefw experiment dl --time-limit 300 --out reports/dl
  saddlefw experiment news20 --data /path/to/news20.bz2 --time-limit 60
  saddlefw experiment rcv1 --data rcv1_train.multiclass.bz2 --rows 20000 --seed 1
  saddlefw experiment dl --rerender --out reports/dl     # re-judge and redraw, run nothing

Exit codes: 0 written, 2 usage or input error (a malformed data file names the file and line).")]
    Experiment(crate::experiments::command::ExperimentArgs),
    /// Verify every theorem entry's rate on generated instances; write DIR/verify.json and
    /// DIR/index.html.
    ///
    /// For each entry of the theorem table (fixtures/theorems.json), runs the algorithm with
    /// the theorem's schedule on generated instances, fits the log-log slope of the bounded
    /// quantity, and gates it against the theorem's exponent, the bound's constant and the
    /// recorded baselines. Exit code 1 when a gate fails.
    #[command(after_help = "\
Examples:
  saddlefw verify                                  # quick tier, all entries, reports/verify/
  saddlefw verify --tier full --jobs 2
  saddlefw verify --cases lmo-po/ --out /tmp/v     # only the LMO-PO entries
  saddlefw verify --write-baselines                # refresh fixtures/rate_baselines.json

Exit codes: 0 every gate passes, 1 a gate failed, 2 usage or input error.")]
    Verify(VerifyArgs),
    /// Check every inequality of the paper (claims.md Sec. 4) on random instances and runs.
    ///
    /// Exit 1 on a violation of a gating invariant. Printed forms of recorded slips are
    /// reported as errata and never gate.
    #[command(after_help = "\
Examples:
  saddlefw check --cases 200 --seed 0 --out CHECK.json
  saddlefw check --cases 20 --quiet          # a quick pass, no progress bar
  saddlefw check --list                      # the registry: names, labels, statements
  saddlefw check --list --markdown > docs/invariants.md
  saddlefw check --cases 600 --shard 1/3 --out s1/CHECK.json   # and 2/3, 3/3 elsewhere
  saddlefw merge s1 s2 s3 --out reports/check

Exit codes: 0 every gating invariant holds, 1 a violation (in a shard: in its jobs),
2 usage or input error (e.g. an unwritable --out).")]
    Check(CheckArgs),
    /// Merge the outputs of `saddlefw verify --shard I/N` or `saddlefw check --shard I/N`
    /// (all N shards) into the report a single machine would have written.
    ///
    /// For verify, the merge re-judges every entry on the runs of all shards (and runs the
    /// stored hard instances once); for check, it folds the shards' per-job tallies in job
    /// order. Missing, duplicate or mismatched shards are refused.
    #[command(after_help = "\
Examples:
  saddlefw verify --shard 1/3 --out s1             # and 2/3, 3/3 on other machines
  saddlefw merge s1 s2 s3 --out reports/verify
  saddlefw check --shard 1/2 --out c1/CHECK.json   # and 2/2
  saddlefw merge c1 c2 --out reports/check         # CHECK.json and index.html

Exit codes: 0 every gate passes, 1 a gate failed, 2 usage or input error (a bad shard).")]
    Merge(MergeArgs),
    /// Render RUN.json files as one self-contained HTML page.
    ///
    /// Several algorithms on one problem: the measure against iteration and against solver
    /// time, one line per algorithm.
    #[command(after_help = "\
Examples:
  for a in lmo-lmo lmo-po sp-fw; do
    saddlefw run --problem saddle/c-c:dx=30,dy=10 --algo $a --iters 2000 --out $a.json
  done
  saddlefw report lmo-lmo.json lmo-po.json sp-fw.json --out runs.html
  saddlefw report lmo-lmo.json --measure gap_opt --out gap.html

Exit codes: 0 written, 2 usage or input error (a malformed RUN.json names the file and line).")]
    Report(ReportArgs),
    /// Search the hard instance families for the instance on which each theorem entry's
    /// observed exponent is smallest; write DIR/tighten.json (and fixtures/hard/ with
    /// --write-fixtures).
    ///
    /// A search, not a gate: the stored fixtures are what `saddlefw verify` gates on.
    #[command(after_help = "\
Examples:
  saddlefw tighten --cases lmo-po/ --budget 30
  saddlefw tighten --budget 60 --jobs 2 --write-fixtures

Exit codes: 0 searched and written, 2 usage or input error (a malformed fixture names the file).")]
    Tighten(crate::tightness::TightenArgs),
}

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
    /// Finish the run recorded in DIR/verify.json (interrupted by a signal): its completed
    /// jobs are reused, the others run. The record must come from this build and the same
    /// --tier, --cases, --control and --shard (else exit 2 with the reason).
    #[arg(long, value_name = "DIR", conflicts_with = "write_baselines")]
    pub resume: Option<PathBuf>,
}

/// `saddlefw merge` flags.
#[derive(Debug, Args)]
pub struct MergeArgs {
    /// Shard outputs: directories written by `saddlefw verify --shard I/N` (each holds a
    /// verify.json), or the CHECK.json files of `saddlefw check --shard I/N` (or their
    /// directories).
    #[arg(required = true, value_name = "DIR|FILE")]
    pub dirs: Vec<PathBuf>,
    /// Where to write the merged report: verify.json and index.html (default reports/verify),
    /// or CHECK.json and index.html (default reports/check).
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// Stored exponents for the regression gate, instead of the copy built into the binary.
    #[arg(long, value_name = "FILE")]
    pub baselines: Option<PathBuf>,
}

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
}

/// Runs `saddlefw check`.
pub fn cmd_check(args: CheckArgs) -> Result<i32> {
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
    let control: Option<invariants::controls::Control> =
        args.control.as_deref().map(str::parse).transpose()?;
    let opts = control.map_or_else(invariants::check::CaseOptions::default, |c| c.options());
    let cases = args.cases as usize;
    let resume = match &args.resume {
        Some(p) => {
            invariants::resume::Resume::read(p, cases, args.seed, control.map(|c| c.name()), shard)?
        }
        None => invariants::resume::Resume::default(),
    };
    crate::interrupt::stop_at(crate::interrupt::Boundary::Job);
    let mut report =
        invariants::check::run_check_resumed(cases, args.seed, &opts, jobs, shard, Some(&resume))?;
    report.control = control.map(|c| format!("{}: {}", c.name(), c.description()));
    out!("{}", report.table());
    if let Some(out) = &args.out {
        let (json, html) = write_check_outputs(&report, out)?;
        outln!("wrote {} and {}", json.display(), html.display());
    }
    if let Some(i) = &report.interrupted {
        write_stderr(format_args!(
            "{}; finish it with --resume {}\n",
            i.describe("jobs"),
            args.out
                .as_deref()
                .map_or("CHECK.json".into(), |o| o.display().to_string())
        ));
    }
    Ok(if report.passed() {
        EXIT_OK
    } else {
        EXIT_FAILED
    })
}

/// `saddlefw run` flags (raw; validated by [`RunArgs::validate`]).
#[derive(Debug, Args)]
pub struct RunArgs {
    /// A problem file (JSON, format saddlefw-quadratic-v1) or a generator spec
    /// FAMILY/SETTING[:dx=N,dy=N,seed=K,x=l1|l2|simplex|box], e.g. quadratic/c-sc+sc:dx=20,dy=10.
    /// A value that is an existing file or ends in .json is read as a file.
    #[arg(long, value_name = "FILE.json|SPEC")]
    pub problem: String,
    /// Algorithm: lmo-lmo, lmo-po, po-lmo, sp-fw, agp, r-pdcg, cg-rpga (see `saddlefw list`).
    #[arg(long, value_name = "NAME")]
    pub algo: String,
    /// Number of iterations T (at least 1).
    #[arg(long, value_name = "N", allow_negative_numbers = true)]
    pub iters: i64,
    /// Stop when the solver time exceeds this many seconds (measurement time excluded).
    #[arg(long, value_name = "SECONDS", allow_negative_numbers = true)]
    pub time_limit: Option<f64>,
    /// Exponent a of tau_t = tau0 (t+1)^-a (paper algorithms; default: the theorem case).
    #[arg(long, allow_negative_numbers = true, conflicts_with = "tau_schedule")]
    pub a: Option<f64>,
    /// Exponent b of beta_t = C (t+1)^-b (paper algorithms; default: the theorem case).
    #[arg(long, allow_negative_numbers = true, conflicts_with = "beta_schedule")]
    pub b: Option<f64>,
    /// C of beta_t = C (t+1)^-b (paper algorithms; default 1, or 0 for the beta_t = 0 cases);
    /// the regularisation mu for r-pdcg and cg-rpga. C = 0 needs mu > 0.
    #[arg(
        long,
        value_name = "C",
        allow_negative_numbers = true,
        conflicts_with = "beta_schedule"
    )]
    pub beta0: Option<f64>,
    /// tau0 of tau_t = tau0 (t+1)^-a (paper algorithms; default 1; for po-lmo it replaces the
    /// appendix schedule); the constant tau for r-pdcg and cg-rpga.
    #[arg(
        long,
        value_name = "T0",
        allow_negative_numbers = true,
        conflicts_with = "tau_schedule"
    )]
    pub tau0: Option<f64>,
    /// An explicit tau schedule, e.g. "shifted(c=1.7411011265922482,s=10,a=0.8)".
    #[arg(long, value_name = "SCHEDULE")]
    pub tau_schedule: Option<String>,
    /// An explicit beta schedule, e.g. "shifted(c=0.01,s=10,a=0.2)".
    #[arg(long, value_name = "SCHEDULE")]
    pub beta_schedule: Option<String>,
    /// Horizon K of r-pdcg and cg-rpga (default 1000).
    #[arg(long, value_name = "K", allow_negative_numbers = true)]
    pub horizon: Option<i64>,
    /// sigma of G_X^PO (default: tau_0 for po-lmo, 1 otherwise).
    #[arg(long, value_name = "S", allow_negative_numbers = true)]
    pub sigma: Option<f64>,
    /// Seed of a generator spec (overrides the spec's seed=...).
    #[arg(long, value_name = "K")]
    pub seed: Option<u64>,
    /// Which iterates to measure: log2 (t = 0, 1, 2, 4, ... and the last), decades (about ten
    /// per decade and the last), all, or none (only the status, time and oracle counts).
    #[arg(long, value_name = "RULE", default_value = "log2")]
    pub checkpoints: String,
    /// Output file (written atomically).
    #[arg(long, value_name = "RUN.json")]
    pub out: PathBuf,
    /// Seconds of wall time between checkpoint files: OUT.partial (RUN.json so far, status
    /// in_progress) is rewritten atomically at this interval and removed when OUT is written,
    /// so a killed run loses at most this much work.
    #[arg(long, value_name = "SECONDS", default_value_t = crate::resume::CHECKPOINT_EVERY_S, allow_negative_numbers = true)]
    pub checkpoint_every: f64,
}

/// `saddlefw run` after validation.
#[derive(Debug, Clone)]
pub struct RunPlan {
    pub problem: String,
    pub algo: String,
    pub options: Options,
    pub config: RunConfig,
    pub sigma: Option<f64>,
    pub seed: Option<u64>,
    pub out: PathBuf,
    /// Seconds between checkpoint files (`--checkpoint-every`).
    pub checkpoint_every: f64,
    pub quiet: bool,
}

fn finite_positive(flag: &str, v: f64) -> Result<f64> {
    if v.is_finite() && v > 0.0 {
        Ok(v)
    } else {
        Err(Error::invalid(
            flag,
            format!("must be a finite number > 0, got {v}"),
        ))
    }
}

impl RunArgs {
    /// Checks every flag's domain and builds the plan.
    pub fn validate(self) -> Result<RunPlan> {
        if self.iters < 1 {
            return Err(Error::invalid(
                "--iters",
                format!("must be at least 1, got {}", self.iters),
            ));
        }
        let time_limit = self
            .time_limit
            .map(|v| finite_positive("--time-limit", v))
            .transpose()?;
        let sigma = self
            .sigma
            .map(|v| finite_positive("--sigma", v))
            .transpose()?;
        let horizon = match self.horizon {
            Some(k) if k < 1 => {
                return Err(Error::invalid(
                    "--horizon",
                    format!("must be at least 1, got {k}"),
                ))
            }
            Some(k) => Some(k as usize),
            None => None,
        };
        let parse_schedule = |flag: &str, s: &Option<String>| -> Result<Option<Schedule>> {
            s.as_ref()
                .map(|s| {
                    s.parse::<Schedule>()
                        .map_err(|e| Error::invalid(flag, e.to_string()))
                })
                .transpose()
        };
        let checkpoints: CheckpointRule = self.checkpoints.parse()?;
        Ok(RunPlan {
            problem: self.problem,
            algo: self.algo,
            options: Options {
                a: self.a,
                b: self.b,
                beta0: self.beta0,
                tau0: self.tau0,
                tau: parse_schedule("--tau-schedule", &self.tau_schedule)?,
                beta: parse_schedule("--beta-schedule", &self.beta_schedule)?,
                horizon,
                constants: None,
            },
            config: RunConfig {
                iterations: self.iters as usize,
                time_limit,
                checkpoints,
                sigma: 1.0,
            },
            sigma,
            seed: self.seed,
            out: self.out,
            checkpoint_every: finite_positive("--checkpoint-every", self.checkpoint_every)?,
            quiet: false,
        })
    }
}

/// Writes a command's output to stdout. A failed write (the reader of a pipe went away, as in
/// `saddlefw list | head -1`, or a full disk) is not an error of the command: the output is
/// dropped and the command still finishes its work, writes its files and returns its exit code,
/// so `saddlefw verify | head -1` gates exactly like `saddlefw verify`. (`println!` would panic.)
pub fn write_stdout(args: std::fmt::Arguments<'_>) {
    use std::io::Write;
    let _ = std::io::stdout().lock().write_fmt(args);
}

/// Writes an error line to stderr; a closed stderr drops it (the exit code still tells).
pub fn write_stderr(args: std::fmt::Arguments<'_>) {
    use std::io::Write;
    let _ = std::io::stderr().lock().write_fmt(args);
}

/// Entry point of the binary: installs the signal handler ([`crate::interrupt`]), parses
/// `std::env::args_os()` and returns the exit code.
pub fn main() -> i32 {
    crate::interrupt::install();
    main_with_args(std::env::args_os())
}

/// Parses `args` (program name first), runs the subcommand, prints errors as one line.
pub fn main_with_args<I, T>(args: I) -> i32
where
    I: IntoIterator<Item = T>,
    T: Into<OsString> + Clone,
{
    let cli = match Cli::try_parse_from(args) {
        Ok(cli) => cli,
        Err(e) => {
            use clap::error::ErrorKind;
            return match e.kind() {
                ErrorKind::DisplayHelp | ErrorKind::DisplayVersion => {
                    out!("{e}");
                    EXIT_OK
                }
                ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand => {
                    write_stderr(format_args!("{e}"));
                    EXIT_USAGE
                }
                _ => {
                    // the first paragraph of clap's message, on one line
                    let text = e.render().to_string();
                    let head: Vec<&str> =
                        text.lines().take_while(|l| !l.trim().is_empty()).collect();
                    write_stderr(format_args!("{}\n", one_line(&head.join(" "))));
                    EXIT_USAGE
                }
            };
        }
    };
    crate::progress::enable(!cli.quiet);
    let result = match cli.command {
        Command::Run(args) => args.validate().and_then(|mut plan| {
            plan.quiet = cli.quiet;
            cmd_run(plan)
        }),
        Command::List => cmd_list(),
        Command::Experiment(mut args) => {
            args.quiet = cli.quiet;
            crate::experiments::command::cmd_experiment(args)
        }
        Command::Verify(mut args) => {
            args.quiet = cli.quiet;
            cmd_verify(args)
        }
        Command::Check(args) => cmd_check(args),
        Command::Merge(args) => cmd_merge(args),
        Command::Report(args) => cmd_report(args),
        Command::Tighten(args) => crate::tightness::cmd_tighten(args),
    };
    match result {
        // an interrupted command exits 128 + the signal's number whatever its verdicts
        Ok(code) => crate::interrupt::exit_code().unwrap_or(code),
        Err(e) => {
            write_stderr(format_args!("error: {}\n", one_line(&e.to_string())));
            EXIT_USAGE
        }
    }
}

fn one_line(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Loads `--problem`: a file (existing path or `.json` suffix) or a generator spec whose seed
/// `seed` overrides. Returns the instance and the label RUN.json records.
pub fn load_problem(arg: &str, seed: Option<u64>) -> Result<(Instance, String)> {
    let path = Path::new(arg);
    if path.is_file() || arg.ends_with(".json") {
        if seed.is_some() {
            return Err(Error::invalid(
                "--seed",
                format!("{arg} is a problem file: --seed applies to generator specs only"),
            ));
        }
        let inst = QuadraticFile::load(path)?;
        Ok((inst, arg.to_string()))
    } else {
        let mut spec: GeneratorSpec = arg.parse()?;
        if let Some(s) = seed {
            spec.seed = s;
        }
        let inst = spec.generate()?;
        Ok((inst, spec.to_string()))
    }
}

/// `saddlefw run`.
pub fn cmd_run(plan: RunPlan) -> Result<i32> {
    let problem_file = Path::new(&plan.problem);
    let inputs: Vec<PathBuf> = problem_file
        .is_file()
        .then(|| problem_file.to_path_buf())
        .into_iter()
        .collect();
    let partial = crate::resume::checkpoint_path(&plan.out);
    crate::files::check_outputs(
        &inputs,
        "--out",
        &plan.out,
        &[plan.out.clone(), partial.clone()],
    )?;
    crate::interrupt::stop_at(crate::interrupt::Boundary::Iteration);
    let info = registry::find(&plan.algo)?;
    let (inst, label) = load_problem(&plan.problem, plan.seed)?;
    let built = info.build(inst.problem.as_ref(), &plan.options)?;
    let mut config = plan.config.clone();
    config.sigma = plan.sigma.unwrap_or(built.default_sigma);
    let mut solver = built.solver;
    // what the harness does not know about the run
    let annotate = |trace: &mut crate::trace::Trace| {
        trace.seed = inst.seed;
        trace.problem = label.clone();
        trace.theorem_case = built.theorem_case.clone();
        trace.schedule_notes = built.notes.clone();
        trace.po_lmo_g = built.g.as_ref().map(|g| g.report(trace.iterations.max(1)));
    };
    let mut save = |snapshot: &crate::trace::Trace| {
        let mut snapshot = snapshot.clone();
        annotate(&mut snapshot);
        if let Err(e) = snapshot.write(&partial) {
            write_stderr(format_args!("warning: checkpoint file: {e}\n"));
        }
    };
    // a progress line on a terminal (iterations, elapsed time, the last G_X^LMO measured)
    let display =
        crate::progress::Lines::new(!plan.quiet, config.time_limit.unwrap_or(f64::INFINITY));
    let line = display.line(info.name);
    let mut trace = harness::run_with_snapshots(
        inst.problem.as_ref(),
        &inst.x0,
        &inst.y0,
        solver.as_mut(),
        &config,
        &mut |v| line.step(v.t),
        &mut |c| line.gap(c.gx_lmo),
        Some(harness::Snapshots {
            every_s: plan.checkpoint_every,
            save: &mut save,
        }),
    );
    line.clear();
    annotate(&mut trace);
    trace.write(&plan.out)?;
    crate::resume::remove_checkpoint(&plan.out);
    if let Status::Interrupted { iteration } = trace.status {
        write_stderr(format_args!(
            "interrupted at iteration {iteration} of {}: wrote {} (status interrupted)\n",
            trace.iterations_requested,
            plan.out.display()
        ));
    }
    let diverged = match &trace.status {
        Status::Diverged { iteration, .. } | Status::Inconsistent { iteration, .. } => {
            Some(format!(
                "{} ({}): iteration {iteration}: {} ({} keeps every checkpoint before it)",
                plan.problem,
                trace.algorithm,
                trace.status.failure().unwrap_or_default(),
                plan.out.display()
            ))
        }
        _ => None,
    };
    if !plan.quiet {
        outln!(
            "{} on {} [{}]: {} after {} iterations (solver {:.3} s, measures {:.3} s)",
            trace.algorithm,
            trace.problem,
            trace.setting,
            match &trace.status {
                Status::Completed => "completed".to_string(),
                Status::TimeLimit => "time limit".to_string(),
                Status::Diverged { .. } => "diverged".to_string(),
                Status::Inconsistent { .. } => "inconsistent".to_string(),
                s => s.describe(),
            },
            trace.iterations,
            trace.wall_time_s,
            trace.measure_time_s
        );
        outln!("  schedule: {}", trace.schedule);
        if let Some(c) = &trace.theorem_case {
            outln!("  theorem case: {c}");
        }
        if let Some(g) = &trace.po_lmo_g {
            outln!(
                "  {} = {:.6} over t < {}{}",
                serde_json::to_value(g.name)
                    .ok()
                    .and_then(|v| v.as_str().map(String::from))
                    .unwrap_or_default(),
                g.value,
                g.horizon,
                if g.value > 0.0 {
                    ""
                } else {
                    " (not positive: the analysis' hypothesis fails)"
                }
            );
        }
        if let Some(c) = trace.last() {
            outln!(
                "  t = {}: gx_lmo = {:.3e}, gx_po = {:.3e}, gy = {:.3e}, gy_lmo = {:.3e}, h = {:.3e}{}",
                c.t,
                c.gx_lmo,
                c.gx_po,
                c.gy,
                c.gy_lmo,
                c.h,
                c.gap_opt.map(|g| format!(", gap_opt = {g:.3e}")).unwrap_or_default()
            );
        }
        outln!("  wrote {}", plan.out.display());
    }
    // non-finite values during a run: an input error (the problem or schedule), reported
    // after RUN.json is written
    if let Some(msg) = diverged {
        write_stderr(format_args!("error: {msg}\n"));
        return Ok(EXIT_USAGE);
    }
    Ok(EXIT_OK)
}

/// `saddlefw list`.
pub fn cmd_list() -> Result<i32> {
    outln!("algorithms (--algo):");
    for a in registry::ALGORITHMS.iter() {
        outln!("  {:<8} {}  [{}]", a.name, a.title, a.source);
        outln!("           provenance: {}", a.provenance);
        let p = &a.profile;
        outln!(
            "           oracle calls per iteration: lmo_x {}, lmo_y {}, proj_x {}, proj_y {}, grad_x {}, grad_y {}",
            p.lmo_x, p.lmo_y, p.proj_x, p.proj_y, p.grad_x, p.grad_y
        );
    }
    outln!("\nschedules (--tau-schedule, --beta-schedule):");
    for (syntax, formula, source) in Schedule::KINDS {
        outln!("  {syntax:<50} {formula}\n  {:<50} [{source}]", "");
    }
    outln!("\ndefault schedules of the paper's algorithms (theorem cases, claims.md 3.1; C = 1 where any C > 0 is allowed):");
    for c in crate::solvers::defaults::theorem_cases() {
        let beta = match c.b {
            Some(b) => format!("b = {}", schedule::fmt_num(b)),
            None => "beta_t = 0".to_string(),
        };
        outln!(
            "  {:<8} {:<9} a = {:<20} {:<26} {}",
            c.algorithm,
            c.setting,
            schedule::fmt_num(c.a),
            beta,
            c.label
        );
    }
    outln!("  (lmo-po on X+sc uses the X case; po-lmo on c-c+sc uses c-c; po-lmo uses the appendix schedule with A = 1)");
    outln!("\ntheorem table (fixtures/theorems.json; `saddlefw verify` fits these rates):");
    for e in crate::theorems::builtin() {
        outln!(
            "  {:<24} T^-{:<5} {}  [{}]",
            e.id,
            e.p.frac,
            e.quantity_text,
            e.label
        );
    }
    outln!("\nnegative controls (`saddlefw check --control NAME`, must exit 1):");
    for c in crate::invariants::controls::Control::ALL {
        outln!("  {:<22} {}", c.name(), c.description());
    }
    outln!("\ninvariants (`saddlefw check`; `saddlefw check --list` for statements):");
    for inv in crate::invariants::registry() {
        outln!(
            "  {:<40} {}{}",
            inv.name,
            inv.label,
            if inv.gating {
                ""
            } else {
                "  (printed form: reported, never gates)"
            }
        );
    }
    outln!("\nsets (problem files, \"kind\"):");
    for k in crate::sets::SetSpec::KINDS {
        outln!("  {:<13} {}", k.kind, k.description);
        outln!("  {:<13} alpha: {}; e.g. {}", "", k.alpha, k.example);
    }
    outln!(
        "\ngenerator families (--problem FAMILY/SETTING[:dx=N,dy=N,seed=K,x={}]):",
        XKind::ALL.map(|x| x.name()).join("|")
    );
    for f in Family::ALL {
        outln!("  {:<10} {}", f.name(), f.description());
    }
    outln!(
        "  settings: {}",
        Setting::all()
            .iter()
            .map(|s| s.to_string())
            .collect::<Vec<_>>()
            .join(", ")
    );
    outln!("\nhard instance families (`saddlefw tighten` searches them):");
    for (name, what) in crate::tightness::families::FAMILIES {
        outln!("  {name:<17} {what}");
    }
    outln!(
        "\nstored hardest instances (fixtures/hard, built in; `saddlefw verify` gates on them):"
    );
    for (id, f) in crate::tightness::builtin() {
        outln!(
            "  {id:<24} {:<17} p_hat {:.3}  {}",
            f.family,
            f.p_hat,
            f.params
        );
    }
    Ok(EXIT_OK)
}

/// `saddlefw verify`.
pub fn cmd_verify(args: VerifyArgs) -> Result<i32> {
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
        inputs.extend(crate::files::json_files_in(dir));
    }
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
        gate_baselines: tier.baseline_gated(),
        control,
        config: None,
        shard: args.shard.as_deref().map(str::parse).transpose()?,
        hard: (!args.no_hard).then(|| match &args.hard {
            Some(dir) => crate::tightness::HardSource::Dir(dir.clone()),
            None => crate::tightness::HardSource::Builtin,
        }),
        solver: None,
    };
    let record = match &args.resume {
        Some(dir) => Some(read_verify_record(dir, &opts)?),
        None => None,
    };
    crate::interrupt::stop_at(crate::interrupt::Boundary::Job);
    let table = crate::theorems::builtin();
    let report = verify::run_resumed(&table, &opts, record.as_ref())?;
    let (json_path, html_path) = write_verify_outputs(&report, &args.out)?;
    if let Some(i) = &report.interrupted {
        write_stderr(format_args!(
            "{}; finish it with --resume {}\n",
            i.describe("jobs"),
            args.out.display()
        ));
    }
    if args.write_baselines {
        let mut b = baselines;
        b.extend(report.baselines());
        crate::fit::write_baselines(&baselines_path, &b)?;
    }
    let table = report.table();
    if args.quiet {
        out!(
            "{}",
            table
                .lines()
                .last()
                .map(|l| format!("{l}\n"))
                .unwrap_or_default()
        );
    } else {
        out!("{table}");
        out!("{}", crate::tightness::table(&report));
        outln!("wrote {} and {}", json_path.display(), html_path.display());
        if args.write_baselines {
            outln!("wrote {}", baselines_path.display());
        }
    }
    Ok(if report.failed { EXIT_FAILED } else { EXIT_OK })
}

/// Reads `DIR/verify.json` for `verify --resume DIR` and checks that it belongs to this run.
fn read_verify_record(
    dir: &Path,
    opts: &crate::verify::VerifyOptions,
) -> Result<crate::verify::VerifyReport> {
    let path = dir.join("verify.json");
    let name = path.display().to_string();
    let record = crate::verify::VerifyReport::parse(&name, &crate::files::read_text(&path)?)?;
    crate::verify::resume::check_record(&name, &record, opts)?;
    Ok(record)
}

/// Cases of the `check` run whose invariant table and errata the verify page shows.
pub const VERIFY_PAGE_CHECK_CASES: usize = 40;

/// Writes `DIR/verify.json` and `DIR/index.html` of a verify report (atomically); the page
/// also shows the invariant table and errata of a small `check` run.
pub fn write_verify_outputs(
    report: &crate::verify::VerifyReport,
    out: &std::path::Path,
) -> Result<(PathBuf, PathBuf)> {
    crate::files::create_dir_all(out)?;
    let json_path = out.join("verify.json");
    crate::trace::write_atomic(&json_path, report.to_json().as_bytes())?;
    let seeds: Vec<u64> = report.seeds.iter().map(|&s| s as u64).collect();
    let meta = crate::report::Meta::current(Some(&report.tier.to_string()), &seeds);
    // the invariant table and the errata section: a small `check` run (seed 0) beside the rates
    let check = crate::invariants::run_check(VERIFY_PAGE_CHECK_CASES, 0)?;
    let page = crate::report::verify_page(
        &meta,
        &report.rate_entries(),
        &check.invariant_rows(),
        &check.errata_rows(),
    );
    let html_path = out.join("index.html");
    crate::trace::write_atomic(&html_path, page.as_bytes())?;
    Ok((json_path, html_path))
}

/// `--jobs N`: at least 1 (None: the default), capped at
/// [`crate::invariants::check::MAX_JOBS_PER_CORE`] per core (the runners also cap it at their
/// number of jobs).
pub(crate) fn positive_jobs(jobs: Option<i64>) -> Result<Option<usize>> {
    match jobs {
        Some(n) if n < 1 => Err(Error::invalid(
            "--jobs",
            format!("must be at least 1, got {n}"),
        )),
        n => Ok(n.map(|n| {
            crate::jobs::worker_threads(usize::try_from(n).unwrap_or(usize::MAX), usize::MAX)
        })),
    }
}

/// Where `check --out OUT` writes: a path ending in `.json` is the JSON file itself, with the
/// page beside it (`CHECK.json` and `CHECK.html`); any other path is a directory receiving
/// `CHECK.json` and `index.html`, like `verify --out DIR`.
pub fn check_output_paths(out: &Path) -> (PathBuf, PathBuf) {
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
fn write_check_outputs(
    report: &crate::invariants::CheckReport,
    out: &Path,
) -> Result<(PathBuf, PathBuf)> {
    let (json_path, html_path) = check_output_paths(out);
    let json = serde_json::to_string_pretty(report)
        .map_err(|e| Error::invalid("CHECK.json", e.to_string()))?;
    if let Some(dir) = json_path.parent().filter(|d| !d.as_os_str().is_empty()) {
        crate::files::create_dir_all(dir)?;
    }
    crate::trace::write_atomic(&json_path, (json + "\n").as_bytes())?;
    let meta = crate::report::Meta::current(None, &[report.seed]);
    let page = crate::report::check_page(&meta, &report.invariant_rows(), &report.errata_rows());
    crate::trace::write_atomic(&html_path, page.as_bytes())?;
    Ok((json_path, html_path))
}

/// Which command's shard outputs `saddlefw merge` was given.
#[derive(Debug, Clone, Copy, PartialEq)]
enum ShardKind {
    Verify,
    Check,
}

/// A merge input: a directory holding verify.json or CHECK.json, or one of those files.
fn shard_input(path: &Path) -> Result<(ShardKind, PathBuf)> {
    let kind_of = |p: &Path| match p.file_name().and_then(|n| n.to_str()) {
        Some("verify.json") => Some(ShardKind::Verify),
        Some(n) if n.eq_ignore_ascii_case("CHECK.json") => Some(ShardKind::Check),
        _ => None,
    };
    if path.is_dir() {
        let found: Vec<(ShardKind, PathBuf)> = ["verify.json", "CHECK.json"]
            .iter()
            .map(|f| path.join(f))
            .filter(|p| p.is_file())
            .filter_map(|p| kind_of(&p).map(|k| (k, p)))
            .collect();
        match found.len() {
            1 => Ok(found.into_iter().next().expect("one")),
            0 => Err(Error::input(
                path.display().to_string(),
                "directory",
                "holds neither verify.json nor CHECK.json (not a shard output)",
            )),
            _ => Err(Error::input(
                path.display().to_string(),
                "directory",
                "holds both verify.json and CHECK.json: name the file to merge",
            )),
        }
    } else if let Some(k) = kind_of(path) {
        Ok((k, path.to_path_buf()))
    } else if !path.exists() {
        Err(Error::input(
            path.display().to_string(),
            "path",
            "no such file or directory",
        ))
    } else {
        Err(Error::input(
            path.display().to_string(),
            "file name",
            "expected a shard directory, verify.json or CHECK.json",
        ))
    }
}

/// `saddlefw merge`.
pub fn cmd_merge(args: MergeArgs) -> Result<i32> {
    use crate::verify::{shard, VerifyOptions, VerifyReport};
    let mut inputs = Vec::new();
    for p in &args.dirs {
        inputs.push(shard_input(p)?);
    }
    let kind = inputs[0].0;
    if let Some((_, p)) = inputs.iter().find(|(k, _)| *k != kind) {
        return Err(Error::input(
            p.display().to_string(),
            "kind",
            "mixes verify and check shard outputs",
        ));
    }
    let out = args.out.clone().unwrap_or_else(|| {
        PathBuf::from(match kind {
            ShardKind::Verify => "reports/verify",
            ShardKind::Check => "reports/check",
        })
    });
    let outputs = match kind {
        ShardKind::Verify => [out.join("verify.json"), out.join("index.html")],
        ShardKind::Check => check_output_paths(&out).into(),
    };
    let mut read: Vec<PathBuf> = inputs.iter().map(|(_, p)| p.clone()).collect();
    read.extend(args.baselines.clone());
    crate::files::check_outputs(&read, "--out", &out, &outputs)?;
    let mut texts = Vec::new();
    for (_, path) in &inputs {
        let name = path.display().to_string();
        let text = crate::files::read_text(path)?;
        texts.push((name, text));
    }
    if kind == ShardKind::Check {
        let merged = crate::invariants::check::merge_shards(&texts)?;
        let (json, html) = write_check_outputs(&merged, &out)?;
        out!("{}", merged.table());
        outln!("wrote {} and {}", json.display(), html.display());
        return Ok(if merged.passed() {
            EXIT_OK
        } else {
            EXIT_FAILED
        });
    }
    let mut shards = Vec::new();
    for (name, text) in &texts {
        shards.push(VerifyReport::parse(name, text)?);
    }
    let tier = shards
        .first()
        .map(|r| r.tier)
        .unwrap_or(crate::verify::Tier::Quick);
    let mut opts = VerifyOptions::new(tier);
    if let Some(p) = &args.baselines {
        opts.baselines = crate::fit::load_baselines(p)?;
    }
    let merged = shard::merge(shards, &opts)?;
    let (json_path, html_path) = write_verify_outputs(&merged, &out)?;
    out!("{}", merged.table());
    outln!("wrote {} and {}", json_path.display(), html_path.display());
    Ok(if merged.failed { EXIT_FAILED } else { EXIT_OK })
}

/// `saddlefw report`.
pub fn cmd_report(args: ReportArgs) -> Result<i32> {
    let measure: crate::report::runs::RunMeasure = args.measure.parse()?;
    crate::files::check_outputs(&args.runs, "--out", &args.out, &[args.out.clone()])?;
    let mut runs = Vec::new();
    for path in &args.runs {
        let trace = crate::trace::Trace::read(path)?;
        runs.push(crate::report::runs::summary(&trace, measure));
    }
    let meta = crate::report::Meta::current(None, &[]);
    let page = crate::report::runs_page(&meta, &runs);
    crate::trace::write_atomic(&args.out, page.as_bytes())?;
    outln!("wrote {} ({} runs)", args.out.display(), runs.len());
    Ok(EXIT_OK)
}
