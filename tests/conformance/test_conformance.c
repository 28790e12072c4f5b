/* One conformance suite for every GPU plugin: each case of
 * conformance_cases.c runs on the plugin under test (CONFORMANCE_PLUGIN_PATH,
 * named CONFORMANCE_PLUGIN_NAME) through the accelerator ABI and on cpu_ref
 * (CONFORMANCE_REFERENCE_PATH), in fp32 and in fp16 (in quick mode one of
 * them, tests/support/test_quick.h), and the outputs must agree:
 * max |plugin - cpu_ref| <= tolerance * max(1, max |cpu_ref|).
 * Quantized outputs (int8, uint8, int16) agree within one LSB (the GPU
 * plugins' float view rounds where cpu_ref's fixed point may round the
 * other way; conformance_quant_cases.c).
 * Every buffer is framed by sentinel bytes that must survive. A case the
 * plugin declines is listed with its reason, not failed. The binary skips
 * (77) when the plugin finds no device at all. */
#include "config.h"

#include <check.h>
#include <dlfcn.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tests/conformance/conformance_cases.h"
#include "tests/conformance/conformance_runner.h"
#include "tests/support/test_quick.h"

#if !defined(CONFORMANCE_PLUGIN_PATH) || !defined(CONFORMANCE_PLUGIN_NAME) || \
    !defined(CONFORMANCE_REFERENCE_PATH)
#error \
    "CONFORMANCE_PLUGIN_PATH, CONFORMANCE_PLUGIN_NAME and CONFORMANCE_REFERENCE_PATH must be defined"
#endif

#define SKIP_EXIT_STATUS 77
/* float32 kernels follow cpu_ref's summation order; what remains are the
 * few-ulp differences of exp, tanh and division. */
#define TOLERANCE_FP32 2e-5
#define TOLERANCE_FP16 1e-2
#define QUANTIZED_TOLERANCE_LSB 1
#define INDEX_IDENTICAL_FP16 0.95

