//! Continual dictionary learning (DL), the paper's NC-C experiment (`eq:dictionary-learning2`,
//! appendix `subsec:DL-imple`, `subsec:lipschitz-dictionary`; claims.md Sec. 6.1), with the
//! catalogue's resolutions:
//!
//! ```text
//! L((D',C'), y) = 1/(2n') ||A' - D'C'||_F^2 + y ( 1/(2n) ||A - D' Ctil||_F^2 - delta )
//! X = { (D',C') : ||d'_j||_2 <= 1 (j in [q]), ||C'||_* <= r },   Y = [0, B]
//! ```
//! * the constraint term uses the *old* data A (m x n) and the factor 1/(2n) (the main text's
//!   `A'` is dimensionally invalid, the appendix's `1/(2n')` contradicts `2 n delta` and the
//!   printed gradients; claims.md 6.5 items 1-2);
//! * `Ctil` is C padded with q - p zero **rows** (the paper says columns; item 5);
//! * `Y = [0, B]`, `B = 1` (item 4).
//!
//! `x = (D', C')` is one flat vector: `D'` (m x q, row-major) followed by `C'` (q x n',
//! row-major); `X = Product(UnitColumns(m x q, 1), NuclearBall(q x n', r))`.
//!
//! # Shared products
//! `K = Ctil Ctil^T` (q x q), `P = A Ctil^T` (m x q) and `||A||_F^2` are precomputed, so
//! `||A - D'Ctil||_F^2 = ||A||_F^2 - 2 <D', P> + <D'K, D'>` costs one m x q x q product. One
//! gradient evaluation is `D'K`, `R = D'C' - A'`, `R C'^T` and `D'^T R`:
//! ```text
//! grad_D' L = (1/n') R C'^T + (y/n) (D'K - P),   grad_C' L = (1/n') D'^T R,
//! grad_y  L = (1/(2n)) ||A - D'Ctil||_F^2 - delta.
//! ```
//! The solver's step ([`SaddleProblem::step_grads`]) instead carries `C'C'^T` and `A'C'^T` along
//! the rank-one moves of C' and forms `G_D = D'^T D'`: `grad_D' = D'(C'C'^T/n' + (y/n)K) -
//! (A'C'^T/n' + (y/n)P)`, `grad_C' = (G_D C' - D'^T A')/n'`, constraint value
//! `||A||^2 - 2<D', P> + <K, G_D>` (four products instead of five; equal up to rounding).
//!
//! L is linear in y (h = fidelity, c = constraint value, m = 0 in [`YModel`]), so `y*_beta(x)` is a
//! clip (beta > 0) or an end point of [0, B] (beta = 0).
//!
//! # Constants
//! [`DictionaryLearning::paper_constants`] are the appendix's `L_{(D',C')(D',C')}`,
//! `L_{y(D',C')}`, `L_yy = 0` (`subsec:lipschitz-dictionary`, L3365-3370) with alpha = 1/B
//! (L3258); the baselines' parameter formulas use them. [`SaddleProblem::constants`] returns
//! the certified constants derived below (all valid upper bounds on X x Y; the tests compare
//! them with sampled gradient-difference ratios). Notation: `e = ||E||_F`, `h = ||H||_F` for a
//! direction `(E, H)` of `(D', C')`; on X, `||D'||_2 <= ||D'||_F <= sqrt(q)` and
//! `||C'||_2 <= ||C'||_F <= ||C'||_* <= r`; `lambda_K = ||K||_2 = ||Ctil||_2^2`.
//!
//! * **L_xx.** Along `t -> (D' + tE, C' + tH)`, with `R = D'C' - A'`, the second derivative of
//!   L is `(1/n') (||EC' + D'H||^2 + 2 <R, EH>) + (y/n) ||E Ctil||^2`. Bounding
//!   `||EC' + D'H|| <= ||E||_F ||C'||_2 + ||D'||_2 ||H||_F <= r e + sqrt(q) h`,
//!   `|<R, EH>| = |<E^T R, H>| <= ||R||_2 e h <= Rbar e h` with
//!   `Rbar = ||A'||_2 + r sqrt(q) >= sup_X ||R||_2` (spectral norms), and
//!   `y ||E Ctil||^2 <= B lambda_K e^2`, the
//!   quadratic form is at most `[e h] M [e h]^T / n'` with
//!   `M = [[r^2 + n' B lambda_K / n, r sqrt(q) + Rbar], [r sqrt(q) + Rbar, q]]` and at least
//!   `-Rbar/n'`. Hence `||Hess_xx L|| <= lambda_max(M) / n'` (`lambda_max(M) >= M_12 >= Rbar`),
//!   and by the mean value theorem on the convex X, `L_xx = lambda_max(M) / n'`.
//! * **L_yx.** `d/dy grad_x L = ((1/n)(D'K - P), 0)` and `||D'K - P||_F <= sqrt(q) lambda_K +
//!   ||P||_F`, so `L_yx = (sqrt(q) lambda_K + ||P||_F) / n` bounds both cross terms of
//!   Assumption 1 (iv) (`grad_y L` is a function of D' alone with this gradient).
//! * **L_yy = mu = 0** (L is linear in y). alpha = 2/B: an interval of length B satisfies
//!   Assumption 2 for every alpha <= 2/B (see [`BoxSet`]).
//!
//! Certified constants are inflated by a relative `1e-10` to absorb rounding in their own
//! evaluation.
//!
//! ```
//! use saddlefw::problems::{DictionaryLearning, DlConfig};
//! let cfg = DlConfig { n: 6, m: 4, p: 2, l: 1, q: 3, n_new: 5, ..DlConfig::default() };
//! let inst = DictionaryLearning::instance(&cfg).unwrap();
//! // x = (D' (m x q), C' (q x n')), y in [0, B], starting at y = 0 inside X
//! assert_eq!((inst.x0.len(), inst.y0.len()), (4 * 3 + 3 * 5, 1));
//! let p = inst.problem.as_ref();
//! assert!(p.x_set().contains(&inst.x0, 1e-12));
//! // L is linear in y: grad_y L(x, y) is the constraint value, whatever y
//! let (mut g0, mut g1) = ([0.0], [0.0]);
//! p.grad_y(&inst.x0, &[0.0], &mut g0);
//! p.grad_y(&inst.x0, &[1.0], &mut g1);
//! assert_eq!(g0, g1);
//! // the new dictionary cannot be smaller than the old one (q >= p)
//! let e = DictionaryLearning::instance(&DlConfig { q: 1, ..cfg }).unwrap_err();
//! assert!(e.to_string().contains('q'), "{e}");
//! ```

