/* tflaccel operators: the op codes and their parameters, as plugins see them.
 *
 * Op codes are TFLite's BuiltinOperator values (from schema.fbs), so a code
 * printed anywhere can be looked up in TFLite's documentation. Parameters are
 * parsed by the core from each operator's builtin options into the structs
 * below; plugins read them through tflaccel_op_desc.params. Part of the ABI:
 * values are never renumbered, structs and the union only grow at the end. */
#ifndef TFLACCEL_OPS_H
#define TFLACCEL_OPS_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum tflaccel_op_code {
  TFLACCEL_OP_ADD = 0,
  TFLACCEL_OP_AVERAGE_POOL_2D = 1,
  TFLACCEL_OP_CONCATENATION = 2,
  TFLACCEL_OP_CONV_2D = 3,
  TFLACCEL_OP_DEPTHWISE_CONV_2D = 4,
  TFLACCEL_OP_DEPTH_TO_SPACE = 5,
  TFLACCEL_OP_DEQUANTIZE = 6,
  TFLACCEL_OP_EMBEDDING_LOOKUP = 7,
  TFLACCEL_OP_FLOOR = 8,
  TFLACCEL_OP_FULLY_CONNECTED = 9,
  TFLACCEL_OP_HASHTABLE_LOOKUP = 10,
  TFLACCEL_OP_L2_NORMALIZATION = 11,
  TFLACCEL_OP_L2_POOL_2D = 12,
  TFLACCEL_OP_LOCAL_RESPONSE_NORMALIZATION = 13,
  TFLACCEL_OP_LOGISTIC = 14,
  TFLACCEL_OP_LSH_PROJECTION = 15,
  TFLACCEL_OP_LSTM = 16,
  TFLACCEL_OP_MAX_POOL_2D = 17,
  TFLACCEL_OP_MUL = 18,
  TFLACCEL_OP_RELU = 19,
  TFLACCEL_OP_RELU_N1_TO_1 = 20,
  TFLACCEL_OP_RELU6 = 21,
  TFLACCEL_OP_RESHAPE = 22,
  TFLACCEL_OP_RESIZE_BILINEAR = 23,
  TFLACCEL_OP_RNN = 24,
  TFLACCEL_OP_SOFTMAX = 25,
  TFLACCEL_OP_SPACE_TO_DEPTH = 26,
  TFLACCEL_OP_SVDF = 27,
  TFLACCEL_OP_TANH = 28,
  TFLACCEL_OP_CONCAT_EMBEDDINGS = 29,
  TFLACCEL_OP_SKIP_GRAM = 30,
  TFLACCEL_OP_CALL = 31,
  TFLACCEL_OP_CUSTOM = 32,
  TFLACCEL_OP_EMBEDDING_LOOKUP_SPARSE = 33,
  TFLACCEL_OP_PAD = 34,
  TFLACCEL_OP_UNIDIRECTIONAL_SEQUENCE_RNN = 35,
  TFLACCEL_OP_GATHER = 36,
  TFLACCEL_OP_BATCH_TO_SPACE_ND = 37,
  TFLACCEL_OP_SPACE_TO_BATCH_ND = 38,
  TFLACCEL_OP_TRANSPOSE = 39,
  TFLACCEL_OP_MEAN = 40,
  TFLACCEL_OP_SUB = 41,
  TFLACCEL_OP_DIV = 42,
  TFLACCEL_OP_SQUEEZE = 43,
  TFLACCEL_OP_UNIDIRECTIONAL_SEQUENCE_LSTM = 44,
  TFLACCEL_OP_STRIDED_SLICE = 45,
  TFLACCEL_OP_BIDIRECTIONAL_SEQUENCE_RNN = 46,
  TFLACCEL_OP_EXP = 47,
  TFLACCEL_OP_TOPK_V2 = 48,
  TFLACCEL_OP_SPLIT = 49,
  TFLACCEL_OP_LOG_SOFTMAX = 50,
  TFLACCEL_OP_DELEGATE = 51,
  TFLACCEL_OP_BIDIRECTIONAL_SEQUENCE_LSTM = 52,
  TFLACCEL_OP_CAST = 53,
  TFLACCEL_OP_PRELU = 54,
  TFLACCEL_OP_MAXIMUM = 55,
  TFLACCEL_OP_ARG_MAX = 56,
  TFLACCEL_OP_MINIMUM = 57,
  TFLACCEL_OP_LESS = 58,
  TFLACCEL_OP_NEG = 59,
  TFLACCEL_OP_PADV2 = 60,
  TFLACCEL_OP_GREATER = 61,
  TFLACCEL_OP_GREATER_EQUAL = 62,
  TFLACCEL_OP_LESS_EQUAL = 63,
  TFLACCEL_OP_SELECT = 64,
  TFLACCEL_OP_SLICE = 65,
  TFLACCEL_OP_SIN = 66,
  TFLACCEL_OP_TRANSPOSE_CONV = 67,
  TFLACCEL_OP_SPARSE_TO_DENSE = 68,
  TFLACCEL_OP_TILE = 69,
  TFLACCEL_OP_EXPAND_DIMS = 70,
  TFLACCEL_OP_EQUAL = 71,
  TFLACCEL_OP_NOT_EQUAL = 72,
  TFLACCEL_OP_LOG = 73,
  TFLACCEL_OP_SUM = 74,
  TFLACCEL_OP_SQRT = 75,
  TFLACCEL_OP_RSQRT = 76,
  TFLACCEL_OP_SHAPE = 77,
  TFLACCEL_OP_POW = 78,
  TFLACCEL_OP_ARG_MIN = 79,
  TFLACCEL_OP_FAKE_QUANT = 80,
  TFLACCEL_OP_REDUCE_PROD = 81,
  TFLACCEL_OP_REDUCE_MAX = 82,
  TFLACCEL_OP_PACK = 83,
  TFLACCEL_OP_LOGICAL_OR = 84,
  TFLACCEL_OP_ONE_HOT = 85,
  TFLACCEL_OP_LOGICAL_AND = 86,
  TFLACCEL_OP_LOGICAL_NOT = 87,
  TFLACCEL_OP_UNPACK = 88,
  TFLACCEL_OP_REDUCE_MIN = 89,
  TFLACCEL_OP_FLOOR_DIV = 90,
  TFLACCEL_OP_REDUCE_ANY = 91,
  TFLACCEL_OP_SQUARE = 92,
  TFLACCEL_OP_ZEROS_LIKE = 93,
  TFLACCEL_OP_FILL = 94,
  TFLACCEL_OP_FLOOR_MOD = 95,
  TFLACCEL_OP_RANGE = 96,
  TFLACCEL_OP_RESIZE_NEAREST_NEIGHBOR = 97,
  TFLACCEL_OP_LEAKY_RELU = 98,
  TFLACCEL_OP_SQUARED_DIFFERENCE = 99,
  TFLACCEL_OP_MIRROR_PAD = 100,
  TFLACCEL_OP_ABS = 101,
  TFLACCEL_OP_SPLIT_V = 102,
  TFLACCEL_OP_UNIQUE = 103,
  TFLACCEL_OP_CEIL = 104,
  TFLACCEL_OP_REVERSE_V2 = 105,
  TFLACCEL_OP_ADD_N = 106,
  TFLACCEL_OP_GATHER_ND = 107,
  TFLACCEL_OP_COS = 108,
  TFLACCEL_OP_WHERE = 109,
  TFLACCEL_OP_RANK = 110,
  TFLACCEL_OP_ELU = 111,
  TFLACCEL_OP_REVERSE_SEQUENCE = 112,
  TFLACCEL_OP_MATRIX_DIAG = 113,
  TFLACCEL_OP_QUANTIZE = 114,
  TFLACCEL_OP_MATRIX_SET_DIAG = 115,
  TFLACCEL_OP_ROUND = 116,
  TFLACCEL_OP_HARD_SWISH = 117,
  TFLACCEL_OP_IF = 118,
  TFLACCEL_OP_WHILE = 119,
  TFLACCEL_OP_NON_MAX_SUPPRESSION_V4 = 120,
  TFLACCEL_OP_NON_MAX_SUPPRESSION_V5 = 121,
  TFLACCEL_OP_SCATTER_ND = 122,
  TFLACCEL_OP_SELECT_V2 = 123,
  TFLACCEL_OP_DENSIFY = 124,
  TFLACCEL_OP_SEGMENT_SUM = 125,
  TFLACCEL_OP_BATCH_MATMUL = 126,
  TFLACCEL_OP_PLACEHOLDER_FOR_GREATER_OP_CODES = 127,
  TFLACCEL_OP_CUMSUM = 128,
  TFLACCEL_OP_CALL_ONCE = 129,
  TFLACCEL_OP_BROADCAST_TO = 130,
  TFLACCEL_OP_RFFT2D = 131,
  TFLACCEL_OP_CONV_3D = 132,
  TFLACCEL_OP_IMAG = 133,
  TFLACCEL_OP_REAL = 134,
  TFLACCEL_OP_COMPLEX_ABS = 135,
  TFLACCEL_OP_HASHTABLE = 136,
  TFLACCEL_OP_HASHTABLE_FIND = 137,
  TFLACCEL_OP_HASHTABLE_IMPORT = 138,
  TFLACCEL_OP_HASHTABLE_SIZE = 139,
  TFLACCEL_OP_REDUCE_ALL = 140,
  TFLACCEL_OP_CONV_3D_TRANSPOSE = 141,
  TFLACCEL_OP_VAR_HANDLE = 142,
  TFLACCEL_OP_READ_VARIABLE = 143,
  TFLACCEL_OP_ASSIGN_VARIABLE = 144,
  TFLACCEL_OP_BROADCAST_ARGS = 145,
  TFLACCEL_OP_RANDOM_STANDARD_NORMAL = 146,
  TFLACCEL_OP_BUCKETIZE = 147,
  TFLACCEL_OP_RANDOM_UNIFORM = 148,
  TFLACCEL_OP_MULTINOMIAL = 149,
  TFLACCEL_OP_GELU = 150,
  TFLACCEL_OP_DYNAMIC_UPDATE_SLICE = 151,
  TFLACCEL_OP_RELU_0_TO_1 = 152,
  TFLACCEL_OP_UNSORTED_SEGMENT_PROD = 153,
  TFLACCEL_OP_UNSORTED_SEGMENT_MAX = 154,
  TFLACCEL_OP_UNSORTED_SEGMENT_SUM = 155,
  TFLACCEL_OP_ATAN2 = 156,
  TFLACCEL_OP_UNSORTED_SEGMENT_MIN = 157,
  TFLACCEL_OP_SIGN = 158,
  TFLACCEL_OP_BITCAST = 159,
  TFLACCEL_OP_BITWISE_XOR = 160,
  TFLACCEL_OP_RIGHT_SHIFT = 161,
  TFLACCEL_OP_STABLEHLO_LOGISTIC = 162,
  TFLACCEL_OP_STABLEHLO_ADD = 163,
  TFLACCEL_OP_STABLEHLO_DIVIDE = 164,
  TFLACCEL_OP_STABLEHLO_MULTIPLY = 165,
  TFLACCEL_OP_STABLEHLO_MAXIMUM = 166,
  TFLACCEL_OP_STABLEHLO_RESHAPE = 167,
  TFLACCEL_OP_STABLEHLO_CLAMP = 168,
  TFLACCEL_OP_STABLEHLO_CONCATENATE = 169,
  TFLACCEL_OP_STABLEHLO_BROADCAST_IN_DIM = 170,
  TFLACCEL_OP_STABLEHLO_CONVOLUTION = 171,
  TFLACCEL_OP_STABLEHLO_SLICE = 172,
  TFLACCEL_OP_STABLEHLO_CUSTOM_CALL = 173,
  TFLACCEL_OP_STABLEHLO_REDUCE = 174,
  TFLACCEL_OP_STABLEHLO_ABS = 175,
  TFLACCEL_OP_STABLEHLO_AND = 176,
  TFLACCEL_OP_STABLEHLO_COSINE = 177,
  TFLACCEL_OP_STABLEHLO_EXPONENTIAL = 178,
  TFLACCEL_OP_STABLEHLO_FLOOR = 179,
  TFLACCEL_OP_STABLEHLO_LOG = 180,
  TFLACCEL_OP_STABLEHLO_MINIMUM = 181,
  TFLACCEL_OP_STABLEHLO_NEGATE = 182,
  TFLACCEL_OP_STABLEHLO_OR = 183,
  TFLACCEL_OP_STABLEHLO_POWER = 184,
  TFLACCEL_OP_STABLEHLO_REMAINDER = 185,
  TFLACCEL_OP_STABLEHLO_RSQRT = 186,
  TFLACCEL_OP_STABLEHLO_SELECT = 187,
  TFLACCEL_OP_STABLEHLO_SUBTRACT = 188,
  TFLACCEL_OP_STABLEHLO_TANH = 189,
  TFLACCEL_OP_STABLEHLO_SCATTER = 190,
  TFLACCEL_OP_STABLEHLO_COMPARE = 191,
  TFLACCEL_OP_STABLEHLO_CONVERT = 192,
  TFLACCEL_OP_STABLEHLO_DYNAMIC_SLICE = 193,
  TFLACCEL_OP_STABLEHLO_DYNAMIC_UPDATE_SLICE = 194,
  TFLACCEL_OP_STABLEHLO_PAD = 195,
  TFLACCEL_OP_STABLEHLO_IOTA = 196,
  TFLACCEL_OP_STABLEHLO_DOT_GENERAL = 197,
  TFLACCEL_OP_STABLEHLO_REDUCE_WINDOW = 198,
  TFLACCEL_OP_STABLEHLO_SORT = 199,
  TFLACCEL_OP_STABLEHLO_WHILE = 200,
  TFLACCEL_OP_STABLEHLO_GATHER = 201,
  TFLACCEL_OP_STABLEHLO_TRANSPOSE = 202,
  TFLACCEL_OP_DILATE = 203,
  TFLACCEL_OP_STABLEHLO_RNG_BIT_GENERATOR = 204,
  TFLACCEL_OP_REDUCE_WINDOW = 205, /* deprecated in the schema */
  TFLACCEL_OP_STABLEHLO_COMPOSITE = 206,
  TFLACCEL_OP_STABLEHLO_SHIFT_LEFT = 207,
  TFLACCEL_OP_STABLEHLO_CBRT = 208,
  TFLACCEL_OP_STABLEHLO_CASE = 209,
} tflaccel_op_code;

