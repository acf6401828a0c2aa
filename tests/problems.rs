//! Property tests of the saddle problems (issue 2, "every family"): gradients against finite
//! differences, the block Lipschitz constants of Assumption 1 (iv) (never exceeded, and tight
//! within 10% on constructed samples), the declared mu (Assumption 1 (ii)), convexity in x
//! (Assumption 3), `lemma:calculus` (i)-(vi) (claims.md 4.2), the certified constants of the
//! quadratic family, the generators and the `Box<P>` forwarding impl. Every check has a
//! negative control: a broken variant (wrong gradient, inflated constant, wrong modulus,
//! halved constant) that the same check rejects.

use crate::common::*;
use proptest::prelude::*;
use rand::Rng;
use rand_chacha::ChaCha8Rng;
use saddlefw::generators::{Family, GeneratorSpec, Setting, XKind};
use saddlefw::linalg::{dot, norm};
use saddlefw::problems::{
    Assumptions, Constants, InnerMax, Interval, Quadratic, SaddleProblem, YModel,
};
use saddlefw::sets::{BoxSet, ConvexSet, L1Ball, L2Ball, Simplex};

// ---------------------------------------------------------------------------------------------
// Wrappers used as negative controls
// ---------------------------------------------------------------------------------------------

/// A problem whose declared constants (and optionally gradients) are deliberately wrong.
struct Broken<'a> {
    inner: &'a dyn SaddleProblem,
    /// multipliers of (lxx, lyx, lyy, mu)
    scale: [f64; 4],
    /// added to mu after scaling
    mu_shift: f64,
    /// multiplier of grad_x (1 = correct)
    grad_x_scale: f64,
}

impl<'a> Broken<'a> {
    fn new(inner: &'a dyn SaddleProblem) -> Self {
        Broken {
            inner,
            scale: [1.0; 4],
            mu_shift: 0.0,
            grad_x_scale: 1.0,
        }
    }
}

impl SaddleProblem for Broken<'_> {
    fn name(&self) -> String {
        format!("broken({})", self.inner.name())
    }
    fn x_set(&self) -> &dyn ConvexSet {
        self.inner.x_set()
    }
    fn y_set(&self) -> &dyn ConvexSet {
        self.inner.y_set()
    }
    fn value(&self, x: &[f64], y: &[f64]) -> f64 {
        self.inner.value(x, y)
    }
    fn grad_x(&self, x: &[f64], y: &[f64], out: &mut [f64]) {
        self.inner.grad_x(x, y, out);
        out.iter_mut().for_each(|v| *v *= self.grad_x_scale);
    }
    fn grad_y(&self, x: &[f64], y: &[f64], out: &mut [f64]) {
        self.inner.grad_y(x, y, out)
    }
    fn constants(&self) -> Constants {
        let mut k = self.inner.constants();
        k.lxx *= self.scale[0];
        k.lyx *= self.scale[1];
        k.lyy *= self.scale[2];
        k.mu = k.mu * self.scale[3] + self.mu_shift;
        k
    }
    fn convex_in_x(&self) -> bool {
        self.inner.convex_in_x()
    }
    fn y_model(&self, x: &[f64]) -> Option<YModel> {
        self.inner.y_model(x)
    }
}

// ---------------------------------------------------------------------------------------------
// Checks
// ---------------------------------------------------------------------------------------------

/// Gradients against central differences of `value` along random unit directions.
/// Step `h = 1e-4` (relative to the set size): truncation `h^2 M3 / 6` with the third
/// derivative bound `M3 <= kappa omega <= 2 * 2pi / 0.7` of the cosine family (0 for
/// quadratics) is below 2e-8, rounding `EPS * scale / h` below 3e-12 scale; tolerance
/// `1e-7 * scale`.
fn check_gradients(
    p: &dyn SaddleProblem,
    x: &[f64],
    y: &[f64],
    r: &mut ChaCha8Rng,
) -> Result<(), String> {
    let scale = value_scale(p, x, y);
    let (gxv, gyv) = (gx(p, x, y), gy(p, x, y));
    for _ in 0..4 {
        let h = 1e-4 * p.x_set().diameter().max(1e-3);
        let d = unit(r, x.len());
        let fd =
            (p.value(&add_scaled(x, h, &d), y) - p.value(&add_scaled(x, -h, &d), y)) / (2.0 * h);
        if (fd - dot(&gxv, &d)).abs() > 1e-7 * scale {
            return Err(format!(
                "grad_x . d = {} but finite difference {fd}",
                dot(&gxv, &d)
            ));
        }
        let h = 1e-4 * p.y_set().diameter().max(1e-3);
        let d = unit(r, y.len());
        let fd =
            (p.value(x, &add_scaled(y, h, &d)) - p.value(x, &add_scaled(y, -h, &d))) / (2.0 * h);
        if (fd - dot(&gyv, &d)).abs() > 1e-7 * scale {
            return Err(format!(
                "grad_y . d = {} but finite difference {fd}",
                dot(&gyv, &d)
            ));
        }
    }
    Ok(())
}

/// The four blocks of Assumption 1 (iv): which variable moves, which gradient is measured.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Block {
    /// vary x, measure grad_x: <= Lxx
    XX,
    /// vary x, measure grad_y: <= Lyx
    YX,
    /// vary y, measure grad_x: <= Lyx
    XY,
    /// vary y, measure grad_y: <= Lyy
    YY,
}

const BLOCKS: [Block; 4] = [Block::XX, Block::YX, Block::XY, Block::YY];

fn declared(k: &Constants, b: Block) -> f64 {
    match b {
        Block::XX => k.lxx,
        Block::YX | Block::XY => k.lyx,
        Block::YY => k.lyy,
    }
}

fn varies_x(b: Block) -> bool {
    matches!(b, Block::XX | Block::YX)
}

/// The measured gradient block at (x, y).
fn out_grad(p: &dyn SaddleProblem, b: Block, x: &[f64], y: &[f64]) -> Vec<f64> {
    match b {
        Block::XX | Block::XY => gx(p, x, y),
        Block::YX | Block::YY => gy(p, x, y),
    }
}

/// `||grad(z') - grad(z)|| / ||z' - z||` for a move `z -> z'` of one variable, and the
/// rounding allowance of that ratio: gradients carry relative errors ~ n EPS, amplified by
/// `1/||z' - z||`.
fn ratio(p: &dyn SaddleProblem, b: Block, x: &[f64], y: &[f64], moved: &[f64]) -> (f64, f64) {
    let g0 = out_grad(p, b, x, y);
    let (g1, step) = if varies_x(b) {
        (out_grad(p, b, moved, y), dist(moved, x))
    } else {
        (out_grad(p, b, x, moved), dist(moved, y))
    };
    let n = (x.len() + y.len()) as f64;
    let slack = 1e-12 * (1.0 + n) * (norm(&g0) + norm(&g1) + value_scale(p, x, y)) / step;
    (dist(&g1, &g0) / step, slack)
}

