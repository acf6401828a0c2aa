//! Gate your own solver: the machinery of `saddlefw verify` (random instance families, stored
//! hard instances, seeds, fit windows, envelopes, gates) applied to a solver you wrote, in your
//! own `#[test]`.
//!
//! The harness never trusts the solver: it reads the iterates `(x_t, y_t)` after every step
//! and computes every measure itself (`G_X^LMO`, `G_X^PO`, `G_Y`, `G^Opt` with a certified
//! f*, `H_t` with the entry's `beta_t`). Your factory receives the instance and the entry's
//! schedule ([`SolverRequest`]), so the solver can honour the theorem's step sizes or
//! deliberately use its own.
//!
//! The crate's front page shows the whole route in one example; `examples/own_solver/` is an
//! independent implementation of Algorithm 1 gated on every built-in LMO-LMO entry, and the
//! README's "Verify your own solver" section walks through both.
//!
//! | you give | you get |
//! |---|---|
//! | a [`Solver`] (your type, or [`step_fn`] around a closure) and a factory ([`RateCheck::solver_fn`]) | [`Outcome`]: the verify report, [`Outcome::failures`], [`Outcome::assert_passed`], [`Outcome::write`] |
//! | entries: [`RateCheck::builtin`] (by id filter) or your own ([`RateCheck::theorems_file`], [`crate::paper::user`]) | the same gates, hard instances, envelopes as `saddlefw verify` |
//! | a reimplementation of one of Algorithms 1-3: [`RateCheck::against`] | where its iterates first depart from saddlefw's ([`Outcome::departures`], [`record::Differential`]) |

use crate::error::{Error, Result};
use crate::paper::theorems::TheoremEntry;
use crate::paper::Algorithm;
use crate::problems::SaddleProblem;
use crate::solvers::{Solver, StepInfo};
use crate::verify::differential::{DiffVerdict, JobDifferential};
use crate::verify::{self, SolverFactory, SolverRequest, Tier, TierConfig, VerifyReport};

pub mod record;

// The input side of the gate's signatures, documented here (they live in internal modules);
// what a run returns is in [`record`].
pub use crate::fit::Baselines;
pub use crate::ledger::shard::Shard;
pub use crate::verify::{JobRef, RunOrigin, SharedFactory, VerifyOptions};
use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// A rate check of a solver against theorem entries (built-in or your own).
///
/// The builder calls may come in any order: each sets one thing, and [`RateCheck::run`]
/// assembles the options from all of them.
#[derive(Debug, Clone)]
pub struct RateCheck {
    table: Vec<TheoremEntry>,
    source: String,
    filter: Option<String>,
    tier: Tier,
    sizes: Option<TierConfig>,
    /// `None`: the tier decides (quick and full run the stored hard instances).
    hard: Option<bool>,
    /// Exponents given by the user (the stored ones are the crate's solvers').
    baselines: Option<crate::fit::Baselines>,
    /// `None`: the reference regression gates the crate's own solver at the quick tier, and a
    /// solver of yours only against baselines you gave.
    reference_regression: Option<bool>,
    jobs: Option<usize>,
    seed: u64,
    solver: Option<SharedFactory>,
    /// The theorem file the entries come from ([`RateCheck::theorems_file`]).
    theorems: Option<PathBuf>,
    /// Differential mode: the algorithm of the crate to compare the iterates with.
    against: Option<Algorithm>,
    /// An interrupted outcome's report whose finished jobs are reused ([`RateCheck::resume`]).
    resume: Option<VerifyReport>,
    caller: Caller,
}

/// The language a failure's `rerun` line is written in ([`RateCheck::caller`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Caller {
    /// `RateCheck ... .filter("ID").tier(Tier::Quick)` (the default).
    #[default]
    Rust,
    /// `saddlefw.RateCheck(...).filter("ID").tier("quick")` (what the Python package sets).
    Python,
}

