"""The NumPy Algorithm 1 of lmo_lmo.py, gated in process by the saddlefw Python package.

The same update as lmo_lmo.py's ``run_job`` (the file route), in the class form the harness
calls: ``__init__(request)`` once per job, ``step()`` per iteration, ``x`` and ``y`` read after
every step. No files: the cosine instances (which have no file format) run too.

    pip install ./python pytest
    pytest examples/python/test_lmo_lmo_inprocess.py

The quadratic instances use the request's matrices (``request.quadratic()``: A, B, C, a, c) and
lmo_lmo.py's own LMOs, exactly as the file route computes, so their iterates are bit-for-bit
the file route's; the cosine instances use the request's gradients and exact LMOs.
"""

import os
import sys

import numpy as np
import pytest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import lmo_lmo  # noqa: E402  (the file route's NumPy Algorithm 1: its LMOs)

saddlefw = pytest.importorskip("saddlefw")

NUMPY_SETS = ("simplex", "l1_ball", "l2_ball", "box")


class NumpyFW:
    """Algorithm 1 (alg:fw-fw) with the entry's schedule; ``slowed`` raises a by 0.15."""

    slowed = False

    def __init__(self, req):
        self.req = req
        self.x, self.y = req.x0, req.y0
        self.y0 = self.y.copy()
        self.tau, self.beta = req.tau, req.beta
        self.lyy = req.constants["lyy"]
        self.q = req.quadratic()  # None for cosine instances
        self.lmos = [self._lmo(s) for s in (req.x_set, req.y_set)]

    @staticmethod
    def _lmo(s):
        spec = s.spec
        if spec["kind"] in NUMPY_SETS:
            return lambda g: lmo_lmo.lmo(spec["kind"], spec, g)
        return s.lmo  # saddlefw's exact oracle for the other sets

    def grads(self, x, y):
        if self.q is None:
            return self.req.grads(x, y)
        q = self.q
        return q["A"] @ x + q["B"].T @ y + q["a"], q["B"] @ x - q["C"] @ y - q["c"]

    def step(self):
        t = self.req.t
        tau_t = self.tau[t] * ((t + 1.0) ** -0.15 if self.slowed else 1.0)
        beta_t = self.beta[t]
        x, y = self.x, self.y
        gx, gy = self.grads(x, y)
        gy = gy - beta_t * (y - self.y0)
        v = self.lmos[0](gx)
        u = self.lmos[1](-gy)
        d = u - y
        dd = float(d @ d)
        if dd == 0.0:
            gamma = 0.0
        elif self.lyy + beta_t == 0.0:
            gamma = 1.0
        else:
            gamma = min(max(float(gy @ d), 0.0) / ((self.lyy + beta_t) * dd), 1.0)
        self.x = x + tau_t * (v - x)
        self.y = y + gamma * d


class SlowedNumpyFW(NumpyFW):
    slowed = True


def test_numpy_algorithm_1_meets_the_strongly_concave_theorems():
    outcome = saddlefw.RateCheck("lmo-lmo/c-sc+sc", tier="quick").solver(NumpyFW).run()
    outcome.assert_passed()  # raises naming every failed gate, entry and instance


def test_its_slowed_variant_fails_on_the_hard_instance():
    outcome = saddlefw.RateCheck("lmo-lmo/c-sc+sc", tier="quick").solver(SlowedNumpyFW).run()
    assert not outcome.passed
    assert {f.gate for f in outcome.failures} >= {"hard-rate"}
