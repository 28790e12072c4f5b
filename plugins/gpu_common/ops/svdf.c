/* SVDF (TFLite's rank-decomposed recurrent filter; cpu_ref's
 * kernels/quantized/svdf.c is the reference), lowered as three dispatches:
 *   1. gpu_svdf_state: a temporary <- the state shifted by one frame, each
 *      filter's newest slot its feature filter's dot product with the
 *      input (the integer SVDF's rounded onto the state's int16 grid,
 *      where TFLite's kernel requantizes it);
 *   2. gpu_svdf_output: the output <- per unit, the bias plus the time
 *      filter of each of its `rank` filters over the new state, then the
 *      activation (post-ops; TANH in the kernel) or, for the integer SVDF,
 *      the output's int8 grid (lower_finish's post-op);
 *   3. an elementwise copy of the temporary into the state.
 * The state is a variable tensor in the state buffer (gpu_state.h): each
 * run starts from the last run's, reset_state from its initial value. The
 * shift cannot happen in place (an item would read a slot its neighbour
 * has already moved), hence the temporary.
 * The integer SVDF computes TFLite's integers, not the float view's real
 * values: its int32 sums of int16 x int16 products wrap (cpu_ref's do
 * too), which no float computes, and models with large weights
 * (tflm__keyword_scrambled) do wrap. Its int16 state and time weights and
 * int32 bias are held as exact byte digits (two or four values each, so
 * that fp16 storage holds them exactly too); only the two requantizations
 * (to the state's int16, and the output's int8 by lower_finish's post-op)
 * round in float instead of TFLite's fixed point: a tie may go the other
 * way. */
#include "config.h"

#include <stdint.h>
#include <string.h>

#include "core/facts/dtype.h"

#include "plugins/gpu_common/gpu_emit.h"
#include "plugins/gpu_common/gpu_emit_conv.h"
#include "plugins/gpu_common/gpu_op_builder.h"
#include "plugins/gpu_common/gpu_op_math.h"
#include "plugins/gpu_common/gpu_quant.h"
#include "plugins/gpu_common/ops/op_families.h"

enum { SVDF_INPUT = 0, SVDF_WEIGHTS_FEATURE, SVDF_WEIGHTS_TIME, SVDF_BIAS, SVDF_STATE };

typedef struct svdf_shape {
  int32_t batch, inputs, filters, memory, rank, units;
} svdf_shape;

static const tflaccel_tensor_desc *slot(const tflaccel_graph_view *graph,
                                        const tflaccel_op_desc *op, uint32_t index) {
  return index < op->input_count ? gpu_op_input(graph, op, index) : NULL;
}

/* Only after check_svdf's shape rules. */
static void describe(const tflaccel_graph_view *graph, const tflaccel_op_desc *op,
                     svdf_shape *shape) {
  const tflaccel_tensor_desc *input = slot(graph, op, SVDF_INPUT);
  const tflaccel_tensor_desc *feature = slot(graph, op, SVDF_WEIGHTS_FEATURE);
  const tflaccel_tensor_desc *time = slot(graph, op, SVDF_WEIGHTS_TIME);
  shape->batch = input->dims[0];
  shape->inputs = input->dims[1];
  shape->filters = feature->dims[0];
  shape->memory = time->dims[1];
  shape->rank = op->params->svdf.rank;
  shape->units = shape->rank > 0 ? shape->filters / shape->rank : 0;
}

static int is_per_tensor(const tflaccel_tensor_desc *tensor, int32_t dtype) {
  const tflaccel_quantization *q = &tensor->quantization;
  return tensor->dtype == dtype && q->count == 1 && q->scales != NULL &&
         q->zero_points != NULL;
}

/* TFLite's integer SVDF: int8 input and output, int8 feature weights,
 * int16 time weights and state (symmetric), each with one scale, and an
 * int32 bias or none. */
