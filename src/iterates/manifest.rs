//! The export manifest (`DIR/manifest.json`, format `saddlefw-export-v2`): what `saddlefw
//! export` wrote and what `saddlefw verify-iterates` reads back. Each job's record holds the
//! SHA-256 of its problem and schedule files; `verify-iterates` refuses a file edited since
//! (the user's solver would have solved another problem), and a `saddlefw-export-v1` manifest,
//! which has no hashes (export again).
//!
//! Layout of an export directory:
//! ```text
//! DIR/manifest.json                 this file: tier, filter, sizes, one record per job
//! DIR/jobs/ID/problem.json          the instance, JSON quadratic format v1 (x0, y0 included)
//! DIR/jobs/ID/schedule.json         the entry's schedule: rule, constants, tau_t and beta_t
//! DIR/jobs/ID/iterates.jsonl        written by the user's solver (format saddlefw-iterates-v1)
//! ```
//! `ID` is `CASE__FAMILY__sI` for random instances and `ENTRY__hard` for a stored hardest
//! instance, with every character outside `[A-Za-z0-9+=.]` replaced by `-`
//! (e.g. `lmo-lmo-c-sc+sc__quadratic-dx=20-dy=10-x=l1__s0`).
//!
//! ```
//! use saddlefw::iterates::manifest::Manifest;
//! // errors name the manifest, the field and the reason
//! let e = Manifest::parse("m.json", r#"{"format": "saddlefw-export-v0"}"#).unwrap_err();
//! assert!(e.to_string().starts_with("m.json: "), "{e}");
//! let e = Manifest::parse("m.json", "[]").unwrap_err();
//! assert!(e.to_string().contains("m.json"), "{e}");
//! // a manifest of the first format has no hashes of the files: export again
//! let e = Manifest::parse("m.json", r#"{"format": "saddlefw-export-v1", "jobs": []}"#).unwrap_err();
//! assert!(e.to_string().contains("export again with this version"), "{e}");
//! ```

use crate::files::{parse_json, JsonTop};
use crate::problems::Constants;
use crate::{Error, Result};
use serde::{Deserialize, Serialize};

/// The manifest's format name.
pub const MANIFEST_FORMAT: &str = "saddlefw-export-v2";
/// The first manifest format (saddlefw before the hashes): refused with what to do.
const MANIFEST_FORMAT_V1: &str = "saddlefw-export-v1";
/// The schedule files' format name.
pub const SCHEDULE_FORMAT: &str = "saddlefw-schedule-v1";

/// Largest seeds per family, horizon and dimension a manifest may ask for (far above the
/// full tier; a manifest beyond them is refused before any instance is built).
pub const MAX_SEEDS: u64 = 1_000;
/// See [`MAX_SEEDS`].
pub const MAX_T: u64 = 1 << 24;
/// See [`MAX_SEEDS`].
pub const MAX_DIM: u64 = 2_000;

/// `DIR/manifest.json`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Manifest {
    /// [`MANIFEST_FORMAT`].
    pub format: String,
    /// The saddlefw version that wrote it.
    pub saddlefw: String,
    /// `quick` or `full`.
    pub tier: String,
    /// The `--cases` filter (`null`: every entry).
    pub cases: Option<String>,
    pub seeds: u32,
    pub t_max: u64,
    pub dim_x: usize,
    pub dim_y: usize,
    /// Whether the stored hardest instances are part of the export (`--no-hard` clears it).
    pub hard: bool,
    /// Whether each hard job has a confirmation job (`kind` `hard-confirm`, 16 times its
    /// horizon; `export --confirmation-jobs`).
    #[serde(default)]
    pub confirmation: bool,
    /// The iterate file format ([`super::format::ITERATES_FORMAT`]).
    pub iterates_format: String,
    /// What must be reported, in words: every t from 0 to each job's `t_last`, in order.
    pub report: String,
    /// The exported jobs.
    pub jobs: Vec<JobRecord>,
    /// The jobs `verify` runs that cannot be exported (judged by `verify` only).
    pub not_exported: Vec<SkippedJob>,
}

/// One exported job.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct JobRecord {
    pub id: String,
    pub case: String,
    /// The theorem entries judged on this job (`lmo-lmo/c-sc+sc/primal`, ...).
    pub entries: Vec<String>,
    /// `random`, `hard` or `hard-confirm` (a hard job's confirmation run, `ID__confirm`).
    pub kind: String,
    /// Family label as in verify.json.
    pub family: String,
    /// Spec that reproduces the instance (as in verify.json).
    pub spec: String,
    pub seed_index: u32,
    pub seed: u64,
    pub dim_x: usize,
    pub dim_y: usize,
    /// Horizon of the fit.
    pub t_max: u64,
    /// The iterates `t = 0, 1, ..., t_last` must be reported.
    pub t_last: u64,
    /// Paths relative to the export directory.
    pub problem: String,
    pub schedule: String,
    pub iterates: String,
    /// `sha256:HEX` of the problem and schedule files as exported
    /// (`crate::fingerprint::sha256`); `verify-iterates` refuses a file whose content differs.
    pub problem_sha256: String,
    pub schedule_sha256: String,
}

