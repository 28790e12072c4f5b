#!/bin/sh
# Quantized models against their float twins on the GPU plugins (issue #19
# item 7: a quantized model runs no slower than the float model of the same
# architecture). For each quantized model of the corpus and, where the
# corpus has one, its float twin, on each GPU plugin: `tflaccel bench
# --num_runs N` (fp32; the partition's dispatch count from the plugin's
# "N ops -> M dispatches" line), as a Markdown table of median and mean
# microseconds per run. A model a plugin does not take whole still runs
# (its other ops on cpu_ref): the ops column says how many the GPU took.
#
# Float twins in ../shared/models: tflm__hello_world_int8 <->
# tflm__hello_world_float only. The other quantized models have none there
# (the coral__* and tflm__* quantized models are of architectures the corpus
# holds no float model of); they are timed alone, with "-" for the twin.
#
# The corpus's only twin is three layers deep, so per-dispatch differences
# sit near the GPU timestamps' resolution there; --mlp LAYERS adds a deeper
# pair (bench/mlp_twin_models.c, built here against the test suite's
# .tflite writer: LAYERS fully connected layers of 16 units, the int8 model
# the float one's weights quantized as TFLite's converter does).
#
# usage: bench/quant-vs-float.sh [--tflaccel PATH] [--models DIR]
#                                [--num_runs N] [--mlp LAYERS]
#                                [MODEL...] [-- PLUGIN...]
#   --tflaccel PATH  the tflaccel to run (default: ./tflaccel of a build
#                    tree, else the one on PATH)
#   --models DIR     model directory (default ../shared/models)
#   --num_runs N     timed runs per model and plugin (default 200)
#   --mlp LAYERS     also the synthetic twins mlp_int8 / mlp_float
#   MODEL...         quantized model names (default: every quantized one
#                    present); PLUGIN... default gpu_cl gpu_vk gpu_gl
set -eu

usage() {
  echo "usage: $0 [--tflaccel PATH] [--models DIR] [--num_runs N] [--mlp LAYERS] [MODEL...] [-- PLUGIN...]" >&2
  exit 2
}

top=$(cd "$(dirname "$0")/.." && pwd)
tool=
models=$top/../shared/models
runs=200
names=
plugins=
mlp=
while [ $# -gt 0 ]; do
  case $1 in
    --tflaccel) [ $# -ge 2 ] || usage; tool=$2; shift 2 ;;
    --tflaccel=*) tool=${1#--tflaccel=}; shift ;;
    --models) [ $# -ge 2 ] || usage; models=$2; shift 2 ;;
    --models=*) models=${1#--models=}; shift ;;
    --num_runs) [ $# -ge 2 ] || usage; runs=$2; shift 2 ;;
    --num_runs=*) runs=${1#--num_runs=}; shift ;;
    --mlp) [ $# -ge 2 ] || usage; mlp=$2; shift 2 ;;
    --mlp=*) mlp=${1#--mlp=}; shift ;;
    --) shift; plugins=$*; break ;;
    -*) usage ;;
    *) names="$names $1"; shift ;;
  esac
done
case $runs in ''|*[!0-9]*) echo "$0: --num_runs wants a whole number, not '$runs'" >&2; exit 2 ;; esac
case $mlp in *[!0-9]*) echo "$0: --mlp wants a whole number of layers, not '$mlp'" >&2; exit 2 ;; esac
if [ -z "$tool" ]; then
  if [ -x "$top/tflaccel" ]; then tool=$top/tflaccel; else tool=tflaccel; fi
fi
command -v "$tool" >/dev/null 2>&1 || { echo "$0: no tflaccel at '$tool'" >&2; exit 1; }
[ -d "$models" ] || { echo "$0: no model directory '$models'" >&2; exit 1; }
[ -n "$plugins" ] || plugins="gpu_cl gpu_vk gpu_gl"

