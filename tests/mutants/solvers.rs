//! Mutation campaign (issue 18): tests aimed at a class of surviving mutants in `src/solvers`.

use super::{bilinear_1d, close, quadratic_1d};
use saddlefw::problems::{Constants, SaddleProblem};
use saddlefw::solvers::schedule::Schedule;
use saddlefw::solvers::{registry, Control, Fault, Options, Solver, SolverSpec, StepInfo};

/// What a solver reports and does, asked through the generic `S: Solver` path: called with a
/// `&mut Box<dyn Solver>` this goes through `<impl Solver for Box<S>>`; called with
/// `box.as_mut()` (`S = dyn Solver`) it asks the trait object directly (a call on the box
/// itself dispatches through the vtable and never reaches the forwarding impl).
fn through<S: Solver + ?Sized>(
    s: &mut S,
    p: &dyn SaddleProblem,
    x0: &[f64],
    y0: &[f64],
    steps: usize,
) -> (
    String,
    String,
    String,
    Vec<StepInfo>,
    Vec<f64>,
    Vec<f64>,
    f64,
) {
    s.init(p, x0, y0);
    let infos = (0..steps).map(|t| s.step(p, t)).collect();
    (
        s.name().to_string(),
        s.schedule(),
        s.provenance().to_string(),
        infos,
        s.x().to_vec(),
        s.y().to_vec(),
        s.beta_at(1),
    )
}

/// `L = x^2/2 + x y - y^2/2` on `[-1, 1]^2` with the constants every registry entry accepts
/// (`alpha` given for R-PDCG's dual step).
fn every_entry_options() -> (saddlefw::problems::Quadratic, Options) {
    let p = bilinear_1d(1.0);
    let k = Constants {
        alpha: Some(1.0),
        ..p.constants()
    };
    let o = Options {
        constants: Some(k),
        ..Options::default()
    };
    (p, o)
}

/// Every registry solver reports its own name and provenance (by value: the registry entry's),
/// a schedule of its own form, its iterates and its beta, both directly and through the
/// `Box<S>` forwarding impl; three steps from `(1/2, -1/2)` move both iterates. Kills the
/// `name -> ""/"xyzzy"`, `provenance -> ""/"xyzzy"`, `schedule -> String::new()/"xyzzy"`,
/// `x`/`y -> Vec::leak(..)`, `init -> ()`, `step -> Default::default()` and `beta_at -> 0/1/-1`
/// mutants of `DualSmoothing`, `SpFw`, `Agp`, `Boroun` and of `<impl Solver for Box<S>>`.
#[test]
fn every_registry_solver_reports_its_identity_directly_and_through_a_box() {
    let (p, o) = every_entry_options();
    let (x0, y0) = ([0.5], [-0.5]);
    // beta_1: C 2^-b = 2 / sqrt 2 with the overrides C = 2, b = 1/2 (Algorithms 1-3), mu = 1/4
    // (R-PDCG, CG-RPGA), 0 otherwise (SP-FW: the trait's default; AGP: c_k = 0 for mu > 0)
    let paper = Options {
        beta0: Some(2.0),
        b: Some(0.5),
        ..o.clone()
    };
    let horizon = Options {
        beta0: Some(0.25),
        ..o.clone()
    };
    let sqrt2 = 2f64.sqrt();
    let forms = [
        ("lmo-lmo", "tau=anytime(c=1,", &paper, sqrt2),
        ("lmo-po", "tau=anytime(c=1,", &paper, sqrt2),
        ("po-lmo", "tau=po-lmo(", &paper, sqrt2),
        ("sp-fw", "gamma=shifted(c=2,s=2,a=1)", &o, 0.0),
        ("agp", "xu-thm-3.1: primal=const(", &o, 0.0),
        ("r-pdcg", "tau=const(", &horizon, 0.25),
        ("cg-rpga", "tau=const(", &horizon, 0.25),
    ];
    for (info, (name, form, o, beta_1)) in registry::ALGORITHMS.iter().zip(forms) {
        assert_eq!(info.name, name);
        let mut a = info.build(&p, o).unwrap().solver;
        let mut b = info.build(&p, o).unwrap().solver;
        let via_box = through(&mut a, &p, &x0, &y0, 3);
        let via_dyn = through(b.as_mut(), &p, &x0, &y0, 3);
        assert_eq!(via_box, via_dyn, "{name}");
        let (n, schedule, provenance, infos, x, y, beta) = via_dyn;
        close(beta, beta_1, name);
        assert_eq!(n, name);
        assert_eq!(provenance, info.provenance, "{name}");
        assert!(provenance.len() > 20, "{name}: {provenance}");
        assert!(schedule.starts_with(form), "{name}: {schedule}");
        assert!(infos.iter().all(|i| i.tau > 0.0), "{name}: {infos:?}");
        assert!(x != x0 && y != y0, "{name}: {x:?} {y:?}");
        assert_eq!(x.len(), 1, "{name}");
        assert_eq!(y.len(), 1, "{name}");
    }
}

