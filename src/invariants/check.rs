//! `saddlefw check`: random instances x applicable solvers x applicable invariants, a report
//! (per invariant: contexts, evaluations, violations, minimum slack and the worst case) and the
//! errata list (printed forms of recorded slips: confirmed or not).
//!
//! Cases are derived from `(seed, index)` by a stable hash ([`case_spec`]), so a report depends
//! only on `(cases, seed)`; cases run on `std::thread::scope` workers and are merged in case
//! order, so it does not depend on the number of threads either.
//!
//! Per case: 4 random points (Point invariants), then runs of Algorithms 1-3 with the default
//! theorem-case schedules of the solvers' registry (plus, alternately, a variant with `C > 0`
//! when mu > 0, or a small `C` when mu = 0) and of SP-FW, each for the case's horizon; Point
//! invariants are also evaluated at every iterate. Real invariants and the witness instances
//! ([`super::witness::witness_cases`]) are evaluated once per check.
//!
//! ```
//! use saddlefw::invariants::check::case_spec;
//! // a case depends only on (seed, index)
//! assert_eq!(case_spec(0, 5), case_spec(0, 5));
//! assert_ne!(case_spec(0, 5), case_spec(0, 6));
//! assert_ne!(case_spec(0, 5), case_spec(1, 5));
//! // dimensions in 1..=6, and the instance is built with them
//! let c = case_spec(3, 11);
//! let (dx, dy) = c.dims();
//! assert!((1..=6).contains(&dx) && (1..=6).contains(&dy));
//! let inst = c.instance.generate().unwrap();
//! assert_eq!((inst.x0.len(), inst.y0.len()), (dx, dy));
//! ```

pub use super::case::{CaseOptions, SolverSpec, POINTS_PER_CASE};
use super::context::{MeasureSet, PointCtx, RunCtx, RunSpec};
use super::{registry, Check, Eval, Invariant, Kind, Scope};
use crate::generators::{Family, GeneratorSpec, Setting, XKind};
use crate::problems::{Instance, Interval};
use crate::sets::ConvexSet;
use crate::solvers::smoothing::{Fault, PaperAlgorithm};
use crate::verify::shard::Shard;
use crate::{Error, Result};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rand_distr::StandardNormal;
use serde::{Deserialize, Serialize};

/// Default horizon of the runs of `saddlefw check`.
pub const DEFAULT_HORIZON: usize = 100;
/// The largest `--cases` of one check (about a day of work on one core).
pub const MAX_CASES: usize = 1_000_000;

/// The instance of a case: a crate generator spec, or a random diagonal-`C` quadratic
/// ([`super::witness::DiagSpec`], `Lyy > mu`, which the generators never produce).
#[derive(Debug, Clone, PartialEq)]
pub enum InstanceSpec {
    Generated(GeneratorSpec),
    Diag(super::witness::DiagSpec),
}

impl InstanceSpec {
    /// Builds the instance (deterministic in the spec).
    pub fn generate(&self) -> Result<Instance> {
        match self {
            InstanceSpec::Generated(g) => g.generate(),
            InstanceSpec::Diag(d) => d.generate(),
        }
    }
    /// `(dx, dy)`.
    pub fn dims(&self) -> (usize, usize) {
        match self {
            InstanceSpec::Generated(g) => (g.dx, g.dy),
            InstanceSpec::Diag(d) => (d.dx, d.dy),
        }
    }
    /// The setting the instance was drawn for.
    pub fn setting(&self) -> Setting {
        match self {
            InstanceSpec::Generated(g) => g.setting,
            InstanceSpec::Diag(d) => d.setting,
        }
    }
    /// The instance seed.
    pub fn seed(&self) -> u64 {
        match self {
            InstanceSpec::Generated(g) => g.seed,
            InstanceSpec::Diag(d) => d.seed,
        }
    }
}

impl std::fmt::Display for InstanceSpec {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            InstanceSpec::Generated(g) => write!(f, "{g}"),
            InstanceSpec::Diag(d) => write!(f, "{d}"),
        }
    }
}

/// One case: an instance spec and a horizon.
#[derive(Debug, Clone, PartialEq)]
pub struct CaseSpec {
    pub instance: InstanceSpec,
    pub horizon: usize,
    /// Selects the schedule variant (see [`default_solvers`]).
    pub variant: usize,
}

impl CaseSpec {
    /// `(dx, dy)` of the instance.
    pub fn dims(&self) -> (usize, usize) {
        self.instance.dims()
    }
}

/// A family and setting of a case.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Combo {
    Generated(Family, Setting),
    Diag(Setting),
}

/// The (family, setting) combinations, in a fixed order: the generators' 16, then the 8
/// settings of the diagonal-`C` family.
pub fn combos() -> Vec<Combo> {
    let mut v = Vec::new();
    for s in Setting::all() {
        v.push(Combo::Generated(Family::Quadratic, s));
    }
    for s in Setting::all() {
        if s.convex {
            v.push(Combo::Generated(Family::Saddle, s));
        } else {
            v.push(Combo::Generated(Family::Cosine, s));
        }
    }
    for s in Setting::all() {
        v.push(Combo::Diag(s));
    }
    v
}