static int check_integer_svdf(const gpu_support_check *check) {
  const tflaccel_graph_view *graph = check->graph;
  const tflaccel_op_desc *op = check->op;
  const tflaccel_tensor_desc *input = slot(graph, op, SVDF_INPUT);
  const tflaccel_tensor_desc *output = gpu_op_output(graph, op, 0);
  const tflaccel_tensor_desc *state = slot(graph, op, SVDF_STATE);
  const tflaccel_tensor_desc *bias = slot(graph, op, SVDF_BIAS);
  if (input->dtype != TFLACCEL_DTYPE_INT8 || !gpu_is_quantized_activation(input) ||
      output->dtype != TFLACCEL_DTYPE_INT8 || !gpu_is_quantized_activation(output))
    return gpu_decline(check,
                       "%s with %s input and %s output: the GPU takes float32 or the integer "
                       "SVDF (int8 input and output, one scale each)",
                       check->name, dtype_name(input->dtype), dtype_name(output->dtype));
  if (state->dtype != TFLACCEL_DTYPE_INT16 || !gpu_is_quantized_activation(state) ||
      state->quantization.zero_points[0] != 0)
    return gpu_decline(check, "integer %s whose state is not int16 with one scale and zero 0",
                       check->name);
  if (!is_per_tensor(slot(graph, op, SVDF_WEIGHTS_FEATURE), TFLACCEL_DTYPE_INT8) ||
      !is_per_tensor(slot(graph, op, SVDF_WEIGHTS_TIME), TFLACCEL_DTYPE_INT16))
    return gpu_decline(check,
                       "integer %s without int8 feature and int16 time weights, one scale each",
                       check->name);
  if (bias != NULL && bias->dtype != TFLACCEL_DTYPE_INT32)
    return gpu_decline(check, "integer %s bias is %s, not int32", check->name,
                       dtype_name(bias->dtype));
  return 1;
}

static int check_float_svdf(const gpu_support_check *check) {
  const tflaccel_graph_view *graph = check->graph;
  const tflaccel_op_desc *op = check->op;
  const tflaccel_tensor_desc *tensors[5] = {
      slot(graph, op, SVDF_WEIGHTS_FEATURE), slot(graph, op, SVDF_WEIGHTS_TIME),
      slot(graph, op, SVDF_BIAS), slot(graph, op, SVDF_STATE), gpu_op_output(graph, op, 0)};
  for (uint32_t i = 0; i < 5; ++i)
    if (tensors[i] != NULL && tensors[i]->dtype != TFLACCEL_DTYPE_FLOAT32)
      return gpu_decline(check,
                         "float %s with a %s tensor (hybrid SVDF): the GPU takes float32 or the "
                         "integer SVDF",
                         check->name, dtype_name(tensors[i]->dtype));
  int32_t activation = op->params->svdf.fused_activation;
  if (activation != TFLACCEL_ACT_TANH && !gpu_check_activation(check, activation)) return 0;
  return 1;
}

/* Float32 or integer SVDF (cpu_ref's rules) with a [batch, inputs] input,
 * a [batch, filters x memory] variable state and constant weights. */
