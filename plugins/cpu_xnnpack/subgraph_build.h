/* Building an XNNPACK subgraph from tflaccel ops. The same code serves
 * supports_op (one op in a scratch subgraph, so the library itself says yes
 * or no) and compile (a whole partition), so what is promised is what runs.
 *
 * Every define function returns 1 on success and 0 with build->reason
 * filled (one line, no trailing period) when XNNPACK cannot run the op. */
#ifndef TFLACCEL_CPU_XNNPACK_SUBGRAPH_BUILD_H
#define TFLACCEL_CPU_XNNPACK_SUBGRAPH_BUILD_H

#include <xnnpack.h>

#include "tflaccel/accelerator.h"

typedef struct xnnp_build {
  xnn_subgraph_t subgraph;
  const tflaccel_graph_view *graph;
  uint32_t *value_ids; /* tensor -> XNNPACK value id; XNN_INVALID_VALUE_ID until defined */
  char *reason;        /* TFLACCEL_REASON_SIZE bytes */
} xnnp_build;

/* printf into build->reason; returns 0 so callers can `return xnnp_fail(...)`. */
int xnnp_fail(xnnp_build *build, const char *format, ...) __attribute__((format(printf, 2, 3)));

/* Values (tensor_values.c). xnnp_value defines a tensor on first use: a
 * constant with its data in place (XNNPACK packs weights once, when the
 * runtime is created), anything else as an internal value. */
int xnnp_value(xnnp_build *build, uint32_t tensor, uint32_t *id);
/* Defines tensor as external value external_id (a partition input or
 * output); flags are XNN_VALUE_FLAG_EXTERNAL_*. */
int xnnp_external_value(xnnp_build *build, uint32_t tensor, uint32_t external_id,
                        uint32_t flags);
/* A constant tensor's data under another shape (PReLU's slope as [C]). */
int xnnp_constant_value_as(xnnp_build *build, uint32_t tensor, uint32_t rank,
                           const size_t *dims, uint32_t *id);

/* An intermediate value of the subgraph that no tensor of the graph names
 * (a step of an op composed from several XNNPACK nodes): float32, or 8-bit
 * with like's quantization. */
int xnnp_internal_value(xnnp_build *build, const tflaccel_tensor_desc *like, int32_t dtype,
                        uint32_t rank, const size_t *dims, uint32_t *id);
/* A tensor's dims as XNNPACK takes them (at most XNN_MAX_TENSOR_DIMS, all
 * known and positive). */
int xnnp_tensor_dims(xnnp_build *build, uint32_t tensor, size_t *dims);

/* Op access. NULL when absent. */
const tflaccel_tensor_desc *xnnp_input(const xnnp_build *build, const tflaccel_op_desc *op,
                                       uint32_t position);
const tflaccel_tensor_desc *xnnp_output(const xnnp_build *build, const tflaccel_op_desc *op,
                                        uint32_t position);
int xnnp_is_constant(const tflaccel_tensor_desc *tensor);
/* int8 or uint8 with one scale and zero point. */
int xnnp_is_quantized8(const tflaccel_tensor_desc *tensor);
/* Both tensors have the same dtype and quantization (XNNPACK's data-movement
 * ops and clamps keep the quantization of their input). */
int xnnp_same_type(const tflaccel_tensor_desc *a, const tflaccel_tensor_desc *b);
/* A fused activation as XNNPACK's real-valued output range. */
int xnnp_activation_range(xnnp_build *build, int32_t activation, float *output_min,
                          float *output_max);
/* TFLite's padding for one spatial axis: before and after. */
void xnnp_padding(int32_t padding, int32_t input, int32_t output, int32_t stride,
                  int32_t kernel, int32_t dilation, uint32_t *before, uint32_t *after);
/* The op's name for messages. */
const char *xnnp_op_name(const tflaccel_op_desc *op);
const char *xnnp_dtype_name(int32_t dtype);

/* Op families; each defines op (the graph's op at op_index) in the subgraph. */
int xnnp_define_convolution(xnnp_build *build, const tflaccel_op_desc *op);  /* ops_convolution.c */
int xnnp_define_pooling(xnnp_build *build, const tflaccel_op_desc *op);      /* ops_pooling.c */
int xnnp_define_binary(xnnp_build *build, const tflaccel_op_desc *op);       /* ops_binary.c */
int xnnp_define_unary(xnnp_build *build, const tflaccel_op_desc *op);        /* ops_unary.c */
int xnnp_define_data_movement(xnnp_build *build, const tflaccel_op_desc *op); /* ops_data_movement.c */
int xnnp_define_concatenation(xnnp_build *build, const tflaccel_op_desc *op); /* ops_concatenation.c */

/* The op table (op_table.c): dispatches by op code. */
int xnnp_define_op(xnnp_build *build, const tflaccel_op_desc *op);
/* The op is one this plugin has a builder for. */
int xnnp_op_listed(xnnp_build *build, const tflaccel_op_desc *op);
/* The op has one output and its tensor indices lie inside the graph. */
int xnnp_check_op_lists(xnnp_build *build, const tflaccel_op_desc *op);

#endif
