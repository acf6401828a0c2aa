//! The Gram-route spectral kernels (`saddlefw::spectral`) against the exact references of
//! `saddlefw::linalg` (cyclic Jacobi eigenvalues, one-sided Jacobi SVD), with negative controls:
//! every agreement check is shown to reject a deliberately wrong answer.

use proptest::prelude::*;
use proptest::test_runner::Config;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rand_distr::StandardNormal;
use saddlefw::linalg::{mat, norm, project_l1_ball, svd, svd_faer, sym_eigenvalues};
use saddlefw::spectral::{
    gram_top_pair, project_nuclear, GramWorkspace, ProjectionMode, ProjectionPath, SymEigen,
};

fn config(cases: u32) -> Config {
    crate::common::config(cases, "spectral.txt")
}

pub(crate) fn gaussian(rng: &mut ChaCha8Rng, n: usize) -> Vec<f64> {
    (0..n).map(|_| rng.sample(StandardNormal)).collect()
}

/// Random orthonormal columns (n x k, row-major) by modified Gram-Schmidt.
pub(crate) fn orthonormal(rng: &mut ChaCha8Rng, n: usize, k: usize) -> Vec<f64> {
    let mut q = gaussian(rng, n * k);
    for j in 0..k {
        for _ in 0..2 {
            for i in 0..j {
                let d: f64 = (0..n).map(|r| q[r * k + i] * q[r * k + j]).sum();
                for r in 0..n {
                    q[r * k + j] -= d * q[r * k + i];
                }
            }
        }
        let nj = (0..n).map(|r| q[r * k + j].powi(2)).sum::<f64>().sqrt();
        for r in 0..n {
            q[r * k + j] /= nj;
        }
    }
    q
}

/// `U diag(s) V^T` with random orthonormal U (rows x k), V (cols x k), k = min(rows, cols).
fn with_singular_values(rng: &mut ChaCha8Rng, rows: usize, cols: usize, s: &[f64]) -> Vec<f64> {
    let k = rows.min(cols);
    let u = orthonormal(rng, rows, k);
    let v = orthonormal(rng, cols, k);
    let mut z = vec![0.0; rows * cols];
    for l in 0..k {
        for i in 0..rows {
            let c = s[l] * u[i * k + l];
            for j in 0..cols {
                z[i * cols + j] += c * v[j * k + l];
            }
        }
    }
    z
}

/// The exact reference: Jacobi SVD of the whole matrix, l1 projection of the singular values.
fn reference_projection(z: &[f64], rows: usize, cols: usize, radius: f64) -> Vec<f64> {
    let d = svd(z, rows, cols);
    let mut out = vec![0.0; z.len()];
    if d.s.iter().sum::<f64>() <= radius {
        out.copy_from_slice(z);
    } else {
        let mut w = vec![0.0; d.s.len()];
        project_l1_ball(&d.s, radius, &mut w);
        d.recompose(&w, &mut out);
    }
    out
}

fn rel_dist(a: &[f64], b: &[f64]) -> f64 {
    let d: f64 = a
        .iter()
        .zip(b)
        .map(|(x, y)| (x - y) * (x - y))
        .sum::<f64>()
        .sqrt();
    d / norm(b).max(f64::MIN_POSITIVE)
}

/// Reconstruction and orthogonality error of an eigendecomposition (rows of `w` = vectors),
/// relative to `||A||_F`.
fn eig_error(a: &[f64], n: usize, values: &[f64], w: &[f64]) -> f64 {
    let mut err = 0.0f64;
    for i in 0..n {
        for j in 0..n {
            let rec: f64 = (0..n)
                .map(|l| w[l * n + i] * values[l] * w[l * n + j])
                .sum();
            err = err.max((rec - a[i * n + j]).abs());
            let g: f64 = (0..n).map(|c| w[i * n + c] * w[j * n + c]).sum();
            err = err.max((g - if i == j { 1.0 } else { 0.0 }).abs() * norm(a));
        }
    }
    err / norm(a).max(f64::MIN_POSITIVE)
}

