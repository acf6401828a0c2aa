//! The invariant suite (issue 4): registry well-formedness, the generated docs, property tests
//! over random instances and runs (regressions persisted in fixtures/proptest-regressions/),
//! the four negative controls (each must make a named invariant fail within 100 cases and
//! shrink to an instance of dimension <= 3), and the errata the printed forms must confirm.

use proptest::prelude::*;
use proptest::test_runner::{
    Config, FileFailurePersistence, RngAlgorithm, TestCaseError, TestError, TestRng, TestRunner,
};
use saddlefw::generators::XKind;
use saddlefw::invariants::check::{
    case_spec, check_case, combos, make_spec, run_check_with, CaseOptions, CaseSpec,
};
use saddlefw::invariants::controls::CheckControl;
use saddlefw::invariants::{self, registry, Kind, COVERAGE};
use saddlefw::paper::Algorithm;
use saddlefw::solvers::Fault;

/// Random cases: any (family, setting), dimensions 1..=6, any X set, generator seed, horizon
/// 2..=60. Shrinks towards the first combination, dimension 1, seed 0 and short runs.
fn cases() -> impl Strategy<Value = CaseSpec> {
    (
        0..combos().len(),
        1usize..=6,
        1usize..=6,
        0u64..1_000_000,
        0usize..4,
        2usize..=60,
        0usize..2,
    )
        .prop_map(|(combo, dx, dy, seed, xk, horizon, variant)| {
            let x = [XKind::L1, XKind::L2, XKind::Simplex, XKind::Box][xk];
            make_spec(combo, dx, dy, seed, x, horizon, variant)
        })
}

fn deterministic_runner(cases: u32, persistence: bool) -> TestRunner {
    let mut config = Config {
        cases,
        failure_persistence: None,
        ..Config::default()
    };
    if persistence {
        config.failure_persistence = Some(Box::new(FileFailurePersistence::Direct(
            "fixtures/proptest-regressions/invariants.txt",
        )));
    }
    TestRunner::new_with_rng(config, TestRng::deterministic_rng(RngAlgorithm::ChaCha))
}

/// The property: no gating invariant is violated on the case.
fn no_gating_violation(case: &CaseSpec, opts: &CaseOptions) -> Result<(), TestCaseError> {
    let r = check_case(case, opts).map_err(|e| TestCaseError::fail(format!("case failed: {e}")))?;
    let v = r.gating_violations();
    if v.is_empty() {
        Ok(())
    } else {
        let names: Vec<&str> = v.iter().map(|x| x.invariant).collect();
        Err(TestCaseError::fail(format!(
            "violated: [{}]; first: {:?}",
            names.join(", "),
            v[0]
        )))
    }
}

#[test]
fn registry_is_well_formed() {
    let reg = registry();
    assert!(reg.len() >= 100, "registry has {} entries", reg.len());
    let mut names = std::collections::HashSet::new();
    for inv in &reg {
        assert!(names.insert(inv.name), "duplicate name {}", inv.name);
        assert!(
            inv.name
                .chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-'),
            "{} is not kebab-case",
            inv.name
        );
        assert!(!inv.statement.is_empty() && !inv.label.is_empty() && !inv.hyp.text.is_empty());
        assert_eq!(
            inv.gating,
            !matches!(inv.kind, Kind::Printed { .. }),
            "{}",
            inv.name
        );
        match inv.kind {
            Kind::Printed { corrected } => {
                let c = invariants::find(corrected).expect("corrected twin exists");
                assert_eq!(c.kind, Kind::Corrected { printed: inv.name });
            }
            Kind::Corrected { printed } => {
                let p = invariants::find(printed).expect("printed twin exists");
                assert_eq!(
                    p.kind,
                    Kind::Printed {
                        corrected: inv.name
                    }
                );
            }
            Kind::Proven => {}
        }
    }
    // the Sec. 4 mapping names only registered invariants, and covers every one of them
    let mut mapped = std::collections::HashSet::new();
    for (item, list) in COVERAGE {
        if list.starts_with("left out") || list.starts_with("not a finite") {
            continue;
        }
        for n in list.split(", ") {
            assert!(
                invariants::find(n).is_some(),
                "{item}: unknown invariant {n}"
            );
            mapped.insert(n.to_string());
        }
    }
    for inv in &reg {
        assert!(
            mapped.contains(inv.name),
            "{} is not in the Sec. 4 mapping",
            inv.name
        );
    }
}

