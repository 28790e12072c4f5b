/* Model lifecycle: mapping or copying the file, then read -> validate ->
 * infer shapes -> fold -> prepare. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/graph/folding.h"
#include "core/graph/graph_validation.h"
#include "core/graph/memory_limits.h"
#include "core/graph/model.h"
#include "core/graph/model_internal.h"
#include "core/graph/prepared_graph.h"
#include "core/graph/shape_inference.h"
#include "core/tflite/reader.h"
#include "core/util/regular_file.h"

/* Owned copies are 16-byte aligned like the mapping (which is page
 * aligned), so buffers aligned in the file are aligned in memory. */
#define MODEL_ALIGNMENT 16

static uint8_t *aligned_copy_buffer(size_t size) {
  size_t rounded = (size + MODEL_ALIGNMENT - 1) / MODEL_ALIGNMENT * MODEL_ALIGNMENT;
  if (rounded < size) return NULL;
  return aligned_alloc(MODEL_ALIGNMENT, rounded);
}

static tflaccel_status prepare(tflaccel_model *model) {
  tflaccel_status status = tflite_read(model->bytes, model->size, &model->pool, &model->stored);
  if (status) return status;
  for (uint32_t i = 0; i < model->stored.subgraph_count; ++i) {
    status = graph_validate_dependencies(&model->stored.subgraphs[i]);
    if (status) return tflaccel_status_annotate(status, "subgraph %u", i);
  }
  status = shape_inference_run(model);
  if (status) return tflaccel_status_annotate(status, "subgraph 0");
  status = memory_limits_check(model); /* before folding allocates anything */
  if (status) return status;
  status = fold_constants(model);
  if (status) return tflaccel_status_annotate(status, "subgraph 0");
  return prepared_graph_build(model);
}

static void release_bytes(const uint8_t *bytes, size_t size, model_storage storage) {
  if (bytes == NULL) return;
  if (storage == MODEL_STORAGE_MAPPED) munmap((void *)bytes, size);
  else free((void *)bytes);
}

/* Takes ownership of bytes (released on failure too). */
static tflaccel_status create(const uint8_t *bytes, size_t size, model_storage storage,
                              tflaccel_model **out) {
  tflaccel_model *model = calloc(1, sizeof *model);
  if (model == NULL) {
    release_bytes(bytes, size, storage);
    return tflaccel_status_make(TFLACCEL_OUT_OF_MEMORY, "out of memory loading a model");
  }
  model->bytes = bytes;
  model->size = size;
  model->storage = storage;
  pool_init(&model->pool);
  pthread_mutex_init(&model->token_lock, NULL);
  tflaccel_status status = prepare(model);
  if (status) {
    tflaccel_model_destroy(model);
    return status;
  }
  *out = model;
  return NULL;
}

void tflaccel_model_destroy(tflaccel_model *model) {
  if (model == NULL) return;
  pool_release(&model->pool);
  release_bytes(model->bytes, model->size, model->storage);
  pthread_mutex_destroy(&model->token_lock);
  free(model->file_name);
  free(model);
}

tflaccel_status tflaccel_model_load_memory(const void *data, size_t size, tflaccel_model **model) {
  if (model == NULL || (data == NULL && size > 0))
    return tflaccel_status_make(TFLACCEL_INVALID_ARGUMENT, "tflaccel_model_load_memory: NULL argument");
  *model = NULL;
  if (size == 0) return tflaccel_status_make(TFLACCEL_INVALID_MODEL, "the model is empty (0 bytes)");
  uint8_t *copy = aligned_copy_buffer(size);
  if (copy == NULL)
    return tflaccel_status_make(TFLACCEL_OUT_OF_MEMORY, "out of memory copying a %zu-byte model",
                                size);
  memcpy(copy, data, size);
  return create(copy, size, MODEL_STORAGE_OWNED, model);
}

static const char *error_text(int error, char *text, size_t size) {
  /* GNU strerror_r (config.h defines _GNU_SOURCE) returns the message. */
  return strerror_r(error, text, size);
}

