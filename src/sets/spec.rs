//! The JSON description of a set (format v1, see README "JSON quadratic format v1") and its
//! validation into a [`ConvexSet`].

use super::*;
use serde::{Deserialize, Serialize};

/// A bound of a box: one number for every coordinate, or one per coordinate.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Bound {
    Scalar(f64),
    Vector(Vec<f64>),
}

impl Bound {
    fn expand(&self, n: usize, field: &str) -> crate::Result<Vec<f64>> {
        match self {
            Bound::Scalar(v) => Ok(vec![*v; n]),
            Bound::Vector(v) if v.len() == n => Ok(v.clone()),
            Bound::Vector(v) => Err(crate::Error::invalid(
                field,
                format!("has length {} but the variable has dimension {n}", v.len()),
            )),
        }
    }
}

/// A set as written in a problem file: `{"kind": "...", ...}`. Dimensions are inferred from
/// the problem (`dim` is optional and checked when present).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum SetSpec {
    /// `{"kind": "simplex", "scale": s}` (scale optional, default 1)
    Simplex {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        scale: Option<f64>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        dim: Option<usize>,
    },
    /// `{"kind": "l1_ball", "radius": r}`
    L1Ball {
        radius: f64,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        dim: Option<usize>,
    },
    /// `{"kind": "l2_ball", "radius": r, "center": [...]}` (center optional, default 0)
    L2Ball {
        radius: f64,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        center: Option<Vec<f64>>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        dim: Option<usize>,
    },
    /// `{"kind": "box", "lower": l, "upper": u}` (numbers or arrays)
    Box {
        lower: Bound,
        upper: Bound,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        dim: Option<usize>,
    },
    /// `{"kind": "nuclear_ball", "rows": p, "cols": q, "radius": r}`
    NuclearBall {
        rows: usize,
        cols: usize,
        radius: f64,
    },
    /// `{"kind": "unit_columns", "rows": m, "cols": q, "radius": 1}`
    UnitColumns {
        rows: usize,
        cols: usize,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        radius: Option<f64>,
    },
    /// `{"kind": "product", "parts": [SET, ...]}`
    Product { parts: Vec<SetSpec> },
}

/// One kind of set a problem file can name (the registry `saddlefw list` prints).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SetKind {
    /// The `"kind"` value.
    pub kind: &'static str,
    /// A complete example of the JSON object.
    pub example: &'static str,
    /// The set.
    pub description: &'static str,
    /// Its strong-convexity modulus alpha of Assumption 2 (`assum:strongly-convex`).
    pub alpha: &'static str,
}

impl SetSpec {
    /// Every kind, in the order of the enum (tests check this list against the enum's serde
    /// names and parse every example).
    ///
    /// ```
    /// use saddlefw::sets::SetSpec;
    /// let k = SetSpec::KINDS.iter().find(|k| k.kind == "l2_ball").unwrap();
    /// let spec: SetSpec = serde_json::from_str(k.example).unwrap();
    /// assert_eq!(spec.kind(), "l2_ball");
    /// assert_eq!(spec.build(3, "y_set").unwrap().strong_convexity(), Some(0.5));
    /// ```
    pub const KINDS: &'static [SetKind] = &[
        SetKind {
            kind: "simplex",
            example: r#"{"kind": "simplex", "scale": 1}"#,
            description: "{x >= 0, sum x = scale} (scale optional, default 1)",
            alpha: "none (polytope)",
        },
        SetKind {
            kind: "l1_ball",
            example: r#"{"kind": "l1_ball", "radius": 1}"#,
            description: "{||x||_1 <= radius}",
            alpha: "1/radius in dimension 1 (an interval), none otherwise (polytope)",
        },
        SetKind {
            kind: "l2_ball",
            example: r#"{"kind": "l2_ball", "radius": 2, "center": [0, 0, 0]}"#,
            description: "{||x - center||_2 <= radius} (center optional, default 0)",
            alpha: "1/radius",
        },
        SetKind {
            kind: "box",
            example: r#"{"kind": "box", "lower": -1, "upper": [1, 2]}"#,
            description: "{lower <= x <= upper} (bounds: one number or one per coordinate)",
            alpha: "2/(upper - lower) in dimension 1, none otherwise",
        },
        SetKind {
            kind: "nuclear_ball",
            example: r#"{"kind": "nuclear_ball", "rows": 2, "cols": 3, "radius": 1}"#,
            description: "{X in R^(rows x cols), row-major: ||X||_* <= radius}",
            alpha: "1/radius when rows or cols is 1 (an l2 ball), none otherwise",
        },
        SetKind {
            kind: "unit_columns",
            example: r#"{"kind": "unit_columns", "rows": 3, "cols": 2, "radius": 1}"#,
            description: "{X in R^(rows x cols): every column has ||x_j||_2 <= radius} (radius default 1)",
            alpha: "1/radius with one column, none otherwise",
        },
        SetKind {
            kind: "product",
            example: r#"{"kind": "product", "parts": [{"kind": "simplex", "dim": 2}, {"kind": "l2_ball", "radius": 1}]}"#,
            description: "the product of \"parts\" (all factors but one declare their dimension)",
            alpha: "none for two or more factors",
        },
    ];

    /// The `"kind"` value of this spec.
    pub fn kind(&self) -> &'static str {
        match self {
            SetSpec::Simplex { .. } => "simplex",
            SetSpec::L1Ball { .. } => "l1_ball",
            SetSpec::L2Ball { .. } => "l2_ball",
            SetSpec::Box { .. } => "box",
            SetSpec::NuclearBall { .. } => "nuclear_ball",
            SetSpec::UnitColumns { .. } => "unit_columns",
            SetSpec::Product { .. } => "product",
        }
    }
}

