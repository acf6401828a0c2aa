//! The theorem table (fixtures/theorems.json) against claims.md Sec. 3.1 and paper.tex, its
//! validator (every rejection names entry and field), and the quantity series.

use saddlefw::measures::PointMeasures;
use saddlefw::problems::Constants;
use saddlefw::theorems::{
    builtin, load_table, parse_table, quantity_series, quantity_series_at, running_means,
    Aggregate, Algorithm, Measure, MhatOf, ScheduleSpec, Side, CHECKPOINTS_PER_DECADE,
};
use saddlefw::trace::Checkpoint;
use std::collections::{BTreeMap, BTreeSet};

/// claims.md Sec. 3.1, typed in independently of the fixture:
/// (row, case, a, b, p primal, p dual).
const ROWS: [(u32, &str, f64, f64, f64, f64); 19] = [
    (
        1,
        "lmo-lmo/nc-c",
        5.0 / 6.0,
        1.0 / 6.0,
        1.0 / 6.0,
        1.0 / 6.0,
    ),
    (2, "lmo-lmo/nc-sc", 0.75, 0.0, 0.25, 0.25),
    (3, "lmo-lmo/nc-c+sc", 0.8, 0.2, 0.2, 0.2),
    (4, "lmo-lmo/nc-sc+sc", 2.0 / 3.0, 0.0, 1.0 / 3.0, 1.0 / 3.0),
    (5, "lmo-lmo/c-c", 1.0, 0.2, 0.2, 0.2),
    (6, "lmo-lmo/c-sc", 1.0, 0.0, 1.0 / 3.0, 2.0 / 3.0),
    (7, "lmo-lmo/c-c+sc", 1.0, 0.25, 0.25, 0.25),
    (8, "lmo-lmo/c-sc+sc", 1.0, 0.0, 0.5, 1.0),
    (9, "lmo-po/nc-c", 0.75, 0.25, 0.25, 0.25),
    (10, "lmo-po/nc-sc", 0.5, 0.0, 0.5, 1.0),
    (11, "lmo-po/c-c", 1.0, 1.0 / 3.0, 1.0 / 3.0, 1.0 / 3.0),
    (12, "lmo-po/c-sc", 1.0, 0.0, 1.0, 1.0),
    (
        13,
        "po-lmo/nc-c",
        2.0 / 3.0,
        1.0 / 6.0,
        1.0 / 6.0,
        1.0 / 6.0,
    ),
    (14, "po-lmo/nc-sc", 0.5, 0.0, 0.25, 0.5),
    (15, "po-lmo/nc-c+sc", 0.6, 0.2, 0.2, 0.2),
    (16, "po-lmo/nc-sc+sc", 1.0 / 3.0, 0.0, 1.0 / 3.0, 2.0 / 3.0),
    (17, "po-lmo/c-c", 2.0 / 3.0, 1.0 / 3.0, 1.0 / 3.0, 1.0 / 3.0),
    (18, "po-lmo/c-sc", 0.5, 0.0, 0.5, 0.5),
    (19, "po-lmo/c-sc+sc", 1.0 / 3.0, 0.0, 2.0 / 3.0, 2.0 / 3.0),
];

#[test]
fn table_has_19_cases_and_38_entries() {
    let t = builtin();
    assert_eq!(t.len(), 38);
    let cases: BTreeSet<&str> = t.iter().map(|e| e.case.as_str()).collect();
    assert_eq!(cases.len(), 19);
    let mut per_row: BTreeMap<u32, Vec<Side>> = BTreeMap::new();
    for e in &t {
        per_row.entry(e.row).or_default().push(e.side());
    }
    assert_eq!(
        per_row.keys().copied().collect::<Vec<_>>(),
        (1..=19).collect::<Vec<_>>()
    );
    for (row, sides) in per_row {
        assert!(
            sides.len() == 2 && sides.contains(&Side::Primal) && sides.contains(&Side::Dual),
            "row {row}: {sides:?}"
        );
    }
}

