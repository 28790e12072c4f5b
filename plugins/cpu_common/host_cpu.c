/* The host CPU as the CPU plugins' one device (host_cpu.h). */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "plugins/cpu_common/host_cpu.h"

/* Copies the value of the first "key : value" line of /proc/cpuinfo whose
 * key is `key` into value; returns 0 when absent. */
static int cpuinfo_value(const char *key, char *value, size_t value_size) {
  FILE *file = fopen("/proc/cpuinfo", "r");
  if (file == NULL) return 0;
  char line[512];
  size_t key_length = strlen(key);
  int found = 0;
  while (!found && fgets(line, sizeof line, file) != NULL) {
    if (strncmp(line, key, key_length) != 0) continue;
    const char *rest = line + key_length;
    while (*rest == ' ' || *rest == '\t') rest++;
    if (*rest != ':') continue;
    rest++;
    while (*rest == ' ' || *rest == '\t') rest++;
    size_t length = strcspn(rest, "\n");
    if (length == 0) continue;
    if (length >= value_size) length = value_size - 1;
    memcpy(value, rest, length);
    value[length] = '\0';
    found = 1;
  }
  fclose(file);
  return found;
}

void host_cpu_describe(tflaccel_device_info *info) {
  memset(info, 0, sizeof *info);
  info->struct_size = sizeof *info;
  if (!cpuinfo_value("model name", info->name, sizeof info->name))
    snprintf(info->name, sizeof info->name, "CPU");
  if (!cpuinfo_value("vendor_id", info->vendor, sizeof info->vendor))
    snprintf(info->vendor, sizeof info->vendor, "unknown");
  info->type = TFLACCEL_DEVICE_CPU;
  info->caps = TFLACCEL_DEVICE_CAP_HOST_MEMORY | TFLACCEL_DEVICE_CAP_IMPORT;
  long pages = sysconf(_SC_PHYS_PAGES);
  long page_size = sysconf(_SC_PAGESIZE);
  info->memory_bytes = pages > 0 && page_size > 0 ? (uint64_t)pages * (uint64_t)page_size : 0;
}

tflaccel_status host_cpu_threads_option(const tflaccel_host_services *host, const char *plugin,
                                        int32_t *threads) {
  *threads = 0;
  const char *value = host->config_get != NULL ? host->config_get(host->context, "threads") : NULL;
  if (value == NULL) return NULL;
  char *end = NULL;
  long parsed = strtol(value, &end, 10);
  if (end == value || *end != '\0' || parsed < 1 || parsed > 256)
    return host->status_make(TFLACCEL_INVALID_CONFIG,
                             "%s: option threads = '%s' is not an integer from 1 to 256", plugin,
                             value);
  *threads = (int32_t)parsed;
  return NULL;
}

tflaccel_status host_cpu_device_info(const tflaccel_host_services *host, const char *plugin,
                                     const tflaccel_device_info *described, uint32_t index,
                                     tflaccel_device_info *info) {
  if (index != 0)
    return host->status_make(TFLACCEL_INVALID_ARGUMENT, "%s has one device; there is no device %u",
                             plugin, index);
  uint32_t size = info->struct_size;
  if (size == 0 || size > sizeof *info) size = sizeof *info;
  memcpy(info, described, size);
  info->struct_size = size;
  return NULL;
}
