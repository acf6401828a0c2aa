//! A named inequality of the paper ([`Invariant`]) and its check function by scope
//! ([`Check`]); the registry files declare them with `inv!`.
//!
//! ```
//! use saddlefw::invariants::{find, Check};
//! let i = find("repeat-saddle").unwrap();
//! assert!(matches!(i.check, Check::Point(_) | Check::Run(_) | Check::Step(_) | Check::Real(_)));
//! ```

use super::context::Hyp;
use super::context::{PointCtx, RunCtx};
use super::model::{Eval, Kind, Scope};

/// The check of an invariant, by scope.
#[derive(Clone, Copy)]
pub enum Check {
    Point(fn(&PointCtx) -> Vec<Eval>),
    /// Evaluated for the transition `t -> t+1` (argument t).
    Step(fn(&RunCtx, usize) -> Vec<Eval>),
    Run(fn(&RunCtx) -> Vec<Eval>),
    /// Each evaluation with a description of its grid point.
    Real(fn() -> Vec<(Eval, String)>),
}

/// A named inequality of the paper.
#[derive(Clone, Copy)]
pub struct Invariant {
    /// Kebab-case registry name.
    pub name: &'static str,
    /// Paper label and item, e.g. `lemma:calculus (ii)`.
    pub label: &'static str,
    /// The inequality in ASCII (also in the doc comment of its check function).
    pub statement: &'static str,
    pub hyp: Hyp,
    pub scope: Scope,
    /// Whether a violation fails `saddlefw check` (false exactly for printed forms).
    pub gating: bool,
    pub kind: Kind,
    pub check: Check,
}

impl std::fmt::Debug for Invariant {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Invariant")
            .field("name", &self.name)
            .field("label", &self.label)
            .field("scope", &self.scope)
            .field("gating", &self.gating)
            .finish()
    }
}
