/* The host services the core lends each plugin (tflaccel_host_services). */
#ifndef TFLACCEL_CORE_REGISTRY_HOST_SERVICES_H
#define TFLACCEL_CORE_REGISTRY_HOST_SERVICES_H

#include "tflaccel/accelerator.h"

/* What the services of one plugin need to know; owned by whoever owns the
 * plugin entry (the registry), and outlives the plugin's state. */
typedef struct host_plugin_context {
  char plugin_name[64];
  int32_t log_level;
  /* Looks up the plugin's ini option `key`; may be NULL (no options). */
  const char *(*option_lookup)(const void *options, const char *key);
  const void *options;
} host_plugin_context;

/* Fills services for one plugin; context must outlive services. cache_dir
 * may be NULL. */
void host_services_fill(tflaccel_host_services *services, host_plugin_context *context,
                        const char *cache_dir);

#endif
