//! The binary's user contract (issue 9): every class of bad input exits with code 2 and ONE
//! line `error: ...` naming the input (and where possible the location), never a panic; a
//! diverging run exits 2 too, after writing RUN.json with the iteration and cause; `--help` of every
//! subcommand has examples and exit codes; `list` prints the registries, not a copy of them.
//!
//! The classes of bad input of issue 9 and where they reach the binary: file not found (problem
//! file, RUN.json, LIBSVM `--data`), malformed JSON (problem file, baselines, RUN.json, shard,
//! hard fixture, experiment.json) or LIBSVM (bad token, index 0, bzip2), shape mismatch,
//! infeasible start, invalid schedule, non-finite values (JSON overflow, LIBSVM `nan`, NaN/inf
//! flags): exit 2, one line naming the input. Non-finite values *during* a run: exit 2, one
//! line naming the problem, the iteration and the cause, and RUN.json keeps every checkpoint
//! before it (README, `saddlefw --help`). A closed stdout is not a panic either.

use std::path::Path;
use std::process::Command;

use crate::common::{saddlefw, Out};

/// Exit code 2, one stderr line `error: ...` containing every needle, no panic.
#[track_caller]
fn usage_error(o: &Out, needles: &[&str]) {
    assert!(!o.stderr.contains("panicked"), "{}", o.stderr);
    assert_eq!(o.code, 2, "stderr: {}", o.stderr);
    let lines: Vec<&str> = o.stderr.lines().collect();
    assert_eq!(lines.len(), 1, "expected one line, got {:?}", o.stderr);
    assert!(lines[0].starts_with("error: "), "{}", lines[0]);
    for n in needles {
        assert!(
            lines[0].contains(n),
            "{:?} does not mention {n:?}",
            lines[0]
        );
    }
}

const VALID: &str = r#"{"format": "saddlefw-quadratic-v1",
 "A": [[1, 0], [0, 1]], "B": [[1, 0], [0, 1]], "C": [[0.5, 0], [0, 0.5]],
 "a": [0, 0], "c": [0.5, -0.5],
 "x_set": {"kind": "l1_ball", "radius": 1}, "y_set": {"kind": "simplex"},
 "x0": [0, 0], "y0": [1, 0]}"#;

/// Writes `text` to `dir/name` and returns the path.
fn file(dir: &Path, name: &str, text: &[u8]) -> String {
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p.to_str().unwrap().to_string()
}

fn run(problem: &str, out: &str, extra: &[&str]) -> Out {
    let mut args = vec![
        "run",
        "--problem",
        problem,
        "--algo",
        "lmo-lmo",
        "--iters",
        "8",
        "--out",
        out,
    ];
    args.extend(extra);
    saddlefw(&args)
}

