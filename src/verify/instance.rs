//! One case on one instance: record the run ([`record_run`]) with the solver a
//! [`SolverFactory`] builds, then judge every entry on it ([`judge_run`]).

use super::errata::printed_run;
use super::feasible::Checked;
use super::results::InstanceRun;
use super::source::{MeasuredWith, RunOrigin, SolverFactory, SolverRequest};
use crate::envelopes::{self, EnvelopeInputs, PrintedForm};
use crate::fit::{self, FitConfig};
use crate::harness::{self, CheckpointRule, RunConfig};
use crate::solvers::schedule::{GSpec, Schedule};
use crate::theorems::{Aggregate, Measure, MhatOf, TheoremEntry};
use crate::trace::Checkpoint;
use crate::{Error, Result};
use std::time::Instant;

/// The per-iterate measures of one run of a case, with the run's status and certified f*:
/// what every entry of the case is judged on ([`judge_run`]).
#[derive(Debug, Clone)]
pub struct RecordedRun {
    /// The measures at `t = 0, 1, ..` (every iterate).
    pub record: Vec<Checkpoint>,
    /// Whether `H_t` followed the solver's own `beta_t` (`MeasuredWith`) rather than the
    /// entry's (a solver that reports no smoothing).
    pub beta_declared: bool,
    /// The schedules the solver stepped with ([`SolverFactory::schedules`], else the entry's).
    pub schedules: crate::solvers::defaults::RunSchedules,
    /// The `tau_t` each step reported (`StepInfo::tau`), for the schedule check.
    pub used_tau: Vec<(usize, f64)>,
    /// The harness's run status, described (`completed`, `diverged at t = ..`, ...).
    pub status: String,
    /// The certified interval around f* the G^Opt measure used, if any.
    pub f_star: Option<crate::problems::Interval>,
    /// Seconds spent producing the record.
    pub time_s: f64,
}

/// Runs the entries of ONE case (they share the schedule) on one instance up to horizon
/// `t_max` with the solver `solver` builds (the entry's own, a broken control, or a user's)
/// and evaluates every entry: quantity series, fit, envelope and M_hat check. The body of a
/// verify job; the hard instances of [`crate::tightness`] use it too.
pub fn run_instance(
    entries: &[&TheoremEntry],
    inst: &crate::Instance,
    origin: &RunOrigin,
    t_max: u64,
    solver: &dyn SolverFactory,
) -> Result<Vec<(String, InstanceRun)>> {
    let recorded = record_run(entries, inst, origin, t_max, solver)?;
    judge_run(entries, inst, origin, t_max, &recorded)
}

/// Checks that the instance satisfies exactly the case's setting.
pub(crate) fn check_setting(
    first: &TheoremEntry,
    inst: &crate::Instance,
    spec: &str,
) -> Result<()> {
    let setting = first.setting();
    let have = inst.problem.assumptions().setting();
    if have != setting.to_string() {
        return Err(Error::invalid(
            format!("instance {spec}"),
            format!("satisfies {have}, but the case needs exactly {setting}"),
        ));
    }
    Ok(())
}

