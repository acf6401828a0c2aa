//! Long work that survives interruption: the periodic checkpoint file of `saddlefw run` and
//! the rules by which `--resume DIR` accepts an interrupted record (`verify`, `check`,
//! `experiment`).
//!
//! * **Checkpoint file** ([`checkpoint_path`]): `run --out RUN.json` writes `RUN.json.partial`
//!   every `--checkpoint-every` seconds of wall time (default [`CHECKPOINT_EVERY_S`]), atomically,
//!   with status `in_progress` and every checkpoint measured so far; it is removed once RUN.json
//!   is written. A run killed by SIGKILL (or a power cut) thus loses at most that interval.
//! * **Resume** ([`check_identity`]): a record is resumed only when it was written by this
//!   build and with the same job-defining arguments; otherwise the command exits 2 naming the
//!   record and the difference. Jobs recorded in it are not run again, so the final files equal
//!   an uninterrupted run's apart from timings.
//!
//! ```
//! use saddlefw::resume::{check_identity, checkpoint_path};
//! use std::path::Path;
//! assert_eq!(checkpoint_path(Path::new("out/RUN.json")), Path::new("out/RUN.json.partial"));
//! let ok = check_identity("v/verify.json", "saddlefw 0.1", "saddlefw 0.1", &[("tier", "quick".into(), "quick".into())]);
//! assert!(ok.is_ok());
//! let e = check_identity("v/verify.json", "saddlefw 0.1", "saddlefw 0.1", &[("--tier", "full".into(), "quick".into())]).unwrap_err();
//! assert_eq!(e.to_string(), "v/verify.json: --resume: recorded with --tier full, this run has quick: not the same work (run without --resume, or with the same arguments)");
//! ```

use crate::{Error, Result};
use std::path::{Path, PathBuf};

/// Default interval in seconds between the checkpoint files of `saddlefw run`.
pub const CHECKPOINT_EVERY_S: f64 = 60.0;

/// The checkpoint file of a run writing `out`: the same path with `.partial` appended.
pub fn checkpoint_path(out: &Path) -> PathBuf {
    crate::files::with_suffix(out, ".partial")
}

/// Removes the checkpoint file of `out` once the final file is written (a missing file is fine).
pub fn remove_checkpoint(out: &Path) {
    let _ = std::fs::remove_file(checkpoint_path(out));
}

/// Checks a `--checkpoint-every` value: seconds, finite and positive.
pub fn interval(flag: &str, seconds: f64) -> Result<f64> {
    if seconds.is_finite() && seconds > 0.0 {
        Ok(seconds)
    } else {
        Err(Error::invalid(
            flag,
            format!("must be a finite number > 0, got {seconds}"),
        ))
    }
}

/// Refuses to resume the record `input` unless it was written by this build (`recorded_build`
/// equal to `this_build`) and every `(name, recorded, this run)` argument agrees.
pub fn check_identity(
    input: &str,
    recorded_build: &str,
    this_build: &str,
    arguments: &[(&str, String, String)],
) -> Result<()> {
    if recorded_build != this_build {
        return Err(Error::input(
            input,
            "--resume",
            format!("written by another build ({recorded_build}; this is {this_build}): its runs may differ, so they are not reused (run without --resume)"),
        ));
    }
    for (name, recorded, now) in arguments {
        if recorded != now {
            return Err(Error::input(
                input,
                "--resume",
                format!("recorded with {name} {recorded}, this run has {now}: not the same work (run without --resume, or with the same arguments)"),
            ));
        }
    }
    Ok(())
}

/// What a run's results were made from: the build, the job-defining arguments (`(name,
/// value)`, in the command's order) and the content of its inputs (`crate::fingerprint`).
/// A journal's header, a record and a shard each say it; `--resume` and `merge` reuse
/// results only of the same identity ([`Identity::accept`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Identity {
    /// The build ([`crate::build_info::Build`], as text).
    pub build: String,
    /// The job-defining arguments.
    pub arguments: Vec<(String, String)>,
    /// The inputs' content hashes.
    pub inputs: crate::fingerprint::Inputs,
}

