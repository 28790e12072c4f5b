#!/bin/sh
# The compiled-model cache's effect on start-up (issue #22): for each GPU
# plugin, `tflaccel bench` with an empty tflaccel cache (cold), then again
# with what that run wrote (warm); first with the drivers' own caches off
# (CUDA_CACHE_DISABLE=1 __GL_SHADER_DISK_CACHE=0 MESA_SHADER_CACHE_DISABLE=true
# POCL_KERNEL_CACHE=0), then on, each pointed at a fresh directory so that
# the cold run is cold for the driver too. Every pair is repeated (--repeat,
# default 3) on fresh directories; the table gives medians.
#
# Printed to stdout as a Markdown table: init (benchmark_model's: model
# load, plugins, compile) and first inference; of init, the driver's own
# start-up (the API opened: platform/instance/EGL display, then the
# device's context and queue, as the plugin logs them at debug level) and
# the rest; and where the compile went (lowering and constant packing, or
# on a warm start reading the lowered program's entry instead; buffers and
# constant upload; kernels, programs and pipelines). Nothing is
# written outside a temporary directory (removed at the end).
#
# usage: bench/cache-cold-warm.sh [--tflaccel PATH | --prefix DIR] [--repeat N]
#                                 MODEL [PLUGIN...]   (default: gpu_cl gpu_vk gpu_gl)
#   --tflaccel PATH  the tflaccel to run (default: ./tflaccel of a build tree,
#                    else the one on PATH)
#   --prefix DIR     an installed prefix: DIR/bin/tflaccel
set -eu

usage() {
  echo "usage: $0 [--tflaccel PATH | --prefix DIR] [--repeat N] MODEL [PLUGIN...]" >&2
  exit 2
}

tool=
repeat=3
while [ $# -gt 0 ]; do
  case $1 in
    --tflaccel) [ $# -ge 2 ] || usage; tool=$2; shift 2 ;;
    --tflaccel=*) tool=${1#--tflaccel=}; shift ;;
    --prefix) [ $# -ge 2 ] || usage; tool=$2/bin/tflaccel; shift 2 ;;
    --prefix=*) tool=${1#--prefix=}/bin/tflaccel; shift ;;
    --repeat) [ $# -ge 2 ] || usage; repeat=$2; shift 2 ;;
    --repeat=*) repeat=${1#--repeat=}; shift ;;
    -h|--help) sed -n '2,23p' "$0"; exit 0 ;;
    -*) usage ;;
    *) break ;;
  esac
done
[ $# -ge 1 ] || usage
model=$1
shift
plugins=${*:-gpu_cl gpu_vk gpu_gl}
if [ -z "$tool" ]; then
  if [ -x ./tflaccel ]; then tool=./tflaccel; else tool=$(command -v tflaccel || true); fi
fi
[ -n "$tool" ] && [ -x "$tool" ] || { echo "$0: no tflaccel to run (--tflaccel PATH)" >&2; exit 2; }
[ -r "$model" ] || { echo "$0: cannot read $model" >&2; exit 2; }
case $repeat in ''|*[!0-9]*|0) echo "$0: --repeat must be a whole number >= 1" >&2; exit 2 ;; esac

scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

# One bench run: its JSON and its debug log.
bench() { # name, then the environment assignments
  name=$1
  shift
  env "$@" TFLACCEL_LOG=debug "$tool" bench --graph="$model" --accelerator "$plugin" \
    --num_runs=3 --warmup_runs=1 --min_secs=0 --max_secs=5 --warmup_min_secs=0 \
    --json "$scratch/$name.json" >"$scratch/$name.out" 2>"$scratch/$name.log" || {
    echo "$0: $plugin ($name) failed:" >&2
    tail -n 5 "$scratch/$name.log" >&2
    exit 1
  }
}

echo "Model \`$(basename "$model")\`, $tool, medians of $repeat, $(date -u '+%Y-%m-%d %H:%M UTC')."
echo
echo "| plugin | driver caches | tflaccel cache | init (ms) | first inference (ms) | driver start-up (ms) | init without it (ms) | model load (ms) | lowering + packing, or its entry (ms) | buffers + upload (ms) | kernels / pipelines (ms) | warm / cold init |"
echo "|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
for plugin in $plugins; do
  for driver in off on; do
    i=1
    while [ "$i" -le "$repeat" ]; do
      dir="$scratch/$plugin-$driver-$i"
      mkdir -p "$dir"
      chmod 700 "$dir"
      if [ "$driver" = off ]; then
        set -- CUDA_CACHE_DISABLE=1 __GL_SHADER_DISK_CACHE=0 MESA_SHADER_CACHE_DISABLE=true \
          POCL_KERNEL_CACHE=0
      else
        set -- CUDA_CACHE_DISABLE=0 CUDA_CACHE_PATH="$dir/cuda" __GL_SHADER_DISK_CACHE=1 \
          __GL_SHADER_DISK_CACHE_PATH="$dir/nvidia-gl" __GL_SHADER_DISK_CACHE_SKIP_CLEANUP=1 \
          MESA_SHADER_CACHE_DISABLE=false MESA_SHADER_CACHE_DIR="$dir/mesa" \
          POCL_KERNEL_CACHE=1 POCL_CACHE_DIR="$dir/pocl"
      fi
      mkdir -p "$dir/cuda" "$dir/nvidia-gl" "$dir/mesa" "$dir/pocl"
      for run in cold warm; do
        bench "$plugin-$driver-$i-$run" "$@" TFLACCEL_CACHE=on TFLACCEL_CACHE_DIR="$dir/tflaccel"
      done
      i=$((i + 1))
    done
  done
done >"$scratch/.runs"

python3 - "$scratch" "$repeat" $plugins <<'PY'
import json, os, re, statistics, sys
scratch, repeat, plugins = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
opened = re.compile(r"driver start-up: .* opened in ([0-9.]+) ms")
compiled = re.compile(r"compile time: lowering and constant packing ([0-9.]+) ms, buffers and "
                      r"constant upload ([0-9.]+) ms, kernels and pipelines ([0-9.]+) ms")
def one(name):
    d = json.load(open(os.path.join(scratch, name + ".json")))
    log = open(os.path.join(scratch, name + ".log")).read()
    start = sum(float(m) for m in opened.findall(log))
    parts = [tuple(float(x) for x in m) for m in compiled.findall(log)]
    lowering, upload, kernels = (sum(p[k] for p in parts) for k in range(3))
    init = d["init_us"] / 1000.0
    return [init, d["first_us"] / 1000.0, start, init - start, d.get("load_us", 0) / 1000.0,
            lowering, upload, kernels]
for plugin in plugins:
    for driver in ("off", "on"):
        medians = {}
        for run in ("cold", "warm"):
            rows = [one("%s-%s-%d-%s" % (plugin, driver, i, run)) for i in range(1, repeat + 1)]
            medians[run] = [statistics.median(column) for column in zip(*rows)]
        for run in ("cold", "warm"):
            m = medians[run]
            ratio = "%.0f %%" % (100.0 * m[0] / medians["cold"][0]) if run == "warm" else ""
            print("| %s | %s | %s | %s | %s |" % (
                plugin, driver, run, " | ".join("%.1f" % x for x in m), ratio))
PY
