//! Schedules of the step sizes and of the smoothing parameter as values, and the PO-LMO
//! appendix constants G_1 / G_2. The default schedules per theorem case are
//! [`super::defaults`].
//!
//! A [`Schedule`] prints and parses in one notation that round-trips exactly (numbers use
//! Rust's shortest round-trip formatting):
//!
//! | notation | value at t | where it comes from |
//! |---|---|---|
//! | `zero` | `0` | the theorems' "beta_t = 0" (C = 0; needs mu > 0) |
//! | `const(V)` | `V` | horizon-K parameters of the baselines (claims.md 2.4) |
//! | `anytime(c=C,a=A)` | `C (t+1)^-A` | `eq:fw-fw-stepsize`, `eq:fw-proj-stepsize` (claims.md 2.1, 2.2) |
//! | `shifted(c=C,s=S,a=A)` | `C (t+S)^-A` | the experiments' shifted forms (claims.md 6.1, 6.2), SP-FW's `2/(t+2)` |
//! | `po-lmo(f=..,A=..,a=..,b=..,C=..,lxx=..,lyx=..,mu=..)` | `f [A (t+1)^a + 5Lxx/2 + 13 Lyx^2 (t+1)^b/(2C)]^-1` | PO-LMO appendix (`theorem:proj-fw-convergence`, claims.md 2.3) |
//!
//! Example: the experiments' LMO-LMO schedules `tau_t = (2/(t+10))^(4/5)` and
//! `beta_t = 1e-2/(t+10)^(1/5)` are `shifted(c=1.7411011265922482,s=10,a=0.8)` and
//! `shifted(c=0.01,s=10,a=0.2)`.
//!
//! ```
//! use saddlefw::solvers::Schedule;
//! let s: Schedule = "anytime(c=1,a=0.8333333333333334)".parse().unwrap();
//! assert_eq!(s.to_string(), "anytime(c=1,a=0.8333333333333334)");
//! assert_eq!(s.at(0), 1.0);
//! ```

use crate::problems::Constants;
use crate::{Error, Result};
use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

/// A schedule `t -> value` for t = 0, 1, 2, ... Every variant is non-increasing in t.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Schedule {
    /// `0` for every t: the theorems' "beta_t = 0" (C = 0), allowed only when mu > 0.
    Zero,
    /// A constant `V >= 0`: the horizon-K parameters of R-PDCG / CG-RPGA (claims.md 2.4).
    Constant(f64),
    /// `c (t+1)^-a`: the anytime schedules the theorems analyse, `tau_t = (t+1)^-a` and
    /// `beta_t = C (t+1)^-b` (`eq:fw-fw-stepsize`, `eq:fw-proj-stepsize`; claims.md 2.1, 2.2).
    Anytime { c: f64, a: f64 },
    /// `c (t+s)^-a` with `s > 0`: the shifted forms of the experiments (claims.md 6.1, 6.2),
    /// e.g. `tau_t = (2/(t+10))^(4/5)` = `shifted(c=2^0.8,s=10,a=0.8)`; SP-FW's `2/(t+2)`.
    Shifted { c: f64, s: f64, a: f64 },
    /// The PO-LMO appendix step size (claims.md 2.3), see [`PoLmoTau`].
    PoLmo(PoLmoTau),
}

