/* The partitioner and executor on real models: with test_subset accepting
 * only some op codes, models split into many partitions, which must be
 * convex and give outputs bit-identical to a pure cpu_ref run; strict mode
 * lists the declined ops; the warning and summary lines are exact; ops an
 * accelerator runs only at fp32 get fp32 partitions of their own in an
 * fp16 model. */
#include "config.h"

#include <check.h>
#include <dirent.h>
#include <stddef.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/partition/partitioner.h"
#include "core/runtime/compiled_model.h"
#include "tests/support/test_util.h"
#include "tflaccel/tflaccel.h"

/* Op code subsets test_subset accepts (numbers: TFLite BuiltinOperator). */
static const char *const subsets[] = {
    "3,0",        /* CONV_2D, ADD */
    "4,17,22,34", /* DEPTHWISE_CONV_2D, MAX_POOL_2D, RESHAPE, PAD */
    "0,18,14,25,2,9", /* ADD, MUL, LOGISTIC, SOFTMAX, CONCATENATION, FULLY_CONNECTED */
};

typedef struct model_list {
  char **paths;
  uint32_t count;
} model_list;

static void add_models_from(model_list *list, const char *dir) {
  DIR *directory = opendir(dir);
  if (directory == NULL) return;
  struct dirent *entry;
  while ((entry = readdir(directory)) != NULL) {
    size_t length = strlen(entry->d_name);
    if (length < 8 || strcmp(entry->d_name + length - 7, ".tflite") != 0) continue;
    char *path = malloc(strlen(dir) + length + 2);
    ck_assert_ptr_nonnull(path);
    sprintf(path, "%s/%s", dir, entry->d_name);
    list->paths = realloc(list->paths, sizeof *list->paths * (list->count + 1));
    ck_assert_ptr_nonnull(list->paths);
    list->paths[list->count++] = path;
  }
  closedir(directory);
}

static model_list find_models(void) {
  model_list list = {NULL, 0};
  const char *shared = getenv("TFLACCEL_SHARED_MODELS");
  if (shared != NULL && access(shared, R_OK) == 0) {
    add_models_from(&list, shared);
  } else {
    printf("note: ../shared/models is absent; partitioning tests use tests/data only\n");
    const char *data = getenv("TFLACCEL_TEST_DATA");
    ck_assert_msg(data != NULL, "TFLACCEL_TEST_DATA is not set");
    add_models_from(&list, data);
  }
  return list;
}

static void free_models(model_list *list) {
  for (uint32_t i = 0; i < list->count; ++i) free(list->paths[i]);
  free(list->paths);
}

/* cost: extra [tflaccel] lines; "" keeps the default cost model. */
static char *write_config_with(const char *dir, const char *ops, const char *cost) {
  const char *build = getenv("TFLACCEL_TOP_BUILDDIR");
  ck_assert_ptr_nonnull(build);
  char text[4096];
  snprintf(text, sizeof text,
           "[tflaccel]\naccelerators = test_subset, cpu_ref\n%s"
           "[plugin.test_subset]\nlibrary = %s/tests/.libs/libtest_subset.so\n"
           "target = %s/plugins/.libs/libcpu_ref.so\nops = %s\n"
           "[plugin.cpu_ref]\nlibrary = %s/plugins/.libs/libcpu_ref.so\n",
           cost, build, build, ops, build);
  return test_write_file(dir, "tflaccel.ini", text);
}

/* test_subset computes at cpu_ref's speed, so by default the cost model
 * rightly hands every split partition back; free transfers keep them. */
static char *write_config(const char *dir, const char *ops) {
  return write_config_with(dir, ops, "transfer_us_per_mib = 0\ndispatch_overhead_us = 0\n");
}

/* Runs the model once with deterministic inputs; returns the outputs
 * concatenated (caller frees), or NULL with *why set when it cannot run. */
