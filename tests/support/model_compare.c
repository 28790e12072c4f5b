#include "config.h"

#include "tests/support/model_compare.h"

#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tflaccel/tflaccel.h"

void *model_compare_read_file(const char *path, size_t *size) {
  FILE *file = fopen(path, "rb");
  if (file == NULL) return NULL;
  long length = -1;
  if (fseek(file, 0, SEEK_END) == 0) length = ftell(file);
  void *data = NULL;
  if (length >= 0 && fseek(file, 0, SEEK_SET) == 0) {
    data = malloc(length > 0 ? (size_t)length : 1);
    if (data != NULL && fread(data, 1, (size_t)length, file) != (size_t)length) {
      free(data);
      data = NULL;
    }
  }
  fclose(file);
  *size = data != NULL ? (size_t)length : 0;
  return data;
}

double model_compare_value_at(const void *data, int32_t dtype, size_t index) {
  switch (dtype) {
  case TFLACCEL_DTYPE_FLOAT32: return ((const float *)data)[index];
  case TFLACCEL_DTYPE_INT32: return ((const int32_t *)data)[index];
  case TFLACCEL_DTYPE_INT64: return (double)((const int64_t *)data)[index];
  case TFLACCEL_DTYPE_UINT8: return ((const uint8_t *)data)[index];
  case TFLACCEL_DTYPE_INT8: return ((const int8_t *)data)[index];
  case TFLACCEL_DTYPE_INT16: return ((const int16_t *)data)[index];
  case TFLACCEL_DTYPE_BOOL: return ((const uint8_t *)data)[index];
  default: return NAN;
  }
}

/* A number member of the tolerance; 0 with a message in why when absent. */
static int tolerance_number(const json_value *tolerance, const char *key, double *out, char *why,
                            size_t why_size) {
  const json_value *value = json_get(tolerance, key);
  if (value == NULL || value->kind != JSON_NUMBER) {
    snprintf(why, why_size, "the tolerance has no number %s", key);
    return 0;
  }
  *out = value->number;
  return 1;
}

static const char *compare_float(const json_value *tolerance, const char *rtol_key, int32_t dtype,
                                 const void *ours, const void *reference, size_t count, char *why,
                                 size_t why_size) {
  double scale = 1.0, worst = 0.0;
  for (size_t i = 0; i < count; ++i) {
    double r = fabs(model_compare_value_at(reference, dtype, i));
    if (r > scale) scale = r;
  }
  for (size_t i = 0; i < count; ++i) {
    double o = model_compare_value_at(ours, dtype, i);
    if (!isfinite(o)) {
      snprintf(why, why_size, "element %zu is %g", i, o);
      return why;
    }
    double error = fabs(o - model_compare_value_at(reference, dtype, i));
    if (error > worst) worst = error;
  }
  double rtol;
  if (!tolerance_number(tolerance, rtol_key, &rtol, why, why_size)) return why;
  if (worst > rtol * scale) {
    snprintf(why, why_size, "max error %.3g > %.3g (rtol %.1e x scale %.3g)", worst, rtol * scale,
             rtol, scale);
    return why;
  }
  return NULL;
}

static const char *compare_quantized(const json_value *tolerance, int32_t dtype, const void *ours,
                                     const void *reference, size_t count, char *why,
                                     size_t why_size) {
  double max_lsb, worst = 0.0;
  if (!tolerance_number(tolerance, "max_lsb", &max_lsb, why, why_size)) return why;
  size_t worst_index = 0, off = 0;
  for (size_t i = 0; i < count; ++i) {
    double error =
        fabs(model_compare_value_at(ours, dtype, i) - model_compare_value_at(reference, dtype, i));
    if (error > max_lsb) ++off;
    if (error > worst) {
      worst = error;
      worst_index = i;
    }
  }
  if (worst > max_lsb) {
    snprintf(why, why_size, "%zu of %zu elements off by more than %g LSB (worst %g at %zu)", off,
             count, max_lsb, worst, worst_index);
    return why;
  }
  return NULL;
}

static const char *compare_index(const json_value *tolerance, int32_t dtype, const void *ours,
                                 const void *reference, size_t count, char *why,
                                 size_t why_size) {
  double minimum;
  if (!tolerance_number(tolerance, "min_identical_fraction", &minimum, why, why_size)) return why;
  size_t same = 0;
  for (size_t i = 0; i < count; ++i)
    same += model_compare_value_at(ours, dtype, i) == model_compare_value_at(reference, dtype, i);
  double fraction = count ? (double)same / (double)count : 1.0;
  if (fraction < minimum) {
    snprintf(why, why_size, "%.4f identical < %.4f", fraction, minimum);
    return why;
  }
  return NULL;
}

const char *model_compare_output(const json_value *tolerance, const char *rtol_key, int32_t dtype,
                                 const void *ours, const void *reference, size_t count, char *why,
                                 size_t why_size) {
  const json_value *kind = json_get(tolerance, "kind");
  if (kind == NULL || kind->kind != JSON_STRING) {
    snprintf(why, why_size, "the tolerance names no kind");
    return why;
  }
  if (!strcmp(kind->string, "float"))
    return compare_float(tolerance, rtol_key, dtype, ours, reference, count, why, why_size);
  if (!strcmp(kind->string, "quantized"))
    return compare_quantized(tolerance, dtype, ours, reference, count, why, why_size);
  if (!strcmp(kind->string, "index"))
    return compare_index(tolerance, dtype, ours, reference, count, why, why_size);
  snprintf(why, why_size, "unknown tolerance kind %s", kind->string);
  return why;
}

