//! The DRO scores carried along the Frank-Wolfe moves of Algorithms 1-2 (issue 16 scope item
//! 3, `problems::dro`'s `Chain`): `A W'` updated from `A W` by one sparse matrix-vector product
//! per move. The step gradients equal exact ones to rounding, the measures never see the
//! carried scores, the iterates do not depend on where checkpoints fall, and a chain moved by
//! the wrong step (the negative control) is caught by the same comparison.

use saddlefw::harness::{self, CheckpointRule, RunConfig};
use saddlefw::problems::dro::CHAIN_RESYNC;
use saddlefw::problems::memo::{Fingerprint, BITWISE_KEY_MAX};
use saddlefw::problems::{DictionaryLearning, DlConfig, DroConfig, RobustClassification};
use saddlefw::sets::RankOne;
use saddlefw::solvers::registry::{self, Options};
use saddlefw::SaddleProblem;

use crate::threads::sparse_data;

fn problem(seed: u64) -> RobustClassification {
    let data = sparse_data(seed, 600, 250, 20, 4);
    RobustClassification::new(&data, &DroConfig::default()).unwrap()
}

fn max_abs(v: &[f64]) -> f64 {
    v.iter().fold(0.0f64, |m, x| m.max(x.abs()))
}

/// `max |a - b| / max |b|` over both gradients.
fn rel_diff(a: (&[f64], &[f64]), b: (&[f64], &[f64])) -> f64 {
    let d = |u: &[f64], v: &[f64]| {
        u.iter()
            .zip(v)
            .fold(0.0f64, |m, (x, y)| m.max((x - y).abs()))
    };
    d(a.0, b.0) / max_abs(b.0) + d(a.1, b.1) / max_abs(b.1)
}

/// Runs `steps` Frank-Wolfe moves on `p` with `s_t = 2/(t+2)` at a fixed y, comparing every
/// step gradient with `exact` (never told a move). `lie` scales the step reported to `p`.
/// Returns the largest relative difference, the chain ages seen and the last x.
fn walk(
    p: &RobustClassification,
    exact: &RobustClassification,
    steps: usize,
    lie: f64,
) -> (f64, Vec<usize>, Vec<f64>) {
    let (n, d, k) = p.dims();
    let y: Vec<f64> = (0..n).map(|i| (1.0 + (i % 7) as f64) / n as f64).collect();
    let age = || p.chained_moves();
    walk_from(p, exact, vec![0.0; d * k], &y, steps, lie, &age)
}

/// [`walk`] from any start `x` and fixed `y` on any problem; `age` reads its chain's age.
fn walk_from(
    p: &dyn SaddleProblem,
    exact: &dyn SaddleProblem,
    mut x: Vec<f64>,
    y: &[f64],
    steps: usize,
    lie: f64,
    age: &dyn Fn() -> usize,
) -> (f64, Vec<usize>, Vec<f64>) {
    let (dx, dy) = (x.len(), y.len());
    let (mut gx, mut gy, mut ex, mut ey) =
        (vec![0.0; dx], vec![0.0; dy], vec![0.0; dx], vec![0.0; dy]);
    let (mut v, mut vertex) = (vec![0.0; dx], RankOne::default());
    let (mut worst, mut ages) = (0.0f64, Vec::new());
    for t in 0..steps {
        p.step_grads(&x, y, &mut gx, &mut gy);
        ages.push(age());
        exact.grads(&x, &y, &mut ex, &mut ey);
        worst = worst.max(rel_diff((&gx, &gy), (&ex, &ey)));
        let s = 2.0 / (t as f64 + 2.0);
        let rank_one = p.x_set().lmo_rank_one(&gx, &mut v, &mut vertex);
        assert!(rank_one, "the nuclear ball's vertex is rank one");
        saddlefw::solvers::steps::move_towards(&mut x, &v, s);
        p.note_fw_move(s * lie, &vertex, &x);
    }
    (worst, ages, x)
}

#[test]
fn chained_step_gradients_equal_exact_ones_to_rounding() {
    let (p, exact) = (problem(7), problem(7));
    let steps = 2 * CHAIN_RESYNC + 5;
    let (worst, ages, _) = walk(&p, &exact, steps, 1.0);
    // the chain is used (ages count up) and restarted exactly every CHAIN_RESYNC steps
    let want: Vec<usize> = (0..steps).map(|t| t % CHAIN_RESYNC).collect();
    assert_eq!(ages, want);
    assert!(
        worst > 0.0,
        "the carried scores differ from exact ones in the last bits"
    );
    assert!(
        worst < 1e-12,
        "step gradients {worst:e} from exact (relative)"
    );
}