/// The PO-LMO appendix step size (`theorem:proj-fw-convergence`, L2855-2858, factor `f = 1/5`;
/// `theorem:proj-fw-strongly-convex-convergence`, L3075, factor `f = 3/4`):
///
/// `tau_t = f [A (t+1)^a + 5 Lxx/2 + 13 Lyx^2 (t+1)^b / (2C)]^-1`, paired with
/// `beta_t = C (t+1)^-b`.
///
/// With `C = 0` (the "beta_t = 0" cases) the printed formula divides by zero; the repair of
/// claims.md 2.3 replaces the last term by `13 Lyx^2 / (2 mu)` (needs mu > 0), which keeps
/// `tau_t L_{f_t} < 1` and `G_2 > 0`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PoLmoTau {
    /// `f`: 1/5 (no SC Y) or 3/4 (SC Y).
    pub factor: f64,
    /// `A > 0` (the appendix leaves it free; the defaults use A = 1).
    pub big_a: f64,
    /// Exponent a of `A (t+1)^a`.
    pub a: f64,
    /// Exponent b of the smoothing `beta_t = C (t+1)^-b`.
    pub b: f64,
    /// `C >= 0` of the smoothing.
    pub c: f64,
    pub lxx: f64,
    pub lyx: f64,
    pub mu: f64,
    /// An index offset `s >= 0`: `t + 1` becomes `t + 1 + s` in both power terms (0 in the
    /// appendix; the calibration's legitimate panel shifts it, crate::calibration).
    pub shift: f64,
}

/// `f = 3/4`: the factor of the PO-LMO schedules with a strongly convex Y (Assumption 2).
pub(crate) const PO_LMO_FACTOR_SC_Y: f64 = 0.75;

impl PoLmoTau {
    /// Validates the parameters (`f, A > 0`; `a, b, C, Lxx, Lyx, mu >= 0`; `C > 0` or `mu > 0`).
    pub fn new(
        factor: f64,
        big_a: f64,
        a: f64,
        b: f64,
        c: f64,
        constants: &Constants,
    ) -> Result<Self> {
        let s = PoLmoTau {
            factor,
            big_a,
            a,
            b,
            c,
            lxx: constants.lxx,
            lyx: constants.lyx,
            mu: constants.mu,
            shift: 0.0,
        };
        s.validate()?;
        Ok(s)
    }

    fn validate(&self) -> Result<()> {
        let what = "po-lmo schedule";
        positive(what, "f", self.factor)?;
        positive(what, "A", self.big_a)?;
        for (k, v) in [
            ("a", self.a),
            ("b", self.b),
            ("C", self.c),
            ("lxx", self.lxx),
            ("lyx", self.lyx),
            ("mu", self.mu),
            ("s", self.shift),
        ] {
            non_negative(what, k, v)?;
        }
        if self.c == 0.0 && self.mu == 0.0 {
            return Err(Error::invalid(
                what,
                "C = 0 (beta_t = 0) needs mu > 0: the term 13 Lyx^2 (t+1)^b/(2C) is then replaced by 13 Lyx^2/(2 mu) (claims.md 2.3)",
            ));
        }
        // the first step is also sigma of G_X^PO: it must be a positive number
        let tau0 = self.at(0);
        if !(tau0.is_finite() && tau0 > 0.0) {
            return Err(Error::invalid(
                what,
                format!("the first step tau_0 = {tau0:e} is not a positive number (the constants or A are too large for f64)"),
            ));
        }
        Ok(())
    }

    /// `tau_t`.
    pub fn at(&self, t: usize) -> f64 {
        let k = t as f64 + 1.0 + self.shift;
        let coupling = if self.lyx == 0.0 {
            0.0
        } else if self.c > 0.0 {
            // 13 Lyx^2 (t+1)^b / (2C), ordered so that a large C cannot overflow 2C into
            // inf/inf = NaN (found by fuzzing: C = 1.8e308, b = 100)
            6.5 * self.lyx * self.lyx * (k.powf(self.b) / self.c)
        } else {
            6.5 * self.lyx * self.lyx / self.mu
        };
        self.factor / (self.big_a * k.powf(self.a) + 2.5 * self.lxx + coupling)
    }

    /// The smoothing `beta_t = C (t+1)^-b` this step size is paired with.
    pub fn beta(&self) -> Schedule {
        if self.c > 0.0 && self.shift > 0.0 {
            Schedule::Shifted {
                c: self.c,
                s: 1.0 + self.shift,
                a: self.b,
            }
        } else if self.c > 0.0 {
            Schedule::Anytime {
                c: self.c,
                a: self.b,
            }
        } else {
            Schedule::Zero
        }
    }

