/* Names of tflaccel_buffer_type values (facts library), as messages and
 * the CLI print them: "host", "OpenCL", "GL", "Vulkan", "dma-buf",
 * "opaque fd". */
#ifndef TFLACCEL_CORE_FACTS_BUFFER_TYPE_H
#define TFLACCEL_CORE_FACTS_BUFFER_TYPE_H

#include <stdint.h>

/* The type's name; "unknown" for a value outside tflaccel_buffer_type. */
const char *buffer_type_name(int32_t type);

#endif
