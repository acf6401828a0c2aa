//! The search procedure (module doc, "Procedure"): random search, local refinement and
//! confirmation within a fixed budget per entry, and the loop over the selected entries.

use super::proposals::{mutate, sample};
use super::records::{Candidate, EntrySearch, SearchConfig, Winner};
use super::scoring::{candidate, winner_record, winner_record_with};
use crate::fit::Verdict;
use crate::theorems::TheoremEntry;
use crate::tightness::families::HardSpec;
use crate::tightness::HardFixture;
use crate::{Error, Result};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;
use std::collections::BTreeMap;
use std::time::Instant;

/// Stable 64-bit FNV-1a hash of a text (seeds per entry).
fn hash(s: &str) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in s.bytes() {
        h ^= b as u64;
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}
/// The `k` best distinct candidates satisfying `keep`, by exponent.
fn best_of(all: &[Candidate], k: usize, keep: fn(&Candidate) -> bool) -> Vec<Candidate> {
    let mut ok: Vec<&Candidate> = all.iter().filter(|c| keep(c)).collect();
    let key = |c: &Candidate| c.p_hat.or(c.p_hat_loose).unwrap_or(f64::INFINITY);
    ok.sort_by(|a, b| key(a).total_cmp(&key(b)));
    let mut seen = std::collections::BTreeSet::new();
    ok.into_iter()
        .filter(|c| seen.insert(c.spec.params_text()))
        .take(k)
        .cloned()
        .collect()
}

/// Confirms `specs` in parallel and returns the usable records, best first (confirmed
/// before unconfirmed, then by exponent).
fn confirm(entry: &TheoremEntry, specs: &[HardSpec], cfg: &SearchConfig) -> Result<Vec<Winner>> {
    let mut records: Vec<Winner> = specs
        .par_iter()
        .map(|c| winner_record(entry, c, cfg.horizon, cfg.confirm_factor))
        .collect::<Result<Vec<_>>>()?
        .into_iter()
        .flatten()
        .collect();
    records.sort_by(|a, b| {
        (!a.confirmed, a.p_hat)
            .partial_cmp(&(!b.confirmed, b.p_hat))
            .unwrap_or(std::cmp::Ordering::Equal)
    });
    Ok(records)
}

/// Runs the search for one entry (module doc). `incumbent` (the stored instance) competes in
/// the confirmation stage.
pub(crate) fn search_entry(
    entry: &TheoremEntry,
    cfg: &SearchConfig,
    incumbent: Option<&HardSpec>,
) -> Result<EntrySearch> {
    let clock = Instant::now();
    let setting = entry.setting();
    let mut rng = ChaCha8Rng::seed_from_u64(hash(&entry.id) ^ cfg.seed);
    let batch = 2 * cfg.jobs.unwrap_or_else(rayon::current_num_threads).max(1);
    let max_evals = cfg.max_evals.unwrap_or(usize::MAX);
    let mut all: Vec<Candidate> = Vec::new();
    let eval_batch = |specs: Vec<HardSpec>| -> Vec<Candidate> {
        specs
            .into_par_iter()
            .map(|s| candidate(entry, s, cfg.horizon, None))
            .collect()
    };
    // 1. Random search.
    let random_budget = cfg.budget_s * (1.0 - cfg.refine_frac);
    while clock.elapsed().as_secs_f64() < random_budget && all.len() < max_evals {
        let n = batch.min(max_evals - all.len());
        let specs: Vec<HardSpec> = (0..n).map(|_| sample(setting, &mut rng)).collect();
        all.extend(eval_batch(specs));
    }
    // 2. Local refinement of the best few eligible candidates.
    let mut parents = best_of(&all, cfg.top, Candidate::eligible);
    while !parents.is_empty()
        && clock.elapsed().as_secs_f64() < cfg.budget_s
        && all.len() < max_evals
    {
        let n = batch.min(max_evals - all.len());
        let idx: Vec<usize> = (0..n).map(|i| i % parents.len()).collect();
        let specs: Vec<HardSpec> = idx
            .iter()
            .map(|&i| mutate(&parents[i].spec, &mut rng))
            .collect();
        let out = eval_batch(specs);
        for (i, c) in idx.into_iter().zip(out) {
            if c.eligible() && c.p_hat.unwrap() < parents[i].p_hat.unwrap() {
                parents[i] = c.clone();
            }
            all.push(c);
        }
    }
    let mut rejected: BTreeMap<String, usize> = BTreeMap::new();
    for c in &all {
        if let Some(r) = &c.rejected {
            *rejected.entry(r.clone()).or_default() += 1;
        }
    }
    // 3. Confirmation: the best eligible candidates and the incumbent; separately the
    //    slowest candidates below the rate.
    let finalists = best_of(&all, cfg.top.max(1), Candidate::eligible);
    let mut contenders: Vec<HardSpec> = finalists.iter().map(|c| c.spec.clone()).collect();
    if let Some(inc) = incumbent {
        if !contenders
            .iter()
            .any(|c| c.params_text() == inc.params_text())
        {
            contenders.push(inc.clone());
        }
    }
    let records = confirm(entry, &contenders, cfg)?;
    let below: Vec<HardSpec> = best_of(&all, cfg.top.max(1), Candidate::below_rate)
        .into_iter()
        .map(|c| c.spec)
        .collect();
    let below_records = confirm(entry, &below, cfg)?;
    // A proven violation wins outright (it is stored, marked disputed); otherwise the hardest
    // confirmed instance on which the gate passes.
    let violation = below_records.iter().find(|w| w.proves_violation()).cloned();
    // Fallback when no candidate has a stable window: the slowest loose candidate.
    let fallback = || -> Result<Option<Winner>> {
        for c in best_of(&all, cfg.top.max(1), Candidate::fallback) {
            if let Some(w) = winner_record_with(entry, &c.spec, cfg.horizon, 1, false)? {
                if w.failed_gates.is_empty() && w.verdict == Verdict::Pass {
                    return Ok(Some(w));
                }
            }
        }
        Ok(None)
    };
    let strict_winner = violation.or_else(|| {
        let clear = |w: &&Winner| {
            w.verdict == Verdict::Pass && w.p_hat >= entry.p() - w.tol && w.failed_gates.is_empty()
        };
        records
            .iter()
            .filter(clear)
            .find(|w| w.confirmed)
            .or_else(|| records.iter().find(clear))
            .cloned()
    });
    let winner = match strict_winner {
        Some(w) => Some(w),
        None => fallback()?,
    };
    Ok(EntrySearch {
        id: entry.id.clone(),
        p: entry.p(),
        winner,
        below_rate: below_records.into_iter().find(|w| w.confirmed),
        evaluations: all.len(),
        below_rate_count: all.iter().filter(|c| c.below_rate()).count(),
        rejected,
        best: finalists
            .iter()
            .map(|c| (c.spec.to_string(), c.p_hat.unwrap_or(f64::NAN)))
            .collect(),
        elapsed_time_s: clock.elapsed().as_secs_f64(),
        budget_s: cfg.budget_s,
    })
}

