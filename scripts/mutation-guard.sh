#!/usr/bin/env bash
# CI-sized mutation guard (issue 18, docs/mutation.md): applies a few mutants recorded as
# caught by the cargo-mutants campaign, one at a time, rebuilds, and expects the named tests
# to FAIL. A mutant that survives, or a recorded mutation that no longer applies to the source,
# fails the guard. The source is restored after each mutant (and on exit), and the binaries are
# rebuilt from it at the end (they are built into target/release).
#
# Cheap by construction: no cargo-mutants install; the release profile with incremental
# compilation (dependencies are never incremental, so they are not rebuilt), one test filter
# per mutant, run from tests/mutation_guard.rs: the few test modules the filters name, so each
# mutant rebuilds the library and a quarter of the test code, not the whole suite's binary. Usage: scripts/mutation-guard.sh   (from the repository root)
set -euo pipefail
cd "$(dirname "$0")/.."

export CARGO_PROFILE_RELEASE_INCREMENTAL=true
export CARGO_PROFILE_RELEASE_CODEGEN_UNITS=16  # as .ci/run: its first build is reused

# file | literal text | replacement | test filter
MUTANTS=(
  "src/measures.rs|let l_beta = p.value(x, y) - 0.5 * beta * d2;|let l_beta = p.value(x, y) - 0.5 / beta * d2;|mutants::"
  "src/measures.rs|if v < -tolerance {|if v <= -tolerance {|mutants::inconsistency"
  "src/solvers/steps.rs|        ratio.min(1.0)|        ratio|solvers::short_step_guards"
)

# the binary as built from the unmutated source (restored at the end: the mutants are built
# into the same target directory)
bin="${CARGO_TARGET_DIR:-target}/release/saddlefw"
bin_backup="$(mktemp)"
cp "$bin" "$bin_backup"

backup=""
restore() {
  if [ -n "$backup" ] && [ -f "$backup" ]; then
    cp "$backup" "$target"
    rm -f "$backup"
    backup=""
  fi
}
trap restore EXIT

failed=0
for m in "${MUTANTS[@]}"; do
  IFS='|' read -r target old new filter <<<"$m"
  backup="$(mktemp)"
  cp "$target" "$backup"
  count="$(grep -cF -- "$old" "$target" || true)"
  if [ "$count" != 1 ]; then
    echo "mutation guard: '$old' occurs $count times in $target (want 1): update scripts/mutation-guard.sh" >&2
    failed=1
    restore
    continue
  fi
  # literal replacement without regex or sed escaping
  OLD="$old" NEW="$new" perl -0pi -e 's/\Q$ENV{OLD}\E/$ENV{NEW}/' "$target"
  start=$SECONDS
  if ! cargo test --release -q --test mutation_guard --no-run >/dev/null 2>&1; then
    echo "mutation guard: $target: '$old' -> '$new' does not build: update the guard" >&2
    failed=1
  elif cargo test --release -q --test mutation_guard -- "$filter" >/dev/null 2>&1; then
    echo "mutation guard: SURVIVED $target: '$old' -> '$new' (tests: $filter)" >&2
    failed=1
  else
    echo "mutation guard: caught $target: '$old' -> '$new' ($((SECONDS - start)) s)"
  fi
  restore
done
# The mutants were built into target/release: the binary is put back as built from the
# unmutated source (what runs after the guard), without a rebuild (about 45 s on 2 cores); the
# restored sources are newer than the mutated test binary, so the next cargo test rebuilds it.
cp "$bin_backup" "$bin"
rm -f "$bin_backup"
exit "$failed"
