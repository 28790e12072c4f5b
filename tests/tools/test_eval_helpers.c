/* The pieces tflaccel eval and the new bench flags are built from: image
 * preprocessing (crop, resize, normalization, quantization), labels files,
 * refusals of other platforms' flags, the directory maker, the op
 * profile's tables (with a partition's kernels), and object detection's
 * ground truth and average precision. */
#include "config.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "tests/support/test_util.h"
#include "tflaccel/tflaccel.h"
#include "tools/tflaccel/detection_ground_truth.h"
#include "tools/tflaccel/detection_metrics.h"
#include "tools/tflaccel/foreign_flags.h"
#include "tools/tflaccel/image_preprocess.h"
#include "tools/tflaccel/make_directory.h"
#include "tools/tflaccel/op_profile.h"
#include "tools/tflaccel/text_lines.h"

static void assert_ok(tflaccel_status status) {
  ck_assert_msg(status == NULL, "%s", status ? tflaccel_status_message(status) : "");
}

/* An image whose pixels are all (r, g, b). */
static rgb_image solid_image(uint32_t width, uint32_t height, uint8_t r, uint8_t g, uint8_t b) {
  rgb_image image = {width, height, malloc((size_t)width * height * 3)};
  ck_assert_ptr_nonnull(image.pixels);
  for (size_t i = 0; i < (size_t)width * height; ++i) {
    image.pixels[i * 3] = r;
    image.pixels[i * 3 + 1] = g;
    image.pixels[i * 3 + 2] = b;
  }
  return image;
}

static tflaccel_tensor_info image_input(int32_t dtype, int32_t side, const float *scale,
                                        const int32_t *zero_point) {
  static int32_t shape[4];
  shape[0] = 1, shape[1] = side, shape[2] = side, shape[3] = 3;
  tflaccel_tensor_info info = {.struct_size = sizeof info, .dtype = dtype, .rank = 4, .shape = shape};
  if (scale != NULL) {
    info.quantization.count = 1;
    info.quantization.scales = scale;
    info.quantization.zero_points = zero_point;
  }
  return info;
}

START_TEST(preprocessing_follows_the_input_type) {
  rgb_image image = solid_image(9, 7, 255, 0, 128);
  float floats[4 * 4 * 3];
  tflaccel_tensor_info input = image_input(TFLACCEL_DTYPE_FLOAT32, 4, NULL, NULL);
  assert_ok(image_preprocess(&image, &input, &image_default_normalization, IMAGE_CROP_FRACTION, floats,
                             sizeof floats));
  for (int i = 0; i < 16; ++i) {
    ck_assert_float_eq_tol(floats[i * 3], 1.0f, 1e-6f);
    ck_assert_float_eq_tol(floats[i * 3 + 1], -1.0f, 1e-6f);
    ck_assert_float_eq_tol(floats[i * 3 + 2], 0.5f / 127.5f, 1e-6f);
  }
  /* uint8 with scale 1/128, zero point 128: round(f * 128 + 128), clamped. */
  uint8_t bytes[4 * 4 * 3];
  float scale = 1.0f / 128.0f;
  int32_t zero_point = 128;
  input = image_input(TFLACCEL_DTYPE_UINT8, 4, &scale, &zero_point);
  assert_ok(image_preprocess(&image, &input, &image_default_normalization, IMAGE_CROP_FRACTION, bytes,
                             sizeof bytes));
  ck_assert_uint_eq(bytes[0], 255);
  ck_assert_uint_eq(bytes[1], 0);
  ck_assert_uint_eq(bytes[2], 129); /* 0.5 / 127.5 * 128 + 128 = 128.502 */
  /* Without parameters: the raw pixel (uint8), the pixel - 128 (int8). */
  input = image_input(TFLACCEL_DTYPE_UINT8, 4, NULL, NULL);
  assert_ok(image_preprocess(&image, &input, &image_default_normalization, IMAGE_CROP_FRACTION, bytes,
                             sizeof bytes));
  ck_assert_uint_eq(bytes[0], 255);
  ck_assert_uint_eq(bytes[2], 128);
  int8_t signed_bytes[4 * 4 * 3];
  input = image_input(TFLACCEL_DTYPE_INT8, 4, NULL, NULL);
  assert_ok(image_preprocess(&image, &input, &image_default_normalization, IMAGE_CROP_FRACTION, signed_bytes,
                             sizeof signed_bytes));
  ck_assert_int_eq(signed_bytes[0], 127);
  ck_assert_int_eq(signed_bytes[1], -128);
  ck_assert_int_eq(signed_bytes[2], 0);
  /* A wrong buffer size and a non-image input are refused. */
  tflaccel_status status = image_preprocess(&image, &input, &image_default_normalization, IMAGE_CROP_FRACTION,
                                            signed_bytes, sizeof signed_bytes - 1);
  ck_assert_ptr_nonnull(status);
  tflaccel_status_free(status);
  const char *why = NULL;
  int32_t flat_shape[2] = {1, 10};
  tflaccel_tensor_info flat = {.struct_size = sizeof flat, .dtype = TFLACCEL_DTYPE_FLOAT32,
                               .rank = 2, .shape = flat_shape};
  ck_assert_int_eq(image_input_supported(&flat, &why), 0);
  ck_assert_ptr_nonnull(strstr(why, "[1, height, width, 3]"));
  rgb_image_free(&image);
}
END_TEST

