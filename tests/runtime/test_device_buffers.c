/* Device tensor buffers, asynchronous runs and events (tflaccel.h), on
 * every GPU plugin built and available (with cpu_ref as the fallback), on
 * hand_recrop from tests/data (small: CI time):
 *   - requirements name the plugin's own buffer type; buffers the compiled
 *     model makes run with no host copy at all, and give exactly the host
 *     run's outputs;
 *   - run_async queues frames back to back, each output's event signals
 *     when it is written; a run waits for its input's application event;
 *   - wrong types, sizes, devices and states get one-line errors.
 * A plugin that is not built or finds no driver is reported and passed
 * over; cpu_ref's part (host buffers only) always runs. */
#include "config.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "tests/runtime/device_buffer_fixture.h"
#include "tests/support/test_util.h"
#include "tflaccel/tflaccel.h"

#define MODEL "hand_recrop.tflite"

static const char *const gpu_plugins[] = {"gpu_cl", "gpu_vk", "gpu_gl"};
static const int32_t gpu_types[] = {TFLACCEL_BUFFER_OPENCL, TFLACCEL_BUFFER_VULKAN,
                                    TFLACCEL_BUFFER_GL};

START_TEST(device_buffers_run_without_host_copies) {
  device_fixture fixture;
  if (!device_fixture_open(&fixture, gpu_plugins[_i], MODEL)) return;
  tflaccel_run_stats stats = {.struct_size = sizeof stats};
  ck_assert_ptr_null(tflaccel_compiled_model_last_run_stats(fixture.compiled, &stats));
  ck_assert_uint_gt(stats.host_copies, 0); /* the host run copies */

  for (uint32_t i = 0; i < fixture.input_count + fixture.output_count; ++i) {
    int is_output = i >= fixture.input_count;
    uint32_t index = is_output ? i - fixture.input_count : i;
    tflaccel_buffer_requirements wanted = {.struct_size = sizeof wanted};
    ck_assert_ptr_null(is_output ? tflaccel_compiled_model_output_buffer_requirements(
                                       fixture.compiled, index, &wanted)
                                 : tflaccel_compiled_model_input_buffer_requirements(
                                       fixture.compiled, index, &wanted));
    /* Then the external memory fds the driver imports (test_external_memory). */
    ck_assert_uint_ge(wanted.type_count, 2);
    ck_assert_int_eq(wanted.types[0], TFLACCEL_BUFFER_HOST);
    ck_assert_int_eq(wanted.types[1], gpu_types[_i]);
    for (uint32_t t = 2; t < wanted.type_count; ++t)
      ck_assert_int_eq(wanted.types[t], TFLACCEL_BUFFER_OPAQUE_FD);
    ck_assert_str_eq(wanted.accelerator, gpu_plugins[_i]);
    ck_assert_uint_ge(wanted.alignment, 4);
    tflaccel_native_device device = {.struct_size = sizeof device};
    ck_assert_ptr_null(
        tflaccel_compiled_model_native_device(fixture.compiled, is_output, index, &device));
    ck_assert_int_eq(device.type, gpu_types[_i]);
    if (gpu_types[_i] == TFLACCEL_BUFFER_OPENCL)
      ck_assert(device.cl_context != NULL && device.cl_device != NULL && device.cl_queue != NULL);
    if (gpu_types[_i] == TFLACCEL_BUFFER_VULKAN)
      ck_assert(device.vk_instance != NULL && device.vk_device != NULL &&
                device.vk_physical_device != NULL);
    if (gpu_types[_i] == TFLACCEL_BUFFER_GL)
      ck_assert(device.egl_display != NULL && device.egl_context != NULL);
  }

  tflaccel_tensor_buffer *inputs[FIXTURE_MAX_TENSORS], *outputs[FIXTURE_MAX_TENSORS];
  device_fixture_make_device_buffers(&fixture, gpu_types[_i], inputs, outputs);
  tflaccel_native_buffer native = {.struct_size = sizeof native};
  ck_assert_ptr_null(tflaccel_tensor_buffer_native(outputs[0], &native));
  ck_assert_int_eq(native.type, gpu_types[_i]);
  ck_assert_uint_ne(native.handle, 0);
  ck_assert_uint_eq(native.size, tflaccel_tensor_buffer_byte_size(outputs[0]));
  ck_assert_ptr_null(tflaccel_tensor_buffer_data(outputs[0]));
  for (int run = 0; run < 2; ++run) {
    tflaccel_status status = tflaccel_compiled_model_run(fixture.compiled, inputs, fixture.input_count,
                                                         outputs, fixture.output_count);
    ck_assert_msg(status == NULL, "%s", tflaccel_status_message(status));
    ck_assert_ptr_null(tflaccel_compiled_model_last_run_stats(fixture.compiled, &stats));
    ck_assert_uint_eq(stats.host_copies, 0);
    ck_assert_uint_eq(stats.host_copy_bytes, 0);
    for (uint32_t i = 0; i < fixture.output_count; ++i)
      device_fixture_check_output(&fixture, i, outputs[i]);
  }
  /* Host inputs with device outputs: only the inputs are copied. */
  tflaccel_status status = tflaccel_compiled_model_run(fixture.compiled, fixture.inputs,
                                                       fixture.input_count, outputs, fixture.output_count);
  ck_assert_msg(status == NULL, "%s", tflaccel_status_message(status));
  ck_assert_ptr_null(tflaccel_compiled_model_last_run_stats(fixture.compiled, &stats));
  ck_assert_uint_eq(stats.host_copies, 2 * fixture.input_count); /* into the arena, then up */
  for (uint32_t i = 0; i < fixture.output_count; ++i) device_fixture_check_output(&fixture, i, outputs[i]);

  /* Lock for reading gives the host the output's bytes. */
  void *mapped = NULL;
  ck_assert_ptr_null(tflaccel_tensor_buffer_lock(outputs[0], TFLACCEL_LOCK_READ, &mapped));
  ck_assert_int_eq(memcmp(mapped, tflaccel_tensor_buffer_data(fixture.outputs[0]),
                          tflaccel_tensor_buffer_byte_size(outputs[0])),
                   0);
  fixture_expect_error(tflaccel_tensor_buffer_lock(outputs[0], TFLACCEL_LOCK_READ, &mapped), -1,
                       "locked already");
  fixture_expect_error(tflaccel_compiled_model_run(fixture.compiled, inputs, fixture.input_count,
                                                   outputs, fixture.output_count),
                       -1, "the buffer is locked");
  ck_assert_ptr_null(tflaccel_tensor_buffer_unlock(outputs[0]));
  fixture_expect_error(tflaccel_tensor_buffer_unlock(outputs[0]), -1, "not locked");
  device_fixture_destroy_buffers(inputs, fixture.input_count);
  device_fixture_destroy_buffers(outputs, fixture.output_count);
  printf("%s: device buffers: outputs equal the host run's, 0 host copies\n", gpu_plugins[_i]);
  device_fixture_close(&fixture);
}
END_TEST

