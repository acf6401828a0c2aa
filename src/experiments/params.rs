//! The paper's experimental parameters as plain data: the schedules of the proposed algorithms,
//! the baselines' parameters (claims.md 2.4; baselines.md for their provenance), time limits,
//! and Table 3 (`table:iters`). Line numbers `Lnnnn` refer to `shared/spec/paper.tex`.
//!
//! Every schedule of the paper's experiments has the form `scale * (num / (t + shift))^exponent`
//! ([`Schedule::power_law`], the solvers' one schedule type), t = 0, 1, ...; the experimental schedules are shifted and rescaled versions of
//! the theorems' (claims.md 6.5 item 15). Baseline constants are given by formulas in a horizon
//! K (`c K^-a`, an anytime [`Schedule`] at `t = K - 1`, [`BorounParams`]) or in Lipschitz constants ([`AgpNcC`], [`AgpNcSc`]), which take the
//! paper's appendix constants (`DictionaryLearning::paper_constants`,
//! `RobustClassification::paper_constants`) because that is what the paper plugged in.
//!
//! ```
//! use saddlefw::experiments::params::{proposed_schedule, Experiment, Method};
//! use saddlefw::paper::{Algorithm, Oracle};
//! use saddlefw::solvers::Schedule;
//! // scale (num / (t + shift))^exponent
//! let p = Schedule::power_law(2.0, 10.0, 10.0, 0.5);
//! assert!((p.at(0) - 2.0).abs() < 1e-15);
//! assert!((p.at(30) - 1.0).abs() < 1e-15); // 2 (10/40)^(1/2)
//! assert_eq!(Schedule::power_law(0.0, 1.0, 1.0, 0.0), Schedule::Zero);
//! let s = proposed_schedule(Experiment::Robust, Algorithm::PoLmo);
//! assert_eq!((s.tau.at(0), s.beta), (1e3, Schedule::Zero));
//! // both spellings of every algorithm parse back to it
//! for a in Method::ALL {
//!     assert_eq!(Method::parse(a.name()), Some(a));
//!     assert_eq!(Method::parse(a.registry_name()), Some(a));
//! }
//! assert_eq!(Method::parse("fw"), None);
//! assert_eq!(Method::Paper(Algorithm::LmoPo).name(), "LMO-PO");
//! // the plotted measure follows the primal oracle
//! assert_eq!(Method::Paper(Algorithm::PoLmo).primal_oracle(), Oracle::Po);
//! assert_eq!(Method::Paper(Algorithm::LmoPo).primal_oracle(), Oracle::Lmo);
//! ```

use crate::data;
use crate::paper::{Algorithm, Oracle};
use crate::problems::Constants;
use crate::solvers::Schedule;
use crate::{Error, Result};
use serde::{Deserialize, Serialize};

/// The two experiments (NEWS20 and RCV1 share the robust parameters).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Experiment {
    /// Dictionary learning (NC-C), claims.md 6.1.
    Dl,
    /// Robust multiclass classification (C-SC) on NEWS20 or RCV1, claims.md 6.2.
    Robust,
}

/// The four baselines of Figure 1 and Table 3 (baselines.md).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Baseline {
    SpFw,
    Agp,
    RPdcg,
    CgRpga,
}

impl Baseline {
    /// Table 3 order.
    pub const ALL: [Baseline; 4] = [
        Baseline::SpFw,
        Baseline::Agp,
        Baseline::RPdcg,
        Baseline::CgRpga,
    ];
    /// The paper's name (`SP-FW`).
    pub const fn title(&self) -> &'static str {
        match self {
            Baseline::SpFw => "SP-FW",
            Baseline::Agp => "AGP",
            Baseline::RPdcg => "R-PDCG",
            Baseline::CgRpga => "CG-RPGA",
        }
    }
    /// The name in the solver registry (`sp-fw`).
    pub const fn name(&self) -> &'static str {
        match self {
            Baseline::SpFw => "sp-fw",
            Baseline::Agp => "agp",
            Baseline::RPdcg => "r-pdcg",
            Baseline::CgRpga => "cg-rpga",
        }
    }
    /// How well the update rule is established (baselines.md Sec. 6).
    pub const fn provenance(&self) -> &'static str {
        match self {
            Baseline::SpFw => "VERIFIED (authors' code): plain SP-FW, joint step 2/(t+2)",
            Baseline::Agp => {
                "update RECONSTRUCTED (alternating regularised projected gradient); parameters VERIFIED-2ND"
            }
            Baseline::RPdcg => {
                "update RECONSTRUCTED, dual step GUESSED (Garber-Hazan); parameters VERIFIED-2ND"
            }
            Baseline::CgRpga => {
                "update RECONSTRUCTED; parameters VERIFIED-2ND; mu_bar in DL GUESSED (= mu)"
            }
        }
    }
}