/* The central 87.5% is kept: a frame of another colour around the centre
 * does not reach the output. */
START_TEST(preprocessing_crops_the_centre) {
  rgb_image image = solid_image(32, 32, 0, 0, 0);
  for (uint32_t y = 0; y < 32; ++y)
    for (uint32_t x = 0; x < 32; ++x)
      if (y < 2 || y >= 30 || x < 2 || x >= 30) image.pixels[(y * 32 + x) * 3] = 255;
  float out[8 * 8 * 3];
  tflaccel_tensor_info input = image_input(TFLACCEL_DTYPE_FLOAT32, 8, NULL, NULL);
  assert_ok(image_preprocess(&image, &input, &image_default_normalization, IMAGE_CROP_FRACTION, out, sizeof out));
  for (int i = 0; i < 64; ++i) ck_assert_float_eq_tol(out[i * 3], -1.0f, 1e-6f);
  rgb_image_free(&image);
}
END_TEST

START_TEST(labels_files_are_read_as_lines) {
  char *dir = test_make_temp_dir();
  char *path = test_write_file(dir, "labels.txt", "background\r\ntabby cat\nlast without newline");
  text_lines lines;
  assert_ok(text_lines_read(path, &lines));
  ck_assert_uint_eq(lines.count, 3);
  ck_assert_str_eq(lines.lines[0], "background");
  ck_assert_str_eq(lines.lines[1], "tabby cat");
  ck_assert_str_eq(lines.lines[2], "last without newline");
  text_lines_free(&lines);
  free(path);
  path = test_write_file(dir, "empty_last.txt", "a\nb\n\n");
  assert_ok(text_lines_read(path, &lines));
  ck_assert_uint_eq(lines.count, 2);
  text_lines_free(&lines);
  free(path);
  tflaccel_status status = text_lines_read("/nonexistent/labels.txt", &lines);
  ck_assert_ptr_nonnull(status);
  ck_assert_ptr_nonnull(strstr(tflaccel_status_message(status), "cannot read /nonexistent/labels.txt"));
  tflaccel_status_free(status);
  test_remove_tree(dir);
  free(dir);
}
END_TEST

START_TEST(foreign_flags_are_refused_or_switched_off) {
  char *off[] = {"x", "--use_nnapi=false", "--use_hexagon", "0", "--use_coreml", "true",
                 "--hexagon_lib_path", "/data", "--graph"};
  int index = 1;
  ck_assert_int_eq(foreign_flag_match("t", 9, off, &index), 1);
  ck_assert_int_eq(index, 1);
  index = 2;
  ck_assert_int_eq(foreign_flag_match("t", 9, off, &index), 1);
  ck_assert_int_eq(index, 3); /* consumed the "0" */
  index = 4;
  ck_assert_int_eq(foreign_flag_match("t", 9, off, &index), -1);
  index = 6;
  ck_assert_int_eq(foreign_flag_match("t", 9, off, &index), -1);
  index = 8;
  ck_assert_int_eq(foreign_flag_match("t", 9, off, &index), 0);
  char *prefix[] = {"x", "--use_nnapi_extra"};
  index = 1;
  ck_assert_int_eq(foreign_flag_match("t", 2, prefix, &index), 0);
}
END_TEST

