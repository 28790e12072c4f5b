/* tflaccel run MODEL: one inference, outputs written and summarised. */
#include "config.h"

#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/facts/half.h"
#include "core/util/regular_file.h"
#include "tools/tflaccel/bench_device_io.h"
#include "tools/tflaccel/cli_options.h"
#include "tools/tflaccel/commands.h"
#include "tools/tflaccel/make_directory.h"
#include "tools/tflaccel/input_generator.h"
#include "tflaccel/tflaccel.h"

#define COMMAND "tflaccel run"
#define MAX_INPUT_FILES 64

static void print_help(void) {
  printf("usage: tflaccel run MODEL [options]\n"
         "Runs MODEL once. Without --input, inputs come from the xorshift32 generator of\n"
         "../shared/models/README.md (seed 1), which reproduces the reference outputs.\n\n"
         "  --input FILE                 raw input in the input's dtype; repeat once per input, in order\n"
         "  --seed N                     generator seed (default 1)\n"
         "  --runs N                     run N times on the same inputs and write the last run's\n"
         "                               outputs (a stateful model's variables carry over; default 1)\n"
         "  --output-dir DIR             write output_K.bin (raw, in the output's dtype) into DIR (made if missing)\n"
         "  --io=host|device             device: inputs and outputs in the accelerator's own buffers\n"
         "                               (the outputs are then read back to print them)\n"
         "%s",
         cli_compile_flags_help());
}

static double element_value(const void *data, int32_t dtype, size_t index) {
  switch (dtype) {
  case TFLACCEL_DTYPE_FLOAT32: return ((const float *)data)[index];
  case TFLACCEL_DTYPE_FLOAT16: return half_to_float(((const uint16_t *)data)[index]);
  case TFLACCEL_DTYPE_INT32: return ((const int32_t *)data)[index];
  case TFLACCEL_DTYPE_INT64: return (double)((const int64_t *)data)[index];
  case TFLACCEL_DTYPE_UINT8: return ((const uint8_t *)data)[index];
  case TFLACCEL_DTYPE_INT8: return ((const int8_t *)data)[index];
  case TFLACCEL_DTYPE_INT16: return ((const int16_t *)data)[index];
  case TFLACCEL_DTYPE_BOOL: return ((const uint8_t *)data)[index] != 0;
  default: return NAN;
  }
}

static void print_shape(uint32_t rank, const int32_t *shape) {
  putchar('[');
  for (uint32_t d = 0; d < rank; ++d) printf("%s%d", d ? "," : "", (int)shape[d]);
  putchar(']');
}

static void print_output_summary(uint32_t index, const tflaccel_tensor_info *info,
                                 tflaccel_tensor_buffer *buffer) {
  const void *data = tflaccel_tensor_buffer_data(buffer);
  size_t element_size = tflaccel_dtype_size(info->dtype);
  size_t count = element_size ? tflaccel_tensor_buffer_byte_size(buffer) / element_size : 0;
  double minimum = INFINITY, maximum = -INFINITY, sum = 0.0;
  size_t non_finite = 0;
  for (size_t i = 0; i < count; ++i) {
    double value = element_value(data, info->dtype, i);
    if (!isfinite(value)) {
      ++non_finite;
      continue;
    }
    if (value < minimum) minimum = value;
    if (value > maximum) maximum = value;
    sum += value;
  }
  printf("output %u: %s ", index, info->name);
  print_shape(info->rank, info->shape);
  printf(" %s", tflaccel_dtype_name(info->dtype));
  if (count > non_finite)
    printf(" min=%.6g max=%.6g mean=%.6g", minimum, maximum, sum / (double)(count - non_finite));
  if (non_finite) printf(" non-finite=%zu", non_finite);
  putchar('\n');
  /* Classification-shaped outputs: the five best classes. */
  if (info->rank == 2 && info->shape[0] == 1 && count >= 2) {
    size_t best[5];
    size_t shown = count < 5 ? count : 5;
    for (size_t k = 0; k < shown; ++k) {
      size_t pick = SIZE_MAX;
      for (size_t i = 0; i < count; ++i) {
        int taken = 0;
        for (size_t j = 0; j < k; ++j) taken |= best[j] == i;
        if (taken) continue;
        if (pick == SIZE_MAX || element_value(data, info->dtype, i) > element_value(data, info->dtype, pick))
          pick = i;
      }
      best[k] = pick;
    }
    printf("  top-%zu:", shown);
    for (size_t k = 0; k < shown; ++k)
      printf(" %zu (%.6g)", best[k], element_value(data, info->dtype, best[k]));
    putchar('\n');
  }
}

