#!/usr/bin/env python3
"""Peer implementation of LMO-LMO (the paper's Algorithm 1, alg:fw-fw) on the robust multiclass
classification experiment on NEWS20 (paper main text L735-744, L3260-3261; objective and sets as
in saddlefw's src/problems/dro.rs), in NumPy/SciPy with CSR products, for the side-by-side peer
benchmark (benches/peers/run.py).

    L(Theta, y) = (1/n) sum_i y_i l_i(Theta) - (lambda'/2) ||y - 1_n/n||^2
    l_i = log(1 + sum_{j != b_i} exp(theta_j^T a_i - theta_{b_i}^T a_i))
    X = {Theta in R^{k x d} : ||Theta||_* <= r},  Y = unit simplex,  r = lambda' = 10

Rows scaled to unit l2 norm, Theta_0 = 0, y_0 = 1_n/n, tau_t = 2/(t+10), beta_t = 0 (L3261); the
dual step is the short step with curvature L_yy = lambda'. W = Theta^T (d x k) as in the crate.

Kernels: scores S = A W (CSR times dense), the gradient A^T R through a precomputed CSR copy of
A^T (faster than SciPy's CSC view of A.T), softmax vectorised over the n x k scores, and the
nuclear-norm LMO on the d x k gradient by the Gram route (the top eigenpair of the k x k matrix
G^T G from LAPACK dsyevr, then u = G v / s), as the crate does.

Prints one JSON line: {"iterations", "seconds", "iterations_per_s", ...}; the time budget covers
the iterations only (reading the file is not timed).
"""

import argparse
import bz2
import json
import os
import time

import numpy as np
import scipy.sparse as sp
from scipy.linalg import eigh


def read_libsvm(path):
    opener = bz2.open if path.endswith(".bz2") else open
    labels, indptr, indices, values = [], [0], [], []
    with opener(path, "rt") as f:
        for line in f:
            line = line.split("#", 1)[0].strip()
            if not line:
                continue
            parts = line.split()
            labels.append(float(parts[0]))
            for tok in parts[1:]:
                i, v = tok.split(":")
                indices.append(int(i) - 1)
                values.append(float(v))
            indptr.append(len(indices))
    n_cols = max(indices) + 1
    a = sp.csr_matrix(
        (np.array(values), np.array(indices, dtype=np.int32), np.array(indptr)),
        shape=(len(labels), n_cols),
    )
    classes, y = np.unique(np.array(labels), return_inverse=True)
    return a, y, len(classes)


def run(path, seconds, radius=10.0, lam=10.0, max_iter=None):
    a, labels, k = read_libsvm(path)
    norms = np.sqrt(np.asarray(a.multiply(a).sum(axis=1)).ravel())
    norms[norms == 0.0] = 1.0
    a = sp.csr_matrix(sp.diags(1.0 / norms) @ a)
    at = a.T.tocsr()
    n, d = a.shape
    rows = np.arange(n)
    w = np.zeros((d, k))
    y = np.full(n, 1.0 / n)
    y0 = y.copy()
    t = 0
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        if time.perf_counter() >= deadline or (max_iter is not None and t >= max_iter):
            break
        tau = min(2.0 / (t + 10.0), 1.0)
        # forward: scores, stable softmax, losses
        s = a @ w
        sb = s[rows, labels]
        mx = s.max(axis=1)
        e = np.exp(s - mx[:, None])
        tot = e.sum(axis=1)
        others = tot - e[rows, labels]
        loss = np.where(sb >= mx, np.log1p(others / e[rows, labels]), (mx - sb) + np.log(tot))
        p = e / tot[:, None]
        p[rows, labels] -= 1.0
        # gradients
        p *= (y / n)[:, None]
        gw = at @ p
        gy = loss / n - lam * (y - 1.0 / n)
        # LMO on the nuclear ball (d x k): Gram route
        gram = gw.T @ gw
        _, vec = eigh(gram, subset_by_index=[k - 1, k - 1], driver="evr", check_finite=False)
        v1 = vec[:, 0]
        u1 = gw @ v1
        u1 /= np.linalg.norm(u1)
        # primal step towards -r u v^T
        w *= 1.0 - tau
        w -= (tau * radius) * np.outer(u1, v1)
        # dual step: LMO of the simplex on -g (beta = 0), short step with curvature lambda'
        g = gy
        j = int(np.argmax(g))
        dy = -y
        dy[j] += 1.0
        dd = float(dy @ dy)
        if dd > 0.0:
            gamma = min(max(float(g @ dy), 0.0) / (lam * dd), 1.0)
            y += gamma * dy
        t += 1
    elapsed = time.perf_counter() - start
    return {
        "peer": "news20-scipy",
        "variant": "csr",
        "iterations": t,
        "seconds": elapsed,
        "iterations_per_s": t / elapsed if elapsed > 0 else 0.0,
        "shape": [n, d, k],
        "nnz": int(a.nnz),
    }


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    default = os.path.join(
        os.environ.get("SADDLEFW_DATA_DIR", os.path.join("..", "shared", "data")), "news20.bz2"
    )
    ap.add_argument("--data", default=default)
    ap.add_argument("--seconds", type=float, default=10.0)
    ap.add_argument("--iters", type=int, default=None)
    args = ap.parse_args()
    print(json.dumps(run(args.data, args.seconds, max_iter=args.iters)))


if __name__ == "__main__":
    main()