/// Runs the solver `factory` builds for the case of `entries` on `inst` and measures every
/// iterate `t = 0..=t_max` (one more where an entry's quantity needs the next iterate).
pub fn record_run(
    entries: &[&TheoremEntry],
    inst: &crate::Instance,
    origin: &RunOrigin,
    t_max: u64,
    factory: &dyn SolverFactory,
) -> Result<RecordedRun> {
    let clock = Instant::now();
    // The same schedule serves every entry of a case (validated table): build from the first.
    let first = entries[0];
    check_setting(first, inst, &origin.spec)?;
    let k = inst.problem.constants();
    let sched = first.schedule.resolve(&k)?;
    let request = SolverRequest {
        entry: first,
        instance: inst,
        constants: &k,
        schedule: &sched,
        origin,
        t_max,
    };
    let used_schedules = factory.schedules(&request).unwrap_or(sched);
    let checks = factory.checks_iterates();
    let built = factory.build(&request).map_err(|e| match checks {
        true => Error::input(
            format!("solver {:?}", factory.name()),
            super::feasible::job_name(&request),
            format!("the solver factory returned an error: {e}"),
        ),
        false => e,
    })?;
    let measured = MeasuredWith::new(built, factory.measurement_beta(&request));
    let mut solver = Checked::new(measured, checks.then_some(inst.problem.as_ref()));
    let needs_next = entries
        .iter()
        .any(|e| e.quantity.aggregate == Aggregate::MeanOptNext0T);
    let config = RunConfig {
        iterations: t_max as usize + usize::from(needs_next),
        time_limit: None,
        checkpoints: CheckpointRule::All,
        sigma: match first.quantity.sigma {
            Some(crate::theorems::Sigma::Tau0) => sched.tau.at(0),
            None => first.algorithm.default_sigma(sched.tau.at(0)),
        },
    };
    let mut used_tau: Vec<(usize, f64)> = Vec::new();
    let mut trace = harness::run_observed(
        inst.problem.as_ref(),
        &inst.x0,
        &inst.y0,
        &mut solver,
        &config,
        &mut |v| used_tau.push((v.t, v.info.tau)),
    );
    if let Some(e) = solver.error(&factory.name(), &request) {
        return Err(e);
    }
    // every iterate t = 0..=iterations, measured with the run's sigma
    let record: Vec<Checkpoint> = std::mem::take(&mut trace.checkpoints);
    Ok(RecordedRun {
        record,
        beta_declared: solver.inner.declared().unwrap_or(false),
        schedules: used_schedules,
        used_tau,
        status: trace.status.describe(),
        f_star: trace.f_star,
        time_s: clock.elapsed().as_secs_f64(),
    })
}

/// The schedule gate's checks of the beta_t and tau_t the solver stepped with against the
/// entry's schedules (issue 34).
fn schedule_checks(
    sched: &crate::solvers::defaults::RunSchedules,
    recorded: &RecordedRun,
) -> Vec<super::schedule_check::ScheduleCheck> {
    let used_beta: Vec<(usize, f64)> = recorded.record.iter().map(|c| (c.t, c.beta)).collect();
    let mut checks = vec![super::schedule_check::check(
        &sched.beta,
        &used_beta,
        recorded.beta_declared,
    )];
    checks.extend(super::schedule_check::check_tau(
        &sched.tau,
        &recorded.used_tau,
    ));
    checks
}

/// G_1 / G_2 of the PO-LMO schedule the solver stepped with (None for other schedules).
fn po_lmo_g(recorded: &RecordedRun, t_max: u64) -> Option<crate::solvers::schedule::GReport> {
    match recorded.schedules.tau {
        Schedule::PoLmo(t) => Some(
            GSpec {
                kind: t.g_kind(),
                tau: recorded.schedules.tau,
                beta: recorded.schedules.beta,
                lxx: t.lxx,
                lyx: t.lyx,
                mu: t.mu,
            }
            .report(t_max as usize),
        ),
        _ => None,
    }
}

/// The entry with its `C` of `beta_t = C (t+1)^-b` replaced by the one the solver declared and
/// the schedule gate accepted: the explicit envelopes carry `C` (eq:fw-fw-stepsize,
/// eq:fw-proj-stepsize allow any `C > 0`), so a bound with the entry's `C` would fail a
/// solver that legitimately uses another.
fn with_declared_c<'a>(
    e: &'a TheoremEntry,
    checks: &[super::schedule_check::ScheduleCheck],
) -> std::borrow::Cow<'a, TheoremEntry> {
    use crate::theorems::ScheduleSpec;
    let declared = checks
        .iter()
        .find(|c| c.name == "beta_t" && c.declared && c.holds)
        .and_then(|c| c.c_hat)
        .filter(|c| c.is_finite() && *c > 0.0);
    match (&e.schedule, declared) {
        (ScheduleSpec::Poly(s), Some(c)) if s.c > 0.0 && c != s.c => {
            let mut own = e.clone();
            if let ScheduleSpec::Poly(s) = &mut own.schedule {
                s.c = c;
            }
            std::borrow::Cow::Owned(own)
        }
        _ => std::borrow::Cow::Borrowed(e),
    }
}

