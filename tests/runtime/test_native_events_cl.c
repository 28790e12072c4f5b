/* gpu_cl's native events (tflaccel.h, "Native events"), on hand_recrop
 * from tests/data with device buffers for every input and output (the
 * whole model runs on gpu_cl):
 *   - run_async only queues the work: each output's event is backed by a
 *     cl_event of the accelerator's cl_context, which reaches CL_COMPLETE;
 *     waiting gives exactly the synchronous run's outputs, frame after
 *     frame on the same buffers (ordered on the device);
 *   - the application's cl_event (a user event) wraps as an input's event
 *     and gates the queued run on the device: the output is not written
 *     until clSetUserEventStatus;
 *   - with Vulkan: an exported OPAQUE_FD binary semaphore of the
 *     application's own Vulkan device on the same GPU (matched by
 *     cl_khr_device_uuid), signalled by an empty vkQueueSubmit, wraps as
 *     an input's event (cl_khr_external_semaphore_opaque_fd) and the run
 *     completes with right outputs; a timeline
 *     value is refused (cl_khr_semaphore has none). Where the driver lacks
 *     the extensions (PoCL) the wrap is refused naming the missing one and
 *     the rest says "skipped: ...";
 *   - an output read back to host memory ends on the CPU: a core event;
 *   - bad input (another context's cl_event, an unknown type, a NULL
 *     handle, a type gpu_cl lacks, an unknown accelerator) is refused in
 *     one line naming the problem.
 * When gpu_cl finds no OpenCL driver, each case says so and passes over. */
#include "config.h"

#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <CL/cl_ext.h>
#include <check.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "tests/runtime/device_buffer_fixture.h"
#ifdef TFLACCEL_TEST_VULKAN
#include "tests/runtime/vk_test_semaphore.h"
#endif
#include "tests/support/test_util.h"
#include "tflaccel/tflaccel.h"

#define MODEL "hand_recrop.tflite"

typedef struct cl_setup {
  device_fixture fixture;
  cl_context context;
  tflaccel_tensor_buffer *inputs[FIXTURE_MAX_TENSORS], *outputs[FIXTURE_MAX_TENSORS];
} cl_setup;

/* 0 when gpu_cl is not available here (reported by the fixture). */
static int open_setup(cl_setup *setup) {
  if (!device_fixture_open(&setup->fixture, "gpu_cl", MODEL)) return 0;
  device_fixture *fixture = &setup->fixture;
  tflaccel_native_device device = {.struct_size = sizeof device};
  ck_assert_ptr_null(tflaccel_compiled_model_native_device(fixture->compiled, 0, 0, &device));
  ck_assert_int_eq(device.type, TFLACCEL_BUFFER_OPENCL);
  setup->context = device.cl_context;
  device_fixture_make_device_buffers(fixture, TFLACCEL_BUFFER_OPENCL, setup->inputs, setup->outputs);
  return 1;
}

static void close_setup(cl_setup *setup) {
  device_fixture_destroy_buffers(setup->inputs, setup->fixture.input_count);
  device_fixture_destroy_buffers(setup->outputs, setup->fixture.output_count);
  device_fixture_close(&setup->fixture);
}

/* The cl_event behind output `index`'s event (owned by that event, which
 * the caller destroys). */
static cl_event output_cl_event(const cl_setup *setup, uint32_t index,
                                tflaccel_tensor_event **event) {
  ck_assert_ptr_null(tflaccel_tensor_buffer_get_event(setup->outputs[index], event));
  ck_assert_ptr_nonnull(*event);
  tflaccel_native_event native = {.struct_size = sizeof native};
  tflaccel_status status =
      tflaccel_tensor_event_get_native(*event, TFLACCEL_NATIVE_EVENT_NONE, &native);
  ck_assert_msg(status == NULL, "output %u: %s", index, tflaccel_status_message(status));
  ck_assert_int_eq(native.type, TFLACCEL_NATIVE_EVENT_OPENCL);
  ck_assert_uint_ne(native.handle, 0);
  cl_event cl = (cl_event)(uintptr_t)native.handle;
  cl_context owner = NULL;
  ck_assert_int_eq(clGetEventInfo(cl, CL_EVENT_CONTEXT, sizeof owner, &owner, NULL), CL_SUCCESS);
  ck_assert_ptr_eq(owner, setup->context);
  return cl;
}

