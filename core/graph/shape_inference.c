/* Per-op output shapes, written from each op's definition in TFLite's
 * documentation and schema comments. Only what can be computed is checked:
 * an op whose input shapes are unknown, or whose shape depends on an input
 * that is not constant, is left as stored. */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "core/facts/axis.h"
#include "core/facts/conv_geometry.h"
#include "core/facts/posenet_decoder.h"
#include "core/graph/shape_inference.h"
#include "core/tflite/builtin_options.h"
#include "core/tflite/flatbuffer.h"

/* Ranks above this are never computed (no op here produces one). */
#define SHAPE_MAX_RANK 16

typedef struct shape_context {
  tflaccel_model *model;
  const model_subgraph *subgraph;
  model_shape *shapes;
  uint32_t op_index;
  const model_op *op;
} shape_context;

/* A computed shape. */
typedef struct dims {
  uint32_t rank;
  int32_t d[SHAPE_MAX_RANK];
} dims;

static const char *shape_text(char *text, size_t size, uint32_t rank, const int32_t *values) {
  size_t used = (size_t)snprintf(text, size, "[");
  for (uint32_t i = 0; i < rank && used < size; ++i)
    used += (size_t)snprintf(text + used, size - used, "%s%d", i ? "," : "", values[i]);
  if (used < size) snprintf(text + used, size - used, "]");
  return text;
}

static tflaccel_status op_error(const shape_context *c, const char *format, ...)
    __attribute__((format(printf, 2, 3)));

static tflaccel_status op_error(const shape_context *c, const char *format, ...) {
  char reason[768];
  va_list args;
  va_start(args, format);
  vsnprintf(reason, sizeof reason, format, args);
  va_end(args);
  return tflaccel_status_make(TFLACCEL_INVALID_MODEL, "op %u (%s): %s", c->op_index,
                              model_op_name(c->op), reason);
}

static int32_t input_index(const shape_context *c, uint32_t i) {
  return i < c->op->input_count ? c->op->inputs[i] : -1;
}

/* Shape of input i when it is present and known, else NULL. */
static const model_shape *known_input(const shape_context *c, uint32_t i) {
  int32_t tensor = input_index(c, i);
  if (tensor < 0) return NULL;
  const model_shape *shape = &c->shapes[tensor];
  return shape->known && shape->rank <= SHAPE_MAX_RANK ? shape : NULL;
}

static tflaccel_status require_io(const shape_context *c, uint32_t inputs, uint32_t outputs) {
  if (c->op->input_count < inputs)
    return op_error(c, "has %u inputs, needs at least %u", c->op->input_count, inputs);
  if (c->op->output_count < outputs)
    return op_error(c, "has %u outputs, needs at least %u", c->op->output_count, outputs);
  for (uint32_t i = 0; i < inputs; ++i)
    if (c->op->inputs[i] < 0) return op_error(c, "required input %u is absent", i);
  return NULL;
}

static tflaccel_status require_rank(const shape_context *c, const model_shape *shape,
                                    const char *what, uint32_t rank) {
  if (shape->rank == rank) return NULL;
  char text[160];
  return op_error(c, "%s has shape %s, expected rank %u", what,
                  shape_text(text, sizeof text, shape->rank, shape->dims), rank);
}

static uint64_t element_count(uint32_t rank, const int32_t *values) {
  uint64_t count = 1;
  for (uint32_t i = 0; i < rank; ++i) {
    if (values[i] <= 0) return 0;
    if (count > (UINT64_C(1) << 62) / (uint64_t)values[i]) return UINT64_MAX;
    count *= (uint64_t)values[i];
  }
  return count;
}

/* Checks output k against `expected`, or gives it that shape when it has none. */
static tflaccel_status expect_output(shape_context *c, uint32_t k, const dims *expected,
                                     const char *because) {
  int32_t tensor = c->op->outputs[k];
  model_shape *shape = &c->shapes[tensor];
  if (!shape->known) {
    int32_t *values = pool_alloc_array(&c->model->pool, expected->rank ? expected->rank : 1,
                                       sizeof *values);
    if (values == NULL)
      return tflaccel_status_make(TFLACCEL_OUT_OF_MEMORY, "out of memory inferring shapes");
    memcpy(values, expected->d, expected->rank * sizeof *values);
    shape->rank = expected->rank;
    shape->dims = values;
    shape->known = 1;
    return NULL;
  }
  if (shape->rank == expected->rank &&
      (expected->rank == 0 || memcmp(shape->dims, expected->d, expected->rank * sizeof(int32_t)) == 0))
    return NULL;
  char stored[160], computed[160];
  return op_error(c, "output %u (tensor %d '%s') has shape %s, but %s gives %s", k, tensor,
                  c->subgraph->tensors[tensor].name,
                  shape_text(stored, sizeof stored, shape->rank, shape->dims), because,
                  shape_text(computed, sizeof computed, expected->rank, expected->d));
}

static void copy_dims(dims *out, const model_shape *shape) {
  out->rank = shape->rank;
  for (uint32_t i = 0; i < shape->rank; ++i) out->d[i] = shape->dims[i];
}

/* Values of constant integer input i (int32 or int64), when there are at
 * most `max`; returns 0 when the input is absent, not constant or too long. */
static int constant_ints(const shape_context *c, uint32_t i, int64_t *values, uint32_t max,
                         uint32_t *count) {
  int32_t index = input_index(c, i);
  if (index < 0) return 0;
  const model_tensor *tensor = &c->subgraph->tensors[index];
  if (tensor->data == NULL || tensor->sparsity) return 0;
  uint64_t size = tensor->dtype == TFLACCEL_DTYPE_INT32 ? 4
                : tensor->dtype == TFLACCEL_DTYPE_INT64 ? 8 : 0;
  if (size == 0 || tensor->data_size % size != 0 || tensor->data_size / size > max) return 0;
  *count = (uint32_t)(tensor->data_size / size);
  for (uint32_t k = 0; k < *count; ++k)
    values[k] = size == 4 ? (int32_t)fb_load_u32(tensor->data + 4 * k)
                          : (int64_t)fb_load_u64(tensor->data + 8 * k);
  return 1;
}

static tflaccel_status check_padding(const shape_context *c, int32_t padding) {
  if (padding == TFLACCEL_PADDING_SAME || padding == TFLACCEL_PADDING_VALID) return NULL;
  return op_error(c, "padding %d is neither SAME (0) nor VALID (1)", padding);
}

static tflaccel_status check_activation(const shape_context *c, int32_t activation) {
  if (activation >= TFLACCEL_ACT_NONE && activation <= TFLACCEL_ACT_SIGN_BIT) return NULL;
  return op_error(c, "fused activation %d is not one the schema defines", activation);
}

static tflaccel_status check_window(const shape_context *c, const char *what, int32_t w,
                                    int32_t h) {
  if (w >= 1 && h >= 1) return NULL;
  return op_error(c, "%s %dx%d (width x height) must be at least 1", what, w, h);
}

static const char *padding_name(int32_t padding) {
  return padding == TFLACCEL_PADDING_SAME ? "SAME" : "VALID";
}

