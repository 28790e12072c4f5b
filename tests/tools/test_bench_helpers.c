/* The pieces bench and diff are built from: statistics and their
 * benchmark_model line, the random inputs, flag values, tensor reading,
 * the process memory reading. */
#include "config.h"

#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/facts/half.h"
#include "tests/support/test_util.h"
#include "tflaccel/types.h"
#include "tools/tflaccel/bench_clock.h"
#include "tools/tflaccel/bench_flags.h"
#include "tools/tflaccel/bench_memory.h"
#include "tools/tflaccel/bench_random_inputs.h"
#include "tools/tflaccel/bench_tensor_values.h"
#include "tools/tflaccel/stats.h"

static void add_all(run_stats *stats, const double *values, size_t count) {
  for (size_t i = 0; i < count; ++i) {
    tflaccel_status status = run_stats_add(stats, values[i]);
    ck_assert_msg(status == NULL, "%s", tflaccel_status_message(status));
  }
}

/* The stats line as printed, in a string the caller frees. */
static char *stats_line(run_stats *stats) {
  char *text = NULL;
  size_t size = 0;
  FILE *stream = open_memstream(&text, &size);
  ck_assert_ptr_nonnull(stream);
  run_stats_print_line(stream, stats);
  ck_assert_int_eq(fclose(stream), 0);
  return text;
}

START_TEST(stats_of_distinct_values) {
  run_stats stats;
  run_stats_init(&stats);
  const double values[] = {7, 3, 5, 9, 1, 6};
  add_all(&stats, values, 6);
  ck_assert_uint_eq(stats.count, 6);
  ck_assert_double_eq(stats.first, 7);
  ck_assert_double_eq(stats.newest, 6);
  ck_assert_double_eq(stats.minimum, 1);
  ck_assert_double_eq(stats.maximum, 9);
  ck_assert_double_eq_tol(run_stats_average(&stats), 31.0 / 6.0, 1e-12);
  /* Population deviation: sqrt(mean of squared distances to the mean). */
  double mean = 31.0 / 6.0, squares = 0;
  for (int i = 0; i < 6; ++i)
    squares += (values[i] - mean) * (values[i] - mean);
  ck_assert_double_eq_tol(run_stats_std_deviation(&stats), sqrt(squares / 6.0), 1e-12);
  ck_assert_double_eq(run_stats_median(&stats), 5.5); /* even count: mean of 5 and 6 */
  /* The samples keep their order after the median. */
  ck_assert_double_eq(stats.samples[0], 7);
  ck_assert_double_eq(stats.samples[5], 6);
  char *line = stats_line(&stats);
  ck_assert_str_eq(line, "count=6 first=7 curr=6 min=1 max=9 avg=5.16667 std=2 median=5.5");
  free(line);
  const double more[] = {100};
  add_all(&stats, more, 1);
  ck_assert_double_eq(run_stats_median(&stats), 6); /* odd count: the middle one */
  run_stats_free(&stats);
  ck_assert_uint_eq(stats.count, 0);
}
END_TEST

START_TEST(stats_lines_for_equal_and_no_values) {
  run_stats stats;
  run_stats_init(&stats);
  char *line = stats_line(&stats);
  ck_assert_str_eq(line, "count=0");
  free(line);
  ck_assert(isnan(run_stats_average(&stats)));
  ck_assert(isnan(run_stats_median(&stats)));
  ck_assert_double_eq(run_stats_std_deviation(&stats), 0);

  const double one[] = {550};
  add_all(&stats, one, 1);
  line = stats_line(&stats);
  ck_assert_str_eq(line, "count=1 curr=550 median=550");
  free(line);
  add_all(&stats, one, 1);
  line = stats_line(&stats);
  ck_assert_str_eq(line, "count=2 curr=550(all same) median=550");
  free(line);
  run_stats_free(&stats);
}
END_TEST

START_TEST(stats_grow_past_first_capacity) {
  run_stats stats;
  run_stats_init(&stats);
  for (int i = 1000; i >= 1; --i) {
    double value = i;
    add_all(&stats, &value, 1);
  }
  ck_assert_uint_eq(stats.count, 1000);
  ck_assert_double_eq(run_stats_median(&stats), 500.5);
  ck_assert_double_eq(run_stats_average(&stats), 500.5);
  /* Large averages print like a C++ stream: six significant digits. */
  char *line = stats_line(&stats);
  ck_assert_str_eq(line,
                   "count=1000 first=1000 curr=1 min=1 max=1000 avg=500.5 std=288 median=500.5");
  free(line);
  run_stats_free(&stats);
}
END_TEST