/// Random pairs never exceed the declared block constants (relative tolerance 1e-9 plus the
/// rounding allowance). Returns the largest ratio seen per block.
fn check_lipschitz_upper(
    p: &dyn SaddleProblem,
    r: &mut ChaCha8Rng,
    pairs: usize,
) -> Result<[f64; 4], String> {
    let k = p.constants();
    let mut best = [0.0f64; 4];
    for _ in 0..pairs {
        let x = random_point(p.x_set(), r, Draw::Any);
        let y = random_point(p.y_set(), r, Draw::Any);
        let xp = random_point(p.x_set(), r, Draw::Any);
        let yp = random_point(p.y_set(), r, Draw::Any);
        for (i, b) in BLOCKS.iter().enumerate() {
            let moved = if varies_x(*b) { &xp } else { &yp };
            let step = if varies_x(*b) {
                dist(&x, moved)
            } else {
                dist(&y, moved)
            };
            // near-coincident pairs only measure rounding noise: skip them
            if step < 1e-6 * (1.0 + p.x_set().diameter() + p.y_set().diameter()) {
                continue;
            }
            let (q, slack) = ratio(p, *b, &x, &y, moved);
            let l = declared(&k, *b);
            if q > l * (1.0 + 1e-9) + slack {
                return Err(format!(
                    "{b:?}: ratio {q} exceeds the declared constant {l}"
                ));
            }
            best[i] = best[i].max(q);
        }
    }
    Ok(best)
}

/// Top singular direction of a gradient block at (x, y), by power iteration on `J^T J`
/// restricted to the tangent space of the moving set, with `J v` and `J^T w` evaluated as
/// central gradient differences (`J^T` of a cross block is the other cross block: mixed
/// partials commute). Independent of the family's constants.
fn top_direction(
    p: &dyn SaddleProblem,
    b: Block,
    x: &[f64],
    y: &[f64],
    r: &mut ChaCha8Rng,
) -> Vec<f64> {
    let apply = |blk: Block, v: &[f64]| -> Vec<f64> {
        let nv = norm(v).max(1e-300);
        if varies_x(blk) {
            let t = 1e-4 * p.x_set().diameter().max(1e-3) / nv;
            let gp = out_grad(p, blk, &add_scaled(x, t, v), y);
            let gm = out_grad(p, blk, &add_scaled(x, -t, v), y);
            sub(&gp, &gm).iter().map(|d| d / (2.0 * t)).collect()
        } else {
            let t = 1e-4 * p.y_set().diameter().max(1e-3) / nv;
            let gp = out_grad(p, blk, x, &add_scaled(y, t, v));
            let gm = out_grad(p, blk, x, &add_scaled(y, -t, v));
            sub(&gp, &gm).iter().map(|d| d / (2.0 * t)).collect()
        }
    };
    let transpose = match b {
        Block::XX => Block::XX,
        Block::YY => Block::YY,
        Block::YX => Block::XY,
        Block::XY => Block::YX,
    };
    let set_in = if varies_x(b) { p.x_set() } else { p.y_set() };
    let mut v = tangent(set_in, &gauss(r, set_in.dim()));
    for _ in 0..60 {
        let jv = apply(b, &v);
        // J^T w lives in the moving variable's space; for symmetric blocks it is J again
        let jtjv = apply(transpose, &jv);
        let w = tangent(set_in, &jtjv);
        let nw = norm(&w);
        if !(nw > 0.0) {
            break;
        }
        v = w.iter().map(|c| c / nw).collect();
    }
    v
}

/// The sampled ratio along the constructed top direction: the pair `(c, c + tau v)` with `c`
/// the centre of the moving set (relative interior) and `tau` shrunk until feasible.
fn constructed_ratio(p: &dyn SaddleProblem, b: Block, r: &mut ChaCha8Rng) -> (f64, f64) {
    let (x, y) = (centre(p.x_set()), centre(p.y_set()));
    let v = top_direction(p, b, &x, &y, r);
    if norm(&v) == 0.0 {
        return (0.0, 0.0);
    }
    let (base, set_in) = if varies_x(b) {
        (&x, p.x_set())
    } else {
        (&y, p.y_set())
    };
    let mut tau = 1e-2 * set_in.diameter();
    let mut moved = add_scaled(base, tau, &v);
    while !member(set_in, &moved, 1e-12) && tau > 1e-12 {
        tau *= 0.5;
        moved = add_scaled(base, tau, &v);
    }
    ratio(p, b, &x, &y, &moved)
}

/// Every declared block constant is attained within 10% by some sample (random pairs or
/// the constructed top direction): declared constants are not loose.
fn check_lipschitz_tight(p: &dyn SaddleProblem, r: &mut ChaCha8Rng) -> Result<(), String> {
    let k = p.constants();
    let mut best = check_lipschitz_upper(p, r, 30)?;
    for (i, b) in BLOCKS.iter().enumerate() {
        let (q, slack) = constructed_ratio(p, *b, r);
        let l = declared(&k, *b);
        if q > l * (1.0 + 1e-9) + slack {
            return Err(format!(
                "{b:?}: constructed ratio {q} exceeds the declared constant {l}"
            ));
        }
        best[i] = best[i].max(q);
    }
    let lyx_seen = best[1].max(best[2]);
    for (name, seen, l) in [
        ("lxx", best[0], k.lxx),
        ("lyx", lyx_seen, k.lyx),
        ("lyy", best[3], k.lyy),
    ] {
        if seen < 0.9 * l {
            return Err(format!(
                "declared {name} = {l} is loose: best sampled ratio {seen}"
            ));
        }
    }
    Ok(())
}

