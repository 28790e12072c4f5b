/* Host services: logging, statuses, options, memory and arena planning, as
 * plain function pointers so that a plugin links nothing of the core. */
#include "config.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "core/log/log.h"
#include "core/memory/arena_planner.h"
#include "core/registry/host_services.h"

static void service_log(void *context, int32_t level, const char *format, ...) {
  const host_plugin_context *plugin = context;
  va_list args;
  va_start(args, format);
  log_write_v(plugin->log_level, level, plugin->plugin_name, format, args);
  va_end(args);
}

static int32_t service_log_enabled(void *context, int32_t level) {
  const host_plugin_context *plugin = context;
  return level <= plugin->log_level;
}

static tflaccel_status service_status_make(int32_t code, const char *format, ...) {
  va_list args;
  va_start(args, format);
  tflaccel_status status = tflaccel_status_make_v((tflaccel_status_code)code, format, args);
  va_end(args);
  return status;
}

static void service_status_free(tflaccel_status status) { tflaccel_status_free(status); }

static int32_t service_status_code(tflaccel_status status) {
  return (int32_t)tflaccel_status_code_of(status);
}

static const char *service_status_message(tflaccel_status status) {
  return tflaccel_status_message(status);
}

static const char *service_config_get(void *context, const char *key) {
  const host_plugin_context *plugin = context;
  if (plugin->option_lookup == NULL || key == NULL) return NULL;
  return plugin->option_lookup(plugin->options, key);
}

static void *service_alloc(void *context, size_t size, size_t alignment) {
  (void)context;
  if (alignment < sizeof(void *)) alignment = sizeof(void *);
  if ((alignment & (alignment - 1)) != 0) return NULL;
  if (size == 0) size = 1;
  void *pointer = NULL;
  if (posix_memalign(&pointer, alignment, size) != 0) return NULL;
  return pointer;
}

static void service_free(void *context, void *pointer) {
  (void)context;
  free(pointer);
}

void host_services_fill(tflaccel_host_services *services, host_plugin_context *context,
                        const char *cache_dir) {
  memset(services, 0, sizeof *services);
  services->struct_size = sizeof *services;
  services->abi_version = TFLACCEL_ABI_VERSION;
  services->context = context;
  services->log = service_log;
  services->log_enabled = service_log_enabled;
  services->status_make = service_status_make;
  services->status_free = service_status_free;
  services->status_code = service_status_code;
  services->status_message = service_status_message;
  services->config_get = service_config_get;
  services->alloc = service_alloc;
  services->free = service_free;
  services->plan_arena = arena_plan;
  services->cache_dir = cache_dir;
}
