/* The plugin registry of one environment: which plugins the config names,
 * where their libraries are, whether each loaded and why not. */
#ifndef TFLACCEL_CORE_REGISTRY_REGISTRY_H
#define TFLACCEL_CORE_REGISTRY_REGISTRY_H

#include <pthread.h>
#include <stdint.h>

#include "core/config/ini_config.h"
#include "core/registry/host_services.h"
#include "tflaccel/accelerator.h"

typedef enum plugin_load_state {
  PLUGIN_NOT_LOADED = 0, /* not tried yet (loading is lazy) */
  PLUGIN_AVAILABLE = 1,
  PLUGIN_UNAVAILABLE = 2,
  PLUGIN_DISABLED = 3,   /* enabled = false in the config */
  PLUGIN_NOT_INSTALLED = 4, /* its library is in none of the search dirs (or its path is absent) */
} plugin_load_state;

typedef struct plugin_entry {
  const config_plugin *config; /* borrowed from the registry's config */
  char *library_path;          /* resolved, or NULL when not found */
  plugin_load_state state;
  char *reason;                /* why unavailable/disabled */
  uint32_t abi_version;        /* the plugin's, 0 when unknown */
  void *library;               /* dlopen handle, kept for the process */
  const tflaccel_accelerator_plugin *descriptor;
  void *plugin_state;
  uint32_t device_count;
  host_plugin_context host_context;
  tflaccel_host_services host;
  tflaccel_device *device;     /* the device in use, created on first use */
  uint32_t device_index;
  /* Threads may race to load the plugin and create its device (both lazy):
   * load_lock guards state, descriptor, plugin_state and device. */
  pthread_mutex_t load_lock;
  /* The ABI promises a plugin that calls on one device never overlap, while
   * different compiled models may run from different threads: every call
   * into `device` is made holding device_lock (registry_device_lock). */
  pthread_mutex_t device_lock;
} plugin_entry;

typedef struct plugin_registry {
  const tflaccel_config *config; /* borrowed */
  int32_t log_level;
  char **search_dirs;            /* where relative library names are looked up */
  uint32_t search_dir_count;
  plugin_entry *entries;
  uint32_t entry_count;
} plugin_registry;

/* Search order for relative library names: $TFLACCEL_PLUGIN_PATH
 * (colon-separated), the build tree's plugins when this libtflaccel runs
 * uninstalled, then the config's plugin_dir or the installed plugin dir. */
tflaccel_status registry_create(const tflaccel_config *config, int32_t log_level,
                                plugin_registry **registry);
void registry_destroy(plugin_registry *registry);

/* Loads (dlopen, entry, validate, init) once; a failure makes the entry
 * unavailable with a reason, which is not an error of this call. */
void registry_load(plugin_registry *registry, plugin_entry *entry);
plugin_entry *registry_find(plugin_registry *registry, const char *name);

/* The device of an available plugin (created on first use, index from the
 * plugin's "device" option). */
tflaccel_status registry_device(plugin_entry *entry, tflaccel_device **device);

/* Serialize the calls into an entry's device, as the ABI promises plugins:
 * hold the lock around every device vtable call (or run of calls). */
void registry_device_lock(plugin_entry *entry);
void registry_device_unlock(plugin_entry *entry);

/* True when this libtflaccel is the build tree's, running uninstalled. */
int registry_running_uninstalled(void);

/* Validates a descriptor against this host; fills reason on failure.
 * Exposed for tests. */
int registry_validate_descriptor(const tflaccel_accelerator_plugin *descriptor,
                                 const char *expected_name, char *reason, size_t reason_size);

#endif
