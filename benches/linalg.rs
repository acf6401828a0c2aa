//! Hand-written kernels against the library route (faer), at the experiment shapes, side by side
//! in one run (issue 16, item 2). For each kernel the two routes are timed alternately
//! (`ROUNDS` rounds of about `SLICE` each; the minimum per-call time of each route is reported,
//! the statistic least disturbed by other jobs on the machine), and the table at the end gives
//! the ratio hand / library (> 1: the library is faster).
//!
//! Run: `cargo bench --bench linalg` (`-- FILTER` to run the rows whose name contains FILTER).
//! Also prints the single-core dense-product peak (a 1024 x 1024 x 1024 product through faer and
//! through matrixmultiply), the reference for the GFLOP/s of the DL gradient products.

use faer::linalg::matmul::matmul;
use faer::{Accum, Mat, MatMut, MatRef, Par, Side};
use ndarray::linalg::general_mat_mul;
use ndarray::{Array2, ArrayView2};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use saddlefw::spectral::{gram_top_pair, project_nuclear, GramWorkspace, ProjectionMode, SymEigen};
use std::hint::black_box;
use std::time::{Duration, Instant};

const ROUNDS: usize = 7;
const SLICE: Duration = Duration::from_millis(60);

fn gauss(rng: &mut ChaCha8Rng, n: usize) -> Vec<f64> {
    (0..n).map(|_| rng.gen::<f64>() * 2.0 - 1.0).collect()
}

/// Minimum seconds per call of `f` over one slice.
fn slice(f: &mut dyn FnMut()) -> f64 {
    f();
    let start = Instant::now();
    let mut calls = 0u64;
    while start.elapsed() < SLICE {
        f();
        calls += 1;
    }
    start.elapsed().as_secs_f64() / calls as f64
}

struct Row {
    name: String,
    flops: f64,
    hand: f64,
    lib: f64,
}

fn pair(
    rows: &mut Vec<Row>,
    filter: &Option<String>,
    name: &str,
    flops: f64,
    hand: &mut dyn FnMut(),
    lib: &mut dyn FnMut(),
) {
    if let Some(f) = filter {
        if !name.contains(f.as_str()) {
            return;
        }
    }
    let (mut h, mut l) = (f64::INFINITY, f64::INFINITY);
    for _ in 0..ROUNDS {
        h = h.min(slice(hand));
        l = l.min(slice(lib));
    }
    println!(
        "{name:44} hand {:10.2} us   faer {:10.2} us   hand/faer {:5.2}",
        h * 1e6,
        l * 1e6,
        h / l
    );
    rows.push(Row {
        name: name.into(),
        flops,
        hand: h,
        lib: l,
    });
}

fn rm(a: &[f64], r: usize, c: usize) -> MatRef<'_, f64> {
    MatRef::from_row_major_slice(a, r, c)
}
fn rm_mut(a: &mut [f64], r: usize, c: usize) -> MatMut<'_, f64> {
    MatMut::from_row_major_slice_mut(a, r, c)
}