impl RateCheck {
    fn with_table(table: Vec<TheoremEntry>, source: &str) -> Self {
        RateCheck {
            table,
            source: source.into(),
            filter: None,
            tier: Tier::Test,
            sizes: None,
            hard: None,
            baselines: None,
            reference_regression: None,
            jobs: None,
            seed: 0,
            solver: None,
            theorems: None,
            against: None,
            resume: None,
            caller: Caller::Rust,
        }
    }
    /// The built-in entries (the paper's theorem table) whose id contains `filter`
    /// (`""`: all 38; `"lmo-lmo/"`: Algorithm 1's), test tier, the crate's own solver.
    pub fn builtin(filter: &str) -> Self {
        RateCheck::with_table(crate::theorems::builtin(), BUILTIN_SOURCE).filter(filter)
    }
    /// Your own entries (e.g. from [`crate::paper::user::parse`]).
    pub fn entries(entries: Vec<TheoremEntry>) -> Self {
        RateCheck::with_table(entries, "user entries")
    }
    /// The entries of a user theorem file ([`crate::paper::user`], format
    /// `saddlefw-theorems` v1).
    pub fn theorems_file(path: impl AsRef<Path>) -> Result<Self> {
        let path = path.as_ref();
        let mut c = RateCheck::entries(crate::paper::user::load(path)?);
        c.source = path.display().to_string();
        c.theorems = Some(path.to_path_buf());
        Ok(c)
    }
    /// Keeps the entries whose id contains `filter`.
    pub fn filter(mut self, filter: &str) -> Self {
        self.filter = Some(filter.to_string());
        self
    }
    /// The tier: its seeds, horizon and dimensions; `quick` and `full` also run the stored
    /// hard instances unless [`RateCheck::hard_instances`] says otherwise (in any order).
    pub fn tier(mut self, tier: Tier) -> Self {
        self.tier = tier;
        self
    }
    /// Overrides the tier's seeds, horizon and dimensions.
    pub fn sizes(mut self, sizes: TierConfig) -> Self {
        self.sizes = Some(sizes);
        self
    }
    /// Whether the stored hardest instances of the entries run too (built-in entries only).
    pub fn hard_instances(mut self, on: bool) -> Self {
        self.hard = Some(on);
        self
    }
    /// Stored exponents to compare with (`p_hat >= baseline - 0.1`), e.g. your solver's own
    /// from an earlier run ([`VerifyReport::baselines`]); they gate (the reference
    /// regression, [`record::Answers`]) unless
    /// [`RateCheck::reference_regression`]`(false)`. Without them a solver of yours is compared
    /// with the crate's stored exponents, reported but not gating.
    pub fn baselines(mut self, baselines: crate::fit::Baselines) -> Self {
        self.baselines = Some(baselines);
        self
    }
    /// Whether the agreement with the reference exponents (the `baseline` and `hard-baseline`
    /// gates) fails the check. Default: only for baselines you gave, or for the crate's own
    /// solver at the quick tier.
    pub fn reference_regression(mut self, on: bool) -> Self {
        self.reference_regression = Some(on);
        self
    }
    /// The master seed of the random instance families (0, the default, gives verify's
    /// instances; `saddlefw verify --seed`).
    pub fn seed(mut self, seed: u64) -> Self {
        self.seed = seed;
        self
    }
    /// Worker threads (default: one per core).
    pub fn jobs(mut self, n: usize) -> Self {
        self.jobs = Some(n);
        self
    }
    /// The solver under verification, from a factory.
    pub fn solver(mut self, factory: impl SolverFactory + 'static) -> Self {
        self.solver = Some(SharedFactory(Arc::new(factory)));
        self
    }
    /// The solver under verification, from a closure that builds one per job.
    pub fn solver_fn<F>(self, name: &str, build: F) -> Self
    where
        F: Fn(&SolverRequest<'_>) -> Result<Box<dyn Solver>> + Send + Sync + 'static,
    {
        self.solver(FnFactory {
            name: name.to_string(),
            build,
        })
    }
    /// Differential mode ([`record::Differential`]): also run saddlefw's own
    /// `algorithm` on every job's instance, schedule and start, and report where the iterates
    /// of the solver under verification first depart from it (iterate t, coordinate, both
    /// values; tolerance `1e-9 + 1e-6 |saddlefw's|`), before the run's chaos horizon. A job
    /// that departs fails the check. The selected entries must include some of `algorithm`'s.
    pub fn against(mut self, algorithm: Algorithm) -> Self {
        self.against = Some(algorithm);
        self
    }
    /// Whether the stored hard instances run: as asked, else at the quick and full tiers.
    fn hard_on(&self) -> bool {
        self.hard.unwrap_or(self.tier != Tier::Test)
    }
    /// Reuses the jobs an interrupted check finished (its [`Outcome::report`], with
    /// `interrupted` set: see [`SolverFactory::stop_reason`]); only the others run, and the
    /// outcome equals an uninterrupted check's apart from timings. [`RateCheck::run`] refuses
    /// a report of other settings (tier, sizes, entries, seed, solver name) or of another build.
    pub fn resume(mut self, record: VerifyReport) -> Self {
        self.resume = Some(record);
        self
    }
    /// The language of the `rerun` line of each [`GateFailure`] (default [`Caller::Rust`]).
    pub fn caller(mut self, caller: Caller) -> Self {
        self.caller = caller;
        self
    }
    /// The verify options this check runs with (for the CLI and advanced use).
    pub fn options(&self) -> VerifyOptions {
        let mut opts = VerifyOptions::new(self.tier);
        opts.filter = self.filter.clone();
        opts.jobs = self.jobs;
        opts.config = self.sizes;
        opts.seed = self.seed;
        // a solver of yours: every iterate checked as verify-iterates checks a file's
        opts.solver = (self.solver.as_ref())
            .map(|f| SharedFactory(Arc::new(verify::source::Untrusted(f.0.clone()))));
        // verify alone runs random instances; the hard-instance gates are composed here
        opts.hard = self
            .hard_on()
            .then(|| crate::tightness::HardSource::Builtin.into());
        match &self.baselines {
            Some(b) => opts.baselines = b.clone(),
            // the stored exponents are the quick tier's: at the test tier or other sizes there
            // is no reference exponent to compare with (the reference question is n/a)
            None if self.tier == Tier::Test || self.sizes.is_some() => opts.baselines.clear(),
            None => {}
        }
        opts.gate_baselines = self.reference_regression.unwrap_or(match &self.solver {
            None => self.tier.baseline_gated() && self.seed == 0,
            Some(_) => self.baselines.is_some(),
        });
        opts
    }
    /// Runs every job and judges every selected entry. A solver of yours is checked as
    /// `verify-iterates` checks an iterate file (`iterates::feasibility`, README "Verify your
    /// own solver"): an iterate of the wrong dimensions, outside `X x Y` beyond the tolerance,
    /// or an iterate 0 that is not the start point is an `Err` (the file route's exit 2), not a
    /// verdict, naming the solver, the job, the iteration and the distance and tolerance; so
    /// is an `Err` of your factory, with the job. A non-finite iterate is a diverged run (the
    /// `run` gate, its detail naming the iteration and the cause).
    pub fn run(&self) -> Result<Outcome> {
        let opts = self.options();
        // the comparison first: an algorithm none of the entries is of is an input error
        let differential = match self.against {
            Some(a) => {
                let hard = self
                    .hard_on()
                    .then_some(crate::tightness::HardSource::Builtin);
                let jobs = crate::iterates::FactoryJobs {
                    filter: self.filter.as_deref(),
                    config: opts.config.unwrap_or_else(|| opts.tier.config()),
                    hard: hard.as_ref(),
                    seed: self.seed,
                    threads: self.jobs,
                };
                Some(crate::iterates::compare_factory(
                    &self.table,
                    &jobs,
                    opts.factory(),
                    a,
                )?)
            }
            None => None,
        };
        if let Some(record) = &self.resume {
            verify::resume::check_record("the report to resume", record, &opts)?;
        }
        let mut report = verify::run_resumed(&self.table, &opts, self.resume.as_ref())?;
        if let Some(d) = differential {
            report.attach_differential(d);
        }
        Ok(Outcome {
            rerun: self.rerun_settings(),
            solver: opts.factory().name(),
            source: self.source.clone(),
            verify_command: self.verify_command(&opts),
            report,
        })
    }
    /// The call that reruns this check on entry `{ID}` (a placeholder), in the caller's
    /// language: the tier, and the sizes, hard instances, seed and reference regression where
    /// they were set.
    fn rerun_settings(&self) -> String {
        let tier = self.tier;
        // the hard instances are named when they differ from the tier's default
        let hard = (self.hard_on() != (tier != Tier::Test)).then_some(self.hard_on());
        match self.caller {
            Caller::Rust => {
                let mut call = format!("RateCheck ... .filter({{ID}}).tier(Tier::{tier:?})");
                if let Some(c) = self.sizes {
                    call.push_str(&format!(
                        ".sizes(TierConfig {{ seeds: {}, t_max: {}, dim_x: {}, dim_y: {} }})",
                        c.seeds, c.t_max, c.dim_x, c.dim_y
                    ));
                }
                if let Some(on) = hard {
                    call.push_str(&format!(".hard_instances({on})"));
                }
                if self.seed != 0 {
                    call.push_str(&format!(".seed({})", self.seed));
                }
                if self.baselines.is_some() {
                    call.push_str(".baselines(..)");
                }
                if let Some(on) = self.reference_regression {
                    call.push_str(&format!(".reference_regression({on})"));
                }
                call
            }
            Caller::Python => {
                let mut call = format!(
                    "saddlefw.RateCheck(...).filter({{ID}}).tier({:?})",
                    format!("{tier:?}").to_lowercase()
                );
                if let Some(c) = self.sizes {
                    call.push_str(&format!(
                        ".sizes({}, {}, {}, {})",
                        c.seeds, c.t_max, c.dim_x, c.dim_y
                    ));
                }
                if let Some(on) = hard {
                    call.push_str(if on {
                        ".hard_instances(True)"
                    } else {
                        ".hard_instances(False)"
                    });
                }
                call
            }
        }
    }
    /// The `saddlefw verify` command (without `--cases`) that runs what this check runs, when
    /// one does: the crate's own solver on the built-in table or a theorem file, at the quick
    /// or full tier's sizes, with the same hard instances, seed and reference regression.
    fn verify_command(&self, opts: &VerifyOptions) -> Option<String> {
        use verify::reproduce::{shell_word, PROGRAM};
        let table_flag = match &self.theorems {
            Some(p) => format!(" --theorems {}", shell_word(&p.display().to_string())),
            None if self.source == BUILTIN_SOURCE => String::new(),
            None => return None,
        };
        if self.solver.is_some() || self.tier == Tier::Test || self.sizes.is_some() {
            return None;
        }
        if self.baselines.is_some() {
            return None;
        }
        // what `saddlefw verify` gates the reference regression with (cli/verify.rs)
        let cli_gates = |flag: bool| self.tier.baseline_gated() && (flag || self.seed == 0);
        let regression = if cli_gates(false) == opts.gate_baselines {
            ""
        } else if cli_gates(true) == opts.gate_baselines {
            " --reference-regression"
        } else {
            return None;
        };
        let mut cmd = format!("{PROGRAM} verify --tier {}{table_flag}", self.tier);
        if self.seed != 0 {
            cmd.push_str(&format!(" --seed {}", self.seed));
        }
        if opts.hard.is_none() {
            cmd.push_str(" --no-hard");
        }
        cmd.push_str(regression);
        Some(cmd)
    }
}

/// The source name of the built-in table.
const BUILTIN_SOURCE: &str = "built-in theorem table";

/// A factory from a closure ([`RateCheck::solver_fn`]).
pub(crate) struct FnFactory<F> {
    name: String,
    build: F,
}

impl<F> SolverFactory for FnFactory<F>
where
    F: Fn(&SolverRequest<'_>) -> Result<Box<dyn Solver>> + Send + Sync,
{
    fn name(&self) -> String {
        self.name.clone()
    }
    fn build(&self, request: &SolverRequest<'_>) -> Result<Box<dyn Solver>> {
        (self.build)(request)
    }
}

/// The result of a [`RateCheck`]: the verify report and what it was run on.
#[derive(Debug, Clone)]
pub struct Outcome {
    /// The same report `saddlefw verify` writes as verify.json.
    pub report: VerifyReport,
    /// The factory's name.
    pub solver: String,
    /// Where the entries come from.
    pub source: String,
    /// The `saddlefw verify` command of this check without `--cases`, when one runs it.
    verify_command: Option<String>,
    /// The builder calls after `.filter(ID)` that rerun this check, in the caller's language
    /// ([`RateCheck::caller`]).
    rerun: String,
}

/// One failed gate of one entry.
#[derive(Debug, Clone, PartialEq)]
pub struct GateFailure {
    pub entry: String,
    /// `rate`, `run`, `envelope`, `mhat`, `baseline`, `hard-rate`, ...
    pub gate: String,
    /// What failed, with numbers.
    pub detail: String,
    /// The instances involved, as `saddlefw run --problem` values (a generator spec, or
    /// `hard:ENTRY` / a fixture file for a stored hardest instance).
    pub instances: Vec<String>,
    /// A shell command that runs as printed: `saddlefw verify ... --cases ENTRY` where one
    /// reruns this check (the crate's own solver at the quick or full tier), else `saddlefw
    /// run` of saddlefw's own solver of the entry on the first instance involved, to compare
    /// with (empty when the entry's algorithm has no implementation in the crate).
    pub reproduce: String,
    /// How to rerun the check in Rust when no command does (a solver of yours; empty
    /// otherwise).
    pub rerun: String,
}

impl fmt::Display for GateFailure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} failed gate {} ({}): {}",
            self.entry,
            self.gate,
            verify::questions::Question::of(&self.gate).title(),
            self.detail
        )?;
        for spec in &self.instances {
            write!(f, "\n    instance {spec}")?;
        }
        if !self.reproduce.is_empty() {
            write!(f, "\n    reproduce: {}", self.reproduce)?;
        }
        if !self.rerun.is_empty() {
            write!(f, "\n    rerun: {}", self.rerun)?;
        }
        Ok(())
    }
}

