/* tflaccel: run TensorFlow Lite models on whatever accelerator the machine has.
 *
 * The flow, like LiteRT's CompiledModel:
 *   environment (config, plugins)
 *     -> model (a .tflite file or bytes in memory)
 *     -> compiled model (accelerator choice, precision, threads, partitioning)
 *     -> tensor buffers for inputs and outputs -> run.
 *
 * Every call that can fail returns a tflaccel_status (NULL = success) whose
 * message is one readable line; the caller frees it with tflaccel_status_free.
 * Objects are freed by their *_destroy function; destroying NULL is a no-op.
 * A compiled model is used from one thread at a time; different compiled
 * models (of one environment or several) may be created, run and destroyed
 * concurrently. Within one environment each accelerator has one device, and
 * the core serializes the calls that reach it: runs on the same device take
 * turns, runs on different devices overlap. */
#ifndef TFLACCEL_TFLACCEL_H
#define TFLACCEL_TFLACCEL_H

#include <stddef.h>
#include <stdint.h>

#include "tflaccel/ops.h"
#include "tflaccel/status.h"
#include "tflaccel/types.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- Library ------------------------------------------------------------ */

const char *tflaccel_version(void);
/* TFLite BuiltinOperator name of an op code ("CONV_2D"), NULL if unknown. */
const char *tflaccel_op_code_name(int32_t code);
/* "float32", "int8", ...; "unknown" for values outside tflaccel_dtype. */
const char *tflaccel_dtype_name(int32_t dtype);
/* Bytes of one element, 0 for types without a fixed size (string, int4). */
size_t tflaccel_dtype_size(int32_t dtype);
/* "host", "OpenCL", "GL", "Vulkan", "dma-buf", "opaque fd" for a
 * tflaccel_buffer_type (types.h); "unknown" for other values. */
const char *tflaccel_buffer_type_name(int32_t type);

/* ---- Environment: configuration and plugins ------------------------------ */

typedef struct tflaccel_environment tflaccel_environment;

typedef struct tflaccel_environment_options {
  uint32_t struct_size;
  /* tflaccel.ini to use; NULL searches $TFLACCEL_CONFIG,
   * ~/.config/tflaccel/tflaccel.ini, then SYSCONFDIR/tflaccel/tflaccel.ini. */
  const char *config_path;
  /* Accelerators to use, in preference order ("gpu_vk,cpu_ref", or the
   * classes "gpu" and "cpu"); NULL takes $TFLACCEL_ACCELERATOR, then the
   * config's order. */
  const char *accelerators;
  /* "debug", "info", "warning" or "error"; NULL takes $TFLACCEL_LOG. */
  const char *log_level;
  /* Overrides the config's cache_dir, the compiled-model cache's directory
   * (made when its parent exists; one not private to this user turns the
   * cache off with a warning); NULL keeps the config's. */
  const char *cache_dir;
  /* 1: accelerators that can time their kernels do (every plugin's option
   * profile = 1, whatever the config says), so that
   * tflaccel_compiled_model_read_kernel_profile has figures; runs may get
   * slower. 0 (default): the config's. */
  int32_t profile_kernels;
} tflaccel_environment_options;

/* Reads the configuration and loads every configured plugin. A plugin that
 * fails to load is listed as unavailable with its reason; that is not an
 * error. A malformed config or option is. options may be NULL. */
tflaccel_status tflaccel_environment_create(const tflaccel_environment_options *options,
                                            tflaccel_environment **environment);
void tflaccel_environment_destroy(tflaccel_environment *environment);

/* The config file that was read, or NULL when none was found. */
const char *tflaccel_environment_config_path(const tflaccel_environment *environment);
/* The compiled-model cache's directory in use, or NULL when the cache is off
 * (README, "The compiled-model cache"). */
const char *tflaccel_environment_cache_dir(const tflaccel_environment *environment);

typedef struct tflaccel_plugin_info {
  uint32_t struct_size;
  const char *name;         /* "gpu_cl" */
  const char *library_path; /* resolved path, or the configured name if not found */
  const char *version;      /* plugin's version, "" when it did not load */
  const char *description;
  uint32_t abi_version;     /* what the plugin was built for; 0 when unknown */
  int32_t enabled;          /* enabled in the config */
  int32_t available;        /* loaded, initialised, has a device */
  const char *reason;       /* why it is unavailable, else NULL */
  uint32_t device_count;
  int32_t selection_rank;   /* position in the selected order, -1 = not selected */
  /* Appended in 0.1 (a caller's smaller struct_size gets the fields above): */
  int32_t not_installed;    /* 1: its library is in no plugin directory (e.g. its
                               package is not installed); a state, not an error */
} tflaccel_plugin_info;

