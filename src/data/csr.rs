//! Compressed sparse row (CSR) matrices and the two products the DRO problem needs:
//! `A W` (sparse x dense, `n x d` times `d x k`) and `A^T R` (`d x n` times `n x k`).
//!
//! Both products are written row-major: every non-zero `a_il` adds `a_il * W[l, :]` (a contiguous
//! row of `k` values) to `out[i, :]`. The transpose product uses a second CSR holding `A^T`, built
//! once by a counting sort ([`SparseMatrix`]), so it is the same kernel again: no scattered writes,
//! no strided reads.
//!
//! ```
//! use saddlefw::data::{Csr, SparseMatrix};
//! // A = [[1, 0, 2], [0, 3, 0]]: exact zeros are dropped
//! let a = Csr::from_dense(2, 3, &[1.0, 0.0, 2.0, 0.0, 3.0, 0.0]).unwrap();
//! assert_eq!((a.nnz(), a.indptr()), (3, &[0, 2, 3][..]));
//! let s = SparseMatrix::new(a);
//! // A W with W = (1, 1, 1)^T (k = 1): the row sums
//! let mut aw = [0.0; 2];
//! s.mul(&[1.0, 1.0, 1.0], 1, &mut aw);
//! assert_eq!(aw, [3.0, 3.0]);
//! // A^T R with R = (1, 2)^T: through the stored transpose
//! let mut atr = [0.0; 3];
//! s.tmul(&[1.0, 2.0], 1, &mut atr);
//! assert_eq!(atr, [1.0, 6.0, 2.0]);
//! // column indices must ascend within a row
//! let e = Csr::new(1, 3, vec![0, 2], vec![2, 0], vec![1.0, 1.0]).unwrap_err();
//! assert!(e.to_string().contains("row 0") && e.to_string().contains("ascending"), "{e}");
//! ```

use crate::{Error, Result};
use std::ops::Range;

/// A CSR matrix: row `i` holds the column indices `indices[indptr[i]..indptr[i+1]]` (strictly
/// ascending) and the values at the same positions.
#[derive(Debug, Clone, PartialEq)]
pub struct Csr {
    n_rows: usize,
    n_cols: usize,
    indptr: Vec<usize>,
    indices: Vec<u32>,
    values: Vec<f64>,
}

impl Csr {
    /// Builds and validates a CSR matrix: `indptr` has `n_rows + 1` non-decreasing entries
    /// starting at 0 and ending at `nnz`, column indices are `< n_cols` and strictly ascending
    /// within each row, values are finite.
    pub fn new(
        n_rows: usize,
        n_cols: usize,
        indptr: Vec<usize>,
        indices: Vec<u32>,
        values: Vec<f64>,
    ) -> Result<Self> {
        let bad = |reason: String| Err(Error::invalid("CSR matrix", reason));
        if indptr.len() != n_rows + 1 || indptr[0] != 0 {
            return bad(format!(
                "indptr must have n_rows + 1 = {} entries starting at 0",
                n_rows + 1
            ));
        }
        if indices.len() != values.len() || *indptr.last().unwrap() != indices.len() {
            return bad("indptr, indices and values disagree on the number of non-zeros".into());
        }
        if n_cols > u32::MAX as usize + 1 {
            return bad(format!("too many columns ({n_cols}) for 32-bit indices"));
        }
        for i in 0..n_rows {
            if indptr[i] > indptr[i + 1] {
                return bad(format!("indptr decreases at row {i}"));
            }
            let row = &indices[indptr[i]..indptr[i + 1]];
            if row.windows(2).any(|w| w[0] >= w[1]) {
                return bad(format!(
                    "column indices of row {i} are not strictly ascending"
                ));
            }
            if row.last().is_some_and(|&j| j as usize >= n_cols) {
                return bad(format!("row {i} has a column index >= n_cols = {n_cols}"));
            }
        }
        crate::error::ensure_finite("CSR values", &values)?;
        Ok(Csr {
            n_rows,
            n_cols,
            indptr,
            indices,
            values,
        })
    }

    /// The CSR form of a dense row-major `rows x cols` matrix (exact zeros are dropped).
    pub fn from_dense(rows: usize, cols: usize, a: &[f64]) -> Result<Self> {
        assert_eq!(a.len(), rows * cols, "dense matrix shape");
        let mut indptr = vec![0];
        let mut indices = Vec::new();
        let mut values = Vec::new();
        for i in 0..rows {
            for j in 0..cols {
                let v = a[i * cols + j];
                if v != 0.0 {
                    indices.push(j as u32);
                    values.push(v);
                }
            }
            indptr.push(indices.len());
        }
        Csr::new(rows, cols, indptr, indices, values)
    }

