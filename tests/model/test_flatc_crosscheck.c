/* Cross-check against flatc (Debian flatbuffers-compiler), when configure
 * found it: every model is dumped to JSON with the TFLite schema and the
 * reader must agree on subgraph and tensor counts, shapes, types, op codes
 * and op/graph inputs and outputs. flatc 2.0.8 rejects the schema's two
 * `(deprecated)` attributes, so it reads a copy without them. */
#include "config.h"

#include <check.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tests/model/inspect_runner.h"
#include "tests/model/test_support.h"
#include "tests/support/json.h"
#include "tflaccel/tflaccel.h"

extern char **environ;

static const char *flatc_path(void) {
  const char *path = TFLACCEL_FLATC;
  return path[0] ? path : NULL;
}

/* The schema, ../shared/tflite/schema.fbs next to the models. */
static char *schema_path(void) {
  const char *models = test_shared_models(NULL);
  if (models == NULL) return NULL;
  char *path = test_join(models, "../tflite/schema.fbs");
  if (path && access(path, R_OK) != 0) {
    free(path);
    return NULL;
  }
  return path;
}

static void write_schema_copy(const char *from, const char *to) {
  size_t size;
  uint8_t *text = test_read_file(from, &size);
  ck_assert_ptr_nonnull(text);
  FILE *out = fopen(to, "wb");
  ck_assert_ptr_nonnull(out);
  static const char attribute[] = " (deprecated)";
  size_t length = sizeof attribute - 1;
  for (size_t i = 0; i < size;) {
    if (i + length <= size && memcmp(text + i, attribute, length) == 0) {
      i += length;
      continue;
    }
    fputc(text[i++], out);
  }
  ck_assert_int_eq(fclose(out), 0);
  free(text);
}

