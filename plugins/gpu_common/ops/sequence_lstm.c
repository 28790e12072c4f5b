/* UNIDIRECTIONAL_SEQUENCE_LSTM (TFLite's full LSTM kernel over a
 * sequence; cpu_ref's kernels/quantized/lstm*.c is the reference), lowered
 * one time step after another onto the basic cell's kernels (ops/lstm.c):
 *   1. gpu_concat: rows <- [x_t, h_{t-1}];
 *   2. gpu_conv2d, 1x1: sums <- bias + [W_x | W_h] . rows, the four gates'
 *      weights packed as one matrix in the basic cell's gate order (input,
 *      cell, forget, output); in the int8 LSTM the input and the recurrent
 *      parts of each sum apart (twice the channels), which TFLite
 *      requantizes and saturates one after the other;
 *   3. gpu_lstm_gates writing h_t into step t of the output (and, after
 *      the last step, into the output state);
 *   4. gpu_lstm_gates writing the new cell state in place (each item reads
 *      its own channels before it writes them).
 * h_{t-1} is read from step t - 1 of the output (the output state only at
 * step 0), so that the output state is written once. The states are
 * variable tensors in the state buffer (gpu_state.h): a run starts from
 * the last run's. Four dispatches per step: the corpus's sequences are
 * short (28 steps at most), and each step depends on the one before.
 * The int8 LSTM runs through the float view (check_integer_lstm). */
#include "config.h"

#include <stdint.h>
#include <string.h>

#include "core/facts/dtype.h"

#include "plugins/gpu_common/gpu_emit.h"
#include "plugins/gpu_common/gpu_emit_conv.h"
#include "plugins/gpu_common/gpu_emit_quant.h"
#include "plugins/gpu_common/gpu_op_builder.h"
#include "plugins/gpu_common/gpu_op_math.h"
#include "plugins/gpu_common/gpu_quant.h"
#include "plugins/gpu_common/gpu_state.h"
#include "plugins/gpu_common/ops/op_families.h"

/* The input slots of TFLite's full LSTM kernel used here. */
enum {
  SEQ_INPUT = 0,
  SEQ_INPUT_WEIGHTS = 1,     /* input-to-{input, forget, cell, output}: 1..4 */
  SEQ_RECURRENT_WEIGHTS = 5, /* recurrent-to-...: 5..8 */
  SEQ_PEEPHOLE = 9,          /* cell-to-{input, forget, output}: 9..11 */
  SEQ_BIAS = 12,             /* 12..15 */
  SEQ_PROJECTION = 16,       /* weights 16, bias 17 */
  SEQ_OUTPUT_STATE = 18,
  SEQ_CELL_STATE = 19,
  SEQ_LAYER_NORM = 20, /* 20..23, with 24 inputs */
};

/* The full kernel's gate (its weight slot order: input, forget, cell,
 * output) of each of the basic cell kernel's gates (input, cell, forget,
 * output). */
static const uint32_t basic_to_full_gate[4] = {0, 2, 1, 3};

typedef struct seq_shape {
  int32_t batch, time, input, cells;
} seq_shape;

static const tflaccel_tensor_desc *slot(const tflaccel_graph_view *graph,
                                        const tflaccel_op_desc *op, uint32_t index) {
  return index < op->input_count ? gpu_op_input(graph, op, index) : NULL;
}

static void describe(const tflaccel_graph_view *graph, const tflaccel_op_desc *op,
                     seq_shape *shape) {
  const tflaccel_tensor_desc *input = slot(graph, op, SEQ_INPUT);
  const tflaccel_tensor_desc *to_output = slot(graph, op, SEQ_INPUT_WEIGHTS + 3);
  int time_major = op->params->sequence_lstm.time_major != 0;
  shape->input = input->dims[input->rank - 1];
  shape->time = input->rank == 3 ? input->dims[time_major ? 0 : 1] : 1;
  shape->batch = input->rank == 3 ? input->dims[time_major ? 1 : 0] : input->dims[0];
  shape->cells = to_output->rank == 2 ? to_output->dims[0] : 0;
}

