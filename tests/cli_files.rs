//! The binary's files (issue 19, item 4): an interrupting signal leaves no temporary file, an
//! output never replaces an input, `--jobs` is capped, and file errors (a byte-order mark, the
//! wrong top-level JSON type, a directory where a file is written, operating-system errors)
//! are one line `error: INPUT: LOCATION: REASON`. Everything runs through the binary, except
//! the parser-level checks that every JSON reader shares the front door (`files::json_body`).

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::common::{saddlefw, Out};

/// Exit code 2, one stderr line `error: ...` containing every needle, no panic.
#[track_caller]
fn usage_error(o: &Out, needles: &[&str]) {
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

#[track_caller]
fn ok(o: &Out) {
    assert_eq!(o.code, 0, "stdout: {} stderr: {}", o.stdout, o.stderr);
}

const VALID: &str = r#"{"format": "saddlefw-quadratic-v1",
 "A": [[1, 0], [0, 1]], "B": [[1, 0], [0, 1]], "C": [[0.5, 0], [0, 0.5]],
 "a": [0, 0], "c": [0.5, -0.5],
 "x_set": {"kind": "l1_ball", "radius": 1}, "y_set": {"kind": "simplex"},
 "x0": [0, 0], "y0": [1, 0]}"#;

const BOM: &str = "\u{feff}";

fn write(path: &Path, bytes: &[u8]) -> String {
    if let Some(d) = path.parent() {
        std::fs::create_dir_all(d).unwrap();
    }
    std::fs::write(path, bytes).unwrap();
    path.to_str().unwrap().to_string()
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

fn run(problem: &str, out: &str) -> Out {
    saddlefw(&[
        "run",
        "--problem",
        problem,
        "--algo",
        "lmo-lmo",
        "--iters",
        "8",
        "--out",
        out,
        "-q",
    ])
}

/// Runs `check --cases 3 --shard I/3` for I = 1..3 into `dir/shI`; returns the directories.
fn check_shards(dir: &Path) -> Vec<PathBuf> {
    (1..=3)
        .map(|i| {
            let d = dir.join(format!("sh{i}"));
            let shard = format!("{i}/3");
            ok(&saddlefw(&[
                "check",
                "--cases",
                "3",
                "--shard",
                &shard,
                "--out",
                s(&d),
                "-q",
            ]));
            d
        })
        .collect()
}

// ---------------------------------------------------------------------------------------------
// 1. Signals during a write

/// The temporary files (`.NAME.PID.N.tmp`) in `dir`.
fn temp_files(dir: &Path) -> Vec<PathBuf> {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.to_string_lossy().ends_with(".tmp"))
        .collect()
}

/// What happened when `signal` was sent while RUN.json was being written.
struct Interrupted {
    /// The exit code (None: killed by the signal).
    code: Option<i32>,
    stderr: String,
    /// Temporary files left in the directory.
    left: Vec<PathBuf>,
}

/// Starts a run whose RUN.json is large (`iters` iterations, every one a checkpoint), waits
/// for its temporary file to appear, sends `signals`, and reports what is left. `None` when
/// the signal came too late (RUN.json was renamed into place first): the caller retries with
/// a larger file.
fn interrupt_write(dir: &Path, signals: &[&str], iters: u64) -> Option<Interrupted> {
    let out = dir.join("RUN.json");
    let iters = iters.to_string();
    let child = Command::new(env!("CARGO_BIN_EXE_saddlefw"))
        .args([
            "run",
            "--problem",
            "quadratic/nc-c:dx=2,dy=2",
            "--algo",
            "lmo-lmo",
        ])
        .args([
            "--iters",
            &iters,
            "--checkpoints",
            "all",
            "-q",
            "--out",
            s(&out),
        ])
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let start = Instant::now();
    let mut seen = false;
    while start.elapsed() < Duration::from_secs(120) {
        if !temp_files(dir).is_empty() {
            seen = true;
            break;
        }
        if out.exists() {
            break;
        }
        std::thread::sleep(Duration::from_millis(1));
    }
    if seen {
        // a first SIGINT/SIGTERM lets the write complete (tests/interrupt.rs): a second,
        // different one (identical pending signals would merge into one) ends the process at
        // once, with the second signal's exit code
        for sig in signals {
            let status = Command::new("kill")
                .args([*sig, &child.id().to_string()])
                .status()
                .unwrap();
            assert!(status.success());
        }
    }
    let o = child.wait_with_output().unwrap();
    if !seen || out.exists() {
        // written before the signal arrived: too fast for this size
        let _ = std::fs::remove_file(&out);
        for t in temp_files(dir) {
            std::fs::remove_file(t).unwrap();
        }
        return None;
    }
    Some(Interrupted {
        code: o.status.code(),
        stderr: String::from_utf8_lossy(&o.stderr).into_owned(),
        left: temp_files(dir),
    })
}