static int run_flatc(const char *flatc, const char *directory, const char *schema,
                     const char *model) {
  char *argv[] = {(char *)flatc, "--json", "--strict-json", "--defaults-json", "-o",
                  (char *)directory, (char *)schema, "--", (char *)model, NULL};
  pid_t pid;
  if (posix_spawn(&pid, flatc, NULL, NULL, argv, environ) != 0) return -1;
  int status;
  if (waitpid(pid, &status, 0) < 0) return -1;
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

static double number_of(const json_value *value, const char *what) {
  ck_assert_msg(value && value->kind == JSON_NUMBER, "flatc JSON: %s is not a number", what);
  return value->number;
}

static int32_t op_code_by_name(const json_value *value) {
  if (value && value->kind == JSON_NUMBER) return (int32_t)value->number;
  ck_assert_msg(value && value->kind == JSON_STRING, "builtin_code is neither a name nor a number");
  for (int32_t code = 0; code < TFLACCEL_OP_CODE_COUNT; ++code) {
    const char *name = tflaccel_op_code_name(code);
    if (name && strcmp(name, value->string) == 0) return code;
  }
  ck_abort_msg("unknown op name %s", value->string);
  return -1;
}

static void check_int_list(const json_value *list, const int32_t *values, uint32_t count,
                           const char *what) {
  size_t length = list && list->kind == JSON_ARRAY ? list->count : 0;
  ck_assert_msg(length == count, "%s: flatc has %zu entries, the reader %u", what, length, count);
  for (uint32_t i = 0; i < count; ++i)
    ck_assert_msg((int32_t)number_of(json_at(list, i), what) == values[i],
                  "%s entry %u: flatc %d, the reader %d", what, i,
                  (int32_t)json_at(list, i)->number, values[i]);
}

static void compare(const char *name, const json_value *root, const tflaccel_model *model) {
  tflaccel_model_summary summary = {.struct_size = sizeof summary};
  ck_assert_ptr_null(tflaccel_model_get_summary(model, &summary));
  ck_assert_uint_eq((uint32_t)number_of(json_get(root, "version"), "version"), summary.schema_version);
  const json_value *subgraphs = json_get(root, "subgraphs");
  ck_assert_msg(subgraphs && subgraphs->count == summary.subgraph_count, "%s: subgraph count", name);
  const json_value *main_graph = json_at(subgraphs, 0);
  const json_value *tensors = json_get(main_graph, "tensors");
  ck_assert_msg(tensors && tensors->count == summary.tensor_count, "%s: tensor count", name);
  for (uint32_t t = 0; t < summary.tensor_count; ++t) {
    const json_value *tensor = json_at(tensors, t);
    tflaccel_tensor_info info = {.struct_size = sizeof info};
    ck_assert_ptr_null(tflaccel_model_tensor_info(model, t, &info));
    check_int_list(json_get(tensor, "shape"), info.shape, info.rank, "tensor shape");
    const json_value *type = json_get(tensor, "type");
    ck_assert_msg(type && type->kind == JSON_STRING &&
                      strcasecmp(type->string, tflaccel_dtype_name(info.dtype)) == 0,
                  "%s: tensor %u type", name, t);
    const json_value *tensor_name = json_get(tensor, "name");
    ck_assert_str_eq(tensor_name && tensor_name->kind == JSON_STRING ? tensor_name->string : "",
                     info.name);
  }
  const json_value *codes = json_get(root, "operator_codes");
  const json_value *ops = json_get(main_graph, "operators");
  size_t op_count = ops ? ops->count : 0;
  ck_assert_msg(op_count == summary.op_count, "%s: op count", name);
  for (uint32_t o = 0; o < summary.op_count; ++o) {
    const json_value *op = json_at(ops, o);
    const json_value *code = json_at(codes, (size_t)number_of(json_get(op, "opcode_index"), "opcode_index"));
    int32_t builtin = op_code_by_name(json_get(code, "builtin_code"));
    int32_t deprecated = (int32_t)number_of(json_get(code, "deprecated_builtin_code"), "deprecated code");
    tflaccel_op_info info = {.struct_size = sizeof info};
    ck_assert_ptr_null(tflaccel_model_op_info(model, o, &info));
    ck_assert_msg(info.code == (builtin > deprecated ? builtin : deprecated), "%s: op %u code", name, o);
    if (info.code == TFLACCEL_OP_CUSTOM)
      ck_assert_str_eq(json_get(code, "custom_code")->string, info.custom_code);
    check_int_list(json_get(op, "inputs"), info.inputs, info.input_count, "op inputs");
    check_int_list(json_get(op, "outputs"), info.outputs, info.output_count, "op outputs");
  }
  int32_t indices[64];
  for (uint32_t i = 0; i < summary.input_count && i < 64; ++i)
    ck_assert_ptr_null(tflaccel_model_input_tensor(model, i, (uint32_t *)&indices[i]));
  check_int_list(json_get(main_graph, "inputs"), indices, summary.input_count, "graph inputs");
  for (uint32_t i = 0; i < summary.output_count && i < 64; ++i)
    ck_assert_ptr_null(tflaccel_model_output_tensor(model, i, (uint32_t *)&indices[i]));
  check_int_list(json_get(main_graph, "outputs"), indices, summary.output_count, "graph outputs");
}

/* `tflaccel inspect --json` against flatc: subgraph and tensor counts, the
 * op histogram of subgraph 0 and the inputs' and outputs' names, types and
 * shapes, exactly what the issue asks inspect to report. */
static void compare_inspect(const char *path, const json_value *root) {
  char *out, *err;
  char *argv[] = {"inspect", "--json", (char *)path, NULL};
  int exit_status = test_run_inspect(3, argv, &out, &err);
  ck_assert_msg(exit_status == 0, "inspect %s: %s", path, err);
  json_value *report = json_parse(out, strlen(out), NULL);
  ck_assert_msg(report != NULL, "inspect %s printed invalid JSON", path);
  free(out);
  free(err);
  const json_value *subgraphs = json_get(root, "subgraphs");
  const json_value *main_graph = json_at(subgraphs, 0);
  const json_value *tensors = json_get(main_graph, "tensors");
  ck_assert_uint_eq((size_t)number_of(json_get(report, "subgraphs"), "subgraphs"), subgraphs->count);
  ck_assert_uint_eq((size_t)number_of(json_get(report, "tensors"), "tensors"), tensors->count);
  /* The histogram, rebuilt from flatc's operators. */
  const json_value *codes = json_get(root, "operator_codes");
  const json_value *ops = json_get(main_graph, "operators");
  const json_value *histogram = json_get(report, "ops");
  ck_assert_ptr_nonnull(histogram);
  size_t total = 0;
  for (size_t i = 0; i < histogram->count; ++i) {
    const char *key = histogram->keys[i];
    size_t count = 0;
    for (size_t o = 0; ops && o < ops->count; ++o) {
      const json_value *code = json_at(codes, (size_t)json_get(json_at(ops, o), "opcode_index")->number);
      int32_t builtin = op_code_by_name(json_get(code, "builtin_code"));
      int32_t deprecated = (int32_t)json_get(code, "deprecated_builtin_code")->number;
      int32_t real = builtin > deprecated ? builtin : deprecated;
      char name[256];
      if (real == TFLACCEL_OP_CUSTOM)
        snprintf(name, sizeof name, "CUSTOM:%s", json_get(code, "custom_code")->string);
      else
        snprintf(name, sizeof name, "%s", tflaccel_op_code_name(real));
      if (strcmp(name, key) == 0) ++count;
    }
    ck_assert_msg((size_t)histogram->items[i].number == count, "%s: %s: inspect %g, flatc %zu",
                  path, key, histogram->items[i].number, count);
    total += count;
  }
  ck_assert_msg(total == (ops ? ops->count : 0), "%s: the histogram misses ops", path);
  static const char *const lists[] = {"inputs", "outputs"};
  for (int l = 0; l < 2; ++l) {
    const json_value *indices = json_get(main_graph, lists[l]);
    const json_value *reported = json_get(report, lists[l]);
    ck_assert_uint_eq(reported->count, indices->count);
    for (size_t i = 0; i < indices->count; ++i) {
      const json_value *tensor = json_at(tensors, (size_t)json_at(indices, i)->number);
      const json_value *entry = json_at(reported, i);
      const json_value *name = json_get(tensor, "name");
      ck_assert_str_eq(json_get(entry, "name")->string,
                       name && name->kind == JSON_STRING ? name->string : "");
      ck_assert(strcasecmp(json_get(entry, "dtype")->string, json_get(tensor, "type")->string) == 0);
      const json_value *shape = json_get(tensor, "shape"), *reported_shape = json_get(entry, "shape");
      size_t rank = shape && shape->kind == JSON_ARRAY ? shape->count : 0;
      ck_assert_uint_eq(reported_shape->count, rank);
      for (size_t k = 0; k < rank; ++k)
        ck_assert(json_at(reported_shape, k)->number == json_at(shape, k)->number);
    }
  }
  json_destroy(report);
}

START_TEST(reader_agrees_with_flatc) {
  const char *flatc = flatc_path();
  char *schema = schema_path();
  if (flatc == NULL || schema == NULL) {
    printf("flatc or ../shared/tflite/schema.fbs not found: skipping the flatc cross-check\n");
    free(schema);
    return;
  }
  const char *base = getenv("TMPDIR");
  char *directory = test_join(base && base[0] ? base : "/tmp", "tflaccel-flatc-XXXXXX");
  ck_assert_ptr_nonnull(mkdtemp(directory));
  char *schema_copy = test_join(directory, "schema.fbs");
  write_schema_copy(schema, schema_copy);

  size_t count;
  char **paths = test_list_models(test_model_dir(), &count);
  ck_assert_uint_gt(count, 0);
  for (size_t i = 0; i < count; ++i) {
    ck_assert_int_eq(run_flatc(flatc, directory, schema_copy, paths[i]), 0);
    const char *base_name = strrchr(paths[i], '/') + 1;
    char json_name[512];
    snprintf(json_name, sizeof json_name, "%.*s.json", (int)(strlen(base_name) - 7), base_name);
    char *json_path = test_join(directory, json_name);
    size_t size;
    uint8_t *text = test_read_file(json_path, &size);
    ck_assert_msg(text != NULL, "flatc wrote no %s", json_path);
    unlink(json_path);
    /* Buffer bytes are by far the biggest part, and not compared. */
    json_value *root = json_parse((const char *)text, size, "data");
    free(text);
    ck_assert_msg(root != NULL, "%s: flatc's JSON does not parse", json_path);
    tflaccel_model *model = NULL;
    tflaccel_status status = tflaccel_model_load_file(paths[i], &model);
    ck_assert_msg(status == NULL, "%s: %s", paths[i], tflaccel_status_message(status));
    compare(paths[i], root, model);
    compare_inspect(paths[i], root);
    tflaccel_model_destroy(model);
    json_destroy(root);
    free(json_path);
  }
  test_free_paths(paths, count);
  unlink(schema_copy);
  rmdir(directory);
  free(schema_copy);
  free(directory);
  free(schema);
}
END_TEST

START_TEST(json_reader_reads_what_flatc_writes) {
  static const char text[] = "{\"a\": [1, -2.5e1, true, null], \"data\": [1, 2, 3], \"s\": \"x\\\"y\"}";
  json_value *root = json_parse(text, sizeof text - 1, "data");
  ck_assert_ptr_nonnull(root);
  ck_assert_double_eq(json_at(json_get(root, "a"), 1)->number, -25.0);
  ck_assert_int_eq(json_get(root, "data")->kind, JSON_SKIPPED);
  ck_assert_str_eq(json_get(root, "s")->string, "x\"y");
  json_destroy(root);
  /* \u escapes become UTF-8, surrogate pairs joined. */
  static const char escapes[] = "[\"\\u0041\\u00e9\\ud83d\\ude00\"]";
  root = json_parse(escapes, sizeof escapes - 1, NULL);
  ck_assert_ptr_nonnull(root);
  ck_assert_str_eq(json_at(root, 0)->string, "A\xc3\xa9\xf0\x9f\x98\x80");
  json_destroy(root);
  ck_assert_ptr_null(json_parse("{\"a\": [1,", 9, NULL));
}
END_TEST

int main(void) {
  Suite *suite = suite_create("flatc_crosscheck");
  TCase *cases = tcase_create("flatc");
  tcase_set_timeout(cases, 600);
  tcase_add_test(cases, json_reader_reads_what_flatc_writes);
  tcase_add_test(cases, reader_agrees_with_flatc);
  suite_add_tcase(suite, cases);
  SRunner *runner = srunner_create(suite);
  srunner_run_all(runner, CK_NORMAL);
  int failed = srunner_ntests_failed(runner);
  srunner_free(runner);
  return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
