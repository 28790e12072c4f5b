#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/facts/half.h"
#include "tools/tflaccel/input_generator.h"
#include "tools/tflaccel/input_layers.h"

#define MAX_NAME 256

/* The index of `name` among the --input_layer names, or -1. */
static int name_index(const char *names, const char *name, size_t length) {
  int index = 0;
  for (const char *item = names; item != NULL; ++index) {
    const char *comma = strchr(item, ',');
    size_t item_length = comma ? (size_t)(comma - item) : strlen(item);
    if (item_length == length && !strncmp(item, name, length)) return index;
    item = comma ? comma + 1 : NULL;
  }
  return -1;
}

static uint32_t count_items(const char *text, char separator) {
  uint32_t count = 1;
  for (const char *c = text; *c; ++c) count += *c == separator;
  return count;
}

static tflaccel_status check_names_and_shapes(const input_layer_flags *flags,
                                              const tflaccel_compiled_model *compiled,
                                              uint32_t input_count) {
  if (flags->names == NULL) {
    if (flags->shapes || flags->value_ranges || flags->value_files)
      return tflaccel_status_make(TFLACCEL_INVALID_ARGUMENT,
                                  "--input_layer_shape, --input_layer_value_range and "
                                  "--input_layer_value_files need --input_layer");
    return NULL;
  }
  if (count_items(flags->names, ',') != input_count)
    return tflaccel_status_make(TFLACCEL_INVALID_ARGUMENT,
                                "--input_layer=%s names %u inputs; the model has %u (name all, "
                                "in order)",
                                flags->names, count_items(flags->names, ','), input_count);
  if (flags->shapes == NULL) return NULL;
  if (count_items(flags->shapes, ':') != input_count)
    return tflaccel_status_make(TFLACCEL_INVALID_ARGUMENT,
                                "--input_layer_shape=%s gives %u shapes; the model has %u inputs",
                                flags->shapes, count_items(flags->shapes, ':'), input_count);
  const char *shape = flags->shapes;
  for (uint32_t i = 0; i < input_count; ++i) {
    tflaccel_tensor_info info = {.struct_size = sizeof info};
    tflaccel_status status = tflaccel_compiled_model_input_info(compiled, i, &info);
    if (status != NULL) return status;
    const char *end = strchr(shape, ':');
    size_t length = end ? (size_t)(end - shape) : strlen(shape);
    char wanted[512] = "", given[512];
    size_t used = 0;
    for (uint32_t d = 0; d < info.rank && used < sizeof wanted; ++d)
      used += (size_t)snprintf(wanted + used, sizeof wanted - used, "%s%d", d ? "," : "",
                               (int)info.shape[d]);
    snprintf(given, sizeof given, "%.*s", (int)length, shape);
    if (strcmp(wanted, given) != 0)
      return tflaccel_status_make(TFLACCEL_UNSUPPORTED,
                                  "--input_layer_shape: input %u (%s) has the shape %s, not %s; "
                                  "tflaccel runs the model's stored shapes",
                                  i, info.name, wanted, given);
    shape = end ? end + 1 : shape + length;
  }
  return NULL;
}

static tflaccel_status read_file_into(const char *path, tflaccel_tensor_buffer *buffer,
                                      uint32_t input) {
  size_t size = tflaccel_tensor_buffer_byte_size(buffer);
  FILE *file = fopen(path, "rb");
  if (file == NULL)
    return tflaccel_status_make(TFLACCEL_IO_ERROR, "--input_layer_value_files: cannot read %s: %s",
                                path, strerror(errno));
  size_t got = fread(tflaccel_tensor_buffer_data(buffer), 1, size, file);
  int extra = fgetc(file) != EOF;
  fclose(file);
  if (got != size || extra)
    return tflaccel_status_make(TFLACCEL_INVALID_ARGUMENT,
                                "--input_layer_value_files: %s must hold exactly %zu bytes for "
                                "input %u, it holds %s%zu",
                                path, size, input, extra ? "more than " : "", got);
  return NULL;
}