/// SplitMix64: the stable hash used to derive per-case seeds (documented, never DefaultHasher).
pub fn mix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Builds the spec of one case, with dimensions clamped to what the sets allow (a simplex Y
/// needs `dy >= 2`).
pub fn make_spec(
    combo: usize,
    dx: usize,
    dy: usize,
    seed: u64,
    x: XKind,
    horizon: usize,
    variant: usize,
) -> CaseSpec {
    let cs = combos();
    let instance = match cs[combo % cs.len()] {
        Combo::Generated(family, setting) => {
            let dy = if setting.sc_y { dy.max(1) } else { dy.max(2) };
            let mut gen = GeneratorSpec::new(family, setting, dx.max(1), dy, seed);
            gen.x = x;
            InstanceSpec::Generated(gen)
        }
        Combo::Diag(setting) => InstanceSpec::Diag(super::witness::DiagSpec {
            setting,
            dx: dx.max(1),
            dy: dy.max(1),
            seed,
            x,
        }),
    };
    CaseSpec {
        instance,
        horizon,
        variant,
    }
}

/// Case `index` of a check with base `seed`: the (family, setting) cycles through [`combos`],
/// dimensions in 1..=6, the X set and the generator seed from the hash of `(seed, index)`.
pub fn case_spec(seed: u64, index: usize) -> CaseSpec {
    let h = mix(seed ^ mix(index as u64 + 1));
    let xk = [XKind::L1, XKind::L2, XKind::Simplex, XKind::Box][(h >> 8) as usize % 4];
    make_spec(
        index,
        1 + (h % 6) as usize,
        1 + ((h >> 4) % 6) as usize,
        mix(h),
        xk,
        DEFAULT_HORIZON,
        index / combos().len(),
    )
}

/// The solvers of a case: Algorithms 1-3 with their default schedules, a schedule variant of
/// Algorithm 1 and 2 (mu > 0: `C = 1/2`, `b = 1/5`; mu = 0: `C = 0.05` with the theorem's b)
/// on every other case, and SP-FW.
pub fn default_solvers(case: &CaseSpec) -> Vec<SolverSpec> {
    use PaperAlgorithm::*;
    let mut v = vec![
        SolverSpec::paper(LmoLmo),
        SolverSpec::paper(LmoPo),
        SolverSpec::paper(PoLmo),
    ];
    if case.variant % 2 == 1 {
        for alg in [LmoLmo, LmoPo] {
            let (beta0, b) = if case.instance.setting().strongly_concave {
                (Some(0.5), Some(0.2))
            } else {
                (Some(0.05), None)
            };
            v.push(SolverSpec::Paper {
                alg,
                beta0,
                b,
                fault: Fault::None,
            });
        }
    }
    v.push(SolverSpec::SpFw);
    v
}

/// The worst evaluation of an invariant (smallest relative slack). Non-finite numbers are
/// written as the strings "inf", "-inf", "NaN" in JSON.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Worst {
    pub instance: String,
    pub solver: Option<String>,
    pub t: Option<usize>,
    #[serde(serialize_with = "ser_f64", deserialize_with = "de_f64")]
    pub lhs: f64,
    #[serde(serialize_with = "ser_f64", deserialize_with = "de_f64")]
    pub rhs: f64,
    #[serde(serialize_with = "ser_f64", deserialize_with = "de_f64")]
    pub slack: f64,
    #[serde(serialize_with = "ser_f64", deserialize_with = "de_f64")]
    pub rel_slack: f64,
    /// Why a side is not finite (set only then; e.g. a printed formula dividing by zero).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
}

fn ser_f64<S: serde::Serializer>(v: &f64, s: S) -> std::result::Result<S::Ok, S::Error> {
    if v.is_finite() {
        s.serialize_f64(*v)
    } else {
        s.serialize_str(&format!("{v}"))
    }
}

/// Reads what [`ser_f64`] writes: a number, or "inf", "-inf", "NaN".
fn de_f64<'de, D: serde::Deserializer<'de>>(d: D) -> std::result::Result<f64, D::Error> {
    #[derive(Deserialize)]
    #[serde(untagged)]
    enum NumOrText {
        Num(f64),
        Text(String),
    }
    match NumOrText::deserialize(d)? {
        NumOrText::Num(v) => Ok(v),
        NumOrText::Text(t) => match t.as_str() {
            "inf" => Ok(f64::INFINITY),
            "-inf" => Ok(f64::NEG_INFINITY),
            "NaN" => Ok(f64::NAN),
            _ => Err(serde::de::Error::custom(format!(
                "{t:?} is not a number (expected a number, \"inf\", \"-inf\" or \"NaN\")"
            ))),
        },
    }
}

fn ser_opt_f64<S: serde::Serializer>(
    v: &Option<f64>,
    s: S,
) -> std::result::Result<S::Ok, S::Error> {
    match v {
        Some(x) => ser_f64(x, s),
        None => s.serialize_none(),
    }
}

/// Accumulated results of one invariant.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Tally {
    /// Contexts where the hypotheses held (points, runs, grids).
    pub cases: usize,
    /// Contexts where the hypotheses failed (runs or points where it was not applied).
    pub skipped: usize,
    pub evaluations: usize,
    pub violations: usize,
    /// Violations where a side is not finite (the formula is undefined there).
    pub nonfinite: usize,
    pub worst: Option<Worst>,
    /// The worst evaluation with finite sides.
    pub worst_finite: Option<Worst>,
    /// First violation (in case order), for reproduction.
    pub first_violation: Option<Worst>,
}

