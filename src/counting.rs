//! A counting wrapper of a problem: the run loop hands solvers only a `Counting` view, so
//! oracle calls are counted, not self-reported. `x_set()` / `y_set()` return counting views
//! of the sets (LMO and projection calls per set); gradient and value evaluations are counted
//! too, as are inner solves (`y_star`, `f`, `min_x`), which no solver should need. Counters
//! are atomics, so the wrapper is `Sync` like the problem it wraps.
//!
//! The wrapper also records the first non-finite gradient it hands out, which the run loop
//! reports as a divergence. It checks every gradient itself, except `grad_x` of the step
//! gradients when the problem checked it while writing it
//! ([`SaddleProblem::step_grads_checked`]): then it takes the problem's report.
//!
//! ```
//! use saddlefw::counting::Counting;
//! use saddlefw::generators::GeneratorSpec;
//! use saddlefw::SaddleProblem;
//! let inst = "quadratic/nc-c:dx=3,dy=2".parse::<GeneratorSpec>().unwrap().generate().unwrap();
//! let c = Counting::new(inst.problem.as_ref());
//! let mut v = vec![0.0; 3];
//! c.x_set().lmo(&[1.0, 0.0, 0.0], &mut v);
//! assert_eq!(c.counts().lmo_x, 1);
//! ```

use crate::problems::{Assumptions, Constants, InnerMax, Interval, SaddleProblem, YModel};
use crate::sets::{ConvexSet, RankOne, SetSpec};
use serde::{Deserialize, Serialize};
use std::sync::atomic::{AtomicU64, AtomicU8, Ordering};

/// Oracle calls made through a `Counting` wrapper (RUN.json "oracle_calls").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct OracleCounts {
    pub lmo_x: u64,
    pub lmo_y: u64,
    pub proj_x: u64,
    pub proj_y: u64,
    /// Evaluations of `grad_x L` (`grads` counts one of each).
    pub grad_x: u64,
    /// Evaluations of `grad_y L`.
    pub grad_y: u64,
    /// Evaluations of `L`.
    pub value: u64,
    /// Inner solves (`y_star`, `f`, `min_x`).
    pub inner: u64,
}

impl OracleCounts {
    /// The fields as (name, value) pairs.
    pub fn fields(&self) -> [(&'static str, u64); 8] {
        [
            ("lmo_x", self.lmo_x),
            ("lmo_y", self.lmo_y),
            ("proj_x", self.proj_x),
            ("proj_y", self.proj_y),
            ("grad_x", self.grad_x),
            ("grad_y", self.grad_y),
            ("value", self.value),
            ("inner", self.inner),
        ]
    }
    /// `"name: expected E, got G"` for every field that differs from `other`.
    pub fn diff(&self, other: &OracleCounts) -> Vec<String> {
        self.fields()
            .iter()
            .zip(other.fields())
            .filter(|((_, a), (_, b))| a != b)
            .map(|((n, a), (_, b))| format!("{n}: expected {a}, got {b}"))
            .collect()
    }
}

/// A set whose LMO and projection calls are counted.
#[derive(Debug)]
pub(crate) struct CountingSet<'a> {
    inner: &'a dyn ConvexSet,
    lmo: AtomicU64,
    proj: AtomicU64,
}

impl<'a> CountingSet<'a> {
    /// Wraps a set with zero counts.
    pub fn new(inner: &'a dyn ConvexSet) -> Self {
        CountingSet {
            inner,
            lmo: AtomicU64::new(0),
            proj: AtomicU64::new(0),
        }
    }
    /// LMO calls so far.
    pub(crate) fn lmo_calls(&self) -> u64 {
        self.lmo.load(Ordering::Relaxed)
    }
    /// Projection calls so far.
    pub(crate) fn projection_calls(&self) -> u64 {
        self.proj.load(Ordering::Relaxed)
    }
}

