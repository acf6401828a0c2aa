//! The cases of `saddlefw check`: how a case is derived from `(seed, index)` ([`case_spec`],
//! [`CaseSpec`], [`InstanceSpec`]), the solvers run on it ([`SolverSpec`]: Algorithms 1-3 with
//! their theorem-case schedules, optionally with an injected fault for the negative controls,
//! and SP-FW) and the options of a case ([`CaseOptions`]). Shared by [`super::check`] and
//! [`super::controls`].
//!
//! ```
//! use saddlefw::invariants::case::{CaseOptions, SolverSpec, POINTS_PER_CASE};
//! use saddlefw::paper::Algorithm;
//! let o = CaseOptions::default();
//! assert_eq!((o.points, o.solvers.is_none()), (POINTS_PER_CASE, true));
//! let inst = "quadratic/c-c:dx=3,dy=2,seed=1".parse::<saddlefw::generators::GeneratorSpec>()
//!     .unwrap().generate().unwrap();
//! let spec = SolverSpec::paper(Algorithm::LmoLmo);
//! let (_, _, desc) = saddlefw::invariants::case::build_run(&spec, inst.problem.as_ref()).unwrap();
//! assert!(desc.starts_with("lmo-lmo ["), "{desc}");
//! ```

use super::context::{MeasureSet, Structure, EXACT_MEASURES};
use crate::generators::{Family, GeneratorSpec, Setting, XKind};
use crate::paper::Algorithm;
use crate::problems::{Instance, SaddleProblem};
use crate::solvers::{Control, Fault, Options, Solver};
use crate::Result;

/// Default horizon of the runs of `saddlefw check`.
pub const DEFAULT_HORIZON: usize = 100;
/// Random points per case.
pub const POINTS_PER_CASE: usize = 4;

pub use crate::solvers::SolverSpec;

/// A paper algorithm with its theorem-case schedule, `C` and `b` of `beta_t = C (t+1)^-b`
/// overridden when given, optionally broken by an injected [`Fault`] (negative controls: the
/// solver still claims the algorithm's structure).
pub(crate) fn paper_variant(
    alg: Algorithm,
    beta0: Option<f64>,
    b: Option<f64>,
    fault: Fault,
) -> SolverSpec {
    let options = Options {
        beta0,
        b,
        ..Options::default()
    };
    let control = (fault != Fault::None).then_some(Control::Fault(fault));
    SolverSpec::paper(alg).options(options).control(control)
}

/// SP-FW (a primal LMO sequence with step 2/(t+2); its dual step is not one of the paper's).
pub fn sp_fw() -> SolverSpec {
    SolverSpec::new("sp-fw")
}

/// The solver of `spec` for a problem (through the one construction path,
/// [`SolverSpec::build`]); the structure it claims; a description.
pub fn build_run(
    spec: &SolverSpec,
    p: &dyn SaddleProblem,
) -> Result<(Box<dyn Solver>, Structure, String)> {
    let solver = spec.build(p)?.solver;
    let Some(alg) = Algorithm::parse(&spec.algorithm) else {
        let structure = Structure {
            primal: Some(crate::paper::Oracle::Lmo),
            dual: None,
        };
        return Ok((solver, structure, "sp-fw [gamma_t = 2/(t+2)]".into()));
    };
    let structure = match alg {
        Algorithm::LmoLmo => Structure::LMO_LMO,
        Algorithm::LmoPo => Structure::LMO_PO,
        Algorithm::PoLmo => Structure::PO_LMO,
    };
    let mut desc = format!("{} [{}]", alg.name(), solver.schedule());
    if let Some(Control::Fault(fault)) = spec.control {
        desc.push_str(&format!(" fault={fault:?}"));
    }
    Ok((solver, structure, desc))
}

/// How CHECK.json names a spec whose solver could not be built.
pub fn describe(spec: &SolverSpec) -> String {
    match Algorithm::parse(&spec.algorithm) {
        None => "SpFw".into(),
        Some(alg) => {
            let fault = match spec.control {
                Some(Control::Fault(f)) => f,
                _ => Fault::None,
            };
            format!(
                "Paper {{ alg: {alg:?}, beta0: {:?}, b: {:?}, fault: {fault:?} }}",
                spec.options.beta0, spec.options.b
            )
        }
    }
}

/// What to run on a case.
#[derive(Clone)]
pub struct CaseOptions {
    pub measures: MeasureSet,
    /// `None`: [`super::check::default_solvers`].
    pub solvers: Option<Vec<SolverSpec>>,
    pub points: usize,
    /// Evaluate Point invariants at every iterate of every run.
    pub points_at_iterates: bool,
    /// Negative control: report `Lxx` and `Lyx` of the random cases multiplied by this factor
    /// (< 1: understated; [`super::controls::Understated`]). The witnesses are left as they are.
    pub understate: Option<f64>,
}

impl Default for CaseOptions {
    fn default() -> Self {
        CaseOptions {
            measures: EXACT_MEASURES,
            solvers: None,
            points: POINTS_PER_CASE,
            points_at_iterates: true,
            understate: None,
        }
    }
}

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
pub(crate) fn mix(mut z: u64) -> u64 {
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
    use Algorithm::*;
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
            v.push(paper_variant(alg, beta0, b, Fault::None));
        }
    }
    v.push(sp_fw());
    v
}