/// A solver of yours that implements only what the trait requires.
struct Minimal(Vec<f64>);

impl Solver for Minimal {
    fn name(&self) -> &'static str {
        "minimal"
    }
    fn init(&mut self, _: &dyn SaddleProblem, x0: &[f64], _: &[f64]) {
        self.0 = x0.to_vec();
    }
    fn step(&mut self, _: &dyn SaddleProblem, _: usize) -> StepInfo {
        StepInfo::default()
    }
    fn x(&self) -> &[f64] {
        &self.0
    }
    fn y(&self) -> &[f64] {
        &self.0
    }
}

/// The trait's defaults: no smoothing (`beta_t = 0`), an empty schedule and provenance, also
/// through a box (kills `Solver::beta_at -> 1/-1`, `Solver::schedule -> "xyzzy"` and
/// `Solver::provenance -> "xyzzy"`).
#[test]
fn trait_defaults_are_no_smoothing_and_empty_texts() {
    let m = Minimal(vec![]);
    assert_eq!((m.beta_at(0), m.beta_at(7)), (0.0, 0.0));
    assert_eq!((m.schedule(), m.provenance()), (String::new(), ""));
    let mut b: Box<dyn Solver> = Box::new(Minimal(vec![]));
    let (name, schedule, provenance, _, x, _, beta) =
        through(&mut b, &bilinear_1d(1.0), &[0.5], &[0.5], 1);
    assert_eq!(
        (name.as_str(), schedule.as_str(), provenance.as_str(), beta),
        ("minimal", "", "", 0.0)
    );
    assert_eq!(x, [0.5]);
}

/// The primitive steps on `[-1, 1]` by hand (kills operator swaps in `move_towards`,
/// `smoothed_gradient`, `po_step`, `short_step` and `dual_lmo_step`, and their replacement by
/// `()` or a constant):
/// * `move_towards((2, -1), (0, 3), 1/4) = (3/2, 0)`;
/// * `smoothed_gradient`: `1 - 3 (1/2 - (-3/2)) = -5`;
/// * `po_step`: `P(1/2 + 1/4 (-2)) = 0`;
/// * `short_step` with `d = u - y = (1/2, 1)`, `g = (1, 2)`: `g.d = 5/2`, `|d|^2 = 5/4`, so
///   `5/2 / (4 * 5/4) = 1/2` at curvature 4, 2 unclipped at curvature 1 (1 clipped), 1 (inf
///   unclipped) at curvature 0, 0 when `g.d = 0` or `u = y`, NaN for a NaN in g or curvature;
/// * `dual_lmo_step` from `y = 0` with `g = 2`, curvature 4: `u = LMO(-g) = 1`, gamma = 1/2.
#[test]
fn primitive_steps_by_hand() {
    use saddlefw::sets::BoxSet;
    use saddlefw::solvers::steps::*;
    let unit = BoxSet::new(vec![-1.0], vec![1.0]).unwrap();
    let mut x = [2.0, -1.0];
    move_towards(&mut x, &[0.0, 3.0], 0.25);
    assert_eq!(x, [1.5, 0.0]);
    let mut out = [0.0];
    smoothed_gradient(&[1.0], &[0.5], &[-1.5], 3.0, &mut out);
    assert_eq!(out, [-5.0]);
    let (mut x, mut z) = ([0.5], [0.0]);
    po_step(&unit, &mut x, &[-2.0], 0.25, &mut z);
    assert_eq!(x, [0.0]);
    let (g, y, u) = ([1.0, 2.0], [0.5, 0.0], [1.0, 1.0]);
    assert_eq!(short_step(&g, &y, &u, 4.0, true), 0.5);
    assert_eq!(short_step(&g, &y, &u, 1.0, false), 2.0);
    assert_eq!(short_step(&g, &y, &u, 1.0, true), 1.0);
    assert_eq!(short_step(&g, &y, &u, 0.0, true), 1.0);
    assert_eq!(short_step(&g, &y, &u, 0.0, false), f64::INFINITY);
    assert_eq!(short_step(&[0.0, 0.0], &y, &u, 0.0, true), 0.0);
    assert_eq!(short_step(&[-1.0, 0.0], &y, &u, 1.0, true), 0.0);
    assert_eq!(short_step(&g, &u, &u, 4.0, true), 0.0);
    assert!(short_step(&[f64::NAN, 2.0], &y, &u, 4.0, true).is_nan());
    assert!(short_step(&g, &y, &u, f64::NAN, true).is_nan());
    let (mut y, mut neg, mut u) = ([0.0], [0.0], [0.0]);
    assert_eq!(
        dual_lmo_step(&unit, &mut y, &[2.0], 4.0, true, &mut neg, &mut u),
        0.5
    );
    assert_eq!((y, u), ([0.5], [1.0]));
}

