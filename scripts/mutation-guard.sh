#!/usr/bin/env bash
# CI-sized mutation guard (issue 18, docs/mutation.md): a few mutants recorded as caught by the
# cargo-mutants campaign must still be caught by the named tests. A mutant that survives, a
# recorded text that no longer occurs exactly once, or a build that fails the named tests with
# no mutant active fails the guard.
#
# One build for all mutants (mutant schemata): each recorded expression OLD is replaced by
#   (if <SADDLEFW_MUTANT is K> { NEW } else { OLD })
# with the switch read once per process into a static. The guard then builds once and runs:
#   - every mutant's tests with no mutant active: they must pass (the schemata change nothing
#     else; a failure here is the guard's, not a catch);
#   - each mutant's tests with SADDLEFW_MUTANT=K: they must fail (the tests spawn the binary
#     too, which inherits the variable, as it was mutated before).
# Before, each mutant was a separate incremental rebuild of the library and the test binary
# (about 70 s each on 2 cores); the runs themselves take seconds.
#
# Release profile with incremental compilation (.ci/run's first build is reused; dependencies are
# never incremental, so they are not rebuilt), run from tests/mutation_guard.rs: the few test
# modules the filters name. The source is restored on exit, and the binary as built from it is
# put back. Usage: scripts/mutation-guard.sh   (from the repository root)
set -euo pipefail
cd "$(dirname "$0")/.."

export CARGO_PROFILE_RELEASE_INCREMENTAL=true
export CARGO_PROFILE_RELEASE_CODEGEN_UNITS=16  # as .ci/run: its first build is reused

# file | expression | its mutant | test filter (each expression occurs once in its file)
MUTANTS=(
  "src/measures.rs|p.value(x, y) - 0.5 * beta * d2|p.value(x, y) - 0.5 / beta * d2|mutants::"
  "src/measures.rs|v < -tolerance|v <= -tolerance|mutants::inconsistency"
  "src/solvers/steps.rs|ratio.min(1.0)|ratio|solvers::short_step_guards"
  "src/fit.rs|w[1].0 > w[0].0|w[1].0 >= w[0].0|mutants::local_slopes"
)

# the binary as built from the unmutated source (the schemata build replaces it)
bin="${CARGO_TARGET_DIR:-target}/release/saddlefw"
bin_backup="$(mktemp)"
cp "$bin" "$bin_backup"

# every mutated file, backed up once, restored on exit
declare -A backups=()
restore() {
  local f
  for f in "${!backups[@]}"; do
    cp "${backups[$f]}" "$f"
    rm -f "${backups[$f]}"
  done
  backups=()
}
trap restore EXIT

failed=0
k=0
filters=()
declare -A applied=()
for m in "${MUTANTS[@]}"; do
  IFS='|' read -r file old new filter <<<"$m"
  k=$((k + 1))
  filters+=("$filter")
  count="$(grep -cF -- "$old" "$file" || true)"
  if [ "$count" != 1 ]; then
    echo "mutation guard: '$old' occurs $count times in $file (want 1): update scripts/mutation-guard.sh" >&2
    failed=1
    continue
  fi
  if [ -z "${backups[$file]:-}" ]; then
    backups[$file]="$(mktemp)"
    cp "$file" "${backups[$file]}"
  fi
  applied[$k]=1
  switch="{ static ACTIVE: std::sync::OnceLock<bool> = std::sync::OnceLock::new(); *ACTIVE.get_or_init(|| std::env::var(\"SADDLEFW_MUTANT\").as_deref() == Ok(\"$k\")) }"
  # literal replacement without regex or sed escaping
  OLD="$old" NEW="(if $switch { $new } else { $old })" perl -0pi -e 's/\Q$ENV{OLD}\E/$ENV{NEW}/' "$file"
done

start=$SECONDS
if ! cargo test --release -q --test mutation_guard --no-run >/dev/null 2>"${TMPDIR:-/tmp}/mutation-guard-build.log"; then
  echo "mutation guard: the mutant schemata do not build: update the guard" >&2
  cat "${TMPDIR:-/tmp}/mutation-guard-build.log" >&2
  exit 1
fi
echo "mutation guard: built ${#MUTANTS[@]} mutants in one build ($((SECONDS - start)) s)"

# no mutant active: the named tests pass (else a catch below would mean nothing)
for filter in $(printf '%s\n' "${filters[@]}" | sort -u); do
  if ! env -u SADDLEFW_MUTANT cargo test --release -q --test mutation_guard -- "$filter" >/dev/null 2>&1; then
    echo "mutation guard: '$filter' fails with no mutant active: the guard is broken, not the code" >&2
    failed=1
  fi
done

k=0
for m in "${MUTANTS[@]}"; do
  IFS='|' read -r file old new filter <<<"$m"
  k=$((k + 1))
  [ -n "${applied[$k]:-}" ] || continue # reported above
  start=$SECONDS
  if SADDLEFW_MUTANT=$k cargo test --release -q --test mutation_guard -- "$filter" >/dev/null 2>&1; then
    echo "mutation guard: SURVIVED $file: '$old' -> '$new' (tests: $filter)" >&2
    failed=1
  else
    echo "mutation guard: caught $file: '$old' -> '$new' ($filter, $((SECONDS - start)) s)"
  fi
done
restore
# The schemata were built into target/release: the binary is put back as built from the
# unmutated source (what runs after the guard), without a rebuild; the restored sources are
# newer than the test binary, so the next cargo test rebuilds it.
cp "$bin_backup" "$bin"
rm -f "$bin_backup"
exit "$failed"
