#!/usr/bin/env bash
# The Python package (python/, issue 37), run by .ci/run: `pip install ./python` into a fresh
# virtual environment (maturin builds the abi3 wheel; the crate's dependencies come from the
# same target directory and release profile as `cargo test --release`, so only pyo3, numpy's
# bindings and the extension itself compile), then the package's pytest suite and the
# in-process example of examples/python.
# Usage: scripts/python-package.sh WORK_DIR
# Environment: CARGO_TARGET_DIR (default: ./target), SADDLEFW_PY_FULL (default 1: the full
# lmo-lmo/ quick tier; 0 keeps the strongly concave case only).
set -euo pipefail
work=$1
root=$PWD
export CARGO_TARGET_DIR=${CARGO_TARGET_DIR:-$root/target}
rm -rf "$work"
python3 -m venv "$work/venv"
work=$(cd "$work" && pwd) # absolute: the tests run from inside it
py=$work/venv/bin/python
start=$(date +%s)
"$py" -m pip install --quiet --disable-pip-version-check numpy pytest
"$py" -m pip install --quiet --disable-pip-version-check "$root/python"
built=$(date +%s)
echo "python package: wheel built and installed in $((built - start)) s"
# from another directory, so that the source folder python/saddlefw does not shadow the wheel
cd "$work"
"$py" -m pytest -q -p no:cacheprovider "$root/python/tests" "$root/examples/python/test_lmo_lmo_inprocess.py"
echo "python package: tests ran in $(( $(date +%s) - built )) s"