static uint8_t *run_model(tflaccel_environment *environment, const tflaccel_model *model,
                          const char *accelerators, int32_t max_partitions, size_t *size,
                          tflaccel_compiled_model **compiled_out, tflaccel_status *why) {
  tflaccel_compilation_options options;
  tflaccel_compilation_options_init(&options);
  options.accelerators = accelerators;
  options.max_delegated_partitions = max_partitions;
  tflaccel_compiled_model *compiled = NULL;
  *why = tflaccel_compiled_model_create(environment, model, &options, &compiled);
  if (*why != NULL) return NULL;
  uint32_t input_count = tflaccel_compiled_model_input_count(compiled);
  uint32_t output_count = tflaccel_compiled_model_output_count(compiled);
  tflaccel_tensor_buffer *inputs[16] = {0}, *outputs[16] = {0};
  ck_assert_uint_le(input_count, 16);
  ck_assert_uint_le(output_count, 16);
  uint32_t seed = 12345;
  for (uint32_t i = 0; i < input_count; ++i) {
    ck_assert_ptr_null(tflaccel_compiled_model_create_input_buffer(compiled, i, &inputs[i]));
    uint8_t *bytes = tflaccel_tensor_buffer_data(inputs[i]);
    size_t n = tflaccel_tensor_buffer_byte_size(inputs[i]);
    int32_t dtype = tflaccel_tensor_buffer_dtype(inputs[i]);
    for (size_t k = 0; k < n; ++k) {
      seed = seed * 1664525u + 1013904223u;
      bytes[k] = (uint8_t)(seed >> 24);
    }
    if (dtype == TFLACCEL_DTYPE_FLOAT32) /* keep floats finite and small */
      for (size_t k = 0; k < n / 4; ++k) ((float *)bytes)[k] = (float)((k * 2654435761u) % 1000) / 500.0f - 1.0f;
  }
  *size = 0;
  for (uint32_t i = 0; i < output_count; ++i) {
    ck_assert_ptr_null(tflaccel_compiled_model_create_output_buffer(compiled, i, &outputs[i]));
    *size += tflaccel_tensor_buffer_byte_size(outputs[i]);
  }
  *why = tflaccel_compiled_model_run(compiled, inputs, input_count, outputs, output_count);
  uint8_t *result = NULL;
  if (*why == NULL) {
    result = malloc(*size + 1);
    ck_assert_ptr_nonnull(result);
    size_t offset = 0;
    for (uint32_t i = 0; i < output_count; ++i) {
      size_t n = tflaccel_tensor_buffer_byte_size(outputs[i]);
      memcpy(result + offset, tflaccel_tensor_buffer_data(outputs[i]), n);
      offset += n;
    }
  }
  for (uint32_t i = 0; i < input_count; ++i) tflaccel_tensor_buffer_destroy(inputs[i]);
  for (uint32_t i = 0; i < output_count; ++i) tflaccel_tensor_buffer_destroy(outputs[i]);
  if (compiled_out != NULL && *why == NULL) *compiled_out = compiled;
  else tflaccel_compiled_model_destroy(compiled);
  return result;
}

START_TEST(split_models_match_cpu_ref_bit_for_bit) {
  const char *ops = subsets[_i];
  char *dir = test_make_temp_dir();
  char *config_path = write_config(dir, ops);
  tflaccel_environment_options environment_options = {
      .struct_size = sizeof environment_options, .config_path = config_path, .log_level = "error"};
  tflaccel_environment *environment = NULL;
  tflaccel_status status = tflaccel_environment_create(&environment_options, &environment);
  ck_assert_msg(status == NULL, "%s", tflaccel_status_message(status));
  model_list models = find_models();
  ck_assert_uint_gt(models.count, 0);
  uint32_t compared = 0, split = 0, device_links = 0;
  for (uint32_t m = 0; m < models.count; ++m) {
    tflaccel_model *model = NULL;
    status = tflaccel_model_load_file(models.paths[m], &model);
    ck_assert_msg(status == NULL, "%s: %s", models.paths[m], tflaccel_status_message(status));
    size_t reference_size = 0, subset_size = 0;
    uint8_t *reference = run_model(environment, model, "cpu_ref", 0, &reference_size, NULL, &status);
    if (reference == NULL) {
      /* Models with ops nobody implements (custom ops, invalid quantization). */
      printf("%s: not run on cpu_ref: %s\n", models.paths[m], tflaccel_status_message(status));
      tflaccel_status_free(status);
      tflaccel_model_destroy(model);
      continue;
    }
    tflaccel_compiled_model *compiled = NULL;
    uint8_t *subset = run_model(environment, model, "test_subset,cpu_ref", 0, &subset_size, &compiled,
                                &status);
    ck_assert_msg(subset != NULL, "%s with ops %s: %s", models.paths[m], ops,
                  tflaccel_status_message(status));
    ck_assert_uint_eq(subset_size, reference_size);
    ck_assert_msg(memcmp(subset, reference, reference_size) == 0,
                  "%s: outputs with test_subset(%s) differ from cpu_ref", models.paths[m], ops);
    /* Every partition convex, every op in exactly one partition. */
    status = partition_check_convex(compiled->graph, compiled->plan);
    ck_assert_msg(status == NULL, "%s: %s", models.paths[m], tflaccel_status_message(status));
    uint32_t partitions = tflaccel_compiled_model_partition_count(compiled);
    uint32_t covered = 0;
    for (uint32_t p = 0; p < partitions; ++p) {
      tflaccel_partition_info info = {.struct_size = sizeof info};
      ck_assert_ptr_null(tflaccel_compiled_model_partition_info(compiled, p, &info));
      covered += info.op_count;
      if (p > 0) { /* neighbours are on different accelerators */
        tflaccel_partition_info previous = {.struct_size = sizeof previous};
        ck_assert_ptr_null(tflaccel_compiled_model_partition_info(compiled, p - 1, &previous));
        ck_assert_str_ne(previous.accelerator, info.accelerator);
      }
    }
    ck_assert_uint_eq(covered, compiled->graph->op_count);
    /* Tensors passed between two test_subset partitions stay on its device. */
    for (uint32_t p = 0; p < partitions; ++p) {
      const partition_runtime *runtime = &compiled->runtimes[p];
      if (runtime->binds_host_arena) continue;
      for (uint32_t b = 0; b < runtime->input_binding_count; ++b) device_links += runtime->stays_on_device[b];
    }
    if (partitions > 2) ++split;
    ++compared;
    tflaccel_compiled_model_destroy(compiled);
    free(reference);
    free(subset);
    tflaccel_model_destroy(model);
  }
  printf("ops %s: %u models compared bit for bit, %u split into more than two partitions, "
         "%u tensors passed device to device\n",
         ops, compared, split, device_links);
  ck_assert_uint_gt(compared, 0);
  ck_assert_uint_gt(split, 0);
  if (_i == 0) ck_assert_uint_gt(device_links, 0); /* CONV_2D -> ADD chains skip a CPU op */
  free_models(&models);
  tflaccel_environment_destroy(environment);
  test_remove_tree(dir);
  free(config_path);
  free(dir);
}
END_TEST

