//! The performance paths of the hot loop against plain references, each with a negative
//! control: the CSR register-tiled products (every tile width), the memoised forward passes of
//! the experiment problems (a hit returns exactly what a recomputation would), and the
//! nuclear-norm ball's Gram-route oracles as the solvers call them.

use proptest::prelude::*;
use proptest::test_runner::Config;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rand_distr::StandardNormal;
use saddlefw::data::{Csr, Dataset, SparseMatrix};
use saddlefw::linalg::{norm, svd};
use saddlefw::problems::{
    DictionaryLearning, DlConfig, DroConfig, RobustClassification, SaddleProblem,
};
use saddlefw::sets::{ConvexSet, NuclearBall};

fn config(cases: u32) -> Config {
    crate::common::config(cases, "kernels.txt")
}

fn random_sparse(rng: &mut ChaCha8Rng, rows: usize, cols: usize, density: f64) -> Vec<f64> {
    (0..rows * cols)
        .map(|_| {
            if rng.gen::<f64>() < density {
                rng.sample(StandardNormal)
            } else {
                0.0
            }
        })
        .collect()
}

fn dense_mul(a: &[f64], m: usize, n: usize, b: &[f64], k: usize) -> Vec<f64> {
    let mut out = vec![0.0; m * k];
    for i in 0..m {
        for l in 0..n {
            for j in 0..k {
                out[i * k + j] += a[i * n + l] * b[l * k + j];
            }
        }
    }
    out
}

/// Largest entrywise error relative to `1 + |expected|`.
fn max_err(out: &[f64], expect: &[f64]) -> f64 {
    out.iter()
        .zip(expect)
        .map(|(o, e)| (o - e).abs() / (1.0 + e.abs()))
        .fold(0.0, f64::max)
}

proptest! {
    #![proptest_config(config(64))]

    /// `A W` and `A^T R` equal the dense products for every width k (tiles of 32, remainders
    /// of every size), including empty rows.
    #[test]
    fn csr_tiles_match_dense(seed in any::<u64>(), m in 1usize..20, n in 1usize..20, k in 1usize..75) {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let a = random_sparse(&mut rng, m, n, 0.3);
        let sp = SparseMatrix::new(Csr::from_dense(m, n, &a).unwrap());
        let w: Vec<f64> = (0..n * k).map(|_| rng.sample(StandardNormal)).collect();
        let mut out = vec![f64::NAN; m * k];
        sp.mul(&w, k, &mut out);
        prop_assert!(max_err(&out, &dense_mul(&a, m, n, &w, k)) <= 1e-13);
        let r: Vec<f64> = (0..m * k).map(|_| rng.sample(StandardNormal)).collect();
        let mut out = vec![f64::NAN; n * k];
        sp.tmul(&r, k, &mut out);
        let a_t: Vec<f64> = (0..n * m).map(|p| a[(p % m) * n + p / m]).collect();
        prop_assert!(max_err(&out, &dense_mul(&a_t, n, m, &r, k)) <= 1e-13);
    }
}

/// Negative control of the tile check: a product missing the last lane of its last tile (the
/// classic off-by-one of a tiled kernel) is rejected.
#[test]
fn csr_check_rejects_a_dropped_lane() {
    let mut rng = ChaCha8Rng::seed_from_u64(4);
    let (m, n, k) = (9, 7, 33);
    let a = random_sparse(&mut rng, m, n, 0.5);
    let sp = SparseMatrix::new(Csr::from_dense(m, n, &a).unwrap());
    let w: Vec<f64> = (0..n * k).map(|_| rng.sample(StandardNormal)).collect();
    let mut out = vec![0.0; m * k];
    sp.mul(&w, k, &mut out);
    let expect = dense_mul(&a, m, n, &w, k);
    assert!(max_err(&out, &expect) <= 1e-13);
    for row in out.chunks_exact_mut(k) {
        row[k - 1] = 0.0;
    }
    assert!(max_err(&out, &expect) > 1e-3);
}

