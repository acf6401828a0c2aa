//! The search for the hardest instance of a theorem entry (`saddlefw tighten`, issue 10).
//!
//! # Objective
//! Minimise the observed exponent `p_hat` of the entry's bounded quantity (the exponent of
//! `verify`: [`crate::verify::run_instance`], then [`crate::fit::fit_series`]) over the hard
//! families ([`super::families`]) at the search horizon `T` ([`SearchConfig::horizon`]).
//!
//! # Guards against fitting artefacts
//! A candidate counts only when its fit is usable ([`score`]):
//! * the run completed and the quantity could be formed;
//! * the quantity stays above the floating-point floor long enough for a window, with the
//!   floor taken relative to the instance's natural scale ([`super::natural_scale`]), not to
//!   the series' own maximum (a series of rounding noise is not a rate);
//! * the window is the stable suffix of `fit`'s window rule (local slopes within 0.1) and
//!   spans at least [`MIN_SPAN_DECADES`] (one decade);
//! * the local exponent does not drift by more than [`TREND_TOL`] across the window
//!   ([`drift`]): an accelerating decay (a plateau ending) underestimates the asymptotic
//!   exponent, a decelerating one (a plateau starting) overestimates it.
//!
//! Rejected candidates are counted by reason. The best few candidates are then **confirmed**
//! at horizon `confirm_factor * T`: usable there too, the exponent moved by at most
//! [`CONFIRM_TOL`], and the same verdict of the rate gate. The winner's local-slope curve is
//! stored with it.
//!
//! A window whose exponent is below [`PLATEAU`] (0.05) is a plateau, never a rate. When no
//! candidate of an entry passes the strict guards (an oscillating last iterate, say), the
//! fallback is the slowest candidate under the loose guards (floor, plateau, completion); its
//! record is flagged unconfirmed.
//!
//! # Eligibility and violations
//! The stored instance of an entry is the hardest confirmed candidate **on which the real
//! solver passes every gate of `verify`** (rate with `p_hat >= p - tol` itself, run,
//! envelope, M_hat: [`failed_gates`]), so it can serve as a gate. Candidates slower than the rate on
//! the search horizon are kept apart: one of them is reported as a violation of the paper's
//! rate only when it also exceeds the explicit envelope of the detailed theorem
//! ([`Winner::proves_violation`]); a slow stretch below the envelope is pre-asymptotic (the
//! O(.) constant absorbs it) and is recorded in the fixture as `below_rate`.
//!
//! # Procedure (fixed budget per entry)
//! 1. **Random search** (`1 - refine_frac` of the budget): candidates drawn from the prior
//!    [`sample`] (face families with quadratic or cosine landscape, and the core generators),
//!    evaluated in batches of `2 jobs` on a rayon pool.
//! 2. **Local refinement** (the rest): the `top` best usable candidates are mutated in turn
//!    ([`mutate`]: multiplicative log-normal steps of the continuous parameters, +-1 steps of
//!    the integers, occasional new categorical values or seeds); a mutant replaces its parent
//!    when its exponent is smaller.
//! 3. **Confirmation** of the `top` best distinct candidates (above); the smallest confirmed
//!    exponent wins.
//!
//! The candidate sequence is a deterministic function of the entry id and `seed`
//! (ChaCha8), so two searches with the same seed and the same number of evaluations agree;
//! the time budget only decides where the sequence stops (the number of evaluations is
//! recorded). The winner is reproducible from its stored spec alone.
//!
//! ```
//! use rand::SeedableRng;
//! use saddlefw::tightness::search::{mutate, sample};
//! let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(1);
//! for _ in 0..4 {
//!     let s = sample("c-sc".parse().unwrap(), &mut rng);
//!     let m = mutate(&s, &mut rng);
//!     // every candidate and every neighbour builds an instance of exactly its setting
//!     for spec in [&s, &m] {
//!         let inst = spec.build().unwrap().instance;
//!         assert_eq!(inst.problem.assumptions().setting(), "c-sc", "{spec}");
//!     }
//! }
//! ```

