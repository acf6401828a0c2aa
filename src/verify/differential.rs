//! Differential mode (issue 34, scope 5): a reimplementation of one of Algorithms 1-3
//! (`alg:fw-fw`, `alg:fw-proj`, `alg:proj-fw`) compared iterate by iterate with saddlefw's own
//! solver on the same instance, schedule and start, so that a user learns *where* the code
//! departs, not only that a rate is off. This module holds the rule and the records
//! (verify.json's `differential`); the runs are made by `crate::iterates::differential`
//! (`verify-iterates --against ALGO` and `RateCheck::against`).
//!
//! * **Tolerance.** Iterate t departs in coordinate i when
//!   `|yours_i - saddlefw_i| > DIFF_ATOL + DIFF_RTOL |saddlefw_i|` ([`DIFF_ATOL`] = 1e-9,
//!   [`DIFF_RTOL`] = 1e-6), x before y, the lowest index first. Rounding differences of a
//!   faithful reimplementation (another operation order, another BLAS) are around 1e-15
//!   relative and stay far below it; a wrong step (a sign, a factor, an index) moves a
//!   coordinate by a fraction of the set's size at once.
//! * **Chaos horizon.** Rounding differences can be amplified (on some nonconvex and hard
//!   instances they grow geometrically). saddlefw runs its own solver a second time with its
//!   floating-point operations in another order (`Control::FloatOrder`, the calibration
//!   panel's `float-order`); the first t where its two runs differ by more than
//!   `HORIZON_FRACTION` (1e-3) times the tolerance is the job's chaos horizon H. Past H the
//!   reference is not defined beyond rounding. The fraction is a margin: a reimplementation
//!   rounds differently from both runs (NumPy's products, another projection), and measured
//!   on faithful NumPy reimplementations of Algorithms 1-3 its differences ran up to about 50
//!   times the second run's, crossing the tolerance a few iterations before the second run
//!   did (`po-lmo/c-sc+sc`'s hard instance: t = 34 against 37).
//! * **Verdicts.** `departs`: your iterate departs at some `t < H` (or before `t_last` where
//!   saddlefw's two runs agree throughout). `agrees`: no departure through `t_last`
//!   ("agrees through t = N"), or none before H ("agrees until the run is chaotic at t = H":
//!   a departure at or after H is not a finding). `not-compared`: the job's entries are of
//!   another algorithm, or the solver does not run the job. A `departs` fails the run (exit 1,
//!   `failed` in verify.json): the comparison was asked for.
//!
//! ```
//! use saddlefw::verify::differential::{first_departure, DIFF_ATOL};
//! let r = ([0.5, 0.5], [1.0]);
//! assert!(first_departure(3, (&[0.5, 0.5 + 1e-15], &[1.0]), (&r.0, &r.1)).is_none());
//! let d = first_departure(3, (&[0.5, 0.5], &[-1.0]), (&r.0, &r.1)).unwrap();
//! assert_eq!((d.t, d.coordinate.as_str(), d.yours, d.saddlefw), (3, "y[0]", -1.0, 1.0));
//! assert!(d.allowed > DIFF_ATOL);
//! // a non-finite iterate departs
//! assert!(first_departure(0, (&[f64::NAN, 0.5], &[1.0]), (&r.0, &r.1)).is_some());
//! ```

use crate::paper::Algorithm;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// Relative part of the departure tolerance (module doc).
pub const DIFF_RTOL: f64 = 1e-6;
/// Absolute part of the departure tolerance (module doc).
pub const DIFF_ATOL: f64 = 1e-9;

/// The chaos horizon is where saddlefw's two runs differ by this fraction of the tolerance:
/// a faithful reimplementation rounds differently from both, and where rounding differences
/// grow, its own may be up to a thousand times larger than theirs (module doc).
pub const HORIZON_FRACTION: f64 = 1e-3;

/// The rule, in words (verify.json's `rule`).
pub const DIFF_RULE: &str = "iterate t departs when |yours_i - saddlefw_i| > atol + rtol |saddlefw_i| for some coordinate i of x_t or y_t";
/// The chaos horizon, in words (verify.json's `horizon_rule`).
pub const HORIZON_RULE: &str = "the first t where saddlefw's own run and the same run with its floating-point operations in another order (control float-order) differ by more than 1e-3 times the tolerance in some coordinate; a departure at or after it is not a finding";

/// A departure at or before this iterate usually comes from a convention, not a bug.
pub const EARLY_DEPARTURE: u64 = 2;
/// What [`DiffVerdict::Departs`] adds for a departure at the first iterates: the theorems allow
/// other schedule constants and index offsets, so the rate gates, not this comparison, decide.
pub const EARLY_HINT: &str = "; a departure at the first iterates often means another convention the theorems allow (an index offset such as tau_{t+1} for tau_t, another schedule constant, another start): your iterates follow another legitimate schedule if the rate gates pass";

