//! `saddlefw experiment`: both experiments end to end at a reduced time limit (DL at the
//! paper's size, NEWS20 on a seeded row subsample of the real file when present, otherwise a
//! generated LIBSVM fixture), the structure of experiment.json, the page, the parameters the
//! registry builds, the claim verdicts (with negative controls), and malformed LIBSVM input
//! through the binary.

use saddlefw::data::{self, read_libsvm, LibsvmOptions, NEWS20};
use saddlefw::experiments::claims::{self, keeps_decreasing};
use saddlefw::experiments::params::{self, Baseline, Experiment, Method};
use saddlefw::experiments::record::{CheckpointRecord, ExperimentRecord, RunRecord, RunStatus};
use saddlefw::experiments::source;
use saddlefw::experiments::{self, Plan, Which};
use saddlefw::harness::CheckpointRule;
use saddlefw::paper::Algorithm;
use saddlefw::paper::Oracle;
use saddlefw::report;
use saddlefw::solvers::registry;
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;

fn tmpdir() -> tempfile::TempDir {
    tempfile::tempdir().expect("temp dir")
}

/// The checks every experiment output must pass: experiment.json fields, every algorithm
/// iterated or reported why not, the page renders and references nothing outside itself.
fn check_output(dir: &Path, rec: &ExperimentRecord, expect_skipped: &[Method]) {
    let text = std::fs::read_to_string(dir.join("experiment.json")).unwrap();
    let v: Value = serde_json::from_str(&text).unwrap();
    for key in [
        "experiment",
        "time_limit_s",
        "runs",
        "data",
        "measure",
        "constants",
        "claims",
        "notes",
    ] {
        assert!(v.get(key).is_some(), "experiment.json lacks {key:?}");
    }
    for key in ["file", "sha256", "scaling", "n", "d", "k", "kind"] {
        assert!(v["data"].get(key).is_some(), "data lacks {key:?}");
    }
    let runs = v["runs"].as_array().unwrap();
    assert_eq!(runs.len(), rec.runs.len());
    for r in runs {
        for key in [
            "algorithm",
            "iterations",
            "wall_time_s",
            "status",
            "provenance",
            "checkpoints",
        ] {
            assert!(r.get(key).is_some(), "run lacks {key:?}: {r}");
        }
        assert!(!r["provenance"].as_str().unwrap().is_empty());
    }
    // read back equal
    let back = ExperimentRecord::read(&dir.join("experiment.json")).unwrap();
    assert_eq!(back.runs.len(), rec.runs.len());
    for r in &rec.runs {
        let alg = Method::parse(&r.algorithm).unwrap();
        if expect_skipped.contains(&alg) {
            assert_eq!(r.status, RunStatus::Skipped, "{}", r.algorithm);
            assert!(r
                .status_detail
                .as_deref()
                .unwrap()
                .contains("strongly convex"));
            continue;
        }
        assert!(r.status.ran(), "{}: {}", r.algorithm, r.status_text());
        assert!(r.iterations > 0, "{} made no iteration", r.algorithm);
        assert!(r.checkpoints.len() >= 2, "{}", r.algorithm);
        assert_eq!(r.checkpoints[0].t(), 0);
        assert_eq!(r.checkpoints.last().unwrap().t(), r.iterations);
        assert!(
            r.initial().is_some() && r.last().is_some(),
            "{}",
            r.algorithm
        );
        // the plotted measure is the documented sum
        for c in &r.checkpoints {
            let k = &c.checkpoint.measures;
            let gx = match r.primal_oracle {
                Oracle::Lmo => k.gx_lmo,
                Oracle::Po => k.gx_po,
            };
            if let (Some(m), true) = (c.measure, gx.is_finite() && k.gy.is_finite()) {
                let gy = k.gy;
                assert!((m - (gx + gy)).abs() <= 1e-12 * m.abs().max(1.0));
                assert!(m >= -1e-12, "{}: negative measure {m}", r.algorithm);
            }
        }
    }
    // one verdict per claim, each with evidence
    assert!(rec.claims.len() >= 5);
    assert!(rec.claims.iter().all(|c| !c.evidence.is_empty()));
    assert!(rec
        .claims
        .iter()
        .any(|c| c.label.as_deref() == Some("table:iters")));
    let html = std::fs::read_to_string(dir.join("index.html")).unwrap();
    report::self_contained(&html).expect("self-contained page");
    for needle in ["Figure 1", "Table 3", "<svg", "LMO-PO", "table:iters"] {
        assert!(html.contains(needle), "page lacks {needle:?}");
    }
    // baselines' provenance shown
    assert!(html.contains("RECONSTRUCTED") && html.contains("VERIFIED"));
}

