#!/bin/sh
# tflaccel bench: benchmark_model's flags beyond the timing loop (op
# profiling, state listings, memory, pacing, inputs, outputs, caches,
# delegates), each with its meaning, and the one-line refusals.
. "$(dirname "$0")/cli_checks.sh"
command_name="bench"
FAST="--accelerator cpu_ref --num_runs=3 --min_secs=0 --warmup_min_secs=0"

# --- Op profiling: TFLite's tables after the timings.
run bench "$MODEL" $FAST --enable_op_profiling
expect_exit 0
expect_line 'Operator-wise Profiling Info for Regular Benchmark Runs:'
expect_line '============================== Run Order =============================='
expect_line '============================== Top by Computation Time =============================='
expect_line '============================== Summary by node type =============================='
expect_line "	 +\[node type\]	 +\[first\]	 +\[avg ms\]	 +\[%\]	 +\[cdf%\]	 +\[mem KB\]	\[times called\]	\[Name\]"
# Each cpu_ref op is a node: typed by its op, named by its first output.
expect_line "	 +CONV_2D	 +[0-9]+\.[0-9]{3}	 +[0-9]+\.[0-9]{3}	 *[0-9]+\.[0-9]{3}%	 *[0-9]+\.[0-9]{3}%	 +0\.000	 +1	\[conv2d\]:0"
expect_line "	 +CONV_2D	 +[0-9]+\.[0-9]{3}	 +[0-9]+\.[0-9]{3}	 *[0-9]+\.[0-9]{3}%	100\.000%	 +0\.000	 +1	\[output_crop\]:62"
expect_line_count "	 +[A-Z_0-9]+	 +[0-9]+\.[0-9]{3}	.*\]:[0-9]+" 126
expect_line 'Number of nodes executed: 63'
expect_line "	 +CONV_2D	 +[0-9]+	 +[0-9]+\.[0-9]{3}	 +[0-9]+\.[0-9]{3}%	 +[0-9]+\.[0-9]{3}%	 +0\.000	 +[0-9]+"
expect_line "	 +PRELU	 +[0-9]+	 .*"
expect_line "Timings \(microseconds\): count=3 .*"
expect_line 'Memory \(bytes\): count=0'
expect_line '63 nodes observed'
# The tables come after the timings, before the summary line.
checks=$((checks + 1))
profile_at=$(grep -n 'Operator-wise Profiling' "$scratch/out" | cut -d: -f1)
timings_at=$(grep -n '^Inference timings in us' "$scratch/out" | cut -d: -f1)
[ "$profile_at" -lt "$timings_at" ] || fail "profile after the summary line"

run bench "$MODEL" $FAST --enable_op_profiling --op_profiling_output_mode=csv
expect_exit 0
expect_line 'node type, first, avg_ms, %, cdf%, mem KB, times called, name'
expect_line "CONV_2D, $NUMBER, $NUMBER, $NUMBER%, $NUMBER%, 0, 1, \[conv2d\]:0"
run bench "$MODEL" $FAST --enable_op_profiling --profiling_output_csv_file="$scratch/profile.csv"
expect_exit 0
checks=$((checks + 1))
grep -q '^node type, count, avg_ms, avg %, cdf %, mem KB, times called$' "$scratch/profile.csv" &&
  grep -q '^CONV_2D, [0-9]*, ' "$scratch/profile.csv" || fail "CSV profile lacks the node-type summary"
checks=$((checks + 1))
grep -q 'Run Order' "$scratch/out" && fail "--profiling_output_csv_file also printed the tables"
run bench "$MODEL" $FAST --profiling_output_csv_file="$scratch/x.csv"
expect_usage_error '--profiling_output_csv_file needs --enable_op_profiling'
run bench "$MODEL" $FAST --op_profiling_output_mode=proto
expect_usage_error '--op_profiling_output_mode must be one of stdout, csv'

# --- Pre- and post-invoke state: tensors, sizes, where they live.
run bench "$MODEL" $FAST --print_preinvoke_state --print_postinvoke_state --tensor_name_display_length=12
expect_exit 0
expect_line '==== Pre-invoke state ===='
expect_line '==== Post-invoke state ===='
expect_line_count 'Graph has [0-9]+ tensors and 63 nodes in 1 partition' 2
expect_line 'Tensor   0 input_1      float32         host-arena         786432    /   0\.79 \[1,256,256,3\] \[0, 786432\)'
expect_line 'Tensor +[0-9]+ conv2d/Kerne float32 +constant .*'
expect_line 'Tensor +[0-9]+ conv2d +float32 +partition .* partition 0 on cpu_ref'
expect_line 'Host arena: [0-9]+ bytes .*'
expect_line 'Node  62 Operator Builtin Code   3 CONV_2D \(partition 0 on cpu_ref\)'