static int read_input_file(const char *path, tflaccel_tensor_buffer *buffer, uint32_t index) {
  char what[32];
  snprintf(what, sizeof what, "input %u file", index);
  int fd;
  uint64_t file_size;
  tflaccel_status status = regular_file_open(path, what, &fd, &file_size);
  if (status != NULL) {
    fprintf(stderr, COMMAND ": %s\n", tflaccel_status_message(status));
    tflaccel_status_free(status);
    return 0;
  }
  FILE *file = fdopen(fd, "rb");
  if (file == NULL) {
    fprintf(stderr, COMMAND ": cannot read input %u file %s: %s\n", index, path, strerror(errno));
    close(fd);
    return 0;
  }
  size_t expected = tflaccel_tensor_buffer_byte_size(buffer);
  size_t got = fread(tflaccel_tensor_buffer_data(buffer), 1, expected, file);
  int extra = fgetc(file) != EOF;
  fclose(file);
  if (got != expected || extra) {
    fprintf(stderr, COMMAND ": input %u file %s has %s bytes, the input needs exactly %zu\n", index,
            path, extra ? "more" : "fewer", expected);
    return 0;
  }
  return 1;
}

static int write_output_file(const char *directory, uint32_t index, tflaccel_tensor_buffer *buffer) {
  char path[4096];
  snprintf(path, sizeof path, "%s/output_%u.bin", directory, index);
  FILE *file = fopen(path, "wb");
  if (file == NULL) {
    fprintf(stderr, COMMAND ": cannot write %s: %s\n", path, strerror(errno));
    return 0;
  }
  size_t size = tflaccel_tensor_buffer_byte_size(buffer);
  int ok = fwrite(tflaccel_tensor_buffer_data(buffer), 1, size, file) == size;
  if (fclose(file) != 0) ok = 0;
  if (!ok) fprintf(stderr, COMMAND ": writing %s failed\n", path);
  return ok;
}