# The corpus's quantized models (int8/uint8 activations).
quantized="coral__deeplabv3_mnv2_dm05_pascal_quant coral__keras_lstm_mnist_ptq
coral__mobilenet_v1_0.25_128_quant coral__movenet_single_pose_lightning_ptq
coral__posenet_mobilenet_v1_075_353_481_16_quant_decoder coral__tf2_mobilenet_v2_1.0_224_ptq
tflm__dtln_noise_suppression tflm__hello_world_int8 tflm__keyword_scrambled
tflm__micro_speech_quantized tflm__mobilenet_v2_quantized_1x3x224x224 tflm__person_detect"
[ -n "$names" ] || names=$quantized

twin_of() {
  case $1 in
    tflm__hello_world_int8) echo tflm__hello_world_float ;;
    mlp_int8) echo mlp_float ;;
    *) echo - ;;
  esac
}

work=$(mktemp -d "${TMPDIR:-/tmp}/quant-vs-float.XXXXXX")
trap 'rm -rf "$work"' EXIT

# The synthetic twins live beside the corpus, in a directory of their own.
mlp_dir=$work/mlp
if [ -n "$mlp" ]; then
  mkdir "$mlp_dir"
  ${CC:-cc} -std=c11 -O1 -I"$top" -I"$top/include" -include "$top/config.h" \
    -o "$work/mlp_twin_models" "$top/bench/mlp_twin_models.c" \
    "$top/tests/model/tflite_builder.c" "$top/tests/model/flatbuffer_writer.c" -lm
  "$work/mlp_twin_models" "$mlp_dir" "$mlp" 16 >&2
  names="$names mlp_int8"
fi
model_path() {
  case $1 in
    mlp_*) echo "$mlp_dir/$1.tflite" ;;
    *) echo "$models/$1.tflite" ;;
  esac
}

# bench MODEL PLUGIN: prints "median mean dispatches ops/total" (or "failed").
bench() {
  json=$work/run.json
  if "$tool" bench "$(model_path "$1")" --accelerator "$2" --precision fp32 \
       --num_runs "$runs" --min_secs 0 --warmup_runs 5 --warmup_min_secs 0 \
       --json "$json" >"$work/out" 2>&1; then
    dispatches=$(sed -n "s/.*$2: [0-9]* ops -> \([0-9]*\) dispatches.*/\1/p" "$work/out" |
                 awk '{s += $1} END {print s + 0}')
    python3 - "$json" "$dispatches" "$2" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
gpu = sum(a["ops"] for a in d.get("ops_per_accelerator", []) if a["accelerator"] == sys.argv[3])
print("%.1f %.1f %s %d/%d" % (d["inference_median_us"], d["inference_avg_us"], sys.argv[2],
                             gpu, d["op_count"]))
EOF
  else
    echo failed
    sed -n '$p' "$work/out" >&2
  fi
}

echo "| plugin | quantized model | median us | mean us | dispatches | GPU ops | float twin | median us | mean us | dispatches | GPU ops |"
echo "|---|---|---|---|---|---|---|---|---|---|---|"
for plugin in $plugins; do
  for name in $names; do
    [ -f "$(model_path "$name")" ] || { echo "$0: skipping $name: not in $models" >&2; continue; }
    # shellcheck disable=SC2046 # the four fields are split on purpose
    set -- $(bench "$name" "$plugin")
    if [ "$1" = failed ]; then q="failed | | | "; else q="$1 | $2 | $3 | $4"; fi
    twin=$(twin_of "$name")
    f="- | - | - | -"
    if [ "$twin" != - ] && [ -f "$(model_path "$twin")" ]; then
      # shellcheck disable=SC2046
      set -- $(bench "$twin" "$plugin")
      if [ "$1" = failed ]; then f="failed | | | "; else f="$1 | $2 | $3 | $4"; fi
    fi
    echo "| $plugin | $name | $q | $twin | $f |"
  done
done
