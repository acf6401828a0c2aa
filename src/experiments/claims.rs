//! Verdicts on the paper's qualitative claims about Figure 1 and Table 3 (claims.md 6.3, 6.4),
//! computed from the runs of one experiment.
//!
//! The claims are qualitative; these are the operational readings (all on the plotted measure,
//! `G_X^LMO + G_Y` or `G_X^PO + G_Y`, and its best-so-far value, since Frank-Wolfe gaps
//! oscillate):
//!
//! * **keeps decreasing**: the best-so-far measure at the end of the run is below
//!   [`KEEP_DECREASING`] times its value at half the run's solver time (a decrease of at least
//!   10% over the second half). **Plateaus**: the opposite.
//! * **1** (`fig:Experiment`, L749): the better of the proposed LMO-primal methods (LMO-LMO,
//!   LMO-PO) ends below every baseline that ran, and both keep decreasing.
//! * **2**: LMO-PO ends with the smallest measure of all runs.
//! * **3**: LMO-LMO ends below R-PDCG and CG-RPGA (those that ran), and both of those plateau.
//! * **4** (robust only): R-PDCG is not applicable (Y, the simplex, is not strongly convex).
//! * **5**: the PO-primal methods (PO-LMO, AGP) improve only marginally, i.e. their measure
//!   decreases by less than a factor [`MARGINAL`] over the run, and end above the better
//!   proposed LMO-primal method.
//! * **Table 3** (`table:iters`, L753): the fewest iterations of an LMO-primal method exceed
//!   the most of a PO-primal method; the mean LMO/PO iteration ratio is shown with the paper's.
//!
//! Claims 1, 2 and 5 compare methods whose plotted measures differ (`G_X^PO` with sigma is not
//! on the scale of the Frank-Wolfe gap `G_X^LMO`), so they are also decided on the common
//! measure `G_X^LMO + G_Y` ([`on_common_measure`]).
//!
//! A claim is *inconclusive* (`holds: null`) when a run it needs is missing, did not iterate or
//! has no finite measure.
//!
//! ```
//! use saddlefw::experiments::claims::{keeps_decreasing, verdicts};
//! use saddlefw::experiments::params::Algorithm;
//! use saddlefw::experiments::record::{CheckpointRecord, RunRecord, RunStatus};
//! use saddlefw::experiments::Which;
//! let cp = |t, time_s, m: f64| CheckpointRecord {
//!     t, time_s, measure: Some(m), gx_lmo: Some(m), gx_po: None, gy: Some(0.0), gy_lmo: None, h: None,
//! };
//! let mut r = RunRecord::not_run(Algorithm::LmoPo, RunStatus::TimeLimit, String::new());
//! r.iterations = 8;
//! r.wall_time_s = 2.0;
//! // best-so-far 1.0 at half time, 0.5 at the end: a decrease of more than 10%
//! r.checkpoints = vec![cp(0, 0.0, 4.0), cp(2, 1.0, 1.0), cp(8, 2.0, 0.5)];
//! assert_eq!(keeps_decreasing(&r), Some(true));
//! r.checkpoints[2].measure = Some(0.95);
//! assert_eq!(keeps_decreasing(&r), Some(false));
//! // with no run that iterated, every claim is inconclusive, never passed
//! let none: Vec<RunRecord> = Algorithm::ALL
//!     .iter()
//!     .map(|&a| RunRecord::not_run(a, RunStatus::Skipped, "not run".into()))
//!     .collect();
//! let v = verdicts(Which::Dl, &none);
//! assert!(!v.is_empty() && v.iter().all(|c| c.holds.is_none()), "{v:?}");
//! ```

use super::params::{Algorithm, Experiment, PrimalOracle};
use super::record::{RunRecord, RunStatus};
use super::Which;
use crate::report::ClaimVerdict;

/// "Keeps decreasing": best-so-far at the end `<` this factor times best-so-far at half time.
pub const KEEP_DECREASING: f64 = 0.9;
/// "Marginal improvement": the measure decreased by less than this factor over the run.
pub const MARGINAL: f64 = 10.0;

const FIG: &str = "fig:Experiment";