    /// Trusted constructor for internal use (the invariants hold by construction).
    pub(crate) fn from_parts_unchecked(
        n_rows: usize,
        n_cols: usize,
        indptr: Vec<usize>,
        indices: Vec<u32>,
        values: Vec<f64>,
    ) -> Self {
        debug_assert_eq!(indptr.len(), n_rows + 1);
        debug_assert_eq!(indices.len(), values.len());
        Csr {
            n_rows,
            n_cols,
            indptr,
            indices,
            values,
        }
    }

    /// Number of rows.
    pub fn n_rows(&self) -> usize {
        self.n_rows
    }
    /// Number of columns.
    pub fn n_cols(&self) -> usize {
        self.n_cols
    }
    /// Number of stored non-zeros.
    pub fn nnz(&self) -> usize {
        self.values.len()
    }
    /// Row pointers (`n_rows + 1` entries).
    pub fn indptr(&self) -> &[usize] {
        &self.indptr
    }
    /// Column indices of all non-zeros, row by row.
    pub fn indices(&self) -> &[u32] {
        &self.indices
    }
    /// Values of all non-zeros, row by row.
    pub fn values(&self) -> &[f64] {
        &self.values
    }
    /// Column indices and values of row `i`.
    pub fn row(&self, i: usize) -> (&[u32], &[f64]) {
        let r = self.indptr[i]..self.indptr[i + 1];
        (&self.indices[r.clone()], &self.values[r])
    }

    /// Dense row-major copy (for tests and tiny matrices).
    pub fn to_dense(&self) -> Vec<f64> {
        let mut a = vec![0.0; self.n_rows * self.n_cols];
        for i in 0..self.n_rows {
            let (idx, val) = self.row(i);
            for (&j, &v) in idx.iter().zip(val) {
                a[i * self.n_cols + j as usize] = v;
            }
        }
        a
    }

    /// The transpose as a CSR matrix (a counting sort over columns, `O(nnz + n_cols)`); the
    /// column indices of each row of the result are ascending because rows are visited in order.
    pub fn transpose(&self) -> Csr {
        let mut counts = vec![0usize; self.n_cols + 1];
        for &j in &self.indices {
            counts[j as usize + 1] += 1;
        }
        for j in 0..self.n_cols {
            counts[j + 1] += counts[j];
        }
        let indptr = counts.clone();
        let mut next = counts;
        let mut indices = vec![0u32; self.nnz()];
        let mut values = vec![0.0; self.nnz()];
        for i in 0..self.n_rows {
            let (idx, val) = self.row(i);
            for (&j, &v) in idx.iter().zip(val) {
                let p = next[j as usize];
                indices[p] = i as u32;
                values[p] = v;
                next[j as usize] += 1;
            }
        }
        Csr::from_parts_unchecked(self.n_cols, self.n_rows, indptr, indices, values)
    }

    /// `out = A B` for a dense row-major `B` of shape `n_cols x k`; `out` is row-major
    /// `n_rows x k` and is overwritten.
    ///
    /// Each output row is accumulated in registers, up to `TILE` columns per pass over the
    /// row's non-zeros (a tile width fixed at compile time, so the lanes are unrolled into
    /// independent accumulators): per non-zero one contiguous load of the `B` row's tile and a
    /// multiply-add per lane, no load/store of the output. It runs inside
    /// `crate::linalg::simd`: vectorised for the CPU at hand, the same bits on every path.
    pub fn mul_dense(&self, b: &[f64], k: usize, out: &mut [f64]) {
        self.mul_dense_rows(0..self.n_rows, b, k, out)
    }

