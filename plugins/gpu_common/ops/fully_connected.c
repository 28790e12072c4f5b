/* FULLY_CONNECTED: a 1x1 convolution over rows of `depth` values (rows
 * that cross pixels are gathered into [rows, depth] first). */
#include "config.h"

#include <string.h>

#include "plugins/gpu_common/gpu_emit.h"
#include "plugins/gpu_common/gpu_emit_conv.h"
#include "plugins/gpu_common/gpu_op_builder.h"
#include "plugins/gpu_common/gpu_op_math.h"
#include "plugins/gpu_common/ops/op_families.h"

static int check_fully_connected(const gpu_support_check *check) {
  const tflaccel_graph_view *graph = check->graph;
  const tflaccel_op_desc *op = check->op;
  const tflaccel_tensor_desc *input = gpu_op_input(graph, op, 0);
  const tflaccel_tensor_desc *weights = gpu_op_input(graph, op, 1);
  const tflaccel_tensor_desc *bias = gpu_op_input(graph, op, 2);
  const tflaccel_tensor_desc *output = gpu_op_output(graph, op, 0);
  const tflaccel_fully_connected_params *params = &op->params->fully_connected;
  if (weights->rank != 2) return gpu_decline(check, "FULLY_CONNECTED weights must be 2-D");
  if (!gpu_check_constant_float(check, weights, "weights", -1)) return 0;
  if (bias != NULL && !gpu_check_constant_float(check, bias, "bias", weights->dims[0])) return 0;
  if (params->weights_format != 0)
    return gpu_decline(check, "FULLY_CONNECTED with shuffled weights format %d",
                       (int)params->weights_format);
  if (!gpu_check_activation(check, params->fused_activation)) return 0;
  int32_t units = weights->dims[0], depth = weights->dims[1];
  int64_t count = gpu_tensor_element_count(input);
  if (depth < 1 || count % depth != 0)
    return gpu_decline(check, "FULLY_CONNECTED input of %lld elements is not rows of %d",
                       (long long)count, (int)depth);
  if (output->rank == 0 || output->dims[output->rank - 1] != units ||
      gpu_tensor_element_count(output) != count / depth * units)
    return gpu_decline(check, "FULLY_CONNECTED output shape does not hold %lld rows of %d units",
                       (long long)(count / depth), (int)units);
  return 1;
}

/* The op as a 1x1 convolution over rows of `depth` values (`input`: its
 * input, or those rows gathered), seen with the output's pixel grid. */
static void setup_of(const gpu_lowering *lw, const tflaccel_op_desc *op, uint32_t input,
                     lower_conv_setup *setup) {
  const tflaccel_tensor_desc *weights = gpu_op_input(lw->graph, op, 1);
  gpu_shape out = lw->tensors[op->outputs[0]].shape;
  memset(setup, 0, sizeof *setup);
  setup->input = input;
  setup->in_h = out.h;
  setup->in_w = out.w;
  setup->kh = setup->kw = setup->stride_h = setup->stride_w = 1;
  setup->dilation_h = setup->dilation_w = 1;
  setup->activation = op->params->fully_connected.fused_activation;
  setup->weights = weights;
  setup->bias = gpu_op_input(lw->graph, op, 2);
  setup->out_c = weights->dims[0];
  setup->in_c = weights->dims[1];
  setup->in_s = lw->tensors[input].shape.s;
  setup->order_free = lower_order_is_free(lw->graph, op->outputs[0]);
}

/* Rows that are the input's pixels (no gather) summed by GPU_KERNEL_CONV2D
 * read the input as it is. */
static int reads_input_words(const gpu_lowering *lw, uint32_t position) {
  const tflaccel_op_desc *op = lower_op(lw, position);
  uint32_t input = op->inputs[0];
  if (lw->tensors[input].shape.c != gpu_op_input(lw->graph, op, 1)->dims[1]) return 0;
  lower_conv_setup setup;
  setup_of(lw, op, input, &setup);
  return lower_conv_kernel(lw, &setup, lw->tensors[op->outputs[0]].shape) == GPU_KERNEL_CONV2D;
}

static tflaccel_status lower_fully_connected(gpu_lowering *lw, uint32_t position) {
  const tflaccel_op_desc *op = lower_op(lw, position);
  const tflaccel_tensor_desc *weights = gpu_op_input(lw->graph, op, 1);
  int32_t depth = weights->dims[1];
  uint32_t input = op->inputs[0];
  gpu_shape in = lw->tensors[input].shape, out = lw->tensors[op->outputs[0]].shape;
  tflaccel_status status = NULL;
  if (in.c != depth) {
    /* Rows of `depth` that cross pixels: flatten into [rows, depth] first. */
    int32_t dims[2] = {(int32_t)(gpu_shape_elements(in) / depth), depth};
    gpu_shape flat = gpu_shape_of_dims(2, dims);
    uint32_t temporary, d;
    status = lower_temporary(lw, flat, &temporary);
    if (status == NULL) status = lower_add_dispatch(lw, GPU_KERNEL_BOX_GATHER, &d);
    if (status == NULL) status = lower_bind_input(lw, d, 1, input);
    if (status != NULL) return status;
    int32_t *k = gpu_program_params(lw->program, d) + GPU_P_KERNEL;
    int32_t values[18] = {in.b, in.h, in.w, in.c, in.s, 0,    0,    0,    0,
                          1,    1,    1,    1,    in.b, in.h, in.w, in.c, 0};
    memcpy(k, values, sizeof values);
    status = lower_bind_output(lw, d, temporary);
    if (status != NULL) return status;
    lower_set_work(lw, d, (uint32_t)flat.w, (uint32_t)(flat.b * flat.h), (uint32_t)flat.s);
    input = temporary;
  }
  lower_conv_setup setup;
  setup_of(lw, op, input, &setup);
  /* The input's pixels must be the output's rows in the same order. */
  gpu_shape rows = lw->tensors[input].shape;
  if (gpu_shape_pixels(rows) != gpu_shape_pixels(out))
    return lw->host->status_make(TFLACCEL_INTERNAL,
                                 "%s: FULLY_CONNECTED rows (%lld) and outputs (%lld) disagree",
                                 lw->backend->plugin_name, (long long)gpu_shape_pixels(rows),
                                 (long long)gpu_shape_pixels(out));
  return lower_emit_conv(lw, &setup, op->outputs[0]);
}

static const gpu_op_builder fully_connected_builders[] = {
    {GPU_OP_BUILTIN(FULLY_CONNECTED), .min_inputs = 2, .max_inputs = 3, .outputs = 1,
     .supports = check_fully_connected, .lower = lower_fully_connected,
     .reads_input_words = reads_input_words},
};
const gpu_op_family gpu_ops_fully_connected = {
    fully_connected_builders, sizeof fully_connected_builders / sizeof fully_connected_builders[0]};
