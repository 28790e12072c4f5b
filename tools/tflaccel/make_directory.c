#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "tools/tflaccel/make_directory.h"

static tflaccel_status make_one(const char *path, const char *whole) {
  if (mkdir(path, 0777) == 0) return NULL;
  int error = errno;
  struct stat info;
  if (error == EEXIST && stat(path, &info) == 0 && S_ISDIR(info.st_mode)) return NULL;
  return tflaccel_status_make(TFLACCEL_IO_ERROR, "cannot make directory %s: %s", whole,
                              error == EEXIST ? "a file is in the way" : strerror(error));
}

tflaccel_status make_directory_tree(const char *path) {
  char *copy = strdup(path);
  if (copy == NULL) return tflaccel_status_make(TFLACCEL_OUT_OF_MEMORY, "out of memory");
  tflaccel_status status = NULL;
  for (char *slash = strchr(copy + 1, '/'); slash != NULL && status == NULL;
       slash = strchr(slash + 1, '/')) {
    *slash = '\0';
    if (slash[-1] != '/' && *copy) status = make_one(copy, path);
    *slash = '/';
  }
  if (status == NULL) status = make_one(copy, path);
  free(copy);
  return status;
}
