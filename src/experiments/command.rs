//! `saddlefw experiment <dl|news20|rcv1>`: flags, validation into a [`Plan`], and the command
//! (kept apart from `cli/`, which only dispatches to [`cmd_experiment`]).
//!
//! Example: `saddlefw experiment news20 --time-limit 60 --data ../shared/data/news20.bz2 --out reports/news20`
//!
//! ```
//! use saddlefw::experiments::command::{parse_algorithms, parse_dl_dims};
//! use saddlefw::experiments::params::{Baseline, Method};
//! use saddlefw::paper::Algorithm;
//! // registry or paper names, in the given order
//! let algos = parse_algorithms("lmo-po, SP-FW").unwrap();
//! assert_eq!(algos, [Method::Paper(Algorithm::LmoPo), Method::Baseline(Baseline::SpFw)]);
//! let e = parse_algorithms("lmo-lmo,frank").unwrap_err();
//! assert!(e.to_string().contains("--algos") && e.to_string().contains("frank"), "{e}");
//! assert!(parse_algorithms("agp,agp").is_err());
//! // --dl-dims overrides the paper's dimensions key by key
//! let c = parse_dl_dims("m=5,n=30", 7).unwrap();
//! assert_eq!((c.m, c.n, c.seed), (5, 30, 7));
//! let e = parse_dl_dims("m=5,z=1", 7).unwrap_err();
//! assert!(e.to_string().contains("--dl-dims") && e.to_string().contains("\"z\""), "{e}");
//! ```

use super::params::Method;
use super::{Plan, Which};
use crate::error::{finite_positive, positive_count};
use crate::problems::dictionary::DlConfig;
use crate::{Error, Result};
use clap::Args;
use std::path::PathBuf;

/// `saddlefw experiment` flags (raw; validated by [`ExperimentArgs::validate`]).
#[derive(Debug, Args)]
pub struct ExperimentArgs {
    /// dl (dictionary learning), news20 or rcv1 (robust multiclass classification).
    #[arg(value_name = "dl|news20|rcv1")]
    pub experiment: String,
    /// Solver-time limit per algorithm in seconds (default 300: the paper's DL value, also
    /// used for news20/rcv1, for which the paper states none).
    #[arg(long, value_name = "S", allow_negative_numbers = true)]
    pub time_limit: Option<f64>,
    /// Comma-separated algorithms (registry or paper names), e.g. lmo-lmo,lmo-po. Default:
    /// all seven in Table 3 order (R-PDCG skipped on news20/rcv1 unless listed here).
    #[arg(long, value_name = "LIST")]
    pub algos: Option<String>,
    /// LIBSVM file (plain or .bz2) for news20/rcv1. Default: $SADDLEFW_DATA_DIR or
    /// ../shared/data, file news20.bz2 or rcv1_train.multiclass.bz2.
    #[arg(long, value_name = "PATH")]
    pub data: Option<PathBuf>,
    /// Output folder for experiment.json and index.html.
    #[arg(long, value_name = "DIR", default_value = "reports/experiment")]
    pub out: PathBuf,
    /// Algorithms run concurrently (default 1: one after another, so timings do not disturb
    /// each other; at most one per algorithm).
    #[arg(
        long,
        value_name = "N",
        default_value_t = 1,
        allow_negative_numbers = true
    )]
    pub jobs: i64,
    /// Threads each run's kernels are split over (the sparse and nuclear-norm Gram products of
    /// news20/rcv1; DL's products are too small). Default: the cores shared out among --jobs
    /// (one per core for one job). Results are identical for any value; only the speed changes.
    #[arg(long, value_name = "N", allow_negative_numbers = true)]
    pub threads: Option<i64>,
    /// Iteration cap per algorithm (default: none in practice, the time limit decides).
    #[arg(long, value_name = "N", allow_negative_numbers = true)]
    pub iters: Option<i64>,
    /// Use a seeded subsample of this many rows of the data (reduced runs).
    #[arg(long, value_name = "N", allow_negative_numbers = true)]
    pub rows: Option<i64>,
    /// Seed: DL data generation, or the row subsample.
    #[arg(long, value_name = "K", default_value_t = 0)]
    pub seed: u64,
    /// Feature scaling for news20/rcv1: row-l2 (default), col-maxabs or none.
    #[arg(long, value_name = "SCALING", default_value = "row-l2")]
    pub scaling: String,
    /// sigma of G_X^PO (default: tau_0 of the experiment's PO-LMO schedule).
    #[arg(long, value_name = "S", allow_negative_numbers = true)]
    pub sigma: Option<f64>,
    /// DL dimensions, e.g. m=20,p=10,l=2,q=12,n=100,n_new=21 (default: the paper's).
    #[arg(long, value_name = "KEY=N,...")]
    pub dl_dims: Option<String>,
    /// Run nothing: re-evaluate the verdicts of DIR/experiment.json (given by --out) and
    /// rewrite it and DIR/index.html.
    #[arg(long)]
    pub rerender: bool,
    /// Finish the experiment recorded in DIR/experiment.json (interrupted by a signal): its
    /// finished runs are kept, the interrupted ones run again. The record must come from this
    /// build and the same arguments (else exit 2 with the reason).
    #[arg(long, value_name = "DIR", conflicts_with = "rerender")]
    pub resume: Option<PathBuf>,
    /// Every finished algorithm run is appended to DIR/experiment.json.journal at once (a
    /// kill loses only the runs in flight; --resume DIR reuses the others), flushed to disk at
    /// most every S seconds.
    #[arg(long, value_name = "S", default_value_t = crate::resume::CHECKPOINT_EVERY_S, allow_negative_numbers = true)]
    pub checkpoint_every: f64,
    /// No progress display and no summary: the global `--quiet` flag (set by the dispatcher).
    #[arg(skip)]
    pub quiet: bool,
}

