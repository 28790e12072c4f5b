/* Builtin options of the ops tflaccel interprets, read field by field from
 * the option tables of ../shared/tflite/schema.fbs. */
#include "config.h"

#include <string.h>

#include "core/tflite/builtin_options.h"

/* BuiltinOptions union type values (position in the schema's union). */
enum options_type {
  OPTIONS_NONE = 0,
  OPTIONS_CONV_2D = 1,
  OPTIONS_DEPTHWISE_CONV_2D = 2,
  OPTIONS_POOL_2D = 5,
  OPTIONS_SVDF = 6,
  OPTIONS_FULLY_CONNECTED = 8,
  OPTIONS_SOFTMAX = 9,
  OPTIONS_CONCATENATION = 10,
  OPTIONS_ADD = 11,
  OPTIONS_LSTM = 14,
  OPTIONS_RESIZE_BILINEAR = 15,
  OPTIONS_RESHAPE = 17,
  OPTIONS_SPACE_TO_DEPTH = 19,
  OPTIONS_MUL = 21,
  OPTIONS_PAD = 22,
  OPTIONS_GATHER = 23,
  OPTIONS_TRANSPOSE = 26,
  OPTIONS_REDUCER = 27,
  OPTIONS_SUB = 28,
  OPTIONS_DIV = 29,
  OPTIONS_SQUEEZE = 30,
  OPTIONS_STRIDED_SLICE = 32,
  OPTIONS_EXP = 33,
  OPTIONS_SPLIT = 35,
  OPTIONS_CAST = 37,
  OPTIONS_DEQUANTIZE = 38,
  OPTIONS_MAXIMUM_MINIMUM = 39,
  OPTIONS_ARG_MAX = 40,
  OPTIONS_PADV2 = 43,
  OPTIONS_TRANSPOSE_CONV = 49,
  OPTIONS_ARG_MIN = 57,
  OPTIONS_PACK = 59,
  OPTIONS_LOGICAL_AND = 62,
  OPTIONS_UNPACK = 64,
  OPTIONS_FLOOR_DIV = 65,
  OPTIONS_UNIDIRECTIONAL_SEQUENCE_LSTM = 71,
  OPTIONS_RESIZE_NEAREST_NEIGHBOR = 74,
  OPTIONS_LEAKY_RELU = 75,
  OPTIONS_SPLIT_V = 79,
  OPTIONS_GATHER_ND = 83,
  OPTIONS_QUANTIZE = 89,
  OPTIONS_HARD_SWISH = 91,
  OPTIONS_DEPTH_TO_SPACE = 94,
  OPTIONS_DENSIFY = 99,
};

typedef tflaccel_status (*options_reader)(const fb_table *options, tflaccel_op_params *params);

typedef struct options_kind {
  int32_t code;          /* builtin operator */
  uint8_t type;          /* the BuiltinOptions member it carries */
  const char *type_name;
  options_reader read;   /* NULL: a table without fields */
} options_kind;

/* Reads field `slot` of `table` (absent table: the default) into `out`. A
 * macro keeps each reader below one line per schema field. */
#define READ(kind, slot, default_value, out)                                               \
  do {                                                                                     \
    if (options == NULL) {                                                                 \
      (out) = (default_value);                                                             \
    } else {                                                                               \
      tflaccel_status read_status = fb_read_##kind(options, (slot), (default_value), &(out)); \
      if (read_status) return read_status;                                                 \
    }                                                                                      \
  } while (0)

/* Schema enums stored as bytes, widened to the int32 fields of ops.h. */
static tflaccel_status read_byte_enum(const fb_table *options, unsigned slot, int32_t *out) {
  int8_t value = 0;
  if (options) {
    tflaccel_status status = fb_read_i8(options, slot, 0, &value);
    if (status) return status;
  }
  *out = value;
  return NULL;
}

#define READ_ENUM(slot, out)                                               \
  do {                                                                     \
    tflaccel_status enum_status = read_byte_enum(options, (slot), &(out)); \
    if (enum_status) return enum_status;                                   \
  } while (0)

