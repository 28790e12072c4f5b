/* Types shared by the public API (tflaccel.h) and the accelerator ABI
 * (accelerator.h): element types, quantization, precision, device facts.
 * Applications get them without the plugin ABI. The ABI's rules apply to
 * them (fixed-width fields, append only, enum values never renumbered). */
#ifndef TFLACCEL_TYPES_H
#define TFLACCEL_TYPES_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The values are TFLite's TensorType values, so a dtype read from a model file
 * needs no translation. Never renumbered. */
typedef enum tflaccel_dtype {
  TFLACCEL_DTYPE_FLOAT32 = 0,
  TFLACCEL_DTYPE_FLOAT16 = 1,
  TFLACCEL_DTYPE_INT32 = 2,
  TFLACCEL_DTYPE_UINT8 = 3,
  TFLACCEL_DTYPE_INT64 = 4,
  TFLACCEL_DTYPE_STRING = 5,
  TFLACCEL_DTYPE_BOOL = 6,
  TFLACCEL_DTYPE_INT16 = 7,
  TFLACCEL_DTYPE_COMPLEX64 = 8,
  TFLACCEL_DTYPE_INT8 = 9,
  TFLACCEL_DTYPE_FLOAT64 = 10,
  TFLACCEL_DTYPE_COMPLEX128 = 11,
  TFLACCEL_DTYPE_UINT64 = 12,
  TFLACCEL_DTYPE_RESOURCE = 13,
  TFLACCEL_DTYPE_VARIANT = 14,
  TFLACCEL_DTYPE_UINT32 = 15,
  TFLACCEL_DTYPE_UINT16 = 16,
  TFLACCEL_DTYPE_INT4 = 17,
  TFLACCEL_DTYPE_BFLOAT16 = 18,
} tflaccel_dtype;

#define TFLACCEL_DTYPE_COUNT 19

typedef struct tflaccel_quantization {
  uint32_t count;              /* 0: not quantized; 1: per tensor; >1: per axis */
  const float *scales;         /* count entries */
  const int32_t *zero_points;  /* count entries */
  int32_t quantized_dimension; /* the axis of per-axis quantization */
} tflaccel_quantization;

typedef enum tflaccel_precision {
  TFLACCEL_PRECISION_FP32 = 0, /* compute and store in float32 */
  TFLACCEL_PRECISION_FP16 = 1, /* float16 allowed for storage and arithmetic */
} tflaccel_precision;

typedef enum tflaccel_device_type {
  TFLACCEL_DEVICE_CPU = 0,
  TFLACCEL_DEVICE_INTEGRATED_GPU = 1,
  TFLACCEL_DEVICE_DISCRETE_GPU = 2,
  TFLACCEL_DEVICE_VIRTUAL_GPU = 3, /* software rasterizers: llvmpipe, lavapipe */
  TFLACCEL_DEVICE_OTHER = 4,
} tflaccel_device_type;

enum {
  TFLACCEL_DEVICE_CAP_FP16_STORAGE = 1u << 0,
  TFLACCEL_DEVICE_CAP_FP16_ARITHMETIC = 1u << 1,
  TFLACCEL_DEVICE_CAP_HOST_MEMORY = 1u << 2, /* buffers are host memory: buffer_map works */
  TFLACCEL_DEVICE_CAP_ASYNC = 1u << 3,       /* execute() may return before completion */
  TFLACCEL_DEVICE_CAP_IMPORT = 1u << 4,      /* buffer_import() accepts some handle type */
};

#define TFLACCEL_DEVICE_STRING_SIZE 128

typedef struct tflaccel_device_info {
  uint32_t struct_size;
  char name[TFLACCEL_DEVICE_STRING_SIZE];
  char vendor[TFLACCEL_DEVICE_STRING_SIZE];
  char driver_version[TFLACCEL_DEVICE_STRING_SIZE];
  char api_version[TFLACCEL_DEVICE_STRING_SIZE]; /* e.g. "OpenCL 3.0", "Vulkan 1.3.230" */
  int32_t type;  /* tflaccel_device_type */
  uint32_t caps; /* TFLACCEL_DEVICE_CAP_* */
  uint64_t memory_bytes; /* 0 = unknown */
} tflaccel_device_info;

/* Where a tensor buffer's bytes live (tflaccel.h's device buffers). The
 * values equal the ABI's tflaccel_external_buffer_type. */
typedef enum tflaccel_buffer_type {
  TFLACCEL_BUFFER_HOST = 0,   /* host memory */
  TFLACCEL_BUFFER_OPENCL = 1, /* an OpenCL cl_mem */
  TFLACCEL_BUFFER_GL = 2,     /* a GL buffer object name (GLES 3.1 SSBO) */
  TFLACCEL_BUFFER_VULKAN = 3, /* a VkBuffer (with its VkDeviceMemory) */
  TFLACCEL_BUFFER_DMABUF = 4, /* a Linux dma-buf file descriptor */
  TFLACCEL_BUFFER_OPAQUE_FD = 5, /* an opaque fd of external memory (VK_KHR_external_memory_fd
                                    OPAQUE_FD; GL_EXT_memory_object_fd and
                                    cl_khr_external_memory_opaque_fd import it) */
} tflaccel_buffer_type;

