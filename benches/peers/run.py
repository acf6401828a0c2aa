#!/usr/bin/env python3
"""Side-by-side peer benchmark: saddlefw's LMO-LMO against NumPy/SciPy implementations of the
same algorithm on the paper's two experiments, each for the same solver-time budget, one thread
each (saddlefw also with more threads, --threads), in one invocation. Prints iterations/s and
the ratios saddlefw / peer.

    cargo build --release
    python3 benches/peers/run.py [--seconds 10] [--rounds 1] [--problems dl,news20]

(or benches/peers/run.sh, which skips with a message when Python, NumPy or SciPy are absent;
install them with `pip install numpy scipy threadpoolctl`).

Every process runs with OMP_NUM_THREADS=1, OPENBLAS_NUM_THREADS=1, MKL_NUM_THREADS=1 and
RAYON_NUM_THREADS=1, and saddlefw with --threads 1; --threads 1,2 runs saddlefw once per listed
thread count in every round (its kernel threads: the calling thread and N - 1 helpers), and the
ratios are taken against the first. OPENBLAS_CORETYPE and OPENBLAS_L2_SIZE, when set in the environment, are
removed for the peers only (they select a slower OpenBLAS kernel than the CPU's own; the BLAS
that actually runs is printed through threadpoolctl); --keep-openblas-env keeps them.

Rounds alternate the programs (saddlefw, then each peer), so a change of machine load affects all
of them alike; the table reports the median over rounds and the best round. The 1-minute load
average is printed before and after: absolute rates are inflated by load, ratios measured side by
side much less.

Two statistics of the thread ratio are printed. The median of the per-round ratios compares runs
a few seconds apart. The ratio of the best rounds compares each thread count's fastest run: on a
shared machine other work only ever slows a run down, so the fastest of several runs is the least
disturbed estimate of what the code does (the reasoning of Python's `timeit`, which reports the
minimum time). On a virtual machine whose second core is sometimes shared with other work, the two
differ; docs/performance.md records both. --json PATH writes every round's rates and both
statistics for a CI or a later comparison (strict JSON: a rate or ratio that cannot be formed, from a
run of no iterations or no time, is null).
"""

import argparse
import json
import math
import os
import statistics
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))


def env_one_thread(peer, keep_openblas):
    env = dict(os.environ)
    for v in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS", "RAYON_NUM_THREADS"):
        env[v] = "1"
    if peer and not keep_openblas:
        env.pop("OPENBLAS_CORETYPE", None)
        env.pop("OPENBLAS_L2_SIZE", None)
    return env


def blas_info(keep_openblas):
    code = (
        "import json, numpy, scipy\n"
        "try:\n"
        "    from threadpoolctl import threadpool_info\n"
        "    info = [{k: d.get(k) for k in ('internal_api', 'architecture', 'num_threads', 'version')}"
        " for d in threadpool_info()]\n"
        "except ImportError:\n"
        "    info = 'threadpoolctl not installed'\n"
        "print(json.dumps({'numpy': numpy.__version__, 'scipy': scipy.__version__, 'blas': info}))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code],
        env=env_one_thread(True, keep_openblas),
        capture_output=True,
        text=True,
        check=True,
    )
    return json.loads(out.stdout)


def ratio(a, b):
    """a / b, or NaN when b is zero or either is not finite (a run of no iterations or time)."""
    return a / b if b and math.isfinite(a) and math.isfinite(b) else math.nan


def median(values):
    """The median, or NaN when any value is not finite (NaN does not sort)."""
    return statistics.median(values) if all(map(math.isfinite, values)) else math.nan


def best(values):
    """The largest value, or NaN when any value is not finite."""
    return max(values) if all(map(math.isfinite, values)) else math.nan


def finite_or_none(v):
    """v with every non-finite number replaced by None, so the JSON written is strict JSON."""
    if isinstance(v, float):
        return v if math.isfinite(v) else None
    if isinstance(v, dict):
        return {k: finite_or_none(x) for k, x in v.items()}
    if isinstance(v, (list, tuple)):
        return [finite_or_none(x) for x in v]
    return v


def run_saddlefw(binary, problem, seconds, data, threads):
    with tempfile.TemporaryDirectory() as tmp:
        cmd = [binary, "-q", "experiment", problem, "--algos", "lmo-lmo",
               "--time-limit", str(seconds), "--out", tmp]
        if problem == "news20":
            cmd += ["--data", data]
        if threads is not None:
            cmd += ["--threads", str(threads)]
        subprocess.run(cmd, env=env_one_thread(False, True), check=True, cwd=REPO)
        with open(os.path.join(tmp, "experiment.json")) as f:
            run = json.load(f)["runs"][0]
    return {"iterations": run["iterations"], "seconds": run["wall_time_s"]}


