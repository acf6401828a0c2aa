//! Determinism through the binary (issue 9): the same command twice gives the same files byte
//! for byte, apart from the timing fields. Two comparisons per file: the JSON without its
//! timings ([`saddlefw::verify::without_timings`]) re-serialised, and the raw text line by line
//! on every line that holds no timing.
//! The verify pages (index.html) are compared without their time, date and command fields.
//! Negative controls (a different seed, another entry's page) show the comparisons can fail.

use saddlefw::verify::without_timings;
use std::path::Path;
use std::process::Command;

fn saddlefw(args: &[&str]) {
    let o = Command::new(env!("CARGO_BIN_EXE_saddlefw"))
        .args(args)
        .output()
        .expect("the binary runs");
    assert!(
        matches!(o.status.code(), Some(0) | Some(1)),
        "{args:?}: {}",
        String::from_utf8_lossy(&o.stderr)
    );
}

/// The file's bytes without timings: (canonical JSON without timing keys, the raw lines that
/// mention no timing).
fn normalised(path: &Path) -> (String, Vec<String>) {
    let text = std::fs::read_to_string(path).unwrap();
    let v: serde_json::Value = serde_json::from_str(&text).unwrap();
    let json = serde_json::to_string_pretty(&without_timings(&v)).unwrap();
    let lines = text
        .lines()
        .filter(|l| !l.contains("time"))
        .map(String::from)
        .collect();
    (json, lines)
}

#[track_caller]
fn assert_same(a: &Path, b: &Path) {
    let (ja, la) = normalised(a);
    let (jb, lb) = normalised(b);
    assert!(ja.len() > 100, "{} is nearly empty", a.display());
    assert_eq!(
        ja.as_bytes(),
        jb.as_bytes(),
        "{} vs {}",
        a.display(),
        b.display()
    );
    assert_eq!(la, lb, "{} vs {} (raw lines)", a.display(), b.display());
}

#[test]
fn verify_twice_gives_identical_reports_apart_from_timings() {
    let dir = tempfile::tempdir().unwrap();
    let out = |n: &str| dir.path().join(n).to_str().unwrap().to_string();
    // a few entries: both LMO-PO c-sc quantities and the LMO-LMO c-sc+sc primal one
    for (name, jobs) in [("a", "2"), ("b", "1")] {
        for cases in ["lmo-po/c-sc/", "lmo-lmo/c-sc+sc/primal"] {
            let o = out(&format!("{name}-{}", cases.replace('/', "_")));
            saddlefw(&[
                "verify", "--tier", "quick", "--cases", cases, "--jobs", jobs, "--out", &o,
                "--quiet",
            ]);
        }
    }
    for cases in ["lmo-po_c-sc_", "lmo-lmo_c-sc+sc_primal"] {
        let a = dir.path().join(format!("a-{cases}/verify.json"));
        let b = dir.path().join(format!("b-{cases}/verify.json"));
        assert_same(&a, &b);
        // the HTML page too, apart from its timings, date and command line
        let page = |n: &str| {
            let text = std::fs::read_to_string(dir.path().join(format!("{n}-{cases}/index.html")))
                .unwrap();
            (html_without_timings(&text), text.len())
        };
        let ((ha, la), (hb, _)) = (page("a"), page("b"));
        assert!(ha.len() < la, "the timings were found and removed");
        assert!(ha == hb, "{cases}: index.html differs apart from timings");
    }
    // negative control: pages of other entries differ
    let other = std::fs::read_to_string(dir.path().join("a-lmo-po_c-sc_/index.html")).unwrap();
    let this =
        std::fs::read_to_string(dir.path().join("a-lmo-lmo_c-sc+sc_primal/index.html")).unwrap();
    assert_ne!(html_without_timings(&other), html_without_timings(&this));
}

