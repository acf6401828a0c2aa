//! `tighten --resume DIR` (issue 17): the entries an earlier search of the same build and
//! arguments finished are taken from its journal (`DIR/tighten.json.journal`, a killed run,
//! [`crate::journal`]) or, without one, from `DIR/tighten.json` (a run stopped by a first
//! signal, or a complete one); the other entries are searched. The search of one entry
//! depends on its budget in wall-clock seconds unless `--max-evals` bounds it, so the final
//! file equals an uninterrupted run's (apart from timings) for searches bounded that way.
//!
//! ```
//! use saddlefw::tightness::resume::Arguments;
//! use saddlefw::tightness::search::SearchConfig;
//! let cfg = SearchConfig { max_evals: Some(4), ..SearchConfig::default() };
//! let a = Arguments { cases: Some("lmo-po/c-sc/".into()), fixtures: "fixtures/hard".into(), write_fixtures: false };
//! let pairs = a.pairs(&cfg);
//! assert!(pairs.contains(&("--max-evals", "Some(4)".to_string())));
//! assert!(pairs.contains(&("--cases", "Some(\"lmo-po/c-sc/\")".to_string())));
//! ```

use super::search::{EntrySearch, SearchConfig};
use crate::ledger::Ledger;
use crate::resume::Identity;
use crate::Result;
use serde::{Deserialize, Serialize};
use std::path::Path;

/// The arguments of `tighten` beside its [`SearchConfig`] that decide its result.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Arguments {
    /// `--cases`.
    pub cases: Option<String>,
    /// `--fixtures` (the incumbents).
    pub fixtures: String,
    /// `--write-fixtures`.
    pub write_fixtures: bool,
}

impl Arguments {
    /// The inputs whose content decides the search: the incumbents in `--fixtures` (none
    /// with `--write-fixtures`, which rewrites them, or when the directory does not exist).
    pub fn inputs(&self) -> Result<crate::fingerprint::Inputs> {
        let dir = Path::new(&self.fixtures);
        let inputs = crate::fingerprint::Inputs::default();
        if self.write_fixtures || !dir.is_dir() {
            return Ok(inputs);
        }
        inputs.dir("--fixtures", dir)
    }

    /// The job-defining arguments, `(name, value)`.
    pub fn pairs(&self, cfg: &SearchConfig) -> Vec<(&'static str, String)> {
        let show = |v: &dyn std::fmt::Debug| format!("{v:?}");
        vec![
            ("--cases", show(&self.cases)),
            ("--budget", cfg.budget_s.to_string()),
            ("--seed", cfg.seed.to_string()),
            ("--horizon", cfg.horizon.to_string()),
            ("--jobs", show(&cfg.jobs)),
            ("--max-evals", show(&cfg.max_evals)),
            ("--fixtures", self.fixtures.clone()),
            ("--write-fixtures", self.write_fixtures.to_string()),
        ]
    }
}

/// What `tighten.json` holds (issue 10's search result, with what a resume checks).
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct TightenRecord {
    /// The build that wrote it.
    #[serde(default)]
    pub build: crate::build_info::Build,
    pub config: SearchConfig,
    #[serde(flatten)]
    pub arguments: Arguments,
    pub entries: Vec<EntrySearch>,
    /// The content of `--fixtures` (the incumbents; [`crate::fingerprint`]), unless
    /// `--write-fixtures` rewrites them.
    #[serde(default, skip_serializing_if = "crate::fingerprint::Inputs::is_empty")]
    pub inputs: crate::fingerprint::Inputs,
    /// Set when a signal stopped the search before every entry was searched.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub interrupted: Option<crate::resume::Interruption>,
}

/// `tighten`'s jobs for the [`crate::ledger`]: an entry's search, by entry id.
#[derive(Debug)]
pub struct Tighten;

impl crate::ledger::Journaled for Tighten {
    const COMMAND: &'static str = "tighten";
    type Key = String;
    type Result = EntrySearch;
    fn key(r: &EntrySearch) -> String {
        r.id.clone()
    }
}

/// The work of a search with `args` and `cfg`.
pub fn identity(args: &Arguments, cfg: &SearchConfig) -> Result<Identity> {
    Ok(Identity::current(args.pairs(cfg), args.inputs()?))
}

/// The finished entries of a search: with `--resume DIR`, those of `DIR`'s journal or
/// `DIR/tighten.json` ([`Ledger::resume`]), which must be of the same build, arguments and
/// incumbents.
pub fn ledger(
    resume: Option<&Path>,
    args: &Arguments,
    cfg: &SearchConfig,
) -> Result<Ledger<Tighten>> {
    let now = identity(args, cfg)?;
    let Some(dir) = resume else {
        return Ok(Ledger::new(now));
    };
    Ledger::resume(now, &dir.join("tighten.json"), |input, text| {
        let r: TightenRecord =
            crate::files::parse_json(input, text, crate::files::JsonTop::Object)?;
        let was = Identity::recorded(&r.build, r.arguments.pairs(&r.config), r.inputs);
        Ok((was, r.entries))
    })
}
