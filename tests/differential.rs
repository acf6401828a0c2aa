//! Differential mode (issue 34, scope 5): `verify-iterates --against ALGO` and
//! `RateCheck::against` report where a reimplementation's iterates depart from saddlefw's.
//!
//! * a faithful reimplementation of Algorithm 2 written here (its own gradient, LMO and
//!   projection calls), saddlefw's own iterates perturbed by 1e-15, and the float-order variant
//!   agree;
//! * negative controls: the same reimplementation with its dual step doubled from t = 7, and a
//!   sign flip of one coordinate at t = 5, depart at the right iterate and coordinate (exit 1),
//!   through the binary and through `RateCheck`;
//! * an unknown ALGO and an ALGO none of the exported jobs is of are input errors (exit 2).

use saddlefw::iterates::format::IterateWriter;
use saddlefw::iterates::{export, load, write_reference_iterates, ExportOptions};
use saddlefw::prelude::*;
use saddlefw::verify::controls::Control;
use saddlefw::verify::differential::{first_departure, DiffVerdict, Differential, JobDifferential};
use saddlefw::verify::VerifyReport;
use std::path::Path;
use std::process::{Command, Output};

const CFG: TierConfig = TierConfig {
    seeds: 2,
    t_max: 256,
    dim_x: 6,
    dim_y: 4,
};

/// The step from which the broken variant doubles its dual step.
const BROKEN_FROM: usize = 7;

/// Algorithm 2 (LMO-PO, `alg:fw-proj`) written from the paper, independently of saddlefw's step
/// code: `v_t = LMO_X(grad_x L)`, `x_{t+1} = x_t + tau_t (v_t - x_t)`,
/// `y_{t+1} = P_Y(y_t + (grad_y L - beta_t (y_t - y_0)) / (L_yy + beta_t))`. With
/// `double_from`, the dual step is doubled from that t on (a broken variant).
struct MyLmoPo {
    sched: RunSchedules,
    lyy: f64,
    double_from: Option<usize>,
    x: Vec<f64>,
    y: Vec<f64>,
    y0: Vec<f64>,
}

impl MyLmoPo {
    fn new(req: &SolverRequest<'_>, double_from: Option<usize>) -> Self {
        MyLmoPo {
            sched: *req.schedule,
            lyy: req.constants.lyy,
            double_from,
            x: Vec::new(),
            y: Vec::new(),
            y0: Vec::new(),
        }
    }
}

impl Solver for MyLmoPo {
    fn name(&self) -> &str {
        "my-lmo-po"
    }
    fn init(&mut self, _: &dyn SaddleProblem, x0: &[f64], y0: &[f64]) {
        self.x = x0.to_vec();
        self.y = y0.to_vec();
        self.y0 = y0.to_vec();
    }
    fn step(&mut self, p: &dyn SaddleProblem, t: usize) -> StepInfo {
        let (dx, dy) = (self.x.len(), self.y.len());
        let (mut gx, mut gy) = (vec![0.0; dx], vec![0.0; dy]);
        p.grads(&self.x, &self.y, &mut gx, &mut gy);
        let tau = self.sched.tau.at(t).clamp(0.0, 1.0);
        let beta = self.sched.beta.at(t);
        let mut v = vec![0.0; dx];
        p.x_set().lmo(&gx, &mut v);
        let mut step = 1.0 / (self.lyy + beta);
        if self.double_from.is_some_and(|t0| t >= t0) {
            step *= 2.0;
        }
        let z: Vec<f64> = (0..dy)
            .map(|j| self.y[j] + step * (gy[j] - beta * (self.y[j] - self.y0[j])))
            .collect();
        p.y_set().project(&z, &mut self.y);
        for i in 0..dx {
            self.x[i] += tau * (v[i] - self.x[i]);
        }
        StepInfo {
            tau,
            beta,
            gamma: step,
        }
    }
    fn x(&self) -> &[f64] {
        &self.x
    }
    fn y(&self) -> &[f64] {
        &self.y
    }
    fn beta_at(&self, t: usize) -> f64 {
        self.sched.beta.at(t)
    }
}