    /// Which appendix constant the analysis with this factor needs: G_2 for `f = 3/4`
    /// (strongly convex Y), G_1 otherwise.
    pub(crate) fn g_kind(&self) -> GKind {
        if self.factor == PO_LMO_FACTOR_SC_Y {
            GKind::G2
        } else {
            GKind::G1
        }
    }
}

impl Schedule {
    /// The experiments' printed form `scale (num/(t+shift))^exponent` (claims.md 6.1, 6.2;
    /// the theorems' schedules shifted and rescaled, 6.5 item 15) as `Shifted { c = scale
    /// num^exponent, s = shift, a = exponent }`, or `Zero` when `scale = 0`.
    pub fn power_law(scale: f64, num: f64, shift: f64, exponent: f64) -> Schedule {
        if scale == 0.0 {
            Schedule::Zero
        } else {
            Schedule::Shifted {
                c: scale * num.powf(exponent),
                s: shift,
                a: exponent,
            }
        }
    }
    /// The value at iteration t.
    pub fn at(&self, t: usize) -> f64 {
        match *self {
            Schedule::Zero => 0.0,
            Schedule::Constant(v) => v,
            Schedule::Anytime { c, .. } | Schedule::Shifted { c, .. } if c == 0.0 => 0.0,
            Schedule::Anytime { c, a } => c * (t as f64 + 1.0).powf(-a),
            Schedule::Shifted { c, s, a } => c * (t as f64 + s).powf(-a),
            Schedule::PoLmo(p) => p.at(t),
        }
    }

    /// Whether the value is positive for every t (so that `max{beta_t, mu} > 0` holds
    /// regardless of mu).
    pub fn is_positive(&self) -> bool {
        match *self {
            Schedule::Zero => false,
            Schedule::Constant(v) => v > 0.0,
            Schedule::Anytime { c, .. } | Schedule::Shifted { c, .. } => c > 0.0,
            Schedule::PoLmo(_) => true,
        }
    }

    /// Checks the parameters are in their domain (finite; non-negative values and exponents;
    /// a positive shift; the PO-LMO conditions of [`PoLmoTau`]).
    pub fn validate(&self) -> Result<()> {
        let what = "schedule";
        match *self {
            Schedule::Zero => Ok(()),
            Schedule::Constant(v) => non_negative(what, "const", v),
            Schedule::Anytime { c, a } => {
                non_negative(what, "c", c)?;
                non_negative(what, "a", a)
            }
            Schedule::Shifted { c, s, a } => {
                non_negative(what, "c", c)?;
                positive(what, "s", s)?;
                non_negative(what, "a", a)
            }
            Schedule::PoLmo(p) => p.validate(),
        }
    }

    /// Every notation, its formula and its source (for `saddlefw list`).
    pub const KINDS: [(&'static str, &'static str, &'static str); 5] = [
        ("zero", "0", "theorems' beta_t = 0 (C = 0; needs mu > 0)"),
        (
            "const(V)",
            "V",
            "horizon-K baseline parameters (claims.md 2.4)",
        ),
        (
            "anytime(c=C,a=A)",
            "C (t+1)^-A",
            "eq:fw-fw-stepsize, eq:fw-proj-stepsize (claims.md 2.1, 2.2)",
        ),
        (
            "shifted(c=C,s=S,a=A)",
            "C (t+S)^-A",
            "experiments (claims.md 6.1, 6.2); SP-FW 2/(t+2)",
        ),
        (
            "po-lmo(f=F,A=A,a=a,b=b,C=C,lxx=..,lyx=..,mu=..)",
            "F [A (t+1)^a + 5Lxx/2 + 13Lyx^2 (t+1)^b/(2C)]^-1 (C = 0: 13Lyx^2/(2mu))",
            "theorem:proj-fw-convergence (F = 1/5), theorem:proj-fw-strongly-convex-convergence (F = 3/4); claims.md 2.3",
        ),
    ];
}

/// Shortest round-trip formatting of a number: plain decimal for moderate magnitudes,
/// scientific notation otherwise (both parse back to the same f64).
pub fn fmt_num(v: f64) -> String {
    let m = v.abs();
    if m == 0.0 || (1e-4..1e15).contains(&m) {
        format!("{v}")
    } else {
        format!("{v:e}")
    }
}

impl fmt::Display for Schedule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let n = fmt_num;
        match *self {
            Schedule::Zero => write!(f, "zero"),
            Schedule::Constant(v) => write!(f, "const({})", n(v)),
            Schedule::Anytime { c, a } => write!(f, "anytime(c={},a={})", n(c), n(a)),
            Schedule::Shifted { c, s, a } => {
                write!(f, "shifted(c={},s={},a={})", n(c), n(s), n(a))
            }
            Schedule::PoLmo(p) => {
                write!(
                    f,
                    "po-lmo(f={},A={},a={},b={},C={},lxx={},lyx={},mu={}",
                    n(p.factor),
                    n(p.big_a),
                    n(p.a),
                    n(p.b),
                    n(p.c),
                    n(p.lxx),
                    n(p.lyx),
                    n(p.mu)
                )?;
                if p.shift != 0.0 {
                    write!(f, ",s={}", n(p.shift))?;
                }
                write!(f, ")")
            }
        }
    }
}