START_TEST(directories_are_made_with_their_parents) {
  char *dir = test_make_temp_dir();
  char path[4096];
  snprintf(path, sizeof path, "%s/a/b//c/", dir);
  assert_ok(make_directory_tree(path));
  assert_ok(make_directory_tree(path)); /* existing: fine */
  struct stat info;
  snprintf(path, sizeof path, "%s/a/b/c", dir);
  ck_assert_int_eq(stat(path, &info), 0);
  ck_assert(S_ISDIR(info.st_mode));
  char *file = test_write_file(dir, "file", "x");
  snprintf(path, sizeof path, "%s/sub", file);
  tflaccel_status status = make_directory_tree(path);
  ck_assert_ptr_nonnull(status);
  ck_assert_ptr_nonnull(strstr(tflaccel_status_message(status), "a file is in the way"));
  tflaccel_status_free(status);
  free(file);
  test_remove_tree(dir);
  free(dir);
}
END_TEST

/* A profile of two nodes over two runs, made by hand: a gpu partition of
 * three ops (3 ms, then 1 ms) and one cpu_ref op (1 ms twice). */
START_TEST(op_profile_tables) {
  op_profile profile = {0};
  run_stats_init(&profile.total_us);
  profile_node nodes[2] = {
      {strdup("gpu_cl"), strdup("[gpu_cl partition 0: 3 ops]"), 0, 3, {0}, NULL, 0},
      {strdup("SOFTMAX"), strdup("[probabilities]:3"), 3, 1, {0}, NULL, 0}};
  char *op_lines[4] = {strdup("CONV_2D [a]"), strdup("RELU [b]"), strdup("ADD [c]"),
                       strdup("SOFTMAX [probabilities]")};
  uint32_t starts[3] = {0, 3, 4}, ops[4] = {0, 1, 2, 3};
  profile.nodes = nodes;
  profile.node_count = 2;
  profile.op_lines = op_lines;
  profile.op_count = 4;
  profile.partition_ops_start = starts;
  profile.partition_ops = ops;
  const double gpu[2] = {3000, 1000}, cpu[2] = {1000, 1000};
  for (int n = 0; n < 2; ++n) run_stats_init(&nodes[n].us);
  for (int run = 0; run < 2; ++run) {
    assert_ok(run_stats_add(&nodes[0].us, gpu[run]));
    assert_ok(run_stats_add(&nodes[1].us, cpu[run]));
    assert_ok(run_stats_add(&profile.total_us, gpu[run] + cpu[run]));
  }
  char *text = NULL;
  size_t size = 0;
  FILE *out = open_memstream(&text, &size);
  ck_assert_ptr_nonnull(out);
  op_profile_print(out, &profile, 0);
  fclose(out);
  /* first 3 ms, average 2 ms, 4 of 6 ms = 66.667 %; the ops beneath it. */
  ck_assert_ptr_nonnull(strstr(text, "\t                  gpu_cl\t    3.000\t    2.000\t 66.667%\t 66.667%"
                                     "\t     0.000\t        1\t[gpu_cl partition 0: 3 ops]\n"
                                     "\t                        \top 0: CONV_2D [a]\n"));
  ck_assert_ptr_nonnull(strstr(text, "\top 2: ADD [c]\n\t                 SOFTMAX\t    1.000\t    1.000"
                                     "\t 33.333%\t100.000%"));
  ck_assert_ptr_nonnull(strstr(text, "Number of nodes executed: 2\n"));
  ck_assert_ptr_nonnull(strstr(text, "\t                  gpu_cl\t        1\t     2.000\t    66.667%\t    66.667%"));
  ck_assert_ptr_nonnull(strstr(text, "Timings (microseconds): count=2 first=4000 curr=2000"));
  ck_assert_ptr_nonnull(strstr(text, "2 nodes observed\n"));
  free(text);
  out = open_memstream(&text, &size);
  ck_assert_ptr_nonnull(out);
  op_profile_print(out, &profile, 1);
  fclose(out);
  ck_assert_ptr_nonnull(strstr(text, "gpu_cl, 3, 2, 66.6667%, 66.6667%, 0, 1, [gpu_cl partition 0: 3 ops]\n"));
  ck_assert_ptr_nonnull(strstr(text, "SOFTMAX, 1, 1, 33.3333%, 100%, 0, 1\n"));
  free(text);
  for (int i = 0; i < 4; ++i) free(op_lines[i]);
  for (int n = 0; n < 2; ++n) {
    free(nodes[n].type);
    free(nodes[n].name);
    run_stats_free(&nodes[n].us);
  }
  run_stats_free(&profile.total_us);
}
END_TEST