impl ConvexSet for CountingSet<'_> {
    fn dim(&self) -> usize {
        self.inner.dim()
    }
    fn name(&self) -> String {
        self.inner.name()
    }
    fn lmo(&self, g: &[f64], out: &mut [f64]) {
        self.lmo.fetch_add(1, Ordering::Relaxed);
        self.inner.lmo(g, out)
    }
    fn lmo_rank_one(&self, g: &[f64], out: &mut [f64], vertex: &mut RankOne) -> bool {
        self.lmo.fetch_add(1, Ordering::Relaxed);
        self.inner.lmo_rank_one(g, out, vertex)
    }
    fn lmo_factors(&self, g: &[f64], vertex: &mut RankOne) -> Option<bool> {
        let found = self.inner.lmo_factors(g, vertex);
        if found.is_some() {
            self.lmo.fetch_add(1, Ordering::Relaxed);
        }
        found
    }
    fn project(&self, z: &[f64], out: &mut [f64]) {
        self.proj.fetch_add(1, Ordering::Relaxed);
        self.inner.project(z, out)
    }
    fn contains(&self, z: &[f64], tol: f64) -> bool {
        self.inner.contains(z, tol)
    }
    fn diameter(&self) -> f64 {
        self.inner.diameter()
    }
    fn strong_convexity(&self) -> Option<f64> {
        self.inner.strong_convexity()
    }
    fn spec(&self) -> Option<SetSpec> {
        self.inner.spec()
    }
    fn default_point(&self) -> Vec<f64> {
        self.inner.default_point()
    }
}

/// Which gradient first came out non-finite (0 = none).
const FINITE: u8 = 0;
const BAD_GRAD_X: u8 = 1;
const BAD_GRAD_Y: u8 = 2;

/// A problem whose oracle calls are counted (see the module documentation).
pub struct Counting<'a> {
    inner: &'a dyn SaddleProblem,
    x: CountingSet<'a>,
    y: CountingSet<'a>,
    grad_x: AtomicU64,
    grad_y: AtomicU64,
    value: AtomicU64,
    inner_solves: AtomicU64,
    nonfinite: AtomicU8,
}

impl<'a> Counting<'a> {
    /// Wraps a problem with zero counts.
    pub fn new(inner: &'a dyn SaddleProblem) -> Self {
        Counting {
            inner,
            x: CountingSet::new(inner.x_set()),
            y: CountingSet::new(inner.y_set()),
            grad_x: AtomicU64::new(0),
            grad_y: AtomicU64::new(0),
            value: AtomicU64::new(0),
            inner_solves: AtomicU64::new(0),
            nonfinite: AtomicU8::new(FINITE),
        }
    }
    /// The wrapped problem (uncounted).
    pub fn inner(&self) -> &'a dyn SaddleProblem {
        self.inner
    }
    /// The counts so far.
    pub fn counts(&self) -> OracleCounts {
        OracleCounts {
            lmo_x: self.x.lmo_calls(),
            lmo_y: self.y.lmo_calls(),
            proj_x: self.x.projection_calls(),
            proj_y: self.y.projection_calls(),
            grad_x: self.grad_x.load(Ordering::Relaxed),
            grad_y: self.grad_y.load(Ordering::Relaxed),
            value: self.value.load(Ordering::Relaxed),
            inner: self.inner_solves.load(Ordering::Relaxed),
        }
    }
    /// The first non-finite gradient handed out, if any (`"grad_x"` or `"grad_y"`).
    pub fn nonfinite_gradient(&self) -> Option<&'static str> {
        match self.nonfinite.load(Ordering::Relaxed) {
            BAD_GRAD_X => Some("grad_x"),
            BAD_GRAD_Y => Some("grad_y"),
            _ => None,
        }
    }
    /// Counts one evaluation of both gradients by `eval` and flags non-finite values: `gx`
    /// from `eval`'s report when it gives one, else by a pass over it. Returns whether `gx` is
    /// finite.
    fn both_grads(
        &self,
        gx: &mut [f64],
        gy: &mut [f64],
        eval: impl FnOnce(&mut [f64], &mut [f64]) -> Option<bool>,
    ) -> bool {
        self.grad_x.fetch_add(1, Ordering::Relaxed);
        self.grad_y.fetch_add(1, Ordering::Relaxed);
        let checked = eval(gx, gy);
        let finite = checked.unwrap_or_else(|| crate::linalg::all_finite(gx));
        self.flag_if(!finite, BAD_GRAD_X);
        self.flag(gy, BAD_GRAD_Y);
        finite
    }
    fn flag(&self, out: &[f64], code: u8) {
        self.flag_if(!crate::linalg::all_finite(out), code);
    }
    /// Records `code` when `bad` and nothing was flagged before.
    fn flag_if(&self, bad: bool, code: u8) {
        if bad {
            let _ =
                self.nonfinite
                    .compare_exchange(FINITE, code, Ordering::Relaxed, Ordering::Relaxed);
        }
    }
}

