//! The results `verify.json` holds: per run, per family, per entry, and the report.

use super::hard;
use super::shard;
use super::tier::Tier;
use crate::envelopes::{self, MhatCheck, PrintedForm, WorstRatio};
use crate::fit::{self, Estimate, FitConfig, ProofRate, SeriesFit, Verdict};
use crate::problems::Constants;
use crate::solvers::schedule::GReport;
use crate::theorems::MhatOf;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// One run of one entry on one instance.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct InstanceRun {
    /// [`InstanceFamily::label`](super::tier::InstanceFamily::label).
    pub family: String,
    /// The generator spec (reproduces the instance: `saddlefw run --problem SPEC`).
    pub spec: String,
    /// A command that runs saddlefw's own solver of the entry on this instance with the
    /// entry's schedule, as the verify run did (`super::reproduce::run_command`; empty when
    /// none does).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub reproduce: String,
    pub seed_index: u32,
    pub seed: u64,
    pub dim_x: usize,
    pub dim_y: usize,
    pub constants: Constants,
    /// `completed`, or `diverged at t = ..: reason`.
    pub status: String,
    /// The fit of this run's series; `None` when the series could not be formed.
    pub fit: Option<SeriesFit>,
    /// Why the series could not be formed or fitted.
    pub error: Option<String>,
    /// Worst quantity/envelope over the checkpoints (entries with an envelope).
    pub envelope: Option<WorstRatio>,
    /// The empirical-constant check (entries with an `mhat`).
    pub mhat: Option<MhatCheck>,
    /// The quantity at the checkpoints `(T, q_T)`.
    pub series: Vec<(u64, f64)>,
    /// The envelope at the checkpoints where it is defined.
    pub envelope_series: Vec<(u64, f64)>,
    /// The printed forms of the entry's bound on this run (errata twins, never gates).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub printed: Vec<PrintedRun>,
    /// The smoothing the run used, checked against the entry's hypotheses
    /// (`super::schedule_check`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub schedule: Vec<super::schedule_check::ScheduleCheck>,
    /// PO-LMO appendix schedule: `G_1` or `G_2` over `t < T_max` (the analysis needs it
    /// positive; claims.md 1.5, D20).
    pub po_lmo_g: Option<GReport>,
    /// Wall time of the run (solver, measures, fits), seconds.
    pub time_s: f64,
}

/// One family's estimate and verdict.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FamilyResult {
    pub family: String,
    pub estimate: Option<Estimate>,
    pub verdict: Verdict,
    pub tol: Option<f64>,
    /// Runs whose quantity reached the floor before a fit window.
    pub runs_floor: usize,
    /// Runs that were fitted.
    pub runs_fitted: usize,
}

pub use super::questions::GateStatus;

/// Every gate of an entry.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Gates {
    pub rate: GateStatus,
    pub run: GateStatus,
    pub envelope: GateStatus,
    pub mhat: GateStatus,
    pub baseline: GateStatus,
    /// The smoothing the solver used is one the theorem allows (`super::schedule_check`).
    #[serde(default = "not_applicable")]
    pub schedule: GateStatus,
}

fn not_applicable() -> GateStatus {
    GateStatus::NotApplicable
}

impl Gates {
    /// Names of the failed gates.
    pub fn failed(&self) -> Vec<&'static str> {
        [
            ("rate", self.rate),
            ("run", self.run),
            ("envelope", self.envelope),
            ("mhat", self.mhat),
            ("baseline", self.baseline),
            ("schedule", self.schedule),
        ]
        .into_iter()
        .filter(|(_, g)| *g == GateStatus::Fail)
        .map(|(n, _)| n)
        .collect()
    }
}

/// The empirical-constant summary of an entry.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MhatSummary {
    /// `h` (H_t, LMO-LMO) or `quantity` (PO-LMO).
    pub of: MhatOf,
    pub c: f64,
    pub log_power: f64,
    pub lemma: String,
    /// Largest log-log slope of M_hat over the runs' last decades (null without runs: an
    /// interrupted report).
    #[serde(with = "crate::measures::nan_null")]
    pub max_slope: f64,
    /// Per family: the slopes' mean and interval across seeds.
    pub families: Vec<MhatFamily>,
    /// False when some family's whole interval lies above [`envelopes::MHAT_SLOPE_TOL`](crate::envelopes::MHAT_SLOPE_TOL).
    pub bounded: bool,
}

