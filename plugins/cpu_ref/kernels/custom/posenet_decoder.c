/* PosenetDecoderOp (Coral, libcoral coral/pose_estimation): multi-person
 * pose decoding of PersonLab (Papandreou et al., 2018) from PoseNet's
 * heatmaps (logits) and short- and mid-range offsets.
 *
 * Written from the published semantics, step by step in float as libcoral
 * computes: the inputs are dequantized ((q - zero_point) * scale, offsets
 * also divided by the stride); candidate roots are the local maxima (3x3
 * window) of each keypoint's heatmap whose logit reaches
 * logodds(score_threshold), refined by their short offset; roots are taken
 * in decreasing score, skipped when within nms_radius of the same keypoint
 * of a pose already kept, and a pose is grown from each along the 32
 * directed edges of the skeleton (mid offset, then 5 short-offset
 * refinements, bilinear sampling), keypoints decoded in decreasing score;
 * a pose is kept when the mean sigmoid of its keypoint scores reaches the
 * threshold. Then soft keypoint NMS rescores each pose without its
 * keypoints that lie within nms_radius of a higher-scoring pose's, poses
 * are sorted by that score and written, coordinates times the stride.
 *
 * The two priority queues reproduce std::priority_queue of GCC's libstdc++
 * (push_heap / pop_heap), so that candidates of equal score come out in
 * libcoral's order; sorts of scores are stable, where libcoral's std::sort
 * leaves ties unordered (ties of instance scores are the only place the
 * order can show). Output slots past the pose count are zero (libcoral
 * leaves them unwritten). The 4-input form with instance masks is
 * declined. */
#include "config.h"

#include <math.h>
#include <string.h>

#include "core/facts/posenet_decoder.h"
#include "plugins/cpu_ref/kernels/custom/custom_kernels.h"
#include "plugins/cpu_ref/kernels/kernel_util.h"

#define K POSENET_KEYPOINTS
#define E POSENET_EDGES
#define REFINEMENT_STEPS 5
#define LOCAL_MAXIMUM_RADIUS 1

enum {
  NOSE, LEFT_EYE, RIGHT_EYE, LEFT_EAR, RIGHT_EAR, LEFT_SHOULDER, RIGHT_SHOULDER, LEFT_ELBOW,
  RIGHT_ELBOW, LEFT_WRIST, RIGHT_WRIST, LEFT_HIP, RIGHT_HIP, LEFT_KNEE, RIGHT_KNEE, LEFT_ANKLE,
  RIGHT_ANKLE
};

/* The skeleton's edges: 16 forward (parent, child), then the same 16
 * backward. The mid offsets hold [fwd y][fwd x][bwd y][bwd x], 16 each. */
static const uint8_t edges[2 * E][2] = {
    {NOSE, LEFT_EYE},          {LEFT_EYE, LEFT_EAR},        {NOSE, RIGHT_EYE},
    {RIGHT_EYE, RIGHT_EAR},    {NOSE, LEFT_SHOULDER},       {LEFT_SHOULDER, LEFT_ELBOW},
    {LEFT_ELBOW, LEFT_WRIST},  {LEFT_SHOULDER, LEFT_HIP},   {LEFT_HIP, LEFT_KNEE},
    {LEFT_KNEE, LEFT_ANKLE},   {NOSE, RIGHT_SHOULDER},      {RIGHT_SHOULDER, RIGHT_ELBOW},
    {RIGHT_ELBOW, RIGHT_WRIST}, {RIGHT_SHOULDER, RIGHT_HIP}, {RIGHT_HIP, RIGHT_KNEE},
    {RIGHT_KNEE, RIGHT_ANKLE},
    {LEFT_EYE, NOSE},          {LEFT_EAR, LEFT_EYE},        {RIGHT_EYE, NOSE},
    {RIGHT_EAR, RIGHT_EYE},    {LEFT_SHOULDER, NOSE},       {LEFT_ELBOW, LEFT_SHOULDER},
    {LEFT_WRIST, LEFT_ELBOW},  {LEFT_HIP, LEFT_SHOULDER},   {LEFT_KNEE, LEFT_HIP},
    {LEFT_ANKLE, LEFT_KNEE},   {RIGHT_SHOULDER, NOSE},      {RIGHT_ELBOW, RIGHT_SHOULDER},
    {RIGHT_WRIST, RIGHT_ELBOW}, {RIGHT_HIP, RIGHT_SHOULDER}, {RIGHT_KNEE, RIGHT_HIP},
    {RIGHT_ANKLE, RIGHT_KNEE},
};

