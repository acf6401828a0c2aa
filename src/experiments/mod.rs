//! The paper's experiments (Figure 1, Table 3): dictionary learning (DL) and robust multiclass
//! classification on NEWS20 or RCV1, all seven algorithms, `saddlefw experiment`.
//!
//! | module | content |
//! |---|---|
//! | [`params`] | the paper's schedules, baseline parameters, time limits and Table 3 as data |
//! | [`source`] | problem instances (generated DL, LIBSVM data read and hashed) and the registry options with the paper's parameters |
//! | [`table3`] | the paper's Table 3 counts by name and the judgement of its claim on iteration counts (the report renders it) |
//! | [`record`] | `experiment.json` and its conversion to the report page |
//! | [`claims`] | verdicts on the qualitative claims of claims.md 6.3 / 6.4 |
//! | [`command`] | the `saddlefw experiment` subcommand |
//!
//! Every algorithm runs through the one run loop ([`crate::harness::run_watched`]): solver
//! time only against the time limit, checkpoints at about ten per decade of iterations
//! ([`CheckpointRule::Decades`]), measures outside the timed region. Algorithms run one after
//! another by default (`jobs = 1`) so their timings do not disturb each other; with `jobs > 1`
//! each worker builds its own copy of the problem.
//!
//! The measure (`fig:Experiment`): `G_X^LMO + G_Y` for LMO-primal methods, `G_X^PO + G_Y` for
//! PO-primal methods (PO-LMO, AGP), at the current iterate. `G_X^PO` uses
//! `sigma = tau_0` of the experiment's PO-LMO schedule ([`sigma_po`]): the main text's
//! definition of the measure for Algorithm 3 (claims.md 2.3), used for AGP too so that both
//! PO-primal methods are measured alike. Every checkpoint also records the other measure.
//!
//! ```
//! use saddlefw::experiments::params::{Baseline, Experiment, Method};
//! use saddlefw::experiments::{sigma_po, Plan, Which};
//! let w: Which = "NEWS20".parse().unwrap();
//! assert_eq!((w.name(), w.experiment()), ("news20", Experiment::Robust));
//! let e = "mnist".parse::<Which>().unwrap_err();
//! assert!(e.to_string().contains("\"mnist\""), "{e}");
//! // Table 3: R-PDCG has no count on the robust problems (N/A), one on DL
//! assert_eq!(w.paper_iterations(Method::Baseline(Baseline::RPdcg)), None);
//! assert!(Which::Dl.paper_iterations(Method::Baseline(Baseline::RPdcg)).is_some());
//! // sigma of G_X^PO: tau_0 of the PO-LMO schedule, 1e2 / 10^(3/5) on DL
//! assert!((sigma_po(Experiment::Dl) - 100.0 / 10f64.powf(0.6)).abs() < 1e-9);
//! // the paper's plan: all seven algorithms, 300 s each on DL
//! let p = Plan::new(Which::Dl);
//! assert_eq!((p.algorithms.len(), p.time_limit_s), (7, 300.0));
//! ```

pub mod claims;
pub mod command;
pub mod params;
pub mod record;
pub mod resume;
pub mod source;
pub mod table3;

use crate::data::{self, Scaling};
use crate::harness::{self, CheckpointRule, RunConfig};
use crate::paper::measure::RunMeasure;
use crate::paper::Algorithm;
use crate::paper::Oracle;
use crate::problems::dictionary::DlConfig;
use crate::problems::dro::DroConfig;
use crate::problems::lipschitz::sample_constants;
use crate::report::{self, Meta};
use crate::solvers::SolverSpec;
use crate::{Error, Result};
pub use params::Which;
use params::{Baseline, Experiment, Method};
use record::{
    plotted_measure, ConstantsReport, ExperimentRecord, MeasureSpec, RunRecord, RunStatus,
};
use source::{DataDescription, Source};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

