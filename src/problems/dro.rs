//! Robust multiclass classification: penalised chi-square DRO, the paper's C-SC experiment
//! (main text L735-744, appendix L3260-3261, `subsec:lipschitz-robust`; claims.md Sec. 6.2).
//! The main-text version is implemented:
//!
//! ```text
//! L(Theta, y) = (1/n) sum_i y_i l_i(Theta) - lambda ||n y - 1_n||^2,   lambda = lambda'/(2 n^2)
//!             = (1/n) sum_i y_i l_i(Theta) - (lambda'/2) ||y - 1_n/n||^2
//! l_i(Theta) = log(1 + sum_{j != b_i} exp(theta_j^T a_i - theta_{b_i}^T a_i))   (multinomial logistic)
//! X = { Theta in R^{k x d} : ||Theta||_* <= r },   Y = unit simplex in R^n
//! ```
//! with r = 10, lambda' = 10, `Theta_0 = 0`, `y_0 = 1_n/n` (L3260). Where the appendix differs
//! (a "sum of margins" sigmoid loss, a ball `{||n y - 1|| <= rho}` with undefined rho, no 1/n in
//! its gradients; claims.md 6.5 items 6-8) the main text is followed: its loss is the one the
//! experiment names, and its simplex is what makes R-PDCG "not applicable" (L750).
//!
//! # Layout
//! `x` holds `W = Theta^T` (d x k, row-major), i.e. Theta stored column-major. The nuclear-norm
//! ball is the same set for a matrix and its transpose, and with this layout the scores
//! `S = A W` (n x k) and the gradient `A^T R` (d x k) are row-major sparse x dense products over
//! contiguous rows of length k ([`SparseMatrix`]). `X = NuclearBall(d x k, r)`.
//!
//! # Gradients
//! Per sample, with scores `s_i = W^T a_i` and softmax `p_i = softmax(s_i)`:
//! `l_i = logsumexp(s_i) - s_{i,b_i}` (computed stably: shifted by the maximum, and with `ln_1p`
//! when the true class has the top score) and `grad_{s_i} l_i = p_i - e_{b_i}`. Then
//! `grad_W L = A^T R`, `R_i = (y_i/n)(p_i - e_{b_i})`, and `grad_y L = l/n - lambda'(y - 1_n/n)`.
//! One score pass is shared by value and both gradients. The steps of Algorithms 1-2 with an
//! LMO primal step carry the scores along their rank-one moves instead
//! (`SaddleProblem::step_grads`, recomputed exactly every [`CHAIN_RESYNC`] steps); the
//! measures always take an exact pass.
//!
//! # Convexity (Assumption 3)
//! Each `l_i` is `logsumexp` (convex) of scores linear in Theta minus a linear function, hence
//! convex; `y_i >= 0` on the simplex and the penalty does not involve Theta, so `L(., y)` is
//! convex for every y in Y. `L(Theta, .)` is lambda'-strongly concave (the penalty), so this is
//! the C-SC setting; the simplex is not strongly convex (alpha = None).
//!
//! # y-structure
//! `L = h + c^T y - (m/2) ||y||^2` with `h = -(lambda'/2) ||1_n/n||^2 = -lambda'/(2n)`,
//! `c = l/n + lambda' 1_n/n`, `m = lambda'`, so `y*_beta(x)` is a simplex projection.
//!
//! # Constants
//! Certified ([`SaddleProblem::constants`]; each valid on X x Y):
//! * **Hessian of l_i in the scores**: `diag(p) - p p^T`. For a unit v,
//!   `v^T (diag(p) - p p^T) v = Var_p(v) <= (max v - min v)^2 / 4 <= (v_max^2 + v_min^2)/2 <= 1/2`
//!   (Popoviciu's inequality), attained for p = (1/2, 1/2, 0, ...), so 1/2 is tight for k >= 2.
//! * **L_xx = max_i ||a_i||^2 / (2n)**: `s_i = W^T a_i` has `||W^T a_i|| <= ||a_i|| ||W||_F`, so
//!   `||Hess_W l_i|| <= ||a_i||^2 / 2`, and `grad_W L = (1/n) sum_i y_i grad l_i` with
//!   `sum_i y_i = 1`.
//! * **L_yx = sqrt(2) sigma_A / n** with `sigma_A = min(||A||_F, sqrt(||A||_1 ||A||_inf))`, an
//!   upper bound on the spectral norm `||A||_2` (both terms are standard bounds).
//!   `grad_W l_i = a_i g_i^T` with `g_i = p_i - e_{b_i}` and
//!   `||g_i||^2 = (1-p_b)^2 + sum_{j != b} p_j^2 <= 2 (1-p_b)^2 <= 2`. For y -> grad_W L:
//!   `||sum_i (y_i - y'_i) a_i g_i^T||_F / n`; the Gram matrix of the `g_i (x) a_i` is the Schur
//!   product `(g_i.g_j)(a_i.a_j)`, whose norm is `<= max_i ||g_i||^2 ||A||_2^2`, so the bound is
//!   `sqrt(2) ||A||_2 ||y - y'|| / n`. For x -> grad_y L: by the mean value theorem per sample,
//!   `|l_i(W) - l_i(W')| <= sqrt(2) ||Delta^T a_i||` (Delta = W - W'), and
//!   `sum_i ||Delta^T a_i||^2 = ||A Delta||_F^2 <= ||A||_2^2 ||Delta||_F^2`.
//! * **L_yy = mu = lambda'** (exact: the penalty's Hessian is `-lambda' I`).
//!
//! Certified constants are inflated by a relative `1e-10` for rounding.
//! [`RobustClassification::paper_constants`] reports the appendix's (claims.md 6.2):
//! `L_ThTh = k(k-1)/4 max_i ||a_i||^2`, `L_yTh = (k(k-1)/2 sum_i ||a_i||^2)^(1/2)`,
//! `L_yy = sqrt(2) lambda'`; they are valid but loose for this payoff (no 1/n), and the
//! baselines' parameter formulas use them.
//!
//! ```
//! use saddlefw::data::{parse_libsvm, LibsvmOptions};
//! use saddlefw::problems::dro::{multinomial_logistic, DroConfig, RobustClassification};
//! // l = log(1 + sum_{j != b} exp(s_j - s_b)); the row becomes softmax(s) - e_b
//! let mut s = [0.0, 0.0, 0.0];
//! assert!((multinomial_logistic(&mut s, 1) - 3f64.ln()).abs() < 1e-15);
//! assert!((s[0] - 1.0 / 3.0).abs() < 1e-15 && (s[1] + 2.0 / 3.0).abs() < 1e-15);
//! // stable for large scores
//! let mut big = [1000.0, 0.0];
//! assert!((multinomial_logistic(&mut big, 1) - 1000.0).abs() < 1e-9);
//! // 3 samples, 2 features, 2 classes; at Theta = 0 every loss is log k
//! let d = parse_libsvm(b"1 1:1\n2 2:1\n1 1:0.5 2:0.5\n", "tiny", &LibsvmOptions::default()).unwrap();
//! let p = RobustClassification::new(&d, &DroConfig::default()).unwrap();
//! assert_eq!(p.dims(), (3, 2, 2));
//! assert!(p.losses(&[0.0; 4]).iter().all(|l| (l - 2f64.ln()).abs() < 1e-15));
//! // the radius must be positive
//! let e = RobustClassification::new(&d, &DroConfig { radius: 0.0, ..DroConfig::default() }).unwrap_err();
//! assert!(e.to_string().contains("radius"), "{e}");
//! ```

