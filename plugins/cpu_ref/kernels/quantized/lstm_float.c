/* float32 LSTM step, in the order TFLite's LstmStepFloat evaluates it:
 * each gate starts from its bias (0 with layer normalization), adds the
 * input and recurrent products (each summed on its own first), the peephole
 * term, layer normalization, then its activation; the output gate sees the
 * updated cell. */
#include "config.h"

#include <math.h>
#include <string.h>

#include "plugins/cpu_ref/kernels/quantized/lstm_common.h"
#include "plugins/cpu_ref/kernels/quantized/quant_common.h"

typedef struct lstm_float_data {
  lstm_shape shape;
  const float *input_weights[4];     /* [n_cell][n_input]; NULL input gate with CIFG */
  const float *recurrent_weights[4]; /* [n_cell][n_output] */
  const float *cell_weights[4];      /* peephole [n_cell]; no cell gate entry */
  const float *bias[4];
  const float *layer_norm[4];
  const float *projection_weights; /* [n_output][n_cell] */
  const float *projection_bias;
  float *gates[4]; /* [n_batch][n_cell] each */
  float *scratch;  /* [n_batch][n_cell] */
} lstm_float_data;

static const float *constant_data(const cpu_op_context *context, uint32_t slot) {
  const tflaccel_tensor_desc *tensor = q_input(context->graph, context->op, slot);
  return tensor == NULL ? NULL : tensor->data;
}

int lstm_float_check(const tflaccel_graph_view *graph, const tflaccel_op_desc *op,
                     const lstm_shape *shape, char *reason) {
  for (uint32_t i = 0; i < op->input_count; i++) {
    const tflaccel_tensor_desc *tensor = q_input(graph, op, i);
    if (tensor != NULL && tensor->dtype != TFLACCEL_DTYPE_FLOAT32)
      return q_tensor_reason(reason, graph, op->inputs[i],
                             "LSTM input %u is %s; hybrid LSTM is not supported", i,
                             q_dtype_name(tensor->dtype));
  }
  if (q_output(graph, op, 0)->dtype != TFLACCEL_DTYPE_FLOAT32)
    return q_reason(reason, "output must be float32");
  switch (shape->activation) {
  case TFLACCEL_ACT_NONE:
  case TFLACCEL_ACT_RELU:
  case TFLACCEL_ACT_RELU_N1_TO_1:
  case TFLACCEL_ACT_RELU6:
  case TFLACCEL_ACT_TANH:
    return 1;
  default:
    return q_reason(reason, "activation %d is not supported", shape->activation);
  }
}

void lstm_float_release(const tflaccel_host_services *host, void *op_data) {
  lstm_float_data *data = op_data;
  if (data == NULL) return;
  for (int g = 0; g < 4; g++) q_free(host, data->gates[g]);
  q_free(host, data->scratch);
  q_free(host, data);
}

tflaccel_status lstm_float_prepare(const cpu_op_context *context, const lstm_shape *shape,
                                   void **op_data) {
  lstm_float_data *data = q_alloc(context, sizeof *data);
  if (data == NULL) return q_out_of_memory(context, sizeof *data);
  data->shape = *shape;
  for (int g = 0; g < 4; g++) {
    data->input_weights[g] = constant_data(context, LSTM_INPUT_TO_INPUT_WEIGHTS + (uint32_t)g);
    data->recurrent_weights[g] =
        constant_data(context, LSTM_RECURRENT_TO_INPUT_WEIGHTS + (uint32_t)g);
    data->bias[g] = constant_data(context, LSTM_INPUT_GATE_BIAS + (uint32_t)g);
    data->layer_norm[g] = shape->use_layer_norm && context->op->input_count == LSTM_SLOT_COUNT
                              ? constant_data(context, LSTM_INPUT_LAYER_NORM + (uint32_t)g)
                              : NULL;
  }
  data->cell_weights[LSTM_GATE_INPUT] = constant_data(context, LSTM_CELL_TO_INPUT_WEIGHTS);
  data->cell_weights[LSTM_GATE_FORGET] = constant_data(context, LSTM_CELL_TO_FORGET_WEIGHTS);
  data->cell_weights[LSTM_GATE_OUTPUT] = constant_data(context, LSTM_CELL_TO_OUTPUT_WEIGHTS);
  data->projection_weights = constant_data(context, LSTM_PROJECTION_WEIGHTS);
  data->projection_bias = constant_data(context, LSTM_PROJECTION_BIAS);
  const size_t bytes = (size_t)shape->n_batch * (size_t)shape->n_cell * sizeof(float);
  for (int g = 0; g < 4; g++) data->gates[g] = q_alloc(context, bytes);
  data->scratch = q_alloc(context, bytes);
  if (data->gates[0] == NULL || data->gates[1] == NULL || data->gates[2] == NULL ||
      data->gates[3] == NULL || data->scratch == NULL) {
    lstm_float_release(context->host, data);
    return q_out_of_memory(context, 5 * bytes);
  }
  *op_data = data;
  return NULL;
}