static tflaccel_status read_conv_2d(const fb_table *options, tflaccel_op_params *params) {
  tflaccel_conv_2d_params *p = &params->conv_2d;
  READ_ENUM(0, p->padding);
  READ(i32, 1, 0, p->stride_w);
  READ(i32, 2, 0, p->stride_h);
  READ_ENUM(3, p->fused_activation);
  READ(i32, 4, 1, p->dilation_w);
  READ(i32, 5, 1, p->dilation_h);
  return NULL;
}

static tflaccel_status read_depthwise_conv_2d(const fb_table *options,
                                              tflaccel_op_params *params) {
  tflaccel_depthwise_conv_2d_params *p = &params->depthwise_conv_2d;
  READ_ENUM(0, p->padding);
  READ(i32, 1, 0, p->stride_w);
  READ(i32, 2, 0, p->stride_h);
  READ(i32, 3, 0, p->depth_multiplier);
  READ_ENUM(4, p->fused_activation);
  READ(i32, 5, 1, p->dilation_w);
  READ(i32, 6, 1, p->dilation_h);
  return NULL;
}

static tflaccel_status read_pool_2d(const fb_table *options, tflaccel_op_params *params) {
  tflaccel_pool_2d_params *p = &params->pool_2d;
  READ_ENUM(0, p->padding);
  READ(i32, 1, 0, p->stride_w);
  READ(i32, 2, 0, p->stride_h);
  READ(i32, 3, 0, p->filter_w);
  READ(i32, 4, 0, p->filter_h);
  READ_ENUM(5, p->fused_activation);
  return NULL;
}

static tflaccel_status read_svdf(const fb_table *options, tflaccel_op_params *params) {
  tflaccel_svdf_params *p = &params->svdf;
  READ(i32, 0, 0, p->rank);
  READ_ENUM(1, p->fused_activation);
  READ(bool, 2, 0, p->asymmetric_quantize_inputs);
  return NULL;
}

static tflaccel_status read_fully_connected(const fb_table *options,
                                            tflaccel_op_params *params) {
  tflaccel_fully_connected_params *p = &params->fully_connected;
  READ_ENUM(0, p->fused_activation);
  READ_ENUM(1, p->weights_format);
  READ(bool, 2, 0, p->keep_num_dims);
  READ(bool, 3, 0, p->asymmetric_quantize_inputs);
  return NULL;
}

static tflaccel_status read_softmax(const fb_table *options, tflaccel_op_params *params) {
  READ(f32, 0, 0.0f, params->softmax.beta);
  return NULL;
}

static tflaccel_status read_concatenation(const fb_table *options, tflaccel_op_params *params) {
  READ(i32, 0, 0, params->concatenation.axis);
  READ_ENUM(1, params->concatenation.fused_activation);
  return NULL;
}

/* AddOptions and SubOptions: activation, then pot_scale_int16 (default true). */
static tflaccel_status read_add_sub(const fb_table *options, tflaccel_op_params *params) {
  READ_ENUM(0, params->arithmetic.fused_activation);
  READ(bool, 1, 1, params->arithmetic.pot_scale_int16);
  return NULL;
}

/* MulOptions and DivOptions: the activation only. */
static tflaccel_status read_mul_div(const fb_table *options, tflaccel_op_params *params) {
  READ_ENUM(0, params->arithmetic.fused_activation);
  params->arithmetic.pot_scale_int16 = 0;
  return NULL;
}

static tflaccel_status read_lstm(const fb_table *options, tflaccel_op_params *params) {
  tflaccel_lstm_params *p = &params->lstm;
  READ_ENUM(0, p->fused_activation);
  READ(f32, 1, 0.0f, p->cell_clip);
  READ(f32, 2, 0.0f, p->proj_clip);
  READ_ENUM(3, p->kernel_type);
  READ(bool, 4, 0, p->asymmetric_quantize_inputs);
  return NULL;
}