use super::memo::{Carried, ForwardKey};
use super::{Constants, Instance, SaddleProblem, YModel};
use crate::data::csr::split_rows;
use crate::data::{read_libsvm, LibsvmOptions};
// The data types this module's signatures name, documented here.
pub use crate::data::{Csr, Dataset, Scaling, SparseMatrix};
use crate::jobs::run_parts;
use crate::sets::{ConvexSet, NuclearBall, RankOne, Simplex};
use crate::{Error, Result};
use serde::{Deserialize, Serialize};
use std::path::Path;
use std::sync::Mutex;

/// Relative inflation of certified constants (covers the rounding of their evaluation).
const CERT_MARGIN: f64 = 1e-10;

/// Parameters of the robust classification instance (defaults: the paper's r = 10,
/// lambda' = 10, L3260; rows scaled to unit norm, all rows).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DroConfig {
    /// Nuclear-norm radius r.
    pub radius: f64,
    /// lambda' (the penalty is `(lambda'/2) ||y - 1_n/n||^2`, i.e. lambda = lambda'/(2n^2)).
    pub lambda_prime: f64,
    /// Feature scaling applied after subsampling (see `crate::data`).
    #[serde(with = "scaling_serde")]
    pub scaling: Scaling,
    /// Use only this many rows, drawn by [`Dataset::subsample`] with `seed` (reduced runs).
    pub rows: Option<usize>,
    /// Seed of the row subsample.
    pub seed: u64,
}

