//! Kernels split over threads (`--threads`, issue 16): the sparse products and the DRO forward
//! pass give bitwise the single-threaded results for any thread count, so a run (RUN.json) and
//! an experiment (experiment.json) are identical apart from timings; the instances are large
//! enough that the products really are split (checked), so a split that changed one summation
//! would fail these equalities. The CPU time of the helper threads is charged to the run.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rand_distr::StandardNormal;
use saddlefw::data::{Csr, Dataset, SparseMatrix};
use saddlefw::harness::{self, CheckpointRule, RunConfig};
use saddlefw::problems::{DroConfig, RobustClassification};
use saddlefw::solvers::registry::{self, Options};

use crate::common::saddlefw;

/// `n x d` sparse data with about `per_row` non-zeros per row, Zipf-like column frequencies
/// (so the rows of `A^T` are very uneven, as in NEWS20), and `k` classes.
pub(crate) fn sparse_data(seed: u64, n: usize, d: usize, per_row: usize, k: usize) -> Dataset {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut dense = vec![0.0; n * d];
    for i in 0..n {
        for _ in 0..per_row {
            // column j with probability ~ 1/(j+1)
            let j = ((d as f64).powf(rng.gen::<f64>()) - 1.0) as usize;
            dense[i * d + j.min(d - 1)] = 1.0 + rng.gen::<f64>();
        }
    }
    Dataset {
        name: "zipf".into(),
        features: Csr::from_dense(n, d, &dense).unwrap(),
        labels: (0..n).map(|_| rng.gen_range(0..k as u32)).collect(),
        classes: (0..k as i64).collect(),
    }
}

#[test]
fn split_products_are_bitwise_the_single_threaded_ones() {
    let data = sparse_data(1, 700, 400, 30, 3);
    let mut sp = SparseMatrix::new(data.features);
    let (n, d) = (sp.a().n_rows(), sp.a().n_cols());
    let mut rng = ChaCha8Rng::seed_from_u64(2);
    for k in [1usize, 7, 20, 33] {
        let w: Vec<f64> = (0..d * k).map(|_| rng.sample(StandardNormal)).collect();
        let r: Vec<f64> = (0..n * k).map(|_| rng.sample(StandardNormal)).collect();
        let (mut aw1, mut atr1) = (vec![0.0; n * k], vec![0.0; d * k]);
        sp.a().mul_dense(&w, k, &mut aw1);
        sp.at().mul_dense(&r, k, &mut atr1);
        for threads in 1..=4 {
            for m in [sp.a(), sp.at()] {
                let blocks = m.row_blocks(threads, k);
                // consecutive, covering every row, split whenever there is enough work
                assert_eq!(blocks.first().unwrap().start, 0);
                assert_eq!(blocks.last().unwrap().end, m.n_rows());
                assert!(blocks.windows(2).all(|b| b[0].end == b[1].start));
                let enough = m.nnz() * k >= 2 * saddlefw::data::csr::MIN_BLOCK_WORK;
                assert_eq!(blocks.len() > 1, threads > 1 && enough, "k = {k}");
            }
            sp.set_threads(threads);
            let (mut aw, mut atr) = (vec![f64::NAN; n * k], vec![f64::NAN; d * k]);
            sp.mul(&w, k, &mut aw);
            sp.tmul(&r, k, &mut atr);
            let bits = |v: &[f64]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
            assert_eq!(bits(&aw), bits(&aw1), "A W, k = {k}, {threads} threads");
            assert_eq!(bits(&atr), bits(&atr1), "A^T R, k = {k}, {threads} threads");
        }
    }
}