/* Plugins are loaded lazily: info on a plugin that was not selected loads it
 * then (that is why the environment is not const here). */
uint32_t tflaccel_environment_plugin_count(const tflaccel_environment *environment);
tflaccel_status tflaccel_environment_plugin_info(tflaccel_environment *environment,
                                                 uint32_t index, tflaccel_plugin_info *info);
tflaccel_status tflaccel_environment_device_info(tflaccel_environment *environment,
                                                 uint32_t plugin_index, uint32_t device_index,
                                                 tflaccel_device_info *info);
/* The selected accelerators, comma-separated, in preference order. */
const char *tflaccel_environment_selection(const tflaccel_environment *environment);
/* With accelerators = auto: why each plugin was chosen or passed over, one
 * line each ("gpu_vk: passed over: llvmpipe ...: software renderer ..."), or
 * NULL when the selection was an explicit list. Owned by the environment. */
const char *tflaccel_environment_selection_notes(const tflaccel_environment *environment);

/* ---- Model -------------------------------------------------------------- */

typedef struct tflaccel_model tflaccel_model;

/* Maps and validates a .tflite file; any defect is reported with where it is.
 * Constant buffers are used in place. */
tflaccel_status tflaccel_model_load_file(const char *path, tflaccel_model **model);
/* Same from memory; the bytes are copied, so the caller may free them. */
tflaccel_status tflaccel_model_load_memory(const void *data, size_t size,
                                           tflaccel_model **model);
void tflaccel_model_destroy(tflaccel_model *model);

/* Introspection of the model as stored in the file (subgraph 0). */
typedef struct tflaccel_model_summary {
  uint32_t struct_size;
  uint32_t schema_version;
  uint32_t subgraph_count;
  uint32_t tensor_count;    /* tensors of subgraph 0 */
  uint32_t op_count;        /* operators of subgraph 0, before folding */
  uint32_t input_count, output_count;
  uint32_t signature_count;
  uint32_t metadata_count;
  uint64_t weight_bytes;    /* bytes of constant buffers used by subgraph 0 */
  uint64_t peak_activation_bytes; /* estimate: lifetime-planned arena of subgraph 0 */
  const char *description;  /* Model.description, "" when absent */
} tflaccel_model_summary;

tflaccel_status tflaccel_model_get_summary(const tflaccel_model *model,
                                           tflaccel_model_summary *summary);

typedef struct tflaccel_tensor_info {
  uint32_t struct_size;
  const char *name;
  int32_t dtype;
  uint32_t rank;
  const int32_t *shape;           /* the stored shape vector (rank entries) */
  uint32_t shape_signature_rank;  /* 0 when absent */
  const int32_t *shape_signature;
  tflaccel_quantization quantization;
  int32_t is_variable;
  int32_t is_constant;            /* backed by a non-empty buffer */
  int32_t is_sparse;
  uint64_t byte_size;
} tflaccel_tensor_info;

typedef struct tflaccel_op_info {
  uint32_t struct_size;
  int32_t code;              /* max(deprecated_builtin_code, builtin_code) */
  int32_t version;
  const char *name;          /* op code name, or "UNKNOWN" */
  const char *custom_code;   /* custom ops only, else NULL */
  uint32_t input_count, output_count;
  const int32_t *inputs;     /* tensor indices as stored; -1 = absent */
  const int32_t *outputs;
} tflaccel_op_info;

/* Tensors and ops of subgraph 0, as stored. */
tflaccel_status tflaccel_model_tensor_info(const tflaccel_model *model, uint32_t tensor_index,
                                           tflaccel_tensor_info *info);
tflaccel_status tflaccel_model_op_info(const tflaccel_model *model, uint32_t op_index,
                                       tflaccel_op_info *info);
/* Tensor index of input/output `index` of subgraph 0. */
tflaccel_status tflaccel_model_input_tensor(const tflaccel_model *model, uint32_t index,
                                            uint32_t *tensor_index);
tflaccel_status tflaccel_model_output_tensor(const tflaccel_model *model, uint32_t index,
                                             uint32_t *tensor_index);