#[test]
fn dl_end_to_end_at_a_short_time_limit() {
    let dir = tmpdir();
    let mut plan = Plan::new(Which::Dl);
    plan.time_limit_s = 0.25;
    plan.lipschitz_pairs = 8;
    let rec = experiments::run(&plan).unwrap();
    experiments::write(&rec, dir.path()).unwrap();
    check_output(dir.path(), &rec, &[]);
    assert_eq!(rec.runs.len(), 7);
    assert_eq!(rec.experiment, "dl");
    assert_eq!(rec.checkpoint_rule, "decades");
    // sigma = tau_0 of the PO-LMO schedule, 1e2/10^(3/5)
    assert!((rec.measure.sigma - 100.0 / 10f64.powf(0.6)).abs() < 1e-9);
    // Lipschitz constants: the appendix's, the certified and sampled ones (sampled ratios
    // are lower bounds, so they may not exceed the certified upper bounds)
    let c = &rec.constants;
    let s = c.sampled.expect("DL samples its constants");
    assert!(
        s.lxx > 0.0 && s.lxx <= c.certified.lxx,
        "{s:?} vs {:?}",
        c.certified
    );
    assert!(s.lyx > 0.0 && s.lyx <= c.certified.lyx);
    assert_eq!(c.paper.lyy, 0.0);
    assert_eq!(c.passed_to_parameter_formulas, c.paper);
    assert_eq!(
        rec.runs
            .iter()
            .filter(|r| r.paper_iterations.is_some())
            .count(),
        7
    );
    let html = std::fs::read_to_string(dir.path().join("index.html")).unwrap();
    assert!(
        html.contains("sampled"),
        "the page shows the sampled constants"
    );
}

/// A small generated LIBSVM file: `rows` samples, 40 features, 4 classes.
fn fixture(path: &Path, rows: usize) {
    use rand::{Rng, SeedableRng};
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(11);
    let mut s = String::new();
    for i in 0..rows {
        s.push_str(&format!("{}", 1 + i % 4));
        let mut j = 0;
        loop {
            j += rng.gen_range(1..6);
            if j > 40 {
                break;
            }
            s.push_str(&format!(" {j}:{}", rng.gen_range(1..9)));
        }
        s.push('\n');
    }
    std::fs::write(path, s).unwrap();
}

/// Writes `rows` seeded rows of the real NEWS20 file, restricted to the features those rows
/// use (renumbered in order), so the test's nuclear-norm projections stay small.
fn news20_subsample(src: &Path, dst: &Path, rows: usize) {
    let full = read_libsvm(src, &LibsvmOptions::default()).unwrap();
    assert_eq!(full.n_samples(), NEWS20.rows);
    let sub = full.subsample(rows, 5).unwrap();
    let f = &sub.features;
    let mut used: Vec<u32> = f.indices().to_vec();
    used.sort_unstable();
    used.dedup();
    let mut s = String::new();
    for i in 0..sub.n_samples() {
        s.push_str(&sub.classes[sub.labels[i] as usize].to_string());
        let (lo, hi) = (f.indptr()[i], f.indptr()[i + 1]);
        for p in lo..hi {
            let j = used.binary_search(&f.indices()[p]).unwrap() + 1;
            s.push_str(&format!(" {j}:{}", f.values()[p]));
        }
        s.push('\n');
    }
    std::fs::write(dst, s).unwrap();
}

fn shared_news20() -> PathBuf {
    match std::env::var_os(data::DATA_DIR_ENV) {
        Some(d) if !d.is_empty() => PathBuf::from(d).join(NEWS20.file),
        _ => Path::new(env!("CARGO_MANIFEST_DIR"))
            .join(data::DEFAULT_DATA_DIR)
            .join(NEWS20.file),
    }
}

#[test]
fn news20_end_to_end_through_the_binary() {
    let dir = tmpdir();
    let data_file = dir.path().join("news20-small.txt");
    let real = shared_news20();
    let used = if real.is_file() {
        news20_subsample(&real, &data_file, 150);
        format!(
            "a 150-row seeded subsample of the real file {}",
            real.display()
        )
    } else {
        fixture(&data_file, 120);
        format!(
            "a generated 120-row LIBSVM fixture ({} not found)",
            real.display()
        )
    };
    eprintln!("news20 experiment test uses {used}");
    let out = dir.path().join("out");
    let o = Command::new(env!("CARGO_BIN_EXE_saddlefw"))
        .args([
            "experiment",
            "news20",
            "--time-limit",
            "0.2",
            "--iters",
            "4",
            "--quiet",
        ])
        .arg("--data")
        .arg(&data_file)
        .arg("--out")
        .arg(&out)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(0), "{stderr}");
    assert!(o.stdout.is_empty(), "--quiet prints nothing");
    assert!(
        stderr.is_empty(),
        "no display when stderr is not a terminal: {stderr}"
    );
    let rec = ExperimentRecord::read(&out.join("experiment.json")).unwrap();
    check_output(&out, &rec, &[Method::Baseline(Baseline::RPdcg)]);
    assert_eq!(rec.experiment, "news20");
    assert_eq!(rec.measure.sigma, 1000.0);
    assert_eq!(rec.data.scaling.as_deref(), Some("row-l2"));
    assert!(rec.data.sha256.as_ref().unwrap().len() == 64);
    // robust: the formulas get mu = lambda = lambda'/(2 n^2)
    let n = rec.data.n.unwrap();
    let lambda = params::lambda(10.0, n);
    assert!(
        (rec.constants.passed_to_parameter_formulas.mu - lambda).abs() <= 1e-15 * lambda.max(1.0)
    );
    // R-PDCG skipped, with claim 4 recorded
    assert!(rec
        .claims
        .iter()
        .any(|c| c.claim.starts_with("4.") && c.holds == Some(true)));
}

