/* Entry point names of the kernel catalogue (gpu_kernel_catalog.h). */
#include "config.h"

#include "plugins/gpu_common/gpu_kernel_catalog.h"

static const char *const kernel_names[GPU_KERNEL_EXTENDED_COUNT] = {
    [GPU_KERNEL_TO_SLICES] = "gpu_to_slices",
    [GPU_KERNEL_FROM_SLICES] = "gpu_from_slices",
    [GPU_KERNEL_ELEMENTWISE] = "gpu_elementwise",
    [GPU_KERNEL_CONV2D] = "gpu_conv2d",
    [GPU_KERNEL_CONV2D_SPLIT] = "gpu_conv2d_split",
    [GPU_KERNEL_CONV_ORDERED] = "gpu_conv_ordered",
    [GPU_KERNEL_DEPTHWISE_CONV2D] = "gpu_depthwise_conv2d",
    [GPU_KERNEL_TRANSPOSE_CONV2D] = "gpu_transpose_conv2d",
    [GPU_KERNEL_POOL2D] = "gpu_pool2d",
    [GPU_KERNEL_POOL2D_REDUCE] = "gpu_pool2d_reduce",
    [GPU_KERNEL_MEAN] = "gpu_mean",
    [GPU_KERNEL_RESIZE] = "gpu_resize",
    [GPU_KERNEL_PAD] = "gpu_pad",
    [GPU_KERNEL_CONCAT] = "gpu_concat",
    [GPU_KERNEL_BOX_GATHER] = "gpu_box_gather",
    [GPU_KERNEL_DEPTH_TO_SPACE] = "gpu_depth_to_space",
    [GPU_KERNEL_SOFTMAX] = "gpu_softmax",
    [GPU_KERNEL_ARG_MAX] = "gpu_arg_max",
    [GPU_KERNEL_DEPTHWISE_CONV_ORDERED] = "gpu_depthwise_conv_ordered",
    [GPU_KERNEL_DEPTHWISE_CONV2D_1X1] = "gpu_depthwise_conv2d_1x1",
    [GPU_KERNEL_LSTM_GATES] = "gpu_lstm_gates",
    [GPU_KERNEL_DEPTHWISE_CONV_ORDERED_EXPAND] = "gpu_depthwise_conv_ordered_expand",
    [GPU_KERNEL_LANDMARKS_TO_TRANSFORM_MATRIX] = "gpu_landmarks_to_transform_matrix",
    [GPU_KERNEL_TRANSFORM_TENSOR_BILINEAR] = "gpu_transform_tensor_bilinear",
    [GPU_KERNEL_TRANSFORM_LANDMARKS] = "gpu_transform_landmarks",
    [GPU_KERNEL_SVDF_STATE] = "gpu_svdf_state",
    [GPU_KERNEL_SVDF_OUTPUT] = "gpu_svdf_output",
    [GPU_KERNEL_GATHER_ND] = "gpu_gather_nd",
};

const char *gpu_kernel_name(int32_t kernel) {
  if (kernel < 0 || kernel >= GPU_KERNEL_EXTENDED_COUNT) return "unknown kernel";
  return kernel_names[kernel];
}

int gpu_kernel_writes_argument(int32_t kernel, uint32_t argument) {
  return argument == 0 || (argument == 6 && kernel == GPU_KERNEL_DEPTHWISE_CONV_ORDERED_EXPAND);
}

int gpu_kernel_specializes_posts(int32_t kernel) {
  return kernel != GPU_KERNEL_DEPTHWISE_CONV_ORDERED &&
         kernel != GPU_KERNEL_DEPTHWISE_CONV_ORDERED_EXPAND;
}

int gpu_kernel_writes_glsl_binding(int32_t kernel, uint32_t binding) {
  return binding >= 1 && gpu_kernel_writes_argument(kernel, binding - 1);
}