#[test]
fn bad_problem_files_name_the_file_the_location_and_the_reason() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let out = d.join("RUN.json");
    let out = out.to_str().unwrap();
    // the valid file runs (the control: the error cases below differ by one defect each)
    let ok = file(d, "valid.json", VALID.as_bytes());
    assert_eq!(run(&ok, out, &["--quiet"]).code, 0);
    std::fs::remove_file(out).unwrap();

    let missing = d.join("missing.json");
    usage_error(
        &run(missing.to_str().unwrap(), out, &[]),
        &["missing.json", "No such file"],
    );
    let truncated = file(d, "truncated.json", &VALID.as_bytes()[..60]);
    usage_error(&run(&truncated, out, &[]), &["truncated.json", "line 2"]);
    let syntax = file(
        d,
        "syntax.json",
        VALID.replace("\"a\":", "\"a\"").as_bytes(),
    );
    usage_error(
        &run(&syntax, out, &[]),
        &["syntax.json", "line 3", "expected `:`"],
    );
    let unknown = file(
        d,
        "unknown.json",
        VALID.replace("\"c\":", "\"cc\":").as_bytes(),
    );
    usage_error(
        &run(&unknown, out, &[]),
        &["unknown.json", "unknown field `cc`"],
    );
    let overflow = file(
        d,
        "overflow.json",
        VALID.replace("0.5, -0.5", "1e999, 0").as_bytes(),
    );
    usage_error(
        &run(&overflow, out, &[]),
        &["overflow.json", "field \"c\"", "out of range"],
    );
    let shape = file(
        d,
        "shape.json",
        VALID
            .replace("[[1, 0], [0, 1]], \"B\"", "[[1, 0, 0], [0, 1]], \"B\"")
            .as_bytes(),
    );
    usage_error(
        &run(&shape, out, &[]),
        &["shape.json", "A[0]", "expected 2 columns, got 3"],
    );
    let dims = file(
        d,
        "dims.json",
        VALID.replace("\"x0\": [0, 0]", "\"x0\": [0]").as_bytes(),
    );
    usage_error(
        &run(&dims, out, &[]),
        &["dims.json", "x0", "expected length 2, got 1"],
    );
    let infeasible = file(
        d,
        "infeasible.json",
        VALID.replace("\"x0\": [0, 0]", "\"x0\": [3, 0]").as_bytes(),
    );
    usage_error(
        &run(&infeasible, out, &[]),
        &["infeasible.json", "x0", "not in X"],
    );
    let set = file(
        d,
        "set.json",
        VALID.replace("\"radius\": 1", "\"radius\": -1").as_bytes(),
    );
    usage_error(&run(&set, out, &[]), &["set.json", "x_set", "radius"]);
    let kind = file(
        d,
        "kind.json",
        VALID.replace("l1_ball", "l3_ball").as_bytes(),
    );
    usage_error(&run(&kind, out, &[]), &["kind.json", "x_set", "l3_ball"]);
    // finite entries whose norm overflows (||B||_2 = 2e308): infinite constants are refused up
    // front (entries of 1e300, norm 2e300, were refused too until the SVD learnt to scale)
    let huge = file(
        d,
        "huge.json",
        VALID
            .replace(
                "\"B\": [[1, 0], [0, 1]]",
                "\"B\": [[1e308, 1e308], [1e308, 1e308]]",
            )
            .as_bytes(),
    );
    usage_error(&run(&huge, out, &[]), &["huge.json", "B", "L_yx = inf"]);
    let binary = file(d, "binary.json", b"\xff\xfe{\x00");
    usage_error(&run(&binary, out, &[]), &["binary.json", "UTF-8"]);
    let empty = file(d, "empty.json", b"");
    usage_error(
        &run(&empty, out, &[]),
        &["empty.json", "top level", "the file is empty"],
    );
    // nothing was written
    assert!(!Path::new(out).exists());
}

