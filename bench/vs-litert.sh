#!/bin/sh
# bench/vs-litert.sh [THREADS...]: tflaccel's cpu_xnnpack against LiteRT's CPU
# path (PyPI ai-edge-litert: the Interpreter with its default XNNPACK
# delegate) at the same thread count, interleaved run by run, and prints the
# ratio table. Creates a venv with ai-edge-litert and numpy on first use.
#   TFLACCEL_MODELS  model directory (default ../shared/models)
#   LITERT_VENV      where the venv lives (default bench/.venv-litert)
#   ROUNDS           interleaved rounds per model and thread count (default 5)
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
models=${TFLACCEL_MODELS:-$top/../shared/models}
venv=${LITERT_VENV:-$top/bench/.venv-litert}
if [ ! -x "$venv/bin/python" ] || ! "$venv/bin/python" -c 'import ai_edge_litert, numpy' 2>/dev/null; then
  python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet ai-edge-litert numpy
fi
[ $# -gt 0 ] || set -- 1 2
exec "$venv/bin/python" "$top/bench/vs_litert.py" --tflaccel "$top/tflaccel" --models "$models" \
  --rounds "${ROUNDS:-5}" --threads "$@"