mod scaling_serde {
    use crate::data::Scaling;
    use serde::{Deserialize, Deserializer, Serializer};
    pub fn serialize<S: Serializer>(s: &Scaling, ser: S) -> Result<S::Ok, S::Error> {
        ser.serialize_str(&s.to_string())
    }
    pub(crate) fn deserialize<'de, D: Deserializer<'de>>(de: D) -> Result<Scaling, D::Error> {
        let s = String::deserialize(de)?;
        s.parse().map_err(serde::de::Error::custom)
    }
}

impl Default for DroConfig {
    fn default() -> Self {
        DroConfig {
            radius: 10.0,
            lambda_prime: 10.0,
            scaling: Scaling::RowL2,
            rows: None,
            seed: 0,
        }
    }
}

/// Scratch space, and the forward pass of the last point it was computed at.
#[derive(Debug)]
struct Work {
    /// Scores (n x k), overwritten by the per-sample score gradients `p_i - e_{b_i}`.
    scores: Vec<f64>,
    losses: Vec<f64>,
    /// `R` of the backward pass (n x k).
    r: Vec<f64>,
    /// The point `scores` and `losses` belong to ([`ForwardKey`]); cleared while they hold
    /// chained scores, so that a measure never reads those.
    key: ForwardKey,
    chain: Chain,
}

impl Work {
    fn new(n: usize, k: usize) -> Work {
        Work {
            scores: vec![0.0; n * k],
            losses: vec![0.0; n],
            r: vec![0.0; n * k],
            key: ForwardKey::default(),
            chain: Chain::default(),
        }
    }
}

pub use super::memo::CHAIN_RESYNC;

/// Scores carried along the solver's Frank-Wolfe moves ([`SaddleProblem::note_fw_move`]).
/// After `W' = (1 - s) W + s (c u) v^T`, `A W' = (1 - s) A W + s (A (c u)) v^T`: one sparse
/// matrix-vector product and an `n x k` update instead of the `n x k` sparse product. The
/// entries differ from `A W'` by rounding that grows by a few ulps of the scores per move, so
/// the scores are recomputed exactly every [`CHAIN_RESYNC`]-th step, counted from the first
/// step (never where a checkpoint falls: the iterates do not depend on the measuring). Only
/// `step_grads` reads them; measures always take an exact pass.
#[derive(Debug, Default)]
struct Chain {
    /// Raw scores (n x k) at the point of the last `step_grads`, then at the moved point.
    scores: Vec<f64>,
    /// Which point `scores` belong to, and their age.
    state: Carried,
    /// Scratch: `c u` (d) and `A (c u)` (n).
    cu: Vec<f64>,
    au: Vec<f64>,
}

/// Rows of `R_i = (y_i/n)(p_i - e_{b_i})` from the score gradients `g` (rows of width k).
fn fill_r(g: &[f64], y: &[f64], inv_n: f64, k: usize, r: &mut [f64]) {
    for ((r, g), &yi) in r.chunks_exact_mut(k).zip(g.chunks_exact(k)).zip(y) {
        let s = yi * inv_n;
        for (rv, &gv) in r.iter_mut().zip(g) {
            *rv = gv * s;
        }
    }
}