/// Runs the search for every selected entry, one after the other (each uses the pool).
/// `incumbents` (the stored fixtures, by entry id) take part in the confirmation stage;
/// `done` is called after each entry (progress output, fixture writing). The entries
/// `recorded` holds (`tighten --resume`) are taken from it, not searched. A stop requested by
/// a signal (`crate::interrupt`) ends the search after the entry in progress.
pub fn search(
    table: &[TheoremEntry],
    filter: Option<&str>,
    cfg: &SearchConfig,
    incumbents: &BTreeMap<String, HardFixture>,
    recorded: &BTreeMap<String, EntrySearch>,
    done: &mut (dyn FnMut(&TheoremEntry, &EntrySearch) -> Result<()> + Send),
) -> Result<Vec<EntrySearch>> {
    let selected: Vec<&TheoremEntry> = table
        .iter()
        .filter(|e| filter.map_or(true, |f| e.id.contains(f)))
        .collect();
    if selected.is_empty() {
        return Err(Error::invalid(
            "--cases",
            format!("no theorem entry id contains {:?}", filter.unwrap_or("")),
        ));
    }
    if !(cfg.budget_s.is_finite() && cfg.budget_s > 0.0) {
        return Err(Error::invalid(
            "--budget",
            format!("{} must be positive", cfg.budget_s),
        ));
    }
    if cfg.horizon < 64 {
        return Err(Error::invalid("search horizon", "must be at least 64"));
    }
    let progress = crate::progress::Jobs::new("tighten", selected.len() as u64);
    let run = || -> Result<Vec<EntrySearch>> {
        let mut out = Vec::new();
        for e in &selected {
            let r = match recorded.get(&e.id) {
                Some(r) => r.clone(),
                // a first signal: the entries searched so far are the result
                None if crate::interrupt::requested() => break,
                None => {
                    progress.start(&format!("{} (budget {} s)", e.id, cfg.budget_s));
                    search_entry(e, cfg, incumbents.get(&e.id).map(|f| &f.spec))?
                }
            };
            progress.suspend(|| done(e, &r))?;
            progress.done();
            out.push(r);
        }
        progress.finish();
        Ok(out)
    };
    // the candidates of a batch are the jobs: as many as the workers (search_entry)
    crate::verify::with_jobs(cfg.jobs, usize::MAX, run)?
}
