//! User theorem entries: rates the paper does not state, for any algorithm, gated by the same
//! machinery as the built-in table ([`super::theorems`]). Loaded by `verify --theorems FILE`
//! and [`crate::gate::RateCheck::theorems_file`]; every error names the file, the entry and the
//! field, and the command exits 2.
//!
//! # Format `saddlefw-theorems` version 1
//! ```json
//! {"format": "saddlefw-theorems", "version": 1, "entries": [
//!   {"id": "fw-slow/c-sc/primal", "algorithm": "fw-slow", "solver": "lmo-lmo",
//!    "setting": "c-sc", "schedule": {"a": 0.5, "b": 0.25, "C": 1},
//!    "quantity": {"measure": "gx_lmo", "aggregate": "mean_0_T"},
//!    "p": "1/4", "log_power": 0, "T_min": 1,
//!    "envelope": "4 * (Lxx*Dx^2 + Lyx*Dx*Dy) * (T+1)^(-1/4)",
//!    "label": "our note, Prop. 2"}]}
//! ```
//!
//! ```
//! // one JSON entry, no code: a new claim about an existing algorithm
//! let text = r#"{"format": "saddlefw-theorems", "version": 1, "entries": [
//!   {"id": "fw-slow/c-sc/primal", "algorithm": "fw-slow", "solver": "lmo-lmo",
//!    "setting": "c-sc", "schedule": {"a": 0.5, "b": 0.25, "C": 1},
//!    "quantity": {"measure": "gx_lmo", "aggregate": "mean_0_T"}, "p": "1/4"}]}"#;
//! let entries = saddlefw::paper::user::parse("mine.json", text).unwrap();
//! assert_eq!((entries.len(), entries[0].id.as_str()), (1, "fw-slow/c-sc/primal"));
//! let e = saddlefw::paper::user::parse("bad.json", &text.replace("1/4", "-1")).unwrap_err();
//! assert!(e.to_string().contains("bad.json"), "{e}");
//! ```
//!
//! | field | required | meaning |
//! |---|---|---|
//! | `id` | yes | unique name of the entry (letters, digits, `._/+-`); the suffix `/dual` marks a dual quantity |
//! | `algorithm` | yes | any name (same characters); entries of one `algorithm`/`setting` form a case and share one schedule |
//! | `solver` | no | `lmo-lmo`, `lmo-po` or `po-lmo`: the crate's implementation `verify` runs with the entry's schedule when no solver of yours is given (default: `algorithm` when it is one of these) |
//! | `setting` | yes | `nc-c`, `nc-sc`, `c-c`, `c-sc`, optionally `+sc` (claims.md 1.2) |
//! | `assumptions` | no | if given, exactly those the setting implies |
//! | `schedule` | yes | `{a, b, C}`: `tau_t = (t+1)^-a` with `0 <= a <= 1`, `beta_t = C (t+1)^-b` (`C = 0`: no smoothing), as `eq:fw-fw-stepsize`; or the PO-LMO appendix form of the built-in table |
//! | `quantity` | yes | `{measure, aggregate}`: measure `gx_lmo`, `gx_po`, `gy`, `gy_lmo`, `gap_opt`, `h`; aggregate `last`, `mean_0_T`, `mean_1_T`, `min_0_T`; optional `sigma: "tau0"` for `gx_po` (default sigma 1) |
//! | `p` | yes | claimed exponent: `quantity = O(T^-p)`, a fraction `"1/4"` or a positive number |
//! | `log_power` | no | power k of a `log T` factor in the claim (default 0) |
//! | `T_min` | no | smallest T the claim speaks about (default 1) |
//! | `envelope` | no | an explicit bound `quantity_T <= envelope(T)` ([`super::formula`]) over `T`, `Lxx`, `Lyx`, `Lyy`, `mu`, `Dx`, `Dy`, `a`, `b`, `C`; gated like the built-in envelopes |
//! | `label` | no | where the claim comes from |
//!
//! ```
//! use saddlefw::paper::user;
//! let text = r#"{"format": "saddlefw-theorems", "version": 1, "entries": [
//!   {"id": "my-fw/c-sc/primal", "algorithm": "my-fw", "setting": "c-sc",
//!    "schedule": {"a": 0.5, "b": 0, "C": 0},
//!    "quantity": {"measure": "gx_lmo", "aggregate": "min_0_T"}, "p": "1/2"}]}"#;
//! let e = &user::parse("mine.json", text).unwrap()[0];
//! assert_eq!((e.case.as_str(), e.p(), e.algorithm.solver()), ("my-fw/c-sc", 0.5, None));
//! // errors name the file, the entry and the field
//! let bad = text.replace("\"1/2\"", "\"fast\"");
//! let err = user::parse("mine.json", &bad).unwrap_err().to_string();
//! assert!(err.starts_with("mine.json: entry 0 (my-fw/c-sc/primal): field p: "), "{err}");
//! ```

