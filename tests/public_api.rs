//! The public surface is a listing kept in the repository (issue 36): `tests/public_api.txt`
//! names every public item a user can reach from the crate root (kind and path: modules,
//! functions, types, traits, constants, statics, the `pub fn`s and `pub const`s of inherent
//! impls, and each public re-export), and the test fails when the sources' surface differs from
//! it. After a deliberate change, write the new listing with
//! `SADDLEFW_BLESS=1 cargo test --release --test main public_api` and commit it with the change,
//! so that a review sees the surface change. Negative control: public items added to a copy of
//! the sources (one with `&[u8]` in its signature, one re-exported out of a private module) must
//! appear in the listing, and a module made private must leave it.
//!
//! Rules (read from the sources as text, comments and strings stripped by `tests/modules.rs`'s
//! `strip`; a statement ends at `;`, `{` or `}` outside brackets and parentheses, its leading
//! attributes are skipped): `pub` is public, `pub(crate)`, `pub(super)`, `pub(in ..)` and none
//! are not. A module exports its `pub` child modules and items and what its `pub use`s name
//! (a glob: everything the named module exports), wherever that is declared; the surface is what
//! the crate root exports, transitively through exported modules. Each item is listed once:
//! at its declaring module's path when that module is public and exports it, else at its
//! shortest re-export path; the `pub` members of an inherent `impl` (in any module, its type
//! path resolved through that module's `use`s) are listed under their type's path. Macros,
//! fields, variants, trait members and items inside macro invocations are not listed.

use crate::modules::{src_files, strip};
use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

const SNAPSHOT: &str = "tests/public_api.txt";

