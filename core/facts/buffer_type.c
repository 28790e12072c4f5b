/* The one table of tflaccel_buffer_type names (buffer_type.h). */
#include "config.h"

#include "core/facts/buffer_type.h"
#include "tflaccel/types.h"

static const char *const type_names[TFLACCEL_BUFFER_TYPE_COUNT] = {
    [TFLACCEL_BUFFER_HOST] = "host",     [TFLACCEL_BUFFER_OPENCL] = "OpenCL",
    [TFLACCEL_BUFFER_GL] = "GL",         [TFLACCEL_BUFFER_VULKAN] = "Vulkan",
    [TFLACCEL_BUFFER_DMABUF] = "dma-buf", [TFLACCEL_BUFFER_OPAQUE_FD] = "opaque fd"};

const char *buffer_type_name(int32_t type) {
  return type >= 0 && type < TFLACCEL_BUFFER_TYPE_COUNT && type_names[type] != NULL
             ? type_names[type]
             : "unknown";
}
