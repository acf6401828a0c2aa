//! A problem instance in Python: its exact oracles (`L`, gradients, the sets' `lmo`,
//! `project`, `diameter`) and the paper's exact measures of points and of sequences of points.
//!
//! A [`Problem`] either owns its instance (generated from a spec, read from a JSON problem
//! file) or is the instance of a job in flight ([`crate::request::Request`] extends it): then
//! its oracles reach the harness's problem only while the harness waits for the user's
//! `__init__` or `step` ([`Slot`]).

use numpy::{AllowTypeChange, PyArray1, PyArray2, PyArrayLike1, PyArrayLike2};
use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyDict;
use saddlefw::generators::GeneratorSpec;
use saddlefw::problems::quadratic::QuadraticFile;
use saddlefw::{ConvexSet, Instance, SaddleProblem};
use std::path::Path;
use std::sync::{Arc, Mutex};

/// A raw pointer to the problem of a job in flight (see [`Slot`]).
#[derive(Clone, Copy)]
struct JobProblem(*const (dyn SaddleProblem + 'static));
// SAFETY: the pointee is `Send + Sync` (SaddleProblem's bounds); the pointer is dereferenced
// only under the slot's mutex while the borrow it was made from is alive (see `Slot`).
unsafe impl Send for JobProblem {}

/// The problem a job's oracles call. The harness borrows its problem (the instance during
/// `__init__`, the oracle-counting view during `step`) only for the duration of a call into
/// Python: [`Slot::open`] stores a pointer to it and the returned guard removes it when the
/// call returns (or unwinds), so a request kept past its call finds the slot empty and raises
/// `RuntimeError` instead of reaching freed memory. Every dereference holds the mutex, and
/// closing waits for it, so a pointer is never used after its borrow ends.
#[derive(Default)]
pub struct Slot(Mutex<Option<JobProblem>>);

/// Keeps a [`Slot`] open; closes it when dropped.
pub struct Open<'s>(&'s Slot);

impl Drop for Open<'_> {
    fn drop(&mut self) {
        *self.0 .0.lock().unwrap_or_else(|p| p.into_inner()) = None;
    }
}

impl Slot {
    /// Lends `problem` to the slot until the guard is dropped.
    pub fn open<'s>(&'s self, problem: &dyn SaddleProblem) -> Open<'s> {
        let ptr: *const (dyn SaddleProblem + '_) = problem;
        // SAFETY: only the lifetime is erased; the guard closes the slot before the borrow
        // of `problem` (which outlives the guard at every call site) ends.
        let ptr: *const (dyn SaddleProblem + 'static) = unsafe { std::mem::transmute(ptr) };
        *self.0.lock().unwrap_or_else(|p| p.into_inner()) = Some(JobProblem(ptr));
        Open(self)
    }
    fn with<R>(&self, f: impl FnOnce(&dyn SaddleProblem) -> R) -> PyResult<R> {
        let guard = self.0.lock().unwrap_or_else(|p| p.into_inner());
        match *guard {
            // SAFETY: the slot is open, so the borrow the pointer came from is alive (above)
            Some(JobProblem(p)) => Ok(f(unsafe { &*p })),
            None => Err(PyRuntimeError::new_err(
                "this request's oracles can be called only inside the solver's __init__ or step \
                 (the job's instance exists only while the harness runs the job)",
            )),
        }
    }
}

/// Where a [`Problem`]'s oracles go.
#[derive(Clone)]
pub enum Source {
    /// An instance of its own.
    Owned(Arc<Instance>),
    /// The instance of a job in flight.
    Job(Arc<Slot>),
}

impl Source {
    pub fn with<R>(&self, f: impl FnOnce(&dyn SaddleProblem) -> R) -> PyResult<R> {
        match self {
            Source::Owned(inst) => Ok(f(inst.problem.as_ref())),
            Source::Job(slot) => slot.with(f),
        }
    }
}

/// A vector argument as f64 values of the expected length (any 1-D array-like).
fn vector(
    v: &PyArrayLike1<'_, f64, AllowTypeChange>,
    name: &str,
    dim: usize,
) -> PyResult<Vec<f64>> {
    let v = v.as_array();
    if v.len() != dim {
        return Err(PyValueError::new_err(format!(
            "{name}: expected length {dim}, got {}",
            v.len()
        )));
    }
    Ok(v.iter().copied().collect())
}

