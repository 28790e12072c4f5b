/* The device-buffer tests' fixture (device_buffer_fixture.h). */
#include "config.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/runtime/device_buffer_fixture.h"

void device_fixture_fill(tflaccel_tensor_buffer *buffer, uint32_t seed) {
  void *bytes = NULL;
  tflaccel_status status = tflaccel_tensor_buffer_lock(buffer, TFLACCEL_LOCK_WRITE, &bytes);
  ck_assert_msg(status == NULL, "%s", tflaccel_status_message(status));
  size_t size = tflaccel_tensor_buffer_byte_size(buffer);
  uint32_t state = seed * 2654435761u + 1;
  if (tflaccel_tensor_buffer_dtype(buffer) == TFLACCEL_DTYPE_FLOAT32) {
    float *values = bytes;
    for (size_t i = 0; i < size / sizeof(float); ++i) {
      state = state * 1664525u + 1013904223u;
      values[i] = (float)(state >> 8) / (float)(1u << 23) - 1.0f;
    }
  } else {
    unsigned char *raw = bytes;
    for (size_t i = 0; i < size; ++i) {
      state = state * 1664525u + 1013904223u;
      raw[i] = (unsigned char)(state >> 24);
    }
  }
  ck_assert_ptr_null(tflaccel_tensor_buffer_unlock(buffer));
}

int device_fixture_open(device_fixture *fixture, const char *accelerator, const char *model_file) {
  return device_fixture_open_config(fixture, accelerator, model_file, NULL);
}

int device_fixture_open_config(device_fixture *fixture, const char *accelerator,
                               const char *model_file, const char *config_path) {
  memset(fixture, 0, sizeof *fixture);
  const char *data = getenv("TFLACCEL_TEST_DATA");
  ck_assert_msg(data != NULL, "TFLACCEL_TEST_DATA is not set");
  char path[4096];
  ck_assert_int_lt(snprintf(path, sizeof path, "%s/%s", data, model_file), (int)sizeof path);
  tflaccel_environment_options options = {
      .struct_size = sizeof options,
      .config_path = config_path,
      .accelerators = accelerator,
      .log_level = "error"};
  tflaccel_status status = tflaccel_environment_create(&options, &fixture->environment);
  ck_assert_msg(status == NULL, "%s", tflaccel_status_message(status));
  for (uint32_t p = 0; p < tflaccel_environment_plugin_count(fixture->environment); ++p) {
    tflaccel_plugin_info info = {.struct_size = sizeof info};
    ck_assert_ptr_null(tflaccel_environment_plugin_info(fixture->environment, p, &info));
    if (strcmp(info.name, accelerator) != 0) continue;
    if (!info.available) {
      printf("%s: unavailable, not tested: %s\n", accelerator, info.reason ? info.reason : "");
      tflaccel_environment_destroy(fixture->environment);
      fixture->environment = NULL;
      return 0;
    }
  }
  status = tflaccel_model_load_file(path, &fixture->model);
  ck_assert_msg(status == NULL, "%s", tflaccel_status_message(status));
  status = tflaccel_compiled_model_create(fixture->environment, fixture->model, NULL,
                                          &fixture->compiled);
  ck_assert_msg(status == NULL, "%s: %s", accelerator, tflaccel_status_message(status));
  fixture->input_count = tflaccel_compiled_model_input_count(fixture->compiled);
  fixture->output_count = tflaccel_compiled_model_output_count(fixture->compiled);
  ck_assert_uint_le(fixture->input_count, FIXTURE_MAX_TENSORS);
  ck_assert_uint_le(fixture->output_count, FIXTURE_MAX_TENSORS);
  for (uint32_t i = 0; i < fixture->input_count; ++i) {
    ck_assert_ptr_null(
        tflaccel_compiled_model_create_input_buffer(fixture->compiled, i, &fixture->inputs[i]));
    device_fixture_fill(fixture->inputs[i], i + 1);
  }
  for (uint32_t i = 0; i < fixture->output_count; ++i)
    ck_assert_ptr_null(
        tflaccel_compiled_model_create_output_buffer(fixture->compiled, i, &fixture->outputs[i]));
  status = tflaccel_compiled_model_run(fixture->compiled, fixture->inputs, fixture->input_count,
                                       fixture->outputs, fixture->output_count);
  ck_assert_msg(status == NULL, "%s", tflaccel_status_message(status));
  return 1;
}