typedef struct point {
  float y, x;
} point;

typedef struct keypoint {
  point at;
  int32_t id;
  float score;
} keypoint;

/* A max-heap on score with libstdc++'s push_heap/pop_heap moves. */
typedef struct heap {
  keypoint *items;
  size_t count, capacity;
} heap;

static void heap_sift_up(keypoint *items, size_t hole, size_t top, keypoint value) {
  size_t parent = (hole - 1) / 2;
  while (hole > top && items[parent].score < value.score) {
    items[hole] = items[parent];
    hole = parent;
    parent = (hole - 1) / 2;
  }
  items[hole] = value;
}

static void heap_push(heap *h, keypoint value) {
  if (h->count == h->capacity) return; /* capacities are sized so this cannot happen */
  h->items[h->count++] = value;
  heap_sift_up(h->items, h->count - 1, 0, h->items[h->count - 1]);
}

static keypoint heap_pop(heap *h) {
  keypoint *items = h->items;
  const keypoint top = items[0];
  const size_t len = h->count - 1; /* the heap once the last item is taken out */
  if (len > 0) {
    const keypoint value = items[len];
    items[len] = items[0];
    /* __adjust_heap: move the hole down to a leaf, larger child first
     * (the left one on equal scores), then sift the value up. */
    size_t hole = 0, child = 0;
    while (child < (len - 1) / 2) {
      child = 2 * (child + 1);
      if (items[child].score < items[child - 1].score) child--;
      items[hole] = items[child];
      hole = child;
    }
    if ((len & 1) == 0 && child == (len - 2) / 2) {
      child = 2 * (child + 1);
      items[hole] = items[child - 1];
      hole = child - 1;
    }
    heap_sift_up(items, hole, 0, value);
  }
  h->count--;
  return top;
}

typedef struct decoder {
  int32_t height, width;
  const float *scores, *shorts, *mids; /* dequantized */
} decoder;

static float clampf(float v, float low, float high) {
  return v < low ? low : (high < v ? high : v);
}

/* Bilinear sample of channel c of a [height, width, channels] tensor at
 * (y, x), coordinates clamped for the corners but not for the weights. */
static float sample(const decoder *d, const float *tensor, int32_t channels, point at, int32_t c) {
  const float y_proj = clampf(at.y, 0.0f, (float)d->height - 1.0f);
  const float x_proj = clampf(at.x, 0.0f, (float)d->width - 1.0f);
  const int32_t y0 = (int32_t)floorf(y_proj), y1 = (int32_t)ceilf(y_proj);
  const int32_t x0 = (int32_t)floorf(x_proj), x1 = (int32_t)ceilf(x_proj);
  const float y_lerp = at.y - (float)y0, x_lerp = at.x - (float)x0;
  const float top_left = tensor[((int64_t)y0 * d->width + x0) * channels + c];
  const float top_right = tensor[((int64_t)y0 * d->width + x1) * channels + c];
  const float bottom_left = tensor[((int64_t)y1 * d->width + x0) * channels + c];
  const float bottom_right = tensor[((int64_t)y1 * d->width + x1) * channels + c];
  return (1 - y_lerp) * ((1 - x_lerp) * top_left + x_lerp * top_right) +
         y_lerp * ((1 - x_lerp) * bottom_left + x_lerp * bottom_right);
}

