#!/bin/sh
# tflaccel bench: flags (good and bad), benchmark_model's output lines, JSON.
. "$(dirname "$0")/cli_checks.sh"
command_name="bench"
# Split on purpose wherever it is used unquoted.
FAST="--num_runs=3 --min_secs=0 --warmup_min_secs=0"

# --- A short run on cpu_ref: every line in benchmark_model's format.
run bench --graph="$MODEL" --accelerator cpu_ref $FAST --json "$scratch/bench.json"
expect_exit 0
expect_line "Graph: \[$MODEL\]"
expect_line 'Min num runs: \[3\]'
expect_line 'The input model file size \(MB\): 0\.123792'
expect_line "Initialized session in ${NUMBER}ms\."
expect_line 'Selected accelerators: \[cpu_ref\]'
expect_line 'Running benchmark for at least 1 iterations and at least 0 seconds but terminate if exceeding 150 seconds\.'
expect_line 'Running benchmark for at least 3 iterations and at least 0 seconds but terminate if exceeding 150 seconds\.'
expect_line "count=3 (first=[0-9]+ curr=[0-9]+ min=[0-9]+ max=[0-9]+ avg=$NUMBER std=[0-9]+|curr=[0-9]+\(all same\)) median=$NUMBER"
expect_line "count=1 curr=[0-9]+ median=$NUMBER"
expect_line "Inference timings in us: Init: [0-9]+, First inference: [0-9]+, Warmup \(avg\): $NUMBER, Inference \(avg\): $NUMBER"
expect_line "Memory footprint delta from the start of the tool \(MB\): init=$NUMBER overall=$NUMBER"
expect_line "Peak resident memory \(MB\): $NUMBER"
expect_line 'Ops per accelerator \(63 ops, 1 partition\): cpu_ref=63 in 1 partition'
expect_line_count 'Inference timings in us: .*' 1

# --- The JSON holds every figure, consistent with the run.
checks=$((checks + 1))
if command -v python3 >/dev/null 2>&1; then
  python3 - "$scratch/bench.json" "$MODEL" <<'PY' || fail "bench JSON check"
import json, sys
with open(sys.argv[1]) as f:
    d = json.load(f)
for key in ("model", "model_size_mb", "accelerators_requested", "accelerators_selected",
            "precision", "threads", "num_runs", "warmup_runs", "min_secs", "max_secs",
            "init_us", "load_us", "first_us", "warmup_avg_us", "inference_avg_us", "inference_median_us",
            "warmup_us", "inference_us", "memory", "op_count", "ops_delegated",
            "partition_count", "ops_per_accelerator", "partitions"):
    assert key in d, "missing key " + key
assert d["model"] == sys.argv[2], d["model"]
assert d["accelerators_requested"] == "cpu_ref" and d["accelerators_selected"] == "cpu_ref"
assert d["precision"] in ("fp32", "fp16") and isinstance(d["threads"], int) and d["threads"] >= 1, d
t = d["inference_us"]
for key in ("count", "first", "curr", "min", "max", "avg", "std", "median", "samples"):
    assert key in t, "inference_us lacks " + key
assert t["count"] == 3 and len(t["samples"]) == 3, t
assert t["min"] <= t["median"] <= t["max"] and t["min"] <= t["avg"] <= t["max"], t
assert t["first"] == t["samples"][0] and t["curr"] == t["samples"][-1], t
assert d["warmup_us"]["count"] == 1 and d["first_us"] == d["warmup_us"]["first"]
assert 0 < d["load_us"] <= d["init_us"] and d["inference_avg_us"] == t["avg"]
m = d["memory"]
for key in ("init_mb", "overall_mb", "peak_rss_mb"):
    assert isinstance(m[key], (int, float)), "memory lacks " + key
