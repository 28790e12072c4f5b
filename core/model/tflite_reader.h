/* The TFLite schema's tables -> the model's stored form (model_internal.h). */
#ifndef TFLACCEL_CORE_MODEL_TFLITE_READER_H
#define TFLACCEL_CORE_MODEL_TFLITE_READER_H

#include "core/model/model_internal.h"

/* Reads model->bytes[0, model->size) into model's stored fields, allocating
 * from model->pool. Every offset, length and index is checked; the first
 * defect is reported with where it is. Buffers stay in place. */
tflaccel_status tflite_read(tflaccel_model *model);

/* The schema's name of a TensorType value, NULL when out of range. */
const char *tflite_tensor_type_name(int32_t type);

#endif
