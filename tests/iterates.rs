//! The any-language route (issue 15): export, the iterate files, verify-iterates.
//!
//! * `verify-iterates` on iterates written by saddlefw's own solver (and by a broken control)
//!   gives exactly `verify`'s report on the same jobs (the exported ones);
//! * bad iterate files (truncated, wrong dimension, t out of order, infeasible, a start that is
//!   not the exported one, missing) are input errors naming the file and the line.

use saddlefw::iterates::{
    self as plan, export, verify_iterates, write_reference_iterates, ExportOptions, JudgeOptions,
    PlannedJob,
};
use saddlefw::solvers::Solver;
use saddlefw::verify::controls::Control;
use saddlefw::verify::{
    self, EntrySolver, JobRef, SolverFactory, SolverRequest, Tier, TierConfig, VerifyOptions,
};
use saddlefw::{theorems, Error, Result};
use std::path::Path;

const CFG: TierConfig = TierConfig {
    seeds: 2,
    t_max: 256,
    dim_x: 6,
    dim_y: 4,
};

fn export_to(dir: &Path, filter: &str) -> saddlefw::iterates::manifest::Manifest {
    let opts = ExportOptions {
        tier: Tier::Quick,
        filter: Some(filter.into()),
        config: Some(CFG),
        hard: None,
        confirmation: false,
    };
    export(&theorems::builtin(), &opts, dir).unwrap()
}

/// The crate's own solver, on the exported jobs only (what verify-iterates covers).
struct OnExported {
    inner: EntrySolver,
    jobs: Vec<PlannedJob>,
}

impl SolverFactory for OnExported {
    fn name(&self) -> String {
        self.inner.name()
    }
    fn covers(&self, j: &JobRef<'_>) -> bool {
        self.jobs
            .iter()
            .any(|p| p.case == j.case && p.family == j.family && p.seed_index == j.seed_index)
    }
    fn build(&self, r: &SolverRequest<'_>) -> Result<Box<dyn Solver>> {
        Ok(Box::new(NoTau(self.inner.build(r)?)))
    }
}

/// The solver with its reported `tau_t` and `beta_t` withheld, as an iterate file withholds
/// them (the file route's schedule gate has nothing declared to check).
struct NoTau(Box<dyn Solver>);

impl Solver for NoTau {
    fn name(&self) -> &str {
        self.0.name()
    }
    fn init(&mut self, p: &dyn saddlefw::problems::SaddleProblem, x0: &[f64], y0: &[f64]) {
        self.0.init(p, x0, y0)
    }
    fn step(
        &mut self,
        p: &dyn saddlefw::problems::SaddleProblem,
        t: usize,
    ) -> saddlefw::solvers::StepInfo {
        let info = self.0.step(p, t);
        saddlefw::solvers::StepInfo { tau: 0.0, ..info }
    }
    fn x(&self) -> &[f64] {
        self.0.x()
    }
    fn y(&self) -> &[f64] {
        self.0.y()
    }
    fn beta_at(&self, _t: usize) -> f64 {
        0.0 // nor does an iterate file declare its beta_t
    }
}

fn without_timings(r: &verify::VerifyReport) -> serde_json::Value {
    let mut v = verify::without_timings(&serde_json::to_value(r).unwrap());
    // the build and the solver's name differ by design
    v.as_object_mut().unwrap().remove("build");
    v.as_object_mut().unwrap().remove("solver");
    v
}

/// verify-iterates on saddlefw's own iterates == verify on the same jobs, for the real solver
/// and for a broken one (LMO-LMO: nonconvex cases, where the cosine family is not exported,
/// and a convex case).
#[test]
fn verdicts_equal_verify_on_own_iterates() {
    let table = theorems::builtin();
    let mut any_failed = false;
    for filter in ["lmo-lmo/nc-c", "lmo-lmo/c-sc+sc", "lmo-po/c-sc/"] {
        for control in [
            None,
            Some(Control::TauExponent(0.15)),
            Some("constant-tau".parse().unwrap()),
        ] {
            let dir = tempfile::tempdir().unwrap();
            let m = export_to(dir.path(), filter);
            if filter == "lmo-lmo/nc-c" {
                assert!(
                    !m.not_exported.is_empty(),
                    "the cosine family is not exportable"
                );
                assert!(m
                    .not_exported
                    .iter()
                    .all(|s| s.family.starts_with("cosine")));
            }
            write_reference_iterates(&table, dir.path(), None, control).unwrap();
            let got = verify_iterates(
                &table,
                &JudgeOptions {
                    export_dir: dir.path().into(),
                    iterates_root: None,
                    jobs: Some(1),
                },
            )
            .unwrap();
            let (_, _, planned) = plan::load(&table, dir.path()).unwrap();
            let mut opts = VerifyOptions::new(Tier::Quick).filter(filter);
            opts.config = Some(CFG);
            opts.hard = None;
            opts.gate_baselines = false;
            opts.jobs = Some(1);
            let want = verify::run(
                &table,
                &opts.solver(OnExported {
                    inner: EntrySolver::new(control),
                    jobs: planned,
                }),
            )
            .unwrap();
            assert_eq!(
                without_timings(&got),
                without_timings(&want),
                "{filter} {control:?}"
            );
            any_failed |= got.failed;
        }
    }
    assert!(any_failed, "the comparison covers failing verdicts too");
}

