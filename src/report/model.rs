//! The report's input: plain, serde-serialisable records that the runners (`verify`, `check`,
//! `tighten`, `experiment`, `saddlefw report`) fill and the HTML writer renders.
//!
//! Every optional field is `#[serde(default)]`, so a runner fills what it has and leaves the
//! rest out; the page says "n/a" where a value is missing rather than inventing one.
//!
//! ```
//! use saddlefw::report::model::{format_utc, is_baseline, Fit};
//! assert_eq!(format_utc(0), "1970-01-01 00:00 UTC");
//! assert_eq!(format_utc(951_782_400 + 3_660), "2000-02-29 01:01 UTC"); // a leap day
//! assert!(is_baseline("SP-FW") && !is_baseline("LMO-PO"));
//! // ln q = intercept + slope ln T
//! let f = Fit { slope: -0.5, intercept: 0.0, t_start: 1.0, t_end: 100.0 };
//! assert!((f.value_at(100.0) - 0.1).abs() < 1e-12);
//! ```

use crate::problems::Constants;
use serde::{Deserialize, Serialize};

/// How a series wants to be drawn. `Auto` lets the plot choose from the series' role.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum SeriesStyle {
    #[default]
    Auto,
    Thin,
    Bold,
    Dashed,
    Dotted,
}

/// One curve: `(x, y)` points in data units (T, seconds, or a measure value).
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct Series {
    pub label: String,
    pub points: Vec<(f64, f64)>,
    #[serde(default)]
    pub style: SeriesStyle,
}

impl Series {
    /// A series with the `Auto` style.
    pub fn new(label: impl Into<String>, points: Vec<(f64, f64)>) -> Self {
        Series {
            label: label.into(),
            points,
            style: SeriesStyle::Auto,
        }
    }

    /// The same series with an explicit style.
    pub fn styled(mut self, style: SeriesStyle) -> Self {
        self.style = style;
        self
    }
}

/// The verdict of a one-sided rate gate: the one defined by the gate in [`crate::fit`].
pub use crate::fit::Verdict;

/// A least-squares line `ln q = intercept + slope * ln T`, fitted over `T in [t_start, t_end]`
/// (natural logarithms; the observed exponent is `p_hat = -slope`).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Fit {
    pub slope: f64,
    pub intercept: f64,
    pub t_start: f64,
    pub t_end: f64,
}

impl Fit {
    /// The fitted value at `t` (data units).
    pub fn value_at(&self, t: f64) -> f64 {
        (self.intercept + self.slope * t.ln()).exp()
    }
}

/// What the report shows about one instance used by an entry.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct InstanceInfo {
    /// Family, e.g. `quadratic`, `cosine`, `hard/zigzag`, `file:PATH`.
    pub family: String,
    /// Dimensions of x and y.
    pub dim_x: usize,
    pub dim_y: usize,
    #[serde(default)]
    pub seed: Option<u64>,
    /// Family parameters or generator spec, e.g. `quadratic/c-sc+sc:dx=20,dy=10,seed=7`.
    #[serde(default)]
    pub params: Option<String>,
    /// Certified constants (diameters, Lipschitz constants, mu, alpha).
    pub constants: Constants,
    /// The assumptions the instance satisfies, e.g. `["A1", "mu>0", "A3"]`.
    pub assumptions: Vec<String>,
}

impl InstanceInfo {}

/// issue 10: the hardest instance found for one entry and how tight the theorem's rate looks.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Tightness {
    /// Hard family and its parameters (reproducible: fixtures/hard/...).
    pub family: String,
    pub params: String,
    /// Slowest observed exponent and its interval.
    pub p_hat: f64,
    #[serde(default)]
    pub ci: Option<(f64, f64)>,
    /// "rate looks tight", "rate looks loose by about X", "the paper's rate is violated", ...
    pub note: String,
    /// Path of the stored instance, e.g. `fixtures/hard/lmo-lmo-nc-c-gx.json`.
    #[serde(default)]
    pub fixture: Option<String>,
    /// The quantity against T on the hardest instance (one series per seed).
    #[serde(default)]
    pub series: Vec<Series>,
    /// Local slopes of the winner (guard against fitting artefacts).
    #[serde(default)]
    pub local_slopes: Vec<Series>,
}

