//! No import cycle between the crate's modules (issue 14): the `use` declarations and the
//! `crate::`/`super::`/child-module paths of every file under `src/` form a module graph
//! (one node per file), and the test fails on every strongly connected component with more
//! than one module. Negative controls: a synthetic graph with a cycle, and synthetic sources
//! whose `use` lines close a cycle, must be reported.
//!
//! Rules (documented here, tested below):
//! * a path resolves to the longest prefix that is a module file (`crate::solvers::schedule::X`
//!   -> `solvers::schedule`, `crate::solvers::Schedule` -> `solvers`);
//! * comments and string literals are ignored, and so is the crate root (`lib.rs` declares
//!   every module and its macros expand to `crate::cli`);
//! * a `pub use` of a module's own descendant is a facade, not a dependency of the parent
//!   (`solvers` re-exporting `solvers::smoothing::DualSmoothing`); any other `use` counts.
//!
//! The same file checks the layers (issue 36): docs/architecture.md declares the order of the
//! top-level modules and folders (one layer per line, lowest first, in its `## Layers` section),
//! and no module may import a module of its own layer or of a higher one; only the crate root
//! (`lib.rs`, whose re-exports and macros are a facade) is exempt. Negative controls: an upward
//! import and an import between two modules of one layer, injected into synthetic sources and
//! into a copy of the crate's own, must be reported.
//!
//! The same file also checks the sizes (issue 14): no file under `src/` above
//! [`MAX_FILE_LINES`] lines, no function above [`MAX_FN_LINES`] lines (see
//! [`function_lengths`] for how a function is measured), without exceptions. Negative controls: synthetic
//! sources with a function and a file one line too long must be reported.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// Module path (`solvers::registry`) -> source text, for every file under `src/` but the
/// crate root and the binary.
fn crate_sources() -> BTreeMap<String, String> {
    src_files()
        .into_iter()
        .filter_map(|(rel, src)| {
            let mut parts: Vec<&str> = rel.trim_end_matches(".rs").split('/').collect();
            let name = parts.pop()?;
            if parts.is_empty() && (name == "lib" || name == "main") {
                return None; // the crate root and the binary
            }
            if name != "mod" && name != "lib" && name != "main" {
                parts.push(name);
            }
            Some((parts.join("::"), src))
        })
        .collect()
}

/// The line breaks of a removed comment or literal, so that the stripped source keeps the
/// original's line numbers.
fn keep_newlines(removed: &[char], out: &mut String) {
    out.extend(removed.iter().filter(|&&ch| ch == '\n'));
}

/// The source without comments, string and char literals (replaced by spaces; their line
/// breaks are kept).
pub(crate) fn strip(src: &str) -> String {
    let c: Vec<char> = src.chars().collect();
    let mut out = String::with_capacity(src.len());
    let mut i = 0;
    while i < c.len() {
        match c[i] {
            '/' if c.get(i + 1) == Some(&'/') => {
                while i < c.len() && c[i] != '\n' {
                    i += 1;
                }
            }
            '/' if c.get(i + 1) == Some(&'*') => {
                let start = i;
                i += 2;
                while i + 1 < c.len() && !(c[i] == '*' && c[i + 1] == '/') {
                    i += 1;
                }
                i += 2;
                keep_newlines(&c[start..i.min(c.len())], &mut out);
            }
            'r' if matches!(c.get(i + 1), Some('"') | Some('#'))
                && (i == 0 || !(c[i - 1].is_alphanumeric() || c[i - 1] == '_')) =>
            {
                let mut j = i + 1;
                let mut hashes = 0;
                while c.get(j) == Some(&'#') {
                    hashes += 1;
                    j += 1;
                }
                if c.get(j) != Some(&'"') {
                    out.push(c[i]);
                    i += 1;
                    continue;
                }
                j += 1;
                loop {
                    if j >= c.len() {
                        break;
                    }
                    if c[j] == '"' && (0..hashes).all(|k| c.get(j + 1 + k) == Some(&'#')) {
                        j += 1 + hashes;
                        break;
                    }
                    j += 1;
                }
                out.push(' ');
                keep_newlines(&c[i..j.min(c.len())], &mut out);
                i = j;
            }
            '"' => {
                let start = i;
                i += 1;
                while i < c.len() && c[i] != '"' {
                    i += if c[i] == '\\' { 2 } else { 1 };
                }
                i += 1;
                out.push(' ');
                keep_newlines(&c[start..i.min(c.len())], &mut out);
            }
            '\'' if c.get(i + 2) == Some(&'\'') || (c.get(i + 1) == Some(&'\\')) => {
                // a char literal ('a', '\n', '\''); lifetimes ('a) have no closing quote
                i += 1;
                while i < c.len() && c[i] != '\'' {
                    i += if c[i] == '\\' { 2 } else { 1 };
                }
                i += 1;
                out.push(' ');
            }
            ch => {
                out.push(ch);
                i += 1;
            }
        }
    }
    out
}