#[test]
fn bad_specs_schedules_flags_and_commands_are_usage_errors() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("RUN.json");
    let out = out.to_str().unwrap();
    let spec = "quadratic/nc-c:dx=3,dy=2";
    for (bad, needles) in [
        (
            "quadratic/nc-c:dx=3,dy=2,foo=1",
            vec!["quadratic/nc-c:dx=3,dy=2,foo=1", "key \"foo\""],
        ),
        (
            "quadratic/nc-c:dx=x",
            vec!["dx=x", "key \"dx\"", "not a non-negative integer"],
        ),
        ("quadratic/nc-c:dx=3,dx=4", vec!["given twice"]),
        ("quartic/nc-c", vec!["quartic", "family"]),
        ("quadratic/zz-c", vec!["zz-c", "setting"]),
        ("quadratic", vec!["FAMILY/SETTING"]),
        ("cosine/c-c", vec!["cosine/c-c", "nonconvex"]),
        ("quadratic/nc-c:dx=0", vec!["dx"]),
    ] {
        usage_error(&run(bad, out, &[]), &needles);
    }
    // an entry filter that selects nothing names the filter and what ids look like
    usage_error(
        &saddlefw(&[
            "verify",
            "--cases",
            "lmo-lmo/zz",
            "--out",
            dir.path().join("v").to_str().unwrap(),
        ]),
        &[
            "entry filter (--cases",
            "\"lmo-lmo/zz\"",
            "lmo-lmo/nc-c/primal",
        ],
    );
    for (flag, value, needles) in [
        (
            "--tau-schedule",
            "anytime(c=1,a=x)",
            vec!["--tau-schedule", "key \"a\"", "not a number"],
        ),
        ("--tau-schedule", "bogus", vec!["--tau-schedule", "bogus"]),
        (
            "--beta-schedule",
            "shifted(c=1,s=0,a=1)",
            vec!["--beta-schedule", "s must be"],
        ),
        (
            "--beta-schedule",
            "anytime(c=1,a=1",
            vec!["--beta-schedule", "parenthesis"],
        ),
        (
            "--tau-schedule",
            "const(NaN)",
            vec!["--tau-schedule", "not finite"],
        ),
        (
            "--tau-schedule",
            "po-lmo(f=0.2,A=1,a=0.5,b=0.1,C=1,lxx=1e308,lyx=1e308,mu=0)",
            vec!["--tau-schedule", "tau_0", "not a positive number"],
        ),
        ("--checkpoints", "some", vec!["--checkpoints", "some"]),
        ("--iters", "0", vec!["--iters"]),
        ("--time-limit", "inf", vec!["--time-limit"]),
        ("--a", "abc", vec!["--a", "abc"]),
        // non-finite numbers on the command line
        ("--beta0", "nan", vec!["--beta0", "finite", "NaN"]),
        ("--tau0", "inf", vec!["--tau0", "finite", "inf"]),
        ("--sigma", "NaN", vec!["--sigma", "finite"]),
    ] {
        let o = if flag == "--iters" {
            saddlefw(&[
                "run",
                "--problem",
                spec,
                "--algo",
                "lmo-lmo",
                "--iters",
                value,
                "--out",
                out,
            ])
        } else {
            run(spec, out, &[flag, value])
        };
        usage_error(&o, &needles);
    }
    usage_error(
        &saddlefw(&[
            "run",
            "--problem",
            spec,
            "--algo",
            "fw-fw",
            "--iters",
            "3",
            "--out",
            out,
        ]),
        &["fw-fw"],
    );
    usage_error(&saddlefw(&["frobnicate"]), &["frobnicate"]);
    usage_error(&saddlefw(&["run", "--frobnicate"]), &["--frobnicate"]);
    usage_error(&saddlefw(&["check", "--cases", "0"]), &["--cases"]);
    usage_error(
        &saddlefw(&["check", "--cases", "1000001"]),
        &["--cases", "1..=1000000", "1000001"],
    );
    usage_error(
        &saddlefw(&["check", "--cases", "many"]),
        &["--cases", "many"],
    );
    usage_error(
        &saddlefw(&["verify", "--tier", "medium", "--out", out]),
        &["--tier", "medium"],
    );
    usage_error(
        &saddlefw(&["verify", "--jobs", "0", "--out", out]),
        &["--jobs"],
    );
    usage_error(
        &saddlefw(&["experiment", "dl", "--threads", "0", "--out", out]),
        &["--threads", "at least 1", "got 0"],
    );
    usage_error(
        &saddlefw(&["experiment", "dl", "--threads", "two", "--out", out]),
        &["--threads", "two"],
    );
    usage_error(
        &saddlefw(&["verify", "--cases", "no-such-entry", "--out", out]),
        &["no-such-entry"],
    );
    usage_error(
        &saddlefw(&["verify", "--control", "nonsense", "--out", out]),
        &["--control", "nonsense"],
    );
    let baselines = file(
        dir.path(),
        "baselines.json",
        b"{\"lmo-lmo/nc-c/primal\": 0.5,}",
    );
    usage_error(
        &saddlefw(&[
            "verify",
            "--cases",
            "lmo-po/c-sc/dual",
            "--baselines",
            &baselines,
            "--out",
            out,
        ]),
        &["baselines.json", "line 1"],
    );
    // report: a malformed RUN.json names the file and the line; merge: a directory without
    // verify.json names it
    let bad_run = file(
        dir.path(),
        "bad-RUN.json",
        b"{\"algorithm\": \"lmo-lmo\",\n \"problem\": 3}",
    );
    usage_error(
        &saddlefw(&["report", &bad_run, "--out", &format!("{out}.html")]),
        &["bad-RUN.json", "line 2"],
    );
    let no_run = dir.path().join("no-RUN.json");
    usage_error(
        &saddlefw(&[
            "report",
            no_run.to_str().unwrap(),
            "--out",
            &format!("{out}.html"),
        ]),
        &["no-RUN.json", "No such file"],
    );
    let empty_dir = dir.path().join("no-shard");
    std::fs::create_dir(&empty_dir).unwrap();
    usage_error(
        &saddlefw(&["merge", empty_dir.to_str().unwrap(), "--out", out]),
        &["no-shard"],
    );
    // merge: a malformed shard names the file and the line
    let shard = dir.path().join("shard");
    std::fs::create_dir(&shard).unwrap();
    std::fs::write(
        shard.join("verify.json"),
        b"{\"tier\": \"quick\",\n \"seeds\": [1,]}",
    )
    .unwrap();
    usage_error(
        &saddlefw(&["merge", shard.to_str().unwrap(), "--out", out]),
        &["verify.json", "line 2"],
    );
    // tighten: out-of-domain flags and a malformed fixture directory
    usage_error(
        &saddlefw(&["tighten", "--budget", "0", "--out", out]),
        &["--budget"],
    );
    usage_error(
        &saddlefw(&["tighten", "--jobs", "0", "--out", out]),
        &["--jobs"],
    );
    let fixtures = dir.path().join("hard");
    std::fs::create_dir(&fixtures).unwrap();
    let broken = file(
        &fixtures,
        "lmo-po-c-sc-dual.json",
        b"{\"format\": \"saddlefw-hard-v1\",",
    );
    usage_error(
        &saddlefw(&[
            "tighten",
            "--cases",
            "lmo-po/c-sc/dual",
            "--budget",
            "1",
            "--fixtures",
            fixtures.to_str().unwrap(),
            "--out",
            out,
        ]),
        &[&broken, "line 1"],
    );
    // no subcommand: clap's usage, code 2
    let o = saddlefw(&[]);
    assert_eq!(o.code, 2);
    assert!(!o.stderr.contains("panicked"));
    assert!(!Path::new(out).exists());
}