START_TEST(async_runs_signal_their_outputs) {
  device_fixture fixture;
  if (!device_fixture_open(&fixture, gpu_plugins[_i], MODEL)) return;
  enum { FRAMES = 3 };
  tflaccel_tensor_buffer *outputs[FRAMES][FIXTURE_MAX_TENSORS];
  for (int f = 0; f < FRAMES; ++f)
    for (uint32_t i = 0; i < fixture.output_count; ++i)
      ck_assert_ptr_null(
          tflaccel_compiled_model_create_output_buffer(fixture.compiled, i, &outputs[f][i]));
  /* Frames queued back to back, then waited on. */
  for (int f = 0; f < FRAMES; ++f) {
    tflaccel_status status = tflaccel_compiled_model_run_async(
        fixture.compiled, fixture.inputs, fixture.input_count, outputs[f], fixture.output_count);
    ck_assert_msg(status == NULL, "%s", tflaccel_status_message(status));
  }
  for (int f = 0; f < FRAMES; ++f) {
    for (uint32_t i = 0; i < fixture.output_count; ++i) {
      tflaccel_tensor_event *event = NULL;
      ck_assert_ptr_null(tflaccel_tensor_buffer_get_event(outputs[f][i], &event));
      ck_assert_ptr_nonnull(event);
      tflaccel_status status = tflaccel_tensor_event_wait(event);
      ck_assert_msg(status == NULL, "%s", tflaccel_status_message(status));
      ck_assert_int_eq(tflaccel_tensor_event_is_signaled(event), 1);
      tflaccel_tensor_event_destroy(event);
      ck_assert_int_eq(memcmp(tflaccel_tensor_buffer_data(outputs[f][i]),
                              tflaccel_tensor_buffer_data(fixture.outputs[i]),
                              tflaccel_tensor_buffer_byte_size(outputs[f][i])),
                       0);
    }
  }

  /* A run waits for its input's event: the application's, signalled late. */
  tflaccel_tensor_event *ready = NULL;
  ck_assert_ptr_null(tflaccel_tensor_event_create(&ready));
  ck_assert_int_eq(tflaccel_tensor_event_is_signaled(ready), 0);
  ck_assert_ptr_null(tflaccel_tensor_buffer_set_event(fixture.inputs[0], ready));
  ck_assert_ptr_null(tflaccel_compiled_model_run_async(fixture.compiled, fixture.inputs,
                                                       fixture.input_count, outputs[0],
                                                       fixture.output_count));
  tflaccel_tensor_event *done = NULL;
  ck_assert_ptr_null(tflaccel_tensor_buffer_get_event(outputs[0][0], &done));
  struct timespec pause = {0, 100 * 1000 * 1000};
  nanosleep(&pause, NULL);
  ck_assert_int_eq(tflaccel_tensor_event_is_signaled(done), 0);
  ck_assert_ptr_null(tflaccel_tensor_event_signal(ready));
  fixture_expect_error(tflaccel_tensor_event_signal(ready), -1, "signalled already");
  tflaccel_status status = tflaccel_tensor_event_wait(done);
  ck_assert_msg(status == NULL, "%s", tflaccel_status_message(status));
  tflaccel_tensor_event_destroy(done);
  tflaccel_tensor_event_destroy(ready);
  ck_assert_ptr_null(tflaccel_tensor_buffer_set_event(fixture.inputs[0], NULL));
  device_fixture_check_output(&fixture, 0, outputs[0][0]);
  /* A synchronous run writes the outputs: their old events go. */
  ck_assert_ptr_null(tflaccel_compiled_model_run(fixture.compiled, fixture.inputs, fixture.input_count,
                                                 outputs[0], fixture.output_count));
  ck_assert_ptr_null(tflaccel_tensor_buffer_get_event(outputs[0][0], &done));
  ck_assert_ptr_null(done);

  /* Device buffers, queued: chained through the buffers' events. */
  tflaccel_tensor_buffer *device_inputs[FIXTURE_MAX_TENSORS], *device_outputs[FIXTURE_MAX_TENSORS];
  device_fixture_make_device_buffers(&fixture, gpu_types[_i], device_inputs, device_outputs);
  for (int f = 0; f < FRAMES; ++f)
    ck_assert_ptr_null(tflaccel_compiled_model_run_async(fixture.compiled, device_inputs,
                                                         fixture.input_count, device_outputs,
                                                         fixture.output_count));
  /* read waits for the output's event */
  for (uint32_t i = 0; i < fixture.output_count; ++i)
    device_fixture_check_output(&fixture, i, device_outputs[i]);
  tflaccel_run_stats stats = {.struct_size = sizeof stats};
  ck_assert_ptr_null(tflaccel_compiled_model_last_run_stats(fixture.compiled, &stats));
  ck_assert_uint_eq(stats.host_copies, 0);
  device_fixture_destroy_buffers(device_inputs, fixture.input_count);
  device_fixture_destroy_buffers(device_outputs, fixture.output_count);
  for (int f = 0; f < FRAMES; ++f) device_fixture_destroy_buffers(outputs[f], fixture.output_count);
  printf("%s: run_async: %d frames queued back to back, outputs equal the host run's\n",
         gpu_plugins[_i], FRAMES);
  device_fixture_close(&fixture);
}
END_TEST