/// The horizon-K parameters of claims.md 2.4 by hand, and what the built solvers report:
/// R-PDCG `tau = K^-5/6`, `mu = 1e-2 K^-1/6` (mu = 0 problems; K = 64: 1/32 and 1/200),
/// `tau = 10 K^-3/4`, `mu = 0` (mu > 0; K = 16: 5/4, clipped to 1 by `Boroun::tau`); CG-RPGA
/// `tau = K^-3/4`, `mu = 1e-2 K^-1/4` (K = 16: 1/8, 1/200), `tau = 10 K^-1/2` (K = 16: 5/2).
/// Kills the operator and branch mutants of `RPdcgParams::horizon`, `CgRpgaParams::horizon`,
/// the accessors `Boroun::tau`/`mu` and `horizon_note`'s text.
#[test]
fn horizon_parameters_by_hand() {
    use saddlefw::solvers::cg_rpga::{cg_rpga, CgRpgaParams};
    use saddlefw::solvers::r_pdcg::{r_pdcg, RPdcgParams};
    let r = RPdcgParams::horizon(64, 0.0);
    close(r.tau, 1.0 / 32.0, "r-pdcg tau, mu = 0");
    close(r.mu, 0.005, "r-pdcg mu, mu = 0");
    let r = RPdcgParams::horizon(16, 0.5);
    close(r.tau, 1.25, "r-pdcg tau, mu > 0");
    assert_eq!(r.mu, 0.0);
    let c = CgRpgaParams::horizon(16, 0.0);
    close(c.tau, 0.125, "cg-rpga tau, mu = 0");
    close(c.mu, 0.005, "cg-rpga mu, mu = 0");
    assert_eq!(c.sigma, None);
    let c = CgRpgaParams::horizon(16, 0.5);
    close(c.tau, 2.5, "cg-rpga tau, mu > 0");
    assert_eq!((c.mu, c.sigma), (0.0, None));
    let k = Constants {
        alpha: Some(1.0),
        ..bilinear_1d(1.0).constants()
    };
    let s = r_pdcg(RPdcgParams::horizon(16, 0.5), &k).unwrap();
    assert_eq!((s.tau(), s.mu()), (1.0, 0.0));
    let s = cg_rpga(CgRpgaParams::horizon(16, 0.0), &k).unwrap();
    close(s.tau(), 0.125, "built cg-rpga tau");
    close(s.mu(), 0.005, "built cg-rpga mu");
    // the note of the built entry names K and the experiment whose values are used
    let flat = quadratic_1d((1.0, 1.0, 0.0), (0.0, 0.0));
    let o = Options {
        horizon: Some(16),
        ..Options::default()
    };
    let built = registry::build("cg-rpga", &flat, &o).unwrap();
    assert_eq!(
        built.notes[0],
        "horizon K = 16; mu = 0: the DL-experiment parameters of claims.md 2.4 (tau and mu frozen beyond K)"
    );
    let built = registry::build("cg-rpga", &bilinear_1d(1.0), &o).unwrap();
    assert!(
        built.notes[0].starts_with(
            "horizon K = 16; strongly concave problem: the robust-experiment parameters"
        ),
        "{:?}",
        built.notes
    );
}

