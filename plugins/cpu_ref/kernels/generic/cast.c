/* CAST between float32, float16, int64, int32, int16, int8, uint8 and bool.
 * Floats to integers truncate toward zero and saturate at the target's
 * range (NaN -> 0), where C++'s static_cast leaves out-of-range values
 * undefined; integers wrap to the target width; to bool is `!= 0`, from
 * bool is 0 or 1. Quantization is ignored: CAST converts raw values. (The
 * quantized table's CAST, which takes the uint8/int8/int16 cases, follows
 * the same rules.) */
#include "config.h"

#include <math.h>
#include <string.h>

#include "core/facts/half.h"
#include "plugins/cpu_ref/kernels/generic/generic_kernels.h"
#include "plugins/cpu_ref/kernels/kernel_util.h"

static int cast_dtype_ok(int32_t dtype) {
  switch (dtype) {
  case TFLACCEL_DTYPE_FLOAT32: case TFLACCEL_DTYPE_FLOAT16: case TFLACCEL_DTYPE_INT64:
  case TFLACCEL_DTYPE_INT32: case TFLACCEL_DTYPE_INT16: case TFLACCEL_DTYPE_INT8:
  case TFLACCEL_DTYPE_UINT8: case TFLACCEL_DTYPE_BOOL:
    return 1;
  }
  return 0;
}

static int cast_check(const tflaccel_graph_view *graph, const tflaccel_op_desc *op,
                      char *reason) {
  if (!cpu_check_arity(graph, op, 1, 1, 1, reason)) return 0;
  const tflaccel_tensor_desc *input = cpu_op_input(graph, op, 0);
  const tflaccel_tensor_desc *output = cpu_op_output(graph, op, 0);
  if (!cast_dtype_ok(input->dtype) || !cast_dtype_ok(output->dtype))
    return cpu_reason(reason, "CAST from %s to %s is not supported", cpu_dtype_name(input->dtype),
                      cpu_dtype_name(output->dtype));
  if (cpu_element_count(input) != cpu_element_count(output))
    return cpu_reason(reason, "CAST: input and output element counts differ");
  return 1;
}

/* One value on its way through: exact for every supported source. */
typedef struct cast_value {
  int is_float;
  double real;
  int64_t integer;
} cast_value;

static float half_bits_to_float(const unsigned char *at) {
  uint16_t bits;
  memcpy(&bits, at, sizeof bits);
  return half_to_float(bits);
}

static cast_value read_value(int32_t dtype, const void *data, int64_t i) {
  cast_value value = {0, 0.0, 0};
  switch (dtype) {
  case TFLACCEL_DTYPE_FLOAT32: value.is_float = 1; value.real = ((const float *)data)[i]; break;
  case TFLACCEL_DTYPE_FLOAT16:
    value.is_float = 1;
    value.real = half_bits_to_float((const unsigned char *)data + 2 * i);
    break;
  case TFLACCEL_DTYPE_INT64: value.integer = ((const int64_t *)data)[i]; break;
  case TFLACCEL_DTYPE_INT32: value.integer = ((const int32_t *)data)[i]; break;
  case TFLACCEL_DTYPE_INT16: value.integer = ((const int16_t *)data)[i]; break;
  case TFLACCEL_DTYPE_INT8: value.integer = ((const int8_t *)data)[i]; break;
  case TFLACCEL_DTYPE_UINT8: value.integer = ((const uint8_t *)data)[i]; break;
  case TFLACCEL_DTYPE_BOOL: value.integer = ((const uint8_t *)data)[i] != 0; break;
  }
  return value;
}

/* The integer a value becomes in a target of range [low, high]. */
static int64_t to_integer(cast_value value, double low, double high) {
  if (!value.is_float) return value.integer;
  double x = value.real;
  if (isnan(x)) return 0;
  if (x <= low) return (int64_t)low;
  if (x >= high) return (int64_t)high;
  return (int64_t)x; /* truncates toward zero */
}

static void write_value(int32_t dtype, void *data, int64_t i, cast_value value) {
  switch (dtype) {
  case TFLACCEL_DTYPE_FLOAT32:
    ((float *)data)[i] = value.is_float ? (float)value.real : (float)value.integer;
    return;
  case TFLACCEL_DTYPE_FLOAT16: {
    uint16_t bits =
        half_from_float(value.is_float ? (float)value.real : (float)value.integer);
    memcpy((unsigned char *)data + 2 * i, &bits, sizeof bits);
    return;
  }
  case TFLACCEL_DTYPE_BOOL:
    ((uint8_t *)data)[i] = value.is_float ? value.real != 0.0 : value.integer != 0;
    return;
  default: break;
  }
  /* Integers wrap through the unsigned type of the target's width. */
  switch (dtype) {
  case TFLACCEL_DTYPE_INT64:
    ((int64_t *)data)[i] = to_integer(value, -9223372036854775808.0, 9223372036854774784.0);
    break;
  case TFLACCEL_DTYPE_INT32:
    ((int32_t *)data)[i] = (int32_t)(uint32_t)to_integer(value, INT32_MIN, INT32_MAX);
    break;
  case TFLACCEL_DTYPE_INT16:
    ((int16_t *)data)[i] = (int16_t)(uint16_t)to_integer(value, INT16_MIN, INT16_MAX);
    break;
  case TFLACCEL_DTYPE_INT8:
    ((int8_t *)data)[i] = (int8_t)(uint8_t)to_integer(value, INT8_MIN, INT8_MAX);
    break;
  case TFLACCEL_DTYPE_UINT8: ((uint8_t *)data)[i] = (uint8_t)to_integer(value, 0, UINT8_MAX); break;
  default: break;
  }
}

static tflaccel_status cast_eval(const cpu_op_context *context) {
  int32_t from = cpu_input_tensor(context, 0)->dtype;
  int32_t to = cpu_output_tensor(context, 0)->dtype;
  const void *in = cpu_input_data(context, 0);
  void *out = cpu_output_data(context, 0);
  int64_t count = cpu_element_count(cpu_output_tensor(context, 0));
  if (from == to) {
    memmove(out, in, (size_t)cpu_output_tensor(context, 0)->byte_size);
    return NULL;
  }
  for (int64_t i = 0; i < count; i++) write_value(to, out, i, read_value(from, in, i));
  return NULL;
}

const cpu_kernel cpu_kernel_cast = {.op_code = TFLACCEL_OP_CAST, .check = cast_check, .eval = cast_eval};