fn export_to(dir: &Path, filter: &str) {
    let opts = ExportOptions {
        tier: Tier::Quick,
        filter: Some(filter.into()),
        config: Some(CFG),
        hard: None,
        confirmation: false,
    };
    export(&saddlefw::theorems::builtin(), &opts, dir).unwrap();
}

/// Runs `solver` from the job's start and returns its iterates `t = 0..=t_last`.
fn trajectory(solver: &mut dyn Solver, inst: &Instance, t_last: u64) -> Vec<(Vec<f64>, Vec<f64>)> {
    let p = inst.problem.as_ref();
    solver.init(p, &inst.x0, &inst.y0);
    let mut out = vec![(solver.x().to_vec(), solver.y().to_vec())];
    for t in 0..t_last as usize {
        solver.step(p, t);
        out.push((solver.x().to_vec(), solver.y().to_vec()));
    }
    out
}

/// Writes MyLmoPo's iterates (broken from `double_from`) for every job of the export in `dir`
/// under `root`; returns, per job, where the broken run first departs from the faithful one
/// (computed here, independently of saddlefw's reference).
fn write_my_iterates(
    dir: &Path,
    root: &Path,
    double_from: Option<usize>,
) -> Vec<Option<(u64, String)>> {
    let table = saddlefw::theorems::builtin();
    let (m, _, planned) = load(&table, dir).unwrap();
    let mut expected = Vec::new();
    for (job, pj) in m.jobs.iter().zip(&planned) {
        let inst = pj.instance().unwrap();
        let entry = table.iter().find(|e| e.id == job.entries[0]).unwrap();
        let k = inst.problem.constants();
        let sched = entry.schedule.resolve(&k).unwrap();
        let origin = saddlefw::verify::RunOrigin {
            family: pj.family.clone(),
            spec: pj.spec.clone(),
            seed_index: pj.seed_index,
            seed: pj.seed,
            problem: None,
        };
        let req = SolverRequest {
            entry,
            instance: &inst,
            constants: &k,
            schedule: &sched,
            origin: &origin,
            t_max: pj.t_max,
        };
        let mine = trajectory(&mut MyLmoPo::new(&req, double_from), &inst, job.t_last);
        let faithful = trajectory(&mut MyLmoPo::new(&req, None), &inst, job.t_last);
        expected.push(
            mine.iter()
                .zip(&faithful)
                .enumerate()
                .find_map(|(t, (u, r))| {
                    first_departure(t as u64, (&u.0, &u.1), (&r.0, &r.1))
                        .map(|d| (d.t, d.coordinate))
                }),
        );
        let path = root.join(&job.iterates);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        let mut w = IterateWriter::new(std::io::BufWriter::new(
            std::fs::File::create(&path).unwrap(),
        ));
        for (t, (x, y)) in mine.iter().enumerate() {
            w.write(t as u64, x, y).unwrap();
        }
        w.finish().unwrap();
    }
    expected
}

fn saddlefw(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_saddlefw"))
        .args(args)
        .output()
        .unwrap()
}

/// `verify-iterates DIR [--iterates ROOT] --against ALGO --out OUT`: exit code and report.
fn against(dir: &Path, root: &Path, algo: &str, out: &Path) -> (i32, VerifyReport) {
    let o = saddlefw(&[
        "verify-iterates",
        dir.to_str().unwrap(),
        "--iterates",
        root.to_str().unwrap(),
        "--against",
        algo,
        "--out",
        out.to_str().unwrap(),
        "--jobs",
        "1",
    ]);
    let text = std::fs::read_to_string(out.join("verify.json")).unwrap();
    let stdout = String::from_utf8_lossy(&o.stdout);
    let report = VerifyReport::parse("verify.json", &text).unwrap();
    // the CLI prints one line per job
    for j in &report.differential.as_ref().unwrap().jobs {
        assert!(stdout.contains(&j.job), "{stdout}");
    }
    (o.status.code().unwrap(), report)
}

fn differential(r: &VerifyReport) -> &Differential {
    r.differential.as_ref().expect("a differential record")
}

