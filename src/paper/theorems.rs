//! The theorem table as data: one entry per (theorem case, bounded quantity) of claims.md
//! Sec. 3.1 (19 cases of `theorem:fw-fw-unified-nc-c-convergence`,
//! `theorem:fw-fw-unified-c-c-convergence`, `theorem:fw-proj-nc-c-unified-convergence`,
//! `theorem:fw-proj-c-c-unified-convergence`, `theorem:proj-fw-unified-nc-c-convergence`,
//! `theorem:proj-fw-unified-c-c-convergence`, each bounding a primal and a dual quantity: 38
//! entries), loaded from `fixtures/theorems.json` ([`table`], compiled in) and validated (every
//! error names the entry and the field). The default schedules of Algorithms 1-3 are read from
//! it ([`case_entry`]); [`crate::theorems`] turns runs into the bounded quantities.
//!
//! JSON fields of an entry (all required unless marked optional):
//!
//! | field | meaning |
//! |---|---|
//! | `id` | `case/primal` or `case/dual` |
//! | `case` | `algorithm/setting`, e.g. `lmo-lmo/nc-c` |
//! | `row` | row of claims.md Sec. 3.1 (1..19) |
//! | `algorithm` | `lmo-lmo` (`alg:fw-fw`), `lmo-po` (`alg:fw-proj`), `po-lmo` (`alg:proj-fw`) |
//! | `setting` | `nc-c`, `nc-sc`, `c-c`, `c-sc`, optionally `+sc` (Y strongly convex) |
//! | `assumptions` | exactly those the setting implies, among `A1`, `mu>0`, `A2`, `A3` |
//! | `schedule` | `{a, b, C}`: `tau_t = (t+1)^-a`, `beta_t = C (t+1)^-b` (`eq:fw-fw-stepsize`, `eq:fw-proj-stepsize`; C = 0 means beta_t = 0); or `{kind: "po-lmo-appendix", factor, A, a, b, C}` (claims.md 2.3, D11) |
//! | `quantity` | `{measure, aggregate, sigma?}` (see [`Measure`], [`Aggregate`]) |
//! | `quantity_text` | the same in words |
//! | `p` | main-text exponent `{frac, value}`: the theorem says `quantity = O(T^-p)` |
//! | `p_detailed` | optional: a faster exponent the detailed theorem proves (D3) |
//! | `log_factor` | tilde-O, or a log factor the proofs need (D1, D2, D5, D6, D7) |
//! | `log_power` | power k of `log T` on the rate-determining term of the detailed bound (0 if none) |
//! | `label` | main theorem label, item, item label |
//! | `detailed` | appendix theorem with the detailed bound |
//! | `notes` | claims.md disagreements (`D1`..`D22`) and typo items (`S7.n`) that apply |
//! | `T_min` | smallest T the theorem speaks about |
//! | `mhat` | `{of: "h" or "quantity", c, log_power, lemma}` or null: the empirical-constant check (see `envelopes`) |
//! | `disputed` | optional `{reason, evidence}`: the paper is shown wrong on this entry |
//!

//!
//! ```
//! use saddlefw::paper::theorems::{case_entry, table};
//! use saddlefw::paper::Algorithm;
//! assert_eq!(table().len(), 38);
//! let e = case_entry(Algorithm::LmoPo, "c-c".parse().unwrap()).unwrap();
//! assert_eq!((e.row, e.schedule.abc()), (11, (1.0, 1.0 / 3.0, 1.0)));
//! // LMO-PO has no strongly-convex-Y case: the table has no entry for it
//! assert!(case_entry(Algorithm::LmoPo, "c-c+sc".parse().unwrap()).is_none());
//! ```

use super::formula::Formula;
pub use super::measure::Measure;
use super::{Algorithm, Assumption, EntryAlgorithm, Setting};
use crate::error::{Error, Result};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use std::collections::BTreeSet;
use std::path::Path;
use std::str::FromStr;
use std::sync::OnceLock;