fn small_dl() -> (DictionaryLearning, Vec<f64>) {
    DictionaryLearning::generate(&DlConfig {
        n: 30,
        m: 8,
        p: 4,
        l: 2,
        q: 6,
        n_new: 7,
        delta: 1e-3,
        r: 2.0,
        b: 1.0,
        seed: 3,
    })
    .unwrap()
}

fn small_dro() -> RobustClassification {
    let mut rng = ChaCha8Rng::seed_from_u64(9);
    let (n, d, k) = (40, 15, 4);
    let dense = random_sparse(&mut rng, n, d, 0.3);
    let data = Dataset {
        name: "random".into(),
        features: Csr::from_dense(n, d, &dense).unwrap(),
        labels: (0..n).map(|_| rng.gen_range(0..k as u32)).collect(),
        classes: (0..k as i64).collect(),
    };
    RobustClassification::new(&data, &DroConfig::default()).unwrap()
}

/// Every evaluation a solver or a measure makes, in the orders they make them.
#[derive(Debug, Clone, PartialEq)]
struct Evaluations {
    grads: (Vec<f64>, Vec<f64>),
    grad_x: Vec<f64>,
    grad_y: Vec<f64>,
    value: f64,
    model_c: Vec<f64>,
}

fn evaluate(p: &dyn SaddleProblem, x: &[f64], y: &[f64], y2: &[f64]) -> Evaluations {
    let (mut gx, mut gy) = (vec![0.0; x.len()], vec![0.0; y.len()]);
    p.grads(x, y, &mut gx, &mut gy);
    // Gauss-Seidel order: grad_y at (x, y), then grad_x at (x, y2)
    let mut gy2 = vec![0.0; y.len()];
    p.grad_y(x, y, &mut gy2);
    let mut gx2 = vec![0.0; x.len()];
    p.grad_x(x, y2, &mut gx2);
    Evaluations {
        grads: (gx, gy),
        grad_x: gx2,
        grad_y: gy2,
        value: p.value(x, y),
        model_c: p.y_model(x).map(|m| m.c).unwrap_or_default(),
    }
}

/// Evaluations through a problem that has just evaluated at another point, or at the same
/// point, are bitwise those of a fresh problem: the memoised forward pass is keyed on the
/// exact point. Negative control: the point change (one coordinate) does change every
/// evaluation, so a stale pass would be caught by this comparison.
fn check_memo(make: &dyn Fn() -> Box<dyn SaddleProblem>, x0: Vec<f64>, y: Vec<f64>, y2: Vec<f64>) {
    let used = make();
    let mut x1 = x0.clone();
    let last = x1.len() - 1;
    // first and last coordinates (DL: one in D', one in C')
    x1[0] += 0.25;
    x1[last] += 0.25;
    // warm the memo at x0, then evaluate at x1 and at x1 again
    let stale = evaluate(used.as_ref(), &x0, &y, &y2);
    let through_memo = evaluate(used.as_ref(), &x1, &y, &y2);
    let again = evaluate(used.as_ref(), &x1, &y, &y2);
    let fresh = evaluate(make().as_ref(), &x1, &y, &y2);
    assert_eq!(through_memo, fresh);
    assert_eq!(again, fresh);
    // negative control: the stale evaluation differs in every part
    assert_ne!(stale.grads.0, fresh.grads.0);
    assert_ne!(stale.grads.1, fresh.grads.1);
    assert_ne!(stale.grad_x, fresh.grad_x);
    assert_ne!(stale.value, fresh.value);
}

#[test]
fn dl_memoised_forward_is_exact() {
    let (_, x0) = small_dl();
    let make = || -> Box<dyn SaddleProblem> { Box::new(small_dl().0) };
    let mut x = x0.clone();
    // a point with both blocks non-zero (C'_0 = 0 in the generated start)
    for (i, v) in x.iter_mut().enumerate() {
        *v += 0.01 * ((i % 7) as f64 - 3.0);
    }
    // y != 0 so the constraint part matters in grad_x too
    check_memo(&make, x, vec![0.3], vec![0.7]);
}