static cl_int execution_status(cl_event event) {
  cl_int execution = 0;
  ck_assert_int_eq(clGetEventInfo(event, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof execution,
                                  &execution, NULL),
                   CL_SUCCESS);
  return execution;
}

START_TEST(queued_runs_export_cl_events) {
  cl_setup setup;
  if (!open_setup(&setup)) return;
  device_fixture *fixture = &setup.fixture;
  enum { FRAMES = 3 };
  for (int frame = 0; frame < FRAMES; ++frame) {
    tflaccel_status status = tflaccel_compiled_model_run_async(
        fixture->compiled, setup.inputs, fixture->input_count, setup.outputs, fixture->output_count);
    ck_assert_msg(status == NULL, "%s", tflaccel_status_message(status));
    for (uint32_t o = 0; o < fixture->output_count; ++o) {
      tflaccel_tensor_event *event = NULL;
      cl_event cl = output_cl_event(&setup, o, &event);
      /* The application's own wait on the cl_event, then the core's. */
      ck_assert_int_eq(clWaitForEvents(1, &cl), CL_SUCCESS);
      ck_assert_int_eq(execution_status(cl), CL_COMPLETE);
      ck_assert_int_eq(tflaccel_tensor_event_is_signaled(event), 1);
      status = tflaccel_tensor_event_wait(event);
      ck_assert_msg(status == NULL, "%s", tflaccel_status_message(status));
      /* gpu_cl exports cl_event only. */
      tflaccel_native_event other = {.struct_size = sizeof other};
      fixture_expect_error(
          tflaccel_tensor_event_get_native(event, TFLACCEL_NATIVE_EVENT_SYNC_FILE_FD, &other),
          TFLACCEL_UNSUPPORTED, "cl_khr_external_semaphore_sync_fd");
      fixture_expect_error(
          tflaccel_tensor_event_get_native(event, TFLACCEL_NATIVE_EVENT_VULKAN_FENCE, &other),
          TFLACCEL_UNSUPPORTED, "no VkFence events");
      tflaccel_tensor_event_destroy(event);
      device_fixture_check_output(fixture, o, setup.outputs[o]);
    }
  }
  /* Frames queued back to back on the same buffers, waited on at the end
   * only: ordered on the device. */
  for (int frame = 0; frame < FRAMES; ++frame)
    ck_assert_ptr_null(tflaccel_compiled_model_run_async(fixture->compiled, setup.inputs,
                                                         fixture->input_count, setup.outputs,
                                                         fixture->output_count));
  for (uint32_t o = 0; o < fixture->output_count; ++o) {
    tflaccel_tensor_event *event = NULL;
    (void)output_cl_event(&setup, o, &event);
    tflaccel_status status = tflaccel_tensor_event_wait(event);
    ck_assert_msg(status == NULL, "%s", tflaccel_status_message(status));
    tflaccel_tensor_event_destroy(event);
    device_fixture_check_output(fixture, o, setup.outputs[o]);
  }
  /* An output read back to host memory ends its run on the CPU. */
  tflaccel_tensor_buffer *host_outputs[FIXTURE_MAX_TENSORS];
  for (uint32_t o = 0; o < fixture->output_count; ++o)
    ck_assert_ptr_null(
        tflaccel_compiled_model_create_output_buffer(fixture->compiled, o, &host_outputs[o]));
  ck_assert_ptr_null(tflaccel_compiled_model_run_async(fixture->compiled, setup.inputs,
                                                       fixture->input_count, host_outputs,
                                                       fixture->output_count));
  tflaccel_tensor_event *host_event = NULL;
  ck_assert_ptr_null(tflaccel_tensor_buffer_get_event(host_outputs[0], &host_event));
  tflaccel_native_event native = {.struct_size = sizeof native};
  fixture_expect_error(
      tflaccel_tensor_event_get_native(host_event, TFLACCEL_NATIVE_EVENT_NONE, &native),
      TFLACCEL_UNSUPPORTED, "has no native object");
  ck_assert_ptr_null(tflaccel_tensor_event_wait(host_event));
  tflaccel_tensor_event_destroy(host_event);
  for (uint32_t o = 0; o < fixture->output_count; ++o) {
    device_fixture_check_output(fixture, o, host_outputs[o]);
    tflaccel_tensor_buffer_destroy(host_outputs[o]);
  }
  printf("gpu_cl: run_async queued %d frames on the device; outputs' cl_events reached "
         "CL_COMPLETE; outputs equal the synchronous run's\n",
         2 * FRAMES);
  close_setup(&setup);
}
END_TEST

