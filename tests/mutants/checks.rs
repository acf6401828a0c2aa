//! Mutation campaign (issue 18): tests aimed at a class of surviving mutants in `src/invariants` and `src/verify`.
//!
//! Everything here is built by hand (reports, tallies, evaluations, shard labels) and checked
//! against exact values or printed lines: the plumbing between the formulas and the verdict,
//! whose faults change a report's text or counts but no formula.

use saddlefw::build_info::Build;
use saddlefw::invariants::case::DEFAULT_HORIZON;
use saddlefw::invariants::check::{
    merge_shards, CaseResult, CheckReport, CheckShard, Erratum, ErratumStatus, InvariantReport,
    JobTallies, Tally, Worst,
};
use saddlefw::invariants::{registry, Eval, Invariant, Kind, Scope};
use saddlefw::verify::shard::{check_labels, select, Shard};
use saddlefw::verify::{ErratumResult, GateStatus, Gates, Tier};

fn worst(instance: &str, t: usize, lhs: f64, rhs: f64, rel_slack: f64) -> Worst {
    Worst {
        instance: instance.to_string(),
        solver: Some("fw".to_string()),
        t: Some(t),
        lhs,
        rhs,
        slack: rhs - lhs,
        rel_slack,
        reason: None,
    }
}

fn erratum(cases: usize, evaluations: usize, finite: usize, undefined: usize) -> Erratum {
    Erratum {
        printed: "p",
        corrected: "c",
        label: "lemma:x",
        status: "STATUS".to_string(),
        cases,
        evaluations,
        violations: finite + undefined,
        finite_violations: finite,
        undefined,
        reason: None,
        witness: Some(worst("inst", 3, 2.0, 1.0, -0.5)),
    }
}

fn hand_report(gating_violations: usize, build_errors: Vec<String>) -> CheckReport {
    CheckReport {
        build: Build::default(),
        cases: 2,
        seed: 7,
        horizon: 100,
        tolerance: "tol".to_string(),
        invariants: vec![InvariantReport {
            name: "inv-a",
            label: "lemma:a",
            scope: Scope::Point,
            gating: true,
            kind: Kind::Proven,
            hypotheses: "",
            cases: 2,
            skipped: 0,
            evaluations: 9,
            violations: gating_violations,
            nonfinite_violations: 0,
            min_slack: Some(0.5),
            min_rel_slack: Some(0.25),
            worst: None,
        }],
        errata: vec![erratum(1, 4, 0, 0)],
        gating_violations,
        build_errors,
        shard: None,
        control: None,
        interrupted: None,
    }
}

/// The printed outcome of a printed form in each of its three branches (finite violation,
/// undefined only, holds), with the witness and counts, and the four status texts. Kills the
/// `Erratum::outcome` guard mutants (`f > 0`, `u > 0` flipped or made constant), its
/// `String::new()`/"xyzzy" bodies and `ErratumStatus::text`.
#[test]
fn erratum_outcome_by_hand() {
    let counts =
        |c, e, f, u| format!("[{c} cases, {e} evaluations: {f} finite violations, {u} undefined]");
    assert_eq!(
        erratum(1, 4, 1, 0).outcome(),
        format!(
            "STATUS (inst (fw), t = 3, lhs = 2.000000e0, rhs = 1.000000e0) {}",
            counts(1, 4, 1, 0)
        )
    );
    let mut e = erratum(2, 5, 0, 2);
    e.reason = Some("1/0".to_string());
    assert_eq!(
        e.outcome(),
        format!(
            "STATUS (1/0; inst (fw), t = 3); where finite, the printed form holds {}",
            counts(2, 5, 0, 2)
        )
    );
    e.evaluations = 2;
    e.reason = None;
    assert_eq!(
        e.outcome(),
        format!(
            "STATUS (a side is not finite; inst (fw), t = 3); never finite on the tested instances {}",
            counts(2, 2, 0, 2)
        )
    );
    assert_eq!(
        erratum(1, 4, 0, 0).outcome(),
        format!("STATUS {}", counts(1, 4, 0, 0))
    );
    assert_eq!(
        ErratumStatus::Confirmed.text(),
        "erratum confirmed numerically"
    );
    assert_eq!(ErratumStatus::Undefined.text(), "printed form undefined");
    assert_eq!(
        ErratumStatus::Holds.text(),
        "printed form holds on all tested instances"
    );
    assert_eq!(
        ErratumStatus::NotApplicable.text(),
        "not applicable on the tested instances"
    );
}

