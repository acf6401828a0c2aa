//! The seam to the crate: a [`SolverFactory`] whose solvers call a user's Python solver
//! ([`PyFactory`], [`PySolver`]).
//!
//! The harness owns the loop: for every job it builds a solver (`__init__(request)` of the
//! user's class, or the user's step function around iterate arrays it owns), calls `step` for
//! `t = 0, 1, ..`, and after every step copies the user's `x`, `y` into its own vectors and
//! measures them. A Python exception (in `__init__`, in `step`, or a `KeyboardInterrupt` seen
//! between steps) is recorded once in [`Shared`], the job's iterates turn non-finite so that
//! the harness ends its run at once, and every later build or step returns immediately: the
//! check then raises the recorded exception ([`crate::check`]).

use crate::problem::Slot;
use crate::request::{job_name, Request};
use numpy::{AllowTypeChange, PyArray1, PyArrayLike1, PyArrayMethods};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::intern;
use pyo3::prelude::*;
use pyo3::types::PyList;
use saddlefw::prelude::{
    RunSchedules, SaddleProblem, Solver, SolverFactory, SolverRequest, StepInfo,
};
use saddlefw::verify::JobRef;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Instant;

/// What the solvers of one check share: the first Python exception and the counters the
/// progress display and the overhead measurement read.
#[derive(Default)]
pub struct Shared {
    stop: AtomicBool,
    error: Mutex<Option<PyErr>>,
    /// The first exception's type name (the crate's [`SolverFactory::stop_reason`]).
    reason: Mutex<Option<String>>,
    /// Jobs whose solver was built, and whose solver was dropped (the job's run is over).
    pub jobs_started: AtomicUsize,
    pub jobs_done: AtomicUsize,
    /// `step` calls, the nanoseconds inside the user's Python `step` and inside the whole
    /// `Solver::step` of the binding (GIL, call, copying and checking the iterates).
    pub steps: AtomicU64,
    pub python_ns: AtomicU64,
    pub binding_ns: AtomicU64,
}

impl Shared {
    /// Records `err` (the first one wins) and stops every solver of the check: no other job
    /// starts, and the jobs in flight end at their next step and are not kept (the crate's
    /// [`SolverFactory::stop_reason`]).
    pub fn fail(&self, py: Python<'_>, err: PyErr) {
        let mut first = self.error.lock().unwrap_or_else(|p| p.into_inner());
        if first.is_none() {
            let name = err.get_type(py).name().map(|n| n.to_string());
            *self.reason.lock().unwrap_or_else(|p| p.into_inner()) =
                Some(name.unwrap_or_else(|_| "a Python exception".into()));
            *first = Some(err);
        }
        self.stop.store(true, Ordering::SeqCst);
    }
    /// The first exception's type name, once the check was stopped.
    pub fn reason(&self) -> Option<String> {
        self.reason
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .clone()
    }
    /// Whether a Python exception stopped the check.
    pub fn stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }
    /// The recorded exception, if any.
    pub fn take_error(&self) -> Option<PyErr> {
        self.error.lock().unwrap_or_else(|p| p.into_inner()).take()
    }
}

/// A Python thread state kept on a worker thread for as long as the thread lives.
///
/// `Python::attach` on a thread Python does not know creates a thread state and deletes it
/// when it returns; per `step` call that costs far more than the call itself (a fresh frame
/// stack, NumPy's per-thread state: measured 9 us for an empty `step` and about 50 us more in
/// a NumPy step). The first call on each worker keeps one thread state (GIL released), so
/// later attaches only take the GIL. It is deleted when the worker thread ends.
struct KeptThreadState(*mut pyo3::ffi::PyThreadState, pyo3::ffi::PyGILState_STATE);

impl Drop for KeptThreadState {
    fn drop(&mut self) {
        // SAFETY: restores and releases the state this thread took in `keep_thread_state`,
        // only while the interpreter still runs
        unsafe {
            if pyo3::ffi::Py_IsInitialized() != 0 {
                pyo3::ffi::PyEval_RestoreThread(self.0);
                pyo3::ffi::PyGILState_Release(self.1);
            }
        }
    }
}

thread_local! {
    static KEPT: std::cell::RefCell<Option<KeptThreadState>> = const { std::cell::RefCell::new(None) };
}

