/* The compiled-model cache's directory (cache_location.h). */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "core/cache/cache_directory.h"
#include "core/log/log.h"
#include "core/runtime/cache_location.h"
#include "core/util/env.h"

/* The directory asked for, malloc'ed, where that came from, and whether
 * its missing parents may be made (only the default location's). NULL with
 * *origin "default" when there is no home to put it in (*why says so); NULL
 * with another origin when out of memory. */
static char *choose(const tflaccel_config *config, const char **origin, int *with_parents,
                    const char **why) {
  const char *text;
  *with_parents = 0;
  *why = NULL;
  if ((text = env_get_path("TFLACCEL_CACHE_DIR")) != NULL) {
    *origin = "TFLACCEL_CACHE_DIR";
    return strdup(text);
  }
  if (config->cache_dir != NULL) {
    *origin = config->path != NULL ? config->path : "the configuration";
    return strdup(config->cache_dir);
  }
  /* XDG: a relative XDG_CACHE_HOME is invalid and is ignored. */
  const char *base = env_get_path("XDG_CACHE_HOME");
  const char *tail = "/tflaccel";
  *origin = "default";
  if (base == NULL || base[0] != '/') {
    /* A home that does not exist (a build user's /nonexistent) or is not
     * absolute: no default cache, and nothing is made in its place. */
    base = env_get_path("HOME");
    tail = "/.cache/tflaccel";
    struct stat info;
    if (base == NULL || base[0] != '/') {
      *why = "neither XDG_CACHE_HOME nor HOME is set";
      return NULL;
    }
    if (stat(base, &info) != 0 || !S_ISDIR(info.st_mode)) {
      *why = "HOME is not a directory and XDG_CACHE_HOME is not set";
      return NULL;
    }
  }
  *with_parents = 1;
  size_t size = strlen(base) + strlen(tail) + 1;
  char *path = malloc(size);
  if (path == NULL) *origin = "out of memory";
  else snprintf(path, size, "%s%s", base, tail);
  return path;
}

tflaccel_status cache_location_resolve(tflaccel_config *config, int32_t log_level) {
  const char *switch_text = env_get("TFLACCEL_CACHE");
  int enabled = config->cache_enabled;
  if (switch_text != NULL) {
    if (!strcasecmp(switch_text, "off")) enabled = 0;
    else if (!strcasecmp(switch_text, "on")) enabled = 1;
    else
      return tflaccel_status_make(TFLACCEL_INVALID_CONFIG, "TFLACCEL_CACHE=%s: must be on or off",
                                  switch_text);
  }
  char *path = NULL;
  const char *origin = "", *no_home = NULL;
  int with_parents = 0;
  if (enabled) {
    path = choose(config, &origin, &with_parents, &no_home);
    if (path == NULL && no_home == NULL)
      return tflaccel_status_make(TFLACCEL_OUT_OF_MEMORY, "cache: out of memory");
    if (path == NULL)
      log_write(log_level, TFLACCEL_LOG_INFO, NULL, "compiled-model cache off: %s", no_home);
  }
  free(config->cache_dir);
  config->cache_dir = NULL;
  if (path == NULL) return NULL;

  char why[256];
  int error = cache_directory_make(path, with_parents);
  const char *problem = NULL;
  if (error == ENOENT && !with_parents) {
    snprintf(why, sizeof why, "its parent directory does not exist (only its last component is made)");
    problem = why;
  } else if (error != 0) {
    snprintf(why, sizeof why, "cannot make it: %s", strerror(error));
    problem = why;
  } else {
    problem = cache_directory_check_private(path, why, sizeof why);
  }
  if (problem != NULL) {
    log_write(log_level, TFLACCEL_LOG_WARNING, NULL,
              "compiled-model cache off: %s (%s) is not usable: %s", path, origin, problem);
    free(path);
    return NULL;
  }
  uint32_t removed = 0;
  uint64_t kept = 0;
  error = cache_directory_evict(path, (uint64_t)config->cache_max_mb << 20, &removed, &kept);
  if (error != 0)
    log_write(log_level, TFLACCEL_LOG_INFO, NULL, "compiled-model cache %s: cannot trim it: %s",
              path, strerror(error));
  else if (removed > 0)
    log_write(log_level, TFLACCEL_LOG_INFO, NULL,
              "compiled-model cache %s: removed %u least recently used entries (%llu bytes kept, "
              "limit %d MiB)",
              path, removed, (unsigned long long)kept, (int)config->cache_max_mb);
  log_write(log_level, TFLACCEL_LOG_DEBUG, NULL, "compiled-model cache: %s (%s)", path, origin);
  config->cache_dir = path;
  return NULL;
}
