//! Long work survives SIGKILL (issue 17): `verify`, `check`, `experiment` and `tighten` append
//! every finished job to a journal beside their record (`RECORD.journal`), so a killed run
//! keeps them and `--resume DIR` finishes it with the same final files as an uninterrupted run
//! (apart from timings); a journal of other work is refused with the reason. Also: verify
//! stopped among its stored hardest instances, `tighten --resume`, and the cells of the
//! matrix long command x signal that no other test covers (issue 35).
//!
//! As in tests/interrupt.rs (whose helpers these are), a signal is sent only once the journal
//! shows the progress wanted; nothing depends on timing.

use crate::interrupt::{
    check_100, check_signalled, cmd, journal_jobs, journal_of, json, refused, rejudged, run_times,
    small_experiment, verify_lmo_lmo, without_timings, Cmd,
};
use std::path::Path;

/// The JSON of a journal line (`SUM JSON` on the header, `SUM FINGERPRINT JSON` on a job).
fn journal_json(line: &str) -> &str {
    &line[line.find(['{', '[']).unwrap_or(0)..]
}

/// Appends the start of a job line without its newline: what a kill during an append leaves.
fn cut_last_line(journal: &Path) {
    use std::io::Write;
    let mut f = std::fs::OpenOptions::new()
        .append(true)
        .open(journal)
        .unwrap();
    f.write_all(br#"{"job":{"key":["lmo-lmo/nc-c","quadr"#)
        .unwrap();
}

#[test]
fn verify_killed_keeps_its_finished_jobs_in_the_journal_and_resume_equals_an_uninterrupted_run() {
    let dir = tempfile::tempdir().unwrap();
    let (full, part) = (dir.path().join("full"), dir.path().join("part"));
    let verify = verify_lmo_lmo();
    assert_eq!(verify.out(&full).run().code, 0);
    let journal = journal_of(&part.join("verify.json"));
    let (code, _) = verify
        .out(&part)
        .interrupt("-KILL", |_| journal_jobs(&journal) >= 3);
    assert_eq!(code, None, "killed");
    assert!(!part.join("verify.json").exists(), "no record was written");
    let kept = journal_jobs(&journal);
    assert!(kept >= 3);
    cut_last_line(&journal);
    // a journal of other work is refused, naming it, and left as it was
    let bytes = std::fs::read(&journal).unwrap();
    let other = cmd(&[
        "verify",
        "--cases",
        "lmo-lmo/",
        "--no-hard",
        "--jobs",
        "1",
        "-q",
    ])
    .with(&["--tier", "full"]);
    refused(
        &other.out(&part).resume(&part).run(),
        &[
            "verify.json.journal",
            "recorded with --tier quick, this run has full",
        ],
    );
    assert_eq!(std::fs::read(&journal).unwrap(), bytes);
    // killed again mid-resume: the new journal holds the old jobs and the new ones
    let (code, _) = verify
        .out(&part)
        .resume(&part)
        .interrupt("-KILL", |_| journal_jobs(&journal) >= kept + 1);
    assert_eq!(code, None);
    let o = verify.out(&part).resume(&part).run();
    assert_eq!(o.code, 0, "{}", o.stderr);
    assert!(!journal.exists(), "removed once verify.json is written");
    let resumed = json(&part.join("verify.json"));
    let whole = json(&full.join("verify.json"));
    assert_eq!(without_timings(&resumed), without_timings(&whole));
    // the control: the journal's jobs were reused, not run again (their timings are kept)
    let reused = run_times(&resumed)
        .iter()
        .filter(|r| !run_times(&whole).contains(r))
        .count();
    assert!(
        reused >= kept,
        "{reused} runs differ in time from the fresh run"
    );
}

#[test]
fn verify_stopped_among_the_hard_instances_keeps_the_finished_ones_and_resumes_to_the_same_report()
{
    let dir = tempfile::tempdir().unwrap();
    let (full, part) = (dir.path().join("full"), dir.path().join("part"));
    // four entries with stored hardest instances, run one after the other after 20 jobs
    let verify = cmd(&["verify", "--cases", "lmo-po/c-", "--jobs", "1", "-q"]);
    assert_eq!(verify.out(&full).run().code, 0);
    let journal = journal_of(&part.join("verify.json"));
    let header_total = |j: &Path| -> usize {
        std::fs::read_to_string(j)
            .ok()
            .and_then(|t| {
                serde_json::from_str::<serde_json::Value>(journal_json(t.lines().next()?)).ok()
            })
            .and_then(|h| h["total"].as_u64())
            .map_or(usize::MAX, |t| t as usize)
    };
    // SIGTERM once every random job is in the journal: the hard instances are running
    let (code, err) = verify.out(&part).interrupt("-TERM", |_| {
        journal_jobs(&journal) >= header_total(&journal)
    });
    assert_eq!(code, Some(143), "{err}");
    let record = json(&part.join("verify.json"));
    let i = &record["interrupted"];
    assert_eq!(i["total"], 24, "20 jobs and 4 hard instances: {record}");
    assert!(i["done"].as_u64().unwrap() >= 20);
    let hard = record["hard_runs"].as_array().map_or(0, Vec::len);
    assert_eq!(i["done"].as_u64().unwrap() as usize, 20 + hard);
    assert!(
        hard < 4,
        "a signal while the first hard instance runs stops the others"
    );
    assert!(record["entries"]
        .as_array()
        .unwrap()
        .iter()
        .all(|e| e.get("hard").is_none()));
    let o = verify.out(&part).resume(&part).run();
    assert_eq!(o.code, 0, "{}", o.stderr);
    let resumed = json(&part.join("verify.json"));
    assert!(resumed.get("hard_runs").is_none());
    assert_eq!(
        without_timings(&resumed),
        without_timings(&json(&full.join("verify.json")))
    );
}

#[test]
fn check_killed_resumes_from_its_journal_to_the_same_check_json() {
    let dir = tempfile::tempdir().unwrap();
    let check = check_100();
    let (full, part, code, _) = check_signalled(dir.path(), "-KILL", 5);
    assert_eq!(code, None);
    let journal = journal_of(&part);
    assert!(!part.exists());
    cut_last_line(&journal);
    refused(
        &check.out(&part).resume(&part).with(&["--seed", "1"]).run(),
        &[
            "CHECK.json.journal",
            "recorded with --seed 0, this run has 1",
        ],
    );
    // the issue's check journal with job 1 relabelled 150: refused with its line number
    let bytes = std::fs::read(&journal).unwrap();
    let text = String::from_utf8(bytes.clone()).unwrap();
    let relabelled = text.replacen("{\"job\":1,", "{\"job\":150,", 1);
    assert_ne!(relabelled, text);
    std::fs::write(&journal, relabelled).unwrap();
    refused(
        &check.out(&part).resume(&part).run(),
        &[
            "CHECK.json.journal: line ",
            "checksum mismatch",
            "delete line",
        ],
    );
    std::fs::write(&journal, bytes).unwrap();
    let o = check.out(&part).resume(&part).run();
    assert_eq!(o.code, 0, "{}", o.stderr);
    assert_eq!(std::fs::read(&part).unwrap(), std::fs::read(&full).unwrap());
    assert!(!journal.exists());
}

#[test]
fn experiment_killed_keeps_its_finished_runs_and_resume_reuses_them() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("e");
    let exp = small_experiment("1").out(&out);
    let journal = journal_of(&out.join("experiment.json"));
    let (code, _) = exp.interrupt("-KILL", |_| journal_jobs(&journal) >= 1);
    assert_eq!(code, None);
    assert!(!out.join("experiment.json").exists());
    let text = std::fs::read_to_string(&journal).unwrap();
    let first: serde_json::Value =
        serde_json::from_str(journal_json(text.lines().nth(1).unwrap())).unwrap();
    assert_eq!(first["registry_name"], "lmo-lmo");
    refused(
        &small_experiment("2").out(&out).resume(&out).run(),
        &[
            "experiment.json.journal",
            "recorded with --time-limit 1, this run has 2",
        ],
    );
    let o = exp.resume(&out).run();
    assert_eq!(o.code, 0, "{}", o.stderr);
    let done = json(&out.join("experiment.json"));
    assert_eq!(
        done["runs"][0], first,
        "the journal's run is reused as it was"
    );
    assert!(done["runs"]
        .as_array()
        .unwrap()
        .iter()
        .all(|r| r["status"] != "interrupted"));
    assert_eq!(
        rejudged(dir.path(), &out.join("experiment.json")),
        done["claims"]
    );
    assert!(!journal.exists());
}

