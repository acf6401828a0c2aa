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

The LMOs come from lmo_lmo.py; the projections onto the simplex, the l1 ball, the l2 ball and
the box are below.
"""

import argparse
import json
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from lmo_lmo import lmo  # noqa: E402


def project_simplex(z, scale=1.0):
    """Euclidean projection onto {v >= 0, sum v = scale} (sort-based)."""
    u = np.sort(z)[::-1]
    css = np.cumsum(u) - scale
    k = np.arange(1, len(z) + 1)
    rho = np.nonzero(u - css / k > 0)[0][-1]
    theta = css[rho] / (rho + 1.0)
    return np.maximum(z - theta, 0.0)


def project(kind, spec, z):
    if kind == "simplex":
        return project_simplex(z, spec.get("scale", 1.0))
    if kind == "l1_ball":
        r = spec["radius"]
        if np.abs(z).sum() <= r:
            return z.copy()
        return np.sign(z) * project_simplex(np.abs(z), r)
    if kind == "l2_ball":
        center = np.asarray(spec.get("center", np.zeros_like(z)), dtype=float)
        d = z - center
        n = np.linalg.norm(d)
        r = spec["radius"]
        return z.copy() if n <= r else center + d * (r / n)
    if kind == "box":
        return np.clip(z, spec["lower"], spec["upper"])
    raise SystemExit(f"error: set kind {kind!r} is not supported by this example")


class Quadratic:
    """One LMO-PO run on a quadratic instance (matrices, sets, schedule values)."""

    def __init__(self, A, B, C, a, c, x_set, y_set, x0, y0, tau, beta, lyy):
        self.A, self.B, self.C, self.a, self.c = A, B, C, a, c
        self.xs, self.ys = x_set, y_set
        self.x, self.y = np.array(x0, dtype=float), np.array(y0, dtype=float)
        self.y0 = self.y.copy()
        self.tau, self.beta, self.lyy = tau, beta, lyy

    def step(self, t):
        x, y = self.x, self.y
        tau_t, beta_t = self.tau[t], self.beta[t]
        gx = self.A @ x + self.B.T @ y + self.a
        gy = self.B @ x - self.C @ y - self.c - beta_t * (y - self.y0)
        v = lmo(self.xs["kind"], self.xs, gx)
        self.x = x + tau_t * (v - x)
        self.y = project(self.ys["kind"], self.ys, y + gy / (self.lyy + beta_t))


class LmoPo:
    """The in-process form: the harness calls `LmoPo(request)` per job, `step()` per iteration."""

    def __init__(self, req):
        q = req.quadratic()
        if q is None:
            raise ValueError(f"{req.job}: LmoPo runs quadratic instances only (run with "
                             "RateCheck.exportable_only())")
        self.req = req
        self.run = Quadratic(q["A"], q["B"], q["C"], q["a"], q["c"], q["x_set"], q["y_set"],
                             req.x0, req.y0, req.tau, req.beta, req.constants["lyy"])
        self.x, self.y = self.run.x, self.run.y

    def step(self):
        self.run.step(self.req.t)
        self.x, self.y = self.run.x, self.run.y


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