/* Subgraph names ("" when unnamed), metadata and signature names. */
const char *tflaccel_model_subgraph_name(const tflaccel_model *model, uint32_t index);
const char *tflaccel_model_metadata_name(const tflaccel_model *model, uint32_t index);
const char *tflaccel_model_signature_key(const tflaccel_model *model, uint32_t index);
/* The bytes of the model's metadata entry `name` ("TFLITE_METADATA": TFLite
 * Metadata, "min_runtime_version", ...), in place in the model (valid as
 * long as it); TFLACCEL_NOT_FOUND when there is none of that name. The
 * first entry of that name counts; an empty buffer gives size 0. */
tflaccel_status tflaccel_model_metadata_buffer(const tflaccel_model *model, const char *name,
                                               const void **data, size_t *size);

/* SignatureDefs: named entry points (TFLite's signature runners). Names
 * live as long as the model. Only signatures of subgraph 0 can be run. */
typedef struct tflaccel_signature_info {
  uint32_t struct_size;
  const char *key;           /* "serving_default" */
  uint32_t subgraph_index;
  uint32_t input_count, output_count;
} tflaccel_signature_info;

tflaccel_status tflaccel_model_signature_info(const tflaccel_model *model, uint32_t index,
                                              tflaccel_signature_info *info);
/* Input (is_output 0) or output `index` of signature `signature`: its name in
 * the signature and the tensor of the signature's subgraph it maps to. */
tflaccel_status tflaccel_model_signature_tensor(const tflaccel_model *model, uint32_t signature,
                                                int32_t is_output, uint32_t index,
                                                const char **name, uint32_t *tensor_index);

/* ---- Compiled model ----------------------------------------------------- */

typedef struct tflaccel_compiled_model tflaccel_compiled_model;

typedef struct tflaccel_compilation_options {
  uint32_t struct_size;
  const char *accelerators;  /* NULL: the environment's selection */
  int32_t precision;         /* tflaccel_precision; -1: config default */
  int32_t thread_count;      /* 0: config default (1) */
  int32_t max_delegated_partitions; /* 0: no limit; -1: config default */
  int32_t min_partition_ops;        /* -1: config default */
  int32_t require_full_delegation;  /* 1: fail when any op would fall back; -1: config */
  /* 1: every op that runs on the fallback (cpu_ref) is a partition of its
   * own, so that a profile (tflaccel_compiled_model_set_profiling) times
   * each op; runs get slower. 0 (default): consecutive fallback ops share
   * a partition. */
  int32_t split_fallback_ops;
  /* The application's token for this model in the compiled-model cache
   * (as LiteRT's serialization model token): any text that changes when
   * the model does. NULL or "": the SHA-256 of the model's bytes, computed
   * once per model when the cache is on. The plugins key each partition's
   * entry by it and by everything else that decides the entry. */
  const char *model_token;
} tflaccel_compilation_options;

/* Fills options with "use the defaults" values. */
void tflaccel_compilation_options_init(tflaccel_compilation_options *options);

/* Partitions the model over the selected accelerators and compiles every
 * partition. The model must outlive the compiled model. */
tflaccel_status tflaccel_compiled_model_create(tflaccel_environment *environment,
                                               const tflaccel_model *model,
                                               const tflaccel_compilation_options *options,
                                               tflaccel_compiled_model **compiled_model);
void tflaccel_compiled_model_destroy(tflaccel_compiled_model *compiled_model);

uint32_t tflaccel_compiled_model_input_count(const tflaccel_compiled_model *compiled_model);
uint32_t tflaccel_compiled_model_output_count(const tflaccel_compiled_model *compiled_model);
tflaccel_status tflaccel_compiled_model_input_info(const tflaccel_compiled_model *compiled_model,
                                                   uint32_t index, tflaccel_tensor_info *info);
tflaccel_status tflaccel_compiled_model_output_info(const tflaccel_compiled_model *compiled_model,
                                                    uint32_t index, tflaccel_tensor_info *info);

/* The precision and CPU thread count the model was compiled with, after
 * defaults from the configuration were applied. */
int32_t tflaccel_compiled_model_precision(const tflaccel_compiled_model *compiled_model);
int32_t tflaccel_compiled_model_thread_count(const tflaccel_compiled_model *compiled_model);

/* Where each op runs. */
typedef struct tflaccel_partition_info {
  uint32_t struct_size;
  const char *accelerator;
  uint32_t op_count;
  const uint32_t *ops;       /* op indices of the prepared graph */
  uint32_t input_count, output_count;
  const uint32_t *inputs;    /* boundary tensor indices */
  const uint32_t *outputs;
  uint64_t boundary_bytes;   /* bytes moved in and out per run */
  /* Appended (a caller's smaller struct_size gets the fields above): the
   * precision (tflaccel_precision) the partition is compiled at: the
   * requested one, or fp32 for ops its accelerator holds exactly only in
   * fp32 (int32 values past fp16's exact integers). */
  int32_t precision;
} tflaccel_partition_info;

