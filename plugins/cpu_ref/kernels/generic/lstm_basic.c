/* LSTM with kernel_type BASIC, float32: TFLite's reference_ops::LstmCell.
 * Inputs: input [B, I], prev_activ [B, D], weights [4D, I + D], bias [4D],
 * prev_state [B, D]. Outputs: activ [B, D], state [B, D], concat_temp
 * [B, I + D], activ_temp [B, 4D]. Per batch row:
 *   concat_temp = [input, prev_activ]
 *   activ_temp[g] = bias[g] + sum_k concat_temp[k] * weights[g][k]
 *   state = sigmoid(gate 0) * tanh(gate 1) + sigmoid(gate 2) * prev_state
 *   activ = sigmoid(gate 3) * tanh(state)
 * where gate i, channel c is activ_temp[i * D + c]. The sums start from the
 * bias and add in k order (FULLY_CONNECTED's order, which the GPU lowering
 * keeps); sigmoid and tanh are LOGISTIC's and TANH's formulas. The full
 * kernel (kernel_type FULL) is quantized/lstm.c's. */
#include "config.h"

#include <math.h>
#include <string.h>

#include "plugins/cpu_ref/kernels/generic/generic_kernels.h"
#include "plugins/cpu_ref/kernels/kernel_util.h"

#define LSTM_BASIC_KERNEL 1 /* tflaccel_lstm_params.kernel_type */
/* Multiply-adds per parallel chunk of the matrix product. */
#define LSTM_MIN_WORK 32768

enum {
  IN_INPUT = 0,
  IN_PREV_ACTIV = 1,
  IN_WEIGHTS = 2,
  IN_BIAS = 3,
  IN_PREV_STATE = 4,
  OUT_ACTIV = 0,
  OUT_STATE = 1,
  OUT_CONCAT = 2,
  OUT_ACTIV_TEMP = 3,
};

static int is_matrix(const tflaccel_tensor_desc *tensor, int32_t rows, int32_t columns) {
  return tensor->rank == 2 && tensor->dims[0] == rows && tensor->dims[1] == columns;
}

static int lstm_basic_check(const tflaccel_graph_view *graph, const tflaccel_op_desc *op,
                            char *reason) {
  const tflaccel_lstm_params *params = &op->params->lstm;
  if (params->kernel_type != LSTM_BASIC_KERNEL)
    return cpu_reason(reason, "LSTM: kernel_type %d is not the basic kernel", params->kernel_type);
  if (!cpu_check_arity(graph, op, 5, 5, 4, reason)) return 0;
  static const char *const input_names[] = {"input", "prev_activ", "weights", "bias",
                                            "prev_state"};
  static const char *const output_names[] = {"activ", "state", "concat_temp", "activ_temp"};
  for (uint32_t i = 0; i < 5; i++)
    if (!cpu_check_dtype(cpu_op_input(graph, op, i), TFLACCEL_DTYPE_FLOAT32, input_names[i],
                         reason))
      return 0;
  for (uint32_t i = 0; i < 4; i++)
    if (!cpu_check_dtype(cpu_op_output(graph, op, i), TFLACCEL_DTYPE_FLOAT32, output_names[i],
                         reason))
      return 0;
  /* TFLite's basic kernel requires these; other values have no meaning in it. */
  if (params->fused_activation != TFLACCEL_ACT_TANH)
    return cpu_reason(reason, "LSTM basic kernel: fused activation %d, TFLite requires TANH",
                      params->fused_activation);
  if (params->cell_clip != 0.0f || params->proj_clip != 0.0f)
    return cpu_reason(reason, "LSTM basic kernel: cell_clip %g and proj_clip %g, TFLite requires 0",
                      (double)params->cell_clip, (double)params->proj_clip);
  const tflaccel_tensor_desc *input = cpu_op_input(graph, op, IN_INPUT);
  const tflaccel_tensor_desc *prev_activ = cpu_op_input(graph, op, IN_PREV_ACTIV);
  if (input->rank != 2 || prev_activ->rank != 2)
    return cpu_reason(reason, "LSTM basic kernel: input (rank %u) and prev_activ (rank %u) must "
                      "be 2-D", input->rank, prev_activ->rank);
  int32_t batch = input->dims[0], input_depth = input->dims[1], depth = prev_activ->dims[1];
  if (prev_activ->dims[0] != batch)
    return cpu_reason(reason, "LSTM basic kernel: prev_activ has %d rows, the input %d",
                      prev_activ->dims[0], batch);
  if ((int64_t)depth * 4 > INT32_MAX || (int64_t)input_depth + depth > INT32_MAX)
    return cpu_reason(reason, "LSTM basic kernel: depth %d is too large", depth);
  int32_t gates = 4 * depth, total = input_depth + depth;
  if (!is_matrix(cpu_op_input(graph, op, IN_WEIGHTS), gates, total))
    return cpu_reason(reason, "LSTM basic kernel: weights must be [%d, %d]", gates, total);
  const tflaccel_tensor_desc *bias = cpu_op_input(graph, op, IN_BIAS);
  if (bias->rank != 1 || bias->dims[0] != gates)
    return cpu_reason(reason, "LSTM basic kernel: bias must be [%d]", gates);
  if (!is_matrix(cpu_op_input(graph, op, IN_PREV_STATE), batch, depth))
    return cpu_reason(reason, "LSTM basic kernel: prev_state must be [%d, %d]", batch, depth);
  const int32_t output_columns[4] = {depth, depth, total, gates};
  for (uint32_t i = 0; i < 4; i++)
    if (!is_matrix(cpu_op_output(graph, op, i), batch, output_columns[i]))
      return cpu_reason(reason, "LSTM basic kernel: %s must be [%d, %d]", output_names[i], batch,
                        output_columns[i]);
  return 1;
}

