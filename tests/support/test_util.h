/* Helpers shared by the Check tests. */
#ifndef TFLACCEL_TESTS_SUPPORT_TEST_UTIL_H
#define TFLACCEL_TESTS_SUPPORT_TEST_UTIL_H

#include <stddef.h>

/* A fresh directory under the build tree's tests/ (or $TMPDIR); the caller
 * frees the returned path. Never NULL (aborts the test on failure). */
char *test_make_temp_dir(void);
/* Writes text to dir/name and returns the path (caller frees). */
char *test_write_file(const char *dir, const char *name, const char *text);
/* Removes a directory tree made by test_make_temp_dir. */
void test_remove_tree(const char *dir);
/* Runs a Check suite, returns the process exit status (0 or 1). */
struct Suite;
int test_run_suite(struct Suite *suite);

#endif
