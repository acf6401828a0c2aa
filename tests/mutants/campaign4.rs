//! Mutation campaign 4 (issue 18): one test per miss of the fresh seed-20 sample that was a gap
//! (docs/mutation.md, "Campaign 4"), each written after the measurement.

use saddlefw::invariants::{registry, Scope};

/// The invariant checks' random points follow their documented draws (`random_point`): `x`,
/// `y`, `x2` in their sets; `beta = 0` in about 30% of the points when `mu > 0` and never when
/// `mu = 0`, otherwise `beta` in `[0.01, 2)`; `beta2 <= beta`; `sigma` in `[0.05, 3)` and
/// `sigma2 < sigma`. Campaign 4 miss `>` -> `<` on `k.mu > 0.0` in `random_point`: the first
/// `beta` was then never 0, so the invariants were never evaluated at the unsmoothed point
/// (beta = 0 is the theorems' own case when mu > 0) and no check noticed.
#[test]
fn random_points_follow_their_documented_draws() {
    use rand::SeedableRng;
    use saddlefw::invariants::check::random_point;
    use saddlefw::invariants::EXACT_MEASURES;
    use saddlefw::problems::Instance;
    for (c, mu_positive) in [(1.0, true), (0.0, false)] {
        let inst = Instance {
            problem: Box::new(super::quadratic_1d((1.0, 1.0, c), (0.0, 0.0))),
            x0: vec![0.0],
            y0: vec![0.0],
            family: "quadratic".into(),
            seed: Some(1),
        };
        assert_eq!(inst.problem.constants().mu > 0.0, mu_positive);
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
        let (draws, mut zero) = (400, 0);
        for _ in 0..draws {
            let pt = random_point(&inst, &mut rng, EXACT_MEASURES);
            let (xs, ys) = (inst.problem.x_set(), inst.problem.y_set());
            assert!(xs.contains(&pt.x, 1e-12) && xs.contains(&pt.x2, 1e-12));
            assert!(ys.contains(&pt.y, 1e-12));
            if pt.beta == 0.0 {
                zero += 1;
            } else {
                assert!((0.01..2.0).contains(&pt.beta), "beta {}", pt.beta);
            }
            assert!(
                pt.beta2 >= 0.0 && pt.beta2 <= pt.beta,
                "{} {}",
                pt.beta2,
                pt.beta
            );
            assert!((0.05..3.0).contains(&pt.sigma), "sigma {}", pt.sigma);
            assert!(pt.sigma2 > 0.0 && pt.sigma2 < pt.sigma);
        }
        if mu_positive {
            // Binomial(400, 0.3): mean 120, sd 9.2
            assert!(
                (80..=160).contains(&zero),
                "{zero} of {draws} with beta = 0"
            );
        } else {
            assert_eq!(zero, 0, "beta = 0 needs mu > 0");
        }
    }
}

/// Every invariant is evaluated: a check of 32 cases (seed 0, two threads) has at least one
/// evaluation in every row of CHECK.json, so an invariant whose body is replaced by an empty
/// list (a mutant `-> Out with Default::default()`, or a refactor that drops a grid) cannot
/// pass silently as "0 violations". Campaign 4 miss `zeta_upper -> Out with Default::default()`
/// (`invariants/real.rs`): the deterministic grids had no test of their size. The Real grids
/// are checked by their exact size too (`s` grid x `T = 1..=300`, 1000 harmonic points).
#[test]
fn every_invariant_is_evaluated() {
    use saddlefw::invariants::case::CaseOptions;
    use saddlefw::invariants::check::run_check_with;
    let r = run_check_with(32, 0, &CaseOptions::default(), 2).unwrap();
    assert_eq!(r.invariants.len(), registry().len());
    let idle: Vec<_> = r
        .invariants
        .iter()
        .filter(|i| i.evaluations == 0)
        .map(|i| i.name)
        .collect();
    assert!(idle.is_empty(), "never evaluated: {idle:?}");
    // the grids of `invariants/real.rs`: 12 exponents s (8 of them below 1) times T = 1..=300,
    // and both sides of the harmonic bound at T = 1..=1000
    let evals = |name: &str| r.invariants.iter().find(|i| i.name == name).unwrap();
    for (name, n) in [
        ("zeta-lower", 12 * 300),
        ("zeta-upper", 12 * 300),
        ("zeta-last-printed", 12 * 300),
        ("zeta-last", 8 * 300),
        ("zeta-harmonic", 2 * 1000),
    ] {
        let i = evals(name);
        assert_eq!((i.scope, i.evaluations), (Scope::Real, n), "{name}");
    }
}