/* The integer LSTM (TFLite's 8x8_16: int8 input, output and output state,
 * int16 cell state, int8 weights, int32 biases) in the float view
 * (gpu_quant.h): the gates in float on the dequantized weights, the cell
 * state rounded onto its int16 grid and h onto the output's int8 grid at
 * every step, where TFLite's kernel quantizes them (with its zero-point
 * quirk: lower_sequence_lstm). Its fixed-point steps are simulated in the
 * gates kernel: the input and recurrent parts of each gate sum rounded to
 * Q3.12 and saturated in turn (where the input part saturates, the float
 * sum differs by whole units), the gates and the tanh of the cell on
 * Q0.15, the cell update's two products each on the cell grid; its
 * fixed-point sigmoid and tanh themselves are not (bench/RESULTS.md: how
 * far that puts the outputs). */
static int check_integer_lstm(const gpu_support_check *check) {
  const tflaccel_graph_view *graph = check->graph;
  const tflaccel_op_desc *op = check->op;
  const tflaccel_tensor_desc *input = slot(graph, op, SEQ_INPUT);
  const tflaccel_tensor_desc *output = gpu_op_output(graph, op, 0);
  const tflaccel_tensor_desc *output_state = slot(graph, op, SEQ_OUTPUT_STATE);
  const tflaccel_tensor_desc *cell_state = slot(graph, op, SEQ_CELL_STATE);
  if (input->dtype != TFLACCEL_DTYPE_INT8 || !gpu_is_quantized_activation(input))
    return gpu_decline(check, "%s with %s input: the GPU takes float32 or the int8 LSTM",
                       check->name, dtype_name(input->dtype));
  if (output_state == NULL || cell_state == NULL || output->dtype != TFLACCEL_DTYPE_INT8 ||
      output_state->dtype != TFLACCEL_DTYPE_INT8 || cell_state->dtype != TFLACCEL_DTYPE_INT16 ||
      !gpu_is_quantized_activation(output_state) || !gpu_is_quantized_activation(cell_state))
    return gpu_decline(check,
                       "integer %s without int8 output and output state and an int16 cell "
                       "state, each with one scale",
                       check->name);
  /* TFLite copies the hidden state's integers into the output state and
   * the output: one grid for all three. */
  if (op->intermediate_count != 5 || op->intermediates[4] >= graph->tensor_count ||
      !gpu_same_quantization(&graph->tensors[op->intermediates[4]], output_state) ||
      !gpu_same_quantization(output, output_state))
    return gpu_decline(check,
                       "integer %s whose output, output state and hidden state (intermediate "
                       "4) differ in quantization",
                       check->name);
  for (uint32_t g = 0; g < 8; ++g) {
    const tflaccel_tensor_desc *weights = slot(graph, op, SEQ_INPUT_WEIGHTS + g);
    if (weights != NULL && (weights->dtype != TFLACCEL_DTYPE_INT8 ||
                            weights->quantization.count != 1 ||
                            weights->quantization.zero_points == NULL ||
                            weights->quantization.zero_points[0] != 0))
      return gpu_decline(check, "integer %s weights %u are not int8 with one scale and zero 0",
                         check->name, SEQ_INPUT_WEIGHTS + g);
  }
  for (uint32_t g = 0; g < 4; ++g) {
    const tflaccel_tensor_desc *bias = slot(graph, op, SEQ_BIAS + g);
    if (bias != NULL && bias->dtype != TFLACCEL_DTYPE_INT32)
      return gpu_decline(check, "integer %s bias %u is not int32", check->name, SEQ_BIAS + g);
  }
  return 1;
}

/* Float (or int8: check_integer_lstm) LSTM with every gate, TANH, a cell clip or none, no peephole,
 * projection or layer normalization; time-major, or batch-major with batch 1 (then the
 * steps are contiguous too). Each variant the GPU does not take is named. */