/// The checked product (`Csr::mul_dense_threads_checked`, which DRO's step gradients use so
/// that the oracle counter need not read `A^T R` again) gives the product's bits and sees a
/// non-finite entry in any row: the first and last rows, both sides of each boundary of its
/// runs of `CHECK_ENTRIES` entries, and the first and last row of every block, for 1-3 threads
/// (the product really is split for 2 and 3), and for no columns at all. On the identity, row
/// t of `A B` is row t of B.
#[test]
fn checked_products_have_the_same_bits_and_see_every_non_finite_row() {
    use saddlefw::data::csr::CHECK_ENTRIES;
    let (n, k) = (6149, 32);
    let run = CHECK_ENTRIES / k;
    let eye = Csr::new(
        n,
        n,
        (0..=n).collect(),
        (0..n as u32).collect(),
        vec![1.5; n],
    )
    .unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(4);
    let b: Vec<f64> = (0..n * k).map(|_| rng.sample(StandardNormal)).collect();
    let mut want = vec![0.0; n * k];
    eye.mul_dense(&b, k, &mut want);
    let bits = |v: &[f64]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
    let bad = [f64::NAN, f64::INFINITY, f64::NEG_INFINITY];
    for threads in 1..=3 {
        let blocks = eye.row_blocks(threads, k);
        assert_eq!(blocks.len() > 1, threads > 1, "{threads} threads");
        let mut rows = vec![0, run - 1, run, 2 * run - 1, 2 * run, n - 1];
        rows.extend(blocks.iter().flat_map(|b| [b.start, b.end - 1]));
        let mut out = vec![f64::NAN; n * k];
        assert!(eye.mul_dense_threads_checked(&b, k, &mut out, threads));
        assert_eq!(bits(&out), bits(&want), "{threads} threads");
        for (t, bad) in rows.iter().zip(bad.iter().cycle()) {
            let mut c = b.clone();
            c[t * k + k - 1] = *bad;
            assert!(
                !eye.mul_dense_threads_checked(&c, k, &mut out, threads),
                "{bad} in row {t}, {threads} threads"
            );
        }
        assert!(eye.mul_dense_threads_checked(&[], 0, &mut [], threads));
    }
}

/// The blocks of a split product shrink along the rows, so the threads finish within a small
/// block of each other: each block takes `2 / (threads * BLOCKS_PER_THREAD)` of the non-zeros
/// still left (up to one row), at least `1 / (4 threads BLOCKS_PER_THREAD)` of all and
/// `MIN_BLOCK_WORK` multiply-adds, and the last one is small; on `A` (even rows) and `A^T`
/// (Zipf-like rows) of a sparse instance.
#[test]
fn split_blocks_shrink_towards_the_end() {
    use saddlefw::data::csr::{BLOCKS_PER_THREAD, MIN_BLOCK_WORK};
    let data = sparse_data(3, 4000, 600, 12, 3);
    let sp = SparseMatrix::new(data.features);
    let k = 20;
    for m in [sp.a(), sp.at()] {
        let nnz_of = |r: &std::ops::Range<usize>| m.indptr()[r.end] - m.indptr()[r.start];
        let widest = (0..m.n_rows()).map(|i| nnz_of(&(i..i + 1))).max().unwrap();
        for threads in 2..=4 {
            let share = threads * BLOCKS_PER_THREAD / 2;
            let least = (m.nnz() / (share * 8)).max(MIN_BLOCK_WORK.div_ceil(k));
            let blocks = m.row_blocks(threads, k);
            assert!(blocks.len() > share, "{} blocks", blocks.len());
            let mut left = m.nnz();
            for (i, b) in blocks.iter().enumerate() {
                let (nnz, last) = (nnz_of(b), i + 1 == blocks.len());
                let take = (left / share).max(least);
                assert!(nnz < take + widest || last, "block {i}: {nnz} of {left}");
                assert!(
                    nnz >= take || b.len() == 1 || last,
                    "block {i}: {nnz} < {take}"
                );
                if last {
                    assert!(nnz < 2 * least + widest, "last block {nnz}, least {least}");
                }
                left -= nnz;
            }
            assert_eq!(left, 0);
        }
    }
}

/// RUN.json (or experiment.json) without the keys that hold timings.
fn without_times(json: &str) -> serde_json::Value {
    fn strip(v: &mut serde_json::Value) {
        match v {
            serde_json::Value::Object(m) => {
                m.retain(|k, _| !k.contains("time") && !k.contains("seconds"));
                m.values_mut().for_each(strip);
            }
            serde_json::Value::Array(a) => a.iter_mut().for_each(strip),
            _ => {}
        }
    }
    let mut v: serde_json::Value = serde_json::from_str(json).unwrap();
    strip(&mut v);
    v
}