use super::memo::{Carried, ForwardKey};
use super::{Constants, Instance, SaddleProblem, YModel};
use crate::linalg::{
    dot, dot_simd, dot_unrolled, gemm, mat, mat_mut, spectral_norm, sym_extreme_eigs,
};
use crate::sets::{BoxSet, ConvexSet, NuclearBall, Product, RankOne, UnitColumns};
use crate::{Error, Result};
use ndarray::{Array2, ArrayView2};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rand_distr::StandardNormal;
use serde::{Deserialize, Serialize};
use std::sync::Mutex;

/// Relative inflation of certified constants (covers the rounding of their evaluation).
const CERT_MARGIN: f64 = 1e-10;

/// The largest matrix of a DL instance, in entries (50 million f64: 400 MB).
pub(crate) const MAX_MATRIX_ENTRIES: usize = 50_000_000;

/// Dimensions and parameters of the DL instance; the defaults are the paper's
/// (`subsec:DL-imple`, L3255): n = 500, m = 100, p = 50, l = 5, q = 60, n' = 103,
/// delta = 1e-4, r = 5, B = 1.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DlConfig {
    /// Old samples n (columns of A).
    pub n: usize,
    /// Signal dimension m.
    pub m: usize,
    /// Old dictionary size p.
    pub p: usize,
    /// Rank l of the old coefficients C.
    pub l: usize,
    /// New dictionary size q (>= p).
    pub q: usize,
    /// New samples n' (columns of A').
    pub n_new: usize,
    /// Fidelity tolerance delta on the old data.
    pub delta: f64,
    /// Nuclear-norm radius r of C'.
    pub r: f64,
    /// Upper end B of Y = [0, B].
    pub b: f64,
    /// Seed of the ChaCha8 stream that draws the data and the starting dictionary (the paper
    /// gives none).
    pub seed: u64,
}

impl Default for DlConfig {
    fn default() -> Self {
        DlConfig {
            n: 500,
            m: 100,
            p: 50,
            l: 5,
            q: 60,
            n_new: 103,
            delta: 1e-4,
            r: 5.0,
            b: 1.0,
            seed: 0,
        }
    }
}