static int check_sequence_lstm(const gpu_support_check *check) {
  const tflaccel_graph_view *graph = check->graph;
  const tflaccel_op_desc *op = check->op;
  const tflaccel_sequence_lstm_params *params = &op->params->sequence_lstm;
  if (op->input_count != 20 && op->input_count != 24)
    return gpu_decline(check, "%s has %u inputs, expected 20 or 24", check->name,
                       op->input_count);
  const tflaccel_tensor_desc *input = slot(graph, op, SEQ_INPUT);
  if (input->dtype != TFLACCEL_DTYPE_FLOAT32 && !check_integer_lstm(check)) return 0;
  if (params->fused_activation != TFLACCEL_ACT_TANH)
    return gpu_decline(check, "%s with activation %d: the GPU gates kernel applies TANH only",
                       check->name, (int)params->fused_activation);
  if (!(params->cell_clip >= 0.0f))
    return gpu_decline(check, "%s with cell_clip %g (must not be negative)", check->name,
                       (double)params->cell_clip);
  if (slot(graph, op, SEQ_INPUT_WEIGHTS) == NULL || slot(graph, op, SEQ_RECURRENT_WEIGHTS) == NULL ||
      slot(graph, op, SEQ_BIAS) == NULL)
    return gpu_decline(check,
                       "%s without an input gate (CIFG): the GPU gates kernel computes all four "
                       "gates",
                       check->name);
  for (uint32_t i = SEQ_PEEPHOLE; i < SEQ_PEEPHOLE + 3; ++i)
    if (slot(graph, op, i) != NULL)
      return gpu_decline(check, "%s with peephole weights: the GPU gates kernel has none",
                         check->name);
  if (slot(graph, op, SEQ_PROJECTION) != NULL || slot(graph, op, SEQ_PROJECTION + 1) != NULL)
    return gpu_decline(check, "%s with a projection: not lowered on the GPU", check->name);
  for (uint32_t i = SEQ_LAYER_NORM; i < op->input_count; ++i)
    if (slot(graph, op, i) != NULL)
      return gpu_decline(check, "%s with layer normalization: not lowered on the GPU",
                         check->name);
  if (input->rank != 2 && input->rank != 3)
    return gpu_decline(check, "%s input has rank %u, expected 2 or 3", check->name, input->rank);
  seq_shape shape;
  describe(graph, op, &shape);
  if (!params->time_major && input->rank == 3 && shape.batch != 1)
    return gpu_decline(check,
                       "%s batch-major with batch %d: the GPU steps through time-major "
                       "sequences (or batch 1) only",
                       check->name, shape.batch);
  int64_t cells = shape.cells, in = shape.input;
  if (cells < 1)
    return gpu_decline(check, "%s input-to-output weights are not 2-D", check->name);
  for (uint32_t g = 0; g < 4; ++g) {
    if (!gpu_check_constant_float(check, slot(graph, op, SEQ_INPUT_WEIGHTS + g), "input weights",
                                  cells * in) ||
        !gpu_check_constant_float(check, slot(graph, op, SEQ_RECURRENT_WEIGHTS + g),
                                  "recurrent weights", cells * cells) ||
        !gpu_check_constant_float(check, slot(graph, op, SEQ_BIAS + g), "bias", cells))
      return 0;
  }
  const tflaccel_tensor_desc *states[2] = {slot(graph, op, SEQ_OUTPUT_STATE),
                                           slot(graph, op, SEQ_CELL_STATE)};
  for (uint32_t i = 0; i < 2; ++i) {
    if (states[i] == NULL || !(states[i]->flags & TFLACCEL_TENSOR_VARIABLE))
      return gpu_decline(check, "%s %s state is not a variable tensor", check->name,
                         i == 0 ? "output" : "cell");
    if (states[i]->rank < 1 || states[i]->dims[states[i]->rank - 1] != cells ||
        gpu_tensor_element_count(states[i]) != (int64_t)shape.batch * cells)
      return gpu_decline(check, "%s %s state does not hold batch %d x %lld values", check->name,
                         i == 0 ? "output" : "cell", shape.batch, (long long)cells);
  }
  const tflaccel_tensor_desc *output = gpu_op_output(graph, op, 0);
  if (output->rank < 1 || output->dims[output->rank - 1] != cells ||
      gpu_tensor_element_count(output) != (int64_t)shape.batch * shape.time * cells)
    return gpu_decline(check, "%s output does not hold batch x time x %lld values", check->name,
                       (long long)cells);
  return 1;
}

/* The gates' weights [W_x | W_h] as one [4 * cells, input + cells] matrix
 * in gpu_conv2d's layout, the basic cell's gate order. With two parts (the
 * integer LSTM), [8 * cells, input + cells]: rows [0, 4 * cells) sum the
 * input alone ([W_x | 0]), rows [4 * cells, 8 * cells) the recurrent state
 * alone ([0 | W_h]), as TFLite requantizes and saturates them one after
 * the other. */
