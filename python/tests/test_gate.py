"""The in-process gate: a NumPy Algorithm 1 passes, its slowed variant fails, user theorem
files are gated, and the package behaves like a Python library (exceptions, Ctrl-C, bad input,
progress)."""

import json
import os
import signal
import threading
import time

import numpy as np
import pytest

import saddlefw
from solvers import FW, SlowedFW, fw_step

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
USER = os.path.join(ROOT, "fixtures", "user-theorems")
# every built-in LMO-LMO entry at the quick tier (16 entries, random families and the stored
# hard instances); SADDLEFW_PY_FULL=0 keeps the strongly concave case only (local runs)
LMO_LMO = "lmo-lmo/" if os.environ.get("SADDLEFW_PY_FULL", "1") != "0" else "lmo-lmo/c-sc+sc"


def small(entries="lmo-lmo/c-sc+sc/primal"):
    """A check that runs in about a second: 2 seeds, T_max = 256, no hard instances."""
    return saddlefw.RateCheck(entries, tier="test").sizes(2, 256, 6, 4).progress(False)


def test_algorithm_1_passes_every_lmo_lmo_entry():
    out = saddlefw.RateCheck(LMO_LMO, tier="quick").solver(FW).progress(False).run()
    out.assert_passed()
    assert out.passed and out.failures == []
    entries = out.report["entries"]
    assert len(entries) == (16 if LMO_LMO == "lmo-lmo/" else 2)
    assert all(e["hard"] is not None for e in entries), "the hard instances ran"
    families = {r["family"] for e in entries for r in e["instances"]}
    if LMO_LMO == "lmo-lmo/":
        assert any(f.startswith("cosine") for f in families), families
    assert out.report["solver"] == "FW"
    assert out.timing["steps"] > 0


def test_the_reference_question_is_not_applicable_at_the_test_tier():
    # the stored exponents are the quick tier's: at the test tier nothing is compared with them
    out = small().solver(SlowedFW).run()
    a = out.answers["lmo-lmo/c-sc+sc/primal"]
    assert a.reference.status == "not_applicable", a
    assert all(f.question != "reference" for f in out.failures + out.reported)


def test_the_slowed_variant_fails_the_hard_rate_gate():
    out = saddlefw.RateCheck("lmo-lmo/c-sc+sc/primal", tier="quick").solver(SlowedFW).progress(False).run()
    assert not out.passed
    gates = {f.gate for f in out.failures}
    assert "hard-rate" in gates, gates
    hard = out.report["entries"][0]["hard"]
    assert hard["p_hat"] < 0.5 - hard["tol"]  # failed for the right reason: too slow
    with pytest.raises(saddlefw.GateFailedError) as e:
        out.assert_passed()
    msg = str(e.value)
    assert msg == out.failure_message()
    # hard-rate fails (rate evidence); hard-baseline fails too but is reported, not gating,
    # for a user's solver (the reference question)
    assert msg.startswith('solver "SlowedFW" failed 1 gate(s) of built-in theorem table (quick tier, T_max = 16384):')
    assert [(f.gate, f.question) for f in out.reported] == [("hard-baseline", "reference")]
    # the rerun line is a Python call, not Rust's builder
    assert 'rerun: saddlefw.RateCheck(...).filter("lmo-lmo/c-sc+sc/primal").tier("quick")' in msg, msg
    assert "Tier::" not in msg, msg
    for f in out.failures:
        assert f.message in msg and f.entry == "lmo-lmo/c-sc+sc/primal"
        assert f.instances and f.instances[0] == "hard:lmo-lmo/c-sc+sc/primal"  # a run --problem value
    # the three questions: the slowed rate is rate evidence, not a conformance failure
    by_gate = {f.gate: f.question for f in out.failures}
    assert by_gate["hard-rate"] == "rate_evidence", by_gate
    a = out.answers["lmo-lmo/c-sc+sc/primal"]
    assert a.rate_evidence.status == "fail" and "hard-rate" in a.rate_evidence.failed
    assert a.rate_evidence.gating and not a.reference.gating  # a user's solver: reference reported only
    assert out.rows()[0]["rate_evidence"] == "fail"
    # failed gates that do not gate are reported apart, as verify.json's reported_gates
    reported = {(e["id"], g) for e in out.entries for g in e.get("reported_gates", [])}
    assert {(f.entry, f.gate) for f in out.reported} == reported
    assert all(f.question in saddlefw.QUESTIONS for f in out.failures + out.reported)


