//! The quadratic family `L(x,y) = 1/2 x'Ax + y'Bx - 1/2 y'Cy + a'x - c'y` and its JSON file
//! format `saddlefw-quadratic-v1` (README, "JSON quadratic format v1").
//!
//! Certified constants: `L_xx = ||A||_2`, `L_yx = ||B||_2`, `L_yy = ||C||_2`,
//! `mu = lambda_min(C)` (Jacobi eigenvalues / SVD, accurate to a few ulps of the norm).
//! Convex in x (Assumption 3) iff `A` is PSD. When `C = mu I` the inner maximisation has a
//! closed form (a projection); otherwise it is a certified inner solve.
//!
//! ```
//! use saddlefw::problems::quadratic::QuadraticFile;
//! let text = r#"{"format": "saddlefw-quadratic-v1",
//!  "A": [[2, 0], [0, 1]], "B": [[3, 4]], "C": [[0.5]], "a": [0, 0], "c": [0],
//!  "x_set": {"kind": "l2_ball", "radius": 1}, "y_set": {"kind": "box", "lower": -1, "upper": 1},
//!  "x0": [0, 0], "y0": [0]}"#;
//! let inst = QuadraticFile::parse(text, "p.json").unwrap().into_instance("p.json").unwrap();
//! // L_xx = ||A||_2, L_yx = ||B||_2, mu = lambda_min(C); A is PSD, so L is convex in x
//! let k = inst.problem.constants();
//! assert!((k.lxx - 2.0).abs() < 1e-12 && (k.lyx - 5.0).abs() < 1e-12 && (k.mu - 0.5).abs() < 1e-12);
//! assert!(inst.problem.convex_in_x());
//! // a start outside X names the file and the field
//! let far = text.replace(r#""x0": [0, 0]"#, r#""x0": [2, 0]"#);
//! let e = QuadraticFile::parse(&far, "p.json").and_then(|f| f.into_instance("p.json")).unwrap_err();
//! assert!(e.to_string().starts_with("p.json: x0"), "{e}");
//! ```

use super::{inner, Constants, Instance, Interval, SaddleProblem, YModel};
use crate::linalg::{axpy, dot, matvec, matvec_t, spectral_norm, sym_extreme_eigs};
use crate::sets::{ConvexSet, SetSpec};
use crate::{Error, Result};
use serde::{Deserialize, Serialize};
use std::sync::{Mutex, OnceLock};

/// Symmetry / PSD tolerance relative to the matrix's scale (contract: 1e-12): the largest
/// entry for symmetry, `||C||_2` for PSD (and `||A||_2` for convexity in x).
pub(crate) const SYM_TOL: f64 = 1e-12;

/// A quadratic saddle problem with dense row-major matrices.
#[derive(Debug)]
pub struct Quadratic {
    dx: usize,
    dy: usize,
    a: Vec<f64>,
    b: Vec<f64>,
    c: Vec<f64>,
    lin_a: Vec<f64>,
    lin_c: Vec<f64>,
    x_set: Box<dyn ConvexSet>,
    y_set: Box<dyn ConvexSet>,
    constants: Constants,
    convex: bool,
    isotropic: Option<f64>,
    saddle: Option<(Vec<f64>, Vec<f64>)>,
    f_star: OnceLock<Option<Interval>>,
    /// Scratch for `B' y` (dx), so gradients do not allocate.
    scratch: Mutex<Vec<f64>>,
}

