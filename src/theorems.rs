//! The theorem table's runs: how a run's per-iteration measures become an entry's bounded
//! quantity at log-spaced horizons T ([`quantity_series`]). The table itself (one entry per
//! theorem case and bounded quantity, its JSON fields and its validation) is
//! [`crate::paper::theorems`], re-exported here; the solvers' schedules of an entry come from
//! [`ScheduleSpec::resolve`] ([`RunSchedules`]).
//!
//! # Example
//! ```
//! use saddlefw::theorems::{builtin, parse_table, Exponent};
//! let table = builtin();
//! assert_eq!(table.len(), 38);
//! let e = table.iter().find(|e| e.id == "lmo-lmo/nc-c/primal").unwrap();
//! assert_eq!(e.p.frac, "1/6");
//! assert_eq!(Exponent::parse_frac("1/4"), Some(0.25));
//! // a malformed table names the input and the location
//! let err = parse_table("my-table.json", "[").unwrap_err();
//! assert!(err.to_string().starts_with("my-table.json: line 1"), "{err}");
//! ```

pub use crate::paper::theorems::*;
pub use crate::paper::{Algorithm, Assumption};
pub use crate::solvers::defaults::RunSchedules;

use crate::error::{Error, Result};
use crate::fit::log_checkpoints;
use crate::trace::Checkpoint;

/// Checkpoints per decade used by [`quantity_series`].
pub const CHECKPOINTS_PER_DECADE: u32 = 10;

/// The entry's quantity at log-spaced horizons T ([`CHECKPOINTS_PER_DECADE`] per decade,
/// from `max(T_min, 1)` to the largest T the record covers, always including it).
/// `per_iter[i].t` must equal `i`.
pub fn quantity_series(entry: &TheoremEntry, per_iter: &[Checkpoint]) -> Result<Vec<(u64, f64)>> {
    let hi = max_horizon(entry, per_iter.len());
    let lo = entry.t_min.max(1);
    if hi < lo {
        return Err(Error::invalid(
            format!("run record for {}", entry.id),
            format!("{} iterates do not reach T = {lo}", per_iter.len()),
        ));
    }
    quantity_series_at(
        entry,
        per_iter,
        &log_checkpoints(lo, hi, CHECKPOINTS_PER_DECADE),
    )
}

/// Largest horizon T whose quantity a record of `n` iterates (t = 0..n-1) determines.
fn max_horizon(entry: &TheoremEntry, n: usize) -> u64 {
    let last = n as i64 - 1;
    let hi = if entry.quantity.aggregate == Aggregate::MeanOptNext0T {
        last - 1
    } else {
        last
    };
    hi.max(0) as u64
}

/// The entry's quantity at the given horizons (ascending). Running means are exact up to
/// rounding: compensated (Neumaier) sums, O(1) error independent of T.
pub fn quantity_series_at(
    entry: &TheoremEntry,
    per_iter: &[Checkpoint],
    horizons: &[u64],
) -> Result<Vec<(u64, f64)>> {
    let what = || format!("run record for {}", entry.id);
    if let Some(i) = per_iter.iter().enumerate().position(|(i, m)| m.t != i) {
        return Err(Error::invalid(
            what(),
            format!("entry {i} has t = {} (expected {i})", per_iter[i].t),
        ));
    }
    let q = &entry.quantity;
    let mut values = Vec::with_capacity(per_iter.len());
    for m in per_iter {
        let v = m.measures.get(q.measure);
        match v {
            Some(v) if v.is_finite() => values.push(v),
            _ => {
                return Err(Error::invalid(
                    what(),
                    format!(
                        "{:?} at t = {} is missing or not finite ({v:?})",
                        q.measure, m.t
                    ),
                ))
            }
        }
    }
    let hi = max_horizon(entry, per_iter.len());
    let lo = entry.t_min.max(if q.aggregate == Aggregate::Mean1T {
        1
    } else {
        0
    });
    if let Some(&t) = horizons.iter().find(|&&t| t < lo || t > hi) {
        return Err(Error::invalid(
            what(),
            format!("horizon T = {t} outside [{lo}, {hi}]"),
        ));
    }
    if horizons.windows(2).any(|w| w[0] >= w[1]) {
        return Err(Error::invalid(
            what(),
            "horizons must be strictly increasing",
        ));
    }
    let (series, offset): (&[f64], u64) = match q.aggregate {
        Aggregate::Last => return Ok(horizons.iter().map(|&t| (t, values[t as usize])).collect()),
        Aggregate::Min0T => {
            let mut best = f64::INFINITY;
            let mins: Vec<f64> = values
                .iter()
                .map(|&v| {
                    best = best.min(v);
                    best
                })
                .collect();
            return Ok(horizons.iter().map(|&t| (t, mins[t as usize])).collect());
        }
        Aggregate::Mean0T => (&values, 0),
        Aggregate::Mean1T => (&values[1..], 1),
        Aggregate::MeanOptNext0T => (&values[1..], 0),
    };
    // mean over the first k+1 values of `series` is the quantity at T = k + offset.
    let means = running_means(series);
    Ok(horizons
        .iter()
        .map(|&t| (t, means[(t - offset) as usize]))
        .collect())
}

/// `out[k] = (1/(k+1)) sum_{i<=k} v_i`, with a Neumaier compensated running sum.
pub fn running_means(v: &[f64]) -> Vec<f64> {
    let mut sum = 0.0f64;
    let mut comp = 0.0f64;
    v.iter()
        .enumerate()
        .map(|(k, &x)| {
            let t = sum + x;
            comp += if sum.abs() >= x.abs() {
                (sum - t) + x
            } else {
                (x - t) + sum
            };
            sum = t;
            (sum + comp) / (k + 1) as f64
        })
        .collect()
}
