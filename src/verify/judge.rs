//! Judging an entry on its runs: rate, envelope, M_hat and baseline gates, then the
//! notes ([`annotate`]) once the after-judging steps have run.

use super::errata::errata_of;
use super::options::VerifyOptions;
use super::results::{
    envelope_holds, mhat_family, EntryResult, FamilyResult, GateStatus, Gates, InstanceRun,
    MhatFamily, MhatSummary, ProofRateFamily, ProofRateResult,
};
use crate::envelopes;
use crate::fit::{self, FitConfig, ProofRate, RateClaim, SeriesFit, Verdict};
use crate::solvers::schedule::GReport;
use crate::theorems::TheoremEntry;
use crate::Result;

/// Median of the runs' series at each common horizon (runs with the full grid only).
pub(crate) fn median_series(runs: &[&InstanceRun]) -> Vec<(u64, f64)> {
    let Some(longest) = runs.iter().map(|r| r.series.len()).max() else {
        return Vec::new();
    };
    let full: Vec<&&InstanceRun> = runs.iter().filter(|r| r.series.len() == longest).collect();
    (0..longest)
        .map(|i| {
            let mut v: Vec<f64> = full.iter().map(|r| r.series[i].1).collect();
            v.sort_by(f64::total_cmp);
            let n = v.len();
            let m = if n % 2 == 1 {
                v[n / 2]
            } else {
                0.5 * (v[n / 2 - 1] + v[n / 2])
            };
            (full[0].series[i].0, m)
        })
        .collect()
}

/// Aggregates an entry's runs into its verdict and gates (module doc).
pub(crate) fn judge_entry(
    e: &TheoremEntry,
    runs: Vec<InstanceRun>,
    opts: &VerifyOptions,
) -> Result<EntryResult> {
    let claim = RateClaim::of(e);
    let level = FitConfig::default().level;
    let mut fam_names: Vec<String> = runs.iter().map(|r| r.family.clone()).collect();
    fam_names.dedup();
    let families = family_results(&claim, &runs, &fam_names, level);
    let binding = binding_family(&families);
    let rate_verdict = rate_verdict_of(e, &families);
    let p_hat = binding.map(|f| f.estimate.as_ref().unwrap().p_hat);
    let envelope_ratio = runs
        .iter()
        .filter_map(|r| r.envelope.map(|w| w.ratio))
        .fold(None, |m: Option<f64>, r| Some(m.map_or(r, |m| m.max(r))));
    let consistency_only = envelopes::EnvelopeKind::of(e).and_then(|k| k.consistency_only(e));
    let proof_rate = proof_rate_of(&claim, &families);
    let mhat = mhat_summary(e, &runs, &fam_names, level);
    let baseline = opts.baselines.get(&e.id).copied();
    // a rate gate whose every threshold p - tol is at or below 0 cannot fail: vacuous
    let rate_can_fail = families
        .iter()
        .any(|f| f.tol.is_some_and(|tol| e.p() - tol > 0.0));
    let gates = Gates {
        rate: match rate_verdict {
            Verdict::Fail => GateStatus::Fail,
            Verdict::Pass if !rate_can_fail => GateStatus::Vacuous,
            Verdict::Pass => GateStatus::Pass,
            _ => GateStatus::NotApplicable,
        },
        run: gate(
            runs.iter()
                .all(|r| r.status == "completed" && r.error.is_none()),
        ),
        // an envelope that cannot fail by construction is no gate (module doc, "Gates")
        envelope: match (envelope_ratio, consistency_only) {
            (Some(r), None) => gate(envelope_holds(r)),
            _ => GateStatus::NotApplicable,
        },
        mhat: mhat
            .as_ref()
            .map_or(GateStatus::NotApplicable, |m| gate(m.bounded)),
        baseline: baseline_status(p_hat, baseline),
        schedule: schedule_gate(&runs),
    };
    // the reference regression gates only when asked (module doc of super::questions)
    let (failed_gates, reported_gates): (Vec<String>, Vec<String>) =
        gates.failed().iter().map(|s| s.to_string()).partition(|g| {
            opts.gate_baselines
                || super::questions::Question::of(g) != super::questions::Question::Reference
        });
    let verdict = if e.is_disputed() {
        Verdict::Disputed
    } else if !failed_gates.is_empty() {
        Verdict::Fail
    } else {
        rate_verdict
    };
    let local_slopes = binding
        .map(|f| binding_local_slopes(f, &runs))
        .unwrap_or_default();
    let notes = entry_notes(
        e,
        &families,
        binding,
        &runs,
        consistency_only,
        envelope_ratio,
    );
    let (envelope_label, envelope_role) = envelope_label_and_role(e);
    let est = binding.and_then(|f| f.estimate.as_ref());
    Ok(EntryResult {
        id: e.id.clone(),
        case: e.case.clone(),
        label: e.label.clone(),
        algorithm: e.algorithm.name().to_string(),
        setting: e.setting.clone(),
        quantity: e.quantity_text.clone(),
        p: e.p(),
        p_frac: e.p.frac.clone(),
        log_factor: e.log_factor,
        tol: binding.and_then(|f| f.tol),
        p_hat,
        ci: est.map(|x| x.ci),
        window: est.map(|x| x.window),
        binding_family: binding.map(|f| f.family.clone()),
        floor_free_family: families
            .iter()
            .find(|f| f.runs_floor == 0 && f.runs_fitted > 0)
            .map(|f| f.family.clone()),
        verdict,
        rate_verdict,
        gates,
        failed_gates,
        reported_gates,
        answers: None,
        envelope_ratio,
        envelope_label,
        envelope_role,
        errata: errata_of(e, &runs),
        proof_rate,
        mhat,
        baseline,
        families,
        local_slopes,
        time_s: runs.iter().map(|r| r.time_s).sum(),
        instances: runs,
        notes,
        disputed: e.disputed.clone(),
        hard: None,
        tightness: None,
    })
}

