//! Long work survives interruption (issue 17), through the binary: a first SIGINT/SIGTERM
//! stops `run` at the next iteration and `verify`/`check`/`experiment` at the next job, writes
//! what is done with status `interrupted` and exits 130/143; `run` keeps a periodic checkpoint
//! file that SIGKILL cannot take away; `--resume` finishes an interrupted record with the same
//! final files as an uninterrupted run (apart from timings) and refuses a foreign record.
//!
//! No test depends on timing: a signal is sent only after something observable happened (the
//! signal thread exists, a checkpoint file appeared, the journal holds some finished jobs), and
//! every assertion holds wherever the signal lands after that. The tests of the journal
//! (SIGKILL), of `tighten` and of verify's hard instances are in tests/resume.rs.

use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use crate::common::{saddlefw, Out};

/// Generous bound on every wait (a loaded machine is slow, never wrong).
const PATIENCE: Duration = Duration::from_secs(600);

pub(crate) fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// A command line of the binary: built once, then run, extended or interrupted.
#[derive(Debug, Clone)]
pub(crate) struct Cmd(Vec<String>);

/// The command `saddlefw ARGS`.
pub(crate) fn cmd(args: &[&str]) -> Cmd {
    Cmd(args.iter().map(|a| a.to_string()).collect())
}

/// What happened to a command a signal was meant for.
pub(crate) struct Signalled {
    /// Exit code (None: ended by a signal, e.g. SIGKILL).
    pub code: Option<i32>,
    pub stderr: String,
    /// Whether the signals were sent (false: the command ended before it was ready).
    pub sent: bool,
}

impl Cmd {
    /// The same command with `more` arguments appended.
    pub(crate) fn with(&self, more: &[&str]) -> Cmd {
        let mut c = self.clone();
        c.0.extend(more.iter().map(|a| a.to_string()));
        c
    }
    /// The same command writing to `out` (`--out OUT`).
    pub(crate) fn out(&self, out: &Path) -> Cmd {
        self.with(&["--out", s(out)])
    }
    /// The same command resuming `dir` (`--resume DIR`).
    pub(crate) fn resume(&self, dir: &Path) -> Cmd {
        self.with(&["--resume", s(dir)])
    }
    /// Runs it to the end.
    pub(crate) fn run(&self) -> Out {
        let args: Vec<&str> = self.0.iter().map(String::as_str).collect();
        saddlefw(&args)
    }
    fn spawn(&self) -> Child {
        Command::new(env!("CARGO_BIN_EXE_saddlefw"))
            .args(&self.0)
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap()
    }
    /// Starts it, waits until its signal handler runs and `ready(pid)` holds (polling, no
    /// fixed sleep), then sends `signals` in order (`-INT`, `-TERM`, `-KILL`).
    pub(crate) fn signal_when(
        &self,
        signals: &[&str],
        mut ready: impl FnMut(u32) -> bool,
    ) -> Signalled {
        let mut child = self.spawn();
        let pid = child.id();
        let start = Instant::now();
        let sent = loop {
            if handler_installed(pid) && ready(pid) {
                for sig in signals {
                    let status = Command::new("kill")
                        .args([*sig, &pid.to_string()])
                        .status()
                        .unwrap();
                    assert!(status.success());
                }
                break true;
            }
            if child.try_wait().unwrap().is_some() {
                break false;
            }
            assert!(
                start.elapsed() < PATIENCE,
                "{self:?} neither got ready nor exited in {PATIENCE:?}"
            );
            std::thread::sleep(Duration::from_millis(5));
        };
        let o = child.wait_with_output().unwrap();
        let stderr = String::from_utf8_lossy(&o.stderr).into_owned();
        assert!(!stderr.contains("panicked"), "{stderr}");
        Signalled {
            code: o.status.code(),
            stderr,
            sent,
        }
    }
    /// [`Cmd::signal_when`] with one signal that must be sent: exit code and stderr.
    pub(crate) fn interrupt(
        &self,
        signal: &str,
        ready: impl FnMut(u32) -> bool,
    ) -> (Option<i32>, String) {
        let r = self.signal_when(&[signal], ready);
        assert!(r.sent, "{self:?} ended before it was ready: {}", r.stderr);
        (r.code, r.stderr)
    }
}

