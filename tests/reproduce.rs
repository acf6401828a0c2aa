//! Issue 34, item 7, through the binary: every reproduce command verify.json prints runs as
//! printed (random and stored hard instances, all three algorithms), and the failed gates have
//! one source of truth (`failed_gates` lists exactly the gating failures of `gates` and
//! `hard.gates`; `hard-mhat` is reported only). Negative controls: a corrupted spec in a
//! reproduce line exits 2; verify.json records with a report-only or a passing gate listed as
//! failed are rejected by the checker.

use crate::common::run_printed;
use serde_json::Value;
use std::collections::BTreeSet;
use std::path::Path;
use std::process::{Command, Output};

fn saddlefw(args: &[&str], dir: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_saddlefw"))
        .args(args)
        .current_dir(dir)
        .output()
        .unwrap()
}

/// Runs a printed `saddlefw ...` command in `dir`; it must exit 0.
#[track_caller]
fn runs_as_printed(cmd: &str, dir: &Path) {
    let o = run_printed(cmd, dir);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{cmd}: {}",
        String::from_utf8_lossy(&o.stderr)
    );
}

/// `saddlefw verify --tier quick ARGS --out DIR/NAME`: its exit code and verify.json.
fn verify(dir: &Path, name: &str, args: &[&str]) -> (i32, Value) {
    let mut all = vec!["-q", "verify", "--tier", "quick", "--out", name];
    all.extend_from_slice(args);
    let o = saddlefw(&all, dir);
    let text = std::fs::read_to_string(dir.join(name).join("verify.json"))
        .unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&o.stderr)));
    (
        o.status.code().unwrap(),
        serde_json::from_str(&text).unwrap(),
    )
}

fn strings(v: &Value) -> Vec<String> {
    v.as_array()
        .map(|a| a.iter().map(|s| s.as_str().unwrap().to_string()).collect())
        .unwrap_or_default()
}

/// Every reproduce command of a verify.json (runs and stored hard instances), deduplicated.
fn reproduce_lines(report: &Value) -> Vec<String> {
    let mut out = Vec::new();
    for e in report["entries"].as_array().unwrap() {
        for r in e["instances"].as_array().unwrap() {
            out.push(r["reproduce"].as_str().unwrap().to_string());
        }
        if e["hard"].is_object() {
            out.push(e["hard"]["reproduce"].as_str().unwrap().to_string());
        }
    }
    let mut seen = BTreeSet::new();
    out.retain(|c| seen.insert(c.clone()));
    out
}

/// Every reproduce line of a quick verify on random and stored hard instances (face and
/// generator families; LMO-LMO, LMO-PO and PO-LMO with its appendix step and sigma) runs as
/// printed and exits 0; the hard instance's run gives the stored run's quantity. A corrupted
/// spec in such a line exits 2 with one error line.
#[test]
fn every_reproduce_line_runs_as_printed() {
    let dir = tempfile::tempdir().unwrap();
    let (code, report) = verify(dir.path(), "v", &["--cases", "c-sc/primal"]);
    assert_eq!(code, 0);
    check_one_source_of_truth(&report).unwrap();
    let lines = reproduce_lines(&report);
    let hard: Vec<&String> = lines.iter().filter(|c| c.contains("hard:")).collect();
    assert_eq!(hard.len(), 6, "one per entry: {lines:#?}");
    assert!(lines.len() > 40, "the random runs too: {}", lines.len());
    assert!(lines
        .iter()
        .any(|c| c.contains("'po-lmo(") && c.contains("--sigma")));
    for cmd in &lines {
        runs_as_printed(cmd, dir.path());
    }
    // the last one run (a hard instance: they come last per entry) wrote the run it names
    let run: Value =
        serde_json::from_str(&std::fs::read_to_string(dir.path().join("RUN.json")).unwrap())
            .unwrap();
    assert!(run["problem"].as_str().unwrap().starts_with("hard:"));
    // the hard run reproduces the stored run: G^Opt(x_T) of lmo-po/c-sc/primal at T
    let e = report["entries"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["id"] == "lmo-po/c-sc/primal")
        .unwrap();
    let cmd = e["hard"]["reproduce"].as_str().unwrap();
    assert_eq!(run_printed(cmd, dir.path()).status.code(), Some(0));
    let run: Value =
        serde_json::from_str(&std::fs::read_to_string(dir.path().join("RUN.json")).unwrap())
            .unwrap();
    let last = run["checkpoints"].as_array().unwrap().last().unwrap();
    let want = e["hard"]["series"].as_array().unwrap().last().unwrap()[1]
        .as_f64()
        .unwrap();
    let got = last["gap_opt"].as_f64().unwrap();
    assert!((got - want).abs() <= 1e-12 * want, "{got} vs {want}");
    // negative controls: a corrupted hard spec and a corrupted generator spec
    let broken = cmd.replace("hard:lmo-po/c-sc/primal", "hard:lmo-po/c-sc/primel");
    let gen = lines.iter().find(|c| c.contains(",seed=")).unwrap();
    let broken_gen = gen.replacen(",seed=", ",seed=x", 1);
    for (bad, why) in [
        (broken, "no stored hardest instance"),
        (broken_gen, "is not a non-negative integer"),
    ] {
        let o = run_printed(&bad, dir.path());
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{bad}: {err}");
        assert!(err.starts_with("error: ") && err.contains(why), "{err}");
        assert_eq!(err.lines().count(), 1, "{err}");
    }
}

