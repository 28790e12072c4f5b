#!/bin/sh
# Every plugin must export exactly one symbol, the versioned entry point, and
# libtflaccel only tflaccel_* functions.
set -u
top=${TFLACCEL_TOP_BUILDDIR:-.}
nm_tool=${NM:-nm}
status=0
found=0
for plugin in "$top"/plugins/.libs/lib*.so; do
  [ -e "$plugin" ] || continue
  found=$((found + 1))
  symbols=$("$nm_tool" -D --defined-only "$plugin" | awk '{print $NF}' | sort)
  if [ "$symbols" != "tflaccel_accelerator_entry_v1" ]; then
    echo "FAIL: $plugin exports:"; echo "$symbols"
    status=1
  else
    echo "ok: $plugin exports only tflaccel_accelerator_entry_v1"
  fi
done
if [ "$found" -eq 0 ]; then
  echo "FAIL: no plugin was built under $top/plugins/.libs"
  exit 1
fi
others=$("$nm_tool" -D --defined-only "$top/.libs/libtflaccel.so" | awk '{print $NF}' | grep -v '^tflaccel_' || true)
if [ -n "$others" ]; then
  echo "FAIL: libtflaccel.so exports symbols outside tflaccel_*:"; echo "$others"
  status=1
else
  echo "ok: libtflaccel.so exports only tflaccel_* symbols"
fi
exit $status
