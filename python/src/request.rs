//! What a user's solver receives for one job of a rate check: [`Request`], a [`Problem`] (the
//! job's instance with its exact oracles) plus the job, the theorem entry, the schedule values
//! and the start point.

use crate::problem::{Problem, Slot, Source};
use numpy::PyArray1;
use pyo3::prelude::*;
use saddlefw::prelude::SolverRequest;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

/// One job of a rate check as your solver sees it: `Request` is a `Problem` (the job's
/// instance: `L`, `grad_x`, `grad_y`, `grads`, `x_set` / `y_set` with `lmo`, `project`,
/// `diameter`, `constants`, `x0`, `y0`, `quadratic()`) whose oracles work while the harness
/// calls your `__init__` or `step`; oracle calls made in `step` are counted as the crate's
/// solvers' are.
///
/// It adds the job (`job`, `family`, `spec`, `seed`, `seed_index`), the theorem entry
/// (`entry`: the verify.json form; `algorithm`, `setting`, `a`, `b`, `C`), the schedule values
/// (`tau[t]`, `beta[t]` for `t = 0..=t_last`, read-only arrays), the horizon (`t_max`: the fit's
/// horizon; `t_last`: the last iterate measured) and `t`, the iteration the current `step`
/// call performs (`(x_t, y_t) -> (x_{t+1}, y_{t+1})`).
#[pyclass(module = "saddlefw._native", extends = Problem, frozen)]
pub struct Request {
    pub(crate) t: AtomicUsize,
    job: String,
    family: String,
    spec: String,
    seed: u64,
    seed_index: u32,
    t_max: u64,
    entry: Py<PyAny>,
    algorithm: String,
    setting: String,
    abc: (f64, f64, f64),
    tau: Py<PyArray1<f64>>,
    beta: Py<PyArray1<f64>>,
}

/// A one-line name of a job: case, family and seed index (the instance's spec follows in
/// error messages).
pub fn job_name(r: &SolverRequest<'_>) -> String {
    format!(
        "{} on {} seed {}",
        r.entry.case, r.origin.family, r.origin.seed_index
    )
}

/// A read-only float64 array.
fn frozen_array(py: Python<'_>, v: Vec<f64>) -> PyResult<Py<PyArray1<f64>>> {
    let a = PyArray1::from_vec(py, v);
    a.call_method1("setflags", (false,))?;
    Ok(a.unbind())
}

impl Request {
    /// The request of one job; its oracles reach the problem lent to `slot`.
    pub fn new(py: Python<'_>, r: &SolverRequest<'_>, slot: Arc<Slot>) -> PyResult<Py<Request>> {
        let p = r.instance.problem.as_ref();
        let base = Problem {
            src: Source::Job(slot),
            dims: (p.x_set().dim(), p.y_set().dim()),
            x0: r.instance.x0.clone(),
            y0: r.instance.y0.clone(),
            label: r.origin.spec.clone(),
        };
        // t = 0..=t_max + 1: every step (t <= t_max) and every measured iterate
        let n = r.t_max as usize + 2;
        let entry = serde_json::to_string(r.entry).expect("theorem entries serialize");
        let req = Request {
            t: AtomicUsize::new(0),
            job: job_name(r),
            family: r.origin.family.clone(),
            spec: r.origin.spec.clone(),
            seed: r.origin.seed,
            seed_index: r.origin.seed_index,
            t_max: r.t_max,
            entry: crate::json_to_py(py, &entry)?.unbind(),
            algorithm: r.entry.algorithm.to_string(),
            setting: r.entry.setting.clone(),
            abc: r.entry.schedule.abc(),
            tau: frozen_array(py, (0..n).map(|t| r.schedule.tau.at(t)).collect())?,
            beta: frozen_array(py, (0..n).map(|t| r.schedule.beta.at(t)).collect())?,
        };
        Py::new(py, PyClassInitializer::from(base).add_subclass(req))
    }
}

#[pymethods]
impl Request {
    /// The job: case, instance family and seed index.
    #[getter]
    fn job(&self) -> &str {
        &self.job
    }
    /// The instance family (e.g. `quadratic:dx=20,dy=10,x=l2`, `cosine:...`, or a stored hard
    /// instance's family).
    #[getter]
    fn family(&self) -> &str {
        &self.family
    }
    /// A spec that reproduces the instance (`saddlefw.Problem.open(spec)` for generated ones).
    #[getter]
    fn spec(&self) -> &str {
        &self.spec
    }
    #[getter]
    fn seed(&self) -> u64 {
        self.seed
    }
    #[getter]
    fn seed_index(&self) -> u32 {
        self.seed_index
    }
    /// The horizon of the fit, T_max.
    #[getter]
    fn t_max(&self) -> u64 {
        self.t_max
    }
    /// The last iterate the harness may measure (T_max, or T_max + 1 for entries averaging
    /// G^Opt(x_{t+1})); `tau` and `beta` hold `t = 0..=t_last`.
    #[getter]
    fn t_last(&self) -> u64 {
        self.t_max + 1
    }
    /// The iteration the current `step` call performs (0 in `__init__`).
    #[getter]
    fn t(&self) -> usize {
        self.t.load(Ordering::Relaxed)
    }
    /// The (first) theorem entry of the job's case, as verify.json writes entries: `id`,
    /// `case`, `algorithm`, `setting`, `schedule`, `quantity`, `p`, ...
    #[getter]
    fn entry(&self, py: Python<'_>) -> Py<PyAny> {
        self.entry.clone_ref(py)
    }
    /// The entry's algorithm (`lmo-lmo`, `lmo-po`, `po-lmo`, or a user theorem file's name).
    #[getter]
    fn algorithm(&self) -> &str {
        &self.algorithm
    }
    /// The entry's setting, e.g. `c-sc+sc`.
    #[getter]
    fn case_setting(&self) -> &str {
        &self.setting
    }
    /// The theorem schedule's exponent a of `tau_t = (t+1)^-a`.
    #[getter]
    fn a(&self) -> f64 {
        self.abc.0
    }
    /// The theorem schedule's exponent b of `beta_t = C (t+1)^-b`.
    #[getter]
    fn b(&self) -> f64 {
        self.abc.1
    }
    /// The theorem schedule's constant C of `beta_t = C (t+1)^-b`.
    #[getter(C)]
    fn c(&self) -> f64 {
        self.abc.2
    }
    /// `tau_t`, the primal step of the entry's theorem, for `t = 0..=t_last` (read-only).
    #[getter]
    fn tau(&self, py: Python<'_>) -> Py<PyArray1<f64>> {
        self.tau.clone_ref(py)
    }
    /// `beta_t`, the dual smoothing of the entry's theorem (the one `H_t` is measured with),
    /// for `t = 0..=t_last` (read-only).
    #[getter]
    fn beta(&self, py: Python<'_>) -> Py<PyArray1<f64>> {
        self.beta.clone_ref(py)
    }
    fn __repr__(&self) -> String {
        format!("<saddlefw.Request {} ({})>", self.job, self.spec)
    }
}
