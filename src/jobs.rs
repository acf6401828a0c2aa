//! Threads: how many worker threads a command starts (`--jobs`, shared by `verify`, `check`
//! and `tighten`), how many a kernel is split over (`--threads`, [`kernel_threads`]), the
//! split itself ([`run_parts`]) and the CPU time a run cost over all its threads.

/// Number of worker threads (the machine's parallelism), read once per process: the standard
/// library reads the process's CPU affinity and cgroup quota files on every call (25 us on
/// this project's two-core VM), which every split kernel ([`run_parts`]) asks for.
pub fn available_threads() -> usize {
    static THREADS: std::sync::OnceLock<usize> = std::sync::OnceLock::new();
    *THREADS.get_or_init(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
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

/// Kernel threads of one run (`--threads`): `requested`, or by default the cores shared out
/// among `jobs` concurrent runs; at least 1 and at most [`MAX_JOBS_PER_CORE`] per core.
///
/// ```
/// use saddlefw::jobs::{available_threads, kernel_threads, MAX_JOBS_PER_CORE};
/// assert_eq!(kernel_threads(Some(3), 1), 3.min(MAX_JOBS_PER_CORE * available_threads()));
/// assert_eq!(kernel_threads(None, 1), available_threads());
/// assert_eq!(kernel_threads(None, usize::MAX), 1);
/// ```
pub fn kernel_threads(requested: Option<usize>, jobs: usize) -> usize {
    let n = requested.unwrap_or(available_threads() / jobs.max(1));
    n.min(MAX_JOBS_PER_CORE * available_threads()).max(1)
}

/// Runs `f` on every part over `threads` threads (the calling thread and up to `threads - 1`
/// helpers from the kernel pool, one thread per further core) and returns when all parts are
/// done. The parts are handed out one at a time to whichever thread is free, so a thread that
/// gets less of a CPU on a loaded machine does fewer of them (callers cut a kernel into
/// several parts per thread, each worth more than the few microseconds a hand-over costs;
/// which thread runs a part must not change its result). The CPU time of the helpers is added
/// to the calling thread's [`run_cpu_time_s`]. A panic in a part is propagated.
///
/// The caller, when its parts run out, waits awake for the helpers' last parts
/// ([`WAIT_AWAKE`]), and the helpers stay awake between calls ([`KEEP_AWAKE`]), both only
/// when there are cores for them: a sleeping pool thread took from 5 us to over 1 ms to start
/// its part on a two-core VM (along NEWS20 with two threads, 65% of 4,960 hand-overs took
/// longer than 5 us and 7% longer than 1 ms), while the calling thread's serial work between
/// two split kernels lasts tens of microseconds.
///
/// ```
/// use std::sync::atomic::{AtomicUsize, Ordering};
/// let sum = AtomicUsize::new(0);
/// saddlefw::jobs::run_parts(vec![1, 2, 3], 2, |p| {
///     sum.fetch_add(p, Ordering::Relaxed);
/// });
/// assert_eq!(sum.into_inner(), 6);
/// ```
pub fn run_parts<T: Send>(parts: Vec<T>, threads: usize, f: impl Fn(T) + Sync) {
    let helpers = threads.min(parts.len()).saturating_sub(1);
    let queue = std::sync::Mutex::new(parts.into_iter());
    let work = || loop {
        let next = queue.lock().unwrap_or_else(|e| e.into_inner()).next();
        match next {
            Some(p) => f(p),
            None => break,
        }
    };
    if helpers == 0 {
        return work();
    }
    let pool = kernel_pool();
    keep_helpers_awake(pool, helpers);
    let (work, helpers_ns) = (&work, &std::sync::atomic::AtomicU64::new(0));
    let finished = &std::sync::atomic::AtomicUsize::new(0);
    pool.in_place_scope(|s| {
        for _ in 0..helpers {
            s.spawn(move |_| {
                let _done = Finished(finished);
                let t0 = thread_cpu_ns();
                work();
                let spent = thread_cpu_ns()
                    .zip(t0)
                    .map_or(0, |(b, a)| b.saturating_sub(a));
                helpers_ns.fetch_add(spent, std::sync::atomic::Ordering::Relaxed);
            });
        }
        work();
        if helpers < available_threads() {
            wait_awake(finished, helpers);
        }
    });
    let spent = helpers_ns.load(std::sync::atomic::Ordering::Relaxed);
    HELPERS_CPU_NS.with(|c| c.set(c.get() + spent));
}

/// Counts a helper as finished when it leaves [`run_parts`]'s scope, by returning or by a
/// panic in a part (which the scope then propagates).
struct Finished<'a>(&'a std::sync::atomic::AtomicUsize);

impl Drop for Finished<'_> {
    fn drop(&mut self) {
        self.0.fetch_add(1, std::sync::atomic::Ordering::Release);
    }
}

/// Waits on its core (up to [`WAIT_AWAKE`]) until `helpers` helpers have finished, so the
/// scope's end finds them done instead of putting the calling thread to sleep: waking a
/// sleeping thread took up to a millisecond on a two-core VM, while the last part of a kernel
/// takes tens of microseconds. NEWS20 LMO-LMO on two threads, alternated with the build that
/// slept: 3.4% and 3.2% more iterations per second (6 of 8 and 8 of 10 rounds faster).
fn wait_awake(finished: &std::sync::atomic::AtomicUsize, helpers: usize) {
    let start = std::time::Instant::now();
    let mut spins = 0u32;
    while finished.load(std::sync::atomic::Ordering::Acquire) < helpers {
        std::hint::spin_loop();
        spins = spins.wrapping_add(1);
        if spins % 64 == 0 && start.elapsed() >= WAIT_AWAKE {
            return;
        }
    }
}

