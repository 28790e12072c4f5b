/* tflaccel.ini: the configuration, parsed with inih.
 *
 * [tflaccel]           global keys (accelerators, precision, threads, ...)
 * [plugin.NAME]        one section per plugin: library, enabled, and any
 *                      other key is an option handed to that plugin. */
#ifndef TFLACCEL_CORE_CONFIG_INI_CONFIG_H
#define TFLACCEL_CORE_CONFIG_INI_CONFIG_H

#include <stdint.h>

#include "tflaccel/status.h"

typedef struct config_option {
  char *key;
  char *value;
} config_option;

typedef struct config_plugin {
  char *name;     /* from the section name [plugin.NAME] */
  char *library;  /* file name or path; default lib<NAME>.so */
  int32_t enabled;
  int32_t line;   /* where its section starts, for messages */
  config_option *options;
  uint32_t option_count;
} config_plugin;

/* The cost model of the partitioner (README, "The partitioner's cost model"). */
typedef struct config_cost_model {
  double transfer_us_per_mib;  /* moving 1 MiB between host and a device */
  double dispatch_overhead_us; /* fixed cost of one partition on a device */
  double cpu_macs_per_us;      /* cpu_ref's speed, to estimate what a partition saves */
  double accelerator_speedup;  /* assumed when a plugin gives no relative cost */
} config_cost_model;

typedef struct tflaccel_config {
  char *path;          /* the file read, NULL for the built-in defaults */
  char *accelerators;  /* preference order as written */
  int32_t precision;   /* tflaccel_precision */
  int32_t thread_count;
  int32_t max_delegated_partitions;
  int32_t min_partition_ops;
  int32_t require_full_delegation;
  char *plugin_dir;    /* overrides the compiled-in plugin directory, or NULL */
  char *cache_dir;     /* compiled-model cache: as written, then as resolved (NULL: off) */
  int32_t cache_enabled; /* cache = on|off (default on) */
  int32_t cache_max_mb;  /* the cache's size limit (default 256) */
  config_cost_model cost;
  config_plugin *plugins;
  uint32_t plugin_count;
} tflaccel_config;

/* Parses a file. Errors name the file and line: "FILE:LINE: message". */
tflaccel_status config_load_file(const char *path, tflaccel_config **config);
/* Parses text as if it were the file `origin` (used by tests and load_file). */
tflaccel_status config_load_string(const char *text, const char *origin,
                                   tflaccel_config **config);
/* The built-in configuration used when no file exists: the four plugins. */
tflaccel_status config_load_defaults(tflaccel_config **config);
void config_destroy(tflaccel_config *config);
/* Sets one [tflaccel] key as a file line would, checked the same way (an API
 * option overriding the file); errors start with origin. */
tflaccel_status config_set_global(tflaccel_config *config, const char *key, const char *value,
                                  const char *origin);

/* Sets option key = value of every configured plugin, as a line in each
 * [plugin.NAME] section would (an API option overriding the file). */
tflaccel_status config_set_plugin_option(tflaccel_config *config, const char *key,
                                         const char *value, const char *origin);

/* Finds the file to read: $TFLACCEL_CONFIG (must exist), then
 * $XDG_CONFIG_HOME or ~/.config/tflaccel/tflaccel.ini, then
 * system_dir/tflaccel.ini. *path is NULL when none exists (not an error);
 * the caller frees it. */
tflaccel_status config_find_file(const char *system_dir, char **path);

const config_plugin *config_find_plugin(const tflaccel_config *config, const char *name);
const char *config_plugin_option(const config_plugin *plugin, const char *key);

#endif
