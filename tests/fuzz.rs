//! Byte-mutation fuzzing of every parser a user's input reaches (issue 9): problem files
//! (`QuadraticFile::parse` + `into_instance`, then a short run on what was accepted),
//! generator specs, schedule notations, theorem tables and RUN.json. The LIBSVM reader's fuzz
//! tests live in tests/data.rs; all share the mutation engine of tests/common/fuzz.rs.
//!
//! Each test starts from valid seed inputs, applies a few random edits, and asserts that the
//! parser returns: an accepted input satisfies the parser's contract (round trip, dimensions,
//! feasibility), a rejected one is an `Error::Input` naming the input and a location.
//! `SADDLEFW_FUZZ_CASES=100000 cargo test --release fuzz::` is the full campaign
//! (docs/fuzzing.md); the default is a couple of thousand cases per parser.

use crate::common::fuzz::{self, Campaign, Mutation, Outcome};
use saddlefw::generators::{Family, GeneratorSpec, Setting};
use saddlefw::harness::{run, RunConfig};
use saddlefw::measures;
use saddlefw::problems::quadratic::QuadraticFile;
use saddlefw::problems::Quadratic;
use saddlefw::sets::{L2Ball, Simplex};
use saddlefw::solvers::registry;
use saddlefw::solvers::schedule::Schedule;
use saddlefw::theorems;
use saddlefw::trace::{Status, Trace};
use saddlefw::Error;

/// A rejected input is an input error naming `input` with a non-empty location and reason.
fn rejected(e: &Error, input: &str) -> Outcome {
    match e {
        Error::Input {
            input: i,
            location,
            reason,
        } => {
            assert!(i.contains(input), "{e}: does not name {input:?}");
            assert!(!location.trim().is_empty(), "{e}: no location");
            assert!(!reason.trim().is_empty(), "{e}: no reason");
        }
        other => panic!("expected an input error naming {input:?}, got {other:?}"),
    }
    Outcome::Rejected
}

// ---------------------------------------------------------------------------------------------
// Problem files

const JSON_ALPHABET: &[u8] = b"{}[]\":,.-+eE0123456789 \n\t_abcdeiklmnoprstuxyABC";
const QUADRATIC_TOKENS: &[&str] = &[
    "\"kind\": \"product\", \"parts\": [",
    "{\"kind\": \"simplex\"}",
    "{\"kind\": \"l2_ball\", \"radius\": 1}",
    "{\"kind\": \"nuclear_ball\", \"rows\": 1, \"cols\": 2, \"radius\": 1}",
    "{\"kind\": \"unit_columns\", \"rows\": 2, \"cols\": 1}",
    "\"dim\": 3,",
    "\"radius\": 0,",
    "\"center\": [0, 0],",
    "[[1, 0], [0, 1]]",
    "[]",
    "[[]]",
    "\"x0\": [0, 0],",
];

/// Valid problem files of every set kind (the seeds of the mutations).
fn quadratic_seeds() -> Vec<String> {
    let mut seeds = vec![
        r#"{"format": "saddlefw-quadratic-v1",
 "A": [[1, 0], [0, 1]], "B": [[1, 0], [0, 1]], "C": [[0.5, 0], [0, 0.5]],
 "a": [0, 0], "c": [0.5, -0.5],
 "x_set": {"kind": "l1_ball", "radius": 1}, "y_set": {"kind": "simplex"},
 "x0": [0, 0], "y0": [1, 0]}"#
            .to_string(),
        r#"{"format": "saddlefw-quadratic-v1",
 "A": [[0, 1, 0], [1, 0, 0], [0, 0, 2]], "B": [[1, 2, 3], [0, -1, 0]], "C": [[0, 0], [0, 0]],
 "a": [1, 0, -1], "c": [0, 0],
 "x_set": {"kind": "box", "lower": -1, "upper": [1, 2, 3]},
 "y_set": {"kind": "l2_ball", "radius": 2, "center": [0.5, 0]},
 "x0": [0, 0, 0], "y0": [0.5, 0]}"#
            .to_string(),
        r#"{"format": "saddlefw-quadratic-v1",
 "A": [[1, 0, 0], [0, 1, 0], [0, 0, 1]], "B": [[1, 0, 1]], "C": [[1]],
 "a": [0, 0, 0], "c": [0],
 "x_set": {"kind": "product", "parts": [{"kind": "nuclear_ball", "rows": 1, "cols": 2, "radius": 1},
                                         {"kind": "simplex", "scale": 2}]},
 "y_set": {"kind": "box", "lower": 0, "upper": 1},
 "x0": [0, 0, 2], "y0": [0]}"#
            .to_string(),
        r#"{"format": "saddlefw-quadratic-v1",
 "A": [[2, 0], [0, 2]], "B": [[1, 1]], "C": [[0]],
 "a": [0, 0], "c": [1],
 "x_set": {"kind": "unit_columns", "rows": 2, "cols": 1, "radius": 1},
 "y_set": {"kind": "l1_ball", "radius": 3, "dim": 1},
 "x0": [0.6, 0.8], "y0": [-3]}"#
            .to_string(),
    ];
    // full-precision numbers written by the crate itself
    let q = Quadratic::new(
        vec![
            std::f64::consts::FRAC_1_SQRT_2,
            -1.2e-3,
            3.3e-17,
            -1.2e-3,
            2.5,
            0.1,
            3.3e-17,
            0.1,
            -0.9,
        ],
        vec![1.0 / 3.0, 2.0, -7.25e10, 0.5, 0.0, 1e-300],
        vec![4.0, 0.5, 0.5, 1.0],
        vec![0.1, 0.2, 0.3],
        vec![-1.0, 1.0],
        Box::new(L2Ball::centered(3, 1.5).unwrap()),
        Box::new(Simplex::new(2, 1.0).unwrap()),
    )
    .unwrap();
    seeds.push(
        serde_json::to_string(&q.to_file(&[0.1, -0.2, 0.3], &[0.25, 0.75]).unwrap()).unwrap(),
    );
    seeds
}