impl FromStr for Schedule {
    type Err = Error;
    /// Parses the notation of [`Schedule`]'s `Display`; keys may come in any order but each
    /// is required exactly once.
    fn from_str(s: &str) -> Result<Self> {
        let input = format!("schedule {s:?}");
        let err = |loc: &str, reason: String| Error::input(&input, loc, reason);
        let s = s.trim();
        if s == "zero" {
            return Ok(Schedule::Zero);
        }
        let (name, rest) = s.split_once('(').ok_or_else(|| {
            err(
                "name",
                "expected zero, const(V), anytime(c=..,a=..), shifted(c=..,s=..,a=..) or po-lmo(..)"
                    .into(),
            )
        })?;
        let body = rest
            .strip_suffix(')')
            .ok_or_else(|| err("arguments", "missing closing parenthesis".into()))?;
        let num = |key: &str, v: &str| -> Result<f64> {
            let x: f64 = v
                .trim()
                .parse()
                .map_err(|_| err(key, format!("{v:?} is not a number")))?;
            if x.is_finite() {
                Ok(x)
            } else {
                Err(err(key, format!("{v:?} is not finite")))
            }
        };
        // `optional` keys may be left out (NaN then)
        let keyed_opt = |keys: &[&str], optional: &[&str]| -> Result<Vec<f64>> {
            let mut vals: Vec<Option<f64>> = vec![None; keys.len()];
            for part in body.split(',').filter(|p| !p.trim().is_empty()) {
                let (k, v) = part.split_once('=').ok_or_else(|| {
                    err(&format!("argument {part:?}"), "expected key=value".into())
                })?;
                let k = k.trim();
                let key = format!("key {k:?}");
                let i = keys.iter().position(|kk| *kk == k).ok_or_else(|| {
                    err(&key, format!("unknown key (expected {})", keys.join(", ")))
                })?;
                if vals[i].is_some() {
                    return Err(err(&key, "given twice".into()));
                }
                vals[i] = Some(num(&key, v)?);
            }
            keys.iter()
                .zip(vals)
                .map(|(k, v)| match v {
                    Some(v) => Ok(v),
                    None if optional.contains(k) => Ok(f64::NAN),
                    None => Err(err(&format!("key {k:?}"), "missing".into())),
                })
                .collect()
        };
        let keyed = |keys: &[&str]| keyed_opt(keys, &[]);
        let sched = match name.trim() {
            "const" => Schedule::Constant(num("value", body)?),
            "anytime" => {
                let v = keyed(&["c", "a"])?;
                Schedule::Anytime { c: v[0], a: v[1] }
            }
            "shifted" => {
                let v = keyed(&["c", "s", "a"])?;
                Schedule::Shifted {
                    c: v[0],
                    s: v[1],
                    a: v[2],
                }
            }
            "po-lmo" => {
                let v = keyed_opt(&["f", "A", "a", "b", "C", "lxx", "lyx", "mu", "s"], &["s"])?;
                Schedule::PoLmo(PoLmoTau {
                    factor: v[0],
                    big_a: v[1],
                    a: v[2],
                    b: v[3],
                    c: v[4],
                    lxx: v[5],
                    lyx: v[6],
                    mu: v[7],
                    shift: if v[8].is_nan() { 0.0 } else { v[8] },
                })
            }
            other => {
                return Err(err(
                    "name",
                    format!("unknown schedule {other:?} (zero, const, anytime, shifted, po-lmo)"),
                ))
            }
        };
        sched
            .validate()
            .map_err(|e| err("parameters", e.to_string()))?;
        Ok(sched)
    }
}