static void compare(const cf_case *spec, cf_graph *graph, int32_t precision, const cf_result *ours,
                    const cf_result *reference) {
  for (uint32_t i = 0; i < graph->output_count; ++i) {
    const tflaccel_tensor_desc *tensor = &graph->tensors[graph->outputs[i]];
    int64_t count = cf_elements(tensor);
    if (tensor->dtype == TFLACCEL_DTYPE_BOOL) {
      ck_assert_msg(memcmp(ours->outputs[i], reference->outputs[i], (size_t)count) == 0,
                    "%s: bool output %u differs", spec->name, i);
      continue;
    }
    if (tensor->dtype == TFLACCEL_DTYPE_INT32 && tensor->quantization.count > 0) {
      /* A quantized int32 (QUANTIZE's output): one LSB, and in fp16, where
       * the GPU holds the real value to half's 11 bits, that precision. */
      for (int64_t k = 0; k < count; ++k) {
        int32_t qa, qb;
        memcpy(&qa, (const char *)ours->outputs[i] + k * 4, 4);
        memcpy(&qb, (const char *)reference->outputs[i] + k * 4, 4);
        int64_t tolerance = QUANTIZED_TOLERANCE_LSB;
        if (precision == TFLACCEL_PRECISION_FP16) tolerance += llabs((int64_t)qb) / 1024;
        ck_assert_msg(llabs((int64_t)qa - qb) <= tolerance,
                      "%s (%s): int32 output %u element %lld is %d, cpu_ref %d", spec->name,
                      precision == TFLACCEL_PRECISION_FP16 ? "fp16" : "fp32", i, (long long)k,
                      qa, qb);
      }
      continue;
    }
    if (tensor->dtype == TFLACCEL_DTYPE_INT32 || tensor->dtype == TFLACCEL_DTYPE_INT64) {
      /* Indices (ARG_MAX): exactly cpu_ref's in fp32; in fp16, where values
       * closer than half's rounding may tie or swap, at least
       * INDEX_IDENTICAL_FP16 of them (expected.json's "index" tolerance). */
      size_t size = tensor->dtype == TFLACCEL_DTYPE_INT32 ? 4 : 8;
      int64_t differ = 0;
      for (int64_t k = 0; k < count; ++k) {
        int64_t a = 0, b = 0;
        if (size == 4) {
          int32_t a32, b32;
          memcpy(&a32, (const char *)ours->outputs[i] + k * 4, 4);
          memcpy(&b32, (const char *)reference->outputs[i] + k * 4, 4);
          a = a32;
          b = b32;
        } else {
          memcpy(&a, (const char *)ours->outputs[i] + k * 8, 8);
          memcpy(&b, (const char *)reference->outputs[i] + k * 8, 8);
        }
        ck_assert_msg(a >= 0 && a < INT32_MAX, "%s: index output %u element %lld is %lld",
                      spec->name, i, (long long)k, (long long)a);
        differ += a != b;
        if (precision != TFLACCEL_PRECISION_FP16)
          ck_assert_msg(a == b, "%s: %s output %u element %lld is %lld, cpu_ref %lld", spec->name,
                        size == 4 ? "int32" : "int64", i, (long long)k, (long long)a,
                        (long long)b);
      }
      ck_assert_msg((double)(count - differ) >= INDEX_IDENTICAL_FP16 * (double)count,
                    "%s: fp16: %lld of %lld indices differ from cpu_ref's", spec->name,
                    (long long)differ, (long long)count);
      continue;
    }
    if (tensor->dtype == TFLACCEL_DTYPE_INT8 || tensor->dtype == TFLACCEL_DTYPE_UINT8 ||
        tensor->dtype == TFLACCEL_DTYPE_INT16) {
      /* Quantized: one step of rounding apart at most (XNNPACK requantizes
       * in float, the GPU float view rounds float values, cpu_ref uses
       * TFLite's fixed point). */
      for (int64_t k = 0; k < count; ++k) {
        int qa = cf_integer_at(tensor->dtype, ours->outputs[i], k);
        int qb = cf_integer_at(tensor->dtype, reference->outputs[i], k);
        /* fp16 holds 11 significant bits, not an int16 grid's 16: there
         * the float view keeps int16 values to half's relative precision. */
        int tolerance = QUANTIZED_TOLERANCE_LSB;
        /* CF_EXACT_FP32 holds the GPU float view to TFLite's double rounding;
         * XNNPACK requantizes in float once, by design (one LSB apart). */
        if ((spec->flags & CF_EXACT_FP32) && precision != TFLACCEL_PRECISION_FP16 &&
            strncmp(CONFORMANCE_PLUGIN_NAME, "gpu_", 4) == 0)
          tolerance = 0;
        if (tensor->dtype == TFLACCEL_DTYPE_INT16 && precision == TFLACCEL_PRECISION_FP16)
          tolerance += abs(qb) / 1024;
        ck_assert_msg(abs(qa - qb) <= tolerance,
                      "%s (%s): %s output %u element %lld is %d, cpu_ref %d", spec->name,
                      precision == TFLACCEL_PRECISION_FP16 ? "fp16" : "fp32",
                      tensor->dtype == TFLACCEL_DTYPE_INT16 ? "int16" : "8-bit", i, (long long)k,
                      qa, qb);
      }
      continue;
    }
    const float *a = ours->outputs[i], *b = reference->outputs[i];
    double scale = 1.0, worst = 0.0;
    int64_t worst_at = 0;
    for (int64_t k = 0; k < count; ++k)
      if (fabs(b[k]) > scale) scale = fabs(b[k]);
    for (int64_t k = 0; k < count; ++k) {
      ck_assert_msg(isfinite(a[k]), "%s: output %u element %lld is %g", spec->name, i, (long long)k,
                    (double)a[k]);
      double error = fabs((double)a[k] - (double)b[k]);
      if (error > worst) {
        worst = error;
        worst_at = k;
      }
    }
    double tolerance = precision == TFLACCEL_PRECISION_FP16 ? TOLERANCE_FP16 : TOLERANCE_FP32;
    ck_assert_msg(worst <= tolerance * scale,
                  "%s (%s): output %u element %lld is %.9g, cpu_ref %.9g (error %.3g > %.3g)",
                  spec->name, precision == TFLACCEL_PRECISION_FP16 ? "fp16" : "fp32", i,
                  (long long)worst_at, (double)a[worst_at], (double)b[worst_at], worst,
                  tolerance * scale);
  }
}

static void run_case(const cf_case *spec, int seed_index) {
  cf_plugin plugin, reference;
  cf_plugin_open(&plugin, CONFORMANCE_PLUGIN_PATH, CONFORMANCE_PLUGIN_NAME);
  cf_plugin_open(&reference, CONFORMANCE_REFERENCE_PATH, "cpu_ref");
  static const int32_t precisions[] = {TFLACCEL_PRECISION_FP32, TFLACCEL_PRECISION_FP16};
  for (int p = 0; p < 2; ++p) {
    if (!test_quick_runs_precision(seed_index, p)) continue;
    cf_graph graph;
    cf_graph_init(&graph, 1000u + (uint32_t)seed_index);
    spec->build(&graph, spec);
    void *inputs[CF_MAX_BOUNDARY] = {0};
    cf_make_inputs(&graph, 7u + (uint32_t)seed_index, inputs);
    cf_result ours;
    cf_run(&plugin, &graph, precisions[p], inputs, &ours);
    if ((spec->flags & CF_GPU_RUNS) && strncmp(CONFORMANCE_PLUGIN_NAME, "gpu_", 4) == 0) {
      /* What the GPU layer promises for this case: it runs it, in fp16
       * with the ops whose integers pass fp16's exact ones at fp32. */
      ck_assert_msg(!ours.declined, "%s (%s): declined: %s", spec->name, p ? "fp16" : "fp32",
                    ours.reason);
      if (p == 1 && (spec->flags & CF_GPU_FP16_NEEDS_FP32)) {
        ck_assert_msg(ours.other_precision_ops > 0, "%s: fp16 ran without an fp32 partition",
                      spec->name);
        ck_assert_int_eq(graph.ops[ours.first_other_precision_op].code, TFLACCEL_OP_ARG_MAX);
        printf("%s (fp16): %u partitions, %u ops at fp32 from op %u (ARG_MAX)\n", spec->name,
               ours.partition_count, ours.other_precision_ops, ours.first_other_precision_op);
      } else {
        ck_assert_msg(ours.other_precision_ops == 0, "%s (%s): %u ops needed another precision",
                      spec->name, p ? "fp16" : "fp32", ours.other_precision_ops);
      }
    }
    if (ours.declined) {
      printf("declined by %s (%s): %s: %s\n", CONFORMANCE_PLUGIN_NAME, p ? "fp16" : "fp32",
             spec->name, ours.reason);
    } else {
      cf_result expected;
      cf_run(&reference, &graph, TFLACCEL_PRECISION_FP32, inputs, &expected);
      ck_assert_msg(!expected.declined, "%s: cpu_ref declines the case: %s", spec->name,
                    expected.reason);
      compare(spec, &graph, precisions[p], &ours, &expected);
      cf_result_release(&expected, graph.output_count);
    }
    cf_result_release(&ours, graph.output_count);
    for (uint32_t i = 0; i < graph.input_count; ++i) free(inputs[i]);
    cf_graph_release(&graph);
  }
  cf_plugin_close(&reference);
  cf_plugin_close(&plugin);
}

