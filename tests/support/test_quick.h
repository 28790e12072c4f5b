/* Quick mode of the long model and conformance tests, for CI's sanitizer
 * run (.ci/reliability.sh sets TFLACCEL_TEST_QUICK=1): each case runs at
 * one precision, fp32 and fp16 alternating over the cases, so that both
 * precisions' code still runs under the sanitizers, in about half the
 * time; the whole-model tests take the models of tests/data only. The
 * plain make check runs every case at both precisions. */
#ifndef TFLACCEL_TESTS_SUPPORT_TEST_QUICK_H
#define TFLACCEL_TESTS_SUPPORT_TEST_QUICK_H

#include <stdlib.h>
#include <string.h>

static inline int test_quick_mode(void) {
  const char *quick = getenv("TFLACCEL_TEST_QUICK");
  return quick != NULL && !strcmp(quick, "1");
}

/* Whether case case_index runs at precision number precision_index (0:
 * fp32, 1: fp16). */
static inline int test_quick_runs_precision(int case_index, int precision_index) {
  return !test_quick_mode() || case_index % 2 == precision_index;
}

#endif
