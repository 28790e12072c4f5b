/* The 8-bit tensors that GPU_KERNEL_CONV2D reads as words (GPU_IN_WORDS,
 * GPU_FEATURE_INPUT_WORDS), lowered without a device: which partition
 * inputs qualify (whole words or a single pixel, every reader a
 * FULLY_CONNECTED computed by conv2d, a backend that offers it) and what
 * the dispatch then carries (the words' offset unit, the grid in its
 * [12..15), the flag kept beside a dense output's kind and in the post-op
 * list the kernel is built for); which tensors between layers are kept as
 * words (the writer storing integers, offsets in bytes and words, one
 * program for a chain) and which keep slices.
 * The conformance suite runs the kernels themselves on every plugin. */
#include <check.h>
#include <stdio.h>
#include <string.h>

#include "config.h"
#include "core/registry/host_services.h"
#include "plugins/gpu_common/gpu_kernel_catalog.h"
#include "plugins/gpu_common/gpu_lowering.h"
#include "plugins/gpu_common/gpu_program.h"
#include "tests/conformance/conformance_graph.h"

static const float in_scale = 0.25f, weight_scale = 0.01f, bias_scale = 0.0025f;
static const float out_scale = 0.5f;
static const int32_t in_zero = -3, in_zero_uint8 = 131, zero = 0, out_zero = 5;

typedef struct lowered {
  cf_graph graph;
  uint32_t input;
  host_plugin_context context;
  tflaccel_host_services host;
  gpu_backend backend;
  gpu_program program;
} lowered;

/* A quantized FULLY_CONNECTED of `units` over input, its output on the
 * grid of out_scale and (int8) out_zero + shift. */
static uint32_t fully_connected_of(cf_graph *g, int32_t dtype, uint32_t input, int32_t rows,
                                   int32_t depth, int32_t units, const int32_t *output_zero) {
  int32_t weight_dims[2] = {units, depth}, out_dims[2] = {rows, units};
  uint32_t weights = cf_constant_integers(g, dtype, 2, weight_dims, -60, 60);
  if (dtype == TFLACCEL_DTYPE_UINT8)
    weights = cf_constant_integers(g, dtype, 2, weight_dims, 60, 180);
  cf_quantize(g, weights, 1, &weight_scale, dtype == TFLACCEL_DTYPE_UINT8 ? &in_zero_uint8 : &zero,
              0);
  uint32_t bias = cf_constant_integers(g, TFLACCEL_DTYPE_INT32, 1, &units, -2000, 2000);
  cf_quantize(g, bias, 1, &bias_scale, &zero, 0);
  uint32_t output = cf_tensor(g, dtype, 2, out_dims);
  cf_quantize(g, output, 1, &out_scale, output_zero, 0);
  cf_op(g, TFLACCEL_OP_FULLY_CONNECTED, 3, (uint32_t[]){input, weights, bias}, output);
  return output;
}

/* The same, its output a partition output. */
static void add_fully_connected(cf_graph *g, int32_t dtype, uint32_t input, int32_t rows,
                                int32_t depth, int32_t units) {
  cf_output(g, fully_connected_of(g, dtype, input, rows, depth, units, &out_zero));
}

/* The graph's quantized input [rows, depth] of dtype. */
static void build(lowered *l, int32_t dtype, int32_t rows, int32_t depth) {
  memset(l, 0, sizeof *l);
  cf_graph_init(&l->graph, 7);
  int32_t dims[2] = {rows, depth};
  l->input = cf_input(&l->graph, dtype, 2, dims, -4.0f, 4.0f);
  cf_quantize(&l->graph, l->input, 1, &in_scale,
              dtype == TFLACCEL_DTYPE_UINT8 ? &in_zero_uint8 : &in_zero, 0);
}

/* Lowers every op of the graph as one partition for a backend with
 * `features`, at precision. */
