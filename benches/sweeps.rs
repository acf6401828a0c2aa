//! Parallel sweeps (issue 8, item 4): the wall time of `saddlefw verify --tier quick` and of
//! `saddlefw check` with `--jobs 1` and with one job per core, the speedup, and whether the
//! outputs agree (verify.json apart from its timing fields, CHECK.json byte for byte).
//!
//! The binary is run exactly as a user runs it. Each configuration is timed
//! `SADDLEFW_SWEEP_REPEATS` times (default 3) and the median kept; the one-minute load
//! average is printed, because another process on the machine lowers the speedup.
//!
//! Not a criterion bench (it reports a ratio of whole commands): `cargo bench --bench sweeps`.

mod common;

use std::path::Path;
use std::process::Command;
use std::time::Instant;

const BIN: &str = env!("CARGO_BIN_EXE_saddlefw");

/// Median wall time of `saddlefw <args> --jobs <jobs>` over `repeats` runs.
fn median_time(args: &[&str], jobs: usize, repeats: usize) -> f64 {
    let mut times: Vec<f64> = (0..repeats)
        .map(|_| {
            let start = Instant::now();
            let status = Command::new(BIN)
                .arg("--quiet")
                .args(args)
                .args(["--jobs", &jobs.to_string()])
                .stdout(std::process::Stdio::null())
                .status()
                .expect("run saddlefw");
            assert!(
                status.code() == Some(0),
                "saddlefw {args:?} failed: {status}"
            );
            start.elapsed().as_secs_f64()
        })
        .collect();
    times.sort_by(f64::total_cmp);
    times[times.len() / 2]
}

fn verify_json(dir: &Path) -> serde_json::Value {
    let text = std::fs::read_to_string(dir.join("verify.json")).expect("verify.json");
    saddlefw::verify::without_timings(&serde_json::from_str(&text).expect("verify.json parses"))
}

fn main() {
    let repeats: usize = std::env::var("SADDLEFW_SWEEP_REPEATS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(3)
        .max(1);
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let tmp = tempfile::tempdir().expect("temporary directory");
    let out = |name: &str| tmp.path().join(name).display().to_string();
    println!(
        "parallel sweeps: {cores} cores, load average {} before, median of {repeats}",
        common::load_average()
    );
    println!("| command | --jobs 1 (s) | --jobs {cores} (s) | speedup | outputs |");
    println!("|---|---|---|---|---|");

    let (v1, vn) = (out("verify-1"), out(&format!("verify-{cores}")));
    let t1 = median_time(&["verify", "--tier", "quick", "--out", &v1], 1, repeats);
    let tn = median_time(&["verify", "--tier", "quick", "--out", &vn], cores, repeats);
    let same = verify_json(Path::new(&v1)) == verify_json(Path::new(&vn));
    println!(
        "| verify --tier quick | {t1:.2} | {tn:.2} | {:.2}x | {} |",
        t1 / tn,
        if same {
            "identical apart from timings"
        } else {
            "DIFFER"
        }
    );

    let (c1, cn) = (out("check-1/CHECK.json"), out("check-n/CHECK.json"));
    let t1 = median_time(&["check", "--cases", "200", "--out", &c1], 1, repeats);
    let tn = median_time(&["check", "--cases", "200", "--out", &cn], cores, repeats);
    let same = std::fs::read(&c1).ok() == std::fs::read(&cn).ok();
    println!(
        "| check --cases 200 | {t1:.2} | {tn:.2} | {:.2}x | {} |",
        t1 / tn,
        if same { "byte-identical" } else { "DIFFER" }
    );
    println!("load average after: {}", common::load_average());
}