#[test]
fn dro_runs_are_identical_for_any_thread_count() {
    let data = sparse_data(3, 1500, 500, 25, 5);
    let config = RunConfig {
        iterations: 40,
        time_limit: None,
        checkpoints: CheckpointRule::All,
        sigma: 1.0,
    };
    for algo in ["lmo-lmo", "po-lmo", "agp"] {
        let mut runs = Vec::new();
        for threads in [1, 2, 3] {
            let mut p = RobustClassification::new(&data, &DroConfig::default()).unwrap();
            p.set_threads(threads);
            let k = p.dims().2;
            assert!(p.data().a().row_blocks(threads, k).len() >= threads);
            assert!(p.data().at().row_blocks(threads, k).len() >= threads);
            let inst = p.into_instance(Some(0));
            let mut s = registry::build(algo, inst.problem.as_ref(), &Options::default())
                .unwrap()
                .solver;
            let trace = harness::run(&inst, s.as_mut(), &config);
            assert_eq!(trace.checkpoints.len(), 41);
            runs.push(without_times(&trace.to_json()));
        }
        // the iterates move: the measures of the first and last checkpoint differ
        let cps = runs[0]["checkpoints"].as_array().unwrap();
        assert_ne!(cps[1]["gx_lmo"], cps[40]["gx_lmo"], "{algo}");
        assert_eq!(runs[0], runs[1], "{algo}: 1 vs 2 threads");
        assert_eq!(runs[0], runs[2], "{algo}: 1 vs 3 threads");
    }
}

/// LIBSVM text of a data set (labels are the class indices + 1).
fn libsvm_text(data: &Dataset) -> String {
    let mut s = String::new();
    for i in 0..data.n_samples() {
        s.push_str(&(data.labels[i] + 1).to_string());
        let (idx, val) = data.features.row(i);
        for (j, v) in idx.iter().zip(val) {
            s.push_str(&format!(" {}:{v}", j + 1));
        }
        s.push('\n');
    }
    s
}

#[test]
fn experiment_records_are_identical_for_any_thread_count() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("small-news20.txt");
    let data = sparse_data(4, 1200, 400, 25, 4);
    std::fs::write(&file, libsvm_text(&data)).unwrap();
    // the experiment's problem (row-l2 scaling does not move non-zeros) is split
    let p = RobustClassification::new(&data, &DroConfig::default()).unwrap();
    assert!(p.data().a().row_blocks(2, 4).len() >= 2);
    assert!(p.data().at().row_blocks(2, 4).len() >= 2);
    let mut records = Vec::new();
    for threads in ["1", "2", "3"] {
        let out = dir.path().join(format!("t{threads}"));
        let o = saddlefw(&[
            "--quiet",
            "experiment",
            "news20",
            "--data",
            file.to_str().unwrap(),
            "--algos",
            "lmo-lmo,lmo-po",
            "--iters",
            "30",
            "--time-limit",
            "600",
            "--threads",
            threads,
            "--out",
            out.to_str().unwrap(),
        ]);
        assert_eq!(o.code, 0, "{}", o.stderr);
        let text = std::fs::read_to_string(out.join("experiment.json")).unwrap();
        let v = without_times(&text);
        for run in v["runs"].as_array().unwrap() {
            assert_eq!(run["iterations"], 30);
            // the record says how many threads the kernels used (omitted for one)
            let want = (threads != "1").then(|| threads.parse::<u64>().unwrap());
            assert_eq!(run["threads"].as_u64(), want);
        }
        records.push(v);
    }
    let runs = |v: &serde_json::Value| {
        let mut runs = v["runs"].clone();
        for r in runs.as_array_mut().unwrap() {
            r.as_object_mut().unwrap().remove("threads");
        }
        runs
    };
    assert_eq!(runs(&records[0]), runs(&records[1]));
    assert_eq!(runs(&records[0]), runs(&records[2]));
    assert_eq!(records[0]["constants"], records[2]["constants"]);
}