#[test]
fn exponents_and_schedules_match_claims_md() {
    let t = builtin();
    for (row, case, a, b, pp, pd) in ROWS {
        for (side, p) in [("primal", pp), ("dual", pd)] {
            let id = format!("{case}/{side}");
            let e = t
                .iter()
                .find(|e| e.id == id)
                .unwrap_or_else(|| panic!("{id} missing"));
            assert_eq!(e.row, row, "{id}");
            assert!(e.p() > 0.0);
            assert!(
                (e.p() - p).abs() < 1e-12,
                "{id}: p = {} but claims.md says {p}",
                e.p()
            );
            let (ea, eb, ec) = e.schedule.abc();
            assert!(
                (ea - a).abs() < 1e-12 && (eb - b).abs() < 1e-12,
                "{id}: schedule"
            );
            assert_eq!(ec == 0.0, b == 0.0, "{id}: C = 0 exactly for beta_t = 0");
            assert_eq!(
                matches!(e.schedule, ScheduleSpec::PoLmoAppendix(_)),
                row >= 13,
                "{id}"
            );
        }
    }
}

#[test]
fn quantities_match_the_theorem_statements() {
    use Aggregate::*;
    use Measure::*;
    for e in builtin() {
        let convex = e.setting().convex;
        let want = match (e.algorithm.paper().unwrap(), e.side(), convex) {
            (Algorithm::LmoLmo, Side::Primal, false) => (GxLmo, Mean0T),
            (Algorithm::LmoLmo, Side::Primal, true) => (GapOpt, Last),
            (Algorithm::LmoLmo, Side::Dual, _) => (Gy, Last),
            (Algorithm::LmoPo, Side::Primal, false) => (GxLmo, Mean1T),
            (Algorithm::LmoPo, Side::Primal, true) => (GapOpt, Last),
            (Algorithm::LmoPo, Side::Dual, _) => (Gy, Mean1T),
            (Algorithm::PoLmo, Side::Primal, false) => (GxPo, Mean0T),
            (Algorithm::PoLmo, Side::Primal, true) => (GapOpt, MeanOptNext0T),
            (Algorithm::PoLmo, Side::Dual, _) => (Gy, Mean0T),
        };
        assert_eq!((e.quantity.measure, e.quantity.aggregate), want, "{}", e.id);
        // log factors where claims.md marks them (tilde, D1, D2, D5, D6, D7)
        let logged = [
            "lmo-lmo/c-sc/primal",
            "lmo-lmo/c-sc/dual",
            "lmo-lmo/c-sc+sc/primal",
            "lmo-lmo/c-sc+sc/dual",
            "lmo-po/nc-sc/primal",
            "lmo-po/nc-sc/dual",
            "lmo-po/c-c/primal",
            "lmo-po/c-c/dual",
            "lmo-po/c-sc/primal",
            "po-lmo/nc-c/primal",
            "po-lmo/nc-c/dual",
            "po-lmo/nc-sc/dual",
            "po-lmo/nc-sc+sc/dual",
            "po-lmo/c-sc/primal",
            "po-lmo/c-sc/dual",
            "po-lmo/c-sc+sc/primal",
            "po-lmo/c-sc+sc/dual",
        ];
        assert_eq!(
            e.log_factor,
            logged.contains(&e.id.as_str()),
            "{}: log_factor",
            e.id
        );
        // M_hat: H for LMO-LMO (c per lemma:compact-ht / compact-sc-ht), none for LMO-PO
        match (e.algorithm.paper().unwrap(), &e.mhat) {
            (Algorithm::LmoLmo, Some(m)) => {
                assert_eq!(m.of, MhatOf::H);
                let (a, b, _) = e.schedule.abc();
                let sc_y = e.setting().sc_y;
                let c = if sc_y { a - b } else { (2.0 * a - b) / 3.0 };
                assert!((m.c.value - c).abs() < 1e-12, "{}: c", e.id);
                assert_eq!(
                    m.log_power > 0.0,
                    a == 1.0 && b == 0.0,
                    "{}: log branch",
                    e.id
                );
            }
            (Algorithm::LmoPo, None) => {}
            (Algorithm::PoLmo, Some(m)) => assert_eq!(m.of, MhatOf::Quantity),
            (alg, m) => panic!("{}: {alg:?} with {m:?}", e.id),
        }
    }
}

