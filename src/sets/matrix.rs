//! Matrix-valued sets (flat row-major `rows x cols`): the nuclear-norm ball and the set of
//! matrices whose columns have l2 norm at most a radius (the dictionary constraint).

use super::{positive, ConvexSet, RankOne, SetSpec};
use crate::spectral::{gram_top_pair, project_nuclear, GramWorkspace, ProjectionMode};
use std::sync::Mutex;

/// The nuclear-norm ball `{X in R^{rows x cols} : ||X||_* <= radius}`.
///
/// LMO: `-r u_1 v_1^T` with `(u_1, v_1)` the top singular pair of the gradient by the Gram
/// matrix of the short side (`crate::spectral::gram_top_pair`: one `k^2 N` product and an
/// `O(k^3)` top eigenpair; relative residual a few ulps, no gap dependence, no warm start).
/// Projection: singular values by the Gram route with a guarded fast path and a Jacobi-finished
/// accurate path (`crate::spectral::project_nuclear`), then projection of the singular values
/// onto `{s >= 0, sum s <= r}`. Scratch space is kept between calls (no allocation per call).
/// Diameter `2r` (Frobenius). Not strongly convex unless `rows == 1` or `cols == 1`, where it
/// is an l2 ball (alpha = 1/r).
#[derive(Debug)]
pub struct NuclearBall {
    rows: usize,
    cols: usize,
    radius: f64,
    work: Mutex<NuclearWork>,
}

/// Scratch space of the nuclear-norm oracles.
#[derive(Debug, Default)]
struct NuclearWork {
    gram: GramWorkspace,
    /// The factors of [`ConvexSet::lmo`]'s vertex.
    vertex: RankOne,
}

impl Clone for NuclearBall {
    fn clone(&self) -> Self {
        NuclearBall {
            rows: self.rows,
            cols: self.cols,
            radius: self.radius,
            work: Mutex::new(NuclearWork::default()),
        }
    }
}

impl NuclearBall {
    /// A nuclear-norm ball of `rows x cols` matrices with `radius > 0`.
    pub fn new(rows: usize, cols: usize, radius: f64) -> crate::Result<Self> {
        if rows == 0 || cols == 0 || rows.checked_mul(cols).is_none() {
            return Err(crate::Error::invalid(
                "nuclear_ball shape",
                format!("rows and cols must be at least 1 and rows * cols must fit in memory (got {rows} x {cols})"),
            ));
        }
        Ok(NuclearBall {
            rows,
            cols,
            radius: positive("nuclear_ball radius", radius)?,
            work: Mutex::new(NuclearWork::default()),
        })
    }
    /// `(rows, cols)`.
    pub fn shape(&self) -> (usize, usize) {
        (self.rows, self.cols)
    }
    /// The radius.
    pub fn radius(&self) -> f64 {
        self.radius
    }
    /// Runs the Gram products of both oracles on up to `threads` threads (bitwise the same
    /// results for any count; `crate::spectral::GRAM_BLOCK`).
    pub fn set_threads(&mut self, threads: usize) {
        self.work
            .get_mut()
            .unwrap_or_else(|e| e.into_inner())
            .gram
            .set_threads(threads);
    }
    /// Runs `f` on the scratch space (a private one when another thread holds it).
    fn with_work<T>(&self, f: impl FnOnce(&mut NuclearWork) -> T) -> T {
        match self.work.try_lock() {
            Ok(mut w) => f(&mut w),
            Err(_) => f(&mut NuclearWork::default()),
        }
    }
    /// `out = -r u v^T`, in blocks of rows over `threads` threads (entry by entry, the same
    /// bits for any count).
    fn write_vertex(&self, u: &[f64], v: &[f64], out: &mut [f64], threads: usize) {
        let rows_per_part = (1 << 16) / self.cols + 1;
        let parts: Vec<_> = out
            .chunks_mut(rows_per_part * self.cols)
            .zip(u.chunks(rows_per_part))
            .collect();
        let (cols, radius) = (self.cols, self.radius);
        crate::jobs::run_parts(parts, threads, |(out, u)| {
            crate::linalg::simd(move || {
                for (row, &ui) in out.chunks_exact_mut(cols).zip(u) {
                    let c = -radius * ui;
                    for (o, &vj) in row.iter_mut().zip(v) {
                        *o = c * vj;
                    }
                }
            })
        });
    }
    /// The LMO vertex `-r u_1 v_1^T` of `g` into `out` and its factors into `vertex` (a NaN
    /// vertex and `false` when the eigensolver fails).
    fn top_vertex(
        &self,
        g: &[f64],
        out: &mut [f64],
        vertex: &mut RankOne,
        gram: &mut GramWorkspace,
    ) -> bool {
        let found = self.top_factors(g, vertex, gram);
        if found {
            self.write_vertex(&vertex.u, &vertex.v, out, vertex.threads);
        } else {
            out.iter_mut().for_each(|o| *o = f64::NAN);
        }
        found
    }
    /// The factors of the LMO vertex `-r u_1 v_1^T` of `g` into `vertex` (`false` when the
    /// eigensolver fails).
    fn top_factors(&self, g: &[f64], vertex: &mut RankOne, gram: &mut GramWorkspace) -> bool {
        vertex.u.resize(self.rows, 0.0);
        vertex.v.resize(self.cols, 0.0);
        vertex.scale = -self.radius;
        vertex.threads = gram.threads();
        vertex.offset = 0;
        gram_top_pair(g, self.rows, self.cols, gram, &mut vertex.u, &mut vertex.v).is_some()
    }
    /// Nuclear norm of a flat `rows x cols` matrix (faer's singular values; NaN when they fail
    /// to converge, i.e. for non-finite input).
    pub(crate) fn nuclear_norm(&self, z: &[f64]) -> f64 {
        match crate::linalg::mat(z, self.rows, self.cols).singular_values() {
            Ok(s) => s.iter().sum(),
            Err(_) => f64::NAN,
        }
    }
}