#[test]
fn r_pdcg_on_the_robust_problem_only_when_asked_and_then_not_applicable() {
    let dir = tmpdir();
    let file = dir.path().join("small.txt");
    fixture(&file, 60);
    let mut plan = Plan::new(Which::News20);
    plan.data = Some(file);
    plan.time_limit_s = 0.1;
    plan.max_iterations = 2;
    plan.algorithms = vec![
        Method::Baseline(Baseline::RPdcg),
        Method::Paper(Algorithm::LmoPo),
    ];
    plan.explicit_algorithms = true;
    let rec = experiments::run(&plan).unwrap();
    let r = rec.run(Method::Baseline(Baseline::RPdcg)).unwrap();
    assert_eq!(r.status, RunStatus::NotApplicable, "{}", r.status_text());
    assert!(r
        .status_detail
        .as_deref()
        .unwrap()
        .contains("strongly convex"));
    assert_eq!(
        rec.run(Method::Paper(Algorithm::LmoPo)).unwrap().iterations,
        2
    );
    assert_eq!(
        rec.run(Method::Paper(Algorithm::LmoPo)).unwrap().status,
        RunStatus::Completed
    );
    // negative control: without the explicit request it is skipped, not attempted
    plan.explicit_algorithms = false;
    let rec = experiments::run(&plan).unwrap();
    assert_eq!(
        rec.run(Method::Baseline(Baseline::RPdcg)).unwrap().status,
        RunStatus::Skipped
    );
}

#[test]
fn jobs_run_concurrently_with_the_same_iterates() {
    // with an iteration cap instead of a time limit the runs are deterministic: 2 jobs give
    // the same checkpoints (apart from timings) as 1 job
    let mut plan = Plan::new(Which::Dl);
    plan.time_limit_s = 1e6;
    plan.max_iterations = 20;
    plan.lipschitz_pairs = 0;
    plan.algorithms = vec![
        Method::Paper(Algorithm::LmoLmo),
        Method::Paper(Algorithm::PoLmo),
        Method::Baseline(Baseline::Agp),
    ];
    let one = experiments::run(&plan).unwrap();
    plan.jobs = 2;
    let two = experiments::run(&plan).unwrap();
    assert_eq!(two.jobs, 2);
    let strip = |r: &RunRecord| -> Vec<(usize, Option<f64>)> {
        r.checkpoints.iter().map(|c| (c.t(), c.measure)).collect()
    };
    for (a, b) in one.runs.iter().zip(&two.runs) {
        assert_eq!(a.algorithm, b.algorithm);
        assert_eq!(strip(a), strip(b), "{}", a.algorithm);
    }
    assert!(one.constants.sampled.is_none());
}

#[test]
fn the_registry_builds_the_papers_parameters() {
    // schedules: the printed form scale (num/(t+shift))^exponent as a shifted schedule
    let printed = |t: f64| 3.0 * (2.0 / (t + 10.0)).powf(0.6);
    let law = saddlefw::solvers::Schedule::power_law(3.0, 2.0, 10.0, 0.6);
    for t in [0usize, 1, 7, 1000, 123_456] {
        let (want, got) = (printed(t as f64), law.at(t));
        assert!((want - got).abs() <= 1e-12 * want.abs(), "t={t}");
    }
    // DL: every algorithm builds with the paper's constants; schedule strings carry them
    let mut dl = Plan::new(Which::Dl);
    dl.dl = experiments::command::parse_dl_dims("m=12,p=6,l=2,q=8,n=40,n_new=9", 3).unwrap();
    let (src, _) = experiments::load(&dl).unwrap();
    let prep = src.prepare().unwrap();
    let p = prep.instance.problem.as_ref();
    for a in Method::ALL {
        let (o, _) = source::options(Experiment::Dl, a, &prep.formula);
        let b = registry::build(a.registry_name(), p, &o).unwrap();
        let sched = b.solver.schedule();
        match a {
            Method::Baseline(Baseline::CgRpga) => {
                let want = params::DL_CG_RPGA.sigma(&prep.paper, 0.0).unwrap();
                assert!(sched.contains(&format!("sigma=const({want})")), "{sched}");
            }
            Method::Baseline(Baseline::RPdcg) => {
                assert!(
                    sched.contains(&format!("tau=const({})", params::DL_R_PDCG.tau())),
                    "{sched}"
                );
                // alpha = 1/B from the paper, not the certified 2/B
                assert!(sched.contains("min{1, 1 ||g||"), "{sched}");
            }
            Method::Baseline(Baseline::Agp) => {
                let want = params::AgpNcC::new(&prep.paper);
                assert!(
                    sched.contains(&format!(
                        "tau={}",
                        saddlefw::solvers::schedule::fmt_num(want.tau)
                    )),
                    "{sched}"
                );
            }
            Method::Paper(Algorithm::LmoLmo) => assert!(sched.contains("s=10,a=0.8"), "{sched}"),
            _ => {}
        }
    }
    // negative control: without the paper's constants AGP gets the certified ones, which differ
    let b = registry::build("agp", p, &Default::default()).unwrap();
    let want = params::AgpNcC::new(&prep.paper);
    assert!(!b.solver.schedule().contains(&format!(
        "tau={}",
        saddlefw::solvers::schedule::fmt_num(want.tau)
    )));
}

