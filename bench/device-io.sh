#!/bin/sh
# device-io.sh MODEL_DIR [PLUGINS]
#
# What device buffers and asynchronous runs buy (issue 16), one Markdown
# table on stdout, progress on stderr. For each GPU plugin and each of
# pose_landmark_lite and selfie_segmentation (in MODEL_DIR), `tflaccel bench`
# runs FRAMES frames:
#   host       --io=host: inputs and outputs copied through host memory
#   device     --io=device: in the plugin's own buffers, no host copy
#   async      --io=device --async: frames queued back to back with run_async
#   sync+cpu   --io=device with W us of CPU busy-work per frame, synchronous
#   async+cpu  the same with --async: the CPU work of frame N+1 overlaps the
#              GPU's frame N
# W is the device run's median latency, so CPU and GPU work alike per frame
# (the issue's goal: async+cpu at least 1.5x sync+cpu frames/s).
# Latencies are medians in microseconds; "saved" is host minus device.
#
#   PLUGINS   whitespace-separated (default: "gpu_cl gpu_vk gpu_gl")
# Environment:
#   TFLACCEL  the tflaccel binary (default: ./tflaccel)
#   FRAMES    timed frames per run (default: 1000)
#   MODELS    model file names in MODEL_DIR (default:
#             "pose_landmark_lite.tflite selfie_segmentation.tflite")
#   BENCH_FLAGS  more flags for every bench (e.g. "--precision=fp16")
set -u

die() {
  echo "device-io.sh: $*" >&2
  exit 1
}

[ $# -ge 1 ] && [ $# -le 2 ] || { echo "usage: $0 MODEL_DIR [PLUGINS]" >&2; exit 2; }
model_dir=$1
plugins=${2:-gpu_cl gpu_vk gpu_gl}
tflaccel=${TFLACCEL:-./tflaccel}
frames=${FRAMES:-1000}
models=${MODELS:-pose_landmark_lite.tflite selfie_segmentation.tflite}
bench_flags=${BENCH_FLAGS:-}
[ -d "$model_dir" ] || die "$model_dir is not a directory"
[ -x "$tflaccel" ] || die "$tflaccel is not an executable (set TFLACCEL)"
case $frames in '' | *[!0-9]* | 0) die "FRAMES must be a positive whole number, not '$frames'" ;; esac

work=$(mktemp -d "${TMPDIR:-/tmp}/device-io.XXXXXX") || die "cannot make a temporary directory"
trap 'rm -rf "$work"' EXIT

# bench PLUGIN MODEL ARGS...: runs one bench into $work/out; the status is
# the tool's. Sets median, fps, copies (or "n/a" each) and error.
bench() {
  plugin=$1
  model=$2
  shift 2
  echo "device-io.sh: $plugin $(basename "$model") $*" >&2
  # shellcheck disable=SC2086 # BENCH_FLAGS splits on purpose
  TFLACCEL_LOG=error "$tflaccel" bench "$model" --accelerator "$plugin" --num_runs="$frames" \
    --min_secs=0 --warmup_runs=20 --warmup_min_secs=0 $bench_flags "$@" >"$work/out" 2>"$work/err"
  status=$?
  median=$(sed -n 's/^count=.* median=\([0-9.e+]*\)$/\1/p' "$work/out" | tail -n 1)
  fps=$(sed -n 's/^Throughput: \([0-9.]*\) frames\/s.*/\1/p' "$work/out")
  copies=$(sed -n 's/^Host copies per run: \([0-9]*\) (\([0-9]*\) bytes)$/\1 (\2 B)/p' "$work/out")
  error=$(tail -n 1 "$work/err" | tr '|' '/')
  if [ "$status" -ne 0 ] || [ -z "$median" ]; then
    median="n/a"
    fps="n/a"
    copies="n/a"
    return 1
  fi
  return 0
}

ratio() {
  awk -v a="$1" -v b="$2" 'BEGIN { if (a + 0 > 0 && b + 0 > 0) printf "%.2fx", a / b; else print "n/a" }'
}

difference() {
  awk -v a="$1" -v b="$2" 'BEGIN { if (a + 0 > 0 && b + 0 > 0) printf "%.0f", a - b; else print "n/a" }'
}

echo "| plugin | model | host: median us, copies/run | device: median us, copies/run | saved us/run | sync fps | async fps | CPU work us/frame | sync+cpu fps | async+cpu fps | async+cpu / sync+cpu |"
echo "|---|---|---|---|---|---|---|---|---|---|---|"
for plugin in $plugins; do
  for name in $models; do
    model="$model_dir/$name"
    short=$(basename "$name" .tflite)
    if [ ! -f "$model" ]; then
      echo "| $plugin | $short | missing: $model | | | | | | | | |"
      continue
    fi
    if ! bench "$plugin" "$model" --io=host; then
      echo "| $plugin | $short | failed: $error | | | | | | | | |"
      continue
    fi
    host_median=$median host_copies=$copies
    if ! bench "$plugin" "$model" --io=device; then
      echo "| $plugin | $short | $host_median, $host_copies | failed: $error | | | | | | | |"
      continue
    fi
    device_median=$median device_copies=$copies sync_fps=$fps
    bench "$plugin" "$model" --io=device --async || true
    async_fps=$fps
    work_us=$(awk -v m="$device_median" 'BEGIN { printf "%.0f", m }')
    bench "$plugin" "$model" --io=device --cpu_work_us="$work_us" || true
    sync_cpu_fps=$fps
    bench "$plugin" "$model" --io=device --async --cpu_work_us="$work_us" || true
    async_cpu_fps=$fps
    echo "| $plugin | $short | $host_median, $host_copies | $device_median, $device_copies |" \
      "$(difference "$host_median" "$device_median") | $sync_fps | $async_fps | $work_us |" \
      "$sync_cpu_fps | $async_cpu_fps | $(ratio "$async_cpu_fps" "$sync_cpu_fps") |"
  done
done
