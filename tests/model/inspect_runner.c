/* Runs the CLI's inspect command in-process with its output captured. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "tests/model/inspect_runner.h"
#include "tests/model/test_support.h"
#include "tools/tflaccel/commands.h"

static int redirect(FILE *stream, int fd, int *saved) {
  fflush(stream);
  *saved = dup(fileno(stream));
  return *saved >= 0 && dup2(fd, fileno(stream)) >= 0;
}

static void restore(FILE *stream, int saved) {
  fflush(stream);
  dup2(saved, fileno(stream));
  close(saved);
}

static char *slurp(const char *path) {
  size_t size;
  uint8_t *bytes = test_read_file(path, &size);
  if (bytes == NULL) return NULL;
  char *text = realloc(bytes, size + 1);
  if (text == NULL) {
    free(bytes);
    return NULL;
  }
  text[size] = '\0';
  return text;
}

int test_run_inspect(int argc, char **argv, char **out, char **err) {
  const char *base = getenv("TMPDIR");
  char *out_path = test_join(base && base[0] ? base : "/tmp", "tflaccel-inspect-out-XXXXXX");
  char *err_path = test_join(base && base[0] ? base : "/tmp", "tflaccel-inspect-err-XXXXXX");
  int out_fd = out_path ? mkstemp(out_path) : -1;
  int err_fd = err_path ? mkstemp(err_path) : -1;
  int status = -1, saved_out = -1, saved_err = -1;
  if (out_fd >= 0 && err_fd >= 0 && redirect(stdout, out_fd, &saved_out) &&
      redirect(stderr, err_fd, &saved_err)) {
    status = tflaccel_cmd_inspect(argc, argv);
  }
  if (saved_out >= 0) restore(stdout, saved_out);
  if (saved_err >= 0) restore(stderr, saved_err);
  if (out_fd >= 0) close(out_fd);
  if (err_fd >= 0) close(err_fd);
  *out = out_path ? slurp(out_path) : NULL;
  *err = err_path ? slurp(err_path) : NULL;
  if (out_path) unlink(out_path);
  if (err_path) unlink(err_path);
  free(out_path);
  free(err_path);
  return status;
}