/// Keeps a thread state on this thread (once per thread; see [`KeptThreadState`]). Called
/// outside any `Python::attach`.
fn keep_thread_state() {
    KEPT.with(|k| {
        let mut k = k.borrow_mut();
        if k.is_none() {
            // SAFETY: the GIL is not held here; Ensure takes it with a new thread state,
            // SaveThread releases it and keeps the state for later Ensure calls
            unsafe {
                let g = pyo3::ffi::PyGILState_Ensure();
                let ts = pyo3::ffi::PyEval_SaveThread();
                *k = Some(KeptThreadState(ts, g));
            }
        }
    });
}

/// Adds `note` to the exception (PEP 678 `add_note` on Python >= 3.11, `__notes__` before) and
/// records the job as its `saddlefw_job` attribute.
fn annotate(py: Python<'_>, err: &PyErr, job: &str, note: &str) {
    let v = err.value(py);
    let added =
        v.hasattr("add_note").unwrap_or(false) && v.call_method1("add_note", (note,)).is_ok();
    if !added {
        let _ = match v.getattr("__notes__") {
            Ok(notes) => notes.call_method1("append", (note,)).map(|_| ()),
            Err(_) => PyList::new(py, [note]).and_then(|l| v.setattr("__notes__", l)),
        };
    }
    let _ = v.setattr("saddlefw_job", job);
}

/// The error the crate sees once a Python exception stopped the check (never shown: the
/// check raises the Python exception instead).
fn stopped_error() -> saddlefw::Error {
    saddlefw::Error::invalid("solver", "stopped by a Python exception")
}

/// The user's solver: a class `Cls(request)` with `step()` and attributes `x`, `y`, or a step
/// function `f(request, x, y)` updating the arrays in place (or returning a new `(x, y)`).
pub struct PyFactory {
    name: &'static str,
    target: Py<PyAny>,
    is_class: bool,
    pub shared: Arc<Shared>,
    /// When set, only these jobs run: `(case, family, seed index, hard, entries)` (the jobs the
    /// file route can export, for comparing both routes).
    pub only: Option<Vec<(String, String, u32, bool, Vec<String>)>>,
}

impl PyFactory {
    pub fn new(name: String, target: Py<PyAny>, is_class: bool) -> PyFactory {
        PyFactory {
            // one short string per check, for `Solver::name`'s `&'static str`
            name: Box::leak(name.into_boxed_str()),
            target,
            is_class,
            shared: Arc::new(Shared::default()),
            only: None,
        }
    }

    fn build_in(&self, py: Python<'_>, r: &SolverRequest<'_>, job: &str) -> PyResult<PySolver> {
        let slot = Arc::new(Slot::default());
        let request = Request::new(py, r, slot.clone())?;
        let (x0, y0) = (&r.instance.x0, &r.instance.y0);
        let kind = if self.is_class {
            let _open = slot.open(r.instance.problem.as_ref());
            Kind::Class(
                self.target
                    .bind(py)
                    .call1((request.clone_ref(py),))?
                    .unbind(),
            )
        } else {
            Kind::StepFn {
                f: self.target.clone_ref(py),
                x: PyArray1::from_slice(py, x0).unbind(),
                y: PyArray1::from_slice(py, y0).unbind(),
            }
        };
        let mut s = PySolver {
            name: self.name,
            kind,
            request,
            slot,
            x: x0.clone(),
            y: y0.clone(),
            schedules: *r.schedule,
            shared: self.shared.clone(),
            job: job.to_string(),
            spec: r.origin.spec.clone(),
            dead: false,
        };
        if let Kind::Class(obj) = &s.kind {
            let obj = obj.bind(py).clone();
            s.read(&obj, None)?;
            let bad = [("x", &s.x, x0), ("y", &s.y, y0)]
                .into_iter()
                .find_map(|(n, got, want)| {
                    saddlefw::iterates::same_point(got, want).map(|d| (n, d))
                });
            if let Some((n, d)) = bad {
                return Err(PyValueError::new_err(format!(
                    "iterate t = 0: the solver's {n} after __init__ is not the start point request.{n}0 (differs by {d:.3e} in some coordinate)"
                )));
            }
        }
        Ok(s)
    }
}