/// The seven methods of Figure 1 and Table 3: the paper's three ([`Algorithm`], whose names,
/// labels and oracles are read from it) and the four baselines.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Method {
    /// Algorithms 1-3.
    Paper(Algorithm),
    /// SP-FW, AGP, R-PDCG, CG-RPGA.
    Baseline(Baseline),
}

impl Method {
    /// Table 3 order.
    pub const ALL: [Method; 7] = [
        Method::Baseline(Baseline::SpFw),
        Method::Baseline(Baseline::Agp),
        Method::Baseline(Baseline::RPdcg),
        Method::Baseline(Baseline::CgRpga),
        Method::Paper(Algorithm::LmoLmo),
        Method::Paper(Algorithm::LmoPo),
        Method::Paper(Algorithm::PoLmo),
    ];
    /// The paper's name (`LMO-PO`, `SP-FW`).
    pub const fn name(&self) -> &'static str {
        match self {
            Method::Paper(a) => a.title(),
            Method::Baseline(b) => b.title(),
        }
    }
    /// The name in the solver registry (`saddlefw list`, `--algos`).
    pub const fn registry_name(&self) -> &'static str {
        match self {
            Method::Paper(a) => a.name(),
            Method::Baseline(b) => b.name(),
        }
    }
    /// The method called `name` in the registry or in the paper (case-insensitive).
    pub fn parse(name: &str) -> Option<Method> {
        let n = name.trim().to_ascii_lowercase().replace('_', "-");
        Method::ALL
            .into_iter()
            .find(|a| a.registry_name() == n || a.name().to_ascii_lowercase() == n)
    }
    /// The paper's algorithm, for Algorithms 1-3.
    pub const fn paper(&self) -> Option<Algorithm> {
        match self {
            Method::Paper(a) => Some(*a),
            Method::Baseline(_) => None,
        }
    }
    /// Whether it is one of the paper's Algorithms 1-3.
    pub const fn is_proposed(&self) -> bool {
        matches!(self, Method::Paper(_))
    }
    /// The primal oracle, which decides the plotted measure (L749: `G_X^LMO + G_Y` for
    /// LMO-primal methods, `G_X^PO + G_Y` for PO-primal ones), read from the registry's oracle
    /// profile ([`crate::solvers::registry::primal_oracle`], the one declaration of the seven).
    pub fn primal_oracle(&self) -> Oracle {
        crate::solvers::registry::primal_oracle(self.registry_name())
            .expect("the seven experiment algorithms are in the registry")
    }
    /// How well the update rule is established (baselines.md Sec. 6); for Algorithms 1-3 the
    /// paper's number and label ([`Algorithm::number`], [`Algorithm::label`]).
    pub fn provenance(&self) -> String {
        match self {
            Method::Paper(a) => format!("the paper's Algorithm {} ({})", a.number(), a.label()),
            Method::Baseline(b) => b.provenance().to_string(),
        }
    }
    /// Whether the paper runs it on the experiment: R-PDCG needs a strongly convex Y and is
    /// "not applicable" on the robust problem (simplex Y, L750; Table 3 N/A).
    pub fn applicable(&self, e: Experiment) -> bool {
        !(e == Experiment::Robust && *self == Method::Baseline(Baseline::RPdcg))
    }
}

/// `tau_t` and `beta_t` of a proposed algorithm.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ProposedSchedule {
    pub tau: Schedule,
    pub beta: Schedule,
    /// Where the paper states it.
    pub source: &'static str,
}