fn get(runs: &[RunRecord], a: Algorithm) -> Option<&RunRecord> {
    runs.iter()
        .find(|r| r.algorithm == a.name() && r.status.ran() && r.iterations > 0)
}

fn fmt(v: f64) -> String {
    format!("{v:.3e}")
}

/// The best-so-far measure at the end and at half the run's solver time.
pub fn halves(r: &RunRecord) -> Option<(f64, f64)> {
    let end = r.best()?;
    let half = r.best_until(0.5 * r.wall_time_s)?;
    Some((half, end))
}

/// Whether the run keeps decreasing (see the module documentation); None without measures.
pub fn keeps_decreasing(r: &RunRecord) -> Option<bool> {
    halves(r).map(|(half, end)| end < KEEP_DECREASING * half)
}

fn trend(r: &RunRecord) -> String {
    match halves(r) {
        Some((half, end)) => format!(
            "{} best {} (at half time {}, {})",
            r.algorithm,
            fmt(end),
            fmt(half),
            if end < KEEP_DECREASING * half {
                "still decreasing"
            } else {
                "plateau"
            }
        ),
        None => format!("{}: no finite measure", r.algorithm),
    }
}

fn verdict(claim: &str, label: &str, holds: Option<bool>, evidence: String) -> ClaimVerdict {
    ClaimVerdict {
        claim: claim.to_string(),
        label: Some(label.to_string()),
        holds,
        evidence,
    }
}

fn missing(claim: &str, label: &str, what: &[Algorithm]) -> ClaimVerdict {
    verdict(
        claim,
        label,
        None,
        format!(
            "inconclusive: needs runs of {} with finite measures",
            what.iter().map(|a| a.name()).collect::<Vec<_>>().join(", ")
        ),
    )
}

/// The runs with the plotted measure replaced by `G_X^LMO + G_Y` for every method, the
/// measure on which LMO- and PO-primal methods compare like with like (each checkpoint
/// records both `G_X` measures).
pub fn on_common_measure(runs: &[RunRecord]) -> Vec<RunRecord> {
    runs.iter()
        .cloned()
        .map(|mut r| {
            for c in &mut r.checkpoints {
                c.measure = match (c.gx_lmo, c.gy) {
                    (Some(a), Some(b)) => Some(a + b),
                    _ => None,
                };
            }
            r.measure = "G_X^LMO + G_Y".into();
            r
        })
        .collect()
}

/// Suffix of the verdicts computed with [`on_common_measure`].
pub const COMMON: &str = " [common measure G_X^LMO + G_Y for every method]";

/// All verdicts for an experiment: claims 1-5 and Table 3 on the plotted measures (the
/// paper's reading), then claims 1, 2 and 5, which compare LMO- with PO-primal methods, once
/// more on the common measure.
pub fn verdicts(which: Which, runs: &[RunRecord]) -> Vec<ClaimVerdict> {
    let e = which.experiment();
    let mut out = vec![claim1(runs), claim2(runs), claim3(runs)];
    if e == Experiment::Robust {
        out.push(claim4(runs));
    }
    out.push(claim5(runs));
    out.push(table3(which, runs));
    let common = on_common_measure(runs);
    for mut v in [claim1(&common), claim2(&common), claim5(&common)] {
        v.claim.push_str(COMMON);
        out.push(v);
    }
    out
}

const BASELINES: [Algorithm; 4] = [
    Algorithm::SpFw,
    Algorithm::Agp,
    Algorithm::RPdcg,
    Algorithm::CgRpga,
];