/* ---- Element-wise ops ---------------------------------------------------- */

static tflaccel_status infer_same_shape(shape_context *c) {
  tflaccel_status status = require_io(c, 1, 1);
  if (status) return status;
  const model_shape *input = known_input(c, 0);
  if (input == NULL) return NULL;
  dims expected;
  copy_dims(&expected, input);
  return expect_output(c, 0, &expected, "the input shape");
}

static tflaccel_status infer_broadcast(shape_context *c) {
  tflaccel_status status = require_io(c, 2, 1);
  if (status) return status;
  const model_shape *a = known_input(c, 0), *b = known_input(c, 1);
  if (a == NULL || b == NULL) return NULL;
  dims expected;
  expected.rank = a->rank > b->rank ? a->rank : b->rank;
  for (uint32_t i = 0; i < expected.rank; ++i) {
    int32_t da = i < a->rank ? a->dims[a->rank - 1 - i] : 1;
    int32_t db = i < b->rank ? b->dims[b->rank - 1 - i] : 1;
    int32_t d;
    if (da == db || db == 1) d = da;
    else if (da == 1) d = db;
    else {
      char ta[160], tb[160];
      return op_error(c, "input shapes %s and %s do not broadcast",
                      shape_text(ta, sizeof ta, a->rank, a->dims),
                      shape_text(tb, sizeof tb, b->rank, b->dims));
    }
    expected.d[expected.rank - 1 - i] = d;
  }
  return expect_output(c, 0, &expected, "broadcasting the inputs");
}

/* ---- Convolutions and pooling ------------------------------------------- */

static tflaccel_status infer_conv_2d(shape_context *c) {
  const tflaccel_conv_2d_params *p = &c->op->params.conv_2d;
  tflaccel_status status = require_io(c, 2, 1);
  if (status == NULL) status = check_padding(c, p->padding);
  if (status == NULL) status = check_activation(c, p->fused_activation);
  if (status == NULL) status = check_window(c, "stride", p->stride_w, p->stride_h);
  if (status == NULL) status = check_window(c, "dilation", p->dilation_w, p->dilation_h);
  if (status) return status;
  const model_shape *input = known_input(c, 0), *filter = known_input(c, 1);
  if (input == NULL || filter == NULL) return NULL;
  if ((status = require_rank(c, input, "input", 4)) || (status = require_rank(c, filter, "filter", 4)))
    return status;
  int32_t channels = input->dims[3], filter_channels = filter->dims[3];
  if (filter_channels <= 0 || channels % filter_channels != 0)
    return op_error(c, "input has %d channels, not a multiple of the filter's %d", channels,
                    filter_channels);
  const model_shape *bias = known_input(c, 2);
  if (bias && element_count(bias->rank, bias->dims) != (uint64_t)filter->dims[0] &&
      filter->dims[0] > 0)
    return op_error(c, "bias has %llu elements, the filter %d output channels",
                    (unsigned long long)element_count(bias->rank, bias->dims), filter->dims[0]);
  int32_t height = conv_output_size(p->padding, input->dims[1], filter->dims[1], p->stride_h,
                                    p->dilation_h);
  int32_t width = conv_output_size(p->padding, input->dims[2], filter->dims[2], p->stride_w,
                                   p->dilation_w);
  char ti[160], tf[160], because[512];
  snprintf(because, sizeof because,
           "input %s with filter %s, stride %dx%d, dilation %dx%d and %s padding",
           shape_text(ti, sizeof ti, input->rank, input->dims),
           shape_text(tf, sizeof tf, filter->rank, filter->dims), p->stride_w, p->stride_h,
           p->dilation_w, p->dilation_h, padding_name(p->padding));
  if (height <= 0 || width <= 0) return op_error(c, "the filter does not fit: %s", because);
  dims expected = {4, {input->dims[0], height, width, filter->dims[0]}};
  return expect_output(c, 0, &expected, because);
}

static tflaccel_status infer_depthwise_conv_2d(shape_context *c) {
  const tflaccel_depthwise_conv_2d_params *p = &c->op->params.depthwise_conv_2d;
  tflaccel_status status = require_io(c, 2, 1);
  if (status == NULL) status = check_padding(c, p->padding);
  if (status == NULL) status = check_activation(c, p->fused_activation);
  if (status == NULL) status = check_window(c, "stride", p->stride_w, p->stride_h);
  if (status == NULL) status = check_window(c, "dilation", p->dilation_w, p->dilation_h);
  if (status) return status;
  const model_shape *input = known_input(c, 0), *filter = known_input(c, 1);
  if (input == NULL || filter == NULL) return NULL;
  if ((status = require_rank(c, input, "input", 4)) || (status = require_rank(c, filter, "filter", 4)))
    return status;
  int32_t channels = input->dims[3], output_channels = filter->dims[3];
  if (filter->dims[0] != 1)
    return op_error(c, "filter dimension 0 is %d, expected 1 ([1, height, width, channels])",
                    filter->dims[0]);
  if (channels <= 0 || output_channels % channels != 0)
    return op_error(c, "filter has %d channels, not a multiple of the input's %d",
                    output_channels, channels);
  const model_shape *bias = known_input(c, 2);
  if (bias && element_count(bias->rank, bias->dims) != (uint64_t)output_channels &&
      output_channels > 0)
    return op_error(c, "bias has %llu elements, the filter %d channels",
                    (unsigned long long)element_count(bias->rank, bias->dims), output_channels);
  int32_t height = conv_output_size(p->padding, input->dims[1], filter->dims[1], p->stride_h,
                                    p->dilation_h);
  int32_t width = conv_output_size(p->padding, input->dims[2], filter->dims[2], p->stride_w,
                                   p->dilation_w);
  char ti[160], tf[160], because[512];
  snprintf(because, sizeof because,
           "input %s with filter %s, stride %dx%d, dilation %dx%d and %s padding",
           shape_text(ti, sizeof ti, input->rank, input->dims),
           shape_text(tf, sizeof tf, filter->rank, filter->dims), p->stride_w, p->stride_h,
           p->dilation_w, p->dilation_h, padding_name(p->padding));
  if (height <= 0 || width <= 0) return op_error(c, "the filter does not fit: %s", because);
  dims expected = {4, {input->dims[0], height, width, output_channels}};
  return expect_output(c, 0, &expected, because);
}

static tflaccel_status infer_pool_2d(shape_context *c) {
  const tflaccel_pool_2d_params *p = &c->op->params.pool_2d;
  tflaccel_status status = require_io(c, 1, 1);
  if (status == NULL) status = check_padding(c, p->padding);
  if (status == NULL) status = check_activation(c, p->fused_activation);
  if (status == NULL) status = check_window(c, "stride", p->stride_w, p->stride_h);
  if (status == NULL) status = check_window(c, "filter", p->filter_w, p->filter_h);
  if (status) return status;
  const model_shape *input = known_input(c, 0);
  if (input == NULL) return NULL;
  if ((status = require_rank(c, input, "input", 4))) return status;
  int32_t height = conv_output_size(p->padding, input->dims[1], p->filter_h, p->stride_h, 1);
  int32_t width = conv_output_size(p->padding, input->dims[2], p->filter_w, p->stride_w, 1);
  char ti[160], because[512];
  snprintf(because, sizeof because, "input %s with a %dx%d window, stride %dx%d and %s padding",
           shape_text(ti, sizeof ti, input->rank, input->dims), p->filter_w, p->filter_h,
           p->stride_w, p->stride_h, padding_name(p->padding));
  if (height <= 0 || width <= 0) return op_error(c, "the window does not fit: %s", because);
  dims expected = {4, {input->dims[0], height, width, input->dims[3]}};
  return expect_output(c, 0, &expected, because);
}

