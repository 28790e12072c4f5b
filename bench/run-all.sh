#!/bin/sh
# run-all.sh MODEL_DIR [ACCELERATORS] [PRECISIONS]
#
# Runs `tflaccel bench` on every *.tflite of MODEL_DIR for each accelerator
# and precision (and thread count, with THREADS) and writes one Markdown
# table to stdout: median and minimum latency, start-up, first run, ops delegated and
# peak memory per combination. A combination that fails gets a row saying
# why. Progress goes to stderr.
#
#   ACCELERATORS  whitespace-separated --accelerator values (default: cpu_ref),
#                 e.g. "cpu_ref gpu_cl gpu_vk gpu_gl"
#   PRECISIONS    whitespace-separated, fp32 and/or fp16 (default: fp32)
# Environment:
#   TFLACCEL      the tflaccel binary (default: ./tflaccel)
#   NUM_RUNS      timed runs per combination, at least (default: 50)
#   THREADS       whitespace-separated --num_threads values (default: the config's)
#   BENCH_FLAGS   more flags for every `tflaccel bench` (e.g. "--min_secs=2")
#
# JSON is read with python3.
set -u

usage() {
  echo "usage: $0 MODEL_DIR [ACCELERATORS] [PRECISIONS]" >&2
  exit 2
}

die() {
  echo "run-all.sh: $*" >&2
  exit 1
}

if [ $# -lt 1 ] || [ $# -gt 3 ]; then usage; fi
model_dir=$1
accelerators=${2:-cpu_ref}
precisions=${3:-fp32}
tflaccel=${TFLACCEL:-./tflaccel}
num_runs=${NUM_RUNS:-50}
threads_list=${THREADS:-config}
bench_flags=${BENCH_FLAGS:-}

[ -d "$model_dir" ] || die "$model_dir is not a directory"
[ -x "$tflaccel" ] || die "$tflaccel is not an executable (set TFLACCEL)"
command -v python3 >/dev/null 2>&1 || die "python3 is needed to read the JSON results"
case $num_runs in '' | *[!0-9]*) die "NUM_RUNS must be a whole number, not '$num_runs'" ;; esac

set -- "$model_dir"/*.tflite
[ -e "$1" ] || die "no *.tflite file in $model_dir"

work=$(mktemp -d "${TMPDIR:-/tmp}/run-all.XXXXXX") || die "cannot make a temporary directory"
trap 'rm -rf "$work"' EXIT
trap 'exit 130' INT TERM

# One table row from a bench JSON file.
json_row() {
  python3 - "$@" <<'PY'
import json, sys
path, model, accelerator, precision, threads, dispatches = sys.argv[1:7]
with open(path) as f:
    d = json.load(f)

def ms(us, digits):
    return "-" if us is None else f"{us / 1000:.{digits}f}"

memory = d.get("memory") or {}
peak = memory.get("peak_rss_mb")
cells = [model, accelerator, precision, threads,
         ms(d["inference_median_us"], 3), ms(d["inference_us"]["min"], 3), ms(d["init_us"], 1), ms(d["first_us"], 2),
         f"{d['ops_delegated']}/{d['op_count']}", dispatches,
         "-" if peak is None else f"{peak:.1f}"]
print("| " + " | ".join(cells) + " |")
PY
}

echo "| model | accelerator | precision | threads | median latency (ms) | min latency (ms) | init (ms) | first run (ms) | ops delegated | dispatches | peak memory (MB) |"
echo "|---|---|---|---|---:|---:|---:|---:|---:|---:|---:|"
for model in "$@"; do
  name=$(basename "$model" .tflite)
  for accelerator in $accelerators; do
    for precision in $precisions; do
      for threads in $threads_list; do
        echo "run-all.sh: $name on $accelerator, $precision, threads $threads" >&2
        thread_flag=
        [ "$threads" = config ] || thread_flag="--num_threads=$threads"
        rm -f "$work/result.json"
        # shellcheck disable=SC2086 # bench_flags and thread_flag split on purpose
        "$tflaccel" bench "$model" --accelerator="$accelerator" --precision="$precision" \
          --num_runs="$num_runs" $thread_flag $bench_flags --json "$work/result.json" \
          >"$work/stdout" 2>"$work/stderr"
        status=$?
        if [ "$status" -eq 0 ]; then
          dispatches=$(sed -n 's/.* ops -> \([0-9][0-9]*\) dispatches.*/\1/p' "$work/stderr" |
            awk '{ total += $1 } END { if (NR) print total; else print "-" }')
          json_row "$work/result.json" "$name" "$accelerator" "$precision" "$threads" "$dispatches" \
            2>"$work/stderr" && continue
          status="0, unreadable JSON"
        fi
        # The tool's last line (its error; progress lines come before it),
        # else whatever stderr began with.
        reason=$(grep '^tflaccel bench: ' "$work/stderr" | tail -n 1)
        [ -n "$reason" ] || reason=$(head -n 1 "$work/stderr")
        [ -n "$reason" ] || reason="no message"
        reason=$(printf '%s (exit status %s)' "$reason" "$status" |
          sed 's/^tflaccel bench: //; s/|/\\|/g')
        echo "| $name | $accelerator | $precision | $threads | failed: $reason | | | | | | |"
      done
    done
  done
done
