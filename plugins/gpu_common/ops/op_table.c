/* The op table: op -> builder (gpu_op_builder.h), the one place both the
 * support query and the lowering driver find an op's rules and lowering. */
#include "config.h"

#include <string.h>

#include "plugins/gpu_common/gpu_op_builder.h"
#include "plugins/gpu_common/ops/op_families.h"

static const gpu_op_family *const op_families[] = {
    &gpu_ops_conv,
    &gpu_ops_transpose_conv,
    &gpu_ops_fully_connected,
    &gpu_ops_lstm,
    &gpu_ops_sequence_lstm,
    &gpu_ops_svdf,
    &gpu_ops_elementwise,
    &gpu_ops_pool,
    &gpu_ops_softmax,
    &gpu_ops_pad,
    &gpu_ops_concat,
    &gpu_ops_reshape,
    &gpu_ops_strided_slice,
    &gpu_ops_depth_to_space,
    &gpu_ops_resize,
    &gpu_ops_quantize,
    &gpu_ops_transpose,
    &gpu_ops_pack,
    &gpu_ops_arg_max,
    &gpu_ops_cast,
    &gpu_ops_gather_nd,
    &gpu_ops_mediapipe_transform,
};

const gpu_op_builder *gpu_op_builder_find(const tflaccel_op_desc *op) {
  for (size_t f = 0; f < sizeof op_families / sizeof op_families[0]; ++f)
    for (size_t b = 0; b < op_families[f]->count; ++b) {
      const gpu_op_builder *builder = &op_families[f]->builders[b];
      if (builder->code != op->code) continue;
      if (op->code == TFLACCEL_OP_CUSTOM &&
          (op->custom_code == NULL || builder->custom_code == NULL ||
           strcmp(op->custom_code, builder->custom_code) != 0))
        continue;
      return builder;
    }
  return NULL;
}
