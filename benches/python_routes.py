#!/usr/bin/env python3
"""Bench: the in-process Python route against the file route, end to end, on the same NumPy
solver (examples/python/lmo_po.py, Algorithm 2; or lmo_lmo.py, Algorithm 1, whose class form
is examples/python/test_lmo_lmo_inprocess.py) and the same jobs (those `saddlefw export`
writes: the cosine instances have no file format).

    python3 benches/python_routes.py SADDLEFW_BINARY WORK_DIR [--cases lmo-po/] [--jobs N]
                                     [--algorithm lmo-po|lmo-lmo] [--rounds N] [--examples DIR]

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

`--rounds N` runs the pair of routes N times one after the other and also reports the least
time of each (the machine may be shared); `--examples DIR` takes lmo_po.py from another folder
(an earlier version of the same solver, for comparing them in the same conditions).

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


def file_route(args, script, exp, its, rep):
    """`saddlefw export` + the script + `saddlefw verify-iterates`: seconds of each, wall and
    CPU (all child processes), the exit code of verify-iterates."""
    shutil.rmtree(exp, ignore_errors=True)
    shutil.rmtree(its, ignore_errors=True)
    shutil.rmtree(rep, ignore_errors=True)
    jobs = ["--jobs", str(args.jobs)] if args.jobs else []
    c0 = cpu_children()
    t0 = time.perf_counter()
    subprocess.run([args.saddlefw, "export", "--cases", args.cases, "--tier", "quick", "--out", exp,
                    "--quiet"], check=True)
    t1 = time.perf_counter()
    subprocess.run([sys.executable, os.path.join(args.examples, script), exp, "--out", its],
                   check=True, stderr=subprocess.DEVNULL)
    t2 = time.perf_counter()
    r = subprocess.run([args.saddlefw, "verify-iterates", exp, "--iterates", its, "--out", rep,
                        "--quiet"] + jobs, stderr=subprocess.DEVNULL)
    t3 = time.perf_counter()
    out = {"export": t1 - t0, "script": t2 - t1, "verify": t3 - t2, "wall": t3 - t0,
           "cpu": cpu_children() - c0, "exit": r.returncode, "bytes": du(its)}
    print(f"file route: export {out['export']:.1f} s, NumPy solver {out['script']:.1f} s, "
          f"verify-iterates {out['verify']:.1f} s (exit {r.returncode}): {out['wall']:.1f} s wall, "
          f"{out['cpu']:.1f} s CPU, iterate files {out['bytes'] / 1e6:.0f} MB", flush=True)
    return out


def in_process(args, Solver, saddlefw, report):
    """`RateCheck(cases).exportable_only().solver(Solver).run()` and `write(report)`: wall and
    CPU seconds (all threads of this process) and the outcome."""
    c4 = time.process_time()
    t4 = time.perf_counter()
    check = saddlefw.RateCheck(args.cases, tier="quick").exportable_only().solver(Solver).progress(False)
    if args.jobs:
        check.jobs(args.jobs)
    out = check.run()
    shutil.rmtree(report, ignore_errors=True)
    out.write(report)
    res = {"wall": time.perf_counter() - t4, "cpu": time.process_time() - c4, "outcome": out}
    tm = out.timing
    print(f"in process: {res['wall']:.1f} s wall, {res['cpu']:.1f} s CPU "
          f"({'passed' if out.passed else 'FAILED'}), {tm['steps']} steps, "
          f"{tm['python_s']:.1f} s inside step (summed over the workers, GIL waits included)",
          flush=True)
    return res


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("saddlefw")
    ap.add_argument("work")
    ap.add_argument("--cases", default="lmo-po/")
    ap.add_argument("--jobs", type=int, default=None)
    ap.add_argument("--algorithm", default="lmo-po", choices=["lmo-po", "lmo-lmo"])
    ap.add_argument("--rounds", type=int, default=1,
                    help="route pairs run one after the other; the least of each time counts")
    ap.add_argument("--examples", default=os.path.join(ROOT, "examples", "python"),
                    help="the folder of lmo_po.py / lmo_lmo.py (e.g. an earlier version's)")
    args = ap.parse_args()
    args.examples = os.path.abspath(args.examples)
    sys.path.insert(0, args.examples)
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

    print(f"{args.examples}/{script}; load average at the start: %.1f %.1f %.1f" % os.getloadavg())
    files, inprocs = [], []
    for _ in range(args.rounds):
        files.append(file_route(args, script, exp, its, rep))
        inprocs.append(in_process(args, Solver, saddlefw, os.path.join(args.work, "inprocess-report")))
        print("  ratio file / in-process: %.2f (wall), %.2f (CPU); load average %.1f" % (
            files[-1]["wall"] / inprocs[-1]["wall"], files[-1]["cpu"] / inprocs[-1]["cpu"],
            os.getloadavg()[0]), flush=True)
    fw, fc = min(f["wall"] for f in files), min(f["cpu"] for f in files)
    iw, ic = min(i["wall"] for i in inprocs), min(i["cpu"] for i in inprocs)
    print(f"least of {args.rounds}: file route {fw:.1f} s wall, {fc:.1f} s CPU; in process {iw:.1f} s "
          f"wall, {ic:.1f} s CPU; ratio {fw / iw:.2f} (wall), {fc / ic:.2f} (CPU)")
    out = inprocs[-1]["outcome"]
    if args.algorithm == "lmo-po":
        a = solver_alone(exp)
        n = a["steps"]
        print(f"solver alone (the same NumPy steps in one loop, nothing written): {a['step_s']:.1f} s "
              f"for {n} steps ({a['step_s'] / n * 1e6:.1f} us per step); its JSON lines: "
              f"{a['json_s']:.1f} s ({a['json_s'] / n * 1e6:.1f} us per step)")
        print(f"in process / solver alone: {iw / a['step_s']:.2f}; the ratio's bound with one "
              f"interpreter, file route / solver alone: {fw / a['step_s']:.2f}")

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

    print("load average at the end: %.1f %.1f %.1f" % os.getloadavg())
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
    return 0 if out.passed == (files[-1]["exit"] == 0) else 1


if __name__ == "__main__":
    sys.exit(main())