impl Quadratic {
    /// Builds and certifies a quadratic problem. `A` is `dx x dx`, `B` is `dy x dx`, `C` is
    /// `dy x dy`, all row-major; validation errors name the offending field.
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        a: Vec<f64>,
        b: Vec<f64>,
        c: Vec<f64>,
        lin_a: Vec<f64>,
        lin_c: Vec<f64>,
        x_set: Box<dyn ConvexSet>,
        y_set: Box<dyn ConvexSet>,
    ) -> Result<Self> {
        let dx = x_set.dim();
        let dy = y_set.dim();
        let shape = |name: &str, v: &[f64], want: usize, desc: String| -> Result<()> {
            if v.len() != want {
                Err(Error::invalid(
                    name,
                    format!("expected {want} entries ({desc}), got {}", v.len()),
                ))
            } else {
                crate::error::ensure_finite(name, v)
            }
        };
        // the sizes come from the sets: say so (a matrix of another size is often a set of
        // another dimension)
        let (nx, ny) = (
            format!("dx = x_set.dim() = {dx}"),
            format!("dy = y_set.dim() = {dy}"),
        );
        shape("A", &a, dx * dx, format!("{dx} x {dx}; {nx}"))?;
        shape("B", &b, dy * dx, format!("{dy} x {dx}; {ny}, {nx}"))?;
        shape("C", &c, dy * dy, format!("{dy} x {dy}; {ny}"))?;
        shape("a", &lin_a, dx, format!("length {dx}; {nx}"))?;
        shape("c", &lin_c, dy, format!("length {dy}; {ny}"))?;
        check_symmetric("A", &a, dx)?;
        check_symmetric("C", &c, dy)?;
        let (lxx, lmin_a) = sym_extreme_eigs(&a, dx);
        let (lyy, lmin_c) = sym_extreme_eigs(&c, dy);
        // relative to the matrix's own scale, so a small matrix is held to the same standard
        // (MIN_POSITIVE only guards the zero matrix)
        let scale_c = lyy.max(f64::MIN_POSITIVE);
        if lmin_c < -SYM_TOL * scale_c {
            return Err(Error::invalid(
                "C",
                format!("must be positive semidefinite (smallest eigenvalue {lmin_c:.3e})"),
            ));
        }
        // an eigenvalue below the solver's resolution (SYM_TOL of the scale) is zero: a singular
        // C must not be declared strongly concave on the strength of a rounding error
        let mu = if lmin_c > SYM_TOL * scale_c {
            lmin_c
        } else {
            0.0
        };
        let convex = lmin_a >= -SYM_TOL * lxx.max(f64::MIN_POSITIVE);
        let lyx = spectral_norm(&b, dy, dx);
        let isotropic = {
            let d = c[0];
            let iso = (0..dy).all(|i| {
                (0..dy).all(|j| {
                    let want = if i == j { d } else { 0.0 };
                    c[i * dy + j] == want
                })
            });
            // a (tolerated) negative isotropic C would make the y-model convex: no closed form
            if iso && d >= 0.0 {
                Some(d)
            } else {
                None
            }
        };
        let constants = Constants {
            lxx,
            lyx,
            lyy,
            mu: if let Some(d) = isotropic { d } else { mu },
            alpha: y_set.strong_convexity(),
            dx: x_set.diameter(),
            dy: y_set.diameter(),
        };
        Ok(Quadratic {
            dx,
            dy,
            a,
            b,
            c,
            lin_a,
            lin_c,
            x_set,
            y_set,
            constants,
            convex,
            isotropic,
            saddle: None,
            f_star: OnceLock::new(),
            scratch: Mutex::new(vec![0.0; dx]),
        })
    }

    /// Runs `f` on the dx-long scratch vector (a private one when another thread holds it).
    fn with_scratch<T>(&self, f: impl FnOnce(&mut [f64]) -> T) -> T {
        match self.scratch.try_lock() {
            Ok(mut v) => f(&mut v),
            Err(_) => f(&mut vec![0.0; self.dx]),
        }
    }

    /// Records a known saddle point (generators that build one); f* becomes exact.
    pub fn with_known_saddle(mut self, x: Vec<f64>, y: Vec<f64>) -> Self {
        self.saddle = Some((x, y));
        self
    }

    /// Serialises the problem (with a start) in the `saddlefw-quadratic-v1` format; an error
    /// when a set is not one of the built-in sets (its [`ConvexSet::spec`] is `None`).
    pub fn to_file(&self, x0: &[f64], y0: &[f64]) -> Result<QuadraticFile> {
        let spec = |which: &str, set: &dyn ConvexSet| {
            set.spec().ok_or_else(|| {
                Error::invalid(
                    which,
                    format!(
                        "{} is not a built-in set: a problem file cannot name it",
                        set.name()
                    ),
                )
            })
        };
        let rows = |m: &[f64], r: usize, c: usize| -> Vec<Vec<f64>> {
            (0..r).map(|i| m[i * c..(i + 1) * c].to_vec()).collect()
        };
        Ok(QuadraticFile {
            format: FORMAT_V1.to_string(),
            a_mat: rows(&self.a, self.dx, self.dx),
            b_mat: rows(&self.b, self.dy, self.dx),
            c_mat: rows(&self.c, self.dy, self.dy),
            a: self.lin_a.clone(),
            c: self.lin_c.clone(),
            x_set: spec("x_set", self.x_set.as_ref())?,
            y_set: spec("y_set", self.y_set.as_ref())?,
            x0: x0.to_vec(),
            y0: y0.to_vec(),
        })
    }
}