/// Strong concavity with modulus `mu` (Assumption 1 (ii)): gradient monotonicity
/// `(grad_y(x,y) - grad_y(x,y'))^T (y - y') <= -mu ||y - y'||^2` and the segment inequality
/// `L(x, y_s) >= (1-s) L(x,y) + s L(x,y') + mu/2 s(1-s) ||y - y'||^2`, on random points.
fn check_mu(
    p: &dyn SaddleProblem,
    mu: f64,
    r: &mut ChaCha8Rng,
    trials: usize,
) -> Result<(), String> {
    for _ in 0..trials {
        let x = random_point(p.x_set(), r, Draw::Any);
        let y = random_point(p.y_set(), r, Draw::Any);
        let yp = random_point(p.y_set(), r, Draw::Any);
        let d2 = dist(&y, &yp).powi(2);
        // values and inner products of n terms: rounding 1e-12 (1+n) of the value scale
        let tol = 1e-12
            * (1.0 + (x.len() + y.len()) as f64)
            * value_scale(p, &x, &y).max(value_scale(p, &x, &yp));
        let mono = dot(&sub(&gy(p, &x, &y), &gy(p, &x, &yp)), &sub(&y, &yp));
        if mono > -mu * d2 + tol {
            return Err(format!(
                "gradient monotonicity fails for mu = {mu}: {mono} > {}",
                -mu * d2
            ));
        }
        let s: f64 = r.gen_range(0.0..1.0);
        let ys = lerp(&y, &yp, s);
        let lhs = p.value(&x, &ys);
        let rhs =
            (1.0 - s) * p.value(&x, &y) + s * p.value(&x, &yp) + 0.5 * mu * s * (1.0 - s) * d2;
        if lhs < rhs - tol {
            return Err(format!(
                "segment inequality fails for mu = {mu}: {lhs} < {rhs}"
            ));
        }
    }
    Ok(())
}

/// Convexity in x (Assumption 3) on random pairs: `(grad_x(x,y) - grad_x(x',y))^T (x - x') >= 0`.
fn check_convex_x(p: &dyn SaddleProblem, r: &mut ChaCha8Rng, trials: usize) -> Result<(), String> {
    for _ in 0..trials {
        let x = random_point(p.x_set(), r, Draw::Any);
        let xp = random_point(p.x_set(), r, Draw::Any);
        let y = random_point(p.y_set(), r, Draw::Any);
        let tol = 1e-12
            * (1.0 + (x.len() + y.len()) as f64)
            * value_scale(p, &x, &y).max(value_scale(p, &xp, &y));
        let mono = dot(&sub(&gx(p, &x, &y), &gx(p, &xp, &y)), &sub(&x, &xp));
        if mono < -tol {
            return Err(format!("not convex in x: monotonicity {mono} < 0"));
        }
    }
    Ok(())
}

/// A violation of convexity in x, constructed from the most negative curvature direction of
/// grad_x at random base points (power iteration on `Lxx I - H` with gradient differences).
fn find_nonconvexity(p: &dyn SaddleProblem, r: &mut ChaCha8Rng) -> Option<f64> {
    let lxx = p.constants().lxx;
    for _ in 0..30 {
        let x = random_point(p.x_set(), r, Draw::Any);
        let y = random_point(p.y_set(), r, Draw::Any);
        let h = |v: &[f64]| -> Vec<f64> {
            let t = 1e-5 / norm(v).max(1e-300);
            let d = sub(
                &gx(p, &add_scaled(&x, t, v), &y),
                &gx(p, &add_scaled(&x, -t, v), &y),
            );
            d.iter().map(|c| c / (2.0 * t)).collect()
        };
        let mut v = tangent(p.x_set(), &unit(r, x.len()));
        for _ in 0..60 {
            let hv = h(&v);
            let w = tangent(
                p.x_set(),
                &sub(&v.iter().map(|c| lxx * c).collect::<Vec<_>>(), &hv),
            );
            let nw = norm(&w);
            if !(nw > 0.0) {
                break;
            }
            v = w.iter().map(|c| c / nw).collect();
        }
        // the pair x, x + tau v (both are points where L is defined; convexity is claimed
        // on X, so keep both feasible by shrinking tau)
        let mut tau = 1e-2 * p.x_set().diameter();
        let mut xp = add_scaled(&x, tau, &v);
        while !member(p.x_set(), &xp, 1e-12) && tau > 1e-9 {
            tau *= 0.5;
            xp = add_scaled(&x, tau, &v);
        }
        if !member(p.x_set(), &xp, 1e-12) {
            xp = add_scaled(&x, -tau, &v);
            if !member(p.x_set(), &xp, 1e-12) {
                continue;
            }
        }
        let mono = dot(&sub(&gx(p, &xp, &y), &gx(p, &x, &y)), &sub(&xp, &x));
        // a violation well above rounding: curvature below -1e-6 Lxx along the pair
        if mono < -1e-6 * dist(&xp, &x).powi(2) * lxx.max(1e-300) {
            return Some(mono);
        }
    }
    None
}

// ---------------------------------------------------------------------------------------------
// Properties over every family and setting
// ---------------------------------------------------------------------------------------------

proptest! {
    #![proptest_config(config(160, "problems.txt"))]

    /// Gradients agree with central finite differences (and a broken gradient does not).
    #[test]
    fn gradients_match_finite_differences(case in instance_case(), seed in any::<u64>()) {
        let inst = case.generate();
        let p = inst.problem.as_ref();
        let mut r = rng(seed);
        for _ in 0..3 {
            let x = random_point(p.x_set(), &mut r, Draw::Any);
            let y = random_point(p.y_set(), &mut r, Draw::Any);
            check_gradients(p, &x, &y, &mut r).map_err(TestCaseError::fail)?;
        }
    }

    /// Declared block constants are never exceeded and are tight within 10% (full-dimensional
    /// X; on a simplex X the contract constant ||A||_2 may exceed the affine-hull constant).
    #[test]
    fn block_constants_are_valid_and_tight(case in instance_case(), seed in any::<u64>()) {
        let inst = case.generate();
        let p = inst.problem.as_ref();
        let mut r = rng(seed);
        check_lipschitz_upper(p, &mut r, 60).map_err(TestCaseError::fail)?;
        if case.spec.x != XKind::Simplex {
            check_lipschitz_tight(p, &mut r).map_err(TestCaseError::fail)?;
        }
        let k = p.constants();
        prop_assert!(k.lyx > 0.0, "Assumption 1 (iv) needs Lyx > 0");
        // both are eigenvalues of C from the same solver: 1e-12 relative
        prop_assert!(k.mu <= k.lyy * (1.0 + 1e-12), "mu <= Lyy (used by lemma:telescoping)");
    }

    /// The declared mu holds (strong concavity), and is the largest that does (mu + 5% of
    /// max(Lyy, 1e-2) fails): the generated C = mu I makes the inequality an equality.
    #[test]
    fn declared_mu_holds_and_is_tight(case in instance_case(), seed in any::<u64>()) {
        let inst = case.generate();
        let p = inst.problem.as_ref();
        let mut r = rng(seed);
        let k = p.constants();
        check_mu(p, k.mu, &mut r, 40).map_err(TestCaseError::fail)?;
        prop_assert!(check_mu(p, k.mu + 0.05 * k.lyy.max(1e-2), &mut r, 40).is_err());
        prop_assert_eq!(p.assumptions().strongly_concave, case.spec.setting.strongly_concave);
    }

    /// Convex families are convex in x on random pairs; nonconvex ones (cosine, indefinite
    /// quadratic) have a constructed violation; the flags match the requested setting.
    #[test]
    fn convexity_in_x_matches_the_setting(case in instance_case(), seed in any::<u64>()) {
        let inst = case.generate();
        let p = inst.problem.as_ref();
        let mut r = rng(seed);
        prop_assert_eq!(p.assumptions().setting(), case.spec.setting.to_string());
        if p.convex_in_x() {
            check_convex_x(p, &mut r, 60).map_err(TestCaseError::fail)?;
        } else if p.x_set().diameter() > 0.0 {
            // (a one-point X, e.g. the simplex with dx = 1, is trivially convex)
            prop_assert!(find_nonconvexity(p, &mut r).is_some(), "no violation of convexity found for {}", p.name());
        }
    }

    /// lemma:calculus (i)-(vi) at random points (claims.md 4.2).
    #[test]
    fn lemma_calculus_holds(case in instance_case(), seed in any::<u64>()) {
        let inst = case.generate();
        let p = inst.problem.as_ref();
        let mut r = rng(seed);
        for _ in 0..6 {
            let v = calculus_sample(p, &mut r);
            v.check().map_err(TestCaseError::fail)?;
        }
    }
}