static point displace(const decoder *d, const float *tensor, int32_t channels, point at,
                      int32_t y_channel, int32_t x_channel) {
  const float dy = sample(d, tensor, channels, at, y_channel);
  const float dx = sample(d, tensor, channels, at, x_channel);
  point moved = {clampf(at.y + dy, 0.0f, (float)d->height - 1.0f),
                 clampf(at.x + dx, 0.0f, (float)d->width - 1.0f)};
  return moved;
}

/* Where the child of edge `edge` (0..31) lies from its parent at `from`. */
static point follow_edge(const decoder *d, point from, int32_t edge, int32_t child) {
  /* Backward edges start 16 channels later: [fwd y][fwd x][bwd y][bwd x]. */
  const int32_t channel = edge >= E ? edge + E : edge;
  point at = displace(d, d->mids, 4 * E, from, channel, E + channel);
  for (int i = 0; i < REFINEMENT_STEPS; i++) at = displace(d, d->shorts, 2 * K, at, child, K + child);
  return at;
}

static float squared_distance(point a, point b) {
  const float dy = b.y - a.y, dx = b.x - a.x;
  return dy * dy + dx * dx;
}

static float sigmoid(float x) {
  return 1.0f / (1.0f + expf(-x));
}

/* Indices of values in decreasing order (stable). */
static void decreasing_order(const float *values, int32_t count, int32_t *order) {
  for (int32_t i = 0; i < count; i++) {
    int32_t j = i;
    while (j > 0 && values[order[j - 1]] < values[i]) {
      order[j] = order[j - 1];
      j--;
    }
    order[j] = i;
  }
}

/* Grows one pose from its root along the skeleton, best-scoring first. */
static void decode_pose(const decoder *d, keypoint root, keypoint *queue_items, point *pose,
                        float *scores) {
  heap queue = {queue_items, 0, 2 * E + 1};
  int decoded[K] = {0};
  root.score = sample(d, d->scores, K, root.at, root.id);
  heap_push(&queue, root);
  while (queue.count > 0) {
    const keypoint current = heap_pop(&queue);
    if (decoded[current.id]) continue;
    pose[current.id] = current.at;
    scores[current.id] = current.score;
    decoded[current.id] = 1;
    for (int32_t edge = 0; edge < 2 * E; edge++) {
      if (edges[edge][0] != current.id) continue;
      const int32_t child = edges[edge][1];
      if (decoded[child]) continue;
      keypoint next;
      next.at = follow_edge(d, current.at, edge, child);
      next.id = child;
      next.score = sample(d, d->scores, K, next.at, child);
      heap_push(&queue, next);
    }
  }
}

typedef struct posenet_data {
  posenet_decoder_options options;
  float *dequantized;     /* heatmaps, shorts, mids */
  keypoint *candidates;   /* height * width * K */
  keypoint *pose_queue;   /* 2 * E + 1 */
  point *poses;           /* max_detections * K */
  float *keypoint_scores; /* max_detections * K */
  float *instance_scores; /* max_detections */
  int32_t *order;         /* max_detections, or K */
} posenet_data;

static int input_ok(const tflaccel_tensor_desc *t, int32_t channels, const tflaccel_tensor_desc *heatmaps,
                    char *reason, const char *what) {
  if (t->dtype != TFLACCEL_DTYPE_UINT8 && t->dtype != TFLACCEL_DTYPE_FLOAT32)
    return cpu_reason(reason, "PosenetDecoderOp: %s is %s (uint8 or float32 only)", what,
                      cpu_dtype_name(t->dtype));
  if (t->dtype == TFLACCEL_DTYPE_UINT8 && (t->quantization.count != 1 || t->quantization.scales == NULL ||
                                           t->quantization.zero_points == NULL ||
                                           !(t->quantization.scales[0] > 0)))
    return cpu_reason(reason, "PosenetDecoderOp: %s needs one positive scale", what);
  if (t->rank != 4 || t->dims[0] != 1 || t->dims[3] != channels || t->dims[1] != heatmaps->dims[1] ||
      t->dims[2] != heatmaps->dims[2] || t->dims[1] < 1 || t->dims[2] < 1)
    return cpu_reason(reason, "PosenetDecoderOp: %s must be [1, %d, %d, %d]", what,
                      heatmaps->dims[1], heatmaps->dims[2], channels);
  return 1;
}

