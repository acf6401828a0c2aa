//! The hard-instance part of an entry's result: the data `verify.json` carries for the gates
//! on the stored hardest instances and the tightness record (issue 10), and the hook through
//! which a caller attaches them after the random instances are judged. The gates themselves
//! live in `crate::tightness`, which depends on verify, never the other way round: the caller
//! composes them ([`VerifyOptions::hard`], e.g. `Some(tightness::HardSource::Builtin.into())`).
//!
//! ```
//! use saddlefw::tightness::HardSource;
//! use saddlefw::verify::{Tier, VerifyOptions};
//! // verify alone runs the random instances only; the caller adds the hard-instance gates
//! let mut opts = VerifyOptions::new(Tier::Quick);
//! assert!(opts.hard.is_none());
//! opts.hard = Some(HardSource::Builtin.into());
//! assert_eq!(format!("{:?}", opts.hard.unwrap()), "HardGates(Builtin)");
//! ```

use super::{EntryResult, Gates, VerifyOptions};
use crate::fit::Verdict;
use crate::theorems::TheoremEntry;
use crate::Result;
use serde::{Deserialize, Serialize};
use std::fmt;
use std::sync::Arc;

/// A step run on the judged entries before they are annotated and the report is assembled
/// (by [`super::run`] in an unsharded run, by [`super::shard::merge`] in a merge).
pub trait AfterJudging: Send + Sync {
    /// Attaches results to `entries` (one per `selected` entry, same order); may change their
    /// verdicts and notes. Its runs are jobs like the random instances': those `log` holds are
    /// reused, finished ones are recorded in it, and a stop requested by a signal
    /// (`crate::interrupt`) starts no other and attaches nothing ([`Attached::Interrupted`]).
    fn attach(
        &self,
        selected: &[&TheoremEntry],
        entries: &mut [EntryResult],
        opts: &VerifyOptions,
        log: &dyn HardLog,
    ) -> Result<Attached>;
    /// How many runs [`AfterJudging::attach`] does for `selected` (the jobs an interrupted
    /// report counts).
    fn jobs(&self, selected: &[&TheoremEntry], opts: &VerifyOptions) -> Result<usize>;
    /// A name for debugging output.
    fn name(&self) -> String;
}

/// The runs on hard instances a verify run already has, and where it records new ones
/// (`verify::resume::JobLog`; [`NoLog`] in a merge).
pub trait HardLog: Sync {
    /// The recorded run on the stored hardest instance of `entry`.
    fn hard(&self, entry: &str) -> Option<&HardRun>;
    /// A run on a stored hardest instance finished.
    fn hard_done(&self, run: &HardRun);
}

/// Nothing recorded, nothing kept.
pub struct NoLog;

impl HardLog for NoLog {
    fn hard(&self, _: &str) -> Option<&HardRun> {
        None
    }
    fn hard_done(&self, _: &HardRun) {}
}

/// What [`AfterJudging::attach`] did.
#[derive(Debug, Clone, PartialEq)]
pub enum Attached {
    /// Every run finished and the results are attached.
    Done,
    /// A signal stopped it: the runs finished so far (reused ones included), of `total`.
    Interrupted { runs: Vec<HardRun>, total: usize },
}

/// A finished run on an entry's stored hardest instance (kept by an interrupted report and
/// the journal, so a resumed run does not repeat it).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct HardRun {
    /// The entry id.
    pub entry: String,
    pub run: super::InstanceRun,
    /// Wall time of the run, seconds.
    pub time_s: f64,
}

/// A shared [`AfterJudging`] step in [`VerifyOptions`] (cloneable, printable by name).
#[derive(Clone)]
pub struct HardGates(pub Arc<dyn AfterJudging>);

impl fmt::Debug for HardGates {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "HardGates({})", self.0.name())
    }
}