/// The gradient check rejects a gradient off by 1%.
#[test]
fn negative_control_gradient_check_rejects_wrong_gradient() {
    for (i, inst) in every_instance(4, 3, 1).iter().enumerate() {
        let mut b = Broken::new(inst.problem.as_ref());
        b.grad_x_scale = 1.01;
        let mut r = rng(i as u64);
        let x = random_point(b.x_set(), &mut r, Draw::Any);
        let y = random_point(b.y_set(), &mut r, Draw::Any);
        assert!(check_gradients(&b, &x, &y, &mut r).is_err(), "{}", b.name());
    }
}

/// A family whose declared constant is doubled fails the "within 10%" check, for each of
/// Lxx, Lyx and Lyy (when nonzero), on every family.
#[test]
fn negative_control_doubled_constants_are_loose() {
    for (i, inst) in every_instance(4, 3, 2).iter().enumerate() {
        let p = inst.problem.as_ref();
        let mut r = rng(i as u64);
        check_lipschitz_tight(p, &mut r).unwrap_or_else(|e| panic!("{}: {e}", p.name()));
        for (j, name) in ["lxx", "lyx", "lyy"].iter().enumerate() {
            let mut b = Broken::new(p);
            b.scale[j] = 2.0;
            if declared(&b.constants(), BLOCKS[if j == 2 { 3 } else { j }]) == 0.0 {
                continue;
            }
            let e = check_lipschitz_tight(&b, &mut r).expect_err("doubled constant accepted");
            assert!(e.contains(name), "{e}");
        }
        // and a halved constant is exceeded
        let mut h = Broken::new(p);
        h.scale = [0.5, 0.5, 0.5, 1.0];
        assert!(check_lipschitz_tight(&h, &mut r).is_err());
    }
}

/// The nonconvex generators are genuinely nonconvex for every X kind and many seeds,
/// including dx = 2 (a random symmetric 2x2 matrix is PSD with positive probability) and
/// the cosine family on large boxes.
#[test]
fn nonconvex_generators_are_nonconvex() {
    let mut r = rng(3);
    for seed in 0..60u64 {
        for (family, dx) in [
            (Family::Quadratic, 2),
            (Family::Quadratic, 3),
            (Family::Cosine, 2),
            (Family::Cosine, 20),
            (Family::Quadratic, 20),
        ] {
            for x in XKINDS {
                let setting: Setting = ["nc-c", "nc-sc", "nc-c+sc", "nc-sc+sc"]
                    [(seed % 4) as usize]
                    .parse()
                    .unwrap();
                let mut spec = GeneratorSpec::new(family, setting, dx, 3, seed);
                spec.x = x;
                let inst = spec.generate().unwrap();
                let p = inst.problem.as_ref();
                assert!(!p.convex_in_x(), "{spec}");
                if seed < 8 {
                    assert!(
                        find_nonconvexity(p, &mut r).is_some(),
                        "{spec}: convex in x"
                    );
                }
            }
        }
    }
}

/// Convexity check negative control: it rejects the nonconvex families.
#[test]
fn negative_control_convexity_check_rejects_nonconvex() {
    let mut r = rng(4);
    for inst in every_instance(5, 3, 4) {
        let p = inst.problem.as_ref();
        if !p.convex_in_x() {
            assert!(check_convex_x(p, &mut r, 400).is_err(), "{}", p.name());
        }
    }
}

// ---------------------------------------------------------------------------------------------
// lemma:calculus
// ---------------------------------------------------------------------------------------------

/// One random configuration of `lemma:calculus`: x, x', y, y0, beta >= beta' with
/// max(beta, mu) > 0, and everything the six items need.
struct CalculusSample {
    name: String,
    k: Constants,
    beta: f64,
    beta_p: f64,
    /// y*_beta(x), y*_beta(x')
    ys: Vec<f64>,
    ysp: Vec<f64>,
    x: Vec<f64>,
    xp: Vec<f64>,
    y: Vec<f64>,
    /// L_beta(x, y*), L_beta(x, y), ||grad_y L_beta(x, y)||
    l_star: f64,
    l_y: f64,
    grad_norm: f64,
    /// f_beta(x), f_beta'(x)
    f_beta: Interval,
    f_beta_p: Interval,
    /// grad f_beta(x) . d by central differences, and grad_x L(x, y*) . d, grad_x L(x, y0) . d
    fd: f64,
    fd_tol: f64,
    danskin: f64,
    wrong: f64,
    /// ||grad f_beta(x) - grad f_beta(x')||
    grad_f_diff: f64,
    /// rounding tolerance of value comparisons
    tol: f64,
    /// rounding tolerance of gradient differences
    gtol: f64,
}

