//! Empirical tightness (issue 10): hard instance families, a search for the instance on which
//! each theorem entry's observed exponent is smallest, the stored hardest instances
//! (`fixtures/hard/<entry-id>.json`), and their gates and tightness records in `verify`.
//!
//! * [`families`]: the hard families and their reproducible JSON specs.
//! * [`search`]: the documented search (`saddlefw tighten`).
//! * this module: evaluation of one entry on one hard instance ([`evaluate`]), the fixture
//!   format ([`HardFixture`]), and the `verify` hook ([`attach`]).

pub mod families;
pub mod search;

pub use families::{Family, HardSpec};

use crate::fit::{FitConfig, SeriesFit};
use crate::theorems::TheoremEntry;
use crate::verify::controls::Control;
use crate::verify::{self, InstanceRun, RunOrigin};
use crate::Result;

/// Runs `entry` on the hard instance `spec` up to `t_max` (the verify runner's
/// [`verify::run_instance`], so the quantity, fit, envelope and M_hat check are exactly
/// those of `verify`).
pub fn evaluate(
    entry: &TheoremEntry,
    spec: &HardSpec,
    t_max: u64,
    control: Option<Control>,
) -> Result<InstanceRun> {
    evaluate_scaled(entry, spec, t_max, control).map(|(run, _)| run)
}

/// [`evaluate`] and the instance's [`natural_scale`].
pub fn evaluate_scaled(
    entry: &TheoremEntry,
    spec: &HardSpec,
    t_max: u64,
    control: Option<Control>,
) -> Result<(InstanceRun, f64)> {
    let built = spec.build()?;
    let origin = RunOrigin {
        family: spec.family_name(),
        spec: spec.params_text(),
        seed_index: 0,
        seed: spec.seed,
    };
    let mut out = verify::run_instance(&[entry], &built.instance, &origin, t_max, control)?;
    Ok((out.remove(0).1, natural_scale(&built.instance)))
}

/// The natural scale of the gaps of an instance:
/// `L_xx D_X^2 + L_yx D_X D_Y + L_yy D_Y^2 + ||grad_x L(x0,y0)|| D_X + ||grad_y L(x0,y0)|| D_Y`
/// (every gap of claims.md 1.3 at any point is at most a small multiple of it). A quantity
/// below `64 eps` times this scale is rounding noise, whatever its own maximum.
pub fn natural_scale(inst: &crate::Instance) -> f64 {
    let p = inst.problem.as_ref();
    let k = p.constants();
    let mut gx = vec![0.0; inst.x0.len()];
    let mut gy = vec![0.0; inst.y0.len()];
    p.grads(&inst.x0, &inst.y0, &mut gx, &mut gy);
    k.lxx * k.dx * k.dx
        + k.lyx * k.dx * k.dy
        + k.lyy * k.dy * k.dy
        + crate::linalg::norm(&gx) * k.dx
        + crate::linalg::norm(&gy) * k.dy
}

/// The fit of a run, when it is a usable estimate: fitted (not at the floor), on a stable
/// window of the window rule (module doc of [`crate::fit`]), from a completed run.
pub fn usable_fit(run: &InstanceRun) -> Option<&crate::fit::Fitted> {
    if run.status != "completed" || run.error.is_some() {
        return None;
    }
    match &run.fit {
        Some(SeriesFit::Fitted(f)) if f.stable => Some(f),
        _ => None,
    }
}

/// The tightness note of an observed exponent: [`crate::report::tightness_note`] ("rate looks
/// tight", "rate looks loose by about X", "the paper's rate is violated"), saying so when a
/// "tight" exponent is below `p - 0.05` and passes only through the log-factor allowance of
/// the tolerance.
pub fn note(p: f64, p_hat: f64, ci: Option<(f64, f64)>, tol: f64) -> String {
    let base = crate::report::tightness_note(p, p_hat, ci, tol);
    if base == "rate looks tight" && p_hat < p - crate::fit::BASE_TOL {
        format!(
            "rate looks tight (slower than T^-p by {:.2}, within the allowance for the log factor)",
            p - p_hat
        )
    } else {
        base
    }
}

