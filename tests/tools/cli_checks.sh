# Shared by the tflaccel CLI shell tests (sourced, POSIX sh): runs the built
# tool, keeps its stdout, stderr and exit code, and counts failed checks.
# shellcheck disable=SC2034,SC2154 # variables shared with the sourcing scripts
TFLACCEL="${TFLACCEL_TOP_BUILDDIR:?run this through make check}/tflaccel"
TEST_DATA="${TFLACCEL_TEST_DATA:?run this through make check}"
MODEL="$TEST_DATA/hand_recrop.tflite"
# A number as printed by %g (and by a C++ stream): 12, 0.5, 1.23457e+06, nan.
NUMBER='(-?[0-9]+(\.[0-9]+)?(e[+-][0-9]+)?|-?nan|-?inf)'
failures=0
checks=0
scratch=$(mktemp -d "$TFLACCEL_TOP_BUILDDIR/tests/tmp-tools-XXXXXX") || exit 99
trap 'rm -rf "$scratch"' EXIT
# Under tests/sanitizers/keep_drivers_loaded.sh (CI's ASan run with
# LeakSanitizer on): every tflaccel command through it, with the GPU drivers
# kept loaded so that a leak inside one keeps its module's name.
if [ -n "${TFLACCEL_TEST_LAUNCHER:-}" ]; then
  printf '#!/bin/sh\nexec "%s" "%s" "$@"\n' "$TFLACCEL_TEST_LAUNCHER" "$TFLACCEL" >"$scratch/tflaccel"
  chmod +x "$scratch/tflaccel" || exit 99
  TFLACCEL="$scratch/tflaccel"
fi

# run ARGS...: runs tflaccel ARGS; $code gets the exit status.
run() {
  "$TFLACCEL" "$@" >"$scratch/out" 2>"$scratch/err"
  code=$?
  last_command="tflaccel $*"
}

fail() {
  echo "FAIL: $last_command: $*"
  failures=$((failures + 1))
}

expect_exit() {
  checks=$((checks + 1))
  [ "$code" = "$1" ] || fail "exit $code, wanted $1; stderr: $(head -n 3 "$scratch/err")"
}

# expect_line REGEX: some whole stdout line matches the extended regex.
expect_line() {
  checks=$((checks + 1))
  grep -Eq "^$1\$" "$scratch/out" || fail "no stdout line matches ^$1\$"
}

# expect_line_count REGEX N: exactly N whole stdout lines match.
expect_line_count() {
  checks=$((checks + 1))
  count=$(grep -Ec "^$1\$" "$scratch/out")
  [ "$count" = "$2" ] || fail "$count stdout lines match ^$1\$, wanted $2"
}

# expect_usage_error TEXT: exit 2 and one stderr line "<command>: ...TEXT...".
expect_usage_error() {
  expect_exit 2
  checks=$((checks + 1))
  lines=$(wc -l <"$scratch/err")
  [ "$lines" -eq 1 ] || fail "wanted one stderr line, got $lines: $(cat "$scratch/err")"
  grep -q "^tflaccel $command_name: .*$1" "$scratch/err" ||
    fail "stderr lacks 'tflaccel $command_name: ...$1': $(cat "$scratch/err")"
}

expect_stderr() {
  checks=$((checks + 1))
  grep -Fq -- "$1" "$scratch/err" || fail "stderr lacks '$1': $(head -n 3 "$scratch/err")"
}

finish() {
  if [ "$failures" -ne 0 ]; then
    echo "$failures of $checks checks failed"
    exit 1
  fi
  echo "all $checks checks passed"
  exit 0
}
