/* What the lowering passes share (gpu_lowering.c drives; the per-op files
 * gpu_lower_*.c emit dispatches). */
#ifndef TFLACCEL_GPU_COMMON_GPU_LOWERING_INTERNAL_H
#define TFLACCEL_GPU_COMMON_GPU_LOWERING_INTERNAL_H

#include <stdint.h>

#include "plugins/gpu_common/gpu_backend.h"
#include "plugins/gpu_common/gpu_layout.h"
#include "plugins/gpu_common/gpu_program.h"
#include "tflaccel/accelerator.h"

/* A tensor as the lowering sees it: a graph tensor, or a temporary that
 * only the GPU program knows (index >= graph->tensor_count). */
typedef struct lower_tensor {
  gpu_shape shape;
  int32_t storage;          /* gpu_buffer_kind; NONE until stored somewhere */
  uint32_t binding;         /* GPU_BUFFER_BINDING */
  int32_t request;          /* GPU_BUFFER_ARENA: its arena request */
  uint64_t constant_offset; /* GPU_BUFFER_CONSTANTS: byte offset */
  int32_t alias;            /* tensor whose storage it shares (RESHAPE), else -1 */
  uint32_t consumers;       /* ops of the partition that read it */
  int32_t consumer;         /* position of that op when there is one */
  int32_t producer;         /* the dispatch that writes it, or -1 */
  uint8_t is_input, is_output, is_bool, ready;
  uint8_t read;             /* some dispatch reads it (storage roots) */
} lower_tensor;

/* A parameter offset that becomes known when the arena is planned. */
typedef struct lower_fixup {
  uint32_t dispatch, argument;
  int32_t request; /* -1: dropped (the argument moved out of the arena) */
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

/* A new dispatch of kernel (its index in *dispatch). */
tflaccel_status lower_add_dispatch(gpu_lowering *lw, int32_t kernel, uint32_t *dispatch);

/* Argument `argument` (1..6) of dispatch reads tensor (materialising a
 * constant in slice layout on first use). */
tflaccel_status lower_bind_input(gpu_lowering *lw, uint32_t dispatch, uint32_t argument,
                                 uint32_t tensor);
/* Argument `argument` reads constant bytes at byte offset. */
void lower_bind_constants(gpu_lowering *lw, uint32_t dispatch, uint32_t argument, uint64_t offset);

/* A temporary tensor of that shape (stored in the arena when written). */
tflaccel_status lower_temporary(gpu_lowering *lw, gpu_shape shape, uint32_t *tensor);

/* Slice strides (b, y, x, s) and the splat flag for reading operand at the
 * coordinates of out (broadcasting along the dims where it has 1). */
void lower_operand_strides(gpu_shape operand, gpu_shape out, int32_t strides[5]);

/* Appends a post-op; returns 0 when the dispatch has no room left. */
int lower_add_post(gpu_lowering *lw, uint32_t dispatch, const int32_t post[12]);
/* A clamp post-op for a fused activation (nothing for NONE). */
void lower_add_activation(gpu_lowering *lw, uint32_t dispatch, int32_t activation);

/* Ends a dispatch that computes tensor `output`:
 * absorbs the elementwise ops that follow it (as post-ops, using arguments
 * from first_free_argument on), binds the final tensor as t0 and sets the
 * default work size (W, B * H, S). */
tflaccel_status lower_finish(gpu_lowering *lw, uint32_t dispatch, uint32_t first_free_argument,
                             uint32_t output);
/* lower_finish, giving the tensor bound as t0 (output or the last op it
 * absorbed). */
tflaccel_status lower_finish_to(gpu_lowering *lw, uint32_t dispatch,
                                uint32_t first_free_argument, uint32_t output,
                                uint32_t *written);

/* Binds tensor as t0 of dispatch (when it is not yet stored, in the arena)
 * and writes the output header. */
tflaccel_status lower_bind_output(gpu_lowering *lw, uint32_t dispatch, uint32_t tensor);

/* Binds tensor as t6, the second output of the kernels that have one
 * (gpu_kernel_writes_glsl_binding). */
tflaccel_status lower_bind_second_output(gpu_lowering *lw, uint32_t dispatch, uint32_t tensor);

/* Sets global (and a preferred local) work size. */
void lower_set_work(gpu_lowering *lw, uint32_t dispatch, uint32_t x, uint32_t y, uint32_t z);

/* The ops: each lowers the op at `position`. */
tflaccel_status lower_conv(gpu_lowering *lw, uint32_t position);
tflaccel_status lower_depthwise(gpu_lowering *lw, uint32_t position);
tflaccel_status lower_transpose_conv(gpu_lowering *lw, uint32_t position);
tflaccel_status lower_fully_connected(gpu_lowering *lw, uint32_t position);
tflaccel_status lower_lstm(gpu_lowering *lw, uint32_t position); /* the basic cell */

/* The post-op code (gpu_unary_code, gpu_binary_code) of an elementwise op
 * code, 0 when it has none. */
int32_t lower_unary_code(int32_t op_code);
int32_t lower_binary_code(int32_t op_code);

/* Constants in gpu_conv2d's layout (gpu_lower_conv.c): weights given as
 * w(o, ky, kx, i) = source[((o * KH + ky) * KW + kx) * I + i] packed into
 * [O/4][KH][KW][I/4][4 inputs][4 outputs]; the bias as one vector per
 * output slice (zeros when bias is NULL). */
tflaccel_status lower_pack_conv_weights(gpu_lowering *lw, const tflaccel_tensor_desc *weights,
                                        int32_t out_c, int32_t kh, int32_t kw, int32_t in_c,
                                        uint64_t *offset);
tflaccel_status lower_pack_bias(gpu_lowering *lw, const tflaccel_tensor_desc *bias, int32_t out_c,
                                uint64_t *offset);
tflaccel_status lower_elementwise(gpu_lowering *lw, uint32_t position);
tflaccel_status lower_pool(gpu_lowering *lw, uint32_t position);
tflaccel_status lower_mean(gpu_lowering *lw, uint32_t position);
tflaccel_status lower_softmax(gpu_lowering *lw, uint32_t position);
tflaccel_status lower_pad(gpu_lowering *lw, uint32_t position);
tflaccel_status lower_concat(gpu_lowering *lw, uint32_t position);
tflaccel_status lower_reshape(gpu_lowering *lw, uint32_t position);
tflaccel_status lower_strided_slice(gpu_lowering *lw, uint32_t position);
tflaccel_status lower_depth_to_space(gpu_lowering *lw, uint32_t position);
tflaccel_status lower_resize(gpu_lowering *lw, uint32_t position);

/* The padding a fused PAD adds before/after H and W of the op at position
 * (zeros when none is fused), and the tensor the op really reads. */
typedef struct lower_fused_pad {
  int32_t top, bottom, left, right;
  uint32_t source;
} lower_fused_pad;
void lower_fused_pad_of(const gpu_lowering *lw, uint32_t position, lower_fused_pad *pad);

/* Whether the PAD at position can be absorbed by its consumer. */
int lower_pad_is_fusable(const gpu_lowering *lw, uint32_t position);

#endif