impl Outcome {
    /// True when no entry failed a gate and every job ran (an interrupted check's verdicts
    /// are partial: `report.interrupted`).
    pub fn passed(&self) -> bool {
        !self.report.failed && self.report.interrupted.is_none()
    }
    /// Every failed gate, entry by entry.
    pub fn failures(&self) -> Vec<GateFailure> {
        self.failures_in(|e| &e.failed_gates)
    }
    /// Failed gates that are reported but do not fail their entry (`reported_gates`: the
    /// reference question where it does not gate, `hard-mhat`), entry by entry.
    pub fn reported(&self) -> Vec<GateFailure> {
        self.failures_in(|e| &e.reported_gates)
    }
    /// The gates `list` names for each entry, as failures, entry by entry.
    fn failures_in(&self, list: impl Fn(&verify::EntryResult) -> &Vec<String>) -> Vec<GateFailure> {
        (self.report.entries.iter())
            .flat_map(|e| list(e).iter().map(move |g| self.failure(e, g)))
            .collect()
    }
    fn failure(&self, e: &verify::EntryResult, gate: &str) -> GateFailure {
        let (detail, instances) = match gate.strip_prefix("hard-") {
            Some(g) => hard_detail(e, g),
            None => random_detail(e, gate),
        };
        let (reproduce, rerun) = match &self.verify_command {
            Some(cmd) => (
                format!("{cmd} --cases {}", verify::reproduce::shell_word(&e.id)),
                String::new(),
            ),
            None => (
                own_run(e, &instances),
                format!(
                    "{} with solver {:?} (entries: {}); the reproduce line runs saddlefw's own solver of the entry on the instance",
                    self.rerun.replace("{ID}", &format!("{:?}", e.id)),
                    self.solver,
                    self.source
                ),
            ),
        };
        GateFailure {
            entry: e.id.clone(),
            gate: gate.to_string(),
            detail,
            instances,
            reproduce,
            rerun,
        }
    }
    /// The jobs of the differential comparison ([`RateCheck::against`]) that depart from
    /// saddlefw's run (empty without one).
    pub fn departures(&self) -> Vec<&JobDifferential> {
        self.report
            .differential
            .iter()
            .flat_map(|d| d.jobs.iter().filter(|j| j.verdict == DiffVerdict::Departs))
            .collect()
    }
    /// Panics, naming every failed gate, entry, instance and a reproducing command, and every
    /// job that departs from saddlefw's run (iterate, coordinate, both values), unless every
    /// gate passed and no job departs.
    pub fn assert_passed(&self) {
        let failures = self.failures();
        let departures = self.departures();
        if self.passed() && failures.is_empty() && departures.is_empty() && !self.report.failed {
            return;
        }
        let mut msg = format!(
            "solver {:?} failed {} gate(s) of {} ({} tier, T_max = {}):",
            self.solver,
            failures.len(),
            self.source,
            self.report.tier,
            self.report.t_max
        );
        if let Some(i) = &self.report.interrupted {
            msg.push_str(&format!("\n  {}", i.describe("jobs")));
        }
        for f in &failures {
            msg.push_str(&format!("\n  {f}"));
        }
        if let Some(d) = self.report.differential.as_ref().filter(|d| d.departs) {
            msg.push_str(&format!(
                "\n  {} job(s) depart from saddlefw's {} ({}):",
                departures.len(),
                d.against.name(),
                d.summary_line()
            ));
            for j in &departures {
                msg.push_str(&format!(
                    "\n    {}: {}\n      instance {}",
                    j.job,
                    j.describe(),
                    j.spec
                ));
            }
        }
        panic!("{msg}");
    }
    /// Writes `dir/verify.json` and `dir/index.html`, as `saddlefw verify --out dir` does.
    pub fn write(&self, dir: impl AsRef<Path>) -> Result<(PathBuf, PathBuf)> {
        let dir = dir.as_ref();
        std::fs::create_dir_all(dir)
            .map_err(|e| Error::input(dir.display().to_string(), "create", e.to_string()))?;
        let checks = crate::invariants::verify_page_tables()?;
        self.report.write_outputs(dir, &checks)
    }
}

