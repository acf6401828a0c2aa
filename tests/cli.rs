//! The `saddlefw` binary: `run` writes RUN.json with the documented fields, deterministic
//! apart from timings; bad input exits with code 2 and one line `error: ...` naming the
//! input, never a panic; `list` shows the registries.

use serde_json::Value;
use std::path::Path;

use crate::common::{saddlefw, Out};

/// Exit code 2, exactly one line on stderr starting with `error:` and containing `needle`.
fn assert_usage_error(o: &Out, needle: &str) {
    assert_eq!(o.code, 2, "stderr: {}", o.stderr);
    assert!(!o.stderr.contains("panicked"), "{}", o.stderr);
    let lines: Vec<&str> = o.stderr.lines().collect();
    assert_eq!(lines.len(), 1, "expected one line, got {:?}", o.stderr);
    assert!(lines[0].starts_with("error: "), "{}", lines[0]);
    assert!(
        lines[0].contains(needle),
        "{:?} does not mention {needle:?}",
        lines[0]
    );
}

fn run_args<'a>(problem: &'a str, algo: &'a str, out: &'a str) -> Vec<&'a str> {
    vec![
        "run",
        "--problem",
        problem,
        "--algo",
        algo,
        "--iters",
        "64",
        "--out",
        out,
    ]
}

fn read(path: &Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// RUN.json with the timing fields removed.
fn without_timings(mut v: Value) -> Value {
    let o = v.as_object_mut().unwrap();
    for k in ["wall_time_s", "measure_time_s", "total_time_s"] {
        assert!(o.remove(k).is_some(), "missing {k}");
    }
    for c in o["checkpoints"].as_array_mut().unwrap() {
        assert!(c.as_object_mut().unwrap().remove("time_s").is_some());
    }
    v
}

#[test]
fn run_writes_every_documented_field() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("RUN.json");
    let o = saddlefw(&run_args(
        "saddle/c-c:dx=5,dy=4,seed=3",
        "lmo-lmo",
        out.to_str().unwrap(),
    ));
    assert_eq!(o.code, 0, "{}", o.stderr);
    assert!(o.stdout.contains("completed"), "{}", o.stdout);
    let v = read(&out);
    for k in [
        "algorithm",
        "problem",
        "schedule",
        "constants",
        "f_star",
        "status",
        "iterations",
        "wall_time_s",
        "oracle_calls",
        "checkpoints",
        "theorem_case",
        "provenance",
        "seed",
        "measure_time_s",
    ] {
        assert!(v.get(k).is_some(), "RUN.json lacks {k}");
    }
    for k in [
        "lxx", "lyx", "lyy", "mu", "alpha", "dx", "dy", "diam_x", "diam_y",
    ] {
        assert!(v["constants"].get(k).is_some(), "constants lack {k}");
    }
    assert_eq!(v["constants"]["dx"], 5);
    assert_eq!(v["algorithm"], "lmo-lmo");
    assert_eq!(v["status"], "completed");
    assert_eq!(v["iterations"], 64);
    assert_eq!(v["seed"], 3);
    assert_eq!(
        v["theorem_case"],
        "theorem:fw-fw-unified-c-c-convergence (i) fw-fw:c-c"
    );
    assert!(v["f_star"]["lower"].is_number() && v["f_star"]["upper"].is_number());
    let cps = v["checkpoints"].as_array().unwrap();
    let ts: Vec<u64> = cps.iter().map(|c| c["t"].as_u64().unwrap()).collect();
    assert_eq!(ts, [0, 1, 2, 4, 8, 16, 32, 64]);
    for c in cps {
        for k in [
            "t", "time_s", "gx_lmo", "gx_po", "gy", "gy_lmo", "h", "gap_opt",
        ] {
            assert!(c.get(k).is_some(), "checkpoint lacks {k}");
        }
        assert!(
            c["gap_opt"].is_number(),
            "f* is known for the saddle family"
        );
    }
    assert_eq!(v["oracle_calls"]["lmo_x"], 64);
    assert_eq!(v["oracle_calls"]["proj_x"], 0);
    // no temporary file left behind
    let names: Vec<_> = std::fs::read_dir(dir.path()).unwrap().collect();
    assert_eq!(names.len(), 1);
}