/// The paths of a use tree (`crate::{a::{b, c}, d}` -> `crate::a::b`, `crate::a::c`, `crate::d`).
fn expand_use_tree(tree: &str) -> Vec<String> {
    let tree: String = tree.split_whitespace().collect();
    fn go(prefix: &str, t: &str, out: &mut Vec<String>) {
        match t.find('{') {
            None => {
                let t = t.split(" as ").next().unwrap_or(t);
                out.push(format!("{prefix}{t}"));
            }
            Some(open) => {
                let head = &t[..open];
                let inner = &t[open + 1..t.rfind('}').expect("balanced use tree")];
                let mut depth = 0;
                let mut start = 0;
                let bytes: Vec<char> = inner.chars().collect();
                for (k, ch) in bytes.iter().enumerate() {
                    match ch {
                        '{' => depth += 1,
                        '}' => depth -= 1,
                        ',' if depth == 0 => {
                            let part: String = bytes[start..k].iter().collect();
                            if !part.is_empty() {
                                go(&format!("{prefix}{head}"), &part, out);
                            }
                            start = k + 1;
                        }
                        _ => {}
                    }
                }
                let part: String = bytes[start..].iter().collect();
                if !part.is_empty() {
                    go(&format!("{prefix}{head}"), &part, out);
                }
            }
        }
    }
    let mut out = Vec::new();
    go("", &tree, &mut out);
    out
}