/* TRANSPOSE_CONV: inputs output_shape, weights [O,H,W,I], input [N,H,W,I], bias. */
static tflaccel_status infer_transpose_conv(shape_context *c) {
  const tflaccel_transpose_conv_params *p = &c->op->params.transpose_conv;
  tflaccel_status status = require_io(c, 3, 1);
  if (status == NULL) status = check_padding(c, p->padding);
  if (status == NULL) status = check_activation(c, p->fused_activation);
  if (status == NULL) status = check_window(c, "stride", p->stride_w, p->stride_h);
  if (status) return status;
  const model_shape *weights = known_input(c, 1), *input = known_input(c, 2);
  if (weights == NULL || input == NULL) return NULL;
  if ((status = require_rank(c, input, "input", 4)) || (status = require_rank(c, weights, "weights", 4)))
    return status;
  if (weights->dims[3] != input->dims[3])
    return op_error(c, "weights have %d input channels, the input %d", weights->dims[3],
                    input->dims[3]);
  int64_t values[SHAPE_MAX_RANK];
  uint32_t count;
  if (!constant_ints(c, 0, values, SHAPE_MAX_RANK, &count)) return NULL;
  if (count != 4) return op_error(c, "output_shape has %u values, expected 4", count);
  dims expected = {4, {0}};
  for (uint32_t i = 0; i < 4; ++i) {
    if (values[i] <= 0 || values[i] > INT32_MAX)
      return op_error(c, "output_shape value %u is %lld", i, (long long)values[i]);
    expected.d[i] = (int32_t)values[i];
  }
  if (expected.d[0] != input->dims[0] || expected.d[3] != weights->dims[0])
    return op_error(c, "output_shape [%d,%d,%d,%d] does not match batch %d and %d output "
                       "channels", expected.d[0], expected.d[1], expected.d[2], expected.d[3],
                    input->dims[0], weights->dims[0]);
  return expect_output(c, 0, &expected, "the output_shape input");
}

/* MediaPipe's Convolution2DTransposeBias: input [N,H,W,I], weights [O,KH,KW,I],
 * bias [O]; the output size is transpose_conv_bias_output_size's. */
static tflaccel_status infer_transpose_conv_bias(shape_context *c) {
  const tflaccel_transpose_conv_bias_params *p = &c->op->params.transpose_conv_bias;
  tflaccel_status status = require_io(c, 3, 1);
  if (status == NULL) status = check_window(c, "stride", p->stride_w, p->stride_h);
  if (status) return status;
  const model_shape *input = known_input(c, 0), *weights = known_input(c, 1),
                    *bias = known_input(c, 2);
  if (input == NULL || weights == NULL) return NULL;
  if ((status = require_rank(c, input, "input", 4)) || (status = require_rank(c, weights, "weights", 4)))
    return status;
  if (weights->dims[3] != input->dims[3])
    return op_error(c, "weights have %d input channels, the input %d", weights->dims[3],
                    input->dims[3]);
  if (bias && (bias->rank != 1 || bias->dims[0] != weights->dims[0]))
    return op_error(c, "bias must have shape [%d]", weights->dims[0]);
  int32_t out[2];
  int32_t in[2] = {input->dims[1], input->dims[2]};
  int32_t kernel[2] = {weights->dims[1], weights->dims[2]};
  int32_t stride[2] = {p->stride_h, p->stride_w};
  for (int i = 0; i < 2; ++i) {
    out[i] = transpose_conv_bias_output_size(p->padding, in[i], kernel[i], stride[i]);
    if (out[i] < 1)
      return op_error(c, "no valid output size along axis %d: input %d, kernel %d, stride %d",
                      i + 1, in[i], kernel[i], stride[i]);
  }
  char ti[160], tw[160], because[512];
  snprintf(because, sizeof because, "input %s with weights %s, stride %dx%d and %s padding",
           shape_text(ti, sizeof ti, input->rank, input->dims),
           shape_text(tw, sizeof tw, weights->rank, weights->dims), p->stride_w, p->stride_h,
           padding_name(p->padding));
  dims expected = {4, {input->dims[0], out[0], out[1], weights->dims[0]}};
  return expect_output(c, 0, &expected, because);
}

/* ---- Matrix ops ---------------------------------------------------------- */

static tflaccel_status infer_fully_connected(shape_context *c) {
  const tflaccel_fully_connected_params *p = &c->op->params.fully_connected;
  tflaccel_status status = require_io(c, 2, 1);
  if (status == NULL) status = check_activation(c, p->fused_activation);
  if (status) return status;
  const model_shape *input = known_input(c, 0), *weights = known_input(c, 1);
  if (input == NULL || weights == NULL || weights->rank != 2) return NULL;
  int32_t units = weights->dims[0], depth = weights->dims[1];
  uint64_t elements = element_count(input->rank, input->dims);
  if (depth <= 0 || units <= 0 || elements == 0 || elements == UINT64_MAX) return NULL;
  char ti[160], tw[160], because[400];
  snprintf(because, sizeof because, "input %s with weights %s",
           shape_text(ti, sizeof ti, input->rank, input->dims),
           shape_text(tw, sizeof tw, weights->rank, weights->dims));
  if (elements % (uint64_t)depth != 0)
    return op_error(c, "%s: %llu input elements are not a multiple of %d", because,
                    (unsigned long long)elements, depth);
  dims expected;
  if (p->keep_num_dims) {
    if (input->rank == 0 || input->dims[input->rank - 1] != depth)
      return op_error(c, "%s: keep_num_dims needs the input's last dimension to be %d", because,
                      depth);
    copy_dims(&expected, input);
    expected.d[input->rank - 1] = units;
  } else {
    uint64_t batch = elements / (uint64_t)depth;
    if (batch > INT32_MAX) return NULL;
    expected.rank = 2;
    expected.d[0] = (int32_t)batch;
    expected.d[1] = units;
    /* Converters sometimes keep extra unit dimensions; the op computes the
     * same values, so any output of batch x units elements ending in units
     * is accepted. */
    int32_t tensor = c->op->outputs[0];
    const model_shape *output = &c->shapes[tensor];
    if (output->known && output->rank >= 1 && output->dims[output->rank - 1] == units &&
        element_count(output->rank, output->dims) == batch * (uint64_t)units)
      return NULL;
  }
  return expect_output(c, 0, &expected, because);
}

/* LSTM with kernel_type BASIC (TFLite's lstm.cc basic Prepare): inputs
 * input [B, I], prev_activ [B, D], weights [4D, I + D], bias [4D],
 * prev_state [B, D]; outputs activ and state [B, D], concat_temp
 * [B, I + D], activ_temp [B, 4D]. TFLite takes 2-D inputs only; an input of
 * another rank is left as stored (kernels decline it, saying why). */