/// The default fit configuration (the window rule of `verify`).
pub fn fit_config() -> FitConfig {
    FitConfig::default()
}

// ---------------------------------------------------------------------------------------------
// Fixtures
// ---------------------------------------------------------------------------------------------

use crate::fit::Verdict;
use crate::Error;
use search::{EntrySearch, SearchConfig, Winner};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The `format` tag of `fixtures/hard/*.json`.
pub const FIXTURE_FORMAT: &str = "saddlefw-hard-v1";

/// Hard-instance gates that are reported in the entry's notes but do not fail it (yet):
/// `hard-mhat` rests on one short run per entry; it becomes gating once the search stores
/// longer-horizon hard runs with several seeds.
pub const HARD_REPORT_ONLY: &[&str] = &["hard-mhat"];

/// How the stored instance was found.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SearchRecord {
    /// Budget per entry (seconds) and the time actually used.
    pub budget_s: f64,
    pub elapsed_s: f64,
    /// Candidates evaluated (the candidate sequence is determined by `seed`).
    pub evaluations: usize,
    /// Rejected candidates by reason (floor, unstable window, ...).
    pub rejected: BTreeMap<String, usize>,
    pub seed: u64,
    /// The command that reproduces the search.
    pub command: String,
}

/// A candidate slower than the theorem's rate on the search horizon (see
/// [`HardFixture::below_rate`]).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BelowRate {
    pub spec: HardSpec,
    pub params: String,
    pub p_hat: f64,
    pub window: [u64; 2],
    pub confirm_p_hat: Option<f64>,
    pub envelope_ratio: Option<f64>,
}

/// One stored hardest instance (`fixtures/hard/<entry-id with / replaced by ->.json`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HardFixture {
    pub format: String,
    /// Theorem entry id, e.g. `lmo-lmo/nc-c/primal`.
    pub entry: String,
    /// The theorem's exponent.
    pub p: f64,
    /// Family name and one-line parameters (informative; `spec` is authoritative).
    pub family: String,
    pub params: String,
    /// The instance: setting, seed and family parameters.
    pub spec: HardSpec,
    /// Horizon of the stored fit (and of the `verify` run).
    pub horizon: u64,
    /// Observed exponent at `horizon`, its interval (Student t with the regression standard
    /// error of the single run), the fit window and the local-slope curve `(T_lo, T_hi, slope)`.
    pub p_hat: f64,
    pub ci: [f64; 2],
    pub window: [u64; 2],
    pub local_slopes: Vec<(u64, u64, f64)>,
    /// Exponent at the confirmation horizon (module doc of [`search`]).
    pub confirm_horizon: u64,
    pub confirm_p_hat: Option<f64>,
    pub confirmed: bool,
    /// Worst quantity/envelope ratio (entries with an explicit envelope, claims.md Sec. 5).
    pub envelope_ratio: Option<f64>,
    /// True when the instance proves the paper wrong: slower than the rate at both horizons
    /// and above the detailed theorem's explicit envelope ([`search::Winner::proves_violation`]).
    /// The entry is then reported disputed with this instance.
    pub violated: bool,
    /// The slowest candidate that decayed slower than `T^-p` on the search horizon without
    /// exceeding an envelope (a pre-asymptotic stretch the O(.) constant absorbs), if any:
    /// `(params, p_hat, confirm_p_hat, envelope_ratio)`.
    pub below_rate: Option<BelowRate>,
    /// "rate looks tight", "rate looks loose by about X", or "the paper's rate is violated".
    pub note: String,
    pub search: SearchRecord,
}