/// The proof-rate check holds exactly when every random family and the hard instance (when
/// there is one) hold (campaign 4 miss `&&` -> `||` in `ProofRateResult::holds`, which let
/// either side stand for both).
#[test]
fn proof_rate_holds_only_when_every_run_holds() {
    use saddlefw::verify::ProofRateResult;
    let run = |holds: bool| {
        serde_json::json!({"k": 1.0, "tol": 0.05, "p_hat": 0.9, "ci": [0.8, 1.0],
            "window": [10, 100], "holds": holds})
    };
    let family = |holds: bool| {
        let mut r = run(holds);
        r["family"] = "fam".into();
        r
    };
    for (random, hard, want) in [
        (vec![true, true], Some(true), true),
        (vec![true, true], None, true),
        (vec![true, false], Some(true), false),
        (vec![false, true], None, false),
        (vec![true, true], Some(false), false),
        (vec![], Some(false), false),
        (vec![false], Some(false), false),
    ] {
        let mut v = serde_json::json!({"k": 1.0, "gate_k": 1.0,
            "random": random.iter().map(|&h| family(h)).collect::<Vec<_>>()});
        if let Some(h) = hard {
            v["hard"] = run(h);
        }
        let r: ProofRateResult = serde_json::from_value(v).unwrap();
        assert_eq!(r.holds(), want, "random {random:?}, hard {hard:?}");
    }
}

/// The matrix sets report their shape as built (campaign 4 miss `UnitColumns::shape -> (1, 0)`:
/// no test read it).
#[test]
fn matrix_sets_report_their_shape() {
    use saddlefw::sets::{NuclearBall, UnitColumns};
    assert_eq!(UnitColumns::new(3, 5, 1.0).unwrap().shape(), (3, 5));
    assert_eq!(NuclearBall::new(4, 2, 1.0).unwrap().shape(), (4, 2));
}

/// The `understated` negative control changes only the constants (L_xx and L_yx times the
/// factor): payoff and gradients are the inner problem's (campaign 4 miss
/// `<impl SaddleProblem for Understated>::grads with ()`, which left the gradients unwritten: the
/// control still failed its gates, for another reason than the one it stands for).
#[test]
fn understated_control_changes_only_the_constants() {
    use saddlefw::invariants::controls::Understated;
    use saddlefw::problems::SaddleProblem;
    let inner = super::quadratic_1d((0.5, 1.0, 1.0), (0.25, -0.5));
    let k = inner.constants();
    let u = Understated {
        inner: Box::new(super::quadratic_1d((0.5, 1.0, 1.0), (0.25, -0.5))),
        factor: 0.5,
    };
    let (x, y) = ([0.5], [-0.25]);
    let (mut gx, mut gy, mut hx, mut hy) = ([9.0], [9.0], [0.0], [0.0]);
    u.grads(&x, &y, &mut gx, &mut gy);
    inner.grads(&x, &y, &mut hx, &mut hy);
    assert_eq!((gx, gy), (hx, hy));
    u.grad_x(&x, &y, &mut gx);
    u.grad_y(&x, &y, &mut gy);
    assert_eq!((gx, gy), (hx, hy));
    assert_eq!(u.value(&x, &y), inner.value(&x, &y));
    let ku = u.constants();
    assert_eq!((ku.lxx, ku.lyx, ku.lyy), (0.5 * k.lxx, 0.5 * k.lyx, k.lyy));
    assert_eq!(u.convex_in_x(), inner.convex_in_x());
}

/// A quadratic that records the `x` of every `grad_x` call (for [`sampled_probe_is_measured_on_the_side_it_probed`]).
struct Recording {
    inner: saddlefw::problems::Quadratic,
    xs: std::sync::Mutex<Vec<f64>>,
}

