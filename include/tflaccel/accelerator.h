/* tflaccel accelerator ABI: the one contract between the core and a plugin.
 *
 * A plugin is a shared object (libcpu_ref.so, libgpu_cl.so, ...) that exports
 * exactly one symbol, TFLACCEL_ACCELERATOR_ENTRY (a function). Everything else
 * it defines is hidden. The core dlopen()s it, calls the entry with the host's
 * ABI version and gets back a static descriptor.
 *
 * Versioning
 *   - The major version is part of the entry symbol's name. An incompatible
 *     change bumps TFLACCEL_ABI_MAJOR *and* the symbol name, so an old plugin is
 *     reported as "built for ABI N" instead of crashing. The old symbol name is
 *     never reused for something else.
 *   - A compatible change bumps TFLACCEL_ABI_MINOR and only appends fields at
 *     the end of structs. Every struct that crosses the boundary starts with
 *     struct_size; a reader uses TFLACCEL_HAS_FIELD() before touching a field
 *     that a later minor added. Enum values are never renumbered.
 *   - Plain fixed-width types only: no bool, no bitfields, no size-varying enums
 *     in structs (enums are stored as int32_t).
 *
 * Ownership
 *   - Everything the core passes into a call is borrowed for that call only,
 *     except constant tensor data (tflaccel_tensor_desc.data), which stays valid
 *     until every executable compiled from it is destroyed (the core keeps the
 *     model mapped).
 *   - Every object a plugin creates has its destroy function in the same
 *     vtable; nothing is free()d across the boundary. Strings a plugin returns
 *     (names, descriptions) belong to the plugin and live as long as the object
 *     they describe (descriptor strings: as long as the library is loaded).
 *   - A non-NULL tflaccel_status returned by a plugin is made with the host's
 *     status_make service and is owned by the caller, which frees it.
 *   - Teardown order: executables -> buffers and events -> devices -> shutdown.
 *     Work an execute queued (ABI 1.2) may still run at a destroy: the
 *     plugin waits for it or defers the release (OpenCL and GL do).
 *     The core never dlclose()s a plugin after a successful init: drivers start
 *     threads and register exit handlers.
 *
 * Threading
 *   - device_count(), device_info() and supports_op() are pure and may be
 *     called from any thread at any time.
 *   - All other calls on one device are externally synchronized by the core
 *     (never two at once on the same device), from any thread, except
 *     event_wait, event_query, event_native and event_destroy (ABI 1.2),
 *     which may come from any thread at any time. A plugin whose API binds
 *     state to a thread (OpenGL) must route its calls itself.
 */
#ifndef TFLACCEL_ACCELERATOR_H
#define TFLACCEL_ACCELERATOR_H

#include <stddef.h>
#include <stdint.h>

#include "tflaccel/ops.h"
#include "tflaccel/status.h"
#include "tflaccel/types.h"