/* Applies "NAME:PATH,..." ("::" is a ':' inside NAME). */
static tflaccel_status apply_files(const input_layer_flags *flags, const model_buffers *buffers,
                                   uint8_t *filled) {
  const char *item = flags->value_files;
  while (item != NULL && *item) {
    char name[MAX_NAME];
    size_t length = 0;
    const char *c = item;
    while (*c && !(c[0] == ':' && c[1] != ':')) {
      if (c[0] == ':' && c[1] == ':') ++c;
      if (length + 1 < sizeof name) name[length++] = *c;
      ++c;
    }
    name[length] = '\0';
    if (*c != ':')
      return tflaccel_status_make(TFLACCEL_INVALID_ARGUMENT,
                                  "--input_layer_value_files: '%s' is not NAME:PATH", item);
    const char *path_start = c + 1;
    const char *comma = strchr(path_start, ',');
    char path[4096];
    snprintf(path, sizeof path, "%.*s",
             (int)(comma ? (size_t)(comma - path_start) : strlen(path_start)), path_start);
    int index = name_index(flags->names, name, strlen(name));
    if (index < 0)
      return tflaccel_status_make(TFLACCEL_INVALID_ARGUMENT,
                                  "--input_layer_value_files: '%s' is not in --input_layer", name);
    tflaccel_status status = read_file_into(path, buffers->inputs[index], (uint32_t)index);
    if (status != NULL) return status;
    filled[index] = 1;
    item = comma ? comma + 1 : NULL;
  }
  return NULL;
}

static void fill_uniform(input_generator *generator, tflaccel_tensor_buffer *buffer, long low,
                         long high) {
  size_t count = model_buffer_element_count(buffer);
  void *data = tflaccel_tensor_buffer_data(buffer);
  uint64_t span = (uint64_t)(high - low) + 1;
  for (size_t i = 0; i < count; ++i) {
    long value = low + (long)(input_generator_next(generator) % span);
    switch (tflaccel_tensor_buffer_dtype(buffer)) {
      case TFLACCEL_DTYPE_UINT8: ((uint8_t *)data)[i] = (uint8_t)value; break;
      case TFLACCEL_DTYPE_INT8: ((int8_t *)data)[i] = (int8_t)value; break;
      case TFLACCEL_DTYPE_INT16: ((int16_t *)data)[i] = (int16_t)value; break;
      case TFLACCEL_DTYPE_INT32: ((int32_t *)data)[i] = (int32_t)value; break;
      case TFLACCEL_DTYPE_INT64: ((int64_t *)data)[i] = (int64_t)value; break;
      case TFLACCEL_DTYPE_BOOL: ((uint8_t *)data)[i] = value != 0; break;
      case TFLACCEL_DTYPE_FLOAT32: ((float *)data)[i] = (float)value; break;
      case TFLACCEL_DTYPE_FLOAT16: ((uint16_t *)data)[i] = half_from_float((float)value); break;
      default: break;
    }
  }
}

/* The widest range a dtype holds, for checking the flag's bounds. */
static int dtype_range(int32_t dtype, long *low, long *high) {
  switch (dtype) {
    case TFLACCEL_DTYPE_UINT8: *low = 0; *high = 255; return 1;
    case TFLACCEL_DTYPE_INT8: *low = -128; *high = 127; return 1;
    case TFLACCEL_DTYPE_INT16: *low = -32768; *high = 32767; return 1;
    case TFLACCEL_DTYPE_INT32:
    case TFLACCEL_DTYPE_INT64:
    case TFLACCEL_DTYPE_FLOAT32:
    case TFLACCEL_DTYPE_FLOAT16: *low = -2147483647L - 1; *high = 2147483647L; return 1;
    case TFLACCEL_DTYPE_BOOL: *low = 0; *high = 1; return 1;
    default: return 0;
  }
}

