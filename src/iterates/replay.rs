//! The replay solver: a [`Solver`] whose `init` and `step` hand back the iterates read from a
//! user's iterate file ([`super::format`]), so that the harness measures them exactly as it
//! measures the crate's own solvers (`saddlefw verify-iterates`).
//!
//! Each iterate is checked as it is read: the format (line, t in order, dimensions, finite
//! numbers), the start (`(x_0, y_0)` must be the exported start point) and feasibility (the
//! distance `||x_t - P_X(x_t)||` to X, and the same for Y, at most [`FEASIBILITY_TOL`]
//! `(1 + D)` with D the set's diameter). A failed check is an input error
//! (`FILE: line N: REASON`) recorded in the shared [`Faults`]; the replay then hands out
//! non-finite iterates, which stops the run at once, and the command reports the error
//! (exit 2) instead of a verdict.

use super::format::IterateReader;
use crate::problems::SaddleProblem;
use crate::solvers::schedule::Schedule;
use crate::solvers::{Solver, StepInfo};
pub use crate::verify::feasible::{feasibility, same_point, FEASIBILITY_TOL, START_TOL};
use crate::Error;
use std::fs::File;
use std::io::BufReader;
use std::path::Path;
use std::sync::{Arc, Mutex};

/// The input errors of the replays of one command, keyed by the job's position in the
/// manifest (the first is reported, the same one for any `--jobs N`).
#[derive(Debug, Clone, Default)]
pub struct Faults(Arc<Mutex<Vec<(usize, Error)>>>);

impl Faults {
    /// Records the error of job `index`.
    pub fn push(&self, index: usize, e: Error) {
        self.0
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .push((index, e));
    }
    /// The error of the first job (in manifest order) that had one.
    pub fn first(&self) -> Option<Error> {
        let mut v = std::mem::take(&mut *self.0.lock().unwrap_or_else(|p| p.into_inner()));
        v.sort_by_key(|(i, _)| *i);
        v.into_iter().next().map(|(_, e)| e)
    }
}

/// Replays one iterate file (module doc).
pub struct Replay {
    reader: Option<IterateReader<BufReader<File>>>,
    /// Why the file could not be opened (reported at `init`).
    open_error: Option<Error>,
    x: Vec<f64>,
    y: Vec<f64>,
    t_last: u64,
    beta: Schedule,
    /// The entry's `tau_t`, reported as each step's (an iterate file does not say which
    /// schedule made it).
    tau: Schedule,
    index: usize,
    faults: Faults,
}

impl Replay {
    /// A replay of `path` (iterates of dimensions `dx`, `dy` up to `t_last`) for job `index`;
    /// `beta` is the entry's `beta_t` (the smoothing `H_t` is measured with).
    pub fn open(
        path: &Path,
        (dx, dy): (usize, usize),
        t_last: u64,
        (tau, beta): (Schedule, Schedule),
        index: usize,
        faults: Faults,
    ) -> Self {
        let (reader, open_error) = match IterateReader::open(path, dx, dy) {
            Ok(r) => (Some(r), None),
            Err(e) => (None, Some(e)),
        };
        Replay {
            reader,
            open_error,
            x: vec![0.0; dx],
            y: vec![0.0; dy],
            t_last,
            beta,
            tau,
            index,
            faults,
        }
    }

    /// Records `e` and poisons the iterates (the harness stops at a non-finite iterate).
    fn fail(&mut self, e: Error) {
        self.faults.push(self.index, e);
        self.reader = None;
        self.x.iter_mut().for_each(|v| *v = f64::NAN);
        self.y.iter_mut().for_each(|v| *v = f64::NAN);
    }

    /// Reads iterate `t` and checks it; on failure records the error.
    fn read(&mut self, p: &dyn SaddleProblem, t: u64) -> bool {
        let Some(r) = self.reader.as_mut() else {
            return false;
        };
        let e = match r.next_into(&mut self.x, &mut self.y) {
            Ok(Some(_)) => match feasibility(p, &self.x, &self.y) {
                None => return true,
                Some(why) => r.error(format!("iterate t = {t}: {why}")),
            },
            Ok(None) => Error::input(
                r.input(),
                format!("line {}", r.line() + 1),
                format!(
                    "the file ends before iterate t = {t} (iterates t = 0..={} are required; truncated?)",
                    self.t_last
                ),
            ),
            Err(e) => e,
        };
        self.fail(e);
        false
    }
}

impl Solver for Replay {
    fn name(&self) -> &'static str {
        "replay"
    }
    fn init(&mut self, p: &dyn SaddleProblem, x0: &[f64], y0: &[f64]) {
        if let Some(e) = self.open_error.take() {
            self.fail(e);
            return;
        }
        if !self.read(p, 0) {
            return;
        }
        let bad = [("x", &self.x, x0), ("y", &self.y, y0)]
            .into_iter()
            .find_map(|(name, got, want)| same_point(got, want).map(|d| (name, d)));
        if let Some((name, d)) = bad {
            let r = self.reader.as_ref().expect("read succeeded");
            let e = r.error(format!(
                "iterate t = 0: {name}_0 is not the exported start point {name}0 (differs by {d:.3e} in some coordinate)"
            ));
            self.fail(e);
        }
    }
    fn step(&mut self, p: &dyn SaddleProblem, t: usize) -> StepInfo {
        self.read(p, t as u64 + 1);
        // an iterate file does not say which tau_t made it: not reported (not checked)
        let _ = &self.tau;
        StepInfo {
            tau: 0.0,
            beta: self.beta.at(t),
            gamma: 0.0,
        }
    }
    fn x(&self) -> &[f64] {
        &self.x
    }
    fn y(&self) -> &[f64] {
        &self.y
    }
    /// An iterate file does not say which `beta_t` its solver used: none is declared, so `H_t`
    /// is measured with the exported schedule's and the `schedule` gate is not applicable.
    fn beta_at(&self, _t: usize) -> f64 {
        0.0
    }
    fn provenance(&self) -> &'static str {
        "iterates read from a file (saddlefw verify-iterates)"
    }
}