#[test]
fn unwritable_outputs_are_io_errors_naming_the_path() {
    let dir = tempfile::tempdir().unwrap();
    // the output is an existing directory: the rename fails, the directory is untouched
    let target = dir.path().join("taken");
    std::fs::create_dir(&target).unwrap();
    std::fs::write(target.join("keep"), b"x").unwrap();
    let o = run("quadratic/nc-c:dx=3,dy=2", target.to_str().unwrap(), &[]);
    usage_error(&o, &["taken"]);
    assert!(target.join("keep").is_file());
    // a file where a parent directory should be
    let blocker = file(dir.path(), "blocker", b"x");
    let o = run(
        "quadratic/nc-c:dx=3,dy=2",
        &format!("{blocker}/RUN.json"),
        &[],
    );
    usage_error(&o, &["blocker"]);
    // no temporary file is left behind
    let names: Vec<String> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert!(names.iter().all(|n| !n.contains(".tmp")), "{names:?}");
}

#[test]
fn a_run_stopped_by_overflow_records_the_iteration_and_cause_and_keeps_its_checkpoints() {
    let dir = tempfile::tempdir().unwrap();
    // finite data whose gradients overflow at the start's neighbours: the first step lands on
    // a vertex of norm 1e10 where grad_x = 1e310. The start's own measures are finite (x0 is
    // tiny); the measures of x_1 are not, so the run stops there as inconsistent (issue 19)
    // with the same one-line error form as a divergence inside a step.
    let big = file(
        dir.path(),
        "big.json",
        br#"{"format": "saddlefw-quadratic-v1",
 "A": [[1e300, 0], [0, 1e300]], "B": [[1, 0]], "C": [[0]],
 "a": [0, 0], "c": [0],
 "x_set": {"kind": "l2_ball", "radius": 1e10}, "y_set": {"kind": "box", "lower": -1, "upper": 1},
 "x0": [1e-20, 0], "y0": [0]}"#,
    );
    let out = dir.path().join("RUN.json");
    let o = run(&big, out.to_str().unwrap(), &["--checkpoints", "all"]);
    assert_eq!(o.code, 2, "{}", o.stderr);
    assert!(!o.stderr.contains("panicked"));
    let lines: Vec<&str> = o.stderr.lines().collect();
    assert_eq!(lines.len(), 1, "{}", o.stderr);
    // one error line naming the input, the location (iteration) and the reason
    assert!(
        lines[0].starts_with(&format!("error: {big} (lmo-lmo): iteration "))
            && lines[0].contains("measure gx_lmo is not finite"),
        "{}",
        lines[0]
    );
    let v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&out).unwrap()).unwrap();
    let d = &v["status"]["inconsistent"];
    let it = d["iteration"]
        .as_u64()
        .expect("status records the iteration");
    assert_eq!(d["measure"].as_str(), Some("gx_lmo"), "{d}");
    assert!(d["value"].is_null(), "{d}");
    assert_eq!(v["iterations"].as_u64().unwrap(), it);
    // every iterate before the inconsistent one was measured and written
    let ts: Vec<u64> = v["checkpoints"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["t"].as_u64().unwrap())
        .collect();
    assert_eq!(ts, (0..it).collect::<Vec<_>>());
    // control: the same file with moderate data completes
    let tame = file(
        dir.path(),
        "tame.json",
        std::fs::read_to_string(&big)
            .unwrap()
            .replace("1e300", "1")
            .as_bytes(),
    );
    let o = run(&tame, out.to_str().unwrap(), &["--quiet"]);
    assert_eq!(o.code, 0);
    assert!(o.stderr.is_empty(), "{}", o.stderr);
    let v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&out).unwrap()).unwrap();
    assert_eq!(v["status"], "completed");
}