/// The first job's iterate file, rewritten by `edit` (lines without their newline).
fn with_edited_file(want: &str, edit: impl Fn(&mut Vec<String>)) -> Error {
    let table = theorems::builtin();
    let dir = tempfile::tempdir().unwrap();
    let m = export_to(dir.path(), "lmo-lmo/c-sc+sc");
    write_reference_iterates(&table, dir.path(), None, None).unwrap();
    let path = dir.path().join(&m.jobs[0].iterates);
    let text = std::fs::read_to_string(&path).unwrap();
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    edit(&mut lines);
    std::fs::write(&path, lines.join("\n")).unwrap();
    let opts = JudgeOptions {
        export_dir: dir.path().into(),
        iterates_root: None,
        jobs: None,
    };
    let e = match verify_iterates(&table, &opts) {
        Ok(_) => panic!("accepted a file that should fail with {want:?}"),
        Err(e) => e,
    };
    assert!(
        e.to_string().contains(&m.jobs[0].iterates),
        "{e}: names the file"
    );
    e
}

fn set(line: &mut String, key: &str, f: impl Fn(&mut serde_json::Value)) {
    let mut v: serde_json::Value = serde_json::from_str(line).unwrap();
    f(&mut v[key]);
    *line = v.to_string();
}

#[test]
fn bad_iterate_files_are_input_errors() {
    let cases: Vec<(&str, Box<dyn Fn(&mut Vec<String>)>)> = vec![
        (
            "line 101: the file ends before iterate t = 100",
            Box::new(|l| l.truncate(100)),
        ),
        (
            "line 51: truncated line",
            Box::new(|l| {
                l.truncate(51);
                let s = &mut l[50];
                s.truncate(s.len() / 2);
            }),
        ),
        (
            "line 8: x has length 5, expected 6 (dx)",
            Box::new(|l| {
                set(&mut l[7], "x", |x| {
                    x.as_array_mut().unwrap().pop();
                })
            }),
        ),
        (
            "line 3: t = 3 where t = 2 was expected",
            Box::new(|l| l.swap(2, 3)),
        ),
        (
            "line 21: iterate t = 20: y is outside Y by",
            Box::new(|l| {
                set(&mut l[20], "y", |y| {
                    y[0] = 2.0.into();
                })
            }),
        ),
        (
            "line 1: iterate t = 0: x_0 is not the exported start point",
            Box::new(|l| {
                set(&mut l[0], "x", |x| {
                    for v in x.as_array_mut().unwrap() {
                        *v = (v.as_f64().unwrap() * 0.5).into();
                    }
                })
            }),
        ),
        (
            "line 9: expected value (NaN and infinities",
            Box::new(|l| {
                l[8] = l[8].replacen("\"x\": [", "\"x\": [NaN, ", 1).replacen(
                    "\"x\":[",
                    "\"x\":[NaN,",
                    1,
                );
            }),
        ),
        (
            "line 12: y[1]: number out of range",
            Box::new(|l| {
                set(&mut l[11], "y", |y| {
                    y[1] = 7.25.into();
                });
                l[11] = l[11].replacen(",7.25", ",1e400", 1);
            }),
        ),
    ];
    for (want, edit) in cases {
        let e = with_edited_file(want, edit);
        assert!(matches!(e, Error::Input { .. }), "{e:?}");
        assert!(
            e.to_string().contains(want),
            "{e} does not contain {want:?}"
        );
    }
}

/// A missing iterate file and a manifest that does not match this saddlefw's job list.
#[test]
fn missing_file_and_stale_manifest() {
    let table = theorems::builtin();
    let dir = tempfile::tempdir().unwrap();
    let m = export_to(dir.path(), "lmo-lmo/c-sc+sc");
    let opts = JudgeOptions {
        export_dir: dir.path().into(),
        iterates_root: None,
        jobs: None,
    };
    let e = verify_iterates(&table, &opts).unwrap_err();
    assert!(e.to_string().contains(&m.jobs[0].iterates), "{e}");
    let path = dir.path().join("manifest.json");
    let text = std::fs::read_to_string(&path).unwrap();
    std::fs::write(
        &path,
        text.replacen("\"seed_index\": 1", "\"seed_index\": 7", 1),
    )
    .unwrap();
    // the ids and specs still match: the factory finds no job for seed 1, so it is not run
    // (verify-iterates judges the manifest's records); change a spec instead
    let text = std::fs::read_to_string(&path).unwrap();
    let spec = &m.jobs[0].spec;
    std::fs::write(
        &path,
        text.replace(spec.as_str(), &spec.replace("seed=", "seed=1")),
    )
    .unwrap();
    let e = verify_iterates(&table, &opts).unwrap_err();
    assert!(
        e.to_string()
            .contains("manifest.json: jobs[0]: the exported jobs"),
        "{e}"
    );
}