START_TEST(bad_device_buffers_are_refused) {
  device_fixture fixture;
  if (!device_fixture_open(&fixture, gpu_plugins[_i], MODEL)) return;
  int32_t other = gpu_types[(_i + 1) % 3];
  tflaccel_tensor_buffer *buffer = NULL;
  fixture_expect_error(
      tflaccel_compiled_model_create_input_device_buffer(fixture.compiled, 0, other, &buffer), -1,
      "takes host and");
  ck_assert_ptr_null(buffer);
  fixture_expect_error(
      tflaccel_compiled_model_create_input_device_buffer(fixture.compiled, 99, other, &buffer), -1,
      "out of range");
  tflaccel_tensor_buffer *device_input = NULL;
  ck_assert_ptr_null(tflaccel_compiled_model_create_input_device_buffer(fixture.compiled, 0,
                                                                        gpu_types[_i], &device_input));
  tflaccel_native_buffer native = {.struct_size = sizeof native};
  ck_assert_ptr_null(tflaccel_tensor_buffer_native(device_input, &native));
  /* Wrapping: wrong type, size, offset alignment. */
  tflaccel_native_buffer wrong = native;
  wrong.type = other;
  fixture_expect_error(
      tflaccel_compiled_model_wrap_input_buffer(fixture.compiled, 0, &wrong, &buffer), -1,
      "but it is read by");
  wrong = native;
  wrong.size = native.size - 4;
  fixture_expect_error(
      tflaccel_compiled_model_wrap_input_buffer(fixture.compiled, 0, &wrong, &buffer), -1,
      "bytes, the float32 tensor");
  wrong = native;
  wrong.offset = 2;
  fixture_expect_error(
      tflaccel_compiled_model_wrap_input_buffer(fixture.compiled, 0, &wrong, &buffer), -1,
      "is not a multiple of");
  wrong = native;
  wrong.type = TFLACCEL_BUFFER_HOST;
  fixture_expect_error(
      tflaccel_compiled_model_wrap_input_buffer(fixture.compiled, 0, &wrong, &buffer), -1,
      "tflaccel_tensor_buffer_wrap_host");
  /* A dma-buf fd that is none (stdin): the plugin names what it lacks or refuses. */
  wrong = native;
  wrong.type = TFLACCEL_BUFFER_DMABUF;
  wrong.handle = 0;
  tflaccel_status status = tflaccel_compiled_model_wrap_input_buffer(fixture.compiled, 0, &wrong, &buffer);
  ck_assert_ptr_nonnull(status);
  printf("%s: a dma-buf fd that is not one: %s\n", gpu_plugins[_i], tflaccel_status_message(status));
  ck_assert_ptr_null(strchr(tflaccel_status_message(status), '\n'));
  tflaccel_status_free(status);
  ck_assert_ptr_null(buffer);
  /* An input buffer given as an output: another tensor, another shape. */
  tflaccel_tensor_buffer *inputs[FIXTURE_MAX_TENSORS], *outputs[FIXTURE_MAX_TENSORS];
  memcpy(inputs, fixture.inputs, sizeof inputs);
  memcpy(outputs, fixture.outputs, sizeof outputs);
  outputs[0] = device_input;
  fixture_expect_error(tflaccel_compiled_model_run(fixture.compiled, inputs, fixture.input_count,
                                                   outputs, fixture.output_count),
                       -1, "output 0");
  fixture_expect_error(
      tflaccel_compiled_model_run_async(fixture.compiled, inputs, fixture.input_count, outputs,
                                        fixture.output_count),
      -1, "output 0");

  /* A buffer of this plugin's device given to a model that runs on cpu_ref. */
  device_fixture on_cpu;
  ck_assert(device_fixture_open(&on_cpu, "cpu_ref", MODEL));
  tflaccel_buffer_requirements wanted = {.struct_size = sizeof wanted};
  ck_assert_ptr_null(tflaccel_compiled_model_input_buffer_requirements(on_cpu.compiled, 0, &wanted));
  ck_assert_uint_eq(wanted.type_count, 1);
  ck_assert_ptr_null(wanted.accelerator);
  tflaccel_native_device device = {.struct_size = sizeof device};
  fixture_expect_error(tflaccel_compiled_model_native_device(on_cpu.compiled, 0, 0, &device), -1,
                       "host buffers only");
  memcpy(inputs, on_cpu.inputs, sizeof inputs);
  inputs[0] = device_input;
  fixture_expect_error(tflaccel_compiled_model_run(on_cpu.compiled, inputs, on_cpu.input_count,
                                                   on_cpu.outputs, on_cpu.output_count),
                       -1, "it takes host buffers only");
  fixture_expect_error(tflaccel_tensor_buffer_native(on_cpu.inputs[0], &native), -1, "host buffer");
  tflaccel_tensor_buffer_destroy(device_input);
  device_fixture_close(&on_cpu);
  device_fixture_close(&fixture);
}
END_TEST