/// The file name of an entry's fixture: the id with `/` replaced by `-`, plus `.json`.
pub fn fixture_file(id: &str) -> String {
    format!("{}.json", id.replace('/', "-"))
}

/// The default fixture directory: `fixtures/hard` under the working directory when it exists,
/// else the crate's own copy.
pub fn default_dir() -> PathBuf {
    let local = PathBuf::from("fixtures/hard");
    if local.is_dir() {
        local
    } else {
        Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/hard")
    }
}

impl HardFixture {
    /// Parses and validates a fixture; `input` names it in errors.
    pub fn parse(input: &str, text: &str) -> Result<Self> {
        let f: HardFixture =
            serde_json::from_str(text).map_err(|e| crate::error::json_error(input, &e, None))?;
        if f.format != FIXTURE_FORMAT {
            return Err(Error::input(
                input,
                "format",
                format!("unknown format {:?} (expected {FIXTURE_FORMAT:?})", f.format),
            ));
        }
        if !(f.p_hat.is_finite() && f.ci.iter().all(|c| c.is_finite())) {
            return Err(Error::input(input, "p_hat", "must be finite"));
        }
        if f.horizon < 64 {
            return Err(Error::input(input, "horizon", "must be at least 64"));
        }
        Ok(f)
    }
    /// Reads a fixture file.
    pub fn load(path: &Path) -> Result<Self> {
        let name = path.display().to_string();
        let text = std::fs::read_to_string(path).map_err(|e| Error::io(&name, e))?;
        Self::parse(&name, &text)
    }
    /// The fixture of a search winner.
    pub fn from_winner(entry: &TheoremEntry, w: &Winner, s: &EntrySearch, cfg: &SearchConfig) -> Self {
        let mut note = note(entry.p(), w.p_hat, Some((w.ci[0], w.ci[1])), w.tol);
        let below_rate = s.below_rate.as_ref().filter(|b| !w.proves_violation() && b.params != w.params).map(|b| BelowRate {
            spec: b.spec.clone(),
            params: b.params.clone(),
            p_hat: b.p_hat,
            window: b.window,
            confirm_p_hat: b.confirm_p_hat,
            envelope_ratio: b.envelope_ratio,
        });
        if !w.confirmed {
            note += " (unconfirmed: no candidate had a stable window at both horizons)";
        }
        if let Some(b) = &below_rate {
            note += &format!(
                "; a slower stretch (p_hat = {:.3} on [{}, {}]) stays below the bound: pre-asymptotic",
                b.p_hat, b.window[0], b.window[1]
            );
        }
        HardFixture {
            format: FIXTURE_FORMAT.into(),
            entry: entry.id.clone(),
            p: entry.p(),
            family: w.family.clone(),
            params: w.params.clone(),
            spec: w.spec.clone(),
            horizon: w.horizon,
            p_hat: w.p_hat,
            ci: w.ci,
            window: w.window,
            local_slopes: w.local_slopes.clone(),
            confirm_horizon: w.confirm_horizon,
            confirm_p_hat: w.confirm_p_hat,
            confirmed: w.confirmed,
            envelope_ratio: w.envelope_ratio,
            violated: w.proves_violation(),
            below_rate,
            note,
            search: SearchRecord {
                budget_s: s.budget_s,
                elapsed_s: s.elapsed_s,
                evaluations: s.evaluations,
                rejected: s.rejected.clone(),
                seed: cfg.seed,
                command: format!(
                    "saddlefw tighten --cases {} --budget {} --seed {} --write-fixtures",
                    entry.id, s.budget_s, cfg.seed
                ),
            },
        }
    }
    /// Pretty JSON with a final newline.
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).expect("a fixture serialises") + "\n"
    }
}