/// Everything `saddlefw experiment` needs.
#[derive(Debug, Clone)]
pub struct Plan {
    pub which: Which,
    /// Solver-time limit per algorithm (seconds).
    pub time_limit_s: f64,
    /// Iteration cap per algorithm.
    pub max_iterations: usize,
    /// Algorithms in run order.
    pub algorithms: Vec<Method>,
    /// Whether the list was given explicitly (then R-PDCG is attempted on the robust problem).
    pub explicit_algorithms: bool,
    /// LIBSVM file (robust experiments); default: the shared data folder.
    pub data: Option<PathBuf>,
    /// Seeded row subsample of the data (reduced runs).
    pub rows: Option<usize>,
    /// Feature scaling of the robust data.
    pub scaling: Scaling,
    /// DL dimensions and seed.
    pub dl: DlConfig,
    /// Seed of the robust row subsample.
    pub seed: u64,
    /// sigma of `G_X^PO` (default [`sigma_po`]).
    pub sigma: Option<f64>,
    /// Concurrent algorithms.
    pub jobs: usize,
    /// Threads the kernels of one run are split over (NEWS20/RCV1's sparse products;
    /// [`crate::jobs::kernel_threads`]); results do not depend on it.
    pub threads: usize,
    /// Draw the terminal display.
    pub progress: bool,
    /// Gradient-difference pairs sampled for the empirical Lipschitz constants (DL).
    pub lipschitz_pairs: usize,
}

impl Plan {
    /// The paper's setting for `which`: all applicable algorithms in Table 3 order, the
    /// default time limit, one job, no display.
    pub fn new(which: Which) -> Self {
        Plan {
            which,
            time_limit_s: which.default_time_limit(),
            max_iterations: 1_000_000_000,
            algorithms: Method::ALL.to_vec(),
            explicit_algorithms: false,
            data: None,
            rows: None,
            scaling: Scaling::RowL2,
            dl: DlConfig::default(),
            seed: 0,
            sigma: None,
            jobs: 1,
            threads: 1,
            progress: false,
            lipschitz_pairs: 64,
        }
    }
}

/// sigma of `G_X^PO`: `tau_0` of the experiment's PO-LMO schedule (DL: `1e2/10^(3/5)`
/// ~ 25.12; robust: 1000), the main text's choice for Algorithm 3 (claims.md 2.3).
pub fn sigma_po(e: Experiment) -> f64 {
    let tau0 = params::proposed_schedule(e, Algorithm::PoLmo).tau.at(0);
    Algorithm::PoLmo.default_sigma(tau0)
}

/// The notes shown on the page: every choice where the paper is unclear.
fn notes(
    plan: &Plan,
    rec_sigma: f64,
    consts: &ConstantsReport,
    data: &DataDescription,
) -> Vec<String> {
    let mut n = Vec::new();
    match plan.which.experiment() {
        Experiment::Dl => {
            n.push("DL payoff (claims.md 6.5 items 1-5): the constraint uses the old data A with factor 1/(2n); Ctil is C padded with q - p zero rows; Y = [0, B], B = 1; X uses C' and d'_j, j in [q].".into());
            n.push(format!("DL data generated from ChaCha8 seed {} (the paper gives none); x0 = (D'_0, 0) with D'_0 ~ U[0, 0.1] and unit columns, y0 = 0.", plan.dl.seed));
            n.push("CG-RPGA in DL: mu_bar = mu (undefined in the paper; baselines.md 3.3, GUESSED), so sigma = 2/mu.".into());
        }
        Experiment::Robust => {
            n.push("Robust payoff: the main text's multinomial logistic loss with 1/n, the simplex Y, lambda = lambda'/(2n^2), lambda' = 10, r = 10, Theta_0 = 0, y0 = 1/n (claims.md 6.5 items 6-9).".into());
            n.push(format!(
                "Features scaled by {} (the paper does not say; data::Scaling).",
                data.scaling.clone().unwrap_or_default()
            ));
            n.push("AGP (Thm 3.1) and CG-RPGA (mu_bar) use mu = lambda = lambda'/(2n^2) as the paper states, although the payoff's strong-concavity modulus is lambda' (claims.md 6.5 item 9); AGP's steps are then ~0.".into());
            n.push("R-PDCG is N/A (the simplex is not strongly convex; Table 3 N/A): skipped unless requested with --algos.".into());
            n.push("Time limit: the paper states none for this experiment (claims.md 6.5 item 13); the DL value 300 s is the default.".into());
        }
    }
    n.push(format!("Measure: G_X^LMO + G_Y (LMO-primal) or G_X^PO + G_Y (PO-LMO, AGP) at the current iterate, G_Y in closed form; sigma of G_X^PO = {} (tau_0 of the PO-LMO schedule, the main text's choice for Algorithm 3; unspecified for the experiments).", fmt(rec_sigma)));
    n.push("Parameter formulas (AGP, R-PDCG alpha, CG-RPGA sigma) use the paper's appendix constants; the solvers' own step rules (gamma_t = 1/(Lyy + beta_t), the short step) read the certified Lyy of the problem (robust: the exact lambda', not the appendix's sqrt(2) lambda').".into());
    let c = consts;
    n.push(format!(
        "Lipschitz constants: L_xx paper {} / certified {}{}; L_yx paper {} / certified {}{}; L_yy paper {} / certified {}{}.",
        fmt(c.paper.lxx), fmt(c.certified.lxx), c.sampled.map(|s| format!(" / sampled {}", fmt(s.lxx))).unwrap_or_default(),
        fmt(c.paper.lyx), fmt(c.certified.lyx), c.sampled.map(|s| format!(" / sampled {}", fmt(s.lyx))).unwrap_or_default(),
        fmt(c.paper.lyy), fmt(c.certified.lyy), c.sampled.map(|s| format!(" / sampled {}", fmt(s.lyy))).unwrap_or_default(),
    ));
    if let Some(s) = c.sampled {
        n.push(format!("Sampled constants: largest gradient-difference ratios over {} pairs of points of X x Y (lower bounds on the true constants).", s.pairs));
    }
    n.push(format!(
        "Data: {}{}.",
        data.description,
        match (&data.file, &data.sha256, data.matches_reference) {
            (Some(f), Some(h), m) => format!(
                " from {f}, sha256 {h}{}",
                match m {
                    Some(true) => " (matches LIBSVM's)",
                    Some(false) => " (DIFFERS from LIBSVM's published digest)",
                    None => "",
                }
            ),
            _ => String::new(),
        }
    ));
    n.push(format!("Claims: 'keeps decreasing' = best-so-far measure at the end < {} x its value at half the run's solver time; 'marginal' = decrease by less than a factor {} over the run; two methods within a factor {} of each other are a tie (inconclusive); Table 3 is judged on iterations per CPU-second of the solver, inconclusive (contended) when a run got less than {} of a CPU and the wall-clock reading disagrees.", claims::KEEP_DECREASING, claims::MARGINAL, claims::TIE_BAND, table3::CONTENDED_SHARE));
    n.push("Timing: solver time only (measures excluded); checkpoints at about ten per decade of iterations. cpu_time_s in experiment.json is the CPU time the run's thread actually got: well below the run's wall time means other processes shared the cores, and iteration counts are low by that factor.".into());
    n
}

