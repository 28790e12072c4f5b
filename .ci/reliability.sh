#!/usr/bin/env bash
# CI's reliability checks (docs/RELIABILITY.md), each bounded in time. Runs
# after the README's build in the source tree: sanitizer builds are made out
# of tree from `make distdir`'s clean copy (a configured source tree cannot
# host VPATH builds). Prints how long each step took.
set -euo pipefail
cd "$(dirname "$0")/.."
top=$PWD
supp=$top/tests/sanitizers
step() { echo "=== $1"; step_start=$(date +%s); }
done_step() { echo "=== $1 took $(( $(date +%s) - step_start )) s"; }

make -s distdir distdir=_ci_src >/dev/null

# The GPU drivers' own compile caches (Mesa's shader cache, PoCL's kernel
# cache), filled by the plain make check before this script, seed the
# sanitizer builds' test trees (tests/local.mk points the drivers at
# tests/cache): the shaders are the same, so lavapipe, llvmpipe and PoCL
# need not compile them again (about 300 s for the gpu_vk conformance
# test alone when cold). tflaccel's own cache (tests/cache/tflaccel) is
# not copied: the tests start it cold on purpose.
seed_driver_caches() {
  mkdir -p "$1/tests/cache"
  for cache in mesa pocl; do
    [ -d "$top/tests/cache/$cache" ] && cp -a "$top/tests/cache/$cache" "$1/tests/cache/"
  done
  return 0
}

# ASan + UBSan with LeakSanitizer: every test of make check (those that
# load GPU drivers with the drivers kept loaded); then the corruption
# campaign with LeakSanitizer on (cpu_ref only).
step "ASan+UBSan build and make check"
export LSAN_OPTIONS="suppressions=$supp/lsan.supp:print_suppressions=0"
export UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1:suppressions=$supp/ubsan.supp"
rm -rf _ci_asan && mkdir _ci_asan && seed_driver_caches _ci_asan && cd _ci_asan
../_ci_src/configure -q --disable-python \
  CFLAGS='-fsanitize=address,undefined -fno-omit-frame-pointer -g -O1' \
  LDFLAGS='-fsanitize=address,undefined'
make -s -j2
# Every test of make check with LeakSanitizer on (tests/reliability.mk): those
# that load no GPU driver as they are; those that do, and the CLI scripts,
# through tests/sanitizers/keep_drivers_loaded.sh, which keeps the drivers
# loaded so that a leak inside one keeps its module's name
# (tests/sanitizers/lsan.supp names the drivers', each with its reason; a
# leak in tflaccel's code fails the test). Quick mode: the conformance and
# whole-model tests run one precision per case, alternating, and the models
# of tests/data (tests/support/test_quick.h). Not the pytest suite: python3
# is not built with ASan, so the extension cannot load its runtime first.
# The concurrent-runs test with 2 threads x 1 run, as under ThreadSanitizer
# below (8 x 2 in the plain make check).
export TFLACCEL_TEST_QUICK=1 TFLACCEL_THREADS_N=2 TFLACCEL_THREADS_RUNS=1
# intercept_tls_get_addr=0: GCC 12's sanitizer runtime takes some dynamic
# TLS blocks (those malloc'ed at a page offset of 16) for glibc < 2.25 ones
# and reads a bogus range from before them; LeakSanitizer's tracer then
# dies at exit ("Tracer caught signal 11 ... LeakSanitizer has encountered
# a fatal error"), in about half of the conformance test's cases on gpu_cl.
export ASAN_OPTIONS="detect_leaks=1:intercept_tls_get_addr=0"
make -s -j2 check TESTS="$(make -s print-leak-checked-tests)" ||
  { tail -n 100 test-suite.log; exit 1; }
make -s -j2 check TESTS="$(make -s print-gpu-leak-checked-tests)" \
  LOG_COMPILER="$top/tests/sanitizers/keep_drivers_loaded.sh" ||
  { tail -n 100 test-suite.log; exit 1; }
unset TFLACCEL_TEST_QUICK TFLACCEL_THREADS_N TFLACCEL_THREADS_RUNS
done_step "ASan+UBSan make check"
export ASAN_OPTIONS="detect_leaks=1:intercept_tls_get_addr=0"
step "corruption campaign (ASan+UBSan)"
make -s campaign CAMPAIGN_SECONDS="${CAMPAIGN_SECONDS:-60}"
done_step "corruption campaign"
cd "$top"
unset ASAN_OPTIONS LSAN_OPTIONS UBSAN_OPTIONS

# ThreadSanitizer: N threads x compiled models on every plugin.
step "ThreadSanitizer build and the concurrent-runs test"
# ignore_noninstrumented_modules: the drivers (not built with TSan) are not
# tracked through their libc calls; without it lavapipe's LLVM JIT runs for
# over 20 minutes under TSan's interceptors.
export TSAN_OPTIONS="suppressions=$supp/tsan.supp:ignore_noninstrumented_modules=1:halt_on_error=1:second_deadlock_stack=1"
rm -rf _ci_tsan && mkdir _ci_tsan && seed_driver_caches _ci_tsan && cd _ci_tsan
../_ci_src/configure -q --disable-python CFLAGS='-fsanitize=thread -g -O1' LDFLAGS='-fsanitize=thread'
make -s -j2
make -s check-threads TFLACCEL_THREADS_N=2 TFLACCEL_THREADS_RUNS=1
cd "$top"
unset TSAN_OPTIONS
done_step "ThreadSanitizer"

# libFuzzer on the loader, seeded with the real models, for a fixed time.
step "libFuzzer (clang)"
make -s fuzz FUZZ_SECONDS="${FUZZ_SECONDS:-30}"
done_step "libFuzzer"

# valgrind memcheck of a real model on cpu_ref (GPU plugins: by hand, see
# tests/reliability.mk; their drivers compile with LLVM under valgrind).
step "valgrind memcheck"
make -s valgrind-models
done_step "valgrind"
rm -rf _ci_src _ci_asan _ci_tsan