typedef struct lstm_basic_job {
  const float *concat, *weights, *bias;
  float *activ_temp;
  int32_t gates, total;
} lstm_basic_job;

/* [begin, end) index the elements of activ_temp (row-major [B, 4D]). */
static void lstm_basic_products(void *argument, int64_t begin, int64_t end) {
  const lstm_basic_job *job = argument;
  for (int64_t index = begin; index < end; index++) {
    int64_t row = index / job->gates;
    int32_t gate = (int32_t)(index % job->gates);
    const float *x = job->concat + row * job->total;
    const float *w = job->weights + (int64_t)gate * job->total;
    float sum = job->bias[gate];
    for (int32_t k = 0; k < job->total; k++) sum += x[k] * w[k];
    job->activ_temp[index] = sum;
  }
}

static float sigmoid(float x) { return 1.0f / (1.0f + expf(-x)); }

static tflaccel_status lstm_basic_eval(const cpu_op_context *context) {
  const tflaccel_tensor_desc *input = cpu_input_tensor(context, IN_INPUT);
  const tflaccel_tensor_desc *prev_activ_desc = cpu_input_tensor(context, IN_PREV_ACTIV);
  const int32_t batch = input->dims[0], input_depth = input->dims[1];
  const int32_t depth = prev_activ_desc->dims[1];
  const int32_t total = input_depth + depth, gates = 4 * depth;
  const float *in = cpu_input_data(context, IN_INPUT);
  const float *prev_activ = cpu_input_data(context, IN_PREV_ACTIV);
  const float *prev_state = cpu_input_data(context, IN_PREV_STATE);
  float *activ = cpu_output_data(context, OUT_ACTIV);
  float *state = cpu_output_data(context, OUT_STATE);
  float *concat = cpu_output_data(context, OUT_CONCAT);
  float *activ_temp = cpu_output_data(context, OUT_ACTIV_TEMP);
  for (int32_t b = 0; b < batch; b++) {
    memcpy(concat + (int64_t)b * total, in + (int64_t)b * input_depth,
           sizeof(float) * (size_t)input_depth);
    memcpy(concat + (int64_t)b * total + input_depth, prev_activ + (int64_t)b * depth,
           sizeof(float) * (size_t)depth);
  }
  lstm_basic_job job = {concat, cpu_input_data(context, IN_WEIGHTS),
                        cpu_input_data(context, IN_BIAS), activ_temp, gates, total};
  int64_t min_chunk = LSTM_MIN_WORK / (total > 0 ? total : 1);
  cpu_parallel_for(context->pool, (int64_t)batch * gates, min_chunk > 0 ? min_chunk : 1,
                   lstm_basic_products, &job);
  for (int32_t b = 0; b < batch; b++) {
    const float *row = activ_temp + (int64_t)b * gates;
    for (int32_t c = 0; c < depth; c++) {
      int64_t at = (int64_t)b * depth + c;
      float input_gate = sigmoid(row[c]);
      float new_input = tanhf(row[depth + c]);
      float forget_gate = sigmoid(row[2 * depth + c]);
      float output_gate = sigmoid(row[3 * depth + c]);
      float new_state = input_gate * new_input + forget_gate * prev_state[at];
      state[at] = new_state;
      activ[at] = output_gate * tanhf(new_state);
    }
  }
  return NULL;
}

const cpu_kernel cpu_kernel_lstm_basic = {
    .op_code = TFLACCEL_OP_LSTM,
    .check = lstm_basic_check,
    .eval = lstm_basic_eval,
};