#[test]
fn disagreement_notes_sit_where_claims_md_puts_them() {
    let t = builtin();
    let has = |id: &str, note: &str| {
        t.iter()
            .find(|e| e.id == id)
            .unwrap()
            .notes
            .iter()
            .any(|n| n.id == note)
    };
    assert!(has("lmo-lmo/c-sc/dual", "D1"));
    assert!(has("lmo-lmo/c-sc+sc/dual", "D2"));
    assert!(has("lmo-lmo/nc-sc/dual", "D3") && has("lmo-lmo/nc-sc+sc/dual", "D3"));
    assert!(has("lmo-po/nc-sc/primal", "D5"));
    assert!(has("lmo-po/c-sc/primal", "D6") && has("lmo-po/c-sc/primal", "D22"));
    assert!(has("lmo-po/c-c/dual", "D7"));
    for id in [
        "po-lmo/c-c/primal",
        "po-lmo/c-sc/primal",
        "po-lmo/c-sc+sc/primal",
    ] {
        assert!(has(id, "D10"), "{id}");
    }
    for e in t.iter().filter(|e| e.algorithm == Algorithm::PoLmo) {
        assert!(e.notes.iter().any(|n| n.id == "D11"), "{}", e.id);
    }
    assert!(has("po-lmo/c-c/primal", "D20"));
    // D3: the detailed theorem proves faster last-iterate G_Y
    let pd = |id: &str| {
        t.iter()
            .find(|e| e.id == id)
            .unwrap()
            .p_detailed
            .clone()
            .map(|p| p.value)
    };
    assert_eq!(pd("lmo-lmo/nc-sc/dual"), Some(0.5));
    assert!((pd("lmo-lmo/nc-sc+sc/dual").unwrap() - 2.0 / 3.0).abs() < 1e-12);
}

#[test]
fn every_cited_label_exists_in_the_paper() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/spec/paper.tex");
    let Ok(tex) = std::fs::read_to_string(&path) else {
        eprintln!("skipping: {} not found", path.display());
        return;
    };
    for e in builtin() {
        let labels = e.cited_labels();
        assert_eq!(labels.len(), 3, "{}: main theorem, item, detailed", e.id);
        for l in labels {
            assert!(
                tex.contains(&format!("\\label{{{l}}}")),
                "{}: \\label{{{l}}} not in paper.tex",
                e.id
            );
        }
    }
}

#[test]
fn table_round_trips_through_json() {
    let t = builtin();
    let text = serde_json::to_string(&t).unwrap();
    assert_eq!(parse_table("round trip", &text).unwrap(), t);
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("t.json");
    std::fs::write(&path, &text).unwrap();
    assert_eq!(load_table(&path).unwrap(), t);
    let err = load_table(&dir.path().join("absent.json"))
        .unwrap_err()
        .to_string();
    assert!(err.contains("absent.json"), "{err}");
}

/// Applies `edit` to entry `i` of the built-in table and returns the validator's message.
fn reject(i: usize, edit: impl FnOnce(&mut serde_json::Value)) -> String {
    let mut v: serde_json::Value =
        serde_json::from_str(include_str!("../fixtures/theorems.json")).unwrap();
    edit(&mut v[i]);
    parse_table("edited", &v.to_string())
        .unwrap_err()
        .to_string()
}