#[test]
fn every_help_has_examples_and_exit_codes() {
    let top = saddlefw(&["--help"]);
    assert_eq!(top.code, 0);
    assert!(top.stdout.contains("Exit codes") && top.stdout.contains("Examples"));
    assert!(top.stdout.contains("--quiet"));
    // the exit-code contract of the README: 0, 1, 2, and a diverged run is 2 (tested above)
    for code in [
        "  0  success",
        "  1  a check or gate failed",
        "  2  a usage or input error",
    ] {
        assert!(top.stdout.contains(code), "--help lacks {code:?}");
    }
    assert!(saddlefw(&["run", "--help"])
        .stdout
        .contains("2 usage or input error, or the run diverged"));
    // the description agrees with the exit-code line
    let run_help = saddlefw(&["run", "--help"]).stdout;
    assert!(
        run_help.contains("exits 2 with one error line"),
        "{run_help}"
    );
    assert!(!run_help.contains("exits 0"), "{run_help}");
    let subcommands: Vec<String> = top
        .stdout
        .lines()
        .skip_while(|l| !l.starts_with("Commands:"))
        .skip(1)
        .take_while(|l| l.starts_with("  "))
        .filter_map(|l| l.split_whitespace().next().map(String::from))
        .filter(|c| c != "help")
        .collect();
    assert!(subcommands.len() >= 4, "{subcommands:?}");
    for c in &subcommands {
        let h = saddlefw(&[c, "--help"]);
        assert_eq!(h.code, 0, "{c}");
        assert!(h.stdout.contains("Examples:"), "{c} --help has no examples");
        assert!(
            h.stdout.contains("Exit code"),
            "{c} --help has no exit codes"
        );
        assert!(
            h.stdout.contains(&format!("saddlefw {c}")),
            "{c}: examples use the command"
        );
    }
    // -h is the short form, --version works
    assert_eq!(saddlefw(&["-h"]).code, 0);
    assert!(saddlefw(&["--version"]).stdout.starts_with("saddlefw "));
}

#[test]
fn list_prints_every_registry() {
    let o = saddlefw(&["list"]);
    assert_eq!(o.code, 0, "{}", o.stderr);
    let s = &o.stdout;
    for a in saddlefw::solvers::registry::ALGORITHMS.iter() {
        assert!(s.contains(a.name) && s.contains(a.provenance), "{}", a.name);
    }
    for e in saddlefw::theorems::builtin() {
        assert!(s.contains(&e.id), "{}", e.id);
    }
    for inv in saddlefw::invariants::registry() {
        assert!(s.contains(inv.name), "{}", inv.name);
    }
    for f in saddlefw::generators::Family::ALL {
        assert!(s.contains(f.name()), "{}", f.name());
    }
    for (syntax, _, _) in saddlefw::solvers::schedule::Schedule::KINDS {
        assert!(s.contains(syntax), "{syntax}");
    }
    for k in saddlefw::sets::SetSpec::KINDS {
        assert!(s.contains(k.kind) && s.contains(k.example), "{}", k.kind);
    }
    let families = s
        .split("hard instance families")
        .nth(1)
        .and_then(|t| t.split("stored hardest instances").next())
        .expect("the section");
    for (name, what) in saddlefw::tightness::families::FAMILIES {
        assert!(families.contains(name) && families.contains(what), "{name}");
    }
    let stored = s
        .split("stored hardest instances")
        .nth(1)
        .expect("the section");
    for (id, f) in saddlefw::tightness::builtin() {
        assert!(stored.contains(&id) && stored.contains(&f.params), "{id}");
    }
}

