//! Typed errors for user-facing failures: bad parameters, malformed input files, I/O.
//!
//! A programmer's broken precondition is an `assert!`; a user's bad input is an [`enum@Error`]
//! that names the input, the location and the reason; a numerical failure during a run is
//! recorded data (a run status), not an error.

use thiserror::Error;

/// Exit code: success.
pub const EXIT_OK: i32 = 0;
/// Exit code: a check or gate failed.
pub const EXIT_FAILED: i32 = 1;
/// Exit code: a usage or input error (an [`enum@Error`] shown to the user).
pub const EXIT_USAGE: i32 = 2;

/// Every error saddlefw reports to a user.
#[derive(Debug, Error)]
pub enum Error {
    /// A parameter (of a set, a problem, a schedule, a command) is outside its domain.
    #[error("invalid {what}: {reason}")]
    Invalid { what: String, reason: String },
    /// An input (file, spec string) could not be parsed or validated.
    #[error("{input}: {location}: {reason}")]
    Input {
        input: String,
        location: String,
        reason: String,
    },
    /// Reading or writing a file failed: the path, the operation (`read`, `write`, `rename`,
    /// `create directory`) and the operating system's reason.
    #[error("{path}: {op}: {source}")]
    Io {
        path: String,
        op: &'static str,
        #[source]
        source: std::io::Error,
    },
}

impl Error {
    /// An invalid parameter: `what` names it, `reason` says why.
    pub fn invalid(what: impl Into<String>, reason: impl Into<String>) -> Self {
        Error::Invalid {
            what: what.into(),
            reason: reason.into(),
        }
    }
    /// A bad input: which input, where in it, and why.
    pub fn input(
        input: impl Into<String>,
        location: impl Into<String>,
        reason: impl Into<String>,
    ) -> Self {
        Error::Input {
            input: input.into(),
            location: location.into(),
            reason: reason.into(),
        }
    }
    /// An I/O failure of operation `op` (`read`, `write`, ...) on `path`.
    pub fn io(path: impl Into<String>, op: &'static str, source: std::io::Error) -> Self {
        Error::Io {
            path: path.into(),
            op,
            source,
        }
    }
}

/// A JSON error of `input` (syntax, type or an unknown field) as one [`Error::Input`]: the
/// location is `line L column C`, preceded by `field` when the caller knows it; the reason is
/// serde's message without its repeated position.
///
/// ```
/// let e = serde_json::from_str::<Vec<f64>>("[1, x]").unwrap_err();
/// let err = saddlefw::error::json_error("p.json", &e, None);
/// assert_eq!(err.to_string(), "p.json: line 1 column 5: expected value");
/// ```
pub fn json_error(input: &str, e: &serde_json::Error, field: Option<&str>) -> Error {
    let at = format!("line {} column {}", e.line(), e.column());
    let text = e.to_string();
    let reason = text
        .strip_suffix(&format!(" at {at}"))
        .unwrap_or(&text)
        .to_string();
    let location = match field {
        Some(f) => format!("field {f:?} ({at})"),
        None => at,
    };
    Error::input(input, location, reason)
}

/// Result alias used across the crate. The error type is a defaulted parameter, so that after
/// `use saddlefw::prelude::*` a user's own `Result<T, E>` still means std's.
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// Checks that every value is finite; `what` names the input in the error.
pub(crate) fn ensure_finite(what: &str, values: &[f64]) -> Result<()> {
    match values.iter().position(|v| !v.is_finite()) {
        None => Ok(()),
        Some(i) => Err(Error::invalid(
            what,
            format!("entry {i} is not finite ({})", values[i]),
        )),
    }
}

/// A count flag (`--iters`, `--jobs`, ...): at least 1, else
/// `invalid FLAG: must be at least 1, got V`.
pub(crate) fn positive_count(flag: &str, v: i64) -> Result<usize> {
    if v >= 1 {
        Ok(v as usize)
    } else {
        Err(Error::invalid(flag, format!("must be at least 1, got {v}")))
    }
}

/// A number flag (`--time-limit`, `--sigma`, ...): finite and > 0, else
/// `invalid FLAG: must be a finite number > 0, got V`.
pub(crate) fn finite_positive(flag: &str, v: f64) -> Result<f64> {
    if v.is_finite() && v > 0.0 {
        Ok(v)
    } else {
        Err(Error::invalid(
            flag,
            format!("must be a finite number > 0, got {v}"),
        ))
    }
}

/// Longest piece of the user's text quoted whole in an error line; longer pieces are
/// [`abridged`].
pub const QUOTE_MAX: usize = 40;

/// `text` quoted for an error line: whole up to [`QUOTE_MAX`] characters, else its start,
/// its end and its length (a 1 MB number in a file is not echoed back whole).
///
/// ```
/// use saddlefw::error::abridged;
/// assert_eq!(abridged("1e5x"), "\"1e5x\"");
/// let long = "9".repeat(1_000_000);
/// assert_eq!(abridged(&long), "\"9999999999999999...9999999999999999\" (1000000 characters)");
/// ```
pub fn abridged(text: &str) -> String {
    let n = text.chars().count();
    if n <= QUOTE_MAX {
        return format!("{text:?}");
    }
    let head: String = text.chars().take(16).collect();
    let tail: String = text.chars().skip(n - 16).collect();
    format!("\"{head}...{tail}\" ({n} characters)")
}