/* Number of op codes this header names (one past the largest). */
#define TFLACCEL_OP_CODE_COUNT 210

typedef enum tflaccel_fused_activation {
  TFLACCEL_ACT_NONE = 0,
  TFLACCEL_ACT_RELU = 1,
  TFLACCEL_ACT_RELU_N1_TO_1 = 2,
  TFLACCEL_ACT_RELU6 = 3,
  TFLACCEL_ACT_TANH = 4,
  TFLACCEL_ACT_SIGN_BIT = 5,
} tflaccel_fused_activation;

typedef enum tflaccel_padding {
  TFLACCEL_PADDING_SAME = 0,
  TFLACCEL_PADDING_VALID = 1,
} tflaccel_padding;

/* CONV_2D. */
typedef struct tflaccel_conv_2d_params {
  int32_t padding;          /* tflaccel_padding */
  int32_t stride_w, stride_h;
  int32_t fused_activation; /* tflaccel_fused_activation */
  int32_t dilation_w, dilation_h;
} tflaccel_conv_2d_params;

/* DEPTHWISE_CONV_2D. */
typedef struct tflaccel_depthwise_conv_2d_params {
  int32_t padding;
  int32_t stride_w, stride_h;
  int32_t depth_multiplier;
  int32_t fused_activation;
  int32_t dilation_w, dilation_h;
} tflaccel_depthwise_conv_2d_params;