fn check_symmetric(name: &str, m: &[f64], n: usize) -> Result<()> {
    // relative to the largest entry (MIN_POSITIVE only guards the zero matrix)
    let scale = m.iter().fold(f64::MIN_POSITIVE, |s, v| s.max(v.abs()));
    for i in 0..n {
        for j in (i + 1)..n {
            if (m[i * n + j] - m[j * n + i]).abs() > SYM_TOL * scale {
                return Err(Error::invalid(
                    name,
                    format!(
                        "must be symmetric: {name}[{i}][{j}] = {} but {name}[{j}][{i}] = {}",
                        m[i * n + j],
                        m[j * n + i]
                    ),
                ));
            }
        }
    }
    Ok(())
}

impl SaddleProblem for Quadratic {
    fn name(&self) -> String {
        format!("quadratic(dx={}, dy={})", self.dx, self.dy)
    }
    fn as_quadratic(&self) -> Option<&Quadratic> {
        Some(self)
    }
    fn x_set(&self) -> &dyn ConvexSet {
        self.x_set.as_ref()
    }
    fn y_set(&self) -> &dyn ConvexSet {
        self.y_set.as_ref()
    }
    fn value(&self, x: &[f64], y: &[f64]) -> f64 {
        let mut ax = vec![0.0; self.dx];
        matvec(&self.a, self.dx, self.dx, x, &mut ax);
        let mut bx = vec![0.0; self.dy];
        matvec(&self.b, self.dy, self.dx, x, &mut bx);
        let mut cy = vec![0.0; self.dy];
        matvec(&self.c, self.dy, self.dy, y, &mut cy);
        0.5 * dot(x, &ax) + dot(y, &bx) - 0.5 * dot(y, &cy) + dot(&self.lin_a, x)
            - dot(&self.lin_c, y)
    }
    fn grad_x(&self, x: &[f64], y: &[f64], out: &mut [f64]) {
        // A x + B' y + a
        matvec(&self.a, self.dx, self.dx, x, out);
        self.with_scratch(|bty| {
            matvec_t(&self.b, self.dy, self.dx, y, bty);
            for ((o, b), a) in out.iter_mut().zip(bty.iter()).zip(&self.lin_a) {
                *o += b + a;
            }
        })
    }
    fn grad_y(&self, x: &[f64], y: &[f64], out: &mut [f64]) {
        // B x - C y - c, without temporaries
        for (i, o) in out.iter_mut().enumerate() {
            let brow = &self.b[i * self.dx..(i + 1) * self.dx];
            let crow = &self.c[i * self.dy..(i + 1) * self.dy];
            *o = dot(brow, x) - (dot(crow, y) + self.lin_c[i]);
        }
    }
    /// Both gradients with one pass over B (`B x` and `B' y` share its rows); the same
    /// arithmetic as `grad_x` and `grad_y`.
    fn grads(&self, x: &[f64], y: &[f64], gx: &mut [f64], gy: &mut [f64]) {
        matvec(&self.a, self.dx, self.dx, x, gx);
        self.with_scratch(|bty| {
            bty.iter_mut().for_each(|v| *v = 0.0);
            for (i, (brow, &yi)) in self.b.chunks_exact(self.dx).zip(y).enumerate() {
                let crow = &self.c[i * self.dy..(i + 1) * self.dy];
                gy[i] = dot(brow, x) - (dot(crow, y) + self.lin_c[i]);
                if yi != 0.0 {
                    axpy(yi, brow, bty);
                }
            }
            for ((o, b), a) in gx.iter_mut().zip(bty.iter()).zip(&self.lin_a) {
                *o += b + a;
            }
        })
    }
    fn constants(&self) -> Constants {
        self.constants
    }
    fn convex_in_x(&self) -> bool {
        self.convex
    }
    fn y_model(&self, x: &[f64]) -> Option<YModel> {
        let m = self.isotropic?;
        let mut ax = vec![0.0; self.dx];
        matvec(&self.a, self.dx, self.dx, x, &mut ax);
        let mut c = vec![0.0; self.dy];
        matvec(&self.b, self.dy, self.dx, x, &mut c);
        for i in 0..self.dy {
            c[i] -= self.lin_c[i];
        }
        Some(YModel {
            h: 0.5 * dot(x, &ax) + dot(&self.lin_a, x),
            c,
            m,
        })
    }
    /// The f* routes and their fallback are [`inner::f_star_certified`]'s.
    fn f_star(&self) -> Option<Interval> {
        *self.f_star.get_or_init(|| {
            if let Some((x, y)) = &self.saddle {
                return Some(Interval::exact(self.value(x, y)));
            }
            inner::f_star_certified(self)
        })
    }
    /// Rigorous: every product, sum and difference in `L` and its gradients is bounded by the
    /// same expression over absolute values, `M = |x|'|A||x|/2 + |y|'|B||x| + |y|'|C||y|/2 +
    /// |a|'|x| + |c|'|y| + |dx|'(|A||x| + |B|'|y| + |a|) + |dy|'(|B||x| + |C||y| + |c|)`, and
    /// a sum of n such terms is off by at most `gamma_n M`, `gamma_n = n eps / (1 - n eps)`
    /// (Higham, Accuracy and Stability, Sec. 3.1); n = dx + dy + 4 covers the longest sum
    /// here, and the bound is doubled for the rounding of the bound itself.
    fn first_order_rounding(&self, x: &[f64], y: &[f64], dx: &[f64], dy: &[f64]) -> f64 {
        let abs = |v: &[f64]| v.iter().map(|t| t.abs()).collect::<Vec<f64>>();
        let abs_matvec = |m: &[f64], rows: usize, cols: usize, v: &[f64]| -> Vec<f64> {
            m.chunks_exact(cols.max(1))
                .take(rows)
                .map(|row| row.iter().zip(v).map(|(a, b)| a.abs() * b.abs()).sum())
                .collect()
        };
        let abs_matvec_t = |m: &[f64], rows: usize, cols: usize, v: &[f64]| -> Vec<f64> {
            let mut out = vec![0.0; cols];
            for (row, vi) in m.chunks_exact(cols.max(1)).take(rows).zip(v) {
                for (o, a) in out.iter_mut().zip(row) {
                    *o += a.abs() * vi.abs();
                }
            }
            out
        };
        let (ax, bx) = (
            abs_matvec(&self.a, self.dx, self.dx, x),
            abs_matvec(&self.b, self.dy, self.dx, x),
        );
        let (cy, bty) = (
            abs_matvec(&self.c, self.dy, self.dy, y),
            abs_matvec_t(&self.b, self.dy, self.dx, y),
        );
        let (xa, ya, dxa, dya) = (abs(x), abs(y), abs(dx), abs(dy));
        let la = abs(&self.lin_a);
        let lc = abs(&self.lin_c);
        let value_terms = 0.5 * dot(&xa, &ax)
            + dot(&ya, &bx)
            + 0.5 * dot(&ya, &cy)
            + dot(&la, &xa)
            + dot(&lc, &ya);
        let gx_terms: f64 = (0..self.dx)
            .map(|i| dxa[i] * (ax[i] + bty[i] + la[i]))
            .sum();
        let gy_terms: f64 = (0..self.dy).map(|i| dya[i] * (bx[i] + cy[i] + lc[i])).sum();
        let n = (self.dx + self.dy + 4) as f64 * f64::EPSILON;
        2.0 * n / (1.0 - n) * (value_terms + gx_terms + gy_terms)
    }
    fn known_saddle(&self) -> Option<(Vec<f64>, Vec<f64>)> {
        self.saddle.clone()
    }
}

