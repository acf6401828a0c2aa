//! Tiers (sizes of a verify run) and the instance families and seeds each entry runs on.

use crate::generators::{Family, GeneratorSpec, Setting, XKind};
use crate::theorems::{Measure, TheoremEntry};
use crate::{Error, Result};
use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

/// How much to run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Tier {
    /// CI tier: under 3 minutes on 2 cores.
    Quick,
    /// Longer horizons and more seeds.
    Full,
    /// The reduced check (3 seeds, `T = 4096`, `dim_x = 20`, `dim_y = 10`; see
    /// [`Tier::config`]): random instance families only, no stored hard instances (unless
    /// [`RateCheck::hard_instances`](crate::gate::RateCheck::hard_instances) asks), and the
    /// stored baselines do not gate it. The default of [`RateCheck`](crate::gate::RateCheck),
    /// for a user's own `#[test]`; `saddlefw verify` does not accept it.
    Test,
}

impl fmt::Display for Tier {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Tier::Quick => "quick",
            Tier::Full => "full",
            Tier::Test => "test",
        })
    }
}

impl FromStr for Tier {
    type Err = Error;
    fn from_str(s: &str) -> Result<Self> {
        match s {
            "quick" => Ok(Tier::Quick),
            "full" => Ok(Tier::Full),
            "test" => Ok(Tier::Test),
            _ => Err(Error::invalid(
                "--tier",
                format!("unknown tier {s:?} (quick or full)"),
            )),
        }
    }
}

/// The sizes of a tier.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct TierConfig {
    /// Seeds per family.
    pub seeds: u32,
    /// Largest horizon T.
    pub t_max: u64,
    /// Dimensions of x and y.
    pub dim_x: usize,
    pub dim_y: usize,
}

impl Tier {
    /// The tier's sizes.
    pub fn config(&self) -> TierConfig {
        match self {
            Tier::Quick => TierConfig {
                seeds: 4,
                t_max: 1 << 14,
                dim_x: 20,
                dim_y: 10,
            },
            Tier::Full => TierConfig {
                seeds: 8,
                t_max: 1 << 16,
                dim_x: 20,
                dim_y: 10,
            },
            Tier::Test => TierConfig {
                seeds: 3,
                t_max: 1 << 12,
                dim_x: 20,
                dim_y: 10,
            },
        }
    }
    /// Whether the stored baselines (the quick tier's exponents) gate this tier.
    pub fn baseline_gated(&self) -> bool {
        *self == Tier::Quick
    }
}

/// A family of generated instances: generator family, the set X and the dimensions; the
/// setting comes from the entry and the seed from [`derived_seed`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct InstanceFamily {
    pub family: Family,
    pub x: XKind,
    pub dim_x: usize,
    pub dim_y: usize,
}

impl InstanceFamily {
    /// `FAMILY:dx=..,dy=..,x=..` (the seed-hash input and the label in verify.json).
    pub fn label(&self) -> String {
        format!(
            "{}:dx={},dy={},x={}",
            self.family.name(),
            self.dim_x,
            self.dim_y,
            self.x.name()
        )
    }
    /// The generator spec of seed `seed` for `setting`.
    pub fn spec(&self, setting: Setting, seed: u64) -> GeneratorSpec {
        GeneratorSpec {
            family: self.family,
            setting,
            dx: self.dim_x,
            dy: self.dim_y,
            seed,
            x: self.x,
        }
    }
}

/// The instance families an entry is verified on (module doc, "Instances").
pub fn families_for(entry: &TheoremEntry, cfg: &TierConfig) -> Vec<InstanceFamily> {
    let s = entry.setting();
    let fam = |family, x| InstanceFamily {
        family,
        x,
        dim_x: cfg.dim_x,
        dim_y: cfg.dim_y,
    };
    if !s.convex {
        vec![
            fam(Family::Quadratic, XKind::L2),
            fam(Family::Cosine, XKind::Simplex),
        ]
    } else if entry.quantity.measure == Measure::GapOpt && !s.strongly_concave {
        vec![
            fam(Family::Saddle, XKind::L1),
            fam(Family::Saddle, XKind::Simplex),
        ]
    } else {
        vec![
            fam(Family::Quadratic, XKind::L1),
            fam(Family::Saddle, XKind::L1),
        ]
    }
}

/// The generator seed of run `index` of `family` for `case` under the master seed `master`:
/// 64-bit FNV-1a of `"case|family|index"` for the default master seed 0 (so the default run
/// is the one verify has always made), of `"case|family|index|seed=M"` otherwise.
pub fn derived_seed(case: &str, family: &str, index: u32, master: u64) -> u64 {
    let text = if master == 0 {
        format!("{case}|{family}|{index}")
    } else {
        format!("{case}|{family}|{index}|seed={master}")
    };
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in text.bytes() {
        h ^= b as u64;
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}