/* AVERAGE_POOL_2D, MAX_POOL_2D, L2_POOL_2D. */
typedef struct tflaccel_pool_2d_params {
  int32_t padding;
  int32_t stride_w, stride_h;
  int32_t filter_w, filter_h;
  int32_t fused_activation;
} tflaccel_pool_2d_params;

/* FULLY_CONNECTED. weights_format: 0 = DEFAULT, 1 = SHUFFLED4x16INT8. */
typedef struct tflaccel_fully_connected_params {
  int32_t fused_activation;
  int32_t weights_format;
  int32_t keep_num_dims;
  int32_t asymmetric_quantize_inputs;
} tflaccel_fully_connected_params;

/* ADD, SUB, MUL, DIV (pot_scale_int16 is meaningful for ADD/SUB only). */
typedef struct tflaccel_arithmetic_params {
  int32_t fused_activation;
  int32_t pot_scale_int16;
} tflaccel_arithmetic_params;

/* CONCATENATION. */
typedef struct tflaccel_concatenation_params {
  int32_t axis;
  int32_t fused_activation;
} tflaccel_concatenation_params;

#define TFLACCEL_MAX_PARAM_DIMS 8

/* RESHAPE (new_shape is optional in the file; the shape input wins). */
typedef struct tflaccel_reshape_params {
  int32_t new_shape_count; /* -1 when the option is absent */
  int32_t new_shape[TFLACCEL_MAX_PARAM_DIMS];
} tflaccel_reshape_params;