START_TEST(application_user_event_gates_the_run) {
  cl_setup setup;
  if (!open_setup(&setup)) return;
  device_fixture *fixture = &setup.fixture;
  /* Outputs start from zeros, so a run that went early would show. */
  for (uint32_t o = 0; o < fixture->output_count; ++o) {
    size_t size = tflaccel_tensor_buffer_byte_size(setup.outputs[o]);
    void *zeros = calloc(1, size);
    ck_assert_ptr_nonnull(zeros);
    ck_assert_ptr_null(tflaccel_tensor_buffer_write(setup.outputs[o], zeros, size));
    free(zeros);
  }
  cl_int error = CL_SUCCESS;
  cl_event gate = clCreateUserEvent(setup.context, &error);
  ck_assert_int_eq(error, CL_SUCCESS);
  tflaccel_native_event native = {.struct_size = sizeof native,
                                  .type = TFLACCEL_NATIVE_EVENT_OPENCL,
                                  .handle = (uint64_t)(uintptr_t)gate};
  tflaccel_tensor_event *ready = NULL;
  tflaccel_status status = tflaccel_tensor_event_create_from_native(fixture->environment, "gpu_cl",
                                                                    &native, &ready);
  ck_assert_msg(status == NULL, "%s", tflaccel_status_message(status));
  ck_assert_int_eq(tflaccel_tensor_event_is_signaled(ready), 0);
  /* Its native object is the application's cl_event. */
  tflaccel_native_event back = {.struct_size = sizeof back};
  ck_assert_ptr_null(tflaccel_tensor_event_get_native(ready, TFLACCEL_NATIVE_EVENT_NONE, &back));
  ck_assert_uint_eq(back.handle, native.handle);
  for (uint32_t i = 0; i < fixture->input_count; ++i)
    ck_assert_ptr_null(tflaccel_tensor_buffer_set_event(setup.inputs[i], ready));
  status = tflaccel_compiled_model_run_async(fixture->compiled, setup.inputs, fixture->input_count,
                                             setup.outputs, fixture->output_count);
  ck_assert_msg(status == NULL, "%s", tflaccel_status_message(status));
  /* Queued on the device behind the gate: the output's cl_event exists
   * (the queue's thread did not wait for the gate) and has not run. */
  tflaccel_tensor_event *done = NULL;
  cl_event output = output_cl_event(&setup, 0, &done);
  struct timespec pause = {0, 100 * 1000 * 1000};
  nanosleep(&pause, NULL);
  ck_assert_int_ne(execution_status(output), CL_COMPLETE);
  ck_assert_int_eq(tflaccel_tensor_event_is_signaled(done), 0);
  ck_assert_int_eq(clSetUserEventStatus(gate, CL_COMPLETE), CL_SUCCESS);
  status = tflaccel_tensor_event_wait(done);
  ck_assert_msg(status == NULL, "%s", tflaccel_status_message(status));
  ck_assert_int_eq(execution_status(output), CL_COMPLETE);
  ck_assert_int_eq(tflaccel_tensor_event_is_signaled(ready), 1);
  tflaccel_tensor_event_destroy(done);
  for (uint32_t o = 0; o < fixture->output_count; ++o)
    device_fixture_check_output(fixture, o, setup.outputs[o]);
  /* A synchronous run waits for a wrapped event too (signalled by now). */
  status = tflaccel_compiled_model_run(fixture->compiled, setup.inputs, fixture->input_count,
                                       setup.outputs, fixture->output_count);
  ck_assert_msg(status == NULL, "%s", tflaccel_status_message(status));
  for (uint32_t i = 0; i < fixture->input_count; ++i)
    ck_assert_ptr_null(tflaccel_tensor_buffer_set_event(setup.inputs[i], NULL));
  tflaccel_tensor_event_destroy(ready);
  /* The wrapped event retained the cl_event: the application's own
   * reference is still its to release. */
  ck_assert_int_eq(clReleaseEvent(gate), CL_SUCCESS);
  printf("gpu_cl: an application's user cl_event gated a queued run on the device\n");
  close_setup(&setup);
}
END_TEST