static void lower(lowered *l, uint32_t features, int32_t precision) {
  snprintf(l->context.plugin_name, sizeof l->context.plugin_name, "gpu_test");
  l->context.log_level = TFLACCEL_LOG_ERROR;
  host_services_fill(&l->host, &l->context, NULL);
  l->backend = (gpu_backend){.host = &l->host, .plugin_name = "gpu_test"};
  l->backend.caps.features = features;
  uint32_t ops[CF_MAX_OPS];
  for (uint32_t p = 0; p < l->graph.op_count; ++p) ops[p] = p;
  tflaccel_partition_desc partition = {.struct_size = sizeof partition,
                                       .op_count = l->graph.op_count,
                                       .ops = ops,
                                       .input_count = l->graph.input_count,
                                       .inputs = l->graph.inputs,
                                       .output_count = l->graph.output_count,
                                       .outputs = l->graph.outputs};
  tflaccel_compile_options options = {.struct_size = sizeof options, .precision = precision};
  tflaccel_status status =
      gpu_lower_partition(&l->backend, cf_graph_view(&l->graph), &partition, &options, &l->program);
  if (status != NULL) {
    char message[256];
    snprintf(message, sizeof message, "%s", l->host.status_message(status));
    l->host.status_free(status);
    ck_abort_msg("lowering failed: %s", message);
  }
}

static void release(lowered *l) {
  gpu_program_release(&l->host, &l->program);
  cf_graph_release(&l->graph);
}

/* One FULLY_CONNECTED of `units` over an input [rows, depth] of dtype,
 * lowered for a backend with `features` at precision. */
static void lower_one_layer(lowered *l, int32_t dtype, int32_t rows, int32_t depth, int32_t units,
                            uint32_t features, int32_t precision) {
  build(l, dtype, rows, depth);
  add_fully_connected(&l->graph, dtype, l->input, rows, depth, units);
  lower(l, features, precision);
}

static int count_kernel(const gpu_program *program, int32_t kernel) {
  int count = 0;
  for (uint32_t d = 0; d < program->dispatch_count; ++d)
    count += program->dispatches[d].kernel == kernel;
  return count;
}

/* Dispatch d is a conv2d reading the input's words, with its grid and
 * `last` channels of the last slice. */
static void assert_reads_words(lowered *l, uint32_t d, int is_int8, int32_t last) {
  const gpu_dispatch *dispatch = &l->program.dispatches[d];
  const int32_t *params = gpu_program_params(&l->program, d);
  ck_assert_int_eq(dispatch->kernel, GPU_KERNEL_CONV2D);
  ck_assert_int_eq(dispatch->args[1].kind, GPU_BUFFER_BINDING);
  ck_assert_uint_eq(dispatch->args[1].binding, 0); /* the partition's first binding */
  ck_assert_uint_eq(dispatch->args[1].offset_unit, 4);
  ck_assert_int_ne(params[GPU_P_OUT_DENSE] & GPU_IN_WORDS, 0);
  ck_assert_int_eq(params[GPU_P_KERNEL + 12], gpu_float_bits(in_scale));
  ck_assert_int_eq(params[GPU_P_KERNEL + 13], is_int8 ? in_zero + 128 : in_zero_uint8);
  ck_assert_uint_eq((uint32_t)params[GPU_P_KERNEL + 14], is_int8 ? 0x80808080u : 0u);
  ck_assert_int_eq(params[GPU_P_KERNEL + 15], last);
  /* The kernel is built knowing it (POST_LIST's dense bits). */
  uint32_t list = gpu_post_list(params);
  ck_assert_uint_ne(list & ((uint32_t)GPU_IN_WORDS << GPU_POST_LIST_DENSE_SHIFT), 0);
}

START_TEST(int8_rows_of_whole_words_are_read_in_place) {
  static const int32_t precisions[] = {TFLACCEL_PRECISION_FP32, TFLACCEL_PRECISION_FP16};
  lowered l;
  lower_one_layer(&l, TFLACCEL_DTYPE_INT8, 2, 12, 5,
                  GPU_FEATURE_INPUT_WORDS | GPU_FEATURE_DENSE_OUTPUT, precisions[_i]);
  /* No conversion at either edge: the one dispatch reads the input's
   * words and stores the output's integers. */
  ck_assert_uint_eq(l.program.dispatch_count, 1);
  assert_reads_words(&l, 0, 1, 4);
  const int32_t *params = gpu_program_params(&l.program, 0);
  ck_assert_int_eq(params[GPU_P_OUT_DENSE] & GPU_OUT_DENSE_KIND_MASK, 1 + GPU_DENSE_INT8);
  release(&l);
}
END_TEST

START_TEST(uint8_input_has_no_sign_to_flip) {
  lowered l;
  lower_one_layer(&l, TFLACCEL_DTYPE_UINT8, 3, 16, 6, GPU_FEATURE_INPUT_WORDS,
                  TFLACCEL_PRECISION_FP32);
  ck_assert_int_eq(count_kernel(&l.program, GPU_KERNEL_TO_SLICES), 0);
  assert_reads_words(&l, 0, 0, 4);
  release(&l);
}
END_TEST