/// R-PDCG's candidate-A step `min{1, alpha |g| / (4 curvature)}` by hand: `1 * 2 / 16 = 1/8`,
/// 1 when it exceeds 1 or when the curvature is 0 with `g != 0`, 0 when `g = 0` with zero
/// curvature (kills every operator and constant mutant of `candidate_a`).
#[test]
fn candidate_a_by_hand() {
    use saddlefw::solvers::boroun::candidate_a;
    assert_eq!(candidate_a(1.0, 2.0, 4.0), 0.125);
    assert_eq!(candidate_a(3.0, 2.0, 0.5), 1.0);
    assert_eq!(candidate_a(1.0, 3.0, 0.0), 1.0);
    assert_eq!(candidate_a(1.0, 0.0, 0.0), 0.0);
    assert!(candidate_a(1.0, f64::NAN, 0.0).is_nan());
}

/// Two steps of each Boroun baseline on `L = x^2/2 + x y - y^2/2` over `[-1, 1]^2` from
/// `(x, y) = (1/2, -1/2)` (`y0` the regularisation centre), `tau = 1/2`, `mu = 1/4`, by hand:
/// * CG-RPGA, sigma = 1/2: `g = (x - y) - mu (y - y0) = 1`, `y1 = -1/2 + 1/2 = 0`,
///   `grad_x = x + y1 = 1/2 -> LMO = -1`, `x1 = -1/4`; then `g = -1/4 - 1/8`, `y2 = -3/16`,
///   `grad_x = -7/16 -> +1`, `x2 = 3/8`.
/// * R-PDCG, alpha = 1, Lyy = 1: `g = 1`, `u = LMO_Y(-g) = 1`, `sigma = 1/(4 (1 + 1/4)) = 1/5`,
///   `y1 = -1/2 + 3/10 = -1/5`, `grad_x = 3/10 -> -1`, `x1 = -1/4`.
///
/// Kills the step mutants of `Boroun` (`-g`, `Lyy + mu`) and of `smoothed_gradient`.
#[test]
fn boroun_steps_by_hand() {
    use saddlefw::solvers::cg_rpga::{cg_rpga, CgRpgaParams};
    use saddlefw::solvers::r_pdcg::{r_pdcg, RPdcgParams};
    let p = bilinear_1d(1.0);
    let k = Constants {
        alpha: Some(1.0),
        ..p.constants()
    };
    let params = CgRpgaParams {
        tau: 0.5,
        mu: 0.25,
        sigma: Some(0.5),
    };
    let mut s = cg_rpga(params, &k).unwrap();
    s.init(&p, &[0.5], &[-0.5]);
    let i = s.step(&p, 0);
    assert_eq!((i.tau, i.beta, i.gamma), (0.5, 0.25, 0.5));
    assert_eq!((s.x(), s.y()), (&[-0.25][..], &[0.0][..]));
    s.step(&p, 1);
    close(s.y()[0], -0.1875, "cg-rpga y2");
    close(s.x()[0], 0.375, "cg-rpga x2");
    let mut s = r_pdcg(RPdcgParams { tau: 0.5, mu: 0.25 }, &k).unwrap();
    s.init(&p, &[0.5], &[-0.5]);
    let i = s.step(&p, 0);
    assert_eq!((i.tau, i.beta), (0.5, 0.25));
    close(i.gamma, 0.2, "r-pdcg sigma");
    close(s.y()[0], -0.2, "r-pdcg y1");
    close(s.x()[0], -0.25, "r-pdcg x1");
    assert!(
        s.schedule()
            .contains("sigma=min{1, 1 ||g||/(4 (Lyy + mu))}"),
        "{}",
        s.schedule()
    );
}

