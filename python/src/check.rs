//! The rate check of a Python solver ([`run_check`]) and its outcome ([`Outcome`]).
//!
//! The check runs on a thread of its own with the GIL released (`Python::detach`); the calling
//! thread (Python's main thread, where signals are handled) waits for it and, every
//! `poll_s` seconds, takes the GIL to run Python's signal handlers (`check_signals`: Ctrl-C
//! raises `KeyboardInterrupt` there) and to call the progress callback. A `KeyboardInterrupt`
//! or an exception of the user's solver stops every job at its next step ([`crate::solver`])
//! and is raised once the check's threads have returned. The jobs finished before it are
//! kept: the crate reports them as an interrupted outcome (`SolverFactory::stop_reason`),
//! attached to the exception as `saddlefw_outcome`, which `RateCheck::resume` continues.

use crate::solver::PyFactory;
use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;
use pyo3::types::PyDict;
use saddlefw::prelude::{RateCheck, Tier, TierConfig};
use saddlefw::verify::questions::Question;
use std::path::PathBuf;
use std::sync::atomic::Ordering;
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// The text of a panic payload.
fn panic_text(p: &(dyn std::any::Any + Send)) -> String {
    p.downcast_ref::<String>()
        .cloned()
        .or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string()))
        .unwrap_or_else(|| "a panic without a message".into())
}

/// Runs the theorem entries against a Python solver (the `saddlefw.RateCheck.run` of the
/// Python package, which documents the arguments).
#[pyfunction]
#[pyo3(signature = (solver, *, is_class, name, builtin=None, theorems=None, filter=None,
                    tier="quick", jobs=None, hard=None, sizes=None, progress=None, poll_s=0.05,
                    exportable_only=false, resume=None))]
#[allow(clippy::too_many_arguments)]
pub fn run_check(
    py: Python<'_>,
    solver: Py<PyAny>,
    is_class: bool,
    name: String,
    builtin: Option<String>,
    theorems: Option<PathBuf>,
    filter: Option<String>,
    tier: &str,
    jobs: Option<usize>,
    hard: Option<bool>,
    sizes: Option<(u32, u64, usize, usize)>,
    progress: Option<Py<PyAny>>,
    poll_s: f64,
    exportable_only: bool,
    resume: Option<PyRef<'_, Outcome>>,
) -> PyResult<Outcome> {
    let mut check = match &theorems {
        Some(path) => RateCheck::theorems_file(path).map_err(crate::py_error)?,
        None => RateCheck::builtin(builtin.as_deref().unwrap_or("")),
    };
    check = check
        .tier(tier.parse::<Tier>().map_err(crate::py_error)?)
        .caller(saddlefw::gate::Caller::Python);
    if let Some(f) = &filter {
        check = check.filter(f);
    }
    if let Some((seeds, t_max, dim_x, dim_y)) = sizes {
        check = check.sizes(TierConfig {
            seeds,
            t_max,
            dim_x,
            dim_y,
        });
    }
    if let Some(on) = hard {
        check = check.hard_instances(on);
    }
    if let Some(n) = jobs {
        check = check.jobs(n);
    }
    if let Some(o) = &resume {
        check = check.resume(o.inner.report.clone());
    }
    let table = match &theorems {
        Some(path) => saddlefw::paper::user::load(path).map_err(crate::py_error)?,
        None => saddlefw::theorems::builtin(),
    };
    let mut factory = PyFactory::new(name, solver, is_class);
    let opts = check.options();
    if exportable_only {
        factory.only = Some(exportable_jobs(&table, &opts)?);
    }
    let shared = factory.shared.clone();
    let check = check.solver(factory);
    // the total of random jobs, for the progress display (hard instances come on top)
    let total = saddlefw::verify::job_count(&table, &opts).map_err(crate::py_error)?;

    let poll = Duration::from_secs_f64(poll_s.clamp(0.001, 1.0));
    let clock = Instant::now();
    let report = |py: Python<'_>, shared: &crate::solver::Shared, last: bool| -> PyResult<()> {
        if let Some(cb) = &progress {
            let done = shared.jobs_done.load(Ordering::Relaxed);
            let steps = shared.steps.load(Ordering::Relaxed);
            let s = clock.elapsed().as_secs_f64();
            cb.bind(py).call1((done, total, steps, s, last))?;
        }
        Ok(())
    };
    let result = py.detach(|| {
        let (tx, rx) = mpsc::channel();
        std::thread::scope(|s| {
            let check = &check;
            s.spawn(move || {
                let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| check.run()));
                let _ = tx.send(r);
            });
            let mut drawn = Instant::now();
            loop {
                match rx.recv_timeout(poll) {
                    Ok(r) => return r,
                    Err(mpsc::RecvTimeoutError::Timeout) => Python::attach(|py| {
                        if let Err(e) = py.check_signals() {
                            shared.fail(py, e);
                        }
                        if drawn.elapsed() >= Duration::from_millis(250) && !shared.stopped() {
                            drawn = Instant::now();
                            if let Err(e) = report(py, &shared, false) {
                                shared.fail(py, e);
                            }
                        }
                    }),
                    Err(mpsc::RecvTimeoutError::Disconnected) => {
                        return Err(
                            Box::new("the check's thread ended without a result".to_string())
                                as Box<dyn std::any::Any + Send>,
                        )
                    }
                }
            }
        })
    });
    let wall_s = clock.elapsed().as_secs_f64();
    let ns = |a: &std::sync::atomic::AtomicU64| a.load(Ordering::Relaxed) as f64 * 1e-9;
    let wrap = |inner| Outcome {
        inner,
        timing: Timing {
            steps: shared.steps.load(Ordering::Relaxed),
            python_s: ns(&shared.python_ns),
            binding_s: ns(&shared.binding_ns),
            wall_s,
        },
    };
    if let Some(err) = shared.take_error() {
        // the jobs finished before the exception are kept: an interrupted outcome, attached
        // to the exception (`saddlefw_outcome`), which `RateCheck.resume` continues
        if let Ok(Ok(partial)) = result {
            err.value(py)
                .setattr("saddlefw_outcome", Py::new(py, wrap(partial))?)?;
        }
        return Err(err);
    }
    report(py, &shared, true)?;
    match result {
        Ok(Ok(o)) => Ok(wrap(o)),
        Ok(Err(e)) => Err(crate::py_error(e)),
        Err(p) => Err(PyRuntimeError::new_err(format!(
            "saddlefw panicked (a bug: please report it): {}",
            panic_text(p.as_ref())
        ))),
    }
}

