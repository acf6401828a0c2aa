//! The key of a memoised forward pass: problems keep the products that depend on x alone (the
//! scores of DRO, `D'K` and `R` of DL) together with the point they were computed at, so that
//! evaluations at the same x (the step's gradients and the checkpoint measures; `grad_y` then
//! `grad_x` of the Gauss-Seidel baselines; `value`, `y_model` and `f` inside one measure) pay
//! for one pass. Points are compared bit for bit, so a hit returns exactly what a recomputation
//! would.
//!
//! ```
//! use saddlefw::problems::memo::ForwardKey;
//! let mut key = ForwardKey::default();
//! assert!(!key.matches(&[])); // nothing memoised yet
//! key.set(&[1.0, 2.0]);
//! assert!(key.matches(&[1.0, 2.0]) && !key.matches(&[1.0, 2.5]));
//! // bit for bit: -0.0 is not 0.0, and another length never matches
//! key.set(&[0.0]);
//! assert!(!key.matches(&[-0.0]) && !key.matches(&[0.0, 0.0]));
//! key.clear();
//! assert!(!key.matches(&[0.0]));
//! // the split forms give the same answers
//! let x: Vec<f64> = (0..200_000).map(|i| i as f64).collect();
//! key.set_split(&x, 2);
//! assert!(key.matches_split(&x, 2) && key.matches(&x));
//! let mut y = x.clone();
//! y[150_000] = -1.0;
//! assert!(!key.matches_split(&y, 2) && !key.matches(&y));
//! ```

/// Entries per part of [`ForwardKey::matches_split`] and [`ForwardKey::set_split`].
const SPLIT_CHUNK: usize = 1 << 16;

/// Whether some `x_i` differs from `bits_i` bit for bit: the differences OR-ed over blocks of
/// 64 entries (a loop without exits, so it vectorises; an entry-by-entry `any` did not), with
/// an exit after the first block that differs.
fn bits_differ(bits: &[u64], x: &[f64]) -> bool {
    debug_assert_eq!(bits.len(), x.len());
    const BLOCK: usize = 64;
    bits.chunks(BLOCK).zip(x.chunks(BLOCK)).any(|(b, x)| {
        b.iter()
            .zip(x)
            .fold(0u64, |acc, (&b, v)| acc | (b ^ v.to_bits()))
            != 0
    })
}

/// The point a memoised forward pass belongs to (empty: none yet).
#[derive(Debug, Clone, Default)]
pub struct ForwardKey {
    bits: Vec<u64>,
    valid: bool,
}

impl ForwardKey {
    /// Whether the memoised pass was computed at exactly `x` (bitwise).
    pub fn matches(&self, x: &[f64]) -> bool {
        self.valid && self.bits.len() == x.len() && !bits_differ(&self.bits, x)
    }
    /// Records that the pass now belongs to `x`.
    pub fn set(&mut self, x: &[f64]) {
        self.bits.clear();
        self.bits.extend(x.iter().map(|v| v.to_bits()));
        self.valid = true;
    }
    /// [`Self::matches`] with the comparison split over up to `threads` threads (the same
    /// answer; for points of millions of entries).
    pub fn matches_split(&self, x: &[f64], threads: usize) -> bool {
        if !self.valid || self.bits.len() != x.len() {
            return false;
        }
        let parts: Vec<_> = self
            .bits
            .chunks(SPLIT_CHUNK)
            .zip(x.chunks(SPLIT_CHUNK))
            .collect();
        let differs = std::sync::atomic::AtomicBool::new(false);
        crate::jobs::run_parts(parts, threads, |(bits, x)| {
            if bits_differ(bits, x) {
                differs.store(true, std::sync::atomic::Ordering::Relaxed);
            }
        });
        !differs.into_inner()
    }
    /// [`Self::set`] with the copy split over up to `threads` threads.
    pub fn set_split(&mut self, x: &[f64], threads: usize) {
        self.bits.resize(x.len(), 0);
        let parts: Vec<_> = self
            .bits
            .chunks_mut(SPLIT_CHUNK)
            .zip(x.chunks(SPLIT_CHUNK))
            .collect();
        crate::jobs::run_parts(parts, threads, |(bits, x)| {
            for (b, v) in bits.iter_mut().zip(x) {
                *b = v.to_bits();
            }
        });
        self.valid = true;
    }
    /// Forgets the point (the memoised products are about to be overwritten).
    pub fn clear(&mut self) {
        self.valid = false;
    }
}

/// Steps after which a problem's [`crate::SaddleProblem::step_grads`] recomputes the products it
/// carries along Frank-Wolfe moves exactly (DRO's scores, DL's `C'C'^T` and `A'C'^T`).
pub const CHAIN_RESYNC: usize = 32;

/// The bookkeeping of products a problem carries along the solver's Frank-Wolfe moves
/// ([`crate::SaddleProblem::step_grads`], [`crate::SaddleProblem::note_fw_move`]): which point
/// they belong to, how many moves since their last exact computation, and whether a move may
/// follow. The products themselves stay with the problem.
#[derive(Debug, Default)]
pub struct Carried {
    /// The point the moved products belong to (set by [`Self::moved`]).
    key: ForwardKey,
    /// Moves since the last exact computation.
    age: usize,
    /// The products belong to the point of the last `step_grads` call (a move may follow).
    ready: bool,
}

impl Carried {
    /// Whether the products belong to `x` and are younger than [`CHAIN_RESYNC`] moves.
    pub fn usable_at(&self, x: &[f64], threads: usize) -> bool {
        self.age < CHAIN_RESYNC && self.key.matches_split(x, threads)
    }
    /// The products were just computed exactly (at the point of this `step_grads` call).
    pub fn restarted(&mut self) {
        self.age = 0;
        // they belong to this point, not to the last move's
        self.key.clear();
    }
    /// `step_grads` used or restarted the products: a move may follow.
    pub fn stepped(&mut self) {
        self.ready = true;
    }
    /// Whether the products may be moved: a `step_grads` call came before and the move `fits`
    /// them; otherwise they are dropped (the next step restarts them).
    pub fn may_move(&mut self, fits: bool) -> bool {
        let ok = std::mem::take(&mut self.ready) && fits;
        if !ok {
            self.key.clear();
        }
        ok
    }
    /// The products were moved to `x_next`.
    pub fn moved(&mut self, x_next: &[f64], threads: usize) {
        self.age += 1;
        self.key.set_split(x_next, threads);
    }
    /// Moves since the last exact computation.
    pub fn age(&self) -> usize {
        self.age
    }
}