#[test]
fn faithful_reimplementations_agree() {
    let dir = tempfile::tempdir().unwrap();
    export_to(dir.path(), "lmo-po/c-sc/");
    // the reimplementation above
    let mine = dir.path().join("mine");
    assert!(write_my_iterates(dir.path(), &mine, None)
        .iter()
        .all(Option::is_none));
    let (code, r) = against(dir.path(), &mine, "lmo-po", &dir.path().join("r1"));
    let d = differential(&r);
    assert_eq!(code, 0, "{:#?}", d.jobs);
    assert_eq!((d.jobs.len(), d.summary["agrees"]), (4, 4), "{:#?}", d.jobs);
    assert!(!d.departs && !r.failed);
    // saddlefw's own iterates, every coordinate perturbed by a relative 1e-15 (another
    // floating-point order, simulated)
    let table = saddlefw::theorems::builtin();
    let own = dir.path().join("own");
    write_reference_iterates(&table, dir.path(), Some(&own), None).unwrap();
    for entry in walk(&own) {
        let text = std::fs::read_to_string(&entry).unwrap();
        let lines: Vec<String> = text
            .lines()
            .map(|l| {
                let mut v: serde_json::Value = serde_json::from_str(l).unwrap();
                for key in ["x", "y"] {
                    for c in v[key].as_array_mut().unwrap() {
                        *c = (c.as_f64().unwrap() * (1.0 + 1e-15)).into();
                    }
                }
                v.to_string()
            })
            .collect();
        std::fs::write(&entry, lines.join("\n") + "\n").unwrap();
    }
    let (code, r) = against(dir.path(), &own, "lmo-po", &dir.path().join("r2"));
    assert_eq!((code, differential(&r).summary["agrees"]), (0, 4));
    // the page has the table
    let html = std::fs::read_to_string(dir.path().join("r2/index.html")).unwrap();
    assert!(html.contains("id=\"differential\"") && html.contains("agrees through t = 256"));
}

/// Every iterate file under `root`.
fn walk(root: &Path) -> Vec<std::path::PathBuf> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(root).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            out.extend(walk(&p));
        } else if p.extension().is_some_and(|x| x == "jsonl") {
            out.push(p);
        }
    }
    out
}

/// A legitimate variant, the same update with another operation order, agrees where its
/// rounding is amplified too (LMO-LMO's nonconvex cases): a departure counts only before the
/// horizon, which saddlefw's own float-order run gives.
#[test]
fn the_float_order_variant_agrees() {
    let table = saddlefw::theorems::builtin();
    let dir = tempfile::tempdir().unwrap();
    export_to(dir.path(), "lmo-lmo/nc-sc+sc");
    write_reference_iterates(&table, dir.path(), None, Some(Control::FloatOrder)).unwrap();
    let (code, r) = against(dir.path(), dir.path(), "lmo-lmo", &dir.path().join("r"));
    let d = differential(&r);
    assert_eq!(d.summary["departs"], 0, "{:#?}", d.jobs);
    assert_eq!(code, i32::from(r.failed));
}

