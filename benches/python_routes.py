#!/usr/bin/env python3
"""Bench: the in-process Python route against the file route, end to end, on the same NumPy
solver (examples/python/lmo_po.py, Algorithm 2; or lmo_lmo.py, Algorithm 1, whose class form
is examples/python/test_lmo_lmo_inprocess.py) and the same jobs (those `saddlefw export`
writes: the cosine instances have no file format).

    python3 benches/python_routes.py SADDLEFW_BINARY WORK_DIR [--cases lmo-po/] [--jobs N]
                                     [--algorithm lmo-po|lmo-lmo]

needs the package installed (`pip install ./python`). It times

* the file route: `saddlefw export` + `lmo_po.py` (writes every iterate as JSON Lines) +
  `saddlefw verify-iterates`;
* the in-process route: `saddlefw.RateCheck(cases).exportable_only().solver(LmoPo).run()` and
  `outcome.write(dir)`;

checks that both verify.json are equal apart from keys containing `time` and the route's name
(`solver`), and prints the ratio (wall time, and CPU time of all processes and threads, which
the load of a shared machine disturbs less), the bytes of iterate files the file route wrote,
and the harness's own cost per `step` call: the in-process wall time minus the time inside the
user's `step`, over the steps (it includes the measures the harness takes at every iterate),
and the binding's part of it (GIL, call, copying and checking the iterates).

For Algorithm 2 it also times the solver alone: the same NumPy steps on the same exported
jobs, in one loop, writing nothing. No route that runs the user's Python steps in one
interpreter can take less wall time than that (the GIL runs one step at a time), which bounds
the ratio from above: `(file route) / (solver alone)`.
"""

import argparse
import json
import os
import resource
import shutil
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, os.path.join(ROOT, "examples", "python"))


# `solver` names the route; `build` names the binary's commit (the extension and the binary may
# be built from different commits of an otherwise equal tree)
def without(v, drop=("solver", "build")):
    if isinstance(v, dict):
        return {k: without(x, drop) for k, x in v.items() if "time" not in k and k not in drop}
    if isinstance(v, list):
        return [without(x, drop) for x in v]
    return v


def cpu_children():
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def solver_alone(exp):
    """Seconds and steps of examples/python/lmo_po.py's steps on the LMO-PO jobs of an export,
    without writing (the solver's own time), and the same loop writing the JSON lines to
    /dev/null (the file route's per-step cost of writing)."""
    import numpy as np
    from lmo_po import Quadratic
    with open(os.path.join(exp, "manifest.json")) as f:
        jobs = json.load(f)["jobs"]
    out = {"steps": 0, "step_s": 0.0, "json_s": 0.0}
    with open(os.devnull, "w") as sink:
        for job in jobs:
            with open(os.path.join(exp, job["problem"])) as f:
                p = json.load(f)
            with open(os.path.join(exp, job["schedule"])) as f:
                s = json.load(f)
            if s["algorithm"] != "lmo-po":
                continue
            run = Quadratic(*(np.array(p[k], dtype=float) for k in ("A", "B", "C", "a", "c")),
                            p["x_set"], p["y_set"], p["x0"], p["y0"], s["tau"], s["beta"],
                            s["constants"]["lyy"])
            t0 = time.perf_counter()
            for t in range(job["t_last"]):
                run.step(t)
            t1 = time.perf_counter()
            out["step_s"] += t1 - t0
            out["steps"] += job["t_last"]
            # the JSON lines of the same run, written to /dev/null
            run = Quadratic(*(np.array(p[k], dtype=float) for k in ("A", "B", "C", "a", "c")),
                            p["x_set"], p["y_set"], p["x0"], p["y0"], s["tau"], s["beta"],
                            s["constants"]["lyy"])
            t2 = time.perf_counter()
            for t in range(job["t_last"] + 1):
                sink.write(json.dumps({"t": t, "x": run.x.tolist(), "y": run.y.tolist()}) + "\n")
                if t < job["t_last"]:
                    run.step(t)
            out["json_s"] += time.perf_counter() - t2 - (t1 - t0)
    return out


