#!/bin/sh
# bench/quant-vs-litert.sh [MODEL...]: cpu_ref's integer results against
# TensorFlow Lite's own kernels (PyPI ai-edge-litert), both its reference
# kernels and its optimized ones (bench/quant_vs_litert.py), on
#   1. the quantized elementwise binary cases of
#      tests/cpu_ref_quant/binary_cases.h, all 256 x 256 input pairs each,
#      written as .tflite files by bench/quant_binary_models.c;
#   2. the given models (default: the quantized models of ../shared/models),
#      on the xorshift32 inputs of ../shared/models/README.md.
# Needs a built tree (./tflaccel) and a C compiler; creates a venv with
# ai-edge-litert and numpy on first use.
#   TFLACCEL_MODELS  model directory (default ../shared/models)
#   LITERT_VENV      where the venv lives (default bench/.venv-litert)
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
models=${TFLACCEL_MODELS:-$top/../shared/models}
venv=${LITERT_VENV:-$top/bench/.venv-litert}
if [ ! -x "$venv/bin/python" ] || ! "$venv/bin/python" -c 'import ai_edge_litert, numpy' 2>/dev/null; then
  python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet ai-edge-litert numpy
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
${CC:-cc} -std=c11 -O1 -I"$top" -I"$top/include" -include "$top/config.h" \
  -o "$work/quant_binary_models" "$top/bench/quant_binary_models.c" \
  "$top/tests/model/tflite_builder.c" "$top/tests/model/flatbuffer_writer.c"
mkdir "$work/cases"
"$work/quant_binary_models" "$work/cases" > "$work/cases/names.txt"
python3 -c 'import sys; open(sys.argv[1], "wb").write(bytes(range(256)))' "$work/values.bin"
echo "## Binary op cases (all 256 x 256 input pairs)"
echo
cat "$work/cases/names.txt" | sed 's/^/    case/'
echo
"$venv/bin/python" "$top/bench/quant_vs_litert.py" --tflaccel "$top/tflaccel" \
  --inputs "$work/values.bin" "$work/values.bin" -- "$work"/cases/case*.tflite
echo
echo "## Models (xorshift32 inputs, seed 1)"
echo
if [ $# -eq 0 ]; then
  set -- "$models"/coral__mobilenet_v1_0.25_128_quant.tflite \
    "$models"/coral__tf2_mobilenet_v2_1.0_224_ptq.tflite \
    "$models"/tflm__mobilenet_v2_quantized_1x3x224x224.tflite \
    "$models"/coral__deeplabv3_mnv2_dm05_pascal_quant.tflite \
    "$models"/tflm__hello_world_int8.tflite "$models"/tflm__micro_speech_quantized.tflite \
    "$models"/tflm__keyword_scrambled.tflite
fi
exec "$venv/bin/python" "$top/bench/quant_vs_litert.py" --tflaccel "$top/tflaccel" -- "$@"
