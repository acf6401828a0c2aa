#!/usr/bin/env python3
"""Algorithm 2 (LMO-PO, `alg:fw-proj` of "Projection-Free Algorithms for Minimax Problems"),
written from the paper with NumPy, for both routes of "Verify your own solver":

* the file route: `python3 lmo_po.py EXPORT_DIR [--out DIR]` reads the LMO-PO jobs of a
  `saddlefw export` directory and writes their iterates for `saddlefw verify-iterates`;
* the in-process route: `LmoPo` is the same update as a class the saddlefw Python package
  calls (`saddlefw.RateCheck("lmo-po/").solver(LmoPo)`), on the request's matrices.

Both routes run the same `Quadratic.step`, so their iterates are bit for bit equal. For
L(x,y) = 1/2 x'Ax + y'Bx - 1/2 y'Cy + a'x - c'y:

    v_t     = LMO_X(grad_x L(x_t, y_t))
    x_{t+1} = x_t + tau_t (v_t - x_t)
    g_t     = grad_y L(x_t, y_t) - beta_t (y_t - y_0)
    y_{t+1} = P_Y(y_t + g_t / (L_yy + beta_t))

The Frank-Wolfe moves (the LMOs of lmo_lmo.py, folded into the update) and the projections
onto the simplex, the l1 ball, the l2 ball and the box are below. The instances are small, so
the step is written for NumPy's cost per call (benches/python_routes.py, docs/performance.md):
about a dozen calls per step, 2.4x cheaper than the first version's 30-odd.
"""

import argparse
import json
import math
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from lmo_lmo import lmo  # noqa: E402


def project_simplex(z, scale=1.0):
    """Euclidean projection onto {v >= 0, sum v = scale}, sort-based: with u = z sorted in
    decreasing order, theta = (u_1 + .. + u_rho - scale) / rho for the largest rho with
    u_rho > (u_1 + .. + u_rho - scale) / rho, and the projection is max(z - theta, 0). The
    loop runs on Python floats: for the dimensions here it is cheaper than NumPy's calls."""
    s, theta = -scale, 0.0
    for j, u in enumerate(sorted(z.tolist(), reverse=True), 1):
        s += u
        if u > s / j:
            theta = s / j
    out = z - theta
    return np.maximum(out, 0.0, out=out)


def projection(spec):
    """z -> P_Y(z), the Euclidean projection onto the set `spec`."""
    kind = spec["kind"]
    if kind == "simplex":
        scale = spec.get("scale", 1.0)
        return lambda z: project_simplex(z, scale)
    if kind == "l1_ball":
        r = spec["radius"]

        def project_l1(z):
            a = np.abs(z)
            return z.copy() if a.sum() <= r else np.sign(z) * project_simplex(a, r)
        return project_l1
    if kind == "l2_ball":
        r, center = spec["radius"], spec.get("center")

        def project_l2(z):
            d = z if center is None else z - center
            n = math.sqrt(d @ d)
            return z.copy() if n <= r else z - d * (1.0 - r / n)
        return project_l2
    if kind == "box":
        lower = np.asarray(spec["lower"], dtype=float)
        upper = np.asarray(spec["upper"], dtype=float)
        return lambda z: np.minimum(np.maximum(z, lower), upper)
    raise SystemExit(f"error: set kind {kind!r} is not supported by this example")


def frank_wolfe_move(spec):
    """(x, g, tau) -> x + tau (v - x) with v = LMO_X(g) = argmin_{v in X} <g, v> (ties to the
    lowest index, as saddlefw's sets break them)."""
    kind = spec["kind"]
    if kind == "simplex":
        s = spec.get("scale", 1.0)

        def move_simplex(x, g, tau):
            i = g.argmin()
            out = x * (1.0 - tau)
            out[i] += tau * s
            return out
        return move_simplex
    if kind == "l1_ball":
        r = spec["radius"]

        def move_l1(x, g, tau):
            i = np.abs(g).argmax()
            out = x * (1.0 - tau)
            out[i] += tau * r if g[i] < 0 else -tau * r
            return out
        return move_l1
    if kind == "l2_ball":
        r = spec["radius"]
        center = np.asarray(spec.get("center", 0.0), dtype=float)

        def move_l2(x, g, tau):
            n = math.sqrt(g @ g)
            v = center - g * (r / n) if n > 0 else lmo("l2_ball", spec, g)
            return x + tau * (v - x)
        return move_l2
    if kind == "box":
        lower = np.asarray(spec["lower"], dtype=float)
        upper = np.asarray(spec["upper"], dtype=float)

        def move_box(x, g, tau):
            return x + tau * (np.where(g < 0, upper, lower) - x)
        return move_box
    raise SystemExit(f"error: set kind {kind!r} is not supported by this example")


