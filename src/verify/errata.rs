//! The printed forms of the bounds (non-gating errata) on the runs of an entry.

use super::results::{
    mhat_family, ErratumResult, InstanceRun, PrintedRun, ENVELOPE_RTOL, ERRATUM_CONFIRMED,
    PRINTED_HOLDS,
};
use crate::envelopes::{self, EnvelopeInputs, PrintedCheck, PrintedForm};
use crate::fit::FitConfig;
use crate::problems::Constants;
use crate::theorems::TheoremEntry;

/// Evaluates `form` on one run's quantity series.
pub(crate) fn printed_run(
    form: PrintedForm,
    e: &TheoremEntry,
    k: &Constants,
    series: &[(u64, f64)],
    inputs: &EnvelopeInputs,
) -> PrintedRun {
    let mut r = PrintedRun {
        form,
        worst: None,
        lhs: None,
        rhs: None,
        undefined: None,
        mhat: None,
    };
    match form.check(e) {
        PrintedCheck::Explicit => {
            let ts: Vec<u64> = series.iter().map(|p| p.0).collect();
            match envelopes::printed_series(form, e, k, &ts, inputs) {
                Err(why) => r.undefined = Some(why),
                Ok(bounds) => {
                    r.worst = envelopes::worst_ratio(series, &bounds);
                    if let Some(i) = r.worst.and_then(|w| ts.iter().position(|&t| t == w.t)) {
                        r.lhs = Some(series[i].1);
                        r.rhs = bounds[i];
                    }
                }
            }
        }
        PrintedCheck::Bounded { c } => {
            // the `mhat` gate's rule, with log power 0 (module doc, "Gates")
            r.mhat = envelopes::mhat_bounded_last_decade(&envelopes::m_hat(series, c, 0.0));
        }
    }
    r
}

/// Aggregates the printed forms of an entry's runs.
pub(crate) fn errata_of(e: &TheoremEntry, runs: &[InstanceRun]) -> Vec<ErratumResult> {
    let level = FitConfig::default().level;
    PrintedForm::of(e)
        .into_iter()
        .map(|form| {
            let mut out = ErratumResult {
                name: form.name().to_string(),
                label: form.label().to_string(),
                printed_form: form.printed_form().to_string(),
                status: "not evaluated (no run formed the quantity)".to_string(),
                instance: None,
                source: None,
                t: None,
                lhs: None,
                rhs: None,
                worst_ratio: None,
                mhat_family: None,
                mhat_slope_ci: None,
            };
            let of_form: Vec<(&InstanceRun, &PrintedRun)> = runs
                .iter()
                .flat_map(|r| {
                    r.printed
                        .iter()
                        .filter(|p| p.form == form)
                        .map(move |p| (r, p))
                })
                .collect();
            if let Some(why) = of_form.iter().find_map(|(_, p)| p.undefined.clone()) {
                out.status = format!("undefined ({why})");
                return out;
            }
            match form.check(e) {
                PrintedCheck::Explicit => {
                    let worst = of_form
                        .iter()
                        .filter(|(_, p)| p.worst.is_some())
                        .max_by(|a, b| {
                            a.1.worst
                                .unwrap()
                                .ratio
                                .total_cmp(&b.1.worst.unwrap().ratio)
                        });
                    if let Some((r, p)) = worst {
                        let w = p.worst.unwrap();
                        out.status = if w.ratio > 1.0 + ENVELOPE_RTOL {
                            ERRATUM_CONFIRMED
                        } else {
                            PRINTED_HOLDS
                        }
                        .to_string();
                        out.instance = Some(r.spec.clone());
                        out.t = Some(w.t);
                        out.lhs = p.lhs;
                        out.rhs = p.rhs;
                        out.worst_ratio = Some(w.ratio);
                    }
                }
                PrintedCheck::Bounded { .. } => {
                    let mut names: Vec<&str> =
                        of_form.iter().map(|(r, _)| r.family.as_str()).collect();
                    names.dedup();
                    let highest = names
                        .iter()
                        .filter_map(|name| {
                            let slopes: Vec<f64> = of_form
                                .iter()
                                .filter(|(r, _)| r.family == *name)
                                .filter_map(|(_, p)| p.mhat.map(|m| m.slope))
                                .collect();
                            (!slopes.is_empty()).then(|| mhat_family(name, &slopes, level))
                        })
                        .max_by(|a, b| a.ci[0].total_cmp(&b.ci[0]));
                    if let Some(f) = highest {
                        let run =
                            of_form
                                .iter()
                                .filter(|(r, _)| r.family == f.family)
                                .max_by(|a, b| {
                                    let s = |p: &PrintedRun| {
                                        p.mhat.map_or(f64::NEG_INFINITY, |m| m.slope)
                                    };
                                    s(a.1).total_cmp(&s(b.1))
                                });
                        out.status = if f.ci[0] > envelopes::MHAT_SLOPE_TOL {
                            ERRATUM_CONFIRMED
                        } else {
                            PRINTED_HOLDS
                        }
                        .to_string();
                        out.instance = run.map(|(r, _)| r.spec.clone());
                        out.t = run.and_then(|(_, p)| p.mhat.map(|m| m.window[1]));
                        out.mhat_family = Some(f.family.clone());
                        out.mhat_slope_ci = Some(f.ci);
                    }
                }
            }
            out
        })
        .collect()
}