/* Whether the accelerator's device lists the OpenCL extension. */
static int device_has_extension(const cl_setup *setup, const char *name) {
  cl_device_id device = NULL;
  ck_assert_int_eq(
      clGetContextInfo(setup->context, CL_CONTEXT_DEVICES, sizeof device, &device, NULL), CL_SUCCESS);
  size_t size = 0;
  ck_assert_int_eq(clGetDeviceInfo(device, CL_DEVICE_EXTENSIONS, 0, NULL, &size), CL_SUCCESS);
  char *list = calloc(1, size + 1);
  ck_assert_ptr_nonnull(list);
  ck_assert_int_eq(clGetDeviceInfo(device, CL_DEVICE_EXTENSIONS, size, list, NULL), CL_SUCCESS);
  size_t length = strlen(name);
  int found = 0;
  for (const char *at = strstr(list, name); at != NULL && !found; at = strstr(at + 1, name))
    found = (at == list || at[-1] == ' ') && (at[length] == ' ' || at[length] == '\0');
  free(list);
  return found;
}

static tflaccel_status wrap_fd(const cl_setup *setup, int fd, uint64_t value,
                               tflaccel_tensor_event **event) {
  tflaccel_native_event native = {.struct_size = sizeof native,
                                  .type = TFLACCEL_NATIVE_EVENT_OPAQUE_FD,
                                  .handle = (uint64_t)fd,
                                  .value = value};
  return tflaccel_tensor_event_create_from_native(setup->fixture.environment, "gpu_cl", &native,
                                                  event);
}