static int check_svdf(const gpu_support_check *check) {
  const tflaccel_graph_view *graph = check->graph;
  const tflaccel_op_desc *op = check->op;
  const tflaccel_tensor_desc *input = slot(graph, op, SVDF_INPUT);
  const tflaccel_tensor_desc *feature = slot(graph, op, SVDF_WEIGHTS_FEATURE);
  const tflaccel_tensor_desc *time = slot(graph, op, SVDF_WEIGHTS_TIME);
  const tflaccel_tensor_desc *state = slot(graph, op, SVDF_STATE);
  const tflaccel_tensor_desc *output = gpu_op_output(graph, op, 0);
  if (input == NULL || feature == NULL || time == NULL || state == NULL)
    return gpu_decline(check, "%s needs input, feature weights, time weights and state",
                       check->name);
  if (input->rank != 2 || feature->rank != 2 || time->rank != 2)
    return gpu_decline(check, "%s input and weights must be 2-D", check->name);
  svdf_shape shape;
  describe(graph, op, &shape);
  if (shape.rank < 1 || shape.filters % shape.rank != 0)
    return gpu_decline(check, "%s: %d filters are not a multiple of rank %d", check->name,
                       shape.filters, shape.rank);
  if (feature->dims[1] != shape.inputs || time->dims[0] != shape.filters || shape.memory < 1)
    return gpu_decline(check, "%s weights do not match %d inputs and %d filters", check->name,
                       shape.inputs, shape.filters);
  if (!(state->flags & TFLACCEL_TENSOR_VARIABLE))
    return gpu_decline(check, "%s state is not a variable tensor", check->name);
  /* The kernels see the state as [batch, filters x memory]. */
  if (state->rank != 2 || state->dims[0] != shape.batch ||
      state->dims[1] != (int64_t)shape.filters * shape.memory)
    return gpu_decline(check, "%s state is not [%d, %lld]", check->name, shape.batch,
                       (long long)shape.filters * shape.memory);
  if (output->rank != 2 || output->dims[0] != shape.batch || output->dims[1] != shape.units)
    return gpu_decline(check, "%s output is not [%d, %d]", check->name, shape.batch,
                       shape.units);
  if (input->dtype == TFLACCEL_DTYPE_FLOAT32 ? !check_float_svdf(check)
                                             : !check_integer_svdf(check))
    return 0;
  return gpu_check_constant_float(check, feature, "feature weights",
                                  (int64_t)shape.filters * shape.inputs) &&
         gpu_check_constant_float(check, time, "time weights",
                                  (int64_t)shape.filters * shape.memory) &&
         (slot(graph, op, SVDF_BIAS) == NULL ||
          gpu_check_constant_float(check, slot(graph, op, SVDF_BIAS), "bias", shape.units));
}

/* Byte digit k (0 lowest) of an integer: digits 0 .. top - 1 are 0..255,
 * digit `top` holds the rest, signed, so that value = sum digit_k 256^k. */
static float integer_digit(int64_t value, int k, int top) {
  int64_t low = value - (value / 256 - (value % 256 < 0)) * 256; /* value mod 256 */
  if (k == 0) return top == 0 ? (float)value : (float)low;
  return integer_digit((value - low) / 256, k - 1, top - 1);
}

/* An int16 or int32 constant's integers as `digits` planes of `count` byte
 * digits each (plane k: digit k of every element). */
static tflaccel_status pack_digits(gpu_lowering *lw, const tflaccel_tensor_desc *tensor,
                                   int64_t count, int digits, uint64_t *offset) {
  gpu_program *program = lw->program;
  tflaccel_status status = gpu_program_add_constants(
      lw->host, program, (uint64_t)(count * digits) * program->element_size,
      GPU_WEIGHT_ALIGNMENT, offset);
  if (status != NULL) return status;
  for (int64_t i = 0; i < count; ++i) {
    int64_t value;
    if (tensor->dtype == TFLACCEL_DTYPE_INT16) {
      int16_t q;
      memcpy(&q, (const uint8_t *)tensor->data + i * 2, 2);
      value = q;
    } else {
      int32_t q;
      memcpy(&q, (const uint8_t *)tensor->data + i * 4, 4);
      value = q;
    }
    for (int k = 0; k < digits; ++k)
      gpu_program_store_constant(program, *offset, (uint64_t)(k * count + i),
                                 integer_digit(value, k, digits - 1));
  }
  return NULL;
}

/* The integer SVDF's state in the state buffer: each int16 value as two
 * digits (low byte at channel e, high at filters x memory + e), its
 * initial value (the model's data, else 0) written here. */
