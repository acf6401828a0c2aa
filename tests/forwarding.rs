//! Every wrapper of a problem or a set forwards every method of its trait (issue 36): a
//! forgotten forwarder silently falls back to the trait's default (a `y_star` that no longer
//! counts, a `step_grads` that drops the wrapped problem's incremental products). The methods of
//! `SaddleProblem` and `ConvexSet` are read from their declarations, the methods of each
//! wrapper's `impl` from its file, and the test fails when a trait method is neither written in
//! the wrapper nor among its listed, deliberate defaults. So a method added to a trait must be
//! forwarded by every wrapper (or listed here with its reason). Negative control: a forwarder
//! removed from a copy of a wrapper's source, and a method added to a copy of the trait, must
//! be reported.

use crate::modules::strip;
use std::collections::BTreeSet;
use std::path::Path;

/// Names of the `fn`s in the brace block that follows the first occurrence of `header`.
fn methods_after(src: &str, header: &str) -> BTreeSet<String> {
    let code = strip(src);
    let start = code
        .find(header)
        .unwrap_or_else(|| panic!("`{header}` not found"));
    let open = start + code[start..].find('{').expect("a block");
    let (mut depth, mut out) = (0usize, BTreeSet::new());
    let body = &code[open..];
    let mut end = body.len();
    for (k, c) in body.char_indices() {
        match c {
            '{' => depth += 1,
            '}' => {
                depth -= 1;
                if depth == 0 {
                    end = k;
                    break;
                }
            }
            _ => {}
        }
    }
    // only the block's own items: depth 1
    let body = &body[..end];
    let mut depth = 0usize;
    let mut i = 0;
    let bytes = body.as_bytes();
    while i < bytes.len() {
        match bytes[i] {
            b'{' => depth += 1,
            b'}' => depth -= 1,
            b'f' if depth == 1
                && body[i..].starts_with("fn ")
                && (i == 0 || !(bytes[i - 1].is_ascii_alphanumeric() || bytes[i - 1] == b'_')) =>
            {
                let name: String = body[i + 3..]
                    .trim_start()
                    .chars()
                    .take_while(|c| c.is_alphanumeric() || *c == '_')
                    .collect();
                out.insert(name);
            }
            _ => {}
        }
        i += 1;
    }
    out
}

fn read(rel: &str) -> String {
    std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(rel)).unwrap()
}

/// (file, impl header, trait, deliberate defaults with their reasons)
const WRAPPERS: &[(&str, &str, &str, &[(&str, &str)])] = &[
    (
        "src/problems/mod.rs",
        "SaddleProblem for Box<P>",
        "problem",
        &[],
    ),
    (
        "src/counting.rs",
        "SaddleProblem for Counting<'_>",
        "problem",
        &[],
    ),
    (
        "src/invariants/controls.rs",
        "SaddleProblem for Understated",
        "problem",
        &[
            (
                "step_grads",
                "the default recomputes through the forwarded `grads`",
            ),
            (
                "step_grads_checked",
                "the default recomputes through the forwarded `grads`",
            ),
            (
                "note_fw_move",
                "with the defaults above there are no incremental products to move",
            ),
            (
                "as_quadratic",
                "the understated constants are not the quadratic file's",
            ),
            (
                "assumptions",
                "derived by the default from the understated constants",
            ),
        ],
    ),
    ("src/counting.rs", "ConvexSet for CountingSet", "set", &[]),
];

/// The wrappers' missing forwarders beyond their listed defaults: `wrapper: method`.
fn unforwarded(
    problem: &BTreeSet<String>,
    set: &BTreeSet<String>,
    source: &dyn Fn(&str) -> String,
) -> Vec<String> {
    let mut out = Vec::new();
    for (file, header, which, defaults) in WRAPPERS {
        let wanted = if *which == "problem" { problem } else { set };
        let written = methods_after(&source(file), header);
        for m in wanted {
            if !written.contains(m) && !defaults.iter().any(|(d, _)| d == m) {
                out.push(format!("{header}: {m}"));
            }
        }
        for (d, _) in defaults.iter() {
            assert!(
                wanted.contains(*d),
                "{header}: listed default `{d}` is not a trait method"
            );
        }
    }
    out
}

fn trait_methods() -> (BTreeSet<String>, BTreeSet<String>) {
    let problem = methods_after(&read("src/problems/mod.rs"), "pub trait SaddleProblem");
    let set = methods_after(&read("src/sets/mod.rs"), "pub trait ConvexSet");
    assert!(
        problem.len() >= 20 && problem.contains("y_star"),
        "{problem:?}"
    );
    assert!(set.len() >= 10 && set.contains("lmo"), "{set:?}");
    (problem, set)
}

#[test]
fn every_wrapper_forwards_every_method() {
    let (problem, set) = trait_methods();
    let missing = unforwarded(&problem, &set, &read);
    assert!(
        missing.is_empty(),
        "wrappers fall back to trait defaults: {missing:#?}"
    );
}

#[test]
fn negative_control_a_removed_forwarder_and_a_new_trait_method_are_found() {
    let (mut problem, set) = trait_methods();
    // Counting's `y_star` forwarder removed (renamed) in a copy of its file
    let broken = |rel: &str| {
        let src = read(rel);
        if rel == "src/counting.rs" {
            src.replacen("fn y_star(", "fn y_star_gone(", 1)
        } else {
            src
        }
    };
    assert_eq!(
        unforwarded(&problem, &set, &broken),
        vec!["SaddleProblem for Counting<'_>: y_star".to_string()]
    );
    // a method added to the trait that no wrapper writes yet
    problem.insert("new_method".to_string());
    assert_eq!(unforwarded(&problem, &set, &read).len(), 3);
}
