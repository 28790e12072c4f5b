/* MediaPipe's transform custom ops (version 2), the ones
 * face_landmark_with_attention runs between its feature maps and its
 * landmark heads: Landmarks2TransformMatrix (the crop matrix of a set of
 * landmarks), TransformTensorBilinear (a crop of a feature map through
 * that matrix) and TransformLandmarks (landmarks mapped back through it).
 * Dense float math, one dispatch each (kernels/cl/mediapipe_transform.cl,
 * kernels/glsl/<op>.comp), computed as cpu_ref's kernels compute them
 * (plugins/cpu_ref/kernels/custom/): the support checks take what
 * cpu_ref takes, less what the GPU layout cannot hold (below). The
 * options of Landmarks2TransformMatrix are read by the facts library
 * (core/facts/landmarks_to_transform_matrix.h), as cpu_ref reads them. */
#include "config.h"

#include <string.h>

#include "core/facts/landmarks_to_transform_matrix.h"
#include "plugins/gpu_common/gpu_emit.h"
#include "plugins/gpu_common/gpu_op_builder.h"
#include "plugins/gpu_common/gpu_op_math.h"
#include "plugins/gpu_common/ops/op_families.h"

/* Landmark indices are kept as float values in the constants: exact in
 * fp16 up to 2^11. */
#define MAX_FP16_EXACT_INDEX 2048

static int check_float32(const gpu_support_check *check, const tflaccel_tensor_desc *tensor,
                         const char *role) {
  if (tensor->dtype != TFLACCEL_DTYPE_FLOAT32 || tensor->quantization.count > 0)
    return gpu_decline(check, "%s %s is %s, expected float32", check->name, role,
                       dtype_name(tensor->dtype));
  return 1;
}

/* A 4x4 matrix as a [1, 4, 4] tensor (leading 1s allowed): row r is
 * pixel r of the 4-D view, one slice each, as the kernels read it. */
static int check_matrix(const gpu_support_check *check, const tflaccel_tensor_desc *tensor,
                        const char *role) {
  if (!check_float32(check, tensor, role)) return 0;
  int ok = tensor->rank >= 2 && tensor->rank <= 4 && tensor->dims[tensor->rank - 1] == 4 &&
           tensor->dims[tensor->rank - 2] == 4;
  for (uint32_t i = 0; ok && i + 2 < tensor->rank; ++i) ok = tensor->dims[i] == 1;
  if (!ok) return gpu_decline(check, "%s %s must be [1, 4, 4] (a 4x4 matrix)", check->name, role);
  return 1;
}

/* Landmarks [1, N, D] with D in [min_d, max_d]. */
static int check_landmarks(const gpu_support_check *check, const tflaccel_tensor_desc *tensor,
                           const char *role, int32_t min_d, int32_t max_d) {
  if (!check_float32(check, tensor, role)) return 0;
  if (tensor->rank != 3 || tensor->dims[0] != 1 || tensor->dims[2] < min_d ||
      tensor->dims[2] > max_d)
    return gpu_decline(check, "%s %s must be [1, N, %s] (version 2)", check->name, role,
                       min_d == max_d ? "3" : "2 or 3");
  return 1;
}

static int check_landmarks_to_transform_matrix(const gpu_support_check *check) {
  const tflaccel_tensor_desc *input = gpu_op_input(check->graph, check->op, 0);
  if (!check_landmarks(check, input, "input", 3, 3) ||
      !check_matrix(check, gpu_op_output(check->graph, check->op, 0), "output"))
    return 0;
  if (input->dims[1] > MAX_FP16_EXACT_INDEX)
    return gpu_decline(check, "%s has %d landmarks: the GPU layer holds their indices as float "
                       "values, exact in fp16 only up to %d", check->name, input->dims[1],
                       MAX_FP16_EXACT_INDEX);
  landmarks_to_transform_matrix_options options;
  char why[TFLACCEL_REASON_SIZE];
  if (!landmarks_to_transform_matrix_options_parse(check->op->custom_options,
                                                   check->op->custom_options_size,
                                                   input->dims[1], &options, why, sizeof why))
    return gpu_decline(check, "%s", why);
  return 1;
}

static int check_transform_tensor_bilinear(const gpu_support_check *check) {
  const tflaccel_tensor_desc *input = gpu_op_input(check->graph, check->op, 0);
  const tflaccel_tensor_desc *output = gpu_op_output(check->graph, check->op, 0);
  if (!check_float32(check, input, "input") || !check_float32(check, output, "output") ||
      !check_matrix(check, gpu_op_input(check->graph, check->op, 1), "matrix"))
    return 0;
  if (input->rank != 4 || output->rank != 4 || input->dims[0] != 1 || output->dims[0] != 1)
    return gpu_decline(check, "%s needs [1, H, W, C] input and output", check->name);
  if (input->dims[3] != output->dims[3])
    return gpu_decline(check, "%s: output has %d channels, input %d", check->name,
                       output->dims[3], input->dims[3]);
  return 1;
}

static int check_transform_landmarks(const gpu_support_check *check) {
  const tflaccel_tensor_desc *input = gpu_op_input(check->graph, check->op, 0);
  const tflaccel_tensor_desc *output = gpu_op_output(check->graph, check->op, 0);
  if (!check_landmarks(check, input, "landmarks", 2, 3) ||
      !check_matrix(check, gpu_op_input(check->graph, check->op, 1), "matrix"))
    return 0;
  return gpu_check_same_shape(check, input, output, "landmarks and output");
}

