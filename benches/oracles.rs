//! Oracle speed per set kind (criterion): the LMO and the Euclidean projection of every set at
//! several sizes, and the nuclear-norm LMO cold (no warm start) vs warm (started from the
//! previous top singular vector along a slowly varying gradient sequence, the solver's use).
//!
//! Run: `cargo bench --bench oracles` (a filter narrows it, e.g. `-- nuclear`).

use criterion::{black_box, criterion_group, criterion_main, BenchmarkId, Criterion};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rand_distr::StandardNormal;
use saddlefw::linalg::svd;
use saddlefw::sets::{
    BoxSet, ConvexSet, L1Ball, L2Ball, NuclearBall, Product, Simplex, UnitColumns,
};
use saddlefw::spectral::top_singular_pair;
use std::time::Duration;

fn gauss(r: &mut ChaCha8Rng, n: usize) -> Vec<f64> {
    (0..n).map(|_| r.sample::<f64, _>(StandardNormal)).collect()
}

/// The vector sets at dimension n.
fn vector_sets(n: usize) -> Vec<(&'static str, Box<dyn ConvexSet>)> {
    vec![
        ("simplex", Box::new(Simplex::new(n, 1.0).unwrap())),
        ("l1_ball", Box::new(L1Ball::new(n, 1.0).unwrap())),
        ("l2_ball", Box::new(L2Ball::centered(n, 1.0).unwrap())),
        (
            "box",
            Box::new(BoxSet::new(vec![-1.0; n], vec![1.0; n]).unwrap()),
        ),
        (
            "unit_columns",
            Box::new(UnitColumns::new(10, n / 10, 1.0).unwrap()),
        ),
    ]
}

fn bench_vector_sets(c: &mut Criterion) {
    let mut r = ChaCha8Rng::seed_from_u64(1);
    for n in [100usize, 1000, 10000] {
        let g = gauss(&mut r, n);
        let z: Vec<f64> = gauss(&mut r, n).iter().map(|v| 3.0 * v).collect();
        let mut out = vec![0.0; n];
        for (name, set) in vector_sets(n) {
            let mut group = c.benchmark_group(format!("lmo/{name}"));
            group.bench_with_input(BenchmarkId::from_parameter(n), &n, |b, _| {
                b.iter(|| set.lmo(black_box(&g), &mut out))
            });
            group.finish();
            let mut group = c.benchmark_group(format!("project/{name}"));
            group.bench_with_input(BenchmarkId::from_parameter(n), &n, |b, _| {
                b.iter(|| set.project(black_box(&z), &mut out))
            });
            group.finish();
        }
    }
}

/// Nuclear ball shapes of the paper's experiments (dictionary learning: 20 x 100 style
/// gradients, C' in R^{60 x 103}; wide 20 x 2000) and one beyond the exact Lanczos basis.
const SHAPES: [(usize, usize); 4] = [(20, 100), (60, 103), (20, 2000), (200, 300)];

/// A gradient with a decaying spectrum (sigma_i = 1/i), like a low-rank-dominated gradient.
fn gradient(r: &mut ChaCha8Rng, rows: usize, cols: usize) -> Vec<f64> {
    let g = gauss(r, rows * cols);
    let d = svd(&g, rows, cols);
    let k = d.s.len();
    let w: Vec<f64> = (0..k).map(|i| 1.0 / (1.0 + i as f64)).collect();
    let mut out = vec![0.0; rows * cols];
    d.recompose(&w, &mut out);
    out
}

fn bench_nuclear(c: &mut Criterion) {
    let mut r = ChaCha8Rng::seed_from_u64(2);
    for (rows, cols) in SHAPES {
        let id = format!("{rows}x{cols}");
        let g = gradient(&mut r, rows, cols);
        let e = gauss(&mut r, rows * cols);
        let set = NuclearBall::new(rows, cols, 5.0).unwrap();
        let mut out = vec![0.0; rows * cols];
        let mut group = c.benchmark_group("nuclear_lmo");
        group.bench_function(BenchmarkId::new("cold", &id), |b| {
            b.iter(|| set.lmo(black_box(&g), &mut out))
        });
        // warm: each call sees the gradient moved by 1e-3 relative (a small solver step)
        let scale = 1e-3 * svd(&g, rows, cols).s[0] / (e.iter().map(|v| v * v).sum::<f64>()).sqrt();
        let mut t = 0usize;
        let steps: Vec<Vec<f64>> = (0..8)
            .map(|s| {
                g.iter()
                    .zip(&e)
                    .map(|(a, b)| a + scale * s as f64 * b)
                    .collect()
            })
            .collect();
        set.lmo(&steps[0], &mut out);
        group.bench_function(BenchmarkId::new("warm", &id), |b| {
            b.iter(|| {
                t = (t + 1) % steps.len();
                set.lmo(black_box(&steps[t]), &mut out)
            })
        });
        group.bench_function(BenchmarkId::new("jacobi_svd_reference", &id), |b| {
            b.iter(|| svd(black_box(&g), rows, cols))
        });
        group.bench_function(BenchmarkId::new("top_pair", &id), |b| {
            b.iter(|| top_singular_pair(black_box(&g), rows, cols))
        });
        group.finish();
        let mut group = c.benchmark_group("nuclear_project");
        let z: Vec<f64> = g.iter().map(|v| 10.0 * v).collect();
        group.bench_function(BenchmarkId::from_parameter(&id), |b| {
            b.iter(|| set.project(black_box(&z), &mut out))
        });
        group.finish();
    }
    // the dictionary-learning primal set: unit columns x nuclear ball
    let prod = Product::new(vec![
        Box::new(UnitColumns::new(100, 60, 1.0).unwrap()),
        Box::new(NuclearBall::new(60, 103, 5.0).unwrap()),
    ])
    .unwrap();
    let g = gauss(&mut r, prod.dim());
    let mut out = vec![0.0; prod.dim()];
    // its unit-columns block alone (an element-wise kernel: scalar code shows here)
    let columns = UnitColumns::new(100, 60, 1.0).unwrap();
    c.bench_function("dictionary_set/unit_columns_lmo", |b| {
        b.iter(|| columns.lmo(black_box(&g[..6000]), &mut out[..6000]))
    });
    c.bench_function("dictionary_set/lmo", |b| {
        b.iter(|| prod.lmo(black_box(&g), &mut out))
    });
    c.bench_function("dictionary_set/project", |b| {
        b.iter(|| prod.project(black_box(&g), &mut out))
    });
}

fn config() -> Criterion {
    Criterion::default()
        .sample_size(20)
        .warm_up_time(Duration::from_millis(300))
        .measurement_time(Duration::from_secs(1))
}

criterion_group! {
    name = benches;
    config = config();
    targets = bench_vector_sets, bench_nuclear
}
criterion_main!(benches);
