//! Embeds into the binary what must not depend on the working directory:
//! * the stored hardest instances (`fixtures/hard/*.json`), so that `saddlefw verify` runs the
//!   hard gates from anywhere: `$OUT_DIR/hard_fixtures.rs`, a list of
//!   `(file name, include_str!(...))` pairs;
//! * the git commit the binary is built from (`SADDLEFW_GIT_COMMIT`, with `+dirty` when tracked
//!   files differ from it; empty outside a git checkout), which the reports' metadata shows.
//!   Asking git at run time would report whatever repository the user stands in.

use std::path::{Path, PathBuf};
use std::process::Command;

fn main() {
    let root = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").expect("set by cargo"));
    embed_git_commit(&root);
    let dir = root.join("fixtures/hard");
    println!("cargo:rerun-if-changed={}", dir.display());
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .map(|rd| {
            rd.filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.extension().is_some_and(|x| x == "json"))
                .collect()
        })
        .unwrap_or_default();
    files.sort();
    let mut code = String::from("&[\n");
    for f in &files {
        println!("cargo:rerun-if-changed={}", f.display());
        let name = f.file_name().unwrap().to_string_lossy();
        code.push_str(&format!(
            "    ({name:?}, include_str!({:?})),\n",
            f.display().to_string()
        ));
    }
    code.push_str("]\n");
    let out =
        PathBuf::from(std::env::var("OUT_DIR").expect("set by cargo")).join("hard_fixtures.rs");
    std::fs::write(out, code).expect("write hard_fixtures.rs");
}

/// `cargo:rustc-env=SADDLEFW_GIT_COMMIT=<12 hex digits>[+dirty]`, or empty when `root` is not a
/// git checkout (a crate tarball) or git is missing. Re-run when HEAD moves or a tracked input
/// of the build changes (so `+dirty` follows edits).
fn embed_git_commit(root: &Path) {
    let git = |args: &[&str]| {
        Command::new("git")
            .arg("-C")
            .arg(root)
            .args(args)
            .output()
            .ok()
            .filter(|o| o.status.success())
            .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
    };
    let commit = match git(&["rev-parse", "--short=12", "HEAD"]).filter(|s| !s.is_empty()) {
        Some(head) => {
            let dirty = git(&["status", "--porcelain", "--untracked-files=no"])
                .is_some_and(|s| !s.is_empty());
            if dirty {
                format!("{head}+dirty")
            } else {
                head
            }
        }
        None => String::new(),
    };
    println!("cargo:rustc-env=SADDLEFW_GIT_COMMIT={commit}");
    // HEAD lives in the (worktree's) git dir, the branch refs in the common dir. Only existing
    // paths: cargo treats a missing rerun-if-changed path as changed, which would rebuild the
    // crate on every cargo invocation (a linked worktree has no refs/heads of its own, and a
    // fresh clone often no packed-refs).
    let dirs = [
        ("--absolute-git-dir", &["HEAD"][..]),
        ("--git-common-dir", &["packed-refs", "refs/heads"][..]),
    ];
    for (flag, files) in dirs {
        if let Some(dir) = git(&["rev-parse", flag]) {
            let dir = root.join(dir); // --git-common-dir may be relative to root
            for f in files {
                let path = dir.join(f);
                if path.exists() {
                    println!("cargo:rerun-if-changed={}", path.display());
                }
            }
        }
    }
    for f in [
        "src",
        "tests",
        "benches",
        "fixtures",
        "Cargo.toml",
        "Cargo.lock",
        "build.rs",
    ] {
        println!("cargo:rerun-if-changed={}", root.join(f).display());
    }
}
