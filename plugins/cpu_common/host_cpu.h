/* What the CPU plugins (cpu_ref, cpu_xnnpack) say the same way about the
 * one device they have, the host's CPU, and the option they share. */
#ifndef TFLACCEL_CPU_COMMON_HOST_CPU_H
#define TFLACCEL_CPU_COMMON_HOST_CPU_H

#include <stdint.h>

#include "tflaccel/accelerator.h"

/* The host CPU as a device: its model name and vendor from /proc/cpuinfo
 * ("CPU" and "unknown" when absent), type CPU, host memory and imports, the
 * machine's physical memory. The caller fills driver_version and
 * api_version and adds its own caps. */
void host_cpu_describe(tflaccel_device_info *info);

/* The plugin option "threads": a whole number from 1 to 256 that replaces
 * the thread count compiled models ask for; *threads is 0 when it is absent.
 * Any other value is TFLACCEL_INVALID_CONFIG naming plugin and value. */
tflaccel_status host_cpu_threads_option(const tflaccel_host_services *host, const char *plugin,
                                        int32_t *threads);

/* device_info of a plugin with one device described by *described: copies
 * no more than the caller's struct holds (it may be of an older minor);
 * index other than 0 is TFLACCEL_INVALID_ARGUMENT. */
tflaccel_status host_cpu_device_info(const tflaccel_host_services *host, const char *plugin,
                                     const tflaccel_device_info *described, uint32_t index,
                                     tflaccel_device_info *info);

#endif
