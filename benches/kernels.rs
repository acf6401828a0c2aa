//! Per-iteration cost at the kernel limit (issue 8, item 1): for each experiment problem and
//! algorithm, (a) one full iteration as the run loop executes it (`solver.step` on the counting
//! wrapper) and (b) its unavoidable kernels alone (the gradient products and the oracle calls
//! of the algorithm's oracle profile, inputs prepared outside the timed region). Target:
//! (a) <= 1.5 x (b). A table of the ratios is printed at the end.
//!
//! Problems: DL at the paper's size (m = 100, q = 60, n' = 103, n = 500), and the robust
//! classification problem on NEWS20 (`$SADDLEFW_DATA_DIR/news20.bz2`, default
//! `../shared/data/news20.bz2`; a generated sparse problem of the same shape when absent, named
//! `news20-generated`). The solvers are first run for a few iterations so that the state is a
//! typical one (DL: 200, NEWS20: 20).
//!
//! Run: `SADDLEFW_DATA_DIR=/path/to/data cargo bench --bench kernels` (`-- dl` to filter).
//! Oracle parts alone: group `oracles/<problem>`.

mod common;

use common::{criterion_mean, dl, dro, load_average, news20_data, primal_step, solvers, Kernels};
use criterion::{BenchmarkId, Criterion};
use saddlefw::counting::Counting;
use saddlefw::experiments::params::Experiment;
use saddlefw::problems::Instance;
use saddlefw::solvers::Solver;
use std::hint::black_box;
use std::time::{Duration, Instant};

/// Steps of the warm-up run before timing (a typical state, not the start).
fn warm_up_iterations(label: &str) -> usize {
    if label == "dl" {
        200
    } else {
        20
    }
}

/// A solver of the given name, initialised and run for `warm` iterations on the counting view.
fn warmed<'a>(
    e: Experiment,
    inst: &Instance,
    counting: &Counting<'a>,
    name: &str,
    warm: usize,
) -> Box<dyn Solver> {
    let mut solver = solvers(e, inst.problem.as_ref(), true)
        .into_iter()
        .find(|s| s.name() == name)
        .expect("solver");
    solver.init(counting, &inst.x0, &inst.y0);
    for t in 0..warm {
        solver.step(counting, t);
    }
    solver
}

/// (a) and (b) walk the same trajectory: both start from the state after `warm` iterations and
/// advance one iteration per timed iteration; (a) times `solver.step`, (b) times the kernels of
/// the state the step starts from (inputs prepared and caches evicted outside the timed region).
fn bench_problem(c: &mut Criterion, label: &str, inst: &Instance, e: Experiment) -> Vec<String> {
    let p = inst.problem.as_ref();
    let warm = warm_up_iterations(label);
    let measurement = if label == "dl" { 3 } else { 6 };
    let mut names = Vec::new();
    let all: Vec<&'static str> = solvers(e, p, true).iter().map(|s| s.name()).collect();
    for name in all {
        if !c_filter_matches(label, name) {
            continue;
        }
        names.push(name.to_string());
        let mut group = c.benchmark_group(format!("iteration/{label}"));
        group
            .sample_size(10)
            .warm_up_time(Duration::from_millis(300))
            .measurement_time(Duration::from_secs(measurement));
        let counting = Counting::new(p);
        let mut solver = warmed(e, inst, &counting, name, warm);
        let mut t = warm;
        group.bench_function(BenchmarkId::from_parameter(name), |b| {
            b.iter_custom(|iters| {
                let mut total = Duration::ZERO;
                for _ in 0..iters {
                    let clock = Instant::now();
                    black_box(solver.step(&counting, t));
                    total += clock.elapsed();
                    t += 1;
                }
                total
            })
        });
        group.finish();

        let mut group = c.benchmark_group(format!("kernels/{label}"));
        group
            .sample_size(10)
            .warm_up_time(Duration::from_millis(300))
            .measurement_time(Duration::from_secs(measurement));
        let counting = Counting::new(p);
        let mut solver = warmed(e, inst, &counting, name, warm);
        let mut t = warm;
        let tau = primal_step(solver.as_ref(), warm, inst);
        group.bench_function(BenchmarkId::from_parameter(name), |b| {
            b.iter_custom(|iters| {
                let mut total = Duration::ZERO;
                for _ in 0..iters {
                    let mut kernels = Kernels::new(p, solver.as_ref(), t, inst, tau);
                    let clock = Instant::now();
                    kernels.run(p);
                    total += clock.elapsed();
                    solver.step(&counting, t);
                    t += 1;
                }
                total
            })
        });
        group.finish();
    }
    names
}