/// `tighten` of the four LMO-PO c-c and c-sc entries, bounded by evaluations (reproducible); an
/// entry takes a second or more, so a signal sent once the first is in the journal finds the
/// second running (it finishes, the others do not start).
fn tighten() -> Cmd {
    cmd(&[
        "tighten",
        "--cases",
        "lmo-po/c-",
        "--budget",
        "100000",
        "--max-evals",
        "6",
        "--horizon",
        "1024",
        "--jobs",
        "1",
    ])
}

#[test]
fn tighten_interrupted_or_killed_then_resumed_equals_an_uninterrupted_search() {
    let dir = tempfile::tempdir().unwrap();
    let (full, part) = (dir.path().join("full"), dir.path().join("part"));
    refused(
        &cmd(&["tighten", "--max-evals", "0"]).out(&full).run(),
        &["--max-evals", "must be at least 1, got 0"],
    );
    let c = full.join("c.json");
    for (command, out) in [
        (verify_lmo_lmo(), &full),
        (check_100(), &c),
        (tighten(), &full),
    ] {
        refused(
            &command.with(&["--checkpoint-every", "-1"]).out(out).run(),
            &["--checkpoint-every", "must be a finite number > 0"],
        );
    }
    assert!(!full.exists(), "refused before any work");
    let o = tighten().out(&full).run();
    assert_eq!(o.code, 0, "{}", o.stderr);
    let whole = without_timings(&json(&full.join("tighten.json")));
    assert_eq!(whole["entries"].as_array().unwrap().len(), 4);
    let journal = journal_of(&part.join("tighten.json"));
    // SIGINT once the first entry is searched: the record holds it and the one in flight
    let (code, err) = tighten()
        .out(&part)
        .interrupt("-INT", |_| journal_jobs(&journal) >= 1);
    assert_eq!(code, Some(130), "{err}");
    let record = json(&part.join("tighten.json"));
    let done = record["interrupted"]["done"].as_u64().expect("interrupted") as usize;
    assert!((1..4).contains(&done), "{record}");
    assert_eq!(record["interrupted"]["total"], 4);
    assert_eq!(record["entries"].as_array().unwrap().len(), done);
    assert!(err.contains("--resume"), "{err}");
    refused(
        &tighten()
            .out(&part)
            .resume(&part)
            .with(&["--seed", "1"])
            .run(),
        &["tighten.json", "recorded with --seed 0, this run has 1"],
    );
    // resumed and killed while it searches the next entry: its new journal carries the others
    let (code, _) = tighten()
        .out(&part)
        .resume(&part)
        .interrupt("-KILL", |_| journal_jobs(&journal) >= done);
    assert_eq!(code, None);
    assert!(journal_jobs(&journal) >= done);
    let o = tighten().out(&part).resume(&part).run();
    assert_eq!(o.code, 0, "{}", o.stderr);
    assert!(!journal.exists());
    let resumed = json(&part.join("tighten.json"));
    assert!(resumed.get("interrupted").is_none());
    assert_eq!(without_timings(&resumed), whole);
    assert_eq!(
        resumed["entries"][0], record["entries"][0],
        "entry 1 reused as recorded"
    );
}