/// How the per-iterate measure becomes the bounded quantity at horizon T (claims.md Sec. 3).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Aggregate {
    /// `(1/(T+1)) sum_{t=0}^T m_t`.
    #[serde(rename = "mean_0_T")]
    Mean0T,
    /// `(1/T) sum_{t=1}^T m_t` (LMO-PO theorems), T >= 1.
    #[serde(rename = "mean_1_T")]
    Mean1T,
    /// `m_T` (last iterate).
    #[serde(rename = "last")]
    Last,
    /// `(1/(T+1)) sum_{t=0}^T G^Opt(x_{t+1})`: the appendix form of the PO-LMO convex
    /// theorems (`lemma:proj-fw-convex-bound`, D10); needs the iterate T+1.
    #[serde(rename = "mean_opt_next_0_T")]
    MeanOptNext0T,
    /// `min_{t=0..T} m_t` (best iterate so far; user entries).
    #[serde(rename = "min_0_T")]
    Min0T,
}

/// The step size sigma in `G_X^PO`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Sigma {
    /// `sigma = tau_0` (`theorem:proj-fw-unified-nc-c-convergence`).
    #[serde(rename = "tau0")]
    Tau0,
}

/// The bounded quantity of an entry.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Quantity {
    pub measure: Measure,
    pub aggregate: Aggregate,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sigma: Option<Sigma>,
}

/// An exponent, kept both exact (`"1/6"`) and as a float.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Exponent {
    pub frac: String,
    pub value: f64,
}

impl Exponent {
    /// Parses `"n/d"` or `"n"` (n >= 0, d > 0) into a float.
    pub fn parse_frac(s: &str) -> Option<f64> {
        let (n, d) = match s.split_once('/') {
            Some((n, d)) => (n.trim().parse::<u32>().ok()?, d.trim().parse::<u32>().ok()?),
            None => (s.trim().parse::<u32>().ok()?, 1),
        };
        (d > 0).then(|| n as f64 / d as f64)
    }
}

/// Schedule kind marker for the PO-LMO appendix schedule.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum ScheduleKind {
    #[serde(rename = "po-lmo-appendix")]
    PoLmoAppendix,
}

/// `tau_t = (t+1)^-a`, `beta_t = C (t+1)^-b` (`eq:fw-fw-stepsize`, `eq:fw-proj-stepsize`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PolySchedule {
    pub a: f64,
    pub b: f64,
    #[serde(rename = "C")]
    pub c: f64,
}

/// The schedule of `theorem:proj-fw-convergence` and siblings (claims.md 2.3, D11):
/// `tau_t = factor [A (t+1)^a + 5 Lxx/2 + 13 Lyx^2 (t+1)^b/(2C)]^-1`, `beta_t = C (t+1)^-b`.
/// With C = 0 the last bracket term is undefined in the paper; we use `13 Lyx^2/(2 mu)`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PoLmoSchedule {
    pub kind: ScheduleKind,
    pub factor: f64,
    #[serde(rename = "A")]
    pub big_a: f64,
    pub a: f64,
    pub b: f64,
    #[serde(rename = "C")]
    pub c: f64,
}

/// The parameter schedule a theorem analyses, as the table writes it. It is data only: the
/// values `tau_t`, `beta_t` come from ONE implementation, the solvers' [`crate::solvers::Schedule`],
/// through [`ScheduleSpec::resolve`].
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(untagged)]
pub enum ScheduleSpec {
    PoLmoAppendix(PoLmoSchedule),
    Poly(PolySchedule),
}

/// An object with `kind` is the PO-LMO appendix form, any other the `{a, b, C}` form: a typo
/// is reported by the form meant (`unknown field "bb"`), not as "no variant matched".
impl<'de> Deserialize<'de> for ScheduleSpec {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        let v = serde_json::Value::deserialize(d)?;
        let spec = if v.get("kind").is_some() {
            PoLmoSchedule::deserialize(v).map(ScheduleSpec::PoLmoAppendix)
        } else {
            PolySchedule::deserialize(v).map(ScheduleSpec::Poly)
        };
        spec.map_err(|e| {
            serde::de::Error::custom(format!(
                "{e} (a schedule is {{\"a\": .., \"b\": .., \"C\": ..}}, or the PO-LMO appendix form with \"kind\", \"factor\", \"A\", \"a\", \"b\", \"C\")"
            ))
        })
    }
}

