#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "tools/tflaccel/image_list.h"

static int has_image_extension(const char *name) {
  const char *dot = strrchr(name, '.');
  return dot != NULL && (!strcasecmp(dot, ".jpg") || !strcasecmp(dot, ".jpeg") ||
                         !strcasecmp(dot, ".png"));
}

static int compare_names(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

tflaccel_status image_list_read(const char *dir, text_lines *images) {
  images->lines = NULL;
  images->count = 0;
  DIR *stream = opendir(dir);
  if (stream == NULL)
    return tflaccel_status_make(TFLACCEL_IO_ERROR, "--ground_truth_images_path: cannot read %s: %s",
                                dir, strerror(errno));
  size_t capacity = 0;
  tflaccel_status status = NULL;
  struct dirent *entry;
  while ((entry = readdir(stream)) != NULL) {
    if (entry->d_name[0] == '.' || !has_image_extension(entry->d_name)) continue;
    if (images->count == capacity) {
      size_t grown = capacity ? capacity * 2 : 64;
      char **bigger = realloc(images->lines, grown * sizeof *bigger);
      if (bigger == NULL) {
        status = tflaccel_status_make(TFLACCEL_OUT_OF_MEMORY, "out of memory");
        break;
      }
      images->lines = bigger;
      capacity = grown;
    }
    size_t length = strlen(dir) + strlen(entry->d_name) + 2;
    char *path = malloc(length);
    if (path == NULL) {
      status = tflaccel_status_make(TFLACCEL_OUT_OF_MEMORY, "out of memory");
      break;
    }
    snprintf(path, length, "%s/%s", dir, entry->d_name);
    images->lines[images->count++] = path;
  }
  closedir(stream);
  if (status == NULL && images->count == 0)
    status = tflaccel_status_make(TFLACCEL_INVALID_ARGUMENT,
                                  "--ground_truth_images_path: %s holds no .jpg, .jpeg or .png "
                                  "image",
                                  dir);
  if (status != NULL) {
    text_lines_free(images);
    return status;
  }
  qsort(images->lines, images->count, sizeof *images->lines, compare_names);
  return NULL;
}

