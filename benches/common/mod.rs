//! Shared setup of the performance benches: the experiment problems at the paper's size (or
//! scaled), the paper's schedules, and the per-algorithm "unavoidable kernels" (the gradient
//! products and the oracle calls one iteration needs, per the registry's oracle profile).
#![allow(dead_code)]

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use saddlefw::data::{resolve_path, Csr, Dataset, NEWS20};
use saddlefw::experiments::params::{self, Experiment};
use saddlefw::paper::Algorithm;
use saddlefw::problems::{
    DictionaryLearning, DlConfig, DroConfig, Instance, RobustClassification, SaddleProblem,
};
use saddlefw::solvers::{registry, DualSmoothing, Solver};
use std::path::PathBuf;

/// DL at the paper's size with m, q, n' multiplied by `scale` (n, p, l unchanged).
pub fn dl(scale: usize) -> Instance {
    let base = DlConfig::default();
    let cfg = DlConfig {
        m: base.m * scale,
        q: base.q * scale,
        n_new: base.n_new * scale,
        ..base
    };
    DictionaryLearning::instance(&cfg).expect("DL instance")
}

/// Where NEWS20 is read from (`$SADDLEFW_DATA_DIR` or `../shared/data`).
pub fn news20_path() -> PathBuf {
    resolve_path(&NEWS20, None)
}

/// The NEWS20 data set when the file is present, else a generated stand-in of the same shape
/// (15,935 x 62,061, about 80 non-zeros per row with Zipf-like feature frequencies, 20 classes);
/// the label says which.
pub fn news20_data() -> (Dataset, String) {
    let path = news20_path();
    if path.exists() {
        let data = saddlefw::data::read_libsvm(&path, &Default::default()).expect("NEWS20 parses");
        (data, "news20".into())
    } else {
        eprintln!(
            "NOTE: {} not found (set SADDLEFW_DATA_DIR): using a generated sparse problem of NEWS20's shape",
            path.display()
        );
        (generated_news20_like(7), "news20-generated".into())
    }
}

/// A sparse labelled data set of NEWS20's shape (see [`news20_data`]).
pub fn generated_news20_like(seed: u64) -> Dataset {
    let (n, d, k, per_row) = (15_935usize, 62_061usize, 20usize, 80usize);
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut indptr = vec![0usize];
    let mut indices = Vec::with_capacity(n * per_row);
    let mut values = Vec::with_capacity(n * per_row);
    let mut row: Vec<u32> = Vec::new();
    for _ in 0..n {
        row.clear();
        let len = rng.gen_range(per_row / 4..per_row * 7 / 4);
        for _ in 0..len {
            // Zipf-like: u^3 concentrates mass on small feature indices
            let u: f64 = rng.gen();
            row.push(((u * u * u) * d as f64) as u32 % d as u32);
        }
        row.sort_unstable();
        row.dedup();
        for &j in &row {
            indices.push(j);
            values.push(rng.gen_range(1..6) as f64);
        }
        indptr.push(indices.len());
    }
    let features = Csr::new(n, d, indptr, indices, values).expect("valid CSR");
    let labels = (0..n).map(|_| rng.gen_range(0..k as u32)).collect();
    Dataset {
        name: "generated-news20-shape".into(),
        features,
        labels,
        classes: (1..=k as i64).collect(),
    }
}

/// The robust classification instance on `data`, optionally on a seeded row subsample.
pub fn dro(data: &Dataset, rows: Option<usize>) -> Instance {
    let cfg = DroConfig {
        rows,
        ..DroConfig::default()
    };
    RobustClassification::new(data, &cfg)
        .expect("DRO instance")
        .into_instance(None)
}

/// `x` and a copy with every entry moved by 1e-9 relative: alternating between them makes
/// every evaluation recompute its forward pass (the problems memoise it by the exact point).
pub fn two_points(x: &[f64]) -> [Vec<f64>; 2] {
    let moved = x.iter().map(|v| v * (1.0 + 1e-9) + 1e-12).collect();
    [x.to_vec(), moved]
}

/// A paper algorithm with the experiment's schedule (claims.md 6.1, 6.2).
pub fn paper_solver(e: Experiment, alg: Algorithm, p: &dyn SaddleProblem) -> Box<dyn Solver> {
    let s = params::proposed_schedule(e, alg);
    Box::new(DualSmoothing::new(alg, s.tau, s.beta, &p.constants()).expect("valid schedule"))
}

/// Every algorithm that applies to the problem: the paper's three with the experiment's
/// schedules, the baselines with the registry's defaults (their per-iteration cost does not
/// depend on the parameter values).
pub fn solvers(e: Experiment, p: &dyn SaddleProblem, with_baselines: bool) -> Vec<Box<dyn Solver>> {
    let mut out: Vec<Box<dyn Solver>> = Algorithm::ALL
        .iter()
        .map(|&alg| paper_solver(e, alg, p))
        .collect();
    if with_baselines {
        for name in ["sp-fw", "agp", "r-pdcg", "cg-rpga"] {
            match registry::build(name, p, &Default::default()) {
                Ok(b) => out.push(b.solver),
                Err(err) => eprintln!("{name} not applicable: {err}"),
            }
        }
    }
    out
}

/// Inputs of the oracle calls of one iteration of `solver` at its current state, prepared
/// outside the timed region, so that [`Kernels::run`] times only the unavoidable work.
pub struct Kernels {
    name: String,
    x: Vec<f64>,
    y: Vec<f64>,
    gx: Vec<f64>,
    gy: Vec<f64>,
    /// Inputs of LMO_X / PO_X / LMO_Y / PO_Y.
    lmo_x_in: Vec<f64>,
    proj_x_in: Vec<f64>,
    lmo_y_in: Vec<f64>,
    proj_y_in: Vec<f64>,
    out_x: Vec<f64>,
    out_y: Vec<f64>,
    profile: registry::OracleProfile,
}