impl DlConfig {
    /// Checks the dimensions (all >= 1, p <= q, l <= min(p, n)) and parameters (delta >= 0,
    /// r > 0, B > 0, all finite).
    pub fn validate(&self) -> Result<()> {
        for (name, v) in [
            ("n", self.n),
            ("m", self.m),
            ("p", self.p),
            ("l", self.l),
            ("q", self.q),
            ("n'", self.n_new),
        ] {
            if v == 0 {
                return Err(Error::invalid(
                    format!("DL dimension {name}"),
                    "must be at least 1",
                ));
            }
        }
        // every matrix of the problem must fit in memory: A (m x n), A' (m x n'), D' (m x q),
        // C' (q x n'), C (p x n)
        for (name, r, c) in [
            ("A (m x n)", self.m, self.n),
            ("A' (m x n')", self.m, self.n_new),
            ("D' (m x q)", self.m, self.q),
            ("C' (q x n')", self.q, self.n_new),
            ("C (p x n)", self.p, self.n),
        ] {
            if r.checked_mul(c).map_or(true, |e| e > MAX_MATRIX_ENTRIES) {
                return Err(Error::invalid(
                    "DL dimensions",
                    format!("{name} = {r} x {c} has more than {MAX_MATRIX_ENTRIES} entries"),
                ));
            }
        }
        if self.p > self.q {
            return Err(Error::invalid(
                "DL dimensions",
                format!(
                    "the new dictionary size q = {} must be >= the old p = {}",
                    self.q, self.p
                ),
            ));
        }
        if self.l > self.p.min(self.n) {
            return Err(Error::invalid(
                "DL rank l",
                format!("must be <= min(p, n) = {}", self.p.min(self.n)),
            ));
        }
        if !(self.delta.is_finite() && self.delta >= 0.0) {
            return Err(Error::invalid(
                "DL delta",
                format!("must be finite and >= 0, got {}", self.delta),
            ));
        }
        for (name, v) in [("r", self.r), ("B", self.b)] {
            if !(v.is_finite() && v > 0.0) {
                return Err(Error::invalid(
                    format!("DL {name}"),
                    format!("must be finite and > 0, got {v}"),
                ));
            }
        }
        Ok(())
    }
}

/// Scratch matrices of one gradient evaluation (reused: the hot loop does not allocate), and
/// the forward pass of the last point they were computed at.
#[derive(Debug)]
struct Work {
    /// `R = D'C' - A'` (m x n'), valid when `r_ok` is set.
    r: Array2<f64>,
    r_ok: bool,
    /// `D'K` (m x q).
    dk: Array2<f64>,
    /// `||R||_F^2` once asked for (a value or a measure; the step needs R only).
    fid: Option<f64>,
    /// `||A - D'Ctil||_F^2` at the point of `key`.
    cval: f64,
    key: ForwardKey,
    /// Products carried along the solver's moves ([`SaddleProblem::step_grads`]).
    chain: Chain,
    /// `D'^T D'` and `M = G_C / n' + (y/n) K` (q x q) of the step.
    g_d: Vec<f64>,
    m_mat: Vec<f64>,
}

/// `G_C = C'C'^T` (q x q) and `H = A'C'^T` (m x q), carried along the Frank-Wolfe moves of C'
/// towards the nuclear ball's vertex `S = sc u v^T` ([`SaddleProblem::note_fw_move`]): with
/// `C'' = (1 - s) C' + s S`,
/// `G_C'' = (1 - s)^2 G_C + s sc ((C''v) u^T + u (C''v)^T) - s^2 sc^2 ||v||^2 u u^T` and
/// `H'' = (1 - s) H + s sc (A'v) u^T`: two matrix-vector products instead of a q x n' x q and
/// an m x n' x q product. Recomputed exactly every `CHAIN_RESYNC`-th (32nd) step (the
/// rounding of the updates grows by a few ulps per move); measures never read them.
#[derive(Debug, Default)]
struct Chain {
    g_c: Vec<f64>,
    h: Vec<f64>,
    /// Which C' block the products belong to, and their age.
    state: Carried,
    /// Scratch: `C''v` (q) and `A'v` (m).
    cv: Vec<f64>,
    av: Vec<f64>,
}

impl Work {
    fn new(m: usize, q: usize, n_new: usize) -> Work {
        Work {
            r: Array2::zeros((m, n_new)),
            dk: Array2::zeros((m, q)),
            r_ok: false,
            fid: None,
            cval: 0.0,
            key: ForwardKey::default(),
            chain: Chain {
                g_c: vec![0.0; q * q],
                h: vec![0.0; m * q],
                cv: vec![0.0; q],
                av: vec![0.0; m],
                ..Chain::default()
            },
            g_d: vec![0.0; q * q],
            m_mat: vec![0.0; q * q],
        }
    }
}