/// `(m x k) (k x n)` through ndarray (matrixmultiply) and faer, row-major, optional transposes.
fn product(
    rows: &mut Vec<Row>,
    filter: &Option<String>,
    name: &str,
    m: usize,
    k: usize,
    n: usize,
    ta: bool,
    tb: bool,
    rng: &mut ChaCha8Rng,
) {
    let a = gauss(rng, m * k);
    let b = gauss(rng, k * n);
    let mut c1 = vec![0.0; m * n];
    let mut c2 = vec![0.0; m * n];
    // stored shapes: a is (m x k) or, transposed, (k x m); same for b
    let (ar, ac) = if ta { (k, m) } else { (m, k) };
    let (br, bc) = if tb { (n, k) } else { (k, n) };
    let av = ArrayView2::from_shape((ar, ac), &a).unwrap();
    let bv = ArrayView2::from_shape((br, bc), &b).unwrap();
    let av = if ta { av.reversed_axes() } else { av };
    let bv = if tb { bv.reversed_axes() } else { bv };
    let mut hand = || {
        let mut cv = ndarray::ArrayViewMut2::from_shape((m, n), &mut c1[..]).unwrap();
        general_mat_mul(1.0, &av, &bv, 0.0, &mut cv);
        black_box(&c1);
    };
    let fa = rm(&a, ar, ac);
    let fb = rm(&b, br, bc);
    let fa = if ta { fa.transpose() } else { fa };
    let fb = if tb { fb.transpose() } else { fb };
    let mut lib = || {
        matmul(rm_mut(&mut c2, m, n), Accum::Replace, fa, fb, 1.0, Par::Seq);
        black_box(&c2);
    };
    pair(
        rows,
        filter,
        name,
        2.0 * (m * k * n) as f64,
        &mut hand,
        &mut lib,
    );
    let err = c1
        .iter()
        .zip(&c2)
        .map(|(x, y)| (x - y).abs())
        .fold(0.0, f64::max);
    assert!(err < 1e-10 * k as f64, "{name}: routes disagree by {err}");
}

/// A `k x k` symmetric positive semidefinite matrix with a small relative gap at the top (as the
/// Gram matrices along the DL and NEWS20 paths: sigma_2/sigma_1 about 0.95).
fn gram_like(rng: &mut ChaCha8Rng, k: usize, n: usize) -> Vec<f64> {
    let mut z = gauss(rng, k * n);
    // boost two rows so the top two eigenvalues are close
    for j in 0..n {
        z[j] *= 4.0;
        z[n + j] *= 3.9;
    }
    let zv = ArrayView2::from_shape((k, n), &z).unwrap();
    let g: Array2<f64> = zv.dot(&zv.t());
    g.into_raw_vec_and_offset().0
}

/// A symmetric product `Z Z^T` (`k x n` Z) as faer's lower-triangle product ("hand") against
/// the full rectangular product ("faer"); flops counted for the full product.
fn sym_product(
    rows: &mut Vec<Row>,
    filter: &Option<String>,
    k: usize,
    n: usize,
    rng: &mut ChaCha8Rng,
) {
    use faer::linalg::matmul::triangular::{matmul as tri_matmul, BlockStructure};
    let z = gauss(rng, k * n);
    let (mut c1, mut c2) = (vec![0.0; k * k], vec![0.0; k * k]);
    let zv = rm(&z, k, n);
    pair(
        rows,
        filter,
        &format!("gram {k}x{n}: lower triangle vs full"),
        2.0 * (k * k * n) as f64,
        &mut || {
            tri_matmul(
                rm_mut(&mut c1, k, k),
                BlockStructure::TriangularLower,
                Accum::Replace,
                zv,
                BlockStructure::Rectangular,
                zv.transpose(),
                BlockStructure::Rectangular,
                1.0,
                Par::Seq,
            );
            black_box(&c1);
        },
        &mut || {
            matmul(
                rm_mut(&mut c2, k, k),
                Accum::Replace,
                zv,
                zv.transpose(),
                1.0,
                Par::Seq,
            );
            black_box(&c2);
        },
    );
}

