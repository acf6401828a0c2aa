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
use crate::journal::{Header, Journal};
use crate::Result;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
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

/// The entries `tighten --resume DIR` takes as searched: from the journal
/// `DIR/tighten.json.journal` if there is one, else from `DIR/tighten.json`; either must come
/// from this build and the same arguments.
pub fn read(
    dir: &Path,
    args: &Arguments,
    cfg: &SearchConfig,
) -> Result<BTreeMap<String, EntrySearch>> {
    let path = dir.join("tighten.json");
    let journal = crate::journal::journal_path(&path);
    let now = args.pairs(cfg);
    let inputs = args.inputs()?;
    let entries = match crate::journal::read::<EntrySearch>(&journal)? {
        Some((header, entries)) => {
            header.check(&journal.display().to_string(), "tighten", &now, &inputs)?;
            entries
        }
        None => {
            let input = path.display().to_string();
            let text = crate::files::read_text(&path)?;
            let r: TightenRecord =
                crate::files::parse_json(&input, &text, crate::files::JsonTop::Object)?;
            let was = r.arguments.pairs(&r.config);
            crate::resume::check_arguments(&input, &r.build.to_string(), was, now)?;
            r.inputs.check(&input, "--resume", &inputs)?;
            r.entries
        }
    };
    Ok(entries.into_iter().map(|e| (e.id.clone(), e)).collect())
}

/// Starts the journal of a search writing `out` (`total` entries; the `recorded` ones first).
pub fn start_journal(
    out: &Path,
    args: &Arguments,
    cfg: &SearchConfig,
    recorded: &BTreeMap<String, EntrySearch>,
    total: usize,
    every_s: f64,
) -> Result<Journal> {
    let arguments = args
        .pairs(cfg)
        .into_iter()
        .map(|(n, v)| (n.to_string(), v))
        .collect();
    let header = Header::new("tighten", arguments, args.inputs()?, total);
    let carried: Vec<&EntrySearch> = recorded.values().collect();
    Journal::create(
        &crate::journal::journal_path(out),
        &header,
        &carried,
        every_s,
    )
}
