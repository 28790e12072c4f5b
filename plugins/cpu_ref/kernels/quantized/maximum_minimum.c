/* MAXIMUM and MINIMUM on uint8/int8 tensors, with broadcasting. TFLite
 * compares the stored integers and stores the larger (smaller) one as it is:
 * no rescaling, whatever the tensors' quantization (its converter gives the
 * inputs and the output one quantization). */
#include "config.h"

#include "plugins/cpu_ref/kernels/quantized/binary_op.h"
#include "plugins/cpu_ref/kernels/quantized/quant_common.h"
#include "plugins/cpu_ref/kernels/quantized/quantized_kernels.h"

static tflaccel_status maximum_minimum_prepare(const cpu_op_context *context, void **op_data) {
  return q_binary_op_data_create(context, sizeof(q_binary_op), op_data);
}

static int32_t maximum_one(const void *op_data, int32_t x1, int32_t x2) {
  (void)op_data;
  return x1 > x2 ? x1 : x2;
}

static int32_t minimum_one(const void *op_data, int32_t x1, int32_t x2) {
  (void)op_data;
  return x1 < x2 ? x1 : x2;
}

static tflaccel_status maximum_eval(const cpu_op_context *context) {
  return q_binary_eval(context, maximum_one);
}

static tflaccel_status minimum_eval(const cpu_op_context *context) {
  return q_binary_eval(context, minimum_one);
}

const cpu_kernel cpu_quant_maximum_kernel = {
    .op_code = TFLACCEL_OP_MAXIMUM,
    .check = q_binary_check_operands,
    .prepare = maximum_minimum_prepare,
    .release = q_binary_op_data_release,
    .eval = maximum_eval,
};

const cpu_kernel cpu_quant_minimum_kernel = {
    .op_code = TFLACCEL_OP_MINIMUM,
    .check = q_binary_check_operands,
    .prepare = maximum_minimum_prepare,
    .release = q_binary_op_data_release,
    .eval = minimum_eval,
};