/// `CheckReport::table` of a hand-built report: the header, the row, the errata line, the
/// "N solver configurations not applicable" line exactly when there are build errors, the
/// negative-control banner exactly when a control ran, and PASS/FAIL from `gating_violations`.
/// Kills `delete ! in CheckReport::table` (the known open gap), the `passed()` mutants, the
/// verdict guard and the whole-body replacements; `errata_rows`' `confirmed` flag as well.
#[test]
fn check_report_table_by_hand() {
    let pass = hand_report(0, vec![]);
    assert!(pass.passed());
    let s = pass.table();
    assert!(
        s.starts_with("saddlefw check: 2 cases, seed 7, horizon 100 (tol)\n\n"),
        "{s}"
    );
    assert!(s.contains("\ninv-a "), "{s}");
    assert!(s.contains(" 2.500e-1  lemma:a\n"), "{s}");
    assert!(
        s.contains("\nErrata (printed forms of recorded slips):\n  p (lemma:x):\n      STATUS ["),
        "{s}"
    );
    assert!(!s.contains("not applicable (see CHECK.json)"), "{s}");
    assert!(!s.contains("NEGATIVE CONTROL"), "{s}");
    assert!(s.ends_with("\nPASS: 0 gating violation(s)\n"), "{s}");

    let mut fail = hand_report(3, vec!["a".into(), "b".into()]);
    fail.control = Some("gy-wrong-sign".into());
    assert!(!fail.passed());
    let s = fail.table();
    assert!(
        s.starts_with("NEGATIVE CONTROL gy-wrong-sign\n(a deliberately broken variant: this check must FAIL)\n\nsaddlefw check:"),
        "{s}"
    );
    assert!(
        s.contains("\n2 solver configurations not applicable (see CHECK.json)\n"),
        "{s}"
    );
    assert!(s.ends_with("\nFAIL: 3 gating violation(s)\n"), "{s}");

    let mut rows = hand_report(0, vec![]);
    rows.errata.push(erratum(1, 4, 1, 0));
    let er = rows.errata_rows();
    assert_eq!(er.len(), 2);
    assert_eq!(er[0].confirmed, Some(false));
    assert_eq!(er[1].confirmed, Some(true));
    assert_eq!(er[1].outcome, rows.errata[1].outcome());
    let ir = rows.invariant_rows();
    assert_eq!(
        (ir.len(), ir[0].name.as_str(), ir[0].cases),
        (1, "inv-a", 2)
    );
}

/// `Eval`: the scale `|lhs| + |rhs| + |extra|`, slack and relative slack, and the violation
/// test `rhs - lhs < -(REL_TOL scale + ABS_TOL)` on each side of its threshold, with both
/// terms mattering; non-finite sides always violate, with their reason. Kills the operator
/// and constant mutants of `Eval::{le, ge, at, slack, rel_slack, finite, violated,
/// undefined_reason}`.
#[test]
fn eval_arithmetic_and_violation_threshold() {
    let e = Eval::le(1.0, 3.0, -2.0);
    assert_eq!((e.lhs, e.rhs, e.scale, e.t), (1.0, 3.0, 6.0, None));
    assert_eq!(e.slack(), 2.0);
    assert_eq!(e.rel_slack(), 2.0 / 6.0);
    assert!(e.finite() && !e.violated());
    assert_eq!(e.undefined_reason(), None);
    assert_eq!(Eval::ge(3.0, 1.0, -2.0), e);
    assert_eq!(e.at(5).t, Some(5));
    // rel_slack divides by max(scale, ABS_TOL)
    assert_eq!(Eval::le(0.0, 0.0, 0.0).rel_slack(), 0.0);
    assert_eq!(Eval::le(-1.0, -3.0, 0.0).rel_slack(), -0.5);
    // threshold 2e-9 + 1e-12 at scale 2
    assert!(Eval::le(1.0, 1.0 - 3e-9, 0.0).violated());
    assert!(!Eval::le(1.0, 1.0 - 1e-9, 0.0).violated());
    // at scale ~0 only ABS_TOL counts
    assert!(!Eval::le(0.0, -5e-13, 0.0).violated());
    assert!(Eval::le(0.0, -2e-12, 0.0).violated());
    assert!(!Eval::le(0.0, 1.0, 0.0).violated());
    for (l, r) in [(f64::INFINITY, 1.0), (1.0, f64::NAN), (f64::NAN, f64::NAN)] {
        let e = Eval::le(l, r, 0.0);
        assert!(!e.finite() && e.violated(), "{l} {r}");
        assert_eq!(e.rel_slack(), f64::NEG_INFINITY);
        assert_eq!(
            e.undefined_reason(),
            Some("a side is not finite (overflow or an undefined operation)")
        );
        assert_eq!(e.undefined_if("1/0").undefined_reason(), Some("1/0"));
    }
    assert_eq!(
        Eval::le(1.0, 2.0, 0.0)
            .undefined_if("1/0")
            .undefined_reason(),
        None
    );
}