/// The set-kind registry is the enum's: serde's list of variants equals `SetSpec::KINDS`,
/// and every example parses to its kind and builds.
#[test]
fn set_kinds_registry_matches_the_format() {
    use saddlefw::sets::SetSpec;
    let e = serde_json::from_str::<SetSpec>(r#"{"kind": "no-such-kind"}"#).unwrap_err();
    let msg = e.to_string();
    let expected: Vec<&str> = msg
        .split("expected one of ")
        .nth(1)
        .unwrap()
        .split(" at line")
        .next()
        .unwrap()
        .split(", ")
        .map(|v| v.trim_matches('`'))
        .collect();
    let listed: Vec<&str> = SetSpec::KINDS.iter().map(|k| k.kind).collect();
    assert_eq!(listed, expected);
    for k in SetSpec::KINDS {
        let spec: SetSpec = serde_json::from_str(k.example).unwrap();
        assert_eq!(spec.kind(), k.kind);
        let n = spec.fixed_dim().unwrap_or(4);
        spec.build(n, "example").unwrap();
    }
}

#[test]
fn bad_experiment_inputs_name_the_file() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let out = d.join("exp");
    let out = out.to_str().unwrap();
    // malformed LIBSVM data: the file, the line and the reason
    let bad = file(d, "bad-news20.txt", b"1 1:0.5 2:1\n2 3:x\n");
    usage_error(
        &saddlefw(&[
            "experiment",
            "news20",
            "--data",
            &bad,
            "--time-limit",
            "0.1",
            "--out",
            out,
        ]),
        &["bad-news20.txt", "line 2"],
    );
    let zero = file(d, "zero.txt", b"1 0:1.5\n");
    usage_error(
        &saddlefw(&[
            "experiment",
            "news20",
            "--data",
            &zero,
            "--time-limit",
            "0.1",
            "--out",
            out,
        ]),
        &["zero.txt", "line 1", "index 0"],
    );
    // dimensions too large to allocate are refused before anything is allocated
    usage_error(
        &saddlefw(&[
            "experiment",
            "dl",
            "--dl-dims",
            "m=99999999,q=99999999",
            "--out",
            out,
        ]),
        &["DL dimensions", "entries"],
    );
    // a non-finite value, and a data file that does not exist
    let nan = file(d, "nan.txt", b"1 1:0.5\n2 1:nan\n");
    usage_error(
        &saddlefw(&[
            "experiment",
            "news20",
            "--data",
            &nan,
            "--time-limit",
            "0.1",
            "--out",
            out,
        ]),
        &["nan.txt", "line 2", "not finite"],
    );
    let absent = d.join("absent-news20.bz2");
    usage_error(
        &saddlefw(&[
            "experiment",
            "news20",
            "--data",
            absent.to_str().unwrap(),
            "--time-limit",
            "0.1",
            "--out",
            out,
        ]),
        &["--data", "absent-news20.bz2", "does not exist"],
    );
    let corrupt = file(d, "corrupt.bz2", b"BZh91AY&SY not really bzip2");
    usage_error(
        &saddlefw(&[
            "experiment",
            "news20",
            "--data",
            &corrupt,
            "--time-limit",
            "0.1",
            "--out",
            out,
        ]),
        &["corrupt.bz2", "bzip2"],
    );
    // --rerender of a malformed experiment.json
    std::fs::create_dir_all(out).unwrap();
    std::fs::write(
        Path::new(out).join("experiment.json"),
        b"{\"experiment\": \"dl\",\n \"runs\": 3}",
    )
    .unwrap();
    usage_error(
        &saddlefw(&["experiment", "dl", "--rerender", "--out", out]),
        &["experiment.json", "line 2"],
    );
}

