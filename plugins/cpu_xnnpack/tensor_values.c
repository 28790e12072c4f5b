/* tflaccel tensors as XNNPACK values: dtype and quantization mapping.
 * Constants (the weights) are handed to XNNPACK in place: the core keeps the
 * model mapped while executables live, and XNNPACK packs them into its own
 * layout once, when the runtime is created at compile time. */
#include "config.h"

#include <math.h>

#include "plugins/cpu_xnnpack/subgraph_build.h"

/* Scales XNNPACK accepts: positive and finite. */
static int usable_scale(float scale) { return scale > 0.0f && isfinite(scale); }

static int define_value(xnnp_build *build, uint32_t tensor, uint32_t rank, const size_t *dims,
                        uint32_t external_id, uint32_t flags, uint32_t *id) {
  const tflaccel_tensor_desc *desc = &build->graph->tensors[tensor];
  const tflaccel_quantization *quant = &desc->quantization;
  const void *data = xnnp_is_constant(desc) ? desc->data : NULL;
  if (desc->flags & TFLACCEL_TENSOR_VARIABLE)
    return xnnp_fail(build, "tensor %u '%s' is a variable, which XNNPACK does not keep", tensor,
                     desc->name);
  if (xnnp_is_constant(desc) && (data == NULL || desc->data_size < desc->byte_size))
    return xnnp_fail(build, "constant tensor %u '%s' lacks its data", tensor, desc->name);
  if (quant->count > 0 && quant->scales == NULL)
    return xnnp_fail(build, "tensor %u '%s' has quantization without scales", tensor, desc->name);
  for (uint32_t i = 0; i < quant->count; i++)
    if (!usable_scale(quant->scales[i]))
      return xnnp_fail(build, "tensor %u '%s' has a quantization scale %g", tensor, desc->name,
                       (double)quant->scales[i]);
  enum xnn_status status = xnn_status_success;
  int32_t zero_point = quant->count > 0 && quant->zero_points != NULL ? quant->zero_points[0] : 0;
  switch (desc->dtype) {
    case TFLACCEL_DTYPE_FLOAT32:
      if (quant->count > 0)
        return xnnp_fail(build, "float tensor %u '%s' carries quantization", tensor, desc->name);
      status = xnn_define_tensor_value(build->subgraph, xnn_datatype_fp32, rank, dims, data,
                                       external_id, flags, id);
      break;
    case TFLACCEL_DTYPE_INT8:
    case TFLACCEL_DTYPE_UINT8:
      if (quant->count == 1) {
        enum xnn_datatype type =
            desc->dtype == TFLACCEL_DTYPE_INT8 ? xnn_datatype_qint8 : xnn_datatype_quint8;
        status = xnn_define_quantized_tensor_value(build->subgraph, type, zero_point,
                                                   quant->scales[0], rank, dims, data,
                                                   external_id, flags, id);
      } else if (quant->count > 1 && desc->dtype == TFLACCEL_DTYPE_INT8 && data != NULL) {
        for (uint32_t i = 0; quant->zero_points != NULL && i < quant->count; i++)
          if (quant->zero_points[i] != 0)
            return xnnp_fail(build, "per-channel tensor %u '%s' has a non-zero zero point",
                             tensor, desc->name);
        if (quant->quantized_dimension < 0 || (uint32_t)quant->quantized_dimension >= rank ||
            dims[quant->quantized_dimension] != quant->count)
          return xnnp_fail(build, "per-channel tensor %u '%s': %u scales for axis %d", tensor,
                           desc->name, quant->count, quant->quantized_dimension);
        status = xnn_define_channelwise_quantized_tensor_value(
            build->subgraph, xnn_datatype_qcint8, quant->scales, rank,
            (size_t)quant->quantized_dimension, dims, data, external_id, flags, id);
      } else {
        return xnnp_fail(build, "%s tensor %u '%s' is not quantized per tensor or per channel",
                         xnnp_dtype_name(desc->dtype), tensor, desc->name);
      }
      break;
    case TFLACCEL_DTYPE_INT32:
      /* Only as a quantized bias. */
      if (data == NULL || quant->count == 0)
        return xnnp_fail(build, "int32 tensor %u '%s' is not a quantized constant bias", tensor,
                         desc->name);
      for (uint32_t i = 0; quant->zero_points != NULL && i < quant->count; i++)
        if (quant->zero_points[i] != 0)
          return xnnp_fail(build, "bias tensor %u '%s' has a non-zero zero point", tensor,
                           desc->name);
      if (quant->count == 1)
        status = xnn_define_quantized_tensor_value(build->subgraph, xnn_datatype_qint32, 0,
                                                   quant->scales[0], rank, dims, data,
                                                   external_id, flags, id);
      else if (rank == 1 && dims[0] == quant->count && quant->quantized_dimension == 0)
        status = xnn_define_channelwise_quantized_tensor_value(
            build->subgraph, xnn_datatype_qcint32, quant->scales, rank, 0, dims, data,
            external_id, flags, id);
      else
        return xnnp_fail(build, "bias tensor %u '%s' has %u scales for %u dims", tensor,
                         desc->name, quant->count, rank);
      break;
    default:
      return xnnp_fail(build, "tensor %u '%s' has dtype %s, which XNNPACK does not run", tensor,
                       desc->name, xnnp_dtype_name(desc->dtype));
  }
  if (status != xnn_status_success)
    return xnnp_fail(build, "XNNPACK rejects tensor %u '%s' (%s, status %d)", tensor, desc->name,
                     xnnp_dtype_name(desc->dtype), (int)status);
  return 1;
}