fn num(v: Option<f64>) -> String {
    v.map_or("-".into(), |v| format!("{v:.3}"))
}

fn interval(ci: Option<[f64; 2]>) -> String {
    ci.map_or("-".into(), |c| format!("[{:.3}, {:.3}]", c[0], c[1]))
}

/// What a failed gate of the random instances says, and the instances involved.
fn random_detail(e: &verify::EntryResult, gate: &str) -> (String, Vec<String>) {
    let specs = |pred: &dyn Fn(&verify::InstanceRun) -> bool| -> Vec<String> {
        e.instances
            .iter()
            .filter(|r| pred(r))
            .map(|r| r.spec.clone())
            .collect()
    };
    match gate {
        "rate" => (
            format!(
                "p_hat = {} (interval {}) below the claimed p = {} - tol {} on family {}",
                num(e.p_hat),
                interval(e.ci),
                e.p_frac,
                num(e.tol),
                e.binding_family.as_deref().unwrap_or("-")
            ),
            specs(&|r| Some(&r.family) == e.binding_family.as_ref()),
        ),
        "run" => {
            let failed = |r: &verify::InstanceRun| r.error.is_some() || r.status != "completed";
            let n = e.instances.iter().filter(|r| failed(r)).count();
            let detail = match e.instances.iter().find(|r| failed(r)) {
                // the harness's status says at which iteration and why a run stopped
                Some(r) => format!(
                    "{n} of {} run(s) stopped early or their quantity could not be formed; the first, on {}: {}",
                    e.instances.len(),
                    r.spec,
                    [(r.status != "completed").then_some(r.status.as_str()), r.error.as_deref()]
                        .into_iter()
                        .flatten()
                        .collect::<Vec<_>>()
                        .join("; ")
                ),
                None => "a run stopped early or its quantity could not be formed".into(),
            };
            (detail, specs(&|r| failed(r)))
        }
        "envelope" => (
            format!(
                "quantity/envelope = {} > 1 ({})",
                num(e.envelope_ratio),
                e.envelope_label.as_deref().unwrap_or("envelope")
            ),
            specs(&|r| r.envelope.is_some_and(|w| w.ratio > 1.0)),
        ),
        "mhat" => (
            format!(
                "the empirical constant M_hat still grows (largest slope {})",
                num(e.mhat.as_ref().map(|m| m.max_slope))
            ),
            Vec::new(),
        ),
        "baseline" => (
            format!(
                "p_hat = {} fell below saddlefw's stored reference exponent {} by more than {} (rule: p_hat >= stored - {})",
                num(e.p_hat),
                num(e.baseline),
                crate::fit::BASELINE_MARGIN,
                crate::fit::BASELINE_MARGIN
            ),
            Vec::new(),
        ),
        _ => (
            e.instances
                .iter()
                .flat_map(|r| r.schedule.iter().filter(|s| !s.holds))
                .map(|s| s.note.clone())
                .next()
                .unwrap_or_else(|| "the solver's beta_t is outside the theorem's hypotheses".into()),
            specs(&|r| r.schedule.iter().any(|s| !s.holds)),
        ),
    }
}