/// A job of `verify` that the export leaves out, and why.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SkippedJob {
    pub id: String,
    pub entries: Vec<String>,
    pub family: String,
    pub spec: String,
    pub reason: String,
}

/// `DIR/jobs/ID/schedule.json`: the entry's schedule on this instance.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ScheduleFile {
    /// [`SCHEDULE_FORMAT`].
    pub format: String,
    /// `lmo-lmo`, `lmo-po` or `po-lmo`.
    pub algorithm: String,
    /// The paper's label of the algorithm (`alg:fw-fw`, ...; `null` for a user entry's
    /// algorithm without a crate implementation).
    pub label: Option<String>,
    /// The rules in saddlefw's schedule notation, e.g. `anytime(c=1,a=0.75)`, `zero`.
    pub tau_rule: String,
    pub beta_rule: String,
    /// The theorem's exponents: `tau_t = (t+1)^-a`, `beta_t = C (t+1)^-b` (PO-LMO: see
    /// `tau_rule`).
    pub a: f64,
    pub b: f64,
    #[serde(rename = "C")]
    pub c: f64,
    /// The certified constants of the instance (`L_xx`, `L_yx`, `L_yy`, `mu`, ...), as the
    /// crate's solvers use them (e.g. `L_yy` in LMO-LMO's dual step).
    pub constants: Constants,
    /// `tau_t` and `beta_t` for `t = 0, ..., t_last`.
    pub tau: Vec<f64>,
    pub beta: Vec<f64>,
}

impl Manifest {
    /// Parses and checks a manifest; `input` names it in errors.
    pub fn parse(input: &str, text: &str) -> Result<Self> {
        // the format first: an older manifest lacks fields, and its reader should learn why
        #[derive(Deserialize)]
        struct Format {
            format: Option<serde_json::Value>,
        }
        let f: Format = parse_json(input, text, JsonTop::Object)?;
        if f.format.as_ref().and_then(|v| v.as_str()) == Some(MANIFEST_FORMAT_V1) {
            return Err(Error::input(
                input,
                "format",
                format!(
                    "{MANIFEST_FORMAT_V1} was written by an older saddlefw and holds no hashes of the problem and schedule files: export again with this version (saddlefw export --out DIR) and rerun your solver on the new files"
                ),
            ));
        }
        let m: Manifest = parse_json(input, text, JsonTop::Object)?;
        if m.format != MANIFEST_FORMAT {
            return Err(Error::input(
                input,
                "format",
                format!(
                    "unknown format {:?} (expected {MANIFEST_FORMAT:?})",
                    m.format
                ),
            ));
        }
        let sizes = [
            ("seeds", u64::from(m.seeds), 1, MAX_SEEDS),
            ("t_max", m.t_max, 16, MAX_T),
            ("dim_x", m.dim_x as u64, 1, MAX_DIM),
            ("dim_y", m.dim_y as u64, 1, MAX_DIM),
        ];
        for (field, v, lo, hi) in sizes {
            if !(lo..=hi).contains(&v) {
                return Err(Error::input(
                    input,
                    field,
                    format!("{v} is outside {lo}..={hi}"),
                ));
            }
        }
        let mut seen = std::collections::BTreeSet::new();
        for (i, j) in m.jobs.iter().enumerate() {
            let at = |field: &str| format!("jobs[{i}].{field}");
            if !seen.insert(j.id.as_str()) {
                return Err(Error::input(
                    input,
                    at("id"),
                    format!("duplicate id {:?}", j.id),
                ));
            }
            for (field, p) in [
                ("problem", &j.problem),
                ("schedule", &j.schedule),
                ("iterates", &j.iterates),
            ] {
                if !relative_inside(p) {
                    return Err(Error::input(
                        input,
                        at(field),
                        format!("{p:?} must be a relative path inside the export directory"),
                    ));
                }
            }
            if j.t_last < j.t_max {
                return Err(Error::input(input, at("t_last"), "is below t_max"));
            }
        }
        Ok(m)
    }
}

/// A relative path without `..`, root or prefix components.
fn relative_inside(p: &str) -> bool {
    use std::path::Component;
    !p.is_empty()
        && std::path::Path::new(p)
            .components()
            .all(|c| matches!(c, Component::Normal(_) | Component::CurDir))
}