/// Parses and validates a problem file; an accepted one is run for a few iterations and its
/// measures are evaluated, as `saddlefw run` would.
fn check_quadratic(text: &str) -> Outcome {
    let file = match QuadraticFile::parse(text, "fuzz.json") {
        Ok(f) => f,
        Err(e) => return rejected(&e, "fuzz.json"),
    };
    let inst = match file.into_instance("fuzz.json") {
        Ok(i) => i,
        Err(e) => return rejected(&e, "fuzz.json"),
    };
    let p = inst.problem.as_ref();
    assert_eq!(inst.x0.len(), p.x_set().dim());
    assert_eq!(inst.y0.len(), p.y_set().dim());
    if p.x_set().dim() * p.y_set().dim() > 400 {
        return Outcome::Accepted; // a duplicated block can make a large instance
    }
    // the measures of the start (extreme accepted values may give inf or NaN, never a panic)
    let _ = measures::evaluate(p, &inst.x0, &inst.y0, 1.0, &inst.y0, 1.0);
    for algo in ["lmo-lmo", "po-lmo"] {
        if let Ok(mut built) = registry::build(algo, p, &Default::default()) {
            let trace = run(&inst, built.solver.as_mut(), &RunConfig::new(4));
            match &trace.status {
                Status::Diverged { iteration, reason } => {
                    assert!(*iteration < 4 && !reason.is_empty());
                    assert!(!trace.checkpoints.is_empty());
                }
                // measures that overflow stop the run, possibly at the start (no checkpoint)
                Status::Inconsistent { iteration, .. } => {
                    assert!(*iteration <= 4);
                    assert!(trace.checkpoints.iter().all(|c| c.t < *iteration));
                }
                Status::Completed | Status::TimeLimit => assert!(!trace.checkpoints.is_empty()),
                s @ (Status::Interrupted { .. } | Status::InProgress { .. }) => {
                    panic!("no stop was requested, yet {s:?}")
                }
            }
        }
    }
    Outcome::Accepted
}

#[test]
fn quadratic_files() {
    let seeds = quadratic_seeds()
        .into_iter()
        .map(String::into_bytes)
        .collect();
    let mut c = Campaign::new("quadratic", seeds, JSON_ALPHABET).with_bom_seeds();
    c.tokens = QUADRATIC_TOKENS;
    c.run(|b| check_quadratic(&fuzz::text(b)));
}

// ---------------------------------------------------------------------------------------------
// Generator specs

const SPEC_ALPHABET: &[u8] = b"abcdilnopqrstuxyz/:=,-+0123456789";
const SPEC_TOKENS: &[&str] = &[
    "quadratic",
    "saddle",
    "cosine",
    "nc-c",
    "c-sc",
    "+sc",
    "dx=",
    "dy=",
    "seed=",
    "x=",
    "l1",
    "l2",
    "simplex",
    "box",
    ",",
    "5000",
    "5001",
    "18446744073709551615",
];
const SPEC_SEEDS: &[&str] = &[
    "quadratic/c-sc+sc:dx=20,dy=10,seed=7",
    "cosine/nc-c:dx=8,dy=4,x=l2",
    "saddle/c-c:dx=3,dy=3,seed=1,x=simplex",
    "quadratic/nc-sc:dx=2,dy=2,x=box",
];

fn check_spec(s: &str) -> Outcome {
    let spec = match s.parse::<GeneratorSpec>() {
        Ok(spec) => spec,
        Err(e) => return rejected(&e, "generator spec"),
    };
    // Display and FromStr round-trip
    assert_eq!(spec.to_string().parse::<GeneratorSpec>().unwrap(), spec);
    if spec.dx * spec.dy <= 400 {
        match spec.generate() {
            Ok(inst) => {
                assert_eq!(inst.x0.len(), spec.dx);
                assert_eq!(inst.y0.len(), spec.dy);
                assert!(inst.problem.x_set().contains(&inst.x0, 1e-9));
            }
            Err(e) => panic!("{spec}: parsed but does not generate: {e}"),
        }
    }
    Outcome::Accepted
}

