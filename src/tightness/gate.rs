//! The `verify` hook: the gates on the stored hardest instances and the tightness record of
//! every entry (issue 10).

use super::{evaluate_with, fixture_file, note, HardFixture, HardSource};
use crate::fit::Verdict;
use crate::theorems::TheoremEntry;
use crate::verify::hard::{
    Attached, Confirmation, HardGates, HardLog, HardResult, HardRun, TightnessRecord,
    CONFIRM_FACTOR,
};
use crate::verify::{EntryResult, GateStatus, Gates, InstanceRun, VerifyOptions, VerifyReport};
use crate::Result;
use rayon::prelude::*;
use std::collections::BTreeMap;

/// Hard-instance gates that are reported in the entry's notes but do not fail it (yet):
/// `hard-mhat` rests on one short run per entry; it becomes gating once the search stores
/// longer-horizon hard runs with several seeds. (The search only stores instances on which
/// the real solvers pass it too.)
pub(crate) const HARD_REPORT_ONLY: &[&str] = &["hard-mhat"];

/// The entries of `selected` with a stored hardest instance that `opts`'s solver covers.
fn hard_jobs<'a>(
    selected: &[&'a TheoremEntry],
    fixtures: &'a BTreeMap<String, HardFixture>,
    opts: &VerifyOptions,
) -> Vec<(&'a TheoremEntry, &'a HardFixture)> {
    let factory = opts.factory();
    selected
        .iter()
        .filter_map(|e| fixtures.get(&e.id).map(|f| (*e, f)))
        .filter(|(e, f)| {
            factory.covers(&crate::verify::JobRef {
                case: &e.case,
                entry: &e.id,
                family: &f.spec.family_name(),
                seed_index: 0,
                hard: true,
            })
        })
        .collect()
}

/// The run of `entry` on its stored hardest instance `f`.
fn hard_run(
    entry: &TheoremEntry,
    f: &HardFixture,
    factory: &dyn crate::verify::SolverFactory,
) -> Result<HardRun> {
    let clock = std::time::Instant::now();
    evaluate_with(entry, &f.spec, f.horizon, factory).map(|(run, _)| HardRun {
        entry: entry.id.clone(),
        run,
        time_s: clock.elapsed().as_secs_f64(),
    })
}

