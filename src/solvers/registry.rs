//! The algorithm registry: name -> constructor, the per-iteration oracle profile that defines
//! each method's oracle use (checked against the counting wrapper's counts), and provenance.
//! `saddlefw list` and `saddlefw run --algo` read it; adding a solver is one file (the
//! [`Solver`]) plus one entry: in [`ALGORITHMS`] for the crate's own, or through [`register`]
//! for a solver of yours (issue 15), found by [`find`] and listed by [`algorithms`] like the
//! seven built-in ones.
//!
//! ```
//! use saddlefw::solvers::registry;
//! let names: Vec<&str> = registry::ALGORITHMS.iter().map(|a| a.name).collect();
//! assert_eq!(names, ["lmo-lmo", "lmo-po", "po-lmo", "sp-fw", "agp", "r-pdcg", "cg-rpga"]);
//! ```

use super::agp::{Agp, AgpParams};
use super::cg_rpga::{cg_rpga, CgRpgaParams};
use super::control::Control;
use super::defaults::RunSchedules;
use super::options::name_of;
pub use super::options::Options;
use super::r_pdcg::{r_pdcg, RPdcgParams};
use super::schedule::GSpec;
use super::smoothing::DualSmoothing;
use super::sp_fw::SpFw;
use super::spec::SolverSpec;
use super::Solver;
// The oracle counts an [`OracleProfile`] checks, documented here.
pub use crate::counting::OracleCounts;
use crate::paper::{Algorithm, Oracle, BASELINE_SIGMA};
use crate::problems::SaddleProblem;
use crate::{Error, Result};
use std::sync::RwLock;

/// The baselines' default horizon K (claims.md 2.4: K = 10^3 in DL).
pub const DEFAULT_HORIZON: usize = 1000;

/// A constructed solver and what the run file records about how it was configured.
pub struct Built {
    pub solver: Box<dyn Solver>,
    /// The theorem case the default schedule comes from (paper algorithms).
    pub theorem_case: Option<String>,
    /// Fallbacks, overrides and free choices made.
    pub notes: Vec<String>,
    /// sigma of G_X^PO by default: tau_0 for PO-LMO (`theorem:proj-fw-unified-nc-c-convergence`),
    /// 1 otherwise.
    pub default_sigma: f64,
    /// Set when the PO-LMO appendix schedule is used (G_1 / G_2 reported).
    pub g: Option<GSpec>,
}

impl Built {
    /// A solver without theorem case, notes or G report, measured with sigma =
    /// [`BASELINE_SIGMA`] (what a solver of yours usually is).
    pub fn plain(solver: Box<dyn Solver>) -> Self {
        Built {
            solver,
            theorem_case: None,
            notes: Vec::new(),
            default_sigma: BASELINE_SIGMA,
            g: None,
        }
    }
}

/// Oracle calls per iteration: the algorithm's definition, checked against the counts of the
/// counting wrapper (`crate::counting`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct OracleProfile {
    pub lmo_x: u64,
    pub lmo_y: u64,
    pub proj_x: u64,
    pub proj_y: u64,
    pub grad_x: u64,
    pub grad_y: u64,
}

impl OracleProfile {
    /// One gradient of each block and one call of each block's oracle per iteration.
    pub const fn of(primal: Oracle, dual: Oracle) -> OracleProfile {
        let (lmo_x, proj_x) = match primal {
            Oracle::Lmo => (1, 0),
            Oracle::Po => (0, 1),
        };
        let (lmo_y, proj_y) = match dual {
            Oracle::Lmo => (1, 0),
            Oracle::Po => (0, 1),
        };
        profile(lmo_x, lmo_y, proj_x, proj_y)
    }
    /// The counts `iterations` iterations must produce (no value calls, no inner solves).
    pub fn expected(&self, iterations: u64) -> OracleCounts {
        OracleCounts {
            lmo_x: self.lmo_x * iterations,
            lmo_y: self.lmo_y * iterations,
            proj_x: self.proj_x * iterations,
            proj_y: self.proj_y * iterations,
            grad_x: self.grad_x * iterations,
            grad_y: self.grad_y * iterations,
            value: 0,
            inner: 0,
        }
    }
    /// Compares measured counts with the definition; the error lists every mismatch.
    pub fn check(&self, iterations: u64, counts: &OracleCounts) -> std::result::Result<(), String> {
        let want = self.expected(iterations);
        let diffs = want.diff(counts);
        if diffs.is_empty() {
            Ok(())
        } else {
            Err(format!(
                "oracle counts after {iterations} iterations differ from the definition: {}",
                diffs.join(", ")
            ))
        }
    }
}