pub(crate) fn random_symmetric(rng: &mut ChaCha8Rng, n: usize, kind: u8) -> Vec<f64> {
    match kind {
        // Gram matrix of a rank-deficient factor (PSD, repeated zero eigenvalue)
        0 => {
            let r = (n / 3).max(1);
            let b = gaussian(rng, n * r);
            let mut a = vec![0.0; n * n];
            for i in 0..n {
                for j in 0..n {
                    a[i * n + j] = (0..r).map(|l| b[i * r + l] * b[j * r + l]).sum();
                }
            }
            a
        }
        // clustered spectrum: Q diag(1, 1, 1, 1e-8, ...) Q^T
        1 => {
            let q = orthonormal(rng, n, n);
            let lam: Vec<f64> = (0..n)
                .map(|i| if i < 3 { 1.0 } else { 1e-8 * i as f64 })
                .collect();
            let mut a = vec![0.0; n * n];
            for i in 0..n {
                for j in 0..n {
                    a[i * n + j] = (0..n).map(|l| q[i * n + l] * lam[l] * q[j * n + l]).sum();
                }
            }
            a
        }
        // plain random symmetric (indefinite)
        _ => {
            let b = gaussian(rng, n * n);
            let mut a = vec![0.0; n * n];
            for i in 0..n {
                for j in 0..n {
                    a[i * n + j] = 0.5 * (b[i * n + j] + b[j * n + i]);
                }
            }
            a
        }
    }
}

