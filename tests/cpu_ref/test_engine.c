/* cpu_ref's engine through the plugin ABI: descriptor and device, buffers,
 * supports_op reasons, partitions with intermediates in the arena, partial
 * partitions, binding errors, variables, and the thread pool. */
#include "config.h"

#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "plugins/cpu_ref/thread_pool.h"
#include "tests/cpu_ref/op_builder.h"
#include "tflaccel/tflaccel.h"

#define F32 TFLACCEL_DTYPE_FLOAT32

START_TEST(descriptor_and_device_info) {
  ck_assert_ptr_null(TFLACCEL_ACCELERATOR_ENTRY((TFLACCEL_ABI_MAJOR + 1u) << 16));
  test_plugin plugin;
  tp_open(&plugin);
  ck_assert_str_eq(plugin.plugin->name, "cpu_ref");
  ck_assert_uint_eq(plugin.plugin->abi_version, TFLACCEL_ABI_VERSION);
  ck_assert_str_eq(plugin.plugin->version, PACKAGE_VERSION);
  tflaccel_device_info info;
  memset(&info, 0, sizeof info);
  info.struct_size = sizeof info;
  tflaccel_status status = plugin.plugin->device_info(plugin.state, 0, &info);
  ck_assert_ptr_null(status);
  ck_assert_int_eq(info.type, TFLACCEL_DEVICE_CPU);
  ck_assert_uint_eq(info.caps, TFLACCEL_DEVICE_CAP_HOST_MEMORY | TFLACCEL_DEVICE_CAP_IMPORT);
  ck_assert_str_eq(info.api_version, "C11");
  ck_assert_str_eq(info.driver_version, PACKAGE_VERSION);
  ck_assert_uint_gt(strlen(info.name), 0);
  ck_assert_uint_gt(info.memory_bytes, 0);
  status = plugin.plugin->device_info(plugin.state, 1, &info);
  ck_assert_int_eq(tflaccel_status_code_of(status), TFLACCEL_INVALID_ARGUMENT);
  tflaccel_status_free(status);
  tflaccel_device *second = NULL;
  status = plugin.plugin->device_create(plugin.state, 1, &second);
  ck_assert_int_eq(tflaccel_status_code_of(status), TFLACCEL_INVALID_ARGUMENT);
  ck_assert_ptr_null(second);
  tflaccel_status_free(status);
  tp_close(&plugin);
}
END_TEST

START_TEST(buffers) {
  test_plugin plugin;
  tp_open(&plugin);
  tflaccel_device *device = plugin.device;
  const tflaccel_device_vtable *vt = device->vtable;
  tflaccel_buffer *a = NULL, *b = NULL, *imported = NULL;
  ck_assert_ptr_null(vt->buffer_create(device, 100, &a));
  ck_assert_ptr_null(vt->buffer_create(device, 100, &b));
  unsigned char *mapped = vt->buffer_map(device, a);
  ck_assert_ptr_nonnull(mapped);
  ck_assert_uint_eq((uintptr_t)mapped % 64, 0);
  unsigned char pattern[100], back[100];
  for (int i = 0; i < 100; i++) pattern[i] = (unsigned char)(i * 7);
  ck_assert_ptr_null(vt->buffer_write(device, a, 0, pattern, 100));
  ck_assert_ptr_null(vt->buffer_copy(device, b, 10, a, 20, 50));
  ck_assert_ptr_null(vt->buffer_read(device, b, 10, back, 50));
  ck_assert_mem_eq(back, pattern + 20, 50);
  /* Out of range: offset + size beyond the end, and a huge offset. */
  tflaccel_status status = vt->buffer_write(device, a, 60, pattern, 41);
  ck_assert_int_eq(tflaccel_status_code_of(status), TFLACCEL_INVALID_ARGUMENT);
  tflaccel_status_free(status);
  status = vt->buffer_read(device, a, UINT64_MAX, back, 2);
  ck_assert_int_eq(tflaccel_status_code_of(status), TFLACCEL_INVALID_ARGUMENT);
  tflaccel_status_free(status);
  status = vt->buffer_copy(device, b, 90, a, 0, 20);
  ck_assert_int_eq(tflaccel_status_code_of(status), TFLACCEL_INVALID_ARGUMENT);
  tflaccel_status_free(status);
  /* Host pointers import; other handle types do not. */
  float host_values[4] = {1, 2, 3, 4};
  ck_assert_ptr_null(
      vt->buffer_import(device, TFLACCEL_EXTERNAL_HOST_POINTER, host_values, 16, &imported));
  ck_assert_ptr_eq(vt->buffer_map(device, imported), host_values);
  float two[2] = {9, 8};
  ck_assert_ptr_null(vt->buffer_write(device, imported, 8, two, 8));
  ck_assert(host_values[2] == 9 && host_values[3] == 8);
  tflaccel_buffer *refused = NULL;
  status = vt->buffer_import(device, TFLACCEL_EXTERNAL_OPENCL_MEM, host_values, 16, &refused);
  ck_assert_int_eq(tflaccel_status_code_of(status), TFLACCEL_UNSUPPORTED);
  ck_assert_ptr_null(refused);
  tflaccel_status_free(status);
  vt->buffer_destroy(device, imported);
  vt->buffer_destroy(device, a);
  vt->buffer_destroy(device, b);
  tp_close(&plugin);
}
END_TEST