static const char *data_model(const char *name) {
  static char path[4096];
  const char *data = getenv("TFLACCEL_TEST_DATA");
  ck_assert_ptr_nonnull(data);
  snprintf(path, sizeof path, "%s/%s", data, name);
  return path;
}

START_TEST(strict_mode_lists_every_declined_op) {
  char *dir = test_make_temp_dir();
  char *config_path = write_config(dir, "3,0");
  tflaccel_environment_options environment_options = {
      .struct_size = sizeof environment_options, .config_path = config_path, .log_level = "error"};
  tflaccel_environment *environment = NULL;
  ck_assert_ptr_null(tflaccel_environment_create(&environment_options, &environment));
  tflaccel_model *model = NULL;
  ck_assert_ptr_null(tflaccel_model_load_file(data_model("face_detection_short_range.tflite"), &model));
  tflaccel_compilation_options options;
  tflaccel_compilation_options_init(&options);
  options.require_full_delegation = 1;
  tflaccel_compiled_model *compiled = NULL;
  tflaccel_status status = tflaccel_compiled_model_create(environment, model, &options, &compiled);
  ck_assert_ptr_nonnull(status);
  ck_assert_ptr_null(compiled);
  const char *message = tflaccel_status_message(status);
  ck_assert_msg(strstr(message, "require_full_delegation: ") == message, "%s", message);
  ck_assert_msg(strstr(message, "cannot run on test_subset") != NULL, "%s", message);
  /* Every op that is neither CONV_2D nor ADD is named with its reason. */
  tflaccel_compiled_model *reference = NULL;
  tflaccel_compilation_options plain;
  tflaccel_compilation_options_init(&plain);
  plain.accelerators = "cpu_ref";
  ck_assert_ptr_null(tflaccel_compiled_model_create(environment, model, &plain, &reference));
  uint32_t declined = 0;
  for (uint32_t op = 0; op < reference->graph->op_count; ++op) {
    int32_t code = reference->graph->ops[op].code;
    if (code == TFLACCEL_OP_CONV_2D || code == TFLACCEL_OP_ADD) continue;
    char item[160];
    snprintf(item, sizeof item, "op %u (%s): test_subset accepts only op codes 3,0", op,
             tflaccel_op_code_name(code));
    ck_assert_msg(strstr(message, item) != NULL, "'%s' not in '%s'", item, message);
    ++declined;
  }
  char count[96];
  snprintf(count, sizeof count, "%u of %u operations", declined, reference->graph->op_count);
  ck_assert_msg(strstr(message, count) != NULL, "'%s' not in '%s'", count, message);
  tflaccel_status_free(status);
  tflaccel_compiled_model_destroy(reference);
  tflaccel_model_destroy(model);
  tflaccel_environment_destroy(environment);
  test_remove_tree(dir);
  free(config_path);
  free(dir);
}
END_TEST

/* Captures what the compile (with options; NULL: the defaults) writes to
 * stderr. */
static char *capture_compile_with(tflaccel_environment *environment, const tflaccel_model *model,
                                  const tflaccel_compilation_options *given,
                                  tflaccel_compiled_model **compiled, const char *dir) {
  char path[4096];
  snprintf(path, sizeof path, "%s/stderr.txt", dir);
  fflush(stderr);
  int saved = dup(2);
  int file = open(path, O_CREAT | O_TRUNC | O_WRONLY, 0600);
  ck_assert_int_ge(file, 0);
  ck_assert_int_ge(dup2(file, 2), 0);
  close(file);
  tflaccel_compilation_options options;
  tflaccel_compilation_options_init(&options);
  if (given != NULL) options = *given;
  tflaccel_status status = tflaccel_compiled_model_create(environment, model, &options, compiled);
  fflush(stderr);
  dup2(saved, 2);
  close(saved);
  ck_assert_msg(status == NULL, "%s", tflaccel_status_message(status));
  FILE *captured = fopen(path, "rb");
  ck_assert_ptr_nonnull(captured);
  char *text = calloc(1, 1 << 20);
  ck_assert_ptr_nonnull(text);
  size_t length = fread(text, 1, (1 << 20) - 1, captured);
  text[length] = '\0';
  fclose(captured);
  return text;
}

