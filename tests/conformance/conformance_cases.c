/* The conformance cases (conformance_cases.h): channel counts that are not
 * multiples of 4, stride 2, SAME and VALID, broadcasting, every fused
 * activation, tiny and large shapes, and chains that exercise fusion. */
#include "config.h"

#include <check.h>
#include <string.h>

#include "tests/conformance/conformance_cases.h"
#include "tests/support/flexbuffer_vectors.h"

/* ---- shape arithmetic (TFLite's) ---- */

static int32_t conv_out(int32_t padding, int32_t in, int32_t k, int32_t stride, int32_t dilation) {
  int32_t dilated = (k - 1) * dilation + 1;
  if (padding == TFLACCEL_PADDING_SAME) return (in + stride - 1) / stride;
  return (in - dilated + stride) / stride;
}

static uint32_t input_of(cf_graph *graph, const cf_case *spec) {
  return cf_input(graph, TFLACCEL_DTYPE_FLOAT32, spec->rank, spec->shape, -2.0f, 2.0f);
}

/* ---- builders ---- */

static void build_conv(cf_graph *graph, const cf_case *spec) {
  int depthwise = spec->op == TFLACCEL_OP_DEPTHWISE_CONV_2D;
  int32_t dilation = spec->dilation ? spec->dilation : 1, stride = spec->stride ? spec->stride : 1;
  int32_t in_c = spec->shape[3];
  int32_t out_c = depthwise ? in_c * (spec->multiplier ? spec->multiplier : 1) : spec->out_c;
  uint32_t input = input_of(graph, spec);
  int32_t filter_dims[4] = {depthwise ? 1 : out_c, spec->kh, spec->kw, depthwise ? out_c : in_c};
  uint32_t filter = cf_constant(graph, 4, filter_dims, -0.5f, 0.5f);
  uint32_t bias = TFLACCEL_NO_TENSOR;
  if (!(spec->flags & CF_NO_BIAS)) bias = cf_constant(graph, 1, &out_c, -1.0f, 1.0f);
  int32_t out_dims[4] = {
      spec->shape[0], conv_out(spec->padding, spec->shape[1], spec->kh, stride, dilation),
      conv_out(spec->padding, spec->shape[2], spec->kw, stride, dilation), out_c};
  uint32_t output = cf_tensor(graph, TFLACCEL_DTYPE_FLOAT32, 4, out_dims);
  uint32_t inputs[3] = {input, filter, bias};
  tflaccel_op_params *p = cf_op(graph, spec->op, 3, inputs, output);
  if (depthwise) {
    p->depthwise_conv_2d = (tflaccel_depthwise_conv_2d_params){
        spec->padding, stride, stride, out_c / in_c, spec->activation, dilation, dilation};
  } else {
    p->conv_2d = (tflaccel_conv_2d_params){spec->padding,    stride,   stride,
                                           spec->activation, dilation, dilation};
  }
  cf_output(graph, output);
}

static void build_fully_connected(cf_graph *graph, const cf_case *spec) {
  uint32_t input = input_of(graph, spec);
  int32_t depth = spec->shape[spec->rank - 1];
  int64_t count = cf_elements(&graph->tensors[input]);
  if (spec->flags & CF_FLATTEN) depth = (int32_t)(count / spec->shape[0]);
  int32_t weight_dims[2] = {spec->out_c, depth};
  uint32_t weights = cf_constant(graph, 2, weight_dims, -0.5f, 0.5f);
  uint32_t bias = TFLACCEL_NO_TENSOR;
  if (!(spec->flags & CF_NO_BIAS)) bias = cf_constant(graph, 1, &spec->out_c, -1.0f, 1.0f);
  uint32_t output;
  if (spec->flags & CF_KEEP_DIMS) {
    int32_t dims[4];
    memcpy(dims, spec->shape, sizeof dims);
    dims[spec->rank - 1] = spec->out_c;
    output = cf_tensor(graph, TFLACCEL_DTYPE_FLOAT32, spec->rank, dims);
  } else {
    int32_t dims[2] = {(int32_t)(count / depth), spec->out_c};
    output = cf_tensor(graph, TFLACCEL_DTYPE_FLOAT32, 2, dims);
  }
  uint32_t inputs[3] = {input, weights, bias};
  tflaccel_op_params *p = cf_op(graph, TFLACCEL_OP_FULLY_CONNECTED, 3, inputs, output);
  p->fully_connected.fused_activation = spec->activation;
  p->fully_connected.keep_num_dims = (spec->flags & CF_KEEP_DIMS) != 0;
  cf_output(graph, output);
}

static void build_transpose_conv(cf_graph *graph, const cf_case *spec) {
  int custom = spec->op == TFLACCEL_OP_CUSTOM;
  int32_t stride = spec->stride;
  uint32_t input = input_of(graph, spec);
  int32_t weight_dims[4] = {spec->out_c, spec->kh, spec->kw, spec->shape[3]};
  uint32_t weights = cf_constant(graph, 4, weight_dims, -0.5f, 0.5f);
  uint32_t bias = TFLACCEL_NO_TENSOR;
  if (custom || !(spec->flags & CF_NO_BIAS))
    bias = cf_constant(graph, 1, &spec->out_c, -1.0f, 1.0f);
  int32_t out_h, out_w;
  if (custom) {
    int32_t pad_h = 0, pad_w = 0;
    if (spec->padding == TFLACCEL_PADDING_SAME) {
      pad_h = spec->kh - (spec->shape[1] - 1) % stride - 1;
      pad_w = spec->kw - (spec->shape[2] - 1) % stride - 1;
      if (pad_h < 0) pad_h = 0;
      if (pad_w < 0) pad_w = 0;
    }
    out_h = stride * (spec->shape[1] - 1) + spec->kh - pad_h;
    out_w = stride * (spec->shape[2] - 1) + spec->kw - pad_w;
  } else if (spec->padding == TFLACCEL_PADDING_SAME) {
    out_h = spec->shape[1] * stride;
    out_w = spec->shape[2] * stride;
  } else {
    out_h = (spec->shape[1] - 1) * stride + spec->kh;
    out_w = (spec->shape[2] - 1) * stride + spec->kw;
  }
  int32_t out_dims[4] = {spec->shape[0], out_h, out_w, spec->out_c};
  uint32_t output = cf_tensor(graph, TFLACCEL_DTYPE_FLOAT32, 4, out_dims);
  tflaccel_op_params *p;
  if (custom) {
    uint32_t inputs[3] = {input, weights, bias};
    p = cf_op(graph, TFLACCEL_OP_CUSTOM, 3, inputs, output);
    p->transpose_conv_bias = (tflaccel_transpose_conv_bias_params){spec->padding, stride, stride};
    graph->ops[graph->op_count - 1].custom_code = "Convolution2DTransposeBias";
  } else {
    int32_t four = 4;
    uint32_t shape = cf_constant_int32(graph, 1, &four, out_dims);
    uint32_t inputs[4] = {shape, weights, input, bias};
    p = cf_op(graph, TFLACCEL_OP_TRANSPOSE_CONV, bias == TFLACCEL_NO_TENSOR ? 3 : 4, inputs,
              output);
    p->transpose_conv =
        (tflaccel_transpose_conv_params){spec->padding, stride, stride, spec->activation};
  }
  cf_output(graph, output);
}

/* The broadcast output shape of the two operands. */
static void broadcast_dims(const cf_case *spec, uint32_t *rank, int32_t dims[4]) {
  *rank = spec->rank > spec->rank2 ? spec->rank : spec->rank2;
  for (uint32_t d = 0; d < *rank; ++d) {
    int32_t a = d + spec->rank >= *rank ? spec->shape[d + spec->rank - *rank] : 1;
    int32_t b = d + spec->rank2 >= *rank ? spec->shape2[d + spec->rank2 - *rank] : 1;
    dims[d] = a > b ? a : b;
  }
}

static void build_binary(cf_graph *graph, const cf_case *spec) {
  int logical = spec->op == TFLACCEL_OP_LOGICAL_AND;
  int32_t dtype = logical ? TFLACCEL_DTYPE_BOOL : TFLACCEL_DTYPE_FLOAT32;
  /* Division stays away from zero divisors, whichever operand divides. */
  float low = spec->op == TFLACCEL_OP_DIV ? 0.5f : -2.0f;
  uint32_t a = cf_input(graph, dtype, spec->rank, spec->shape, low, 2.0f);
  uint32_t b;
  if (spec->flags & CF_CONSTANT)
    b = cf_constant(graph, spec->rank2, spec->shape2, 0.5f, 2.0f);
  else if (spec->op == TFLACCEL_OP_DIV)
    b = cf_input(graph, dtype, spec->rank2, spec->shape2, 0.5f, 2.0f); /* away from 0 */
  else
    b = cf_input(graph, dtype, spec->rank2, spec->shape2, -2.0f, 2.0f);
  uint32_t rank;
  int32_t dims[4];
  broadcast_dims(spec, &rank, dims);
  uint32_t output = cf_tensor(graph, dtype, rank, dims);
  uint32_t inputs[2] = {a, b};
  if (spec->flags & CF_SWAP) {
    inputs[0] = b;
    inputs[1] = a;
  }
  tflaccel_op_params *p = cf_op(graph, spec->op, 2, inputs, output);
  p->arithmetic.fused_activation = spec->activation;
  cf_output(graph, output);
}

static void build_unary(cf_graph *graph, const cf_case *spec) {
  uint32_t input = cf_input(graph, TFLACCEL_DTYPE_FLOAT32, spec->rank, spec->shape, -5.0f, 5.0f);
  uint32_t output = cf_tensor(graph, TFLACCEL_DTYPE_FLOAT32, spec->rank, spec->shape);
  tflaccel_op_params *p = cf_op(graph, spec->op, 1, &input, output);
  if (spec->op == TFLACCEL_OP_LEAKY_RELU) p->leaky_relu.alpha = spec->value;
  cf_output(graph, output);
}

static void build_prelu(cf_graph *graph, const cf_case *spec) {
  uint32_t input = input_of(graph, spec);
  uint32_t alpha = cf_constant(graph, spec->rank2, spec->shape2, -0.5f, 0.5f);
  uint32_t output = cf_tensor(graph, TFLACCEL_DTYPE_FLOAT32, spec->rank, spec->shape);
  uint32_t inputs[2] = {input, alpha};
  cf_op(graph, TFLACCEL_OP_PRELU, 2, inputs, output);
  cf_output(graph, output);
}

static void build_pad(cf_graph *graph, const cf_case *spec) {
  uint32_t input = input_of(graph, spec);
  int32_t padding_dims[2] = {(int32_t)spec->rank, 2};
  uint32_t paddings = cf_constant_int32(graph, 2, padding_dims, spec->ints);
  int32_t dims[4];
  for (uint32_t d = 0; d < spec->rank; ++d)
    dims[d] = spec->shape[d] + spec->ints[2 * d] + spec->ints[2 * d + 1];
  uint32_t output = cf_tensor(graph, TFLACCEL_DTYPE_FLOAT32, spec->rank, dims);
  if (spec->flags & CF_PADV2) {
    int32_t one = 1;
    uint32_t value = cf_constant(graph, 1, &one, spec->value, spec->value);
    uint32_t inputs[3] = {input, paddings, value};
    cf_op(graph, TFLACCEL_OP_PADV2, 3, inputs, output);
  } else {
    uint32_t inputs[2] = {input, paddings};
    cf_op(graph, TFLACCEL_OP_PAD, 2, inputs, output);
  }
  cf_output(graph, output);
}

