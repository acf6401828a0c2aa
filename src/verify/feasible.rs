//! The checks of an iterate a solver hands out that the harness cannot take on trust: its
//! dimensions and its distance to `X x Y` ([`feasibility`]), and the start point
//! ([`same_point`]). One check for every route of a user's solver: the iterate files of
//! `saddlefw verify-iterates` (`crate::iterates::Replay`), the Python package, and a Rust
//! solver given to `RateCheck` ([`Checked`], on when [`SolverFactory::checks_iterates`]).
//!
//! A failed check is an input error, never a verdict: [`Checked`] hands out non-finite
//! iterates from then on (the harness stops the run at once) and [`record_run`] returns the
//! error, naming the solver, the job, the iteration and the distance and tolerance. A
//! non-finite iterate is not checked here: it is a diverged run (the `run` gate).
//!
//! [`SolverFactory::checks_iterates`]: super::SolverFactory::checks_iterates
//! [`record_run`]: super::record_run

use super::source::SolverRequest;
use crate::problems::SaddleProblem;
use crate::sets::ConvexSet;
use crate::solvers::{Solver, StepInfo};
use crate::Error;

/// Relative tolerance of the feasibility check (times `1 + diameter`).
pub const FEASIBILITY_TOL: f64 = 1e-9;

/// Relative tolerance of "iterate 0 is the exported start point" (times `1 + ||x0||_inf`).
pub const START_TOL: f64 = 1e-9;

/// Why `(x, y)` is not in `X x Y` beyond the tolerance, if it is not: a length other than the
/// set's dimension, or a Euclidean distance to the set above [`FEASIBILITY_TOL`]`(1 + D)`
/// (also the Python package's check of in-process iterates).
pub fn feasibility(p: &dyn SaddleProblem, x: &[f64], y: &[f64]) -> Option<String> {
    for (name, set, v) in [("x", p.x_set(), x), ("y", p.y_set(), y)] {
        let big = if name == "x" { "X" } else { "Y" };
        if v.len() != set.dim() {
            return Some(format!(
                "{name} has length {}, but {big} has dimension {}",
                v.len(),
                set.dim()
            ));
        }
        let d = distance(set, v);
        let tol = FEASIBILITY_TOL * (1.0 + set.diameter());
        if d.is_nan() || d > tol {
            return Some(format!(
                "{name} is outside {big} by {d:.3e} (Euclidean distance; tolerance {tol:.1e})"
            ));
        }
    }
    None
}

/// `||v - P(v)||_2`.
fn distance(set: &dyn ConvexSet, v: &[f64]) -> f64 {
    let mut p = vec![0.0; v.len()];
    set.project(v, &mut p);
    v.iter()
        .zip(&p)
        .map(|(a, b)| (a - b) * (a - b))
        .sum::<f64>()
        .sqrt()
}

/// By how much `got` differs from `want` in some coordinate, when more than [`START_TOL`]
/// (times `1 + ||want||_inf`).
pub fn same_point(got: &[f64], want: &[f64]) -> Option<f64> {
    let scale = 1.0 + crate::linalg::max_abs(want);
    let d = got
        .iter()
        .zip(want)
        .fold(0.0f64, |m, (a, b)| m.max((a - b).abs()));
    (d > START_TOL * scale).then_some(d)
}

/// The job of `request` as error messages name it: `CASE on FAMILY seed N (entry ID, instance
/// SPEC)`.
pub(crate) fn job_name(r: &SolverRequest<'_>) -> String {
    format!(
        "job {} on {} seed {} (entry {}, instance {})",
        r.entry.case, r.origin.family, r.origin.seed_index, r.entry.id, r.origin.spec
    )
}

/// A user's solver whose every iterate is checked ([`feasibility`]; iterate 0 also against the
/// start point, [`same_point`]) against the problem itself, not the harness's counting view
/// (the checks' projections are not the solver's oracle calls).
pub(crate) struct Checked<'a, S> {
    pub inner: S,
    /// The problem the checks use (`None`: no checks, the crate's own solvers).
    problem: Option<&'a dyn SaddleProblem>,
    /// Why an iterate failed its check (`iterate t = N: REASON`), once one did.
    pub fault: Option<String>,
    /// What the harness sees after a failed check: non-finite iterates of the sets' dimensions.
    nan: (Vec<f64>, Vec<f64>),
}

impl<'a, S: Solver> Checked<'a, S> {
    pub fn new(inner: S, problem: Option<&'a dyn SaddleProblem>) -> Self {
        Checked {
            inner,
            problem,
            fault: None,
            nan: (Vec::new(), Vec::new()),
        }
    }

    /// Checks iterate `t` (unless a check failed before); on failure records why and poisons.
    fn check(&mut self, t: usize, start: Option<(&[f64], &[f64])>) {
        let Some(p) = self.problem.filter(|_| self.fault.is_none()) else {
            return;
        };
        let (x, y) = (self.inner.x(), self.inner.y());
        let (dx, dy) = (p.x_set().dim(), p.y_set().dim());
        let finite = crate::linalg::all_finite(x) && crate::linalg::all_finite(y);
        if x.len() == dx && y.len() == dy && !finite {
            return; // a diverged run, judged by the `run` gate
        }
        let why = feasibility(p, x, y).or_else(|| {
            let (x0, y0) = start?;
            [("x", x, x0), ("y", y, y0)]
                .into_iter()
                .find_map(|(n, got, want)| same_point(got, want).map(|d| (n, d)))
                .map(|(n, d)| {
                    format!("{n}_0 after init is not the start point {n}0 (differs by {d:.3e} in some coordinate)")
                })
        });
        if let Some(why) = why {
            self.fault = Some(format!("iterate t = {t}: {why}"));
            self.nan = (vec![f64::NAN; dx], vec![f64::NAN; dy]);
        }
    }

    /// The error of a failed check: the solver, the job and why.
    pub fn error(&self, solver: &str, r: &SolverRequest<'_>) -> Option<Error> {
        let why = self.fault.as_ref()?;
        Some(Error::input(
            format!("solver {solver:?}"),
            job_name(r),
            why.clone(),
        ))
    }
}

impl<S: Solver> Solver for Checked<'_, S> {
    fn name(&self) -> &str {
        self.inner.name()
    }
    fn init(&mut self, p: &dyn SaddleProblem, x0: &[f64], y0: &[f64]) {
        self.inner.init(p, x0, y0);
        self.check(0, Some((x0, y0)));
    }
    fn step(&mut self, p: &dyn SaddleProblem, t: usize) -> StepInfo {
        let info = self.inner.step(p, t);
        self.check(t + 1, None);
        info
    }
    fn x(&self) -> &[f64] {
        match self.fault {
            Some(_) => &self.nan.0,
            None => self.inner.x(),
        }
    }
    fn y(&self) -> &[f64] {
        match self.fault {
            Some(_) => &self.nan.1,
            None => self.inner.y(),
        }
    }
    fn beta_at(&self, t: usize) -> f64 {
        self.inner.beta_at(t)
    }
    fn schedule(&self) -> String {
        self.inner.schedule()
    }
    fn provenance(&self) -> &'static str {
        self.inner.provenance()
    }
}