START_TEST(application_semaphore_fd_gates_the_run) {
  cl_setup setup;
  if (!open_setup(&setup)) return;
  device_fixture *fixture = &setup.fixture;
  tflaccel_tensor_event *ready = NULL;
  int null_fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
  ck_assert_int_ge(null_fd, 0);
  fixture_expect_error(wrap_fd(&setup, null_fd, 1, &ready), TFLACCEL_UNSUPPORTED,
                       "cl_khr_semaphore has no timeline semaphores");
  if (!device_has_extension(&setup, "cl_khr_external_semaphore_opaque_fd") ||
      !device_has_extension(&setup, "cl_khr_semaphore")) {
    fixture_expect_error(wrap_fd(&setup, null_fd, 0, &ready), TFLACCEL_UNSUPPORTED,
                         "no opaque semaphore fd events: the OpenCL driver lacks cl_khr_");
    ck_assert_int_eq(close(null_fd), 0); /* still the test's */
    printf("gpu_cl: skipped: cl_khr_external_semaphore_opaque_fd not offered by the OpenCL "
           "driver (wrapping an opaque fd refused naming it; a timeline value refused)\n");
    close_setup(&setup);
    return;
  }
  ck_assert_int_eq(close(null_fd), 0);
#ifdef TFLACCEL_TEST_VULKAN
  if (!device_has_extension(&setup, "cl_khr_device_uuid")) {
    printf("gpu_cl: skipped: cl_khr_device_uuid not offered by the OpenCL driver (no Vulkan "
           "device to match)\n");
    close_setup(&setup);
    return;
  }
  cl_device_id device = NULL;
  ck_assert_int_eq(
      clGetContextInfo(setup.context, CL_CONTEXT_DEVICES, sizeof device, &device, NULL), CL_SUCCESS);
  uint8_t uuid[CL_UUID_SIZE_KHR] = {0};
  ck_assert_int_eq(clGetDeviceInfo(device, CL_DEVICE_UUID_KHR, sizeof uuid, uuid, NULL), CL_SUCCESS);
  vk_test_semaphore semaphore;
  char why[256];
  if (!vk_test_semaphore_open(&semaphore, uuid, 0, why, sizeof why)) {
    printf("gpu_cl: skipped: %s\n", why);
    close_setup(&setup);
    return;
  }
  /* Signalled first: gpu_cl queues the wait when it wraps the fd, and a
   * binary semaphore's wait must come after its signal was submitted. */
  int fd = vk_test_semaphore_export(&semaphore);
  vk_test_semaphore_signal(&semaphore, 1);
  tflaccel_status status = wrap_fd(&setup, fd, 0, &ready);
  ck_assert_msg(status == NULL, "%s", tflaccel_status_message(status));
  ck_assert_int_eq(close(fd), 0); /* gpu_cl imported its own copy */
  for (uint32_t i = 0; i < fixture->input_count; ++i)
    ck_assert_ptr_null(tflaccel_tensor_buffer_set_event(setup.inputs[i], ready));
  status = tflaccel_compiled_model_run_async(fixture->compiled, setup.inputs, fixture->input_count,
                                             setup.outputs, fixture->output_count);
  ck_assert_msg(status == NULL, "%s", tflaccel_status_message(status));
  tflaccel_tensor_event *done = NULL;
  (void)output_cl_event(&setup, 0, &done);
  status = tflaccel_tensor_event_wait(done);
  ck_assert_msg(status == NULL, "%s", tflaccel_status_message(status));
  tflaccel_tensor_event_destroy(done);
  for (uint32_t o = 0; o < fixture->output_count; ++o)
    device_fixture_check_output(fixture, o, setup.outputs[o]);
  /* The wrapped event: the semaphore wait's cl_event, complete by now. */
  status = tflaccel_tensor_event_wait(ready);
  ck_assert_msg(status == NULL, "%s", tflaccel_status_message(status));
  ck_assert_int_eq(tflaccel_tensor_event_is_signaled(ready), 1);
  for (uint32_t i = 0; i < fixture->input_count; ++i)
    ck_assert_ptr_null(tflaccel_tensor_buffer_set_event(setup.inputs[i], NULL));
  tflaccel_tensor_event_destroy(ready);
  vk_test_semaphore_close(&semaphore);
  printf("gpu_cl: a binary Vulkan semaphore's opaque fd gated a queued run on the device\n");
#else
  printf("gpu_cl: skipped: built without Vulkan, no semaphore to export\n");
#endif
  close_setup(&setup);
}
END_TEST

