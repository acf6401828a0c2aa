//! The key of a memoised forward pass: problems keep the products that depend on x alone (the
//! scores of DRO, `D'K` and `R` of DL) together with the point they were computed at, so that
//! evaluations at the same x (the step's gradients and the checkpoint measures; `grad_y` then
//! `grad_x` of the Gauss-Seidel baselines; `value`, `y_model` and `f` inside one measure) pay
//! for one pass. Points are compared bit for bit, so a hit returns exactly what a recomputation
//! would. Products carried along moves ([`Carried`]) are keyed by the bits of a short point and
//! by the [`Fingerprint`] of a long one.
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
//! ```

/// Entries per hashed part of a [`Fingerprint`] (a fixed size, so the value does not depend on
/// the number of threads).
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
    /// Forgets the point (the memoised products are about to be overwritten).
    pub fn clear(&mut self) {
        self.valid = false;
    }
}

/// A 64-bit fingerprint of a point's bits: XXH3 of each part of 65,536 entries (the
/// parts hashed on up to `threads` threads), then XXH3 of the parts' hashes in order, so the
/// value is the same for any thread count. It identifies a long point the carried products
/// belong to ([`Carried`]) with one read of x per move and per step, where a bitwise copy cost
/// a copy and a comparison (40-50 MB of memory traffic per NEWS20 step, against 20 MB).
///
/// Two different points share a fingerprint with probability about `2^-64` (XXH3 is built so
/// that structured changes, such as a flipped sign, swapped entries or one ulp, behave like
/// random ones). The carried products only steer the solver's steps: a measure never reads
/// them, so such a collision could change the following iterates (and so what is reported
/// about them), never the measure of a given iterate.
///
/// ```
/// use saddlefw::problems::memo::Fingerprint;
/// let x: Vec<f64> = (0..200_000).map(|i| i as f64).collect();
/// assert_eq!(Fingerprint::of(&x, 1), Fingerprint::of(&x, 2));
/// let mut y = x.clone();
/// y[150_000] = -y[150_000];
/// assert_ne!(Fingerprint::of(&x, 2), Fingerprint::of(&y, 2));
/// // bit for bit: -0.0 is not 0.0, and another length differs
/// assert_ne!(Fingerprint::of(&[0.0], 1), Fingerprint::of(&[-0.0], 1));
/// assert_ne!(Fingerprint::of(&[0.0], 1), Fingerprint::of(&[0.0, 0.0], 1));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Fingerprint {
    len: usize,
    hash: u64,
}

impl Fingerprint {
    /// The fingerprint of `x`, its parts hashed on up to `threads` threads.
    pub fn of(x: &[f64], threads: usize) -> Fingerprint {
        let xxh3_64 = twox_hash::XxHash3_64::oneshot;
        let mut parts = vec![0u64; x.len().div_ceil(SPLIT_CHUNK)];
        let jobs: Vec<_> = parts.iter_mut().zip(x.chunks(SPLIT_CHUNK)).collect();
        crate::jobs::run_parts(jobs, threads, |(h, x)| {
            *h = xxh3_64(bytemuck::cast_slice(x));
        });
        Fingerprint {
            len: x.len(),
            hash: xxh3_64(bytemuck::cast_slice(&parts)),
        }
    }
}

/// Steps after which a problem's [`crate::SaddleProblem::step_grads`] recomputes the products it
/// carries along Frank-Wolfe moves exactly (DRO's scores, DL's `C'C'^T` and `A'C'^T`).
pub const CHAIN_RESYNC: usize = 32;

/// Points of up to this many entries are keyed by their bits ([`Carried`]): the copy stays in
/// the core's cache (DL's keyed C' block: 6,180 entries, 49 KB, at the paper's size), where a
/// [`Fingerprint`] measured 1-2% slower per DL step; longer points (NEWS20's x: 1,241,220
/// entries) by their fingerprint.
pub const BITWISE_KEY_MAX: usize = SPLIT_CHUNK;

/// The bookkeeping of products a problem carries along the solver's Frank-Wolfe moves
/// ([`crate::SaddleProblem::step_grads`], [`crate::SaddleProblem::note_fw_move`]): which point
/// they belong to, how many moves since their last exact computation, and whether a move may
/// follow. The products themselves stay with the problem.
#[derive(Debug, Default)]
pub struct Carried {
    /// The point the moved products belong to (set by [`Self::moved`]): its bits when it has
    /// at most [`BITWISE_KEY_MAX`] entries, ...
    bits: ForwardKey,
    /// ... else its fingerprint.
    key: Option<Fingerprint>,
    /// Moves since the last exact computation.
    age: usize,
    /// The products belong to the point of the last `step_grads` call (a move may follow).
    ready: bool,
}

impl Carried {
    /// Whether the products belong to `x` and are younger than [`CHAIN_RESYNC`] moves.
    pub(crate) fn usable_at(&self, x: &[f64], threads: usize) -> bool {
        self.age < CHAIN_RESYNC
            && (self.bits.matches(x) || self.key.is_some_and(|k| k == Fingerprint::of(x, threads)))
    }
    /// The products were just computed exactly (at the point of this `step_grads` call).
    pub fn restarted(&mut self) {
        self.age = 0;
        // they belong to this point, not to the last move's
        self.forget();
    }
    /// `step_grads` used or restarted the products: a move may follow.
    pub fn stepped(&mut self) {
        self.ready = true;
    }
    /// Whether the products may be moved: a `step_grads` call came before and the move `fits`
    /// them, and they would still be younger than [`CHAIN_RESYNC`] moves after it; otherwise
    /// they are dropped (the next step restarts them: moving them first was wasted work).
    pub(crate) fn may_move(&mut self, fits: bool) -> bool {
        let ok = std::mem::take(&mut self.ready) && fits && self.age + 1 < CHAIN_RESYNC;
        if !ok {
            self.forget();
        }
        ok
    }
    /// The products were moved to `x_next`.
    pub fn moved(&mut self, x_next: &[f64], threads: usize) {
        self.age += 1;
        self.forget();
        if x_next.len() <= BITWISE_KEY_MAX {
            self.bits.set(x_next);
        } else {
            self.key = Some(Fingerprint::of(x_next, threads));
        }
    }
    fn forget(&mut self) {
        self.bits.clear();
        self.key = None;
    }
    /// Moves since the last exact computation.
    pub fn age(&self) -> usize {
        self.age
    }
}
