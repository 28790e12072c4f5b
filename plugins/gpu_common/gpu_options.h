/* Plugin options every GPU plugin reads the same way. */
#ifndef TFLACCEL_GPU_COMMON_GPU_OPTIONS_H
#define TFLACCEL_GPU_COMMON_GPU_OPTIONS_H

#include <stdint.h>

#include "tflaccel/accelerator.h"

/* The plugin option "device": *index is -1 when it is absent, else a device
 * index below device_count. api names the devices in messages ("OpenCL"). */
tflaccel_status gpu_option_device(const tflaccel_host_services *host, const char *plugin,
                                  const char *api, uint32_t device_count, int32_t *index);

/* The plugin option "profile": *enabled is 1 for "1", 0 for "0" or when it
 * is absent; any other value is TFLACCEL_INVALID_CONFIG naming the option. */
tflaccel_status gpu_option_profile(const tflaccel_host_services *host, const char *plugin,
                                   int32_t *enabled);

#endif