static tflaccel_status infer_basic_lstm(shape_context *c) {
  tflaccel_status status = require_io(c, 5, 4);
  if (status) return status;
  const model_shape *input = known_input(c, 0), *prev_activ = known_input(c, 1);
  const model_shape *weights = known_input(c, 2), *bias = known_input(c, 3);
  const model_shape *prev_state = known_input(c, 4);
  if (input == NULL || prev_activ == NULL || input->rank != 2) return NULL;
  if ((status = require_rank(c, prev_activ, "prev_activ", 2))) return status;
  int32_t batch = input->dims[0], depth = prev_activ->dims[1];
  if (prev_activ->dims[0] != batch)
    return op_error(c, "prev_activ has %d rows, the input %d", prev_activ->dims[0], batch);
  int64_t gates = (int64_t)depth * 4, total = (int64_t)input->dims[1] + depth;
  if (gates > INT32_MAX || total > INT32_MAX)
    return op_error(c, "depth %d is too large", depth);
  if (weights != NULL) {
    if ((status = require_rank(c, weights, "weights", 2))) return status;
    if (weights->dims[0] != gates || weights->dims[1] != total)
      return op_error(c, "weights are [%d, %d], expected [%lld, %lld]", weights->dims[0],
                      weights->dims[1], (long long)gates, (long long)total);
  }
  if (bias != NULL) {
    if ((status = require_rank(c, bias, "bias", 1))) return status;
    if (bias->dims[0] != gates)
      return op_error(c, "bias has %d values, expected %lld", bias->dims[0], (long long)gates);
  }
  if (prev_state != NULL) {
    if ((status = require_rank(c, prev_state, "prev_state", 2))) return status;
    if (prev_state->dims[0] != batch || prev_state->dims[1] != depth)
      return op_error(c, "prev_state is [%d, %d], expected [%d, %d]", prev_state->dims[0],
                      prev_state->dims[1], batch, depth);
  }
  const dims expected[4] = {{2, {batch, depth}},
                            {2, {batch, depth}},
                            {2, {batch, (int32_t)total}},
                            {2, {batch, (int32_t)gates}}};
  static const char *const because[4] = {
      "the input and prev_activ (activ)", "the input and prev_activ (state)",
      "the input and prev_activ (concat_temp)", "the input and prev_activ (activ_temp)"};
  for (uint32_t k = 0; k < 4; ++k) {
    if (c->op->outputs[k] < 0) return op_error(c, "required output %u is absent", k);
    if ((status = expect_output(c, k, &expected[k], because[k]))) return status;
  }
  return NULL;
}

/* LSTM and UNIDIRECTIONAL_SEQUENCE_LSTM (full kernels, 20 or more inputs):
 * the output is the input with its last dimension replaced by the output
 * size, the columns of recurrent_to_output_weights (input 8). */
static tflaccel_status infer_lstm(shape_context *c) {
  tflaccel_status status = require_io(c, 1, 1);
  if (status) return status;
  if (c->op->code == TFLACCEL_OP_LSTM && c->op->params.lstm.kernel_type == 1)
    return infer_basic_lstm(c);
  if (c->op->input_count < 20) return NULL; /* checked by the kernels */
  const model_shape *input = known_input(c, 0), *recurrent = known_input(c, 8);
  if (input == NULL || recurrent == NULL) return NULL;
  if (input->rank < 2)
    return op_error(c, "input has rank %u, expected at least 2", input->rank);
  if ((status = require_rank(c, recurrent, "recurrent_to_output_weights", 2))) return status;
  dims expected;
  copy_dims(&expected, input);
  expected.d[input->rank - 1] = recurrent->dims[1];
  return expect_output(c, 0, &expected, "the input and recurrent_to_output_weights");
}

/* SVDF: input [B, I], weights_feature [F, I]; output [B, F / rank]. */
static tflaccel_status infer_svdf(shape_context *c) {
  const tflaccel_svdf_params *p = &c->op->params.svdf;
  tflaccel_status status = require_io(c, 3, 1);
  if (status == NULL) status = check_activation(c, p->fused_activation);
  if (status) return status;
  const model_shape *input = known_input(c, 0), *feature = known_input(c, 1);
  if (input == NULL || feature == NULL) return NULL;
  if ((status = require_rank(c, input, "input", 2)) ||
      (status = require_rank(c, feature, "weights_feature", 2)))
    return status;
  if (p->rank <= 0 || feature->dims[0] % p->rank != 0)
    return op_error(c, "%d filters are not a multiple of rank %d", feature->dims[0], p->rank);
  if (feature->dims[1] != input->dims[1])
    return op_error(c, "weights_feature has %d columns, the input %d", feature->dims[1],
                    input->dims[1]);
  dims expected = {2, {input->dims[0], feature->dims[0] / p->rank}};
  return expect_output(c, 0, &expected, "the input, weights_feature and rank");
}

/* ---- Shape manipulation -------------------------------------------------- */

static tflaccel_status infer_concatenation(shape_context *c) {
  const tflaccel_concatenation_params *p = &c->op->params.concatenation;
  tflaccel_status status = require_io(c, 1, 1);
  if (status == NULL) status = check_activation(c, p->fused_activation);
  if (status) return status;
  const model_shape *first = known_input(c, 0);
  if (first == NULL) return NULL;
  for (uint32_t i = 1; i < c->op->input_count; ++i)
    if (known_input(c, i) == NULL) return NULL;
  int32_t axis = axis_normalize(p->axis, first->rank);
  if (axis < 0) return op_error(c, "axis %d is outside the rank-%u inputs", p->axis, first->rank);
  dims expected;
  copy_dims(&expected, first);
  int64_t total = 0;
  for (uint32_t i = 0; i < c->op->input_count; ++i) {
    const model_shape *input = known_input(c, i);
    int same = input->rank == first->rank;
    for (uint32_t k = 0; same && k < first->rank; ++k)
      if ((int32_t)k != axis && input->dims[k] != first->dims[k]) same = 0;
    if (!same) {
      char t0[160], ti[160];
      return op_error(c, "input %u has shape %s, which does not concatenate with %s on axis %d",
                      i, shape_text(ti, sizeof ti, input->rank, input->dims),
                      shape_text(t0, sizeof t0, first->rank, first->dims), axis);
    }
    total += input->dims[axis];
  }
  if (total > INT32_MAX) return op_error(c, "the concatenated axis is too long");
  expected.d[axis] = (int32_t)total;
  return expect_output(c, 0, &expected, "concatenating the inputs");
}

