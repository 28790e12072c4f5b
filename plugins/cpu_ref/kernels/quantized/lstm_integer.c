/* Fully integer LSTM (TFLite's "8x8_16" kernel): int8 input, weights and
 * output state, int16 gates in Q3.12 and an int16 cell state with a
 * power-of-two scale. Follows TFLite 2.9's LstmStepInteger8x8_16 and the
 * tensor_utils it calls, including its conventions:
 *  - zero points are folded into per-row "effective biases" at prepare;
 *  - the hidden state is written as round(h / s) - hidden_zero_point and the
 *    projection adds hidden_zero_point back (TFLite's CwiseMul subtracts the
 *    zero point it is given);
 *  - gate activations are gemmlowp's int16 fixed-point logistic and tanh. */
#include "config.h"

#include <math.h>
#include <string.h>

#include "plugins/cpu_ref/kernels/quantized/fixed_point.h"
#include "plugins/cpu_ref/kernels/quantized/lstm_common.h"
#include "plugins/cpu_ref/kernels/quantized/quant_common.h"

#define LSTM_GATE_SCALE (1.0f / 4096.0f) /* Q3.12 gates without layer norm */

typedef struct lstm_integer_data {
  lstm_shape shape;
  const int8_t *input_weights[4];
  const int8_t *recurrent_weights[4];
  const int16_t *cell_weights[4];
  const int8_t *projection_weights;
  int32_t input_multiplier[4], recurrent_multiplier[4], cell_multiplier[4];
  int input_shift[4], recurrent_shift[4], cell_shift[4];
  int32_t projection_multiplier, hidden_multiplier;
  int projection_shift, hidden_shift;
  int32_t hidden_zero_point, output_state_zero_point;
  int cell_scale_log2;
  int16_t quantized_cell_clip;
  int8_t quantized_proj_clip;
  int32_t *input_effective_bias[4];
  int32_t *recurrent_effective_bias[4];
  int32_t *projection_effective_bias;
  int16_t *gates[4];   /* [n_batch][n_cell] */
  int16_t *cell_tanh;  /* [n_batch][n_cell] */
  int8_t *hidden;      /* [n_batch][n_cell] */
} lstm_integer_data;

static int check_slot(const tflaccel_graph_view *graph, const tflaccel_op_desc *op, uint32_t slot,
                      int32_t dtype, int quantized, char *reason) {
  const tflaccel_tensor_desc *tensor = q_input(graph, op, slot);
  if (tensor == NULL) return 1;
  if (tensor->dtype != dtype)
    return q_tensor_reason(reason, graph, op->inputs[slot], "LSTM input %u is %s, expected %s",
                           slot, q_dtype_name(tensor->dtype), q_dtype_name(dtype));
  if (quantized && !q_check_per_tensor(graph, op, 0, slot, dtype, reason)) return 0;
  return 1;
}

