//! The command line: clap definitions (raw strings and numbers) and their validation into
//! typed values, one function per subcommand. `main.rs` only calls [`main`].
//!
//! Exit codes: 0 success; 1 a check or gate failed; 2 a usage or input error, reported as one
//! line `error: ...` naming the input. A run that diverges is data, not an error: RUN.json is
//! written with status "diverged" and the exit code is 0.
//!
//! Adding a subcommand: a variant of [`Command`] with its `Args` struct, and a `cmd_*`
//! function returning the exit code.

use crate::generators::{Family, GeneratorSpec, Setting};
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

/// Exit code: success.
pub const EXIT_OK: i32 = 0;
/// Exit code: a check or gate failed.
pub const EXIT_FAILED: i32 = 1;
/// Exit code: a usage or input error.
pub const EXIT_USAGE: i32 = 2;

/// saddlefw: executable checks of "Projection-Free Algorithms for Minimax Problems".
#[derive(Debug, Parser)]
#[command(name = "saddlefw", version, about, long_about = None)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Run one algorithm on one problem and write RUN.json.
    ///
    /// Example: saddlefw run --problem quadratic/nc-c:dx=20,dy=10 --algo lmo-lmo --iters 1000 --out RUN.json
    Run(Box<RunArgs>),
    /// List algorithms (with provenance), schedules, default theorem cases, sets and
    /// generator families.
    List,
    /// Verify every theorem entry's rate on generated instances; write DIR/verify.json and
    /// DIR/index.html. Exit code 1 when a gate fails.
    ///
    /// Examples: saddlefw verify;
    /// saddlefw verify --tier full --jobs 2;
    /// saddlefw verify --cases lmo-po/ --out /tmp/v;
    /// saddlefw verify --write-baselines (refreshes fixtures/rate_baselines.json from a quick run)
    Verify(VerifyArgs),
    /// Search the hard instance families for the instance on which each theorem entry's
    /// observed exponent is smallest; write DIR/tighten.json (and fixtures/hard/ with
    /// --write-fixtures).
    ///
    /// Examples: saddlefw tighten --cases lmo-po/ --budget 30;
    /// saddlefw tighten --budget 60 --jobs 2 --write-fixtures
    Tighten(crate::tightness::TightenArgs),
    /// Check every inequality of the paper (claims.md Sec. 4) on random instances and runs;
    /// exit 1 on a violation of a gating invariant. Printed forms of recorded slips are
    /// reported as errata.
    ///
    /// Example: saddlefw check --cases 200 --seed 0 --out CHECK.json
    Check(CheckArgs),
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
    /// Worker threads (default: one per core). Results do not depend on it.
    #[arg(long, value_name = "N", allow_negative_numbers = true)]
    pub jobs: Option<i64>,
    /// Stored exponents for the regression gate (missing file: the compiled-in copy).
    #[arg(
        long,
        value_name = "FILE",
        default_value = "fixtures/rate_baselines.json"
    )]
    pub baselines: PathBuf,
    /// Write the observed exponents into the baselines file (quick tier only).
    #[arg(long)]
    pub write_baselines: bool,
    /// Run a deliberately broken variant instead of the real solvers (a negative control:
    /// the gates must fail), e.g. constant-tau, primal-sign-flip, tau-exponent+0.15.
    #[arg(long, value_name = "CONTROL")]
    pub control: Option<String>,
    /// Print only the summary line.
    #[arg(long)]
    pub quiet: bool,
    /// Directory of the stored hardest instances (`saddlefw tighten`); their gates run too.
    #[arg(long, value_name = "DIR", default_value = "fixtures/hard")]
    pub hard: PathBuf,
    /// Skip the hardest instances (random instances only).
    #[arg(long)]
    pub no_hard: bool,
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
    /// Write the report as JSON (atomically).
    #[arg(long, value_name = "CHECK.json")]
    pub out: Option<PathBuf>,
    /// List the registry (names, labels, hypotheses, statements) and exit.
    #[arg(long)]
    pub list: bool,
    /// With --list: print the Markdown mapping (docs/invariants.md).
    #[arg(long, requires = "list")]
    pub markdown: bool,
}

