//! Every record knows its inputs (issue 35): no input is ever deleted or overwritten by an
//! output (journals, temporaries, `.partial` files, reports), journals and records carry the
//! fingerprint of what they were made from, and a mismatch or an edited line is refused with
//! one line and exit 2. Everything runs through the binary.

use std::path::{Path, PathBuf};

use crate::common::{saddlefw, Out};

/// Exit code 2, one stderr line `error: ...` containing every needle, no panic.
#[track_caller]
pub(crate) fn usage_error(o: &Out, needles: &[&str]) {
    assert!(!o.stderr.contains("panicked"), "{}", o.stderr);
    assert_eq!(o.code, 2, "stdout: {} stderr: {}", o.stdout, o.stderr);
    let lines: Vec<&str> = o.stderr.lines().collect();
    assert_eq!(lines.len(), 1, "expected one line, got {:?}", o.stderr);
    assert!(lines[0].starts_with("error: "), "{}", lines[0]);
    for n in needles {
        assert!(lines[0].contains(n), "{:?} does not mention {n:?}", lines[0]);
    }
}

/// A fresh scratch directory for test `name`.
pub(crate) fn scratch(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("saddlefw-records-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

pub(crate) fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

pub(crate) fn fixture(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(rel)
}

/// The three cases: an input named like the journal of the record being written is
/// refused before any work (exit 2, naming the input and the journal) and stays as it was.
#[test]
fn inputs_named_like_a_journal_are_refused_and_kept() {
    let d = scratch("journal-named");
    let journal = d.join("verify.json.journal");
    let cases: [(&str, Vec<String>, PathBuf); 3] = [
        (
            "baselines",
            vec!["verify".into(), "--baselines".into(), s(&journal).into()],
            fixture("fixtures/rate_baselines.json"),
        ),
        (
            "theorems",
            vec!["verify".into(), "--theorems".into(), s(&journal).into()],
            fixture("fixtures/user-theorems/sqrt-step.json"),
        ),
        (
            "data",
            vec![
                "experiment".into(),
                "news20".into(),
                "--data".into(),
                s(&d.join("experiment.json.journal")).into(),
                "--time-limit".into(),
                "0.2".into(),
            ],
            fixture("fixtures/libsvm/valid.txt"),
        ),
    ];
    for (what, args, content) in cases {
        let input = PathBuf::from(&args[args.len() - if what == "data" { 3 } else { 1 }]);
        std::fs::copy(&content, &input).unwrap();
        let before = std::fs::read(&input).unwrap();
        let mut all: Vec<&str> = args.iter().map(String::as_str).collect();
        all.extend(["--out", s(&d)]);
        let o = saddlefw(&all);
        usage_error(&o, &[s(&input), "refusing to overwrite an input", ".journal"]);
        assert_eq!(std::fs::read(&input).unwrap(), before, "{what}: the input changed");
        let left: Vec<_> = std::fs::read_dir(&d).unwrap().map(|e| e.unwrap().file_name()).collect();
        assert_eq!(left.len(), 1, "{what}: only the input remains: {left:?}");
        std::fs::remove_file(&input).unwrap();
    }
    // negative control: the same inputs under other names run
    let b = d.join("baselines.json");
    std::fs::copy(fixture("fixtures/rate_baselines.json"), &b).unwrap();
    let o = saddlefw(&[
        "-q", "verify", "--baselines", s(&b), "--cases", "no-such-entry", "--out", s(&d),
    ]);
    // past the output check: refused for the selection only
    usage_error(&o, &["--cases", "no-such-entry"]);
    std::fs::remove_dir_all(&d).unwrap();
}

/// A hard link or a symlink to an input under a journal's name is the input too.
#[test]
fn links_to_inputs_under_output_names_are_refused() {
    let d = scratch("links");
    let b = d.join("baselines.json");
    std::fs::copy(fixture("fixtures/rate_baselines.json"), &b).unwrap();
    let before = std::fs::read(&b).unwrap();
    let out = d.join("out");
    std::fs::create_dir_all(&out).unwrap();
    std::fs::hard_link(&b, out.join("verify.json.journal")).unwrap();
    let o = saddlefw(&["verify", "--baselines", s(&b), "--out", s(&out)]);
    usage_error(&o, &[s(&b), "verify.json.journal"]);
    std::fs::remove_file(out.join("verify.json.journal")).unwrap();
    #[cfg(unix)]
    {
        let link = d.join("link.json");
        std::os::unix::fs::symlink(&b, &link).unwrap();
        std::fs::create_dir_all(d.join("o2")).unwrap();
        std::os::unix::fs::symlink(&b, d.join("o2/verify.json.journal")).unwrap();
        let o = saddlefw(&["verify", "--baselines", s(&link), "--out", s(&d.join("o2"))]);
        usage_error(&o, &["refusing to overwrite an input"]);
    }
    assert_eq!(std::fs::read(&b).unwrap(), before);
    std::fs::remove_dir_all(&d).unwrap();
}
