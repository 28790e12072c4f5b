/* LSTM and UNIDIRECTIONAL_SEQUENCE_LSTM (TFLite's "full" kernel): shape
 * validation shared by both, then the float32 or the integer path. The
 * output and cell states are variable tensors, updated in place. */
#include "config.h"

#include "plugins/cpu_ref/kernels/quantized/lstm_common.h"
#include "plugins/cpu_ref/kernels/quantized/quant_common.h"
#include "plugins/cpu_ref/kernels/quantized/quantized_kernels.h"

typedef struct lstm_op_data {
  int is_integer;
  void *impl;
} lstm_op_data;

static const tflaccel_tensor_desc *slot(const tflaccel_graph_view *graph,
                                        const tflaccel_op_desc *op, uint32_t index) {
  return q_input(graph, op, index);
}

/* A present slot must be [d0] or [d0, d1] (d1 < 0: rank 1). */
static int check_dims(const tflaccel_graph_view *graph, const tflaccel_op_desc *op,
                      uint32_t index, int32_t d0, int32_t d1, char *reason) {
  const tflaccel_tensor_desc *tensor = slot(graph, op, index);
  if (tensor == NULL) return 1;
  const uint32_t rank = d1 < 0 ? 1 : 2;
  if (tensor->rank != rank || tensor->dims[0] != d0 || (rank == 2 && tensor->dims[1] != d1)) {
    if (rank == 1)
      return q_tensor_reason(reason, graph, op->inputs[index], "LSTM input %u must be [%d]", index,
                             d0);
    return q_tensor_reason(reason, graph, op->inputs[index], "LSTM input %u must be [%d, %d]",
                           index, d0, d1);
  }
  return 1;
}

static int required(const tflaccel_graph_view *graph, const tflaccel_op_desc *op, uint32_t index,
                    char *reason) {
  if (slot(graph, op, index) == NULL) return q_reason(reason, "LSTM input %u is missing", index);
  return 1;
}