/// The jobs `saddlefw export` writes for these options (the file route's jobs): `(case,
/// family, seed index, hard, entries)`.
fn exportable_jobs(
    table: &[saddlefw::paper::theorems::TheoremEntry],
    opts: &saddlefw::verify::VerifyOptions,
) -> PyResult<Vec<(String, String, u32, bool, Vec<String>)>> {
    let selected =
        saddlefw::iterates::select(table, opts.filter.as_deref()).map_err(crate::py_error)?;
    let cfg = opts.config.unwrap_or_else(|| opts.tier.config());
    let hard = opts
        .hard
        .is_some()
        .then_some(saddlefw::tightness::HardSource::Builtin);
    let planned =
        saddlefw::iterates::plan(&selected, &cfg, hard.as_ref()).map_err(crate::py_error)?;
    Ok(planned
        .into_iter()
        .filter(|j| j.not_exported.is_none())
        .map(|j| {
            let hard = j.is_hard();
            (j.case, j.family, j.seed_index, hard, j.entries)
        })
        .collect())
}

/// Failed gates as dicts: `entry`, `gate`, `question` (`conformance`, `rate_evidence` or
/// `reference`: the three questions of `saddlefw::verify::questions`), `detail`, `instances`,
/// `reproduce` and `message` (the lines Rust's `Display` writes).
fn failure_dicts(
    py: Python<'_>,
    failures: Vec<saddlefw::gate::GateFailure>,
) -> PyResult<Vec<Bound<'_, PyDict>>> {
    failures
        .into_iter()
        .map(|f| {
            let d = PyDict::new(py);
            let question = serde_json::to_value(Question::of(&f.gate))
                .ok()
                .and_then(|v| v.as_str().map(str::to_string))
                .unwrap_or_default();
            d.set_item("message", f.to_string())?;
            d.set_item("question", question)?;
            d.set_item("entry", f.entry)?;
            d.set_item("gate", f.gate)?;
            d.set_item("detail", f.detail)?;
            d.set_item("instances", f.instances)?;
            d.set_item("reproduce", f.reproduce)?;
            Ok(d)
        })
        .collect()
}

/// Where the time of a check went.
struct Timing {
    steps: u64,
    python_s: f64,
    binding_s: f64,
    wall_s: f64,
}

/// The result of a rate check (wrapped by `saddlefw.Outcome` in the Python package).
#[pyclass(module = "saddlefw._native", frozen)]
pub struct Outcome {
    inner: saddlefw::gate::Outcome,
    timing: Timing,
}

#[pymethods]
impl Outcome {
    /// True when no entry failed a gate.
    #[getter]
    fn passed(&self) -> bool {
        self.inner.passed()
    }
    /// The solver's name.
    #[getter]
    fn solver(&self) -> &str {
        &self.inner.solver
    }
    /// Where the entries come from.
    #[getter]
    fn source(&self) -> &str {
        &self.inner.source
    }
    /// Every failed gate that fails its entry, as dicts ([`failure_dicts`]).
    fn failures<'py>(&self, py: Python<'py>) -> PyResult<Vec<Bound<'py, PyDict>>> {
        failure_dicts(py, self.inner.failures())
    }
    /// Failed gates that are reported but do not fail their entry (`reported_gates`), as
    /// [`Outcome::failures`] gives them.
    fn reported<'py>(&self, py: Python<'py>) -> PyResult<Vec<Bound<'py, PyDict>>> {
        failure_dicts(py, self.inner.reported())
    }
    /// The message of Rust's `Outcome::assert_passed` (None when it passes): taken from that
    /// very function, so both routes always say the same.
    fn failure_message(&self) -> Option<String> {
        let quiet = std::panic::take_hook();
        std::panic::set_hook(Box::new(|_| {}));
        let r =
            std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| self.inner.assert_passed()));
        std::panic::set_hook(quiet);
        r.err().map(|p| panic_text(p.as_ref()))
    }
    /// verify.json's text (the whole report, every field the crate writes).
    fn report_json(&self) -> String {
        self.inner.report.to_json()
    }
    /// Writes `dir/verify.json` and `dir/index.html`; returns their paths.
    fn write(&self, dir: PathBuf) -> PyResult<(String, String)> {
        let (j, h) = self.inner.write(&dir).map_err(crate::py_error)?;
        Ok((j.display().to_string(), h.display().to_string()))
    }
    /// Where the time went: `steps` (calls of your `step`), `python_s` (inside your `step`),
    /// `binding_s` (inside the binding's step: GIL, your call, copying and checking the
    /// iterates) and `wall_s` (the whole check).
    #[getter]
    fn timing<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        d.set_item("steps", self.timing.steps)?;
        d.set_item("python_s", self.timing.python_s)?;
        d.set_item("binding_s", self.timing.binding_s)?;
        d.set_item("wall_s", self.timing.wall_s)?;
        Ok(d)
    }
}
