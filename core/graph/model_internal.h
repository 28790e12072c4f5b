/* The model as core/graph holds it, private to core/graph: the file's bytes,
 * their stored form (core/tflite/stored_model.h) and the graph passes'
 * results. The rest of the core reaches a model through core/graph/model.h. */
#ifndef TFLACCEL_CORE_GRAPH_MODEL_INTERNAL_H
#define TFLACCEL_CORE_GRAPH_MODEL_INTERNAL_H

#include <pthread.h>
#include <stdint.h>

#include "core/facts/sha256.h"
#include "core/memory/allocation_pool.h"
#include "core/tflite/stored_model.h"
#include "tflaccel/accelerator.h"
#include "tflaccel/tflaccel.h"

/* A tensor's shape as shape inference knows it. */
typedef struct model_shape {
  uint32_t rank;
  const int32_t *dims;
  int32_t known; /* 0: stored as [] without has_rank, or with -1 dims */
} model_shape;

/* Subgraph 0 after folding, as accelerators see it. */
typedef struct prepared_graph {
  tflaccel_graph_view view;
  tflaccel_tensor_desc *tensors;
  tflaccel_op_desc *ops;
  uint32_t *op_source;            /* stored op index of each prepared op */
  uint32_t input_count, output_count;
  uint32_t *inputs, *outputs;
  int32_t *producer;              /* per tensor: prepared op, or -1 */
  uint32_t *consumer_start;       /* per tensor + 1: into consumers */
  uint32_t *consumers;
} prepared_graph;

/* Where the file's bytes come from, for release. */
typedef enum model_storage {
  MODEL_STORAGE_MAPPED = 0,   /* mmap()ed: munmap */
  MODEL_STORAGE_OWNED = 1,    /* an aligned allocation: free */
} model_storage;

struct tflaccel_model {
  const uint8_t *bytes;
  size_t size;
  model_storage storage;
  allocation_pool pool;

  stored_model stored;            /* what core/tflite read from bytes */

  /* Subgraph 0 after shape inference (one entry per tensor). */
  model_shape *shapes;
  /* Load-time folding: per tensor of subgraph 0, the computed constant
   * (NULL when not folded) and, per stored op, whether it was folded away. */
  const void **folded_data;
  uint64_t *folded_size;
  int32_t *folded_dtype;
  uint8_t *op_folded;

  prepared_graph prepared;
  uint64_t weight_bytes;
  uint64_t peak_activation_bytes;

  /* model_token(): "" until first asked for (only when a cache is on). */
  pthread_mutex_t token_lock;
  char token[SHA256_HEX_SIZE];
  char *file_name; /* the loaded file's last path component, or NULL */
};

#endif
