//! Per-iteration time against problem size (issue 8, item 3), with the fitted growth exponent
//! next to the arithmetic's prediction.
//!
//! * DL with m, q, n' scaled by s = 1, 2, 4 (n = 500, p = 50, l = 5 fixed). One iteration costs
//!   `2 m q^2` (D'K) + `3 x 2 m q n'` (R = D'C' - A', R C'^T, D'^T R) flops for the gradients, and
//!   `q^2 n'` + O(q^3) for the nuclear LMO or projection (Gram route): every term is cubic in s,
//!   so the prediction is exponent 3.
//! * Robust classification on NEWS20 with the rows subsampled to 1/4, 1/2, 1 (the reader's
//!   seeded subsampling, `DroConfig::rows`), against the number of non-zeros: the gradient
//!   products `A W` and `A^T R` cost `2 k nnz` flops each, the softmax `O(n k)`, so the
//!   gradient is linear in nnz (prediction 1); the nuclear LMO acts on the `d x k` matrix
//!   (`d k^2`, d unchanged by row subsampling), so a full iteration is affine in nnz and its
//!   log-log slope is below 1.
//!
//! Run: `SADDLEFW_DATA_DIR=/path/to/data cargo bench --bench scaling`.

mod common;

use common::{criterion_mean, dl, dro, load_average, news20_data};
use criterion::{BenchmarkId, Criterion};
use saddlefw::counting::Counting;
use saddlefw::experiments::params::Experiment;
use saddlefw::paper::Algorithm;
use saddlefw::problems::Instance;
use std::time::Duration;

const DL_SCALES: [usize; 3] = [1, 2, 4];
const DRO_FRACTIONS: [(usize, usize); 3] = [(1, 4), (1, 2), (1, 1)];

fn bench_iterations(
    c: &mut Criterion,
    group: &str,
    size: f64,
    inst: &Instance,
    e: Experiment,
    warm: usize,
) {
    let p = inst.problem.as_ref();
    let mut g = c.benchmark_group(group);
    g.sample_size(10)
        .warm_up_time(Duration::from_millis(300))
        .measurement_time(Duration::from_secs(3));
    for alg in Algorithm::ALL {
        let mut solver = common::paper_solver(e, alg, p);
        let counting = Counting::new(p);
        solver.init(&counting, &inst.x0, &inst.y0);
        for t in 0..warm {
            solver.step(&counting, t);
        }
        let mut t = warm;
        g.bench_function(BenchmarkId::new(alg.name(), size), |b| {
            b.iter(|| {
                let info = solver.step(&counting, t);
                t += 1;
                info
            })
        });
    }
    // the gradient products alone, alternating between two points so that no forward pass
    // is served from the problem's memo
    let (xs, y) = (common::two_points(&inst.x0), inst.y0.clone());
    let (mut gx, mut gy) = (vec![0.0; inst.x0.len()], vec![0.0; y.len()]);
    let mut flip = 0;
    g.bench_function(BenchmarkId::new("grads", size), |b| {
        b.iter(|| {
            flip ^= 1;
            p.grads(&xs[flip], &y, &mut gx, &mut gy)
        })
    });
    g.finish();
}

/// Least-squares fit `time = a + b size`: `(a, b)`.
fn affine(points: &[(f64, f64)]) -> (f64, f64) {
    let n = points.len() as f64;
    let (mx, my) = points
        .iter()
        .fold((0.0, 0.0), |(a, b), (x, y)| (a + x / n, b + y / n));
    let sxy: f64 = points.iter().map(|(x, y)| (x - mx) * (y - my)).sum();
    let sxx: f64 = points.iter().map(|(x, _)| (x - mx).powi(2)).sum();
    let b = sxy / sxx;
    (my - b * mx, b)
}

/// Least-squares slope of log(time) against log(size).
fn slope(points: &[(f64, f64)]) -> f64 {
    let n = points.len() as f64;
    let (mx, my) = points.iter().fold((0.0, 0.0), |(a, b), (x, y)| {
        (a + x.ln() / n, b + y.ln() / n)
    });
    let sxy: f64 = points
        .iter()
        .map(|(x, y)| (x.ln() - mx) * (y.ln() - my))
        .sum();
    let sxx: f64 = points.iter().map(|(x, _)| (x.ln() - mx).powi(2)).sum();
    sxy / sxx
}

fn main() {
    let mut c = Criterion::default().configure_from_args();
    for s in DL_SCALES {
        let inst = dl(s);
        bench_iterations(&mut c, "scaling/dl", s as f64, &inst, Experiment::Dl, 50);
    }
    let (data, label) = news20_data();
    let mut sizes = Vec::new();
    for (num, den) in DRO_FRACTIONS {
        let rows = data.n_samples() * num / den;
        let inst = dro(&data, if num == den { None } else { Some(rows) });
        // non-zeros of the subsample the problem drew (same rows, same seed as DroConfig's)
        let nnz = if num == den {
            data.features.nnz()
        } else {
            data.subsample(rows, saddlefw::problems::DroConfig::default().seed)
                .expect("rows")
                .features
                .nnz()
        };
        sizes.push((rows, nnz));
        bench_iterations(
            &mut c,
            &format!("scaling/{label}"),
            nnz as f64,
            &inst,
            Experiment::Robust,
            5,
        );
    }
    c.final_summary();

    println!("\nScaling (load average {}):", load_average());
    println!("| problem | kernel | sizes | times (ms) | fitted exponent | predicted | affine fit a + b nnz |");
    println!("|---|---|---|---|---|---|---|");
    let report =
        |group: &str, sizes: &[f64], names: &[&str], predicted: &dyn Fn(&str) -> &'static str| {
            for name in names {
                let pts: Vec<(f64, f64)> = sizes
                    .iter()
                    .filter_map(|&s| criterion_mean(group, &format!("{name}/{s}")).map(|t| (s, t)))
                    .collect();
                if pts.len() < 2 {
                    continue;
                }
                let times: Vec<String> =
                    pts.iter().map(|(_, t)| format!("{:.3}", t * 1e3)).collect();
                let ss: Vec<String> = pts.iter().map(|(s, _)| format!("{s}")).collect();
                // the affine fit only means something for the affine model (DRO against nnz)
                let fit = if group.ends_with("/dl") {
                    "-".to_string()
                } else {
                    let (a, b) = affine(&pts);
                    format!("a = {:.2} ms, b = {:.2} ns per non-zero", a * 1e3, b * 1e9)
                };
                println!(
                    "| {group} | {name} | {} | {} | {:.2} | {} | {fit} |",
                    ss.join(", "),
                    times.join(", "),
                    slope(&pts),
                    predicted(name),
                );
            }
        };
    let names = ["grads", "lmo-lmo", "lmo-po", "po-lmo"];
    let dl_sizes: Vec<f64> = DL_SCALES.iter().map(|&s| s as f64).collect();
    report("scaling/dl", &dl_sizes, &names, &|_| {
        "3 (all terms cubic in s)"
    });
    let dro_sizes: Vec<f64> = sizes.iter().map(|&(_, nnz)| nnz as f64).collect();
    report(&format!("scaling/{label}"), &dro_sizes, &names, &|n| {
        if n == "grads" {
            "1 (linear in nnz)"
        } else {
            "< 1 (affine: LMO on d x k does not shrink)"
        }
    });
    for (rows, nnz) in sizes {
        println!("{label}: {rows} rows, {nnz} non-zeros");
    }
}
