/* tflaccel_model_prepared_op_source: which stored op a prepared-graph op
 * (the indices partition plans use) came from, so that a plan can be shown
 * with op names. */
#include "config.h"

#include "core/graph/model.h"
#include "core/graph/model_internal.h"

tflaccel_status tflaccel_model_prepared_op_source(const tflaccel_model *model,
                                                  uint32_t prepared_op, uint32_t *stored_op) {
  if (model == NULL || stored_op == NULL)
    return tflaccel_status_make(TFLACCEL_INVALID_ARGUMENT, "prepared op: NULL argument");
  uint32_t source = model_prepared_op_source(model, prepared_op);
  if (source == UINT32_MAX)
    return tflaccel_status_make(TFLACCEL_INVALID_ARGUMENT,
                                "prepared op %u does not exist (the prepared graph has %u ops)",
                                prepared_op, model->prepared.view.op_count);
  *stored_op = source;
  return NULL;
}