#[test]
fn docs_are_current() {
    let want = invariants::markdown();
    let path = "docs/invariants.md";
    if std::env::var_os("SADDLEFW_BLESS").is_some() {
        std::fs::write(path, &want).unwrap();
    }
    let have = std::fs::read_to_string(path).unwrap_or_default();
    assert!(
        have == want,
        "docs/invariants.md is stale: regenerate with `saddlefw check --list --markdown > docs/invariants.md` (or SADDLEFW_BLESS=1)"
    );
}

#[test]
fn hypotheses_select_the_sequences() {
    let case = case_spec(3, 8); // a quadratic nc-c instance with the variant schedules
    let inst = case.instance.generate().unwrap();
    let mut out = Vec::new();
    for alg in [Algorithm::LmoLmo, Algorithm::LmoPo, Algorithm::PoLmo] {
        let run = crate::common::record_paper_run(&case, &inst, alg, 10);
        let holds = |n: &str| invariants::find(n).unwrap().hyp.holds_run(&run);
        out.push((
            holds("almost-recursion"),
            holds("base"),
            holds("proj-primal"),
        ));
    }
    // dual LMO lemma on Alg 1 and 3, lemma:base on Alg 2 only, primal PO lemma on Alg 3 only
    assert_eq!(
        out,
        vec![
            (true, false, false),
            (false, true, false),
            (true, false, true)
        ]
    );
}

#[test]
fn check_does_not_depend_on_threads() {
    let opts = CaseOptions::default();
    let a = run_check_with(6, 11, &opts, 1).unwrap();
    let b = run_check_with(6, 11, &opts, 3).unwrap();
    assert_eq!(
        serde_json::to_string(&a).unwrap(),
        serde_json::to_string(&b).unwrap()
    );
    assert!(a.passed(), "{}", a.table());
}

/// Every applicable gating invariant holds along runs of the real solvers. Failures shrink to
/// a minimal instance / seed / horizon and are persisted under fixtures/proptest-regressions/.
#[test]
fn applicable_invariants_hold_along_runs() {
    let mut runner = deterministic_runner(64, true);
    let opts = CaseOptions::default();
    let result = runner.run(&cases(), |case| no_gating_violation(&case, &opts));
    if let Err(e) = result {
        panic!("{e}");
    }
}

/// Runs a negative control through proptest's runner: it must fail within 100 cases, and the
/// minimal failing input must have dimension <= 3. Returns the failure message.
fn control_fails(control: CheckControl) -> String {
    let mut runner = deterministic_runner(100, false);
    let opts = control.options();
    match runner.run(&cases(), |case| no_gating_violation(&case, &opts)) {
        Ok(()) => panic!("{control:?}: no invariant failed in 100 cases"),
        Err(TestError::Fail(reason, minimal)) => {
            assert!(
                minimal.dims().0 <= 3 && minimal.dims().1 <= 3,
                "{control:?}: minimal failing instance {} has dimension > 3",
                minimal.instance
            );
            let msg = reason.to_string();
            eprintln!(
                "{control:?}: minimal failing case {}, horizon {}: {msg}",
                minimal.instance, minimal.horizon
            );
            assert!(
                registry().iter().any(|i| msg.contains(i.name)),
                "{control:?}: failure does not name an invariant: {msg}"
            );
            msg
        }
        Err(e) => panic!("{control:?}: unexpected runner error {e}"),
    }
}