int lstm_integer_check(const tflaccel_graph_view *graph, const tflaccel_op_desc *op,
                       const lstm_shape *shape, char *reason) {
  if (shape->use_layer_norm)
    return q_reason(reason, "integer LSTM with layer normalization is not supported");
  if (!q_check_per_tensor(graph, op, 0, LSTM_INPUT, TFLACCEL_DTYPE_INT8, reason)) return 0;
  for (uint32_t slot = LSTM_INPUT_TO_INPUT_WEIGHTS; slot <= LSTM_RECURRENT_TO_OUTPUT_WEIGHTS;
       slot++) {
    if (!check_slot(graph, op, slot, TFLACCEL_DTYPE_INT8, 1, reason)) return 0;
    if (q_input(graph, op, slot) != NULL && q_zero_point(q_input(graph, op, slot)) != 0)
      return q_tensor_reason(reason, graph, op->inputs[slot], "weights need zero point 0");
  }
  for (uint32_t slot = LSTM_CELL_TO_INPUT_WEIGHTS; slot <= LSTM_CELL_TO_OUTPUT_WEIGHTS; slot++)
    if (!check_slot(graph, op, slot, TFLACCEL_DTYPE_INT16, 1, reason)) return 0;
  for (uint32_t slot = LSTM_INPUT_GATE_BIAS; slot <= LSTM_OUTPUT_GATE_BIAS; slot++)
    if (!check_slot(graph, op, slot, TFLACCEL_DTYPE_INT32, 0, reason)) return 0;
  if (!check_slot(graph, op, LSTM_PROJECTION_WEIGHTS, TFLACCEL_DTYPE_INT8, 1, reason) ||
      !check_slot(graph, op, LSTM_PROJECTION_BIAS, TFLACCEL_DTYPE_INT32, 0, reason))
    return 0;
  if (shape->use_peephole && shape->n_output != shape->n_cell)
    return q_reason(reason, "integer peephole LSTM needs as many outputs as cells");
  if (!q_check_per_tensor(graph, op, 0, LSTM_OUTPUT_STATE, TFLACCEL_DTYPE_INT8, reason) ||
      !q_check_per_tensor(graph, op, 0, LSTM_CELL_STATE, TFLACCEL_DTYPE_INT16, reason) ||
      !q_check_per_tensor(graph, op, 1, 0, TFLACCEL_DTYPE_INT8, reason))
    return 0;
  int cell_log2 = 0;
  const tflaccel_tensor_desc *cell_state = q_input(graph, op, LSTM_CELL_STATE);
  if (!q_checked_log2(q_scale(cell_state), &cell_log2))
    return q_tensor_reason(reason, graph, op->inputs[LSTM_CELL_STATE],
                           "the cell state scale %g is not a power of two",
                           (double)q_scale(cell_state));
  if (15 + cell_log2 < 0 || 15 + cell_log2 > 6)
    return q_tensor_reason(reason, graph, op->inputs[LSTM_CELL_STATE],
                           "cell state scale 2^%d is out of range (2^-15 .. 2^-9)", cell_log2);
  if (op->intermediate_count != 5)
    return q_reason(reason, "integer LSTM needs 5 intermediate tensors, has %u",
                    op->intermediate_count);
  const uint32_t hidden = op->intermediates[4];
  if (hidden >= graph->tensor_count || !q_is_quantized(&graph->tensors[hidden]) ||
      graph->tensors[hidden].quantization.count != 1)
    return q_reason(reason, "intermediate 4 (the hidden state) needs per-tensor quantization");
  return 1;
}

void lstm_integer_release(const tflaccel_host_services *host, void *op_data) {
  lstm_integer_data *data = op_data;
  if (data == NULL) return;
  for (int g = 0; g < 4; g++) {
    q_free(host, data->input_effective_bias[g]);
    q_free(host, data->recurrent_effective_bias[g]);
    q_free(host, data->gates[g]);
  }
  q_free(host, data->projection_effective_bias);
  q_free(host, data->cell_tanh);
  q_free(host, data->hidden);
  q_free(host, data);
}

/* bias[r] (or 0) + zero_point * sum(weights[r][:]), TFLite's
 * PrecomputeZeroPointTimesWeightWithBias. */
static int32_t *effective_bias(const cpu_op_context *context, const int8_t *weights,
                               int32_t rows, int32_t cols, const int32_t *bias,
                               int32_t zero_point) {
  int32_t *result = q_alloc(context, (size_t)rows * sizeof(int32_t));
  if (result == NULL) return NULL;
  for (int32_t r = 0; r < rows; r++) {
    int32_t row_sum = 0;
    for (int32_t c = 0; c < cols; c++) row_sum += weights[(int64_t)r * cols + c];
    result[r] = (int32_t)((uint32_t)(bias != NULL ? bias[r] : 0) +
                          (uint32_t)row_sum * (uint32_t)zero_point);
  }
  return result;
}