/// How long [`run_parts`]'s caller waits awake for its helpers' last parts before it sleeps
/// (then it waits for them asleep: a helper may have been descheduled). This wait is the
/// caller's own CPU time and so counts in [`run_cpu_time_s`], unlike the helpers' spinning
/// between calls ([`KEEP_AWAKE`]).
pub const WAIT_AWAKE: std::time::Duration = std::time::Duration::from_micros(500);

/// How long a kernel helper keeps looking for the next part (spinning on its core) after its
/// last one before it goes to sleep ([`run_parts`]). The spinning is no work of a run and is
/// not charged to [`run_cpu_time_s`].
pub const KEEP_AWAKE: std::time::Duration = std::time::Duration::from_millis(2);

/// The pool of [`run_parts`]'s helpers: one thread per core beyond the first (at least one),
/// apart from the pools that run `--jobs`, so a helper never runs a whole job. Callers that
/// split kernels at the same time share it: a caller may wait until a helper has finished
/// another caller's parts.
fn kernel_pool() -> &'static rayon::ThreadPool {
    static POOL: std::sync::OnceLock<rayon::ThreadPool> = std::sync::OnceLock::new();
    POOL.get_or_init(|| {
        rayon::ThreadPoolBuilder::new()
            .num_threads(available_threads().saturating_sub(1).max(1))
            .thread_name(|i| format!("saddlefw-kernel-{i}"))
            .build()
            .expect("the kernel thread pool could not start a thread")
    })
}

/// Kernel helpers awake now ([`KEEP_AWAKE`]): at most as many as the last split asked for and
/// one per core beyond the first, and 0 once no part has come for that long.
pub fn awake_helpers() -> usize {
    AWAKE.load(std::sync::atomic::Ordering::Acquire)
}

static AWAKE: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

thread_local! {
    /// Whether this kernel-pool thread is already looking for parts (a second waker that it
    /// picks up itself returns at once, so each awake helper is a thread of its own).
    static LOOKING: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Wakes up to `helpers` of the kernel pool's threads, each to run parts as they come
/// ([`rayon::yield_now`]) until none has come for [`KEEP_AWAKE`]; none on a single core,
/// where a spinning helper would only take the calling thread's CPU.
fn keep_helpers_awake(pool: &'static rayon::ThreadPool, helpers: usize) {
    use std::sync::atomic::Ordering;
    let most = helpers
        .min(pool.current_num_threads())
        .min(available_threads().saturating_sub(1));
    let claim = |n: usize| (n < most).then_some(n + 1);
    while AWAKE
        .fetch_update(Ordering::AcqRel, Ordering::Acquire, claim)
        .is_ok()
    {
        pool.spawn(|| {
            if !LOOKING.replace(true) {
                let mut last = std::time::Instant::now();
                loop {
                    match rayon::yield_now() {
                        Some(rayon::Yield::Executed) => last = std::time::Instant::now(),
                        _ if last.elapsed() >= KEEP_AWAKE => break,
                        _ => std::hint::spin_loop(),
                    }
                }
                LOOKING.set(false);
            }
            AWAKE.fetch_sub(1, Ordering::AcqRel);
        });
    }
}

thread_local! {
    /// CPU time (ns) of the helper threads [`run_parts`] started from this thread.
    static HELPERS_CPU_NS: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

/// CPU time of the calling thread in nanoseconds (`CLOCK_THREAD_CPUTIME_ID`, exact to the
/// call, unlike `/proc/thread-self/schedstat`, which lags by up to a scheduler tick while the
/// thread runs: most of a short-lived helper's time); None where unavailable.
#[cfg(unix)]
fn thread_cpu_ns() -> Option<u64> {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `ts` is a valid, writable timespec; the call writes only into it.
    let rc = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) };
    (rc == 0).then(|| ts.tv_sec as u64 * 1_000_000_000 + ts.tv_nsec as u64)
}

#[cfg(not(unix))]
fn thread_cpu_ns() -> Option<u64> {
    None
}

/// CPU time in seconds of the calling thread and of the helper threads it started through
/// [`run_parts`]: what a run on this thread cost (Unix; None where unavailable).
pub fn run_cpu_time_s() -> Option<f64> {
    let own = thread_cpu_ns()?;
    Some((own + HELPERS_CPU_NS.with(|c| c.get())) as f64 * 1e-9)
}

/// `--jobs N`: at least 1 (None: the default), capped at
/// [`MAX_JOBS_PER_CORE`] per core (the runners also cap it at their
/// number of jobs).
pub(crate) fn positive_jobs(jobs: Option<i64>) -> crate::error::Result<Option<usize>> {
    match jobs {
        Some(n) if n < 1 => Err(crate::error::Error::invalid(
            "--jobs",
            format!("must be at least 1, got {n}"),
        )),
        n => Ok(n.map(|n| worker_threads(usize::try_from(n).unwrap_or(usize::MAX), usize::MAX))),
    }
}
