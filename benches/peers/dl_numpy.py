#!/usr/bin/env python3
"""Peer implementation of LMO-LMO (the paper's Algorithm 1, alg:fw-fw) on the dictionary-learning
experiment (paper: eq:dictionary-learning2, appendix subsec:DL-imple; objective and sets as in
saddlefw's src/problems/dictionary.rs), in NumPy, for the side-by-side peer benchmark
(benches/peers/run.py).

    L((D', C'), y) = 1/(2n') ||A' - D'C'||_F^2 + y (1/(2n) ||A - D' Ctil||_F^2 - delta)
    X = {||d'_j|| <= 1} x {||C'||_* <= r},  Y = [0, B]

tau_t = (2/(t+10))^(4/5), beta_t = 1e-2 (t+10)^(-1/5) (L3257); the dual step is the short step
gamma_t = min(g (u - y) / (beta_t (u - y)^2), 1) with g = grad_y L - beta_t (y - y0) (L_yy = 0).

Variants (``--variant``):
  typical  the products as a NumPy user writes them (K = Ctil Ctil^T and P = A Ctil^T are
           precomputed, as in the crate), top singular pair of grad_C' from np.linalg.svd
  tuned    the same products in preallocated buffers (np.matmul(..., out=...)), top singular pair by
           the Gram route as the crate does it: the top eigenpair of the q x q matrix
           grad_C' grad_C'^T from LAPACK dsyevr (scipy.linalg.eigh, one pair), then
           v = grad_C'^T u / s. Exact to rounding, like the crate's LMO.
  power    as tuned, but the top pair by a fixed number (--steps, default 2) of warm-started power
           steps with no convergence test: cheap, NOT an exact LMO (along the DL path
           sigma_2/sigma_1 approaches 0.95, so a residual of 1e-9 takes hundreds of steps and a
           tested power iteration is slower than the full SVD: measured 420-460 iterations/s).
           Reported for reference only.

Prints one JSON line: {"variant", "iterations", "seconds", "iterations_per_s", ...}. The data are
drawn as the paper describes (same distributions as the crate, not the same random stream: the
cost of an iteration does not depend on the draw).
"""

import argparse
import json
import time

import numpy as np
from scipy.linalg import eigh


def generate(m=100, p=50, l=5, q=60, n=500, n_new=103, seed=0):
    rng = np.random.default_rng(seed)
    d = rng.standard_normal((m, p))
    d /= np.linalg.norm(d, axis=0)
    u = rng.standard_normal((p, l))
    v = rng.standard_normal((n, l))
    c = u @ v.T / (np.linalg.norm(u, 2) * np.linalg.norm(v, 2))
    a_old = d @ c
    c_tilde = np.zeros((q, n))
    c_tilde[:p] = c
    a_new = rng.standard_normal((m, n_new))
    d0 = rng.uniform(0.0, 0.1, (m, q))
    d0 /= np.linalg.norm(d0, axis=0)
    return a_old, c_tilde, a_new, d0


def run(variant, seconds, steps, r=5.0, b=1.0, delta=1e-4, seed=0, max_iter=None):
    a_old, c_tilde, a_new, d = generate(seed=seed)
    m, q = d.shape
    n = a_old.shape[1]
    n_new = a_new.shape[1]
    k_mat = c_tilde @ c_tilde.T
    p_mat = a_old @ c_tilde.T
    a_old_sq = float(np.vdot(a_old, a_old))
    c = np.zeros((q, n_new))
    y, y0 = 0.0, 0.0
    warm = None
    power_steps = 0
    # tuned: preallocated buffers
    dk = np.empty((m, q))
    res = np.empty((m, n_new))
    gd = np.empty((m, q))
    gc = np.empty((q, n_new))
    t = 0
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        now = time.perf_counter()
        if now >= deadline or (max_iter is not None and t >= max_iter):
            break
        tau = min(max((2.0 / (t + 10.0)) ** 0.8, 0.0), 1.0)
        beta = 1e-2 * (t + 10.0) ** -0.2
        if variant == "typical":
            dk = d @ k_mat
            cval = a_old_sq - 2.0 * np.vdot(d, p_mat) + np.vdot(dk, d)
            res = d @ c - a_new
            gd = res @ c.T / n_new + (y / n) * (dk - p_mat)
            gc = d.T @ res / n_new
        else:
            np.matmul(d, k_mat, out=dk)
            cval = a_old_sq - 2.0 * np.vdot(d, p_mat) + np.vdot(dk, d)
            np.matmul(d, c, out=res)
            res -= a_new
            np.subtract(dk, p_mat, out=gd)
            gd *= y / n
            gd += res @ c.T * (1.0 / n_new)
            np.matmul(d.T, res, out=gc)
            gc *= 1.0 / n_new
        gy = cval / (2.0 * n) - delta
        # LMO on X: unit columns, nuclear ball
        norms = np.linalg.norm(gd, axis=0)
        norms[norms == 0.0] = 1.0
        w = -gd / norms
        if variant == "typical":
            uu, ss, vt = np.linalg.svd(gc, full_matrices=False)
            u1, v1 = uu[:, 0], vt[0]
        elif variant == "tuned":
            # Gram route: top eigenpair of the q x q matrix G G^T (LAPACK dsyevr, one pair)
            gram = gc @ gc.T
            _, vec = eigh(gram, subset_by_index=[q - 1, q - 1], driver="evr", check_finite=False)
            u1 = vec[:, 0]
            v1 = gc.T @ u1
            v1 /= np.linalg.norm(v1)
        else:
            # "power": warm-started power iteration, `power_steps` steps per call, no test
            v1 = warm if warm is not None else gc[np.argmax(np.linalg.norm(gc, axis=1))].copy()
            for _ in range(steps):
                u1 = gc @ v1
                u1 /= np.linalg.norm(u1)
                v1 = gc.T @ u1
                v1 /= np.linalg.norm(v1)
            warm = v1
            power_steps += steps
        vc = np.outer(u1, v1)
        vc *= -r
        # primal step
        d += tau * (w - d)
        c += tau * (vc - c)
        # dual step (LMO on [0, B], short step)
        g = gy - beta * (y - y0)
        u = b if g > 0.0 else 0.0
        dd = (u - y) ** 2
        if dd > 0.0:
            gamma = min(max(g * (u - y), 0.0) / (beta * dd), 1.0)
            y += gamma * (u - y)
        t += 1
    elapsed = time.perf_counter() - start
    out = {
        "peer": "dl-numpy",
        "variant": variant,
        "iterations": t,
        "seconds": elapsed,
        "iterations_per_s": t / elapsed if elapsed > 0 else 0.0,
        "final_y": y,
        "final_constraint": float(cval / (2.0 * n) - delta),
    }
    if variant == "power":
        out["power_steps_per_iteration"] = power_steps / max(t, 1)
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--variant", choices=["typical", "tuned", "power"], default="tuned")
    ap.add_argument("--seconds", type=float, default=5.0)
    ap.add_argument("--steps", type=int, default=2, help="power steps per call (--variant power)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--iters", type=int, default=None)
    a = ap.parse_args()
    print(json.dumps(run(a.variant, a.seconds, a.steps, seed=a.seed, max_iter=a.iters)))


if __name__ == "__main__":
    main()
