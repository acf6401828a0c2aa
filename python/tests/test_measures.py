"""Problems and measures for notebooks: exact measures of points and sequences as arrays."""

import json

import numpy as np
import pytest

import saddlefw

SADDLE = "saddle/c-c:dx=6,dy=4,x=simplex,seed=5"


def fw_run(p, T):
    """T steps of Algorithm 1 with beta = 0, tau_t = 2/(t+2), on a problem's own oracles."""
    x, y = p.x0, p.y0
    xs, ys = [x], [y]
    lyy = p.constants["lyy"]
    for t in range(T):
        gx, gy = p.grads(x, y)
        v, u = p.x_set.lmo(gx), p.y_set.lmo(-gy)
        d = u - y
        dd = d @ d
        gamma = 0.0 if dd == 0 else (1.0 if lyy == 0 else min(gy @ d / (lyy * dd), 1.0))
        x = x + 2.0 / (t + 2.0) * (v - x)
        y = y + gamma * d
        xs.append(x)
        ys.append(y)
    return np.array(xs), np.array(ys)


def test_measures_of_a_sequence_equal_those_of_each_point():
    p = saddlefw.Problem.generate(SADDLE)
    xs, ys = fw_run(p, 50)
    m = p.measures(xs, ys)
    assert set(m) == {"gx_lmo", "gx_po", "gy", "gy_lmo", "h", "gap_opt", "width"}
    assert all(v.shape == (51,) for v in m.values())
    one = p.measures(xs[17], ys[17])
    for k, v in one.items():
        assert isinstance(v, float) and (v == m[k][17] or (np.isnan(v) and np.isnan(m[k][17])))
    # the known saddle point certifies f*: G^Opt is defined and non-negative
    assert p.f_star is not None and np.all(m["gap_opt"] >= -1e-12)
    assert np.all(m["gx_lmo"] >= -1e-12) and np.all(m["gy"] >= -1e-12)
    # the measures fall along the run
    assert m["gap_opt"][-1] < m["gap_opt"][0]


def test_measures_are_exact_at_a_known_saddle_point():
    p = saddlefw.Problem.generate(SADDLE)
    q = p.quadratic()
    assert q["A"].shape == (6, 6) and q["B"].shape == (4, 6)
    # at x0, G_X^LMO = max_v <grad_x L, x - v> (closed form on the simplex)
    gx = p.grad_x(p.x0, p.y0)
    expected = float(gx @ p.x0 - gx.min())
    assert p.measures(p.x0, p.y0)["gx_lmo"] == pytest.approx(expected, rel=1e-12, abs=1e-15)


def test_h_uses_the_given_beta_and_reference_point():
    p = saddlefw.Problem.generate("quadratic/c-c:dx=5,dy=3,seed=2")
    xs, ys = fw_run(p, 8)
    betas = 1.0 / np.arange(1, 10)
    m = p.measures(xs, ys, beta=betas)
    m0 = p.measures(xs, ys)
    assert np.sum(m["h"] != m0["h"]) >= 4  # H_t depends on beta_t
    other = p.measures(xs, ys, beta=betas, y0=np.full(3, 1.0 / 3.0))
    assert np.any(other["h"] != m["h"])  # and on the smoothing's reference point
    assert np.all(np.isnan(m["gap_opt"]) | (m["gap_opt"] >= 0))
    scalar = p.measures(xs, ys, beta=0.5)
    assert np.array_equal(scalar["h"], p.measures(xs, ys, beta=np.full(9, 0.5))["h"])
    with pytest.raises(ValueError, match="beta: expected one number or 9"):
        p.measures(xs, ys, beta=[0.1, 0.2])


def test_a_problem_file_and_its_errors(tmp_path):
    p = saddlefw.Problem.generate("quadratic/c-sc:dx=3,dy=2,seed=1")
    q = p.quadratic()
    f = tmp_path / "p.json"
    doc = {"format": "saddlefw-quadratic-v1", "A": q["A"].tolist(), "B": q["B"].tolist(),
           "C": q["C"].tolist(), "a": q["a"].tolist(), "c": q["c"].tolist(),
           "x_set": q["x_set"], "y_set": q["y_set"], "x0": p.x0.tolist(), "y0": p.y0.tolist()}
    f.write_text(json.dumps(doc))
    same = saddlefw.Problem.open(str(f))
    x, y = p.x0, p.y0
    assert same.L(x, y) == p.L(x, y)
    assert same.measures(x, y) == p.measures(x, y)
    doc["a"] = [1.0]
    f.write_text(json.dumps(doc))
    with pytest.raises(ValueError, match=r"p.json: a: expected length 3 \(dx\), got 1"):
        saddlefw.Problem.load(f)
    with pytest.raises(ValueError, match="quadratic/c-sc:dx=3"):
        saddlefw.Problem.generate("quadratic/c-sc:dx=3,dy=2,seed=1,bogus=4")
    with pytest.raises(ValueError, match=r"x: expected length 3, got 2"):
        p.grad_x([0.0, 1.0], y)
    with pytest.raises(ValueError, match="expected points of length 3"):
        p.measures(np.zeros((4, 2)), np.zeros((4, 2)))


def test_cosine_instances_have_oracles_but_no_matrices():
    p = saddlefw.Problem.generate("cosine/nc-c:dx=8,dy=4,seed=3")
    assert p.quadratic() is None and p.setting == "nc-c"
    g = p.grad_x(p.x0, p.y0)
    v = p.x_set.lmo(g)
    assert v.shape == (8,) and p.x_set.contains(v)
    z = p.x_set.project(p.x0 + 1.0)
    assert p.x_set.contains(z) and p.x_set.diameter > 0
    m = p.measures(p.x0, p.y0)
    assert np.isnan(m["gap_opt"])  # f* is not certified for nonconvex instances