/* The stored op (tflaccel_model_op_info's index) that prepared-graph op
 * `prepared_op` (a partition's ops[] entry) came from. */
tflaccel_status tflaccel_model_prepared_op_source(const tflaccel_model *model,
                                                  uint32_t prepared_op, uint32_t *stored_op);

uint32_t tflaccel_compiled_model_partition_count(const tflaccel_compiled_model *compiled_model);
tflaccel_status tflaccel_compiled_model_partition_info(
    const tflaccel_compiled_model *compiled_model, uint32_t index,
    tflaccel_partition_info *info);

/* ---- Tensor buffers ----------------------------------------------------- */

typedef struct tflaccel_tensor_buffer tflaccel_tensor_buffer;

/* A host buffer shaped and typed for input/output `index`. */
tflaccel_status tflaccel_compiled_model_create_input_buffer(
    const tflaccel_compiled_model *compiled_model, uint32_t index,
    tflaccel_tensor_buffer **buffer);
tflaccel_status tflaccel_compiled_model_create_output_buffer(
    const tflaccel_compiled_model *compiled_model, uint32_t index,
    tflaccel_tensor_buffer **buffer);
tflaccel_status tflaccel_tensor_buffer_create(int32_t dtype, uint32_t rank, const int32_t *shape,
                                              tflaccel_tensor_buffer **buffer);
/* A buffer over the caller's host memory (size bytes, exactly what dtype and
 * shape need): nothing is copied or allocated for the data, which must stay
 * valid until the buffer is destroyed and is not freed by it. A run reads
 * inputs from it and writes outputs into it. */
tflaccel_status tflaccel_tensor_buffer_wrap_host(int32_t dtype, uint32_t rank,
                                                 const int32_t *shape, void *data, size_t size,
                                                 tflaccel_tensor_buffer **buffer);
void tflaccel_tensor_buffer_destroy(tflaccel_tensor_buffer *buffer);

int32_t tflaccel_tensor_buffer_dtype(const tflaccel_tensor_buffer *buffer);
uint32_t tflaccel_tensor_buffer_rank(const tflaccel_tensor_buffer *buffer);
const int32_t *tflaccel_tensor_buffer_shape(const tflaccel_tensor_buffer *buffer);
size_t tflaccel_tensor_buffer_byte_size(const tflaccel_tensor_buffer *buffer);
/* Direct access to the host bytes (valid until destroy). */
void *tflaccel_tensor_buffer_data(tflaccel_tensor_buffer *buffer);
/* Copies; size must equal the buffer's byte size. */
tflaccel_status tflaccel_tensor_buffer_write(tflaccel_tensor_buffer *buffer, const void *data,
                                             size_t size);
tflaccel_status tflaccel_tensor_buffer_read(const tflaccel_tensor_buffer *buffer, void *data,
                                            size_t size);

/* ---- Run ---------------------------------------------------------------- */

/* Runs the model once. inputs/outputs: one buffer per model input/output, in
 * order, whose dtype and shape must match (checked). Returns when outputs
 * are ready. */
tflaccel_status tflaccel_compiled_model_run(tflaccel_compiled_model *compiled_model,
                                            tflaccel_tensor_buffer *const *inputs,
                                            uint32_t input_count,
                                            tflaccel_tensor_buffer *const *outputs,
                                            uint32_t output_count);
/* Restores variable (state) tensors to their initial values. */
tflaccel_status tflaccel_compiled_model_reset_state(tflaccel_compiled_model *compiled_model);

/* ---- Profiling -------------------------------------------------------- */

/* With profiling on, every run records each partition's wall time: its
 * uploads, the plugin's execute (which returns when results are ready) and
 * its read-backs. Off by default; turning it on or off clears the record. */
tflaccel_status tflaccel_compiled_model_set_profiling(tflaccel_compiled_model *compiled_model,
                                                      int32_t enabled);
/* Microseconds partition `index` took in the latest profiled run; an error
 * when profiling is off or no profiled run has completed. */
tflaccel_status tflaccel_compiled_model_partition_run_us(
    const tflaccel_compiled_model *compiled_model, uint32_t index, double *microseconds);