START_TEST(gaussian_inputs_have_mean_0_and_deviation_1) {
  random_inputs random;
  random_inputs_init(&random, 1);
  enum { COUNT = 200000 };
  float *values = malloc(COUNT * sizeof *values);
  ck_assert_ptr_nonnull(values);
  ck_assert_int_eq(random_inputs_fill(&random, TFLACCEL_DTYPE_FLOAT32, values, COUNT), 1);
  double sum = 0, squares = 0;
  size_t beyond_two = 0;
  for (size_t i = 0; i < COUNT; ++i) {
    ck_assert(isfinite(values[i]));
    sum += values[i];
    squares += (double)values[i] * values[i];
    beyond_two += fabsf(values[i]) > 2.0f;
  }
  double mean = sum / COUNT;
  double deviation = sqrt(squares / COUNT - mean * mean);
  ck_assert_double_le(fabs(mean), 0.01);
  ck_assert_double_le(fabs(deviation - 1.0), 0.01);
  /* A normal distribution puts 4.55% beyond two deviations; a uniform one none. */
  ck_assert_double_le(fabs((double)beyond_two / COUNT - 0.0455), 0.003);
  /* The same seed gives the same stream. */
  random_inputs again;
  random_inputs_init(&again, 1);
  float first[4];
  ck_assert_int_eq(random_inputs_fill(&again, TFLACCEL_DTYPE_FLOAT32, first, 4), 1);
  ck_assert_mem_eq(first, values, sizeof first);
  free(values);
}
END_TEST

START_TEST(integer_inputs_span_their_range) {
  random_inputs random;
  random_inputs_init(&random, 7);
  enum { COUNT = 4096 };
  int8_t int8s[COUNT];
  uint8_t uint8s[COUNT];
  int32_t int32s[COUNT];
  ck_assert_int_eq(random_inputs_fill(&random, TFLACCEL_DTYPE_INT8, int8s, COUNT), 1);
  ck_assert_int_eq(random_inputs_fill(&random, TFLACCEL_DTYPE_UINT8, uint8s, COUNT), 1);
  ck_assert_int_eq(random_inputs_fill(&random, TFLACCEL_DTYPE_INT32, int32s, COUNT), 1);
  int int8_min = 0, int8_max = 0, uint8_max = 0;
  int64_t int32_min = 0, int32_max = 0;
  for (int i = 0; i < COUNT; ++i) {
    if (int8s[i] < int8_min) int8_min = int8s[i];
    if (int8s[i] > int8_max) int8_max = int8s[i];
    if (uint8s[i] > uint8_max) uint8_max = uint8s[i];
    if (int32s[i] < int32_min) int32_min = int32s[i];
    if (int32s[i] > int32_max) int32_max = int32s[i];
  }
  ck_assert_int_le(int8_min, -120);
  ck_assert_int_ge(int8_max, 120);
  ck_assert_int_ge(uint8_max, 250);
  ck_assert(int32_min < -2000000000LL && int32_max > 2000000000LL);
  uint16_t halves[16];
  ck_assert_int_eq(random_inputs_fill(&random, TFLACCEL_DTYPE_FLOAT16, halves, 16), 1);
  for (int i = 0; i < 16; ++i)
    ck_assert(isfinite(half_to_float(halves[i])));
  char strings[4];
  ck_assert_int_eq(random_inputs_fill(&random, TFLACCEL_DTYPE_STRING, strings, 4), 0);
}
END_TEST

START_TEST(tensor_values_read_every_numeric_type) {
  const int8_t int8s[] = {-128, 127};
  const uint16_t halves[] = {half_from_float(1.5f)};
  const int64_t int64s[] = {-5};
  const uint8_t bools[] = {0, 3};
  ck_assert_double_eq(tensor_value_at(int8s, TFLACCEL_DTYPE_INT8, 0), -128);
  ck_assert_double_eq(tensor_value_at(int8s, TFLACCEL_DTYPE_INT8, 1), 127);
  ck_assert_double_eq(tensor_value_at(halves, TFLACCEL_DTYPE_FLOAT16, 0), 1.5);
  ck_assert_double_eq(tensor_value_at(int64s, TFLACCEL_DTYPE_INT64, 0), -5);
  ck_assert_double_eq(tensor_value_at(bools, TFLACCEL_DTYPE_BOOL, 1), 1);
  ck_assert(tensor_dtype_is_numeric(TFLACCEL_DTYPE_UINT8));
  ck_assert(!tensor_dtype_is_numeric(TFLACCEL_DTYPE_STRING));
  ck_assert(isnan(tensor_value_at(bools, TFLACCEL_DTYPE_STRING, 0)));
}
END_TEST