    /// [`Self::mul_dense`] restricted to the rows `rows`: `out` (row-major `rows.len() x k`)
    /// receives rows `rows` of `A B`, each computed exactly as `mul_dense` computes it (so a
    /// product assembled from blocks of rows is bitwise the whole product).
    pub fn mul_dense_rows(&self, rows: Range<usize>, b: &[f64], k: usize, out: &mut [f64]) {
        assert_eq!(b.len(), self.n_cols * k, "dense factor shape");
        assert!(
            rows.start <= rows.end && rows.end <= self.n_rows,
            "row range"
        );
        assert_eq!(out.len(), rows.len() * k, "output shape");
        if k == 0 {
            return;
        }
        struct Op<'a>(&'a Csr, Range<usize>, &'a [f64], usize, &'a mut [f64]);
        impl pulp::WithSimd for Op<'_> {
            type Output = ();
            #[inline(always)]
            fn with_simd<S: pulp::Simd>(self, _simd: S) {
                let Op(a, rows, b, k, out) = self;
                a.mul_dense_kernel(rows, b, k, out)
            }
        }
        crate::linalg::dispatch(Op(self, rows, b, k, out))
    }

    /// `out = A B` over `threads` threads: the rows are split into [`Self::row_blocks`] and
    /// every block is computed by [`Self::mul_dense_rows`] on its own thread, so the result is
    /// bitwise [`Self::mul_dense`]'s for any thread count.
    pub fn mul_dense_threads(&self, b: &[f64], k: usize, out: &mut [f64], threads: usize) {
        self.for_each_block(k, out, threads, |rows, o| {
            self.mul_dense_rows(rows, b, k, o)
        });
    }

    /// [`Self::mul_dense_threads`], and whether every entry of `out` came out finite: each block
    /// checks its rows in runs of `CHECK_ENTRIES` entries right after computing them, while
    /// they are still in the core's cache, instead of a pass over the whole of `out` afterwards
    /// (10 MB per NEWS20 gradient, about 0.24 ms out of cache on one thread or two). The same
    /// bits as [`Self::mul_dense`]; the check costs a little even when nobody reads it.
    pub fn mul_dense_threads_checked(
        &self,
        b: &[f64],
        k: usize,
        out: &mut [f64],
        threads: usize,
    ) -> bool {
        if k == 0 {
            // no entries: nothing to check
            self.mul_dense_threads(b, k, out, threads);
            return true;
        }
        let run = (CHECK_ENTRIES / k).max(1);
        let finite = std::sync::atomic::AtomicBool::new(true);
        self.for_each_block(k, out, threads, |rows, o| {
            let mut ok = true;
            for (start, o) in rows.clone().step_by(run).zip(o.chunks_mut(run * k)) {
                self.mul_dense_rows(start..(start + run).min(rows.end), b, k, o);
                ok &= crate::linalg::all_finite(o);
            }
            if !ok {
                finite.store(false, std::sync::atomic::Ordering::Relaxed);
            }
        });
        finite.into_inner()
    }

    /// Each block of [`Self::row_blocks`] with its rows of `out` (row-major, width `k`), handed
    /// to `f` on one of `threads` threads.
    fn for_each_block(
        &self,
        k: usize,
        out: &mut [f64],
        threads: usize,
        f: impl Fn(Range<usize>, &mut [f64]) + Sync,
    ) {
        let blocks = self.row_blocks(threads, k);
        let parts = blocks.iter().cloned().zip(split_rows(out, &blocks, k));
        crate::jobs::run_parts(parts.collect(), threads, |(rows, o)| f(rows, o));
    }

    /// The blocks of rows a product with `k` columns is cut into for `threads` threads: all
    /// rows for one thread or less than two blocks' work (`MIN_BLOCK_WORK` multiply-adds),
    /// else contiguous blocks that shrink along the rows (handed out in order to whichever
    /// thread is free, `crate::jobs::run_parts`). Each block takes `1 / (threads *
    /// BLOCKS_PER_THREAD / 2)` of the non-zeros still left (rounded up to a row boundary), and
    /// every block but the last at least `1 / (threads * BLOCKS_PER_THREAD * 4)` of all
    /// non-zeros and `MIN_BLOCK_WORK` multiply-adds, so the threads finish within a small
    /// block of each other. Enough work for two blocks usually gives several, but rows without
    /// non-zeros or one heavy row may still give one. Depends only on the matrix, `threads` and
    /// `k`, never on timing.
    ///
    /// ```
    /// use saddlefw::data::Csr;
    /// let a = Csr::from_dense(4, 1, &[1.0; 4]).unwrap();
    /// assert_eq!(a.row_blocks(2, 1), [0..4]); // too little work to split
    /// assert_eq!(a.row_blocks(1, 1 << 20), [0..4]);
    /// assert_eq!(a.row_blocks(2, 1 << 20), [0..1, 1..2, 2..3, 3..4]); // one row each
    /// let b = Csr::from_dense(640, 1, &[1.0; 640]).unwrap();
    /// let sizes: Vec<usize> = b.row_blocks(2, 1 << 20).iter().map(|r| r.len()).collect();
    /// assert_eq!(&sizes[..4], [80, 70, 61, 53]); // 1/8 of what is left
    /// assert!(sizes.iter().all(|&n| n >= 10)); // at least 1/64 of all
    /// assert!(sizes[sizes.len() - 1] < 20);
    /// assert_eq!(sizes.iter().sum::<usize>(), 640);
    /// ```
    pub fn row_blocks(&self, threads: usize, k: usize) -> Vec<Range<usize>> {
        let nnz = self.nnz();
        let work = nnz.saturating_mul(k).max(self.n_rows.saturating_mul(k));
        if self.n_rows == 0 {
            return Vec::new();
        }
        if threads <= 1 || work / MIN_BLOCK_WORK < 2 {
            return vec![0..self.n_rows];
        }
        let share = threads.saturating_mul(BLOCKS_PER_THREAD / 2).max(1);
        // the smallest block in non-zeros: MIN_BLOCK_WORK multiply-adds, 1 / (8 share) of all
        let least = ((MIN_BLOCK_WORK as u128 * nnz as u128).div_ceil(work as u128) as usize)
            .max(nnz / share.saturating_mul(8))
            .max(1);
        let mut blocks = Vec::new();
        let mut start = 0;
        while start < self.n_rows {
            let done = self.indptr[start];
            let left = nnz - done;
            let take = (left / share).max(least);
            let end = if left - take.min(left) < least {
                self.n_rows
            } else {
                // the first row boundary at or after `take` more non-zeros
                self.indptr
                    .partition_point(|&x| x < done + take)
                    .clamp(start + 1, self.n_rows)
            };
            blocks.push(start..end);
            start = end;
        }
        blocks
    }

    #[inline(always)]
    fn mul_dense_kernel(&self, rows: Range<usize>, b: &[f64], k: usize, out: &mut [f64]) {
        for (i, orow) in rows.zip(out.chunks_exact_mut(k)) {
            let (idx, val) = self.row(i);
            let mut c = 0;
            while c < k {
                let w = TILE.min(k - c);
                tile_dispatch(w, idx, val, b, k, c, &mut orow[c..c + w]);
                c += w;
            }
        }
    }

    /// Squared Euclidean norms of the rows.
    pub fn row_norms_sq(&self) -> Vec<f64> {
        (0..self.n_rows)
            .map(|i| self.row(i).1.iter().map(|v| v * v).sum())
            .collect()
    }

    /// Largest absolute column sum `||A||_1` (operator 1-norm).
    pub(crate) fn norm_1(&self) -> f64 {
        let mut s = vec![0.0; self.n_cols];
        for (&j, &v) in self.indices.iter().zip(&self.values) {
            s[j as usize] += v.abs();
        }
        s.into_iter().fold(0.0, f64::max)
    }

    /// Largest absolute row sum `||A||_inf` (operator infinity-norm).
    pub(crate) fn norm_inf(&self) -> f64 {
        (0..self.n_rows)
            .map(|i| self.row(i).1.iter().map(|v| v.abs()).sum::<f64>())
            .fold(0.0, f64::max)
    }

    /// Multiplies row `i` by `s[i]`.
    pub(crate) fn scale_rows(&mut self, s: &[f64]) {
        assert_eq!(s.len(), self.n_rows);
        for (i, &si) in s.iter().enumerate() {
            let r = self.indptr[i]..self.indptr[i + 1];
            self.values[r].iter_mut().for_each(|v| *v *= si);
        }
    }

    /// Multiplies column `j` by `s[j]`.
    pub(crate) fn scale_cols(&mut self, s: &[f64]) {
        assert_eq!(s.len(), self.n_cols);
        for (v, &j) in self.values.iter_mut().zip(&self.indices) {
            *v *= s[j as usize];
        }
    }

    /// The sub-matrix made of the given rows, in the given order (same number of columns).
    pub(crate) fn select_rows(&self, rows: &[usize]) -> Csr {
        let mut indptr = Vec::with_capacity(rows.len() + 1);
        indptr.push(0);
        let nnz: usize = rows
            .iter()
            .map(|&i| self.indptr[i + 1] - self.indptr[i])
            .sum();
        let mut indices = Vec::with_capacity(nnz);
        let mut values = Vec::with_capacity(nnz);
        for &i in rows {
            let (idx, val) = self.row(i);
            indices.extend_from_slice(idx);
            values.extend_from_slice(val);
            indptr.push(indices.len());
        }
        Csr::from_parts_unchecked(rows.len(), self.n_cols, indptr, indices, values)
    }
}