impl SaddleProblem for Counting<'_> {
    fn name(&self) -> String {
        self.inner.name()
    }
    fn as_quadratic(&self) -> Option<&crate::problems::Quadratic> {
        self.inner.as_quadratic()
    }
    fn x_set(&self) -> &dyn ConvexSet {
        &self.x
    }
    fn y_set(&self) -> &dyn ConvexSet {
        &self.y
    }
    fn value(&self, x: &[f64], y: &[f64]) -> f64 {
        self.value.fetch_add(1, Ordering::Relaxed);
        self.inner.value(x, y)
    }
    fn grad_x(&self, x: &[f64], y: &[f64], out: &mut [f64]) {
        self.grad_x.fetch_add(1, Ordering::Relaxed);
        self.inner.grad_x(x, y, out);
        self.flag(out, BAD_GRAD_X);
    }
    fn grad_y(&self, x: &[f64], y: &[f64], out: &mut [f64]) {
        self.grad_y.fetch_add(1, Ordering::Relaxed);
        self.inner.grad_y(x, y, out);
        self.flag(out, BAD_GRAD_Y);
    }
    fn grads(&self, x: &[f64], y: &[f64], gx: &mut [f64], gy: &mut [f64]) {
        self.both_grads(gx, gy, |gx, gy| {
            self.inner.grads(x, y, gx, gy);
            None
        });
    }
    fn step_grads(&self, x: &[f64], y: &[f64], gx: &mut [f64], gy: &mut [f64]) {
        self.step_grads_checked(x, y, gx, gy);
    }
    /// Counts and flags like [`SaddleProblem::grads`]; `gx` is checked here only when the
    /// problem did not check it while writing it.
    fn step_grads_checked(
        &self,
        x: &[f64],
        y: &[f64],
        gx: &mut [f64],
        gy: &mut [f64],
    ) -> Option<bool> {
        Some(self.both_grads(gx, gy, |gx, gy| self.inner.step_grads_checked(x, y, gx, gy)))
    }
    fn note_fw_move(&self, s: f64, vertex: &RankOne, x_next: &[f64]) {
        self.inner.note_fw_move(s, vertex, x_next)
    }
    fn constants(&self) -> Constants {
        self.inner.constants()
    }
    fn convex_in_x(&self) -> bool {
        self.inner.convex_in_x()
    }
    fn y_model(&self, x: &[f64]) -> Option<YModel> {
        self.inner.y_model(x)
    }
    fn f_star(&self) -> Option<Interval> {
        self.inner.f_star()
    }
    fn known_saddle(&self) -> Option<(Vec<f64>, Vec<f64>)> {
        self.inner.known_saddle()
    }
    fn assumptions(&self) -> Assumptions {
        self.inner.assumptions()
    }
    fn y_star(&self, x: &[f64], beta: f64, y0: &[f64]) -> InnerMax {
        self.inner_solves.fetch_add(1, Ordering::Relaxed);
        self.inner.y_star(x, beta, y0)
    }
    fn f(&self, x: &[f64]) -> Interval {
        self.inner_solves.fetch_add(1, Ordering::Relaxed);
        self.inner.f(x)
    }
    fn min_x(&self, y: &[f64]) -> Interval {
        self.inner_solves.fetch_add(1, Ordering::Relaxed);
        self.inner.min_x(y)
    }
    fn first_order_rounding(&self, x: &[f64], y: &[f64], dx: &[f64], dy: &[f64]) -> f64 {
        self.inner.first_order_rounding(x, y, dx, dy)
    }
}