static tflaccel_status pack_weights(gpu_lowering *lw, const tflaccel_op_desc *op,
                                    const seq_shape *shape, int32_t parts, uint64_t *offset) {
  gpu_program *program = lw->program;
  int32_t out_c = parts * 4 * shape->cells, in_c = shape->input + shape->cells;
  int32_t out_s = (out_c + 3) / 4, in_s = (in_c + 3) / 4;
  tflaccel_status status = gpu_program_add_constants(
      lw->host, program, (uint64_t)out_s * in_s * 16 * program->element_size,
      GPU_WEIGHT_ALIGNMENT, offset);
  if (status != NULL) return status;
  uint64_t to = 0;
  for (int32_t os = 0; os < out_s; ++os)
    for (int32_t is = 0; is < in_s; ++is)
      for (int32_t ii = 0; ii < 4; ++ii)
        for (int32_t oo = 0; oo < 4; ++oo, ++to) {
          int32_t o = os * 4 + oo, i = is * 4 + ii;
          if (o >= out_c || i >= in_c) continue;
          int32_t part = o / (4 * shape->cells); /* 1: the recurrent part */
          uint32_t gate = basic_to_full_gate[o % (4 * shape->cells) / shape->cells];
          int32_t cell = o % shape->cells;
          const tflaccel_tensor_desc *weights;
          int64_t from;
          if (parts == 2 && part != (i < shape->input ? 0 : 1)) continue; /* stays zero */
          if (i < shape->input) {
            weights = slot(lw->graph, op, SEQ_INPUT_WEIGHTS + gate);
            from = (int64_t)cell * shape->input + i;
          } else {
            weights = slot(lw->graph, op, SEQ_RECURRENT_WEIGHTS + gate);
            from = (int64_t)cell * shape->cells + (i - shape->input);
          }
          gpu_program_store_constant(program, *offset, to, gpu_constant_value(weights, from));
        }
  return NULL;
}

/* The four biases in the same gate order, one vector (with two parts,
 * the recurrent part's are zero: TFLite adds the bias to the input part). */
static tflaccel_status pack_bias(gpu_lowering *lw, const tflaccel_op_desc *op,
                                 const seq_shape *shape, int32_t parts, uint64_t *offset) {
  gpu_program *program = lw->program;
  int32_t out_c = parts * 4 * shape->cells;
  tflaccel_status status = gpu_program_add_constants(
      lw->host, program, (uint64_t)(out_c + 3) / 4 * 4 * program->element_size,
      GPU_WEIGHT_ALIGNMENT, offset);
  if (status != NULL) return status;
  const tflaccel_tensor_desc *input = slot(lw->graph, op, SEQ_INPUT);
  for (int32_t o = 0; o < 4 * shape->cells; ++o) {
    uint32_t gate = basic_to_full_gate[o / shape->cells];
    const tflaccel_tensor_desc *bias = slot(lw->graph, op, SEQ_BIAS + gate);
    int32_t cell = o % shape->cells;
    float value;
    if (bias->dtype == TFLACCEL_DTYPE_INT32) {
      /* TFLite's integer LSTM adds the bias to the input product: its unit
       * is the input's scale times the input weights' (check_integer_lstm:
       * one scale each), whatever scale the bias tensor carries. */
      const tflaccel_tensor_desc *weights = slot(lw->graph, op, SEQ_INPUT_WEIGHTS + gate);
      int32_t q;
      memcpy(&q, (const uint8_t *)bias->data + (size_t)cell * 4, 4);
      value = (float)((double)q * input->quantization.scales[0] * weights->quantization.scales[0]);
    } else {
      value = gpu_constant_value(bias, cell);
    }
    gpu_program_store_constant(program, *offset, (uint64_t)o, value);
  }
  return NULL;
}

/* A [rows, channels] view sharing tensor's storage (which step it sees:
 * lower_offset_argument on the dispatch that binds it). */
static tflaccel_status step_view(gpu_lowering *lw, uint32_t tensor, int32_t rows,
                                 int32_t channels, uint32_t *view) {
  const int32_t dims[2] = {rows, channels};
  tflaccel_status status = lower_temporary(lw, gpu_shape_of_dims(2, dims), view);
  if (status == NULL) lw->tensors[*view].alias = (int32_t)tensor;
  return status;
}

/* Binds, as t0 of a dispatch whose output the next one reads, tensor
 * (seen `elements` on); no consumer is fused into it. */