pub(crate) fn non_negative(what: &str, key: &str, v: f64) -> Result<()> {
    if v.is_finite() && v >= 0.0 {
        Ok(())
    } else {
        Err(Error::invalid(
            what,
            format!("{key} must be a finite number >= 0, got {v}"),
        ))
    }
}

fn positive(what: &str, key: &str, v: f64) -> Result<()> {
    if v.is_finite() && v > 0.0 {
        Ok(())
    } else {
        Err(Error::invalid(
            what,
            format!("{key} must be a finite number > 0, got {v}"),
        ))
    }
}

// ------------------------------------------------------------------------------------------
// G_1 / G_2 (claims.md 1.5)

/// The PO-LMO appendix constants (claims.md 1.5).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum GKind {
    /// `G_1 := inf_t {1/4 - 5 Lxx tau_t/2 - 13 Lyx^2 tau_t/(2(beta_{t+1}+mu))}` (L2784).
    #[serde(rename = "G_1")]
    G1,
    /// `G_2 := inf_t {13/16 - 5 Lxx tau_t/2 - 13 Lyx^2 tau_t/(2(beta_t+mu))}` (L2975).
    #[serde(rename = "G_2")]
    G2,
}

/// G_1 or G_2 over the horizon `t = 0, ..., horizon - 1` (at least t = 0). The analyses need
/// it positive; with the 1/5 factor and b >= log2(5/4) it need not be (claims.md 2.3, D20).
pub fn g_constant(
    kind: GKind,
    tau: &Schedule,
    beta: &Schedule,
    lxx: f64,
    lyx: f64,
    mu: f64,
    horizon: usize,
) -> f64 {
    let (base, shift) = match kind {
        GKind::G1 => (0.25, 1),
        GKind::G2 => (13.0 / 16.0, 0),
    };
    (0..horizon.max(1))
        .map(|t| {
            let tau_t = tau.at(t);
            let coupling = if lyx == 0.0 {
                0.0
            } else {
                13.0 * lyx * lyx * tau_t / (2.0 * (beta.at(t + shift) + mu))
            };
            base - 2.5 * lxx * tau_t - coupling
        })
        .fold(f64::INFINITY, f64::min)
}

/// What a run records about G_1 / G_2 when it uses the PO-LMO appendix schedule.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GReport {
    /// `G_1` or `G_2`.
    pub name: GKind,
    /// The infimum over `t < horizon`.
    pub value: f64,
    /// The horizon of the infimum (the run's iteration count).
    pub horizon: usize,
}

/// The data needed to evaluate [`g_constant`] for a run once its horizon is known.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct GSpec {
    pub kind: GKind,
    pub tau: Schedule,
    pub beta: Schedule,
    pub lxx: f64,
    pub lyx: f64,
    pub mu: f64,
}

impl GSpec {
    /// G over `t < horizon`.
    pub fn report(&self, horizon: usize) -> GReport {
        GReport {
            name: self.kind,
            value: g_constant(
                self.kind, &self.tau, &self.beta, self.lxx, self.lyx, self.mu, horizon,
            ),
            horizon,
        }
    }
}