/// Where an iterate first departs from the reference beyond the tolerance.

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Departure {
    pub t: u64,
    /// `x[i]` or `y[i]`.
    pub coordinate: String,
    /// The coordinate of the compared run (null when not finite).
    #[serde(with = "crate::measures::nan_null")]
    pub yours: f64,
    /// The coordinate of saddlefw's run.
    #[serde(with = "crate::measures::nan_null")]
    pub saddlefw: f64,
    /// `atol + rtol |saddlefw|`.
    pub allowed: f64,
}

/// The first coordinate (x before y, lowest index first) where `yours` departs from
/// `reference` beyond the tolerance at iterate `t`; a non-finite coordinate departs.
pub fn first_departure(
    t: u64,
    yours: (&[f64], &[f64]),
    reference: (&[f64], &[f64]),
) -> Option<Departure> {
    first_departure_scaled(t, yours, reference, 1.0)
}

/// [`first_departure`] with the tolerance times `scale` (the chaos horizon's is
/// `HORIZON_FRACTION`).
pub(crate) fn first_departure_scaled(
    t: u64,
    yours: (&[f64], &[f64]),
    reference: (&[f64], &[f64]),
    scale: f64,
) -> Option<Departure> {
    [("x", yours.0, reference.0), ("y", yours.1, reference.1)]
        .into_iter()
        .find_map(|(name, u, r)| {
            u.iter().zip(r).enumerate().find_map(|(i, (&u, &r))| {
                let allowed = scale * (DIFF_ATOL + DIFF_RTOL * r.abs());
                // NaN-aware: a non-finite coordinate departs
                (!((u - r).abs() <= allowed)).then(|| Departure {
                    t,
                    coordinate: format!("{name}[{i}]"),
                    yours: u,
                    saddlefw: r,
                    allowed,
                })
            })
        })
}

/// The verdict of one job.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum DiffVerdict {
    Agrees,
    Departs,
    NotCompared,
}

impl DiffVerdict {
    /// `agrees`, `departs`, `not-compared`.
    pub fn name(self) -> &'static str {
        match self {
            DiffVerdict::Agrees => "agrees",
            DiffVerdict::Departs => "departs",
            DiffVerdict::NotCompared => "not-compared",
        }
    }
}

/// The comparison of one job (one instance, start and schedule).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct JobDifferential {
    /// The job's id (the export's, `CASE__FAMILY__sI` or `ENTRY__hard`).
    pub job: String,
    /// The theorem entries judged on the job.
    pub entries: Vec<String>,
    /// The instance's spec.
    pub spec: String,
    pub verdict: DiffVerdict,
    /// The last iterate the job asks for.
    pub t_last: u64,
    /// The last iterate compared (the comparison stops at the first departure or at the chaos
    /// horizon); `None` when not compared.
    pub compared_through: Option<u64>,
    /// The first t where saddlefw's two runs depart from each other (`None`: not before the
    /// comparison stopped).
    pub chaos_horizon: Option<u64>,
    /// The coordinate where they depart at the horizon.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub chaos_coordinate: Option<String>,
    /// The first departure of the compared run from saddlefw's, when one was found.
    pub departure: Option<Departure>,
    /// Why the job was not compared.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
}

impl JobDifferential {
    /// A job that was not compared, and why.
    pub fn not_compared(
        job: String,
        entries: Vec<String>,
        spec: String,
        t_last: u64,
        reason: String,
    ) -> Self {
        JobDifferential {
            job,
            entries,
            spec,
            verdict: DiffVerdict::NotCompared,
            t_last,
            compared_through: None,
            chaos_horizon: None,
            chaos_coordinate: None,
            departure: None,
            reason: Some(reason),
        }
    }

    /// The verdict of a comparison that stopped at `compared_through`, with the first
    /// departure of the compared run and of saddlefw's second run (the horizon), if any.
    pub fn decide(&mut self, departure: Option<Departure>, horizon: Option<Departure>) {
        self.verdict = match (&departure, &horizon) {
            (Some(d), Some(h)) if d.t >= h.t => DiffVerdict::Agrees,
            (Some(_), _) => DiffVerdict::Departs,
            (None, _) => DiffVerdict::Agrees,
        };
        self.chaos_horizon = horizon.as_ref().map(|h| h.t);
        self.chaos_coordinate = horizon.map(|h| h.coordinate);
        self.departure = departure;
        self.reason = None;
    }