/// Runs the gates on the stored hardest instances of the selected entries and attaches the
/// hard results and tightness records to `entries` (a failed hard gate makes the entry fail).
/// The runs `log` holds are reused and finished ones are recorded in it; a stop requested by
/// a signal or by the factory's caller starts no other run, keeps no run that ends after it,
/// and attaches nothing ([`Attached::Interrupted`]).
pub fn attach(
    selected: &[&TheoremEntry],
    entries: &mut [EntryResult],
    source: &HardSource,
    opts: &VerifyOptions,
    log: &dyn HardLog,
) -> Result<Attached> {
    let fixtures = source.load()?;
    let factory = opts.factory();
    let jobs = hard_jobs(selected, &fixtures, opts);
    let progress = crate::progress::Jobs::new("hard instances", jobs.len() as u64);
    let work = || -> Vec<Option<Result<HardRun>>> {
        jobs.par_iter()
            .map(|(e, f)| {
                if let Some(done) = log.hard(&e.id) {
                    progress.done();
                    return Some(Ok(done.clone()));
                }
                if crate::verify::stop_requested(factory.as_ref()) {
                    return None;
                }
                progress.start(&e.id);
                let run = hard_run(e, f, factory.as_ref());
                progress.done();
                if factory.stop_reason().is_some() {
                    // stopped by the factory's caller: this run may have been cut
                    return None;
                }
                if let Ok(r) = &run {
                    log.hard_done(r);
                }
                Some(run)
            })
            .collect()
    };
    let outputs = crate::verify::with_jobs(opts.jobs, jobs.len(), work)?;
    progress.finish();
    let stopped = outputs.iter().any(Option::is_none);
    let finished = outputs.into_iter().flatten().collect::<Result<Vec<_>>>()?;
    if stopped {
        return Ok(Attached::Interrupted {
            runs: finished,
            total: jobs.len(),
        });
    }
    let mut runs: BTreeMap<String, (InstanceRun, f64)> = finished
        .into_iter()
        .map(|h| (h.entry, (h.run, h.time_s)))
        .collect();
    // The hard run is judged like a family of one seed, without the random baselines.
    let mut hard_opts = opts.clone();
    hard_opts.baselines = Default::default();
    hard_opts.gate_baselines = false;
    let judged = judge_hard_runs(selected, &fixtures, &mut runs, &hard_opts)?;
    // a failed rate is confirmed at CONFIRM_FACTOR times the horizon (HardResult's doc)
    let confirm = || -> Vec<Result<Option<Confirmation>>> {
        selected
            .par_iter()
            .zip(judged.par_iter())
            .map(|(e, j)| match (j, fixtures.get(&e.id)) {
                (Some((_, judged, _)), Some(f))
                    if (opts.confirm_all || judged.rate_verdict == Verdict::Fail)
                        && !e.is_disputed()
                        && factory.extends_horizon() =>
                {
                    confirmation(e, f, factory.as_ref(), &hard_opts).map(Some)
                }
                _ => Ok(None),
            })
            .collect()
    };
    let confirmations = crate::verify::with_jobs(opts.jobs, selected.len(), confirm)?;
    let all = selected.iter().zip(entries.iter_mut()).zip(judged);
    for (((e, res), j), c) in all.zip(confirmations) {
        let fixture = fixtures.get(&e.id);
        let hard = match (fixture, j) {
            (Some(f), Some((run, judged, time_s))) => {
                Some(hard_result(e, source, f, &run, &judged, time_s, c?, opts))
            }
            _ => None,
        };
        if let Some(h) = &hard {
            annotate(e, res, h);
        }
        res.tightness = Some(tightness_record(e, res, hard.as_ref()));
        res.hard = hard;
    }
    Ok(Attached::Done)
}

/// Each selected entry's hard run judged like a family of one seed (None without one).
#[allow(clippy::type_complexity)]
fn judge_hard_runs(
    selected: &[&TheoremEntry],
    fixtures: &BTreeMap<String, HardFixture>,
    runs: &mut BTreeMap<String, (InstanceRun, f64)>,
    hard_opts: &VerifyOptions,
) -> Result<Vec<Option<(InstanceRun, EntryResult, f64)>>> {
    selected
        .iter()
        .map(|e| match (fixtures.get(&e.id), runs.remove(&e.id)) {
            (Some(_), Some((run, time_s))) => {
                crate::verify::judge_entry(e, vec![run.clone()], hard_opts)
                    .map(|j| Some((run, j, time_s)))
            }
            _ => Ok(None),
        })
        .collect()
}

/// The note of a failed hard rate that could not be confirmed (iterate files end at T).
fn unconfirmed_note(h: &HardResult) -> Option<String> {
    (h.gates.rate == GateStatus::Fail && h.confirmation.is_none()).then(|| {
        format!(
            "hard-rate not confirmed at {CONFIRM_FACTOR} T: the iterate files end at T = {} (the rate at T stands, and a legitimate schedule constant can fail here: export with --confirmation-jobs and run your solver on the ID__confirm jobs too, and verify-iterates decides it as verify does)",
            h.horizon
        )
    })
}

/// The run of `f` at [`CONFIRM_FACTOR`] times its horizon, judged like the hard run.
fn confirmation(
    e: &TheoremEntry,
    f: &HardFixture,
    factory: &dyn crate::verify::SolverFactory,
    hard_opts: &VerifyOptions,
) -> Result<Confirmation> {
    let horizon = CONFIRM_FACTOR * f.horizon;
    let (run, _) = evaluate_with(e, &f.spec, horizon, factory)?;
    let j = crate::verify::judge_entry(e, vec![run], hard_opts)?;
    let mut c = Confirmation {
        horizon,
        p_hat: j.p_hat,
        ci: j.ci,
        window: j.window,
        tol: j.tol,
        rate_verdict: j.rate_verdict,
    };
    // the verdict of the confirmation's own rule (threshold p - tol - HARD_MARGIN), so that
    // `fail` here means the gate failed
    if c.ci.is_some() && c.tol.is_some() {
        c.rate_verdict = if c.fails(e.p()) {
            Verdict::Fail
        } else {
            Verdict::Pass
        };
    }
    Ok(c)
}