def test_a_user_claim_passes_and_a_false_one_fails():
    ok = saddlefw.RateCheck(theorems=os.path.join(USER, "sqrt-step.json"), tier="quick").solver(FW).progress(False).run()
    ok.assert_passed()
    assert [e["algorithm"] for e in ok.entries] == ["fw-sqrt-step", "fw-sqrt-step"]
    assert ok.entries[0]["gates"]["envelope"] == "pass"
    bad = saddlefw.RateCheck(theorems=os.path.join(USER, "false-claim.json"), tier="quick").solver(FW).progress(False).run()
    assert not bad.passed
    assert [f.gate for f in bad.failures] == ["rate", "rate"]
    assert "claimed p = 2" in bad.failures[0].detail


def test_a_step_function_is_a_solver_too():
    out = small().step_fn(fw_step).run()
    out.assert_passed()
    assert out.solver == "fw_step"


class Boom(FW):
    def step(self):
        if self.req.t == 7:
            raise ZeroDivisionError("boom at seven")
        super().step()


def test_an_exception_in_step_propagates_naming_the_job():
    with pytest.raises(ZeroDivisionError, match="boom at seven") as e:
        small().solver(Boom).run()
    notes = getattr(e.value, "__notes__", [])
    assert any("step t = 7 of job lmo-lmo/c-sc+sc on " in n and "instance " in n for n in notes), notes
    assert e.value.saddlefw_job.startswith("lmo-lmo/c-sc+sc on ")
    # no job had finished: the partial outcome holds none
    partial = e.value.saddlefw_outcome
    assert partial.interrupted["signal"] == "ZeroDivisionError" and partial.interrupted["done"] == 0
    assert not partial.passed


class BadInit:
    def __init__(self, req):
        raise KeyError("no such thing")


def test_an_exception_in_init_propagates_naming_the_job():
    with pytest.raises(KeyError) as e:
        small().solver(BadInit).run()
    assert any("building the solver of job lmo-lmo/c-sc+sc" in n for n in e.value.__notes__)


class WrongLength(FW):
    def step(self):
        super().step()
        self.x = self.x[:-1]


class Infeasible(FW):
    def step(self):
        super().step()
        if self.req.t == 3:
            self.x = self.x + 10.0


class NotTheStart(FW):
    def __init__(self, req):
        super().__init__(req)
        self.x = self.x + 1.0


@pytest.mark.parametrize(
    "solver, message",
    [
        (WrongLength, r"the solver's x after step t = 0 has length 5, expected 6"),
        (Infeasible, r"iterate t = 4: x is outside X by .* \(Euclidean distance; tolerance"),
        (NotTheStart, r"iterate t = 0: the solver's x after __init__ is not the start point request.x0"),
    ],
)
def test_bad_iterates_are_value_errors(solver, message):
    with pytest.raises(ValueError, match=message):
        small().solver(solver).run()