fn calculus_sample(p: &dyn SaddleProblem, r: &mut ChaCha8Rng) -> CalculusSample {
    let k = p.constants();
    let beta = if k.mu > 0.0 && r.gen_bool(0.3) {
        0.0
    } else {
        log_uniform(r, 1e-2, 10.0)
    };
    let beta_p = if r.gen_bool(0.3) {
        0.0
    } else {
        beta * r.gen_range(0.0..1.0)
    };
    let x = random_point(p.x_set(), r, Draw::Any);
    let xp = if r.gen_bool(0.5) {
        random_point(p.x_set(), r, Draw::Any)
    } else {
        // a nearby point (the smoothness items are local)
        let mut t = 1e-2 * p.x_set().diameter();
        let d = tangent(p.x_set(), &unit(r, x.len()));
        let mut xp = add_scaled(&x, t, &d);
        while !member(p.x_set(), &xp, 1e-12) && t > 1e-9 {
            t *= 0.5;
            xp = add_scaled(&x, t, &d);
        }
        if member(p.x_set(), &xp, 1e-12) {
            xp
        } else {
            x.clone()
        }
    };
    let y = random_point(p.y_set(), r, Draw::Any);
    let y0 = if r.gen_bool(0.5) {
        centre(p.y_set())
    } else {
        random_point(p.y_set(), r, Draw::Any)
    };
    let s: InnerMax = p.y_star(&x, beta, &y0);
    let sp = p.y_star(&xp, beta, &y0);
    let l_star = l_beta(p, &x, &s.y, beta, &y0);
    let l_y = l_beta(p, &x, &y, beta, &y0);
    let grad_norm = norm(&gy_beta(p, &x, &y, beta, &y0));
    let f_beta_p = p.y_star(&x, beta_p, &y0).value;
    // (iv): central differences of f_beta along a random direction
    let d = unit(r, x.len());
    let h = 1e-6 * p.x_set().diameter().max(1e-3);
    let fb = |z: &[f64]| p.y_star(z, beta, &y0).value.mid();
    let fd = (fb(&add_scaled(&x, h, &d)) - fb(&add_scaled(&x, -h, &d))) / (2.0 * h);
    let lf = k.lxx + k.lyx * k.lyx / (beta + k.mu);
    let scale = value_scale(p, &x, &y);
    // f_beta is C^{1,1} with constant L_f (lemma:calculus (v)), so the central difference is
    // within L_f h of the derivative; values carry ~1e-14 scale rounding, divided by h
    let fd_tol = lf * h + 1e-14 * scale / h;
    let danskin = dot(&gx(p, &x, &s.y), &d);
    let wrong = dot(&gx(p, &x, &y0), &d);
    let grad_f_diff = dist(&gx(p, &x, &s.y), &gx(p, &xp, &sp.y));
    let gtol = 1e-12
        * (1.0 + (x.len() + y.len()) as f64)
        * (1.0 + norm(&gx(p, &x, &s.y)) + norm(&gx(p, &xp, &sp.y)) + k.lyx * k.dy / (beta + k.mu));
    CalculusSample {
        name: p.name(),
        k,
        beta,
        beta_p,
        tol: 1e-12 * (1.0 + (x.len() + y.len()) as f64) * scale.max(value_scale(p, &x, &s.y)),
        ys: s.y.clone(),
        ysp: sp.y,
        x,
        xp,
        y,
        l_star,
        l_y,
        grad_norm,
        f_beta: s.value,
        f_beta_p,
        fd,
        fd_tol,
        danskin,
        wrong,
        grad_f_diff,
        gtol,
    }
}

impl CalculusSample {
    fn m(&self) -> f64 {
        self.beta + self.k.mu
    }
    fn gap(&self) -> f64 {
        self.l_star - self.l_y
    }
    /// (i) `(beta+mu)/2 ||y* - y||^2 <= L_beta(x,y*) - L_beta(x,y)`, with `factor` in place of 1/2.
    fn item1(&self, factor: f64) -> bool {
        factor * self.m() * dist(&self.ys, &self.y).powi(2) <= self.gap() + self.tol
    }
    /// (ii) `gap <= c/(beta+mu) ||grad_y L_beta(x,y)||^2` (printed: c = 2; tight: c = 1/2)
    fn item2(&self, c: f64) -> bool {
        self.gap() <= c / self.m() * self.grad_norm.powi(2) + self.tol
    }
    /// (iii) `||y*(x) - y*(x')|| <= c Lyx/(beta+mu) ||x - x'||`
    fn item3(&self, c: f64) -> bool {
        // y* is a projection of an affine function of x: rounding ~ 1e-11 (1 + Dy)
        dist(&self.ys, &self.ysp)
            <= c * self.k.lyx / self.m() * dist(&self.x, &self.xp) * (1.0 + 1e-9)
                + 1e-11 * (1.0 + self.k.dy)
    }
    /// (iv) Danskin: grad f_beta = grad_x L(x, y*_beta(x)) (by central differences)
    fn item4(&self, grad_dot_d: f64) -> bool {
        (self.fd - grad_dot_d).abs() <= self.fd_tol
    }
    /// (v) `||grad f_beta(x) - grad f_beta(x')|| <= (Lxx + Lyx^2/(beta+mu)) ||x - x'||`
    fn item5(&self, with_lyx_term: bool) -> bool {
        let lf = self.k.lxx
            + if with_lyx_term {
                self.k.lyx.powi(2) / self.m()
            } else {
                0.0
            };
        // gradients carry n-term rounding relative to their magnitude
        self.grad_f_diff <= lf * dist(&self.x, &self.xp) * (1.0 + 1e-9) + self.gtol
    }
    /// (vi) `0 <= f_beta'(x) - f_beta(x) <= Dy^2 (beta - beta')/2`
    fn item6(&self) -> bool {
        let lo = self.f_beta_p.minus(&self.f_beta);
        lo.upper >= -self.tol
            && lo.lower <= self.k.dy.powi(2) * (self.beta - self.beta_p) / 2.0 + self.tol
    }
    fn check(&self) -> Result<(), String> {
        let fail = |item: &str| {
            Err(format!(
                "lemma:calculus {item} fails on {} (beta = {}, beta' = {})",
                self.name, self.beta, self.beta_p
            ))
        };
        if !self.item1(0.5) {
            return fail("(i)");
        }
        if !self.item2(2.0) {
            return fail("(ii) printed 2/(beta+mu)");
        }
        if !self.item2(0.5) {
            return fail("(ii) tight 1/(2(beta+mu))");
        }
        if !self.item3(1.0) {
            return fail("(iii)");
        }
        if !self.item4(self.danskin) {
            return fail(&format!("(iv): fd {} vs {}", self.fd, self.danskin));
        }
        if !self.item5(true) {
            return fail("(v)");
        }
        if !self.item6() {
            return fail("(vi)");
        }
        Ok(())
    }
}