int lstm_describe(const tflaccel_graph_view *graph, const tflaccel_op_desc *op, lstm_shape *shape,
                  char *reason) {
  const int is_sequence = op->code == TFLACCEL_OP_UNIDIRECTIONAL_SEQUENCE_LSTM;
  if (op->input_count != 20 && op->input_count != 24)
    return q_reason(reason, "expects 20 or 24 inputs, has %u", op->input_count);
  if (op->output_count < 1 || q_output(graph, op, 0) == NULL)
    return q_reason(reason, "output 0 is missing");
  if (is_sequence) {
    const tflaccel_sequence_lstm_params *params = &op->params->sequence_lstm;
    shape->activation = params->fused_activation;
    shape->cell_clip = params->cell_clip;
    shape->proj_clip = params->proj_clip;
    shape->time_major = params->time_major != 0;
  } else {
    const tflaccel_lstm_params *params = &op->params->lstm;
    if (params->kernel_type != 0)
      return q_reason(reason, "the basic LSTM kernel is not supported (full kernel only)");
    shape->activation = params->fused_activation;
    shape->cell_clip = params->cell_clip;
    shape->proj_clip = params->proj_clip;
    shape->time_major = 1;
  }
  if (!(shape->cell_clip >= 0.0f) || !(shape->proj_clip >= 0.0f))
    return q_reason(reason, "clip values must not be negative");
  const uint32_t needed[] = {LSTM_INPUT,
                             LSTM_INPUT_TO_FORGET_WEIGHTS,
                             LSTM_INPUT_TO_CELL_WEIGHTS,
                             LSTM_INPUT_TO_OUTPUT_WEIGHTS,
                             LSTM_RECURRENT_TO_FORGET_WEIGHTS,
                             LSTM_RECURRENT_TO_CELL_WEIGHTS,
                             LSTM_RECURRENT_TO_OUTPUT_WEIGHTS,
                             LSTM_FORGET_GATE_BIAS,
                             LSTM_CELL_GATE_BIAS,
                             LSTM_OUTPUT_GATE_BIAS,
                             LSTM_OUTPUT_STATE,
                             LSTM_CELL_STATE};
  for (size_t i = 0; i < sizeof needed / sizeof needed[0]; i++)
    if (!required(graph, op, needed[i], reason)) return 0;

  const tflaccel_tensor_desc *input = slot(graph, op, LSTM_INPUT);
  if (is_sequence ? (input->rank != 2 && input->rank != 3) : input->rank != 2)
    return q_reason(reason, "input must be %s, is rank %u", is_sequence ? "2-D or 3-D" : "2-D",
                    input->rank);
  shape->n_input = input->dims[input->rank - 1];
  if (input->rank == 2) {
    shape->max_time = 1;
    shape->n_batch = input->dims[0];
  } else {
    shape->max_time = shape->time_major ? input->dims[0] : input->dims[1];
    shape->n_batch = shape->time_major ? input->dims[1] : input->dims[0];
  }
  const tflaccel_tensor_desc *input_to_output = slot(graph, op, LSTM_INPUT_TO_OUTPUT_WEIGHTS);
  const tflaccel_tensor_desc *recurrent_to_output =
      slot(graph, op, LSTM_RECURRENT_TO_OUTPUT_WEIGHTS);
  if (input_to_output->rank != 2 || recurrent_to_output->rank != 2)
    return q_reason(reason, "weights must be 2-D");
  shape->n_cell = input_to_output->dims[0];
  shape->n_output = recurrent_to_output->dims[1];
  const int32_t n_cell = shape->n_cell, n_input = shape->n_input, n_output = shape->n_output;
  if (!check_dims(graph, op, LSTM_INPUT_TO_OUTPUT_WEIGHTS, n_cell, n_input, reason) ||
      !check_dims(graph, op, LSTM_RECURRENT_TO_OUTPUT_WEIGHTS, n_cell, n_output, reason) ||
      !check_dims(graph, op, LSTM_INPUT_TO_INPUT_WEIGHTS, n_cell, n_input, reason) ||
      !check_dims(graph, op, LSTM_INPUT_TO_FORGET_WEIGHTS, n_cell, n_input, reason) ||
      !check_dims(graph, op, LSTM_INPUT_TO_CELL_WEIGHTS, n_cell, n_input, reason) ||
      !check_dims(graph, op, LSTM_RECURRENT_TO_INPUT_WEIGHTS, n_cell, n_output, reason) ||
      !check_dims(graph, op, LSTM_RECURRENT_TO_FORGET_WEIGHTS, n_cell, n_output, reason) ||
      !check_dims(graph, op, LSTM_RECURRENT_TO_CELL_WEIGHTS, n_cell, n_output, reason) ||
      !check_dims(graph, op, LSTM_CELL_TO_INPUT_WEIGHTS, n_cell, -1, reason) ||
      !check_dims(graph, op, LSTM_CELL_TO_FORGET_WEIGHTS, n_cell, -1, reason) ||
      !check_dims(graph, op, LSTM_CELL_TO_OUTPUT_WEIGHTS, n_cell, -1, reason) ||
      !check_dims(graph, op, LSTM_INPUT_GATE_BIAS, n_cell, -1, reason) ||
      !check_dims(graph, op, LSTM_FORGET_GATE_BIAS, n_cell, -1, reason) ||
      !check_dims(graph, op, LSTM_CELL_GATE_BIAS, n_cell, -1, reason) ||
      !check_dims(graph, op, LSTM_OUTPUT_GATE_BIAS, n_cell, -1, reason) ||
      !check_dims(graph, op, LSTM_PROJECTION_WEIGHTS, n_output, n_cell, reason) ||
      !check_dims(graph, op, LSTM_PROJECTION_BIAS, n_output, -1, reason))
    return 0;
  shape->use_cifg = slot(graph, op, LSTM_INPUT_TO_INPUT_WEIGHTS) == NULL;
  if (shape->use_cifg != (slot(graph, op, LSTM_RECURRENT_TO_INPUT_WEIGHTS) == NULL))
    return q_reason(reason, "input-gate weights must be all present or all absent (CIFG)");
  if (shape->use_cifg != (slot(graph, op, LSTM_INPUT_GATE_BIAS) == NULL))
    return q_reason(reason, "the input gate bias must be present exactly when not CIFG");
  const int has_cell_to_input = slot(graph, op, LSTM_CELL_TO_INPUT_WEIGHTS) != NULL;
  const int has_cell_to_forget = slot(graph, op, LSTM_CELL_TO_FORGET_WEIGHTS) != NULL;
  const int has_cell_to_output = slot(graph, op, LSTM_CELL_TO_OUTPUT_WEIGHTS) != NULL;
  shape->use_peephole = has_cell_to_output;
  const int peephole_all = (has_cell_to_input || shape->use_cifg) && has_cell_to_forget &&
                           has_cell_to_output;
  const int peephole_none = !has_cell_to_input && !has_cell_to_forget && !has_cell_to_output;
  if (!peephole_all && !peephole_none)
    return q_reason(reason, "peephole weights must be all present or all absent");
  shape->use_projection = slot(graph, op, LSTM_PROJECTION_WEIGHTS) != NULL;
  if (!shape->use_projection && slot(graph, op, LSTM_PROJECTION_BIAS) != NULL)
    return q_reason(reason, "a projection bias needs projection weights");
  if (!shape->use_projection && n_output != n_cell)
    return q_reason(reason, "without projection the output size %d must equal the cell count %d",
                    n_output, n_cell);
  shape->use_layer_norm = op->input_count == 24 && slot(graph, op, LSTM_FORGET_LAYER_NORM) != NULL;
  if (shape->use_layer_norm) {
    if (shape->use_cifg != (slot(graph, op, LSTM_INPUT_LAYER_NORM) == NULL))
      return q_reason(reason, "the input layer-norm weights must be present exactly when not CIFG");
    if (!required(graph, op, LSTM_CELL_LAYER_NORM, reason) ||
        !required(graph, op, LSTM_OUTPUT_LAYER_NORM, reason) ||
        !check_dims(graph, op, LSTM_INPUT_LAYER_NORM, n_cell, -1, reason) ||
        !check_dims(graph, op, LSTM_FORGET_LAYER_NORM, n_cell, -1, reason) ||
        !check_dims(graph, op, LSTM_CELL_LAYER_NORM, n_cell, -1, reason) ||
        !check_dims(graph, op, LSTM_OUTPUT_LAYER_NORM, n_cell, -1, reason))
      return 0;
  }
  /* Every weight and bias is a constant; the two states are variables. */
  for (uint32_t i = LSTM_INPUT_TO_INPUT_WEIGHTS; i < op->input_count; i++) {
    if (i == LSTM_OUTPUT_STATE || i == LSTM_CELL_STATE || slot(graph, op, i) == NULL) continue;
    if (!q_check_constant(graph, op, i, reason)) return 0;
  }
  const tflaccel_tensor_desc *output_state = slot(graph, op, LSTM_OUTPUT_STATE);
  const tflaccel_tensor_desc *cell_state = slot(graph, op, LSTM_CELL_STATE);
  if (!(output_state->flags & TFLACCEL_TENSOR_VARIABLE))
    return q_tensor_reason(reason, graph, op->inputs[LSTM_OUTPUT_STATE],
                           "the output state must be a variable tensor");
  if (!(cell_state->flags & TFLACCEL_TENSOR_VARIABLE))
    return q_tensor_reason(reason, graph, op->inputs[LSTM_CELL_STATE],
                           "the cell state must be a variable tensor");
  if (q_element_count(output_state) != (int64_t)shape->n_batch * n_output ||
      q_element_count(cell_state) != (int64_t)shape->n_batch * n_cell)
    return q_reason(reason, "state sizes do not match batch %d, output %d, cells %d",
                    shape->n_batch, n_output, n_cell);
  const tflaccel_tensor_desc *output = q_output(graph, op, 0);
  if (output->rank < 1 || output->dims[output->rank - 1] != n_output ||
      q_element_count(output) != (int64_t)shape->n_batch * shape->max_time * n_output)
    return q_reason(reason, "output must hold batch x time x %d values", n_output);
  return 1;
}