void device_fixture_close(device_fixture *fixture) {
  for (uint32_t i = 0; i < fixture->input_count; ++i) tflaccel_tensor_buffer_destroy(fixture->inputs[i]);
  for (uint32_t i = 0; i < fixture->output_count; ++i)
    tflaccel_tensor_buffer_destroy(fixture->outputs[i]);
  tflaccel_compiled_model_destroy(fixture->compiled);
  tflaccel_model_destroy(fixture->model);
  tflaccel_environment_destroy(fixture->environment);
  memset(fixture, 0, sizeof *fixture);
}

void device_fixture_check_output(const device_fixture *fixture, uint32_t index,
                                 tflaccel_tensor_buffer *buffer) {
  size_t size = tflaccel_tensor_buffer_byte_size(buffer);
  ck_assert_uint_eq(size, tflaccel_tensor_buffer_byte_size(fixture->outputs[index]));
  unsigned char *got = malloc(size ? size : 1);
  ck_assert_ptr_nonnull(got);
  tflaccel_status status = tflaccel_tensor_buffer_read(buffer, got, size);
  ck_assert_msg(status == NULL, "%s", tflaccel_status_message(status));
  ck_assert_msg(memcmp(got, tflaccel_tensor_buffer_data(fixture->outputs[index]), size) == 0,
                "output %u differs from the host run's", index);
  free(got);
}

void device_fixture_make_device_buffers(const device_fixture *fixture, int32_t type,
                                        tflaccel_tensor_buffer **inputs,
                                        tflaccel_tensor_buffer **outputs) {
  for (uint32_t i = 0; i < fixture->input_count; ++i) {
    tflaccel_status status =
        tflaccel_compiled_model_create_input_device_buffer(fixture->compiled, i, type, &inputs[i]);
    ck_assert_msg(status == NULL, "%s", tflaccel_status_message(status));
    size_t size = tflaccel_tensor_buffer_byte_size(inputs[i]);
    ck_assert_ptr_null(tflaccel_tensor_buffer_write(
        inputs[i], tflaccel_tensor_buffer_data(fixture->inputs[i]), size));
  }
  for (uint32_t i = 0; i < fixture->output_count; ++i) {
    tflaccel_status status =
        tflaccel_compiled_model_create_output_device_buffer(fixture->compiled, i, type, &outputs[i]);
    ck_assert_msg(status == NULL, "%s", tflaccel_status_message(status));
  }
}

void device_fixture_destroy_buffers(tflaccel_tensor_buffer **buffers, uint32_t count) {
  for (uint32_t i = 0; i < count; ++i) tflaccel_tensor_buffer_destroy(buffers[i]);
}

void fixture_expect_error(tflaccel_status status, int32_t code, const char *fragment) {
  ck_assert_msg(status != NULL, "expected an error containing \"%s\"", fragment);
  const char *message = tflaccel_status_message(status);
  ck_assert_msg(strstr(message, fragment) != NULL, "error \"%s\" lacks \"%s\"", message, fragment);
  ck_assert_msg(strchr(message, '\n') == NULL, "error is not one line: %s", message);
  ck_assert_msg(code == -1 || (int32_t)tflaccel_status_code_of(status) == code,
                "error \"%s\" has code %d, not %d", message, (int)tflaccel_status_code_of(status),
                (int)code);
  tflaccel_status_free(status);
}