#[test]
fn validator_rejects_broken_entries_naming_entry_and_field() {
    use serde_json::json;
    let cases: Vec<(&str, Box<dyn FnOnce(&mut serde_json::Value)>)> = vec![
        (
            "p",
            Box::new(|e| drop(e.as_object_mut().unwrap().remove("p"))),
        ),
        ("p", Box::new(|e| e["p"]["value"] = json!(0.3))),
        ("p", Box::new(|e| e["p"]["frac"] = json!("one sixth"))),
        (
            "assumptions",
            Box::new(|e| e["assumptions"] = json!(["A1", "A3"])),
        ),
        (
            "assumptions",
            Box::new(|e| e["assumptions"] = json!(["A1", "A9"])),
        ),
        ("bogus", Box::new(|e| e["bogus"] = json!(1))),
        ("schedule", Box::new(|e| e["schedule"]["b"] = json!(0.3))),
        ("schedule", Box::new(|e| e["schedule"]["a"] = json!(1.5))),
        (
            "schedule",
            Box::new(|e| e["schedule"]["kind"] = json!("po-lmo-appendix")),
        ),
        (
            "quantity",
            Box::new(|e| e["quantity"]["sigma"] = json!("tau0")),
        ),
        (
            "quantity",
            Box::new(|e| e["quantity"]["measure"] = json!("gap_opt")),
        ),
        (
            "notes",
            Box::new(|e| e["notes"] = json!([{"id": "D23", "text": "x"}])),
        ),
        ("label", Box::new(|e| e["label"] = json!("theorem:x"))),
        ("log_power", Box::new(|e| e["log_power"] = json!(-1.0))),
        ("T_min", Box::new(|e| e["T_min"] = json!(5))),
        ("id", Box::new(|e| e["id"] = json!("lmo-lmo/nc-sc+sc/both"))),
        ("case", Box::new(|e| e["case"] = json!("lmo-po/nc-sc+sc"))),
        ("row", Box::new(|e| e["row"] = json!(12))),
        ("mhat", Box::new(|e| e["mhat"] = json!(null))),
        (
            "bound",
            Box::new(|e| drop(e.as_object_mut().unwrap().remove("bound"))),
        ),
        ("bound", Box::new(|e| e["bound"] = json!("alg2_dual"))),
        ("bound", Box::new(|e| e["bound"] = json!("alg9"))),
    ];
    for (field, edit) in cases {
        let msg = reject(3, edit);
        assert!(msg.contains("entry 3 ("), "{field}: {msg}");
        assert!(msg.contains(&format!("field {field}")), "{field}: {msg}");
        assert!(msg.contains("edited"), "{msg}");
    }
    // duplicate id
    let mut v: serde_json::Value =
        serde_json::from_str(include_str!("../fixtures/theorems.json")).unwrap();
    v[4] = v[3].clone();
    let msg = parse_table("dup", &v.to_string()).unwrap_err().to_string();
    assert!(
        msg.contains("entry 4") && msg.contains("duplicate"),
        "{msg}"
    );
    // malformed JSON: line and column
    let msg = parse_table("broken", "[{\"id\": }]")
        .unwrap_err()
        .to_string();
    assert!(msg.contains("broken") && msg.contains("line 1"), "{msg}");
    assert!(parse_table("empty", "[]").is_err());
    assert!(parse_table("object", "{}").is_err());
}

fn record(n: usize, f: impl Fn(u64) -> f64) -> Vec<Checkpoint> {
    (0..n as u64)
        .map(|t| Checkpoint {
            t: t as usize,
            time_s: 0.0,
            beta: 0.0,
            measures: PointMeasures {
                gx_lmo: f(t),
                gx_po: 2.0 * f(t),
                gy: 3.0 * f(t),
                gy_lmo: 4.0 * f(t),
                h: 5.0 * f(t),
                gap_opt: Some(6.0 * f(t)),
                width: 0.0,
                scale: 0.0,
            },
        })
        .collect()
}

