#!/bin/sh
# What a newcomer meets on a fresh clone: run --output-dir makes its
# directory, plugins --json ends with a newline, and configure's core-file
# cleanup leaves no confdefs.h (it no longer trips over core/).
. "$(dirname "$0")/cli_checks.sh"
command_name="run"

run run "$MODEL" --accelerator cpu_ref --output-dir "$scratch/new/nested"
expect_exit 0
checks=$((checks + 1))
[ -s "$scratch/new/nested/output_0.bin" ] || fail "--output-dir did not make its directory"
: >"$scratch/a_file"
run run "$MODEL" --accelerator cpu_ref --output-dir "$scratch/a_file/x"
expect_exit 1
expect_stderr "tflaccel run: cannot make directory $scratch/a_file/x: a file is in the way"

# --runs N: the outputs of the last of N runs (a stateless model's are the
# first run's); a count below 1 is a usage error.
run run "$MODEL" --accelerator cpu_ref --runs 3 --output-dir "$scratch/runs"
expect_exit 0
checks=$((checks + 1))
cmp -s "$scratch/new/nested/output_0.bin" "$scratch/runs/output_0.bin" ||
  fail "--runs 3 changed a stateless model's outputs"
run run "$MODEL" --runs 0
expect_usage_error '--runs'

run plugins --json
expect_exit 0
checks=$((checks + 1))
[ "$(tail -c 1 "$scratch/out" | od -An -c | tr -d ' ')" = '\n' ] || fail "plugins --json lacks its final newline"
checks=$((checks + 1))
if command -v python3 >/dev/null 2>&1; then
  python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$scratch/out" || fail "plugins --json is not JSON"
fi

checks=$((checks + 1))
[ ! -e "$TFLACCEL_TOP_BUILDDIR/confdefs.h" ] || fail "configure left confdefs.h: its exit trap stopped at core/"

finish
