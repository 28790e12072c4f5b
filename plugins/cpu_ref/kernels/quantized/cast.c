/* CAST to or from uint8/int8/int16. Like TFLite, CAST converts raw values
 * and ignores quantization parameters. Float to integer truncates toward
 * zero; where C++ leaves out-of-range values undefined this saturates. */
#include "config.h"

#include <math.h>

#include "plugins/cpu_ref/kernels/quantized/quant_common.h"
#include "plugins/cpu_ref/kernels/quantized/quantized_kernels.h"

typedef struct cast_data {
  int32_t input_dtype, output_dtype;
  int64_t count;
} cast_data;

static int cast_supported(int32_t dtype) {
  switch (dtype) {
  case TFLACCEL_DTYPE_UINT8:
  case TFLACCEL_DTYPE_INT8:
  case TFLACCEL_DTYPE_INT16:
  case TFLACCEL_DTYPE_INT32:
  case TFLACCEL_DTYPE_INT64:
  case TFLACCEL_DTYPE_FLOAT32:
  case TFLACCEL_DTYPE_BOOL:
    return 1;
  default:
    return 0;
  }
}

static int cast_check(const tflaccel_graph_view *graph, const tflaccel_op_desc *op, char *reason) {
  const tflaccel_tensor_desc *input = q_input(graph, op, 0);
  const tflaccel_tensor_desc *output = q_output(graph, op, 0);
  if (input == NULL || output == NULL) return q_reason(reason, "needs an input and an output");
  if (!cast_supported(input->dtype) || !cast_supported(output->dtype))
    return q_reason(reason, "cast from %s to %s is not supported", q_dtype_name(input->dtype),
                    q_dtype_name(output->dtype));
  if (q_element_count(input) != q_element_count(output))
    return q_reason(reason, "input and output sizes differ");
  return 1;
}

static void cast_release(const tflaccel_host_services *host, void *op_data) {
  q_free(host, op_data);
}

static tflaccel_status cast_prepare(const cpu_op_context *context, void **op_data) {
  const tflaccel_tensor_desc *input = q_input(context->graph, context->op, 0);
  const tflaccel_tensor_desc *output = q_output(context->graph, context->op, 0);
  cast_data *data = q_alloc(context, sizeof *data);
  if (data == NULL) return q_out_of_memory(context, sizeof *data);
  data->input_dtype = input->dtype;
  data->output_dtype = output->dtype;
  data->count = q_element_count(input);
  *op_data = data;
  return NULL;
}

/* Every supported value read as a double is exact except int64 beyond
 * 2^53, which only matters for int64 -> int64 (copied as integers). */
static int64_t read_integer(const void *data, int32_t dtype, int64_t index) {
  switch (dtype) {
  case TFLACCEL_DTYPE_UINT8: return ((const uint8_t *)data)[index];
  case TFLACCEL_DTYPE_INT8: return ((const int8_t *)data)[index];
  case TFLACCEL_DTYPE_INT16: return ((const int16_t *)data)[index];
  case TFLACCEL_DTYPE_INT32: return ((const int32_t *)data)[index];
  case TFLACCEL_DTYPE_INT64: return ((const int64_t *)data)[index];
  case TFLACCEL_DTYPE_BOOL: return ((const uint8_t *)data)[index] != 0;
  default: return 0;
  }
}

static int64_t saturate(double value, double low, double high) {
  if (!(value > low)) return (int64_t)low; /* NaN too */
  if (value > high) return (int64_t)high;
  return (int64_t)value;
}

static void write_value(void *data, int32_t dtype, int64_t index, int64_t integer, double real,
                        int from_float) {
  switch (dtype) {
  case TFLACCEL_DTYPE_UINT8:
    ((uint8_t *)data)[index] =
        (uint8_t)(from_float ? saturate(real, 0.0, 255.0) : (int64_t)(uint8_t)integer);
    break;
  case TFLACCEL_DTYPE_INT8:
    ((int8_t *)data)[index] =
        (int8_t)(from_float ? saturate(real, -128.0, 127.0) : (int64_t)(int8_t)integer);
    break;
  case TFLACCEL_DTYPE_INT16:
    ((int16_t *)data)[index] =
        (int16_t)(from_float ? saturate(real, -32768.0, 32767.0) : (int64_t)(int16_t)integer);
    break;
  case TFLACCEL_DTYPE_INT32:
    ((int32_t *)data)[index] = (int32_t)(from_float ? saturate(real, -2147483648.0, 2147483647.0)
                                                    : (int64_t)(int32_t)integer);
    break;
  case TFLACCEL_DTYPE_INT64:
    ((int64_t *)data)[index] =
        from_float ? saturate(real, -9223372036854775808.0, 9223372036854774784.0) : integer;
    break;
  case TFLACCEL_DTYPE_FLOAT32:
    ((float *)data)[index] = from_float ? (float)real : (float)integer;
    break;
  case TFLACCEL_DTYPE_BOOL:
    ((uint8_t *)data)[index] = from_float ? real != 0.0 : integer != 0;
    break;
  default:
    break;
  }
}

static tflaccel_status cast_eval(const cpu_op_context *context) {
  const cast_data *d = context->op_data;
  const void *input = q_input_data(context, 0);
  void *output = q_output_data(context, 0);
  if (input == NULL || output == NULL)
    return q_error(context, TFLACCEL_INTERNAL, "input or output has no storage");
  const int from_float = d->input_dtype == TFLACCEL_DTYPE_FLOAT32;
  for (int64_t i = 0; i < d->count; i++) {
    const double real = from_float ? (double)((const float *)input)[i] : 0.0;
    const int64_t integer = from_float ? 0 : read_integer(input, d->input_dtype, i);
    write_value(output, d->output_dtype, i, integer, real, from_float);
  }
  return NULL;
}

const cpu_kernel cpu_quant_cast_kernel = {
    .op_code = TFLACCEL_OP_CAST,
    .check = cast_check,
    .prepare = cast_prepare,
    .release = cast_release,
    .eval = cast_eval,
};
