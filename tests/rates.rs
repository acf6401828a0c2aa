//! Theorem-level regression checks: one test per theorem case (claims.md 3.1), named after
//! it, running the `verify` check at the reduced `test` tier (3 seeds per family, T = 2^12);
//! negative controls (a broken variant of every algorithm fails a gate, the real solver
//! passes the same gate); determinism across worker counts.

use saddlefw::fit::{Baselines, Verdict};
use saddlefw::solvers::Fault;
use saddlefw::theorems::builtin;
use saddlefw::verify::controls::Control;
use saddlefw::verify::{self, GateStatus, Tier, VerifyOptions, VerifyReport};
use std::collections::BTreeSet;

fn run(opts: &VerifyOptions) -> VerifyReport {
    verify::run(&builtin(), opts).unwrap()
}

fn test_tier(filter: &str) -> VerifyOptions {
    VerifyOptions::new(Tier::Test).filter(filter)
}

/// The reduced check of one theorem case: both quantities present, every gate passes, and at
/// least one family has a fit window above the floating-point floor.
fn check_case(case: &str) {
    let report = run(&test_tier(&format!("{case}/")));
    let ids: Vec<&str> = report.entries.iter().map(|e| e.id.as_str()).collect();
    assert_eq!(
        ids,
        [format!("{case}/primal"), format!("{case}/dual")],
        "{case}: both quantities"
    );
    for e in &report.entries {
        assert!(
            matches!(e.verdict, Verdict::Pass | Verdict::Disputed),
            "{}: verdict {:?}, failed gates {:?}\n{}",
            e.id,
            e.verdict,
            e.failed_gates,
            report.table()
        );
        assert!(
            e.floor_free_family.is_some(),
            "{}: every family reached the floor\n{}",
            e.id,
            report.table()
        );
        assert!(e.p_hat.is_some() && e.ci.is_some() && e.window.is_some());
    }
}

macro_rules! rate_tests {
    ($($name:ident => $case:literal,)*) => {
        $(
            #[test]
            fn $name() {
                check_case($case);
            }
        )*
        /// Every case of the table has its test above.
        const CASES: &[&str] = &[$($case),*];
    };
}

rate_tests! {
    rate_lmo_lmo_nc_c => "lmo-lmo/nc-c",
    rate_lmo_lmo_nc_sc => "lmo-lmo/nc-sc",
    rate_lmo_lmo_nc_c_sc_y => "lmo-lmo/nc-c+sc",
    rate_lmo_lmo_nc_sc_sc_y => "lmo-lmo/nc-sc+sc",
    rate_lmo_lmo_c_c => "lmo-lmo/c-c",
    rate_lmo_lmo_c_sc => "lmo-lmo/c-sc",
    rate_lmo_lmo_c_c_sc_y => "lmo-lmo/c-c+sc",
    rate_lmo_lmo_c_sc_sc_y => "lmo-lmo/c-sc+sc",
    rate_lmo_po_nc_c => "lmo-po/nc-c",
    rate_lmo_po_nc_sc => "lmo-po/nc-sc",
    rate_lmo_po_c_c => "lmo-po/c-c",
    rate_lmo_po_c_sc => "lmo-po/c-sc",
    rate_po_lmo_nc_c => "po-lmo/nc-c",
    rate_po_lmo_nc_sc => "po-lmo/nc-sc",
    rate_po_lmo_nc_c_sc_y => "po-lmo/nc-c+sc",
    rate_po_lmo_nc_sc_sc_y => "po-lmo/nc-sc+sc",
    rate_po_lmo_c_c => "po-lmo/c-c",
    rate_po_lmo_c_sc => "po-lmo/c-sc",
    rate_po_lmo_c_sc_sc_y => "po-lmo/c-sc+sc",
}

#[test]
fn every_theorem_case_has_a_rate_test() {
    let table: BTreeSet<String> = builtin().into_iter().map(|e| e.case).collect();
    let tested: BTreeSet<String> = CASES.iter().map(|s| s.to_string()).collect();
    assert_eq!(table, tested);
}

