//! The terminal progress display of `saddlefw experiment`: one line per algorithm with its
//! iterations, elapsed time (against the time limit) and the last measured gap. Drawn on
//! stderr with `indicatif`; hidden when stderr is not a terminal or with `--quiet`.
//! Updates happen in the harness' observer callbacks, outside the timed region, and are
//! throttled to one redraw every 100 ms.

use indicatif::{MultiProgress, ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::cell::Cell;
use std::io::IsTerminal;
use std::time::{Duration, Instant};

/// Whether a display should be drawn: stderr is a terminal and `--quiet` was not given.
pub fn wanted(quiet: bool) -> bool {
    !quiet && std::io::stderr().is_terminal()
}

/// The set of progress lines (shared by concurrent jobs).
pub struct Progress {
    multi: MultiProgress,
    enabled: bool,
    time_limit_s: f64,
}

impl Progress {
    /// A display; `enabled = false` draws nothing.
    pub fn new(enabled: bool, time_limit_s: f64) -> Self {
        let multi = MultiProgress::with_draw_target(if enabled {
            ProgressDrawTarget::stderr_with_hz(10)
        } else {
            ProgressDrawTarget::hidden()
        });
        Progress {
            multi,
            enabled,
            time_limit_s,
        }
    }

    /// Whether anything is drawn.
    pub fn enabled(&self) -> bool {
        self.enabled
    }

    /// A new line for algorithm `name`.
    pub fn line(&self, name: &str) -> Line {
        let bar = if self.enabled {
            self.multi.add(ProgressBar::new_spinner())
        } else {
            ProgressBar::hidden()
        };
        bar.set_style(
            ProgressStyle::with_template("{prefix:>8} {spinner} {wide_msg}")
                .expect("valid template"),
        );
        bar.set_prefix(name.to_string());
        let now = Instant::now();
        let line = Line {
            bar,
            start: now,
            last_draw: Cell::new(now),
            iterations: Cell::new(0),
            gap: Cell::new(f64::NAN),
            time_limit_s: self.time_limit_s,
        };
        line.draw();
        line
    }
}

/// One algorithm's line.
pub struct Line {
    bar: ProgressBar,
    start: Instant,
    last_draw: Cell<Instant>,
    iterations: Cell<usize>,
    gap: Cell<f64>,
    time_limit_s: f64,
}

impl Line {
    fn draw(&self) {
        let gap = self.gap.get();
        self.bar.set_message(format!(
            "{:>10} it  {:>7.1} s elapsed (limit {} s of solver time)  gap {}",
            self.iterations.get(),
            self.start.elapsed().as_secs_f64(),
            self.time_limit_s,
            if gap.is_finite() {
                format!("{gap:.3e}")
            } else {
                "-".into()
            }
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
        self.gap.set(gap);
        self.maybe_draw();
    }

    /// Ends the line with a summary.
    pub fn finish(&self, summary: &str) {
        self.bar.finish_with_message(summary.to_string());
    }
}
