/* Ops that move or convert data: RESHAPE, SQUEEZE, EXPAND_DIMS, PAD,
 * RESIZE_BILINEAR, DEPTH_TO_SPACE, SOFTMAX (float32 and 8-bit), QUANTIZE
 * (from float32 or another 8-bit quantization) and DEQUANTIZE. */
#include "config.h"

#include <string.h>

#include "plugins/cpu_xnnpack/subgraph_build.h"

static int define_in_out(xnnp_build *build, const tflaccel_op_desc *op, uint32_t *in,
                         uint32_t *out) {
  return xnnp_value(build, op->inputs[0], in) && xnnp_value(build, op->outputs[0], out);
}

static int rejected(xnnp_build *build, const tflaccel_op_desc *op, enum xnn_status status) {
  if (status == xnn_status_success) return 1;
  return xnnp_fail(build, "XNNPACK rejects this %s (status %d)", xnnp_op_name(op), (int)status);
}

/* Float32, or 8-bit quantized kept as it is. */
static int movable(xnnp_build *build, const tflaccel_op_desc *op,
                   const tflaccel_tensor_desc *input, const tflaccel_tensor_desc *output) {
  if (!xnnp_same_type(input, output))
    return xnnp_fail(build, "%s changes the tensor type or quantization", xnnp_op_name(op));
  if (input->dtype != TFLACCEL_DTYPE_FLOAT32 && !xnnp_is_quantized8(input))
    return xnnp_fail(build, "%s on %s is left to cpu_ref", xnnp_op_name(op),
                     xnnp_dtype_name(input->dtype));
  return 1;
}

static int define_reshape(xnnp_build *build, const tflaccel_op_desc *op,
                          const tflaccel_tensor_desc *output) {
  /* A shape the partition computes would be a non-constant input. */
  for (uint32_t i = 1; i < op->input_count; i++) {
    const tflaccel_tensor_desc *extra = xnnp_input(build, op, i);
    if (extra != NULL && !xnnp_is_constant(extra))
      return xnnp_fail(build, "%s with a computed shape is left to cpu_ref", xnnp_op_name(op));
  }
  if (output->rank > XNN_MAX_TENSOR_DIMS)
    return xnnp_fail(build, "%s to rank %u", xnnp_op_name(op), output->rank);
  size_t shape[XNN_MAX_TENSOR_DIMS];
  for (uint32_t i = 0; i < output->rank; i++) shape[i] = (size_t)output->dims[i];
  uint32_t in, out;
  if (!define_in_out(build, op, &in, &out)) return 0;
  return rejected(build, op,
                  xnn_define_static_reshape(build->subgraph, output->rank, shape, in, out, 0));
}

/* PAD's paddings: a constant [rank, 2] of int32 or int64. */
static int read_paddings(xnnp_build *build, const tflaccel_tensor_desc *paddings, uint32_t rank,
                         size_t *before, size_t *after) {
  if (paddings == NULL || !xnnp_is_constant(paddings) || paddings->rank != 2 ||
      paddings->dims[0] != (int32_t)rank || paddings->dims[1] != 2)
    return xnnp_fail(build, "PAD: the paddings are not a constant [%u, 2] tensor", rank);
  for (uint32_t i = 0; i < 2 * rank; i++) {
    int64_t value;
    if (paddings->dtype == TFLACCEL_DTYPE_INT32) {
      int32_t narrow;
      memcpy(&narrow, (const char *)paddings->data + i * sizeof narrow, sizeof narrow);
      value = narrow;
    } else if (paddings->dtype == TFLACCEL_DTYPE_INT64) {
      memcpy(&value, (const char *)paddings->data + i * sizeof value, sizeof value);
    } else {
      return xnnp_fail(build, "PAD: paddings of type %s", xnnp_dtype_name(paddings->dtype));
    }
    if (value < 0) return xnnp_fail(build, "PAD: negative padding %lld", (long long)value);
    (i % 2 == 0 ? before : after)[i / 2] = (size_t)value;
  }
  return 1;
}

