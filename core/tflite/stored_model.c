/* Helpers on the stored form of a model. */
#include "config.h"

#include "core/facts/op_names.h"
#include "core/tflite/stored_model.h"

const char *model_op_name(const model_op *op) {
  if (op->code == TFLACCEL_OP_CUSTOM && op->custom_code) return op->custom_code;
  const char *name = op_code_name(op->code);
  return name ? name : "UNKNOWN";
}