#[test]
fn control_gamma_without_min_is_rejected() {
    let msg = control_fails(CheckControl::Fault(Fault::GammaUnclipped));
    assert!(msg.contains("dual-step-unit"), "{msg}");
}

#[test]
fn control_beta_ignored_is_rejected() {
    let msg = control_fails(CheckControl::Fault(Fault::BetaIgnored));
    assert!(msg.contains("almost-recursion"), "{msg}");
}

#[test]
fn control_primal_sign_flip_is_rejected() {
    let msg = control_fails(CheckControl::Fault(Fault::PrimalSignFlip));
    assert!(msg.contains("adaptive-connect"), "{msg}");
}

#[test]
fn control_wrong_sign_measure_is_rejected() {
    let msg = control_fails(CheckControl::WrongSignMeasure);
    assert!(msg.contains("gy-nonneg"), "{msg}");
}

/// A report with a control fails (the exit-1 path of `saddlefw check`).
#[test]
fn control_report_fails() {
    let r = run_check_with(
        4,
        0,
        &CheckControl::Fault(Fault::GammaUnclipped).options(),
        2,
    )
    .unwrap();
    assert!(!r.passed());
    assert!(r.table().contains("FAIL"));
}

/// The printed forms with a recorded slip: a finite violation confirms the erratum; a printed
/// formula that is only undefined (not finite) is reported as such, with the reason, never as
/// a confirmation; finite and undefined violations are counted apart in CHECK.json, in the
/// printed list and in the HTML rows. The corrected twins gate and hold.
#[test]
fn errata_are_confirmed() {
    use saddlefw::invariants::check::ErratumStatus;
    let r = run_check_with(32, 0, &CaseOptions::default(), 2).unwrap();
    assert!(r.passed(), "{}", r.table());
    let json: serde_json::Value = serde_json::to_value(&r).unwrap();
    let rows = r.errata_rows();
    let table = r.table();
    let find = |name: &str| {
        let i = r.errata.iter().position(|e| e.printed == name).unwrap();
        (&r.errata[i], &json["errata"][i], &rows[i])
    };
    // finite violations: the printed inequality is false at the witness, with finite numbers
    for name in [
        "massive-sum-1-printed",
        "zeta-last-printed",
        "strongly-concave-iterate-1-printed",
    ] {
        let (e, j, row) = find(name);
        assert_eq!(e.status, ErratumStatus::Confirmed.text(), "{name}");
        let w = e.witness.as_ref().unwrap();
        assert!(
            w.lhs.is_finite() && w.rhs.is_finite() && w.lhs > w.rhs,
            "{name}: {w:?}"
        );
        assert!(e.finite_violations > 0 && e.reason.is_none(), "{name}");
        assert_eq!(j["finite_violations"], e.finite_violations, "{name}");
        assert_eq!(row.confirmed, Some(true), "{name}");
        assert!(
            row.outcome.starts_with("erratum confirmed numerically ("),
            "{}",
            row.outcome
        );
    }
    // undefined: the printed formula is not finite (a division by zero, a non-positive
    // denominator) and never false with finite numbers on these instances
    for (name, why) in [
        ("fw-proj-dual-bound-printed", "1 - 2a + 3b = 0"),
        ("envelope-smooth-printed", "beta_t = 0"),
        ("proj-fw-general-bound-2-printed", "U_1 undefined"),
    ] {
        let (e, j, row) = find(name);
        assert_eq!(e.status, ErratumStatus::Undefined.text(), "{name}");
        assert_eq!(e.finite_violations, 0, "{name}");
        assert!(e.undefined > 0 && e.undefined == e.violations, "{name}");
        let w = e.witness.as_ref().unwrap();
        assert!(!(w.lhs.is_finite() && w.rhs.is_finite()), "{name}: {w:?}");
        assert!(
            e.reason.as_deref().unwrap().contains(why),
            "{name}: {:?}",
            e.reason
        );
        assert_eq!(j["finite_violations"], 0, "{name}");
        assert_eq!(j["undefined"], e.undefined, "{name}");
        assert_eq!(
            row.confirmed,
            Some(false),
            "{name}: undefined is not a confirmation"
        );
        assert!(
            row.outcome.starts_with("printed form undefined (") && row.outcome.contains(why),
            "{}",
            row.outcome
        );
        assert!(
            table.contains(&row.outcome),
            "{name}: the printed list has the outcome"
        );
    }
    // holds: every evaluation finite and satisfied
    let (e, _, row) = find("calculus-ii-gradient-bound");
    assert_eq!(e.status, ErratumStatus::Holds.text());
    assert_eq!((e.finite_violations, e.undefined), (0, 0));
    assert_eq!(row.confirmed, Some(false));
    assert!(table.contains("0 finite violations, 0 undefined"));
}

