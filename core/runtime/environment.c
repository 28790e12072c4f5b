/* tflaccel_environment_*: reads the config, loads the selected plugins. */
#include "config.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/config/plugin_dropins.h"
#include "core/log/log.h"
#include "core/runtime/cache_location.h"
#include "core/runtime/environment.h"
#include "core/util/env.h"

static tflaccel_status load_config(const tflaccel_environment_options *options,
                                   tflaccel_config **config) {
  if (options != NULL && options->config_path != NULL)
    return config_load_file(options->config_path, config);
  /* Running from the build tree, the source tree's conf/ stands in for the
   * installed one, so an older system-wide install is not picked up. */
  const char *system_dir = registry_running_uninstalled() ? TFLACCEL_SOURCE_CONF_DIR
                                                          : TFLACCEL_SYSCONF_DIR;
  char *path = NULL;
  tflaccel_status status = config_find_file(system_dir, &path);
  if (status != NULL) return status;
  status = path == NULL ? config_load_defaults(config) : config_load_file(path, config);
  free(path);
  /* Plugin packages' sections (plugins.d beside the system file) join any
   * found or built-in configuration; $TFLACCEL_CONFIG names one whole file. */
  if (status == NULL && env_get_path("TFLACCEL_CONFIG") == NULL) {
    char dropins[4096];
    snprintf(dropins, sizeof dropins, "%s/plugins.d", system_dir);
    status = config_merge_plugin_dropins(*config, dropins);
  }
  if (status != NULL) {
    config_destroy(*config);
    *config = NULL;
  }
  return status;
}

tflaccel_status tflaccel_environment_create(const tflaccel_environment_options *options,
                                            tflaccel_environment **environment_out) {
  if (environment_out == NULL)
    return tflaccel_status_make(TFLACCEL_INVALID_ARGUMENT, "environment: NULL output pointer");
  *environment_out = NULL;
  if (options != NULL && options->struct_size < sizeof(uint32_t))
    return tflaccel_status_make(TFLACCEL_INVALID_ARGUMENT, "environment options: struct_size unset");

  int32_t log_level;
  if (TFLACCEL_HAS_FIELD(tflaccel_environment_options, options, log_level) &&
      options->log_level != NULL) {
    log_level = log_level_parse(options->log_level);
    if (log_level < 0)
      return tflaccel_status_make(TFLACCEL_INVALID_ARGUMENT,
                                  "log level '%s': must be debug, info, warning or error",
                                  options->log_level);
  } else {
    const char *bad = NULL;
    log_level = log_level_from_env(&bad);
    if (bad != NULL)
      return tflaccel_status_make(TFLACCEL_INVALID_CONFIG,
                                  "TFLACCEL_LOG=%s: must be debug, info, warning or error", bad);
  }

  tflaccel_environment *environment = calloc(1, sizeof *environment);
  if (environment == NULL)
    return tflaccel_status_make(TFLACCEL_OUT_OF_MEMORY, "environment: out of memory");
  environment->log_level = log_level;
  tflaccel_status status = load_config(
      TFLACCEL_HAS_FIELD(tflaccel_environment_options, options, config_path) ? options : NULL,
      &environment->config);
  if (status == NULL && TFLACCEL_HAS_FIELD(tflaccel_environment_options, options, cache_dir) &&
      options->cache_dir != NULL)
    status = config_set_global(environment->config, "cache_dir", options->cache_dir,
                               "cache_dir option");
  if (status == NULL && TFLACCEL_HAS_FIELD(tflaccel_environment_options, options, profile_kernels) &&
      options->profile_kernels)
    status = config_set_plugin_option(environment->config, "profile", "1",
                                      "profile_kernels option");
  if (status == NULL) status = cache_location_resolve(environment->config, log_level);
  if (status == NULL)
    status = registry_create(environment->config, log_level, &environment->registry);

  if (status == NULL) {
    const char *text = NULL;
    char origin[512];
    if (TFLACCEL_HAS_FIELD(tflaccel_environment_options, options, accelerators) &&
        options->accelerators != NULL) {
      text = options->accelerators;
      snprintf(origin, sizeof origin, "accelerators");
      environment->explicit_selection = 1;
    } else if ((text = env_get("TFLACCEL_ACCELERATOR")) != NULL) {
      snprintf(origin, sizeof origin, "TFLACCEL_ACCELERATOR");
      environment->explicit_selection = 1;
    } else if (environment->config->accelerators != NULL) {
      text = environment->config->accelerators;
      snprintf(origin, sizeof origin, "%s: accelerators",
               environment->config->path ? environment->config->path : "configuration");
    } else {
      text = "auto";
      snprintf(origin, sizeof origin, "default selection");
    }
    status = selection_parse(environment->registry, text, origin, &environment->selection);
  }
  if (status != NULL) {
    tflaccel_environment_destroy(environment);
    return status;
  }

  for (uint32_t i = 0; i < environment->selection.count; ++i) {
    plugin_entry *entry = environment->selection.entries[i];
    registry_load(environment->registry, entry);
    /* Explicitly chosen accelerators that cannot run are worth a warning:
     * silently falling back to the CPU is what LiteRT users complain of. A
     * configured plugin whose package is not installed is the normal case
     * of a distribution, so it is only told at debug level. */
    int32_t level = environment->explicit_selection ? TFLACCEL_LOG_WARNING
                    : entry->state == PLUGIN_NOT_INSTALLED ? TFLACCEL_LOG_DEBUG
                                                           : TFLACCEL_LOG_INFO;
    if (entry->state != PLUGIN_AVAILABLE)
      log_write(log_level, level, NULL, "accelerator %s is unavailable: %s", entry->config->name,
                entry->reason ? entry->reason : "unknown reason");
  }
  *environment_out = environment;
  return NULL;
}

