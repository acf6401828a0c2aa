//! `saddlefw verify-iterates`: `verify` with the solver replaced by the user's iterate files.
//!
//! The job list is the export's ([`super::plan`], rebuilt from the manifest's tier and filter
//! and compared with the manifest's records); [`ReplayFactory`] hands each job's file to the
//! harness through [`crate::verify::SolverFactory`], so the measures, fits, gates, envelopes,
//! hard-instance gates, report and exit code are `verify`'s own. The jobs the export could not
//! hold (non-quadratic instances) are not covered: neither run nor judged. A problem or
//! schedule file edited since the export is refused (`check_exported_files`).

use super::manifest::{JobRecord, Manifest};
use super::plan;
use super::replay::{Faults, Replay};
use crate::solvers::Solver;
use crate::theorems::TheoremEntry;
use crate::tightness::HardSource;
use crate::verify::{
    self, JobRef, SolverFactory, SolverRequest, Tier, TierConfig, VerifyOptions, VerifyReport,
};
use crate::{Error, Result};
use std::path::{Path, PathBuf};

/// The factory of replays: one iterate file per exported job.
pub struct ReplayFactory {
    /// Where the iterate paths of the manifest are resolved.
    root: PathBuf,
    jobs: Vec<JobRecord>,
    faults: Faults,
    /// The export holds confirmation jobs (runs past the hard jobs' horizons).
    confirmation: bool,
}

impl ReplayFactory {
    /// Replays of the jobs of `manifest`, their files under `root`.
    pub fn new(manifest: &Manifest, root: &Path, faults: Faults) -> Self {
        ReplayFactory {
            root: root.to_path_buf(),
            jobs: manifest.jobs.clone(),
            faults,
            confirmation: manifest.confirmation,
        }
    }
    fn find(
        &self,
        case: &str,
        entry: &str,
        family: &str,
        seed_index: u32,
        hard: bool,
    ) -> Option<usize> {
        self.jobs.iter().position(|j| {
            j.case == case
                && j.family == family
                && j.seed_index == seed_index
                && (j.kind == "hard") == hard
                && j.entries.iter().any(|e| e == entry)
        })
    }
}

impl SolverFactory for ReplayFactory {
    fn name(&self) -> String {
        format!("iterate files under {}", self.root.display())
    }
    fn covers(&self, job: &JobRef<'_>) -> bool {
        self.find(job.case, job.entry, job.family, job.seed_index, job.hard)
            .is_some()
    }
    fn extends_horizon(&self) -> bool {
        self.confirmation
    }
    fn build(&self, r: &SolverRequest<'_>) -> Result<Box<dyn Solver>> {
        let o = r.origin;
        let matches = |j: &&JobRecord| {
            j.case == r.entry.case
                && j.spec == o.spec
                && j.seed_index == o.seed_index
                && j.entries.contains(&r.entry.id)
        };
        // a hard job and its confirmation share the instance: the horizon tells them apart
        let found = (self.jobs.iter())
            .position(|j| matches(&j) && j.t_max == r.t_max)
            .or_else(|| self.jobs.iter().position(|j| matches(&j)));
        let Some(i) = found else {
            return Err(Error::invalid(
                "verify-iterates",
                format!("no exported job for {} on {}", r.entry.id, o.spec),
            ));
        };
        let j = &self.jobs[i];
        if j.t_max != r.t_max {
            return Err(Error::invalid(
                "verify-iterates",
                format!(
                    "job {}: horizon {} in the manifest, {} in verify",
                    j.id, j.t_max, r.t_max
                ),
            ));
        }
        Ok(Box::new(Replay::open(
            &self.root.join(&j.iterates),
            (r.instance.x0.len(), r.instance.y0.len()),
            j.t_last,
            (r.schedule.tau, r.schedule.beta),
            i,
            self.faults.clone(),
        )))
    }
}

/// What `verify-iterates` runs.
#[derive(Debug, Clone)]
pub struct JudgeOptions {
    /// The export directory (its `manifest.json`).
    pub export_dir: PathBuf,
    /// Where the iterate files are (default: the export directory).
    pub iterates_root: Option<PathBuf>,
    /// Worker threads (`None`: one per core).
    pub jobs: Option<usize>,
}

