#!/usr/bin/env bash
# End-to-end test of the README's "Running on a cluster" recipe on a real Slurm: installs Slurm
# from Debian's packages (munge, slurmctld, slurmd, slurm-client) when it is missing, starts a
# single-node cluster on localhost (its own configuration under $WORK, its own ports, nothing in
# /etc/slurm is touched), submits `verify --shard` and `check --shard` as job arrays
# (scripts/slurm/*.sbatch, the files the README shows), waits for them, merges the shards and
# compares the merged reports with the single-machine ones, ignoring only timing and build
# fields (scripts/compare/compare.py). Stops the daemons it started.
#
# Usage: scripts/slurm-e2e.sh            (from the repository; needs root to install and start)
# Environment:
#   SHARDS       number of array tasks per command (default 3)
#   VERIFY_ARGS  options of verify (default "--tier quick --cases lmo-po/": small for CI;
#                "--tier quick" for every entry)
#   CHECK_ARGS   options of check (default "--cases 60")
#   WORK         scratch directory (default target/slurm-e2e; emptied first)
#   SADDLEFW     the binary (default: cargo build --release, target/release/saddlefw)
# Exit codes: 0 equal (or SKIPPED, printed as such: no root, no apt-get, the daemons did not
# start), 1 the merged reports differ from the single-machine ones or a job failed.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
SHARDS=${SHARDS:-3}
VERIFY_ARGS=${VERIFY_ARGS:---tier quick --cases lmo-po/}
CHECK_ARGS=${CHECK_ARGS:---cases 60}
WORK=$(mkdir -p "${WORK:-target/slurm-e2e}" && cd "${WORK:-target/slurm-e2e}" && pwd)
PIDS=()

skip() {
  echo "slurm-e2e: SKIPPED: $*"
  exit 0
}
fail() {
  echo "slurm-e2e: FAILED: $*" >&2
  exit 1
}
cleanup() {
  for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done
}
trap cleanup EXIT

# 1. Slurm and munge from Debian's packages
if ! command -v slurmctld >/dev/null || ! command -v slurmd >/dev/null || ! command -v sbatch >/dev/null; then
  [ "$(id -u)" = 0 ] || skip "Slurm is not installed and installing it needs root"
  command -v apt-get >/dev/null || skip "Slurm is not installed and there is no apt-get"
  echo "slurm-e2e: installing munge, slurmctld, slurmd, slurm-client" >&2
  { apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q \
      munge slurmctld slurmd slurm-client; } >"$WORK/apt.log" 2>&1 ||
    skip "apt-get install failed (see $WORK/apt.log)"
fi
[ "$(id -u)" = 0 ] || skip "starting munged and slurmd needs root"

if [ -z "${SADDLEFW:-}" ]; then
  cargo build --release --quiet
  SADDLEFW=${CARGO_TARGET_DIR:-$ROOT/target}/release/saddlefw
fi
SADDLEFW=$(cd "$(dirname "$SADDLEFW")" && pwd)/$(basename "$SADDLEFW")

rm -rf "$WORK/etc" "$WORK/spool" "$WORK/logs" "$WORK/shards" "$WORK/merged" "$WORK/single" "$WORK/json"
mkdir -p "$WORK/etc" "$WORK/spool/ctld" "$WORK/spool/d" "$WORK/logs" "$WORK/shards"

# 2. munge (authentication between the Slurm daemons and clients)
if ! munge -n 2>/dev/null | unmunge >/dev/null 2>&1; then
  [ -s /etc/munge/munge.key ] || mungekey --create >/dev/null 2>&1 ||
    skip "no munge key and mungekey failed"
  mkdir -p /run/munge /var/log/munge /var/lib/munge
  chown munge:munge /run/munge /var/log/munge /var/lib/munge /etc/munge/munge.key
  chmod 0400 /etc/munge/munge.key
  runuser -u munge -- /usr/sbin/munged || skip "munged did not start"
  for _ in $(seq 50); do munge -n 2>/dev/null | unmunge >/dev/null 2>&1 && break; sleep 0.2; done
  # stopped again on exit (it was not running before)
  if [ -s /run/munge/munged.pid ]; then PIDS+=("$(cat /run/munge/munged.pid)"); fi
  munge -n | unmunge >/dev/null 2>&1 || skip "munge does not authenticate"
fi