/// `beta_t = C (t+1)^-b` as `resolve_paper` resolves it for Algorithm 1: `C = 0` on a strongly
/// concave problem is the zero schedule (printed `beta=zero` in RUN.json's schedule), refused
/// with the `max{beta_t, mu} > 0` reason when `mu = 0`; the default `C = 1` and an override
/// `C = 2` are `anytime(c=C, a=b)`. Kills `resolve_paper`'s `c > 0` guard mutants (`>=`: C = 0
/// printed `anytime(c=0,..)`, open gap of campaign 3 seed 19; `true`/`false`/`==`/`<`) and the
/// `!beta.is_positive() && mu <= 0` refusal mutants.
#[test]
fn resolved_beta_of_c_zero_is_zero_and_needs_mu() {
    use saddlefw::solvers::defaults::resolve_paper;
    let sc = bilinear_1d(1.0); // mu = 1
    let flat = quadratic_1d((1.0, 1.0, 0.0), (0.0, 0.0)); // mu = 0
    let resolve = |p: &dyn SaddleProblem, o: &Options| {
        resolve_paper("lmo-lmo", &p.assumptions(), &p.constants(), o)
    };
    let c0 = Options {
        beta0: Some(0.0),
        b: Some(0.5),
        ..Options::default()
    };
    assert_eq!(resolve(&sc, &c0).unwrap().beta, Schedule::Zero);
    let built = registry::build("lmo-lmo", &sc, &c0).unwrap();
    assert!(
        built.solver.schedule().ends_with("; beta=zero"),
        "{}",
        built.solver.schedule()
    );
    let e = resolve(&flat, &c0).expect_err("C = 0 with mu = 0");
    assert!(
        e.to_string()
            .contains("needs a strongly concave problem (mu > 0)"),
        "{e}"
    );
    let c2 = Options {
        beta0: Some(2.0),
        b: Some(0.5),
        ..Options::default()
    };
    for p in [&sc as &dyn SaddleProblem, &flat] {
        let beta = resolve(p, &c2).unwrap().beta;
        assert_eq!(beta, Schedule::Anytime { c: 2.0, a: 0.5 });
    }
    let default = resolve(&flat, &Options::default()).unwrap();
    assert!(
        matches!(default.beta, Schedule::Anytime { c, .. } if c == 1.0),
        "{:?}",
        default.beta
    );
    // the theorem's own beta_t = 0 case on the strongly concave problem
    assert_eq!(
        resolve(&sc, &Options::default()).unwrap().beta,
        Schedule::Zero
    );
}

/// Every control prints as its name and parses back to itself; an unknown name is refused
/// (kills `Display for Control -> Ok(Default)`, `from_str -> Ok(Default)` and `==` -> `!=`).
#[test]
fn controls_print_and_parse_by_name() {
    let named = [
        (Control::Fault(Fault::None), "none"),
        (Control::Fault(Fault::ConstantTau), "constant-tau"),
        (Control::Fault(Fault::BetaIgnored), "beta-ignored"),
        (Control::Fault(Fault::DualAtNextX), "dual-at-next-x"),
        (Control::Fault(Fault::PrimalSignFlip), "primal-sign-flip"),
        (Control::Fault(Fault::GammaUnclipped), "gamma-unclipped"),
        (Control::Fault(Fault::ExtraProjection), "extra-projection"),
        (Control::TauExponent(0.5), "tau-exponent+0.5"),
        (Control::BetaExponent(-0.25), "beta-exponent-0.25"),
    ];
    for (c, name) in named {
        assert_eq!(c.to_string(), name);
        assert_eq!(name.parse::<Control>().unwrap(), c, "{name}");
    }
    assert!("constant-step".parse::<Control>().is_err());
    assert!("tau-exponent+x".parse::<Control>().is_err());
}

/// The `extra-projection` control wraps the real solver: same name, schedule, provenance,
/// steps, iterates and beta as the uncontrolled Algorithm 1, directly and through a box
/// (kills the forwarding mutants of `<impl Solver for ExtraProjection>` and `Control::apply`).
#[test]
fn extra_projection_control_forwards_everything() {
    let p = bilinear_1d(1.0);
    let o = Options {
        beta0: Some(2.0),
        b: Some(0.5),
        ..Options::default()
    };
    let spec = SolverSpec::new("lmo-lmo").options(o);
    let control = Some(Control::Fault(Fault::ExtraProjection));
    let mut plain = spec.build(&p).unwrap().solver;
    let mut a = spec.clone().control(control).build(&p).unwrap().solver;
    let mut b = spec.control(control).build(&p).unwrap().solver;
    let want = through(plain.as_mut(), &p, &[0.5], &[-0.5], 3);
    assert_eq!(through(&mut a, &p, &[0.5], &[-0.5], 3), want);
    assert_eq!(through(b.as_mut(), &p, &[0.5], &[-0.5], 3), want);
    close(want.6, 2f64.sqrt(), "beta_1 = 2 * 2^-1/2");
    assert_eq!(want.0, "lmo-lmo");
}