/* One kernel launch of a partition on its accelerator (LiteRT GPU's
 * per-kernel profile): its GPU time summed over the partition's runs since
 * it was compiled. */
typedef struct tflaccel_kernel_profile {
  uint32_t struct_size;
  const char *kernel;  /* the accelerator's kernel name */
  uint32_t first_op;   /* prepared-graph op it computes; UINT32_MAX: none (a
                          layout conversion) */
  uint32_t op_count;   /* ops it stands for: first_op and the partition's ops after
                          it that launch no kernel of their own (fused) */
  uint64_t runs;       /* runs timed */
  uint64_t total_ns;   /* device time over those runs */
} tflaccel_kernel_profile;

/* Reads the kernel times of partition `index` from its accelerator and
 * keeps them until the next read of that partition: *count launches, 0 when
 * the accelerator does not time kernels (a CPU plugin, or a GPU plugin
 * whose option profile is not 1: see profile_kernels). Works with or
 * without set_profiling. */
tflaccel_status tflaccel_compiled_model_read_kernel_profile(tflaccel_compiled_model *compiled_model,
                                                            uint32_t index, uint32_t *count);
/* Launch `kernel` of the latest read of partition `index`. Names live as
 * long as the compiled model. */
tflaccel_status tflaccel_compiled_model_kernel_profile(
    const tflaccel_compiled_model *compiled_model, uint32_t index, uint32_t kernel,
    tflaccel_kernel_profile *info);

/* ---- The prepared graph ------------------------------------------------ */

/* The graph the partitions index (after load-time folding): its ops and
 * tensors as compiled, for profiles and memory listings. */
typedef struct tflaccel_graph_op_info {
  uint32_t struct_size;
  int32_t code;            /* tflaccel_op_code */
  const char *name;        /* op code name, the custom code, or "UNKNOWN" */
  const char *output_name; /* name of its first output tensor, "" when none */
  uint32_t partition;      /* the partition that runs it */
} tflaccel_graph_op_info;

enum tflaccel_tensor_storage {
  TFLACCEL_STORAGE_CONSTANT = 0,  /* in the model file (mapped) */
  TFLACCEL_STORAGE_HOST_ARENA = 1, /* the host arena: crosses partitions or the graph's edge */
  TFLACCEL_STORAGE_PARTITION = 2, /* inside one partition, held by its accelerator */
  TFLACCEL_STORAGE_NONE = 3       /* read by no op (unused) */
};

typedef struct tflaccel_graph_tensor_info {
  uint32_t struct_size;
  const char *name;
  int32_t dtype;
  uint32_t rank;
  const int32_t *shape;
  uint64_t byte_size;
  int32_t storage;         /* tflaccel_tensor_storage */
  int32_t partition;       /* the partition that writes it, -1 for none */
  uint64_t arena_offset;   /* for TFLACCEL_STORAGE_HOST_ARENA */
  int32_t is_variable;
} tflaccel_graph_tensor_info;

uint32_t tflaccel_compiled_model_graph_op_count(const tflaccel_compiled_model *compiled_model);
uint32_t tflaccel_compiled_model_graph_tensor_count(const tflaccel_compiled_model *compiled_model);
tflaccel_status tflaccel_compiled_model_graph_op_info(
    const tflaccel_compiled_model *compiled_model, uint32_t index, tflaccel_graph_op_info *info);
tflaccel_status tflaccel_compiled_model_graph_tensor_info(
    const tflaccel_compiled_model *compiled_model, uint32_t index,
    tflaccel_graph_tensor_info *info);
/* Bytes of the host arena (boundary tensors of every partition). */
uint64_t tflaccel_compiled_model_arena_bytes(const tflaccel_compiled_model *compiled_model);

/* ---- Device tensor buffers (appended in 0.2) ---------------------------
 *
 * As LiteRT's TensorBuffer: a buffer may keep its bytes in an accelerator's
 * own memory (tflaccel_buffer_type in types.h) instead of host memory. A
 * device buffer bound to an input or output of the partition that reads or
 * writes it on that same device is used there directly: no host staging and
 * no copy through the core's arena (the partition converts to its internal
 * layout with a dispatch of its own). Which types an input or output takes
 * is in its requirements: host always, and the native type of the
 * accelerator that alone reads it (input) or writes it and whose device
 * alone reads it after (output), then the external memory fds that
 * accelerator's driver imports (TFLACCEL_BUFFER_OPAQUE_FD, below
 * tflaccel_tensor_buffer_export); a buffer of any other type is refused with
 * a one-line error, never copied through the host behind the caller's back.
 *
 * Device buffers belong to the environment's device: destroy them before
 * the environment (they may outlive the compiled model that made them). */

