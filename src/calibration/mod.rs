//! Calibration of the gates against the theorems (issue 34): every entry's gates run over a
//! *legitimate* panel (saddlefw's solver under other seeds, schedule constants and offsets the
//! proofs allow, other start points, another floating-point order: every gate must pass) and
//! a *faulty* panel (exponent shifts, a doubled dual step, the smoothing dropped, a sign flip,
//! a stale gradient, clipping instead of projection, skipped dual updates: at least one entry
//! of each algorithm must fail). The result is the table of `docs/calibration.md`:
//! per entry and variant the verdict and the margin to the threshold, and the summary
//! (false alarms over the legitimate panel, power per algorithm over the faulty one).
//!
//! `saddlefw calibrate --out DIR` writes `DIR/calibration.json` and `DIR/calibration.md`
//! (about 15 minutes on 2 cores: one quick-tier verify per variant, restricted to the entries
//! the variant applies to). The reference regression (agreement with saddlefw's stored
//! exponents) is not part of it: a variant is another implementation, which that question
//! does not gate.
//!
//! ```
//! use saddlefw::calibration::{role, variants, Role, Variant};
//! let table = saddlefw::theorems::builtin();
//! let e = table.iter().find(|e| e.id == "lmo-lmo/c-sc/primal").unwrap();
//! // another master seed is always legitimate; clipping needs a projection LMO-LMO lacks
//! assert_eq!(role(Variant::Seed(1), e), Role::Legitimate);
//! let clip = variants().into_iter().find(|v| v.to_string() == "clip-not-project").unwrap();
//! assert!(matches!(role(clip, e), Role::NotApplicable(_)));
//! ```

pub mod panel;
mod table;

pub use panel::{role, variants, Role, Variant};
pub use table::{markdown, Calibration, Cell, PowerRow};

use crate::theorems::TheoremEntry;
use crate::verify::{self, Tier, VerifyOptions};
use crate::Result;

/// What to calibrate.
#[derive(Debug, Clone)]
pub struct CalibrationOptions {
    /// Entries whose id contains this substring (None: all).
    pub filter: Option<String>,
    /// Variants (None: [`variants`]).
    pub variants: Option<Vec<Variant>>,
    /// Worker threads of each verify run.
    pub jobs: Option<usize>,
    /// Tier (quick: the gates CI runs).
    pub tier: Tier,
}

impl Default for CalibrationOptions {
    fn default() -> Self {
        CalibrationOptions {
            filter: None,
            variants: None,
            jobs: None,
            tier: Tier::Quick,
        }
    }
}

/// Runs every variant on the entries it applies to and tabulates the verdicts.
pub fn run(opts: &CalibrationOptions) -> Result<Calibration> {
    let clock = std::time::Instant::now();
    let table: Vec<TheoremEntry> = crate::theorems::builtin()
        .into_iter()
        .filter(|e| opts.filter.as_deref().map_or(true, |f| e.id.contains(f)))
        .collect();
    let variants = opts.variants.clone().unwrap_or_else(variants);
    let progress = crate::progress::Jobs::new("calibrate", variants.len() as u64);
    let mut cells = Vec::new();
    for v in &variants {
        progress.start(&v.to_string());
        let judged: Vec<(TheoremEntry, Role)> =
            table.iter().map(|e| (e.clone(), role(*v, e))).collect();
        let sub: Vec<TheoremEntry> = judged
            .iter()
            .filter(|(_, r)| !matches!(r, Role::NotApplicable(_)))
            .map(|(e, _)| e.clone())
            .collect();
        let report = if sub.is_empty() {
            None
        } else {
            let mut vo = VerifyOptions::new(opts.tier);
            vo.jobs = opts.jobs;
            vo.hard = Some(crate::tightness::HardSource::Builtin.into());
            vo.gate_baselines = false;
            match v {
                Variant::Seed(s) => vo.seed = *s,
                Variant::Control(c) => vo.control = Some(*c),
            }
            Some(verify::run(&sub, &vo)?)
        };
        for (e, r) in judged {
            let result = report
                .as_ref()
                .and_then(|rep| rep.entries.iter().find(|x| x.id == e.id));
            cells.push(Cell::of(*v, &e, r, result));
        }
        progress.done();
        if crate::interrupt::requested() {
            break;
        }
    }
    progress.finish();
    Ok(Calibration::assemble(cells, clock.elapsed().as_secs_f64()))
}
