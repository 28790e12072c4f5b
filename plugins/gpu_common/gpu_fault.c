/* The GPU fault hook (gpu_fault.h). */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "plugins/gpu_common/gpu_fault.h"

#define GPU_FAULT_VARIABLE "TFLACCEL_GPU_FAULT"

static const char *kind_name(gpu_fault_kind kind) {
  switch (kind) {
  case GPU_FAULT_LOST: return "lost";
  case GPU_FAULT_MEMORY: return "oom";
  case GPU_FAULT_ERROR: return "error";
  default: return "none";
  }
}

static tflaccel_status malformed(const tflaccel_host_services *host, const char *plugin,
                                 const char *value) {
  return host->status_make(TFLACCEL_INVALID_CONFIG,
                           "%s: %s=%s is not [PLUGIN:]N[:lost|oom|error] with N >= 1", plugin,
                           GPU_FAULT_VARIABLE, value);
}

tflaccel_status gpu_fault_init(gpu_fault *fault, const tflaccel_host_services *host,
                               const char *plugin) {
  *fault = (gpu_fault){.host = host, .plugin = plugin};
  const char *value = getenv(GPU_FAULT_VARIABLE);
  if (value == NULL || *value == '\0') return NULL;
  const char *at = value;
  if (*at < '0' || *at > '9') { /* a plugin's name first */
    const char *colon = strchr(at, ':');
    if (colon == NULL) return malformed(host, plugin, value);
    size_t length = (size_t)(colon - at);
    if (length != strlen(plugin) || strncmp(at, plugin, length) != 0) {
      /* Another plugin's fault; still check that the plugin name is one. */
      if (length == 0) return malformed(host, plugin, value);
      return NULL;
    }
    at = colon + 1;
  }
  if (*at < '0' || *at > '9') return malformed(host, plugin, value);
  errno = 0;
  char *end = NULL;
  unsigned long long n = strtoull(at, &end, 10);
  if (errno != 0 || n == 0) return malformed(host, plugin, value);
  gpu_fault_kind kind = GPU_FAULT_NONE;
  if (*end == ':') {
    const char *name = end + 1;
    if (strcmp(name, "lost") == 0) kind = GPU_FAULT_LOST;
    else if (strcmp(name, "oom") == 0) kind = GPU_FAULT_MEMORY;
    else if (strcmp(name, "error") == 0) kind = GPU_FAULT_ERROR;
    else return malformed(host, plugin, value);
  } else if (*end != '\0') {
    return malformed(host, plugin, value);
  }
  fault->fail_at = (uint64_t)n;
  fault->kind = kind;
  host->log(host->context, TFLACCEL_LOG_INFO, "fault hook: hooked call %llu of each device fails",
            n);
  return NULL;
}

gpu_fault_kind gpu_fault_next(gpu_fault *fault, const char *call, gpu_fault_kind usual) {
  if (fault == NULL || fault->fail_at == 0) return GPU_FAULT_NONE;
  ++fault->calls;
  if (fault->calls != fault->fail_at) {
    /* Lists the calls a sweep can fail (log level debug). */
    if (fault->host->log_enabled(fault->host->context, TFLACCEL_LOG_DEBUG))
      fault->host->log(fault->host->context, TFLACCEL_LOG_DEBUG, "fault hook: call %llu (%s)",
                       (unsigned long long)fault->calls, call);
    return GPU_FAULT_NONE;
  }
  gpu_fault_kind kind = fault->kind != GPU_FAULT_NONE ? fault->kind : usual;
  fault->host->log(fault->host->context, TFLACCEL_LOG_WARNING,
                   "fault hook: call %llu (%s) fails as %s", (unsigned long long)fault->calls,
                   call, kind_name(kind));
  return kind;
}