/// The modules `module` depends on: (target, is a facade re-export).
fn dependencies(module: &str, src: &str, modules: &BTreeSet<String>) -> BTreeSet<String> {
    let code = strip(src);
    let me: Vec<&str> = if module.is_empty() {
        vec![]
    } else {
        module.split("::").collect()
    };
    let resolve = |path: &str| -> Option<String> {
        let segs: Vec<&str> = path.split("::").filter(|s| !s.is_empty()).collect();
        let mut base: Vec<&str> = match segs.first().copied() {
            Some("crate") => vec![],
            Some("super") => me[..me.len().saturating_sub(1)].to_vec(),
            Some("self") => me.clone(),
            Some(child) => {
                let mut c = me.clone();
                c.push(child);
                if modules.contains(&c.join("::")) {
                    me.clone()
                } else {
                    return None; // an external crate or a local item
                }
            }
            None => return None,
        };
        let mut rest = &segs[usize::from(matches!(segs[0], "crate" | "super" | "self"))..];
        while rest.first() == Some(&"super") {
            base.pop();
            rest = &rest[1..];
        }
        let mut best = None;
        let mut cur = base.clone();
        if !cur.is_empty() && modules.contains(&cur.join("::")) {
            best = Some(cur.join("::"));
        }
        for s in rest {
            cur.push(s);
            if modules.contains(&cur.join("::")) {
                best = Some(cur.join("::"));
            }
        }
        best
    };
    let mut deps = BTreeSet::new();
    let mut add = |target: Option<String>, facade_ok: bool| {
        if let Some(t) = target {
            let own_descendant = t.starts_with(&format!("{module}::"));
            if t != module && !(facade_ok && own_descendant) {
                deps.insert(t);
            }
        }
    };
    // use declarations (possibly multi-line)
    let mut rest_code = String::new();
    let mut s = code.as_str();
    while let Some(pos) = find_use(s) {
        rest_code.push_str(&s[..pos.start]);
        let stmt = &s[pos.tree_start..pos.end - 1]; // without the `;`
        for p in expand_use_tree(stmt) {
            add(resolve(&p), pos.public);
        }
        s = &s[pos.end..];
    }
    rest_code.push_str(s);
    // paths in code: crate::a::b, super::x, child::y
    let chars: Vec<char> = rest_code.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        let ident_start = chars[i].is_alphabetic() || chars[i] == '_';
        let boundary = i == 0
            || !(chars[i - 1].is_alphanumeric() || chars[i - 1] == '_' || chars[i - 1] == ':');
        if ident_start && boundary {
            let mut j = i;
            while j < chars.len()
                && (chars[j].is_alphanumeric() || chars[j] == '_' || chars[j] == ':')
            {
                j += 1;
            }
            let path: String = chars[i..j].iter().collect();
            if path.contains("::") {
                add(resolve(path.trim_end_matches(':')), false);
            }
            i = j;
        } else {
            i += 1;
        }
    }
    deps
}

struct UsePos {
    start: usize,
    tree_start: usize,
    end: usize,
    public: bool,
}

/// The next `use ...;` declaration in stripped code.
fn find_use(s: &str) -> Option<UsePos> {
    let b = s.as_bytes();
    let mut from = 0;
    while let Some(k) = s[from..].find("use ") {
        let at = from + k;
        let before_ok = at == 0 || !(b[at - 1].is_ascii_alphanumeric() || b[at - 1] == b'_');
        if before_ok {
            let line_start = s[..at].rfind('\n').map_or(0, |n| n + 1);
            let lead = s[line_start..at].trim();
            let public = lead.starts_with("pub");
            if lead.is_empty() || public {
                let end = at + s[at..].find(';')?;
                return Some(UsePos {
                    start: line_start,
                    tree_start: at + 4,
                    end: end + 1,
                    public,
                });
            }
        }
        from = at + 4;
    }
    None
}

/// The module graph of a set of sources.
fn graph(sources: &BTreeMap<String, String>) -> BTreeMap<String, BTreeSet<String>> {
    let modules: BTreeSet<String> = sources.keys().cloned().collect();
    sources
        .iter()
        .map(|(m, src)| {
            let deps = dependencies(m, src, &modules);
            (m.clone(), deps)
        })
        .collect()
}

/// The strongly connected components with more than one node (Tarjan), each sorted.
fn cycles(g: &BTreeMap<String, BTreeSet<String>>) -> Vec<Vec<String>> {
    struct St<'a> {
        g: &'a BTreeMap<String, BTreeSet<String>>,
        index: BTreeMap<&'a str, usize>,
        low: BTreeMap<&'a str, usize>,
        stack: Vec<&'a str>,
        on: BTreeSet<&'a str>,
        out: Vec<Vec<String>>,
    }
    fn visit<'a>(st: &mut St<'a>, v: &'a str) {
        let n = st.index.len();
        st.index.insert(v, n);
        st.low.insert(v, n);
        st.stack.push(v);
        st.on.insert(v);
        let g = st.g;
        for w in g.get(v).into_iter().flatten() {
            let w = w.as_str();
            if !g.contains_key(w) {
                continue;
            }
            if !st.index.contains_key(w) {
                visit(st, w);
                let lw = st.low[w];
                let lv = st.low.get_mut(v).unwrap();
                *lv = (*lv).min(lw);
            } else if st.on.contains(w) {
                let iw = st.index[w];
                let lv = st.low.get_mut(v).unwrap();
                *lv = (*lv).min(iw);
            }
        }
        if st.low[v] == st.index[v] {
            let mut comp = Vec::new();
            loop {
                let w = st.stack.pop().unwrap();
                st.on.remove(w);
                comp.push(w.to_string());
                if w == v {
                    break;
                }
            }
            if comp.len() > 1 {
                comp.sort();
                st.out.push(comp);
            }
        }
    }
    let mut st = St {
        g,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        on: BTreeSet::new(),
        out: Vec::new(),
    };
    for v in g.keys() {
        if !st.index.contains_key(v.as_str()) {
            visit(&mut st, v);
        }
    }
    st.out.sort();
    st.out
}