static tflaccel_status read_sequence_lstm(const fb_table *options, tflaccel_op_params *params) {
  tflaccel_sequence_lstm_params *p = &params->sequence_lstm;
  READ_ENUM(0, p->fused_activation);
  READ(f32, 1, 0.0f, p->cell_clip);
  READ(f32, 2, 0.0f, p->proj_clip);
  READ(bool, 3, 0, p->time_major);
  READ(bool, 4, 0, p->asymmetric_quantize_inputs);
  READ(bool, 5, 0, p->diagonal_recurrent_tensors);
  return NULL;
}

/* ResizeBilinearOptions keeps two deprecated fields in slots 0 and 1. */
static tflaccel_status read_resize_bilinear(const fb_table *options,
                                            tflaccel_op_params *params) {
  READ(bool, 2, 0, params->resize.align_corners);
  READ(bool, 3, 0, params->resize.half_pixel_centers);
  return NULL;
}

static tflaccel_status read_resize_nearest(const fb_table *options,
                                           tflaccel_op_params *params) {
  READ(bool, 0, 0, params->resize.align_corners);
  READ(bool, 1, 0, params->resize.half_pixel_centers);
  return NULL;
}

/* An optional [int] option into a fixed array; *count = -1 when absent. */
static tflaccel_status read_int_list(const fb_table *options, unsigned slot, const char *what,
                                     int32_t *count, int32_t *values) {
  *count = -1;
  if (options == NULL) return NULL;
  fb_vector vector;
  int present;
  tflaccel_status status = fb_read_vector(options, slot, 4, &vector, &present);
  if (status || !present) return status;
  if (vector.length > TFLACCEL_MAX_PARAM_DIMS)
    return tflaccel_status_make(TFLACCEL_UNSUPPORTED, "%s has %u entries, at most %d are supported",
                                what, vector.length, TFLACCEL_MAX_PARAM_DIMS);
  for (uint32_t i = 0; i < vector.length; ++i) values[i] = fb_vector_i32(&vector, i);
  *count = (int32_t)vector.length;
  return NULL;
}

static tflaccel_status read_reshape(const fb_table *options, tflaccel_op_params *params) {
  tflaccel_status status = read_int_list(options, 0, "new_shape", &params->reshape.new_shape_count,
                                         params->reshape.new_shape);
  /* The shape input wins over new_shape, so a new_shape too long for the
   * fixed array only matters when it is the only shape given; the shape
   * inference reports that case. */
  if (status && tflaccel_status_code_of(status) == TFLACCEL_UNSUPPORTED) {
    tflaccel_status_free(status);
    params->reshape.new_shape_count = -1;
    return NULL;
  }
  return status;
}

static tflaccel_status read_block_size(const fb_table *options, tflaccel_op_params *params) {
  READ(i32, 0, 0, params->block_size.block_size);
  return NULL;
}

static tflaccel_status read_gather(const fb_table *options, tflaccel_op_params *params) {
  READ(i32, 0, 0, params->gather.axis);
  READ(i32, 1, 0, params->gather.batch_dims);
  return NULL;
}

static tflaccel_status read_reducer(const fb_table *options, tflaccel_op_params *params) {
  READ(bool, 0, 0, params->reducer.keep_dims);
  return NULL;
}

static tflaccel_status read_squeeze(const fb_table *options, tflaccel_op_params *params) {
  int32_t count;
  tflaccel_status status =
      read_int_list(options, 0, "squeeze_dims", &count, params->squeeze.squeeze_dims);
  params->squeeze.squeeze_dims_count = count < 0 ? 0 : count;
  return status;
}

static tflaccel_status read_strided_slice(const fb_table *options, tflaccel_op_params *params) {
  tflaccel_strided_slice_params *p = &params->strided_slice;
  READ(i32, 0, 0, p->begin_mask);
  READ(i32, 1, 0, p->end_mask);
  READ(i32, 2, 0, p->ellipsis_mask);
  READ(i32, 3, 0, p->new_axis_mask);
  READ(i32, 4, 0, p->shrink_axis_mask);
  READ(bool, 5, 0, p->offset);
  return NULL;
}

static tflaccel_status read_split(const fb_table *options, tflaccel_op_params *params) {
  READ(i32, 0, 0, params->split.num_splits);
  return NULL;
}