impl Tally {
    fn add(&mut self, evals: &[Eval], instance: &str, solver: Option<&str>) {
        if evals.is_empty() {
            self.skipped += 1;
            return;
        }
        self.cases += 1;
        self.evaluations += evals.len();
        for e in evals {
            let rel = e.rel_slack();
            let make = || Worst {
                instance: instance.to_string(),
                solver: solver.map(str::to_string),
                t: e.t,
                lhs: e.lhs,
                rhs: e.rhs,
                slack: e.slack(),
                rel_slack: rel,
                reason: e.undefined_reason().map(str::to_string),
            };
            if e.violated() {
                self.violations += 1;
                if !e.finite() {
                    self.nonfinite += 1;
                }
                if self.first_violation.is_none() {
                    self.first_violation = Some(make());
                }
            }
            if self.worst.as_ref().map_or(true, |w| rel < w.rel_slack) {
                self.worst = Some(make());
            }
            if e.finite()
                && self
                    .worst_finite
                    .as_ref()
                    .map_or(true, |w| rel < w.rel_slack)
            {
                self.worst_finite = Some(make());
            }
        }
    }

    fn merge(&mut self, o: &Tally) {
        self.cases += o.cases;
        self.skipped += o.skipped;
        self.evaluations += o.evaluations;
        self.violations += o.violations;
        self.nonfinite += o.nonfinite;
        if let Some(w) = &o.worst {
            if self
                .worst
                .as_ref()
                .map_or(true, |s| w.rel_slack < s.rel_slack)
            {
                self.worst = Some(w.clone());
            }
        }
        if let Some(w) = &o.worst_finite {
            if self
                .worst_finite
                .as_ref()
                .map_or(true, |s| w.rel_slack < s.rel_slack)
            {
                self.worst_finite = Some(w.clone());
            }
        }
        if self.first_violation.is_none() {
            self.first_violation = o.first_violation.clone();
        }
    }
}

/// A gating violation found in a case (for tests and reproduction).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Violation {
    pub invariant: &'static str,
    pub instance: String,
    pub solver: Option<String>,
    pub t: Option<usize>,
    pub lhs: f64,
    pub rhs: f64,
}

/// The results of one case: one tally per registry entry (registry order).
#[derive(Debug, Clone)]
pub struct CaseResult {
    pub tallies: Vec<Tally>,
    /// Solvers that could not be built (e.g. a schedule needing mu > 0), with the reason.
    pub build_errors: Vec<String>,
}

impl CaseResult {
    /// Gating violations (the first one per invariant).
    pub fn gating_violations(&self) -> Vec<Violation> {
        registry()
            .iter()
            .zip(&self.tallies)
            .filter(|(inv, t)| inv.gating && t.violations > 0)
            .map(|(inv, t)| {
                let w = t.first_violation.clone().expect("violation recorded");
                Violation {
                    invariant: inv.name,
                    instance: w.instance,
                    solver: w.solver,
                    t: w.t,
                    lhs: w.lhs,
                    rhs: w.rhs,
                }
            })
            .collect()
    }
}

/// A random point context for an instance: projections of Gaussian vectors, `beta` and
/// `beta' <= beta` (0 allowed when mu > 0), `sigma > sigma'`.
pub fn random_point<'a>(
    inst: &'a Instance,
    rng: &mut ChaCha8Rng,
    measures: MeasureSet,
) -> PointCtx<'a> {
    let p = inst.problem.as_ref();
    let k = p.constants();
    let proj = |set: &dyn ConvexSet, rng: &mut ChaCha8Rng| {
        let z: Vec<f64> = (0..set.dim())
            .map(|_| 1.5 * rng.sample::<f64, _>(StandardNormal))
            .collect();
        let mut out = vec![0.0; set.dim()];
        set.project(&z, &mut out);
        out
    };
    let x = proj(p.x_set(), rng);
    let y = proj(p.y_set(), rng);
    let x2 = proj(p.x_set(), rng);
    let beta = if k.mu > 0.0 && rng.gen_bool(0.3) {
        0.0
    } else {
        rng.gen_range(0.01..2.0)
    };
    let beta2 = if rng.gen_bool(0.3) && k.mu > 0.0 {
        0.0
    } else {
        beta * rng.gen_range(0.0..1.0)
    };
    let sigma = rng.gen_range(0.05..3.0);
    let sigma2 = sigma * rng.gen_range(0.05..0.95);
    let xc = p.x_set().default_point();
    let yc = p.y_set().default_point();
    PointCtx {
        problem: p,
        k,
        asm: p.assumptions(),
        x,
        y,
        x2,
        y0: inst.y0.clone(),
        beta,
        beta2,
        sigma,
        sigma2,
        vs: super::context::value_bound(p, &xc, &yc),
        f_star: p
            .known_saddle()
            .and_then(|_| p.f_star())
            .map(|i| Interval::exact(i.mid())),
        measures,
        t: None,
    }
}

