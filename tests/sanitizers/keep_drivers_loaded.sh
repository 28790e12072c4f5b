#!/bin/sh
# Runs a test program (a libtool wrapper or a plain one) with the software
# GPU drivers preloaded, for LeakSanitizer: the Vulkan loader, libglvnd and
# ocl-icd dlclose() their drivers before the process exits, after which
# LeakSanitizer can only show "<unknown module>" for a leak made inside one,
# and no suppression can name it. A preloaded library is never unloaded, so
# its leaks keep their module's name (tests/sanitizers/lsan.supp names
# them). Only the test program gets LD_PRELOAD (libtool --mode=execute), not
# the shells and tools around it. Drivers missing here are left out.
#   make check TESTS='...' LOG_COMPILER=tests/sanitizers/keep_drivers_loaded.sh
set -eu
top_builddir=${TFLACCEL_TOP_BUILDDIR:-.}
# Found once per test: a script's commands come back here with the list
# (running gcc again in them could make files in a test's own HOME: a
# ccache gcc makes its cache directory there).
if [ -z "${TFLACCEL_TEST_PRELOAD+set}" ]; then
  multiarch=$(gcc -print-multiarch 2>/dev/null || echo x86_64-linux-gnu)
  TFLACCEL_TEST_PRELOAD=
  for driver in \
    "/usr/lib/$multiarch/libvulkan_lvp.so" \
    "/usr/lib/$multiarch/libEGL_mesa.so.0" \
    "/usr/lib/$multiarch/dri/swrast_dri.so" \
    "/usr/lib/$multiarch/libpocl.so.2"; do
    if [ -e "$driver" ]; then TFLACCEL_TEST_PRELOAD="$TFLACCEL_TEST_PRELOAD${TFLACCEL_TEST_PRELOAD:+ }$driver"; fi
  done
  export TFLACCEL_TEST_PRELOAD
fi
# A shell test (the CLI scripts): its shells and tools are left alone; the
# tflaccel commands it runs come back through this script
# (tests/tools/cli_checks.sh wraps $TFLACCEL when TFLACCEL_TEST_LAUNCHER is
# set), so that only they get the drivers preloaded.
case "$1" in
  *.sh)
    case "$0" in /*) TFLACCEL_TEST_LAUNCHER=$0 ;; *) TFLACCEL_TEST_LAUNCHER=$PWD/$0 ;; esac
    export TFLACCEL_TEST_LAUNCHER
    exec "$@" ;;
esac
# The ASan runtime is not first in a preloading process's library list;
# the drivers define no allocator, so its interceptors still take every
# allocation.
ASAN_OPTIONS="${ASAN_OPTIONS:-}${ASAN_OPTIONS:+:}verify_asan_link_order=0"
export ASAN_OPTIONS
exec "$top_builddir/libtool" --mode=execute env LD_PRELOAD="$TFLACCEL_TEST_PRELOAD" "$@"
