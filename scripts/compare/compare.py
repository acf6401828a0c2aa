#!/usr/bin/env python3
"""JSON-aware comparison of two directories written by scripts/compare-outputs.sh record.

Exit 0 when every file of REF has an equal counterpart in NEW (and no file is extra), 1 otherwise;
the differences are printed as paths inside the JSON documents. See compare-outputs.sh for what
is ignored and why.
"""
import json
import os
import sys

# (seconds_per_iteration: the name of time_per_iteration_s in recordings made before issue 35)
EXPERIMENT_RUN_DROP = {"iterations", "paper_iterations", "seconds_per_iteration", "cpu_time_s",
                       "oracle_calls", "checkpoints", "status", "status_detail"}
EXPERIMENT_CLAIM_DROP = {"holds", "evidence", "verdict"}


def ignored(key):
    k = key.lower()
    return "time" in k or "date" in k or k in ("build", "git_commit")


def clean(v):
    if isinstance(v, dict):
        return {k: clean(x) for k, x in v.items() if not ignored(k)}
    if isinstance(v, list):
        return [clean(x) for x in v]
    return v


def experiment_view(d):
    d = clean(d)
    for run in d.get("runs", []):
        for k in EXPERIMENT_RUN_DROP:
            run.pop(k, None)
    for claim in d.get("claims", []):
        for k in EXPERIMENT_CLAIM_DROP:
            claim.pop(k, None)
    # Notes quote measured values of the run (iteration dependent) only in the claims; the notes
    # themselves are fixed text and are compared.
    return d


def load(path):
    with open(path) as f:
        return json.load(f, parse_float=str, parse_int=str)


def diff(a, b, at, out, limit=40):
    if len(out) >= limit:
        return
    if isinstance(a, dict) and isinstance(b, dict):
        for k in sorted(set(a) | set(b)):
            if k not in a:
                out.append(f"{at}.{k}: only in NEW")
            elif k not in b:
                out.append(f"{at}.{k}: only in REF")
            else:
                diff(a[k], b[k], f"{at}.{k}", out, limit)
        if list(a) != list(b) and set(a) == set(b):
            out.append(f"{at}: key order differs")
    elif isinstance(a, list) and isinstance(b, list):
        if len(a) != len(b):
            out.append(f"{at}: length {len(a)} (REF) vs {len(b)} (NEW)")
        for i, (x, y) in enumerate(zip(a, b)):
            diff(x, y, f"{at}[{i}]", out, limit)
    elif a != b:
        out.append(f"{at}: {str(a)[:120]!r} (REF) vs {str(b)[:120]!r} (NEW)")


def files(root):
    found = []
    for d, dirs, fs in os.walk(root):
        dirs[:] = [x for x in dirs if not x.startswith(".")]
        for f in fs:
            if f.endswith(".json") or f.endswith(".txt") or f.endswith(".stdout"):
                found.append(os.path.relpath(os.path.join(d, f), root))
    return sorted(found)


def main(ref, new):
    bad = 0
    rf, nf = files(ref), files(new)
    for f in sorted(set(rf) ^ set(nf)):
        print(f"{f}: only in {'REF' if f in rf else 'NEW'}")
        bad += 1
    for f in sorted(set(rf) & set(nf)):
        a, b = os.path.join(ref, f), os.path.join(new, f)
        if f.endswith(".json"):
            x, y = load(a), load(b)
            if os.path.basename(f) == "experiment.json":
                x, y = experiment_view(x), experiment_view(y)
            else:
                x, y = clean(x), clean(y)
            out = []
            diff(x, y, f, out)
        else:
            with open(a, "rb") as fa, open(b, "rb") as fb:
                out = [] if fa.read() == fb.read() else [f"{f}: text differs"]
        for line in out:
            print(line)
        bad += bool(out)
    total = len(set(rf) | set(nf))
    print(f"compared {total} files: {'all equal' if bad == 0 else f'{bad} differ'}")
    return 1 if bad else 0


if __name__ == "__main__":
    if len(sys.argv) != 3:
        print("usage: compare.py REF NEW", file=sys.stderr)
        sys.exit(2)
    sys.exit(main(sys.argv[1], sys.argv[2]))
