#!/usr/bin/env bash
# Spot check of the mutation campaign (issue 18, docs/mutation.md): draws N mutants at random
# (seeded) from a campaign's recorded outcomes, re-runs them with the same runner and test
# selection, and compares the outcomes. Exit 0 when every one reproduces, 1 otherwise.
# Usage: scripts/mutation-spot-check.sh RESULTS.jsonl SAMPLE.tsv TREE OUTDIR [N] [SEED]
#   TREE must hold the same src/ and tests/ as when RESULTS were recorded. Rows recorded with
#   `--then-full` (a selection's miss re-run against every test) are re-run the same way.
set -euo pipefail
results=$1 sample=$2 tree=$3 out=$4 n=${5:-10} seed=${6:-18}
here="$(cd "$(dirname "$0")" && pwd)"
mkdir -p "$out"
# the drawn rows of the sample, in their order, renumbered 0..n-1
python3 - "$results" "$sample" "$n" "$seed" >"$out/spot-sample.tsv" <<'PY'
import json, random, sys
results, sample, n, seed = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
recorded = {}
for line in open(results):
    if line.strip():
        r = json.loads(line)
        recorded[r["name"]] = r["outcome"]
names = random.Random(seed).sample(sorted(recorded), min(n, len(recorded)))
rows = [l.rstrip("\n").split("\t") for l in open(sample)]
for i, row in enumerate(r for r in rows if r[5] in names):
    print("\t".join([str(i)] + row[1:]))
PY
rm -f "$out/spot.jsonl"
then_full=()
if grep -q 'then all' "$results"; then then_full=(--then-full); fi
python3 "$here/mutation-campaign.py" "$out/spot-sample.tsv" 0 "$n" "$out/spot.jsonl" "$tree" \
  --timeout "${SPOT_TIMEOUT:-240}" "${then_full[@]}"
python3 - "$results" "$out/spot.jsonl" <<'PY'
import json, sys
def load(p):
    return {r["name"]: r["outcome"] for r in map(json.loads, filter(str.strip, open(p)))}
recorded, again = load(sys.argv[1]), load(sys.argv[2])
same = sum(recorded[k] == v for k, v in again.items())
print("| mutant | recorded | re-run |\n|---|---|---|")
for k, v in again.items():
    print(f"| `{k}` | {recorded[k]} | {v} |")
print(f"\n{same} of {len(again)} reproduce")
sys.exit(0 if same == len(again) else 1)
PY
