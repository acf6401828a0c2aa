//! The public surface is a listing kept in the repository (issue 36): `tests/public_api.txt`
//! names every public item reachable from the crate root (kind and path: modules, functions,
//! types, traits, constants, statics, re-exports, and the `pub fn`s of inherent impls), and the
//! test fails when the sources' surface differs from it. After a deliberate change, write the
//! new listing with `SADDLEFW_BLESS=1 cargo test --release --test main public_api` and commit it
//! with the change, so that a review sees the surface change. Negative control: a `pub fn`
//! added to a copy of the sources (and one removed) must make the listings differ.
//!
//! Rules (read from the sources as text, comments and strings stripped by
//! `tests/modules.rs`'s `strip`): a module is public when every `mod` from the crate root to it is `pub`
//! (`pub(crate)`, `pub(super)` and plain `mod` are not); an item is public when it is declared
//! `pub` directly in a public module's body (file or inline `pub mod name { ... }`); a method is
//! public when it is a `pub fn` of an inherent `impl` in a public module. Macros and fields are
//! not listed.

use crate::modules::{src_files, strip};
use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

const SNAPSHOT: &str = "tests/public_api.txt";

/// Every file under `src/` by its module path (`""` for lib.rs, `solvers::registry`), the
/// binary left out.
fn module_files() -> BTreeMap<String, String> {
    src_files()
        .into_iter()
        .filter(|(rel, _)| rel != "main.rs")
        .map(|(rel, src)| {
            let path = rel.trim_end_matches(".rs");
            let path = path.strip_suffix("/mod").unwrap_or(path);
            let path = if path == "lib" { "" } else { path };
            (path.replace('/', "::"), src)
        })
        .collect()
}

/// The public items of one module's source: `kind path` lines, and the public child modules
/// declared by `pub mod name;` (to be read from their own files).
fn items_of(module: &str, src: &str, out: &mut BTreeSet<String>, children: &mut Vec<String>) {
    let code = strip(src);
    let join = |m: &str, name: &str| {
        if m.is_empty() {
            name.to_string()
        } else {
            format!("{m}::{name}")
        }
    };
    // statements split at `;`, `{` and `}`, with the brace depth and the open blocks tracked
    enum Block {
        /// a public inline module body: its path
        Module(String),
        /// an inherent impl in a public module: the type's path
        Impl(String),
        Other,
    }
    let mut stack: Vec<Block> = vec![Block::Module(module.to_string())];
    let mut stmt = String::new();
    for ch in code.chars() {
        match ch {
            ';' | '{' => {
                let words: Vec<&str> = stmt.split_whitespace().collect();
                let text = words.join(" ");
                let block = match stack.last() {
                    Some(Block::Module(m)) => {
                        let m = m.clone();
                        declaration(&m, &text, ch == '{', out, children, &join)
                    }
                    Some(Block::Impl(ty)) => {
                        if let Some(name) = pub_item(&text, "fn") {
                            out.insert(format!("method {ty}::{name}"));
                        }
                        Block::Other
                    }
                    _ => Block::Other,
                };
                if ch == '{' {
                    stack.push(block);
                }
                stmt.clear();
            }
            '}' => {
                stack.pop();
                stmt.clear();
            }
            _ => stmt.push(ch),
        }
    }

    /// A statement of a public module's body: records a public item; the block it opens.
    fn declaration(
        m: &str,
        text: &str,
        opens: bool,
        out: &mut BTreeSet<String>,
        children: &mut Vec<String>,
        join: &dyn Fn(&str, &str) -> String,
    ) -> Block {
        let text = text.rsplit(']').next().unwrap_or(text).trim(); // attributes
        if let Some(name) = pub_item(text, "mod") {
            let path = join(m, &name);
            out.insert(format!("mod {path}"));
            if opens {
                return Block::Module(path);
            }
            children.push(path);
            return Block::Other;
        }
        if (text.starts_with("impl ") || text.starts_with("impl<"))
            && opens
            && !text.contains(" for ")
        {
            // `impl<T: X> path::Type<T> where ...`: the type's last path segment
            let mut rest = &text[4..];
            if rest.starts_with('<') {
                let mut depth = 0;
                for (k, c) in rest.char_indices() {
                    match c {
                        '<' => depth += 1,
                        '>' => depth -= 1,
                        _ => {}
                    }
                    if depth == 0 {
                        rest = &rest[k + 1..];
                        break;
                    }
                }
            }
            let head: String = rest
                .trim_start()
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_' || *c == ':')
                .collect();
            let name = head.rsplit("::").next().unwrap_or(&head).to_string();
            return Block::Impl(join(m, &name));
        }
        for kind in [
            "fn", "struct", "enum", "trait", "const", "static", "type", "union",
        ] {
            if let Some(name) = pub_item(text, kind) {
                out.insert(format!("{kind} {}", join(m, &name)));
            }
        }
        if let Some(tree) = text.strip_prefix("pub use ") {
            if !opens {
                out.insert(format!("use {m}: {tree}"));
            }
        }
        Block::Other
    }
}

