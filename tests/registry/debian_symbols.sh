#!/bin/sh
# libtflaccel.so's exported tflaccel_* symbols and debian/libtflaccel0.symbols
# list the same names, both ways: a function added to the public API without
# its symbols line fails dpkg-gensymbols (lintian once caught one only in
# CI's package step), and a line whose function is gone breaks the package.
set -u
top=${TFLACCEL_TOP_BUILDDIR:-.}
srcdir=${TFLACCEL_TOP_SRCDIR:-.}
nm_tool=${NM:-nm}
library=$top/.libs/libtflaccel.so
symbols_file=$srcdir/debian/libtflaccel0.symbols
for file in "$library" "$symbols_file"; do
  if [ ! -e "$file" ]; then
    echo "FAIL: $file is missing"
    exit 1
  fi
done
scratch=$(mktemp -d "${TMPDIR:-/tmp}/tflaccel-symbols.XXXXXX") || exit 1
trap 'rm -rf "$scratch"' EXIT
if ! "$nm_tool" -D --defined-only "$library" >"$scratch/nm"; then
  echo "FAIL: $nm_tool -D --defined-only $library failed"
  exit 1
fi
awk '$NF ~ /^tflaccel_/ {print $NF}' "$scratch/nm" | sed 's/@.*//' | sort -u >"$scratch/exported"
# Symbol lines: " name@Base version"; the first line names the library and
# lines starting with '*' or '#' are fields and comments.
awk '/^ / {sub(/@.*/, "", $1); print $1}' "$symbols_file" | sort -u >"$scratch/listed"
if [ ! -s "$scratch/exported" ]; then
  echo "FAIL: $library exports no tflaccel_* symbol"
  exit 1
fi
status=0
for name in $(comm -23 "$scratch/exported" "$scratch/listed"); do
  echo "FAIL: $name is exported by libtflaccel.so but missing from debian/libtflaccel0.symbols"
  status=1
done
for name in $(comm -13 "$scratch/exported" "$scratch/listed"); do
  echo "FAIL: $name is listed in debian/libtflaccel0.symbols but not exported by libtflaccel.so"
  status=1
done
if [ "$status" -eq 0 ]; then
  echo "ok: the $(wc -l <"$scratch/exported") exported tflaccel_* symbols are those of debian/libtflaccel0.symbols"
fi
exit $status