use super::formula::Formula;
use super::theorems::{Aggregate, Exponent, Measure, Quantity, ScheduleSpec, TheoremEntry};
use super::{Algorithm, EntryAlgorithm, Setting};
use crate::error::{Error, Result};
use serde_json::{Map, Value};
use std::collections::BTreeMap;
use std::str::FromStr;

/// The `format` value of a user theorem file.
pub const FORMAT: &str = "saddlefw-theorems";
/// The version this build reads.
pub const VERSION: u64 = 1;
/// The variables an envelope formula may use.
pub const ENVELOPE_VARS: [&str; 10] = ["T", "Lxx", "Lyx", "Lyy", "mu", "Dx", "Dy", "a", "b", "C"];

const FIELDS: [&str; 13] = [
    "id",
    "algorithm",
    "solver",
    "setting",
    "assumptions",
    "schedule",
    "quantity",
    "p",
    "log_power",
    "T_min",
    "envelope",
    "label",
    "notes",
];

/// Reads a user theorem file.
pub fn load(path: &std::path::Path) -> Result<Vec<TheoremEntry>> {
    let input = path.display().to_string();
    let text = std::fs::read_to_string(path)
        .map_err(|e| Error::input(&input, "file", format!("cannot read: {e}")))?;
    parse(&input, &text)
}

/// Parses the text of a user theorem file; `input` names it in errors.
pub fn parse(input: &str, text: &str) -> Result<Vec<TheoremEntry>> {
    let v: Value = serde_json::from_str(text.trim_start_matches('\u{feff}')).map_err(|e| {
        Error::input(
            input,
            format!("line {}, column {}", e.line(), e.column()),
            e.to_string(),
        )
    })?;
    let top = v
        .as_object()
        .ok_or_else(|| Error::input(input, "top level", "expected a JSON object"))?;
    for k in top.keys() {
        if !["format", "version", "entries"].contains(&k.as_str()) {
            return Err(Error::input(
                input,
                format!("field {k}"),
                "unknown field (expected format, version, entries)",
            ));
        }
    }
    if top.get("format").and_then(Value::as_str) != Some(FORMAT) {
        return Err(Error::input(
            input,
            "field format",
            format!("must be {FORMAT:?}"),
        ));
    }
    match top.get("version").and_then(Value::as_u64) {
        Some(VERSION) => {}
        other => {
            return Err(Error::input(
                input,
                "field version",
                format!("this build reads version {VERSION}, not {other:?}"),
            ))
        }
    }
    let list = top
        .get("entries")
        .and_then(Value::as_array)
        .ok_or_else(|| Error::input(input, "field entries", "expected an array of entries"))?;
    if list.is_empty() {
        return Err(Error::input(input, "field entries", "no entries"));
    }
    let mut out: Vec<TheoremEntry> = Vec::with_capacity(list.len());
    let mut schedules: BTreeMap<String, (usize, ScheduleSpec)> = BTreeMap::new();
    for (i, v) in list.iter().enumerate() {
        let e = parse_entry(input, i, v)?;
        let at = |field: &str| format!("entry {i} ({}): field {field}", e.id);
        if out.iter().any(|o| o.id == e.id) || super::theorems::table().iter().any(|o| o.id == e.id)
        {
            return Err(Error::input(
                input,
                at("id"),
                "already used (ids are unique, the built-in ones included)",
            ));
        }
        match schedules.get(&e.case) {
            Some((j, s)) if *s != e.schedule => {
                return Err(Error::input(
                    input,
                    at("schedule"),
                    format!(
                        "entry {j} of the same case {} has another schedule (a case is one run)",
                        e.case
                    ),
                ))
            }
            _ => {
                schedules.insert(e.case.clone(), (i, e.schedule.clone()));
            }
        }
        out.push(e);
    }
    Ok(out)
}

fn valid_name(s: &str) -> bool {
    !s.is_empty()
        && s.len() <= 120
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || "._/+-".contains(c))
}

