/* What the GPU layer needs from a graphics/compute API: buffers, kernels
 * from the catalogue (gpu_kernel_catalog.h), and a compiled partition's
 * whole dispatch sequence, handed over once and then run as often as asked.
 * gpu_cl implements it with OpenCL, gpu_vk with Vulkan, gpu_gl with GLES
 * compute. No API type crosses this interface: buffers are the plugin's own
 * tflaccel_buffer objects, kernels and sequences are opaque. */
#ifndef TFLACCEL_GPU_COMMON_GPU_BACKEND_H
#define TFLACCEL_GPU_COMMON_GPU_BACKEND_H

#include <stdint.h>

#include "plugins/gpu_common/gpu_disk_cache.h"
#include "plugins/gpu_common/gpu_program.h"
#include "tflaccel/accelerator.h"

typedef struct gpu_kernel_object gpu_kernel_object; /* backend-owned */
typedef struct gpu_sequence gpu_sequence;           /* backend-owned */

/* One dispatch of a compiled partition, as a backend receives it. */
typedef struct gpu_step {
  gpu_kernel_object *kernel;
  uint32_t global[3];
  uint32_t local[3]; /* preferred; the backend fits it to the device */
  /* 1: this dispatch reads or writes bytes that an earlier one wrote (or
   * writes bytes one read) since the last barrier, so it must wait for
   * every earlier dispatch (gpu_hazard_plan's barrier plan). Backends whose
   * queue runs in order (OpenCL) ignore it. */
  int32_t barrier_before;
  /* The dispatch's post-op list (gpu_post_list; 0 where
   * gpu_kernel_specializes_posts says not to): a backend may build the
   * kernel for it (gpu_vk: a specialization constant) or ignore it. */
  uint32_t post_list;
  /* The grid values the kernel reads beside its parameter offset when
   * post_list names a grid (gpu_pushed_grid_values); backends building
   * no kernel for post_list ignore them. */
  int32_t grid_values[GPU_GRID_VALUE_COUNT];
} gpu_step;

/* What a device can do, filled once when the device is opened. */
typedef struct gpu_device_caps {
  int32_t has_half_math;     /* half arithmetic (cl_khr_fp16, shaderFloat16) */
  uint64_t buffer_alignment; /* offsets of tensors in the arena */

  /* GPU_FEATURE_* (gpu_kernel_catalog.h): the kernels and parameters beyond
   * the first catalogue that this backend implements; the GPU layer uses
   * them only when asked to here. */
  uint32_t features;

  /* 1 where each barrier between dependent dispatches costs more than a
   * fused kernel loses by summing in order instead of splitting the sums
   * (gpu_gl: NVIDIA's GLES driver spends ~7.5 us a glMemoryBarrier): the
   * GPU layer then fuses more in half storage. */
  int32_t prefers_fewer_dispatches;

  /* The most items a work group of one dimension may have on the device
   * (0: no limit known). The ordered kernels need their groups whole: the
   * GPU layer asks for no more. */
  uint32_t max_group_items;

  /* 1 when the backend times every dispatch (plugin option profile = 1):
   * then the ops' profile_read gives the times of the last run. */
  int32_t profiling;

  /* Bytes that partition binding offsets must be a multiple of (0: any
   * offset the element size divides). GLSL reaches tensors as arrays of
   * four-value vectors, so gpu_vk and gpu_gl need slices aligned: 16. */
  uint32_t binding_alignment;
} gpu_device_caps;