static void build_pool(cf_graph *graph, const cf_case *spec) {
  uint32_t input = input_of(graph, spec);
  int32_t out_dims[4] = {
      spec->shape[0], conv_out(spec->padding, spec->shape[1], spec->kh, spec->stride, 1),
      conv_out(spec->padding, spec->shape[2], spec->kw, spec->stride, 1), spec->shape[3]};
  uint32_t output = cf_tensor(graph, TFLACCEL_DTYPE_FLOAT32, 4, out_dims);
  tflaccel_op_params *p = cf_op(graph, spec->op, 1, &input, output);
  p->pool_2d = (tflaccel_pool_2d_params){spec->padding, spec->stride, spec->stride,
                                         spec->kw,      spec->kh,     spec->activation};
  cf_output(graph, output);
}

static void build_reshape(cf_graph *graph, const cf_case *spec) {
  uint32_t input = input_of(graph, spec);
  int32_t count = (int32_t)spec->int_count;
  uint32_t shape = cf_constant_int32(graph, 1, &count, spec->ints);
  uint32_t output = cf_tensor(graph, TFLACCEL_DTYPE_FLOAT32, spec->int_count, spec->ints);
  uint32_t inputs[2] = {input, shape};
  tflaccel_op_params *p = cf_op(graph, TFLACCEL_OP_RESHAPE, 2, inputs, output);
  p->reshape.new_shape_count = -1;
  cf_output(graph, output);
}

/* Inputs that differ along `axis` by ints[i]; 2 or 3 of them, the last
 * one a constant when CF_CONSTANT. */
static void build_concat(cf_graph *graph, const cf_case *spec) {
  uint32_t inputs[CF_MAX_OP_INPUTS];
  int32_t dims[4];
  memcpy(dims, spec->shape, sizeof dims);
  int32_t total = 0;
  for (uint32_t i = 0; i < spec->int_count; ++i) {
    dims[spec->axis] = spec->ints[i];
    total += spec->ints[i];
    int constant = (spec->flags & CF_CONSTANT) && i + 1 == spec->int_count;
    inputs[i] = constant ? cf_constant(graph, spec->rank, dims, -2.0f, 2.0f)
                         : cf_input(graph, TFLACCEL_DTYPE_FLOAT32, spec->rank, dims, -2.0f, 2.0f);
  }
  dims[spec->axis] = total;
  uint32_t output = cf_tensor(graph, TFLACCEL_DTYPE_FLOAT32, spec->rank, dims);
  tflaccel_op_params *p = cf_op(graph, TFLACCEL_OP_CONCATENATION, spec->int_count, inputs, output);
  p->concatenation.axis = spec->axis - (spec->flags & CF_SWAP ? (int32_t)spec->rank : 0);
  p->concatenation.fused_activation = spec->activation;
  cf_output(graph, output);
}

static void build_resize(cf_graph *graph, const cf_case *spec) {
  uint32_t input = input_of(graph, spec);
  int32_t two = 2;
  uint32_t size = cf_constant_int32(graph, 1, &two, spec->ints);
  int32_t dims[4] = {spec->shape[0], spec->ints[0], spec->ints[1], spec->shape[3]};
  uint32_t output = cf_tensor(graph, TFLACCEL_DTYPE_FLOAT32, 4, dims);
  uint32_t inputs[2] = {input, size};
  tflaccel_op_params *p = cf_op(graph, spec->op, 2, inputs, output);
  p->resize.align_corners = (spec->flags & CF_ALIGN) != 0;
  p->resize.half_pixel_centers = (spec->flags & CF_HALF_PIXEL) != 0;
  cf_output(graph, output);
}

static void build_mean(cf_graph *graph, const cf_case *spec) {
  uint32_t input = input_of(graph, spec);
  int32_t count = (int32_t)spec->int_count;
  uint32_t axes = cf_constant_int32(graph, 1, &count, spec->ints);
  int reduced[4] = {0};
  for (uint32_t i = 0; i < spec->int_count; ++i)
    reduced[spec->ints[i] < 0 ? spec->ints[i] + (int32_t)spec->rank : spec->ints[i]] = 1;
  int32_t dims[4];
  uint32_t rank = 0;
  for (uint32_t d = 0; d < spec->rank; ++d) {
    if (!reduced[d])
      dims[rank++] = spec->shape[d];
    else if (spec->flags & CF_KEEP_DIMS)
      dims[rank++] = 1;
  }
  uint32_t output = cf_tensor(graph, TFLACCEL_DTYPE_FLOAT32, rank, dims);
  uint32_t inputs[2] = {input, axes};
  tflaccel_op_params *p = cf_op(graph, TFLACCEL_OP_MEAN, 2, inputs, output);
  p->reducer.keep_dims = (spec->flags & CF_KEEP_DIMS) != 0;
  cf_output(graph, output);
}

static void build_depth_to_space(cf_graph *graph, const cf_case *spec) {
  uint32_t input = input_of(graph, spec);
  int32_t b = spec->block;
  int32_t dims[4] = {spec->shape[0], spec->shape[1] * b, spec->shape[2] * b,
                     spec->shape[3] / (b * b)};
  uint32_t output = cf_tensor(graph, TFLACCEL_DTYPE_FLOAT32, 4, dims);
  tflaccel_op_params *p = cf_op(graph, TFLACCEL_OP_DEPTH_TO_SPACE, 1, &input, output);
  p->block_size.block_size = b;
  cf_output(graph, output);
}

static void build_softmax(cf_graph *graph, const cf_case *spec) {
  uint32_t input = cf_input(graph, TFLACCEL_DTYPE_FLOAT32, spec->rank, spec->shape, -4.0f, 4.0f);
  uint32_t output = cf_tensor(graph, TFLACCEL_DTYPE_FLOAT32, spec->rank, spec->shape);
  tflaccel_op_params *p = cf_op(graph, TFLACCEL_OP_SOFTMAX, 1, &input, output);
  p->softmax.beta = spec->value;
  cf_output(graph, output);
}

/* ints: begin, end, strides (rank entries each); masks: begin, end, shrink. */
static void build_strided_slice(cf_graph *graph, const cf_case *spec) {
  uint32_t input = input_of(graph, spec);
  int32_t rank = (int32_t)spec->rank;
  uint32_t begin = cf_constant_int32(graph, 1, &rank, spec->ints);
  uint32_t end = cf_constant_int32(graph, 1, &rank, spec->ints + rank);
  uint32_t strides = cf_constant_int32(graph, 1, &rank, spec->ints + 2 * rank);
  int32_t dims[4];
  uint32_t out_rank = 0;
  for (int32_t d = 0; d < rank; ++d) {
    int32_t size = spec->shape[d], b = spec->ints[d], e = spec->ints[rank + d],
            s = spec->ints[2 * rank + d];
    if (spec->masks[2] & (1 << d)) continue; /* shrunk */
    if (spec->masks[0] & (1 << d)) b = s > 0 ? 0 : size - 1;
    if (spec->masks[1] & (1 << d)) e = s > 0 ? size : -size - 1;
    if (b < 0) b += size;
    if (e < 0) e += size;
    dims[out_rank++] = s > 0 ? (e - b + s - 1) / s : (b - e - s - 1) / (-s);
  }
  uint32_t output = cf_tensor(graph, TFLACCEL_DTYPE_FLOAT32, out_rank, dims);
  uint32_t inputs[4] = {input, begin, end, strides};
  tflaccel_op_params *p = cf_op(graph, TFLACCEL_OP_STRIDED_SLICE, 4, inputs, output);
  p->strided_slice.begin_mask = spec->masks[0];
  p->strided_slice.end_mask = spec->masks[1];
  p->strided_slice.shrink_axis_mask = spec->masks[2];
  cf_output(graph, output);
}

/* SQRT of positive values (no NaN to compare). */
static void build_sqrt(cf_graph *graph, const cf_case *spec) {
  uint32_t input = cf_input(graph, TFLACCEL_DTYPE_FLOAT32, spec->rank, spec->shape, 0.0f, 9.0f);
  uint32_t output = cf_tensor(graph, TFLACCEL_DTYPE_FLOAT32, spec->rank, spec->shape);
  cf_op(graph, TFLACCEL_OP_SQRT, 1, &input, output);
  cf_output(graph, output);
}

/* FLOOR_DIV of an input in [-2, 2) by a constant divisor whose magnitude
 * is value (every other one negated), broadcast from shape2. With
 * |divisor| > 2 the quotient's floor changes only where the dividend's
 * sign does, which fp16 keeps, so both precisions compare exactly. */
static void build_floor_div(cf_graph *graph, const cf_case *spec) {
  uint32_t a = cf_input(graph, TFLACCEL_DTYPE_FLOAT32, spec->rank, spec->shape, -2.0f, 2.0f);
  uint32_t b = cf_constant(graph, spec->rank2, spec->shape2, spec->value, spec->value + 1.0f);
  float *divisors = graph->data[b];
  for (int64_t i = 1; i < cf_elements(&graph->tensors[b]); i += 2) divisors[i] = -divisors[i];
  uint32_t rank;
  int32_t dims[4];
  broadcast_dims(spec, &rank, dims);
  uint32_t output = cf_tensor(graph, TFLACCEL_DTYPE_FLOAT32, rank, dims);
  uint32_t inputs[2] = {a, b};
  cf_op(graph, TFLACCEL_OP_FLOOR_DIV, 2, inputs, output);
  cf_output(graph, output);
}

/* TRANSPOSE by the permutation in ints (rank entries). */
static void build_transpose(cf_graph *graph, const cf_case *spec) {
  uint32_t input = input_of(graph, spec);
  int32_t rank = (int32_t)spec->rank, dims[4];
  for (int32_t d = 0; d < rank; ++d) {
    int32_t from = spec->ints[d] < 0 ? spec->ints[d] + rank : spec->ints[d];
    dims[d] = spec->shape[from];
  }
  uint32_t perm = cf_constant_int32(graph, 1, &rank, spec->ints);
  uint32_t output = cf_tensor(graph, TFLACCEL_DTYPE_FLOAT32, spec->rank, dims);
  uint32_t inputs[2] = {input, perm};
  cf_op(graph, TFLACCEL_OP_TRANSPOSE, 2, inputs, output);
  cf_output(graph, output);
}

/* PACK of out_c inputs of the main shape along axis. */
static void build_pack(cf_graph *graph, const cf_case *spec) {
  int32_t rank = (int32_t)spec->rank + 1, dims[4];
  int32_t axis = spec->axis < 0 ? spec->axis + rank : spec->axis;
  uint32_t inputs[CF_MAX_OP_INPUTS];
  for (int32_t i = 0; i < spec->out_c; ++i) inputs[i] = input_of(graph, spec);
  for (int32_t d = 0, at = 0; d < rank; ++d) dims[d] = d == axis ? spec->out_c : spec->shape[at++];
  uint32_t output = cf_tensor(graph, TFLACCEL_DTYPE_FLOAT32, (uint32_t)rank, dims);
  tflaccel_op_params *p = cf_op(graph, TFLACCEL_OP_PACK, (uint32_t)spec->out_c, inputs, output);
  p->pack = (tflaccel_pack_params){spec->out_c, spec->axis};
  cf_output(graph, output);
}

/* UNPACK of the main input along axis: one graph output per entry. cf_op
 * gives an op one output: the others are listed in the next op's row of
 * input indices, which stays unused (UNPACK is the graph's only op). */
static void build_unpack(cf_graph *graph, const cf_case *spec) {
  int32_t rank = (int32_t)spec->rank, dims[4];
  int32_t axis = spec->axis < 0 ? spec->axis + rank : spec->axis;
  uint32_t input = input_of(graph, spec);
  for (int32_t d = 0, at = 0; d < rank; ++d)
    if (d != axis) dims[at++] = spec->shape[d];
  int32_t count = spec->shape[axis];
  ck_assert_int_le(count, CF_MAX_OP_INPUTS);
  ck_assert_uint_eq(graph->op_count, 0);
  uint32_t *outputs = graph->op_inputs[1];
  for (int32_t i = 0; i < count; ++i)
    outputs[i] = cf_tensor(graph, TFLACCEL_DTYPE_FLOAT32, (uint32_t)rank - 1, dims);
  tflaccel_op_params *p = cf_op(graph, TFLACCEL_OP_UNPACK, 1, &input, outputs[0]);
  p->unpack = (tflaccel_unpack_params){count, spec->axis};
  graph->ops[0].outputs = outputs;
  graph->ops[0].output_count = (uint32_t)count;
  for (int32_t i = 0; i < count; ++i) cf_output(graph, outputs[i]);
}

