//! How many worker threads a command starts (`--jobs`): a low-level helper shared by
//! `verify`, `check` and `tighten`.

/// Number of worker threads (the machine's parallelism).
pub fn available_threads() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// The most worker threads `--jobs` starts per core: the jobs are CPU-bound, so more threads
/// only add switching (10,000 requested threads made `verify` 40 times slower than 16).
pub const MAX_JOBS_PER_CORE: usize = 4;

/// How many worker threads run `jobs` jobs when `requested` are asked for: at least 1, at
/// most one per job and at most [`MAX_JOBS_PER_CORE`] per core. Results never depend on it.
///
/// ```
/// use saddlefw::jobs::{available_threads, worker_threads, MAX_JOBS_PER_CORE};
/// assert_eq!(worker_threads(10_000, 3), 3);
/// assert_eq!(worker_threads(10_000, 1_000_000), MAX_JOBS_PER_CORE * available_threads());
/// assert_eq!(worker_threads(0, 5), 1);
/// ```
pub fn worker_threads(requested: usize, jobs: usize) -> usize {
    requested
        .min(jobs)
        .min(MAX_JOBS_PER_CORE * available_threads())
        .max(1)
}