tflaccel_status lstm_integer_prepare(const cpu_op_context *context, const lstm_shape *shape,
                                     void **op_data) {
  const tflaccel_graph_view *graph = context->graph;
  const tflaccel_op_desc *op = context->op;
  lstm_integer_data *data = q_alloc(context, sizeof *data);
  if (data == NULL) return q_out_of_memory(context, sizeof *data);
  data->shape = *shape;
  const tflaccel_tensor_desc *input = q_input(graph, op, LSTM_INPUT);
  const tflaccel_tensor_desc *output_state = q_input(graph, op, LSTM_OUTPUT_STATE);
  const tflaccel_tensor_desc *cell_state = q_input(graph, op, LSTM_CELL_STATE);
  const tflaccel_tensor_desc *output = q_output(graph, op, 0);
  const tflaccel_tensor_desc *hidden = &graph->tensors[op->intermediates[4]];

  q_checked_log2(q_scale(cell_state), &data->cell_scale_log2);
  data->hidden_zero_point = q_zero_point(hidden);
  data->output_state_zero_point = q_zero_point(output_state);
  /* Clips: float division, truncating conversion, as TFLite. */
  if (shape->cell_clip > 0.0f) {
    float clip = shape->cell_clip / q_scale(cell_state);
    clip = clip < -32768.0f ? -32768.0f : (clip > 32767.0f ? 32767.0f : clip);
    data->quantized_cell_clip = (int16_t)clip;
  }
  if (shape->proj_clip > 0.0f) {
    float clip = shape->proj_clip / q_scale(output);
    clip = clip < -128.0f ? -128.0f : (clip > 127.0f ? 127.0f : clip);
    data->quantized_proj_clip = (int8_t)clip;
  }

  /* Effective scales in float, as TFLite's PopulateQuantizedLstmParams8x8_16. */
  const float input_scale = q_scale(input);
  const float output_state_scale = q_scale(output_state);
  const float hidden_scale = q_scale(hidden);
  for (int g = 0; g < 4; g++) {
    const tflaccel_tensor_desc *w_input = q_input(graph, op, LSTM_INPUT_TO_INPUT_WEIGHTS + (uint32_t)g);
    const tflaccel_tensor_desc *w_recurrent =
        q_input(graph, op, LSTM_RECURRENT_TO_INPUT_WEIGHTS + (uint32_t)g);
    const tflaccel_tensor_desc *bias = q_input(graph, op, LSTM_INPUT_GATE_BIAS + (uint32_t)g);
    if (w_input == NULL) continue; /* CIFG input gate */
    data->input_weights[g] = w_input->data;
    data->recurrent_weights[g] = w_recurrent->data;
    const float input_effective = q_scale(w_input) * input_scale / LSTM_GATE_SCALE;
    const float recurrent_effective = q_scale(w_recurrent) * output_state_scale / LSTM_GATE_SCALE;
    tflaccel_status status = q_require_multiplier(
        context, "input weights scale x input scale / 2^-12", (double)input_effective,
        &data->input_multiplier[g], &data->input_shift[g]);
    if (status == NULL)
      status = q_require_multiplier(context,
                                    "recurrent weights scale x output state scale / 2^-12",
                                    (double)recurrent_effective, &data->recurrent_multiplier[g],
                                    &data->recurrent_shift[g]);
    if (status != NULL) {
      lstm_integer_release(context->host, data);
      return status;
    }
    data->input_effective_bias[g] =
        effective_bias(context, w_input->data, shape->n_cell, shape->n_input,
                       bias != NULL ? bias->data : NULL, -q_zero_point(input));
    data->recurrent_effective_bias[g] =
        effective_bias(context, w_recurrent->data, shape->n_cell, shape->n_output, NULL,
                       -data->output_state_zero_point);
    if (data->input_effective_bias[g] == NULL || data->recurrent_effective_bias[g] == NULL) {
      lstm_integer_release(context->host, data);
      return q_out_of_memory(context, (size_t)shape->n_cell * 8);
    }
  }
  if (shape->use_peephole) {
    const uint32_t slots[4] = {LSTM_CELL_TO_INPUT_WEIGHTS, LSTM_CELL_TO_FORGET_WEIGHTS, 0,
                               LSTM_CELL_TO_OUTPUT_WEIGHTS};
    for (int g = 0; g < 4; g++) {
      if (g == LSTM_GATE_CELL || (g == LSTM_GATE_INPUT && shape->use_cifg)) continue;
      const tflaccel_tensor_desc *weights = q_input(graph, op, slots[g]);
      data->cell_weights[g] = weights->data;
      const float effective = (float)(pow(2.0, data->cell_scale_log2) *
                                      (double)q_scale(weights) / (double)LSTM_GATE_SCALE);
      tflaccel_status status =
          q_require_multiplier(context, "cell-to-gate weights scale x cell scale / 2^-12",
                               (double)effective, &data->cell_multiplier[g], &data->cell_shift[g]);
      if (status != NULL) {
        lstm_integer_release(context->host, data);
        return status;
      }
    }
  }
  const float hidden_effective =
      (float)(pow(2.0, -15) / (double)hidden_scale * pow(2.0, -15));
  tflaccel_status hidden_status =
      q_require_multiplier(context, "2^-30 / hidden scale", (double)hidden_effective,
                           &data->hidden_multiplier, &data->hidden_shift);
  if (hidden_status != NULL) {
    lstm_integer_release(context->host, data);
    return hidden_status;
  }
  if (shape->use_projection) {
    const tflaccel_tensor_desc *weights = q_input(graph, op, LSTM_PROJECTION_WEIGHTS);
    const tflaccel_tensor_desc *bias = q_input(graph, op, LSTM_PROJECTION_BIAS);
    data->projection_weights = weights->data;
    const float effective = q_scale(weights) * hidden_scale / output_state_scale;
    tflaccel_status status = q_require_multiplier(
        context, "projection weights scale x hidden scale / output state scale",
        (double)effective, &data->projection_multiplier, &data->projection_shift);
    if (status != NULL) {
      lstm_integer_release(context->host, data);
      return status;
    }
    data->projection_effective_bias =
        effective_bias(context, weights->data, shape->n_output, shape->n_cell,
                       bias != NULL ? bias->data : NULL, data->hidden_zero_point);
    if (data->projection_effective_bias == NULL) {
      lstm_integer_release(context->host, data);
      return q_out_of_memory(context, (size_t)shape->n_output * 4);
    }
  }
  const size_t cells = (size_t)shape->n_batch * (size_t)shape->n_cell;
  for (int g = 0; g < 4; g++) data->gates[g] = q_alloc(context, cells * sizeof(int16_t));
  data->cell_tanh = q_alloc(context, cells * sizeof(int16_t));
  data->hidden = q_alloc(context, cells);
  if (data->gates[0] == NULL || data->gates[1] == NULL || data->gates[2] == NULL ||
      data->gates[3] == NULL || data->cell_tanh == NULL || data->hidden == NULL) {
    lstm_integer_release(context->host, data);
    return q_out_of_memory(context, cells * 11);
  }
  *op_data = data;
  return NULL;
}