/// The M_hat slopes of one family.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MhatFamily {
    pub family: String,
    pub mean_slope: f64,
    pub ci: [f64; 2],
}

/// Largest M_hat slope entering the statistics (an infinite slope, M_hat rising from 0,
/// counts as this).
pub(crate) const MHAT_SLOPE_CAP: f64 = 10.0;

/// Mean and Student-t interval of the M_hat slopes of one family (the regression-free
/// analogue of [`fit::estimate`]; a single run gives a degenerate interval).
pub(crate) fn mhat_family(family: &str, slopes: &[f64], level: f64) -> MhatFamily {
    let v: Vec<f64> = slopes.iter().map(|s| s.min(MHAT_SLOPE_CAP)).collect();
    let n = v.len() as f64;
    let mean = v.iter().sum::<f64>() / n;
    let half = if v.len() < 2 {
        0.0
    } else {
        let var = v.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1.0);
        fit::t_quantile(level, n - 1.0) * (var / n).sqrt()
    };
    MhatFamily {
        family: family.to_string(),
        mean_slope: mean,
        ci: [mean - half, mean + half],
    }
}

/// Everything verify.json holds about one entry.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct EntryResult {
    pub id: String,
    pub case: String,
    pub label: String,
    pub algorithm: String,
    pub setting: String,
    /// The bounded quantity in words.
    pub quantity: String,
    pub p: f64,
    pub p_frac: String,
    pub log_factor: bool,
    /// Tolerance of the binding family's verdict.
    pub tol: Option<f64>,
    pub p_hat: Option<f64>,
    pub ci: Option<[f64; 2]>,
    pub window: Option<[u64; 2]>,
    /// The family `p_hat` comes from (the slowest).
    pub binding_family: Option<String>,
    /// A family on which no run reached the floating-point floor (the acceptance asks for
    /// at least one per entry); `None` when every family has a floored run.
    pub floor_free_family: Option<String>,
    /// `pass`, `fail`, `floor` or `disputed` (a failed gate of any kind makes it `fail`).
    pub verdict: Verdict,
    /// The verdict of the rate gate alone.
    pub rate_verdict: Verdict,
    pub gates: Gates,
    /// The gates that failed and fail the entry (one source of truth: every gate listed here
    /// gates; see `reported_gates` for failures that do not).
    pub failed_gates: Vec<String>,
    /// Failed gates that are reported but do not fail the entry (`hard-mhat`; the reference
    /// regression where it does not gate).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub reported_gates: Vec<String>,
    /// The three questions answered apart (`super::questions`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub answers: Option<super::questions::Answers>,
    /// Worst quantity/envelope over all runs, where claims.md Sec. 5 gives an envelope.
    pub envelope_ratio: Option<f64>,
    pub envelope_label: Option<String>,
    /// `gate`, or `consistency check` when the envelope cannot fail by construction
    /// ([`envelopes::EnvelopeKind::consistency_only`](crate::envelopes::EnvelopeKind::consistency_only); its gate is then not applicable and a
    /// note says why). `None` without an envelope.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub envelope_role: Option<String>,
    /// The printed forms of the bound (claims.md Sec. 5 "check both printed and chain"):
    /// never gates ([`ErratumResult`]).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub errata: Vec<ErratumResult>,
    /// The report-only check against the proven rate `O(T^-p log^k T)`, `k` = the proven log
    /// power (`fit::judge_proven`); never a gate.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub proof_rate: Option<ProofRateResult>,
    pub mhat: Option<MhatSummary>,
    /// The stored exponent this entry is compared with.
    pub baseline: Option<f64>,
    pub families: Vec<FamilyResult>,
    /// Local slopes `(T_lo, T_hi, slope)` of the median series of the binding family.
    pub local_slopes: Vec<(u64, u64, f64)>,
    pub instances: Vec<InstanceRun>,
    pub notes: Vec<String>,
    pub disputed: Option<crate::theorems::Disputed>,
    /// Sum of the wall times of the entry's runs (a run serves both entries of a case).
    pub time_s: f64,
    /// The gates on the stored hardest instance (`crate::tightness::attach`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hard: Option<hard::HardResult>,
    /// How tight the theorem's rate looks (slowest observed exponent, random or hard).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tightness: Option<hard::TightnessRecord>,
}