START_TEST(every_reader_reads_in_place) {
  lowered l;
  build(&l, TFLACCEL_DTYPE_INT8, 1, 8);
  add_fully_connected(&l.graph, TFLACCEL_DTYPE_INT8, l.input, 1, 8, 3);
  add_fully_connected(&l.graph, TFLACCEL_DTYPE_INT8, l.input, 1, 8, 7);
  lower(&l, GPU_FEATURE_INPUT_WORDS, TFLACCEL_PRECISION_FP32);
  ck_assert_int_eq(count_kernel(&l.program, GPU_KERNEL_TO_SLICES), 0);
  ck_assert_int_eq(count_kernel(&l.program, GPU_KERNEL_CONV2D), 2);
  for (uint32_t d = 0; d < l.program.dispatch_count; ++d)
    if (l.program.dispatches[d].kernel == GPU_KERNEL_CONV2D) assert_reads_words(&l, d, 1, 4);
  release(&l);
}
END_TEST

/* A conversion dispatch, and no dispatch reading words. */
static void assert_converted(lowered *l) {
  ck_assert_int_eq(count_kernel(&l->program, GPU_KERNEL_TO_SLICES), 1);
  ck_assert_int_eq(l->program.dispatches[0].kernel, GPU_KERNEL_TO_SLICES);
  for (uint32_t d = 0; d < l->program.dispatch_count; ++d)
    ck_assert_int_eq(gpu_program_params(&l->program, d)[GPU_P_OUT_DENSE] & GPU_IN_WORDS, 0);
}

START_TEST(backend_without_the_feature_converts) {
  lowered l;
  lower_one_layer(&l, TFLACCEL_DTYPE_INT8, 2, 12, 5, GPU_FEATURE_DENSE_OUTPUT,
                  TFLACCEL_PRECISION_FP32);
  assert_converted(&l);
  release(&l);
}
END_TEST

/* One pixel: its slices are words whatever C is, the last in part. */
START_TEST(one_pixel_reads_its_last_word_in_part) {
  static const int32_t depths[] = {1, 10, 7};
  lowered l;
  lower_one_layer(&l, TFLACCEL_DTYPE_INT8, 1, depths[_i], 16, GPU_FEATURE_INPUT_WORDS,
                  TFLACCEL_PRECISION_FP32);
  ck_assert_int_eq(count_kernel(&l.program, GPU_KERNEL_TO_SLICES), 0);
  assert_reads_words(&l, 0, 1, depths[_i] - (depths[_i] - 1) / 4 * 4);
  release(&l);
}
END_TEST

/* Two pixels of 10 channels: the second starts mid-word. */
START_TEST(pixels_that_split_words_are_converted) {
  lowered l;
  lower_one_layer(&l, TFLACCEL_DTYPE_UINT8, 2, 10, 7, GPU_FEATURE_INPUT_WORDS,
                  TFLACCEL_PRECISION_FP32);
  assert_converted(&l);
  release(&l);
}
END_TEST

START_TEST(another_kind_of_reader_keeps_the_conversion) {
  lowered l;
  build(&l, TFLACCEL_DTYPE_INT8, 1, 8);
  add_fully_connected(&l.graph, TFLACCEL_DTYPE_INT8, l.input, 1, 8, 3);
  int32_t dims[2] = {1, 8};
  uint32_t real = cf_tensor(&l.graph, TFLACCEL_DTYPE_FLOAT32, 2, dims);
  cf_op(&l.graph, TFLACCEL_OP_DEQUANTIZE, 1, (uint32_t[]){l.input}, real);
  cf_output(&l.graph, real);
  lower(&l, GPU_FEATURE_INPUT_WORDS, TFLACCEL_PRECISION_FP32);
  assert_converted(&l);
  release(&l);
}
END_TEST

/* ---- 8-bit tensors kept as words between conv2d dispatches ---- */

static const int32_t mid_zero = -7;
static const uint32_t words_between =
    GPU_FEATURE_INPUT_WORDS | GPU_FEATURE_DENSE_OUTPUT | GPU_FEATURE_WORDS_BETWEEN;

/* input [1, 8] -> FULLY_CONNECTED 8 -> 12 -> 12 -> 5: two int8 tensors
 * between layers, both alive while the second layer runs. */