/* Applies "NAME,LOW,HIGH:..." to inputs no file filled. */
static tflaccel_status apply_ranges(const input_layer_flags *flags, const model_buffers *buffers,
                                    input_generator *generator, uint8_t *filled) {
  const char *item = flags->value_ranges;
  while (item != NULL && *item) {
    const char *colon = strchr(item, ':');
    char text[MAX_NAME + 64];
    snprintf(text, sizeof text, "%.*s", (int)(colon ? (size_t)(colon - item) : strlen(item)), item);
    char *second = strrchr(text, ',');
    char *first = NULL;
    if (second != NULL) {
      *second++ = '\0';
      first = strrchr(text, ',');
      if (first != NULL) *first++ = '\0';
    }
    char *end_low = NULL, *end_high = NULL;
    long low = first ? strtol(first, &end_low, 10) : 0;
    long high = second ? strtol(second, &end_high, 10) : 0;
    if (first == NULL || end_low == first || *end_low || end_high == second || *end_high ||
        low > high)
      return tflaccel_status_make(TFLACCEL_INVALID_ARGUMENT,
                                  "--input_layer_value_range: '%.*s' is not NAME,LOW,HIGH with "
                                  "LOW <= HIGH",
                                  (int)(colon ? (size_t)(colon - item) : strlen(item)), item);
    int index = name_index(flags->names, text, strlen(text));
    if (index < 0)
      return tflaccel_status_make(TFLACCEL_INVALID_ARGUMENT,
                                  "--input_layer_value_range: '%s' is not in --input_layer", text);
    tflaccel_tensor_buffer *buffer = buffers->inputs[index];
    long type_low, type_high;
    int32_t dtype = tflaccel_tensor_buffer_dtype(buffer);
    if (!dtype_range(dtype, &type_low, &type_high))
      return tflaccel_status_make(TFLACCEL_UNSUPPORTED,
                                  "--input_layer_value_range: input '%s' is %s", text,
                                  tflaccel_dtype_name(dtype));
    if (low < type_low || high > type_high)
      return tflaccel_status_make(TFLACCEL_INVALID_ARGUMENT,
                                  "--input_layer_value_range: %ld..%ld does not fit input '%s' (%s)",
                                  low, high, text, tflaccel_dtype_name(dtype));
    if (!filled[index]) fill_uniform(generator, buffer, low, high);
    filled[index] = 1;
    item = colon ? colon + 1 : NULL;
  }
  return NULL;
}

tflaccel_status input_layers_fill(const input_layer_flags *flags,
                                  const tflaccel_compiled_model *compiled,
                                  const model_buffers *buffers) {
  tflaccel_status status = check_names_and_shapes(flags, compiled, buffers->input_count);
  if (status != NULL) return status;
  uint8_t *filled = calloc(buffers->input_count + 1, 1);
  if (filled == NULL) return tflaccel_status_make(TFLACCEL_OUT_OF_MEMORY, "out of memory");
  input_generator generator;
  input_generator_init(&generator, 1);
  if (flags->value_files != NULL) status = apply_files(flags, buffers, filled);
  if (status == NULL && flags->value_ranges != NULL)
    status = apply_ranges(flags, buffers, &generator, filled);
  for (uint32_t i = 0; status == NULL && i < buffers->input_count; ++i) {
    if (filled[i]) continue;
    tflaccel_tensor_buffer *input = buffers->inputs[i];
    int32_t dtype = tflaccel_tensor_buffer_dtype(input);
    if (!input_generator_fill(&generator, dtype, tflaccel_tensor_buffer_data(input),
                              model_buffer_element_count(input)))
      status = tflaccel_status_make(TFLACCEL_UNSUPPORTED, "cannot generate %s input %u",
                                    tflaccel_dtype_name(dtype), i);
  }
  free(filled);
  return status;
}