#[test]
fn the_module_graph_has_no_cycle() {
    let sources = crate_sources();
    assert!(sources.len() >= 60, "found only {} modules", sources.len());
    let g = graph(&sources);
    // the parser sees the crate's real dependencies (positive controls on known edges)
    for (from, to) in [
        ("verify::jobs", "theorems"),
        ("solvers::registry", "solvers::smoothing"),
        ("solvers::defaults", "paper::theorems"),
        ("invariants::check", "invariants::case"),
    ] {
        assert!(
            g[from].contains(to),
            "{from} -> {to} not found: {:?}",
            g[from]
        );
    }
    // the parser also sees the edges that would close a cycle if both existed: the trait module
    // calls the inner solves, which read only the leaf `problems::values`
    assert!(g["problems"].contains("problems::inner"));
    assert!(g["problems::inner"].contains("problems::values"));
    assert!(!g["problems::inner"].contains("problems"));
    let found = cycles(&g);
    assert!(found.is_empty(), "import cycles between modules: {found:?}");
}

fn sources(files: &[(&str, &str)]) -> BTreeMap<String, String> {
    files
        .iter()
        .map(|(m, s)| (m.to_string(), s.to_string()))
        .collect()
}

/// Negative control of the cycle finder: a graph with a cycle is reported, one without is not.
#[test]
fn negative_control_a_synthetic_cycle_is_found() {
    let g = |edges: &[(&str, &str)]| {
        let mut g: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
        for (a, b) in edges {
            g.entry(a.to_string()).or_default().insert(b.to_string());
            g.entry(b.to_string()).or_default();
        }
        g
    };
    assert_eq!(
        cycles(&g(&[
            ("a", "b"),
            ("b", "c"),
            ("c", "a"),
            ("c", "d"),
            ("d", "e")
        ])),
        vec![vec!["a".to_string(), "b".into(), "c".into()]]
    );
    assert!(cycles(&g(&[("a", "b"), ("b", "c"), ("a", "c")])).is_empty());
}

/// Negative control of the parser: `use` lines (grouped, multi-line, `super::`, child
/// modules) and inline paths that close a cycle are found; comments, strings and a parent's
/// facade re-export are not dependencies.
#[test]
fn negative_control_use_lines_closing_a_cycle_are_found() {
    let s = sources(&[
        (
            "a",
            "use crate::{b::{self, X},\n    c};\nfn f() { b::g(); }",
        ),
        ("b", "pub fn g() { crate::c::h() }"),
        ("c", "use super::a::Y; pub fn h() {}"),
        ("d", "// use crate::e;\nconst S: &str = \"crate::e::x\";"),
        ("e", "pub use self::f::Z; use super::d;"),
        ("e::f", "use super::super::d; pub struct Z;"),
    ]);
    let g = graph(&s);
    assert_eq!(g["a"], ["b", "c"].iter().map(|s| s.to_string()).collect());
    assert_eq!(g["c"], ["a"].iter().map(|s| s.to_string()).collect());
    assert!(g["d"].is_empty(), "{:?}", g["d"]);
    assert_eq!(g["e"], ["d"].iter().map(|s| s.to_string()).collect());
    assert_eq!(g["e::f"], ["d"].iter().map(|s| s.to_string()).collect());
    assert_eq!(
        cycles(&g),
        vec![vec!["a".to_string(), "b".into(), "c".into()]]
    );
    // without the closing `use`, no cycle
    let mut s2 = s.clone();
    s2.insert("c".into(), "pub fn h() {}".into());
    assert!(cycles(&graph(&s2)).is_empty());
    // a child's `use` of its parent plus a parent's non-facade use of the child is a cycle
    let s3 = sources(&[
        ("p", "use self::q::T; fn f(_: T) {}"),
        ("p::q", "use super::U;"),
    ]);
    assert_eq!(
        cycles(&graph(&s3)),
        vec![vec!["p".to_string(), "p::q".into()]]
    );
}

