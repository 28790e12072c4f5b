/* Transposed convolution, float32 NHWC, weights [O, KH, KW, I]:
 *  - TRANSPOSE_CONV: inputs output_shape, weights, input, optional bias;
 *    padding as TFLite computes it from the output size;
 *  - the MediaPipe custom op Convolution2DTransposeBias: inputs input,
 *    weights, bias; SAME pads max(0, K - (in - 1) % stride - 1) in total.
 * Output shapes come from the output tensor. Each output element gathers the
 * input pixels whose taps land on it, so rows split over threads without
 * write conflicts; weights are repacked to [KH][KW][I][O] once. */
#include "config.h"

#include <string.h>

#include "core/facts/conv_geometry.h"
#include "plugins/cpu_ref/kernels/generic/generic_kernels.h"
#include "plugins/cpu_ref/kernels/kernel_util.h"

typedef struct tconv_inputs {
  uint32_t weights, input, bias; /* op input positions; bias may be absent */
} tconv_inputs;

static int is_custom(const tflaccel_op_desc *op) { return op->code == TFLACCEL_OP_CUSTOM; }

static tconv_inputs tconv_inputs_of(const tflaccel_op_desc *op) {
  tconv_inputs positions;
  if (is_custom(op)) {
    positions.input = 0;
    positions.weights = 1;
    positions.bias = 2;
  } else {
    positions.weights = 1;
    positions.input = 2;
    positions.bias = 3;
  }
  return positions;
}

typedef struct tconv_shape {
  int32_t batches, in_h, in_w, in_c, out_h, out_w, out_c, filter_h, filter_w;
  int32_t stride_h, stride_w, pad_h, pad_w;
} tconv_shape;

static void tconv_params(const tflaccel_op_desc *op, int32_t *padding, int32_t *stride_h,
                         int32_t *stride_w, int32_t *activation) {
  if (is_custom(op)) {
    *padding = op->params->transpose_conv_bias.padding;
    *stride_h = op->params->transpose_conv_bias.stride_h;
    *stride_w = op->params->transpose_conv_bias.stride_w;
    *activation = TFLACCEL_ACT_NONE;
  } else {
    *padding = op->params->transpose_conv.padding;
    *stride_h = op->params->transpose_conv.stride_h;
    *stride_w = op->params->transpose_conv.stride_w;
    *activation = op->params->transpose_conv.fused_activation;
  }
}

static void tconv_shape_of(const tflaccel_graph_view *graph, const tflaccel_op_desc *op,
                           tconv_shape *shape) {
  tconv_inputs positions = tconv_inputs_of(op);
  const tflaccel_tensor_desc *input = cpu_op_input(graph, op, positions.input);
  const tflaccel_tensor_desc *weights = cpu_op_input(graph, op, positions.weights);
  const tflaccel_tensor_desc *output = cpu_op_output(graph, op, 0);
  int32_t padding, activation;
  tconv_params(op, &padding, &shape->stride_h, &shape->stride_w, &activation);
  shape->batches = input->dims[0];
  shape->in_h = input->dims[1];
  shape->in_w = input->dims[2];
  shape->in_c = input->dims[3];
  shape->out_h = output->dims[1];
  shape->out_w = output->dims[2];
  shape->out_c = output->dims[3];
  shape->filter_h = weights->dims[1];
  shape->filter_w = weights->dims[2];
  if (is_custom(op)) {
    shape->pad_h = transpose_conv_bias_total_padding(padding, shape->in_h, shape->filter_h,
                                                     shape->stride_h) / 2;
    shape->pad_w = transpose_conv_bias_total_padding(padding, shape->in_w, shape->filter_w,
                                                     shape->stride_w) / 2;
  } else {
    shape->pad_h =
        transpose_conv_padding_before(padding, shape->out_h, shape->filter_h, shape->stride_h);
    shape->pad_w =
        transpose_conv_padding_before(padding, shape->out_w, shape->filter_w, shape->stride_w);
  }
}