/// The schedule of a proposed algorithm on an experiment, in the paper's printed form
/// `scale (num/(t+shift))^exponent` ([`Schedule::power_law`]):
///
/// | experiment | algorithm | `tau_t` | `beta_t` | paper |
/// |---|---|---|---|---|
/// | DL | LMO-LMO | `(2/(t+10))^(4/5)` | `1e-2/(t+10)^(1/5)` | L3257 |
/// | DL | LMO-PO | `(2/(t+10))^(3/4)` | `1e-2/(t+10)^(1/4)` | L3257 |
/// | DL | PO-LMO | `1e2/(t+10)^(3/5)` (tau_0 ~ 25.1, not the appendix schedule) | `1e-2/(t+10)^(1/5)` | L3257 |
/// | robust | LMO-LMO, LMO-PO | `2/(t+10)` | 0 | L3261 |
/// | robust | PO-LMO | `1e3/(t+1)^(1/2)` (tau_0 = 1000) | 0 | L3261 |
pub fn proposed_schedule(e: Experiment, a: Algorithm) -> ProposedSchedule {
    let law = Schedule::power_law;
    let (tau, beta, source) = match (e, a) {
        (Experiment::Dl, Algorithm::LmoLmo) => (
            law(1.0, 2.0, 10.0, 0.8),
            law(1e-2, 1.0, 10.0, 0.2),
            "paper.tex L3257 (alg:fw-fw)",
        ),
        (Experiment::Dl, Algorithm::LmoPo) => (
            law(1.0, 2.0, 10.0, 0.75),
            law(1e-2, 1.0, 10.0, 0.25),
            "paper.tex L3257 (alg:fw-proj)",
        ),
        (Experiment::Dl, Algorithm::PoLmo) => (
            law(1e2, 1.0, 10.0, 0.6),
            law(1e-2, 1.0, 10.0, 0.2),
            "paper.tex L3257 (alg:proj-fw)",
        ),
        (Experiment::Robust, Algorithm::LmoLmo | Algorithm::LmoPo) => (
            law(1.0, 2.0, 10.0, 1.0),
            Schedule::Zero,
            "paper.tex L3261 (alg:fw-fw, alg:fw-proj)",
        ),
        (Experiment::Robust, Algorithm::PoLmo) => (
            law(1e3, 1.0, 1.0, 0.5),
            Schedule::Zero,
            "paper.tex L3261 (alg:proj-fw)",
        ),
    };
    ProposedSchedule { tau, beta, source }
}

/// What `mu_bar` in CG-RPGA's dual step `sigma = 2/(L_yy + mu_bar)` stands for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum MuBar {
    /// DL: the paper never defines mu_bar; `mu_bar = mu` (the dual regularisation) is the
    /// reading baselines.md 3.3 recommends (GUESSED). Note `sigma mu = 2` then reflects rather
    /// than contracts; `1/mu` is the alternative reading.
    Mu,
    /// Robust: `mu_bar = lambda = lambda'/(2n^2)` as stated (L3261), although the payoff's
    /// strong-concavity modulus is lambda' (claims.md 6.5 item 9).
    Lambda,
}

/// R-PDCG / CG-RPGA (Boroun et al. 2023, Algorithms 1 and 2) in their own notation: constant
/// primal step `tau`, dual regularisation `mu`, horizon `K`; CG-RPGA adds `sigma`. The paper
/// gives `tau` and `mu` as `c K^-a`: the anytime schedules `c (t+1)^-a` at `t = K - 1`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct BorounParams {
    pub horizon: f64,
    pub tau: Schedule,
    pub mu: Schedule,
    /// CG-RPGA only.
    pub mu_bar: Option<MuBar>,
    pub source: &'static str,
}

