#!/usr/bin/env bash
# The any-language round trip (issue 15), run by .ci/run: export -> the NumPy Algorithm 1 of
# examples/python -> saddlefw verify-iterates, with the expected exit codes:
#   faithful 0, slowed (primal step exponent + 0.15) 1, a truncated iterate file 2,
#   an infeasible iterate 2.
# Usage: scripts/python-round-trip.sh SADDLEFW_BINARY WORK_DIR
# Cases: lmo-lmo/c-sc+sc at the quick tier (8 random jobs and the two stored hard instances,
# all quadratic; the slowed variant fails the hard-rate gate there). About 30 s on 2 cores.
set -uo pipefail
bin=$1
work=$2
cases=lmo-lmo/c-sc+sc
py=examples/python/lmo_lmo.py
rm -rf "$work"
mkdir -p "$work"

expect() { # expect CODE DESCRIPTION COMMAND...
  local want=$1 what=$2
  shift 2
  "$@" >"$work/last.log" 2>&1
  local got=$?
  if [ "$got" != "$want" ]; then
    echo "python round trip: $what: exit $got, expected $want" >&2
    cat "$work/last.log" >&2
    exit 1
  fi
  echo "python round trip: $what: exit $got as expected ($(tail -n 1 "$work/last.log"))"
}

"$bin" export --cases "$cases" --tier quick --out "$work/exp" --quiet || exit 1
python3 "$py" "$work/exp" --out "$work/faithful" || exit 1
expect 0 "faithful Algorithm 1" "$bin" verify-iterates "$work/exp" --iterates "$work/faithful" --out "$work/r-faithful" --quiet
python3 "$py" "$work/exp" --slowed --out "$work/slowed" || exit 1
expect 1 "slowed variant (a + 0.15)" "$bin" verify-iterates "$work/exp" --iterates "$work/slowed" --out "$work/r-slowed" --quiet

# a truncated file: the last job's iterates cut in the middle of a line
last=$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['jobs'][-1]['iterates'])" "$work/exp/manifest.json")
cp -r "$work/faithful" "$work/truncated"
f="$work/truncated/$last"
head -c $(( $(wc -c <"$f") / 2 )) "$f" >"$f.tmp" && mv "$f.tmp" "$f"
expect 2 "truncated iterate file" "$bin" verify-iterates "$work/exp" --iterates "$work/truncated" --out "$work/r-truncated" --quiet

# an infeasible iterate: x_100 of the first job moved far outside X
first=$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['jobs'][0]['iterates'])" "$work/exp/manifest.json")
cp -r "$work/faithful" "$work/infeasible"
python3 - "$work/infeasible/$first" <<'PY'
import json, sys
path = sys.argv[1]
lines = open(path).read().splitlines()
it = json.loads(lines[100])
it["x"][0] += 10.0
lines[100] = json.dumps(it)
open(path, "w").write("\n".join(lines) + "\n")
PY
expect 2 "infeasible iterate" "$bin" verify-iterates "$work/exp" --iterates "$work/infeasible" --out "$work/r-infeasible" --quiet
rm -rf "$work"
