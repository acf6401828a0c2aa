//! Scoring a run: the guards against fitting artefacts, the exponent of a usable run, the
//! gates of `verify` it fails, and the record of a confirmed candidate.

use super::records::{Candidate, Winner, CONFIRM_TOL};
use crate::fit::{self, Verdict};
use crate::theorems::TheoremEntry;
use crate::tightness::evaluate_scaled;
use crate::tightness::families::HardSpec;
use crate::verify::controls::Control;
use crate::verify::InstanceRun;
use crate::Result;

/// Largest drift of the local exponent across the fit window (module doc, "Guards"): a decay
/// that is still accelerating (or decelerating) is pre-asymptotic, its window exponent
/// under- (or over-)estimates the asymptotic one.
pub const TREND_TOL: f64 = 0.05;

/// Smallest span of a search fit window, in decades of T (twice `verify`'s minimum).
pub const MIN_SPAN_DECADES: f64 = 1.0;

/// Smallest exponent that counts as a decay: a window with `p_hat` below it is a plateau
/// (pre-asymptotic, or a run that has stopped converging), never a rate.
pub const PLATEAU: f64 = 0.05;

/// The exponent of a usable run, or why it is rejected (module doc, "Guards").
pub fn score(run: &InstanceRun, scale: f64) -> std::result::Result<f64, String> {
    score_with(run, scale, true)
}

/// [`score`]; with `strict = false` only the floor, plateau and completion guards apply
/// (the fallback for entries whose quantity never has a stable window, e.g. an oscillating
/// last iterate: its late-half fit is flagged unstable and never confirmed).
pub(crate) fn score_with(
    run: &InstanceRun,
    scale: f64,
    strict: bool,
) -> std::result::Result<f64, String> {
    if run.status != "completed" {
        return Err("run did not complete".into());
    }
    if run.error.is_some() {
        return Err("quantity or fit error".into());
    }
    let f = match &run.fit {
        Some(fit::SeriesFit::Floor { .. }) => return Err("floor".into()),
        Some(fit::SeriesFit::Fitted(f)) if !f.stable && strict => {
            return Err("unstable window".into())
        }
        Some(fit::SeriesFit::Fitted(f)) => f,
        None => return Err("no fit".into()),
    };
    // The floor relative to the instance's natural scale, not to the series' own maximum.
    let cfg = fit::FitConfig {
        scale: Some(scale),
        ..fit::FitConfig::default()
    };
    match fit::fit_series(&run.series, &cfg) {
        Ok(fit::SeriesFit::Fitted(g)) if g.window == f.window => {}
        _ => return Err("floor (natural scale)".into()),
    }
    if f.exponent < PLATEAU {
        return Err("plateau (no decay on the window)".into());
    }
    if !strict {
        return Ok(f.exponent);
    }
    if ((f.window[1] as f64) / (f.window[0] as f64)).log10() < MIN_SPAN_DECADES {
        return Err("window shorter than a decade".into());
    }
    let d = drift(f);
    if d > TREND_TOL {
        return Err("pre-asymptotic (decay still accelerating)".into());
    }
    if d < -TREND_TOL {
        return Err("pre-asymptotic (decay still slowing down)".into());
    }
    Ok(f.exponent)
}

/// Change of the local exponent across the fit window: the least-squares trend of the local
/// exponents against ln T, times the window's ln-span (positive: accelerating decay).
pub fn drift(f: &fit::Fitted) -> f64 {
    let w: Vec<&fit::LocalSlope> = f
        .local_slopes
        .iter()
        .filter(|s| s.t_lo >= f.window[0] && s.t_hi <= f.window[1])
        .collect();
    if w.len() < 3 {
        return 0.0;
    }
    let x: Vec<f64> = w
        .iter()
        .map(|s| 0.5 * ((s.t_lo as f64).ln() + (s.t_hi as f64).ln()))
        .collect();
    let y: Vec<f64> = w.iter().map(|s| -s.slope).collect();
    match fit::ols(&x, &y) {
        Ok(o) => o.slope * (x[x.len() - 1] - x[0]),
        Err(_) => 0.0,
    }
}

/// The real solver's rate verdict for a single run's fit.
fn verdict_of(entry: &TheoremEntry, run: &InstanceRun) -> Option<(fit::Estimate, fit::Judgement)> {
    let sf = run.fit.clone()?;
    let est = fit::estimate(std::slice::from_ref(&sf), fit::FitConfig::default().level)?;
    let j = fit::judge(&fit::RateClaim::of(entry), Some(&est));
    Some((est, j))
}