proptest! {
    #![proptest_config(config(48))]

    /// The full eigendecomposition (faer): A = W^T diag(values) W, W orthogonal, values equal
    /// to the cyclic Jacobi reference, all to 1e-12 relative; and the hand-written top eigenpair.
    #[test]
    fn sym_eigen_matches_jacobi(seed in any::<u64>(), n in 1usize..40, kind in 0u8..3) {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let a = random_symmetric(&mut rng, n, kind);
        let mut e = SymEigen::default();
        prop_assert!(e.full(&a, n));
        prop_assert!(e.values.windows(2).all(|w| w[0] >= w[1]));
        let err = eig_error(&a, n, &e.values, &e.vectors);
        prop_assert!(err <= 1e-12, "eigendecomposition error {err:e}");
        let mut reference = sym_eigenvalues(&a, n);
        reference.reverse();
        let scale = norm(&a).max(f64::MIN_POSITIVE);
        for (x, y) in e.values.iter().zip(&reference) {
            prop_assert!((x - y).abs() <= 1e-12 * scale, "eigenvalue {x} vs Jacobi {y}");
        }
        // top eigenpair alone
        let mut top = vec![0.0; n];
        let mut t = SymEigen::default();
        let lambda = t.top(&a, n, &mut top).unwrap();
        prop_assert!((lambda - reference[0]).abs() <= 1e-12 * scale);
        let mut res = 0.0f64;
        for i in 0..n {
            let ax: f64 = (0..n).map(|j| a[i * n + j] * top[j]).sum();
            res += (ax - lambda * top[i]).powi(2);
        }
        prop_assert!(res.sqrt() <= 1e-12 * scale, "top residual {:e}", res.sqrt() / scale);
        prop_assert!((norm(&top) - 1.0).abs() <= 1e-12);
    }

    /// The hand-written kernels that remain, against the library route (faer) as reference:
    /// the top eigenpair (tridiagonalisation, bisection, inverse iteration) and the cyclic Jacobi
    /// eigenvalues against faer's symmetric eigensolver, the one-sided Jacobi SVD and the Gram
    /// route against faer's SVD; 1e-12 relative to the norm (a few hundred ulps).
    #[test]
    fn hand_kernels_match_faer(seed in any::<u64>(), n in 1usize..40, kind in 0u8..3,
                               rows in 1usize..20, cols in 1usize..60) {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let a = random_symmetric(&mut rng, n, kind);
        let scale = norm(&a).max(f64::MIN_POSITIVE);
        let lib = mat(&a, n, n).self_adjoint_eigen(faer::Side::Lower).unwrap();
        let lib_values: Vec<f64> = (0..n).map(|i| lib.S()[i]).collect(); // ascending
        let mut top = vec![0.0; n];
        let lambda = SymEigen::default().top(&a, n, &mut top).unwrap();
        prop_assert!((lambda - lib_values[n - 1]).abs() <= 1e-12 * scale, "top {lambda} vs faer {}", lib_values[n - 1]);
        let jac = sym_eigenvalues(&a, n);
        for (x, y) in jac.iter().zip(&lib_values) {
            prop_assert!((x - y).abs() <= 1e-12 * scale, "Jacobi {x} vs faer {y}");
        }
        let z = gaussian(&mut rng, rows * cols);
        let zs = norm(&z).max(f64::MIN_POSITIVE);
        let (hand, lib) = (svd(&z, rows, cols), svd_faer(&z, rows, cols));
        for (x, y) in hand.s.iter().zip(&lib.s) {
            prop_assert!((x - y).abs() <= 1e-12 * zs, "Jacobi SVD {x} vs faer {y}");
        }
        let mut ws = GramWorkspace::default();
        let (mut u, mut v) = (vec![0.0; rows], vec![0.0; cols]);
        let sigma = gram_top_pair(&z, rows, cols, &mut ws, &mut u, &mut v).unwrap();
        prop_assert!((sigma - lib.s[0]).abs() <= 1e-12 * zs, "Gram route {sigma} vs faer {}", lib.s[0]);
    }

    /// The Gram-route top singular pair: sigma_1 of the Jacobi SVD to 1e-12 relative and the
    /// relative residual ||A^T u - sigma v|| / sigma <= 1e-12 (the nuclear LMO's tolerance), on
    /// unbalanced shapes of both orientations, including equal top singular values.
    #[test]
    fn gram_top_pair_matches_svd(seed in any::<u64>(), short in 1usize..12, long in 1usize..300,
                                 tall in any::<bool>(), tie in any::<bool>()) {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let (rows, cols) = if tall { (long.max(short), short) } else { (short, long.max(short)) };
        let k = rows.min(cols);
        let s: Vec<f64> = (0..k).map(|i| if tie && i < 2 { 3.0 } else { 2.0 / (i as f64 + 1.0) }).collect();
        let z = with_singular_values(&mut rng, rows, cols, &s);
        let mut ws = GramWorkspace::default();
        let (mut u, mut v) = (vec![0.0; rows], vec![0.0; cols]);
        let sigma = gram_top_pair(&z, rows, cols, &mut ws, &mut u, &mut v).unwrap();
        let reference = svd(&z, rows, cols).s[0];
        prop_assert!((sigma - reference).abs() <= 1e-12 * reference, "{sigma} vs {reference}");
        let mut r = vec![0.0; cols];
        saddlefw::linalg::matvec_t(&z, rows, cols, &u, &mut r);
        let res: f64 = r.iter().zip(&v).map(|(a, b)| (a - sigma * b).powi(2)).sum::<f64>().sqrt();
        prop_assert!(res <= 1e-12 * sigma, "relative residual {:e}", res / sigma);
    }

    /// The projection (automatic path) agrees with the reference to 1e-9 relative in Frobenius
    /// norm on random, nearly rank-deficient, barely-outside and inside matrices, in both
    /// orientations; so does the accurate path forced.
    #[test]
    fn projection_matches_reference(seed in any::<u64>(), short in 1usize..10, long in 1usize..200,
                                    tall in any::<bool>(), kind in 0u8..4, radius_frac in 0.05f64..1.5) {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let (rows, cols) = if tall { (long.max(short), short) } else { (short, long.max(short)) };
        let (z, radius) = test_matrix(&mut rng, rows, cols, kind, radius_frac);
        let reference = reference_projection(&z, rows, cols, radius);
        let mut ws = GramWorkspace::default();
        for mode in [ProjectionMode::Auto, ProjectionMode::ForceJacobi] {
            let mut out = vec![0.0; z.len()];
            let path = project_nuclear(&z, rows, cols, radius, &mut out, &mut ws, mode);
            let err = rel_dist(&out, &reference);
            prop_assert!(err <= 1e-9, "{mode:?} took {path:?}: relative error {err:e} (kind {kind})");
        }
    }
}