START_TEST(support_reasons) {
  test_graph graph;
  tg_init(&graph);
  int32_t dims[] = {1, 4, 4, 2};
  int32_t filter_dims[] = {3, 1, 1, 2};
  int16_t filter16[6] = {0};
  float filter32[6] = {0};
  uint32_t x16 = tg_input(&graph, TFLACCEL_DTYPE_INT16, 4, dims, filter16);
  uint32_t w16 = tg_const(&graph, TFLACCEL_DTYPE_INT16, 4, filter_dims, filter16);
  int32_t out_dims[] = {1, 4, 4, 3};
  uint32_t y16 = tg_tensor(&graph, TFLACCEL_DTYPE_INT16, 4, out_dims);
  tg_op(&graph, TFLACCEL_OP_CONV_2D, 2, (uint32_t[]){x16, w16}, 1, (uint32_t[]){y16});
  uint32_t x = tg_input(&graph, F32, 4, dims, filter32);
  uint32_t y = tg_tensor(&graph, F32, 4, out_dims);
  tg_custom_op(&graph, "NoSuchCustomOp", 1, (uint32_t[]){x}, 1, (uint32_t[]){y});
  /* A float conv whose filter is not constant. */
  uint32_t w = tg_input(&graph, F32, 4, filter_dims, filter32);
  uint32_t y2 = tg_tensor(&graph, F32, 4, out_dims);
  tflaccel_op_params *params =
      tg_op(&graph, TFLACCEL_OP_CONV_2D, 2, (uint32_t[]){x, w}, 1, (uint32_t[]){y2});
  params->conv_2d.stride_w = params->conv_2d.stride_h = 1;
  /* An input index beyond the graph. */
  tg_op(&graph, TFLACCEL_OP_RELU, 1, (uint32_t[]){99}, 1, (uint32_t[]){y2});
  /* A fused TANH, which TFLite's float kernels ignore: declined. */
  uint32_t y3 = tg_tensor(&graph, F32, 4, dims);
  params = tg_op(&graph, TFLACCEL_OP_ADD, 2, (uint32_t[]){x, x}, 1, (uint32_t[]){y3});
  params->arithmetic.fused_activation = TFLACCEL_ACT_TANH;

  char reason[TFLACCEL_REASON_SIZE];
  ck_assert(!tg_supported(&graph, 0, reason));
  ck_assert_str_eq(reason, "cpu_ref has no kernel for op code #3 (CONV_2D) with int16 inputs");
  ck_assert(!tg_supported(&graph, 1, reason));
  ck_assert_str_eq(reason, "no cpu_ref kernel for CUSTOM op 'NoSuchCustomOp'");
  ck_assert(!tg_supported(&graph, 2, reason));
  ck_assert_str_eq(reason, "CONV_2D: the filter must be a constant tensor");
  ck_assert(!tg_supported(&graph, 3, reason));
  ck_assert_str_eq(reason, "input 0 names tensor 99, the graph has 8");
  ck_assert(!tg_supported(&graph, 4, reason));
  ck_assert_str_eq(reason, "fused activation TANH is not supported");
  tg_free(&graph);
}
END_TEST