impl Cmd {
    /// [`Cmd::interrupt`] as soon as the handler runs, until the command has written `record`. A
    /// signal that lands while the command is still starting up (before it declares where it
    /// stops) ends it at once with nothing written, as nothing was done; on a loaded machine that
    /// window is wide, so such a try is checked (exit code, no file left) and repeated.
    pub(crate) fn interrupt_once_started(
        &self,
        signal: &str,
        record: &Path,
    ) -> (Option<i32>, String) {
        for _ in 0..10 {
            let (code, err) = self.interrupt(signal, |_| true);
            if record.exists() {
                return (code, err);
            }
            assert_eq!(code, Some(128 + signal_number(signal)), "{err}");
            let (dir, name) = (record.parent().unwrap(), record.file_name().unwrap());
            let name = name.to_string_lossy();
            let left = std::fs::read_dir(dir).map_or(0, |d| {
                d.filter(|e| {
                    e.as_ref()
                        .is_ok_and(|e| e.file_name().to_string_lossy().contains(&*name))
                })
                .count()
            });
            assert_eq!(
                left, 0,
                "an interrupt during start-up left files beside {record:?}"
            );
        }
        panic!("every {signal} landed while {self:?} was starting up");
    }
}

/// The number of a signal named as `kill` takes it (`-INT`, `-TERM`, `-HUP`).
fn signal_number(signal: &str) -> i32 {
    match signal {
        "-INT" => 2,
        "-TERM" => 15,
        "-HUP" => 1,
        s => panic!("unknown signal {s}"),
    }
}

/// Whether the child's signal thread (`saddlefw-signals`, truncated to 15 bytes by Linux)
/// runs: from then on a signal reaches the handler.
fn handler_installed(pid: u32) -> bool {
    let Ok(tasks) = std::fs::read_dir(format!("/proc/{pid}/task")) else {
        return false;
    };
    tasks.filter_map(|t| t.ok()).any(|t| {
        std::fs::read_to_string(t.path().join("comm")).is_ok_and(|c| c.starts_with("saddlefw-sig"))
    })
}

/// Finished jobs in a journal so far: its complete lines after the header (0 without one).
pub(crate) fn journal_jobs(journal: &Path) -> usize {
    std::fs::read_to_string(journal).map_or(0, |t| t.matches('\n').count().saturating_sub(1))
}

/// The journal of the record `record` (`RECORD.journal`).
pub(crate) fn journal_of(record: &Path) -> std::path::PathBuf {
    let mut p = record.as_os_str().to_os_string();
    p.push(".journal");
    p.into()
}

pub(crate) fn json(path: &Path) -> serde_json::Value {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// A copy without the timing fields (keys containing `time`: the only fields that vary, so a
/// varying field of another name makes a resumed record differ), the command line
/// and the build's identity.
pub(crate) fn without_timings(v: &serde_json::Value) -> serde_json::Value {
    use serde_json::Value;
    match v {
        Value::Object(m) => Value::Object(
            m.iter()
                .filter(|(k, _)| {
                    !k.contains("time") && !["command", "date", "build"].contains(&k.as_str())
                })
                .map(|(k, v)| (k.clone(), without_timings(v)))
                .collect(),
        ),
        Value::Array(a) => Value::Array(a.iter().map(without_timings).collect()),
        other => other.clone(),
    }
}

#[track_caller]
pub(crate) fn refused(o: &Out, needles: &[&str]) {
    assert_eq!(o.code, 2, "stdout: {} stderr: {}", o.stdout, o.stderr);
    assert_eq!(o.stderr.lines().count(), 1, "{}", o.stderr);
    for n in needles {
        assert!(o.stderr.contains(n), "{:?} lacks {n:?}", o.stderr);
    }
}

const RUN: [&str; 7] = [
    "run",
    "--problem",
    "quadratic/nc-c:dx=20,dy=10",
    "--algo",
    "lmo-lmo",
    "--iters",
    "1000000000",
];

// ---------------------------------------------------------------------------------------------
// run

#[test]
fn run_interrupted_before_its_first_checkpoint_file_writes_run_json_and_exits_130() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("RUN.json");
    let run = cmd(&RUN)
        .with(&["--checkpoint-every", "3600", "-q"])
        .out(&out);
    let (code, err) = run.interrupt_once_started("-INT", &out);
    assert_eq!(code, Some(130), "{err}");
    assert!(
        err.contains("SIGINT received: stopping at the next iteration"),
        "{err}"
    );
    assert!(err.contains("interrupted at iteration"), "{err}");
    let r = json(&out);
    let t = r["status"]["interrupted"]["iteration"].as_u64().unwrap();
    assert_eq!(r["iterations"].as_u64(), Some(t));
    // the iterate reached is measured
    let last = r["checkpoints"].as_array().unwrap().last().unwrap();
    assert_eq!(last["t"].as_u64(), Some(t));
    assert!(!dir.path().join("RUN.json.partial").exists());
}

