/* FULLY_CONNECTED on uint8 and int8 tensors (weights [units, depth]), with
 * TFLite's double-rounding requantization per output unit, ties broken as
 * its x86 build does for the dtype (q_gemm_requantizer). */
#include "config.h"

#include "plugins/cpu_ref/kernels/quantized/fixed_point.h"
#include "plugins/cpu_ref/kernels/quantized/quant_common.h"
#include "plugins/cpu_ref/kernels/quantized/quantized_kernels.h"
#include "plugins/cpu_ref/kernels/quantized/weighted_op.h"

typedef struct fc_data {
  /* First member (see q_weighted_op_data_create); weights [units][depth]. */
  q_weighted_op weighted;
  int32_t batches, depth, units;
  q_requantize_fn requantize; /* TFLite's rounding for this dtype */
} fc_data;

static int fc_check(const tflaccel_graph_view *graph, const tflaccel_op_desc *op, char *reason) {
  if (!q_weighted_check_activations(graph, op, reason)) return 0;
  const tflaccel_fully_connected_params *params = &op->params->fully_connected;
  if (params->weights_format != 0)
    return q_reason(reason, "shuffled weights format %d is not supported", params->weights_format);
  const tflaccel_tensor_desc *input = q_input(graph, op, 0);
  const tflaccel_tensor_desc *filter = q_input(graph, op, 1);
  const tflaccel_tensor_desc *output = q_output(graph, op, 0);
  if (filter == NULL || filter->rank != 2) return q_reason(reason, "weights must be 2-D");
  const int32_t units = filter->dims[0], depth = filter->dims[1];
  if (depth <= 0 || q_element_count(input) % depth != 0)
    return q_reason(reason, "input of %lld elements is not a multiple of depth %d",
                    (long long)q_element_count(input), depth);
  const int64_t batches = q_element_count(input) / depth;
  if (q_element_count(output) != batches * units)
    return q_reason(reason, "output has %lld elements, expected %lld",
                    (long long)q_element_count(output), (long long)(batches * units));
  if (!q_weighted_check_operands(graph, op, 0, units, reason)) return 0;
  return q_check_fused_activation(params->fused_activation, reason);
}

static tflaccel_status fc_prepare(const cpu_op_context *context, void **op_data) {
  const tflaccel_tensor_desc *input = q_input(context->graph, context->op, 0);
  const tflaccel_tensor_desc *filter = q_input(context->graph, context->op, 1);
  tflaccel_status status =
      q_weighted_op_data_create(context, sizeof(fc_data), filter->dims[0], op_data);
  if (status != NULL) return status;
  fc_data *data = *op_data;
  data->units = filter->dims[0];
  data->depth = filter->dims[1];
  data->batches = (int32_t)(q_element_count(input) / data->depth);
  data->requantize = q_gemm_requantizer(input->dtype);
  return NULL;
}

/* Output units [begin, end) of every batch row. */
static void fc_units(void *arg, int64_t begin, int64_t end) {
  const q_weighted_run *run = arg;
  const fc_data *d = run->op_data;
  const q_weighted_op *weighted = &d->weighted;
  for (int32_t b = 0; b < d->batches; b++) {
    const int16_t *in = weighted->centred_input + (int64_t)b * d->depth;
    for (int64_t u = begin; u < end; u++) {
      const int16_t *w = weighted->weights + u * d->depth;
      uint32_t sum0 = 0, sum1 = 0; /* wraps like TFLite's int32 accumulator */
      int32_t i = 0;
      for (; i + 2 <= d->depth; i += 2) {
        sum0 += (uint32_t)((int32_t)in[i] * w[i]);
        sum1 += (uint32_t)((int32_t)in[i + 1] * w[i + 1]);
      }
      for (; i < d->depth; i++) sum0 += (uint32_t)((int32_t)in[i] * w[i]);
      const int32_t acc = (int32_t)((uint32_t)weighted->bias[u] + sum0 + sum1);
      q_weighted_store(weighted, run->output, (int64_t)b * d->units + u,
                       d->requantize(acc, weighted->multipliers[u], weighted->shifts[u]));
    }
  }
}

static tflaccel_status fc_eval(const cpu_op_context *context) {
  const fc_data *d = context->op_data;
  return q_weighted_eval(context, d->units, 16, fc_units);
}

const cpu_kernel cpu_quant_fully_connected_kernel = {
    .op_code = TFLACCEL_OP_FULLY_CONNECTED,
    .check = fc_check,
    .prepare = fc_prepare,
    .release = q_weighted_op_data_release,
    .eval = fc_eval,
};
