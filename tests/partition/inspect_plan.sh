#!/bin/sh
# tflaccel inspect --accelerator: the partition plan, as text and as JSON.
set -eu
top=${TFLACCEL_TOP_BUILDDIR:?}
data=${TFLACCEL_TEST_DATA:?}
tool="$top/tflaccel"
work=$(mktemp -d "$top/tests/tmp-plan-XXXXXX")
trap 'rm -rf "$work"' EXIT
cat > "$work/tflaccel.ini" <<INI
[tflaccel]
transfer_us_per_mib = 0
dispatch_overhead_us = 0
[plugin.test_subset]
library = $top/tests/.libs/libtest_subset.so
target = $top/plugins/.libs/libcpu_ref.so
ops = 3,0
[plugin.cpu_ref]
library = $top/plugins/.libs/libcpu_ref.so
INI
model="$data/face_detection_short_range.tflite"
fail() { echo "FAIL: $*"; exit 1; }

TFLACCEL_LOG=error "$tool" inspect "$model" --config "$work/tflaccel.ini" \
  --accelerator test_subset,cpu_ref > "$work/plan.txt" || fail "inspect --accelerator exited $?"
grep -q '^Plan for test_subset,cpu_ref: [0-9]* partitions' "$work/plan.txt" || fail "no plan header"
grep -q '^  partition 0 on test_subset: ' "$work/plan.txt" || fail "no partition 0 line"
grep -q "^    inputs: [0-9]* 'input' (196608 bytes)" "$work/plan.txt" || fail "graph input not shown with bytes"
grep -q '^  bytes crossing partition boundaries per run: [0-9]*$' "$work/plan.txt" || fail "no total"

TFLACCEL_LOG=error "$tool" inspect "$model" --json --config "$work/tflaccel.ini" \
  --accelerator test_subset,cpu_ref > "$work/plan.json" || fail "inspect --json --accelerator exited $?"
python3 - "$work/plan.json" <<'PY' || fail "JSON plan check"
import json, sys
doc = json.load(open(sys.argv[1]))
plan = doc["plan"]
assert len(plan) > 2, plan
ops = []
for part in plan:
    assert set(part) == {"accelerator", "ops", "inputs", "outputs", "boundary_bytes", "precision"}, part
    assert part["precision"] == "fp32", part
    assert part["accelerator"] in ("test_subset", "cpu_ref")
    assert isinstance(part["boundary_bytes"], int) and part["boundary_bytes"] > 0
    ops += part["ops"]
# Every prepared op in exactly one partition; neighbours differ (in
# accelerator or precision).
assert sorted(ops) == list(range(len(ops))), ops
assert all((a["accelerator"], a["precision"]) != (b["accelerator"], b["precision"])
           for a, b in zip(plan, plan[1:]))
# The model part is unchanged by planning.
assert doc["ops"]["CONV_2D"] == 21 and doc["tensors"] == 250, doc["ops"]
PY

# Without a partitioning flag there is no plan; strict mode fails with the list.
TFLACCEL_LOG=error "$tool" inspect "$model" --json > "$work/model.json"
python3 -c "import json,sys; assert 'plan' not in json.load(open(sys.argv[1]))" "$work/model.json" || fail "plan without flags"
if TFLACCEL_LOG=error "$tool" inspect "$model" --config "$work/tflaccel.ini" \
     --accelerator test_subset --require_full_delegation > /dev/null 2> "$work/err.txt"; then
  fail "--require_full_delegation should fail"
fi
grep -q '^tflaccel inspect: require_full_delegation: [0-9]* of [0-9]* operations cannot run on test_subset: op ' "$work/err.txt" \
  || fail "strict mode message: $(cat "$work/err.txt")"
echo "inspect plan: ok"