impl EntryResult {
    /// A command that reruns saddlefw's own solver of the entry on the run that decided it:
    /// the stored hard instance when a `hard-*` gate failed, else the first instance of the
    /// binding family (the slowest), else the first instance (`None` without one).
    pub(crate) fn reproduce_command(&self) -> Option<&str> {
        let hard = self.hard.as_ref().map(|h| h.reproduce.as_str());
        let hard_failed = self.failed_gates.iter().any(|g| g.starts_with("hard-"));
        let binding = self
            .instances
            .iter()
            .find(|r| Some(&r.family) == self.binding_family.as_ref())
            .or(self.instances.first())
            .map(|r| r.reproduce.as_str());
        let pick = if hard_failed {
            hard.or(binding)
        } else {
            binding.or(hard)
        };
        pick.filter(|c| !c.is_empty())
    }
}

/// The result of `verify`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct VerifyReport {
    /// The saddlefw build that wrote the report (version and git commit).
    #[serde(default)]
    pub build: crate::build_info::Build,
    pub tier: Tier,
    /// Seed indices per family (generator seeds: [`derived_seed`](super::tier::derived_seed)).
    pub seeds: Vec<u32>,
    pub seed_rule: String,
    /// The master seed of the random families (`verify --seed`); absent for the default 0.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub master_seed: u64,
    pub t_max: u64,
    pub dim_x: usize,
    pub dim_y: usize,
    /// The broken variant that was run, if any (negative controls).
    pub control: Option<String>,
    pub fit_config: FitConfig,
    pub entries: Vec<EntryResult>,
    /// Entries per verdict.
    pub summary: BTreeMap<String, usize>,
    /// True when some entry failed a gate, or a job of the differential comparison departs
    /// (exit code 1).
    pub failed: bool,
    /// The `--cases` filter, when one was given.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub filter: Option<String>,
    /// Set on the output of `verify --shard I/N`: partial results, to be merged
    /// (`shard::merge`); its verdicts are not gates.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shard: Option<shard::Shard>,
    /// The name of a user's solver under verification ([`VerifyOptions::solver`](super::options::VerifyOptions::solver)); absent for
    /// the crate's own.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub solver: Option<String>,
    /// The iterate-by-iterate comparison with saddlefw's own solver, when asked for
    /// (`verify-iterates --against ALGO`, `RateCheck::against`; `super::differential`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub differential: Option<super::differential::Differential>,
    /// Set when a signal stopped the run before every job was done: the report holds the
    /// jobs completed, its verdicts are partial and not gates; `verify --resume DIR` finishes
    /// it ([`resume`](super::resume)).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub interrupted: Option<crate::resume::Interruption>,
    /// The runs on stored hardest instances finished before the signal (an interrupted report
    /// only; the resumed run reuses them).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub hard_runs: Vec<hard::HardRun>,
    /// The input files it was made from (`--hard DIR`, `--baselines`, `--theorems`, and
    /// `--no-hard`; `crate::fingerprint`): `--resume` and `merge` refuse other inputs.
    /// Absent when only built-in data was used.
    #[serde(default, skip_serializing_if = "crate::fingerprint::Inputs::is_empty")]
    pub inputs: crate::fingerprint::Inputs,
    pub wall_time_s: f64,
}

/// Relative rounding allowance of the envelope gate: `quantity <= (1 + 1e-9) bound` (also the
/// threshold above which a printed form counts as crossed). With an empirical constant and
/// beta_t = 0 (LMO-LMO dual, C = 0) the bound `M_T/(T+1)^c` equals the quantity `G_Y = H_T` at
/// the T where the running maximum is attained, up to the rounding of evaluating the same
/// number two ways; that envelope is a consistency check, not a gate
/// ([`envelopes::EnvelopeKind::consistency_only`](crate::envelopes::EnvelopeKind::consistency_only)).
pub const ENVELOPE_RTOL: f64 = 1e-9;

/// Whether an envelope ratio (quantity / bound) holds: at most `1 + ENVELOPE_RTOL` (the gate,
/// its note and the report's display of ratios within the allowance; not NaN).
pub fn envelope_holds(ratio: f64) -> bool {
    ratio <= 1.0 + ENVELOPE_RTOL
}

/// The proof-rate check of one family.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ProofRateFamily {
    pub family: String,
    #[serde(flatten)]
    pub check: ProofRate,
}

/// The report-only check against the proven rate (fit module doc, "Proof-rate check").
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ProofRateResult {
    /// The proven log power `k` of `O(T^-p log^k T)`.
    pub k: f64,
    /// The gate's log power (`max(1, k)` with a log factor), for comparison.
    pub gate_k: f64,
    /// Per fitted random family.
    pub random: Vec<ProofRateFamily>,
    /// On the stored hardest instance.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hard: Option<ProofRate>,
}