/// Loads every `*.json` fixture of a directory, keyed by entry id (a missing directory gives
/// an empty map; a malformed file is an error naming it).
pub fn load_dir(dir: &Path) -> Result<BTreeMap<String, HardFixture>> {
    let mut out = BTreeMap::new();
    let Ok(rd) = std::fs::read_dir(dir) else {
        return Ok(out);
    };
    let mut paths: Vec<PathBuf> = rd
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    paths.sort();
    for p in paths {
        let f = HardFixture::load(&p)?;
        let want = fixture_file(&f.entry);
        if p.file_name().and_then(|n| n.to_str()) != Some(want.as_str()) {
            return Err(Error::input(
                p.display().to_string(),
                "entry",
                format!("the fixture of {} must be named {want}", f.entry),
            ));
        }
        out.insert(f.entry.clone(), f);
    }
    Ok(out)
}

// ---------------------------------------------------------------------------------------------
// The verify hook
// ---------------------------------------------------------------------------------------------

use crate::verify::{EntryResult, GateStatus, Gates, VerifyOptions, VerifyReport};
use rayon::prelude::*;

/// The gates of `verify` on an entry's stored hardest instance.
///
/// | gate | fails when |
/// |---|---|
/// | `hard-rate` | the rate verdict of [`crate::fit::judge`] on the hard run is FAIL (`ci_high < p - tol`, interval from the run's regression standard error) |
/// | `hard-run` | the hard run diverged or its quantity could not be formed or fitted |
/// | `hard-envelope`, `hard-mhat` | as the random instances' `envelope` and `mhat` gates |
/// | `hard-baseline` | `p_hat < stored p_hat - 0.1` ([`crate::fit::BASELINE_MARGIN`]): the run is deterministic, so a drop comes from a code change |
///
/// A stored violation ([`HardFixture::violated`]) that reproduces does not gate: the entry is
/// reported `disputed`, with the instance, never hidden.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct HardResult {
    /// The fixture file.
    pub fixture: String,
    pub family: String,
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
    /// Names of the failed hard gates (`hard-rate`, ...).
    pub failed_gates: Vec<String>,
    /// The stored violation reproduced (the entry is disputed).
    pub disputed: bool,
    pub local_slopes: Vec<(u64, u64, f64)>,
    /// The quantity at the checkpoints.
    pub series: Vec<(u64, f64)>,
    pub envelope_ratio: Option<f64>,
    pub time_s: f64,
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