use super::evaluate_scaled;
use super::families::{FaceParams, Family, HardSpec, Landscape, PolySet, Start};
use crate::fit::{self, Verdict};
use crate::generators::{Setting, XKind};
use crate::theorems::{Measure, TheoremEntry};
use crate::verify::controls::Control;
use crate::verify::InstanceRun;
use crate::{Error, Result};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::time::Instant;

/// Largest change of the exponent between the search horizon and the confirmation horizon.
pub const CONFIRM_TOL: f64 = 0.1;

/// Search settings.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct SearchConfig {
    /// Wall-clock budget per entry (random search + refinement), seconds.
    pub budget_s: f64,
    /// Search horizon T (also the horizon `verify` runs the stored instance at).
    pub horizon: u64,
    /// The confirmation horizon is `confirm_factor * horizon`.
    pub confirm_factor: u64,
    /// Candidates refined and confirmed.
    pub top: usize,
    /// Fraction of the budget spent refining.
    pub refine_frac: f64,
    /// Seed of the candidate sequence.
    pub seed: u64,
    /// Worker threads (None: one per core).
    pub jobs: Option<usize>,
    /// Hard cap on evaluations per entry (None: the budget decides).
    pub max_evals: Option<usize>,
}

impl Default for SearchConfig {
    fn default() -> Self {
        SearchConfig {
            budget_s: 20.0,
            horizon: 1 << 14,
            confirm_factor: 4,
            top: 3,
            refine_frac: 0.5,
            seed: 0,
            jobs: None,
            max_evals: None,
        }
    }
}

/// One evaluated candidate.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Candidate {
    pub spec: HardSpec,
    /// Observed exponent (usable fits only).
    pub p_hat: Option<f64>,
    /// The real solver's rate verdict on the candidate (usable fits only).
    pub verdict: Option<Verdict>,
    /// Why the candidate was rejected.
    pub rejected: Option<String>,
    /// `p_hat >= p - tol` (the gate passes without the interval's help).
    #[serde(default)]
    pub clear: bool,
    /// The exponent under the loose guards ([`score_with`]) when the strict ones reject the
    /// candidate, if the gate passes clearly with it (fallback candidates).
    #[serde(default)]
    pub p_hat_loose: Option<f64>,
}

impl Candidate {
    /// Usable and the gate passes with the point estimate itself (`p_hat >= p - tol`, not
    /// only the interval): eligible as the entry's hardest instance.
    fn eligible(&self) -> bool {
        self.p_hat.is_some() && self.verdict == Some(Verdict::Pass) && self.clear
    }
    /// Usable and slower than the theorem's rate on the search horizon.
    fn below_rate(&self) -> bool {
        self.p_hat.is_some() && self.verdict == Some(Verdict::Fail)
    }
    /// A fallback candidate (see `p_hat_loose`), ranked by that exponent.
    fn fallback(&self) -> bool {
        self.p_hat_loose.is_some()
    }
}

/// A confirmed (or best unconfirmed) candidate with everything the fixture stores.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Winner {
    pub spec: HardSpec,
    pub family: String,
    pub params: String,
    pub horizon: u64,
    pub p_hat: f64,
    pub ci: [f64; 2],
    pub window: [u64; 2],
    /// `(T_lo, T_hi, slope)` over the whole retained series.
    pub local_slopes: Vec<(u64, u64, f64)>,
    /// Exponent at the confirmation horizon (None: not usable there).
    pub confirm_p_hat: Option<f64>,
    pub confirm_horizon: u64,
    pub confirmed: bool,
    /// Tolerance of the gate at this window.
    pub tol: f64,
    /// Rate verdict of the real solver on this instance.
    pub verdict: Verdict,
    /// Worst quantity/envelope ratio over both runs (entries with an explicit envelope).
    pub envelope_ratio: Option<f64>,
    /// Gates of `verify` the real solver fails on this instance at `horizon`.
    pub failed_gates: Vec<String>,
    /// The quantity at the checkpoints.
    pub series: Vec<(u64, f64)>,
}

