/* A GPU pipeline with no host copy, on OpenCL (gpu_cl):
 *
 *   1. an OpenCL kernel of the application draws a test image straight into
 *      a cl_mem made in the accelerator's cl_context;
 *   2. gpu_cl runs selfie_segmentation on it, writing the mask into a
 *      second cl_mem of the application's (wrapped, not copied);
 *   3. a second kernel sums the mask on the device; only that number comes
 *      back to the host.
 *
 * Then it checks itself against the same image run with host buffers.
 * Usage: cl_pipeline [MODEL] (default: selfie_segmentation.tflite in
 * $TFLACCEL_TEST_DATA). Exit 77 when gpu_cl is not available here. */
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "tflaccel/tflaccel.h"

#define SIDE 256

static const char *source =
    "kernel void draw(global float *pixels, int side) {\n"
    "  int i = get_global_id(0);\n"
    "  if (i >= side * side * 3) return;\n"
    "  int c = i % 3, x = (i / 3) % side, y = i / (3 * side);\n"
    "  float u = (float)x / side, v = (float)y / side;\n"
    "  float disc = (u - 0.5f) * (u - 0.5f) + (v - 0.45f) * (v - 0.45f) < 0.06f ? 0.8f : 0.0f;\n"
    "  pixels[i] = clamp(0.1f + 0.3f * u + 0.2f * v * c + disc, 0.0f, 1.0f);\n"
    "}\n"
    "kernel void sum(global const float *mask, int count, global float *total) {\n"
    "  local float partial[64];\n"
    "  int lane = get_local_id(0);\n"
    "  float s = 0.0f;\n"
    "  for (int i = lane; i < count; i += 64) s += mask[i];\n"
    "  partial[lane] = s;\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  for (int step = 32; step > 0; step >>= 1) {\n"
    "    if (lane < step) partial[lane] += partial[lane + step];\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  }\n"
    "  if (lane == 0) total[0] = partial[0];\n"
    "}\n";

static int fail(const char *what, tflaccel_status status) {
  fprintf(stderr, "cl_pipeline: %s: %s\n", what, status ? tflaccel_status_message(status) : "failed");
  tflaccel_status_free(status);
  return 1;
}

static void draw_on_cpu(float *pixels) {
  for (int i = 0; i < SIDE * SIDE * 3; ++i) {
    int c = i % 3, x = (i / 3) % SIDE, y = i / (3 * SIDE);
    float u = (float)x / SIDE, v = (float)y / SIDE;
    float disc = (u - 0.5f) * (u - 0.5f) + (v - 0.45f) * (v - 0.45f) < 0.06f ? 0.8f : 0.0f;
    float value = 0.1f + 0.3f * u + 0.2f * v * (float)c + disc;
    pixels[i] = value < 0.0f ? 0.0f : value > 1.0f ? 1.0f : value;
  }
}

