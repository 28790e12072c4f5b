/* The TFLite schema's tables -> the model's stored form (stored_model.h). */
#ifndef TFLACCEL_CORE_TFLITE_READER_H
#define TFLACCEL_CORE_TFLITE_READER_H

#include <stddef.h>
#include <stdint.h>

#include "core/memory/allocation_pool.h"
#include "core/tflite/stored_model.h"

/* Reads bytes[0, size) into model, allocating from pool (which must outlive
 * model, as must bytes). Every offset, length and index is checked; the
 * first defect is reported with where it is. Buffers stay in place. */
tflaccel_status tflite_read(const uint8_t *bytes, size_t size, allocation_pool *pool,
                            stored_model *model);

/* The schema's name of a TensorType value, NULL when out of range. */
const char *tflite_tensor_type_name(int32_t type);

#endif