impl Winner {
    /// A violation of the paper's bound that the run proves: slower than the rate at both
    /// horizons AND above the explicit envelope of the detailed theorem (claims.md Sec. 5).
    /// Without an envelope exceedance a slow stretch is pre-asymptotic: the O(.) constant
    /// can absorb it.
    pub fn proves_violation(&self) -> bool {
        self.verdict == Verdict::Fail
            && self.confirmed
            && self
                .envelope_ratio
                .is_some_and(|r| r > 1.0 + crate::verify::ENVELOPE_RTOL)
    }
}

/// The search result of one entry.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct EntrySearch {
    pub id: String,
    pub p: f64,
    /// The hardest confirmed candidate on which the real solver passes the gate.
    pub winner: Option<Winner>,
    /// The slowest candidate that is slower than the theorem's rate on the search horizon
    /// (confirmed at the longer horizon), if any: a violation when
    /// [`Winner::proves_violation`], otherwise a pre-asymptotic stretch below the envelope.
    pub below_rate: Option<Winner>,
    pub evaluations: usize,
    /// Candidates slower than the rate on the search horizon.
    pub below_rate_count: usize,
    /// Rejections by reason.
    pub rejected: BTreeMap<String, usize>,
    /// The best few eligible candidates at the search horizon (spec text, p_hat).
    pub best: Vec<(String, f64)>,
    pub elapsed_s: f64,
    pub budget_s: f64,
}