static int posenet_check(const tflaccel_graph_view *graph, const tflaccel_op_desc *op, char *reason) {
  if (op->input_count == 4)
    return cpu_reason(reason, "PosenetDecoderOp: the instance-mask form (4 inputs) is not supported");
  if (!cpu_check_arity(graph, op, 3, 3, POSENET_OUTPUTS, reason)) return 0;
  posenet_decoder_options options;
  if (!posenet_decoder_options_parse(op->custom_options, op->custom_options_size, &options))
    return cpu_reason(reason, "PosenetDecoderOp: custom options lack max_detections (1..%d), "
                              "score_threshold, stride (>= 1) or nms_radius",
                      POSENET_MAX_DETECTIONS_LIMIT);
  const tflaccel_tensor_desc *heatmaps = cpu_op_input(graph, op, 0);
  if (heatmaps->rank != 4)
    return cpu_reason(reason, "PosenetDecoderOp: heatmaps must have rank 4");
  if (!input_ok(heatmaps, K, heatmaps, reason, "heatmaps") ||
      !input_ok(cpu_op_input(graph, op, 1), 2 * K, heatmaps, reason, "short offsets") ||
      !input_ok(cpu_op_input(graph, op, 2), 4 * E, heatmaps, reason, "mid offsets"))
    return 0;
  for (uint32_t k = 0; k < POSENET_OUTPUTS; k++) {
    const tflaccel_tensor_desc *output = cpu_op_output(graph, op, k);
    int32_t dims[4];
    const uint32_t rank = posenet_decoder_output_shape(&options, k, dims);
    if (output->dtype != TFLACCEL_DTYPE_FLOAT32 || output->rank != rank ||
        memcmp(output->dims, dims, rank * sizeof dims[0]) != 0)
      return cpu_reason(reason, "PosenetDecoderOp: output %u must be float32 of rank %u for "
                                "max_detections %d", k, rank, options.max_detections);
  }
  return 1;
}

static void posenet_release(const tflaccel_host_services *host, void *op_data) {
  posenet_data *data = op_data;
  if (data == NULL) return;
  void *blocks[] = {data->dequantized, data->candidates, data->pose_queue, data->poses,
                    data->keypoint_scores, data->instance_scores, data->order};
  for (size_t i = 0; i < sizeof blocks / sizeof blocks[0]; i++)
    if (blocks[i] != NULL) host->free(host->context, blocks[i]);
  host->free(host->context, data);
}

static tflaccel_status posenet_prepare(const cpu_op_context *context, void **op_data) {
  const tflaccel_host_services *host = context->host;
  posenet_data *data = host->alloc(host->context, sizeof *data, 16);
  if (data == NULL) return CPU_STATUS(context, TFLACCEL_OUT_OF_MEMORY, "PosenetDecoderOp: out of memory");
  memset(data, 0, sizeof *data);
  posenet_decoder_options_parse(context->op->custom_options, context->op->custom_options_size,
                                &data->options);
  const tflaccel_tensor_desc *heatmaps = cpu_input_tensor(context, 0);
  const size_t cells = (size_t)heatmaps->dims[1] * (size_t)heatmaps->dims[2];
  const size_t detections = (size_t)data->options.max_detections;
  const size_t order_count = detections > K ? detections : K;
  data->dequantized = host->alloc(host->context, cells * (K + 2 * K + 4 * E) * sizeof(float), 16);
  data->candidates = host->alloc(host->context, cells * K * sizeof(keypoint), 16);
  data->pose_queue = host->alloc(host->context, (2 * E + 1) * sizeof(keypoint), 16);
  data->poses = host->alloc(host->context, detections * K * sizeof(point), 16);
  data->keypoint_scores = host->alloc(host->context, detections * K * sizeof(float), 16);
  data->instance_scores = host->alloc(host->context, detections * sizeof(float), 16);
  data->order = host->alloc(host->context, order_count * sizeof(int32_t), 16);
  if (data->dequantized == NULL || data->candidates == NULL || data->pose_queue == NULL ||
      data->poses == NULL || data->keypoint_scores == NULL || data->instance_scores == NULL ||
      data->order == NULL) {
    posenet_release(host, data);
    return CPU_STATUS(context, TFLACCEL_OUT_OF_MEMORY, "PosenetDecoderOp: out of memory");
  }
  *op_data = data;
  return NULL;
}