impl saddlefw::problems::SaddleProblem for Recording {
    fn name(&self) -> String {
        "recording".into()
    }
    fn x_set(&self) -> &dyn saddlefw::sets::ConvexSet {
        self.inner.x_set()
    }
    fn y_set(&self) -> &dyn saddlefw::sets::ConvexSet {
        self.inner.y_set()
    }
    fn value(&self, x: &[f64], y: &[f64]) -> f64 {
        self.inner.value(x, y)
    }
    fn grad_x(&self, x: &[f64], y: &[f64], out: &mut [f64]) {
        self.xs.lock().unwrap().push(x[0]);
        self.inner.grad_x(x, y, out)
    }
    fn grad_y(&self, x: &[f64], y: &[f64], out: &mut [f64]) {
        self.inner.grad_y(x, y, out)
    }
    fn constants(&self) -> saddlefw::problems::Constants {
        self.inner.constants()
    }
    fn convex_in_x(&self) -> bool {
        true
    }
}

/// `sample_constants`' close pair is measured on the side of `x` that its power iteration
/// probed: `x' = P_X(x + 1e-3 D_X v)` with `v` the last gradient difference, so `x'` is the
/// projection of the last probe (in one dimension every probe is `x + s sign(v)`). The odd
/// pair's `grad_x` calls are `x`, 8 probes, then `x`, `x'`, `x`. Campaign 4 miss `+` -> `-`
/// at lipschitz.rs:145, which measured the opposite side, never probed (the sample is an
/// estimate either way, so only this property tells the two apart).
#[test]
fn sampled_probe_is_measured_on_the_side_it_probed() {
    use saddlefw::problems::lipschitz::sample_constants;
    for seed in 0..8 {
        let p = Recording {
            inner: super::quadratic_1d((2.0, 0.5, 1.0), (0.25, -0.5)),
            xs: Default::default(),
        };
        let k = sample_constants(&p, 2, seed);
        assert!((k.lxx - 2.0).abs() <= 1e-9, "seed {seed}: {k:?}");
        let xs = p.xs.lock().unwrap().clone();
        assert_eq!(xs.len(), 3 + 12, "seed {seed}: {xs:?}");
        let odd = &xs[3..];
        let (x, probes, measured) = (odd[0], &odd[1..9], odd[10]);
        assert!(
            probes.iter().all(|&q| q == probes[0]),
            "seed {seed}: {probes:?}"
        );
        let step = probes[0] - x;
        assert!(
            step.abs() > 1e-4 && step.abs() < 3e-3,
            "seed {seed}: step {step}"
        );
        assert_eq!((odd[9], odd[11]), (x, x), "seed {seed}");
        assert_eq!(
            measured,
            probes[7].clamp(-1.0, 1.0),
            "seed {seed}: x = {x}, step {step}"
        );
    }
}

/// A check given recorded jobs reuses them instead of running them again: a recorded tally
/// marked with a count no run produces comes back in the report unchanged. Campaign 4 miss
/// `Resume::recorded -> None` (now the check's `ledger::Ledger::get`), which re-ran every
/// recorded job to the same report (only the cost told).
#[test]
fn check_resumed_reuses_its_recorded_jobs() {
    use saddlefw::invariants::check::{run_check_resumed, CaseOptions};
    use saddlefw::invariants::resume::identity;
    use saddlefw::ledger::Ledger;
    let shard = Some("1/40".parse().unwrap());
    let opts = CaseOptions::default();
    let fresh = run_check_resumed(2, 0, &opts, 1, shard, None).unwrap();
    let mut jobs = fresh.shard.clone().unwrap().results;
    assert_eq!(jobs.len(), 1);
    let (name, tally) = jobs[0].tallies.iter_mut().next().unwrap();
    let name = name.clone();
    tally.cases += 1_000_000;
    let marked = tally.cases;
    let work = identity(2, 0, None, shard);
    let resume = Ledger::new(work.clone())
        .reuse("marked record", &work, jobs.clone())
        .unwrap();
    let again = run_check_resumed(2, 0, &opts, 1, shard, Some(&resume)).unwrap();
    let reused = &again.shard.unwrap().results[0];
    assert_eq!(reused.job, jobs[0].job);
    assert_eq!(
        reused.tallies[&name].cases, marked,
        "{name}: the recorded job ran again"
    );
    // negative control of the marking itself: a run without the record has the plain count
    let plain = &fresh.shard.unwrap().results[0];
    assert_eq!(plain.tallies[&name].cases + 1_000_000, marked);
}
