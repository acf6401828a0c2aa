#!/bin/sh
# Side-by-side peer benchmark (see benches/peers/run.py); skips with a message when Python, NumPy
# or SciPy are absent. Install them with: pip install numpy scipy threadpoolctl
set -e
PY=${PYTHON:-python3}
if ! command -v "$PY" >/dev/null 2>&1; then
    echo "SKIP peer benchmark: $PY not found (install Python 3, then: pip install numpy scipy threadpoolctl)"
    exit 0
fi
if ! "$PY" -c 'import numpy, scipy' >/dev/null 2>&1; then
    echo "SKIP peer benchmark: NumPy/SciPy not importable by $PY (pip install numpy scipy threadpoolctl)"
    exit 0
fi
exec "$PY" "$(dirname "$0")/run.py" "$@"