// ---- negative controls ---------------------------------------------------------------------

/// Runs the real solver and `control` on the entries matching `filter`; asserts that the real
/// solver passes `gate` on every entry and that the control fails it on at least one.
fn control_fails(filter: &str, control: Control, gate: &str) {
    let status = |r: &VerifyReport| -> Vec<(String, GateStatus)> {
        r.entries
            .iter()
            .map(|e| {
                let g = &e.gates;
                let s = match gate {
                    "rate" => g.rate,
                    "envelope" => g.envelope,
                    "mhat" => g.mhat,
                    "baseline" => g.baseline,
                    "run" => g.run,
                    _ => unreachable!("{gate}"),
                };
                (e.id.clone(), s)
            })
            .collect()
    };
    let real = run(&test_tier(filter));
    for (id, s) in status(&real) {
        assert_eq!(
            s,
            GateStatus::Pass,
            "real solver, {id}: gate {gate}\n{}",
            real.table()
        );
    }
    let broken = run(&test_tier(filter).control(control));
    assert_eq!(
        broken.control.as_deref(),
        Some(control.to_string().as_str())
    );
    assert!(
        status(&broken).iter().any(|(_, s)| *s == GateStatus::Fail),
        "{control} must fail the {gate} gate on {filter}\n{}",
        broken.table()
    );
    assert!(broken.failed, "a failed gate fails the run");
    assert!(!real.failed);
}

#[test]
fn control_lmo_lmo_constant_tau_fails_the_rate_gate() {
    control_fails("lmo-lmo/c-sc/", Control::Fault(Fault::ConstantTau), "rate");
}

#[test]
fn control_lmo_lmo_primal_sign_flip_fails_rate_and_envelope() {
    control_fails(
        "lmo-lmo/c-sc+sc/primal",
        Control::Fault(Fault::PrimalSignFlip),
        "rate",
    );
    control_fails(
        "lmo-lmo/c-sc+sc/primal",
        Control::Fault(Fault::PrimalSignFlip),
        "envelope",
    );
}

#[test]
fn control_lmo_lmo_beta_ignored_fails_the_mhat_gate() {
    // beta_t dropped where the theorem needs it (mu = 0): H_t no longer decays like the lemma says.
    control_fails(
        "lmo-lmo/c-c+sc/",
        Control::Fault(Fault::BetaIgnored),
        "mhat",
    );
}

#[test]
fn control_lmo_po_constant_tau_fails_rate_and_envelope() {
    control_fails("lmo-po/c-sc/", Control::Fault(Fault::ConstantTau), "rate");
    control_fails(
        "lmo-po/c-sc/dual",
        Control::Fault(Fault::ConstantTau),
        "envelope",
    );
}

#[test]
fn control_lmo_po_primal_sign_flip_fails_rate_and_envelope() {
    control_fails(
        "lmo-po/nc-sc/primal",
        Control::Fault(Fault::PrimalSignFlip),
        "rate",
    );
    control_fails(
        "lmo-po/nc-sc/primal",
        Control::Fault(Fault::PrimalSignFlip),
        "envelope",
    );
}

#[test]
fn control_po_lmo_primal_sign_flip_fails_rate_and_mhat() {
    control_fails(
        "po-lmo/nc-sc+sc/primal",
        Control::Fault(Fault::PrimalSignFlip),
        "rate",
    );
    control_fails(
        "po-lmo/nc-sc+sc/primal",
        Control::Fault(Fault::PrimalSignFlip),
        "mhat",
    );
}