/// `Tally::add` by hand: counts (cases, skipped, evaluations, violations, non-finite), the
/// first violation, the worst (strictly smallest relative slack, first one kept on a tie) and
/// the worst finite evaluation; `Worst::describe`; the JSON round trip of non-finite values.
/// Kills the `+=`, `!`, `<`/`<=`, `&&` mutants of `Tally::add`, `Worst::describe` and `de_f64`.
#[test]
fn tally_add_by_hand() {
    let mut t = Tally::default();
    t.add(&[], "skip", None);
    assert_eq!((t.cases, t.skipped, t.evaluations), (0, 1, 0));
    let evals = [
        Eval::le(1.0, 3.0, 0.0).at(1),                        // rel 1/2
        Eval::le(2.0, 1.0, 0.0).at(2),                        // violated, rel -1/3
        Eval::le(f64::NAN, 1.0, 0.0).undefined_if("r").at(3), // violated, non-finite
        Eval::le(4.0, 2.0, 0.0).at(4),                        // violated, rel -1/3 again (a tie)
        Eval::le(f64::INFINITY, 1.0, 0.0).at(5),              // violated, non-finite, tie at -inf
    ];
    t.add(&evals, "inst", Some("fw"));
    // one more finite violation than non-finite ones, so that the two counts differ
    t.add(
        &[Eval::le(0.0, 1.0, 0.0).at(6), Eval::le(3.0, 2.0, 0.0).at(7)],
        "other",
        None,
    );
    t.add(&[], "skip", None);
    assert_eq!(
        (t.cases, t.skipped, t.evaluations, t.violations, t.nonfinite),
        (2, 2, 7, 5, 2)
    );
    let first = t.first_violation.clone().unwrap();
    assert_eq!((first.instance.as_str(), first.t), ("inst", Some(2)));
    let w = t.worst.clone().unwrap();
    assert_eq!(
        (w.t, w.rel_slack, w.reason.as_deref()),
        (Some(3), f64::NEG_INFINITY, Some("r"))
    );
    let wf = t.worst_finite.clone().unwrap();
    assert_eq!((wf.t, wf.lhs, wf.rhs, wf.slack), (Some(2), 2.0, 1.0, -1.0));
    assert_eq!(wf.rel_slack, -1.0 / 3.0);
    assert_eq!(
        wf.describe(),
        "inst (fw), t = 2, lhs = 2.000000e0, rhs = 1.000000e0"
    );
    let mut nf = w.clone();
    nf.lhs = f64::INFINITY;
    nf.rhs = f64::NEG_INFINITY;
    let back: Worst = serde_json::from_str(&serde_json::to_string(&nf).unwrap()).unwrap();
    assert_eq!((back.lhs, back.rhs), (f64::INFINITY, f64::NEG_INFINITY));
    assert!(back.slack.is_nan() && back.rel_slack == f64::NEG_INFINITY);
    let finite: Worst = serde_json::from_str(&serde_json::to_string(&wf).unwrap()).unwrap();
    assert_eq!(finite, wf);
}

/// Two non-real invariants of the registry: a gating one, and `n` printed forms.
fn pick(n: usize) -> (&'static Invariant, Vec<&'static Invariant>) {
    let reg = registry();
    let g = *reg
        .iter()
        .find(|i| i.gating && i.scope != Scope::Real)
        .unwrap();
    let p: Vec<_> = reg
        .iter()
        .copied()
        .filter(|i| matches!(i.kind, Kind::Printed { .. }) && i.scope != Scope::Real)
        .take(n)
        .collect();
    assert_eq!(p.len(), n);
    (g, p)
}