#[allow(clippy::too_many_arguments)]
fn hard_result(
    e: &TheoremEntry,
    source: &HardSource,
    f: &HardFixture,
    run: &InstanceRun,
    j: &EntryResult,
    time_s: f64,
    confirmation: Option<Confirmation>,
    opts: &VerifyOptions,
) -> HardResult {
    let baseline = match j.p_hat {
        Some(ph) => match crate::fit::baseline_gate(ph, Some(f.p_hat)) {
            crate::fit::BaselineGate::Fail { .. } => GateStatus::Fail,
            _ => GateStatus::Pass,
        },
        None => GateStatus::Fail,
    };
    // the rate fails only when it fails on the confirmation run too; where the PO-LMO
    // hypothesis G > 0 fails the rate is outside the theorem (claims.md D20)
    let outside = run.po_lmo_g.as_ref().is_some_and(|g| g.value <= 0.0);
    let rate = match (&confirmation, j.gates.rate) {
        _ if outside => GateStatus::NotApplicable,
        (Some(c), GateStatus::Fail) if !c.fails(j.p) => GateStatus::Pass,
        (_, g) => g,
    };
    let mhat = if outside {
        GateStatus::NotApplicable
    } else {
        j.gates.mhat
    };
    // A run that completed with its quantity at the rounding floor has nothing to fit: not
    // slow, so hard-run passes and hard-rate does not apply (the random instances count it as
    // floor too; the reference question still sees the change). A run without a fit for any
    // other reason (diverged, quantity not formed) fails hard-run.
    let at_floor = run_at_floor(run, j);
    let run_gate = if j.p_hat.is_none() && !at_floor {
        GateStatus::Fail
    } else {
        j.gates.run
    };
    let gates = Gates {
        baseline,
        rate,
        mhat,
        run: run_gate,
        ..j.gates.clone()
    };
    let (reported, failed): (Vec<String>, Vec<String>) = gates
        .failed()
        .iter()
        .map(|g| format!("hard-{g}"))
        .partition(|g| {
            HARD_REPORT_ONLY.contains(&g.as_str())
                || (!opts.gate_baselines
                    && crate::verify::questions::Question::of(g)
                        == crate::verify::questions::Question::Reference)
        });
    let disputed = f.violated && j.rate_verdict == Verdict::Fail;
    let problem = source.problem_spec(&f.entry);
    let run_failure = (run_gate == GateStatus::Fail).then(|| match (&run.error, &run.status) {
        (Some(e), _) => e.clone(),
        (None, s) if s != "completed" => s.clone(),
        _ => "no fit".into(),
    });
    HardResult {
        run_failure,
        schedule_failures: (run.schedule.iter())
            .filter(|s| s.declared && !s.holds)
            .map(|s| s.note.clone())
            .collect(),
        fixture: source.path_of(&fixture_file(&f.entry)),
        reproduce: crate::verify::reproduce::run_command(e, &problem, &run.constants, f.horizon)
            .unwrap_or_default(),
        problem,
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
        reported_gates: reported,
        po_lmo_g: run.po_lmo_g.clone(),
        confirmation,
        disputed,
        local_slopes: match &run.fit {
            Some(crate::fit::SeriesFit::Fitted(f)) => f
                .local_slopes
                .iter()
                .map(|s| (s.t_lo, s.t_hi, s.slope))
                .collect(),
            _ => Vec::new(),
        },
        series: run.series.clone(),
        envelope_ratio: j.envelope_ratio,
        errata: j.errata.clone(),
        time_s,
    }
}

/// Whether the hard run completed with its quantity at the rounding floor (nothing to fit).
fn run_at_floor(run: &InstanceRun, j: &EntryResult) -> bool {
    j.p_hat.is_none()
        && j.rate_verdict == Verdict::Floor
        && run.error.is_none()
        && run.status == "completed"
}