START_TEST(events_and_locks_check_arguments) {
  fixture_expect_error(tflaccel_tensor_event_wait(NULL), -1, "NULL");
  fixture_expect_error(tflaccel_tensor_event_signal(NULL), -1, "NULL");
  ck_assert_int_eq(tflaccel_tensor_event_is_signaled(NULL), -1);
  tflaccel_tensor_event_destroy(NULL);
  int32_t shape[2] = {2, 3};
  tflaccel_tensor_buffer *buffer = NULL;
  ck_assert_ptr_null(tflaccel_tensor_buffer_create(TFLACCEL_DTYPE_FLOAT32, 2, shape, &buffer));
  void *data = NULL;
  fixture_expect_error(tflaccel_tensor_buffer_lock(buffer, 7, &data), -1, "mode 7");
  ck_assert_ptr_null(tflaccel_tensor_buffer_lock(buffer, TFLACCEL_LOCK_READ_WRITE, &data));
  ck_assert_ptr_eq(data, tflaccel_tensor_buffer_data(buffer));
  ck_assert_ptr_null(tflaccel_tensor_buffer_unlock(buffer));
  ck_assert_int_eq(tflaccel_tensor_buffer_type(buffer), TFLACCEL_BUFFER_HOST);
  tflaccel_tensor_event *event = NULL;
  ck_assert_ptr_null(tflaccel_tensor_buffer_get_event(buffer, &event));
  ck_assert_ptr_null(event);
  /* The buffer keeps its own reference: the application may drop its. */
  ck_assert_ptr_null(tflaccel_tensor_event_create(&event));
  ck_assert_ptr_null(tflaccel_tensor_buffer_set_event(buffer, event));
  tflaccel_tensor_event_destroy(event);
  ck_assert_ptr_null(tflaccel_tensor_buffer_get_event(buffer, &event));
  ck_assert_int_eq(tflaccel_tensor_event_is_signaled(event), 0);
  ck_assert_ptr_null(tflaccel_tensor_event_signal(event));
  tflaccel_tensor_event_destroy(event);
  ck_assert_ptr_null(tflaccel_tensor_buffer_lock(buffer, TFLACCEL_LOCK_READ, &data));
  ck_assert_ptr_null(tflaccel_tensor_buffer_unlock(buffer));
  tflaccel_tensor_buffer_destroy(buffer);
}
END_TEST

int main(void) {
  Suite *suite = suite_create("device_buffers");
  TCase *tcase = tcase_create("device_buffers");
  tcase_set_timeout(tcase, 600);
  tcase_add_loop_test(tcase, device_buffers_run_without_host_copies, 0, 3);
  tcase_add_loop_test(tcase, async_runs_signal_their_outputs, 0, 3);
  tcase_add_loop_test(tcase, bad_device_buffers_are_refused, 0, 3);
  tcase_add_test(tcase, events_and_locks_check_arguments);
  suite_add_tcase(suite, tcase);
  return test_run_suite(suite);
}