static void build_chain(lowered *l, int32_t rows, int32_t depth) {
  build(l, TFLACCEL_DTYPE_INT8, rows, depth);
  uint32_t first =
      fully_connected_of(&l->graph, TFLACCEL_DTYPE_INT8, l->input, rows, depth, 12, &mid_zero);
  uint32_t second =
      fully_connected_of(&l->graph, TFLACCEL_DTYPE_INT8, first, rows, 12, 12, &mid_zero);
  add_fully_connected(&l->graph, TFLACCEL_DTYPE_INT8, second, rows, 12, 5);
}

/* Dispatch d stores its output's int8 integers dense, rounding in the
 * store. */
static void assert_stores_integers(lowered *l, uint32_t d) {
  const int32_t *params = gpu_program_params(&l->program, d);
  ck_assert_int_eq(params[GPU_P_OUT_DENSE] & GPU_OUT_DENSE_KIND_MASK, 1 + GPU_DENSE_INT8);
  ck_assert_int_ne(params[GPU_P_OUT_DENSE] & GPU_OUT_DENSE_GRID, 0);
  ck_assert_int_eq(params[GPU_P_OUT_SCALE], gpu_float_bits(out_scale));
}

static uint64_t first_offset_sum(const lowered *l) {
  return l->program.dispatches[0].args[0].arena_offset +
         l->program.dispatches[1].args[0].arena_offset;
}

START_TEST(chain_keeps_words_between_layers) {
  static const int32_t precisions[] = {TFLACCEL_PRECISION_FP32, TFLACCEL_PRECISION_FP16};
  lowered l;
  build_chain(&l, 1, 8);
  lower(&l, words_between, precisions[_i]);
  ck_assert_uint_eq(l.program.dispatch_count, 3);
  for (uint32_t d = 0; d < 3; ++d) {
    const gpu_dispatch *dispatch = &l.program.dispatches[d];
    const int32_t *params = gpu_program_params(&l.program, d);
    ck_assert_int_eq(dispatch->kernel, GPU_KERNEL_CONV2D);
    ck_assert_int_ne(params[GPU_P_OUT_DENSE] & GPU_IN_WORDS, 0);
    assert_stores_integers(&l, d);
    /* One program for the whole chain. */
    ck_assert_uint_eq(gpu_post_list(params), gpu_post_list(gpu_program_params(&l.program, 0)));
  }
  assert_reads_words(&l, 0, 1, 4);
  /* The layers between read the words their writer stored, in the arena:
   * the writer's offset in bytes, the reader's in words. */
  const gpu_dispatch *second = &l.program.dispatches[1], *third = &l.program.dispatches[2];
  ck_assert_int_eq(second->args[0].kind, GPU_BUFFER_ARENA);
  ck_assert_int_eq(third->args[1].kind, GPU_BUFFER_ARENA);
  ck_assert_uint_eq(second->args[0].arena_offset, third->args[1].arena_offset);
  ck_assert_uint_eq(second->args[0].arena_size, 12); /* three words */
  ck_assert_uint_ne(second->args[0].arena_offset, l.program.dispatches[0].args[0].arena_offset);
  ck_assert_uint_ne(first_offset_sum(&l), 0); /* one of them past the start */
  const gpu_dispatch *first = &l.program.dispatches[0];
  ck_assert_uint_eq(first->args[0].arena_offset, second->args[1].arena_offset);
  ck_assert_int_eq(gpu_program_params(&l.program, 0)[0], (int32_t)first->args[0].arena_offset);
  ck_assert_int_eq(gpu_program_params(&l.program, 1)[1],
                   (int32_t)(first->args[0].arena_offset / 4));
  ck_assert_int_eq(gpu_program_params(&l.program, 1)[0], (int32_t)second->args[0].arena_offset);
  ck_assert_int_eq(gpu_program_params(&l.program, 2)[1],
                   (int32_t)(third->args[1].arena_offset / 4));
  const int32_t *k = gpu_program_params(&l.program, 2) + GPU_P_KERNEL;
  ck_assert_int_eq(k[12], gpu_float_bits(out_scale));
  ck_assert_int_eq(k[13], mid_zero + 128);
  ck_assert_uint_eq((uint32_t)k[14], 0x80808080u);
  ck_assert_int_eq(k[15], 4);
  release(&l);
}
END_TEST

/* No tensor between layers is kept as words: every conv2d writing the
 * arena stores slices, and none reading it reads words. */