# --- Peak memory by a sampling thread.
run bench "$MODEL" $FAST --report_peak_memory_footprint --memory_footprint_check_interval_ms=5
expect_exit 0
expect_line 'Memory footprint check interval \(ms\): \[5\]'
expect_line "Overall peak memory footprint \(MB\) via periodic monitoring: $NUMBER"

# --- Pacing: 0.05 s between 3 timed runs is at least 0.1 s; 20 runs a second too.
elapsed_ms() { echo $((($(date +%s%N) - $1) / 1000000)); }
start=$(date +%s%N)
run bench "$MODEL" $FAST --run_delay=0.05
took=$(elapsed_ms "$start")
expect_exit 0
expect_line 'Inter-run delay \(seconds\): \[0\.05\]'
checks=$((checks + 1))
[ "$took" -ge 100 ] || fail "--run_delay=0.05: 3 runs took $took ms"
start=$(date +%s%N)
run bench "$MODEL" $FAST --run_frequency=20
took=$(elapsed_ms "$start")
expect_exit 0
expect_line 'Number of prorated runs per second: \[20\]'
checks=$((checks + 1))
[ "$took" -ge 100 ] || fail "--run_frequency=20: 3 runs took $took ms"

# --- Dry run: compiled, nothing run, so no output file either.
run bench "$MODEL" $FAST --dry_run --output_filepath="$scratch/dry.bin"
expect_exit 0
expect_line 'Run w/o invoking kernels: \[1\]'
checks=$((checks + 1))
[ ! -e "$scratch/dry.bin" ] || fail "--dry_run wrote outputs"

# --- Verbose: every parameter, given or not.
run bench "$MODEL" $FAST --verbose
expect_exit 0
expect_line 'Log parameter values verbosely: \[1\]'
expect_line 'Precision: \[\]'
expect_line 'Num threads: \[0\]'
expect_line 'Max profiling buffer entries: \[1024\]'
expect_line 'Enable op profiling: \[0\]'
expect_line 'Use xnnpack: \[0\]'
expect_line 'Min nodes per partition: \[-1\]'

# --- Inputs: names and shapes, a value range, a file; outputs to a file.
run bench "$MODEL" $FAST --input_layer=input_1 --input_layer_shape=1,256,256,3 \
  --input_layer_value_range=input_1,0,1 --output_filepath="$scratch/range.bin"
expect_exit 0
expect_line 'Input layers: \[input_1\]'
checks=$((checks + 1))
[ -s "$scratch/range.bin" ] || fail "--output_filepath wrote nothing"
head -c 786432 /dev/zero >"$scratch/zeros.bin"
run bench "$MODEL" $FAST --input_layer=x --input_layer_value_files="x:$scratch/zeros.bin" \
  --output_filepath="$scratch/zeros_out_1.bin"
expect_exit 0
run bench "$MODEL" $FAST --input_layer=x --input_layer_value_files="x:$scratch/zeros.bin" \
  --output_filepath="$scratch/zeros_out_2.bin"
expect_exit 0
checks=$((checks + 1))
cmp -s "$scratch/zeros_out_1.bin" "$scratch/zeros_out_2.bin" || fail "same input file, different outputs"
checks=$((checks + 1))
cmp -s "$scratch/zeros_out_1.bin" "$scratch/range.bin" && fail "different inputs, same outputs"
run bench "$MODEL" $FAST --input_layer=input_1 --input_layer_shape=1,224,224,3
expect_exit 1
expect_stderr 'input 0 (input_1) has the shape 1,256,256,3, not 1,224,224,3'
run bench "$MODEL" $FAST --input_layer=a,b
expect_exit 1
expect_stderr '--input_layer=a,b names 2 inputs; the model has 1'
run bench "$MODEL" $FAST --input_layer=a --input_layer_value_range=a,5,1
expect_exit 1
expect_stderr "'a,5,1' is not NAME,LOW,HIGH with LOW <= HIGH"
run bench "$MODEL" $FAST --input_layer=a --input_layer_value_range=b,0,1
expect_exit 1
expect_stderr "'b' is not in --input_layer"
run bench "$MODEL" $FAST --input_layer=a --input_layer_value_files="a:$scratch/profile.csv"
expect_exit 1
expect_stderr 'must hold exactly 786432 bytes for input 0'
run bench "$MODEL" $FAST --input_layer_shape=1,2
expect_exit 1
expect_stderr 'need --input_layer'

