//! The faults of Algorithms 1-3: deliberately broken variants of one step, the ONE vocabulary
//! of broken steps. `solvers::control::with_fault` applies them: `constant-tau` as a
//! schedule, `extra-projection` as a wrapper, the others (quantities inside one iteration)
//! through [`super::DualSmoothing`]'s one step hook; `crate::invariants::controls` names three
//! of them as `saddlefw check --control` values.
//!
//! ```
//! use saddlefw::solvers::Fault;
//! assert_eq!(Fault::GammaUnclipped.name(), "gamma-unclipped");
//! ```

/// Deliberately broken variants of one step, for negative controls. `Fault::None` is the
/// algorithm as printed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Fault {
    #[default]
    None,
    /// `gamma_t` without the `min{., 1}`.
    GammaUnclipped,
    /// `beta_t` left out of the dual gradient (the step still reports it).
    BetaIgnored,
    /// Primal step in the ascent direction (sign error).
    PrimalSignFlip,
    /// Dual gradient taken at `(x_{t+1}, y_t)` instead of `(x_t, y_t)`.
    DualAtNextX,
    /// One extra projection onto X per iteration (result unused): an oracle-count violation.
    ExtraProjection,
    /// A constant primal step `tau_0` instead of `tau_t`.
    ConstantTau,
    /// The dual step doubled: the short step with curvature `(Lyy + beta_t)/2` (still clipped
    /// to 1), the projected step `2/(Lyy + beta_t)`.
    DualStepDoubled,
    /// The primal gradient taken at the previous iterate, `grad_x L(x_{t-1}, y_t)`.
    StaleGradient,
    /// A projected step clipped at the set's boundary along the step instead of projected
    /// ([`super::steps::clipped_step`]; LMO-PO's dual and PO-LMO's primal step).
    ClipNotProject,
    /// The dual update skipped at every odd t (`y_{t+1} = y_t`).
    DualSkipOdd,
}

impl Fault {
    /// The control's name (`saddlefw verify --control`, [`super::Control`]'s `Display`).
    pub const fn name(&self) -> &'static str {
        match self {
            Fault::None => "none",
            Fault::ConstantTau => "constant-tau",
            Fault::BetaIgnored => "beta-ignored",
            Fault::DualAtNextX => "dual-at-next-x",
            Fault::PrimalSignFlip => "primal-sign-flip",
            Fault::GammaUnclipped => "gamma-unclipped",
            Fault::ExtraProjection => "extra-projection",
            Fault::DualStepDoubled => "dual-step-doubled",
            Fault::StaleGradient => "stale-gradient",
            Fault::ClipNotProject => "clip-not-project",
            Fault::DualSkipOdd => "dual-skip-odd",
        }
    }
}