START_TEST(op_profile_lists_a_partitions_kernels) {
  op_profile profile = {0};
  run_stats_init(&profile.total_us);
  profile_kernel kernels[3] = {{"gpu_to_slices", UINT32_MAX, 0, 4, 400000},
                               {"gpu_conv2d", 0, 2, 4, 2400000},
                               {"gpu_elementwise", 2, 1, 4, 1200000}};
  profile_node node = {strdup("gpu_cl"), strdup("[gpu_cl partition 0: 3 ops]"), 0, 3, {0},
                       kernels, 3};
  char *op_lines[3] = {strdup("CONV_2D [a]"), strdup("RELU [b]"), strdup("ADD [c]")};
  uint32_t starts[2] = {0, 3}, ops[3] = {0, 1, 2};
  profile.nodes = &node;
  profile.node_count = 1;
  profile.op_lines = op_lines;
  profile.op_count = 3;
  profile.partition_ops_start = starts;
  profile.partition_ops = ops;
  run_stats_init(&node.us);
  assert_ok(run_stats_add(&node.us, 5000));
  assert_ok(run_stats_add(&profile.total_us, 5000));
  char *text = NULL;
  size_t size = 0;
  FILE *out = open_memstream(&text, &size);
  ck_assert_ptr_nonnull(out);
  op_profile_print(out, &profile, 0);
  fclose(out);
  /* Per run: 0.1, 0.6 and 0.3 ms of 1 ms; the kernels name their ops, so
   * the ops are not listed again. */
  ck_assert_ptr_nonnull(strstr(text, "[gpu_cl partition 0: 3 ops]\n"
                                     "\t                        \tkernel 0: gpu_to_slices: 0.100000 ms GPU, "
                                     "10.000% (layout conversion)\n"
                                     "\t                        \tkernel 1: gpu_conv2d: 0.600000 ms GPU, "
                                     "60.000% (op 0 + 1 fused: CONV_2D [a])\n"
                                     "\t                        \tkernel 2: gpu_elementwise: 0.300000 ms GPU, "
                                     "30.000% (op 2: ADD [c])\n\n"));
  ck_assert_ptr_null(strstr(text, "op 1: RELU"));
  free(text);
  out = open_memstream(&text, &size);
  ck_assert_ptr_nonnull(out);
  op_profile_print(out, &profile, 1);
  fclose(out);
  ck_assert_ptr_nonnull(strstr(text, "  kernel, gpu_to_slices, 0.1, 10%, 4 runs, no op, 0 ops, layout conversion\n"
                                     "  kernel, gpu_conv2d, 0.6, 60%, 4 runs, op 0, 2 ops, CONV_2D [a]\n"));
  free(text);
  /* A kernel of 300 ns per run (PoCL times small ones so) keeps its time,
   * in the table and in the CSV. */
  kernels[0].total_ns = 1200;
  out = open_memstream(&text, &size);
  ck_assert_ptr_nonnull(out);
  op_profile_print(out, &profile, 0);
  fclose(out);
  ck_assert_ptr_nonnull(strstr(text, "kernel 0: gpu_to_slices: 0.000300 ms GPU, 0.033% (layout conversion)\n"));
  free(text);
  out = open_memstream(&text, &size);
  ck_assert_ptr_nonnull(out);
  op_profile_print(out, &profile, 1);
  fclose(out);
  ck_assert_ptr_nonnull(strstr(text, "  kernel, gpu_to_slices, 0.0003, 0.0333222%, 4 runs, no op"));
  free(text);
  for (int i = 0; i < 3; ++i) free(op_lines[i]);
  free(node.type);
  free(node.name);
  run_stats_free(&node.us);
  run_stats_free(&profile.total_us);
}
END_TEST

