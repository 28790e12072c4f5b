#!/bin/sh
# tflaccel bench --enable_op_profiling: beneath a GPU partition, its kernels
# with the GPU times of the plugin's timers (tflaccel_device_vtable.
# executable_profile), in the table and in the CSV; a CPU plugin, which
# keeps no kernel times, still profiles. Runs on every GPU plugin that is
# available (PoCL, lavapipe, llvmpipe here); skips when none is.
. "$(dirname "$0")/cli_checks.sh"
command_name="bench"
FAST="--num_runs=2 --min_secs=0 --warmup_min_secs=0 --enable_op_profiling"

# A CPU plugin: no kernel rows, the table as before.
run bench "$MODEL" --accelerator cpu_ref $FAST
expect_exit 0
expect_line 'Number of nodes executed: 63'
expect_line_count "	 +	kernel [0-9]+: .*" 0

"$TFLACCEL" plugins >"$scratch/plugins" 2>/dev/null
gpus=""
for plugin in gpu_cl gpu_vk gpu_gl; do
  if awk -v name="$plugin" '$0 == name {found = 1; next} found && /status:/ {print $2; exit}' \
      "$scratch/plugins" | grep -qx available; then
    gpus="$gpus $plugin"
  fi
done
if [ -z "$gpus" ]; then
  echo "SKIP: no GPU plugin is available (no OpenCL, Vulkan or EGL driver)"
  exit 77
fi

# A positive time in ms as printed ("0.000" would be a timer that read 0).
POSITIVE='(0\.[0-9]*[1-9][0-9]*|[1-9][0-9]*\.[0-9]+)'
for plugin in $gpus; do
  run bench "$MODEL" --accelerator "$plugin,cpu_ref" $FAST
  expect_exit 0
  expect_line "	 +$plugin	.*	\[$plugin partition 0: 63 ops\]"
  # The first op is a convolution: its kernel names it, with its GPU time.
  expect_line "	 +	kernel [0-9]+: gpu_conv[a-z0-9_]*: $POSITIVE ms GPU, [0-9.]+% \(op 0( \+ [0-9]+ fused)?: CONV_2D \[conv2d\]\)"
  expect_line "	 +	kernel [0-9]+: gpu_[a-z0-9_]+: $POSITIVE ms GPU, [0-9.]+% \(op 62: CONV_2D \[output_crop\]\)"
  # Every kernel row has a time (none "not timed"), and the ops are not
  # listed again beneath the kernels that name them.
  checks=$((checks + 1))
  rows=$(grep -Ec "^	 +	kernel [0-9]+: " "$scratch/out")
  timed=$(grep -Ec "^	 +	kernel [0-9]+: gpu_[a-z0-9_]+: $POSITIVE ms GPU" "$scratch/out")
  [ "$rows" -gt 10 ] && [ "$rows" = "$timed" ] ||
    fail "$plugin: $rows kernel rows, $timed with a positive GPU time"
  expect_line_count "	 +	op [0-9]+: .*" 0
  # The CSV file: the same kernels beneath the partition.
  run bench "$MODEL" --accelerator "$plugin,cpu_ref" $FAST \
    --profiling_output_csv_file="$scratch/kernels.csv"
  expect_exit 0
  checks=$((checks + 1))
  grep -Eq "^  kernel, gpu_conv[a-z0-9_]*, $POSITIVE, [0-9.e-]+%, 2 runs, op 0, [0-9]+ ops, CONV_2D \[conv2d\]$" \
    "$scratch/kernels.csv" || fail "$plugin: the CSV lacks the first convolution's kernel"
  checks=$((checks + 1))
  grep -Eq "^  kernel, gpu_to_slices, $POSITIVE, [0-9.e-]+%, 2 runs, no op, 0 ops, layout conversion$" \
    "$scratch/kernels.csv" || fail "$plugin: the CSV lacks the input's layout conversion"
done
finish