/// Negative controls through the binary: the dual step doubled from t = 7 departs where the
/// broken run leaves the faithful one; a sign flip at t = 5 in one coordinate of saddlefw's
/// own iterates departs at t = 5 in that coordinate, with both values. Without --against the
/// report is the same apart from the differential record and the exit code.
#[test]
fn broken_variants_depart_at_the_right_iterate_and_coordinate() {
    let dir = tempfile::tempdir().unwrap();
    export_to(dir.path(), "lmo-po/c-sc/");
    let broken = dir.path().join("broken");
    let expected = write_my_iterates(dir.path(), &broken, Some(BROKEN_FROM));
    let (code, r) = against(dir.path(), &broken, "lmo-po", &dir.path().join("r1"));
    let d = differential(&r);
    assert_eq!(code, 1);
    assert!(d.departs && r.failed);
    let mut departed = 0;
    for (j, want) in d.jobs.iter().zip(&expected) {
        let got = j.departure.as_ref().map(|d| (d.t, d.coordinate.clone()));
        match want {
            Some((t, c)) => {
                assert!(*t > BROKEN_FROM as u64, "{j:#?}");
                assert_eq!(j.verdict, DiffVerdict::Departs, "{j:#?}");
                assert_eq!(got.as_ref(), Some(&(*t, c.clone())), "{j:#?}");
                assert!(c.starts_with("y["), "the dual step is broken: {c}");
                departed += 1;
            }
            None => assert_eq!(j.verdict, DiffVerdict::Agrees, "{j:#?}"),
        }
    }
    // on the quadratic family the doubled step is projected onto the same point: no departure
    // there, for either comparison
    assert!(departed >= 2, "{:#?}", d.jobs);
    // the same files without --against: no differential record, every other field the same
    let plain = dir.path().join("plain");
    let o = saddlefw(&[
        "verify-iterates",
        dir.path().to_str().unwrap(),
        "--iterates",
        broken.to_str().unwrap(),
        "--out",
        plain.to_str().unwrap(),
    ]);
    let text = std::fs::read_to_string(plain.join("verify.json")).unwrap();
    assert!(!text.contains("\"differential\""));
    let p = VerifyReport::parse("verify.json", &text).unwrap();
    assert_eq!(o.status.code(), Some(i32::from(p.failed)));
    let strip = |r: &VerifyReport| {
        let mut v = saddlefw::verify::without_timings(&serde_json::to_value(r).unwrap());
        for k in ["differential", "failed"] {
            v.as_object_mut().unwrap().remove(k);
        }
        v
    };
    assert_eq!(strip(&p), strip(&r));

    // a sign flip at t = 5 in the largest coordinate of x_5 (X is an l1 ball: still feasible)
    let table = saddlefw::theorems::builtin();
    let own = dir.path().join("own");
    write_reference_iterates(&table, dir.path(), Some(&own), None).unwrap();
    let (m, _, _) = load(&table, dir.path()).unwrap();
    let file = own.join(&m.jobs[0].iterates);
    let text = std::fs::read_to_string(&file).unwrap();
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    let mut v: serde_json::Value = serde_json::from_str(&lines[5]).unwrap();
    let x: Vec<f64> = serde_json::from_value(v["x"].clone()).unwrap();
    let i = (0..x.len())
        .max_by(|&a, &b| x[a].abs().total_cmp(&x[b].abs()))
        .unwrap();
    assert!(x[i].abs() > 1e-3 && m.jobs[0].family.contains("x=l1"));
    v["x"][i] = (-x[i]).into();
    lines[5] = v.to_string();
    std::fs::write(&file, lines.join("\n") + "\n").unwrap();
    let (code, r) = against(dir.path(), &own, "lmo-po", &dir.path().join("r2"));
    let d = differential(&r);
    assert_eq!((code, d.summary["departs"], d.summary["agrees"]), (1, 1, 3));
    let dep = d.jobs[0].departure.as_ref().unwrap();
    assert_eq!((dep.t, dep.coordinate.clone()), (5, format!("x[{i}]")));
    assert_eq!((dep.yours, dep.saddlefw), (-x[i], x[i]));
    assert!(d.jobs[0]
        .describe()
        .starts_with(&format!("departs at t = 5 in x[{i}]: yours {}", -x[i])));
    // a departure at the first iterates says that a legitimate convention may explain it;
    // one later (t = 5) does not
    assert!(!d.jobs[0].describe().contains("index offset"));
    let mut early = d.jobs[0].clone();
    early.departure.as_mut().unwrap().t = 1;
    assert!(early.describe().contains("index offset such as tau_{t+1}"));
}

