//! Time per iteration of every registered algorithm (default parameters), as the run loop
//! executes it: `solver.step` on the counting wrapper of the problem.
//!
//! Instances (built once, outside the timed region):
//! * `quadratic-1000`: dx = dy = 1000, X = l1 ball, Y = unit l2 ball (strongly convex, so
//!   R-PDCG applies), `L = 1/2 x'Ax + y'Bx - 1/2 y'Cy + a'x - c'y` with A diagonal with entries
//!   in [0.5, 1.5] (convex), B = I - 2 vv'/||v||^2 a dense Householder reflector (orthogonal,
//!   ||B|| = 1), C = 0.5 I. The random generator is not used here: its Jacobi eigen / SVD
//!   certification of a dense 1000 x 1000 A takes minutes; this construction is certified by
//!   the same code in about a second (diagonal A: no rotation; orthogonal B: one sweep).
//!   Matrices are stored dense, so a gradient costs the dense products of the family.
//! * `nuclear-50x60`: X = nuclear-norm ball of 50 x 60 matrices (radius 5, dx = 3000),
//!   Y = unit l2 ball (dy = 50), same structure (A diagonal 3000 x 3000 stored dense,
//!   B a 50 x 3000 block of a Householder reflector).
//!
//! Run: `cargo bench --bench iterations` (append `-- nuclear` to filter).

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use saddlefw::counting::Counting;
use saddlefw::problems::Quadratic;
use saddlefw::sets::{ConvexSet, L1Ball, L2Ball, NuclearBall};
use saddlefw::solvers::registry;
use std::time::Duration;

/// Rows `0..rows` of the Householder reflector `I - 2 vv'/||v||^2` of size n, v deterministic.
fn householder_rows(rows: usize, n: usize) -> Vec<f64> {
    let v: Vec<f64> = (0..n)
        .map(|i| ((i * 7919 % 1000) as f64 / 1000.0) - 0.45)
        .collect();
    let vv: f64 = v.iter().map(|x| x * x).sum();
    let mut b = vec![0.0; rows * n];
    for i in 0..rows {
        for j in 0..n {
            b[i * n + j] = if i == j { 1.0 } else { 0.0 } - 2.0 * v[i] * v[j] / vv;
        }
    }
    b
}

fn instance(x_set: Box<dyn ConvexSet>, dy: usize) -> (Quadratic, Vec<f64>, Vec<f64>) {
    let dx = x_set.dim();
    let mut a = vec![0.0; dx * dx];
    for i in 0..dx {
        a[i * dx + i] = 0.5 + (i % 11) as f64 / 10.0;
    }
    let b = householder_rows(dy, dx);
    let mut c = vec![0.0; dy * dy];
    for i in 0..dy {
        c[i * dy + i] = 0.5;
    }
    let lin_a: Vec<f64> = (0..dx).map(|i| ((i % 13) as f64 - 6.0) / 10.0).collect();
    let lin_c: Vec<f64> = (0..dy).map(|i| ((i % 7) as f64 - 3.0) / 10.0).collect();
    let y_set = Box::new(L2Ball::centered(dy, 1.0).unwrap());
    let q = Quadratic::new(a, b, c, lin_a, lin_c, x_set, y_set).expect("valid instance");
    (q, vec![0.0; dx], vec![0.0; dy])
}

fn bench_instance(c: &mut Criterion, label: &str, q: &Quadratic, x0: &[f64], y0: &[f64]) {
    let mut group = c.benchmark_group(format!("iteration/{label}"));
    group
        .sample_size(10)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(3));
    for info in registry::ALGORITHMS.iter() {
        let built = match info.build(q, &Default::default()) {
            Ok(b) => b,
            Err(e) => {
                eprintln!("{label}: {} not applicable: {e}", info.name);
                continue;
            }
        };
        let mut solver = built.solver;
        let counting = Counting::new(q);
        solver.init(&counting, x0, y0);
        let mut t = 0usize;
        group.bench_function(BenchmarkId::from_parameter(info.name), |b| {
            b.iter(|| {
                let step = solver.step(&counting, t);
                t += 1;
                step
            })
        });
    }
    group.finish();
}

fn iterations(c: &mut Criterion) {
    let (q, x0, y0) = instance(Box::new(L1Ball::new(1000, 1.0).unwrap()), 1000);
    bench_instance(c, "quadratic-1000", &q, &x0, &y0);
    drop(q);
    let (q, x0, y0) = instance(Box::new(NuclearBall::new(50, 60, 5.0).unwrap()), 50);
    bench_instance(c, "nuclear-50x60", &q, &x0, &y0);
}

criterion_group!(benches, iterations);
criterion_main!(benches);