#[test]
fn decades_checkpoints_are_about_ten_per_decade() {
    let r = CheckpointRule::Decades;
    let ts: Vec<usize> = (0..=100_000).filter(|&t| r.includes(t)).collect();
    // floor(10 log10 t) steps: 0, 1, 2, 3, 4, 6, 7, 8, 10, 13, 16, 20, 26, ...
    assert_eq!(&ts[..11], &[0, 1, 2, 3, 4, 6, 7, 8, 10, 13, 16]);
    for (lo, hi) in [(10, 100), (100, 1000), (1000, 10_000), (10_000, 100_000)] {
        let n = ts.iter().filter(|&&t| t > lo && t <= hi).count();
        assert!((9..=11).contains(&n), "{n} checkpoints in ({lo}, {hi}]");
    }
    assert_eq!("decades".parse::<CheckpointRule>().unwrap(), r);
    assert_eq!(r.to_string(), "decades");
}

// ------------------------------------------------------------------------------------------
// verdicts on synthetic runs: each claim holds on runs built to satisfy it and fails on a
// deliberately broken variant (negative controls)

/// A run whose measure is `m(time)` at times 0, 1, ..., 10 s.
fn synth(alg: Method, iterations: usize, m: impl Fn(f64) -> f64) -> RunRecord {
    let mut r = RunRecord::not_run(alg, RunStatus::TimeLimit, String::new());
    r.status_detail = None;
    r.iterations = iterations;
    r.wall_time_s = 10.0;
    r.checkpoints = (0..=10)
        .map(|k| {
            let t = k as f64;
            CheckpointRecord::of_measure(k * iterations / 10, t, Some(m(t)))
        })
        .collect();
    r
}

fn paper_like() -> Vec<RunRecord> {
    vec![
        synth(Method::Baseline(Baseline::SpFw), 480, |t| {
            1.0 / (1.0 + t).sqrt()
        }),
        synth(Method::Baseline(Baseline::Agp), 200, |t| 1.0 - 0.01 * t),
        synth(Method::Baseline(Baseline::RPdcg), 460, |t| {
            0.5f64.max(1.0 / (1.0 + t))
        }),
        synth(Method::Baseline(Baseline::CgRpga), 470, |t| {
            0.4f64.max(1.0 / (1.0 + t))
        }),
        synth(Method::Paper(Algorithm::LmoLmo), 420, |t| 1.0 / (1.0 + t)),
        synth(Method::Paper(Algorithm::LmoPo), 466, |t| {
            0.5 / (1.0 + t) / (1.0 + t)
        }),
        synth(Method::Paper(Algorithm::PoLmo), 220, |t| 1.0 - 0.02 * t),
    ]
}

fn verdict(runs: &[RunRecord], prefix: &str) -> Option<bool> {
    claims::verdicts(Which::Dl, runs)
        .into_iter()
        .find(|c| c.claim.starts_with(prefix))
        .unwrap_or_else(|| panic!("no claim {prefix}"))
        .holds
}

fn replace(runs: &mut [RunRecord], r: RunRecord) {
    let i = runs
        .iter()
        .position(|x| x.algorithm == r.algorithm)
        .unwrap();
    runs[i] = r;
}