#[test]
fn dro_memoised_forward_is_exact() {
    let p = small_dro();
    let (n, d, k) = p.dims();
    let x: Vec<f64> = (0..d * k)
        .map(|i| ((i * 37) % 11) as f64 * 0.05 - 0.25)
        .collect();
    let y: Vec<f64> = (0..n).map(|i| (1 + i % 3) as f64).collect();
    let s: f64 = y.iter().sum();
    let y: Vec<f64> = y.iter().map(|v| v / s).collect();
    let y2 = vec![1.0 / n as f64; n];
    let make = || -> Box<dyn SaddleProblem> { Box::new(small_dro()) };
    check_memo(&make, x, y, y2);
}

/// The nuclear ball's LMO and projection, as the solvers call them (both orientations and the
/// experiments' shapes), equal the Jacobi-SVD references; negative control: the LMO check
/// rejects the ascent vertex `+r u v^T`.
#[test]
fn nuclear_ball_oracles_match_jacobi() {
    let mut rng = ChaCha8Rng::seed_from_u64(8);
    for (rows, cols) in [(300, 7), (7, 300), (60, 103), (103, 60), (1, 9), (9, 1)] {
        let ball = NuclearBall::new(rows, cols, 5.0).unwrap();
        let g: Vec<f64> = (0..rows * cols)
            .map(|_| rng.sample(StandardNormal))
            .collect();
        let mut v = vec![0.0; g.len()];
        ball.lmo(&g, &mut v);
        let d = svd(&g, rows, cols);
        let kk = d.s.len();
        let reference: Vec<f64> = (0..rows * cols)
            .map(|p| -5.0 * d.u[(p / cols) * kk] * d.v[(p % cols) * kk])
            .collect();
        let dist = |a: &[f64], b: &[f64]| {
            a.iter()
                .zip(b)
                .map(|(x, y)| (x - y).powi(2))
                .sum::<f64>()
                .sqrt()
                / norm(b)
        };
        assert!(dist(&v, &reference) <= 1e-9, "{rows}x{cols} LMO");
        let flipped: Vec<f64> = v.iter().map(|x| -x).collect();
        assert!(dist(&flipped, &reference) > 1.0);
        // projection of a point far outside and of one inside
        for scale in [10.0, 0.01] {
            let z: Vec<f64> = g.iter().map(|x| x * scale).collect();
            let mut out = vec![0.0; z.len()];
            ball.project(&z, &mut out);
            let dz = svd(&z, rows, cols);
            let mut w = vec![0.0; dz.s.len()];
            let mut expect = z.clone();
            if dz.s.iter().sum::<f64>() > 5.0 {
                saddlefw::linalg::project_l1_ball(&dz.s, 5.0, &mut w);
                dz.recompose(&w, &mut expect);
            }
            assert!(
                dist(&out, &expect) <= 1e-9,
                "{rows}x{cols} projection x{scale}"
            );
        }
    }
}

/// `linalg::all_finite` (the vectorised per-iteration check of iterates and gradients) agrees
/// with the entry-by-entry test for a NaN or an infinity at every position of the first
/// blocks and at the end, and for finite vectors of every length up to two blocks.
#[test]
fn all_finite_agrees_with_the_entrywise_test() {
    use saddlefw::linalg::all_finite;
    for len in 0..=130usize {
        let v: Vec<f64> = (0..len).map(|i| i as f64 - 60.0).collect();
        assert!(all_finite(&v), "finite, length {len}");
        for bad in [f64::NAN, f64::INFINITY, f64::NEG_INFINITY] {
            for at in (0..len).filter(|&i| i < 70 || i + 3 > len) {
                let mut w = v.clone();
                w[at] = bad;
                assert!(!all_finite(&w), "{bad} at {at} of {len}");
            }
        }
    }
    assert!(all_finite(&[f64::MAX, f64::MIN_POSITIVE, -0.0]));
}