/// A short tightness note from the theorem exponent `p`, the slowest observed exponent and
/// its interval; `tol` is the gate's tolerance. "violated" only when the whole interval lies
/// below `p - tol`; "tight" when the observed exponent is within `tol` of `p`.
pub fn tightness_note(p: f64, p_hat: f64, ci: Option<(f64, f64)>, tol: f64) -> String {
    let hi = ci.map_or(p_hat, |c| c.1);
    if hi < p - tol {
        "the paper's rate is violated".to_string()
    } else if p_hat <= p + tol {
        "rate looks tight".to_string()
    } else {
        format!("rate looks loose by about {:.2} in the exponent", p_hat - p)
    }
}

/// One (theorem case, bounded quantity) entry of the verify run (issue 5).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RateEntry {
    /// Stable identifier, used for the HTML anchor (`#entry-<id>`), e.g. `lmo-lmo-nc-c-gx`.
    pub id: String,
    /// Theorem case, e.g. `lmo-lmo/nc-c`.
    pub case: String,
    /// `LMO-LMO`, `LMO-PO`, `PO-LMO`.
    pub algorithm: String,
    /// `NC-C`, `C-SC+SC`, ...
    pub setting: String,
    /// The exact quantity, e.g. "mean of G_X^LMO over t = 0..T".
    pub quantity_text: String,
    /// Theorem exponent p of O(T^-p).
    pub p: f64,
    /// Whether the theorem allows log factors (tilde-O).
    #[serde(default)]
    pub log_factor: bool,
    #[serde(default)]
    pub p_hat: Option<f64>,
    #[serde(default)]
    pub ci: Option<(f64, f64)>,
    /// Fit window `[t_start, t_end]`.
    #[serde(default)]
    pub window: Option<(f64, f64)>,
    pub verdict: Verdict,
    /// Worst `quantity / explicit bound` over checkpoints (claims.md sec. 5), when one exists.
    #[serde(default)]
    pub envelope_ratio: Option<f64>,
    /// Stored regression baseline of the observed exponent (fixtures/), when one exists.
    #[serde(default)]
    pub baseline_p_hat: Option<f64>,
    /// The paper's label and item, e.g. `theorem:fw-fw-unified-nc-c-convergence (i)`.
    pub label: String,
    /// Disagreement notes (D1-D22) and anything the verdict needs explained.
    #[serde(default)]
    pub notes: Vec<String>,
    /// The quantity against T, one series per seed.
    #[serde(default)]
    pub seeds: Vec<Series>,
    #[serde(default)]
    pub median: Option<Series>,
    #[serde(default)]
    pub fit: Option<Fit>,
    /// The explicit envelope bound(T), where claims.md sec. 5 gives one.
    #[serde(default)]
    pub envelope: Option<Series>,
    /// Local slopes d ln q / d ln T against T (per seed or of the median).
    #[serde(default)]
    pub local_slopes: Vec<Series>,
    #[serde(default)]
    pub instances: Vec<InstanceInfo>,
    #[serde(default)]
    pub tightness: Option<Tightness>,
    /// The three questions (theorem conformance, rate evidence, agreement with saddlefw's
    /// reference), each with its answer in words (`verify::questions`).
    #[serde(default)]
    pub answers: Option<Vec<(String, String)>>,
    /// A command that reruns saddlefw's own solver on the run that decided the entry.
    #[serde(default)]
    pub reproduce: Option<String>,
    /// Wall time of the entry's runs.
    #[serde(default)]
    pub time_s: Option<f64>,
}

