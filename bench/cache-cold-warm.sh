#!/bin/sh
# The compiled-model cache's effect on start-up: for each GPU plugin, one
# `tflaccel bench` run with an empty tflaccel cache (cold) and one with the
# cache the first run filled (warm), with the drivers' own shader/kernel
# caches off (MESA_SHADER_CACHE_DISABLE=true, POCL_KERNEL_CACHE=0) and then
# on (each in a fresh directory, so their first run is cold too). Prints a
# Markdown table of init (model load, plugin loading, compilation) and the
# first inference, as bench/RESULTS.md records.
#
# usage: bench/cache-cold-warm.sh MODEL [ACCELERATORS]   (default: gpu_cl gpu_vk gpu_gl)
set -eu
model=${1:?usage: bench/cache-cold-warm.sh MODEL [ACCELERATORS]}
accelerators=${2:-gpu_cl gpu_vk gpu_gl}
tool=${TFLACCEL:-./tflaccel}
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

row() { # accelerator, driver caches, run, json file
  python3 - "$@" <<'PY'
import json, sys
accelerator, driver, run, path = sys.argv[1:5]
d = json.load(open(path))
print("| %s | %s | %s | %.1f | %.1f |" % (accelerator, driver, run, d["init_us"] / 1000.0,
                                         d["first_us"] / 1000.0))
PY
}

echo "| accelerator | driver caches | tflaccel cache | init (ms) | first inference (ms) |"
echo "|---|---|---|---:|---:|"
for accelerator in $accelerators; do
  for driver in off on; do
    dir="$scratch/$accelerator-$driver"
    mkdir -p "$dir/tflaccel" "$dir/mesa" "$dir/pocl"
    chmod 700 "$dir/tflaccel"
    if [ "$driver" = off ]; then
      set -- env MESA_SHADER_CACHE_DISABLE=true POCL_KERNEL_CACHE=0
    else
      set -- env MESA_SHADER_CACHE_DISABLE=false POCL_KERNEL_CACHE=1 \
        MESA_SHADER_CACHE_DIR="$dir/mesa" POCL_CACHE_DIR="$dir/pocl"
    fi
    for run in cold warm; do
      "$@" TFLACCEL_CACHE_DIR="$dir/tflaccel" "$tool" bench --graph="$model" \
        --accelerator "$accelerator" --num_runs=3 --warmup_runs=1 --min_secs 0 --max_secs 5 \
        --json "$dir/$run.json" >/dev/null 2>&1
      row "$accelerator" "$driver" "$run" "$dir/$run.json"
    done
  done
done
