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
//! * **Table 3** (`table:iters`, L753): the slowest LMO-primal method completes more
//!   iterations per second than the fastest PO-primal method. Rates, not counts, so that a run
//!   that stopped early compares fairly; for runs that all hit the time limit this is the
//!   paper's comparison of counts. The rate is judged per **CPU-second of the solver** (solver
//!   time scaled by the run's CPU share, [`RunRecord::iterations_per_cpu_second`]), because a
//!   run that shared its core with other work completes fewer iterations per wall-clock
//!   second for reasons that have nothing to do with the method. When a run got less than
//!   [`CONTENDED_SHARE`] of a CPU and the verdict per CPU-second differs from the one per
//!   wall-clock second, the verdict is *inconclusive (contended)*. Records without
//!   `cpu_time_s` (written before it existed) are judged per wall-clock second of solver
//!   time, with a caveat that the machine's load is unknown. The mean LMO/PO ratio is shown
//!   with the paper's.
//!
//! Claims 1, 2 and 5 compare methods whose plotted measures differ (`G_X^PO` with sigma is not
//! on the scale of the Frank-Wolfe gap `G_X^LMO`), so they are also decided on the common
//! measure `G_X^LMO + G_Y` ([`on_common_measure`]).
//!
//! **Margins.** Every comparison between two methods (a measure against a measure, a rate
//! against a rate) has a tie band: values within a factor [`TIE_BAND`] (10%) of each other are
//! a tie, and a claim that would hold except for a tie is *inconclusive (within 10%)*: one
//! seed and one machine cannot separate them. A claim that fails on another comparison
//! still fails. The thresholds [`KEEP_DECREASING`] and [`MARGINAL`] are margins already.
//!
//! A claim is *inconclusive* (`holds: null`) when a run it needs is missing, did not iterate or
//! has no finite measure. When the experiment's algorithms did not all run (`--algos`, or a
//! failure), the claims that rank methods against "the others" (1, 2, 3, 5, Table 3) are judged
//! on the methods that ran and say so in a caveat.
//!
//! ```
//! use saddlefw::experiments::claims::{keeps_decreasing, verdicts};
//! use saddlefw::experiments::params::Method;
//! use saddlefw::paper::Algorithm;
//! use saddlefw::experiments::record::{CheckpointRecord, RunRecord, RunStatus};
//! use saddlefw::experiments::Which;
//! let cp = |t, time_s, m: f64| CheckpointRecord::of_measure(t, time_s, Some(m));
//! let mut r = RunRecord::not_run(Method::Paper(Algorithm::LmoPo), RunStatus::TimeLimit, String::new());
//! r.iterations = 8;
//! r.wall_time_s = 2.0;
//! // best-so-far 1.0 at half time, 0.5 at the end: a decrease of more than 10%
//! r.checkpoints = vec![cp(0, 0.0, 4.0), cp(2, 1.0, 1.0), cp(8, 2.0, 0.5)];
//! assert_eq!(keeps_decreasing(&r), Some(true));
//! r.checkpoints[2].measure = Some(0.95);
//! assert_eq!(keeps_decreasing(&r), Some(false));
//! // with no run that iterated, every claim is inconclusive, never passed
//! let none: Vec<RunRecord> = Method::ALL
//!     .iter()
//!     .map(|&a| RunRecord::not_run(a, RunStatus::Skipped, "not run".into()))
//!     .collect();
//! let v = verdicts(Which::Dl, &none);
//! assert!(!v.is_empty() && v.iter().all(|c| c.holds.is_none()), "{v:?}");
//! // the tie band: within 10% of each other is a tie
//! use saddlefw::experiments::claims::{order, Order};
//! assert_eq!(order(1.862e-7, 1.962e-7), Order::Tie);
//! assert_eq!(order(1.0, 1.2), Order::Below);
//! assert_eq!(order(1.2, 1.0), Order::Above);
//! ```

use super::params::Which;
use super::params::{Baseline, Experiment, Method};
use super::record::{plotted_measure, RunRecord, RunStatus};
use super::table3::CONTENDED_SHARE;
use crate::paper::measure::RunMeasure;
use crate::paper::Algorithm;
use crate::paper::Oracle;
use crate::report::ClaimVerdict;

