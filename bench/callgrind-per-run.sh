#!/bin/sh
# bench/callgrind-per-run.sh MODEL [ACCELERATORS] [THREADS]: instructions per
# run of MODEL under callgrind, split by shared object (libXNNPACK,
# libtflaccel, the plugins, libc...). Instruction counts do not depend on
# machine load, so two builds compare on a busy machine where timings do not.
# Runs `tflaccel bench` twice, with RUNS_A and RUNS_B timed runs (default 2
# and 12) after one warm-up run, and divides the difference by the
# difference in runs made (calls of tflaccel_compiled_model_run), so start-up,
# compilation and the first runs cancel out.
# Valgrind has no AVX-512: XNNPACK picks its AVX2/FMA3 kernels here.
#   TFLACCEL          the tflaccel binary (default: the build tree's ./tflaccel)
#   TFLACCEL_MODELS   model directory (default ../shared/models)
#   TFLACCEL_PLUGIN_PATH  as for tflaccel (e.g. another build's plugins)
set -eu
[ $# -ge 1 ] || { echo "usage: $0 MODEL [ACCELERATORS] [THREADS]" >&2; exit 2; }
top=$(cd "$(dirname "$0")/.." && pwd)
models=${TFLACCEL_MODELS:-$top/../shared/models}
tool=${TFLACCEL:-$top/tflaccel}
model=$1
accelerators=${2:-cpu_xnnpack}
threads=${3:-1}
runs_a=${RUNS_A:-2}
runs_b=${RUNS_B:-12}
command -v valgrind >/dev/null || { echo "$0: valgrind is not installed" >&2; exit 1; }
[ -f "$models/$model.tflite" ] || { echo "$0: no $models/$model.tflite" >&2; exit 1; }
work=$(mktemp -d "${TMPDIR:-/tmp}/callgrind-per-run.XXXXXX")
trap 'rm -rf "$work"' EXIT
# The build tree's ./tflaccel is a libtool wrapper: run the real binary.
run_valgrind() {
  if [ -x "$top/libtool" ] && [ "$tool" = "$top/tflaccel" ]; then
    "$top/libtool" --mode=execute valgrind "$@"
  else
    valgrind "$@"
  fi
}
for runs in "$runs_a" "$runs_b"; do
  run_valgrind --tool=callgrind --callgrind-out-file="$work/$runs.out" "$tool" bench \
    "$models/$model.tflite" --accelerator "$accelerators" --num_threads "$threads" \
    --num_runs "$runs" --min_secs 0 --max_secs 100000 --warmup_runs 1 --warmup_min_secs 0 \
    >"$work/$runs.log" 2>&1 || { tail -5 "$work/$runs.log" >&2; exit 1; }
done
python3 - "$work/$runs_a.out" "$work/$runs_b.out" "$((runs_b - runs_a))" "$model" <<'EOF'
import collections, os, re, sys

def by_object(path):
    """Self cost (Ir) per shared object of a callgrind output file, and how
    many times tflaccel_compiled_model_run was called."""
    names, totals, current, after_calls = {}, collections.Counter(), None, False
    functions, callee, runs = {}, None, 0
    for line in open(path):
        if line.startswith(("ob=", "cob=")):
            m = re.match(r"c?ob=\((\d+)\)(?: (.*))?", line.strip())
            if m and m.group(2):
                names[m.group(1)] = m.group(2)
            if line.startswith("ob="):
                current = names.get(m.group(1)) if m else line.strip()[3:]
            continue
        if line.startswith(("fn=", "cfn=")):
            m = re.match(r"c?fn=\((\d+)\)(?: (.*))?", line.strip())
            if m and m.group(2):
                functions[m.group(1)] = m.group(2)
            if line.startswith("cfn="):
                callee = functions.get(m.group(1)) if m else None
            continue
        if line.startswith("calls="):
            after_calls = True
            if callee == "tflaccel_compiled_model_run":
                runs += int(line[6:].split()[0])
            continue
        if line[:1].isdigit() or line[:1] in "+-*":
            if after_calls:  # the inclusive cost of a call, not self cost
                after_calls = False
                continue
            fields = line.split()
            if len(fields) >= 2:
                totals[current] += int(fields[1])
    return totals, runs

(a, runs_a), (b, runs_b) = by_object(sys.argv[1]), by_object(sys.argv[2])
model = sys.argv[4]
# The tool may add warm-up runs of its own: count the runs made.
runs = runs_b - runs_a if runs_b > runs_a else int(sys.argv[3])
per_run = {os.path.basename(k or "?"): (b[k] - a[k]) / runs for k in set(a) | set(b)}
total = sum(per_run.values())
print(f"{model}: {total / 1e6:.2f} M instructions per run ({runs} runs apart)")
for name, count in sorted(per_run.items(), key=lambda kv: -kv[1]):
    if count >= 0.001 * total:
        print(f"  {count / 1e6:9.3f} M  {100 * count / total:5.1f}%  {name}")
EOF