#[test]
fn quantity_series_computes_each_aggregate_exactly() {
    let t = builtin();
    let rec = record(1001, |t| t as f64);
    let find = |id: &str| t.iter().find(|e| e.id == id).unwrap().clone();
    // mean_0_T of t = T/2 (G_X^LMO, LMO-LMO NC)
    let s = quantity_series(&find("lmo-lmo/nc-c/primal"), &rec).unwrap();
    assert_eq!(s.first().unwrap().0, 1);
    assert_eq!(s.last().unwrap().0, 1000);
    assert!(s.windows(2).all(|w| w[0].0 < w[1].0));
    assert!(
        s.len() >= 3 * CHECKPOINTS_PER_DECADE as usize - 8,
        "{}",
        s.len()
    );
    for &(tt, v) in &s {
        assert!(
            (v - tt as f64 / 2.0).abs() <= 1e-12 * tt as f64,
            "T={tt}: {v}"
        );
    }
    // last: G_Y at T = 3T
    for &(tt, v) in &quantity_series(&find("lmo-lmo/nc-c/dual"), &rec).unwrap() {
        assert_eq!(v, 3.0 * tt as f64);
    }
    // mean_1_T of 3t = 3(T+1)/2 (G_Y, LMO-PO)
    for &(tt, v) in &quantity_series(&find("lmo-po/nc-c/dual"), &rec).unwrap() {
        assert!((v - 1.5 * (tt + 1) as f64).abs() <= 1e-12 * tt as f64);
    }
    // G_X^PO mean over 0..T of 2t = T
    for &(tt, v) in &quantity_series(&find("po-lmo/nc-c/primal"), &rec).unwrap() {
        assert!((v - tt as f64).abs() <= 1e-12 * tt as f64);
    }
    // mean of G^Opt(x_{t+1}) over t = 0..T of 6t = 3(T+2); stops at T = n-2
    let s = quantity_series(&find("po-lmo/c-c/primal"), &rec).unwrap();
    assert_eq!(s.last().unwrap().0, 999);
    for &(tt, v) in &s {
        assert!((v - 3.0 * (tt + 2) as f64).abs() <= 1e-12 * tt as f64);
    }
    // G^Opt(x_T), last
    let e = find("lmo-lmo/c-c/primal");
    assert_eq!(
        quantity_series_at(&e, &rec, &[1, 7, 1000]).unwrap(),
        vec![(1, 6.0), (7, 42.0), (1000, 6000.0)]
    );
}

#[test]
fn quantity_series_rejects_bad_records() {
    let t = builtin();
    let e = t.iter().find(|e| e.id == "lmo-lmo/c-c/primal").unwrap();
    let mut rec = record(50, |t| 1.0 / (t + 1) as f64);
    rec[10].measures.gap_opt = None;
    let msg = quantity_series(e, &rec).unwrap_err().to_string();
    assert!(msg.contains("t = 10") && msg.contains(&e.id), "{msg}");
    let mut rec = record(50, |t| 1.0 / (t + 1) as f64);
    rec[7].t = 8;
    assert!(quantity_series(e, &rec)
        .unwrap_err()
        .to_string()
        .contains("entry 7"));
    let mut rec = record(50, |t| 1.0 / (t + 1) as f64);
    rec[3].measures.gap_opt = Some(f64::NAN);
    assert!(quantity_series(e, &rec).is_err());
    assert!(
        quantity_series(e, &record(1, |_| 1.0)).is_err(),
        "needs T >= 1"
    );
    assert!(
        quantity_series_at(e, &record(50, |_| 1.0), &[5, 60]).is_err(),
        "beyond record"
    );
    assert!(
        quantity_series_at(e, &record(50, |_| 1.0), &[5, 5]).is_err(),
        "not increasing"
    );
}

#[test]
fn running_means_are_compensated() {
    // 0.1 summed 10^6 times naively is off by ~1e-11 relative; the compensated mean is
    // correctly rounded up to a couple of ulps.
    let v = vec![0.1; 1_000_000];
    let naive = v.iter().sum::<f64>() / v.len() as f64;
    let m = *running_means(&v).last().unwrap();
    assert!((m - 0.1).abs() <= 2.0 * f64::EPSILON * 0.1, "{m}");
    assert!(
        (naive - 0.1).abs() > 1e3 * f64::EPSILON * 0.1,
        "the test data must defeat naive sums"
    );
    // mixed magnitudes
    let v = [1e16, 1.0, -1e16, 1.0];
    assert_eq!(*running_means(&v).last().unwrap(), 0.5);
}