fn claim1(runs: &[RunRecord]) -> ClaimVerdict {
    let claim = "1. The proposed algorithms converge faster and keep decreasing, compared with the benchmarks";
    let (Some(ll), Some(lp)) = (get(runs, Algorithm::LmoLmo), get(runs, Algorithm::LmoPo)) else {
        return missing(claim, FIG, &[Algorithm::LmoLmo, Algorithm::LmoPo]);
    };
    let base: Vec<&RunRecord> = BASELINES.iter().filter_map(|a| get(runs, *a)).collect();
    let (Some(bl), Some(bp)) = (ll.best(), lp.best()) else {
        return missing(claim, FIG, &[Algorithm::LmoLmo, Algorithm::LmoPo]);
    };
    let best_base = base
        .iter()
        .filter_map(|r| r.best().map(|b| (b, r.algorithm.as_str())))
        .min_by(|a, b| a.0.total_cmp(&b.0));
    let Some((bb, bname)) = best_base else {
        return verdict(claim, FIG, None, "inconclusive: no baseline ran".into());
    };
    let proposed = bl.min(bp);
    let (kl, kp) = (keeps_decreasing(ll), keeps_decreasing(lp));
    let holds = proposed < bb && kl == Some(true) && kp == Some(true);
    verdict(
        claim,
        FIG,
        Some(holds),
        format!(
            "best proposed LMO-primal measure {} vs best baseline {} ({bname}); {}; {}",
            fmt(proposed),
            fmt(bb),
            trend(ll),
            trend(lp)
        ),
    )
}

fn claim2(runs: &[RunRecord]) -> ClaimVerdict {
    let claim = "2. LMO-PO is the most effective configuration";
    let Some(lp) = get(runs, Algorithm::LmoPo).and_then(|r| r.best().map(|b| (r, b))) else {
        return missing(claim, FIG, &[Algorithm::LmoPo]);
    };
    let others: Vec<(f64, &str)> = Algorithm::ALL
        .iter()
        .filter(|a| **a != Algorithm::LmoPo)
        .filter_map(|a| get(runs, *a))
        .filter_map(|r| r.best().map(|b| (b, r.algorithm.as_str())))
        .collect();
    let Some(&(ob, oname)) = others.iter().min_by(|a, b| a.0.total_cmp(&b.0)) else {
        return verdict(claim, FIG, None, "inconclusive: no other run".into());
    };
    verdict(
        claim,
        FIG,
        Some(lp.1 < ob),
        format!(
            "LMO-PO best measure {} vs the best other method {} ({oname}); ratio {:.3}",
            fmt(lp.1),
            fmt(ob),
            lp.1 / ob
        ),
    )
}

fn claim3(runs: &[RunRecord]) -> ClaimVerdict {
    let claim = "3. LMO-LMO clearly outperforms R-PDCG and CG-RPGA, both of which tend to plateau prematurely";
    let Some(ll) = get(runs, Algorithm::LmoLmo) else {
        return missing(claim, FIG, &[Algorithm::LmoLmo]);
    };
    let Some(bl) = ll.best() else {
        return missing(claim, FIG, &[Algorithm::LmoLmo]);
    };
    let rivals: Vec<&RunRecord> = [Algorithm::RPdcg, Algorithm::CgRpga]
        .iter()
        .filter_map(|a| get(runs, *a))
        .collect();
    if rivals.is_empty() {
        return missing(claim, FIG, &[Algorithm::RPdcg, Algorithm::CgRpga]);
    }
    let mut holds = Some(true);
    let mut ev = vec![format!("LMO-LMO best {}", fmt(bl))];
    for r in &rivals {
        match (r.best(), keeps_decreasing(r)) {
            (Some(b), Some(k)) => {
                if bl >= b || k {
                    holds = holds.map(|_| false);
                }
                ev.push(trend(r));
            }
            _ => {
                holds = None;
                ev.push(format!("{}: no finite measure", r.algorithm));
            }
        }
    }
    if rivals.len() < 2 {
        ev.push("(R-PDCG not run)".into());
    }
    verdict(claim, FIG, holds, ev.join("; "))
}

fn claim4(runs: &[RunRecord]) -> ClaimVerdict {
    let claim =
        "4. R-PDCG is not applicable to the robust problem (its dual set is not strongly convex)";
    let r = runs.iter().find(|r| r.algorithm == Algorithm::RPdcg.name());
    match r {
        Some(r) if matches!(r.status, RunStatus::NotApplicable | RunStatus::Skipped) => verdict(
            claim,
            FIG,
            Some(true),
            format!(
                "{}: {}",
                r.status.as_str(),
                r.status_detail.clone().unwrap_or_default()
            ),
        ),
        Some(r) => verdict(
            claim,
            FIG,
            Some(false),
            format!("R-PDCG ran: {}", r.status_text()),
        ),
        None => verdict(claim, FIG, None, "R-PDCG not requested".into()),
    }
}