/// Widest register tile of [`Csr::mul_dense`] (32 doubles: 8 AVX2 registers).
pub const TILE: usize = 32;

/// Fewest multiply-adds of a sparse product a block of [`Csr::row_blocks`] gets: tens of
/// microseconds of work, against the few microseconds of handing a block to a thread.
pub const MIN_BLOCK_WORK: usize = 1 << 15;

/// Output entries a checked product ([`Csr::mul_dense_threads_checked`]) computes before it
/// checks them (whole rows, at least one): 256 KB, within a core's L2 cache for any width.
pub const CHECK_ENTRIES: usize = 1 << 15;

/// Sets the block sizes of a split product ([`Csr::row_blocks`]): a block takes `2 /
/// (threads * BLOCKS_PER_THREAD)` of the non-zeros still left, so a thread which gets less of a
/// CPU on a loaded machine does fewer blocks instead of holding up the others, and the last
/// blocks are small, so the threads finish close together.
pub const BLOCKS_PER_THREAD: usize = 8;
const _: () = assert!(BLOCKS_PER_THREAD >= 2 && BLOCKS_PER_THREAD % 2 == 0);

/// Splits the row-major `out` (rows of `width` values) into the disjoint slices of the
/// consecutive row ranges `blocks` (which must start at row 0 and follow each other).
pub(crate) fn split_rows<'a, T>(
    mut out: &'a mut [T],
    blocks: &[Range<usize>],
    width: usize,
) -> Vec<&'a mut [T]> {
    let mut parts = Vec::with_capacity(blocks.len());
    let mut at = 0;
    for b in blocks {
        assert_eq!(b.start, at, "row blocks must be consecutive");
        let (head, tail) = std::mem::take(&mut out).split_at_mut(b.len() * width);
        parts.push(head);
        out = tail;
        at = b.end;
    }
    parts
}