static void write_state_digits(gpu_lowering *lw, uint32_t state, int32_t values) {
  const tflaccel_tensor_desc *desc = &lw->graph->tensors[state];
  const lower_tensor *lt = &lw->tensors[state];
  gpu_program *program = lw->program;
  int has_data = desc->data != NULL && desc->data_size >= desc->byte_size;
  for (int64_t p = 0; p < gpu_shape_pixels(lt->shape); ++p)
    for (int32_t e = 0; e < values; ++e) {
      int16_t q = 0;
      if (has_data) memcpy(&q, (const uint8_t *)desc->data + (p * values + e) * 2, 2);
      for (int k = 0; k < 2; ++k)
        gpu_store_value(program->state_initial + lt->constant_offset, program->element_size,
                        (uint64_t)(p * lt->shape.s * 4 + k * values + e),
                        integer_digit(q, k, 1));
    }
}

/* A weights tensor as `count` scalars in its own order: dequantized, or
 * (raw) the integers of an int8 one. */
static tflaccel_status pack_scalars(gpu_lowering *lw, const tflaccel_tensor_desc *tensor,
                                    int64_t count, int raw, uint64_t *offset) {
  gpu_program *program = lw->program;
  tflaccel_status status =
      gpu_program_add_constants(lw->host, program, (uint64_t)count * program->element_size,
                                GPU_WEIGHT_ALIGNMENT, offset);
  if (status != NULL) return status;
  for (int64_t i = 0; i < count; ++i)
    gpu_program_store_constant(
        program, *offset, (uint64_t)i,
        raw ? (float)((const int8_t *)tensor->data)[i] : gpu_constant_value(tensor, i));
  return NULL;
}