fn fmt(v: f64) -> String {
    format!("{v:.4e}")
}

/// Loads the experiment's data and describes it.
pub fn load(plan: &Plan) -> Result<(Source, DataDescription)> {
    match plan.which.dataset() {
        None => {
            plan.dl.validate()?;
            let c = &plan.dl;
            Ok((
                Source::Dl(c.clone()),
                DataDescription {
                    kind: "generated".into(),
                    description: format!(
                        "DL data generated as in subsec:DL-imple (m = {}, p = {}, l = {}, q = {}, n = {}, n' = {}, delta = {}, r = {}, B = {}, seed {})",
                        c.m, c.p, c.l, c.q, c.n, c.n_new, c.delta, c.r, c.b, c.seed
                    ),
                    file: None,
                    sha256: None,
                    sha256_decompressed: None,
                    expected_sha256: None,
                    matches_reference: None,
                    scaling: None,
                    rows: None,
                    rows_in_file: None,
                    seed: c.seed,
                    n: Some(c.n),
                    d: None,
                    k: None,
                    nnz: None,
                    dl: Some(c.clone()),
                },
            ))
        }
        Some(known) => {
            let path = data::resolve_path(&known, plan.data.as_deref());
            let (full, mut desc) = source::read_dataset(&path, &known)?;
            let used = match plan.rows {
                Some(r) => full.subsample(r, plan.seed)?,
                None => full,
            };
            desc.rows = Some(used.n_samples());
            desc.n = Some(used.n_samples());
            desc.nnz = Some(used.features.nnz());
            desc.seed = plan.seed;
            desc.scaling = Some(plan.scaling.to_string());
            if plan.rows.is_some() {
                desc.description.push_str(&format!(
                    ", seeded row subsample ({} rows, seed {})",
                    used.n_samples(),
                    plan.seed
                ));
            }
            let cfg = DroConfig {
                scaling: plan.scaling,
                rows: None,
                seed: plan.seed,
                ..DroConfig::default()
            };
            Ok((
                Source::Robust {
                    data: Arc::new(used),
                    cfg,
                    threads: plan.threads,
                },
                desc,
            ))
        }
    }
}

