#!/usr/bin/env python3
"""Summarises cargo-mutants outcomes (mutants.out/outcomes.json) per file for docs/mutation.md.

Usage: scripts/mutation-summary.py OUTCOMES.json [OUTCOMES.json ...]
Prints a Markdown table (caught / missed / timeout / unviable / score per file) and the list of
missed mutants. Later files override earlier ones for the same mutant (a re-run after a fix).
"""
import json
import sys
from collections import OrderedDict

KINDS = {
    "CaughtMutant": "caught",
    "MissedMutant": "missed",
    "Timeout": "timeout",
    "Unviable": "unviable",
}


def main(paths):
    last = OrderedDict()
    for path in paths:
        with open(path) as f:
            data = json.load(f)
        for o in data["outcomes"]:
            m = o["scenario"]
            if not isinstance(m, dict) or "Mutant" not in m:
                continue
            name = m["Mutant"]["name"]
            last[name] = (m["Mutant"]["file"], KINDS.get(o["summary"], o["summary"]))
    per_file = OrderedDict()
    for name, (file, kind) in last.items():
        row = per_file.setdefault(file, {"caught": 0, "missed": 0, "timeout": 0, "unviable": 0})
        row[kind] = row.get(kind, 0) + 1
    print("| file | caught | missed | timeout | unviable | score |")
    print("|---|---|---|---|---|---|")
    total = {"caught": 0, "missed": 0, "timeout": 0, "unviable": 0}
    for file, row in per_file.items():
        for k in total:
            total[k] += row.get(k, 0)
        print(f"| {file} | {row['caught']} | {row['missed']} | {row['timeout']} | "
              f"{row['unviable']} | {score(row)} |")
    print(f"| **all** | {total['caught']} | {total['missed']} | {total['timeout']} | "
          f"{total['unviable']} | {score(total)} |")
    missed = [n for n, (_, k) in last.items() if k == "missed"]
    if missed:
        print("\nmissed:")
        for n in missed:
            print(f"- `{n}`")


def score(row):
    c, m = row["caught"], row["missed"]
    return "n/a" if c + m == 0 else f"{100.0 * c / (c + m):.1f}%"


if __name__ == "__main__":
    main(sys.argv[1:])
