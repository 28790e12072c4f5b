#include "config.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/graph/model.h"
#include "tests/model/test_support.h"

static int is_directory(const char *path) {
  struct stat info;
  return path && path[0] && stat(path, &info) == 0 && S_ISDIR(info.st_mode);
}

const char *test_shared_models(const char *why) {
  const char *dir = getenv("TFLACCEL_SHARED_MODELS");
  if (is_directory(dir)) return dir;
  if (why) printf("../shared/models is absent: skipping %s\n", why);
  return NULL;
}

const char *test_data_dir(void) {
  const char *dir = getenv("TFLACCEL_TEST_DATA");
  return is_directory(dir) ? dir : NULL;
}

const char *test_model_dir(void) {
  const char *shared = test_shared_models(NULL);
  return shared ? shared : test_data_dir();
}

char *test_join(const char *dir, const char *name) {
  size_t length = strlen(dir) + 1 + strlen(name) + 1;
  char *path = malloc(length);
  if (path) snprintf(path, length, "%s/%s", dir, name);
  return path;
}

static int compare_paths(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

char **test_list_models(const char *dir, size_t *count) {
  *count = 0;
  DIR *directory = dir ? opendir(dir) : NULL;
  if (directory == NULL) return NULL;
  char **paths = NULL;
  size_t used = 0;
  struct dirent *entry;
  while ((entry = readdir(directory)) != NULL) {
    size_t length = strlen(entry->d_name);
    if (length < 8 || strcmp(entry->d_name + length - 7, ".tflite") != 0) continue;
    char **grown = realloc(paths, (used + 1) * sizeof *paths);
    if (grown == NULL) break;
    paths = grown;
    paths[used] = test_join(dir, entry->d_name);
    if (paths[used]) ++used;
  }
  closedir(directory);
  if (used) qsort(paths, used, sizeof *paths, compare_paths);
  *count = used;
  return paths;
}

void test_free_paths(char **paths, size_t count) {
  for (size_t i = 0; i < count; ++i) free(paths[i]);
  free(paths);
}

uint8_t *test_read_file(const char *path, size_t *size) {
  FILE *file = fopen(path, "rb");
  if (file == NULL) return NULL;
  uint8_t *bytes = NULL;
  if (fseek(file, 0, SEEK_END) == 0) {
    long length = ftell(file);
    if (length >= 0 && fseek(file, 0, SEEK_SET) == 0) {
      bytes = malloc(length ? (size_t)length : 1);
      if (bytes && fread(bytes, 1, (size_t)length, file) != (size_t)length) {
        free(bytes);
        bytes = NULL;
      }
      *size = (size_t)length;
    }
  }
  fclose(file);
  return bytes;
}


static const char *check_public_info(const tflaccel_model *model, uint64_t *checksum) {
  tflaccel_model_summary summary = {.struct_size = sizeof summary};
  tflaccel_status status = tflaccel_model_get_summary(model, &summary);
  if (status) {
    tflaccel_status_free(status);
    return "get_summary failed";
  }
  for (uint32_t t = 0; t < summary.tensor_count; ++t) {
    tflaccel_tensor_info info = {.struct_size = sizeof info};
    status = tflaccel_model_tensor_info(model, t, &info);
    if (status) {
      tflaccel_status_free(status);
      return "tensor_info failed";
    }
    if (info.name == NULL) return "a tensor has a NULL name";
    for (uint32_t k = 0; k < info.rank; ++k) *checksum += (uint32_t)info.shape[k];
    for (uint32_t k = 0; k < info.quantization.count; ++k)
      *checksum += (uint32_t)info.quantization.zero_points[k] + (info.quantization.scales[k] > 0);
  }
  for (uint32_t o = 0; o < summary.op_count; ++o) {
    tflaccel_op_info info = {.struct_size = sizeof info};
    status = tflaccel_model_op_info(model, o, &info);
    if (status) {
      tflaccel_status_free(status);
      return "op_info failed";
    }
    if (info.name == NULL) return "an op has a NULL name";
    for (uint32_t k = 0; k < info.input_count; ++k)
      if (info.inputs[k] < -1 || info.inputs[k] >= (int32_t)summary.tensor_count)
        return "an op input is out of range";
    for (uint32_t k = 0; k < info.output_count; ++k)
      if (info.outputs[k] < 0 || info.outputs[k] >= (int32_t)summary.tensor_count)
        return "an op output is out of range";
  }
  for (uint32_t i = 0; i < summary.subgraph_count; ++i)
    if (tflaccel_model_subgraph_name(model, i) == NULL) return "a subgraph name is NULL";
  for (uint32_t i = 0; i < summary.metadata_count; ++i)
    if (tflaccel_model_metadata_name(model, i) == NULL) return "a metadata name is NULL";
  for (uint32_t i = 0; i < summary.signature_count; ++i)
    if (tflaccel_model_signature_key(model, i) == NULL) return "a signature key is NULL";
  return NULL;
}

const char *test_model_consistency(const tflaccel_model *model) {
  uint64_t checksum = 0;
  const char *problem = check_public_info(model, &checksum);
  if (problem) return problem;
  const tflaccel_graph_view *graph = model_prepared_graph(model);
  uint32_t tensors = graph->tensor_count;
  for (uint32_t t = 0; t < tensors; ++t) {
    const tflaccel_tensor_desc *desc = &graph->tensors[t];
    if (desc->name == NULL) return "a prepared tensor has a NULL name";
    if (desc->rank && desc->dims == NULL) return "a prepared tensor has NULL dims";
    const uint8_t *data = desc->data;
    for (uint64_t i = 0; i < desc->data_size; ++i) checksum += data[i];
    if ((desc->flags & TFLACCEL_TENSOR_CONSTANT) && desc->data == NULL)
      return "a constant has no data";
    if (model_tensor_producer(model, t) >= (int32_t)graph->op_count) return "producer out of range";
    uint32_t count;
    const uint32_t *consumers = model_tensor_consumers(model, t, &count);
    for (uint32_t i = 0; i < count; ++i) {
      if (consumers[i] >= graph->op_count) return "consumer out of range";
      if (i && consumers[i] <= consumers[i - 1]) return "consumers not strictly increasing";
      const tflaccel_op_desc *op = &graph->ops[consumers[i]];
      int reads = 0;
      for (uint32_t k = 0; k < op->input_count; ++k) reads |= op->inputs[k] == t;
      if (!reads) return "a consumer does not read the tensor";
    }
  }
  for (uint32_t p = 0; p < graph->op_count; ++p) {
    const tflaccel_op_desc *op = &graph->ops[p];
    if (op->params == NULL) return "an op has NULL params";
    if (model_prepared_op_source(model, p) == UINT32_MAX) return "no source op";
    for (uint32_t k = 0; k < op->input_count; ++k) {
      uint32_t t = op->inputs[k];
      if (t == TFLACCEL_NO_TENSOR) continue;
      if (t >= tensors) return "a prepared op input is out of range";
      int32_t producer = model_tensor_producer(model, t);
      if (producer >= (int32_t)p) return "an op reads a tensor produced later";
      uint32_t count;
      const uint32_t *consumers = model_tensor_consumers(model, t, &count);
      int listed = 0;
      for (uint32_t i = 0; i < count; ++i) listed |= consumers[i] == p;
      if (!listed) return "an op is missing from its input's consumers";
    }
    for (uint32_t k = 0; k < op->output_count; ++k) {
      if (op->outputs[k] >= tensors) return "a prepared op output is out of range";
      if (model_tensor_producer(model, op->outputs[k]) != (int32_t)p) return "producer mismatch";
    }
    for (uint32_t k = 0; k < op->custom_options_size; ++k)
      checksum += ((const uint8_t *)op->custom_options)[k];
  }
  uint32_t count;
  const uint32_t *inputs = model_graph_inputs(model, &count);
  for (uint32_t i = 0; i < count; ++i)
    if (inputs[i] >= tensors || !(graph->tensors[inputs[i]].flags & TFLACCEL_TENSOR_GRAPH_INPUT))
      return "a graph input is not flagged";
  const uint32_t *outputs = model_graph_outputs(model, &count);
  for (uint32_t i = 0; i < count; ++i)
    if (outputs[i] >= tensors || !(graph->tensors[outputs[i]].flags & TFLACCEL_TENSOR_GRAPH_OUTPUT))
      return "a graph output is not flagged";
  /* Keeps the reads above from being optimized away. */
  return checksum == UINT64_MAX ? "checksum" : NULL;
}
