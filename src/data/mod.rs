//! Labelled sparse data sets: the LIBSVM reader ([`libsvm`]), the CSR matrix ([`csr`]), feature
//! scaling, deterministic row subsampling, and where the paper's data sets live.
//!
//! # Data files (never committed to the repository)
//!
//! * **NEWS20** (LIBSVM multiclass `news20.bz2`, training split, unscaled term counts;
//!   15,935 samples, 62,061 features, 1,272,569 non-zeros, 20 classes): read from
//!   [`DEFAULT_DATA_DIR`]`/news20.bz2` (`../shared/data/news20.bz2` relative to the current
//!   directory), or from `$SADDLEFW_DATA_DIR/news20.bz2` when that variable is set, or from any
//!   path given explicitly (`--data PATH`). The shared copy is byte-identical to LIBSVM's file
//!   (sha256 of the `.bz2`: [`NEWS20`]`.sha256_bz2`).
//! * **RCV1** (`rcv1_train.multiclass.bz2`, 15,564 samples, 47,236 features, 51 distinct
//!   labels in the training file according to a public catalog; not verified here) is not
//!   shipped. Download it from the LIBSVM multiclass data sets page
//!   <https://www.csie.ntu.edu.tw/~cjlin/libsvmtools/datasets/multiclass.html> (file
//!   `rcv1_train.multiclass.bz2`, see [`RCV1`]`.url`), check
//!   `sha256sum rcv1_train.multiclass.bz2` against [`RCV1`]`.sha256_bz2`, and pass its path.
//!
//! # Feature scaling
//! NEWS20 holds raw term counts (1 to 549) and the paper does not say how it scaled them.
//! [`Scaling::RowL2`] (every sample scaled to unit Euclidean norm, the usual cosine
//! normalisation of text data and the normalisation LIBSVM's RCV1 files already carry) is the
//! default; it makes `max_i ||a_i|| = 1`, so the scores `theta_j^T a_i` are bounded by the
//! nuclear radius r and the DRO constants do not depend on document length. [`Scaling::None`]
//! keeps the counts, [`Scaling::ColMaxAbs`] divides each feature by its largest absolute value
//! (what `svm-scale -l 0 -u 1` does on non-negative data; LIBSVM's `news20.scale` was produced
//! by a scaling of this kind, but no reference copy was available to compare).
//!
//! # Example
//! ```
//! use saddlefw::data::{parse_libsvm, LibsvmOptions};
//! let d = parse_libsvm(b"+1 1:0.5 3:2\n-1 2:1\n", "tiny.txt", &LibsvmOptions::default()).unwrap();
//! assert_eq!((d.n_samples(), d.n_features(), d.n_classes()), (2, 3, 2));
//! // a malformed line is an error naming the input and the line
//! let e = parse_libsvm(b"+1 1:0.5\n-1 2:x\n", "bad.txt", &LibsvmOptions::default()).unwrap_err();
//! assert!(e.to_string().starts_with("bad.txt: line 2:"), "{e}");
//! ```

pub mod csr;
pub mod libsvm;

pub use csr::{Csr, SparseMatrix};
pub use libsvm::{parse_libsvm, read_libsvm, LibsvmOptions};

use crate::{Error, Result};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use std::fmt;
use std::path::{Path, PathBuf};
use std::str::FromStr;

/// Default folder of the shared data files, relative to the current directory.
pub const DEFAULT_DATA_DIR: &str = "../shared/data";
/// Environment variable that overrides [`DEFAULT_DATA_DIR`].
pub const DATA_DIR_ENV: &str = "SADDLEFW_DATA_DIR";

/// A published data set: where to get it and what it must contain.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct KnownDataset {
    /// Short name (`news20`, `rcv1`).
    pub name: &'static str,
    /// LIBSVM's file name.
    pub file: &'static str,
    /// Download address.
    pub url: &'static str,
    /// sha256 of the `.bz2` file.
    pub sha256_bz2: &'static str,
    /// Expected samples, features, non-zeros (None: unknown) and distinct labels.
    pub rows: usize,
    pub cols: usize,
    pub nnz: Option<usize>,
    pub classes: usize,
}

/// LIBSVM multiclass `news20` (training split, unscaled); figures from `shared/data/README.md`.
pub const NEWS20: KnownDataset = KnownDataset {
    name: "news20",
    file: "news20.bz2",
    url: "https://www.csie.ntu.edu.tw/~cjlin/libsvmtools/datasets/multiclass/news20.bz2",
    sha256_bz2: "8c79851f6f5fdc5540a0d04a5ab728353c42d26b84e73f93bda301c06c15ffe9",
    rows: 15_935,
    cols: 62_061,
    nnz: Some(1_272_569),
    classes: 20,
};

