/* gpu_cl: the common GPU plugin checks, plus what only OpenCL can say: the
 * devices reported are exactly those the ICD loader shows (queried here
 * directly), described the way OpenCL describes them, GPUs first, and the
 * platform option filters by platform; and what gpu_cl runs: which ops it
 * takes or declines (with the reason), and a small graph computed on the
 * device in both precisions. The per-op numerics are the conformance
 * suite's (tests/conformance). */
#include "config.h"

#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/gpu/gpu_plugin_harness.h"
#include "tests/gpu/gpu_small_graph.h"

#define MAX_DIRECT_DEVICES 64

/* A device as OpenCL itself describes it. */
typedef struct direct_device {
  char name[256];
  char platform[256];
  cl_ulong memory;
  int fp16;
} direct_device;

static int direct_usable(cl_device_id device) {
  cl_device_type type = 0;
  cl_bool available = CL_FALSE, compiler = CL_FALSE;
  ck_assert_int_eq(clGetDeviceInfo(device, CL_DEVICE_TYPE, sizeof type, &type, NULL), CL_SUCCESS);
  ck_assert_int_eq(clGetDeviceInfo(device, CL_DEVICE_AVAILABLE, sizeof available, &available, NULL),
                   CL_SUCCESS);
  ck_assert_int_eq(
      clGetDeviceInfo(device, CL_DEVICE_COMPILER_AVAILABLE, sizeof compiler, &compiler, NULL),
      CL_SUCCESS);
  return (type & (CL_DEVICE_TYPE_GPU | CL_DEVICE_TYPE_ACCELERATOR | CL_DEVICE_TYPE_CPU)) &&
         available && compiler;
}

/* Every usable device of every platform, straight from OpenCL. */
static uint32_t list_direct_devices(direct_device *devices) {
  cl_platform_id platforms[16];
  cl_uint platform_count = 0;
  ck_assert_int_eq(clGetPlatformIDs(16, platforms, &platform_count), CL_SUCCESS);
  uint32_t count = 0;
  for (cl_uint p = 0; p < platform_count && p < 16; ++p) {
    cl_device_id ids[MAX_DIRECT_DEVICES];
    cl_uint found = 0;
    cl_int error =
        clGetDeviceIDs(platforms[p], CL_DEVICE_TYPE_ALL, MAX_DIRECT_DEVICES, ids, &found);
    if (error == CL_DEVICE_NOT_FOUND) continue;
    ck_assert_int_eq(error, CL_SUCCESS);
    char platform_name[256] = "";
    ck_assert_int_eq(clGetPlatformInfo(platforms[p], CL_PLATFORM_NAME, sizeof platform_name,
                                       platform_name, NULL),
                     CL_SUCCESS);
    for (cl_uint d = 0; d < found && d < MAX_DIRECT_DEVICES && count < MAX_DIRECT_DEVICES; ++d) {
      if (!direct_usable(ids[d])) continue;
      direct_device *device = &devices[count++];
      memset(device, 0, sizeof *device);
      snprintf(device->platform, sizeof device->platform, "%s", platform_name);
      ck_assert_int_eq(
          clGetDeviceInfo(ids[d], CL_DEVICE_NAME, sizeof device->name - 1, device->name, NULL),
          CL_SUCCESS);
      ck_assert_int_eq(clGetDeviceInfo(ids[d], CL_DEVICE_GLOBAL_MEM_SIZE, sizeof device->memory,
                                       &device->memory, NULL),
                       CL_SUCCESS);
      size_t size = 0;
      ck_assert_int_eq(clGetDeviceInfo(ids[d], CL_DEVICE_EXTENSIONS, 0, NULL, &size), CL_SUCCESS);
      char *extensions = calloc(size + 1, 1);
      ck_assert_ptr_nonnull(extensions);
      ck_assert_int_eq(clGetDeviceInfo(ids[d], CL_DEVICE_EXTENSIONS, size, extensions, NULL),
                       CL_SUCCESS);
      device->fp16 = strstr(extensions, "cl_khr_fp16") != NULL;
      free(extensions);
    }
  }
  return count;
}

static int is_gpu(int32_t type) {
  return type == TFLACCEL_DEVICE_DISCRETE_GPU || type == TFLACCEL_DEVICE_INTEGRATED_GPU;
}