/// `run --problem` takes a fixture file as well as `hard:ENTRY`: the same instance and run.
#[test]
fn a_fixture_file_and_its_hard_name_run_the_same_instance() {
    let dir = tempfile::tempdir().unwrap();
    let file = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/fixtures/hard/lmo-lmo-c-c-dual.json"
    );
    let mut runs = Vec::new();
    for (problem, out) in [("hard:lmo-lmo/c-c/dual", "a.json"), (file, "b.json")] {
        let o = saddlefw(
            &[
                "-q",
                "run",
                "--problem",
                problem,
                "--algo",
                "lmo-lmo",
                "--iters",
                "300",
                "--out",
                out,
            ],
            dir.path(),
        );
        assert_eq!(
            o.status.code(),
            Some(0),
            "{}",
            String::from_utf8_lossy(&o.stderr)
        );
        let v: Value =
            serde_json::from_str(&std::fs::read_to_string(dir.path().join(out)).unwrap()).unwrap();
        runs.push(v["checkpoints"].clone());
    }
    let strip = |v: &Value| saddlefw::verify::without_timings(v);
    assert_eq!(strip(&runs[0]), strip(&runs[1]));
    // --seed belongs to generator specs
    let o = saddlefw(
        &[
            "run",
            "--problem",
            "hard:lmo-lmo/c-c/dual",
            "--algo",
            "lmo-lmo",
            "--iters",
            "3",
            "--seed",
            "4",
            "--out",
            "c.json",
        ],
        dir.path(),
    );
    assert_eq!(o.status.code(), Some(2));
}

/// What a gate's status is in an entry record: `gates.X`, or `hard.gates.X` for `hard-X`.
fn status<'a>(e: &'a Value, gate: &str) -> Option<&'a str> {
    match gate.strip_prefix("hard-") {
        Some(g) => e["hard"]["gates"][g].as_str(),
        None => e["gates"][gate].as_str(),
    }
}