/// Per-iteration oracle profiles by hand (LMO/PO on each block, one gradient of each) and the
/// counts they predict after 3 iterations; a count off by one is reported (kills
/// `OracleProfile::of/expected/check` and `profile` mutants: every field is 1 for some entry).
#[test]
fn oracle_profiles_by_hand() {
    use saddlefw::counting::OracleCounts;
    // (lmo_x, lmo_y, proj_x, proj_y)
    let want = [
        ("lmo-lmo", [1, 1, 0, 0]),
        ("lmo-po", [1, 0, 0, 1]),
        ("po-lmo", [0, 1, 1, 0]),
        ("sp-fw", [1, 1, 0, 0]),
        ("agp", [0, 0, 1, 1]),
        ("r-pdcg", [1, 1, 0, 0]),
        ("cg-rpga", [1, 0, 0, 1]),
    ];
    for (info, (name, [lx, ly, px, py])) in registry::ALGORITHMS.iter().zip(want) {
        assert_eq!(info.name, name);
        let counts = OracleCounts {
            lmo_x: 3 * lx,
            lmo_y: 3 * ly,
            proj_x: 3 * px,
            proj_y: 3 * py,
            grad_x: 3,
            grad_y: 3,
            value: 0,
            inner: 0,
        };
        assert_eq!(info.profile.expected(3), counts, "{name}");
        assert_eq!(info.profile.check(3, &counts), Ok(()), "{name}");
        let off = OracleCounts {
            grad_y: 4,
            ..counts
        };
        let e = info.profile.check(3, &off).unwrap_err();
        assert!(
            e.starts_with("oracle counts after 3 iterations differ"),
            "{e}"
        );
    }
}

/// The option guards of `build_controlled`, each with its reason: a flag the algorithm does not
/// take (listing what it takes, or "none"), a full schedule with its parts, `K = 0`, a control
/// on a baseline; and `find`'s unknown name (kills the guard mutants of `build_controlled` and
/// `find`'s `==` -> `!=`).
#[test]
fn build_guards_name_their_reason() {
    let p = bilinear_1d(1.0);
    let err = |name: &str, o: Options, control: Option<Control>| {
        SolverSpec::new(name)
            .options(o)
            .control(control)
            .build(&p)
            .err()
            .unwrap_or_else(|| panic!("{name} accepted"))
            .to_string()
    };
    let a = Options {
        a: Some(0.5),
        ..Options::default()
    };
    let e = err("sp-fw", a.clone(), None);
    assert!(
        e.contains("is not a parameter of sp-fw (it takes: none)"),
        "{e}"
    );
    let e = err("r-pdcg", a.clone(), None);
    // the library names the Options fields (the CLI shows its flags)
    assert!(
        e.contains("(it takes: Options::tau0, Options::beta0, Options::horizon)"),
        "{e}"
    );
    let full = Options {
        tau: Some(Schedule::Constant(0.5)),
        ..a
    };
    let e = err("lmo-lmo", full, None);
    assert!(
        e.contains("invalid Options::tau: cannot be combined with Options::a"),
        "{e}"
    );
    let k0 = Options {
        horizon: Some(0),
        ..Options::default()
    };
    assert!(err("cg-rpga", k0, None).contains("K must be at least 1"));
    let gamma = Some(Control::Fault(Fault::GammaUnclipped));
    let e = err("agp", Options::default(), gamma);
    assert!(
        e.contains("gamma-unclipped breaks one of Algorithms 1-3, not agp"),
        "{e}"
    );
    let e = err("nope", Options::default(), None);
    assert!(
        e.contains("unknown algorithm \"nope\" (expected one of lmo-lmo, lmo-po"),
        "{e}"
    );
    for info in registry::ALGORITHMS.iter() {
        assert_eq!(registry::find(info.name).unwrap().name, info.name);
    }
    // accepted flags pass the guard and set the parameters
    let (p, o) = every_entry_options();
    let o = Options {
        horizon: Some(5),
        tau0: Some(0.5),
        ..o
    };
    let built = SolverSpec::new("r-pdcg").options(o).build(&p).unwrap();
    let s = built.solver.schedule();
    assert!(
        s.starts_with("tau=const(0.5); mu=const(0); sigma=min{1, 1 "),
        "{s}"
    );
    assert_eq!(built.notes[1], "--tau0 sets tau");
}