static tflaccel_status read_cast(const fb_table *options, tflaccel_op_params *params) {
  READ_ENUM(0, params->cast.in_data_type);
  READ_ENUM(1, params->cast.out_data_type);
  return NULL;
}

static tflaccel_status read_arg(const fb_table *options, tflaccel_op_params *params) {
  READ_ENUM(0, params->arg.output_type);
  return NULL;
}

static tflaccel_status read_transpose_conv(const fb_table *options,
                                           tflaccel_op_params *params) {
  tflaccel_transpose_conv_params *p = &params->transpose_conv;
  READ_ENUM(0, p->padding);
  READ(i32, 1, 0, p->stride_w);
  READ(i32, 2, 0, p->stride_h);
  READ_ENUM(3, p->fused_activation);
  return NULL;
}

static tflaccel_status read_pack(const fb_table *options, tflaccel_op_params *params) {
  READ(i32, 0, 0, params->pack.values_count);
  READ(i32, 1, 0, params->pack.axis);
  return NULL;
}

static tflaccel_status read_unpack(const fb_table *options, tflaccel_op_params *params) {
  READ(i32, 0, 0, params->unpack.num);
  READ(i32, 1, 0, params->unpack.axis);
  return NULL;
}

static tflaccel_status read_leaky_relu(const fb_table *options, tflaccel_op_params *params) {
  READ(f32, 0, 0.0f, params->leaky_relu.alpha);
  return NULL;
}

