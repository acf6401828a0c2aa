//! Issue 34: the checks added for verdicts calibrated against the theorems, each with its
//! negative control (a broken variant the check must reject).

use saddlefw::calibration::{role, Role, Variant};
use saddlefw::prelude::*;
use saddlefw::solvers::{Control, DualSmoothing, Fault, Schedule};
use saddlefw::verify::hard::{Confirmation, HARD_MARGIN};
use saddlefw::verify::questions::{Answers, Question};
use saddlefw::verify::schedule_check::{check, check_tau};
use saddlefw::verify::{self, GateStatus, TierConfig, VerifyOptions};

fn tiny(filter: &str) -> VerifyOptions {
    let mut o = VerifyOptions::new(Tier::Test).filter(filter);
    o.config = Some(TierConfig {
        seeds: 2,
        t_max: 1024,
        dim_x: 6,
        dim_y: 4,
    });
    o
}

fn entry<'a>(r: &'a verify::VerifyReport, id: &str) -> &'a verify::EntryResult {
    r.entries.iter().find(|e| e.id == id).unwrap()
}

/// The schedule check passes another constant and an index offset (legitimate) and fails
/// another exponent (negative control), for beta_t and for tau_t.
#[test]
fn schedule_check_allows_constants_and_offsets_not_exponents() {
    let entry = Schedule::Anytime { c: 1.0, a: 0.25 };
    let used = |s: Schedule| (0..=16384).map(|t| (t, s.at(t))).collect::<Vec<_>>();
    for ok in [
        Schedule::Anytime { c: 0.5, a: 0.25 },
        Schedule::Anytime { c: 2.0, a: 0.25 },
        Schedule::Shifted {
            c: 1.0,
            s: 2.0,
            a: 0.25,
        },
    ] {
        assert!(check(&entry, &used(ok), true).holds, "{ok}");
        assert!(check_tau(&entry, &used(ok)).unwrap().holds, "{ok}");
    }
    for bad in [
        Schedule::Anytime { c: 1.0, a: 0.15 },
        Schedule::Anytime { c: 1.0, a: 0.35 },
    ] {
        assert!(!check(&entry, &used(bad), true).holds, "{bad}");
        assert!(!check_tau(&entry, &used(bad)).unwrap().holds, "{bad}");
    }
    // a zero, negative or NaN value where the theorem has C > 0 fails
    let mut holes = used(entry);
    holes[7].1 = 0.0;
    assert!(!check(&entry, &holes, true).holds);
    holes[7].1 = f64::NAN;
    assert!(!check(&entry, &holes, true).holds);
    // beta_t > 0 where the theorem sets beta_t = 0 fails; zeros pass
    assert!(!check(&Schedule::Zero, &used(entry), true).holds);
    assert!(check(&Schedule::Zero, &used(Schedule::Zero), true).holds);
    // a solver that reports no tau_t is not checked on it
    assert!(check_tau(&entry, &used(Schedule::Zero)).is_none());
}

/// Through verify: the faulty exponent shift fails the schedule gate, a legitimate constant
/// passes it, and `H_t` follows the solver's own beta_t (declared).
#[test]
fn schedule_gate_in_verify() {
    let id = "lmo-lmo/c-c/dual";
    let legit = verify::run(&theorems(), &tiny(id).control(Control::BetaScale(2.0))).unwrap();
    let e = entry(&legit, id);
    assert_eq!(
        e.gates.schedule,
        GateStatus::Pass,
        "{:?}",
        e.instances[0].schedule
    );
    assert!(e
        .instances
        .iter()
        .all(|r| r.schedule.iter().all(|s| s.declared)));
    let c = e.instances[0]
        .schedule
        .iter()
        .find(|s| s.name == "beta_t")
        .unwrap();
    assert!((c.c_hat.unwrap() - 2.0).abs() < 1e-6, "{c:?}");
    let faulty = verify::run(&theorems(), &tiny(id).control(Control::BetaExponent(-0.1))).unwrap();
    let e = entry(&faulty, id);
    assert_eq!(e.gates.schedule, GateStatus::Fail);
    assert!(e.failed_gates.contains(&"schedule".to_string()));
    assert_eq!(
        e.answers.as_ref().unwrap().conformance.status,
        GateStatus::Fail
    );
    let faulty = verify::run(&theorems(), &tiny(id).control(Control::TauExponent(0.1))).unwrap();
    assert_eq!(entry(&faulty, id).gates.schedule, GateStatus::Fail);
}

