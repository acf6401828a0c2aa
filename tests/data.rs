//! LIBSVM reader, CSR kernels, scaling and subsampling.
//!
//! The parser fuzz test runs `SADDLEFW_FUZZ_CASES` mutated inputs (default 2,000) through the
//! shared mutation engine (tests/common/fuzz.rs); docs/fuzzing.md has the full campaign.

use crate::common::fuzz::{Campaign, Outcome};
use saddlefw::data::{self, Csr, Dataset, LibsvmOptions, Scaling, SparseMatrix};
use saddlefw::Error;
use std::path::{Path, PathBuf};

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures/libsvm")
        .join(name)
}

fn read(name: &str) -> saddlefw::Result<Dataset> {
    data::read_libsvm(&fixture(name), &LibsvmOptions::default())
}

/// The error of a malformed fixture: its location and reason.
fn input_error(name: &str) -> (String, String, String) {
    match read(name) {
        Err(Error::Input {
            input,
            location,
            reason,
        }) => (input, location, reason),
        other => panic!("{name}: expected an input error, got {other:?}"),
    }
}

#[test]
fn valid_fixture_parses_with_label_mapping() {
    let d = read("valid.txt").unwrap();
    assert_eq!(d.n_samples(), 5);
    assert_eq!(d.n_features(), 7);
    assert_eq!(d.features.nnz(), 9);
    assert_eq!(d.classes, vec![1, 3, 7]);
    assert_eq!(d.labels, vec![1, 0, 1, 2, 0]);
    assert_eq!(d.class_counts(), vec![2, 2, 1]);
    let dense = d.features.to_dense();
    let expect_row0 = [0.5, 0.0, 0.0, 2.0, 0.0, 0.0, 0.1];
    assert_eq!(&dense[..7], &expect_row0);
    assert_eq!(&dense[7..14], &[0.0, 1.0, -2.5, 0.0, 0.0, 0.0, 0.0]);
    assert_eq!(&dense[14..21], &[1.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0]); // CRLF, tabs
                                                                      // the reader's output satisfies the validated constructor's invariants
    let f = &d.features;
    Csr::new(
        f.n_rows(),
        f.n_cols(),
        f.indptr().to_vec(),
        f.indices().to_vec(),
        f.values().to_vec(),
    )
    .unwrap();
}

#[test]
fn bzip2_fixture_equals_plain() {
    let plain = read("valid.txt").unwrap();
    let bz = read("valid.txt.bz2").unwrap();
    assert_eq!(plain.features, bz.features);
    assert_eq!(plain.labels, bz.labels);
    assert_eq!(plain.classes, bz.classes);
}

#[test]
fn declared_feature_count() {
    let opts = LibsvmOptions {
        n_features: Some(10),
    };
    let d = data::read_libsvm(&fixture("valid.txt"), &opts).unwrap();
    assert_eq!(d.n_features(), 10);
    let opts = LibsvmOptions {
        n_features: Some(6),
    };
    match data::read_libsvm(&fixture("valid.txt"), &opts) {
        Err(Error::Input {
            location, reason, ..
        }) => {
            assert_eq!(location, "line 1");
            assert!(reason.contains("exceeds"), "{reason}");
        }
        other => panic!("expected an error, got {other:?}"),
    }
}

#[test]
fn malformed_fixtures_name_input_line_and_reason() {
    let cases = [
        ("bad_value_token.txt", "line 1", "not a number"),
        (
            "bad_token_no_colon.txt",
            "line 2",
            "expected <index>:<value>",
        ),
        ("index_zero.txt", "line 2", "index 0"),
        ("index_non_integer.txt", "line 3", "not a positive integer"),
        ("unsorted.txt", "line 1", "strictly ascending: 3 after 5"),
        ("duplicate.txt", "line 2", "duplicate index 2"),
        ("non_finite.txt", "line 1", "not finite"),
        ("empty.txt", "line 1", "empty file"),
        ("comments_only.txt", "line 3", "empty file"),
        ("label_non_integer.txt", "line 2", "not an integer class id"),
        ("label_not_number.txt", "line 2", "bad label"),
    ];
    for (file, line, what) in cases {
        let (input, location, reason) = input_error(file);
        assert!(input.ends_with(file), "{file}: input {input}");
        assert_eq!(location, line, "{file}: {reason}");
        assert!(reason.contains(what), "{file}: {reason:?} lacks {what:?}");
        // the Display form carries all three
        let msg = read(file).unwrap_err().to_string();
        assert!(msg.contains(file) && msg.contains(line), "{msg}");
    }
}

#[test]
fn missing_file_and_corrupt_bzip2_are_errors() {
    assert!(matches!(read("no_such_file.txt"), Err(Error::Io { .. })));
    let mut bytes = std::fs::read(fixture("valid.txt.bz2")).unwrap();
    bytes.truncate(bytes.len() / 2);
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("cut.bz2");
    std::fs::write(&p, &bytes).unwrap();
    match data::read_libsvm(&p, &LibsvmOptions::default()) {
        Err(Error::Input { location, .. }) => assert_eq!(location, "bzip2 stream"),
        other => panic!("expected a bzip2 error, got {other:?}"),
    }
}

