//! Issue 15, the Rust route: a solver written outside the crate (examples/own_solver, an
//! independent Algorithm 1) and user theorem entries, gated through the public API and the
//! CLI. Negative controls: the slowed solver, a false claim and a too-tight envelope fail;
//! malformed theorem files are refused with the field named.

#[path = "../examples/own_solver/lmo_lmo.rs"]
mod lmo_lmo;

use saddlefw::paper::user;
use saddlefw::prelude::*;
use std::process::Command;

const SQRT_STEP: &str = include_str!("../fixtures/user-theorems/sqrt-step.json");
const FALSE_CLAIM: &str = include_str!("../fixtures/user-theorems/false-claim.json");

fn example(slow: f64) -> RateCheck {
    RateCheck::builtin("lmo-lmo/")
        .tier(Tier::Quick)
        .solver_fn("example-lmo-lmo", move |req: &SolverRequest| {
            Ok(Box::new(lmo_lmo::LmoLmo::for_job(req, slow)))
        })
}

/// The faithful independent implementation passes every built-in LMO-LMO entry (quick tier:
/// random families and the stored hard instances).
#[test]
fn an_independent_algorithm_1_passes_every_lmo_lmo_entry() {
    let outcome = example(0.0).run().unwrap();
    assert_eq!(outcome.report.entries.len(), 16);
    assert!(outcome.report.entries.iter().all(|e| e.hard.is_some()));
    assert_eq!(outcome.report.solver.as_deref(), Some("example-lmo-lmo"));
    outcome.assert_passed();
}

/// Negative control: the primal step exponent +0.15 (issue 10's mildly slowed variant) fails
/// on the stored hard instances, and the assertion names gate, entry, instance and command.
#[test]
fn the_slowed_variant_fails_on_the_hard_instances() {
    let outcome = example(0.15).run().unwrap();
    assert!(!outcome.passed());
    let failures = outcome.failures();
    assert!(
        failures.iter().any(|f| f.gate.starts_with("hard-")),
        "{failures:#?}"
    );
    let msg = std::panic::catch_unwind(|| outcome.assert_passed())
        .unwrap_err()
        .downcast::<String>()
        .unwrap();
    let f = failures
        .iter()
        .find(|f| f.gate.starts_with("hard-"))
        .unwrap();
    for part in [
        f.entry.as_str(),
        f.gate.as_str(),
        "instance hard:",
        "reproduce: saddlefw run --problem hard:",
        "rerun: RateCheck",
    ] {
        assert!(msg.contains(part), "{part:?} missing from:\n{msg}");
    }
    // every reproduce line of the message runs as printed (saddlefw's own solver on the
    // instance where the slowed one failed)
    let dir = tempfile::tempdir().unwrap();
    let lines: std::collections::BTreeSet<&str> = msg
        .lines()
        .filter_map(|l| l.trim().strip_prefix("reproduce: "))
        .collect();
    assert!(!lines.is_empty());
    for cmd in lines {
        let o = crate::common::run_printed(cmd, dir.path());
        assert_eq!(o.status.code(), Some(0), "{cmd}: {o:?}");
    }
}

fn user_check(text: &str) -> RateCheck {
    RateCheck::entries(user::parse("test.json", text).unwrap()).tier(Tier::Quick)
}

/// A user theorem file with a new algorithm name, run with the crate's LMO-LMO (its
/// "solver"): the true claim passes with its envelope gated, the false claim fails the rate.
#[test]
fn a_user_claim_is_gated_and_a_false_one_fails() {
    let ok = user_check(SQRT_STEP).run().unwrap();
    ok.assert_passed();
    let primal = &ok.report.entries[0];
    assert_eq!(primal.algorithm, "fw-sqrt-step");
    assert_eq!(primal.gates.envelope, saddlefw::verify::GateStatus::Pass);
    let bad = user_check(FALSE_CLAIM).run().unwrap();
    assert!(!bad.passed());
    assert!(bad.failures().iter().all(|f| f.gate == "rate"));
    assert_eq!(bad.failures().len(), 2);
    // entries given in memory: no command reruns the check, the reproduce line runs the
    // entry's solver (lmo-lmo with the entry's a = 1/2) on the binding family's instance
    let dir = tempfile::tempdir().unwrap();
    for f in bad.failures() {
        assert!(
            f.reproduce.contains("--algo lmo-lmo") && f.reproduce.contains("a=0.5"),
            "{f}"
        );
        assert!(f.reproduce.contains(&f.instances[0]), "{f}");
        let o = crate::common::run_printed(&f.reproduce, dir.path());
        assert_eq!(o.status.code(), Some(0), "{f}: {o:?}");
    }
}