#[test]
fn a_chain_moved_by_the_wrong_step_is_caught() {
    // negative control of the comparison above: the reported step is 1% off
    let (p, exact) = (problem(7), problem(7));
    let (worst, _, _) = walk(&p, &exact, 6, 1.01);
    assert!(worst > 1e-6, "a wrong move gave {worst:e}");
}

#[test]
fn measures_never_read_carried_scores() {
    let (p, exact) = (problem(8), problem(8));
    let (_, ages, x) = walk(&p, &exact, 5, 1.0);
    assert_eq!(ages, [0, 1, 2, 3, 4]);
    let (n, d, k) = p.dims();
    let y = vec![1.0 / n as f64; n];
    let (mut gx, mut gy) = (vec![0.0; d * k], vec![0.0; n]);
    let (mut ex, mut ey) = (gx.clone(), gy.clone());
    // a step at the walk's last x runs on carried scores ...
    p.step_grads(&x, &y, &mut gx, &mut gy);
    assert_eq!(p.chained_moves(), 5);
    // ... and the measures' entry points at that x still equal a fresh problem's, bitwise
    let bits = |v: &[f64]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
    p.grads(&x, &y, &mut gx, &mut gy);
    exact.grads(&x, &y, &mut ex, &mut ey);
    assert_eq!((bits(&gx), bits(&gy)), (bits(&ex), bits(&ey)));
    assert_eq!(p.value(&x, &y).to_bits(), exact.value(&x, &y).to_bits());
}

#[test]
fn iterates_do_not_depend_on_the_checkpoints() {
    let last = |rule: CheckpointRule| {
        let inst = problem(9).into_instance(Some(0));
        let mut s = registry::build("lmo-lmo", inst.problem.as_ref(), &Options::default())
            .unwrap()
            .solver;
        let config = RunConfig {
            iterations: 2 * CHAIN_RESYNC + 7,
            time_limit: None,
            checkpoints: rule,
            sigma: 1.0,
        };
        let trace = harness::run(&inst, s.as_mut(), &config);
        let cp = trace.checkpoints.last().unwrap();
        assert_eq!(cp.t, config.iterations);
        let mut cp = serde_json::to_value(cp).unwrap();
        cp.as_object_mut().unwrap().remove("time_s");
        cp
    };
    assert_eq!(last(CheckpointRule::All), last(CheckpointRule::Log2));
}

/// `primal_fw_step` moves along the nuclear ball's rank-one vertex without forming it
/// (`ConvexSet::lmo_factors`): the iterate is bitwise the one `fw_step` gives with the formed
/// vertex, for one and two threads, with one LMO call counted per step; a failed oracle
/// (NaN gradient) still gives a NaN iterate. Negative control: another step size differs.
/// The step 0.3 is no power of two, so a reassociated move (`(s c) v_j`) is seen.
#[test]
fn the_unformed_rank_one_move_equals_the_formed_one() {
    use saddlefw::counting::Counting;
    use saddlefw::solvers::steps::{fw_step, primal_fw_step};
    let bits = |v: &[f64]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
    for threads in [1, 2] {
        let mut p = problem(10);
        p.set_threads(threads);
        let (n, d, k) = p.dims();
        let y = vec![1.0 / n as f64; n];
        let x0: Vec<f64> = (0..d * k).map(|i| ((i % 13) as f64 - 6.0) * 1e-3).collect();
        let (mut gx, mut gy) = (vec![0.0; d * k], vec![0.0; n]);
        p.grads(&x0, &y, &mut gx, &mut gy);
        let counting = Counting::new(&p);
        let (mut x, mut v, mut vertex) = (x0.clone(), vec![0.0; d * k], RankOne::default());
        primal_fw_step(&counting, &mut x, &gx, 0.3, &mut v, &mut vertex);
        assert_eq!(counting.counts().lmo_x, 1, "one LMO per step");
        let (mut formed, mut w) = (x0.clone(), vec![0.0; d * k]);
        fw_step(p.x_set(), &mut formed, &gx, 0.3, &mut w);
        assert_eq!(bits(&x), bits(&formed), "{threads} threads");
        let mut other = x0.clone();
        fw_step(p.x_set(), &mut other, &gx, 0.31, &mut w);
        assert_ne!(bits(&x), bits(&other));
        gx[3] = f64::NAN;
        let mut x = x0.clone();
        primal_fw_step(&counting, &mut x, &gx, 0.3, &mut v, &mut vertex);
        assert!(
            x.iter().all(|v| v.is_nan()),
            "a failed oracle gives a NaN iterate"
        );
    }
}