/// The gates of `verify` on an entry's stored hardest instance.
///
/// | gate | fails when |
/// |---|---|
/// | `hard-rate` | the rate verdict of `crate::fit::judge` on the hard run is FAIL (`ci_high < p - tol`, interval from the run's regression standard error) at the fixture's horizon T *and* on the confirmation run at `CONFIRM_FACTOR T` (a slope that recovers by then was pre-asymptotic: the theorems allow any constants and offsets, and with them the transient moves) |
/// | `hard-run` | the hard run diverged or its quantity could not be formed or fitted (a run whose quantity is at the rounding floor throughout is not fitted and passes: not slow) |
/// | `hard-envelope`, `hard-mhat` | as the random instances' `envelope` and `mhat` gates |
/// | `hard-baseline` | `p_hat < stored p_hat - 0.1` (`crate::fit::BASELINE_MARGIN`): the run is deterministic, so a drop comes from a code change |
///
/// A stored violation (`HardFixture::violated` of `crate::tightness`) that reproduces does
/// not gate: the entry is reported `disputed`, with the instance, never hidden.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct HardResult {
    /// The fixture file.
    pub fixture: String,
    /// The `saddlefw run --problem` value that rebuilds the instance: `hard:ENTRY` for a
    /// fixture built into the binary, the fixture file's path for `--hard DIR`.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub problem: String,
    /// A command that runs saddlefw's own solver of the entry on the instance with the
    /// entry's schedule up to the horizon (`super::reproduce::run_command`).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub reproduce: String,
    pub family: String,
    /// One-line parameters, rounded for reading (the fixture's `spec` is authoritative:
    /// `problem` rebuilds the instance).
    pub params: String,
    pub seed: u64,
    pub horizon: u64,
    /// The exponent stored by the search (the hard baseline).
    pub stored_p_hat: f64,
    pub p_hat: Option<f64>,
    pub ci: Option<[f64; 2]>,
    pub window: Option<[u64; 2]>,
    pub tol: Option<f64>,
    pub rate_verdict: Verdict,
    pub gates: Gates,
    /// Names of the failed hard gates that fail the entry (`hard-rate`, ...).
    pub failed_gates: Vec<String>,
    /// Failed hard gates that are reported only (`hard-mhat`; `hard-baseline` where the
    /// reference regression does not gate).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub reported_gates: Vec<String>,
    /// PO-LMO: the appendix constant G_1 / G_2 of the schedule the solver stepped with on this
    /// instance; where it is not positive the analysis' hypothesis fails (claims.md D20) and
    /// `hard-rate` and `hard-mhat` do not apply.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub po_lmo_g: Option<crate::solvers::schedule::GReport>,
    /// The run at `CONFIRM_FACTOR` times the horizon, made when the rate fails at the
    /// horizon (`hard-rate` fails only when it fails there too).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub confirmation: Option<Confirmation>,
    /// Why `hard-run` failed (divergence, an unformable quantity, or no fit window).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub run_failure: Option<String>,
    /// What the schedule checks that failed on the hard run say (`hard-schedule`'s detail, with
    /// their numbers).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub schedule_failures: Vec<String>,
    /// The stored violation reproduced (the entry is disputed).
    pub disputed: bool,
    pub local_slopes: Vec<(u64, u64, f64)>,
    /// The quantity at the checkpoints.
    pub series: Vec<(u64, f64)>,
    pub envelope_ratio: Option<f64>,
    /// The printed forms of the bound on the hard run (joined into the entry's `errata`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub errata: Vec<super::ErratumResult>,
    pub time_s: f64,
}

/// How much longer the confirmation run of a failed `hard-rate` is. The constants the theorems
/// leave free set the length of the pre-asymptotic stretch: with `tau_t = c (t+1)^-a`, the
/// distance the iterates travel by step T grows like `c T^(1-a)`, so halving `c` at `a = 2/3`
/// stretches the transient by `2^(1/(1-a)) = 8`. On the calibration panel
/// (docs/calibration.md), PO-LMO with `C / 2` on `po-lmo/c-c/dual`'s hard instance still rises
/// at `4 T` and is at 0.28 [0.27, 0.29] (p = 1/3) at `16 T`; sixteen covers every constant of
/// the panel (a factor 2 either way).
pub const CONFIRM_FACTOR: u64 = 16;