/// The `format` tag of version 1 files.
pub const FORMAT_V1: &str = "saddlefw-quadratic-v1";

/// The on-disk JSON form of a quadratic problem (a user-facing contract).
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct QuadraticFile {
    pub format: String,
    #[serde(rename = "A")]
    pub a_mat: Vec<Vec<f64>>,
    #[serde(rename = "B")]
    pub b_mat: Vec<Vec<f64>>,
    #[serde(rename = "C")]
    pub c_mat: Vec<Vec<f64>>,
    pub a: Vec<f64>,
    pub c: Vec<f64>,
    pub x_set: SetSpec,
    pub y_set: SetSpec,
    pub x0: Vec<f64>,
    pub y0: Vec<f64>,
}

/// The key of the top-level JSON object member that contains position (`line`, `column`),
/// both 1-based as reported by serde_json, so that parse errors (an overflowing number such
/// as `1e999`, an unknown set kind) name the field they occur in.
fn top_level_field(text: &str, line: usize, column: usize) -> Option<String> {
    let mut offset = 0;
    for (i, l) in text.split_inclusive('\n').enumerate() {
        if i + 1 == line {
            offset += column.min(l.len());
            break;
        }
        offset += l.len();
    }
    let bytes = text.as_bytes();
    let (mut depth, mut key, mut i) = (0usize, None, 0usize);
    while i < bytes.len().min(offset) {
        match bytes[i] {
            b'{' | b'[' => depth += 1,
            b'}' | b']' => depth = depth.saturating_sub(1),
            b'"' => {
                let start = i + 1;
                i += 1;
                while i < bytes.len() && bytes[i] != b'"' {
                    i += if bytes[i] == b'\\' { 2 } else { 1 };
                }
                let end = i.min(bytes.len());
                let rest = text.get(end + 1..).unwrap_or("").trim_start();
                if depth == 1 && rest.starts_with(':') && end <= offset {
                    key = text.get(start..end).map(str::to_string);
                }
            }
            _ => {}
        }
        i += 1;
    }
    key
}