fn eig(rows: &mut Vec<Row>, filter: &Option<String>, k: usize, rng: &mut ChaCha8Rng) {
    let g = gram_like(rng, k, 3 * k);
    let mut se = SymEigen::default();
    let mut top = vec![0.0; k];
    let gm = rm(&g, k, k);
    pair(
        rows,
        filter,
        &format!("eig full {k}x{k}"),
        0.0,
        &mut || {
            black_box(se.full(&g, k));
        },
        &mut || {
            black_box(gm.self_adjoint_eigen(Side::Lower).unwrap());
        },
    );
    pair(
        rows,
        filter,
        &format!("eig top pair {k}x{k}"),
        0.0,
        &mut || {
            black_box(se.top(&g, k, &mut top));
        },
        &mut || {
            black_box(gm.self_adjoint_eigen(Side::Lower).unwrap());
        },
    );
    // the two routes of `top` ("hand": Lanczos with its certificate, "faer": the tridiagonal
    // route); LANCZOS_MIN_ORDER is where the first wins
    let mut top2 = vec![0.0; k];
    let mut se2 = SymEigen::default();
    pair(
        rows,
        filter,
        &format!("eig top pair {k}x{k}: lanczos vs tridiagonal"),
        0.0,
        &mut || {
            black_box(se.top_lanczos(&g, k, &mut top));
        },
        &mut || {
            black_box(se2.top_tridiagonal(&g, k, &mut top2));
        },
    );
    // the certificate's factorisation: hand-written against faer's Cholesky
    let top_value = se2.top_tridiagonal(&g, k, &mut top2).unwrap();
    let sigma = top_value * (1.0 + 1e-12);
    let shifted = Mat::<f64>::from_fn(k, k, |i, j| f64::from(i == j) * sigma - g[i * k + j]);
    let mut l = vec![0.0; k * k];
    let mut shifted_work = shifted.clone();
    let mut scratch2 = Vec::new();
    let req = faer::linalg::cholesky::llt::factor::cholesky_in_place_scratch::<f64>(
        k,
        Par::Seq,
        Default::default(),
    );
    let mut scratch = vec![std::mem::MaybeUninit::new(0u8); req.unaligned_bytes_required()];
    pair(
        rows,
        filter,
        &format!("cholesky {k}x{k} (sigma I - G): ours (faer in place + layout) vs faer"),
        0.0,
        &mut || {
            black_box(saddlefw::spectral::cholesky_shifted(
                &g,
                k,
                sigma,
                &mut l,
                &mut scratch2,
            ));
        },
        &mut || {
            // faer's in-place factorisation on one thread, scratch allocated once
            shifted_work.copy_from(&shifted);
            let stack = faer::dyn_stack::MemStack::new(&mut scratch);
            black_box(
                faer::linalg::cholesky::llt::factor::cholesky_in_place(
                    shifted_work.as_mut(),
                    Default::default(),
                    Par::Seq,
                    stack,
                    Default::default(),
                )
                .is_ok(),
            );
        },
    );
    pair(
        rows,
        filter,
        &format!("eigenvalues {k}x{k}"),
        0.0,
        &mut || {
            black_box(saddlefw::linalg::sym_eigenvalues(&g, k));
        },
        &mut || {
            black_box(gm.self_adjoint_eigenvalues(Side::Lower).unwrap());
        },
    );
}

/// The code under `linalg::simd` (tridiagonalisation of the top eigenpair, Jacobi rotations of
/// the accurate projection path) against the same code compiled for the baseline target
/// (`linalg::set_simd(false)`); "hand" is the SIMD path, "faer" the baseline in these rows.
fn simd(
    rows_out: &mut Vec<Row>,
    filter: &Option<String>,
    rows: usize,
    cols: usize,
    rng: &mut ChaCha8Rng,
) {
    let k = rows.min(cols);
    let g = gram_like(rng, k, 3 * k);
    let mut se = SymEigen::default();
    let mut top = vec![0.0; k];
    let mut timed = |name: String, f: &mut dyn FnMut()| {
        let f = std::cell::RefCell::new(f);
        pair(
            rows_out,
            filter,
            &name,
            0.0,
            &mut || {
                saddlefw::linalg::set_simd(true);
                (f.borrow_mut())();
            },
            &mut || {
                saddlefw::linalg::set_simd(false);
                (f.borrow_mut())();
            },
        );
        saddlefw::linalg::set_simd(true);
    };
    timed(
        format!("simd: top pair {k}x{k} simd vs baseline"),
        &mut || {
            black_box(se.top(&g, k, &mut top));
        },
    );
    let z = gauss(rng, rows * cols);
    let nuc = rm(&z, rows, cols)
        .singular_values()
        .unwrap()
        .iter()
        .sum::<f64>();
    let mut ws = GramWorkspace::default();
    let mut out = vec![0.0; rows * cols];
    timed(
        format!("simd: Jacobi projection {rows}x{cols} simd vs baseline"),
        &mut || {
            black_box(project_nuclear(
                &z,
                rows,
                cols,
                nuc * (1.0 - 1e-9),
                &mut out,
                &mut ws,
                ProjectionMode::ForceJacobi,
            ));
        },
    );
}