/// One row of the invariant table (issue 4, `saddlefw check`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct InvariantRow {
    /// Registry name, e.g. `calculus-ii`.
    pub name: String,
    /// Paper label and item, e.g. `lemma:calculus (ii)`.
    pub label: String,
    /// Whether a violation fails the check (printed forms of errata do not gate).
    pub gating: bool,
    pub cases: u64,
    pub violations: u64,
    /// Minimum slack rhs - lhs over all cases (None when no case applied).
    #[serde(default)]
    pub min_slack: Option<f64>,
    /// The worst case (instance, seed, iteration), when recorded.
    #[serde(default)]
    pub worst: Option<String>,
}

/// A printed-vs-corrected comparison (claims.md sec. 3.4, 4, 7).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Erratum {
    pub label: String,
    pub printed: String,
    pub corrected: String,
    /// "erratum confirmed numerically (instance, t, lhs, rhs)" or
    /// "printed form holds on all tested instances".
    pub outcome: String,
    /// Whether the slip was confirmed numerically (None: not evaluated).
    #[serde(default)]
    pub confirmed: Option<bool>,
}

/// The invariant table and errata of a `check` run, as the verify page shows them beside the
/// rates (filled by `invariants`; the verify page receives them, it does not run the suite).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct CheckTables {
    pub invariants: Vec<InvariantRow>,
    pub errata: Vec<Erratum>,
}

/// The differential comparison of a verify page (`verify-iterates --against ALGO`,
/// `RateCheck::against`): one row per job, filled by `verify::differential`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub(crate) struct DifferentialTable {
    /// The algorithm compared with, e.g. `lmo-po (alg:fw-proj)`.
    pub against: String,
    /// The tolerance and the chaos horizon, in words.
    pub rule: String,
    /// One line: jobs per verdict.
    pub summary: String,
    pub rows: Vec<DifferentialRow>,
}

/// One job of a [`DifferentialTable`].
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub(crate) struct DifferentialRow {
    pub job: String,
    pub spec: String,
    /// `agrees`, `departs` or `not-compared`.
    pub verdict: String,
    /// Whether the verdict fails the run (shown marked).
    pub failed: bool,
    /// Where the run departs, or how far it agrees.
    pub detail: String,
}

/// How a run ended.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RunSummary {
    /// Algorithm name, e.g. `LMO-PO`, `SP-FW`.
    pub algorithm: String,
    /// For baselines: the provenance of the update rule (baselines.md: VERIFIED,
    /// RECONSTRUCTED, GUESSED, ...). Always shown next to a baseline.
    #[serde(default)]
    pub provenance: Option<String>,
    /// Problem or experiment name.
    #[serde(default)]
    pub problem: Option<String>,
    /// What the y axis measures, e.g. `G_X^LMO + G_Y`.
    #[serde(default)]
    pub measure: Option<String>,
    /// `completed`, `time-limit`, `diverged at t = 812`, ...
    pub status: String,
    pub iterations: u64,
    #[serde(default)]
    pub wall_time_s: Option<f64>,
    /// Share of a CPU the run got while it ran (experiments; None: not recorded).
    #[serde(default)]
    pub cpu_share: Option<f64>,
    /// The measure against the iteration counter.
    #[serde(default)]
    pub by_iteration: Option<Series>,
    /// The measure against wall-clock seconds (measurement time excluded).
    #[serde(default)]
    pub by_time: Option<Series>,
}

/// The algorithms of the paper itself; every other algorithm is a baseline and must carry a
/// provenance.
pub(crate) const PAPER_ALGORITHMS: [&str; 3] = ["LMO-LMO", "LMO-PO", "PO-LMO"];

/// Whether `algorithm` is a baseline (not one of the paper's Algorithms 1-3).
pub fn is_baseline(algorithm: &str) -> bool {
    let norm = algorithm.trim().to_ascii_uppercase().replace('_', "-");
    !PAPER_ALGORITHMS.contains(&norm.as_str())
}

