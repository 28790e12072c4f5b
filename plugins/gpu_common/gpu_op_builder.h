/* An op builder: for one op code, everything the GPU layer knows about it
 * (as ONNX Runtime's op builders hold it): its arity, which of its tensors
 * hold values, whether it runs (the support check) and how it runs (the
 * lowering). Each op family in ops/ defines the builders of its ops; the
 * op table (ops/op_table.c) is the one place that maps an op to its
 * builder, read by the support query (gpu_support.c) and the lowering
 * driver (gpu_lowering.c) alike. Where to add an op: its builder in the
 * family file that shares its rules and kernels (or a new ops/<family>.c),
 * its family in ops/op_families.h and ops/op_table.c. */
#ifndef TFLACCEL_GPU_COMMON_GPU_OP_BUILDER_H
#define TFLACCEL_GPU_COMMON_GPU_OP_BUILDER_H

#include <stddef.h>
#include <stdint.h>

#include "plugins/gpu_common/gpu_lowering_state.h"
#include "plugins/gpu_common/gpu_support_check.h"
#include "tflaccel/accelerator.h"

/* max_inputs of ops that take any number of inputs (CONCATENATION: its
 * support check bounds them, with its own message). */
#define GPU_OP_ANY_INPUTS UINT32_MAX
/* outputs of ops that have any number of outputs (UNPACK: its support
 * check matches them to its input). */
#define GPU_OP_ANY_OUTPUTS UINT32_MAX

/* Which dtypes an op's value tensors (those not in index_inputs) may have. */
typedef enum gpu_op_values {
  GPU_VALUES_FLOAT32 = 0,         /* computes on them */
  GPU_VALUES_FLOAT32_OR_BOOL = 1, /* only moves them */
  GPU_VALUES_BOOL = 2,            /* logic */
} gpu_op_values;

typedef struct gpu_op_builder {
  int32_t code;            /* TFLACCEL_OP_* */
  const char *custom_code; /* TFLACCEL_OP_CUSTOM: the custom op's name; else NULL */
  uint32_t min_inputs, max_inputs, outputs;
  /* Bit i: input i holds shapes, paddings, axes or sizes (int32/int64
   * constants read on the host), not values. */
  uint32_t index_inputs;
  int32_t values;        /* gpu_op_values */
  /* Bit i: output i holds integer indices (int32/int64: ARG_MAX), held as
   * exact float values inside and written as integers at the partition's
   * edge; the builder's support check owns their rules. */
  uint32_t index_outputs;
  /* Bit i: input i may hold integer values (uint8, int8, int16, int32, not
   * quantized: CAST), which the partition's edge conversion makes float
   * values; the builder's support check owns their rules. */
  uint32_t integer_inputs;
  int reads_through_pad; /* a PAD of H and W before input 0 may be fused into it */
  /* Bit i: input i is a variable (state) tensor the op updates in place,
   * kept from one run to the next in the state buffer (gpu_state.h). */
  uint32_t state_inputs;
  /* Bit i: output i may be an int32 tensor with one scale (QUANTIZE to
   * int32, gpu_is_quantized_int32): held as its real values, quantized at
   * the partition's edge; the builder's support check owns its rules. */
  uint32_t quantized_int32_outputs;
  /* Optional, asked before the arity: 0 (with a reason) for a variant of
   * the op that has no GPU kernel at all (the full-kernel LSTM). */
  int (*has_kernel)(const gpu_support_check *check);
  /* The op's own rules, after the arity and the common tensor checks: 1,
   * or 0 with a one-line reason (gpu_decline). */
  int (*supports)(const gpu_support_check *check);
  /* Emits the dispatches of the op at partition position `position`
   * (only ops `supports` accepted reach it). */
  tflaccel_status (*lower)(gpu_lowering *lw, uint32_t position);
  /* Optional: 1 when the op at position, lowered, reads its input 0 with
   * GPU_KERNEL_CONV2D, which can read an 8-bit partition input in place
   * (GPU_IN_WORDS); the lowering then binds such an input with no
   * conversion dispatch where every reader says 1. */
  int (*reads_input_words)(const gpu_lowering *lw, uint32_t position);
  /* 1: its value tensors may also be int32 (not quantized), computed on
   * as float values, which is exact for its kernel (integer sums,
   * products, moves) where the bound proof (gpu_int_bounds.h) keeps every
   * value within the precision's exact integers. */
  int int32_values;
} gpu_op_builder;

/* The code of builtin op OP (TFLACCEL_OP_<OP>); messages name it with the
 * facts library's op_code_name. */
#define GPU_OP_BUILTIN(OP) .code = TFLACCEL_OP_##OP

/* The builders of one op family (one file in ops/). */
typedef struct gpu_op_family {
  const gpu_op_builder *builders;
  size_t count;
} gpu_op_family;

/* The builder of op (matching custom_code for TFLACCEL_OP_CUSTOM), or NULL
 * when the GPU layer has none. */
const gpu_op_builder *gpu_op_builder_find(const tflaccel_op_desc *op);

/* Whether input `index` of the builder's op holds indices, not values. */
static inline int gpu_op_input_holds_indices(const gpu_op_builder *builder, uint32_t index) {
  return index < 32 && ((builder->index_inputs >> index) & 1u);
}

/* Whether input `index` of the builder's op may hold integer values. */
static inline int gpu_op_input_holds_integers(const gpu_op_builder *builder, uint32_t index) {
  return index < 32 && ((builder->integer_inputs >> index) & 1u);
}

/* Whether input `index` of the builder's op is a state it keeps. */
static inline int gpu_op_input_holds_state(const gpu_op_builder *builder, uint32_t index) {
  return index < 32 && ((builder->state_inputs >> index) & 1u);
}

/* Whether output `index` of the builder's op may be a quantized int32. */
static inline int gpu_op_output_may_be_quantized_int32(const gpu_op_builder *builder,
                                                       uint32_t index) {
  return index < 32 && ((builder->quantized_int32_outputs >> index) & 1u);
}
/* Whether output `index` of the builder's op holds integer indices. */
static inline int gpu_op_output_holds_indices(const gpu_op_builder *builder, uint32_t index) {
  return index < 32 && ((builder->index_outputs >> index) & 1u);
}

#endif