/// The hard result's verdict and notes carried to its entry: a reproduced stored violation
/// disputes it, reported-only failures are noted, failed hard gates fail it (with why).
fn annotate(e: &TheoremEntry, res: &mut EntryResult, h: &HardResult) {
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
    } else if !e.is_disputed() {
        if h.p_hat.is_none() && h.gates.run == GateStatus::Pass {
            res.notes.push(format!(
                "the quantity of the run on the stored hard instance {} is at the rounding floor throughout: nothing to fit, hard-rate does not apply",
                h.fixture
            ));
        }
        for g in &h.reported_gates {
            let why = if HARD_REPORT_ONLY.contains(&g.as_str()) {
                "see tightness::HARD_REPORT_ONLY"
            } else {
                "the reference regression gates only when asked"
            };
            res.notes.push(format!(
                "{g} failed on the stored hard instance {} (reported, not gating: {why})",
                h.fixture
            ));
        }
        res.reported_gates.extend(h.reported_gates.iter().cloned());
        if !h.failed_gates.is_empty() {
            res.notes.extend(unconfirmed_note(h));
            if let Some(why) = &h.run_failure {
                res.notes
                    .push(format!("hard-run failed on {}: {why}", h.fixture));
            }
            res.failed_gates.extend(h.failed_gates.iter().cloned());
            res.verdict = Verdict::Fail;
        }
    }
}

/// The slowest of the random binding family and the hard instance (module doc of
/// [`TightnessRecord`]).
fn tightness_record(
    e: &TheoremEntry,
    res: &EntryResult,
    hard: Option<&HardResult>,
) -> TightnessRecord {
    let hard_disputed = hard.is_some_and(|h| h.disputed);
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
            // one source of truth: the record is disputed exactly when the entry is or its
            // stored violation reproduced; a slow run of a solver whose gate fails is that
            // solver's failure, not evidence against the paper
            let disputed = res.verdict == Verdict::Disputed || hard_disputed;
            let note = if note.contains("violated") && !disputed {
                format!(
                    "slower than the paper's rate on this run (p_hat {p_hat:.3} < p - tol = {:.3}): the entry's gates judge it, the paper is not disputed",
                    e.p() - tol
                )
            } else {
                note
            };
            TightnessRecord {
                entry: e.id.clone(),
                p: e.p(),
                p_hat,
                ci,
                disputed,
                source,
                family,
                params,
                note,
                fixture,
            }
        }
    }
}

/// The plain-text tightness table of a verify report (entries with a record).
pub fn table(report: &VerifyReport) -> String {
    let rows: Vec<&EntryResult> = report
        .entries
        .iter()
        .filter(|e| e.tightness.is_some())
        .collect();
    if rows.is_empty() {
        return String::new();
    }
    let mut s = format!(
        "\n{:<26} {:>5} {:>7} {:>17} {:>6} {:<15} {:<8} {}\n",
        "tightness", "p", "p_hat", "ci", "source", "family", "hard", "note"
    );
    for e in rows {
        let t = e.tightness.as_ref().unwrap();
        let ci =
            t.ci.map_or("-".to_string(), |c| format!("[{:.3}, {:.3}]", c[0], c[1]));
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

/// The hard-instance gates as verify's after-judging step: the caller composes them into
/// [`VerifyOptions::hard`] (`Some(HardSource::Builtin.into())`), verify never names them.
impl crate::verify::hard::AfterJudging for HardSource {
    fn attach(
        &self,
        selected: &[&TheoremEntry],
        entries: &mut [EntryResult],
        opts: &VerifyOptions,
        log: &dyn HardLog,
    ) -> Result<Attached> {
        attach(selected, entries, self, opts, log)
    }
    fn jobs(&self, selected: &[&TheoremEntry], opts: &VerifyOptions) -> Result<usize> {
        Ok(hard_jobs(selected, &self.load()?, opts).len())
    }
    fn name(&self) -> String {
        format!("{self:?}")
    }
}

impl From<HardSource> for HardGates {
    fn from(source: HardSource) -> Self {
        HardGates(std::sync::Arc::new(source))
    }
}