static tflaccel_status infer_pack(shape_context *c) {
  const tflaccel_pack_params *p = &c->op->params.pack;
  tflaccel_status status = require_io(c, 1, 1);
  if (status) return status;
  if (p->values_count != (int32_t)c->op->input_count)
    return op_error(c, "values_count is %d but the op has %u inputs", p->values_count,
                    c->op->input_count);
  const model_shape *first = known_input(c, 0);
  if (first == NULL || first->rank + 1 > SHAPE_MAX_RANK) return NULL;
  for (uint32_t i = 1; i < c->op->input_count; ++i) {
    const model_shape *input = known_input(c, i);
    if (input == NULL) return NULL;
    if (input->rank != first->rank ||
        (first->rank && memcmp(input->dims, first->dims, first->rank * sizeof(int32_t)) != 0)) {
      char t0[160], ti[160];
      return op_error(c, "input %u has shape %s, input 0 %s: packed values must match", i,
                      shape_text(ti, sizeof ti, input->rank, input->dims),
                      shape_text(t0, sizeof t0, first->rank, first->dims));
    }
  }
  int32_t axis = axis_normalize(p->axis, first->rank + 1);
  if (axis < 0) return op_error(c, "axis %d is outside the rank-%u output", p->axis, first->rank + 1);
  dims expected;
  expected.rank = first->rank + 1;
  for (uint32_t k = 0, from = 0; k < expected.rank; ++k)
    expected.d[k] = (int32_t)k == axis ? (int32_t)c->op->input_count : first->dims[from++];
  return expect_output(c, 0, &expected, "packing the inputs");
}

static tflaccel_status infer_unpack(shape_context *c) {
  const tflaccel_unpack_params *p = &c->op->params.unpack;
  tflaccel_status status = require_io(c, 1, 1);
  if (status) return status;
  const model_shape *input = known_input(c, 0);
  if (input == NULL) return NULL;
  int32_t axis = axis_normalize(p->axis, input->rank);
  if (axis < 0) return op_error(c, "axis %d is outside the rank-%u input", p->axis, input->rank);
  if ((uint32_t)input->dims[axis] != c->op->output_count)
    return op_error(c, "axis %d has %d entries but the op has %u outputs", axis,
                    input->dims[axis], c->op->output_count);
  dims expected;
  expected.rank = input->rank - 1;
  for (uint32_t k = 0, to = 0; k < input->rank; ++k)
    if ((int32_t)k != axis) expected.d[to++] = input->dims[k];
  for (uint32_t k = 0; k < c->op->output_count; ++k) {
    status = expect_output(c, k, &expected, "unpacking the input");
    if (status) return status;
  }
  return NULL;
}

/* PAD, PADV2, MIRROR_PAD: paddings [rank, 2] of (before, after). */
static tflaccel_status infer_pad(shape_context *c) {
  tflaccel_status status = require_io(c, 2, 1);
  if (status) return status;
  const model_shape *input = known_input(c, 0);
  int64_t paddings[2 * SHAPE_MAX_RANK];
  uint32_t count;
  if (input == NULL || !constant_ints(c, 1, paddings, 2 * SHAPE_MAX_RANK, &count)) return NULL;
  if (count != 2 * input->rank)
    return op_error(c, "paddings has %u values, expected %u for a rank-%u input", count,
                    2 * input->rank, input->rank);
  dims expected;
  copy_dims(&expected, input);
  for (uint32_t k = 0; k < input->rank; ++k) {
    if (paddings[2 * k] < 0 || paddings[2 * k + 1] < 0)
      return op_error(c, "paddings of axis %u are negative (%lld, %lld)", k,
                      (long long)paddings[2 * k], (long long)paddings[2 * k + 1]);
    int64_t size = input->dims[k] + paddings[2 * k] + paddings[2 * k + 1];
    if (size > INT32_MAX) return op_error(c, "padded axis %u is too long", k);
    expected.d[k] = (int32_t)size;
  }
  return expect_output(c, 0, &expected, "the input and its paddings");
}

static tflaccel_status infer_reshape(shape_context *c) {
  const tflaccel_reshape_params *p = &c->op->params.reshape;
  tflaccel_status status = require_io(c, 1, 1);
  if (status) return status;
  const model_shape *input = known_input(c, 0);
  if (input == NULL) return NULL;
  uint64_t elements = element_count(input->rank, input->dims);
  int32_t tensor = c->op->outputs[0];
  const model_shape *output = &c->shapes[tensor];
  if (output->known) {
    uint64_t output_elements = element_count(output->rank, output->dims);
    if (output_elements != elements) {
      char ti[160], to[160];
      return op_error(c, "output %s has %llu elements, the input %s %llu",
                      shape_text(to, sizeof to, output->rank, output->dims),
                      (unsigned long long)output_elements,
                      shape_text(ti, sizeof ti, input->rank, input->dims),
                      (unsigned long long)elements);
    }
    return NULL;
  }
  /* No stored shape: take the shape input, else the new_shape option. */
  int64_t target[SHAPE_MAX_RANK];
  uint32_t count;
  if (!constant_ints(c, 1, target, SHAPE_MAX_RANK, &count)) {
    if (input_index(c, 1) >= 0 || p->new_shape_count < 0) return NULL;
    count = (uint32_t)p->new_shape_count;
    for (uint32_t k = 0; k < count; ++k) target[k] = p->new_shape[k];
  }
  dims expected = {count, {0}};
  int32_t unknown_axis = -1;
  uint64_t known_elements = 1;
  for (uint32_t k = 0; k < count; ++k) {
    if (target[k] == -1 && unknown_axis < 0) {
      unknown_axis = (int32_t)k;
      continue;
    }
    if (target[k] < 0 || target[k] > INT32_MAX)
      return op_error(c, "new shape value %u is %lld", k, (long long)target[k]);
    expected.d[k] = (int32_t)target[k];
    known_elements *= (uint64_t)target[k];
    if (known_elements > (UINT64_C(1) << 62)) return op_error(c, "new shape is too large");
  }
  if (unknown_axis >= 0) {
    if (known_elements == 0 || elements % known_elements != 0 ||
        elements / known_elements > INT32_MAX)
      return op_error(c, "%llu input elements do not fit the new shape",
                      (unsigned long long)elements);
    expected.d[unknown_axis] = (int32_t)(elements / known_elements);
  } else if (known_elements != elements) {
    return op_error(c, "the new shape has %llu elements, the input %llu",
                    (unsigned long long)known_elements, (unsigned long long)elements);
  }
  return expect_output(c, 0, &expected, "the new shape");
}

static tflaccel_status infer_squeeze(shape_context *c) {
  const tflaccel_squeeze_params *p = &c->op->params.squeeze;
  tflaccel_status status = require_io(c, 1, 1);
  if (status) return status;
  const model_shape *input = known_input(c, 0);
  if (input == NULL) return NULL;
  uint8_t squeezed[SHAPE_MAX_RANK] = {0};
  for (int32_t k = 0; k < p->squeeze_dims_count; ++k) {
    int32_t axis = axis_normalize(p->squeeze_dims[k], input->rank);
    if (axis < 0 || input->dims[axis] != 1)
      return op_error(c, "squeeze dimension %d is not an axis of size 1", p->squeeze_dims[k]);
    squeezed[axis] = 1;
  }
  dims expected = {0, {0}};
  for (uint32_t k = 0; k < input->rank; ++k) {
    int drop = p->squeeze_dims_count ? squeezed[k] : input->dims[k] == 1;
    if (!drop) expected.d[expected.rank++] = input->dims[k];
  }
  return expect_output(c, 0, &expected, "squeezing the input");
}