/// LIBSVM multiclass `rcv1_train.multiclass`; figures from a public catalog (unverified here).
pub const RCV1: KnownDataset = KnownDataset {
    name: "rcv1",
    file: "rcv1_train.multiclass.bz2",
    url: "https://www.csie.ntu.edu.tw/~cjlin/libsvmtools/datasets/multiclass/rcv1_train.multiclass.bz2",
    sha256_bz2: "79691e3f974aa6a08d5e3116c61aff822fbdb2725e99ed27fde4351af51076a8",
    rows: 15_564,
    cols: 47_236,
    nnz: None,
    classes: 51,
};

/// The data folder: `$SADDLEFW_DATA_DIR` when set and non-empty, else [`DEFAULT_DATA_DIR`].
pub(crate) fn data_dir() -> PathBuf {
    match std::env::var_os(DATA_DIR_ENV) {
        Some(d) if !d.is_empty() => PathBuf::from(d),
        _ => PathBuf::from(DEFAULT_DATA_DIR),
    }
}

/// The path of a known data set: `explicit` when given, else `data_dir()/file`.
pub fn resolve_path(known: &KnownDataset, explicit: Option<&Path>) -> PathBuf {
    match explicit {
        Some(p) => p.to_path_buf(),
        None => data_dir().join(known.file),
    }
}

/// A labelled data set: `features` is `n x d` (one sample per row), `labels[i]` in `0..k` is
/// the class index of sample i, and `classes[c]` is the original label of class index c
/// (ascending), so the mapping is recorded.
#[derive(Debug, Clone, PartialEq)]
pub struct Dataset {
    pub name: String,
    pub features: Csr,
    pub labels: Vec<u32>,
    pub classes: Vec<i64>,
}

impl Dataset {
    /// Number of samples n.
    pub fn n_samples(&self) -> usize {
        self.features.n_rows()
    }
    /// Number of features d.
    pub fn n_features(&self) -> usize {
        self.features.n_cols()
    }
    /// Number of classes k.
    pub fn n_classes(&self) -> usize {
        self.classes.len()
    }
    /// Samples per class index.
    pub fn class_counts(&self) -> Vec<usize> {
        let mut c = vec![0; self.n_classes()];
        for &l in &self.labels {
            c[l as usize] += 1;
        }
        c
    }
    /// A copy with the features scaled (see [`Scaling`]).
    pub fn scaled(&self, scaling: Scaling) -> Dataset {
        let mut out = self.clone();
        match scaling {
            Scaling::None => {}
            Scaling::RowL2 => {
                let s: Vec<f64> = out
                    .features
                    .row_norms_sq()
                    .into_iter()
                    .map(|v| if v > 0.0 { 1.0 / v.sqrt() } else { 1.0 })
                    .collect();
                out.features.scale_rows(&s);
            }
            Scaling::ColMaxAbs => {
                let mut m = vec![0.0f64; out.n_features()];
                for (&j, &v) in out.features.indices().iter().zip(out.features.values()) {
                    m[j as usize] = m[j as usize].max(v.abs());
                }
                let s: Vec<f64> = m
                    .into_iter()
                    .map(|v| if v > 0.0 { 1.0 / v } else { 1.0 })
                    .collect();
                out.features.scale_cols(&s);
            }
        }
        out
    }
    /// `rows` samples drawn without replacement by a [`ChaCha8Rng`] seeded with `seed`
    /// (`rand::seq::index::sample`), kept in their original order. Features (d) and the class
    /// mapping (k) are unchanged, so a class may end up without samples.
    pub fn subsample(&self, rows: usize, seed: u64) -> Result<Dataset> {
        let n = self.n_samples();
        if rows == 0 || rows > n {
            return Err(Error::invalid(
                "subsample size",
                format!("must be between 1 and the number of samples {n}, got {rows}"),
            ));
        }
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut pick = rand::seq::index::sample(&mut rng, n, rows).into_vec();
        pick.sort_unstable();
        Ok(Dataset {
            name: format!("{}[{rows} rows, seed {seed}]", self.name),
            features: self.features.select_rows(&pick),
            labels: pick.iter().map(|&i| self.labels[i]).collect(),
            classes: self.classes.clone(),
        })
    }
}

/// Feature scaling applied before building a problem (see the module documentation).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Scaling {
    /// Raw values.
    None,
    /// Each sample divided by its Euclidean norm (zero rows stay zero). The default.
    #[default]
    RowL2,
    /// Each feature divided by its largest absolute value.
    ColMaxAbs,
}

impl fmt::Display for Scaling {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Scaling::None => "none",
            Scaling::RowL2 => "row-l2",
            Scaling::ColMaxAbs => "col-maxabs",
        })
    }
}

impl FromStr for Scaling {
    type Err = Error;
    fn from_str(s: &str) -> Result<Self> {
        match s {
            "none" => Ok(Scaling::None),
            "row-l2" => Ok(Scaling::RowL2),
            "col-maxabs" => Ok(Scaling::ColMaxAbs),
            _ => Err(Error::input(
                "scaling",
                "value",
                format!("unknown scaling {s:?} (expected none, row-l2 or col-maxabs)"),
            )),
        }
    }
}