impl ProofRateResult {
    /// True when every checked run is at least as fast as the proven rate (within tol).
    pub fn holds(&self) -> bool {
        self.random.iter().all(|f| f.check.holds) && self.hard.map_or(true, |h| h.holds)
    }
}

/// One printed form of the entry's bound on one run (a non-gating twin of the envelope).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PrintedRun {
    pub form: PrintedForm,
    /// Worst quantity/printed bound over the checkpoints (explicit forms).
    pub worst: Option<WorstRatio>,
    /// The quantity and the printed bound at the worst checkpoint.
    pub lhs: Option<f64>,
    pub rhs: Option<f64>,
    /// Why the printed bound is undefined for the schedule and constants.
    pub undefined: Option<String>,
    /// `M_hat` of the quantity without the log factor (existential-constant forms).
    pub mhat: Option<MhatCheck>,
}

/// Status of a printed form whose bound was crossed (or whose constant kept growing).
pub const ERRATUM_CONFIRMED: &str = "erratum confirmed numerically";

/// Status of a printed form that held on every run.
pub const PRINTED_HOLDS: &str = "printed form holds on all tested instances";

/// The outcome of one printed form over an entry's runs (verify.json `errata`); never a gate.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ErratumResult {
    pub name: String,
    pub label: String,
    pub printed_form: String,
    /// `ERRATUM_CONFIRMED`, `PRINTED_HOLDS`, `undefined (REASON)` or `not evaluated (no
    /// run formed the quantity)`.
    pub status: String,
    /// The run with the worst ratio (or the fastest-growing `M_hat`): generator spec or hard
    /// fixture instance.
    pub instance: Option<String>,
    /// `random` (a verify family) or `hard` (the stored hardest instance).
    pub source: Option<String>,
    /// Horizon of the worst ratio, quantity and printed bound there, their ratio.
    pub t: Option<u64>,
    pub lhs: Option<f64>,
    pub rhs: Option<f64>,
    pub worst_ratio: Option<f64>,
    /// Existential-constant forms: the family whose `M_hat` slope interval (log power 0, over
    /// the last decade) lies highest, and that interval; confirmed iff it lies above
    /// `envelopes::MHAT_SLOPE_TOL`.
    pub mhat_family: Option<String>,
    pub mhat_slope_ci: Option<[f64; 2]>,
}

impl ErratumResult {
    fn rank(&self) -> (u8, f64) {
        let level = if self.status.starts_with("undefined") {
            3
        } else if self.status == ERRATUM_CONFIRMED {
            2
        } else if self.status == PRINTED_HOLDS {
            1
        } else {
            0
        };
        let score = self
            .worst_ratio
            .or(self.mhat_slope_ci.map(|c| c[0]))
            .unwrap_or(f64::NEG_INFINITY);
        (level, score)
    }
    /// The more telling of two outcomes of the same form (undefined, then confirmed, then the
    /// larger ratio): how the hard instance's outcome joins the random families'.
    pub(crate) fn join(self, other: ErratumResult) -> ErratumResult {
        let (a, b) = (self.rank(), other.rank());
        if b.0 > a.0 || (b.0 == a.0 && b.1 > a.1) {
            other
        } else {
            self
        }
    }
    /// One line for notes and the printed summary.
    pub fn describe(&self) -> String {
        let mut s = format!("{}: {}", self.name, self.status);
        if let (Some(t), Some(l), Some(r), Some(q)) = (self.t, self.lhs, self.rhs, self.worst_ratio)
        {
            let rel = if q > 1.0 { ">" } else { "<=" };
            s += &format!(
                " (worst: quantity {l:.4e} {rel} printed bound {r:.4e}, ratio {q:.3}, at T = {t} on {})",
                self.instance.as_deref().unwrap_or("?")
            );
        }
        if let (Some(c), Some(f)) = (self.mhat_slope_ci, &self.mhat_family) {
            s += &format!(
                " (M_hat without the log factor: last-decade slope interval [{:.3}, {:.3}] on {f}, bounded iff <= {})",
                c[0],
                c[1],
                envelopes::MHAT_SLOPE_TOL
            );
        }
        s
    }
}

fn is_zero(v: &u64) -> bool {
    *v == 0
}
