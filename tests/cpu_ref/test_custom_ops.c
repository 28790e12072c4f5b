/* cpu_ref's custom-op kernels through the plugin's ABI, against values
 * worked out by hand from the ops' published semantics: MediaPipe's
 * Landmarks2TransformMatrix, TransformTensorBilinear and TransformLandmarks
 * (version 2), and Coral's PosenetDecoderOp. Options are FlexBuffers written
 * by the flatbuffers project's builder (tests/support/flexbuffer_vectors.h). */
#include "config.h"

#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tests/cpu_ref/op_builder.h"
#include "tests/support/flexbuffer_vectors.h"
#include "tflaccel/tflaccel.h"

#define F32 TFLACCEL_DTYPE_FLOAT32
#define U8 TFLACCEL_DTYPE_UINT8

static void set_options(test_graph *g, const void *options, size_t size) {
  g->ops[g->op_count - 1].custom_options = options;
  g->ops[g->op_count - 1].custom_options_size = (uint32_t)size;
}

/* x' = 2x + 1, y' = 3y - 1, z copied. */
START_TEST(transform_landmarks_applies_two_rows) {
  static const float matrix[16] = {2, 0, 0, 1, 0, 3, 0, -1, 0, 0, 1, 0, 0, 0, 0, 1};
  static const float landmarks[6] = {1, 2, 3, -4, 0.5f, 9};
  for (int dimensions = 2; dimensions <= 3; dimensions++) {
    test_graph g;
    tg_init(&g);
    const int32_t dims[3] = {1, 6 / dimensions, dimensions}, m_dims[3] = {1, 4, 4};
    uint32_t in = tg_input(&g, F32, 3, dims, landmarks);
    uint32_t m = tg_input(&g, F32, 3, m_dims, matrix);
    uint32_t out = tg_tensor(&g, F32, 3, dims);
    tg_custom_op(&g, "TransformLandmarks", 2, (uint32_t[]){in, m}, 1, &out);
    tg_run_ok(&g, 1);
    const float *result = tg_result(&g, out);
    for (int i = 0; i < 6 / dimensions; i++) {
      const float *l = landmarks + i * dimensions;
      ck_assert_float_eq(result[i * dimensions], 2 * l[0] + 1);
      ck_assert_float_eq(result[i * dimensions + 1], 3 * l[1] - 1);
      if (dimensions == 3) ck_assert_float_eq(result[i * dimensions + 2], l[2]);
    }
    tg_free(&g);
  }
  /* Version 1 (rank-4 landmarks) is declined, naming the version. */
  test_graph g;
  tg_init(&g);
  const int32_t dims4[4] = {1, 1, 3, 2}, m_dims[3] = {1, 4, 4};
  uint32_t in = tg_input(&g, F32, 4, dims4, landmarks);
  uint32_t m = tg_input(&g, F32, 3, m_dims, matrix);
  uint32_t out = tg_tensor(&g, F32, 4, dims4);
  tg_custom_op(&g, "TransformLandmarks", 2, (uint32_t[]){in, m}, 1, &out);
  char reason[TFLACCEL_REASON_SIZE];
  ck_assert(!tg_supported(&g, 0, reason));
  ck_assert_str_eq(reason, "TransformLandmarks: only version 2 (landmarks [1, N, D]) is supported, "
                           "input has rank 4");
  tg_free(&g);
}
END_TEST

/* The identity samples each pixel itself (the pixel-centre correction
 * cancels); a half-pixel shift in x averages neighbours, and the last
 * column, mapped past the edge, is 0. */