/// Runs the gates on the stored hardest instances of the selected entries and attaches the
/// hard results and tightness records to `entries` (a failed hard gate makes the entry fail).
pub fn attach(
    selected: &[&TheoremEntry],
    entries: &mut [EntryResult],
    dir: &Path,
    opts: &VerifyOptions,
) -> Result<()> {
    let fixtures = load_dir(dir)?;
    let jobs: Vec<(&TheoremEntry, &HardFixture)> = selected
        .iter()
        .filter_map(|e| fixtures.get(&e.id).map(|f| (*e, f)))
        .collect();
    let work = || -> Vec<Result<(String, InstanceRun, f64)>> {
        jobs.par_iter()
            .map(|(e, f)| {
                let clock = std::time::Instant::now();
                let run = evaluate(e, &f.spec, f.horizon, opts.control)?;
                Ok((e.id.clone(), run, clock.elapsed().as_secs_f64()))
            })
            .collect()
    };
    let outputs = match opts.jobs {
        Some(n) => rayon::ThreadPoolBuilder::new()
            .num_threads(n.max(1))
            .build()
            .map_err(|e| Error::invalid("--jobs", e.to_string()))?
            .install(work),
        None => work(),
    };
    let mut runs: BTreeMap<String, (InstanceRun, f64)> = BTreeMap::new();
    for o in outputs {
        let (id, run, t) = o?;
        runs.insert(id, (run, t));
    }
    // The hard run is judged like a family of one seed, without the random baselines.
    let mut hard_opts = opts.clone();
    hard_opts.baselines = Default::default();
    for (e, res) in selected.iter().zip(entries.iter_mut()) {
        let fixture = fixtures.get(&e.id);
        let hard = match (fixture, runs.remove(&e.id)) {
            (Some(f), Some((run, time_s))) => {
                let judged = crate::verify::judge_entry(e, vec![run.clone()], &hard_opts)?;
                Some(hard_result(dir, f, &run, &judged, time_s))
            }
            _ => None,
        };
        if let Some(h) = &hard {
            if h.disputed {
                res.notes.push(format!(
                    "the paper's rate is violated on the stored hard instance {} (p_hat = {:.3} < p = {:.3}): disputed",
                    h.fixture,
                    h.p_hat.unwrap_or(f64::NAN),
                    e.p()
                ));
                if res.verdict != Verdict::Fail {
                    res.verdict = Verdict::Disputed;
                }
            } else if !h.failed_gates.is_empty() && !e.is_disputed() {
                // `hard-mhat` is reported, not gating: on one short hard run its last-decade
                // slope test is noisy, and for PO-LMO it re-tests the quantity itself with
                // c = p (no explicit constants exist, claims.md D12). The other hard gates gate.
                let (report_only, gating): (Vec<String>, Vec<String>) = h
                    .failed_gates
                    .iter()
                    .cloned()
                    .partition(|g| HARD_REPORT_ONLY.contains(&g.as_str()));
                for g in &report_only {
                    res.notes.push(format!(
                        "{g} failed on the stored hard instance {} (reported, not gating: see tightness::HARD_REPORT_ONLY)",
                        h.fixture
                    ));
                }
                if !gating.is_empty() {
                    res.failed_gates.extend(gating);
                    res.verdict = Verdict::Fail;
                }
            }
        }
        res.tightness = Some(tightness_record(e, res, hard.as_ref()));
        res.hard = hard;
    }
    Ok(())
}

fn hard_result(dir: &Path, f: &HardFixture, run: &InstanceRun, j: &EntryResult, time_s: f64) -> HardResult {
    let baseline = match j.p_hat {
        Some(ph) => match crate::fit::baseline_gate(ph, Some(f.p_hat)) {
            crate::fit::BaselineGate::Fail { .. } => GateStatus::Fail,
            _ => GateStatus::Pass,
        },
        None => GateStatus::Fail,
    };
    let gates = Gates {
        baseline,
        ..j.gates.clone()
    };
    // A run without a fit is a failed run gate (the random instances count it as floor).
    let mut failed: Vec<String> = gates.failed().iter().map(|g| format!("hard-{g}")).collect();
    if j.p_hat.is_none() && !failed.contains(&"hard-run".to_string()) {
        failed.push("hard-run".into());
    }
    let disputed = f.violated && j.rate_verdict == Verdict::Fail;
    HardResult {
        fixture: dir.join(fixture_file(&f.entry)).display().to_string(),
        family: f.family.clone(),
        params: f.params.clone(),
        seed: f.spec.seed,
        horizon: f.horizon,
        stored_p_hat: f.p_hat,
        p_hat: j.p_hat,
        ci: j.ci,
        window: j.window,
        tol: j.tol,
        rate_verdict: j.rate_verdict,
        gates,
        failed_gates: failed,
        disputed,
        local_slopes: match &run.fit {
            Some(crate::fit::SeriesFit::Fitted(f)) => {
                f.local_slopes.iter().map(|s| (s.t_lo, s.t_hi, s.slope)).collect()
            }
            _ => Vec::new(),
        },
        series: run.series.clone(),
        envelope_ratio: j.envelope_ratio,
        time_s,
    }
}