/// Evaluates every applicable invariant on one run.
fn eval_run(reg: &[&'static Invariant], run: &RunCtx, opts: &CaseOptions, tallies: &mut [Tally]) {
    for (i, inv) in reg.iter().enumerate() {
        match inv.check {
            Check::Point(f) if opts.points_at_iterates => {
                let mut evals = Vec::new();
                let mut any = false;
                for t in 0..run.snaps.len() {
                    let pc = run.point(t, opts.measures);
                    if inv.hyp.holds_point(&pc) {
                        any = true;
                        evals.extend(f(&pc).into_iter().map(|e| e.at(t)));
                    }
                }
                if any {
                    tallies[i].add(&evals, &run.instance, Some(&run.solver));
                }
            }
            Check::Step(f) => {
                if inv.hyp.holds_run(run) {
                    let evals: Vec<Eval> = (0..run.horizon()).flat_map(|t| f(run, t)).collect();
                    tallies[i].add(&evals, &run.instance, Some(&run.solver));
                } else {
                    tallies[i].skipped += 1;
                }
            }
            Check::Run(f) => {
                if inv.hyp.holds_run(run) {
                    tallies[i].add(&f(run), &run.instance, Some(&run.solver));
                } else {
                    tallies[i].skipped += 1;
                }
            }
            _ => {}
        }
    }
}

/// Runs one case: random points and runs of the solvers on the generated instance.
pub fn check_case(case: &CaseSpec, opts: &CaseOptions) -> Result<CaseResult> {
    let mut inst = case.instance.generate()?;
    let mut name = case.instance.to_string();
    if let Some(factor) = opts.understate {
        inst = Instance {
            problem: Box::new(super::controls::Understated {
                inner: inst.problem,
                factor,
            }),
            ..inst
        };
        name = format!("{name} (constants x{factor})");
    }
    let solvers = opts
        .solvers
        .clone()
        .unwrap_or_else(|| default_solvers(case));
    check_instance(
        &inst,
        &name,
        case.horizon,
        &solvers,
        opts,
        mix(case.instance.seed() ^ 0x9013),
    )
}

/// Runs the checks on an instance (generated or a witness).
pub fn check_instance(
    inst: &Instance,
    name: &str,
    horizon: usize,
    solvers: &[SolverSpec],
    opts: &CaseOptions,
    point_seed: u64,
) -> Result<CaseResult> {
    let reg = registry();
    let mut tallies = vec![Tally::default(); reg.len()];
    let mut rng = ChaCha8Rng::seed_from_u64(point_seed);
    for _ in 0..opts.points {
        let pc = random_point(inst, &mut rng, opts.measures);
        for (i, inv) in reg.iter().enumerate() {
            if let Check::Point(f) = inv.check {
                if inv.hyp.holds_point(&pc) {
                    tallies[i].add(&f(&pc), name, None);
                } else {
                    tallies[i].skipped += 1;
                }
            }
        }
    }
    let p = inst.problem.as_ref();
    let mut build_errors = Vec::new();
    for sv in solvers {
        let (mut solver, structure, desc) = match sv.build(p) {
            Ok(b) => b,
            Err(e) => {
                build_errors.push(format!("{sv:?}: {e}"));
                continue;
            }
        };
        let extra: Vec<Vec<f64>> = (0..1)
            .map(|_| {
                let z: Vec<f64> = (0..p.x_set().dim())
                    .map(|_| rng.sample::<f64, _>(StandardNormal))
                    .collect();
                let mut out = vec![0.0; z.len()];
                p.x_set().project(&z, &mut out);
                out
            })
            .collect();
        let run = RunCtx::record(
            p,
            solver.as_mut(),
            RunSpec {
                instance: name.to_string(),
                solver_desc: desc,
                structure,
                x0: &inst.x0,
                y0: &inst.y0,
                horizon,
                measures: opts.measures,
                extra_xstars: extra,
            },
        );
        eval_run(&reg, &run, opts, &mut tallies);
    }
    Ok(CaseResult {
        tallies,
        build_errors,
    })
}

/// Per-invariant results of a check.
#[derive(Debug, Clone, Serialize)]
pub struct InvariantReport {
    pub name: &'static str,
    pub label: &'static str,
    pub scope: Scope,
    pub gating: bool,
    pub kind: Kind,
    pub hypotheses: &'static str,
    pub cases: usize,
    pub skipped: usize,
    pub evaluations: usize,
    pub violations: usize,
    /// Violations where a side is not finite.
    pub nonfinite_violations: usize,
    #[serde(serialize_with = "ser_opt_f64")]
    pub min_slack: Option<f64>,
    #[serde(serialize_with = "ser_opt_f64")]
    pub min_rel_slack: Option<f64>,
    pub worst: Option<Worst>,
}

/// The outcome categories of a printed form.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ErratumStatus {
    /// A violation with finite sides: the printed inequality is false at the witness.
    Confirmed,
    /// No finite violation, but the printed formula is not finite somewhere (a division by
    /// zero, a negative denominator): undefined there, which is not a confirmation.
    Undefined,
    /// Every evaluation finite and satisfied.
    Holds,
    /// The hypotheses never held on the tested instances.
    NotApplicable,
}

impl ErratumStatus {
    /// The `status` string of CHECK.json.
    pub fn text(self) -> &'static str {
        match self {
            ErratumStatus::Confirmed => "erratum confirmed numerically",
            ErratumStatus::Undefined => "printed form undefined",
            ErratumStatus::Holds => "printed form holds on all tested instances",
            ErratumStatus::NotApplicable => "not applicable on the tested instances",
        }
    }
}