/// One registered algorithm.
pub struct AlgorithmInfo {
    /// Registry name (`--algo`).
    pub name: &'static str,
    /// One-line description.
    pub title: &'static str,
    /// Paper label or citation.
    pub source: &'static str,
    /// VERIFIED / RECONSTRUCTED / GUESSED status (baselines.md), or the paper label.
    pub provenance: &'static str,
    /// Oracle calls per iteration.
    pub profile: OracleProfile,
    /// Which [`Options`] fields the algorithm takes (others are rejected).
    pub accepts: &'static [&'static str],
    build: fn(&dyn SaddleProblem, &Options) -> Result<Built>,
    /// Set for Algorithms 1-3: the one kind of algorithm a negative control applies to.
    paper: Option<Algorithm>,
}

/// A constructor of a registry entry: builds the solver for a problem from the validated
/// options.
pub type BuildFn = fn(&dyn SaddleProblem, &Options) -> Result<Built>;

impl AlgorithmInfo {
    /// The primal block's oracle, read from the profile (a projection per iteration or not).
    pub fn primal_oracle(&self) -> Oracle {
        if self.profile.proj_x > 0 {
            Oracle::Po
        } else {
            Oracle::Lmo
        }
    }

    /// An entry for [`register`]: `accepts` lists the [`Options`] flags the solver takes
    /// (`--a`, `--b`, `--beta0`, `--tau0`, `--tau-schedule`, `--beta-schedule`, `--horizon`;
    /// the others are rejected before `build` is called).
    pub const fn new(
        name: &'static str,
        title: &'static str,
        source: &'static str,
        provenance: &'static str,
        profile: OracleProfile,
        accepts: &'static [&'static str],
        build: BuildFn,
    ) -> Self {
        AlgorithmInfo {
            name,
            title,
            source,
            provenance,
            profile,
            accepts,
            build,
            paper: None,
        }
    }

    /// Builds the solver for `problem` with `options` (validated: an option the algorithm
    /// does not take is an error, as is any value out of its domain).
    pub fn build(&self, problem: &dyn SaddleProblem, options: &Options) -> Result<Built> {
        self.build_controlled(problem, options, None)
    }

    /// [`AlgorithmInfo::build`], optionally broken by a negative control (Algorithms 1-3 only).
    fn build_controlled(
        &self,
        problem: &dyn SaddleProblem,
        options: &Options,
        control: Option<Control>,
    ) -> Result<Built> {
        let given = [
            ("--a", options.a.is_some()),
            ("--b", options.b.is_some()),
            ("--beta0", options.beta0.is_some()),
            ("--tau0", options.tau0.is_some()),
            ("--tau-schedule", options.tau.is_some()),
            ("--beta-schedule", options.beta.is_some()),
            ("--horizon", options.horizon.is_some()),
        ];
        // the library's errors name the Options fields (the CLI shows the flags)
        for (flag, set) in given {
            if set && !self.accepts.contains(&flag) {
                let takes: Vec<&str> = self.accepts.iter().map(|f| name_of(f)).collect();
                return Err(Error::invalid(
                    name_of(flag),
                    format!(
                        "is not a parameter of {} (it takes: {})",
                        self.name,
                        if takes.is_empty() {
                            "none".to_string()
                        } else {
                            takes.join(", ")
                        }
                    ),
                ));
            }
        }
        for (explicit, flag, others) in [
            (
                options.tau.is_some(),
                "--tau-schedule",
                [("--a", options.a), ("--tau0", options.tau0)],
            ),
            (
                options.beta.is_some(),
                "--beta-schedule",
                [("--b", options.b), ("--beta0", options.beta0)],
            ),
        ] {
            if let Some((other, _)) = others.iter().find(|(_, v)| explicit && v.is_some()) {
                return Err(Error::invalid(
                    name_of(flag),
                    format!(
                        "cannot be combined with {} (the schedule is given in full)",
                        name_of(other)
                    ),
                ));
            }
        }
        if options.horizon == Some(0) {
            return Err(Error::invalid(name_of("--horizon"), "K must be at least 1"));
        }
        match (control, self.paper) {
            (None, _) => (self.build)(problem, options),
            (Some(_), Some(alg)) => build_paper(alg, problem, options, control),
            (Some(c), None) => Err(Error::invalid(
                "control",
                format!("{c} breaks one of Algorithms 1-3, not {}", self.name),
            )),
        }
    }
}

