//! Long work survives interruption (issue 17), through the binary: a first SIGINT/SIGTERM
//! stops `run` at the next iteration and `verify`/`check`/`experiment` at the next job, writes
//! what is done with status `interrupted` and exits 130/143; `run` keeps a periodic checkpoint
//! file that SIGKILL cannot take away; `--resume` finishes an interrupted record with the same
//! final files as an uninterrupted run (apart from timings) and refuses a foreign record.
//!
//! No test depends on timing: a signal is sent only after something observable happened (the
//! signal thread exists, a checkpoint file appeared, the child used some CPU time), and every
//! assertion holds wherever the signal lands after that.

use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use crate::common::{saddlefw, Out};

/// Generous bound on every wait (a loaded machine is slow, never wrong).
const PATIENCE: Duration = Duration::from_secs(300);

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

fn spawn(args: &[&str]) -> Child {
    Command::new(env!("CARGO_BIN_EXE_saddlefw"))
        .args(args)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

/// Waits until `ready()` or the child exits; true when ready.
fn wait_until(child: &mut Child, mut ready: impl FnMut() -> bool) -> bool {
    let start = Instant::now();
    while start.elapsed() < PATIENCE {
        if ready() {
            return true;
        }
        if child.try_wait().unwrap().is_some() {
            return ready();
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    panic!("the child neither got ready nor exited in {PATIENCE:?}");
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

/// CPU seconds (user + system) the process has used so far (0 once it is gone).
fn cpu_seconds(pid: u32) -> f64 {
    let Ok(stat) = std::fs::read_to_string(format!("/proc/{pid}/stat")) else {
        return 0.0;
    };
    let rest: Vec<&str> = stat
        .rsplit_once(')')
        .map_or("", |(_, r)| r)
        .split_whitespace()
        .collect();
    let ticks: f64 = rest.get(11..13).map_or(0.0, |f| {
        f.iter().filter_map(|v| v.parse::<f64>().ok()).sum()
    });
    ticks / 100.0
}

fn kill(child: &Child, signal: &str) {
    let status = Command::new("kill")
        .args([signal, &child.id().to_string()])
        .status()
        .unwrap();
    assert!(status.success());
}

/// Exit code and stderr of a finished child.
fn finish(child: Child) -> (Option<i32>, String) {
    let o = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&o.stderr).into_owned();
    assert!(!err.contains("panicked"), "{err}");
    (o.status.code(), err)
}

/// Starts `args`, waits until its handler is installed and `ready(pid)`, sends `signal`.
fn interrupt(args: &[&str], signal: &str, ready: impl Fn(u32) -> bool) -> (Option<i32>, String) {
    let mut child = spawn(args);
    let pid = child.id();
    if wait_until(&mut child, || handler_installed(pid) && ready(pid)) {
        kill(&child, signal);
    }
    finish(child)
}

fn json(path: &Path) -> serde_json::Value {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// A copy without the timing fields (keys containing `time`) and the command line.
fn without_timings(v: &serde_json::Value) -> serde_json::Value {
    use serde_json::Value;
    match v {
        Value::Object(m) => Value::Object(
            m.iter()
                .filter(|(k, _)| {
                    !k.contains("time") && k.as_str() != "command" && k.as_str() != "date"
                })
                .map(|(k, v)| (k.clone(), without_timings(v)))
                .collect(),
        ),
        Value::Array(a) => Value::Array(a.iter().map(without_timings).collect()),
        other => other.clone(),
    }
}

#[track_caller]
fn refused(o: &Out, needles: &[&str]) {
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
    let mut args = RUN.to_vec();
    args.extend(["--checkpoint-every", "3600", "-q", "--out", s(&out)]);
    let (code, err) = interrupt(&args, "-INT", |_| true);
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
    let mut args = RUN.to_vec();
    args.extend(["--checkpoint-every", "0.2", "-q", "--out", s(&out)]);
    // SIGTERM mid-run, once a checkpoint file exists
    let (code, err) = interrupt(&args, "-TERM", |_| partial.exists());
    assert_eq!(code, Some(143), "{err}");
    let r = json(&out);
    assert!(r["status"]["interrupted"]["iteration"].as_u64().unwrap() > 0);
    assert!(
        !partial.exists(),
        "the checkpoint file is removed once RUN.json is written"
    );
    std::fs::remove_file(&out).unwrap();
    // SIGKILL: nothing handles it, and the last checkpoint file is what is left
    let (code, _) = interrupt(&args, "-KILL", |_| partial.exists());
    assert_eq!(code, None);
    assert!(!out.exists());
    let p = json(&partial);
    let t = p["status"]["in_progress"]["iteration"].as_u64().unwrap();
    assert_eq!(p["iterations"].as_u64(), Some(t));
    assert_eq!(p["problem"], "quadratic/nc-c:dx=20,dy=10,seed=0,x=l1");
    assert!(!p["checkpoints"].as_array().unwrap().is_empty());
    // the control: a run that ends normally leaves no checkpoint file either
    let o = saddlefw(&[
        "run",
        "--problem",
        "quadratic/nc-c:dx=20,dy=10",
        "--algo",
        "lmo-lmo",
        "--iters",
        "50",
        "--checkpoint-every",
        "0.000001",
        "-q",
        "--out",
        s(&out),
    ]);
    assert_eq!(o.code, 0, "{}", o.stderr);
    assert_eq!(json(&out)["status"], "completed");
    assert!(!partial.exists());
    let o = saddlefw(&[
        "run",
        "--problem",
        "quadratic/nc-c:dx=2,dy=2",
        "--algo",
        "lmo-lmo",
        "--iters",
        "5",
        "--checkpoint-every",
        "0",
        "--out",
        s(&out),
    ]);
    refused(&o, &["--checkpoint-every", "must be a finite number > 0"]);
}

/// Sends `signals` once RUN.json's temporary file exists; `None` when the file was complete
/// before they arrived (the caller retries with a larger one).
fn signals_during_write(dir: &Path, signals: &[&str], iters: u64) -> Option<(Option<i32>, String)> {
    let out = dir.join("RUN.json");
    let iters = iters.to_string();
    let mut child = spawn(&[
        "run",
        "--problem",
        "quadratic/nc-c:dx=2,dy=2",
        "--algo",
        "lmo-lmo",
        "--iters",
        &iters,
        "--checkpoints",
        "all",
        "--checkpoint-every",
        "3600",
        "-q",
        "--out",
        s(&out),
    ]);
    let tmp = || {
        std::fs::read_dir(dir)
            .unwrap()
            .any(|e| e.unwrap().path().to_string_lossy().ends_with(".tmp"))
    };
    let seen = wait_until(&mut child, tmp);
    if seen {
        // two different signals: identical pending ones would merge into one
        for sig in signals {
            kill(&child, sig);
        }
    }
    let r = finish(child);
    let complete = out.exists();
    let _ = std::fs::remove_file(&out);
    (seen && !(signals.len() > 1 && complete)).then_some(r)
}

#[test]
fn a_signal_during_the_write_completes_it_and_a_second_one_exits_at_once() {
    let dir = tempfile::tempdir().unwrap();
    // one signal while RUN.json is being written: the write completes, exit 130
    let mut iters = 100_000;
    let (code, err) = loop {
        let out = dir.path().join("RUN.json");
        let mut child = spawn(&[
            "run",
            "--problem",
            "quadratic/nc-c:dx=2,dy=2",
            "--algo",
            "lmo-lmo",
            "--iters",
            &iters.to_string(),
            "--checkpoints",
            "all",
            "-q",
            "--out",
            s(&out),
        ]);
        let d = dir.path().to_path_buf();
        let seen = wait_until(&mut child, || {
            std::fs::read_dir(&d)
                .unwrap()
                .any(|e| e.unwrap().path().to_string_lossy().ends_with(".tmp"))
        });
        if seen {
            kill(&child, "-INT");
            let r = finish(child);
            let v = json(&out);
            assert_eq!(v["status"], "completed", "every iteration was done");
            assert_eq!(v["checkpoints"].as_array().unwrap().len(), iters + 1);
            break r;
        }
        finish(child);
        iters *= 2;
        assert!(
            iters < 2_000_000,
            "never caught RUN.json while it was being written"
        );
    };
    assert_eq!(code, Some(130), "{err}");
    // two signals: the second ends the process during the write, and no temporary file stays
    let mut iters = 100_000;
    let (code, err) = loop {
        if let Some(r) = signals_during_write(dir.path(), &["-INT", "-TERM"], iters) {
            break r;
        }
        iters *= 2;
        assert!(
            iters < 2_000_000,
            "never caught RUN.json while it was being written"
        );
    };
    // 128 + the signal handled second (pending signals are taken by number, not sending order)
    assert!([Some(130), Some(143)].contains(&code), "{code:?} {err}");
    let left: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    assert!(left.is_empty(), "{left:?}");
}

// ---------------------------------------------------------------------------------------------
// verify

#[test]
fn verify_interrupted_then_resumed_equals_an_uninterrupted_run_and_refuses_a_foreign_record() {
    let dir = tempfile::tempdir().unwrap();
    let full = dir.path().join("full");
    let part = dir.path().join("part");
    let base = [
        "verify",
        "--cases",
        "lmo-lmo/",
        "--no-hard",
        "--jobs",
        "1",
        "-q",
    ];
    let with = |out: &Path, extra: &[&str]| {
        let mut a = base.to_vec();
        a.extend(["--out", s(out)]);
        a.extend(extra);
        a.iter().map(|x| x.to_string()).collect::<Vec<String>>()
    };
    let o = saddlefw(
        &with(&full, &[])
            .iter()
            .map(String::as_str)
            .collect::<Vec<_>>(),
    );
    assert_eq!(o.code, 0, "{}", o.stderr);
    // SIGTERM once the child has done some work (CPU time, not wall time)
    let args = with(&part, &[]);
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let (code, err) = interrupt(&args, "-TERM", |pid| cpu_seconds(pid) >= 1.0);
    assert_eq!(code, Some(143), "{err}");
    let record = json(&part.join("verify.json"));
    let i = &record["interrupted"];
    assert_eq!(i["signal"], "SIGTERM", "{err}");
    assert!(i["done"].as_u64().unwrap() < i["total"].as_u64().unwrap());
    assert_eq!(record["failed"], false, "partial verdicts never gate");
    assert!(err.contains("--resume"), "{err}");
    // a foreign record is refused, and left as it was
    let bytes = std::fs::read(part.join("verify.json")).unwrap();
    let other = with(&part, &["--resume", s(&part), "--cases", "lmo-po/"]);
    let mut other: Vec<&str> = other.iter().map(String::as_str).collect();
    other.remove(2); // the second --cases replaces the first
    other.remove(1);
    refused(
        &saddlefw(&other),
        &["verify.json", "--resume", "recorded with --cases"],
    );
    let foreign = dir.path().join("foreign");
    std::fs::create_dir_all(&foreign).unwrap();
    let mut edited = record.clone();
    edited["build"]["version"] = "0.0.0-elsewhere".into();
    std::fs::write(foreign.join("verify.json"), edited.to_string()).unwrap();
    let args = with(&part, &["--resume", s(&foreign)]);
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    refused(&saddlefw(&args), &["another build", "0.0.0-elsewhere"]);
    assert_eq!(std::fs::read(part.join("verify.json")).unwrap(), bytes);
    // resumed: the recorded jobs are reused (their timings too), the rest run
    let args = with(&part, &["--resume", s(&part)]);
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let o = saddlefw(&args);
    assert_eq!(o.code, 0, "{}", o.stderr);
    let resumed = json(&part.join("verify.json"));
    assert!(resumed.get("interrupted").is_none());
    assert_eq!(
        without_timings(&resumed),
        without_timings(&json(&full.join("verify.json")))
    );
    let times = |v: &serde_json::Value| -> Vec<(String, f64)> {
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
    };
    let before = times(&record);
    let after = times(&resumed);
    assert!(
        !before.is_empty(),
        "a second of CPU time completes some jobs"
    );
    for r in &before {
        assert!(after.contains(r), "recorded run {} was not reused", r.0);
    }
}

// ---------------------------------------------------------------------------------------------
// check

#[test]
fn check_interrupted_then_resumed_gives_the_same_check_json() {
    let dir = tempfile::tempdir().unwrap();
    let full = dir.path().join("full/CHECK.json");
    let part = dir.path().join("part/CHECK.json");
    let args = |out: &Path| -> Vec<String> {
        [
            "check",
            "--cases",
            "300",
            "--jobs",
            "1",
            "-q",
            "--out",
            s(out),
        ]
        .iter()
        .map(|x| x.to_string())
        .collect()
    };
    fn v(a: &[String]) -> Vec<&str> {
        a.iter().map(String::as_str).collect()
    }
    let a = args(&full);
    assert_eq!(saddlefw(&v(&a)).code, 0);
    let a = args(&part);
    let (code, err) = interrupt(&v(&a), "-INT", |pid| cpu_seconds(pid) >= 0.5);
    assert_eq!(code, Some(130), "{err}");
    let record = json(&part);
    assert_eq!(record["interrupted"]["signal"], "SIGINT", "{err}");
    let done = record["interrupted"]["done"].as_u64().unwrap() as usize;
    assert_eq!(record["shard"]["results"].as_array().unwrap().len(), done);
    // merge refuses it as a shard
    let o = saddlefw(&["merge", s(&part), "--out", s(&dir.path().join("m"))]);
    refused(&o, &["interrupted", "--resume"]);
    // another seed is refused
    let mut other = args(&part);
    other.extend([
        "--resume".into(),
        s(&part).into(),
        "--seed".into(),
        "1".into(),
    ]);
    refused(
        &saddlefw(&v(&other)),
        &["recorded with --seed 0, this run has 1"],
    );
    let mut resume = args(&part);
    resume.extend(["--resume".into(), s(&part).into()]);
    let o = saddlefw(&v(&resume));
    assert_eq!(o.code, 0, "{}", o.stderr);
    assert_eq!(std::fs::read(&part).unwrap(), std::fs::read(&full).unwrap());
}

// ---------------------------------------------------------------------------------------------
// experiment

#[test]
fn experiment_interrupted_marks_the_run_and_resume_completes_it() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("e");
    let args = [
        "experiment",
        "dl",
        "--time-limit",
        "1",
        "--algos",
        "lmo-lmo,lmo-po,sp-fw",
        "--dl-dims",
        "m=10,p=5,l=2,q=6,n=40,n_new=8",
        "-q",
        "--out",
        s(&out),
    ];
    let (code, err) = interrupt(&args, "-INT", |pid| cpu_seconds(pid) >= 0.3);
    assert_eq!(code, Some(130), "{err}");
    let record = json(&out.join("experiment.json"));
    assert!(out.join("index.html").exists());
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
    let mut other = args.to_vec();
    other[3] = "2";
    other.extend(["--resume", s(&out)]);
    refused(
        &saddlefw(&other),
        &["recorded with --time-limit 1, this run has 2"],
    );
    // resumed: the finished runs are kept as recorded, the others run
    let mut resume = args.to_vec();
    resume.extend(["--resume", s(&out)]);
    let o = saddlefw(&resume);
    assert_eq!(o.code, 0, "{}", o.stderr);
    let done = json(&out.join("experiment.json"));
    assert!(done.get("interrupted").is_none());
    for (k, r) in done["runs"].as_array().unwrap().iter().enumerate() {
        assert_ne!(r["status"], "interrupted");
        if k < first {
            assert_eq!(r, &record["runs"][k], "finished run {k} reused as recorded");
        }
    }
    // the claims are those of the final runs: re-judging the record changes nothing
    let copy = dir.path().join("copy");
    std::fs::create_dir_all(&copy).unwrap();
    std::fs::copy(out.join("experiment.json"), copy.join("experiment.json")).unwrap();
    let o = saddlefw(&["experiment", "dl", "--rerender", "-q", "--out", s(&copy)]);
    assert_eq!(o.code, 0, "{}", o.stderr);
    assert_eq!(
        json(&copy.join("experiment.json"))["claims"],
        done["claims"]
    );
}