/// A gate that holds when `ok`.
/// The schedule gate: only what the solver declared is checked (an undeclared schedule was
/// replaced by the entry's own, which holds trivially: a gate that cannot fail is no pass).
fn schedule_gate(runs: &[InstanceRun]) -> GateStatus {
    let declared = || runs.iter().flat_map(|r| &r.schedule).filter(|s| s.declared);
    if declared().next().is_none() {
        GateStatus::NotApplicable
    } else {
        gate(declared().all(|s| s.holds))
    }
}

fn gate(ok: bool) -> GateStatus {
    if ok {
        GateStatus::Pass
    } else {
        GateStatus::Fail
    }
}

/// Per family: the exponent estimated over its seeds and its rate verdict.
fn family_results(
    claim: &RateClaim,
    runs: &[InstanceRun],
    fam_names: &[String],
    level: f64,
) -> Vec<FamilyResult> {
    let mut families = Vec::new();
    for name in fam_names {
        let fits: Vec<SeriesFit> = runs
            .iter()
            .filter(|r| &r.family == name)
            .filter_map(|r| r.fit.clone())
            .collect();
        let est = fit::estimate(&fits, level);
        let j = fit::judge(claim, est.as_ref());
        families.push(FamilyResult {
            family: name.clone(),
            runs_floor: est.as_ref().map_or(fits.len(), |e| e.seeds_floor),
            runs_fitted: est.as_ref().map_or(0, |e| e.exponents.len()),
            estimate: est,
            verdict: j.verdict,
            tol: j.tol,
        });
    }
    families
}

/// The binding family: the smallest estimated exponent.
fn binding_family(families: &[FamilyResult]) -> Option<&FamilyResult> {
    families
        .iter()
        .filter(|f| f.estimate.is_some())
        .min_by(|a, b| {
            let pa = a.estimate.as_ref().unwrap().p_hat;
            let pb = b.estimate.as_ref().unwrap().p_hat;
            pa.total_cmp(&pb)
        })
}