/// Runs `saddlefw check`.
pub fn cmd_check(args: CheckArgs) -> Result<i32> {
    use crate::invariants;
    if args.list {
        if args.markdown {
            print!("{}", invariants::markdown());
        } else {
            print!("{}", invariants::list());
        }
        return Ok(EXIT_OK);
    }
    if args.cases < 1 {
        return Err(Error::invalid(
            "--cases",
            format!("must be at least 1, got {}", args.cases),
        ));
    }
    let report = invariants::run_check(args.cases as usize, args.seed)?;
    print!("{}", report.table());
    if let Some(out) = &args.out {
        let json = serde_json::to_string_pretty(&report)
            .map_err(|e| Error::invalid("CHECK.json", e.to_string()))?;
        crate::trace::write_atomic(out, json.as_bytes())?;
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
    /// Which iterates to measure: log2 (t = 0, 1, 2, 4, ... and the last) or all.
    #[arg(long, value_name = "RULE", default_value = "log2")]
    pub checkpoints: String,
    /// Output file (written atomically).
    #[arg(long, value_name = "RUN.json")]
    pub out: PathBuf,
    /// Print nothing on success.
    #[arg(long)]
    pub quiet: bool,
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
            quiet: self.quiet,
        })
    }
}

/// Entry point of the binary: parses `std::env::args_os()` and returns the exit code.
pub fn main() -> i32 {
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
                    print!("{e}");
                    EXIT_OK
                }
                ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand => {
                    eprint!("{e}");
                    EXIT_USAGE
                }
                _ => {
                    // the first paragraph of clap's message, on one line
                    let text = e.render().to_string();
                    let head: Vec<&str> =
                        text.lines().take_while(|l| !l.trim().is_empty()).collect();
                    eprintln!("{}", one_line(&head.join(" ")));
                    EXIT_USAGE
                }
            };
        }
    };
    let result = match cli.command {
        Command::Run(args) => args.validate().and_then(cmd_run),
        Command::List => cmd_list(),
        Command::Verify(args) => cmd_verify(args),
        Command::Tighten(args) => crate::tightness::cmd_tighten(args),
        Command::Check(args) => cmd_check(args),
    };
    match result {
        Ok(code) => code,
        Err(e) => {
            eprintln!("error: {}", one_line(&e.to_string()));
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
    let info = registry::find(&plan.algo)?;
    let (inst, label) = load_problem(&plan.problem, plan.seed)?;
    let built = info.build(inst.problem.as_ref(), &plan.options)?;
    let mut config = plan.config.clone();
    config.sigma = plan.sigma.unwrap_or(built.default_sigma);
    let mut solver = built.solver;
    let mut trace = harness::run(&inst, solver.as_mut(), &config);
    trace.problem = label;
    trace.theorem_case = built.theorem_case;
    trace.schedule_notes = built.notes;
    trace.po_lmo_g = built.g.map(|g| g.report(trace.iterations.max(1)));
    trace.write(&plan.out)?;
    if let Status::Diverged { iteration, reason } = &trace.status {
        eprintln!("warning: the run diverged at iteration {iteration}: {reason} (RUN.json keeps the checkpoints before it)");
    }
    if !plan.quiet {
        println!(
            "{} on {} [{}]: {} after {} iterations (solver {:.3} s, measures {:.3} s)",
            trace.algorithm,
            trace.problem,
            trace.setting,
            match &trace.status {
                Status::Completed => "completed".to_string(),
                Status::TimeLimit => "time limit".to_string(),
                Status::Diverged { .. } => "diverged".to_string(),
            },
            trace.iterations,
            trace.wall_time_s,
            trace.measure_time_s
        );
        println!("  schedule: {}", trace.schedule);
        if let Some(c) = &trace.theorem_case {
            println!("  theorem case: {c}");
        }
        if let Some(g) = &trace.po_lmo_g {
            println!(
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
            println!(
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
        println!("  wrote {}", plan.out.display());
    }
    Ok(EXIT_OK)
}

/// Set kinds of the problem-file format (`"kind"` values of [`crate::sets::SetSpec`]).
const SET_KINDS: [(&str, &str); 7] = [
    ("simplex", "{x >= 0, sum x = scale}"),
    ("l1_ball", "{||x||_1 <= radius}"),
    (
        "l2_ball",
        "{||x - center||_2 <= radius} (strongly convex, alpha = 1/radius)",
    ),
    ("box", "{lower <= x <= upper}"),
    ("nuclear_ball", "{X in R^(rows x cols): ||X||_* <= radius}"),
    ("unit_columns", "{X: every column has ||x_j||_2 <= radius}"),
    ("product", "a product of the sets in \"parts\""),
];

/// `saddlefw list`.
pub fn cmd_list() -> Result<i32> {
    println!("algorithms (--algo):");
    for a in registry::ALGORITHMS.iter() {
        println!("  {:<8} {}  [{}]", a.name, a.title, a.source);
        println!("           provenance: {}", a.provenance);
        let p = &a.profile;
        println!(
            "           oracle calls per iteration: lmo_x {}, lmo_y {}, proj_x {}, proj_y {}, grad_x {}, grad_y {}",
            p.lmo_x, p.lmo_y, p.proj_x, p.proj_y, p.grad_x, p.grad_y
        );
    }
    println!("\nschedules (--tau-schedule, --beta-schedule):");
    for (syntax, formula, source) in Schedule::KINDS {
        println!("  {syntax:<50} {formula}\n  {:<50} [{source}]", "");
    }
    println!("\ndefault schedules of the paper's algorithms (theorem cases, claims.md 3.1; C = 1 where any C > 0 is allowed):");
    for c in schedule::THEOREM_CASES.iter() {
        let beta = match c.b {
            Some(b) => format!("b = {}", schedule::fmt_num(b)),
            None => "beta_t = 0".to_string(),
        };
        println!(
            "  {:<8} {:<9} a = {:<20} {:<26} {}",
            c.algorithm,
            c.setting,
            schedule::fmt_num(c.a),
            beta,
            c.label
        );
    }
    println!("  (lmo-po on X+sc uses the X case; po-lmo on c-c+sc uses c-c; po-lmo uses the appendix schedule with A = 1)");
    println!("\nsets (problem files, \"kind\"):");
    for (k, d) in SET_KINDS {
        println!("  {k:<13} {d}");
    }
    println!(
        "\ngenerator families (--problem FAMILY/SETTING[:dx=N,dy=N,seed=K,x=l1|l2|simplex|box]):"
    );
    for f in Family::ALL {
        println!("  {:<10} {}", f.name(), f.description());
    }
    println!(
        "  settings: {}",
        Setting::all()
            .iter()
            .map(|s| s.to_string())
            .collect::<Vec<_>>()
            .join(", ")
    );
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
    let jobs = match args.jobs {
        Some(n) if n < 1 => {
            return Err(Error::invalid(
                "--jobs",
                format!("must be at least 1, got {n}"),
            ))
        }
        n => n.map(|n| n as usize),
    };
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
    let baselines = if args.baselines.is_file() {
        crate::fit::load_baselines(&args.baselines)?
    } else {
        crate::fit::builtin_baselines()
    };
    let opts = VerifyOptions {
        tier,
        filter: args.cases.clone(),
        jobs,
        baselines: baselines.clone(),
        gate_baselines: tier.baseline_gated(),
        control,
        config: None,
        hard: (!args.no_hard).then(|| args.hard.clone()),
    };
    let table = crate::theorems::builtin();
    let report = verify::run(&table, &opts)?;
    std::fs::create_dir_all(&args.out).map_err(|e| Error::io(args.out.display().to_string(), e))?;
    let json_path = args.out.join("verify.json");
    crate::trace::write_atomic(&json_path, report.to_json().as_bytes())?;
    let seeds: Vec<u64> = report.seeds.iter().map(|&s| s as u64).collect();
    let meta = crate::report::Meta::current(Some(&tier.to_string()), &seeds);
    let page = crate::report::verify_page(&meta, &report.rate_entries(), &[], &[]);
    let html_path = args.out.join("index.html");
    crate::trace::write_atomic(&html_path, page.as_bytes())?;
    if args.write_baselines {
        let mut b = baselines;
        b.extend(report.baselines());
        crate::fit::write_baselines(&args.baselines, &b)?;
    }
    let table = report.table();
    if args.quiet {
        print!(
            "{}",
            table
                .lines()
                .last()
                .map(|l| format!("{l}\n"))
                .unwrap_or_default()
        );
    } else {
        print!("{table}");
        print!("{}", crate::tightness::table(&report));
        println!("wrote {} and {}", json_path.display(), html_path.display());
        if args.write_baselines {
            println!("wrote {}", args.baselines.display());
        }
    }
    Ok(if report.failed { EXIT_FAILED } else { EXIT_OK })
}