/// With saddlefw's own solver and a theorem file, the reproduce line of a failure is the
/// `saddlefw verify` command that reruns the check: run as printed it fails the same gate
/// (exit 1). Negative control: the same line with an entry id that does not exist exits 2.
#[test]
fn a_failed_check_of_a_theorem_file_reproduces_with_verify() {
    let file = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/fixtures/user-theorems/false-claim.json"
    );
    let out = RateCheck::theorems_file(file)
        .unwrap()
        .tier(Tier::Quick)
        .filter("/primal")
        .run()
        .unwrap();
    let f = &out.failures()[0];
    assert_eq!(
        f.reproduce,
        format!("saddlefw verify --tier quick --theorems {file} --cases fw-sqrt-step/c-sc/primal")
    );
    assert!(f.rerun.is_empty());
    let dir = tempfile::tempdir().unwrap();
    let o = crate::common::run_printed(&f.reproduce, dir.path());
    assert_eq!(o.status.code(), Some(1), "{o:?}");
    let v: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(dir.path().join("reports/verify/verify.json")).unwrap(),
    )
    .unwrap();
    assert_eq!(v["entries"][0]["failed_gates"], serde_json::json!(["rate"]));
    let bad = f
        .reproduce
        .replace("--cases fw-sqrt-step/", "--cases fw-sqrt-stop/");
    let o = crate::common::run_printed(&bad, dir.path());
    assert_eq!(o.status.code(), Some(2), "{o:?}");
}

/// Negative control of the user envelope gate: a bound 10^6 times too small fails it.
#[test]
fn a_too_tight_user_envelope_fails_the_envelope_gate() {
    let tight = SQRT_STEP.replace("* 100 * (T+1)", "* 1e-6 * (T+1)");
    let out = user_check(&tight).filter("/primal").run().unwrap();
    let f = out.failures();
    assert_eq!(f.len(), 1, "{f:#?}");
    assert_eq!(f[0].gate, "envelope");
}

/// The same user file through the API and the user's own solver: the factory receives the
/// entry's schedule (a = 1/2 here) and the independent solver follows it.
#[test]
fn a_user_claim_gates_a_users_solver() {
    let out = user_check(SQRT_STEP)
        .solver_fn("example-lmo-lmo", |req: &SolverRequest| {
            assert_eq!(req.entry.schedule.abc().0, 0.5);
            Ok(Box::new(lmo_lmo::LmoLmo::for_job(req, 0.0)))
        })
        .run()
        .unwrap();
    out.assert_passed();
}

/// An entry for an existing algorithm is one JSON entry and no code: the algorithm names its
/// own implementation.
#[test]
fn an_entry_for_an_existing_algorithm_is_one_json_entry() {
    let text = SQRT_STEP
        .replace(
            "\"algorithm\": \"fw-sqrt-step\",\n      \"solver\": \"lmo-lmo\",",
            "\"algorithm\": \"lmo-lmo\",",
        )
        .replace("fw-sqrt-step/", "lmo-lmo-sqrt/");
    let entries = user::parse("t.json", &text).unwrap();
    assert_eq!(
        entries[0].algorithm.solver(),
        Some(saddlefw::paper::Algorithm::LmoLmo)
    );
    RateCheck::entries(entries)
        .sizes(TierConfig {
            seeds: 2,
            t_max: 1024,
            dim_x: 8,
            dim_y: 5,
        })
        .run()
        .unwrap()
        .assert_passed();
}