fn tally(cases: usize, evals: usize, viol: usize, nonfinite: usize) -> Tally {
    Tally {
        cases,
        skipped: 1,
        evaluations: evals,
        violations: viol,
        nonfinite,
        ..Tally::default()
    }
}

/// `CaseResult::gating_violations`: only gating invariants with a violation, named with their
/// first violation. Kills its `vec![]`, `&&`/`||` and `>`/`>=` mutants.
#[test]
fn gating_violations_by_hand() {
    let reg = registry();
    let (g, p) = pick(1);
    let mut tallies = vec![Tally::default(); reg.len()];
    let gi = reg.iter().position(|i| i.name == g.name).unwrap();
    let pi = reg.iter().position(|i| i.name == p[0].name).unwrap();
    tallies[gi] = Tally {
        first_violation: Some(worst("g-inst", 4, 3.0, 1.0, -0.5)),
        ..tally(1, 2, 1, 0)
    };
    tallies[pi] = Tally {
        first_violation: Some(worst("p-inst", 4, 3.0, 1.0, -0.5)),
        ..tally(1, 2, 1, 0)
    };
    let v = CaseResult {
        tallies,
        build_errors: vec![],
    }
    .gating_violations();
    assert_eq!(v.len(), 1);
    assert_eq!(
        (
            v[0].invariant,
            v[0].instance.as_str(),
            v[0].t,
            v[0].lhs,
            v[0].rhs
        ),
        (g.name, "g-inst", Some(4), 3.0, 1.0)
    );
}

