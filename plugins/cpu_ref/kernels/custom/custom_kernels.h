/* cpu_ref kernels of custom ops, found by custom_code
 * (plugins/cpu_ref/kernels/custom_registry.c). Each is written from the
 * op's published semantics: MediaPipe's landmark/transform ops
 * (mediapipe/util/tflite/operations) and Coral's PosenetDecoderOp
 * (coral/pose_estimation in libcoral), reproducing their float arithmetic
 * step by step so that results match theirs. */
#ifndef TFLACCEL_CPU_REF_CUSTOM_KERNELS_H
#define TFLACCEL_CPU_REF_CUSTOM_KERNELS_H

#include "plugins/cpu_ref/kernel.h"

extern const cpu_kernel cpu_custom_landmarks_to_transform_matrix_kernel;
extern const cpu_kernel cpu_custom_transform_tensor_bilinear_kernel;
extern const cpu_kernel cpu_custom_transform_landmarks_kernel;
extern const cpu_kernel cpu_custom_posenet_decoder_kernel;

#endif