/// The DL saddle problem (see the module documentation).
#[derive(Debug)]
pub struct DictionaryLearning {
    cfg: DlConfig,
    a_old: Array2<f64>,
    c_tilde: Array2<f64>,
    a_new: Array2<f64>,
    k_mat: Array2<f64>,
    p_mat: Array2<f64>,
    a_old_sq: f64,
    x_set: Product,
    y_set: BoxSet,
    certified: Constants,
    paper: Constants,
    work: Mutex<Work>,
}

/// `rows x cols` i.i.d. N(0,1) entries, row-major.
fn gaussian(rng: &mut ChaCha8Rng, rows: usize, cols: usize) -> Array2<f64> {
    Array2::from_shape_simple_fn((rows, cols), || rng.sample(StandardNormal))
}

/// Scales every non-zero column to unit Euclidean norm.
fn normalize_columns(a: &mut Array2<f64>) {
    for mut col in a.columns_mut() {
        let nrm = col.dot(&col).sqrt();
        if nrm > 0.0 {
            col.mapv_inplace(|v| v / nrm);
        }
    }
}

fn flat(a: &Array2<f64>) -> &[f64] {
    a.as_slice().expect("standard layout")
}

impl DictionaryLearning {
    /// Generates the data as in `subsec:DL-imple` (Boroun et al., App. F) from one
    /// `ChaCha8Rng::seed_from_u64(cfg.seed)` stream, drawn in this order, each matrix row-major:
    /// D (m x p) ~ N(0,1) with unit columns; U (p x l), V (n x l) ~ N(0,1);
    /// `C = U V^T / (||U||_2 ||V||_2)`; `A = D C`; `Ctil = [C; 0]` (q x n); A' (m x n') ~ N(0,1).
    /// The same stream then draws the start `D'_0 ~ U[0, 0.1]` with unit columns, `C'_0 = 0`,
    /// `y_0 = 0` (returned as x0).
    pub fn generate(cfg: &DlConfig) -> Result<(DictionaryLearning, Vec<f64>)> {
        cfg.validate()?;
        let mut rng = ChaCha8Rng::seed_from_u64(cfg.seed);
        let mut d = gaussian(&mut rng, cfg.m, cfg.p);
        normalize_columns(&mut d);
        let u = gaussian(&mut rng, cfg.p, cfg.l);
        let v = gaussian(&mut rng, cfg.n, cfg.l);
        let scale = spectral_norm(flat(&u), cfg.p, cfg.l) * spectral_norm(flat(&v), cfg.n, cfg.l);
        let c = u.dot(&v.t()) / scale;
        let a_old = d.dot(&c);
        let mut c_tilde = Array2::zeros((cfg.q, cfg.n));
        c_tilde.slice_mut(ndarray::s![..cfg.p, ..]).assign(&c);
        let a_new = gaussian(&mut rng, cfg.m, cfg.n_new);
        let mut d0 = Array2::from_shape_simple_fn((cfg.m, cfg.q), || rng.gen_range(0.0..0.1));
        normalize_columns(&mut d0);
        let problem = DictionaryLearning::from_matrices(cfg, a_old, c_tilde, a_new)?;
        let mut x0 = flat(&d0).to_vec();
        x0.resize(problem.x_set.dim(), 0.0);
        Ok((problem, x0))
    }

    /// The paper's instance: the problem, `x0 = (D'_0, 0)`, `y0 = 0` (see [`Self::generate`]).
    pub fn instance(cfg: &DlConfig) -> Result<Instance> {
        let (problem, x0) = DictionaryLearning::generate(cfg)?;
        Ok(Instance {
            problem: Box::new(problem),
            x0,
            y0: vec![0.0],
            family: "dl".into(),
            seed: Some(cfg.seed),
        })
    }