impl BorounParams {
    /// `tau` at the horizon, `c K^-a`.
    pub fn tau(&self) -> f64 {
        self.tau.at(self.last())
    }
    /// `mu` at the horizon, `c K^-a`.
    pub fn mu(&self) -> f64 {
        self.mu.at(self.last())
    }
    /// `t = K - 1`, where `(t+1)^-a = K^-a`.
    fn last(&self) -> usize {
        self.horizon as usize - 1
    }
    /// CG-RPGA's `sigma = 2/(L_yy + mu_bar)` with the paper's `L_yy` (`paper.lyy`) and
    /// `lambda = lambda'/(2n^2)` for the robust reading; `None` for R-PDCG, whose dual step the
    /// paper does not give (baselines.md 2.3).
    pub fn sigma(&self, paper: &Constants, lambda: f64) -> Option<f64> {
        let mu_bar = match self.mu_bar? {
            MuBar::Mu => self.mu(),
            MuBar::Lambda => lambda,
        };
        Some(2.0 / (paper.lyy + mu_bar))
    }
}

/// DL, R-PDCG: `tau = 1/K^(5/6)`, `mu = 1e-2/K^(1/6)`, K = 1e3 (L3257).
pub const DL_R_PDCG: BorounParams = BorounParams {
    horizon: 1e3,
    tau: Schedule::Anytime {
        c: 1.0,
        a: 5.0 / 6.0,
    },
    mu: Schedule::Anytime {
        c: 1e-2,
        a: 1.0 / 6.0,
    },
    mu_bar: None,
    source: "paper.tex L3257",
};

/// DL, CG-RPGA: `tau = 1/K^(3/4)`, `mu = 1e-2/K^(1/4)`, `sigma = 2/(L_yy + mu_bar)`, K = 1e3
/// (L3257); L_yy = 0 (L3257, `subsec:lipschitz-dictionary`).
pub const DL_CG_RPGA: BorounParams = BorounParams {
    horizon: 1e3,
    tau: Schedule::Anytime { c: 1.0, a: 0.75 },
    mu: Schedule::Anytime { c: 1e-2, a: 0.25 },
    mu_bar: Some(MuBar::Mu),
    source: "paper.tex L3257",
};

/// Robust, R-PDCG: `tau = 10/K^(3/4)`, `mu = 0`, K = 1e4 (L3261) — listed although R-PDCG is
/// reported not applicable (L750, Table 3 N/A).
pub(crate) const ROBUST_R_PDCG: BorounParams = BorounParams {
    horizon: 1e4,
    tau: Schedule::Anytime { c: 10.0, a: 0.75 },
    mu: Schedule::Anytime { c: 0.0, a: 0.0 },
    mu_bar: None,
    source: "paper.tex L3261",
};

/// Robust, CG-RPGA: `tau = 10/K^(1/2)`, `mu = 0`, `sigma = 2/(L_yy + mu_bar)` with
/// `mu_bar = lambda` and `L_yy = sqrt(2) lambda'`, K = 1e4 (L3261).
pub const ROBUST_CG_RPGA: BorounParams = BorounParams {
    horizon: 1e4,
    tau: Schedule::Anytime { c: 10.0, a: 0.5 },
    mu: Schedule::Anytime { c: 0.0, a: 0.0 },
    mu_bar: Some(MuBar::Lambda),
    source: "paper.tex L3261",
};

/// The Boroun-type parameters of an experiment (`None` for the other algorithms).
pub fn boroun_params(e: Experiment, b: Baseline) -> Option<BorounParams> {
    match (e, b) {
        (Experiment::Dl, Baseline::RPdcg) => Some(DL_R_PDCG),
        (Experiment::Dl, Baseline::CgRpga) => Some(DL_CG_RPGA),
        (Experiment::Robust, Baseline::RPdcg) => Some(ROBUST_R_PDCG),
        (Experiment::Robust, Baseline::CgRpga) => Some(ROBUST_CG_RPGA),
        _ => None,
    }
}

/// AGP (Xu et al. 2023, Algorithm 1) with the Theorem 3.2 (nonconvex-concave) parameters the
/// paper uses for DL (L3257-3258): `b_k = 0`, `c_k = 19/(20 rho_bar k^(1/4))`,
/// `gamma_k = 1/rho_bar`, `beta_k = eta_bar + beta_bar_k`,
/// `beta_bar_k = rho_bar L_y^2 + 16 tau L_y^2/(rho_bar c_k^2) - 2 eta_bar`,
/// `tau = 2 max{19^2 (L_xx + 2 eta_bar - rho_bar L_y^2)/(20^2 16 rho_bar L_y^2), 2}`,
/// `eta_bar = rho_bar = 0.05`, `L_y = L_{y(D',C')}`, `L_xx = L_{(D',C')(D',C')}`.
/// `tau` here is an analysis constant, not a step. k starts at 1.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct AgpNcC {
    pub eta_bar: f64,
    pub rho_bar: f64,
    pub tau: f64,
    pub l_y: f64,
}

