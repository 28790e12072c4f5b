/* --io=device and --async (bench_device_io.h). */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tools/tflaccel/bench_clock.h"
#include "tools/tflaccel/bench_device_io.h"
#include "tools/tflaccel/cli_options.h"

int bench_match_io(const char *command, int argc, char **argv, int *index, int *device) {
  const char *value = NULL;
  int match = cli_match_value(command, argc, argv, index, "--io", &value);
  if (match <= 0) return match;
  if (strcmp(value, "host") == 0) {
    *device = 0;
  } else if (strcmp(value, "device") == 0) {
    *device = 1;
  } else {
    fprintf(stderr, "%s: --io must be host or device, not '%s'\n", command, value);
    return -1;
  }
  return 1;
}

static tflaccel_status to_device(const tflaccel_compiled_model *compiled, int is_output,
                                 uint32_t index, tflaccel_tensor_buffer **buffer, char *what,
                                 size_t what_size) {
  tflaccel_buffer_requirements wanted = {.struct_size = sizeof wanted};
  tflaccel_status status =
      is_output ? tflaccel_compiled_model_output_buffer_requirements(compiled, index, &wanted)
                : tflaccel_compiled_model_input_buffer_requirements(compiled, index, &wanted);
  if (status != NULL) return status;
  if (wanted.type_count < 2) {
    tflaccel_tensor_info info = {.struct_size = sizeof info};
    status = is_output ? tflaccel_compiled_model_output_info(compiled, index, &info)
                       : tflaccel_compiled_model_input_info(compiled, index, &info);
    tflaccel_status_free(status);
    return tflaccel_status_make(TFLACCEL_UNSUPPORTED,
                                "--io=device: %s %u (%s) takes host buffers only (no accelerator's "
                                "device alone %s it)",
                                is_output ? "output" : "input", index,
                                status == NULL ? info.name : "?", is_output ? "writes" : "reads");
  }
  tflaccel_tensor_buffer *device = NULL;
  status = is_output
               ? tflaccel_compiled_model_create_output_device_buffer(compiled, index, wanted.types[1], &device)
               : tflaccel_compiled_model_create_input_device_buffer(compiled, index, wanted.types[1], &device);
  if (status != NULL) return status;
  if (!is_output) {
    status = tflaccel_tensor_buffer_write(device, tflaccel_tensor_buffer_data(*buffer),
                                          tflaccel_tensor_buffer_byte_size(*buffer));
    if (status != NULL) {
      tflaccel_tensor_buffer_destroy(device);
      return status;
    }
  }
  if (what != NULL) snprintf(what, what_size, "%s %s", wanted.accelerator, tflaccel_buffer_type_name(wanted.types[1]));
  tflaccel_tensor_buffer_destroy(*buffer);
  *buffer = device;
  return NULL;
}

tflaccel_status bench_buffers_to_device(const tflaccel_compiled_model *compiled,
                                        model_buffers *buffers, char *what, size_t what_size) {
  tflaccel_status status = NULL;
  for (uint32_t i = 0; status == NULL && i < buffers->input_count; ++i)
    status = to_device(compiled, 0, i, &buffers->inputs[i], what, what_size);
  for (uint32_t i = 0; status == NULL && i < buffers->output_count; ++i)
    status = to_device(compiled, 1, i, &buffers->outputs[i], what, what_size);
  return status;
}

tflaccel_status bench_outputs_to_host(const model_buffers *buffers,
                                      tflaccel_tensor_buffer ***host_outputs) {
  *host_outputs = calloc(buffers->output_count + 1, sizeof **host_outputs);
  if (*host_outputs == NULL) return tflaccel_status_make(TFLACCEL_OUT_OF_MEMORY, "out of memory");
  tflaccel_status status = NULL;
  for (uint32_t i = 0; status == NULL && i < buffers->output_count; ++i) {
    const tflaccel_tensor_buffer *source = buffers->outputs[i];
    status = tflaccel_tensor_buffer_create(tflaccel_tensor_buffer_dtype(source),
                                           tflaccel_tensor_buffer_rank(source),
                                           tflaccel_tensor_buffer_shape(source), &(*host_outputs)[i]);
    if (status == NULL)
      status = tflaccel_tensor_buffer_read(source, tflaccel_tensor_buffer_data((*host_outputs)[i]),
                                           tflaccel_tensor_buffer_byte_size(source));
  }
  if (status != NULL) {
    for (uint32_t i = 0; i < buffers->output_count; ++i) tflaccel_tensor_buffer_destroy((*host_outputs)[i]);
    free(*host_outputs);
    *host_outputs = NULL;
  }
  return status;
}

void bench_cpu_work(double microseconds) {
  if (microseconds <= 0) return;
  int64_t end = bench_clock_microseconds() + (int64_t)microseconds;
  volatile uint64_t sink = 0;
  while (bench_clock_microseconds() < end)
    for (int i = 0; i < 1000; ++i) sink += (uint64_t)i * 2654435761u;
}

static tflaccel_status wait_events(tflaccel_tensor_event **events, uint32_t count) {
  tflaccel_status status = NULL;
  for (uint32_t i = 0; i < count; ++i) {
    if (events[i] == NULL) continue;
    tflaccel_status waited = tflaccel_tensor_event_wait(events[i]);
    if (status == NULL) status = waited;
    else tflaccel_status_free(waited);
    tflaccel_tensor_event_destroy(events[i]);
    events[i] = NULL;
  }
  return status;
}

tflaccel_status bench_async_frame(tflaccel_compiled_model *compiled, const model_buffers *buffers,
                                  double cpu_work_us, tflaccel_tensor_event **pending, int finish) {
  uint32_t count = buffers->output_count;
  if (count > BENCH_ASYNC_MAX_OUTPUTS)
    return tflaccel_status_make(TFLACCEL_UNSUPPORTED, "--async: at most %d outputs (the model has %u)",
                                BENCH_ASYNC_MAX_OUTPUTS, count);
  if (finish) return wait_events(pending, count);
  tflaccel_status status = tflaccel_compiled_model_run_async(
      compiled, buffers->inputs, buffers->input_count, buffers->outputs, count);
  if (status != NULL) return status;
  tflaccel_tensor_event *current[BENCH_ASYNC_MAX_OUTPUTS] = {0};
  for (uint32_t i = 0; i < count && status == NULL; ++i)
    status = tflaccel_tensor_buffer_get_event(buffers->outputs[i], &current[i]);
  bench_cpu_work(cpu_work_us);
  tflaccel_status waited = wait_events(pending, count);
  for (uint32_t i = 0; i < count; ++i) pending[i] = current[i];
  if (status == NULL) status = waited;
  else tflaccel_status_free(waited);
  return status;
}