    /// A DL problem from given data: old data `A` (m x n), padded coefficients `Ctil` (q x n)
    /// and new data `A'` (m x n'); the dimensions in `cfg` must match (p and l are not used).
    pub fn from_matrices(
        cfg: &DlConfig,
        a_old: Array2<f64>,
        c_tilde: Array2<f64>,
        a_new: Array2<f64>,
    ) -> Result<DictionaryLearning> {
        cfg.validate()?;
        let (m, n, q, n_new) = (cfg.m, cfg.n, cfg.q, cfg.n_new);
        if a_old.dim() != (m, n) || c_tilde.dim() != (q, n) || a_new.dim() != (m, n_new) {
            return Err(Error::invalid(
                "DL data",
                format!(
                    "shapes A {:?}, Ctil {:?}, A' {:?} do not match m = {m}, n = {n}, q = {q}, n' = {n_new}",
                    a_old.dim(),
                    c_tilde.dim(),
                    a_new.dim()
                ),
            ));
        }
        // as_standard_layout: the flat views below need row-major storage
        let a_old = a_old.as_standard_layout().into_owned();
        let c_tilde = c_tilde.as_standard_layout().into_owned();
        let a_new = a_new.as_standard_layout().into_owned();
        for (name, a) in [("A", &a_old), ("Ctil", &c_tilde), ("A'", &a_new)] {
            crate::error::ensure_finite(name, flat(a))?;
        }
        let k_mat = c_tilde.dot(&c_tilde.t());
        let p_mat = a_old.dot(&c_tilde.t());
        let a_old_sq = dot(flat(&a_old), flat(&a_old));
        let x_set = Product::new(vec![
            Box::new(UnitColumns::new(m, q, 1.0)?),
            Box::new(NuclearBall::new(q, n_new, cfg.r)?),
        ])?;
        let y_set = BoxSet::interval(cfg.b)?;

        let (nf, nnf, qf, r, b) = (n as f64, n_new as f64, q as f64, cfg.r, cfg.b);
        let lambda_k = sym_extreme_eigs(flat(&k_mat), q).0;
        let sigma_t = lambda_k.sqrt();
        let fro_a_new = dot(flat(&a_new), flat(&a_new)).sqrt();
        let fro_a_old = a_old_sq.sqrt();
        let fro_p = dot(flat(&p_mat), flat(&p_mat)).sqrt();
        // certified (module docs)
        let rbar = spectral_norm(flat(&a_new), m, n_new) + r * qf.sqrt();
        let m11 = r * r + nnf * b * lambda_k / nf;
        let m12 = r * qf.sqrt() + rbar;
        let m22 = qf;
        let lmax = 0.5 * (m11 + m22) + (0.25 * (m11 - m22).powi(2) + m12 * m12).sqrt();
        let certified = Constants {
            lxx: lmax / nnf * (1.0 + CERT_MARGIN),
            lyx: (qf.sqrt() * lambda_k + fro_p) / nf * (1.0 + CERT_MARGIN),
            lyy: 0.0,
            mu: 0.0,
            alpha: y_set.strong_convexity(),
            dx: x_set.diameter(),
            dy: y_set.diameter(),
        };
        // paper, subsec:lipschitz-dictionary (L3365-3370)
        let s = fro_a_new + 2.0 * r * qf.sqrt();
        let paper_lxx = f64::max(
            (2.0 * s * s / (nnf * nnf) + 3.0 * (r * r / nnf + b * lambda_k / nf).powi(2)).sqrt(),
            (2.0 * qf * qf + 3.0 * s * s).sqrt() / nnf,
        );
        let paper = Constants {
            lxx: paper_lxx,
            lyx: 3f64.sqrt() * (fro_a_old + qf.sqrt() * sigma_t) * sigma_t / nf,
            lyy: 0.0,
            mu: 0.0,
            alpha: Some(1.0 / b),
            dx: certified.dx,
            dy: certified.dy,
        };
        Ok(DictionaryLearning {
            cfg: cfg.clone(),
            a_old,
            c_tilde,
            a_new,
            k_mat,
            p_mat,
            a_old_sq,
            x_set,
            y_set,
            certified,
            paper,
            work: Mutex::new(Work::new(m, q, n_new)),
        })
    }

    /// The configuration.
    pub fn config(&self) -> &DlConfig {
        &self.cfg
    }
    /// The appendix's constants (`subsec:lipschitz-dictionary`): `L_{(D',C')(D',C')}`,
    /// `L_{y(D',C')}`, `L_yy = 0`, alpha = 1/B (L3258); diameters as certified.
    pub fn paper_constants(&self) -> Constants {
        self.paper
    }
    /// Old data A (m x n).
    pub fn a_old(&self) -> &Array2<f64> {
        &self.a_old
    }
    /// Padded old coefficients Ctil (q x n).
    pub fn c_tilde(&self) -> &Array2<f64> {
        &self.c_tilde
    }
    /// New data A' (m x n').
    pub fn a_new(&self) -> &Array2<f64> {
        &self.a_new
    }

    /// Moves the carried `C'C'^T` and `A'C'^T` have been updated along since their last exact
    /// computation (0 right after one, at most `CHAIN_RESYNC` = 32; see `step_grads`).
    pub fn chained_moves(&self) -> usize {
        self.with_work(|w| w.chain.state.age())
    }