/// A small DL instance (the chain's algebra does not depend on the size) and its start.
fn dl(seed: u64) -> (DictionaryLearning, Vec<f64>) {
    let cfg = DlConfig {
        n: 40,
        m: 12,
        p: 4,
        l: 2,
        q: 6,
        n_new: 9,
        seed,
        ..DlConfig::default()
    };
    DictionaryLearning::generate(&cfg).unwrap()
}

/// DL's carried `C'C'^T` and `A'C'^T` (`problems::dictionary`'s `Chain`) along the moves of a
/// product set whose C' block moves towards a rank-one vertex and whose D' block moves densely:
/// the step gradients equal exact ones to rounding, the chain is used and restarted every
/// CHAIN_RESYNC steps.
#[test]
fn dl_chained_step_gradients_equal_exact_ones_to_rounding() {
    let ((p, x0), (exact, _)) = (dl(5), dl(5));
    let steps = 2 * CHAIN_RESYNC + 5;
    let age = || p.chained_moves();
    let (worst, ages, _) = walk_from(&p, &exact, x0, &[0.7], steps, 1.0, &age);
    let want: Vec<usize> = (0..steps).map(|t| t % CHAIN_RESYNC).collect();
    assert_eq!(ages, want);
    assert!(worst > 0.0, "the carried products differ in the last bits");
    assert!(
        worst < 1e-12,
        "step gradients {worst:e} from exact (relative)"
    );
}

/// Negative control of the DL comparison: a chain told a step 1% off is caught.
#[test]
fn dl_chain_moved_by_the_wrong_step_is_caught() {
    let ((p, x0), (exact, _)) = (dl(5), dl(5));
    let age = || p.chained_moves();
    let (worst, _, _) = walk_from(&p, &exact, x0, &[0.7], 6, 1.01, &age);
    assert!(worst > 1e-6, "a wrong move gave {worst:e}");
}

/// A restart of DL's chain at a new point must not leave the key of an earlier move behind:
/// step at X1, move to X2, step at X3 (a restart, no move), then step at X2 again. Found in
/// review: the key still named X2's C' block while the products belonged to X3's.
#[test]
fn dl_a_restarted_chain_is_not_used_at_an_earlier_point() {
    let ((p, x1), (exact, _)) = (dl(6), dl(6));
    let y = [0.4];
    let (dx, mut vertex) = (x1.len(), RankOne::default());
    let (mut gx, mut gy, mut ex, mut ey) = (vec![0.0; dx], [0.0], vec![0.0; dx], [0.0]);
    let mut v = vec![0.0; dx];
    p.step_grads(&x1, &y, &mut gx, &mut gy);
    let mut x2 = x1.clone();
    assert!(p.x_set().lmo_rank_one(&gx, &mut v, &mut vertex));
    saddlefw::solvers::steps::move_towards(&mut x2, &v, 0.5);
    p.note_fw_move(0.5, &vertex, &x2);
    // X3: another point of X (x1 moved elsewhere), reached without telling the problem
    let mut x3 = x1.clone();
    saddlefw::solvers::steps::move_towards(&mut x3, &v, 0.25);
    p.step_grads(&x3, &y, &mut gx, &mut gy);
    p.step_grads(&x2, &y, &mut gx, &mut gy);
    exact.grads(&x2, &y, &mut ex, &mut ey);
    let worst = rel_diff((&gx, &gy), (&ex, &ey));
    assert!(
        worst < 1e-12,
        "step gradients at X2 are {worst:e} from exact"
    );
}

/// The chain is used only at the very point it was moved to (keyed by x's bits, or by its
/// [`Fingerprint`] above `BITWISE_KEY_MAX` entries: both sizes): a step at a point one ulp, one
/// sign or one swap away from the moved one restarts it, with exact gradients. Negative
/// control of the keys: a fingerprint blind to x's entries, or no key check, fails here.
#[test]
fn a_step_anywhere_but_the_moved_point_restarts_the_chain() {
    let large = || {
        let data = sparse_data(12, 200, 17_000, 10, 4);
        let mut p = RobustClassification::new(&data, &DroConfig::default()).unwrap();
        p.set_threads(2);
        p
    };
    let small = || problem(11);
    for make in [&small as &dyn Fn() -> RobustClassification, &large] {
        let (_, d, k) = make().dims();
        assert_eq!(d * k > BITWISE_KEY_MAX, d > 1000, "one point of each kind");
        steps_beside_the_moved_point(make);
    }
}

