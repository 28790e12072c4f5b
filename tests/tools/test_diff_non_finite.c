/* tflaccel diff must fail, naming the output, when the accelerator under
 * test produces NaN or Inf. A model whose output is SQRT of its Gaussian
 * input gives NaN for every negative input, on any accelerator. */
#include "config.h"

#include <check.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tests/model/tflite_builder.h"
#include "tests/support/test_util.h"
#include "tflaccel/ops.h"
#include "tflaccel/types.h"

/* input [1,64] float32 -> unary op -> output, written to dir/name. */
static char *write_unary_model(const char *dir, const char *name, int32_t op_code) {
  tb_model *builder = tb_create();
  ck_assert_ptr_nonnull(builder);
  tb_tensor(builder, "x", TFLACCEL_DTYPE_FLOAT32, 2, (int32_t[]){1, 64}, 0);
  tb_tensor(builder, "y", TFLACCEL_DTYPE_FLOAT32, 2, (int32_t[]){1, 64}, 0);
  tb_op(builder, tb_opcode(builder, op_code, NULL), 1, (int32_t[]){0}, 1, (int32_t[]){1});
  tb_inputs(builder, 1, (int32_t[]){0});
  tb_outputs(builder, 1, (int32_t[]){1});
  size_t size = 0;
  uint8_t *bytes = tb_serialize(builder, &size);
  tb_destroy(builder);
  ck_assert_ptr_nonnull(bytes);
  size_t length = strlen(dir) + strlen(name) + 2;
  char *path = malloc(length);
  ck_assert_ptr_nonnull(path);
  snprintf(path, length, "%s/%s", dir, name);
  FILE *file = fopen(path, "wb");
  ck_assert_msg(file != NULL, "cannot write %s", path);
  ck_assert_uint_eq(fwrite(bytes, 1, size, file), size);
  ck_assert_int_eq(fclose(file), 0);
  free(bytes);
  return path;
}

static char *read_text(const char *path) {
  FILE *file = fopen(path, "rb");
  ck_assert_msg(file != NULL, "cannot read %s", path);
  char *text = calloc(1, 65536);
  ck_assert_ptr_nonnull(text);
  size_t got = fread(text, 1, 65535, file);
  text[got] = '\0';
  fclose(file);
  return text;
}

typedef struct command_result {
  int exit_code;
  char *out, *err;
} command_result;

/* Runs the built tflaccel with argv (NULL-terminated, without argv[0]),
 * capturing stdout and stderr through files in dir. */
static command_result run_tflaccel(const char *dir, char *const *arguments) {
  const char *top = getenv("TFLACCEL_TOP_BUILDDIR");
  ck_assert_msg(top != NULL, "TFLACCEL_TOP_BUILDDIR is not set (run through make check)");
  char tool[4096], out_path[4096], err_path[4096];
  snprintf(tool, sizeof tool, "%s/tflaccel", top);
  snprintf(out_path, sizeof out_path, "%s/stdout.txt", dir);
  snprintf(err_path, sizeof err_path, "%s/stderr.txt", dir);
  char *argv[16] = {tool};
  int argc = 1;
  for (; arguments[argc - 1] != NULL; ++argc) {
    ck_assert_int_lt(argc, 15);
    argv[argc] = arguments[argc - 1];
  }
  argv[argc] = NULL;
  fflush(NULL);
  pid_t child = fork();
  ck_assert_int_ge(child, 0);
  if (child == 0) {
    int out = open(out_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    int err = open(err_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (out < 0 || err < 0 || dup2(out, 1) < 0 || dup2(err, 2) < 0) _exit(126);
    execv(tool, argv);
    _exit(127);
  }
  int wait_status = 0;
  ck_assert_int_eq(waitpid(child, &wait_status, 0), child);
  ck_assert_msg(WIFEXITED(wait_status), "tflaccel did not exit normally (status %d)", wait_status);
  command_result result = {WEXITSTATUS(wait_status), read_text(out_path), read_text(err_path)};
  return result;
}

static void command_result_free(command_result *result) {
  free(result->out);
  free(result->err);
}

START_TEST(nan_outputs_fail_and_name_the_output) {
  char *dir = test_make_temp_dir();
  char *model = write_unary_model(dir, "sqrt.tflite", TFLACCEL_OP_SQRT);
  command_result result = run_tflaccel(
      dir, (char *[]){"diff", "--accelerator", "cpu_ref", "--num_runs=3", model, NULL});
  ck_assert_msg(result.exit_code == 1, "exit %d, stderr: %s", result.exit_code, result.err);
  ck_assert_msg(strstr(result.out, "Num evaluation runs: 3\n") != NULL, "stdout: %s", result.out);
  ck_assert_msg(strstr(result.out, "OutputDiff[0]: avg_error=") != NULL, "stdout: %s", result.out);
  ck_assert_msg(strstr(result.err, "tflaccel diff: output 0 (y) held ") != NULL &&
                    strstr(result.err, "NaN or Inf values on the test side, first in run 1") !=
                        NULL,
                "stderr: %s", result.err);
  command_result_free(&result);
  free(model);
  test_remove_tree(dir);
  free(dir);
}
END_TEST

START_TEST(finite_outputs_pass_and_max_error_is_checked) {
  char *dir = test_make_temp_dir();
  char *model = write_unary_model(dir, "abs.tflite", TFLACCEL_OP_ABS);
  command_result result =
      run_tflaccel(dir, (char *[]){"diff", "--accelerator=cpu_ref", "--num_runs", "2",
                                   "--max_error=0", model, NULL});
  ck_assert_msg(result.exit_code == 0, "exit %d, stderr: %s", result.exit_code, result.err);
  ck_assert_msg(strstr(result.out, "OutputDiff[0]: avg_error=0, std_dev=0\n") != NULL, "stdout: %s",
                result.out);
  command_result_free(&result);
  result = run_tflaccel(dir, (char *[]){"diff", "--accelerator=cpu_ref", "--num_runs=2",
                                        "--max_error=-0.5", model, NULL});
  ck_assert_msg(result.exit_code == 1, "exit %d, stderr: %s", result.exit_code, result.err);
  ck_assert_msg(strstr(result.err,
                       "tflaccel diff: OutputDiff[0] (y): avg_error=0 exceeds --max_error=-0.5") !=
                    NULL,
                "stderr: %s", result.err);
  command_result_free(&result);
  free(model);
  test_remove_tree(dir);
  free(dir);
}
END_TEST

int main(void) {
  Suite *suite = suite_create("diff_non_finite");
  TCase *cases = tcase_create("diff");
  tcase_add_test(cases, nan_outputs_fail_and_name_the_output);
  tcase_add_test(cases, finite_outputs_pass_and_max_error_is_checked);
  suite_add_tcase(suite, cases);
  return test_run_suite(suite);
}