/// Every loop under `linalg::simd` outside `spectral` (the CSR product, the unit-column
/// oracles, the finiteness check) gives bit for bit what the baseline build of the same loop
/// gives. Negative controls: changed inputs change the outputs, and the check sees a NaN.
#[test]
fn simd_paths_match_baseline_code() {
    use saddlefw::linalg::{all_finite, set_simd};
    use saddlefw::sets::UnitColumns;
    let bits = |v: &[f64]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
    let both = |f: &dyn Fn() -> Vec<u64>| {
        set_simd(true);
        let fast = f();
        set_simd(false);
        let base = f();
        set_simd(true);
        assert_eq!(fast, base);
        fast
    };
    let mut rng = ChaCha8Rng::seed_from_u64(23);
    let (m, n, k) = (37, 29, 11);
    let a = Csr::from_dense(m, n, &random_sparse(&mut rng, m, n, 0.3)).unwrap();
    let b: Vec<f64> = (0..n * k).map(|_| rng.sample(StandardNormal)).collect();
    let product = |b: &[f64]| {
        let mut out = vec![0.0; m * k];
        a.mul_dense(b, k, &mut out);
        bits(&out)
    };
    let p = both(&|| product(&b));
    let mut b2 = b.clone();
    b2[0] += 1e-3;
    assert_ne!(p, product(&b2));
    // 13 x 7 with a zero column (its vertex is -r e_1)
    let set = UnitColumns::new(13, 7, 1.5).unwrap();
    let mut g: Vec<f64> = (0..13 * 7).map(|_| rng.sample(StandardNormal)).collect();
    for i in 0..13 {
        g[i * 7 + 3] = 0.0;
    }
    let oracle = |g: &[f64], project: bool| {
        let mut out = vec![0.0; g.len()];
        if project {
            set.project(g, &mut out);
        } else {
            set.lmo(g, &mut out);
        }
        bits(&out)
    };
    for project in [false, true] {
        let o = both(&|| oracle(&g, project));
        let mut g2 = g.clone();
        g2[5] *= 3.0;
        assert_ne!(o, oracle(&g2, project));
    }
    assert_eq!(oracle(&g, false)[3], (-1.5f64).to_bits());
    let mut v = vec![1.0; 300];
    both(&|| vec![all_finite(&v) as u64]);
    v[257] = f64::NAN;
    assert_eq!(both(&|| vec![all_finite(&v) as u64]), vec![0]);
}

/// `linalg::gram` against the naive `Z Z^T` on both sides of `GRAM_TRIANGLE_MIN` (the lower
/// triangle mirrored, or the full product with mirrored pairs averaged): 1e-13 relative to
/// `||Z||_F^2`, exactly symmetric. Negative control: one perturbed entry is rejected.
#[test]
fn gram_matches_the_naive_product() {
    use saddlefw::linalg::{gram, mat, GRAM_TRIANGLE_MIN};
    let mut rng = ChaCha8Rng::seed_from_u64(12);
    for k in [1, 5, GRAM_TRIANGLE_MIN - 1, GRAM_TRIANGLE_MIN, 60] {
        for n in [1, 7, 103] {
            let z: Vec<f64> = (0..k * n).map(|_| rng.sample(StandardNormal)).collect();
            let naive = dense_mul(&z, k, n, &transpose(&z, k, n), k);
            let mut g = vec![f64::NAN; k * k];
            gram(&mut g, mat(&z, k, n));
            let scale = norm(&z).powi(2);
            let err = |g: &[f64]| {
                g.iter()
                    .zip(&naive)
                    .fold(0.0f64, |m, (a, b)| m.max((a - b).abs()))
            };
            let close = |g: &[f64]| err(g) <= 1e-13 * scale;
            assert!(close(&g), "k = {k}, n = {n}: {:e}", err(&g) / scale);
            for i in 0..k {
                for j in 0..k {
                    assert_eq!(g[i * k + j].to_bits(), g[j * k + i].to_bits(), "symmetry");
                }
            }
            g[k * k - 1] += 1e-12 * scale;
            assert!(!close(&g), "a perturbed Gram matrix passed");
        }
    }
}

fn transpose(a: &[f64], rows: usize, cols: usize) -> Vec<f64> {
    (0..cols * rows)
        .map(|t| a[(t % rows) * cols + t / rows])
        .collect()
}