void tflaccel_environment_destroy(tflaccel_environment *environment) {
  if (environment == NULL) return;
  selection_clear(&environment->selection);
  registry_destroy(environment->registry);
  config_destroy(environment->config);
  free(environment);
}

const char *tflaccel_environment_config_path(const tflaccel_environment *environment) {
  return environment ? environment->config->path : NULL;
}

const char *tflaccel_environment_cache_dir(const tflaccel_environment *environment) {
  return environment ? environment->config->cache_dir : NULL;
}

const char *tflaccel_environment_selection(const tflaccel_environment *environment) {
  return environment ? environment->selection.text : NULL;
}

const char *tflaccel_environment_selection_notes(const tflaccel_environment *environment) {
  return environment ? environment->selection.notes : NULL;
}

uint32_t tflaccel_environment_plugin_count(const tflaccel_environment *environment) {
  return environment ? environment->registry->entry_count : 0;
}

tflaccel_status tflaccel_environment_plugin_info(tflaccel_environment *environment,
                                                 uint32_t index, tflaccel_plugin_info *info) {
  if (environment == NULL || info == NULL)
    return tflaccel_status_make(TFLACCEL_INVALID_ARGUMENT, "plugin_info: NULL argument");
  if (index >= environment->registry->entry_count)
    return tflaccel_status_make(TFLACCEL_INVALID_ARGUMENT, "plugin index %u out of range (%u plugins)",
                                index, environment->registry->entry_count);
  /* The struct only grows at its end: a caller built before a field was
   * appended gets the fields its struct_size covers. */
  if (info->struct_size < offsetof(tflaccel_plugin_info, not_installed))
    return tflaccel_status_make(TFLACCEL_INVALID_ARGUMENT, "plugin_info: struct_size too small");
  uint32_t caller_size = info->struct_size < sizeof *info ? info->struct_size : sizeof *info;
  plugin_entry *entry = &environment->registry->entries[index];
  registry_load(environment->registry, entry);
  tflaccel_plugin_info full;
  memset(&full, 0, sizeof full);
  full.struct_size = caller_size;
  full.name = entry->config->name;
  full.library_path = entry->library_path ? entry->library_path : entry->config->library;
  full.version = entry->descriptor && entry->descriptor->version ? entry->descriptor->version : "";
  full.description =
      entry->descriptor && entry->descriptor->description ? entry->descriptor->description : "";
  full.abi_version = entry->abi_version;
  full.enabled = entry->config->enabled;
  full.available = entry->state == PLUGIN_AVAILABLE;
  full.reason = entry->state == PLUGIN_AVAILABLE ? NULL : entry->reason;
  full.device_count = entry->state == PLUGIN_AVAILABLE ? entry->device_count : 0;
  full.selection_rank = -1;
  for (uint32_t i = 0; i < environment->selection.count; ++i)
    if (environment->selection.entries[i] == entry) full.selection_rank = (int32_t)i;
  full.not_installed = entry->state == PLUGIN_NOT_INSTALLED;
  memcpy(info, &full, caller_size);
  return NULL;
}

tflaccel_status tflaccel_environment_device_info(tflaccel_environment *environment,
                                                 uint32_t plugin_index, uint32_t device_index,
                                                 tflaccel_device_info *info) {
  if (environment == NULL || info == NULL)
    return tflaccel_status_make(TFLACCEL_INVALID_ARGUMENT, "device_info: NULL argument");
  if (plugin_index >= environment->registry->entry_count)
    return tflaccel_status_make(TFLACCEL_INVALID_ARGUMENT, "plugin index %u out of range",
                                plugin_index);
  plugin_entry *entry = &environment->registry->entries[plugin_index];
  registry_load(environment->registry, entry);
  if (entry->state != PLUGIN_AVAILABLE)
    return tflaccel_status_make(TFLACCEL_UNAVAILABLE, "accelerator %s is unavailable: %s",
                                entry->config->name, entry->reason ? entry->reason : "");
  if (device_index >= entry->device_count)
    return tflaccel_status_make(TFLACCEL_INVALID_ARGUMENT, "%s has %u device(s), not %u",
                                entry->config->name, entry->device_count, device_index + 1);
  memset(info, 0, sizeof *info);
  info->struct_size = sizeof *info;
  tflaccel_status status =
      entry->descriptor->device_info(entry->plugin_state, device_index, info);
  return tflaccel_status_annotate(status, "%s device %u", entry->config->name, device_index);
}
