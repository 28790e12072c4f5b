#!/bin/sh
# device-native-sync.sh [BUILD_DIR]
#
# The native sync objects that only a real GPU's drivers offer (issue 16):
# runs the built native-event tests of gpu_gl and gpu_cl from BUILD_DIR
# (default: .) and says, per path, whether it ran, was skipped (with the
# test's reason) or failed, as one Markdown table on stdout:
#   gl egl-sync      an application's EGL fence sync gates a run (eglWaitSyncKHR)
#   gl opaque-fd     a binary Vulkan semaphore's fd gates a run (GL_EXT_semaphore_fd)
#   gl timeline-fd   a timeline one at value 1 (GL_NV_timeline_semaphore)
#   cl opaque-fd     a binary Vulkan semaphore's fd gates a run
#                    (cl_khr_external_semaphore_opaque_fd)
# Each test creates its own Vulkan device on the accelerator's GPU (by device
# UUID) to export the semaphore. Exit status: 0 when every path ran and
# passed, 1 when a test failed, 3 when one was skipped (the software stacks:
# lavapipe, llvmpipe and PoCL lack the extensions, so there every fd path
# skips). The tests' full output goes to stderr.
set -u

die() {
  echo "device-native-sync.sh: $*" >&2
  exit 2
}

[ $# -le 1 ] || { echo "usage: $0 [BUILD_DIR]" >&2; exit 2; }
build=${1:-.}
source_dir=$(cd "$(dirname "$0")/.." && pwd) || die "cannot find the source tree"
[ -d "$source_dir/tests/data" ] || die "$source_dir/tests/data is missing"
work=$(mktemp -d "${TMPDIR:-/tmp}/device-native-sync.XXXXXX") || die "cannot make a temporary directory"
trap 'rm -rf "$work"' EXIT

TFLACCEL_TEST_DATA="$source_dir/tests/data"
XDG_CACHE_HOME="$work/cache"
CK_DEFAULT_TIMEOUT=600
export TFLACCEL_TEST_DATA XDG_CACHE_HOME CK_DEFAULT_TIMEOUT

failed=0
skipped=0
# run_test NAME: runs tests/runtime/test_native_events_NAME into $work/NAME.
run_test() {
  program="$build/tests/runtime/test_native_events_$1"
  [ -x "$program" ] || die "$program is not built (make check TESTS= builds it)"
  echo "device-native-sync.sh: $program" >&2
  "$program" >"$work/$1" 2>&1
  status=$?
  cat "$work/$1" >&2
  [ $status -eq 0 ] || failed=1
  eval "status_$1=$status"
}

# row NAME PATH RAN_LINE: one table row from the test's output.
row() {
  eval "status=\$status_$1"
  if [ "$status" -ne 0 ]; then
    result="failed (exit $status)"
  elif grep -q "$3" "$work/$1"; then
    result="ran"
  else
    reason=$(grep -m 1 "skipped:" "$work/$1" | sed 's/^.*skipped: //' | tr '|' '/')
    result="skipped: ${reason:-no line says why}"
    skipped=1
  fi
  echo "| $1 | $2 | $result |"
}

run_test gl
run_test cl
echo "| plugin | path | result |"
echo "|---|---|---|"
row gl "EGLSyncKHR wrap" "an application's EGL fence sync gated a queued run"
row gl "opaque fd, binary" "a binary Vulkan semaphore's opaque fd gated"
row gl "opaque fd, timeline" "a timeline Vulkan semaphore's opaque fd gated"
row cl "opaque fd, binary" "a binary Vulkan semaphore's opaque fd gated"
[ $failed -eq 0 ] || exit 1
[ $skipped -eq 0 ] || exit 3
exit 0
