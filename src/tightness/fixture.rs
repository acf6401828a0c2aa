//! The stored hardest instances: `fixtures/hard/<entry-id with / replaced by ->.json`
//! (format `saddlefw-hard-v1`), written by `saddlefw tighten --write-fixtures` and read by
//! `verify`.

use super::note;
use super::search::{EntrySearch, SearchConfig, Winner};
use super::HardSpec;
use crate::theorems::TheoremEntry;
use crate::{Error, Result};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The `format` tag of `fixtures/hard/*.json`.
pub const FIXTURE_FORMAT: &str = "saddlefw-hard-v1";

/// How the stored instance was found.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SearchRecord {
    /// Budget per entry (seconds) and the time actually used (`elapsed_s` in fixtures
    /// written before issue 35: a varying field's name contains `time`).
    pub budget_s: f64,
    #[serde(alias = "elapsed_s")]
    pub elapsed_time_s: f64,
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
    /// Exponent at the confirmation horizon (module doc of `super::search`).
    pub confirm_horizon: u64,
    pub confirm_p_hat: Option<f64>,
    pub confirmed: bool,
    /// Worst quantity/envelope ratio (entries with an explicit envelope, claims.md Sec. 5).
    pub envelope_ratio: Option<f64>,
    /// True when the instance proves the paper wrong: slower than the rate at both horizons
    /// and above the detailed theorem's explicit envelope (`super::search::Winner::proves_violation`).
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
        let f: HardFixture = crate::files::parse_json(input, text, crate::files::JsonTop::Object)?;
        if f.format != FIXTURE_FORMAT {
            return Err(Error::input(
                input,
                "format",
                format!(
                    "unknown format {:?} (expected {FIXTURE_FORMAT:?})",
                    f.format
                ),
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
        let text = crate::files::read_text(path)?;
        Self::parse(&name, &text)
    }
    /// The fixture of a search winner.
    pub(crate) fn from_winner(
        entry: &TheoremEntry,
        w: &Winner,
        s: &EntrySearch,
        cfg: &SearchConfig,
    ) -> Self {
        let mut note = note(entry.p(), w.p_hat, Some((w.ci[0], w.ci[1])), w.tol);
        let below_rate = s
            .below_rate
            .as_ref()
            .filter(|b| !w.proves_violation() && b.params != w.params)
            .map(|b| BelowRate {
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
                elapsed_time_s: s.elapsed_time_s,
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
/// an empty map, for `tighten`'s first search; a malformed file is an error naming it).
pub fn load_dir(dir: &Path) -> Result<BTreeMap<String, HardFixture>> {
    let Ok(rd) = std::fs::read_dir(dir) else {
        return Ok(BTreeMap::new());
    };
    let mut paths: Vec<PathBuf> = rd
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    paths.sort();
    let mut files = Vec::new();
    for p in paths {
        let text = crate::files::read_text(&p)?;
        files.push((p.display().to_string(), text));
    }
    collect(files)
}

/// Parses `(path, text)` fixtures into a map keyed by entry id; each file must be named after
/// its entry ([`fixture_file`]).
fn collect(files: Vec<(String, String)>) -> Result<BTreeMap<String, HardFixture>> {
    let mut out = BTreeMap::new();
    for (path, text) in files {
        let f = HardFixture::parse(&path, &text)?;
        let want = fixture_file(&f.entry);
        if Path::new(&path).file_name().and_then(|n| n.to_str()) != Some(want.as_str()) {
            return Err(Error::input(
                path,
                "entry",
                format!("the fixture of {} must be named {want}", f.entry),
            ));
        }
        out.insert(f.entry.clone(), f);
    }
    Ok(out)
}

/// The fixtures of `fixtures/hard/` as they were when the binary was built (embedded by
/// build.rs), so the hard gates run from any working directory.
pub fn builtin() -> BTreeMap<String, HardFixture> {
    const FILES: &[(&str, &str)] = include!(concat!(env!("OUT_DIR"), "/hard_fixtures.rs"));
    collect(
        FILES
            .iter()
            .map(|(name, text)| (format!("fixtures/hard/{name}"), text.to_string()))
            .collect(),
    )
    .expect("the built-in hard fixtures are valid (tested)")
}

/// Where `verify` takes the stored hardest instances from.
#[derive(Debug, Clone, PartialEq)]
pub enum HardSource {
    /// The fixtures built into the binary (`builtin`): the default.
    Builtin,
    /// A directory of fixtures (`verify --hard DIR`); it must exist.
    Dir(PathBuf),
}

impl HardSource {
    /// The fixtures, keyed by entry id.
    pub fn load(&self) -> Result<BTreeMap<String, HardFixture>> {
        match self {
            HardSource::Builtin => Ok(builtin()),
            HardSource::Dir(d) if !d.is_dir() => Err(Error::input(
                d.display().to_string(),
                "--hard",
                "is not a directory (the stored hardest instances, fixtures/hard)",
            )),
            HardSource::Dir(d) => load_dir(d),
        }
    }

    /// The `saddlefw run --problem` value that rebuilds the stored hardest instance of
    /// `entry`: `hard:ENTRY` for the built-in fixtures (`HARD_PROBLEM_PREFIX`), the fixture
    /// file's path for a directory (`run --problem` reads a fixture file too).
    pub fn problem_spec(&self, entry: &str) -> String {
        match self {
            HardSource::Builtin => format!("{HARD_PROBLEM_PREFIX}{entry}"),
            HardSource::Dir(d) => d.join(fixture_file(entry)).display().to_string(),
        }
    }

    /// How reports name the fixture file `file`.
    pub(crate) fn path_of(&self, file: &str) -> String {
        match self {
            HardSource::Builtin => format!("fixtures/hard/{file}"),
            HardSource::Dir(d) => d.join(file).display().to_string(),
        }
    }
}

/// How `saddlefw run --problem` names a built-in stored hardest instance: this prefix and the
/// entry id, e.g. `hard:lmo-po/nc-c/dual` ([`HardSource::problem_spec`]).
pub const HARD_PROBLEM_PREFIX: &str = "hard:";

/// The stored hardest instance a `--problem` value names: `hard:ENTRY` (the built-in fixture
/// of ENTRY; an entry without one is an error listing those with one), or a JSON file's
/// `text` whose `format` is [`FIXTURE_FORMAT`] (`input` names it in errors). `Ok(None)`: the
/// value names no stored instance (a generator spec or a problem file).
///
/// ```
/// use saddlefw::tightness::problem_fixture;
/// let f = problem_fixture("hard:lmo-po/nc-c/dual", None).unwrap().unwrap();
/// assert_eq!(f.entry, "lmo-po/nc-c/dual");
/// assert!(problem_fixture("quadratic/c-c:dx=3,dy=2", None).unwrap().is_none());
/// let e = problem_fixture("hard:lmo-po/nc-c/dial", None).unwrap_err().to_string();
/// assert!(e.contains("no stored hardest instance") && e.contains("lmo-po/nc-c/dual"), "{e}");
/// ```
pub fn problem_fixture(arg: &str, text: Option<&str>) -> Result<Option<HardFixture>> {
    if let Some(entry) = arg.strip_prefix(HARD_PROBLEM_PREFIX) {
        let mut all = builtin();
        return match all.remove(entry) {
            Some(f) => Ok(Some(f)),
            None => Err(Error::input(
                "--problem",
                arg,
                format!(
                    "no stored hardest instance of entry {entry:?} is built in (entries with one: {})",
                    all.keys().cloned().collect::<Vec<_>>().join(", ")
                ),
            )),
        };
    }
    let Some(text) = text.filter(|t| t.contains(FIXTURE_FORMAT)) else {
        return Ok(None);
    };
    #[derive(Deserialize)]
    struct Format {
        format: Option<serde_json::Value>,
    }
    let body = crate::files::json_body(arg, text, crate::files::JsonTop::Object);
    let tagged = body
        .ok()
        .and_then(|b| serde_json::from_str::<Format>(b).ok())
        .is_some_and(|f| f.format.as_ref().and_then(|v| v.as_str()) == Some(FIXTURE_FORMAT));
    if tagged {
        HardFixture::parse(arg, text).map(Some)
    } else {
        Ok(None)
    }
}