/// An HTML report without the values of its `time`, `date` and `command` fields (definition
/// lists `<dt>KEY</dt><dd>VALUE</dd>`) and without its date stamps (`2026-11-27 07:39 UTC`, also
/// in the page's subtitle): what two runs of the same command must share. (Before the stamps
/// were removed, two runs on either side of a minute boundary failed the comparison.)
fn html_without_timings(text: &str) -> String {
    without_date_stamps(&html_without_fields(text))
}

/// `text` with every `YYYY-MM-DD HH:MM UTC` replaced by `DATE`.
fn without_date_stamps(text: &str) -> String {
    const SHAPE: &[u8] = b"dddd-dd-dd dd:dd UTC";
    let fits = |w: &[u8]| {
        w.iter().zip(SHAPE).all(|(&c, &s)| {
            if s == b'd' {
                c.is_ascii_digit()
            } else {
                c == s
            }
        })
    };
    let (bytes, mut out, mut i) = (text.as_bytes(), Vec::with_capacity(text.len()), 0);
    while i < bytes.len() {
        if bytes.len() - i >= SHAPE.len() && fits(&bytes[i..i + SHAPE.len()]) {
            out.extend_from_slice(b"DATE");
            i += SHAPE.len();
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out).expect("only ASCII was replaced")
}

#[test]
fn date_stamps_are_removed_and_nothing_else() {
    let page = "<p class=\"sub\">1 entries &#183; 2026-11-27 07:39 UTC</p><b>2026-11-27 07:39</b>";
    assert_eq!(
        without_date_stamps(page),
        "<p class=\"sub\">1 entries &#183; DATE</p><b>2026-11-27 07:39</b>"
    );
    // two pages a minute apart compare equal; a page with another number in it does not
    let other_minute = page.replacen("07:39", "07:40", 1);
    assert_eq!(
        html_without_timings(page),
        html_without_timings(&other_minute)
    );
    assert_ne!(
        html_without_timings(page),
        html_without_timings(&page.replace("1 entries", "2 entries"))
    );
}

fn html_without_fields(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(i) = rest.find("<dt>") {
        out.push_str(&rest[..i + 4]);
        rest = &rest[i + 4..];
        for key in ["time</dt>", "date</dt>", "command</dt>"] {
            if let Some(after) = rest.strip_prefix(key) {
                out.push_str(key);
                let end = after.find("</dd>").map_or(after.len(), |e| e + 5);
                rest = &after[end..];
                break;
            }
        }
    }
    out.push_str(rest);
    out
}

#[test]
fn run_and_check_twice_give_identical_files_apart_from_timings() {
    let dir = tempfile::tempdir().unwrap();
    let p = |n: &str| dir.path().join(n);
    for name in ["a", "b"] {
        let run = p(&format!("{name}-RUN.json"));
        saddlefw(&[
            "run",
            "--problem",
            "cosine/nc-sc:dx=6,dy=3,seed=4",
            "--algo",
            "po-lmo",
            "--iters",
            "300",
            "--checkpoints",
            "all",
            "--out",
            run.to_str().unwrap(),
            "--quiet",
        ]);
        let check = p(&format!("{name}-CHECK.json"));
        saddlefw(&[
            "check",
            "--cases",
            "3",
            "--seed",
            "11",
            "--out",
            check.to_str().unwrap(),
            "--quiet",
        ]);
    }
    assert_same(&p("a-RUN.json"), &p("b-RUN.json"));
    assert_same(&p("a-CHECK.json"), &p("b-CHECK.json"));
    // negative control: another seed changes the normalised bytes
    let c = p("c-RUN.json");
    saddlefw(&[
        "run",
        "--problem",
        "cosine/nc-sc:dx=6,dy=3,seed=5",
        "--algo",
        "po-lmo",
        "--iters",
        "300",
        "--checkpoints",
        "all",
        "--out",
        c.to_str().unwrap(),
        "--quiet",
    ]);
    assert_ne!(normalised(&c).0, normalised(&p("a-RUN.json")).0);
}
