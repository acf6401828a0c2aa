#!/usr/bin/env bash
# Issue 17 acceptance: `verify` stopped by a signal half-way, then resumed, writes a verify.json
# identical to an uninterrupted run's apart from timings (JSON-aware: scripts/compare/compare.py).
#
# usage: scripts/interrupt-resume.sh BINARY OUT [WHEN] [SIGNAL] -- VERIFY-ARGS...
#   WHEN    half (default): once the journal holds half of the jobs (random instances);
#           hard: once it holds every random job, i.e. while the stored hardest instances run
#   SIGNAL  TERM (default), INT, HUP, or KILL (then nothing is written but the journal)
# e.g.  scripts/interrupt-resume.sh target/release/saddlefw /tmp/ir half TERM -- --tier full --jobs 2
#
# Steps (each timed, exit codes printed): 1. VERIFY-ARGS --out OUT/whole; 2. VERIFY-ARGS
# --out OUT/part, SIGNAL when the journal OUT/part/verify.json.journal reaches the point WHEN
# (polling the file, no fixed sleeps); 3. VERIFY-ARGS --out OUT/part --resume OUT/part;
# 4. compare OUT/whole/verify.json with OUT/part/verify.json. Exit 0 when equal, 1 otherwise.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
[[ $# -ge 3 ]] || { sed -n '2,14p' "$0" | sed 's/^# \{0,1\}//'; exit 2; }
bin=$(realpath "$1")
out=$2
shift 2
when=half
sig=TERM
[[ ${1:-} != -- ]] && { when=$1; shift; }
[[ ${1:-} != -- ]] && { sig=$1; shift; }
[[ ${1:-} == -- ]] || { echo "usage: missing -- before the verify arguments" >&2; exit 2; }
shift
rm -rf "$out/whole" "$out/part" "$out/cmp"
mkdir -p "$out"

now() { date +%s.%N; }
elapsed() { python3 -c "print(f'{$(now) - $1:.1f}')"; }

t0=$(now)
rc=0
"$bin" verify "$@" -q --out "$out/whole" >"$out/whole.log" 2>&1 || rc=$?
echo "uninterrupted: exit $rc in $(elapsed "$t0") s"

journal="$out/part/verify.json.journal"
t0=$(now)
"$bin" verify "$@" -q --out "$out/part" >"$out/part.log" 2>&1 &
pid=$!
# jobs in the header (random instances) and finished lines so far
target() {
    python3 - "$journal" "$when" <<'EOF'
import json, sys
try:
    lines = open(sys.argv[1]).read().split("\n")[:-1]
    total = json.loads(lines[0])["total"]
except Exception:
    print("wait"); sys.exit()
jobs = sum(1 for l in lines[1:] if l.startswith('{"job"'))
hard = sum(1 for l in lines[1:] if l.startswith('{"hard"'))
need = total // 2 if sys.argv[2] == "half" else total
print("go %d %d %d" % (jobs, hard, total) if jobs >= max(need, 1) else "wait")
EOF
}
state=wait
while kill -0 "$pid" 2>/dev/null; do
    state=$(target)
    [[ $state == go* ]] && break
    sleep 0.2
done
[[ $state == go* ]] || { echo "the run ended before the journal reached '$when'" >&2; exit 1; }
kill "-$sig" "$pid"
rc=0
wait "$pid" || rc=$?
read -r _ jobs hard total <<<"$state"
echo "interrupted: SIG$sig after $(elapsed "$t0") s with $jobs of $total jobs (+ $hard hard runs) in the journal: exit $rc"
python3 - "$out/part/verify.json" <<'EOF' || true
import json, sys
try:
    r = json.load(open(sys.argv[1]))
    print("  record: interrupted =", r.get("interrupted"), "hard_runs =", len(r.get("hard_runs", [])))
except FileNotFoundError:
    print("  record: none (the journal is what is left)")
EOF

t0=$(now)
rc=0
"$bin" verify "$@" -q --out "$out/part" --resume "$out/part" >"$out/resume.log" 2>&1 || rc=$?
echo "resumed: exit $rc in $(elapsed "$t0") s"
mkdir -p "$out/cmp/whole" "$out/cmp/part"
cp "$out/whole/verify.json" "$out/cmp/whole/"
cp "$out/part/verify.json" "$out/cmp/part/"
python3 "$here/compare/compare.py" "$out/cmp/whole" "$out/cmp/part"