/// What the failed hard gate `hard-{gate}` says (from the entry's hard record, the one source
/// of its gates), and the instance as a `saddlefw run --problem` value.
fn hard_detail(e: &verify::EntryResult, gate: &str) -> (String, Vec<String>) {
    let Some(h) = &e.hard else {
        return ("hard-instance gate".into(), Vec::new());
    };
    let what = match gate {
        "rate" => format!(
            "p_hat = {}, interval {}, claimed p = {}, tol {}{}",
            num(h.p_hat),
            interval(h.ci),
            e.p_frac,
            num(h.tol),
            h.confirmation.as_ref().map_or(String::new(), |c| format!(
                "; confirmed at T = {}: p_hat = {}, interval {}",
                c.horizon,
                num(c.p_hat),
                interval(c.ci)
            ))
        ),
        "baseline" => format!(
            "p_hat = {} fell below saddlefw's stored reference exponent {:.3} by more than {} (rule: p_hat >= stored - {})",
            num(h.p_hat),
            h.stored_p_hat,
            crate::fit::BASELINE_MARGIN,
            crate::fit::BASELINE_MARGIN
        ),
        "run" => h.run_failure.clone().unwrap_or_else(|| {
            "the run diverged or its quantity could not be formed or fitted".into()
        }),
        "envelope" => format!("quantity/envelope = {} > 1", num(h.envelope_ratio)),
        "mhat" => "the empirical constant M_hat still grows".into(),
        _ if h.schedule_failures.is_empty() => {
            "the solver's schedule is outside the theorem's hypotheses".into()
        }
        _ => h.schedule_failures.join("; "),
    };
    // a record without `problem` (written before it existed) names the fixture
    let instance = if h.problem.is_empty() {
        format!("{} ({}, {})", h.params, h.family, h.fixture)
    } else {
        h.problem.clone()
    };
    (
        format!("on the stored hard instance (T = {}): {what}", h.horizon),
        vec![instance],
    )
}