/// The oracle calls alone (for the performance document).
fn bench_oracles(c: &mut Criterion, label: &str, inst: &Instance, e: Experiment) {
    let p = inst.problem.as_ref();
    let mut solver = common::solvers(e, p, false).remove(0); // LMO-LMO
    let counting = Counting::new(p);
    solver.init(&counting, &inst.x0, &inst.y0);
    for t in 0..warm_up_iterations(label) {
        solver.step(&counting, t);
    }
    let (x, y) = (solver.x().to_vec(), solver.y().to_vec());
    let (mut gx, mut gy) = (vec![0.0; x.len()], vec![0.0; y.len()]);
    p.grads(&x, &y, &mut gx, &mut gy);
    let z: Vec<f64> = x.iter().zip(&gx).map(|(a, g)| a - 10.0 * g).collect();
    let mut out = vec![0.0; x.len()];
    let mut outy = vec![0.0; y.len()];
    let mut group = c.benchmark_group(format!("oracles/{label}"));
    group
        .sample_size(10)
        .warm_up_time(Duration::from_millis(300))
        .measurement_time(Duration::from_secs(2));
    // alternate between two points: no forward pass is served from the problem's memo
    let xs = common::two_points(&x);
    let mut flip = 0;
    group.bench_function("grads", |b| {
        b.iter(|| {
            flip ^= 1;
            p.grads(&xs[flip], &y, &mut gx, &mut gy)
        })
    });
    group.bench_function("lmo_x", |b| b.iter(|| p.x_set().lmo(&gx, &mut out)));
    group.bench_function("proj_x", |b| b.iter(|| p.x_set().project(&z, &mut out)));
    group.bench_function("lmo_y", |b| b.iter(|| p.y_set().lmo(&gy, &mut outy)));
    group.bench_function("proj_y", |b| b.iter(|| p.y_set().project(&gy, &mut outy)));
    group.finish();
}

/// `cargo bench --bench kernels -- FILTER`: skip problems/algorithms the filter excludes (so a
/// filtered run does not pay for the warm-up of the others).
fn c_filter_matches(label: &str, name: &str) -> bool {
    match filter() {
        None => true,
        Some(f) => {
            format!("iteration/{label}/{name}").contains(&f)
                || format!("kernels/{label}/{name}").contains(&f)
        }
    }
}

fn filter() -> Option<String> {
    std::env::args()
        .skip(1)
        .find(|a| !a.starts_with('-') && a != "bench")
}

/// Whether the problem `label` is wanted under the command-line filter (a filter that names
/// neither problem wants both).
fn wants(label: &str) -> bool {
    match filter() {
        None => true,
        Some(f) if f.contains("dl") || f.contains("news20") => f.contains(label),
        Some(_) => true,
    }
}

fn main() {
    let mut c = Criterion::default().configure_from_args();
    let mut rows = Vec::new();
    if wants("dl") {
        let inst = dl(1);
        let names = bench_problem(&mut c, "dl", &inst, Experiment::Dl);
        rows.extend(names.into_iter().map(|n| ("dl".to_string(), n)));
        bench_oracles(&mut c, "dl", &inst, Experiment::Dl);
    }
    if wants("news20") {
        let (data, label) = news20_data();
        let inst = dro(&data, None);
        drop(data);
        let names = bench_problem(&mut c, &label, &inst, Experiment::Robust);
        rows.extend(names.into_iter().map(|n| (label.clone(), n)));
        bench_oracles(&mut c, &label, &inst, Experiment::Robust);
    }
    c.final_summary();
    println!("\nKernel ratios (load average {}):", load_average());
    println!("| problem | algorithm | iteration (a) | kernels (b) | (a)/(b) | iterations/s |");
    println!("|---|---|---|---|---|---|");
    for (label, name) in rows {
        let a = criterion_mean(&format!("iteration/{label}"), &name);
        let b = criterion_mean(&format!("kernels/{label}"), &name);
        if let (Some(a), Some(b)) = (a, b) {
            println!(
                "| {label} | {name} | {:.3} ms | {:.3} ms | {:.2} | {:.0} |",
                a * 1e3,
                b * 1e3,
                a / b,
                1.0 / a
            );
        }
    }
}
