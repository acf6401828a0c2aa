//! `saddlefw export`: writes everything an external solver needs to be judged like the
//! crate's own (layout in [`super::manifest`]): per exportable job of `verify`'s job list the
//! problem file (start point included), the entry's schedule values, and the manifest that
//! ties jobs to files and says which t must be reported.

use super::format::ITERATES_FORMAT;
use super::manifest::{
    JobRecord, Manifest, ScheduleFile, SkippedJob, MANIFEST_FORMAT, SCHEDULE_FORMAT,
};
use super::plan::{self, PlannedJob};
use crate::files::write_atomic;
use crate::fingerprint::sha256;
use crate::theorems::TheoremEntry;
use crate::tightness::HardSource;
use crate::verify::{Tier, TierConfig};
use crate::{Error, Result};
use std::path::Path;

/// What to export (the job selection of `verify --tier T --cases FILTER`).
#[derive(Debug, Clone)]
pub struct ExportOptions {
    pub tier: Tier,
    pub filter: Option<String>,
    /// Overrides of the tier's sizes (tests).
    pub config: Option<TierConfig>,
    /// The stored hardest instances (`None`: random instances only).
    pub hard: Option<HardSource>,
    /// Also a confirmation job per hard job: the same instance at 16 times its horizon
    /// (`ID__confirm`, kind `hard-confirm`).
    pub confirmation: bool,
}

impl ExportOptions {
    /// The tier's sizes.
    pub fn config(&self) -> TierConfig {
        self.config.unwrap_or_else(|| self.tier.config())
    }
}

/// What the user must report, in words (the manifest's `report`).
pub(crate) const REPORT_RULE: &str = "every iterate t = 0, 1, ..., t_last of each job, one JSON line per t in order, into the job's iterates file";

/// Writes the export of `opts` into `dir`; the manifest is written last (atomically), so a
/// directory with a manifest is complete.
pub fn export(table: &[TheoremEntry], opts: &ExportOptions, dir: &Path) -> Result<Manifest> {
    let cfg = opts.config();
    let selected = plan::select(table, opts.filter.as_deref())?;
    let mut jobs = plan::plan(&selected, &cfg, opts.hard.as_ref())?;
    let confirmation = opts.confirmation && opts.hard.is_some();
    if confirmation {
        jobs = plan::with_confirmations(jobs);
    }
    let mut manifest = Manifest {
        format: MANIFEST_FORMAT.into(),
        saddlefw: env!("CARGO_PKG_VERSION").into(),
        tier: opts.tier.to_string(),
        cases: opts.filter.clone(),
        seeds: cfg.seeds,
        t_max: cfg.t_max,
        dim_x: cfg.dim_x,
        dim_y: cfg.dim_y,
        hard: opts.hard.is_some(),
        confirmation,
        iterates_format: ITERATES_FORMAT.into(),
        report: REPORT_RULE.into(),
        jobs: Vec::new(),
        not_exported: Vec::new(),
    };
    for job in &jobs {
        if let Some(reason) = &job.not_exported {
            manifest.not_exported.push(SkippedJob {
                id: job.id.clone(),
                entries: job.entries.clone(),
                family: job.family.clone(),
                spec: job.spec.clone(),
                reason: reason.clone(),
            });
            continue;
        }
        let entry = table
            .iter()
            .find(|e| e.id == job.entries[0])
            .expect("planned entries come from the table");
        manifest.jobs.push(write_job(job, entry, dir)?);
    }
    if manifest.jobs.is_empty() {
        return Err(Error::invalid(
            "--cases",
            "none of the selected jobs can be exported (see the README, \"Verify your own solver\")",
        ));
    }
    let text = serde_json::to_string_pretty(&manifest).expect("the manifest serialises");
    write_atomic(dir.join("manifest.json"), text.as_bytes())?;
    Ok(manifest)
}

/// Writes one job's problem and schedule files; its manifest record (with the files' hashes).
fn write_job(job: &PlannedJob, entry: &TheoremEntry, dir: &Path) -> Result<JobRecord> {
    let inst = job.instance()?;
    let q = inst.problem.as_quadratic().expect("planned as exportable");
    let k = inst.problem.constants();
    let base = format!("jobs/{}", job.id);
    let mut rec = JobRecord {
        id: job.id.clone(),
        case: job.case.clone(),
        entries: job.entries.clone(),
        kind: job.kind().into(),
        family: job.family.clone(),
        spec: job.spec.clone(),
        seed_index: job.seed_index,
        seed: job.seed,
        dim_x: inst.x0.len(),
        dim_y: inst.y0.len(),
        t_max: job.t_max,
        t_last: job.t_last,
        problem: format!("{base}/problem.json"),
        schedule: format!("{base}/schedule.json"),
        iterates: format!("{base}/iterates.jsonl"),
        problem_sha256: String::new(),
        schedule_sha256: String::new(),
    };
    // canonical form (fingerprint::canonical_json): its hash is also its content's
    let problem = serde_json::to_value(q.to_file(&inst.x0, &inst.y0)?)
        .expect("serialises")
        .to_string();
    rec.problem_sha256 = sha256(problem.as_bytes());
    write_atomic(dir.join(&rec.problem), problem.as_bytes())?;
    let sched = entry.schedule.resolve(&k)?;
    let (a, b, c) = entry.schedule.abc();
    let ts = 0..=job.t_last as usize;
    let file = ScheduleFile {
        format: SCHEDULE_FORMAT.into(),
        algorithm: entry.algorithm.name().into(),
        label: entry.algorithm.solver().map(|a| a.label().to_string()),
        tau_rule: sched.tau.to_string(),
        beta_rule: sched.beta.to_string(),
        a,
        b,
        c,
        constants: k,
        tau: ts.clone().map(|t| sched.tau.at(t)).collect(),
        beta: ts.map(|t| sched.beta.at(t)).collect(),
    };
    let text = serde_json::to_value(&file).expect("serialises").to_string();
    rec.schedule_sha256 = sha256(text.as_bytes());
    write_atomic(dir.join(&rec.schedule), text.as_bytes())?;
    Ok(rec)
}