/// The LIBSVM syntax, for the mutation engine.
const LIBSVM_ALPHABET: &[u8] = b"0123456789:. \t\n\r-+e#naif";
/// Tokens that matter to a LIBSVM line: index 0, huge indices, qid, extra colons.
const LIBSVM_TOKENS: &[&str] = &[
    " 0:1",
    " 4294967297:1",
    " 18446744073709551615:2",
    " qid:3",
    "::",
    " 1:",
    "\n\n",
    "# c\n",
];

/// Whatever the bytes, the parser returns; an accepted input yields a valid CSR matrix.
fn check_parse(bytes: &[u8]) -> Outcome {
    match data::parse_libsvm(bytes, "fuzz", &LibsvmOptions::default()) {
        Ok(d) => {
            let f = &d.features;
            assert!(Csr::new(
                f.n_rows(),
                f.n_cols(),
                f.indptr().to_vec(),
                f.indices().to_vec(),
                f.values().to_vec()
            )
            .is_ok());
            assert_eq!(d.labels.len(), d.n_samples());
            assert!(d.labels.iter().all(|&l| (l as usize) < d.n_classes()));
            Outcome::Accepted
        }
        Err(Error::Input { location, .. }) => {
            assert!(location.starts_with("line "), "{location}");
            Outcome::Rejected
        }
        Err(e) => panic!("unexpected error kind {e:?}"),
    }
}

#[test]
fn fuzz_parser_never_panics() {
    let mut c = Campaign::new(
        "libsvm",
        vec![std::fs::read(fixture("valid.txt")).unwrap()],
        LIBSVM_ALPHABET,
    );
    c.tokens = LIBSVM_TOKENS;
    c.max_mutations = 24;
    c.run(check_parse);
}

#[test]
fn fuzz_bzip2_never_panics() {
    let mut c = Campaign::new(
        "bzip2",
        vec![std::fs::read(fixture("valid.txt.bz2")).unwrap()],
        LIBSVM_ALPHABET,
    );
    c.max_mutations = 8;
    // the full count: the stream is small, 100,000 inputs take about a second
    c.run(
        |bytes| match data::libsvm::decompress_if_bzip2("fuzz.bz2", bytes.to_vec()) {
            Ok(text) => {
                check_parse(&text);
                Outcome::Accepted
            }
            Err(Error::Input { location, .. }) => {
                assert_eq!(location, "bzip2 stream");
                Outcome::Rejected
            }
            Err(e) => panic!("unexpected error kind {e:?}"),
        },
    );
}