/* ADD -> MUL -> RELU with two intermediates in the arena; the MUL result
 * is also a partition output while RELU reads it. */
START_TEST(multi_op_partition) {
  for (int32_t threads = 1; threads <= 2; threads++) {
    test_graph graph;
    tg_init(&graph);
    int32_t dims[] = {2, 3};
    float a[6] = {1, -2, 3, -4, 5, -6}, b[6] = {0.5f, 0.5f, 0.5f, 1, 1, 1};
    float scale[1] = {-2};
    uint32_t ta = tg_input(&graph, F32, 2, dims, a);
    uint32_t tb = tg_input(&graph, F32, 2, dims, b);
    uint32_t ts = tg_const(&graph, F32, 1, (int32_t[]){1}, scale);
    uint32_t sum = tg_tensor(&graph, F32, 2, dims);
    uint32_t product = tg_tensor(&graph, F32, 2, dims);
    uint32_t out = tg_tensor(&graph, F32, 2, dims);
    tg_op(&graph, TFLACCEL_OP_ADD, 2, (uint32_t[]){ta, tb}, 1, (uint32_t[]){sum});
    tg_op(&graph, TFLACCEL_OP_MUL, 2, (uint32_t[]){sum, ts}, 1, (uint32_t[]){product});
    tg_op(&graph, TFLACCEL_OP_RELU, 1, (uint32_t[]){product}, 1, (uint32_t[]){out});
    tg_mark_output(&graph, product);
    tg_run_ok(&graph, threads);
    const float expected_product[6] = {-3, 3, -7, 6, -12, 10};
    const float expected_out[6] = {0, 3, 0, 6, 0, 10};
    tg_assert_floats(tg_result(&graph, product), expected_product, 6, 0);
    tg_assert_floats(tg_result(&graph, out), expected_out, 6, 0);
    tg_free(&graph);
  }
}
END_TEST

/* Compiles only ops 1 and 2 of a three-op chain: the partition's input is
 * an intermediate of the whole graph. */