static float sigmoid(float x) {
  return 1.0f / (1.0f + expf(-x));
}

static float activate(float x, int32_t activation) {
  switch (activation) {
  case TFLACCEL_ACT_RELU: return x > 0.0f ? x : 0.0f;
  case TFLACCEL_ACT_RELU_N1_TO_1: return x < -1.0f ? -1.0f : (x > 1.0f ? 1.0f : x);
  case TFLACCEL_ACT_RELU6: return x < 0.0f ? 0.0f : (x > 6.0f ? 6.0f : x);
  case TFLACCEL_ACT_TANH: return tanhf(x);
  default: return x;
  }
}

/* result[b][r] += matrix[r] . vector[b] (each dot product summed alone). */
static void matrix_batch_vector_accumulate(const float *matrix, int32_t rows, int32_t cols,
                                           const float *vector, int32_t batches, float *result) {
  for (int32_t b = 0; b < batches; b++) {
    const float *v = vector + (int64_t)b * cols;
    for (int32_t r = 0; r < rows; r++) {
      const float *m = matrix + (int64_t)r * cols;
      float dot = 0.0f;
      for (int32_t c = 0; c < cols; c++) dot += m[c] * v[c];
      result[(int64_t)b * rows + r] += dot;
    }
  }
}

static int all_zero(const float *values, int64_t count) {
  for (int64_t i = 0; i < count; i++)
    if (values[i] != 0.0f) return 0;
  return 1;
}

/* gate[b][c] for `batches` rows, with activation (-1: sigmoid). */
static void compute_gate(const lstm_float_data *d, int gate_index, const float *input,
                         int input_is_zero, const float *output_state, const float *cell_state,
                         int32_t batches, int32_t activation, float *gate) {
  const lstm_shape *s = &d->shape;
  const int32_t n_cell = s->n_cell;
  const float *layer_norm = d->layer_norm[gate_index];
  for (int32_t b = 0; b < batches; b++)
    for (int32_t c = 0; c < n_cell; c++)
      gate[(int64_t)b * n_cell + c] = layer_norm != NULL ? 0.0f : d->bias[gate_index][c];
  if (!input_is_zero)
    matrix_batch_vector_accumulate(d->input_weights[gate_index], n_cell, s->n_input, input,
                                   batches, gate);
  matrix_batch_vector_accumulate(d->recurrent_weights[gate_index], n_cell, s->n_output,
                                 output_state, batches, gate);
  const float *peephole = s->use_peephole ? d->cell_weights[gate_index] : NULL;
  if (peephole != NULL)
    for (int32_t b = 0; b < batches; b++)
      for (int32_t c = 0; c < n_cell; c++)
        gate[(int64_t)b * n_cell + c] += peephole[c] * cell_state[(int64_t)b * n_cell + c];
  if (layer_norm != NULL) {
    for (int32_t b = 0; b < batches; b++) {
      float *row = gate + (int64_t)b * n_cell;
      float sum = 0.0f;
      for (int32_t c = 0; c < n_cell; c++) sum += row[c];
      const float mean = sum / (float)n_cell;
      float sum_diff_sq = 0.0f;
      for (int32_t c = 0; c < n_cell; c++) {
        const float diff = row[c] - mean;
        sum_diff_sq += diff * diff;
      }
      const float variance = sum_diff_sq / (float)n_cell;
      const float stddev_inv = 1.0f / sqrtf(variance + 1e-8f);
      for (int32_t c = 0; c < n_cell; c++) row[c] = (row[c] - mean) * stddev_inv;
      for (int32_t c = 0; c < n_cell; c++) row[c] = layer_norm[c] * row[c];
      for (int32_t c = 0; c < n_cell; c++) row[c] += d->bias[gate_index][c];
    }
  }
  for (int64_t i = 0; i < (int64_t)batches * n_cell; i++)
    gate[i] = activation < 0 ? sigmoid(gate[i]) : activate(gate[i], activation);
}