const PAPER_FLAGS: &[&str] = &[
    "--a",
    "--b",
    "--beta0",
    "--tau0",
    "--tau-schedule",
    "--beta-schedule",
];
const HORIZON_FLAGS: &[&str] = &["--tau0", "--beta0", "--horizon"];

/// The registry entry of one of the paper's Algorithms 1-3: name, label, provenance and oracle
/// profile are the algorithm's identity ([`Algorithm`]); only the title is the registry's.
const fn paper_entry(alg: Algorithm, title: &'static str) -> AlgorithmInfo {
    let (primal, dual) = alg.oracles();
    AlgorithmInfo {
        name: alg.name(),
        title,
        source: alg.label(),
        provenance: alg.provenance(),
        profile: OracleProfile::of(primal, dual),
        accepts: PAPER_FLAGS,
        build: match alg {
            Algorithm::LmoLmo => |p, o| build_paper(Algorithm::LmoLmo, p, o, None),
            Algorithm::LmoPo => |p, o| build_paper(Algorithm::LmoPo, p, o, None),
            Algorithm::PoLmo => |p, o| build_paper(Algorithm::PoLmo, p, o, None),
        },
        paper: Some(alg),
    }
}

const fn profile(lmo_x: u64, lmo_y: u64, proj_x: u64, proj_y: u64) -> OracleProfile {
    OracleProfile {
        lmo_x,
        lmo_y,
        proj_x,
        proj_y,
        grad_x: 1,
        grad_y: 1,
    }
}