/* At most this many types are listed per tensor (host, the device's own
 * buffer, and its external memory fds); fixed so that the struct keeps its
 * layout when buffer types are appended. */
#define TFLACCEL_BUFFER_REQUIREMENTS_MAX_TYPES 5

typedef struct tflaccel_buffer_requirements {
  uint32_t struct_size;
  uint32_t type_count;
  int32_t types[TFLACCEL_BUFFER_REQUIREMENTS_MAX_TYPES]; /* tflaccel_buffer_type; host first */
  uint64_t size;            /* bytes of the tensor */
  uint64_t alignment;       /* a wrapped buffer's offset is a multiple of this */
  const char *accelerator;  /* whose native type is listed; NULL when host only */
} tflaccel_buffer_requirements;

tflaccel_status tflaccel_compiled_model_input_buffer_requirements(
    const tflaccel_compiled_model *compiled_model, uint32_t index,
    tflaccel_buffer_requirements *requirements);
tflaccel_status tflaccel_compiled_model_output_buffer_requirements(
    const tflaccel_compiled_model *compiled_model, uint32_t index,
    tflaccel_buffer_requirements *requirements);

/* The API objects (cl_context, VkDevice, EGLContext, ...) of the accelerator
 * that reads input `index` (is_output 0) or writes output `index`, so that
 * the application can make buffers it may wrap: an error when that tensor
 * takes host buffers only. */
tflaccel_status tflaccel_compiled_model_native_device(const tflaccel_compiled_model *compiled_model,
                                                      int32_t is_output, uint32_t index,
                                                      tflaccel_native_device *device);

/* A buffer of `type` (one of the requirements' types) made by the
 * accelerator for input/output `index`; its native handle is
 * tflaccel_tensor_buffer_native's. TFLACCEL_BUFFER_HOST gives a host
 * buffer, as tflaccel_compiled_model_create_input_buffer. */
tflaccel_status tflaccel_compiled_model_create_input_device_buffer(
    const tflaccel_compiled_model *compiled_model, uint32_t index, int32_t type,
    tflaccel_tensor_buffer **buffer);
tflaccel_status tflaccel_compiled_model_create_output_device_buffer(
    const tflaccel_compiled_model *compiled_model, uint32_t index, int32_t type,
    tflaccel_tensor_buffer **buffer);

/* Wraps the application's own native buffer for input/output `index`: its
 * type must be in the requirements, the object must belong to the
 * accelerator's device (the native device above) and hold offset + size
 * bytes; size must be the tensor's byte size and offset a multiple of the
 * alignment. Each mismatch is a one-line error naming it. Nothing is
 * copied; the object must outlive the buffer, which does not free it. */
tflaccel_status tflaccel_compiled_model_wrap_input_buffer(
    const tflaccel_compiled_model *compiled_model, uint32_t index,
    const tflaccel_native_buffer *native, tflaccel_tensor_buffer **buffer);
tflaccel_status tflaccel_compiled_model_wrap_output_buffer(
    const tflaccel_compiled_model *compiled_model, uint32_t index,
    const tflaccel_native_buffer *native, tflaccel_tensor_buffer **buffer);

/* tflaccel_buffer_type; -1 for NULL. */
int32_t tflaccel_tensor_buffer_type(const tflaccel_tensor_buffer *buffer);
/* The native object and where the tensor lies in it; an error for host
 * buffers. Owned by the buffer. */
tflaccel_status tflaccel_tensor_buffer_native(const tflaccel_tensor_buffer *buffer,
                                              tflaccel_native_buffer *native);

/* Exports a device buffer's memory for another API or accelerator to
 * import (external memory). TFLACCEL_BUFFER_OPAQUE_FD: a new fd the caller
 * owns and closes; memory = the byte size of the allocation, offset and
 * size where the tensor lies in it. Offered for buffers the accelerator
 * made (tflaccel_compiled_model_create_*_device_buffer) on gpu_vk where
 * the driver has VK_KHR_external_memory_fd; anything else is a one-line
 * error naming what is missing. After the export, the buffer's host
 * writes (tflaccel_tensor_buffer_write, unlock) reach the exported memory
 * before they return and its host reads read it.
 *
 * The fd imports (tflaccel_compiled_model_wrap_*_buffer with type
 * TFLACCEL_BUFFER_OPAQUE_FD, where the requirements list it: gpu_vk,
 * gpu_gl with GL_EXT_memory_object_fd, gpu_cl with
 * cl_khr_external_memory_opaque_fd) only on the same physical device and
 * driver: compare tflaccel_native_device's device_uuid and driver_uuid of
 * the two. The import dup()s the fd. Neither side orders the other's work:
 * the application lets the writer finish (a blocking write, a run it
 * waited for) before the reader starts. */