fn theorems() -> Vec<saddlefw::theorems::TheoremEntry> {
    saddlefw::theorems::builtin()
}

/// A user's solver that steps with 2 beta_t: measured with the beta_t it reports (declared),
/// H_t follows it; one that reports none is measured with the entry's (not declared).
#[test]
fn h_t_follows_the_solvers_own_smoothing() {
    let id = "lmo-lmo/c-c/dual";
    let build = |hide: bool| scaled_beta(DualSmoothing::lmo_lmo, 2.0, hide.then_some(0.0));
    let sizes = TierConfig {
        seeds: 1,
        t_max: 512,
        dim_x: 6,
        dim_y: 4,
    };
    for hide in [false, true] {
        let out = RateCheck::builtin(id)
            .sizes(sizes)
            .solver_fn("beta-x2", build(hide))
            .run()
            .unwrap();
        let e = entry(&out.report, id);
        let s = e.instances[0]
            .schedule
            .iter()
            .find(|s| s.name == "beta_t")
            .unwrap();
        assert_eq!(s.declared, !hide, "{s:?}");
        let expect = if hide { 1.0 } else { 2.0 };
        assert!((s.c_hat.unwrap() - expect).abs() < 1e-6, "{s:?}");
    }
}

/// A solver factory of `algorithm` stepping with `factor` times the entry's beta_t constant:
/// declared to the harness (`reports` = `None`), or reporting `beta_at` = `v` whatever it steps
/// with (`Some(v)`, see [`Reports`]: 0 hides its smoothing).
fn scaled_beta(
    algorithm: fn(Schedule, Schedule, &Constants) -> saddlefw::Result<DualSmoothing>,
    factor: f64,
    reports: Option<f64>,
) -> impl Fn(&SolverRequest) -> saddlefw::Result<Box<dyn Solver>> + Send + Sync + 'static {
    move |req: &SolverRequest| {
        let beta = match req.schedule.beta {
            Schedule::Anytime { c, a } => Schedule::Anytime { c: factor * c, a },
            other => other,
        };
        let s = algorithm(req.schedule.tau, beta, req.constants)?;
        Ok(match reports {
            Some(v) => Box::new(Reports(s, v)) as Box<dyn Solver>,
            None => Box::new(s),
        })
    }
}

/// `RateCheck` of `id` at `sizes` on the random instances only, with `factory`.
fn random_only(
    id: &str,
    sizes: TierConfig,
    name: &'static str,
    factory: impl Fn(&SolverRequest) -> saddlefw::Result<Box<dyn Solver>> + Send + Sync + 'static,
) -> Outcome {
    RateCheck::builtin(id)
        .sizes(sizes)
        .hard_instances(false)
        .solver_fn(name, factory)
        .run()
        .unwrap()
}

/// DualSmoothing that reports `beta_at` = `.1` to the harness whatever it steps with: 0 hides
/// its smoothing, a positive value claims one it does not use.
struct Reports(DualSmoothing, f64);
impl Solver for Reports {
    fn name(&self) -> &str {
        "reports"
    }
    fn init(&mut self, p: &dyn SaddleProblem, x0: &[f64], y0: &[f64]) {
        self.0.init(p, x0, y0)
    }
    fn step(&mut self, p: &dyn SaddleProblem, t: usize) -> StepInfo {
        self.0.step(p, t)
    }
    fn x(&self) -> &[f64] {
        self.0.x()
    }
    fn y(&self) -> &[f64] {
        self.0.y()
    }
    fn beta_at(&self, _t: usize) -> f64 {
        self.1
    }
}