#ifdef __cplusplus
extern "C" {
#endif

#define TFLACCEL_ABI_MAJOR 1
#define TFLACCEL_ABI_MINOR 3
#define TFLACCEL_ABI_VERSION (((uint32_t)TFLACCEL_ABI_MAJOR << 16) | TFLACCEL_ABI_MINOR)
#define TFLACCEL_ABI_VERSION_MAJOR(v) ((uint32_t)(v) >> 16)
#define TFLACCEL_ABI_VERSION_MINOR(v) ((uint32_t)(v)&0xFFFFu)
/* The entry symbol: its name carries the major version. */
#define TFLACCEL_ACCELERATOR_ENTRY tflaccel_accelerator_entry_v1
#define TFLACCEL_ACCELERATOR_ENTRY_NAME "tflaccel_accelerator_entry_v1"

#if defined(__GNUC__)
#define TFLACCEL_PLUGIN_EXPORT __attribute__((visibility("default")))
#else
#define TFLACCEL_PLUGIN_EXPORT
#endif

/* True when the struct *s (of type T, starting with uint32_t struct_size) is
 * large enough to contain field f. */
#define TFLACCEL_HAS_FIELD(T, s, f) \
  ((s) != NULL && (s)->struct_size >= offsetof(T, f) + sizeof(((T *)0)->f))

/* ------------------------------------------------------------------------ */
/* Host services: what the core lends a plugin. A plugin links nothing of the
 * core; it calls these instead. The struct outlives the plugin's state. */

typedef enum tflaccel_log_level {
  TFLACCEL_LOG_ERROR = 0,
  TFLACCEL_LOG_WARNING = 1,
  TFLACCEL_LOG_INFO = 2,
  TFLACCEL_LOG_DEBUG = 3,
} tflaccel_log_level;

/* One activation tensor for the arena planner: it needs size bytes from the
 * start of step first_use to the end of step last_use (inclusive). */
typedef struct tflaccel_arena_request {
  uint64_t size;
  int32_t first_use, last_use;
  uint64_t offset; /* out: where it lives in the arena */
} tflaccel_arena_request;

typedef struct tflaccel_host_services {
  uint32_t struct_size;
  uint32_t abi_version; /* the host's TFLACCEL_ABI_VERSION */
  void *context;        /* pass back as the first argument of every service */

  /* Logging, filtered by the host's level (TFLACCEL_LOG). The plugin's name is
   * added by the host. */
  void (*log)(void *context, int32_t level, const char *format, ...)
      __attribute__((format(printf, 3, 4)));
  int32_t (*log_enabled)(void *context, int32_t level);

  /* Statuses: created and freed by the host (see status.h). */
  tflaccel_status (*status_make)(int32_t code, const char *format, ...)
      __attribute__((format(printf, 2, 3)));
  void (*status_free)(tflaccel_status status);
  int32_t (*status_code)(tflaccel_status status);
  const char *(*status_message)(tflaccel_status status);

  /* This plugin's option `key` from its [plugin.NAME] section of tflaccel.ini,
   * or NULL. Valid while the plugin is loaded. */
  const char *(*config_get)(void *context, const char *key);

  /* Host memory for the plugin's bookkeeping (never device memory). */
  void *(*alloc)(void *context, size_t size, size_t alignment);
  void (*free)(void *context, void *pointer);

  /* Places tensors by lifetime so that tensors alive at the same step never
   * overlap; every offset is a multiple of alignment. Writes each request's
   * offset and the arena's total size. The same planner serves the core and
   * every plugin, so their memory behaves alike. */
  tflaccel_status (*plan_arena)(tflaccel_arena_request *requests, uint32_t count,
                                uint64_t alignment, uint64_t *total_size);

  /* A directory where the plugin may keep compiled-program caches (it exists
   * and is writable), or NULL when caching is off. */
  const char *cache_dir;
} tflaccel_host_services;

/* ------------------------------------------------------------------------ */
/* The graph a plugin sees. The core owns it; it is borrowed during each call
 * (constant data: see Ownership above). Tensor and op indices are the model's
 * own, so messages and bindings use the numbers `tflaccel inspect` prints. */

enum {
  TFLACCEL_TENSOR_CONSTANT = 1u << 0,     /* data holds its value */
  TFLACCEL_TENSOR_GRAPH_INPUT = 1u << 1,
  TFLACCEL_TENSOR_GRAPH_OUTPUT = 1u << 2,
  TFLACCEL_TENSOR_VARIABLE = 1u << 3,     /* state kept across runs */
};

#define TFLACCEL_NO_TENSOR UINT32_MAX /* an absent optional op input */

typedef struct tflaccel_tensor_desc {
  uint32_t struct_size;
  int32_t dtype;       /* tflaccel_dtype */
  uint32_t rank;
  const int32_t *dims; /* rank entries, TFLite order (NHWC) */
  uint32_t flags;      /* TFLACCEL_TENSOR_* */
  const char *name;    /* never NULL (may be "") */
  tflaccel_quantization quantization;
  const void *data;    /* constant value (or initial value of a variable), else NULL */
  uint64_t data_size;  /* bytes at data */
  uint64_t byte_size;  /* element count * dtype size */
} tflaccel_tensor_desc;

typedef struct tflaccel_op_desc {
  uint32_t struct_size;
  int32_t code;    /* tflaccel_op_code; TFLACCEL_OP_CUSTOM for custom ops */
  int32_t version; /* OperatorCode.version */
  const char *custom_code; /* custom ops only, else NULL */
  const void *custom_options;
  uint32_t custom_options_size;
  const tflaccel_op_params *params; /* never NULL; zeroed for ops without options */
  uint32_t input_count, output_count, intermediate_count;
  const uint32_t *inputs;  /* tensor indices; TFLACCEL_NO_TENSOR = absent */
  const uint32_t *outputs;
  const uint32_t *intermediates; /* quantized LSTM's intermediate tensors */
} tflaccel_op_desc;

typedef struct tflaccel_graph_view {
  uint32_t struct_size;
  uint32_t tensor_count;
  const tflaccel_tensor_desc *tensors;
  uint32_t op_count;
  const tflaccel_op_desc *ops; /* in execution order */
} tflaccel_graph_view;

/* The ops one executable runs: a convex piece of the graph, in execution
 * order. inputs: tensors it reads that it does not produce and that are not
 * constants; outputs: tensors it produces that something outside reads (or
 * that are graph outputs). Bindings name exactly these tensors. */
typedef struct tflaccel_partition_desc {
  uint32_t struct_size;
  uint32_t op_count;
  const uint32_t *ops;
  uint32_t input_count;
  const uint32_t *inputs;
  uint32_t output_count;
  const uint32_t *outputs;
} tflaccel_partition_desc;

typedef struct tflaccel_compile_options {
  uint32_t struct_size;
  int32_t precision;        /* tflaccel_precision */
  int32_t thread_count;     /* CPU threads a plugin may use; >= 1 */
  /* Identifies the model for the compiled-model cache (the application's
   * token, else the SHA-256 of the model's bytes in hex); NULL when the
   * cache is off (host_services.cache_dir NULL). */
  const char *model_token;
  /* Appended in ABI 1.1: the model's file name ("" when loaded from
   * memory; NULL when the cache is off), for `tflaccel cache list`. */
  const char *model_name;
} tflaccel_compile_options;

/* ------------------------------------------------------------------------ */
/* Answers and devices. */

typedef enum tflaccel_support_level {
  TFLACCEL_SUPPORT_NO = 0,
  TFLACCEL_SUPPORT_YES = 1,
} tflaccel_support_level;

#define TFLACCEL_REASON_SIZE 256

typedef struct tflaccel_op_support {
  uint32_t struct_size;
  int32_t level;      /* tflaccel_support_level */
  float relative_cost; /* estimated cost vs cpu_ref (1.0 = same); 0 = unknown */
  char reason[TFLACCEL_REASON_SIZE]; /* when NO: why, one line, no trailing period */
  /* Appended in ABI 1.3 (write it only when TFLACCEL_HAS_FIELD says the
   * struct has it): the precision (tflaccel_precision) this op must be
   * compiled at when the requested one cannot hold its values exactly
   * (TFLACCEL_PRECISION_FP32 for an int32 op exact only in fp32), else -1
   * (the requested one); with YES and a precision, reason may say why. The
   * core fills -1 before asking and compiles such ops in partitions of
   * their own, with options of that precision. */
  int32_t precision;
} tflaccel_op_support;


/* Buffers the application already owns, handed to buffer_import(). */
typedef enum tflaccel_external_buffer_type {
  TFLACCEL_EXTERNAL_HOST_POINTER = 0, /* handle: the pointer */
  TFLACCEL_EXTERNAL_OPENCL_MEM = 1,   /* handle: cl_mem */
  TFLACCEL_EXTERNAL_GL_BUFFER = 2,    /* handle: GLuint buffer name, in the plugin's share group */
  TFLACCEL_EXTERNAL_VULKAN_BUFFER = 3,/* handle: VkBuffer created on the plugin's VkDevice */
  TFLACCEL_EXTERNAL_DMABUF_FD = 4,    /* handle: (void *)(intptr_t)fd */
  TFLACCEL_EXTERNAL_OPAQUE_FD = 5,    /* handle: an opaque fd of external memory (ABI 1.3) */
} tflaccel_external_buffer_type;

typedef struct tflaccel_device tflaccel_device;         /* plugin-owned */
typedef struct tflaccel_buffer tflaccel_buffer;         /* plugin-owned, opaque */
typedef struct tflaccel_executable tflaccel_executable; /* plugin-owned, opaque */
typedef struct tflaccel_event tflaccel_event;           /* plugin-owned, opaque */

/* Binds one partition input or output tensor to bytes of a buffer. */
typedef struct tflaccel_binding {
  uint32_t tensor;
  tflaccel_buffer *buffer;
  uint64_t offset;
  uint64_t size;
} tflaccel_binding;

/* One kernel launch of an executable and the device time it took, as
 * executable_profile reports it. */
#define TFLACCEL_NO_OP UINT32_MAX /* a launch no op asked for (a layout conversion) */

typedef struct tflaccel_kernel_time {
  uint32_t struct_size;
  const char *kernel; /* the kernel's name; lives as long as the executable */
  uint32_t first_op;  /* graph op index of the op it computes, or TFLACCEL_NO_OP */
  uint32_t op_count;  /* ops it stands for: first_op and the partition's ops after it
                         that launch nothing of their own (fused); 0 with NO_OP */
  uint64_t runs;      /* timed runs of the executable since it was compiled */
  uint64_t total_ns;  /* device time of this launch summed over those runs */
} tflaccel_kernel_time;

/* Receives one launch; time is borrowed for the call. */
typedef void (*tflaccel_kernel_time_fn)(void *context, const tflaccel_kernel_time *time);

/* The operations of one device. Members marked optional may be NULL. */
typedef struct tflaccel_device_vtable {
  uint32_t struct_size;

  void (*destroy)(tflaccel_device *device);

  /* Pure. Can this device run graph->ops[op_index]? On NO, fill reason. */
  tflaccel_status (*supports_op)(tflaccel_device *device, const tflaccel_graph_view *graph,
                                 uint32_t op_index, const tflaccel_compile_options *options,
                                 tflaccel_op_support *support);

  /* Builds what the partition needs (programs, weights in device memory).
   * The executable is reused for every run until executable_destroy. */
  tflaccel_status (*compile)(tflaccel_device *device, const tflaccel_graph_view *graph,
                             const tflaccel_partition_desc *partition,
                             const tflaccel_compile_options *options,
                             tflaccel_executable **executable);
  void (*executable_destroy)(tflaccel_device *device, tflaccel_executable *executable);

  /* Runs the partition. bindings name every partition input and output once.
   * With completion == NULL the call returns when results are in the buffers.
   * Otherwise (TFLACCEL_DEVICE_CAP_ASYNC devices) it may return at once and
   * hand back an event the caller waits on and destroys (NULL: the work
   * finished already). */
  tflaccel_status (*execute)(tflaccel_device *device, tflaccel_executable *executable,
                             const tflaccel_binding *bindings, uint32_t binding_count,
                             tflaccel_event **completion);

  /* Device buffers. Contents of a new buffer are undefined. */
  tflaccel_status (*buffer_create)(tflaccel_device *device, uint64_t size,
                                   tflaccel_buffer **buffer);
  void (*buffer_destroy)(tflaccel_device *device, tflaccel_buffer *buffer);
  /* Blocking copies between host memory and a buffer. */
  tflaccel_status (*buffer_write)(tflaccel_device *device, tflaccel_buffer *buffer,
                                  uint64_t offset, const void *source, uint64_t size);
  tflaccel_status (*buffer_read)(tflaccel_device *device, tflaccel_buffer *buffer,
                                 uint64_t offset, void *destination, uint64_t size);

  /* Optional (TFLACCEL_DEVICE_CAP_HOST_MEMORY): the buffer's host address. */
  void *(*buffer_map)(tflaccel_device *device, tflaccel_buffer *buffer);
  /* Optional: wraps memory the application owns; the application keeps it
   * alive until buffer_destroy. Returns TFLACCEL_UNSUPPORTED for types the
   * device cannot take. */
  tflaccel_status (*buffer_import)(tflaccel_device *device, int32_t type, void *handle,
                                   uint64_t size, tflaccel_buffer **buffer);
  /* Optional: device-side copy between two buffers of this device. */
  tflaccel_status (*buffer_copy)(tflaccel_device *device, tflaccel_buffer *destination,
                                 uint64_t destination_offset, tflaccel_buffer *source,
                                 uint64_t source_offset, uint64_t size);

  /* Optional (TFLACCEL_DEVICE_CAP_ASYNC): events and a full barrier. */
  tflaccel_status (*event_wait)(tflaccel_device *device, tflaccel_event *event);
  void (*event_destroy)(tflaccel_device *device, tflaccel_event *event);
  tflaccel_status (*synchronize)(tflaccel_device *device);

  /* Optional: restores variable (state) tensors of the executable to their
   * initial values. Required when the plugin accepts ops with variables. */
  tflaccel_status (*reset_state)(tflaccel_device *device, tflaccel_executable *executable);

  /* Optional (appended in ABI 1.1): calls report once per kernel launch of
   * the executable, in launch order, with the device times of its runs
   * since compile (counters only grow: a caller wanting an interval
   * subtracts two readings). A device times kernels when its plugin option
   * `profile` is 1, the switch every plugin that can time kernels reads
   * (the core sets it for tflaccel_environment_options.profile_kernels);
   * otherwise it reports nothing and returns NULL. */
  tflaccel_status (*executable_profile)(tflaccel_device *device, tflaccel_executable *executable,
                                        tflaccel_kernel_time_fn report, void *context);

  /* Also appended in ABI 1.1 (check with TFLACCEL_HAS_FIELD); all optional.
   * Device buffers handed to the application (tflaccel.h). */
  /* The native object behind a buffer of this device (offset 0, size: the
   * buffer's bytes); valid until buffer_destroy. */
  tflaccel_status (*buffer_native)(tflaccel_device *device, tflaccel_buffer *buffer,
                                   tflaccel_native_buffer *native);
  /* The device's API objects (tflaccel_native_device), owned by the device. */
  tflaccel_status (*device_native)(tflaccel_device *device, tflaccel_native_device *native);
  /* Wraps an application's native object (type, handle, memory) as a buffer
   * of at least native->offset + native->size bytes, after checking that it
   * belongs to this device and holds them; the application keeps it alive
   * until buffer_destroy. A type the device cannot take, or one whose
   * extension the driver lacks: TFLACCEL_UNSUPPORTED naming what is missing. */
  tflaccel_status (*buffer_wrap)(tflaccel_device *device, const tflaccel_native_buffer *native,
                                 tflaccel_buffer **buffer);

  /* Appended in ABI 1.2 (check with TFLACCEL_HAS_FIELD); all optional, all
   * or none. Asynchronous runs with native sync objects.
   *
   * execute_after is execute that first waits, on the device, for events
   * of this device (made by execute/execute_after or event_wrap) before
   * it reads its inputs or writes its outputs; the caller does not wait
   * on the CPU. The waits are borrowed. With completion != NULL it
   * returns once the work is queued and sets *completion to an event
   * signalled when the outputs are written (NULL when the work finished
   * already), which the caller waits on and destroys with event_destroy;
   * with completion NULL it returns when the outputs are written. Later
   * calls on the device that touch the outputs (buffer_read, another
   * execute) are ordered after the work by the plugin.
   *
   * Events: event_wait blocks until signalled (an error: the work failed,
   * e.g. TFLACCEL_DEVICE_LOST); event_query sets *signalled to 1 or 0
   * without blocking. Unlike the other calls, event_wait, event_query,
   * event_native and event_destroy may be called from any thread while
   * other calls on the device go on (the core waits on one thread while it
   * queues the next run on another): the plugin makes them safe.
   *
   * event_native exports the native object behind an event as type (a
   * tflaccel_native_event_type; NONE: the event's own kind). The object
   * belongs to the event and lives until event_destroy (a sync_file fd
   * too: dup() it to keep it), except an OPAQUE_FD: a new fd the caller
   * owns. A type the device cannot give, or whose
   * extension the driver lacks: TFLACCEL_UNSUPPORTED naming it.
   *
   * event_wrap makes an event of an application's native object after
   * checking, where the API allows, that it belongs to this device
   * (cl_event: its CL_EVENT_CONTEXT). What it keeps: a cl_event is
   * retained and a sync_file or opaque fd dup()ed (the application keeps
   * its own); a GLsync, EGLSyncKHR, VkFence or VkSemaphore is borrowed: the
   * application keeps it alive until event_destroy. An unknown type, a
   * NULL handle or another context's object: TFLACCEL_INVALID_ARGUMENT; a
   * type the device lacks: TFLACCEL_UNSUPPORTED naming the extension. */
  tflaccel_status (*execute_after)(tflaccel_device *device, tflaccel_executable *executable,
                                   const tflaccel_binding *bindings, uint32_t binding_count,
                                   tflaccel_event *const *waits, uint32_t wait_count,
                                   tflaccel_event **completion);
  tflaccel_status (*event_query)(tflaccel_device *device, tflaccel_event *event,
                                 int32_t *signalled);
  tflaccel_status (*event_native)(tflaccel_device *device, tflaccel_event *event, int32_t type,
                                  tflaccel_native_event *native);
  tflaccel_status (*event_wrap)(tflaccel_device *device, const tflaccel_native_event *native,
                                tflaccel_event **event);

  /* Appended in ABI 1.3 (check with TFLACCEL_HAS_FIELD); optional, both
   * or none. Memory shared with other APIs through external memory fds.
   *
   * buffer_wrap_types: the buffer types beyond the device's own that
   * buffer_wrap takes, as a mask of (1u << tflaccel_buffer_type):
   * TFLACCEL_BUFFER_OPAQUE_FD where the driver imports opaque fds,
   * TFLACCEL_BUFFER_DMABUF where it imports dma-bufs. Pure: no API call.
   * buffer_wrap of an OPAQUE_FD dup()s the fd (the application keeps and
   * closes its own); memory is the byte size of the exported allocation,
   * which must hold offset + size. A wrapped fd of a type not in the mask:
   * TFLACCEL_UNSUPPORTED naming the missing extension.
   *
   * buffer_export: the native object of type for a buffer made by
   * buffer_create: TFLACCEL_BUFFER_OPAQUE_FD is a new fd the caller owns,
   * memory the allocation's byte size, offset 0, size the buffer's bytes.
   * From then on host copies into the buffer (buffer_write) reach the
   * exported memory before they return, and host reads (buffer_read) read
   * it, so an importer sees them. A type the device cannot give, or whose
   * extension the driver lacks: TFLACCEL_UNSUPPORTED naming it. */
  uint32_t (*buffer_wrap_types)(tflaccel_device *device);
  tflaccel_status (*buffer_export)(tflaccel_device *device, tflaccel_buffer *buffer, int32_t type,
                                   tflaccel_native_buffer *native);
} tflaccel_device_vtable;

/* A plugin's device struct starts with this. */
struct tflaccel_device {
  const tflaccel_device_vtable *vtable;
};

/* ------------------------------------------------------------------------ */
/* The plugin descriptor, returned by the entry point; static storage. */

typedef struct tflaccel_accelerator_plugin {
  uint32_t struct_size;
  uint32_t abi_version; /* TFLACCEL_ABI_VERSION the plugin was built with */
  const char *name;     /* "cpu_ref", "gpu_cl", ...: must equal its ini name */
  const char *version;  /* the plugin's own version string */
  const char *description;

  /* Opens the API, finds devices. On failure the plugin is listed as
   * unavailable with the status message as the reason; a plugin that loads
   * but finds no device returns TFLACCEL_UNAVAILABLE. host outlives state. */
  tflaccel_status (*init)(const tflaccel_host_services *host, void **state);
  void (*shutdown)(void *state);

  uint32_t (*device_count)(void *state);
  /* Pure: describes device `index` without creating it. */
  tflaccel_status (*device_info)(void *state, uint32_t index, tflaccel_device_info *info);
  tflaccel_status (*device_create)(void *state, uint32_t index, tflaccel_device **device);
} tflaccel_accelerator_plugin;

typedef const tflaccel_accelerator_plugin *(*tflaccel_accelerator_entry_fn)(
    uint32_t host_abi_version);

/* The one symbol a plugin exports. It returns NULL when it cannot serve a host
 * of that ABI version (the core then reports the mismatch). */
TFLACCEL_PLUGIN_EXPORT const tflaccel_accelerator_plugin *TFLACCEL_ACCELERATOR_ENTRY(
    uint32_t host_abi_version);

#ifdef __cplusplus
}
#endif
#endif /* TFLACCEL_ACCELERATOR_H */