/// "Keeps decreasing": best-so-far at the end `<` this factor times best-so-far at half time.
pub const KEEP_DECREASING: f64 = 0.9;
/// "Marginal improvement": the measure decreased by less than this factor over the run.
pub const MARGINAL: f64 = 10.0;
/// Two values within this factor of each other are a tie (see [`order`]).
pub const TIE_BAND: f64 = 1.1;
/// Start of the evidence of a verdict left open by a tie.
pub const TIE: &str = "inconclusive (within 10%)";
/// Start of the evidence of a Table 3 verdict left open by machine load.
pub const CONTENDED: &str = "inconclusive (contended)";

const FIG: &str = "fig:Experiment";

/// How `a` compares with `b` under the tie band.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Order {
    /// `a` is below `b` by more than the band.
    Below,
    /// Within a factor [`TIE_BAND`] of each other (both non-negative).
    Tie,
    /// `a` is above `b` by more than the band.
    Above,
}

/// Compares two non-negative values: a tie when each is at most [`TIE_BAND`] times the other.
pub fn order(a: f64, b: f64) -> Order {
    if a <= TIE_BAND * b && b <= TIE_BAND * a {
        Order::Tie
    } else if a < b {
        Order::Below
    } else {
        Order::Above
    }
}

/// The conditions of one claim: a claim holds when every condition holds; it fails when one
/// fails; otherwise it is inconclusive (a missing value, or a tie).
#[derive(Default)]
struct Judge {
    fails: bool,
    unknown: bool,
    ties: Vec<String>,
}

impl Judge {
    /// A condition that holds, fails or is unknown (None).
    fn require(&mut self, ok: Option<bool>) {
        match ok {
            Some(true) => {}
            Some(false) => self.fails = true,
            None => self.unknown = true,
        }
    }

    /// The condition `a < b` with the tie band; `what` describes the pair for the evidence.
    fn below(&mut self, a: f64, b: f64, what: String) {
        match order(a, b) {
            Order::Below => {}
            Order::Above => self.fails = true,
            Order::Tie => self.ties.push(format!("{what}, ratio {:.3}", a / b)),
        }
    }

    fn holds(&self) -> Option<bool> {
        if self.fails {
            Some(false)
        } else if self.unknown || !self.ties.is_empty() {
            None
        } else {
            Some(true)
        }
    }

    fn verdict(self, claim: &str, label: &str, evidence: String) -> ClaimVerdict {
        let holds = self.holds();
        let evidence = if holds.is_none() && !self.ties.is_empty() && !self.unknown {
            format!("{TIE}: {}; {evidence}", self.ties.join("; "))
        } else {
            evidence
        };
        verdict(claim, label, holds, evidence)
    }
}