/// The Sec. 4 mapping has the L450 corollary of lemma:saddle (as an invariant) and the
/// existence of M_3, M_4 (lemma:compact-sc-ht (1), (2)) as a left-out item; the corollary can
/// fail (a G_Y of the wrong sign breaks it).
#[test]
fn mapping_has_saddle_corollary_and_m3_m4() {
    let item = |needle: &str| {
        COVERAGE
            .iter()
            .find(|(i, _)| i.contains(needle))
            .unwrap_or_else(|| panic!("no mapping item mentions {needle}"))
            .1
    };
    assert_eq!(item("L450"), "repeat-saddle-po");
    let inv = invariants::find("repeat-saddle-po").unwrap();
    assert!(inv.gating && inv.label.starts_with("lemma:saddle") && inv.hyp.a3);
    let m34 = item("M_3, M_4");
    assert!(m34.starts_with("not a finite inequality"), "{m34}");
    let r = run_check_with(16, 0, &CheckControl::WrongSignMeasure.options(), 2).unwrap();
    let v = r
        .invariants
        .iter()
        .find(|i| i.name == "repeat-saddle-po")
        .unwrap();
    assert!(v.cases > 0 && v.violations > 0, "{v:?}");
}

/// `saddlefw check --control NAME` through the binary: every control exits 1 and prints the
/// invariant its description names with violations; the same command without --control exits
/// 0; an unknown name is a one-line usage error (exit 2); `list` and `--help` name the controls.
#[test]
fn check_control_through_the_binary() {
    use crate::common::saddlefw;
    let ok = saddlefw(&["check", "--cases", "6"]);
    assert_eq!(ok.code, 0, "{}{}", ok.stdout, ok.stderr);
    assert!(ok.stdout.contains("PASS") && !ok.stdout.contains("NEGATIVE CONTROL"));
    for c in CheckControl::ALL {
        let o = saddlefw(&["check", "--cases", "6", "--control", c.name()]);
        assert_eq!(o.code, 1, "{}: {}{}", c.name(), o.stdout, o.stderr);
        assert!(o.stdout.contains(&format!("NEGATIVE CONTROL {}", c.name())));
        assert!(o.stdout.contains("FAIL"), "{}", c.name());
        // the first invariant the description names is in the table with violations
        let want = c.description().rsplit('(').next().unwrap();
        let want = want.split([',', ')']).next().unwrap();
        let line = o
            .stdout
            .lines()
            .find(|l| l.split_whitespace().next() == Some(want))
            .unwrap_or_else(|| panic!("{}: no row for {want}", c.name()));
        let cols: Vec<&str> = line.split_whitespace().collect();
        assert_eq!(cols[1], "yes", "{line}");
        assert!(
            cols[4].parse::<usize>().unwrap() > 0,
            "{}: {line}",
            c.name()
        );
    }
    let bad = saddlefw(&["check", "--cases", "2", "--control", "no-such-control"]);
    assert_eq!(bad.code, 2);
    assert_eq!(bad.stderr.trim().lines().count(), 1, "{}", bad.stderr);
    assert!(bad.stderr.contains("unknown control") && bad.stderr.contains("gamma-without-min"));
    let list = saddlefw(&["list"]);
    let help = saddlefw(&["check", "--help"]);
    for c in CheckControl::ALL {
        assert!(list.stdout.contains(c.name()), "list: {}", c.name());
        assert!(help.stdout.contains(c.name()), "--help: {}", c.name());
    }
}