assert m["peak_rss_mb"] > 0 and m["overall_mb"] >= m["init_mb"] >= 0, m
assert d["op_count"] == 63 and d["ops_delegated"] == 0 and d["partition_count"] == 1
assert d["ops_per_accelerator"] == [{"accelerator": "cpu_ref", "ops": 63, "partitions": 1}]
assert d["partitions"] == [{"accelerator": "cpu_ref", "ops": 63}]
PY
else
  echo "python3 not found: JSON content not checked"
fi

# --- Positional model, --flag value spelling, TFLite spellings.
run bench "$MODEL" --use_gpu=false --num_runs 2 --min_secs 0 --warmup_runs 0 \
  --warmup_min_secs 0 --num_threads 2 --gpu_precision_loss_allowed=false
expect_exit 0
expect_line 'Accelerators: \[cpu_ref\]'
expect_line 'Precision: \[fp32\]'
expect_line 'Num threads: \[2\]'
expect_line 'Selected accelerators: \[cpu_ref\]'
expect_line "count=2 .*"
expect_line 'count=0'

# Which accelerators the TFLite flags ask for (the missing file stops the
# run before any plugin is loaded).
run bench /nonexistent/model.tflite --gpu_backend=gl --gpu_precision_loss_allowed
expect_exit 1
expect_line 'Accelerators: \[gpu_gl,cpu_ref\]'
expect_line 'Precision: \[fp16\]'
expect_stderr 'tflaccel bench: /nonexistent/model.tflite'
run bench /nonexistent/model.tflite --use_gpu --gpu_backend vk
expect_exit 1
expect_line 'Accelerators: \[gpu_vk,cpu_ref\]'
run bench /nonexistent/model.tflite --use_gpu true
expect_exit 1
expect_line 'Accelerators: \[gpu,cpu_ref\]'

# --- Help.
run bench --help
expect_exit 0
expect_line 'usage: tflaccel bench .*'

# --- Bad flags: one clear line, exit 2.
run bench
expect_usage_error 'no model given'
run bench "$MODEL" --num_runs=many
expect_usage_error '--num_runs must be a whole number'
run bench "$MODEL" --num_runs
expect_usage_error '--num_runs needs a value'
run bench "$MODEL" --min_secs=-2
expect_usage_error '--min_secs must be a nonnegative number'
run bench "$MODEL" --max_secs=soon
expect_usage_error '--max_secs must be a nonnegative number'
run bench "$MODEL" --use_gpu=maybe
expect_usage_error '--use_gpu must be true or false'
run bench "$MODEL" --gpu_backend=metal
expect_usage_error '--gpu_backend must be cl, gl or vk'
run bench "$MODEL" --use_gpu=false --gpu_backend=cl
expect_usage_error '--gpu_backend=cl needs the GPU'
run bench "$MODEL" --accelerator cpu_ref --use_gpu=true
expect_usage_error 'give --accelerator or --use_gpu/--gpu_backend/--use_xnnpack, not both'
run bench "$MODEL" --precision fp32 --gpu_precision_loss_allowed=true
expect_usage_error '--precision and --gpu_precision_loss_allowed=true disagree'
run bench "$MODEL" --precision=fp8
expect_usage_error '--precision must be fp32 or fp16'
run bench "$MODEL" --num_threads=-2
expect_usage_error '--num_threads must be a whole number from -1 to 1024'
run bench "$MODEL" --frobnicate
expect_usage_error "unknown option '--frobnicate'"
run bench "$MODEL" --graph=other.tflite
expect_usage_error 'one model at a time'

# --- Runtime errors: exit 1 with the reason, no crash.
run bench "$TEST_DATA/NOTICE" --num_runs=1 --min_secs=0
expect_exit 1
expect_stderr 'tflaccel bench: '
run bench "$MODEL" --accelerator no_such_plugin --num_runs=1 --min_secs=0
expect_exit 1
expect_stderr 'tflaccel bench: '
run bench "$MODEL" --accelerator cpu_ref $FAST --json "$scratch/no/such/dir/x.json"
expect_exit 1
expect_stderr 'tflaccel bench: cannot write'

finish