/// The nuclear LMO at `rows x cols`: the crate's Gram route (hand-written eigensolver) against the
/// Gram route with faer's products and eigensolver, and faer's thin SVD.
fn lmo(
    rows_out: &mut Vec<Row>,
    filter: &Option<String>,
    rows: usize,
    cols: usize,
    rng: &mut ChaCha8Rng,
) {
    let z = gauss(rng, rows * cols);
    let mut ws = GramWorkspace::default();
    let (mut u, mut v) = (vec![0.0; rows], vec![0.0; cols]);
    let k = rows.min(cols);
    let mut g = vec![0.0; k * k];
    let zm = rm(&z, rows, cols);
    let zs = if rows <= cols { zm } else { zm.transpose() };
    let mut lib = || {
        matmul(
            rm_mut(&mut g, k, k),
            Accum::Replace,
            zs,
            zs.transpose(),
            1.0,
            Par::Seq,
        );
        let e = rm(&g, k, k).self_adjoint_eigen(Side::Lower).unwrap();
        black_box(e.U().col(k - 1)[0]);
    };
    pair(
        rows_out,
        filter,
        &format!("nuclear LMO {rows}x{cols} (Gram route)"),
        0.0,
        &mut || {
            black_box(gram_top_pair(&z, rows, cols, &mut ws, &mut u, &mut v));
        },
        &mut lib,
    );
    pair(
        rows_out,
        filter,
        &format!("nuclear LMO {rows}x{cols} (faer thin SVD)"),
        0.0,
        &mut || {
            black_box(gram_top_pair(&z, rows, cols, &mut ws, &mut u, &mut v));
        },
        &mut || {
            black_box(zm.thin_svd().unwrap());
        },
    );
    // projection: z scaled well outside the ball (fast path) and just outside (accurate path)
    let mut out = vec![0.0; rows * cols];
    let mut out2 = vec![0.0; rows * cols];
    let nuc = zm.singular_values().unwrap().iter().sum::<f64>();
    for (label, radius) in [("far", 0.3 * nuc), ("near", nuc * (1.0 - 1e-9))] {
        let mut lib = || {
            let s = zm.thin_svd().unwrap();
            let sv: Vec<f64> = (0..k).map(|i| s.S()[i]).collect();
            let mut w = vec![0.0; k];
            saddlefw::linalg::project_l1_ball(&sv, radius, &mut w);
            let mut us = s.U().to_owned();
            for j in 0..k {
                for i in 0..rows {
                    us[(i, j)] *= w[j];
                }
            }
            matmul(
                rm_mut(&mut out2, rows, cols),
                Accum::Replace,
                us.as_ref(),
                s.V().transpose(),
                1.0,
                Par::Seq,
            );
            black_box(&out2);
        };
        pair(
            rows_out,
            filter,
            &format!("nuclear projection {rows}x{cols} ({label})"),
            0.0,
            &mut || {
                black_box(project_nuclear(
                    &z,
                    rows,
                    cols,
                    radius,
                    &mut out,
                    &mut ws,
                    ProjectionMode::Auto,
                ));
            },
            &mut lib,
        );
        let err = out
            .iter()
            .zip(&out2)
            .map(|(x, y)| (x - y).abs())
            .fold(0.0, f64::max);
        println!("    projection routes differ by {err:.2e} (max entry)");
    }
    if rows * cols <= 100_000 {
        pair(
            rows_out,
            filter,
            &format!("Jacobi SVD {rows}x{cols} (reference)"),
            0.0,
            &mut || {
                black_box(saddlefw::linalg::svd(&z, rows, cols));
            },
            &mut || {
                black_box(zm.thin_svd().unwrap());
            },
        );
    }
}

