/* Reads plugins.d drop-ins with the main file's own parser, then merges
 * their plugin sections into the configuration (see plugin_dropins.h). */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/config/plugin_dropins.h"

static tflaccel_status out_of_memory(void) {
  return tflaccel_status_make(TFLACCEL_OUT_OF_MEMORY, "config: out of memory");
}

static int is_dropin_name(const char *name) {
  size_t length = strlen(name);
  /* Hidden files and editor or dpkg leftovers (.ini.dpkg-old, .ini~) are skipped. */
  return name[0] != '.' && length > 4 && !strcmp(name + length - 4, ".ini");
}

static int compare_names(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

static void free_names(char **names, size_t count) {
  for (size_t i = 0; i < count; ++i) free(names[i]);
  free(names);
}

/* The drop-in file names of directory, sorted; *count 0 when it is absent. */
static tflaccel_status list_dropins(const char *directory, char ***names_out, size_t *count_out) {
  *names_out = NULL;
  *count_out = 0;
  DIR *handle = opendir(directory);
  if (handle == NULL) {
    if (errno == ENOENT) return NULL;
    return tflaccel_status_make(TFLACCEL_IO_ERROR, "cannot read plugin drop-in directory %s: %s",
                                directory, strerror(errno));
  }
  char **names = NULL;
  size_t count = 0;
  tflaccel_status status = NULL;
  struct dirent *item;
  while (status == NULL && (item = readdir(handle)) != NULL) {
    if (!is_dropin_name(item->d_name)) continue;
    char **grown = realloc(names, sizeof *grown * (count + 1));
    size_t length = strlen(item->d_name) + 1;
    char *copy = malloc(length);
    if (copy != NULL) memcpy(copy, item->d_name, length);
    if (grown != NULL) names = grown;
    if (grown == NULL || copy == NULL) {
      free(copy);
      status = out_of_memory();
      break;
    }
    names[count++] = copy;
  }
  closedir(handle);
  if (status != NULL) {
    free_names(names, count);
    return status;
  }
  if (count > 1) qsort(names, count, sizeof *names, compare_names);
  *names_out = names;
  *count_out = count;
  return NULL;
}

/* True when the drop-in set a [tflaccel] key that would take effect:
 * compared with an empty file, every global is unchanged. */
static int sets_global(const tflaccel_config *dropin, const tflaccel_config *empty) {
  return dropin->accelerators != NULL || dropin->plugin_dir != NULL || dropin->cache_dir != NULL ||
         dropin->precision != empty->precision || dropin->thread_count != empty->thread_count ||
         dropin->max_delegated_partitions != empty->max_delegated_partitions ||
         dropin->min_partition_ops != empty->min_partition_ops ||
         dropin->require_full_delegation != empty->require_full_delegation ||
         memcmp(&dropin->cost, &empty->cost, sizeof dropin->cost) != 0;
}

static config_plugin *find_plugin(tflaccel_config *config, const char *name) {
  for (uint32_t i = 0; i < config->plugin_count; ++i)
    if (!strcmp(config->plugins[i].name, name)) return &config->plugins[i];
  return NULL;
}

/* Moves the options of source that target lacks into target. */
static tflaccel_status add_missing_options(config_plugin *target, config_plugin *source) {
  for (uint32_t i = 0; i < source->option_count; ++i) {
    if (config_plugin_option(target, source->options[i].key) != NULL) continue;
    config_option *grown = realloc(target->options, sizeof *grown * (target->option_count + 1));
    if (grown == NULL) return out_of_memory();
    target->options = grown;
    grown[target->option_count++] = source->options[i];
    source->options[i].key = NULL;
    source->options[i].value = NULL;
  }
  return NULL;
}

/* Moves every plugin section of dropin into config (dropin keeps empty
 * husks, which config_destroy frees). */
static tflaccel_status merge_plugins(tflaccel_config *config, tflaccel_config *dropin) {
  for (uint32_t i = 0; i < dropin->plugin_count; ++i) {
    config_plugin *source = &dropin->plugins[i];
    config_plugin *target = find_plugin(config, source->name);
    if (target != NULL) {
      tflaccel_status status = add_missing_options(target, source);
      if (status != NULL) return status;
      continue;
    }
    config_plugin *grown = realloc(config->plugins, sizeof *grown * (config->plugin_count + 1));
    if (grown == NULL) return out_of_memory();
    config->plugins = grown;
    grown[config->plugin_count++] = *source;
    memset(source, 0, sizeof *source);
  }
  return NULL;
}

tflaccel_status config_merge_plugin_dropins(tflaccel_config *config, const char *directory) {
  if (config == NULL || directory == NULL)
    return tflaccel_status_make(TFLACCEL_INVALID_ARGUMENT, "config drop-ins: NULL argument");
  char **names = NULL;
  size_t count = 0;
  tflaccel_status status = list_dropins(directory, &names, &count);
  if (status != NULL || count == 0) return status;
  tflaccel_config *empty = NULL;
  status = config_load_string("", "<empty>", &empty);
  for (size_t i = 0; status == NULL && i < count; ++i) {
    size_t length = strlen(directory) + strlen(names[i]) + 2;
    char *path = malloc(length);
    if (path == NULL) {
      status = out_of_memory();
      break;
    }
    snprintf(path, length, "%s/%s", directory, names[i]);
    tflaccel_config *dropin = NULL;
    status = config_load_file(path, &dropin);
    if (status == NULL && sets_global(dropin, empty))
      status = tflaccel_status_make(TFLACCEL_INVALID_CONFIG,
                                    "%s: a plugin drop-in may only hold [plugin.NAME] sections "
                                    "([tflaccel] settings belong in tflaccel.ini)",
                                    path);
    if (status == NULL) status = merge_plugins(config, dropin);
    config_destroy(dropin);
    free(path);
  }
  config_destroy(empty);
  free_names(names, count);
  return status;
}