/// A test matrix of one of four kinds and a radius: 0 random Gaussian (radius a fraction of the
/// nuclear norm), 1 rank-deficient plus 1e-10 noise, 2 barely outside (nuclear norm
/// `r (1 + 1e-8)`, tiny trailing singular values), 3 spectrum spread over 12 decades.
fn test_matrix(
    rng: &mut ChaCha8Rng,
    rows: usize,
    cols: usize,
    kind: u8,
    radius_frac: f64,
) -> (Vec<f64>, f64) {
    let k = rows.min(cols);
    let s: Vec<f64> = match kind {
        0 => {
            let z = gaussian(rng, rows * cols);
            let nuc: f64 = svd(&z, rows, cols).s.iter().sum();
            return (z, radius_frac * nuc);
        }
        1 => (0..k)
            .map(|i| {
                if i < k.div_ceil(2) {
                    1.0 + i as f64
                } else {
                    1e-10
                }
            })
            .collect(),
        2 => (0..k).map(|i| if i == 0 { 1.0 } else { 1e-9 }).collect(),
        _ => (0..k)
            .map(|i| 10f64.powf(-12.0 * i as f64 / k.max(1) as f64))
            .collect(),
    };
    let z = with_singular_values(rng, rows, cols, &s);
    let nuc: f64 = s.iter().sum();
    let radius = if kind == 2 {
        nuc / (1.0 + 1e-8)
    } else {
        radius_frac * nuc
    };
    (z, radius)
}

/// Negative control of the agreement check: a projection onto a ball whose radius is off by
/// 1e-7 relative (a small but real error) is rejected at 1e-9.
#[test]
fn projection_check_rejects_wrong_radius() {
    let mut rng = ChaCha8Rng::seed_from_u64(11);
    let (rows, cols) = (7, 150);
    let (z, radius) = test_matrix(&mut rng, rows, cols, 0, 0.5);
    let reference = reference_projection(&z, rows, cols, radius);
    let mut ws = GramWorkspace::default();
    let mut out = vec![0.0; z.len()];
    project_nuclear(
        &z,
        rows,
        cols,
        radius * (1.0 + 1e-7),
        &mut out,
        &mut ws,
        ProjectionMode::Auto,
    );
    assert!(rel_dist(&out, &reference) > 1e-9);
    project_nuclear(
        &z,
        rows,
        cols,
        radius,
        &mut out,
        &mut ws,
        ProjectionMode::Auto,
    );
    assert!(rel_dist(&out, &reference) <= 1e-9);
}

/// Negative control of the guard: on a matrix barely outside the ball with tiny trailing
/// singular values, the unguarded fast path is wrong by far more than 1e-9 (the squared
/// condition number of G), and the automatic path does not take it.
#[test]
fn fast_path_guard_is_needed() {
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    for (rows, cols) in [(8, 400), (400, 8), (20, 60)] {
        let (z, radius) = test_matrix(&mut rng, rows, cols, 2, 1.0);
        let reference = reference_projection(&z, rows, cols, radius);
        let mut ws = GramWorkspace::default();
        let mut out = vec![0.0; z.len()];
        project_nuclear(
            &z,
            rows,
            cols,
            radius,
            &mut out,
            &mut ws,
            ProjectionMode::ForceFast,
        );
        let fast_err = rel_dist(&out, &reference);
        assert!(
            fast_err > 1e-9,
            "{rows}x{cols}: unguarded fast path error {fast_err:e}"
        );
        let path = project_nuclear(
            &z,
            rows,
            cols,
            radius,
            &mut out,
            &mut ws,
            ProjectionMode::Auto,
        );
        assert_eq!(path, ProjectionPath::Jacobi);
        assert!(rel_dist(&out, &reference) <= 1e-9);
    }
}