/// Parses `--algos`: comma-separated registry or paper names, no repeats.
pub fn parse_algorithms(list: &str) -> Result<Vec<Method>> {
    let mut out = Vec::new();
    for name in list.split(',').map(str::trim).filter(|s| !s.is_empty()) {
        let a = Method::parse(name).ok_or_else(|| {
            Error::invalid(
                "--algos",
                format!(
                    "unknown algorithm {name:?} (expected {})",
                    Method::ALL
                        .iter()
                        .map(|a| a.registry_name())
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            )
        })?;
        if out.contains(&a) {
            return Err(Error::invalid("--algos", format!("{name} given twice")));
        }
        out.push(a);
    }
    if out.is_empty() {
        return Err(Error::invalid("--algos", "no algorithm given"));
    }
    Ok(out)
}

/// Parses `--dl-dims` over the paper's defaults.
pub fn parse_dl_dims(spec: &str, seed: u64) -> Result<DlConfig> {
    let mut c = DlConfig {
        seed,
        ..DlConfig::default()
    };
    for part in spec.split(',').map(str::trim).filter(|s| !s.is_empty()) {
        let (k, v) = part
            .split_once('=')
            .ok_or_else(|| Error::invalid("--dl-dims", format!("{part:?}: expected KEY=N")))?;
        let n: usize = v
            .trim()
            .parse()
            .map_err(|_| Error::invalid("--dl-dims", format!("{part:?}: {v:?} is not a count")))?;
        match k.trim() {
            "m" => c.m = n,
            "p" => c.p = n,
            "l" => c.l = n,
            "q" => c.q = n,
            "n" => c.n = n,
            "n_new" | "n'" => c.n_new = n,
            other => {
                return Err(Error::invalid(
                    "--dl-dims",
                    format!("unknown key {other:?} (m, p, l, q, n, n_new)"),
                ))
            }
        }
    }
    c.validate()?;
    Ok(c)
}

impl ExperimentArgs {
    /// Checks every flag and builds the plan (`out` and `quiet` are returned beside it).
    pub fn validate(self) -> Result<(Plan, PathBuf, bool)> {
        let which: Which = self.experiment.parse()?;
        let mut plan = Plan::new(which);
        if let Some(t) = self.time_limit {
            plan.time_limit_s = finite_positive("--time-limit", t)?;
        }
        if let Some(list) = &self.algos {
            plan.algorithms = parse_algorithms(list)?;
            plan.explicit_algorithms = true;
        }
        plan.jobs = positive_count("--jobs", self.jobs)?;
        let threads = self
            .threads
            .map(|n| positive_count("--threads", n))
            .transpose()?;
        plan.threads = crate::jobs::kernel_threads(threads, plan.jobs);
        if let Some(i) = self.iters {
            plan.max_iterations = positive_count("--iters", i)?;
        }
        if let Some(r) = self.rows {
            plan.rows = Some(positive_count("--rows", r)?);
        }
        if let Some(s) = self.sigma {
            plan.sigma = Some(finite_positive("--sigma", s)?);
        }
        plan.scaling = self.scaling.parse()?;
        plan.seed = self.seed;
        plan.dl = match &self.dl_dims {
            Some(spec) => parse_dl_dims(spec, self.seed)?,
            None => DlConfig {
                seed: self.seed,
                ..DlConfig::default()
            },
        };
        if which == Which::Dl && (self.data.is_some() || self.rows.is_some()) {
            return Err(Error::invalid(
                "--data/--rows",
                "the DL experiment generates its data (use --dl-dims and --seed)",
            ));
        }
        if which != Which::Dl && self.dl_dims.is_some() {
            return Err(Error::invalid(
                "--dl-dims",
                "applies to the dl experiment only",
            ));
        }
        plan.data = self.data;
        plan.progress = !self.quiet && crate::progress::wanted();
        Ok((plan, self.out, self.quiet))
    }
}

/// `saddlefw experiment`: runs, writes `DIR/experiment.json` and `DIR/index.html`, prints a
/// summary (iterations, final measure, verdicts) unless `--quiet`.
pub fn cmd_experiment(args: ExperimentArgs) -> Result<i32> {
    let rerender = args.rerender;
    let resume = args.resume.clone();
    let every = crate::resume::interval("--checkpoint-every", args.checkpoint_every)?;
    let (plan, out, quiet) = args.validate()?;
    // the data file is an input (a rerender reads only DIR/experiment.json, which it rewrites)
    let inputs: Vec<PathBuf> = match plan.which.dataset() {
        Some(known) if !rerender => vec![crate::data::resolve_path(&known, plan.data.as_deref())],
        _ => Vec::new(),
    };
    crate::files::check_outputs(
        &inputs,
        "--out",
        &out,
        &[out.join("experiment.json"), out.join("index.html")],
    )?;
    let journal = crate::journal::journal_path(&out.join("experiment.json"));
    let record = if rerender {
        let mut r = super::record::ExperimentRecord::read(&out.join("experiment.json"))?;
        let which: Which = r.experiment.parse()?;
        if which != plan.which {
            return Err(Error::invalid(
                "--rerender",
                format!(
                    "{} holds the {} experiment, not {}",
                    out.display(),
                    r.experiment,
                    plan.which.name()
                ),
            ));
        }
        r.claims = super::claims::verdicts(which, &r.runs);
        r
    } else {
        crate::interrupt::stop_at(crate::interrupt::Boundary::Iteration);
        let reuse = resume.as_deref().map(super::resume::Reuse::Dir);
        super::run_journaled(&plan, reuse, Some((&out.join("experiment.json"), every)))?
    };
    super::write(&record, &out)?;
    if !rerender {
        let _ = std::fs::remove_file(&journal);
    }
    if let Some(i) = &record.interrupted {
        use std::io::Write;
        let _ = writeln!(
            std::io::stderr().lock(),
            "{}",
            i.finish_line("algorithms", &out)
        );
    }
    if !quiet {
        outln!(
            "experiment {} ({} s per algorithm, sigma of G_X^PO = {:.4}):",
            record.experiment,
            record.time_limit_s,
            record.measure.sigma
        );
        for r in &record.runs {
            outln!(
                "  {:<8} {:>10} it  {:>8.2} s (cpu {})  {:<14} {} = {}{}",
                r.algorithm,
                r.iterations,
                r.wall_time_s,
                r.cpu_time_s.map_or("-".into(), |c| format!("{c:.1} s")),
                r.status.as_str(),
                r.measure,
                r.last().map_or("-".into(), |m| format!("{m:.4e}")),
                r.paper_iterations
                    .map_or(String::new(), |p| format!("  (paper: {p} it)")),
            );
        }
        for c in &record.claims {
            let v = match c.holds {
                Some(true) => "holds",
                Some(false) => "does not hold",
                None => "inconclusive",
            };
            outln!("  [{v}] {}: {}", c.claim, c.evidence);
        }
        outln!("  wrote {}", out.join("experiment.json").display());
        outln!("  wrote {}", out.join("index.html").display());
    }
    Ok(crate::error::EXIT_OK)
}