static tflaccel_status infer_expand_dims(shape_context *c) {
  tflaccel_status status = require_io(c, 2, 1);
  if (status) return status;
  const model_shape *input = known_input(c, 0);
  int64_t axis_value;
  uint32_t count;
  if (input == NULL || input->rank + 1 > SHAPE_MAX_RANK || !constant_ints(c, 1, &axis_value, 1, &count) ||
      count != 1)
    return NULL;
  int32_t axis = axis_normalize(axis_value, input->rank + 1);
  if (axis < 0) return op_error(c, "axis %lld is outside the rank-%u output", (long long)axis_value,
                                input->rank + 1);
  dims expected = {input->rank + 1, {0}};
  for (uint32_t k = 0, from = 0; k < expected.rank; ++k)
    expected.d[k] = (int32_t)k == axis ? 1 : input->dims[from++];
  return expect_output(c, 0, &expected, "inserting an axis");
}

static tflaccel_status infer_transpose(shape_context *c) {
  tflaccel_status status = require_io(c, 2, 1);
  if (status) return status;
  const model_shape *input = known_input(c, 0);
  int64_t permutation[SHAPE_MAX_RANK];
  uint32_t count;
  if (input == NULL || !constant_ints(c, 1, permutation, SHAPE_MAX_RANK, &count)) return NULL;
  if (count != input->rank)
    return op_error(c, "permutation has %u entries for a rank-%u input", count, input->rank);
  uint8_t seen[SHAPE_MAX_RANK] = {0};
  dims expected = {count, {0}};
  for (uint32_t k = 0; k < count; ++k) {
    int32_t axis = axis_normalize(permutation[k], count);
    if (axis < 0 || seen[axis])
      return op_error(c, "permutation entry %u (%lld) is not a permutation of 0..%u", k,
                      (long long)permutation[k], count - 1);
    seen[axis] = 1;
    expected.d[k] = input->dims[axis];
  }
  return expect_output(c, 0, &expected, "permuting the input");
}

static tflaccel_status infer_depth_to_space(shape_context *c, int to_space) {
  int32_t block = c->op->params.block_size.block_size;
  tflaccel_status status = require_io(c, 1, 1);
  if (status) return status;
  if (block < 1) return op_error(c, "block size %d must be at least 1", block);
  const model_shape *input = known_input(c, 0);
  if (input == NULL) return NULL;
  if ((status = require_rank(c, input, "input", 4))) return status;
  dims expected;
  copy_dims(&expected, input);
  int64_t square = (int64_t)block * block;
  if (to_space) {
    if (input->dims[3] % square != 0)
      return op_error(c, "%d channels are not a multiple of block size %d squared",
                      input->dims[3], block);
    if ((int64_t)input->dims[1] * block > INT32_MAX || (int64_t)input->dims[2] * block > INT32_MAX)
      return op_error(c, "output is too large");
    expected.d[1] = input->dims[1] * block;
    expected.d[2] = input->dims[2] * block;
    expected.d[3] = (int32_t)(input->dims[3] / square);
  } else {
    if (input->dims[1] % block != 0 || input->dims[2] % block != 0)
      return op_error(c, "height %d and width %d must be multiples of block size %d",
                      input->dims[1], input->dims[2], block);
    if (input->dims[3] * square > INT32_MAX) return op_error(c, "output is too large");
    expected.d[1] = input->dims[1] / block;
    expected.d[2] = input->dims[2] / block;
    expected.d[3] = (int32_t)(input->dims[3] * square);
  }
  return expect_output(c, 0, &expected, "the input and block size");
}

static tflaccel_status infer_resize(shape_context *c) {
  tflaccel_status status = require_io(c, 2, 1);
  if (status) return status;
  const model_shape *input = known_input(c, 0);
  if (input == NULL) return NULL;
  if ((status = require_rank(c, input, "input", 4))) return status;
  int64_t size[2];
  uint32_t count;
  if (!constant_ints(c, 1, size, 2, &count)) return NULL;
  if (count != 2) return op_error(c, "size has %u values, expected 2 (height, width)", count);
  if (size[0] <= 0 || size[1] <= 0 || size[0] > INT32_MAX || size[1] > INT32_MAX)
    return op_error(c, "size %lldx%lld is not valid", (long long)size[0], (long long)size[1]);
  dims expected = {4, {input->dims[0], (int32_t)size[0], (int32_t)size[1], input->dims[3]}};
  return expect_output(c, 0, &expected, "the input and size");
}

/* STRIDED_SLICE without ellipsis, new axes or offset ends: per axis, the
 * begin and end (after masks, negative wrap and clamping) and the stride
 * give ceil((end - begin) / stride) elements; shrunk axes disappear. */
static tflaccel_status infer_strided_slice(shape_context *c) {
  const tflaccel_strided_slice_params *p = &c->op->params.strided_slice;
  tflaccel_status status = require_io(c, 4, 1);
  if (status) return status;
  const model_shape *input = known_input(c, 0);
  if (input == NULL || p->ellipsis_mask || p->new_axis_mask || p->offset) return NULL;
  int64_t begin[SHAPE_MAX_RANK], end[SHAPE_MAX_RANK], strides[SHAPE_MAX_RANK];
  uint32_t begin_count, end_count, stride_count;
  if (!constant_ints(c, 1, begin, SHAPE_MAX_RANK, &begin_count) ||
      !constant_ints(c, 2, end, SHAPE_MAX_RANK, &end_count) ||
      !constant_ints(c, 3, strides, SHAPE_MAX_RANK, &stride_count))
    return NULL;
  if (begin_count != input->rank || end_count != input->rank || stride_count != input->rank)
    return NULL;
  dims expected = {0, {0}};
  for (uint32_t k = 0; k < input->rank; ++k) {
    int64_t dim = input->dims[k], stride = strides[k];
    if (stride == 0) return op_error(c, "stride of axis %u is 0", k);
    int64_t low = stride > 0 ? 0 : -1, high = stride > 0 ? dim : dim - 1;
    int64_t first = begin[k];
    if (p->begin_mask & (1 << k)) first = stride > 0 ? 0 : dim - 1;
    else if (first < 0) first += dim;
    first = first < low ? low : first > high ? high : first;
    if (p->shrink_axis_mask & (1 << k)) continue;
    int64_t last = end[k];
    if (p->end_mask & (1 << k)) last = stride > 0 ? dim : -1;
    else if (last < 0) last += dim;
    last = last < low ? low : last > high ? high : last;
    int64_t size = stride > 0 ? (last - first + stride - 1) / stride
                              : (first - last + (-stride) - 1) / (-stride);
    expected.d[expected.rank++] = size < 0 ? 0 : (int32_t)size;
  }
  return expect_output(c, 0, &expected, "slicing the input");
}

