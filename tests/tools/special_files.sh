#!/bin/sh
# shellcheck disable=SC2034,SC2154 # variables shared with cli_checks.sh
# Only regular files are read as models, inputs and configs: a FIFO (which
# would block open() forever), a directory or a device is a one-line error
# naming the path and what it is, and the tool exits 1 at once.
. "$(dirname "$0")/cli_checks.sh"
mkfifo "$scratch/fifo" || exit 99

# run_bounded ARGS...: like run, but a hang is a failure, not a stuck test.
run_bounded() {
  timeout 60 "$TFLACCEL" "$@" >"$scratch/out" 2>"$scratch/err"
  code=$?
  last_command="tflaccel $*"
  [ "$code" != 124 ] || fail "hung (killed after 60 s)"
}

# expect_refusal WHAT KIND: exit 1, one stderr line "... the WHAT is KIND".
expect_refusal() {
  expect_exit 1
  checks=$((checks + 1))
  lines=$(wc -l <"$scratch/err")
  [ "$lines" -eq 1 ] || fail "wanted one stderr line, got $lines: $(cat "$scratch/err")"
  expect_stderr "the $1 is $2, not a regular file"
}

for pair in "$scratch/fifo:a FIFO" "$scratch:a directory" "/dev/null:a character device"; do
  path=${pair%%:*}
  kind=${pair#*:}
  run_bounded run "$path"
  expect_refusal model "$kind"
  run_bounded inspect "$path"
  expect_refusal model "$kind"
  run_bounded run "$MODEL" --accelerator cpu_ref --input "$path"
  expect_refusal "input 0 file" "$kind"
  TFLACCEL_CONFIG="$path" run_bounded plugins
  expect_refusal "config file" "$kind"
done
finish