/* ARG_MAX or ARG_MIN (op) of the main input along axis (may be negative). */
static void build_arg_max(cf_graph *graph, const cf_case *spec) {
  int32_t rank = (int32_t)spec->rank, dims[4], one = 1;
  int32_t axis = spec->axis < 0 ? spec->axis + rank : spec->axis;
  uint32_t input = input_of(graph, spec);
  for (int32_t d = 0, at = 0; d < rank; ++d)
    if (d != axis) dims[at++] = spec->shape[d];
  int32_t dtype = spec->flags & CF_INT64 ? TFLACCEL_DTYPE_INT64 : TFLACCEL_DTYPE_INT32;
  uint32_t inputs[2] = {input, cf_constant_int32(graph, 1, &one, &spec->axis)};
  uint32_t output = cf_tensor(graph, dtype, (uint32_t)rank - 1, dims);
  cf_op(graph, spec->op, 2, inputs, output)->arg.output_type = dtype;
  cf_output(graph, output);
}

/* CAST of an integer graph input (dtype in out_c, values in [value, -value),
 * from 0 for uint8)
 * to float32; with CF_KEEP_DIMS, the int32 input is instead ARG_MAX's
 * output along the last axis of a float input (an index held on the GPU). */
static void build_cast(cf_graph *graph, const cf_case *spec) {
  uint32_t input;
  uint32_t rank = spec->rank;
  int32_t dims[4];
  memcpy(dims, spec->shape, sizeof dims);
  if (spec->flags & CF_KEEP_DIMS) {
    int32_t axis = (int32_t)rank - 1, one = 1;
    uint32_t arg_inputs[2] = {input_of(graph, spec), cf_constant_int32(graph, 1, &one, &axis)};
    input = cf_tensor(graph, TFLACCEL_DTYPE_INT32, --rank, dims);
    cf_op(graph, TFLACCEL_OP_ARG_MAX, 2, arg_inputs, input)->arg.output_type =
        TFLACCEL_DTYPE_INT32;
  } else {
    float low = spec->out_c == TFLACCEL_DTYPE_UINT8 ? 0.0f : spec->value;
    input = cf_input(graph, spec->out_c, rank, dims, low, -spec->value);
  }
  uint32_t output = cf_tensor(graph, TFLACCEL_DTYPE_FLOAT32, rank, dims);
  tflaccel_op_params *p = cf_op(graph, TFLACCEL_OP_CAST, 1, &input, output);
  p->cast = (tflaccel_cast_params){graph->tensors[input].dtype, TFLACCEL_DTYPE_FLOAT32};
  cf_output(graph, output);
}

/* Fusion: conv (3x3 SAME, out_c = in_c) + ADD of the input + activation
 * op (spec->op: RELU or HARD_SWISH etc.). */
static void build_residual_chain(cf_graph *graph, const cf_case *spec) {
  uint32_t input = input_of(graph, spec);
  int32_t c = spec->shape[3];
  int32_t filter_dims[4] = {c, 3, 3, c};
  uint32_t filter = cf_constant(graph, 4, filter_dims, -0.3f, 0.3f);
  uint32_t bias = cf_constant(graph, 1, &c, -1.0f, 1.0f);
  uint32_t conv = cf_tensor(graph, TFLACCEL_DTYPE_FLOAT32, 4, spec->shape);
  uint32_t conv_inputs[3] = {input, filter, bias};
  cf_op(graph, TFLACCEL_OP_CONV_2D, 3, conv_inputs, conv)->conv_2d =
      (tflaccel_conv_2d_params){TFLACCEL_PADDING_SAME, 1, 1, spec->activation, 1, 1};
  uint32_t sum = cf_tensor(graph, TFLACCEL_DTYPE_FLOAT32, 4, spec->shape);
  uint32_t add_inputs[2] = {conv, input};
  cf_op(graph, TFLACCEL_OP_ADD, 2, add_inputs, sum);
  int32_t one_c[1] = {c};
  uint32_t scale = cf_constant(graph, 1, one_c, 0.5f, 1.5f);
  uint32_t scaled = cf_tensor(graph, TFLACCEL_DTYPE_FLOAT32, 4, spec->shape);
  uint32_t mul_inputs[2] = {sum, scale};
  cf_op(graph, TFLACCEL_OP_MUL, 2, mul_inputs, scaled);
  uint32_t output = cf_tensor(graph, TFLACCEL_DTYPE_FLOAT32, 4, spec->shape);
  cf_op(graph, spec->op, 1, &scaled, output);
  cf_output(graph, output);
}

/* Fusion: PAD (spatial, ints[4]: top, bottom, left, right) into a conv,
 * depthwise conv or pool (spec->op), VALID with stride. */
static void build_pad_into(cf_graph *graph, const cf_case *spec) {
  uint32_t input = input_of(graph, spec);
  int32_t paddings[8] = {0, 0, spec->ints[0], spec->ints[1], spec->ints[2], spec->ints[3], 0, 0};
  int32_t padding_dims[2] = {4, 2};
  uint32_t padding_tensor = cf_constant_int32(graph, 2, padding_dims, paddings);
  int32_t padded_dims[4] = {spec->shape[0], spec->shape[1] + spec->ints[0] + spec->ints[1],
                            spec->shape[2] + spec->ints[2] + spec->ints[3], spec->shape[3]};
  uint32_t padded = cf_tensor(graph, TFLACCEL_DTYPE_FLOAT32, 4, padded_dims);
  uint32_t pad_inputs[2] = {input, padding_tensor};
  cf_op(graph, TFLACCEL_OP_PAD, 2, pad_inputs, padded);
  /* The consumer reads `padded`. */
  int32_t out_dims[4] = {spec->shape[0],
                         conv_out(spec->padding, padded_dims[1], spec->kh, spec->stride, 1),
                         conv_out(spec->padding, padded_dims[2], spec->kw, spec->stride, 1),
                         spec->op == TFLACCEL_OP_CONV_2D ? spec->out_c : spec->shape[3]};
  uint32_t output = cf_tensor(graph, TFLACCEL_DTYPE_FLOAT32, 4, out_dims);
  if (spec->op == TFLACCEL_OP_MAX_POOL_2D || spec->op == TFLACCEL_OP_AVERAGE_POOL_2D) {
    cf_op(graph, spec->op, 1, &padded, output)->pool_2d = (tflaccel_pool_2d_params){
        spec->padding, spec->stride, spec->stride, spec->kw, spec->kh, spec->activation};
  } else {
    int depthwise = spec->op == TFLACCEL_OP_DEPTHWISE_CONV_2D;
    int32_t out_c = out_dims[3];
    int32_t filter_dims[4] = {depthwise ? 1 : out_c, spec->kh, spec->kw,
                              depthwise ? out_c : spec->shape[3]};
    uint32_t filter = cf_constant(graph, 4, filter_dims, -0.5f, 0.5f);
    uint32_t bias = cf_constant(graph, 1, &out_c, -1.0f, 1.0f);
    uint32_t inputs[3] = {padded, filter, bias};
    tflaccel_op_params *p = cf_op(graph, spec->op, 3, inputs, output);
    if (depthwise)
      p->depthwise_conv_2d = (tflaccel_depthwise_conv_2d_params){
          spec->padding, spec->stride, spec->stride, 1, spec->activation, 1, 1};
    else
      p->conv_2d = (tflaccel_conv_2d_params){
          spec->padding, spec->stride, spec->stride, spec->activation, 1, 1};
  }
  cf_output(graph, output);
}

/* Fusion: DEPTHWISE_CONV_2D (kh x kw, stride, multiplier, dilation,
 * spec->activation) whose only reader is a 1x1 CONV_2D to out_c channels;
 * with rank2, an ADD of a second input of the 1x1's output shape (a
 * residual), with RELU6 when CF_SWAP, then a PRELU when CF_CONSTANT. */
static void build_depthwise_pointwise(cf_graph *graph, const cf_case *spec) {
  int32_t stride = spec->stride ? spec->stride : 1, dilation = spec->dilation ? spec->dilation : 1;
  int32_t multiplier = spec->multiplier ? spec->multiplier : 1;
  int32_t depth = spec->shape[3] * multiplier;
  uint32_t input = input_of(graph, spec);
  int32_t depthwise_filter[4] = {1, spec->kh, spec->kw, depth};
  uint32_t filter = cf_constant(graph, 4, depthwise_filter, -0.5f, 0.5f);
  uint32_t bias = cf_constant(graph, 1, &depth, -1.0f, 1.0f);
  int32_t depthwise_dims[4] = {
      spec->shape[0], conv_out(spec->padding, spec->shape[1], spec->kh, stride, dilation),
      conv_out(spec->padding, spec->shape[2], spec->kw, stride, dilation), depth};
  uint32_t depthwise = cf_tensor(graph, TFLACCEL_DTYPE_FLOAT32, 4, depthwise_dims);
  uint32_t depthwise_inputs[3] = {input, filter, bias};
  cf_op(graph, TFLACCEL_OP_DEPTHWISE_CONV_2D, 3, depthwise_inputs, depthwise)->depthwise_conv_2d =
      (tflaccel_depthwise_conv_2d_params){spec->padding, stride,           stride, multiplier,
                                          spec->activation, dilation, dilation};
  int32_t pointwise_filter[4] = {spec->out_c, 1, 1, depth};
  uint32_t weights = cf_constant(graph, 4, pointwise_filter, -0.5f, 0.5f);
  uint32_t pointwise_bias = TFLACCEL_NO_TENSOR;
  if (!(spec->flags & CF_NO_BIAS)) pointwise_bias = cf_constant(graph, 1, &spec->out_c, -1.0f, 1.0f);
  int32_t out_dims[4] = {depthwise_dims[0], depthwise_dims[1], depthwise_dims[2], spec->out_c};
  uint32_t output = cf_tensor(graph, TFLACCEL_DTYPE_FLOAT32, 4, out_dims);
  uint32_t pointwise_inputs[3] = {depthwise, weights, pointwise_bias};
  cf_op(graph, TFLACCEL_OP_CONV_2D, 3, pointwise_inputs, output)->conv_2d =
      (tflaccel_conv_2d_params){TFLACCEL_PADDING_VALID, 1, 1, TFLACCEL_ACT_NONE, 1, 1};
  if (spec->rank2 != 0) {
    uint32_t residual = cf_input(graph, TFLACCEL_DTYPE_FLOAT32, 4, out_dims, -2.0f, 2.0f);
    uint32_t sum = cf_tensor(graph, TFLACCEL_DTYPE_FLOAT32, 4, out_dims);
    uint32_t add_inputs[2] = {output, residual};
    cf_op(graph, TFLACCEL_OP_ADD, 2, add_inputs, sum)->arithmetic.fused_activation =
        spec->flags & CF_SWAP ? TFLACCEL_ACT_RELU6 : TFLACCEL_ACT_NONE;
    output = sum;
  }
  if (spec->flags & CF_CONSTANT) {
    int32_t alpha_dims[3] = {1, 1, spec->out_c};
    uint32_t alpha = cf_constant(graph, 3, alpha_dims, 0.05f, 0.5f);
    uint32_t activated = cf_tensor(graph, TFLACCEL_DTYPE_FLOAT32, 4, out_dims);
    uint32_t prelu_inputs[2] = {output, alpha};
    cf_op(graph, TFLACCEL_OP_PRELU, 2, prelu_inputs, activated);
    output = activated;
  }
  cf_output(graph, output);
}