/// `name` when `text` declares a `pub` item of `kind` (`pub fn name`, `pub const fn name`,
/// `pub unsafe fn`, `pub async fn`, `pub static mut`); not for `pub(crate)` and the like.
fn pub_item(text: &str, kind: &str) -> Option<String> {
    let rest = text.strip_prefix("pub ")?;
    let mut words = rest.split_whitespace().peekable();
    while let Some(w) = words.peek() {
        if ["const", "unsafe", "async", "extern"].contains(w) && *w != kind {
            words.next();
            if words.peek().is_some_and(|w| w.starts_with('"')) {
                words.next();
            }
        } else {
            break;
        }
    }
    if words.next()? != kind {
        return None;
    }
    let mut name = words.next()?;
    if kind == "const" && name == "fn" {
        return None; // `pub const fn`
    }
    if kind == "static" && name == "mut" {
        name = words.next()?;
    }
    let name: String = name
        .chars()
        .take_while(|c| c.is_alphanumeric() || *c == '_')
        .collect();
    (!name.is_empty()).then_some(name)
}

/// The public surface of a set of module sources (module path -> text), one line per item.
fn surface(files: &BTreeMap<String, String>) -> Vec<String> {
    let mut out = BTreeSet::new();
    let mut todo = vec![String::new()];
    while let Some(m) = todo.pop() {
        let Some(src) = files.get(&m) else {
            continue; // a `pub mod` declared in a file this listing does not find
        };
        let mut children = Vec::new();
        items_of(&m, src, &mut out, &mut children);
        todo.extend(children);
    }
    out.into_iter().map(|l| format!("saddlefw {l}")).collect()
}

#[test]
fn the_public_surface_matches_its_listing() {
    let listing = surface(&module_files());
    assert!(
        listing.len() > 100,
        "found only {} public items",
        listing.len()
    );
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(SNAPSHOT);
    let text = listing.join("\n") + "\n";
    if std::env::var_os("SADDLEFW_BLESS").is_some() {
        std::fs::write(&path, &text).unwrap();
    }
    let kept = std::fs::read_to_string(&path).unwrap_or_default();
    let kept: BTreeSet<&str> = kept.lines().collect();
    let now: BTreeSet<&str> = text.lines().collect();
    let added: Vec<&&str> = now.difference(&kept).collect();
    let removed: Vec<&&str> = kept.difference(&now).collect();
    assert!(
        added.is_empty() && removed.is_empty(),
        "the public surface differs from {SNAPSHOT} (after a deliberate change: \
         SADDLEFW_BLESS=1 cargo test --release --test main public_api, and commit the listing)\n\
         added: {added:#?}\nremoved: {removed:#?}"
    );
}

/// Negative control: a public function added to a copy of the sources, one removed, a private
/// item and a `pub(crate)` one, and an item of a private module.
#[test]
fn negative_control_an_added_public_item_changes_the_listing() {
    let files = module_files();
    let before = surface(&files);
    let mut added = files.clone();
    added.get_mut("gate").expect("src/gate.rs").push_str(
        "\n/// doc\npub fn injected_item() {}\npub(crate) fn hidden() {}\nfn private() {}\n",
    );
    let after = surface(&added);
    let new: Vec<&String> = after.iter().filter(|l| !before.contains(l)).collect();
    assert_eq!(new, vec!["saddlefw fn gate::injected_item"]);
    // synthetic sources: the rules one by one
    let synthetic: BTreeMap<String, String> = [
        (
            "",
            "pub mod a;\nmod b;\npub(crate) mod c;\npub mod inline { pub fn f() {} fn g() {} }\npub use a::S;",
        ),
        (
            "a",
            "pub struct S;\nimpl S { pub fn new() -> S { S } fn private(&self) {} pub(crate) fn c(&self) {} }\nimpl Clone for S { fn clone(&self) -> S { S } }\npub const fn k() -> u8 { 1 }\npub trait T { fn m(&self); }\n// pub fn commented() {}\nconst X: &str = \"pub fn in_string() {}\";",
        ),
        ("b", "pub fn unreachable() {}"),
        ("c", "pub fn crate_only() {}"),
    ]
    .into_iter()
    .map(|(m, s)| (m.to_string(), s.to_string()))
    .collect();
    assert_eq!(
        surface(&synthetic),
        vec![
            "saddlefw fn a::k",
            "saddlefw fn inline::f",
            "saddlefw method a::S::new",
            "saddlefw mod a",
            "saddlefw mod inline",
            "saddlefw struct a::S",
            "saddlefw trait a::T",
            "saddlefw use : a::S",
        ]
    );
}
