//! Every record knows its inputs (issue 35): no input is ever deleted or overwritten by an
//! output (journals, temporaries, `.partial` files, reports), journals and records carry the
//! fingerprint of what they were made from, and a mismatch or an edited line is refused with
//! one line and exit 2. Everything runs through the binary.

use std::path::{Path, PathBuf};

use crate::common::{saddlefw, Out};
use crate::interrupt::{cmd, journal_jobs, journal_of, json, refused, without_timings};

/// Exit code 2, one stderr line `error: ...` containing every needle, no panic.
#[track_caller]
pub(crate) fn usage_error(o: &Out, needles: &[&str]) {
    assert!(!o.stderr.contains("panicked"), "{}", o.stderr);
    assert_eq!(o.code, 2, "stdout: {} stderr: {}", o.stdout, o.stderr);
    let lines: Vec<&str> = o.stderr.lines().collect();
    assert_eq!(lines.len(), 1, "expected one line, got {:?}", o.stderr);
    assert!(lines[0].starts_with("error: "), "{}", lines[0]);
    for n in needles {
        assert!(
            lines[0].contains(n),
            "{:?} does not mention {n:?}",
            lines[0]
        );
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
        usage_error(
            &o,
            &[s(&input), "refusing to overwrite an input", ".journal"],
        );
        assert_eq!(
            std::fs::read(&input).unwrap(),
            before,
            "{what}: the input changed"
        );
        let left: Vec<_> = std::fs::read_dir(&d)
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(left.len(), 1, "{what}: only the input remains: {left:?}");
        std::fs::remove_file(&input).unwrap();
    }
    // negative control: the same inputs under other names run
    let b = d.join("baselines.json");
    std::fs::copy(fixture("fixtures/rate_baselines.json"), &b).unwrap();
    let o = saddlefw(&[
        "-q",
        "verify",
        "--baselines",
        s(&b),
        "--cases",
        "no-such-entry",
        "--out",
        s(&d),
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

/// A copy of the built-in hard fixtures without those of `lmo-lmo/c-sc`: other fixtures for
/// the same entries (their gates run on fewer stored instances).
fn other_fixtures(dir: &Path) -> PathBuf {
    let other = dir.join("OTHER");
    std::fs::create_dir_all(&other).unwrap();
    for e in std::fs::read_dir(fixture("fixtures/hard")).unwrap() {
        let p = e.unwrap().path();
        let name = p.file_name().unwrap().to_str().unwrap().to_string();
        if !name.starts_with("lmo-lmo-c-sc-") {
            std::fs::copy(&p, other.join(name)).unwrap();
        }
    }
    other
}

const CASES: &str = "lmo-lmo/c-sc";

/// The "resume mixes fixtures": a journal made with the built-in hard fixtures is
/// refused by `--resume` with `--hard OTHER` (naming --hard), and kept; without `--hard` it
/// resumes (the control). Then an edited journal line, re-keyed from seed 0 to seed 1, is
/// refused with its line number and what to do, as is a line from another run's journal.
#[test]
fn resume_refuses_other_hard_fixtures_and_edited_journal_lines() {
    let d = scratch("resume-hard");
    let other = other_fixtures(&d);
    let hm = d.join("hm");
    let verify = cmd(&["verify", "--cases", CASES, "--jobs", "1", "-q"]);
    let journal = journal_of(&hm.join("verify.json"));
    let (code, _) = verify
        .out(&hm)
        .interrupt("-KILL", |_| journal_jobs(&journal) >= 3);
    assert_eq!(code, None, "killed");
    let bytes = std::fs::read(&journal).unwrap();
    let o = verify
        .with(&["--hard", s(&other)])
        .out(&hm)
        .resume(&hm)
        .run();
    refused(
        &o,
        &[
            "verify.json.journal",
            "recorded without --hard, this run has --hard",
        ],
    );
    assert_eq!(
        std::fs::read(&journal).unwrap(),
        bytes,
        "the journal is kept"
    );

    // re-key line 2 from its seed to another: refused with its line number
    let text = String::from_utf8(bytes.clone()).unwrap();
    let mut lines: Vec<String> = text.split('\n').map(String::from).collect();
    let (sum_fp, job) = lines[1].split_at(34);
    let mut v: serde_json::Value = serde_json::from_str(job).unwrap();
    let seed = &mut v["job"]["key"][2];
    *seed = serde_json::json!(seed.as_u64().unwrap() + 1);
    lines[1] = format!("{sum_fp}{v}");
    std::fs::write(&journal, lines.join("\n")).unwrap();
    let o = verify.out(&hm).resume(&hm).run();
    refused(
        &o,
        &[
            "verify.json.journal: line 2: checksum mismatch",
            "delete line 2",
            "without --resume",
        ],
    );
    // a line of another run (its own checksum holds, its fingerprint is another's)
    let foreign_fp = "0123456789abcdef";
    let rest = format!("{foreign_fp} {}", &text.split('\n').nth(1).unwrap()[34..]);
    lines[1] = format!("{} {rest}", short_hash(&rest));
    std::fs::write(&journal, lines.join("\n")).unwrap();
    let o = verify.out(&hm).resume(&hm).run();
    refused(&o, &["line 2: a job of another run", "delete line 2"]);

    // the control: the journal as written resumes, to the uninterrupted run's report
    std::fs::write(&journal, &bytes).unwrap();
    let o = verify.out(&hm).resume(&hm).run();
    assert!(o.code == 0 || o.code == 1, "{}", o.stderr);
    let whole = d.join("whole");
    verify.out(&whole).run();
    assert_eq!(
        without_timings(&json(&hm.join("verify.json"))),
        without_timings(&json(&whole.join("verify.json")))
    );
    std::fs::remove_dir_all(&d).unwrap();
}

/// The first 16 hex digits of SHA-256 (the journal's checksum), computed independently.
fn short_hash(text: &str) -> String {
    use sha2::Digest;
    sha2::Sha256::digest(text.as_bytes())[..8]
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// The "merge drops --hard": shards run with `--hard OTHER` merge to the report one
/// machine writes with `--hard OTHER` (which differs from the built-in fixtures' report: the
/// control), the merged record names its input, and a merge after OTHER changed is refused.
#[test]
fn merge_uses_the_shards_hard_fixtures_and_refuses_changed_ones() {
    let d = scratch("merge-hard");
    let other = other_fixtures(&d);
    let verify = cmd(&["verify", "--cases", CASES, "-q", "--hard", s(&other)]);
    let one = d.join("one");
    verify.out(&one).run();
    let builtin = d.join("builtin");
    cmd(&["verify", "--cases", CASES, "-q"]).out(&builtin).run();
    assert_ne!(
        without_timings(&json(&one.join("verify.json")))["entries"],
        without_timings(&json(&builtin.join("verify.json")))["entries"],
        "OTHER's fixtures give another report than the built-in ones"
    );
    for i in 1..=2 {
        let shard = format!("{i}/2");
        let o = verify
            .with(&["--shard", &shard])
            .out(&d.join(format!("s{i}")))
            .run();
        assert_eq!(o.code, 0, "{}", o.stderr);
    }
    let merged = d.join("merged");
    let (s1, s2) = (d.join("s1"), d.join("s2"));
    let o = saddlefw(&["merge", s(&s1), s(&s2), "--out", s(&merged)]);
    let one_json = json(&one.join("verify.json"));
    assert_eq!(
        o.code,
        if one_json["failed"] == true { 1 } else { 0 },
        "{}",
        o.stderr
    );
    let m = json(&merged.join("verify.json"));
    assert_eq!(without_timings(&m), without_timings(&one_json));
    assert_eq!(m["inputs"][0]["option"], "--hard");
    // OTHER changed since the shards ran: the merge is refused, naming --hard
    std::fs::remove_file(
        std::fs::read_dir(&other)
            .unwrap()
            .next()
            .unwrap()
            .unwrap()
            .path(),
    )
    .unwrap();
    let o = saddlefw(&["merge", s(&s1), s(&s2), "--out", s(&d.join("m2"))]);
    usage_error(&o, &["merge", "--hard", "other content"]);
    // shards of different inputs are not one run
    let o = saddlefw(&["merge", s(&s1), s(&builtin), "--out", s(&d.join("m3"))]);
    assert_eq!(o.code, 2, "{}", o.stderr);
    std::fs::remove_dir_all(&d).unwrap();
}

/// `--theorems` runs resume (the record names its theorem file), and `--resume DIR` without
/// `--theorems` on a `--theorems` record is refused and overwrites nothing.
#[test]
fn theorem_file_runs_resume_and_are_not_overwritten_by_the_builtin_table() {
    let d = scratch("theorems");
    let file = fixture("fixtures/user-theorems/sqrt-step.json");
    let verify = cmd(&["verify", "--theorems", s(&file), "--jobs", "1", "-q"]);
    let (t, whole) = (d.join("t"), d.join("whole"));
    assert_eq!(verify.out(&whole).run().code, 0);
    let journal = journal_of(&t.join("verify.json"));
    let (code, _) = verify
        .out(&t)
        .interrupt("-KILL", |_| journal_jobs(&journal) >= 1);
    assert_eq!(code, None, "killed");
    let bytes = std::fs::read(&journal).unwrap();
    let o = cmd(&["verify", "--jobs", "1", "-q"])
        .out(&t)
        .resume(&t)
        .run();
    refused(
        &o,
        &["recorded with --theorems", "this run has no --theorems"],
    );
    assert_eq!(std::fs::read(&journal).unwrap(), bytes);
    let o = verify.out(&t).resume(&t).run();
    assert_eq!(o.code, 0, "{}", o.stderr);
    assert_eq!(
        without_timings(&json(&t.join("verify.json"))),
        without_timings(&json(&whole.join("verify.json")))
    );
    // and the complete record: the built-in table is refused, the theorem file reuses it
    let before = std::fs::read(t.join("verify.json")).unwrap();
    let o = cmd(&["verify", "-q"]).out(&t).resume(&t).run();
    refused(&o, &["verify.json: --resume: recorded with --theorems"]);
    assert_eq!(std::fs::read(t.join("verify.json")).unwrap(), before);
    // `merge` of `--theorems` shards: the one-machine report (the merge rereads the file)
    let shards: Vec<PathBuf> = (1..=2).map(|i| d.join(format!("s{i}"))).collect();
    for (i, shard) in shards.iter().enumerate() {
        let o = verify
            .with(&["--shard", &format!("{}/2", i + 1)])
            .out(shard)
            .run();
        assert_eq!(o.code, 0, "{}", o.stderr);
    }
    let merged = d.join("merged");
    let o = saddlefw(&[
        "merge",
        s(&shards[0]),
        s(&shards[1]),
        "-q",
        "--out",
        s(&merged),
    ]);
    assert_eq!(o.code, 0, "{}", o.stderr);
    assert_eq!(
        without_timings(&json(&merged.join("verify.json"))),
        without_timings(&json(&whole.join("verify.json")))
    );
    std::fs::remove_dir_all(&d).unwrap();
}

/// The 50,000-term envelope (`... + 0*T + 0*T ...`, about 250 KB) through the binary:
/// no stack overflow, the theorem file verifies; a formula over the size limit is one error
/// line, exit 2.
#[test]
fn long_envelope_chains_verify_and_oversized_ones_are_refused() {
    let d = scratch("long-envelope");
    let text = std::fs::read_to_string(fixture("fixtures/user-theorems/sqrt-step.json")).unwrap();
    let tail = " + 0*T".repeat(50_000);
    let long = text.replacen("(T+1)^(-1/4)\"", &format!("(T+1)^(-1/4){tail}\""), 1);
    assert_ne!(long, text);
    let file = d.join("long.json");
    std::fs::write(&file, &long).unwrap();
    let o = saddlefw(&[
        "-q",
        "verify",
        "--theorems",
        s(&file),
        "--cases",
        "primal",
        "--out",
        s(&d.join("v")),
    ]);
    assert_eq!(o.code, 0, "{}", o.stderr);
    let huge = text.replacen(
        "(T+1)^(-1/4)\"",
        &format!("(T+1)^(-1/4){}\"", " + T".repeat(300_000)),
        1,
    );
    std::fs::write(&file, huge).unwrap();
    let o = saddlefw(&[
        "-q",
        "verify",
        "--theorems",
        s(&file),
        "--out",
        s(&d.join("w")),
    ]);
    usage_error(&o, &["long.json", "envelope", "at most 1048576"]);
    std::fs::remove_dir_all(&d).unwrap();
}

/// A 1 MB number in an envelope formula is named by its start, end and length, not echoed
/// whole (issue 35, item 7).
#[test]
fn a_huge_number_is_not_echoed_whole() {
    let d = scratch("huge-number");
    let text = std::fs::read_to_string(fixture("fixtures/user-theorems/sqrt-step.json")).unwrap();
    let num = "9".repeat(1_000_000) + "e9999";
    let bad = text.replacen("(T+1)^(-1/4)\"", &format!("(T+1)^(-1/4) + {num}\""), 1);
    let file = d.join("num.json");
    std::fs::write(&file, bad).unwrap();
    let o = saddlefw(&[
        "-q",
        "verify",
        "--theorems",
        s(&file),
        "--out",
        s(&d.join("v")),
    ]);
    usage_error(&o, &["num.json", "bad number", "(1000005 characters)"]);
    assert!(o.stderr.len() < 400, "{} bytes", o.stderr.len());
    std::fs::remove_dir_all(&d).unwrap();
}

/// A file-size limit (`ulimit -f 20`: 20 KiB) makes verify's report write fail: one line
/// `error: FILE: write: ...`, exit 2 (not SIGXFSZ's exit 153), no temporary left behind.
#[cfg(unix)]
#[test]
fn a_file_size_limit_is_an_error_line_and_leaves_no_temporary() {
    let d = scratch("ulimit");
    let out = d.join("v");
    let o = std::process::Command::new("sh")
        .arg("-c")
        .arg(format!(
            "ulimit -f 20 && exec '{}' -q verify --cases lmo-lmo/c-sc/primal --out '{}'",
            env!("CARGO_BIN_EXE_saddlefw"),
            s(&out)
        ))
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{stderr}");
    let last = stderr.lines().last().unwrap();
    assert!(
        last.starts_with("error: ") && last.contains("verify.json: write: File too large"),
        "{stderr}"
    );
    let tmp = std::fs::read_dir(&out)
        .unwrap()
        .filter(|e| {
            e.as_ref()
                .unwrap()
                .file_name()
                .to_string_lossy()
                .ends_with(".tmp")
        })
        .count();
    assert_eq!(tmp, 0, "a temporary was left");
    // export with --write-iterates: the same line, no temporary anywhere under --out
    let exp = d.join("e");
    let o = std::process::Command::new("sh")
        .arg("-c")
        .arg(format!(
            "ulimit -f 100 && exec '{}' -q export --cases lmo-lmo/c-sc/primal --no-hard --write-iterates --out '{}'",
            env!("CARGO_BIN_EXE_saddlefw"),
            s(&exp)
        ))
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{stderr}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(stderr.starts_with("error: ") && stderr.contains(": write: File too large"));
    let mut dirs = vec![exp];
    while let Some(dir) = dirs.pop() {
        for e in std::fs::read_dir(dir).unwrap() {
            let p = e.unwrap().path();
            assert!(!p.to_string_lossy().ends_with(".tmp"), "left {p:?}");
            if p.is_dir() {
                dirs.push(p);
            }
        }
    }
    std::fs::remove_dir_all(&d).unwrap();
}

/// The theorem file of the example with `edit` applied to its JSON text, written to `path`.
fn edited_theorems(path: &Path, edit: impl Fn(&str) -> String) -> PathBuf {
    let text = std::fs::read_to_string(fixture("fixtures/user-theorems/sqrt-step.json")).unwrap();
    let edited = edit(&text);
    assert_ne!(edited, text, "the edit applies");
    std::fs::write(path, edited).unwrap();
    path.to_path_buf()
}

/// The unclear messages (item 7), each now one line `error: INPUT: LOCATION: REASON`
/// with exit 2, through the binary: export's `--out` naming a file, a manifest given where
/// its directory is expected, `t: 0.0` in an iterate file, a manifest whose cases were edited,
/// a schedule typo and `T_min` above the horizon in a theorem file, and refused corrupt
/// journals (which say the way on). The controls: the export and the example theorem file
/// as written are accepted.
#[test]
fn unclear_messages_are_one_clear_line() {
    let d = scratch("messages");
    let export = |out: &Path| {
        saddlefw(&[
            "export",
            "--cases",
            "lmo-lmo/c-sc+sc/",
            "--no-hard",
            "-q",
            "--out",
            s(out),
        ])
    };
    let file = d.join("afile");
    std::fs::write(&file, "kept").unwrap();
    usage_error(
        &export(&file),
        &["afile: --out: ", "afile is a file, not a directory"],
    );
    assert_eq!(std::fs::read_to_string(&file).unwrap(), "kept");
    let exp = d.join("exp");
    assert_eq!(export(&exp).code, 0, "the control");
    // verify-iterates' --out naming a file
    usage_error(
        &saddlefw(&["verify-iterates", s(&exp), "-q", "--out", s(&file)]),
        &["afile: --out: ", "afile is a file, not a directory"],
    );
    assert_eq!(std::fs::read_to_string(&file).unwrap(), "kept");
    let out = d.join("o");
    let verify_iterates =
        |dir: &Path| saddlefw(&["verify-iterates", s(dir), "-q", "--out", s(&out)]);
    usage_error(
        &verify_iterates(&exp.join("manifest.json")),
        &[
            "manifest.json: DIR: a file, not a directory",
            "give the export directory",
        ],
    );
    // an index written as a float (serde said "expected u64")
    let manifest = json(&exp.join("manifest.json"));
    let iterates = exp.join(manifest["jobs"][0]["iterates"].as_str().unwrap());
    std::fs::write(&iterates, "{\"t\": 0.0, \"x\": [], \"y\": []}\n").unwrap();
    usage_error(
        &verify_iterates(&exp),
        &[
            "iterates.jsonl: line 1: t: ",
            "expected a whole number",
            "without a decimal point",
        ],
    );
    // the manifest's cases edited (blamed on a version before)
    let mut edited = manifest.clone();
    edited["cases"] = "lmo-lmo/c-sc".into();
    std::fs::write(exp.join("manifest.json"), edited.to_string()).unwrap();
    usage_error(
        &verify_iterates(&exp),
        &[
            "manifest.json: jobs[",
            "the manifest was edited",
            "export again",
        ],
    );
    // the cases narrowed to one entry of the same jobs (accepted, judging fewer entries, before)
    let mut narrowed = manifest.clone();
    narrowed["cases"] = "lmo-lmo/c-sc+sc/p".into();
    std::fs::write(exp.join("manifest.json"), narrowed.to_string()).unwrap();
    usage_error(
        &verify_iterates(&exp),
        &["manifest.json: jobs[0]", "the manifest was edited"],
    );
    // theorem files: a schedule typo (serde said "untagged enum ScheduleSpec"), T_min at or
    // above the horizon (a failed run, exit 1, before)
    let verify = |theorems: &Path| {
        saddlefw(&[
            "verify",
            "--theorems",
            s(theorems),
            "-q",
            "--out",
            s(&d.join("v")),
        ])
    };
    let typo = edited_theorems(&d.join("typo.json"), |t| {
        t.replacen("\"b\": 0", "\"bb\": 0", 1)
    });
    usage_error(
        &verify(&typo),
        &["field schedule", "unknown field `bb`", "a schedule is"],
    );
    let late = edited_theorems(&d.join("late.json"), |t| {
        t.replacen("\"p\": \"1/4\",", "\"p\": \"1/4\", \"T_min\": 500000,", 1)
    });
    usage_error(
        &verify(&late),
        &[
            "late.json: entry ",
            "T_min: 500000 is not below the horizon T_max = 16384",
        ],
    );
    // corrupt journals say what to do
    let cj = d.join("cj");
    std::fs::create_dir_all(&cj).unwrap();
    for text in ["", "garbage\n", "{\"format\": \"saddlefw-journal\"}\n"] {
        std::fs::write(cj.join("CHECK.json.journal"), text).unwrap();
        let o = saddlefw(&["check", "--cases", "3", "--out", s(&cj), "--resume", s(&cj)]);
        usage_error(&o, &["CHECK.json.journal: line 1: ", "delete the journal"]);
    }
    std::fs::remove_dir_all(&d).unwrap();
}

/// The iterates files under `dir/jobs` by path relative to `dir`, with their bytes.
fn iterates_files(dir: &Path) -> std::collections::BTreeMap<String, Vec<u8>> {
    let mut files = std::collections::BTreeMap::new();
    for job in std::fs::read_dir(dir.join("jobs")).unwrap() {
        for f in std::fs::read_dir(job.unwrap().path()).unwrap() {
            let p = f.unwrap().path();
            let name = p.strip_prefix(dir).unwrap().to_string_lossy().into_owned();
            if p.file_name().unwrap() == "iterates.jsonl" {
                files.insert(name, std::fs::read(&p).unwrap());
            }
        }
    }
    files
}

/// The "`export --write-iterates` stopped by SIGINT" on the one ledger: SIGINT stops
/// it after the file in flight with a line saying how to finish it (exit 130, no file cut, the
/// journal kept), SIGTERM and SIGKILL stop the resumed runs, and `--resume` ends with the
/// files of an uninterrupted export, a file edited since it was journaled written again. The
/// controls: other work, or another directory than `--out`, is refused and keeps the journal.
#[test]
fn export_write_iterates_stopped_by_each_signal_resumes_to_the_uninterrupted_files() {
    let d = scratch("export-resume");
    let export = cmd(&[
        "export",
        "--cases",
        "lmo-lmo/c-sc/",
        "--no-hard",
        "--write-iterates",
        "-q",
    ]);
    let whole = d.join("whole");
    assert_eq!(export.out(&whole).run().code, 0);
    let want = iterates_files(&whole);
    assert_eq!(want.len(), 8);
    let part = d.join("part");
    let journal = journal_of(&part.join("manifest.json"));
    let mut done = 0;
    for (k, signal) in ["-INT", "-TERM", "-KILL"].iter().enumerate() {
        let run = match k {
            0 => export.out(&part),
            _ => export.out(&part).resume(&part),
        };
        let (code, err) = run.interrupt(signal, |_| journal_jobs(&journal) > done);
        let have = iterates_files(&part);
        assert!(have.len() < want.len(), "{signal}: stopped early");
        for (name, bytes) in &have {
            assert_eq!(Some(bytes), want.get(name), "{signal}: {name} complete");
        }
        if *signal == "-KILL" {
            assert_eq!(code, None, "{err}");
        } else {
            assert_eq!(code, Some(if k == 0 { 130 } else { 143 }), "{err}");
            let last = err.lines().last().unwrap();
            assert!(last.contains("iterates files") && last.contains("finish it with --resume"));
        }
        done = journal_jobs(&journal);
    }
    let bytes = std::fs::read(&journal).unwrap();
    // the controls: other cases, another directory
    let o = cmd(&[
        "export",
        "--cases",
        "lmo-lmo/c-sc/p",
        "--no-hard",
        "--write-iterates",
    ])
    .out(&part)
    .resume(&part)
    .run();
    refused(&o, &["manifest.json.journal", "recorded with --cases"]);
    let o = export.out(&d.join("elsewhere")).resume(&part).run();
    refused(&o, &["--resume", "is not --out"]);
    assert_eq!(
        std::fs::read(&journal).unwrap(),
        bytes,
        "the journal is kept"
    );
    // a journaled file edited since is written again
    let (name, _) = iterates_files(&part).into_iter().next().unwrap();
    std::fs::write(part.join(&name), "{\"t\": 0}\n").unwrap();
    let o = export.out(&part).resume(&part).run();
    assert_eq!(o.code, 0, "{}", o.stderr);
    assert!(!journal.exists(), "the journal is removed");
    assert_eq!(iterates_files(&part), want);
    assert_eq!(
        std::fs::read(part.join("manifest.json")).unwrap(),
        std::fs::read(whole.join("manifest.json")).unwrap()
    );
    std::fs::remove_dir_all(&d).unwrap();
}
