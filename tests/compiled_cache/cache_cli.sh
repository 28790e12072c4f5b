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
chmod 700 "$cache"

run cache
expect_usage_error "missing action"
run cache frobnicate
expect_usage_error "unknown action 'frobnicate'"
finish