/// The confirmation run fails `hard-rate` when its interval lies below `p - tol - HARD_MARGIN`.
/// The theorems leave the constants of the schedules free (and the start point), and with
/// them the length of the pre-asymptotic stretch: on the stored hard instances, which sit at
/// the edge of `p - tol` by construction (the search keeps the slowest), the legitimate
/// variants of the calibration (docs/calibration.md) stay up to about 0.025 below `p - tol`
/// on the confirmation run. Calibrated on that panel, never on saddlefw's own trajectory.
pub const HARD_MARGIN: f64 = 0.05;

/// The rate judged on the confirmation run of a hard instance.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Confirmation {
    pub horizon: u64,
    pub p_hat: Option<f64>,
    pub ci: Option<[f64; 2]>,
    pub window: Option<[u64; 2]>,
    pub tol: Option<f64>,
    /// The verdict of [`Confirmation::fails`]' rule (`fail`: `hard-rate` fails).
    pub rate_verdict: Verdict,
}

impl Confirmation {
    /// Whether the confirmation run fails the rate for the claimed exponent `p`: its interval
    /// lies below `p - tol - HARD_MARGIN` (no fit: it fails).
    pub fn fails(&self, p: f64) -> bool {
        match (self.ci, self.tol) {
            (Some(ci), Some(tol)) => ci[1] < p - tol - HARD_MARGIN,
            _ => self.rate_verdict == Verdict::Fail,
        }
    }
}

/// The tightness record of an entry (issue 10): the slowest observed exponent over the random
/// families and the hardest stored instance, and what it says about the theorem's rate.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TightnessRecord {
    pub entry: String,
    /// Theorem exponent.
    pub p: f64,
    /// Slowest observed exponent and its interval.
    pub p_hat: f64,
    pub ci: Option<[f64; 2]>,
    /// `hard` (the stored instance) or `random` (a verify family).
    pub source: String,
    pub family: String,
    pub params: String,
    /// "rate looks tight", "rate looks loose by about X in the exponent", or "the paper's rate
    /// is violated".
    pub note: String,
    /// True when the note says "violated" (reported with the reproducible instance).
    pub disputed: bool,
    pub fixture: Option<String>,
}

/// The report layer's tightness record of an entry (series and local slopes of the hard run).
pub fn report_tightness(e: &EntryResult) -> Option<crate::report::Tightness> {
    use crate::report::{Series, SeriesStyle, Tightness};
    let t = e.tightness.as_ref()?;
    if !t.p_hat.is_finite() {
        return None;
    }
    let pts =
        |s: &[(u64, f64)]| -> Vec<(f64, f64)> { s.iter().map(|&(t, v)| (t as f64, v)).collect() };
    let (series, slopes) = match &e.hard {
        Some(h) => (
            vec![Series::new(format!("{} (hard)", h.family), pts(&h.series))
                .styled(SeriesStyle::Bold)],
            vec![Series::new(
                "hard instance",
                h.local_slopes
                    .iter()
                    .map(|&(lo, hi, s)| (((lo as f64) * (hi as f64)).sqrt(), s))
                    .collect(),
            )],
        ),
        None => (Vec::new(), Vec::new()),
    };
    Some(Tightness {
        family: format!("{} ({})", t.family, t.source),
        params: t.params.clone(),
        p_hat: t.p_hat,
        ci: t.ci.map(|c| (c[0], c[1])),
        note: if t.disputed {
            format!("{} (disputed)", t.note)
        } else {
            t.note.clone()
        },
        fixture: t.fixture.clone(),
        series,
        local_slopes: slopes,
    })
}