impl AgpNcC {
    /// From the paper's DL constants (`paper.lxx`, `paper.lyx`).
    pub fn new(paper: &Constants) -> AgpNcC {
        let (eta_bar, rho_bar) = (0.05, 0.05);
        let (lxx, ly) = (paper.lxx, paper.lyx);
        let tau = 2.0
            * f64::max(
                19.0f64.powi(2) * (lxx + 2.0 * eta_bar - rho_bar * ly * ly)
                    / (20.0f64.powi(2) * 16.0 * rho_bar * ly * ly),
                2.0,
            );
        AgpNcC {
            eta_bar,
            rho_bar,
            tau,
            l_y: ly,
        }
    }
    /// `b_k = 0`.
    pub fn b_k(&self, _k: u64) -> f64 {
        0.0
    }
    /// `c_k = 19/(20 rho_bar k^(1/4))`, k >= 1.
    pub fn c_k(&self, k: u64) -> f64 {
        assert!(k >= 1, "AGP indices start at 1");
        19.0 / (20.0 * self.rho_bar * (k as f64).powf(0.25))
    }
    /// `beta_k = eta_bar + beta_bar_k` (the primal step is `1/beta_k`).
    pub fn beta_k(&self, k: u64) -> f64 {
        let c = self.c_k(k);
        let ly2 = self.l_y * self.l_y;
        let beta_bar = self.rho_bar * ly2 + 16.0 * self.tau * ly2 / (self.rho_bar * c * c)
            - 2.0 * self.eta_bar;
        self.eta_bar + beta_bar
    }
    /// `gamma_k = 1/rho_bar` (the dual step is `1/gamma_k = rho_bar`).
    pub fn gamma_k(&self, _k: u64) -> f64 {
        1.0 / self.rho_bar
    }
}

/// AGP with the Theorem 3.1 (nonconvex-strongly-concave) parameters the paper uses for the
/// robust problem (L3261): `b_k = c_k = 0`, `beta_k = eta = 2 max{L_ThTh, L_yTh^2 rho +
/// 4 L_yTh^2/(rho mu^2)}`, `gamma_k = 1/rho`, `rho = mu/(4 L_yy^2)`, `mu = lambda`.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct AgpNcSc {
    pub eta: f64,
    pub rho: f64,
    pub mu: f64,
}

impl AgpNcSc {
    /// From the paper's robust constants and the paper's `mu = lambda = lambda'/(2n^2)`.
    /// With n ~ 1e4 this mu is ~ 1e-8 while the payoff's modulus is lambda' (claims.md 6.5
    /// item 9), so eta is astronomically large and AGP's primal step `1/eta` is ~ 0: AGP barely
    /// moves, as the paper's Figure 1 discussion reports for PO-primal methods.
    pub fn new(paper: &Constants, mu: f64) -> AgpNcSc {
        let rho = mu / (4.0 * paper.lyy * paper.lyy);
        let ly2 = paper.lyx * paper.lyx;
        let eta = 2.0 * f64::max(paper.lxx, ly2 * rho + 4.0 * ly2 / (rho * mu * mu));
        AgpNcSc { eta, rho, mu }
    }
    /// `beta_k = eta`.
    pub fn beta_k(&self, _k: u64) -> f64 {
        self.eta
    }
    /// `gamma_k = 1/rho`.
    pub fn gamma_k(&self, _k: u64) -> f64 {
        1.0 / self.rho
    }
}

/// `lambda = lambda'/(2 n^2)` (L3261): the paper's mu for AGP and mu_bar for CG-RPGA.
pub fn lambda(lambda_prime: f64, n: usize) -> f64 {
    lambda_prime / (2.0 * (n as f64).powi(2))
}

