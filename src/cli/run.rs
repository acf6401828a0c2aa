//! `saddlefw run`: flags, their validation into a [`RunPlan`], and one run into RUN.json.

use super::{EXIT_OK, EXIT_USAGE};
use crate::console::write_stderr;
use crate::error::{finite_positive, positive_count, Error, Result};
use crate::generators::GeneratorSpec;
use crate::harness::{self, CheckpointRule, RunConfig};
use crate::problems::quadratic::QuadraticFile;
use crate::problems::Instance;
use crate::solvers::registry::{self, Options};
use crate::solvers::schedule::Schedule;
use crate::solvers::SolverSpec;
use crate::trace::Status;
use clap::Args;
use std::path::{Path, PathBuf};

/// `saddlefw run` flags (raw; validated by [`RunArgs::validate`]).
#[derive(Debug, Args)]
pub struct RunArgs {
    /// A problem file (JSON, format saddlefw-quadratic-v1), a generator spec
    /// FAMILY/SETTING[:dx=N,dy=N,seed=K,x=l1|l2|simplex|box], e.g. quadratic/c-sc+sc:dx=20,dy=10,
    /// or a stored hardest instance: hard:ENTRY (built in, e.g. hard:lmo-po/nc-c/dual) or its
    /// fixture file (saddlefw-hard-v1). A value that is an existing file or ends in .json is
    /// read as a file.
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
    #[arg(
        long,
        value_name = "SECONDS",
        default_value_t = crate::resume::CHECKPOINT_EVERY_S,
        allow_negative_numbers = true
    )]
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

impl RunArgs {
    /// Checks every flag's domain and builds the plan.
    pub fn validate(self) -> Result<RunPlan> {
        let iterations = positive_count("--iters", self.iters)?;
        let time_limit = self
            .time_limit
            .map(|v| finite_positive("--time-limit", v))
            .transpose()?;
        let sigma = self
            .sigma
            .map(|v| finite_positive("--sigma", v))
            .transpose()?;
        let horizon = self
            .horizon
            .map(|k| positive_count("--horizon", k))
            .transpose()?;
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
                iterations,
                time_limit,
                checkpoints,
                sigma: crate::paper::BASELINE_SIGMA,
            },
            sigma,
            seed: self.seed,
            out: self.out,
            checkpoint_every: finite_positive("--checkpoint-every", self.checkpoint_every)?,
            quiet: false,
        })
    }
}

/// Loads `--problem`: a file (existing path or `.json` suffix: a problem file, or a stored
/// hardest instance's fixture file), a stored hardest instance built into the binary
/// (`hard:ENTRY`, as verify.json's `hard.problem` names it) or a generator spec whose seed
/// `seed` overrides. Returns the instance and the label RUN.json records.
pub fn load_problem(arg: &str, seed: Option<u64>) -> Result<(Instance, String)> {
    let path = Path::new(arg);
    let is_file = path.is_file() || arg.ends_with(".json");
    let hard = arg.starts_with(crate::tightness::HARD_PROBLEM_PREFIX);
    if (is_file || hard) && seed.is_some() {
        return Err(Error::invalid(
            "--seed",
            format!("{arg} is a problem file or a stored instance: --seed applies to generator specs only"),
        ));
    }
    if hard {
        let f = crate::tightness::problem_fixture(arg, None)?.expect("a hard: value");
        return Ok((f.spec.build()?.instance, arg.to_string()));
    }
    if is_file {
        let name = path.display().to_string();
        let text = crate::files::read_text(path)?;
        let inst = match crate::tightness::problem_fixture(arg, Some(&text))? {
            Some(f) => f.spec.build()?.instance,
            None => QuadraticFile::parse(&text, &name)?.into_instance(&name)?,
        };
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
pub(crate) fn cmd_run(plan: RunPlan) -> Result<i32> {
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
    let spec = SolverSpec::new(info.name).options(plan.options.clone());
    let built = spec.build(inst.problem.as_ref())?;
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
    // the periodic checkpoint file (RUN.json so far, status in_progress)
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
    let watch = harness::Watch {
        observer: &mut |v| line.step(v.t),
        on_checkpoint: &mut |c| line.gap(c.measures.gx_lmo),
        snapshots: Some(harness::Snapshots {
            every_s: plan.checkpoint_every,
            save: &mut save,
        }),
    };
    let mut trace = harness::run_watched(
        inst.problem.as_ref(),
        &inst.x0,
        &inst.y0,
        solver.as_mut(),
        &config,
        watch,
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
        print_summary(&plan, &trace);
    }
    // non-finite values during a run: an input error (the problem or schedule), reported
    // after RUN.json is written
    if let Some(msg) = diverged {
        write_stderr(format_args!("error: {msg}\n"));
        return Ok(EXIT_USAGE);
    }
    Ok(EXIT_OK)
}

/// The summary `saddlefw run` prints (without `--quiet`): status, schedule, theorem case,
/// the PO-LMO G, the last checkpoint's measures and the output file.
fn print_summary(plan: &RunPlan, trace: &crate::trace::Trace) {
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
            c.measures.gx_lmo,
            c.measures.gx_po,
            c.measures.gy,
            c.measures.gy_lmo,
            c.measures.h,
            c.measures
                .gap_opt
                .map(|g| format!(", gap_opt = {g:.3e}"))
                .unwrap_or_default()
        );
    }
    outln!("  wrote {}", plan.out.display());
}