/// Points as rows: a 1-D array-like is one point (`single`), a 2-D one a sequence.
fn points(
    py: Python<'_>,
    v: &Bound<'_, PyAny>,
    name: &str,
    dim: usize,
) -> PyResult<(Vec<Vec<f64>>, bool)> {
    let np = py.import("numpy")?;
    let a = np.call_method1("asarray", (v, np.getattr("float64")?))?;
    let ndim: usize = a.getattr("ndim")?.extract()?;
    let (a, single) = match ndim {
        1 => (a.call_method1("reshape", (1, -1))?, true),
        2 => (a, false),
        d => {
            return Err(PyValueError::new_err(format!(
                "{name}: expected one point (1-D) or one point per row (2-D), got {d} dimensions"
            )))
        }
    };
    let a: PyArrayLike2<'_, f64, AllowTypeChange> = a.extract()?;
    let a = a.as_array();
    if a.ncols() != dim {
        return Err(PyValueError::new_err(format!(
            "{name}: expected points of length {dim}, got {}",
            a.ncols()
        )));
    }
    Ok((a.rows().into_iter().map(|r| r.to_vec()).collect(), single))
}

fn array<'py>(py: Python<'py>, v: Vec<f64>) -> Bound<'py, PyArray1<f64>> {
    PyArray1::from_vec(py, v)
}

/// A problem instance `min_x max_y L(x, y)` over `X x Y` with certified constants.
///
/// Build one with `Problem.generate(spec)` (a generator spec, e.g.
/// `"quadratic/c-sc:dx=20,dy=10,seed=3"`, as in verify.json's `spec` fields), `Problem.load(path)`
/// (a JSON quadratic problem file, e.g. one written by `saddlefw export`) or `Problem.open(arg)`
/// (either). Vectors are 1-D NumPy arrays of float64 (matrix variables flattened row-major).
#[pyclass(module = "saddlefw._native", subclass, frozen)]
pub struct Problem {
    pub(crate) src: Source,
    pub(crate) dims: (usize, usize),
    pub(crate) x0: Vec<f64>,
    pub(crate) y0: Vec<f64>,
    pub(crate) label: String,
}

impl Problem {
    pub(crate) fn owned(inst: Instance, label: String) -> Problem {
        let dims = (inst.problem.x_set().dim(), inst.problem.y_set().dim());
        let (x0, y0) = (inst.x0.clone(), inst.y0.clone());
        Problem {
            src: Source::Owned(Arc::new(inst)),
            dims,
            x0,
            y0,
            label,
        }
    }
    fn xy(
        &self,
        x: &PyArrayLike1<'_, f64, AllowTypeChange>,
        y: &PyArrayLike1<'_, f64, AllowTypeChange>,
    ) -> PyResult<(Vec<f64>, Vec<f64>)> {
        Ok((vector(x, "x", self.dims.0)?, vector(y, "y", self.dims.1)?))
    }
}

