/* PACK (stack N same-shaped tensors along a new axis) and UNPACK (split a
 * tensor along an axis into as many tensors), any fixed-size dtype. */
#include "config.h"

#include <string.h>

#include "core/facts/axis.h"
#include "plugins/cpu_ref/kernels/generic/generic_kernels.h"
#include "plugins/cpu_ref/kernels/kernel_util.h"

/* The packed tensor, and the rank of each piece. */
static const tflaccel_tensor_desc *packed_tensor(const tflaccel_graph_view *graph,
                                                 const tflaccel_op_desc *op) {
  return op->code == TFLACCEL_OP_PACK ? cpu_op_output(graph, op, 0) : cpu_op_input(graph, op, 0);
}

static int32_t pack_axis(const tflaccel_op_desc *op, uint32_t packed_rank) {
  int32_t axis = op->code == TFLACCEL_OP_PACK ? op->params->pack.axis : op->params->unpack.axis;
  return axis_normalize(axis, packed_rank);
}

static int pack_check(const tflaccel_graph_view *graph, const tflaccel_op_desc *op,
                      char *reason) {
  const char *name = cpu_op_name(op);
  int is_pack = op->code == TFLACCEL_OP_PACK;
  uint32_t pieces = is_pack ? op->input_count : op->output_count;
  if (pieces < 1) return cpu_reason(reason, "%s needs at least one piece", name);
  if (!cpu_check_arity(graph, op, is_pack ? pieces : 1, is_pack ? pieces : 1,
                       is_pack ? 1 : pieces, reason))
    return 0;
  const tflaccel_tensor_desc *packed = packed_tensor(graph, op);
  int32_t axis = pack_axis(op, packed->rank);
  if (packed->rank == 0 || axis < 0)
    return cpu_reason(reason, "%s: axis is outside rank %u", name, packed->rank);
  if (packed->dims[axis] != (int32_t)pieces)
    return cpu_reason(reason, "%s: dim %d is %d, there are %u pieces", name, axis,
                      packed->dims[axis], pieces);
  for (uint32_t i = 0; i < pieces; i++) {
    const tflaccel_tensor_desc *piece = is_pack ? cpu_op_input(graph, op, i) : cpu_op_output(graph, op, i);
    if (piece->dtype != packed->dtype)
      return cpu_reason(reason, "%s: piece %u is %s, the packed tensor %s", name, i,
                        cpu_dtype_name(piece->dtype), cpu_dtype_name(packed->dtype));
    if (!cpu_check_same_quantization(piece, packed, reason)) return 0;
    if (piece->rank + 1 != packed->rank)
      return cpu_reason(reason, "%s: piece %u has rank %u, the packed tensor %u", name, i,
                        piece->rank, packed->rank);
    for (uint32_t d = 0; d < piece->rank; d++) {
      int32_t expected = packed->dims[d < (uint32_t)axis ? d : d + 1];
      if (piece->dims[d] != expected)
        return cpu_reason(reason, "%s: piece %u dim %u is %d, expected %d", name, i, d,
                          piece->dims[d], expected);
    }
  }
  return 1;
}

static tflaccel_status pack_eval(const cpu_op_context *context) {
  const tflaccel_op_desc *op = context->op;
  int is_pack = op->code == TFLACCEL_OP_PACK;
  const tflaccel_tensor_desc *packed = packed_tensor(context->graph, op);
  uint32_t pieces = is_pack ? op->input_count : op->output_count;
  int32_t axis = pack_axis(op, packed->rank);
  int64_t outer = cpu_dims_product(packed, 0, (uint32_t)axis);
  size_t piece_bytes = (size_t)cpu_dims_product(packed, (uint32_t)axis + 1, packed->rank) *
                       cpu_dtype_size(packed->dtype);
  if (piece_bytes == 0) return NULL;
  unsigned char *whole = is_pack ? cpu_output_data(context, 0) : cpu_input_data(context, 0);
  for (int64_t o = 0; o < outer; o++) {
    for (uint32_t i = 0; i < pieces; i++) {
      unsigned char *at = whole + ((size_t)o * pieces + i) * piece_bytes;
      if (is_pack)
        memcpy(at, (const unsigned char *)cpu_input_data(context, i) + o * piece_bytes, piece_bytes);
      else
        memcpy((unsigned char *)cpu_output_data(context, i) + o * piece_bytes, at, piece_bytes);
    }
  }
  return NULL;
}

const cpu_kernel cpu_kernel_pack = {.op_code = TFLACCEL_OP_PACK, .check = pack_check, .eval = pack_eval};
const cpu_kernel cpu_kernel_unpack = {
    .op_code = TFLACCEL_OP_UNPACK, .check = pack_check, .eval = pack_eval};
