#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>

#include "core/facts/dtype.h"
#include "core/graph/memory_limits.h"
#include "core/util/env.h"

/* The limit in bytes; *from_env says where it came from, for the message. */
static tflaccel_status memory_limit(uint64_t *limit, int *from_env) {
  *limit = MODEL_DEFAULT_MEMORY_LIMIT;
  *from_env = 0;
  const char *text = env_get("TFLACCEL_MEMORY_LIMIT_MB");
  if (text == NULL) return NULL;
  char *end = NULL;
  errno = 0;
  unsigned long long megabytes = strtoull(text, &end, 10);
  if (errno != 0 || end == text || *end != '\0' || text[0] == '-' || megabytes == 0 ||
      megabytes > (UINT64_MAX >> 20))
    return tflaccel_status_make(TFLACCEL_INVALID_CONFIG,
                                "TFLACCEL_MEMORY_LIMIT_MB=%s: must be a positive number of MiB",
                                text);
  *limit = (uint64_t)megabytes << 20;
  *from_env = 1;
  return NULL;
}

/* Bytes of a shape of `dtype`, saturating at UINT64_MAX. */
static uint64_t shape_bytes(int32_t dtype, uint32_t rank, const int32_t *dims) {
  uint64_t bytes = dtype_size(dtype);
  for (uint32_t i = 0; i < rank; ++i) {
    uint64_t dim = dims[i] > 0 ? (uint64_t)dims[i] : 0;
    if (dim != 0 && bytes > UINT64_MAX / dim) return UINT64_MAX;
    bytes *= dim;
  }
  return bytes;
}

static tflaccel_status too_large(uint64_t needed, uint64_t limit, int from_env,
                                 const char *what) {
  return tflaccel_status_make(TFLACCEL_INVALID_MODEL,
                              "%s %" PRIu64 " bytes, more than the limit of %" PRIu64
                              " bytes (%s)",
                              what, needed, limit,
                              from_env ? "TFLACCEL_MEMORY_LIMIT_MB" : "the default; "
                                                                       "TFLACCEL_MEMORY_LIMIT_MB sets another");
}

tflaccel_status memory_limits_check(const tflaccel_model *model) {
  uint64_t limit;
  int from_env;
  tflaccel_status status = memory_limit(&limit, &from_env);
  if (status) return status;
  for (uint32_t s = 0; s < model->stored.subgraph_count; ++s) {
    const model_subgraph *subgraph = &model->stored.subgraphs[s];
    uint64_t total = 0;
    for (uint32_t t = 0; t < subgraph->tensor_count; ++t) {
      const model_tensor *tensor = &subgraph->tensors[t];
      if (tensor->data != NULL && !tensor->is_variable) continue; /* in the file already */
      uint64_t bytes = tensor->byte_size;
      if (s == 0 && model->shapes != NULL && model->shapes[t].known)
        bytes = shape_bytes(tensor->dtype, model->shapes[t].rank, model->shapes[t].dims);
      if (bytes > limit) {
        status = too_large(bytes, limit, from_env, "needs");
        return tflaccel_status_annotate(status, "subgraph %u: tensor %u ('%s')", s, t,
                                        tensor->name);
      }
      if (bytes > limit - total) {
        status = too_large(total + bytes, limit, from_env, "its tensors need at least");
        return tflaccel_status_annotate(status, "subgraph %u", s);
      }
      total += bytes;
    }
  }
  return NULL;
}
