#!/usr/bin/env bash
# The Python package (python/, issue 37), run by .ci/run: `pip install ./python` into a fresh
# virtual environment (maturin builds the abi3 wheel; the crate's dependencies come from the
# same target directory and release profile as `cargo test --release`, so only pyo3, numpy's
# bindings and the extension itself compile), then the package's pytest suite and the
# in-process example of examples/python.
# Usage: scripts/python-package.sh WORK_DIR [install|test]   (default: both, in that order;
#        `install` builds and installs the wheel, `test` runs the suite of an installed WORK_DIR)
# Environment: CARGO_TARGET_DIR (default: ./target), SADDLEFW_PY_FULL (default 1: the full
# lmo-lmo/ quick tier; 0 keeps the strongly concave case only).
set -euo pipefail
work=$1
phase=${2:-all}
root=$PWD
export CARGO_TARGET_DIR=${CARGO_TARGET_DIR:-$root/target}
if [ "$phase" != test ]; then
  rm -rf "$work"
  python3 -m venv "$work/venv"
  start=$(date +%s)
  "$work/venv/bin/python" -m pip install --quiet --disable-pip-version-check numpy pytest
  "$work/venv/bin/python" -m pip install --quiet --disable-pip-version-check "$root/python"
  echo "python package: wheel built and installed in $(($(date +%s) - start)) s"
fi
[ "$phase" != install ] || exit 0
work=$(cd "$work" && pwd) # absolute: the tests run from inside it
py=$work/venv/bin/python
built=$(date +%s)
# from another directory, so that the source folder python/saddlefw does not shadow the wheel
cd "$work"
"$py" -m pytest -q -p no:cacheprovider "$root/python/tests" "$root/examples/python/test_lmo_lmo_inprocess.py"
echo "python package: tests ran in $(( $(date +%s) - built )) s"