/// A failure of a property is persisted as a regression (a `cc` line with the shrunk case)
/// and replayed first by the next run: a negative control (G_Y of the wrong sign) under
/// proptest with the persistence file in a temporary directory.
#[test]
fn failures_are_persisted_and_replayed() {
    use std::cell::RefCell;
    let dir = tempfile::tempdir().unwrap();
    let path: &'static str = Box::leak(
        dir.path()
            .join("regressions.txt")
            .to_str()
            .unwrap()
            .to_string()
            .into_boxed_str(),
    );
    let opts = CheckControl::WrongSignMeasure.options();
    // (cases evaluated in order, index of the first failing one, the result)
    let run = |seed: u8, persist: bool| {
        let config = Config {
            cases: 100,
            failure_persistence: if persist {
                Some(Box::new(FileFailurePersistence::Direct(path)))
            } else {
                None
            },
            max_shrink_iters: 500,
            ..Config::default()
        };
        let mut runner = TestRunner::new_with_rng(
            config,
            TestRng::from_seed(RngAlgorithm::ChaCha, &[seed; 32]),
        );
        let seen = RefCell::new(Vec::new());
        let first_fail = RefCell::new(None);
        let result = runner.run(&cases(), |case| {
            seen.borrow_mut().push(case.clone());
            let r = no_gating_violation(&case, &opts);
            if r.is_err() && first_fail.borrow().is_none() {
                *first_fail.borrow_mut() = Some(seen.borrow().len() - 1);
            }
            r
        });
        (seen.into_inner(), first_fail.into_inner(), result)
    };
    let (seen1, fail1, result1) = run(1, true);
    let minimal = match result1 {
        Err(TestError::Fail(_, m)) => m,
        other => panic!("the control did not fail: {other:?}"),
    };
    let fail1 = fail1.unwrap();
    let original = seen1[fail1].clone();
    assert!(
        minimal.dims().0 <= 3 && minimal.dims().1 <= 3,
        "{minimal:?}"
    );
    let text = std::fs::read_to_string(path).unwrap();
    let cc: Vec<&str> = text.lines().filter(|l| l.starts_with("cc ")).collect();
    assert_eq!(cc.len(), 1, "{text}");
    assert!(
        cc[0].contains(&format!("# shrinks to {minimal:?}")),
        "{text}"
    );
    // the next run (another seed) replays the persisted case before any new one
    let (seen2, fail2, result2) = run(2, true);
    assert!(matches!(result2, Err(TestError::Fail(..))));
    assert_eq!(
        fail2,
        Some(0),
        "the persisted case is the first one evaluated"
    );
    assert_eq!(seen2[0], original);
    // without the file, that seed starts elsewhere: the replay came from the file
    let (seen3, _, _) = run(2, false);
    assert_ne!(seen3[0], original);
}

/// Two further measure controls: the point invariants on G_X^LMO and H can fail too.
#[test]
fn measure_controls_are_rejected() {
    use saddlefw::invariants::controls::{NO_SMOOTHING_H, WRONG_SIGN_GX_LMO};
    for (m, want) in [
        (WRONG_SIGN_GX_LMO, "gx-lmo-nonneg"),
        (NO_SMOOTHING_H, "h-lower-bound"),
    ] {
        let opts = CaseOptions {
            measures: m,
            ..CaseOptions::default()
        };
        let hit = (0..8).any(|i| {
            check_case(&case_spec(5, i), &opts)
                .unwrap()
                .gating_violations()
                .iter()
                .any(|v| v.invariant == want)
        });
        assert!(hit, "{}: {want} never failed", m.name);
    }
}

