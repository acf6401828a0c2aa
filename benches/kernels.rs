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
//! After the criterion runs, a paired measurement (both (a) and (b) at every state, moments
//! apart, `SADDLEFW_PAIRED_SECONDS` per algorithm, default 4) gives the ratio table that is
//! robust to changes of machine load; `SADDLEFW_PAIRED_ONLY=1` skips the criterion part.
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
    let all: Vec<String> = solvers(e, p, true)
        .iter()
        .map(|s| s.name().to_string())
        .collect();
    for name in &all {
        let name = name.as_str();
        if !c_filter_matches(label, name) {
            continue;
        }
        names.push(name.to_string());
        if std::env::var_os("SADDLEFW_PAIRED_ONLY").is_some() {
            continue;
        }
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
        let mut tau = primal_step(solver.as_ref(), warm, inst);
        group.bench_function(BenchmarkId::from_parameter(name), |b| {
            b.iter_custom(|iters| {
                let mut total = Duration::ZERO;
                for _ in 0..iters {
                    let mut kernels = Kernels::new(p, solver.as_ref(), t, inst, tau);
                    let clock = Instant::now();
                    kernels.run(p);
                    total += clock.elapsed();
                    tau = solver.step(&counting, t).tau;
                    t += 1;
                }
                total
            })
        });
        group.finish();
    }
    names
}

/// The paired measurement behind the ratio table: at every state of the trajectory, first the
/// kernels of the iteration (b), then the iteration itself (a), each after evicting the
/// problem's memo, both timed with the same clock moments apart, so that a change of machine
/// load affects both alike. Returns the mean (a) and (b) in seconds over `budget` seconds.
fn paired(
    label: &str,
    inst: &Instance,
    e: Experiment,
    name: &str,
    budget: f64,
) -> (f64, f64, usize) {
    let p = inst.problem.as_ref();
    let warm = warm_up_iterations(label);
    let counting = Counting::new(p);
    let mut solver = warmed(e, inst, &counting, name, warm);
    // the primal step of iteration t, from the previous step (t - 1; schedules change slowly)
    let mut tau = primal_step(solver.as_ref(), warm, inst);
    let (mut ta, mut tb, mut count) = (0.0, 0.0, 0usize);
    let (mut ex, mut ey) = (vec![0.0; inst.x0.len()], vec![0.0; inst.y0.len()]);
    let start = Instant::now();
    let mut t = warm;
    while start.elapsed().as_secs_f64() < budget || count < 3 {
        let mut kernels = Kernels::new(p, solver.as_ref(), t, inst, tau);
        let clock = Instant::now();
        kernels.run(p);
        tb += clock.elapsed().as_secs_f64();
        p.grads(&inst.x0, &inst.y0, &mut ex, &mut ey); // evict the memo of this state
        let clock = Instant::now();
        let info = black_box(solver.step(&counting, t));
        ta += clock.elapsed().as_secs_f64();
        tau = info.tau;
        t += 1;
        count += 1;
    }
    (ta / count as f64, tb / count as f64, count)
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
        if std::env::var_os("SADDLEFW_PAIRED_ONLY").is_none() {
            bench_oracles(&mut c, "dl", &inst, Experiment::Dl);
        }
    }
    if wants("news20") {
        let (data, label) = news20_data();
        let inst = dro(&data, None);
        drop(data);
        let names = bench_problem(&mut c, &label, &inst, Experiment::Robust);
        rows.extend(names.into_iter().map(|n| (label.clone(), n)));
        if std::env::var_os("SADDLEFW_PAIRED_ONLY").is_none() {
            bench_oracles(&mut c, &label, &inst, Experiment::Robust);
        }
    }
    c.final_summary();
    println!(
        "\nKernel ratios, criterion (load average {}):",
        load_average()
    );
    println!("| problem | algorithm | iteration (a) | kernels (b) | (a)/(b) | iterations/s |");
    println!("|---|---|---|---|---|---|");
    for (label, name) in &rows {
        let a = criterion_mean(&format!("iteration/{label}"), name);
        let b = criterion_mean(&format!("kernels/{label}"), name);
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
    // the paired measurement (see `paired`)
    let budget: f64 = std::env::var("SADDLEFW_PAIRED_SECONDS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(4.0);
    let mut lines = Vec::new();
    let mut current: Option<(String, Instance, Experiment)> = None;
    for (label, name) in &rows {
        if current.as_ref().map(|c| &c.0) != Some(label) {
            drop(current.take()); // free the previous instance first
            let (inst, e) = if label == "dl" {
                (dl(1), Experiment::Dl)
            } else {
                let (data, _) = news20_data();
                (dro(&data, None), Experiment::Robust)
            };
            current = Some((label.clone(), inst, e));
        }
        let (_, inst, e) = current.as_ref().expect("instance");
        let (a, b, n) = paired(label, inst, *e, name, budget);
        lines.push(format!(
            "| {label} | {name} | {n} | {:.3} ms | {:.3} ms | {:.2} | {:.0} |",
            a * 1e3,
            b * 1e3,
            a / b,
            1.0 / a
        ));
    }
    println!("\nKernel ratios, paired (load average {}):", load_average());
    println!("| problem | algorithm | iterations | iteration (a) | kernels (b) | (a)/(b) | iterations/s |");
    println!("|---|---|---|---|---|---|---|");
    for l in lines {
        println!("{l}");
    }
}