def test_bad_input_raises_value_error_with_the_crates_message(tmp_path):
    bad = tmp_path / "t.json"
    text = open(os.path.join(USER, "sqrt-step.json")).read().replace('"p": "1/4"', '"p": "x"', 1)
    bad.write_text(text)
    with pytest.raises(ValueError) as e:
        saddlefw.RateCheck(theorems=bad).solver(FW).run()
    assert str(e.value) == (
        f'{bad}: entry 0 (fw-sqrt-step/c-sc/primal): field p: "x": expected a fraction n/d in (0, 4]'
    )
    # a tier typo is refused where it is written, not at run()
    with pytest.raises(ValueError, match="tier: expected one of test, quick, full"):
        saddlefw.RateCheck("lmo-lmo/", tier="slow")
    with pytest.raises(ValueError, match="tier: expected one of test, quick, full"):
        saddlefw.RateCheck("lmo-lmo/").tier("quik")
    # an entry filter that selects nothing names the filter, not only the CLI's flag
    with pytest.raises(ValueError, match=r'invalid entry filter.*no theorem entry id contains "lmo-lmo/zz"'):
        saddlefw.RateCheck("lmo-lmo/zz").solver(FW).run()
    with pytest.raises(ValueError, match="missing.json: file: cannot read"):
        saddlefw.RateCheck(theorems=tmp_path / "missing.json").solver(FW).run()
    with pytest.raises(ValueError, match="no solver"):
        saddlefw.RateCheck("lmo-lmo/").run()


class Sleepy(FW):
    def step(self):
        time.sleep(0.001)
        super().step()


@pytest.fixture
def sigint_raises():
    """SIGINT raises KeyboardInterrupt, whatever this process inherited: a background job of a
    non-interactive shell (as each stream of .ci/run) starts with SIGINT ignored, and Python then
    installs no handler, so a real Ctrl-C test would wait for the whole check."""
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    yield
    signal.signal(signal.SIGINT, previous)


def test_ctrl_c_raises_keyboard_interrupt_promptly(sigint_raises):
    # a check of several minutes, interrupted by a real SIGINT after half a second
    check = saddlefw.RateCheck("lmo-lmo/", tier="quick").solver(Sleepy).progress(False)
    timer = threading.Timer(0.5, lambda: os.kill(os.getpid(), signal.SIGINT))
    start = time.monotonic()
    timer.start()
    with pytest.raises(KeyboardInterrupt):
        check.run()
    assert time.monotonic() - start < 5.0
    # the package is usable again afterwards
    small().solver(FW).run().assert_passed()


def without_times(v):
    if isinstance(v, dict):
        return {k: without_times(x) for k, x in v.items() if "time" not in k}
    if isinstance(v, list):
        return [without_times(x) for x in v]
    return v


class StopsOnce(FW):
    """Ctrl-C (a real SIGINT) while the third job runs, the first time only."""

    built = []
    stop_at = 3

    def __init__(self, req):
        super().__init__(req)
        StopsOnce.built.append(req.job)
        self.slow = len(StopsOnce.built) == StopsOnce.stop_at
        if self.slow:
            os.kill(os.getpid(), signal.SIGINT)

    def step(self):
        if self.slow:
            time.sleep(0.005)  # about 1.3 s for the job: the interrupt comes first
        super().step()


def test_ctrl_c_keeps_finished_work_and_resume_runs_only_the_rest(sigint_raises):
    check = lambda: small("lmo-lmo/c-sc+sc").solver(StopsOnce, name="FW").jobs(1)  # noqa: E731
    with pytest.raises(KeyboardInterrupt) as e:
        check().run()
    partial = e.value.saddlefw_outcome
    assert isinstance(partial, saddlefw.Outcome)
    # the two jobs finished before the interrupt are kept, the one it cut is not
    assert partial.interrupted == {"signal": "KeyboardInterrupt", "done": 2, "total": 4}
    assert not partial.passed and "INTERRUPTED after 2 of 4 jobs" in repr(partial)
    with pytest.raises(saddlefw.GateFailedError, match="interrupted by KeyboardInterrupt after 2 of 4 jobs"):
        partial.assert_passed()
    # resuming runs the two other jobs only, and gives the uninterrupted check's report
    StopsOnce.built, StopsOnce.stop_at = [], None
    resumed = check().resume(partial).run()
    assert len(StopsOnce.built) == 2 and resumed.passed and resumed.interrupted is None
    whole = check().run()
    assert without_times(resumed.report) == without_times(whole.report)
    # another check's settings are refused
    with pytest.raises(ValueError, match="the report to resume"):
        small("lmo-lmo/c-sc+sc").sizes(3, 256, 6, 4).solver(StopsOnce, name="FW").resume(partial).run()