#[test]
fn control_baseline_gate_catches_a_drop_the_theorem_allows() {
    // A baseline far above the observed exponent: the theorem gate passes, the regression
    // gate fails; the same run with the observed exponents as baselines passes.
    let filter = "lmo-lmo/nc-c/primal";
    let observed = run(&test_tier(filter)).baselines();
    let p_hat = observed[filter];
    let mut opts = test_tier(filter);
    opts.gate_baselines = true;
    opts.baselines = Baselines::from([(filter.to_string(), p_hat + 0.5)]);
    let r = run(&opts);
    assert_eq!(r.entries[0].gates.rate, GateStatus::Pass);
    assert_eq!(r.entries[0].gates.baseline, GateStatus::Fail);
    assert!(r.failed);
    opts.baselines = observed;
    let r = run(&opts);
    assert_eq!(r.entries[0].gates.baseline, GateStatus::Pass);
    assert!(!r.failed);
}

#[test]
fn controls_parse_and_print() {
    for c in Control::FAULTS {
        assert_eq!(c.to_string().parse::<Control>().unwrap(), c);
    }
    assert_eq!(
        "tau-exponent+0.15".parse::<Control>().unwrap(),
        Control::TauExponent(0.15)
    );
    assert!("frozen".parse::<Control>().is_err());
    assert!("tau-exponentx".parse::<Control>().is_err());
}

// ---- runner properties ---------------------------------------------------------------------

#[test]
fn verify_json_is_identical_for_any_worker_count() {
    let filter = "po-lmo/nc-c/";
    let mut a = test_tier(filter);
    a.jobs = Some(1);
    let mut b = test_tier(filter);
    b.jobs = Some(2);
    let ja: serde_json::Value = serde_json::from_str(&run(&a).to_json()).unwrap();
    let jb: serde_json::Value = serde_json::from_str(&run(&b).to_json()).unwrap();
    assert_ne!(ja, jb, "timings differ between runs");
    let (ta, tb) = (verify::without_timings(&ja), verify::without_timings(&jb));
    assert_eq!(
        serde_json::to_string_pretty(&ta).unwrap(),
        serde_json::to_string_pretty(&tb).unwrap()
    );
}

/// Every key of verify.json that contains "time" holds a timing, and every timing does.
#[test]
fn only_timings_are_removed() {
    let j: serde_json::Value =
        serde_json::from_str(&run(&test_tier("lmo-po/c-sc/dual")).to_json()).unwrap();
    fn keys(v: &serde_json::Value, out: &mut BTreeSet<String>) {
        match v {
            serde_json::Value::Object(m) => {
                for (k, v) in m {
                    out.insert(k.clone());
                    keys(v, out);
                }
            }
            serde_json::Value::Array(a) => a.iter().for_each(|v| keys(v, out)),
            _ => {}
        }
    }
    let mut all = BTreeSet::new();
    keys(&j, &mut all);
    let timed: Vec<&String> = all.iter().filter(|k| k.contains("time")).collect();
    assert_eq!(timed, ["time_s", "wall_time_s"]);
    let mut left = BTreeSet::new();
    keys(&verify::without_timings(&j), &mut left);
    assert!(left.iter().all(|k| !k.contains("time")));
    for k in [
        "tier",
        "seeds",
        "entries",
        "p_hat",
        "ci",
        "window",
        "verdict",
        "instances",
    ] {
        assert!(left.contains(k), "{k}");
    }
}

#[test]
fn seeds_come_from_a_stable_hash_of_the_job() {
    // FNV-1a 64 of "lmo-lmo/nc-c|quadratic:dx=20,dy=10,x=l1|0" (independent of run order).
    let s = verify::derived_seed("lmo-lmo/nc-c", "quadratic:dx=20,dy=10,x=l1", 0, 0);
    assert_eq!(s, fnv1a(b"lmo-lmo/nc-c|quadratic:dx=20,dy=10,x=l1|0"));
    assert_ne!(
        s,
        verify::derived_seed("lmo-lmo/nc-c", "quadratic:dx=20,dy=10,x=l1", 1, 0)
    );
    // a filtered run reproduces the unfiltered numbers of its entries
    let one = run(&test_tier("lmo-po/c-c/dual"));
    let case = run(&test_tier("lmo-po/c-c/"));
    let a = serde_json::to_value(&one.entries[0]).unwrap();
    let b = serde_json::to_value(&case.entries[1]).unwrap();
    assert_eq!(verify::without_timings(&a), verify::without_timings(&b));
}

fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf29ce484222325u64, |h, &b| {
        (h ^ b as u64).wrapping_mul(0x100000001b3)
    })
}

#[test]
fn instances_satisfy_exactly_the_entry_assumptions() {
    let cfg = Tier::Test.config();
    for e in builtin() {
        let fams = verify::families_for(&e, &cfg);
        assert!(fams.len() >= 2, "{}: several families", e.id);
        for f in fams {
            let inst = f.spec(e.setting(), 1).generate().unwrap();
            assert_eq!(
                inst.problem.assumptions().setting(),
                e.setting,
                "{} on {}",
                e.id,
                f.label()
            );
            if e.quantity.measure == saddlefw::theorems::Measure::GapOpt {
                assert!(inst.problem.f_star().is_some(), "{}: G^Opt needs f*", e.id);
            }
        }
    }
}

#[test]
fn unknown_filters_and_bad_tiers_are_errors() {
    let err = verify::run(&builtin(), &test_tier("no-such-case")).unwrap_err();
    assert!(err.to_string().contains("no-such-case"), "{err}");
    assert!("medium".parse::<Tier>().is_err());
    assert_eq!("full".parse::<Tier>().unwrap(), Tier::Full);
}

// ---- the command line ----------------------------------------------------------------------

fn saddlefw(args: &[&str]) -> std::process::Output {
    std::process::Command::new(env!("CARGO_BIN_EXE_saddlefw"))
        .args(args)
        .output()
        .unwrap()
}

#[test]
fn cli_verify_writes_reports_and_exits_1_on_a_failed_gate() {
    let dir = tempfile::tempdir().unwrap();
    let out = |name: &str| dir.path().join(name).to_string_lossy().to_string();
    let base = ["verify", "--cases", "lmo-po/c-sc/dual", "--quiet"];
    let ok = saddlefw(&[&base[..], &["--out", &out("ok")]].concat());
    assert_eq!(
        ok.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&ok.stderr)
    );
    for f in ["verify.json", "index.html"] {
        assert!(dir.path().join("ok").join(f).is_file(), "{f}");
    }
    let again = saddlefw(&[&base[..], &["--out", &out("again"), "--jobs", "1"]].concat());
    assert_eq!(again.status.code(), Some(0));
    let read = |d: &str| -> serde_json::Value {
        let text = std::fs::read_to_string(dir.path().join(d).join("verify.json")).unwrap();
        verify::without_timings(&serde_json::from_str(&text).unwrap())
    };
    assert_eq!(
        read("ok"),
        read("again"),
        "deterministic apart from timings"
    );
    let bad = saddlefw(
        &[
            &base[..],
            &["--out", &out("bad"), "--control", "constant-tau"],
        ]
        .concat(),
    );
    assert_eq!(bad.status.code(), Some(1), "a failed gate exits with 1");
    let j = read("bad");
    assert_eq!(j["entries"][0]["verdict"], "fail");
    assert_eq!(j["control"], "constant-tau");
    let usage = saddlefw(&["verify", "--tier", "medium", "--out", &out("x")]);
    assert_eq!(usage.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&usage.stderr).contains("--tier"));
    let usage = saddlefw(&["verify", "--cases", "nothing-like-this", "--out", &out("x")]);
    assert_eq!(usage.status.code(), Some(2));
    let usage = saddlefw(&[
        "verify",
        "--write-baselines",
        "--tier",
        "full",
        "--out",
        &out("x"),
    ]);
    assert_eq!(usage.status.code(), Some(2));
}

