#include "config.h"

#include <check.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tests/support/test_util.h"

char *test_make_temp_dir(void) {
  const char *base = getenv("TFLACCEL_TOP_BUILDDIR");
  char template_path[4096];
  snprintf(template_path, sizeof template_path, "%s/tests/tmp-XXXXXX",
           base ? base : (getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp"));
  if (base == NULL) snprintf(template_path, sizeof template_path, "%s/tflaccel-test-XXXXXX",
                             getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
  char *made = mkdtemp(template_path);
  ck_assert_msg(made != NULL, "mkdtemp(%s) failed", template_path);
  char *copy = strdup(made);
  ck_assert_ptr_nonnull(copy);
  return copy;
}

char *test_write_file(const char *dir, const char *name, const char *text) {
  size_t length = strlen(dir) + strlen(name) + 2;
  char *path = malloc(length);
  ck_assert_ptr_nonnull(path);
  snprintf(path, length, "%s/%s", dir, name);
  FILE *file = fopen(path, "wb");
  ck_assert_msg(file != NULL, "cannot write %s", path);
  ck_assert_int_eq(fputs(text, file) >= 0, 1);
  ck_assert_int_eq(fclose(file), 0);
  return path;
}

static int remove_entry(const char *path, const struct stat *info, int flag, struct FTW *walk) {
  (void)info;
  (void)flag;
  (void)walk;
  return remove(path);
}

void test_remove_tree(const char *dir) { nftw(dir, remove_entry, 16, FTW_DEPTH | FTW_PHYS); }

int test_run_suite(Suite *suite) {
  SRunner *runner = srunner_create(suite);
  srunner_run_all(runner, CK_NORMAL);
  int failed = srunner_ntests_failed(runner);
  srunner_free(runner);
  return failed == 0 ? 0 : 1;
}
