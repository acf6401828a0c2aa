//! The experiments' problem instances and the options every algorithm is built with.
//!
//! * **DL**: [`DictionaryLearning::instance`] with the paper's dimensions (claims.md 6.1),
//!   generated from a seed (the paper gives none).
//! * **NEWS20 / RCV1**: a LIBSVM file (plain or `.bz2`) read once, hashed (sha256 of the bytes
//!   read and of the decompressed text), optionally row-subsampled, scaled, and turned into a
//!   [`RobustClassification`] (claims.md 6.2) per worker.
//!
//! Parameters ([`options`]): the proposed methods get the paper's experimental schedules
//! (shifted power laws, [`super::params`]) as explicit registry schedules; R-PDCG and CG-RPGA
//! get their horizon-K values `tau`, `mu`, `K`; every algorithm gets the paper's appendix
//! constants for its parameter formulas ([`formula_constants`]).
//!
//! ```
//! use saddlefw::experiments::source::sha256_hex;
//! assert_eq!(sha256_hex(b"abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
//! ```

use super::params::{self, Baseline, Experiment, Method};
use crate::data::libsvm::decompress_if_bzip2;
use crate::data::{parse_libsvm, Dataset, KnownDataset, LibsvmOptions};
use crate::problems::dictionary::{DictionaryLearning, DlConfig};
use crate::problems::dro::{DroConfig, RobustClassification};
use crate::problems::{Constants, Instance};
use crate::solvers::registry::Options;
use crate::{Error, Result};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use std::path::Path;
use std::sync::Arc;

/// Where the experiment's data came from (`experiment.json` "data").
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DataDescription {
    /// `generated` (DL) or `libsvm`.
    pub kind: String,
    pub description: String,
    pub file: Option<String>,
    /// sha256 of the bytes read.
    pub sha256: Option<String>,
    /// sha256 of the decompressed text (equal to `sha256` for a plain file).
    pub sha256_decompressed: Option<String>,
    /// LIBSVM's published digest of the `.bz2`.
    pub expected_sha256: Option<String>,
    /// Whether `sha256` equals `expected_sha256` (None: no reference, or a plain file).
    pub matches_reference: Option<bool>,
    pub scaling: Option<String>,
    /// Rows used (a seeded subsample when smaller than the file's).
    pub rows: Option<usize>,
    pub rows_in_file: Option<usize>,
    pub seed: u64,
    /// Samples n, features d, classes k, non-zeros (robust); the DL dimensions in `dl`.
    pub n: Option<usize>,
    pub d: Option<usize>,
    pub k: Option<usize>,
    pub nnz: Option<usize>,
    pub dl: Option<DlConfig>,
}

/// What every worker builds its own problem from.
#[derive(Debug, Clone)]
pub enum Source {
    Dl(DlConfig),
    /// `threads`: the threads the sparse products are split over
    /// ([`RobustClassification::set_threads`]; results do not depend on it).
    Robust {
        data: Arc<Dataset>,
        cfg: DroConfig,
        threads: usize,
    },
}

/// An instance and the constants its algorithms' parameter formulas use.
pub struct Prepared {
    pub instance: Instance,
    /// The problem's certified constants.
    pub certified: Constants,
    /// The paper's appendix constants (`subsec:lipschitz-dictionary`, `subsec:lipschitz-robust`).
    pub paper: Constants,
    /// What [`options`] passes to the registry ([`formula_constants`]).
    pub formula: Constants,
    /// Threads the problem's kernels are split over (1: DL, whose products are too small).
    pub threads: usize,
}

impl Source {
    /// Which parameter set of [`params`] applies.
    pub fn experiment(&self) -> Experiment {
        match self {
            Source::Dl(_) => Experiment::Dl,
            Source::Robust { .. } => Experiment::Robust,
        }
    }

    /// Builds the problem and its start (`x0`, `y0` as in the paper).
    pub fn prepare(&self) -> Result<Prepared> {
        match self {
            Source::Dl(cfg) => {
                let (p, x0) = DictionaryLearning::generate(cfg)?;
                let paper = p.paper_constants();
                let certified = crate::SaddleProblem::constants(&p);
                Ok(Prepared {
                    formula: formula_constants(Experiment::Dl, &paper, None),
                    instance: Instance {
                        problem: Box::new(p),
                        x0,
                        y0: vec![0.0],
                        family: "dl".into(),
                        seed: Some(cfg.seed),
                    },
                    certified,
                    paper,
                    threads: 1,
                })
            }
            Source::Robust { data, cfg, threads } => {
                let mut p = RobustClassification::new(data, cfg)?;
                p.set_threads(*threads);
                let paper = p.paper_constants();
                let (n, _, _) = p.dims();
                let certified = crate::SaddleProblem::constants(&p);
                let lambda_prime = p.lambda_prime();
                Ok(Prepared {
                    formula: formula_constants(
                        Experiment::Robust,
                        &paper,
                        Some(params::lambda(lambda_prime, n)),
                    ),
                    threads: p.threads(),
                    instance: p.into_instance(Some(cfg.seed)),
                    certified,
                    paper,
                })
            }
        }
    }
}