/// stdout closed before the command writes to it (`saddlefw list | head -1` once `head` has
/// exited): no panic, and the exit code and the files are those of a run with an open stdout.
#[cfg(unix)]
#[test]
fn a_closed_stdout_is_not_a_panic() {
    use std::os::unix::process::ExitStatusExt;
    use std::process::Stdio;
    /// Runs `program args` with stdout the write end of a pipe whose read end is closed.
    fn closed_stdout(program: &str, args: &[&str]) -> (std::process::ExitStatus, String) {
        let (reader, writer) = std::io::pipe().unwrap();
        drop(reader);
        let o = Command::new(program)
            .args(args)
            .stdout(Stdio::from(writer))
            .stderr(Stdio::piped())
            .output()
            .unwrap();
        (o.status, String::from_utf8_lossy(&o.stderr).into_owned())
    }
    // control: the pipe really is closed (a shell's `echo` dies of SIGPIPE writing to it)
    let (status, _) = closed_stdout("sh", &["-c", "echo x"]);
    assert_eq!(status.signal(), Some(13), "{status:?}");

    let dir = tempfile::tempdir().unwrap();
    let run_out = dir.path().join("RUN.json");
    let verify_out = dir.path().join("verify");
    let check_out = dir.path().join("CHECK.json");
    let bin = env!("CARGO_BIN_EXE_saddlefw");
    for args in [
        vec!["list"],
        vec!["--help"],
        vec!["run", "--help"],
        vec!["check", "--list"],
        vec!["check", "--list", "--markdown"],
        vec![
            "check",
            "--cases",
            "2",
            "--out",
            check_out.to_str().unwrap(),
        ],
        vec![
            "run",
            "--problem",
            "quadratic/nc-c:dx=3,dy=2",
            "--algo",
            "lmo-lmo",
            "--iters",
            "10",
            "--out",
            run_out.to_str().unwrap(),
        ],
        vec![
            "verify",
            "--cases",
            "lmo-po/c-sc/dual",
            "--no-hard",
            "--jobs",
            "1",
            "--out",
            verify_out.to_str().unwrap(),
        ],
    ] {
        let (status, stderr) = closed_stdout(bin, &args);
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
        assert_eq!(status.code(), Some(0), "{args:?}: {status:?} {stderr}");
    }
    // the commands finished their work although nobody read their output
    assert!(run_out.is_file() && check_out.is_file());
    let v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(verify_out.join("verify.json")).unwrap())
            .unwrap();
    assert!(v.is_object());
}

/// Progress is drawn on a terminal and nowhere else: a `run` under a pseudo-terminal
/// (`script`, util-linux) shows its progress line on stderr; piped, or with `--quiet`, stderr
/// stays empty.
#[test]
fn progress_only_on_a_terminal() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("RUN.json");
    let args = [
        "run",
        "--problem",
        "quadratic/nc-c:dx=200,dy=50",
        "--algo",
        "lmo-lmo",
        "--iters",
        "100000000",
        "--time-limit",
        "0.6",
        "--out",
        out.to_str().unwrap(),
    ];
    // piped: nothing on stderr, with or without --quiet
    let piped = saddlefw(&args);
    assert_eq!(piped.code, 0, "{}", piped.stderr);
    assert!(piped.stderr.is_empty(), "{}", piped.stderr);
    // a terminal: the progress line (iterations and elapsed time)
    let has_script = Command::new("script").arg("--version").output().is_ok();
    if !has_script {
        eprintln!("progress_only_on_a_terminal: no `script` here, terminal half skipped");
        return;
    }
    let cmd = format!("{} {}", env!("CARGO_BIN_EXE_saddlefw"), args.join(" "));
    let o = Command::new("script")
        .args(["-qec", &cmd, "/dev/null"])
        .output()
        .unwrap();
    let tty = String::from_utf8_lossy(&o.stdout);
    assert!(tty.contains(" it ") && tty.contains("s elapsed"), "{tty}");
    let quiet = format!("{} -q {}", env!("CARGO_BIN_EXE_saddlefw"), args.join(" "));
    let o = Command::new("script")
        .args(["-qec", &quiet, "/dev/null"])
        .output()
        .unwrap();
    let tty = String::from_utf8_lossy(&o.stdout);
    assert!(!tty.contains("s elapsed"), "{tty}");
}

/// A closed stderr is not a panic either: the error line is dropped, the exit code still says
/// what happened (2 for usage and input errors).
#[test]
fn a_closed_stderr_is_not_a_panic() {
    use std::process::Stdio;
    let bin = env!("CARGO_BIN_EXE_saddlefw");
    for args in [
        vec!["run", "--bogus"],
        vec![
            "run",
            "--problem",
            "/no/such.json",
            "--algo",
            "lmo-lmo",
            "--iters",
            "3",
            "--out",
            "/tmp/x.json",
        ],
        vec!["verify", "--shard", "0/3"],
    ] {
        let (reader, writer) = std::io::pipe().unwrap();
        drop(reader);
        let status = Command::new(bin)
            .args(&args)
            .stdout(Stdio::null())
            .stderr(Stdio::from(writer))
            .status()
            .unwrap();
        assert_eq!(status.code(), Some(2), "{args:?}: {status:?}");
    }
}