/* MEAN, SUM, REDUCE_*: the axes input lists the reduced axes. */
static tflaccel_status infer_reduce(shape_context *c) {
  tflaccel_status status = require_io(c, 2, 1);
  if (status) return status;
  const model_shape *input = known_input(c, 0);
  int64_t axes[SHAPE_MAX_RANK * 2];
  uint32_t count;
  if (input == NULL || !constant_ints(c, 1, axes, SHAPE_MAX_RANK * 2, &count)) return NULL;
  uint8_t reduced[SHAPE_MAX_RANK] = {0};
  for (uint32_t k = 0; k < count; ++k) {
    int32_t axis = axis_normalize(axes[k], input->rank);
    if (axis < 0)
      return op_error(c, "axis %lld is outside the rank-%u input", (long long)axes[k], input->rank);
    reduced[axis] = 1;
  }
  dims expected = {0, {0}};
  for (uint32_t k = 0; k < input->rank; ++k) {
    if (!reduced[k]) expected.d[expected.rank++] = input->dims[k];
    else if (c->op->params.reducer.keep_dims) expected.d[expected.rank++] = 1;
  }
  return expect_output(c, 0, &expected, "reducing the input");
}

/* ARG_MAX, ARG_MIN: the axis input is removed. */
static tflaccel_status infer_arg(shape_context *c) {
  tflaccel_status status = require_io(c, 2, 1);
  if (status) return status;
  const model_shape *input = known_input(c, 0);
  int64_t axis_value;
  uint32_t count;
  if (input == NULL || !constant_ints(c, 1, &axis_value, 1, &count) || count != 1) return NULL;
  int32_t axis = axis_normalize(axis_value, input->rank);
  if (axis < 0)
    return op_error(c, "axis %lld is outside the rank-%u input", (long long)axis_value, input->rank);
  dims expected = {0, {0}};
  for (uint32_t k = 0; k < input->rank; ++k)
    if ((int32_t)k != axis) expected.d[expected.rank++] = input->dims[k];
  return expect_output(c, 0, &expected, "removing the reduced axis");
}

/* GATHER: params[:axis] + indices[batch_dims:] + params[axis + 1:]. */
static tflaccel_status infer_gather(shape_context *c) {
  const tflaccel_gather_params *p = &c->op->params.gather;
  tflaccel_status status = require_io(c, 2, 1);
  if (status) return status;
  const model_shape *params = known_input(c, 0), *indices = known_input(c, 1);
  if (params == NULL || indices == NULL) return NULL;
  int32_t axis = axis_normalize(p->axis, params->rank);
  if (axis < 0) return op_error(c, "axis %d is outside the rank-%u params", p->axis, params->rank);
  int32_t batch_dims = p->batch_dims < 0 ? p->batch_dims + (int32_t)indices->rank : p->batch_dims;
  if (batch_dims < 0 || batch_dims > axis || (uint32_t)batch_dims > indices->rank)
    return op_error(c, "batch_dims %d does not fit axis %d and rank-%u indices", p->batch_dims,
                    axis, indices->rank);
  uint64_t rank = (uint64_t)params->rank - 1 + indices->rank - (uint32_t)batch_dims;
  if (rank > SHAPE_MAX_RANK) return NULL;
  dims expected = {0, {0}};
  for (int32_t k = 0; k < axis; ++k) expected.d[expected.rank++] = params->dims[k];
  for (uint32_t k = (uint32_t)batch_dims; k < indices->rank; ++k)
    expected.d[expected.rank++] = indices->dims[k];
  for (uint32_t k = (uint32_t)axis + 1; k < params->rank; ++k)
    expected.d[expected.rank++] = params->dims[k];
  return expect_output(c, 0, &expected, "gathering from params");
}

/* GATHER_ND: indices[:-1] + params[indices[-1]:]. */
static tflaccel_status infer_gather_nd(shape_context *c) {
  tflaccel_status status = require_io(c, 2, 1);
  if (status) return status;
  const model_shape *params = known_input(c, 0), *indices = known_input(c, 1);
  if (params == NULL || indices == NULL) return NULL;
  if (indices->rank < 1) return op_error(c, "indices must have rank 1 or more");
  int32_t depth = indices->dims[indices->rank - 1];
  if (depth < 0 || (uint32_t)depth > params->rank)
    return op_error(c, "index depth %d exceeds the rank-%u params", depth, params->rank);
  if (indices->rank - 1 + params->rank - (uint32_t)depth > SHAPE_MAX_RANK) return NULL;
  dims expected = {0, {0}};
  for (uint32_t k = 0; k + 1 < indices->rank; ++k) expected.d[expected.rank++] = indices->dims[k];
  for (uint32_t k = (uint32_t)depth; k < params->rank; ++k)
    expected.d[expected.rank++] = params->dims[k];
  return expect_output(c, 0, &expected, "gathering from params");
}

/* SPLIT: inputs axis, value; num_splits equal parts. */
static tflaccel_status infer_split(shape_context *c) {
  int32_t splits = c->op->params.split.num_splits;
  tflaccel_status status = require_io(c, 2, 1);
  if (status) return status;
  if (splits < 1 || (uint32_t)splits != c->op->output_count)
    return op_error(c, "num_splits is %d but the op has %u outputs", splits, c->op->output_count);
  const model_shape *input = known_input(c, 1);
  int64_t axis_value;
  uint32_t count;
  if (input == NULL || !constant_ints(c, 0, &axis_value, 1, &count) || count != 1) return NULL;
  int32_t axis = axis_normalize(axis_value, input->rank);
  if (axis < 0)
    return op_error(c, "axis %lld is outside the rank-%u input", (long long)axis_value, input->rank);
  if (input->dims[axis] % splits != 0)
    return op_error(c, "axis %d of size %d does not split into %d", axis, input->dims[axis], splits);
  dims expected;
  copy_dims(&expected, input);
  expected.d[axis] = input->dims[axis] / splits;
  for (uint32_t k = 0; k < c->op->output_count; ++k) {
    status = expect_output(c, k, &expected, "splitting the input");
    if (status) return status;
  }
  return NULL;
}

/* PosenetDecoderOp: the converter stores no output shapes; they follow
 * from max_detections. Options that do not parse leave the shapes as
 * stored (the kernels then decline the op, naming it). */
static tflaccel_status infer_posenet_decoder(shape_context *c) {
  posenet_decoder_options options;
  if (c->op->output_count != POSENET_OUTPUTS ||
      !posenet_decoder_options_parse(c->op->custom_options, c->op->custom_options_size, &options))
    return NULL;
  for (uint32_t k = 0; k < POSENET_OUTPUTS; ++k) {
    if (c->op->outputs[k] < 0) continue;
    dims expected;
    expected.rank = posenet_decoder_output_shape(&options, k, expected.d);
    tflaccel_status status = expect_output(c, k, &expected, "max_detections");
    if (status) return status;
  }
  return NULL;
}

