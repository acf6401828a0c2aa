//! Interrupting signals: SIGINT (Ctrl-C), SIGTERM and SIGHUP end the binary with exit code
//! 128 + the signal's number (130, 143, 129) after removing the temporary files of atomic
//! writes in flight ([`crate::files::write_atomic`]), so an interrupted command leaves
//! neither a truncated report nor a `.NAME.PID.N.tmp` file.
//!
//! [`install`] is called once by the binary ([`crate::cli::main`]); a program using the
//! library keeps its own signal handling. The signals are received on a thread of their own
//! (`signal-hook`'s iterator), not in an async-signal handler, so removing files there is
//! ordinary code.
//!
//! ```
//! // what the binary does first (a library user decides for itself); Unix only
//! assert_eq!(saddlefw::interrupt::install(), cfg!(unix));
//! ```

/// Installs the handler (Unix; elsewhere the default behaviour stays). Returns whether it was
/// installed; failing to install it is not an error (the command runs with the default
/// signal behaviour).
pub fn install() -> bool {
    #[cfg(unix)]
    {
        use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
        let Ok(mut signals) = signal_hook::iterator::Signals::new([SIGINT, SIGTERM, SIGHUP]) else {
            return false;
        };
        std::thread::Builder::new()
            .name("saddlefw-signals".into())
            .spawn(move || {
                if let Some(signal) = signals.forever().next() {
                    crate::files::exit_removing_temp_files(128 + signal);
                }
            })
            .is_ok()
    }
    #[cfg(not(unix))]
    {
        false
    }
}