START_TEST(devices_match_what_opencl_reports) {
  direct_device direct[MAX_DIRECT_DEVICES];
  uint32_t direct_count = list_direct_devices(direct);
  gpu_test_plugin test;
  gpu_test_plugin_open_ok(&test);
  uint32_t count = test.plugin->device_count(test.state);
  ck_assert_uint_eq(count, direct_count);
  int seen_non_gpu = 0;
  for (uint32_t i = 0; i < count; ++i) {
    tflaccel_device_info info;
    gpu_test_assert_ok(test.plugin->device_info(test.state, i, &info), "device_info");
    /* GPUs first: no GPU after a CPU, accelerator or software device. */
    if (is_gpu(info.type))
      ck_assert_msg(!seen_non_gpu, "GPU %s comes after a non-GPU device", info.name);
    else
      seen_non_gpu = 1;
    int matched = 0;
    for (uint32_t d = 0; d < direct_count && !matched; ++d) {
      if (strncmp(direct[d].name, info.name, sizeof info.name - 1) != 0) continue;
      matched = 1;
      ck_assert_uint_eq(info.memory_bytes, direct[d].memory);
      ck_assert(info.caps & TFLACCEL_DEVICE_CAP_FP16_STORAGE);
      ck_assert_int_eq((info.caps & TFLACCEL_DEVICE_CAP_FP16_ARITHMETIC) != 0, direct[d].fp16);
    }
    ck_assert_msg(matched, "device %s is not among OpenCL's devices", info.name);
    ck_assert_msg(strncmp(info.api_version, "OpenCL ", 7) == 0, "api_version %s", info.api_version);
    /* PoCL's host device runs on the CPU and says so. */
    if (strstr(info.api_version, "PoCL") != NULL &&
        (strncmp(info.name, "pthread", 7) == 0 || strncmp(info.name, "cpu", 3) == 0))
      ck_assert_int_eq(info.type, TFLACCEL_DEVICE_CPU);
  }
  gpu_test_plugin_close(&test);
}
END_TEST

START_TEST(platform_option_filters_platforms) {
  direct_device direct[MAX_DIRECT_DEVICES];
  uint32_t direct_count = list_direct_devices(direct);
  ck_assert_uint_ge(direct_count, 1);
  /* The first device's platform, by name: keeps exactly its devices. */
  uint32_t on_platform = 0;
  for (uint32_t d = 0; d < direct_count; ++d)
    on_platform += strcmp(direct[d].platform, direct[0].platform) == 0;
  const char *const same[] = {"platform", direct[0].platform, NULL};
  gpu_test_plugin test;
  gpu_test_assert_ok(gpu_test_plugin_open(&test, same), "init with platform=<first platform>");
  ck_assert_uint_eq(test.plugin->device_count(test.state), on_platform);
  gpu_test_plugin_close(&test);

  const char *const none[] = {"platform", "no-such-opencl-platform", NULL};
  tflaccel_status status = gpu_test_plugin_open(&test, none);
  ck_assert_int_eq(tflaccel_status_code_of(status), TFLACCEL_UNAVAILABLE);
  ck_assert_ptr_nonnull(
      strstr(tflaccel_status_message(status), "platform=no-such-opencl-platform"));
  ck_assert_ptr_null(test.state);
  tflaccel_status_free(status);
}
END_TEST

/* out = relu(a + b) * c over [1, 2, 3, 5] (5 channels: not a multiple of
 * the 4-channel slices), c a constant broadcast over channels. */
typedef struct small_graph {
  tflaccel_tensor_desc tensors[6];
  tflaccel_op_desc ops[2];
  tflaccel_op_params params[2];
  float constant[5];
  tflaccel_graph_view view;
} small_graph;

static const int32_t small_dims[4] = {1, 2, 3, 5};
static const int32_t channel_dims[1] = {5};
static const uint32_t add_inputs[2] = {0, 1}, add_outputs[1] = {2};
static const uint32_t mul_inputs[2] = {2, 3}, mul_outputs[1] = {4};

static void small_graph_init(small_graph *graph, int32_t dtype) {
  memset(graph, 0, sizeof *graph);
  for (int i = 0; i < 5; ++i) {
    tflaccel_tensor_desc *t = &graph->tensors[i];
    t->struct_size = sizeof *t;
    t->dtype = i == 3 ? TFLACCEL_DTYPE_FLOAT32 : dtype;
    t->rank = i == 3 ? 1 : 4;
    t->dims = i == 3 ? channel_dims : small_dims;
    t->name = "";
    t->byte_size = i == 3 ? 20 : 30 * 4;
  }
  graph->tensors[0].flags = graph->tensors[1].flags = TFLACCEL_TENSOR_GRAPH_INPUT;
  graph->tensors[4].flags = TFLACCEL_TENSOR_GRAPH_OUTPUT;
  for (int c = 0; c < 5; ++c) graph->constant[c] = 0.5f + 0.25f * (float)c;
  graph->tensors[3].flags = TFLACCEL_TENSOR_CONSTANT;
  graph->tensors[3].data = graph->constant;
  graph->tensors[3].data_size = sizeof graph->constant;
  for (int o = 0; o < 2; ++o) {
    tflaccel_op_desc *op = &graph->ops[o];
    op->struct_size = sizeof *op;
    op->code = o == 0 ? TFLACCEL_OP_ADD : TFLACCEL_OP_MUL;
    op->version = 1;
    op->params = &graph->params[o];
    op->input_count = 2;
    op->output_count = 1;
    op->inputs = o == 0 ? add_inputs : mul_inputs;
    op->outputs = o == 0 ? add_outputs : mul_outputs;
  }
  graph->params[0].arithmetic.fused_activation = TFLACCEL_ACT_RELU;
  graph->view.struct_size = sizeof graph->view;
  graph->view.tensor_count = 5;
  graph->view.tensors = graph->tensors;
  graph->view.op_count = 2;
  graph->view.ops = graph->ops;
}