/// A rate gate whose threshold p - tol is at or below 0 is `vacuous`, never `pass`; the three
/// questions are answered apart and the reference question gates only when asked.
#[test]
fn vacuous_gates_and_the_three_questions() {
    let gates = vec![
        ("rate".to_string(), GateStatus::Vacuous),
        ("envelope".to_string(), GateStatus::Pass),
        ("baseline".to_string(), GateStatus::Fail),
        ("hard-rate".to_string(), GateStatus::Vacuous),
    ];
    let a = Answers::of(&gates, false);
    assert_eq!(a.conformance.status, GateStatus::Pass);
    assert_eq!(a.rate_evidence.status, GateStatus::Vacuous);
    assert_eq!(a.rate_evidence.vacuous, ["rate", "hard-rate"]);
    assert_eq!(a.reference.status, GateStatus::Fail);
    assert!(!a.reference.gating);
    assert!(
        a.describe().contains("[reported, not gating]"),
        "{}",
        a.describe()
    );
    assert!(Answers::of(&gates, true).reference.gating);
    assert_eq!(Question::of("hard-baseline"), Question::Reference);
    assert_eq!(Question::of("hard-schedule"), Question::Conformance);
    assert_eq!(Question::of("mhat"), Question::RateEvidence);
    // through verify: po-lmo/nc-c's log allowance exceeds p at short horizons
    let id = "po-lmo/nc-c/primal";
    let r = verify::run(&theorems(), &tiny(id)).unwrap();
    let e = entry(&r, id);
    let tol = e.tol.unwrap();
    if e.p - tol <= 0.0 {
        assert_eq!(e.gates.rate, GateStatus::Vacuous, "tol {tol}");
    } else {
        assert_ne!(e.gates.rate, GateStatus::Vacuous, "tol {tol}");
    }
}

/// The confirmation of a failed hard rate: it fails below p - tol - HARD_MARGIN only.
#[test]
fn hard_rate_confirmation_threshold() {
    let c = |hi: f64| Confirmation {
        horizon: 65536,
        p_hat: Some(hi - 0.01),
        ci: Some([hi - 0.02, hi]),
        window: Some([100, 65536]),
        tol: Some(0.05),
        rate_verdict: saddlefw::fit::Verdict::Fail,
    };
    let p = 0.25;
    assert!(!c(p - 0.05 - HARD_MARGIN + 1e-3).fails(p));
    assert!(c(p - 0.05 - HARD_MARGIN - 1e-3).fails(p));
}

/// The false alarm of the first calibration: PO-LMO with C / 2 (the theorem allows any C > 0)
/// on `po-lmo/c-c/dual`'s stored hard instance is still pre-asymptotic at 4 T; the confirmation
/// at CONFIRM_FACTOR T sees the claimed rate. Negative control: a tau_t exponent shifted by
/// 0.15 fails there, confirmation included.
#[test]
fn a_smaller_smoothing_constant_passes_the_hard_confirmation() {
    use saddlefw::verify::hard::CONFIRM_FACTOR;
    assert!(CONFIRM_FACTOR >= 16);
    let run = |control: Control| {
        let mut o = VerifyOptions::new(Tier::Quick).filter("po-lmo/c-c/dual");
        o.control = Some(control);
        o.gate_baselines = false; // as verify does for a control
        o.hard = Some(saddlefw::tightness::HardSource::Builtin.into());
        verify::run(&theorems(), &o).unwrap()
    };
    let legit = run("beta-scale*0.5".parse().unwrap());
    let e = entry(&legit, "po-lmo/c-c/dual");
    let hard = e
        .hard
        .as_ref()
        .expect("the entry has a stored hard instance");
    assert_eq!(hard.gates.rate, GateStatus::Pass, "{:?}", hard.confirmation);
    assert!(e.failed_gates.is_empty(), "{:?}", e.failed_gates);
    let faulty = run("tau-exponent+0.15".parse().unwrap());
    let e = entry(&faulty, "po-lmo/c-c/dual");
    assert!(
        !e.failed_gates.is_empty(),
        "a shifted tau exponent must fail: {:?}",
        e.gates
    );
}