/// The rate verdict over the families: disputed entries stay disputed, one failing family
/// fails, else one passing family passes, else the floor.
fn rate_verdict_of(e: &TheoremEntry, families: &[FamilyResult]) -> Verdict {
    let any = |v: Verdict| families.iter().any(|f| f.verdict == v);
    if e.is_disputed() {
        Verdict::Disputed
    } else if any(Verdict::Fail) {
        Verdict::Fail
    } else if any(Verdict::Pass) {
        Verdict::Pass
    } else {
        Verdict::Floor
    }
}

/// The proof-rate check of the random families (None when no family has one).
fn proof_rate_of(claim: &RateClaim, families: &[FamilyResult]) -> Option<ProofRateResult> {
    let random: Vec<ProofRateFamily> = families
        .iter()
        .filter_map(|f| {
            fit::judge_proven(claim, f.estimate.as_ref()).map(|check| ProofRateFamily {
                family: f.family.clone(),
                check,
            })
        })
        .collect();
    (!random.is_empty()).then(|| ProofRateResult {
        k: claim.proven_log_power(),
        gate_k: claim.gate_log_power(),
        random,
        hard: None,
    })
}

/// The M_hat summary of an entry that has an M_hat bound: the slopes per family.
fn mhat_summary(
    e: &TheoremEntry,
    runs: &[InstanceRun],
    fam_names: &[String],
    level: f64,
) -> Option<MhatSummary> {
    e.mhat.as_ref().map(|m| {
        let max_slope = runs
            .iter()
            .filter_map(|r| r.mhat.map(|c| c.slope))
            .fold(f64::NEG_INFINITY, f64::max);
        let fams: Vec<MhatFamily> = fam_names
            .iter()
            .filter_map(|name| {
                let slopes: Vec<f64> = runs
                    .iter()
                    .filter(|r| &r.family == name)
                    .filter_map(|r| r.mhat.map(|c| c.slope))
                    .collect();
                (!slopes.is_empty()).then(|| mhat_family(name, &slopes, level))
            })
            .collect();
        MhatSummary {
            of: m.of,
            c: m.c.value,
            log_power: m.log_power,
            lemma: m.lemma.clone(),
            max_slope,
            bounded: fams.iter().all(|f| f.ci[0] <= envelopes::MHAT_SLOPE_TOL),
            families: fams,
        }
    })
}

/// The regression check against the stored baseline exponent (computed whenever a baseline
/// exists; it gates only with `opts.gate_baselines`).
fn baseline_status(p_hat: Option<f64>, baseline: Option<f64>) -> GateStatus {
    match p_hat.map(|ph| fit::baseline_gate(ph, baseline)) {
        Some(fit::BaselineGate::Fail { .. }) => GateStatus::Fail,
        Some(fit::BaselineGate::Pass { .. }) => GateStatus::Pass,
        Some(fit::BaselineGate::NoBaseline) | None => GateStatus::NotApplicable,
    }
}

/// The local slopes of the binding family's median series.
fn binding_local_slopes(f: &FamilyResult, runs: &[InstanceRun]) -> Vec<(u64, u64, f64)> {
    let rs: Vec<&InstanceRun> = runs.iter().filter(|r| r.family == f.family).collect();
    fit::local_slopes(&median_series(&rs))
        .into_iter()
        .map(|s| (s.t_lo, s.t_hi, s.slope))
        .collect()
}

/// The envelope's label and its role (a gate, or a consistency check that cannot fail).
fn envelope_label_and_role(e: &TheoremEntry) -> (Option<String>, Option<String>) {
    let label = envelopes::EnvelopeKind::of(e)
        .map(|k| k.label().to_string())
        .or_else(|| {
            e.envelope
                .as_ref()
                .map(|f| format!("user envelope {}", f.text()))
        });
    let role = envelopes::EnvelopeKind::of(e)
        .map(|k| {
            if k.consistency_only(e).is_some() {
                "consistency check".to_string()
            } else {
                "gate".to_string()
            }
        })
        .or_else(|| e.envelope.as_ref().map(|_| "gate".to_string()));
    (label, role)
}