START_TEST(transform_tensor_bilinear_samples) {
  float image[18];
  for (int i = 0; i < 18; i++) image[i] = (float)(i * i % 23) - 4.0f;
  const int32_t dims[4] = {1, 3, 3, 2}, m_dims[3] = {1, 4, 4};
  static const float identity[16] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};
  static const float half_right[16] = {1, 0, 0, 0.5f, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};
  for (int shifted = 0; shifted <= 1; shifted++) {
    test_graph g;
    tg_init(&g);
    uint32_t in = tg_input(&g, F32, 4, dims, image);
    uint32_t m = tg_input(&g, F32, 3, m_dims, shifted ? half_right : identity);
    uint32_t out = tg_tensor(&g, F32, 4, dims);
    tg_custom_op(&g, "TransformTensorBilinear", 2, (uint32_t[]){in, m}, 1, &out);
    tg_run_ok(&g, 1);
    const float *result = tg_result(&g, out);
    for (int y = 0; y < 3; y++)
      for (int x = 0; x < 3; x++)
        for (int c = 0; c < 2; c++) {
          const float *pixel = image + (y * 3 + x) * 2;
          float expected = pixel[c];
          if (shifted) expected = x == 2 ? 0.0f : 0.5f * pixel[c] + 0.5f * pixel[2 + c];
          ck_assert_msg(fabsf(result[(y * 3 + x) * 2 + c] - expected) <= 1e-6f,
                        "shifted %d (%d,%d,%d): %g, expected %g", shifted, y, x, c,
                        (double)result[(y * 3 + x) * 2 + c], (double)expected);
        }
    tg_free(&g);
  }
}
END_TEST

/* Options l2tm_options: rotation landmarks 0 and 1, subset {2, 3, 300} (an
 * odd count: 300 pairs with itself), output 4x4, scales 1, target 0. */
static void l2tm_graph(test_graph *g, const float *landmarks, int32_t count, uint32_t *out) {
  tg_init(g);
  const int32_t dims[3] = {1, count, 3}, m_dims[3] = {1, 4, 4};
  uint32_t in = tg_input(g, F32, 3, dims, landmarks);
  *out = tg_tensor(g, F32, 3, m_dims);
  tg_custom_op(g, "Landmarks2TransformMatrix", 1, &in, 1, out);
  set_options(g, l2tm_options, sizeof l2tm_options);
}

START_TEST(landmarks_to_transform_matrix) {
  static float landmarks[301 * 3];
  memset(landmarks, 0, sizeof landmarks);
  /* Rotation line along +x: no rotation. Subset points (2,4), (6,10) and
   * (3,5): box x 2..6, y 4..10, centre (4,7), size 4 x 6. */
  const float points[4][2] = {{0, 0}, {1, 0}, {2, 4}, {6, 10}};
  for (int i = 0; i < 4; i++) landmarks[i * 3] = points[i][0], landmarks[i * 3 + 1] = points[i][1];
  landmarks[300 * 3] = 3, landmarks[300 * 3 + 1] = 5;
  test_graph g;
  uint32_t out;
  l2tm_graph(&g, landmarks, 301, &out);
  tg_run_ok(&g, 1);
  /* shift(4,7) * scale(4/4, 6/4) * shift(-2,-2). */
  const float expected[16] = {1, 0, 0, 2, 0, 1.5f, 0, 4, 0, 0, 1, 0, 0, 0, 0, 1};
  tg_assert_floats(tg_result(&g, out), expected, 16, 0.0f);
  tg_free(&g);

  /* Rotation line along +y: rotation -pi/2, so the crop turns by +pi/2. */
  landmarks[1 * 3] = 0, landmarks[1 * 3 + 1] = 1;
  l2tm_graph(&g, landmarks, 301, &out);
  tg_run_ok(&g, 1);
  /* In the frame rotated by -pi/2, (x, y) -> (y, -x): the points become
   * (4,-2), (10,-6), (5,-3): box 4..10 x -6..-2, size 6 x 4, centre (7,-4),
   * which turns back to (4, 7). T = shift(4,7) * R(pi/2) * scale(6/4, 4/4)
   * * shift(-2,-2), R(pi/2) = [[0,-1],[1,0]]. */
  const double sx = 1.5, sy = 1.0;
  const double expected_rot[16] = {0, -sy, 0, 4 + 2 * sy, sx, 0, 0, 7 - 2 * sx, 0, 0, 1, 0,
                                   0, 0,   0, 1};
  const float *result = tg_result(&g, out);
  for (int i = 0; i < 16; i++)
    ck_assert_msg(fabs(result[i] - expected_rot[i]) <= 1e-5, "element %d: %g, expected %g", i,
                  (double)result[i], expected_rot[i]);
  tg_free(&g);

  /* A subset index past the landmarks is declined. */
  l2tm_graph(&g, landmarks, 300, &out);
  char reason[TFLACCEL_REASON_SIZE];
  ck_assert(!tg_supported(&g, 0, reason));
  ck_assert_str_eq(reason, "Landmarks2TransformMatrix: subset_idxs[2] is not a landmark index "
                           "below 300");
  tg_free(&g);
}
END_TEST