/// User envelopes: a constant that is not a positive number is an input error; one that is
/// not positive at some compared T fails the envelope gate (every T is compared).
#[test]
fn user_envelopes_that_bound_nothing() {
    let file = |env: &str| {
        format!(
            r#"{{"format": "saddlefw-theorems", "version": 1, "entries": [
  {{"id": "u/c-sc/primal", "algorithm": "u", "solver": "lmo-lmo", "setting": "c-sc",
   "schedule": {{"a": 1, "b": 0, "C": 0}},
   "quantity": {{"measure": "gx_lmo", "aggregate": "mean_0_T"}}, "p": "1/4",
   "envelope": "{env}"}}]}}"#
        )
    };
    for constant in ["0", "-1", "log(-1)"] {
        let e = saddlefw::paper::user::parse("t.json", &file(constant)).unwrap_err();
        assert!(e.to_string().contains("envelope"), "{e}");
    }
    let sizes = TierConfig {
        seeds: 1,
        t_max: 512,
        dim_x: 6,
        dim_y: 4,
    };
    let judge = |env: &str| {
        let entries = saddlefw::paper::user::parse("t.json", &file(env)).unwrap();
        let r = RateCheck::entries(entries).sizes(sizes).run().unwrap();
        r.report.entries[0].gates.envelope
    };
    assert_eq!(judge("1e9 * (T+1)^(-1/4)"), GateStatus::Pass);
    // negative controls: zero at every T, and negative beyond T = 100
    assert_eq!(judge("0*T"), GateStatus::Fail);
    assert_eq!(judge("1e9 * (100 - T)"), GateStatus::Fail);
}

/// RateCheck's builder calls commute: the tier no longer resets baselines or hard instances.
#[test]
fn rate_check_builder_order_does_not_matter() {
    let b: saddlefw::fit::Baselines = [("lmo-lmo/c-c/dual".to_string(), 0.5)].into();
    let one = RateCheck::builtin("lmo-lmo/")
        .baselines(b.clone())
        .hard_instances(false)
        .tier(Tier::Quick)
        .options();
    let two = RateCheck::builtin("lmo-lmo/")
        .tier(Tier::Quick)
        .hard_instances(false)
        .baselines(b)
        .options();
    assert_eq!(format!("{one:?}"), format!("{two:?}"));
    assert!(one.hard.is_none());
    assert_eq!(one.baselines.len(), 1);
    assert!(one.gate_baselines);
    // without baselines of its own, a user's solver is not gated by the reference
    let user = RateCheck::builtin("lmo-lmo/")
        .tier(Tier::Quick)
        .solver_fn("x", |_r: &SolverRequest| unreachable!())
        .options();
    assert!(!user.gate_baselines);
}