/// The one-source-of-truth rules of a verify.json: each entry's `failed_gates` and
/// `reported_gates` are disjoint and list only gates whose status is `fail`; every failed
/// gate is in one of them (disputed entries excepted); `hard-mhat` is never in
/// `failed_gates`; the hard record's lists are the entry's hard part; a verdict is `fail`
/// exactly when `failed_gates` is not empty; the questions' failures are those gates.
fn check_one_source_of_truth(report: &Value) -> Result<(), String> {
    for e in report["entries"].as_array().unwrap() {
        let id = e["id"].as_str().unwrap();
        let failed = strings(&e["failed_gates"]);
        let reported = strings(&e["reported_gates"]);
        let disputed = e["verdict"] == "disputed" || e["hard"]["disputed"] == true;
        for g in failed.iter().chain(&reported) {
            if status(e, g) != Some("fail") {
                return Err(format!(
                    "{id}: {g} is listed but its gate shows {:?}",
                    status(e, g)
                ));
            }
        }
        if let Some(g) = failed.iter().find(|g| reported.contains(g)) {
            return Err(format!("{id}: {g} is both failed and reported"));
        }
        if failed.iter().any(|g| g == "hard-mhat") {
            return Err(format!(
                "{id}: hard-mhat (reported only) is in failed_gates"
            ));
        }
        let mut all: Vec<String> = e["gates"].as_object().unwrap().keys().cloned().collect();
        if let Some(h) = e["hard"]["gates"].as_object() {
            all.extend(h.keys().map(|k| format!("hard-{k}")));
        }
        for g in all.iter().filter(|g| status(e, g) == Some("fail")) {
            if !disputed && !failed.contains(g) && !reported.contains(g) {
                return Err(format!("{id}: {g} failed but is in neither list"));
            }
        }
        if e["hard"].is_object() && !disputed {
            for (list, of_entry) in [("failed_gates", &failed), ("reported_gates", &reported)] {
                let hard = strings(&e["hard"][list]);
                let entry_hard: Vec<&String> =
                    of_entry.iter().filter(|g| g.starts_with("hard-")).collect();
                if hard.iter().collect::<Vec<_>>() != entry_hard {
                    return Err(format!(
                        "{id}: hard.{list} {hard:?} vs the entry's {entry_hard:?}"
                    ));
                }
            }
        }
        if !disputed && (e["verdict"] == "fail") != !failed.is_empty() {
            return Err(format!(
                "{id}: verdict {} with failed_gates {failed:?}",
                e["verdict"]
            ));
        }
        if e["tightness"].is_object() {
            let t = &e["tightness"];
            let says_violated = t["note"].as_str().unwrap().contains("violated");
            if t["disputed"] != disputed || says_violated != disputed {
                return Err(format!(
                    "{id}: tightness disputed {} ({:?}) vs verdict {}",
                    t["disputed"], t["note"], e["verdict"]
                ));
            }
        }
        let mut answered = BTreeSet::new();
        for (_, a) in e["answers"].as_object().unwrap() {
            answered.extend(strings(&a["failed"]));
        }
        let listed: BTreeSet<String> = failed
            .iter()
            .chain(reported.iter().filter(|g| *g != "hard-mhat"))
            .cloned()
            .collect();
        if !disputed && answered != listed {
            return Err(format!(
                "{id}: the questions' failures {answered:?} vs {listed:?}"
            ));
        }
    }
    Ok(())
}

/// On real verify output with failures (a slowed primal step: hard-rate, schedule) and with a
/// report-only failure (PO-LMO's beta constant x2: hard-mhat on the nc-c dual entries), the
/// failed gates have one source of truth. Negative controls: the checker rejects the same
/// records with `hard-mhat` moved into `failed_gates`, and with `hard-run` listed where the
/// hard gates show `run: pass`.
#[test]
fn failed_gates_have_one_source_of_truth() {
    let dir = tempfile::tempdir().unwrap();
    let (code, slowed) = verify(
        dir.path(),
        "slowed",
        &[
            "--cases",
            "lmo-lmo/c-sc+sc",
            "--control",
            "tau-exponent+0.15",
        ],
    );
    assert_eq!(code, 1);
    check_one_source_of_truth(&slowed).unwrap();
    let hard_rate = slowed["entries"]
        .as_array()
        .unwrap()
        .iter()
        .any(|e| strings(&e["failed_gates"]).contains(&"hard-rate".to_string()));
    assert!(hard_rate, "the slowed variant fails hard-rate");
    let (code, mhat) = verify(
        dir.path(),
        "mhat",
        &["--cases", "po-lmo/nc-c", "--control", "beta-scale*2"],
    );
    assert_eq!(code, 0, "hard-mhat does not gate");
    check_one_source_of_truth(&mhat).unwrap();
    let entries = mhat["entries"].as_array().unwrap();
    let i = entries
        .iter()
        .position(|e| strings(&e["reported_gates"]).contains(&"hard-mhat".to_string()))
        .expect("a reported hard-mhat");
    // negative controls
    let mut moved = mhat.clone();
    let e = &mut moved["entries"][i];
    e["reported_gates"] = serde_json::json!([]);
    e["hard"]["reported_gates"] = serde_json::json!([]);
    e["failed_gates"] = serde_json::json!(["hard-mhat"]);
    e["hard"]["failed_gates"] = serde_json::json!(["hard-mhat"]);
    e["verdict"] = "fail".into();
    let err = check_one_source_of_truth(&moved).unwrap_err();
    assert!(err.contains("hard-mhat"), "{err}");
    let mut run = mhat.clone();
    let e = &mut run["entries"][i];
    assert_eq!(e["hard"]["gates"]["run"], "pass");
    e["failed_gates"] = serde_json::json!(["hard-run"]);
    e["hard"]["failed_gates"] = serde_json::json!(["hard-run"]);
    let err = check_one_source_of_truth(&run).unwrap_err();
    assert!(
        err.contains("hard-run is listed but its gate shows"),
        "{err}"
    );
    // a hard run whose quantity is at the rounding floor throughout (a sign flip of the primal
    // step on lmo-po/nc-sc/dual: G_Y = -5.6e-17 at every T) is not slow: hard-run passes,
    // with a note, and the entry is judged by its other gates; the faithful runs above have
    // fits and no such note (the control)
    let (_, flipped) = verify(
        dir.path(),
        "flipped",
        &[
            "--cases",
            "lmo-po/nc-sc/dual",
            "--control",
            "primal-sign-flip",
        ],
    );
    check_one_source_of_truth(&flipped).unwrap();
    let e = &flipped["entries"][0];
    assert_eq!(e["hard"]["gates"]["run"], "pass", "{e:#}");
    assert!(e["hard"]["p_hat"].is_null() && e["hard"]["run_failure"].is_null());
    let floor_note = |e: &Value| {
        strings(&e["notes"])
            .iter()
            .any(|n| n.contains("at the rounding floor throughout"))
    };
    assert!(floor_note(e), "{e:#}");
    for e in mhat["entries"].as_array().unwrap() {
        assert!(e["hard"]["p_hat"].is_number() && !floor_note(e), "{e:#}");
    }
    // a tightness record that calls a failed solver's slow run a dispute of the paper
    let mut tight = slowed.clone();
    let i = tight["entries"]
        .as_array()
        .unwrap()
        .iter()
        .position(|e| e["verdict"] == "fail" && e["tightness"].is_object())
        .expect("a failed entry with a tightness record");
    tight["entries"][i]["tightness"]["disputed"] = true.into();
    let err = check_one_source_of_truth(&tight).unwrap_err();
    assert!(err.contains("tightness disputed"), "{err}");
}