# --- Partitioning and the program cache.
run bench "$MODEL" $FAST --min_nodes_per_partition=5
expect_exit 0
expect_line 'Min nodes per partition: \[5\]'
run bench "$MODEL" $FAST --delegate_serialize_dir="$scratch/cache" --delegate_serialize_token=hand
expect_exit 0
expect_line "Delegate serialize directory: \[$scratch/cache\]"
expect_line "Delegate serialize token: \[hand\]"
checks=$((checks + 1))
[ "$(stat -c %a "$scratch/cache")" = 700 ] || fail "the cache directory was not made 0700"
run bench "$MODEL" $FAST --delegate_serialize_token=hand
expect_usage_error '--delegate_serialize_token needs --delegate_serialize_dir'
# A directory whose parent is missing: the run goes on without the cache.
run bench "$MODEL" $FAST --delegate_serialize_dir="$scratch/no_such_dir/cache"
expect_exit 0
expect_stderr "compiled-model cache off: $scratch/no_such_dir/cache ("
expect_stderr "is not usable: its parent directory does not exist"
checks=$((checks + 1))
[ ! -e "$scratch/no_such_dir" ] || fail "the missing parent was made"

# --- XNNPACK: the cpu_xnnpack plugin, or one line naming it.
run bench "$MODEL" --use_xnnpack=true --num_runs=1 --min_secs=0 --warmup_min_secs=0
if [ "$code" = 0 ]; then
  expect_line 'Accelerators: \[cpu_xnnpack,cpu_ref\]'
else
  expect_exit 1
  expect_stderr 'tflaccel bench: --use_xnnpack needs the cpu_xnnpack plugin'
fi
run bench "$MODEL" $FAST --use_xnnpack
expect_usage_error 'give --accelerator or --use_gpu/--gpu_backend/--use_xnnpack, not both'
run bench "$MODEL" --xnnpack_force_fp16 --num_runs=1
expect_usage_error '--xnnpack_force_fp16 needs --use_xnnpack=true'

# --- GPU flags tflaccel honours by construction, and the one it cannot.
run bench "$MODEL" $FAST --gpu_experimental_enable_quant=true --gpu_wait_type=passive \
  --gpu_inference_for_sustained_speed=true --release_dynamic_tensors \
  --optimize_memory_for_large_tensors=1 --max_profiling_buffer_entries=4096 \
  --allow_dynamic_profiling_buffer_increase=true --benchmark_name=hand --output_prefix=x
expect_exit 0
expect_line 'Benchmark name: \[hand\]'
run bench "$MODEL" $FAST --gpu_experimental_enable_quant=false
expect_usage_error '--gpu_experimental_enable_quant=false is not supported'
run bench "$MODEL" $FAST --gpu_wait_type=spin
expect_usage_error '--gpu_wait_type must be one of passive, active, do_not_wait, aggressive'

# --- Other platforms' delegates: one line naming the flag and what to use.
run bench "$MODEL" --use_nnapi=true
expect_usage_error '--use_nnapi is not supported here: NNAPI is Android'
run bench "$MODEL" --use_hexagon
expect_usage_error '--use_hexagon is not supported here'
run bench "$MODEL" --coreml_version=2
expect_usage_error '--coreml_version is not supported here: Core ML'
run bench "$MODEL" --external_delegate_path=/x.so
expect_usage_error '--external_delegate_path is not supported here: tflaccel loads accelerator plugins'
run bench "$MODEL" --nnapi_accelerator_name google-edgetpu
expect_usage_error '--nnapi_accelerator_name is not supported here'
run bench "$MODEL" $FAST --use_nnapi=false --use_hexagon=false --use_coreml false
expect_exit 0

# --- No progress line into a pipe, even for a run of several seconds.
run bench "$MODEL" --accelerator cpu_ref --num_runs=1 --min_secs=3.2 --warmup_min_secs=0
expect_exit 0
checks=$((checks + 1))
if grep -q "$(printf '\r')" "$scratch/err" || grep -q 'runs' "$scratch/err"; then
  fail "progress written into a pipe: $(head -c 200 "$scratch/err")"
fi

# ... but on a terminal (a pty from util-linux's script) a run over three
# seconds shows one, rewritten in place.
if command -v script >/dev/null 2>&1; then
  checks=$((checks + 1))
  script -qec "'$TFLACCEL' bench '$MODEL' --accelerator cpu_ref --num_runs=1 --min_secs=3.5 --warmup_min_secs=0" \
    /dev/null >"$scratch/pty" 2>&1 || fail "bench under a pty failed: $(tail -n 3 "$scratch/pty")"
  grep -q 'tflaccel bench: timed runs: [0-9]' "$scratch/pty" || fail "no progress line on a terminal"
else
  echo "script (util-linux) not found: the terminal progress line is not checked"
fi

finish