int tflaccel_cmd_run(int argc, char **argv) {
  cli_compile_flags flags;
  cli_compile_flags_init(&flags);
  const char *model_path = NULL, *output_dir = NULL;
  const char *input_files[MAX_INPUT_FILES];
  uint32_t input_file_count = 0;
  long seed = 1, runs = 1;
  int io_device = 0;
  for (int i = 1; i < argc; ++i) {
    const char *value = NULL;
    int match = cli_parse_compile_flag(COMMAND, argc, argv, &i, &flags);
    if (match < 0) return 2;
    if (match > 0) continue;
    if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
      print_help();
      return 0;
    }
    if ((match = cli_match_value(COMMAND, argc, argv, &i, "--input", &value)) != 0) {
      if (match < 0) return 2;
      if (input_file_count == MAX_INPUT_FILES) {
        fprintf(stderr, COMMAND ": at most %d --input files\n", MAX_INPUT_FILES);
        return 2;
      }
      input_files[input_file_count++] = value;
      continue;
    }
    if ((match = cli_match_value(COMMAND, argc, argv, &i, "--seed", &value)) != 0) {
      if (match < 0 || !cli_parse_int(COMMAND, "--seed", value, 0, 4294967295L, &seed)) return 2;
      continue;
    }
    if ((match = cli_match_value(COMMAND, argc, argv, &i, "--runs", &value)) != 0) {
      if (match < 0 || !cli_parse_int(COMMAND, "--runs", value, 1, 1000000L, &runs)) return 2;
      continue;
    }
    if ((match = bench_match_io(COMMAND, argc, argv, &i, &io_device)) != 0) {
      if (match < 0) return 2;
      continue;
    }
    if ((match = cli_match_value(COMMAND, argc, argv, &i, "--output-dir", &value)) != 0) {
      if (match < 0) return 2;
      output_dir = value;
      continue;
    }
    if (argv[i][0] == '-' && argv[i][1] != '\0') {
      fprintf(stderr, COMMAND ": unknown option '%s' (try --help)\n", argv[i]);
      return 2;
    }
    if (model_path != NULL) {
      fprintf(stderr, COMMAND ": one model at a time ('%s' and '%s')\n", model_path, argv[i]);
      return 2;
    }
    model_path = argv[i];
  }
  if (model_path == NULL) {
    fprintf(stderr, COMMAND ": no model given (usage: tflaccel run MODEL [options])\n");
    return 2;
  }

  tflaccel_model *model = NULL;
  tflaccel_status status = tflaccel_model_load_file(model_path, &model);
  if (status != NULL) {
    fprintf(stderr, COMMAND ": %s\n", tflaccel_status_message(status));
    tflaccel_status_free(status);
    return 1;
  }
  tflaccel_environment *environment = NULL;
  tflaccel_compiled_model *compiled = NULL;
  int exit_code = 1;
  uint32_t input_count = 0, output_count = 0;
  tflaccel_tensor_buffer **inputs = NULL, **outputs = NULL;
  if (!cli_compile(COMMAND, &flags, model, &environment, &compiled)) goto cleanup;
  input_count = tflaccel_compiled_model_input_count(compiled);
  output_count = tflaccel_compiled_model_output_count(compiled);
  if (input_file_count != 0 && input_file_count != input_count) {
    fprintf(stderr, COMMAND ": %u --input files given, the model has %u inputs\n", input_file_count,
            input_count);
    exit_code = 2;
    goto cleanup;
  }
  inputs = calloc(input_count + 1, sizeof *inputs);
  outputs = calloc(output_count + 1, sizeof *outputs);
  if (inputs == NULL || outputs == NULL) {
    fprintf(stderr, COMMAND ": out of memory\n");
    goto cleanup;
  }
  input_generator generator;
  input_generator_init(&generator, (uint32_t)seed);
  for (uint32_t i = 0; i < input_count; ++i) {
    status = tflaccel_compiled_model_create_input_buffer(compiled, i, &inputs[i]);
    if (status != NULL) break;
    if (input_file_count) {
      if (!read_input_file(input_files[i], inputs[i], i)) goto cleanup;
      continue;
    }
    int32_t dtype = tflaccel_tensor_buffer_dtype(inputs[i]);
    size_t element_size = tflaccel_dtype_size(dtype);
    size_t count = tflaccel_tensor_buffer_byte_size(inputs[i]) / element_size;
    if (!input_generator_fill(&generator, dtype, tflaccel_tensor_buffer_data(inputs[i]), count)) {
      fprintf(stderr, COMMAND ": cannot generate %s input %u; give it with --input\n",
              tflaccel_dtype_name(dtype), i);
      goto cleanup;
    }
  }
  for (uint32_t i = 0; status == NULL && i < output_count; ++i)
    status = tflaccel_compiled_model_create_output_buffer(compiled, i, &outputs[i]);
  model_buffers device_buffers = {inputs, outputs, input_count, output_count};
  if (status == NULL && io_device) status = bench_buffers_to_device(compiled, &device_buffers, NULL, 0);
  for (long run = 0; status == NULL && run < runs; ++run)
    status = tflaccel_compiled_model_run(compiled, inputs, input_count, outputs, output_count);
  if (status == NULL && io_device) {
    /* The outputs' bytes, read back from the device buffers to print. */
    tflaccel_tensor_buffer **host = NULL;
    status = bench_outputs_to_host(&device_buffers, &host);
    for (uint32_t i = 0; status == NULL && i < output_count; ++i) {
      tflaccel_tensor_buffer_destroy(outputs[i]);
      outputs[i] = host[i];
    }
    free(host);
  }
  if (status != NULL) {
    fprintf(stderr, COMMAND ": %s\n", tflaccel_status_message(status));
    tflaccel_status_free(status);
    goto cleanup;
  }
  if (output_dir != NULL && (status = make_directory_tree(output_dir)) != NULL) {
    fprintf(stderr, COMMAND ": %s\n", tflaccel_status_message(status));
    tflaccel_status_free(status);
    goto cleanup;
  }
  exit_code = 0;
  for (uint32_t i = 0; i < output_count; ++i) {
    tflaccel_tensor_info info = {.struct_size = sizeof info};
    status = tflaccel_compiled_model_output_info(compiled, i, &info);
    if (status != NULL) {
      fprintf(stderr, COMMAND ": %s\n", tflaccel_status_message(status));
      tflaccel_status_free(status);
      exit_code = 1;
      break;
    }
    print_output_summary(i, &info, outputs[i]);
    if (output_dir != NULL && !write_output_file(output_dir, i, outputs[i])) exit_code = 1;
  }
cleanup:
  for (uint32_t i = 0; inputs && i < input_count; ++i) tflaccel_tensor_buffer_destroy(inputs[i]);
  for (uint32_t i = 0; outputs && i < output_count; ++i) tflaccel_tensor_buffer_destroy(outputs[i]);
  free(inputs);
  free(outputs);
  tflaccel_compiled_model_destroy(compiled);
  tflaccel_environment_destroy(environment);
  tflaccel_model_destroy(model);
  return exit_code;
}