#[test]
fn run_keeps_a_checkpoint_file_that_sigterm_finishes_and_sigkill_leaves_behind() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("RUN.json");
    let partial = dir.path().join("RUN.json.partial");
    let run = cmd(&RUN)
        .with(&["--checkpoint-every", "0.2", "-q"])
        .out(&out);
    // SIGTERM mid-run, once a checkpoint file exists
    let (code, err) = run.interrupt("-TERM", |_| partial.exists());
    assert_eq!(code, Some(143), "{err}");
    let r = json(&out);
    assert!(r["status"]["interrupted"]["iteration"].as_u64().unwrap() > 0);
    assert!(
        !partial.exists(),
        "the checkpoint file is removed once RUN.json is written"
    );
    std::fs::remove_file(&out).unwrap();
    // SIGKILL: nothing handles it, and the last checkpoint file is what is left
    let (code, _) = run.interrupt("-KILL", |_| partial.exists());
    assert_eq!(code, None);
    assert!(!out.exists());
    let p = json(&partial);
    let t = p["status"]["in_progress"]["iteration"].as_u64().unwrap();
    assert_eq!(p["iterations"].as_u64(), Some(t));
    assert_eq!(p["problem"], "quadratic/nc-c:dx=20,dy=10,seed=0,x=l1");
    assert!(!p["checkpoints"].as_array().unwrap().is_empty());
    // the control: a run that ends normally leaves no checkpoint file either
    let short = cmd(&[
        "run",
        "--problem",
        "quadratic/nc-c:dx=20,dy=10",
        "--algo",
        "lmo-lmo",
        "-q",
    ])
    .out(&out);
    let o = short
        .with(&["--iters", "50", "--checkpoint-every", "0.000001"])
        .run();
    assert_eq!(o.code, 0, "{}", o.stderr);
    assert_eq!(json(&out)["status"], "completed");
    assert!(!partial.exists());
    let o = short
        .with(&["--iters", "5", "--checkpoint-every", "0"])
        .run();
    refused(&o, &["--checkpoint-every", "must be a finite number > 0"]);
}

/// `run` writing every checkpoint of `iters` iterations to `DIR/RUN.json`, signalled with
/// `signals` once RUN.json's temporary file exists, retried with twice the iterations until
/// the signals arrived during the write (`complete_ok`: a complete RUN.json is fine).
fn signals_during_write(dir: &Path, signals: &[&str], complete_ok: bool) -> Signalled {
    let out = dir.join("RUN.json");
    let mut iters = 100_000u64;
    loop {
        let run = cmd(&[
            "run",
            "--problem",
            "quadratic/nc-c:dx=2,dy=2",
            "--algo",
            "lmo-lmo",
            "--checkpoints",
            "all",
            "--checkpoint-every",
            "3600",
            "-q",
        ])
        .with(&["--iters", &iters.to_string()])
        .out(&out);
        let tmp = || {
            std::fs::read_dir(dir)
                .unwrap()
                .any(|e| e.unwrap().path().to_string_lossy().ends_with(".tmp"))
        };
        let r = run.signal_when(signals, |_| tmp());
        let complete = out.exists();
        if r.sent && (complete_ok || !complete) {
            if complete_ok {
                let v = json(&out);
                assert_eq!(v["status"], "completed", "every iteration was done");
                assert_eq!(v["checkpoints"].as_array().unwrap().len() as u64, iters + 1);
            }
            let _ = std::fs::remove_file(&out);
            return r;
        }
        let _ = std::fs::remove_file(&out);
        iters *= 2;
        assert!(
            iters < 2_000_000,
            "never caught RUN.json while it was being written"
        );
    }
}

