/* A GPU pipeline with no host copy, on OpenCL (gpu_cl):
 *
 *   1. an OpenCL kernel of the application draws a test image straight into
 *      a cl_mem made in the accelerator's cl_context;
 *   2. gpu_cl runs selfie_segmentation on it, writing the mask into a
 *      second cl_mem of the application's (wrapped, not copied);
 *   3. a second kernel sums the mask on the device; only that number comes
 *      back to the host.
 *
 * Then it checks itself against the same image run with host buffers
 * (pipeline_common.c). Usage: cl_pipeline [MODEL] (default:
 * selfie_segmentation.tflite in $TFLACCEL_TEST_DATA). Exit 77 when gpu_cl
 * is not available here. */
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <stdint.h>
#include <stdio.h>

#include "examples/pipeline_common.h"

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

/* The application's OpenCL objects, in the accelerator's cl_context. */
typedef struct cl_app {
  cl_command_queue queue;
  cl_program program;
  cl_kernel draw, sum;
  cl_mem image, mask, total;
} cl_app;

static void cl_app_destroy(cl_app *app) {
  if (app->image != NULL) clReleaseMemObject(app->image);
  if (app->mask != NULL) clReleaseMemObject(app->mask);
  if (app->total != NULL) clReleaseMemObject(app->total);
  if (app->draw != NULL) clReleaseKernel(app->draw);
  if (app->sum != NULL) clReleaseKernel(app->sum);
  if (app->program != NULL) clReleaseProgram(app->program);
  if (app->queue != NULL) clReleaseCommandQueue(app->queue);
}

static int cl_fail(const pipeline *self, const char *what, cl_int error) {
  fprintf(stderr, "%s: %s failed: OpenCL error %d\n", self->name, what, (int)error);
  return 1;
}

static int run_pipeline(pipeline *self, cl_app *app) {
  cl_context context = self->device.cl_context;
  cl_device_id cl_device = self->device.cl_device;
  cl_int error = CL_SUCCESS;
  app->queue = clCreateCommandQueueWithProperties(context, cl_device, NULL, &error);
  if (error != CL_SUCCESS) return cl_fail(self, "clCreateCommandQueueWithProperties", error);
  app->program = clCreateProgramWithSource(context, 1, &source, NULL, &error);
  if (error != CL_SUCCESS) return cl_fail(self, "clCreateProgramWithSource", error);
  if ((error = clBuildProgram(app->program, 1, &cl_device, "", NULL, NULL)) != CL_SUCCESS)
    return cl_fail(self, "building the kernels", error);
  app->draw = clCreateKernel(app->program, "draw", &error);
  if (error == CL_SUCCESS) app->sum = clCreateKernel(app->program, "sum", &error);
  if (error != CL_SUCCESS) return cl_fail(self, "clCreateKernel", error);
  size_t input_bytes = self->input_bytes, output_bytes = self->output_bytes;
  app->image = clCreateBuffer(context, CL_MEM_READ_WRITE, input_bytes, NULL, &error);
  if (error == CL_SUCCESS)
    app->mask = clCreateBuffer(context, CL_MEM_READ_WRITE, output_bytes, NULL, &error);
  if (error == CL_SUCCESS)
    app->total = clCreateBuffer(context, CL_MEM_READ_WRITE, sizeof(float), NULL, &error);
  if (error != CL_SUCCESS) return cl_fail(self, "clCreateBuffer", error);

  /* 1. Draw the image on the device. */
  int side = PIPELINE_SIDE;
  size_t global = ((size_t)side * side * 3 + 63) / 64 * 64;
  if ((error = clSetKernelArg(app->draw, 0, sizeof app->image, &app->image)) != CL_SUCCESS ||
      (error = clSetKernelArg(app->draw, 1, sizeof side, &side)) != CL_SUCCESS ||
      (error = clEnqueueNDRangeKernel(app->queue, app->draw, 1, NULL, &global, NULL, 0, NULL, NULL)) !=
          CL_SUCCESS ||
      (error = clFinish(app->queue)) != CL_SUCCESS) /* the accelerator's queue reads it next */
    return cl_fail(self, "drawing", error);

  /* 2. The model, on the application's cl_mem objects. */
  const tflaccel_native_buffer image = {.struct_size = sizeof image,
                                        .type = TFLACCEL_BUFFER_OPENCL,
                                        .handle = (uint64_t)(uintptr_t)app->image,
                                        .size = input_bytes};
  const tflaccel_native_buffer mask = {.struct_size = sizeof mask,
                                       .type = TFLACCEL_BUFFER_OPENCL,
                                       .handle = (uint64_t)(uintptr_t)app->mask,
                                       .size = output_bytes};
  uint32_t device_copies = 0;
  int status = pipeline_run_wrapped(self, &image, &mask, &device_copies);
  if (status != 0) return status;

  /* 3. Sum the mask on the device; read one float. */
  int count = (int)(output_bytes / sizeof(float));
  size_t group = 64;
  float device_sum = 0.0f;
  if ((error = clSetKernelArg(app->sum, 0, sizeof app->mask, &app->mask)) != CL_SUCCESS ||
      (error = clSetKernelArg(app->sum, 1, sizeof count, &count)) != CL_SUCCESS ||
      (error = clSetKernelArg(app->sum, 2, sizeof app->total, &app->total)) != CL_SUCCESS ||
      (error = clEnqueueNDRangeKernel(app->queue, app->sum, 1, NULL, &group, &group, 0, NULL, NULL)) !=
          CL_SUCCESS ||
      (error = clEnqueueReadBuffer(app->queue, app->total, CL_TRUE, 0, sizeof device_sum, &device_sum,
                                   0, NULL, NULL)) != CL_SUCCESS)
    return cl_fail(self, "summing", error);
  return pipeline_check(self, device_sum, device_copies);
}

int main(int argc, char **argv) {
  pipeline self;
  int status = pipeline_open(&self, "cl_pipeline", "gpu_cl", TFLACCEL_BUFFER_OPENCL, argc, argv);
  if (status == 0) {
    cl_app app = {0};
    status = run_pipeline(&self, &app);
    cl_app_destroy(&app);
  }
  pipeline_close(&self);
  return status;
}
