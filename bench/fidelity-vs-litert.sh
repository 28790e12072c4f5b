#!/bin/sh
# bench/fidelity-vs-litert.sh: how far cpu_xnnpack and LiteRT's CPU path
# each are from the TFLite references (same inputs); see fidelity_vs_litert.py.
# Uses the venv of bench/vs-litert.sh (creating it if needed).
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
models=${TFLACCEL_MODELS:-$top/../shared/models}
venv=${LITERT_VENV:-$top/bench/.venv-litert}
if [ ! -x "$venv/bin/python" ] || ! "$venv/bin/python" -c 'import ai_edge_litert, numpy' 2>/dev/null; then
  python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet ai-edge-litert numpy
fi
exec "$venv/bin/python" "$top/bench/fidelity_vs_litert.py" --tflaccel "$top/tflaccel" --models "$models"