/// The gates `verify` would report for this single run (rate, run, envelope, M_hat; the
/// random instances' baselines do not apply): the names of the failed ones.
pub fn failed_gates(entry: &TheoremEntry, run: &InstanceRun) -> Result<Vec<String>> {
    let mut opts = crate::verify::VerifyOptions::new(crate::verify::Tier::Test);
    opts.baselines = Default::default();
    opts.gate_baselines = false;
    opts.hard = None;
    let j = crate::verify::judge_entry(entry, vec![run.clone()], &opts)?;
    Ok(j.gates.failed().iter().map(|g| g.to_string()).collect())
}

pub(super) fn candidate(
    entry: &TheoremEntry,
    spec: HardSpec,
    t: u64,
    control: Option<Control>,
) -> Candidate {
    let rejected = |spec, r: String, loose: Option<f64>| Candidate {
        spec,
        p_hat: None,
        verdict: None,
        rejected: Some(r),
        clear: false,
        p_hat_loose: loose,
    };
    match evaluate_scaled(entry, &spec, t, control) {
        Err(e) => rejected(
            spec,
            format!("build: {}", first_words(&e.to_string())),
            None,
        ),
        Ok((run, scale)) => {
            let j = verdict_of(entry, &run).map(|(_, j)| j);
            let gates_ok = failed_gates(entry, &run).is_ok_and(|g| g.is_empty());
            let clear = |p: f64| {
                gates_ok
                    && j.is_some_and(|j| {
                        j.verdict == Verdict::Pass
                            && p >= entry.p() - j.tol.unwrap_or(fit::BASE_TOL)
                    })
            };
            match score(&run, scale) {
                Ok(p) => Candidate {
                    p_hat: Some(p),
                    verdict: j.map(|j| j.verdict),
                    rejected: None,
                    clear: clear(p),
                    p_hat_loose: None,
                    spec,
                },
                Err(r) => {
                    let loose = score_with(&run, scale, false).ok().filter(|&p| clear(p));
                    rejected(spec, r, loose)
                }
            }
        }
    }
}

fn first_words(s: &str) -> String {
    s.split_whitespace().take(6).collect::<Vec<_>>().join(" ")
}

/// The record of a spec at `horizon`, confirmed at `confirm_factor * horizon` (None when the
/// fit is not usable at `horizon`).
pub(crate) fn winner_record(
    entry: &TheoremEntry,
    spec: &HardSpec,
    horizon: u64,
    confirm_factor: u64,
) -> Result<Option<Winner>> {
    winner_record_with(entry, spec, horizon, confirm_factor, true)
}

/// [`winner_record`] under the strict or the loose guards ([`score_with`]); a loose record
/// is never confirmed.
pub(crate) fn winner_record_with(
    entry: &TheoremEntry,
    spec: &HardSpec,
    horizon: u64,
    confirm_factor: u64,
    strict: bool,
) -> Result<Option<Winner>> {
    let (run, scale) = evaluate_scaled(entry, spec, horizon, None)?;
    if score_with(&run, scale, strict).is_err() {
        return Ok(None);
    }
    let f = run
        .fit
        .as_ref()
        .and_then(|f| f.fitted())
        .expect("usable fit");
    let (est, judged) = verdict_of(entry, &run).expect("a fitted run has an estimate");
    let tol = judged.tol.unwrap_or(fit::BASE_TOL);
    let claim = fit::RateClaim::of(entry);
    let confirm_horizon = horizon * confirm_factor.max(1);
    let mut envelope_ratio = run.envelope.map(|w| w.ratio);
    let (confirm_p_hat, confirm_verdict) = if confirm_factor > 1 {
        let (long, scale) = evaluate_scaled(entry, spec, confirm_horizon, None)?;
        if let Some(w) = long.envelope {
            envelope_ratio = Some(envelope_ratio.map_or(w.ratio, |r| r.max(w.ratio)));
        }
        (
            score(&long, scale).ok(),
            verdict_of(entry, &long).map(|(_, j)| j.verdict),
        )
    } else {
        (Some(f.exponent), Some(judged.verdict))
    };
    // Confirmed: usable at the longer horizon, the exponent within CONFIRM_TOL, and the same
    // verdict of the rate gate there.
    let _ = claim;
    let confirmed = strict
        && confirm_p_hat.is_some_and(|q| (q - f.exponent).abs() <= CONFIRM_TOL)
        && confirm_verdict == Some(judged.verdict);
    Ok(Some(Winner {
        spec: spec.clone(),
        family: spec.family_name(),
        params: spec.params_text(),
        horizon,
        p_hat: f.exponent,
        ci: est.ci,
        window: f.window,
        local_slopes: f
            .local_slopes
            .iter()
            .map(|s| (s.t_lo, s.t_hi, s.slope))
            .collect(),
        confirm_p_hat,
        confirm_horizon,
        confirmed,
        tol,
        verdict: judged.verdict,
        envelope_ratio,
        failed_gates: failed_gates(entry, &run)?,
        series: run.series.clone(),
    }))
}
