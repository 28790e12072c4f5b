/* The public API's library section (tflaccel.h): the version, and the
 * names and sizes the facts library knows, under their public names. */
#include "config.h"

#include "core/facts/buffer_type.h"
#include "core/facts/dtype.h"
#include "core/facts/op_names.h"
#include "tflaccel/tflaccel.h"

const char *tflaccel_version(void) { return PACKAGE_VERSION; }

const char *tflaccel_op_code_name(int32_t code) { return op_code_name(code); }

const char *tflaccel_dtype_name(int32_t dtype) { return dtype_name(dtype); }

size_t tflaccel_dtype_size(int32_t dtype) { return dtype_size(dtype); }

const char *tflaccel_buffer_type_name(int32_t type) { return buffer_type_name(type); }
