#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "plugins/gpu_common/gpu_options.h"

tflaccel_status gpu_option_device(const tflaccel_host_services *host, const char *plugin,
                                  const char *api, uint32_t device_count, int32_t *index) {
  *index = -1;
  const char *text = host->config_get(host->context, "device");
  if (text == NULL) return NULL;
  char *end = NULL;
  errno = 0;
  unsigned long value = strtoul(text, &end, 10);
  if (errno != 0 || end == text || *end != '\0' || text[0] == '-')
    return host->status_make(TFLACCEL_INVALID_CONFIG, "%s option device=%s is not a device index",
                             plugin, text);
  if (value >= device_count)
    return host->status_make(TFLACCEL_INVALID_CONFIG,
                             "%s option device=%s: only %u %s device(s) found", plugin, text,
                             (unsigned)device_count, api);
  *index = (int32_t)value;
  return NULL;
}

tflaccel_status gpu_option_profile(const tflaccel_host_services *host, const char *plugin,
                                   int32_t *enabled) {
  *enabled = 0;
  const char *text = host->config_get(host->context, "profile");
  if (text == NULL || strcmp(text, "0") == 0) return NULL;
  if (strcmp(text, "1") != 0)
    return host->status_make(TFLACCEL_INVALID_CONFIG, "%s option profile=%s is not 0 or 1", plugin,
                             text);
  *enabled = 1;
  return NULL;
}
