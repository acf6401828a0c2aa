//! Which saddlefw wrote a file ([`Build`]): the one build identity of every record
//! (verify.json, CHECK.json, journals, shards), below every other module so that the record
//! writers of any layer can name it.
//!
//! ```
//! use saddlefw::build_info::Build;
//! let b = Build::current();
//! assert_eq!(b.version, env!("CARGO_PKG_VERSION"));
//! assert!(b.to_string().starts_with("saddlefw "));
//! // a record of another build compares unequal (merges refuse such shards)
//! assert_ne!(b, Build { version: "0.0.0".into(), git_commit: None });
//! ```

use serde::{Deserialize, Serialize};

/// Which saddlefw wrote a file: the crate version and the git commit of the build (written
/// into verify.json and CHECK.json, so a verdict names the code that produced it; merges refuse
/// shards of different builds).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Build {
    pub version: String,
    /// `None` for a build outside a git checkout (see build.rs).
    pub git_commit: Option<String>,
}

impl Build {
    /// This binary's build.
    pub fn current() -> Self {
        Build {
            version: env!("CARGO_PKG_VERSION").to_string(),
            git_commit: git_commit(),
        }
    }
}

impl std::fmt::Display for Build {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.git_commit {
            Some(c) => write!(f, "saddlefw {} ({c})", self.version),
            None => write!(f, "saddlefw {}", self.version),
        }
    }
}

/// The commit the binary was built from (embedded by build.rs; `+dirty` when tracked files
/// differed from it), or `None` for a build outside a git checkout.
fn git_commit() -> Option<String> {
    Some(env!("SADDLEFW_GIT_COMMIT"))
        .filter(|c| !c.is_empty())
        .map(str::to_string)
}