/// The fast path is taken where it is accurate (a well separated random matrix far outside the
/// ball), so the guard is not vacuous either.
#[test]
fn fast_path_is_used_when_safe() {
    let mut rng = ChaCha8Rng::seed_from_u64(3);
    for (rows, cols) in [(20, 3000), (3000, 20), (60, 103)] {
        let (z, radius) = test_matrix(&mut rng, rows, cols, 0, 0.3);
        let mut ws = GramWorkspace::default();
        let mut out = vec![0.0; z.len()];
        let path = project_nuclear(
            &z,
            rows,
            cols,
            radius,
            &mut out,
            &mut ws,
            ProjectionMode::Auto,
        );
        assert_eq!(path, ProjectionPath::Fast, "{rows}x{cols}");
        assert!(rel_dist(&out, &reference_projection(&z, rows, cols, radius)) <= 1e-12);
    }
}

/// Negative control of the eigendecomposition check: swapping two eigenvectors is detected.
#[test]
fn eig_check_rejects_swapped_vectors() {
    let mut rng = ChaCha8Rng::seed_from_u64(2);
    let n = 6;
    let a = random_symmetric(&mut rng, n, 2);
    let mut e = SymEigen::default();
    assert!(e.full(&a, n));
    assert!(eig_error(&a, n, &e.values, &e.vectors) <= 1e-12);
    let mut w = e.vectors.clone();
    for c in 0..n {
        w.swap(c, n + c);
    }
    assert!(eig_error(&a, n, &e.values, &w) > 1e-6);
}

/// Non-finite input propagates as NaN (no panic, no endless iteration).
#[test]
fn non_finite_input_gives_nan() {
    let mut z = vec![1.0; 12];
    z[5] = f64::NAN;
    let mut ws = GramWorkspace::default();
    let mut out = vec![0.0; 12];
    project_nuclear(&z, 3, 4, 1.0, &mut out, &mut ws, ProjectionMode::Auto);
    assert!(out.iter().all(|v| v.is_nan()));
    let (mut u, mut v) = (vec![0.0; 3], vec![0.0; 4]);
    let r = gram_top_pair(&z, 3, 4, &mut ws, &mut u, &mut v);
    assert!(r.map_or(true, |s| !s.is_finite()));
}

/// The Jacobi rotations under `linalg::simd` give bit for bit what the baseline code gives
/// (the accurate projection path on a square-ish and a tall matrix, barely outside the ball so
/// that many rotations run). Negative control: another radius changes the output.
#[test]
fn jacobi_simd_matches_baseline_code() {
    let mut rng = ChaCha8Rng::seed_from_u64(16);
    for (rows, cols) in [(60, 103), (500, 7)] {
        let z = gaussian(&mut rng, rows * cols);
        let radius = svd(&z, rows, cols).s.iter().sum::<f64>() * (1.0 - 1e-9);
        let project = |simd: bool, radius: f64| {
            saddlefw::linalg::set_simd(simd);
            let mut ws = GramWorkspace::default();
            let mut out = vec![0.0; rows * cols];
            let path = project_nuclear(
                &z,
                rows,
                cols,
                radius,
                &mut out,
                &mut ws,
                ProjectionMode::ForceJacobi,
            );
            saddlefw::linalg::set_simd(true);
            assert_eq!(path, ProjectionPath::Jacobi);
            out
        };
        let fast = project(true, radius);
        let safe = project(false, radius);
        assert!(
            fast.iter()
                .zip(&safe)
                .all(|(a, b)| a.to_bits() == b.to_bits()),
            "{rows}x{cols}"
        );
        assert_ne!(project(false, radius * 0.999), safe);
    }
}