static char *capture_compile(tflaccel_environment *environment, const tflaccel_model *model,
                             tflaccel_compiled_model **compiled, const char *dir) {
  return capture_compile_with(environment, model, NULL, compiled, dir);
}

START_TEST(warning_and_summary_lines_are_exact) {
  char *dir = test_make_temp_dir();
  char *config_path = write_config(dir, "3,0");
  tflaccel_environment_options environment_options = {
      .struct_size = sizeof environment_options, .config_path = config_path, .log_level = "info"};
  tflaccel_environment *environment = NULL;
  ck_assert_ptr_null(tflaccel_environment_create(&environment_options, &environment));
  tflaccel_model *model = NULL;
  ck_assert_ptr_null(tflaccel_model_load_file(data_model("face_detection_short_range.tflite"), &model));
  tflaccel_compiled_model *compiled = NULL;
  char *text = capture_compile(environment, model, &compiled, dir);
  /* One warning per declined op code, in op order, and nothing twice. */
  const tflaccel_graph_view *graph = compiled->graph;
  char expected[65536] = "";
  int32_t seen[64];
  uint32_t seen_count = 0, delegated = 0, delegated_partitions = 0;
  for (uint32_t op = 0; op < graph->op_count; ++op) {
    int32_t code = graph->ops[op].code;
    if (code == TFLACCEL_OP_CONV_2D || code == TFLACCEL_OP_ADD) continue;
    int repeated = 0;
    for (uint32_t k = 0; k < seen_count; ++k) repeated |= seen[k] == code;
    if (repeated) continue;
    seen[seen_count++] = code;
    char line[256];
    snprintf(line, sizeof line,
             "WARNING: op code #%d (%s) cannot be handled by this delegate (test_subset): "
             "test_subset accepts only op codes 3,0\n",
             (int)code, tflaccel_op_code_name(code));
    strcat(expected, line);
  }
  for (uint32_t p = 0; p < tflaccel_compiled_model_partition_count(compiled); ++p) {
    tflaccel_partition_info info = {.struct_size = sizeof info};
    ck_assert_ptr_null(tflaccel_compiled_model_partition_info(compiled, p, &info));
    if (!strcmp(info.accelerator, "test_subset")) {
      delegated += info.op_count;
      ++delegated_partitions;
    }
  }
  ck_assert_uint_gt(delegated_partitions, 1);
  char summary[256];
  snprintf(summary, sizeof summary,
           "INFO: %u operations will run on test_subset in %u partitions, and the remaining %u "
           "operations will run on cpu_ref\n",
           delegated, delegated_partitions, graph->op_count - delegated);
  strcat(expected, summary);
  ck_assert_str_eq(text, expected);
  free(text);
  tflaccel_compiled_model_destroy(compiled);
  tflaccel_model_destroy(model);
  tflaccel_environment_destroy(environment);
  test_remove_tree(dir);
  free(config_path);
  free(dir);
}
END_TEST

/* test_subset with every op code of face_detection_short_range, ADD only at
 * fp32 (fp32_ops), in an fp16 model: the ADDs get partitions of their own
 * compiled at fp32, everything else stays in fp16 partitions, every op runs
 * on test_subset (require_full_delegation passes) and the outputs equal
 * cpu_ref's bit for bit. */
