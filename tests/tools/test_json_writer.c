/* The CLI's JSON strings: escapes, and invalid UTF-8 from model files. */
#include "config.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>

#include "tests/support/test_util.h"
#include "tools/tflaccel/json_writer.h"

static void expect_json(const char *input, const char *expected) {
  char *text = NULL;
  size_t size = 0;
  FILE *stream = open_memstream(&text, &size);
  ck_assert_ptr_nonnull(stream);
  json_write_string(stream, input);
  ck_assert_int_eq(fclose(stream), 0);
  ck_assert_str_eq(text, expected);
  free(text);
}

START_TEST(escapes_and_utf8) {
  expect_json(NULL, "null");
  expect_json("plain", "\"plain\"");
  expect_json("a\"b\\c\nd\te\x01", "\"a\\\"b\\\\c\\nd\\te\\u0001\"");
  expect_json("caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80", "\"caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80\"");
  /* Invalid: a lone continuation byte, a truncated sequence, an overlong
   * form, a surrogate, a byte that never starts UTF-8. */
  expect_json("x\x80y", "\"x\\ufffdy\"");
  expect_json("\xe2\x82", "\"\\ufffd\\ufffd\"");
  expect_json("\xc0\xaf", "\"\\ufffd\\ufffd\"");
  expect_json("\xed\xa0\x80", "\"\\ufffd\\ufffd\\ufffd\"");
  expect_json("\xff", "\"\\ufffd\"");
}
END_TEST

int main(void) {
  Suite *suite = suite_create("json writer");
  TCase *tcase = tcase_create("strings");
  tcase_add_test(tcase, escapes_and_utf8);
  suite_add_tcase(suite, tcase);
  return test_run_suite(suite);
}