def du(path):
    return sum(os.path.getsize(os.path.join(d, f)) for d, _, fs in os.walk(path) for f in fs)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("saddlefw")
    ap.add_argument("work")
    ap.add_argument("--cases", default="lmo-po/")
    ap.add_argument("--jobs", type=int, default=None)
    ap.add_argument("--algorithm", default="lmo-po", choices=["lmo-po", "lmo-lmo"])
    args = ap.parse_args()
    import saddlefw
    if args.algorithm == "lmo-po":
        from lmo_po import LmoPo as Solver
        script = "lmo_po.py"
    else:
        from test_lmo_lmo_inprocess import NumpyFW as Solver
        script = "lmo_lmo.py"

    shutil.rmtree(args.work, ignore_errors=True)
    os.makedirs(args.work)
    exp, its, rep = (os.path.join(args.work, n) for n in ("exp", "iterates", "file-report"))
    jobs = ["--jobs", str(args.jobs)] if args.jobs else []

    c0 = cpu_children()
    t0 = time.perf_counter()
    subprocess.run([args.saddlefw, "export", "--cases", args.cases, "--tier", "quick", "--out", exp,
                    "--quiet"], check=True)
    t1 = time.perf_counter()
    subprocess.run([sys.executable, os.path.join(ROOT, "examples", "python", script), exp,
                    "--out", its], check=True)
    t2 = time.perf_counter()
    r = subprocess.run([args.saddlefw, "verify-iterates", exp, "--iterates", its, "--out", rep,
                        "--quiet"] + jobs)
    t3 = time.perf_counter()
    file_s = t3 - t0
    file_cpu = cpu_children() - c0
    print(f"file route: export {t1 - t0:.1f} s, NumPy solver {t2 - t1:.1f} s, verify-iterates "
          f"{t3 - t2:.1f} s (exit {r.returncode}): {file_s:.1f} s wall, {file_cpu:.1f} s CPU, "
          f"iterate files {du(its) / 1e6:.0f} MB")

    c4 = time.process_time()
    t4 = time.perf_counter()
    check = saddlefw.RateCheck(args.cases, tier="quick").exportable_only().solver(Solver).progress(False)
    if args.jobs:
        check.jobs(args.jobs)
    out = check.run()
    out.write(os.path.join(args.work, "inprocess-report"))
    t5 = time.perf_counter()
    inproc_s = t5 - t4
    inproc_cpu = time.process_time() - c4
    tm = out.timing
    steps = tm["steps"]
    print(f"in process: {inproc_s:.1f} s wall, {inproc_cpu:.1f} s CPU "
          f"({'passed' if out.passed else 'FAILED'}), {steps} steps, "
          f"{tm['python_s']:.1f} s inside step (summed over the workers, GIL waits included)")
    print(f"ratio file / in-process: {file_s / inproc_s:.2f} (wall), {file_cpu / inproc_cpu:.2f} (CPU)")
    if args.algorithm == "lmo-po":
        a = solver_alone(exp)
        n = a["steps"]
        print(f"solver alone (the same NumPy steps in one loop, nothing written): {a['step_s']:.1f} s "
              f"for {n} steps ({a['step_s'] / n * 1e6:.1f} us per step); its JSON lines: "
              f"{a['json_s']:.1f} s ({a['json_s'] / n * 1e6:.1f} us per step)")
        print(f"in process / solver alone: {inproc_s / a['step_s']:.2f}; the ratio's bound with one "
              f"interpreter, file route / solver alone: {file_s / a['step_s']:.2f}")

    # the harness's own cost per step call, one worker (no GIL contention): an empty step, and
    # the binding's part of the real solver's step (GIL, call, copying and checking x, y)
    class Empty:
        def __init__(self, req):
            self.x, self.y = req.x0, req.y0

        def step(self):
            pass

    case = f"{args.algorithm}/c-c/"
    for name, solver in (("empty step", Empty), (Solver.__name__, Solver)):
        c = (saddlefw.RateCheck(case, tier="quick").exportable_only().hard_instances(False)
             .solver(solver).progress(False).jobs(1))
        t = time.perf_counter()
        o = c.run()
        w = time.perf_counter() - t
        tm = o.timing
        n = tm["steps"]
        print(f"one worker, {case} without hard instances, {name}: {w / n * 1e6:.1f} us wall per step, "
              f"{tm['python_s'] / n * 1e6:.1f} us inside step, binding's part "
              f"{(tm['binding_s'] - tm['python_s']) / n * 1e6:.1f} us, harness rest (measures, fits) "
              f"{(w - tm['binding_s']) / n * 1e6:.1f} us")

    with open(os.path.join(rep, "verify.json")) as f:
        a = without(json.load(f))
    with open(os.path.join(args.work, "inprocess-report", "verify.json")) as f:
        b = without(json.load(f))
    same = a == b
    print(f"verify.json equal apart from time keys and the solver's name: {same}")
    if not same:
        for k in sorted(set(a) | set(b)):
            if a.get(k) != b.get(k):
                print(f"  differs: {k}")
        return 1
    return 0 if out.passed == (r.returncode == 0) else 1


if __name__ == "__main__":
    sys.exit(main())
