#!/bin/sh
# device-external-memory.sh [BUILD_DIR]
#
# External memory across GPU APIs on a real GPU (issue 16): runs
# tests/runtime/test_external_memory of a built tree, where gpu_vk exports
# its input buffers as opaque fds (VK_KHR_external_memory_fd) and gpu_vk,
# gpu_gl (GL_EXT_memory_object_fd) and gpu_cl
# (cl_khr_external_memory_opaque_fd) run on them with no host copy, and
# prints one Markdown table: each path ran (outputs equal the host run's,
# 0 host copies), was skipped (the reason the test printed) or failed.
# Software stacks run gpu_vk and gpu_gl's paths; gpu_cl's needs NVIDIA's
# OpenCL (PoCL lacks the extension: the test checks the error names it).
#
#   BUILD_DIR  the built tree (default: .); the test binary, its library
#              (BUILD_DIR/.libs) and the plugins (BUILD_DIR/plugins/.libs)
#              are taken from it, so a tree copied elsewhere works too.
# Environment:
#   REQUIRE    "all": exit 1 when any path was skipped (default: only
#              failures fail)
#   TFLACCEL_PLUGIN_PATH  where the plugins are (default: BUILD_DIR/plugins/.libs)
set -u

die() {
  echo "device-external-memory.sh: $*" >&2
  exit 1
}

[ $# -le 1 ] || { echo "usage: $0 [BUILD_DIR]" >&2; exit 2; }
build=$(cd "${1:-.}" 2>/dev/null && pwd) || die "${1:-.} is not a directory"
source_dir=$(cd "$(dirname "$0")/.." && pwd)
test_binary=$build/tests/runtime/.libs/test_external_memory
[ -x "$test_binary" ] || test_binary=$build/tests/runtime/test_external_memory
[ -x "$test_binary" ] || die "no tests/runtime/test_external_memory in $build (make check TESTS= builds it)"
[ -d "$source_dir/tests/data" ] || die "no tests/data beside this script"

work=$(mktemp -d "${TMPDIR:-/tmp}/device-external-memory.XXXXXX") || die "cannot make a temporary directory"
trap 'rm -rf "$work"' EXIT

echo "device-external-memory.sh: running $test_binary" >&2
TFLACCEL_TEST_DATA=$source_dir/tests/data \
  TFLACCEL_PLUGIN_PATH=${TFLACCEL_PLUGIN_PATH:-$build/plugins/.libs} \
  LD_LIBRARY_PATH=$build/.libs${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH} \
  XDG_CACHE_HOME=$work/cache CK_DEFAULT_TIMEOUT=600 \
  "$test_binary" >"$work/out" 2>&1
status=$?
cat "$work/out" >&2

# row NAME PLUGIN EXTENSION: what the test said of the path into PLUGIN.
skipped=0
row() {
  if grep -q "^$2: gpu_vk's exported opaque fds as inputs: outputs equal" "$work/out"; then
    result="ran: outputs equal the host run's, 0 host copies"
  elif [ "$status" -ne 0 ] && grep -q ":$1:" "$work/out"; then
    result="FAILED: $(grep ":$1:" "$work/out" | head -n 1 | tr '|' '/')"
  else
    reason=$(grep "^skipped:.*$3\|^$2: unavailable" "$work/out" | head -n 1 | tr '|' '/')
    [ -n "$reason" ] || reason=$(grep "^skipped:" "$work/out" | head -n 1 | tr '|' '/')
    reason=${reason#skipped: }
    result="skipped: ${reason:-no reason printed}"
    skipped=1
  fi
  echo "| gpu_vk -> $2 | $3 | $result |"
}

echo "| path | extension | result |"
echo "|---|---|---|"
row vk_into_vk gpu_vk VK_KHR_external_memory_fd
row vk_into_gl gpu_gl GL_EXT_memory_object_fd
row vk_into_cl gpu_cl cl_khr_external_memory_opaque_fd
if grep -q "^bad external memory: one-line errors, no fd left open" "$work/out"; then
  echo "| bad fds | - | refused in one line, no fd left open |"
else
  echo "| bad fds | - | FAILED or not run |"
fi
summary=$(grep "^[0-9]*%: Checks" "$work/out" | tail -n 1)
echo
echo "test_external_memory: ${summary:-no summary (exit status $status)}"
[ "$status" -eq 0 ] || exit 1
if [ "${REQUIRE:-}" = all ] && [ "$skipped" -ne 0 ]; then exit 1; fi
exit 0