START_TEST(ops_exact_only_in_fp32_get_fp32_partitions) {
  char *dir = test_make_temp_dir();
  tflaccel_model *model = NULL;
  ck_assert_ptr_null(tflaccel_model_load_file(data_model("face_detection_short_range.tflite"), &model));
  /* Every op code of the model, for `ops`. */
  char codes[1024] = "";
  {
    const char *build = getenv("TFLACCEL_TOP_BUILDDIR");
    ck_assert_ptr_nonnull(build);
    char text[4096];
    snprintf(text, sizeof text,
             "[tflaccel]\naccelerators = cpu_ref\n[plugin.cpu_ref]\nlibrary = %s/plugins/.libs/libcpu_ref.so\n",
             build);
    char *path = test_write_file(dir, "reference.ini", text);
    tflaccel_environment_options environment_options = {
        .struct_size = sizeof environment_options, .config_path = path, .log_level = "error"};
    tflaccel_environment *environment = NULL;
    ck_assert_ptr_null(tflaccel_environment_create(&environment_options, &environment));
    tflaccel_compiled_model *reference = NULL;
    ck_assert_ptr_null(tflaccel_compiled_model_create(environment, model, NULL, &reference));
    int listed[256] = {0};
    for (uint32_t op = 0; op < reference->graph->op_count; ++op) {
      int32_t code = reference->graph->ops[op].code;
      ck_assert(code >= 0 && code < 256);
      if (listed[code]++) continue;
      snprintf(codes + strlen(codes), sizeof codes - strlen(codes), "%s%d", codes[0] ? "," : "",
               (int)code);
    }
    ck_assert_int_gt(listed[TFLACCEL_OP_ADD], 0);
    tflaccel_compiled_model_destroy(reference);
    tflaccel_environment_destroy(environment);
    free(path);
  }
  const char *build = getenv("TFLACCEL_TOP_BUILDDIR");
  char text[4096];
  snprintf(text, sizeof text,
           "[tflaccel]\naccelerators = test_subset, cpu_ref\nprecision = fp16\n"
           "transfer_us_per_mib = 0\ndispatch_overhead_us = 0\n"
           "[plugin.test_subset]\nlibrary = %s/tests/.libs/libtest_subset.so\n"
           "target = %s/plugins/.libs/libcpu_ref.so\nops = %s\nfp32_ops = %d\n"
           "[plugin.cpu_ref]\nlibrary = %s/plugins/.libs/libcpu_ref.so\n",
           build, build, codes, (int)TFLACCEL_OP_ADD, build);
  char *config_path = test_write_file(dir, "tflaccel.ini", text);
  tflaccel_environment_options environment_options = {
      .struct_size = sizeof environment_options, .config_path = config_path, .log_level = "debug"};
  tflaccel_environment *environment = NULL;
  ck_assert_ptr_null(tflaccel_environment_create(&environment_options, &environment));
  tflaccel_compilation_options options;
  tflaccel_compilation_options_init(&options);
  options.require_full_delegation = 1;
  tflaccel_compiled_model *compiled = NULL;
  char *log = capture_compile_with(environment, model, &options, &compiled, dir);
  ck_assert_int_eq(tflaccel_compiled_model_precision(compiled), TFLACCEL_PRECISION_FP16);
  const partition_plan *plan = compiled->plan;
  uint32_t fp32_partitions = 0, fp16_partitions = 0, joined = 0;
  for (uint32_t p = 0; p < plan->partition_count; ++p) {
    const partition *part = &plan->partitions[p];
    tflaccel_partition_info info = {.struct_size = sizeof info};
    ck_assert_ptr_null(tflaccel_compiled_model_partition_info(compiled, p, &info));
    ck_assert_str_eq(info.accelerator, "test_subset");
    int adds = 0;
    for (uint32_t i = 0; i < part->op_count; ++i)
      adds += compiled->graph->ops[part->ops[i]].code == TFLACCEL_OP_ADD;
    char line[512];
    if (adds) {
      /* Compiled at fp32, and said so, naming its first ADD; the small
       * runs between ADDs joined them (partitioner.c, raise_small_runs). */
      uint32_t first_add = part->ops[0];
      for (uint32_t i = part->op_count; i-- > 0;)
        if (compiled->graph->ops[part->ops[i]].code == TFLACCEL_OP_ADD) first_add = part->ops[i];
      ck_assert_int_eq(part->precision, TFLACCEL_PRECISION_FP32);
      ck_assert_int_eq(info.precision, TFLACCEL_PRECISION_FP32);
      char others[64] = "";
      if (adds < (int)part->op_count) {
        snprintf(others, sizeof others, " (%d of them need it; the others joined them)", adds);
        joined += part->op_count - (uint32_t)adds;
      }
      snprintf(line, sizeof line,
               "INFO: partition %u (%u operation%s on test_subset) runs at fp32%s, not the "
               "requested fp16: op %u (ADD): op code %d runs here only at fp32\n",
               p, part->op_count, part->op_count == 1 ? "" : "s", others, first_add,
               (int)TFLACCEL_OP_ADD);
      ck_assert_msg(strstr(log, line) != NULL, "'%s' not in the log:\n%s", line, log);
      snprintf(line, sizeof line, "compiling %u ops at fp32\n", part->op_count);
      ++fp32_partitions;
    } else {
      ck_assert_int_eq(part->precision, -1);
      ck_assert_int_eq(info.precision, TFLACCEL_PRECISION_FP16);
      snprintf(line, sizeof line, "compiling %u ops at fp16\n", part->op_count);
      ++fp16_partitions;
    }
    ck_assert_msg(strstr(log, line) != NULL, "'%s' not in the log:\n%s", line, log);
    if (p > 0) /* neighbours differ in precision (all on test_subset) */
      ck_assert_int_ne(part->precision, plan->partitions[p - 1].precision);
  }
  ck_assert_uint_gt(fp32_partitions, 0);
  ck_assert_uint_gt(fp16_partitions, 0);
  /* The residual blocks between ADDs are small beside the model's largest
   * fp16 run: they joined the ADDs' fp32 partitions. */
  ck_assert_uint_gt(joined, 0);
  ck_assert_ptr_null(partition_check_convex(compiled->graph, plan));
  /* A caller built before `precision` was appended: its bytes stay. */
  union {
    tflaccel_partition_info info;
    unsigned char bytes[sizeof(tflaccel_partition_info)];
  } old;
  memset(&old, 0xA5, sizeof old);
  old.info.struct_size = (uint32_t)offsetof(tflaccel_partition_info, precision);
  ck_assert_ptr_null(tflaccel_compiled_model_partition_info(compiled, 0, &old.info));
  ck_assert_uint_eq(old.info.struct_size, offsetof(tflaccel_partition_info, precision));
  for (size_t k = offsetof(tflaccel_partition_info, precision); k < sizeof old; ++k)
    ck_assert_uint_eq(old.bytes[k], 0xA5);
  tflaccel_compiled_model_destroy(compiled);
  free(log);

  /* Bit for bit against cpu_ref, through the split plan. */
  size_t reference_size = 0, subset_size = 0;
  tflaccel_status status = NULL;
  uint8_t *reference = run_model(environment, model, "cpu_ref", 0, &reference_size, NULL, &status);
  ck_assert_msg(reference != NULL, "%s", tflaccel_status_message(status));
  uint8_t *subset = run_model(environment, model, "test_subset,cpu_ref", 0, &subset_size, NULL, &status);
  ck_assert_msg(subset != NULL, "%s", tflaccel_status_message(status));
  ck_assert_uint_eq(subset_size, reference_size);
  ck_assert(memcmp(subset, reference, reference_size) == 0);
  free(reference);
  free(subset);

  /* At fp32 nothing needs another precision: one partition. */
  tflaccel_compilation_options fp32 = options;
  fp32.precision = TFLACCEL_PRECISION_FP32;
  status = tflaccel_compiled_model_create(environment, model, &fp32, &compiled);
  ck_assert_msg(status == NULL, "%s", tflaccel_status_message(status));
  ck_assert_uint_eq(compiled->plan->partition_count, 1);
  ck_assert_int_eq(compiled->plan->partitions[0].precision, -1);
  tflaccel_compiled_model_destroy(compiled);
  tflaccel_model_destroy(model);
  tflaccel_environment_destroy(environment);
  test_remove_tree(dir);
  free(config_path);
  free(dir);
}
END_TEST

