#!/usr/bin/env bash
# Behaviour-preservation check for refactorings (issue 14): record the outputs of a fixed command
# list with one build, record them again with another, and compare the two directories.
#
# usage: scripts/compare-outputs.sh record BINARY DIR   run the command list with BINARY into DIR
#        scripts/compare-outputs.sh compare REF NEW     JSON-aware comparison of two recorded DIRs
#        scripts/compare-outputs.sh check REF [BINARY]  record into a temporary DIR and compare
#                                                       (BINARY defaults to target/release/saddlefw)
#        scripts/compare-outputs.sh selftest REF        negative control: a copy of REF with one
#                                                       number changed must compare unequal, and
#                                                       one with only a timing changed equal
#
# The command list: `verify --tier quick`, `check --cases 200`, `run` of each of the seven
# algorithms on a generator spec with a strongly concave Y (quadratic/c-sc+sc:dx=8,dy=5,seed=3),
# on quadratic/c-c:dx=10,dy=6,seed=1 (the six that accept it; r-pdcg needs mu > 0) and on the
# problem file scripts/compare/problem.json, `experiment dl --time-limit 2`, `list`.
# Every command runs inside DIR as `saddlefw ...` (the binary is put on PATH under that name),
# so paths and the recorded command line are the same for every build.
#
# Comparison (scripts/compare/compare.py): JSON files are parsed with numbers kept as their
# printed text, so equal means byte-identical numbers. Ignored: keys containing `time` or `date`
# (wall clock), the `build` object and `git_commit` (the build's identity). For experiment.json
# only the iteration-independent fields are compared (the time limit decides the iteration
# count): per run the iteration count, CPU time, oracle counts, checkpoints and status, and the
# claims' verdicts and evidence, are dropped. Text outputs (`list`, exit codes) must be equal.
#
# Reference for issue 14: recorded from the unmodified c1c5ca3 build with
#   git worktree add /tmp/ref c1c5ca3 && (cd /tmp/ref && cargo build --release)   (done: the
#   unmodified c1c5ca3 build of /work/wt14, kept as /work/ref14.bin/saddlefw)
#   scripts/compare-outputs.sh record /tmp/ref/target/release/saddlefw /work/ref14
# and checked after each step with `scripts/compare-outputs.sh check /work/ref14`.
# Outputs changed legitimately since then (issue 19); the second half of issue 14 compares with a
# fresh recording of the 27cea2d build (kept as /work/ref-core14.bin/saddlefw):
#   scripts/compare-outputs.sh record /work/ref-core14.bin/saddlefw /work/ref-core14
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)

record() {
    local bin dir
    bin=$(realpath "$1")
    mkdir -p "$2"
    dir=$(realpath "$2")
    mkdir -p "$dir/.bin"
    ln -sf "$bin" "$dir/.bin/saddlefw"
    cp "$here/compare/problem.json" "$dir/problem.json"
    (
        cd "$dir"
        export PATH="$dir/.bin:$PATH"
        : >exit-codes.txt
        step() { # NAME COMMAND...
            local name=$1
            shift
            local rc=0
            "$@" >"$name.stdout" 2>"$name.stderr" || rc=$?
            echo "$name $rc" >>exit-codes.txt
        }
        step list saddlefw list
        for algo in lmo-lmo lmo-po po-lmo sp-fw agp r-pdcg cg-rpga; do
            step "run-sc-$algo" saddlefw run -q --problem 'quadratic/c-sc+sc:dx=8,dy=5,seed=3' \
                --algo "$algo" --iters 300 --out "run-sc-$algo.json"
            step "run-file-$algo" saddlefw run -q --problem problem.json \
                --algo "$algo" --iters 300 --out "run-file-$algo.json"
            if [[ $algo != r-pdcg ]]; then
                step "run-cc-$algo" saddlefw run -q --problem 'quadratic/c-c:dx=10,dy=6,seed=1' \
                    --algo "$algo" --iters 300 --out "run-cc-$algo.json"
            fi
        done
        step check saddlefw check -q --cases 200 --out check
        step verify saddlefw verify -q --tier quick --out verify
        step experiment saddlefw experiment dl -q --time-limit 2 --out experiment
        # Timing lines of stdout/stderr are not behaviour.
        rm -f ./*.stderr verify.stdout check.stdout experiment.stdout
    )
}

case "${1:-}" in
record)
    [[ $# -eq 3 ]] || { echo "usage: $0 record BINARY DIR" >&2; exit 2; }
    record "$2" "$3"
    ;;
compare)
    [[ $# -eq 3 ]] || { echo "usage: $0 compare REF NEW" >&2; exit 2; }
    python3 "$here/compare/compare.py" "$2" "$3"
    ;;
check)
    [[ $# -ge 2 ]] || { echo "usage: $0 check REF [BINARY]" >&2; exit 2; }
    bin=${3:-$root/target/release/saddlefw}
    new=$(mktemp -d /tmp/compare-outputs.XXXXXX)
    record "$bin" "$new"
    python3 "$here/compare/compare.py" "$2" "$new"
    echo "new outputs in $new"
    ;;
selftest)
    [[ $# -eq 2 ]] || { echo "usage: $0 selftest REF" >&2; exit 2; }
    tmp=$(mktemp -d /tmp/compare-selftest.XXXXXX)
    cp -r "$2" "$tmp/timing" && cp -r "$2" "$tmp/number"
    f=$(cd "$2" && ls run-*.json | head -1)
    sed -i '0,/"wall_time_s": [0-9.e-]*/s//"wall_time_s": 99/' "$tmp/timing/$f"
    sed -i '0,/"lxx": \([0-9]\)/s//"lxx": 1\1/' "$tmp/number/$f"
    python3 "$here/compare/compare.py" "$2" "$tmp/timing" >/dev/null || { echo "selftest: a timing difference was reported" >&2; exit 1; }
    if python3 "$here/compare/compare.py" "$2" "$tmp/number" >/dev/null; then
        echo "selftest: a changed constant in $f was not reported" >&2
        exit 1
    fi
    rm -rf "$tmp"
    echo "selftest: ok (timing ignored, changed number in $f reported)"
    ;;
*)
    sed -n '2,34p' "$0" | sed 's/^# \{0,1\}//'
    exit 2
    ;;
esac