/// `register` takes a non-empty `[a-z0-9-]` word not yet taken, and `find`/`algorithms` then
/// know it (kills the name-check mutants of `register`, `algorithms -> vec![]`).
#[test]
fn register_checks_the_name() {
    use saddlefw::paper::Oracle;
    use saddlefw::solvers::registry::{AlgorithmInfo, Built, OracleProfile};
    const fn info(name: &'static str) -> AlgorithmInfo {
        AlgorithmInfo::new(
            name,
            "test",
            "test",
            "test",
            OracleProfile::of(Oracle::Lmo, Oracle::Lmo),
            &[],
            |_, _| Ok(Built::plain(Box::new(Minimal(vec![])))),
        )
    }
    for bad in ["", "Upper", "a b", "x_y", "lmo-lmo"] {
        assert!(registry::register(info(bad)).is_err(), "{bad:?}");
    }
    let name = "mutants-solvers-9";
    let entry = registry::register(info(name)).unwrap();
    assert_eq!(entry.name, name);
    assert!(registry::register(info(name)).is_err());
    assert_eq!(registry::find(name).unwrap().name, name);
    let all = registry::algorithms();
    assert_eq!(all[0].name, "lmo-lmo");
    assert!(all.iter().any(|a| a.name == name));
    let built = registry::build(name, &bilinear_1d(1.0), &Options::default()).unwrap();
    assert_eq!(built.solver.name(), "minimal");
    assert_eq!(built.default_sigma, saddlefw::paper::BASELINE_SIGMA);
    assert!(built.notes.is_empty() && built.theorem_case.is_none());
}

/// AGP's Xu Thm 3.1 parameters (`mu > 0`) by hand: `rho = mu/(4 Lyy^2)`,
/// `eta = 2 max{Lxx, Lyx^2 rho + 4 Lyx^2/(rho mu^2)}`; with `Lyx = Lyy = 3`, `mu = 2`:
/// `rho = 1/18`, `eta = 2 (1/2 + 162) = 325` (`Lxx = 1`) or `2 Lxx = 2000` (`Lxx = 1000`).
/// Refusals: `Lyy = 0` (rho undefined), an infinite eta, a non-positive `beta_1` of Thm 3.2
/// (`Lyx = 1/10`, `Lxx = -1`: tau at its floor 4, `0.0005 + 0.64/18.05 - 0.05 < 0`). Kills the formula and guard
/// mutants of `AgpParams::paper` and `dual_step`.
#[test]
fn agp_strongly_concave_parameters_by_hand() {
    use saddlefw::solvers::agp::AgpParams;
    let k = |lxx: f64, lyx: f64, lyy: f64, mu: f64| Constants {
        lxx,
        lyx,
        lyy,
        mu,
        ..bilinear_1d(1.0).constants()
    };
    let params = |c: Constants| match AgpParams::paper(&c).unwrap() {
        AgpParams::StronglyConcave { rho, eta } => (rho, eta),
        other => panic!("mu > 0 is Thm 3.1: {other:?}"),
    };
    let (rho, eta) = params(k(1.0, 3.0, 3.0, 2.0));
    assert_eq!(rho, 1.0 / 18.0);
    close(eta, 325.0, "eta, Lyx term");
    let (_, eta) = params(k(1000.0, 3.0, 3.0, 2.0));
    close(eta, 2000.0, "eta, Lxx term");
    let p = AgpParams::paper(&k(1.0, 3.0, 3.0, 2.0)).unwrap();
    assert_eq!(
        (p.dual_step(), p.beta_k(7), p.c_k(3)),
        (1.0 / 18.0, eta_of(&p), 0.0)
    );
    let err = |c: Constants| AgpParams::paper(&c).unwrap_err().to_string();
    assert!(err(k(1.0, 3.0, 0.0, 2.0)).contains("needs L_yy > 0"));
    assert!(err(k(1.0, f64::INFINITY, 3.0, 2.0)).contains("not a positive number"));
    assert!(err(k(-1.0, 0.1, 1.0, 0.0)).contains("gives beta_1 ="));
    let concave = AgpParams::paper(&k(0.0, 1.0, 1.0, 0.0)).unwrap();
    assert_eq!(concave.dual_step(), 0.05);
}