/* Fusion: two inverted-residual blocks, the first one's output V feeding
 * the second one's 1x1 expansion and its residual ADD: V = ADD(1x1(dw(x)),
 * r) with out_c channels, E = 1x1(V) to the input's channels with RELU6,
 * output = ADD(1x1(dw(E)), V). GPU plugins with GPU_FEATURE_ORDERED_EXPAND
 * compute the first block and the expansion in one dispatch. */
static void build_inverted_residual_pair(cf_graph *graph, const cf_case *spec) {
  int32_t wide = spec->shape[3], narrow = spec->out_c;
  int32_t wide_dims[4] = {spec->shape[0], spec->shape[1], spec->shape[2], wide};
  int32_t narrow_dims[4] = {spec->shape[0], spec->shape[1], spec->shape[2], narrow};
  uint32_t block_input = input_of(graph, spec);
  uint32_t residual = cf_input(graph, TFLACCEL_DTYPE_FLOAT32, 4, narrow_dims, -2.0f, 2.0f);
  for (int block = 0; block < 2; ++block) {
    int32_t depthwise_filter[4] = {1, spec->kh, spec->kw, wide};
    uint32_t depthwise_inputs[3] = {block_input, cf_constant(graph, 4, depthwise_filter, -0.5f, 0.5f),
                                    cf_constant(graph, 1, &wide, -1.0f, 1.0f)};
    uint32_t depthwise = cf_tensor(graph, TFLACCEL_DTYPE_FLOAT32, 4, wide_dims);
    cf_op(graph, TFLACCEL_OP_DEPTHWISE_CONV_2D, 3, depthwise_inputs, depthwise)
        ->depthwise_conv_2d = (tflaccel_depthwise_conv_2d_params){
        TFLACCEL_PADDING_SAME, 1, 1, 1, TFLACCEL_ACT_RELU6, 1, 1};
    int32_t project_filter[4] = {narrow, 1, 1, wide};
    uint32_t project_inputs[3] = {depthwise, cf_constant(graph, 4, project_filter, -0.3f, 0.3f),
                                  cf_constant(graph, 1, &narrow, -1.0f, 1.0f)};
    uint32_t projected = cf_tensor(graph, TFLACCEL_DTYPE_FLOAT32, 4, narrow_dims);
    cf_op(graph, TFLACCEL_OP_CONV_2D, 3, project_inputs, projected)->conv_2d =
        (tflaccel_conv_2d_params){TFLACCEL_PADDING_VALID, 1, 1, TFLACCEL_ACT_NONE, 1, 1};
    uint32_t sum = cf_tensor(graph, TFLACCEL_DTYPE_FLOAT32, 4, narrow_dims);
    uint32_t add_inputs[2] = {projected, residual};
    cf_op(graph, TFLACCEL_OP_ADD, 2, add_inputs, sum);
    if (block == 1) {
      cf_output(graph, sum);
      return;
    }
    int32_t expand_filter[4] = {wide, 1, 1, narrow};
    uint32_t expand_inputs[3] = {sum, cf_constant(graph, 4, expand_filter, -0.5f, 0.5f),
                                 cf_constant(graph, 1, &wide, -1.0f, 1.0f)};
    uint32_t expanded = cf_tensor(graph, TFLACCEL_DTYPE_FLOAT32, 4, wide_dims);
    cf_op(graph, TFLACCEL_OP_CONV_2D, 3, expand_inputs, expanded)->conv_2d =
        (tflaccel_conv_2d_params){TFLACCEL_PADDING_VALID, 1, 1, TFLACCEL_ACT_RELU6, 1, 1};
    block_input = expanded;
    residual = sum;
  }
}

/* An int8 ADD on one grid (the GPU plugins run it through their float view). */
static void build_quantized_add(cf_graph *graph, const cf_case *spec) {
  static const float scale = 0.05f;
  static const int32_t zero_point = 0;
  uint32_t tensors[3];
  for (int i = 0; i < 3; ++i) {
    tensors[i] =
        i < 2 ? cf_input(graph, TFLACCEL_DTYPE_INT8, spec->rank, spec->shape, -100.0f, 100.0f)
              : cf_tensor(graph, TFLACCEL_DTYPE_INT8, spec->rank, spec->shape);
    tflaccel_quantization *q = &graph->tensors[tensors[i]].quantization;
    q->count = 1;
    q->scales = &scale;
    q->zero_points = &zero_point;
  }
  cf_op(graph, TFLACCEL_OP_ADD, 2, tensors, tensors[2]);
  cf_output(graph, tensors[2]);
}

/* ---- 8-bit ops that XNNPACK composes from several nodes ---- */

/* A per-tensor quantization; the pointers must outlive the graph. */
typedef struct cf_quant {
  int32_t dtype;
  float scale;
  int32_t zero_point;
} cf_quant;

static void set_quantization(cf_graph *graph, uint32_t tensor, const cf_quant *quant) {
  tflaccel_tensor_desc *desc = &graph->tensors[tensor];
  desc->quantization.count = 1;
  desc->quantization.scales = &quant->scale;
  desc->quantization.zero_points = &quant->zero_point;
}

/* Graph inputs of dtype quant->dtype spanning that type's whole range. */
static uint32_t quantized_input(cf_graph *graph, const cf_quant *quant, uint32_t rank,
                                const int32_t *dims) {
  int is_int8 = quant->dtype == TFLACCEL_DTYPE_INT8;
  uint32_t tensor = cf_input(graph, quant->dtype, rank, dims, is_int8 ? -128.0f : 0.0f,
                             is_int8 ? 127.99f : 255.99f);
  set_quantization(graph, tensor, quant);
  return tensor;
}

static uint32_t quantized_tensor(cf_graph *graph, const cf_quant *quant, uint32_t rank,
                                 const int32_t *dims) {
  uint32_t tensor = cf_tensor(graph, quant->dtype, rank, dims);
  set_quantization(graph, tensor, quant);
  return tensor;
}

/* The input and output quantizations of the QUANTIZE, DEQUANTIZE and
 * quantized SOFTMAX cases, by the case's `block` field. */
static const cf_quant quant_pairs[][2] = {
    /* a uint8 model input to int8: equal scales, zero points 128 apart */
    {{TFLACCEL_DTYPE_UINT8, 0.00784313772f, 127}, {TFLACCEL_DTYPE_INT8, 0.00784313772f, -1}},
    /* int8 to a new scale and zero point */
    {{TFLACCEL_DTYPE_INT8, 0.05f, 3}, {TFLACCEL_DTYPE_INT8, 0.07f, -5}},
    /* int8 probabilities to a uint8 model output */
    {{TFLACCEL_DTYPE_INT8, 0.00390625f, -128}, {TFLACCEL_DTYPE_UINT8, 0.00390625f, 0}},
    /* float32 in or out (the scale and zero point of the other side) */
    {{TFLACCEL_DTYPE_FLOAT32, 0.0f, 0}, {TFLACCEL_DTYPE_INT8, 0.02f, 1}},
    {{TFLACCEL_DTYPE_UINT8, 0.03f, 120}, {TFLACCEL_DTYPE_FLOAT32, 0.0f, 0}},
    /* softmax: logits to TFLite's fixed output quantizations */
    {{TFLACCEL_DTYPE_INT8, 0.02f, 5}, {TFLACCEL_DTYPE_INT8, 0.00390625f, -128}},
    {{TFLACCEL_DTYPE_UINT8, 0.03f, 128}, {TFLACCEL_DTYPE_UINT8, 0.00390625f, 0}},
};

static uint32_t pair_tensor(cf_graph *graph, const cf_case *spec, int output) {
  const cf_quant *quant = &quant_pairs[spec->block][output];
  if (quant->dtype == TFLACCEL_DTYPE_FLOAT32)
    return output ? cf_tensor(graph, TFLACCEL_DTYPE_FLOAT32, spec->rank, spec->shape)
                  : cf_input(graph, TFLACCEL_DTYPE_FLOAT32, spec->rank, spec->shape, -2.6f, 2.6f);
  return output ? quantized_tensor(graph, quant, spec->rank, spec->shape)
                : quantized_input(graph, quant, spec->rank, spec->shape);
}

/* QUANTIZE or DEQUANTIZE (spec->op) between quant_pairs[spec->block]. */
static void build_convert(cf_graph *graph, const cf_case *spec) {
  uint32_t input = pair_tensor(graph, spec, 0), output = pair_tensor(graph, spec, 1);
  cf_op(graph, spec->op, 1, &input, output);
  cf_output(graph, output);
}

static void build_quantized_softmax(cf_graph *graph, const cf_case *spec) {
  uint32_t input = pair_tensor(graph, spec, 0), output = pair_tensor(graph, spec, 1);
  tflaccel_op_params *p = cf_op(graph, TFLACCEL_OP_SOFTMAX, 1, &input, output);
  p->softmax.beta = 1.0f;
  cf_output(graph, output);
}

/* int8 CONCATENATION along spec->axis of inputs ints[i] wide: with
 * CF_SWAP each input has its own scale and zero point (requantized into
 * the output's), else all share the output's. */
static void build_quantized_concat(cf_graph *graph, const cf_case *spec) {
  static const cf_quant shared = {TFLACCEL_DTYPE_INT8, 0.04f, -3};
  static const cf_quant own[3] = {{TFLACCEL_DTYPE_INT8, 0.03f, 7},
                                  {TFLACCEL_DTYPE_INT8, 0.05f, -10},
                                  {TFLACCEL_DTYPE_INT8, 0.02f, 0}};
  uint32_t inputs[CF_MAX_OP_INPUTS];
  int32_t dims[4];
  memcpy(dims, spec->shape, sizeof dims);
  int32_t total = 0;
  for (uint32_t i = 0; i < spec->int_count; ++i) {
    dims[spec->axis] = spec->ints[i];
    total += spec->ints[i];
    inputs[i] = quantized_input(graph, spec->flags & CF_SWAP ? &own[i % 3] : &shared, spec->rank,
                                dims);
  }
  dims[spec->axis] = total;
  uint32_t output = quantized_tensor(graph, &shared, spec->rank, dims);
  tflaccel_op_params *p = cf_op(graph, TFLACCEL_OP_CONCATENATION, spec->int_count, inputs, output);
  p->concatenation.axis = spec->axis;
  p->concatenation.fused_activation = spec->activation;
  cf_output(graph, output);
}

/* ---- the table ---- */

#define SAME TFLACCEL_PADDING_SAME
#define VALID TFLACCEL_PADDING_VALID
#define RELU TFLACCEL_ACT_RELU
#define RELU6 TFLACCEL_ACT_RELU6
#define RELU1 TFLACCEL_ACT_RELU_N1_TO_1

/* LSTM with the basic kernel: input [B, I] (the main input's shape), depth
 * D (out_c). All four outputs are graph outputs, so every one is compared.
 * cf_op gives an op one output: the LSTM's four are listed in the next
 * op's row of input indices, which stays unused (the LSTM is the graph's
 * only op). */