/* (q - zero_point) * (scale * extra) for uint8, value * extra for float32,
 * with libcoral's float rounding. */
static void dequantize(const tflaccel_tensor_desc *t, const void *source, float extra, float *out) {
  const int64_t count = cpu_element_count(t);
  if (t->dtype == TFLACCEL_DTYPE_UINT8) {
    const uint8_t *q = source;
    const float zero_point = (float)t->quantization.zero_points[0];
    const float scale = t->quantization.scales[0] * extra;
    for (int64_t i = 0; i < count; i++) out[i] = ((float)q[i] - zero_point) * scale;
  } else {
    const float *f = source;
    for (int64_t i = 0; i < count; i++) out[i] = f[i] * extra;
  }
}

static tflaccel_status posenet_eval(const cpu_op_context *context) {
  posenet_data *data = context->op_data;
  const posenet_decoder_options *o = &data->options;
  const tflaccel_tensor_desc *heatmaps = cpu_input_tensor(context, 0);
  decoder d = {heatmaps->dims[1], heatmaps->dims[2], NULL, NULL, NULL};
  const size_t cells = (size_t)d.height * (size_t)d.width;
  float *scores = data->dequantized, *shorts = scores + cells * K, *mids = shorts + cells * 2 * K;
  const float inverse_stride = (float)(1.0 / o->stride);
  dequantize(heatmaps, cpu_input_data(context, 0), 1.0f, scores);
  dequantize(cpu_input_tensor(context, 1), cpu_input_data(context, 1), inverse_stride, shorts);
  dequantize(cpu_input_tensor(context, 2), cpu_input_data(context, 2), inverse_stride, mids);
  d.scores = scores, d.shorts = shorts, d.mids = mids;
  const float nms_radius = o->nms_radius / (float)o->stride;
  const float squared_nms_radius = nms_radius * nms_radius;
  /* The threshold as a logit, in double as libcoral's expression is. */
  const float min_logit = (float)-log(1.0f / ((double)o->score_threshold + 1E-6) - 1.0f);

  /* Root candidates: local maxima at or above the threshold. */
  heap candidates = {data->candidates, 0, cells * K};
  for (int32_t y = 0; y < d.height; y++)
    for (int32_t x = 0; x < d.width; x++)
      for (int32_t j = 0; j < K; j++) {
        const size_t index = ((size_t)y * d.width + x) * K + j;
        const float score = scores[index];
        if (!(score >= min_logit)) continue;
        int maximum = 1;
        for (int32_t yy = y > LOCAL_MAXIMUM_RADIUS ? y - LOCAL_MAXIMUM_RADIUS : 0;
             maximum && yy < d.height && yy <= y + LOCAL_MAXIMUM_RADIUS; yy++)
          for (int32_t xx = x > LOCAL_MAXIMUM_RADIUS ? x - LOCAL_MAXIMUM_RADIUS : 0;
               xx < d.width && xx <= x + LOCAL_MAXIMUM_RADIUS; xx++)
            if (scores[((size_t)yy * d.width + xx) * K + j] > score) {
              maximum = 0;
              break;
            }
        if (!maximum) continue;
        const size_t offset = ((size_t)y * d.width + x) * 2 * K + j;
        keypoint candidate = {{clampf((float)y + shorts[offset], 0.0f, (float)d.height - 1.0f),
                               clampf((float)x + shorts[offset + K], 0.0f, (float)d.width - 1.0f)},
                              j, score};
        heap_push(&candidates, candidate);
      }

  int32_t kept = 0;
  while (kept < o->max_detections && candidates.count > 0) {
    const keypoint root = heap_pop(&candidates);
    int suppressed = 0;
    for (int32_t p = 0; p < kept && !suppressed; p++)
      suppressed = squared_distance(root.at, data->poses[p * K + root.id]) <= squared_nms_radius;
    if (suppressed) continue;
    point *pose = data->poses + (size_t)kept * K;
    float *keypoint_scores = data->keypoint_scores + (size_t)kept * K;
    for (int k = 0; k < K; k++) {
      pose[k].x = -1.0f;
      pose[k].y = -1.0f;
      keypoint_scores[k] = -1E5f;
    }
    decode_pose(&d, root, data->pose_queue, pose, keypoint_scores);
    for (int k = 0; k < K; k++) keypoint_scores[k] = sigmoid(keypoint_scores[k]);
    decreasing_order(keypoint_scores, K, data->order);
    float instance_score = 0.0f;
    for (int k = 0; k < K; k++) instance_score += keypoint_scores[data->order[k]];
    instance_score /= K;
    if (instance_score >= o->score_threshold) data->instance_scores[kept++] = instance_score;
  }

  /* Soft keypoint NMS, in decreasing order of the first instance scores. */
  int32_t by_score[POSENET_MAX_DETECTIONS_LIMIT];
  decreasing_order(data->instance_scores, kept, by_score);
  for (int32_t i = 0; i < kept; i++) {
    const int32_t current = by_score[i];
    int occluded[K] = {0};
    for (int32_t j = 0; j < i; j++)
      for (int k = 0; k < K; k++)
        if (squared_distance(data->poses[current * K + k], data->poses[by_score[j] * K + k]) <=
            squared_nms_radius)
          occluded[k] = 1;
    const float *keypoint_scores = data->keypoint_scores + (size_t)current * K;
    decreasing_order(keypoint_scores, K, data->order);
    float total = 0.0f;
    for (int k = 0; k < K; k++)
      if (!occluded[data->order[k]]) total += keypoint_scores[data->order[k]];
    data->instance_scores[current] = total / K;
  }
  decreasing_order(data->instance_scores, kept, by_score);

  float *out_keypoints = cpu_output_data(context, 0);
  float *out_keypoint_scores = cpu_output_data(context, 1);
  float *out_pose_scores = cpu_output_data(context, 2);
  float *out_count = cpu_output_data(context, 3);
  const size_t detections = (size_t)o->max_detections;
  memset(out_keypoints, 0, detections * K * 2 * sizeof(float));
  memset(out_keypoint_scores, 0, detections * K * sizeof(float));
  memset(out_pose_scores, 0, detections * sizeof(float));
  int32_t written = 0;
  for (int32_t i = 0; i < kept; i++) {
    const int32_t index = by_score[i];
    if (data->instance_scores[index] < o->score_threshold) break;
    for (int k = 0; k < K; k++) {
      out_keypoints[((size_t)written * K + k) * 2] = data->poses[index * K + k].y * (float)o->stride;
      out_keypoints[((size_t)written * K + k) * 2 + 1] =
          data->poses[index * K + k].x * (float)o->stride;
      out_keypoint_scores[(size_t)written * K + k] = data->keypoint_scores[index * K + k];
    }
    out_pose_scores[written] = data->instance_scores[index];
    written++;
  }
  out_count[0] = (float)written;
  return NULL;
}

const cpu_kernel cpu_custom_posenet_decoder_kernel = {
    .op_code = TFLACCEL_OP_CUSTOM,
    .custom_code = POSENET_DECODER_CUSTOM_CODE,
    .check = posenet_check,
    .prepare = posenet_prepare,
    .release = posenet_release,
    .eval = posenet_eval,
};