/// `merge_shards` on hand-written shard tallies (0 random cases, so the jobs are the witness
/// instances; two shards): the merged report's counts are the sums, the worst is the strictly
/// smallest relative slack with the first kept on ties, the first violation is the first job's,
/// build errors are concatenated in job order, and each printed form gets the status of its
/// tallies (confirmed, undefined with its reason, holds, not applicable). Kills the
/// `Tally::merge` mutants, the status/witness/`finite_violations` mutants of `report`, and
/// `JobTallies::into_result`'s name lookup.
#[test]
fn merge_shards_folds_hand_tallies() {
    let (g, p) = pick(4);
    let jobs = saddlefw::invariants::witness::witness_cases()
        .unwrap()
        .len();
    assert!(jobs >= 3, "{jobs} witness jobs");
    let mk = |job: usize, t: Vec<(&'static Invariant, Tally)>, errs: Vec<String>| JobTallies {
        job,
        tallies: t
            .into_iter()
            .map(|(i, t)| (i.name.to_string(), t))
            .collect(),
        build_errors: errs,
    };
    let mut results: Vec<JobTallies> = (0..jobs).map(|j| mk(j, vec![], vec![])).collect();
    results[0] = mk(
        0,
        vec![
            (
                g,
                Tally {
                    worst: Some(worst("g0", 1, 1.0, 2.0, 0.5)),
                    ..tally(1, 3, 0, 0)
                },
            ),
            (
                p[0],
                Tally {
                    worst: Some(worst("p0", 1, f64::NAN, 1.0, f64::NEG_INFINITY)),
                    worst_finite: Some(worst("p0f", 2, 4.0, 1.0, -3.0)),
                    first_violation: Some(worst("p0v", 1, 4.0, 1.0, -3.0)),
                    ..tally(1, 2, 2, 1)
                },
            ),
            (
                p[1],
                Tally {
                    first_violation: Some(Worst {
                        reason: Some("1/0".into()),
                        ..worst("p1v", 7, f64::INFINITY, 1.0, f64::NEG_INFINITY)
                    }),
                    ..tally(1, 3, 1, 1)
                },
            ),
            (
                p[2],
                Tally {
                    worst: Some(worst("p2", 1, 1.0, 2.0, 0.5)),
                    ..tally(1, 2, 0, 0)
                },
            ),
        ],
        vec!["e0".into()],
    );
    results[1] = mk(
        1,
        vec![
            (
                g,
                Tally {
                    worst: Some(worst("g1", 2, 2.0, 1.0, -0.25)),
                    first_violation: Some(worst("g1v", 2, 2.0, 1.0, -0.25)),
                    ..tally(2, 4, 1, 0)
                },
            ),
            (
                p[0],
                Tally {
                    worst_finite: Some(worst("p0f1", 2, 9.0, 1.0, -8.0)),
                    ..tally(1, 1, 1, 0)
                },
            ),
            (
                p[2],
                Tally {
                    worst: Some(worst("p2b", 1, 1.0, 2.0, 0.5)),
                    ..tally(1, 2, 0, 0)
                },
            ),
        ],
        vec!["e1".into()],
    );
    results[2] = mk(
        2,
        vec![(
            g,
            Tally {
                worst: Some(worst("g2", 3, 2.0, 1.0, -0.25)),
                first_violation: Some(worst("g2v", 3, 2.0, 1.0, -0.25)),
                ..tally(1, 1, 1, 0)
            },
        )],
        vec!["e2".into()],
    );
    let shard_file = |index: usize| {
        let r = CheckReport {
            build: Build::current(),
            cases: 0,
            seed: 7,
            horizon: DEFAULT_HORIZON,
            tolerance: String::new(),
            invariants: vec![],
            errata: vec![],
            gating_violations: 0,
            build_errors: vec![],
            shard: Some(CheckShard {
                shard: Shard { index, count: 2 },
                jobs,
                results: results
                    .iter()
                    .filter(|j| j.job % 2 == index - 1)
                    .cloned()
                    .collect(),
            }),
            control: None,
            interrupted: None,
        };
        (format!("s{index}"), serde_json::to_string(&r).unwrap())
    };
    let m = merge_shards(&[shard_file(2), shard_file(1)]).unwrap();
    assert_eq!((m.cases, m.seed), (0, 7));
    assert_eq!(m.build_errors, ["e0", "e1", "e2"]);
    let row = |name: &str| m.invariants.iter().find(|r| r.name == name).unwrap();
    let gr = row(g.name);
    assert_eq!(
        (
            gr.cases,
            gr.skipped,
            gr.evaluations,
            gr.violations,
            gr.nonfinite_violations
        ),
        (4, 3, 8, 2, 0)
    );
    assert_eq!((gr.min_slack, gr.min_rel_slack), (Some(-1.0), Some(-0.25)));
    assert_eq!(gr.worst.as_ref().unwrap().instance, "g1v");
    assert_eq!(m.gating_violations, 2);
    assert!(!m.passed());
    assert_eq!(row(p[2].name).worst.as_ref().unwrap().instance, "p2");
    let er = |name: &str| m.errata.iter().find(|e| e.printed == name).unwrap();
    let e0 = er(p[0].name);
    assert_eq!(e0.status, ErratumStatus::Confirmed.text());
    assert_eq!(
        (
            e0.cases,
            e0.evaluations,
            e0.violations,
            e0.finite_violations,
            e0.undefined
        ),
        (2, 3, 3, 2, 1)
    );
    assert_eq!(e0.witness.as_ref().unwrap().instance, "p0f1");
    assert_eq!(e0.reason, None);
    let e1 = er(p[1].name);
    assert_eq!(e1.status, ErratumStatus::Undefined.text());
    assert_eq!((e1.finite_violations, e1.undefined), (0, 1));
    assert_eq!(e1.reason.as_deref(), Some("1/0"));
    assert_eq!(e1.witness.as_ref().unwrap().instance, "p1v");
    let e2 = er(p[2].name);
    assert_eq!(e2.status, ErratumStatus::Holds.text());
    assert_eq!(e2.witness.as_ref().unwrap().instance, "p2");
    let e3 = er(p[3].name);
    assert_eq!(e3.status, ErratumStatus::NotApplicable.text());
    assert!(e3.witness.is_none());
    // the printed table reports the build errors of the merged jobs
    assert!(m
        .table()
        .contains("\n3 solver configurations not applicable (see CHECK.json)\n"));
}