static void build_lstm_basic(cf_graph *graph, const cf_case *spec) {
  int32_t batch = spec->shape[0], input_depth = spec->shape[1], depth = spec->out_c;
  int32_t gates = 4 * depth, total = input_depth + depth;
  int32_t state_dims[2] = {batch, depth}, weight_dims[2] = {gates, total};
  int32_t concat_dims[2] = {batch, total}, gate_dims[2] = {batch, gates};
  uint32_t input = input_of(graph, spec);
  uint32_t prev_activ = cf_input(graph, TFLACCEL_DTYPE_FLOAT32, 2, state_dims, -1.0f, 1.0f);
  uint32_t weights = cf_constant(graph, 2, weight_dims, -0.5f, 0.5f);
  uint32_t bias = cf_constant(graph, 1, &gates, -1.0f, 1.0f);
  uint32_t prev_state = cf_input(graph, TFLACCEL_DTYPE_FLOAT32, 2, state_dims, -2.0f, 2.0f);
  uint32_t activ = cf_tensor(graph, TFLACCEL_DTYPE_FLOAT32, 2, state_dims);
  uint32_t state = cf_tensor(graph, TFLACCEL_DTYPE_FLOAT32, 2, state_dims);
  uint32_t concat = cf_tensor(graph, TFLACCEL_DTYPE_FLOAT32, 2, concat_dims);
  uint32_t activ_temp = cf_tensor(graph, TFLACCEL_DTYPE_FLOAT32, 2, gate_dims);
  ck_assert_uint_eq(graph->op_count, 0);
  uint32_t inputs[5] = {input, prev_activ, weights, bias, prev_state};
  tflaccel_op_params *p = cf_op(graph, TFLACCEL_OP_LSTM, 5, inputs, activ);
  p->lstm.kernel_type = 1; /* BASIC */
  p->lstm.fused_activation = TFLACCEL_ACT_TANH;
  uint32_t *outputs = graph->op_inputs[graph->op_count];
  outputs[0] = activ;
  outputs[1] = state;
  outputs[2] = concat;
  outputs[3] = activ_temp;
  graph->ops[0].outputs = outputs;
  graph->ops[0].output_count = 4;
  for (uint32_t i = 0; i < 4; ++i) cf_output(graph, outputs[i]);
}

/* ---- MediaPipe's transform custom ops (version 2) ---- */

/* A float constant with the given values. */
static uint32_t float_constant(cf_graph *graph, uint32_t rank, const int32_t *dims,
                               const float *values) {
  uint32_t index = cf_constant(graph, rank, dims, 0.0f, 0.0f);
  memcpy(graph->data[index], values, sizeof(float) * (size_t)cf_elements(&graph->tensors[index]));
  return index;
}

/* A crop matrix [1, 4, 4]: turned by about 0.3 rad, scaled by 1.1 and
 * shifted so that most output pixels land inside a 12 x 10 input, some
 * outside (they read 0). */
static uint32_t crop_matrix(cf_graph *graph) {
  static const float matrix[16] = {1.05f, -0.325f, 0.0f, 3.0f, 0.325f, 1.05f, 0.0f, 1.0f,
                                   0.0f,  0.0f,    1.0f, 0.0f, 0.0f,   0.0f,  0.0f, 1.0f};
  const int32_t dims[3] = {1, 4, 4};
  return float_constant(graph, 3, dims, matrix);
}

static void set_custom(cf_graph *graph, const char *custom_code, const void *options,
                       size_t options_size) {
  tflaccel_op_desc *op = &graph->ops[graph->op_count - 1];
  op->code = TFLACCEL_OP_CUSTOM;
  op->custom_code = custom_code;
  op->custom_options = options;
  op->custom_options_size = (uint32_t)options_size;
}

/* Landmarks2TransformMatrix of landmarks [1, 301, 3] (tests/support's
 * l2tm_options: rotation landmarks 0 and 1, subset {2, 3, 300}, a 4 x 4
 * crop), random in [0, 12): a random rotation and box. With CF_CHAIN the
 * matrix then crops a [1, 16, 16, C] input (TransformTensorBilinear) and
 * maps landmarks [1, 7, 3] back (TransformLandmarks): the two ops read a
 * matrix computed on the device. */
static void build_landmarks_to_transform_matrix(cf_graph *graph, const cf_case *spec) {
  const int32_t landmark_dims[3] = {1, 301, 3}, matrix_dims[3] = {1, 4, 4};
  uint32_t landmarks = cf_input(graph, TFLACCEL_DTYPE_FLOAT32, 3, landmark_dims, 0.0f, 12.0f);
  uint32_t matrix = cf_tensor(graph, TFLACCEL_DTYPE_FLOAT32, 3, matrix_dims);
  cf_op(graph, TFLACCEL_OP_CUSTOM, 1, &landmarks, matrix);
  set_custom(graph, "Landmarks2TransformMatrix", l2tm_options, sizeof l2tm_options);
  cf_output(graph, matrix);
  if (!(spec->flags & CF_CHAIN)) return;
  const int32_t image_dims[4] = {1, 16, 16, spec->shape[3]};
  const int32_t crop_dims[4] = {1, 4, 4, spec->shape[3]};
  uint32_t image = cf_input(graph, TFLACCEL_DTYPE_FLOAT32, 4, image_dims, -2.0f, 2.0f);
  uint32_t crop = cf_tensor(graph, TFLACCEL_DTYPE_FLOAT32, 4, crop_dims);
  cf_op(graph, TFLACCEL_OP_CUSTOM, 2, (const uint32_t[]){image, matrix}, crop);
  set_custom(graph, "TransformTensorBilinear", NULL, 0);
  cf_output(graph, crop);
  const int32_t points_dims[3] = {1, 7, 3};
  uint32_t points = cf_input(graph, TFLACCEL_DTYPE_FLOAT32, 3, points_dims, 0.0f, 4.0f);
  uint32_t mapped = cf_tensor(graph, TFLACCEL_DTYPE_FLOAT32, 3, points_dims);
  cf_op(graph, TFLACCEL_OP_CUSTOM, 2, (const uint32_t[]){points, matrix}, mapped);
  set_custom(graph, "TransformLandmarks", NULL, 0);
  cf_output(graph, mapped);
}

/* TransformTensorBilinear of the main input [1, 12, 10, C] through
 * crop_matrix into [1, 8, 6, C]. */
static void build_transform_tensor_bilinear(cf_graph *graph, const cf_case *spec) {
  uint32_t input = input_of(graph, spec);
  uint32_t matrix = crop_matrix(graph);
  const int32_t out_dims[4] = {1, 8, 6, spec->shape[3]};
  uint32_t output = cf_tensor(graph, TFLACCEL_DTYPE_FLOAT32, 4, out_dims);
  cf_op(graph, TFLACCEL_OP_CUSTOM, 2, (const uint32_t[]){input, matrix}, output);
  set_custom(graph, "TransformTensorBilinear", NULL, 0);
  cf_output(graph, output);
}

/* TransformLandmarks of landmarks [1, N, D] (the main input) through
 * crop_matrix. */
static void build_transform_landmarks(cf_graph *graph, const cf_case *spec) {
  uint32_t input = cf_input(graph, TFLACCEL_DTYPE_FLOAT32, 3, spec->shape, 0.0f, 8.0f);
  uint32_t matrix = crop_matrix(graph);
  uint32_t output = cf_tensor(graph, TFLACCEL_DTYPE_FLOAT32, 3, spec->shape);
  cf_op(graph, TFLACCEL_OP_CUSTOM, 2, (const uint32_t[]){input, matrix}, output);
  set_custom(graph, "TransformLandmarks", NULL, 0);
  cf_output(graph, output);
}

/* UNIDIRECTIONAL_SEQUENCE_LSTM, TFLite's full kernel with all four gates:
 * input the main input's shape (time-major [T, B, I], or [B, T, I] with
 * CF_BATCH_MAJOR), out_c cells, value the cell clip (0: none). Its output
 * and cell states are variable tensors: the output state starts from 0,
 * the cell state from values of its own (its initial data), and the
 * runner's two runs (and reset_state between, conformance_runner.c) check
 * that they persist and return. */
static void build_sequence_lstm(cf_graph *graph, const cf_case *spec) {
  int batch_major = (spec->flags & CF_BATCH_MAJOR) != 0;
  int32_t batch = spec->shape[batch_major ? 0 : 1], input_depth = spec->shape[2];
  int32_t cells = spec->out_c;
  int32_t input_weight_dims[2] = {cells, input_depth}, recurrent_dims[2] = {cells, cells};
  int32_t state_dims[2] = {batch, cells};
  int32_t output_dims[3] = {spec->shape[0], spec->shape[1], cells};
  uint32_t inputs[20];
  for (uint32_t i = 0; i < 20; ++i) inputs[i] = TFLACCEL_NO_TENSOR;
  inputs[0] = input_of(graph, spec);
  for (uint32_t g = 0; g < 4; ++g) {
    inputs[1 + g] = cf_constant(graph, 2, input_weight_dims, -0.5f, 0.5f);
    inputs[5 + g] = cf_constant(graph, 2, recurrent_dims, -0.5f, 0.5f);
    inputs[12 + g] = cf_constant(graph, 1, &cells, -1.0f, 1.0f);
  }
  inputs[18] = cf_tensor(graph, TFLACCEL_DTYPE_FLOAT32, 2, state_dims);
  graph->tensors[inputs[18]].flags = TFLACCEL_TENSOR_VARIABLE;
  inputs[19] = cf_constant(graph, 2, state_dims, -2.0f, 2.0f);
  graph->tensors[inputs[19]].flags = TFLACCEL_TENSOR_VARIABLE; /* its data: the initial value */
  uint32_t output = cf_tensor(graph, TFLACCEL_DTYPE_FLOAT32, 3, output_dims);
  tflaccel_op_params *p = cf_op(graph, TFLACCEL_OP_UNIDIRECTIONAL_SEQUENCE_LSTM, 20, inputs, output);
  p->sequence_lstm.fused_activation = TFLACCEL_ACT_TANH;
  p->sequence_lstm.cell_clip = spec->value;
  p->sequence_lstm.time_major = !batch_major;
  cf_output(graph, output);
}

/* SVDF, float32: input the main input [B, I], out_c units, multiplier the
 * rank, kw the memory (frames per filter), activation fused; CF_NO_BIAS
 * drops the bias. Its state [B, units x rank x memory] is a variable tensor
 * that starts from values of its own (its initial data), so that every
 * frame slot the time filter reads is non-zero from the first run on and
 * the runner's runs and reset_state (conformance_runner.c) see the shift
 * of each slot. */
static void build_svdf(cf_graph *graph, const cf_case *spec) {
  int32_t batch = spec->shape[0], inputs = spec->shape[1], units = spec->out_c;
  int32_t rank = spec->multiplier, memory = spec->kw, filters = units * rank;
  int32_t feature_dims[2] = {filters, inputs}, time_dims[2] = {filters, memory};
  int32_t state_dims[2] = {batch, filters * memory}, output_dims[2] = {batch, units};
  uint32_t op_inputs[5];
  op_inputs[0] = input_of(graph, spec);
  op_inputs[1] = cf_constant(graph, 2, feature_dims, -0.5f, 0.5f);
  op_inputs[2] = cf_constant(graph, 2, time_dims, -0.5f, 0.5f);
  op_inputs[3] = spec->flags & CF_NO_BIAS ? TFLACCEL_NO_TENSOR
                                          : cf_constant(graph, 1, &units, -1.0f, 1.0f);
  op_inputs[4] = cf_constant(graph, 2, state_dims, -2.0f, 2.0f);
  graph->tensors[op_inputs[4]].flags = TFLACCEL_TENSOR_VARIABLE; /* its data: the initial value */
  uint32_t output = cf_tensor(graph, TFLACCEL_DTYPE_FLOAT32, 2, output_dims);
  tflaccel_op_params *p = cf_op(graph, TFLACCEL_OP_SVDF, 5, op_inputs, output);
  p->svdf.rank = rank;
  p->svdf.fused_activation = spec->activation;
  cf_output(graph, output);
}