START_TEST(bad_native_events_are_refused) {
  cl_setup setup;
  if (!open_setup(&setup)) return;
  tflaccel_environment *environment = setup.fixture.environment;
  tflaccel_tensor_event *event = NULL;
  tflaccel_native_event native = {.struct_size = sizeof native,
                                  .type = TFLACCEL_NATIVE_EVENT_OPENCL,
                                  .handle = 0};
  fixture_expect_error(
      tflaccel_tensor_event_create_from_native(environment, "gpu_cl", &native, &event),
      TFLACCEL_INVALID_ARGUMENT, "NULL cl_event");
  ck_assert_ptr_null(event);
  native.type = 99;
  native.handle = 1;
  fixture_expect_error(
      tflaccel_tensor_event_create_from_native(environment, "gpu_cl", &native, &event),
      TFLACCEL_INVALID_ARGUMENT, "unknown native event type 99");
  native.type = TFLACCEL_NATIVE_EVENT_VULKAN_FENCE;
  fixture_expect_error(
      tflaccel_tensor_event_create_from_native(environment, "gpu_cl", &native, &event),
      TFLACCEL_UNSUPPORTED, "no VkFence events");
  native.type = TFLACCEL_NATIVE_EVENT_SYNC_FILE_FD;
  fixture_expect_error(
      tflaccel_tensor_event_create_from_native(environment, "gpu_cl", &native, &event),
      TFLACCEL_UNSUPPORTED, "cl_khr_external_semaphore_sync_fd");
  native.struct_size = 8;
  native.type = TFLACCEL_NATIVE_EVENT_OPENCL;
  fixture_expect_error(
      tflaccel_tensor_event_create_from_native(environment, "gpu_cl", &native, &event),
      TFLACCEL_INVALID_ARGUMENT, "struct_size 8 is too small");
  native.struct_size = sizeof native;
  fixture_expect_error(
      tflaccel_tensor_event_create_from_native(environment, "no_such_plugin", &native, &event),
      TFLACCEL_INVALID_ARGUMENT, "no accelerator named 'no_such_plugin'");
  fixture_expect_error(
      tflaccel_tensor_event_create_from_native(environment, "gpu_cl", NULL, &event),
      TFLACCEL_INVALID_ARGUMENT, "NULL argument");
  /* A cl_event of another cl_context on the same device. */
  cl_device_id device = NULL;
  ck_assert_int_eq(
      clGetContextInfo(setup.context, CL_CONTEXT_DEVICES, sizeof device, &device, NULL), CL_SUCCESS);
  cl_int error = CL_SUCCESS;
  cl_context other = clCreateContext(NULL, 1, &device, NULL, NULL, &error);
  ck_assert_int_eq(error, CL_SUCCESS);
  cl_event foreign = clCreateUserEvent(other, &error);
  ck_assert_int_eq(error, CL_SUCCESS);
  native.handle = (uint64_t)(uintptr_t)foreign;
  fixture_expect_error(
      tflaccel_tensor_event_create_from_native(environment, "gpu_cl", &native, &event),
      TFLACCEL_INVALID_ARGUMENT, "another cl_context");
  ck_assert_ptr_null(event);
  ck_assert_int_eq(clSetUserEventStatus(foreign, CL_COMPLETE), CL_SUCCESS);
  ck_assert_int_eq(clReleaseEvent(foreign), CL_SUCCESS);
  ck_assert_int_eq(clReleaseContext(other), CL_SUCCESS);
  /* The core's own events have no native object. */
  ck_assert_ptr_null(tflaccel_tensor_event_create(&event));
  ck_assert_ptr_null(tflaccel_tensor_event_signal(event));
  fixture_expect_error(tflaccel_tensor_event_get_native(event, TFLACCEL_NATIVE_EVENT_NONE, &native),
                       TFLACCEL_UNSUPPORTED, "has no native object");
  fixture_expect_error(tflaccel_tensor_event_get_native(NULL, TFLACCEL_NATIVE_EVENT_NONE, &native),
                       TFLACCEL_INVALID_ARGUMENT, "NULL argument");
  tflaccel_tensor_event_destroy(event);
  printf("gpu_cl: bad native events refused in one line\n");
  close_setup(&setup);
}
END_TEST

int main(void) {
  Suite *suite = suite_create("native_events_cl");
  TCase *tcase = tcase_create("native_events_cl");
  tcase_set_timeout(tcase, 600);
  tcase_add_test(tcase, queued_runs_export_cl_events);
  tcase_add_test(tcase, application_user_event_gates_the_run);
  tcase_add_test(tcase, application_semaphore_fd_gates_the_run);
  tcase_add_test(tcase, bad_native_events_are_refused);
  suite_add_tcase(suite, tcase);
  return test_run_suite(suite);
}