tflaccel_status tflaccel_tensor_buffer_export(const tflaccel_tensor_buffer *buffer, int32_t type,
                                              tflaccel_native_buffer *native);

/* Host access to any buffer, as LiteRT's Lock/Unlock: lock first waits for
 * the buffer's event (the run writing it), then gives host bytes: a device
 * buffer's are read into a host copy (READ) and written back at unlock
 * (WRITE). tflaccel_tensor_buffer_data is NULL for device buffers;
 * tflaccel_tensor_buffer_read/write work on every buffer (they wait too). */
enum {
  TFLACCEL_LOCK_READ = 1,
  TFLACCEL_LOCK_WRITE = 2,
  TFLACCEL_LOCK_READ_WRITE = 3,
};
tflaccel_status tflaccel_tensor_buffer_lock(tflaccel_tensor_buffer *buffer, int32_t mode,
                                            void **data);
tflaccel_status tflaccel_tensor_buffer_unlock(tflaccel_tensor_buffer *buffer);

/* What the latest completed run moved through host memory: each copy of a
 * tensor between host memory and the core's arena or a device (uploads,
 * read-backs, the arena copies of host inputs and outputs). 0 on a run
 * whose inputs and outputs are device buffers bound in place. */
typedef struct tflaccel_run_stats {
  uint32_t struct_size;
  uint32_t host_copies;
  uint64_t host_copy_bytes;
} tflaccel_run_stats;

tflaccel_status tflaccel_compiled_model_last_run_stats(
    const tflaccel_compiled_model *compiled_model, tflaccel_run_stats *stats);

/* ---- Asynchronous runs and events (appended in 0.2) --------------------
 *
 * As LiteRT's RunAsync with SetEvent/GetEvent. An event is signalled once,
 * by a run or by tflaccel_tensor_event_signal; it is reference counted:
 * every function returning one gives the caller a reference it ends with
 * tflaccel_tensor_event_destroy.
 *
 * tflaccel_compiled_model_run_async checks its arguments, queues the run and
 * returns. The queued run waits for each input buffer's event (set by the
 * application, or an earlier run's output event) before reading it, and
 * gives each output buffer a new event, signalled when that output is
 * written (or the run failed: waiting then returns its error). Runs of one
 * compiled model happen in the order queued, on a thread of its own; a
 * model split over several accelerators runs them in order within the run.
 * The buffers must stay alive until the output events are signalled.
 * tflaccel_compiled_model_run waits for the runs queued before it and the
 * inputs' events, then runs.
 *
 * Threads: events may be waited on, polled, signalled and destroyed from
 * any thread, also while the run that signals them goes on. A compiled
 * model still takes calls from one thread at a time (queueing does not
 * make it shareable); a buffer must not be locked on one thread while
 * another queues a run with it.
 *
 * Native events: where the accelerator that writes an
 * output can (TFLACCEL_DEVICE_CAP_ASYNC: gpu_cl), its part of the run is
 * queued on the device and the output's event stands for the device's own
 * sync object, which tflaccel_tensor_event_get_native exports; the queue's
 * thread does not wait for the device. A queued run whose input (or
 * output) buffer is a device buffer of the accelerator that reads (writes)
 * it, carrying such an event of that same device, waits for it on the
 * device; every other event is waited for on the CPU first (so chains
 * across accelerators, e.g. cpu_ref after gpu_cl, keep working). An output
 * read back to host memory ends its run on the CPU: its event is the
 * core's own. Other events are the core's own (a mutex and a condition).
 * Events made by a device must be destroyed before its environment. */
typedef struct tflaccel_tensor_event tflaccel_tensor_event;

tflaccel_status tflaccel_compiled_model_run_async(tflaccel_compiled_model *compiled_model,
                                                  tflaccel_tensor_buffer *const *inputs,
                                                  uint32_t input_count,
                                                  tflaccel_tensor_buffer *const *outputs,
                                                  uint32_t output_count);

/* An unsignalled event the application signals (e.g. when its producer
 * finished writing an input buffer). */
