/* core/facts/flexbuffer and core/facts/posenet_decoder: the reader against
 * FlexBuffers written by the flatbuffers project's own builder
 * (tests/support/flexbuffer_vectors.h), and against every truncation and
 * every single-byte corruption of them, which must fail or read inside the
 * buffer (the CI runs this under ASan). */
#include "config.h"

#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "core/facts/flexbuffer.h"
#include "core/facts/posenet_decoder.h"
#include "tests/support/flexbuffer_vectors.h"

static int64_t get_int(const flex_ref *map, const char *key) {
  flex_ref value;
  int64_t result = 0;
  ck_assert_msg(flex_map_get(map, key, &value), "key %s", key);
  ck_assert_msg(flex_as_int64(&value, &result), "key %s is not a number", key);
  return result;
}

static double get_double(const flex_ref *map, const char *key) {
  flex_ref value;
  double result = 0;
  ck_assert_msg(flex_map_get(map, key, &value), "key %s", key);
  ck_assert_msg(flex_as_double(&value, &result), "key %s is not a number", key);
  return result;
}

START_TEST(reads_builder_maps) {
  flex_ref root, value;
  ck_assert(flex_root(posenet_options, sizeof posenet_options, &root));
  ck_assert_int_eq(root.type, FLEX_MAP);
  ck_assert_int_eq(get_int(&root, "max_detections"), 3);
  ck_assert_int_eq(get_int(&root, "stride"), 16);
  ck_assert(get_double(&root, "nms_radius") == 20.0);
  ck_assert(get_double(&root, "score_threshold") == 0.5);
  ck_assert(!flex_map_get(&root, "stride_", &value));
  ck_assert(!flex_map_get(&root, "strid", &value));

  ck_assert(flex_root(l2tm_options, sizeof l2tm_options, &root));
  ck_assert(flex_map_get(&root, "subset_idxs", &value));
  ck_assert_int_eq(value.type, FLEX_VECTOR_INT);
  size_t count = 0;
  ck_assert(flex_vector_size(&value, &count));
  ck_assert_uint_eq(count, 3);
  const int64_t expected[3] = {2, 3, 300};
  for (size_t i = 0; i < count; i++) {
    flex_ref element;
    int64_t v;
    ck_assert(flex_vector_at(&value, i, &element) && flex_as_int64(&element, &v));
    ck_assert_int_eq(v, expected[i]);
  }
  flex_ref past;
  ck_assert(!flex_vector_at(&value, 3, &past));
  ck_assert(get_double(&root, "scale_y") == 1.0);
  ck_assert_int_eq(get_int(&root, "right_rotation_idx"), 1);

  ck_assert(flex_root(mixed_options, sizeof mixed_options, &root));
  ck_assert_int_eq(get_int(&root, "big"), INT64_C(-5000000000));
  ck_assert_int_eq(get_int(&root, "flag"), 1);
  ck_assert_int_eq(get_int(&root, "u"), 200);
  flex_ref inner;
  ck_assert(flex_map_get(&root, "inner", &inner));
  ck_assert(get_double(&inner, "x") == -2.25);
  ck_assert(flex_map_get(&root, "name", &value));
  int64_t not_number;
  ck_assert(!flex_as_int64(&value, &not_number)); /* a string */
  flex_ref vector;
  ck_assert(flex_map_get(&root, "v", &vector));
  ck_assert_int_eq(vector.type, FLEX_VECTOR);
  ck_assert(flex_vector_size(&vector, &count));
  ck_assert_uint_eq(count, 4);
  flex_ref element;
  int64_t i64;
  double f64;
  ck_assert(flex_vector_at(&vector, 0, &element) && flex_as_int64(&element, &i64) && i64 == 7);
  ck_assert(flex_vector_at(&vector, 1, &element) && flex_as_double(&element, &f64) && f64 == 1.5);
  ck_assert(flex_vector_at(&vector, 2, &element) && !flex_as_double(&element, &f64));
  ck_assert(flex_vector_at(&vector, 3, &element) && flex_as_int64(&element, &i64) && i64 == -1);
}
END_TEST