#define TFLACCEL_BUFFER_TYPE_COUNT 6

/* A native buffer: what an application hands in to wrap its own memory and
 * what a device buffer gives back. Handles are stored as integers so that
 * no API header is needed: cl_mem (a pointer), GLuint, VkBuffer (a
 * non-dispatchable handle, 64 bits everywhere), a dma-buf fd. */
typedef struct tflaccel_native_buffer {
  uint32_t struct_size;
  int32_t type;     /* tflaccel_buffer_type */
  uint64_t handle;  /* cl_mem; GLuint; VkBuffer; fd */
  uint64_t memory;  /* Vulkan: the VkDeviceMemory bound to the VkBuffer (0 when unknown);
                       opaque fd: the byte size of the exported allocation */
  uint64_t offset;  /* where the tensor's bytes start in the object */
  uint64_t size;    /* bytes of the tensor from offset */
} tflaccel_native_buffer;

/* The API objects of an accelerator's device, so that an application can
 * create compatible ones (a cl_mem in the same cl_context, a GL buffer on an
 * EGL context sharing with the accelerator's, a VkBuffer on its VkDevice).
 * Members of other APIs are NULL / 0. Owned by the accelerator. */
typedef struct tflaccel_native_device {
  uint32_t struct_size;
  int32_t type;                /* tflaccel_buffer_type of its buffers */
  uint64_t offset_alignment;   /* offsets of wrapped buffers: a multiple of this */
  void *cl_platform, *cl_device, *cl_context, *cl_queue;
  void *vk_instance, *vk_physical_device, *vk_device;
  uint32_t vk_queue_family;
  uint32_t reserved;
  void *egl_display, *egl_context;
  /* Appended with external memory (ABI 1.3): the physical device and the
   * driver as the API names them (VkPhysicalDeviceIDProperties,
   * GL_EXT_memory_object's GL_DEVICE_UUID_EXT / GL_DRIVER_UUID_EXT,
   * cl_khr_device_uuid); all zero when the API does not say. An opaque fd
   * imports only on the exporter's device (equal device UUIDs); Vulkan and
   * GL also want equal driver UUIDs, while an OpenCL driver names itself
   * (NVIDIA's CL_DRIVER_UUID_KHR differs from its Vulkan driverUUID). */
  uint8_t device_uuid[16];
  uint8_t driver_uuid[16];
} tflaccel_native_device;

/* A native synchronization object: what an event of a device exports and
 * what an application hands in to wrap its own (tflaccel.h's events, the
 * ABI's event_native and event_wrap). Handles are integers, as buffers'. */
typedef enum tflaccel_native_event_type {
  TFLACCEL_NATIVE_EVENT_NONE = 0,             /* a core event: no native object */
  TFLACCEL_NATIVE_EVENT_OPENCL = 1,           /* handle: cl_event */
  TFLACCEL_NATIVE_EVENT_GL_SYNC = 2,          /* handle: GLsync (GL fence sync) */
  TFLACCEL_NATIVE_EVENT_EGL_SYNC = 3,         /* handle: EGLSyncKHR (EGL_KHR_fence_sync) */
  TFLACCEL_NATIVE_EVENT_VULKAN_FENCE = 4,     /* handle: VkFence */
  TFLACCEL_NATIVE_EVENT_VULKAN_SEMAPHORE = 5, /* handle: VkSemaphore; value: its timeline
                                                 value, 0 for a binary semaphore */
  TFLACCEL_NATIVE_EVENT_SYNC_FILE_FD = 6,     /* handle: a Linux sync_file fd */
  TFLACCEL_NATIVE_EVENT_OPAQUE_FD = 7,        /* handle: an opaque fd of an external semaphore
                                                 (VK_KHR_external_semaphore_fd OPAQUE_FD;
                                                 GL_EXT_semaphore_fd and
                                                 cl_khr_external_semaphore_opaque_fd import
                                                 it); value: its timeline value, 0 binary */
} tflaccel_native_event_type;

#define TFLACCEL_NATIVE_EVENT_TYPE_COUNT 8

typedef struct tflaccel_native_event {
  uint32_t struct_size;
  int32_t type;    /* tflaccel_native_event_type */
  uint64_t handle; /* see the type */
  uint64_t value;  /* timeline semaphores only, else 0 */
} tflaccel_native_event;

#ifdef __cplusplus
}
#endif
#endif /* TFLACCEL_TYPES_H */