fn steps_beside_the_moved_point(make: &dyn Fn() -> RobustClassification) {
    let bits = |v: &[f64]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
    let changes: [(&str, fn(&mut [f64])); 5] = [
        ("none", |_| {}),
        ("the last entry", |x| {
            let last = x.len() - 1;
            x[last] = f64::from_bits(x[last].to_bits() ^ 1)
        }),
        ("one ulp", |x| x[77] = f64::from_bits(x[77].to_bits() + 1)),
        ("one sign", |x| x[101] = -x[101]),
        ("a swap", |x| x.swap(5, 6)),
    ];
    for (what, change) in changes {
        let (p, exact) = (make(), make());
        let (_, ages, mut x) = walk(&p, &exact, 3, 1.0);
        assert_eq!(ages, [0, 1, 2]);
        assert!(x[5] != x[6] && x[101] != 0.0, "the changes below change x");
        change(&mut x);
        let (n, d, k) = p.dims();
        let y: Vec<f64> = (0..n).map(|i| (1.0 + (i % 7) as f64) / n as f64).collect();
        let (mut gx, mut gy) = (vec![0.0; d * k], vec![0.0; n]);
        let (mut ex, mut ey) = (gx.clone(), gy.clone());
        p.step_grads(&x, &y, &mut gx, &mut gy);
        if what == "none" {
            assert_eq!(p.chained_moves(), 3, "the moved point uses the chain");
            continue;
        }
        assert_eq!(p.chained_moves(), 0, "{what}: the chain must restart");
        exact.grads(&x, &y, &mut ex, &mut ey);
        assert_eq!((bits(&gx), bits(&gy)), (bits(&ex), bits(&ey)), "{what}");
    }
}

/// [`Fingerprint`]: the same for any thread count; different after any single-bit change at
/// the start, the end and both sides of a part boundary (every one of the 64 bits), after a
/// swap and after a negation.
#[test]
fn fingerprints_see_every_bit() {
    // four parts, the last one short
    let n = 3 * (1 << 16) + 5;
    let x: Vec<f64> = (0..n).map(|i| (i as f64 * 0.37).sin()).collect();
    let f = Fingerprint::of(&x, 1);
    assert_eq!(f, Fingerprint::of(&x, 2));
    assert_eq!(f, Fingerprint::of(&x, 3));
    for at in [0, (1 << 16) - 1, 1 << 16, n - 1] {
        for bit in 0..64 {
            let mut y = x.clone();
            y[at] = f64::from_bits(y[at].to_bits() ^ (1 << bit));
            assert_ne!(Fingerprint::of(&y, 2), f, "bit {bit} of entry {at}");
        }
    }
    let mut y = x.clone();
    y.swap(10, 11);
    assert_ne!(Fingerprint::of(&y, 1), f);
    let neg: Vec<f64> = x.iter().map(|v| -v).collect();
    assert_ne!(Fingerprint::of(&neg, 1), f);
}

/// DRO's step gradients report whether `gx` came out finite (checked as `A^T R` writes it) with
/// the bits of `grads`, and the oracle counter flags `grad_x` when the report is false: here a
/// NaN weight in y makes rows of `R`, and so entries of `gx`, NaN. (That the counter takes the
/// report rather than a pass of its own: `the_counter_takes_the_problems_report_on_step_gradients`.)
#[test]
fn step_gradients_report_non_finite_values_to_the_counter() {
    use saddlefw::counting::Counting;
    let mut p = problem(8);
    p.set_threads(2);
    let (n, d, k) = p.dims();
    let x = vec![0.0; d * k];
    let mut y = vec![1.0 / n as f64; n];
    let (mut gx, mut gy) = (vec![0.0; d * k], vec![0.0; n]);
    assert_eq!(p.step_grads_checked(&x, &y, &mut gx, &mut gy), Some(true));
    let (mut ex, mut ey) = (vec![0.0; d * k], vec![0.0; n]);
    p.grads(&x, &y, &mut ex, &mut ey);
    let bits = |v: &[f64]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
    assert_eq!(bits(&gx), bits(&ex));
    let c = Counting::new(&p);
    c.step_grads(&x, &y, &mut gx, &mut gy);
    assert_eq!(c.nonfinite_gradient(), None);
    y[n - 1] = f64::NAN;
    assert_eq!(p.step_grads_checked(&x, &y, &mut gx, &mut gy), Some(false));
    let c = Counting::new(&p);
    c.step_grads(&x, &y, &mut gx, &mut gy);
    assert_eq!(c.nonfinite_gradient(), Some("grad_x"));
    assert_eq!(c.counts().grad_x, 1);
}