#[test]
fn claim_verdicts_hold_on_paper_like_runs_and_fail_on_broken_ones() {
    let runs = paper_like();
    for p in ["1.", "2.", "3.", "5.", "Table 3"] {
        assert_eq!(verdict(&runs, p), Some(true), "claim {p}");
    }
    // 1 and 3: LMO-LMO plateaus / loses to CG-RPGA
    let mut b = paper_like();
    replace(
        &mut b,
        synth(Method::Paper(Algorithm::LmoLmo), 420, |_| 0.3),
    );
    assert_eq!(keeps_decreasing(&b[4]), Some(false));
    assert_eq!(verdict(&b, "1."), Some(false));
    let mut b = paper_like();
    replace(
        &mut b,
        synth(Method::Paper(Algorithm::LmoLmo), 420, |t| {
            2.0 / (1.0 + t).sqrt()
        }),
    );
    assert_eq!(verdict(&b, "3."), Some(false));
    // 3: CG-RPGA keeps decreasing
    let mut b = paper_like();
    replace(
        &mut b,
        synth(Method::Baseline(Baseline::CgRpga), 470, |t| 1.0 / (1.0 + t)),
    );
    assert_eq!(verdict(&b, "3."), Some(false));
    // 2: SP-FW beats LMO-PO
    let mut b = paper_like();
    replace(
        &mut b,
        synth(Method::Baseline(Baseline::SpFw), 480, |t| 0.01 / (1.0 + t)),
    );
    assert_eq!(verdict(&b, "2."), Some(false));
    assert_eq!(verdict(&b, "1."), Some(false));
    // 5: PO-LMO improves by a factor 100
    let mut b = paper_like();
    replace(
        &mut b,
        synth(Method::Paper(Algorithm::PoLmo), 220, |t| {
            1.0 / (1.0 + 10.0 * t * t)
        }),
    );
    assert_eq!(verdict(&b, "5."), Some(false));
    // Table 3: a PO-primal method with more iterations than an LMO-primal one
    let mut b = paper_like();
    // (beyond the 10% tie band: 500 against LMO-LMO's 420; 430 would be a tie)
    replace(
        &mut b,
        synth(Method::Baseline(Baseline::Agp), 500, |t| 1.0 - 0.01 * t),
    );
    assert_eq!(verdict(&b, "Table 3"), Some(false));
    replace(
        &mut b,
        synth(Method::Baseline(Baseline::Agp), 430, |t| 1.0 - 0.01 * t),
    );
    assert_eq!(verdict(&b, "Table 3"), None);
    // inconclusive without the runs a claim needs
    let only: Vec<RunRecord> = paper_like()
        .into_iter()
        .filter(|r| r.algorithm == "SP-FW")
        .collect();
    for p in ["1.", "2.", "3.", "5.", "Table 3"] {
        assert_eq!(verdict(&only, p), None, "claim {p}");
    }
    // a diverged-without-measures run is inconclusive, not a pass
    let mut b = paper_like();
    let mut lp = synth(Method::Paper(Algorithm::LmoPo), 466, |_| f64::NAN);
    lp.checkpoints.iter_mut().for_each(|c| c.measure = None);
    replace(&mut b, lp);
    assert_eq!(verdict(&b, "2."), None);
}

// ------------------------------------------------------------------------------------------
// bad input through the binary

