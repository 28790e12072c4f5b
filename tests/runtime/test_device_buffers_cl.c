/* gpu_cl takes the application's own cl_mem objects: an input and an
 * output buffer made in the accelerator's cl_context (from
 * tflaccel_compiled_model_native_device), at an offset inside larger
 * buffers, filled and read with the application's own OpenCL calls; the
 * run copies nothing through the host and gives the host run's outputs. A
 * cl_mem of another cl_context, or too small, is refused in one line. */
#include "config.h"

#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <check.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/runtime/device_buffer_fixture.h"
#include "tests/support/test_util.h"
#include "tflaccel/tflaccel.h"

#define OFFSET 256 /* a multiple of every alignment asked for here */

START_TEST(application_cl_mem_runs_in_place) {
  device_fixture fixture;
  if (!device_fixture_open(&fixture, "gpu_cl", "selfie_segmentation.tflite")) return;
  ck_assert_uint_eq(fixture.input_count, 1);
  ck_assert_uint_eq(fixture.output_count, 1);
  tflaccel_native_device device = {.struct_size = sizeof device};
  ck_assert_ptr_null(tflaccel_compiled_model_native_device(fixture.compiled, 0, 0, &device));
  ck_assert_uint_le(device.offset_alignment, OFFSET);
  cl_context context = device.cl_context;
  cl_device_id cl_device = device.cl_device;
  cl_int error = CL_SUCCESS;
  cl_command_queue queue = clCreateCommandQueueWithProperties(context, cl_device, NULL, &error);
  ck_assert_int_eq(error, CL_SUCCESS);

  size_t input_size = tflaccel_tensor_buffer_byte_size(fixture.inputs[0]);
  size_t output_size = tflaccel_tensor_buffer_byte_size(fixture.outputs[0]);
  cl_mem input_memory = clCreateBuffer(context, CL_MEM_READ_WRITE, OFFSET + input_size, NULL, &error);
  ck_assert_int_eq(error, CL_SUCCESS);
  cl_mem output_memory = clCreateBuffer(context, CL_MEM_READ_WRITE, OFFSET + output_size, NULL, &error);
  ck_assert_int_eq(error, CL_SUCCESS);
  ck_assert_int_eq(clEnqueueWriteBuffer(queue, input_memory, CL_TRUE, OFFSET, input_size,
                                        tflaccel_tensor_buffer_data(fixture.inputs[0]), 0, NULL, NULL),
                   CL_SUCCESS);

  tflaccel_native_buffer native = {.struct_size = sizeof native,
                                   .type = TFLACCEL_BUFFER_OPENCL,
                                   .handle = (uint64_t)(uintptr_t)input_memory,
                                   .offset = OFFSET,
                                   .size = input_size};
  tflaccel_tensor_buffer *input = NULL, *output = NULL;
  tflaccel_status status = tflaccel_compiled_model_wrap_input_buffer(fixture.compiled, 0, &native, &input);
  ck_assert_msg(status == NULL, "%s", tflaccel_status_message(status));
  native.handle = (uint64_t)(uintptr_t)output_memory;
  native.size = output_size;
  status = tflaccel_compiled_model_wrap_output_buffer(fixture.compiled, 0, &native, &output);
  ck_assert_msg(status == NULL, "%s", tflaccel_status_message(status));
  status = tflaccel_compiled_model_run(fixture.compiled, &input, 1, &output, 1);
  ck_assert_msg(status == NULL, "%s", tflaccel_status_message(status));
  tflaccel_run_stats stats = {.struct_size = sizeof stats};
  ck_assert_ptr_null(tflaccel_compiled_model_last_run_stats(fixture.compiled, &stats));
  ck_assert_uint_eq(stats.host_copies, 0);
  unsigned char *got = malloc(output_size);
  ck_assert_ptr_nonnull(got);
  ck_assert_int_eq(
      clEnqueueReadBuffer(queue, output_memory, CL_TRUE, OFFSET, output_size, got, 0, NULL, NULL),
      CL_SUCCESS);
  ck_assert_int_eq(memcmp(got, tflaccel_tensor_buffer_data(fixture.outputs[0]), output_size), 0);
  free(got);
  /* The core's own view agrees. */
  device_fixture_check_output(&fixture, 0, output);
  tflaccel_tensor_buffer_destroy(input);
  tflaccel_tensor_buffer_destroy(output);

  /* Too small for offset + size. */
  ck_assert_uint_gt(input_size, output_size);
  native.handle = (uint64_t)(uintptr_t)output_memory;
  native.size = input_size;
  tflaccel_tensor_buffer *refused = NULL;
  fixture_expect_error(
      tflaccel_compiled_model_wrap_input_buffer(fixture.compiled, 0, &native, &refused), -1,
      "the cl_mem holds");
  ck_assert_ptr_null(refused);
  /* Of another context. */
  cl_context other = clCreateContext(NULL, 1, &cl_device, NULL, NULL, &error);
  ck_assert_int_eq(error, CL_SUCCESS);
  cl_mem foreign = clCreateBuffer(other, CL_MEM_READ_WRITE, OFFSET + input_size, NULL, &error);
  ck_assert_int_eq(error, CL_SUCCESS);
  native.handle = (uint64_t)(uintptr_t)foreign;
  native.size = input_size;
  fixture_expect_error(
      tflaccel_compiled_model_wrap_input_buffer(fixture.compiled, 0, &native, &refused), -1,
      "another cl_context");
  ck_assert_ptr_null(refused);
  clReleaseMemObject(foreign);
  clReleaseContext(other);
  clReleaseMemObject(input_memory);
  clReleaseMemObject(output_memory);
  clReleaseCommandQueue(queue);
  printf("gpu_cl: the application's cl_mem objects ran in place, 0 host copies\n");
  device_fixture_close(&fixture);
}
END_TEST

int main(void) {
  Suite *suite = suite_create("device_buffers_cl");
  TCase *tcase = tcase_create("device_buffers_cl");
  tcase_set_timeout(tcase, 600);
  tcase_add_test(tcase, application_cl_mem_runs_in_place);
  suite_add_tcase(suite, tcase);
  return test_run_suite(suite);
}