/// [`interrupt_write`] with a file of about 30 MB, doubled (up to three times) until the signal
/// lands while the temporary file exists.
fn interrupt_during_write(dir: &Path, signals: &[&str]) -> Interrupted {
    let mut iters = 100_000;
    for _ in 0..4 {
        if let Some(r) = interrupt_write(dir, signals, iters) {
            return r;
        }
        iters *= 2;
    }
    panic!("{signals:?}: never caught RUN.json while it was being written");
}

#[test]
fn a_signal_during_a_write_leaves_no_temporary_file() {
    let dir = tempfile::tempdir().unwrap();
    for signal in [["-TERM", "-INT"], ["-INT", "-HUP"]] {
        let r = interrupt_during_write(dir.path(), &signal);
        assert!(!r.stderr.contains("panicked"), "{}", r.stderr);
        // 128 + the signal handled second (pending signals are taken in the order of their
        // numbers, not of their sending)
        let codes = [129, 130, 143].map(Some);
        assert!(
            codes.contains(&r.code),
            "{signal:?}: {:?} {}",
            r.code,
            r.stderr
        );
        assert!(r.left.is_empty(), "{signal:?} left {:?}", r.left);
        assert!(!dir.path().join("RUN.json").exists());
    }
    // the negative control: SIGKILL cannot be handled, and the same check sees its leftover
    let r = interrupt_during_write(dir.path(), &["-KILL"]);
    assert_eq!(r.code, None);
    assert_eq!(r.left.len(), 1, "{:?}", r.left);
    // a signal before anything is written: see tests/interrupt.rs (the run stops at the next
    // iteration and RUN.json records it as interrupted)
}

// ---------------------------------------------------------------------------------------------
// 2. An output never replaces an input

/// `o` is the refusal naming `input`, and `input` still holds `bytes`.
#[track_caller]
fn refused(o: &Out, input: &Path, bytes: &[u8]) {
    usage_error(
        o,
        &[
            s(input),
            "--out",
            "the output is this input file: refusing to overwrite an input",
        ],
    );
    assert_eq!(std::fs::read(input).unwrap(), bytes, "{} changed", s(input));
}