def test_no_step_is_called_past_the_last_one_or_a_divergence():
    calls = {}

    class Record(FW):
        def step(self):
            calls.setdefault(self.req.job, []).append(self.req.t)
            super().step()

    small().solver(Record).run()
    # exactly the steps the harness asks for, in order, and none past a divergence
    assert len(calls) == 4 and all(ts == list(range(len(ts))) and len(ts) in (256, 257) for ts in calls.values())
    calls.clear()

    class Diverges(Record):
        def step(self):
            super().step()
            if self.req.t == 5:
                self.x = self.x * np.nan

    out = small().solver(Diverges).run()
    assert all(ts == list(range(6)) for ts in calls.values()), calls
    assert "run" in {f.gate for f in out.failures}


def test_the_request_outside_a_call_is_closed():
    kept = []

    class Keeper(FW):
        def __init__(self, req):
            super().__init__(req)
            kept.append(req)

    small().solver(Keeper).run()
    req = kept[0]
    assert req.dim_x == 6 and req.tau.shape == (258,) and not req.tau.flags.writeable
    with pytest.raises(RuntimeError, match="only inside the solver's __init__ or step"):
        req.grad_x(req.x0, req.y0)


def test_the_request_holds_the_job():
    seen = {}

    class Look(FW):
        def __init__(self, req):
            super().__init__(req)
            if not seen:
                seen.update(
                    job=req.job, family=req.family, spec=req.spec, entry=req.entry, a=req.a,
                    tau1=float(req.tau[1]), constants=req.constants, dx=req.x_set.diameter,
                    setting=req.case_setting, t_max=req.t_max,
                )

    small().solver(Look).run()
    assert seen["entry"]["id"] == "lmo-lmo/c-sc+sc/primal"
    assert seen["setting"] == "c-sc+sc" and seen["t_max"] == 256
    assert seen["tau1"] == pytest.approx(2.0 ** -seen["a"])
    assert seen["dx"] == pytest.approx(seen["constants"]["dx"])
    assert seen["job"].startswith("lmo-lmo/c-sc+sc on ") and seen["spec"]


def test_outcome_views(tmp_path):
    out = small("lmo-lmo/c-sc+sc").solver(FW).run()
    rows = out.rows()
    assert [r["id"] for r in rows] == ["lmo-lmo/c-sc+sc/primal", "lmo-lmo/c-sc+sc/dual"]
    assert all(r["verdict"] == "pass" and r["gates.rate"] == "pass" for r in rows)
    assert all(r["conformance"] == "pass" and r["rate_evidence"] == "pass" for r in rows)
    assert set(out.answers) == {r["id"] for r in rows}
    j, h = out.write(tmp_path / "r")
    on_disk = json.load(open(j))
    assert on_disk["entries"][0]["id"] == rows[0]["id"] and os.path.getsize(h) > 1000
    assert "passed" in repr(out)
    try:
        import pandas  # noqa: F401
    except ImportError:
        return
    df = out.to_pandas()
    assert list(df.index) == [r["id"] for r in rows] and "p_hat" in df.columns


def test_progress_is_shown_or_silenced(capfd):
    small().solver(FW).progress(True).run()
    assert "saddlefw: 4/4 jobs" in capfd.readouterr().err
    small().solver(FW).progress(False).run()
    assert capfd.readouterr().err == ""
    calls = []
    small().solver(FW).progress(lambda *a: calls.append(a)).run()
    assert calls[-1][0] == 4 and calls[-1][-1] is True