/// The panels: legitimate variants by the proofs' hypotheses, faulty ones outside them.
#[test]
fn panel_roles_follow_the_hypotheses() {
    let table = theorems();
    let by_id = |id: &str| table.iter().find(|e| e.id == id).unwrap();
    let c = |c: Control| Variant::Control(c);
    // a = 1: tau/2 is faulty, tau*2 legitimate; a < 1: both legitimate
    assert_eq!(
        role(c(Control::TauScale(0.5)), by_id("lmo-lmo/c-sc/primal")),
        Role::Faulty
    );
    assert_eq!(
        role(c(Control::TauScale(2.0)), by_id("lmo-lmo/c-sc/primal")),
        Role::Legitimate
    );
    assert_eq!(
        role(c(Control::TauScale(0.5)), by_id("lmo-po/nc-c/dual")),
        Role::Legitimate
    );
    // no smoothing, no projection, no A: not applicable
    assert!(matches!(
        role(c(Control::BetaScale(2.0)), by_id("lmo-lmo/c-sc/primal")),
        Role::NotApplicable(_)
    ));
    assert!(matches!(
        role(
            c(Control::Fault(Fault::ClipNotProject)),
            by_id("lmo-lmo/nc-c/dual")
        ),
        Role::NotApplicable(_)
    ));
    assert!(matches!(
        role(c(Control::BigAScale(2.0)), by_id("lmo-po/nc-c/dual")),
        Role::NotApplicable(_)
    ));
    assert_eq!(
        role(c(Control::BigAScale(2.0)), by_id("po-lmo/nc-c/dual")),
        Role::Legitimate
    );
    assert_eq!(
        role(Variant::Seed(3), by_id("po-lmo/nc-c/dual")),
        Role::Legitimate
    );
    // every entry has at least 8 legitimate variants
    for e in &table {
        let n = saddlefw::calibration::variants()
            .into_iter()
            .filter(|v| role(*v, e) == Role::Legitimate)
            .count();
        assert!(n >= 8, "{}: {n}", e.id);
    }
}

/// The new controls parse back from their names and change the solver as documented.
#[test]
fn variant_controls_round_trip() {
    for c in [
        Control::TauScale(0.5),
        Control::TauOffset(1.0),
        Control::Offset(1.0),
        Control::BetaScale(2.0),
        Control::BigAScale(0.5),
        Control::StartOther,
        Control::FloatOrder,
        Control::Fault(Fault::DualStepDoubled),
        Control::Fault(Fault::StaleGradient),
        Control::Fault(Fault::ClipNotProject),
        Control::Fault(Fault::DualSkipOdd),
    ] {
        assert_eq!(c.to_string().parse::<Control>().unwrap(), c, "{c}");
    }
    assert!("tau-scale*0".parse::<Control>().is_err());
    assert!("offset+-1".parse::<Control>().is_err());
    // float-order changes rounding only: the same iterates to ~1e-12 over 200 steps, and not
    // the same bits (a variant that is the algorithm itself would test nothing)
    let inst = "quadratic/c-c:dx=6,dy=4,seed=3"
        .parse::<saddlefw::generators::GeneratorSpec>()
        .unwrap()
        .generate()
        .unwrap();
    let k = inst.problem.constants();
    let run = |ctl: Option<Control>| {
        let base = DualSmoothing::lmo_po(
            Schedule::Anytime { c: 1.0, a: 0.75 },
            Schedule::Anytime { c: 1.0, a: 0.25 },
            &k,
        )
        .unwrap();
        let mut s = match ctl {
            Some(c) => c.apply(base),
            None => Box::new(base),
        };
        s.init(inst.problem.as_ref(), &inst.x0, &inst.y0);
        for t in 0..200 {
            s.step(inst.problem.as_ref(), t);
        }
        (s.x().to_vec(), s.y().to_vec())
    };
    let (x, y) = run(None);
    let (xf, yf) = run(Some(Control::FloatOrder));
    let diff = x
        .iter()
        .chain(&y)
        .zip(xf.iter().chain(&yf))
        .map(|(a, b)| (a - b).abs())
        .fold(0.0, f64::max);
    assert!(diff < 1e-9, "{diff}");
    assert!(x != xf || y != yf, "float-order left every bit as it was");
    // the faults move the iterates away
    for f in [Fault::DualStepDoubled, Fault::DualSkipOdd] {
        let (xb, yb) = run(Some(Control::Fault(f)));
        let d = y
            .iter()
            .zip(&yb)
            .map(|(a, b)| (a - b).abs())
            .fold(0.0, f64::max)
            + x.iter()
                .zip(&xb)
                .map(|(a, b)| (a - b).abs())
                .fold(0.0, f64::max);
        assert!(d > 1e-6, "{f:?}: {d}");
    }
}