#[pymethods]
impl Problem {
    /// The instance of a generator spec, e.g. `"cosine/nc-c:dx=20,dy=10,seed=1"`.
    #[staticmethod]
    fn generate(spec: &str) -> PyResult<Problem> {
        let spec: GeneratorSpec = spec.parse().map_err(crate::py_error)?;
        let inst = spec.generate().map_err(crate::py_error)?;
        Ok(Problem::owned(inst, spec.to_string()))
    }
    /// The instance of a JSON quadratic problem file (format `saddlefw-quadratic-v1`).
    #[staticmethod]
    fn load(path: std::path::PathBuf) -> PyResult<Problem> {
        let inst = QuadraticFile::load(&path).map_err(crate::py_error)?;
        Ok(Problem::owned(inst, path.display().to_string()))
    }
    /// A problem file (an existing path or a `.json` name) or a generator spec, as
    /// `saddlefw run --problem` reads it.
    #[staticmethod]
    fn open(arg: &str) -> PyResult<Problem> {
        if Path::new(arg).is_file() || arg.ends_with(".json") {
            Problem::load(arg.into())
        } else {
            Problem::generate(arg)
        }
    }
    /// The problem's name, e.g. `quadratic(dx=20, dy=10)`.
    #[getter]
    fn name(&self) -> PyResult<String> {
        self.src.with(|p| p.name())
    }
    /// The spec or path the problem was built from.
    #[getter]
    fn label(&self) -> String {
        self.label.clone()
    }
    #[getter]
    fn dim_x(&self) -> usize {
        self.dims.0
    }
    #[getter]
    fn dim_y(&self) -> usize {
        self.dims.1
    }
    /// The start point x0 (a copy).
    #[getter]
    fn x0<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<f64>> {
        array(py, self.x0.clone())
    }
    /// The start point y0 (a copy); also the reference point of the dual smoothing.
    #[getter]
    fn y0<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<f64>> {
        array(py, self.y0.clone())
    }
    /// The certified constants: `lxx, lyx, lyy, mu, alpha` (None: Y not strongly convex),
    /// `dx, dy` (the diameters D_X, D_Y).
    #[getter]
    fn constants<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let k = self.src.with(|p| p.constants())?;
        crate::json_to_py(py, &serde_json::to_string(&k).expect("constants serialize"))
    }
    /// The setting the instance satisfies, e.g. `c-sc+sc`.
    #[getter]
    fn setting(&self) -> PyResult<String> {
        self.src.with(|p| p.assumptions().setting().to_string())
    }
    /// `f* = min_x max_y L` as a certified interval `(lower, upper)`, when known.
    #[getter]
    fn f_star(&self) -> PyResult<Option<(f64, f64)>> {
        self.src.with(|p| p.f_star().map(|i| (i.lower, i.upper)))
    }
    /// The primal set X.
    #[getter]
    fn x_set(&self) -> SetView {
        SetView {
            src: self.src.clone(),
            primal: true,
        }
    }
    /// The dual set Y.
    #[getter]
    fn y_set(&self) -> SetView {
        SetView {
            src: self.src.clone(),
            primal: false,
        }
    }
    /// `L(x, y)`.
    #[pyo3(name = "L")]
    fn value(
        &self,
        x: PyArrayLike1<'_, f64, AllowTypeChange>,
        y: PyArrayLike1<'_, f64, AllowTypeChange>,
    ) -> PyResult<f64> {
        let (x, y) = self.xy(&x, &y)?;
        self.src.with(|p| p.value(&x, &y))
    }
    /// `grad_x L(x, y)`.
    fn grad_x<'py>(
        &self,
        py: Python<'py>,
        x: PyArrayLike1<'_, f64, AllowTypeChange>,
        y: PyArrayLike1<'_, f64, AllowTypeChange>,
    ) -> PyResult<Bound<'py, PyArray1<f64>>> {
        let (x, y) = self.xy(&x, &y)?;
        let mut g = vec![0.0; x.len()];
        self.src.with(|p| p.grad_x(&x, &y, &mut g))?;
        Ok(array(py, g))
    }
    /// `grad_y L(x, y)`.
    fn grad_y<'py>(
        &self,
        py: Python<'py>,
        x: PyArrayLike1<'_, f64, AllowTypeChange>,
        y: PyArrayLike1<'_, f64, AllowTypeChange>,
    ) -> PyResult<Bound<'py, PyArray1<f64>>> {
        let (x, y) = self.xy(&x, &y)?;
        let mut g = vec![0.0; y.len()];
        self.src.with(|p| p.grad_y(&x, &y, &mut g))?;
        Ok(array(py, g))
    }
    /// Both gradients `(grad_x L, grad_y L)` at once (one pass where the family shares
    /// products).
    fn grads<'py>(
        &self,
        py: Python<'py>,
        x: PyArrayLike1<'_, f64, AllowTypeChange>,
        y: PyArrayLike1<'_, f64, AllowTypeChange>,
    ) -> PyResult<(Bound<'py, PyArray1<f64>>, Bound<'py, PyArray1<f64>>)> {
        let (x, y) = self.xy(&x, &y)?;
        let (mut gx, mut gy) = (vec![0.0; x.len()], vec![0.0; y.len()]);
        self.src.with(|p| p.grads(&x, &y, &mut gx, &mut gy))?;
        Ok((array(py, gx), array(py, gy)))
    }
    /// The matrices of a quadratic instance `L = 1/2 x'Ax + y'Bx - 1/2 y'Cy + a'x - c'y` as
    /// NumPy arrays (`A, B, C, a, c`) with the set specs and start point, or None for other
    /// families (cosine).
    fn quadratic<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyDict>>> {
        let (x0, y0) = (&self.x0, &self.y0);
        let Some(file) = self
            .src
            .with(|p| p.as_quadratic().map(|q| q.to_file(x0, y0)))?
            .transpose()
            .map_err(crate::py_error)?
        else {
            return Ok(None);
        };
        let d = PyDict::new(py);
        let mat = |m: Vec<Vec<f64>>| -> PyResult<Bound<'py, PyArray2<f64>>> {
            if m.is_empty() || m[0].is_empty() {
                return Ok(PyArray2::zeros(py, [m.len(), 0], false));
            }
            PyArray2::from_vec2(py, &m).map_err(|e| PyValueError::new_err(e.to_string()))
        };
        d.set_item("A", mat(file.a_mat)?)?;
        d.set_item("B", mat(file.b_mat)?)?;
        d.set_item("C", mat(file.c_mat)?)?;
        d.set_item("a", array(py, file.a))?;
        d.set_item("c", array(py, file.c))?;
        let spec = |s| serde_json::to_string(&s).expect("set specs serialize");
        d.set_item("x_set", crate::json_to_py(py, &spec(file.x_set))?)?;
        d.set_item("y_set", crate::json_to_py(py, &spec(file.y_set))?)?;
        Ok(Some(d))
    }
    /// The exact measures of the paper at a point, or along a sequence of points.
    ///
    /// `x`, `y`: one point (1-D arrays) or a sequence (2-D arrays, one point per row).
    /// `beta`: the smoothing `beta_t` of `H_t` (a number, or one per point; default 0);
    /// `y0`: the smoothing's reference point (default: the problem's start y0); `sigma`: the
    /// step of `G_X^PO` (default 1). Returns a dict of floats (one point) or of 1-D arrays:
    /// `gx_lmo` (G_X^LMO), `gx_po` (G_X^PO), `gy` (G_Y), `gy_lmo` (G_Y^LMO), `h` (H_t),
    /// `gap_opt` (G^Opt = f(x) - f*.lower, NaN when f* is not certified) and `width` (the
    /// largest width of the certified intervals behind them). Inner solves are certified
    /// intervals reported by their upper end, as in `saddlefw run`.
    #[pyo3(signature = (x, y, beta=None, y0=None, sigma=1.0))]
    fn measures<'py>(
        &self,
        py: Python<'py>,
        x: &Bound<'py, PyAny>,
        y: &Bound<'py, PyAny>,
        beta: Option<&Bound<'py, PyAny>>,
        y0: Option<PyArrayLike1<'py, f64, AllowTypeChange>>,
        sigma: f64,
    ) -> PyResult<Bound<'py, PyDict>> {
        let (xs, single) = points(py, x, "x", self.dims.0)?;
        let (ys, _) = points(py, y, "y", self.dims.1)?;
        let n = xs.len();
        if ys.len() != n {
            return Err(PyValueError::new_err(format!(
                "x and y: {n} points of x but {} of y",
                ys.len()
            )));
        }
        if !(sigma > 0.0 && sigma.is_finite()) {
            return Err(PyValueError::new_err(format!(
                "sigma: expected a positive finite number, got {sigma}"
            )));
        }
        let betas: Vec<f64> = match &beta {
            None => vec![0.0; n],
            Some(b) => {
                let np = py.import("numpy")?;
                let b = np.call_method1(
                    "atleast_1d",
                    (np.call_method1("asarray", (b, np.getattr("float64")?))?,),
                )?;
                let b: PyArrayLike1<'_, f64, AllowTypeChange> = b.extract().map_err(|_| {
                    PyValueError::new_err("beta: expected a number or a 1-D array of numbers")
                })?;
                let b = b.as_array();
                match b.len() {
                    1 => vec![b[0]; n],
                    l if l == n => b.iter().copied().collect(),
                    l => {
                        return Err(PyValueError::new_err(format!(
                            "beta: expected one number or {n} (one per point), got {l}"
                        )))
                    }
                }
            }
        };
        if let Some(b) = betas.iter().find(|b| !(b.is_finite() && **b >= 0.0)) {
            return Err(PyValueError::new_err(format!(
                "beta: expected finite numbers >= 0, got {b}"
            )));
        }
        let y0 = match &y0 {
            None => self.y0.clone(),
            Some(v) => vector(v, "y0", self.dims.1)?,
        };
        let compute = |p: &dyn SaddleProblem| -> Vec<saddlefw::measures::PointMeasures> {
            (0..n)
                .map(|i| saddlefw::measures::evaluate(p, &xs[i], &ys[i], betas[i], &y0, sigma))
                .collect()
        };
        // an owned instance is measured with the GIL released
        let ms = match &self.src {
            Source::Owned(inst) => {
                let inst = inst.clone();
                py.detach(move || compute(inst.problem.as_ref()))
            }
            Source::Job(_) => self.src.with(compute)?,
        };
        let d = PyDict::new(py);
        type Field = fn(&saddlefw::measures::PointMeasures) -> f64;
        let fields: [(&str, Field); 7] = [
            ("gx_lmo", |m| m.gx_lmo),
            ("gx_po", |m| m.gx_po),
            ("gy", |m| m.gy),
            ("gy_lmo", |m| m.gy_lmo),
            ("h", |m| m.h),
            ("gap_opt", |m| m.gap_opt.unwrap_or(f64::NAN)),
            ("width", |m| m.width),
        ];
        for (name, f) in fields {
            if single {
                d.set_item(name, f(&ms[0]))?;
            } else {
                d.set_item(name, array(py, ms.iter().map(f).collect()))?;
            }
        }
        Ok(d)
    }
    fn __repr__(&self) -> PyResult<String> {
        Ok(format!(
            "<saddlefw.Problem {} ({})>",
            self.name()?,
            self.label
        ))
    }
}