    /// One line: the verdict and where (with `EARLY_HINT` for a departure at the first
    /// iterates).
    pub fn describe(&self) -> String {
        let horizon = match self.chaos_horizon {
            Some(h) => format!("saddlefw's own two runs part at t = {h}"),
            None => format!(
                "saddlefw's own two runs still agree at t = {}",
                self.compared_through.unwrap_or(0)
            ),
        };
        match (self.verdict, &self.departure, self.chaos_horizon) {
            (DiffVerdict::NotCompared, _, _) => {
                format!("not compared: {}", self.reason.as_deref().unwrap_or("-"))
            }
            (DiffVerdict::Departs, Some(d), _) => format!(
                "departs at t = {} in {}: yours {}, saddlefw's {} (|difference| {:.3e} > {:.1e}; {horizon}){}",
                d.t,
                d.coordinate,
                d.yours,
                d.saddlefw,
                (d.yours - d.saddlefw).abs(),
                d.allowed,
                if d.t <= EARLY_DEPARTURE {
                    EARLY_HINT
                } else {
                    ""
                }
            ),
            (_, _, Some(h)) => format!("agrees until the run is chaotic at t = {h}"),
            _ => format!(
                "agrees through t = {}",
                self.compared_through.unwrap_or(self.t_last)
            ),
        }
    }
}

/// verify.json's `differential`: every job of the run compared with saddlefw's `against`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Differential {
    /// The algorithm compared with (`lmo-lmo`, `lmo-po`, `po-lmo`).
    pub against: Algorithm,
    /// The compared run's name (the iterate files or the solver).
    pub yours: String,
    pub rtol: f64,
    pub atol: f64,
    /// `HORIZON_FRACTION`.
    pub horizon_fraction: f64,
    /// `DIFF_RULE`.
    pub rule: String,
    /// `HORIZON_RULE`.
    pub horizon_rule: String,
    pub jobs: Vec<JobDifferential>,
    /// Jobs per verdict.
    pub summary: BTreeMap<String, usize>,
    /// True when some job departs (the run fails).
    pub departs: bool,
}

impl Differential {
    /// The record of `jobs` compared with `against`.
    pub fn new(against: Algorithm, yours: String, jobs: Vec<JobDifferential>) -> Self {
        let mut summary = BTreeMap::new();
        for v in [
            DiffVerdict::Agrees,
            DiffVerdict::Departs,
            DiffVerdict::NotCompared,
        ] {
            let n = jobs.iter().filter(|j| j.verdict == v).count();
            summary.insert(v.name().to_string(), n);
        }
        Differential {
            against,
            yours,
            rtol: DIFF_RTOL,
            atol: DIFF_ATOL,
            horizon_fraction: HORIZON_FRACTION,
            rule: DIFF_RULE.into(),
            horizon_rule: HORIZON_RULE.into(),
            departs: summary["departs"] > 0,
            summary,
            jobs,
        }
    }
    /// `differential against ALGO: N agree, M depart, K not compared`.
    pub fn summary_line(&self) -> String {
        format!(
            "differential against {}: {} jobs agree, {} depart, {} not compared (tolerance {:.0e} + {:.0e} |saddlefw's|)",
            self.against.name(),
            self.summary["agrees"],
            self.summary["departs"],
            self.summary["not-compared"],
            self.atol,
            self.rtol
        )
    }
    /// The CLI table: one line per job, then [`Differential::summary_line`].
    pub fn table(&self) -> String {
        let mut s = format!(
            "\ndifferential: your iterates against saddlefw's {} ({})\n",
            self.against.name(),
            self.against.label()
        );
        for j in &self.jobs {
            s += &format!(
                "  {:<52} {:<12} {}\n",
                j.job,
                j.verdict.name(),
                j.describe()
            );
        }
        s += &self.summary_line();
        s.push('\n');
        s
    }
    /// The page's table ([`crate::report::DifferentialTable`]).
    pub(crate) fn report_table(&self) -> crate::report::DifferentialTable {
        crate::report::DifferentialTable {
            against: format!("{} ({})", self.against.name(), self.against.label()),
            rule: format!(
                "{} (atol = {:e}, rtol = {:e}); chaos horizon: {}",
                self.rule, self.atol, self.rtol, self.horizon_rule
            ),
            summary: self.summary_line(),
            rows: self
                .jobs
                .iter()
                .map(|j| crate::report::DifferentialRow {
                    job: j.job.clone(),
                    spec: j.spec.clone(),
                    verdict: j.verdict.name().into(),
                    failed: j.verdict == DiffVerdict::Departs,
                    detail: j.describe(),
                })
                .collect(),
        }
    }
}

impl super::VerifyReport {
    /// Adds the differential comparison; a job that departs fails the report.
    pub(crate) fn attach_differential(&mut self, d: Differential) {
        self.failed |= d.departs;
        self.differential = Some(d);
    }
}
