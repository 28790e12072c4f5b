/* A private copy of the graph view a partition was compiled from: the core
 * lends the view for the compile call only, and kernels read tensor shapes
 * and op parameters at every run. Constant data is not copied (the core keeps
 * it alive as long as the executable). */
#ifndef TFLACCEL_CPU_REF_GRAPH_COPY_H
#define TFLACCEL_CPU_REF_GRAPH_COPY_H

#include "tflaccel/accelerator.h"

typedef struct cpu_graph_copy {
  tflaccel_graph_view view; /* points into storage */
  void *storage;            /* one host allocation holding everything */
} cpu_graph_copy;

tflaccel_status cpu_graph_copy_create(const tflaccel_host_services *host,
                                      const tflaccel_graph_view *graph, cpu_graph_copy *copy);
void cpu_graph_copy_destroy(const tflaccel_host_services *host, cpu_graph_copy *copy);

#endif