impl SolverFactory for PyFactory {
    fn name(&self) -> String {
        self.name.to_string()
    }
    fn covers(&self, job: &JobRef<'_>) -> bool {
        self.only.as_ref().is_none_or(|jobs| {
            jobs.iter()
                .any(|(case, family, seed_index, hard, entries)| {
                    case == job.case
                        && family == job.family
                        && *seed_index == job.seed_index
                        && *hard == job.hard
                        && entries.iter().any(|e| e == job.entry)
                })
        })
    }
    fn stop_reason(&self) -> Option<String> {
        self.shared.reason()
    }
    fn build(&self, r: &SolverRequest<'_>) -> saddlefw::Result<Box<dyn Solver>> {
        if self.shared.stopped() {
            return Err(stopped_error());
        }
        let job = job_name(r);
        keep_thread_state();
        Python::attach(|py| match self.build_in(py, r, &job) {
            Ok(s) => {
                self.shared.jobs_started.fetch_add(1, Ordering::Relaxed);
                Ok(Box::new(s) as Box<dyn Solver>)
            }
            Err(e) => {
                let note = format!(
                    "saddlefw: raised while building the solver of job {job} (instance {})",
                    r.origin.spec
                );
                annotate(py, &e, &job, &note);
                self.shared.fail(py, e);
                Err(stopped_error())
            }
        })
    }
}

enum Kind {
    Class(Py<PyAny>),
    StepFn {
        f: Py<PyAny>,
        x: Py<PyArray1<f64>>,
        y: Py<PyArray1<f64>>,
    },
}

/// One job's solver: calls the user's `step` and copies the iterates.
pub struct PySolver {
    name: &'static str,
    kind: Kind,
    request: Py<Request>,
    slot: Arc<Slot>,
    x: Vec<f64>,
    y: Vec<f64>,
    /// The schedule handed to the solver (`request.tau`, `request.beta`).
    schedules: RunSchedules,
    shared: Arc<Shared>,
    job: String,
    spec: String,
    /// The job was stopped (its iterates are non-finite).
    dead: bool,
}

/// Where in the run an iterate was read, for error messages.
fn when(t: Option<usize>) -> String {
    match t {
        None => "after __init__".into(),
        Some(t) => format!("after step t = {t}"),
    }
}

/// Copies a 1-D float vector into `out` (a float64 contiguous array is read as a slice, any
/// other array-like is converted).
fn copy_into(v: &Bound<'_, PyAny>, out: &mut [f64], name: &str, t: Option<usize>) -> PyResult<()> {
    if let Ok(a) = v.cast::<PyArray1<f64>>() {
        if let Ok(ro) = a.try_readonly() {
            if let Ok(s) = ro.as_slice() {
                if s.len() == out.len() {
                    out.copy_from_slice(s);
                    return Ok(());
                }
            }
        }
    }
    let a: PyArrayLike1<'_, f64, AllowTypeChange> = v.extract().map_err(|_| {
        PyTypeError::new_err(format!(
            "the solver's {name} {} is not a 1-D array of numbers (got {})",
            when(t),
            v.get_type()
                .name()
                .map(|n| n.to_string())
                .unwrap_or_default()
        ))
    })?;
    let a = a.as_array();
    if a.len() != out.len() {
        return Err(PyValueError::new_err(format!(
            "the solver's {name} {} has length {}, expected {}",
            when(t),
            a.len(),
            out.len()
        )));
    }
    out.iter_mut().zip(a.iter()).for_each(|(o, v)| *o = *v);
    Ok(())
}

impl PySolver {
    /// Copies the user's `x`, `y` (attributes of `obj`) into the harness's vectors.
    fn read(&mut self, obj: &Bound<'_, PyAny>, t: Option<usize>) -> PyResult<()> {
        let py = obj.py();
        copy_into(&obj.getattr(intern!(py, "x"))?, &mut self.x, "x", t)?;
        copy_into(&obj.getattr(intern!(py, "y"))?, &mut self.y, "y", t)
    }