/// The layers declared in docs/architecture.md, lowest first: the lines of the first `text`
/// block after the `## Layers` heading, each a comma-separated list of top-level modules (a
/// trailing `(...)` is a comment).
fn declared_layers(doc: &str) -> Vec<Vec<String>> {
    let section = &doc[doc
        .find("## Layers")
        .expect("docs/architecture.md has ## Layers")..];
    let block = &section[section.find("```text").expect("a ```text block of layers") + 7..];
    let block = &block[..block.find("```").expect("the block is closed")];
    block
        .lines()
        .map(|l| l.split('(').next().unwrap_or("").trim())
        .filter(|l| !l.is_empty())
        .map(|l| l.split(',').map(|m| m.trim().to_string()).collect())
        .collect()
}

/// Every import between top-level modules that does not go to a strictly lower layer, as
/// `from -> to (layer i -> layer j)`, and every top-level module the layers do not declare
/// (or declare twice).
fn layer_violations(g: &BTreeMap<String, BTreeSet<String>>, layers: &[Vec<String>]) -> Vec<String> {
    let top = |m: &str| m.split("::").next().unwrap_or("").to_string();
    let mut rank: BTreeMap<String, usize> = BTreeMap::new();
    let mut out = Vec::new();
    for (i, layer) in layers.iter().enumerate() {
        for m in layer {
            if rank.insert(m.clone(), i).is_some() {
                out.push(format!("{m} is declared twice"));
            }
        }
    }
    let modules: BTreeSet<String> = g.keys().map(|m| top(m)).collect();
    for m in &modules {
        if !rank.contains_key(m) {
            out.push(format!("{m} is in no layer"));
        }
    }
    for m in rank.keys() {
        if !modules.contains(m) {
            out.push(format!("{m} is declared but has no source"));
        }
    }
    for (from, deps) in g {
        for to in deps {
            let (a, b) = (top(from), top(to));
            if a == b {
                continue;
            }
            if let (Some(&i), Some(&j)) = (rank.get(&a), rank.get(&b)) {
                if j >= i {
                    out.push(format!("{from} -> {to} (layer {i} -> layer {j})"));
                }
            }
        }
    }
    out
}

fn architecture_doc() -> String {
    std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/architecture.md"))
        .unwrap()
}

#[test]
fn no_module_imports_its_own_layer_or_a_higher_one() {
    let layers = declared_layers(&architecture_doc());
    assert!(layers.len() >= 10, "found only {} layers", layers.len());
    let g = graph(&crate_sources());
    let bad = layer_violations(&g, &layers);
    assert!(
        bad.is_empty(),
        "imports against the layers of docs/architecture.md:\n{}",
        bad.join("\n")
    );
}