static int tconv_check(const tflaccel_graph_view *graph, const tflaccel_op_desc *op,
                       char *reason) {
  const char *name = cpu_op_name(op);
  if (is_custom(op)) {
    if (!cpu_check_arity(graph, op, 3, 3, 1, reason)) return 0;
  } else if (!cpu_check_arity(graph, op, 3, 4, 1, reason)) {
    return 0;
  }
  tconv_inputs positions = tconv_inputs_of(op);
  const tflaccel_tensor_desc *input = cpu_op_input(graph, op, positions.input);
  const tflaccel_tensor_desc *weights = cpu_op_input(graph, op, positions.weights);
  const tflaccel_tensor_desc *bias = cpu_op_input(graph, op, positions.bias);
  const tflaccel_tensor_desc *output = cpu_op_output(graph, op, 0);
  if (!cpu_check_dtype(input, TFLACCEL_DTYPE_FLOAT32, "input", reason) ||
      !cpu_check_dtype(weights, TFLACCEL_DTYPE_FLOAT32, "weights", reason) ||
      !cpu_check_dtype(output, TFLACCEL_DTYPE_FLOAT32, "output", reason) ||
      !cpu_check_rank(input, 4, "input", reason) || !cpu_check_rank(weights, 4, "weights", reason) ||
      !cpu_check_rank(output, 4, "output", reason))
    return 0;
  if (!cpu_is_constant(weights))
    return cpu_reason(reason, "%s: the weights must be a constant tensor", name);
  int32_t padding, stride_h, stride_w, activation;
  tconv_params(op, &padding, &stride_h, &stride_w, &activation);
  if (stride_h < 1 || stride_w < 1)
    return cpu_reason(reason, "%s: strides must be positive", name);
  if (padding != TFLACCEL_PADDING_SAME && padding != TFLACCEL_PADDING_VALID)
    return cpu_reason(reason, "%s: unknown padding %d", name, padding);
  if (!cpu_check_activation(activation, reason)) return 0;
  if (weights->dims[3] != input->dims[3])
    return cpu_reason(reason, "%s: weights take %d channels, the input has %d", name,
                      weights->dims[3], input->dims[3]);
  if (output->dims[0] != input->dims[0] || output->dims[3] != weights->dims[0])
    return cpu_reason(reason, "%s: output [%d,_,_,%d] does not match batch %d and %d filters",
                      name, output->dims[0], output->dims[3], input->dims[0], weights->dims[0]);
  if (bias != NULL) {
    if (!cpu_check_dtype(bias, TFLACCEL_DTYPE_FLOAT32, "bias", reason)) return 0;
    if (cpu_element_count(bias) != weights->dims[0])
      return cpu_reason(reason, "%s: bias has %lld elements for %d filters", name,
                        (long long)cpu_element_count(bias), weights->dims[0]);
  }
  if (is_custom(op)) {
    int32_t expected_h =
        transpose_conv_bias_output_size(padding, input->dims[1], weights->dims[1], stride_h);
    int32_t expected_w =
        transpose_conv_bias_output_size(padding, input->dims[2], weights->dims[2], stride_w);
    if (output->dims[1] != expected_h || output->dims[2] != expected_w)
      return cpu_reason(reason, "%s: output is %dx%d, the op makes %dx%d", name, output->dims[1],
                        output->dims[2], expected_h, expected_w);
  } else {
    const tflaccel_tensor_desc *shape = cpu_op_input(graph, op, 0);
    if (!cpu_check_dtype(shape, TFLACCEL_DTYPE_INT32, "output_shape", reason)) return 0;
    if (cpu_element_count(shape) != 4)
      return cpu_reason(reason, "%s: output_shape has %lld elements, expected 4", name,
                        (long long)cpu_element_count(shape));
    if (cpu_is_constant(shape)) {
      const int32_t *values = shape->data;
      for (int i = 0; i < 4; i++)
        if (values[i] != output->dims[i])
          return cpu_reason(reason, "%s: output_shape dim %d is %d, the output tensor's %d", name,
                            i, values[i], output->dims[i]);
    }
  }
  return 1;
}

typedef struct tconv_data {
  float *packed; /* [KH][KW][I][O] */
} tconv_data;

static tflaccel_status tconv_prepare(const cpu_op_context *context, void **op_data) {
  const tflaccel_host_services *host = context->host;
  tconv_shape shape;
  tconv_shape_of(context->graph, context->op, &shape);
  const float *weights = cpu_input_data(context, tconv_inputs_of(context->op).weights);
  size_t count = (size_t)shape.out_c * shape.filter_h * shape.filter_w * shape.in_c;
  tconv_data *data = host->alloc(host->context, sizeof *data, 0);
  if (data == NULL) return CPU_STATUS(context, TFLACCEL_OUT_OF_MEMORY, "no memory for weights");
  data->packed = host->alloc(host->context, sizeof(float) * (count > 0 ? count : 1), 64);
  if (data->packed == NULL) {
    host->free(host->context, data);
    return CPU_STATUS(context, TFLACCEL_OUT_OF_MEMORY, "no memory for weights");
  }
  for (int32_t o = 0; o < shape.out_c; o++)
    for (int32_t ky = 0; ky < shape.filter_h; ky++)
      for (int32_t kx = 0; kx < shape.filter_w; kx++)
        for (int32_t i = 0; i < shape.in_c; i++) {
          size_t from = (((size_t)o * shape.filter_h + ky) * shape.filter_w + kx) * shape.in_c + i;
          size_t to = (((size_t)ky * shape.filter_w + kx) * shape.in_c + i) * shape.out_c + o;
          data->packed[to] = weights[from];
        }
  *op_data = data;
  return NULL;
}

