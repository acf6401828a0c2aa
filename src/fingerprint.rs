//! What a record was made from beyond its arguments (issue 35): the content of every input
//! file or directory a result depends on (`--hard DIR`, `--baselines FILE`, `--theorems
//! FILE`, `--data FILE`, `--fixtures DIR`) and the switches no other field records
//! (`--no-hard`). Journals ([`crate::journal`]), interrupted records and shard outputs carry
//! it; `--resume` and `merge` refuse work made from other inputs with one line naming the
//! input that differs. Built-in defaults (the fixtures, baselines and theorem table compiled
//! into the binary) are not listed: the build identifies them.
//!
//! ```
//! use saddlefw::fingerprint::Inputs;
//! let dir = std::env::temp_dir().join(format!("saddlefw-doc-fp-{}", std::process::id()));
//! std::fs::create_dir_all(&dir).unwrap();
//! let f = dir.join("b.json");
//! std::fs::write(&f, "{}").unwrap();
//! let was = Inputs::default().file("--baselines", &f).unwrap();
//! assert!(was.check("v.json", "--resume", &was).is_ok());
//! std::fs::write(&f, "{ }").unwrap();
//! let now = Inputs::default().file("--baselines", &f).unwrap();
//! let e = was.check("v.json", "--resume", &now).unwrap_err().to_string();
//! assert!(e.contains("--baselines") && e.contains("content differs"), "{e}");
//! // an input the record was made without is a difference too
//! let e = Inputs::default().check("v.json", "--resume", &now).unwrap_err().to_string();
//! assert!(e.contains("recorded without --baselines"), "{e}");
//! std::fs::remove_dir_all(&dir).unwrap();
//! ```

use crate::{Error, Result};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use std::path::Path;

/// One input of a run: the option naming it, the path as given and its content's hash.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Input {
    /// `--hard`, `--baselines`, `--theorems`, `--data`, `--fixtures`, `--no-hard`.
    pub option: String,
    /// The path as given (empty for a switch).
    pub path: String,
    /// `sha256:HEX` of the file (of a directory: its files' names and contents, by name), or
    /// `set` for a switch.
    pub content: String,
}

/// The inputs of a run, in the command's order (empty: only built-in data).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Inputs(pub Vec<Input>);

/// The first 16 hex digits of the SHA-256 of `bytes` (journal line checksums, fingerprints).
pub fn short_hash(bytes: &[u8]) -> String {
    hex(&Sha256::digest(bytes)[..8])
}

/// `sha256:HEX`, the full SHA-256 of `bytes` (input fingerprints, the export manifest's
/// hashes of the files it wrote).
pub fn sha256(bytes: &[u8]) -> String {
    format!("sha256:{}", hex(&Sha256::digest(bytes)))
}

/// The canonical text of a JSON document: compact, object keys sorted, numbers in their
/// shortest round-trip form. A file re-indented or with its keys reordered has the same
/// canonical text (the export writes its JSON files in this form, so [`sha256`] of the file
/// as written is also the hash of its content). `None` when `bytes` is not JSON.
pub(crate) fn canonical_json(bytes: &[u8]) -> Option<String> {
    serde_json::from_slice::<serde_json::Value>(bytes)
        .ok()
        .map(|v| v.to_string())
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

impl Inputs {
    /// No inputs beyond the build's own data.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// Adds the file `path` named by `option` (its content hashed; an unreadable file is an
    /// error naming it).
    pub fn file(mut self, option: &str, path: &Path) -> Result<Inputs> {
        let bytes = crate::files::read_bytes(path)?;
        self.0.push(Input {
            option: option.into(),
            path: path.display().to_string(),
            content: sha256(&bytes),
        });
        Ok(self)
    }

    /// Adds the directory `dir` named by `option`: the names and contents of the files
    /// directly in it, sorted by name.
    pub fn dir(mut self, option: &str, dir: &Path) -> Result<Inputs> {
        let mut files = crate::files::files_in(dir);
        if files.is_empty() && !dir.is_dir() {
            return Err(Error::input(
                dir.display().to_string(),
                option,
                "no such directory",
            ));
        }
        files.sort();
        let mut h = Sha256::new();
        for f in &files {
            let name = f.file_name().map(|n| n.to_string_lossy().into_owned());
            let bytes = crate::files::read_bytes(f)?;
            h.update(name.unwrap_or_default().as_bytes());
            h.update([0]);
            h.update((bytes.len() as u64).to_le_bytes());
            h.update(&bytes);
        }
        self.0.push(Input {
            option: option.into(),
            path: dir.display().to_string(),
            content: format!("sha256:{}", hex(&h.finalize())),
        });
        Ok(self)
    }

    /// Adds the switch `option` (given: it changes the result and no other field records it).
    pub(crate) fn switch(mut self, option: &str, given: bool) -> Inputs {
        if given {
            self.0.push(Input {
                option: option.into(),
                path: String::new(),
                content: "set".into(),
            });
        }
        self
    }

    /// The path of the input named by `option` when the record has one, after checking that
    /// its content is still the recorded one (a merge reads the shards' inputs again).
    pub(crate) fn reread(
        &self,
        record: &str,
        location: &str,
        option: &str,
    ) -> Result<Option<std::path::PathBuf>> {
        let Some(was) = self.get(option) else {
            return Ok(None);
        };
        let path = Path::new(&was.path);
        let now = if path.is_dir() {
            Inputs::default().dir(option, path)
        } else {
            Inputs::default().file(option, path)
        };
        match now {
            Ok(now) if now.0[0].content == was.content => Ok(Some(path.to_path_buf())),
            _ => Err(Error::input(
                record,
                location,
                format!(
                    "recorded with {option} {} ({}), which is missing or has other content now: the result needs the same {option}",
                    was.path,
                    &was.content[..was.content.len().min(23)]
                ),
            )),
        }
    }

    /// The input named by `option`, if any.
    pub fn get(&self, option: &str) -> Option<&Input> {
        self.0.iter().find(|i| i.option == option)
    }

    /// Refuses the work of `record` (whose inputs are `self`) for a run with the inputs
    /// `now`: the first option whose content differs, or that only one of them has, is named
    /// (`location` is `--resume` or `merge`).
    pub fn check(&self, record: &str, location: &str, now: &Inputs) -> Result<()> {
        let show = |i: &Input| {
            if i.path.is_empty() {
                i.option.clone()
            } else {
                format!(
                    "{} {} ({})",
                    i.option,
                    i.path,
                    &i.content[..i.content.len().min(23)]
                )
            }
        };
        let options = self.0.iter().chain(&now.0).map(|i| i.option.as_str());
        for option in options {
            let why = match (self.get(option), now.get(option)) {
                (Some(a), Some(b)) if a.content == b.content => continue,
                (Some(a), Some(b)) => format!(
                    "input {option}: content differs: recorded {}, this run has {}",
                    show(a),
                    show(b)
                ),
                (Some(a), None) => {
                    format!("recorded with {}, this run has no {option}", show(a))
                }
                (None, Some(b)) => {
                    format!("recorded without {option}, this run has {}", show(b))
                }
                (None, None) => continue,
            };
            let way = if location == "--resume" {
                "run without --resume, or with the same inputs"
            } else {
                "merge the shards of one run"
            };
            return Err(Error::input(
                record,
                location,
                format!("{why}: not the same work ({way})"),
            ));
        }
        Ok(())
    }
}
