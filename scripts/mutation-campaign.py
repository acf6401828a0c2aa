#!/usr/bin/env python3
"""Runs rows of the campaign's sample (scripts/mutation-sample.py), each mutant with the test
selection that covers its file (issue 18, docs/mutation.md).

Usage: scripts/mutation-campaign.py SAMPLE.tsv FROM TO RESULTS.jsonl TREE [--full] [--timeout S]
                                    [--select "FILTER ..."] [--then-full]
  For every row FROM <= order < TO not yet in RESULTS.jsonl: applies the mutant's diff (from
  `cargo mutants --list --json --diff`, file TREE/../list-diff.json or $MUTANTS_LIST) to TREE
  (a copy of the repository that nothing else builds from), builds the test binary in the
  `mutants` profile (fails: unviable), runs the group's test selection (fails: caught; over the
  timeout: timeout; passes: missed), restores the file and appends one JSON line to RESULTS.
  Stops before the next mutant when RESULTS.stop exists.
  `--full` runs every test of the binary: a mutant missed under a selection only counts as
  missed after a `--full` run (write those to a second RESULTS file; the summary lets the later
  file override the earlier). `--select` replaces the group's selection (a re-run of a miss
  with the test that is expected to catch it: caught is then sound, missed is not final).
  `--then-full` runs every test of the binary after a selection that passed, so each row's
  outcome is the whole suite's (cargo-mutants' own rule) at the cost of the full run for the
  misses only; the record keeps the selection's outcome as `selection_outcome`.
cargo-mutants 27.1 itself cannot select the sample: `-F`/`-E` do not filter its "delete field"
mutants (78 in scope), so it would run those in every invocation. This runner applies the same
diffs, with the same outcome rules (build, then tests). Every process runs under `nice -n 19`;
CARGO_TARGET_DIR is used as is.
"""
import json
import os
import resource
import shutil
import signal
import subprocess
import sys
import time

# Group -> name filters of `cargo test --test main` (the modules of tests/ that exercise the
# group's files); the tests written for the campaign (tests/mutants/, tests/bounds_by_hand/,
# together well under a second) are always added.
ALWAYS = ["mutants::", "bounds_by_hand::"]
SELECTION = {
    "measures": ["measures::"],
    "fit": ["fit::"],
    "envelopes": ["envelopes::"],
    "solvers": ["solvers::"],
    "sets": ["sets::"],
    "problems": ["problems::"],
    "invariants": ["invariants::"],
    "verify": ["shard::", "envelopes::"],
}
LINK_ERROR = "ld returned 1 exit status"
# every test of the binary takes ~2 min on the idle machine, ~5 min beside other builds
FULL_TIMEOUT = 900
CARGO = ["nice", "-n", "19", "cargo", "test", "-q", "--profile", "mutants", "--test", "main"]


def run(cmd, cwd, timeout):
    """(return code or None on timeout, wall seconds, CPU seconds of the children, output tail);
    kills the whole group on timeout."""
    start, cpu = time.time(), children_cpu()
    p = subprocess.Popen(cmd, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                         start_new_session=True)
    try:
        out, _ = p.communicate(timeout=timeout)
        rc = p.returncode
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, signal.SIGKILL)
        out, _ = p.communicate()
        rc = None
    wall, cpu = round(time.time() - start, 1), round(children_cpu() - cpu, 1)
    return rc, wall, cpu, out.decode(errors="replace")[-2000:]


def clear_incremental():
    """Deletes the crate's incremental caches of the `mutants` profile (an interrupted build
    leaves them broken: every later build fails at link time, undefined hidden symbols)."""
    inc = os.path.join(os.environ.get("CARGO_TARGET_DIR", "target"), "mutants", "incremental")
    for d in os.listdir(inc) if os.path.isdir(inc) else []:
        if d.startswith(("saddlefw-", "main-")):
            shutil.rmtree(os.path.join(inc, d), ignore_errors=True)


def outcome_of(rc):
    """A test run's outcome for the mutant: over the timeout, passed (missed) or failed."""
    return "timeout" if rc is None else "missed" if rc == 0 else "caught"


def failed_tests(log):
    """The names of the failed tests in a libtest log (`    NAME` under `failures:`)."""
    names = [l.strip() for l in log.splitlines() if l.startswith("    ") and "::" in l
             and " " not in l.strip()]
    return list(dict.fromkeys(names))[:5]


