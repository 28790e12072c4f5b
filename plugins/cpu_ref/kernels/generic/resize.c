/* RESIZE_BILINEAR (float32) and RESIZE_NEAREST_NEIGHBOR (any fixed-size
 * dtype), NHWC, with TFLite's coordinate rules:
 *   scale = in / out, or (in - 1) / (out - 1) with align_corners (out > 1);
 *   bilinear source = (o + 0.5) * scale - 0.5 with half_pixel_centers, else
 *   o * scale, clamped to [0, in - 1]; it blends its two neighbours;
 *   nearest = min(round-or-floor((o + offset) * scale), in - 1), offset 0.5
 *   with half_pixel_centers (then also max 0), round with align_corners.
 * The output size comes from the output tensor (the size input, when
 * constant, must agree). */
#include "config.h"

#include <math.h>
#include <string.h>

#include "plugins/cpu_ref/kernels/generic/generic_kernels.h"
#include "plugins/cpu_ref/kernels/kernel_util.h"

static int resize_check(const tflaccel_graph_view *graph, const tflaccel_op_desc *op,
                        char *reason) {
  const char *name = cpu_op_name(op);
  if (!cpu_check_arity(graph, op, 1, 2, 1, reason)) return 0;
  const tflaccel_tensor_desc *input = cpu_op_input(graph, op, 0);
  const tflaccel_tensor_desc *size = cpu_op_input(graph, op, 1);
  const tflaccel_tensor_desc *output = cpu_op_output(graph, op, 0);
  if (!cpu_check_rank(input, 4, "input", reason) || !cpu_check_rank(output, 4, "output", reason))
    return 0;
  if (op->code == TFLACCEL_OP_RESIZE_BILINEAR) {
    if (!cpu_check_dtype(input, TFLACCEL_DTYPE_FLOAT32, "RESIZE_BILINEAR input", reason) ||
        !cpu_check_dtype(output, TFLACCEL_DTYPE_FLOAT32, "RESIZE_BILINEAR output", reason))
      return 0;
  } else {
    if (input->dtype != output->dtype)
      return cpu_reason(reason, "%s: input is %s, output %s", name, cpu_dtype_name(input->dtype),
                        cpu_dtype_name(output->dtype));
    if (!cpu_check_same_quantization(input, output, reason)) return 0;
  }
  if (op->params->resize.align_corners && op->params->resize.half_pixel_centers)
    return cpu_reason(reason, "%s: align_corners and half_pixel_centers are exclusive", name);
  if (output->dims[0] != input->dims[0] || output->dims[3] != input->dims[3])
    return cpu_reason(reason, "%s: batch and channels must be kept", name);
  if (input->dims[1] < 1 || input->dims[2] < 1)
    return cpu_reason(reason, "%s: empty input", name);
  if (size != NULL && cpu_is_constant(size)) {
    if (size->dtype != TFLACCEL_DTYPE_INT32 || cpu_element_count(size) != 2)
      return cpu_reason(reason, "%s: size must be two int32 values", name);
    const int32_t *values = size->data;
    if (values[0] != output->dims[1] || values[1] != output->dims[2])
      return cpu_reason(reason, "%s: size %dx%d differs from the output's %dx%d", name,
                        values[0], values[1], output->dims[1], output->dims[2]);
  }
  return 1;
}

static float resize_scale(int32_t in, int32_t out, int align_corners) {
  if (align_corners && out > 1) return (float)(in - 1) / (float)(out - 1);
  return (float)in / (float)out;
}

/* One bilinear source coordinate: the two neighbours and the weight of
 * the second. TFLite computes source = (o + 0.5) * scale - 0.5 (or
 * o * scale) and weights from the unclamped source with lower = max(floor,
 * 0), upper = min(ceil, in - 1); clamping the source to [0, in - 1] first,
 * as XNNPACK does, gives the same values and lets the blend below be
 * XNNPACK's (the float references come from it; some models amplify
 * rounding differences). */
typedef struct bilinear_tap {
  int32_t lower, upper;
  float alpha;
} bilinear_tap;

static bilinear_tap bilinear_coordinate(int32_t o, float scale, int half_pixel, int32_t in) {
  bilinear_tap tap;
  float source = half_pixel ? (float)o * scale + (0.5f * scale - 0.5f) : (float)o * scale;
  float highest = (float)(in - 1);
  source = source < 0.0f ? 0.0f : (source > highest ? highest : source);
  tap.lower = (int32_t)source;
  tap.upper = tap.lower + 1 < in ? tap.lower + 1 : in - 1;
  tap.alpha = source - (float)tap.lower;
  return tap;
}