/// Evaluates every entry of a case on one recorded run: quantity series, fit, envelope,
/// printed forms and M_hat check.
pub fn judge_run(
    entries: &[&TheoremEntry],
    inst: &crate::Instance,
    origin: &RunOrigin,
    t_max: u64,
    recorded: &RecordedRun,
) -> Result<Vec<(String, InstanceRun)>> {
    let first = entries[0];
    let spec = &origin.spec;
    let p = inst.problem.as_ref();
    let k = p.constants();
    let sched = first.schedule.resolve(&k)?;
    let record = &recorded.record;
    let status = &recorded.status;
    let f_star = recorded.f_star;
    let h: Vec<f64> = record.iter().map(|m| m.measures.h).collect();
    let fmax = envelopes::fmax_bound(p, &inst.x0, &inst.y0);
    let scale = crate::measures::natural_scale(inst);
    // G_1 / G_2 of the schedule the solver stepped with
    let po_lmo_g = po_lmo_g(recorded, t_max);
    let run_time = recorded.time_s;
    let schedule = schedule_checks(&sched, recorded);
    let mut out = Vec::with_capacity(entries.len());
    for e in entries {
        let clock = Instant::now();
        let mut run = InstanceRun {
            family: origin.family.clone(),
            spec: spec.to_string(),
            reproduce: origin
                .problem
                .as_deref()
                .and_then(|pr| super::reproduce::run_command(e, pr, &k, t_max))
                .unwrap_or_default(),
            seed_index: origin.seed_index,
            seed: origin.seed,
            dim_x: p.x_set().dim(),
            dim_y: p.y_set().dim(),
            constants: k,
            status: status.clone(),
            fit: None,
            error: None,
            envelope: None,
            mhat: None,
            series: Vec::new(),
            envelope_series: Vec::new(),
            printed: Vec::new(),
            schedule: schedule.clone(),
            po_lmo_g: po_lmo_g.clone(),
            time_s: 0.0,
        };
        // Every entry sees the horizon T_max (the iterate T_max + 1 only where needed).
        let extra = usize::from(e.quantity.aggregate == Aggregate::MeanOptNext0T);
        let upto = (t_max as usize + 1 + extra).min(record.len());
        match crate::theorems::quantity_series(e, &record[..upto]) {
            Err(err) => run.error = Some(err.to_string()),
            Ok(series) => {
                // G^Opt is measured against the lower end of f*: below twice the interval's
                // width it is at the resolution of the certificate (issue 19)
                let cfg = FitConfig {
                    // the floor at the rounding level of the instance's gaps, not of the
                    // series' own maximum (a series of rounding noise is not fitted)
                    scale: (scale.is_finite() && scale > 0.0).then_some(scale),
                    floor_min: match (e.quantity.measure, f_star) {
                        (Measure::GapOpt, Some(i)) => 2.0 * i.width(),
                        _ => 0.0,
                    },
                    ..FitConfig::default()
                };
                match fit::fit_series(&series, &cfg) {
                    Ok(f) => run.fit = Some(f),
                    Err(err) => run.error = Some(err.to_string()),
                }
                let ts: Vec<u64> = series.iter().map(|p| p.0).collect();
                let inputs = EnvelopeInputs {
                    fmax: Some(fmax),
                    h: Some(&h),
                };
                let bounds =
                    envelopes::envelope_series(&with_declared_c(e, &schedule), &k, &ts, &inputs);
                run.envelope = envelopes::worst_ratio_gate(&series, &bounds);
                run.envelope_series = ts
                    .iter()
                    .zip(&bounds)
                    .filter_map(|(&t, b)| b.map(|b| (t, b)))
                    .collect();
                run.printed = PrintedForm::of(e)
                    .into_iter()
                    .map(|form| printed_run(form, e, &k, &series, &inputs))
                    .collect();
                if let Some(m) = &e.mhat {
                    let v: Vec<(u64, f64)> = match m.of {
                        MhatOf::H => record[..upto]
                            .iter()
                            .map(|r| (r.t as u64, r.measures.h))
                            .collect(),
                        MhatOf::Quantity => series.clone(),
                    };
                    let m_hat = envelopes::m_hat(&v, m.c.value, m.log_power);
                    // Checked over the last decade of the horizon (module doc, "Gates").
                    run.mhat = envelopes::mhat_bounded_last_decade(&m_hat);
                }
                run.series = series;
            }
        }
        run.time_s = run_time + clock.elapsed().as_secs_f64();
        out.push((e.id.clone(), run));
    }
    Ok(out)
}
