/* cpu_ref kernels: the interface between the plugin's executor
 * (plugins/cpu_ref/plugin.c) and one op's implementation.
 *
 * A kernel is found by op code and by the dtype family of the op's tensors
 * (cpu_kernel_lookup). At compile time check() says whether it can run this
 * op (and why not), then prepare() may precompute what every run needs
 * (repacked weights, fixed-point multipliers) into op_data; eval() runs it. */
#ifndef TFLACCEL_CPU_REF_KERNEL_H
#define TFLACCEL_CPU_REF_KERNEL_H

#include "tflaccel/accelerator.h"
#include "plugins/cpu_ref/thread_pool.h"

typedef struct cpu_op_context {
  const tflaccel_host_services *host;
  const tflaccel_graph_view *graph;
  const tflaccel_op_desc *op;
  uint32_t op_index;
  /* Host address of every tensor of the model (indexed by tensor index):
   * constants point at their data, activations into the arena or a bound
   * buffer, variables at the executable's state. NULL for tensors the
   * partition does not touch. */
  void *const *tensor_data;
  void *op_data;          /* what prepare() stored, or NULL */
  cpu_thread_pool *pool;  /* never NULL; may have a single thread */
  int32_t precision;      /* tflaccel_precision requested */
} cpu_op_context;

typedef struct cpu_kernel {
  int32_t op_code; /* tflaccel_op_code; custom ops: TFLACCEL_OP_CUSTOM */
  const char *custom_code; /* custom ops only */
  /* Returns 1 when the kernel handles this op; else 0 and a one-line reason
   * (no trailing period) in reason[TFLACCEL_REASON_SIZE]. Pure. */
  int (*check)(const tflaccel_graph_view *graph, const tflaccel_op_desc *op, char *reason);
  /* Optional: at compile time; may store an allocation in *op_data
   * (allocated with host->alloc, freed by release). */
  tflaccel_status (*prepare)(const cpu_op_context *context, void **op_data);
  void (*release)(const tflaccel_host_services *host, void *op_data);
  tflaccel_status (*eval)(const cpu_op_context *context);
} cpu_kernel;

/* Kernels for float32 and for dtype-generic ops (data movement, int32,
 * int64, bool): plugins/cpu_ref/kernels/generic_registry.c. */
const cpu_kernel *cpu_generic_kernel_find(const tflaccel_graph_view *graph,
                                          const tflaccel_op_desc *op);
/* Kernels for quantized tensors (uint8, int8, int16) and the recurrent ops
 * (LSTM, UNIDIRECTIONAL_SEQUENCE_LSTM, SVDF) in every type:
 * plugins/cpu_ref/kernels/quantized_registry.c. */
const cpu_kernel *cpu_quantized_kernel_find(const tflaccel_graph_view *graph,
                                            const tflaccel_op_desc *op);

/* Kernels for custom ops, by custom_code:
 * plugins/cpu_ref/kernels/custom_registry.c. */
const cpu_kernel *cpu_custom_kernel_find(const tflaccel_graph_view *graph,
                                         const tflaccel_op_desc *op);

/* The custom table (by custom_code), the quantized one (it claims quantized
 * and recurrent ops), then the generic one. NULL when no kernel exists for this op code and types. */
const cpu_kernel *cpu_kernel_lookup(const tflaccel_graph_view *graph, const tflaccel_op_desc *op);

#endif