static tflaccel_status lower_svdf(gpu_lowering *lw, uint32_t position) {
  if (!(lw->backend->caps.features & GPU_FEATURE_SVDF))
    return lw->host->status_make(TFLACCEL_UNSUPPORTED,
                                 "%s: SVDF needs the svdf kernels, which this backend does not "
                                 "offer",
                                 lw->backend->plugin_name);
  const tflaccel_op_desc *op = lower_op(lw, position);
  svdf_shape shape;
  describe(lw->graph, op, &shape);
  uint32_t input = op->inputs[SVDF_INPUT], state = op->inputs[SVDF_STATE];
  const tflaccel_tensor_desc *state_desc = &lw->graph->tensors[state];
  int integer = state_desc->dtype == TFLACCEL_DTYPE_INT16;
  int has_bias = slot(lw->graph, op, SVDF_BIAS) != NULL;
  const tflaccel_tensor_desc *feature = slot(lw->graph, op, SVDF_WEIGHTS_FEATURE);
  const tflaccel_tensor_desc *time = slot(lw->graph, op, SVDF_WEIGHTS_TIME);
  const tflaccel_tensor_desc *bias = slot(lw->graph, op, SVDF_BIAS);
  int32_t values = shape.filters * shape.memory; /* per batch */
  uint64_t feature_offset, time_offset, bias_offset = 0;
  tflaccel_status status = pack_scalars(lw, feature, (int64_t)shape.filters * shape.inputs,
                                        integer, &feature_offset);
  if (status == NULL)
    status = integer ? pack_digits(lw, time, values, 2, &time_offset)
                     : pack_scalars(lw, time, values, 0, &time_offset);
  if (status == NULL && has_bias)
    status = integer ? pack_digits(lw, bias, shape.units, 4, &bias_offset)
                     : pack_scalars(lw, bias, shape.units, 0, &bias_offset);
  /* The integer state: two digits a value (placed at its first binding). */
  if (integer) {
    const int32_t digit_dims[2] = {shape.batch, 2 * values};
    lw->tensors[state].shape = gpu_shape_of_dims(2, digit_dims);
  }
  gpu_shape state_shape = lw->tensors[state].shape;
  uint32_t shifted, d;
  if (status == NULL) status = lower_temporary(lw, state_shape, &shifted);
  /* 1. The shifted state with the new frame. */
  if (status == NULL) status = lower_add_dispatch(lw, GPU_KERNEL_SVDF_STATE, &d);
  if (status == NULL) status = lower_bind_input(lw, d, 1, state);
  if (status == NULL) status = lower_bind_input(lw, d, 2, input);
  if (status != NULL) return status;
  if (integer) write_state_digits(lw, state, values);
  lower_bind_constants(lw, d, 3, feature_offset);
  int32_t *k = gpu_program_params(lw->program, d) + GPU_P_KERNEL;
  const tflaccel_tensor_desc *input_desc = &lw->graph->tensors[input];
  float input_scale = integer ? input_desc->quantization.scales[0] : 1.0f;
  /* As TFLite computes the multiplier: in float, then to double. */
  float feature_multiplier =
      integer ? input_scale * feature->quantization.scales[0] / state_desc->quantization.scales[0]
              : 1.0f;
  const int32_t state_values[8] = {shape.memory,
                                   shape.inputs,
                                   state_shape.s,
                                   lw->tensors[input].shape.s,
                                   integer,
                                   gpu_float_bits(feature_multiplier),
                                   gpu_float_bits(input_scale),
                                   values};
  memcpy(k, state_values, sizeof state_values);
  status = lower_bind_output(lw, d, shifted);
  if (status != NULL) return status;
  lower_set_work(lw, d, (uint32_t)state_shape.w, (uint32_t)(state_shape.b * state_shape.h),
                 (uint32_t)state_shape.s);
  /* 2. The output from the shifted state. */
  status = lower_add_dispatch(lw, GPU_KERNEL_SVDF_OUTPUT, &d);
  if (status == NULL) status = lower_bind_input(lw, d, 1, shifted);
  if (status != NULL) return status;
  lower_bind_constants(lw, d, 2, time_offset);
  if (has_bias) lower_bind_constants(lw, d, 3, bias_offset);
  int32_t activation = op->params->svdf.fused_activation;
  k = gpu_program_params(lw->program, d) + GPU_P_KERNEL;
  float sum_scale =
      integer ? state_desc->quantization.scales[0] * time->quantization.scales[0] : 1.0f;
  const int32_t output_values[9] = {shape.memory,
                                    shape.rank,
                                    state_shape.s,
                                    has_bias,
                                    !integer && activation == TFLACCEL_ACT_TANH,
                                    integer,
                                    gpu_float_bits(sum_scale),
                                    values,
                                    shape.units};
  memcpy(k, output_values, sizeof output_values);
  /* TFLite's integer SVDF ignores the fused activation: the output's
   * range clamps instead. */
  if (!integer && activation != TFLACCEL_ACT_TANH) lower_add_activation(lw, d, activation);
  status = lower_finish(lw, d, 4, op->outputs[0]);
  if (status != NULL) return status;
  /* 3. The shifted state becomes the state (already on its grid). */
  status = lower_add_dispatch(lw, GPU_KERNEL_ELEMENTWISE, &d);
  if (status == NULL) status = lower_bind_input(lw, d, 1, shifted);
  if (status == NULL) status = lower_bind_output(lw, d, state);
  if (status != NULL) return status;
  lower_operand_strides(state_shape, state_shape,
                        gpu_program_params(lw->program, d) + GPU_P_KERNEL);
  lower_set_work(lw, d, (uint32_t)state_shape.w, (uint32_t)(state_shape.b * state_shape.h),
                 (uint32_t)state_shape.s);
  return NULL;
}

static const gpu_op_builder svdf_builders[] = {
    {GPU_OP_BUILTIN(SVDF), .min_inputs = 3, .max_inputs = 5, .outputs = 1,
     .state_inputs = 1u << SVDF_STATE, .supports = check_svdf, .lower = lower_svdf},
};
const gpu_op_family gpu_ops_svdf = {svdf_builders, sizeof svdf_builders / sizeof svdf_builders[0]};