/// Runs one algorithm (or records why it did not run).
fn run_one(
    plan: &Plan,
    src: &Source,
    alg: Method,
    sigma: f64,
    display: &crate::progress::Lines,
) -> RunRecord {
    let e = src.experiment();
    let mut rec = if !alg.applicable(e) && !plan.explicit_algorithms {
        RunRecord::not_run(
            alg,
            RunStatus::Skipped,
            "not applicable to this problem per the paper (R-PDCG needs a strongly convex Y; the simplex is not; Table 3 N/A); request it with --algos to attempt it".into(),
        )
    } else {
        match src.prepare() {
            Err(e) => RunRecord::not_run(alg, RunStatus::Failed, e.to_string()),
            Ok(prep) => {
                let (options, mut notes) = source::options(e, alg, &prep.formula);
                let problem = prep.instance.problem.as_ref();
                match SolverSpec::new(alg.registry_name())
                    .options(options)
                    .build(problem)
                {
                    Err(err) => {
                        let status =
                            if alg == Method::Baseline(Baseline::RPdcg) && !alg.applicable(e) {
                                RunStatus::NotApplicable
                            } else {
                                RunStatus::Failed
                            };
                        RunRecord::not_run(alg, status, err.to_string())
                    }
                    Ok(built) => {
                        notes.extend(built.notes);
                        let config = RunConfig {
                            iterations: plan.max_iterations,
                            time_limit: Some(plan.time_limit_s),
                            checkpoints: CheckpointRule::Decades,
                            sigma,
                        };
                        let line = display.line(alg.name());
                        let oracle = alg.primal_oracle();
                        let mut solver = built.solver;
                        let cpu0 = crate::jobs::run_cpu_time_s();
                        let watch = harness::Watch {
                            observer: &mut |v| line.step(v.t),
                            on_checkpoint: &mut |c| line.gap(plotted_measure(c, oracle)),
                            snapshots: None,
                        };
                        let trace = harness::run_watched(
                            problem,
                            &prep.instance.x0,
                            &prep.instance.y0,
                            solver.as_mut(),
                            &config,
                            watch,
                        );
                        let mut rec = RunRecord::from_trace(alg, &trace, notes);
                        rec.cpu_time_s =
                            cpu0.zip(crate::jobs::run_cpu_time_s()).map(|(a, b)| b - a);
                        rec.threads = prep.threads;
                        line.finish(&format!(
                            "{} it in {:.1} s ({}), final {} = {:.3e}",
                            rec.iterations,
                            rec.wall_time_s,
                            rec.status.as_str(),
                            rec.measure,
                            rec.last().unwrap_or(f64::NAN)
                        ));
                        rec
                    }
                }
            }
        }
    };
    rec.paper_iterations = plan.which.paper_iterations(alg);
    rec
}

/// Runs the experiment (no files written): every algorithm of the plan, then the verdicts.
pub fn run(plan: &Plan) -> Result<ExperimentRecord> {
    run_resumed(plan, None)
}

/// [`run`], reusing the finished runs of `resume` (`(name, record)`: an earlier record of the
/// same build and arguments: its identity, `resume::recorded`, accepted by
/// [`crate::resume::Identity::accept`]). A stop requested by a
/// signal (`crate::interrupt`) ends the runs in flight at their next iteration and starts no
/// other: the record then lists them as `interrupted` and says so (`interrupted`).
pub fn run_resumed(
    plan: &Plan,
    resume: Option<(&str, &ExperimentRecord)>,
) -> Result<ExperimentRecord> {
    run_journaled(plan, resume.map(|(n, r)| resume::Reuse::Record(n, r)), None)
}

/// The time limit is a finite positive number and at least one algorithm is given.
fn check_plan(plan: &Plan) -> Result<()> {
    if !(plan.time_limit_s.is_finite() && plan.time_limit_s > 0.0) {
        return Err(Error::invalid(
            "--time-limit",
            format!("must be a finite number > 0, got {}", plan.time_limit_s),
        ));
    }
    if plan.algorithms.is_empty() {
        return Err(Error::invalid("--algos", "no algorithm given"));
    }
    Ok(())
}

/// The experiment's constants, and for DL the sampled ones.
fn constants(plan: &Plan, src: &Source) -> Result<ConstantsReport> {
    let prep = src.prepare()?;
    let sampled = (src.experiment() == Experiment::Dl && plan.lipschitz_pairs > 0).then(|| {
        sample_constants(
            prep.instance.problem.as_ref(),
            plan.lipschitz_pairs,
            plan.dl.seed,
        )
    });
    Ok(ConstantsReport {
        certified: prep.certified,
        paper: prep.paper,
        passed_to_parameter_formulas: prep.formula,
        sampled,
    })
}