static tflaccel_status write_step(gpu_lowering *lw, uint32_t dispatch, uint32_t tensor,
                                  uint32_t elements) {
  tflaccel_status status = lower_bind_output(lw, dispatch, tensor);
  if (status != NULL) return status;
  lower_offset_argument(lw, dispatch, 0, elements);
  gpu_shape shape = lw->tensors[tensor].shape;
  lower_set_work(lw, dispatch, (uint32_t)shape.w, (uint32_t)(shape.b * shape.h), (uint32_t)shape.s);
  return NULL;
}

static tflaccel_status lower_sequence_lstm(gpu_lowering *lw, uint32_t position) {
  if (!(lw->backend->caps.features & GPU_FEATURE_LSTM_GATES))
    return lw->host->status_make(TFLACCEL_UNSUPPORTED,
                                 "%s: UNIDIRECTIONAL_SEQUENCE_LSTM needs the lstm_gates kernel, "
                                 "which this backend does not offer",
                                 lw->backend->plugin_name);
  const tflaccel_op_desc *op = lower_op(lw, position);
  seq_shape shape;
  describe(lw->graph, op, &shape);
  uint32_t input = op->inputs[SEQ_INPUT], output = op->outputs[0];
  uint32_t output_state = op->inputs[SEQ_OUTPUT_STATE], cell_state = op->inputs[SEQ_CELL_STATE];
  int32_t batch = shape.batch, cells = shape.cells, total = shape.input + cells;
  float cell_clip = op->params->sequence_lstm.cell_clip; /* proj_clip: only with a projection */
  /* The integer LSTM's cell state saturates at its int16 range (2^-15
   * scale: +-1), before h is computed from it: a clip of the float state
   * there too (the gates kernel computes h from the state it clips). */
  const tflaccel_tensor_desc *cell_desc = &lw->graph->tensors[cell_state];
  int32_t integer = gpu_is_quantized_activation(cell_desc);
  float cell_scale = integer ? cell_desc->quantization.scales[0] : 0.0f;
  if (integer) {
    float range = (float)(INT16_MAX - cell_desc->quantization.zero_points[0]) *
                  cell_desc->quantization.scales[0];
    if (cell_clip <= 0.0f || cell_clip > range) cell_clip = range;
  }
  /* TFLite's integer LSTM writes h as round(h / s) - zero point, not
   * + zero point (CwiseMul subtracts it), and copies those integers into
   * the output state and the output: their real value is h - 2 x zero
   * point x s, which the gates kernel adds before the rounding post-op. */
  float activ_offset = 0.0f;
  const tflaccel_tensor_desc *output_desc = &lw->graph->tensors[output];
  if (gpu_is_quantized_activation(output_desc))
    activ_offset = -2.0f * (float)output_desc->quantization.zero_points[0] *
                   output_desc->quantization.scales[0];
  /* The integer LSTM sums the input and the recurrent part apart. */
  int32_t parts = integer ? 2 : 1;
  const int32_t rows_dims[2] = {batch, total}, sums_dims[2] = {batch, parts * 4 * cells};
  gpu_shape rows_shape = gpu_shape_of_dims(2, rows_dims);
  gpu_shape sums_shape = gpu_shape_of_dims(2, sums_dims);
  uint64_t weights_offset, bias_offset;
  tflaccel_status status = pack_weights(lw, op, &shape, parts, &weights_offset);
  if (status == NULL) status = pack_bias(lw, op, &shape, parts, &bias_offset);
  /* Elements of one step of the input and of the output (slice layout:
   * a step is `batch` pixels). */
  uint32_t input_step = (uint32_t)batch * (uint32_t)((shape.input + 3) / 4) * 4;
  uint32_t output_step = (uint32_t)batch * (uint32_t)((cells + 3) / 4) * 4;
  for (int32_t t = 0; status == NULL && t < shape.time; ++t) {
    uint32_t x, h_prev, h, rows, sums, d;
    status = step_view(lw, input, batch, shape.input, &x);
    if (status == NULL)
      status = t == 0 ? NULL : step_view(lw, output, batch, cells, &h_prev);
    if (status == NULL) status = step_view(lw, output, batch, cells, &h);
    if (status == NULL) status = lower_temporary(lw, rows_shape, &rows);
    if (status == NULL) status = lower_temporary(lw, sums_shape, &sums);
    if (t == 0) h_prev = output_state;
    /* 1. rows: channels [0, I) from x_t, [I, I + D) from h_{t-1}. */
    if (status == NULL) status = lower_add_dispatch(lw, GPU_KERNEL_CONCAT, &d);
    if (status == NULL) status = lower_bind_input(lw, d, 1, x);
    if (status == NULL) status = lower_bind_input(lw, d, 2, h_prev);
    if (status != NULL) break;
    lower_offset_argument(lw, d, 1, (uint32_t)t * input_step);
    if (t > 0) lower_offset_argument(lw, d, 2, (uint32_t)(t - 1) * output_step);
    gpu_shape in = lw->tensors[x].shape, previous = lw->tensors[h_prev].shape;
    int32_t *k = gpu_program_params(lw->program, d) + GPU_P_KERNEL;
    const int32_t concat_values[14] = {3,          2, /* channel axis, two inputs */
                                       0,          in.c,       in.h,       in.w,
                                       in.c,       in.s,       in.c,       cells,
                                       previous.h, previous.w, previous.c, previous.s};
    memcpy(k, concat_values, sizeof concat_values);
    status = write_step(lw, d, rows, 0);
    /* 2. sums: a 1x1 convolution of the rows. */
    if (status == NULL) status = lower_add_dispatch(lw, GPU_KERNEL_CONV2D, &d);
    if (status == NULL) status = lower_bind_input(lw, d, 1, rows);
    if (status != NULL) break;
    lower_bind_constants(lw, d, 2, weights_offset);
    lower_bind_constants(lw, d, 3, bias_offset);
    k = gpu_program_params(lw->program, d) + GPU_P_KERNEL;
    /* input H, W, S; KH, KW; strides; dilations; padding; one slice per item. */
    const int32_t conv_values[12] = {sums_shape.h, sums_shape.w, rows_shape.s, 1, 1, 1, 1, 1, 1,
                                     0, 0, 1};
    memcpy(k, conv_values, sizeof conv_values);
    status = write_step(lw, d, sums, 0);
    /* 3. h_t into step t of the output, and after the last step into the
     * output state; 4. the cell state, in place, last (3 reads the old). */
    const int last = t == shape.time - 1;
    const uint32_t targets[3] = {h, output_state, cell_state};
    for (uint32_t w = 0; status == NULL && w < 3; ++w) {
      if (w == 1 && !last) continue;
      status = lower_add_dispatch(lw, GPU_KERNEL_LSTM_GATES, &d);
      if (status == NULL) status = lower_bind_input(lw, d, 1, sums);
      if (status == NULL) status = lower_bind_input(lw, d, 2, cell_state);
      if (status != NULL) break;
      k = gpu_program_params(lw->program, d) + GPU_P_KERNEL;
      const int32_t gate_values[8] = {cells, sums_shape.s, lw->tensors[cell_state].shape.s,
                                      w < 2, gpu_float_bits(cell_clip),
                                      gpu_float_bits(w < 2 ? activ_offset : 0.0f),
                                      integer, gpu_float_bits(cell_scale)};
      memcpy(k, gate_values, sizeof gate_values);
      status = write_step(lw, d, targets[w], w == 0 ? (uint32_t)t * output_step : 0);
      /* The integer LSTM: onto the grid of what it writes (h: the output's). */
      uint32_t grid = w == 0 ? output : targets[w], argument = 3;
      int added = 1;
      if (status == NULL && gpu_is_quantized_activation(&lw->graph->tensors[grid]))
        status = lower_add_grid_post(lw, d, grid, &argument, &added);
      if (status == NULL && !added)
        status = lw->host->status_make(TFLACCEL_INTERNAL, "%s: no post-op room in an LSTM step",
                                       lw->backend->plugin_name);
    }
  }
  return status;
}

static const gpu_op_builder sequence_lstm_builders[] = {
    {GPU_OP_BUILTIN(UNIDIRECTIONAL_SEQUENCE_LSTM), .min_inputs = 1, .max_inputs = 24,
     .outputs = 1, .state_inputs = (1u << SEQ_OUTPUT_STATE) | (1u << SEQ_CELL_STATE),
     .supports = check_sequence_lstm, .lower = lower_sequence_lstm},
};
const gpu_op_family gpu_ops_sequence_lstm = {
    sequence_lstm_builders, sizeof sequence_lstm_builders / sizeof sequence_lstm_builders[0]};