fn get(runs: &[RunRecord], a: Method) -> Option<&RunRecord> {
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

/// The inconclusive verdict naming those of `what` that have no run with a finite measure.
fn missing(claim: &str, label: &str, runs: &[RunRecord], what: &[Method]) -> ClaimVerdict {
    let absent: Vec<&str> = what
        .iter()
        .filter(|a| get(runs, **a).and_then(|r| r.best()).is_none())
        .map(|a| a.name())
        .collect();
    verdict(
        claim,
        label,
        None,
        format!(
            "inconclusive: needs runs of {} with finite measures",
            absent.join(", ")
        ),
    )
}

/// The caveat of a claim judged on part of `among`: those of `among` that the paper runs on
/// this experiment (R-PDCG is N/A on the robust problem) but that did not iterate here.
fn partial(e: Experiment, runs: &[RunRecord], among: &[Method]) -> Option<String> {
    let absent: Vec<&str> = among
        .iter()
        .filter(|a| a.applicable(e) && get(runs, **a).is_none())
        .map(|a| a.name())
        .collect();
    (!absent.is_empty()).then(|| {
        format!(
            "caveat: judged on a partial set, {} did not run (--algos, or no iteration)",
            absent.join(", ")
        )
    })
}

fn with_caveat(mut ev: String, caveat: Option<String>) -> String {
    if let Some(c) = caveat {
        ev.push_str("; ");
        ev.push_str(&c);
    }
    ev
}

/// The runs with the plotted measure replaced by `G_X^LMO + G_Y` for every method, the
/// measure on which LMO- and PO-primal methods compare like with like (each checkpoint
/// records both `G_X` measures).
pub fn on_common_measure(runs: &[RunRecord]) -> Vec<RunRecord> {
    runs.iter()
        .cloned()
        .map(|mut r| {
            for c in &mut r.checkpoints {
                let m = &c.checkpoint.measures;
                c.measure = (m.gx_lmo.is_finite() && m.gy.is_finite())
                    .then(|| plotted_measure(&c.checkpoint, Oracle::Lmo));
            }
            r.measure = RunMeasure::Stationarity.label(Oracle::Lmo).into();
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
    let mut out = vec![claim1(e, runs), claim2(e, runs), claim3(e, runs)];
    if e == Experiment::Robust {
        out.push(claim4(runs));
    }
    out.push(claim5(e, runs));
    out.push(table3(which, runs));
    let common = on_common_measure(runs);
    for mut v in [claim1(e, &common), claim2(e, &common), claim5(e, &common)] {
        v.claim.push_str(COMMON);
        out.push(v);
    }
    out
}

const BASELINES: [Method; 4] = [
    Method::Baseline(Baseline::SpFw),
    Method::Baseline(Baseline::Agp),
    Method::Baseline(Baseline::RPdcg),
    Method::Baseline(Baseline::CgRpga),
];

fn claim1(e: Experiment, runs: &[RunRecord]) -> ClaimVerdict {
    let claim = "1. The proposed algorithms converge faster and keep decreasing, compared with the benchmarks";
    let proposed = [
        Method::Paper(Algorithm::LmoLmo),
        Method::Paper(Algorithm::LmoPo),
    ];
    let (Some(ll), Some(lp)) = (
        get(runs, Method::Paper(Algorithm::LmoLmo)),
        get(runs, Method::Paper(Algorithm::LmoPo)),
    ) else {
        return missing(claim, FIG, runs, &proposed);
    };
    let (Some(bl), Some(bp)) = (ll.best(), lp.best()) else {
        return missing(claim, FIG, runs, &proposed);
    };
    let best_base = BASELINES
        .iter()
        .filter_map(|a| get(runs, *a))
        .filter_map(|r| r.best().map(|b| (b, r.algorithm.as_str())))
        .min_by(|a, b| a.0.total_cmp(&b.0));
    let Some((bb, bname)) = best_base else {
        return verdict(claim, FIG, None, "inconclusive: no baseline ran".into());
    };
    let best = bl.min(bp);
    let mut j = Judge::default();
    j.below(
        best,
        bb,
        format!("best proposed {} vs {bname} {}", fmt(best), fmt(bb)),
    );
    j.require(keeps_decreasing(ll));
    j.require(keeps_decreasing(lp));
    let ev = format!(
        "best proposed LMO-primal measure {} vs best baseline {} ({bname}); {}; {}",
        fmt(best),
        fmt(bb),
        trend(ll),
        trend(lp)
    );
    j.verdict(claim, FIG, with_caveat(ev, partial(e, runs, &BASELINES)))
}

fn claim2(e: Experiment, runs: &[RunRecord]) -> ClaimVerdict {
    let claim = "2. LMO-PO is the most effective configuration";
    let Some(lp) = get(runs, Method::Paper(Algorithm::LmoPo)).and_then(|r| r.best()) else {
        return missing(claim, FIG, runs, &[Method::Paper(Algorithm::LmoPo)]);
    };
    let others: Vec<Method> = Method::ALL
        .iter()
        .copied()
        .filter(|a| *a != Method::Paper(Algorithm::LmoPo))
        .collect();
    let best_other = others
        .iter()
        .filter_map(|a| get(runs, *a))
        .filter_map(|r| r.best().map(|b| (b, r.algorithm.as_str())))
        .min_by(|a, b| a.0.total_cmp(&b.0));
    let Some((ob, oname)) = best_other else {
        return verdict(claim, FIG, None, "inconclusive: no other run".into());
    };
    let mut j = Judge::default();
    j.below(lp, ob, format!("LMO-PO {} vs {oname} {}", fmt(lp), fmt(ob)));
    let ev = format!(
        "LMO-PO best measure {} vs the best other method {} ({oname}); ratio {:.3}",
        fmt(lp),
        fmt(ob),
        lp / ob
    );
    j.verdict(claim, FIG, with_caveat(ev, partial(e, runs, &others)))
}

fn claim3(e: Experiment, runs: &[RunRecord]) -> ClaimVerdict {
    let claim = "3. LMO-LMO clearly outperforms R-PDCG and CG-RPGA, both of which tend to plateau prematurely";
    let Some(bl) = get(runs, Method::Paper(Algorithm::LmoLmo)).and_then(|r| r.best()) else {
        return missing(claim, FIG, runs, &[Method::Paper(Algorithm::LmoLmo)]);
    };
    let names = [
        Method::Baseline(Baseline::RPdcg),
        Method::Baseline(Baseline::CgRpga),
    ];
    let rivals: Vec<&RunRecord> = names.iter().filter_map(|a| get(runs, *a)).collect();
    if rivals.is_empty() {
        return missing(claim, FIG, runs, &names);
    }
    let mut j = Judge::default();
    let mut ev = vec![format!("LMO-LMO best {}", fmt(bl))];
    for r in &rivals {
        match (r.best(), keeps_decreasing(r)) {
            (Some(b), Some(k)) => {
                j.below(
                    bl,
                    b,
                    format!("LMO-LMO {} vs {} {}", fmt(bl), r.algorithm, fmt(b)),
                );
                j.require(Some(!k));
                ev.push(trend(r));
            }
            _ => {
                j.require(None);
                ev.push(format!("{}: no finite measure", r.algorithm));
            }
        }
    }
    j.verdict(
        claim,
        FIG,
        with_caveat(ev.join("; "), partial(e, runs, &names)),
    )
}

fn claim4(runs: &[RunRecord]) -> ClaimVerdict {
    let claim =
        "4. R-PDCG is not applicable to the robust problem (its dual set is not strongly convex)";
    let r = runs
        .iter()
        .find(|r| r.algorithm == Method::Baseline(Baseline::RPdcg).name());
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

fn claim5(e: Experiment, runs: &[RunRecord]) -> ClaimVerdict {
    let claim =
        "5. Primal PO-based methods (PO-LMO, AGP) converge slowly, with only marginal improvement";
    let po_names = [
        Method::Paper(Algorithm::PoLmo),
        Method::Baseline(Baseline::Agp),
    ];
    let lmo_names = [
        Method::Paper(Algorithm::LmoLmo),
        Method::Paper(Algorithm::LmoPo),
    ];
    let po: Vec<&RunRecord> = po_names.iter().filter_map(|a| get(runs, *a)).collect();
    if po.is_empty() {
        return missing(claim, FIG, runs, &po_names);
    }
    let lmo_best = lmo_names
        .iter()
        .filter_map(|a| get(runs, *a))
        .filter_map(|r| r.best())
        .reduce(f64::min);
    let mut j = Judge::default();
    let mut ev = Vec::new();
    for r in &po {
        match (r.initial(), r.best()) {
            (Some(i), Some(b)) => {
                let factor = i / b;
                let marginal = factor < MARGINAL;
                j.require(Some(marginal));
                match lmo_best {
                    Some(l) => j.below(
                        l,
                        b,
                        format!("best LMO-primal {} vs {} {}", fmt(l), r.algorithm, fmt(b)),
                    ),
                    None => j.require(None),
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
                j.require(None);
                ev.push(format!("{}: no finite measure", r.algorithm));
            }
        }
    }
    match lmo_best {
        Some(l) => ev.push(format!("best proposed LMO-primal {}", fmt(l))),
        None => ev.push("no proposed LMO-primal run to compare with".into()),
    }
    let all: Vec<Method> = po_names.iter().chain(&lmo_names).copied().collect();
    j.verdict(
        claim,
        FIG,
        with_caveat(ev.join("; "), partial(e, runs, &all)),
    )
}

/// One run's iteration rate for Table 3.
struct Rate<'a> {
    name: &'a str,
    iterations: usize,
    wall: f64,
    cpu: Option<f64>,
    share: Option<f64>,
}

/// How the Table 3 comparison comes out on one way of counting: the slowest LMO-primal rate
/// against the fastest PO-primal rate.
fn table3_order<'a>(
    lmo: &[Rate<'a>],
    po: &[Rate<'a>],
    rate: impl Fn(&Rate) -> f64,
) -> (Order, &'a str, f64, &'a str, f64) {
    let slow = lmo
        .iter()
        .min_by(|a, b| rate(a).total_cmp(&rate(b)))
        .expect("non-empty");
    let fast = po
        .iter()
        .max_by(|a, b| rate(a).total_cmp(&rate(b)))
        .expect("non-empty");
    let (s, f) = (rate(slow), rate(fast));
    (order(f, s), slow.name, s, fast.name, f)
}

fn table3(which: Which, runs: &[RunRecord]) -> ClaimVerdict {
    let claim = "Table 3: LMO on the primal allows more iterations than PO within the same time";
    let label = "table:iters";
    let group = |o: Oracle| -> Vec<Rate> {
        runs.iter()
            .filter(|r| r.status.ran() && r.primal_oracle == o)
            .filter_map(|r| {
                Some(Rate {
                    name: r.algorithm.as_str(),
                    iterations: r.iterations,
                    wall: r.iterations_per_second()?,
                    cpu: r.iterations_per_cpu_second(),
                    share: r.cpu_share(),
                })
            })
            .collect()
    };
    let (lmo, po) = (group(Oracle::Lmo), group(Oracle::Po));
    if lmo.is_empty() || po.is_empty() {
        return verdict(
            claim,
            label,
            None,
            "inconclusive: needs an LMO-primal and a PO-primal run".into(),
        );
    }
    let all = || lmo.iter().chain(&po);
    let per_run = all()
        .map(|r| {
            format!(
                "{} {} it, {:.1} it/s{}",
                r.name,
                r.iterations,
                r.wall,
                match (r.cpu, r.share) {
                    (Some(c), Some(s)) => format!(", {c:.1} it/CPU-s (CPU share {s:.2})"),
                    _ => ", CPU time not recorded".into(),
                }
            )
        })
        .collect::<Vec<_>>()
        .join("; ");
    let (holds, head) = table3_verdict(&lmo, &po);
    let mean = |v: &[Rate]| v.iter().map(|r| r.iterations as f64).sum::<f64>() / v.len() as f64;
    let ours = mean(&lmo) / mean(&po).max(1.0);
    // the paper's ratio over the same algorithms
    let paper_of = |name: &str| Method::parse(name).and_then(|a| which.paper_iterations(a));
    let paper_mean = |v: &[Rate]| {
        let xs: Vec<f64> = v
            .iter()
            .filter_map(|r| paper_of(r.name))
            .map(|n| n as f64)
            .collect();
        (!xs.is_empty()).then(|| xs.iter().sum::<f64>() / xs.len() as f64)
    };
    let paper = match (paper_mean(&lmo), paper_mean(&po)) {
        (Some(a), Some(b)) => format!("; paper ({}, same algorithms): {:.2}", which.name(), a / b),
        _ => String::new(),
    };
    let ev = format!("{head}; runs: {per_run}; mean LMO/PO iteration ratio {ours:.2}{paper}");
    verdict(
        claim,
        label,
        holds,
        with_caveat(ev, partial(which.experiment(), runs, &Method::ALL)),
    )
}

/// The Table 3 verdict on the rates and the sentence saying why: per CPU-second when every
/// run's CPU time is known (undecided when that and the wall-clock count disagree on a busy
/// machine), else per wall-clock second.
fn table3_verdict(lmo: &[Rate], po: &[Rate]) -> (Option<bool>, String) {
    let all = || lmo.iter().chain(po);
    let holds_of = |o: Order| match o {
        Order::Above => Some(false),
        Order::Tie => None,
        Order::Below => Some(true),
    };
    let describe = |(o, sn, s, fname, f): (Order, &str, f64, &str, f64), unit: &str| {
        format!(
            "slowest LMO-primal {sn} {s:.1} {unit} vs fastest PO-primal {fname} {f:.1} {unit} ({})",
            match o {
                Order::Below => "holds",
                Order::Above => "does not hold",
                Order::Tie => "within 10%",
            }
        )
    };
    let wall = table3_order(lmo, po, |r| r.wall);
    let cpu_known = all().all(|r| r.cpu.is_some());
    let contended: Vec<String> = all()
        .filter_map(|r| {
            r.share
                .filter(|s| *s < CONTENDED_SHARE)
                .map(|s| format!("{} {s:.2}", r.name))
        })
        .collect();
    let (holds, head) = if cpu_known {
        let cpu = table3_order(lmo, po, |r| r.cpu.unwrap_or(f64::NAN));
        let (hc, hw) = (holds_of(cpu.0), holds_of(wall.0));
        let both = format!(
            "per CPU-second of solver: {}; per wall-clock second: {}",
            describe(cpu, "it/CPU-s"),
            describe(wall, "it/s")
        );
        if hc != hw && !contended.is_empty() {
            (
                None,
                format!(
                    "{CONTENDED}: the two ways of counting disagree and runs got less than {CONTENDED_SHARE} of a CPU ({}); {both}",
                    contended.join(", ")
                ),
            )
        } else if hc.is_none() {
            (None, format!("{TIE}: {both}"))
        } else {
            (hc, both)
        }
    } else {
        let hw = holds_of(wall.0);
        let what = format!(
            "per wall-clock second of solver (CPU time not recorded for every run, so the machine's load is unknown): {}",
            describe(wall, "it/s")
        );
        match hw {
            None => (None, format!("{TIE}: {what}")),
            h => (h, what),
        }
    };
    (holds, head)
}