START_TEST(case_matches_cpu_ref) { run_case(&cf_cases[_i], _i); }
END_TEST

/* The float view of quantized ops (conformance_quant_cases.c). */
START_TEST(quantized_case_matches_cpu_ref) {
  run_case(&cf_quant_cases[_i], (int)cf_case_count + _i);
}
END_TEST

/* In a child (a driver context must not be created in the parent Check
 * forks from): 77 when the plugin reports that no driver is present. */
static int skip_status(void) {
  fflush(NULL);
  pid_t child = fork();
  if (child < 0) return 0;
  if (child == 0) {
    void *library = dlopen(CONFORMANCE_PLUGIN_PATH, RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) _exit(0);
    tflaccel_accelerator_entry_fn entry = NULL;
    *(void **)&entry = dlsym(library, TFLACCEL_ACCELERATOR_ENTRY_NAME);
    const tflaccel_accelerator_plugin *plugin = entry ? entry(TFLACCEL_ABI_VERSION) : NULL;
    if (plugin == NULL) _exit(0);
    host_plugin_context context = {.log_level = TFLACCEL_LOG_ERROR};
    snprintf(context.plugin_name, sizeof context.plugin_name, "%s", CONFORMANCE_PLUGIN_NAME);
    tflaccel_host_services host;
    host_services_fill(&host, &context, NULL);
    void *state = NULL;
    tflaccel_status status = plugin->init(&host, &state);
    if (tflaccel_status_code_of(status) == TFLACCEL_UNAVAILABLE) {
      printf("SKIP: %s: %s\n", CONFORMANCE_PLUGIN_NAME, tflaccel_status_message(status));
      fflush(stdout);
      _exit(SKIP_EXIT_STATUS);
    }
    tflaccel_status_free(status);
    if (state != NULL) plugin->shutdown(state);
    _exit(0);
  }
  int wait_status = 0;
  if (waitpid(child, &wait_status, 0) != child) return 0;
  return WIFEXITED(wait_status) && WEXITSTATUS(wait_status) == SKIP_EXIT_STATUS ? SKIP_EXIT_STATUS
                                                                                : 0;
}

/* int32 values and GATHER_ND (conformance_int_cases.c). */
START_TEST(int_case_matches_cpu_ref) {
  run_case(&cf_int_cases[_i], (int)(cf_case_count + cf_quant_case_count) + _i);
}
END_TEST

int main(void) {
  if (skip_status() == SKIP_EXIT_STATUS) return SKIP_EXIT_STATUS;
  Suite *suite = suite_create("conformance " CONFORMANCE_PLUGIN_NAME);
  TCase *cases = tcase_create(CONFORMANCE_PLUGIN_NAME " vs cpu_ref");
  tcase_add_loop_test(cases, case_matches_cpu_ref, 0, (int)cf_case_count);
  suite_add_tcase(suite, cases);
  TCase *quantized = tcase_create(CONFORMANCE_PLUGIN_NAME " quantized vs cpu_ref");
  tcase_add_loop_test(quantized, quantized_case_matches_cpu_ref, 0, (int)cf_quant_case_count);
  suite_add_tcase(suite, quantized);
  TCase *integers = tcase_create(CONFORMANCE_PLUGIN_NAME " int32 vs cpu_ref");
  tcase_add_loop_test(integers, int_case_matches_cpu_ref, 0, (int)cf_int_case_count);
  suite_add_tcase(suite, integers);
  SRunner *runner = srunner_create(suite);
  srunner_run_all(runner, CK_NORMAL);
  int failed = srunner_ntests_failed(runner);
  srunner_free(runner);
  return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