/// DL time limit per algorithm: 300 s ("We also run each algorithms 300 seconds", L3258).
pub(crate) const DL_TIME_LIMIT_S: f64 = 300.0;
/// Robust time limit per algorithm: **not stated** by the paper (claims.md 6.5 item 13); the
/// DL value is used as the documented default (Table 3 speaks of one "time limit").
pub(crate) const ROBUST_TIME_LIMIT_S: f64 = 300.0;

/// One row of Table 3 (`table:iters`, L758-775): iterations completed within the time limit;
/// `None` is the paper's N/A.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Table3Row {
    pub algorithm: Method,
    pub dl: u64,
    pub rcv1: Option<u64>,
    pub news20: Option<u64>,
}

/// Table 3 of the paper (hardware not stated; only ratios are comparable).
pub const TABLE3: [Table3Row; 7] = [
    Table3Row {
        algorithm: Method::Baseline(Baseline::SpFw),
        dl: 48466,
        rcv1: Some(467),
        news20: Some(315),
    },
    Table3Row {
        algorithm: Method::Baseline(Baseline::Agp),
        dl: 20997,
        rcv1: Some(387),
        news20: Some(302),
    },
    Table3Row {
        algorithm: Method::Baseline(Baseline::RPdcg),
        dl: 46688,
        rcv1: None,
        news20: None,
    },
    Table3Row {
        algorithm: Method::Baseline(Baseline::CgRpga),
        dl: 47036,
        rcv1: Some(464),
        news20: Some(317),
    },
    Table3Row {
        algorithm: Method::Paper(Algorithm::LmoLmo),
        dl: 42016,
        rcv1: Some(453),
        news20: Some(313),
    },
    Table3Row {
        algorithm: Method::Paper(Algorithm::LmoPo),
        dl: 46678,
        rcv1: Some(467),
        news20: Some(319),
    },
    Table3Row {
        algorithm: Method::Paper(Algorithm::PoLmo),
        dl: 21991,
        rcv1: Some(386),
        news20: Some(305),
    },
];

/// Which experiment.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Which {
    Dl,
    News20,
    Rcv1,
}

impl Which {
    /// `dl`, `news20`, `rcv1`.
    pub fn name(&self) -> &'static str {
        match self {
            Which::Dl => "dl",
            Which::News20 => "news20",
            Which::Rcv1 => "rcv1",
        }
    }
    /// The parameter set.
    pub fn experiment(&self) -> Experiment {
        match self {
            Which::Dl => Experiment::Dl,
            _ => Experiment::Robust,
        }
    }
    /// The data set of a robust experiment.
    pub(crate) fn dataset(&self) -> Option<data::KnownDataset> {
        match self {
            Which::Dl => None,
            Which::News20 => Some(data::NEWS20),
            Which::Rcv1 => Some(data::RCV1),
        }
    }
    /// Default time limit per algorithm: 300 s (DL: L3258; robust: not stated by the paper,
    /// the DL value is used, [`ROBUST_TIME_LIMIT_S`]).
    pub(crate) fn default_time_limit(&self) -> f64 {
        match self {
            Which::Dl => DL_TIME_LIMIT_S,
            _ => ROBUST_TIME_LIMIT_S,
        }
    }
    /// The paper's Table 3 count of `alg` on this experiment (None: N/A).
    pub fn paper_iterations(&self, alg: Method) -> Option<u64> {
        let row = TABLE3.iter().find(|r| r.algorithm == alg)?;
        match self {
            Which::Dl => Some(row.dl),
            Which::News20 => row.news20,
            Which::Rcv1 => row.rcv1,
        }
    }
}

impl std::str::FromStr for Which {
    type Err = Error;
    fn from_str(s: &str) -> Result<Self> {
        match s.to_ascii_lowercase().as_str() {
            "dl" => Ok(Which::Dl),
            "news20" => Ok(Which::News20),
            "rcv1" => Ok(Which::Rcv1),
            _ => Err(Error::invalid(
                "experiment",
                format!("unknown experiment {s:?} (dl, news20 or rcv1)"),
            )),
        }
    }
}