/// The crate's own algorithms, in `saddlefw list` order ([`algorithms`] adds the registered
/// ones).
pub static ALGORITHMS: [AlgorithmInfo; 7] = [
    paper_entry(
        Algorithm::LmoLmo,
        "Algorithm 1: LMO on X and on Y, dual dynamic smoothing",
    ),
    paper_entry(Algorithm::LmoPo, "Algorithm 2: LMO on X, projection on Y"),
    paper_entry(Algorithm::PoLmo, "Algorithm 3: projection on X, LMO on Y"),
    AlgorithmInfo {
        name: "sp-fw",
        title: "SP-FW baseline: joint Frank-Wolfe step 2/(t+2)",
        source: "Gidel et al. 2017, Algorithm 2",
        provenance: super::sp_fw::PROVENANCE,
        profile: profile(1, 1, 0, 0),
        accepts: &[],
        paper: None,
        build: |_, _| {
            Ok(Built {
                solver: Box::new(SpFw::new()),
                theorem_case: None,
                notes: vec![],
                default_sigma: BASELINE_SIGMA,
                g: None,
            })
        },
    },
    AlgorithmInfo {
        name: "agp",
        title: "AGP baseline: alternating gradient projection (Xu Thm 3.1 / 3.2 parameters)",
        source: "Xu et al. 2023, Algorithm 1",
        provenance: super::agp::PROVENANCE,
        profile: profile(0, 0, 1, 1),
        accepts: &[],
        paper: None,
        build: |p, o| {
            let params = AgpParams::paper(&o.constants_for(p))?;
            let note = match params {
                AgpParams::Concave { .. } => "mu = 0: Xu Thm 3.2 parameters (DL values)",
                AgpParams::StronglyConcave { .. } => {
                    "mu > 0: Xu Thm 3.1 parameters (robust values)"
                }
            };
            Ok(Built {
                solver: Box::new(Agp::new(params)),
                theorem_case: None,
                notes: vec![note.into()],
                default_sigma: BASELINE_SIGMA,
                g: None,
            })
        },
    },
    AlgorithmInfo {
        name: "r-pdcg",
        title: "R-PDCG baseline: regularised dual CG step then primal CG step (horizon K)",
        source: "Boroun et al. 2023, Algorithm 1",
        provenance: super::r_pdcg::PROVENANCE,
        profile: profile(1, 1, 0, 0),
        accepts: HORIZON_FLAGS,
        paper: None,
        build: |p, o| {
            let k = o.constants_for(p);
            let horizon = o.horizon.unwrap_or(DEFAULT_HORIZON);
            let mut params = RPdcgParams::horizon(horizon, k.mu);
            let mut notes = vec![horizon_note(horizon, k.mu)];
            if let Some(t) = o.tau0 {
                params.tau = t;
                notes.push("--tau0 sets tau".into());
            }
            if let Some(m) = o.beta0 {
                params.mu = m;
                notes.push("--beta0 sets mu".into());
            }
            Ok(Built {
                solver: Box::new(r_pdcg(params, &k)?),
                theorem_case: None,
                notes,
                default_sigma: BASELINE_SIGMA,
                g: None,
            })
        },
    },
    AlgorithmInfo {
        name: "cg-rpga",
        title:
            "CG-RPGA baseline: regularised projected dual ascent then primal CG step (horizon K)",
        source: "Boroun et al. 2023, Algorithm 2",
        provenance: super::cg_rpga::PROVENANCE,
        profile: profile(1, 0, 0, 1),
        accepts: HORIZON_FLAGS,
        paper: None,
        build: |p, o| {
            let k = o.constants_for(p);
            let horizon = o.horizon.unwrap_or(DEFAULT_HORIZON);
            let mut params = CgRpgaParams::horizon(horizon, k.mu);
            let mut notes = vec![horizon_note(horizon, k.mu)];
            if let Some(t) = o.tau0 {
                params.tau = t;
                notes.push("--tau0 sets tau".into());
            }
            if let Some(m) = o.beta0 {
                params.mu = m;
                notes.push("--beta0 sets mu".into());
            }
            Ok(Built {
                solver: Box::new(cg_rpga(params, &k)?),
                theorem_case: None,
                notes,
                default_sigma: BASELINE_SIGMA,
                g: None,
            })
        },
    },
];

fn horizon_note(k: usize, mu: f64) -> String {
    format!(
        "horizon K = {k}; {} parameters of claims.md 2.4 (tau and mu frozen beyond K)",
        if mu > 0.0 {
            "strongly concave problem: the robust-experiment"
        } else {
            "mu = 0: the DL-experiment"
        }
    )
}

/// Algorithms 1-3: the theorem-case schedules with the overrides ([`resolve_paper`]), altered
/// and broken by the control when given ([`Control::schedules`], [`Control::apply`]). The
/// default sigma is the algorithm's with the unaltered `tau_0`.
///
/// [`resolve_paper`]: super::defaults::resolve_paper
fn build_paper(
    alg: Algorithm,
    p: &dyn SaddleProblem,
    o: &Options,
    control: Option<Control>,
) -> Result<Built> {
    let k = o.constants_for(p);
    let r = super::defaults::resolve_paper(alg.name(), &p.assumptions(), &k, o)?;
    let default_sigma = alg.default_sigma(r.tau.at(0));
    let s = RunSchedules {
        tau: r.tau,
        beta: r.beta,
    };
    let s = control.map_or(s, |c| c.schedules(s));
    let solver = DualSmoothing::new(alg, s.tau, s.beta, &k)?;
    let solver: Box<dyn Solver> = match control {
        Some(c) => c.apply(solver),
        None => Box::new(solver),
    };
    Ok(Built {
        solver,
        theorem_case: r.theorem_case,
        notes: r.notes,
        default_sigma,
        g: r.g,
    })
}

