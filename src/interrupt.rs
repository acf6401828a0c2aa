//! Interrupting signals: SIGINT (Ctrl-C), SIGTERM and SIGHUP.
//!
//! * A command that can stop cleanly declares where ([`stop_at`]): `run` and `experiment` at
//!   the next **iteration** boundary (the harness loop ends the run with status
//!   `interrupted`), `verify`, `check` and `tighten` at the next **job** boundary (jobs in
//!   flight finish, no new job starts). The first signal only sets a flag ([`requested`]),
//!   prints where the command will stop, and the command writes everything completed with an
//!   explicit `interrupted` status; the process then exits with 128 + the signal's number
//!   (130, 143, 129: [`exit_code`]) whatever the verdicts.
//! * A second signal, or the first one in a command that declared nothing (`list`, `report`,
//!   `merge`), ends the process at once after removing the temporary files of atomic writes
//!   in flight ([`crate::files::write_atomic`]), so nothing truncated and no
//!   `.NAME.PID.N.tmp` file is left behind.
//!
//! [`install`] is called once by the binary ([`crate::cli::main`]); a program using the
//! library keeps its own signal handling (this module is crate-private; the signals are tested
//! through the binary in `tests/interrupt.rs`). The signals
//! are received on a thread of their own (`signal-hook`'s iterator, named `saddlefw-signals`),
//! not in an async-signal handler, so removing files and printing there is ordinary code.

use std::sync::atomic::{AtomicI32, AtomicU8, Ordering};

/// Where the running command stops after a first signal.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Boundary {
    /// At the next job boundary: jobs in flight finish (verify, check, tighten).
    Job,
    /// At the next iteration boundary: runs end with status `interrupted` (run, experiment).
    Iteration,
}

/// 0: no graceful stop declared; 1: [`Boundary::Job`]; 2: [`Boundary::Iteration`].
static SCOPE: AtomicU8 = AtomicU8::new(0);
/// The first signal received in graceful mode (0: none).
static SIGNAL: AtomicI32 = AtomicI32::new(0);

/// Declares that the command stops gracefully at `boundary` on a first signal.
pub fn stop_at(boundary: Boundary) {
    let v = match boundary {
        Boundary::Job => 1,
        Boundary::Iteration => 2,
    };
    SCOPE.store(v, Ordering::SeqCst);
}

/// Records a stop request as if `signal` had arrived (what the signal thread does on a first
/// signal; library callers and tests may call it). Returns false when one was already recorded.
pub fn request(signal: i32) -> bool {
    SIGNAL
        .compare_exchange(0, signal, Ordering::SeqCst, Ordering::SeqCst)
        .is_ok()
}

/// The signal that asked the command to stop, if any.
pub fn signal() -> Option<i32> {
    match SIGNAL.load(Ordering::Relaxed) {
        0 => None,
        s => Some(s),
    }
}

/// Whether a stop was requested (checked by job runners before starting a job).
pub fn requested() -> bool {
    signal().is_some()
}

/// Whether run loops stop now: a stop was requested and the command stops at iterations
/// (checked by [`crate::harness`] once per iteration: one atomic load).
pub fn stops_runs() -> bool {
    requested() && SCOPE.load(Ordering::Relaxed) == 2
}

/// The exit code of an interrupted command: 128 + the signal's number (None: not interrupted).
pub fn exit_code() -> Option<i32> {
    signal().map(|s| 128 + s)
}

/// The signal's name, e.g. `SIGINT` (its number for others).
pub(crate) fn signal_name(signal: i32) -> String {
    match signal {
        1 => "SIGHUP".into(),
        2 => "SIGINT".into(),
        15 => "SIGTERM".into(),
        s => format!("signal {s}"),
    }
}

/// The name of the signal that stopped the command (what interrupted records store).
pub fn describe() -> Option<String> {
    signal().map(signal_name)
}

/// Installs the handler (Unix; elsewhere the default behaviour stays). Returns whether it was
/// installed; failing to install it is not an error (the command runs with the default
/// signal behaviour).
pub fn install() -> bool {
    #[cfg(unix)]
    {
        // a file-size limit (`ulimit -f`) makes a write fail with EFBIG, reported as
        // `error: FILE: write: ...` with the temporaries removed, instead of killing the
        // process with SIGXFSZ (exit 153, no message)
        // SAFETY: setting a signal's disposition to SIG_IGN installs no handler code.
        unsafe {
            libc::signal(libc::SIGXFSZ, libc::SIG_IGN);
        }
        use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
        let Ok(mut signals) = signal_hook::iterator::Signals::new([SIGINT, SIGTERM, SIGHUP]) else {
            return false;
        };
        std::thread::Builder::new()
            .name("saddlefw-signals".into())
            .spawn(move || {
                for signal in signals.forever() {
                    on_signal(signal);
                }
            })
            .is_ok()
    }
    #[cfg(not(unix))]
    {
        false
    }
}

/// A signal arrived: the first one in a command that stops gracefully sets the flag and says
/// where the command stops; any other ends the process at once.
fn on_signal(signal: i32) {
    let boundary = match SCOPE.load(Ordering::SeqCst) {
        1 => "job",
        2 => "iteration",
        _ => crate::files::exit_removing_temp_files(128 + signal),
    };
    if !request(signal) {
        crate::files::exit_removing_temp_files(128 + signal);
    }
    use std::io::Write;
    let _ = writeln!(
        std::io::stderr().lock(),
        "saddlefw: {} received: stopping at the next {boundary} boundary and writing what is done (send it again to stop at once)",
        signal_name(signal)
    );
}