/// Negative controls of lemma:calculus: each item with a deliberately wrong constant (or
/// the wrong gradient for (iv), the missing Lyx^2 term for (v), reversed order for (vi))
/// fails on some sample of the convex-concave families.
#[test]
fn negative_control_lemma_calculus_items_are_sharp() {
    let mut fails = [0usize; 6];
    let mut r = rng(9);
    for seed in 0..6 {
        for inst in every_instance(4, 3, seed) {
            let p = inst.problem.as_ref();
            for _ in 0..40 {
                let s = calculus_sample(p, &mut r);
                s.check().unwrap_or_else(|e| panic!("{e}"));
                fails[0] += !s.item1(1.0) as usize; // factor 1 instead of 1/2
                fails[1] += !s.item2(0.25) as usize; // 1/(4(beta+mu)), half the tight constant
                fails[2] += !s.item3(0.5) as usize; // half the Lipschitz constant of y*
                fails[3] += !s.item4(s.wrong) as usize; // grad_x L(x, y0) instead of (x, y*)
                fails[4] += (p.convex_in_x() && !s.item5(false)) as usize; // Lxx alone
                fails[5] += (s.f_beta_p.minus(&s.f_beta).lower > s.tol) as usize;
                // reversed: f_beta >= f_beta'
            }
        }
    }
    for (i, f) in fails.iter().enumerate() {
        assert!(
            *f > 0,
            "the broken variant of lemma:calculus item {} was never rejected",
            i + 1
        );
    }
}

// ---------------------------------------------------------------------------------------------
// Quadratic family: certified constants, closed forms, validation
// ---------------------------------------------------------------------------------------------

/// `Q diag(l) Q^T` for a random orthogonal Q.
fn sym_with_eigs(r: &mut ChaCha8Rng, l: &[f64]) -> Vec<f64> {
    let n = l.len();
    let q = orthonormal_columns(r, n, n);
    let mut a = vec![0.0; n * n];
    for i in 0..n {
        for j in 0..n {
            a[i * n + j] = (0..n).map(|k| q[i * n + k] * l[k] * q[j * n + k]).sum();
        }
    }
    // exact symmetry (the rounding of the two triangles differs by an ulp)
    for i in 0..n {
        for j in 0..i {
            a[i * n + j] = a[j * n + i];
        }
    }
    a
}

fn quadratic(
    a: Vec<f64>,
    b: Vec<f64>,
    c: Vec<f64>,
    dx: usize,
    dy: usize,
) -> saddlefw::Result<Quadratic> {
    Quadratic::new(
        a,
        b,
        c,
        vec![0.1; dx],
        vec![-0.2; dy],
        Box::new(L2Ball::centered(dx, 1.0).unwrap()),
        Box::new(Simplex::new(dy, 1.0).unwrap()),
    )
}

proptest! {
    #![proptest_config(config(128, "quadratic.txt"))]

    /// L_xx = ||A||_2, L_yx = ||B||_2, L_yy = ||C||_2, mu = lambda_min(C) to 1e-12 relative,
    /// on matrices with a known spectrum (independent of the eigen solver).
    #[test]
    fn quadratic_constants_match_known_spectra(dx in 1usize..8, dy in 1usize..8, seed in any::<u64>()) {
        let mut r = rng(seed);
        let la: Vec<f64> = (0..dx).map(|_| r.gen_range(-2.0..2.0)).collect();
        let mut lc: Vec<f64> = (0..dy).map(|_| r.gen_range(0.0..3.0)).collect();
        if r.gen_bool(0.3) { lc[0] = 0.0; } // singular C: mu must be exactly 0
        let k = dx.min(dy);
        let sb: Vec<f64> = (0..k).map(|_| r.gen_range(0.1..2.0)).collect();
        let b = matrix_with_spectrum(&mut r, dy, dx, &sb);
        let q = quadratic(sym_with_eigs(&mut r, &la), b, sym_with_eigs(&mut r, &lc), dx, dy).unwrap();
        let c = q.constants();
        let max_abs = |v: &[f64]| v.iter().fold(0.0f64, |m, x| m.max(x.abs()));
        // 1e-12 relative (the contract), with the norm as the scale for the smallest eigenvalue
        prop_assert!((c.lxx - max_abs(&la)).abs() <= 1e-12 * max_abs(&la).max(1.0) * dx as f64);
        prop_assert!((c.lyx - max_abs(&sb)).abs() <= 1e-12 * max_abs(&sb) * k as f64);
        prop_assert!((c.lyy - max_abs(&lc)).abs() <= 1e-12 * max_abs(&lc).max(1.0) * dy as f64);
        let lmin = lc.iter().cloned().fold(f64::INFINITY, f64::min);
        prop_assert!((c.mu - lmin).abs() <= 1e-12 * max_abs(&lc).max(1.0) * dy as f64);
        prop_assert!(c.mu >= 0.0);
        if lmin == 0.0 {
            prop_assert_eq!(c.mu, 0.0, "a singular C must not be declared strongly concave");
            prop_assert!(!q.assumptions().strongly_concave);
        }
        prop_assert_eq!(q.convex_in_x(), la.iter().all(|v| *v >= 0.0));
    }
}

/// Isotropic C = m I is detected (closed form), also when written with -0.0 off-diagonals;
/// a non-isotropic C is not; a tiny negative eigenvalue (inside the relative PSD tolerance)
/// never yields a negative mu, and a tiny negative isotropic C is rejected.
#[test]
fn quadratic_isotropic_detection() {
    let a = vec![1.0, 0.0, 0.0, 1.0];
    let b = vec![1.0, 0.5, -0.5, 1.0];
    let q = quadratic(a.clone(), b.clone(), vec![0.7, -0.0, -0.0, 0.7], 2, 2).unwrap();
    assert_eq!(q.y_model(&[0.1, 0.2]).map(|m| m.m), Some(0.7));
    assert_eq!(q.constants().mu, 0.7);
    let q = quadratic(a.clone(), b.clone(), vec![0.7, 0.0, 0.0, 0.7 + 1e-9], 2, 2).unwrap();
    assert!(q.y_model(&[0.1, 0.2]).is_none());
    let q = quadratic(a.clone(), b.clone(), vec![0.0; 4], 2, 2).unwrap();
    assert_eq!(q.y_model(&[0.1, 0.2]).map(|m| m.m), Some(0.0));
    // the PSD tolerance is relative to ||C||: a negative isotropic C is negative definite at
    // every scale and rejected (the old absolute guard max(1, ||C||) accepted -1e-14 I) ...
    let e = quadratic(a.clone(), b.clone(), vec![-1e-14, 0.0, 0.0, -1e-14], 2, 2)
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("C") && e.contains("positive semidefinite"),
        "{e}"
    );
    // ... while an eigenvalue inside the tolerance of ||C|| is accepted as 0
    let q = quadratic(a, b, vec![1.0, 0.0, 0.0, -1e-14], 2, 2).unwrap();
    let k = q.constants();
    assert_eq!(k.mu, 0.0);
    assert!(k.mu >= 0.0, "negative mu {}", k.mu);
    if let Some(m) = q.y_model(&[0.1, 0.2]) {
        assert!(m.m >= 0.0, "negative curvature in the y-model: {}", m.m);
    }
}

