#!/bin/sh
# tflaccel cache path|list|clear: where the cache is (TFLACCEL_CACHE_DIR,
# off), its entries (a damaged one listed as unusable), clearing only
# entries, one-line usage errors. No GPU needed.
. "$(dirname "$0")/../tools/cli_checks.sh"
command_name="cache"
cache="$scratch/cache"
TFLACCEL_CACHE_DIR="$cache"
export TFLACCEL_CACHE_DIR

run cache path
expect_exit 0
expect_line "$cache"
checks=$((checks + 1))
[ "$(stat -c %a "$cache")" = 700 ] || fail "$cache is mode $(stat -c %a "$cache"), wanted 700"

run cache list
expect_exit 0
expect_line "0 entries, 0 bytes in $cache"

entry="gpu_cl-$(printf '%064d' 0).bin"
printf 'not an entry' >"$cache/$entry"
printf 'keep me' >"$cache/notes.txt"
run cache list
expect_exit 0
expect_line "gpu_cl +12 +[0-9-]+ [0-9:]+ +- +\(unusable: truncated\) +$entry"
expect_line "1 entries, 12 bytes in $cache"

run cache clear
expect_exit 0
expect_line "removed 1 entries from $cache"
checks=$((checks + 1))
[ ! -e "$cache/$entry" ] && [ -e "$cache/notes.txt" ] || fail "clear removed the wrong files"

TFLACCEL_CACHE=off
export TFLACCEL_CACHE
run cache path
expect_exit 0
expect_line off
unset TFLACCEL_CACHE

chmod 777 "$cache"
run cache path
expect_exit 0
expect_line off
expect_stderr "compiled-model cache off: $cache (TFLACCEL_CACHE_DIR) is not usable: writable by everyone"
# A model still runs, without the cache, with the one warning.
run run "$MODEL" --accelerator cpu_ref
expect_exit 0
expect_stderr "compiled-model cache off: $cache (TFLACCEL_CACHE_DIR) is not usable: writable by everyone"
chmod 770 "$cache"
run run "$MODEL" --accelerator cpu_ref
expect_exit 0
expect_stderr "is not usable: writable by its group"
chmod 700 "$cache"

# A configured directory is made only when its parent exists.
TFLACCEL_CACHE_DIR="$scratch/missing/cache"
run cache path
expect_exit 0
expect_line off
expect_stderr "its parent directory does not exist"
checks=$((checks + 1))
[ ! -e "$scratch/missing" ] || fail "the missing parent was made"
# No home (a build user's /nonexistent) and no XDG_CACHE_HOME: off, at INFO
# only, nothing made.
unset TFLACCEL_CACHE_DIR
run_without_home() {
  env -u XDG_CACHE_HOME HOME="$scratch/nonexistent" TFLACCEL_LOG=info "$TFLACCEL" "$@" \
    >"$scratch/out" 2>"$scratch/err"
  code=$?
  last_command="tflaccel $* (HOME=$scratch/nonexistent)"
}
run_without_home cache path
expect_exit 0
expect_line off
expect_stderr "INFO: compiled-model cache off: HOME is not a directory and XDG_CACHE_HOME is not set"
checks=$((checks + 1))
if grep -q "WARNING\|ERROR" "$scratch/err"; then fail "more than INFO: $(cat "$scratch/err")"; fi
[ ! -e "$scratch/nonexistent" ] || fail "the missing home was made"
TFLACCEL_CACHE_DIR="$cache"

run cache
expect_usage_error "missing action"
run cache frobnicate
expect_usage_error "unknown action 'frobnicate'"
finish