/// Where the scores of a pass come from.
enum ScoreSource<'a> {
    /// `A x` of the block, copied to the chain's rows when given.
    Product(&'a [f64], Option<&'a mut [f64]>),
    /// The chain's rows of the block.
    Chain(&'a [f64]),
}

/// The robust multiclass classification problem (see the module documentation).
#[derive(Debug)]
pub struct RobustClassification {
    name: String,
    data: SparseMatrix,
    labels: Vec<u32>,
    n: usize,
    d: usize,
    k: usize,
    lambda_prime: f64,
    x_set: NuclearBall,
    y_set: Simplex,
    certified: Constants,
    paper: Constants,
    work: Mutex<Work>,
}

/// Overwrites the score row `s` with `grad_s l = softmax(s) - e_b` and returns
/// `l = log(1 + sum_{j != b} exp(s_j - s_b))`, computed without overflow or cancellation.
pub fn multinomial_logistic(s: &mut [f64], b: usize) -> f64 {
    let sb = s[b];
    let m = s.iter().cloned().fold(f64::NEG_INFINITY, f64::max);
    let mut others = 0.0;
    for (j, v) in s.iter_mut().enumerate() {
        let e = (*v - m).exp();
        *v = e;
        if j != b {
            others += e;
        }
    }
    let total = others + s[b];
    let loss = if sb >= m {
        others.ln_1p()
    } else {
        (m - sb) + total.ln()
    };
    for v in s.iter_mut() {
        *v /= total;
    }
    s[b] = -others / total;
    loss
}

impl RobustClassification {
    /// Builds the problem from a data set: optional seeded row subsample, then scaling.
    pub fn new(data: &Dataset, cfg: &DroConfig) -> Result<RobustClassification> {
        for (name, v) in [("radius r", cfg.radius), ("lambda'", cfg.lambda_prime)] {
            if !(v.is_finite() && v > 0.0) {
                return Err(Error::invalid(
                    format!("DRO {name}"),
                    format!("must be finite and > 0, got {v}"),
                ));
            }
        }
        let sub;
        let data = match cfg.rows {
            Some(rows) => {
                sub = data.subsample(rows, cfg.seed)?;
                &sub
            }
            None => data,
        };
        let data = data.scaled(cfg.scaling);
        let (n, d, k) = (data.n_samples(), data.n_features(), data.n_classes());
        if k < 2 {
            return Err(Error::invalid(
                "DRO data",
                format!("{}: needs at least 2 classes, found {k}", data.name),
            ));
        }
        if d == 0 || data.features.nnz() == 0 {
            return Err(Error::invalid(
                "DRO data",
                format!("{}: all features are zero", data.name),
            ));
        }
        let row_sq = data.features.row_norms_sq();
        let max_row_sq = row_sq.iter().cloned().fold(0.0, f64::max);
        let fro_sq: f64 = row_sq.iter().sum();
        let spec_bound = fro_sq
            .sqrt()
            .min((data.features.norm_1() * data.features.norm_inf()).sqrt());
        let (nf, kf, lp) = (n as f64, k as f64, cfg.lambda_prime);
        let x_set = NuclearBall::new(d, k, cfg.radius)?;
        let y_set = Simplex::new(n, 1.0)?;
        let certified = Constants {
            lxx: max_row_sq / (2.0 * nf) * (1.0 + CERT_MARGIN),
            lyx: 2f64.sqrt() * spec_bound / nf * (1.0 + CERT_MARGIN),
            lyy: lp,
            mu: lp,
            alpha: None,
            dx: x_set.diameter(),
            dy: y_set.diameter(),
        };
        let paper = Constants {
            lxx: kf * (kf - 1.0) / 4.0 * max_row_sq,
            lyx: (kf * (kf - 1.0) / 2.0 * fro_sq).sqrt(),
            lyy: 2f64.sqrt() * lp,
            ..certified
        };
        let name = format!(
            "dro({}, n={n}, d={d}, k={k}, r={}, lambda'={lp}, scaling={})",
            data.name, cfg.radius, cfg.scaling
        );
        Ok(RobustClassification {
            name,
            labels: data.labels.clone(),
            data: SparseMatrix::new(data.features),
            n,
            d,
            k,
            lambda_prime: lp,
            x_set,
            y_set,
            certified,
            paper,
            work: Mutex::new(Work::new(n, k)),
        })
    }