const cf_case cf_cases[] = {
    /* CONV_2D */
    {.name = "conv 3x3 same c3->5", .build = build_conv, .op = TFLACCEL_OP_CONV_2D, .rank = 4,
     .shape = {1, 9, 11, 3}, .out_c = 5, .kh = 3, .kw = 3, .padding = SAME},
    {.name = "conv 3x3 stride2 same relu6", .build = build_conv, .op = TFLACCEL_OP_CONV_2D,
     .rank = 4, .shape = {1, 16, 16, 8}, .out_c = 16, .kh = 3, .kw = 3, .stride = 2,
     .padding = SAME, .activation = RELU6},
    {.name = "conv 3x3 stride2 same odd", .build = build_conv, .op = TFLACCEL_OP_CONV_2D, .rank = 4,
     .shape = {1, 15, 13, 6}, .out_c = 7, .kh = 3, .kw = 3, .stride = 2, .padding = SAME,
     .activation = RELU},
    {.name = "conv 5x3 valid relu1 no bias", .build = build_conv, .op = TFLACCEL_OP_CONV_2D,
     .rank = 4, .shape = {2, 12, 10, 5}, .out_c = 6, .kh = 5, .kw = 3, .padding = VALID,
     .activation = RELU1, .flags = CF_NO_BIAS},
    {.name = "conv 3x3 dilation2", .build = build_conv, .op = TFLACCEL_OP_CONV_2D, .rank = 4,
     .shape = {1, 14, 14, 4}, .out_c = 8, .kh = 3, .kw = 3, .dilation = 2, .padding = SAME},
    {.name = "conv 1x1 c1->1 tiny", .build = build_conv, .op = TFLACCEL_OP_CONV_2D, .rank = 4,
     .shape = {1, 1, 1, 1}, .out_c = 1, .kh = 1, .kw = 1, .padding = VALID},
    {.name = "conv 1x1 wide c200->36", .build = build_conv, .op = TFLACCEL_OP_CONV_2D, .rank = 4,
     .shape = {1, 6, 7, 200}, .out_c = 36, .kh = 1, .kw = 1, .padding = SAME},
    {.name = "conv 1x1 large 64x64 c32->48", .build = build_conv, .op = TFLACCEL_OP_CONV_2D,
     .rank = 4, .shape = {1, 64, 64, 32}, .out_c = 48, .kh = 1, .kw = 1, .padding = SAME,
     .activation = RELU6},
    {.name = "conv 2x2 window = whole input c48->13", .build = build_conv,
     .op = TFLACCEL_OP_CONV_2D, .rank = 4, .shape = {1, 2, 2, 48}, .out_c = 13, .kh = 2,
     .kw = 2, .padding = VALID},
    {.name = "conv 3x3 window = whole input batch 2 relu6", .build = build_conv,
     .op = TFLACCEL_OP_CONV_2D, .rank = 4, .shape = {2, 3, 3, 16}, .out_c = 7, .kh = 3, .kw = 3,
     .padding = VALID, .activation = RELU6},
    /* DEPTHWISE_CONV_2D */
    {.name = "depthwise 3x3 same c6", .build = build_conv, .op = TFLACCEL_OP_DEPTHWISE_CONV_2D,
     .rank = 4, .shape = {1, 10, 9, 6}, .kh = 3, .kw = 3, .padding = SAME},
    {.name = "depthwise 5x5 stride2 relu6", .build = build_conv,
     .op = TFLACCEL_OP_DEPTHWISE_CONV_2D, .rank = 4, .shape = {1, 17, 16, 12}, .kh = 5, .kw = 5,
     .stride = 2, .padding = SAME, .activation = RELU6},
    {.name = "depthwise 3x3 valid multiplier 3", .build = build_conv,
     .op = TFLACCEL_OP_DEPTHWISE_CONV_2D, .rank = 4, .shape = {1, 8, 8, 3}, .kh = 3, .kw = 3,
     .multiplier = 3, .padding = VALID, .activation = RELU1},
    {.name = "depthwise dilation2 no bias", .build = build_conv,
     .op = TFLACCEL_OP_DEPTHWISE_CONV_2D, .rank = 4, .shape = {2, 9, 9, 5}, .kh = 3, .kw = 3,
     .dilation = 2, .padding = SAME, .flags = CF_NO_BIAS},
    /* FULLY_CONNECTED */
    {.name = "fully connected 2-D", .build = build_fully_connected, .op = 0, .rank = 2,
     .shape = {3, 37}, .out_c = 11, .activation = RELU},
    {.name = "fully connected wide 1x672->63", .build = build_fully_connected, .op = 0, .rank = 2,
     .shape = {1, 672}, .out_c = 63},
    {.name = "fully connected flatten 4-D", .build = build_fully_connected, .op = 0, .rank = 4,
     .shape = {2, 3, 3, 5}, .out_c = 7, .flags = CF_FLATTEN},
    {.name = "fully connected keep dims", .build = build_fully_connected, .op = 0, .rank = 3,
     .shape = {2, 4, 6}, .out_c = 9, .activation = RELU6, .flags = CF_KEEP_DIMS | CF_NO_BIAS},
    /* Transposed convolutions */
    {.name = "transpose conv same stride2", .build = build_transpose_conv,
     .op = TFLACCEL_OP_TRANSPOSE_CONV, .rank = 4, .shape = {1, 5, 6, 3}, .out_c = 5, .kh = 3,
     .kw = 3, .stride = 2, .padding = SAME},
    {.name = "transpose conv valid no bias", .build = build_transpose_conv,
     .op = TFLACCEL_OP_TRANSPOSE_CONV, .rank = 4, .shape = {1, 4, 4, 8}, .out_c = 4, .kh = 2,
     .kw = 2, .stride = 2, .padding = VALID, .flags = CF_NO_BIAS},
    {.name = "Convolution2DTransposeBias", .build = build_transpose_conv, .op = TFLACCEL_OP_CUSTOM,
     .rank = 4, .shape = {1, 8, 8, 6}, .out_c = 3, .kh = 4, .kw = 4, .stride = 2, .padding = SAME},
    /* Elementwise binary */
    {.name = "add same shape", .build = build_binary, .op = TFLACCEL_OP_ADD, .rank = 4,
     .shape = {1, 7, 5, 6}, .rank2 = 4, .shape2 = {1, 7, 5, 6}},
    {.name = "add broadcast channels relu", .build = build_binary, .op = TFLACCEL_OP_ADD, .rank = 4,
     .shape = {1, 6, 5, 7}, .rank2 = 1, .shape2 = {7}, .activation = RELU, .flags = CF_CONSTANT},
    {.name = "add broadcast scalar first", .build = build_binary, .op = TFLACCEL_OP_ADD, .rank = 4,
     .shape = {2, 3, 4, 5}, .rank2 = 1, .shape2 = {1}, .flags = CF_SWAP},
    {.name = "add broadcast rows relu6", .build = build_binary, .op = TFLACCEL_OP_ADD, .rank = 4,
     .shape = {1, 4, 6, 8}, .rank2 = 4, .shape2 = {1, 4, 1, 8}, .activation = RELU6},
    {.name = "sub broadcast swapped", .build = build_binary, .op = TFLACCEL_OP_SUB, .rank = 3,
     .shape = {4, 5, 6}, .rank2 = 3, .shape2 = {1, 5, 1}, .flags = CF_SWAP},
    {.name = "sub relu1", .build = build_binary, .op = TFLACCEL_OP_SUB, .rank = 2, .shape = {9, 10},
     .rank2 = 2, .shape2 = {9, 10}, .activation = RELU1},
    {.name = "mul channel constant", .build = build_binary, .op = TFLACCEL_OP_MUL, .rank = 4,
     .shape = {1, 8, 8, 10}, .rank2 = 4, .shape2 = {1, 1, 1, 10}, .flags = CF_CONSTANT},
    {.name = "mul one channel broadcast", .build = build_binary, .op = TFLACCEL_OP_MUL, .rank = 4,
     .shape = {1, 5, 5, 9}, .rank2 = 4, .shape2 = {1, 5, 5, 1}},
    {.name = "div", .build = build_binary, .op = TFLACCEL_OP_DIV, .rank = 4, .shape = {1, 4, 4, 6},
     .rank2 = 4, .shape2 = {1, 4, 4, 6}, .activation = RELU},
    {.name = "div broadcast swapped", .build = build_binary, .op = TFLACCEL_OP_DIV, .rank = 4,
     .shape = {1, 4, 4, 6}, .rank2 = 1, .shape2 = {6}, .flags = CF_SWAP},
    {.name = "maximum", .build = build_binary, .op = TFLACCEL_OP_MAXIMUM, .rank = 4,
     .shape = {1, 3, 7, 5}, .rank2 = 4, .shape2 = {1, 3, 7, 5}},
    {.name = "minimum broadcast", .build = build_binary, .op = TFLACCEL_OP_MINIMUM, .rank = 4,
     .shape = {1, 3, 7, 5}, .rank2 = 1, .shape2 = {5}, .flags = CF_CONSTANT},
    {.name = "logical and broadcast", .build = build_binary, .op = TFLACCEL_OP_LOGICAL_AND,
     .rank = 3, .shape = {2, 5, 6}, .rank2 = 1, .shape2 = {6}},
    /* Elementwise unary */
    {.name = "relu", .build = build_unary, .op = TFLACCEL_OP_RELU, .rank = 4,
     .shape = {1, 9, 9, 5}},
    {.name = "relu6", .build = build_unary, .op = TFLACCEL_OP_RELU6, .rank = 4,
     .shape = {1, 9, 9, 5}},
    {.name = "relu n1 to 1", .build = build_unary, .op = TFLACCEL_OP_RELU_N1_TO_1, .rank = 2,
     .shape = {7, 13}},
    {.name = "logistic", .build = build_unary, .op = TFLACCEL_OP_LOGISTIC, .rank = 4,
     .shape = {1, 6, 6, 7}},
    {.name = "hard swish", .build = build_unary, .op = TFLACCEL_OP_HARD_SWISH, .rank = 4,
     .shape = {1, 6, 6, 7}},
    {.name = "tanh", .build = build_unary, .op = TFLACCEL_OP_TANH, .rank = 3, .shape = {3, 5, 7}},
    {.name = "exp", .build = build_unary, .op = TFLACCEL_OP_EXP, .rank = 1, .shape = {37}},
    {.name = "leaky relu", .build = build_unary, .op = TFLACCEL_OP_LEAKY_RELU, .rank = 4,
     .shape = {1, 4, 4, 6}, .value = 0.2f},
    {.name = "sqrt", .build = build_sqrt, .op = TFLACCEL_OP_SQRT, .rank = 3, .shape = {3, 4, 7}},
    {.name = "sqrt rank 1", .build = build_sqrt, .op = TFLACCEL_OP_SQRT, .rank = 1,
     .shape = {9}},
    {.name = "floor div broadcast channels", .build = build_floor_div,
     .op = TFLACCEL_OP_FLOOR_DIV, .rank = 4, .shape = {1, 5, 6, 7}, .rank2 = 1, .shape2 = {7},
     .value = 2.5f},
    {.name = "floor div same shape rank 2", .build = build_floor_div,
     .op = TFLACCEL_OP_FLOOR_DIV, .rank = 2, .shape = {6, 9}, .rank2 = 2, .shape2 = {6, 9},
     .value = 3.0f},
    /* TRANSPOSE */
    {.name = "transpose NCHW to NHWC c3", .build = build_transpose, .op = TFLACCEL_OP_TRANSPOSE,
     .rank = 4, .shape = {1, 3, 6, 5}, .int_count = 4, .ints = {0, 2, 3, 1}},
    {.name = "transpose rank 4 batch and channels", .build = build_transpose,
     .op = TFLACCEL_OP_TRANSPOSE, .rank = 4, .shape = {2, 3, 4, 7}, .int_count = 4,
     .ints = {3, 1, 2, 0}},
    {.name = "transpose rank 3 rotate", .build = build_transpose, .op = TFLACCEL_OP_TRANSPOSE,
     .rank = 3, .shape = {4, 5, 6}, .int_count = 3, .ints = {2, 0, 1}},
    {.name = "transpose rank 2", .build = build_transpose, .op = TFLACCEL_OP_TRANSPOSE,
     .rank = 2, .shape = {5, 9}, .int_count = 2, .ints = {1, 0}},
    {.name = "transpose rank 1 identity", .build = build_transpose, .op = TFLACCEL_OP_TRANSPOSE,
     .rank = 1, .shape = {11}, .int_count = 1, .ints = {0}},
    /* ARG_MAX, ARG_MIN */
    {.name = "arg max channels c21 int64", .build = build_arg_max, .op = TFLACCEL_OP_ARG_MAX,
     .rank = 4, .shape = {1, 5, 6, 21}, .axis = 3, .flags = CF_INT64},
    {.name = "arg max axis 1 of 3 int32", .build = build_arg_max, .op = TFLACCEL_OP_ARG_MAX,
     .rank = 3, .shape = {1, 40, 7}, .axis = 1},
    {.name = "arg max axis -2 rank 4", .build = build_arg_max, .op = TFLACCEL_OP_ARG_MAX,
     .rank = 4, .shape = {2, 3, 9, 5}, .axis = -2},
    {.name = "arg max rank 1", .build = build_arg_max, .op = TFLACCEL_OP_ARG_MAX, .rank = 1,
     .shape = {13}, .axis = 0},
    {.name = "arg min batch axis", .build = build_arg_max, .op = TFLACCEL_OP_ARG_MIN, .rank = 2,
     .shape = {6, 10}, .axis = 0, .flags = CF_INT64},
    /* CAST */
    {.name = "cast uint8 to float32 c3", .build = build_cast, .op = TFLACCEL_OP_CAST, .rank = 4,
     .shape = {1, 6, 5, 3}, .out_c = TFLACCEL_DTYPE_UINT8, .value = -255.0f},
    {.name = "cast int8 to float32", .build = build_cast, .op = TFLACCEL_OP_CAST, .rank = 3,
     .shape = {4, 5, 6}, .out_c = TFLACCEL_DTYPE_INT8, .value = -127.0f},
    {.name = "cast int32 to float32 rank 2", .build = build_cast, .op = TFLACCEL_OP_CAST,
     .rank = 2, .shape = {6, 9}, .out_c = TFLACCEL_DTYPE_INT32, .value = -1000.0f},
    {.name = "cast of arg max indices", .build = build_cast, .op = TFLACCEL_OP_CAST, .rank = 3,
     .shape = {2, 7, 17}, .flags = CF_KEEP_DIMS},
    /* PACK, UNPACK */
    {.name = "pack 3 along the last axis", .build = build_pack, .op = TFLACCEL_OP_PACK,
     .rank = 2, .shape = {5, 6}, .out_c = 3, .axis = 2},
    {.name = "pack 2 rank 1 axis -1", .build = build_pack, .op = TFLACCEL_OP_PACK, .rank = 1,
     .shape = {17}, .out_c = 2, .axis = -1},
    {.name = "pack 4 along axis 0", .build = build_pack, .op = TFLACCEL_OP_PACK, .rank = 2,
     .shape = {3, 7}, .out_c = 4, .axis = 0},
    {.name = "pack 3 into rank 4 axis 1", .build = build_pack, .op = TFLACCEL_OP_PACK, .rank = 3,
     .shape = {2, 5, 6}, .out_c = 3, .axis = 1},
    {.name = "unpack axis 0", .build = build_unpack, .op = TFLACCEL_OP_UNPACK, .rank = 3,
     .shape = {3, 5, 6}, .axis = 0},
    {.name = "unpack last axis -1", .build = build_unpack, .op = TFLACCEL_OP_UNPACK, .rank = 2,
     .shape = {17, 2}, .axis = -1},
    {.name = "unpack rank 4 axis 1", .build = build_unpack, .op = TFLACCEL_OP_UNPACK, .rank = 4,
     .shape = {2, 4, 3, 5}, .axis = 1},
    {.name = "unpack rank 1", .build = build_unpack, .op = TFLACCEL_OP_UNPACK, .rank = 1,
     .shape = {5}, .axis = 0},
    {.name = "prelu per channel", .build = build_prelu, .op = 0, .rank = 4, .shape = {1, 8, 7, 6},
     .rank2 = 3, .shape2 = {1, 1, 6}},
    {.name = "prelu full", .build = build_prelu, .op = 0, .rank = 4, .shape = {1, 4, 5, 3},
     .rank2 = 3, .shape2 = {4, 5, 3}},
    /* Data movement */
    {.name = "pad spatial", .build = build_pad, .op = 0, .rank = 4, .shape = {1, 5, 6, 3},
     .int_count = 8, .ints = {0, 0, 1, 2, 2, 1, 0, 0}},
    {.name = "pad channels", .build = build_pad, .op = 0, .rank = 4, .shape = {1, 4, 4, 6},
     .int_count = 8, .ints = {0, 0, 0, 0, 0, 0, 0, 5}},
    {.name = "pad channels before", .build = build_pad, .op = 0, .rank = 4, .shape = {1, 3, 3, 5},
     .int_count = 8, .ints = {0, 0, 0, 0, 0, 0, 3, 2}},
    {.name = "padv2 value 2-D", .build = build_pad, .op = 0, .rank = 2, .shape = {5, 6},
     .int_count = 4, .ints = {1, 2, 3, 0}, .flags = CF_PADV2, .value = 1.5f},
    {.name = "max pool 2x2 stride2", .build = build_pool, .op = TFLACCEL_OP_MAX_POOL_2D, .rank = 4,
     .shape = {1, 12, 12, 6}, .kh = 2, .kw = 2, .stride = 2, .padding = VALID},
    {.name = "max pool 3x3 same stride2 odd", .build = build_pool, .op = TFLACCEL_OP_MAX_POOL_2D,
     .rank = 4, .shape = {1, 11, 9, 5}, .kh = 3, .kw = 3, .stride = 2, .padding = SAME,
     .activation = RELU},
    {.name = "average pool 3x3 same", .build = build_pool, .op = TFLACCEL_OP_AVERAGE_POOL_2D,
     .rank = 4, .shape = {2, 7, 8, 9}, .kh = 3, .kw = 3, .stride = 1, .padding = SAME},
    {.name = "average pool 2x2 valid relu6", .build = build_pool, .op = TFLACCEL_OP_AVERAGE_POOL_2D,
     .rank = 4, .shape = {1, 10, 10, 4}, .kh = 2, .kw = 2, .stride = 2, .padding = VALID,
     .activation = RELU6},
    {.name = "global average pool 32x32", .build = build_pool, .op = TFLACCEL_OP_AVERAGE_POOL_2D,
     .rank = 4, .shape = {1, 32, 32, 6}, .kh = 32, .kw = 32, .stride = 1, .padding = VALID},
    {.name = "global max pool 20x20 relu", .build = build_pool, .op = TFLACCEL_OP_MAX_POOL_2D,
     .rank = 4, .shape = {1, 20, 20, 9}, .kh = 20, .kw = 20, .stride = 1, .padding = VALID,
     .activation = RELU},
    {.name = "reshape same channels", .build = build_reshape, .op = 0, .rank = 4,
     .shape = {1, 4, 6, 8}, .int_count = 3, .ints = {1, 24, 8}},
    {.name = "reshape to 2-D", .build = build_reshape, .op = 0, .rank = 4, .shape = {1, 3, 5, 7},
     .int_count = 2, .ints = {1, 105}},
    {.name = "reshape regroup channels", .build = build_reshape, .op = 0, .rank = 3,
     .shape = {2, 6, 10}, .int_count = 4, .ints = {2, 3, 4, 5}},
    {.name = "concat channels unaligned", .build = build_concat, .op = 0, .rank = 4,
     .shape = {1, 5, 4, 0}, .axis = 3, .int_count = 3, .ints = {3, 6, 2}},
    {.name = "concat channels aligned relu", .build = build_concat, .op = 0, .rank = 4,
     .shape = {1, 5, 4, 0}, .axis = 3, .int_count = 2, .ints = {8, 4}, .activation = RELU},
    {.name = "concat width with constant", .build = build_concat, .op = 0, .rank = 4,
     .shape = {1, 3, 0, 5}, .axis = 2, .int_count = 2, .ints = {4, 3}, .flags = CF_CONSTANT},
    {.name = "concat rows negative axis", .build = build_concat, .op = 0, .rank = 3,
     .shape = {0, 7, 6}, .axis = 0, .int_count = 2, .ints = {2, 5}, .flags = CF_SWAP},
    {.name = "concat last axis 3-D", .build = build_concat, .op = 0, .rank = 3,
     .shape = {1, 896, 0}, .axis = 2, .int_count = 2, .ints = {12, 4}},
    {.name = "resize bilinear half pixel", .build = build_resize, .op = TFLACCEL_OP_RESIZE_BILINEAR,
     .rank = 4, .shape = {1, 5, 7, 6}, .int_count = 2, .ints = {10, 14}, .flags = CF_HALF_PIXEL},
    {.name = "resize bilinear align corners", .build = build_resize,
     .op = TFLACCEL_OP_RESIZE_BILINEAR, .rank = 4, .shape = {1, 4, 4, 3}, .int_count = 2,
     .ints = {7, 9}, .flags = CF_ALIGN},
    {.name = "resize bilinear down", .build = build_resize, .op = TFLACCEL_OP_RESIZE_BILINEAR,
     .rank = 4, .shape = {2, 9, 9, 5}, .int_count = 2, .ints = {4, 5}},
    {.name = "resize nearest", .build = build_resize, .op = TFLACCEL_OP_RESIZE_NEAREST_NEIGHBOR,
     .rank = 4, .shape = {1, 4, 5, 6}, .int_count = 2, .ints = {8, 10}},
    {.name = "resize nearest half pixel", .build = build_resize,
     .op = TFLACCEL_OP_RESIZE_NEAREST_NEIGHBOR, .rank = 4, .shape = {1, 6, 6, 2}, .int_count = 2,
     .ints = {9, 4}, .flags = CF_HALF_PIXEL},
    {.name = "mean spatial", .build = build_mean, .op = 0, .rank = 4, .shape = {1, 7, 7, 10},
     .int_count = 2, .ints = {1, 2}},
    {.name = "mean spatial keep dims", .build = build_mean, .op = 0, .rank = 4,
     .shape = {2, 5, 3, 4}, .int_count = 2, .ints = {1, 2}, .flags = CF_KEEP_DIMS},
    {.name = "mean spatial large", .build = build_mean, .op = 0, .rank = 4, .shape = {1, 24, 24, 7},
     .int_count = 2, .ints = {1, 2}},
    {.name = "mean channels", .build = build_mean, .op = 0, .rank = 4, .shape = {1, 4, 5, 6},
     .int_count = 1, .ints = {-1}},
    {.name = "mean rows of 2-D", .build = build_mean, .op = 0, .rank = 2, .shape = {6, 9},
     .int_count = 1, .ints = {0}, .flags = CF_KEEP_DIMS},
    {.name = "depth to space 2", .build = build_depth_to_space, .op = 0, .rank = 4,
     .shape = {1, 4, 5, 12}, .block = 2},
    {.name = "depth to space 3 odd", .build = build_depth_to_space, .op = 0, .rank = 4,
     .shape = {1, 3, 2, 18}, .block = 3},
    {.name = "softmax 2-D", .build = build_softmax, .op = 0, .rank = 2, .shape = {3, 10},
     .value = 1.0f},
    {.name = "softmax 4-D beta", .build = build_softmax, .op = 0, .rank = 4, .shape = {1, 3, 4, 7},
     .value = 0.5f},
    {.name = "strided slice channels", .build = build_strided_slice, .op = 0, .rank = 4,
     .shape = {1, 6, 6, 10}, .int_count = 12, .ints = {0, 0, 0, 2, 1, 6, 6, 9, 1, 1, 1, 1}},
    {.name = "strided slice stride2 masks", .build = build_strided_slice, .op = 0, .rank = 4,
     .shape = {1, 9, 8, 5}, .int_count = 12, .ints = {0, 1, 0, 0, 1, 8, 8, 5, 1, 2, 3, 1},
     .masks = {1, 1, 0}},
    {.name = "strided slice shrink", .build = build_strided_slice, .op = 0, .rank = 3,
     .shape = {4, 7, 6}, .int_count = 9, .ints = {1, 0, 0, 2, 7, 6, 1, 1, 2}, .masks = {0, 0, 1}},
    {.name = "strided slice negative stride", .build = build_strided_slice, .op = 0, .rank = 2,
     .shape = {5, 8}, .int_count = 6, .ints = {-1, 7, 0, 0, -1, -2}, .masks = {0, 0, 0}},
    /* Fusion */
    {.name = "residual conv+add+mul+relu", .build = build_residual_chain, .op = TFLACCEL_OP_RELU,
     .rank = 4, .shape = {1, 10, 10, 6}},
    {.name = "residual conv relu6 +add+mul+hard swish", .build = build_residual_chain,
     .op = TFLACCEL_OP_HARD_SWISH, .rank = 4, .shape = {1, 8, 8, 8}, .activation = RELU6},
    {.name = "residual conv+add+mul+logistic", .build = build_residual_chain,
     .op = TFLACCEL_OP_LOGISTIC, .rank = 4, .shape = {1, 6, 7, 5}},
    {.name = "residual conv c16 few pixels+add+mul+relu", .build = build_residual_chain,
     .op = TFLACCEL_OP_RELU, .rank = 4, .shape = {1, 4, 4, 16}},
    {.name = "pad into conv stride2", .build = build_pad_into, .op = TFLACCEL_OP_CONV_2D, .rank = 4,
     .shape = {1, 9, 9, 5}, .out_c = 6, .kh = 3, .kw = 3, .stride = 2, .padding = VALID,
     .int_count = 4, .ints = {0, 1, 0, 1}},
    {.name = "pad into depthwise", .build = build_pad_into, .op = TFLACCEL_OP_DEPTHWISE_CONV_2D,
     .rank = 4, .shape = {1, 8, 8, 7}, .kh = 5, .kw = 5, .stride = 2, .padding = VALID,
     .int_count = 4, .ints = {1, 2, 1, 2}, .activation = RELU},
    {.name = "pad into max pool", .build = build_pad_into, .op = TFLACCEL_OP_MAX_POOL_2D, .rank = 4,
     .shape = {1, 7, 7, 6}, .kh = 2, .kw = 2, .stride = 2, .padding = VALID, .int_count = 4,
     .ints = {0, 1, 0, 1}},
    {.name = "pad into average pool same", .build = build_pad_into,
     .op = TFLACCEL_OP_AVERAGE_POOL_2D, .rank = 4, .shape = {1, 6, 6, 5}, .kh = 3, .kw = 3,
     .stride = 2, .padding = SAME, .int_count = 4, .ints = {1, 1, 2, 0}},
    {.name = "depthwise relu6 + 1x1 c10->7", .build = build_depthwise_pointwise, .rank = 4,
     .shape = {1, 17, 15, 10}, .out_c = 7, .kh = 3, .kw = 3, .padding = SAME,
     .activation = RELU6},
    {.name = "depthwise 5x5 stride2 + 1x1 c72->24 + add", .build = build_depthwise_pointwise,
     .rank = 4, .shape = {1, 12, 12, 72}, .out_c = 24, .kh = 5, .kw = 5, .stride = 2,
     .padding = SAME, .activation = RELU6, .rank2 = 4},
    {.name = "depthwise multiplier 2 dilation2 + 1x1 no bias", .build = build_depthwise_pointwise,
     .rank = 4, .shape = {2, 9, 9, 2}, .out_c = 6, .kh = 3, .kw = 3, .dilation = 2,
     .multiplier = 2, .padding = VALID, .flags = CF_NO_BIAS},
    {.name = "depthwise relu + 1x1 c96->13 + add relu6", .build = build_depthwise_pointwise,
     .rank = 4, .shape = {1, 5, 6, 96}, .out_c = 13, .kh = 3, .kw = 3, .padding = SAME,
     .activation = RELU, .rank2 = 4, .flags = CF_SWAP},
    {.name = "depthwise 5x5 + 1x1 c64->64 + add + prelu", .build = build_depthwise_pointwise,
     .rank = 4, .shape = {1, 12, 12, 64}, .out_c = 64, .kh = 5, .kw = 5, .padding = SAME,
     .rank2 = 4, .flags = CF_CONSTANT},
    {.name = "depthwise + 1x1 c4->6 + add + prelu (tiled)", .build = build_depthwise_pointwise,
     .rank = 4, .shape = {1, 20, 18, 4}, .out_c = 6, .kh = 3, .kw = 3, .padding = SAME,
     .activation = RELU6, .rank2 = 4, .flags = CF_CONSTANT},
    {.name = "depthwise + 1x1 large 256x256 c8->8", .build = build_depthwise_pointwise,
     .rank = 4, .shape = {1, 256, 256, 8}, .out_c = 8, .kh = 3, .kw = 3, .padding = SAME,
     .activation = RELU6},
    {.name = "inverted residual pair c72 -> 20 -> 72 (dw 3x3)",
     .build = build_inverted_residual_pair, .rank = 4, .shape = {1, 6, 7, 72}, .out_c = 20,
     .kh = 3, .kw = 3},
    {.name = "inverted residual pair c96 -> 13 -> 96 (dw 5x5)",
     .build = build_inverted_residual_pair, .rank = 4, .shape = {1, 9, 8, 96}, .out_c = 13,
     .kh = 5, .kw = 5},
    {.name = "quantized int8 add", .build = build_quantized_add, .op = 0, .rank = 4,
     .shape = {1, 4, 4, 8}},
    /* 8-bit ops that XNNPACK composes from several nodes (GPU plugins decline
     * them). block: the row of quant_pairs. */
    {.name = "quantize uint8 -> int8 (model input)", .build = build_convert,
     .op = TFLACCEL_OP_QUANTIZE, .rank = 4, .shape = {1, 9, 7, 3}, .block = 0},
    {.name = "quantize int8 -> int8 rescaled", .build = build_convert, .op = TFLACCEL_OP_QUANTIZE,
     .rank = 2, .shape = {5, 37}, .block = 1},
    {.name = "quantize int8 -> uint8 (model output)", .build = build_convert,
     .op = TFLACCEL_OP_QUANTIZE, .rank = 2, .shape = {1, 1001}, .block = 2},
    {.name = "quantize float32 -> int8", .build = build_convert, .op = TFLACCEL_OP_QUANTIZE,
     .rank = 3, .shape = {2, 5, 11}, .block = 3},
    {.name = "dequantize uint8 -> float32", .build = build_convert, .op = TFLACCEL_OP_DEQUANTIZE,
     .rank = 3, .shape = {2, 5, 11}, .block = 4},
    {.name = "softmax int8", .build = build_quantized_softmax, .op = 0, .rank = 2,
     .shape = {3, 1001}, .block = 5},
    {.name = "softmax uint8", .build = build_quantized_softmax, .op = 0, .rank = 2,
     .shape = {2, 37}, .block = 6},
    {.name = "concat int8 channels equal scales", .build = build_quantized_concat, .op = 0,
     .rank = 4, .shape = {1, 5, 4, 0}, .axis = 3, .int_count = 3, .ints = {3, 6, 2}},
    {.name = "concat int8 rows rescaled", .build = build_quantized_concat, .op = 0, .rank = 3,
     .shape = {0, 7, 6}, .axis = 0, .int_count = 3, .ints = {2, 5, 1}, .flags = CF_SWAP},
    /* Recurrent: the basic LSTM cell, depths that are and are not multiples of 4. */
    {.name = "lstm basic depth 5 input 3", .build = build_lstm_basic, .op = TFLACCEL_OP_LSTM,
     .rank = 2, .shape = {1, 3}, .out_c = 5},
    {.name = "lstm basic depth 8 input 16 batch 2", .build = build_lstm_basic,
     .op = TFLACCEL_OP_LSTM, .rank = 2, .shape = {2, 16}, .out_c = 8},
    /* MediaPipe's transform custom ops (face_landmark_with_attention). */
    {.name = "Landmarks2TransformMatrix 301 landmarks", .op = TFLACCEL_OP_CUSTOM,
     .build = build_landmarks_to_transform_matrix},
    {.name = "Landmarks2TransformMatrix -> TransformTensorBilinear, TransformLandmarks",
     .build = build_landmarks_to_transform_matrix, .op = TFLACCEL_OP_CUSTOM,
     .shape = {1, 16, 16, 8}, .flags = CF_CHAIN},
    {.name = "TransformTensorBilinear c5", .build = build_transform_tensor_bilinear,
     .op = TFLACCEL_OP_CUSTOM, .rank = 4, .shape = {1, 12, 10, 5}},
    {.name = "TransformTensorBilinear c16", .build = build_transform_tensor_bilinear,
     .op = TFLACCEL_OP_CUSTOM, .rank = 4, .shape = {1, 12, 10, 16}},
    {.name = "TransformLandmarks 3-D", .build = build_transform_landmarks,
     .op = TFLACCEL_OP_CUSTOM, .rank = 3, .shape = {1, 9, 3}},
    {.name = "TransformLandmarks 2-D", .build = build_transform_landmarks,
     .op = TFLACCEL_OP_CUSTOM, .rank = 3, .shape = {1, 6, 2}},
    /* The sequence LSTM: its states persist from run to run. */
    {.name = "sequence lstm time-major 3 steps batch 2 input 5 cells 6",
     .build = build_sequence_lstm, .op = TFLACCEL_OP_UNIDIRECTIONAL_SEQUENCE_LSTM, .rank = 3,
     .shape = {3, 2, 5}, .out_c = 6},
    {.name = "sequence lstm batch-major 4 steps input 8 cells 4 clip 0.5",
     .build = build_sequence_lstm, .op = TFLACCEL_OP_UNIDIRECTIONAL_SEQUENCE_LSTM, .rank = 3,
     .shape = {1, 4, 8}, .out_c = 4, .flags = CF_BATCH_MAJOR, .value = 0.5f},
    /* SVDF: its state shifts by one frame each run. */
    {.name = "svdf rank 1 batch 2 input 5 units 6 memory 3 relu", .build = build_svdf,
     .op = TFLACCEL_OP_SVDF, .rank = 2, .shape = {2, 5}, .out_c = 6, .multiplier = 1, .kw = 3,
     .activation = RELU},
    {.name = "svdf rank 2 input 7 units 3 memory 5 tanh no bias", .build = build_svdf,
     .op = TFLACCEL_OP_SVDF, .rank = 2, .shape = {1, 7}, .out_c = 3, .multiplier = 2, .kw = 5,
     .activation = TFLACCEL_ACT_TANH, .flags = CF_NO_BIAS},
    /* ARG_MAX, ARG_MIN over axes of 64 and more: a work group per output
     * slice on the GPU (last, so that the cases above keep their seeds). */
    {.name = "arg max axis 1 of 300 rank 3", .build = build_arg_max, .op = TFLACCEL_OP_ARG_MAX,
     .rank = 3, .shape = {2, 300, 7}, .axis = 1},
    {.name = "arg min channels c200", .build = build_arg_max, .op = TFLACCEL_OP_ARG_MIN,
     .rank = 4, .shape = {1, 3, 4, 200}, .axis = -1, .flags = CF_INT64},
};

const uint32_t cf_case_count = sizeof cf_cases / sizeof cf_cases[0];