impl ScheduleSpec {
    /// `(a, b, C)`.
    pub fn abc(&self) -> (f64, f64, f64) {
        match self {
            ScheduleSpec::Poly(s) => (s.a, s.b, s.c),
            ScheduleSpec::PoLmoAppendix(s) => (s.a, s.b, s.c),
        }
    }
}

/// A claims.md note that applies to an entry.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Note {
    pub id: String,
    pub text: String,
}

/// What the empirical constant `M_hat(T) = max_{t<=T} v_t (t+1)^c / log(t+2)^k` is built from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MhatOf {
    /// `H_t` (`eq:H_t`): the existential constants M_1..M_4 of `lemma:compact-ht`,
    /// `lemma:compact-sc-ht` (LMO-LMO).
    H,
    /// The bounded quantity itself: the O(.) constant of a theorem stated only with O(.)
    /// (PO-LMO, D12).
    Quantity,
}

/// The empirical-constant check of an entry (claims.md Sec. 5, "existential constants").
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Mhat {
    pub of: MhatOf,
    pub c: Exponent,
    pub log_power: f64,
    pub lemma: String,
}

/// Marks an entry on which the paper has been shown wrong (with evidence); its verdict is
/// "disputed" instead of a silent relaxation.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Disputed {
    pub reason: String,
    pub evidence: String,
}

/// Which of the two quantities of a case an entry bounds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Side {
    Primal,
    Dual,
}

/// Which closed-form bound of claims.md Sec. 5 an entry's envelope evaluates (its chain of
/// lemmas is in the internal `envelopes` module): the table's `bound` field.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EnvelopeKind {
    Alg1NcPrimal,
    Alg1ConvexPrimal,
    Alg1Dual,
    Alg2Dual,
    Alg2NcPrimal,
    Alg2ConvexPrimal,
    Alg2ConvexScPrimal,
}

impl EnvelopeKind {
    /// The algorithm and side the bound is about.
    pub(crate) fn of_case(self) -> (Algorithm, Side) {
        use EnvelopeKind::*;
        match self {
            Alg1NcPrimal | Alg1ConvexPrimal => (Algorithm::LmoLmo, Side::Primal),
            Alg1Dual => (Algorithm::LmoLmo, Side::Dual),
            Alg2Dual => (Algorithm::LmoPo, Side::Dual),
            Alg2NcPrimal | Alg2ConvexPrimal | Alg2ConvexScPrimal => {
                (Algorithm::LmoPo, Side::Primal)
            }
        }
    }
}

/// One (theorem case, bounded quantity).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct TheoremEntry {
    pub id: String,
    pub case: String,
    pub row: u32,
    pub algorithm: EntryAlgorithm,
    pub setting: String,
    pub assumptions: Vec<Assumption>,
    pub schedule: ScheduleSpec,
    pub quantity: Quantity,
    pub quantity_text: String,
    pub p: Exponent,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub p_detailed: Option<Exponent>,
    pub log_factor: bool,
    pub log_power: f64,
    pub label: String,
    pub detailed: String,
    pub notes: Vec<Note>,
    #[serde(rename = "T_min")]
    pub t_min: u64,
    pub mhat: Option<Mhat>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub disputed: Option<Disputed>,
    /// The closed-form bound of claims.md Sec. 5 for this entry (required for LMO-LMO and
    /// LMO-PO entries of the built-in table; none for PO-LMO and user entries).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bound: Option<EnvelopeKind>,
    /// A user entry's explicit envelope ([`crate::paper::user`]); the built-in envelopes live
    /// in the internal `envelopes` module.
    #[serde(
        skip_serializing_if = "Option::is_none",
        serialize_with = "formula_text"
    )]
    pub envelope: Option<Formula>,
}

fn formula_text<S: serde::Serializer>(
    f: &Option<Formula>,
    s: S,
) -> std::result::Result<S::Ok, S::Error> {
    match f {
        Some(f) => s.serialize_str(f.text()),
        None => s.serialize_none(),
    }
}