fn main() {
    let filter = std::env::args().skip(1).find(|a| !a.starts_with('-'));
    let load = std::fs::read_to_string("/proc/loadavg").unwrap_or_default();
    println!(
        "load average before: {}",
        load.split_whitespace()
            .take(3)
            .collect::<Vec<_>>()
            .join(" ")
    );
    let mut rng = ChaCha8Rng::seed_from_u64(16);
    let mut rows = Vec::new();
    let f = &filter;
    // DL gradient products (m = 100, q = 60, n' = 103)
    product(
        &mut rows,
        f,
        "DL D'K 100x60 * 60x60",
        100,
        60,
        60,
        false,
        false,
        &mut rng,
    );
    product(
        &mut rows,
        f,
        "DL D'C' 100x60 * 60x103",
        100,
        60,
        103,
        false,
        false,
        &mut rng,
    );
    product(
        &mut rows,
        f,
        "DL R C'^T 100x103 * (60x103)^T",
        100,
        103,
        60,
        false,
        true,
        &mut rng,
    );
    product(
        &mut rows,
        f,
        "DL D'^T R (100x60)^T * 100x103",
        60,
        100,
        103,
        true,
        false,
        &mut rng,
    );
    // the carried step's (session 12) q x q x n' product G_D C'
    product(
        &mut rows,
        f,
        "DL G_D C' 60x60 * 60x103",
        60,
        60,
        103,
        false,
        false,
        &mut rng,
    );
    product(
        &mut rows,
        f,
        "DL Gram 60x103 * (60x103)^T",
        60,
        103,
        60,
        false,
        true,
        &mut rng,
    );
    product(
        &mut rows,
        f,
        "NEWS20 Gram (62061x20)^T * 62061x20",
        20,
        62061,
        20,
        true,
        false,
        &mut rng,
    );
    product(
        &mut rows,
        f,
        "NEWS20 M Zs^T 62061x20 * 20x20",
        62061,
        20,
        20,
        false,
        false,
        &mut rng,
    );
    sym_product(&mut rows, f, 60, 103, &mut rng);
    sym_product(&mut rows, f, 60, 100, &mut rng);
    sym_product(&mut rows, f, 40, 103, &mut rng);
    sym_product(&mut rows, f, 30, 103, &mut rng);
    sym_product(&mut rows, f, 20, 103, &mut rng);
    eig(&mut rows, f, 60, &mut rng);
    eig(&mut rows, f, 40, &mut rng);
    eig(&mut rows, f, 30, &mut rng);
    eig(&mut rows, f, 20, &mut rng);
    simd(&mut rows, f, 60, 103, &mut rng);
    simd(&mut rows, f, 62061, 20, &mut rng);
    lmo(&mut rows, f, 60, 103, &mut rng);
    lmo(&mut rows, f, 62061, 20, &mut rng);
    if filter.as_deref().map_or(true, |x| "peak".contains(x)) {
        product(
            &mut rows,
            &None,
            "peak 1024x1024 * 1024x1024",
            1024,
            1024,
            1024,
            false,
            false,
            &mut rng,
        );
    }
    let load = std::fs::read_to_string("/proc/loadavg").unwrap_or_default();
    println!(
        "load average after: {}",
        load.split_whitespace()
            .take(3)
            .collect::<Vec<_>>()
            .join(" ")
    );
    println!(
        "\n| kernel | hand-written (us) | faer (us) | hand / faer | GFLOP/s hand | GFLOP/s faer |"
    );
    println!("|---|---|---|---|---|---|");
    for r in &rows {
        let gf = |t: f64| {
            if r.flops > 0.0 {
                format!("{:.1}", r.flops / t / 1e9)
            } else {
                "-".into()
            }
        };
        println!(
            "| {} | {:.2} | {:.2} | {:.2} | {} | {} |",
            r.name,
            r.hand * 1e6,
            r.lib * 1e6,
            r.hand / r.lib,
            gf(r.hand),
            gf(r.lib)
        );
    }
}
