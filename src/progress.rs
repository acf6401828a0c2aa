//! Terminal progress of the long commands (`check`, `verify`, `experiment`, `tighten`): jobs
//! done out of the total, the case being worked on, elapsed and remaining time, drawn on
//! stderr with `indicatif`.
//!
//! Progress is drawn only when the binary asked for it ([`enable`], from the global `--quiet`
//! flag) AND stderr is a terminal: library callers, tests, pipes and CI logs see nothing, and
//! stdout (the reports) is never touched. A runner needs two hooks: [`Jobs::new`] before its
//! loop and [`Jobs::start`] / [`Jobs::done`] around each job; [`Jobs`] is cheap to clone and
//! can be shared by worker threads.
//!
//! ```
//! use saddlefw::progress::Jobs;
//! // not enabled (a library call, or stderr is not a terminal): a hidden counter
//! let jobs = Jobs::new("check", 3);
//! for case in ["a", "b", "c"] {
//!     jobs.start(case);
//!     jobs.done();
//! }
//! assert_eq!(jobs.position(), 3);
//! assert!(!jobs.is_drawn());
//! jobs.finish();
//! ```

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::IsTerminal;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

static ENABLED: AtomicBool = AtomicBool::new(false);

/// Allows progress displays (the binary calls this with `!quiet`; off by default).
pub fn enable(on: bool) {
    ENABLED.store(on, Ordering::Relaxed);
}

/// Whether a display would be drawn now: enabled and stderr is a terminal.
pub fn wanted() -> bool {
    ENABLED.load(Ordering::Relaxed) && std::io::stderr().is_terminal()
}

/// A counter of jobs with a progress bar (hidden unless [`wanted`]).
#[derive(Debug, Clone)]
pub struct Jobs {
    bar: ProgressBar,
}

impl Jobs {
    /// `total` jobs of command `what`.
    pub fn new(what: &str, total: u64) -> Jobs {
        let bar = ProgressBar::with_draw_target(
            Some(total),
            if wanted() {
                ProgressDrawTarget::stderr_with_hz(4)
            } else {
                ProgressDrawTarget::hidden()
            },
        );
        bar.set_style(
            ProgressStyle::with_template(
                "{prefix} [{elapsed_precise}] {bar:24} {pos}/{len} jobs, {eta} left  {wide_msg}",
            )
            .expect("a valid template")
            .progress_chars("=> "),
        );
        bar.set_prefix(what.to_string());
        if !bar.is_hidden() {
            bar.enable_steady_tick(Duration::from_millis(500));
        }
        Jobs { bar }
    }

    /// A job on `case` started (shown as the current case).
    pub fn start(&self, case: &str) {
        self.bar.set_message(case.to_string());
    }

    /// A job finished.
    pub fn done(&self) {
        self.bar.inc(1);
    }

    /// Adds `n` jobs to the total (for runners that learn their size as they go).
    pub fn add(&self, n: u64) {
        self.bar.inc_length(n);
    }

    /// Jobs done so far.
    pub fn position(&self) -> u64 {
        self.bar.position()
    }

    /// Whether anything is drawn.
    pub fn is_drawn(&self) -> bool {
        !self.bar.is_hidden()
    }

    /// Removes the bar (the command's own output follows).
    pub fn finish(&self) {
        self.bar.finish_and_clear();
    }
}