/// clip-not-project: feasible, but not the projection (negative control of the variant).
#[test]
fn clipped_step_is_feasible_but_not_the_projection() {
    use saddlefw::sets::{ConvexSet, Simplex};
    let set = Simplex::new(3, 1.0).unwrap();
    let x0 = [0.5, 0.25, 0.25];
    let d = [1.0, -2.0, 0.5];
    let (mut clipped, mut projected) = (x0.to_vec(), x0.to_vec());
    let mut z = vec![0.0; 3];
    saddlefw::solvers::steps::clipped_step(&set, &mut clipped, &d, 0.5, &mut z);
    saddlefw::solvers::steps::po_step(&set, &mut projected, &d, 0.5, &mut z);
    assert!(set.contains(&clipped, 1e-9), "{clipped:?}");
    let gap: f64 = clipped
        .iter()
        .zip(&projected)
        .map(|(a, b)| (a - b).abs())
        .sum();
    assert!(gap > 1e-3, "{clipped:?} vs {projected:?}");
    // a step that stays inside is the same as the projection
    let small = [0.01, -0.01, 0.0];
    let (mut a, mut b) = (x0.to_vec(), x0.to_vec());
    saddlefw::solvers::steps::clipped_step(&set, &mut a, &small, 1.0, &mut z);
    saddlefw::solvers::steps::po_step(&set, &mut b, &small, 1.0, &mut z);
    assert_eq!(a, b);
}

/// The fit floor sits at the rounding level of the instance's gaps (`64 eps` times
/// `measures::natural_scale`), not at that of the series' own maximum: a run whose quantity is
/// rounding noise at every T is `floor`, not fitted (issue 34: an outside solver whose iterates
/// differed by 7e-15 got an exponent from such a series). Negative control: the old rule (the
/// series' maximum as the scale) fits the same noise; a real decay far above the floor is fitted.
#[test]
fn rounding_noise_is_not_fitted() {
    use saddlefw::fit::{fit_series, FitConfig, SeriesFit};
    let o = VerifyOptions::new(Tier::Quick).filter("lmo-po/nc-c/dual");
    let mut o = o;
    o.hard = None;
    let report = verify::run(&theorems(), &o).unwrap();
    let e = entry(&report, "lmo-po/nc-c/dual");
    // one of the quick tier's quadratic instances starts at its dual optimum: G_Y is at the
    // rounding level throughout
    let run = e
        .instances
        .iter()
        .find(|r| matches!(r.fit, Some(SeriesFit::Floor { .. })))
        .expect("an instance at the rounding level");
    let inst = run
        .spec
        .parse::<saddlefw::generators::GeneratorSpec>()
        .unwrap()
        .generate()
        .unwrap();
    let floor = 64.0 * f64::EPSILON * saddlefw::measures::natural_scale(&inst);
    match run.fit {
        Some(SeriesFit::Floor { floor: f, .. }) => assert!((f - floor).abs() <= 1e-12 * floor),
        _ => unreachable!(),
    }
    assert!(run.series.iter().all(|p| p.1 <= floor), "{:?}", run.series);
    // negative control: scaled by its own maximum, the noise would be fitted
    let old = fit_series(&run.series, &FitConfig::default()).unwrap();
    assert!(matches!(old, SeriesFit::Fitted(_)), "{old:?}");
    // and a decay far above the floor is fitted under the new rule
    let decay: Vec<(u64, f64)> = (0..15)
        .map(|i| (1u64 << i, 1e3 * floor / (1u64 << i) as f64))
        .collect();
    let cfg = FitConfig {
        scale: Some(saddlefw::measures::natural_scale(&inst)),
        ..FitConfig::default()
    };
    assert!(matches!(
        fit_series(&decay, &cfg).unwrap(),
        SeriesFit::Fitted(_)
    ));
}