/* SOFTMAX. */
typedef struct tflaccel_softmax_params {
  float beta;
} tflaccel_softmax_params;

/* RESIZE_BILINEAR, RESIZE_NEAREST_NEIGHBOR. */
typedef struct tflaccel_resize_params {
  int32_t align_corners;
  int32_t half_pixel_centers;
} tflaccel_resize_params;

/* DEPTH_TO_SPACE, SPACE_TO_DEPTH. */
typedef struct tflaccel_block_size_params {
  int32_t block_size;
} tflaccel_block_size_params;

/* STRIDED_SLICE. */
typedef struct tflaccel_strided_slice_params {
  int32_t begin_mask, end_mask, ellipsis_mask, new_axis_mask, shrink_axis_mask;
  int32_t offset;
} tflaccel_strided_slice_params;

/* MEAN, SUM, REDUCE_MAX, REDUCE_MIN, REDUCE_PROD, REDUCE_ANY. */
typedef struct tflaccel_reducer_params {
  int32_t keep_dims;
} tflaccel_reducer_params;

/* ARG_MAX, ARG_MIN: output_type is a tflaccel_dtype. */
typedef struct tflaccel_arg_params {
  int32_t output_type;
} tflaccel_arg_params;

/* CAST: both are tflaccel_dtype (TFLite TensorType values; the output tensor
 * dtype is authoritative when the options are absent). */