/// The outcome of a printed form.
#[derive(Debug, Clone, Serialize)]
pub struct Erratum {
    pub printed: &'static str,
    pub corrected: &'static str,
    pub label: &'static str,
    /// One of the [`ErratumStatus`] texts: "erratum confirmed numerically" (a finite
    /// violation), "printed form undefined" (only non-finite values), "printed form holds on
    /// all tested instances" or "not applicable on the tested instances".
    pub status: String,
    pub cases: usize,
    pub evaluations: usize,
    /// All violations (`finite_violations + undefined`).
    pub violations: usize,
    /// Violations with finite sides (lhs > rhs beyond the tolerance): the confirmations.
    pub finite_violations: usize,
    /// Evaluations where the printed formula is not finite (division by zero, a non-positive
    /// denominator).
    pub undefined: usize,
    /// For "printed form undefined": why the formula is not finite.
    pub reason: Option<String>,
    /// The witness: for a finite violation the worst one (instance, t, lhs, rhs); for an
    /// undefined form the first undefined evaluation; otherwise the tightest evaluation.
    pub witness: Option<Worst>,
}

impl Erratum {
    /// The outcome in one line, e.g. "erratum confirmed numerically (instance, t, lhs, rhs)",
    /// "printed form undefined (reason; instance, t)" or "printed form holds on all tested
    /// instances", with the counts.
    pub fn outcome(&self) -> String {
        let counts = format!(
            "{} cases, {} evaluations: {} finite violations, {} undefined",
            self.cases, self.evaluations, self.finite_violations, self.undefined
        );
        match (&self.witness, self.finite_violations, self.undefined) {
            (Some(w), f, _) if f > 0 => format!("{} ({}) [{counts}]", self.status, w.describe()),
            (Some(w), 0, u) if u > 0 => format!(
                "{} ({}; {}{}, t = {}); {} [{counts}]",
                self.status,
                self.reason.as_deref().unwrap_or("a side is not finite"),
                w.instance,
                w.solver
                    .as_deref()
                    .map(|s| format!(" ({s})"))
                    .unwrap_or_default(),
                w.t.map_or("-".into(), |t| t.to_string()),
                if self.evaluations > u {
                    "where finite, the printed form holds"
                } else {
                    "never finite on the tested instances"
                }
            ),
            _ => format!("{} [{counts}]", self.status),
        }
    }
}

/// The report of `saddlefw check`.
#[derive(Debug, Clone, Serialize)]
pub struct CheckReport {
    /// The saddlefw build that wrote the report (version and git commit).
    #[serde(default)]
    pub build: crate::report::Build,
    pub cases: usize,
    pub seed: u64,
    pub horizon: usize,
    pub tolerance: String,
    pub invariants: Vec<InvariantReport>,
    pub errata: Vec<Erratum>,
    pub gating_violations: usize,
    pub build_errors: Vec<String>,
    /// Set on the output of `check --shard I/N`: the per-job tallies [`merge_shards`] needs.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub shard: Option<CheckShard>,
    /// Set by `check --control NAME`: the negative control that ran (name: what is broken).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub control: Option<String>,
    /// Set when a signal stopped the check before every job was done: the counts cover the
    /// jobs completed (their tallies are in `shard`); not a result; `check --resume` finishes it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub interrupted: Option<crate::resume::Interruption>,
}

impl CheckReport {
    /// Whether every gating invariant held.
    pub fn passed(&self) -> bool {
        self.gating_violations == 0
    }

    /// The printable table and errata list.
    pub fn table(&self) -> String {
        let mut s = match &self.control {
            Some(c) => format!(
                "NEGATIVE CONTROL {c}\n(a deliberately broken variant: this check must FAIL)\n\n"
            ),
            None => String::new(),
        };
        s += &format!(
            "saddlefw check: {} cases, seed {}, horizon {} ({})\n\n{:<40} {:<6} {:>6} {:>8} {:>5} {:>12}  label\n",
            self.cases, self.seed, self.horizon, self.tolerance, "invariant", "gate", "cases", "evals", "viol", "min rel slk"
        );
        for r in &self.invariants {
            s.push_str(&format!(
                "{:<40} {:<6} {:>6} {:>8} {:>5} {:>12}  {}\n",
                r.name,
                if r.gating { "yes" } else { "no" },
                r.cases,
                r.evaluations,
                r.violations,
                r.min_rel_slack
                    .map_or("-".to_string(), |v| format!("{v:.3e}")),
                r.label
            ));
        }
        s.push_str("\nErrata (printed forms of recorded slips):\n");
        for e in &self.errata {
            s.push_str(&format!(
                "  {} ({}):\n      {}\n",
                e.printed,
                e.label,
                e.outcome()
            ));
        }
        if !self.build_errors.is_empty() {
            s.push_str(&format!(
                "\n{} solver configurations not applicable (see CHECK.json)\n",
                self.build_errors.len()
            ));
        }
        let verdict = match &self.interrupted {
            Some(i) => format!("PARTIAL ({})", i.describe("jobs")),
            None if self.passed() => "PASS".into(),
            None => "FAIL".into(),
        };
        s.push_str(&format!(
            "\n{verdict}: {} gating violation(s)\n",
            self.gating_violations
        ));
        s
    }
}