/* Posenet on a 5x5 grid: every keypoint's logit peaks at (2, 2) (5.0,
 * elsewhere -10), all offsets zero. One pose: every keypoint at (2,2) *
 * stride 16 = (32, 32), each score sigmoid(5); the other 16 roots at
 * (2, 2) fall within nms_radius of it. The heatmaps are uint8 (scale 0.1,
 * zero point 100), the offsets float32. Options posenet_options:
 * max_detections 3, threshold 0.5, stride 16, nms_radius 20. */
#define PN_H 5
#define PN_W 5
#define PN_K 17
static void posenet_graph(test_graph *g, const uint8_t *heatmaps, const float *shorts,
                          const float *mids, uint32_t outputs[4]) {
  tg_init(g);
  const int32_t h_dims[4] = {1, PN_H, PN_W, PN_K}, s_dims[4] = {1, PN_H, PN_W, 2 * PN_K};
  const int32_t m_dims[4] = {1, PN_H, PN_W, 64};
  uint32_t h = tg_input(g, U8, 4, h_dims, heatmaps);
  tg_quantize(g, h, 0.1f, 100);
  uint32_t s = tg_input(g, F32, 4, s_dims, shorts);
  uint32_t m = tg_input(g, F32, 4, m_dims, mids);
  const int32_t d0[4] = {1, 3, PN_K, 2}, d1[3] = {1, 3, PN_K}, d2[2] = {1, 3}, d3[1] = {1};
  outputs[0] = tg_tensor(g, F32, 4, d0);
  outputs[1] = tg_tensor(g, F32, 3, d1);
  outputs[2] = tg_tensor(g, F32, 2, d2);
  outputs[3] = tg_tensor(g, F32, 1, d3);
  tg_custom_op(g, "PosenetDecoderOp", 3, (uint32_t[]){h, s, m}, 4, outputs);
  set_options(g, posenet_options, sizeof posenet_options);
}

START_TEST(posenet_decodes_one_pose) {
  static uint8_t heatmaps[PN_H * PN_W * PN_K];
  static float shorts[PN_H * PN_W * 2 * PN_K], mids[PN_H * PN_W * 64];
  memset(heatmaps, 0, sizeof heatmaps); /* (0 - 100) * 0.1 = -10 */
  for (int k = 0; k < PN_K; k++) heatmaps[(2 * PN_W + 2) * PN_K + k] = 150; /* 5.0 */
  test_graph g;
  uint32_t out[4];
  posenet_graph(&g, heatmaps, shorts, mids, out);
  tg_run_ok(&g, 1);
  const float *keypoints = tg_result(&g, out[0]), *scores = tg_result(&g, out[1]);
  const float *pose_scores = tg_result(&g, out[2]), *count = tg_result(&g, out[3]);
  ck_assert_float_eq(count[0], 1.0f);
  /* The dequantized logit, then libcoral's float sigmoid and mean. */
  const float logit = (150.0f - 100.0f) * 0.1f;
  const float score = 1.0f / (1.0f + expf(-logit));
  float mean = 0.0f;
  for (int k = 0; k < PN_K; k++) mean += score;
  mean /= PN_K;
  for (int k = 0; k < PN_K; k++) {
    ck_assert_float_eq(keypoints[k * 2], 32.0f);
    ck_assert_float_eq(keypoints[k * 2 + 1], 32.0f);
    ck_assert_float_eq(scores[k], score);
  }
  ck_assert_float_eq(pose_scores[0], mean);
  for (int i = PN_K * 2; i < 3 * PN_K * 2; i++) ck_assert_float_eq(keypoints[i], 0.0f);
  ck_assert_float_eq(pose_scores[1], 0.0f);
  tg_free(&g);

  /* Nothing above the threshold: no pose. */
  memset(heatmaps, 0, sizeof heatmaps);
  posenet_graph(&g, heatmaps, shorts, mids, out);
  tg_run_ok(&g, 1);
  ck_assert_float_eq(((const float *)tg_result(&g, out[3]))[0], 0.0f);
  tg_free(&g);
}
END_TEST

