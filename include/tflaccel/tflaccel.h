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

#ifdef __cplusplus
}
#endif
#endif /* TFLACCEL_TFLACCEL_H */