/* output[b][r] = clamp(MBQM(bias[r] + w[r] . input[b]) + zero_point + output[b][r]),
 * TFLite's integer MatrixBatchVectorMultiplyAccumulate (int16 result). */
static void matmul_accumulate_int16(const int8_t *input, const int32_t *bias,
                                    const int8_t *weights, int32_t multiplier, int shift,
                                    int32_t batches, int32_t cols, int32_t rows,
                                    int16_t *output) {
  for (int32_t b = 0; b < batches; b++) {
    const int8_t *in = input + (int64_t)b * cols;
    for (int32_t r = 0; r < rows; r++) {
      const int8_t *w = weights + (int64_t)r * cols;
      uint32_t sum = (uint32_t)bias[r]; /* wraps like TFLite's int32 sum */
      for (int32_t c = 0; c < cols; c++) sum += (uint32_t)((int32_t)in[c] * w[c]);
      int32_t acc = q_multiply_by_quantized_multiplier((int32_t)sum, multiplier, shift);
      acc += output[(int64_t)b * rows + r];
      output[(int64_t)b * rows + r] = (int16_t)q_clamp_i32(acc, INT16_MIN, INT16_MAX);
    }
  }
}

static void compute_gate(const lstm_integer_data *d, int g, const int8_t *input,
                         const int8_t *output_state, const int16_t *cell_state, int32_t batches,
                         int16_t *gate) {
  const lstm_shape *s = &d->shape;
  const int64_t cells = (int64_t)batches * s->n_cell;
  memset(gate, 0, (size_t)cells * sizeof(int16_t));
  matmul_accumulate_int16(input, d->input_effective_bias[g], d->input_weights[g],
                          d->input_multiplier[g], d->input_shift[g], batches, s->n_input,
                          s->n_cell, gate);
  matmul_accumulate_int16(output_state, d->recurrent_effective_bias[g], d->recurrent_weights[g],
                          d->recurrent_multiplier[g], d->recurrent_shift[g], batches, s->n_output,
                          s->n_cell, gate);
  if (d->cell_weights[g] != NULL) {
    for (int32_t b = 0; b < batches; b++)
      for (int32_t c = 0; c < s->n_cell; c++) {
        const int64_t i = (int64_t)b * s->n_cell + c;
        int32_t product = (int32_t)d->cell_weights[g][c] * cell_state[i];
        product = q_multiply_by_quantized_multiplier(product, d->cell_multiplier[g],
                                                     d->cell_shift[g]);
        gate[i] = (int16_t)q_clamp_i32(product + gate[i], INT16_MIN, INT16_MAX);
      }
  }
  for (int64_t i = 0; i < cells; i++)
    gate[i] = g == LSTM_GATE_CELL ? q_tanh_int16(gate[i], 3) : q_logistic_q3_12(gate[i]);
}