/* One time step for `batches` rows; states and output rows are contiguous. */
static void lstm_float_step(const lstm_float_data *d, const float *input, int32_t batches,
                            float *output_state, float *cell_state, float *output) {
  const lstm_shape *s = &d->shape;
  const int32_t n_cell = s->n_cell, n_output = s->n_output;
  const int64_t cells = (int64_t)batches * n_cell;
  const int input_is_zero = all_zero(input, (int64_t)batches * s->n_input);
  float *input_gate = d->gates[LSTM_GATE_INPUT], *forget_gate = d->gates[LSTM_GATE_FORGET];
  float *cell_gate = d->gates[LSTM_GATE_CELL], *output_gate = d->gates[LSTM_GATE_OUTPUT];
  if (!s->use_cifg)
    compute_gate(d, LSTM_GATE_INPUT, input, input_is_zero, output_state, cell_state, batches, -1,
                 input_gate);
  compute_gate(d, LSTM_GATE_FORGET, input, input_is_zero, output_state, cell_state, batches, -1,
               forget_gate);
  compute_gate(d, LSTM_GATE_CELL, input, input_is_zero, output_state, cell_state, batches,
               s->activation, cell_gate);
  /* c = f * c + g * i, with i = 1 - f for CIFG. */
  for (int64_t i = 0; i < cells; i++) cell_state[i] = forget_gate[i] * cell_state[i];
  for (int64_t i = 0; i < cells; i++) {
    const float input_value = s->use_cifg ? 1.0f - forget_gate[i] : input_gate[i];
    cell_state[i] += cell_gate[i] * input_value;
  }
  if (s->cell_clip > 0.0f)
    for (int64_t i = 0; i < cells; i++) {
      const float v = cell_state[i];
      cell_state[i] = v > s->cell_clip ? s->cell_clip : (v < -s->cell_clip ? -s->cell_clip : v);
    }
  compute_gate(d, LSTM_GATE_OUTPUT, input, input_is_zero, output_state, cell_state, batches, -1,
               output_gate);
  float *hidden = d->scratch;
  for (int64_t i = 0; i < cells; i++) hidden[i] = activate(cell_state[i], s->activation);
  for (int64_t i = 0; i < cells; i++) hidden[i] = output_gate[i] * hidden[i];
  if (s->use_projection) {
    for (int32_t b = 0; b < batches; b++)
      for (int32_t o = 0; o < n_output; o++)
        output_state[(int64_t)b * n_output + o] =
            d->projection_bias != NULL ? d->projection_bias[o] : 0.0f;
    if (!all_zero(hidden, cells))
      matrix_batch_vector_accumulate(d->projection_weights, n_output, n_cell, hidden, batches,
                                     output_state);
    if (s->proj_clip > 0.0f)
      for (int64_t i = 0; i < (int64_t)batches * n_output; i++) {
        const float v = output_state[i];
        output_state[i] =
            v > s->proj_clip ? s->proj_clip : (v < -s->proj_clip ? -s->proj_clip : v);
      }
  } else {
    memcpy(output_state, hidden, (size_t)batches * (size_t)n_output * sizeof(float));
  }
  memcpy(output, output_state, (size_t)batches * (size_t)n_output * sizeof(float));
}

tflaccel_status lstm_float_eval(const cpu_op_context *context) {
  const lstm_float_data *d = context->op_data;
  const lstm_shape *s = &d->shape;
  const float *input = q_input_data(context, LSTM_INPUT);
  float *output_state = q_input_data(context, LSTM_OUTPUT_STATE);
  float *cell_state = q_input_data(context, LSTM_CELL_STATE);
  float *output = q_output_data(context, 0);
  if (input == NULL || output_state == NULL || cell_state == NULL || output == NULL)
    return q_error(context, TFLACCEL_INTERNAL, "an input, state or output has no storage");
  if (s->time_major) {
    for (int32_t t = 0; t < s->max_time; t++)
      lstm_float_step(d, input + (int64_t)t * s->n_batch * s->n_input, s->n_batch, output_state,
                      cell_state, output + (int64_t)t * s->n_batch * s->n_output);
  } else {
    for (int32_t b = 0; b < s->n_batch; b++)
      for (int32_t t = 0; t < s->max_time; t++) {
        const int64_t step = (int64_t)b * s->max_time + t;
        lstm_float_step(d, input + step * s->n_input, 1, output_state + (int64_t)b * s->n_output,
                        cell_state + (int64_t)b * s->n_cell, output + step * s->n_output);
      }
  }
  return NULL;
}