/// Negative control of the layer check: an upward import, an import within one layer, an
/// undeclared module and a doubly declared one are reported, a downward import is not; and an
/// upward import injected into a copy of the crate's own sources (the paper's vocabulary
/// importing the command line) is found.
#[test]
fn negative_control_an_injected_upward_import_is_found() {
    let layers: Vec<Vec<String>> = vec![
        vec!["low".into()],
        vec!["mid".into(), "peer".into()],
        vec!["high".into()],
    ];
    let s = sources(&[
        ("low", "pub fn f() {}"),
        ("low::x", "use crate::high::g;"),
        ("mid", "use crate::low::f; fn h() { crate::peer::p() }"),
        ("peer", "pub fn p() {}"),
        ("high", "use crate::mid; pub fn g() { super::low::f() }"),
    ]);
    assert_eq!(
        layer_violations(&graph(&s), &layers),
        vec![
            "low::x -> high (layer 0 -> layer 2)".to_string(),
            "mid -> peer (layer 1 -> layer 1)".to_string(),
        ]
    );
    let mut undeclared = s.clone();
    undeclared.insert("other".into(), String::new());
    let mut twice = layers.clone();
    twice[2].push("low".into());
    assert!(layer_violations(&graph(&undeclared), &layers)
        .contains(&"other is in no layer".to_string()));
    assert!(layer_violations(&graph(&s), &twice).contains(&"low is declared twice".to_string()));
    // the crate's own sources with one injected upward import
    let layers = declared_layers(&architecture_doc());
    let mut own = crate_sources();
    own.get_mut("paper::algorithm")
        .expect("src/paper/algorithm.rs")
        .push_str("\nuse crate::cli::EXIT_OK;\n");
    let bad = layer_violations(&graph(&own), &layers);
    assert!(
        bad.iter()
            .any(|v| v.starts_with("paper::algorithm -> cli ")),
        "{bad:?}"
    );
}

/// Largest number of lines of a file under `src/` (issue 14).
const MAX_FILE_LINES: usize = 800;
/// Largest number of lines of a function, from its `fn` line to its closing brace (issue 14).
const MAX_FN_LINES: usize = 120;

/// Every file under `src/` (path relative to `src/`, `/`-separated) with its text.
pub(crate) fn src_files() -> Vec<(String, String)> {
    fn walk(dir: &Path, prefix: &str, out: &mut Vec<(String, String)>) {
        let mut entries: Vec<_> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect();
        entries.sort();
        for p in entries {
            let name = p.file_name().unwrap().to_string_lossy().to_string();
            let rel = format!("{prefix}{name}");
            if p.is_dir() {
                walk(&p, &format!("{rel}/"), out);
            } else if p.extension().is_some_and(|e| e == "rs") {
                out.push((rel, std::fs::read_to_string(&p).unwrap()));
            }
        }
    }
    let mut out = Vec::new();
    walk(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("src"),
        "",
        &mut out,
    );
    out
}

/// The functions of a source with a body and their lengths in lines, counted from the line
/// of the `fn` keyword (attributes and doc comments not included) to the line of the closing
/// brace, both included. Comments, strings and char literals are ignored ([`strip`]), so a
/// brace inside them does not count; nested functions are measured on their own too (and
/// count towards the outer one); a declaration without a body (`fn f();` in a trait) and a
/// function pointer type (`fn(u32) -> u32`) are not functions.
fn function_lengths(src: &str) -> Vec<(String, usize)> {
    let code: Vec<char> = strip(src).chars().collect();
    let line_of = |pos: usize| code[..pos].iter().filter(|&&c| c == '\n').count();
    let is_ident = |c: char| c.is_alphanumeric() || c == '_';
    let mut out = Vec::new();
    let mut i = 0;
    while i + 2 < code.len() {
        let word = code[i] == 'f'
            && code[i + 1] == 'n'
            && (i == 0 || !is_ident(code[i - 1]))
            && code[i + 2].is_whitespace();
        if !word {
            i += 1;
            continue;
        }
        let mut j = i + 2;
        while j < code.len() && code[j].is_whitespace() {
            j += 1;
        }
        let name: String = code[j..].iter().take_while(|&&c| is_ident(c)).collect();
        if name.is_empty() {
            i += 2;
            continue;
        }
        // the body's opening brace: the first `{` outside parentheses and brackets, unless
        // a `;` ends a declaration first
        let mut depth = 0i32;
        let mut open = None;
        for (k, &c) in code.iter().enumerate().skip(j + name.len()) {
            match c {
                '(' | '[' => depth += 1,
                ')' | ']' => depth -= 1,
                ';' if depth == 0 => break,
                '{' if depth == 0 => {
                    open = Some(k);
                    break;
                }
                _ => {}
            }
        }
        if let Some(open) = open {
            let mut braces = 0i32;
            for (k, &c) in code.iter().enumerate().skip(open) {
                match c {
                    '{' => braces += 1,
                    '}' => braces -= 1,
                    _ => {}
                }
                if braces == 0 {
                    out.push((name.clone(), line_of(k) - line_of(i) + 1));
                    break;
                }
            }
        }
        i = j + name.len();
    }
    out
}