/// Malformed theorem files: every error names the field (and the entry).
#[test]
fn malformed_user_files_name_the_field() {
    let cases: [(&str, &str, &str); 12] = [
        (
            "\"p\": \"1/4\",\n      \"envelope\"",
            "\"envelope\"",
            "field p: missing",
        ),
        (
            "\"p\": \"1/4\",\n      \"envelope\"",
            "\"p\": \"-1\",\n      \"envelope\"",
            "field p",
        ),
        (
            "\"setting\": \"c-sc\"",
            "\"setting\": \"c-xx\"",
            "field setting",
        ),
        ("\"label\"", "\"lable\"", "field lable: unknown field"),
        ("\"version\": 1", "\"version\": 2", "field version"),
        ("saddlefw-theorems", "theorems", "field format"),
        (
            "(T+1)^(-1/4)\"",
            "(T+1)^(-1/4) + Q\"",
            "field envelope: unknown variable \"Q\"",
        ),
        (
            "(T+1)^(-1/4)\"",
            "(T+1)^(-1/4\"",
            "field envelope: expected ')'",
        ),
        (
            "\"solver\": \"lmo-lmo\"",
            "\"solver\": \"sp-fw\"",
            "field solver",
        ),
        (
            "\"aggregate\": \"mean_0_T\"",
            "\"aggregate\": \"median\"",
            "field quantity",
        ),
        (
            "\"a\": 0.5, \"b\": 0, \"C\": 0}",
            "\"a\": 1.5, \"b\": 0, \"C\": 0}",
            "field schedule",
        ),
        (
            "fw-sqrt-step/c-sc/dual",
            "fw-sqrt-step/c-sc/primal",
            "field id: already used",
        ),
    ];
    for (from, to, want) in cases {
        assert!(SQRT_STEP.contains(from), "{from}");
        let text = SQRT_STEP.replacen(from, to, 1);
        let err = user::parse("u.json", &text).unwrap_err().to_string();
        assert!(err.contains(want), "{to:?}: {err}");
        assert!(err.starts_with("u.json: "), "{err}");
    }
    // a case is one run: its entries share one schedule
    let two = SQRT_STEP.replacen("\"a\": 0.5", "\"a\": 0.6", 1);
    let err = user::parse("u.json", &two).unwrap_err().to_string();
    assert!(
        err.contains("entry 1 (fw-sqrt-step/c-sc/dual): field schedule"),
        "{err}"
    );
}