/// The top-level fields of a v1 file (all required).
const TOP_FIELDS: [&str; 10] = [
    "format", "A", "B", "C", "a", "c", "x_set", "y_set", "x0", "y0",
];

/// Tolerance for "x0 in X" and "y0 in Y" when loading a file.
pub const START_TOL: f64 = 1e-9;

impl QuadraticFile {
    /// Parses JSON text; `input` names the source in errors (with line and column).
    pub fn parse(text: &str, input: &str) -> Result<Self> {
        let text = crate::files::json_body(input, text, crate::files::JsonTop::Object)?;
        serde_json::from_str(text).map_err(|e| {
            // serde reports a missing top-level field at the end of the object, where the
            // location would point at the last field present: name the missing field alone
            // (a field missing inside a set keeps the set's field and location)
            let msg = e.to_string();
            if let Some(name) = msg
                .strip_prefix("missing field `")
                .and_then(|r| r.split('`').next())
            {
                let top = serde_json::from_str::<serde_json::Value>(text).ok();
                if TOP_FIELDS.contains(&name)
                    && top
                        .as_ref()
                        .and_then(|v| v.as_object())
                        .is_some_and(|o| !o.contains_key(name))
                {
                    return Error::input(input, name, "missing field (required by the v1 format)");
                }
            }
            let field = top_level_field(text, e.line(), e.column());
            crate::error::json_error(input, &e, field.as_deref())
        })
    }

    /// Reads and validates a problem file into an [`Instance`].
    pub fn load(path: &std::path::Path) -> Result<Instance> {
        let name = path.display().to_string();
        let text = crate::files::read_text(path)?;
        Self::parse(&text, &name)?.into_instance(&name)
    }