fn claim5(runs: &[RunRecord]) -> ClaimVerdict {
    let claim =
        "5. Primal PO-based methods (PO-LMO, AGP) converge slowly, with only marginal improvement";
    let po: Vec<&RunRecord> = [Algorithm::PoLmo, Algorithm::Agp]
        .iter()
        .filter_map(|a| get(runs, *a))
        .collect();
    if po.is_empty() {
        return missing(claim, FIG, &[Algorithm::PoLmo, Algorithm::Agp]);
    }
    let lmo_best = [Algorithm::LmoLmo, Algorithm::LmoPo]
        .iter()
        .filter_map(|a| get(runs, *a))
        .filter_map(|r| r.best())
        .reduce(f64::min);
    let mut holds = Some(true);
    let mut ev = Vec::new();
    for r in &po {
        match (r.initial(), r.best()) {
            (Some(i), Some(b)) => {
                let factor = i / b;
                let marginal = factor < MARGINAL;
                let slower = lmo_best.map(|l| b > l);
                if !marginal || slower == Some(false) {
                    holds = holds.map(|_| false);
                }
                if slower.is_none() {
                    holds = holds.and(None);
                }
                ev.push(format!(
                    "{}: {} -> {} (decrease x{:.2}{})",
                    r.algorithm,
                    fmt(i),
                    fmt(b),
                    factor,
                    if marginal { ", marginal" } else { "" }
                ));
            }
            _ => {
                holds = None;
                ev.push(format!("{}: no finite measure", r.algorithm));
            }
        }
    }
    match lmo_best {
        Some(l) => ev.push(format!("best proposed LMO-primal {}", fmt(l))),
        None => ev.push("no proposed LMO-primal run to compare with".into()),
    }
    if po.len() < 2 {
        ev.push("(only one PO-primal method ran)".into());
    }
    verdict(claim, FIG, holds, ev.join("; "))
}

fn table3(which: Which, runs: &[RunRecord]) -> ClaimVerdict {
    let claim = "Table 3: LMO on the primal allows more iterations than PO within the same time";
    let label = "table:iters";
    let group = |o: PrimalOracle| -> Vec<(&str, usize)> {
        runs.iter()
            .filter(|r| r.status.ran() && r.primal_oracle == o)
            .map(|r| (r.algorithm.as_str(), r.iterations))
            .collect()
    };
    let (lmo, po) = (group(PrimalOracle::Lmo), group(PrimalOracle::Po));
    let (Some(lmin), Some(pmax)) = (
        lmo.iter().min_by_key(|(_, n)| *n),
        po.iter().max_by_key(|(_, n)| *n),
    ) else {
        return verdict(
            claim,
            label,
            None,
            "inconclusive: needs an LMO-primal and a PO-primal run".into(),
        );
    };
    let mean = |v: &[(&str, usize)]| v.iter().map(|(_, n)| *n as f64).sum::<f64>() / v.len() as f64;
    let ours = mean(&lmo) / mean(&po).max(1.0);
    // the paper's ratio over the same algorithms
    let paper_of = |name: &str| Algorithm::parse(name).and_then(|a| which.paper_iterations(a));
    let paper_mean = |v: &[(&str, usize)]| {
        let xs: Vec<f64> = v
            .iter()
            .filter_map(|(n, _)| paper_of(n))
            .map(|n| n as f64)
            .collect();
        (!xs.is_empty()).then(|| xs.iter().sum::<f64>() / xs.len() as f64)
    };
    let paper = match (paper_mean(&lmo), paper_mean(&po)) {
        (Some(a), Some(b)) => format!("; paper ({}, same algorithms): {:.2}", which.name(), a / b),
        _ => String::new(),
    };
    verdict(
        claim,
        label,
        Some(lmin.1 > pmax.1),
        format!(
            "fewest LMO-primal iterations {} ({}) vs most PO-primal {} ({}); mean LMO/PO iteration ratio {:.2}{paper}",
            lmin.1, lmin.0, pmax.1, pmax.0, ours
        ),
    )
}