/// The slowest of the random binding family and the hard instance (module doc of
/// [`TightnessRecord`]).
fn tightness_record(e: &TheoremEntry, res: &EntryResult, hard: Option<&HardResult>) -> TightnessRecord {
    let random = res.p_hat.map(|p| {
        (
            p,
            res.ci,
            "random".to_string(),
            res.binding_family.clone().unwrap_or_default(),
            res.instances
                .iter()
                .find(|r| Some(&r.family) == res.binding_family.as_ref())
                .map(|r| r.spec.clone())
                .unwrap_or_default(),
            res.tol,
            None,
        )
    });
    let hard = hard.and_then(|h| {
        h.p_hat.map(|p| {
            (
                p,
                h.ci,
                "hard".to_string(),
                h.family.clone(),
                h.params.clone(),
                h.tol,
                Some(h.fixture.clone()),
            )
        })
    });
    let pick = match (random, hard) {
        (Some(r), Some(h)) => Some(if h.0 <= r.0 { h } else { r }),
        (r, h) => h.or(r),
    };
    match pick {
        None => TightnessRecord {
            entry: e.id.clone(),
            p: e.p(),
            p_hat: f64::NAN,
            ci: None,
            source: "none".into(),
            family: String::new(),
            params: String::new(),
            note: "no fitted run (every run reached the floor)".into(),
            disputed: false,
            fixture: None,
        },
        Some((p_hat, ci, source, family, params, tol, fixture)) => {
            let tol = tol.unwrap_or(crate::fit::BASE_TOL);
            let note = note(e.p(), p_hat, ci.map(|c| (c[0], c[1])), tol);
            TightnessRecord {
                entry: e.id.clone(),
                p: e.p(),
                p_hat,
                ci,
                disputed: note.contains("violated"),
                source,
                family,
                params,
                note,
                fixture,
            }
        }
    }
}