/// [`tile`] with the width `w <= TILE` known at compile time.
#[inline(always)]
fn tile_dispatch(
    w: usize,
    idx: &[u32],
    val: &[f64],
    b: &[f64],
    k: usize,
    c: usize,
    out: &mut [f64],
) {
    macro_rules! widths {
        ($($n:literal)*) => {
            match w {
                $($n => tile::<$n>(idx, val, b, k, c, out),)*
                _ => unreachable!("tile width {w} > TILE"),
            }
        };
    }
    widths!(1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 32)
}

/// `out[l] = sum_p val[p] * b[idx[p] * k + c + l]` for `l < W`, accumulated in registers.
#[inline(always)]
fn tile<const W: usize>(idx: &[u32], val: &[f64], b: &[f64], k: usize, c: usize, out: &mut [f64]) {
    let mut acc = [0.0f64; W];
    for (&j, &v) in idx.iter().zip(val) {
        let start = j as usize * k + c;
        let w: &[f64; W] = b[start..start + W].try_into().expect("tile width");
        for l in 0..W {
            acc[l] += v * w[l];
        }
    }
    out.copy_from_slice(&acc);
}

/// A CSR matrix together with its transpose (built once), so that both `A W` and `A^T R` are
/// row-major sparse x dense products, and the number of threads they are split over
/// ([`Csr::mul_dense_threads`]: every output row is computed by one thread in the
/// single-threaded order, so results do not depend on it).
#[derive(Debug, Clone)]
pub struct SparseMatrix {
    a: Csr,
    at: Csr,
    threads: usize,
}

impl SparseMatrix {
    /// Wraps `a` and builds its transpose; one thread.
    pub fn new(a: Csr) -> Self {
        let at = a.transpose();
        SparseMatrix { a, at, threads: 1 }
    }
    /// Sets the number of threads of the products (at least 1).
    pub fn set_threads(&mut self, threads: usize) {
        self.threads = threads.max(1);
    }
    /// The number of threads of the products.
    pub fn threads(&self) -> usize {
        self.threads
    }
    /// The matrix `A` (`n x d`).
    pub fn a(&self) -> &Csr {
        &self.a
    }
    /// Its transpose `A^T` (`d x n`).
    pub fn at(&self) -> &Csr {
        &self.at
    }
    /// `out = A W`, `W` row-major `d x k`, `out` row-major `n x k`.
    pub fn mul(&self, w: &[f64], k: usize, out: &mut [f64]) {
        self.a.mul_dense_threads(w, k, out, self.threads)
    }
    /// `out = A^T R`, `R` row-major `n x k`, `out` row-major `d x k`.
    pub fn tmul(&self, r: &[f64], k: usize, out: &mut [f64]) {
        self.at.mul_dense_threads(r, k, out, self.threads)
    }
    /// [`Self::tmul`], and whether `out` came out finite ([`Csr::mul_dense_threads_checked`]).
    pub fn tmul_checked(&self, r: &[f64], k: usize, out: &mut [f64]) -> bool {
        self.at.mul_dense_threads_checked(r, k, out, self.threads)
    }
}