/* An accelerator that takes no op gets its warnings but no "0 operations
 * will run on ..." line. */
START_TEST(accelerator_without_ops_logs_no_summary) {
  char *dir = test_make_temp_dir();
  char *config_path = write_config(dir, "126");
  tflaccel_environment_options environment_options = {
      .struct_size = sizeof environment_options, .config_path = config_path, .log_level = "info"};
  tflaccel_environment *environment = NULL;
  ck_assert_ptr_null(tflaccel_environment_create(&environment_options, &environment));
  tflaccel_model *model = NULL;
  ck_assert_ptr_null(tflaccel_model_load_file(data_model("hand_recrop.tflite"), &model));
  tflaccel_compiled_model *compiled = NULL;
  char *text = capture_compile(environment, model, &compiled, dir);
  ck_assert_ptr_nonnull(strstr(text, "cannot be handled by this delegate (test_subset): "
                                     "test_subset accepts only op codes 126\n"));
  ck_assert_ptr_null(strstr(text, "test_subset: test_subset"));
  ck_assert_ptr_null(strstr(text, "operations will run on"));
  free(text);
  tflaccel_compiled_model_destroy(compiled);
  tflaccel_model_destroy(model);
  tflaccel_environment_destroy(environment);
  test_remove_tree(dir);
  free(config_path);
  free(dir);
}
END_TEST

/* Runs compiled once on inputs of bytes 0, 1, 2, ... and returns output 0
 * (the caller frees). */
static uint8_t *run_on_counting_inputs(tflaccel_compiled_model *compiled, size_t *size) {
  tflaccel_tensor_buffer *input = NULL, *output = NULL;
  ck_assert_uint_eq(tflaccel_compiled_model_input_count(compiled), 1);
  ck_assert_uint_eq(tflaccel_compiled_model_output_count(compiled), 1);
  ck_assert_ptr_null(tflaccel_compiled_model_create_input_buffer(compiled, 0, &input));
  ck_assert_ptr_null(tflaccel_compiled_model_create_output_buffer(compiled, 0, &output));
  float *values = tflaccel_tensor_buffer_data(input);
  for (size_t k = 0; k < tflaccel_tensor_buffer_byte_size(input) / 4; ++k)
    values[k] = (float)(k % 255) / 127.5f - 1.0f;
  ck_assert_ptr_null(tflaccel_compiled_model_run(compiled, &input, 1, &output, 1));
  *size = tflaccel_tensor_buffer_byte_size(output);
  uint8_t *copy = malloc(*size);
  ck_assert_ptr_nonnull(copy);
  memcpy(copy, tflaccel_tensor_buffer_data(output), *size);
  tflaccel_tensor_buffer_destroy(input);
  tflaccel_tensor_buffer_destroy(output);
  return copy;
}

