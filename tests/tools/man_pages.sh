#!/bin/sh
# man/tflaccel.1 and man/tflaccel.ini.5: groff renders them without a
# warning (-ww), and tflaccel(1) documents every command of 'tflaccel --help'
# and every flag of each command's --help; tflaccel.ini(5) every key of the
# shipped conf/tflaccel.ini.
. "$(dirname "$0")/cli_checks.sh"
MAN_DIR="${TFLACCEL_TOP_SRCDIR:?run this through make check}/man"
if ! command -v groff >/dev/null 2>&1; then
  echo "SKIP: groff not found (Debian: groff-base)"
  exit 77
fi
for page in "$MAN_DIR/tflaccel.1" "$MAN_DIR/tflaccel.ini.5"; do
  checks=$((checks + 1))
  warnings=$(groff -man -ww -z "$page" 2>&1)
  [ -z "$warnings" ] || fail "groff warns about $page: $warnings"
  if command -v man >/dev/null 2>&1; then
    checks=$((checks + 1))
    warnings=$(MANWIDTH=80 man -l "$page" 2>&1 >/dev/null)
    [ -z "$warnings" ] || fail "man -l warns about $page: $warnings"
  fi
done

# The roff source with "\-" read as "-".
sed 's/\\-/-/g' "$MAN_DIR/tflaccel.1" >"$scratch/tflaccel.1.txt"
commands=$("$TFLACCEL" --help | sed -n 's/^  \([a-z]*\) .*/\1/p')
checks=$((checks + 1))
[ -n "$commands" ] || fail "no commands in tflaccel --help"
for command in $commands; do
  checks=$((checks + 1))
  grep -q "^\.B tflaccel $command\$\|^\.B $command\$" "$scratch/tflaccel.1.txt" ||
    fail "tflaccel.1 lacks the command $command"
  for flag in $("$TFLACCEL" "$command" --help | grep -oE -- '--[a-z][a-z0-9_-]*' | sort -u); do
    checks=$((checks + 1))
    grep -q -- "$flag" "$scratch/tflaccel.1.txt" || fail "tflaccel.1 lacks $command's $flag"
  done
done
for key in $(sed -n 's/^\([a-z_]*\) *=.*/\1/p' "$TFLACCEL_TOP_SRCDIR/conf/tflaccel.ini" | sort -u); do
  checks=$((checks + 1))
  grep -q "^\.B[I]* $key\b\|^\.BR $key " "$MAN_DIR/tflaccel.ini.5" || fail "tflaccel.ini.5 lacks the key $key"
done
finish