/// The CLI route: `verify --theorems FILE` exits 0 for the true claim, 1 for the false one,
/// 2 with the field named for a malformed file (and writes nothing then).
#[test]
fn verify_theorems_exit_codes() {
    let dir = std::env::temp_dir().join(format!("saddlefw-user-theorems-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let bad = dir.join("bad.json");
    std::fs::write(
        &bad,
        SQRT_STEP.replacen("\"p\": \"1/4\",", "\"p\": \"x\",", 1),
    )
    .unwrap();
    let run = |file: &str, out: &str| {
        Command::new(env!("CARGO_BIN_EXE_saddlefw"))
            .args(["-q", "verify", "--theorems", file, "--out"])
            .arg(dir.join(out))
            .output()
            .unwrap()
    };
    let root = env!("CARGO_MANIFEST_DIR");
    let ok = run(
        &format!("{root}/fixtures/user-theorems/sqrt-step.json"),
        "ok",
    );
    assert_eq!(
        ok.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&ok.stderr)
    );
    let v: serde_json::Value =
        serde_json::from_slice(&std::fs::read(dir.join("ok/verify.json")).unwrap()).unwrap();
    assert_eq!(v["entries"][0]["algorithm"], "fw-sqrt-step");
    let no = run(
        &format!("{root}/fixtures/user-theorems/false-claim.json"),
        "no",
    );
    assert_eq!(no.status.code(), Some(1));
    let malformed = run(bad.to_str().unwrap(), "bad");
    assert_eq!(malformed.status.code(), Some(2));
    let err = String::from_utf8_lossy(&malformed.stderr);
    assert!(
        err.starts_with("error: ") && err.contains("entry 0 (fw-sqrt-step/c-sc/primal): field p"),
        "{err}"
    );
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(!dir.join("bad/verify.json").exists());
    std::fs::remove_dir_all(&dir).ok();
}

/// An entry without a built-in solver cannot run through `verify` with the crate's solvers:
/// the error says what to do.
#[test]
fn an_algorithm_without_a_solver_asks_for_one() {
    let text = SQRT_STEP.replace("\"solver\": \"lmo-lmo\",", "");
    let err = user_check(&text).run().unwrap_err().to_string();
    assert!(err.contains("has no built-in solver"), "{err}");
    assert!(err.contains("saddlefw::gate"), "{err}");
}

/// Algorithm 1 whose primal iterate turns NaN from iteration `from` on: a solver that
/// diverges part way.
struct Diverging {
    inner: lmo_lmo::LmoLmo,
    from: usize,
    t: usize,
    nan: Vec<f64>,
}

impl Solver for Diverging {
    fn name(&self) -> &str {
        "example-lmo-lmo"
    }
    fn init(&mut self, p: &dyn SaddleProblem, x0: &[f64], y0: &[f64]) {
        self.inner.init(p, x0, y0);
        self.nan = vec![f64::NAN; x0.len()];
    }
    fn step(&mut self, p: &dyn SaddleProblem, t: usize) -> StepInfo {
        self.t = t;
        self.inner.step(p, t)
    }
    fn x(&self) -> &[f64] {
        if self.t >= self.from {
            &self.nan
        } else {
            self.inner.x()
        }
    }
    fn y(&self) -> &[f64] {
        self.inner.y()
    }
}

/// A hard-instance run that diverges fails `hard-run`, and the failure says why (the
/// harness's reason: the non-finite iterate and its iteration), not only that no slope was
/// fitted. Control: the faithful solver's hard run passes on the same entry.
#[test]
fn a_diverging_hard_run_fails_hard_run_with_its_reason() {
    let check = |from: usize| {
        RateCheck::builtin("lmo-lmo/c-sc+sc/primal")
            .tier(Tier::Quick)
            .solver_fn("example-lmo-lmo", move |req: &SolverRequest| {
                Ok(Box::new(Diverging {
                    inner: lmo_lmo::LmoLmo::for_job(req, 0.0),
                    from,
                    t: 0,
                    nan: Vec::new(),
                }))
            })
            .run()
            .unwrap()
    };
    let faithful = check(usize::MAX);
    assert!(faithful.report.entries[0].hard.is_some());
    faithful.assert_passed();
    let diverging = check(30);
    let failures = diverging.failures();
    let hard_run = failures
        .iter()
        .find(|f| f.gate == "hard-run")
        .unwrap_or_else(|| panic!("hard-run must fail: {failures:#?}"));
    assert!(
        hard_run.detail.contains("non-finite") && hard_run.detail.contains("30"),
        "{hard_run:#?}"
    );
    let hard = diverging.report.entries[0].hard.as_ref().unwrap();
    assert!(hard.run_failure.as_deref().unwrap().contains("non-finite"));
}

/// The example solver, built by a factory whose caller stops the check after `stop_after`
/// builds ([`SolverFactory::stop_reason`], what the Python package's Ctrl-C uses).
struct StopAfter {
    builds: std::sync::Arc<std::sync::atomic::AtomicUsize>,
    stop_after: Option<usize>,
}

impl SolverFactory for StopAfter {
    fn name(&self) -> String {
        "example-lmo-lmo".into()
    }
    fn build(&self, req: &SolverRequest<'_>) -> saddlefw::Result<Box<dyn Solver>> {
        self.builds
            .fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        Ok(Box::new(lmo_lmo::LmoLmo::for_job(req, 0.0)))
    }
    fn stop_reason(&self) -> Option<String> {
        let n = self.builds.load(std::sync::atomic::Ordering::SeqCst);
        self.stop_after
            .filter(|&k| n > k)
            .map(|_| "the caller's stop".to_string())
    }
}

/// A caller's stop keeps the jobs finished before it (the job it cut is not kept), the report
/// says how far it got and does not pass; `RateCheck::resume` runs only the other jobs and
/// gives the uninterrupted report. Negative control: another setting is refused.
#[test]
fn a_callers_stop_keeps_finished_jobs_and_resume_completes_them() {
    let builds = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let check = |stop_after| {
        builds.store(0, std::sync::atomic::Ordering::SeqCst);
        let factory = StopAfter {
            builds: builds.clone(),
            stop_after,
        };
        RateCheck::builtin("lmo-lmo/c-sc+sc")
            .tier(Tier::Test)
            .sizes(TierConfig {
                seeds: 2,
                t_max: 256,
                dim_x: 6,
                dim_y: 4,
            })
            .jobs(1)
            .solver(factory)
    };
    let partial = check(Some(2)).run().unwrap();
    let i = partial.report.interrupted.clone().expect("interrupted");
    assert_eq!(
        (i.signal.as_str(), i.done, i.total),
        ("the caller's stop", 2, 4)
    );
    assert!(!partial.passed());
    let msg = std::panic::catch_unwind(|| partial.assert_passed())
        .unwrap_err()
        .downcast::<String>()
        .unwrap();
    assert!(
        msg.contains("interrupted by the caller's stop after 2 of 4 jobs"),
        "{msg}"
    );

    let resumed = check(None).resume(partial.report.clone());
    let outcome = resumed.run().unwrap();
    assert!(outcome.passed() && outcome.report.interrupted.is_none());
    assert_eq!(
        builds.load(std::sync::atomic::Ordering::SeqCst),
        2,
        "only the other jobs ran"
    );
    let whole = check(None).run().unwrap();
    let json = |r: &saddlefw::verify::VerifyReport| {
        saddlefw::verify::without_timings(&serde_json::from_str(&r.to_json()).unwrap())
    };
    assert_eq!(json(&outcome.report), json(&whole.report));

    let other = check(None)
        .sizes(TierConfig {
            seeds: 3,
            t_max: 256,
            dim_x: 6,
            dim_y: 4,
        })
        .resume(partial.report.clone());
    let e = other.run().unwrap_err().to_string();
    assert!(e.starts_with("the report to resume"), "{e}");
}