/* split_fallback_ops: one cpu_ref partition per op, the same outputs bit
 * for bit, and with profiling on a time for every partition. The
 * environment asks for kernel times (profile_kernels): cpu_ref keeps none
 * (its vtable has no executable_profile), so each partition reads 0. */
START_TEST(split_fallback_ops_gives_one_partition_per_op) {
  char *dir = test_make_temp_dir();
  char *config_path = write_config(dir, "3");
  tflaccel_environment_options environment_options = {.struct_size = sizeof environment_options,
                                                      .config_path = config_path,
                                                      .accelerators = "cpu_ref",
                                                      .log_level = "error",
                                                      .profile_kernels = 1};
  tflaccel_environment *environment = NULL;
  ck_assert_ptr_null(tflaccel_environment_create(&environment_options, &environment));
  tflaccel_model *model = NULL;
  ck_assert_ptr_null(tflaccel_model_load_file(data_model("hand_recrop.tflite"), &model));
  tflaccel_compilation_options options;
  tflaccel_compilation_options_init(&options);
  tflaccel_compiled_model *whole = NULL, *split = NULL;
  tflaccel_status created = tflaccel_compiled_model_create(environment, model, &options, &whole);
  ck_assert_msg(created == NULL, "%s", created ? tflaccel_status_message(created) : "");
  options.split_fallback_ops = 1;
  ck_assert_ptr_null(tflaccel_compiled_model_create(environment, model, &options, &split));
  ck_assert_uint_eq(tflaccel_compiled_model_partition_count(whole), 1);
  uint32_t ops = tflaccel_compiled_model_graph_op_count(split);
  ck_assert_uint_gt(ops, 1);
  ck_assert_uint_eq(tflaccel_compiled_model_partition_count(split), ops);
  double us = 0;
  tflaccel_status status = tflaccel_compiled_model_partition_run_us(split, 0, &us);
  ck_assert_ptr_nonnull(status); /* profiling is off */
  tflaccel_status_free(status);
  ck_assert_ptr_null(tflaccel_compiled_model_set_profiling(split, 1));
  status = tflaccel_compiled_model_partition_run_us(split, 0, &us);
  ck_assert_ptr_nonnull(status); /* no profiled run yet */
  tflaccel_status_free(status);
  size_t whole_size = 0, split_size = 0;
  uint8_t *a = run_on_counting_inputs(whole, &whole_size);
  uint8_t *b = run_on_counting_inputs(split, &split_size);
  ck_assert_uint_eq(whole_size, split_size);
  ck_assert_int_eq(memcmp(a, b, whole_size), 0);
  for (uint32_t p = 0; p < ops; ++p) {
    ck_assert_ptr_null(tflaccel_compiled_model_partition_run_us(split, p, &us));
    ck_assert(us >= 0.0);
    tflaccel_graph_op_info info = {.struct_size = sizeof info};
    ck_assert_ptr_null(tflaccel_compiled_model_graph_op_info(split, p, &info));
    ck_assert_uint_lt(info.partition, ops);
  }
  status = tflaccel_compiled_model_partition_run_us(split, ops, &us);
  ck_assert_ptr_nonnull(status);
  tflaccel_status_free(status);
  uint32_t kernels = 99;
  ck_assert_ptr_null(tflaccel_compiled_model_read_kernel_profile(split, 0, &kernels));
  ck_assert_uint_eq(kernels, 0);
  tflaccel_kernel_profile kernel = {.struct_size = sizeof kernel};
  status = tflaccel_compiled_model_kernel_profile(split, 0, 0, &kernel);
  ck_assert_ptr_nonnull(status); /* nothing was read */
  tflaccel_status_free(status);
  status = tflaccel_compiled_model_read_kernel_profile(split, ops, &kernels);
  ck_assert_ptr_nonnull(status);
  ck_assert_str_eq(tflaccel_status_message(status), "partition 63 out of range (63 partitions)");
  tflaccel_status_free(status);
  free(a);
  free(b);
  tflaccel_compiled_model_destroy(whole);
  tflaccel_compiled_model_destroy(split);
  tflaccel_model_destroy(model);
  tflaccel_environment_destroy(environment);
  test_remove_tree(dir);
  free(config_path);
  free(dir);
}
END_TEST