    /// Iteration t in Python, its iterates read into `self.x`, `self.y`; `Err` with the
    /// exception the user's code raised.
    fn step_py(&mut self, py: Python<'_>, p: &dyn SaddleProblem, t: usize) -> PyResult<()> {
        py.check_signals()?;
        let clock = Instant::now();
        let out = {
            let _open = self.slot.open(p);
            self.request.get().t.store(t, Ordering::Relaxed);
            match &self.kind {
                Kind::Class(obj) => obj.bind(py).call_method0(intern!(py, "step"))?,
                Kind::StepFn { f, x, y } => f.bind(py).call1((self.request.clone_ref(py), x, y))?,
            }
        };
        self.shared
            .python_ns
            .fetch_add(clock.elapsed().as_nanos() as u64, Ordering::Relaxed);
        match &self.kind {
            Kind::Class(obj) => {
                let obj = obj.bind(py).clone();
                self.read(&obj, Some(t))?
            }
            Kind::StepFn { x, y, .. } => {
                let (x, y) = (x.bind(py).clone(), y.bind(py).clone());
                if out.is_none() {
                    copy_into(x.as_any(), &mut self.x, "x", Some(t))?;
                    copy_into(y.as_any(), &mut self.y, "y", Some(t))?;
                } else {
                    let (nx, ny): (Bound<'_, PyAny>, Bound<'_, PyAny>) = out.extract().map_err(|_| {
                        PyTypeError::new_err(format!(
                            "the step function returned neither None (arrays updated in place) nor a pair (x, y) at t = {t}"
                        ))
                    })?;
                    copy_into(&nx, &mut self.x, "x", Some(t))?;
                    copy_into(&ny, &mut self.y, "y", Some(t))?;
                    // the next call gets the new iterates in its arrays
                    x.try_readwrite()?.as_slice_mut()?.copy_from_slice(&self.x);
                    y.try_readwrite()?.as_slice_mut()?.copy_from_slice(&self.y);
                }
            }
        }
        // a non-finite iterate is the harness's divergence (a failed run), not a bad input
        if self.finite() {
            if let Some(why) = saddlefw::iterates::feasibility(p, &self.x, &self.y) {
                return Err(PyValueError::new_err(format!(
                    "iterate t = {}: {why}",
                    t + 1
                )));
            }
        }
        Ok(())
    }

    fn finite(&self) -> bool {
        self.x.iter().chain(&self.y).all(|v| v.is_finite())
    }

    /// Ends this job's run at once: non-finite iterates stop the harness's loop.
    fn kill(&mut self) {
        self.dead = true;
        self.x
            .iter_mut()
            .chain(self.y.iter_mut())
            .for_each(|v| *v = f64::NAN);
    }
}

impl Solver for PySolver {
    fn name(&self) -> &str {
        self.name
    }
    fn init(&mut self, _: &dyn SaddleProblem, _x0: &[f64], _y0: &[f64]) {
        // the iterates were read (and checked against the start point) when the job's solver
        // was built
    }
    fn step(&mut self, p: &dyn SaddleProblem, t: usize) -> StepInfo {
        let info = StepInfo {
            tau: 0.0,
            beta: self.schedules.beta.at(t),
            gamma: 0.0,
        };
        if self.dead || self.shared.stopped() {
            self.kill();
            return info;
        }
        let clock = Instant::now();
        keep_thread_state();
        Python::attach(|py| {
            if let Err(e) = self.step_py(py, p, t) {
                if !e.is_instance_of::<pyo3::exceptions::PyKeyboardInterrupt>(py) {
                    let note = format!(
                        "saddlefw: raised at step t = {t} of job {} (instance {})",
                        self.job, self.spec
                    );
                    annotate(py, &e, &self.job, &note);
                }
                self.shared.fail(py, e);
                self.kill();
            }
        });
        self.shared.steps.fetch_add(1, Ordering::Relaxed);
        self.shared
            .binding_ns
            .fetch_add(clock.elapsed().as_nanos() as u64, Ordering::Relaxed);
        info
    }
    fn x(&self) -> &[f64] {
        &self.x
    }
    fn y(&self) -> &[f64] {
        &self.y
    }
    /// A Python solver declares no `beta_t` (as an iterate file declares none): `H_t` is
    /// measured with the schedule handed to it (`request.beta`) and the `schedule` gate is
    /// not applicable.
    fn beta_at(&self, _t: usize) -> f64 {
        0.0
    }
    fn provenance(&self) -> &'static str {
        "a Python solver (saddlefw Python package)"
    }
}

impl Drop for PySolver {
    fn drop(&mut self) {
        self.shared.jobs_done.fetch_add(1, Ordering::Relaxed);
    }
}