impl Kernels {
    /// Prepares the kernels of `solver`'s next iteration t; `tau` is the primal step of the
    /// projection input `x - tau grad_x L` (see [`primal_step`]). Afterwards the problem is
    /// evaluated at the instance's start point, so that no product cached for this state
    /// survives into the timed run.
    pub fn new(
        p: &dyn SaddleProblem,
        solver: &dyn Solver,
        t: usize,
        inst: &Instance,
        tau: f64,
    ) -> Kernels {
        let name = solver.name().to_string();
        let profile = registry::ALGORITHMS
            .iter()
            .find(|a| a.name == name)
            .expect("registered")
            .profile;
        let (x, y) = (solver.x().to_vec(), solver.y().to_vec());
        let (mut gx, mut gy) = (vec![0.0; x.len()], vec![0.0; y.len()]);
        p.grads(&x, &y, &mut gx, &mut gy);
        let beta = solver.beta_at(t);
        let curvature = p.constants().lyy + beta;
        // evict any product cached for this state
        {
            let (mut ex, mut ey) = (vec![0.0; x.len()], vec![0.0; y.len()]);
            p.grads(&inst.x0, &inst.y0, &mut ex, &mut ey);
        }
        let g: Vec<f64> = gy
            .iter()
            .zip(&y)
            .zip(&inst.y0)
            .map(|((g, yi), y0)| g - beta * (yi - y0))
            .collect();
        Kernels {
            name,
            proj_x_in: x.iter().zip(&gx).map(|(xi, g)| xi - tau * g).collect(),
            lmo_x_in: gx.clone(),
            lmo_y_in: g.iter().map(|v| -v).collect(),
            proj_y_in: y
                .iter()
                .zip(&g)
                .map(|(yi, g)| yi + g / curvature.max(1e-12))
                .collect(),
            out_x: vec![0.0; x.len()],
            out_y: vec![0.0; y.len()],
            x,
            y,
            gx,
            gy,
            profile,
        }
    }

    /// The gradient products and oracle calls of one iteration: one joint `grads` for the
    /// simultaneous methods; `grad_x` and `grad_y` separately for AGP (Gauss-Seidel, the second
    /// at the new x); the LMO / projection calls of the registry's oracle profile.
    pub fn run(&mut self, p: &dyn SaddleProblem) {
        if self.name == "agp" {
            p.grad_x(&self.x, &self.y, &mut self.gx);
            p.grad_y(&self.proj_x_in, &self.y, &mut self.gy);
        } else if self.name == "r-pdcg" || self.name == "cg-rpga" {
            p.grad_y(&self.x, &self.y, &mut self.gy);
            p.grad_x(&self.x, &self.proj_y_in, &mut self.gx);
        } else {
            p.grads(&self.x, &self.y, &mut self.gx, &mut self.gy);
        }
        let pr = self.profile;
        for _ in 0..pr.lmo_x {
            p.x_set().lmo(&self.lmo_x_in, &mut self.out_x);
        }
        for _ in 0..pr.proj_x {
            p.x_set().project(&self.proj_x_in, &mut self.out_x);
        }
        for _ in 0..pr.lmo_y {
            p.y_set().lmo(&self.lmo_y_in, &mut self.out_y);
        }
        for _ in 0..pr.proj_y {
            p.y_set().project(&self.proj_y_in, &mut self.out_y);
        }
    }
}

/// The primal step size tau_t of `solver` at iteration t (PO steps use it in the projection
/// input `x - tau grad_x L`): the schedules are functions of t, read here from a fresh solver
/// of the same name stepped once at index t from the instance's start.
pub fn primal_step(solver: &dyn Solver, t: usize, inst: &Instance) -> f64 {
    let p = inst.problem.as_ref();
    let e = if p.name().starts_with("dl(") {
        Experiment::Dl
    } else {
        Experiment::Robust
    };
    let mut fresh = solvers(e, p, true)
        .into_iter()
        .find(|s| s.name() == solver.name())
        .expect("same solver");
    fresh.init(p, &inst.x0, &inst.y0);
    fresh.step(p, t).tau
}

/// Mean time (seconds) of the criterion benchmark `group/function`, from
/// `target/criterion/**/new/{benchmark,estimates}.json`.
pub fn criterion_mean(group: &str, function: &str) -> Option<f64> {
    let root = std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("target"))
        .join("criterion");
    let want = format!("{group}/{function}");
    let mut stack = vec![root];
    while let Some(dir) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for e in entries.flatten() {
            let path = e.path();
            if path.is_dir() {
                if path.file_name().is_some_and(|n| n == "new") {
                    let b: Option<serde_json::Value> =
                        std::fs::read_to_string(path.join("benchmark.json"))
                            .ok()
                            .and_then(|b| serde_json::from_str(&b).ok());
                    if b.is_some_and(|b| b["full_id"].as_str() == Some(&want)) {
                        let est = std::fs::read_to_string(path.join("estimates.json")).ok()?;
                        let est: serde_json::Value = serde_json::from_str(&est).ok()?;
                        return est["mean"]["point_estimate"].as_f64().map(|ns| ns * 1e-9);
                    }
                } else {
                    stack.push(path);
                }
            }
        }
    }
    None
}

/// Machine load (1-minute load average) for the record.
pub fn load_average() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .ok()
        .and_then(|s| s.split_whitespace().next().map(str::to_string))
        .unwrap_or_else(|| "unknown".into())
}