impl ConvexSet for NuclearBall {
    fn dim(&self) -> usize {
        self.rows * self.cols
    }
    fn name(&self) -> String {
        format!(
            "nuclear_ball({}x{}, r={})",
            self.rows, self.cols, self.radius
        )
    }
    fn lmo(&self, g: &[f64], out: &mut [f64]) {
        self.with_work(|w| self.top_vertex(g, out, &mut w.vertex, &mut w.gram));
    }
    /// The same vertex as [`ConvexSet::lmo`], with its factors `(-r, u_1, v_1)`; `false` (and a
    /// NaN vertex) when the eigensolver fails.
    fn lmo_rank_one(&self, g: &[f64], out: &mut [f64], vertex: &mut RankOne) -> bool {
        self.with_work(|w| self.top_vertex(g, out, vertex, &mut w.gram))
    }
    fn lmo_factors(&self, g: &[f64], vertex: &mut RankOne) -> Option<bool> {
        Some(self.with_work(|w| self.top_factors(g, vertex, &mut w.gram)))
    }
    fn project(&self, z: &[f64], out: &mut [f64]) {
        self.with_work(|w| {
            project_nuclear(
                z,
                self.rows,
                self.cols,
                self.radius,
                out,
                &mut w.gram,
                ProjectionMode::Auto,
            );
        })
    }
    fn contains(&self, z: &[f64], tol: f64) -> bool {
        z.len() == self.dim() && self.nuclear_norm(z) <= self.radius * (1.0 + tol) + tol
    }
    fn diameter(&self) -> f64 {
        2.0 * self.radius
    }
    fn strong_convexity(&self) -> Option<f64> {
        if self.rows == 1 || self.cols == 1 {
            Some(1.0 / self.radius)
        } else {
            None
        }
    }
    fn spec(&self) -> Option<SetSpec> {
        Some(SetSpec::NuclearBall {
            rows: self.rows,
            cols: self.cols,
            radius: self.radius,
        })
    }
}

/// Matrices `D in R^{rows x cols}` whose columns satisfy `||d_j||_2 <= radius` (a product of
/// `cols` balls). Diameter `2 r sqrt(cols)`. Not strongly convex unless `cols == 1`.
#[derive(Debug, Clone)]
pub struct UnitColumns {
    rows: usize,
    cols: usize,
    radius: f64,
}