/* Two people. Person A: nose logit 6 at (3,3), every other keypoint
 * logit 5 at (3,4); person B: nose 4 at (1,1), the others 3 at (1,2). The
 * mid offsets of the nose's forward edges point one cell right (+16 px
 * before dividing by the stride), all other offsets are zero, so each pose
 * is grown from its nose to the cell on its right. The other keypoints'
 * own peaks come later as roots and fall within nms_radius of the pose
 * already decoded. Poses come out in decreasing score: A, then B. */
START_TEST(posenet_follows_edges) {
  static uint8_t heatmaps[PN_H * PN_W * PN_K];
  static float shorts[PN_H * PN_W * 2 * PN_K], mids[PN_H * PN_W * 64];
  memset(heatmaps, 0, sizeof heatmaps);
  memset(shorts, 0, sizeof shorts);
  memset(mids, 0, sizeof mids);
  heatmaps[(3 * PN_W + 3) * PN_K + 0] = 160; /* (160 - 100) * 0.1 = 6 */
  heatmaps[(1 * PN_W + 1) * PN_K + 0] = 140; /* 4 */
  for (int k = 1; k < PN_K; k++) {
    heatmaps[(3 * PN_W + 4) * PN_K + k] = 150; /* 5 */
    heatmaps[(1 * PN_W + 2) * PN_K + k] = 130; /* 3 */
  }
  /* Forward edges from the nose (0, 2, 4, 10): x offset +16 px (one cell
   * after dividing by the stride), everywhere. */
  const int nose_edges[4] = {0, 2, 4, 10};
  for (int cell = 0; cell < PN_H * PN_W; cell++)
    for (int e = 0; e < 4; e++) mids[cell * 64 + 16 + nose_edges[e]] = 16.0f;
  test_graph g;
  uint32_t out[4];
  posenet_graph(&g, heatmaps, shorts, mids, out);
  tg_run_ok(&g, 1);
  const float *keypoints = tg_result(&g, out[0]), *count = tg_result(&g, out[3]);
  const float *pose_scores = tg_result(&g, out[2]);
  ck_assert_float_eq(count[0], 2.0f);
  ck_assert(pose_scores[0] >= pose_scores[1]);
  /* Pose 0: nose (3,3) -> (48,48); left eye one cell right: (48,64). */
  ck_assert_float_eq(keypoints[0], 48.0f);
  ck_assert_float_eq(keypoints[1], 48.0f);
  ck_assert_float_eq(keypoints[2], 48.0f);
  ck_assert_float_eq(keypoints[3], 64.0f);
  /* Pose 1: nose (1,1) -> (16,16); left eye (16,32). */
  ck_assert_float_eq(keypoints[PN_K * 2 + 0], 16.0f);
  ck_assert_float_eq(keypoints[PN_K * 2 + 1], 16.0f);
  ck_assert_float_eq(keypoints[PN_K * 2 + 2], 16.0f);
  ck_assert_float_eq(keypoints[PN_K * 2 + 3], 32.0f);
  tg_free(&g);
}
END_TEST

START_TEST(posenet_declines_bad_options) {
  static uint8_t heatmaps[PN_H * PN_W * PN_K];
  static float shorts[PN_H * PN_W * 2 * PN_K], mids[PN_H * PN_W * 64];
  test_graph g;
  uint32_t out[4];
  posenet_graph(&g, heatmaps, shorts, mids, out);
  set_options(&g, l2tm_options, sizeof l2tm_options);
  char reason[TFLACCEL_REASON_SIZE];
  ck_assert(!tg_supported(&g, 0, reason));
  ck_assert_msg(strstr(reason, "PosenetDecoderOp: custom options lack max_detections") == reason,
                "%s", reason);
  tg_free(&g);
}
END_TEST

int main(void) {
  Suite *suite = suite_create("cpu_ref_custom_ops");
  TCase *tc = tcase_create("custom");
  tcase_add_test(tc, transform_landmarks_applies_two_rows);
  tcase_add_test(tc, transform_tensor_bilinear_samples);
  tcase_add_test(tc, landmarks_to_transform_matrix);
  tcase_add_test(tc, posenet_decodes_one_pose);
  tcase_add_test(tc, posenet_follows_edges);
  tcase_add_test(tc, posenet_declines_bad_options);
  suite_add_tcase(suite, tc);
  SRunner *runner = srunner_create(suite);
  srunner_run_all(runner, CK_NORMAL);
  const int failed = srunner_ntests_failed(runner);
  srunner_free(runner);
  return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