#[test]
fn schedules_evaluate_as_documented() {
    // The table's schedules resolve into the solvers' Schedule (one implementation).
    let k = Constants {
        lxx: 2.0,
        lyx: 1.0,
        lyy: 1.0,
        mu: 0.5,
        alpha: None,
        dx: 2.0,
        dy: 1.0,
    };
    let t = builtin();
    let get = |id: &str| {
        t.iter()
            .find(|e| e.id == id)
            .unwrap()
            .schedule
            .resolve(&k)
            .unwrap()
    };
    let s = get("lmo-lmo/nc-c/primal");
    assert_eq!(s.tau.at(0), 1.0);
    assert!((s.tau.at(63) - 64f64.powf(-5.0 / 6.0)).abs() < 1e-15);
    assert!((s.beta.at(63) - 64f64.powf(-1.0 / 6.0)).abs() < 1e-15);
    assert_eq!(s.tau.to_string(), "anytime(c=1,a=0.8333333333333334)");
    // PO-LMO appendix schedule, C > 0: tau_0 = 1/5 (A + 5 Lxx/2 + 13 Lyx^2/(2C))^-1
    let s = get("po-lmo/nc-c/primal");
    assert!((s.tau.at(0) - 0.2 / (1.0 + 5.0 + 6.5)).abs() < 1e-15);
    // C = 0 repair: 13 Lyx^2/(2 mu)
    let s = get("po-lmo/c-sc+sc/dual");
    assert!((s.tau.at(0) - 0.75 / (1.0 + 5.0 + 13.0)).abs() < 1e-15);
    assert_eq!(s.beta.at(10), 0.0);
    assert_eq!(s.beta, saddlefw::solvers::Schedule::Zero);
    // the appendix schedule is undefined for C = 0 with mu = 0
    let k0 = Constants { mu: 0.0, ..k };
    let e = t.iter().find(|e| e.id == "po-lmo/c-sc+sc/dual").unwrap();
    assert!(e.schedule.resolve(&k0).is_err());
}

/// The solvers' default schedules are the table's: one case per (algorithm, setting) of the
/// table, with its exponents, label and (PO-LMO) appendix schedule.
#[test]
fn solver_defaults_are_read_from_the_table() {
    use saddlefw::solvers::defaults::theorem_cases;
    let cases = theorem_cases();
    assert_eq!(cases.len(), 19);
    for e in builtin() {
        let c = cases
            .iter()
            .find(|c| c.algorithm == e.algorithm.name() && c.setting == e.setting)
            .unwrap_or_else(|| panic!("{}: no solver default", e.id));
        let (a, b, cc) = e.schedule.abc();
        assert_eq!(a, c.a, "{}", e.id);
        assert_eq!(if cc == 0.0 { None } else { Some(b) }, c.b, "{}", e.id);
        assert_eq!(e.label, c.label, "{}", e.id);
        assert_eq!(&e.schedule, c.schedule, "{}", e.id);
    }
}

/// A typed `Setting` for quickcheck: three independent flags.
#[derive(Debug, Clone)]
struct AnySetting(saddlefw::paper::Setting);

impl quickcheck::Arbitrary for AnySetting {
    fn arbitrary(g: &mut quickcheck::Gen) -> Self {
        AnySetting(saddlefw::paper::Setting {
            convex: bool::arbitrary(g),
            strongly_concave: bool::arbitrary(g),
            sc_y: bool::arbitrary(g),
        })
    }
}

/// The setting label round-trips (`Display` then `FromStr`), equals its own label, and implies
/// exactly the assumptions the theorem table lists for it (A1 always; mu>0, A2, A3 by flag).
#[test]
fn setting_labels_round_trip_and_name_their_assumptions() {
    fn prop(s: AnySetting) -> bool {
        let s = s.0;
        let label = s.to_string();
        let back: saddlefw::paper::Setting = label.parse().unwrap();
        let names = s.assumption_names();
        back == s
            && s == label.as_str()
            && names[0] == "A1"
            && names.contains(&"mu>0".to_string()) == s.strongly_concave
            && names.contains(&"A2".to_string()) == s.sc_y
            && names.contains(&"A3".to_string()) == s.convex
    }
    quickcheck::quickcheck(prop as fn(AnySetting) -> bool);
    // the table's entries list exactly these assumptions (checked at load, here end to end)
    for e in builtin() {
        let names: Vec<String> = e.assumptions.iter().map(|a| a.name().to_string()).collect();
        assert_eq!(names, e.setting().assumption_names(), "{}", e.id);
    }
    // negative control: a label the paper does not use is refused
    for bad in ["c-c+", "nc-sc+sc+sc", "C-C", "c-x"] {
        assert!(bad.parse::<saddlefw::paper::Setting>().is_err(), "{bad}");
    }
}