    /// Reads a LIBSVM file (plain or `.bz2`) and builds the problem.
    pub fn from_libsvm(path: &Path, cfg: &DroConfig) -> Result<RobustClassification> {
        let data = read_libsvm(path, &LibsvmOptions::default())?;
        RobustClassification::new(&data, cfg)
    }

    /// The paper's instance: `Theta_0 = 0`, `y_0 = 1_n/n` (L3260).
    pub fn into_instance(self, seed: Option<u64>) -> Instance {
        let x0 = vec![0.0; self.d * self.k];
        let y0 = vec![1.0 / self.n as f64; self.n];
        Instance {
            problem: Box::new(self),
            x0,
            y0,
            family: "dro".into(),
            seed,
        }
    }

    /// `(n, d, k)`: samples, features, classes.
    pub fn dims(&self) -> (usize, usize, usize) {
        (self.n, self.d, self.k)
    }
    /// lambda'.
    pub fn lambda_prime(&self) -> f64 {
        self.lambda_prime
    }
    /// Splits the sparse products (and the per-sample losses) over `threads` threads (at
    /// least 1; default 1): blocks of rows of `A` and of `A^T`, each output row computed by one
    /// thread exactly as with one thread, so every result is bitwise the same for any count;
    /// likewise the Gram products of the nuclear-norm oracles (fixed blocks summed in order).
    pub fn set_threads(&mut self, threads: usize) {
        self.data.set_threads(threads);
        self.x_set.set_threads(threads);
    }
    /// Frank-Wolfe moves the step scores have been carried along since their last exact pass
    /// (0 right after one, at most [`CHAIN_RESYNC`]; see `step_grads`).
    pub fn chained_moves(&self) -> usize {
        self.work.lock().map_or(0, |w| w.chain.state.age())
    }
    /// The number of threads of [`Self::set_threads`].
    pub fn threads(&self) -> usize {
        self.data.threads()
    }
    /// The data (n x d) with its transpose, after subsampling and scaling.
    pub fn data(&self) -> &SparseMatrix {
        &self.data
    }
    /// Class index of each sample.
    pub fn labels(&self) -> &[u32] {
        &self.labels
    }
    /// The appendix's constants (`subsec:lipschitz-robust`), see the module documentation.
    pub fn paper_constants(&self) -> Constants {
        self.paper
    }

    /// Per-sample losses `l_i(Theta)` at `x = Theta^T`.
    pub fn losses(&self, x: &[f64]) -> Vec<f64> {
        self.with_work(|w| {
            self.forward(x, w);
            w.losses.clone()
        })
    }

    fn with_work<T>(&self, f: impl FnOnce(&mut Work) -> T) -> T {
        match self.work.try_lock() {
            Ok(mut w) => f(&mut w),
            Err(_) => f(&mut Work::new(self.n, self.k)),
        }
    }

    /// Scores, losses, and the per-sample score gradients `p_i - e_{b_i}` (in `w.scores`);
    /// nothing to do when `w` already holds them for this very x (the step and the measures,
    /// and the Gauss-Seidel baselines' `grad_y` then `grad_x`, share one forward pass).
    fn forward(&self, x: &[f64], w: &mut Work) {
        assert_eq!(x.len(), self.d * self.k, "DRO point has the wrong length");
        if w.key.matches(x) {
            return;
        }
        w.key.clear();
        self.score_pass(w, Some(x), false, None);
        w.key.set(x);
    }

