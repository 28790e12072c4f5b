#!/bin/sh
# tflaccel diff: flags (good and bad), inference_diff's output lines, exit codes.
. "$(dirname "$0")/cli_checks.sh"
command_name="diff"

# --- cpu_ref against its own reference: identical outputs, exit 0.
run diff --model_file="$MODEL" --accelerator cpu_ref --num_runs=3
expect_exit 0
expect_line 'Test accelerators: \[cpu_ref\]'
expect_line 'Ops per accelerator \(63 ops, 1 partition\): cpu_ref=63 in 1 partition'
expect_line 'Num evaluation runs: 3'
expect_line "Reference run latency: avg=$NUMBER\(us\), std_dev=[0-9]+\(us\)"
expect_line "Test run latency: avg=$NUMBER\(us\), std_dev=[0-9]+\(us\)"
expect_line 'OutputDiff\[0\]: avg_error=0, std_dev=0'
expect_line_count 'OutputDiff\[[0-9]+\]: .*' 1

# Every output gets its line (face_detection_short_range has two).
run diff "$TEST_DATA/face_detection_short_range.tflite" --accelerator=cpu_ref --num_runs 1 --seed 5
expect_exit 0
expect_line 'Num evaluation runs: 1'
expect_line 'OutputDiff\[0\]: avg_error=0, std_dev=0'
expect_line 'OutputDiff\[1\]: avg_error=0, std_dev=0'

# --- --max_error: met, then exceeded (exit 1, naming the output).
run diff "$MODEL" --accelerator cpu_ref --num_runs=2 --max_error=0
expect_exit 0
run diff "$MODEL" --accelerator cpu_ref --num_runs=2 --max_error=-1
expect_exit 1
expect_line 'OutputDiff\[0\]: avg_error=0, std_dev=0'
expect_stderr 'tflaccel diff: OutputDiff[0] (output_crop): avg_error=0 exceeds --max_error=-1'

# --- inference_diff's names: threads, the output file, the delegate choice.
run diff "$MODEL" --delegate=none --num_runs=2 --num_interpreter_threads=2 \
  --output_file_path="$scratch/diff.txt"
expect_exit 0
expect_line 'Test accelerators: \[cpu_ref\]'
checks=$((checks + 1))
grep -q '^Num evaluation runs: 2$' "$scratch/diff.txt" &&
  grep -q '^OutputDiff\[0\]: avg_error=0, std_dev=0$' "$scratch/diff.txt" ||
  fail "--output_file_path lacks the figures"
run diff "$MODEL" --use_gpu=false --num_runs=1
expect_exit 0
expect_line 'Test accelerators: \[cpu_ref\]'
run diff "$MODEL" --delegate=gpu --num_runs=1
expect_exit 0
expect_line 'OutputDiff\[0\]: .*'
run diff "$MODEL" --delegate=xnnpack --num_runs=1
if [ "$code" != 0 ]; then
  expect_exit 1
  expect_stderr 'tflaccel diff: --delegate=xnnpack needs the cpu_xnnpack plugin'
fi
run diff "$MODEL" --delegate=nnapi
expect_usage_error '--delegate=nnapi is not supported here'
run diff "$MODEL" --delegate=gpu --accelerator=cpu_ref
expect_usage_error 'not both'
run diff "$MODEL" --num_interpreter_threads=0x
expect_usage_error '--num_interpreter_threads must be a whole number'
run diff "$MODEL" --accelerator cpu_ref --num_runs=1 --output_file_path="$scratch/no/dir/x.txt"
expect_exit 1
expect_stderr 'tflaccel diff: cannot write'

# --- Help.
run diff --help
expect_exit 0
expect_line 'usage: tflaccel diff .*'

# --- Bad flags: one clear line, exit 2.
run diff
expect_usage_error 'no model given'
run diff "$MODEL" --num_runs=0
expect_usage_error '--num_runs must be a whole number from 1'
run diff "$MODEL" --seed=-1
expect_usage_error '--seed must be a whole number'
run diff "$MODEL" --max_error=small
expect_usage_error '--max_error must be a number'
run diff "$MODEL" --max_error
expect_usage_error '--max_error needs a value'
run diff "$MODEL" --precision=int4
expect_usage_error '--precision must be fp32 or fp16'
run diff "$MODEL" --frobnicate=true
expect_usage_error "unknown option '--frobnicate=true'"
run diff "$MODEL" --model_file=other.tflite
expect_usage_error 'one model at a time'

# --- Runtime errors: exit 1 with the reason.
run diff /nonexistent/model.tflite
expect_exit 1
expect_stderr 'tflaccel diff: /nonexistent/model.tflite'

finish
