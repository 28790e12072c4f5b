#!/bin/sh
# tflaccel run/bench --io=device and --async on every GPU plugin available:
# run's outputs equal --io=host's byte for byte, bench's timed runs copy
# nothing through the host; bad values and host-only inputs: one line.
. "$(dirname "$0")/cli_checks.sh"
command_name="run"
export TFLACCEL_LOG=error
FAST="--num_runs=3 --min_secs=0 --warmup_runs=1 --warmup_min_secs=0"

# --- Bad usage, and a model whose input cpu_ref reads (host buffers only).
run run "$MODEL" --io=gpu
expect_usage_error "--io must be host or device, not 'gpu'"
run run "$MODEL" --accelerator cpu_ref --io=device
expect_exit 1
expect_stderr "--io=device: input 0 (input_1) takes host buffers only"

tested=0
for plugin in gpu_cl gpu_vk gpu_gl; do
  if ! "$TFLACCEL" run "$MODEL" --accelerator "$plugin" --require_full_delegation >"$scratch/probe" 2>&1; then
    # Not built or no driver here: said once, and covered by other tests.
    echo "$plugin: unavailable here, --io=device not tested on it: $(tail -n 1 "$scratch/probe")"
    continue
  fi
  tested=$((tested + 1))
  run run "$MODEL" --accelerator "$plugin" --io=host --output-dir "$scratch/$plugin-host"
  expect_exit 0
  run run "$MODEL" --accelerator "$plugin" --io=device --output-dir "$scratch/$plugin-device"
  expect_exit 0
  expect_line "output 0: output_crop \[1,1,1,4\] float32 min=$NUMBER max=$NUMBER mean=$NUMBER"
  checks=$((checks + 1))
  cmp -s "$scratch/$plugin-host/output_0.bin" "$scratch/$plugin-device/output_0.bin" ||
    fail "$plugin: --io=device's output differs from --io=host's"
  for mode in "" "--async"; do
    # shellcheck disable=SC2086 # FAST and mode split on purpose
    run bench "$MODEL" --accelerator "$plugin" --io=device $mode $FAST \
      --output_filepath "$scratch/$plugin-bench.bin"
    expect_exit 0
    expect_line "Inputs and outputs: device buffers \($plugin (OpenCL|Vulkan|GL)\)"
    expect_line 'Host copies per run: 0 \(0 bytes\)'
    expect_line "Throughput: $NUMBER frames/s \(3 frames in $NUMBER s\)"
    checks=$((checks + 1))
    cmp -s "$scratch/$plugin-host/output_0.bin" "$scratch/$plugin-bench.bin" ||
      fail "$plugin: bench --io=device $mode wrote other outputs than run --io=host"
  done
  run bench "$MODEL" --accelerator "$plugin" --io=host $FAST
  expect_exit 0
  expect_line 'Host copies per run: [1-9][0-9]* \([1-9][0-9]* bytes\)'
  echo "$plugin: --io=device equals --io=host; bench --io=device and --async: 0 host copies"
done
[ "$tested" -gt 0 ] || echo "no GPU plugin available: only the usage checks ran"
finish
