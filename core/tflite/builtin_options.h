/* Operator options -> tflaccel_op_params (ops.h). */
#ifndef TFLACCEL_CORE_TFLITE_BUILTIN_OPTIONS_H
#define TFLACCEL_CORE_TFLITE_BUILTIN_OPTIONS_H

#include <stdint.h>

#include "core/tflite/flatbuffer.h"
#include "tflaccel/ops.h"

/* Fills params for an op with builtin code `code` from its BuiltinOptions
 * union: options_type is the union's type byte, options the table (NULL when
 * absent: the schema's defaults apply). Options of the wrong type for the op
 * are an error; ops whose options are not interpreted keep zeroed params. */
tflaccel_status builtin_options_parse(int32_t code, uint8_t options_type, const fb_table *options,
                                      tflaccel_op_params *params);

/* Fills params of a custom op whose options have a fixed binary layout
 * (Convolution2DTransposeBias). Other custom ops keep zeroed params. */
tflaccel_status custom_options_parse(const char *custom_code, const uint8_t *options,
                                     uint32_t options_size, tflaccel_op_params *params);

#define CUSTOM_CODE_TRANSPOSE_CONV_BIAS "Convolution2DTransposeBias"

#endif