START_TEST(flag_values) {
  double number = 0;
  ck_assert_int_eq(bench_parse_number("t", "--min_secs", "2.5", 1, &number), 1);
  ck_assert_double_eq(number, 2.5);
  ck_assert_int_eq(bench_parse_number("t", "--min_secs", "-1", 1, &number), 0);
  ck_assert_int_eq(bench_parse_number("t", "--max_error", "-1", 0, &number), 1);
  ck_assert_double_eq(number, -1);
  ck_assert_int_eq(bench_parse_number("t", "--min_secs", "1s", 1, &number), 0);
  ck_assert_int_eq(bench_parse_number("t", "--min_secs", "inf", 1, &number), 0);
  ck_assert_int_eq(bench_parse_number("t", "--min_secs", "", 1, &number), 0);
  int flag = -1;
  ck_assert_int_eq(bench_parse_bool("t", "--use_gpu", "false", &flag), 1);
  ck_assert_int_eq(flag, 0);
  ck_assert_int_eq(bench_parse_bool("t", "--use_gpu", "1", &flag), 1);
  ck_assert_int_eq(flag, 1);
  ck_assert_int_eq(bench_parse_bool("t", "--use_gpu", "yes", &flag), 0);

  /* Bare, =value, and separate value; a following non-boolean is left alone. */
  char *argv[] = {"bench", "--use_gpu",      "m.tflite",     "--use_gpu",
                  "false", "--use_gpu=true", "--use_gpu=no", "--use_gpu_x"};
  int argc = 8, index = 1;
  flag = -1;
  ck_assert_int_eq(bench_match_bool("t", argc, argv, &index, "--use_gpu", &flag), 1);
  ck_assert_int_eq(flag, 1);
  ck_assert_int_eq(index, 1);
  index = 3;
  ck_assert_int_eq(bench_match_bool("t", argc, argv, &index, "--use_gpu", &flag), 1);
  ck_assert_int_eq(flag, 0);
  ck_assert_int_eq(index, 4);
  index = 5;
  ck_assert_int_eq(bench_match_bool("t", argc, argv, &index, "--use_gpu", &flag), 1);
  ck_assert_int_eq(flag, 1);
  index = 6;
  ck_assert_int_eq(bench_match_bool("t", argc, argv, &index, "--use_gpu", &flag), -1);
  index = 7;
  ck_assert_int_eq(bench_match_bool("t", argc, argv, &index, "--use_gpu", &flag), 0);
}
END_TEST

START_TEST(process_memory_and_clock) {
  process_memory memory;
  tflaccel_status status = process_memory_read(&memory);
  ck_assert_msg(status == NULL, "%s", tflaccel_status_message(status));
  ck_assert_int_gt(memory.resident_kb, 0);
  ck_assert_int_ge(memory.peak_resident_kb, memory.resident_kb);
  /* Touching 8 MiB raises the peak by about that much. */
  enum { BYTES = 8 << 20 };
  char *block = malloc(BYTES);
  ck_assert_ptr_nonnull(block);
  memset(block, 1, BYTES);
  process_memory after;
  status = process_memory_read(&after);
  ck_assert_msg(status == NULL, "%s", tflaccel_status_message(status));
  ck_assert_int_ge(after.peak_resident_kb - memory.resident_kb, 7 * 1024);
  ck_assert_int_eq(block[BYTES - 1], 1);
  free(block);
  int64_t earlier = bench_clock_microseconds();
  ck_assert_int_gt(earlier, 0);
  ck_assert_int_ge(bench_clock_microseconds(), earlier);
}
END_TEST

int main(void) {
  Suite *suite = suite_create("bench_helpers");
  TCase *stats = tcase_create("stats");
  tcase_add_test(stats, stats_of_distinct_values);
  tcase_add_test(stats, stats_lines_for_equal_and_no_values);
  tcase_add_test(stats, stats_grow_past_first_capacity);
  suite_add_tcase(suite, stats);
  TCase *inputs = tcase_create("inputs");
  tcase_add_test(inputs, gaussian_inputs_have_mean_0_and_deviation_1);
  tcase_add_test(inputs, integer_inputs_span_their_range);
  tcase_add_test(inputs, tensor_values_read_every_numeric_type);
  suite_add_tcase(suite, inputs);
  TCase *flags = tcase_create("flags_and_process");
  tcase_add_test(flags, flag_values);
  tcase_add_test(flags, process_memory_and_clock);
  suite_add_tcase(suite, flags);
  return test_run_suite(suite);
}