static int tensor_dims(xnnp_build *build, uint32_t tensor, size_t *dims) {
  const tflaccel_tensor_desc *desc = &build->graph->tensors[tensor];
  if (desc->rank > XNN_MAX_TENSOR_DIMS)
    return xnnp_fail(build, "tensor %u '%s' has rank %u; XNNPACK takes at most %d", tensor,
                     desc->name, desc->rank, XNN_MAX_TENSOR_DIMS);
  for (uint32_t i = 0; i < desc->rank; i++) {
    if (desc->dims[i] <= 0)
      return xnnp_fail(build, "tensor %u '%s' has an empty or dynamic dim %d", tensor, desc->name,
                       desc->dims[i]);
    dims[i] = (size_t)desc->dims[i];
  }
  return 1;
}

int xnnp_value(xnnp_build *build, uint32_t tensor, uint32_t *id) {
  if (tensor >= build->graph->tensor_count)
    return xnnp_fail(build, "tensor %u is outside the graph", tensor);
  if (build->value_ids[tensor] != XNN_INVALID_VALUE_ID) {
    *id = build->value_ids[tensor];
    return 1;
  }
  size_t dims[XNN_MAX_TENSOR_DIMS];
  if (!tensor_dims(build, tensor, dims)) return 0;
  if (!define_value(build, tensor, build->graph->tensors[tensor].rank, dims,
                    XNN_INVALID_VALUE_ID, 0, id))
    return 0;
  build->value_ids[tensor] = *id;
  return 1;
}

int xnnp_external_value(xnnp_build *build, uint32_t tensor, uint32_t external_id,
                        uint32_t flags) {
  if (tensor >= build->graph->tensor_count)
    return xnnp_fail(build, "tensor %u is outside the graph", tensor);
  if (build->value_ids[tensor] != XNN_INVALID_VALUE_ID) return 1;
  size_t dims[XNN_MAX_TENSOR_DIMS];
  uint32_t id = XNN_INVALID_VALUE_ID;
  if (!tensor_dims(build, tensor, dims)) return 0;
  if (!define_value(build, tensor, build->graph->tensors[tensor].rank, dims, external_id, flags,
                    &id))
    return 0;
  build->value_ids[tensor] = id;
  return 1;
}

int xnnp_constant_value_as(xnnp_build *build, uint32_t tensor, uint32_t rank,
                           const size_t *dims, uint32_t *id) {
  if (tensor >= build->graph->tensor_count || !xnnp_is_constant(&build->graph->tensors[tensor]))
    return xnnp_fail(build, "tensor %u is not a constant", tensor);
  return define_value(build, tensor, rank, dims, XNN_INVALID_VALUE_ID, 0, id);
}

int xnnp_internal_value(xnnp_build *build, const tflaccel_tensor_desc *like, int32_t dtype,
                        uint32_t rank, const size_t *dims, uint32_t *id) {
  enum xnn_status status;
  if (dtype == TFLACCEL_DTYPE_FLOAT32) {
    status = xnn_define_tensor_value(build->subgraph, xnn_datatype_fp32, rank, dims, NULL,
                                     XNN_INVALID_VALUE_ID, 0, id);
  } else if (like != NULL && xnnp_is_quantized8(like) && like->dtype == dtype) {
    const tflaccel_quantization *quant = &like->quantization;
    status = xnn_define_quantized_tensor_value(
        build->subgraph, dtype == TFLACCEL_DTYPE_INT8 ? xnn_datatype_qint8 : xnn_datatype_quint8,
        quant->zero_points != NULL ? quant->zero_points[0] : 0, quant->scales[0], rank, dims,
        NULL, XNN_INVALID_VALUE_ID, 0, id);
  } else {
    return xnnp_fail(build, "no intermediate %s value for this tensor", xnnp_dtype_name(dtype));
  }
  if (status != xnn_status_success)
    return xnnp_fail(build, "XNNPACK rejects an intermediate %s value (status %d)",
                     xnnp_dtype_name(dtype), (int)status);
  return 1;
}

int xnnp_tensor_dims(xnnp_build *build, uint32_t tensor, size_t *dims) {
  return tensor_dims(build, tensor, dims);
}