fn parse_entry(input: &str, index: usize, v: &Value) -> Result<TheoremEntry> {
    let obj = v
        .as_object()
        .ok_or_else(|| Error::input(input, format!("entry {index}"), "expected a JSON object"))?;
    let name = match obj.get("id").and_then(Value::as_str) {
        Some(s) => format!("entry {index} ({s})"),
        None => format!("entry {index}"),
    };
    let bad =
        |field: &str, reason: String| Error::input(input, format!("{name}: field {field}"), reason);
    for k in obj.keys() {
        if !FIELDS.contains(&k.as_str()) {
            return Err(bad(
                k,
                format!("unknown field (known: {})", FIELDS.join(", ")),
            ));
        }
    }
    let text = |field: &str, required: bool| -> Result<Option<String>> {
        match obj.get(field) {
            None if !required => Ok(None),
            None => Err(bad(field, "missing".into())),
            Some(Value::String(s)) => Ok(Some(s.clone())),
            Some(_) => Err(bad(field, "expected a string".into())),
        }
    };
    let id = text("id", true)?.unwrap_or_default();
    if !valid_name(&id) {
        return Err(bad("id", "use 1-120 letters, digits or ._/+-".into()));
    }
    let algorithm = text("algorithm", true)?.unwrap_or_default();
    if !valid_name(&algorithm) {
        return Err(bad(
            "algorithm",
            "use 1-120 letters, digits or ._/+-".into(),
        ));
    }
    let solver = match text("solver", false)? {
        Some(s) => Some(Algorithm::parse(&s).ok_or_else(|| {
            bad(
                "solver",
                format!("{s:?} is not one of lmo-lmo, lmo-po, po-lmo"),
            )
        })?),
        None => Algorithm::parse(&algorithm),
    };
    let setting_text = text("setting", true)?.unwrap_or_default();
    let setting = Setting::from_str(&setting_text).map_err(|e| bad("setting", e.to_string()))?;
    let assumptions = setting.assumptions();
    check_assumptions(obj, &setting, &assumptions, &bad)?;
    let schedule = field::<ScheduleSpec>(obj, "schedule", &bad)?;
    check_schedule(&schedule).map_err(|r| bad("schedule", r))?;
    let quantity = field::<Quantity>(obj, "quantity", &bad)?;
    check_quantity(&quantity, &setting).map_err(|r| bad("quantity", r.into()))?;
    let p = exponent(obj.get("p")).map_err(|r| bad("p", r))?;
    let log_power = log_power_field(obj, &bad)?;
    let t_min = t_min_field(obj, &bad)?;
    let envelope = match text("envelope", false)? {
        None => None,
        Some(f) => {
            let formula = Formula::parse(&f, &ENVELOPE_VARS).map_err(|r| bad("envelope", r))?;
            constant_bound(&formula).map_err(|r| bad("envelope", r))?;
            Some(formula)
        }
    };
    let label = text("label", false)?.unwrap_or_else(|| "user entry".into());
    let notes = text("notes", false)?;
    let side = if id.ends_with("/dual") {
        "dual"
    } else {
        "primal"
    };
    let quantity_text = format!(
        "{} of {} ({side})",
        aggregate_words(quantity.aggregate),
        Measure::symbol(&quantity.measure)
    );
    Ok(TheoremEntry {
        case: format!("{algorithm}/{setting}"),
        id,
        row: 0,
        algorithm: EntryAlgorithm::User {
            name: algorithm,
            solver,
        },
        setting: setting.to_string(),
        assumptions,
        schedule,
        quantity,
        quantity_text,
        p,
        p_detailed: None,
        log_factor: log_power > 0.0,
        log_power,
        label,
        detailed: String::new(),
        notes: notes
            .map(|text| {
                vec![super::theorems::Note {
                    id: "user".into(),
                    text,
                }]
            })
            .unwrap_or_default(),
        t_min,
        mhat: None,
        disputed: None,
        bound: None,
        envelope,
    })
}

/// The optional `assumptions` field must equal the setting's assumptions.
fn check_assumptions(
    obj: &Map<String, Value>,
    setting: &Setting,
    assumptions: &[super::Assumption],
    bad: &dyn Fn(&str, String) -> Error,
) -> Result<()> {
    if let Some(v) = obj.get("assumptions") {
        let have: Vec<super::Assumption> =
            serde_json::from_value(v.clone()).map_err(|e| bad("assumptions", e.to_string()))?;
        if have != assumptions {
            return Err(bad(
                "assumptions",
                format!("{have:?} should be {assumptions:?} for setting {setting}"),
            ));
        }
    }
    Ok(())
}