#[test]
fn same_seed_and_arguments_give_identical_run_files_apart_from_timings() {
    let dir = tempfile::tempdir().unwrap();
    for algo in [
        "lmo-lmo", "lmo-po", "po-lmo", "sp-fw", "agp", "r-pdcg", "cg-rpga",
    ] {
        let a = dir.path().join(format!("{algo}-a.json"));
        let b = dir.path().join(format!("{algo}-b.json"));
        for out in [&a, &b] {
            let mut args = run_args("quadratic/nc-c+sc:dx=6,dy=4", algo, out.to_str().unwrap());
            args.extend(["--seed", "5", "--checkpoints", "all", "--quiet"]);
            let o = saddlefw(&args);
            assert_eq!(o.code, 0, "{algo}: {}", o.stderr);
            assert!(o.stdout.is_empty());
        }
        let (va, vb) = (without_timings(read(&a)), without_timings(read(&b)));
        assert_eq!(va, vb, "{algo}");
        assert_eq!(va["seed"], 5);
        assert_eq!(va["checkpoints"].as_array().unwrap().len(), 65);
        assert!(va["provenance"].as_str().unwrap().len() > 10);
        // a different seed gives a different run (the comparison can fail)
        let c = dir.path().join(format!("{algo}-c.json"));
        let mut args = run_args("quadratic/nc-c+sc:dx=6,dy=4", algo, c.to_str().unwrap());
        args.extend(["--seed", "6", "--checkpoints", "all", "--quiet"]);
        assert_eq!(saddlefw(&args).code, 0);
        assert_ne!(without_timings(read(&c)), va, "{algo}");
    }
}

#[test]
fn a_problem_file_is_run_and_its_label_recorded() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("p.json");
    std::fs::write(
        &file,
        r#"{"format": "saddlefw-quadratic-v1",
            "A": [[1, 0], [0, 1]], "B": [[1, 0], [0, 1]], "C": [[0.5, 0], [0, 0.5]],
            "a": [0, 0], "c": [0.5, -0.5],
            "x_set": {"kind": "l1_ball", "radius": 1}, "y_set": {"kind": "simplex"},
            "x0": [0, 0], "y0": [1, 0]}"#,
    )
    .unwrap();
    let out = dir.path().join("RUN.json");
    let o = saddlefw(&run_args(
        file.to_str().unwrap(),
        "po-lmo",
        out.to_str().unwrap(),
    ));
    assert_eq!(o.code, 0, "{}", o.stderr);
    let v = read(&out);
    assert_eq!(v["problem"], file.to_str().unwrap());
    assert_eq!(v["setting"], "c-sc");
    assert!(v["seed"].is_null());
    // PO-LMO default: appendix schedule with the C = 0 repair, G_1 reported, sigma = tau_0
    assert_eq!(v["po_lmo_g"]["name"], "G_1");
    assert!(v["schedule"]
        .as_str()
        .unwrap()
        .starts_with("tau=po-lmo(f=0.2,A=1,a=0.5,b=0,C=0,"));
    assert!(v["sigma"].as_f64().unwrap() < 1.0);
}