/// The report layer's tightness record of an entry (series and local slopes of the hard run).
pub fn report_tightness(e: &EntryResult) -> Option<crate::report::Tightness> {
    use crate::report::{Series, SeriesStyle, Tightness};
    let t = e.tightness.as_ref()?;
    if !t.p_hat.is_finite() {
        return None;
    }
    let pts = |s: &[(u64, f64)]| -> Vec<(f64, f64)> { s.iter().map(|&(t, v)| (t as f64, v)).collect() };
    let (series, slopes) = match &e.hard {
        Some(h) => (
            vec![Series::new(format!("{} (hard)", h.family), pts(&h.series)).styled(SeriesStyle::Bold)],
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

/// The plain-text tightness table of a verify report (entries with a record).
pub fn table(report: &VerifyReport) -> String {
    let rows: Vec<&EntryResult> = report.entries.iter().filter(|e| e.tightness.is_some()).collect();
    if rows.is_empty() {
        return String::new();
    }
    let mut s = format!(
        "\n{:<26} {:>5} {:>7} {:>17} {:>6} {:<15} {:<8} {}\n",
        "tightness", "p", "p_hat", "ci", "source", "family", "hard", "note"
    );
    for e in rows {
        let t = e.tightness.as_ref().unwrap();
        let ci = t.ci.map_or("-".to_string(), |c| format!("[{:.3}, {:.3}]", c[0], c[1]));
        let hard = e.hard.as_ref().map_or("-".to_string(), |h| {
            if h.disputed {
                "disputed".into()
            } else if h.failed_gates.is_empty() {
                "pass".into()
            } else {
                "fail".into()
            }
        });
        s += &format!(
            "{:<26} {:>5} {:>7.3} {:>17} {:>6} {:<15} {:<8} {}\n",
            e.id,
            e.p_frac,
            t.p_hat,
            ci,
            t.source,
            t.family.split(':').next().unwrap_or(""),
            hard,
            t.note
        );
    }
    s
}

// ---------------------------------------------------------------------------------------------
// `saddlefw tighten`
// ---------------------------------------------------------------------------------------------

/// `saddlefw tighten` flags.
#[derive(Debug, clap::Args)]
pub struct TightenArgs {
    /// Only the entries whose id contains FILTER (e.g. lmo-po/ or nc-c/dual).
    #[arg(long, value_name = "FILTER")]
    pub cases: Option<String>,
    /// Search budget per entry in seconds (random search + refinement; the confirmation runs
    /// of the finalists come on top).
    #[arg(long, value_name = "SECONDS", default_value_t = 20.0, allow_negative_numbers = true)]
    pub budget: f64,
    /// Output directory (tighten.json).
    #[arg(long, value_name = "DIR", default_value = "reports/tighten")]
    pub out: PathBuf,
    /// Worker threads (default: one per core).
    #[arg(long, value_name = "N", allow_negative_numbers = true)]
    pub jobs: Option<i64>,
    /// Seed of the candidate sequence.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Search horizon T (also the horizon verify runs the stored instances at).
    #[arg(long, value_name = "T", default_value_t = 1 << 14)]
    pub horizon: u64,
    /// Fixture directory (read for the incumbents, written with --write-fixtures).
    #[arg(long, value_name = "DIR", default_value = "fixtures/hard")]
    pub fixtures: PathBuf,
    /// (Re)write the fixture of every searched entry whose winner is at least as hard as the
    /// stored instance (the stored one competes as an incumbent).
    #[arg(long)]
    pub write_fixtures: bool,
}

/// `saddlefw tighten`.
pub fn cmd_tighten(args: TightenArgs) -> Result<i32> {
    let jobs = match args.jobs {
        Some(n) if n < 1 => {
            return Err(Error::invalid("--jobs", format!("must be at least 1, got {n}")))
        }
        n => n.map(|n| n as usize),
    };
    let cfg = SearchConfig {
        budget_s: args.budget,
        horizon: args.horizon,
        seed: args.seed,
        jobs,
        ..SearchConfig::default()
    };
    let table = crate::theorems::builtin();
    let incumbents = load_dir(&args.fixtures)?;
    println!(
        "{:<26} {:>6} {:>7} {:>17} {:>6} {:>9} {:<15} {:>7} note",
        "entry", "p", "p_hat", "ci", "evals", "confirmed", "family", "below"
    );
    let write = args.write_fixtures;
    let fixtures_dir = args.fixtures.clone();
    let mut done = |e: &TheoremEntry, r: &EntrySearch| -> Result<()> {
        match &r.winner {
            None => println!("{:<26} {:>6.3} no usable candidate", r.id, r.p),
            Some(w) => {
                let note = note(r.p, w.p_hat, Some((w.ci[0], w.ci[1])), w.tol);
                println!(
                    "{:<26} {:>6.3} {:>7.3} {:>17} {:>6} {:>9} {:<15} {:>7} {}",
                    r.id,
                    r.p,
                    w.p_hat,
                    format!("[{:.3}, {:.3}]", w.ci[0], w.ci[1]),
                    r.evaluations,
                    w.confirmed,
                    w.family,
                    r.below_rate.as_ref().map_or("-".to_string(), |b| format!("{:.3}", b.p_hat)),
                    note
                );
                if write {
                    std::fs::create_dir_all(&fixtures_dir)
                        .map_err(|e| Error::io(fixtures_dir.display().to_string(), e))?;
                    let fx = HardFixture::from_winner(e, w, r, &cfg);
                    let p = fixtures_dir.join(fixture_file(&e.id));
                    crate::trace::write_atomic(&p, fx.to_json().as_bytes())?;
                }
            }
        }
        use std::io::Write;
        let _ = std::io::stdout().flush();
        Ok(())
    };
    let results = search::search(&table, args.cases.as_deref(), &cfg, &incumbents, &mut done)?;
    std::fs::create_dir_all(&args.out).map_err(|e| Error::io(args.out.display().to_string(), e))?;
    let json = serde_json::json!({ "config": cfg, "entries": results });
    let path = args.out.join("tighten.json");
    crate::trace::write_atomic(&path, (serde_json::to_string_pretty(&json).expect("serialises") + "\n").as_bytes())?;
    println!("wrote {}", path.display());
    Ok(crate::cli::EXIT_OK)
}
