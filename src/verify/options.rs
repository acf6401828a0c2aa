//! What to run: [`VerifyOptions`].

use super::controls::Control;
use super::hard;
use super::shard;
use super::source::{EntrySolver, SharedFactory, SolverFactory};
use super::tier::{Tier, TierConfig};
use crate::fit::{self, Baselines};

/// What to run.
#[derive(Debug, Clone)]
pub struct VerifyOptions {
    pub tier: Tier,
    /// Keep the entries whose id contains this substring (e.g. `lmo-po/` or `nc-c/dual`).
    pub filter: Option<String>,
    /// Worker threads (None: rayon's default, one per core).
    pub jobs: Option<usize>,
    /// Stored exponents for the regression gate.
    pub baselines: Baselines,
    /// Whether the baseline gate applies (default: [`Tier::baseline_gated`]).
    pub gate_baselines: bool,
    /// A broken variant to run instead of the real solver (negative controls).
    pub control: Option<Control>,
    /// Overrides of the tier's sizes (tests).
    pub config: Option<TierConfig>,
    /// Run only this part of the job list (`shard`).
    pub shard: Option<shard::Shard>,
    /// Gates attached after the random instances are judged (composed by the caller: the
    /// stored hardest instances of `crate::tightness`, `Some(HardSource::Builtin.into())`);
    /// `None` (the default): random instances only. Internal: [`RateCheck::hard_instances`]
    /// sets it.
    ///
    /// [`RateCheck::hard_instances`]: crate::gate::RateCheck::hard_instances
    #[doc(hidden)]
    pub hard: Option<hard::HardGates>,
    /// The solver under verification; `None`: the crate's own (`EntrySolver`, with
    /// `control`).
    pub solver: Option<SharedFactory>,
    /// Run the confirmation of every hard instance at `CONFIRM_FACTOR T`, also where the rate
    /// passes at T (the calibration measures both margins; no verdict changes).
    pub confirm_all: bool,
    /// The master seed of the random families (`super::tier::derived_seed`); 0, the
    /// default, gives the instances verify has always run.
    pub seed: u64,
}

impl VerifyOptions {
    /// The tier with the built-in baselines, all entries, default parallelism.
    pub fn new(tier: Tier) -> Self {
        VerifyOptions {
            tier,
            filter: None,
            jobs: None,
            baselines: fit::builtin_baselines(),
            gate_baselines: tier.baseline_gated(),
            control: None,
            config: None,
            shard: None,
            hard: None,
            solver: None,
            confirm_all: false,
            seed: 0,
        }
    }
    /// Verifies the solvers `factory` builds instead of the crate's own.
    pub fn solver(mut self, factory: impl SolverFactory + 'static) -> Self {
        self.solver = Some(SharedFactory(std::sync::Arc::new(factory)));
        self
    }
    /// The factory of the solver under verification.
    pub fn factory(&self) -> std::sync::Arc<dyn SolverFactory> {
        match &self.solver {
            Some(f) => f.0.clone(),
            None => std::sync::Arc::new(EntrySolver::new(self.control)),
        }
    }
    /// Only the entries whose id contains `filter`.
    pub fn filter(mut self, filter: &str) -> Self {
        self.filter = Some(filter.to_string());
        self
    }
    /// Runs the broken variant `control` instead of the real solver.
    pub fn control(mut self, control: Control) -> Self {
        self.control = Some(control);
        self
    }
}