static const options_kind options_kinds[] = {
  {TFLACCEL_OP_ADD, OPTIONS_ADD, "AddOptions", read_add_sub},
  {TFLACCEL_OP_SUB, OPTIONS_SUB, "SubOptions", read_add_sub},
  {TFLACCEL_OP_MUL, OPTIONS_MUL, "MulOptions", read_mul_div},
  {TFLACCEL_OP_DIV, OPTIONS_DIV, "DivOptions", read_mul_div},
  {TFLACCEL_OP_CONV_2D, OPTIONS_CONV_2D, "Conv2DOptions", read_conv_2d},
  {TFLACCEL_OP_DEPTHWISE_CONV_2D, OPTIONS_DEPTHWISE_CONV_2D, "DepthwiseConv2DOptions",
   read_depthwise_conv_2d},
  {TFLACCEL_OP_AVERAGE_POOL_2D, OPTIONS_POOL_2D, "Pool2DOptions", read_pool_2d},
  {TFLACCEL_OP_MAX_POOL_2D, OPTIONS_POOL_2D, "Pool2DOptions", read_pool_2d},
  {TFLACCEL_OP_L2_POOL_2D, OPTIONS_POOL_2D, "Pool2DOptions", read_pool_2d},
  {TFLACCEL_OP_SVDF, OPTIONS_SVDF, "SVDFOptions", read_svdf},
  {TFLACCEL_OP_FULLY_CONNECTED, OPTIONS_FULLY_CONNECTED, "FullyConnectedOptions",
   read_fully_connected},
  {TFLACCEL_OP_SOFTMAX, OPTIONS_SOFTMAX, "SoftmaxOptions", read_softmax},
  {TFLACCEL_OP_CONCATENATION, OPTIONS_CONCATENATION, "ConcatenationOptions", read_concatenation},
  {TFLACCEL_OP_LSTM, OPTIONS_LSTM, "LSTMOptions", read_lstm},
  {TFLACCEL_OP_UNIDIRECTIONAL_SEQUENCE_LSTM, OPTIONS_UNIDIRECTIONAL_SEQUENCE_LSTM,
   "UnidirectionalSequenceLSTMOptions", read_sequence_lstm},
  {TFLACCEL_OP_RESIZE_BILINEAR, OPTIONS_RESIZE_BILINEAR, "ResizeBilinearOptions",
   read_resize_bilinear},
  {TFLACCEL_OP_RESIZE_NEAREST_NEIGHBOR, OPTIONS_RESIZE_NEAREST_NEIGHBOR,
   "ResizeNearestNeighborOptions", read_resize_nearest},
  {TFLACCEL_OP_RESHAPE, OPTIONS_RESHAPE, "ReshapeOptions", read_reshape},
  {TFLACCEL_OP_SPACE_TO_DEPTH, OPTIONS_SPACE_TO_DEPTH, "SpaceToDepthOptions", read_block_size},
  {TFLACCEL_OP_DEPTH_TO_SPACE, OPTIONS_DEPTH_TO_SPACE, "DepthToSpaceOptions", read_block_size},
  {TFLACCEL_OP_GATHER, OPTIONS_GATHER, "GatherOptions", read_gather},
  {TFLACCEL_OP_MEAN, OPTIONS_REDUCER, "ReducerOptions", read_reducer},
  {TFLACCEL_OP_SUM, OPTIONS_REDUCER, "ReducerOptions", read_reducer},
  {TFLACCEL_OP_REDUCE_MAX, OPTIONS_REDUCER, "ReducerOptions", read_reducer},
  {TFLACCEL_OP_REDUCE_MIN, OPTIONS_REDUCER, "ReducerOptions", read_reducer},
  {TFLACCEL_OP_REDUCE_PROD, OPTIONS_REDUCER, "ReducerOptions", read_reducer},
  {TFLACCEL_OP_REDUCE_ANY, OPTIONS_REDUCER, "ReducerOptions", read_reducer},
  {TFLACCEL_OP_SQUEEZE, OPTIONS_SQUEEZE, "SqueezeOptions", read_squeeze},
  {TFLACCEL_OP_STRIDED_SLICE, OPTIONS_STRIDED_SLICE, "StridedSliceOptions", read_strided_slice},
  {TFLACCEL_OP_SPLIT, OPTIONS_SPLIT, "SplitOptions", read_split},
  {TFLACCEL_OP_SPLIT_V, OPTIONS_SPLIT_V, "SplitVOptions", read_split},
  {TFLACCEL_OP_CAST, OPTIONS_CAST, "CastOptions", read_cast},
  {TFLACCEL_OP_ARG_MAX, OPTIONS_ARG_MAX, "ArgMaxOptions", read_arg},
  {TFLACCEL_OP_ARG_MIN, OPTIONS_ARG_MIN, "ArgMinOptions", read_arg},
  {TFLACCEL_OP_TRANSPOSE_CONV, OPTIONS_TRANSPOSE_CONV, "TransposeConvOptions",
   read_transpose_conv},
  {TFLACCEL_OP_PACK, OPTIONS_PACK, "PackOptions", read_pack},
  {TFLACCEL_OP_UNPACK, OPTIONS_UNPACK, "UnpackOptions", read_unpack},
  {TFLACCEL_OP_LEAKY_RELU, OPTIONS_LEAKY_RELU, "LeakyReluOptions", read_leaky_relu},
  /* Ops whose option tables have no fields: only the union type is checked. */
  {TFLACCEL_OP_PAD, OPTIONS_PAD, "PadOptions", NULL},
  {TFLACCEL_OP_PADV2, OPTIONS_PADV2, "PadV2Options", NULL},
  {TFLACCEL_OP_TRANSPOSE, OPTIONS_TRANSPOSE, "TransposeOptions", NULL},
  {TFLACCEL_OP_EXP, OPTIONS_EXP, "ExpOptions", NULL},
  {TFLACCEL_OP_DEQUANTIZE, OPTIONS_DEQUANTIZE, "DequantizeOptions", NULL},
  {TFLACCEL_OP_QUANTIZE, OPTIONS_QUANTIZE, "QuantizeOptions", NULL},
  {TFLACCEL_OP_MAXIMUM, OPTIONS_MAXIMUM_MINIMUM, "MaximumMinimumOptions", NULL},
  {TFLACCEL_OP_MINIMUM, OPTIONS_MAXIMUM_MINIMUM, "MaximumMinimumOptions", NULL},
  {TFLACCEL_OP_LOGICAL_AND, OPTIONS_LOGICAL_AND, "LogicalAndOptions", NULL},
  {TFLACCEL_OP_FLOOR_DIV, OPTIONS_FLOOR_DIV, "FloorDivOptions", NULL},
  {TFLACCEL_OP_GATHER_ND, OPTIONS_GATHER_ND, "GatherNdOptions", NULL},
  {TFLACCEL_OP_HARD_SWISH, OPTIONS_HARD_SWISH, "HardSwishOptions", NULL},
  {TFLACCEL_OP_DENSIFY, OPTIONS_DENSIFY, "DensifyOptions", NULL},
};