int main(int argc, char **argv) {
  char default_model[4096];
  const char *model_path = argc > 1 ? argv[1] : NULL;
  if (model_path == NULL) {
    const char *data = getenv("TFLACCEL_TEST_DATA");
    snprintf(default_model, sizeof default_model, "%s/selfie_segmentation.tflite", data ? data : ".");
    model_path = default_model;
  }
  tflaccel_environment_options options = {
      .struct_size = sizeof options, .accelerators = "gpu_cl", .log_level = "error"};
  tflaccel_environment *environment = NULL;
  tflaccel_model *model = NULL;
  tflaccel_compiled_model *compiled = NULL;
  tflaccel_status status = tflaccel_environment_create(&options, &environment);
  if (status != NULL) return fail("environment", status);
  if ((status = tflaccel_model_load_file(model_path, &model)) != NULL) return fail("model", status);
  if ((status = tflaccel_compiled_model_create(environment, model, NULL, &compiled)) != NULL)
    return fail("compile", status);
  tflaccel_buffer_requirements in_wanted = {.struct_size = sizeof in_wanted};
  tflaccel_buffer_requirements out_wanted = {.struct_size = sizeof out_wanted};
  if ((status = tflaccel_compiled_model_input_buffer_requirements(compiled, 0, &in_wanted)) != NULL ||
      (status = tflaccel_compiled_model_output_buffer_requirements(compiled, 0, &out_wanted)) != NULL)
    return fail("requirements", status);
  if (in_wanted.type_count < 2 || in_wanted.types[1] != TFLACCEL_BUFFER_OPENCL) {
    printf("cl_pipeline: gpu_cl does not read this model's input here (no OpenCL driver?): skipped\n");
    tflaccel_compiled_model_destroy(compiled);
    tflaccel_model_destroy(model);
    tflaccel_environment_destroy(environment);
    return 77;
  }
  tflaccel_native_device device = {.struct_size = sizeof device};
  if ((status = tflaccel_compiled_model_native_device(compiled, 0, 0, &device)) != NULL)
    return fail("native device", status);
  cl_context context = device.cl_context;
  cl_device_id cl_device = device.cl_device;
  cl_int error = CL_SUCCESS;
  cl_command_queue queue = clCreateCommandQueueWithProperties(context, cl_device, NULL, &error);
  if (error != CL_SUCCESS) return fail("clCreateCommandQueueWithProperties", NULL);
  cl_program program = clCreateProgramWithSource(context, 1, &source, NULL, &error);
  if (error != CL_SUCCESS || clBuildProgram(program, 1, &cl_device, "", NULL, NULL) != CL_SUCCESS)
    return fail("building the kernels", NULL);
  cl_kernel draw = clCreateKernel(program, "draw", &error);
  cl_kernel reduce = clCreateKernel(program, "sum", &error);
  if (error != CL_SUCCESS) return fail("clCreateKernel", NULL);
  size_t input_bytes = in_wanted.size, output_bytes = out_wanted.size;
  cl_mem image = clCreateBuffer(context, CL_MEM_READ_WRITE, input_bytes, NULL, &error);
  cl_mem mask = clCreateBuffer(context, CL_MEM_READ_WRITE, output_bytes, NULL, &error);
  cl_mem total = clCreateBuffer(context, CL_MEM_READ_WRITE, sizeof(float), NULL, &error);
  if (error != CL_SUCCESS) return fail("clCreateBuffer", NULL);

  /* 1. Draw the image on the device. */
  int side = SIDE;
  size_t global = ((size_t)SIDE * SIDE * 3 + 63) / 64 * 64;
  clSetKernelArg(draw, 0, sizeof image, &image);
  clSetKernelArg(draw, 1, sizeof side, &side);
  if (clEnqueueNDRangeKernel(queue, draw, 1, NULL, &global, NULL, 0, NULL, NULL) != CL_SUCCESS ||
      clFinish(queue) != CL_SUCCESS) /* the accelerator's queue reads it next */
    return fail("drawing", NULL);

  /* 2. The model, on the application's cl_mem objects. */
  tflaccel_native_buffer native = {.struct_size = sizeof native,
                                   .type = TFLACCEL_BUFFER_OPENCL,
                                   .handle = (uint64_t)(uintptr_t)image,
                                   .size = input_bytes};
  tflaccel_tensor_buffer *input = NULL, *output = NULL;
  if ((status = tflaccel_compiled_model_wrap_input_buffer(compiled, 0, &native, &input)) != NULL)
    return fail("wrapping the image", status);
  native.handle = (uint64_t)(uintptr_t)mask;
  native.size = output_bytes;
  if ((status = tflaccel_compiled_model_wrap_output_buffer(compiled, 0, &native, &output)) != NULL)
    return fail("wrapping the mask", status);
  if ((status = tflaccel_compiled_model_run(compiled, &input, 1, &output, 1)) != NULL)
    return fail("run", status);
  tflaccel_run_stats stats = {.struct_size = sizeof stats};
  if ((status = tflaccel_compiled_model_last_run_stats(compiled, &stats)) != NULL)
    return fail("stats", status);
  uint32_t device_copies = stats.host_copies;

  /* 3. Sum the mask on the device; read one float. */
  int count = (int)(output_bytes / sizeof(float));
  size_t group = 64;
  float gpu_sum = 0.0f;
  clSetKernelArg(reduce, 0, sizeof mask, &mask);
  clSetKernelArg(reduce, 1, sizeof count, &count);
  clSetKernelArg(reduce, 2, sizeof total, &total);
  if (clEnqueueNDRangeKernel(queue, reduce, 1, NULL, &group, &group, 0, NULL, NULL) != CL_SUCCESS ||
      clEnqueueReadBuffer(queue, total, CL_TRUE, 0, sizeof gpu_sum, &gpu_sum, 0, NULL, NULL) !=
          CL_SUCCESS)
    return fail("summing", NULL);

  tflaccel_tensor_buffer *host_input = NULL, *host_output = NULL;
  if ((status = tflaccel_compiled_model_create_input_buffer(compiled, 0, &host_input)) != NULL ||
      (status = tflaccel_compiled_model_create_output_buffer(compiled, 0, &host_output)) != NULL)
    return fail("host buffers", status);
  draw_on_cpu(tflaccel_tensor_buffer_data(host_input));
  if ((status = tflaccel_compiled_model_run(compiled, &host_input, 1, &host_output, 1)) != NULL)
    return fail("host run", status);
  if ((status = tflaccel_compiled_model_last_run_stats(compiled, &stats)) != NULL)
    return fail("stats", status);
  const float *values = tflaccel_tensor_buffer_data(host_output);
  double host_sum = 0.0;
  for (int i = 0; i < count; ++i) host_sum += values[i];
  int ok = device_copies == 0 && fabs(host_sum - gpu_sum) <= 1e-3 * (fabs(host_sum) + 1.0);
  printf("cl_pipeline: mask sum %.4f on the device pipeline (%u host copies in the run), %.4f with "
         "host buffers (%u host copies): %s\n",
         gpu_sum, device_copies, host_sum, stats.host_copies, ok ? "agree" : "DIFFER");

  tflaccel_tensor_buffer_destroy(host_input);
  tflaccel_tensor_buffer_destroy(host_output);
  tflaccel_tensor_buffer_destroy(input);
  tflaccel_tensor_buffer_destroy(output);
  clReleaseMemObject(image);
  clReleaseMemObject(mask);
  clReleaseMemObject(total);
  clReleaseKernel(draw);
  clReleaseKernel(reduce);
  clReleaseProgram(program);
  clReleaseCommandQueue(queue);
  tflaccel_compiled_model_destroy(compiled);
  tflaccel_model_destroy(model);
  tflaccel_environment_destroy(environment);
  return ok ? 0 : 1;
}