/// Shard labels: parsing (`I/N` with `1 <= I <= N`), `takes` (positions `p mod N = I - 1`),
/// `select`, display, and `check_labels` (one split, each index once, none missing). Kills the
/// mutants of `Shard::{takes, from_str, fmt}`, `select` and `check_labels`.
#[test]
fn shard_labels_by_hand() {
    let s: Shard = " 2 / 3 ".trim().parse().unwrap();
    assert_eq!((s.index, s.count), (2, 3));
    assert_eq!(s.to_string(), "2/3");
    let taken: Vec<usize> = (0..8).filter(|&p| s.takes(p)).collect();
    assert_eq!(taken, [1, 4, 7]);
    assert_eq!(select((0..8).collect(), Some(s)), [1, 4, 7]);
    assert_eq!(select((0..3).collect(), None), [0, 1, 2]);
    let last: Shard = "3/3".parse().unwrap();
    assert_eq!(
        (0..7).filter(|&p| last.takes(p)).collect::<Vec<_>>(),
        [2, 5]
    );
    assert_eq!(
        "1/1".parse::<Shard>().unwrap(),
        Shard { index: 1, count: 1 }
    );
    for bad in ["0/3", "4/3", "3/0", "0/0", "x/3", "3", "1/y"] {
        assert!(bad.parse::<Shard>().is_err(), "{bad}");
    }
    let sh = |index, count| Shard { index, count };
    assert_eq!(check_labels(&[sh(2, 3), sh(1, 3), sh(3, 3)]).unwrap(), 3);
    assert_eq!(check_labels(&[sh(1, 1)]).unwrap(), 1);
    let err = |l: &[Shard]| check_labels(l).unwrap_err().to_string();
    assert!(err(&[]).contains("no shard outputs"));
    assert!(err(&[sh(1, 3), sh(3, 3)]).contains("shard 2/3 is missing"));
    assert!(err(&[sh(1, 2), sh(1, 2)]).contains("shard 1/2 given twice"));
    assert!(err(&[sh(1, 2), sh(2, 3)]).contains("shard 2/3 does not belong to a split into 2"));
    assert!(err(&[sh(0, 2), sh(2, 2)]).contains("does not belong"));
    assert!(err(&[sh(3, 2), sh(1, 2)]).contains("does not belong"));
}

/// Tiers and gates: the tier names round-trip, only the quick tier is baseline-gated, the tier
/// sizes are powers of two, `Gates::failed` names exactly the failed gates. Kills the
/// `Tier::{from_str, fmt, config, baseline_gated}` and `Gates::failed` mutants.
#[test]
fn tiers_and_gates_by_hand() {
    for (name, tier) in [
        ("quick", Tier::Quick),
        ("full", Tier::Full),
        ("test", Tier::Test),
    ] {
        assert_eq!(name.parse::<Tier>().unwrap(), tier);
        assert_eq!(tier.to_string(), name);
        assert_eq!(tier.baseline_gated(), tier == Tier::Quick);
    }
    assert!("Quick".parse::<Tier>().is_err());
    assert_eq!(Tier::Quick.config().t_max, 16384);
    assert_eq!(Tier::Full.config().t_max, 65536);
    assert_eq!(Tier::Test.config().t_max, 4096);
    let g = Gates {
        rate: GateStatus::Fail,
        run: GateStatus::Pass,
        envelope: GateStatus::NotApplicable,
        mhat: GateStatus::Fail,
        baseline: GateStatus::Pass,
        schedule: GateStatus::Fail,
    };
    assert_eq!(g.failed(), ["rate", "mhat", "schedule"]);
}

/// `ErratumResult::describe`: the worst-ratio clause with `>` exactly when the ratio exceeds 1,
/// and the `M_hat` clause. Kills its `>`/`>=`/`==` and `+=` mutants and the body replacements.
#[test]
fn erratum_result_describe_by_hand() {
    let mut e = ErratumResult {
        name: "form".into(),
        label: "thm".into(),
        printed_form: "x".into(),
        status: "ST".into(),
        instance: Some("inst".into()),
        source: None,
        t: Some(10),
        lhs: Some(2.0),
        rhs: Some(1.0),
        worst_ratio: Some(2.0),
        mhat_family: None,
        mhat_slope_ci: None,
    };
    assert_eq!(
        e.describe(),
        "form: ST (worst: quantity 2.0000e0 > printed bound 1.0000e0, ratio 2.000, at T = 10 on inst)"
    );
    e.worst_ratio = Some(1.0);
    assert!(
        e.describe().contains(" <= printed bound "),
        "{}",
        e.describe()
    );
    e.worst_ratio = Some(0.5);
    assert!(
        e.describe().contains(" <= printed bound "),
        "{}",
        e.describe()
    );
    e.worst_ratio = None;
    e.mhat_family = Some("fam".into());
    e.mhat_slope_ci = Some([0.1, 0.2]);
    assert_eq!(
        e.describe(),
        format!(
            "form: ST (M_hat without the log factor: last-decade slope interval [0.100, 0.200] on fam, bounded iff <= {})",
            saddlefw::envelopes::MHAT_SLOPE_TOL
        )
    );
}

