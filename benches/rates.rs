//! `cargo bench --bench rates`: runs the theorem table at bench horizons (the `full` tier of
//! `saddlefw verify`) and writes rate plots into `reports/bench/`: one SVG per theorem entry,
//! grouped by algorithm in `reports/bench/index.html` (the verify page), plus `verify.json`.
//!
//! Set `SADDLEFW_BENCH_TIER=quick` for a shorter run. Works offline.

use saddlefw::report::{self, Meta};
use saddlefw::verify::{self, Tier, VerifyOptions};
use std::path::PathBuf;

fn main() {
    // criterion passes `--bench`; this target has its own main and ignores its arguments.
    let tier = match std::env::var("SADDLEFW_BENCH_TIER").as_deref() {
        Ok("quick") => Tier::Quick,
        _ => Tier::Full,
    };
    let out = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("reports/bench");
    std::fs::create_dir_all(&out).expect("create reports/bench");
    let table = saddlefw::theorems::builtin();
    let mut opts = VerifyOptions::new(tier);
    // as `saddlefw verify`: the stored hardest instances too
    opts.hard = Some(saddlefw::tightness::HardSource::Builtin.into());
    let started = std::time::Instant::now();
    let result = verify::run(&table, &opts).expect("verify run");
    let entries = result.rate_entries();
    let mut per_algorithm: std::collections::BTreeMap<String, usize> = Default::default();
    for entry in &entries {
        let plot = report::plot::rate_plot(entry);
        let name = format!("{}.svg", entry.id.replace('/', "_"));
        saddlefw::files::write_atomic(out.join(&name), plot.svg.as_bytes()).expect("write svg");
        *per_algorithm.entry(entry.algorithm.clone()).or_default() += 1;
    }
    let seeds: Vec<u64> = result.seeds.iter().map(|&s| s as u64).collect();
    let meta = Meta::current(Some(&format!("bench ({tier})")), &seeds);
    let page = report::verify_page(&meta, &entries, &[], &[]);
    saddlefw::files::write_atomic(out.join("index.html"), page.as_bytes())
        .expect("write index.html");
    saddlefw::files::write_atomic(out.join("verify.json"), result.to_json().as_bytes())
        .expect("write verify.json");
    println!("{}", result.table());
    for (alg, n) in per_algorithm {
        println!("{alg}: {n} rate plots");
    }
    println!(
        "wrote {} rate plots and index.html to {} in {:.1} s",
        entries.len(),
        out.display(),
        started.elapsed().as_secs_f64()
    );
}