impl Identity {
    /// The work of this build with `arguments` and `inputs`.
    pub fn current(arguments: Vec<(&str, String)>, inputs: crate::fingerprint::Inputs) -> Self {
        Identity::recorded(&crate::build_info::Build::current(), arguments, inputs)
    }

    /// The work a record written by `build` says it did.
    pub fn recorded(
        build: &crate::build_info::Build,
        arguments: Vec<(&str, String)>,
        inputs: crate::fingerprint::Inputs,
    ) -> Self {
        Identity {
            build: build.to_string(),
            arguments: arguments
                .into_iter()
                .map(|(n, v)| (n.to_string(), v))
                .collect(),
            inputs,
        }
    }

    /// Refuses `was` (read from `input`) unless it is this work: the same build
    /// ([`check_identity`]), every argument of this run recorded with the same value, inputs
    /// of the same content.
    pub fn accept(&self, input: &str, was: &Identity) -> Result<()> {
        let recorded = |name: &str| {
            was.arguments
                .iter()
                .find(|(n, _)| n == name)
                .map_or_else(|| "(none)".to_string(), |(_, v)| v.clone())
        };
        let pairs: Vec<(&str, String, String)> = self
            .arguments
            .iter()
            .map(|(n, v)| (n.as_str(), recorded(n), v.clone()))
            .collect();
        check_identity(input, &was.build, &self.build, &pairs)?;
        was.inputs.check(input, "--resume", &self.inputs)
    }
}

/// The interruption of a record: which signal stopped it and how far it got.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Interruption {
    /// `SIGINT`, `SIGTERM` or `SIGHUP` (or a library caller's reason, e.g.
    /// `KeyboardInterrupt`).
    pub signal: String,
    /// Jobs (runs) completed and recorded.
    pub done: usize,
    /// Jobs of the whole command.
    pub total: usize,
}

impl Interruption {
    /// The interruption of the running command after `done` of `total` jobs, if a stop was
    /// requested (`crate::interrupt`) and jobs remain.
    pub fn now(done: usize, total: usize) -> Option<Interruption> {
        Interruption::by(crate::interrupt::describe(), done, total)
    }
    /// The interruption after `done` of `total` jobs by `reason` (a signal's name, or a
    /// library caller's reason: [`crate::verify::SolverFactory::stop_reason`]), if any and
    /// jobs remain.
    pub fn by(reason: Option<String>, done: usize, total: usize) -> Option<Interruption> {
        let signal = reason?;
        (done < total).then_some(Interruption {
            signal,
            done,
            total,
        })
    }
    /// The line every long command prints on stderr when stopped (`what`: its jobs' name):
    /// [`Interruption::describe`] and how to finish the work in `dir` with `--resume`.
    pub fn finish_line(&self, what: &str, dir: &Path) -> String {
        format!(
            "{}; finish it with --resume {}",
            self.describe(what),
            dir.display()
        )
    }
    /// [`Interruption::finish_line`] of a command whose record is its journal `journal`
    /// (`export --write-iterates`: no verdicts).
    pub fn finish_line_journaled(&self, what: &str, journal: &Path, dir: &Path) -> String {
        format!(
            "{}: {} holds them; finish it with --resume {}",
            self.stopped(what),
            journal.display(),
            dir.display()
        )
    }
    /// The line printed (on stderr) where the command stopped.
    pub fn describe(&self, what: &str) -> String {
        format!(
            "{}: the record holds them (verdicts are partial, not gates)",
            self.stopped(what)
        )
    }
    fn stopped(&self, what: &str) -> String {
        format!(
            "interrupted by {} after {} of {} {what}",
            self.signal, self.done, self.total
        )
    }
}