/// The constants handed to the parameter formulas: the paper's appendix constants, and on the
/// robust problem `mu = lambda = lambda'/(2n^2)`, the value the paper plugs into AGP's Thm 3.1
/// and CG-RPGA's `mu_bar` (L3261; the payoff's modulus is lambda', claims.md 6.5 item 9).
pub fn formula_constants(e: Experiment, paper: &Constants, lambda: Option<f64>) -> Constants {
    match (e, lambda) {
        (Experiment::Robust, Some(l)) => Constants { mu: l, ..*paper },
        _ => *paper,
    }
}

/// The registry options of `alg` on experiment `e` with the paper's parameters, and notes
/// saying where they come from.
pub fn options(e: Experiment, alg: Method, formula: &Constants) -> (Options, Vec<String>) {
    let mut o = Options {
        constants: Some(*formula),
        ..Default::default()
    };
    let mut notes = Vec::new();
    if let Method::Paper(a) = alg {
        let s = params::proposed_schedule(e, a);
        o.tau = Some(s.tau);
        o.beta = Some(s.beta);
        notes.push(format!(
            "tau_t = {}, beta_t = {} ({})",
            s.tau, s.beta, s.source
        ));
    }
    if let Some(b) = match alg {
        Method::Baseline(b) => params::boroun_params(e, b),
        Method::Paper(_) => None,
    } {
        o.tau0 = Some(b.tau());
        o.beta0 = Some(b.mu());
        o.horizon = Some(b.horizon as usize);
        notes.push(format!(
            "tau = {:.6e}, mu = {:.6e}, K = {} ({}); frozen beyond K",
            b.tau(),
            b.mu(),
            b.horizon,
            b.source
        ));
    }
    match alg {
        Method::Baseline(Baseline::SpFw) => notes.push("gamma_t = 2/(t+2), t >= 0 (L3257, L3261)".into()),
        Method::Baseline(Baseline::Agp) => notes.push(match e {
            Experiment::Dl => {
                "Xu Thm 3.2 parameters with the appendix L_xx, L_y (L3256-3258)".to_string()
            }
            Experiment::Robust => format!(
                "Xu Thm 3.1 parameters with the appendix constants and mu = lambda = {:.3e} (L3261)",
                formula.mu
            ),
        }),
        _ => {}
    }
    notes.push("parameter formulas use the paper's appendix constants".into());
    (o, notes)
}

/// sha256 of `bytes` as lowercase hex.
pub fn sha256_hex(bytes: &[u8]) -> String {
    let d = Sha256::digest(bytes);
    d.iter().map(|b| format!("{b:02x}")).collect()
}

/// Reads a LIBSVM file (plain or bzip2), hashing what was read; `known` gives the reference
/// digest. A missing file is an error that says where to get the data set.
pub(crate) fn read_dataset(
    path: &Path,
    known: &KnownDataset,
) -> Result<(Dataset, DataDescription)> {
    let name = path.display().to_string();
    if !path.exists() {
        return Err(Error::invalid(
            "--data",
            format!(
                "{name} does not exist. {} is not shipped with saddlefw: download {} from {} \
                 (sha256 of the .bz2: {}), then pass --data PATH or set SADDLEFW_DATA_DIR",
                known.name, known.file, known.url, known.sha256_bz2
            ),
        ));
    }
    let raw = crate::files::read_bytes(path)?;
    let sha = sha256_hex(&raw);
    let compressed = raw.starts_with(b"BZh");
    let text = decompress_if_bzip2(&name, raw)?;
    let sha_text = if compressed {
        sha256_hex(&text)
    } else {
        sha.clone()
    };
    let data = parse_libsvm(&text, &name, &LibsvmOptions::default())?;
    let desc = DataDescription {
        kind: "libsvm".into(),
        description: format!(
            "LIBSVM multiclass {} ({})",
            known.name,
            if compressed { "bzip2" } else { "plain text" }
        ),
        file: Some(name),
        matches_reference: compressed.then(|| sha == known.sha256_bz2),
        sha256: Some(sha),
        sha256_decompressed: Some(sha_text),
        expected_sha256: Some(known.sha256_bz2.to_string()),
        scaling: None,
        rows: None,
        rows_in_file: Some(data.n_samples()),
        seed: 0,
        n: None,
        d: Some(data.n_features()),
        k: Some(data.n_classes()),
        nnz: Some(data.features.nnz()),
        dl: None,
    };
    Ok((data, desc))
}