static tflaccel_status infer_op(shape_context *c) {
  const model_op *op = c->op;
  if (op->code == TFLACCEL_OP_CUSTOM) {
    if (op->custom_code && strcmp(op->custom_code, CUSTOM_CODE_TRANSPOSE_CONV_BIAS) == 0)
      return infer_transpose_conv_bias(c);
    if (op->custom_code && strcmp(op->custom_code, POSENET_DECODER_CUSTOM_CODE) == 0)
      return infer_posenet_decoder(c);
    return NULL;
  }
  switch (op->code) {
  case TFLACCEL_OP_ADD: case TFLACCEL_OP_SUB: case TFLACCEL_OP_MUL: case TFLACCEL_OP_DIV: {
    tflaccel_status status = check_activation(c, op->params.arithmetic.fused_activation);
    return status ? status : infer_broadcast(c);
  }
  case TFLACCEL_OP_FLOOR_DIV: case TFLACCEL_OP_FLOOR_MOD: case TFLACCEL_OP_MAXIMUM:
  case TFLACCEL_OP_MINIMUM: case TFLACCEL_OP_LOGICAL_AND: case TFLACCEL_OP_LOGICAL_OR:
  case TFLACCEL_OP_POW: case TFLACCEL_OP_SQUARED_DIFFERENCE: case TFLACCEL_OP_LESS:
  case TFLACCEL_OP_LESS_EQUAL: case TFLACCEL_OP_GREATER: case TFLACCEL_OP_GREATER_EQUAL:
  case TFLACCEL_OP_EQUAL: case TFLACCEL_OP_NOT_EQUAL: case TFLACCEL_OP_PRELU:
    return infer_broadcast(c);
  case TFLACCEL_OP_CAST: case TFLACCEL_OP_DEQUANTIZE: case TFLACCEL_OP_QUANTIZE:
  case TFLACCEL_OP_DENSIFY: case TFLACCEL_OP_EXP: case TFLACCEL_OP_SQRT: case TFLACCEL_OP_RSQRT:
  case TFLACCEL_OP_HARD_SWISH: case TFLACCEL_OP_LOGISTIC: case TFLACCEL_OP_RELU:
  case TFLACCEL_OP_RELU6: case TFLACCEL_OP_RELU_N1_TO_1: case TFLACCEL_OP_RELU_0_TO_1:
  case TFLACCEL_OP_TANH: case TFLACCEL_OP_SOFTMAX: case TFLACCEL_OP_LOG_SOFTMAX:
  case TFLACCEL_OP_LEAKY_RELU: case TFLACCEL_OP_ELU: case TFLACCEL_OP_GELU: case TFLACCEL_OP_NEG:
  case TFLACCEL_OP_ABS: case TFLACCEL_OP_FLOOR: case TFLACCEL_OP_CEIL: case TFLACCEL_OP_ROUND:
  case TFLACCEL_OP_SIN: case TFLACCEL_OP_COS: case TFLACCEL_OP_LOG: case TFLACCEL_OP_SQUARE:
  case TFLACCEL_OP_SIGN: case TFLACCEL_OP_LOGICAL_NOT: case TFLACCEL_OP_ZEROS_LIKE:
  case TFLACCEL_OP_L2_NORMALIZATION: case TFLACCEL_OP_LOCAL_RESPONSE_NORMALIZATION:
    return infer_same_shape(c);
  case TFLACCEL_OP_CONV_2D: return infer_conv_2d(c);
  case TFLACCEL_OP_DEPTHWISE_CONV_2D: return infer_depthwise_conv_2d(c);
  case TFLACCEL_OP_AVERAGE_POOL_2D: case TFLACCEL_OP_MAX_POOL_2D: case TFLACCEL_OP_L2_POOL_2D:
    return infer_pool_2d(c);
  case TFLACCEL_OP_TRANSPOSE_CONV: return infer_transpose_conv(c);
  case TFLACCEL_OP_FULLY_CONNECTED: return infer_fully_connected(c);
  case TFLACCEL_OP_LSTM: case TFLACCEL_OP_UNIDIRECTIONAL_SEQUENCE_LSTM: return infer_lstm(c);
  case TFLACCEL_OP_SVDF: return infer_svdf(c);
  case TFLACCEL_OP_CONCATENATION: return infer_concatenation(c);
  case TFLACCEL_OP_PACK: return infer_pack(c);
  case TFLACCEL_OP_UNPACK: return infer_unpack(c);
  case TFLACCEL_OP_PAD: case TFLACCEL_OP_PADV2: case TFLACCEL_OP_MIRROR_PAD: return infer_pad(c);
  case TFLACCEL_OP_RESHAPE: return infer_reshape(c);
  case TFLACCEL_OP_SQUEEZE: return infer_squeeze(c);
  case TFLACCEL_OP_EXPAND_DIMS: return infer_expand_dims(c);
  case TFLACCEL_OP_TRANSPOSE: return infer_transpose(c);
  case TFLACCEL_OP_DEPTH_TO_SPACE: return infer_depth_to_space(c, 1);
  case TFLACCEL_OP_SPACE_TO_DEPTH: return infer_depth_to_space(c, 0);
  case TFLACCEL_OP_RESIZE_BILINEAR: case TFLACCEL_OP_RESIZE_NEAREST_NEIGHBOR:
    return infer_resize(c);
  case TFLACCEL_OP_STRIDED_SLICE: return infer_strided_slice(c);
  case TFLACCEL_OP_MEAN: case TFLACCEL_OP_SUM: case TFLACCEL_OP_REDUCE_MAX:
  case TFLACCEL_OP_REDUCE_MIN: case TFLACCEL_OP_REDUCE_PROD: case TFLACCEL_OP_REDUCE_ANY:
    return infer_reduce(c);
  case TFLACCEL_OP_ARG_MAX: case TFLACCEL_OP_ARG_MIN: return infer_arg(c);
  case TFLACCEL_OP_GATHER: return infer_gather(c);
  case TFLACCEL_OP_GATHER_ND: return infer_gather_nd(c);
  case TFLACCEL_OP_SPLIT: return infer_split(c);
  default: return NULL;
  }
}

/* Whether shape inference may trust a stored shape: [] means "unknown" for
 * a tensor that is neither constant nor marked has_rank, and so does a
 * dynamic (-1) dimension. */
static int stored_shape_known(const model_tensor *tensor) {
  if (tensor->rank == 0 && !tensor->has_rank && tensor->data == NULL) return 0;
  for (uint32_t i = 0; i < tensor->rank; ++i)
    if (tensor->shape[i] < 0) return 0;
  return 1;
}

tflaccel_status shape_inference_run(tflaccel_model *model) {
  const model_subgraph *subgraph = &model->stored.subgraphs[0];
  model->shapes = pool_alloc_array(&model->pool, subgraph->tensor_count ? subgraph->tensor_count : 1,
                                   sizeof *model->shapes);
  if (model->shapes == NULL)
    return tflaccel_status_make(TFLACCEL_OUT_OF_MEMORY, "out of memory inferring shapes");
  for (uint32_t t = 0; t < subgraph->tensor_count; ++t) {
    const model_tensor *tensor = &subgraph->tensors[t];
    model->shapes[t].rank = tensor->rank;
    model->shapes[t].dims = tensor->shape;
    model->shapes[t].known = stored_shape_known(tensor);
  }
  shape_context context = {.model = model, .subgraph = subgraph, .shapes = model->shapes};
  for (uint32_t o = 0; o < subgraph->op_count; ++o) {
    context.op_index = o;
    context.op = &subgraph->ops[o];
    tflaccel_status status = infer_op(&context);
    if (status) return status;
  }
  return NULL;
}