static tflaccel_op_support ask(tflaccel_device *device, const tflaccel_graph_view *graph,
                               uint32_t op) {
  tflaccel_compile_options options = {.struct_size = sizeof options, .thread_count = 1};
  tflaccel_op_support support;
  memset(&support, 0, sizeof support);
  support.struct_size = sizeof support;
  gpu_test_assert_ok(device->vtable->supports_op(device, graph, op, &options, &support),
                     "supports_op");
  return support;
}

START_TEST(float_and_quantized_ops_taken_others_declined) {
  gpu_test_plugin test;
  gpu_test_plugin_open_ok(&test);
  tflaccel_device *device = gpu_test_device_create(&test, 0);
  small_graph graph;
  small_graph_init(&graph, TFLACCEL_DTYPE_FLOAT32);
  for (uint32_t op = 0; op < 2; ++op) {
    tflaccel_op_support support = ask(device, &graph.view, op);
    ck_assert_msg(support.level == TFLACCEL_SUPPORT_YES, "op %u declined: %s", op, support.reason);
  }
  /* int8 with one scale: taken through the float view. */
  small_graph_init(&graph, TFLACCEL_DTYPE_INT8);
  static const float scales[2] = {0.1f, 0.2f};
  static const int32_t zero_points[2] = {0, 0};
  for (int i = 0; i < 5; ++i) {
    graph.tensors[i].quantization.count = 1;
    graph.tensors[i].quantization.scales = scales;
    graph.tensors[i].quantization.zero_points = zero_points;
  }
  tflaccel_op_support support = ask(device, &graph.view, 0);
  ck_assert_msg(support.level == TFLACCEL_SUPPORT_YES, "int8 declined: %s", support.reason);
  /* An activation with a scale per channel: declined, saying why. */
  graph.tensors[0].quantization.count = 2;
  support = ask(device, &graph.view, 0);
  ck_assert_int_eq(support.level, TFLACCEL_SUPPORT_NO);
  ck_assert_msg(strstr(support.reason, "float view does not take") != NULL, "reason: %s",
                support.reason);
  /* A fused TANH has no clamp to express it. */
  small_graph_init(&graph, TFLACCEL_DTYPE_FLOAT32);
  graph.params[0].arithmetic.fused_activation = TFLACCEL_ACT_TANH;
  support = ask(device, &graph.view, 0);
  ck_assert_int_eq(support.level, TFLACCEL_SUPPORT_NO);
  ck_assert_msg(strstr(support.reason, "fused activation") != NULL, "reason: %s", support.reason);
  /* An op the GPU layer has no kernel for. */
  small_graph_init(&graph, TFLACCEL_DTYPE_FLOAT32);
  graph.ops[0].code = TFLACCEL_OP_SQUARED_DIFFERENCE;
  support = ask(device, &graph.view, 0);
  ck_assert_int_eq(support.level, TFLACCEL_SUPPORT_NO);
  ck_assert_msg(strstr(support.reason, "gpu_cl") != NULL, "reason: %s", support.reason);
  /* compile() refuses a declined op with the same reason. */
  static const uint32_t op_list[] = {0};
  static const uint32_t inputs[] = {0, 1}, outputs[] = {2};
  tflaccel_partition_desc partition = {.struct_size = sizeof partition, .op_count = 1,
                                       .ops = op_list, .input_count = 2, .inputs = inputs,
                                       .output_count = 1, .outputs = outputs};
  tflaccel_compile_options options = {.struct_size = sizeof options, .thread_count = 1};
  tflaccel_executable *executable = NULL;
  tflaccel_status status = device->vtable->compile(device, &graph.view, &partition, &options,
                                                   &executable);
  ck_assert_int_eq(tflaccel_status_code_of(status), TFLACCEL_UNSUPPORTED);
  ck_assert_str_eq(tflaccel_status_message(status), support.reason);
  ck_assert_ptr_null(executable);
  tflaccel_status_free(status);
  status = device->vtable->execute(device, NULL, NULL, 0, NULL);
  ck_assert_int_eq(tflaccel_status_code_of(status), TFLACCEL_INVALID_ARGUMENT);
  tflaccel_status_free(status);
  device->vtable->destroy(device);
  gpu_test_plugin_close(&test);
}
END_TEST

