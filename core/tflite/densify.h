/* The TFLite sparse tensor format (SparsityParameters) -> dense values. */
#ifndef TFLACCEL_CORE_TFLITE_DENSIFY_H
#define TFLACCEL_CORE_TFLITE_DENSIFY_H

#include <stdint.h>

#include "core/tflite/stored_model.h"

/* Writes the dense form of sparse constant `tensor` (its stored values and
 * sparsity) into dense, which holds tensor->element_count elements of its
 * dtype and is zeroed. Every index array is checked against the shape and
 * the value count before it is followed. */
tflaccel_status densify_tensor(const model_tensor *tensor, uint8_t *dense);

#endif