START_TEST(partial_partition) {
  test_graph graph;
  tg_init(&graph);
  int32_t dims[] = {4};
  float x[4] = {1, 2, 3, 4};
  uint32_t tx = tg_input(&graph, F32, 1, dims, x);
  uint32_t t1 = tg_tensor(&graph, F32, 1, dims);
  uint32_t t2 = tg_tensor(&graph, F32, 1, dims);
  uint32_t t3 = tg_tensor(&graph, F32, 1, dims);
  tg_op(&graph, TFLACCEL_OP_NEG, 1, (uint32_t[]){tx}, 1, (uint32_t[]){t1});
  tg_op(&graph, TFLACCEL_OP_MUL, 2, (uint32_t[]){t1, t1}, 1, (uint32_t[]){t2});
  tg_op(&graph, TFLACCEL_OP_SUB, 2, (uint32_t[]){t2, t1}, 1, (uint32_t[]){t3});
  test_plugin plugin;
  tp_open(&plugin);
  const tflaccel_device_vtable *vt = plugin.device->vtable;
  tflaccel_graph_view view = tg_view(&graph);
  uint32_t ops[] = {1, 2}, inputs[] = {t1}, outputs[] = {t3};
  tflaccel_partition_desc partition = {sizeof partition, 2, ops, 1, inputs, 1, outputs};
  tflaccel_compile_options options = {
      .struct_size = sizeof options, .precision = TFLACCEL_PRECISION_FP32, .thread_count = 1};
  tflaccel_executable *executable = NULL;
  tflaccel_status status = vt->compile(plugin.device, &view, &partition, &options, &executable);
  ck_assert_msg(status == NULL, "%s", tflaccel_status_message(status));
  float in_values[4] = {-1, -2, 3, 0.5f}, out_values[4];
  tflaccel_buffer *in_buffer = NULL, *out_buffer = NULL;
  ck_assert_ptr_null(vt->buffer_import(plugin.device, TFLACCEL_EXTERNAL_HOST_POINTER, in_values,
                                       sizeof in_values, &in_buffer));
  ck_assert_ptr_null(vt->buffer_import(plugin.device, TFLACCEL_EXTERNAL_HOST_POINTER, out_values,
                                       sizeof out_values, &out_buffer));
  tflaccel_binding bindings[] = {{t3, out_buffer, 0, 16}, {t1, in_buffer, 0, 16}};
  ck_assert_ptr_null(vt->execute(plugin.device, executable, bindings, 2, NULL));
  const float expected[4] = {2, 6, 6, -0.25f};
  tg_assert_floats(out_values, expected, 4, 0);

  /* Binding errors: each gives a clear INVALID_ARGUMENT. */
  struct {
    tflaccel_binding bindings[3];
    uint32_t count;
    const char *message;
  } cases[] = {
      {{{t1, in_buffer, 0, 12}, {t3, out_buffer, 0, 16}}, 2,
       "cpu_ref execute: binding for tensor 1 '' is 12 bytes, the tensor is 16 bytes"},
      {{{t1, in_buffer, 0, 16}}, 1, "cpu_ref execute: partition output tensor 3 '' is not bound"},
      {{{t1, in_buffer, 0, 16}, {t1, in_buffer, 0, 16}, {t3, out_buffer, 0, 16}}, 3,
       "cpu_ref execute: tensor 1 '' is bound twice"},
      {{{t2, in_buffer, 0, 16}, {t3, out_buffer, 0, 16}}, 2,
       "cpu_ref execute: binding 0 names tensor 2, which is not an input or output of this "
       "partition"},
      {{{t1, in_buffer, 4, 16}, {t3, out_buffer, 0, 16}}, 2,
       "cpu_ref execute: binding for tensor 1 '' covers bytes [4, +16), outside its 16-byte "
       "buffer"},
      {{{t1, in_buffer, 0, 16}, {t3, NULL, 0, 16}}, 2,
       "cpu_ref execute: binding for tensor 3 '' has no buffer"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    status = vt->execute(plugin.device, executable, cases[i].bindings, cases[i].count, NULL);
    ck_assert_int_eq(tflaccel_status_code_of(status), TFLACCEL_INVALID_ARGUMENT);
    ck_assert_str_eq(tflaccel_status_message(status), cases[i].message);
    tflaccel_status_free(status);
  }
  /* Still usable after the errors. */
  in_values[0] = 10;
  ck_assert_ptr_null(vt->execute(plugin.device, executable, bindings, 2, NULL));
  ck_assert(out_values[0] == 90);
  ck_assert_ptr_null(vt->reset_state(plugin.device, executable));
  vt->buffer_destroy(plugin.device, in_buffer);
  vt->buffer_destroy(plugin.device, out_buffer);
  vt->executable_destroy(plugin.device, executable);
  tp_close(&plugin);
  tg_free(&graph);
}
END_TEST

START_TEST(compile_errors) {
  test_graph graph;
  tg_init(&graph);
  int32_t dims[] = {4};
  float x[4] = {0};
  uint32_t tx = tg_input(&graph, F32, 1, dims, x);
  uint32_t t1 = tg_tensor(&graph, F32, 1, dims);
  uint32_t t2 = tg_tensor(&graph, F32, 1, dims);
  tg_op(&graph, TFLACCEL_OP_NEG, 1, (uint32_t[]){tx}, 1, (uint32_t[]){t1});
  tg_custom_op(&graph, "NoSuchCustomOp", 1, (uint32_t[]){t1}, 1, (uint32_t[]){t2});
  test_plugin plugin;
  tp_open(&plugin);
  const tflaccel_device_vtable *vt = plugin.device->vtable;
  tflaccel_graph_view view = tg_view(&graph);
  tflaccel_executable *executable = NULL;
  /* An op without a kernel. */
  uint32_t both[] = {0, 1}, in[] = {tx}, out[] = {t2};
  tflaccel_partition_desc partition = {sizeof partition, 2, both, 1, in, 1, out};
  tflaccel_status status = vt->compile(plugin.device, &view, &partition, NULL, &executable);
  ck_assert_int_eq(tflaccel_status_code_of(status), TFLACCEL_UNSUPPORTED);
  ck_assert_str_eq(tflaccel_status_message(status),
                   "cpu_ref cannot run op #1 (NoSuchCustomOp): no cpu_ref kernel for CUSTOM op "
                   "'NoSuchCustomOp'");
  ck_assert_ptr_null(executable);
  tflaccel_status_free(status);
  /* A tensor read with no source: op 0 alone, without its input listed. */
  uint32_t first[] = {0}, out1[] = {t1};
  tflaccel_partition_desc no_input = {sizeof no_input, 1, first, 0, NULL, 1, out1};
  status = vt->compile(plugin.device, &view, &no_input, NULL, &executable);
  ck_assert_int_eq(tflaccel_status_code_of(status), TFLACCEL_INVALID_ARGUMENT);
  ck_assert_ptr_nonnull(strstr(tflaccel_status_message(status), "reads tensor 0"));
  tflaccel_status_free(status);
  /* An output no op produces. */
  uint32_t wrong_out[] = {t2};
  tflaccel_partition_desc bad_output = {sizeof bad_output, 1, first, 1, in, 1, wrong_out};
  status = vt->compile(plugin.device, &view, &bad_output, NULL, &executable);
  ck_assert_int_eq(tflaccel_status_code_of(status), TFLACCEL_INVALID_ARGUMENT);
  ck_assert_ptr_nonnull(strstr(tflaccel_status_message(status), "produced by none of its ops"));
  tflaccel_status_free(status);
  tp_close(&plugin);
  tg_free(&graph);
}
END_TEST

/* A variable tensor is executable state initialised from its data. */
START_TEST(variable_state) {
  test_graph graph;
  tg_init(&graph);
  int32_t dims[] = {3};
  float x[3] = {1, 2, 3}, initial[3] = {10, 20, 30};
  uint32_t tx = tg_input(&graph, F32, 1, dims, x);
  uint32_t state = tg_const(&graph, F32, 1, dims, initial);
  graph.tensors[state].flags = TFLACCEL_TENSOR_VARIABLE;
  uint32_t out = tg_tensor(&graph, F32, 1, dims);
  tg_op(&graph, TFLACCEL_OP_ADD, 2, (uint32_t[]){tx, state}, 1, (uint32_t[]){out});
  tg_run_ok(&graph, 1);
  const float expected[3] = {11, 22, 33};
  tg_assert_floats(tg_result(&graph, out), expected, 3, 0);
  tg_free(&graph);
}
END_TEST

typedef struct coverage {
  int hits[1000];
} coverage;

static void count_hits(void *argument, int64_t begin, int64_t end) {
  coverage *cover = argument;
  for (int64_t i = begin; i < end; i++) __atomic_fetch_add(&cover->hits[i], 1, __ATOMIC_RELAXED);
}

START_TEST(thread_pool_covers_range) {
  test_plugin plugin;
  tp_open(&plugin);
  for (int32_t threads = 1; threads <= 4; threads++) {
    cpu_thread_pool *pool = NULL;
    ck_assert_ptr_null(cpu_thread_pool_create(&plugin.host, threads, &pool));
    ck_assert_int_eq(cpu_thread_pool_size(pool), threads);
    int64_t counts[] = {0, 1, 7, 999, 1000};
    int64_t chunks[] = {1, 3, 100, 2000};
    for (size_t c = 0; c < sizeof counts / sizeof counts[0]; c++) {
      for (size_t k = 0; k < sizeof chunks / sizeof chunks[0]; k++) {
        coverage *cover = calloc(1, sizeof *cover);
        ck_assert_ptr_nonnull(cover);
        cpu_parallel_for(pool, counts[c], chunks[k], count_hits, cover);
        for (int64_t i = 0; i < 1000; i++) ck_assert_int_eq(cover->hits[i], i < counts[c] ? 1 : 0);
        free(cover);
      }
    }
    cpu_thread_pool_destroy(pool);
  }
  tp_close(&plugin);
}
END_TEST

START_TEST(threads_option) {
  const char *const bad[] = {"threads", "0", NULL};
  test_plugin plugin;
  tflaccel_status status = tp_open_with_options(&plugin, bad);
  ck_assert_int_eq(tflaccel_status_code_of(status), TFLACCEL_INVALID_CONFIG);
  ck_assert_str_eq(tflaccel_status_message(status),
                   "cpu_ref: option threads = '0' is not an integer from 1 to 256");
  tflaccel_status_free(status);
  tp_close(&plugin);
  /* A valid value: compiles and runs (with 3 threads, whatever asked). */
  const char *const good[] = {"threads", "3", NULL};
  ck_assert_ptr_null(tp_open_with_options(&plugin, good));
  test_graph graph;
  tg_init(&graph);
  float x[3] = {1, -2, 3};
  uint32_t tx = tg_input(&graph, F32, 1, (int32_t[]){3}, x);
  uint32_t ty = tg_tensor(&graph, F32, 1, (int32_t[]){3});
  tg_op(&graph, TFLACCEL_OP_ABS, 1, (uint32_t[]){tx}, 1, (uint32_t[]){ty});
  tflaccel_graph_view view = tg_view(&graph);
  uint32_t ops[] = {0}, in[] = {tx}, out[] = {ty};
  tflaccel_partition_desc partition = {sizeof partition, 1, ops, 1, in, 1, out};
  tflaccel_executable *executable = NULL;
  const tflaccel_device_vtable *vt = plugin.device->vtable;
  ck_assert_ptr_null(vt->compile(plugin.device, &view, &partition, NULL, &executable));
  float result[3];
  tflaccel_buffer *in_buffer = NULL, *out_buffer = NULL;
  ck_assert_ptr_null(
      vt->buffer_import(plugin.device, TFLACCEL_EXTERNAL_HOST_POINTER, x, 12, &in_buffer));
  ck_assert_ptr_null(
      vt->buffer_import(plugin.device, TFLACCEL_EXTERNAL_HOST_POINTER, result, 12, &out_buffer));
  tflaccel_binding bindings[] = {{tx, in_buffer, 0, 12}, {ty, out_buffer, 0, 12}};
  ck_assert_ptr_null(vt->execute(plugin.device, executable, bindings, 2, NULL));
  tg_assert_floats(result, (const float[]){1, 2, 3}, 3, 0);
  vt->buffer_destroy(plugin.device, in_buffer);
  vt->buffer_destroy(plugin.device, out_buffer);
  vt->executable_destroy(plugin.device, executable);
  tp_close(&plugin);
  tg_free(&graph);
}
END_TEST

static Suite *engine_suite(void) {
  Suite *suite = suite_create("cpu_ref engine");
  TCase *tc = tcase_create("engine");
  tcase_add_test(tc, descriptor_and_device_info);
  tcase_add_test(tc, buffers);
  tcase_add_test(tc, support_reasons);
  tcase_add_test(tc, multi_op_partition);
  tcase_add_test(tc, partial_partition);
  tcase_add_test(tc, compile_errors);
  tcase_add_test(tc, variable_state);
  tcase_add_test(tc, thread_pool_covers_range);
  tcase_add_test(tc, threads_option);
  suite_add_tcase(suite, tc);
  return suite;
}

int main(void) {
  SRunner *runner = srunner_create(engine_suite());
  srunner_run_all(runner, CK_NORMAL);
  int failed = srunner_ntests_failed(runner);
  srunner_free(runner);
  return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
