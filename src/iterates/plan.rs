//! The jobs of the any-language route: `verify`'s job list (entries x instance families x
//! seeds, [`verify::job_keys`], and the stored hardest instances) with, for each job, whether
//! its instance can be exported as a problem file. `saddlefw export` writes the exportable
//! jobs; `saddlefw verify-iterates` judges exactly those (one list, built the same way by
//! both commands from the manifest's tier and filter).
//!
//! A job is exportable when its instance is a quadratic of the JSON quadratic format v1
//! ([`crate::problems::SaddleProblem::as_quadratic`]): the generator families `quadratic` and
//! `saddle` and the hard families `face-quadratic` and `generator:quadratic|saddle` are; the
//! `cosine` and `face-cosine` landscapes are not (no file format holds them).

use crate::generators::GeneratorSpec;
use crate::problems::Instance;
use crate::theorems::{Aggregate, TheoremEntry};
use crate::tightness::{HardFixture, HardSource};
use crate::verify::hard::CONFIRM_FACTOR;
use crate::verify::{self, TierConfig};
use crate::{Error, Result};

/// Where a job's instance comes from.
#[derive(Debug, Clone)]
pub enum JobSource {
    /// A random instance of a verify family (the generator spec, seed included).
    Random(GeneratorSpec),
    /// The stored hardest instance of one entry.
    Hard(Box<HardFixture>),
}

/// One job of the plan.
#[derive(Debug, Clone)]
pub struct PlannedJob {
    /// File-system friendly id, unique in the plan (module doc of [`super::manifest`]).
    pub id: String,
    /// Theorem case, e.g. `lmo-lmo/c-sc+sc`.
    pub case: String,
    /// The entries judged on this job's run.
    pub entries: Vec<String>,
    /// Family label as verify reports it (`quadratic:dx=20,dy=10,x=l1`, `face-quadratic`).
    pub family: String,
    /// The spec verify reports (reproduces the instance).
    pub spec: String,
    pub seed_index: u32,
    pub seed: u64,
    /// Horizon of the fit (`T_max` of the tier, the fixture's horizon for a hard job).
    pub t_max: u64,
    /// The last t whose iterate is needed: `t_max`, plus one when an entry averages
    /// `G^Opt(x_{t+1})` ([`Aggregate::MeanOptNext0T`]).
    pub t_last: u64,
    pub source: JobSource,
    /// Why the job cannot be exported (`None`: it can).
    pub not_exported: Option<String>,
    /// A hard job's confirmation run at `CONFIRM_FACTOR` times its horizon
    /// (`with_confirmations`).
    pub confirmation: bool,
}

impl PlannedJob {
    /// Builds the job's instance (deterministic).
    pub fn instance(&self) -> Result<Instance> {
        match &self.source {
            JobSource::Random(g) => g.generate(),
            JobSource::Hard(f) => Ok(f.spec.build()?.instance),
        }
    }
    /// Whether this is a stored hardest instance.
    pub fn is_hard(&self) -> bool {
        matches!(self.source, JobSource::Hard(_))
    }
    /// The manifest's `kind`: `random`, `hard` or `hard-confirm`.
    pub fn kind(&self) -> &'static str {
        match (self.is_hard(), self.confirmation) {
            (false, _) => "random",
            (true, false) => "hard",
            (true, true) => "hard-confirm",
        }
    }
}

/// `jobs` followed by one confirmation job per hard job: the same instance at
/// `CONFIRM_FACTOR` times the horizon, id `ID__confirm`. `verify` runs it when `hard-rate`
/// fails at the horizon (a legitimate schedule constant can move the transient past T); an
/// export with them (`saddlefw export --confirmation-jobs`) lets `verify-iterates` decide that
/// gate as `verify` does.
pub(crate) fn with_confirmations(mut jobs: Vec<PlannedJob>) -> Vec<PlannedJob> {
    let confirm: Vec<PlannedJob> = jobs
        .iter()
        .filter(|j| j.is_hard())
        .map(|j| PlannedJob {
            id: format!("{}__confirm", j.id),
            t_max: CONFIRM_FACTOR * j.t_max,
            t_last: CONFIRM_FACTOR * j.t_max + (j.t_last - j.t_max),
            confirmation: true,
            ..j.clone()
        })
        .collect();
    jobs.extend(confirm);
    jobs
}