    /// Validates the file into an [`Instance`]; errors name the field and the reason.
    pub fn into_instance(self, input: &str) -> Result<Instance> {
        let field_err = |field: &str, reason: String| Error::input(input, field, reason);
        if self.format != FORMAT_V1 {
            return Err(field_err(
                "format",
                format!("unknown format {:?} (expected {FORMAT_V1:?})", self.format),
            ));
        }
        // dimensions come from the matrices' rows; every other field is checked against them
        let dx = self.a_mat.len();
        let dy = self.c_mat.len();
        for (field, n, d) in [("A", dx, "dx"), ("C", dy, "dy")] {
            if n == 0 {
                return Err(field_err(
                    field,
                    format!("has no rows: {d} (its number of rows) must be at least 1"),
                ));
            }
        }
        let flatten = |field: &str, m: &[Vec<f64>], r: usize, c: usize, dims: &str| {
            flatten_matrix(input, field, m, (r, c), dims)
        };
        let a = flatten(
            "A",
            &self.a_mat,
            dx,
            dx,
            "dx x dx, dx = the number of rows of A",
        )?;
        let c = flatten(
            "C",
            &self.c_mat,
            dy,
            dy,
            "dy x dy, dy = the number of rows of C",
        )?;
        let b = flatten("B", &self.b_mat, dy, dx, "dy x dx")?;
        for (field, v, n, d) in [("a", &self.a, dx, "dx"), ("c", &self.c, dy, "dy")] {
            if v.len() != n {
                return Err(field_err(
                    field,
                    format!("expected length {n} ({d}), got {}", v.len()),
                ));
            }
        }
        let x_set = self
            .x_set
            .build(dx, "x_set")
            .map_err(|e| field_err("x_set", e.to_string()))?;
        let y_set = self
            .y_set
            .build(dy, "y_set")
            .map_err(|e| field_err("y_set", e.to_string()))?;
        for (field, v, n) in [("x0", &self.x0, dx), ("y0", &self.y0, dy)] {
            if v.len() != n {
                return Err(field_err(
                    field,
                    format!("expected length {n}, got {}", v.len()),
                ));
            }
            crate::error::ensure_finite(field, v).map_err(|e| field_err(field, e.to_string()))?;
        }
        if !x_set.contains(&self.x0, START_TOL) {
            return Err(field_err("x0", format!("is not in X = {}", x_set.name())));
        }
        if !y_set.contains(&self.y0, START_TOL) {
            return Err(field_err("y0", format!("is not in Y = {}", y_set.name())));
        }
        let q =
            Quadratic::new(a, b, c, self.a.clone(), self.c.clone(), x_set, y_set).map_err(|e| {
                match e {
                    Error::Invalid { what, reason } => field_err(&what, reason),
                    other => other,
                }
            })?;
        check_finite_constants(input, &q)?;
        Ok(Instance {
            problem: Box::new(q),
            x0: self.x0,
            y0: self.y0,
            family: format!("file:{input}"),
            seed: None,
        })
    }
}

/// A matrix field as a row-major `r x c` vector (`dims` describes the expected shape in the
/// errors): a wrong number of rows, a wrong shape, or one row of the wrong length is refused.
fn flatten_matrix(
    input: &str,
    field: &str,
    m: &[Vec<f64>],
    (r, c): (usize, usize),
    dims: &str,
) -> Result<Vec<f64>> {
    let field_err = |field: &str, reason: String| Error::input(input, field, reason);
    if m.len() != r {
        return Err(field_err(
            field,
            format!("expected {r} rows ({dims} = {r} x {c}), got {}", m.len()),
        ));
    }
    // every row of one wrong length: the matrix's shape is wrong, not one row
    if m.iter().all(|row| row.len() == m[0].len()) && m[0].len() != c {
        return Err(field_err(
            field,
            format!(
                "expected {dims} = {r} x {c}, got {r} rows x {} columns",
                m[0].len()
            ),
        ));
    }
    let mut out = Vec::with_capacity(r * c);
    for (i, row) in m.iter().enumerate() {
        if row.len() != c {
            return Err(field_err(
                &format!("{field}[{i}]"),
                format!("expected {c} columns, got {}", row.len()),
            ));
        }
        out.extend_from_slice(row);
    }
    Ok(out)
}

/// Finite entries whose products overflow f64 would give infinite constants and meaningless
/// measures (an overflowing LMO returns 0): refuse them.
fn check_finite_constants(input: &str, q: &Quadratic) -> Result<()> {
    let field_err = |field: &str, reason: String| Error::input(input, field, reason);
    let k = q.constants();
    for (field, name, v) in [
        ("A", "L_xx", k.lxx),
        ("B", "L_yx", k.lyx),
        ("C", "L_yy", k.lyy),
        ("C", "mu", k.mu),
        ("x_set", "the diameter of X", k.dx),
        ("y_set", "the diameter of Y", k.dy),
        ("y_set", "alpha", k.alpha.unwrap_or(0.0)),
    ] {
        if !v.is_finite() {
            return Err(field_err(
                field,
                format!("{name} = {v} is not finite: the entries are too large for f64 arithmetic (rescale the problem)"),
            ));
        }
    }
    Ok(())
}