static int lstm_check(const tflaccel_graph_view *graph, const tflaccel_op_desc *op, char *reason) {
  if (!q_check_op_quantization(graph, op, reason)) return 0;
  lstm_shape shape = {0};
  if (!lstm_describe(graph, op, &shape, reason)) return 0;
  const tflaccel_tensor_desc *input = q_input(graph, op, LSTM_INPUT);
  if (input->dtype == TFLACCEL_DTYPE_FLOAT32) return lstm_float_check(graph, op, &shape, reason);
  if (input->dtype == TFLACCEL_DTYPE_INT8) return lstm_integer_check(graph, op, &shape, reason);
  return q_reason(reason, "%s input is not supported (float32 or int8)",
                  q_dtype_name(input->dtype));
}

static void lstm_release(const tflaccel_host_services *host, void *op_data) {
  lstm_op_data *data = op_data;
  if (data == NULL) return;
  if (data->is_integer)
    lstm_integer_release(host, data->impl);
  else
    lstm_float_release(host, data->impl);
  q_free(host, data);
}

static tflaccel_status lstm_prepare(const cpu_op_context *context, void **op_data) {
  char reason[TFLACCEL_REASON_SIZE];
  lstm_shape shape = {0};
  if (!lstm_describe(context->graph, context->op, &shape, reason))
    return q_error(context, TFLACCEL_INVALID_MODEL, "%s", reason);
  lstm_op_data *data = q_alloc(context, sizeof *data);
  if (data == NULL) return q_out_of_memory(context, sizeof *data);
  data->is_integer = q_input(context->graph, context->op, LSTM_INPUT)->dtype == TFLACCEL_DTYPE_INT8;
  tflaccel_status status = data->is_integer
                               ? lstm_integer_prepare(context, &shape, &data->impl)
                               : lstm_float_prepare(context, &shape, &data->impl);
  if (status != NULL) {
    q_free(context->host, data);
    return status;
  }
  *op_data = data;
  return NULL;
}

static tflaccel_status lstm_eval(const cpu_op_context *context) {
  const lstm_op_data *data = context->op_data;
  cpu_op_context inner = *context;
  inner.op_data = data->impl;
  return data->is_integer ? lstm_integer_eval(&inner) : lstm_float_eval(&inner);
}

const cpu_kernel cpu_lstm_kernel = {
    .op_code = TFLACCEL_OP_LSTM,
    .check = lstm_check,
    .prepare = lstm_prepare,
    .release = lstm_release,
    .eval = lstm_eval,
};

const cpu_kernel cpu_sequence_lstm_kernel = {
    .op_code = TFLACCEL_OP_UNIDIRECTIONAL_SEQUENCE_LSTM,
    .check = lstm_check,
    .prepare = lstm_prepare,
    .release = lstm_release,
    .eval = lstm_eval,
};