    /// Views of `D'` (m x q) and `C'` (q x n') inside a flat `x`.
    pub fn blocks<'a>(&self, x: &'a [f64]) -> (ArrayView2<'a, f64>, ArrayView2<'a, f64>) {
        let (m, q, nn) = (self.cfg.m, self.cfg.q, self.cfg.n_new);
        assert_eq!(x.len(), m * q + q * nn, "DL point has the wrong length");
        let d = ArrayView2::from_shape((m, q), &x[..m * q]).expect("D' shape");
        let c = ArrayView2::from_shape((q, nn), &x[m * q..]).expect("C' shape");
        (d, c)
    }

    /// `||A - D'Ctil||_F^2` by the trace expansion `||A||^2 - 2 <D', P> + <D'K, D'>`.
    pub fn constraint_value(&self, x: &[f64]) -> f64 {
        self.with_work(|w| self.forward(x, w, false))
    }

    /// `||A - D'Ctil||_F^2` computed directly (an m x q x n product; reference for tests).
    pub fn constraint_value_direct(&self, x: &[f64]) -> f64 {
        let (d, _) = self.blocks(x);
        let res = &self.a_old - &d.dot(&self.c_tilde);
        res.iter().map(|v| v * v).sum()
    }

    fn with_work<T>(&self, f: impl FnOnce(&mut Work) -> T) -> T {
        match self.work.try_lock() {
            Ok(mut w) => f(&mut w),
            // another thread holds the scratch space: use a private one
            Err(_) => f(&mut Work::new(self.cfg.m, self.cfg.q, self.cfg.n_new)),
        }
    }

    /// Fills `w.dk = D'K` and, when `with_r`, `w.r = D'C' - A'`; returns
    /// `||A - D'Ctil||_F^2`. Products already in `w` for this very x are
    /// reused (the step and the checkpoint measures share one pass; see [`ForwardKey`]).
    fn forward(&self, x: &[f64], w: &mut Work, with_r: bool) -> f64 {
        let (m, q, nn) = (self.cfg.m, self.cfg.q, self.cfg.n_new);
        let (dflat, cflat) = x.split_at(m * q);
        if !w.key.matches(x) {
            w.key.clear();
            let dk = w.dk.as_slice_mut().expect("standard layout");
            gemm(
                mat_mut(dk, m, q),
                false,
                mat(dflat, m, q),
                mat(flat(&self.k_mat), q, q),
                1.0,
            );
            w.cval = self.constraint_from(dflat, dot_simd(flat(&w.dk), dflat));
            w.r_ok = false;
            w.fid = None;
            w.key.set(x);
        }
        if with_r && !w.r_ok {
            let r = w.r.as_slice_mut().expect("standard layout");
            for (ri, &ai) in r.iter_mut().zip(flat(&self.a_new)) {
                *ri = -ai;
            }
            gemm(
                mat_mut(r, m, nn),
                true,
                mat(dflat, m, q),
                mat(cflat, q, nn),
                1.0,
            );
            w.r_ok = true;
        }
        w.cval
    }

    /// `(||R||_F^2, ||A - D'Ctil||_F^2)` at x (the forward pass with R, and the norm of R
    /// computed once per point).
    fn fidelity_and_constraint(&self, x: &[f64], w: &mut Work) -> (f64, f64) {
        let cval = self.forward(x, w, true);
        let r = flat(&w.r);
        (*w.fid.get_or_insert_with(|| dot(r, r)), cval)
    }

    /// `grad_x L` from a finished forward pass.
    fn backward(&self, x: &[f64], y: f64, w: &Work, out: &mut [f64]) {
        let (m, q, nn) = (self.cfg.m, self.cfg.q, self.cfg.n_new);
        let (dflat, cflat) = x.split_at(m * q);
        let (gd, gc) = out.split_at_mut(m * q);
        let s = y / self.cfg.n as f64;
        for ((g, &dk), &p) in gd.iter_mut().zip(flat(&w.dk)).zip(flat(&self.p_mat)) {
            *g = s * (dk - p);
        }
        let inv = 1.0 / nn as f64;
        let r = mat(flat(&w.r), m, nn);
        gemm(
            mat_mut(gd, m, q),
            true,
            r,
            mat(cflat, q, nn).transpose(),
            inv,
        );
        gemm(
            mat_mut(gc, q, nn),
            false,
            mat(dflat, m, q).transpose(),
            r,
            inv,
        );
    }

    /// The step's gradients from the carried `G_C`, `H` (see [`Chain`]) and `G_D = D'^T D'`:
    /// `grad_D' = D' M - (H / n' + (y/n) P)` with `M = G_C / n' + (y/n) K`,
    /// `grad_C' = (G_D C' - D'^T A') / n'` and the constraint value
    /// `||A||^2 - 2 <D', P> + <K, G_D>` (equal to the forward pass's up to rounding): four
    /// products of at most m x q x n' instead of five.
    fn carried_grads(&self, x: &[f64], y: f64, w: &mut Work, gx: &mut [f64]) -> f64 {
        let (m, q, nn) = (self.cfg.m, self.cfg.q, self.cfg.n_new);
        let (dflat, cflat) = x.split_at(m * q);
        let (gd, gc) = gx.split_at_mut(m * q);
        let (dm, cm) = (mat(dflat, m, q), mat(cflat, q, nn));
        let (inv, s) = (1.0 / nn as f64, y / self.cfg.n as f64);
        crate::linalg::gram(&mut w.g_d, dm.transpose());
        let (k, p) = (flat(&self.k_mat), flat(&self.p_mat));
        crate::linalg::dispatch(StepTerms {
            m_mat: &mut w.m_mat,
            gd: &mut *gd,
            chain: &w.chain,
            k,
            p,
            inv,
            s,
        });
        gemm(mat_mut(gd, m, q), true, dm, mat(&w.m_mat, q, q), 1.0);
        let a_new = mat(flat(&self.a_new), m, nn);
        gemm(mat_mut(gc, q, nn), false, dm.transpose(), a_new, -inv);
        gemm(mat_mut(gc, q, nn), true, mat(&w.g_d, q, q), cm, inv);
        self.constraint_from(dflat, dot_simd(k, &w.g_d))
    }

    /// `||A - D'Ctil||_F^2 = ||A||^2 - 2 <D', P> + quadratic`, where `quadratic` is
    /// `<D'K, D'> = <K, D'^T D'>` (inner products with eight accumulators).
    fn constraint_from(&self, dflat: &[f64], quadratic: f64) -> f64 {
        self.a_old_sq - 2.0 * dot_simd(dflat, flat(&self.p_mat)) + quadratic
    }

    /// `G_C` and `H` computed exactly at the C' block `cflat`.
    fn restart_chain(&self, cflat: &[f64], chain: &mut Chain) {
        let (m, q, nn) = (self.cfg.m, self.cfg.q, self.cfg.n_new);
        let cm = mat(cflat, q, nn);
        gemm(
            mat_mut(&mut chain.g_c, q, q),
            false,
            cm,
            cm.transpose(),
            1.0,
        );
        let a_new = mat(flat(&self.a_new), m, nn);
        gemm(
            mat_mut(&mut chain.h, m, q),
            false,
            a_new,
            cm.transpose(),
            1.0,
        );
        chain.state.restarted();
    }

    /// The update of [`Chain`] along `C'' = (1 - s) C' + s sc u v^T` (`c_next` = C'').
    fn move_chain(&self, chain: &mut Chain, s: f64, vertex: &RankOne, c_next: &[f64]) {
        crate::linalg::dispatch(ChainMove {
            chain,
            s,
            vertex,
            c_next,
            a_new: flat(&self.a_new),
        });
    }

    fn grad_y_from(&self, cval: f64) -> f64 {
        cval / (2.0 * self.cfg.n as f64) - self.cfg.delta
    }
}

