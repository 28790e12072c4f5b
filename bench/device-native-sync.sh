#!/bin/sh
# device-native-sync.sh [BUILD_DIR]
#
# Runs the native sync object tests of a built tree on this machine's GPU
# (issue 16): the paths the CI's software drivers cannot take. lavapipe
# has timeline semaphores but not VK_KHR_external_semaphore_fd, so there
# test_native_events_vk skips the OPAQUE_FD export/import and sync_file
# cases; NVIDIA's driver has the extension (OPAQUE_FD, not SYNC_FD
# semaphores). Each test prints what it exercised and, for each case the
# driver lacks, "skipped: <what> not offered by <device (driver)>".
#
# BUILD_DIR is a configured and built tree (default: the current
# directory), with `make check TESTS=` having built the tests, e.g.
#   make -j2 tests/runtime/test_native_events_vk
# The tests run uninstalled: libtflaccel from BUILD_DIR/.libs, plugins from
# BUILD_DIR/plugins/.libs, models from the sources' tests/data.
# Environment:
#   TESTS     test programs under BUILD_DIR (default: the native event tests
#             that were built: tests/runtime/test_native_events_{vk,cl,gl})
#   SRCDIR    the source tree (default: BUILD_DIR)
#   REQUIRE   skip messages that must NOT appear, as grep -E patterns
#             separated by '|' (e.g. on NVIDIA:
#             REQUIRE='OPAQUE_FD export/import skipped|binary OPAQUE_FD import skipped')
# Exit status: 0 when every test passed (and nothing REQUIREd was skipped).
set -u

die() {
  echo "device-native-sync.sh: $*" >&2
  exit 1
}

[ $# -le 1 ] || { echo "usage: $0 [BUILD_DIR]" >&2; exit 2; }
build=$(cd "${1:-.}" && pwd) || die "no build directory ${1:-.}"
srcdir=${SRCDIR:-$build}
[ -d "$srcdir/tests/data" ] || die "$srcdir/tests/data is missing (set SRCDIR to the sources)"
[ -d "$build/plugins/.libs" ] || die "$build has no built plugins (plugins/.libs)"

tests=${TESTS:-}
if [ -z "$tests" ]; then
  for name in vk cl gl; do
    test_program=tests/runtime/test_native_events_$name
    [ -x "$build/$test_program" ] && tests="$tests $test_program"
  done
fi
[ -n "$tests" ] || die "no native event test is built in $build (make tests/runtime/test_native_events_vk)"

work=$(mktemp -d "${TMPDIR:-/tmp}/device-native-sync.XXXXXX") || die "cannot make a temporary directory"
trap 'rm -rf "$work"' EXIT

TFLACCEL_TEST_DATA=$srcdir/tests/data
TFLACCEL_TOP_BUILDDIR=$build
TFLACCEL_TOP_SRCDIR=$srcdir
TFLACCEL_PLUGIN_PATH=$build/plugins/.libs
LD_LIBRARY_PATH=$build/.libs${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
XDG_CACHE_HOME=$work/cache
MESA_SHADER_CACHE_DIR=$work/cache/mesa
POCL_CACHE_DIR=$work/cache/pocl
CK_DEFAULT_TIMEOUT=600
export TFLACCEL_TEST_DATA TFLACCEL_TOP_BUILDDIR TFLACCEL_TOP_SRCDIR TFLACCEL_PLUGIN_PATH \
  LD_LIBRARY_PATH XDG_CACHE_HOME MESA_SHADER_CACHE_DIR POCL_CACHE_DIR CK_DEFAULT_TIMEOUT

failed=0
for test_program in $tests; do
  # The program itself, not libtool's wrapper: the tree may have moved.
  program=$build/$(dirname "$test_program")/.libs/$(basename "$test_program")
  [ -x "$program" ] || program=$build/$test_program
  echo "== $test_program"
  # Check's tests link libsubunit; the library needs libinih and nettle.
  missing=$(ldd "$program" 2>/dev/null | sed -n 's/^[[:space:]]*\([^ ]*\) => not found$/\1/p' | tr '\n' ' ')
  if [ -n "$missing" ]; then
    echo "== $test_program cannot run here: missing ${missing% } (install them, e.g. libsubunit0)"
    failed=1
    continue
  fi
  "$program" >"$work/out" 2>&1
  status=$?
  cat "$work/out"
  if [ $status -ne 0 ] && [ $status -ne 77 ]; then
    echo "== $test_program FAILED (exit status $status)"
    failed=1
  fi
  if [ -n "${REQUIRE:-}" ] && grep -E "$REQUIRE" "$work/out" >/dev/null; then
    echo "== $test_program skipped a case REQUIRE names: $(grep -E "$REQUIRE" "$work/out" | head -n 1)"
    failed=1
  fi
done
[ $failed -eq 0 ] && echo "== all passed"
exit $failed