static int16_t mul_shift(int16_t a, int16_t b, int shift) {
  /* TFLite's CwiseMul: rounding shift, then a wrapping int16 conversion. */
  const int32_t value = q_rounding_divide_by_pot((int32_t)a * b, shift);
  return (int16_t)(uint16_t)(uint32_t)value;
}

static void lstm_integer_step(const lstm_integer_data *d, const int8_t *input, int32_t batches,
                              int8_t *output_state, int16_t *cell_state, int8_t *output) {
  const lstm_shape *s = &d->shape;
  const int64_t cells = (int64_t)batches * s->n_cell;
  int16_t *input_gate = d->gates[LSTM_GATE_INPUT], *forget_gate = d->gates[LSTM_GATE_FORGET];
  int16_t *cell_gate = d->gates[LSTM_GATE_CELL], *output_gate = d->gates[LSTM_GATE_OUTPUT];
  if (!s->use_cifg)
    compute_gate(d, LSTM_GATE_INPUT, input, output_state, cell_state, batches, input_gate);
  compute_gate(d, LSTM_GATE_FORGET, input, output_state, cell_state, batches, forget_gate);
  compute_gate(d, LSTM_GATE_CELL, input, output_state, cell_state, batches, cell_gate);

  /* Cell update; the forget gate's buffer doubles as scratch. */
  const int input_shift = 30 + d->cell_scale_log2;
  for (int64_t i = 0; i < cells; i++) {
    const int16_t forget = forget_gate[i];
    cell_state[i] = mul_shift(forget, cell_state[i], 15);
    const int16_t input_value = s->use_cifg ? (int16_t)(INT16_MAX - forget) : input_gate[i];
    const int16_t update = mul_shift(input_value, cell_gate[i], input_shift);
    cell_state[i] = (int16_t)q_clamp_i32((int32_t)cell_state[i] + update, INT16_MIN, INT16_MAX);
    if (d->quantized_cell_clip > 0) {
      const int16_t clip = d->quantized_cell_clip;
      if (cell_state[i] > clip) cell_state[i] = clip;
      if (cell_state[i] < -clip) cell_state[i] = (int16_t)-clip;
    }
  }
  compute_gate(d, LSTM_GATE_OUTPUT, input, output_state, cell_state, batches, output_gate);

  /* Hidden state: tanh of the cell times the output gate, requantized. */
  const int tanh_bits = 15 + d->cell_scale_log2;
  for (int64_t i = 0; i < cells; i++) {
    d->cell_tanh[i] = q_tanh_int16(cell_state[i], tanh_bits);
    int32_t value = (int32_t)output_gate[i] * d->cell_tanh[i];
    value = q_multiply_by_quantized_multiplier(value, d->hidden_multiplier, d->hidden_shift);
    value -= d->hidden_zero_point;
    d->hidden[i] = (int8_t)q_clamp_i32(value, -128, 127);
  }
  const int64_t outputs = (int64_t)batches * s->n_output;
  if (s->use_projection) {
    for (int32_t b = 0; b < batches; b++) {
      const int8_t *h = d->hidden + (int64_t)b * s->n_cell;
      for (int32_t r = 0; r < s->n_output; r++) {
        const int8_t *w = d->projection_weights + (int64_t)r * s->n_cell;
        uint32_t sum = (uint32_t)d->projection_effective_bias[r];
        for (int32_t c = 0; c < s->n_cell; c++) sum += (uint32_t)((int32_t)h[c] * w[c]);
        int32_t acc = q_multiply_by_quantized_multiplier((int32_t)sum, d->projection_multiplier,
                                                         d->projection_shift);
        acc += d->output_state_zero_point;
        int8_t value = (int8_t)q_clamp_i32(acc, -128, 127);
        if (d->quantized_proj_clip > 0) {
          const int8_t clip = d->quantized_proj_clip;
          if (value > clip) value = clip;
          if (value < -clip) value = (int8_t)-clip;
        }
        output_state[(int64_t)b * s->n_output + r] = value;
      }
    }
  } else {
    memcpy(output_state, d->hidden, (size_t)outputs);
  }
  memcpy(output, output_state, (size_t)outputs);
}