START_TEST(max_delegated_partitions_keeps_the_largest) {
  char *dir = test_make_temp_dir();
  char *config_path = write_config(dir, "3,0");
  tflaccel_environment_options environment_options = {
      .struct_size = sizeof environment_options, .config_path = config_path, .log_level = "error"};
  tflaccel_environment *environment = NULL;
  ck_assert_ptr_null(tflaccel_environment_create(&environment_options, &environment));
  tflaccel_model *model = NULL;
  ck_assert_ptr_null(tflaccel_model_load_file(data_model("face_detection_short_range.tflite"), &model));
  size_t unlimited_size = 0, limited_size = 0;
  tflaccel_status status = NULL;
  tflaccel_compiled_model *unlimited = NULL, *limited = NULL;
  uint8_t *a = run_model(environment, model, NULL, 0, &unlimited_size, &unlimited, &status);
  ck_assert_msg(a != NULL, "%s", tflaccel_status_message(status));
  uint8_t *b = run_model(environment, model, NULL, 1, &limited_size, &limited, &status);
  ck_assert_msg(b != NULL, "%s", tflaccel_status_message(status));
  ck_assert_int_eq(memcmp(a, b, unlimited_size), 0);
  uint32_t largest = 0, kept = 0, kept_ops = 0;
  for (uint32_t p = 0; p < tflaccel_compiled_model_partition_count(unlimited); ++p) {
    tflaccel_partition_info info = {.struct_size = sizeof info};
    ck_assert_ptr_null(tflaccel_compiled_model_partition_info(unlimited, p, &info));
    if (!strcmp(info.accelerator, "test_subset") && info.op_count > largest) largest = info.op_count;
  }
  for (uint32_t p = 0; p < tflaccel_compiled_model_partition_count(limited); ++p) {
    tflaccel_partition_info info = {.struct_size = sizeof info};
    ck_assert_ptr_null(tflaccel_compiled_model_partition_info(limited, p, &info));
    if (!strcmp(info.accelerator, "test_subset")) {
      ++kept;
      kept_ops = info.op_count;
    }
  }
  ck_assert_uint_eq(kept, 1);
  ck_assert_uint_ge(kept_ops, largest);
  free(a);
  free(b);
  tflaccel_compiled_model_destroy(unlimited);
  tflaccel_compiled_model_destroy(limited);
  tflaccel_model_destroy(model);
  tflaccel_environment_destroy(environment);
  test_remove_tree(dir);
  free(config_path);
  free(dir);
}
END_TEST

START_TEST(cost_model_hands_back_partitions_that_save_nothing) {
  /* Default costs: moving tensors costs time and test_subset is no faster
   * than cpu_ref, so no split partition survives; only the whole graph
   * would. */
  char *dir = test_make_temp_dir();
  char *config_path = write_config_with(dir, "3,0", "");
  tflaccel_environment_options environment_options = {
      .struct_size = sizeof environment_options, .config_path = config_path, .log_level = "error"};
  tflaccel_environment *environment = NULL;
  ck_assert_ptr_null(tflaccel_environment_create(&environment_options, &environment));
  tflaccel_model *model = NULL;
  ck_assert_ptr_null(tflaccel_model_load_file(data_model("face_detection_short_range.tflite"), &model));
  tflaccel_compiled_model *compiled = NULL;
  tflaccel_compilation_options options;
  tflaccel_compilation_options_init(&options);
  ck_assert_ptr_null(tflaccel_compiled_model_create(environment, model, &options, &compiled));
  ck_assert_uint_eq(tflaccel_compiled_model_partition_count(compiled), 1);
  tflaccel_partition_info info = {.struct_size = sizeof info};
  ck_assert_ptr_null(tflaccel_compiled_model_partition_info(compiled, 0, &info));
  ck_assert_str_eq(info.accelerator, "cpu_ref");
  tflaccel_compiled_model_destroy(compiled);
  tflaccel_model_destroy(model);
  tflaccel_environment_destroy(environment);
  test_remove_tree(dir);
  free(config_path);
  free(dir);
}
END_TEST

int main(void) {
  Suite *suite = suite_create("partition");
  TCase *models = tcase_create("models");
  tcase_set_timeout(models, 900);
  tcase_add_loop_test(models, split_models_match_cpu_ref_bit_for_bit, 0,
                      (int)(sizeof subsets / sizeof subsets[0]));
  tcase_add_test(models, strict_mode_lists_every_declined_op);
  tcase_add_test(models, warning_and_summary_lines_are_exact);
  tcase_add_test(models, accelerator_without_ops_logs_no_summary);
  tcase_add_test(models, ops_exact_only_in_fp32_get_fp32_partitions);
  tcase_add_test(models, split_fallback_ops_gives_one_partition_per_op);
  tcase_add_test(models, max_delegated_partitions_keeps_the_largest);
  tcase_add_test(models, cost_model_hands_back_partitions_that_save_nothing);
  suite_add_tcase(suite, models);
  return test_run_suite(suite);
}