static int define_pad(xnnp_build *build, const tflaccel_op_desc *op,
                      const tflaccel_tensor_desc *input) {
  if (op->input_count > 2)
    return xnnp_fail(build, "PAD with a padding value is left to cpu_ref");
  size_t before[XNN_MAX_TENSOR_DIMS], after[XNN_MAX_TENSOR_DIMS];
  if (input->rank > XNN_MAX_TENSOR_DIMS)
    return xnnp_fail(build, "PAD of rank %u", input->rank);
  if (!read_paddings(build, xnnp_input(build, op, 1), input->rank, before, after)) return 0;
  uint32_t in, out;
  if (!define_in_out(build, op, &in, &out)) return 0;
  /* The value is real-valued: XNNPACK quantizes it, so 0 pads with the
   * zero point as TFLite does. */
  return rejected(build, op,
                  xnn_define_static_constant_pad(build->subgraph, before, after, 0.0f, in, out, 0));
}

static int define_resize_bilinear(xnnp_build *build, const tflaccel_op_desc *op,
                                  const tflaccel_tensor_desc *input,
                                  const tflaccel_tensor_desc *output) {
  if (input->rank != 4 || output->rank != 4)
    return xnnp_fail(build, "RESIZE_BILINEAR of rank %u", input->rank);
  const tflaccel_resize_params *p = &op->params->resize;
  uint32_t flags = 0;
  if (p->align_corners)
    flags = XNN_FLAG_ALIGN_CORNERS;
  else if (!p->half_pixel_centers)
    flags = XNN_FLAG_TENSORFLOW_LEGACY_MODE;
  uint32_t in, out;
  if (!define_in_out(build, op, &in, &out)) return 0;
  return rejected(build, op,
                  xnn_define_static_resize_bilinear_2d(build->subgraph, (size_t)output->dims[1],
                                                       (size_t)output->dims[2], in, out, flags));
}

/* A float32 intermediate of tensor's shape. */
static int float_value_like(xnnp_build *build, uint32_t tensor, uint32_t *id) {
  size_t dims[XNN_MAX_TENSOR_DIMS];
  return xnnp_tensor_dims(build, tensor, dims) &&
         xnnp_internal_value(build, NULL, TFLACCEL_DTYPE_FLOAT32,
                             build->graph->tensors[tensor].rank, dims, id);
}

/* QUANTIZE from float32, DEQUANTIZE to float32: one Convert. QUANTIZE from
 * one 8-bit quantization to another (uint8 <-> int8, or a new scale): this
 * XNNPACK converts only between float and 8-bit, so through a float32
 * intermediate; with equal scales (uint8 -> int8 at a model's input) that is
 * exact, otherwise it rounds once, as XNNPACK's own requantizing ops do. */
static int define_convert(xnnp_build *build, const tflaccel_op_desc *op,
                          const tflaccel_tensor_desc *input, const tflaccel_tensor_desc *output) {
  int quantize = op->code == TFLACCEL_OP_QUANTIZE;
  int requantize = quantize && xnnp_is_quantized8(input) && xnnp_is_quantized8(output);
  const tflaccel_tensor_desc *real = quantize ? input : output;
  const tflaccel_tensor_desc *quantized = quantize ? output : input;
  if (!requantize && (real->dtype != TFLACCEL_DTYPE_FLOAT32 || !xnnp_is_quantized8(quantized)))
    return xnnp_fail(build, "%s from %s to %s is left to cpu_ref", xnnp_op_name(op),
                     xnnp_dtype_name(input->dtype), xnnp_dtype_name(output->dtype));
  uint32_t in, out;
  if (!define_in_out(build, op, &in, &out)) return 0;
  if (!requantize) return rejected(build, op, xnn_define_convert(build->subgraph, in, out, 0));
  uint32_t real_value;
  if (!float_value_like(build, op->inputs[0], &real_value)) return 0;
  return rejected(build, op, xnn_define_convert(build->subgraph, in, real_value, 0)) &&
         rejected(build, op, xnn_define_convert(build->subgraph, real_value, out, 0));
}

