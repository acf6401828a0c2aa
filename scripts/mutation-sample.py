#!/usr/bin/env python3
"""Draws the seeded, stratified sample of the mutation campaign (issue 18, docs/mutation.md).

Usage: scripts/mutation-sample.py LIST.json N SEED [--exclude FILE ...] [--proportional] > SAMPLE.tsv
  LIST.json: `cargo mutants --list --json` of the scope (.cargo/mutants.toml).
  --exclude FILE: mutants not to draw (an earlier sample's TSV, a runner's JSON lines, or one
  name per line). Names match without their `:line:col`, so a list of an older commit excludes
  the same mutation of the same function after lines moved; the strata keep their full sizes.
Allocation: every file of the scope is a stratum; file f gets a share of N proportional to
`weight(f) * count(f)` (largest remainders), at least one mutant per file. `weight` is 5 for
the mathematical core the issue names first (measures, fit, solvers, sets, problems) and 1 for
the rest of the scope (envelopes, invariants, verify). `--proportional` gives every file weight 1,
so each group's share of the sample is its share of the scope and the sample's own score
estimates the scope's (the minimum of one per file aside). Within a file the mutants are drawn
without replacement with `random.Random(SEED)`; the output is ordered by a seeded shuffle so
that any prefix of it is itself a (smaller) stratified random sample: run it in order and stop
when time runs out.
Output (tab separated): order, group, file, stratum size, weight, mutant name. `group` names
the test selection (scripts/mutation-campaign.sh) that runs the mutant first.
"""
import json
import random
import re
import sys
from collections import OrderedDict

CORE = ("src/measures.rs", "src/fit.rs", "src/solvers/", "src/sets/", "src/problems/")
GROUPS = [  # (prefix, group): the first match wins
    ("src/measures.rs", "measures"),
    ("src/fit.rs", "fit"),
    ("src/envelopes.rs", "envelopes"),
    ("src/solvers/", "solvers"),
    ("src/sets/", "sets"),
    ("src/problems/", "problems"),
    ("src/invariants/", "invariants"),
    ("src/verify", "verify"),
]


PROPORTIONAL = False  # set by --proportional


def weight(file):
    if PROPORTIONAL:
        return 1
    return 5 if file.startswith(CORE) else 1


def group(file):
    for prefix, g in GROUPS:
        if file.startswith(prefix):
            return g
    sys.exit(f"error: {file}: not in any group of scripts/mutation-sample.py")


def allocate(counts, n):
    """Largest-remainder allocation of n over the files, weighted, at least 1 per file."""
    total = sum(weight(f) * c for f, c in counts.items())
    quota = {f: n * weight(f) * c / total for f, c in counts.items()}
    alloc = {f: min(counts[f], max(1, int(q))) for f, q in quota.items()}
    for f in sorted(quota, key=lambda f: quota[f] - int(quota[f]), reverse=True):
        if sum(alloc.values()) >= n:
            break
        if alloc[f] < counts[f]:
            alloc[f] += 1
    return alloc


def key(name):
    """A mutant's name without its position: `FILE: MUTATION in FUNCTION`."""
    return re.sub(r"^([^:]+):\d+:\d+:", r"\1:", name.strip())


def excluded(paths):
    keys = set()
    for path in paths:
        with open(path) as fh:
            for line in fh:
                line = line.rstrip("\n")
                if not line.strip():
                    continue
                if line.startswith("{"):
                    name = json.loads(line)["name"]
                else:
                    name = line.split("\t")[-1]
                keys.add(key(name))
    return keys


def main(path, n, seed, exclude=()):
    with open(path) as fh:
        mutants = json.load(fh)
    skip = excluded(exclude)
    by_file = OrderedDict()
    for m in mutants:
        by_file.setdefault(m["file"], []).append(m["name"])
    counts = {f: len(v) for f, v in by_file.items()}
    pool = {f: sorted(x for x in v if key(x) not in skip) for f, v in by_file.items()}
    alloc = {f: min(a, len(pool[f])) for f, a in allocate(counts, n).items()}
    rng = random.Random(seed)
    sample = []
    for f in sorted(by_file):
        for name in rng.sample(pool[f], alloc[f]):
            sample.append((group(f), f, counts[f], weight(f), name))
    rng.shuffle(sample)
    for i, row in enumerate(sample):
        print("\t".join(str(x) for x in (i,) + row))


if __name__ == "__main__":
    args = sys.argv[1:]
    exclude = []
    while "--exclude" in args:
        i = args.index("--exclude")
        exclude.append(args[i + 1])
        del args[i : i + 2]
    if "--proportional" in args:
        args.remove("--proportional")
        PROPORTIONAL = True
    if len(args) != 3:
        sys.exit(__doc__)
    main(args[0], int(args[1]), int(args[2]), exclude)