/// The files and functions above the limits: (file, function or `None` for the file, lines).
fn size_offenders(files: &[(String, String)]) -> Vec<(String, Option<String>, usize)> {
    let mut out = Vec::new();
    for (path, src) in files {
        let lines = src.lines().count();
        if lines > MAX_FILE_LINES {
            out.push((path.clone(), None, lines));
        }
        for (name, n) in function_lengths(src) {
            if n > MAX_FN_LINES {
                out.push((path.clone(), Some(name), n));
            }
        }
    }
    out
}

#[test]
fn no_file_above_800_lines_and_no_function_above_120() {
    let files = src_files();
    assert!(files.len() >= 60, "found only {} files", files.len());
    let found = size_offenders(&files);
    let bad: Vec<String> = found
        .iter()
        .map(|(f, name, n)| match name {
            Some(name) => format!("src/{f}: fn {name} has {n} lines (at most {MAX_FN_LINES})"),
            None => format!("src/{f} has {n} lines (at most {MAX_FILE_LINES})"),
        })
        .collect();
    assert!(bad.is_empty(), "too long:\n{}", bad.join("\n"));
}

/// Negative control of the size check: a function one line too long and a file one line too
/// long are reported; braces in strings, comments and char literals, a trait declaration
/// and a function pointer type do not confuse the count.
#[test]
fn negative_control_a_long_function_and_a_long_file_are_found() {
    let body = |n: usize| "    let _x = 1;\n".repeat(n - 2);
    let f121 = format!("fn long() {{\n{}}}\n", body(121));
    assert_eq!(function_lengths(&f121), vec![("long".to_string(), 121)]);
    let f120 = format!(
        "/// doc {{\n#[inline]\npub(crate) fn fits(\n    f: fn(u32) -> u32,\n    a: [u8; 2],\n) -> char {{\n{}    let _s = \"}}\\\"{{ \n}}\";\n    let _c = '}}'; // }}\n    /* {{ */ '{{'\n}}\ntrait T {{\n    fn declared(&self);\n}}\n",
        body(113)
    );
    let lens = function_lengths(&f120);
    assert_eq!(lens, vec![("fits".to_string(), 120)], "{f120}");
    let nested = "fn outer() {\n    fn inner() {\n    }\n}\n";
    assert_eq!(
        function_lengths(nested),
        vec![("outer".to_string(), 4), ("inner".to_string(), 2)]
    );
    let files = vec![
        ("long.rs".to_string(), f121.clone()),
        ("fits.rs".to_string(), f120),
        ("big.rs".to_string(), "// x\n".repeat(MAX_FILE_LINES + 1)),
        ("full.rs".to_string(), "// x\n".repeat(MAX_FILE_LINES)),
    ];
    assert_eq!(
        size_offenders(&files),
        vec![
            ("long.rs".to_string(), Some("long".to_string()), 121),
            ("big.rs".to_string(), None, MAX_FILE_LINES + 1),
        ]
    );
}
