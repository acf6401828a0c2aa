//! Every type a documented signature names has a documented page (issue 36): a public `fn`,
//! method, `const`, `static`, type alias, public field, enum variant or trait member that
//! `cargo doc` shows must not name a type, trait or alias reachable only through a
//! `#[doc(hidden)]` module (or not at all), since rustdoc then prints the bare name with no
//! page behind it (`Outcome.report: VerifyReport` before its re-export in `gate`). Read with
//! the public-items listing's parser and name resolution (`tests/public_api.rs`): a path in a
//! signature is resolved in its declaring module, through its `use`s; paths outside the crate
//! (`Vec`, `std::..`) and generic parameters resolve to nothing and are not checked. Trait
//! impls and private items are not read. Negative control: signatures naming hidden types,
//! added to a copy of the sources, are each reported, and a re-export in a documented module
//! makes the report go away.

use crate::public_api::{analyse, module_files, resolve, Owner, Target};
use std::collections::{BTreeMap, BTreeSet};

/// The paths a signature's text names (`crate::fit::Baselines`, `Vec`, `T`), lifetimes left out.
fn paths_in(sig: &str) -> Vec<Vec<String>> {
    let c: Vec<char> = sig.chars().collect();
    let ident = |c: char| c.is_alphanumeric() || c == '_';
    let mut out = Vec::new();
    let mut k = 0;
    while k < c.len() {
        if !ident(c[k]) || (k > 0 && (ident(c[k - 1]) || c[k - 1] == '\'')) {
            k += 1;
            continue;
        }
        let mut segs = Vec::new();
        loop {
            let start = k;
            while k < c.len() && ident(c[k]) {
                k += 1;
            }
            segs.push(c[start..k].iter().collect::<String>());
            if c.get(k) == Some(&':')
                && c.get(k + 1) == Some(&':')
                && c.get(k + 2).is_some_and(|&c| ident(c))
            {
                k += 2;
            } else {
                break;
            }
        }
        out.push(segs);
    }
    out
}

/// Each documented signature naming an item with no documented path: `owner: path as written
/// (declaring module::name)`, sorted.
pub(crate) fn hidden_in_signatures(files: &BTreeMap<String, String>) -> Vec<String> {
    let a = analyse(files);
    let documented = |kind: &str, dm: &str, name: &str| {
        let key = (kind.to_string(), dm.to_string(), name.to_string());
        a.items
            .get(&key)
            .filter(|(_, hidden)| !hidden)
            .map(|(p, _)| p.clone())
    };
    let mut out = BTreeSet::new();
    for (m, d) in &a.all {
        for (owner, sig) in &d.sigs {
            let owner = match owner {
                Owner::Item(kind, name) => documented(kind, m, name),
                Owner::Member(k, name) => resolve(&a.all, m, &d.impls[*k].0, 0)
                    .into_iter()
                    .find_map(|t| match t {
                        Target::Item(kind, dm, n) => documented(&kind, &dm, &n),
                        Target::Module(_) => None,
                    })
                    .map(|p| format!("{p}::{name}")),
            };
            let Some(owner) = owner else {
                continue;
            };
            for segs in paths_in(sig) {
                let last = segs.last().expect("a segment");
                if !last.starts_with(|c: char| c.is_uppercase()) || segs.iter().any(|s| s == "Self")
                {
                    continue;
                }
                for t in resolve(&a.all, m, &segs, 0) {
                    if let Target::Item(kind, dm, n) = t {
                        if documented(&kind, &dm, &n).is_none() {
                            let home = if dm.is_empty() {
                                n
                            } else {
                                format!("{dm}::{n}")
                            };
                            out.insert(format!("{owner}: {} ({home})", segs.join("::")));
                        }
                    }
                }
            }
        }
    }
    out.into_iter().collect()
}

#[test]
fn documented_signatures_name_only_documented_types() {
    let found = hidden_in_signatures(&module_files());
    assert!(
        found.is_empty(),
        "documented signatures name types with no documented page (re-export each in the \
         documented module it belongs to, or hide the member):\n{found:#?}"
    );
}

/// Negative control: signatures naming hidden types, added to a copy of the sources (a
/// function's argument, a public field, a method's return type, a trait member, an enum
/// variant, a type alias), are each reported; private fields and hidden members are not; a
/// re-export in a documented module clears its report.
#[test]
fn negative_control_a_hidden_type_in_a_documented_signature_is_reported() {
    let files = module_files();
    let before = hidden_in_signatures(&files);
    let mut added = files.clone();
    added.get_mut("gate").expect("src/gate.rs").push_str(
        "\npub fn injected_fn(c: &crate::report::plot::Dash) -> usize { 0 }\n\
         pub struct InjectedS { pub field: Vec<crate::report::plot::Marker>, private: crate::report::plot::Shape }\n\
         impl InjectedS { pub fn method(&self) -> Option<crate::report::plot::Shape> { None } \
         #[doc(hidden)] pub fn hidden(&self) -> crate::report::plot::Shape { todo!() } }\n\
         pub trait InjectedT { fn member(&self, r: crate::report::plot::Scale); }\n\
         pub enum InjectedE { A, B(crate::report::plot::Dash), C { run: crate::report::plot::Shape } }\n\
         pub type InjectedA = crate::report::plot::Scale;\n",
    );
    let after = hidden_in_signatures(&added);
    let new: Vec<&String> = after.iter().filter(|l| !before.contains(l)).collect();
    assert_eq!(
        new,
        vec![
            "gate::InjectedA: crate::report::plot::Scale (report::plot::figure::Scale)",
            "gate::InjectedE: crate::report::plot::Dash (report::plot::pen::Dash)",
            "gate::InjectedE: crate::report::plot::Shape (report::plot::figure::Shape)",
            "gate::InjectedS: crate::report::plot::Marker (report::plot::pen::Marker)",
            "gate::InjectedS::method: crate::report::plot::Shape (report::plot::figure::Shape)",
            "gate::InjectedT: crate::report::plot::Scale (report::plot::figure::Scale)",
            "gate::injected_fn: crate::report::plot::Dash (report::plot::pen::Dash)",
        ]
    );
    let mut reexported = added.clone();
    reexported
        .get_mut("gate")
        .expect("src/gate.rs")
        .push_str("\npub use crate::report::plot::Scale;\n");
    let after = hidden_in_signatures(&reexported);
    assert!(
        !after.iter().any(|l| l.contains("plot::Scale")),
        "{after:#?}"
    );
    assert!(after.iter().any(|l| l.contains("plot::Dash")));
}