fn eta_of(p: &saddlefw::solvers::agp::AgpParams) -> f64 {
    match *p {
        saddlefw::solvers::agp::AgpParams::StronglyConcave { eta, .. } => eta,
        _ => f64::NAN,
    }
}

/// One AGP step of each regime on a 1-D problem over `[-1, 1]^2`, from `(x0, y0) = (1/2, 1/2)`,
/// by Xu's update (x first, then y at `x_{k+1}`):
/// * Thm 3.1 on `L = x^2/2 + x y - y^2/2` (rho = 1/4, eta = 2 (1/4 + 16) = 65/2): `grad_x = 1`,
///   `x1 = 1/2 - 2/65 = 61/130`; `grad_y = x1 - y0 = -2/65`, `y1 = 1/2 - 1/130 = 32/65`.
/// * Thm 3.2 on `L = x y` (Lxx = 0, Lyx = 1: tau = 4, `c_k = 19 k^-1/4`,
///   `beta_k = 1/20 + 64/(c_k^2/20) - 1/20`): `x1 = 1/2 - 1/(2 beta_1)`, `y1 = 1/2 + x1/20`
///   (y = y0, so c_1 does not act); then `x2 = x1 - y1/beta_2`,
///   `y2 = y1 + (x2 - c_2 (y1 - y0))/20`.
///
/// Also the reported step parameters and the Thm 3.2 schedule text. Kills `Agp::step`'s
/// operator and order mutants, `beta_at` and the `schedule` strings.
#[test]
fn agp_steps_by_hand() {
    use saddlefw::solvers::agp::{Agp, AgpParams};
    let p = bilinear_1d(1.0);
    let mut s = Agp::new(AgpParams::paper(&p.constants()).unwrap());
    s.init(&p, &[0.5], &[0.5]);
    let i = s.step(&p, 0);
    close(i.tau, 2.0 / 65.0, "Thm 3.1 primal step");
    assert_eq!((i.beta, i.gamma), (0.0, 0.25));
    close(s.x()[0], 61.0 / 130.0, "Thm 3.1 x1");
    close(s.y()[0], 32.0 / 65.0, "Thm 3.1 y1");

    let q = quadratic_1d((0.0, 1.0, 0.0), (0.0, 0.0));
    let params = AgpParams::paper(&q.constants()).unwrap();
    let c = |k: f64| 19.0 * k.powf(-0.25);
    let beta = |k: f64| 64.0 / (c(k) * c(k) / 20.0);
    let mut s = Agp::new(params);
    s.init(&q, &[0.5], &[0.5]);
    let i = s.step(&q, 0);
    close(i.tau, 1.0 / beta(1.0), "Thm 3.2 primal step 1/beta_1");
    close(i.beta, c(1.0), "c_1");
    assert_eq!(i.gamma, 0.05);
    let x1 = 0.5 - 0.5 / beta(1.0);
    let y1 = 0.5 + x1 / 20.0;
    close(s.x()[0], x1, "Thm 3.2 x1");
    close(s.y()[0], y1, "Thm 3.2 y1");
    s.step(&q, 1);
    let x2 = x1 - y1 / beta(2.0);
    close(s.x()[0], x2, "Thm 3.2 x2");
    close(
        s.y()[0],
        y1 + (x2 - c(2.0) * (y1 - 0.5)) / 20.0,
        "Thm 3.2 y2",
    );
    close(s.beta_at(1), c(2.0), "beta_at(1) = c_2");
    assert!(s.schedule().starts_with(
        "xu-thm-3.2: primal=1/beta_k, beta_k=rho_bar L_y^2 + 16 tau L_y^2/(rho_bar c_k^2) - eta_bar; c_k=anytime(c=19,a=0.25); rho_bar=0.05; eta_bar=0.05; tau=4; L_y=1"
    ), "{}", s.schedule());
}