const FIELDS: [&str; 20] = [
    "id",
    "case",
    "row",
    "algorithm",
    "setting",
    "assumptions",
    "schedule",
    "quantity",
    "quantity_text",
    "p",
    "p_detailed",
    "log_factor",
    "log_power",
    "label",
    "detailed",
    "notes",
    "T_min",
    "mhat",
    "disputed",
    "bound",
];

impl TheoremEntry {
    /// The main-text exponent p.
    pub fn p(&self) -> f64 {
        self.p.value
    }
    /// Primal or dual quantity (from the id suffix, validated at load).
    pub fn side(&self) -> Side {
        if self.id.ends_with("/dual") {
            Side::Dual
        } else {
            Side::Primal
        }
    }
    /// The setting as a typed value (validated at load).
    pub fn setting(&self) -> Setting {
        Setting::from_str(&self.setting).expect("setting validated at load")
    }
    /// Whether the entry requires `a`.
    pub fn requires(&self, a: Assumption) -> bool {
        self.assumptions.contains(&a)
    }
    /// The paper labels cited in `label` (the main theorem and the item label).
    pub fn cited_labels(&self) -> Vec<&str> {
        self.label
            .split_whitespace()
            .filter(|w| w.contains(':'))
            .chain(std::iter::once(self.detailed.as_str()))
            .collect()
    }
    /// True when the entry's theorem is marked as shown wrong.
    pub(crate) fn is_disputed(&self) -> bool {
        self.disputed.is_some()
    }
}

/// Validates one JSON value as an entry; `input` names the file for errors.
fn parse_entry(input: &str, index: usize, v: &serde_json::Value) -> Result<TheoremEntry> {
    let obj = v
        .as_object()
        .ok_or_else(|| Error::input(input, format!("entry {index}"), "expected a JSON object"))?;
    let name = obj
        .get("id")
        .and_then(|s| s.as_str())
        .map(|s| format!("entry {index} ({s})"))
        .unwrap_or_else(|| format!("entry {index}"));
    let at = |field: &str| format!("{name}: field {field}");
    let bad = |field: &str, reason: String| Error::input(input, at(field), reason);
    for k in obj.keys() {
        if !FIELDS.contains(&k.as_str()) {
            return Err(bad(k, "unknown field".into()));
        }
    }
    fn get<T: DeserializeOwned>(
        obj: &serde_json::Map<String, serde_json::Value>,
        field: &str,
        optional: bool,
        bad: &dyn Fn(&str, String) -> Error,
    ) -> Result<Option<T>> {
        match obj.get(field) {
            None if optional => Ok(None),
            None => Err(bad(field, "missing".into())),
            Some(v) => serde_json::from_value(v.clone())
                .map(Some)
                .map_err(|e| bad(field, e.to_string())),
        }
    }
    macro_rules! req {
        ($f:expr) => {
            get(obj, $f, false, &bad)?.expect("required field")
        };
    }
    macro_rules! opt {
        ($f:expr) => {
            get(obj, $f, true, &bad)?
        };
    }
    let alg: Algorithm = req!("algorithm");
    let e = TheoremEntry {
        id: req!("id"),
        case: req!("case"),
        row: req!("row"),
        algorithm: EntryAlgorithm::Paper(alg),
        setting: req!("setting"),
        assumptions: req!("assumptions"),
        schedule: req!("schedule"),
        quantity: req!("quantity"),
        quantity_text: req!("quantity_text"),
        p: req!("p"),
        p_detailed: opt!("p_detailed"),
        log_factor: req!("log_factor"),
        log_power: req!("log_power"),
        label: req!("label"),
        detailed: req!("detailed"),
        notes: req!("notes"),
        t_min: req!("T_min"),
        mhat: req!("mhat"),
        disputed: opt!("disputed"),
        bound: opt!("bound"),
        envelope: None,
    };
    validate(&e, alg).map_err(|(field, reason)| bad(field, reason))?;
    Ok(e)
}