/// The plan exports exactly the quadratic instances: the NC cases' cosine family and the
/// face-cosine hard instances are listed as not exported, with the reason.
#[test]
fn plan_exports_quadratic_instances_only() {
    let table = theorems::builtin();
    let selected = plan::select(&table, Some("lmo-lmo/")).unwrap();
    let jobs = plan::plan(
        &selected,
        &CFG,
        Some(&saddlefw::tightness::HardSource::Builtin),
    )
    .unwrap();
    for j in &jobs {
        let quadratic = j.instance().unwrap().problem.as_quadratic().is_some();
        assert_eq!(j.not_exported.is_none(), quadratic, "{}", j.id);
        if !quadratic {
            assert!(j.family.contains("cosine"), "{}", j.family);
        }
    }
    assert!(jobs.iter().any(|j| j.is_hard() && j.not_exported.is_none()));
    assert!(jobs.iter().any(|j| j.is_hard() && j.not_exported.is_some()));
    let ids: std::collections::BTreeSet<&str> = jobs.iter().map(|j| j.id.as_str()).collect();
    assert_eq!(ids.len(), jobs.len(), "ids are unique");
}

/// Issue 34 item 7, through the binary: the manifest holds the SHA-256 of every problem and
/// schedule file; an unedited export passes, one byte edited in a problem.json (or a
/// schedule.json) is refused with one line naming that file (exit 2) and passes again once
/// restored, and a manifest of the first format (no hashes) is refused with what to do.
#[test]
fn verify_iterates_refuses_edited_problem_and_schedule_files() {
    let dir = tempfile::tempdir().unwrap();
    let run = |args: &[&str]| {
        std::process::Command::new(env!("CARGO_BIN_EXE_saddlefw"))
            .args(args)
            .current_dir(dir.path())
            .output()
            .unwrap()
    };
    let export = run(&[
        "-q",
        "export",
        "--cases",
        "lmo-lmo/nc-c/primal",
        "--no-hard",
        "--out",
        "exp",
        "--write-iterates",
    ]);
    assert_eq!(export.status.code(), Some(0), "{export:?}");
    let verify = || run(&["-q", "verify-iterates", "exp", "--out", "rep"]);
    assert_eq!(
        verify().status.code(),
        Some(0),
        "the unedited export passes"
    );
    let manifest_path = dir.path().join("exp/manifest.json");
    let m: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&manifest_path).unwrap()).unwrap();
    let job = &m["jobs"][1];
    for (field, after) in [("problem", "\"A\":"), ("schedule", "\"tau\":")] {
        let rel = job[field].as_str().unwrap();
        let hash = job[format!("{field}_sha256")].as_str().unwrap();
        assert!(hash.starts_with("sha256:") && hash.len() == 71, "{hash}");
        let path = dir.path().join("exp").join(rel);
        let orig = std::fs::read(&path).unwrap();
        // one digit of the first number after `after` changed: still valid JSON
        let text = String::from_utf8(orig.clone()).unwrap();
        let at = text.find(after).unwrap();
        let i = at + text[at..].find(|c: char| c.is_ascii_digit()).unwrap();
        let mut edited = orig.clone();
        edited[i] = if edited[i] == b'7' { b'3' } else { b'7' };
        std::fs::write(&path, &edited).unwrap();
        let o = verify();
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{field}: {err}");
        let want = format!("error: exp/{rel}: content: edited since export");
        assert!(err.starts_with(&want), "{err}");
        assert!(err.contains("export again"), "{err}");
        assert_eq!(err.lines().count(), 1, "{err}");
        std::fs::write(&path, &orig).unwrap();
        assert_eq!(verify().status.code(), Some(0), "restored {field}");
        // the same content re-indented is not an edit (the digit edit above is: the control)
        let value: serde_json::Value = serde_json::from_slice(&orig).unwrap();
        let pretty = serde_json::to_string_pretty(&value).unwrap();
        assert_ne!(pretty.as_bytes(), &orig[..]);
        std::fs::write(&path, pretty).unwrap();
        let o = verify();
        assert_eq!(o.status.code(), Some(0), "re-indented {field}: {o:?}");
        std::fs::write(&path, &orig).unwrap();
    }
    let text = std::fs::read_to_string(&manifest_path).unwrap();
    std::fs::write(
        &manifest_path,
        text.replace("saddlefw-export-v2", "saddlefw-export-v1"),
    )
    .unwrap();
    let o = verify();
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(
        err.contains("manifest.json: format: saddlefw-export-v1")
            && err.contains("export again with this version"),
        "{err}"
    );
    std::fs::write(&manifest_path, &text).unwrap();
    // a second export into the same directory is refused: its iterates files would be read
    // as answers to the new jobs' problems; the earlier export is kept as it was
    let again = run(&[
        "-q",
        "export",
        "--cases",
        "lmo-lmo/nc-c/primal",
        "--no-hard",
        "--out",
        "exp",
    ]);
    let err = String::from_utf8_lossy(&again.stderr);
    assert_eq!(again.status.code(), Some(2), "{err}");
    assert!(
        err.starts_with("error: exp: --out: holds an earlier export") && err.lines().count() == 1,
        "{err}"
    );
    assert_eq!(std::fs::read_to_string(&manifest_path).unwrap(), text);
    // an output directory named like an existing file: one line saying so, the file kept
    for args in [
        &[
            "-q",
            "export",
            "--cases",
            "lmo-lmo/nc-c/primal",
            "--out",
            "exp/manifest.json",
        ][..],
        &[
            "-q",
            "verify-iterates",
            "exp",
            "--out",
            "exp/manifest.json/rep",
        ][..],
    ] {
        let o = run(args);
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
        assert!(
            err.starts_with("error: exp/manifest.json")
                && err.contains("exp/manifest.json is a file, not a directory"),
            "{err}"
        );
        assert_eq!(err.lines().count(), 1, "{err}");
        assert_eq!(
            std::fs::read_to_string(&manifest_path).unwrap().len(),
            text.len()
        );
    }
}

