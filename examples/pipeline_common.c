/* The device-pipeline examples' shared part (pipeline_common.h). */
#include "examples/pipeline_common.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int pipeline_fail(const pipeline *self, const char *what, tflaccel_status status) {
  fprintf(stderr, "%s: %s: %s\n", self->name, what, status ? tflaccel_status_message(status) : "failed");
  tflaccel_status_free(status);
  return 1;
}

/* 77 with the reason when the accelerator has no usable device here. */
static int check_available(pipeline *self) {
  uint32_t count = tflaccel_environment_plugin_count(self->environment);
  for (uint32_t i = 0; i < count; ++i) {
    tflaccel_plugin_info info = {.struct_size = sizeof info};
    tflaccel_status status = tflaccel_environment_plugin_info(self->environment, i, &info);
    if (status != NULL) return pipeline_fail(self, "plugin info", status);
    if (strcmp(info.name, self->accelerator) != 0) continue;
    if (info.available) return 0;
    printf("%s: %s is not available here (%s): skipped\n", self->name, self->accelerator,
           info.reason ? info.reason : "no device");
    return 77;
  }
  printf("%s: %s is not configured here: skipped\n", self->name, self->accelerator);
  return 77;
}

int pipeline_open(pipeline *self, const char *name, const char *accelerator, int32_t buffer_type,
                  int argc, char **argv) {
  memset(self, 0, sizeof *self);
  self->name = name;
  self->accelerator = accelerator;
  if (argc > 2) {
    fprintf(stderr, "usage: %s [MODEL]\n", name);
    return 1;
  }
  char default_model[4096];
  const char *model_path = argc > 1 ? argv[1] : NULL;
  if (model_path == NULL) {
    const char *data = getenv("TFLACCEL_TEST_DATA");
    snprintf(default_model, sizeof default_model, "%s/selfie_segmentation.tflite", data ? data : ".");
    model_path = default_model;
  }
  tflaccel_environment_options options = {
      .struct_size = sizeof options, .accelerators = accelerator, .log_level = "error"};
  tflaccel_status status = tflaccel_environment_create(&options, &self->environment);
  if (status != NULL) return pipeline_fail(self, "environment", status);
  int available = check_available(self);
  if (available != 0) return available;
  if ((status = tflaccel_model_load_file(model_path, &self->model)) != NULL)
    return pipeline_fail(self, "model", status);
  if ((status = tflaccel_compiled_model_create(self->environment, self->model, NULL,
                                               &self->compiled)) != NULL)
    return pipeline_fail(self, "compile", status);
  tflaccel_buffer_requirements in_wanted = {.struct_size = sizeof in_wanted};
  tflaccel_buffer_requirements out_wanted = {.struct_size = sizeof out_wanted};
  if ((status = tflaccel_compiled_model_input_buffer_requirements(self->compiled, 0, &in_wanted)) !=
          NULL ||
      (status = tflaccel_compiled_model_output_buffer_requirements(self->compiled, 0, &out_wanted)) !=
          NULL)
    return pipeline_fail(self, "requirements", status);
  if (in_wanted.type_count < 2 || in_wanted.types[1] != buffer_type) {
    printf("%s: %s does not read this model's input from its own buffers here: skipped\n", name,
           accelerator);
    return 77;
  }
  if (in_wanted.size != (size_t)PIPELINE_SIDE * PIPELINE_SIDE * 3 * sizeof(float)) {
    fprintf(stderr, "%s: the model's input is not %d x %d x 3 floats\n", name, PIPELINE_SIDE,
            PIPELINE_SIDE);
    return 1;
  }
  self->input_bytes = in_wanted.size;
  self->output_bytes = out_wanted.size;
  self->device.struct_size = sizeof self->device;
  if ((status = tflaccel_compiled_model_native_device(self->compiled, 0, 0, &self->device)) != NULL)
    return pipeline_fail(self, "native device", status);
  return 0;
}