/* Reads the whole file when it cannot be mapped (a pipe-like file system). */
static tflaccel_status read_whole(int fd, const char *path, size_t size, uint8_t **bytes) {
  uint8_t *buffer = aligned_copy_buffer(size);
  if (buffer == NULL)
    return tflaccel_status_make(TFLACCEL_OUT_OF_MEMORY, "%s: out of memory reading %zu bytes",
                                path, size);
  size_t done = 0;
  while (done < size) {
    ssize_t got = pread(fd, buffer + done, size - done, (off_t)done);
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) {
      char text[128];
      tflaccel_status status =
          tflaccel_status_make(TFLACCEL_IO_ERROR, "%s: read failed after %zu of %zu bytes: %s",
                               path, done, size, got < 0 ? error_text(errno, text, sizeof text)
                                                         : "unexpected end of file");
      free(buffer);
      return status;
    }
    done += (size_t)got;
  }
  *bytes = buffer;
  return NULL;
}

tflaccel_status tflaccel_model_load_file(const char *path, tflaccel_model **model) {
  if (path == NULL || model == NULL)
    return tflaccel_status_make(TFLACCEL_INVALID_ARGUMENT, "tflaccel_model_load_file: NULL argument");
  *model = NULL;
  int fd;
  uint64_t file_size;
  tflaccel_status status = regular_file_open(path, "model", &fd, &file_size);
  if (status) return status;
  if (file_size == 0) {
    close(fd);
    return tflaccel_status_make(TFLACCEL_INVALID_MODEL, "%s: the file is empty", path);
  }
  if (file_size > SIZE_MAX) {
    close(fd);
    return tflaccel_status_make(TFLACCEL_UNSUPPORTED, "%s: too large for this machine", path);
  }
  size_t size = (size_t)file_size;
  model_storage storage = MODEL_STORAGE_MAPPED;
  uint8_t *bytes = mmap(NULL, size, PROT_READ, MAP_PRIVATE, fd, 0);
  if (bytes == MAP_FAILED) {
    bytes = NULL;
    storage = MODEL_STORAGE_OWNED;
    status = read_whole(fd, path, size, &bytes);
  }
  close(fd);
  if (status) return status;
  status = create(bytes, size, storage, model);
  if (status == NULL) {
    const char *slash = strrchr(path, '/');
    (*model)->file_name = strdup(slash != NULL ? slash + 1 : path);
    if ((*model)->file_name == NULL) {
      tflaccel_model_destroy(*model);
      *model = NULL;
      status = tflaccel_status_make(TFLACCEL_OUT_OF_MEMORY, "out of memory loading a model");
    }
  }
  return tflaccel_status_annotate(status, "%s", path);
}

/* ---- Internal interface (model.h) ---------------------------------------- */

const tflaccel_graph_view *model_prepared_graph(const tflaccel_model *model) {
  return &model->prepared.view;
}

const uint32_t *model_graph_inputs(const tflaccel_model *model, uint32_t *count) {
  *count = model->prepared.input_count;
  return model->prepared.inputs;
}

const uint32_t *model_graph_outputs(const tflaccel_model *model, uint32_t *count) {
  *count = model->prepared.output_count;
  return model->prepared.outputs;
}

uint32_t model_prepared_op_source(const tflaccel_model *model, uint32_t op) {
  return op < model->prepared.view.op_count ? model->prepared.op_source[op] : UINT32_MAX;
}

int32_t model_tensor_producer(const tflaccel_model *model, uint32_t tensor) {
  return tensor < model->prepared.view.tensor_count ? model->prepared.producer[tensor] : -1;
}

const uint32_t *model_tensor_consumers(const tflaccel_model *model, uint32_t tensor,
                                       uint32_t *count) {
  if (tensor >= model->prepared.view.tensor_count) {
    *count = 0;
    return NULL;
  }
  const uint32_t *start = model->prepared.consumer_start;
  *count = start[tensor + 1] - start[tensor];
  return model->prepared.consumers + start[tensor];
}