static const options_kind *find_kind(int32_t code) {
  for (size_t i = 0; i < sizeof options_kinds / sizeof options_kinds[0]; ++i)
    if (options_kinds[i].code == code) return &options_kinds[i];
  return NULL;
}

tflaccel_status builtin_options_parse(int32_t code, uint8_t options_type, const fb_table *options,
                                      tflaccel_op_params *params) {
  memset(params, 0, sizeof *params);
  const options_kind *kind = find_kind(code);
  if (kind == NULL) return NULL; /* options tflaccel does not interpret */
  if (options_type != OPTIONS_NONE && options_type != kind->type) {
    /* Name the type found when it is one this reader knows. */
    const char *found = "";
    for (size_t i = 0; i < sizeof options_kinds / sizeof options_kinds[0]; ++i)
      if (options_kinds[i].type == options_type) found = options_kinds[i].type_name;
    return tflaccel_status_make(TFLACCEL_INVALID_MODEL,
                                "builtin options are of type %u%s%s%s, expected %s (%u)",
                                options_type, *found ? " (" : "", found, *found ? ")" : "",
                                kind->type_name, kind->type);
  }
  if (options_type == OPTIONS_NONE) options = NULL;
  if (kind->read) {
    /* Defaults first (an absent table reads every field's default), then the
     * fields present. */
    tflaccel_status status = kind->read(options, params);
    if (status) return tflaccel_status_annotate(status, "%s", kind->type_name);
  }
  return NULL;
}

/* TfLitePadding, the enum MediaPipe's raw options hold. */
enum { TFLITE_C_PADDING_UNKNOWN = 0, TFLITE_C_PADDING_SAME = 1, TFLITE_C_PADDING_VALID = 2 };

tflaccel_status custom_options_parse(const char *custom_code, const uint8_t *options,
                                     uint32_t options_size, tflaccel_op_params *params) {
  memset(params, 0, sizeof *params);
  if (custom_code == NULL || strcmp(custom_code, CUSTOM_CODE_TRANSPOSE_CONV_BIAS) != 0)
    return NULL;
  /* A raw TfLiteTransposeConvParams: {padding, stride_width, stride_height}
   * as int32, not a flexbuffer. */
  if (options == NULL || options_size < 12)
    return tflaccel_status_make(TFLACCEL_INVALID_MODEL,
                                "%s options are %u bytes, expected 12 "
                                "(padding, stride_w, stride_h as int32)",
                                CUSTOM_CODE_TRANSPOSE_CONV_BIAS, options ? options_size : 0);
  int32_t padding = (int32_t)fb_load_u32(options);
  tflaccel_transpose_conv_bias_params *p = &params->transpose_conv_bias;
  /* Stored as tflaccel_padding like every other op. MediaPipe pads only for
   * SAME, so its "unknown" padding behaves as VALID. */
  if (padding == TFLITE_C_PADDING_SAME) p->padding = TFLACCEL_PADDING_SAME;
  else if (padding == TFLITE_C_PADDING_VALID || padding == TFLITE_C_PADDING_UNKNOWN)
    p->padding = TFLACCEL_PADDING_VALID;
  else
    return tflaccel_status_make(TFLACCEL_INVALID_MODEL,
                                "%s options: padding %d is not 0, 1 (SAME) or 2 (VALID)",
                                CUSTOM_CODE_TRANSPOSE_CONV_BIAS, padding);
  p->stride_w = (int32_t)fb_load_u32(options + 4);
  p->stride_h = (int32_t)fb_load_u32(options + 8);
  return NULL;
}