# 3. A one-node cluster on this machine, on its own ports
HOST=$(hostname -s)
CPUS=$(nproc)
export SLURM_CONF=$WORK/etc/slurm.conf
cat >"$SLURM_CONF" <<CONF
ClusterName=saddlefw-e2e
SlurmctldHost=$HOST
SlurmctldPort=16817
SlurmdPort=16818
SlurmUser=root
AuthType=auth/munge
StateSaveLocation=$WORK/spool/ctld
SlurmdSpoolDir=$WORK/spool/d
SlurmctldPidFile=$WORK/spool/slurmctld.pid
SlurmdPidFile=$WORK/spool/slurmd.pid
SlurmctldLogFile=$WORK/logs/slurmctld.log
SlurmdLogFile=$WORK/logs/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
MpiDefault=none
ReturnToService=2
KillWait=30
NodeName=$HOST CPUs=$CPUS State=UNKNOWN
PartitionName=e2e Nodes=$HOST Default=YES MaxTime=INFINITE State=UP
CONF
# no cgroup.conf: proctrack/linuxproc and task/none need no cgroups

slurmctld -D -i -f "$SLURM_CONF" >>"$WORK/logs/slurmctld.out" 2>&1 &
PIDS+=($!)
slurmd -D -f "$SLURM_CONF" >>"$WORK/logs/slurmd.out" 2>&1 &
PIDS+=($!)
state=""
for _ in $(seq 60); do
  state=$(sinfo -h -N -o %T 2>/dev/null | head -1 || true)
  case "$state" in idle*|mix*|alloc*) break ;; esac
  sleep 1
done
case "$state" in
  idle*|mix*|alloc*) echo "slurm-e2e: node $HOST is $state ($CPUS CPUs)" ;;
  *)
    tail -5 "$WORK/logs/slurmctld.log" "$WORK/logs/slurmd.log" "$WORK/logs/"*.out 2>/dev/null || true
    skip "the Slurm daemons did not start (node state: '${state:-none}')"
    ;;
esac

# 4. The README's recipe: one job array per command, then merge
export SADDLEFW SHARDS VERIFY_ARGS CHECK_ARGS SHARDS_DIR=$WORK/shards
start=$(date +%s)
submit() { # NAME SCRIPT
  sbatch --wait --parsable --array="1-$SHARDS" --export=ALL --chdir="$ROOT" \
    --output="$WORK/logs/$1-%a.out" "scripts/slurm/$2"
}
submit verify verify-shard.sbatch >"$WORK/logs/verify.jobid" &
vpid=$!
submit check check-shard.sbatch >"$WORK/logs/check.jobid" &
cpid=$!
ok=1
wait $vpid || ok=0
wait $cpid || ok=0
echo "slurm-e2e: job arrays $(cat "$WORK/logs/verify.jobid") (verify) and $(cat "$WORK/logs/check.jobid") (check): $SHARDS tasks each, $(( $(date +%s) - start )) s"
if [ $ok = 0 ]; then
  tail -20 "$WORK/logs/"verify-*.out "$WORK/logs/"check-*.out >&2 || true
  fail "a job of the arrays failed"
fi
code_merged=0
"$SADDLEFW" merge "$WORK"/shards/verify-* --out "$WORK/merged/verify" >"$WORK/logs/merge-verify.out" || code_merged=$?
code_merged_check=0
"$SADDLEFW" merge "$WORK"/shards/check-* --out "$WORK/merged/check" >"$WORK/logs/merge-check.out" || code_merged_check=$?

# 5. The same on one machine, and the comparison (timings and build fields ignored)
code_single=0
# shellcheck disable=SC2086
"$SADDLEFW" verify $VERIFY_ARGS -q --out "$WORK/single/verify" >/dev/null || code_single=$?
code_single_check=0
# shellcheck disable=SC2086
"$SADDLEFW" check $CHECK_ARGS -q --out "$WORK/single/check" >/dev/null || code_single_check=$?
[ $code_merged = $code_single ] || fail "merge of verify exited $code_merged, the single run $code_single"
[ $code_merged_check = $code_single_check ] ||
  fail "merge of check exited $code_merged_check, the single run $code_single_check"
# the JSON reports only (the HTML pages carry the date and timings)
for side in single merged; do
  mkdir -p "$WORK/json/$side/verify" "$WORK/json/$side/check"
  cp "$WORK/$side/verify/verify.json" "$WORK/json/$side/verify/"
  cp "$WORK/$side/check/CHECK.json" "$WORK/json/$side/check/"
done
python3 scripts/compare/compare.py "$WORK/json/single" "$WORK/json/merged" ||
  fail "the merged reports differ from the single-machine ones"
echo "slurm-e2e: PASSED: merged verify.json and CHECK.json equal the single-machine ones (exit codes $code_single, $code_single_check)"