/* Looks up every key the vectors have, so that corrupted bytes get read. */
static void read_everything(const uint8_t *bytes, size_t size) {
  static const char *const keys[] = {"max_detections", "nms_radius", "score_threshold", "stride",
                                     "subset_idxs",    "scale_x",    "big",             "inner",
                                     "v",              "u",          "flag",            "name"};
  flex_ref root;
  if (!flex_root(bytes, size, &root)) return;
  for (size_t k = 0; k < sizeof keys / sizeof keys[0]; k++) {
    flex_ref value, element;
    int64_t i64;
    double f64;
    size_t count;
    if (!flex_map_get(&root, keys[k], &value)) continue;
    (void)flex_as_int64(&value, &i64);
    (void)flex_as_double(&value, &f64);
    if (flex_vector_size(&value, &count))
      for (size_t i = 0; i < count && i < 64; i++)
        if (flex_vector_at(&value, i, &element)) (void)flex_as_double(&element, &f64);
  }
  posenet_decoder_options options;
  (void)posenet_decoder_options_parse(bytes, size, &options);
}

START_TEST(survives_truncation_and_corruption) {
  const struct {
    const uint8_t *bytes;
    size_t size;
  } vectors[] = {{posenet_options, sizeof posenet_options},
                 {l2tm_options, sizeof l2tm_options},
                 {mixed_options, sizeof mixed_options}};
  for (size_t v = 0; v < 3; v++) {
    const size_t size = vectors[v].size;
    /* A truncated copy ends where the heap block ends, so ASan sees any
     * read past it. */
    for (size_t cut = 0; cut < size; cut++) {
      uint8_t *copy = malloc(cut ? cut : 1);
      ck_assert_ptr_nonnull(copy);
      memcpy(copy, vectors[v].bytes + (size - cut), cut);
      read_everything(copy, cut); /* the tail: root bytes kept, start lost */
      memcpy(copy, vectors[v].bytes, cut);
      read_everything(copy, cut); /* the head */
      free(copy);
    }
    uint8_t *copy = malloc(size);
    ck_assert_ptr_nonnull(copy);
    for (size_t at = 0; at < size; at++)
      for (int bit = 0; bit < 8; bit++) {
        memcpy(copy, vectors[v].bytes, size);
        copy[at] ^= (uint8_t)(1u << bit);
        read_everything(copy, size);
      }
    free(copy);
  }
  flex_ref root;
  ck_assert(!flex_root(NULL, 0, &root));
}
END_TEST

START_TEST(posenet_options_and_shapes) {
  posenet_decoder_options options;
  ck_assert(posenet_decoder_options_parse(posenet_options, sizeof posenet_options, &options));
  ck_assert_int_eq(options.max_detections, 3);
  ck_assert_int_eq(options.stride, 16);
  ck_assert(options.nms_radius == 20.0f && options.score_threshold == 0.5f);
  int32_t dims[4];
  ck_assert_uint_eq(posenet_decoder_output_shape(&options, 0, dims), 4);
  ck_assert(dims[0] == 1 && dims[1] == 3 && dims[2] == POSENET_KEYPOINTS && dims[3] == 2);
  ck_assert_uint_eq(posenet_decoder_output_shape(&options, 1, dims), 3);
  ck_assert_uint_eq(posenet_decoder_output_shape(&options, 2, dims), 2);
  ck_assert_uint_eq(posenet_decoder_output_shape(&options, 3, dims), 1);
  ck_assert_uint_eq(posenet_decoder_output_shape(&options, 4, dims), 0);
  /* Another op's options lack the keys. */
  ck_assert(!posenet_decoder_options_parse(l2tm_options, sizeof l2tm_options, &options));
}
END_TEST

int main(void) {
  Suite *suite = suite_create("flexbuffer");
  TCase *tc = tcase_create("reader");
  tcase_set_timeout(tc, 60);
  tcase_add_test(tc, reads_builder_maps);
  tcase_add_test(tc, survives_truncation_and_corruption);
  tcase_add_test(tc, posenet_options_and_shapes);
  suite_add_tcase(suite, tc);
  SRunner *runner = srunner_create(suite);
  srunner_run_all(runner, CK_NORMAL);
  const int failed = srunner_ntests_failed(runner);
  srunner_free(runner);
  return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