#[test]
fn an_output_that_is_an_input_is_refused_before_any_work() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    // run: the problem file, by its name, through a symlink, a hard link and `..`
    let p = d.join("p.json");
    write(&p, VALID.as_bytes());
    refused(&run(s(&p), s(&p)), &p, VALID.as_bytes());
    std::os::unix::fs::symlink(&p, d.join("link.json")).unwrap();
    refused(&run(s(&p), s(&d.join("link.json"))), &p, VALID.as_bytes());
    std::fs::hard_link(&p, d.join("hard.json")).unwrap();
    refused(&run(s(&p), s(&d.join("hard.json"))), &p, VALID.as_bytes());
    let dotdot = d.join("missing-dir/../p.json");
    refused(&run(s(&p), s(&dotdot)), &p, VALID.as_bytes());
    assert!(!d.join("missing-dir").exists(), "refused before any work");
    // the control: another output is written
    ok(&run(s(&p), s(&d.join("RUN.json"))));

    // report: a RUN.json input
    let runs = d.join("RUN.json");
    let bytes = std::fs::read(&runs).unwrap();
    refused(
        &saddlefw(&["report", s(&runs), "--out", s(&runs)]),
        &runs,
        &bytes,
    );
    ok(&saddlefw(&[
        "report",
        s(&runs),
        "--out",
        s(&d.join("runs.html")),
    ]));

    // merge: --out a shard's directory (the merged CHECK.json would land on shard 1's), or
    // the shard file itself
    let shards = check_shards(d);
    let first = shards[0].join("CHECK.json");
    let bytes = std::fs::read(&first).unwrap();
    let merge = |out: &Path| {
        saddlefw(&[
            "merge",
            s(&shards[0]),
            s(&shards[1]),
            s(&shards[2]),
            "--out",
            s(out),
        ])
    };
    let o = merge(&shards[0]);
    refused(&o, &first, &bytes);
    assert!(o.stderr.contains("(writes "), "{}", o.stderr);
    refused(&merge(&first), &first, &bytes);
    ok(&merge(&d.join("merged")));

    // experiment: the data file (named like an output, in the output directory)
    let data = d.join("exp/index.html");
    write(&data, b"1 1:0.5\n-1 2:0.25\n");
    refused(
        &saddlefw(&[
            "experiment",
            "news20",
            "--data",
            s(&data),
            "--out",
            s(&d.join("exp")),
            "--time-limit",
            "0.1",
        ]),
        &data,
        b"1 1:0.5\n-1 2:0.25\n",
    );

    // verify: the --baselines file (refused before it is even parsed)
    let b = d.join("v/verify.json");
    write(&b, b"{}");
    refused(
        &saddlefw(&["verify", "--baselines", s(&b), "--out", s(&d.join("v"))]),
        &b,
        b"{}",
    );

    // tighten: a file of the fixture directory it reads
    let fx = d.join("fx/tighten.json");
    write(&fx, b"{}");
    let fxd = d.join("fx");
    refused(
        &saddlefw(&["tighten", "--fixtures", s(&fxd), "--out", s(&fxd)]),
        &fx,
        b"{}",
    );
}

// ---------------------------------------------------------------------------------------------
// 3. --jobs

/// verify.json without its timing fields (keys containing `time`).
fn without_timings(v: &mut serde_json::Value) {
    match v {
        serde_json::Value::Object(m) => {
            m.retain(|k, _| !k.contains("time"));
            m.values_mut().for_each(without_timings);
        }
        serde_json::Value::Array(a) => a.iter_mut().for_each(without_timings),
        _ => {}
    }
}

#[test]
fn a_huge_jobs_count_gives_the_result_of_two_jobs() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let verify = |jobs: &str| {
        let out = d.join(format!("verify-{jobs}"));
        ok(&saddlefw(&[
            "verify",
            "--cases",
            "lmo-po/c-sc/dual",
            "--jobs",
            jobs,
            "--out",
            s(&out),
            "-q",
        ]));
        let mut v: serde_json::Value =
            serde_json::from_slice(&std::fs::read(out.join("verify.json")).unwrap()).unwrap();
        without_timings(&mut v);
        v
    };
    assert_eq!(verify("10000"), verify("2"));
    // check reports have no timings: byte-identical
    let check = |jobs: &str| {
        let out = d.join(format!("check-{jobs}.json"));
        ok(&saddlefw(&[
            "check",
            "--cases",
            "4",
            "--jobs",
            jobs,
            "--out",
            s(&out),
            "-q",
        ]));
        std::fs::read(out).unwrap()
    };
    assert_eq!(check("10000"), check("2"));
    // the help says how --jobs is capped
    for cmd in ["verify", "check", "tighten"] {
        let o = saddlefw(&[cmd, "--help"]);
        assert!(o.stdout.contains("4 per core"), "{cmd}: {}", o.stdout);
    }
}

// ---------------------------------------------------------------------------------------------
// 4. Messages