impl UnitColumns {
    /// Column-bounded matrices of shape `rows x cols` with column radius `radius > 0`.
    pub fn new(rows: usize, cols: usize, radius: f64) -> crate::Result<Self> {
        if rows == 0 || cols == 0 || rows.checked_mul(cols).is_none() {
            return Err(crate::Error::invalid(
                "unit_columns shape",
                format!("rows and cols must be at least 1 and rows * cols must fit in memory (got {rows} x {cols})"),
            ));
        }
        Ok(UnitColumns {
            rows,
            cols,
            radius: positive("unit_columns radius", radius)?,
        })
    }
    /// `(rows, cols)`.
    pub fn shape(&self) -> (usize, usize) {
        (self.rows, self.cols)
    }
    /// Writes `factor(||z_j||)` into `out[j]` (the first row of `out`), for every column j.
    fn column_factors(&self, z: &[f64], out: &mut [f64], factor: impl Fn(f64) -> f64) {
        let first = &mut out[..self.cols];
        first.iter_mut().for_each(|v| *v = 0.0);
        crate::linalg::simd(|| {
            for row in z.chunks_exact(self.cols) {
                for (acc, &v) in first.iter_mut().zip(row) {
                    *acc += v * v;
                }
            }
        });
        first.iter_mut().for_each(|v| *v = factor(v.sqrt()));
    }
    /// With one factor per column in the first row of `out` ([`Self::column_factors`]), writes
    /// `below(z_ij, factor_j)` into the rows below the first (they read the factors through a
    /// split borrow, so the loop vectorises), then `first(z_0j, factor_j)` over the factors.
    fn map_columns(
        &self,
        z: &[f64],
        out: &mut [f64],
        below: impl Fn(f64, f64) -> f64,
        first: impl Fn(f64, f64) -> f64,
    ) {
        let (factors, rest) = out.split_at_mut(self.cols);
        crate::linalg::simd(|| {
            for (o_row, z_row) in rest
                .chunks_exact_mut(self.cols)
                .zip(z[self.cols..].chunks_exact(self.cols))
            {
                for ((o, &zv), &f) in o_row.iter_mut().zip(z_row).zip(factors.iter()) {
                    *o = below(zv, f);
                }
            }
        });
        for (o, &zv) in factors.iter_mut().zip(z) {
            *o = first(zv, *o);
        }
    }
    fn column_norms(&self, z: &[f64]) -> Vec<f64> {
        let mut n = vec![0.0; self.cols];
        for i in 0..self.rows {
            for j in 0..self.cols {
                n[j] += z[i * self.cols + j] * z[i * self.cols + j];
            }
        }
        n.iter_mut().for_each(|v| *v = v.sqrt());
        n
    }
}

impl ConvexSet for UnitColumns {
    fn dim(&self) -> usize {
        self.rows * self.cols
    }
    fn name(&self) -> String {
        format!(
            "unit_columns({}x{}, r={})",
            self.rows, self.cols, self.radius
        )
    }
    fn lmo(&self, g: &[f64], out: &mut [f64]) {
        // the first row of `out` holds the column norms until it is written last: no
        // allocation
        self.column_factors(g, out, |n| n);
        let r = self.radius;
        self.map_columns(
            g,
            out,
            // divide unconditionally (by 1 for a zero column), then select: no branch; `move`
            // copies r into the closure (borrowed, it was reloaded per entry and the loop stayed
            // scalar: 9.9 against 4.0 us at 100 x 60, `dictionary_set/unit_columns_lmo`)
            move |gv, n| {
                let v = -r * gv / if n > 0.0 { n } else { 1.0 };
                if n > 0.0 {
                    v
                } else {
                    0.0
                }
            },
            // a zero column's vertex is -r e_1
            |gv, n| if n > 0.0 { -r * gv / n } else { -r },
        );
    }
    fn project(&self, z: &[f64], out: &mut [f64]) {
        self.column_factors(z, out, |n| {
            if n > self.radius {
                self.radius / n
            } else {
                1.0
            }
        });
        self.map_columns(z, out, |zv, f| f * zv, |zv, f| f * zv);
    }
    fn contains(&self, z: &[f64], tol: f64) -> bool {
        z.len() == self.dim()
            && self
                .column_norms(z)
                .iter()
                .all(|&c| c <= self.radius * (1.0 + tol) + tol)
    }
    fn diameter(&self) -> f64 {
        2.0 * self.radius * (self.cols as f64).sqrt()
    }
    fn strong_convexity(&self) -> Option<f64> {
        if self.cols == 1 {
            Some(1.0 / self.radius)
        } else {
            None
        }
    }
    fn spec(&self) -> Option<SetSpec> {
        Some(SetSpec::UnitColumns {
            rows: self.rows,
            cols: self.cols,
            radius: Some(self.radius),
        })
    }
}