/// The helpers' CPU time is charged to the calling thread's run: two parts that each spin for
/// 20 ms of their own thread's CPU time, the first waiting until the second has started, so
/// two threads run them.
#[test]
fn helper_cpu_time_is_charged_to_the_run() {
    use saddlefw::jobs::{run_cpu_time_s, run_parts};
    use std::sync::atomic::{AtomicBool, Ordering};
    let Some(before) = run_cpu_time_s() else {
        return; // no thread CPU clock on this platform
    };
    let second_started = AtomicBool::new(false);
    let threads = std::sync::Mutex::new(Vec::new());
    run_parts(vec![0, 1], 2, |part| {
        if part == 1 {
            second_started.store(true, Ordering::SeqCst);
        }
        threads.lock().unwrap().push(std::thread::current().id());
        let t0 = run_cpu_time_s().unwrap();
        while run_cpu_time_s().unwrap() - t0 < 0.02 || !second_started.load(Ordering::SeqCst) {
            std::hint::spin_loop();
        }
    });
    let threads = threads.into_inner().unwrap();
    assert_ne!(threads[0], threads[1], "the two parts ran on one thread");
    let spent = run_cpu_time_s().unwrap() - before;
    assert!(spent >= 0.04, "charged {spent} s of CPU for 2 x 20 ms");
}

/// `run_parts` returns only when every part is done and propagates a panic in a helper's
/// part: parts that outlast the caller's wait awake (`WAIT_AWAKE`), and a helper that panics
/// (the caller, which runs no panicking part, must not wait for it for ever).
#[test]
fn split_work_ends_when_every_part_has_ended() {
    use saddlefw::jobs::{run_parts, WAIT_AWAKE};
    use std::sync::atomic::{AtomicUsize, Ordering};
    let done = AtomicUsize::new(0);
    run_parts((0..6).collect(), 2, |_: i32| {
        std::thread::sleep(WAIT_AWAKE * 3);
        done.fetch_add(1, Ordering::SeqCst);
    });
    assert_eq!(done.into_inner(), 6);
    // the caller waits (asleep, bounded) until the helper has taken a part, which panics: the
    // kernel pool has a helper even on one core
    let helper_took = std::sync::atomic::AtomicBool::new(false);
    let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        run_parts((0..64).collect(), 2, |_: i32| {
            let name = std::thread::current().name().unwrap_or("").to_string();
            if name.starts_with("saddlefw-kernel") {
                helper_took.store(true, Ordering::SeqCst);
                panic!("a helper's part failed");
            }
            let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
            while !helper_took.load(Ordering::SeqCst) && std::time::Instant::now() < deadline {
                std::thread::sleep(std::time::Duration::from_micros(100));
            }
        })
    }));
    assert!(helper_took.into_inner(), "no helper took a part");
    assert!(outcome.is_err(), "the helper's panic was lost");
}

/// A run split over threads is charged the CPU time of all of them: the same work at the same
/// CPU time per iteration gives the same rate per CPU-second with one thread or two.
#[test]
fn rates_per_cpu_second_charge_every_thread() {
    use saddlefw::experiments::params::Method;
    use saddlefw::experiments::record::{RunRecord, RunStatus};
    use saddlefw::paper::Algorithm;
    let mut one = RunRecord::not_run(
        Method::Paper(Algorithm::LmoLmo),
        RunStatus::TimeLimit,
        String::new(),
    );
    (one.iterations, one.wall_time_s, one.measure_time_s) = (100, 9.0, 1.0);
    one.cpu_time_s = Some(10.0);
    assert_eq!(one.threads, 1);
    assert_eq!(one.cpu_share(), Some(1.0));
    assert_eq!(one.iterations_per_cpu_second(), Some(100.0 / 9.0));
    // two threads, twice as fast in wall time, the same CPU time in total
    let mut two = one.clone();
    (two.threads, two.wall_time_s, two.measure_time_s) = (2, 4.5, 0.5);
    assert_eq!(two.cpu_share(), Some(1.0));
    assert_eq!(two.iterations_per_cpu_second(), Some(100.0 / 9.0));
    // half of the two CPUs: contended, and the rate per CPU-second still that of the work
    two.cpu_time_s = Some(5.0);
    assert_eq!(two.cpu_share(), Some(0.5));
    assert_eq!(two.iterations_per_cpu_second(), Some(100.0 / 4.5));
    // `threads` is written only above 1 and read back as 1 when absent
    let json = serde_json::to_value(&one).unwrap();
    assert!(json.get("threads").is_none());
    let back: RunRecord = serde_json::from_value(json).unwrap();
    assert_eq!(back.threads, 1);
    let json = serde_json::to_value(&two).unwrap();
    assert_eq!(json["threads"], 2);
}