#[test]
fn cli_write_baselines_updates_only_the_selected_entries() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("baselines.json");
    std::fs::write(&file, "{\"lmo-lmo/nc-c/primal\": 0.5}\n").unwrap();
    let o = saddlefw(&[
        "verify",
        "--cases",
        "lmo-po/c-sc/dual",
        "--write-baselines",
        "--baselines",
        file.to_str().unwrap(),
        "--out",
        dir.path().join("v").to_str().unwrap(),
        "--quiet",
    ]);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let b = saddlefw::fit::load_baselines(&file).unwrap();
    assert_eq!(b.len(), 2);
    assert_eq!(b["lmo-lmo/nc-c/primal"], 0.5);
    assert!((b["lmo-po/c-sc/dual"] - 1.0).abs() < 0.1);
    // a --baselines file that does not exist is an input error (not a silent fallback to the
    // built-in copy), except where --write-baselines creates it
    let missing = dir.path().join("missing.json");
    let v = dir.path().join("v2");
    let args = |write: bool| {
        let mut a = vec![
            "verify",
            "--cases",
            "lmo-po/c-sc/dual",
            "--quiet",
            "--baselines",
            missing.to_str().unwrap(),
            "--out",
            v.to_str().unwrap(),
        ];
        if write {
            a.push("--write-baselines");
        }
        saddlefw(&a)
    };
    let o = args(false);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("missing.json"));
    assert_eq!(args(true).status.code(), Some(0));
    assert!(missing.is_file());
}

mod props {
    use proptest::prelude::*;
    use saddlefw::verify::without_timings;
    use serde_json::{json, Value};

    fn value() -> impl Strategy<Value = Value> {
        let leaf = prop_oneof![
            any::<f64>()
                .prop_filter("finite", |v| v.is_finite())
                .prop_map(|v| json!(v)),
            "[a-z_]{0,8}".prop_map(Value::String),
        ];
        leaf.prop_recursive(4, 32, 4, |inner| {
            prop_oneof![
                prop::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
                prop::collection::btree_map(
                    prop_oneof!["[a-z_]{1,8}", "[a-z_]{0,3}time[a-z_]{0,3}"],
                    inner,
                    0..4
                )
                .prop_map(|m| Value::Object(m.into_iter().collect())),
            ]
        })
    }

    fn has_time_key(v: &Value) -> bool {
        match v {
            Value::Object(m) => m.iter().any(|(k, v)| k.contains("time") || has_time_key(v)),
            Value::Array(a) => a.iter().any(has_time_key),
            _ => false,
        }
    }

    proptest! {
        #![proptest_config(crate::common::config(256, "rates.txt"))]
        /// `without_timings` removes every key containing "time", keeps everything else, and is
        /// idempotent.
        #[test]
        fn without_timings_removes_exactly_the_timings(v in value()) {
            let w = without_timings(&v);
            prop_assert!(!has_time_key(&w));
            prop_assert_eq!(&without_timings(&w), &w);
            if !has_time_key(&v) {
                prop_assert_eq!(&w, &v);
            }
        }
    }
}

/// Where the log factor's allowance reaches p (po-lmo/nc-c at the quick horizon), no exponent
/// can fail the rate gate: the entry says so in its notes; an entry with room below p does not.
#[test]
fn a_rate_gate_that_cannot_fail_says_so() {
    let table = builtin();
    let note = "the rate gate cannot fail at this horizon";
    let mut opts = VerifyOptions::new(Tier::Quick).filter("po-lmo/nc-c/primal");
    opts.hard = None;
    let r = verify::run(&table, &opts).unwrap();
    let e = &r.entries[0];
    assert!(
        e.p - e.tol.unwrap() <= 0.0,
        "precondition: tol {:?} >= p {}",
        e.tol,
        e.p
    );
    assert!(e.notes.iter().any(|n| n.contains(note)), "{:?}", e.notes);
    let mut opts = VerifyOptions::new(Tier::Quick).filter("lmo-po/c-sc/dual");
    opts.hard = None;
    let r = verify::run(&table, &opts).unwrap();
    let e = &r.entries[0];
    assert!(e.p - e.tol.unwrap() > 0.0);
    assert!(!e.notes.iter().any(|n| n.contains(note)), "{:?}", e.notes);
}
