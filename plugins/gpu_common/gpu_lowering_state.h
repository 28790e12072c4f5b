/* The state of one partition's lowering: what the driver (gpu_lowering.c),
 * the emit helpers (gpu_emit.h) and the op builders (ops/) all read. */
#ifndef TFLACCEL_GPU_COMMON_GPU_LOWERING_STATE_H
#define TFLACCEL_GPU_COMMON_GPU_LOWERING_STATE_H

#include <stdint.h>

#include "plugins/gpu_common/gpu_backend.h"
#include "plugins/gpu_common/gpu_layout.h"
#include "plugins/gpu_common/gpu_program.h"
#include "tflaccel/accelerator.h"

/* Arena and constant offsets: generous for vector loads and any
 * sub-allocation rule. */
#define LOWER_ARENA_ALIGNMENT 256

/* A tensor as the lowering sees it: a graph tensor, or a temporary that
 * only the GPU program knows (index >= graph->tensor_count). */
typedef struct lower_tensor {
  gpu_shape shape;
  int32_t storage;          /* gpu_buffer_kind; NONE until stored somewhere */
  uint32_t binding;         /* GPU_BUFFER_BINDING */
  int32_t request;          /* GPU_BUFFER_ARENA: its arena request */
  uint64_t constant_offset; /* GPU_BUFFER_CONSTANTS, GPU_BUFFER_STATE: byte offset */
  int32_t alias;            /* tensor whose storage it shares (RESHAPE), else -1 */
  uint32_t consumers;       /* ops of the partition that read it */
  int32_t consumer;         /* position of that op when there is one */
  int32_t producer;         /* the dispatch that writes it, or -1 */
  uint8_t is_input, is_output, ready;
  uint8_t dense_kind; /* gpu_dense_kind: its values in the core's buffers */
  uint8_t read; /* some dispatch reads it (storage roots) */
  uint8_t on_grid; /* a quantized tensor already rounded onto its grid (gpu_emit_quant.h) */
  uint8_t words_in_place; /* an 8-bit partition input read as the core holds it (GPU_IN_WORDS) */
} lower_tensor;

/* A parameter offset that becomes known when the arena is planned. */
typedef struct lower_fixup {
  uint32_t dispatch, argument;
  int32_t request; /* -1: dropped (the argument moved out of the arena) */
  uint32_t unit;   /* bytes per unit of the offset; 0: the program's element size */
} lower_fixup;

typedef struct gpu_lowering {
  const gpu_backend *backend;
  const tflaccel_host_services *host;
  const tflaccel_graph_view *graph;
  const tflaccel_partition_desc *partition;
  gpu_program *program;

  lower_tensor *tensors; /* graph tensors, then temporaries */
  uint32_t tensor_count, tensor_capacity;
  uint8_t *absorbed;   /* per op position: fused into another dispatch */
  int32_t *pad_source; /* per op position: position of a PAD fused into it, or -1 */

  tflaccel_arena_request *requests;
  uint32_t request_count, request_capacity;
  lower_fixup *fixups;
  uint32_t fixup_count, fixup_capacity;
} gpu_lowering;

static inline const tflaccel_op_desc *lower_op(const gpu_lowering *lw, uint32_t position) {
  return &lw->graph->ops[lw->partition->ops[position]];
}

#endif