static void assert_slices_between(lowered *l) {
  for (uint32_t d = 0; d < l->program.dispatch_count; ++d) {
    const gpu_dispatch *dispatch = &l->program.dispatches[d];
    const int32_t *params = gpu_program_params(&l->program, d);
    if (dispatch->kernel != GPU_KERNEL_CONV2D) continue;
    if (dispatch->args[0].kind == GPU_BUFFER_ARENA)
      ck_assert_int_eq(params[GPU_P_OUT_DENSE] & GPU_OUT_DENSE_KIND_MASK, 0);
    if (dispatch->args[1].kind == GPU_BUFFER_ARENA)
      ck_assert_int_eq(params[GPU_P_OUT_DENSE] & GPU_IN_WORDS, 0);
  }
}

/* A backend without one of the three features keeps slices between. */
START_TEST(chain_without_a_feature_keeps_slices) {
  static const uint32_t missing[] = {GPU_FEATURE_DENSE_OUTPUT, GPU_FEATURE_WORDS_BETWEEN,
                                     GPU_FEATURE_INPUT_WORDS};
  lowered l;
  build_chain(&l, 1, 8);
  lower(&l, words_between & ~missing[_i], TFLACCEL_PRECISION_FP32);
  assert_slices_between(&l);
  ck_assert_int_eq(count_kernel(&l.program, GPU_KERNEL_CONV2D), 3);
  release(&l);
}
END_TEST

/* Two rows of 10: the second row's integers start mid-word. */
START_TEST(rows_that_split_words_keep_slices_between) {
  lowered l;
  build(&l, TFLACCEL_DTYPE_INT8, 2, 8);
  uint32_t first = fully_connected_of(&l.graph, TFLACCEL_DTYPE_INT8, l.input, 2, 8, 10, &mid_zero);
  add_fully_connected(&l.graph, TFLACCEL_DTYPE_INT8, first, 2, 10, 5);
  lower(&l, words_between, TFLACCEL_PRECISION_FP32);
  ck_assert_uint_eq(l.program.dispatch_count, 2);
  assert_slices_between(&l);
  release(&l);
}
END_TEST

/* A tensor between layers that another kind of op reads too. */
START_TEST(another_reader_between_layers_keeps_slices) {
  lowered l;
  build(&l, TFLACCEL_DTYPE_INT8, 1, 8);
  uint32_t first = fully_connected_of(&l.graph, TFLACCEL_DTYPE_INT8, l.input, 1, 8, 12, &mid_zero);
  add_fully_connected(&l.graph, TFLACCEL_DTYPE_INT8, first, 1, 12, 5);
  int32_t dims[2] = {1, 12};
  uint32_t real = cf_tensor(&l.graph, TFLACCEL_DTYPE_FLOAT32, 2, dims);
  cf_op(&l.graph, TFLACCEL_OP_DEQUANTIZE, 1, (uint32_t[]){first}, real);
  cf_output(&l.graph, real);
  lower(&l, words_between, TFLACCEL_PRECISION_FP32);
  assert_slices_between(&l);
  release(&l);
}
END_TEST

static Suite *input_words_suite(void) {
  Suite *suite = suite_create("gpu input words");
  TCase *tc = tcase_create("lowering");
  tcase_add_loop_test(tc, int8_rows_of_whole_words_are_read_in_place, 0, 2);
  tcase_add_test(tc, uint8_input_has_no_sign_to_flip);
  tcase_add_test(tc, every_reader_reads_in_place);
  tcase_add_test(tc, backend_without_the_feature_converts);
  tcase_add_loop_test(tc, one_pixel_reads_its_last_word_in_part, 0, 3);
  tcase_add_test(tc, pixels_that_split_words_are_converted);
  tcase_add_test(tc, another_kind_of_reader_keeps_the_conversion);
  tcase_add_loop_test(tc, chain_keeps_words_between_layers, 0, 2);
  tcase_add_loop_test(tc, chain_without_a_feature_keeps_slices, 0, 3);
  tcase_add_test(tc, rows_that_split_words_keep_slices_between);
  tcase_add_test(tc, another_reader_between_layers_keeps_slices);
  suite_add_tcase(suite, tc);
  return suite;
}

int main(void) {
  SRunner *runner = srunner_create(input_words_suite());
  srunner_run_all(runner, CK_NORMAL);
  int failed = srunner_ntests_failed(runner);
  srunner_free(runner);
  return failed == 0 ? 0 : 1;
}