/// The console shows the three questions apart, and for a failed entry its answers and a
/// reproduce command that runs as printed; a passing run lists no failed entry (negative
/// control: the same case without the fault).
#[test]
fn the_console_answers_the_three_questions_and_prints_a_reproduce_command() {
    let dir = tempfile::tempdir().unwrap();
    let console = |name: &str, extra: &[&str]| -> (i32, String) {
        let mut args = vec!["verify", "--tier", "quick", "--cases", "lmo-lmo/c-sc+sc"];
        args.extend_from_slice(&["--out", name]);
        args.extend_from_slice(extra);
        let o = saddlefw(&args, dir.path());
        (
            o.status.code().unwrap(),
            String::from_utf8_lossy(&o.stdout).into_owned(),
        )
    };
    let row = |out: &str, q: &str| -> String {
        out.lines()
            .find(|l| l.trim_start().starts_with(q))
            .unwrap_or_else(|| panic!("no row {q}: {out}"))
            .to_string()
    };
    let (code, out) = console("slowed", &["--control", "tau-exponent+0.15"]);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("three questions"), "{out}");
    assert!(!row(&out, "rate evidence").contains(", 0 fail"), "{out}");
    assert!(row(&out, "theorem conformance").contains("gates"), "{out}");
    assert!(
        row(&out, "agreement with saddlefw's reference").contains("reported only"),
        "{out}"
    );
    let failed = out.lines().any(|l| {
        l.trim_start().starts_with("lmo-lmo/c-sc+sc/primal: ") && l.contains("rate evidence: fail")
    });
    assert!(failed, "{out}");
    // the hard rate failed at T and its confirmation run says so
    assert!(
        out.lines()
            .any(|l| l.contains("lmo-lmo/c-sc+sc/primal: p_hat")
                && l.contains("confirmed, hard-rate fails")),
        "{out}"
    );
    let cmd = out
        .lines()
        .find_map(|l| l.trim_start().strip_prefix("reproduce: "))
        .unwrap_or_else(|| panic!("no reproduce line: {out}"));
    assert!(cmd.contains("hard:lmo-lmo/c-sc+sc/"), "{cmd}");
    runs_as_printed(cmd, dir.path());
    // negative control: the faithful run has no failed answer and no reproduce line
    let (code, out) = console("faithful", &[]);
    assert_eq!(code, 0, "{out}");
    assert!(
        row(&out, "rate evidence").contains(" 2 pass, 0 fail"),
        "{out}"
    );
    assert!(
        row(&out, "theorem conformance").contains(" 2 pass, 0 fail"),
        "{out}"
    );
    assert!(!out.contains("reproduce: "), "{out}");
}