static tflaccel_status require_feature(const gpu_lowering *lw) {
  if (lw->backend->caps.features & GPU_FEATURE_MEDIAPIPE_TRANSFORMS) return NULL;
  return lw->host->status_make(TFLACCEL_UNSUPPORTED,
                               "%s: MediaPipe's transform ops need kernels this backend does "
                               "not offer", lw->backend->plugin_name);
}

static tflaccel_status lower_landmarks_to_transform_matrix(gpu_lowering *lw, uint32_t position) {
  tflaccel_status status = require_feature(lw);
  if (status != NULL) return status;
  const tflaccel_op_desc *op = lower_op(lw, position);
  const tflaccel_tensor_desc *input = &lw->graph->tensors[op->inputs[0]];
  landmarks_to_transform_matrix_options options;
  char why[TFLACCEL_REASON_SIZE];
  if (!landmarks_to_transform_matrix_options_parse(op->custom_options, op->custom_options_size,
                                                   input->dims[1], &options, why, sizeof why))
    return lw->host->status_make(TFLACCEL_INVALID_ARGUMENT, "%s: %s", lw->backend->plugin_name,
                                 why);
  /* The subset indices, as float values, in the constants. */
  gpu_program *program = lw->program;
  uint64_t subset_offset;
  status = gpu_program_add_constants(lw->host, program,
                                     (uint64_t)options.subset_count * program->element_size,
                                     LOWER_ARENA_ALIGNMENT, &subset_offset);
  if (status != NULL) return status;
  for (uint32_t i = 0; i < options.subset_count; ++i)
    gpu_program_store_constant(program, subset_offset, i, (float)options.subset[i]);
  uint32_t d;
  status = lower_add_dispatch(lw, GPU_KERNEL_LANDMARKS_TO_TRANSFORM_MATRIX, &d);
  if (status == NULL) status = lower_bind_input(lw, d, 1, op->inputs[0]);
  if (status != NULL) return status;
  lower_bind_constants(lw, d, 2, subset_offset);
  int32_t *k = gpu_program_params(program, d) + GPU_P_KERNEL;
  const int32_t values[8] = {options.left_rotation_idx,
                             options.right_rotation_idx,
                             options.output_width,
                             options.output_height,
                             gpu_float_bits(options.target_rotation_radians),
                             gpu_float_bits(options.scale_x),
                             gpu_float_bits(options.scale_y),
                             (int32_t)options.subset_count};
  memcpy(k, values, sizeof values);
  return lower_finish(lw, d, 3, op->outputs[0]);
}

static tflaccel_status lower_transform_tensor_bilinear(gpu_lowering *lw, uint32_t position) {
  tflaccel_status status = require_feature(lw);
  if (status != NULL) return status;
  const tflaccel_op_desc *op = lower_op(lw, position);
  gpu_shape in = lw->tensors[op->inputs[0]].shape;
  const int32_t values[3] = {in.h, in.w, in.s};
  uint32_t d;
  status = lower_start_dispatch(lw, GPU_KERNEL_TRANSFORM_TENSOR_BILINEAR, op->inputs[0], values,
                                3, &d);
  if (status == NULL) status = lower_bind_input(lw, d, 2, op->inputs[1]);
  if (status != NULL) return status;
  return lower_finish(lw, d, 3, op->outputs[0]);
}

static tflaccel_status lower_transform_landmarks(gpu_lowering *lw, uint32_t position) {
  tflaccel_status status = require_feature(lw);
  if (status != NULL) return status;
  const tflaccel_op_desc *op = lower_op(lw, position);
  const int32_t no_values[1] = {0};
  uint32_t d;
  status =
      lower_start_dispatch(lw, GPU_KERNEL_TRANSFORM_LANDMARKS, op->inputs[0], no_values, 0, &d);
  if (status == NULL) status = lower_bind_input(lw, d, 2, op->inputs[1]);
  if (status != NULL) return status;
  return lower_finish(lw, d, 3, op->outputs[0]);
}

static const gpu_op_builder mediapipe_transform_builders[] = {
    {.code = TFLACCEL_OP_CUSTOM, .custom_code = LANDMARKS_TO_TRANSFORM_MATRIX_CUSTOM_CODE,
     .min_inputs = 1, .max_inputs = 1, .outputs = 1,
     .supports = check_landmarks_to_transform_matrix,
     .lower = lower_landmarks_to_transform_matrix},
    {.code = TFLACCEL_OP_CUSTOM, .custom_code = "TransformTensorBilinear", .min_inputs = 2,
     .max_inputs = 2, .outputs = 1, .supports = check_transform_tensor_bilinear,
     .lower = lower_transform_tensor_bilinear},
    {.code = TFLACCEL_OP_CUSTOM, .custom_code = "TransformLandmarks", .min_inputs = 2,
     .max_inputs = 2, .outputs = 1, .supports = check_transform_landmarks,
     .lower = lower_transform_landmarks},
};
const gpu_op_family gpu_ops_mediapipe_transform = {
    mediapipe_transform_builders,
    sizeof mediapipe_transform_builders / sizeof mediapipe_transform_builders[0]};