tflaccel_status lstm_integer_eval(const cpu_op_context *context) {
  const lstm_integer_data *d = context->op_data;
  const lstm_shape *s = &d->shape;
  const int8_t *input = q_input_data(context, LSTM_INPUT);
  int8_t *output_state = q_input_data(context, LSTM_OUTPUT_STATE);
  int16_t *cell_state = q_input_data(context, LSTM_CELL_STATE);
  int8_t *output = q_output_data(context, 0);
  if (input == NULL || output_state == NULL || cell_state == NULL || output == NULL)
    return q_error(context, TFLACCEL_INTERNAL, "an input, state or output has no storage");
  if (s->time_major) {
    for (int32_t t = 0; t < s->max_time; t++)
      lstm_integer_step(d, input + (int64_t)t * s->n_batch * s->n_input, s->n_batch,
                        output_state, cell_state, output + (int64_t)t * s->n_batch * s->n_output);
  } else {
    for (int32_t b = 0; b < s->n_batch; b++)
      for (int32_t t = 0; t < s->max_time; t++) {
        const int64_t step = (int64_t)b * s->max_time + t;
        lstm_integer_step(d, input + step * s->n_input, 1,
                          output_state + (int64_t)b * s->n_output,
                          cell_state + (int64_t)b * s->n_cell, output + step * s->n_output);
      }
  }
  return NULL;
}