/// `saddlefw check` through the CLI: the table, CHECK.json, --list, and bad input.
#[test]
fn cli_check() {
    use saddlefw::cli::main_with_args;
    let dir = tempfile::tempdir().unwrap();
    let check_to = |out: &std::path::Path| {
        main_with_args([
            "saddlefw",
            "check",
            "--cases",
            "3",
            "--seed",
            "1",
            "--out",
            out.to_str().unwrap(),
        ])
    };
    let out = dir.path().join("CHECK.json");
    assert_eq!(check_to(&out), 0);
    let v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&out).unwrap()).unwrap();
    assert_eq!(v["cases"], 3);
    assert!(v["errata"].as_array().unwrap().len() >= 10);
    // the page beside a .json file; a directory gets CHECK.json and index.html like verify
    assert!(dir.path().join("CHECK.html").is_file());
    assert!(!dir.path().join("index.html").exists());
    let sub = dir.path().join("page");
    assert_eq!(check_to(&sub), 0);
    assert_eq!(
        std::fs::read(sub.join("CHECK.json")).unwrap(),
        std::fs::read(&out).unwrap(),
        "the same report whichever form of --out"
    );
    let page = std::fs::read_to_string(sub.join("index.html")).unwrap();
    assert!(page.contains("id=\"invariants\"") && page.contains("id=\"errata\""));
    assert_eq!(main_with_args(["saddlefw", "check", "--list"]), 0);
    assert_eq!(main_with_args(["saddlefw", "check", "--cases", "0"]), 2);
}

/// Constants reported too small make the "any point / any sequence" invariants fail (no solver
/// fault can reach them).
#[test]
fn understated_constants_are_rejected() {
    use saddlefw::invariants::check::{check_instance, default_solvers};
    use saddlefw::invariants::controls::Understated;
    let mut failed = std::collections::BTreeSet::new();
    for i in 0..8 {
        let case = case_spec(9, i);
        let inst = case.instance.generate().unwrap();
        let inst = saddlefw::Instance {
            problem: Box::new(Understated {
                inner: inst.problem,
                factor: 0.1,
            }),
            ..inst
        };
        let r = check_instance(
            &inst,
            "understated",
            30,
            &default_solvers(&case),
            &CaseOptions::default(),
            i as u64,
        )
        .unwrap();
        failed.extend(r.gating_violations().into_iter().map(|v| v.invariant));
    }
    for want in [
        "calculus-iii-lipschitz",
        "calculus-v-smooth",
        "general-connect-1",
    ] {
        assert!(
            failed.contains(want),
            "{want} did not fail; failed: {failed:?}"
        );
    }
}

/// The witnesses' exact inner maximisation agrees with the certified inner solve (differential
/// test against `problems::inner`): feasible, and its value lies in the certified interval.
#[test]
fn witness_inner_maximisation_is_exact() {
    use rand::{Rng, SeedableRng};
    use saddlefw::problems::inner::y_star_certified;
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(42);
    for (name, inst) in saddlefw::invariants::witness::witness_cases().unwrap() {
        let p = inst.problem.as_ref();
        let k = p.constants();
        for _ in 0..20 {
            let z: Vec<f64> = (0..p.x_set().dim())
                .map(|_| rng.gen_range(-2.0..2.0))
                .collect();
            let mut x = vec![0.0; z.len()];
            p.x_set().project(&z, &mut x);
            let beta = if k.mu > 0.0 && rng.gen_bool(0.3) {
                0.0
            } else {
                rng.gen_range(0.01..2.0)
            };
            let exact = p.y_star(&x, beta, &inst.y0);
            let cert = y_star_certified(p, &x, beta, &inst.y0);
            assert!(p.y_set().contains(&exact.y, 1e-12), "{name}: y* infeasible");
            let v = exact.value.mid();
            let tol = 1e-9 * (1.0 + v.abs());
            assert!(
                v >= cert.value.lower - tol && v <= cert.value.upper + tol,
                "{name}: exact {v} outside certified [{}, {}]",
                cert.value.lower,
                cert.value.upper
            );
        }
    }
}