/// Stable 64-bit FNV-1a hash of a text (seeds per entry).
fn hash(s: &str) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in s.bytes() {
        h ^= b as u64;
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

fn log_uniform(rng: &mut ChaCha8Rng, lo: f64, hi: f64) -> f64 {
    (rng.gen_range(lo.ln()..hi.ln())).exp()
}

fn pick<T: Copy>(rng: &mut ChaCha8Rng, v: &[T]) -> T {
    v[rng.gen_range(0..v.len())]
}

/// Parameter ranges of the prior and of the mutations: (lo, hi) for log-uniform parameters.
mod range {
    pub const PUSH: (f64, f64) = (1e-3, 2.0);
    pub const Y_RADIUS: (f64, f64) = (0.3, 30.0);
    pub const CURV: (f64, f64) = (1e-3, 3.0);
    pub const COND: (f64, f64) = (1.0, 100.0);
    pub const NEG_SCALE: (f64, f64) = (0.01, 1.0);
    pub const KAPPA: (f64, f64) = (0.01, 2.0);
    pub const PERIODS: (f64, f64) = (0.1, 3.0);
    pub const LYX: (f64, f64) = (0.1, 10.0);
    pub const MU: (f64, f64) = (1e-3, 1.0);
    pub const DX: (usize, usize) = (3, 40);
    pub const DY: (usize, usize) = (2, 20);
}

/// A random candidate for `setting` (module doc, "Procedure").
pub fn sample(setting: Setting, rng: &mut ChaCha8Rng) -> HardSpec {
    let seed = rng.gen::<u32>() as u64;
    let u: f64 = rng.gen();
    if u < 0.15 {
        // A core generator instance.
        let fams: &[&str] = if setting.convex {
            &["quadratic", "saddle"]
        } else {
            &["quadratic", "cosine"]
        };
        let x = pick(rng, &[XKind::L1, XKind::L2, XKind::Simplex, XKind::Box]);
        let spec = format!(
            "{}/{}:dx={},dy={},seed={},x={}",
            pick(rng, fams),
            setting,
            rng.gen_range(range::DX.0..=range::DX.1),
            rng.gen_range(range::DY.0.max(2)..=range::DY.1),
            seed,
            x.name()
        );
        return HardSpec {
            setting: setting.to_string(),
            seed,
            params: Family::Generator { spec },
        };
    }
    let dx = rng.gen_range(range::DX.0..=range::DX.1);
    let dy = rng.gen_range(range::DY.0..=range::DY.1);
    let push = |rng: &mut ChaCha8Rng| {
        if rng.gen::<f64>() < 0.2 {
            0.0
        } else {
            log_uniform(rng, range::PUSH.0, range::PUSH.1)
        }
    };
    let landscape = if !setting.convex && u > 0.7 {
        Landscape::Cosine {
            kappa: log_uniform(rng, range::KAPPA.0, range::KAPPA.1),
            periods: log_uniform(rng, range::PERIODS.0, range::PERIODS.1),
        }
    } else {
        let curv = if setting.convex && rng.gen::<f64>() < 0.2 {
            0.0
        } else {
            log_uniform(rng, range::CURV.0, range::CURV.1)
        };
        Landscape::Quadratic {
            curv,
            cond: log_uniform(rng, range::COND.0, range::COND.1),
            neg_frac: if setting.convex {
                0.0
            } else {
                rng.gen_range(0.05..1.0)
            },
            neg_scale: log_uniform(rng, range::NEG_SCALE.0, range::NEG_SCALE.1),
        }
    };
    let (y_radius, y_depth) = if setting.sc_y {
        let depth = if rng.gen::<bool>() {
            0.0
        } else {
            rng.gen_range(0.0..0.9)
        };
        (
            log_uniform(rng, range::Y_RADIUS.0, range::Y_RADIUS.1),
            depth,
        )
    } else {
        (1.0, 0.0)
    };
    let push_x = push(rng);
    let push_y = if y_depth > 0.0 { 0.0 } else { push(rng) };
    let p = FaceParams {
        dx,
        dy,
        x_set: pick(rng, &PolySet::ALL),
        face_x: rng.gen_range(1..=dx),
        push_x,
        face_y: rng.gen_range(1..=dy),
        push_y,
        y_radius,
        y_depth,
        landscape,
        lyx: log_uniform(rng, range::LYX.0, range::LYX.1),
        cond_b: log_uniform(rng, range::COND.0, range::COND.1),
        mu: if setting.strongly_concave {
            log_uniform(rng, range::MU.0, range::MU.1)
        } else {
            0.0
        },
        start_x: pick(rng, &Start::ALL),
        start_y: pick(rng, &Start::ALL),
    };
    HardSpec {
        setting: setting.to_string(),
        seed,
        params: Family::Face(p),
    }
}

/// Multiplies a log-range parameter by `exp(N(0, 0.5))` with probability `prob`, clamped.
fn jitter(rng: &mut ChaCha8Rng, v: &mut f64, r: (f64, f64), prob: f64) {
    if *v > 0.0 && rng.gen::<f64>() < prob {
        let z: f64 = rng.sample(rand_distr::StandardNormal);
        *v = (*v * (0.5 * z).exp()).clamp(r.0, r.1);
    }
}

fn step_int(rng: &mut ChaCha8Rng, v: &mut usize, lo: usize, hi: usize, prob: f64) {
    if rng.gen::<f64>() < prob {
        let d = if rng.gen::<bool>() { 1 } else { -1 };
        *v = ((*v as i64 + d).clamp(lo as i64, hi as i64)) as usize;
    }
}

/// A neighbour of a candidate (module doc, "Procedure"); always valid for its setting.
pub fn mutate(spec: &HardSpec, rng: &mut ChaCha8Rng) -> HardSpec {
    let mut s = spec.clone();
    if rng.gen::<f64>() < 0.3 {
        s.seed = rng.gen::<u32>() as u64;
    }
    match &mut s.params {
        Family::Generator { spec } => {
            // New seed of the same generator family and sizes.
            if let Ok(mut g) = spec.parse::<crate::generators::GeneratorSpec>() {
                g.seed = rng.gen::<u32>() as u64;
                *spec = g.to_string();
            }
        }
        Family::Face(p) => {
            let pr = 0.3;
            step_int(rng, &mut p.dx, range::DX.0, range::DX.1, 0.15);
            step_int(rng, &mut p.dy, range::DY.0, range::DY.1, 0.15);
            p.face_x = p.face_x.min(p.dx);
            p.face_y = p.face_y.min(p.dy);
            step_int(rng, &mut p.face_x, 1, p.dx, 0.25);
            step_int(rng, &mut p.face_y, 1, p.dy, 0.25);
            jitter(rng, &mut p.push_x, range::PUSH, pr);
            jitter(rng, &mut p.push_y, range::PUSH, pr);
            jitter(rng, &mut p.lyx, range::LYX, pr);
            jitter(rng, &mut p.cond_b, range::COND, pr);
            jitter(rng, &mut p.mu, range::MU, pr);
            if p.y_radius != 1.0 || p.y_depth != 0.0 || rng.gen::<f64>() < 0.5 {
                // Only meaningful on the ball; the simplex keeps radius 1 (fixed below).
                jitter(rng, &mut p.y_radius, range::Y_RADIUS, pr);
            }
            match &mut p.landscape {
                Landscape::Quadratic {
                    curv,
                    cond,
                    neg_frac,
                    neg_scale,
                } => {
                    jitter(rng, curv, range::CURV, pr);
                    jitter(rng, cond, range::COND, pr);
                    jitter(rng, neg_scale, range::NEG_SCALE, pr);
                    if *neg_frac > 0.0 && rng.gen::<f64>() < pr {
                        *neg_frac = (*neg_frac + rng.gen_range(-0.2..0.2)).clamp(0.05, 1.0);
                    }
                }
                Landscape::Cosine { kappa, periods } => {
                    jitter(rng, kappa, range::KAPPA, pr);
                    jitter(rng, periods, range::PERIODS, pr);
                }
            }
            if rng.gen::<f64>() < 0.1 {
                p.x_set = pick(rng, &PolySet::ALL);
            }
            if rng.gen::<f64>() < 0.1 {
                p.start_x = pick(rng, &Start::ALL);
            }
            if rng.gen::<f64>() < 0.1 {
                p.start_y = pick(rng, &Start::ALL);
            }
            if rng.gen::<f64>() < 0.05 {
                p.push_x = if p.push_x == 0.0 { 0.1 } else { 0.0 };
            }
            let setting: Setting = s.setting.parse().expect("a valid setting");
            if !setting.sc_y {
                p.y_radius = 1.0;
                p.y_depth = 0.0;
            } else {
                if rng.gen::<f64>() < 0.1 {
                    p.y_depth = if p.y_depth > 0.0 {
                        0.0
                    } else {
                        rng.gen_range(0.0..0.9)
                    };
                }
                if p.y_depth > 0.0 {
                    p.push_y = 0.0;
                } else if rng.gen::<f64>() < 0.05 {
                    p.push_y = if p.push_y == 0.0 { 0.1 } else { 0.0 };
                }
            }
        }
    }
    s
}

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
pub fn score_with(run: &InstanceRun, scale: f64, strict: bool) -> std::result::Result<f64, String> {
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

fn candidate(entry: &TheoremEntry, spec: HardSpec, t: u64, control: Option<Control>) -> Candidate {
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
pub fn winner_record(
    entry: &TheoremEntry,
    spec: &HardSpec,
    horizon: u64,
    confirm_factor: u64,
) -> Result<Option<Winner>> {
    winner_record_with(entry, spec, horizon, confirm_factor, true)
}

/// [`winner_record`] under the strict or the loose guards ([`score_with`]); a loose record
/// is never confirmed.
pub fn winner_record_with(
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
pub fn search_entry(
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
        elapsed_s: clock.elapsed().as_secs_f64(),
        budget_s: cfg.budget_s,
    })
}

/// Runs the search for every selected entry, one after the other (each uses the pool).
/// `incumbents` (the stored fixtures, by entry id) take part in the confirmation stage;
/// `done` is called after each entry (progress output, fixture writing). The entries
/// `recorded` holds (`tighten --resume`) are taken from it, not searched. A stop requested by
/// a signal ([`crate::interrupt`]) ends the search after the entry in progress.
pub fn search(
    table: &[TheoremEntry],
    filter: Option<&str>,
    cfg: &SearchConfig,
    incumbents: &BTreeMap<String, super::HardFixture>,
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

/// Whether an entry's quantity is G^Opt (needs an exact f*: every convex hard instance has
/// one through its known saddle).
pub fn needs_f_star(entry: &TheoremEntry) -> bool {
    entry.quantity.measure == Measure::GapOpt
}