    /// One fused pass per block of samples, on the block's thread (each row as in the
    /// 1-thread pass): the block's scores (`A x`, also kept in the chain when `keep`, or the
    /// chain's scores when `x` is None), its losses and score gradients, and with `y` its rows
    /// of `R` (as [`Self::backward`] builds them).
    fn score_pass(&self, w: &mut Work, x: Option<&[f64]>, keep: bool, y: Option<&[f64]>) {
        let (a, k, inv_n) = (self.data.a(), self.k, 1.0 / self.n as f64);
        let blocks = a.row_blocks(self.data.threads(), k);
        let Work {
            scores,
            losses,
            r,
            chain,
            ..
        } = w;
        if keep {
            chain.scores.resize(self.n * k, 0.0);
        }
        let sources: Vec<ScoreSource> = match x {
            Some(x) if keep => split_rows(&mut chain.scores, &blocks, k)
                .into_iter()
                .map(|raw| ScoreSource::Product(x, Some(raw)))
                .collect(),
            Some(x) => blocks
                .iter()
                .map(|_| ScoreSource::Product(x, None))
                .collect(),
            None => blocks
                .iter()
                .map(|b| ScoreSource::Chain(&chain.scores[b.start * k..b.end * k]))
                .collect(),
        };
        let parts: Vec<_> = blocks
            .iter()
            .cloned()
            .zip(split_rows(scores, &blocks, k))
            .zip(split_rows(losses, &blocks, 1))
            .zip(split_rows(r, &blocks, k))
            .zip(sources)
            .collect();
        run_parts(
            parts,
            self.data.threads(),
            |((((rows, scores), losses), r), source)| {
                match source {
                    ScoreSource::Product(x, raw) => {
                        a.mul_dense_rows(rows.clone(), x, k, scores);
                        if let Some(raw) = raw {
                            raw.copy_from_slice(scores);
                        }
                    }
                    ScoreSource::Chain(c) => scores.copy_from_slice(c),
                }
                for ((row, loss), &b) in scores
                    .chunks_exact_mut(k)
                    .zip(losses.iter_mut())
                    .zip(&self.labels[rows.clone()])
                {
                    *loss = multinomial_logistic(row, b as usize);
                }
                if let Some(y) = y {
                    fill_r(scores, &y[rows], inv_n, k, r);
                }
            },
        );
    }

    /// The chain's scores moved to `(1 - s) W + s (c u) v^T` ([`Chain`]), by row blocks.
    fn move_chain(&self, chain: &mut Chain, s: f64, vertex: &RankOne) {
        let (a, k) = (self.data.a(), self.k);
        chain.cu.clear();
        chain.cu.extend(vertex.u.iter().map(|u| vertex.scale * u));
        chain.au.resize(self.n, 0.0);
        let blocks = a.row_blocks(self.data.threads(), k);
        let parts: Vec<_> = blocks
            .iter()
            .cloned()
            .zip(split_rows(&mut chain.scores, &blocks, k))
            .zip(split_rows(&mut chain.au, &blocks, 1))
            .collect();
        let (cu, v) = (&chain.cu, &vertex.v);
        run_parts(parts, self.data.threads(), |((rows, scores), au)| {
            a.mul_dense_rows(rows, cu, 1, au);
            for (row, &aui) in scores.chunks_exact_mut(k).zip(au.iter()) {
                let c = s * aui;
                for (r, &vj) in row.iter_mut().zip(v) {
                    *r = (1.0 - s) * *r + c * vj;
                }
            }
        });
    }

    /// `grad_W L = A^T R` with `R_i = (y_i/n)(p_i - e_{b_i})`, after [`Self::forward`].
    fn backward(&self, y: &[f64], w: &mut Work, out: &mut [f64]) {
        let (inv_n, k) = (1.0 / self.n as f64, self.k);
        let blocks = self.data.a().row_blocks(self.data.threads(), k);
        let parts: Vec<_> = blocks
            .iter()
            .cloned()
            .zip(split_rows(&mut w.r, &blocks, k))
            .collect();
        run_parts(parts, self.data.threads(), |(rows, r)| {
            let g = &w.scores[rows.start * k..rows.end * k];
            fill_r(g, &y[rows], inv_n, k, r);
        });
        self.data.tmul(&w.r, self.k, out);
    }

    fn grad_y_from(&self, losses: &[f64], y: &[f64], out: &mut [f64]) {
        let inv_n = 1.0 / self.n as f64;
        for ((o, &l), &yi) in out.iter_mut().zip(losses).zip(y) {
            *o = l * inv_n - self.lambda_prime * (yi - inv_n);
        }
    }
}