/// Validation errors name the field.
#[test]
fn quadratic_new_rejects_bad_input() {
    let ok_c = vec![1.0, 0.0, 0.0, 1.0];
    let check = |res: saddlefw::Result<Quadratic>, needle: &str| {
        let e = res.expect_err("accepted bad input").to_string();
        assert!(e.contains(needle), "{e:?} does not name {needle:?}");
    };
    check(
        quadratic(vec![1.0; 3], vec![0.0; 4], ok_c.clone(), 2, 2),
        "A",
    );
    check(
        quadratic(vec![1.0, 2.0, 0.0, 1.0], vec![0.0; 4], ok_c.clone(), 2, 2),
        "symmetric",
    );
    check(
        quadratic(vec![1.0, 0.0, 0.0, 1.0], vec![0.0; 3], ok_c.clone(), 2, 2),
        "B",
    );
    check(
        quadratic(
            vec![1.0, 0.0, 0.0, 1.0],
            vec![0.0; 4],
            vec![1.0, 0.0, 0.0, -1.0],
            2,
            2,
        ),
        "positive semidefinite",
    );
    check(
        quadratic(
            vec![f64::NAN, 0.0, 0.0, 1.0],
            vec![0.0; 4],
            ok_c.clone(),
            2,
            2,
        ),
        "not finite",
    );
    check(
        quadratic(
            vec![1.0, 0.0, 0.0, 1.0],
            vec![0.0, f64::INFINITY, 0.0, 0.0],
            ok_c,
            2,
            2,
        ),
        "not finite",
    );
}

// ---------------------------------------------------------------------------------------------
// Generators
// ---------------------------------------------------------------------------------------------

proptest! {
    #![proptest_config(config(128, "generators.txt"))]

    /// Specs round-trip through Display/FromStr; generation is deterministic; starts are
    /// feasible; diameters and alpha match the sets; known saddle points are interior
    /// stationary points with f* = L(x*, y*).
    #[test]
    fn generators_are_valid(case in instance_case(), seed in any::<u64>()) {
        let spec = &case.spec;
        let text = spec.to_string();
        let back: GeneratorSpec = text.parse().unwrap();
        prop_assert_eq!(&back, spec);
        let a = spec.generate().unwrap();
        let b = back.generate().unwrap();
        let p = a.problem.as_ref();
        // starts are projections: feasible up to rounding (1e-12 relative)
        prop_assert!(member(p.x_set(), &a.x0, 1e-12) && member(p.y_set(), &a.y0, 1e-12));
        prop_assert_eq!(&a.x0, &b.x0);
        prop_assert_eq!(&a.y0, &b.y0);
        let mut r = rng(seed);
        let x = random_point(p.x_set(), &mut r, Draw::Any);
        let y = random_point(p.y_set(), &mut r, Draw::Any);
        prop_assert_eq!(p.value(&x, &y), b.problem.value(&x, &y));
        let k = p.constants();
        prop_assert_eq!(k.dx, p.x_set().diameter());
        prop_assert_eq!(k.dy, p.y_set().diameter());
        prop_assert_eq!(k.alpha, p.y_set().strong_convexity());
        prop_assert_eq!(k.alpha.is_some(), spec.setting.sc_y);
        if let Some((xs, ys)) = p.known_saddle() {
            // strictly inside: a small ball around the point (within the affine hull) is feasible
            for _ in 0..20 {
                let dxs = tangent(p.x_set(), &unit(&mut r, xs.len()));
                let dys = tangent(p.y_set(), &unit(&mut r, ys.len()));
                let ex = 1e-3 * p.x_set().diameter() / norm(&dxs).max(1e-300);
                let ey = 1e-3 * p.y_set().diameter() / norm(&dys).max(1e-300);
                prop_assert!(member(p.x_set(), &add_scaled(&xs, ex, &dxs), 1e-12));
                prop_assert!(member(p.y_set(), &add_scaled(&ys, ey, &dys), 1e-12));
            }
            // stationary: gradients vanish up to rounding of the products (1e-12 (1+n) scale)
            let tol = 1e-12 * (1.0 + (xs.len() + ys.len()) as f64) * value_scale(p, &xs, &ys);
            prop_assert!(norm(&gx(p, &xs, &ys)) <= tol && norm(&gy(p, &xs, &ys)) <= tol);
            let fs = p.f_star().unwrap();
            prop_assert_eq!(fs.width(), 0.0);
            prop_assert!((fs.mid() - p.value(&xs, &ys)).abs() <= tol);
        }
    }
}

#[test]
fn bad_generator_specs_are_errors() {
    for (s, needle) in [
        ("quadratic", "FAMILY/SETTING"),
        ("hexagon/nc-c", "family"),
        ("quadratic/c-x", "setting"),
        ("quadratic/c-c:dx=0", "dx and dy"),
        ("quadratic/c-c:dx=-3", "dx"),
        ("quadratic/c-c:dx=3,dy=1", "dy"),
        ("quadratic/c-c:x=hexagon", "x"),
        ("quadratic/c-c:foo=1", "foo"),
        ("quadratic/c-c:dx", "dx"),
        ("cosine/c-sc", "nonconvex"),
        ("saddle/nc-sc", "convex-concave"),
        ("quadratic/c-c:dx=100000", "5000"),
    ] {
        match s.parse::<GeneratorSpec>() {
            Ok(v) => panic!("{s:?} accepted as {v}"),
            Err(e) => assert!(
                e.to_string().contains(needle),
                "{s:?}: {e} does not name {needle:?}"
            ),
        }
    }
}

// ---------------------------------------------------------------------------------------------
// The Box<P> blanket impl forwards everything
// ---------------------------------------------------------------------------------------------

/// A problem that overrides every provided method with recognisable answers.
struct Marked {
    x: L1Ball,
    y: BoxSet,
}