START_TEST(detection_ground_truth_and_average_precision) {
  detection_box unit = {0, 1, 0, 1}, half = {0, 1, 0, 0.5f}, apart = {0, 1, 2, 3};
  ck_assert_double_eq_tol(detection_iou(&unit, &half), 0.5, 1e-9);
  ck_assert_double_eq_tol(detection_iou(&unit, &apart), 0.0, 1e-9);
  detection_ground_truth truth;
  assert_ok(detection_ground_truth_parse(
      "detection_results { image_name: \"x.png\"  # a comment\n"
      "  objects { class_id: 1 bounding_box { normalized_top: 0 normalized_bottom: 1 "
      "normalized_left: 0 normalized_right: 1 } }\n"
      "  objects: { class_id: 2, bounding_box: { normalized_top: 0, normalized_bottom: 1, "
      "normalized_left: 0, normalized_right: 0.5 } } }\n",
      "truth", &truth));
  ck_assert_uint_eq(truth.image_count, 1);
  ck_assert_str_eq(truth.images[0].name, "x.png");
  ck_assert_uint_eq(truth.images[0].object_count, 2);
  ck_assert_int_eq(truth.images[0].objects[1].class_id, 2);
  ck_assert_float_eq(truth.images[0].objects[1].box.right, 0.5f);
  /* Class 1: a wrong box scored above the right one: precision 1/2 at
   * recall 1, AP 0.5 at every threshold. Class 2: no detection, AP 0. */
  detection_image predicted = {0};
  detection_object wrong = {1, apart, 0.9f}, right = {1, unit, 0.8f};
  assert_ok(detection_image_add(&predicted, &wrong));
  assert_ok(detection_image_add(&predicted, &right));
  detection_precision precision;
  assert_ok(detection_average_precision(truth.images, &predicted, 1, &precision));
  ck_assert_uint_eq(precision.class_count, 2);
  ck_assert_double_eq_tol(precision.iou_threshold[9], 0.95, 1e-9);
  for (int t = 0; t < DETECTION_THRESHOLD_COUNT; ++t)
    ck_assert_double_eq_tol(precision.average_precision[t], 0.25, 1e-9);
  ck_assert_double_eq_tol(precision.mean_average_precision, 0.25, 1e-9);
  free(predicted.objects);
  detection_ground_truth_free(&truth);
  tflaccel_status status = detection_ground_truth_parse(
      "detection_results { image_name: \"x.png\" objects { bounding_box { normalized_top: 0 "
      "normalized_bottom: 1 normalized_left: 0 normalized_right: 1 } } }",
      "truth", &truth);
  ck_assert_ptr_nonnull(status);
  ck_assert_str_eq(tflaccel_status_message(status), "truth:1: an object lacks class_id");
  tflaccel_status_free(status);
  status = detection_ground_truth_parse("detection_results { image_name: \"x.png }", "truth", &truth);
  ck_assert_ptr_nonnull(status);
  ck_assert_str_eq(tflaccel_status_message(status), "truth:1: a string is not closed");
  tflaccel_status_free(status);
}
END_TEST

int main(void) {
  Suite *suite = suite_create("eval_helpers");
  TCase *images = tcase_create("images");
  tcase_add_test(images, preprocessing_follows_the_input_type);
  tcase_add_test(images, preprocessing_crops_the_centre);
  suite_add_tcase(suite, images);
  TCase *text = tcase_create("files_and_flags");
  tcase_add_test(text, labels_files_are_read_as_lines);
  tcase_add_test(text, foreign_flags_are_refused_or_switched_off);
  tcase_add_test(text, directories_are_made_with_their_parents);
  tcase_add_test(text, op_profile_tables);
  tcase_add_test(text, op_profile_lists_a_partitions_kernels);
  tcase_add_test(text, detection_ground_truth_and_average_precision);
  suite_add_tcase(suite, text);
  return test_run_suite(suite);
}