/// Reads the manifest and checks it against the job list this build of saddlefw plans for
/// its tier and filter; returns it with the verify options that reproduce the export and the
/// planned exported jobs (in manifest order).
pub fn load(
    table: &[TheoremEntry],
    dir: &Path,
) -> Result<(Manifest, VerifyOptions, Vec<plan::PlannedJob>)> {
    if dir.is_file() {
        let parent = dir.parent().filter(|p| !p.as_os_str().is_empty());
        return Err(Error::input(
            dir.display().to_string(),
            "DIR",
            format!(
                "a file, not a directory: give the export directory ({}, which holds manifest.json)",
                parent.map_or(".".into(), |p| p.display().to_string())
            ),
        ));
    }
    let path = dir.join("manifest.json");
    let name = path.display().to_string();
    let m = Manifest::parse(&name, &crate::files::read_text(&path)?)?;
    let tier: Tier = m
        .tier
        .parse()
        .map_err(|e: Error| Error::input(&name, "tier", e.to_string()))?;
    let mut opts = VerifyOptions::new(tier);
    opts.filter = m.cases.clone();
    let hard_source = m.hard.then_some(HardSource::Builtin);
    opts.hard = hard_source.clone().map(Into::into);
    // the manifest's sizes (an export made through the library may override the tier's)
    let cfg = TierConfig {
        seeds: m.seeds,
        t_max: m.t_max,
        dim_x: m.dim_x,
        dim_y: m.dim_y,
    };
    if cfg.seeds == 0 || cfg.t_max < 16 || cfg.dim_x == 0 || cfg.dim_y == 0 {
        return Err(Error::input(
            &name,
            "seeds",
            "sizes out of range (export again)",
        ));
    }
    opts.config = Some(cfg);
    // the stored baselines are the crate's own exponents: as in the Rust route
    // (`gate::RateCheck`), they do not gate a solver of the user's (the hard-instance gates,
    // including hard-baseline, do)
    opts.gate_baselines = false;
    let selected = plan::select(table, m.cases.as_deref())?;
    let mut planned = plan::plan(&selected, &cfg, hard_source.as_ref())?;
    if m.confirmation {
        planned = plan::with_confirmations(planned);
    }
    planned.retain(|j| j.not_exported.is_none());
    // a job's entries too: a narrower --cases plans the same jobs for fewer entries
    let want: Vec<Job> = planned
        .iter()
        .map(|j| (j.id.as_str(), j.spec.as_str(), j.t_last, &j.entries[..]))
        .collect();
    let have: Vec<Job> = m
        .jobs
        .iter()
        .map(|j| (j.id.as_str(), j.spec.as_str(), j.t_last, &j.entries[..]))
        .collect();
    if want != have {
        let first = want
            .iter()
            .zip(&have)
            .position(|(a, b)| a != b)
            .unwrap_or(want.len().min(have.len()));
        let this = env!("CARGO_PKG_VERSION");
        let why = if m.saddlefw == this {
            "the manifest was edited (its tier, cases, sizes or jobs no longer agree)".to_string()
        } else {
            format!("it was written by saddlefw {} (this is {this})", m.saddlefw)
        };
        let id = |jobs: &[Job]| jobs.get(first).map_or("no job", |j| j.0).to_string();
        return Err(Error::input(
            &name,
            format!("jobs[{first}]"),
            format!(
                "the exported jobs are not those of tier {} with --cases {:?} ({} here, {} planned; {} listed, {} planned): {why}; export again (saddlefw export --out DIR) and rerun your solver",
                m.tier,
                m.cases.as_deref().unwrap_or(""),
                id(&have),
                id(&want),
                have.len(),
                want.len(),
            ),
        ));
    }
    Ok((m, opts, planned))
}

/// What identifies an exported job: id, instance, last iterate, entries judged on it.
type Job<'a> = (&'a str, &'a str, u64, &'a [String]);

/// Runs `verify` on the iterate files of an export; the first input error of any file (in
/// manifest order) is the error.
pub fn verify_iterates(table: &[TheoremEntry], o: &JudgeOptions) -> Result<VerifyReport> {
    let (m, mut opts, _) = load(table, &o.export_dir)?;
    check_exported_files(&m, &o.export_dir)?;
    let faults = Faults::default();
    let root = o.iterates_root.as_deref().unwrap_or(&o.export_dir);
    opts.jobs = o.jobs;
    opts = opts.solver(ReplayFactory::new(&m, root, faults.clone()));
    let report = verify::run(table, &opts);
    if let Some(e) = faults.first() {
        return Err(e);
    }
    report
}

/// Refuses a problem or schedule file whose content is not the one exported (neither its
/// SHA-256 nor that of its canonical JSON form, [`crate::fingerprint::canonical_json`], is the
/// manifest's): the user's solver would have run on another instance or
/// schedule than the one judged. The first such file (in manifest order) is the error.
fn check_exported_files(m: &Manifest, dir: &Path) -> Result<()> {
    for j in &m.jobs {
        for (file, want) in [
            (&j.problem, &j.problem_sha256),
            (&j.schedule, &j.schedule_sha256),
        ] {
            let path = dir.join(file);
            let bytes = crate::files::read_bytes(&path)?;
            let have = crate::fingerprint::sha256(&bytes);
            // the same content re-indented or with its keys reordered is not an edit
            let same_content = || {
                crate::fingerprint::canonical_json(&bytes)
                    .is_some_and(|c| &crate::fingerprint::sha256(c.as_bytes()) == want)
            };
            if &have != want && !same_content() {
                return Err(Error::input(
                    path.display().to_string(),
                    "content",
                    format!(
                        "edited since export: its content hashes to {}, the manifest recorded {} for job {}; export again (saddlefw export --out DIR) and rerun your solver on the new files, or restore the exported file",
                        abbreviated(&have),
                        abbreviated(want),
                        j.id
                    ),
                ));
            }
        }
    }
    Ok(())
}

/// `sha256:` and the first 16 hex digits.
fn abbreviated(hash: &str) -> &str {
    &hash[..hash.len().min(23)]
}