#[test]
fn bad_inputs_exit_2_with_one_line_naming_the_input() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("RUN.json");
    let out = out.to_str().unwrap();
    let bad = dir.path().join("bad.json");
    std::fs::write(
        &bad,
        "{\"format\": \"saddlefw-quadratic-v1\", \"A\": [[1]],",
    )
    .unwrap();
    let bad = bad.to_str().unwrap();
    assert_usage_error(&saddlefw(&run_args(bad, "lmo-lmo", out)), "bad.json");
    // a file that parses but fails validation: x0 outside X
    let infeasible = dir.path().join("infeasible.json");
    std::fs::write(
        &infeasible,
        r#"{"format": "saddlefw-quadratic-v1", "A": [[0]], "B": [[1]], "C": [[1]],
            "a": [0], "c": [0], "x_set": {"kind": "l1_ball", "radius": 1},
            "y_set": {"kind": "l2_ball", "radius": 1}, "x0": [3], "y0": [0]}"#,
    )
    .unwrap();
    let o = saddlefw(&run_args(infeasible.to_str().unwrap(), "lmo-lmo", out));
    assert_usage_error(&o, "x0");
    assert_usage_error(
        &saddlefw(&run_args(
            &dir.path().join("missing.json").display().to_string(),
            "lmo-lmo",
            out,
        )),
        "missing.json",
    );
    assert_usage_error(
        &saddlefw(&run_args("quadratic/nc-c:dx=3,dy=2", "fw-fw", out)),
        "unknown algorithm",
    );
    assert_usage_error(
        &saddlefw(&run_args("quadratic/xx-c:dx=3,dy=2", "lmo-lmo", out)),
        "setting",
    );
    // C = 0 with mu = 0
    let mut args = run_args("quadratic/nc-c:dx=3,dy=2", "lmo-lmo", out);
    args.extend(["--beta0", "0"]);
    assert_usage_error(&saddlefw(&args), "mu");
    // non-positive iteration counts
    for n in ["0", "-3"] {
        let o = saddlefw(&[
            "run",
            "--problem",
            "quadratic/nc-c:dx=3,dy=2",
            "--algo",
            "lmo-lmo",
            "--iters",
            n,
            "--out",
            out,
        ]);
        assert_usage_error(&o, "--iters");
    }
    // values out of domain, flags an algorithm does not take, unknown flags, bad numbers
    for (extra, needle) in [
        (vec!["--time-limit", "0"], "--time-limit"),
        (vec!["--sigma", "-1"], "--sigma"),
        (vec!["--checkpoints", "some"], "--checkpoints"),
        (vec!["--tau-schedule", "anytime(c=1)"], "--tau-schedule"),
        (vec!["--horizon", "10"], "--horizon"),
        (vec!["--a", "abc"], "--a"),
        (vec!["--frobnicate"], "--frobnicate"),
    ] {
        let mut args = run_args("quadratic/nc-c:dx=3,dy=2", "lmo-lmo", out);
        args.extend(extra);
        assert_usage_error(&saddlefw(&args), needle);
    }
    let mut args = run_args("quadratic/nc-c:dx=3,dy=2", "sp-fw", out);
    args.extend(["--tau0", "0.5"]);
    assert_usage_error(&saddlefw(&args), "sp-fw");
    assert_usage_error(
        &saddlefw(&run_args("quadratic/nc-c:dx=3,dy=2", "r-pdcg", out)),
        "strongly convex",
    );
    let mut args = run_args(bad, "lmo-lmo", out);
    args.extend(["--seed", "1"]);
    assert_usage_error(&saddlefw(&args), "--seed");
    assert_usage_error(&saddlefw(&["run", "--algo", "lmo-lmo"]), "--problem");
    // nothing was written
    assert!(!Path::new(out).exists());
}

#[test]
fn list_shows_the_registries() {
    let o = saddlefw(&["list"]);
    assert_eq!(o.code, 0);
    for name in [
        "lmo-lmo", "lmo-po", "po-lmo", "sp-fw", "agp", "r-pdcg", "cg-rpga",
    ] {
        assert!(o.stdout.contains(name), "{name}");
    }
    for word in [
        "RECONSTRUCTED",
        "VERIFIED",
        "anytime(c=C,a=A)",
        "fw-pr:c-sc+sc",
        "nuclear_ball",
        "cosine",
    ] {
        assert!(o.stdout.contains(word), "{word}");
    }
    let h = saddlefw(&["--help"]);
    assert_eq!(h.code, 0);
    assert!(h.stdout.contains("run") && h.stdout.contains("list"));
}