/// The entry's notes: the table's own, then what the runs showed (a consistency-only
/// envelope, floors, a rate gate that cannot fail, the PO-LMO G hypothesis, failed runs).
fn entry_notes(
    e: &TheoremEntry,
    families: &[FamilyResult],
    binding: Option<&FamilyResult>,
    runs: &[InstanceRun],
    consistency_only: Option<&str>,
    envelope_ratio: Option<f64>,
) -> Vec<String> {
    let mut notes: Vec<String> = e
        .notes
        .iter()
        .map(|n| format!("{}: {}", n.id, n.text))
        .collect();
    if let (Some(why), Some(r)) = (consistency_only, envelope_ratio) {
        notes.push(format!(
            "envelope ratio {r:.3} is a {why}; the envelope gate is not applicable to this entry"
        ));
    }
    for f in families {
        if f.runs_floor > 0 {
            notes.push(format!(
                "{}: {} of {} runs reached the floating-point floor before a fit window",
                f.family,
                f.runs_floor,
                f.runs_floor + f.runs_fitted
            ));
        }
    }
    // where the log factor's allowance reaches p, no exponent can fail the rate gate at this
    // horizon (T^-p log^k T barely decreases there): say so, and which gates carry the entry
    if let Some(tol) = binding.and_then(|f| f.tol) {
        if e.p() - tol <= 0.0 {
            notes.push(format!(
                "the rate gate cannot fail at this horizon: p - tol = {:.3} <= 0 (the log factor's allowance); the mhat, baseline and hard-instance gates carry this entry",
                e.p() - tol
            ));
        }
    }
    let g_bad: Vec<&GReport> = runs
        .iter()
        .filter_map(|r| r.po_lmo_g.as_ref())
        .filter(|g| g.value <= 0.0)
        .collect();
    if let Some(g) = g_bad.first() {
        notes.push(format!(
            "{} <= 0 on {} of {} runs (smallest {:.4}; D20): the appendix analysis' hypothesis fails on these instances, the rate is measured anyway",
            serde_json::to_value(g.name)
                .ok()
                .and_then(|v| v.as_str().map(String::from))
                .unwrap_or_default(),
            g_bad.len(),
            runs.len(),
            g_bad.iter().map(|g| g.value).fold(f64::INFINITY, f64::min)
        ));
    }
    for r in runs
        .iter()
        .filter(|r| r.status != "completed" || r.error.is_some())
    {
        notes.push(format!(
            "{} seed {}: {}{}",
            r.family,
            r.seed,
            r.status,
            r.error
                .as_deref()
                .map(|e| format!("; {e}"))
                .unwrap_or_default()
        ));
    }
    notes
}

/// `0.5`, `1`, `0.667`: a log power as the notes print it.
pub(crate) fn fmt_power(k: f64) -> String {
    let s = format!("{k:.3}");
    s.trim_end_matches('0').trim_end_matches('.').to_string()
}