/// The characters kept in ids; anything else becomes `-`.
fn id_part(s: &str) -> String {
    s.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || "+=.".contains(c) {
                c
            } else {
                '-'
            }
        })
        .collect()
}

fn t_last(entries: &[&TheoremEntry], t_max: u64) -> u64 {
    let next = entries
        .iter()
        .any(|e| e.quantity.aggregate == Aggregate::MeanOptNext0T);
    t_max + u64::from(next)
}

/// Why an instance cannot be exported, if it cannot.
fn export_blocker(family: &str, inst: &Instance) -> Option<String> {
    inst.problem.as_quadratic().is_none().then(|| {
        format!(
            "the {family} instances are not quadratic: the JSON quadratic format v1 cannot hold them"
        )
    })
}

/// The entries of `table` whose id contains `filter` (all for `None`), or an error naming
/// `--cases` when there are none.
pub fn select<'a>(
    table: &'a [TheoremEntry],
    filter: Option<&str>,
) -> Result<Vec<&'a TheoremEntry>> {
    let selected: Vec<&TheoremEntry> = table
        .iter()
        .filter(|e| filter.map_or(true, |f| e.id.contains(f)))
        .collect();
    if selected.is_empty() {
        return Err(Error::invalid(
            "--cases",
            format!(
                "no theorem entry id contains {:?} (ids look like lmo-lmo/nc-c/primal)",
                filter.unwrap_or("")
            ),
        ));
    }
    Ok(selected)
}

/// The plan of `selected` at sizes `cfg`, with the hard fixtures of `hard` (none for
/// `None`): random jobs in verify's job order, then one hard job per entry with a fixture.
pub fn plan(
    selected: &[&TheoremEntry],
    cfg: &TierConfig,
    hard: Option<&HardSource>,
) -> Result<Vec<PlannedJob>> {
    plan_seeded(selected, cfg, hard, 0)
}

/// [`plan`] with the random instances of master seed `master` (`verify --seed`; 0 is
/// [`plan`]'s: an export always uses it).
pub(crate) fn plan_seeded(
    selected: &[&TheoremEntry],
    cfg: &TierConfig,
    hard: Option<&HardSource>,
    master: u64,
) -> Result<Vec<PlannedJob>> {
    let mut jobs = Vec::new();
    for (case, label, i) in verify::job_keys(selected, cfg) {
        let entries: Vec<&TheoremEntry> = selected
            .iter()
            .copied()
            .filter(|e| {
                e.case == case
                    && verify::families_for(e, cfg)
                        .iter()
                        .any(|f| f.label() == label)
            })
            .collect();
        let fam = verify::families_for(entries[0], cfg)
            .into_iter()
            .find(|f| f.label() == label)
            .expect("job_keys come from families_for");
        let seed = verify::derived_seed(&case, &label, i, master);
        let spec = fam.spec(entries[0].setting(), seed);
        let inst = spec.generate()?;
        jobs.push(PlannedJob {
            id: format!("{}__{}__s{i}", id_part(&case), id_part(&label)),
            case: case.clone(),
            entries: entries.iter().map(|e| e.id.clone()).collect(),
            not_exported: export_blocker(fam.family.name(), &inst),
            family: label,
            spec: spec.to_string(),
            seed_index: i,
            seed,
            t_max: cfg.t_max,
            t_last: t_last(&entries, cfg.t_max),
            source: JobSource::Random(spec),
            confirmation: false,
        });
    }
    if let Some(source) = hard {
        let fixtures = source.load()?;
        for e in selected {
            let Some(f) = fixtures.get(&e.id) else {
                continue;
            };
            let inst = f.spec.build()?.instance;
            jobs.push(PlannedJob {
                id: format!("{}__hard", id_part(&e.id)),
                case: e.case.clone(),
                entries: vec![e.id.clone()],
                family: f.spec.family_name(),
                spec: f.spec.params_text(),
                seed_index: 0,
                seed: f.spec.seed,
                t_max: f.horizon,
                t_last: t_last(&[e], f.horizon),
                not_exported: export_blocker(&f.spec.family_name(), &inst),
                source: JobSource::Hard(Box::new(f.clone())),
                confirmation: false,
            });
        }
    }
    Ok(jobs)
}