#[test]
fn a_signal_during_the_write_completes_it_and_a_second_one_exits_at_once() {
    let dir = tempfile::tempdir().unwrap();
    // one signal while RUN.json is being written: the write completes, exit 130
    let r = signals_during_write(dir.path(), &["-INT"], true);
    assert_eq!(r.code, Some(130), "{}", r.stderr);
    // two signals (different ones: identical pending ones would merge into one): the second
    // ends the process during the write, and no temporary file stays
    let r = signals_during_write(dir.path(), &["-INT", "-TERM"], false);
    // 128 + the signal handled second (pending signals are taken by number, not sending order)
    assert!(
        [Some(130), Some(143)].contains(&r.code),
        "{:?} {}",
        r.code,
        r.stderr
    );
    let left: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    assert!(left.is_empty(), "{left:?}");
}

// ---------------------------------------------------------------------------------------------
// verify

/// `verify` of the four LMO-LMO c-sc entries, random instances only, one worker (quick tier):
/// 8 random instances, about 3 s of CPU in all (the 16 LMO-LMO entries took 7.5 s), so a signal
/// sent once two jobs are journaled still finds work left.
pub(crate) fn verify_lmo_lmo() -> Cmd {
    cmd(&[
        "verify",
        "--cases",
        "lmo-lmo/c-sc",
        "--no-hard",
        "--jobs",
        "1",
        "-q",
    ])
}

/// The `(entry, family, seed) -> time_s` of every run in a verify.json.
pub(crate) fn run_times(v: &serde_json::Value) -> Vec<(String, f64)> {
    v["entries"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|e| {
            e["instances"].as_array().unwrap().iter().map(move |r| {
                (
                    format!("{} {} {}", e["id"], r["family"], r["seed_index"]),
                    r["time_s"].as_f64().unwrap(),
                )
            })
        })
        .collect()
}

#[test]
fn verify_interrupted_then_resumed_equals_an_uninterrupted_run_and_refuses_a_foreign_record() {
    let dir = tempfile::tempdir().unwrap();
    let (full, part) = (dir.path().join("full"), dir.path().join("part"));
    let verify = verify_lmo_lmo();
    let o = verify.out(&full).run();
    assert_eq!(o.code, 0, "{}", o.stderr);
    // SIGTERM mid-run, once the journal holds two finished jobs
    let journal = journal_of(&part.join("verify.json"));
    let (code, err) = verify
        .out(&part)
        .interrupt("-TERM", |_| journal_jobs(&journal) >= 2);
    assert_eq!(code, Some(143), "{err}");
    assert!(!journal.exists(), "the record holds the jobs: no journal");
    let record = json(&part.join("verify.json"));
    let i = &record["interrupted"];
    assert_eq!(i["signal"], "SIGTERM", "{err}");
    assert!(i["done"].as_u64().unwrap() >= 2);
    assert!(i["done"].as_u64().unwrap() < i["total"].as_u64().unwrap());
    assert_eq!(record["failed"], false, "partial verdicts never gate");
    assert!(err.contains("--resume"), "{err}");
    let page = std::fs::read_to_string(part.join("index.html")).unwrap();
    assert!(
        page.contains("INTERRUPTED: partial results"),
        "the page says so"
    );
    // a foreign record is refused, and left as it was
    let bytes = std::fs::read(part.join("verify.json")).unwrap();
    let other = cmd(&[
        "verify",
        "--cases",
        "lmo-po/",
        "--no-hard",
        "--jobs",
        "1",
        "-q",
    ]);
    refused(
        &other.out(&part).resume(&part).run(),
        &["verify.json", "--resume", "recorded with --cases"],
    );
    let foreign = dir.path().join("foreign");
    std::fs::create_dir_all(&foreign).unwrap();
    let mut edited = record.clone();
    edited["build"]["version"] = "0.0.0-elsewhere".into();
    std::fs::write(foreign.join("verify.json"), edited.to_string()).unwrap();
    refused(
        &verify.out(&part).resume(&foreign).run(),
        &["another build", "0.0.0-elsewhere"],
    );
    assert_eq!(std::fs::read(part.join("verify.json")).unwrap(), bytes);
    // resumed: the recorded jobs are reused (their timings too), the rest run
    let o = verify.out(&part).resume(&part).run();
    assert_eq!(o.code, 0, "{}", o.stderr);
    let resumed = json(&part.join("verify.json"));
    assert!(resumed.get("interrupted").is_none());
    assert_eq!(
        without_timings(&resumed),
        without_timings(&json(&full.join("verify.json")))
    );
    let page = std::fs::read_to_string(part.join("index.html")).unwrap();
    assert!(
        !page.contains("INTERRUPTED"),
        "the finished page has no banner"
    );
    let after = run_times(&resumed);
    for r in &run_times(&record) {
        assert!(after.contains(r), "recorded run {} was not reused", r.0);
    }
}

