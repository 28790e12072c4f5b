/* Native sync objects (tflaccel_native_event) as every GPU backend checks
 * and names them: one name table, one check of what an application hands
 * to event_wrap. */
#ifndef TFLACCEL_GPU_COMMON_GPU_NATIVE_EVENT_H
#define TFLACCEL_GPU_COMMON_GPU_NATIVE_EVENT_H

#include <stdint.h>

#include "tflaccel/accelerator.h"

/* "cl_event", "GLsync", ...; "an unknown type" out of range. */
const char *gpu_native_event_name(int32_t type);

/* NULL when native is a struct of known size with a known type other than
 * NONE and a non-zero handle; else TFLACCEL_INVALID_ARGUMENT naming what is
 * wrong, for plugin_name's event_wrap. */
tflaccel_status gpu_native_event_check(const tflaccel_host_services *host, const char *plugin_name,
                                       const tflaccel_native_event *native);

/* TFLACCEL_UNSUPPORTED: plugin_name cannot give or take type, because
 * `missing` (an extension, or what the API lacks). */
tflaccel_status gpu_native_event_unsupported(const tflaccel_host_services *host,
                                             const char *plugin_name, int32_t type,
                                             const char *missing);

#endif
