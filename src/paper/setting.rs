//! The paper's problem settings and assumptions (claims.md 1.2, the rows of Sec. 3.1): ONE
//! declaration, used by the generators, the problems, the theorem table and the reports.
//!
//! ```
//! use saddlefw::paper::{Assumption, Setting};
//! let s: Setting = "nc-c+sc".parse().unwrap();
//! assert!(!s.convex && !s.strongly_concave && s.sc_y);
//! assert_eq!(s.to_string(), "nc-c+sc");
//! assert!(s == "nc-c+sc");
//! assert_eq!(s.assumptions(), [Assumption::A1, Assumption::A2]);
//! assert_eq!(Setting::all().len(), 8);
//! assert!("c-x".parse::<Setting>().is_err());
//! ```

use crate::{Error, Result};
use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

/// The paper's assumptions (claims.md 1.2).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Assumption {
    /// Assumption 1 (`assum`).
    A1,
    /// Assumption 1 (ii) with mu > 0.
    #[serde(rename = "mu>0")]
    MuPositive,
    /// Assumption 2 (`assum:strongly-convex`): Y strongly convex.
    A2,
    /// Assumption 3 (`assum:convex-concave`).
    A3,
}

impl Assumption {
    /// The name used in the table and the reports: `A1`, `mu>0`, `A2`, `A3`.
    pub fn name(&self) -> &'static str {
        match self {
            Assumption::A1 => "A1",
            Assumption::MuPositive => "mu>0",
            Assumption::A2 => "A2",
            Assumption::A3 => "A3",
        }
    }
}

/// The paper's problem settings (Sec. 3.1 rows): `nc-c`, `nc-sc`, `c-c`, `c-sc`, each
/// optionally `+sc` (Y strongly convex). Written and parsed as these labels.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Setting {
    /// Assumption 3 (convex in x).
    pub convex: bool,
    /// mu > 0.
    pub strongly_concave: bool,
    /// Assumption 2 (Y strongly convex).
    pub sc_y: bool,
}

impl fmt::Display for Setting {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}-{}{}",
            if self.convex { "c" } else { "nc" },
            if self.strongly_concave { "sc" } else { "c" },
            if self.sc_y { "+sc" } else { "" }
        )
    }
}

impl FromStr for Setting {
    type Err = Error;
    fn from_str(s: &str) -> Result<Self> {
        let (base, sc_y) = match s.strip_suffix("+sc") {
            Some(b) => (b, true),
            None => (s, false),
        };
        let (convex, strongly_concave) = match base {
            "nc-c" => (false, false),
            "nc-sc" => (false, true),
            "c-c" => (true, false),
            "c-sc" => (true, true),
            _ => {
                return Err(Error::input(
                    "generator spec",
                    "setting",
                    format!(
                        "unknown setting {s:?} (expected nc-c, nc-sc, c-c, c-sc, optionally +sc)"
                    ),
                ))
            }
        };
        Ok(Setting {
            convex,
            strongly_concave,
            sc_y,
        })
    }
}

/// A setting equals its label: `setting == "c-sc+sc"`.
impl PartialEq<str> for Setting {
    fn eq(&self, other: &str) -> bool {
        self.to_string() == other
    }
}

impl PartialEq<&str> for Setting {
    fn eq(&self, other: &&str) -> bool {
        self.to_string() == *other
    }
}

impl PartialEq<String> for Setting {
    fn eq(&self, other: &String) -> bool {
        self.to_string() == *other
    }
}

impl Setting {
    /// All eight settings.
    pub fn all() -> Vec<Setting> {
        let mut v = Vec::new();
        for convex in [false, true] {
            for strongly_concave in [false, true] {
                for sc_y in [false, true] {
                    v.push(Setting {
                        convex,
                        strongly_concave,
                        sc_y,
                    });
                }
            }
        }
        v
    }

    /// The assumptions the setting implies, in the table's order: `A1` always, then `mu>0`,
    /// `A2`, `A3` when they hold.
    pub fn assumptions(&self) -> Vec<Assumption> {
        [
            (true, Assumption::A1),
            (self.strongly_concave, Assumption::MuPositive),
            (self.sc_y, Assumption::A2),
            (self.convex, Assumption::A3),
        ]
        .iter()
        .filter(|(on, _)| *on)
        .map(|&(_, a)| a)
        .collect()
    }

    /// [`Setting::assumptions`] by name (`A1`, `mu>0`, `A2`, `A3`), as the reports show them.
    pub fn assumption_names(&self) -> Vec<String> {
        self.assumptions()
            .iter()
            .map(|a| a.name().to_string())
            .collect()
    }
}