#[test]
fn generator_specs() {
    let seeds = SPEC_SEEDS.iter().map(|s| s.as_bytes().to_vec()).collect();
    let mut c = Campaign::new("spec", seeds, SPEC_ALPHABET);
    c.tokens = SPEC_TOKENS;
    c.max_mutations = 6;
    c.run(|b| check_spec(&fuzz::text(b)));
}

#[test]
fn every_family_and_setting_spec_parses() {
    for f in Family::ALL {
        for s in Setting::all() {
            let text = format!("{}/{s}:dx=3,dy=2", f.name());
            match text.parse::<GeneratorSpec>() {
                Ok(spec) => assert_eq!(spec.family, f),
                // families restricted to some settings reject the others with a reason
                Err(e) => assert!(e.to_string().contains("setting"), "{e}"),
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Schedules

const SCHEDULE_ALPHABET: &[u8] = b"()=,.-+eE0123456789acfilmnoprstyzAbCx ";
const SCHEDULE_TOKENS: &[&str] = &[
    "zero", "const(", "anytime(", "shifted(", "po-lmo(", "c=", "a=", "s=", "f=", "A=", "b=", "C=",
    "lxx=", "lyx=", "mu=",
];

fn schedule_seeds() -> Vec<String> {
    vec![
        "zero".into(),
        "const(0.5)".into(),
        "anytime(c=1,a=0.8333333333333334)".into(),
        "shifted(c=1.7411011265922482,s=10,a=0.8)".into(),
        "po-lmo(f=0.2,A=1,a=0.5,b=0,C=0,lxx=1,lyx=2,mu=0.5)".into(),
        "po-lmo(f=0.75,A=1,a=0.6666666666666666,b=0.3333333333333333,C=1,lxx=1e-3,lyx=0,mu=0)"
            .into(),
    ]
}

fn check_schedule(s: &str) -> Outcome {
    let sched = match s.parse::<Schedule>() {
        Ok(v) => v,
        Err(e) => return rejected(&e, "schedule"),
    };
    assert_eq!(sched.to_string().parse::<Schedule>().unwrap(), sched);
    for t in [0usize, 1, 2, 10, 1_000, 1_000_000_000] {
        let v = sched.at(t);
        assert!(v >= 0.0 && !v.is_nan(), "{sched} at t = {t}: {v}");
    }
    Outcome::Accepted
}

#[test]
fn schedule_names() {
    let seeds = schedule_seeds()
        .into_iter()
        .map(String::into_bytes)
        .collect();
    let mut c = Campaign::new("schedule", seeds, SCHEDULE_ALPHABET);
    c.tokens = SCHEDULE_TOKENS;
    c.max_mutations = 6;
    c.run(|b| check_schedule(&fuzz::text(b)));
}

// ---------------------------------------------------------------------------------------------
// Theorem tables

const TABLE_TOKENS: &[&str] = &[
    "\"algorithm\": \"lmo-lmo\"",
    "\"setting\": \"nc-c\"",
    "\"assumptions\": []",
    "\"exponent\": \"1/0\"",
    "\"exponent\": \"-1/3\"",
    "\"id\": \"x\"",
    "\"mhat\": null",
    "\"disputed\": {}",
];

/// The built-in table and a one-entry table cut from it.
fn table_seeds() -> Vec<String> {
    let full = include_str!("../fixtures/theorems.json").to_string();
    let v: serde_json::Value = serde_json::from_str(&full).unwrap();
    let first = serde_json::to_string_pretty(&vec![v[0].clone()]).unwrap();
    let two = serde_json::to_string(&vec![v[3].clone(), v[10].clone()]).unwrap();
    vec![full, first, two]
}

fn check_table(text: &str) -> Outcome {
    match theorems::parse_table("fuzz-table.json", text) {
        Ok(entries) => {
            assert!(!entries.is_empty());
            for e in &entries {
                assert!(e.p().is_finite(), "{}: rate exponent {}", e.id, e.p());
            }
            Outcome::Accepted
        }
        Err(e) => rejected(&e, "fuzz-table.json"),
    }
}

#[test]
fn theorem_tables() {
    let seeds = table_seeds().into_iter().map(String::into_bytes).collect();
    let mut c = Campaign::new("table", seeds, JSON_ALPHABET).with_bom_seeds();
    c.tokens = TABLE_TOKENS;
    c.max_mutations = 10;
    c.run(|b| check_table(&fuzz::text(b)));
}

// ---------------------------------------------------------------------------------------------
// RUN.json

const TRACE_TOKENS: &[&str] = &[
    "\"status\": \"time_limit\"",
    "\"status\": {\"diverged\": {\"iteration\": 3, \"reason\": \"x\"}}",
    "\"gap_opt\": null",
    "\"alpha\": null",
    "\"checkpoint_rule\": \"all\"",
    "\"po_lmo_g\": {\"name\": \"G_1\", \"value\": 0.1, \"horizon\": 4}",
];

/// RUN.json of a completed run (with f* and G_1) and of a diverged one.
fn trace_seeds() -> Vec<String> {
    let inst = "saddle/c-sc:dx=3,dy=2,seed=1"
        .parse::<GeneratorSpec>()
        .unwrap()
        .generate()
        .unwrap();
    let mut built = registry::build("po-lmo", inst.problem.as_ref(), &Default::default()).unwrap();
    let mut trace = run(&inst, built.solver.as_mut(), &RunConfig::new(8));
    trace.po_lmo_g = built.g.map(|g| g.report(8));
    let ok = trace.to_json();
    trace.status = Status::Diverged {
        iteration: 5,
        reason: "non-finite grad_x at iteration 5".into(),
    };
    trace.checkpoints.truncate(3);
    trace.checkpoints[2].measures.h = f64::NAN;
    vec![ok, trace.to_json()]
}

fn check_trace(text: &str) -> Outcome {
    match Trace::from_json(text, "fuzz-RUN.json") {
        Ok(t) => {
            // what was read writes back and reads again to the same text (NaN as null)
            let again = Trace::from_json(&t.to_json(), "again").unwrap();
            assert_eq!(again.to_json(), t.to_json());
            Outcome::Accepted
        }
        Err(e) => rejected(&e, "fuzz-RUN.json"),
    }
}

#[test]
fn run_files() {
    let seeds = trace_seeds().into_iter().map(String::into_bytes).collect();
    let mut c = Campaign::new("trace", seeds, JSON_ALPHABET).with_bom_seeds();
    c.tokens = TRACE_TOKENS;
    c.max_mutations = 10;
    c.run(|b| check_trace(&fuzz::text(b)));
}

/// Regressions found by the campaign (also replayed from fixtures/proptest-regressions/).
#[test]
fn regressions() {
    // PoLmoTau::at computed 13 Lyx^2 (t+1)^b / (2C) with 2C = inf for C near f64::MAX: NaN
    for s in [
        "po-lmo(f=0.2,A=1,a=0.5,b=100,C=1.7976931348623157e308,lxx=1,lyx=2,mu=0.5)",
        "po-lmo(f=0.2,A=1,a=0.5,b=4294967297,C=1.7976931348623157e308,lxx=1,lyx=2,mu=0.5)",
        "po-lmo(f=0.2,A=1,a=0.5,b=0,C=0,lxx=1,lyx=2,mu=1.7976931348623157e308)",
    ] {
        assert_eq!(check_schedule(s), Outcome::Accepted, "{s}");
    }
    // an empty key named no location
    assert_eq!(check_schedule("anytime(c=1,=1)"), Outcome::Rejected);
    assert_eq!(check_spec("saddle/c-c:dx=3,=2"), Outcome::Rejected);
}

/// The engine itself: mutations change inputs, positions wrap, a token lands intact.
#[test]
fn mutation_engine_edits_as_documented() {
    let base = b"abc".to_vec();
    assert_eq!(
        fuzz::mutate(base.clone(), &[Mutation::Replace(4, b'x')]),
        b"axc"
    );
    assert_eq!(
        fuzz::mutate(base.clone(), &[Mutation::Insert(3, b'x')]),
        b"abcx"
    );
    assert_eq!(fuzz::mutate(base.clone(), &[Mutation::Delete(5)]), b"ab");
    assert_eq!(
        fuzz::mutate(base.clone(), &[Mutation::Duplicate(1, 5)]),
        b"abcbc"
    );
    assert_eq!(fuzz::mutate(base.clone(), &[Mutation::Truncate(1)]), b"a");
    assert_eq!(
        fuzz::mutate_with(base.clone(), &[Mutation::Token(1, 0)], &["XY"]),
        b"aXYbc"
    );
    assert_eq!(fuzz::mutate(Vec::new(), &[Mutation::Delete(0)]), b"");
    assert_eq!(
        fuzz::mutate(b"[1.5e3, 2]".to_vec(), &[Mutation::Number(0, 3)]),
        b"[-1, 2]"
    );
    assert_eq!(
        fuzz::mutate(b"[1.5e3, 2]".to_vec(), &[Mutation::Number(6, 0)]),
        b"[1.5e3, 0]"
    );
}

// ---------------------------------------------------------------------------------------------
// Rate baselines (`saddlefw verify --baselines FILE`)

fn check_baselines(text: &str) -> Outcome {
    match saddlefw::fit::parse_baselines("fuzz-baselines.json", text) {
        Ok(b) => {
            assert!(b.values().all(|v| v.is_finite()));
            Outcome::Accepted
        }
        Err(e) => rejected(&e, "fuzz-baselines.json"),
    }
}

#[test]
fn baseline_files() {
    let seeds = vec![
        include_bytes!("../fixtures/rate_baselines.json").to_vec(),
        b"{\"lmo-lmo/nc-c/primal\": 0.5}".to_vec(),
    ];
    let mut c = Campaign::new("baselines", seeds, JSON_ALPHABET).with_bom_seeds();
    c.max_mutations = 6;
    c.run(|b| check_baselines(&fuzz::text(b)));
}

// ---------------------------------------------------------------------------------------------
// Hard-instance fixtures (`fixtures/hard/*.json`, read by verify and tighten)

fn check_fixture(text: &str) -> Outcome {
    use saddlefw::tightness::{Family as HardFamily, HardFixture};
    match HardFixture::parse("fuzz-fixture.json", text) {
        Ok(f) => {
            // build the instance when it is small (dimensions are validated up to 500)
            let small = match &f.spec.params {
                HardFamily::Face(p) => p.dx * p.dy <= 2_500,
                HardFamily::Generator { .. } => true,
            };
            if small {
                if let Ok(h) = f.spec.build() {
                    assert_eq!(h.instance.x0.len(), h.instance.problem.x_set().dim());
                }
            }
            Outcome::Accepted
        }
        Err(e) => rejected(&e, "fuzz-fixture.json"),
    }
}

#[test]
fn hard_fixtures() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/hard");
    let mut paths: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    paths.sort();
    // a few different families: the first, a middle and the last file
    let picks = [0, paths.len() / 2, paths.len() - 1];
    let seeds = picks
        .iter()
        .map(|&i| std::fs::read(&paths[i]).unwrap())
        .collect();
    let mut c = Campaign::new("fixture", seeds, JSON_ALPHABET).with_bom_seeds();
    c.max_mutations = 6;
    c.run(|b| check_fixture(&fuzz::text(b)));
}

// ---------------------------------------------------------------------------------------------
// verify.json (read by `saddlefw merge`) and experiment.json (read by `experiment --rerender`)

/// Runs the binary; the output directory's file.
fn produce(args: &[&str], dir: &std::path::Path, file: &str) -> Vec<u8> {
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_saddlefw"))
        .args(args)
        .args(["--out", dir.to_str().unwrap(), "--quiet"])
        .output()
        .unwrap();
    assert!(
        o.status.code() == Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    std::fs::read(dir.join(file)).unwrap()
}

fn check_verify_json(text: &str) -> Outcome {
    match saddlefw::verify::VerifyReport::parse("fuzz-verify.json", text) {
        Ok(r) => {
            // what merge does with a shard besides re-judging: render its entries
            let meta = saddlefw::report::Meta::current(Some("quick"), &[]);
            let page = saddlefw::report::verify_page(&meta, &r.rate_entries(), &[], &[]);
            assert!(page.starts_with("<!DOCTYPE html>"));
            Outcome::Accepted
        }
        Err(e) => rejected(&e, "fuzz-verify.json"),
    }
}

#[test]
fn verify_reports() {
    let dir = tempfile::tempdir().unwrap();
    let seed = produce(
        &["verify", "--tier", "quick", "--cases", "lmo-po/c-sc/dual"],
        dir.path(),
        "verify.json",
    );
    let mut c = Campaign::new("verify", vec![seed], JSON_ALPHABET).with_bom_seeds();
    c.cases = (fuzz::cases() / 4).max(1); // a large seed: each input is slower
    c.max_mutations = 6;
    c.run(|b| check_verify_json(&fuzz::text(b)));
}

fn check_experiment_json(text: &str) -> Outcome {
    use saddlefw::experiments::{claims, record::ExperimentRecord};
    match ExperimentRecord::parse("fuzz-experiment.json", text) {
        Ok(mut r) => {
            // what --rerender does: re-judge the claims and render the page
            if let Ok(which) = r.experiment.parse() {
                r.claims = claims::verdicts(which, &r.runs);
            }
            let page = saddlefw::report::experiment_page(&r.meta, &r.to_report());
            assert!(page.starts_with("<!DOCTYPE html>"));
            Outcome::Accepted
        }
        Err(e) => rejected(&e, "fuzz-experiment.json"),
    }
}

#[test]
fn experiment_records() {
    let dir = tempfile::tempdir().unwrap();
    let seed = produce(
        &[
            "experiment",
            "dl",
            "--dl-dims",
            "m=12,p=6,l=2,q=8,n=40,n_new=9",
            "--time-limit",
            "0.05",
            "--iters",
            "30",
        ],
        dir.path(),
        "experiment.json",
    );
    let mut c = Campaign::new("experiment", vec![seed], JSON_ALPHABET).with_bom_seeds();
    c.cases = (fuzz::cases() / 4).max(1);
    c.max_mutations = 6;
    c.run(|b| check_experiment_json(&fuzz::text(b)));
}

// ---------------------------------------------------------------------------------------------
// CHECK.json shards (read by `saddlefw merge`)

fn check_check_shard(text: &str) -> Outcome {
    match saddlefw::invariants::check::merge_shards(&[("fuzz-CHECK.json".into(), text.into())]) {
        Ok(r) => {
            // what merge writes: the report's JSON and its table
            assert!(serde_json::to_string(&r).is_ok());
            let _ = r.table();
            Outcome::Accepted
        }
        Err(e) => rejected(&e, "fuzz-CHECK.json"),
    }
}

#[test]
fn check_shards() {
    let dir = tempfile::tempdir().unwrap();
    let seed = produce(
        &["check", "--cases", "1", "--shard", "1/1"],
        dir.path(),
        "CHECK.json",
    );
    let mut c = Campaign::new("check", vec![seed], JSON_ALPHABET).with_bom_seeds();
    // an accepted shard is merged (its tallies folded, the real-number grids re-run): about
    // 70 ms per input on 2 cores, so a 25th of the count (SADDLEFW_FUZZ_CASES for more)
    c.cases = (fuzz::cases() / 25).max(1);
    c.max_mutations = 6;
    c.run(|b| check_check_shard(&fuzz::text(b)));
}

// ---------------------------------------------------------------------------------------------
// User theorem files and their envelope formulas (issue 15)

const USER_TOKENS: &[&str] = &[
    "\"solver\": \"po-lmo\",",
    "\"measure\": \"h\"",
    "\"aggregate\": \"min_0_T\"",
    "\"sigma\": \"tau0\"",
    "\"kind\": \"po-lmo-appendix\", \"factor\": 0.2, \"A\": 1,",
    "\"envelope\": \"log(T+2)^2 / (T+1)^(1/3)\",",
    "\"setting\": \"nc-sc+sc\"",
    "\"T_min\": 0,",
    "\"log_power\": 1e308,",
    "\"p\": 1,",
];

fn check_user_file(text: &str) -> Outcome {
    match saddlefw::paper::user::parse("fuzz-user.json", text) {
        Ok(entries) => {
            assert!(!entries.is_empty());
            for e in &entries {
                assert!(e.p() > 0.0 && e.p().is_finite(), "{}: p = {}", e.id, e.p());
                assert!(e.case.starts_with(e.algorithm.name()), "{}", e.case);
                if let Some(f) = &e.envelope {
                    let _ = f.eval(&|_| 1.0);
                }
            }
            Outcome::Accepted
        }
        Err(e) => rejected(&e, "fuzz-user.json"),
    }
}

#[test]
fn user_theorem_files() {
    let seeds = vec![
        include_str!("../fixtures/user-theorems/sqrt-step.json")
            .as_bytes()
            .to_vec(),
        include_str!("../fixtures/user-theorems/false-claim.json")
            .as_bytes()
            .to_vec(),
    ];
    let mut c = Campaign::new("user-theorems", seeds, JSON_ALPHABET).with_bom_seeds();
    c.tokens = USER_TOKENS;
    c.max_mutations = 10;
    c.run(|b| check_user_file(&fuzz::text(b)));
}

const FORMULA_ALPHABET: &[u8] = b"()+-*/^.,0123456789eE TLxyDmuabClogsqrtexpminax_";

/// An accepted formula evaluates without a panic and prints back the text it was given.
#[test]
fn envelope_formulas() {
    use saddlefw::paper::formula::Formula;
    use saddlefw::paper::user::ENVELOPE_VARS;
    let seeds = [
        "(Lxx*Dx^2 + Lyx*Dx*Dy + Lyy*Dy^2) * (T+1)^(-1/4)",
        "max(Dx, Dy)^2 * log(T+2)^2 / sqrt(T+1)",
        "-exp(-mu*T) + min(a, b) * C",
    ];
    let mut seeds: Vec<Vec<u8>> = seeds.iter().map(|s| s.as_bytes().to_vec()).collect();
    // long chains (issue 35): lists, not nestings, so mutations of them never recurse deeply
    seeds.push(vec!["T"; 400].join("+").into_bytes());
    seeds.push(vec!["(T+1)"; 300].join("*").into_bytes());
    let mut c = Campaign::new("formula", seeds, FORMULA_ALPHABET);
    c.max_mutations = 12;
    c.run(|b| {
        let text = fuzz::text(b);
        match Formula::parse(&text, &ENVELOPE_VARS) {
            Ok(f) => {
                assert_eq!(f.text(), text);
                let _ = f.eval(&|_| 2.0);
                Outcome::Accepted
            }
            Err(reason) => {
                assert!(reason.contains(" at character "), "{reason}");
                Outcome::Rejected
            }
        }
    });
}

// ---------------------------------------------------------------------------------------------
// Iterate files (`saddlefw verify-iterates`, JSON Lines) and export manifests

/// Reads every iterate of `bytes` (dx = 3, dy = 2): an accepted file has t = 0, 1, ... with
/// finite entries; a rejected one names the file and a line.
fn check_iterates(bytes: &[u8]) -> Outcome {
    use saddlefw::iterates::format::IterateReader;
    let mut r = IterateReader::new(bytes, "fuzz-iterates.jsonl", 3, 2);
    let (mut x, mut y) = (vec![0.0; 3], vec![0.0; 2]);
    let mut expect = 0;
    loop {
        match r.next_into(&mut x, &mut y) {
            Ok(Some(t)) => {
                assert_eq!(t, expect);
                assert!(x.iter().chain(&y).all(|v| v.is_finite()));
                expect += 1;
            }
            Ok(None) => return Outcome::Accepted,
            Err(e) => {
                assert!(e.to_string().contains(": line "), "{e}");
                return rejected(&e, "fuzz-iterates.jsonl");
            }
        }
    }
}

const ITERATE_TOKENS: &[&str] = &[
    "{\"t\": 0, \"x\": [0, 0, 1], \"y\": [1, 0]}\n",
    "\"t\": 4294967297,",
    "\"x\": [],",
    "\"y\": [1e309, 0]",
    "NaN",
    "Infinity",
    "\n\n",
    "\r\n",
    "\u{feff}",
];

#[test]
fn iterate_files() {
    let seeds = vec![
        b"{\"t\": 0, \"x\": [0.5, 0.25, 0.25], \"y\": [1, 0]}\n{\"t\": 1, \"x\": [0, 0, 1], \"y\": [0.5, 0.5]}\n{\"t\": 2, \"x\": [-1e-3, 2.5e-1, 7.51e-1], \"y\": [0, 1]}\n".to_vec(),
        b"{\"x\": [1, 2, 3], \"y\": [4, 5], \"t\": 0}\r\n\n  {\"t\":1,\"x\":[0,0,0],\"y\":[0,0]}".to_vec(),
    ];
    let mut c = Campaign::new("iterates", seeds, JSON_ALPHABET).with_bom_seeds();
    c.tokens = ITERATE_TOKENS;
    c.run(check_iterates);
}

/// A manifest written by `export` (small sizes, no hard instances).
fn manifest_seed() -> Vec<u8> {
    use saddlefw::iterates::{export, ExportOptions};
    use saddlefw::verify::{Tier, TierConfig};
    let dir = tempfile::tempdir().unwrap();
    let opts = ExportOptions {
        tier: Tier::Quick,
        filter: Some("lmo-lmo/nc-c".into()),
        config: Some(TierConfig {
            seeds: 2,
            t_max: 16,
            dim_x: 3,
            dim_y: 2,
        }),
        hard: None,
        confirmation: false,
    };
    export(&theorems::builtin(), &opts, dir.path()).unwrap();
    std::fs::read(dir.path().join("manifest.json")).unwrap()
}

fn check_manifest(text: &str) -> Outcome {
    use saddlefw::iterates::manifest::Manifest;
    match Manifest::parse("fuzz-manifest.json", text) {
        Ok(m) => {
            // what verify-iterates does with it besides re-planning: resolve every path
            for j in &m.jobs {
                assert!(!std::path::Path::new(&j.iterates).is_absolute());
                assert!(j.t_last >= j.t_max);
            }
            let again = serde_json::to_string(&m).unwrap();
            assert_eq!(Manifest::parse("again", &again).unwrap(), m);
            Outcome::Accepted
        }
        Err(e) => rejected(&e, "fuzz-manifest.json"),
    }
}

#[test]
fn export_manifests() {
    let mut c = Campaign::new("manifest", vec![manifest_seed()], JSON_ALPHABET).with_bom_seeds();
    c.max_mutations = 6;
    c.run(|b| check_manifest(&fuzz::text(b)));
}

/// Chains of 200,000 terms (`+ - * /`, 1.2 MB of text is over the limit and refused) parse and
/// evaluate without a stack overflow: no recursion grows with a chain's length (issue 35).
#[test]
fn envelope_formula_chains_of_any_length_within_the_size_limit() {
    use saddlefw::paper::formula::{Formula, MAX_LEN};
    let n = 200_000;
    for (op, want) in [
        ("+", n as f64),
        ("*", 1.0),
        ("-", 2.0 - n as f64),
        ("/", 1.0),
    ] {
        let text = vec!["T"; n].join(op);
        let f = Formula::parse(&text, &["T"]).unwrap();
        assert_eq!(f.eval(&|_| 1.0), want, "{op}");
        drop(f);
    }
    let text = vec!["T*T"; n / 2].join("+");
    assert_eq!(
        Formula::parse(&text, &["T"]).unwrap().eval(&|_| 2.0),
        2.0 * n as f64
    );
    let long = "T+".repeat(MAX_LEN / 2) + "T";
    let e = Formula::parse(&long, &["T"]).unwrap_err();
    assert!(e.contains("at most"), "{e}");
    // nesting is still bounded (the control: a deep nesting is refused, not a crash)
    let deep = "(".repeat(10_000) + "T" + &")".repeat(10_000);
    assert!(Formula::parse(&deep, &["T"])
        .unwrap_err()
        .contains("nested too deeply"));
}

// ---------------------------------------------------------------------------------------------
// Journals of finished jobs (issue 17: read by `verify`, `check`, `experiment` and `tighten`
// with `--resume DIR` after a kill)

fn check_journal(text: &str) -> Outcome {
    use saddlefw::journal::{parse, Header};
    use saddlefw::verify::resume::Finished;
    let input = "fuzz.json.journal";
    let accepted = |h: &Header| {
        // what a resume does next: compare the header with its own arguments
        let work = saddlefw::resume::Identity::current(
            vec![("--tier", "quick".into())],
            Default::default(),
        );
        let _ = h
            .check_command(input, "verify")
            .and_then(|_| work.accept(input, &h.identity()));
        Outcome::Accepted
    };
    // the checksums stop almost every mutation at once: the lines are also parsed with their
    // checksums made to hold again (what a hand edit that recomputes them gives)
    let resummed = resum(text);
    if let Outcome::Accepted = check_one_journal(input, &resummed, &accepted) {
        return Outcome::Accepted;
    }
    match parse::<Finished>(input, text) {
        Ok(_) => Outcome::Accepted,
        Err(_) => check_one_journal(input, text, &accepted),
    }
}

/// `text` with every complete line's checksum (`SUM REST`) recomputed.
fn resum(text: &str) -> String {
    use sha2::Digest;
    let mut lines: Vec<String> = text.split('\n').map(String::from).collect();
    let last = lines.len() - 1;
    for l in &mut lines[..last] {
        if let Some((_, rest)) = l.split_once(' ') {
            let sum: String = sha2::Sha256::digest(rest.as_bytes())[..8]
                .iter()
                .map(|b| format!("{b:02x}"))
                .collect();
            *l = format!("{sum} {rest}");
        }
    }
    lines.join("\n")
}

fn check_one_journal(
    input: &str,
    text: &str,
    accepted: &dyn Fn(&saddlefw::journal::Header) -> Outcome,
) -> Outcome {
    use saddlefw::invariants::check::JobTallies;
    use saddlefw::journal::parse;
    use saddlefw::verify::resume::Finished;
    match parse::<Finished>(input, text) {
        Ok((h, jobs)) => {
            assert!(jobs.iter().all(|j| serde_json::to_string(j).is_ok()));
            accepted(&h)
        }
        Err(e) => match parse::<JobTallies>(input, text) {
            Ok((h, _)) => accepted(&h),
            Err(_) => match parse::<saddlefw::iterates::written::Written>(input, text) {
                Ok((h, _)) => accepted(&h),
                Err(_) => rejected(&e, input),
            },
        },
    }
}

/// A verify journal (two jobs of a test-tier run and a hard run) and a check journal (one job).
fn journal_seeds() -> Vec<Vec<u8>> {
    use saddlefw::journal::{Header, Journal};
    use saddlefw::verify::hard::HardRun;
    use saddlefw::verify::resume::Finished;
    use saddlefw::verify::{Tier, TierConfig, VerifyOptions};
    let dir = tempfile::tempdir().unwrap();
    let mut opts = VerifyOptions::new(Tier::Test).filter("lmo-po/c-sc/dual");
    opts.config = Some(TierConfig {
        seeds: 1,
        t_max: 64,
        dim_x: 4,
        dim_y: 3,
    });
    let report = saddlefw::verify::run(&theorems::builtin(), &opts).unwrap();
    let e = &report.entries[0];
    let mut lines: Vec<Finished> = e
        .instances
        .iter()
        .map(|r| Finished::Job {
            key: (e.case.clone(), r.family.clone(), r.seed_index),
            runs: vec![(e.id.clone(), r.clone())],
        })
        .collect();
    lines.push(Finished::Hard(HardRun {
        entry: e.id.clone(),
        run: e.instances[0].clone(),
        time_s: 0.5,
    }));
    let verify = dir.path().join("verify.json.journal");
    let header = Header::new(
        "verify",
        vec![("--tier".into(), "test".into())],
        Default::default(),
        3,
    );
    let last = lines.pop().unwrap();
    Journal::create(&verify, &header, &lines, 60.0)
        .unwrap()
        .append(&last);
    let shard = "1/1".parse().unwrap();
    let check = saddlefw::invariants::check::run_check_shard(
        1,
        0,
        &saddlefw::invariants::check::CaseOptions::default(),
        1,
        Some(shard),
    )
    .unwrap();
    let path = dir.path().join("CHECK.json.journal");
    let header = Header::new(
        "check",
        vec![("--cases".into(), "1".into())],
        Default::default(),
        1,
    );
    let job = &check.shard.as_ref().unwrap().results[0];
    let none: &[u32] = &[];
    Journal::create(&path, &header, none, 60.0)
        .unwrap()
        .append(job);
    // and an export's (`export --write-iterates`: one line per iterates file)
    let export = dir.path().join("manifest.json.journal");
    let header = Header::new(
        "export",
        vec![("--tier".into(), "quick".into())],
        Default::default(),
        2,
    );
    let written = saddlefw::iterates::written::Written {
        id: "lmo-lmo-c-sc__quadratic__s0".into(),
        sha256: saddlefw::fingerprint::sha256(b"{}"),
    };
    Journal::create(&export, &header, &[written.clone()], 60.0)
        .unwrap()
        .append(&written);
    vec![
        std::fs::read(verify).unwrap(),
        std::fs::read(path).unwrap(),
        std::fs::read(export).unwrap(),
    ]
}

#[test]
fn journals() {
    let mut c = Campaign::new("journal", journal_seeds(), JSON_ALPHABET);
    c.cases = (fuzz::cases() / 4).max(1); // seeds of a few kB per line
    c.max_mutations = 6;
    c.run(|b| check_journal(&fuzz::text(b)));
}