/// A verify report with one entry, from JSON written by hand (every other field empty).
fn verify_report(errata: bool, slow: bool) -> saddlefw::verify::VerifyReport {
    let fit = serde_json::to_value(saddlefw::fit::FitConfig::default()).unwrap();
    let rate = |holds: bool| {
        serde_json::json!({"family": "fam", "k": 1.0, "tol": 0.05, "p_hat": 0.3,
            "ci": [0.2, 0.4], "window": [10, 100], "holds": holds})
    };
    let errata = if errata {
        serde_json::json!([{"name": "form", "label": "thm", "printed_form": "x", "status": "ST",
            "instance": null, "source": null, "t": null, "lhs": null, "rhs": null,
            "worst_ratio": null, "mhat_family": null, "mhat_slope_ci": null}])
    } else {
        serde_json::json!([])
    };
    let gate = |g: &str| serde_json::Value::String(g.to_string());
    let entry = serde_json::json!({
        "id": "case/a", "case": "c", "label": "l", "algorithm": "a", "setting": "s",
        "quantity": "q", "p": 0.5, "p_frac": "1/2", "log_factor": false, "tol": 0.05,
        "p_hat": 0.5, "ci": [0.4, 0.6], "window": [10, 100], "binding_family": null,
        "floor_free_family": null, "verdict": "fail", "rate_verdict": "fail",
        "gates": {"rate": gate("fail"), "run": gate("pass"), "envelope": gate("pass"),
            "mhat": gate("fail"), "baseline": gate("pass")},
        "failed_gates": ["rate", "mhat"], "envelope_ratio": null, "envelope_label": null,
        "errata": errata,
        "proof_rate": {"k": 1.0, "gate_k": 1.0, "random": [rate(true), rate(!slow)],
            "hard": {"k": 1.0, "tol": 0.05, "p_hat": 0.9, "ci": [0.8, 1.0], "window": [10, 100], "holds": true}},
        "mhat": null, "baseline": null, "families": [], "local_slopes": [], "instances": [],
        "notes": [], "disputed": null, "time_s": 1.5
    });
    let r = serde_json::json!({
        "tier": "quick", "seeds": [0, 1], "seed_rule": "r", "t_max": 1024, "dim_x": 2,
        "dim_y": 1, "control": null, "fit_config": fit, "entries": [entry],
        "summary": {"pass": 0, "fail": 1, "floor": 0, "disputed": 0}, "failed": true,
        "wall_time_s": 2.0
    });
    serde_json::from_value(r).unwrap()
}

/// `VerifyReport::table` of a hand-written report: the entry line (p, p_hat, ci, envelope,
/// time, verdict, failed gates), the summary line, the errata section exactly when there are
/// errata, and the proof-rate section naming exactly the runs slower than the proven rate
/// (a hard instance that holds is not named).
/// Kills the body replacements and the `!`/`+=` mutants of `VerifyReport::table`.
#[test]
fn verify_report_table_by_hand() {
    let s = verify_report(false, false).table();
    let lines: Vec<&str> = s.lines().collect();
    assert!(lines[0].starts_with("entry "), "{s}");
    let row: Vec<&str> = lines[1].split_whitespace().collect();
    assert_eq!(
        row,
        [
            "case/a",
            "1/2",
            "0.500",
            "[0.400,",
            "0.600]",
            "-",
            "1.5s",
            "fail",
            "rate,mhat"
        ],
        "{s}"
    );
    assert_eq!(
        lines[2],
        "1 entries: 0 pass, 1 fail, 0 floor, 0 disputed (quick tier, 2 seeds per family, T_max = 1024, 2.0 s)"
    );
    assert!(!s.contains("printed forms of the bounds"), "{s}");
    assert!(s.ends_with(
        "\nproof-rate check (k = the proven log power; reported, never gating): no run slower than the proven rate at this horizon\n"
    ), "{s}");

    let s = verify_report(true, true).table();
    let errata = format!(
        "\nprinted forms of the bounds (claims.md Sec. 5 errata; reported, never gating):\n  {:<28} form: ST\n",
        "case/a"
    );
    assert!(s.contains(&errata), "{s}");
    let slow = format!(
        ": 1 runs/families slower than the proven rate at this horizon\n  {:<28} fam: p_hat 0.300 [0.200, 0.400], tol 0.050 (k = 1)\n",
        "case/a"
    );
    assert!(s.ends_with(&slow), "{s}");
}