/// The verdict rule at the chaos horizon H: a departure before H departs, one at or after H
/// agrees ("until the run is chaotic").
#[test]
fn departures_count_only_before_the_chaos_horizon() {
    let at = |t: u64| first_departure(t, (&[1.0][..], &[][..]), (&[0.0][..], &[][..]));
    let job = |d: Option<u64>, h: Option<u64>| {
        let mut j = JobDifferential::not_compared("j".into(), vec![], "s".into(), 100, "".into());
        j.compared_through = Some(d.or(h).unwrap_or(100));
        j.decide(d.and_then(at), h.and_then(at));
        j
    };
    assert_eq!(job(Some(9), Some(10)).verdict, DiffVerdict::Departs);
    assert_eq!(job(Some(9), None).verdict, DiffVerdict::Departs);
    let chaotic = job(Some(10), Some(10));
    assert_eq!(chaotic.verdict, DiffVerdict::Agrees);
    assert_eq!(
        chaotic.describe(),
        "agrees until the run is chaotic at t = 10"
    );
    assert_eq!(job(None, Some(12)).verdict, DiffVerdict::Agrees);
    assert_eq!(job(None, None).describe(), "agrees through t = 100");
}

/// An unknown ALGO, and one that none of the exported jobs is of: one line, exit 2.
#[test]
fn a_wrong_algorithm_is_an_input_error() {
    let dir = tempfile::tempdir().unwrap();
    export_to(dir.path(), "lmo-po/c-sc/");
    let d = dir.path().to_str().unwrap();
    let out = dir.path().join("r");
    for (algo, want) in [
        ("lmo-fw", "error: invalid --against: unknown algorithm \"lmo-fw\""),
        (
            "po-lmo",
            "error: invalid --against: po-lmo: the jobs are of lmo-po (entries such as lmo-po/c-sc/primal), none of po-lmo: compare with --against lmo-po, or export po-lmo's cases",
        ),
    ] {
        let o = saddlefw(&[
            "verify-iterates",
            d,
            "--against",
            algo,
            "--out",
            out.to_str().unwrap(),
        ]);
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{err}");
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(err.starts_with(want), "{err}");
    }
    assert!(!out.exists());
}

fn my_check(double_from: Option<usize>) -> RateCheck {
    RateCheck::builtin("lmo-po/c-sc/")
        .against(Algorithm::LmoPo)
        .sizes(CFG)
        .hard_instances(false)
        .solver_fn("my-lmo-po", move |req: &SolverRequest| {
            Ok(Box::new(MyLmoPo::new(req, double_from)))
        })
}

/// The same through `RateCheck::against`: the faithful solver passes with every job agreeing,
/// the broken one fails and the panic message names the job, iterate and coordinate; the
/// builder calls commute; an algorithm none of the entries is of is an error.
#[test]
fn rate_check_against_reports_where_a_solver_departs() {
    let ok = my_check(None).run().unwrap();
    let d = ok.report.differential.as_ref().unwrap();
    assert_eq!((d.jobs.len(), d.summary["agrees"]), (4, 4), "{:#?}", d.jobs);
    ok.assert_passed();

    let bad = my_check(Some(BROKEN_FROM)).run().unwrap();
    assert!(!bad.passed());
    let departures = bad.departures();
    assert!(!departures.is_empty());
    for j in &departures {
        let dep = j.departure.as_ref().unwrap();
        assert!(
            dep.t > BROKEN_FROM as u64 && dep.coordinate.starts_with("y["),
            "{j:#?}"
        );
    }
    let msg = std::panic::catch_unwind(|| bad.assert_passed())
        .unwrap_err()
        .downcast::<String>()
        .unwrap();
    let first = departures[0];
    for part in [
        "depart from saddlefw's lmo-po",
        first.job.as_str(),
        &format!("departs at t = {}", first.departure.as_ref().unwrap().t),
        "instance ",
    ] {
        assert!(msg.contains(part), "{part:?} missing from:\n{msg}");
    }

    let a = RateCheck::builtin("lmo-po/")
        .against(Algorithm::LmoPo)
        .tier(Tier::Quick)
        .hard_instances(false);
    let b = RateCheck::builtin("lmo-po/")
        .hard_instances(false)
        .tier(Tier::Quick)
        .against(Algorithm::LmoPo);
    assert_eq!(format!("{a:?}"), format!("{b:?}"));

    let e = RateCheck::builtin("lmo-po/c-sc/")
        .sizes(CFG)
        .hard_instances(false)
        .against(Algorithm::PoLmo)
        .run()
        .unwrap_err()
        .to_string();
    assert!(e.contains("compare with .against(Algorithm::LmoPo)"), "{e}");
}
