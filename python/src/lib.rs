//! `saddlefw._native`: the Rust half of the Python package `saddlefw` (PyO3, built by maturin).
//!
//! The Python package (`python/saddlefw/`) wraps these classes in its public API; this module
//! only binds the crate:
//! * [`problem`]: a problem instance (generated, exported or a JSON problem file) with its
//!   exact oracles and measures, as NumPy arrays ([`problem::Problem`], [`problem::SetView`]);
//! * [`request`]: what a user's solver receives for one job of a rate check
//!   ([`request::Request`]: the instance's oracles, the schedule values, the start point, the
//!   certified constants, the theorem entry);
//! * [`solver`]: the seam to the crate, a [`saddlefw::prelude::SolverFactory`] whose solvers
//!   call the user's Python `step` ([`solver::PyFactory`]);
//! * [`check`]: the rate check itself, run with the GIL released and Ctrl-C watched
//!   ([`check::run_check`]), and its outcome ([`check::Outcome`]).
//!
//! The crate stays free of Python: everything here uses its public API (`saddlefw::prelude`,
//! `verify`, `measures`, `iterates::{feasibility, same_point}`).

mod check;
mod problem;
mod request;
mod solver;

use pyo3::prelude::*;

/// A crate error as the Python exception a caller expects: `OSError` for a failed read or
/// write, `ValueError` (with the crate's one-line message `INPUT: LOCATION: REASON`) for
/// everything else (bad input, invalid parameters).
pub(crate) fn py_error(e: saddlefw::Error) -> PyErr {
    match e {
        saddlefw::Error::Io { .. } => pyo3::exceptions::PyOSError::new_err(e.to_string()),
        _ => pyo3::exceptions::PyValueError::new_err(e.to_string()),
    }
}

/// A JSON text as Python objects (dicts, lists, floats), through Python's own `json` module.
pub(crate) fn json_to_py<'py>(py: Python<'py>, text: &str) -> PyResult<Bound<'py, PyAny>> {
    py.import("json")?.call_method1("loads", (text,))
}

#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<problem::Problem>()?;
    m.add_class::<problem::SetView>()?;
    m.add_class::<request::Request>()?;
    m.add_class::<check::Outcome>()?;
    m.add_function(wrap_pyfunction!(check::run_check, m)?)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