/// The reproduce command of saddlefw's own solver on the first of `instances` (else on the
/// entry's first run): the `reproduce` of its verify.json record.
fn own_run(e: &verify::EntryResult, instances: &[String]) -> String {
    let first = instances.first().map(String::as_str).unwrap_or("");
    match &e.hard {
        Some(h) if !h.problem.is_empty() && first == h.problem => h.reproduce.clone(),
        _ => e
            .instances
            .iter()
            .find(|r| r.spec == first)
            .or(e.instances.first())
            .map(|r| r.reproduce.clone())
            .unwrap_or_default(),
    }
}

/// A solver from a closure that updates the iterates in place: `step(problem, x, y, t)`
/// performs iteration t on `(x_t, y_t)` and returns what it used ([`step_fn`]).
pub struct FnSolver<F> {
    name: String,
    x: Vec<f64>,
    y: Vec<f64>,
    step: F,
}

/// Wraps a step closure as a [`Solver`]; the harness sets `(x0, y0)` and reads the iterates.
///
/// ```
/// use saddlefw::prelude::*;
/// let variant = "halve"; // a name built at run time, e.g. a solver's variant
/// let mut s = step_fn(format!("my-{variant}"), |_p: &dyn SaddleProblem, x: &mut [f64], _y: &mut [f64], _t| {
///     x.iter_mut().for_each(|v| *v *= 0.5);
///     StepInfo { tau: 0.5, beta: 0.0, gamma: 0.0 }
/// });
/// let inst = "quadratic/c-c:dx=3,dy=2,seed=1".parse::<saddlefw::generators::GeneratorSpec>()
///     .unwrap().generate().unwrap();
/// s.init(inst.problem.as_ref(), &[1.0, 0.0, 0.0], &inst.y0);
/// s.step(inst.problem.as_ref(), 0);
/// assert_eq!(s.x(), &[0.5, 0.0, 0.0]);
/// assert_eq!(s.name(), "my-halve");
/// ```
pub fn step_fn<F>(name: impl Into<String>, step: F) -> FnSolver<F>
where
    F: FnMut(&dyn SaddleProblem, &mut [f64], &mut [f64], usize) -> StepInfo + Send,
{
    FnSolver {
        name: name.into(),
        x: Vec::new(),
        y: Vec::new(),
        step,
    }
}

impl<F> Solver for FnSolver<F>
where
    F: FnMut(&dyn SaddleProblem, &mut [f64], &mut [f64], usize) -> StepInfo + Send,
{
    fn name(&self) -> &str {
        &self.name
    }
    fn init(&mut self, _: &dyn SaddleProblem, x0: &[f64], y0: &[f64]) {
        self.x = x0.to_vec();
        self.y = y0.to_vec();
    }
    fn step(&mut self, p: &dyn SaddleProblem, t: usize) -> StepInfo {
        (self.step)(p, &mut self.x, &mut self.y, t)
    }
    fn x(&self) -> &[f64] {
        &self.x
    }
    fn y(&self) -> &[f64] {
        &self.y
    }
}
