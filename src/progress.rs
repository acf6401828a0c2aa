//! Terminal progress of the long commands, drawn on stderr with `indicatif`:
//! * [`Jobs`] (`check`, `verify`, `tighten`): jobs done out of the total, the case being
//!   worked on, elapsed and remaining time;
//! * [`Lines`] (`experiment`, where every job is one time-limited run, and `run`): one line
//!   per run with its iterations, elapsed time (against the limit, if any) and the last
//!   measured value.
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
//! // the same for per-run lines: asking for them is not enough without `enable`
//! let lines = saddlefw::progress::Lines::new(true, 300.0);
//! assert!(!lines.enabled());
//! let line = lines.line("lmo-lmo");
//! line.step(0);
//! line.finish("done");
//! ```

use indicatif::{MultiProgress, ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::cell::Cell;
use std::io::IsTerminal;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

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

    /// Runs `f` with the bar hidden (for a command that prints between jobs).
    pub(crate) fn suspend<R>(&self, f: impl FnOnce() -> R) -> R {
        self.bar.suspend(f)
    }

    /// Removes the bar (the command's own output follows).
    pub fn finish(&self) {
        self.bar.finish_and_clear();
    }
}

/// One line per time-limited run (hidden unless `enabled`); lines of concurrent runs share
/// the display. Updates are throttled to one redraw every 100 ms, so calling [`Line::step`]
/// every iteration costs a clock read.
pub struct Lines {
    multi: MultiProgress,
    enabled: bool,
    time_limit_s: f64,
}

impl Lines {
    /// A display of runs limited to `time_limit_s` seconds of solver time (infinite: no
    /// limit); `enabled = false` (or [`wanted`] false) draws nothing.
    pub fn new(enabled: bool, time_limit_s: f64) -> Self {
        let enabled = enabled && wanted();
        let multi = MultiProgress::with_draw_target(if enabled {
            ProgressDrawTarget::stderr_with_hz(10)
        } else {
            ProgressDrawTarget::hidden()
        });
        Lines {
            multi,
            enabled,
            time_limit_s,
        }
    }

    /// Whether anything is drawn.
    pub fn enabled(&self) -> bool {
        self.enabled
    }

    /// A new line for run `name`.
    pub fn line(&self, name: &str) -> Line {
        let bar = if self.enabled {
            self.multi.add(ProgressBar::new_spinner())
        } else {
            ProgressBar::hidden()
        };
        bar.set_style(
            ProgressStyle::with_template("{prefix:>8} {spinner} {wide_msg}")
                .expect("a valid template"),
        );
        bar.set_prefix(name.to_string());
        let now = Instant::now();
        let line = Line {
            bar,
            start: now,
            last_draw: Cell::new(now),
            iterations: Cell::new(0),
            value: Cell::new(f64::NAN),
            time_limit_s: self.time_limit_s,
        };
        line.draw();
        line
    }
}

/// The message of a run's line: iterations, elapsed time, the last measured value, then the
/// time limit, in that order so that a narrow terminal (indicatif cuts the line at its width)
/// loses the limit first. With the 8-column name and the spinner, everything up to the gap
/// fits in 60 columns and the whole line in 80 for limits below 10^5 s.
///
/// ```
/// let m = saddlefw::progress::message(268, 0.123, 4.1234e-3, 0.6);
/// assert_eq!(m, "       268 it    0.1 s elapsed  gap 4.123e-3  (limit 0.6 s solver)");
/// assert!(11 + m.chars().count() <= 80); // name (8), space, spinner, space
/// assert!(saddlefw::progress::message(0, 0.0, f64::NAN, f64::INFINITY).ends_with("gap -"));
/// ```
pub fn message(iterations: usize, elapsed_s: f64, gap: f64, time_limit_s: f64) -> String {
    let gap = if gap.is_finite() {
        format!("{gap:.3e}")
    } else {
        "-".into()
    };
    let limit = if time_limit_s.is_finite() {
        format!("  (limit {time_limit_s} s solver)")
    } else {
        String::new()
    };
    format!("{iterations:>10} it {elapsed_s:>6.1} s elapsed  gap {gap}{limit}")
}

/// One run's line.
pub struct Line {
    bar: ProgressBar,
    start: Instant,
    last_draw: Cell<Instant>,
    iterations: Cell<usize>,
    value: Cell<f64>,
    time_limit_s: f64,
}

impl Line {
    fn draw(&self) {
        self.bar.set_message(message(
            self.iterations.get(),
            self.start.elapsed().as_secs_f64(),
            self.value.get(),
            self.time_limit_s,
        ));
        self.last_draw.set(Instant::now());
    }

    fn maybe_draw(&self) {
        if self.bar.is_hidden() {
            return;
        }
        if self.last_draw.get().elapsed() >= Duration::from_millis(100) {
            self.draw();
            self.bar.tick();
        }
    }

    /// Iteration `t` finished.
    pub fn step(&self, t: usize) {
        self.iterations.set(t + 1);
        self.maybe_draw();
    }

    /// A checkpoint measured `gap`.
    pub fn gap(&self, gap: f64) {
        self.value.set(gap);
        self.maybe_draw();
    }

    /// Ends the line with a summary.
    pub fn finish(&self, summary: &str) {
        self.bar.finish_with_message(summary.to_string());
    }

    /// Removes the line (the caller prints its own summary).
    pub fn clear(&self) {
        self.bar.finish_and_clear();
    }
}