typedef struct tflaccel_cast_params {
  int32_t in_data_type, out_data_type;
} tflaccel_cast_params;

/* PACK. */
typedef struct tflaccel_pack_params {
  int32_t values_count;
  int32_t axis;
} tflaccel_pack_params;

/* UNPACK. */
typedef struct tflaccel_unpack_params {
  int32_t num;
  int32_t axis;
} tflaccel_unpack_params;

/* TRANSPOSE_CONV. */
typedef struct tflaccel_transpose_conv_params {
  int32_t padding;
  int32_t stride_w, stride_h;
  int32_t fused_activation;
} tflaccel_transpose_conv_params;

/* LSTM. kernel_type: 0 = FULL, 1 = BASIC. */
typedef struct tflaccel_lstm_params {
  int32_t fused_activation;
  float cell_clip, proj_clip;
  int32_t kernel_type;
  int32_t asymmetric_quantize_inputs;
} tflaccel_lstm_params;

/* UNIDIRECTIONAL_SEQUENCE_LSTM. */
typedef struct tflaccel_sequence_lstm_params {
  int32_t fused_activation;
  float cell_clip, proj_clip;
  int32_t time_major;
  int32_t asymmetric_quantize_inputs;
  int32_t diagonal_recurrent_tensors;
} tflaccel_sequence_lstm_params;