/* The calls, one static table per API. device is gpu_backend.device. */
typedef struct gpu_backend_ops {
  tflaccel_status (*buffer_create)(void *device, uint64_t size, tflaccel_buffer **buffer);
  void (*buffer_destroy)(void *device, tflaccel_buffer *buffer);
  /* Blocking upload of size bytes at offset 0. */
  tflaccel_status (*buffer_upload)(void *device, tflaccel_buffer *buffer, const void *data,
                                   uint64_t size);

  /* A kernel of the catalogue built for the storage mode, ready to take
   * arguments: slot 0 the parameter buffer, 1 the int offset of this
   * dispatch's parameters, 2..8 the tensor buffers t0..t6. `params` are
   * the dispatch's parameters as lowered (gpu_program_params), from which
   * a backend may pick a variant of the kernel (gpu_cl: conv2d reading
   * words); the others build per post-op list (gpu_step.post_list). */
  tflaccel_status (*kernel_create)(void *device, int32_t storage, int32_t kernel,
                                   const int32_t *params, gpu_kernel_object **object);
  void (*kernel_destroy)(void *device, gpu_kernel_object *object);
  tflaccel_status (*kernel_set_buffer)(void *device, gpu_kernel_object *object, uint32_t slot,
                                       tflaccel_buffer *buffer);
  tflaccel_status (*kernel_set_int)(void *device, gpu_kernel_object *object, uint32_t slot,
                                    int32_t value);
  /* Optional (NULL): binds only the bytes [offset, offset + size) of the
   * buffer at slot (until then, and after kernel_set_buffer, all of it), so
   * that the backend and its tools (Vulkan's synchronization validation)
   * see which bytes each dispatch touches. The kernel then finds the tensor
   * at the start of what is bound: when *narrowed is 1 the GPU layer sets
   * the argument's offset parameter to 0. *narrowed 0: the backend kept the
   * whole buffer (e.g. an offset its descriptors cannot start at). The GPU
   * layer does this for arena tensors. */
  tflaccel_status (*kernel_set_range)(void *device, gpu_kernel_object *object, uint32_t slot,
                                      uint64_t offset, uint64_t size, int32_t *narrowed);

  /* The whole dispatch list of a compiled partition, handed over once when
   * it is compiled, after its kernels are made and their buffers set: the
   * backend prepares what it can now (builds each kernel's pipeline or
   * program for its work group, so that the first run pays nothing extra;
   * steps are copied; each step's local is a preference that the backend
   * fits to the kernel's limits, rounding global up to a multiple of it;
   * kernels bound-check). */
  tflaccel_status (*sequence_create)(void *device, const gpu_step *steps, uint32_t count,
                                     gpu_sequence **sequence);
  void (*sequence_destroy)(void *device, gpu_sequence *sequence);
  /* Submits the sequence and waits until it has finished. rebound is 1
   * when a kernel of it was given another buffer since the last run (a
   * partition input or output moved): a backend that recorded its
   * kernels' buffers records again then, and only then. */
  tflaccel_status (*sequence_run)(void *device, gpu_sequence *sequence, int32_t rebound);

  /* With caps.profiling: the GPU times in microseconds of the dispatches
   * of the last sequence_run, in order (*count of them, at most capacity
   * written); a count of 0 means the backend could not trust that run's
   * times (a GL disjoint event) and the run is left out. A run that failed
   * leaves no times. gpu_vk times a dispatch from the timestamp after the
   * previous one, so the barrier before it counts with it. */
  tflaccel_status (*profile_read)(void *device, double *microseconds, uint32_t capacity,
                                  uint32_t *count);

  /* Optional (NULL: no compiled-model cache): the partition being compiled
   * has an entry (gpu_partition_cache.h). cache_begin comes before its
   * kernels are made: the backend adds its device and driver to key,
   * reads and verifies the entry, and makes the partition's kernels from
   * it until cache_end. cache_end comes after sequence_create (or a
   * failure: compiled 0): the backend writes the entry when it was
   * missing, unusable or incomplete, and forgets it. */
  void (*cache_begin)(void *device, gpu_disk_cache_key_builder *key, int32_t storage,
                      const tflaccel_compile_options *options);
  void (*cache_end)(void *device, int32_t compiled);

  /* Optional (sequence_submit and the event calls together, or none):
   * asynchronous runs (accelerator.h's execute_after and events). Events
   * are the backend's own tflaccel_event objects. sequence_submit is
   * sequence_run that first waits on the device for waits (events of this
   * device) and returns once the work is queued, with *done an event
   * signalled when it has finished. Later calls that touch the run's
   * buffers, and a later run of the same sequence, are ordered after it
   * by the backend. With caps.profiling the GPU layer runs sequence_run
   * instead (its times need the run finished). */
  tflaccel_status (*sequence_submit)(void *device, gpu_sequence *sequence, int32_t rebound,
                                     tflaccel_event *const *waits, uint32_t wait_count,
                                     tflaccel_event **done);
  /* May be called from any thread while other calls go on. */
  tflaccel_status (*event_wait)(void *device, tflaccel_event *event);
  tflaccel_status (*event_query)(void *device, tflaccel_event *event, int32_t *signalled);
  void (*event_destroy)(void *device, tflaccel_event *event);
  tflaccel_status (*event_native)(void *device, tflaccel_event *event, int32_t type,
                                  tflaccel_native_event *native);
  /* Checks and wraps the application's object (accelerator.h's event_wrap). */
  tflaccel_status (*event_wrap)(void *device, const tflaccel_native_event *native,
                                tflaccel_event **event);
} gpu_backend_ops;

/* A device as the GPU layer sees it: the API's calls, its device, and what
 * it can do. Filled once when the device is opened, then read only. */
typedef struct gpu_backend {
  const gpu_backend_ops *ops;
  void *device; /* first argument of every call */
  const tflaccel_host_services *host;
  const char *plugin_name; /* for messages: "gpu_cl" */
  gpu_device_caps caps;
} gpu_backend;

#endif
