#!/bin/sh
# compare-builds.sh TFLACCEL_A TFLACCEL_B MODEL_DIR [MODELS] [ACCELERATORS] [PRECISIONS]
#
# Times two builds of tflaccel side by side, interleaved in one run (the
# machines lent for GPU work differ by ~5% from one call to the next, so
# only builds measured together compare): for each model, accelerator and
# precision, ROUNDS rounds of `tflaccel bench`, A then B in odd rounds and
# B then A in even ones. Prints
# one Markdown table of the median latencies (ms, one figure per round),
# with the dispatch count each build reported. Progress goes to stderr.
#
#   TFLACCEL_A/B  the two tflaccel binaries (e.g. two installed prefixes)
#   MODELS        whitespace-separated model names in MODEL_DIR, without
#                 .tflite (default: "pose_landmark_lite hand_landmark_lite")
#   ACCELERATORS  default "gpu_cl gpu_vk gpu_gl"
#   PRECISIONS    default "fp32 fp16"
# Environment:
#   ROUNDS        rounds per combination (default: 3)
#   NUM_RUNS      timed runs per bench (default: 200, after 10 warm-ups)
#   FULL_DELEGATION  1 (default): each run must put every op on its first
#                 accelerator (--require_full_delegation); 0: the rest may fall
#                 back (e.g. ACCELERATORS "cpu_xnnpack,cpu_ref")
#
# JSON is read with python3.
set -u

usage() {
  echo "usage: $0 TFLACCEL_A TFLACCEL_B MODEL_DIR [MODELS] [ACCELERATORS] [PRECISIONS]" >&2
  exit 2
}

die() {
  echo "compare-builds.sh: $*" >&2
  exit 1
}

if [ $# -lt 3 ] || [ $# -gt 6 ]; then usage; fi
build_a=$1
build_b=$2
model_dir=$3
models=${4:-pose_landmark_lite hand_landmark_lite}
accelerators=${5:-gpu_cl gpu_vk gpu_gl}
precisions=${6:-fp32 fp16}
rounds=${ROUNDS:-3}
num_runs=${NUM_RUNS:-200}

[ -x "$build_a" ] || die "$build_a is not an executable"
[ -x "$build_b" ] || die "$build_b is not an executable"
[ -d "$model_dir" ] || die "$model_dir is not a directory"
command -v python3 >/dev/null 2>&1 || die "python3 is needed to read the JSON results"
case $rounds in '' | *[!0-9]*) die "ROUNDS must be a whole number, not '$rounds'" ;; esac
case $num_runs in '' | *[!0-9]*) die "NUM_RUNS must be a whole number, not '$num_runs'" ;; esac

full_flag=--require_full_delegation
[ "${FULL_DELEGATION:-1}" = 0 ] && full_flag=
work=$(mktemp -d "${TMPDIR:-/tmp}/compare-builds.XXXXXX") || die "cannot make a temporary directory"
trap 'rm -rf "$work"' EXIT
trap 'exit 130' INT TERM

# bench BINARY MODEL ACCELERATOR PRECISION: prints "MEDIAN_MS DISPATCHES",
# or "failed" with the tool's last line on stderr.
bench() {
  rm -f "$work/result.json"
  if ! "$1" bench "$model_dir/$2.tflite" --accelerator="$3" --precision="$4" \
    --num_runs="$num_runs" --warmup_runs=10 --min_secs=0 --warmup_min_secs=0 \
    $full_flag --json "$work/result.json" >"$work/stdout" 2>"$work/stderr"; then
    tail -n 1 "$work/stderr" >&2
    echo failed
    return
  fi
  dispatches=$(sed -n 's/.* ops -> \([0-9][0-9]*\) dispatches.*/\1/p' "$work/stderr" |
    awk '{ total += $1 } END { if (NR) print total; else print "-" }')
  python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); print("%.3f" % (d["inference_median_us"] / 1000), sys.argv[2])' \
    "$work/result.json" "$dispatches"
}

echo "| model | accelerator | precision | A median ms (per round) | B median ms (per round) | dispatches A / B |"
echo "|---|---|---|---|---|---|"
for model in $models; do
  [ -f "$model_dir/$model.tflite" ] || die "$model_dir/$model.tflite does not exist"
  for accelerator in $accelerators; do
    for precision in $precisions; do
      times_a='' times_b='' dispatches_a=- dispatches_b=-
      round=1
      while [ "$round" -le "$rounds" ]; do
        echo "compare-builds.sh: $model on $accelerator, $precision, round $round" >&2
        # A then B in odd rounds, B then A in even ones, so that neither
        # build always runs on a GPU the other has just warmed up.
        for build in a b; do
          if [ $((round % 2)) -eq 0 ]; then
            if [ "$build" = a ]; then build=b; else build=a; fi
          fi
          if [ "$build" = a ]; then binary=$build_a; else binary=$build_b; fi
          # shellcheck disable=SC2046 # "MEDIAN DISPATCHES" split on purpose
          set -- $(bench "$binary" "$model" "$accelerator" "$precision")
          if [ "$build" = a ]; then
            times_a="$times_a ${1:-failed}"
            [ $# -ge 2 ] && dispatches_a=$2
          else
            times_b="$times_b ${1:-failed}"
            [ $# -ge 2 ] && dispatches_b=$2
          fi
        done
        round=$((round + 1))
      done
      echo "| $model | $accelerator | $precision |$times_a |$times_b | $dispatches_a / $dispatches_b |"
    done
  done
done
