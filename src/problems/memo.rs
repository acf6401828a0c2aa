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
//! ```

/// The point a memoised forward pass belongs to (empty: none yet).
#[derive(Debug, Clone, Default)]
pub struct ForwardKey {
    bits: Vec<u64>,
    valid: bool,
}

impl ForwardKey {
    /// Whether the memoised pass was computed at exactly `x` (bitwise).
    pub fn matches(&self, x: &[f64]) -> bool {
        self.valid
            && self.bits.len() == x.len()
            && self.bits.iter().zip(x).all(|(&b, v)| b == v.to_bits())
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