/// A quantity a user entry may bound: no appendix aggregate, `sigma` only with `gx_po`,
/// G^Opt only in a convex setting.
fn check_quantity(quantity: &Quantity, setting: &Setting) -> std::result::Result<(), &'static str> {
    if quantity.aggregate == Aggregate::MeanOptNext0T {
        return Err("mean_opt_next_0_T is the PO-LMO appendix form; use mean_0_T");
    }
    if quantity.sigma.is_some() && quantity.measure != Measure::GxPo {
        return Err("sigma only applies to gx_po");
    }
    if quantity.measure == Measure::GapOpt && !setting.convex {
        return Err("G^Opt needs a certified f*, i.e. a convex setting (c-*)");
    }
    Ok(())
}

/// The optional `log_power` field: a number in [0, 8] (default 0).
fn log_power_field(obj: &Map<String, Value>, bad: &dyn Fn(&str, String) -> Error) -> Result<f64> {
    match obj.get("log_power") {
        None => Ok(0.0),
        Some(v) => v
            .as_f64()
            .filter(|k| k.is_finite() && (0.0..=8.0).contains(k))
            .ok_or_else(|| bad("log_power", "expected a number in [0, 8]".into())),
    }
}

/// The optional `T_min` field: an integer in [1, 1000000] (default 1).
fn t_min_field(obj: &Map<String, Value>, bad: &dyn Fn(&str, String) -> Error) -> Result<u64> {
    match obj.get("T_min") {
        None => Ok(1),
        Some(v) => v
            .as_u64()
            .filter(|t| (1..=1_000_000).contains(t))
            .ok_or_else(|| bad("T_min", "expected an integer in [1, 1000000]".into())),
    }
}

fn field<T: serde::de::DeserializeOwned>(
    obj: &Map<String, Value>,
    name: &str,
    bad: &dyn Fn(&str, String) -> Error,
) -> Result<T> {
    let v = obj.get(name).ok_or_else(|| bad(name, "missing".into()))?;
    serde_json::from_value(v.clone()).map_err(|e| bad(name, e.to_string()))
}

/// A claimed exponent: `"n/d"` or a positive finite number.
fn exponent(v: Option<&Value>) -> std::result::Result<Exponent, String> {
    match v {
        None => Err("missing".into()),
        Some(Value::String(s)) => match Exponent::parse_frac(s) {
            Some(value) if value > 0.0 && value <= 4.0 => Ok(Exponent {
                frac: s.trim().to_string(),
                value,
            }),
            _ => Err(format!("{s:?}: expected a fraction n/d in (0, 4]")),
        },
        Some(Value::Number(n)) => match n.as_f64() {
            Some(value) if value > 0.0 && value <= 4.0 => Ok(Exponent {
                frac: value.to_string(),
                value,
            }),
            _ => Err(format!("{n}: expected a number in (0, 4]")),
        },
        Some(_) => Err("expected a fraction string such as \"1/2\" or a number".into()),
    }
}

fn check_schedule(s: &ScheduleSpec) -> std::result::Result<(), String> {
    let (a, b, c) = s.abc();
    if !([a, b, c].iter().all(|v| v.is_finite())
        && (0.0..=1.0).contains(&a)
        && (0.0..1.0).contains(&b)
        && (0.0..=1e12).contains(&c))
    {
        return Err(format!(
            "need 0 <= a <= 1, 0 <= b < 1, 0 <= C <= 1e12 (a={a}, b={b}, C={c})"
        ));
    }
    if let ScheduleSpec::PoLmoAppendix(p) = s {
        if !(p.factor.is_finite() && p.factor > 0.0 && p.big_a.is_finite() && p.big_a > 0.0) {
            return Err("the PO-LMO schedule needs factor > 0 and A > 0".into());
        }
    }
    Ok(())
}

fn aggregate_words(a: Aggregate) -> &'static str {
    match a {
        Aggregate::Mean0T => "mean over t = 0..T",
        Aggregate::Mean1T => "mean over t = 1..T",
        Aggregate::Last => "last iterate",
        Aggregate::MeanOptNext0T => "mean over t = 0..T at t+1",
        Aggregate::Min0T => "minimum over t = 0..T",
    }
}

/// Refuses an envelope that uses no variable and is not a positive finite number (`0`, `-1`,
/// `log(-1)`): it bounds nothing at any T. (One that depends on T is compared at every T of
/// the horizon, and fails the envelope gate where it is not positive.)
fn constant_bound(f: &Formula) -> std::result::Result<(), String> {
    let used = std::cell::Cell::new(false);
    let v = f.eval(&|_| {
        used.set(true);
        1.0
    });
    if !used.get() && !(v.is_finite() && v > 0.0) {
        return Err(format!(
            "{:?} is the constant {v}: an envelope must be a positive bound (e.g. a constant times (T+1)^(-p))",
            f.text()
        ));
    }
    Ok(())
}