static int32_t nearest_coordinate(int32_t o, float scale, int align_corners, int half_pixel,
                                  int32_t in) {
  float offset = half_pixel ? 0.5f : 0.0f;
  float source = ((float)o + offset) * scale;
  int32_t value = align_corners ? (int32_t)roundf(source) : (int32_t)floorf(source);
  if (value > in - 1) value = in - 1;
  if (half_pixel && value < 0) value = 0;
  return value;
}

typedef struct resize_job {
  const tflaccel_tensor_desc *input, *output;
  const unsigned char *in;
  unsigned char *out;
  int align_corners, half_pixel;
  float scale_h, scale_w;
} resize_job;

static void bilinear_rows(void *argument, int64_t begin, int64_t end) {
  const resize_job *job = argument;
  int32_t in_h = job->input->dims[1], in_w = job->input->dims[2], channels = job->input->dims[3];
  int32_t out_h = job->output->dims[1], out_w = job->output->dims[2];
  const float *in = (const float *)(const void *)job->in;
  float *out = (float *)(void *)job->out;
  for (int64_t row = begin; row < end; row++) {
    int64_t batch = row / out_h;
    int32_t y = (int32_t)(row % out_h);
    bilinear_tap ty = bilinear_coordinate(y, job->scale_h, job->half_pixel, in_h);
    float alpha_y = ty.alpha;
    const float *image = in + batch * in_h * in_w * channels;
    const float *row0 = image + (int64_t)ty.lower * in_w * channels;
    const float *row1 = image + (int64_t)ty.upper * in_w * channels;
    for (int32_t x = 0; x < out_w; x++) {
      bilinear_tap tx = bilinear_coordinate(x, job->scale_w, job->half_pixel, in_w);
      float alpha_x = tx.alpha;
      const float *top_left = row0 + (int64_t)tx.lower * channels;
      const float *top_right = row0 + (int64_t)tx.upper * channels;
      const float *bottom_left = row1 + (int64_t)tx.lower * channels;
      const float *bottom_right = row1 + (int64_t)tx.upper * channels;
      float *o = out + (row * out_w + x) * channels;
      for (int32_t c = 0; c < channels; c++) {
        float top = top_left[c] + (top_right[c] - top_left[c]) * alpha_x;
        float bottom = bottom_left[c] + (bottom_right[c] - bottom_left[c]) * alpha_x;
        o[c] = top + (bottom - top) * alpha_y;
      }
    }
  }
}

static void nearest_rows(void *argument, int64_t begin, int64_t end) {
  const resize_job *job = argument;
  int32_t in_h = job->input->dims[1], in_w = job->input->dims[2];
  int32_t out_h = job->output->dims[1], out_w = job->output->dims[2];
  size_t pixel = (size_t)job->input->dims[3] * cpu_dtype_size(job->input->dtype);
  for (int64_t row = begin; row < end; row++) {
    int64_t batch = row / out_h;
    int32_t y = (int32_t)(row % out_h);
    int32_t source_y = nearest_coordinate(y, job->scale_h, job->align_corners, job->half_pixel,
                                          in_h);
    const unsigned char *source_row = job->in + ((size_t)batch * in_h + source_y) * in_w * pixel;
    for (int32_t x = 0; x < out_w; x++) {
      int32_t source_x = nearest_coordinate(x, job->scale_w, job->align_corners,
                                            job->half_pixel, in_w);
      memcpy(job->out + ((size_t)row * out_w + x) * pixel, source_row + (size_t)source_x * pixel,
             pixel);
    }
  }
}

static tflaccel_status resize_eval(const cpu_op_context *context) {
  resize_job job;
  job.input = cpu_input_tensor(context, 0);
  job.output = cpu_output_tensor(context, 0);
  job.in = cpu_input_data(context, 0);
  job.out = cpu_output_data(context, 0);
  job.align_corners = context->op->params->resize.align_corners != 0;
  job.half_pixel = context->op->params->resize.half_pixel_centers != 0;
  job.scale_h = resize_scale(job.input->dims[1], job.output->dims[1], job.align_corners);
  job.scale_w = resize_scale(job.input->dims[2], job.output->dims[2], job.align_corners);
  int64_t rows = (int64_t)job.output->dims[0] * job.output->dims[1];
  cpu_parallel_for(context->pool, rows, 4,
                   context->op->code == TFLACCEL_OP_RESIZE_BILINEAR ? bilinear_rows : nearest_rows,
                   &job);
  return NULL;
}

const cpu_kernel cpu_kernel_resize_bilinear = {
    .op_code = TFLACCEL_OP_RESIZE_BILINEAR, .check = resize_check, .eval = resize_eval};
const cpu_kernel cpu_kernel_resize_nearest_neighbor = {
    .op_code = TFLACCEL_OP_RESIZE_NEAREST_NEIGHBOR, .check = resize_check, .eval = resize_eval};