static void tconv_release(const tflaccel_host_services *host, void *op_data) {
  tconv_data *data = op_data;
  host->free(host->context, data->packed);
  host->free(host->context, data);
}

typedef struct tconv_job {
  tconv_shape shape;
  const float *input, *packed, *bias;
  float *output;
  float low, high;
} tconv_job;

/* The input index whose tap `k` lands on output `out`, or -1. */
static inline int32_t source_index(int32_t out, int32_t pad, int32_t k, int32_t stride,
                                   int32_t in_size) {
  int32_t t = out + pad - k;
  if (t < 0 || t % stride != 0) return -1;
  t /= stride;
  return t < in_size ? t : -1;
}

static void tconv_rows(void *argument, int64_t begin, int64_t end) {
  const tconv_job *job = argument;
  const tconv_shape *s = &job->shape;
  int32_t out_c = s->out_c, in_c = s->in_c;
  for (int64_t row = begin; row < end; row++) {
    int64_t batch = row / s->out_h;
    int32_t out_y = (int32_t)(row % s->out_h);
    const float *image = job->input + batch * s->in_h * s->in_w * in_c;
    for (int32_t out_x = 0; out_x < s->out_w; out_x++) {
      float *out = job->output + (row * s->out_w + out_x) * out_c;
      if (job->bias != NULL)
        memcpy(out, job->bias, sizeof(float) * (size_t)out_c);
      else
        memset(out, 0, sizeof(float) * (size_t)out_c);
      for (int32_t ky = 0; ky < s->filter_h; ky++) {
        int32_t in_y = source_index(out_y, s->pad_h, ky, s->stride_h, s->in_h);
        if (in_y < 0) continue;
        for (int32_t kx = 0; kx < s->filter_w; kx++) {
          int32_t in_x = source_index(out_x, s->pad_w, kx, s->stride_w, s->in_w);
          if (in_x < 0) continue;
          const float *in = image + ((int64_t)in_y * s->in_w + in_x) * in_c;
          const float *weights =
              job->packed + ((size_t)ky * s->filter_w + kx) * (size_t)in_c * out_c;
          for (int32_t i = 0; i < in_c; i++) cpu_axpy(out, weights + (size_t)i * out_c, in[i], out_c);
        }
      }
      for (int32_t o = 0; o < out_c; o++) out[o] = cpu_clamp(out[o], job->low, job->high);
    }
  }
}

static tflaccel_status tconv_eval(const cpu_op_context *context) {
  const tconv_data *data = context->op_data;
  tconv_inputs positions = tconv_inputs_of(context->op);
  tconv_job job;
  tconv_shape_of(context->graph, context->op, &job.shape);
  job.input = cpu_input_data(context, positions.input);
  job.packed = data->packed;
  job.bias = cpu_input_data(context, positions.bias);
  job.output = cpu_output_data(context, 0);
  int32_t padding, stride_h, stride_w, activation;
  tconv_params(context->op, &padding, &stride_h, &stride_w, &activation);
  cpu_activation_range(activation, &job.low, &job.high);
  cpu_parallel_for(context->pool, (int64_t)job.shape.batches * job.shape.out_h, 1, tconv_rows,
                   &job);
  return NULL;
}

const cpu_kernel cpu_kernel_transpose_conv = {
    .op_code = TFLACCEL_OP_TRANSPOSE_CONV,
    .check = tconv_check,
    .prepare = tconv_prepare,
    .release = tconv_release,
    .eval = tconv_eval,
};

const cpu_kernel cpu_kernel_transpose_conv_bias = {
    .op_code = TFLACCEL_OP_CUSTOM,
    .custom_code = "Convolution2DTransposeBias",
    .check = tconv_check,
    .prepare = tconv_prepare,
    .release = tconv_release,
    .eval = tconv_eval,
};