def run_peer(script, args, seconds, keep_openblas):
    cmd = [sys.executable, os.path.join(HERE, script), "--seconds", str(seconds)] + args
    out = subprocess.run(cmd, env=env_one_thread(True, keep_openblas), capture_output=True,
                         text=True, check=True, cwd=REPO)
    return json.loads(out.stdout.strip().splitlines()[-1])


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seconds", type=float, default=10.0, help="solver-time budget per run")
    ap.add_argument("--rounds", type=int, default=1)
    ap.add_argument("--problems", default="dl,news20")
    ap.add_argument("--binary", default=os.path.join(REPO, "target", "release", "saddlefw"))
    ap.add_argument("--data", default=os.path.join(
        os.environ.get("SADDLEFW_DATA_DIR", os.path.join(REPO, "..", "shared", "data")),
        "news20.bz2"))
    ap.add_argument("--threads", default="1",
                    help="saddlefw's --threads, or a comma-separated list run side by side "
                         "(default 1; ratios against the first)")
    ap.add_argument("--keep-openblas-env", action="store_true")
    ap.add_argument("--json", metavar="PATH",
                    help="also write every round's rates and the summary as JSON to PATH")
    a = ap.parse_args()
    threads = [int(t) for t in a.threads.split(",") if t]
    ours = [(f"saddlefw ({t} thread{'s' if t > 1 else ''})", t) for t in threads]
    if not os.path.exists(a.binary):
        sys.exit(f"{a.binary} not found: run `cargo build --release` first")
    problems = [p for p in a.problems.split(",") if p]
    if "news20" in problems and not os.path.exists(a.data):
        print(f"SKIP news20: {a.data} not found (set SADDLEFW_DATA_DIR or --data)")
        problems.remove("news20")
    load_before = os.getloadavg()
    print("load average before:", " ".join(f"{x:.2f}" for x in load_before))
    peers = blas_info(a.keep_openblas_env)
    print("peers:", json.dumps(peers))
    for v in ("OPENBLAS_CORETYPE", "OPENBLAS_L2_SIZE"):
        if v in os.environ:
            print(f"note: {v}={os.environ[v]} is set;",
                  "kept for the peers" if a.keep_openblas_env else "removed for the peers only")
    programs = {
        "dl": [
            *[(name, lambda s, t=t: run_saddlefw(a.binary, "dl", s, None, t)) for name, t in ours],
            ("numpy typical (full SVD)",
             lambda s: run_peer("dl_numpy.py", ["--variant", "typical"], s, a.keep_openblas_env)),
            ("numpy tuned (Gram + dsyevr)",
             lambda s: run_peer("dl_numpy.py", ["--variant", "tuned"], s, a.keep_openblas_env)),
            ("numpy power, 2 steps (inexact)",
             lambda s: run_peer("dl_numpy.py", ["--variant", "power"], s, a.keep_openblas_env)),
        ],
        "news20": [
            *[(name, lambda s, t=t: run_saddlefw(a.binary, "news20", s, a.data, t))
              for name, t in ours],
            ("scipy CSR (Gram + dsyevr)",
             lambda s: run_peer("news20_scipy.py", ["--data", a.data], s, a.keep_openblas_env)),
        ],
    }
    rates, runs = {}, {}
    for r in range(a.rounds):
        for prob in problems:
            for name, f in programs[prob]:
                res = f(a.seconds)
                rate = ratio(res["iterations"], res["seconds"])
                rates.setdefault((prob, name), []).append(rate)
                runs.setdefault((prob, name), []).append(res)
                print(f"round {r + 1}: {prob:6} {name:32} {res['iterations']:8d} it "
                      f"{res['seconds']:7.2f} s {rate:10.1f} it/s", flush=True)
    load_after = os.getloadavg()
    print("load average after:", " ".join(f"{x:.2f}" for x in load_after))
    print()
    first = ours[0][0]
    print(f"| problem | program | iterations/s (median of {a.rounds}) | best round | "
          f"{first} / program (medians) |")
    print("|---|---|---|---|---|")
    commit = subprocess.run(["git", "describe", "--always", "--dirty"], cwd=REPO,
                            capture_output=True, text=True).stdout.strip() or None
    summary = {"commit": commit, "binary": a.binary, "threads": threads, "rounds": a.rounds,
               "seconds": a.seconds, "load_before": load_before, "load_after": load_after,
               "peers": peers, "programs": [], "thread_ratios": []}
    for prob in problems:
        ref = median(rates[(prob, first)])
        for name, _ in programs[prob]:
            rs = rates[(prob, name)]
            med = median(rs)
            print(f"| {prob} | {name} | {med:.1f} | {best(rs):.1f} | {ratio(ref, med):.2f} |")
            summary["programs"].append({"problem": prob, "program": name, "rates": rs,
                                        "runs": runs[(prob, name)],
                                        "median": med, "best": best(rs),
                                        "first_over_program": ratio(ref, med)})
    for prob in problems:
        for name, _ in ours[1:]:
            base, other = rates[(prob, first)], rates[(prob, name)]
            per_round = [ratio(b, a) for a, b in zip(base, other)]
            best_ratio = ratio(best(other), best(base))
            print(f"{prob}: {name} / {first}: median of the per-round ratios "
                  f"{median(per_round):.2f} (rounds: "
                  f"{', '.join(f'{r:.2f}' for r in per_round)}); best rounds "
                  f"{best(other):.1f} / {best(base):.1f} = {best_ratio:.2f}")
            summary["thread_ratios"].append({
                "problem": prob, "program": name, "against": first, "per_round": per_round,
                "median_per_round": median(per_round), "best_rounds": best_ratio})
    if a.json:
        with open(a.json, "w") as f:
            json.dump(finite_or_none(summary), f, indent=1, allow_nan=False)
        print(f"wrote {a.json}")

if __name__ == "__main__":
    main()