def children_cpu():
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def apply(tree, file, diff):
    """Applies the diff to TREE/file; returns the original text (to restore)."""
    path = os.path.join(tree, file)
    with open(path) as fh:
        original = fh.read()
    p = subprocess.run(["patch", "-s", "--no-backup-if-mismatch", path], input=diff.encode(),
                       capture_output=True)
    if p.returncode != 0:
        with open(path, "w") as fh:
            fh.write(original)
        raise RuntimeError(f"patch failed for {file}: {p.stdout.decode()} {p.stderr.decode()}")
    return original


def one(tree, m, grp, full, timeout, select=None, then_full=False):
    original = apply(tree, m["file"], m["diff"])
    try:
        rc, build_s, build_cpu, log = run(CARGO + ["--no-run"], tree, 900)
        if rc not in (0, None) and LINK_ERROR in log:
            # a broken incremental cache (after an interrupted build), not an unviable mutant
            clear_incremental()
            rc, build_s2, build_cpu2, log = run(CARGO + ["--no-run"], tree, 900)
            build_s, build_cpu = build_s + build_s2, build_cpu + build_cpu2
            if rc not in (0, None) and LINK_ERROR in log:
                sys.exit(f"link errors after clearing the incremental cache: {log[-600:]}")
        rec = {"name": m["name"], "file": m["file"], "group": grp, "build_s": build_s,
               "build_cpu": build_cpu}
        if rc != 0:
            rec.update(outcome="unviable" if rc is not None else "build-timeout", test_s=0,
                       test_cpu=0,
                       log=log[-600:])
            return rec
        filters = [] if full else select.split() if select else ALWAYS + SELECTION[grp]
        rc, test_s, test_cpu, log = run(CARGO + ["--"] + filters, tree, timeout)
        outcome = outcome_of(rc)
        rec.update(outcome=outcome, test_s=test_s, test_cpu=test_cpu, selection=" ".join(filters) or "all",
                   failed=failed_tests(log))
        if then_full and filters and outcome == "missed":
            rc, full_s, full_cpu, log = run(CARGO + ["--"], tree, max(timeout, FULL_TIMEOUT))
            rec.update(selection_outcome=outcome, selection=rec["selection"] + " then all",
                       outcome=outcome_of(rc),
                       test_s=round(test_s + full_s, 1), test_cpu=round(test_cpu + full_cpu, 1),
                       failed=failed_tests(log))
        return rec
    finally:
        with open(os.path.join(tree, m["file"]), "w") as fh:
            fh.write(original)


def main(args):
    full = "--full" in args
    timeout = 300
    if "--timeout" in args:
        i = args.index("--timeout")
        timeout = float(args[i + 1])
        del args[i : i + 2]
    select = None
    if "--select" in args:
        i = args.index("--select")
        select = args[i + 1]
        del args[i : i + 2]
    then_full = "--then-full" in args
    args = [a for a in args if a not in ("--full", "--then-full")]
    sample, lo, hi, results, tree = args[0], int(args[1]), int(args[2]), args[3], args[4]
    listing = os.environ.get("MUTANTS_LIST", os.path.join(tree, "..", "list-diff.json"))
    with open(listing) as fh:
        by_name = {m["name"]: m for m in json.load(fh)}
    done = set()
    if os.path.exists(results):
        with open(results) as fh:
            done = {json.loads(l)["name"] for l in fh if l.strip()}
    with open(sample) as fh:
        rows = [l.rstrip("\n").split("\t") for l in fh]
    for order, grp, _file, _n, _w, name in rows:
        if not lo <= int(order) < hi or name in done:
            continue
        if os.path.exists(results + ".stop"):
            print(f"stopped before row {order}: {results}.stop exists", flush=True)
            break
        rec = one(tree, by_name[name], grp, full, timeout, select, then_full)
        rec["order"] = int(order)
        print(f"{order} {rec['outcome']:9} b{rec['build_s']:6} t{rec['test_s']:6} {name}",
              flush=True)
        with open(results, "a") as fh:
            fh.write(json.dumps(rec) + "\n")


if __name__ == "__main__":
    if len(sys.argv) < 6:
        sys.exit(__doc__)
    main(sys.argv[1:])