/* Runs the small graph at precision on every device and checks each value. */
static void run_small_graph(int32_t precision, float tolerance) {
  gpu_test_plugin test;
  gpu_test_plugin_open_ok(&test);
  for (uint32_t index = 0; index < test.plugin->device_count(test.state); ++index) {
    tflaccel_device *device = gpu_test_device_create(&test, index);
    const tflaccel_device_vtable *vtable = device->vtable;
    small_graph graph;
    small_graph_init(&graph, TFLACCEL_DTYPE_FLOAT32);
    static const uint32_t op_list[] = {0, 1};
    static const uint32_t inputs[] = {0, 1}, outputs[] = {4};
    tflaccel_partition_desc partition = {.struct_size = sizeof partition, .op_count = 2,
                                         .ops = op_list, .input_count = 2, .inputs = inputs,
                                         .output_count = 1, .outputs = outputs};
    tflaccel_compile_options options = {.struct_size = sizeof options, .precision = precision,
                                        .thread_count = 1};
    tflaccel_executable *executable = NULL;
    gpu_test_assert_ok(vtable->compile(device, &graph.view, &partition, &options, &executable),
                       "compile");
    float a[30], b[30], out[30];
    for (int i = 0; i < 30; ++i) {
      a[i] = (float)(i % 7) - 3.0f;
      b[i] = 0.5f * (float)(i % 5) - 0.25f;
    }
    tflaccel_binding bindings[3];
    const float *sources[2] = {a, b};
    for (int i = 0; i < 3; ++i) {
      bindings[i].tensor = i < 2 ? (uint32_t)i : 4u;
      bindings[i].offset = 0;
      bindings[i].size = sizeof a;
      gpu_test_assert_ok(vtable->buffer_create(device, sizeof a, &bindings[i].buffer), "buffer");
      if (i < 2)
        gpu_test_assert_ok(vtable->buffer_write(device, bindings[i].buffer, 0, sources[i], sizeof a),
                           "buffer_write");
    }
    gpu_test_assert_ok(vtable->execute(device, executable, bindings, 3, NULL), "execute");
    gpu_test_assert_ok(vtable->buffer_read(device, bindings[2].buffer, 0, out, sizeof out),
                       "buffer_read");
    for (int i = 0; i < 30; ++i) {
      float sum = a[i] + b[i];
      float expected = (sum > 0.0f ? sum : 0.0f) * graph.constant[i % 5];
      ck_assert_msg(out[i] >= expected - tolerance && out[i] <= expected + tolerance,
                    "device %u element %d: %g, expected %g", index, i, (double)out[i],
                    (double)expected);
    }
    for (int i = 0; i < 3; ++i) vtable->buffer_destroy(device, bindings[i].buffer);
    vtable->executable_destroy(device, executable);
    vtable->destroy(device);
  }
  gpu_test_plugin_close(&test);
}

START_TEST(small_graph_runs_in_fp32) { run_small_graph(TFLACCEL_PRECISION_FP32, 0.0f); }
END_TEST

START_TEST(small_graph_runs_in_fp16) { run_small_graph(TFLACCEL_PRECISION_FP16, 0.01f); }
END_TEST

/* Compiles and checks a small graph on a fresh device (its own programs). */
static void check_on_new_device(gpu_test_plugin *test) {
  tflaccel_device *device = gpu_test_device_create(test, 0);
  gpu_small_graph_check(device, TFLACCEL_PRECISION_FP32, 0.0f);
  device->vtable->destroy(device);
}

/* Two entries for the partition (its lowered program, and the fp32 OpenCL
 * program's binary), left untouched once loaded (gpu_test_cache_check). */
START_TEST(programs_are_cached_on_disk) { gpu_test_cache_check("gpu_cl-", 2, 1, check_on_new_device); }
END_TEST

int main(void) {
  Suite *suite = suite_create("gpu_cl");
  suite_add_tcase(suite, gpu_common_test_case());
  TCase *specific = tcase_create("gpu_cl OpenCL");
  tcase_add_test(specific, devices_match_what_opencl_reports);
  tcase_add_test(specific, platform_option_filters_platforms);
  tcase_add_test(specific, float_and_quantized_ops_taken_others_declined);
  tcase_add_test(specific, small_graph_runs_in_fp32);
  tcase_add_test(specific, small_graph_runs_in_fp16);
  suite_add_tcase(suite, specific);
  /* Builds the programs up to three times over: slow on software drivers. */
  TCase *cache = tcase_create("gpu_cl program cache");
  tcase_set_timeout(cache, 300);
  tcase_add_test(cache, programs_are_cached_on_disk);
  suite_add_tcase(suite, cache);
  return gpu_test_run(suite);
}