#[test]
fn verify_interrupted_before_its_first_job_finishes_resumes_to_the_same_report() {
    let dir = tempfile::tempdir().unwrap();
    let (full, part) = (dir.path().join("full"), dir.path().join("part"));
    let verify = cmd(&[
        "verify",
        "--cases",
        "lmo-po/c-sc/",
        "--no-hard",
        "--jobs",
        "1",
        "-q",
    ]);
    assert_eq!(verify.out(&full).run().code, 0);
    // SIGINT as soon as the handler runs: the job in flight finishes, no other starts
    let (code, err) = verify
        .out(&part)
        .interrupt_once_started("-INT", &part.join("verify.json"));
    assert_eq!(code, Some(130), "{err}");
    let record = json(&part.join("verify.json"));
    assert!(
        record["interrupted"]["done"].as_u64().unwrap() <= 1,
        "{record}"
    );
    let o = verify.out(&part).resume(&part).run();
    assert_eq!(o.code, 0, "{}", o.stderr);
    assert_eq!(
        without_timings(&json(&part.join("verify.json"))),
        without_timings(&json(&full.join("verify.json")))
    );
}

// ---------------------------------------------------------------------------------------------
// check

/// `check --cases 100` on one worker (about 2 s of CPU; 300 cases took 5 s).
pub(crate) fn check_100() -> Cmd {
    cmd(&["check", "--cases", "100", "--jobs", "1", "-q"])
}

/// [`check_100`] into `DIR/full/CHECK.json`, then again into `DIR/part/CHECK.json` with
/// `signal` sent once its journal holds `jobs` jobs: the two paths, exit code and stderr.
pub(crate) fn check_signalled(
    dir: &Path,
    signal: &str,
    jobs: usize,
) -> (std::path::PathBuf, std::path::PathBuf, Option<i32>, String) {
    let full = dir.join("full/CHECK.json");
    let part = dir.join("part/CHECK.json");
    assert_eq!(check_100().out(&full).run().code, 0);
    let journal = journal_of(&part);
    let (code, err) = check_100()
        .out(&part)
        .interrupt(signal, |_| journal_jobs(&journal) >= jobs);
    (full, part, code, err)
}

#[test]
fn check_interrupted_then_resumed_gives_the_same_check_json() {
    let dir = tempfile::tempdir().unwrap();
    let check = check_100();
    let (full, part, code, err) = check_signalled(dir.path(), "-INT", 3);
    assert_eq!(code, Some(130), "{err}");
    let record = json(&part);
    assert_eq!(record["interrupted"]["signal"], "SIGINT", "{err}");
    let done = record["interrupted"]["done"].as_u64().unwrap() as usize;
    assert!(done >= 3);
    assert_eq!(record["shard"]["results"].as_array().unwrap().len(), done);
    let page = std::fs::read_to_string(part.with_extension("html")).unwrap();
    assert!(page.contains("INTERRUPTED: partial results"));
    // merge refuses it as a shard
    let o = saddlefw(&["merge", s(&part), "--out", s(&dir.path().join("m"))]);
    refused(&o, &["interrupted", "--resume"]);
    // another seed is refused
    refused(
        &check.out(&part).resume(&part).with(&["--seed", "1"]).run(),
        &["recorded with --seed 0, this run has 1"],
    );
    let o = check.out(&part).resume(&part).run();
    assert_eq!(o.code, 0, "{}", o.stderr);
    assert_eq!(std::fs::read(&part).unwrap(), std::fs::read(&full).unwrap());
}