/// A random sparse matrix with a few non-zeros per row (seeded, deterministic).
fn random_csr(rows: usize, cols: usize, seed: u64) -> (Vec<f64>, Csr) {
    use rand::{Rng, SeedableRng};
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    let dense: Vec<f64> = (0..rows * cols)
        .map(|_| {
            if rng.gen::<f64>() < 0.3 {
                rng.gen_range(-2.0..2.0)
            } else {
                0.0
            }
        })
        .collect();
    let csr = Csr::from_dense(rows, cols, &dense).unwrap();
    (dense, csr)
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

#[test]
fn csr_products_and_transpose_match_dense() {
    let (m, n, k) = (13, 9, 4);
    let (a, csr) = random_csr(m, n, 1);
    let sp = SparseMatrix::new(csr.clone());
    // transpose
    let at = sp.at().to_dense();
    for i in 0..m {
        for j in 0..n {
            assert_eq!(at[j * m + i], a[i * n + j]);
        }
    }
    assert_eq!(sp.at().transpose(), csr);
    // A W and A^T R
    let w: Vec<f64> = (0..n * k).map(|i| (i as f64 * 0.37).sin()).collect();
    let mut out = vec![f64::NAN; m * k];
    sp.mul(&w, k, &mut out);
    let expect = dense_mul(&a, m, n, &w, k);
    for (o, e) in out.iter().zip(&expect) {
        assert!((o - e).abs() <= 1e-13 * (1.0 + e.abs()));
    }
    let r: Vec<f64> = (0..m * k).map(|i| (i as f64 * 0.11).cos()).collect();
    let mut out = vec![f64::NAN; n * k];
    sp.tmul(&r, k, &mut out);
    let a_t: Vec<f64> = (0..n * m).map(|p| a[(p % m) * n + p / m]).collect();
    let expect = dense_mul(&a_t, n, m, &r, k);
    for (o, e) in out.iter().zip(&expect) {
        assert!((o - e).abs() <= 1e-13 * (1.0 + e.abs()));
    }
}

#[test]
fn csr_constructor_rejects_invalid_parts() {
    assert!(Csr::new(1, 3, vec![0, 2], vec![0, 2], vec![1.0, 2.0]).is_ok());
    // negative controls: each broken invariant is rejected
    assert!(Csr::new(1, 3, vec![0, 2], vec![2, 0], vec![1.0, 2.0]).is_err());
    assert!(Csr::new(1, 3, vec![0, 2], vec![1, 1], vec![1.0, 2.0]).is_err());
    assert!(Csr::new(1, 3, vec![0, 2], vec![0, 3], vec![1.0, 2.0]).is_err());
    assert!(Csr::new(1, 3, vec![0, 1], vec![0, 2], vec![1.0, 2.0]).is_err());
    assert!(Csr::new(1, 3, vec![0, 2], vec![0, 2], vec![1.0, f64::NAN]).is_err());
    assert!(Csr::new(2, 3, vec![0, 2], vec![0, 2], vec![1.0, 2.0]).is_err());
}

#[test]
fn scaling_options() {
    let d = read("valid.txt").unwrap();
    let r = d.scaled(Scaling::RowL2);
    for v in r.features.row_norms_sq() {
        assert!((v - 1.0).abs() < 1e-15);
    }
    let c = d.scaled(Scaling::ColMaxAbs);
    let dense = c.features.to_dense();
    for j in 0..c.n_features() {
        let m = (0..c.n_samples())
            .map(|i| dense[i * c.n_features() + j].abs())
            .fold(0.0, f64::max);
        assert!(m == 0.0 || (m - 1.0).abs() < 1e-15, "column {j}: {m}");
    }
    assert_eq!(d.scaled(Scaling::None), d);
    for s in [Scaling::None, Scaling::RowL2, Scaling::ColMaxAbs] {
        assert_eq!(s.to_string().parse::<Scaling>().unwrap(), s);
    }
    assert!("l2".parse::<Scaling>().is_err());
}

#[test]
fn subsampling_is_seeded_and_keeps_rows() {
    let (_, csr) = random_csr(40, 6, 3);
    let d = Dataset {
        name: "rand".into(),
        labels: (0..40).map(|i| (i % 3) as u32).collect(),
        classes: vec![-1, 0, 1],
        features: csr,
    };
    let a = d.subsample(15, 9).unwrap();
    let b = d.subsample(15, 9).unwrap();
    let c = d.subsample(15, 10).unwrap();
    assert_eq!(a.features, b.features);
    assert_eq!(a.labels, b.labels);
    assert_ne!(
        a.features, c.features,
        "different seeds should pick different rows"
    );
    assert_eq!(a.n_samples(), 15);
    assert_eq!(a.n_features(), 6);
    assert_eq!(a.classes, d.classes);
    // every picked row is a row of the original with the same label (rows kept in order)
    let full = d.features.to_dense();
    let sub = a.features.to_dense();
    let mut start = 0;
    for i in 0..15 {
        let row = &sub[i * 6..(i + 1) * 6];
        let j = (start..40)
            .find(|&j| &full[j * 6..(j + 1) * 6] == row && d.labels[j] == a.labels[i])
            .expect("row from the original, in order");
        start = j + 1;
    }
    assert!(d.subsample(0, 1).is_err());
    assert!(d.subsample(41, 1).is_err());
}

#[test]
fn news20_full_file_matches_the_data_readme() {
    let path = data::resolve_path(&data::NEWS20, None);
    if !path.exists() {
        eprintln!(
            "SKIP news20 test: {} not found (set {} to the folder holding news20.bz2)",
            path.display(),
            data::DATA_DIR_ENV
        );
        return;
    }
    let t = std::time::Instant::now();
    let d = data::read_libsvm(&path, &LibsvmOptions::default()).unwrap();
    eprintln!("news20 loaded in {:.3} s", t.elapsed().as_secs_f64());
    assert_eq!(d.n_samples(), data::NEWS20.rows);
    assert_eq!(d.n_features(), data::NEWS20.cols);
    assert_eq!(Some(d.features.nnz()), data::NEWS20.nnz);
    assert_eq!(d.n_classes(), data::NEWS20.classes);
    assert_eq!(d.classes, (1..=20).collect::<Vec<i64>>());
    let counts = d.class_counts();
    assert!(
        counts.iter().all(|&c| (780..=800).contains(&c)),
        "{counts:?}"
    );
    let v = d.features.values();
    assert!(v
        .iter()
        .all(|&x| (1.0..=549.0).contains(&x) && x.fract() == 0.0));
    assert_eq!(v.iter().cloned().fold(0.0, f64::max), 549.0);
    let t = std::time::Instant::now();
    let sp = SparseMatrix::new(d.features.clone());
    eprintln!("news20 transpose in {:.3} s", t.elapsed().as_secs_f64());
    assert_eq!(sp.at().nnz(), d.features.nnz());
}