class Quadratic:
    """One LMO-PO run on a quadratic instance (matrices, sets, schedule values).

    The instances are small (dimensions 3 to 33), where NumPy costs per call, not per flop, so
    the step makes few calls: the gradient of L at z = (x, y) is one product with the stacked
    matrix [[A, B'], [B, -C]], the Frank-Wolfe move changes one coordinate of (1 - tau_t) x_t
    on the simplex and the l1 ball, the schedule values are Python floats, and NumPy's methods
    stand in for its slower module functions."""

    def __init__(self, A, B, C, a, c, x_set, y_set, x0, y0, tau, beta, lyy):
        self.n = len(x0)
        self.K = np.block([[A, B.T], [B, -C]])
        self.k = np.concatenate((a, -c))
        self.x, self.y = np.array(x0, dtype=float), np.array(y0, dtype=float)
        self.y0 = self.y.copy()
        self.tau, self.beta, self.lyy = list(map(float, tau)), list(map(float, beta)), float(lyy)
        self.move, self.project = frank_wolfe_move(x_set), projection(y_set)

    def step(self, t):
        x, y, n = self.x, self.y, self.n
        tau_t, beta_t = self.tau[t], self.beta[t]
        g = self.K @ np.concatenate((x, y))
        g += self.k  # (grad_x L, grad_y L)(x_t, y_t)
        gy = g[n:]
        gy -= beta_t * (y - self.y0)  # grad_y L_beta_t
        self.x = self.move(x, g[:n], tau_t)
        self.y = self.project(y + gy / (self.lyy + beta_t))


class LmoPo(Quadratic):
    """The in-process form: the harness calls `LmoPo(request)` per job, `step()` per iteration
    (`Quadratic.step` at the request's `t`), and reads `x`, `y` after each."""

    def __init__(self, req):
        q = req.quadratic()
        if q is None:
            raise ValueError(f"{req.job}: LmoPo runs quadratic instances only (run with "
                             "RateCheck.exportable_only())")
        super().__init__(q["A"], q["B"], q["C"], q["a"], q["c"], q["x_set"], q["y_set"],
                         req.x0, req.y0, req.tau, req.beta, req.constants["lyy"])
        self.req = req

    def step(self):
        super().step(self.req.t)


def run_job(export_dir, out_dir, job):
    with open(os.path.join(export_dir, job["problem"])) as f:
        p = json.load(f)
    with open(os.path.join(export_dir, job["schedule"])) as f:
        s = json.load(f)
    if s["algorithm"] != "lmo-po":
        return False
    run = Quadratic(*(np.array(p[k], dtype=float) for k in ("A", "B", "C", "a", "c")),
                    p["x_set"], p["y_set"], p["x0"], p["y0"], s["tau"], s["beta"],
                    s["constants"]["lyy"])
    t_last = job["t_last"]
    path = os.path.join(out_dir, job["iterates"])
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as out:
        for t in range(t_last + 1):
            out.write(json.dumps({"t": t, "x": run.x.tolist(), "y": run.y.tolist()}) + "\n")
            if t < t_last:
                run.step(t)
    return True


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("export_dir")
    ap.add_argument("--out", help="root of the iterate files (default: EXPORT_DIR)")
    args = ap.parse_args()
    with open(os.path.join(args.export_dir, "manifest.json")) as f:
        manifest = json.load(f)
    out_dir = args.out or args.export_dir
    done = sum(run_job(args.export_dir, out_dir, job) for job in manifest["jobs"])
    print(f"wrote the iterates of {done} LMO-PO jobs to {out_dir}", file=sys.stderr)


if __name__ == "__main__":
    main()