/* SVDF. */
typedef struct tflaccel_svdf_params {
  int32_t rank;
  int32_t fused_activation;
  int32_t asymmetric_quantize_inputs;
} tflaccel_svdf_params;

/* LEAKY_RELU. */
typedef struct tflaccel_leaky_relu_params {
  float alpha;
} tflaccel_leaky_relu_params;

/* SQUEEZE. */
typedef struct tflaccel_squeeze_params {
  int32_t squeeze_dims_count;
  int32_t squeeze_dims[TFLACCEL_MAX_PARAM_DIMS];
} tflaccel_squeeze_params;

/* GATHER. */
typedef struct tflaccel_gather_params {
  int32_t axis;
  int32_t batch_dims;
} tflaccel_gather_params;

/* SPLIT, SPLIT_V. */
typedef struct tflaccel_split_params {
  int32_t num_splits;
} tflaccel_split_params;

/* The MediaPipe custom op Convolution2DTransposeBias (custom_code
 * "Convolution2DTransposeBias"); its custom_options are a raw 12-byte struct
 * {padding, stride_w, stride_h} as int32, not a flexbuffer. Inputs: input,
 * weights [O,H,W,I], bias [O]. */
typedef struct tflaccel_transpose_conv_bias_params {
  int32_t padding; /* tflaccel_padding (the loader converts MediaPipe's TfLitePadding) */
  int32_t stride_w, stride_h;
} tflaccel_transpose_conv_bias_params;

/* The parameters of one op; which member is valid follows from the op code
 * (and, for CUSTOM, from the custom code). Ops without options leave it
 * zeroed. Plugins only read it through a pointer, so it may grow. */
typedef union tflaccel_op_params {
  tflaccel_conv_2d_params conv_2d;
  tflaccel_depthwise_conv_2d_params depthwise_conv_2d;
  tflaccel_pool_2d_params pool_2d;
  tflaccel_fully_connected_params fully_connected;
  tflaccel_arithmetic_params arithmetic;
  tflaccel_concatenation_params concatenation;
  tflaccel_reshape_params reshape;
  tflaccel_softmax_params softmax;
  tflaccel_resize_params resize;
  tflaccel_block_size_params block_size;
  tflaccel_strided_slice_params strided_slice;
  tflaccel_reducer_params reducer;
  tflaccel_arg_params arg;
  tflaccel_cast_params cast;
  tflaccel_pack_params pack;
  tflaccel_unpack_params unpack;
  tflaccel_transpose_conv_params transpose_conv;
  tflaccel_lstm_params lstm;
  tflaccel_sequence_lstm_params sequence_lstm;
  tflaccel_svdf_params svdf;
  tflaccel_leaky_relu_params leaky_relu;
  tflaccel_squeeze_params squeeze;
  tflaccel_gather_params gather;
  tflaccel_split_params split;
  tflaccel_transpose_conv_bias_params transpose_conv_bias;
  uint8_t reserved[64];
} tflaccel_op_params;

#ifdef __cplusplus
}
#endif
#endif /* TFLACCEL_OPS_H */