impl SaddleProblem for RobustClassification {
    fn name(&self) -> String {
        self.name.clone()
    }
    fn x_set(&self) -> &dyn ConvexSet {
        &self.x_set
    }
    fn y_set(&self) -> &dyn ConvexSet {
        &self.y_set
    }
    fn value(&self, x: &[f64], y: &[f64]) -> f64 {
        let inv_n = 1.0 / self.n as f64;
        self.with_work(|w| {
            self.forward(x, w);
            let lin: f64 = w.losses.iter().zip(y).map(|(l, yi)| l * yi).sum();
            let pen: f64 = y.iter().map(|yi| (yi - inv_n) * (yi - inv_n)).sum();
            lin * inv_n - 0.5 * self.lambda_prime * pen
        })
    }
    fn grad_x(&self, x: &[f64], y: &[f64], out: &mut [f64]) {
        self.with_work(|w| {
            self.forward(x, w);
            self.backward(y, w, out);
        })
    }
    fn grad_y(&self, x: &[f64], y: &[f64], out: &mut [f64]) {
        self.with_work(|w| {
            self.forward(x, w);
            self.grad_y_from(&w.losses, y, out);
        })
    }
    fn grads(&self, x: &[f64], y: &[f64], gx: &mut [f64], gy: &mut [f64]) {
        self.with_work(|w| {
            self.forward(x, w);
            self.grad_y_from(&w.losses, y, gy);
            self.backward(y, w, gx);
        })
    }
    /// The carried scores (`Chain` in the source) when they belong to x and are younger than
    /// [`CHAIN_RESYNC`] moves, else an exact pass that restarts it.
    fn step_grads(&self, x: &[f64], y: &[f64], gx: &mut [f64], gy: &mut [f64]) {
        self.step_grads_checked(x, y, gx, gy);
    }
    /// [`SaddleProblem::step_grads`], with `gx` checked run by run of rows as `A^T R` writes
    /// it ([`SparseMatrix::tmul_checked`]).
    fn step_grads_checked(
        &self,
        x: &[f64],
        y: &[f64],
        gx: &mut [f64],
        gy: &mut [f64],
    ) -> Option<bool> {
        assert_eq!(x.len(), self.d * self.k, "DRO point has the wrong length");
        self.with_work(|w| {
            w.key.clear();
            let threads = self.data.threads();
            // one pass per block: scores, losses, score gradients and the rows of R
            if w.chain.state.usable_at(x, threads) {
                self.score_pass(w, None, false, Some(y));
            } else {
                self.score_pass(w, Some(x), true, Some(y));
                w.key.set(x);
                w.chain.state.restarted();
            }
            w.chain.state.stepped();
            self.grad_y_from(&w.losses, y, gy);
            Some(self.data.tmul_checked(&w.r, self.k, gx))
        })
    }
    fn note_fw_move(&self, s: f64, vertex: &RankOne, x_next: &[f64]) {
        self.with_work(|w| {
            let chain = &mut w.chain;
            let fits = vertex.offset == 0
                && vertex.u.len() == self.d
                && vertex.v.len() == self.k
                && x_next.len() == self.d * self.k;
            if !chain.state.may_move(fits) {
                return;
            }
            self.move_chain(chain, s, vertex);
            chain.state.moved(x_next, self.data.threads());
        })
    }
    fn constants(&self) -> Constants {
        self.certified
    }
    /// Convex: see the module documentation (logsumexp of linear scores, y >= 0).
    fn convex_in_x(&self) -> bool {
        true
    }
    fn y_model(&self, x: &[f64]) -> Option<YModel> {
        let inv_n = 1.0 / self.n as f64;
        let lp = self.lambda_prime;
        let c = self.with_work(|w| {
            self.forward(x, w);
            w.losses.iter().map(|l| (l + lp) * inv_n).collect()
        });
        Some(YModel {
            h: -0.5 * lp * inv_n,
            c,
            m: lp,
        })
    }
}
