#!/usr/bin/env python3
"""Summarises mutation outcomes per file for docs/mutation.md (issue 18).

Usage: scripts/mutation-summary.py [--list LIST.json] RESULTS ...
  RESULTS: cargo-mutants' mutants.out/outcomes.json, or the JSON lines of
  scripts/mutation-campaign.py. Later files override earlier ones for the same mutant (a
  `--full` re-run of a selection's misses, a re-run after a new test).
Prints a Markdown table (caught / missed / timeout / unviable / score per file, with the
file's number of mutants in scope when --list gives it), the score of the sample with its
Wilson 95% interval, and with --list the estimate for the whole scope: the per-group scores
weighted by the groups' shares of the scope (stratified estimate; interval from the
Agresti-Coull-adjusted per-group variances, so a group with no miss still contributes
uncertainty). Then the missed mutants.
"""
import json
import math
import sys
from collections import OrderedDict

KINDS = {
    "CaughtMutant": "caught",
    "MissedMutant": "missed",
    "Timeout": "timeout",
    "Unviable": "unviable",
}
Z = 1.959964  # 95%
GROUPS = [
    ("src/measures.rs", "measures"), ("src/fit.rs", "fit"), ("src/envelopes.rs", "envelopes"),
    ("src/solvers/", "solvers"), ("src/sets/", "sets"), ("src/problems/", "problems"),
    ("src/invariants/", "invariants"), ("src/verify", "verify"),
]


def group(file):
    return next((g for p, g in GROUPS if file.startswith(p)), "other")


def load(paths, selection=None):
    """name -> (file, outcome), the later file winning; `selection` (a dict) receives the
    outcome under the group's selection alone for rows run with `--then-full`."""
    last = OrderedDict()
    for path in paths:
        with open(path) as f:
            if path.endswith(".jsonl"):
                for line in f:
                    if line.strip():
                        r = json.loads(line)
                        last[r["name"]] = (r["file"], r["outcome"])
                        if selection is not None and "selection_outcome" in r:
                            selection[r["name"]] = r["selection_outcome"]
                continue
            data = json.load(f)
        for o in data["outcomes"]:
            m = o["scenario"]
            if not isinstance(m, dict) or "Mutant" not in m:
                continue
            name = m["Mutant"]["name"]
            last[name] = (m["Mutant"]["file"], KINDS.get(o["summary"], o["summary"]))
    return last


def wilson(c, n):
    if n == 0:
        return (0.0, 1.0)
    p = c / n
    d = 1 + Z * Z / n
    centre = (p + Z * Z / (2 * n)) / d
    half = Z / d * math.sqrt(p * (1 - p) / n + Z * Z / (4 * n * n))
    return (max(0.0, centre - half), min(1.0, centre + half))


def tally(rows):
    t = {"caught": 0, "missed": 0, "timeout": 0, "unviable": 0}
    for k in rows:
        t[k] = t.get(k, 0) + 1
    return t


def score(t):
    c, m = t["caught"], t["missed"]
    return "n/a" if c + m == 0 else f"{100.0 * c / (c + m):.1f}%"


def main(args):
    population = {}
    if args and args[0] == "--list":
        with open(args[1]) as f:
            for m in json.load(f):
                population[m["file"]] = population.get(m["file"], 0) + 1
        args = args[2:]
    selection = {}
    last = load(args, selection)
    per_file = OrderedDict()
    for name, (file, kind) in sorted(last.items(), key=lambda kv: kv[1][0]):
        per_file.setdefault(file, []).append(kind)
    print("| file | in scope | sampled | caught | missed | timeout | unviable | score |")
    print("|---|---|---|---|---|---|---|---|")
    for file, kinds in per_file.items():
        t = tally(kinds)
        print(f"| {file} | {population.get(file, '?')} | {len(kinds)} | {t['caught']} | "
              f"{t['missed']} | {t['timeout']} | {t['unviable']} | {score(t)} |")
    t = tally(k for _, k in last.values())
    print(f"| **all** | {sum(population.values()) or '?'} | {len(last)} | {t['caught']} | "
          f"{t['missed']} | {t['timeout']} | {t['unviable']} | {score(t)} |")
    c, n = t["caught"], t["caught"] + t["missed"]
    lo, hi = wilson(c, n)
    print(f"\nsample score: {c}/{n} = {score(t)}, Wilson 95% [{100 * lo:.1f}%, {100 * hi:.1f}%]")
    if selection:
        s = tally(selection.get(k, kind) for k, (_, kind) in last.items())
        print(f"under the group selections alone (before `--then-full`): {s['caught']}/"
              f"{s['caught'] + s['missed']} = {score(s)}")
    if population:
        stratified(last, population)
    missed = [n for n, (_, k) in last.items() if k == "missed"]
    if missed:
        print("\nmissed:")
        for n in missed:
            print(f"- `{n}`")


def stratified(last, population):
    """Per-group scores weighted by the groups' shares of the scope."""
    size, scored = {}, {}
    for file, n in population.items():
        size[group(file)] = size.get(group(file), 0) + n
    for file, kind in last.values():
        c, n = scored.get(group(file), (0, 0))
        if kind in ("caught", "missed"):
            scored[group(file)] = (c + (kind == "caught"), n + 1)
    covered = {g: s for g, s in size.items() if scored.get(g, (0, 0))[1] > 0}
    total = sum(covered.values())
    est, var = 0.0, 0.0
    print("\n| group | in scope | scored | caught | score | Wilson 95% |")
    print("|---|---|---|---|---|---|")
    for g in sorted(size):
        c, n = scored.get(g, (0, 0))
        lo, hi = wilson(c, n)
        print(f"| {g} | {size[g]} | {n} | {c} | "
              f"{'n/a' if n == 0 else f'{100 * c / n:.1f}%'} | [{100 * lo:.1f}%, {100 * hi:.1f}%] |")
        if n:
            w = size[g] / total
            est += w * c / n
            pt = (c + Z * Z / 2) / (n + Z * Z)
            var += w * w * pt * (1 - pt) / (n + Z * Z)
    half = Z * math.sqrt(var)
    missing = sorted(set(size) - set(covered))
    print(f"\nstratified estimate over the scope ({total} of {sum(size.values())} mutants in "
          f"groups with data{', missing: ' + ', '.join(missing) if missing else ''}): "
          f"{100 * est:.1f}%, 95% [{100 * max(0, est - half):.1f}%, {100 * min(1, est + half):.1f}%]")


if __name__ == "__main__":
    main(sys.argv[1:])