#[test]
fn json_inputs_may_start_with_a_byte_order_mark() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    // a problem file
    let p = write(&d.join("bom.json"), format!("{BOM}{VALID}").as_bytes());
    let runs = d.join("RUN.json");
    ok(&run(&p, s(&runs)));
    // a RUN.json (report)
    let text = std::fs::read_to_string(&runs).unwrap();
    let bom_run = write(&d.join("bom-RUN.json"), format!("{BOM}{text}").as_bytes());
    ok(&saddlefw(&[
        "report",
        &bom_run,
        "--out",
        s(&d.join("r.html")),
    ]));
    // CHECK.json shards (merge)
    let shards = check_shards(d);
    let first = shards[0].join("CHECK.json");
    let text = std::fs::read_to_string(&first).unwrap();
    write(&first, format!("{BOM}{text}").as_bytes());
    ok(&saddlefw(&[
        "merge",
        s(&shards[0]),
        s(&shards[1]),
        s(&shards[2]),
        "--out",
        s(&d.join("m")),
        "-q",
    ]));
    // rate baselines: parsed before the filter is checked, so the filter's error shows that
    // the file was read (the control: a broken file is reported instead)
    let b = write(&d.join("b.json"), format!("{BOM}{{}}").as_bytes());
    let o = saddlefw(&["verify", "--baselines", &b, "--cases", "no-such-entry"]);
    usage_error(&o, &["--cases", "no theorem entry"]);
    let broken = write(&d.join("broken.json"), format!("{BOM}{{x}}").as_bytes());
    let o = saddlefw(&["verify", "--baselines", &broken, "--cases", "no-such-entry"]);
    usage_error(&o, &["broken.json", "line 1"]);
}

#[test]
fn a_top_level_of_the_wrong_type_is_named() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let out = d.join("RUN.json");
    let arr = write(&d.join("arr.json"), b"[1, 2]");
    usage_error(
        &run(&arr, s(&out)),
        &[
            "arr.json",
            "top level",
            "expected a JSON object, found an array",
        ],
    );
    let string = write(&d.join("str.json"), b" \"x\"");
    usage_error(
        &run(&string, s(&out)),
        &[
            "str.json",
            "top level",
            "expected a JSON object, found a string",
        ],
    );
    let empty = write(&d.join("empty.json"), format!("{BOM} \n").as_bytes());
    usage_error(
        &run(&empty, s(&out)),
        &["empty.json", "top level", "the file is empty"],
    );
    // RUN.json (report) and baselines (verify)
    usage_error(
        &saddlefw(&["report", &arr, "--out", s(&d.join("r.html"))]),
        &[
            "arr.json",
            "top level",
            "expected a JSON object, found an array",
        ],
    );
    usage_error(
        &saddlefw(&["verify", "--baselines", &arr, "--out", s(&d.join("v"))]),
        &[
            "arr.json",
            "top level",
            "expected a JSON object, found an array",
        ],
    );
    // not UTF-8 (a UTF-16 file)
    let utf16 = write(&d.join("utf16.json"), b"\xff\xfe{\x00}\x00");
    usage_error(
        &run(&utf16, s(&out)),
        &["utf16.json", "byte 0", "not UTF-8"],
    );
}

