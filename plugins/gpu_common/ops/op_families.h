/* The op families, one per file in ops/: what the op table gathers. */
#ifndef TFLACCEL_GPU_COMMON_OPS_OP_FAMILIES_H
#define TFLACCEL_GPU_COMMON_OPS_OP_FAMILIES_H

#include "plugins/gpu_common/gpu_op_builder.h"

extern const gpu_op_family gpu_ops_conv;            /* CONV_2D, DEPTHWISE_CONV_2D */
extern const gpu_op_family gpu_ops_transpose_conv;  /* TRANSPOSE_CONV, Convolution2DTransposeBias */
extern const gpu_op_family gpu_ops_fully_connected; /* FULLY_CONNECTED */
extern const gpu_op_family gpu_ops_lstm;            /* LSTM (the basic cell) */
extern const gpu_op_family gpu_ops_sequence_lstm;   /* UNIDIRECTIONAL_SEQUENCE_LSTM */
extern const gpu_op_family gpu_ops_svdf;            /* SVDF */
extern const gpu_op_family gpu_ops_elementwise;     /* unary, binary, PRELU, activations */
extern const gpu_op_family gpu_ops_pool;            /* MAX/AVERAGE_POOL_2D, MEAN */
extern const gpu_op_family gpu_ops_softmax;         /* SOFTMAX */
extern const gpu_op_family gpu_ops_pad;             /* PAD, PADV2 */
extern const gpu_op_family gpu_ops_concat;          /* CONCATENATION */
extern const gpu_op_family gpu_ops_reshape;         /* RESHAPE, SQUEEZE, EXPAND_DIMS */
extern const gpu_op_family gpu_ops_strided_slice;   /* STRIDED_SLICE */
extern const gpu_op_family gpu_ops_depth_to_space;  /* DEPTH_TO_SPACE */
extern const gpu_op_family gpu_ops_resize;          /* RESIZE_BILINEAR, RESIZE_NEAREST_NEIGHBOR */
extern const gpu_op_family gpu_ops_quantize;        /* QUANTIZE, DEQUANTIZE (the float view) */
extern const gpu_op_family gpu_ops_transpose;       /* TRANSPOSE */
extern const gpu_op_family gpu_ops_pack;            /* PACK, UNPACK */
extern const gpu_op_family gpu_ops_arg_max;         /* ARG_MAX, ARG_MIN */
extern const gpu_op_family gpu_ops_cast;            /* CAST to float32 */
extern const gpu_op_family gpu_ops_gather_nd;       /* GATHER_ND */
/* MediaPipe's Landmarks2TransformMatrix, TransformTensorBilinear, TransformLandmarks */
extern const gpu_op_family gpu_ops_mediapipe_transform;

/* Why there is no builder for an op the corpus uses (ops/declined.c), or
 * NULL. */
const char *gpu_op_no_kernel_reason(int32_t code);
/* The same for a custom op, by its custom_code, or NULL. */
const char *gpu_op_no_custom_kernel_reason(const char *custom_code);

#endif