impl SetSpec {
    /// Builds the set for a variable of dimension `n`; `field` names the input in errors.
    pub fn build(&self, n: usize, field: &str) -> crate::Result<Box<dyn ConvexSet>> {
        let check_dim = |d: &Option<usize>| -> crate::Result<()> {
            match d {
                Some(d) if *d != n => Err(crate::Error::invalid(
                    field,
                    format!("declares dim {d} but the variable has dimension {n}"),
                )),
                _ => Ok(()),
            }
        };
        let named = |e: crate::Error| match e {
            crate::Error::Invalid { what, reason } => {
                crate::Error::invalid(format!("{field} ({what})"), reason)
            }
            other => other,
        };
        let set: Box<dyn ConvexSet> = match self {
            SetSpec::Simplex { scale, dim } => {
                check_dim(dim)?;
                Box::new(Simplex::new(n, scale.unwrap_or(1.0)).map_err(named)?)
            }
            SetSpec::L1Ball { radius, dim } => {
                check_dim(dim)?;
                Box::new(L1Ball::new(n, *radius).map_err(named)?)
            }
            SetSpec::L2Ball {
                radius,
                center,
                dim,
            } => {
                check_dim(dim)?;
                let c = match center {
                    Some(c) if c.len() != n => {
                        return Err(crate::Error::invalid(
                            format!("{field}.center"),
                            format!("has length {} but the variable has dimension {n}", c.len()),
                        ))
                    }
                    Some(c) => c.clone(),
                    None => vec![0.0; n],
                };
                Box::new(L2Ball::new(c, *radius).map_err(named)?)
            }
            SetSpec::Box { lower, upper, dim } => {
                check_dim(dim)?;
                let l = lower.expand(n, &format!("{field}.lower"))?;
                let u = upper.expand(n, &format!("{field}.upper"))?;
                Box::new(BoxSet::new(l, u).map_err(named)?)
            }
            SetSpec::NuclearBall { rows, cols, radius } => {
                if rows.checked_mul(*cols) != Some(n) {
                    return Err(crate::Error::invalid(
                        field,
                        format!("nuclear_ball {rows}x{cols} does not match dimension {n}"),
                    ));
                }
                Box::new(NuclearBall::new(*rows, *cols, *radius).map_err(named)?)
            }
            SetSpec::UnitColumns { rows, cols, radius } => {
                if rows.checked_mul(*cols) != Some(n) {
                    return Err(crate::Error::invalid(
                        field,
                        format!("unit_columns {rows}x{cols} does not match dimension {n}"),
                    ));
                }
                Box::new(UnitColumns::new(*rows, *cols, radius.unwrap_or(1.0)).map_err(named)?)
            }
            SetSpec::Product { parts } => {
                let dims: Vec<Option<usize>> = parts.iter().map(|p| p.fixed_dim()).collect();
                let known = dims
                    .iter()
                    .flatten()
                    .try_fold(0usize, |acc, d| acc.checked_add(*d))
                    .unwrap_or(usize::MAX);
                let unknown = dims.iter().filter(|d| d.is_none()).count();
                if unknown > 1 || (unknown == 0 && known != n) || known > n {
                    return Err(crate::Error::invalid(
                        field,
                        "product factors must declare their dimensions (all but at most one) and sum to the variable's dimension",
                    ));
                }
                let mut built = Vec::new();
                for (i, (p, d)) in parts.iter().zip(&dims).enumerate() {
                    let di = d.unwrap_or(n - known);
                    built.push(p.build(di, &format!("{field}.parts[{i}]"))?);
                }
                Box::new(Product::new(built)?)
            }
        };
        Ok(set)
    }

    /// The dimension the spec fixes by itself, if any.
    pub fn fixed_dim(&self) -> Option<usize> {
        match self {
            SetSpec::Simplex { dim, .. } | SetSpec::L1Ball { dim, .. } => *dim,
            SetSpec::L2Ball { center, dim, .. } => dim.or(center.as_ref().map(|c| c.len())),
            SetSpec::Box { lower, upper, dim } => dim.or(match (lower, upper) {
                (Bound::Vector(v), _) | (_, Bound::Vector(v)) => Some(v.len()),
                _ => None,
            }),
            SetSpec::NuclearBall { rows, cols, .. } | SetSpec::UnitColumns { rows, cols, .. } => {
                rows.checked_mul(*cols)
            }
            SetSpec::Product { parts } => parts
                .iter()
                .try_fold(0usize, |acc, p| acc.checked_add(p.fixed_dim()?)),
        }
    }
}