/// [`run_resumed`] with the runs of `reuse`, appending every finished run to the journal of
/// the record `journal` (`(path of experiment.json, seconds between syncs)`,
/// [`crate::ledger`]) when given: an experiment killed by SIGKILL keeps its finished runs.
pub(crate) fn run_journaled(
    plan: &Plan,
    reuse: Option<resume::Reuse>,
    journal: Option<(&Path, f64)>,
) -> Result<ExperimentRecord> {
    check_plan(plan)?;
    let (src, data) = load(plan)?;
    let e = src.experiment();
    let sigma = plan.sigma.unwrap_or_else(|| sigma_po(e));
    let work = resume::Work {
        experiment: plan.which.name(),
        time_limit_s: plan.time_limit_s,
        max_iterations: plan.max_iterations,
        algorithms: &plan.algorithms,
        sigma,
        data: &data,
    };
    let mut ledger = resume::ledger(reuse, &work)?;
    if let Some((record, every)) = journal {
        ledger.start_journal(record, plan.algorithms.len(), every)?;
    }
    let consts = constants(plan, &src)?;

    let display = crate::progress::Lines::new(plan.progress, plan.time_limit_s);
    let slots: Mutex<Vec<Option<RunRecord>>> = Mutex::new(vec![None; plan.algorithms.len()]);
    let next = AtomicUsize::new(0);
    let jobs = plan.jobs.clamp(1, plan.algorithms.len());
    std::thread::scope(|s| {
        for _ in 0..jobs {
            s.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::SeqCst);
                let Some(&alg) = plan.algorithms.get(i) else {
                    break;
                };
                let rec = match ledger.get(&alg.registry_name().to_string()) {
                    Some(done) => done.clone(),
                    None if crate::interrupt::requested() => resume::not_started(alg),
                    None => {
                        let rec = run_one(plan, &src, alg, sigma, &display);
                        if rec.status != RunStatus::Interrupted {
                            ledger.done(&rec);
                        }
                        rec
                    }
                };
                slots.lock().expect("no worker panics")[i] = Some(rec);
            });
        }
    });
    let runs: Vec<RunRecord> = slots
        .into_inner()
        .expect("no worker panics")
        .into_iter()
        .map(|r| r.expect("every algorithm recorded"))
        .collect();
    let verdicts = claims::verdicts(plan.which, &runs);
    let finished = runs
        .iter()
        .filter(|r| r.status != RunStatus::Interrupted)
        .count();
    let interrupted = crate::resume::Interruption::now(finished, runs.len());
    let mut notes = notes(plan, sigma, &consts, &data);
    if let Some(i) = &interrupted {
        notes.insert(0, format!("INTERRUPTED: {}", i.describe("algorithms")));
    }
    Ok(ExperimentRecord {
        experiment: plan.which.name().into(),
        time_limit_s: plan.time_limit_s,
        max_iterations: plan.max_iterations,
        jobs,
        measure: MeasureSpec {
            lmo_primal: RunMeasure::Stationarity.label(Oracle::Lmo).into(),
            po_primal: RunMeasure::Stationarity.label(Oracle::Po).into(),
            sigma,
            sigma_choice: if plan.sigma.is_some() {
                "given with --sigma".into()
            } else {
                "tau_0 of the experiment's PO-LMO schedule (main-text definition for Algorithm 3, claims.md 2.3)".into()
            },
        },
        checkpoint_rule: CheckpointRule::Decades.to_string(),
        notes,
        interrupted,
        data,
        constants: consts,
        runs,
        claims: verdicts,
        meta: Meta::current(
            None,
            &[if e == Experiment::Dl {
                plan.dl.seed
            } else {
                plan.seed
            }],
        ),
    })
}

/// Writes `dir/experiment.json` and `dir/index.html` atomically (creating `dir`).
pub fn write(record: &ExperimentRecord, dir: &Path) -> Result<()> {
    let mut json = record.to_json();
    json.push('\n');
    crate::files::write_atomic(dir.join("experiment.json"), json.as_bytes())?;
    let mut meta = record.meta.clone();
    meta.interrupted = record.interrupted.as_ref().map(|i| {
        format!(
            "{}: finish it with saddlefw experiment {} --resume {} (and the same arguments)",
            i.describe("algorithms"),
            record.experiment,
            dir.display()
        )
    });
    let html = report::experiment_page(&meta, &record.to_report());
    crate::files::write_atomic(dir.join("index.html"), html.as_bytes())
}