tflaccel_status tflaccel_tensor_event_create(tflaccel_tensor_event **event);
/* An error when it was signalled already. */
tflaccel_status tflaccel_tensor_event_signal(tflaccel_tensor_event *event);
/* Blocks until signalled; returns the error of the run that failed to
 * signal it in success (a new status), else NULL. */
tflaccel_status tflaccel_tensor_event_wait(tflaccel_tensor_event *event);
/* 1 when signalled, 0 when not yet, -1 for NULL. Never blocks. */
int32_t tflaccel_tensor_event_is_signaled(const tflaccel_tensor_event *event);
void tflaccel_tensor_event_destroy(tflaccel_tensor_event *event);

/* The native sync object that ends event, as type (a
 * tflaccel_native_event_type; TFLACCEL_NATIVE_EVENT_NONE: the device's
 * own kind, e.g. a cl_event from gpu_cl). Waits until the run that
 * signals event is queued on its device (not until it finishes). The
 * object belongs to the event: valid until its last reference is
 * destroyed (retain a cl_event, dup() a sync_file fd to keep it longer),
 * except an OPAQUE_FD, a new fd the caller owns (closes, or hands to an
 * import that takes it). gpu_vk: VkFence (NONE); VULKAN_SEMAPHORE, the
 * device's timeline semaphore (the device's, valid while the environment
 * lives) with the value the run signals; OPAQUE_FD of that timeline with
 * the value (VK_KHR_external_semaphore_fd); SYNC_FILE_FD where the driver
 * exports binary semaphores as SYNC_FD (-1: signalled already).
 * TFLACCEL_UNSUPPORTED for a core event (one the application signals, or
 * a run that ended on the CPU) and for a type the device or its driver
 * lacks (naming the missing extension). */
tflaccel_status tflaccel_tensor_event_get_native(tflaccel_tensor_event *event, int32_t type,
                                                 tflaccel_native_event *native);
/* An event ended by the application's native sync object on the device of
 * `accelerator` ("gpu_cl") in environment, e.g. a cl_event of the
 * accelerator's cl_context (tflaccel_compiled_model_native_device): set it
 * on an input buffer and a queued run waits for it on that device. A
 * cl_event is retained and a sync_file or opaque semaphore fd dup()ed (the
 * application keeps and closes its own); a GLsync, EGLSyncKHR, VkFence or
 * VkSemaphore must stay alive until the event is destroyed. gpu_vk: a
 * VkSemaphore of its VkDevice (value 0: binary, its signal submitted
 * already; else timeline, the value to reach) or an OPAQUE_FD / SYNC_FILE_FD
 * imported into a semaphore of gpu_vk's is waited for in the queue by the
 * next run reading the input (a binary one consumed by that wait); a
 * VkFence is waited for on the CPU first. gpu_gl takes an EGLSyncKHR of the
 * accelerator's egl_display (EGL_KHR_fence_sync and EGL_KHR_wait_sync) and
 * an opaque semaphore fd (GL_EXT_semaphore_fd; a timeline value needs
 * GL_NV_timeline_semaphore), waited for at the first run that waits on the
 * event; gpu_cl takes a binary opaque semaphore fd
 * (cl_khr_external_semaphore_opaque_fd; value 0) and queues its wait on
 * the device at once, so the device's later work waits for it. A binary
 * semaphore's signal must be submitted before its wait is queued (for
 * gpu_cl, before this call), and it ends one wait: wrap it for one event.
 * Another context's or display's object, an unknown type or a NULL
 * handle: TFLACCEL_INVALID_ARGUMENT; a type the accelerator lacks:
 * TFLACCEL_UNSUPPORTED naming the missing extension. */
tflaccel_status tflaccel_tensor_event_create_from_native(tflaccel_environment *environment,
                                                         const char *accelerator,
                                                         const tflaccel_native_event *native,
                                                         tflaccel_tensor_event **event);

/* The buffer keeps its own reference to event (NULL removes it). */
tflaccel_status tflaccel_tensor_buffer_set_event(tflaccel_tensor_buffer *buffer,
                                                 tflaccel_tensor_event *event);
/* A new reference to the buffer's event, NULL when it has none. */
tflaccel_status tflaccel_tensor_buffer_get_event(const tflaccel_tensor_buffer *buffer,
                                                 tflaccel_tensor_event **event);

#ifdef __cplusplus
}
#endif
#endif /* TFLACCEL_TFLACCEL_H */