/// `export --confirmation-jobs`: verify-iterates decides `hard-rate` as verify does. A
/// legitimate index offset (`tau_{t+1}`) is slower than `p - tol` at T on `lmo-po/nc-sc/dual`'s
/// hard instance and passes on the confirmation job at 16 T; negative controls: the same files
/// without the confirmation job fail unconfirmed (with a note saying how to confirm), and a
/// faulty update (clipping instead of projecting) fails with the confirmation job too.
#[test]
fn confirmation_jobs_decide_hard_rate_in_the_file_route() {
    let table = theorems::builtin();
    let id = "lmo-po/nc-sc/dual";
    let hard_of = |dir: &Path| {
        let opts = JudgeOptions {
            export_dir: dir.into(),
            iterates_root: None,
            jobs: None,
        };
        let r = verify_iterates(&table, &opts).unwrap();
        let e = r.entries.iter().find(|e| e.id == id).unwrap().clone();
        (e.hard.clone().unwrap(), e.notes)
    };
    let exported = |control: &str| {
        let dir = tempfile::tempdir().unwrap();
        let opts = ExportOptions {
            tier: Tier::Quick,
            filter: Some(id.into()),
            config: Some(CFG),
            hard: Some(saddlefw::tightness::HardSource::Builtin),
            confirmation: true,
        };
        let m = export(&table, &opts, dir.path()).unwrap();
        assert!(m.confirmation);
        let confirm = m.jobs.iter().find(|j| j.kind == "hard-confirm").unwrap();
        assert_eq!(confirm.t_max, 16 * 16384);
        write_reference_iterates(&table, dir.path(), None, Some(control.parse().unwrap())).unwrap();
        dir
    };
    let rate_failed =
        |h: &saddlefw::verify::hard::HardResult| h.failed_gates.iter().any(|g| g == "hard-rate");
    let legit = exported("tau-offset+1");
    let (h, _) = hard_of(legit.path());
    let c = h
        .confirmation
        .as_ref()
        .expect("the rate failed at T: confirmed");
    assert!(!rate_failed(&h), "{h:?}");
    assert_eq!(c.horizon, 16 * h.horizon);
    // negative control: the same export without its confirmation job
    let path = legit.path().join("manifest.json");
    let mut m: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    m["confirmation"] = false.into();
    m["jobs"]
        .as_array_mut()
        .unwrap()
        .retain(|j| j["kind"] != "hard-confirm");
    std::fs::write(&path, m.to_string()).unwrap();
    let (h, notes) = hard_of(legit.path());
    assert!(rate_failed(&h) && h.confirmation.is_none(), "{h:?}");
    assert!(
        notes.iter().any(|n| n.contains("--confirmation-jobs")),
        "{notes:?}"
    );
    drop(legit);
    let faulty = exported("clip-not-project");
    let (h, _) = hard_of(faulty.path());
    assert!(rate_failed(&h) && h.confirmation.is_some(), "{h:?}");
}
