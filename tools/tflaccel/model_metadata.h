/* What tflaccel eval reads of a model's TFLite Metadata (the flatbuffer in
 * its "TFLITE_METADATA" buffer, file identifier M001, schema
 * metadata_schema.fbs of tensorflow/tflite-support): the NormalizationOptions
 * process unit of an input tensor, mean and std per channel. Read with the
 * project's bounds-checked flatbuffer reader (core/tflite/flatbuffer.h). */
#ifndef TFLACCEL_TOOLS_MODEL_METADATA_H
#define TFLACCEL_TOOLS_MODEL_METADATA_H

#include <stddef.h>
#include <stdint.h>

#include "tflaccel/tflaccel.h"
#include "tools/tflaccel/image_preprocess.h"

/* The metadata entry that holds TFLite Metadata. */
#define MODEL_METADATA_NAME "TFLITE_METADATA"

/* Reads the normalization of input `input` (of subgraph 0) from the
 * metadata bytes: *found = 1 and normalization filled (one value stands
 * for every channel) when the input has a NormalizationOptions unit, else
 * *found = 0. Malformed metadata, a count of values that is neither 1 nor
 * channels, or a zero std is an error naming what is wrong. */
tflaccel_status model_metadata_input_normalization(const void *metadata, size_t size,
                                                   uint32_t input, uint32_t channels,
                                                   image_normalization *normalization,
                                                   int *found);

/* The same from a loaded model; a model without TFLITE_METADATA gives
 * *found = 0. */
tflaccel_status model_input_normalization(const tflaccel_model *model, uint32_t input,
                                          uint32_t channels, image_normalization *normalization,
                                          int *found);

#endif