/// The verify page shows the stored calibration of this build's gates: it covers every entry
/// of the theorem table, and the page names false alarms and power gaps when there are any
/// (negative control: a summary with one of each).
#[test]
fn the_verify_page_shows_the_calibration() {
    use saddlefw::report::calibration::{section, stored, PowerSummary};
    let s = stored();
    for e in theorems() {
        assert!(s.min_margin.contains_key(&e.id), "{} not calibrated", e.id);
    }
    assert!(s.legitimate_variants >= 8);
    let html = section(&s, &["lmo-po/nc-c"]);
    assert!(html.contains("Calibration of the gates"));
    assert!(html.contains("lmo-po/nc-c/dual"));
    assert!(
        !html.contains("lmo-lmo/nc-c/dual"),
        "only the cases on the page"
    );
    let mut bad = s.clone();
    bad.false_alarms = vec!["lmo-po/nc-c/dual under seed=1 (rate)".to_string()];
    bad.power.push(PowerSummary {
        algorithm: "lmo-po".to_string(),
        variant: "dual-step-doubled".to_string(),
        entries: 4,
        caught: 0,
        not_rate_changing: None,
    });
    let html = section(&bad, &["lmo-po/nc-c"]);
    assert!(html.contains("false alarm: lmo-po/nc-c/dual under seed=1"));
    assert!(html.contains("not caught (power gap)"));
}

/// The explicit envelopes carry C of beta_t = C (t+1)^-b; the theorems allow any C > 0, so the
/// bound follows the C the solver declares (and the schedule gate accepts). LMO-PO with 10 C on
/// lmo-po/nc-c/dual: declared, the envelope holds; negative control: the same solver with its
/// smoothing hidden is bounded with the entry's C, and that bound fails.
#[test]
fn envelopes_follow_the_declared_smoothing_constant() {
    let id = "lmo-po/nc-c/dual";
    let build = |hide: bool| scaled_beta(DualSmoothing::lmo_po, 10.0, hide.then_some(0.0));
    let sizes = TierConfig {
        seeds: 2,
        t_max: 16384,
        dim_x: 20,
        dim_y: 10,
    };
    let ratio = |hide: bool| {
        let out = random_only(id, sizes, "beta-x10", build(hide));
        entry(&out.report, id).envelope_ratio.unwrap()
    };
    let declared = ratio(false);
    assert!(declared <= 1.0, "declared C: ratio {declared}");
    let hidden = ratio(true);
    assert!(
        hidden > 1.0,
        "the entry's C must not bound a 10 C run: ratio {hidden}"
    );
}

/// Where the theorem sets beta_t = 0 (`lmo-lmo/c-sc/dual`), a solver reporting beta_t = 0 has
/// declared nothing: its beta_t check is not a declaration, so it cannot make the schedule gate
/// pass (issue 34, item 6). Negative control: a solver that reports a positive beta_t there
/// fails the gate.
#[test]
fn a_zero_smoothing_is_not_a_declaration() {
    let id = "lmo-lmo/c-sc/dual";
    let sizes = TierConfig {
        seeds: 1,
        t_max: 512,
        dim_x: 6,
        dim_y: 4,
    };
    // the entry's own beta_t (= 0), reporting 0 or a positive beta_t it does not use
    let run = |claim: bool| {
        let reports = if claim { 0.1 } else { 0.0 };
        random_only(
            id,
            sizes,
            "beta-zero",
            scaled_beta(DualSmoothing::lmo_lmo, 1.0, Some(reports)),
        )
    };
    let out = run(false);
    let e = entry(&out.report, id);
    let beta = e.instances[0]
        .schedule
        .iter()
        .find(|s| s.name == "beta_t")
        .unwrap();
    assert!(!beta.declared && beta.holds, "{beta:?}");
    assert_ne!(e.gates.schedule, GateStatus::Fail);
    let out = run(true);
    let e = entry(&out.report, id);
    assert_eq!(
        e.gates.schedule,
        GateStatus::Fail,
        "{:?}",
        e.instances[0].schedule
    );
}
