/* tflaccel cache path|list|clear [--config FILE]: the compiled-model cache
 * (README, "The compiled-model cache"): where it is, its entries (owner,
 * what they hold, size, last use), or removing them all. */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/cache/cache_directory.h"
#include "tools/tflaccel/commands.h"
#include "tflaccel/tflaccel.h"

static void usage(FILE *stream) {
  fprintf(stream,
          "usage: tflaccel cache path|list|clear [--config FILE]\n"
          "  path   print the cache directory in use (or 'off')\n"
          "  list   its entries: plugin, size, last use, model (token prefix and file), content\n"
          "  clear  remove every entry\n");
}

static int list(const char *path) {
  cache_directory_entry *entries = NULL;
  uint32_t count = 0;
  int error = cache_directory_list(path, &entries, &count);
  if (error != 0) {
    fprintf(stderr, "tflaccel cache: cannot list %s: %s\n", path, strerror(error));
    return 1;
  }
  uint64_t total = 0;
  printf("%-8s %10s  %-19s  %-36s %-40s %s\n", "plugin", "bytes", "last use", "model", "content",
         "file");
  for (uint32_t i = 0; i < count; ++i) {
    const cache_directory_entry *entry = &entries[i];
    char when[32] = "-";
    struct tm local;
    if (localtime_r(&entry->last_use, &local) != NULL)
      strftime(when, sizeof when, "%Y-%m-%d %H:%M:%S", &local);
    char content[96];
    if (entry->problem != NULL) snprintf(content, sizeof content, "(unusable: %s)", entry->problem);
    else snprintf(content, sizeof content, "%s", entry->label);
    printf("%-8s %10llu  %-19s  %-36s %-40s %s\n", entry->owner, (unsigned long long)entry->size,
           when, entry->model[0] != '\0' ? entry->model : "-", content, entry->name);
    total += entry->size;
  }
  printf("%u entries, %llu bytes in %s\n", count, (unsigned long long)total, path);
  free(entries);
  return 0;
}

int tflaccel_cmd_cache(int argc, char **argv) {
  const char *action = NULL, *config_path = NULL;
  for (int i = 1; i < argc; ++i) {
    if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
      usage(stdout);
      return 0;
    } else if (!strcmp(argv[i], "--config") && i + 1 < argc) {
      config_path = argv[++i];
    } else if (action == NULL && argv[i][0] != '-') {
      action = argv[i];
    } else {
      fprintf(stderr, "tflaccel cache: unexpected argument '%s' (try --help)\n", argv[i]);
      return 2;
    }
  }
  if (action == NULL || (strcmp(action, "path") && strcmp(action, "list") && strcmp(action, "clear"))) {
    if (action != NULL)
      fprintf(stderr, "tflaccel cache: unknown action '%s' (path, list or clear)\n", action);
    else fprintf(stderr, "tflaccel cache: missing action (path, list or clear)\n");
    return 2;
  }
  /* The environment decides the directory (ini, environment variables);
   * only cpu_ref is loaded, no GPU driver is started for this. */
  tflaccel_environment_options options = {
      .struct_size = sizeof options, .config_path = config_path, .accelerators = "cpu"};
  tflaccel_environment *environment = NULL;
  tflaccel_status status = tflaccel_environment_create(&options, &environment);
  if (status != NULL) {
    fprintf(stderr, "tflaccel cache: %s\n", tflaccel_status_message(status));
    tflaccel_status_free(status);
    return 1;
  }
  const char *path = tflaccel_environment_cache_dir(environment);
  int result = 0;
  if (path == NULL) {
    if (!strcmp(action, "path")) printf("off\n");
    else fprintf(stderr, "tflaccel cache: the cache is off\n");
    result = strcmp(action, "path") ? 1 : 0;
  } else if (!strcmp(action, "path")) {
    printf("%s\n", path);
  } else if (!strcmp(action, "list")) {
    result = list(path);
  } else {
    uint32_t removed = 0;
    int error = cache_directory_clear(path, &removed);
    if (error != 0) {
      fprintf(stderr, "tflaccel cache: cannot clear %s: %s\n", path, strerror(error));
      result = 1;
    } else {
      printf("removed %u entries from %s\n", removed, path);
    }
  }
  tflaccel_environment_destroy(environment);
  return result;
}