/* SOFTMAX over the last axis. This XNNPACK's subgraph Softmax is float32
 * only: 8-bit data is converted to float and the probabilities back to the
 * output's quantization (TFLite's integer kernel approximates exp in fixed
 * point instead; the two differ by at most an LSB here and there). */
static int define_softmax(xnnp_build *build, const tflaccel_op_desc *op,
                          const tflaccel_tensor_desc *input, const tflaccel_tensor_desc *output) {
  int is_float = input->dtype == TFLACCEL_DTYPE_FLOAT32 && output->dtype == TFLACCEL_DTYPE_FLOAT32;
  int is_quantized = xnnp_is_quantized8(input) && xnnp_is_quantized8(output);
  if (!is_float && !is_quantized)
    return xnnp_fail(build, "SOFTMAX on %s is left to cpu_ref", xnnp_dtype_name(input->dtype));
  if (op->params->softmax.beta != 1.0f)
    return xnnp_fail(build, "SOFTMAX with beta %g (XNNPACK's is 1)",
                     (double)op->params->softmax.beta);
  uint32_t in, out;
  if (!define_in_out(build, op, &in, &out)) return 0;
  if (is_float) return rejected(build, op, xnn_define_softmax(build->subgraph, in, out, 0));
  uint32_t logits, probabilities;
  if (!float_value_like(build, op->inputs[0], &logits) ||
      !float_value_like(build, op->outputs[0], &probabilities))
    return 0;
  return rejected(build, op, xnn_define_convert(build->subgraph, in, logits, 0)) &&
         rejected(build, op, xnn_define_softmax(build->subgraph, logits, probabilities, 0)) &&
         rejected(build, op, xnn_define_convert(build->subgraph, probabilities, out, 0));
}

int xnnp_define_data_movement(xnnp_build *build, const tflaccel_op_desc *op) {
  const tflaccel_tensor_desc *input = xnnp_input(build, op, 0), *output = xnnp_output(build, op, 0);
  if (input == NULL || output == NULL)
    return xnnp_fail(build, "%s lacks its input or output", xnnp_op_name(op));
  uint32_t in, out;
  switch (op->code) {
    case TFLACCEL_OP_RESHAPE:
    case TFLACCEL_OP_SQUEEZE:
    case TFLACCEL_OP_EXPAND_DIMS:
      return movable(build, op, input, output) && define_reshape(build, op, output);
    case TFLACCEL_OP_PAD:
      return movable(build, op, input, output) && define_pad(build, op, input);
    case TFLACCEL_OP_RESIZE_BILINEAR:
      return movable(build, op, input, output) &&
             define_resize_bilinear(build, op, input, output);
    case TFLACCEL_OP_DEPTH_TO_SPACE:
      if (input->dtype != TFLACCEL_DTYPE_FLOAT32 || output->dtype != TFLACCEL_DTYPE_FLOAT32)
        return xnnp_fail(build, "DEPTH_TO_SPACE on %s is left to cpu_ref",
                         xnnp_dtype_name(input->dtype));
      if (!define_in_out(build, op, &in, &out)) return 0;
      return rejected(build, op,
                      xnn_define_depth_to_space(build->subgraph, in, out,
                                                (uint32_t)op->params->block_size.block_size, 0));
    case TFLACCEL_OP_SOFTMAX:
      return define_softmax(build, op, input, output);
    case TFLACCEL_OP_QUANTIZE:
    case TFLACCEL_OP_DEQUANTIZE:
      return define_convert(build, op, input, output);
    default:
      return xnnp_fail(build, "%s is not a data-movement op", xnnp_op_name(op));
  }
}