void pipeline_close(pipeline *self) {
  tflaccel_compiled_model_destroy(self->compiled);
  tflaccel_model_destroy(self->model);
  tflaccel_environment_destroy(self->environment);
  self->compiled = NULL;
  self->model = NULL;
  self->environment = NULL;
}

int pipeline_run_wrapped(pipeline *self, const tflaccel_native_buffer *image,
                         const tflaccel_native_buffer *mask, uint32_t *host_copies) {
  tflaccel_tensor_buffer *input = NULL, *output = NULL;
  tflaccel_status status = tflaccel_compiled_model_wrap_input_buffer(self->compiled, 0, image, &input);
  if (status == NULL)
    status = tflaccel_compiled_model_wrap_output_buffer(self->compiled, 0, mask, &output);
  const char *what = "wrapping the buffers";
  if (status == NULL) {
    what = "run";
    status = tflaccel_compiled_model_run(self->compiled, &input, 1, &output, 1);
  }
  tflaccel_run_stats stats = {.struct_size = sizeof stats};
  if (status == NULL) {
    what = "stats";
    status = tflaccel_compiled_model_last_run_stats(self->compiled, &stats);
  }
  tflaccel_tensor_buffer_destroy(input);
  tflaccel_tensor_buffer_destroy(output);
  if (status != NULL) return pipeline_fail(self, what, status);
  *host_copies = stats.host_copies;
  return 0;
}

/* Pixel (x, y), channel c, in [0, 1]: a smooth pattern with a bright disc;
 * each example's first kernel draws the same. */
static void draw_on_cpu(float *pixels) {
  const int side = PIPELINE_SIDE;
  for (int i = 0; i < side * side * 3; ++i) {
    int c = i % 3, x = (i / 3) % side, y = i / (3 * side);
    float u = (float)x / side, v = (float)y / side;
    float disc = (u - 0.5f) * (u - 0.5f) + (v - 0.45f) * (v - 0.45f) < 0.06f ? 0.8f : 0.0f;
    float value = 0.1f + 0.3f * u + 0.2f * v * (float)c + disc;
    pixels[i] = value < 0.0f ? 0.0f : value > 1.0f ? 1.0f : value;
  }
}

int pipeline_check(pipeline *self, float device_sum, uint32_t device_copies) {
  tflaccel_tensor_buffer *host_input = NULL, *host_output = NULL;
  tflaccel_run_stats stats = {.struct_size = sizeof stats};
  const char *what = "host buffers";
  tflaccel_status status = tflaccel_compiled_model_create_input_buffer(self->compiled, 0, &host_input);
  if (status == NULL)
    status = tflaccel_compiled_model_create_output_buffer(self->compiled, 0, &host_output);
  if (status == NULL) {
    what = "host run";
    draw_on_cpu(tflaccel_tensor_buffer_data(host_input));
    status = tflaccel_compiled_model_run(self->compiled, &host_input, 1, &host_output, 1);
  }
  if (status == NULL) {
    what = "stats";
    status = tflaccel_compiled_model_last_run_stats(self->compiled, &stats);
  }
  if (status != NULL) {
    tflaccel_tensor_buffer_destroy(host_input);
    tflaccel_tensor_buffer_destroy(host_output);
    return pipeline_fail(self, what, status);
  }
  const float *values = tflaccel_tensor_buffer_data(host_output);
  double host_sum = 0.0;
  for (size_t i = 0; i < self->output_bytes / sizeof(float); ++i) host_sum += values[i];
  tflaccel_tensor_buffer_destroy(host_input);
  tflaccel_tensor_buffer_destroy(host_output);
  int ok = device_copies == 0 && fabs(host_sum - device_sum) <= 1e-3 * (fabs(host_sum) + 1.0);
  printf("%s: mask sum %.4f on the device pipeline (%u host copies in the run), %.4f with host "
         "buffers (%u host copies): %s\n",
         self->name, device_sum, device_copies, host_sum, stats.host_copies,
         ok ? "agree" : "DIFFER");
  return ok ? 0 : 1;
}