/// The blocked Gram product (`spectral::GRAM_BLOCK`) of a long matrix gives bitwise the same
/// nuclear-ball LMO and projection for any thread count, and the top singular value of the
/// unblocked reference (faer's SVD) to rounding.
#[test]
fn blocked_gram_oracles_are_identical_for_any_thread_count() {
    use saddlefw::sets::{ConvexSet, NuclearBall};
    use saddlefw::spectral::{gram_top_pair, GramWorkspace, GRAM_BLOCK};
    let (rows, cols) = (2 * GRAM_BLOCK + 1234, 6);
    let mut rng = ChaCha8Rng::seed_from_u64(16);
    let z: Vec<f64> = (0..rows * cols)
        .map(|_| rng.sample(StandardNormal))
        .collect();
    let bits = |v: &[f64]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
    let mut first = None;
    for threads in 1..=4 {
        let mut ws = GramWorkspace::default();
        ws.set_threads(threads);
        let (mut u, mut v) = (vec![0.0; rows], vec![0.0; cols]);
        let sigma = gram_top_pair(&z, rows, cols, &mut ws, &mut u, &mut v).unwrap();
        let mut ball = NuclearBall::new(rows, cols, 1.0).unwrap();
        ball.set_threads(threads);
        let (mut lmo, mut proj) = (vec![0.0; rows * cols], vec![0.0; rows * cols]);
        ball.lmo(&z, &mut lmo);
        ball.project(&z, &mut proj);
        let got = (sigma.to_bits(), bits(&u), bits(&v), bits(&lmo), bits(&proj));
        match &first {
            None => first = Some(got),
            Some(f) => assert!(f == &got, "{threads} threads differ from 1"),
        }
    }
    let reference = saddlefw::linalg::mat(&z, rows, cols)
        .singular_values()
        .unwrap()[0];
    let sigma = f64::from_bits(first.unwrap().0);
    assert!(
        (sigma - reference).abs() <= 1e-12 * reference,
        "{sigma} vs {reference}"
    );
}

/// The kernel helpers spin between parts only while parts keep coming ([`KEEP_AWAKE`]): one
/// awake right after a split on two or more cores, at most one per further core and one per
/// helper asked for, and none a while after the last part. Run in a process of its
/// own (this test binary again, with only the probe below), since any other test that splits
/// a kernel keeps the helpers awake.
#[test]
fn kernel_helpers_go_to_sleep_when_idle() {
    let out = std::process::Command::new(std::env::current_exe().unwrap())
        .args(["--exact", "threads::kernel_helpers_probe", "--ignored"])
        .args(["--test-threads", "1", "--nocapture"])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{text}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(text.contains("1 passed"), "the probe did not run: {text}");
}

/// The body of [`kernel_helpers_go_to_sleep_when_idle`] (ignored on its own).
#[test]
#[ignore = "run alone by kernel_helpers_go_to_sleep_when_idle"]
fn kernel_helpers_probe() {
    use saddlefw::jobs::{available_threads, awake_helpers, run_parts, KEEP_AWAKE};
    use std::time::{Duration, Instant};
    let asleep_soon = || {
        let deadline = Instant::now() + KEEP_AWAKE * 1000;
        while awake_helpers() > 0 {
            assert!(
                Instant::now() < deadline,
                "helpers still awake after {:?}",
                KEEP_AWAKE * 1000
            );
            std::thread::sleep(Duration::from_millis(1));
        }
    };
    let most = available_threads().saturating_sub(1);
    let mut seen = 0;
    for _ in 0..50 {
        run_parts((0..16).collect(), 8, |_: i32| std::hint::black_box(()));
        seen = seen.max(awake_helpers());
        assert!(seen <= most, "{seen} awake, at most {most}");
    }
    // right after a split a helper is awake (none on one core)
    assert_eq!(seen.min(1), most.min(1), "no helper was kept awake");
    asleep_soon();
    // two threads ask for one helper
    run_parts((0..16).collect(), 2, |_: i32| std::hint::black_box(()));
    assert!(
        awake_helpers() <= 1,
        "{} awake for one helper",
        awake_helpers()
    );
    asleep_soon();
}