/// The element-wise terms of the carried step: `M = inv G_C + s K` and
/// `grad_D' <- -(inv H + s P)` (dispatched: a closure this size stays out of line).
struct StepTerms<'a> {
    m_mat: &'a mut [f64],
    gd: &'a mut [f64],
    chain: &'a Chain,
    k: &'a [f64],
    p: &'a [f64],
    inv: f64,
    s: f64,
}

impl pulp::WithSimd for StepTerms<'_> {
    type Output = ();
    #[inline(always)]
    fn with_simd<S: pulp::Simd>(self, _simd: S) {
        let (inv, s) = (self.inv, self.s);
        for ((mv, &g), &kv) in self.m_mat.iter_mut().zip(&self.chain.g_c).zip(self.k) {
            *mv = inv * g + s * kv;
        }
        for ((g, &h), &pv) in self.gd.iter_mut().zip(&self.chain.h).zip(self.p) {
            *g = -(inv * h + s * pv);
        }
    }
}

/// The update of [`Chain`] along `C'' = (1 - s) C' + s sc u v^T` (`c_next` = C''), dispatched.
struct ChainMove<'a> {
    chain: &'a mut Chain,
    s: f64,
    vertex: &'a RankOne,
    c_next: &'a [f64],
    a_new: &'a [f64],
}