// ---------------------------------------------------------------------------------------------
// experiment

/// `experiment dl` of three algorithms on a small instance, `limit` seconds each.
pub(crate) fn small_experiment(limit: &str) -> Cmd {
    cmd(&[
        "experiment",
        "dl",
        "--algos",
        "lmo-lmo,lmo-po,sp-fw",
        "--dl-dims",
        "m=10,p=5,l=2,q=6,n=40,n_new=8",
        "-q",
    ])
    .with(&["--time-limit", limit])
}

/// The claims of `DIR/experiment.json` judged again on its runs (`--rerender` of a copy).
pub(crate) fn rejudged(dir: &Path, record: &Path) -> serde_json::Value {
    let copy = dir.join("rejudged");
    std::fs::create_dir_all(&copy).unwrap();
    std::fs::copy(record, copy.join("experiment.json")).unwrap();
    let o = saddlefw(&["experiment", "dl", "--rerender", "-q", "--out", s(&copy)]);
    assert_eq!(o.code, 0, "{}", o.stderr);
    json(&copy.join("experiment.json"))["claims"].clone()
}

#[test]
fn experiment_interrupted_marks_the_run_and_resume_completes_it() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("e");
    let exp = small_experiment("1").out(&out);
    let journal = journal_of(&out.join("experiment.json"));
    // SIGINT once the first algorithm's run is finished (in the journal)
    let (code, err) = exp.interrupt("-INT", |_| journal_jobs(&journal) >= 1);
    assert_eq!(code, Some(130), "{err}");
    let record = json(&out.join("experiment.json"));
    let page = std::fs::read_to_string(out.join("index.html")).unwrap();
    assert!(
        page.contains("INTERRUPTED: partial results"),
        "the page says so"
    );
    assert_eq!(record["interrupted"]["signal"], "SIGINT", "{err}");
    let statuses: Vec<&str> = record["runs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["status"].as_str().unwrap())
        .collect();
    let first = statuses
        .iter()
        .position(|s| *s == "interrupted")
        .expect("a run is marked");
    assert!(first >= 1, "{statuses:?}");
    assert!(
        statuses[first..].iter().all(|s| *s == "interrupted"),
        "{statuses:?}"
    );
    assert!(
        statuses[..first].iter().all(|s| *s != "interrupted"),
        "{statuses:?}"
    );
    assert!(record["notes"][0]
        .as_str()
        .unwrap()
        .starts_with("INTERRUPTED"));
    // another time limit is refused
    refused(
        &small_experiment("2").out(&out).resume(&out).run(),
        &["recorded with --time-limit 1, this run has 2"],
    );
    // resumed: the finished runs are kept as recorded, the others run
    let o = exp.resume(&out).run();
    assert_eq!(o.code, 0, "{}", o.stderr);
    let done = json(&out.join("experiment.json"));
    assert!(done.get("interrupted").is_none());
    assert!(!journal.exists());
    for (k, r) in done["runs"].as_array().unwrap().iter().enumerate() {
        assert_ne!(r["status"], "interrupted");
        if k < first {
            assert_eq!(r, &record["runs"][k], "finished run {k} reused as recorded");
        }
    }
    let page = std::fs::read_to_string(out.join("index.html")).unwrap();
    assert!(!page.contains("INTERRUPTED"));
    // the final claims are those an uninterrupted run judges on the same records: judging
    // the final runs again (what `--rerender` does) gives them, and they are not the partial
    // record's (which judged two runs that did not finish)
    let claims = rejudged(dir.path(), &out.join("experiment.json"));
    assert_eq!(claims, done["claims"]);
    assert_ne!(record["claims"], done["claims"]);
}
