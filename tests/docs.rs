//! Documentation gates (issue 9): every public module of the crate carries at least one
//! runnable doctest (a ``` fence in its `///` or `//!` comments, or in those of its private
//! submodules, whose info string is empty, `rust` or an edition; `ignore`, `text`, `no_run`,
//! `json`, ... do not count). `cargo test` then runs them all. The rule covers the
//! `#[doc(hidden)]` internals too (they are public, and their doctests are the integration
//! code's view of them); the crate-private modules (`console`, `interrupt`) are tested through
//! the binary instead.

use std::path::{Path, PathBuf};

/// The file of module `name` declared in the module whose file is `parent`.
fn module_file(parent: &Path, name: &str) -> Option<PathBuf> {
    let dir = match parent.file_name().and_then(|n| n.to_str()) {
        Some("lib.rs") | Some("mod.rs") => parent.parent().unwrap().to_path_buf(),
        _ => parent.with_extension(""),
    };
    [
        dir.join(format!("{name}.rs")),
        dir.join(name).join("mod.rs"),
    ]
    .into_iter()
    .find(|p| p.is_file())
}

/// `(public, name)` of the `mod name;` declarations in a file.
fn submodules(file: &Path) -> Vec<(bool, String)> {
    std::fs::read_to_string(file)
        .unwrap()
        .lines()
        .filter_map(|l| {
            let l = l.trim();
            let (public, rest) = match l.strip_prefix("pub mod ") {
                Some(r) => (true, r),
                None => (false, l.strip_prefix("mod ")?),
            };
            let name = rest.strip_suffix(';')?.trim();
            name.chars()
                .all(|c| c.is_alphanumeric() || c == '_')
                .then(|| (public, name.to_string()))
        })
        .collect()
}

/// Runnable doctests in the doc comments of a file.
fn doctests(text: &str) -> usize {
    let mut inside = false;
    let mut n = 0;
    for line in text.lines() {
        let l = line.trim();
        let Some(body) = l.strip_prefix("///").or_else(|| l.strip_prefix("//!")) else {
            continue;
        };
        let Some(info) = body.trim().strip_prefix("```") else {
            continue;
        };
        if !inside {
            let runnable = info
                .split(',')
                .map(str::trim)
                .filter(|t| !t.is_empty())
                .all(|t| t == "rust" || t.starts_with("edition"));
            n += runnable as usize;
        }
        inside = !inside;
    }
    n
}

/// The files of a module and of all its private submodules, recursively.
fn private_files(file: &Path) -> Vec<PathBuf> {
    let mut files = vec![file.to_path_buf()];
    for (public, name) in submodules(file) {
        if let Some(f) = module_file(file, &name) {
            if !public {
                files.extend(private_files(&f));
            }
        }
    }
    files
}

/// `(module path, runnable doctests)` for every public module under `file`.
fn public_modules(file: &Path, path: &str, out: &mut Vec<(String, usize)>) {
    for (public, name) in submodules(file) {
        let Some(f) = module_file(file, &name) else {
            continue;
        };
        if public {
            let p = format!("{path}::{name}");
            let n = private_files(&f)
                .iter()
                .map(|f| doctests(&std::fs::read_to_string(f).unwrap()))
                .sum();
            out.push((p.clone(), n));
            public_modules(&f, &p, out);
        }
    }
}

#[test]
fn every_public_module_has_a_runnable_doctest() {
    let lib = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/lib.rs");
    let mut modules = Vec::new();
    public_modules(&lib, "saddlefw", &mut modules);
    assert!(
        modules.len() >= 40,
        "found only {} public modules",
        modules.len()
    );
    for must in [
        "saddlefw::sets",
        "saddlefw::verify::shard",
        "saddlefw::invariants::check",
    ] {
        assert!(modules.iter().any(|(m, _)| m == must), "{must} not found");
    }
    let missing: Vec<&String> = modules
        .iter()
        .filter(|(_, n)| *n == 0)
        .map(|(m, _)| m)
        .collect();
    assert!(
        missing.is_empty(),
        "public modules without a runnable doctest: {missing:?}"
    );
}

/// The counter itself: what counts as a doctest and what does not.
#[test]
fn doctest_counter_counts_only_runnable_fences() {
    let text = "//! ```\n//! assert!(true);\n//! ```\n/// ```text\n/// a\n/// ```\n\
                /// ```rust,ignore\n/// x\n/// ```\n/// ```rust\n/// y\n/// ```\n// ```\n";
    assert_eq!(doctests(text), 2);
    assert_eq!(doctests("/// no fences\nfn f() {}\n"), 0);
    assert_eq!(doctests("/// ```no_run\n/// z\n/// ```\n"), 0);
}