/// One of a problem's sets, X or Y, with saddlefw's exact oracles.
#[pyclass(module = "saddlefw._native", frozen)]
pub struct SetView {
    src: Source,
    primal: bool,
}

impl SetView {
    fn with<R>(&self, f: impl FnOnce(&dyn ConvexSet) -> R) -> PyResult<R> {
        let primal = self.primal;
        self.src
            .with(|p| f(if primal { p.x_set() } else { p.y_set() }))
    }
    fn arg(&self, v: &PyArrayLike1<'_, f64, AllowTypeChange>, name: &str) -> PyResult<Vec<f64>> {
        vector(v, name, self.with(|s| s.dim())?)
    }
}

#[pymethods]
impl SetView {
    /// `argmin_{v in the set} <g, v>` (exact, deterministic ties as saddlefw's solvers use).
    fn lmo<'py>(
        &self,
        py: Python<'py>,
        g: PyArrayLike1<'_, f64, AllowTypeChange>,
    ) -> PyResult<Bound<'py, PyArray1<f64>>> {
        let g = self.arg(&g, "g")?;
        let mut out = vec![0.0; g.len()];
        self.with(|s| s.lmo(&g, &mut out))?;
        Ok(array(py, out))
    }
    /// The Euclidean projection of `z` onto the set.
    fn project<'py>(
        &self,
        py: Python<'py>,
        z: PyArrayLike1<'_, f64, AllowTypeChange>,
    ) -> PyResult<Bound<'py, PyArray1<f64>>> {
        let z = self.arg(&z, "z")?;
        let mut out = vec![0.0; z.len()];
        self.with(|s| s.project(&z, &mut out))?;
        Ok(array(py, out))
    }
    /// Whether `z` lies in the set up to `tol`.
    #[pyo3(signature = (z, tol=1e-9))]
    fn contains(&self, z: PyArrayLike1<'_, f64, AllowTypeChange>, tol: f64) -> PyResult<bool> {
        let z = self.arg(&z, "z")?;
        self.with(|s| s.contains(&z, tol))
    }
    /// The diameter (D_X or D_Y).
    #[getter]
    fn diameter(&self) -> PyResult<f64> {
        self.with(|s| s.diameter())
    }
    #[getter]
    fn dim(&self) -> PyResult<usize> {
        self.with(|s| s.dim())
    }
    /// E.g. `simplex(n=20)`.
    #[getter]
    fn name(&self) -> PyResult<String> {
        self.with(|s| s.name())
    }
    /// The strong-convexity modulus of the set, None when it is not strongly convex.
    #[getter]
    fn strong_convexity(&self) -> PyResult<Option<f64>> {
        self.with(|s| s.strong_convexity())
    }
    /// The set in the problem-file notation (`{"kind": "simplex", ...}`).
    #[getter]
    fn spec<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let s = self.with(|s| serde_json::to_string(&s.spec()).expect("set specs serialize"))?;
        crate::json_to_py(py, &s)
    }
    fn __repr__(&self) -> PyResult<String> {
        Ok(format!("<saddlefw set {}>", self.name()?))
    }
}