impl pulp::WithSimd for ChainMove<'_> {
    type Output = ();
    #[inline(always)]
    fn with_simd<S: pulp::Simd>(self, _simd: S) {
        let ChainMove {
            chain,
            s,
            vertex,
            c_next,
            a_new,
        } = self;
        let (u, v, sc) = (&vertex.u, &vertex.v, vertex.scale);
        let (q, nn) = (u.len(), v.len());
        for (cv, row) in chain.cv.iter_mut().zip(c_next.chunks_exact(nn)) {
            *cv = dot_unrolled(row, v);
        }
        for (av, row) in chain.av.iter_mut().zip(a_new.chunks_exact(nn)) {
            *av = dot_unrolled(row, v);
        }
        let (keep, ss) = ((1.0 - s) * (1.0 - s), s * sc);
        let uu = s * s * sc * sc * dot_unrolled(v, v);
        for ((row, &cvi), &ui) in chain.g_c.chunks_exact_mut(q).zip(&chain.cv).zip(u) {
            for ((g, &uj), &cvj) in row.iter_mut().zip(u).zip(&chain.cv) {
                *g = keep * *g + ss * (cvi * uj + ui * cvj) - uu * ui * uj;
            }
        }
        for (row, &avi) in chain.h.chunks_exact_mut(q).zip(&chain.av) {
            for (h, &uj) in row.iter_mut().zip(u) {
                *h = (1.0 - s) * *h + ss * avi * uj;
            }
        }
    }
}

impl SaddleProblem for DictionaryLearning {
    fn name(&self) -> String {
        let c = &self.cfg;
        format!(
            "dl(m={}, q={}, n'={}, n={}, r={}, B={}, delta={}, seed={})",
            c.m, c.q, c.n_new, c.n, c.r, c.b, c.delta, c.seed
        )
    }
    fn x_set(&self) -> &dyn ConvexSet {
        &self.x_set
    }
    fn y_set(&self) -> &dyn ConvexSet {
        &self.y_set
    }
    fn value(&self, x: &[f64], y: &[f64]) -> f64 {
        let (fid, cval) = self.with_work(|w| self.fidelity_and_constraint(x, w));
        fid / (2.0 * self.cfg.n_new as f64) + y[0] * self.grad_y_from(cval)
    }
    fn grad_x(&self, x: &[f64], y: &[f64], out: &mut [f64]) {
        self.with_work(|w| {
            self.forward(x, w, true);
            self.backward(x, y[0], w, out);
        })
    }
    fn grad_y(&self, x: &[f64], _y: &[f64], out: &mut [f64]) {
        out[0] = self.grad_y_from(self.constraint_value(x));
    }
    fn grads(&self, x: &[f64], y: &[f64], gx: &mut [f64], gy: &mut [f64]) {
        self.with_work(|w| {
            let cval = self.forward(x, w, true);
            self.backward(x, y[0], w, gx);
            gy[0] = self.grad_y_from(cval);
        })
    }
    /// The carried products (`Chain` in the source) when they belong to x's C' block and are
    /// younger than `CHAIN_RESYNC` = 32 moves, else an exact computation that restarts them.
    fn step_grads(&self, x: &[f64], y: &[f64], gx: &mut [f64], gy: &mut [f64]) {
        let (m, q, nn) = (self.cfg.m, self.cfg.q, self.cfg.n_new);
        assert_eq!(x.len(), m * q + q * nn, "DL point has the wrong length");
        self.with_work(|w| {
            let cflat = &x[m * q..];
            if !w.chain.state.usable_at(cflat, 1) {
                self.restart_chain(cflat, &mut w.chain);
            }
            w.chain.state.stepped();
            let cval = self.carried_grads(x, y[0], w, gx);
            gy[0] = self.grad_y_from(cval);
        })
    }
    fn note_fw_move(&self, s: f64, vertex: &RankOne, x_next: &[f64]) {
        let (m, q, nn) = (self.cfg.m, self.cfg.q, self.cfg.n_new);
        self.with_work(|w| {
            let chain = &mut w.chain;
            let fits = vertex.offset == m * q
                && vertex.u.len() == q
                && vertex.v.len() == nn
                && x_next.len() == m * q + q * nn;
            if !chain.state.may_move(fits) {
                return;
            }
            let c_next = &x_next[m * q..];
            self.move_chain(chain, s, vertex, c_next);
            chain.state.moved(c_next, 1);
        })
    }
    fn constants(&self) -> Constants {
        self.certified
    }
    /// Not convex: the fidelity term is bilinear in (D', C').
    fn convex_in_x(&self) -> bool {
        false
    }
    fn y_model(&self, x: &[f64]) -> Option<YModel> {
        let (fid, cval) = self.with_work(|w| self.fidelity_and_constraint(x, w));
        Some(YModel {
            h: fid / (2.0 * self.cfg.n_new as f64),
            c: vec![self.grad_y_from(cval)],
            m: 0.0,
        })
    }
}