/// Entries added by [`register`] (process-wide, never removed).
static REGISTERED: RwLock<Vec<&'static AlgorithmInfo>> = RwLock::new(Vec::new());

/// Every algorithm: the crate's seven ([`ALGORITHMS`]), then the registered ones in
/// registration order.
pub fn algorithms() -> Vec<&'static AlgorithmInfo> {
    let registered = REGISTERED.read().unwrap_or_else(|e| e.into_inner());
    ALGORITHMS
        .iter()
        .chain(registered.iter().copied())
        .collect()
}

/// Adds a solver of yours to the registry, so that [`find`], [`build`] and everything built
/// on them (`run`, the harness, `list`) know it by name. A name already taken, or one that is
/// not a non-empty `[a-z0-9-]` word, is an error.
pub fn register(info: AlgorithmInfo) -> Result<&'static AlgorithmInfo> {
    let valid = !info.name.is_empty()
        && info
            .name
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-');
    if !valid {
        return Err(Error::invalid(
            "algorithm name",
            format!("{:?} must be a non-empty word of a-z, 0-9 and -", info.name),
        ));
    }
    let mut registered = REGISTERED.write().unwrap_or_else(|e| e.into_inner());
    let taken = ALGORITHMS
        .iter()
        .chain(registered.iter().copied())
        .any(|a| a.name == info.name);
    if taken {
        return Err(Error::invalid(
            "algorithm name",
            format!("{:?} is already registered", info.name),
        ));
    }
    let entry: &'static AlgorithmInfo = Box::leak(Box::new(info));
    registered.push(entry);
    Ok(entry)
}

/// The primal oracle of the algorithm called `name` (case-insensitive, `_` for `-`, so the
/// paper's `SP-FW` and the registry's `sp-fw` are one algorithm); `None` for an unknown name.
/// It decides the measure the paper plots (`G_X^LMO + G_Y` or `G_X^PO + G_Y`, L749) and the
/// sides of Table 3's claim.
pub fn primal_oracle(name: &str) -> Option<Oracle> {
    let name = name.trim().to_ascii_lowercase().replace('_', "-");
    algorithms()
        .into_iter()
        .find(|a| a.name == name)
        .map(AlgorithmInfo::primal_oracle)
}

/// The registered algorithm called `name`; the error lists the known names.
pub fn find(name: &str) -> Result<&'static AlgorithmInfo> {
    let all = algorithms();
    all.iter().find(|a| a.name == name).copied().ok_or_else(|| {
        Error::invalid(
            name_of("--algo"),
            format!(
                "unknown algorithm {name:?} (expected one of {})",
                all.iter().map(|a| a.name).collect::<Vec<_>>().join(", ")
            ),
        )
    })
}

impl SolverSpec {
    /// [`build_spec`]: the solver this spec describes, for `problem`.
    pub fn build(&self, problem: &dyn SaddleProblem) -> Result<Built> {
        build_spec(self, problem)
    }
}

/// The one construction path: the solver a [`SolverSpec`] describes (its algorithm found by
/// name, its options validated, its control applied).
pub fn build_spec(spec: &SolverSpec, problem: &dyn SaddleProblem) -> Result<Built> {
    find(&spec.algorithm)?.build_controlled(problem, &spec.options, spec.control)
}

/// [`build_spec`] without a control: `find(name)?.build(problem, options)`.
pub fn build(name: &str, problem: &dyn SaddleProblem, options: &Options) -> Result<Built> {
    find(name)?.build(problem, options)
}