/// Every file under `src/` by its module path (`""` for lib.rs, `solvers::registry`), the
/// binary left out.
pub(crate) fn module_files() -> BTreeMap<String, String> {
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

/// What one module declares, read from its source text (comments and strings stripped).
#[derive(Default)]
pub(crate) struct Decls {
    /// child modules (`mod name;` or inline): name, public, `#[doc(hidden)]`
    mods: Vec<(String, bool, bool)>,
    /// items declared in the module's body: kind, name, public, `#[doc(hidden)]`
    items: Vec<(String, String, bool, bool)>,
    /// one entry per path a `use` declaration binds: the path, the bound name (`None` for a
    /// glob), public, `#[doc(hidden)]`
    uses: Vec<(Vec<String>, Option<String>, bool, bool)>,
    /// inherent impls: the type's path as written, and its public `fn`s and `const`s (kind, name)
    pub(crate) impls: Vec<(Vec<String>, Vec<(String, String)>)>,
    /// the signatures of public items, as text: what they belong to, and the text (a `fn`'s
    /// head up to its body, a `const`'s type, a type alias, a struct's public fields, an enum's
    /// variants, a trait's members), attributes and visibility removed
    pub(crate) sigs: Vec<(Owner, String)>,
}

/// What a signature belongs to: an item of the module (kind, name; a struct's fields, an enum's
/// variants and a trait's members belong to it) or a public member of an inherent impl (the
/// impl's index in `impls`, the member's name).
#[derive(Clone, Debug)]
pub(crate) enum Owner {
    Item(String, String),
    Member(usize, String),
}

/// The leading attributes of a statement (`#[..]`, `#![..]`, nested brackets included) removed.
fn strip_attrs(mut text: &str) -> &str {
    loop {
        text = text.trim_start();
        let Some(rest) = text.strip_prefix("#!").or_else(|| text.strip_prefix('#')) else {
            return text;
        };
        if !rest.trim_start().starts_with('[') {
            return text;
        }
        let mut depth = 0;
        let mut end = rest.len();
        for (k, c) in rest.char_indices() {
            match c {
                '[' => depth += 1,
                ']' => {
                    depth -= 1;
                    if depth == 0 {
                        end = k + 1;
                        break;
                    }
                }
                _ => {}
            }
        }
        text = &rest[end..];
    }
}

/// Whether the leading attributes of a statement include `#[doc(hidden)]`.
fn doc_hidden(text: &str) -> bool {
    let rest = strip_attrs(text);
    text[..text.len() - rest.len()]
        .replace(' ', "")
        .contains("#[doc(hidden)]")
}

/// The visibility of a statement: public (`pub` only; `pub(crate)`, `pub(super)`, `pub(in ..)`
/// and none are not) and the rest.
fn visibility(text: &str) -> (bool, &str) {
    if let Some(rest) = text.strip_prefix("pub") {
        let rest = rest.trim_start();
        if let Some(inner) = rest.strip_prefix('(') {
            let close = inner.find(')').map_or(inner.len(), |k| k + 1);
            return (false, inner[close..].trim_start());
        }
        if text[3..].starts_with(char::is_whitespace) {
            return (true, rest);
        }
    }
    (false, text)
}

/// The kind and name an item statement declares (`fn f`, `const fn f` as `fn`, `static mut S`,
/// `extern "C" fn`, `unsafe trait`), after its visibility.
fn item(text: &str) -> Option<(String, String)> {
    let mut words = text.split_whitespace().peekable();
    while words
        .peek()
        .is_some_and(|w| ["const", "unsafe", "async", "extern", "default"].contains(w))
    {
        let w = words.next()?;
        if w == "const" && words.peek() != Some(&"fn") {
            // `const NAME`: the kind itself
            return named("const", words.next()?);
        }
    }
    let kind = words.next()?;
    let mut name = words.next()?;
    if kind == "static" && name == "mut" {
        name = words.next()?;
    }
    if ![
        "fn", "struct", "enum", "trait", "static", "type", "union", "mod",
    ]
    .contains(&kind)
    {
        return None;
    }
    named(kind, name)
}

fn named(kind: &str, word: &str) -> Option<(String, String)> {
    let name: String = word
        .chars()
        .take_while(|c| c.is_alphanumeric() || *c == '_')
        .collect();
    (!name.is_empty() && name != "_").then(|| (kind.to_string(), name))
}

/// The paths a use tree binds: `a::{b, c::d as e, f::*, self}` -> (`a::b`, b), (`a::c::d`, e),
/// (`a::f`, glob), (`a`, a).
fn use_tree(tree: &str, prefix: &[String], out: &mut Vec<(Vec<String>, Option<String>)>) {
    let tree = tree.trim().trim_start_matches("::");
    let segs = |s: &str| -> Vec<String> {
        let mut p = prefix.to_vec();
        p.extend(s.split("::").filter(|s| !s.is_empty()).map(str::to_string));
        p
    };
    if let Some(open) = tree.find('{') {
        let head = segs(tree[..open].trim_end_matches("::"));
        let body = &tree[open + 1..tree.rfind('}').unwrap_or(tree.len())];
        let (mut depth, mut start) = (0, 0);
        for (k, c) in body.char_indices().chain([(body.len(), ',')]) {
            match c {
                '{' => depth += 1,
                '}' => depth -= 1,
                ',' if depth == 0 => {
                    if !body[start..k].trim().is_empty() {
                        use_tree(&body[start..k], &head, out);
                    }
                    start = k + 1;
                }
                _ => {}
            }
        }
        return;
    }
    let (path, alias) = match tree.split_once(" as ") {
        Some((p, a)) => (p.trim(), Some(a.trim().to_string())),
        None => (tree, None),
    };
    if path == "*" || path.ends_with("::*") {
        out.push((
            segs(path.trim_end_matches('*').trim_end_matches("::")),
            None,
        ));
        return;
    }
    let mut p = segs(path);
    if p.last().is_some_and(|s| s == "self") {
        p.pop();
    }
    let name = alias.or_else(|| p.last().cloned());
    if name.as_deref() != Some("_") {
        out.push((p, name));
    }
}

/// Reads one module's source into `out` (its inline modules under their own paths).
fn parse(module: &str, src: &str, out: &mut BTreeMap<String, Decls>) {
    let code = strip(src);
    enum Block {
        /// a module body: its path
        Module(String),
        /// an inherent impl: its module and its index in that module's `impls`
        Impl(String, usize),
        /// the body of a public struct, union, enum or trait: its module, kind, name, and the
        /// position of its opening brace
        Body(String, String, String, usize),
        Other,
    }
    out.entry(module.to_string()).or_default();
    let mut stack: Vec<Block> = vec![Block::Module(module.to_string())];
    let mut stmt = String::new();
    // depth inside `(`/`[` (and braces within them): no statement ends there
    let mut inner = 0usize;
    for (pos, ch) in code.char_indices() {
        if inner > 0 {
            match ch {
                '(' | '[' | '{' => inner += 1,
                ')' | ']' | '}' => inner -= 1,
                _ => {}
            }
            stmt.push(ch);
            continue;
        }
        match ch {
            '(' | '[' => {
                inner = 1;
                stmt.push(ch);
            }
            '{' if visibility(strip_attrs(&stmt)).1.starts_with("use ") => {
                inner = 1; // a use tree's braces
                stmt.push(ch);
            }
            ';' | '{' => {
                let words: Vec<&str> = stmt.split_whitespace().collect();
                let joined = words.join(" ");
                let (public, text) = visibility(strip_attrs(&joined));
                let hidden = doc_hidden(&joined);
                let opens = ch == '{';
                let block = match stack.last() {
                    Some(Block::Module(m)) => {
                        let m = m.clone();
                        let block = statement(&m, (public, hidden), text, opens, out);
                        let declared = item(text).filter(|_| public && !hidden);
                        match declared {
                            Some((kind, name))
                                if kind != "mod" && matches!(block, Block::Other) =>
                            {
                                let bodied = ["struct", "union", "enum", "trait"];
                                if opens && bodied.contains(&kind.as_str()) {
                                    Block::Body(m, kind, name, pos)
                                } else {
                                    let sig = signature(&kind, text);
                                    let decls = out.get_mut(&m).expect("the module");
                                    decls.sigs.push((Owner::Item(kind, name), sig));
                                    block
                                }
                            }
                            _ => block,
                        }
                    }
                    Some(Block::Impl(m, k)) => {
                        if let Some((kind, name)) = item(text).filter(|_| public) {
                            if kind == "fn" || kind == "const" {
                                let decls = out.get_mut(m).expect("the impl's module");
                                decls.impls[*k].1.push((kind.clone(), name.clone()));
                                if !hidden {
                                    let sig = signature(&kind, text);
                                    decls.sigs.push((Owner::Member(*k, name), sig));
                                }
                            }
                        }
                        Block::Other
                    }
                    Some(Block::Body(m, kind, name, _)) if kind == "trait" => {
                        // a trait's members are public with the trait
                        if let Some((k, _)) = item(text).filter(|_| !hidden) {
                            let owner = Owner::Item(kind.clone(), name.clone());
                            let decls = out.get_mut(m).expect("the module");
                            decls.sigs.push((owner, signature(&k, text)));
                        }
                        Block::Other
                    }
                    _ => Block::Other,
                };
                if opens {
                    stack.push(block);
                }
                stmt.clear();
            }
            '}' => {
                if let Some(Block::Body(m, kind, name, start)) = stack.pop() {
                    if kind != "trait" {
                        let body = code[start + 1..pos].split_whitespace().collect::<Vec<_>>();
                        let sig = fields(&kind, &body.join(" "));
                        let decls = out.get_mut(&m).expect("the module");
                        decls.sigs.push((Owner::Item(kind, name), sig));
                    }
                }
                stmt.clear();
            }
            _ => stmt.push(ch),
        }
    }

    /// A statement of a module's body: records what it declares; the block it opens.
    fn statement(
        m: &str,
        (public, hidden): (bool, bool),
        text: &str,
        opens: bool,
        out: &mut BTreeMap<String, Decls>,
    ) -> Block {
        let decls = out.get_mut(m).expect("the module");
        if let Some(tree) = text.strip_prefix("use ") {
            let mut paths = Vec::new();
            use_tree(tree, &[], &mut paths);
            decls
                .uses
                .extend(paths.into_iter().map(|(p, n)| (p, n, public, hidden)));
            return Block::Other;
        }
        let text = text.strip_prefix("unsafe ").unwrap_or(text);
        if (text.starts_with("impl ") || text.starts_with("impl<")) && opens {
            if text.split_whitespace().any(|w| w == "for") {
                return Block::Other; // a trait impl
            }
            // `impl<T: X> path::Type<T> where ...`: the type's path
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
            if head.is_empty() {
                return Block::Other;
            }
            let path = head.split("::").map(str::to_string).collect();
            decls.impls.push((path, Vec::new()));
            return Block::Impl(m.to_string(), decls.impls.len() - 1);
        }
        let Some((kind, name)) = item(text) else {
            return Block::Other;
        };
        if kind == "mod" {
            decls.mods.push((name.clone(), public, hidden));
            if opens {
                let path = join(m, &name);
                out.entry(path.clone()).or_default();
                return Block::Module(path);
            }
            return Block::Other;
        }
        decls.items.push((kind, name, public, hidden));
        Block::Other
    }
}

/// The parts of `text` between top-level commas (outside brackets, parentheses, braces and
/// angle brackets; the `>` of `->` and `=>` closes nothing).
fn split_top(text: &str) -> Vec<&str> {
    let (mut depth, mut start, mut prev) = (0i32, 0, ' ');
    let mut out = Vec::new();
    for (k, c) in text.char_indices() {
        match c {
            '(' | '[' | '{' | '<' => depth += 1,
            '>' if prev == '-' || prev == '=' => {}
            ')' | ']' | '}' | '>' => depth -= 1,
            ',' if depth == 0 => {
                out.push(&text[start..k]);
                start = k + 1;
            }
            _ => {}
        }
        prev = c;
    }
    out.push(&text[start..]);
    out.into_iter().filter(|p| !p.trim().is_empty()).collect()
}

/// The signature of an item statement (visibility and attributes removed): a `const`'s or a
/// `static`'s type without its value, a tuple struct's public fields, else the whole text (a
/// `fn`'s head, a type alias).
fn signature(kind: &str, text: &str) -> String {
    match kind {
        "const" | "static" => {
            let c: Vec<char> = text.chars().collect();
            let standalone = |k: usize| {
                c[k] == '='
                    && !matches!(c.get(k + 1), Some('=' | '>'))
                    && !(k > 0 && matches!(c[k - 1], '=' | '<' | '>' | '!'))
            };
            match (0..c.len()).find(|&k| standalone(k)) {
                Some(k) => c[..k].iter().collect(),
                None => text.to_string(),
            }
        }
        "struct" | "union" => match (text.find('('), text.rfind(')')) {
            (Some(open), Some(close)) if open < close => fields(kind, &text[open + 1..close]),
            _ => String::new(),
        },
        _ => text.to_string(),
    }
}

/// The public part of a struct's or union's fields (named or tuple: the `pub` ones not
/// `#[doc(hidden)]`), or of an enum's variants (their fields, the variants' names and values
/// left out), joined by `, `.
fn fields(kind: &str, body: &str) -> String {
    let mut out = Vec::new();
    for part in split_top(body) {
        if doc_hidden(part.trim()) {
            continue;
        }
        let text = strip_attrs(part.trim());
        if kind == "enum" {
            let rest = text.trim_start_matches(|c: char| c.is_alphanumeric() || c == '_');
            out.push(rest.split(" = ").next().unwrap_or(rest).to_string());
        } else if let (true, rest) = visibility(text) {
            out.push(rest.to_string());
        }
    }
    out.join(", ")
}

fn join(m: &str, name: &str) -> String {
    if m.is_empty() {
        name.to_string()
    } else {
        format!("{m}::{name}")
    }
}

/// What a path names: a module (its path) or an item (kind, module, name).
#[derive(Clone, PartialEq, Eq, PartialOrd, Ord, Debug)]
pub(crate) enum Target {
    Module(String),
    Item(String, String, String),
}

/// Recursion bound of the resolution (a glob cycle is not an error in Rust).
const DEPTH: usize = 12;

/// What `name` means inside module `m`: its child modules, items, imports and glob imports.
fn lookup(all: &BTreeMap<String, Decls>, m: &str, name: &str, depth: usize) -> Vec<Target> {
    let Some(d) = all.get(m).filter(|_| depth < DEPTH) else {
        return Vec::new();
    };
    let mut found: Vec<Target> = d
        .mods
        .iter()
        .filter(|(c, ..)| c == name)
        .map(|(c, ..)| Target::Module(join(m, c)))
        .collect();
    found.extend(
        d.items
            .iter()
            .filter(|(_, n, ..)| n == name)
            .map(|(k, n, ..)| Target::Item(k.clone(), m.to_string(), n.clone())),
    );
    for (path, bound, ..) in &d.uses {
        if bound.as_deref() == Some(name) {
            found.extend(resolve(all, m, path, depth + 1));
        }
    }
    if found.is_empty() {
        for (path, bound, ..) in &d.uses {
            if bound.is_none() {
                for t in resolve(all, m, path, depth + 1) {
                    if let Target::Module(q) = t {
                        found.extend(lookup(all, &q, name, depth + 1));
                    }
                }
            }
        }
    }
    found.sort();
    found.dedup();
    found
}

/// What a path written in module `from` names (`crate::`, `self::`, `super::` or relative);
/// nothing for a path outside the crate (`std::..`).
pub(crate) fn resolve(
    all: &BTreeMap<String, Decls>,
    from: &str,
    segs: &[String],
    depth: usize,
) -> Vec<Target> {
    let Some(first) = segs.first().filter(|_| depth < DEPTH) else {
        return Vec::new();
    };
    let parent = |m: &str| {
        m.rsplit_once("::")
            .map_or(String::new(), |(p, _)| p.to_string())
    };
    let mut rest = &segs[1..];
    let mut here = match first.as_str() {
        "crate" => vec![Target::Module(String::new())],
        "self" => vec![Target::Module(from.to_string())],
        "super" => {
            let mut m = parent(from);
            while rest.first().is_some_and(|s| s == "super") {
                m = parent(&m);
                rest = &rest[1..];
            }
            vec![Target::Module(m)]
        }
        name => lookup(all, from, name, depth + 1),
    };
    for seg in rest {
        here = here
            .iter()
            .filter_map(|t| match t {
                Target::Module(q) => Some(lookup(all, q, seg, depth + 1)),
                Target::Item(..) => None, // a variant or an associated item
            })
            .flatten()
            .collect();
    }
    here
}

/// What module `m` makes public: its `pub` child modules and items, and what its `pub use`s
/// name (a glob: everything its module exports). Name, target, and whether the export is
/// `#[doc(hidden)]` (its declaration, or the `pub use` naming it).
fn exports(all: &BTreeMap<String, Decls>, m: &str, depth: usize) -> Vec<(String, Target, bool)> {
    let Some(d) = all.get(m).filter(|_| depth < DEPTH) else {
        return Vec::new();
    };
    let mut out: Vec<(String, Target, bool)> = d
        .mods
        .iter()
        .filter(|(_, public, _)| *public)
        .map(|(c, _, hidden)| (c.clone(), Target::Module(join(m, c)), *hidden))
        .collect();
    out.extend(
        d.items
            .iter()
            .filter(|(_, _, public, _)| *public)
            .map(|(k, n, _, hidden)| {
                let t = Target::Item(k.clone(), m.to_string(), n.clone());
                (n.clone(), t, *hidden)
            }),
    );
    for (path, bound, public, hidden) in &d.uses {
        if !public {
            continue;
        }
        for t in resolve(all, m, path, depth + 1) {
            match (bound, t) {
                (Some(name), t) => out.push((name.clone(), t, *hidden)),
                (None, Target::Module(q)) => out.extend(
                    exports(all, &q, depth + 1)
                        .into_iter()
                        .map(|(n, t, h)| (n, t, h || *hidden)),
                ),
                (None, Target::Item(..)) => {} // an enum's variants
            }
        }
    }
    out
}

/// The public surface of a set of module sources (module path -> text), one line per item:
/// `kind path` for every module, item and inherent-impl `fn`/`const` a user can name, each
/// at one path (where it is declared when that module is public, else its shortest
/// re-export; a documented path before a `#[doc(hidden)]` one), and `use path = source` for
/// every public re-export. A line starts with `saddlefw` when the item is on the documented
/// surface (what `cargo doc` shows), with `saddlefw-hidden` when its path goes through a
/// `#[doc(hidden)]` module or the item is hidden itself (the internals); sorted, the
/// documented lines come first.
fn surface(files: &BTreeMap<String, String>) -> Vec<String> {
    analyse(files).lines
}

/// The surface of a set of module sources and what it was computed from.
pub(crate) struct Analysis {
    /// the listing ([`surface`])
    pub(crate) lines: Vec<String>,
    /// each module's declarations
    pub(crate) all: BTreeMap<String, Decls>,
    /// each exported item (kind, declaring module, name): its listed path and whether it is
    /// hidden (no documented path reaches it)
    pub(crate) items: BTreeMap<(String, String, String), (String, bool)>,
}

/// [`surface`], with the declarations and the listed items.
pub(crate) fn analyse(files: &BTreeMap<String, String>) -> Analysis {
    let mut all = BTreeMap::new();
    for (m, src) in files {
        parse(m, src, &mut all);
    }
    let line = |hidden: bool, text: String| {
        let prefix = if hidden {
            "saddlefw-hidden"
        } else {
            "saddlefw"
        };
        format!("{prefix} {text}")
    };
    let mut lines = BTreeSet::new();
    // modules by their public path, declared `pub mod` chains first; hidden public paths
    let mut module_path: BTreeMap<String, String> = BTreeMap::new();
    let mut hidden_paths: BTreeSet<String> = BTreeSet::new();
    let mut todo = vec![(String::new(), false)];
    while let Some((m, hidden)) = todo.pop() {
        module_path.insert(m.clone(), m.clone());
        if hidden {
            hidden_paths.insert(m.clone());
        }
        if let Some(d) = all.get(&m) {
            todo.extend(
                d.mods
                    .iter()
                    .filter(|(_, p, _)| *p)
                    .map(|(c, _, h)| (join(&m, c), hidden || *h)),
            );
        }
    }
    let mut defs: BTreeMap<(String, String, String), Vec<(String, bool)>> = BTreeMap::new();
    let mut queue = std::collections::VecDeque::from([String::new()]);
    let mut seen = BTreeSet::new();
    while let Some(m) = queue.pop_front() {
        if !seen.insert(m.clone()) {
            continue;
        }
        let here = module_path[&m].clone();
        let here_hidden = hidden_paths.contains(&here);
        let Some(d) = all.get(&m) else {
            continue; // a `pub mod` declared in a file this listing does not find
        };
        for (path, bound, public, hidden) in &d.uses {
            if *public {
                let name = bound.as_deref().unwrap_or("*");
                let text = format!("use {} = {}", join(&here, name), path.join("::"));
                lines.insert(line(here_hidden || *hidden, text));
            }
        }
        for (name, t, hidden) in exports(&all, &m, 0) {
            match t {
                Target::Module(q) => {
                    let path = module_path
                        .entry(q.clone())
                        .or_insert_with(|| {
                            let path = join(&here, &name);
                            if here_hidden || hidden {
                                hidden_paths.insert(path.clone());
                            }
                            path
                        })
                        .clone();
                    lines.insert(line(hidden_paths.contains(&path), format!("mod {path}")));
                    queue.push_back(q);
                }
                Target::Item(k, dm, n) => defs
                    .entry((k, dm, n))
                    .or_default()
                    .push((join(&here, &name), here_hidden || hidden)),
            }
        }
    }
    // each item at one path: a documented one if any; there where it is declared if public
    // there, else its shortest alias
    let mut listed: BTreeMap<(String, String), (String, bool)> = BTreeMap::new();
    let mut items = BTreeMap::new();
    for ((kind, dm, name), paths) in &defs {
        let hidden = paths.iter().all(|(_, h)| *h);
        let paths: Vec<&String> = paths
            .iter()
            .filter(|(_, h)| *h == hidden)
            .map(|(p, _)| p)
            .collect();
        let home = module_path.get(dm).map(|p| join(p, name));
        let path = match home.filter(|h| paths.contains(&h)) {
            Some(h) => h,
            None => paths
                .iter()
                .min_by_key(|p| (p.matches("::").count(), p.to_string()))
                .expect("one path")
                .to_string(),
        };
        lines.insert(line(hidden, format!("{kind} {path}")));
        items.insert(
            (kind.clone(), dm.clone(), name.clone()),
            (path.clone(), hidden),
        );
        if ["struct", "enum", "union"].contains(&kind.as_str()) {
            listed.insert((dm.clone(), name.clone()), (path, hidden));
        }
    }
    // inherent impls, wherever they are written, under their type's path
    for (m, d) in &all {
        for (ty, members) in &d.impls {
            for t in resolve(&all, m, ty, 0) {
                if let Target::Item(_, dm, n) = t {
                    if let Some((path, hidden)) = listed.get(&(dm, n)) {
                        for (kind, member) in members {
                            let kind = if kind == "fn" { "method" } else { "const" };
                            lines.insert(line(*hidden, format!("{kind} {path}::{member}")));
                        }
                    }
                }
            }
        }
    }
    Analysis {
        lines: lines.into_iter().collect(),
        all,
        items,
    }
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

/// Negative control: public items added to a copy of the sources (a function taking `&[u8]`,
/// one with an attribute and an array type, a method, a type re-exported out of a private
/// module) must each appear in the listing; private, `pub(crate)` and unreachable ones must not.
/// An item added to a `#[doc(hidden)]` module is listed as hidden, and a documented module
/// made hidden moves its items to the hidden part, except what a documented module re-exports.
#[test]
fn negative_control_an_added_public_item_changes_the_listing() {
    let files = module_files();
    let before = surface(&files);
    let mut added = files.clone();
    added.get_mut("gate").expect("src/gate.rs").push_str(
        "\n/// doc\npub fn injected_item(bytes: &[u8]) -> usize { bytes.len() }\n\
         #[must_use]\npub fn injected_array(a: [u8; 4]) -> [u8; 2] { [a[0], a[1]] }\n\
         pub(crate) fn hidden() {}\nfn private() {}\nmod private_mod { pub struct Hidden; \
         impl Hidden { pub fn reached(&self, b: &[u8]) {} } pub fn unreached() {} }\n\
         pub use private_mod::Hidden as Reexported;\n",
    );
    let after = surface(&added);
    let new: Vec<&String> = after.iter().filter(|l| !before.contains(l)).collect();
    assert_eq!(
        new,
        vec![
            "saddlefw fn gate::injected_array",
            "saddlefw fn gate::injected_item",
            "saddlefw method gate::Reexported::reached",
            "saddlefw struct gate::Reexported",
            "saddlefw use gate::Reexported = private_mod::Hidden",
        ]
    );
    let removed = surface(&BTreeMap::from([(
        String::new(),
        files[""].replace("pub mod fingerprint;", "mod fingerprint;"),
    )]));
    assert!(!removed.iter().any(|l| l.contains("fingerprint")));
    let mut internal = files.clone();
    internal
        .get_mut("verify")
        .expect("src/verify/mod.rs")
        .push_str("\npub fn injected_internal() {}\n");
    let after = surface(&internal);
    let new: Vec<&String> = after.iter().filter(|l| !before.contains(l)).collect();
    assert_eq!(new, vec!["saddlefw-hidden fn verify::injected_internal"]);
    let gate_hidden = surface(&BTreeMap::from_iter(files.iter().map(|(m, s)| {
        let s = if m.is_empty() {
            s.replace("pub mod gate;", "#[doc(hidden)]\npub mod gate;")
        } else {
            s.clone()
        };
        (m.clone(), s)
    })));
    for l in [
        "saddlefw-hidden mod gate",
        "saddlefw-hidden struct gate::FnSolver",
        "saddlefw struct prelude::RateCheck",
        "saddlefw method prelude::RateCheck::builtin",
    ] {
        assert!(gate_hidden.iter().any(|g| g == l), "{l} not listed");
    }
    assert!(!gate_hidden
        .iter()
        .any(|g| g.starts_with("saddlefw mod gate")));
    // synthetic sources: the rules one by one
    let synthetic: BTreeMap<String, String> = [
        (
            "",
            "#![allow(x)]\npub mod a;\nmod b;\npub(crate) mod c;\npub mod inline { pub fn f() {} fn g() {} }\n\
             pub use a::S;\npub use b::{Glob as G, *};\nmod d;\npub use d::*;\n\
             #[doc(hidden)]\npub mod h;\npub use h::shown;",
        ),
        (
            "a",
            "pub struct S;\nimpl S { pub fn new() -> S { S } fn private(&self) {} pub(crate) fn c(&self) {} \
             pub const K: [u8; 2] = [0; 2]; }\nimpl Clone for S { fn clone(&self) -> S { S } }\n\
             pub const fn k() -> u8 { 1 }\npub trait T { fn m(&self); }\n// pub fn commented() {}\n\
             const X: &str = \"pub fn in_string() {}\";\npub fn hash(bytes: &[u8]) -> [u8; 8] { [0; 8] }\n\
             #[derive(Debug)]\npub(crate) struct Crate;\npub static TABLE: &[&str] = &[\"a\"];\n\
             #[doc(hidden)]\npub fn hidden_item() {}",
        ),
        ("h", "pub struct Inner;\npub fn shown() {}\n#[doc(hidden)]\npub fn own() {}"),
        ("b", "pub struct Glob;\npub(crate) fn not_exported() {}"),
        ("c", "pub fn crate_only() {}"),
        ("d", "pub enum E { A }\nuse crate::a::S;\nimpl S { pub fn from_d(&self, x: &[f64]) {} }"),
    ]
    .into_iter()
    .map(|(m, s)| (m.to_string(), s.to_string()))
    .collect();
    assert_eq!(
        surface(&synthetic),
        vec![
            "saddlefw const a::S::K",
            "saddlefw enum E",
            "saddlefw fn a::hash",
            "saddlefw fn a::k",
            "saddlefw fn inline::f",
            "saddlefw fn shown",
            "saddlefw method a::S::from_d",
            "saddlefw method a::S::new",
            "saddlefw mod a",
            "saddlefw mod inline",
            "saddlefw static a::TABLE",
            "saddlefw struct G",
            "saddlefw struct a::S",
            "saddlefw trait a::T",
            "saddlefw use * = b",
            "saddlefw use * = d",
            "saddlefw use G = b::Glob",
            "saddlefw use S = a::S",
            "saddlefw use shown = h::shown",
            "saddlefw-hidden fn a::hidden_item",
            "saddlefw-hidden fn h::own",
            "saddlefw-hidden mod h",
            "saddlefw-hidden struct h::Inner",
        ]
    );
}