/// A qualitative claim of the paper and whether the run supports it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ClaimVerdict {
    /// The claim in the paper's words (claims.md 6.3 / 6.4).
    pub claim: String,
    /// Paper label, e.g. `fig:Experiment`.
    #[serde(default)]
    pub label: Option<String>,
    /// Some(true): holds; Some(false): does not hold; None: not decidable from this run.
    pub holds: Option<bool>,
    /// The numbers behind the verdict.
    pub evidence: String,
}

/// An experiment run (issue 7): the Figure 1 panel and the Table 3 column.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ExperimentReport {
    /// `dl`, `news20`, `rcv1`.
    pub experiment: String,
    pub time_limit_s: f64,
    pub runs: Vec<RunSummary>,
    #[serde(default)]
    pub claims: Vec<ClaimVerdict>,
    /// Choices where the paper's main text and appendix disagree, data set details, ...
    #[serde(default)]
    pub notes: Vec<String>,
    /// The paper's Table 3 column of this experiment (None: the experiment has none).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub table3: Option<Table3Column>,
}

/// The paper's Table 3 (`table:iters`) as the experiment page shows it next to the runs; the
/// data and the judgement of its claim live in `experiments::table3`, which fills this.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Table3Column {
    /// The paper's algorithms in Table 3's order with their count on this experiment
    /// (`None`: the paper's N/A).
    pub paper: Vec<(String, Option<u64>)>,
    /// Below this CPU share a run's count is flagged as contended.
    pub contended_share: f64,
}

/// Who made the report, where and when.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Meta {
    /// saddlefw version.
    pub version: String,
    #[serde(default)]
    pub git_commit: Option<String>,
    #[serde(default)]
    pub seeds: Vec<u64>,
    /// `quick`, `full`, `bench`, ...
    #[serde(default)]
    pub tier: Option<String>,
    pub machine: String,
    /// UTC date and time, `YYYY-MM-DD HH:MM UTC`.
    pub date: String,
    /// The command line that produced the report.
    #[serde(default)]
    pub command: Option<String>,
    /// Set on the page of a record a signal stopped (issue 17): where it stopped and how to
    /// finish it, shown as a banner at the top of the page. Never stored in the JSON records.
    #[serde(skip)]
    pub interrupted: Option<String>,
}

impl Meta {
    /// Metadata of the current process: crate version, git commit of the working directory
    /// when `git` is available (with `+dirty` for uncommitted changes), OS, architecture,
    /// CPU model and count, and the current UTC time.
    pub fn current(tier: Option<&str>, seeds: &[u64]) -> Self {
        let build = crate::build_info::Build::current();
        Meta {
            version: build.version,
            git_commit: build.git_commit,
            seeds: seeds.to_vec(),
            tier: tier.map(str::to_string),
            machine: machine_description(),
            date: utc_now(),
            command: Some(std::env::args().collect::<Vec<_>>().join(" ")),
            interrupted: None,
        }
    }
}

fn machine_description() -> String {
    let cpus = std::thread::available_parallelism().map_or(0, |n| n.get());
    let model = std::fs::read_to_string("/proc/cpuinfo").ok().and_then(|s| {
        s.lines()
            .find(|l| l.starts_with("model name"))
            .and_then(|l| l.split_once(':'))
            .map(|(_, v)| v.trim().to_string())
    });
    let os = format!("{}-{}", std::env::consts::OS, std::env::consts::ARCH);
    match model {
        Some(m) => format!("{os}, {cpus} CPUs, {m}"),
        None => format!("{os}, {cpus} CPUs"),
    }
}

/// Current UTC time as `YYYY-MM-DD HH:MM UTC` (no time-zone database needed).
pub(crate) fn utc_now() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    format_utc(secs)
}

/// Formats seconds since the Unix epoch as `YYYY-MM-DD HH:MM UTC` (proleptic Gregorian).
pub fn format_utc(secs: u64) -> String {
    let days = (secs / 86_400) as i64;
    let rem = secs % 86_400;
    // Civil date from days since 1970-01-01 (H. Hinnant's algorithm).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!(
        "{y:04}-{m:02}-{d:02} {:02}:{:02} UTC",
        rem / 3600,
        (rem % 3600) / 60
    )
}
