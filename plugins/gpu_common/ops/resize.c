/* RESIZE_BILINEAR and RESIZE_NEAREST_NEIGHBOR: one kernel (gpu_resize). */
#include "config.h"

#include "plugins/gpu_common/gpu_emit.h"
#include "plugins/gpu_common/gpu_op_builder.h"
#include "plugins/gpu_common/gpu_op_math.h"
#include "plugins/gpu_common/gpu_slice.h"
#include "plugins/gpu_common/ops/op_families.h"

static int check_resize(const gpu_support_check *check) {
  const tflaccel_tensor_desc *input = gpu_op_input(check->graph, check->op, 0);
  const tflaccel_tensor_desc *size = gpu_op_input(check->graph, check->op, 1);
  const tflaccel_tensor_desc *output = gpu_op_output(check->graph, check->op, 0);
  const tflaccel_resize_params *p = &check->op->params->resize;
  if (input->rank != 4 || output->rank != 4)
    return gpu_decline(check, "%s needs 4-D input and output", check->name);
  if (p->align_corners && p->half_pixel_centers)
    return gpu_decline(check, "%s: align_corners and half_pixel_centers are exclusive",
                       check->name);
  if (output->dims[0] != input->dims[0] || output->dims[3] != input->dims[3])
    return gpu_decline(check, "%s must keep batch and channels", check->name);
  if (size != NULL && gpu_tensor_is_constant(size)) {
    if (size->dtype != TFLACCEL_DTYPE_INT32 || gpu_tensor_element_count(size) != 2 ||
        gpu_index_value(size, 0) != output->dims[1] || gpu_index_value(size, 1) != output->dims[2])
      return gpu_decline(check, "%s size input differs from the output tensor", check->name);
  }
  return 1;
}

/* TFLite's scale: in / out, or (in - 1) / (out - 1) with align_corners. */
static float resize_scale(int32_t in, int32_t out, int align_corners) {
  if (align_corners && out > 1) return (float)(in - 1) / (float)(out - 1);
  return (float)in / (float)out;
}

static tflaccel_status lower_resize(gpu_lowering *lw, uint32_t position) {
  const tflaccel_op_desc *op = lower_op(lw, position);
  gpu_shape in = lw->tensors[op->inputs[0]].shape, out = lw->tensors[op->outputs[0]].shape;
  int align = op->params->resize.align_corners != 0;
  int32_t values[] = {in.h,
                      in.w,
                      in.s,
                      gpu_float_bits(resize_scale(in.h, out.h, align)),
                      gpu_float_bits(resize_scale(in.w, out.w, align)),
                      op->code == TFLACCEL_OP_RESIZE_BILINEAR,
                      align,
                      op->params->resize.half_pixel_centers != 0};
  uint32_t d;
  tflaccel_status status = lower_start_dispatch(lw, GPU_KERNEL_RESIZE, op->inputs[0], values,
                                                sizeof values / sizeof values[0], &d);
  if (status != NULL) return status;
  return lower_finish(lw, d, 2, op->outputs[0]);
}

static const gpu_op_builder resize_builders[] = {
    {GPU_OP_BUILTIN(RESIZE_BILINEAR), .min_inputs = 1, .max_inputs = 2, .outputs = 1,
     .index_inputs = 1u << 1 /* size */, .supports = check_resize, .lower = lower_resize},
    {GPU_OP_BUILTIN(RESIZE_NEAREST_NEIGHBOR), .min_inputs = 1, .max_inputs = 2, .outputs = 1,
     .index_inputs = 1u << 1 /* size */, .supports = check_resize, .lower = lower_resize},
};
const gpu_op_family gpu_ops_resize = {resize_builders,
                                      sizeof resize_builders / sizeof resize_builders[0]};
