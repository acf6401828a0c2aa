#!/usr/bin/env python3
"""Algorithm 1 (LMO-LMO, `alg:fw-fw` of "Projection-Free Algorithms for Minimax Problems"),
written from the paper with NumPy, run on the instances of `saddlefw export`.

For every job of EXPORT_DIR/manifest.json whose schedule is LMO-LMO it reads the problem
(JSON quadratic format v1: L(x,y) = 1/2 x'Ax + y'Bx - 1/2 y'Cy + a'x - c'y, the sets X and Y
and the start x0, y0) and the schedule (tau_t, beta_t for t = 0..t_last and the certified
constant L_yy), runs

    v_t     = LMO_X(grad_x L(x_t, y_t))
    x_{t+1} = x_t + tau_t (v_t - x_t)
    g_t     = grad_y L_beta_t(x_t, y_t) = grad_y L(x_t, y_t) - beta_t (y_t - y_0)
    u_t     = LMO_Y(-g_t)
    gamma_t = min{ g_t'(u_t - y_t) / ((L_yy + beta_t) ||u_t - y_t||^2), 1 }
    y_{t+1} = y_t + gamma_t (u_t - y_t)

and writes (t, x_t, y_t) for t = 0..t_last as JSON Lines to OUT/<the job's iterates path>
(OUT defaults to EXPORT_DIR). `--slowed` multiplies tau_t by (t+1)^-0.15, i.e. raises the
primal step exponent a to a + 0.15: a deliberately slowed variant that `saddlefw
verify-iterates` must reject.

Usage:
    python3 lmo_lmo.py EXPORT_DIR [--out DIR] [--slowed] [--only SUBSTRING]
"""

import argparse
import json
import os
import sys

import numpy as np


def lmo(kind, spec, g):
    """argmin_{v in set} <g, v>; ties go to the lowest index (as saddlefw's sets do)."""
    if kind == "simplex":
        v = np.zeros_like(g)
        v[int(np.argmin(g))] = spec.get("scale", 1.0)
        return v
    if kind == "l1_ball":
        i = int(np.argmax(np.abs(g)))
        v = np.zeros_like(g)
        v[i] = spec["radius"] if g[i] < 0 else -spec["radius"]
        return v
    if kind == "l2_ball":
        center = np.asarray(spec.get("center", np.zeros_like(g)), dtype=float)
        n = np.linalg.norm(g)
        v = center.copy()
        if n > 0:
            v -= spec["radius"] * g / n
        else:
            v[0] -= spec["radius"]
        return v
    if kind == "box":
        lower = np.broadcast_to(np.asarray(spec["lower"], dtype=float), g.shape)
        upper = np.broadcast_to(np.asarray(spec["upper"], dtype=float), g.shape)
        return np.where(g < 0, upper, lower)
    raise SystemExit(f"error: set kind {kind!r} is not supported by this example")


def run_job(export_dir, out_dir, job, slowed):
    with open(os.path.join(export_dir, job["problem"])) as f:
        p = json.load(f)
    with open(os.path.join(export_dir, job["schedule"])) as f:
        s = json.load(f)
    if s["algorithm"] != "lmo-lmo":
        return False
    A, B, C = (np.array(p[k], dtype=float) for k in ("A", "B", "C"))
    a, c = np.array(p["a"], dtype=float), np.array(p["c"], dtype=float)
    xs, ys = p["x_set"], p["y_set"]
    x = np.array(p["x0"], dtype=float)
    y = np.array(p["y0"], dtype=float)
    y0 = y.copy()
    lyy = s["constants"]["lyy"]
    tau, beta = s["tau"], s["beta"]
    t_last = job["t_last"]
    path = os.path.join(out_dir, job["iterates"])
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as out:
        for t in range(t_last + 1):
            out.write(json.dumps({"t": t, "x": x.tolist(), "y": y.tolist()}) + "\n")
            if t == t_last:
                break
            tau_t = tau[t] * ((t + 1.0) ** -0.15 if slowed else 1.0)
            beta_t = beta[t]
            gx = A @ x + B.T @ y + a
            gy = B @ x - C @ y - c - beta_t * (y - y0)
            v = lmo(xs["kind"], xs, gx)
            u = lmo(ys["kind"], ys, -gy)
            d = u - y
            dd = float(d @ d)
            if dd == 0.0:
                gamma = 0.0
            elif lyy + beta_t == 0.0:
                gamma = 1.0
            else:
                # g'(u - y) >= 0 exactly (u maximises g'u over Y); rounding can make it
                # slightly negative near a saddle point: clamp at 0 as saddlefw does
                # (`verify-iterates --against lmo-lmo` showed where the unclamped run departs)
                gamma = min(max(float(gy @ d), 0.0) / ((lyy + beta_t) * dd), 1.0)
            x = x + tau_t * (v - x)
            y = y + gamma * d
    return True


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("export_dir")
    ap.add_argument("--out", help="root of the iterate files (default: EXPORT_DIR)")
    ap.add_argument("--slowed", action="store_true", help="primal step exponent + 0.15")
    ap.add_argument("--only", default="", help="only the jobs whose id contains this")
    args = ap.parse_args()
    with open(os.path.join(args.export_dir, "manifest.json")) as f:
        manifest = json.load(f)
    if manifest.get("format") != "saddlefw-export-v2":
        raise SystemExit("error: not a saddlefw-export-v2 manifest")
    out_dir = args.out or args.export_dir
    done = skipped = 0
    for job in manifest["jobs"]:
        if args.only not in job["id"]:
            continue
        if run_job(args.export_dir, out_dir, job, args.slowed):
            done += 1
        else:
            skipped += 1
    print(f"wrote the iterates of {done} LMO-LMO jobs to {out_dir}"
          + (f" ({skipped} jobs of other algorithms skipped)" if skipped else ""),
          file=sys.stderr)


if __name__ == "__main__":
    main()