/// The tridiagonalisation under `linalg::simd` gives bit for bit the top eigenpair the baseline
/// code gives. Negative control: a perturbed matrix changes it.
#[test]
fn tridiagonalisation_simd_matches_baseline_code() {
    let mut rng = ChaCha8Rng::seed_from_u64(17);
    for n in [2, 5, 20, 60] {
        // both routes of the top pair (the Lanczos route from LANCZOS_MIN_ORDER)
        let a = random_symmetric(&mut rng, n, 0);
        let top = |simd: bool, a: &[f64]| {
            saddlefw::linalg::set_simd(simd);
            let mut v = vec![0.0; n];
            let mut e = SymEigen::default();
            let l = e.top(a, n, &mut v).unwrap();
            let mut t = vec![0.0; n];
            let lt = e.top_tridiagonal(a, n, &mut t).unwrap();
            v.extend(t);
            v.push(lt);
            saddlefw::linalg::set_simd(true);
            (
                l.to_bits(),
                v.iter().map(|x| x.to_bits()).collect::<Vec<_>>(),
            )
        };
        assert_eq!(top(true, &a), top(false, &a), "n = {n}");
        let mut b = a.clone();
        b[0] += 1e-3;
        assert_ne!(top(false, &b), top(false, &a));
    }
}

/// The Gram route's top pair, its projection and the Jacobi SVD are covariant under exact
/// scaling by powers of two over the whole exponent range: the same vectors, sigma and the
/// singular values scaled, the projection onto the scaled ball the scaled projection. Before
/// `SAFE_SCALES`: the pair `(0, e_1, e_1)` below `2^-540` and a failure above `2^520`, the
/// input returned as its own projection below `2^-540` and zero above `2^520`, singular values
/// 35% off near `2^300` (each fails with its rescaling removed, run as mutations).
#[test]
fn gram_route_and_svd_are_covariant_under_power_of_two_scaling() {
    use saddlefw::linalg::times_pow2;
    use saddlefw::sets::{ConvexSet, NuclearBall};
    use saddlefw::spectral::top_singular_pair;
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    for (rows, cols) in [(60, 103), (100, 20), (9000, 3)] {
        let z: Vec<f64> = (0..rows * cols)
            .map(|_| rng.sample::<f64, _>(StandardNormal))
            .collect();
        let pair = top_singular_pair(&z, rows, cols);
        let sv = svd(&z, rows, cols).s;
        let ball = |e: i32| NuclearBall::new(rows, cols, times_pow2(3.0, e)).unwrap();
        let mut proj = vec![0.0; z.len()];
        ball(0).project(&z, &mut proj);
        for e in [-1000, -560, -520, -300, -201, 201, 300, 400, 520, 1000] {
            let s: Vec<f64> = z.iter().map(|&v| times_pow2(v, e)).collect();
            let p = top_singular_pair(&s, rows, cols);
            let dot = |a: &[f64], b: &[f64]| a.iter().zip(b).map(|(x, y)| x * y).sum::<f64>();
            let (au, av) = (dot(&p.u, &pair.u), dot(&p.v, &pair.v));
            let sigma = times_pow2(p.sigma, -e);
            assert!(
                (sigma - pair.sigma).abs() <= 1e-13 * pair.sigma
                    && (au.abs() - 1.0).abs() <= 1e-12
                    && (av.abs() - 1.0).abs() <= 1e-12,
                "{rows}x{cols} at 2^{e}: sigma {sigma:e} vs {:e}, alignments {au} {av}",
                pair.sigma
            );
            let d = svd(&s, rows, cols).s;
            for (a, b) in d.iter().zip(&sv) {
                let a = times_pow2(*a, -e);
                assert!(
                    (a - b).abs() <= 1e-13 * sv[0],
                    "{rows}x{cols} at 2^{e}: singular value {a:e} vs {b:e}"
                );
            }
            let mut out = vec![0.0; z.len()];
            ball(e).project(&s, &mut out);
            let back: Vec<f64> = out.iter().map(|&o| times_pow2(o, -e)).collect();
            let err = rel_dist(&back, &proj);
            assert!(
                err <= 1e-12,
                "{rows}x{cols} at 2^{e}: projection off by {err:e}"
            );
        }
    }
    // inside the ball the input comes back as it is, also entries that a scaling by 2^-1000
    // would flush to zero
    let z = [times_pow2(1.0, 1000), times_pow2(1.0, -100), 0.0, 0.0];
    let mut out = [0.0; 4];
    let ball = NuclearBall::new(2, 2, times_pow2(1.0, 1001)).unwrap();
    ball.project(&z, &mut out);
    assert_eq!(out, z);
}