int model_compare_accelerator_available(const char *name) {
  char accelerators[128];
  snprintf(accelerators, sizeof accelerators, "%s,cpu_ref", name);
  tflaccel_environment_options options = {
      .struct_size = sizeof options, .accelerators = accelerators, .log_level = "error"};
  tflaccel_environment *environment = NULL;
  tflaccel_status status = tflaccel_environment_create(&options, &environment);
  if (status != NULL) {
    fprintf(stderr, "environment: %s\n", tflaccel_status_message(status));
    tflaccel_status_free(status);
    return 0;
  }
  int available = 0;
  for (uint32_t i = 0; i < tflaccel_environment_plugin_count(environment); ++i) {
    tflaccel_plugin_info info = {.struct_size = sizeof info};
    if (tflaccel_environment_plugin_info(environment, i, &info) != NULL) continue;
    if (!strcmp(info.name, name)) {
      available = info.available;
      if (!available)
        printf("SKIP: %s: %s\n", info.name, info.reason ? info.reason : "unavailable");
    }
  }
  tflaccel_environment_destroy(environment);
  return available;
}

void model_compare_fill_inputs(tflaccel_compiled_model *compiled, const char *data_dir,
                               const char *model, tflaccel_tensor_buffer **inputs,
                               uint32_t count) {
  for (uint32_t i = 0; i < count; ++i) {
    ck_assert_ptr_null(tflaccel_compiled_model_create_input_buffer(compiled, i, &inputs[i]));
    char path[4096];
    ck_assert_msg(snprintf(path, sizeof path, "%s/ref/%s/input_%u.bin", data_dir, model, i) <
                      (int)sizeof path,
                  "path too long");
    size_t size = 0;
    void *bytes = model_compare_read_file(path, &size);
    ck_assert_msg(bytes != NULL, "cannot read %s", path);
    tflaccel_status status = tflaccel_tensor_buffer_write(inputs[i], bytes, size);
    ck_assert_msg(status == NULL, "%s: %s", path, tflaccel_status_message(status));
    free(bytes);
  }
}

void model_compare_session_open(model_compare_session *session, const char *config_path,
                                const char *accelerator, const char *log_level,
                                const char *data_dir, const char *model, int32_t precision,
                                const char *label) {
  memset(session, 0, sizeof *session);
  char accelerators[128], path[4096];
  ck_assert_int_lt(snprintf(accelerators, sizeof accelerators, "%s,cpu_ref", accelerator),
                   (int)sizeof accelerators);
  tflaccel_environment_options environment_options = {.struct_size = sizeof environment_options,
                                                      .config_path = config_path,
                                                      .accelerators = accelerators,
                                                      .log_level = log_level};
  tflaccel_status status = tflaccel_environment_create(&environment_options, &session->environment);
  ck_assert_msg(status == NULL, "%s", tflaccel_status_message(status));
  ck_assert_int_lt(snprintf(path, sizeof path, "%s/%s.tflite", data_dir, model), (int)sizeof path);
  status = tflaccel_model_load_file(path, &session->model);
  ck_assert_msg(status == NULL, "%s", tflaccel_status_message(status));
  tflaccel_compilation_options options;
  tflaccel_compilation_options_init(&options);
  options.precision = precision;
  status =
      tflaccel_compiled_model_create(session->environment, session->model, &options, &session->compiled);
  ck_assert_msg(status == NULL, "%s (%s): %s", model, label, tflaccel_status_message(status));
  uint32_t partitions = tflaccel_compiled_model_partition_count(session->compiled);
  ck_assert_uint_ge(partitions, 1);
  for (uint32_t p = 0; p < partitions; ++p) {
    tflaccel_partition_info info = {.struct_size = sizeof info};
    ck_assert_ptr_null(tflaccel_compiled_model_partition_info(session->compiled, p, &info));
    ck_assert_msg(!strcmp(info.accelerator, accelerator), "partition %u (%u ops) runs on %s", p,
                  info.op_count, info.accelerator);
  }
  session->input_count = tflaccel_compiled_model_input_count(session->compiled);
  session->output_count = tflaccel_compiled_model_output_count(session->compiled);
  ck_assert_uint_le(session->input_count, MODEL_COMPARE_MAX_TENSORS);
  ck_assert_uint_le(session->output_count, MODEL_COMPARE_MAX_TENSORS);
  model_compare_fill_inputs(session->compiled, data_dir, model, session->inputs,
                            session->input_count);
  for (uint32_t i = 0; i < session->output_count; ++i)
    ck_assert_ptr_null(
        tflaccel_compiled_model_create_output_buffer(session->compiled, i, &session->outputs[i]));
}

void model_compare_session_run(model_compare_session *session, int runs, const char *label) {
  for (int run = 0; run < runs; ++run) {
    tflaccel_status status =
        tflaccel_compiled_model_run(session->compiled, session->inputs, session->input_count,
                                    session->outputs, session->output_count);
    ck_assert_msg(status == NULL, "run %d (%s): %s", run, label, tflaccel_status_message(status));
  }
}

void model_compare_session_close(model_compare_session *session) {
  for (uint32_t i = 0; i < session->input_count; ++i)
    tflaccel_tensor_buffer_destroy(session->inputs[i]);
  for (uint32_t i = 0; i < session->output_count; ++i)
    tflaccel_tensor_buffer_destroy(session->outputs[i]);
  tflaccel_compiled_model_destroy(session->compiled);
  tflaccel_model_destroy(session->model);
  tflaccel_environment_destroy(session->environment);
  memset(session, 0, sizeof *session);
}