/// The stored hardest instances of the LMO-PO c-sc entries in a directory of their own: the
/// `--hard DIR` of [`every_long_command_resumes_to_the_uninterrupted_run_under_each_signal`].
fn hard_dir(dir: &Path) -> std::path::PathBuf {
    let hard = dir.join("HARD");
    std::fs::create_dir_all(&hard).unwrap();
    let builtin = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/hard");
    for e in std::fs::read_dir(builtin).unwrap() {
        let p = e.unwrap().path();
        let name = p.file_name().unwrap().to_str().unwrap().to_string();
        if name.starts_with("lmo-po-c-sc-") {
            std::fs::copy(&p, hard.join(name)).unwrap();
        }
    }
    hard
}

/// Issue 35, acceptance 2, the cells of the matrix (long command x SIGINT, SIGTERM, SIGKILL)
/// not tested elsewhere: each command below, stopped by its signals in turn (the first run,
/// then each resumed run, once its journal holds a job more than the record it resumed), then
/// resumed to the end, ends with the uninterrupted run's record apart from `time` keys. The other cells: verify x INT, TERM
/// (tests/interrupt.rs), KILL (above); verify --theorems x KILL (tests/records.rs); check,
/// experiment and tighten x INT (tests/interrupt.rs and above) and KILL (above); export
/// --write-iterates x INT, TERM, KILL (tests/records.rs).
#[test]
fn every_long_command_resumes_to_the_uninterrupted_run_under_each_signal() {
    let dir = tempfile::tempdir().unwrap();
    let theorems =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/user-theorems/sqrt-step.json");
    let hard = hard_dir(dir.path());
    let s = |p: &Path| p.to_str().unwrap().to_string();
    let (theorems, hard) = (s(&theorems), s(&hard));
    let rows: [(&str, Cmd, &str, &[&str]); 5] = [
        (
            "verify --theorems",
            cmd(&["verify", "--theorems", &theorems, "--jobs", "1", "-q"]),
            "verify.json",
            &["-INT", "-TERM"],
        ),
        (
            "verify --hard DIR",
            cmd(&[
                "verify",
                "--cases",
                "lmo-po/c-sc/",
                "--hard",
                &hard,
                "--jobs",
                "1",
                "-q",
            ]),
            "verify.json",
            &["-INT", "-TERM", "-KILL"],
        ),
        (
            "check",
            cmd(&["check", "--cases", "20", "--jobs", "1", "-q"]),
            "CHECK.json",
            &["-TERM"],
        ),
        (
            // bounded by iterations, not time: the runs are reproducible
            "experiment",
            small_experiment("1000").with(&["--iters", ITERS]),
            "experiment.json",
            &["-TERM"],
        ),
        ("tighten", small_tighten(), "tighten.json", &["-TERM"]),
    ];
    for (i, (name, command, record, signals)) in rows.iter().enumerate() {
        let full = dir.path().join(format!("{i}-full"));
        let o = command.out(&full).run();
        assert!(o.code == 0 || o.code == 1, "{name}: {}", o.stderr);
        let full_code = o.code;
        let whole = without_timings(&json(&full.join(record)));
        // the signals one after the other on the same work: each resumed run is stopped again
        // once its journal holds a job more than the record it resumed
        let part = dir.path().join(format!("{i}-part"));
        let journal = journal_of(&part.join(record));
        let mut done = 0;
        for (k, signal) in signals.iter().enumerate() {
            let run = match k {
                0 => command.out(&part),
                _ => command.out(&part).resume(&part),
            };
            let (code, err) = run.interrupt(signal, |_| journal_jobs(&journal) > done);
            if *signal == "-KILL" {
                assert_eq!(code, None, "{name} {signal}: {err}");
                done = journal_jobs(&journal);
                continue;
            }
            let want = if *signal == "-INT" { 130 } else { 143 };
            assert_eq!(code, Some(want), "{name} {signal}: {err}");
            let stopped = json(&part.join(record));
            let recorded = stopped["interrupted"]["done"].as_u64();
            let recorded = recorded.unwrap_or_else(|| panic!("{name} {signal}: {stopped}"));
            assert!(recorded as usize > done, "{name} {signal}: {stopped}");
            done = recorded as usize;
        }
        let o = command.out(&part).resume(&part).run();
        assert_eq!(o.code, full_code, "{name}: {}", o.stderr);
        assert!(!journal.exists(), "{name}: the journal is removed");
        let resumed = json(&part.join(record));
        assert!(resumed.get("interrupted").is_none(), "{name}");
        assert_eq!(deterministic(&resumed), deterministic(&whole), "{name}");
    }
}

/// A record without its timings, and for experiment.json without the claims' verdicts (judged
/// per CPU second: README, "Formats"; the existing experiment tests check that they are
/// judged on the final runs).
fn deterministic(v: &serde_json::Value) -> serde_json::Value {
    let mut v = without_timings(v);
    if let Some(claims) = v.get_mut("claims").and_then(|c| c.as_array_mut()) {
        for c in claims {
            c.as_object_mut()
                .unwrap()
                .retain(|k, _| k != "holds" && k != "evidence");
        }
    }
    v
}

/// Iterations of each run of the experiment of the matrix (a few tenths of a second each).
const ITERS: &str = "20000";

/// A `tighten` of four entries, small enough for the matrix: evaluations bound it.
fn small_tighten() -> Cmd {
    cmd(&[
        "tighten",
        "--cases",
        "lmo-po/c-",
        "--budget",
        "100000",
        "--max-evals",
        "3",
        "--horizon",
        "256",
        "--jobs",
        "1",
    ])
}