/// Every JSON reader goes through the same front door: a byte-order mark is skipped and the
/// wrong top-level type is named, in each parser a user's file reaches.
#[test]
fn every_json_parser_shares_the_byte_order_mark_and_top_level_rules() {
    use saddlefw::Error;
    let top_level = |r: Result<(), Error>, input: &str| {
        let e = r.unwrap_err().to_string();
        assert!(
            e.starts_with(&format!("{input}: top level: expected a JSON ")),
            "{e}"
        );
    };
    let table = include_str!("../fixtures/theorems.json");
    let baselines = include_str!("../fixtures/rate_baselines.json");
    let hard_dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/hard");
    let hard_path = std::fs::read_dir(&hard_dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.extension().is_some_and(|x| x == "json"))
        .unwrap();
    let hard = std::fs::read_to_string(hard_path).unwrap();
    let problem = VALID;
    let parsers: Vec<(&str, &str, Box<dyn Fn(&str) -> Result<(), Error>>)> = vec![
        (
            "table",
            table,
            Box::new(|t| saddlefw::theorems::parse_table("t", t).map(drop)),
        ),
        (
            "baselines",
            baselines,
            Box::new(|t| saddlefw::fit::parse_baselines("t", t).map(drop)),
        ),
        (
            "fixture",
            &hard,
            Box::new(|t| saddlefw::tightness::HardFixture::parse("t", t).map(drop)),
        ),
        (
            "problem",
            problem,
            Box::new(|t| saddlefw::problems::quadratic::QuadraticFile::parse(t, "t").map(drop)),
        ),
    ];
    for (name, valid, parse) in &parsers {
        parse(valid).unwrap_or_else(|e| panic!("{name}: {e}"));
        parse(&format!("{BOM}{valid}")).unwrap_or_else(|e| panic!("{name} with a BOM: {e}"));
        let wrong = if valid.trim_start().starts_with('[') {
            "{}"
        } else {
            "[]"
        };
        top_level(parse(wrong), "t");
    }
    // the readers of files saddlefw wrote (the seeds come from the binary)
    top_level(saddlefw::trace::Trace::from_json("[]", "t").map(drop), "t");
    top_level(
        saddlefw::verify::VerifyReport::parse("t", "[]").map(drop),
        "t",
    );
    top_level(
        saddlefw::experiments::record::ExperimentRecord::parse("t", "[]").map(drop),
        "t",
    );
    top_level(
        saddlefw::invariants::check::merge_shards(&[("t".into(), "[]".into())]).map(drop),
        "t",
    );
}

#[test]
fn an_output_file_that_names_a_directory_is_refused_and_missing_parents_are_created() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let p = write(&d.join("p.json"), VALID.as_bytes());
    let slash = format!("{}/", s(&d.join("newdir")));
    usage_error(
        &run(&p, &slash),
        &["newdir/", "--out", "names a directory", "add a file name"],
    );
    std::fs::create_dir(d.join("existing")).unwrap();
    usage_error(
        &run(&p, s(&d.join("existing"))),
        &["existing", "--out", "names a directory"],
    );
    usage_error(
        &saddlefw(&["report", &p, "--out", &slash]),
        &["newdir/", "--out", "names a directory"],
    );
    // missing parents of a file are created (README: every file is written atomically, the
    // directory created when missing)
    let deep = d.join("a/b/c/RUN.json");
    ok(&run(&p, s(&deep)));
    assert!(deep.is_file());
    // and a directory option with a trailing slash is a directory
    ok(&saddlefw(&[
        "check",
        "--cases",
        "1",
        "--out",
        &format!("{}/", s(&d.join("chk"))),
        "-q",
    ]));
    assert!(d.join("chk/CHECK.json").is_file());
}

#[test]
fn operating_system_errors_name_the_path_and_the_operation() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let p = write(&d.join("p.json"), VALID.as_bytes());
    // read: a missing file, a directory
    let missing = d.join("missing.json");
    usage_error(
        &run(s(&missing), s(&d.join("RUN.json"))),
        &["missing.json: read: No such file or directory (os error 2)"],
    );
    std::fs::create_dir(d.join("dir.json")).unwrap();
    usage_error(
        &run(s(&d.join("dir.json")), s(&d.join("RUN.json"))),
        &["dir.json: read: Is a directory (os error 21)"],
    );
    // create directory: a parent that is a file (caught before the system's "Not a directory")
    let under_file = d.join("p.json/RUN.json");
    usage_error(
        &run(&p, s(&under_file)),
        &[
            "p.json: output directory: ",
            "p.json is a file, not a directory",
        ],
    );
    // write: a directory without write permission (skipped as root, which may write anyway)
    use std::os::unix::fs::PermissionsExt;
    let ro = d.join("ro");
    std::fs::create_dir(&ro).unwrap();
    std::fs::set_permissions(&ro, std::fs::Permissions::from_mode(0o555)).unwrap();
    if std::fs::write(ro.join("probe"), b"").is_err() {
        usage_error(
            &run(&p, s(&ro.join("RUN.json"))),
            &["RUN.json: write: Permission denied (os error 13)"],
        );
    }
    std::fs::set_permissions(&ro, std::fs::Permissions::from_mode(0o755)).unwrap();
}
