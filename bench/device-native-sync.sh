#!/bin/sh
# device-native-sync.sh [BUILD_DIR]
#
# The native sync objects only a real GPU's drivers offer (issue 16): runs
# the built native-event tests of gpu_vk, gpu_gl and gpu_cl and prints one
# Markdown table, one row per path: ran, skipped (with the test's reason)
# or failed. The software stacks lack the fd extensions (lavapipe:
# VK_KHR_external_semaphore_fd; llvmpipe: GL_EXT_semaphore_fd; PoCL:
# cl_khr_external_semaphore_opaque_fd), so there those rows skip; NVIDIA
# offers OPAQUE_FD semaphores (not SYNC_FD ones).
#
# BUILD_DIR is a configured and built tree (default: .), with the tests
# built (`make check TESTS=`). The programs run uninstalled from their
# .libs: libtflaccel from BUILD_DIR/.libs, plugins from
# BUILD_DIR/plugins/.libs, models from the sources' tests/data, so the
# tree may have moved. The tests' full output goes to stderr.
# Exit status: 0 every path ran and passed, 1 a test failed, 3 a path was
# skipped.
set -u

die() {
  echo "device-native-sync.sh: $*" >&2
  exit 2
}

[ $# -le 1 ] || { echo "usage: $0 [BUILD_DIR]" >&2; exit 2; }
build=$(cd "${1:-.}" 2>/dev/null && pwd) || die "${1:-.} is not a directory"
source_dir=$(cd "$(dirname "$0")/.." && pwd) || die "cannot find the source tree"
[ -d "$source_dir/tests/data" ] || die "$source_dir/tests/data is missing"
[ -d "$build/plugins/.libs" ] || die "$build has no built plugins (plugins/.libs)"
work=$(mktemp -d "${TMPDIR:-/tmp}/device-native-sync.XXXXXX") || die "cannot make a temporary directory"
trap 'rm -rf "$work"' EXIT

TFLACCEL_TEST_DATA=$source_dir/tests/data
TFLACCEL_PLUGIN_PATH=$build/plugins/.libs
LD_LIBRARY_PATH=$build/.libs${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
XDG_CACHE_HOME=$work/cache
MESA_SHADER_CACHE_DIR=$work/cache/mesa
POCL_CACHE_DIR=$work/cache/pocl
CK_DEFAULT_TIMEOUT=600
export TFLACCEL_TEST_DATA TFLACCEL_PLUGIN_PATH LD_LIBRARY_PATH XDG_CACHE_HOME \
  MESA_SHADER_CACHE_DIR POCL_CACHE_DIR CK_DEFAULT_TIMEOUT

failed=0
skipped=0
# run_test NAME: runs tests/runtime/test_native_events_NAME into $work/NAME.
run_test() {
  program=$build/tests/runtime/.libs/test_native_events_$1
  [ -x "$program" ] || program=$build/tests/runtime/test_native_events_$1
  [ -x "$program" ] || die "tests/runtime/test_native_events_$1 is not built in $build"
  missing=$(ldd "$program" 2>/dev/null | sed -n 's/^[[:space:]]*\([^ ]*\) => not found$/\1/p' | tr '\n' ' ')
  [ -z "$missing" ] || die "$program cannot run here: missing ${missing% } (e.g. libsubunit0)"
  echo "device-native-sync.sh: $program" >&2
  "$program" >"$work/$1" 2>&1
  status=$?
  cat "$work/$1" >&2
  [ $status -eq 0 ] || failed=1
  eval "status_$1=$status"
}

# row NAME PATH RAN_LINE SKIP_LINE: one table row from the test's output.
row() {
  eval "status=\$status_$1"
  if [ "$status" -ne 0 ]; then
    result="failed (exit $status)"
  elif grep -q "$3" "$work/$1"; then
    result="ran"
  else
    reason=$(grep -m 1 "$4" "$work/$1" | sed 's/^.*skipped: //' | tr '|' '/')
    result="skipped: ${reason:-no line says why}"
    skipped=1
  fi
  echo "| gpu_$1 | $2 | $result |"
}

run_test vk
run_test gl
run_test cl
echo "| plugin | path | result |"
echo "|---|---|---|"
row vk "timeline VkSemaphore export" "signalled the device's timeline VkSemaphore" "timeline semaphores skipped"
row vk "app timeline VkSemaphore wrap" "an application's timeline VkSemaphore" "skipped: VK_KHR_timeline"
row vk "app binary VkSemaphore wrap" "an application's binary VkSemaphore gated" "binary VkSemaphore.*skipped"
row vk "timeline opaque fd export, wrapped back" "the timeline's OPAQUE_FD reached" "OPAQUE_FD export/import skipped"
row vk "app binary opaque fd wrap" "an OPAQUE_FD of the application's binary semaphore" "binary OPAQUE_FD import skipped"
row vk "sync_file export" "the run's sync_file fd became readable" "sync_file export skipped"
row vk "app sync_file wrap" "the application's sync_file" "sync_file import skipped"
row gl "EGLSyncKHR wrap" "an application's EGL fence sync gated a queued run" "skipped:"
row gl "app binary opaque fd wrap" "a binary Vulkan semaphore's opaque fd gated" "skipped:"
row gl "app timeline opaque fd wrap" "a timeline Vulkan semaphore's opaque fd gated" "skipped:"
row cl "app binary opaque fd wrap" "a binary Vulkan semaphore's opaque fd gated" "skipped:"
[ $failed -eq 0 ] || exit 1
[ $skipped -eq 0 ] || exit 3
exit 0