fn experiment_on(data: &Path) -> (i32, String) {
    let dir = tmpdir();
    let o = Command::new(env!("CARGO_BIN_EXE_saddlefw"))
        .args([
            "experiment",
            "news20",
            "--time-limit",
            "0.1",
            "--quiet",
            "--data",
        ])
        .arg(data)
        .arg("--out")
        .arg(dir.path())
        .output()
        .unwrap();
    (
        o.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

#[test]
fn malformed_libsvm_exits_2_with_the_line_number() {
    let fx = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/libsvm");
    for (file, needle) in [
        ("bad_token_no_colon.txt", "line 2"),
        ("index_zero.txt", "line 2"),
        ("unsorted.txt", "line 1"),
        ("duplicate.txt", "line 2"),
        ("label_non_integer.txt", "line 2"),
        ("empty.txt", "empty"),
    ] {
        let (code, stderr) = experiment_on(&fx.join(file));
        assert_eq!(code, 2, "{file}: {stderr}");
        assert!(!stderr.contains("panicked"), "{file}: {stderr}");
        let line = stderr.trim();
        assert_eq!(line.lines().count(), 1, "{file}: {stderr}");
        assert!(
            line.starts_with("error: ") && line.contains(file),
            "{file}: {line}"
        );
        assert!(line.contains(needle), "{file}: {line:?} lacks {needle:?}");
    }
    // negative control: the valid fixture is accepted (it has too few classes or rows for a
    // meaningful run, but it is not a parse error)
    let (code, stderr) = experiment_on(&fx.join("valid.txt"));
    assert!(code == 0 || !stderr.contains("line "), "{stderr}");
    // a missing file says where to get the data
    let (code, stderr) = experiment_on(Path::new("/nonexistent/news20.bz2"));
    assert_eq!(code, 2);
    assert!(stderr.contains(NEWS20.url), "{stderr}");
}

#[test]
fn bad_flags_exit_2() {
    for args in [
        vec!["experiment", "mnist"],
        vec!["experiment", "dl", "--time-limit", "0"],
        vec!["experiment", "dl", "--time-limit", "nan"],
        vec!["experiment", "dl", "--algos", "lmo-lmo,nope"],
        vec!["experiment", "dl", "--algos", "lmo-lmo,LMO-LMO"],
        vec!["experiment", "dl", "--jobs", "0"],
        vec!["experiment", "dl", "--iters", "-3"],
        vec!["experiment", "dl", "--dl-dims", "q=2"],
        vec!["experiment", "dl", "--data", "x.txt"],
        vec!["experiment", "news20", "--scaling", "zscore"],
    ] {
        let o = Command::new(env!("CARGO_BIN_EXE_saddlefw"))
            .args(&args)
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.starts_with("error"), "{args:?}: {stderr}");
        assert!(!stderr.contains("panicked"));
    }
}

#[test]
fn common_measure_verdicts_can_disagree_with_the_plotted_ones() {
    // plotted measures as in paper_like(); on G_X^LMO + G_Y the PO-primal PO-LMO is far better
    let mut runs = paper_like();
    for r in &mut runs {
        let po = r.primal_oracle == Oracle::Po;
        for c in &mut r.checkpoints {
            c.checkpoint.measures.gx_lmo = if po {
                1e-9
            } else {
                c.measure.unwrap_or(f64::NAN)
            };
            c.checkpoint.measures.gy = 0.0;
        }
    }
    let all = claims::verdicts(Which::Dl, &runs);
    let find = |p: &str, common: bool| {
        all.iter()
            .find(|c| c.claim.starts_with(p) && c.claim.ends_with(claims::COMMON) == common)
            .unwrap()
            .holds
    };
    assert_eq!(find("2.", false), Some(true));
    assert_eq!(find("2.", true), Some(false));
    assert_eq!(find("5.", true), Some(false));
    // without the G_X^LMO records the common verdicts are inconclusive, not passes
    let runs = paper_like();
    let all = claims::verdicts(Which::Dl, &runs);
    for c in all.iter().filter(|c| c.claim.ends_with(claims::COMMON)) {
        assert_eq!(c.holds, None, "{}", c.claim);
    }
}

// ------------------------------------------------------------------------------------------
// margins: Table 3 under machine load, the tie band, partial sets, missing runs

fn claim_of(which: Which, runs: &[RunRecord], prefix: &str) -> report::ClaimVerdict {
    claims::verdicts(which, runs)
        .into_iter()
        .find(|c| c.claim.starts_with(prefix) && !c.claim.ends_with(claims::COMMON))
        .unwrap_or_else(|| panic!("no claim {prefix}"))
}

/// `paper_like()` with CPU times recorded: every run got a full CPU (10 s of 10 s), the
/// LMO-primal methods 600 iterations except SP-FW (`sp_fw` iterations with `sp_share` of a
/// CPU) and AGP 460 (the fastest PO-primal method).
fn loaded(sp_fw: usize, sp_share: f64) -> Vec<RunRecord> {
    let mut runs = paper_like();
    for r in &mut runs {
        r.cpu_time_s = Some(10.0);
        if r.primal_oracle == Oracle::Lmo {
            r.iterations = 600;
        }
    }
    let mut agp = synth(Method::Baseline(Baseline::Agp), 460, |t| 1.0 - 0.01 * t);
    agp.cpu_time_s = Some(10.0);
    replace(&mut runs, agp);
    let mut sp = synth(Method::Baseline(Baseline::SpFw), sp_fw, |t| {
        1.0 / (1.0 + t).sqrt()
    });
    sp.cpu_time_s = Some(10.0 * sp_share);
    replace(&mut runs, sp);
    runs
}

#[test]
fn table3_is_judged_per_cpu_second_and_contended_flips_are_inconclusive() {
    // SP-FW got 70% of a CPU: 400 iterations = 40 it/s of solver time (fewer than AGP's 46)
    // but 57 it/CPU-s (more): the verdict flips between the two readings -> inconclusive
    let runs = loaded(400, 0.7);
    let sp = runs.iter().find(|r| r.algorithm == "SP-FW").unwrap();
    assert!((sp.cpu_share().unwrap() - 0.7).abs() < 1e-12);
    assert!((sp.iterations_per_cpu_second().unwrap() - 400.0 / 7.0).abs() < 1e-9);
    let v = claim_of(Which::Dl, &runs, "Table 3");
    assert_eq!(v.holds, None, "{}", v.evidence);
    assert!(v.evidence.starts_with(claims::CONTENDED), "{}", v.evidence);
    assert!(v.evidence.contains("SP-FW 0.70"), "{}", v.evidence);
    // negative control: the same counts with a full CPU: judged, and it does not hold
    let v = claim_of(Which::Dl, &loaded(400, 1.0), "Table 3");
    assert_eq!(v.holds, Some(false), "{}", v.evidence);
    // contended but both readings agree (250 it: 25 it/s and 36 it/CPU-s, both below 46):
    // the load does not matter, the verdict stands
    let v = claim_of(Which::Dl, &loaded(250, 0.7), "Table 3");
    assert_eq!(v.holds, Some(false), "{}", v.evidence);
    // SP-FW 560 it on a full CPU: above AGP's 460 beyond the band, it holds
    let v = claim_of(Which::Dl, &loaded(560, 1.0), "Table 3");
    assert_eq!(v.holds, Some(true), "{}", v.evidence);
    // a record without cpu_time_s (written before it existed) is judged per wall-clock
    // second, and says that the load is unknown
    let v = claim_of(Which::Dl, &paper_like(), "Table 3");
    assert_eq!(v.holds, Some(true), "{}", v.evidence);
    assert!(
        v.evidence.contains("CPU time not recorded"),
        "{}",
        v.evidence
    );
    // rates within 10% of each other: a tie, not a verdict
    let v = claim_of(Which::Dl, &loaded(440, 1.0), "Table 3");
    assert_eq!(v.holds, None, "{}", v.evidence);
    assert!(v.evidence.starts_with(claims::TIE), "{}", v.evidence);
}

/// `paper_like()` with LMO-PO ending at 1.862e-7 (still decreasing) and CG-RPGA flat at
/// `cg` (NEWS20's claim 2 of the audit: 1.862e-7 against 1.962e-7).
fn close_call(cg: f64) -> Vec<RunRecord> {
    let mut runs = paper_like();
    replace(
        &mut runs,
        synth(Method::Paper(Algorithm::LmoPo), 466, |t| {
            1.862e-7 * 100f64.powf(1.0 - t / 10.0)
        }),
    );
    replace(
        &mut runs,
        synth(Method::Baseline(Baseline::CgRpga), 470, move |_| cg),
    );
    runs
}

#[test]
fn comparisons_within_ten_percent_are_ties() {
    assert_eq!(claims::TIE_BAND, 1.1);
    let runs = close_call(1.962e-7);
    for p in ["1.", "2."] {
        let v = claim_of(Which::Dl, &runs, p);
        assert_eq!(v.holds, None, "claim {p}: {}", v.evidence);
        assert!(v.evidence.starts_with(claims::TIE), "{}", v.evidence);
        assert!(v.evidence.contains("CG-RPGA"), "{}", v.evidence);
    }
    // negative controls: clearly below holds, clearly above fails
    assert_eq!(verdict(&close_call(2.5e-7), "2."), Some(true));
    assert_eq!(verdict(&close_call(2.5e-7), "1."), Some(true));
    assert_eq!(verdict(&close_call(1.5e-7), "2."), Some(false));
    // a tie does not rescue a claim that fails on another condition: LMO-LMO plateaus
    let mut runs = close_call(1.962e-7);
    replace(
        &mut runs,
        synth(Method::Paper(Algorithm::LmoLmo), 420, |_| 0.3),
    );
    assert_eq!(verdict(&runs, "1."), Some(false));
    // claim 3 and 5 use the band too: LMO-LMO within 10% of CG-RPGA
    let mut runs = paper_like();
    replace(
        &mut runs,
        synth(Method::Baseline(Baseline::CgRpga), 470, |_| 0.095),
    );
    let v = claim_of(Which::Dl, &runs, "3.");
    assert_eq!(v.holds, None, "{}", v.evidence);
    let mut runs = paper_like();
    replace(
        &mut runs,
        synth(Method::Baseline(Baseline::CgRpga), 470, |_| 0.2),
    );
    assert_eq!(verdict(&runs, "3."), Some(true));
}

#[test]
fn partial_sets_carry_a_caveat_and_missing_names_only_the_absent() {
    // the full set: no caveat anywhere
    for c in claims::verdicts(Which::Dl, &paper_like()) {
        assert!(
            !c.evidence.contains("partial set"),
            "{}: {}",
            c.claim,
            c.evidence
        );
    }
    // --algos without SP-FW and PO-LMO: claim 2 ("most effective") and Table 3 are judged on
    // what ran, and say which did not
    let runs: Vec<RunRecord> = paper_like()
        .into_iter()
        .filter(|r| r.algorithm != "SP-FW" && r.algorithm != "PO-LMO")
        .collect();
    for p in ["2.", "Table 3"] {
        let v = claim_of(Which::Dl, &runs, p);
        assert!(v.holds.is_some(), "{p}: {}", v.evidence);
        assert!(
            v.evidence
                .contains("partial set, SP-FW, PO-LMO did not run"),
            "{p}: {}",
            v.evidence
        );
    }
    // on the robust problem R-PDCG is N/A in the paper: its absence is not a partial set
    let runs: Vec<RunRecord> = paper_like()
        .into_iter()
        .filter(|r| r.algorithm != "R-PDCG")
        .collect();
    for c in claims::verdicts(Which::News20, &runs) {
        assert!(
            !c.evidence.contains("partial set"),
            "{}: {}",
            c.claim,
            c.evidence
        );
    }
    // but on DL it is
    let v = claim_of(Which::Dl, &runs, "Table 3");
    assert!(v.evidence.contains("partial set, R-PDCG"), "{}", v.evidence);
    // missing(): only LMO-LMO ran of the two proposed LMO-primal methods -> names LMO-PO only
    let runs: Vec<RunRecord> = paper_like()
        .into_iter()
        .filter(|r| r.algorithm != "LMO-PO")
        .collect();
    let v = claim_of(Which::Dl, &runs, "1.");
    assert_eq!(v.holds, None);
    assert!(
        v.evidence.contains("needs runs of LMO-PO "),
        "{}",
        v.evidence
    );
    assert!(!v.evidence.contains("LMO-LMO"), "{}", v.evidence);
}

/// The committed records re-render under the new rules: the 300 s DL record predates
/// `cpu_time_s` (judged per wall-clock second, "not recorded" on the page), the 60 s one has
/// it (CPU shares of about 0.5 flagged as contended).
#[test]
fn committed_records_rerender_with_cpu_shares() {
    let docs = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/experiments");
    for (file, which, cpu) in [
        ("dl-300s.json", Which::Dl, false),
        ("dl-60s.json", Which::Dl, true),
        ("news20-300s.json", Which::News20, true),
    ] {
        let mut rec = ExperimentRecord::read(&docs.join(file)).unwrap();
        rec.claims = claims::verdicts(which, &rec.runs);
        let t3 = rec
            .claims
            .iter()
            .find(|c| c.label.as_deref() == Some("table:iters"))
            .unwrap();
        assert_eq!(
            t3.evidence.contains("CPU time not recorded"),
            !cpu,
            "{file}: {}",
            t3.evidence
        );
        let html = report::experiment_page(&rec.meta, &rec.to_report());
        assert!(html.contains("CPU share"), "{file}");
        assert_eq!(html.contains("not recorded</span>"), !cpu, "{file}");
        assert_eq!(html.contains("(contended)</span>"), cpu, "{file}");
    }
}

/// Strips ANSI escape sequences (CSI `ESC [ ... letter`) from terminal output.
fn strip_ansi(s: &str) -> String {
    let mut out = String::new();
    let mut chars = s.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '\u{1b}' {
            if chars.peek() == Some(&'[') {
                chars.next();
                for d in chars.by_ref() {
                    if d.is_ascii_alphabetic() {
                        break;
                    }
                }
            }
        } else {
            out.push(c);
        }
    }
    out
}