/// Finishes the entries after the hard instances were attached: joins the hard instance's
/// printed-form outcomes and proof-rate check into the entry, and writes the errata and
/// proof-rate notes (verify.json notes, HTML entry notes). Reports only: no verdict changes.
pub(crate) fn annotate(
    selected: &[&TheoremEntry],
    entries: &mut [EntryResult],
    reference_gates: bool,
) {
    for (e, res) in selected.iter().zip(entries.iter_mut()) {
        debug_assert_eq!(e.id, res.id);
        res.answers = Some(answers_of(res, reference_gates));
        let claim = RateClaim::of(e);
        if let Some(h) = &res.hard {
            let hard_errata = h.errata.clone();
            res.errata = std::mem::take(&mut res.errata)
                .into_iter()
                .map(
                    |r| match hard_errata.iter().find(|x| x.name == r.name).cloned() {
                        Some(mut x) => {
                            if x.instance.is_some() {
                                x.instance = Some(format!("{} ({})", h.fixture, h.params));
                                x.source = Some("hard".into());
                            }
                            r.join(x)
                        }
                        None => r,
                    },
                )
                .collect();
            if let (Some(ph), Some(ci), Some(w), false) = (h.p_hat, h.ci, h.window, claim.disputed)
            {
                let check = fit::proof_rate(&claim, ph, ci, w);
                match &mut res.proof_rate {
                    Some(p) => p.hard = Some(check),
                    None => {
                        res.proof_rate = Some(ProofRateResult {
                            k: claim.proven_log_power(),
                            gate_k: claim.gate_log_power(),
                            random: Vec::new(),
                            hard: Some(check),
                        })
                    }
                }
            }
        }
        for r in res.errata.iter_mut() {
            if r.source.is_none() && r.instance.is_some() {
                r.source = Some("random".into());
            }
        }
        for r in &res.errata {
            res.notes.push(format!(
                "printed form (non-gating; {}): {}",
                r.label,
                r.describe()
            ));
        }
        if let Some(p) = &res.proof_rate {
            let envelope = |ratio: Option<f64>| {
                match (ratio, res.envelope_role.as_deref()) {
                (Some(r), Some("gate")) if envelope_holds(r) => format!(
                    "envelope ratio {r:.3} <= 1: the envelope of claims.md Sec. 5 holds, so the slower decay is pre-asymptotic"
                ),
                (Some(r), Some("gate")) => {
                    format!("envelope ratio {r:.3} > 1 (the envelope gate fails)")
                }
                (Some(r), _) => format!(
                    "envelope ratio {r:.3} is a consistency check only (pre-asymptotic if an explicit envelope held)"
                ),
                (None, _) => "no explicit envelope (claims.md D12; pre-asymptotic if one held)".to_string(),
            }
            };
            let rate = format!("O(T^-{} log^{} T)", res.p_frac, fmt_power(p.k));
            // the envelope ratio of the runs checked: the random families' or the hard run's
            let mut slow: Vec<(String, ProofRate, Option<f64>)> = p
                .random
                .iter()
                .filter(|f| !f.check.holds)
                .map(|f| (f.family.clone(), f.check, res.envelope_ratio))
                .collect();
            if let (Some(h), Some(hr)) = (p.hard.filter(|h| !h.holds), &res.hard) {
                slow.push((
                    format!("hard instance {}", hr.fixture),
                    h,
                    hr.envelope_ratio,
                ));
            }
            let mut new_notes = Vec::new();
            for (who, c, ratio) in slow {
                new_notes.push(format!(
                    "proof-rate check (report only): {who} is slower than the proven rate {rate} at this horizon (p_hat {:.3} [{:.3}, {:.3}], window [{}, {}], tol {:.3} with k = {}; the gate allows k = {}); {}",
                    c.p_hat, c.ci[0], c.ci[1], c.window[0], c.window[1], c.tol, fmt_power(p.k), fmt_power(p.gate_k), envelope(ratio)
                ));
            }
            res.notes.extend(new_notes);
        }
    }
}

/// The three questions of `res` from its gates and its hard gates ([`super::questions`]);
/// report-only hard gates (`crate::tightness::HARD_REPORT_ONLY`) are left out.
fn answers_of(res: &EntryResult, reference_gates: bool) -> super::questions::Answers {
    let named = |g: &Gates, prefix: &str| -> Vec<(String, GateStatus)> {
        [
            ("rate", g.rate),
            ("run", g.run),
            ("envelope", g.envelope),
            ("mhat", g.mhat),
            ("baseline", g.baseline),
            ("schedule", g.schedule),
        ]
        .into_iter()
        .map(|(n, s)| (format!("{prefix}{n}"), s))
        .collect()
    };
    let mut all = named(&res.gates, "");
    if let Some(h) = &res.hard {
        all.extend(named(&h.gates, "hard-").into_iter().filter(|(n, s)| {
            !(h.reported_gates.contains(n)
                && *s == GateStatus::Fail
                && super::questions::Question::of(n) != super::questions::Question::Reference)
        }));
    }
    super::questions::Answers::of(&all, reference_gates)
}