impl SaddleProblem for Marked {
    fn name(&self) -> String {
        "marked".into()
    }
    fn x_set(&self) -> &dyn ConvexSet {
        &self.x
    }
    fn y_set(&self) -> &dyn ConvexSet {
        &self.y
    }
    fn value(&self, x: &[f64], y: &[f64]) -> f64 {
        x[0] * y[0]
    }
    fn grad_x(&self, _x: &[f64], y: &[f64], out: &mut [f64]) {
        out[0] = y[0];
    }
    fn grad_y(&self, x: &[f64], _y: &[f64], out: &mut [f64]) {
        out[0] = x[0];
    }
    fn grads(&self, _x: &[f64], _y: &[f64], gx: &mut [f64], gy: &mut [f64]) {
        gx[0] = 11.0;
        gy[0] = 12.0;
    }
    fn constants(&self) -> Constants {
        Constants {
            lxx: 0.0,
            lyx: 1.0,
            lyy: 0.0,
            mu: 0.0,
            alpha: Some(2.0),
            dx: 2.0,
            dy: 1.0,
        }
    }
    fn convex_in_x(&self) -> bool {
        true
    }
    fn y_model(&self, _x: &[f64]) -> Option<YModel> {
        Some(YModel {
            h: 13.0,
            c: vec![0.0],
            m: 0.0,
        })
    }
    fn f_star(&self) -> Option<Interval> {
        Some(Interval::exact(14.0))
    }
    fn known_saddle(&self) -> Option<(Vec<f64>, Vec<f64>)> {
        Some((vec![15.0], vec![16.0]))
    }
    fn assumptions(&self) -> Assumptions {
        Assumptions {
            a1: false,
            strongly_concave: true,
            a2: false,
            a3: false,
        }
    }
    fn y_star(&self, _x: &[f64], _beta: f64, _y0: &[f64]) -> InnerMax {
        InnerMax {
            y: vec![17.0],
            value: Interval::exact(18.0),
        }
    }
    fn f(&self, _x: &[f64]) -> Interval {
        Interval::exact(19.0)
    }
    fn min_x(&self, _y: &[f64]) -> Interval {
        Interval::exact(20.0)
    }
}

#[test]
fn boxed_problem_forwards_every_method() {
    let inner = Marked {
        x: L1Ball::new(1, 1.0).unwrap(),
        y: BoxSet::interval(1.0).unwrap(),
    };
    let direct_assumptions = inner.assumptions();
    let boxed: Box<Marked> = Box::new(inner);
    let dynboxed: Box<dyn SaddleProblem> = Box::new(Marked {
        x: L1Ball::new(1, 1.0).unwrap(),
        y: BoxSet::interval(1.0).unwrap(),
    });
    fn probe<P: SaddleProblem + ?Sized>(p: &P, want: Assumptions) {
        let (mut a, mut b) = ([0.0], [0.0]);
        p.grads(&[0.5], &[0.5], &mut a, &mut b);
        assert_eq!((a[0], b[0]), (11.0, 12.0));
        assert_eq!(p.y_model(&[0.0]).unwrap().h, 13.0);
        assert_eq!(p.f_star().unwrap().mid(), 14.0);
        assert_eq!(p.known_saddle().unwrap().0[0], 15.0);
        assert_eq!(p.assumptions(), want, "assumptions() not forwarded");
        assert_eq!(p.y_star(&[0.0], 0.0, &[0.0]).value.mid(), 18.0);
        assert_eq!(p.f(&[0.0]).mid(), 19.0);
        assert_eq!(p.min_x(&[0.0]).mid(), 20.0);
        assert_eq!(p.name(), "marked");
        assert_eq!(p.constants().alpha, Some(2.0));
        assert!(p.convex_in_x());
    }
    probe(&boxed, direct_assumptions);
    probe(&dynboxed, direct_assumptions);
    probe(&Box::new(dynboxed), direct_assumptions);
}

// ---------------------------------------------------------------------------------------------
// The experiment families (dictionary learning, robust classification) under the same checks
// ---------------------------------------------------------------------------------------------

/// Small instances of the experiment problems of claims.md 6.1 and 6.2.
pub(crate) fn experiment_instances(seed: u64) -> Vec<Box<dyn SaddleProblem>> {
    use saddlefw::data::{Csr, Dataset};
    use saddlefw::problems::{DictionaryLearning, DlConfig, DroConfig, RobustClassification};
    let dl = DictionaryLearning::generate(&DlConfig {
        n: 20,
        m: 6,
        p: 3,
        l: 2,
        q: 4,
        n_new: 5,
        delta: 1e-3,
        r: 2.0,
        b: 1.0,
        seed,
    })
    .unwrap()
    .0;
    let mut r = rng(seed);
    let (n, d, k) = (25, 8, 3);
    let dense: Vec<f64> = (0..n * d)
        .map(|_| {
            if r.gen_bool(0.4) {
                r.gen_range(0.0..2.0)
            } else {
                0.0
            }
        })
        .collect();
    let data = Dataset {
        name: "random".into(),
        features: Csr::from_dense(n, d, &dense).unwrap(),
        labels: (0..n).map(|_| r.gen_range(0..k as u32)).collect(),
        classes: (0..k as i64).collect(),
    };
    let dro = RobustClassification::new(
        &data,
        &DroConfig {
            radius: 2.0,
            ..DroConfig::default()
        },
    )
    .unwrap();
    vec![Box::new(dl), Box::new(dro)]
}

/// Gradients, Lipschitz upper bounds, mu, convexity flags and lemma:calculus on the
/// experiment families (their declared constants are the paper's over-estimates, so only the
/// upper bounds are checked, not tightness).
#[test]
fn experiment_families_pass_the_problem_checks() {
    for seed in 0..3 {
        for p in experiment_instances(seed) {
            let p = p.as_ref();
            let mut r = rng(seed);
            for _ in 0..3 {
                let x = random_point(p.x_set(), &mut r, Draw::Any);
                let y = random_point(p.y_set(), &mut r, Draw::Any);
                check_gradients(p, &x, &y, &mut r).unwrap_or_else(|e| panic!("{}: {e}", p.name()));
            }
            check_lipschitz_upper(p, &mut r, 40).unwrap_or_else(|e| panic!("{}: {e}", p.name()));
            check_mu(p, p.constants().mu, &mut r, 20)
                .unwrap_or_else(|e| panic!("{}: {e}", p.name()));
            if p.convex_in_x() {
                check_convex_x(p, &mut r, 40).unwrap_or_else(|e| panic!("{}: {e}", p.name()));
            }
            for _ in 0..4 {
                calculus_sample(p, &mut r)
                    .check()
                    .unwrap_or_else(|e| panic!("{e}"));
            }
        }
    }
}