/// Whether `s` is a complete `{:.3e}` number, e.g. `4.123e-3`.
fn complete_sci(s: &str) -> bool {
    let Some((m, e)) = s.split_once('e') else {
        return false;
    };
    let (i, f) = m.split_once('.').unwrap_or((m, ""));
    f.len() == 3
        && i.trim_start_matches('-').len() == 1
        && i.trim_start_matches('-')
            .chars()
            .all(|c| c.is_ascii_digit())
        && f.chars().all(|c| c.is_ascii_digit())
        && !e.trim_start_matches('-').is_empty()
        && e.trim_start_matches('-')
            .chars()
            .all(|c| c.is_ascii_digit())
}

/// The progress lines of `experiment` on an 80-column terminal (a pseudo-terminal from
/// `script`, util-linux) show iterations, elapsed time and a complete gap value: the limit
/// text, which comes last, is what a narrow terminal cuts.
#[test]
fn progress_lines_keep_the_gap_on_80_columns() {
    assert!(complete_sci("4.123e-3") && complete_sci("1.000e0"));
    assert!(!complete_sci("4.") && !complete_sci("4.1") && !complete_sci("4.123e"));
    if Command::new("script").arg("--version").output().is_err() {
        eprintln!("progress_lines_keep_the_gap_on_80_columns: no `script` here, skipped");
        return;
    }
    let dir = tmpdir();
    let cmd = format!(
        "stty cols 80 rows 24; {} experiment dl --time-limit 0.3 --algos lmo-lmo,po-lmo --out {}",
        env!("CARGO_BIN_EXE_saddlefw"),
        dir.path().display()
    );
    let o = Command::new("script")
        .args(["-qec", &cmd, "/dev/null"])
        .output()
        .unwrap();
    let tty = strip_ansi(&String::from_utf8_lossy(&o.stdout));
    let lines: Vec<&str> = tty
        .split(['\r', '\n'])
        .filter(|l| l.contains(" it ") && l.contains("s elapsed"))
        .collect();
    assert!(!lines.is_empty(), "no progress lines in {tty:?}");
    let mut gaps = 0;
    for l in &lines {
        assert!(l.chars().count() <= 80, "{l:?}");
        let gap = l
            .split_once("gap ")
            .map(|(_, g)| g.split_whitespace().next().unwrap_or(""))
            .unwrap_or_else(|| panic!("no gap in {l:?}"));
        assert!(gap == "-" || complete_sci(gap), "cut gap {gap:?} in {l:?}");
        if gap != "-" {
            gaps += 1;
            let it: usize = l
                .split(" it ")
                .next()
                .unwrap()
                .split_whitespace()
                .last()
                .unwrap()
                .parse()
                .unwrap();
            assert!(it > 0, "{l:?}");
        }
    }
    assert!(gaps > 0, "no measured gap shown: {lines:?}");
}

/// The experiments' seven are the registry's seven: each names a built-in entry, and the primal
/// oracle (which decides the plotted measure, L749) and "proposed" are read from the registry's
/// and the paper's declarations (AGP and PO-LMO project on X; Algorithms 1-3 are proposed).
#[test]
fn the_experiments_algorithms_are_the_registry_s_seven() {
    for a in Method::ALL {
        assert!(
            registry::ALGORITHMS
                .iter()
                .any(|i| i.name == a.registry_name()),
            "{a:?} is not a built-in registry entry"
        );
    }
    let po: Vec<Method> = Method::ALL
        .into_iter()
        .filter(|a| a.primal_oracle() == Oracle::Po)
        .collect();
    assert_eq!(
        po,
        [
            Method::Baseline(Baseline::Agp),
            Method::Paper(Algorithm::PoLmo)
        ]
    );
    let proposed: Vec<Method> = Method::ALL
        .into_iter()
        .filter(Method::is_proposed)
        .collect();
    assert_eq!(
        proposed,
        [
            Method::Paper(Algorithm::LmoLmo),
            Method::Paper(Algorithm::LmoPo),
            Method::Paper(Algorithm::PoLmo)
        ]
    );
}