/// Checks an exponent: the fraction parses, the float matches it, the value is positive.
fn check_exponent(x: &Exponent) -> std::result::Result<(), String> {
    let v = Exponent::parse_frac(&x.frac).ok_or(format!("cannot parse fraction {:?}", x.frac))?;
    if !(x.value.is_finite() && x.value > 0.0) {
        return Err(format!("value {} must be finite and positive", x.value));
    }
    if (v - x.value).abs() > 1e-12 {
        return Err(format!("value {} does not equal {} = {v}", x.value, x.frac));
    }
    Ok(())
}

/// Whether a note id refers to claims.md: `D1`..`D22` or a Sec. 7 item `S7.1`..`S7.33`.
fn valid_note_id(id: &str) -> bool {
    let num = |s: &str, hi: u32| s.parse::<u32>().is_ok_and(|n| (1..=hi).contains(&n));
    match (id.strip_prefix('D'), id.strip_prefix("S7.")) {
        (Some(n), _) => num(n, 22),
        (_, Some(n)) => num(n, 33),
        _ => false,
    }
}

/// Semantic validation of one entry: `Err((field, reason))`.
/// A rule of the table broken by an entry: the field and the reason.
type Broken = std::result::Result<(), (&'static str, String)>;

fn validate(e: &TheoremEntry, alg: Algorithm) -> Broken {
    let setting = Setting::from_str(&e.setting).map_err(|err| ("setting", err.to_string()))?;
    validate_identity(e, alg, setting)?;
    // Assumptions: exactly the ones the setting implies.
    let want = setting.assumptions();
    let have: BTreeSet<_> = e.assumptions.iter().copied().collect();
    if have.len() != e.assumptions.len() || have != want.iter().copied().collect() {
        return Err((
            "assumptions",
            format!(
                "{:?} should be {want:?} for setting {}",
                e.assumptions, e.setting
            ),
        ));
    }
    validate_schedule(e, alg, setting)?;
    validate_quantity(e, alg, setting)?;
    validate_labels(e)?;
    validate_checks(e, alg)
}

/// id, case, row, algorithm and setting agree.
fn validate_identity(e: &TheoremEntry, alg: Algorithm, setting: Setting) -> Broken {
    // id, case, row, algorithm agree.
    let case = format!("{}/{}", alg.name(), e.setting);
    if e.case != case {
        return Err(("case", format!("{:?} should be {case:?}", e.case)));
    }
    let side = e.id.strip_prefix(&format!("{case}/"));
    if !matches!(side, Some("primal") | Some("dual")) {
        return Err((
            "id",
            format!("{:?} should be {case}/primal or {case}/dual", e.id),
        ));
    }
    if !alg.rows().contains(&e.row) {
        return Err((
            "row",
            format!(
                "{} is not a row of {} ({:?})",
                e.row,
                alg.name(),
                alg.rows()
            ),
        ));
    }
    match alg {
        Algorithm::LmoPo if setting.sc_y => {
            return Err((
                "setting",
                "LMO-PO has no strongly-convex-Y cases (PO on Y)".into(),
            ))
        }
        Algorithm::PoLmo if setting.sc_y && setting.convex && !setting.strongly_concave => {
            return Err((
                "setting",
                "PO-LMO has no C-C + SC Y case (remark L668)".into(),
            ))
        }
        _ => {}
    }
    Ok(())
}

/// The schedule's exponents, `C`, and its form for the algorithm.
fn validate_schedule(e: &TheoremEntry, alg: Algorithm, setting: Setting) -> Broken {
    // Schedule.
    let (a, b, c) = e.schedule.abc();
    let finite = [a, b, c].iter().all(|v| v.is_finite());
    if !(finite && a > 0.0 && a <= 1.0 && (0.0..1.0).contains(&b) && c >= 0.0) {
        return Err((
            "schedule",
            format!("need 0 < a <= 1, 0 <= b < 1, C >= 0 (a={a}, b={b}, C={c})"),
        ));
    }
    if (c == 0.0) != (b == 0.0) {
        return Err((
            "schedule",
            "beta_t = 0 is written as C = 0 and b = 0 together".into(),
        ));
    }
    if (c == 0.0) != setting.strongly_concave {
        return Err((
            "schedule",
            format!("the main text uses beta_t = 0 exactly in the mu > 0 cases (C = {c})"),
        ));
    }
    match (&e.schedule, alg) {
        (ScheduleSpec::Poly(_), Algorithm::LmoLmo | Algorithm::LmoPo) => {}
        (ScheduleSpec::PoLmoAppendix(s), Algorithm::PoLmo) => {
            let want = if setting.sc_y { 0.75 } else { 0.2 };
            if s.factor != want {
                return Err((
                    "schedule",
                    format!("factor {} should be {want} (claims.md 2.3)", s.factor),
                ));
            }
            if !(s.big_a.is_finite() && s.big_a > 0.0) || a >= 1.0 {
                return Err((
                    "schedule",
                    "the PO-LMO schedule needs A > 0 and 0 < a < 1".into(),
                ));
            }
        }
        _ => {
            return Err((
                "schedule",
                format!("schedule form does not match algorithm {}", alg.name()),
            ))
        }
    }
    Ok(())
}

/// The quantity, its exponent p and its log factor.
fn validate_quantity(e: &TheoremEntry, alg: Algorithm, setting: Setting) -> Broken {
    // Quantity.
    let q = &e.quantity;
    match (q.measure, q.sigma) {
        (Measure::GxPo, Some(Sigma::Tau0)) if alg == Algorithm::PoLmo => {}
        (Measure::GxPo, _) => {
            return Err((
                "quantity",
                "G_X^PO is measured for PO-LMO with sigma = tau0".into(),
            ))
        }
        (_, Some(_)) => return Err(("quantity", "sigma only applies to gx_po".into())),
        (Measure::GxLmo, None) if alg == Algorithm::PoLmo => {
            return Err((
                "quantity",
                "PO-LMO theorems bound G_X^PO, not G_X^LMO".into(),
            ))
        }
        (Measure::GapOpt, None) if !setting.convex => {
            return Err(("quantity", "G^Opt is bounded only under A3".into()))
        }
        _ => {}
    }
    if (q.aggregate == Aggregate::MeanOptNext0T)
        != (q.measure == Measure::GapOpt && alg == Algorithm::PoLmo)
    {
        return Err((
            "quantity",
            "mean_opt_next_0_T is the PO-LMO convex G^Opt average (D10) and only that".into(),
        ));
    }
    if e.quantity_text.trim().is_empty() {
        return Err(("quantity_text", "empty".into()));
    }
    check_exponent(&e.p).map_err(|r| ("p", r))?;
    if let Some(pd) = &e.p_detailed {
        check_exponent(pd).map_err(|r| ("p_detailed", r))?;
        if pd.value <= e.p.value {
            return Err(("p_detailed", "must be faster than the main-text p".into()));
        }
    }
    if !(e.log_power.is_finite() && e.log_power >= 0.0) {
        return Err((
            "log_power",
            format!("{} must be finite and >= 0", e.log_power),
        ));
    }
    if e.log_power > 0.0 && !e.log_factor {
        return Err((
            "log_power",
            "a positive log power needs log_factor = true".into(),
        ));
    }
    Ok(())
}

/// The theorem labels.
fn validate_labels(e: &TheoremEntry) -> Broken {
    // Labels.
    let item = format!(":{}", e.setting);
    let words: Vec<&str> = e.label.split_whitespace().collect();
    let ok_label = words.len() == 3
        && words[0].starts_with("theorem:")
        && words[1].starts_with('(')
        && words[1].ends_with(')')
        && words[2].ends_with(&item);
    if !ok_label {
        return Err((
            "label",
            format!(
                "{:?} should read 'theorem:... (item) prefix{item}'",
                e.label
            ),
        ));
    }
    if !e.detailed.starts_with("theorem:") || e.detailed.contains(char::is_whitespace) {
        return Err((
            "detailed",
            format!("{:?} is not a theorem label", e.detailed),
        ));
    }
    Ok(())
}

/// Notes, `T_min`, the mhat check and the dispute record.
fn validate_checks(e: &TheoremEntry, alg: Algorithm) -> Broken {
    let mut seen = BTreeSet::new();
    for n in &e.notes {
        if !valid_note_id(&n.id) || !seen.insert(n.id.as_str()) || n.text.trim().is_empty() {
            return Err(("notes", format!("bad, repeated or empty note {:?}", n.id)));
        }
    }
    if e.t_min > 1 {
        return Err((
            "T_min",
            format!("{} (the theorems start at T = 0 or 1)", e.t_min),
        ));
    }
    if e.quantity.aggregate == Aggregate::Mean1T && e.t_min < 1 {
        return Err(("T_min", "a (1/T) average needs T_min = 1".into()));
    }
    match (&e.mhat, alg) {
        (Some(m), _) => {
            check_exponent(&m.c).map_err(|r| ("mhat", format!("c: {r}")))?;
            if !(m.log_power.is_finite() && m.log_power >= 0.0) || m.lemma.trim().is_empty() {
                return Err(("mhat", "needs log_power >= 0 and a lemma".into()));
            }
            let want = if alg == Algorithm::LmoLmo {
                MhatOf::H
            } else {
                MhatOf::Quantity
            };
            if m.of != want {
                return Err(("mhat", format!("of should be {want:?} for {}", alg.name())));
            }
        }
        (None, Algorithm::LmoPo) => {}
        (None, _) => {
            return Err(("mhat", "existential constants need an mhat check".into()));
        }
    }
    match (e.bound, alg) {
        (Some(b), _) if b.of_case() != (alg, e.side()) => {
            return Err((
                "bound",
                format!("{b:?} is a bound of another algorithm or side"),
            ))
        }
        (None, Algorithm::LmoLmo | Algorithm::LmoPo) => {
            return Err(("bound", "missing: name the claims.md Sec. 5 bound".into()))
        }
        _ => {}
    }
    if let Some(d) = &e.disputed {
        if d.reason.trim().is_empty() || d.evidence.trim().is_empty() {
            return Err((
                "disputed",
                "a disputed entry needs a reason and evidence".into(),
            ));
        }
    }
    Ok(())
}

/// Parses and validates a table from JSON text; `input` names the source in errors.
pub fn parse_table(input: &str, text: &str) -> Result<Vec<TheoremEntry>> {
    let v: serde_json::Value = crate::files::parse_json(input, text, crate::files::JsonTop::Array)?;
    let arr = v
        .as_array()
        .ok_or_else(|| Error::input(input, "top level", "expected a JSON array of entries"))?;
    if arr.is_empty() {
        return Err(Error::input(input, "top level", "the table is empty"));
    }
    let mut ids = BTreeSet::new();
    let mut out = Vec::with_capacity(arr.len());
    for (i, v) in arr.iter().enumerate() {
        let e = parse_entry(input, i, v)?;
        if !ids.insert(e.id.clone()) {
            return Err(Error::input(
                input,
                format!("entry {i} ({}): field id", e.id),
                "duplicate id",
            ));
        }
        out.push(e);
    }
    Ok(out)
}

/// Loads and validates a table file.
pub fn load_table(path: &Path) -> Result<Vec<TheoremEntry>> {
    let text = crate::files::read_text(path)?;
    parse_table(&path.display().to_string(), &text)
}

/// The table shipped in `fixtures/theorems.json` (compiled in, parsed once).
pub fn table() -> &'static [TheoremEntry] {
    static TABLE: OnceLock<Vec<TheoremEntry>> = OnceLock::new();
    TABLE.get_or_init(|| {
        parse_table(
            "fixtures/theorems.json",
            include_str!("../../fixtures/theorems.json"),
        )
        .expect("the built-in theorem table is valid (tested)")
    })
}

/// An owned copy of [`table`].
pub fn builtin() -> Vec<TheoremEntry> {
    table().to_vec()
}

/// The first entry of the built-in table's case `algorithm/setting` (both entries of a case
/// share its schedule and label), if the table has that case.
pub fn case_entry(algorithm: Algorithm, setting: Setting) -> Option<&'static TheoremEntry> {
    table()
        .iter()
        .find(|e| e.algorithm == algorithm && e.setting() == setting)
}