fn eval_real(reg: &[&'static Invariant], tallies: &mut [Tally]) {
    for (i, inv) in reg.iter().enumerate() {
        if let Check::Real(f) = inv.check {
            let out = f();
            let mut t = Tally {
                cases: 1,
                ..Tally::default()
            };
            for (mut e, desc) in out {
                e.t = None;
                let mut one = Tally::default();
                one.add(&[e], &format!("grid: {desc}"), None);
                one.cases = 0;
                t.merge(&one);
            }
            tallies[i].merge(&t);
        }
    }
}

/// Runs `cases` random cases with base seed `seed`, the witnesses and the grids.
pub fn run_check(cases: usize, seed: u64) -> Result<CheckReport> {
    run_check_with(cases, seed, &CaseOptions::default(), available_threads())
}

pub use crate::jobs::{available_threads, worker_threads, MAX_JOBS_PER_CORE};

/// [`run_check`] with explicit options and thread count (results do not depend on it).
pub fn run_check_with(
    cases: usize,
    seed: u64,
    opts: &CaseOptions,
    threads: usize,
) -> Result<CheckReport> {
    run_check_shard(cases, seed, opts, threads, None)
}

/// The job list of a check: the random cases `0..cases`, then the witness instances. A job's
/// position in this list is its index; `check --shard I/N` takes the positions `p` with
/// `p mod N = I - 1` ([`crate::verify::shard::Shard::takes`]).
fn job_count(cases: usize, witnesses: usize) -> usize {
    cases.saturating_add(witnesses)
}

/// The solvers run on every witness instance: Algorithms 1-3 with their theorem schedules, and
/// LMO-LMO and LMO-PO with `C > 0`.
fn witness_solvers() -> Vec<SolverSpec> {
    let mut solvers = vec![
        SolverSpec::paper(PaperAlgorithm::LmoLmo),
        SolverSpec::paper(PaperAlgorithm::LmoPo),
        SolverSpec::paper(PaperAlgorithm::PoLmo),
    ];
    for alg in [PaperAlgorithm::LmoLmo, PaperAlgorithm::LmoPo] {
        solvers.push(SolverSpec::Paper {
            alg,
            beta0: Some(0.5),
            b: Some(0.2),
            fault: Fault::None,
        });
    }
    solvers
}

/// [`run_check_with`] restricted to one shard of the job list (`None`: every job). A shard's
/// report counts only its jobs (plus the real-number grids) and carries their per-job tallies
/// in [`CheckReport::shard`], from which [`merge_shards`] rebuilds the unsharded report exactly.
pub fn run_check_shard(
    cases: usize,
    seed: u64,
    opts: &CaseOptions,
    threads: usize,
    shard: Option<Shard>,
) -> Result<CheckReport> {
    run_check_resumed(cases, seed, opts, threads, shard, None)
}

/// [`run_check_shard`] that reuses the jobs recorded in `resume` (the record's name and its
/// tallies by job index, `check --resume`) and, when `resume` is given,
/// stops at the next job boundary on a first signal ([`crate::interrupt`]): the report then
/// counts the completed jobs, carries their tallies (as shard 1/1 when unsharded) and sets
/// [`CheckReport::interrupted`].
pub fn run_check_resumed(
    cases: usize,
    seed: u64,
    opts: &CaseOptions,
    threads: usize,
    shard: Option<Shard>,
    resume: Option<&dyn Recorded>,
) -> Result<CheckReport> {
    if cases == 0 || cases > MAX_CASES {
        return Err(Error::invalid(
            "--cases",
            format!("{cases}: must be in 1..={MAX_CASES} (spread more over runs with other --seed values)"),
        ));
    }
    let reg = registry();
    let witnesses = super::witness::witness_cases()?;
    let total = job_count(cases, witnesses.len());
    let mine: Vec<usize> = crate::verify::shard::select((0..total).collect(), shard);
    let threads = worker_threads(threads, mine.len());
    let jobs = crate::progress::Jobs::new("check", mine.len() as u64);
    let run_job = |p: usize| -> Option<Result<CaseResult>> {
        if let Some(resume) = resume {
            if let Some(jt) = resume.recorded(p) {
                jobs.done();
                return Some(jt.clone().into_result(&reg, resume.input()));
            }
            if crate::interrupt::requested() {
                return None;
            }
        }
        let r = if p < cases {
            let spec = case_spec(seed, p);
            jobs.start(&format!("case {p}: {}", spec.instance));
            let r = check_case(&spec, opts);
            jobs.done();
            r
        } else {
            let w = p - cases;
            let (name, inst) = &witnesses[w];
            jobs.start(name);
            let r = check_instance(
                inst,
                name,
                2 * DEFAULT_HORIZON,
                &witness_solvers(),
                opts,
                mix(seed ^ w as u64),
            );
            jobs.done();
            r
        };
        if let (Some(resume), Ok(r)) = (resume, &r) {
            if resume.journaling() {
                resume.finished(JobTallies::of(p, &reg, r.clone()));
            }
        }
        Some(r)
    };
    let results: Vec<(usize, Option<Result<CaseResult>>)> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..threads)
            .map(|w| {
                let mine = &mine;
                let run_job = &run_job;
                s.spawn(move || {
                    mine.iter()
                        .enumerate()
                        .filter(|(k, _)| k % threads == w)
                        .map(|(_, &p)| (p, run_job(p)))
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        let mut all: Vec<(usize, Option<Result<CaseResult>>)> = handles
            .into_iter()
            .flat_map(|h| h.join().expect("worker panicked"))
            .collect();
        all.sort_by_key(|(p, _)| *p);
        all
    });
    jobs.finish();
    let mut done = Vec::with_capacity(results.len());
    for (p, r) in results {
        if let Some(r) = r {
            done.push((p, r?));
        }
    }
    let interrupted = resume.and_then(|_| crate::resume::Interruption::now(done.len(), mine.len()));
    let whole = interrupted
        .is_some()
        .then_some(Shard { index: 1, count: 1 });
    let mut report = assemble(cases, seed, &reg, &done);
    report.interrupted = interrupted;
    if let Some(shard) = shard.or(whole) {
        report.shard = Some(CheckShard {
            shard,
            jobs: total,
            results: done
                .into_iter()
                .map(|(job, r)| JobTallies::of(job, &reg, r))
                .collect(),
        });
    }
    Ok(report)
}

/// Folds the results of jobs (sorted by job index) into a report, adding the real-number
/// grids: the same fold whether the jobs ran here or came from shards.
fn assemble(
    cases: usize,
    seed: u64,
    reg: &[&'static Invariant],
    results: &[(usize, CaseResult)],
) -> CheckReport {
    let mut tallies = vec![Tally::default(); reg.len()];
    let mut build_errors = Vec::new();
    for (_, r) in results {
        for (t, o) in tallies.iter_mut().zip(&r.tallies) {
            t.merge(o);
        }
        build_errors.extend(r.build_errors.iter().cloned());
    }
    eval_real(reg, &mut tallies);
    report(cases, seed, reg, &tallies, build_errors)
}

/// The part of a shard's CHECK.json that [`merge_shards`] needs: which shard, the size of the
/// job list, and the tallies of every job it ran.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CheckShard {
    pub shard: Shard,
    /// Length of the whole job list (random cases and witnesses).
    pub jobs: usize,
    pub results: Vec<JobTallies>,
}

/// The jobs a check already has and where it records finished ones (`check --resume` and the
/// journal: `invariants::resume::Resume`).
pub trait Recorded: Sync {
    /// The record's name (for errors).
    fn input(&self) -> &str;
    /// The recorded tallies of job `job`.
    fn recorded(&self, job: usize) -> Option<&JobTallies>;
    /// Whether finished jobs are recorded ([`Recorded::finished`] is called).
    fn journaling(&self) -> bool;
    /// A job finished.
    fn finished(&self, tallies: JobTallies);
}

/// The tallies of one job, keyed by invariant name (only the invariants the job touched).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct JobTallies {
    pub job: usize,
    pub tallies: std::collections::BTreeMap<String, Tally>,
    pub build_errors: Vec<String>,
}

impl JobTallies {
    fn of(job: usize, reg: &[&'static Invariant], r: CaseResult) -> Self {
        JobTallies {
            job,
            tallies: reg
                .iter()
                .zip(r.tallies)
                .filter(|(_, t)| *t != Tally::default())
                .map(|(inv, t)| (inv.name.to_string(), t))
                .collect(),
            build_errors: r.build_errors,
        }
    }

    pub(crate) fn into_result(self, reg: &[&'static Invariant], input: &str) -> Result<CaseResult> {
        let mut tallies = vec![Tally::default(); reg.len()];
        for (name, t) in self.tallies {
            let i = reg.iter().position(|inv| inv.name == name).ok_or_else(|| {
                Error::input(
                    input,
                    format!("job {}", self.job),
                    format!("unknown invariant {name:?} (a shard of another saddlefw version?)"),
                )
            })?;
            tallies[i] = t;
        }
        Ok(CaseResult {
            tallies,
            build_errors: self.build_errors,
        })
    }
}

/// What [`merge_shards`] reads from a shard's CHECK.json (other fields are ignored).
#[derive(Debug, Deserialize)]
struct ShardFile {
    #[serde(default)]
    build: crate::report::Build,
    cases: usize,
    seed: u64,
    horizon: usize,
    shard: Option<CheckShard>,
    #[serde(default)]
    interrupted: Option<crate::resume::Interruption>,
}

/// Merges the CHECK.json outputs of shards `1..=N` of one `saddlefw check --shard I/N` run
/// (`(name, text)` pairs, the name used in errors) into the report of the unsharded run:
/// byte-identical JSON, because the jobs' tallies are folded in job order as a single
/// machine folds them. Missing, duplicate or mismatched shards are refused.
pub fn merge_shards(inputs: &[(String, String)]) -> Result<CheckReport> {
    let reg = registry();
    let mut parsed = Vec::new();
    for (name, text) in inputs {
        let f: ShardFile = crate::files::parse_json(name, text, crate::files::JsonTop::Object)?;
        let part = f.shard.clone().ok_or_else(|| {
            Error::input(
                name,
                "shard",
                "not a shard output (no \"shard\" field): run `saddlefw check --shard I/N`",
            )
        })?;
        if let Some(i) = &f.interrupted {
            return Err(Error::input(
                name,
                "interrupted",
                format!("shard {} stopped by {} after {} of {} jobs: finish it with `saddlefw check --resume` first", part.shard, i.signal, i.done, i.total),
            ));
        }
        parsed.push((name.as_str(), f, part));
    }
    let (_, first, _) = parsed
        .first()
        .ok_or_else(|| Error::invalid("merge", "no shard outputs given"))?;
    let labels: Vec<Shard> = parsed.iter().map(|(_, _, part)| part.shard).collect();
    crate::verify::shard::check_labels(&labels)?;
    let (cases, seed) = (first.cases, first.seed);
    // the job list of this check: its length follows from --cases (never trusted from a file)
    let total = job_count(cases, super::witness::witness_cases()?.len());
    let mut results: std::collections::BTreeMap<usize, CaseResult> = Default::default();
    for &(name, ref f, ref part) in &parsed {
        let s = part.shard;
        if f.build != first.build {
            return Err(Error::input(
                name,
                "build",
                format!(
                    "shard {s} was written by another build ({}) than the first ({})",
                    f.build, first.build
                ),
            ));
        }
        if f.cases != cases || f.seed != seed || f.horizon != DEFAULT_HORIZON || part.jobs != total
        {
            return Err(Error::input(
                name,
                "cases/seed",
                format!("shard {s} was run with other settings ({} cases, seed {}) than the first ({cases} cases, seed {seed})", f.cases, f.seed),
            ));
        }
        for jt in &part.results {
            let job = jt.job;
            if job >= total || !s.takes(job) || results.contains_key(&job) {
                return Err(Error::input(
                    name,
                    format!("job {job}"),
                    format!("not a job of shard {s}"),
                ));
            }
            results.insert(job, jt.clone().into_result(&reg, name)?);
        }
    }
    if results.len() != total {
        let p = (0..total).find(|p| !results.contains_key(p)).unwrap_or(0);
        return Err(Error::invalid(
            "merge",
            format!("job {p} is in no shard output (a truncated file?)"),
        ));
    }
    let done: Vec<(usize, CaseResult)> = results.into_iter().collect();
    Ok(assemble(cases, seed, &reg, &done))
}

fn report(
    cases: usize,
    seed: u64,
    reg: &[&'static Invariant],
    tallies: &[Tally],
    build_errors: Vec<String>,
) -> CheckReport {
    let invariants: Vec<InvariantReport> = reg
        .iter()
        .zip(tallies)
        .map(|(inv, t)| InvariantReport {
            name: inv.name,
            label: inv.label,
            scope: inv.scope,
            gating: inv.gating,
            kind: inv.kind,
            hypotheses: inv.hyp.text,
            cases: t.cases,
            skipped: t.skipped,
            evaluations: t.evaluations,
            violations: t.violations,
            nonfinite_violations: t.nonfinite,
            min_slack: t.worst.as_ref().map(|w| w.slack),
            min_rel_slack: t.worst.as_ref().map(|w| w.rel_slack),
            worst: if t.violations > 0 {
                t.first_violation.clone().or(t.worst.clone())
            } else {
                t.worst.clone()
            },
        })
        .collect();
    let errata = reg
        .iter()
        .zip(tallies)
        .filter_map(|(inv, t)| match inv.kind {
            Kind::Printed { corrected } => {
                let finite_violations = t.violations - t.nonfinite;
                let (status, witness) = if t.cases == 0 {
                    (ErratumStatus::NotApplicable, None)
                } else if finite_violations > 0 {
                    (ErratumStatus::Confirmed, t.worst_finite.clone())
                } else if t.nonfinite > 0 {
                    (ErratumStatus::Undefined, t.first_violation.clone())
                } else {
                    (ErratumStatus::Holds, t.worst.clone())
                };
                Some(Erratum {
                    printed: inv.name,
                    corrected,
                    label: inv.label,
                    status: status.text().to_string(),
                    cases: t.cases,
                    evaluations: t.evaluations,
                    violations: t.violations,
                    finite_violations,
                    undefined: t.nonfinite,
                    reason: if status == ErratumStatus::Undefined {
                        witness.as_ref().and_then(|w| w.reason.clone())
                    } else {
                        None
                    },
                    witness,
                })
            }
            _ => None,
        })
        .collect();
    let gating_violations = invariants
        .iter()
        .filter(|r| r.gating)
        .map(|r| r.violations)
        .sum();
    CheckReport {
        build: crate::report::Build::current(),
        cases,
        seed,
        horizon: DEFAULT_HORIZON,
        tolerance: format!(
            "violation: rhs - lhs < -({:e} scale + {:e})",
            super::REL_TOL,
            super::ABS_TOL
        ),
        invariants,
        errata,
        gating_violations,
        build_errors,
        shard: None,
        control: None,
        interrupted: None,
    }
}

impl CheckReport {
    /// The invariant table of the HTML reports (one row per registry entry).
    pub fn invariant_rows(&self) -> Vec<crate::report::InvariantRow> {
        self.invariants
            .iter()
            .map(|r| crate::report::InvariantRow {
                name: r.name.to_string(),
                label: r.label.to_string(),
                gating: r.gating,
                cases: r.cases as u64,
                violations: r.violations as u64,
                min_slack: r.min_slack,
                worst: r.worst.as_ref().map(Worst::describe),
            })
            .collect()
    }

    /// The errata section of the HTML reports.
    pub fn errata_rows(&self) -> Vec<crate::report::Erratum> {
        self.errata
            .iter()
            .map(|e| crate::report::Erratum {
                label: e.label.to_string(),
                printed: e.printed.to_string(),
                corrected: e.corrected.to_string(),
                outcome: e.outcome(),
                confirmed: Some(e.finite_violations > 0),
            })
            .collect()
    }
}

impl Worst {
    /// `instance, solver, t, lhs, rhs` in one line.
    pub fn describe(&self) -> String {
        format!(
            "{}{}, t = {}, lhs = {:.6e}, rhs = {:.6e}",
            self.instance,
            self.solver
                .as_deref()
                .map(|s| format!(" ({s})"))
                .unwrap_or_default(),
            self.t.map(|t| t.to_string()).unwrap_or_else(|| "-".into()),
            self.lhs,
            self.rhs
        )
    }
}
