#!/bin/sh
# bench/run-all.sh: one Markdown row per combination, a "failed" row with
# the reason for a combination that cannot run.
. "$(dirname "$0")/cli_checks.sh"
if ! command -v python3 >/dev/null 2>&1; then
  echo "python3 not found: run-all.sh needs it to read JSON; skipping"
  exit 77
fi
script="${TFLACCEL_TOP_SRCDIR:?run this through make check}/bench/run-all.sh"
mkdir "$scratch/models" && ln -s "$MODEL" "$scratch/models/hand_recrop.tflite" || exit 99

table() {
  TFLACCEL="$TFLACCEL" NUM_RUNS=2 BENCH_FLAGS="--min_secs=0 --warmup_min_secs=0" \
    sh "$script" "$@" >"$scratch/out" 2>"$scratch/err"
  code=$?
  last_command="run-all.sh $*"
}

table "$scratch/models" "cpu_ref no_such_plugin" "fp32 fp16"
expect_exit 0
expect_line '\| model \| accelerator \| precision \| threads \| median latency \(ms\) \| min latency \(ms\) \| init \(ms\) \| first run \(ms\) \| ops delegated \| dispatches \| peak memory \(MB\) \|'
expect_line '\|---\|---\|---\|---\|---:\|---:\|---:\|---:\|---:\|---:\|---:\|'
ROW='[0-9]+\.[0-9]+'
expect_line "\| hand_recrop \| cpu_ref \| fp32 \| config \| $ROW \| $ROW \| $ROW \| $ROW \| 0/63 \| - \| $ROW \|"
expect_line "\| hand_recrop \| cpu_ref \| fp16 \| config \| $ROW \| $ROW \| $ROW \| $ROW \| 0/63 \| - \| $ROW \|"
expect_line "\| hand_recrop \| no_such_plugin \| fp32 \| config \| failed: .*no_such_plugin.* \(exit status 1\) \| \| \| \| \| \| \|"
expect_line_count '\| hand_recrop \| .*' 4
expect_stderr 'run-all.sh: hand_recrop on cpu_ref, fp32, threads config'

# Defaults (cpu_ref, fp32) and a thread list.
THREADS="1 2" table "$scratch/models"
expect_exit 0
expect_line "\| hand_recrop \| cpu_ref \| fp32 \| 1 \| $ROW \| $ROW \| $ROW \| $ROW \| 0/63 \| - \| $ROW \|"
expect_line "\| hand_recrop \| cpu_ref \| fp32 \| 2 \| $ROW \| $ROW \| $ROW \| $ROW \| 0/63 \| - \| $ROW \|"
expect_line_count '\| hand_recrop \| .*' 2

# Usage errors.
table
expect_exit 2
table "$scratch/no_such_dir"
expect_exit 1
expect_stderr 'is not a directory'
mkdir "$scratch/empty"
table "$scratch/empty"
expect_exit 1
expect_stderr 'no *.tflite file'

finish
